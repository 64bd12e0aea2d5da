//! Exact synchronization counts of the deques (issue 2): the split deque's private
//! operations execute nothing synchronizing; ABP and Chase-Lev execute at least one fence
//! per pop, as their algorithms require; and every known path costs exactly what its
//! module doc says. Counts are per thread, so each test runs owner and thief calls on the
//! test's own thread and reads [`SyncCounts::current_thread`] around them.

use std::num::NonZeroUsize;

use splitsteal_core::deque::{Abp, ChaseLev, Exposure, Locked, Owner, Split, Steal, Stealer};
use splitsteal_core::stats::{SyncCounts, SyncOps};

type Task = NonZeroUsize;

const PAIRS: usize = 1_000_000;

fn t(i: usize) -> Task {
    NonZeroUsize::new(i).unwrap()
}

/// The counts `f` adds on this thread.
fn counted(f: impl FnOnce()) -> SyncCounts {
    let before = SyncCounts::current_thread();
    f();
    SyncCounts::current_thread() - before
}

fn ops(cas: u64, rmw: u64, fences: u64) -> SyncOps {
    SyncOps {
        cas,
        rmw,
        fences,
        heavy_fences: 0,
    }
}

#[test]
fn split_private_push_pop_pairs_execute_no_cas_and_no_fence() {
    let mut d: Split<Task> = Split::with_capacity(64);
    let c = counted(|| {
        for i in 1..=PAIRS {
            d.push(t(i)).unwrap();
            assert_eq!(d.pop(), Some(t(i)));
        }
    });
    assert_eq!(c.owner, ops(0, 0, 0));
    assert_eq!(c.thief, ops(0, 0, 0));
}

#[test]
fn split_nested_private_work_executes_no_synchronization() {
    // Deeper private stacks (a fork-join recursion), still nothing synchronizing.
    let mut d: Split<Task> = Split::with_capacity(64);
    let c = counted(|| {
        for round in 0..PAIRS / 32 {
            for i in 1..=32 {
                d.push(t(round + i)).unwrap();
            }
            for _ in 0..32 {
                assert!(d.pop().is_some());
            }
            assert_eq!(d.pop(), None);
        }
    });
    assert_eq!(c.owner, ops(0, 0, 0));
}

/// `PAIRS` pops on a deque of one task (each pop races for the last task) and `PAIRS` pops
/// with another task above (no race): `pops` fences in all, a CAS only for last tasks.
fn fence_per_pop<D: Owner<Task>>() {
    let mut d = D::with_capacity(64);
    let c = counted(|| {
        for i in 1..=PAIRS {
            d.push(t(i)).unwrap();
            assert_eq!(d.pop(), Some(t(i)));
        }
    });
    assert_eq!(
        c.owner,
        ops(PAIRS as u64, 0, PAIRS as u64),
        "last-task pops"
    );
    d.push(t(1)).unwrap();
    let c = counted(|| {
        for i in 2..=PAIRS + 1 {
            d.push(t(i)).unwrap();
            assert_eq!(d.pop(), Some(t(i)));
        }
    });
    assert_eq!(c.owner, ops(0, 0, PAIRS as u64), "pops with a task above");
    assert!(c.owner.fences >= PAIRS as u64, "at least one fence per pop");
}

#[test]
fn abp_executes_at_least_one_fence_per_pop() {
    fence_per_pop::<Abp<Task>>();
}

#[test]
fn chase_lev_executes_at_least_one_fence_per_pop() {
    fence_per_pop::<ChaseLev<Task>>();
}

/// The paths shared by ABP and Chase-Lev (their module docs' tables).
fn classic_paths<D: Owner<Task>>() {
    let mut d = D::with_capacity(4);
    let s = d.stealer();
    // push: nothing.
    assert_eq!(
        counted(|| (1..=3).for_each(|i| d.push(t(i)).unwrap())),
        SyncCounts::default()
    );
    // Uncontended steal: 1 fence + 1 CAS on the thief side.
    let c = counted(|| assert_eq!(s.steal(), Steal::Success(t(1))));
    assert_eq!((c.thief, c.owner), (ops(1, 0, 1), ops(0, 0, 0)));
    // Pop with a task above: 1 fence.
    let c = counted(|| assert_eq!(d.pop(), Some(t(3))));
    assert_eq!((c.owner, c.thief), (ops(0, 0, 1), ops(0, 0, 0)));
    // Pop of the last task: 1 fence + 1 CAS.
    let c = counted(|| assert_eq!(d.pop(), Some(t(2))));
    assert_eq!(c.owner, ops(1, 0, 1));
    // Steal on an empty deque: nothing (no fence before it looks non-empty).
    assert_eq!(
        counted(|| assert_eq!(s.steal(), Steal::Empty)),
        SyncCounts::default()
    );
    // Pop after thieves emptied the deque: 1 fence to find out, no CAS.
    d.push(t(4)).unwrap();
    assert_eq!(s.steal(), Steal::Success(t(4)));
    let c = counted(|| assert_eq!(d.pop(), None));
    assert_eq!(c.owner, ops(0, 0, 1));
}

#[test]
fn abp_exact_counts_per_path() {
    classic_paths::<Abp<Task>>();
    // ABP's pop on a reset deque (`bot == 0`) returns at once.
    let mut d: Abp<Task> = Abp::with_capacity(4);
    assert_eq!(counted(|| assert_eq!(d.pop(), None)), SyncCounts::default());
}

#[test]
fn chase_lev_exact_counts_per_path() {
    classic_paths::<ChaseLev<Task>>();
    // Once the owner has seen its deque empty, a pop costs nothing; growing costs nothing.
    let mut d: ChaseLev<Task> = ChaseLev::with_capacity(1);
    assert_eq!(
        counted(|| {
            assert_eq!(d.pop(), None);
            for i in 1..=100 {
                d.push(t(i)).unwrap();
            }
        }),
        SyncCounts::default()
    );
    assert_eq!(d.capacity(), 128);
}

#[test]
fn split_exact_counts_per_path() {
    let mut d: Split<Task> = Split::with_capacity(8);
    let s = d.stealer();
    (1..=4).for_each(|i| d.push(t(i)).unwrap());
    // Private work only: the thief learns it without any synchronization.
    assert_eq!(
        counted(|| assert_eq!(s.steal(), Steal::PrivateWork)),
        SyncCounts::default()
    );
    // Exposure: plain loads and a store.
    assert_eq!(
        counted(|| assert_eq!(d.expose(Exposure::Half), 2)),
        SyncCounts::default()
    );
    // Uncontended steal of a public task: 1 fence + 1 CAS.
    let c = counted(|| assert_eq!(s.steal(), Steal::Success(t(1))));
    assert_eq!((c.thief, c.owner), (ops(1, 0, 1), ops(0, 0, 0)));
    // Private pops: nothing.
    let c = counted(|| {
        assert_eq!(d.pop(), Some(t(4)));
        assert_eq!(d.pop(), Some(t(3)));
    });
    assert_eq!(c, SyncCounts::default());
    // The last public task: pop_public_bottom's fence + CAS.
    let c = counted(|| assert_eq!(d.pop(), Some(t(2))));
    assert_eq!(c.owner, ops(1, 0, 1));
    // A public task with another above it: 1 fence, no CAS.
    (5..=6).for_each(|i| d.push(t(i)).unwrap());
    d.expose(Exposure::Half);
    d.expose(Exposure::One);
    let c = counted(|| assert_eq!(d.pop(), Some(t(6))));
    assert_eq!(c.owner, ops(0, 0, 1));
    // Thieves took the rest: 1 fence to find out, no CAS.
    assert_eq!(s.steal(), Steal::Success(t(5)));
    let c = counted(|| assert_eq!(d.pop(), None));
    assert_eq!(c.owner, ops(0, 0, 1));
    // Nothing exposed since the reset: nothing synchronizing.
    assert_eq!(counted(|| assert_eq!(d.pop(), None)), SyncCounts::default());
    assert_eq!(
        counted(|| assert_eq!(s.steal(), Steal::Empty)),
        SyncCounts::default()
    );
}

#[test]
fn locked_counts_one_cas_and_one_rmw_per_operation() {
    let mut d: Locked<Task> = Locked::with_capacity(4);
    let s = d.stealer();
    let c = counted(|| {
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        assert_eq!(d.pop(), Some(t(2)));
    });
    assert_eq!((c.owner, c.thief), (ops(3, 3, 0), ops(0, 0, 0)));
    let c = counted(|| {
        assert_eq!(s.steal(), Steal::Success(t(1)));
        assert_eq!(s.steal(), Steal::Empty);
    });
    assert_eq!((c.thief, c.owner), (ops(2, 2, 0), ops(0, 0, 0)));
}

#[test]
fn stealers_are_send_sync_clone_and_owners_send() {
    fn stealer<S: Stealer<Task> + Send + Sync + Clone + 'static>() {}
    fn owner<O: Owner<Task> + Send + 'static>() {}
    stealer::<splitsteal_core::deque::AbpStealer<Task>>();
    stealer::<splitsteal_core::deque::ChaseLevStealer<Task>>();
    stealer::<splitsteal_core::deque::LockedStealer<Task>>();
    stealer::<splitsteal_core::deque::SplitStealer<Task>>();
    owner::<Abp<Task>>();
    owner::<ChaseLev<Task>>();
    owner::<Locked<Task>>();
    owner::<Split<Task>>();
}

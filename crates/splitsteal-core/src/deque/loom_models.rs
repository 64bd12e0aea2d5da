//! loom models of the lock-free deques: every interleaving (up to a preemption bound) of
//! an owner and one or two thieves, checking that every task is taken exactly once.
//!
//! Compiled only as the library's unit tests under `--cfg loom` (loom is a dev-dependency,
//! so it never enters a user's lock file). Run with the crate's other loom models:
//! ```text
//! RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom \
//!     cargo test -p splitsteal-core --release --lib -- loom_
//! ```
//!
//! loom models `fence(SeqCst)` (which the deques use for every StoreLoad ordering) but
//! treats SeqCst *accesses* as AcqRel, so a bug hidden by a SeqCst access would still be
//! reported here (a false alarm at worst, never a missed fence).
//!
//! # Bounds
//!
//! Models with one thief are explored exhaustively. Models with two thieves use a
//! preemption bound of [`PREEMPTIONS`] = 3 (every schedule with at most 3 forced context
//! switches; loom's documentation notes that 2–3 already finds nearly all bugs).
//! `LOOM_MAX_PREEMPTIONS=n` overrides the bound of every model. Each model prints how many
//! executions it explored (`--nocapture`); the whole file takes about a minute.

use std::num::NonZeroUsize;

use crate::deque::{Abp, Asym, ChaseLev, Exposure, Owner, Split, Steal, StealAmount, Stealer};
use crate::wakeup::loom_answers::{self, Mode};
use loom::thread;

/// Preemption bound of the bounded models (see the module doc).
const PREEMPTIONS: usize = 3;

type Task = NonZeroUsize;

fn t(i: usize) -> Task {
    NonZeroUsize::new(i).unwrap()
}

/// A deque under test. `publish` makes every task stealable (a no-op except for the split
/// deque, whose pushes are private until exposed).
trait ModelDeque: Owner<Task> + 'static {
    fn publish(&mut self) {}
}

impl ModelDeque for Abp<Task> {}
impl ModelDeque for Asym<Task> {}
impl ModelDeque for ChaseLev<Task> {}
impl ModelDeque for Split<Task> {
    fn publish(&mut self) {
        while self.expose(Exposure::Half) > 0 {}
    }
}

/// Runs `f` under loom: exhaustively, or with the bound if `bounded`.
fn model(bounded: bool, f: impl Fn() + Sync + Send + 'static) {
    model_with_bound(bounded.then_some(PREEMPTIONS), f);
}

/// Runs `f` under loom with the given preemption bound (`None`: exhaustive), unless
/// `LOOM_MAX_PREEMPTIONS` is set.
/// Prints how many executions were explored (visible with `--nocapture`).
fn model_with_bound(bound: Option<usize>, f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = bound;
    }
    let executions = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = executions.clone();
    builder.check(move || {
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        f();
    });
    let name = std::thread::current().name().unwrap_or("?").to_owned();
    let n = executions.load(std::sync::atomic::Ordering::Relaxed);
    let bound = builder
        .preemption_bound
        .map_or("none".into(), |b| b.to_string());
    println!("{name}: {n} executions explored (preemption bound {bound})");
}

/// A thief that makes `attempts` steal attempts and returns what it took.
fn thief<D: ModelDeque>(d: &D, attempts: usize) -> thread::JoinHandle<Vec<usize>> {
    let s = d.stealer();
    thread::spawn(move || {
        (0..attempts)
            .filter_map(|_| s.steal().success().map(NonZeroUsize::get))
            .collect()
    })
}

/// Joins the thieves, drains the owner, and asserts that `1..=n` were each taken exactly
/// once (by `owner_took`, a thief or the drain).
fn assert_exactly_once<D: ModelDeque>(
    mut d: D,
    thieves: Vec<thread::JoinHandle<Vec<usize>>>,
    mut owner_took: Vec<usize>,
    n: usize,
) {
    let mut all: Vec<usize> = thieves
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    all.append(&mut owner_took);
    while let Some(v) = d.pop() {
        all.push(v.get());
    }
    assert_eq!(d.stealer().steal(), Steal::Empty);
    all.sort_unstable();
    assert_eq!(
        all,
        (1..=n).collect::<Vec<_>>(),
        "a task was lost or taken twice"
    );
}

/// Two tasks; the owner pops both while a thief steals: the second pop races for the last.
fn last_task_one_thief<D: ModelDeque>() {
    model(false, || {
        let mut d = D::with_capacity(4);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        d.publish();
        let thieves = vec![thief(&d, 1)];
        let took: Vec<usize> = (0..2).filter_map(|_| d.pop()).map(|v| v.get()).collect();
        assert_exactly_once(d, thieves, took, 2);
    });
}

/// One task; the owner and two thieves all go for it.
fn last_task_two_thieves<D: ModelDeque>() {
    model(true, || {
        let mut d = D::with_capacity(4);
        d.push(t(1)).unwrap();
        d.publish();
        let thieves = vec![thief(&d, 1), thief(&d, 1)];
        let took: Vec<usize> = d.pop().map(|v| v.get()).into_iter().collect();
        assert_exactly_once(d, thieves, took, 1);
    });
}

/// Two tasks, two thieves and the owner's two pops.
fn two_tasks_two_thieves<D: ModelDeque>() {
    model(true, || {
        let mut d = D::with_capacity(4);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        d.publish();
        let thieves = vec![thief(&d, 1), thief(&d, 1)];
        let took: Vec<usize> = (0..2).filter_map(|_| d.pop()).map(|v| v.get()).collect();
        assert_exactly_once(d, thieves, took, 2);
    });
}

/// ABA: a thief reads the top (index 0, task 1) and may pause before its CAS while the
/// owner empties the deque (ABP/split: indices reset to 0) and refills index 0 with task 2.
fn empty_and_refill_under_a_paused_thief<D: ModelDeque>() {
    model(false, || {
        let mut d = D::with_capacity(4);
        d.push(t(1)).unwrap();
        d.publish();
        let thieves = vec![thief(&d, 1)];
        let mut took: Vec<usize> = d.pop().map(|v| v.get()).into_iter().collect();
        d.push(t(2)).unwrap();
        d.publish();
        took.extend(d.pop().map(|v| v.get()));
        d.push(t(3)).unwrap();
        d.publish();
        assert_exactly_once(d, thieves, took, 3);
    });
}

/// Ring reuse (issue 33): the deque is full (2 of 2) while thieves steal; the owner pushes
/// a third task, which fits only if a thief took task 1, into task 1's slot (index 2,
/// slot 0) with no reset in between, then pops. A thief that read `top = 0` and slot 0,
/// then paused while the other thief took task 1 and the owner rewrote slot 0, must fail
/// its CAS. Thief A tries once, whenever it runs; thief B tries once and is joined before
/// the third push, so that the owner sees B's claim: with both thieves concurrent the
/// owner never saw a claim before its push under loom, and the model never reached the
/// reuse (every third push was refused).
fn reuse_a_stolen_slot<D: ModelDeque>() {
    model(false, || {
        let mut d = D::with_capacity(2);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        d.publish();
        let a = thief(&d, 1);
        let mut took = thief(&d, 1).join().unwrap();
        // Full: the owner keeps task 3 (the runtime would run or queue it elsewhere).
        if d.push(t(3)).is_err() {
            took.push(3);
        }
        d.publish();
        took.extend(d.pop().map(|v| v.get()));
        assert_exactly_once(d, vec![a], took, 3);
    });
}

#[test]
fn abp_ring_reuse() {
    reuse_a_stolen_slot::<Abp<Task>>();
}

/// The split deque full (2 of 2) while thieves steal: its third task goes to a slot of its
/// own (index 2) if a thief took task 1, else the owner keeps it. With one thief:
/// exhaustive; with two: bounded.
fn full_while_stealing<D: ModelDeque>(thieves: usize) {
    model(thieves > 1, move || {
        let mut d = D::with_capacity(2);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        d.publish();
        let handles = (0..thieves).map(|_| thief(&d, 1)).collect();
        let mut took: Vec<usize> = d.push(t(3)).err().map(|_| 3).into_iter().collect();
        d.publish();
        took.extend(d.pop().map(|v| v.get()));
        assert_exactly_once(d, handles, took, 3);
    });
}

#[test]
fn split_full_while_stealing_one_thief() {
    full_while_stealing::<Split<Task>>(1);
}

#[test]
fn split_full_while_stealing_two_thieves() {
    full_while_stealing::<Split<Task>>(2);
}

/// The split deque's compaction (capacity 1: two slots). Task 1 is public; thief A tries
/// once, whenever it runs; thief B tries once and is joined. Then the owner pushes task 2
/// (at index 1 if a thief took task 1) and task 3, which finds `bot` at the last slot:
/// with no task public the owner moves task 2 down to index 0 under a new tag. If A read
/// `top = 0` and slot 0 before the move and B took task 1, A's claim must fail: without
/// the new tag its old `age` would match again and task 1 would be taken twice.
#[test]
fn split_compaction_under_a_paused_thief() {
    model(false, || {
        let mut d = Split::<Task>::with_capacity(1);
        d.push(t(1)).unwrap();
        d.publish();
        let a = thief(&d, 1);
        let mut took = thief(&d, 1).join().unwrap();
        // Full (no room, or a task still public at the last slot): the owner keeps it.
        for i in 2..=3 {
            if d.push(t(i)).is_err() {
                took.push(i);
            }
        }
        took.extend(d.pop().map(|v| v.get()));
        assert_exactly_once(d, vec![a], took, 3);
    });
}

#[test]
fn abp_last_task_one_thief() {
    last_task_one_thief::<Abp<Task>>();
}

#[test]
fn abp_last_task_two_thieves() {
    last_task_two_thieves::<Abp<Task>>();
}

#[test]
fn abp_two_tasks_two_thieves() {
    two_tasks_two_thieves::<Abp<Task>>();
}

#[test]
fn abp_aba_empty_and_refill() {
    empty_and_refill_under_a_paused_thief::<Abp<Task>>();
}

#[test]
fn chase_lev_last_task_one_thief() {
    last_task_one_thief::<ChaseLev<Task>>();
}

#[test]
fn chase_lev_last_task_two_thieves() {
    last_task_two_thieves::<ChaseLev<Task>>();
}

#[test]
fn chase_lev_two_tasks_two_thieves() {
    two_tasks_two_thieves::<ChaseLev<Task>>();
}

#[test]
fn chase_lev_empty_and_refill() {
    empty_and_refill_under_a_paused_thief::<ChaseLev<Task>>();
}

#[test]
fn split_last_task_one_thief() {
    last_task_one_thief::<Split<Task>>();
}

#[test]
fn split_last_task_two_thieves() {
    last_task_two_thieves::<Split<Task>>();
}

#[test]
fn split_two_tasks_two_thieves() {
    two_tasks_two_thieves::<Split<Task>>();
}

#[test]
fn split_aba_empty_and_refill() {
    empty_and_refill_under_a_paused_thief::<Split<Task>>();
}

/// Chase-Lev growth while a thief steals: the buffer is full (2 of 2), the owner's push
/// moves the tasks to a new buffer of 4 while the thief may hold the old one.
#[test]
fn chase_lev_growth_while_stealing() {
    model(false, || {
        let mut d = ChaseLev::<Task>::with_capacity(2);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        let thieves = vec![thief(&d, 2)];
        d.push(t(3)).unwrap();
        assert_eq!(d.capacity(), 4);
        let took: Vec<usize> = d.pop().map(|v| v.get()).into_iter().collect();
        assert_exactly_once(d, thieves, took, 3);
    });
}

/// Chase-Lev buffer reuse: the thief may load buffer B (8 slots) and read it only after the
/// owner shrank into A (4 slots, retired earlier), refilled A and grew again into the
/// *reused* B, rewriting its slots. Exactly-once must still hold.
#[test]
fn chase_lev_shrink_and_regrow_into_a_reused_buffer_while_stealing() {
    // Exhaustive: covers "the thief loads B, is preempted while the owner shrinks, refills
    // and regrows into B, then reads B's rewritten slot and CASes".
    model_with_bound(None, || {
        let mut d = ChaseLev::<Task>::with_capacity(4);
        for i in 1..=5 {
            d.push(t(i)).unwrap(); // the fifth grows A (4) into B (8)
        }
        let mut took: Vec<usize> = (0..3).filter_map(|_| d.pop()).map(|v| v.get()).collect();
        assert_eq!((d.len(), d.capacity()), (2, 8));
        let thieves = vec![thief(&d, 1)];
        took.extend(d.pop().map(|v| v.get())); // 1 task left < 8 / 4: shrinks into A
        for i in 6..=9 {
            // Unless the thief took task 1 meanwhile, the last push grows into the reused B.
            d.push(t(i)).unwrap();
        }
        assert_exactly_once(d, thieves, took, 9);
    });
}

/// Split: an exposure races a steal, then the owner's `pop_public_bottom` races the thief
/// for the public part while the thief may still be in the middle of its steal.
#[test]
fn split_exposure_races_steal_and_pop_public_bottom() {
    model(false, || {
        let mut d = Split::<Task>::with_capacity(4);
        for i in 1..=3 {
            d.push(t(i)).unwrap();
        }
        assert_eq!(d.expose(Exposure::One), 1); // public: [1], private: [2, 3]
        let thieves = vec![thief(&d, 2)];
        assert_eq!(d.expose(Exposure::One), 1); // public: [1, 2], private: [3]
        let mut took: Vec<usize> = d.pop_private().map(|v| v.get()).into_iter().collect();
        assert_eq!(took, vec![3]);
        assert_eq!(d.pop_private(), None);
        took.extend(d.pop_public_bottom().map(|v| v.get()));
        took.extend(d.pop_public_bottom().map(|v| v.get()));
        assert_exactly_once(d, thieves, took, 3);
    });
}

/// Split: exposures while two thieves steal, the owner pushing and popping privately in
/// between and finally reclaiming the public part.
#[test]
fn split_exposures_with_two_thieves() {
    model(true, || {
        let mut d = Split::<Task>::with_capacity(4);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        let thieves = vec![thief(&d, 1), thief(&d, 1)];
        d.expose(Exposure::One);
        d.push(t(3)).unwrap();
        d.expose(Exposure::Half);
        let took: Vec<usize> = (0..2).filter_map(|_| d.pop()).map(|v| v.get()).collect();
        assert_exactly_once(d, thieves, took, 3);
    });
}

#[test]
fn asym_last_task_one_thief() {
    last_task_one_thief::<Asym<Task>>();
}

#[test]
fn asym_last_task_two_thieves() {
    last_task_two_thieves::<Asym<Task>>();
}

#[test]
fn asym_two_tasks_two_thieves() {
    two_tasks_two_thieves::<Asym<Task>>();
}

#[test]
fn asym_empty_and_refill() {
    empty_and_refill_under_a_paused_thief::<Asym<Task>>();
}

#[test]
fn asym_full_while_stealing_one_thief() {
    full_while_stealing::<Asym<Task>>(1);
}

#[test]
fn asym_ring_reuse() {
    reuse_a_stolen_slot::<Asym<Task>>();
}

/// The asymmetric deque's fallback: its owner fences every pop (no heavy fence), thieves
/// a `SeqCst` fence after their claim.
#[test]
fn asym_owner_fences_last_task_one_thief() {
    model(false, || {
        let mut d = Asym::<Task>::with_owner_fences(4);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        let thieves = vec![thief(&d, 1)];
        let took: Vec<usize> = (0..2).filter_map(|_| d.pop()).map(|v| v.get()).collect();
        assert_exactly_once(d, thieves, took, 2);
    });
}

/// Steal-half: three tasks, a thief that takes ⌈n/2⌉ of what it sees while the owner pops
/// all three. A claim of two can meet the owner's pops inside it (a revoke, or a commit of
/// fewer than claimed).
#[test]
fn asym_steal_half_races_the_owners_pops() {
    model(false, || {
        let mut d = Asym::<Task>::with_capacity(4);
        for i in 1..=3 {
            d.push(t(i)).unwrap();
        }
        let s = d.stealer();
        let half = thread::spawn(move || {
            let mut got = Vec::new();
            if let Steal::Success(v) = s.steal_batch(StealAmount::Half, |v| got.push(v.get())) {
                got.push(v.get());
            }
            got
        });
        let took: Vec<usize> = (0..3).filter_map(|_| d.pop()).map(|v| v.get()).collect();
        assert_exactly_once(d, vec![half], took, 3);
    });
}

/// The asymmetric deque's compaction (capacity 1: two slots): task 1 is stolen or not by
/// thief A (tries once, whenever it runs) and thief B (joined); the owner's pushes of 2
/// and 3 find `bot` at the last slot and move the task down under the line's lock. A
/// claim A made before the move must not commit after it.
#[test]
fn asym_compaction_under_a_paused_thief() {
    model(false, || {
        let mut d = Asym::<Task>::with_capacity(1);
        d.push(t(1)).unwrap();
        let a = thief(&d, 1);
        let mut took = thief(&d, 1).join().unwrap();
        for i in 2..=3 {
            if d.push(t(i)).is_err() {
                took.push(i);
            }
        }
        took.extend(d.pop().map(|v| v.get()));
        assert_exactly_once(d, vec![a], took, 3);
    });
}

/// A thief whose heavy fence fails (a filter installed after the deque was built): it
/// withdraws its claim and asks the owner to fence; the owner's next pop says it does,
/// and from then on thieves steal with a `SeqCst` fence. Every task is taken once.
#[test]
fn asym_heavy_fence_lost_while_stealing() {
    model(false, || {
        let mut d = Asym::<Task>::with_capacity(4);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        let failing = d.stealer().with_heavy_fence(|| {
            crate::sync::fence(crate::sync::Ordering::SeqCst);
            false
        });
        assert_eq!(failing.steal(), Steal::Abort);
        let thieves = vec![thief(&d, 1)];
        let took: Vec<usize> = (0..2).filter_map(|_| d.pop()).map(|v| v.get()).collect();
        assert!(d.owner_fences());
        assert_exactly_once(d, thieves, took, 2);
    });
}

/// Steal-half with two thieves: three tasks, each thief takes ⌈n/2⌉ of what it sees while
/// the owner pops all three, cutting a claim down or revoking it when its pops reach one.
#[test]
fn asym_two_half_stealing_thieves() {
    model(true, || {
        let mut d = Asym::<Task>::with_capacity(4);
        for i in 1..=3 {
            d.push(t(i)).unwrap();
        }
        let thieves = (0..2)
            .map(|_| {
                let s = d.stealer();
                thread::spawn(move || {
                    let mut got = Vec::new();
                    if let Steal::Success(v) =
                        s.steal_batch(StealAmount::Half, |v| got.push(v.get()))
                    {
                        got.push(v.get());
                    }
                    got
                })
            })
            .collect();
        let took: Vec<usize> = (0..3).filter_map(|_| d.pop()).map(|v| v.get()).collect();
        assert_exactly_once(d, thieves, took, 3);
    });
}

/// The owner's answer alone: the thief waits for it however long, no heavy fence runs, and
/// the owner's light fence is the compiler fence it is at run time (`wakeup::loom_answers`),
/// so nothing but the answer's Release store and the thief's Acquire load orders the
/// owner's pops before the thief's look at `bot`. `n` tasks; the owner pops them all while
/// a thief steals (one, or half), then answers until the thief is done. Bounded: the two
/// waits are spin loops, whose interleavings grow fast.
fn asym_answered(mode: Mode, n: usize, amount: StealAmount) {
    loom_answers::with(mode, || {
        model_with_bound(Some(2), move || {
            let mut d = Asym::<Task>::with_capacity(4);
            for i in 1..=n {
                d.push(t(i)).unwrap();
            }
            let s = d.stealer();
            let done = loom::sync::Arc::new(loom::sync::atomic::AtomicBool::new(false));
            let thief_done = done.clone();
            let thief = thread::spawn(move || {
                let mut got = Vec::new();
                if let Steal::Success(v) = s.steal_batch(amount, |v| got.push(v.get())) {
                    got.push(v.get());
                }
                // Release/Acquire: only the end of the owner's answering depends on it.
                thief_done.store(true, crate::sync::Ordering::Release);
                got
            });
            let took: Vec<usize> = (0..n).filter_map(|_| d.pop()).map(|v| v.get()).collect();
            while !done.load(crate::sync::Ordering::Acquire) {
                d.answer_claim();
                thread::yield_now();
            }
            assert_exactly_once(d, vec![thief], took, n);
        });
    });
}

#[test]
fn loom_asym_answered_last_task() {
    asym_answered(Mode::Only, 1, StealAmount::One);
}

#[test]
fn loom_asym_answered_steal_half() {
    asym_answered(Mode::Only, 3, StealAmount::Half);
}

/// One look for the answer, then the heavy fence: an answer that comes late races the
/// thief's fence and its commit.
#[test]
fn loom_asym_answer_or_fence() {
    asym_answered(Mode::Mixed, 2, StealAmount::Half);
}

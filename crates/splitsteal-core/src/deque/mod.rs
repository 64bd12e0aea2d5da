//! Work-stealing deques, one per file, all behind one owner/thief interface.
//!
//! | deque | paper | owner push / pop | thief |
//! |---|---|---|---|
//! | [`Locked`] | low-latency thesis (baseline) | mutex | mutex |
//! | [`Abp`] | ABP paper, Fig. 5 | no sync / StoreLoad fence | fence + CAS |
//! | [`ChaseLev`] | Chase and Lev; the low-latency thesis | no sync / StoreLoad fence | fence + CAS |
//! | [`Split`] | the LCWS paper Alg. 2, LCWS-in-practice paper, Listing 2 | **no sync** (private part) | fence + CAS (public part) |
//! | [`Asym`] | the THE protocol with an asymmetric fence (`asym.rs`) | **no sync** (every task public) | 2 CAS + a process-wide heavy fence |
//!
//! Every deque has two handles:
//! - the **owner** handle ([`Owner`]) is `Send` but neither `Sync` nor `Clone`: exactly one
//!   thread pushes and pops at the bottom;
//! - the **thief** handle ([`Stealer`]) is `Send + Sync + Clone`: any number of threads
//!   steal from the top.
//!
//! Tasks are pointer-sized ([`Task`]): the runtime stores `NonNull` job pointers; tests use
//! [`NonZeroUsize`].
//!
//! Every CAS, other read-modify-write and `SeqCst` fence a deque executes is counted in
//! the executing thread's [`SyncCounts`](crate::stats::SyncCounts), split by side (owner or
//! thief); see [`crate::stats`].

use std::fmt;
use std::num::NonZeroUsize;
use std::ptr::NonNull;

use crate::stats::{count_cas, Side};
use crate::sync::{AtomicU64, Ordering};

mod abp;
mod asym;
mod chase_lev;
mod locked;
pub(crate) mod row;
mod split;

#[cfg(all(test, loom))]
mod loom_models;

pub use abp::{Abp, AbpStealer};
pub use asym::{Asym, AsymStealer, StealAmount, MAX_STEAL};
pub use chase_lev::{ChaseLev, ChaseLevStealer, SHRINK_K};
pub use locked::{Locked, LockedStealer};
pub(crate) use row::Row;
pub use split::{Exposure, SignalExposer, Split, SplitStealer};

/// ABP's `age = {tag, top}` (the ABP deque and the split deque's public part) in one word: `top` in the low 32 bits, the ABA `tag` in the high 32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Age {
    pub(crate) tag: u32,
    pub(crate) top: u32,
}

impl Age {
    #[inline(always)]
    pub(crate) fn pack(self) -> u64 {
        (u64::from(self.tag) << 32) | u64::from(self.top)
    }

    #[inline(always)]
    pub(crate) fn unpack(word: u64) -> Age {
        Age {
            tag: (word >> 32) as u32,
            top: word as u32,
        }
    }

    /// How far index `i` (an unbounded index of the owner's) is above `top` (the same kind
    /// of index, modulo 2³², as `age` holds it): `i - top`, exact while the true distance
    /// is within ±2³¹, which the deques' capacity bound (at most 2³¹) guarantees for
    /// indices of one epoch (between two resets). A thief that combines an `age` and a
    /// bottom from different epochs may get any value; its CAS then fails (the tag moved).
    #[inline(always)]
    pub(crate) fn distance(top: u32, i: usize) -> i32 {
        (i as u32).wrapping_sub(top) as i32
    }

    /// ABP's `popTop` linearization point, shared by [`Abp`] and [`Split`]'s public part: a
    /// thief that read `old` from `age`, then a bottom above `old.top`, then (speculatively)
    /// the slot at `old.top`, takes that task by moving `top` up. Returns whether it did; a
    /// failure means an owner reset or another removal came first.
    ///
    /// `top` counts modulo 2³² and carries into the tag when it wraps, so `age` as a whole
    /// only ever increases (claims add 1, resets move to the next tag with `top = 0`) until
    /// it wraps: a stale CAS could succeed only after 2³² resets or 2⁶⁴ claims, even on a
    /// deque that never resets.
    #[inline]
    pub(crate) fn claim_top(age: &AtomicU64, old: Age) -> bool {
        count_cas(Side::Thief);
        // SeqCst: the linearization point, totally ordered with the owner's fence and CAS.
        // Relaxed on failure: the value is not used.
        age.compare_exchange(
            old.pack(),
            old.pack().wrapping_add(1),
            Ordering::SeqCst,
            Ordering::Relaxed,
        )
        .is_ok()
    }

    /// The end of ABP's `popBottom`, shared by [`Abp`] and [`Split`]'s public part: the
    /// owner took index `taken` (read `old` from `age` after its fence) and the deque is
    /// now empty, its bottom already reset to 0. Publishes `top = 0` under a new tag, so a
    /// thief still holding `old` fails its CAS (ABA); if `taken` was the last task
    /// (`taken == old.top`) the owner races the thieves for it with a CAS. Returns whether
    /// the owner won the task at `taken`.
    #[inline]
    pub(crate) fn reset_after_pop(age: &AtomicU64, old: Age, taken: usize) -> bool {
        let new_age = Age {
            tag: old.tag.wrapping_add(1),
            top: 0,
        }
        .pack();
        // `taken` is an unbounded index, `top` the same index modulo 2³².
        if taken as u32 == old.top {
            count_cas(Side::Owner);
            // SeqCst on success: totally ordered with the thieves' CAS, and releases the
            // reset bottom. Acquire on failure: the winning thief's CAS then happens before
            // the owner's later slot writes (its speculative slot read cannot see them).
            if age
                .compare_exchange(old.pack(), new_age, Ordering::SeqCst, Ordering::Acquire)
                .is_ok()
            {
                return true;
            }
        }
        // A thief took the last task (or all were gone already). Release: a thief that
        // reads the new tag also reads the reset bottom (or a later one).
        age.store(new_age, Ordering::Release);
        false
    }
}

/// The slot count of a ring of (at least) `capacity` tasks, [`Abp`]'s and [`Split`]'s: a
/// power of two, so a slot is `index & (slots - 1)`; 0 stays 0 (a deque that is always
/// full). At most 2³¹, so that [`Age::distance`] is exact.
pub(crate) fn ring_slots(capacity: usize, deque: &str) -> usize {
    let slots = if capacity == 0 {
        0
    } else {
        capacity.checked_next_power_of_two().unwrap_or(usize::MAX)
    };
    assert!(
        slots <= 1 << 31,
        "{deque} capacity {capacity} is over 2^31 tasks"
    );
    slots
}

/// The marker every owner handle carries: `Cell` makes it `!Sync` (one owner thread at a
/// time), `fn() -> T` keeps it `Send` whatever the task type.
pub(crate) type OwnerMarker<T> = std::marker::PhantomData<(std::cell::Cell<()>, fn() -> T)>;

/// A value a deque can hold: pointer-sized and never null.
///
/// # Safety
/// `from_raw(into_raw(t))` must return `t`, and a value must stay valid when it is moved
/// to another thread (the deques hand tasks across threads).
pub unsafe trait Task: Copy {
    /// The task as a non-null pointer.
    fn into_raw(self) -> NonNull<()>;
    /// Rebuilds the task from [`Task::into_raw`]'s result.
    ///
    /// # Safety
    /// `raw` must come from `into_raw` of a value of this type.
    unsafe fn from_raw(raw: NonNull<()>) -> Self;
}

// SAFETY: a pointer round-trips through `cast`; moving a pointer value between threads
// is harmless by itself (dereferencing it is the caller's responsibility).
unsafe impl<T> Task for NonNull<T> {
    #[inline(always)]
    fn into_raw(self) -> NonNull<()> {
        self.cast()
    }
    #[inline(always)]
    unsafe fn from_raw(raw: NonNull<()>) -> Self {
        raw.cast()
    }
}

// SAFETY: an integer round-trips through a provenance-free pointer; plain data.
unsafe impl Task for NonZeroUsize {
    #[inline(always)]
    fn into_raw(self) -> NonNull<()> {
        // SAFETY: `self` is non-zero, so the pointer is non-null.
        unsafe { NonNull::new_unchecked(std::ptr::without_provenance_mut(self.get())) }
    }
    #[inline(always)]
    unsafe fn from_raw(raw: NonNull<()>) -> Self {
        // SAFETY: `raw` is non-null, so its address is non-zero.
        unsafe { NonZeroUsize::new_unchecked(raw.as_ptr().addr()) }
    }
}

/// The outcome of a steal attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Steal<T> {
    /// The deque (for [`Split`]: its public part and its private part) was empty.
    Empty,
    /// Lost a race with the owner or another thief; the deque state is unchanged by this
    /// attempt (ABP's relaxed semantics: someone else removed the top task meanwhile).
    Abort,
    /// [`Split`] only: the public part is empty but the owner has private work; the thief
    /// should ask the owner to expose some (LCWS notification).
    PrivateWork,
    /// Took the topmost (oldest) task.
    Success(T),
}

impl<T> Steal<T> {
    /// The stolen task, if any.
    pub fn success(self) -> Option<T> {
        match self {
            Steal::Success(t) => Some(t),
            _ => None,
        }
    }
}

/// A push into a bounded deque that is full; the task is handed back, never lost.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Full<T>(pub T);

impl<T> fmt::Debug for Full<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Full(..)")
    }
}

impl<T> fmt::Display for Full<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the deque is full; the task was not pushed")
    }
}

impl<T> std::error::Error for Full<T> {}

/// The owner's handle: push and pop at the bottom. `Send`, not `Sync`, not `Clone`.
pub trait Owner<T: Task>: Send + Sized {
    /// The thief handle type of this deque.
    type Stealer: Stealer<T>;

    /// A new empty deque. `capacity` is the fixed size of bounded deques, the initial
    /// size of growable ones (rounded up to a power of two where the deque needs it).
    fn with_capacity(capacity: usize) -> Self;

    /// A thief handle for this deque.
    fn stealer(&self) -> Self::Stealer;

    /// Pushes a task at the bottom; a bounded deque that is full returns it in [`Full`].
    fn push(&mut self, task: T) -> Result<(), Full<T>>;

    /// Pops the newest task at the bottom (for [`Split`]: from the private part, else from
    /// the public part).
    fn pop(&mut self) -> Option<T>;

    /// Number of tasks held, as seen by the owner (exact when no thief is active).
    fn len(&self) -> usize;

    /// Whether [`Owner::len`] is zero.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The thieves' handle: steal at the top. `Send + Sync + Clone`.
pub trait Stealer<T: Task>: Send + Sync + Clone {
    /// Attempts to take the oldest task. Never blocks (except [`Locked`], by design) and
    /// never retries: a lost race returns [`Steal::Abort`].
    fn steal(&self) -> Steal<T>;

    /// Whether the deque looked empty (to thieves) at some moment during the call.
    fn is_empty(&self) -> bool;
}

/// Test helpers shared by the deques' unit tests.
#[cfg(all(test, not(loom)))]
pub(crate) mod testkit {
    use super::{Owner, Steal, Stealer};
    use std::num::NonZeroUsize;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Task `i` (non-zero).
    pub(crate) fn t(i: usize) -> NonZeroUsize {
        NonZeroUsize::new(i).unwrap()
    }

    /// The deque contract on one thread: with tasks `1..=n` pushed (`n >= 3`), thieves take
    /// the oldest (1, 2), the owner the newest (n down to 3), then both see it empty.
    pub(crate) fn lifo_for_the_owner_fifo_for_thieves<O: Owner<NonZeroUsize>>(
        mut owner: O,
        n: usize,
    ) {
        let s = owner.stealer();
        assert_eq!(s.steal(), Steal::Empty);
        assert!(s.is_empty());
        for i in 1..=n {
            owner.push(t(i)).unwrap();
        }
        assert_eq!(owner.len(), n);
        assert_eq!(s.steal(), Steal::Success(t(1)));
        assert_eq!(s.steal(), Steal::Success(t(2)));
        for i in (3..=n).rev() {
            assert_eq!(owner.pop(), Some(t(i)));
        }
        assert_eq!(owner.pop(), None);
        assert_eq!(s.steal(), Steal::Empty);
        assert!(s.is_empty() && owner.is_empty());
    }

    /// Two thieves steal from `owner` while `drive` pushes the tasks `1..=n` (and may pop
    /// some into its vector); then the owner drains the rest. Every task must be taken
    /// exactly once, by someone.
    pub(crate) fn owner_and_thieves_take_each_task_once<O: Owner<NonZeroUsize>>(
        mut owner: O,
        n: usize,
        drive: impl FnOnce(&mut O, &mut Vec<usize>),
    ) {
        let stealer = owner.stealer();
        let done = AtomicBool::new(false);
        let mut all: Vec<usize> = std::thread::scope(|scope| {
            let thieves: Vec<_> = (0..2)
                .map(|_| {
                    let s = stealer.clone();
                    let done = &done;
                    scope.spawn(move || {
                        let mut got = Vec::new();
                        // Acquire: pairs with the Release below; then `is_empty` is final.
                        while !done.load(Ordering::Acquire) || !s.is_empty() {
                            if let Steal::Success(v) = s.steal() {
                                got.push(v.get());
                            }
                            std::hint::spin_loop();
                        }
                        got
                    })
                })
                .collect();
            let mut mine = Vec::new();
            drive(&mut owner, &mut mine);
            while let Some(v) = owner.pop() {
                mine.push(v.get());
            }
            // Release: the owner has taken everything left.
            done.store(true, Ordering::Release);
            thieves
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .chain(mine)
                .collect()
        });
        all.sort_unstable();
        assert_eq!(all, (1..=n).collect::<Vec<_>>());
    }
}

//! The mutex deque: a [`VecDeque`] behind a [`Mutex`], the baseline of the low-latency thesis
//! measured ABP against.
//!
//! Every operation, owner or thief, takes the lock. The deque grows like a `VecDeque`, so
//! [`Owner::push`] never returns [`Full`].
//!
//! # Counting model
//!
//! The counters record what `std`'s futex mutex executes on its paths, one lock/unlock at
//! a time:
//!
//! - **acquire** = 1 CAS: `try_lock` is a single `compare_exchange(UNLOCKED, LOCKED)`;
//! - **contended acquire** = 1 more CAS: when `try_lock` fails the blocking `lock` runs
//!   (its own first CAS; the spinning, the `swap` to "contended" and the futex wait that
//!   may follow are not counted, so contended acquires are a lower bound);
//! - **release** = 1 RMW: unlocking is one `swap(UNLOCKED)` (plus a futex wake, uncounted,
//!   when a waiter is registered).
//!
//! So an uncontended operation counts exactly 1 CAS + 1 RMW and no fence.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::ptr::NonNull;
// `std`'s mutex even under `--cfg loom`: this baseline is not model-checked (a mutex
// serializes everything), and counting follows std's implementation.
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};

use super::{Full, Owner, Steal, Stealer, Task};
use crate::stats::{count_cas, count_rmw, Side};

type Queue = VecDeque<NonNull<()>>;

/// The state shared by the owner and the thieves.
struct Inner {
    queue: Mutex<Queue>,
}

// SAFETY: the queue holds task pointers produced by `Task::into_raw`; the `Task` contract
// makes them valid on any thread, and every access goes through the mutex.
unsafe impl Send for Inner {}
// SAFETY: as above; shared access is serialized by the mutex.
unsafe impl Sync for Inner {}

/// A locked queue that counts its release (1 RMW) when dropped.
struct LockGuard<'a> {
    guard: MutexGuard<'a, Queue>,
    side: Side,
}

impl Drop for LockGuard<'_> {
    fn drop(&mut self) {
        // The guard's own drop (right after this) is the unlocking `swap`.
        count_rmw(self.side);
    }
}

impl Inner {
    /// Takes the lock, counting it as the module doc says.
    #[inline]
    fn lock(&self, side: Side) -> LockGuard<'_> {
        count_cas(side);
        let guard = match self.queue.try_lock() {
            Ok(guard) => guard,
            // No user code runs under the lock (only `VecDeque` calls on `Copy` data), so
            // a poisoned lock still holds a consistent queue.
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                count_cas(side);
                self.queue.lock().unwrap_or_else(PoisonError::into_inner)
            }
        };
        LockGuard { guard, side }
    }
}

/// The owner's handle of a mutex deque: `Send`, not `Sync`, not `Clone`.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::deque::{Locked, Owner, Steal, Stealer};
/// use std::num::NonZeroUsize;
///
/// let task = |i| NonZeroUsize::new(i).unwrap();
/// let mut owner: Locked<NonZeroUsize> = Locked::with_capacity(4);
/// let thief = owner.stealer();
/// for i in 1..=3 {
///     owner.push(task(i)).unwrap();
/// }
/// assert_eq!(thief.steal(), Steal::Success(task(1))); // oldest at the top
/// assert_eq!(owner.pop(), Some(task(3))); // newest at the bottom
/// assert_eq!(owner.len(), 1);
/// ```
///
/// The owner handle is not `Sync`:
/// ```compile_fail
/// # use splitsteal_core as splitsteal;
/// fn sync<T: Sync>() {}
/// sync::<splitsteal::deque::Locked<std::num::NonZeroUsize>>();
/// ```
/// nor `Clone`:
/// ```compile_fail
/// # use splitsteal_core as splitsteal;
/// fn clone<T: Clone>() {}
/// clone::<splitsteal::deque::Locked<std::num::NonZeroUsize>>();
/// ```
pub struct Locked<T: Task> {
    inner: Arc<Inner>,
    /// `!Sync` and `Send` (see `OwnerMarker`).
    _marker: super::OwnerMarker<T>,
}

/// A thief's handle of a mutex deque: `Send + Sync + Clone`.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::deque::{Locked, Owner, Steal, Stealer};
/// use std::num::NonZeroUsize;
///
/// let mut owner: Locked<NonZeroUsize> = Locked::with_capacity(4);
/// owner.push(NonZeroUsize::new(7).unwrap()).unwrap();
/// let thief = owner.stealer();
/// let got = std::thread::spawn(move || thief.steal()).join().unwrap();
/// assert_eq!(got, Steal::Success(NonZeroUsize::new(7).unwrap()));
/// ```
pub struct LockedStealer<T: Task> {
    inner: Arc<Inner>,
    _marker: PhantomData<fn() -> T>,
}

impl<T: Task> Clone for LockedStealer<T> {
    fn clone(&self) -> Self {
        LockedStealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }
}

impl<T: Task> Owner<T> for Locked<T> {
    type Stealer = LockedStealer<T>;

    fn with_capacity(capacity: usize) -> Self {
        Locked {
            inner: Arc::new(Inner {
                queue: Mutex::new(VecDeque::with_capacity(capacity)),
            }),
            _marker: PhantomData,
        }
    }

    fn stealer(&self) -> LockedStealer<T> {
        LockedStealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }

    /// Pushes at the back under the lock; grows, never returns [`Full`].
    fn push(&mut self, task: T) -> Result<(), Full<T>> {
        self.inner
            .lock(Side::Owner)
            .guard
            .push_back(task.into_raw());
        Ok(())
    }

    fn pop(&mut self) -> Option<T> {
        let raw = self.inner.lock(Side::Owner).guard.pop_back()?;
        // SAFETY: every queued pointer came from `T::into_raw` in `push`.
        Some(unsafe { T::from_raw(raw) })
    }

    fn len(&self) -> usize {
        self.inner.lock(Side::Owner).guard.len()
    }
}

impl<T: Task> Stealer<T> for LockedStealer<T> {
    /// Takes the front task under the lock: never [`Steal::Abort`] (the lock serializes).
    fn steal(&self) -> Steal<T> {
        match self.inner.lock(Side::Thief).guard.pop_front() {
            // SAFETY: every queued pointer came from `T::into_raw` in `push`.
            Some(raw) => Steal::Success(unsafe { T::from_raw(raw) }),
            None => Steal::Empty,
        }
    }

    fn is_empty(&self) -> bool {
        self.inner.lock(Side::Thief).guard.is_empty()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::deque::testkit::{self, t};
    use crate::stats::{SyncCounts, SyncOps};
    use std::num::NonZeroUsize;

    #[test]
    fn lifo_for_the_owner_fifo_for_thieves() {
        testkit::lifo_for_the_owner_fifo_for_thieves(Locked::with_capacity(1), 5);
    }

    #[test]
    fn uncontended_operations_count_one_cas_and_one_rmw() {
        let mut d: Locked<NonZeroUsize> = Locked::with_capacity(4);
        let s = d.stealer();
        let before = SyncCounts::current_thread();
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        assert_eq!(d.pop(), Some(t(2)));
        let c = SyncCounts::current_thread() - before;
        let one_each = |n| SyncOps {
            cas: n,
            rmw: n,
            ..SyncOps::default()
        };
        assert_eq!(c.owner, one_each(3));
        assert_eq!(c.thief, one_each(0));
        assert_eq!(s.steal(), Steal::Success(t(1)));
        assert_eq!(s.steal(), Steal::Empty);
        let c = SyncCounts::current_thread() - before;
        assert_eq!(c.thief, one_each(2));
    }

    #[test]
    fn owner_and_thieves_take_each_task_once() {
        let n: usize = if cfg!(miri) { 200 } else { 20_000 };
        let d: Locked<NonZeroUsize> = Locked::with_capacity(16);
        testkit::owner_and_thieves_take_each_task_once(d, n, |d, mine| {
            for i in 1..=n {
                d.push(t(i)).unwrap();
                if i % 3 == 0 {
                    mine.extend(d.pop().map(NonZeroUsize::get));
                }
            }
        });
    }

    #[test]
    fn handle_types() {
        fn send_sync_clone<S: Send + Sync + Clone>() {}
        fn send<S: Send>() {}
        send_sync_clone::<LockedStealer<NonZeroUsize>>();
        send::<Locked<NonZeroUsize>>();
    }
}

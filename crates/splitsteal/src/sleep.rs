//! Idle workers sleep; they are woken when work may be available.
//!
//! A worker that found no work for a while announces itself asleep (its slot goes to
//! `SLEEPING`, the pool's sleeper count goes up), checks one last time for work or for its
//! latch, and parks. Wakers:
//! - a latch being set wakes its waiting worker ([`Sleep::wake_worker`]);
//! - a job injected from outside, or the pool terminating, wakes one or all workers;
//! - a worker pushing local work while somebody sleeps wakes one sleeper
//!   ([`Sleep::wake_one`]): the push side reads the sleeper count with a plain load and no
//!   fence, so it can miss a worker that is falling asleep at that very moment. That is
//!   benign (rayon makes the same trade): the pushing worker runs its own work anyway, and
//!   its next push wakes the sleeper.
//!
//! Latches and injection use the Dekker pattern with `SeqCst` on both sides (the sleeper
//! stores `SLEEPING` then reads the condition; the waker writes the condition then reads
//! the slot), so those wake-ups are never lost. `std::thread::park`'s token covers the
//! window between the sleeper's last check and its `park`.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::thread::{self, Thread};

use crossbeam_utils::CachePadded;

use crate::stats::{count_cas, count_rmw, seq_cst_fence, Side};

const AWAKE: u8 = 0;
const SLEEPING: u8 = 1;

/// One worker's sleep state.
#[derive(Default)]
struct Slot {
    state: AtomicU8,
    thread: OnceLock<Thread>,
}

/// The pool's sleeping workers.
pub(crate) struct Sleep {
    slots: Box<[CachePadded<Slot>]>,
    sleepers: CachePadded<AtomicUsize>,
    /// Where `wake_one` starts looking, so wake-ups spread over workers.
    next: AtomicUsize,
}

impl Sleep {
    pub(crate) fn new(workers: usize) -> Sleep {
        Sleep {
            slots: (0..workers).map(|_| CachePadded::default()).collect(),
            sleepers: CachePadded::new(AtomicUsize::new(0)),
            next: AtomicUsize::new(0),
        }
    }

    /// Called once by worker `index` on its own thread, before it can sleep.
    pub(crate) fn register(&self, index: usize) {
        let _ = self.slots[index].thread.set(thread::current());
    }

    /// Whether any worker is (or is falling) asleep: a plain load, cheap on the push path.
    #[inline(always)]
    pub(crate) fn has_sleepers(&self) -> bool {
        // Relaxed: a hint; see the module doc for why a stale answer is benign.
        self.sleepers.load(Ordering::Relaxed) != 0
    }

    /// Puts worker `index` to sleep unless `wake_condition` (checked after announcing the
    /// sleep) says there is something to do. Returns whether it actually slept.
    pub(crate) fn sleep(&self, index: usize, wake_condition: impl Fn() -> bool) -> bool {
        let slot = &self.slots[index];
        count_rmw(Side::Idle);
        // SeqCst: Dekker with the wakers (they write the condition, then read this slot).
        slot.state.store(SLEEPING, Ordering::SeqCst);
        count_rmw(Side::Idle);
        // SeqCst: Dekker with `inject` (push, then read the sleeper count).
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        // The wake conditions are read with Acquire loads; this fence puts them after the
        // announcements above in the SeqCst order (C11 fence rules), completing the Dekker
        // pattern formally (on x86 the locked instructions above already do).
        seq_cst_fence(Side::Idle);
        let mut slept = false;
        if !wake_condition() {
            slept = true;
            // A waker that flips the slot to AWAKE unparks us; `park` may also return
            // spuriously, so look at the slot (and the condition) again each time.
            // Acquire: pairs with the waker's CAS.
            while slot.state.load(Ordering::Acquire) == SLEEPING && !wake_condition() {
                thread::park();
            }
        }
        // Relaxed: we own our slot; a concurrent waker's CAS either saw SLEEPING (and will
        // unpark us, leaving a harmless token) or sees AWAKE and leaves us alone.
        slot.state.store(AWAKE, Ordering::Relaxed);
        count_rmw(Side::Idle);
        // Relaxed: the count is a hint for pushers; `inject` uses SeqCst on its side.
        self.sleepers.fetch_sub(1, Ordering::Relaxed);
        slept
    }

    /// Wakes worker `index` if it sleeps. The caller has just made its wake condition true
    /// with a `SeqCst` write.
    pub(crate) fn wake_worker(&self, index: usize) -> bool {
        let slot = &self.slots[index];
        // SeqCst: the read half of the Dekker pattern (see the module doc).
        if slot.state.load(Ordering::SeqCst) != SLEEPING {
            return false;
        }
        count_cas(Side::Idle);
        // AcqRel: one waker wins the slot and does the unpark.
        if slot
            .state
            .compare_exchange(SLEEPING, AWAKE, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
        {
            if let Some(t) = slot.thread.get() {
                t.unpark();
            }
            return true;
        }
        false
    }

    /// Wakes one sleeping worker, if any.
    pub(crate) fn wake_one(&self) -> bool {
        if !self.has_sleepers() {
            return false;
        }
        let n = self.slots.len();
        // Relaxed: only spreads wake-ups; any start index is correct.
        let start = self.next.load(Ordering::Relaxed);
        for k in 0..n {
            let i = (start + k) % n;
            if self.wake_worker(i) {
                self.next.store(i + 1, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    /// Wakes one sleeper after a job was injected: the SeqCst half of the Dekker pattern
    /// with `sleep` (the injector has pushed the job before calling this).
    pub(crate) fn wake_one_after_inject(&self) {
        // SeqCst: pairs with the sleeper's SeqCst increment of the count.
        if self.sleepers.load(Ordering::SeqCst) != 0 {
            self.wake_one();
        }
    }

    /// Wakes every worker (termination).
    pub(crate) fn wake_all(&self) {
        for i in 0..self.slots.len() {
            self.wake_worker(i);
        }
    }
}

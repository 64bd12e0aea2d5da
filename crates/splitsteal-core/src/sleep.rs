//! Idle workers sleep; they are woken when work may be available.
//!
//! A worker that found no work for a while announces itself asleep (its slot goes to
//! `SLEEPING`, the pool's sleeper count goes up), posts a standing request on every other
//! worker, passes the heavy half of an asymmetric fence, looks one last time, and parks.
//! The last look gives a [`Verdict`]: work is visible (go back), a request of ours is
//! still unanswered by a victim that may not be running (nap briefly, so it can run, or
//! until the request is overdue), or nothing can become visible without somebody waking us
//! (sleep).
//!
//! Wakers, and why none of their wake-ups is lost:
//! - a worker that pushes work reads its `Wanted` word with one plain load after the push
//!   and, if a sleeper posted there, exposes a task and wakes one sleeper
//!   ([`Sleep::wake_one`]); where every task of its deque is stealable, it then wakes one
//!   more at each push or pop while it holds tasks for them (`Wanted::BURST`, a hint no
//!   wake-up depends on). The push side has no fence; the sleeper's `membarrier` makes
//!   the store-buffer pattern safe: see `crate::wakeup` for the argument and the loom
//!   model;
//! - a latch being set wakes its waiting worker ([`Sleep::wake_worker`]), and a job injected
//!   from outside, a mail (`hybrid`) or the pool terminating wakes one or all workers:
//!   these use the Dekker pattern with `SeqCst` on both sides (the sleeper stores
//!   `SLEEPING` and fences, then reads the condition; the waker writes the condition, then
//!   reads the slot);
//! - `std::thread::park`'s token covers the window between the sleeper's last look and
//!   its `park`.
//!
//! # Without `membarrier`
//!
//! Where the system has no `membarrier` (kernels before 4.14, a seccomp filter as container
//! runtimes install), the push side still has no fence, and the store-buffer race of
//! `crate::wakeup` is open: a push whose `Wanted` load ran before the sleeper's post became
//! visible to it, while its own deque store was not yet visible to the sleeper's last look.
//! Both sides miss each other only for a push that overlaps the sleeper's announcement:
//!
//! - a push whose `Wanted` load comes after the sleeper's post is visible to its CPU sees
//!   the want and wakes a sleeper (the post is a `SeqCst` read-modify-write: once done, it
//!   is visible to every later load, on every multi-copy-atomic machine Rust targets);
//! - a push that overlapped the announcement has its deque store visible to the sleeper a
//!   moment later: stores become visible to all threads in finite time, in practice within
//!   nanoseconds (a store buffer drains in that time). So the sleeper, instead of parking
//!   for good at once, parks [`UNFENCED_NAPS`] times for [`UNFENCED_NAP`] and looks again
//!   (the same verdict: its SeqCst fence, then Acquire loads of every victim's deque)
//!   after each; a push that raced with its announcement is visible by then.
//!
//! Only then does it park untimed: every push after that sees its want (first case). So a
//! wake-up missed by a push is late by at most [`UNFENCED_NAP`], and an idle pool costs
//! nothing after its first few milliseconds, whatever the kernel offers. (The formal
//! memory model promises visibility "in a finite time" only, so this argument rests on the
//! hardware's bound, `UNFENCED_NAPS` ms, where the `membarrier` one needs none; loom cannot
//! model it, having no notion of time.) `ThreadPoolBuilder::assume_no_membarrier`, hidden,
//! makes a pool behave as if `membarrier` were missing, for tests.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;

use crate::stats::{count_cas, count_heavy_fence, count_rmw, Side};
use crate::wakeup::heavy_fence;

const AWAKE: u8 = 0;
const SLEEPING: u8 = 1;

/// How long a thief naps while a victim has not answered its exposure signal: long enough
/// for a victim that shares its CPU to run, short against a time slice.
pub(crate) const NAP: Duration = Duration::from_micros(200);
/// The park timeout of a sleeper's first looks where the system offers no asymmetric fence
/// (see the module doc) ...
const UNFENCED_NAP: Duration = Duration::from_millis(1);
/// ... and how many such looks it takes before it parks untimed.
const UNFENCED_NAPS: u32 = 3;

/// What an idle worker's last look before sleeping found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Work is visible (or the awaited latch is set): do not sleep.
    Work,
    /// A request of ours is unanswered by a victim that may not be running: nap this long.
    Nap(Duration),
    /// Nothing can become visible without somebody waking us.
    Sleep,
}

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
    /// Behave as if the system had no `membarrier` (a test knob, see the module doc).
    assume_no_membarrier: bool,
}

impl Sleep {
    pub(crate) fn new(workers: usize, assume_no_membarrier: bool) -> Sleep {
        Sleep {
            slots: (0..workers).map(|_| CachePadded::default()).collect(),
            sleepers: CachePadded::new(AtomicUsize::new(0)),
            next: AtomicUsize::new(0),
            assume_no_membarrier,
        }
    }

    /// Called once by worker `index` on its own thread, before it can sleep.
    pub(crate) fn register(&self, index: usize) {
        let _ = self.slots[index].thread.set(thread::current());
    }

    /// Whether any worker is (or is falling) asleep.
    #[inline(always)]
    pub(crate) fn has_sleepers(&self) -> bool {
        // Relaxed: callers order it themselves (`Wanted::take`'s Acquire, `inject`'s SeqCst).
        self.sleepers.load(Ordering::Relaxed) != 0
    }

    /// Puts worker `index` to sleep unless its last look (`verdict`, taken after the
    /// announcement, `post_requests` and the heavy fence) finds something to do. Returns
    /// whether it actually slept or napped.
    pub(crate) fn sleep(
        &self,
        index: usize,
        post_requests: impl FnOnce(),
        verdict: impl Fn() -> Verdict,
    ) -> bool {
        let slot = &self.slots[index];
        count_rmw(Side::Idle);
        // SeqCst: Dekker with the wakers (they write the condition, then read this slot).
        slot.state.store(SLEEPING, Ordering::SeqCst);
        count_rmw(Side::Idle);
        // SeqCst: Dekker with `inject` (push, then read the sleeper count); a pusher that
        // takes our standing request reads it after its Acquire (see `Wanted::take`).
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        post_requests();
        // The heavy half of the asymmetric fence (`crate::wakeup`); it includes a SeqCst
        // fence, which puts the Acquire loads of the wake conditions after the
        // announcements above (the formal half of the Dekker pattern).
        count_heavy_fence(Side::Idle);
        let fenced = heavy_fence() && !self.assume_no_membarrier;
        let first = verdict();
        let slept = first != Verdict::Work;
        if slept {
            // A nap ends at its deadline, a sleep when woken; both end early when the verdict
            // finds work, and a sleep also when it finds a request to follow up (a nap).
            let deadline = match first {
                Verdict::Nap(nap) => Some(Instant::now() + nap),
                _ => None,
            };
            let mut unfenced_naps = 0;
            // A waker that flips the slot to AWAKE unparks us; `park` may also return
            // spuriously, so look at the slot (and the verdict) again each time.
            // Acquire: pairs with the waker's CAS.
            while slot.state.load(Ordering::Acquire) == SLEEPING {
                let left = match deadline {
                    Some(t) => match t.checked_duration_since(Instant::now()) {
                        Some(left) if !left.is_zero() => Some(left),
                        _ => break,
                    },
                    None => None,
                };
                if fenced || unfenced_naps == UNFENCED_NAPS {
                    match left {
                        Some(left) => thread::park_timeout(left),
                        None => thread::park(),
                    }
                } else {
                    // No asymmetric fence on this system: a push that raced with our
                    // announcement may have missed us; look again in a moment, when its
                    // store is visible (the module doc).
                    unfenced_naps += 1;
                    thread::park_timeout(left.map_or(UNFENCED_NAP, |l| l.min(UNFENCED_NAP)));
                    // Our own full barrier before the next look, as before the first.
                    std::sync::atomic::fence(Ordering::SeqCst);
                }
                match verdict() {
                    Verdict::Sleep => {}
                    Verdict::Nap(_) if deadline.is_some() => {}
                    _ => break,
                }
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

    /// How many workers are asleep and not yet woken (tests).
    #[cfg(test)]
    pub(crate) fn asleep(&self) -> usize {
        self.slots
            .iter()
            // Relaxed: a snapshot for a test's look.
            .filter(|s| s.state.load(Ordering::Relaxed) == SLEEPING)
            .count()
    }
}

#[cfg(all(test, not(loom), not(miri)))]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use crate::worker::WorkerThread;
    use crate::{Policy, ThreadPoolBuilder};

    /// A burst of spawns on one worker, while the others sleep, wakes a sleeper per
    /// spawned task from the spawner's own pushes, before any thief can pass a wake-up on:
    /// right after the spawns, no worker is left asleep. (Without the burst note the first
    /// push wakes one and the rest wait for the thieves' passed-on wake-ups.) Under the
    /// deques whose every task is stealable; a thief that steals between the pushes can
    /// leave one asleep for a moment, so one clean round of five is enough.
    #[test]
    fn a_burst_of_spawns_wakes_a_sleeper_per_task_from_the_spawners_pushes() {
        const THREADS: usize = 4;
        for policy in [Policy::Asym, Policy::ChaseLev, Policy::Abp, Policy::Locked] {
            let pool = ThreadPoolBuilder::new()
                .num_threads(THREADS)
                .policy(policy)
                .build()
                .unwrap();
            let mut left_asleep = Vec::new();
            for _ in 0..5 {
                // Let every worker run out of spin rounds and fall asleep.
                std::thread::sleep(Duration::from_millis(50));
                let release = AtomicBool::new(false);
                let asleep = pool.scope(|s| {
                    for _ in 1..THREADS {
                        s.spawn(|_| {
                            let t0 = Instant::now();
                            while !release.load(Ordering::SeqCst)
                                && t0.elapsed() < Duration::from_secs(5)
                            {
                                std::hint::spin_loop();
                            }
                        });
                    }
                    let worker = WorkerThread::current();
                    assert!(!worker.is_null());
                    // SAFETY: the calling thread's own worker, alive while it runs a task.
                    let worker = unsafe { &*worker };
                    let asleep = worker.registry.sleep.asleep();
                    release.store(true, Ordering::SeqCst);
                    asleep
                });
                left_asleep.push(asleep);
                if asleep == 0 {
                    break;
                }
            }
            assert_eq!(
                left_asleep.last(),
                Some(&0),
                "{policy}: workers still asleep right after the spawns, per round: \
                 {left_asleep:?}"
            );
        }
    }
}

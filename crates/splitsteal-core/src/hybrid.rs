//! The low-latency thesis's hybrid scheduler: work stealing plus mailboxing.
//!
//! Every task carries a *worker range* `(first, count)`: the workers its work is meant
//! for. An injected (origin) task gets the whole pool. A fork inside a task whose range
//! holds more than one worker splits the range ([`Mailing`]): the forking worker keeps
//! the first part for `a`, and `b` is wrapped in a [`Proxy`] that is both **mailed** to
//! the first worker of the second part and **pushed** on the local deque. Whichever side
//! claims the proxy first runs `b` with the second part as its range, so the split-off
//! work fans out over the pool in `O(log P)` (even) or `P - 1` direct (uneven) hops,
//! without a single steal. A fork in a task with a one-worker range is the base policy's
//! plain fork.
//!
//! Local work is taken mailbox first, then the own deque; stealing (from the base deque)
//! is held back by the **steal gate** until the origin task has mailed a number of tasks
//! or a delay has passed since it started, so that thieves do not grab the tasks the
//! mailboxes are about to deliver (low-latency thesis §3.3, `canSteal`).

use std::cell::Cell;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::job::{JobHeader, JobRef};
use crate::latch::JoinLatch;
use crate::mailbox::{Proxy, WorkerRange, IN_DEQUE, IN_MAILBOX};
use crate::plan::Mailing;
use crate::stats::{count_rmw, seq_cst_fence, Side};
use crate::worker::WorkerThread;

/// The pool-wide hybrid state: the steal gate.
pub(crate) struct Hybrid {
    pub(crate) mailing: Mailing,
    gate_open: AtomicBool,
    mails_since_origin: AtomicUsize,
    /// When the current origin task started, in ns since `epoch`.
    origin_ns: AtomicU64,
    epoch: Instant,
    gate_mails: usize,
    gate_delay: Duration,
}

impl Hybrid {
    pub(crate) fn new(mailing: Mailing, gate_mails: usize, gate_delay: Duration) -> Hybrid {
        Hybrid {
            mailing,
            gate_open: AtomicBool::new(true),
            mails_since_origin: AtomicUsize::new(0),
            origin_ns: AtomicU64::new(0),
            epoch: Instant::now(),
            gate_mails,
            gate_delay,
        }
    }

    /// An injected (origin) task starts: close the gate until it has distributed work.
    pub(crate) fn origin_started(&self) {
        let now = self.epoch.elapsed().as_nanos() as u64;
        // Relaxed (all three): the gate is a heuristic throttle on stealing; a thief that
        // sees stale values steals a little early or late, never incorrectly.
        self.origin_ns.store(now, Ordering::Relaxed);
        self.mails_since_origin.store(0, Ordering::Relaxed);
        self.gate_open.store(
            self.gate_mails == 0 && self.gate_delay.is_zero(),
            Ordering::Relaxed,
        );
    }

    /// Counts one mailed task towards opening the gate.
    pub(crate) fn mailed(&self) {
        count_rmw(Side::Scheduler);
        // Relaxed: see `origin_started`.
        let n = self.mails_since_origin.fetch_add(1, Ordering::Relaxed) + 1;
        if n >= self.gate_mails {
            self.gate_open.store(true, Ordering::Relaxed);
        }
    }

    /// Whether thieves may steal (opens the gate once the delay has passed).
    #[inline]
    pub(crate) fn can_steal(&self) -> bool {
        // Relaxed: see `origin_started`.
        if self.gate_open.load(Ordering::Relaxed) {
            return true;
        }
        let started = Duration::from_nanos(self.origin_ns.load(Ordering::Relaxed));
        if self.epoch.elapsed().saturating_sub(started) >= self.gate_delay {
            self.gate_open.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }
}

/// A hybrid worker's own state: the range of the task it runs, and where its next mailed
/// spawn goes. Lives beside the worker's base deque, in its `local.rs: Kind::Mailing*`
/// variant (inline: a fork reads `range` at a fixed offset from the worker).
pub(crate) struct HybridLocal {
    range: Cell<WorkerRange>,
    spawn_rr: Cell<u32>,
}

impl HybridLocal {
    /// Worker `index`'s state, running its own work.
    pub(crate) fn new(index: usize) -> HybridLocal {
        HybridLocal {
            range: Cell::new(WorkerRange::one(index)),
            spawn_rr: Cell::new(0),
        }
    }

    /// Whether a fork here mails its second half: the task's range spans other workers.
    pub(crate) fn mails(&self) -> bool {
        self.range.get().count >= 2
    }

    /// The next round-robin offset in `0..count` for a mailed spawn.
    fn next_spawn_target(&self, count: u32) -> u32 {
        let k = self.spawn_rr.get() % count;
        self.spawn_rr.set(k + 1);
        k
    }
}

/// Runs `f` with the worker range `range` (if `worker` is a hybrid one), restoring the
/// current one afterwards (also if `f` panics: the panic then propagates).
pub(crate) fn run_in_range<R>(
    worker: &WorkerThread,
    range: WorkerRange,
    f: impl FnOnce() -> R,
) -> R {
    let Some(h) = worker.deque.hybrid() else {
        return f();
    };
    struct Restore<'a>(&'a HybridLocal, WorkerRange);
    impl Drop for Restore<'_> {
        fn drop(&mut self) {
            self.0.range.set(self.1);
        }
    }
    let _restore = Restore(h, h.range.replace(range));
    f()
}

/// Mails `proxy` to worker `target` and wakes it if it sleeps.
fn mail(worker: &WorkerThread, target: usize, proxy: NonNull<Proxy>) {
    let registry = &*worker.registry;
    // SAFETY: a fresh proxy, in no mailbox.
    unsafe { registry.workers[target].mailbox.push(proxy) };
    worker.counters.mailed.bump();
    if let Some(h) = &registry.hybrid {
        h.mailed();
    }
    // StoreLoad between the mail and the sleep-state read (the Dekker pattern with a
    // worker falling asleep, which announces itself, fences, then checks its mailbox).
    seq_cst_fence(Side::Scheduler);
    registry.sleep.wake_worker(target);
}

/// What running a proxy from a deque does: claim from the deque side, run if won, free if
/// lost. Installed as the proxy's job function.
unsafe fn run_proxy_from_deque(header: NonNull<JobHeader>) {
    // SAFETY: deques hold live proxies made by `fork`; the deque side extracts once.
    unsafe {
        let proxy = Proxy::from_header(header);
        run_claimed(proxy, IN_DEQUE);
    }
}

/// Claims `proxy` from side `from`; runs its task (with the proxy's range) if won, frees
/// the proxy if lost.
///
/// # Safety
/// `proxy` is live and this side has not claimed it before; runs on a worker.
unsafe fn run_claimed(proxy: NonNull<Proxy>, from: usize) {
    // Read before claiming: once the claim succeeds, the other side may free the proxy.
    // SAFETY: live until the loser frees it, which happens after our claim at the earliest.
    let range = unsafe { proxy.as_ref().range };
    // SAFETY: forwarded from the caller.
    match unsafe { Proxy::extract(proxy, from) } {
        Some(task) => {
            // SAFETY: a proxied task runs only on workers.
            let worker = unsafe { &*WorkerThread::current() };
            run_in_range(worker, range, || worker.execute(task));
        }
        // SAFETY: we lost: the other side is done with it and nothing links to it.
        None => unsafe { Proxy::free(proxy) },
    }
}

/// Whether a fork on `worker` mails (its range spans other workers), and if so the
/// ranges of `a` and `b` (`b`'s first worker is the one it is mailed to).
#[inline]
pub(crate) fn fork_ranges(
    worker: &WorkerThread,
    h: &HybridLocal,
) -> Option<(WorkerRange, WorkerRange)> {
    let WorkerRange { first, count } = h.range.get();
    if count < 2 {
        return None;
    }
    let hybrid = worker.registry.hybrid.as_ref()?;
    let (ka, kb) = hybrid.mailing.split(count);
    let n = worker.registry.num_threads() as u32;
    let a = WorkerRange { first, count: ka };
    let b = WorkerRange {
        first: (first + ka) % n,
        count: kb,
    };
    Some((a, b))
}

/// The shares `(a, b)` the next fork on `worker` would give its two sides, if it mails.
pub(crate) fn split_hint(worker: &WorkerThread) -> Option<(usize, usize)> {
    let (a, b) = fork_ranges(worker, worker.deque.hybrid()?)?;
    Some((a.count as usize, b.count as usize))
}

/// A fork under `hybrid` in a task whose range spans several workers: wraps `job` (the
/// join's second job, not yet published) in a proxy, pushes and mails it, cuts the
/// worker's range down to the first closure's share, and marks `latch` (the job's) with
/// what [`finish_mailed`] needs. Returns `false` if the deque is full (nothing published).
pub(crate) fn mail_fork(worker: &WorkerThread, job: JobRef, latch: &JoinLatch) -> bool {
    let Some(h) = worker.deque.hybrid() else {
        return false;
    };
    let Some((range_a, range_b)) = fork_ranges(worker, h) else {
        return false;
    };
    let proxy = Proxy::new(job, range_b, run_proxy_from_deque);
    if !worker.push(Proxy::job_ref(proxy)) {
        // Deque full: neither location gets it.
        // SAFETY: never published.
        unsafe { Proxy::free(proxy) };
        return false;
    }
    // Before the proxy can be claimed (the mail below): the joiner alone reads it.
    latch.mark_mailed(proxy, h.range.replace(range_a));
    mail(worker, range_b.first as usize, proxy);
    worker.after_push();
    true
}

/// The end of a join whose second job went out in a proxy ([`mail_fork`]), once its
/// first closure is done and the joiner popped `popped`: restores the task's range, then
/// takes the proxy back from the deque and claims it (running the job here, in its share
/// of the range), or waits until whoever claimed it has run it. When this returns the
/// job's latch is set and its result is in the job.
///
/// # Safety
/// `latch` (the job's) was marked by `mail_fork` on this worker.
pub(crate) unsafe fn finish_mailed(
    worker: &WorkerThread,
    latch: &JoinLatch,
    popped: Option<JobRef>,
) {
    // SAFETY (both): marked by `mail_fork`, by the caller's guarantee.
    unsafe { restore_range(worker, latch) };
    let (proxy, _) = unsafe { latch.mailed() };
    if !worker.pop_until(Proxy::job_ref(proxy), latch, popped) {
        return;
    }
    // Read before claiming: once the claim succeeds, the mailbox side may free the proxy.
    // SAFETY: popped back unclaimed by the deque side, so not freed yet.
    let range_b = unsafe { proxy.as_ref().range };
    // Our proxy came back: claim it from the deque side.
    // SAFETY: popped, so the deque side claims exactly once here.
    match unsafe { Proxy::extract(proxy, IN_DEQUE) } {
        Some(job) => {
            // We won the claim: nobody else runs the job. It sets its latch.
            run_in_range(worker, range_b, || worker.execute(job));
        }
        None => {
            // The mailbox side runs (or ran) the job: free the proxy, wait for it.
            // SAFETY: we lost the claim.
            unsafe { Proxy::free(proxy) };
            worker.wait_until(latch);
        }
    }
}

/// Gives the joiner's task back the range it had before [`mail_fork`] cut it down: after
/// the first closure (`finish_mailed`), or when it panicked (the joiner then waits on the
/// job's latch; its wait loop claims the proxy if it pops it).
///
/// # Safety
/// As for [`finish_mailed`].
pub(crate) unsafe fn restore_range(worker: &WorkerThread, latch: &JoinLatch) {
    // SAFETY: forwarded from the caller.
    let (_, range) = unsafe { latch.mailed() };
    if let Some(h) = worker.deque.hybrid() {
        h.range.set(range);
    }
}

/// Takes and runs one task from `worker`'s mailbox; `false` if it was empty.
pub(crate) fn run_mail(worker: &WorkerThread) -> bool {
    let mailbox = &worker.registry.workers[worker.index].mailbox;
    if mailbox.is_empty() {
        return false;
    }
    // SAFETY: each worker is the single consumer of its own mailbox.
    match unsafe { mailbox.pop() } {
        Some(proxy) => {
            // SAFETY: popped from our mailbox: the mailbox side claims it once, here.
            unsafe { run_claimed(proxy, IN_MAILBOX) };
            true
        }
        None => false,
    }
}

/// `Scope::spawn` under `hybrid` from a task whose range spans several workers: mail the
/// job round-robin over the range (excluding the spawning worker) and push it locally.
/// Returns `false` if the job should be pushed plainly.
pub(crate) fn spawn_mailing(worker: &WorkerThread, h: &HybridLocal, job: JobRef) -> bool {
    let WorkerRange { first, count } = h.range.get();
    if count < 2 || worker.registry.hybrid.is_none() {
        return false;
    }
    let n = worker.registry.num_threads() as u32;
    let me = worker.index as u32;
    // Next worker of the range other than ourselves, round-robin.
    let mut target = first;
    for _ in 0..count {
        let k = h.next_spawn_target(count);
        target = (first + k) % n;
        if target != me {
            break;
        }
    }
    if target == me {
        return false;
    }
    let proxy = Proxy::new(job, WorkerRange::one(target as usize), run_proxy_from_deque);
    if !worker.push(Proxy::job_ref(proxy)) {
        // SAFETY: never published.
        unsafe { Proxy::free(proxy) };
        return false;
    }
    mail(worker, target as usize, proxy);
    worker.after_push();
    true
}

/// An injected (origin) task is about to run on `worker`: close the steal gate, and give
/// the task the whole pool as its range. Returns `None` outside `hybrid`.
pub(crate) fn origin_range(worker: &WorkerThread) -> Option<WorkerRange> {
    let h = worker.registry.hybrid.as_ref()?;
    h.origin_started();
    Some(WorkerRange {
        first: worker.index as u32,
        count: worker.registry.num_threads() as u32,
    })
}

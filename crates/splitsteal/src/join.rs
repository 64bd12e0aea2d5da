//! `join`: the fork-join protocol, top to bottom.
//!
//! 1. Put `b` in a job on this stack frame and push it on the local deque (for LCWS: the
//!    private part, no synchronization). Every join is pushed: from now until step 4 pops
//!    it back, `b` is where a thief can reach it (for LCWS: exposed on request, oldest
//!    first). A full deque cannot take it: run `a` then `b` inline, nothing lost.
//! 2. One plain load: does a thief want something from us (an exposure, a wake-up)?
//! 3. Run `a`. If it panics, still wait for `b` (run it, or wait for its thief), then
//!    resume the panic: nothing may point into this frame once it unwinds.
//! 4. Pop local work. Popping `b` back (the common case) runs it inline. Another job
//!    (pushed by a scope inside `a`) is run. Nothing left means a thief took `b`: run other
//!    work (steal) until `b`'s latch is set, then take its result (or its panic).

use std::panic::{self, AssertUnwindSafe};

use crate::fork::run_both;
use crate::job::{JobRef, StackJob};
use crate::latch::{JoinLatch, Probe};
use crate::worker::{with_deque_flavor, Flavor, Kind, PollFlavor, SignalFlavor, WorkerThread};

/// Runs `a` and `b`, potentially in parallel, and returns both results.
///
/// On a worker thread of a pool, `b` becomes stealable by the pool's other workers while
/// the caller runs `a`; outside any pool, the call runs on the global pool (configured by
/// `SPLITSTEAL_NUM_THREADS` and `SPLITSTEAL_POLICY`). A panic in either closure propagates
/// to the caller after both closures have finished. `join` allocates nothing.
///
/// ```
/// fn fib(n: u64) -> u64 {
///     if n < 2 {
///         return n;
///     }
///     let (a, b) = splitsteal::join(|| fib(n - 1), || fib(n - 2));
///     a + b
/// }
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert_eq!(pool.install(|| fib(20)), 6765);
/// ```
#[inline]
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let worker = WorkerThread::current();
    if worker.is_null() {
        return crate::pool::global_registry()
            .in_worker(|worker| join_on(worker, |_| a(), |_| b()));
    }
    // SAFETY: a non-null current worker is this thread's own, alive for the whole call.
    join_on(unsafe { &*worker }, |_| a(), |_| b())
}

/// `join` on the calling thread's worker: one dispatch on its flavor, then a path
/// compiled for that flavor.
#[inline(always)]
pub(crate) fn join_on<A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    // The LCWS flavors first, tested with plain compares rather than a jump table.
    // SAFETY: each arm's flavor is the worker's kind.
    unsafe {
        if worker.kind == Kind::LcwsSignal {
            join_as::<SignalFlavor, _, _, _, _>(worker, a, b)
        } else if worker.kind == Kind::LcwsPoll {
            join_as::<PollFlavor, _, _, _, _>(worker, a, b)
        } else {
            join_classical(worker, a, b)
        }
    }
}

/// `join` for the classical deques and `hybrid` (out of line: the LCWS paths above stay
/// small).
#[inline(never)]
fn join_classical<A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    if worker.kind == Kind::Hybrid {
        if let Some((range_a, range_b)) = crate::hybrid::plan(worker) {
            return crate::hybrid::join_mailing(worker, a, b, range_a, range_b);
        }
    }
    join_on_deque(worker, a, b)
}

/// The plain join of the worker's deque flavor (`hybrid`'s base deque included).
fn join_on_deque<A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    // SAFETY: the flavor is the deque's kind.
    unsafe { with_deque_flavor!(worker.deque_kind, F => join_as::<F, _, _, _, _>(worker, a, b)) }
}

/// # Safety
/// `F` is the worker's flavor.
#[inline(always)]
unsafe fn join_as<F, A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    F: Flavor,
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    // SAFETY: `F` is the worker's flavor, by our caller.
    unsafe { join_pushed::<F, _, _, _, _>(worker, a, b) }
}

/// The real fork: push `b`, run `a`, take `b` back or wait for its thief.
///
/// # Safety
/// `F` is the worker's flavor.
#[inline(always)]
unsafe fn join_pushed<F, A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    F: Flavor,
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let job_b = StackJob::new(b, JoinLatch::new(worker));
    let job_b_ref = job_b.as_job_ref();
    // SAFETY (all `_as` calls): `F` is the worker's flavor, by our caller.
    if !unsafe { worker.push_as::<F>(job_b_ref) } {
        return join_inline(worker, a, job_b);
    }
    worker.after_push();

    let ra = match panic::catch_unwind(AssertUnwindSafe(|| a(worker))) {
        Ok(ra) => ra,
        Err(payload) => {
            // `b` is still in our deque (the wait loop pops and runs it) or with a thief.
            worker.wait_until(&job_b.latch);
            // SAFETY: the latch is set. `a`'s panic wins; `b`'s outcome is dropped.
            unsafe { job_b.discard_result() };
            panic::resume_unwind(payload);
        }
    };

    // The common case: `b` is where we left it and comes back at the first pop.
    // SAFETY: `F` is the worker's flavor, by our caller.
    let first = unsafe { worker.take_local_as::<F>() };
    if first == Some(job_b_ref) {
        worker.task_starts();
        // SAFETY: popped back, so nobody else has it.
        return (ra, unsafe { job_b.run_inline(worker) });
    }
    let rb = take_back_slow(
        worker,
        job_b_ref,
        &job_b.latch,
        first,
        // SAFETY: `F` is the worker's flavor, by our caller.
        || unsafe { worker.take_local_as::<F>() },
        || {
            worker.task_starts();
            // SAFETY: popped back, so nobody else has it.
            Some(unsafe { job_b.run_inline(worker) })
        },
    );
    match rb {
        Some(rb) => (ra, rb),
        // SAFETY: `take_back_slow` returns `None` only once the latch is set.
        None => (ra, unsafe { job_b.into_result() }),
    }
}

/// Pops local jobs until `ours` comes back, then hands it to `run_ours`, which returns its
/// result, or `None` if the job was claimed elsewhere meanwhile (`hybrid`'s mailbox side).
/// Jobs popped on the way (pushed by a scope inside `a`) are run. Returns `None` once
/// `latch` is set: `ours` ran elsewhere and its result is in the job.
///
/// Only the first pop is inlined into the join: it brings `ours` back in the common case,
/// and everything else stays out of the hot path's code.
#[inline(always)]
pub(crate) fn take_back<L: Probe, R>(
    worker: &WorkerThread,
    ours: JobRef,
    latch: &L,
    mut pop: impl FnMut() -> Option<JobRef>,
    run_ours: impl FnOnce() -> Option<R>,
) -> Option<R> {
    match pop() {
        Some(job) if job == ours => run_ours().or_else(|| {
            worker.wait_until(latch);
            None
        }),
        first => take_back_slow(worker, ours, latch, first, pop, run_ours),
    }
}

/// `take_back` after a first pop that did not bring `ours` back.
#[cold]
#[inline(never)]
fn take_back_slow<L: Probe, R>(
    worker: &WorkerThread,
    ours: JobRef,
    latch: &L,
    mut popped: Option<JobRef>,
    mut pop: impl FnMut() -> Option<JobRef>,
    run_ours: impl FnOnce() -> Option<R>,
) -> Option<R> {
    loop {
        match popped {
            Some(job) if job == ours => match run_ours() {
                Some(r) => return Some(r),
                None => break,
            },
            Some(job) => {
                worker.execute(job);
                if latch.probe() {
                    return None;
                }
            }
            // Nothing left: a thief took `ours`.
            None => break,
        }
        popped = pop();
    }
    worker.wait_until(latch);
    None
}

/// The deque was full: run both closures here, in order (a panic of `a` still runs `b`).
#[cold]
#[inline(never)]
pub(crate) fn join_inline<A, B, RA, RB>(
    worker: &WorkerThread,
    a: A,
    job_b: StackJob<JoinLatch<'_>, B, RB>,
) -> (RA, RB)
where
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    run_both(
        || a(worker),
        || {
            worker.task_starts();
            // SAFETY: never published (the push failed).
            unsafe { job_b.run_inline(worker) }
        },
    )
}

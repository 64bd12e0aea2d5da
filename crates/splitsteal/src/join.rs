//! `join`: the fork-join protocol, top to bottom.
//!
//! 1. Put `b` in a job on this stack frame and push it on the local deque (for LCWS: the
//!    private part, no synchronization). A full deque cannot take it: run `a` then `b`
//!    inline, nothing lost.
//! 2. Answer a pending exposure request (`lcws-poll`), wake a sleeping worker if any.
//! 3. Run `a`. If it panics, still wait for `b` (run it, or wait for its thief), then
//!    resume the panic: nothing may point into this frame once it unwinds.
//! 4. Pop local work. Popping `b` back (the common case) runs it inline. Another job
//!    (pushed by a scope inside `a`) is run. Nothing left means a thief took `b`: run other
//!    work (steal) until `b`'s latch is set, then take its result (or its panic).

use std::panic::{self, AssertUnwindSafe};

use crate::job::StackJob;
use crate::latch::{Probe, WorkerLatch};
use crate::worker::WorkerThread;

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
        return crate::pool::global_registry().in_worker(|worker| join_on(worker, a, b));
    }
    // SAFETY: a non-null current worker is this thread's own, alive for the whole call.
    join_on(unsafe { &*worker }, a, b)
}

/// `join` on the calling thread's worker.
#[inline(always)]
pub(crate) fn join_on<A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let job_b = StackJob::new(b, WorkerLatch::new(&worker.registry, worker.index));
    let job_b_ref = job_b.as_job_ref();
    if !worker.push(job_b_ref) {
        return join_inline(worker, a, job_b);
    }
    worker.after_push();

    let ra = match panic::catch_unwind(AssertUnwindSafe(a)) {
        Ok(ra) => ra,
        Err(payload) => {
            // `b` is still in our deque (we will pop and run it) or with a thief.
            worker.wait_until(&job_b.latch);
            panic::resume_unwind(payload);
        }
    };

    while !job_b.latch.probe() {
        match worker.take_local() {
            Some(job) if job == job_b_ref => {
                // Popped back: nobody else saw it run, no latch needed.
                worker.counters.tasks.bump();
                let rb = job_b.run_inline();
                return (ra, rb);
            }
            // A job pushed by a scope inside `a`: run it.
            Some(job) => worker.execute(job),
            None => {
                // `b` was stolen: work elsewhere until its thief is done.
                worker.wait_until(&job_b.latch);
                break;
            }
        }
    }
    (ra, job_b.into_result())
}

/// The deque was full: run both closures here, in order (a panic of `a` still runs `b`).
#[cold]
#[inline(never)]
fn join_inline<A, B, RA, RB>(
    worker: &WorkerThread,
    a: A,
    job_b: StackJob<WorkerLatch<'_>, B, RB>,
) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let ra = panic::catch_unwind(AssertUnwindSafe(a));
    worker.counters.tasks.bump();
    let rb = job_b.run_inline();
    match ra {
        Ok(ra) => (ra, rb),
        Err(payload) => panic::resume_unwind(payload),
    }
}

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

use std::marker::PhantomData;
use std::panic::{self, AssertUnwindSafe};

use crate::hybrid::{self, HybridLocal};
use crate::job::StackJob;
use crate::latch::JoinLatch;
use crate::local::{AnyOwned, OwnDeque, Owned};
use crate::worker::{Entered, WorkerThread};

/// Runs `a` and `b`, potentially in parallel, and returns both results.
///
/// On a worker thread of a pool, `b` becomes stealable by the pool's other workers while
/// the caller runs `a`; outside any pool, the call runs on the global pool (configured by
/// `SPLITSTEAL_NUM_THREADS` and `SPLITSTEAL_POLICY`). A panic in either closure propagates
/// to the caller after both closures have finished. `join` allocates nothing.
///
/// ```
/// # use splitsteal_core as splitsteal;
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
        return join_outside(a, b);
    }
    // SAFETY: a non-null current worker is this thread's own, alive for the whole call.
    join_on(unsafe { &*worker }, |_| a(), |_| b())
}

/// [`join`] on a thread that is no pool's current worker: on its borrowed worker if it has
/// one (`use_current_thread`), else on the global pool.
#[cold]
fn join_outside<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    if let Some(_entered) = Entered::borrowed() {
        return join(a, b);
    }
    crate::pool::global_registry().in_worker(|worker| join_on(worker, |_| a(), |_| b()))
}

/// What a closure of [`join_context`] learns about where it runs.
#[derive(Debug)]
pub struct FnContext {
    migrated: bool,
    /// Not `Send`: the context describes the thread it was given on.
    _marker: PhantomData<*const ()>,
}

impl FnContext {
    fn new(migrated: bool) -> Self {
        FnContext {
            migrated,
            _marker: PhantomData,
        }
    }

    /// Whether the closure runs on another thread than the one that called
    /// [`join_context`]: the second closure was stolen, or the call came from outside the
    /// pool (then both closures run on a worker). Adaptive splitting uses it: a stolen
    /// half is worth splitting again.
    #[inline]
    pub fn migrated(&self) -> bool {
        self.migrated
    }
}

/// [`join`], where each closure receives a [`FnContext`] saying whether it
/// [migrated](FnContext::migrated) to another thread.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// // One worker: nobody can steal the second closure.
/// let (a, b) = pool.install(|| splitsteal::join_context(|ca| ca.migrated(), |cb| cb.migrated()));
/// assert_eq!((a, b), (false, false));
/// // From outside any pool both closures run on a worker of the global pool.
/// let (a, b) = splitsteal::join_context(|ca| ca.migrated(), |cb| cb.migrated());
/// assert_eq!((a, b), (true, true));
/// ```
#[inline]
pub fn join_context<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let worker = WorkerThread::current();
    if worker.is_null() {
        if let Some(_entered) = Entered::borrowed() {
            // This thread's borrowed worker (`use_current_thread`): a worker's join.
            return join_context(a, b);
        }
        return crate::pool::global_registry().in_worker(|worker| {
            join_on(
                worker,
                |_| a(FnContext::new(true)),
                |_| b(FnContext::new(true)),
            )
        });
    }
    // SAFETY: a non-null current worker is this thread's own, alive for the whole call.
    let worker = unsafe { &*worker };
    // `b` runs on this pool (popped back here, or stolen by another of its workers).
    let joiner = worker.index;
    join_on(
        worker,
        |_| a(FnContext::new(false)),
        move |runner| b(FnContext::new(runner.index != joiner)),
    )
}

/// `join` on the calling thread's worker: one dispatch on its deque, then a path compiled
/// for that deque. The LCWS deques come first, tested with plain compares.
#[inline(always)]
pub(crate) fn join_on<A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    if let Some(deque) = worker.deque.signalled(worker) {
        join_pushed(deque, a, b)
    } else if let Some(deque) = worker.deque.polled(worker) {
        join_pushed(deque, a, b)
    } else {
        join_elsewhere(worker, a, b)
    }
}

/// `join` on the classical deques and under `hybrid` (out of line: the LCWS paths above
/// stay small). One dispatch gives the typed deque and, under `hybrid`, hybrid's state: a
/// `hybrid` fork that does not mail is its base deque's plain join, on the deque inline in
/// the worker (the same address as without `hybrid`).
///
/// The split deques' arms call out (`join_split`) instead of taking their handle here: an
/// address every arm computes alike is hoisted above the jump table by LLVM, and then held
/// in a callee-saved register across `a` (three instructions more per join on
/// `chase-lev`, measured with callgrind).
#[inline(never)]
fn join_elsewhere<A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    match worker.deque.owned(worker) {
        AnyOwned::ChaseLev(deque) => join_pushed(deque, a, b),
        AnyOwned::Abp(deque) => join_pushed(deque, a, b),
        AnyOwned::Locked(deque) => join_pushed(deque, a, b),
        // `join_on`'s fast paths take these before calling us.
        AnyOwned::SplitSignalled(_) | AnyOwned::SplitPolled(_) => join_split(worker, a, b),
        AnyOwned::MailingChaseLev(deque, h) => join_mailing_or_pushed(deque, h, a, b),
        AnyOwned::MailingAbp(deque, h) => join_mailing_or_pushed(deque, h, a, b),
        AnyOwned::MailingLocked(deque, h) => join_mailing_or_pushed(deque, h, a, b),
        AnyOwned::MailingSplitSignalled(deque, h) => join_mailing_or_pushed(deque, h, a, b),
        AnyOwned::MailingSplitPolled(deque, h) => join_mailing_or_pushed(deque, h, a, b),
    }
}

/// `join` on a split deque: `join_on`'s fast paths (out of line, see `join_elsewhere`).
#[inline(never)]
fn join_split<A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    join_on(worker, a, b)
}

/// `hybrid`: mail `b` when the worker's range spans several workers (out of line);
/// otherwise (most forks, once the ranges are cut down) a plain join on the base deque,
/// in the caller's frame.
#[inline(always)]
fn join_mailing_or_pushed<D, const POLLS: bool, A, B, RA, RB>(
    deque: Owned<'_, D, POLLS>,
    h: &HybridLocal,
    a: A,
    b: B,
) -> (RA, RB)
where
    D: OwnDeque,
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    match hybrid::fork_ranges(deque.worker(), h) {
        Some(ranges) => hybrid::join_mailing(deque.worker(), ranges, a, b),
        None => join_pushed(deque, a, b),
    }
}

/// The real fork: push `b`, run `a`, take `b` back or wait for its thief.
#[inline(always)]
fn join_pushed<D, const POLLS: bool, A, B, RA, RB>(
    deque: Owned<'_, D, POLLS>,
    a: A,
    b: B,
) -> (RA, RB)
where
    D: OwnDeque,
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let worker = deque.worker();
    let job_b = StackJob::new(b, JoinLatch::new(worker));
    let job_b_ref = job_b.as_job_ref();
    if !deque.push(job_b_ref) {
        // SAFETY: the push failed, so the job was never published.
        return unsafe { job_b.join_inline(worker, a) };
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
    let (ra, first) = deque.take_keeping(ra);
    if first == Some(job_b_ref) {
        worker.task_starts();
        // SAFETY: popped back, so nobody else has it.
        return (ra, unsafe { job_b.run_inline(worker) });
    }
    let rb = worker.take_back(
        job_b_ref,
        &job_b.latch,
        first,
        || worker.take_local(),
        || {
            worker.task_starts();
            // SAFETY: popped back, so nobody else has it.
            Some(unsafe { job_b.run_inline(worker) })
        },
    );
    match rb {
        Some(rb) => (ra, rb),
        // SAFETY: `take_back` returns `None` only once the latch is set.
        None => (ra, unsafe { job_b.into_result() }),
    }
}

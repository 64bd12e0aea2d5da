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

use crate::job::{self, StackJob};
use crate::latch::JoinLatch;
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
//
// No inline attribute, for two reasons.
// - Not inlined into its caller, in practice: called from the closures of its own join
//   (divide and conquer), it is the recursive function, and LLVM keeps it one. The
//   recursive code then runs inside `join`, with the base case's test at each call site,
//   where a join inlined into the recursive function would make every base case a call
//   that sets up the join's frame first. `fib`, one thread: 74.0 -> 63.1 instructions per
//   join, 11.2 -> 9.35 ms for fib(32), against an `#[inline]` join.
// - Not `#[inline(never)]` either. rustc (1.95) exports every instance of an
//   `#[inline(never)]` generic function from the crate that makes it, with default
//   visibility, so that crates above may reuse it (the suite's workloads library exported
//   all 75 of its `join` instances, as it does std's `#[inline(never)]` sorts). In
//   position-independent code such a symbol may be interposed, so every call to it, its
//   own recursion included, went through the global offset table, and LLVM could not
//   treat it as a function only its crate calls. Without the attribute the instance is
//   internal, and called directly.
//   `fib(32)` and the tree sum at one thread, written in a library crate (the
//   suite's workloads), over chili's time: 1.05-1.08x and 1.13-1.14x with
//   `#[inline(never)]`, 1.00-1.04x and 0.98-1.04x without (the `runtime` example, one CPU,
//   three runs each, alternated).
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let worker = WorkerThread::for_join();
    if worker.is_null() {
        return join_without_deque(a, b);
    }
    // SAFETY: a non-null current worker is this thread's own, alive for the whole call.
    join_on(unsafe { &*worker }, ignoring_worker(a), ignoring_worker(b))
}

/// [`join`] where its worker has no thief (the only worker of an `asym` pool) or there
/// is no worker. Alone, it runs `a` then `b` in line, as the serial elision does: pushing `b`
/// could only hand it back to the same thread after `a`, the one difference being that
/// `a`'s own waits (`yield_now`, a latch) would run `b` sooner. Its first test is the
/// null check `join` made before its worker could be alone, so an ordinary pool's join
/// pays nothing for it; at one thread a join costs about what the serial elision's does
/// (the `runtime` example's and the suite's one-thread rows).
#[inline(always)]
fn join_without_deque<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    // SAFETY: a non-null current worker is this thread's own, alive for the whole call.
    match unsafe { WorkerThread::current().as_ref() } {
        Some(alone) => {
            alone.inline_task_starts();
            crate::fork::run_both(a, b)
        }
        None => join_outside(a, b),
    }
}

/// `f` as a closure of [`join_on`], which passes the worker it runs on.
///
/// The wrappers of a join's closures are built by functions generic over the one closure
/// they wrap, never written inline in `join`: a closure's type carries every type
/// parameter of the function it is written in, so `|_| a()` inside `join` would name `B`
/// as well as `A`. Through the layers of a join (`ForkJoin::join`, `join`, `join_on`,
/// the `catch_unwind`), each layer would then double the length of the type's name, and a
/// recursive sort's debug info held names of 25 KB, two thirds of a user's debug binary.
#[inline(always)]
pub(crate) fn ignoring_worker<F, R>(f: F) -> impl FnOnce(&WorkerThread) -> R + Send
where
    F: FnOnce() -> R + Send,
{
    move |_| f()
}

/// [`join`] on a thread that is no pool's current worker: on its borrowed worker if it has
/// one (`use_current_thread`), else on the global pool. Either way it calls [`join`] again
/// where a worker is current, so the closures' code is compiled once, in `join` itself,
/// and finding the worker and injecting into the global pool are compiled once, in
/// [`run_outside`].
#[cold]
fn join_outside<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    on_worker_outside(|_, _| join(a, b))
}

/// Runs `op` once through [`run_outside`], with the worker it found and whether the
/// operation migrated, and returns its result.
#[inline(always)]
fn on_worker_outside<R: Send>(op: impl FnOnce(&WorkerThread, bool) -> R + Send) -> R {
    let mut op = Some(op);
    let mut out = None;
    run_outside(&mut |worker, migrated| {
        if let Some(op) = op.take() {
            out = Some(op(worker, migrated));
        }
    });
    out.expect("run_outside runs its operation once")
}

/// Runs `op` once where a worker is current, for a join called outside any pool: on the
/// calling thread's borrowed worker (`use_current_thread`; `op`'s flag false), else on a
/// worker of the global pool (flag true: the operation migrated). Type-erased, so the
/// generic callers' cold paths hold no copy of it.
#[cold]
#[inline(never)]
fn run_outside(op: &mut (dyn FnMut(&WorkerThread, bool) + Send)) {
    if let Some(_entered) = Entered::borrowed() {
        // SAFETY: entering the borrowed worker made it this thread's current worker, alive
        // until `_entered` is dropped.
        op(unsafe { &*WorkerThread::current() }, false);
        return;
    }
    crate::pool::global_registry().in_worker_dyn(&mut |worker| op(worker, true));
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
        return join_context_outside(a, b);
    }
    // SAFETY: a non-null current worker is this thread's own, alive for the whole call.
    join_context_on(unsafe { &*worker }, a, b, false)
}

/// [`join_context`] outside any pool: on the thread's borrowed worker (a worker's join, as
/// inside the pool), else on a worker of the global pool, where both closures migrated.
#[cold]
fn join_context_outside<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    on_worker_outside(|worker, migrated| join_context_on(worker, a, b, migrated))
}

/// [`join_context`] on `worker`; `outside` when the caller is not on that worker's thread
/// (then both closures migrated). One function for both cases, so that the closures'
/// code is compiled once. Not inlined, so that the worker's path and the outside path
/// (`join_context_outside`) share its one copy: inlined, the whole join would be compiled
/// twice per call site (and the outside copy into the caller, often `main`). The call it
/// adds is one per `join_context`, which the iterators make once per split.
#[inline(never)]
fn join_context_on<A, B, RA, RB>(worker: &WorkerThread, a: A, b: B, outside: bool) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    if worker.is_alone() {
        // No thief: both in line, as `join_without_deque` does.
        worker.inline_task_starts();
        return crate::fork::run_both(|| a(FnContext::new(outside)), || b(FnContext::new(outside)));
    }
    // `b` runs on this pool (popped back here, or stolen by another of its workers).
    let joiner = worker.index;
    join_on(
        worker,
        with_context(a, outside),
        with_runners_context(b, outside, joiner),
    )
}

/// `a` of [`join_context`], which runs where it was called (one closure type per
/// wrapper: see [`ignoring_worker`]).
#[inline(always)]
fn with_context<F, R>(f: F, migrated: bool) -> impl FnOnce(&WorkerThread) -> R + Send
where
    F: FnOnce(FnContext) -> R + Send,
{
    move |_| f(FnContext::new(migrated))
}

/// `b` of [`join_context`], migrated when a worker other than the `joiner` runs it.
#[inline(always)]
fn with_runners_context<F, R>(
    f: F,
    outside: bool,
    joiner: usize,
) -> impl FnOnce(&WorkerThread) -> R + Send
where
    F: FnOnce(FnContext) -> R + Send,
{
    move |runner| f(FnContext::new(outside || runner.index != joiner))
}

/// `join` on the calling thread's worker: the real fork. Push `b`, run `a`, take `b` back
/// or wait for its thief.
///
/// This is the only code of a join that depends on its closures, and each closure is
/// called in one place, so a call site compiles them once, whatever the pool's policy:
/// the deque's push and pop take a type-erased `JobRef` in and out (inline on the
/// asymmetric and split deques' row, one call out of line for the others), and what a
/// rare case needs (a job the deque kept elsewhere, a panic in `a`, a stolen `b`) is a
/// `#[cold]` call that runs `b`, when it must, through its type-erased job.
#[inline(always)]
pub(crate) fn join_on<A, B, RA, RB>(worker: &WorkerThread, a: A, b: B) -> (RA, RB)
where
    A: FnOnce(&WorkerThread) -> RA + Send,
    B: FnOnce(&WorkerThread) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let job_b = StackJob::new(b, JoinLatch::new());
    let job_b_ref = job_b.as_job_ref();
    // SAFETY (this and the `pop_fork` below): `worker` is the calling thread's own, so
    // this is its deque's owner thread. A job the deque keeps elsewhere (a full deque,
    // `hybrid`'s mail) is marked on its latch, for `take_back` and `unwind_after_a`.
    unsafe { worker.deque.push_fork(worker, job_b_ref, &job_b.latch) };

    let ra = match call_catching(a, worker) {
        Ok(ra) => ra,
        // SAFETY: `job_b` is this join's.
        Err(payload) => unsafe {
            job::unwind_after_a(worker, job_b_ref, &job_b.latch, &job_b.result, payload)
        },
    };

    // The common case: `b` is where we left it and comes back at the first pop.
    // SAFETY: see `push_fork` above.
    let (ra, first) = unsafe { worker.deque.pop_fork(worker, ra, job_b_ref) };
    if first == Some(job_b_ref) || worker.take_back(job_b_ref, &job_b.latch, first) {
        // Counted only: a pool that records task starts recorded this one where it popped
        // it back (its deque's pop is out of line, `LocalDeque::take_fork`, or `take_back`).
        worker.inline_task_starts();
        // SAFETY: popped back, so nobody else has it.
        (ra, unsafe { job_b.run_inline(worker) })
    } else {
        // SAFETY: `take_back` returns `false` only once `b` ran through its job (stolen,
        // or run by one of its cold paths) and the latch is set.
        (ra, unsafe { job::take_result(&job_b.result) })
    }
}

/// Runs `a` of a join, catching its panic (a function generic over `a` alone, for the
/// reason given at [`ignoring_worker`]).
#[inline(always)]
fn call_catching<A, RA>(a: A, worker: &WorkerThread) -> std::thread::Result<RA>
where
    A: FnOnce(&WorkerThread) -> RA,
{
    panic::catch_unwind(AssertUnwindSafe(move || a(worker)))
}

//! Jobs: what the deques carry.
//!
//! A deque slot holds a [`JobRef`], one pointer to a [`JobHeader`] whose first field is the
//! function that runs the job. Two kinds of job exist:
//! - [`StackJob`]: `join`'s second closure, on the joiner's stack (no heap allocation). The
//!   joiner never returns before the job is done: it either pops the job back and runs it
//!   inline, or waits on the job's latch until the thief that took it has finished.
//! - [`HeapJob`]: a boxed closure (`Scope::spawn`, `install` from outside the pool) that
//!   frees itself when run.

use std::any::Any;
use std::cell::UnsafeCell;
use std::mem::{ManuallyDrop, MaybeUninit};
use std::panic::{self, AssertUnwindSafe};
use std::ptr::NonNull;

use crate::deque::Task;
use crate::latch::{JoinLatch, Latch, Unpushed};
use crate::worker::WorkerThread;

/// The first field of every job: how to run it.
#[repr(C)]
pub(crate) struct JobHeader {
    execute: unsafe fn(NonNull<JobHeader>),
}

impl JobHeader {
    /// A header whose job runs with `execute`.
    pub(crate) fn new(execute: unsafe fn(NonNull<JobHeader>)) -> JobHeader {
        JobHeader { execute }
    }
}

/// A pointer to a job, as stored in the deques.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JobRef(NonNull<JobHeader>);

impl JobRef {
    /// A reference to the job with this header.
    pub(crate) fn from_header(header: NonNull<JobHeader>) -> JobRef {
        JobRef(header)
    }

    /// The job's header.
    pub(crate) fn as_ptr(self) -> *mut JobHeader {
        self.0.as_ptr()
    }

    /// Runs the job.
    ///
    /// # Safety
    /// The job must be alive and not yet run; a job is run at most once.
    #[inline]
    pub(crate) unsafe fn execute(self) {
        // SAFETY: the caller guarantees the header is alive.
        let execute = unsafe { self.0.as_ref().execute };
        // SAFETY: `execute` was paired with this header by the job's constructor.
        unsafe { execute(self.0) }
    }
}

// SAFETY: a `JobRef` round-trips through `into_raw`/`from_raw`; jobs are built to be run
// on any thread (their closures are `Send`).
unsafe impl Task for JobRef {
    #[inline(always)]
    fn into_raw(self) -> NonNull<()> {
        self.0.cast()
    }
    #[inline(always)]
    unsafe fn from_raw(raw: NonNull<()>) -> Self {
        JobRef(raw.cast())
    }
}

// SAFETY: see the `Task` impl: job closures are `Send`.
unsafe impl Send for JobRef {}

/// The outcome of running a closure, panics included.
pub(crate) enum JobResult<T> {
    Ok(T),
    Panic(Box<dyn Any + Send>),
}

impl<T> JobResult<T> {
    /// Runs `f`, capturing a panic instead of unwinding.
    #[inline]
    pub(crate) fn call(f: impl FnOnce() -> T) -> Self {
        match panic::catch_unwind(AssertUnwindSafe(f)) {
            Ok(v) => JobResult::Ok(v),
            Err(p) => JobResult::Panic(p),
        }
    }

    /// The value, or resumes the captured panic.
    pub(crate) fn into_return_value(self) -> T {
        match self {
            JobResult::Ok(v) => v,
            JobResult::Panic(p) => panic::resume_unwind(p),
        }
    }
}

/// Runs `f` (once), returning its panic instead of unwinding. Not generic: a stolen job's
/// `execute` catches its closure's panic through here, so the unwinding machinery
/// (`catch_unwind`'s landing pad and payload plumbing) is compiled once rather than once per
/// join call site. The dynamic call costs nothing that matters on this path: a job runs
/// through `execute` only when stolen or picked up by a waiting joiner, not when popped back.
#[inline(never)]
fn run_caught(f: &mut dyn FnMut()) -> Result<(), Box<dyn Any + Send>> {
    panic::catch_unwind(AssertUnwindSafe(f))
}

/// `join`'s second closure, living on the joiner's stack.
///
/// The closure is consumed exactly once: by `execute` (a thief, or the joiner's wait
/// loop) or by `run_inline` (the joiner popped it back); the deques' exactly-once
/// guarantee makes these exclusive. Neither field is initialised more than needed: the
/// result is written only by `execute`, and read only after the latch is set.
#[repr(C)]
pub(crate) struct StackJob<L, F, R> {
    /// Must stay the first field: a `JobRef` points at it (`repr(C)`).
    header: JobHeader,
    pub(crate) latch: L,
    func: UnsafeCell<ManuallyDrop<F>>,
    /// Read by `join` through [`take_result`] and [`unwind_after_a`], which are generic
    /// over the result type alone (joins returning the same type share their code).
    pub(crate) result: UnsafeCell<MaybeUninit<JobResult<R>>>,
}

impl<L: Latch, F: FnOnce(&WorkerThread) -> R + Send, R: Send> StackJob<L, F, R> {
    #[inline(always)]
    pub(crate) fn new(func: F, latch: L) -> Self {
        StackJob {
            header: JobHeader {
                execute: Self::execute,
            },
            latch,
            func: UnsafeCell::new(ManuallyDrop::new(func)),
            result: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }

    /// A reference for a deque. The job must not move while the reference is in use.
    #[inline(always)]
    pub(crate) fn as_job_ref(&self) -> JobRef {
        JobRef(NonNull::from(&self.header))
    }

    /// Run by the thief (or by the joiner's wait loop) through the `JobRef`.
    unsafe fn execute(this: NonNull<JobHeader>) {
        let this = this.cast::<Self>().as_ptr();
        // SAFETY: the joiner keeps the job alive until its latch is set, and the job is run
        // once, so we have exclusive access to `func` and `result` until the latch is set.
        unsafe {
            // Stack jobs only run on workers (stolen, or run by their joiner's wait loop).
            let worker = &*WorkerThread::current();
            worker.task_starts();
            let result = &mut *(*this).result.get();
            // Called once, by `run_caught`.
            let mut run = || {
                let func = ManuallyDrop::take(&mut *(*this).func.get());
                result.write(JobResult::Ok(func(worker)));
            };
            if let Err(payload) = run_caught(&mut run) {
                result.write(JobResult::Panic(payload));
            }
            // After `set`, the joiner may return and free the job: touch nothing after it.
            L::set(&raw const (*this).latch);
        }
    }

    /// Runs the closure on the joiner's thread.
    ///
    /// # Safety
    /// The job was popped back by its owner (so nobody else ran it or will), or never
    /// published; it is consumed here.
    #[inline(always)]
    pub(crate) unsafe fn run_inline(&self, worker: &WorkerThread) -> R {
        // SAFETY: exclusive by the caller's guarantee; taken exactly once.
        let func = unsafe { ManuallyDrop::take(&mut *self.func.get()) };
        func(worker)
    }

    /// The result of `execute` (or its panic, resumed).
    ///
    /// # Safety
    /// The latch was observed set (so `execute` wrote the result).
    pub(crate) unsafe fn into_result(self) -> R {
        // SAFETY: forwarded from the caller; `self` is consumed, so it is read once.
        unsafe { take_result(&self.result) }
    }
}

/// The result a job's `execute` wrote (or its panic, resumed).
///
/// # Safety
/// `execute` wrote the result (its latch was observed set), and nothing reads it again.
pub(crate) unsafe fn take_result<R>(result: &UnsafeCell<MaybeUninit<JobResult<R>>>) -> R {
    // SAFETY: by the caller's guarantee.
    unsafe { (*result.get()).assume_init_read() }.into_return_value()
}

/// `join`'s first closure panicked with `payload`: runs its second job (`job`, whose latch
/// is `latch` and result slot `result`) here if it was never published, else waits for it
/// (still in the deque, where the wait loop pops and runs it, or with a thief: nothing may
/// point into the joiner's frame once it unwinds), drops the job's outcome and resumes the
/// panic. Generic over the result type alone, as [`take_result`].
///
/// # Safety
/// `job` is the join's second job, `latch` and `result` its own; `worker` is the joiner.
#[cold]
#[inline(never)]
pub(crate) unsafe fn unwind_after_a<R>(
    worker: &WorkerThread,
    job: JobRef,
    latch: &JoinLatch,
    result: &UnsafeCell<MaybeUninit<JobResult<R>>>,
    payload: Box<dyn Any + Send>,
) -> ! {
    // SAFETY: forwarded from the caller.
    unsafe { settle_after_panic(worker, job, latch) };
    // SAFETY: the latch is set, so `execute` wrote the result, and nothing reads it
    // again (`a`'s panic wins, so a panic of `b` is dropped here, not resumed; the job
    // itself is dropped with the joiner's frame, and its result field is `MaybeUninit`,
    // never dropped on its own).
    drop(unsafe { (*result.get()).assume_init_read() });
    panic::resume_unwind(payload);
}

/// The non-generic part of [`unwind_after_a`]: returns once `job` (the join's
/// second job, whose latch is `latch`) has run, here or elsewhere.
///
/// # Safety
/// As for `unwind_after_a`.
#[cold]
#[inline(never)]
unsafe fn settle_after_panic(worker: &WorkerThread, job: JobRef, latch: &JoinLatch) {
    match latch.unpushed() {
        Unpushed::No => {}
        // Never published: run it here (`a` panicked; `b` still runs, as in `join`).
        Unpushed::Full => worker.execute(job),
        // SAFETY: marked `Mailed` by `mail_fork` (the caller's guarantee).
        Unpushed::Mailed => unsafe { crate::hybrid::restore_range(worker, latch) },
    }
    worker.wait_until(latch);
}

/// A boxed job that frees itself when run.
#[repr(C)]
pub(crate) struct HeapJob<F> {
    /// Must stay the first field (`repr(C)`).
    header: JobHeader,
    func: ManuallyDrop<F>,
}

impl<F: FnOnce() + Send> HeapJob<F> {
    /// Boxes `func` and leaks it into a `JobRef`; running the job frees it.
    pub(crate) fn into_job_ref(func: F) -> JobRef {
        let job = Box::new(HeapJob {
            header: JobHeader {
                execute: Self::execute,
            },
            func: ManuallyDrop::new(func),
        });
        JobRef(NonNull::from(Box::leak(job)).cast())
    }

    unsafe fn execute(this: NonNull<JobHeader>) {
        // SAFETY: made by `into_job_ref` from a `Box<Self>` and run once.
        let mut job = unsafe { Box::from_raw(this.cast::<Self>().as_ptr()) };
        // SAFETY: taken exactly once, here; the box is then freed without dropping `func`.
        let func = unsafe { ManuallyDrop::take(&mut job.func) };
        drop(job);
        // SAFETY: heap jobs (spawned, injected) only run on workers.
        unsafe { (*WorkerThread::current()).task_starts() };
        func();
    }
}

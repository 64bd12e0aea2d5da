//! `broadcast` and `spawn_broadcast`: run an operation once on every worker of a pool.
//!
//! Each worker has a queue that only it takes jobs from (`WorkerInfo::broadcasts`); a
//! broadcast puts one job in each and wakes the worker if it sleeps. A worker runs its
//! queue before any other work whenever it looks for work: when idle, when waiting for a
//! stolen job or a scope, at `yield_now`. A worker busy in a long task without joins runs
//! its share once that task returns. No signal is involved, so a worker blocked in a
//! system call is never interrupted: its share runs after the call returns.

use std::cell::UnsafeCell;
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::Arc;

use crate::job::{JobHeader, JobRef, JobResult};
use crate::latch::{CountLatch, Latch};
use crate::pool::ThreadPool;
use crate::registry::Registry;
use crate::spawn::{spawned_job, with_current_registry};
use crate::worker::WorkerThread;

/// Where a broadcast operation runs: which worker, of how many.
#[derive(Debug)]
pub struct BroadcastContext<'a> {
    index: usize,
    num_threads: usize,
    /// Not `Send`: the context describes the thread it was given on.
    _marker: PhantomData<&'a *const ()>,
}

impl BroadcastContext<'_> {
    pub(crate) fn on(worker: &WorkerThread) -> Self {
        BroadcastContext {
            index: worker.index,
            num_threads: worker.registry.num_threads(),
            _marker: PhantomData,
        }
    }

    /// The index of the worker running the operation (as
    /// [`current_thread_index`](crate::current_thread_index)); each index runs it once.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The number of workers in the pool: how many times the operation runs.
    pub fn num_threads(&self) -> usize {
        self.num_threads
    }
}

/// Runs `op` once on every worker of the current pool (the global pool if the caller is
/// not a worker) and returns the results, indexed by worker. Returns when every worker
/// has run it; a panic in any run propagates then.
///
/// A worker runs its share when it next looks for work: at once if it is idle or waiting
/// for a stolen job, after its current task if it is busy. Calling `broadcast` from a
/// worker of the same pool is fine: the caller runs its own share while it waits.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
/// let indices = pool.install(|| splitsteal::broadcast(|ctx| ctx.index()));
/// assert_eq!(indices, [0, 1, 2]);
/// ```
pub fn broadcast<OP, R>(op: OP) -> Vec<R>
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    with_current_registry(|registry| broadcast_in(registry, op))
}

/// Runs `op` once on every worker of the current pool (the global pool if the caller is
/// not a worker), without waiting: the fire-and-forget [`broadcast`]. A panic goes to the
/// pool's [`panic_handler`](crate::ThreadPoolBuilder::panic_handler), else aborts.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use std::sync::mpsc;
///
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let (tx, rx) = mpsc::channel();
/// pool.spawn_broadcast(move |ctx| tx.send(ctx.index()).unwrap());
/// let mut seen: Vec<usize> = rx.iter().take(2).collect();
/// seen.sort();
/// assert_eq!(seen, [0, 1]);
/// ```
pub fn spawn_broadcast<OP>(op: OP)
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    with_current_registry(|registry| spawn_broadcast_in(registry, op));
}

impl ThreadPool {
    /// [`broadcast`] on this pool's workers.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let names = pool.broadcast(|ctx| format!("worker {} of {}", ctx.index(), ctx.num_threads()));
    /// assert_eq!(names, ["worker 0 of 2", "worker 1 of 2"]);
    /// ```
    pub fn broadcast<OP, R>(&self, op: OP) -> Vec<R>
    where
        OP: Fn(BroadcastContext<'_>) -> R + Sync,
        R: Send,
    {
        broadcast_in(&self.registry, op)
    }

    /// [`spawn_broadcast`] on this pool's workers. The pool keeps running until every
    /// worker has run `op`.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    ///
    /// let runs = Arc::new(AtomicUsize::new(0));
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let r = Arc::clone(&runs);
    /// pool.spawn_broadcast(move |_| {
    ///     r.fetch_add(1, Ordering::Relaxed);
    /// });
    /// drop(pool); // waits for nothing, but the broadcast still runs everywhere
    /// while runs.load(Ordering::Relaxed) < 2 {
    ///     std::thread::yield_now();
    /// }
    /// ```
    pub fn spawn_broadcast<OP>(&self, op: OP)
    where
        OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
    {
        spawn_broadcast_in(&self.registry, op);
    }
}

fn broadcast_in<OP, R>(registry: &Arc<Registry>, op: OP) -> Vec<R>
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    // On a worker of the pool: from outside, the caller blocks (or, from a worker of
    // another pool, keeps working there) as for `install`.
    registry.in_worker(|worker| broadcast_on(worker, &op))
}

fn broadcast_on<OP, R>(worker: &WorkerThread, op: &OP) -> Vec<R>
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    let registry = &worker.registry;
    let latch = CountLatch::for_worker(worker);
    let jobs: Vec<BroadcastJob<'_, OP, R>> = (0..registry.num_threads())
        .map(|_| BroadcastJob::new(op, &latch))
        .collect();
    for (index, job) in jobs.iter().enumerate() {
        latch.increment();
        registry.push_for_worker(index, job.as_job_ref());
    }
    // The caller's own count.
    // SAFETY: `latch` is alive; we wait for it below.
    unsafe { Latch::set(&raw const latch) };
    // Our own share is in our queue: `wait_until` runs it.
    latch.wait(Some(worker));
    jobs.into_iter().map(BroadcastJob::into_result).collect()
}

fn spawn_broadcast_in<OP>(registry: &Arc<Registry>, op: OP)
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    let op = Arc::new(op);
    for index in 0..registry.num_threads() {
        let op = Arc::clone(&op);
        let job = spawned_job(registry, move || {
            // SAFETY: broadcast jobs run only on their worker (from its own queue).
            let worker = unsafe { &*WorkerThread::current() };
            op(BroadcastContext::on(worker));
        });
        registry.push_for_worker(index, job);
    }
}

/// One worker's share of a `broadcast`, on the caller's stack.
#[repr(C)]
struct BroadcastJob<'a, OP, R> {
    /// Must stay the first field: a `JobRef` points at it (`repr(C)`).
    header: JobHeader,
    op: &'a OP,
    latch: &'a CountLatch,
    result: UnsafeCell<Option<JobResult<R>>>,
}

impl<'a, OP, R> BroadcastJob<'a, OP, R>
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    fn new(op: &'a OP, latch: &'a CountLatch) -> Self {
        BroadcastJob {
            header: JobHeader::new(Self::execute),
            op,
            latch,
            result: UnsafeCell::new(None),
        }
    }

    fn as_job_ref(&self) -> JobRef {
        JobRef::from_header(NonNull::from(&self.header))
    }

    unsafe fn execute(this: NonNull<JobHeader>) {
        // SAFETY: the broadcaster keeps the job alive until the latch is set, and each job
        // runs once (it is taken from one worker's queue once), so we have `result` to
        // ourselves until then.
        unsafe {
            let this = this.cast::<Self>().as_ref();
            // Broadcast jobs run only on the worker whose queue held them.
            let worker = &*WorkerThread::current();
            worker.task_starts();
            let op = this.op;
            *this.result.get() = Some(JobResult::call(|| op(BroadcastContext::on(worker))));
            // After `set`, the broadcaster may return and free the job: touch nothing after.
            Latch::set(this.latch as *const CountLatch);
        }
    }

    /// The result (or its panic, resumed), once the latch is set.
    fn into_result(self) -> R {
        self.result
            .into_inner()
            .expect("every worker ran its broadcast job before the latch was set")
            .into_return_value()
    }
}

//! `spawn` and `spawn_fifo`: fire-and-forget jobs that may outlive their spawner.
//!
//! A spawned job goes where a `join`'s second closure would: on the spawning worker's
//! deque, where thieves can take it (under LCWS, exposed on request like any other task),
//! or, from a thread outside the pool, into the pool's injector. Each pending job keeps
//! the pool's workers running (`Registry::add_live`), so dropping the `ThreadPool` does
//! not lose it. A panic goes to the pool's panic handler; without one, the process aborts
//! (nothing waits for the job, so there is nobody to resume it in).

use std::sync::Arc;

use crate::job::{HeapJob, JobRef};
use crate::job_queue::JobFifo;
use crate::pool::{global_registry, ThreadPool};
use crate::registry::Registry;
use crate::worker::WorkerThread;

/// Runs `func` on the current pool (the one the calling thread is a worker of, else the
/// global pool), some time later; returns at once.
///
/// The job is pushed on the calling worker's deque, from where an idle worker may steal
/// it, or queued for the pool if the caller is not one of its workers. Nothing waits for
/// it: use a channel, a latch or [`scope`](crate::scope()) to learn that it finished. A
/// panic in `func` is passed to the pool's
/// [`panic_handler`](crate::ThreadPoolBuilder::panic_handler); without one, the process
/// aborts.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use std::sync::mpsc;
///
/// let (tx, rx) = mpsc::channel();
/// splitsteal::spawn(move || tx.send(6 * 7).unwrap());
/// assert_eq!(rx.recv().unwrap(), 42);
/// ```
pub fn spawn<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    with_current_registry(|registry| spawn_in(registry, func));
}

/// Like [`spawn`], but the jobs one thread spawns start in the order they were spawned
/// (first in, first out), where `spawn`'s start newest first on the spawning worker.
/// Jobs stolen by other workers may still run before older ones, in parallel.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use std::sync::mpsc;
///
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// let (tx, rx) = mpsc::channel();
/// pool.install(|| {
///     for i in 0..4 {
///         let tx = tx.clone();
///         splitsteal::spawn_fifo(move || tx.send(i).unwrap());
///     }
/// });
/// drop(tx);
/// // One worker: the spawns start in the order they were made.
/// assert_eq!(rx.iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
/// ```
pub fn spawn_fifo<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    with_current_registry(|registry| spawn_fifo_in(registry, func));
}

impl ThreadPool {
    /// [`spawn`] on this pool: `func` runs on one of its workers, some time later. The pool
    /// keeps running until it has (dropping the `ThreadPool` does not cancel it).
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::mpsc;
    ///
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let (tx, rx) = mpsc::channel();
    /// pool.spawn(move || tx.send(splitsteal::current_thread_index().is_some()).unwrap());
    /// drop(pool); // the spawned job still runs
    /// assert!(rx.recv().unwrap());
    /// ```
    pub fn spawn<F>(&self, func: F)
    where
        F: FnOnce() + Send + 'static,
    {
        spawn_in(&self.registry, func);
    }

    /// [`spawn_fifo`] on this pool.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::mpsc;
    ///
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let (tx, rx) = mpsc::channel();
    /// pool.spawn_fifo(move || tx.send("done").unwrap());
    /// assert_eq!(rx.recv().unwrap(), "done");
    /// ```
    pub fn spawn_fifo<F>(&self, func: F)
    where
        F: FnOnce() + Send + 'static,
    {
        spawn_fifo_in(&self.registry, func);
    }
}

/// Calls `f` with the registry of the pool the calling thread is a worker of (its
/// borrowed worker's included, `use_current_thread`), else the global pool's.
pub(crate) fn with_current_registry<R>(f: impl FnOnce(&Arc<Registry>) -> R) -> R {
    match WorkerThread::current_ref() {
        Some(w) => f(&w.registry),
        None => match crate::worker::borrowed_worker() {
            // Our own handle: `f` may end the borrowed worker's role.
            Some(w) => f(&Arc::clone(&w.registry)),
            None => f(global_registry()),
        },
    }
}

/// The job that runs `func` for `registry`: it keeps the pool alive until it has run, and
/// hands a panic to the pool's handler.
pub(crate) fn spawned_job<F>(registry: &Arc<Registry>, func: F) -> JobRef
where
    F: FnOnce() + Send + 'static,
{
    registry.add_live();
    let registry = Arc::clone(registry);
    HeapJob::into_job_ref(move || {
        registry.catching_panics(func);
        registry.release_live();
    })
}

pub(crate) fn spawn_in<F>(registry: &Arc<Registry>, func: F)
where
    F: FnOnce() + Send + 'static,
{
    if registry.is_closed() {
        // Shut down (`ThreadPool::shutdown`): only its exit handlers reach it now, and
        // nothing would run the job.
        return;
    }
    let job = spawned_job(registry, func);
    registry.push_or_inject(job);
}

fn spawn_fifo_in<F>(registry: &Arc<Registry>, func: F)
where
    F: FnOnce() + Send + 'static,
{
    let job = spawned_job(registry, func);
    push_fifo_or_inject(registry, job, |index| &registry.workers[index].fifo);
}

/// Queues `job` in the calling worker's FIFO (`fifo_of(index)`: the worker's own, or a
/// FIFO scope's for that worker) and pushes the FIFO's reference on its deque; from
/// outside the pool, injects the job (the injector is first in, first out already).
pub(crate) fn push_fifo_or_inject<'f>(
    registry: &Arc<Registry>,
    job: JobRef,
    fifo_of: impl FnOnce(usize) -> &'f JobFifo,
) {
    match WorkerThread::current_ref() {
        Some(w) if Arc::ptr_eq(&w.registry, registry) => {
            // A full deque injects the FIFO's reference; whoever runs it takes the FIFO's
            // oldest job, which keeps the order.
            w.push_or_inject(fifo_of(w.index).push(job));
        }
        _ => registry.inject(job),
    }
}

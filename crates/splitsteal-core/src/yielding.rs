//! `yield_now` and `yield_local`: let a task run other pending work while it waits.

use crate::pool::ThreadPool;
use crate::worker::{Entered, WorkerThread};

/// What a [`yield_now`] or [`yield_local`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Yield {
    /// Some other work ran (it may have run more work in turn) before the call returned.
    Executed,
    /// No work was available.
    Idle,
}

/// Runs one piece of pending work of the current pool, if there is some: the calling
/// worker's own (a broadcast share, a local task), else one stolen or injected task.
/// Returns `None` on a thread that is not a worker of any pool.
///
/// For cooperative waiting inside a task: poll a condition and yield between looks, so
/// the worker makes progress on other tasks meanwhile (one of which may be the one that
/// makes the condition true).
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::Yield;
///
/// assert_eq!(splitsteal::yield_now(), None); // not on a worker
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// pool.install(|| {
///     let mut ran = false;
///     splitsteal::scope(|s| {
///         s.spawn(|_| ran = true);
///         // One worker: the spawned task waits in our deque until we yield to it.
///         assert_eq!(splitsteal::yield_now(), Some(Yield::Executed));
///     });
///     assert!(ran);
///     assert_eq!(splitsteal::yield_now(), Some(Yield::Idle));
/// });
/// ```
pub fn yield_now() -> Option<Yield> {
    let _entered = Entered::borrowed();
    WorkerThread::current_ref().map(|w| outcome(w.run_some_work()))
}

/// Like [`yield_now`], but runs only work of the calling worker's own deque (never steals
/// or takes injected work). Returns `None` on a thread that is not a worker.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::Yield;
///
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// pool.install(|| assert_eq!(splitsteal::yield_local(), Some(Yield::Idle)));
/// ```
pub fn yield_local() -> Option<Yield> {
    let _entered = Entered::borrowed();
    WorkerThread::current_ref().map(|w| outcome(w.run_local()))
}

impl ThreadPool {
    /// [`yield_now`], if the calling thread is a worker of this pool; `None` otherwise.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// assert_eq!(pool.yield_now(), None); // the caller is not one of its workers
    /// assert!(pool.install(|| pool.yield_now()).is_some());
    /// ```
    pub fn yield_now(&self) -> Option<Yield> {
        let _entered = Entered::borrowed();
        self.own_worker().map(|w| outcome(w.run_some_work()))
    }

    /// [`yield_local`], if the calling thread is a worker of this pool; `None` otherwise.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// assert_eq!(pool.yield_local(), None);
    /// ```
    pub fn yield_local(&self) -> Option<Yield> {
        let _entered = Entered::borrowed();
        self.own_worker().map(|w| outcome(w.run_local()))
    }
}

fn outcome(ran: bool) -> Yield {
    if ran {
        Yield::Executed
    } else {
        Yield::Idle
    }
}

/// Answers the thieves waiting on the calling worker, if any: exposes one of its pending
/// tasks to a thief that asked, and wakes a sleeper that wants work. A load and a branch
/// when nobody asked; a no-op on a thread that is not a worker.
///
/// Only `lcws-poll` needs it: its workers answer thieves when they push or pop, so a task
/// that runs a long loop without a join, spawn or scope keeps its pending tasks from every
/// thief meanwhile. Calling this every few thousand iterations of such a loop lets them be
/// stolen. (The parallel iterators' searches do it between chunks of their pieces.) Under
/// the other policies thieves are served anyway; the call costs the same load.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new()
///     .num_threads(2)
///     .policy(splitsteal::Policy::LcwsPoll)
///     .build()
///     .unwrap();
/// let total: u64 = pool.install(|| {
///     let (a, b) = splitsteal::join(
///         || {
///             let mut sum = 0u64;
///             for i in 0..1_000_000u64 {
///                 sum = sum.wrapping_add(i * i);
///                 if i % 4096 == 0 {
///                     splitsteal::serve_thieves(); // `b` can be stolen meanwhile
///                 }
///             }
///             sum
///         },
///         || 1,
///     );
///     a.wrapping_add(b)
/// });
/// assert!(total > 0);
/// splitsteal::serve_thieves(); // not on a worker: nothing to do
/// ```
#[inline]
pub fn serve_thieves() {
    if let Some(worker) = WorkerThread::current_ref()
        && worker.is_wanted()
    {
        worker.answer_wants();
    }
}

/// Whether the calling worker's pending tasks reach its thieves only when it pushes, pops
/// or calls [`serve_thieves`]: under `lcws-poll`, and in a pool with a
/// `use_current_thread` worker (which asks by polling when it steals). `false` outside a
/// pool. Loops that call `serve_thieves` can ask once, before they start, and run without
/// the calls otherwise (the parallel iterators' searches do).
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::{Policy, ThreadPoolBuilder};
///
/// let polled = ThreadPoolBuilder::new().policy(Policy::LcwsPoll).build().unwrap();
/// assert!(polled.install(splitsteal::serve_thieves_needed));
/// let signalled = ThreadPoolBuilder::new().policy(Policy::LcwsSignal).build().unwrap();
/// assert!(!signalled.install(splitsteal::serve_thieves_needed));
/// assert!(!splitsteal::serve_thieves_needed()); // not on a worker
/// ```
pub fn serve_thieves_needed() -> bool {
    WorkerThread::current_ref().is_some_and(WorkerThread::thieves_poll)
}

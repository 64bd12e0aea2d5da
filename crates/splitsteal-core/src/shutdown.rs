//! Waiting for a pool: [`ThreadPool::wait_idle`] (every spawned task done) and
//! [`ThreadPool::shutdown`] (and then every worker thread gone).
//!
//! Both rest on the registry's count of live spawned jobs (`Registry::add_live` /
//! `release_live`), which already kept a dropped pool's threads running until its spawns
//! had run: one count for the pool's handle and one per spawned job (a spawned future's
//! count lasts until it is done). The release that leaves only the handle's count wakes
//! the threads in `wait_idle` (a Dekker pattern between the SeqCst decrement and a
//! waiter's SeqCst registration, then a lock around the look and the wait, so that no
//! wake-up falls between them). `join` and scopes never touch the count, so neither adds a
//! cost to them.
//!
//! The global pool has no [`ThreadPool`] and so neither call: it lives as long as the
//! process. To wait for work spawned on it, keep the tasks' handles
//! ([`spawn_handle`](crate::spawn_handle)) and join them, or build a pool of your own.

use std::fmt;
use std::sync::Arc;

use crate::pool::ThreadPool;
use crate::worker::WorkerThread;

/// Why [`ThreadPool::wait_idle`] or [`ThreadPool::shutdown`] did not wait.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// let inside = pool.install(|| pool.wait_idle());
/// assert_eq!(inside, Err(splitsteal::WaitError::OnOwnWorker));
/// assert_eq!(pool.wait_idle(), Ok(())); // from outside the pool
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitError {
    /// Called on one of the pool's own workers (inside a task or an `install` of the
    /// pool), which would have waited for itself.
    OnOwnWorker,
}

impl fmt::Display for WaitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaitError::OnOwnWorker => f.write_str(
                "called on one of the pool's own worker threads, which would wait for itself \
                 (call it from outside the pool)",
            ),
        }
    }
}

impl std::error::Error for WaitError {}

impl ThreadPool {
    /// Returns once every task spawned on the pool before the call has finished, with
    /// everything those tasks spawned: [`spawn`](Self::spawn), [`spawn_fifo`](Self::spawn_fifo),
    /// [`spawn_handle`](Self::spawn_handle), [`spawn_future`](Self::spawn_future) (a
    /// pending future counts until it is done) and the free functions called on its
    /// workers. Tasks that other threads spawn meanwhile may lengthen the wait: it ends
    /// when none is pending.
    ///
    /// Before this, a rayon user counted the spawns with a channel or a latch of their
    /// own, or ran them in a [`scope`](Self::scope) instead. The global pool has no
    /// `ThreadPool`, so neither this nor [`shutdown`](Self::shutdown): it lives as long as
    /// the process; keep the [`spawn_handle`](crate::spawn_handle)s of its tasks and join
    /// them, or build a pool of your own.
    ///
    /// The calling thread blocks (the pool's borrowed thread under
    /// [`use_current_thread`](crate::ThreadPoolBuilder::use_current_thread) runs the pool's
    /// work meanwhile). On one of the pool's own workers it returns
    /// [`WaitError::OnOwnWorker`] at once instead of waiting for itself.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    ///
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let done = Arc::new(AtomicUsize::new(0));
    /// for _ in 0..8 {
    ///     let done = Arc::clone(&done);
    ///     pool.spawn(move || {
    ///         // A spawn that spawns: the wait covers its child too.
    ///         let child = Arc::clone(&done);
    ///         splitsteal::spawn(move || { child.fetch_add(1, Ordering::Relaxed); });
    ///         done.fetch_add(1, Ordering::Relaxed);
    ///     });
    /// }
    /// pool.wait_idle().unwrap();
    /// assert_eq!(done.load(Ordering::Relaxed), 16);
    /// // Inside the pool it would wait for itself: an error instead.
    /// assert!(pool.install(|| pool.wait_idle()).is_err());
    /// ```
    pub fn wait_idle(&self) -> Result<(), WaitError> {
        if WorkerThread::current_ref().is_some_and(|w| Arc::ptr_eq(&w.registry, &self.registry)) {
            return Err(WaitError::OnOwnWorker);
        }
        self.registry.wait_idle();
        Ok(())
    }

    /// Shuts the pool down: waits until every spawned task has finished (as
    /// [`wait_idle`](Self::wait_idle)), then stops the workers and returns once every
    /// worker thread has exited, its [`exit_handler`](crate::ThreadPoolBuilder::exit_handler)
    /// and its thread-local destructors run. Dropping a pool only asks its threads to stop
    /// (and returns at once if spawned tasks are pending or handlers are set); rayon's
    /// drop never waits.
    ///
    /// No new work reaches the pool from outside: `shutdown` consumes its handle. Its own
    /// tasks may still spawn while it drains, and those tasks run and are waited for too.
    /// Once it is idle the pool is closed: a spawn that still reaches it (from an exit
    /// handler, the only code of the pool's that runs after that) never runs:
    /// [`spawn_handle`](crate::spawn_handle)'s and [`spawn_future`](crate::spawn_future)'s
    /// handles return `Err` with a [`PoolShutDown`](crate::PoolShutDown) payload, and a
    /// plain [`spawn`](crate::spawn)'s closure is dropped.
    ///
    /// On one of the pool's own workers it returns [`WaitError::OnOwnWorker`] (and the
    /// pool is dropped, as if `shutdown` had not been called). The pool's threads must not
    /// wait for the caller (an exit handler that does would wait forever). Where a
    /// [`spawn_handler`](crate::ThreadPoolBuilder::spawn_handler) started the threads, the
    /// pool has no handles to join: `shutdown` returns once every worker has left its
    /// loop and run its exit handler, and the thread's own end is the spawn handler's.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::mpsc;
    ///
    /// let (tx, rx) = mpsc::channel();
    /// let exits = tx.clone();
    /// let pool = splitsteal::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .exit_handler(move |i| exits.send(format!("worker {i} exits")).unwrap())
    ///     .build()
    ///     .unwrap();
    /// for i in 0..4 {
    ///     let tx = tx.clone();
    ///     pool.spawn(move || tx.send(format!("task {i}")).unwrap());
    /// }
    /// pool.shutdown().unwrap();
    /// drop(tx);
    /// // Every task ran and both workers exited before `shutdown` returned.
    /// let said: Vec<String> = rx.try_iter().collect();
    /// assert_eq!(said.iter().filter(|s| s.starts_with("task")).count(), 4);
    /// assert_eq!(said.iter().filter(|s| s.ends_with("exits")).count(), 2);
    /// ```
    pub fn shutdown(mut self) -> Result<(), WaitError> {
        self.wait_idle()?;
        let registry = Arc::clone(&self.registry);
        registry.close();
        let handles = std::mem::take(&mut self.handles);
        let spawned = registry.num_threads() - usize::from(registry.config.use_current_thread);
        // The handle's count goes: the workers stop (they are idle), and a pool built with
        // `use_current_thread` lets its borrowed thread go.
        drop(self);
        if handles.len() == spawned {
            for h in handles {
                // A worker thread does not unwind (it aborts: `main_loop`).
                let _ = h.join();
            }
        } else {
            registry.wait_loops_exited(spawned);
        }
        Ok(())
    }
}

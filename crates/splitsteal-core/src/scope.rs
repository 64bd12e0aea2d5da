//! `scope`: spawn any number of tasks that may borrow from the caller's stack.

use std::any::Any;
use std::marker::PhantomData;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Arc;

use crate::job::HeapJob;
use crate::latch::{CountLatch, Latch};
use crate::worker::WorkerThread;

/// A scope in which tasks can be spawned; see [`scope`].
pub struct Scope<'scope> {
    /// Unfinished spawned jobs plus one for the scope's body.
    jobs: CountLatch,
    /// The first panic of a spawned job.
    panic: AtomicPtr<Box<dyn Any + Send + 'static>>,
    /// Invariant in `'scope`, as rayon's: spawned closures may borrow for `'scope`.
    _marker: PhantomData<fn(&'scope ()) -> &'scope ()>,
}

/// Creates a scope: `op` may [`spawn`](Scope::spawn) tasks that borrow from the caller's
/// stack; `scope` returns when `op` and every spawned task (transitively) have finished.
/// A panic in any of them propagates to the caller after all have finished.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let mut halves = [0u64; 2];
/// let data: Vec<u64> = (1..=100).collect();
/// pool.install(|| {
///     let (lo, hi) = halves.split_at_mut(1);
///     let (a, b) = data.split_at(50);
///     splitsteal::scope(|s| {
///         s.spawn(|_| lo[0] = a.iter().sum());
///         s.spawn(|_| hi[0] = b.iter().sum());
///     });
/// });
/// assert_eq!(halves[0] + halves[1], 5050);
/// ```
pub fn scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    R: Send,
{
    let worker = WorkerThread::current();
    if worker.is_null() {
        return crate::pool::global_registry().in_worker(|w| scope_on(w, op));
    }
    // SAFETY: this thread's own worker, alive for the call.
    scope_on(unsafe { &*worker }, op)
}

pub(crate) fn scope_on<'scope, OP, R>(worker: &WorkerThread, op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    R: Send,
{
    let scope = Scope {
        jobs: CountLatch::new(Arc::clone(&worker.registry), worker.index),
        panic: AtomicPtr::new(ptr::null_mut()),
        _marker: PhantomData,
    };
    let result = panic::catch_unwind(AssertUnwindSafe(|| op(&scope)));
    // The body's own count.
    // SAFETY: `scope.jobs` is alive; we wait for it below before it is dropped.
    unsafe { Latch::set(&raw const scope.jobs) };
    worker.wait_until(&scope.jobs);
    scope.maybe_propagate_panic();
    match result {
        Ok(r) => r,
        Err(payload) => panic::resume_unwind(payload),
    }
}

impl<'scope> Scope<'scope> {
    /// Spawns a task into the scope. It may run on any worker of the pool; it receives the
    /// scope and may spawn more. Spawned tasks are heap-allocated (one box each).
    pub fn spawn<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&Scope<'scope>) + Send + 'scope,
    {
        self.jobs.increment();
        // `&Scope` is `Send` (`Scope` is `Sync`); the scope outlives the job because it
        // waits for its count to reach zero before returning.
        let job = HeapJob::into_job_ref(move || {
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| body(self))) {
                self.record_panic(payload);
            }
            // SAFETY: the latch is alive until this decrement (the scope waits for it).
            unsafe { Latch::set(&raw const self.jobs) };
        });
        let registry = self.jobs.registry();
        let worker = WorkerThread::current();
        // SAFETY: a non-null current worker is this thread's own.
        match unsafe { worker.as_ref() } {
            Some(w) if Arc::ptr_eq(&w.registry, registry) => {
                if let Some(h) = w.deque.hybrid() {
                    if crate::hybrid::spawn_mailing(w, h, job) {
                        return;
                    }
                }
                if w.push(job) {
                    w.after_push();
                } else {
                    // Deque full: run it now, nothing lost.
                    w.execute(job);
                }
            }
            // Spawned from a thread of another pool (or none): hand it to our pool.
            _ => registry.inject(job),
        }
    }

    fn record_panic(&self, payload: Box<dyn Any + Send>) {
        let boxed = Box::into_raw(Box::new(payload));
        // AcqRel: the scope owner reads the payload after its latch wait.
        if self
            .panic
            .compare_exchange(ptr::null_mut(), boxed, Ordering::AcqRel, Ordering::Relaxed)
            .is_err()
        {
            // Another panic was recorded first; drop this one.
            // SAFETY: we just created it and did not publish it.
            drop(unsafe { Box::from_raw(boxed) });
        }
    }

    fn maybe_propagate_panic(&self) {
        // Acquire: pairs with `record_panic`.
        let p = self.panic.swap(ptr::null_mut(), Ordering::Acquire);
        if !p.is_null() {
            // SAFETY: published by `record_panic` from `Box::into_raw`, taken once.
            let payload = unsafe { *Box::from_raw(p) };
            panic::resume_unwind(payload);
        }
    }
}

impl std::fmt::Debug for Scope<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scope").finish_non_exhaustive()
    }
}

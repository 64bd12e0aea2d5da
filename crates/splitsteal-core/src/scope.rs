//! Scopes: spawn any number of tasks that may borrow from the caller's stack.
//!
//! [`scope`] runs its body on a worker of the pool (hopping into the global pool from
//! outside); [`in_place_scope`] runs it on the calling thread, which then waits for the
//! spawned tasks while working if it is a worker, or blocked if it is not. The `_fifo`
//! variants start one thread's spawns in the order they were made (see
//! [`spawn_fifo`](crate::spawn_fifo)).

use std::any::Any;
use std::marker::PhantomData;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Arc;

use crate::broadcast::BroadcastContext;
use crate::job::{HeapJob, JobRef};
use crate::job_queue::JobFifo;
use crate::latch::{CountLatch, Latch};
use crate::pool::ThreadPool;
use crate::registry::Registry;
use crate::spawn::{push_fifo_or_inject, with_current_registry};
use crate::worker::{Entered, WorkerThread};

/// A scope in which tasks can be spawned; see [`scope`].
pub struct Scope<'scope> {
    base: ScopeBase<'scope>,
}

/// A scope whose spawns start in FIFO order per thread; see [`scope_fifo`].
pub struct ScopeFifo<'scope> {
    base: ScopeBase<'scope>,
    /// One FIFO per worker of the pool the scope spawns into.
    fifos: Box<[JobFifo]>,
}

/// What both kinds of scope share.
struct ScopeBase<'scope> {
    /// The pool the spawned tasks run on.
    registry: Arc<Registry>,
    /// Unfinished spawned tasks plus one for the scope's body.
    jobs: CountLatch,
    /// The first panic of a spawned task.
    panic: AtomicPtr<Box<dyn Any + Send + 'static>>,
    /// Invariant in `'scope`, as rayon's: spawned closures may borrow for `'scope`.
    _marker: PhantomData<fn(&'scope ()) -> &'scope ()>,
}

/// Creates a scope: `op` may [`spawn`](Scope::spawn) tasks that borrow from the caller's
/// stack; `scope` returns when `op` and every spawned task (transitively) have finished.
/// A panic in any of them propagates to the caller after all have finished.
///
/// `op` runs on a worker of the current pool (the global pool if the caller is not a
/// worker); [`in_place_scope`] runs it on the calling thread instead.
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
        if let Some(_entered) = Entered::borrowed() {
            return scope(op);
        }
        return crate::pool::global_registry().in_worker(|w| scope_on(w, op));
    }
    // SAFETY: this thread's own worker, alive for the call.
    scope_on(unsafe { &*worker }, op)
}

/// Like [`scope`], but the tasks spawned with [`ScopeFifo::spawn_fifo`] from one thread
/// start in the order they were spawned (first in, first out); stolen tasks may still
/// run earlier, in parallel.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use std::sync::Mutex;
///
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// let order = Mutex::new(Vec::new());
/// pool.scope_fifo(|s| {
///     for i in 0..4 {
///         let order = &order;
///         s.spawn_fifo(move |_| order.lock().unwrap().push(i));
///     }
/// });
/// // One worker: first in, first out.
/// assert_eq!(order.into_inner().unwrap(), [0, 1, 2, 3]);
/// ```
pub fn scope_fifo<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
    R: Send,
{
    let worker = WorkerThread::current();
    if worker.is_null() {
        if let Some(_entered) = Entered::borrowed() {
            return scope_fifo(op);
        }
        return crate::pool::global_registry().in_worker(|w| scope_fifo_on(w, op));
    }
    // SAFETY: this thread's own worker, alive for the call.
    scope_fifo_on(unsafe { &*worker }, op)
}

/// Like [`scope`], but `op` runs on the calling thread, without first moving into the
/// pool: its spawns go to the current pool (the global pool if the caller is not a
/// worker). A caller that is not a worker blocks until every spawned task has finished.
/// `op` need not be `Send`.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use std::rc::Rc;
///
/// let not_send = Rc::new(5); // stays on this thread
/// let mut doubled = vec![0; 4];
/// splitsteal::in_place_scope(|s| {
///     for (i, slot) in doubled.iter_mut().enumerate() {
///         s.spawn(move |_| *slot = 2 * i);
///     }
///     assert_eq!(*not_send, 5);
/// });
/// assert_eq!(doubled, [0, 2, 4, 6]);
/// ```
pub fn in_place_scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R,
{
    with_current_registry(|registry| in_place_scope_in(registry, op))
}

/// [`in_place_scope`] with FIFO spawns ([`scope_fifo`]).
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// let count = AtomicUsize::new(0);
/// splitsteal::in_place_scope_fifo(|s| {
///     for _ in 0..10 {
///         s.spawn_fifo(|_| {
///             count.fetch_add(1, Ordering::Relaxed);
///         });
///     }
/// });
/// assert_eq!(count.into_inner(), 10);
/// ```
pub fn in_place_scope_fifo<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    with_current_registry(|registry| in_place_scope_fifo_in(registry, op))
}

pub(crate) fn scope_on<'scope, OP, R>(worker: &WorkerThread, op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    R: Send,
{
    let scope = Scope {
        base: ScopeBase::new(&worker.registry, Some(worker)),
    };
    scope.base.complete(Some(worker), || op(&scope))
}

fn scope_fifo_on<'scope, OP, R>(worker: &WorkerThread, op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
    R: Send,
{
    let scope = ScopeFifo::new(&worker.registry, Some(worker));
    scope.base.complete(Some(worker), || op(&scope))
}

fn in_place_scope_in<'scope, OP, R>(registry: &Arc<Registry>, op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R,
{
    let _entered = Entered::borrowed();
    let owner = WorkerThread::current_ref();
    let scope = Scope {
        base: ScopeBase::new(registry, owner),
    };
    scope.base.complete(owner, || op(&scope))
}

fn in_place_scope_fifo_in<'scope, OP, R>(registry: &Arc<Registry>, op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    let _entered = Entered::borrowed();
    let owner = WorkerThread::current_ref();
    let scope = ScopeFifo::new(registry, owner);
    scope.base.complete(owner, || op(&scope))
}

impl ThreadPool {
    /// [`scope`] on this pool.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut v = [1, 2, 3];
    /// pool.scope(|s| {
    ///     for x in &mut v {
    ///         s.spawn(move |_| *x *= 10);
    ///     }
    /// });
    /// assert_eq!(v, [10, 20, 30]);
    /// ```
    pub fn scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R + Send,
        R: Send,
    {
        self.registry.in_worker(|worker| scope_on(worker, op))
    }

    /// [`scope_fifo`] on this pool.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut v = [1, 2, 3];
    /// pool.scope_fifo(|s| {
    ///     for x in &mut v {
    ///         s.spawn_fifo(move |_| *x += 1);
    ///     }
    /// });
    /// assert_eq!(v, [2, 3, 4]);
    /// ```
    pub fn scope_fifo<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
        R: Send,
    {
        self.registry.in_worker(|worker| scope_fifo_on(worker, op))
    }

    /// [`in_place_scope`] whose spawns run on this pool: `op` runs on the calling thread.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut ran_on = None;
    /// pool.in_place_scope(|s| {
    ///     s.spawn(|_| ran_on = splitsteal::current_thread_index());
    /// });
    /// assert!(ran_on.is_some()); // on one of the pool's workers
    /// ```
    pub fn in_place_scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R,
    {
        in_place_scope_in(&self.registry, op)
    }

    /// [`in_place_scope_fifo`] whose spawns run on this pool.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut v = [0; 3];
    /// pool.in_place_scope_fifo(|s| {
    ///     for (i, x) in v.iter_mut().enumerate() {
    ///         s.spawn_fifo(move |_| *x = i);
    ///     }
    /// });
    /// assert_eq!(v, [0, 1, 2]);
    /// ```
    pub fn in_place_scope_fifo<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&ScopeFifo<'scope>) -> R,
    {
        in_place_scope_fifo_in(&self.registry, op)
    }
}

impl<'scope> Scope<'scope> {
    /// Spawns a task into the scope. It may run on any worker of the pool; it receives the
    /// scope and may spawn more. Spawned tasks are heap-allocated (one box each).
    pub fn spawn<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&Scope<'scope>) + Send + 'scope,
    {
        let job = self.base.job(move || body(self));
        self.base.registry.push_or_inject(job);
    }

    /// Spawns `body` once on every worker of the pool, into the scope: the scope ends only
    /// after every worker has run it. Each worker runs its share when it next looks for
    /// work (as [`spawn_broadcast`](crate::spawn_broadcast)).
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::Mutex;
    ///
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    /// let seen = Mutex::new(Vec::new()); // borrowed, not 'static
    /// pool.scope(|s| {
    ///     s.spawn_broadcast(|_, ctx| seen.lock().unwrap().push(ctx.index()));
    /// });
    /// let mut seen = seen.into_inner().unwrap();
    /// seen.sort();
    /// assert_eq!(seen, [0, 1, 2]);
    /// ```
    pub fn spawn_broadcast<BODY>(&self, body: BODY)
    where
        BODY: Fn(&Scope<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
    {
        let body = Arc::new(body);
        self.base.broadcast(|| {
            let body = Arc::clone(&body);
            move |ctx| body(self, ctx)
        });
    }
}

impl<'scope> ScopeFifo<'scope> {
    fn new(registry: &Arc<Registry>, owner: Option<&WorkerThread>) -> Self {
        ScopeFifo {
            base: ScopeBase::new(registry, owner),
            fifos: (0..registry.num_threads())
                .map(|_| JobFifo::new())
                .collect(),
        }
    }

    /// Spawns a task into the scope; the tasks one thread spawns start in that order
    /// (first in, first out). Otherwise as [`Scope::spawn`].
    pub fn spawn_fifo<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&ScopeFifo<'scope>) + Send + 'scope,
    {
        let job = self.base.job(move || body(self));
        push_fifo_or_inject(&self.base.registry, job, |index| &self.fifos[index]);
    }

    /// Spawns `body` once on every worker of the pool, into the scope (as
    /// [`Scope::spawn_broadcast`]).
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let runs = AtomicUsize::new(0);
    /// pool.scope_fifo(|s| s.spawn_broadcast(|_, _| {
    ///     runs.fetch_add(1, Ordering::Relaxed);
    /// }));
    /// assert_eq!(runs.into_inner(), 2);
    /// ```
    pub fn spawn_broadcast<BODY>(&self, body: BODY)
    where
        BODY: Fn(&ScopeFifo<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
    {
        let body = Arc::new(body);
        self.base.broadcast(|| {
            let body = Arc::clone(&body);
            move |ctx| body(self, ctx)
        });
    }
}

impl<'scope> ScopeBase<'scope> {
    fn new(registry: &Arc<Registry>, owner: Option<&WorkerThread>) -> Self {
        ScopeBase {
            registry: Arc::clone(registry),
            jobs: match owner {
                Some(worker) => CountLatch::for_worker(worker),
                None => CountLatch::for_thread(),
            },
            panic: AtomicPtr::new(ptr::null_mut()),
            _marker: PhantomData,
        }
    }

    /// Runs the body, then waits for every spawned task; then resumes the first panic
    /// recorded (the body's or a task's), if any.
    fn complete<R>(&self, owner: Option<&WorkerThread>, body: impl FnOnce() -> R) -> R {
        let result = match panic::catch_unwind(AssertUnwindSafe(body)) {
            Ok(r) => Some(r),
            Err(payload) => {
                self.record_panic(payload);
                None
            }
        };
        // The body's own count.
        // SAFETY: `self.jobs` is alive; we wait for it below before it is dropped.
        unsafe { Latch::set(&raw const self.jobs) };
        self.jobs.wait(owner);
        self.maybe_propagate_panic();
        result.expect("a body that panicked left its panic to propagate")
    }

    /// One job per worker, each pushed on that worker's own queue: `share()` makes a
    /// worker's share, which receives the context of the worker running it.
    fn broadcast<S, F>(&self, share: S)
    where
        S: Fn() -> F,
        F: FnOnce(BroadcastContext<'_>) + Send,
    {
        for index in 0..self.registry.num_threads() {
            let task = share();
            let job = self.job(move || {
                // SAFETY: broadcast jobs run only on their worker (from its own queue), so
                // the current worker is non-null and this thread's.
                let worker = unsafe { &*WorkerThread::current() };
                task(BroadcastContext::on(worker));
            });
            self.registry.push_for_worker(index, job);
        }
    }

    /// The job for one spawned task: counted until it has run, its panic recorded.
    fn job<F: FnOnce() + Send>(&self, task: F) -> JobRef {
        self.jobs.increment();
        let job = move || {
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(task)) {
                self.record_panic(payload);
            }
            // SAFETY: the latch is alive until this decrement (the scope waits for it).
            unsafe { Latch::set(&raw const self.jobs) };
        };
        // The job borrows for `'scope` (and `self`): the scope does not return before the
        // job has run (`complete` waits for its count).
        HeapJob::into_job_ref(job)
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

impl std::fmt::Debug for ScopeFifo<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScopeFifo").finish_non_exhaustive()
    }
}

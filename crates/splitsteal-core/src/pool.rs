//! Thread pools: building one, running work on it, the global pool.

use std::any::Any;
use std::cell::RefCell;
use std::fmt;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use std::ffi::c_int;

use crate::deque::StealAmount;
use crate::fork::{ForkJoin, DEFAULT_MORSEL_BYTES};
use crate::handlers::{Closure, Handlers};
use crate::latency::StartLatencies;
use crate::local::LocalDeque;
use crate::plan::Mailing;
use crate::plan::{MailPlan, Plan};
use crate::registry::{Config, Registry};
use crate::stats::Stats;
use crate::worker::{main_loop, WorkerThread};
use crate::{exposure, join, Policy};

/// The environment variable that sets a pool's number of threads when
/// [`ThreadPoolBuilder::num_threads`] is not called (or is given 0); `0` means one per
/// available CPU.
pub const ENV_NUM_THREADS: &str = "SPLITSTEAL_NUM_THREADS";
/// The environment variable that sets a pool's policy when [`ThreadPoolBuilder::policy`]
/// is not called.
pub const ENV_POLICY: &str = "SPLITSTEAL_POLICY";
/// rayon's thread-count variable, read when [`ENV_NUM_THREADS`] is unset, as rayon reads
/// it (a value it cannot use is ignored, a count above [`MAX_THREADS`] lowered to it), so
/// that a rayon program keeps its configuration.
pub const ENV_RAYON_NUM_THREADS: &str = "RAYON_NUM_THREADS";

/// The most worker threads a pool may have (see [`max_num_threads`]).
pub const MAX_THREADS: usize = 1024;

/// The most worker threads a pool may have: building a pool with more
/// ([`ThreadPoolBuilder::num_threads`], `SPLITSTEAL_NUM_THREADS`) fails with an error that
/// says so. (rayon instead lowers the count to its maximum.)
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let max = splitsteal::max_num_threads();
/// assert!(max >= 1);
/// let err = splitsteal::ThreadPoolBuilder::new().num_threads(max + 1).build().unwrap_err();
/// assert!(err.to_string().contains(&format!("at most {max} threads")), "{err}");
/// ```
pub fn max_num_threads() -> usize {
    MAX_THREADS
}

/// Why a pool could not be built.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// An invalid setting (the message says which and why).
    InvalidConfig(String),
    /// An environment variable holds an invalid value.
    InvalidEnv {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The exposure signal could not be set up.
    Signal(String),
    /// A policy or setting that this platform cannot provide (the message names the
    /// platform and what works there).
    Unsupported(String),
    /// A worker thread could not be spawned.
    Spawn(std::io::Error),
    /// `build_global` was called after the global pool existed.
    GlobalAlreadyInitialized,
    /// [`use_current_thread`](ThreadPoolBuilder::use_current_thread) on a thread that is
    /// already a worker of a pool.
    CurrentThreadAlreadyInPool,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::InvalidConfig(m) => write!(f, "invalid thread pool configuration: {m}"),
            BuildError::InvalidEnv { var, value, reason } => {
                write!(f, "invalid {var}={value:?}: {reason}")
            }
            BuildError::Signal(m) => write!(f, "cannot set up the exposure signal: {m}"),
            BuildError::Unsupported(m) => write!(f, "not supported on this platform: {m}"),
            BuildError::Spawn(e) => write!(f, "cannot spawn a worker thread: {e}"),
            // These two are rayon-core's words, which its users may compare.
            BuildError::GlobalAlreadyInitialized => {
                f.write_str("The global thread pool has already been initialized.")
            }
            BuildError::CurrentThreadAlreadyInPool => {
                f.write_str("The current thread is already part of another thread pool.")
            }
        }
    }
}

/// rayon's name for [`BuildError`], for code written against rayon.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::{ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};
///
/// fn two_threads() -> Result<ThreadPool, ThreadPoolBuildError> {
///     ThreadPoolBuilder::new().num_threads(2).build()
/// }
/// assert_eq!(two_threads().unwrap().current_num_threads(), 2);
/// ```
pub type ThreadPoolBuildError = BuildError;

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Spawn(e) => Some(e),
            _ => None,
        }
    }
}

/// Configures and builds a [`ThreadPool`].
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::{Policy, ThreadPoolBuilder};
///
/// let pool = ThreadPoolBuilder::new()
///     .num_threads(2)
///     .policy(Policy::LcwsPoll)
///     .build()
///     .unwrap();
/// assert_eq!(pool.current_num_threads(), 2);
/// assert_eq!(pool.policy(), Policy::LcwsPoll);
/// ```
///
/// As rayon's, the builder is neither `Send` nor `Sync`: it may hold a
/// [`thread_name`](Self::thread_name) closure, which need not be. Its clones share that
/// closure and its state.
///
/// The type parameter is how worker threads are started: [`DefaultSpawn`] (named `std`
/// threads) unless [`spawn_handler`](Self::spawn_handler) sets another, as in rayon, so
/// `ThreadPoolBuilder` names the builder that [`new`](Self::new) returns.
///
/// # The environment
///
/// As rayon's builder reads `RAYON_NUM_THREADS`, every builder reads its defaults from the
/// environment when it builds a pool, the global pool's included: the number of threads
/// from `SPLITSTEAL_NUM_THREADS` (else `RAYON_NUM_THREADS`) unless
/// [`num_threads`](Self::num_threads) set a non-zero count, and the policy from
/// `SPLITSTEAL_POLICY` unless [`policy`](Self::policy) set one. Unset or empty variables
/// (and `0` threads) mean the default; an invalid `SPLITSTEAL_*` value makes
/// [`build`](Self::build) and [`build_global`](Self::build_global) fail with
/// [`BuildError::InvalidEnv`], which names the variable and the valid values, and the global
/// pool, when it is built on first use, panics with that message there. rayon's variables
/// are read as rayon reads them: a `RAYON_NUM_THREADS` it cannot use (`-1`, `abc`) is
/// ignored, and the deprecated `RAYON_RS_NUM_CPUS` is read when `RAYON_NUM_THREADS` is not.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::{Policy, ThreadPoolBuilder};
///
/// // Explicit settings win over the environment.
/// let pool = ThreadPoolBuilder::new().num_threads(3).policy(Policy::Abp).build().unwrap();
/// assert_eq!((pool.current_num_threads(), pool.policy()), (3, Policy::Abp));
/// ```
#[derive(Debug, Clone)]
pub struct ThreadPoolBuilder<S = DefaultSpawn> {
    num_threads: usize,
    /// `None`: `SPLITSTEAL_POLICY`, else the default.
    policy: Option<Policy>,
    use_current_thread: bool,
    signal: Option<c_int>,
    deque_capacity: usize,
    morsel_bytes: usize,
    spin_rounds: u32,
    hybrid_base: Policy,
    mailing: Mailing,
    steal_after_mails: Option<usize>,
    steal_after: Duration,
    record_start_latency: bool,
    pin_threads: bool,
    assume_no_membarrier: bool,
    steal: StealAmount,
    stack_size: Option<usize>,
    thread_name: Option<ThreadNamer>,
    spawn_handler: S,
    handlers: Handlers,
}

/// How a [`ThreadPoolBuilder`] starts its worker threads. Implemented by [`DefaultSpawn`]
/// and [`CustomSpawn`] only (the builder's [`spawn_handler`](ThreadPoolBuilder::spawn_handler)
/// is the way to start threads differently), as rayon's.
pub trait ThreadSpawn: private::Sealed {
    /// Runs `thread` on a new thread; returns its handle if the pool may join it at drop.
    #[doc(hidden)]
    fn spawn(&mut self, thread: ThreadBuilder) -> io::Result<Option<JoinHandle<()>>>;
}

mod private {
    pub trait Sealed {}
}

/// The default way to start workers: named `std` threads of the
/// [`stack_size`](ThreadPoolBuilder::stack_size) asked, joined when the pool is dropped.
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultSpawn;

impl private::Sealed for DefaultSpawn {}

impl ThreadSpawn for DefaultSpawn {
    fn spawn(&mut self, thread: ThreadBuilder) -> io::Result<Option<JoinHandle<()>>> {
        thread.std_builder().spawn(move || thread.run()).map(Some)
    }
}

/// A [`ThreadPoolBuilder::spawn_handler`] closure. It is called only while the pool is
/// built, so it may borrow (`F` need not be `'static`).
#[derive(Clone)]
pub struct CustomSpawn<F>(F);

impl<F> fmt::Debug for CustomSpawn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("CustomSpawn").field(&Closure).finish()
    }
}

impl<F> private::Sealed for CustomSpawn<F> {}

impl<F> ThreadSpawn for CustomSpawn<F>
where
    F: FnMut(ThreadBuilder) -> io::Result<()>,
{
    fn spawn(&mut self, thread: ThreadBuilder) -> io::Result<Option<JoinHandle<()>>> {
        (self.0)(thread)?;
        Ok(None)
    }
}

/// One worker thread to start, handed to a [`ThreadPoolBuilder::spawn_handler`] or to the
/// wrapper of [`ThreadPoolBuilder::build_scoped`]: run it, with [`run`](Self::run), on a
/// new thread.
pub struct ThreadBuilder {
    index: usize,
    name: String,
    stack_size: Option<usize>,
    /// `None` once run.
    work: Option<Box<dyn FnOnce() + Send>>,
    /// Counts builders dropped without being run, so that `build` fails instead of
    /// waiting for a worker that will never start.
    unrun: Arc<AtomicUsize>,
}

impl ThreadBuilder {
    /// The worker's index in its pool.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The name the pool gives this thread ([`ThreadPoolBuilder::thread_name`], or the
    /// default `splitsteal-<policy>-<index>`); the spawner decides whether to use it.
    /// (rayon returns `None` when no `thread_name` closure was set.)
    pub fn name(&self) -> Option<&str> {
        Some(&self.name)
    }

    /// The stack size asked with [`ThreadPoolBuilder::stack_size`], if any.
    pub fn stack_size(&self) -> Option<usize> {
        self.stack_size
    }

    /// A `std` thread builder with this worker's name and stack size.
    fn std_builder(&self) -> thread::Builder {
        let builder = thread::Builder::new().name(self.name.clone());
        match self.stack_size {
            Some(size) => builder.stack_size(size),
            None => builder,
        }
    }

    /// Runs the worker on the calling thread until the pool is dropped (and its spawned
    /// jobs have finished).
    ///
    /// # Panics
    ///
    /// If the calling thread is already a worker of a pool: inside one of a pool's tasks
    /// (a handler that passes the builder to `other_pool.spawn` or `other_pool.install`),
    /// or the thread of a [`use_current_thread`](ThreadPoolBuilder::use_current_thread)
    /// pool. A thread is a worker of one pool at a time, as in rayon. The builder is then
    /// dropped without running, so the pool's `build` fails instead of waiting for it.
    pub fn run(mut self) {
        if WorkerThread::current_or_borrowed().is_some() {
            panic!(
                "splitsteal: ThreadBuilder::run on a thread that is already a worker of a \
                 pool (inside a pool's task, or a use_current_thread thread); a pool's \
                 workers need threads of their own"
            );
        }
        if let Some(work) = self.work.take() {
            work()
        }
    }
}

impl Drop for ThreadBuilder {
    fn drop(&mut self) {
        if self.work.is_some() {
            // Relaxed: the builder only needs the count; the worker's deque is dropped
            // here, on this thread, and nothing else refers to it.
            self.unrun.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl fmt::Debug for ThreadBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadBuilder")
            .field("index", &self.index)
            .field("name", &self.name)
            .field("stack_size", &self.stack_size)
            .finish_non_exhaustive()
    }
}

/// The [`ThreadPoolBuilder::thread_name`] closure, shared by the builder's clones; called on
/// the building thread only.
#[derive(Clone)]
struct ThreadNamer(Rc<RefCell<dyn FnMut(usize) -> String>>);

impl fmt::Debug for ThreadNamer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&Closure, f)
    }
}

impl Default for ThreadPoolBuilder {
    fn default() -> Self {
        ThreadPoolBuilder::new()
    }
}

impl<S> ThreadPoolBuilder<S> {
    /// Default deque capacity: how many tasks a worker's deque holds at most under `abp`
    /// and the split deques (the LCWS policies), however many were pushed and stolen
    /// before; the initial size under `chase-lev`, which grows. A join whose deque is full
    /// runs inline; a spawn whose deque is full goes to the pool's shared queue (a spawn
    /// never runs its closure inside the call).
    pub const DEFAULT_DEQUE_CAPACITY: usize = 4096;
    /// Default number of failed steal rounds (each followed by a yield) before sleeping.
    pub const DEFAULT_SPIN_ROUNDS: u32 = 64;
    /// Default base deque policy of `hybrid` (see [`ThreadPoolBuilder::hybrid_base`]).
    pub const DEFAULT_HYBRID_BASE: Policy = Policy::ChaseLev;
    /// Default delay after an origin task starts before `hybrid` thieves may steal.
    pub const DEFAULT_STEAL_AFTER: Duration = Duration::from_micros(100);
}

impl ThreadPoolBuilder {
    /// A builder with defaults: one thread per available CPU and [`Policy::default`],
    /// unless the environment says otherwise (see [the environment](Self#the-environment)).
    pub fn new() -> Self {
        ThreadPoolBuilder {
            num_threads: 0,
            policy: None,
            use_current_thread: false,
            signal: None,
            deque_capacity: Self::DEFAULT_DEQUE_CAPACITY,
            morsel_bytes: DEFAULT_MORSEL_BYTES,
            spin_rounds: Self::DEFAULT_SPIN_ROUNDS,
            hybrid_base: Self::DEFAULT_HYBRID_BASE,
            mailing: Mailing::default(),
            steal_after_mails: None,
            steal_after: Self::DEFAULT_STEAL_AFTER,
            record_start_latency: false,
            pin_threads: false,
            assume_no_membarrier: false,
            steal: StealAmount::default(),
            stack_size: None,
            thread_name: None,
            spawn_handler: DefaultSpawn,
            handlers: Handlers::default(),
        }
    }

    /// [`new`](Self::new), after checking the environment it reads
    /// (`SPLITSTEAL_NUM_THREADS`, `SPLITSTEAL_POLICY`; rayon's variables are never an error):
    /// an invalid value is reported now, as the [`BuildError`] that [`build`](Self::build) would return.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// // With none of the variables set, this is `ThreadPoolBuilder::new()`.
    /// let builder = splitsteal::ThreadPoolBuilder::from_env().unwrap();
    /// ```
    pub fn from_env() -> Result<Self, BuildError> {
        env_num_threads()?;
        env_policy()?;
        Ok(ThreadPoolBuilder::new())
    }

    /// Builds a pool whose workers are scoped threads, each running `wrapper` (which must
    /// call [`ThreadBuilder::run`]), calls `with_pool` with it, then drops the pool and
    /// waits for every worker thread to exit before returning `with_pool`'s result. The
    /// threads may borrow from the caller's stack (through `wrapper`), as with
    /// `std::thread::scope`. A panic in `with_pool` propagates, after the threads have
    /// exited.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// let started = AtomicUsize::new(0); // borrowed by the workers, not 'static
    /// let sum = splitsteal::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .build_scoped(
    ///         |thread| {
    ///             started.fetch_add(1, Ordering::Relaxed);
    ///             thread.run()
    ///         },
    ///         |pool| pool.install(|| splitsteal::join(|| 1 + 2, || 3 + 4)),
    ///     )
    ///     .unwrap();
    /// assert_eq!(sum, (3, 7));
    /// assert_eq!(started.load(Ordering::Relaxed), 2);
    /// ```
    pub fn build_scoped<W, F, R>(self, wrapper: W, with_pool: F) -> Result<R, BuildError>
    where
        W: Fn(ThreadBuilder) + Sync,
        F: FnOnce(&ThreadPool) -> R,
    {
        let wrapper = &wrapper;
        thread::scope(|scope| {
            let (registry, _) = self.build_registry_with(|thread| {
                // The scope joins the thread; no handle is kept.
                thread
                    .std_builder()
                    .spawn_scoped(scope, move || wrapper(thread))?;
                Ok(None)
            })?;
            let pool = ThreadPool {
                registry,
                handles: Vec::new(),
            };
            // On return or unwind the pool is dropped first, so the workers stop and the
            // scope's join of them ends.
            Ok(with_pool(&pool))
        })
    }
}

impl<S> ThreadPoolBuilder<S> {
    /// The number of worker threads. 0 (the default) means `SPLITSTEAL_NUM_THREADS`, else
    /// `RAYON_NUM_THREADS`, else one per available CPU (see
    /// [the environment](Self#the-environment)).
    pub fn num_threads(mut self, n: usize) -> Self {
        self.num_threads = n;
        self
    }

    /// The scheduling policy (default: `SPLITSTEAL_POLICY`, else [`Policy::default`]).
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = Some(policy);
        self
    }

    /// The signal that carries exposure requests under the signal-based LCWS policies
    /// (`lcws-signal`, `lcws-cons`, `lcws-half`; the default policy sends none): `SIGURG` by
    /// default ([`default_signal`](crate::default_signal)), or a real-time signal
    /// (`SIGRTMIN..=SIGRTMAX`). `build` fails for any other number, and for one another
    /// handler owns. Pools may share a number.
    ///
    /// What it means for the program:
    /// - **System calls in tasks**: a task's `poll`, `select`, `epoll_wait`, `nanosleep`,
    ///   `sem_timedwait`, `sigtimedwait`, System V IPC (`semtimedop`, `msgrcv`) and socket
    ///   I/O with a timeout may fail with `EINTR` when a thief asks its worker for work; a
    ///   blocking `write` that has moved some data returns a short count (so call
    ///   `write_all`, not a single `write`); glibc's `sleep` and `usleep` return early.
    ///   Code that retries as POSIX code must is unaffected (`std::thread::sleep` and
    ///   `std`'s I/O helpers do).
    /// - **Masks**: each worker unblocks this number after the start handler runs, whatever
    ///   the handler or the building thread blocked (a start handler that blocks every
    ///   signal, so that only `main` gets `SIGINT`, keeps working).
    /// - **Dispositions**: before each send a thief checks that the number still runs the
    ///   pool's handler; if the program installed its own, reset it to the default or
    ///   ignores it after the build, the pool sends no more (it asks its workers by
    ///   polling, and says so once on stderr). Only signals already on their way at that
    ///   moment, at most one per worker, reach the new disposition: ignored under `SIGURG`'s
    ///   default action; under a real-time signal's default action, the end of the process.
    /// - **The program's own signals**: a copy of this number sent to the process may reach
    ///   a worker and be taken by the pool: a program that waits for it (`sigwait`,
    ///   `signalfd`) must give the pool another number. Other numbers are untouched.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use splitsteal::{Policy, ThreadPoolBuilder};
    ///
    /// // The program uses SIGURG itself: give the pool a real-time signal.
    /// let pool = ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .policy(Policy::LcwsSignal)
    ///     .signal(libc::SIGRTMIN() + 7)
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(pool.install(|| splitsteal::join(|| 1, || 2)), (1, 2));
    /// ```
    pub fn signal(mut self, signo: c_int) -> Self {
        self.signal = Some(signo);
        self
    }

    /// For tests: the pool behaves as it does where the system offers no `membarrier`
    /// (kernels before 4.14, seccomp filters): its idle workers sleep after a few timed
    /// naps, and under `asym` its owners fence their pops. Not part of the API.
    #[doc(hidden)]
    pub fn assume_no_membarrier(mut self, assume: bool) -> Self {
        self.assume_no_membarrier = assume;
        self
    }

    /// How many tasks a thief takes per steal under [`Policy::Asym`] (the other policies
    /// take one): [`StealAmount::Adaptive`] (the default) takes the oldest task, or half of
    /// the victim's when it holds more than [`StealAmount::DEEP`], which pays one heavy
    /// fence for a batch where work appears on one worker a task at a time (a spawn loop, a
    /// list walk, a chain of cheap joins); [`StealAmount::One`] is the classical rule, and
    /// [`StealAmount::Half`] always takes half.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use splitsteal::{Policy, StealAmount, ThreadPoolBuilder};
    /// let pool = ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .policy(Policy::Asym)
    ///     .steal_amount(StealAmount::One)
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(pool.install(|| splitsteal::join(|| 1, || 2)), (1, 2));
    /// ```
    pub fn steal_amount(mut self, amount: StealAmount) -> Self {
        self.steal = amount;
        self
    }

    /// The deque capacity (see [`ThreadPoolBuilder::DEFAULT_DEQUE_CAPACITY`]), from 1 to
    /// 2³⁰; `abp`, `asym` and the split deques round it up to a power of two.
    pub fn deque_capacity(mut self, capacity: usize) -> Self {
        self.deque_capacity = capacity;
        self
    }

    /// The morsel size in bytes used by the data-parallel primitives (see
    /// [`ForkJoin::morsel_bytes`]); a power of two of at least 64.
    pub fn morsel_bytes(mut self, bytes: usize) -> Self {
        self.morsel_bytes = bytes;
        self
    }

    /// Failed steal rounds (each followed by a yield) before an idle worker sleeps.
    pub fn spin_rounds(mut self, rounds: u32) -> Self {
        self.spin_rounds = rounds;
        self
    }

    /// `hybrid`: the deque policy underneath the mailboxes (any policy but `hybrid`; default
    /// [`DEFAULT_HYBRID_BASE`](Self::DEFAULT_HYBRID_BASE)).
    pub fn hybrid_base(mut self, base: Policy) -> Self {
        self.hybrid_base = base;
        self
    }

    /// `hybrid`: how a task's workers are split at a fork ([`Mailing`]).
    pub fn mailing(mut self, mailing: Mailing) -> Self {
        self.mailing = mailing;
        self
    }

    /// `hybrid`: thieves may steal once an origin task has mailed this many tasks (default:
    /// the number of workers minus one, one task for each other worker) ...
    pub fn steal_after_mails(mut self, mails: usize) -> Self {
        self.steal_after_mails = Some(mails);
        self
    }

    /// ... or once this long has passed since the origin task started (default
    /// [`DEFAULT_STEAL_AFTER`](Self::DEFAULT_STEAL_AFTER)), whichever comes first.
    pub fn steal_after(mut self, delay: Duration) -> Self {
        self.steal_after = delay;
        self
    }

    /// Records when each task starts, on which worker, relative to its origin task (an
    /// `install` from outside the pool); read with [`ThreadPool::take_start_latencies`].
    /// Off by default; when off it costs one predictable branch per task.
    pub fn record_start_latency(mut self, on: bool) -> Self {
        self.record_start_latency = on;
        self
    }

    /// Pins each worker thread to one CPU of those the process may run on; off by default
    /// (placement is left to the OS, as rayon does). Pinned pools take CPUs round-robin
    /// from a process-wide counter, so two pools (or two 1-thread pools) do not all land
    /// on the first CPU. Pinning can help a benchmark on a quiet machine; on a shared one it
    /// keeps a worker from moving away from a busy CPU. Linux and Android only: elsewhere
    /// `build` returns [`BuildError::Unsupported`] when this is `true`.
    pub fn pin_threads(mut self, pin: bool) -> Self {
        self.pin_threads = pin;
        self
    }

    /// Makes the thread that calls [`build`](ThreadPoolBuilder::build) worker 0 of the
    /// pool, as rayon's `use_current_thread`: the other workers are spawned, and the calling
    /// thread joins them whenever it calls into the pool (`install`, `join`, `scope`,
    /// `broadcast`, `yield_now`, ...): it runs the operation as worker 0, with its tasks
    /// stealable by the others, and runs their work while it waits. Between such calls it
    /// runs its own code and does not look for work: a job spawned into the pool from
    /// elsewhere runs on the other workers (or, with one thread, when this thread next
    /// blocks on the pool or yields to it). The start and exit handlers do not run for it
    /// (the pool does not manage that thread), and it keeps its name.
    ///
    /// The thread stops being a worker when the pool is dropped on it (once the operation
    /// of the pool it is running, if any, returns), when it exits, or, if the pool is
    /// dropped on another thread, when it next calls a pool after the pool has stopped.
    /// (rayon instead leaks the pool and keeps the thread its worker.) A thread can be a
    /// worker of one pool at a time: `build` fails with
    /// [`BuildError::CurrentThreadAlreadyInPool`] otherwise.
    ///
    /// Every policy supports it. Under the signal policies the thread answers exposure
    /// signals as any worker does, and it asks the others for work by posting poll
    /// requests instead of signalling them (its thread may leave while theirs run, so the
    /// others must not wait for it at exit, which they do for threads that may signal
    /// them); a signal sent to it as it leaves is fenced off. The pool's exposure signal is
    /// unblocked in the thread's mask. Under `hybrid`, mail for
    /// worker 0 waits until the thread next blocks on the pool or leaves it (nothing waits
    /// on it: a mailed task is also in its sender's deque).
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use splitsteal::ThreadPoolBuilder;
    ///
    /// let me = std::thread::current().id();
    /// let pool = ThreadPoolBuilder::new().num_threads(2).use_current_thread().build().unwrap();
    /// assert_eq!(splitsteal::current_thread_index(), Some(0)); // this thread is worker 0
    /// // `install` runs here, on worker 0, and its joins are shared with worker 1.
    /// let (on_me, sum) = pool.install(|| {
    ///     let (a, b) = splitsteal::join(|| 1 + 2, || 3 + 4);
    ///     (std::thread::current().id() == me, a + b)
    /// });
    /// assert!(on_me);
    /// assert_eq!(sum, 10);
    /// drop(pool);
    /// assert_eq!(splitsteal::current_thread_index(), None); // no longer a worker
    /// ```
    pub fn use_current_thread(mut self) -> Self {
        self.use_current_thread = true;
        self
    }

    /// The worker threads' stack size in bytes (default: Rust's default).
    pub fn stack_size(mut self, bytes: usize) -> Self {
        self.stack_size = Some(bytes);
        self
    }

    /// Deprecated, as in rayon-core, where it asks workers to run their own spawned jobs
    /// oldest first, as an execution hint with no guaranteed order. Here it is accepted and
    /// changes nothing: a worker takes its own newest job first under every policy (an LCWS
    /// deque's private part only works from its bottom). [`scope_fifo`](crate::scope_fifo)
    /// and [`spawn_fifo`](crate::spawn_fifo) give the oldest-first order, as rayon-core
    /// advises.
    #[deprecated(note = "use `scope_fifo` and `spawn_fifo` for similar effect")]
    pub fn breadth_first(self) -> Self {
        self
    }

    /// Sets a closure that takes a worker's index and returns its thread's name (default
    /// `splitsteal-<policy>-<index>`). It is called once per worker, in index order, on the
    /// thread that builds the pool, just before that worker is spawned (as in rayon). A panic
    /// in it propagates from [`build`](Self::build), and a name containing a NUL byte makes
    /// `build` fail; either way the workers already started are stopped first.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .thread_name(|i| format!("my-worker-{i}"))
    ///     .build()
    ///     .unwrap();
    /// let (index, name) = pool.install(|| {
    ///     let name = std::thread::current().name().map(str::to_owned);
    ///     (splitsteal::current_thread_index().unwrap(), name.unwrap())
    /// });
    /// assert_eq!(name, format!("my-worker-{index}"));
    /// ```
    pub fn thread_name<F>(mut self, closure: F) -> Self
    where
        F: FnMut(usize) -> String + 'static,
    {
        self.thread_name = Some(ThreadNamer(Rc::new(RefCell::new(closure))));
        self
    }

    /// Sets a callback run on each worker thread when it starts, with the worker's index,
    /// before the worker looks for work. Workers start in parallel, so it may run on several
    /// threads at once. [`build`](Self::build) does not wait for it (a start handler may
    /// wait for the building thread). Inside it, [`current_thread_index`] is the worker's
    /// index.
    ///
    /// If it panics, the panic goes to the [`panic_handler`](Self::panic_handler) (with none,
    /// the process aborts); if that returns, the worker starts normally.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    ///
    /// let started = Arc::new(AtomicUsize::new(0));
    /// let s = Arc::clone(&started);
    /// let pool = splitsteal::ThreadPoolBuilder::new()
    ///     .num_threads(3)
    ///     .start_handler(move |_index| {
    ///         s.fetch_add(1, Ordering::SeqCst);
    ///     })
    ///     .build()
    ///     .unwrap();
    /// drop(pool);
    /// // The drop does not wait for threads that run handlers (see `ThreadPool`): the
    /// // handler, and its clone of `started`, go when the last worker has exited.
    /// while Arc::strong_count(&started) > 1 {
    ///     std::thread::yield_now();
    /// }
    /// assert_eq!(started.load(Ordering::SeqCst), 3);
    /// ```
    pub fn start_handler<H>(mut self, start_handler: H) -> Self
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.handlers.start = Some(Arc::new(start_handler));
        self
    }

    /// Sets a callback run on each worker thread when it exits, with the worker's index,
    /// after the worker has stopped looking for work (the pool is being dropped). Dropping a
    /// [`ThreadPool`] does not wait for it (as in rayon: the handler may wait for the
    /// dropping thread); the global pool's workers never exit. Inside it,
    /// [`current_thread_index`] is still the worker's index.
    ///
    /// If it panics, the panic goes to the [`panic_handler`](Self::panic_handler) (with none,
    /// the process aborts); if that returns, the thread exits normally.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::{Arc, Mutex};
    ///
    /// let exited = Arc::new(Mutex::new(Vec::new()));
    /// let e = Arc::clone(&exited);
    /// let pool = splitsteal::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .exit_handler(move |index| e.lock().unwrap().push(index))
    ///     .build()
    ///     .unwrap();
    /// assert!(exited.lock().unwrap().is_empty());
    /// drop(pool);
    /// // The handler, and its clone of `exited`, go when the last worker has exited.
    /// while Arc::strong_count(&exited) > 1 {
    ///     std::thread::yield_now();
    /// }
    /// let mut exited = exited.lock().unwrap().clone();
    /// exited.sort();
    /// assert_eq!(exited, [0, 1]);
    /// ```
    pub fn exit_handler<H>(mut self, exit_handler: H) -> Self
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.handlers.exit = Some(Arc::new(exit_handler));
        self
    }

    /// Sets the handler of panics that have nowhere to propagate: a panic in a task started
    /// by [`spawn`](crate::spawn), [`spawn_fifo`](crate::spawn_fifo) or
    /// [`spawn_broadcast`](crate::spawn_broadcast), or in a
    /// [`start_handler`](Self::start_handler) or [`exit_handler`](Self::exit_handler) (panics
    /// in `join`, `scope`, `broadcast` and `install` reach their caller instead). It is called with the
    /// panic's payload, on the thread that panicked.
    ///
    /// With no panic handler, such a panic aborts the process (after a message on stderr),
    /// so that no panic goes unnoticed. A panic in the panic handler itself aborts the
    /// process too; wrap its body in [`std::panic::catch_unwind`] to prevent that.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::{Arc, Mutex};
    ///
    /// let caught = Arc::new(Mutex::new(Vec::new()));
    /// let c = Arc::clone(&caught);
    /// let pool = splitsteal::ThreadPoolBuilder::new()
    ///     .num_threads(1)
    ///     .start_handler(|_| panic!("no database connection"))
    ///     .panic_handler(move |payload| {
    ///         let msg = payload.downcast_ref::<&str>().copied().unwrap_or("?");
    ///         c.lock().unwrap().push(msg.to_owned());
    ///     })
    ///     .build()
    ///     .unwrap();
    /// // The worker started anyway, once the panic handler returned.
    /// assert_eq!(pool.install(|| 6 * 7), 42);
    /// assert_eq!(*caught.lock().unwrap(), ["no database connection"]);
    /// ```
    pub fn panic_handler<H>(mut self, panic_handler: H) -> Self
    where
        H: Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    {
        self.handlers.panic = Some(Arc::new(panic_handler));
        self
    }

    /// Sets how the worker threads are started: `spawn` is called once per worker, in index
    /// order, on the building thread, with a [`ThreadBuilder`] that it must
    /// [`run`](ThreadBuilder::run) on a new thread (a thread of its own making, a pool's, a
    /// platform's). An error it returns makes [`build`](ThreadPoolBuilder::build) fail with
    /// it, after stopping the workers already started.
    ///
    /// The closure is called only during `build`, so it may borrow, as rayon's: push the
    /// threads' handles into a local `Vec`, or spawn scoped threads and build inside the
    /// scope. `build` returns once every worker runs (the signal policies may only signal
    /// started threads): a `ThreadBuilder` dropped without being run makes `build` fail
    /// instead of waiting. Dropping a pool built this way does not join its threads (there
    /// are no handles to join), as in rayon.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let mut handles = Vec::new(); // borrowed by the handler
    /// let pool = splitsteal::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .spawn_handler(|thread| {
    ///         let mut b = std::thread::Builder::new();
    ///         if let Some(name) = thread.name() {
    ///             b = b.name(format!("custom-{name}"));
    ///         }
    ///         handles.push(b.spawn(|| thread.run())?);
    ///         Ok(())
    ///     })
    ///     .build()
    ///     .unwrap();
    /// let name = pool.install(|| std::thread::current().name().map(str::to_owned));
    /// assert!(name.unwrap().starts_with("custom-"));
    /// drop(pool);
    /// for h in handles {
    ///     h.join().unwrap(); // the workers exit once the pool is dropped
    /// }
    /// ```
    pub fn spawn_handler<F>(self, spawn: F) -> ThreadPoolBuilder<CustomSpawn<F>>
    where
        F: FnMut(ThreadBuilder) -> io::Result<()>,
    {
        self.with_spawn(CustomSpawn(spawn)).0
    }

    /// This builder with `spawn` instead of its way of starting threads, and that way.
    fn with_spawn<T>(self, spawn: T) -> (ThreadPoolBuilder<T>, S) {
        let ThreadPoolBuilder {
            num_threads,
            policy,
            use_current_thread,
            signal,
            deque_capacity,
            morsel_bytes,
            spin_rounds,
            hybrid_base,
            mailing,
            steal_after_mails,
            steal_after,
            record_start_latency,
            pin_threads,
            assume_no_membarrier,
            steal,
            stack_size,
            thread_name,
            spawn_handler,
            handlers,
        } = self;
        let builder = ThreadPoolBuilder {
            num_threads,
            policy,
            use_current_thread,
            signal,
            deque_capacity,
            morsel_bytes,
            spin_rounds,
            hybrid_base,
            mailing,
            steal_after_mails,
            steal_after,
            record_start_latency,
            pin_threads,
            assume_no_membarrier,
            steal,
            stack_size,
            thread_name,
            spawn_handler: spawn,
            handlers,
        };
        (builder, spawn_handler)
    }

    /// Worker `index`'s thread name: the [`thread_name`](Self::thread_name) closure's, else
    /// `splitsteal-<policy>-<index>`. Called just before that worker is spawned, as in
    /// rayon (so a closure that panics for worker 5 finds workers 0 to 4 started).
    fn thread_name_of(&self, config: &Config, index: usize) -> Result<String, BuildError> {
        let name = match &self.thread_name {
            Some(ThreadNamer(namer)) => (*namer.borrow_mut())(index),
            None => format!("splitsteal-{}-{index}", config.plan.policy),
        };
        if name.contains('\0') {
            return Err(BuildError::InvalidConfig(format!(
                "thread_name: the name {name:?} contains a NUL byte"
            )));
        }
        Ok(name)
    }

    fn config(&self) -> Result<Config, BuildError> {
        let num_threads = match self.num_threads {
            0 => match env_num_threads()? {
                Some(n) if n > 0 => n,
                _ => thread::available_parallelism().map_or(1, |n| n.get()),
            },
            n => n,
        };
        if num_threads > MAX_THREADS {
            return Err(BuildError::InvalidConfig(format!(
                "num_threads({num_threads}): at most {MAX_THREADS} threads"
            )));
        }
        if self.deque_capacity == 0 || self.deque_capacity > 1 << 30 {
            return Err(BuildError::InvalidConfig(format!(
                "deque_capacity({}): must be between 1 and 2^30",
                self.deque_capacity
            )));
        }
        if self.morsel_bytes < 64 || !self.morsel_bytes.is_power_of_two() {
            return Err(BuildError::InvalidConfig(format!(
                "morsel_bytes({}): must be a power of two of at least 64",
                self.morsel_bytes
            )));
        }
        let mail = MailPlan {
            mailing: self.mailing,
            gate_mails: self
                .steal_after_mails
                .unwrap_or(num_threads.saturating_sub(1)),
            gate_delay: self.steal_after,
        };
        let signal = self
            .signal
            .unwrap_or_else(crate::platform::signals::default_signal);
        let policy = match self.policy {
            Some(policy) => policy,
            None => env_policy()?.unwrap_or_default(),
        };
        let plan = Plan::resolve(policy, self.hybrid_base, mail, signal, self.steal)
            .map_err(BuildError::InvalidConfig)?;
        if plan.signal().is_some() && !crate::platform::signals::SUPPORTED {
            let works: Vec<&str> = Policy::supported().map(Policy::name).collect();
            return Err(BuildError::Unsupported(format!(
                "policy `{policy}` sends POSIX signals, which {} does not have; the \
                 policies that work here: {}",
                crate::platform::name(),
                works.join(", ")
            )));
        }
        if self.pin_threads && !crate::platform::affinity::SUPPORTED {
            return Err(BuildError::Unsupported(format!(
                "pin_threads(true): this crate pins threads on Linux and Android only, not \
                 on {}",
                crate::platform::name()
            )));
        }
        if let Some(signal) = plan.signal() {
            exposure::install_handler(signal).map_err(BuildError::Signal)?;
        }
        Ok(Config {
            plan,
            record_start_latency: self.record_start_latency,
            pin_threads: self.pin_threads,
            assume_no_membarrier: self.assume_no_membarrier,
            num_threads,
            use_current_thread: self.use_current_thread,
            deque_capacity: self.deque_capacity,
            morsel_bytes: self.morsel_bytes,
            spin_rounds: self.spin_rounds,
        })
    }

    /// Builds the registry and starts its workers, each through `spawn` (which runs the
    /// [`ThreadBuilder`] on a new thread and may return its handle to join at drop).
    fn build_registry_with<F>(
        &self,
        mut spawn: F,
    ) -> Result<(Arc<Registry>, Vec<JoinHandle<()>>), BuildError>
    where
        F: FnMut(ThreadBuilder) -> io::Result<Option<JoinHandle<()>>>,
    {
        if self.use_current_thread
            && (!WorkerThread::current().is_null() || crate::worker::borrowed_worker().is_some())
        {
            return Err(BuildError::CurrentThreadAlreadyInPool);
        }
        let config = self.config()?;
        let owner_fences = !crate::wakeup::heavy_fence_available() || config.assume_no_membarrier;
        let (locals, remotes): (Vec<_>, Vec<_>) = (0..config.num_threads)
            .map(|index| {
                LocalDeque::new(
                    &config.plan,
                    config.deque_capacity,
                    (index, config.num_threads),
                    config.record_start_latency,
                    owner_fences,
                )
            })
            .unzip();
        let registry = Arc::new(Registry::new(config, remotes, self.handlers.clone()));
        let mut handles = Vec::with_capacity(locals.len());
        let unrun = Arc::new(AtomicUsize::new(0));
        for (index, deque) in locals.into_iter().enumerate() {
            // A panic in the name closure propagates, after the workers already started
            // are stopped (as a failed spawn below stops them).
            let name = panic::catch_unwind(AssertUnwindSafe(|| {
                self.thread_name_of(&registry.config, index)
            }));
            let name = match name {
                Ok(Ok(name)) => name,
                Ok(Err(e)) => {
                    abandon(&registry, index, handles);
                    return Err(e);
                }
                Err(payload) => {
                    abandon(&registry, index, handles);
                    panic::resume_unwind(payload);
                }
            };
            if index == 0 && self.use_current_thread {
                // The building thread is worker 0; no start handler runs for it (rayon's
                // rule: the pool does not manage that thread).
                crate::worker::start_borrowed(Arc::clone(&registry), deque);
                continue;
            }
            let r = Arc::clone(&registry);
            let thread = ThreadBuilder {
                index,
                name,
                stack_size: self.stack_size,
                work: Some(Box::new(move || main_loop(r, index, deque))),
                unrun: Arc::clone(&unrun),
            };
            match spawn(thread) {
                Ok(handle) => handles.extend(handle),
                Err(e) => {
                    // Stop the workers already started (they are idle), then report.
                    abandon(&registry, index, handles);
                    return Err(BuildError::Spawn(e));
                }
            }
        }
        // Signals may only be sent to published threads: wait until all are.
        while !registry.all_started() {
            // Relaxed: a count; a late view only delays the error by one round.
            let lost = unrun.load(Ordering::Relaxed);
            if lost > 0 {
                // The workers that do run stop once idle; the lost ones count as stopped.
                abandon(&registry, registry.num_threads() - lost, handles);
                return Err(BuildError::Spawn(io::Error::other(format!(
                    "the spawn handler dropped {lost} ThreadBuilder(s) without running them \
                     (or ran them on a thread that is already a worker of a pool, which \
                     `ThreadBuilder::run` refuses)"
                ))));
            }
            thread::sleep(Duration::from_micros(50));
        }
        Ok((registry, handles))
    }
}

/// Stops a pool whose build failed after its first `started` workers were spawned (they are
/// idle), and joins their `handles` where the [`ThreadPool`]'s drop would.
fn abandon(registry: &Arc<Registry>, started: usize, handles: Vec<JoinHandle<()>>) {
    registry.terminate_partial(started);
    crate::worker::end_borrowed_role(registry);
    if !runs_user_code_at_exit(registry) {
        for h in handles {
            let _ = h.join();
        }
    }
}

/// Whether a stopping worker of `registry` may still run user code that waits for the
/// thread that stops the pool: a start handler still running, or an exit handler.
fn runs_user_code_at_exit(registry: &Registry) -> bool {
    registry.handlers.start.is_some() || registry.handlers.exit.is_some()
}

impl<S: ThreadSpawn> ThreadPoolBuilder<S> {
    /// Starts the workers with the [`spawn_handler`](Self::spawn_handler), else as named
    /// `std` threads.
    fn build_registry(self) -> Result<(Arc<Registry>, Vec<JoinHandle<()>>), BuildError> {
        let (builder, mut spawn) = self.with_spawn(());
        builder.build_registry_with(|thread| spawn.spawn(thread))
    }

    /// Builds the pool; its threads are running when this returns.
    pub fn build(self) -> Result<ThreadPool, BuildError> {
        let (registry, handles) = self.build_registry()?;
        Ok(ThreadPool { registry, handles })
    }

    /// Makes this configuration the global pool's (used by the free functions outside any
    /// pool). Fails if the global pool already exists.
    pub fn build_global(self) -> Result<(), BuildError> {
        let mut result = Err(BuildError::GlobalAlreadyInitialized);
        GLOBAL.get_or_init(|| match self.build_registry() {
            Ok((registry, handles)) => {
                // The global pool lives as long as the process; its threads are detached.
                drop(handles);
                result = Ok(());
                Ok(registry)
            }
            Err(e) => {
                let msg = e.to_string();
                result = Err(e);
                Err(msg)
            }
        });
        result
    }
}

fn env_value(var: &'static str) -> Option<String> {
    match std::env::var(var) {
        Ok(v) if v.trim().is_empty() => None,
        Ok(v) => Some(v),
        Err(std::env::VarError::NotPresent) => None,
        Err(std::env::VarError::NotUnicode(v)) => Some(v.to_string_lossy().into_owned()),
    }
}

/// The thread count the environment asks for; `Some(0)` means one per CPU.
///
/// `SPLITSTEAL_NUM_THREADS` first, strictly: a value that is not a count from 0 to
/// [`MAX_THREADS`] is an error naming the variable. Else rayon's variables, read as rayon
/// reads them, so that a program that runs under rayon runs the same here:
/// `RAYON_NUM_THREADS` if it parses as a `usize` (no spaces), then the deprecated
/// `RAYON_RS_NUM_CPUS` if it parses as a count above 0; a value rayon cannot use (`-1`,
/// `abc`) is ignored as rayon ignores it, and a count above [`MAX_THREADS`] is lowered to it
/// as rayon lowers counts above its own maximum.
fn env_num_threads() -> Result<Option<usize>, BuildError> {
    if let Some(value) = env_value(ENV_NUM_THREADS) {
        let var = ENV_NUM_THREADS;
        let n = value
            .trim()
            .parse::<usize>()
            .map_err(|_| BuildError::InvalidEnv {
                var,
                value: value.clone(),
                reason: format!("expected a number of threads from 0 (automatic) to {MAX_THREADS}"),
            })?;
        if n > MAX_THREADS {
            return Err(BuildError::InvalidEnv {
                var,
                value,
                reason: format!("at most {MAX_THREADS} threads"),
            });
        }
        return Ok(Some(n));
    }
    let rayon_count = |var: &str| {
        std::env::var(var)
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .map(|n| n.min(MAX_THREADS))
    };
    Ok(match rayon_count(ENV_RAYON_NUM_THREADS) {
        Some(n) => Some(n),
        None => rayon_count("RAYON_RS_NUM_CPUS").filter(|&n| n > 0),
    })
}

/// The policy `SPLITSTEAL_POLICY` asks for, if set.
fn env_policy() -> Result<Option<Policy>, BuildError> {
    env_value(ENV_POLICY)
        .map(|value| {
            value.parse::<Policy>().map_err(|e| BuildError::InvalidEnv {
                var: ENV_POLICY,
                value: value.clone(),
                reason: e.to_string(),
            })
        })
        .transpose()
}

static GLOBAL: OnceLock<Result<Arc<Registry>, String>> = OnceLock::new();

/// The global pool, built on first use from the environment. An invalid environment is
/// reported here, at the API boundary, with the variable's name and the valid values.
///
/// Where threads cannot be spawned at all (WebAssembly without threads: `std` answers
/// `Unsupported`), the global pool is one worker, the thread that first uses it, as rayon's
/// is there: `join`, scopes and parallel iterators then run their work on that thread, one
/// task after the other. (A job [`spawn`](crate::spawn)ed onto it runs only when that thread
/// next waits inside the pool.) An explicitly built pool still returns the spawn error.
pub(crate) fn global_registry() -> &'static Arc<Registry> {
    let global = GLOBAL.get_or_init(|| {
        let built = match ThreadPoolBuilder::new().build_registry() {
            Err(BuildError::Spawn(e))
                if e.kind() == io::ErrorKind::Unsupported
                    && WorkerThread::current().is_null()
                    && crate::worker::borrowed_worker().is_none() =>
            {
                ThreadPoolBuilder::new()
                    .num_threads(1)
                    .use_current_thread()
                    .build_registry()
            }
            built => built,
        };
        built
            .map(|(registry, handles)| {
                drop(handles);
                registry
            })
            .map_err(|e| e.to_string())
    });
    match global {
        Ok(registry) => registry,
        Err(message) => panic!("splitsteal: cannot start the global thread pool: {message}"),
    }
}

/// A pool of worker threads that run fork-join work under one [`Policy`].
///
/// Dropping the pool stops its threads; they exit on their own, as in rayon, and the drop
/// waits for them only when no code of the user's can still run on them and wait for the
/// dropping thread: with jobs [spawned](Self::spawn) on it still pending (those still run,
/// and the threads exit when the last has finished) or with a
/// [`start_handler`](ThreadPoolBuilder::start_handler) or
/// [`exit_handler`](ThreadPoolBuilder::exit_handler), it returns at once. Nor does a pool
/// dropped on one of its own threads wait, or one whose threads a
/// [`spawn_handler`](ThreadPoolBuilder::spawn_handler) started (it has no handles to them).
pub struct ThreadPool {
    pub(crate) registry: Arc<Registry>,
    pub(crate) handles: Vec<JoinHandle<()>>,
}

impl fmt::Debug for ThreadPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPool")
            .field("num_threads", &self.registry.num_threads())
            .field("policy", &self.registry.policy())
            .finish()
    }
}

impl ThreadPool {
    /// Deprecated in favor of [`ThreadPoolBuilder::build`] (rayon-core's signature: a
    /// pool of the given [`Configuration`](crate::Configuration)).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPool::new(splitsteal::Configuration::new().num_threads(3)).unwrap();
    /// assert_eq!(pool.current_num_threads(), 3);
    /// ```
    #[deprecated(note = "Use `ThreadPoolBuilder::build`")]
    #[allow(deprecated)]
    pub fn new(
        configuration: crate::Configuration,
    ) -> Result<ThreadPool, Box<dyn std::error::Error>> {
        configuration.build()
    }

    /// Runs `op` on a worker of this pool and returns its result; `join`, `scope` and the
    /// data-parallel primitives called inside run on this pool. A panic in `op` propagates.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// assert_eq!(pool.install(splitsteal::current_num_threads), 2);
    /// ```
    pub fn install<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce() -> R + Send,
        R: Send,
    {
        self.registry.in_worker(|_| op())
    }

    /// [`join`](fn@crate::join) on this pool.
    pub fn join<A, B, RA, RB>(&self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        self.registry.in_worker(|worker| {
            let (a, b) = (join::ignoring_worker(a), join::ignoring_worker(b));
            join::join_on(worker, a, b)
        })
    }

    /// The number of worker threads.
    pub fn current_num_threads(&self) -> usize {
        self.registry.num_threads()
    }

    /// The calling thread's worker index (0-based) in this pool, if it is one of this pool's
    /// workers; `None` on any other thread, a worker of another pool included (unlike the
    /// free [`current_thread_index`], which answers for whichever pool the caller is in).
    /// A worker's index never changes; workers of different pools may share an index.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let other = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// assert_eq!(pool.current_thread_index(), None); // the main thread
    /// assert!(pool.install(|| pool.current_thread_index()).is_some_and(|i| i < 2));
    /// assert_eq!(other.install(|| pool.current_thread_index()), None);
    /// ```
    pub fn current_thread_index(&self) -> Option<usize> {
        self.own_worker().map(|w| w.index)
    }

    /// On a worker of this pool, whether its local deque holds tasks (forked by `join` or
    /// spawned by `scope` and not yet run or stolen); `None` on any other thread. A racy
    /// look: other workers may steal those tasks at any moment. Useful as a heuristic for
    /// whether forking more would create parallelism.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// assert_eq!(pool.current_thread_has_pending_tasks(), None); // not a worker
    /// assert_eq!(pool.install(|| pool.current_thread_has_pending_tasks()), Some(false));
    /// // With one worker, a spawned task waits in the deque while the scope's body runs.
    /// let pending = pool.install(|| {
    ///     pool.scope(|s| {
    ///         s.spawn(|_| ());
    ///         pool.current_thread_has_pending_tasks()
    ///     })
    /// });
    /// assert_eq!(pending, Some(true));
    /// // The only worker of an `asym` pool (the default) runs both closures of a `join`
    /// // in line: nothing waits.
    /// let (pending, ()) = pool.install(|| {
    ///     splitsteal::join(|| pool.current_thread_has_pending_tasks(), || ())
    /// });
    /// assert_eq!(pending, Some(false));
    /// ```
    pub fn current_thread_has_pending_tasks(&self) -> Option<bool> {
        self.own_worker().map(|w| !w.deque.is_empty())
    }

    /// The calling thread's worker, if it is one of this pool's.
    pub(crate) fn own_worker(&self) -> Option<&WorkerThread> {
        WorkerThread::current_or_borrowed().filter(|w| Arc::ptr_eq(&w.registry, &self.registry))
    }

    /// The pool's policy.
    pub fn policy(&self) -> Policy {
        self.registry.policy()
    }

    /// What the workers did since the pool was built or [`reset_stats`](Self::reset_stats)
    /// was last called, summed over workers. Exact when the pool is idle.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use splitsteal::{Policy, ThreadPoolBuilder};
    ///
    /// fn fib(n: u64) -> u64 {
    ///     if n < 2 { return n; }
    ///     let (a, b) = splitsteal::join(|| fib(n - 1), || fib(n - 2));
    ///     a + b
    /// }
    /// let pool = ThreadPoolBuilder::new().num_threads(1).policy(Policy::LcwsPoll).build().unwrap();
    /// pool.install(|| fib(20));
    /// pool.reset_stats();
    /// pool.install(|| fib(20));
    /// let stats = pool.stats();
    /// // One worker, split deque: every join stays private. No CAS, no fence.
    /// assert_eq!((stats.cas, stats.fences), (0, 0));
    /// // Every join's second closure was a job (fib(20) makes 10,945 joins), plus the
    /// // installed closure.
    /// assert_eq!(stats.tasks, 10945 + 1);
    /// ```
    pub fn stats(&self) -> Stats {
        self.registry.stats()
    }

    /// Makes [`stats`](Self::stats) count from zero again.
    pub fn reset_stats(&self) {
        self.registry.reset_stats()
    }

    /// The task starts recorded since the last call (see
    /// [`ThreadPoolBuilder::record_start_latency`]); `None` when recording is off.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use splitsteal::ThreadPoolBuilder;
    ///
    /// let pool = ThreadPoolBuilder::new().num_threads(2).record_start_latency(true).build().unwrap();
    /// pool.scope(|s| {
    ///     for _ in 0..8 {
    ///         s.spawn(|_| std::hint::black_box(()));
    ///     }
    /// });
    /// let starts = pool.take_start_latencies().unwrap();
    /// assert_eq!(starts.starts.len(), 8 + 1); // the eight tasks and the origin job
    /// ```
    pub fn take_start_latencies(&self) -> Option<StartLatencies> {
        self.registry.latency.as_ref().map(|r| r.take())
    }
}

impl Drop for ThreadPool {
    /// Lets the workers stop once the last spawned job has finished. With none pending
    /// they stop now, and the threads are joined, unless something the user wrote may
    /// still run on them: spawned jobs (the threads are left to finish them and exit on
    /// their own), or a start or exit handler (a handler may wait for the dropping
    /// thread: rayon-core's own tests have one that waits on a barrier the dropping thread
    /// reaches only after the drop). rayon never joins. Nor can a pool dropped on one of
    /// its own threads join itself.
    fn drop(&mut self) {
        let stopped = self.registry.release_live();
        if self.registry.config.use_current_thread {
            // Dropped on its borrowed worker's thread: that thread's role ends.
            crate::worker::end_borrowed_role(&self.registry);
        }
        let me = WorkerThread::current();
        // SAFETY: a non-null current worker is this thread's own.
        let on_own_thread =
            unsafe { me.as_ref() }.is_some_and(|w| Arc::ptr_eq(&w.registry, &self.registry));
        if !stopped || on_own_thread || runs_user_code_at_exit(&self.registry) {
            return;
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// The number of worker threads of the pool the caller is in, else of the global pool.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
/// assert_eq!(pool.install(splitsteal::current_num_threads), 3);
/// ```
//
// Inline on a worker (a thread-local load and two loads): the parallel iterators ask at every
// bridge, an inner iterator's too, where a call and the borrowed and global cases cost
// more than the answer.
#[inline]
pub fn current_num_threads() -> usize {
    match WorkerThread::current_ref() {
        Some(worker) => worker.registry.num_threads(),
        None => current_num_threads_outside(),
    }
}

/// [`current_num_threads`] on a thread that is no pool's current worker: its borrowed
/// worker's pool, else the global pool.
#[cold]
#[inline(never)]
fn current_num_threads_outside() -> usize {
    crate::spawn::with_current_registry(|r| r.num_threads())
}

/// The worker index (0-based) of the calling thread in its pool, if it is a worker of any
/// pool (see [`ThreadPool::current_thread_index`] for one pool's).
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert_eq!(splitsteal::current_thread_index(), None);
/// assert!(pool.install(splitsteal::current_thread_index).is_some_and(|i| i < 2));
/// ```
//
// Inline on a worker, as `current_num_threads`: the iterators' splitter asks it on a
// one-thread pool at every bridge.
#[inline]
pub fn current_thread_index() -> Option<usize> {
    match WorkerThread::current_ref() {
        Some(worker) => Some(worker.index),
        None => borrowed_thread_index(),
    }
}

/// [`current_thread_index`] on a thread that is no pool's current worker: its borrowed
/// worker's index (`use_current_thread`), if it has one.
#[cold]
#[inline(never)]
fn borrowed_thread_index() -> Option<usize> {
    WorkerThread::current_or_borrowed().map(|w| w.index)
}

/// On a worker thread of any pool, whether its local deque holds tasks (see
/// [`ThreadPool::current_thread_has_pending_tasks`]); `None` on a thread that is not a
/// worker.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// assert_eq!(splitsteal::current_thread_has_pending_tasks(), None);
/// let pending = pool.install(|| {
///     let before = splitsteal::current_thread_has_pending_tasks();
///     let during = splitsteal::scope(|s| {
///         s.spawn(|_| ());
///         splitsteal::current_thread_has_pending_tasks()
///     });
///     (before, during)
/// });
/// assert_eq!(pending, (Some(false), Some(true)));
/// ```
pub fn current_thread_has_pending_tasks() -> Option<bool> {
    WorkerThread::current_or_borrowed().map(|w| !w.deque.is_empty())
}

/// [`ForkJoin`] for the splitsteal pool the calling thread is in (else the global pool):
/// the context through which generic parallel code runs on splitsteal.
///
/// It is zero-sized: each `join` finds the current worker through a `const` thread-local
/// (one TLS-relative load), which measured cheaper than passing a worker pointer down by
/// `&mut` (that forces a stack slot per call).
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::{Current, ForkJoin, ThreadPoolBuilder};
///
/// fn sum<C: ForkJoin>(c: &mut C, v: &[u64]) -> u64 {
///     if v.len() <= 1024 {
///         return v.iter().sum();
///     }
///     let (l, r) = v.split_at(v.len() / 2);
///     let (a, b) = c.join(|c| sum(c, l), |c| sum(c, r));
///     a + b
/// }
/// let v: Vec<u64> = (0..100_000).collect();
/// let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert_eq!(pool.install(|| sum(&mut Current, &v)), 4_999_950_000);
/// ```
#[derive(Debug, Default, Clone, Copy)]
pub struct Current;

/// `f` as a closure of [`join`](crate::join::join), given the `Current` context (a
/// function generic over `f` alone: see `join::ignoring_worker`).
#[inline(always)]
fn on_current<F, R>(f: F) -> impl FnOnce() -> R + Send
where
    F: FnOnce(&mut Current) -> R + Send,
{
    move || f(&mut Current)
}

impl ForkJoin for Current {
    #[inline(always)]
    fn join<A, B, RA, RB>(&mut self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(&mut Self) -> RA + Send,
        B: FnOnce(&mut Self) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        crate::join::join(on_current(a), on_current(b))
    }

    fn num_threads(&self) -> usize {
        current_num_threads()
    }

    fn morsel_bytes(&self) -> usize {
        crate::spawn::with_current_registry(|r| r.config.morsel_bytes)
    }

    fn split_hint(&self) -> Option<(usize, usize)> {
        let worker = WorkerThread::current();
        // SAFETY: a non-null current worker is this thread's own.
        let worker = unsafe { worker.as_ref() }?;
        crate::hybrid::split_hint(worker)
    }
}

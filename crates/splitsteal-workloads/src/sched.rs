//! The schedulers under test, all behind [`ForkJoin`].
//!
//! | name | context type | pool |
//! |---|---|---|
//! | `serial` | [`splitsteal::Serial`] (the serial elision: the speedup baseline) | none, runs on the caller |
//! | `rayon` | [`RayonCtx`] (a ZST calling [`rayon::join`]) | a `rayon::ThreadPool` with `n` threads, entered with `install` |
//! | `chili` | [`ChiliCtx`] (wraps a `chili::Scope`) | a `chili::ThreadPool` with `n` threads (the caller is one of them) |
//! | a [`Policy`] name | `splitsteal::Current` | a splitsteal `ThreadPool` with that policy and `n` workers |
//!
//! A [`Scheduler`] owns the pool of one (kind, threads) configuration; [`Scheduler::run`]
//! runs one [`Workload`] on it and times it. [`Workload`] is defined here, with the
//! contexts it runs on, so that this module does not depend on
//! [`workloads`](crate::workloads) (which implements it). Adding a scheduler means one
//! [`SchedulerKind`] variant, one arm in [`Scheduler::build`] and one in
//! [`Scheduler::run`], and a [`BenchCtx`] impl for its context.
//!
//! ## Spawning ([`BenchCtx`])
//!
//! [`ForkJoin`] has `join` only. The workloads that need a scope with spawned tasks
//! (`spawnjoin`, `spawnparfor`) use the one extra capability of [`BenchCtx`]:
//! [`BenchCtx::spawn_then`] opens a scope, spawns a list of small tasks into it and runs a
//! body on the calling worker. Each context implements it with what its scheduler has
//! ([`SpawnKind`]):
//!
//! | context | `spawn_then(tasks, body)` |
//! |---|---|
//! | [`Serial`] | the serial elision: each task runs where it is spawned, then `body` |
//! | `splitsteal::Current` | `splitsteal::scope`, one `Scope::spawn` per task, then `body` in the scope |
//! | [`RayonCtx`] | `rayon::scope`, one `Scope::spawn` per task, then `body` in the scope |
//! | [`ChiliCtx`] | chili has no spawn: emulated with one `join` per task, the task as the offered (second) side and the rest of the scope as the first, so the tasks are pending, oldest first, while `body` runs |

use std::fmt;
use std::num::NonZero;
use std::ptr::NonNull;
use std::str::FromStr;
use std::time::{Duration, Instant};

use splitsteal::{ForkJoin, Policy, Serial, Stats};

/// Options applied to the splitsteal pools (rayon and chili have no equivalent).
///
/// There is no LCWS window any more: the runtime records every join (its task stays
/// reachable by a thief until it is popped back), as the LCWS papers' algorithm does,
/// except in a one-worker `asym` pool, which has no thief and runs its joins in line (a
/// pool that records start latencies keeps them in the deque). The
/// pools are built with the runtime's defaults otherwise, in particular unpinned (pinning
/// is the runtime's opt-in `pin_threads(true)`, which the suite never uses; rayon and chili
/// do not pin either).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolOptions {
    /// `ThreadPoolBuilder::record_start_latency` (the runtime's start-latency recorder,
    /// read with [`Scheduler::take_start_latencies`]).
    pub record_start_latency: bool,
}

impl PoolOptions {
    /// Short description for reports.
    pub fn describe(&self) -> String {
        let mut s = String::from(
            "every join recorded (the LCWS papers' algorithm), except at one asym worker, which has no thief and runs its joins in line; workers not pinned (runtime defaults)",
        );
        if self.record_start_latency {
            s.push_str("; start-latency recorder on (every join recorded, one asym worker's too)");
        }
        s
    }
}

/// Which scheduler: one of splitsteal's policies, or a reference scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchedulerKind {
    /// The serial elision ([`splitsteal::Serial`]): the speedup baseline.
    Serial,
    /// A splitsteal pool with the given policy.
    Splitsteal(Policy),
    /// rayon 1.x (`rayon::join` inside `ThreadPool::install`).
    Rayon,
    /// chili 0.2 (heartbeat scheduling, `Scope::join`).
    Chili,
}

impl SchedulerKind {
    /// Every scheduler name in report order: `serial`, the policies of [`Policy::ALL`],
    /// `rayon`, `chili`.
    pub fn all() -> Vec<SchedulerKind> {
        let mut v = vec![SchedulerKind::Serial];
        v.extend(Policy::ALL.iter().map(|&p| SchedulerKind::Splitsteal(p)));
        v.push(SchedulerKind::Rayon);
        v.push(SchedulerKind::Chili);
        v
    }

    /// The name used on the command line and in reports.
    pub fn name(&self) -> &'static str {
        match self {
            SchedulerKind::Serial => "serial",
            SchedulerKind::Splitsteal(p) => p.name(),
            SchedulerKind::Rayon => "rayon",
            SchedulerKind::Chili => "chili",
        }
    }

    /// How the scheduler's context runs [`BenchCtx::spawn_then`].
    pub fn spawn_kind(&self) -> SpawnKind {
        match self {
            SchedulerKind::Serial => <Serial as BenchCtx>::SPAWN,
            SchedulerKind::Splitsteal(_) => <splitsteal::Current as BenchCtx>::SPAWN,
            SchedulerKind::Rayon => <RayonCtx as BenchCtx>::SPAWN,
            SchedulerKind::Chili => <ChiliCtx as BenchCtx>::SPAWN,
        }
    }

    /// Whether the scheduler reports splitsteal [`Stats`] (only splitsteal pools do).
    pub fn has_stats(&self) -> bool {
        matches!(self, SchedulerKind::Splitsteal(_))
    }

    /// Every valid name, comma-separated (for error messages).
    pub fn valid_names() -> String {
        Self::all()
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for SchedulerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SchedulerKind {
    type Err = String;

    /// Parses a scheduler name (case-insensitive): a policy name, `rayon`, `chili` or
    /// `serial`.
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        Self::all()
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| {
                format!(
                    "unknown scheduler `{s}`; valid schedulers: {}",
                    Self::valid_names()
                )
            })
    }
}

/// A task for [`BenchCtx::spawn_then`]: a closure run exactly once, on any worker of the
/// scheduler, before `spawn_then` returns.
pub type SpawnTask<'a> = Box<dyn FnOnce() + Send + 'a>;

/// How a scheduler runs [`BenchCtx::spawn_then`] (shown in reports next to the spawning
/// workloads).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpawnKind {
    /// The serial elision: each task runs at its spawn point.
    Inline,
    /// Real scope spawns (`splitsteal::scope` or `rayon::scope`, `Scope::spawn`).
    Scope,
    /// The scheduler has no spawn (chili): each spawned task is the second, offered side of
    /// a `join` whose first side is the rest of the scope.
    JoinEmulated,
}

impl SpawnKind {
    /// Short description for reports.
    pub fn describe(self) -> &'static str {
        match self {
            SpawnKind::Inline => "spawned tasks run inline (serial elision)",
            SpawnKind::Scope => "scope spawns",
            SpawnKind::JoinEmulated => {
                "no spawn: each spawn emulated with a join (task offered, rest of the scope first)"
            }
        }
    }
}

/// A scheduler context as the workloads see it: [`ForkJoin`] plus spawning into a scope.
///
/// Most workloads only join and implement [`Workload::run`] with the weaker bound
/// `C: ForkJoin`; the spawning workloads use [`BenchCtx::spawn_then`].
pub trait BenchCtx: ForkJoin {
    /// How this context implements [`BenchCtx::spawn_then`].
    const SPAWN: SpawnKind;

    /// Opens a scope, spawns `tasks` into it in order, then runs `body` in the scope on the
    /// calling worker; returns `body`'s result once `body` and every task have finished.
    /// (The rayon idiom `scope(|s| { s.spawn(t1); ...; s.spawn(tk); body })`.)
    fn spawn_then<'a, R, B>(&mut self, tasks: Vec<SpawnTask<'a>>, body: B) -> R
    where
        B: FnOnce(&mut Self) -> R + Send,
        R: Send;
}

/// A benchmark workload: an input, a parallel algorithm over [`ForkJoin`] (or
/// [`BenchCtx`], when it spawns), and a check.
pub trait Workload: Send + Sync {
    /// What one run consumes (e.g. a fresh copy of the array to sort); `()` if the
    /// workload only reads data it owns.
    type Input: Send;
    /// What one run produces.
    type Output: Send;

    /// Prepares the input of one run (not timed).
    fn input(&self) -> Self::Input;

    /// The timed part: runs the algorithm with scheduler context `c`.
    ///
    /// Implementations that only join declare the weaker bound `C: ForkJoin`, which Rust
    /// accepts for an impl of this method; the spawning ones keep `C: BenchCtx`.
    fn run<C: BenchCtx>(&self, c: &mut C, input: Self::Input) -> Self::Output;

    /// Compares `output` with the serial reference (not timed).
    fn check(&self, output: &Self::Output) -> Result<(), String>;
}

impl BenchCtx for Serial {
    const SPAWN: SpawnKind = SpawnKind::Inline;

    fn spawn_then<'a, R, B>(&mut self, tasks: Vec<SpawnTask<'a>>, body: B) -> R
    where
        B: FnOnce(&mut Self) -> R + Send,
        R: Send,
    {
        for t in tasks {
            t();
        }
        body(self)
    }
}

impl BenchCtx for splitsteal::Current {
    const SPAWN: SpawnKind = SpawnKind::Scope;

    fn spawn_then<'a, R, B>(&mut self, tasks: Vec<SpawnTask<'a>>, body: B) -> R
    where
        B: FnOnce(&mut Self) -> R + Send,
        R: Send,
    {
        splitsteal::scope(|s| {
            for t in tasks {
                s.spawn(move |_| t());
            }
            body(&mut splitsteal::Current)
        })
    }
}

/// rayon's context: a ZST whose `join` is [`rayon::join`]. Use it inside
/// `rayon::ThreadPool::install` so that `join` runs on that pool.
#[derive(Debug, Default, Clone, Copy)]
pub struct RayonCtx;

impl ForkJoin for RayonCtx {
    #[inline]
    fn join<A, B, RA, RB>(&mut self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(&mut Self) -> RA + Send,
        B: FnOnce(&mut Self) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        rayon::join(|| a(&mut RayonCtx), || b(&mut RayonCtx))
    }

    fn num_threads(&self) -> usize {
        rayon::current_num_threads()
    }
}

impl BenchCtx for RayonCtx {
    const SPAWN: SpawnKind = SpawnKind::Scope;

    fn spawn_then<'a, R, B>(&mut self, tasks: Vec<SpawnTask<'a>>, body: B) -> R
    where
        B: FnOnce(&mut Self) -> R + Send,
        R: Send,
    {
        rayon::scope(|s| {
            for t in tasks {
                s.spawn(move |_| t());
            }
            body(&mut RayonCtx)
        })
    }
}

/// chili's context: a handle to the `chili::Scope` of the current thread.
///
/// **Order.** chili's `Scope::join(a, b)` offers `a` to other threads and runs `b` first;
/// rayon, splitsteal and the serial elision run `a` first and offer `b`. This adapter calls
/// `scope.join(b, a)` (and swaps the results back) so that every scheduler executes the
/// same depth-first order: the benchmarks compare schedulers, not visit orders. The order
/// matters: with chili's native order the knapsack branch and bound explores the "leave
/// the item" branch first and did ~25× more work, and a tree allocated in post-order is
/// walked at sequential addresses.
///
/// chili's `Scope::join` hands each closure a `&mut Scope<'_>` whose lifetime parameter is
/// not the caller's, so a wrapper *type* cannot carry it; this one keeps a raw pointer to
/// the scope with the lifetime erased to `'static`.
///
/// Why that is sound: a `ChiliCtx` can only be created by `ChiliCtx::enter` (private), which
/// builds it on its own stack frame from a `&mut Scope<'_>` that outlives the call, and
/// lends it out only as `&mut ChiliCtx` for the duration of the call. `ChiliCtx` is neither
/// `Clone` nor `Default` and has no public constructor, so code holding the `&mut` cannot
/// move a context out (`mem::replace`/`swap` need a second context, and the only other
/// context alive at that point, the parent's, is mutably borrowed by the `join` that is
/// running the closure). The erased pointer is only ever used to call `Scope::join`, whose
/// signature cannot leak the scope's lifetime parameter (the closures receive yet another
/// fresh `&mut Scope<'_>`), so nothing with the fake `'static` lifetime can escape. The
/// raw pointer also makes `ChiliCtx` `!Send`/`!Sync`: each thread wraps its own scope.
#[derive(Debug)]
pub struct ChiliCtx {
    scope: NonNull<chili::Scope<'static>>,
    threads: usize,
}

impl ChiliCtx {
    /// Runs `f` with a context wrapping `scope`; `threads` is what `num_threads` reports.
    ///
    /// Private on purpose: see the type's documentation for the invariant it upholds (it
    /// must never be called from inside a `ChiliCtx::join` closure with a different scope).
    #[doc(hidden)] // public for the module tests (tests/modules)
    pub fn enter<R>(
        scope: &mut chili::Scope<'_>,
        threads: usize,
        f: impl FnOnce(&mut ChiliCtx) -> R,
    ) -> R {
        let mut ctx = ChiliCtx {
            // Only the lifetime parameter changes (see the type's documentation).
            scope: NonNull::from(scope).cast::<chili::Scope<'static>>(),
            threads,
        };
        f(&mut ctx)
    }
}

impl ForkJoin for ChiliCtx {
    #[inline]
    fn join<A, B, RA, RB>(&mut self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(&mut Self) -> RA + Send,
        B: FnOnce(&mut Self) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        let threads = self.threads;
        // SAFETY: `self.scope` comes from the `&mut Scope` given to `ChiliCtx::enter`, which
        // is still borrowed (this context lives inside that call), and `&mut self` makes this
        // the only access to it right now. The lifetime is erased but the pointer is used
        // only for this `join` call, which cannot leak it (see the type's documentation).
        let scope = unsafe { self.scope.as_mut() };
        // chili runs its second closure first and offers the first one: pass (b, a).
        let (rb, ra) = scope.join(
            move |s| ChiliCtx::enter(s, threads, b),
            move |s| ChiliCtx::enter(s, threads, a),
        );
        (ra, rb)
    }

    fn num_threads(&self) -> usize {
        self.threads
    }
}

impl BenchCtx for ChiliCtx {
    const SPAWN: SpawnKind = SpawnKind::JoinEmulated;

    /// chili has no spawn: `spawn_then([t0, t1, ..], body)` runs as
    /// `join(|| join(|| ..body.., || t1), || t0)`, so `t0` is the oldest offered task, as
    /// the first spawn of a scope is the oldest task in a deque.
    fn spawn_then<'a, R, B>(&mut self, tasks: Vec<SpawnTask<'a>>, body: B) -> R
    where
        B: FnOnce(&mut Self) -> R + Send,
        R: Send,
    {
        fn nest<'a, R, B>(
            c: &mut ChiliCtx,
            mut rest: std::vec::IntoIter<SpawnTask<'a>>,
            body: B,
        ) -> R
        where
            B: FnOnce(&mut ChiliCtx) -> R + Send,
            R: Send,
        {
            match rest.next() {
                None => body(c),
                Some(t) => c.join(move |c| nest(c, rest, body), move |_| t()).0,
            }
        }
        nest(self, tasks.into_iter(), body)
    }
}

/// A parallel-iterator library: whose `prelude` a program of the `iter` section runs with.
/// Both run the same program text; only the `use` line differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParIterLib {
    /// `splitsteal::prelude`, on a splitsteal pool.
    Splitsteal,
    /// `rayon::prelude`, on a rayon pool.
    Rayon,
}

/// The pool behind a [`Scheduler`].
enum Pool {
    Serial,
    Rayon(rayon::ThreadPool),
    Chili(chili::ThreadPool),
    Splitsteal(splitsteal::ThreadPool),
}

/// One scheduler configuration (kind, thread count) with its pool, ready to run workloads.
pub struct Scheduler {
    kind: SchedulerKind,
    threads: usize,
    pool: Pool,
}

impl fmt::Debug for Scheduler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Scheduler({}@{})", self.kind, self.threads)
    }
}

/// What one timed run produced.
#[derive(Debug)]
pub struct Timed<T> {
    /// The workload's output.
    pub output: T,
    /// Wall time of the run, entering the pool included (input preparation excluded).
    pub time: Duration,
    /// The pool's counters for this run (`None` for schedulers without splitsteal stats).
    pub stats: Option<Stats>,
    /// CPU time the whole process used during the run (all threads).
    pub cpu: Duration,
}

/// CPU time used so far by the whole process (all threads), nanosecond resolution.
pub fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `timespec`; the clock id is a constant Linux and
    // POSIX both define. On failure `ts` stays zero, which only spoils a statistic.
    unsafe {
        libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts);
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

impl Scheduler {
    /// Builds the pool for `kind` with `threads` workers (`serial` ignores `threads` and
    /// reports 1), default options.
    pub fn build(kind: SchedulerKind, threads: usize) -> Result<Scheduler, String> {
        Self::build_with(kind, threads, PoolOptions::default())
    }

    /// [`Scheduler::build`] with options for the splitsteal pools.
    pub fn build_with(
        kind: SchedulerKind,
        threads: usize,
        opts: PoolOptions,
    ) -> Result<Scheduler, String> {
        if threads == 0 {
            return Err("the thread count must be at least 1".into());
        }
        let pool = match kind {
            SchedulerKind::Serial => Pool::Serial,
            SchedulerKind::Rayon => Pool::Rayon(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("rayon-{i}"))
                    .build()
                    .map_err(|e| format!("rayon pool: {e}"))?,
            ),
            SchedulerKind::Chili => Pool::Chili(chili::ThreadPool::with_config(chili::Config {
                thread_count: NonZero::new(threads),
                ..chili::Config::default()
            })),
            SchedulerKind::Splitsteal(p) => {
                let mut b = splitsteal::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .policy(p)
                    .thread_name(move |i| format!("ss-{p}-{i}"));
                if opts.record_start_latency {
                    b = b.record_start_latency(true);
                }
                Pool::Splitsteal(
                    b.build()
                        .map_err(|e| format!("splitsteal pool ({p}, {threads} threads): {e}"))?,
                )
            }
        };
        let threads = if kind == SchedulerKind::Serial {
            1
        } else {
            threads
        };
        Ok(Scheduler {
            kind,
            threads,
            pool,
        })
    }

    /// A scheduler around a splitsteal pool built by the caller (for settings the kinds
    /// do not cover, e.g. `hybrid` on another base deque).
    pub fn from_splitsteal_pool(pool: splitsteal::ThreadPool) -> Scheduler {
        Scheduler {
            kind: SchedulerKind::Splitsteal(pool.policy()),
            threads: pool.current_num_threads(),
            pool: Pool::Splitsteal(pool),
        }
    }

    /// The scheduler kind.
    pub fn kind(&self) -> SchedulerKind {
        self.kind
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The task starts the runtime recorded since the last call (splitsteal pools built
    /// with [`PoolOptions::record_start_latency`]; `None` otherwise).
    pub fn take_start_latencies(&self) -> Option<splitsteal::StartLatencies> {
        match &self.pool {
            Pool::Splitsteal(pool) => pool.take_start_latencies(),
            _ => None,
        }
    }

    /// `name@threads`, e.g. `rayon@2`.
    pub fn label(&self) -> String {
        format!("{}@{}", self.kind, self.threads)
    }

    /// Runs `w` on `input` in this scheduler's pool and times it.
    pub fn run<W: Workload>(&self, w: &W, input: W::Input) -> Timed<W::Output> {
        self.timed(|| match &self.pool {
            Pool::Serial => w.run(&mut Serial, input),
            Pool::Rayon(pool) => pool.install(|| w.run(&mut RayonCtx, input)),
            Pool::Chili(pool) => {
                let mut scope = pool.scope();
                ChiliCtx::enter(&mut scope, self.threads, |c| w.run(c, input))
            }
            Pool::Splitsteal(pool) => pool.install(|| w.run(&mut splitsteal::Current, input)),
        })
    }

    /// The parallel-iterator library whose prelude runs on this scheduler's pool: rayon's
    /// on the rayon pool, splitsteal's on the splitsteal pools; `None` for the serial
    /// elision and chili, which have no parallel iterators.
    pub fn par_iter_lib(&self) -> Option<ParIterLib> {
        match self.pool {
            Pool::Splitsteal(_) => Some(ParIterLib::Splitsteal),
            Pool::Rayon(_) => Some(ParIterLib::Rayon),
            Pool::Serial | Pool::Chili(_) => None,
        }
    }

    /// Runs a parallel-iterator program inside this scheduler's pool (`install`) and times
    /// it as [`Scheduler::run`] times a workload; `f` is told which library's prelude to
    /// use ([`Scheduler::par_iter_lib`]). `None`, without running `f`, on a scheduler that
    /// has no parallel iterators.
    pub fn run_par_iter<R: Send>(
        &self,
        f: impl FnOnce(ParIterLib) -> R + Send,
    ) -> Option<Timed<R>> {
        let lib = self.par_iter_lib()?;
        Some(self.timed(|| match &self.pool {
            Pool::Rayon(pool) => pool.install(|| f(lib)),
            Pool::Splitsteal(pool) => pool.install(|| f(lib)),
            Pool::Serial | Pool::Chili(_) => unreachable!("par_iter_lib is None for these"),
        }))
    }

    /// Times `body` (which enters the pool itself), with the pool's counters reset before
    /// and read after the clock.
    fn timed<R>(&self, body: impl FnOnce() -> R) -> Timed<R> {
        if let Pool::Splitsteal(pool) = &self.pool {
            pool.reset_stats();
        }
        let cpu0 = process_cpu_time();
        let t = Instant::now();
        let output = body();
        let time = t.elapsed();
        let cpu = process_cpu_time().saturating_sub(cpu0);
        // Read after the clock stopped; absent (not zero) for schedulers without counters.
        let stats = match &self.pool {
            Pool::Splitsteal(pool) => Some(pool.stats()),
            _ => None,
        };
        Timed {
            output,
            time,
            stats,
            cpu,
        }
    }
}

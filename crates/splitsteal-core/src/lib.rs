//! splitsteal-core: the runtime of [splitsteal](https://docs.rs/splitsteal), a work-stealing
//! fork-join scheduler with a choice of scheduling policies, in rayon-core's place.
//!
//! Users add `splitsteal`, which re-exports this crate beside rayon's parallel iterators,
//! as `rayon` re-exports `rayon-core`; the examples here are written as they read there.
//!
//! ```
//! # use splitsteal_core as splitsteal;
//! fn fib(n: u64) -> u64 {
//!     if n < 2 {
//!         return n;
//!     }
//!     // Both closures may run in parallel; `join` returns when both are done.
//!     let (a, b) = splitsteal::join(|| fib(n - 1), || fib(n - 2));
//!     a + b
//! }
//!
//! // A pool of its own: everything run inside `install` uses its threads.
//! let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! assert_eq!(pool.install(|| fib(20)), 6765);
//!
//! // A scope: spawned tasks may borrow from the caller's stack.
//! let mut halves = [0u64; 2];
//! let (lo, hi) = halves.split_at_mut(1);
//! splitsteal::scope(|s| {
//!     s.spawn(|_| lo[0] = (0..500).sum());
//!     s.spawn(|_| hi[0] = (500..1000).sum());
//! });
//! assert_eq!(halves[0] + halves[1], 499_500);
//! ```
//!
//! # Policies
//!
//! Each pool runs one scheduling [`Policy`], chosen with [`ThreadPoolBuilder::policy`] or
//! the `SPLITSTEAL_POLICY` environment variable; every policy runs the whole API. The
//! default, `asym`, makes a join cost no fence and no atomic read-modify-write while every
//! pushed task stays stealable at any moment: a thief settles the deque's race with one
//! process-wide heavy fence, or in pools of eight workers or more by its victim's answer
//! at its next push or pop ([`Policy::Asym`]), and no thread is ever interrupted. The
//! papers' policies stay selectable: `lcws-signal` (low-cost work stealing: a thief asks
//! its victim for work with a real-time signal), its variants
//! `lcws-poll`, `lcws-cons` and `lcws-half`; `chase-lev` and `abp`, classical work
//! stealing; `locked`, a mutex baseline; and `hybrid`, which adds mailboxes.
//!
//! ```
//! # use splitsteal_core as splitsteal;
//! use splitsteal::{Policy, ThreadPoolBuilder};
//!
//! for &policy in Policy::ALL {
//!     let pool = ThreadPoolBuilder::new().num_threads(2).policy(policy).build().unwrap();
//!     assert_eq!(pool.install(|| splitsteal::join(|| 1 + 2, || 3 + 4)), (3, 7));
//!     let stats = pool.stats(); // exact CAS, fences, steals, exposures, signals, tasks
//!     let _ = stats;
//! }
//! ```
//!
//! # Coming from rayon-core
//!
//! Rename the dependency (`rayon-core = { package = "splitsteal", ... }`, or `extern crate
//! splitsteal as rayon_core;`) and keep the code: [`join()`], [`join_context`], [`scope()`],
//! [`scope_fifo`], [`in_place_scope`], [`spawn`], [`spawn_fifo`], [`broadcast`],
//! [`yield_now`], the `current_*` queries, [`ThreadPool`] and [`ThreadPoolBuilder`] have
//! rayon-core's names, signatures and semantics. Pools take their thread count from
//! `SPLITSTEAL_NUM_THREADS`, else `RAYON_NUM_THREADS` (read as rayon reads it: a value it
//! cannot use is ignored), unless the builder sets it; a bad `SPLITSTEAL_*` value is an
//! error from `build` naming the variable.
//!
//! # Platforms
//!
//! Wherever rayon-core builds: Linux, Android, macOS, the BSDs, Windows, 32- and 64-bit,
//! WebAssembly. The default policy's thieves and idle workers use a process-wide heavy
//! fence: `membarrier` on Linux and Android, `FlushProcessWriteBuffers` on Windows. Where
//! there is none (macOS, the BSDs, WebAssembly, or a Linux kernel or seccomp filter that
//! refuses `membarrier`) each owner fences its pops instead, and idle workers poll a few
//! times at 1 ms intervals and then sleep until woken: nothing is lost but speed
//! ([`Stats::fallback_fences`] says so). The signal policies (`lcws-signal`, `lcws-cons`,
//! `lcws-half`) need POSIX signals: `build` refuses them on Windows and WebAssembly
//! ([`Policy::is_supported`]); they use `SIGURG` unless the builder's `signal` picks a
//! real-time one (Linux, Android). Without threads (WebAssembly), the global pool is the
//! calling thread, as rayon-core's is.
//!
//! Modules, outside in: [`pool`] (building pools, the global pool), [`join`](mod@join) and
//! [`scope`](mod@scope) (the fork-join API), [`fork`] (the scheduler trait the data-parallel
//! layer is written against), [`deque`] (the five work-stealing deques), [`stats`] (exact
//! synchronization counts), [`policy`].
//!
//! # Behaviours by design
//!
//! - **One copy of the runtime per process.** The package declares `links =
//!   "splitsteal-core"` (with an empty build script, which Cargo requires for `links`), as
//!   rayon-core declares `links = "rayon-core"`: Cargo refuses to resolve a dependency graph
//!   holding two semver-incompatible versions of this crate, which would otherwise both
//!   install a handler for the exposure signal (the second pool's build then fails) and
//!   keep two global pools.
//! - **A thread is a worker of one pool at a time.** [`ThreadBuilder::run`] panics on a
//!   thread that is already a pool's worker (a spawn handler that starts the workers with
//!   `other_pool.spawn`, a `build_scoped` wrapper that runs them in `other_pool.install`, or
//!   the thread of a `use_current_thread` pool), and the pool's `build` fails; rayon
//!   refuses the same nesting.
//! - **`lcws-poll` answers a thief only when the victim pushes or pops**: a task that spins
//!   or blocks without joining keeps the private work beneath it ([`Policy::LcwsPoll`]).
//! - **Under the signal policies** (`lcws-signal`, `lcws-cons`, `lcws-half`; not the default)
//!   a task's `nanosleep`, `poll`, `epoll_wait`, `select`, `sem_timedwait`, System V IPC and
//!   socket I/O with a timeout can fail with `EINTR`, a blocking `write` can return a short
//!   count and glibc's `sleep` can return early ([`Policy::LcwsSignal`]); the pool's signal
//!   (`SIGURG` by default) stays unblocked in its workers, and a disposition the program
//!   sets for it after the build makes the pool stop sending it
//!   ([`ThreadPoolBuilder::signal`]).
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

mod broadcast;
mod configuration;
pub mod deque;
mod exposure;
pub mod fork;
mod future;
mod handle;
mod handlers;
mod hybrid;
mod job;
mod job_queue;
pub mod join;
mod latch;
pub mod latency;
mod local;
mod mailbox;
mod plan;
mod platform;
pub mod policy;
pub mod pool;
mod registry;
pub mod scope;
mod shutdown;
mod sleep;
mod spawn;
pub mod stats;
mod sync;
mod wakeup;
mod worker;
mod yielding;

/// The mailbox alone, for splitsteal-bench's `mailbox` mode only: the runtime's mailbox is
/// private (it carries task proxies users never see), but its micro-benchmarks must time the
/// real push / pop / claim / free path. Not API.
#[doc(hidden)]
pub use mailbox::bench_support;

pub use broadcast::{broadcast, spawn_broadcast, BroadcastContext};
#[allow(deprecated)]
pub use configuration::{initialize, Configuration};
pub use deque::StealAmount;
#[cfg(unix)]
pub use exposure::default_signal;
pub use fork::{ForkJoin, Serial};
pub use future::{block_on, spawn_future, Abandoned};
pub use handle::{spawn_handle, JoinHandle, PoolShutDown};
pub use join::{join, join_context, FnContext};
pub use latency::{StartLatencies, TaskStart};
pub use plan::Mailing;
pub use policy::{ParsePolicyError, Policy};
pub use pool::{
    current_num_threads, current_thread_has_pending_tasks, current_thread_index, max_num_threads,
    BuildError, Current, CustomSpawn, DefaultSpawn, ThreadBuilder, ThreadPool,
    ThreadPoolBuildError, ThreadPoolBuilder, ThreadSpawn,
};
pub use scope::{in_place_scope, in_place_scope_fifo, scope, scope_fifo, Scope, ScopeFifo};
pub use shutdown::WaitError;
pub use spawn::{spawn, spawn_fifo};
pub use stats::{Stats, SyncCounts};
pub use yielding::{serve_thieves, serve_thieves_needed, yield_local, yield_now, Yield};

/// Task proxies currently allocated by `hybrid` pools, process-wide (a leak check for
/// splitsteal's own tests; zero whenever every pool is idle). Only with the
/// `proxy-leak-check` feature, which nothing but the test suite turns on.
#[cfg(feature = "proxy-leak-check")]
#[doc(hidden)]
pub fn __live_proxies() -> isize {
    mailbox::live_proxies()
}

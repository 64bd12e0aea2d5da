//! splitsteal: a work-stealing fork-join runtime and rayon's parallel iterators, with a
//! choice of scheduling policies. Code written for rayon runs on it unchanged.
//!
//! ```
//! use splitsteal::prelude::*;
//!
//! fn fib(n: u64) -> u64 {
//!     if n < 2 {
//!         return n;
//!     }
//!     // Both closures may run in parallel; `join` returns when both are done.
//!     let (a, b) = splitsteal::join(|| fib(n - 1), || fib(n - 2));
//!     a + b
//! }
//!
//! // Parallel iterators, as with `rayon::prelude::*`, on the global pool.
//! let v: Vec<u64> = (0..10_000).collect();
//! let sum_of_squares: u64 = v.par_iter().map(|x| x * x).sum();
//! assert_eq!(sum_of_squares, v.iter().map(|x| x * x).sum());
//!
//! // A pool of its own: everything run inside `install` uses its threads.
//! let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! assert_eq!(pool.install(|| fib(20)), 6765);
//! let mut words = vec!["pear", "fig", "apple"];
//! pool.install(|| words.par_sort());
//! assert_eq!(words, ["apple", "fig", "pear"]);
//! ```
//!
//! # Policies
//!
//! Each pool runs one scheduling [`Policy`], chosen with [`ThreadPoolBuilder::policy`] or
//! the `SPLITSTEAL_POLICY` environment variable; every policy runs the whole API. The
//! default, `asym`, makes a join cost no fence and no atomic read-modify-write while every
//! pushed task stays stealable at any moment: a thief pays with one process-wide heavy
//! fence per steal, and no thread is ever interrupted ([`Policy::Asym`]). The papers'
//! policies stay selectable: `lcws-signal` is low-cost work stealing (a thief asks its
//! victim for work with a real-time signal), `lcws-poll`, `lcws-cons` and `lcws-half` are
//! its variants; `chase-lev` and `abp` are classical work stealing (what rayon does);
//! `locked` is a mutex baseline and `hybrid` adds mailboxes. [`ThreadPool::stats`] counts
//! the synchronization each policy made.
//!
//! ```
//! use splitsteal::{Policy, ThreadPoolBuilder};
//!
//! for &policy in Policy::ALL {
//!     let pool = ThreadPoolBuilder::new().num_threads(2).policy(policy).build().unwrap();
//!     let (a, b) = pool.install(|| splitsteal::join(|| 1 + 2, || 3 + 4));
//!     assert_eq!((a, b), (3, 7));
//! }
//! ```
//!
//! # Coming from rayon
//!
//! A whole dependency tree switches with one `[patch.crates-io]` of `rayon` and
//! `rayon-core` to the repository's `compat/` packages (the README's "Switching from
//! rayon"); one's own code alone, by renaming the dependency: `rayon = { package =
//! "splitsteal", ... }` in `Cargo.toml`, the code unchanged.
//! rayon-core's API ([`join()`], [`scope()`], [`spawn`], [`broadcast`], [`ThreadPool`],
//! [`ThreadPoolBuilder`], ...) and rayon's parallel iterators ([`prelude`], [`iter`],
//! [`slice`](mod@slice), ...) have rayon's names, signatures and semantics. Pools take their thread
//! count from `SPLITSTEAL_NUM_THREADS`, else `RAYON_NUM_THREADS` (read as rayon reads it:
//! a value it cannot use is ignored), unless the builder sets it; a bad `SPLITSTEAL_*` value
//! is an error from `build` naming the variable.
//! splitsteal adds the builder's `policy`, `signal`, `deque_capacity` and `pin_threads`,
//! [`ThreadPool::stats`], data-parallel primitives in [`par`] (`par::current::sort`,
//! `scan`, `filter`, `histogram`, ...), join handles ([`spawn_handle`]), futures on the
//! pool ([`spawn_future`], [`block_on`]) and pools one can wait for
//! ([`ThreadPool::wait_idle`], [`ThreadPool::shutdown`]).
//!
//! # Platforms
//!
//! Wherever rayon builds: Linux, Android, macOS, the BSDs, Windows, 32- and 64-bit, and
//! WebAssembly (the README's "Platforms" table says what CI builds and tests on each).
//! The default policy, `asym`, works on all of them: its thieves' heavy fence is Linux's
//! `membarrier` or Windows' `FlushProcessWriteBuffers`; where there is none (macOS, the
//! BSDs, WebAssembly, or a Linux whose kernel or seccomp filter refuses `membarrier`)
//! owners fence their pops instead and idle workers poll a few times at 1 ms intervals and
//! then sleep until woken: nothing is lost but speed. Without threads (WebAssembly), the
//! global pool is the calling thread and an explicitly built pool returns the spawn error,
//! as under rayon. `pin_threads(true)` works on Linux and Android; elsewhere `build`
//! refuses it.
//!
//! The signal policies (`lcws-signal`, `lcws-cons`, `lcws-half`; not the default) need
//! POSIX signals, so `build` refuses them on Windows and WebAssembly
//! ([`Policy::is_supported`]). They use `SIGURG` unless the builder's `signal` picks a
//! real-time one (Linux, Android): a task's `poll`, `select`, `nanosleep`, System V IPC or
//! socket I/O with a timeout may fail with `EINTR` when a thief asks its worker for work,
//! a blocking `write` may return a short count and glibc's `sleep` may return early, so
//! tasks must retry.
//!
//! # Layout
//!
//! This crate is two layers under one name, as `rayon` is over `rayon-core`:
//! - the runtime, from `splitsteal-core`, re-exported whole: [`pool`] (building pools, the
//!   global pool), [`join`](mod@join) and [`scope`](mod@scope) (the fork-join API), [`fork`]
//!   (the scheduler trait), [`deque`] (the four work-stealing deques), [`stats`] (exact
//!   synchronization counts), [`policy`], [`latency`];
//! - the data-parallel layer, here: [`iter`] and [`prelude`] (rayon's parallel iterators),
//!   [`par`] (primitives on any [`ForkJoin`] scheduler, and in [`par::current`] on the pool
//!   the caller is in).
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod array;
pub mod iter;
pub mod par;
pub mod prelude;

// rayon's module paths for the iterator types, so `use rayon::slice::ParallelSliceMut;`
// ports as `use splitsteal::slice::ParallelSliceMut;`.
pub use iter::string as str;

/// rayon's `rayon::string` path: the draining iterator of a `String`.
pub mod string {
    /// The iterator of `par_drain(range)` on a `String`.
    pub use crate::iter::drain::StringDrain as Drain;
}
pub use iter::{collections, option, range, range_inclusive, result, slice, vec};

pub use par::current::{par_for, par_for_grain};
/// The signal policies' default exposure signal (Unix only).
#[cfg(unix)]
pub use splitsteal_core::default_signal;
/// Beyond rayon: spawns with handles, futures on the pool, a pool you can wait for.
pub use splitsteal_core::{
    block_on, spawn_future, spawn_handle, Abandoned, JoinHandle, PoolShutDown, WaitError,
};
pub use splitsteal_core::{
    broadcast, current_num_threads, current_thread_has_pending_tasks, current_thread_index, deque,
    fork, in_place_scope, in_place_scope_fifo, join, join_context, latency, max_num_threads,
    policy, pool, scope, scope_fifo, serve_thieves, serve_thieves_needed, spawn, spawn_broadcast,
    spawn_fifo, stats, yield_local, yield_now, BroadcastContext, BuildError, Current, FnContext,
    ForkJoin, Mailing, ParsePolicyError, Policy, Scope, ScopeFifo, Serial, StartLatencies, Stats,
    SyncCounts, TaskStart, ThreadBuilder, ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder,
    Yield,
};
#[allow(deprecated)]
pub use splitsteal_core::{initialize, Configuration};

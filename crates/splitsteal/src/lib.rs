//! splitsteal: a work-stealing fork-join runtime with every scheduling policy of the
//! low-cost work stealing (LCWS), ABP, Chase-Lev and mailboxing papers, and data-parallel
//! primitives written once against any fork-join scheduler.
//!
//! ```
//! use splitsteal::{Policy, ThreadPoolBuilder};
//!
//! fn fib(n: u64) -> u64 {
//!     if n < 2 {
//!         return n;
//!     }
//!     let (a, b) = splitsteal::join(|| fib(n - 1), || fib(n - 2));
//!     a + b
//! }
//!
//! for &policy in Policy::ALL {
//!     let pool = ThreadPoolBuilder::new().num_threads(2).policy(policy).build().unwrap();
//!     assert_eq!(pool.install(|| fib(18)), 2584);
//!     let mut v: Vec<u64> = (0..10_000).rev().collect();
//!     pool.install(|| splitsteal::par::current::sort(&mut v));
//!     assert!(v.windows(2).all(|w| w[0] <= w[1]));
//! }
//! ```
//!
//! This crate is two layers under one name, as `rayon` is over `rayon-core`:
//! - the runtime, from `splitsteal-core`, re-exported whole: [`pool`] (building pools, the
//!   global pool), [`join`](mod@join) and [`scope`](mod@scope) (the fork-join API), [`fork`]
//!   (the scheduler trait), [`deque`] (the four work-stealing deques), [`stats`] (exact
//!   synchronization counts), [`policy`], [`latency`];
//! - the data-parallel layer, here: [`par`] (primitives on any [`ForkJoin`] scheduler, and
//!   in [`par::current`] on the pool the caller is in).
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

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
pub use splitsteal_core::{
    broadcast, current_num_threads, current_thread_has_pending_tasks, current_thread_index,
    default_signal, deque, fork, in_place_scope, in_place_scope_fifo, join, join_context, latency,
    max_num_threads, policy, pool, scope, scope_fifo, serve_thieves, serve_thieves_needed, spawn,
    spawn_broadcast, spawn_fifo, stats, yield_local, yield_now, BroadcastContext, BuildError,
    Current, FnContext, ForkJoin, Mailing, ParsePolicyError, Policy, Scope, ScopeFifo, Serial,
    StartLatencies, Stats, SyncCounts, TaskStart, ThreadBuilder, ThreadPool, ThreadPoolBuildError,
    ThreadPoolBuilder, Yield,
};

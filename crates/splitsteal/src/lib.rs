//! splitsteal: a work-stealing fork-join runtime with every scheduling policy of the
//! low-cost work stealing (LCWS), ABP, Chase-Lev and mailboxing papers.
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
//! }
//! ```
//!
//! Modules, outside in: [`pool`] (building pools, the global pool), [`join`](mod@join) and
//! [`scope`](mod@scope) (the fork-join API), [`par`] (data-parallel primitives), [`deque`] (the four
//! work-stealing deques), [`stats`] (exact synchronization counts), [`policy`].
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod deque;
mod exposure;
pub mod fork;
mod hybrid;
mod job;
pub mod join;
mod latch;
pub mod latency;
mod local;
mod mailbox;
pub mod par;
mod plan;
pub mod policy;
pub mod pool;
mod registry;
pub mod scope;
mod sleep;
pub mod stats;
mod sync;
mod wakeup;
mod worker;

pub use exposure::default_signal;
pub use fork::{ForkJoin, Serial};
pub use join::join;
pub use latency::{StartLatencies, TaskStart};
pub use par::current::{par_for, par_for_grain};
pub use plan::Mailing;
pub use policy::{ParsePolicyError, Policy};
pub use pool::{
    current_num_threads, current_thread_index, BuildError, Current, ThreadPool, ThreadPoolBuilder,
};
pub use scope::{scope, Scope};
pub use stats::{Stats, SyncCounts};

/// Task proxies currently allocated by `hybrid` pools, process-wide (a leak check for
/// tests; zero whenever every pool is idle).
#[doc(hidden)]
pub fn __live_proxies() -> isize {
    mailbox::live_proxies()
}

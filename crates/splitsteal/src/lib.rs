//! splitsteal: a work-stealing fork-join runtime with every scheduling policy of the
//! low-cost work stealing (LCWS), ABP, Chase-Lev and mailboxing papers.
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod deque;
pub mod fork;
pub mod par;
pub mod policy;
pub mod stats;
mod sync;

pub use fork::{ForkJoin, Serial};
pub use policy::{ParsePolicyError, Policy};
pub use stats::{Stats, SyncCounts};

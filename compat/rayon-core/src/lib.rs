//! rayon-core 1.13's public API, re-exported item by item from [splitsteal], so that one
//! `[patch.crates-io]` entry runs a whole dependency tree's rayon-core on splitsteal's
//! runtime (see `compat/README.md` in the splitsteal repository).
//!
//! Every item is splitsteal's own (`rayon_core::ThreadPool` *is* `splitsteal::ThreadPool`),
//! so there is one runtime and one global pool whichever name a crate uses. An item
//! rayon-core has and splitsteal lacked would be a compile error here, and
//! `tests/api.rs` names every public path of rayon-core 1.13.0.
//!
//! ```
//! let (a, b) = rayon_core::join(|| 1 + 1, || 2 + 2);
//! assert_eq!((a, b), (2, 4));
//! let pool = rayon_core::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! assert_eq!(pool.install(rayon_core::current_num_threads), 2);
//! ```
#![warn(missing_docs)]

pub use splitsteal::{broadcast, spawn_broadcast, BroadcastContext};
pub use splitsteal::{current_num_threads, current_thread_index, max_num_threads};
pub use splitsteal::{current_thread_has_pending_tasks, ThreadBuilder};
pub use splitsteal::{in_place_scope, scope, Scope};
pub use splitsteal::{in_place_scope_fifo, scope_fifo, ScopeFifo};
#[allow(deprecated)]
pub use splitsteal::{initialize, Configuration};
pub use splitsteal::{join, join_context, FnContext};
pub use splitsteal::{spawn, spawn_fifo};
pub use splitsteal::{yield_local, yield_now, Yield};
pub use splitsteal::{ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};

//! What `splitsteal bench` and `splitsteal sim` share as command-line tools: the facts
//! about a run that head every report ([`RunInfo`]), console output that behaves like a
//! Unix tool's when a pipe closes ([`console`]), and output folders checked before any
//! work starts, with every file error naming its path ([`out_dir`]), and the documented
//! exit statuses ([`Exit`]).

pub mod console;
mod exit;
pub mod out_dir;
mod run_info;

pub use exit::{Exit, ExitError};
pub use run_info::{machine, revision, utc_now, RunInfo};

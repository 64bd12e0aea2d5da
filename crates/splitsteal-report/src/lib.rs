//! What `splitsteal bench` and `splitsteal sim` share as command-line tools: the facts
//! about a run that head every report ([`RunInfo`]), console output that behaves like a
//! Unix tool's when a pipe closes ([`console`]), and output folders checked before any
//! work starts, with every file error naming its path ([`out_dir`]); the documented exit
//! statuses ([`Exit`]); the HTML page every report is written as ([`page`]) and a check
//! that an SVG's labels lie inside it ([`svg_check`]); the records of a bench run that
//! `results.json` holds, read by the simulator too ([`records`]); and the UTS tree that the suite's
//! `uts` workload and `splitsteal dist uts` both traverse ([`uts`]).

pub mod console;
mod exit;
pub mod out_dir;
pub mod page;
pub mod records;
mod run_info;
pub mod svg_check;
pub mod uts;

pub use exit::{Exit, ExitError};
pub use run_info::{machine, revision, utc_now, RunInfo};

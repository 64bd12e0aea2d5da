//! The splitsteal benchmark suite, run as `splitsteal bench`.
//!
//! Every workload is written once, generic over [`splitsteal::ForkJoin`] (the spawning
//! ones over [`sched::BenchCtx`], `ForkJoin` plus scope spawns) ([`workloads`]), and runs
//! unchanged on every scheduler ([`sched`]): splitsteal's
//! policies, rayon, chili and the serial elision. The [`runner`] measures them the same
//! way (warm-up, interleaved repetitions, medians with min and max, every output verified
//! against a serial reference); the [`modes`] are the papers' experiments; [`report`],
//! [`plot`] and [`html`] write `results.json`, `results.csv`, SVG plots and `index.html`.
//!
//! The `iter` section's programs ([`par_iter`]) are rayon-style parallel-iterator code
//! instead, written once and compiled against both `rayon::prelude` and
//! `splitsteal::prelude`; they run on the rayon and splitsteal pools only.
//!
//! See the crate README for the CLI, the workloads and their input sizes, and the time
//! budget.
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

// The programs and the schedulers they run on live in splitsteal-workloads (compiled once,
// not again for this crate's unit tests); they keep their paths here.
pub use splitsteal_workloads::{par_iter, pbbs_io, sched, workloads};

pub mod affinity;
pub mod cli;
pub mod hog;
pub mod html;
pub mod load;
pub mod modes;
pub mod plot;
pub mod report;
pub mod runner;

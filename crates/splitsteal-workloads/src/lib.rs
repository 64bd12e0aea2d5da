//! The programs of the splitsteal benchmark suite and the schedulers they run on, used by
//! `splitsteal-bench` (which re-exports every module here under the same path).
//!
//! Every workload is written once, generic over [`splitsteal::ForkJoin`] (the spawning
//! ones over [`sched::BenchCtx`], `ForkJoin` plus scope spawns) ([`workloads`]), and runs
//! unchanged on every scheduler ([`sched`]): splitsteal's policies, rayon, chili and the
//! serial elision. Each checks its output against a serial reference.
//!
//! The `iter` section's programs ([`par_iter`]) are rayon-style parallel-iterator code
//! instead, written once and compiled against both `rayon::prelude` and
//! `splitsteal::prelude`; they run on the rayon and splitsteal pools only. [`pbbs_io`]
//! reads, writes, generates and checks the PBBS benchmarks' files.
//!
//! A crate of its own so that the programs are compiled once per build: the bench's unit
//! tests link them from here.
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod par_iter;
pub mod pbbs_io;
pub mod sched;
pub mod workloads;

//! The tests of `splitsteal_bench::modes`' experiments.

mod cache;
mod iter;
mod mailbox;
mod multiprogram;
mod pbbs;
mod runtimes;
mod suite;
mod syncops;

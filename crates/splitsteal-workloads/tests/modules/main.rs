//! The library's module tests, one file per module (`pbbs_io_format.rs` tests
//! `splitsteal_workloads::pbbs_io::format`, `fib.rs` tests `workloads::fib`).
//!
//! As an integration test they link the library `cargo test` builds anyway, instead of
//! making it compile the whole library a second time with `cfg(test)` for a unit-test
//! harness.

mod cilksort;
mod fib;
mod knapsack;
mod latency;
mod matmul;
mod nqueens;
mod par_iter;
mod pbbs_graph;
mod pbbs_hull;
mod pbbs_io_check;
mod pbbs_io_format;
mod pbbs_io_generate;
mod sched;
mod shapes;
mod treesum;

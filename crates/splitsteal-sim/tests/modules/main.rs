//! The library's module tests, one file per module (`dag.rs` tests `splitsteal_sim::dag`,
//! `latency.rs` tests `splitsteal_sim::latency`).
//!
//! They were the modules' `#[cfg(test)] mod tests`. As an integration test they link the
//! library `cargo test` builds anyway, instead of making it compile the whole library a
//! second time with `cfg(test)` for a unit-test harness; one test binary for all of them
//! keeps it to one link. Items made public only for these tests are `#[doc(hidden)]`.

mod cli;
mod dag;
mod dag_report;
mod kernel;
mod kernel_report;
mod latency;
mod meta;
mod par;
mod plot;
mod progress;
mod scaling;
mod stats;
mod steal_cost;
mod steal_cost_report;
mod sweep;

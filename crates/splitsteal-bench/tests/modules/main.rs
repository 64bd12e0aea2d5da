//! The library's module tests, one file per module (`cli.rs` tests `splitsteal_bench::cli`,
//! `modes/suite.rs` tests `splitsteal_bench::modes::suite`).
//!
//! They were the modules' `#[cfg(test)] mod tests`. As an integration test they link the
//! library `cargo test` builds anyway, instead of making it compile the whole library a
//! second time with `cfg(test)` for a unit-test harness; one test binary for all of them
//! keeps it to one link. Items made public only for these tests are `#[doc(hidden)]`.

mod affinity;
mod cli;
mod hog;
mod html;
mod load;
mod modes;
mod plot;
mod report;
mod runner;

//! Paper 003's PBBS benchmarks on generated inputs, built on `splitsteal::par`.
//!
//! (Being added as the data-parallel primitives land.)

use super::WorkloadSpec;

/// The PBBS workloads, in report order.
pub fn specs() -> Vec<WorkloadSpec> {
    Vec::new()
}

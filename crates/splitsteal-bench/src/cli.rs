//! `splitsteal bench ...` (placeholder until the suite lands).
use clap::Args;

/// Benchmark options.
#[derive(Args, Debug)]
pub struct BenchArgs {}

/// Runs the benchmark suite.
pub fn run(_args: BenchArgs) -> Result<(), Box<dyn std::error::Error>> {
    Err("the benchmark suite is not implemented yet".into())
}

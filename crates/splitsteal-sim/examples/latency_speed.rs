//! Measures the latency simulator's speed (simulated runs per second) at a few sizes.
//!
//! `cargo run --release -p splitsteal-sim --example latency_speed`
use std::time::Instant;

use splitsteal_sim::latency::{simulate_runs, LatencyParams, SplitRule};

fn main() {
    for &(work, procs, latency, runs) in &[
        (100_000u64, 32usize, 262u64, 4000usize),
        (100_000, 256, 2, 1000),
        (1_000_000, 256, 2, 1000),
        (10_000_000, 256, 2, 1000),
        (100_000_000, 256, 2, 1000),
        (100_000_000, 32, 482, 1000),
    ] {
        for split in [SplitRule::Halving, SplitRule::Paper] {
            let p = LatencyParams {
                work,
                procs,
                latency,
                split,
            };
            let t = Instant::now();
            let rs = simulate_runs(&p, runs, 1, 0);
            let dt = t.elapsed().as_secs_f64();
            let req: u64 = rs.iter().map(|r| r.requests).sum();
            println!(
                "W={work:>9} p={procs:>3} λ={latency:>3} {split:<7}: {:>9.0} runs/s, {:>6.2} M requests/s ({runs} runs in {dt:.2} s)",
                runs as f64 / dt,
                req as f64 / dt / 1e6
            );
        }
    }
}

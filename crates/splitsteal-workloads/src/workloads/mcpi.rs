//! `mcpi`: Monte Carlo approximation of π (the low-latency thesis's "Monte Carlo Pi", §4.2.1;
//! a parallel loop).
//!
//! The samples are cut into chunks of [`CHUNK`]; chunk `i` draws from its own generator
//! seeded from `(seed, i)`, so the hit count is the same whatever the schedule. The chunks
//! are spread by recursive halving with `join`.

use rand::{RngExt, SeedableRng};
use splitsteal::ForkJoin;

use super::{par_range, splitmix64, DynWorkload, Group, InputRng, Size, Workload, WorkloadSpec};

/// Samples per chunk (one leaf task).
pub const CHUNK: u64 = 1 << 14;

fn chunk_hits(seed: u64, chunk: u64, samples: u64) -> u64 {
    let mut r = InputRng::seed_from_u64(splitmix64(seed ^ splitmix64(chunk)));
    let mut hits = 0;
    for _ in 0..samples {
        let x: f64 = r.random();
        let y: f64 = r.random();
        hits += u64::from(x * x + y * y <= 1.0);
    }
    hits
}

fn chunk_len(total: u64, chunk: u64) -> u64 {
    CHUNK.min(total - chunk * CHUNK)
}

/// Counts the samples falling in the quarter disc, out of `samples`.
pub fn mcpi<C: ForkJoin>(c: &mut C, samples: u64, seed: u64) -> u64 {
    let chunks = samples.div_ceil(CHUNK) as usize;
    par_range(
        c,
        0,
        chunks,
        1,
        &|lo, hi| {
            (lo..hi)
                .map(|i| chunk_hits(seed, i as u64, chunk_len(samples, i as u64)))
                .sum::<u64>()
        },
        &|a, b| a + b,
    )
}

/// Reference: the same chunks in a plain loop, plus a sanity check on π.
pub fn mcpi_reference(samples: u64, seed: u64) -> u64 {
    (0..samples.div_ceil(CHUNK))
        .map(|i| chunk_hits(seed, i, chunk_len(samples, i)))
        .sum()
}

/// The `mcpi` workload.
#[derive(Debug)]
pub struct McPi {
    samples: u64,
    seed: u64,
    expected: u64,
}

impl Workload for McPi {
    type Input = ();
    type Output = u64;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> u64 {
        mcpi(c, self.samples, self.seed)
    }
    fn check(&self, out: &u64) -> Result<(), String> {
        if *out != self.expected {
            return Err(format!("{out} hits, expected {}", self.expected));
        }
        let pi = 4.0 * *out as f64 / self.samples as f64;
        if (pi - std::f64::consts::PI).abs() > 0.05 {
            return Err(format!("π estimate {pi} is off"));
        }
        Ok(())
    }
}

fn samples_for(size: Size) -> u64 {
    size.pick(200_000, 10_000_000, 25_000_000)
}

/// Registry entry.
pub fn spec() -> WorkloadSpec {
    WorkloadSpec {
        name: "mcpi",
        group: Group::LowLatencyThesis,
        description: "Monte Carlo π, parallel loop over chunks with per-chunk generators",
        params: |s| format!("{} samples, chunks of {CHUNK}", samples_for(s)),
        build: |s, seed| {
            let samples = samples_for(s);
            Box::new(McPi {
                samples,
                seed,
                expected: mcpi_reference(samples, seed),
            }) as Box<dyn DynWorkload>
        },
    }
}

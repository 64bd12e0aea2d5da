//! Run-level parallelism and per-run seeding.
//!
//! Every simulator in this crate fans its independent runs out through [`par_map_runs`], the one
//! place where the crate decides how runs are spread over threads: splitsteal's own pool. Each run derives its random
//! stream from `(seed, run index)` with [`run_seed`], so results never depend on the thread count
//! or on the order in which runs complete.

/// Evaluates `f(0), f(1), …, f(n-1)` in parallel on splitsteal's own pool and returns the
/// results in index order.
///
/// The result is identical to `(0..n).map(f).collect()` whatever the number of threads, provided
/// `f` is a pure function of its index (all simulators seed each run from its index).
///
/// Runs go through [`splitsteal::par::tabulate`] on the pool the caller is in, else on
/// splitsteal's global pool (one worker per CPU, configured by `SPLITSTEAL_NUM_THREADS` and
/// `SPLITSTEAL_POLICY`): recursive range splitting with automatic granularity, so runs of
/// very different cost (a sweep mixes W = 10^5 with W = 10^8) still balance, by stealing.
pub fn par_map_runs<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    splitsteal::par::current::tabulate(n, f)
}

/// SplitMix64 finaliser: a bijective 64-bit mixer.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of run `run` of a batch seeded with `seed` (and of configuration `config` within a
/// sweep). Distinct `(seed, config, run)` triples give unrelated streams.
pub fn run_seed(seed: u64, config: u64, run: u64) -> u64 {
    mix64(mix64(mix64(seed) ^ config) ^ run.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

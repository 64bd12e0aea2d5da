//! Issue 31's check of the `iter` section's closest rows in a small program: the same
//! iterator code written once and compiled against splitsteal's prelude and rayon's, in a
//! binary of a few hundred functions instead of the suite's thousands, timed in pairs.
//!
//! `cargo run --release -p splitsteal-bench --example iter_pairs [-- ROUNDS]`
//!
//! Why a second measurement: in the suite's binary, rows whose two sides run the same
//! instructions move from "level" to 10–20% slower and back from one build to the next,
//! with their code unchanged, as the linker places the hot loops (the rayon-compatibility log in the CHANGELOG,
//! fourteenth stop). A program of the size users write shows what the switch does to them.
//!
//! Each round runs every program once on splitsteal's default pool and once on rayon's, in
//! an order that alternates by round, and checks that both gave the same output (a mismatch
//! exits with status 1). Per program and thread count it prints both medians and the
//! median and quartiles of the per-round ratios (splitsteal's time over rayon's). At one
//! thread the whole process runs on one CPU, so that both pools' single workers share it.

use std::time::Instant;

use splitsteal_bench::affinity;

/// The mix the suite's workloads use (`splitsteal_workloads::scramble`'s shape).
fn scramble(x: u64) -> u64 {
    (x ^ (x >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The programs, written once and compiled against the prelude `$lib`.
macro_rules! programs {
    ($module:ident, $lib:ident) => {
        mod $module {
            use super::scramble;
            use ::$lib::prelude::*;

            /// Runs program `name` on `v` (and `text`); a digest of its output.
            pub fn run(name: &str, v: &[u64], text: &str) -> u64 {
                match name {
                    "filter-count" => v.par_iter().filter(|&&x| x % 3 == 0).count() as u64,
                    "enumerate" => v
                        .par_iter()
                        .enumerate()
                        .filter(|(i, _)| i % 3 == 0)
                        .map(|(i, &x)| i as u64 ^ x)
                        .sum(),
                    "chain" => v.par_iter().chain(v.par_iter()).map(|&x| x >> 3).sum(),
                    "collect-vec" => {
                        let c: Vec<u64> = v.par_iter().map(|&x| scramble(x)).collect();
                        c.iter().fold(0, |h, &x| scramble(h ^ x))
                    }
                    "unzip" => {
                        let (a, b): (Vec<u64>, Vec<u64>) =
                            v.par_iter().map(|&x| (x, scramble(x))).unzip();
                        a.iter().zip(&b).fold(0, |h, (&x, &y)| scramble(h ^ x ^ y))
                    }
                    "partition" => {
                        let (a, b): (Vec<u64>, Vec<u64>) =
                            v.par_iter().copied().partition(|&x| x % 3 == 0);
                        a.iter().chain(&b).fold(0, |h, &x| scramble(h ^ x))
                    }
                    "fold-reduce" => {
                        let counts = v
                            .par_iter()
                            .fold(
                                || [0u64; 16],
                                |mut h, &x| {
                                    h[(x & 15) as usize] += 1;
                                    h
                                },
                            )
                            .reduce(|| [0; 16], |a, b| std::array::from_fn(|i| a[i] + b[i]));
                        counts.iter().fold(0, |d, &c| scramble(d ^ c))
                    }
                    "count-words" => text.par_split_whitespace().count() as u64,
                    other => unreachable!("no program {other}"),
                }
            }
        }
    };
}
programs!(on_splitsteal, splitsteal);
programs!(on_rayon, rayon);

const PROGRAMS: [&str; 8] = [
    "filter-count",
    "enumerate",
    "chain",
    "collect-vec",
    "unzip",
    "partition",
    "fold-reduce",
    "count-words",
];

/// The `q`-quantile (0..=1) of `xs`, sorted in place.
fn quantile(xs: &mut [f64], q: f64) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[((xs.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let rounds: usize = match std::env::args().nth(1) {
        None => 41,
        Some(s) => match s.parse() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("iter_pairs: ROUNDS must be a positive integer, not {s:?}");
                std::process::exit(2);
            }
        },
    };
    let v: Vec<u64> = (0..4_000_000u64).map(scramble).collect();
    let text: String = v[..1_000_000]
        .iter()
        .map(|&x| format!("w{:x}{}", x % 4096, if x % 7 == 0 { "\n" } else { " " }))
        .collect();
    let all_cpus = affinity::allowed_cpus().expect("sched_getaffinity");
    println!("program       thr  splitsteal     rayon   ratio median (q1–q3)");
    for threads in [1, 2] {
        // The pools' workers inherit the building thread's CPUs.
        affinity::confine_for_threads(threads, &all_cpus).expect("sched_setaffinity");
        let ours = splitsteal::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("splitsteal pool");
        let theirs = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("rayon pool");
        for name in PROGRAMS {
            let (mut a, mut b, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
            // Round 0 is a warm-up, not recorded.
            for round in 0..=rounds {
                let mut time = [0.0; 2];
                let mut digest = [0u64; 2];
                for side in [round % 2, 1 - round % 2] {
                    let start = Instant::now();
                    digest[side] = if side == 0 {
                        ours.install(|| on_splitsteal::run(name, &v, &text))
                    } else {
                        theirs.install(|| on_rayon::run(name, &v, &text))
                    };
                    time[side] = start.elapsed().as_secs_f64() * 1e3;
                }
                if digest[0] != digest[1] {
                    eprintln!(
                        "iter_pairs: {name} at {threads} threads FAILED: splitsteal's output \
                         ({:#x}) differs from rayon's ({:#x})",
                        digest[0], digest[1]
                    );
                    std::process::exit(1);
                }
                if round > 0 {
                    a.push(time[0]);
                    b.push(time[1]);
                    ratio.push(time[0] / time[1]);
                }
            }
            println!(
                "{name:13} {threads:>3}  {:7.2} ms {:7.2} ms   {:.3} ({:.3}–{:.3})",
                quantile(&mut a, 0.5),
                quantile(&mut b, 0.5),
                quantile(&mut ratio, 0.5),
                quantile(&mut ratio, 0.25),
                quantile(&mut ratio, 0.75),
            );
        }
    }
}

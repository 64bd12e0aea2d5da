//! Two iterator shapes that once ran slower than rayon, as small programs timed against
//! rayon in pairs: `unzip` of 2 million pairs into two `Vec`s followed by a `partition`
//! of one of them, and `filter` (about 1 % passing) followed by `find_first`, with the
//! first match near the middle and near the end of 2 million items (and the same search
//! near the middle through `filter_map`).
//!
//! `cargo run --release -p splitsteal-bench --example iter_shapes [-- ROUNDS [PROGRAM]]`
//!
//! Each round runs the program once on splitsteal's pool and once on rayon's, in an order
//! that alternates by round, and checks that both gave the same output (a mismatch exits
//! with status 1; for the searches the output is the match's position, so a match other
//! than the first one fails). Per program and thread count it prints both medians, then
//! the median, quartiles and extremes of the per-round ratios (splitsteal's time over
//! rayon's). At one thread the whole process runs on one CPU. With PROGRAM, only that
//! program runs, once per round on each side (for a profiler: `callgrind` of one side
//! is `ROUNDS` = 1 and the name, see `SIDE` below).
//!
//! `SIDE=splitsteal` or `SIDE=rayon` in the environment runs only that side, at one
//! thread, without timing or comparing: the instruction counts of the two under
//! `valgrind --tool=callgrind` are then comparable run for run.

use std::time::Instant;

use splitsteal_bench::affinity;

/// The number of items every program takes.
const ITEMS: usize = 2_000_000;

/// The mix the suite's workloads use (`splitsteal_workloads::scramble`'s shape).
fn scramble(x: u64) -> u64 {
    (x ^ (x >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// What `filter` keeps: about 1 in 100 scrambled values.
fn kept(x: u64) -> bool {
    x % 100 == 7
}

/// The value `find_first` looks for; it passes `kept`. Planted twice in each search's
/// input, so that returning the second copy (not the first) is caught.
const MARK: u64 = 1_000_000_007;

/// A search input: scrambled values with `MARK` planted at `first` and at `first + gap`.
fn planted(first: usize, gap: usize) -> Vec<u64> {
    let mut v: Vec<u64> = (0..ITEMS as u64)
        .map(|i| scramble(i + 1))
        .map(|x| if x == MARK { x + 100 } else { x })
        .collect();
    v[first] = MARK;
    v[first + gap] = MARK;
    v
}

/// The inputs, built once.
struct Inputs {
    pairs: Vec<(u64, u64)>,
    mid: Vec<u64>,
    end: Vec<u64>,
}

/// The programs, written once and compiled against the prelude `$lib`.
macro_rules! programs {
    ($module:ident, $lib:ident) => {
        mod $module {
            use super::{kept, scramble, Inputs, MARK};
            use ::$lib::prelude::*;

            /// The position of `find_first`'s match in `v` (`usize::MAX` for none).
            fn filter_find_first(v: &[u64]) -> u64 {
                let found = v
                    .par_iter()
                    .filter(|&&x| kept(x))
                    .find_first(|&&x| x == MARK);
                found.map_or(u64::MAX, |x| {
                    // The position, from the reference's address in `v`.
                    ((x as *const u64 as usize - v.as_ptr() as usize) / 8) as u64
                })
            }

            /// The position of the first match in `v`, found through `filter_map`.
            fn filter_map_find_first(v: &[u64]) -> u64 {
                let found = v
                    .par_iter()
                    .enumerate()
                    .filter_map(|(i, &x)| kept(x).then_some(i))
                    .find_first(|&i| v[i] == MARK);
                found.map_or(u64::MAX, |i| i as u64)
            }

            /// Runs program `name`; a digest of its output.
            pub fn run(name: &str, inputs: &Inputs) -> u64 {
                match name {
                    "unzip" => {
                        let (a, b): (Vec<u64>, Vec<u64>) = inputs.pairs.par_iter().copied().unzip();
                        a.iter().zip(&b).fold(0, |h, (&x, &y)| scramble(h ^ x ^ y))
                    }
                    "partition" => {
                        let (yes, no): (Vec<u64>, Vec<u64>) =
                            inputs.mid.par_iter().copied().partition(|&x| x % 3 == 0);
                        yes.iter().chain(&no).fold(0, |h, &x| scramble(h ^ x))
                    }
                    "unzip-partition" => {
                        let (a, b): (Vec<u64>, Vec<u64>) = inputs.pairs.par_iter().copied().unzip();
                        let (yes, no): (Vec<u64>, Vec<u64>) =
                            b.par_iter().copied().partition(|&x| x % 3 == 0);
                        a.iter()
                            .chain(&yes)
                            .chain(&no)
                            .fold(0, |h, &x| scramble(h ^ x))
                    }
                    "find-first-mid" => filter_find_first(&inputs.mid),
                    "find-first-end" => filter_find_first(&inputs.end),
                    "filter-map-find-first-mid" => filter_map_find_first(&inputs.mid),
                    other => unreachable!("no program {other}"),
                }
            }
        }
    };
}
programs!(on_splitsteal, splitsteal);
programs!(on_rayon, rayon);

const PROGRAMS: [&str; 6] = [
    "unzip",
    "partition",
    "unzip-partition",
    "find-first-mid",
    "find-first-end",
    "filter-map-find-first-mid",
];

/// The `q`-quantile (0..=1) of `xs`, sorted in place.
fn quantile(xs: &mut [f64], q: f64) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[((xs.len() - 1) as f64 * q).round() as usize]
}

fn fail(message: &str) -> ! {
    eprintln!("iter_shapes: {message}");
    std::process::exit(2);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = match args.next() {
        None => 21,
        Some(s) => match s.parse() {
            Ok(n) if n > 0 => n,
            _ => fail(&format!("ROUNDS must be a positive integer, not {s:?}")),
        },
    };
    let programs: Vec<&str> = match args.next() {
        None => PROGRAMS.to_vec(),
        Some(name) => match PROGRAMS.iter().find(|&&p| p == name) {
            Some(&p) => vec![p],
            None => fail(&format!("no program {name:?}; the programs: {PROGRAMS:?}")),
        },
    };
    let inputs = Inputs {
        pairs: (0..ITEMS as u64).map(|x| (x, scramble(x))).collect(),
        mid: planted(ITEMS / 2 + 17, ITEMS / 8),
        end: planted(ITEMS - ITEMS / 50, ITEMS / 100),
    };

    // One side alone, for a profiler.
    if let Ok(side) = std::env::var("SIDE") {
        let mut digest = 0;
        for name in &programs {
            for _ in 0..rounds {
                digest ^= match side.as_str() {
                    "splitsteal" => splitsteal::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .build()
                        .expect("splitsteal pool")
                        .install(|| on_splitsteal::run(name, &inputs)),
                    "rayon" => rayon::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .build()
                        .expect("rayon pool")
                        .install(|| on_rayon::run(name, &inputs)),
                    other => fail(&format!("SIDE is splitsteal or rayon, not {other:?}")),
                };
            }
        }
        println!("{side}: digest {digest:#x}");
        return;
    }

    let all_cpus = affinity::allowed_cpus().expect("sched_getaffinity");
    println!(
        "program                   thr  splitsteal     rayon   ratio median (q1–q3) [min–max], {rounds} rounds"
    );
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
        for &name in &programs {
            let (mut a, mut b, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
            // Round 0 is a warm-up, not recorded.
            for round in 0..=rounds {
                let mut time = [0.0; 2];
                let mut digest = [0u64; 2];
                for side in [round % 2, 1 - round % 2] {
                    let start = Instant::now();
                    digest[side] = if side == 0 {
                        ours.install(|| on_splitsteal::run(name, &inputs))
                    } else {
                        theirs.install(|| on_rayon::run(name, &inputs))
                    };
                    time[side] = start.elapsed().as_secs_f64() * 1e3;
                }
                if digest[0] != digest[1] {
                    eprintln!(
                        "iter_shapes: {name} at {threads} threads FAILED: splitsteal's output \
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
                "{name:25} {threads:>3}  {:7.3} ms {:7.3} ms   {:.3} ({:.3}–{:.3}) [{:.3}–{:.3}]",
                quantile(&mut a, 0.5),
                quantile(&mut b, 0.5),
                quantile(&mut ratio, 0.5),
                quantile(&mut ratio, 0.25),
                quantile(&mut ratio, 0.75),
                quantile(&mut ratio, 0.0),
                quantile(&mut ratio, 1.0),
            );
        }
    }
}

//! Issue 4's measurement: every data-parallel primitive of `splitsteal::par` against its
//! rayon equivalent and against sequential std code, on the same inputs, in one run.
//!
//! ```text
//! cargo run --release -p splitsteal-bench --example primitives -- --n 10000000 --threads 1,2
//! ```
//!
//! Columns: `std` (sequential), `rayon` (rayon's own operation in a rayon pool),
//! `par@rayon` (the generic `splitsteal::par` code on a `ForkJoin` whose join is
//! `rayon::join`), and `par@<policy>` (the same code on a splitsteal pool). Times are the
//! median of `--reps` runs after one warm-up, in milliseconds, with the runs of all cells
//! interleaved; every run's result is checked against std's.
//!
//! `--input` picks the input family (PBBS's generators, `splitsteal_bench::pbbs_io::generate`):
//! `random` (uniform 64-bit values, uniform 24-bit sort keys, keys uniform in `0..n` for
//! `remove_duplicates` and `histogram`: PBBS randomSeq_int), `expt` (PBBS exptSeq),
//! `almost` (PBBS almostSortedSeq: `0..n` with `sqrt(n)` random swaps), `range=K` (uniform
//! in `0..K`, e.g. `range=100000` for PBBS's randomSeq_100K_int), `equal` (one value) and
//! `reversed` (`n-1` down to 0). `histogram` counts one bucket per key value (`n` buckets,
//! or `K` for `range=K`), as PBBS's histogram benchmark does.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use clap::Parser;
use splitsteal::{par, Current, ForkJoin, Policy, ThreadPoolBuilder};
use splitsteal_bench::pbbs_io::generate;

#[derive(Parser)]
struct Args {
    /// Input size.
    #[arg(long, default_value_t = 10_000_000)]
    n: usize,
    /// Timed runs per cell (the median is reported).
    #[arg(long, default_value_t = 5)]
    reps: usize,
    /// Thread counts.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    threads: Vec<usize>,
    /// splitsteal policies ("all" for every one).
    #[arg(long, value_delimiter = ',', default_value = "all")]
    policies: Vec<String>,
    /// Only these primitives (default: all).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Morsel size of the splitsteal pools (bytes).
    #[arg(long)]
    morsel: Option<usize>,
    /// Measure these morsel sizes on the given primitives instead (splitsteal pools only).
    #[arg(long, value_delimiter = ',')]
    morsel_sweep: Vec<usize>,
    /// Input family: random, expt, almost, range=K, equal, reversed.
    #[arg(long, default_value = "random", value_parser = parse_family)]
    input: Family,
}

/// PBBS's input families (see the module docs).
#[derive(Clone, Copy, Debug)]
enum Family {
    Random,
    Expt,
    Almost,
    Range(u64),
    Equal,
    Reversed,
}

fn parse_family(s: &str) -> Result<Family, String> {
    Ok(match s {
        "random" => Family::Random,
        "expt" => Family::Expt,
        "almost" => Family::Almost,
        "equal" => Family::Equal,
        "reversed" => Family::Reversed,
        _ => match s.strip_prefix("range=").map(str::parse::<u64>) {
            Some(Ok(k)) if k > 0 => Family::Range(k),
            _ => {
                return Err(format!(
                    "unknown input family {s:?}: expected random, expt, almost, range=K (K > 0), equal or reversed"
                ))
            }
        },
    })
}

/// A `ForkJoin` over rayon's global or installed pool.
#[derive(Clone, Copy)]
struct RayonCtx;

impl ForkJoin for RayonCtx {
    fn join<A, B, RA, RB>(&mut self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(&mut Self) -> RA + Send,
        B: FnOnce(&mut Self) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        rayon::join(|| a(&mut RayonCtx), || b(&mut RayonCtx))
    }
    fn num_threads(&self) -> usize {
        rayon::current_num_threads()
    }
}

const PRIMITIVES: &[&str] = &[
    "tabulate",
    "map",
    "sum",
    "map_reduce",
    "scan",
    "scan_inplace",
    "filter",
    "sort",
    "sort_unstable",
    "integer_sort",
    "integer_sort_pairs",
    "histogram_256",
    "histogram_n/16",
    "histogram",
    "remove_duplicates",
    "remove_duplicates_in_order",
];

struct Input {
    n: usize,
    /// Uniform random u64.
    v: Vec<u64>,
    /// (key < 2^24, payload) pairs: PBBS integer-sort style.
    pairs: Vec<(u32, u32)>,
    /// Keys in `0..range` (PBBS's randomSeq / exptSeq style): `remove_duplicates`' input
    /// and `histogram`'s keys.
    dups: Vec<u64>,
    /// The bucket count of `histogram`: the key range of `dups`.
    range: usize,
}

impl Input {
    fn new(n: usize, family: Family) -> Input {
        const SEED: u64 = 0x2545_f491_4f6c_dd1d;
        let to_u64 = |v: Vec<i64>| -> Vec<u64> { v.into_iter().map(|x| x as u64).collect() };
        let key24 = |v: Vec<u64>| -> Vec<(u32, u32)> {
            v.into_iter()
                .enumerate()
                .map(|(i, k)| ((k % (1 << 24)) as u32, i as u32))
                .collect()
        };
        let nn = (n as u64).max(1);
        let (v, pairs, dups, range) = match family {
            Family::Random => {
                let mut s = SEED;
                let v: Vec<u64> = (0..n).map(|_| xorshift(&mut s)).collect();
                let pairs = (0..n)
                    .map(|i| ((xorshift(&mut s) % (1 << 24)) as u32, i as u32))
                    .collect();
                (v, pairs, to_u64(generate::random_seq(n, nn, SEED ^ 2)), nn)
            }
            Family::Expt => {
                let v = to_u64(generate::expt_seq(n, nn, SEED));
                let pairs = key24(to_u64(generate::expt_seq(n, 1 << 24, SEED ^ 1)));
                (v.clone(), pairs, v, nn)
            }
            Family::Almost => {
                let v = to_u64(generate::almost_sorted_seq(
                    n,
                    generate::default_swaps(n),
                    SEED,
                ));
                (v.clone(), key24(v.clone()), v, nn)
            }
            Family::Range(k) => {
                let v = to_u64(generate::random_seq(n, k, SEED));
                let pairs = key24(to_u64(generate::random_seq(n, k.min(1 << 24), SEED ^ 1)));
                (v.clone(), pairs, v, k)
            }
            Family::Equal => {
                let v = vec![nn / 2; n];
                (v.clone(), key24(v.clone()), v, nn)
            }
            Family::Reversed => {
                let v: Vec<u64> = (0..n as u64).rev().collect();
                (v.clone(), key24(v.clone()), v, nn)
            }
        };
        Input {
            n,
            v,
            pairs,
            dups,
            range: range as usize,
        }
    }
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

#[inline]
fn mix(i: u64) -> u64 {
    let mut h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= h >> 29;
    h.wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

fn checksum(v: &[u64]) -> u64 {
    v.iter()
        .fold(0u64, |a, &x| a.rotate_left(1) ^ x)
        .wrapping_add(v.len() as u64)
}

/// A checksum that ignores order, for `remove_duplicates`' unordered output.
fn set_checksum(v: &[u64]) -> u64 {
    v.iter()
        .fold(0u64, |a, &x| a.wrapping_add(mix(x)))
        .wrapping_add(v.len() as u64)
}

fn pairs_checksum(v: &[(u32, u32)]) -> u64 {
    v.iter().fold(0u64, |a, &(k, p)| {
        a.rotate_left(1) ^ ((k as u64) << 32 | p as u64)
    })
}

/// Runs primitive `name` once with the generic layer; returns (time, checksum).
fn run_par<C: ForkJoin>(name: &str, c: &mut C, inp: &Input) -> (Duration, u64) {
    let v = &inp.v;
    match name {
        "tabulate" => timed(|| checksum(&par::tabulate(c, inp.n, |i| mix(i as u64)))),
        "map" => timed(|| checksum(&par::map(c, v, |x| x.wrapping_mul(3) ^ 7))),
        "sum" => timed(|| par::map_reduce(c, v, |&x| x, || 0u64, u64::wrapping_add)),
        "map_reduce" => timed(|| par::map_reduce(c, v, |&x| x >> 40, || 0u64, |a, b| a + b)),
        "scan" => timed(|| checksum(&par::scan(c, v, || 0u64, u64::wrapping_add).0)),
        "scan_inplace" => {
            let mut w = v.clone();
            let (t, _) = timed(|| par::scan_inplace(c, &mut w, || 0u64, u64::wrapping_add));
            (t, checksum(&w))
        }
        "filter" => timed(|| checksum(&par::filter(c, v, |x| x % 3 == 0))),
        "sort" => {
            let mut w = v.clone();
            let (t, _) = timed(|| par::sort(c, &mut w));
            (t, checksum(&w))
        }
        "sort_unstable" => {
            let mut w = v.clone();
            let (t, _) = timed(|| par::sort_unstable(c, &mut w));
            (t, checksum(&w))
        }
        "integer_sort" => {
            let mut w = v.clone();
            let (t, _) = timed(|| par::integer_sort(c, &mut w));
            (t, checksum(&w))
        }
        "integer_sort_pairs" => {
            let mut w = inp.pairs.clone();
            let (t, _) = timed(|| par::integer_sort_by_key(c, &mut w, 24, |p| p.0 as u64));
            (t, pairs_checksum(&w))
        }
        "histogram_256" => {
            timed(|| checksum_usize(&par::histogram(c, v, 256, |&x| (x >> 56) as usize)))
        }
        "histogram_n/16" => {
            let b = (inp.n / 16).max(1);
            timed(|| checksum_usize(&par::histogram(c, v, b, |&x| (x % b as u64) as usize)))
        }
        "histogram" => {
            timed(|| checksum_usize(&par::histogram(c, &inp.dups, inp.range, |&x| x as usize)))
        }
        "remove_duplicates" => timed(|| set_checksum(&par::remove_duplicates(c, &inp.dups))),
        "remove_duplicates_in_order" => {
            timed(|| checksum(&par::remove_duplicates_in_order(c, &inp.dups)))
        }
        _ => panic!("unknown primitive {name}"),
    }
}

/// Runs rayon's equivalent (in the current rayon pool).
fn run_rayon(name: &str, inp: &Input) -> (Duration, u64) {
    use rayon::prelude::*;
    let v = &inp.v;
    match name {
        "tabulate" => timed(|| {
            checksum(
                &(0..inp.n)
                    .into_par_iter()
                    .map(|i| mix(i as u64))
                    .collect::<Vec<_>>(),
            )
        }),
        "map" => timed(|| {
            checksum(
                &v.par_iter()
                    .map(|x| x.wrapping_mul(3) ^ 7)
                    .collect::<Vec<_>>(),
            )
        }),
        "sum" => timed(|| v.par_iter().copied().reduce(|| 0, u64::wrapping_add)),
        "map_reduce" => timed(|| v.par_iter().map(|&x| x >> 40).sum::<u64>()),
        // rayon has no scan: the two-pass idiom a rayon user writes.
        "scan" => timed(|| checksum(&rayon_scan(v))),
        "scan_inplace" => {
            let mut w = v.clone();
            let (t, _) = timed(|| rayon_scan_inplace(&mut w));
            (t, checksum(&w))
        }
        "filter" => timed(|| {
            checksum(
                &v.par_iter()
                    .filter(|&&x| x % 3 == 0)
                    .copied()
                    .collect::<Vec<_>>(),
            )
        }),
        "sort" => {
            let mut w = v.clone();
            let (t, _) = timed(|| w.par_sort());
            (t, checksum(&w))
        }
        "sort_unstable" | "integer_sort" => {
            let mut w = v.clone();
            let (t, _) = timed(|| w.par_sort_unstable());
            (t, checksum(&w))
        }
        "integer_sort_pairs" => {
            let mut w = inp.pairs.clone();
            let (t, _) = timed(|| w.par_sort_by_key(|p| p.0));
            (t, pairs_checksum(&w))
        }
        "histogram_256" => timed(|| checksum_usize(&rayon_hist(v, 256, |x| (x >> 56) as usize))),
        "histogram_n/16" => {
            let b = (inp.n / 16).max(1);
            timed(|| checksum_usize(&rayon_hist(v, b, |x| (x % b as u64) as usize)))
        }
        "histogram" => timed(|| checksum_usize(&rayon_hist(&inp.dups, inp.range, |x| x as usize))),
        // A rayon user's dedup (issue 16's reference): copy, sort, dedup. Sorted, not in
        // input order, so `remove_duplicates_in_order`'s rayon cell is not checked.
        "remove_duplicates" | "remove_duplicates_in_order" => timed(|| {
            let mut w = inp.dups.clone();
            w.par_sort_unstable();
            w.dedup();
            set_checksum(&w)
        }),
        _ => panic!("unknown primitive {name}"),
    }
}

fn rayon_scan(v: &[u64]) -> Vec<u64> {
    use rayon::prelude::*;
    let chunk = v
        .len()
        .div_ceil(rayon::current_num_threads() * 16)
        .max(4096);
    let sums: Vec<u64> = v
        .par_chunks(chunk)
        .map(|c| c.iter().fold(0, |a: u64, &x| a.wrapping_add(x)))
        .collect();
    let mut offs = Vec::with_capacity(sums.len());
    let mut acc = 0u64;
    for s in sums {
        offs.push(acc);
        acc = acc.wrapping_add(s);
    }
    let mut out = vec![0u64; v.len()];
    out.par_chunks_mut(chunk)
        .zip(v.par_chunks(chunk))
        .zip(offs)
        .for_each(|((o, c), mut acc)| {
            for (o, &x) in o.iter_mut().zip(c) {
                *o = acc;
                acc = acc.wrapping_add(x);
            }
        });
    out
}

fn rayon_scan_inplace(v: &mut [u64]) {
    use rayon::prelude::*;
    let chunk = v
        .len()
        .div_ceil(rayon::current_num_threads() * 16)
        .max(4096);
    let sums: Vec<u64> = v
        .par_chunks(chunk)
        .map(|c| c.iter().fold(0, |a: u64, &x| a.wrapping_add(x)))
        .collect();
    let mut offs = Vec::with_capacity(sums.len());
    let mut acc = 0u64;
    for s in sums {
        offs.push(acc);
        acc = acc.wrapping_add(s);
    }
    v.par_chunks_mut(chunk).zip(offs).for_each(|(c, mut acc)| {
        for x in c {
            let y = *x;
            *x = acc;
            acc = acc.wrapping_add(y);
        }
    });
}

fn rayon_hist(v: &[u64], b: usize, key: impl Fn(u64) -> usize + Sync) -> Vec<usize> {
    use rayon::prelude::*;
    v.par_iter()
        .fold(
            || vec![0usize; b],
            |mut h, &x| {
                h[key(x)] += 1;
                h
            },
        )
        .reduce(
            || vec![0usize; b],
            |mut a, h| {
                a.iter_mut().zip(h).for_each(|(x, y)| *x += y);
                a
            },
        )
}

fn checksum_usize(v: &[usize]) -> u64 {
    v.iter().fold(0u64, |a, &x| a.rotate_left(1) ^ x as u64)
}

/// Sequential std code.
fn run_std(name: &str, inp: &Input) -> (Duration, u64) {
    let v = &inp.v;
    match name {
        "tabulate" => timed(|| checksum(&(0..inp.n).map(|i| mix(i as u64)).collect::<Vec<_>>())),
        "map" => timed(|| checksum(&v.iter().map(|x| x.wrapping_mul(3) ^ 7).collect::<Vec<_>>())),
        "sum" => timed(|| v.iter().copied().fold(0, u64::wrapping_add)),
        "map_reduce" => timed(|| v.iter().map(|&x| x >> 40).sum::<u64>()),
        "scan" => timed(|| {
            let mut acc = 0u64;
            let out: Vec<u64> = v
                .iter()
                .map(|&x| {
                    let o = acc;
                    acc = acc.wrapping_add(x);
                    o
                })
                .collect();
            checksum(&out)
        }),
        "scan_inplace" => {
            let mut w = v.clone();
            let (t, _) = timed(|| {
                let mut acc = 0u64;
                for x in w.iter_mut() {
                    let y = *x;
                    *x = acc;
                    acc = acc.wrapping_add(y);
                }
            });
            (t, checksum(&w))
        }
        "filter" => timed(|| {
            checksum(
                &v.iter()
                    .filter(|&&x| x % 3 == 0)
                    .copied()
                    .collect::<Vec<_>>(),
            )
        }),
        "sort" => {
            let mut w = v.clone();
            let (t, _) = timed(|| w.sort());
            (t, checksum(&w))
        }
        "sort_unstable" | "integer_sort" => {
            let mut w = v.clone();
            let (t, _) = timed(|| w.sort_unstable());
            (t, checksum(&w))
        }
        "integer_sort_pairs" => {
            let mut w = inp.pairs.clone();
            let (t, _) = timed(|| w.sort_by_key(|p| p.0));
            (t, pairs_checksum(&w))
        }
        "histogram_256" => timed(|| {
            let mut h = vec![0usize; 256];
            v.iter().for_each(|&x| h[(x >> 56) as usize] += 1);
            checksum_usize(&h)
        }),
        "histogram_n/16" => {
            let b = (inp.n / 16).max(1);
            timed(|| {
                let mut h = vec![0usize; b];
                v.iter().for_each(|&x| h[(x % b as u64) as usize] += 1);
                checksum_usize(&h)
            })
        }
        "histogram" => timed(|| {
            let mut h = vec![0usize; inp.range];
            inp.dups.iter().for_each(|&x| h[x as usize] += 1);
            checksum_usize(&h)
        }),
        "remove_duplicates" | "remove_duplicates_in_order" => timed(|| {
            let mut seen = HashSet::with_capacity(inp.dups.len());
            let out: Vec<u64> = inp
                .dups
                .iter()
                .copied()
                .filter(|x| seen.insert(*x))
                .collect();
            if name == "remove_duplicates" {
                set_checksum(&out)
            } else {
                checksum(&out)
            }
        }),
        _ => panic!("unknown primitive {name}"),
    }
}

fn timed<R>(f: impl FnOnce() -> R) -> (Duration, R) {
    let t0 = Instant::now();
    let r = std::hint::black_box(f());
    (t0.elapsed(), r)
}

fn main() {
    let args = Args::parse();
    let n = args.n;
    let inp = Input::new(n, args.input);
    let policies: Vec<Policy> = if args.policies.iter().any(|p| p == "all") {
        Policy::ALL.to_vec()
    } else {
        args.policies
            .iter()
            .map(|p| p.parse().expect("policy"))
            .collect()
    };
    let prims: Vec<&str> = if args.only.is_empty() {
        PRIMITIVES.to_vec()
    } else {
        PRIMITIVES
            .iter()
            .copied()
            .filter(|p| args.only.iter().any(|o| o == p))
            .collect()
    };

    if !args.morsel_sweep.is_empty() {
        morsel_sweep(&args, &inp, &prims, &policies);
        return;
    }

    println!(
        "# primitives, n = {n}, input {:?}, median of {} runs (ms)\n",
        args.input, args.reps
    );
    let mut cols = vec!["std".to_string()];
    for &t in &args.threads {
        cols.push(format!("rayon t{t}"));
        cols.push(format!("par@rayon t{t}"));
        for p in &policies {
            cols.push(format!("par@{p} t{t}"));
        }
    }
    println!("| primitive | {} |", cols.join(" | "));
    println!("|---|{}", "---:|".repeat(cols.len()));
    let rpools: Vec<rayon::ThreadPool> = args
        .threads
        .iter()
        .map(|&t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
        })
        .collect();
    let spools: Vec<Vec<splitsteal::ThreadPool>> = args
        .threads
        .iter()
        .map(|&t| {
            policies
                .iter()
                .map(|&p| {
                    let mut b = ThreadPoolBuilder::new().num_threads(t).policy(p);
                    if let Some(m) = args.morsel {
                        b = b.morsel_bytes(m);
                    }
                    b.build().unwrap()
                })
                .collect()
        })
        .collect();
    for name in prims {
        // The reference result (rayon's dedup is sorted: no check of the in-order one).
        let want = run_std(name, &inp).1;
        let rw = if name == "remove_duplicates_in_order" {
            None
        } else {
            Some(want)
        };
        let inp = &inp;
        let mut cells: Vec<Cell<'_>> =
            vec![Cell::new(Some(want), Box::new(move || run_std(name, inp)))];
        for (ti, _) in args.threads.iter().enumerate() {
            let rp = &rpools[ti];
            cells.push(Cell::new(
                rw,
                Box::new(move || rp.install(|| run_rayon(name, inp))),
            ));
            cells.push(Cell::new(
                Some(want),
                Box::new(move || rp.install(|| run_par(name, &mut RayonCtx, inp))),
            ));
            for pool in spools[ti].iter() {
                cells.push(Cell::new(
                    Some(want),
                    Box::new(move || pool.install(|| run_par(name, &mut Current, inp))),
                ));
            }
        }
        // Round-robin over the cells, so load from other processes hits all alike.
        for rep in 0..=args.reps {
            for c in cells.iter_mut() {
                c.run(rep > 0, name);
            }
        }
        let cells: Vec<String> = cells
            .iter()
            .map(|c| format!("{:.1}", c.median_ms()))
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
}

type Runner<'a> = Box<dyn FnMut() -> (Duration, u64) + 'a>;

/// One table cell: a runner, its expected checksum and its timed runs so far.
struct Cell<'a> {
    want: Option<u64>,
    f: Runner<'a>,
    times: Vec<Duration>,
}

impl<'a> Cell<'a> {
    fn new(want: Option<u64>, f: Runner<'a>) -> Self {
        Cell {
            want,
            f,
            times: Vec::new(),
        }
    }
    fn run(&mut self, timed: bool, name: &str) {
        let (t, c) = (self.f)();
        if let Some(w) = self.want {
            assert_eq!(c, w, "{name}: wrong result");
        }
        if timed {
            self.times.push(t);
        }
    }
    /// The median timed run (the lower middle one for an even count).
    fn median_ms(&self) -> f64 {
        let mut t = self.times.clone();
        t.sort_unstable();
        t.get(t.len().saturating_sub(1) / 2)
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
    }
}

fn morsel_sweep(args: &Args, inp: &Input, prims: &[&str], policies: &[Policy]) {
    println!(
        "# morsel sweep, n = {}, median of {} runs (ms)\n",
        inp.n, args.reps
    );
    for &t in &args.threads {
        for &p in policies {
            let cols: Vec<String> = args.morsel_sweep.iter().map(|m| format!("{m} B")).collect();
            println!(
                "\n## {p}, {t} threads\n\n| primitive | {} |",
                cols.join(" | ")
            );
            println!("|---|{}", "---:|".repeat(cols.len()));
            let pools: Vec<splitsteal::ThreadPool> = args
                .morsel_sweep
                .iter()
                .map(|&m| {
                    ThreadPoolBuilder::new()
                        .num_threads(t)
                        .policy(p)
                        .morsel_bytes(m)
                        .build()
                        .unwrap()
                })
                .collect();
            for &name in prims {
                let want = run_std(name, inp).1;
                let mut cells: Vec<Cell<'_>> = pools
                    .iter()
                    .map(|pool| {
                        Cell::new(
                            Some(want),
                            Box::new(move || pool.install(|| run_par(name, &mut Current, inp))),
                        )
                    })
                    .collect();
                for rep in 0..=args.reps {
                    for c in cells.iter_mut() {
                        c.run(rep > 0, name);
                    }
                }
                let cells: Vec<String> = cells
                    .iter()
                    .map(|c| format!("{:.2}", c.median_ms()))
                    .collect();
                println!("| {name} | {} |", cells.join(" | "));
            }
        }
    }
}

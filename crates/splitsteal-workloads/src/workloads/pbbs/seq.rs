//! Sequence benchmarks: integer sort, comparison sort, histogram, remove duplicates.

use std::collections::HashSet;

use rand::RngExt;
use splitsteal::{par, ForkJoin};

use crate::workloads::{rng, DynWorkload, Group, Size, Workload, WorkloadSpec};

/// First position where `got` and `want` differ, as an error.
pub fn compare<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("length {} != expected {}", got.len(), want.len()));
    }
    match got.iter().zip(want).position(|(a, b)| a != b) {
        None => Ok(()),
        Some(i) => Err(format!(
            "element {i}: {:?} != expected {:?}",
            got[i], want[i]
        )),
    }
}

/// PBBS randomSeq_int: `n` keys uniform in `0..n`.
pub fn random_seq(n: usize, seed: u64, stream: u64) -> Vec<u32> {
    let mut r = rng(seed, stream);
    (0..n).map(|_| r.random_range(0..n as u32)).collect()
}

/// PBBS exptSeq_int (shape): `n` keys with an exponential distribution of mean `n / 64`,
/// clamped to `0..n` (many duplicates among the small keys).
pub fn exp_seq(n: usize, seed: u64, stream: u64) -> Vec<u32> {
    let mut r = rng(seed, stream);
    (0..n)
        .map(|_| {
            let u: f64 = r.random();
            ((-(1.0 - u).ln()) * (n as f64 / 64.0)).min(n as f64 - 1.0) as u32
        })
        .collect()
}

/// Integer sort of `u32` keys.
#[derive(Debug)]
pub struct IntSort {
    keys: Vec<u32>,
    sorted: Vec<u32>,
}

impl Workload for IntSort {
    type Input = Vec<u32>;
    type Output = Vec<u32>;
    fn input(&self) -> Vec<u32> {
        self.keys.clone()
    }
    fn run<C: ForkJoin>(&self, c: &mut C, mut v: Vec<u32>) -> Vec<u32> {
        par::integer_sort(c, &mut v);
        v
    }
    fn check(&self, out: &Vec<u32>) -> Result<(), String> {
        compare(out, &self.sorted)
    }
}

fn isort(keys: Vec<u32>) -> Box<dyn DynWorkload> {
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    Box::new(IntSort { keys, sorted })
}

fn n_isort(s: Size) -> usize {
    s.pick(50_000, 1_000_000, 6_000_000)
}

/// Registry entry: integer sort, random keys.
pub fn spec_isort_random() -> WorkloadSpec {
    WorkloadSpec {
        name: "isort-rand",
        group: Group::Pbbs,
        description: "PBBS integerSort on randomSeq_int: parallel radix sort (par::integer_sort)",
        params: |s| format!("{} u32 keys uniform in 0..n", n_isort(s)),
        build: |s, seed| isort(random_seq(n_isort(s), seed, 10)),
    }
}

/// Registry entry: integer sort, exponentially distributed keys.
pub fn spec_isort_exp() -> WorkloadSpec {
    WorkloadSpec {
        name: "isort-exp",
        group: Group::Pbbs,
        description: "PBBS integerSort on exptSeq_int: parallel radix sort of skewed keys",
        params: |s| format!("{} u32 keys, exponential with mean n/64", n_isort(s)),
        build: |s, seed| isort(exp_seq(n_isort(s), seed, 11)),
    }
}

/// Comparison sort of `f64` keys.
#[derive(Debug)]
pub struct FloatSort {
    keys: Vec<f64>,
    sorted: Vec<f64>,
}

impl Workload for FloatSort {
    type Input = Vec<f64>;
    type Output = Vec<f64>;
    fn input(&self) -> Vec<f64> {
        self.keys.clone()
    }
    fn run<C: ForkJoin>(&self, c: &mut C, mut v: Vec<f64>) -> Vec<f64> {
        par::sort_unstable_by(c, &mut v, f64::total_cmp);
        v
    }
    fn check(&self, out: &Vec<f64>) -> Result<(), String> {
        // Bitwise: a sort only moves values.
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        compare(&bits(out), &bits(&self.sorted))
    }
}

fn n_sort(s: Size) -> usize {
    s.pick(50_000, 500_000, 3_000_000)
}

/// Registry entry: comparison sort.
pub fn spec_sort() -> WorkloadSpec {
    WorkloadSpec {
        name: "sort",
        group: Group::Pbbs,
        description:
            "PBBS comparisonSort on randomSeq_double: parallel merge sort (par::sort_unstable_by)",
        params: |s| format!("{} f64 uniform in [0, 1)", n_sort(s)),
        build: |s, seed| {
            let mut r = rng(seed, 12);
            let keys: Vec<f64> = (0..n_sort(s)).map(|_| r.random::<f64>()).collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable_by(f64::total_cmp);
            Box::new(FloatSort { keys, sorted }) as Box<dyn DynWorkload>
        },
    }
}

/// Histogram of keys into `buckets` buckets.
#[derive(Debug)]
pub struct Histogram {
    keys: Vec<u32>,
    buckets: usize,
    expected: Vec<usize>,
}

impl Workload for Histogram {
    type Input = ();
    type Output = Vec<usize>;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> Vec<usize> {
        par::histogram(c, &self.keys, self.buckets, |&k| k as usize)
    }
    fn check(&self, out: &Vec<usize>) -> Result<(), String> {
        compare(out, &self.expected)
    }
}

fn n_hist(s: Size) -> usize {
    s.pick(50_000, 10_000_000, 60_000_000)
}

/// PBBS's histogram input randomSeq_100M_100K_int has 100K buckets.
pub const HIST_BUCKETS: usize = 100_000;

/// Registry entry: histogram.
pub fn spec_histogram() -> WorkloadSpec {
    WorkloadSpec {
        name: "histogram",
        group: Group::Pbbs,
        description: "PBBS histogram on randomSeq_100K_int: par::histogram into 100K buckets",
        params: |s| format!("{} u32 keys uniform in 0..{HIST_BUCKETS}", n_hist(s)),
        build: |s, seed| {
            let mut r = rng(seed, 13);
            let keys: Vec<u32> = (0..n_hist(s))
                .map(|_| r.random_range(0..HIST_BUCKETS as u32))
                .collect();
            let mut expected = vec![0usize; HIST_BUCKETS];
            for &k in &keys {
                expected[k as usize] += 1;
            }
            Box::new(Histogram {
                keys,
                buckets: HIST_BUCKETS,
                expected,
            }) as Box<dyn DynWorkload>
        },
    }
}

/// Remove duplicates (PBBS's removeDuplicates: any order), checked as a sorted list.
#[derive(Debug)]
pub struct Dedup {
    keys: Vec<u32>,
    expected: Vec<u32>,
}

impl Workload for Dedup {
    type Input = ();
    type Output = Vec<u32>;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> Vec<u32> {
        par::remove_duplicates(c, &self.keys)
    }
    fn check(&self, out: &Vec<u32>) -> Result<(), String> {
        let mut sorted = out.clone();
        sorted.sort_unstable();
        compare(&sorted, &self.expected)
    }
}

fn n_dedup(s: Size) -> usize {
    s.pick(50_000, 300_000, 1_500_000)
}

/// Registry entry: remove duplicates.
pub fn spec_dedup() -> WorkloadSpec {
    WorkloadSpec {
        name: "dedup",
        group: Group::Pbbs,
        description:
            "PBBS removeDuplicates on randomSeq_int: par::remove_duplicates (concurrent hash table)",
        params: |s| format!("{} u32 keys uniform in 0..n", n_dedup(s)),
        build: |s, seed| {
            let keys = random_seq(n_dedup(s), seed, 14);
            let mut seen = HashSet::with_capacity(keys.len());
            let mut expected: Vec<u32> = keys.iter().copied().filter(|k| seen.insert(*k)).collect();
            expected.sort_unstable();
            Box::new(Dedup { keys, expected }) as Box<dyn DynWorkload>
        },
    }
}

//! `cilksort`: Cilk's parallel merge sort (the low-latency thesis's "cilksort",
//! §4.2.1).
//!
//! Sort four quarters in parallel, merge them pairwise into a buffer in parallel, then
//! merge the two halves back. Merges are parallel too: split the longer run at its middle,
//! binary-search the split point in the other, and merge both halves in parallel. Leaves
//! below [`SORT_CUTOFF`] use the standard library's unstable sort; merges below
//! [`MERGE_CUTOFF`] are serial.

use rand::RngExt;
use splitsteal::ForkJoin;

use super::{rng, DynWorkload, Group, Size, Workload, WorkloadSpec};

/// Length below which a quarter is sorted serially.
pub const SORT_CUTOFF: usize = 2048;
/// Total length below which a merge is serial.
pub const MERGE_CUTOFF: usize = 2048;

fn serial_merge(x: &[u64], y: &[u64], out: &mut [u64]) {
    let (mut i, mut j) = (0, 0);
    for o in out.iter_mut() {
        if j >= y.len() || (i < x.len() && x[i] <= y[j]) {
            *o = x[i];
            i += 1;
        } else {
            *o = y[j];
            j += 1;
        }
    }
}

/// Merges the sorted runs `x` and `y` into `out` (`out.len() == x.len() + y.len()`).
pub fn merge<C: ForkJoin>(c: &mut C, x: &[u64], y: &[u64], out: &mut [u64]) {
    let (x, y) = if x.len() < y.len() { (y, x) } else { (x, y) };
    if x.len() + y.len() <= MERGE_CUTOFF || y.is_empty() {
        serial_merge(x, y, out);
        return;
    }
    let mx = x.len() / 2;
    let my = y.partition_point(|&v| v < x[mx]);
    let (o1, o2) = out.split_at_mut(mx + my);
    let (x1, x2) = x.split_at(mx);
    let (y1, y2) = y.split_at(my);
    c.join(|c| merge(c, x1, y1, o1), |c| merge(c, x2, y2, o2));
}

/// Sorts `a` using `tmp` (same length) as scratch.
pub fn cilksort<C: ForkJoin>(c: &mut C, a: &mut [u64], tmp: &mut [u64]) {
    let n = a.len();
    if n <= SORT_CUTOFF {
        a.sort_unstable();
        return;
    }
    let q = n / 4;
    let (a1, rest) = a.split_at_mut(q);
    let (a2, rest) = rest.split_at_mut(q);
    let (a3, a4) = rest.split_at_mut(q);
    let (t1, rest) = tmp.split_at_mut(q);
    let (t2, rest) = rest.split_at_mut(q);
    let (t3, t4) = rest.split_at_mut(q);
    c.join(
        |c| c.join(|c| cilksort(c, a1, t1), |c| cilksort(c, a2, t2)),
        |c| c.join(|c| cilksort(c, a3, t3), |c| cilksort(c, a4, t4)),
    );
    let (tl, tr) = tmp.split_at_mut(2 * q);
    {
        let (a1, a2, a3, a4) = (&*a1, &*a2, &*a3, &*a4);
        c.join(|c| merge(c, a1, a2, tl), |c| merge(c, a3, a4, tr));
    }
    merge(c, tl, tr, a);
}

/// The `cilksort` workload.
#[derive(Debug)]
pub struct CilkSort {
    keys: Vec<u64>,
    sorted: Vec<u64>,
}

impl CilkSort {
    /// `n` uniformly random 64-bit keys.
    pub fn new(n: usize, seed: u64) -> CilkSort {
        let mut r = rng(seed, 5);
        let keys: Vec<u64> = (0..n).map(|_| r.random::<u64>()).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        CilkSort { keys, sorted }
    }
}

impl Workload for CilkSort {
    type Input = (Vec<u64>, Vec<u64>);
    type Output = Vec<u64>;
    fn input(&self) -> (Vec<u64>, Vec<u64>) {
        (self.keys.clone(), vec![0; self.keys.len()])
    }
    fn run<C: ForkJoin>(&self, c: &mut C, (mut a, mut tmp): (Vec<u64>, Vec<u64>)) -> Vec<u64> {
        cilksort(c, &mut a, &mut tmp);
        a
    }
    fn check(&self, out: &Vec<u64>) -> Result<(), String> {
        match out.iter().zip(&self.sorted).position(|(a, b)| a != b) {
            None if out.len() == self.sorted.len() => Ok(()),
            None => Err(format!("length {} != {}", out.len(), self.sorted.len())),
            Some(i) => Err(format!("position {i}: {} != {}", out[i], self.sorted[i])),
        }
    }
}

fn n_for(size: Size) -> usize {
    size.pick(20_000, 800_000, 2_500_000)
}

/// Registry entry.
pub fn spec() -> WorkloadSpec {
    WorkloadSpec {
        name: "cilksort",
        group: Group::LowLatencyThesis,
        description: "Cilk's merge sort: 4-way recursion, parallel binary-search merges",
        params: |s| format!("{} random u64", n_for(s)),
        build: |s, seed| Box::new(CilkSort::new(n_for(s), seed)) as Box<dyn DynWorkload>,
    }
}

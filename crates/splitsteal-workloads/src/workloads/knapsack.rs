//! `knapsack`: 0/1 knapsack by branch and bound (the low-latency thesis's "knapsack", §4.2.1,
//! after Cilk's `knapsack.cilk`).
//!
//! Items are sorted by value density; each node forks "take the item" and "leave it" and
//! prunes when the linear bound `value + capacity * density(next item)` cannot beat the
//! best value found so far (a shared `AtomicU64`, updated with `fetch_max`). How much is
//! pruned depends on the order in which a scheduler runs the two branches: the result does
//! not, the work does (as in Cilk).

use std::sync::atomic::{AtomicU64, Ordering};

use rand::RngExt;
use splitsteal::ForkJoin;

use super::{rng, DynWorkload, Group, Size, Workload, WorkloadSpec};

/// One item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// Weight (at least 1).
    pub weight: u64,
    /// Value.
    pub value: u64,
}

fn search<C: ForkJoin>(c: &mut C, items: &[Item], cap: u64, value: u64, best: &AtomicU64) -> u64 {
    let Some((first, rest)) = items.split_first() else {
        return value;
    };
    if cap == 0 {
        return value;
    }
    // Upper bound: fill the remaining capacity at the best remaining density. Integer
    // arithmetic: value + floor(cap * v / w) >= the true bound's floor.
    let ub = value + cap * first.value / first.weight;
    if ub < best.load(Ordering::Relaxed) {
        return 0;
    }
    let (with, without) = c.join(
        |c| {
            if first.weight <= cap {
                search(c, rest, cap - first.weight, value + first.value, best)
            } else {
                0
            }
        },
        |c| search(c, rest, cap, value, best),
    );
    let r = with.max(without);
    best.fetch_max(r, Ordering::Relaxed);
    r
}

/// The best total value of a subset of `items` (sorted by decreasing density) of total
/// weight at most `cap`.
pub fn knapsack<C: ForkJoin>(c: &mut C, items: &[Item], cap: u64) -> u64 {
    let best = AtomicU64::new(0);
    search(c, items, cap, 0, &best)
}

/// Reference: dynamic programming over the capacity, O(n · cap).
pub fn knapsack_reference(items: &[Item], cap: u64) -> u64 {
    let cap = cap as usize;
    let mut best = vec![0u64; cap + 1];
    for it in items {
        let w = it.weight as usize;
        for c in (w..=cap).rev() {
            best[c] = best[c].max(best[c - w] + it.value);
        }
    }
    best[cap]
}

/// Seed of the benchmark instances: the search effort of branch and bound swings by
/// orders of magnitude between random instances of one size, so the instances are fixed
/// (as Cilk's input files are) rather than drawn from `--seed`.
pub const INSTANCE_SEED: u64 = 0xC11C;

/// `n` items with weights in 1..=1000 and values = weight + 100 (strongly correlated:
/// hard for bounds), sorted by decreasing density; capacity = half the total weight.
pub fn generate(n: usize, seed: u64) -> (Vec<Item>, u64) {
    let mut r = rng(seed, 3);
    let mut items: Vec<Item> = (0..n)
        .map(|_| {
            let weight = r.random_range(1..=1000u64);
            Item {
                weight,
                value: weight + 100,
            }
        })
        .collect();
    // Decreasing value/weight, compared exactly (cross-multiplied).
    items.sort_by(|a, b| (b.value * a.weight).cmp(&(a.value * b.weight)));
    let cap = items.iter().map(|i| i.weight).sum::<u64>() / 2;
    (items, cap)
}

/// The `knapsack` workload.
#[derive(Debug)]
pub struct Knapsack {
    items: Vec<Item>,
    cap: u64,
    expected: u64,
}

impl Workload for Knapsack {
    type Input = ();
    type Output = u64;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> u64 {
        knapsack(c, &self.items, self.cap)
    }
    fn check(&self, out: &u64) -> Result<(), String> {
        if *out == self.expected {
            Ok(())
        } else {
            Err(format!("best value {out}, expected {}", self.expected))
        }
    }
}

fn n_for(size: Size) -> usize {
    size.pick(16, 45, 50)
}

/// Registry entry.
pub fn spec() -> WorkloadSpec {
    WorkloadSpec {
        name: "knapsack",
        group: Group::LowLatencyThesis,
        description: "0/1 knapsack, branch and bound with a shared best value (Cilk's)",
        params: |s| {
            format!(
                "{} items, weight 1..=1000, value = weight + 100 (fixed instance)",
                n_for(s)
            )
        },
        build: |s, _seed| {
            let (items, cap) = generate(n_for(s), INSTANCE_SEED);
            let expected = knapsack_reference(&items, cap);
            Box::new(Knapsack {
                items,
                cap,
                expected,
            }) as Box<dyn DynWorkload>
        },
    }
}

// The fine-grained programs of the `iter` section: a few nanoseconds of work per item, so
// the cost of splitting (joins, the adaptive splitter, reductions) dominates. Like the port
// programs, this file is `include!`d twice, under `use rayon::{join, prelude::*};` and
// under `use splitsteal::{join, prelude::*};`, and knows nothing else.

/// Σ (x ^ x >> 3) over `0..n`: `into_par_iter().map().sum()` on a range, no memory traffic.
pub fn sum_map(n: u64) -> u64 {
    (0..n).into_par_iter().map(|x| x ^ (x >> 3)).sum()
}

/// The sum of every row's parallel sum: a parallel iterator nested in each item of another,
/// over short rows.
pub fn nested_sum(rows: &[Vec<u64>]) -> u64 {
    rows.par_iter().map(|row| row.par_iter().sum::<u64>()).sum()
}

/// How many elements are multiples of 3: `filter` then `count`.
pub fn filter_count(v: &[u64]) -> usize {
    v.par_iter().filter(|&&x| x % 3 == 0).count()
}

/// A hash of every element, collected in order into a new `Vec`.
pub fn collect_map(v: &[u64]) -> Vec<u64> {
    v.par_iter()
        .map(|&x| x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7)
        .collect()
}

/// The dot product of two vectors: `zip`, `map`, `sum`.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.par_iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Σ (2j + 1) over j in `0..i % 16`, for every i in `0..n`: `flat_map` into short ranges.
pub fn flat_map_ranges(n: u64) -> u64 {
    (0..n)
        .into_par_iter()
        .flat_map(|i| 0..i % 16)
        .map(|j| 2 * j + 1)
        .sum()
}

/// `par_sort_unstable`, in place.
pub fn sort_unstable(v: &mut [u64]) {
    v.par_sort_unstable();
}

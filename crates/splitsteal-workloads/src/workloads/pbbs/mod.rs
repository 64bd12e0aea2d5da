//! The LCWS-in-practice paper's PBBS benchmarks (§5), on generated inputs sized for this
//! machine, built on `splitsteal::par` (the same algorithm on every scheduler).
//!
//! | workload | PBBS benchmark (input) | algorithm here |
//! |---|---|---|
//! | `isort-rand` | integerSort (randomSeq_int) | `par::integer_sort` (radix) |
//! | `isort-exp` | integerSort (exptSeq_int) | `par::integer_sort` |
//! | `sort` | comparisonSort (randomSeq_double) | `par::sort_unstable_by` (merge sort) |
//! | `histogram` | histogram (randomSeq_100K_int) | `par::histogram` |
//! | `dedup` | removeDuplicates (randomSeq_int) | `par::remove_duplicates` |
//! | `wordcount` | wordCounts (generated text) | `par::tabulate`/`pack_index`/`sort`/`map` |
//! | `bfs` | breadthFirstSearch (rMatGraph) | frontier BFS: `par::map`, `scan`, `par_for_ranges`, `filter` |
//! | `mis` | maximalIndependentSet (rMatGraph) | deterministic greedy MIS in rounds: `par_for`, `filter` |
//! | `hull` | convexHull (2DinSphere) | quickhull: `par::map_reduce`, `filter`, `join` |
//!
//! Inputs are scaled down from PBBS's 10^8 elements to what a 2-core machine runs in a
//! fraction of a second per repetition.

pub mod graph;
pub mod hull;
pub mod seq;
pub mod text;

use super::WorkloadSpec;

/// The PBBS workloads, in report order.
pub fn specs() -> Vec<WorkloadSpec> {
    vec![
        seq::spec_isort_random(),
        seq::spec_isort_exp(),
        seq::spec_sort(),
        seq::spec_histogram(),
        seq::spec_dedup(),
        text::spec(),
        graph::spec_bfs(),
        graph::spec_mis(),
        hull::spec(),
    ]
}

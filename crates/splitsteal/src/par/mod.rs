//! Data-parallel primitives, written once against [`ForkJoin`](crate::ForkJoin).
//!
//! Every function takes the scheduler context first, so the same code runs on every
//! splitsteal policy, on rayon or chili through an adapter, and serially on
//! [`Serial`](crate::Serial):
//!
//! ```
//! use splitsteal::{par, Serial};
//!
//! let ctx = &mut Serial;
//! let mut v: Vec<u64> = par::tabulate(ctx, 1000, |i| (i as u64 * 7919) % 1000);
//! par::sort_unstable(ctx, &mut v);
//! assert!(v.windows(2).all(|w| w[0] <= w[1]));
//! let (prefix, total) = par::scan(ctx, &v, || 0, |a, b| a + b);
//! assert_eq!(total, v.iter().sum::<u64>());
//! assert_eq!(prefix[1], v[0]);
//! ```
//!
//! The same functions without the context argument, running on the splitsteal pool the
//! caller is in (via [`Current`](crate::Current)), are in [`current`].
//!
//! | primitive | algorithm | rayon equivalent |
//! |---|---|---|
//! | [`par_for`], [`par_for_grain`], [`par_for_ranges`] | recursive 9/16 splitting, timed grain | `into_par_iter().for_each` |
//! | [`for_each_mut`], [`blocks_mut`] | morsel-aligned leaves of the slice | `par_iter_mut().enumerate().for_each` |
//! | [`tabulate`], [`map`] | morsel-aligned writes into the uninitialized output | `map(..).collect()` |
//! | [`reduce`], [`map_reduce`], [`map_reduce_range`], [`sum`] | leaf folds combined in order | `reduce`, `sum` |
//! | [`scan`], [`scan_inclusive`], [`scan_inplace`], [`scan_inclusive_inplace`] | two-pass blocked scan, in cache-sized rounds for large arrays | none |
//! | [`filter`], [`pack`], [`pack_index`], [`dedup`] | bitmask + counts, scan, parallel copy | `filter(..).collect()` |
//! | [`sort`], [`sort_by`], [`sort_by_key`] | **stable** parallel merge sort, parallel merge | `par_sort*` |
//! | [`sort_unstable`], [`sort_unstable_by`], [`sort_unstable_by_key`] | the same, unstable leaf sorts | `par_sort_unstable*` |
//! | [`integer_sort`], [`integer_sort_by_key`] | **stable** radix sort: parallel MSD, then per bucket 16-bit LSD + insertion | `par_sort_by_key` |
//! | [`histogram`] | private per-block counts, or shared atomic counts | `fold` + `reduce` |
//! | [`remove_duplicates`] | concurrent open-addressing table of indices (CAS inserts) sized by a sampled distinct count, or a radix sort of hashes when nearly all are distinct; **unordered** | `collect::<HashSet<_>>()` |
//! | [`remove_duplicates_in_order`] | the same table keeping each value's smallest index, bitmap, pack; first occurrences in input order | none (itertools `unique`) |
//!
//! # How work is cut
//!
//! Loops split their range recursively on [`join`](crate::ForkJoin::join) at 9/16 of its
//! length (low-latency thesis: an exact halving makes the pieces of power-of-two
//! arrays alias in set-associative caches; the 9/16 point is taken relative to each
//! sub-range's start). With automatic granularity (the default) the first iterations are
//! timed on doubling prefixes until one takes about a microsecond, as ParlayLib's
//! `parallel_for` does (ParlayLib is the library the LCWS-in-practice paper ports LCWS
//! into), and that prefix size bounds the leaves from below. On a context with one thread
//! the whole input is a single leaf.
//!
//! # Morsels
//!
//! Leaves that write an output slice are *morsels* (low-latency thesis, after Leis
//! et al.): blocks of contiguous indices whose boundaries are the elements that start at an
//! address that is a multiple of [`ForkJoin::morsel_bytes`](crate::ForkJoin::morsel_bytes),
//! so two workers never write the same cache line. The morsel size is a pool builder setting
//! (`ThreadPoolBuilder::morsel_bytes`), default
//! [`DEFAULT_MORSEL_BYTES`](crate::fork::DEFAULT_MORSEL_BYTES) = 128. Measured with
//! `--morsel-sweep` of `splitsteal-bench`'s `primitives` example (10^7 u64, 2 threads,
//! `chase-lev` and `lcws-signal`), 64 B to 16 KiB are within 2% of each other for
//! `tabulate`, `map`, `scan` and `filter`: leaves are hundreds of KiB, so their few
//! boundaries cost nothing either way. 128 keeps the low-latency thesis's two cache lines
//! (padding to 128 B because some CPUs fetch two lines), the smallest size that is
//! safe against false sharing everywhere.
//! Large outputs are also advised onto transparent huge pages (Linux): at 10^7 elements,
//! 4 KiB page faults were most of the time of `map`, `tabulate` and `scan`.
//!
//! Two-pass primitives (scan, filter, radix sort) use their own blocks, aligned the same
//! way; `scan` goes over arrays larger than the caches in rounds, so that its second pass
//! over a block finds it in cache, and the radix sort's buckets are sized for L2.
//!
//! # Panics
//!
//! A panic in a user closure propagates to the caller once the other leaves have
//! finished. Outputs under construction are leaked, never dropped as if initialized;
//! slices being sorted keep every element (in an unspecified order).

mod basic;
pub mod current;
mod dedup;
mod filter;
mod hist;
mod radix;
mod scan;
mod sort;
mod split;
#[cfg(test)]
mod testkit;

pub use basic::{
    blocks_mut, for_each_mut, map, map_reduce, map_reduce_range, par_for, par_for_grain,
    par_for_ranges, reduce, sum, tabulate,
};
pub use dedup::{remove_duplicates, remove_duplicates_in_order};
pub use filter::{dedup, filter, pack, pack_index};
pub use hist::histogram;
pub use radix::{integer_sort, integer_sort_by_key, RadixKey};
pub use scan::{scan, scan_inclusive, scan_inclusive_inplace, scan_inplace};
pub use sort::{sort, sort_by, sort_by_key, sort_unstable, sort_unstable_by, sort_unstable_by_key};

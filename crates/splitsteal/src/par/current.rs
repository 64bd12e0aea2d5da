//! The primitives without a context argument: each runs the generic version of
//! [`crate::par`] on [`Current`], i.e. on the splitsteal pool the calling
//! thread is in (inside [`ThreadPool::install`](crate::ThreadPool::install)), else on the
//! global pool.
//!
//! ```
//! use splitsteal::{par::current as p, Policy, ThreadPoolBuilder};
//!
//! let pool = ThreadPoolBuilder::new().num_threads(2).policy(Policy::ChaseLev).build().unwrap();
//! let sorted = pool.install(|| {
//!     let mut v = p::tabulate(10_000, |i| (i * 7919) % 10_000);
//!     p::sort_unstable(&mut v);
//!     v
//! });
//! assert!(sorted.windows(2).all(|w| w[0] < w[1]));
//! ```

use std::cmp::Ordering;
use std::hash::Hash;
use std::iter::Sum;
use std::ops::Range;

use super::RadixKey;
use crate::Current;

/// [`par::par_for`](super::par_for) on the current pool.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// let n = AtomicUsize::new(0);
/// splitsteal::par::current::par_for(0..100, |_| {
///     n.fetch_add(1, Ordering::Relaxed);
/// });
/// assert_eq!(n.into_inner(), 100);
/// ```
pub fn par_for<F>(range: Range<usize>, f: F)
where
    F: Fn(usize) + Sync,
{
    super::par_for(&mut Current, range, f)
}

/// [`par::par_for_grain`](super::par_for_grain) on the current pool.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// let n = AtomicUsize::new(0);
/// splitsteal::par::current::par_for_grain(0..100, 10, |_| {
///     n.fetch_add(1, Ordering::Relaxed);
/// });
/// assert_eq!(n.into_inner(), 100);
/// ```
pub fn par_for_grain<F>(range: Range<usize>, grain: usize, f: F)
where
    F: Fn(usize) + Sync,
{
    super::par_for_grain(&mut Current, range, grain, f)
}

/// [`par::par_for_ranges`](super::par_for_ranges) on the current pool.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// let n = AtomicUsize::new(0);
/// splitsteal::par::current::par_for_ranges(0..100, |r| {
///     n.fetch_add(r.len(), Ordering::Relaxed);
/// });
/// assert_eq!(n.into_inner(), 100);
/// ```
pub fn par_for_ranges<F>(range: Range<usize>, f: F)
where
    F: Fn(Range<usize>) + Sync,
{
    super::par_for_ranges(&mut Current, range, f)
}

/// [`par::for_each_mut`](super::for_each_mut) on the current pool.
///
/// ```
/// let mut v = vec![0; 8];
/// splitsteal::par::current::for_each_mut(&mut v, |i, x| *x = i);
/// assert_eq!(v, [0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
pub fn for_each_mut<T, F>(v: &mut [T], f: F)
where
    T: Send,
    F: Fn(usize, &mut T) + Sync,
{
    super::for_each_mut(&mut Current, v, f)
}

/// [`par::blocks_mut`](super::blocks_mut) on the current pool.
///
/// ```
/// let mut v = vec![1u8; 1000];
/// splitsteal::par::current::blocks_mut(&mut v, |_, b| b.fill(2));
/// assert!(v.iter().all(|&x| x == 2));
/// ```
pub fn blocks_mut<T, F>(v: &mut [T], f: F)
where
    T: Send,
    F: Fn(usize, &mut [T]) + Sync,
{
    super::blocks_mut(&mut Current, v, f)
}

/// [`par::tabulate`](super::tabulate) on the current pool.
///
/// ```
/// assert_eq!(splitsteal::par::current::tabulate(4, |i| i * 2), [0, 2, 4, 6]);
/// ```
pub fn tabulate<T, F>(n: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    super::tabulate(&mut Current, n, f)
}

/// [`par::map`](super::map) on the current pool.
///
/// ```
/// assert_eq!(splitsteal::par::current::map(&[1, 2], |x| x + 1), [2, 3]);
/// ```
pub fn map<T, U, F>(v: &[T], f: F) -> Vec<U>
where
    T: Sync,
    U: Send,
    F: Fn(&T) -> U + Sync,
{
    super::map(&mut Current, v, f)
}

/// [`par::reduce`](super::reduce) on the current pool.
///
/// ```
/// assert_eq!(splitsteal::par::current::reduce(&[3, 9, 4], || 0, |a, b| a.max(b)), 9);
/// ```
pub fn reduce<T, ID, OP>(v: &[T], identity: ID, op: OP) -> T
where
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    super::reduce(&mut Current, v, identity, op)
}

/// [`par::map_reduce`](super::map_reduce) on the current pool.
///
/// ```
/// let total = splitsteal::par::current::map_reduce(&["ab", "c"], |s| s.len(), || 0, |a, b| a + b);
/// assert_eq!(total, 3);
/// ```
pub fn map_reduce<T, U, M, ID, OP>(v: &[T], map: M, identity: ID, op: OP) -> U
where
    T: Sync,
    U: Send,
    M: Fn(&T) -> U + Sync,
    ID: Fn() -> U + Sync,
    OP: Fn(U, U) -> U + Sync,
{
    super::map_reduce(&mut Current, v, map, identity, op)
}

/// [`par::map_reduce_range`](super::map_reduce_range) on the current pool.
///
/// ```
/// let s = splitsteal::par::current::map_reduce_range(0..5, |i| i, || 0, |a, b| a + b);
/// assert_eq!(s, 10);
/// ```
pub fn map_reduce_range<U, M, ID, OP>(range: Range<usize>, map: M, identity: ID, op: OP) -> U
where
    U: Send,
    M: Fn(usize) -> U + Sync,
    ID: Fn() -> U + Sync,
    OP: Fn(U, U) -> U + Sync,
{
    super::map_reduce_range(&mut Current, range, map, identity, op)
}

/// [`par::sum`](super::sum) on the current pool.
///
/// ```
/// assert_eq!(splitsteal::par::current::sum(&[1u32, 2, 3]), 6);
/// ```
pub fn sum<T>(v: &[T]) -> T
where
    T: Copy + Send + Sync + Sum<T>,
{
    super::sum(&mut Current, v)
}

/// [`par::scan`](super::scan) on the current pool.
///
/// ```
/// let (s, total) = splitsteal::par::current::scan(&[1, 2, 3], || 0, |a, b| a + b);
/// assert_eq!((s, total), (vec![0, 1, 3], 6));
/// ```
pub fn scan<T, ID, OP>(v: &[T], identity: ID, op: OP) -> (Vec<T>, T)
where
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    super::scan(&mut Current, v, identity, op)
}

/// [`par::scan_inclusive`](super::scan_inclusive) on the current pool.
///
/// ```
/// let s = splitsteal::par::current::scan_inclusive(&[1, 2, 3], || 0, |a, b| a + b);
/// assert_eq!(s, [1, 3, 6]);
/// ```
pub fn scan_inclusive<T, ID, OP>(v: &[T], identity: ID, op: OP) -> Vec<T>
where
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    super::scan_inclusive(&mut Current, v, identity, op)
}

/// [`par::scan_inplace`](super::scan_inplace) on the current pool.
///
/// ```
/// let mut v = vec![1, 2, 3];
/// assert_eq!(splitsteal::par::current::scan_inplace(&mut v, || 0, |a, b| a + b), 6);
/// assert_eq!(v, [0, 1, 3]);
/// ```
pub fn scan_inplace<T, ID, OP>(v: &mut [T], identity: ID, op: OP) -> T
where
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    super::scan_inplace(&mut Current, v, identity, op)
}

/// [`par::scan_inclusive_inplace`](super::scan_inclusive_inplace) on the current pool.
///
/// ```
/// let mut v = vec![1, 2, 3];
/// splitsteal::par::current::scan_inclusive_inplace(&mut v, || 0, |a, b| a + b);
/// assert_eq!(v, [1, 3, 6]);
/// ```
pub fn scan_inclusive_inplace<T, ID, OP>(v: &mut [T], identity: ID, op: OP)
where
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    super::scan_inclusive_inplace(&mut Current, v, identity, op)
}

/// [`par::filter`](super::filter) on the current pool.
///
/// ```
/// assert_eq!(splitsteal::par::current::filter(&[1, 2, 3, 4], |x| x % 2 == 0), [2, 4]);
/// ```
pub fn filter<T, P>(v: &[T], pred: P) -> Vec<T>
where
    T: Clone + Send + Sync,
    P: Fn(&T) -> bool + Sync,
{
    super::filter(&mut Current, v, pred)
}

/// [`par::pack`](super::pack) on the current pool.
///
/// ```
/// assert_eq!(splitsteal::par::current::pack(&[1, 2, 3], &[true, false, true]), [1, 3]);
/// ```
pub fn pack<T>(v: &[T], flags: &[bool]) -> Vec<T>
where
    T: Clone + Send + Sync,
{
    super::pack(&mut Current, v, flags)
}

/// [`par::pack_index`](super::pack_index) on the current pool.
///
/// ```
/// assert_eq!(splitsteal::par::current::pack_index(&[true, false, true]), [0, 2]);
/// ```
pub fn pack_index(flags: &[bool]) -> Vec<usize> {
    super::pack_index(&mut Current, flags)
}

/// [`par::dedup`](super::dedup) on the current pool.
///
/// ```
/// assert_eq!(splitsteal::par::current::dedup(&[1, 1, 2, 2, 1]), [1, 2, 1]);
/// ```
pub fn dedup<T>(v: &[T]) -> Vec<T>
where
    T: PartialEq + Clone + Send + Sync,
{
    super::dedup(&mut Current, v)
}

/// [`par::sort`](super::sort) (stable) on the current pool.
///
/// ```
/// let mut v = vec![3, 1, 2];
/// splitsteal::par::current::sort(&mut v);
/// assert_eq!(v, [1, 2, 3]);
/// ```
pub fn sort<T: Ord + Send>(v: &mut [T]) {
    super::sort(&mut Current, v)
}

/// [`par::sort_by`](super::sort_by) (stable) on the current pool.
///
/// ```
/// let mut v = vec![3, 1, 2];
/// splitsteal::par::current::sort_by(&mut v, |a, b| b.cmp(a));
/// assert_eq!(v, [3, 2, 1]);
/// ```
pub fn sort_by<T, F>(v: &mut [T], cmp: F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    super::sort_by(&mut Current, v, cmp)
}

/// [`par::sort_by_key`](super::sort_by_key) (stable) on the current pool.
///
/// ```
/// let mut v = vec![-3, 1, -2];
/// splitsteal::par::current::sort_by_key(&mut v, |x: &i32| x.abs());
/// assert_eq!(v, [1, -2, -3]);
/// ```
pub fn sort_by_key<T, K, F>(v: &mut [T], key: F)
where
    T: Send,
    K: Ord,
    F: Fn(&T) -> K + Sync,
{
    super::sort_by_key(&mut Current, v, key)
}

/// [`par::sort_unstable`](super::sort_unstable) on the current pool.
///
/// ```
/// let mut v = vec![3, 1, 2];
/// splitsteal::par::current::sort_unstable(&mut v);
/// assert_eq!(v, [1, 2, 3]);
/// ```
pub fn sort_unstable<T: Ord + Send>(v: &mut [T]) {
    super::sort_unstable(&mut Current, v)
}

/// [`par::sort_unstable_by`](super::sort_unstable_by) on the current pool.
///
/// ```
/// let mut v = vec![3, 1, 2];
/// splitsteal::par::current::sort_unstable_by(&mut v, |a, b| b.cmp(a));
/// assert_eq!(v, [3, 2, 1]);
/// ```
pub fn sort_unstable_by<T, F>(v: &mut [T], cmp: F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    super::sort_unstable_by(&mut Current, v, cmp)
}

/// [`par::sort_unstable_by_key`](super::sort_unstable_by_key) on the current pool.
///
/// ```
/// let mut v = vec![(2, 'a'), (1, 'b')];
/// splitsteal::par::current::sort_unstable_by_key(&mut v, |p| p.0);
/// assert_eq!(v, [(1, 'b'), (2, 'a')]);
/// ```
pub fn sort_unstable_by_key<T, K, F>(v: &mut [T], key: F)
where
    T: Send,
    K: Ord,
    F: Fn(&T) -> K + Sync,
{
    super::sort_unstable_by_key(&mut Current, v, key)
}

/// [`par::integer_sort`](super::integer_sort) on the current pool.
///
/// ```
/// let mut v = vec![300u16, 2, 70];
/// splitsteal::par::current::integer_sort(&mut v);
/// assert_eq!(v, [2, 70, 300]);
/// ```
pub fn integer_sort<T: RadixKey>(v: &mut [T]) {
    super::integer_sort(&mut Current, v)
}

/// [`par::integer_sort_by_key`](super::integer_sort_by_key) (stable) on the current pool.
///
/// ```
/// let mut v = vec![(5u64, 'x'), (1, 'y'), (5, 'z')];
/// splitsteal::par::current::integer_sort_by_key(&mut v, 3, |p| p.0);
/// assert_eq!(v, [(1, 'y'), (5, 'x'), (5, 'z')]);
/// ```
pub fn integer_sort_by_key<T, K>(v: &mut [T], bits: u32, key: K)
where
    T: Send + Sync,
    K: Fn(&T) -> u64 + Sync,
{
    super::integer_sort_by_key(&mut Current, v, bits, key)
}

/// [`par::histogram`](super::histogram) on the current pool.
///
/// ```
/// let h = splitsteal::par::current::histogram(&[0u8, 2, 2], 3, |&x| x as usize);
/// assert_eq!(h, [1, 0, 2]);
/// ```
pub fn histogram<T, K>(v: &[T], buckets: usize, key: K) -> Vec<usize>
where
    T: Sync,
    K: Fn(&T) -> usize + Sync,
{
    super::histogram(&mut Current, v, buckets, key)
}

/// [`par::remove_duplicates`](super::remove_duplicates) (unordered output) on the current
/// pool.
///
/// ```
/// let mut d = splitsteal::par::current::remove_duplicates(&[2, 1, 2, 3, 1]);
/// d.sort();
/// assert_eq!(d, [1, 2, 3]);
/// ```
pub fn remove_duplicates<T>(v: &[T]) -> Vec<T>
where
    T: Hash + Eq + Clone + Send + Sync,
{
    super::remove_duplicates(&mut Current, v)
}

/// [`par::remove_duplicates_in_order`](super::remove_duplicates_in_order) (first
/// occurrences in input order) on the current pool.
///
/// ```
/// let d = splitsteal::par::current::remove_duplicates_in_order(&[2, 1, 2, 3, 1]);
/// assert_eq!(d, [2, 1, 3]);
/// ```
pub fn remove_duplicates_in_order<T>(v: &[T]) -> Vec<T>
where
    T: Hash + Eq + Clone + Send + Sync,
{
    super::remove_duplicates_in_order(&mut Current, v)
}

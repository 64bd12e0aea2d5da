//! `min`, `max` and their `_by` / `_by_key` forms, on `reduce_with`. Because pieces combine
//! left before right, ties resolve as `Iterator`'s do: the first of equal minima, the last
//! of equal maxima.

use std::cmp::Ordering;

use super::ParallelIterator;

pub(super) fn min_by<I, F>(par_iter: I, compare: F) -> Option<I::Item>
where
    I: ParallelIterator,
    F: Fn(&I::Item, &I::Item) -> Ordering + Sync + Send,
{
    // Only a strictly smaller right side wins, so equal minima keep the leftmost.
    par_iter.reduce_with(|a, b| match compare(&a, &b) {
        Ordering::Greater => b,
        Ordering::Less | Ordering::Equal => a,
    })
}

pub(super) fn max_by<I, F>(par_iter: I, compare: F) -> Option<I::Item>
where
    I: ParallelIterator,
    F: Fn(&I::Item, &I::Item) -> Ordering + Sync + Send,
{
    // Only a strictly larger left side wins, so equal maxima keep the rightmost.
    par_iter.reduce_with(|a, b| match compare(&a, &b) {
        Ordering::Greater => a,
        Ordering::Less | Ordering::Equal => b,
    })
}

pub(super) fn min_by_key<I, K, F>(par_iter: I, key: F) -> Option<I::Item>
where
    I: ParallelIterator,
    K: Ord + Send,
    F: Fn(&I::Item) -> K + Sync + Send,
{
    // Each key is computed once, carried beside its item.
    let keyed = par_iter.map(|x| (key(&x), x));
    min_by(keyed, |a, b| a.0.cmp(&b.0)).map(|(_, x)| x)
}

pub(super) fn max_by_key<I, K, F>(par_iter: I, key: F) -> Option<I::Item>
where
    I: ParallelIterator,
    K: Ord + Send,
    F: Fn(&I::Item) -> K + Sync + Send,
{
    let keyed = par_iter.map(|x| (key(&x), x));
    max_by(keyed, |a, b| a.0.cmp(&b.0)).map(|(_, x)| x)
}

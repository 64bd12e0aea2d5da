//! `sum`, `product` and `count`: each piece folds its items with `Iterator::sum` (or
//! `product`), so a leaf is the sequential loop the compiler vectorizes, and two pieces'
//! results combine through `Sum<S>` (`Product<S>`).

use std::iter::{once, Product, Sum};
use std::marker::PhantomData;

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::ParallelIterator;

pub(super) fn sum<I, S>(par_iter: I) -> S
where
    I: ParallelIterator,
    S: Send + Sum<I::Item> + Sum<S>,
{
    par_iter.drive_unindexed(Totaller::<S, Add>::new())
}

pub(super) fn product<I, P>(par_iter: I) -> P
where
    I: ParallelIterator,
    P: Send + Product<I::Item> + Product<P>,
{
    par_iter.drive_unindexed(Totaller::<P, Multiply>::new())
}

/// Runs the whole iterator, as `Iterator::count` does: a known length is no shortcut,
/// because the adaptors' closures (`map`, `inspect`, ...) have effects users count on.
pub(super) fn count<I: ParallelIterator>(par_iter: I) -> usize {
    sum(par_iter.map(|_| 1usize))
}

/// How a [`Totaller`] totals: by `Sum` or by `Product`.
pub(super) trait Total<S, T> {
    fn of_iter<I: Iterator<Item = T>>(iter: I) -> S;
    fn combine(a: S, b: S) -> S;
}

pub(super) struct Add;
pub(super) struct Multiply;

impl<S: Sum<T> + Sum<S>, T> Total<S, T> for Add {
    fn of_iter<I: Iterator<Item = T>>(iter: I) -> S {
        iter.sum()
    }
    fn combine(a: S, b: S) -> S {
        [a, b].into_iter().sum()
    }
}

impl<S: Product<T> + Product<S>, T> Total<S, T> for Multiply {
    fn of_iter<I: Iterator<Item = T>>(iter: I) -> S {
        iter.product()
    }
    fn combine(a: S, b: S) -> S {
        [a, b].into_iter().product()
    }
}

/// Consumer, folder and reducer of `sum` and `product`; `K` picks which.
///
/// A folder's running total starts at the total of no items (`0`, `1`, ...), not at an
/// `Option`: with an `Option`, a `filter(..).count()` piece carried the tag through a chain
/// of conditional moves per item (about 3x rayon's time); with a plain value it is one add.
pub(super) struct Totaller<S, K> {
    total: S,
    _kind: PhantomData<fn() -> K>,
}

impl<S, K> Totaller<S, K> {
    fn new() -> Self
    where
        K: Total<S, S>,
    {
        Totaller {
            total: K::of_iter(std::iter::empty::<S>()),
            _kind: PhantomData,
        }
    }
}

impl<T, S: Send, K: Total<S, T> + Total<S, S>> Consumer<T> for Totaller<S, K> {
    type Folder = Self;
    type Reducer = Self;
    type Result = S;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (Self::new(), Self::new(), Self::new())
    }

    fn into_folder(self) -> Self {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T, S: Send, K: Total<S, T> + Total<S, S>> UnindexedConsumer<T> for Totaller<S, K> {
    fn split_off_left(&self) -> Self {
        Self::new()
    }

    fn to_reducer(&self) -> Self {
        Self::new()
    }
}

impl<T, S, K: Total<S, T> + Total<S, S>> Folder<T> for Totaller<S, K> {
    type Result = S;

    fn consume(self, item: T) -> Self {
        self.consume_iter(once(item))
    }

    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        Totaller {
            total: <K as Total<S, S>>::combine(self.total, K::of_iter(iter.into_iter())),
            _kind: PhantomData,
        }
    }

    fn complete(self) -> S {
        self.total
    }

    fn full(&self) -> bool {
        false
    }
}

impl<S, K> Reducer<S> for Totaller<S, K>
where
    K: Total<S, S>,
{
    fn reduce(self, left: S, right: S) -> S {
        K::combine(left, right)
    }
}

//! `Either` of two parallel iterators (or two collections) with the same item type: a
//! parallel iterator (or a collection to extend) that forwards to whichever side it holds.

use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::Either::{self, Left, Right};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelExtend, ParallelIterator};

/// An `Either` of two parallel iterators with the same item type runs whichever it holds,
/// so a function can return one of two iterator types.
///
/// ```
/// use splitsteal::iter::Either;
/// use splitsteal::prelude::*;
///
/// fn evens_or_all(n: u32, only_evens: bool) -> impl ParallelIterator<Item = u32> {
///     if only_evens {
///         Either::Left((0..n).into_par_iter().filter(|x| x % 2 == 0))
///     } else {
///         Either::Right((0..n).into_par_iter())
///     }
/// }
/// assert_eq!(evens_or_all(10, true).count(), 5);
/// assert_eq!(evens_or_all(10, false).count(), 10);
/// ```
impl<L, R> ParallelIterator for Either<L, R>
where
    L: ParallelIterator,
    R: ParallelIterator<Item = L::Item>,
{
    type Item = L::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<L::Item>,
    {
        match self {
            Left(left) => left.drive_unindexed(consumer),
            Right(right) => right.drive_unindexed(consumer),
        }
    }

    fn opt_len(&self) -> Option<usize> {
        match self {
            Left(left) => left.opt_len(),
            Right(right) => right.opt_len(),
        }
    }
}

/// Indexed when both sides are.
///
/// ```
/// use splitsteal::iter::Either;
/// use splitsteal::prelude::*;
///
/// fn forwards_or_back(v: &[i32], back: bool) -> impl IndexedParallelIterator<Item = &i32> {
///     if back {
///         Either::Right(v.par_iter().rev())
///     } else {
///         Either::Left(v.par_iter())
///     }
/// }
/// let v = [1, 2, 3];
/// let pairs: Vec<(usize, &i32)> = forwards_or_back(&v, false).enumerate().collect();
/// assert_eq!(pairs, [(0, &1), (1, &2), (2, &3)]);
/// assert_eq!(forwards_or_back(&v, true).len(), 3);
/// assert_eq!(forwards_or_back(&v, true).collect::<Vec<_>>(), [&3, &2, &1]);
/// ```
impl<L, R> IndexedParallelIterator for Either<L, R>
where
    L: IndexedParallelIterator,
    R: IndexedParallelIterator<Item = L::Item>,
{
    fn len(&self) -> usize {
        match self {
            Left(left) => left.len(),
            Right(right) => right.len(),
        }
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<L::Item>,
    {
        match self {
            Left(left) => left.drive(consumer),
            Right(right) => right.drive(consumer),
        }
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<L::Item>,
    {
        match self {
            Left(left) => left.with_producer(callback),
            Right(right) => right.with_producer(callback),
        }
    }
}

/// An `Either` of two collections that can both be extended with `T` items extends the
/// one it holds.
///
/// ```
/// use splitsteal::iter::Either;
/// use splitsteal::prelude::*;
/// use std::collections::BTreeSet;
///
/// let mut target: Either<Vec<u32>, BTreeSet<u32>> = Either::Right(BTreeSet::new());
/// target.par_extend((0..5u32).into_par_iter().map(|x| x % 3));
/// assert_eq!(target, Either::Right(BTreeSet::from([0, 1, 2])));
/// ```
impl<L, R, T> ParallelExtend<T> for Either<L, R>
where
    L: ParallelExtend<T>,
    R: ParallelExtend<T>,
    T: Send,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        match self {
            Left(left) => left.par_extend(par_iter),
            Right(right) => right.par_extend(par_iter),
        }
    }
}

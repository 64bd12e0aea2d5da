//! `filter`: keeps the items a predicate accepts. The output's length is unknown, so it is
//! an unindexed iterator: it wraps the consumer, never the producer.

use std::fmt;

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::ParallelIterator;

/// The iterator of [`ParallelIterator::filter`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// let odd: Vec<u32> = (0..10u32).into_par_iter().filter(|x| x % 2 == 1).collect();
/// assert_eq!(odd, [1, 3, 5, 7, 9]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Filter<I, P> {
    base: I,
    filter_op: P,
}

impl<I: fmt::Debug, P> fmt::Debug for Filter<I, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Filter").field("base", &self.base).finish()
    }
}

impl<I, P> Filter<I, P> {
    pub(super) fn new(base: I, filter_op: P) -> Self {
        Filter { base, filter_op }
    }
}

impl<I, P> ParallelIterator for Filter<I, P>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<I::Item>,
    {
        self.base.drive_unindexed(FilterConsumer {
            base: consumer,
            filter_op: &self.filter_op,
        })
    }
}

struct FilterConsumer<'p, C, P> {
    base: C,
    filter_op: &'p P,
}

impl<'p, T, C, P> Consumer<T> for FilterConsumer<'p, C, P>
where
    C: UnindexedConsumer<T>,
    P: Fn(&T) -> bool + Sync,
{
    type Folder = FilterFolder<'p, C::Folder, P>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, _index: usize) -> (Self, Self, C::Reducer) {
        // An index into the input says nothing about where the base's items split, so the
        // base is split the unindexed way.
        let left = self.split_off_left();
        let reducer = self.base.to_reducer();
        (left, self, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FilterFolder {
            base: self.base.into_folder(),
            filter_op: self.filter_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, P> UnindexedConsumer<T> for FilterConsumer<'_, C, P>
where
    C: UnindexedConsumer<T>,
    P: Fn(&T) -> bool + Sync,
{
    fn split_off_left(&self) -> Self {
        FilterConsumer {
            base: self.base.split_off_left(),
            filter_op: self.filter_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FilterFolder<'p, F, P> {
    base: F,
    filter_op: &'p P,
}

impl<T, F, P> Folder<T> for FilterFolder<'_, F, P>
where
    F: Folder<T>,
    P: Fn(&T) -> bool,
{
    type Result = F::Result;

    fn consume(self, item: T) -> Self {
        if (self.filter_op)(&item) {
            FilterFolder {
                base: self.base.consume(item),
                filter_op: self.filter_op,
            }
        } else {
            self
        }
    }

    /// The default loop's steps, `full()` after every item, with the base folder in a
    /// local: the default moves the whole `FilterFolder` through `consume` per item in the
    /// memory `self` was passed in, and for a folder with a `Cell` (the searches' thief
    /// countdown) LLVM copied it there and back each item, with unaligned partial copies
    /// of its padding that stall store forwarding (`filter(..).find_first(..)` ran several
    /// times rayon's time). A local is split into registers.
    ///
    /// Not `base.consume_iter(iter.filter(..))`: that would let a long run of rejected
    /// items pass without a look at `full()`, so a search on a huge range (rayon's
    /// `filter(..).find_any(..)` on `0..10^27u128`) would never see another piece's match.
    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let FilterFolder {
            mut base,
            filter_op,
        } = self;
        for item in iter {
            if filter_op(&item) {
                base = base.consume(item);
            }
            if base.full() {
                break;
            }
        }
        FilterFolder { base, filter_op }
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

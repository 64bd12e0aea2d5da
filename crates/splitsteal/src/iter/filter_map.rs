//! `filter_map`: maps each item to an `Option` and keeps what is inside the `Some`s. Like
//! `filter`, its length is unknown, so it wraps the consumer.

use std::fmt;

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::ParallelIterator;

/// The iterator of [`ParallelIterator::filter_map`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// let words = ["1", "two", "3", "4x"];
/// let numbers: Vec<u8> = words.par_iter().filter_map(|s| s.parse().ok()).collect();
/// assert_eq!(numbers, [1, 3]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FilterMap<I, P> {
    base: I,
    filter_op: P,
}

impl<I: fmt::Debug, P> fmt::Debug for FilterMap<I, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FilterMap")
            .field("base", &self.base)
            .finish()
    }
}

impl<I, P> FilterMap<I, P> {
    pub(super) fn new(base: I, filter_op: P) -> Self {
        FilterMap { base, filter_op }
    }
}

impl<I, P, R> ParallelIterator for FilterMap<I, P>
where
    I: ParallelIterator,
    P: Fn(I::Item) -> Option<R> + Sync + Send,
    R: Send,
{
    type Item = R;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<R>,
    {
        self.base.drive_unindexed(FilterMapConsumer {
            base: consumer,
            filter_op: &self.filter_op,
        })
    }
}

struct FilterMapConsumer<'p, C, P> {
    base: C,
    filter_op: &'p P,
}

impl<'p, T, R, C, P> Consumer<T> for FilterMapConsumer<'p, C, P>
where
    C: UnindexedConsumer<R>,
    P: Fn(T) -> Option<R> + Sync,
{
    type Folder = FilterMapFolder<'p, C::Folder, P>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, _index: usize) -> (Self, Self, C::Reducer) {
        // The input's index says nothing about where the base's items split.
        let left = self.split_off_left();
        let reducer = self.base.to_reducer();
        (left, self, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FilterMapFolder {
            base: self.base.into_folder(),
            filter_op: self.filter_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, R, C, P> UnindexedConsumer<T> for FilterMapConsumer<'_, C, P>
where
    C: UnindexedConsumer<R>,
    P: Fn(T) -> Option<R> + Sync,
{
    fn split_off_left(&self) -> Self {
        FilterMapConsumer {
            base: self.base.split_off_left(),
            filter_op: self.filter_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FilterMapFolder<'p, F, P> {
    base: F,
    filter_op: &'p P,
}

impl<T, R, F, P> Folder<T> for FilterMapFolder<'_, F, P>
where
    F: Folder<R>,
    P: Fn(T) -> Option<R>,
{
    type Result = F::Result;

    fn consume(self, item: T) -> Self {
        match (self.filter_op)(item) {
            Some(mapped) => FilterMapFolder {
                base: self.base.consume(mapped),
                filter_op: self.filter_op,
            },
            None => self,
        }
    }

    /// The default loop's steps, `full()` after every item, with the base folder in a
    /// local that LLVM splits into registers, as `FilterFolder::consume_iter` (whose
    /// comment says what the default loop cost a search).
    ///
    /// Not `base.consume_iter(iter.filter_map(..))`: that would let a long run of rejected
    /// items pass without a look at `full()`, so a search on a huge range (rayon's
    /// `filter(..).find_any(..)` on `0..10^27u128`) would never see another piece's match.
    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let FilterMapFolder {
            mut base,
            filter_op,
        } = self;
        for item in iter {
            if let Some(mapped) = filter_op(item) {
                base = base.consume(mapped);
            }
            if base.full() {
                break;
            }
        }
        FilterMapFolder { base, filter_op }
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

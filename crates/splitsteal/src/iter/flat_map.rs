//! `flat_map` and `flatten` (each item becomes a parallel iterator, which runs in parallel
//! too), and `flat_map_iter` and `flatten_iter` (each item becomes a sequential iterator,
//! which runs inside the piece that produced it).
//!
//! `flat_map` runs an inner iterator by splitting a consumer for it off the outer piece's
//! consumer (`split_off_left`, so the inner results land in order) and driving the inner
//! iterator into it: the inner items are split across the pool like any other run, and
//! consumers that stop early (`find_any`, ...) stop the inner runs as well.

use std::fmt;

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::{IntoParallelIterator, ParallelIterator};

/// The iterator of [`ParallelIterator::flat_map`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// let v: Vec<u32> = (1..4u32).into_par_iter().flat_map(|n| 0..n).collect();
/// assert_eq!(v, [0, 0, 1, 0, 1, 2]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FlatMap<I, F> {
    base: I,
    map_op: F,
}

impl<I: fmt::Debug, F> fmt::Debug for FlatMap<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMap").field("base", &self.base).finish()
    }
}

impl<I, F> FlatMap<I, F> {
    pub(super) fn new(base: I, map_op: F) -> Self {
        FlatMap { base, map_op }
    }
}

impl<I, F, PI> ParallelIterator for FlatMap<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> PI + Sync + Send,
    PI: IntoParallelIterator,
{
    type Item = PI::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<PI::Item>,
    {
        self.base.drive_unindexed(FlatMapConsumer {
            base: consumer,
            map_op: &self.map_op,
        })
    }
}

struct FlatMapConsumer<'f, C, F> {
    base: C,
    map_op: &'f F,
}

impl<'f, T, C, F, PI> Consumer<T> for FlatMapConsumer<'f, C, F>
where
    C: UnindexedConsumer<PI::Item>,
    F: Fn(T) -> PI + Sync,
    PI: IntoParallelIterator,
{
    type Folder = FlatMapFolder<'f, C, F, C::Result>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, _index: usize) -> (Self, Self, C::Reducer) {
        // An outer index says nothing about where the inner items split.
        let left = self.split_off_left();
        let reducer = self.base.to_reducer();
        (left, self, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FlatMapFolder {
            base: self.base,
            map_op: self.map_op,
            previous: None,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, F, PI> UnindexedConsumer<T> for FlatMapConsumer<'_, C, F>
where
    C: UnindexedConsumer<PI::Item>,
    F: Fn(T) -> PI + Sync,
    PI: IntoParallelIterator,
{
    fn split_off_left(&self) -> Self {
        FlatMapConsumer {
            base: self.base.split_off_left(),
            map_op: self.map_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

/// Folds one outer piece: keeps the consumer (not a folder), so every inner iterator can
/// be given a consumer of its own and run in parallel.
struct FlatMapFolder<'f, C, F, R> {
    base: C,
    map_op: &'f F,
    /// The reduced results of the inner iterators run so far.
    previous: Option<R>,
}

impl<T, C, F, PI> Folder<T> for FlatMapFolder<'_, C, F, C::Result>
where
    C: UnindexedConsumer<PI::Item>,
    F: Fn(T) -> PI + Sync,
    PI: IntoParallelIterator,
{
    type Result = C::Result;

    fn consume(self, item: T) -> Self {
        let inner = (self.map_op)(item).into_par_iter();
        // The split-off consumer takes items before `self.base`'s, so results stay in order.
        let result = inner.drive_unindexed(self.base.split_off_left());
        let previous = match self.previous {
            None => result,
            Some(previous) => self.base.to_reducer().reduce(previous, result),
        };
        FlatMapFolder {
            base: self.base,
            map_op: self.map_op,
            previous: Some(previous),
        }
    }

    fn complete(self) -> C::Result {
        match self.previous {
            Some(result) => result,
            None => self.base.into_folder().complete(),
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

/// The iterator of [`ParallelIterator::flat_map_iter`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// let words = ["ab", "", "cde"];
/// let chars: Vec<char> = words.par_iter().flat_map_iter(|w| w.chars()).collect();
/// assert_eq!(chars, ['a', 'b', 'c', 'd', 'e']);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FlatMapIter<I, F> {
    base: I,
    map_op: F,
}

impl<I: fmt::Debug, F> fmt::Debug for FlatMapIter<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMapIter")
            .field("base", &self.base)
            .finish()
    }
}

impl<I, F> FlatMapIter<I, F> {
    pub(super) fn new(base: I, map_op: F) -> Self {
        FlatMapIter { base, map_op }
    }
}

impl<I, F, SI> ParallelIterator for FlatMapIter<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> SI + Sync + Send,
    SI: IntoIterator,
    SI::Item: Send,
{
    type Item = SI::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<SI::Item>,
    {
        self.base.drive_unindexed(FlatMapIterConsumer {
            base: consumer,
            map_op: &self.map_op,
        })
    }
}

struct FlatMapIterConsumer<'f, C, F> {
    base: C,
    map_op: &'f F,
}

impl<'f, T, C, F, SI> Consumer<T> for FlatMapIterConsumer<'f, C, F>
where
    C: UnindexedConsumer<SI::Item>,
    F: Fn(T) -> SI + Sync,
    SI: IntoIterator,
{
    type Folder = FlatMapIterFolder<'f, C::Folder, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, _index: usize) -> (Self, Self, C::Reducer) {
        let left = self.split_off_left();
        let reducer = self.base.to_reducer();
        (left, self, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FlatMapIterFolder {
            base: self.base.into_folder(),
            map_op: self.map_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, F, SI> UnindexedConsumer<T> for FlatMapIterConsumer<'_, C, F>
where
    C: UnindexedConsumer<SI::Item>,
    F: Fn(T) -> SI + Sync,
    SI: IntoIterator,
{
    fn split_off_left(&self) -> Self {
        FlatMapIterConsumer {
            base: self.base.split_off_left(),
            map_op: self.map_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FlatMapIterFolder<'f, B, F> {
    base: B,
    map_op: &'f F,
}

impl<T, B, F, SI> Folder<T> for FlatMapIterFolder<'_, B, F>
where
    B: Folder<SI::Item>,
    F: Fn(T) -> SI,
    SI: IntoIterator,
{
    type Result = B::Result;

    fn consume(self, item: T) -> Self {
        // The base's `consume_iter` stops inside the inner iterator once it is full.
        FlatMapIterFolder {
            base: self.base.consume_iter((self.map_op)(item)),
            map_op: self.map_op,
        }
    }

    fn complete(self) -> B::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

/// The iterator of [`ParallelIterator::flatten`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// let nested = vec![vec![1, 2], vec![], vec![3]];
/// let flat: Vec<i32> = nested.into_par_iter().flatten().collect();
/// assert_eq!(flat, [1, 2, 3]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct Flatten<I> {
    base: I,
}

impl<I> Flatten<I> {
    pub(super) fn new(base: I) -> Self {
        Flatten { base }
    }
}

impl<I> ParallelIterator for Flatten<I>
where
    I: ParallelIterator,
    I::Item: IntoParallelIterator,
{
    type Item = <I::Item as IntoParallelIterator>::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        FlatMap::new(self.base, identity::<I::Item> as fn(_) -> _).drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelIterator::flatten_iter`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// let nested = vec![vec![1, 2], vec![], vec![3]];
/// let flat: Vec<i32> = nested.par_iter().flatten_iter().map(|x| *x).collect();
/// assert_eq!(flat, [1, 2, 3]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone, Debug)]
pub struct FlattenIter<I> {
    base: I,
}

impl<I> FlattenIter<I> {
    pub(super) fn new(base: I) -> Self {
        FlattenIter { base }
    }
}

impl<I> ParallelIterator for FlattenIter<I>
where
    I: ParallelIterator,
    I::Item: IntoIterator,
    <I::Item as IntoIterator>::Item: Send,
{
    type Item = <I::Item as IntoIterator>::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        FlatMapIter::new(self.base, identity::<I::Item> as fn(_) -> _).drive_unindexed(consumer)
    }
}

fn identity<T>(x: T) -> T {
    x
}

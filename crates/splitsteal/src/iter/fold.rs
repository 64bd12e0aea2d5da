//! `fold` and `fold_with`: each piece folds its items into one accumulator, and the
//! accumulators (one per piece, in order) are the items of the resulting iterator. How many
//! pieces there are depends on how the run split, so only an associative follow-up
//! (`reduce`, `sum`, `collect` then combine) gives a result independent of the split.

use std::fmt;

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::ParallelIterator;

/// The iterator of [`ParallelIterator::fold`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// let total: u64 = (1..=100u64).into_par_iter().fold(|| 0, |a, x| a + x).sum();
/// assert_eq!(total, 5050);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Fold<I, ID, F> {
    base: I,
    identity: ID,
    fold_op: F,
}

impl<I: fmt::Debug, ID, F> fmt::Debug for Fold<I, ID, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fold").field("base", &self.base).finish()
    }
}

impl<I, ID, F> Fold<I, ID, F> {
    pub(super) fn new(base: I, identity: ID, fold_op: F) -> Self {
        Fold {
            base,
            identity,
            fold_op,
        }
    }
}

impl<U, I, ID, F> ParallelIterator for Fold<I, ID, F>
where
    I: ParallelIterator,
    F: Fn(U, I::Item) -> U + Sync + Send,
    ID: Fn() -> U + Sync + Send,
    U: Send,
{
    type Item = U;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<U>,
    {
        self.base.drive_unindexed(FoldConsumer {
            base: consumer,
            start: FromIdentity(&self.identity),
            fold_op: &self.fold_op,
        })
    }
}

/// The iterator of [`ParallelIterator::fold_with`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// // Each piece starts from its own clone of the empty `Vec`.
/// let pieces: Vec<Vec<u32>> = (0..10u32).into_par_iter().fold_with(Vec::new(), |mut v, x| {
///     v.push(x);
///     v
/// }).collect();
/// assert_eq!(pieces.concat(), (0..10).collect::<Vec<_>>());
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FoldWith<I, U, F> {
    base: I,
    item: U,
    fold_op: F,
}

impl<I: fmt::Debug, U: fmt::Debug, F> fmt::Debug for FoldWith<I, U, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FoldWith")
            .field("base", &self.base)
            .field("item", &self.item)
            .finish()
    }
}

impl<I, U, F> FoldWith<I, U, F> {
    pub(super) fn new(base: I, item: U, fold_op: F) -> Self {
        FoldWith {
            base,
            item,
            fold_op,
        }
    }
}

impl<U, I, F> ParallelIterator for FoldWith<I, U, F>
where
    I: ParallelIterator,
    F: Fn(U, I::Item) -> U + Sync + Send,
    U: Send + Clone,
{
    type Item = U;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<U>,
    {
        self.base.drive_unindexed(FoldConsumer {
            base: consumer,
            start: FromClone(self.item),
            fold_op: &self.fold_op,
        })
    }
}

/// Where each piece's accumulator comes from: `identity()` (`fold`) or a clone of a
/// value (`fold_with`). Shared with `try_fold`.
pub(super) trait Start: Send {
    type Value;
    /// The start for a piece split off this one.
    fn split(&self) -> Self;
    fn into_value(self) -> Self::Value;
}

pub(super) struct FromIdentity<'f, ID>(pub(super) &'f ID);

impl<U, ID: Fn() -> U + Sync> Start for FromIdentity<'_, ID> {
    type Value = U;
    fn split(&self) -> Self {
        FromIdentity(self.0)
    }
    fn into_value(self) -> U {
        (self.0)()
    }
}

pub(super) struct FromClone<U>(pub(super) U);

impl<U: Clone + Send> Start for FromClone<U> {
    type Value = U;
    fn split(&self) -> Self {
        FromClone(self.0.clone())
    }
    fn into_value(self) -> U {
        self.0
    }
}

struct FoldConsumer<'f, C, S, F> {
    base: C,
    start: S,
    fold_op: &'f F,
}

impl<'f, T, C, S, F> Consumer<T> for FoldConsumer<'f, C, S, F>
where
    C: UnindexedConsumer<S::Value>,
    S: Start,
    F: Fn(S::Value, T) -> S::Value + Sync,
{
    type Folder = FoldFolder<'f, C::Folder, S::Value, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, _index: usize) -> (Self, Self, C::Reducer) {
        // The base consumes one accumulator per piece, not the input's items, so an input
        // index means nothing to it.
        let left = self.split_off_left();
        let reducer = self.base.to_reducer();
        (left, self, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FoldFolder {
            base: self.base.into_folder(),
            acc: self.start.into_value(),
            fold_op: self.fold_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, S, F> UnindexedConsumer<T> for FoldConsumer<'_, C, S, F>
where
    C: UnindexedConsumer<S::Value>,
    S: Start,
    F: Fn(S::Value, T) -> S::Value + Sync,
{
    fn split_off_left(&self) -> Self {
        FoldConsumer {
            base: self.base.split_off_left(),
            start: self.start.split(),
            fold_op: self.fold_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FoldFolder<'f, B, U, F> {
    base: B,
    acc: U,
    fold_op: &'f F,
}

impl<T, B, U, F> Folder<T> for FoldFolder<'_, B, U, F>
where
    B: Folder<U>,
    F: Fn(U, T) -> U,
{
    type Result = B::Result;

    fn consume(self, item: T) -> Self {
        FoldFolder {
            acc: (self.fold_op)(self.acc, item),
            ..self
        }
    }

    fn consume_iter<It>(self, iter: It) -> Self
    where
        It: IntoIterator<Item = T>,
    {
        // The base stays as full as it was while this piece folds; checking it still lets
        // a consumer that another piece filled (`find_any` on the accumulators) stop us.
        // A loop over locals, as `UnzipFolder::consume_iter`: with rayon's
        // `take_while(..).fold(..)` LLVM copied a `[u64; 16]` accumulator through one
        // more stack temporary per item (a histogram fold 1.33× rayon's time, 2026-11-27;
        // level with this loop, and `partition` no slower since the unzip folder's own fix).
        let FoldFolder {
            base,
            mut acc,
            fold_op,
        } = self;
        for item in iter {
            if base.full() {
                break;
            }
            acc = fold_op(acc, item);
        }
        FoldFolder { base, acc, fold_op }
    }

    fn complete(self) -> B::Result {
        self.base.consume(self.acc).complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

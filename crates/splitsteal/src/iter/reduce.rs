//! `reduce`: each piece folds from `identity()`, pieces combine with the same operator.
//! Other consumers with an associative combine (`sum`, `min`, `max`, ...) are built on it.

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::ParallelIterator;

pub(super) fn reduce<I, ID, OP, T>(par_iter: I, identity: ID, op: OP) -> T
where
    I: ParallelIterator<Item = T>,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
    T: Send,
{
    par_iter.drive_unindexed(ReduceConsumer {
        identity: &identity,
        op: &op,
    })
}

/// Folds every piece from `identity()` with `op`, and combines pieces with `op`.
pub(super) struct ReduceConsumer<'r, ID, OP> {
    pub(super) identity: &'r ID,
    pub(super) op: &'r OP,
}

impl<ID, OP> Clone for ReduceConsumer<'_, ID, OP> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<ID, OP> Copy for ReduceConsumer<'_, ID, OP> {}

impl<'r, T, ID, OP> Consumer<T> for ReduceConsumer<'r, ID, OP>
where
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
    T: Send,
{
    type Folder = ReduceFolder<'r, OP, T>;
    type Reducer = Self;
    type Result = T;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> Self::Folder {
        ReduceFolder {
            op: self.op,
            acc: (self.identity)(),
        }
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T, ID, OP> UnindexedConsumer<T> for ReduceConsumer<'_, ID, OP>
where
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
    T: Send,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<T, ID, OP> Reducer<T> for ReduceConsumer<'_, ID, OP>
where
    OP: Fn(T, T) -> T + Sync,
{
    fn reduce(self, left: T, right: T) -> T {
        (self.op)(left, right)
    }
}

/// One piece's running `reduce`.
pub(super) struct ReduceFolder<'r, OP, T> {
    op: &'r OP,
    acc: T,
}

impl<T, OP> Folder<T> for ReduceFolder<'_, OP, T>
where
    OP: Fn(T, T) -> T,
{
    type Result = T;

    fn consume(self, item: T) -> Self {
        ReduceFolder {
            op: self.op,
            acc: (self.op)(self.acc, item),
        }
    }

    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        ReduceFolder {
            op: self.op,
            acc: iter.into_iter().fold(self.acc, self.op),
        }
    }

    fn complete(self) -> T {
        self.acc
    }

    fn full(&self) -> bool {
        false
    }
}

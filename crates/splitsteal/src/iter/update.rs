//! `update`: calls a closure on a mutable reference to each item, then passes it on. Built on the
//! per-item machinery of [`cloned`](super::cloned).

use std::fmt;

use super::cloned::{ItemOp, OpCallback, OpConsumer};
use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`ParallelIterator::update`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Update<I, F> {
    base: I,
    update_op: F,
}

impl<I, F> Update<I, F> {
    pub(super) fn new(base: I, update_op: F) -> Self {
        Update { base, update_op }
    }
}

impl<I: fmt::Debug, F> fmt::Debug for Update<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Update").field("base", &self.base).finish()
    }
}

/// `update_op` as an [`ItemOp`]: changes the item in place and passes it on.
struct UpdateOp<'f, F>(&'f F);

impl<F> Clone for UpdateOp<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F> Copy for UpdateOp<'_, F> {}

impl<T: Send, F: Fn(&mut T) + Sync> ItemOp<T> for UpdateOp<'_, F> {
    type Output = T;
    #[inline]
    fn apply(self, mut item: T) -> T {
        (self.0)(&mut item);
        item
    }
}

impl<I, F> ParallelIterator for Update<I, F>
where
    I: ParallelIterator,
    F: Fn(&mut I::Item) + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        let op = UpdateOp(&self.update_op);
        self.base.drive_unindexed(OpConsumer::new(consumer, op))
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I, F> IndexedParallelIterator for Update<I, F>
where
    I: IndexedParallelIterator,
    F: Fn(&mut I::Item) + Sync + Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<Self::Item>,
    {
        let op = UpdateOp(&self.update_op);
        self.base.drive(OpConsumer::new(consumer, op))
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        let op = UpdateOp(&self.update_op);
        self.base.with_producer(OpCallback::new(callback, op))
    }
}

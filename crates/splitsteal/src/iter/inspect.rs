//! `inspect`: calls a closure on a reference to each item as it passes. Built on the
//! per-item machinery of [`cloned`](super::cloned).

use std::fmt;

use super::cloned::{ItemOp, OpCallback, OpConsumer};
use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`ParallelIterator::inspect`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Inspect<I, F> {
    base: I,
    inspect_op: F,
}

impl<I, F> Inspect<I, F> {
    pub(super) fn new(base: I, inspect_op: F) -> Self {
        Inspect { base, inspect_op }
    }
}

impl<I: fmt::Debug, F> fmt::Debug for Inspect<I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inspect").field("base", &self.base).finish()
    }
}

/// `inspect_op` as an [`ItemOp`]: looks at the item and passes it on unchanged.
struct InspectOp<'f, F>(&'f F);

impl<F> Clone for InspectOp<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F> Copy for InspectOp<'_, F> {}

impl<T: Send, F: Fn(&T) + Sync> ItemOp<T> for InspectOp<'_, F> {
    type Output = T;
    #[inline]
    fn apply(self, item: T) -> T {
        (self.0)(&item);
        item
    }
}

impl<I, F> ParallelIterator for Inspect<I, F>
where
    I: ParallelIterator,
    F: Fn(&I::Item) + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        let op = InspectOp(&self.inspect_op);
        self.base.drive_unindexed(OpConsumer::new(consumer, op))
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I, F> IndexedParallelIterator for Inspect<I, F>
where
    I: IndexedParallelIterator,
    F: Fn(&I::Item) + Sync + Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<Self::Item>,
    {
        let op = InspectOp(&self.inspect_op);
        self.base.drive(OpConsumer::new(consumer, op))
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        let op = InspectOp(&self.inspect_op);
        self.base.with_producer(OpCallback::new(callback, op))
    }
}

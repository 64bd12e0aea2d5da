//! `cloned` and `copied`, and the per-item machinery they share with `inspect` and
//! `update`: an [`ItemOp`] is applied to each item on its own, with no state, so one
//! producer wrapper (for indexed runs) and one consumer wrapper (for unindexed ones) serve
//! all four, as `map`'s do for `map`.

use std::marker::PhantomData;

use super::plumbing::{Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// An operation applied to each item by itself. `Copy`, so every piece gets its own
/// (they are a zero-sized marker or a shared reference to a closure).
pub(super) trait ItemOp<T>: Copy + Send + Sync {
    /// What an item becomes.
    type Output: Send;
    /// Applies the operation to one item.
    fn apply(self, item: T) -> Self::Output;
}

/// Wraps a base producer: each of its items passes through `op`.
pub(super) struct OpProducer<P, O> {
    base: P,
    op: O,
}

impl<P, O> Producer for OpProducer<P, O>
where
    P: Producer,
    O: ItemOp<P::Item>,
{
    type Item = O::Output;
    type IntoIter = OpIter<P::IntoIter, O>;

    fn into_iter(self) -> Self::IntoIter {
        OpIter {
            base: self.base.into_iter(),
            op: self.op,
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(index);
        (
            OpProducer {
                base: left,
                op: self.op,
            },
            OpProducer {
                base: right,
                op: self.op,
            },
        )
    }

    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>,
    {
        // Through the base's own `fold_with`, which may be better than its iterator.
        self.base
            .fold_with(OpFolder {
                base: folder,
                op: self.op,
                _item: PhantomData,
            })
            .base
    }
}

/// The sequential iterator of an [`OpProducer`] piece.
pub(super) struct OpIter<I, O> {
    base: I,
    op: O,
}

impl<I, O> Iterator for OpIter<I, O>
where
    I: Iterator,
    O: ItemOp<I::Item>,
{
    type Item = O::Output;

    #[inline]
    fn next(&mut self) -> Option<O::Output> {
        let op = self.op;
        self.base.next().map(|item| op.apply(item))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.base.size_hint()
    }

    fn fold<Acc, G>(self, init: Acc, mut g: G) -> Acc
    where
        G: FnMut(Acc, O::Output) -> Acc,
    {
        let op = self.op;
        self.base
            .fold(init, move |acc, item| g(acc, op.apply(item)))
    }
}

impl<I, O> DoubleEndedIterator for OpIter<I, O>
where
    I: DoubleEndedIterator,
    O: ItemOp<I::Item>,
{
    #[inline]
    fn next_back(&mut self) -> Option<O::Output> {
        let op = self.op;
        self.base.next_back().map(|item| op.apply(item))
    }

    fn rfold<Acc, G>(self, init: Acc, mut g: G) -> Acc
    where
        G: FnMut(Acc, O::Output) -> Acc,
    {
        let op = self.op;
        self.base
            .rfold(init, move |acc, item| g(acc, op.apply(item)))
    }
}

impl<I, O> ExactSizeIterator for OpIter<I, O>
where
    I: ExactSizeIterator,
    O: ItemOp<I::Item>,
{
}

/// Wraps a consumer of the operation's outputs into a consumer of its inputs.
pub(super) struct OpConsumer<C, O> {
    base: C,
    op: O,
}

impl<C, O> OpConsumer<C, O> {
    pub(super) fn new(base: C, op: O) -> Self {
        OpConsumer { base, op }
    }
}

impl<T, C, O> Consumer<T> for OpConsumer<C, O>
where
    O: ItemOp<T>,
    C: Consumer<O::Output>,
{
    type Folder = OpFolder<C::Folder, O, T>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        (
            OpConsumer::new(left, self.op),
            OpConsumer::new(right, self.op),
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        OpFolder {
            base: self.base.into_folder(),
            op: self.op,
            _item: PhantomData,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, O> UnindexedConsumer<T> for OpConsumer<C, O>
where
    O: ItemOp<T>,
    C: UnindexedConsumer<O::Output>,
{
    fn split_off_left(&self) -> Self {
        OpConsumer::new(self.base.split_off_left(), self.op)
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

/// Folds one piece: passes each item through `op` to the base folder.
pub(super) struct OpFolder<F, O, T> {
    base: F,
    op: O,
    /// `ItemOp<T>` is generic in `T`; the folder takes `T`s.
    _item: PhantomData<fn(T)>,
}

impl<T, F, O> Folder<T> for OpFolder<F, O, T>
where
    O: ItemOp<T>,
    F: Folder<O::Output>,
{
    type Result = F::Result;

    fn consume(self, item: T) -> Self {
        OpFolder {
            base: self.base.consume(self.op.apply(item)),
            ..self
        }
    }

    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let op = self.op;
        OpFolder {
            base: self
                .base
                .consume_iter(iter.into_iter().map(move |item| op.apply(item))),
            ..self
        }
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

/// Hands the base's producer on with `op` applied to its items.
pub(super) struct OpCallback<CB, O> {
    callback: CB,
    op: O,
}

impl<CB, O> OpCallback<CB, O> {
    pub(super) fn new(callback: CB, op: O) -> Self {
        OpCallback { callback, op }
    }
}

impl<T, CB, O> ProducerCallback<T> for OpCallback<CB, O>
where
    O: ItemOp<T>,
    CB: ProducerCallback<O::Output>,
{
    type Output = CB::Output;

    fn callback<P>(self, base: P) -> CB::Output
    where
        P: Producer<Item = T>,
    {
        self.callback.callback(OpProducer { base, op: self.op })
    }
}

/// `T::clone` as an [`ItemOp`].
#[derive(Clone, Copy)]
struct CloneOp;

impl<'a, T: Clone + Send + Sync + 'a> ItemOp<&'a T> for CloneOp {
    type Output = T;
    #[inline]
    fn apply(self, item: &'a T) -> T {
        item.clone()
    }
}

/// A dereference as an [`ItemOp`].
#[derive(Clone, Copy)]
struct CopyOp;

impl<'a, T: Copy + Send + Sync + 'a> ItemOp<&'a T> for CopyOp {
    type Output = T;
    #[inline]
    fn apply(self, item: &'a T) -> T {
        *item
    }
}

/// The iterator of [`ParallelIterator::cloned`]: clones of the referenced items.
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Cloned<I> {
    base: I,
}

impl<I> Cloned<I> {
    pub(super) fn new(base: I) -> Self {
        Cloned { base }
    }
}

/// The iterator of [`ParallelIterator::copied`]: copies of the referenced items.
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Copied<I> {
    base: I,
}

impl<I> Copied<I> {
    pub(super) fn new(base: I) -> Self {
        Copied { base }
    }
}

macro_rules! reference_adaptor {
    ($name:ident, $op:ident, $bound:ident) => {
        impl<'a, T, I> ParallelIterator for $name<I>
        where
            I: ParallelIterator<Item = &'a T>,
            T: 'a + $bound + Send + Sync,
        {
            type Item = T;

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: UnindexedConsumer<T>,
            {
                self.base.drive_unindexed(OpConsumer::new(consumer, $op))
            }

            fn opt_len(&self) -> Option<usize> {
                self.base.opt_len()
            }
        }

        impl<'a, T, I> IndexedParallelIterator for $name<I>
        where
            I: IndexedParallelIterator<Item = &'a T>,
            T: 'a + $bound + Send + Sync,
        {
            fn len(&self) -> usize {
                self.base.len()
            }

            fn drive<C>(self, consumer: C) -> C::Result
            where
                C: Consumer<T>,
            {
                self.base.drive(OpConsumer::new(consumer, $op))
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: ProducerCallback<T>,
            {
                self.base.with_producer(OpCallback::new(callback, $op))
            }
        }
    };
}

reference_adaptor!(Cloned, CloneOp, Clone);
reference_adaptor!(Copied, CopyOp, Copy);

//! `unzip`, `partition` and `partition_map`: one run of the iterator feeding two
//! collections at once.
//!
//! Each collection is extended by its own `par_extend`, so each picks its own consumer (a
//! `Vec` of known length writes in place; a map gathers pieces). The two runs are one:
//! the first collection's `par_extend` drives [`UnzipA`], which hands the consumer it was
//! given to the second collection's `par_extend` inside [`UnzipB`]; that one drives the
//! base iterator once, with a consumer that splits both consumers side by side and routes
//! each item's halves (or each item) to the left or the right.
//!
//! `unzip` keeps the base's length (every item feeds both sides), so unzipping an indexed
//! iterator into two `Vec`s writes both in place; `partition` and `partition_map` do not
//! know their sides' lengths, and their `Vec`s are built from pieces.

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::{FromParallelIterator, IntoParallelIterator, ParallelExtend, ParallelIterator};
use either::Either;

/// Splits each item between the two sides.
pub(super) trait UnzipOp<T>: Sync + Send {
    /// The left side's items.
    type Left: Send;
    /// The right side's items.
    type Right: Send;

    /// Feeds `item` (or its parts) to the folders.
    fn consume<FA, FB>(&self, item: T, left: FA, right: FB) -> (FA, FB)
    where
        FA: Folder<Self::Left>,
        FB: Folder<Self::Right>;

    /// Whether every item feeds both sides once, so each side has the base's length.
    fn indexable() -> bool {
        false
    }
}

/// `unzip`: the pair's first half to the left, its second to the right.
pub(super) struct Unzip;

impl<A: Send, B: Send> UnzipOp<(A, B)> for Unzip {
    type Left = A;
    type Right = B;

    fn consume<FA, FB>(&self, (a, b): (A, B), left: FA, right: FB) -> (FA, FB)
    where
        FA: Folder<A>,
        FB: Folder<B>,
    {
        (left.consume(a), right.consume(b))
    }

    fn indexable() -> bool {
        true
    }
}

/// `partition`: the items where `pred` holds to the left, the others to the right.
pub(super) struct Partition<P>(pub(super) P);

impl<T, P> UnzipOp<T> for Partition<P>
where
    T: Send,
    P: Fn(&T) -> bool + Sync + Send,
{
    type Left = T;
    type Right = T;

    fn consume<FA, FB>(&self, item: T, left: FA, right: FB) -> (FA, FB)
    where
        FA: Folder<T>,
        FB: Folder<T>,
    {
        if (self.0)(&item) {
            (left.consume(item), right)
        } else {
            (left, right.consume(item))
        }
    }
}

/// `partition_map`: `Left` values to the left, `Right` values to the right.
pub(super) struct PartitionMap<F>(pub(super) F);

impl<T, F, L, R> UnzipOp<T> for PartitionMap<F>
where
    F: Fn(T) -> Either<L, R> + Sync + Send,
    L: Send,
    R: Send,
{
    type Left = L;
    type Right = R;

    fn consume<FA, FB>(&self, item: T, left: FA, right: FB) -> (FA, FB)
    where
        FA: Folder<L>,
        FB: Folder<R>,
    {
        match (self.0)(item) {
            Either::Left(l) => (left.consume(l), right),
            Either::Right(r) => (left, right.consume(r)),
        }
    }
}

/// Runs `par_iter` once, extending `left` and `right` with the two sides of `op`.
pub(super) fn execute_into<I, OP, FromA, FromB>(
    left: &mut FromA,
    right: &mut FromB,
    par_iter: I,
    op: OP,
) where
    I: ParallelIterator,
    OP: UnzipOp<I::Item>,
    FromA: Send + ParallelExtend<OP::Left>,
    FromB: Send + ParallelExtend<OP::Right>,
{
    left.par_extend(UnzipA {
        base: par_iter,
        op: &op,
        right,
    });
}

/// `execute_into` two new, empty collections.
pub(super) fn execute<I, OP, FromA, FromB>(par_iter: I, op: OP) -> (FromA, FromB)
where
    I: ParallelIterator,
    OP: UnzipOp<I::Item>,
    FromA: Default + Send + ParallelExtend<OP::Left>,
    FromB: Default + Send + ParallelExtend<OP::Right>,
{
    let mut left = FromA::default();
    let mut right = FromB::default();
    execute_into(&mut left, &mut right, par_iter, op);
    (left, right)
}

/// The left side's items, as the left collection's `par_extend` sees them.
struct UnzipA<'r, I, OP, FromB> {
    base: I,
    op: &'r OP,
    right: &'r mut FromB,
}

impl<I, OP, FromB> ParallelIterator for UnzipA<'_, I, OP, FromB>
where
    I: ParallelIterator,
    OP: UnzipOp<I::Item>,
    FromB: Send + ParallelExtend<OP::Right>,
{
    type Item = OP::Left;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<OP::Left>,
    {
        let mut left_result = None;
        self.right.par_extend(UnzipB {
            base: self.base,
            op: self.op,
            left_consumer: consumer,
            left_result: &mut left_result,
        });
        left_result.expect("unzip: the right collection's par_extend did not run its iterator")
    }

    fn opt_len(&self) -> Option<usize> {
        if OP::indexable() {
            self.base.opt_len()
        } else {
            None
        }
    }
}

/// The right side's items, as the right collection's `par_extend` sees them; driving it
/// runs the base iterator into both sides' consumers.
struct UnzipB<'r, I, OP, CA>
where
    I: ParallelIterator,
    OP: UnzipOp<I::Item>,
    CA: UnindexedConsumer<OP::Left>,
{
    base: I,
    op: &'r OP,
    left_consumer: CA,
    left_result: &'r mut Option<CA::Result>,
}

impl<I, OP, CA> ParallelIterator for UnzipB<'_, I, OP, CA>
where
    I: ParallelIterator,
    OP: UnzipOp<I::Item>,
    CA: UnindexedConsumer<OP::Left>,
{
    type Item = OP::Right;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<OP::Right>,
    {
        let (left, right) = self.base.drive_unindexed(UnzipConsumer {
            op: self.op,
            left: self.left_consumer,
            right: consumer,
        });
        *self.left_result = Some(left);
        right
    }

    fn opt_len(&self) -> Option<usize> {
        if OP::indexable() {
            self.base.opt_len()
        } else {
            None
        }
    }
}

/// Both sides' consumers, split side by side.
struct UnzipConsumer<'r, OP, CA, CB> {
    op: &'r OP,
    left: CA,
    right: CB,
}

impl<'r, T, OP, CA, CB> Consumer<T> for UnzipConsumer<'r, OP, CA, CB>
where
    OP: UnzipOp<T>,
    CA: Consumer<OP::Left>,
    CB: Consumer<OP::Right>,
{
    type Folder = UnzipFolder<'r, OP, CA::Folder, CB::Folder>;
    type Reducer = UnzipReducer<CA::Reducer, CB::Reducer>;
    type Result = (CA::Result, CB::Result);

    fn split_at(self, index: usize) -> (Self, Self, Self::Reducer) {
        let (left1, left2, left_reducer) = self.left.split_at(index);
        let (right1, right2, right_reducer) = self.right.split_at(index);
        (
            UnzipConsumer {
                op: self.op,
                left: left1,
                right: right1,
            },
            UnzipConsumer {
                op: self.op,
                left: left2,
                right: right2,
            },
            UnzipReducer {
                left: left_reducer,
                right: right_reducer,
            },
        )
    }

    fn into_folder(self) -> Self::Folder {
        UnzipFolder {
            op: self.op,
            left: self.left.into_folder(),
            right: self.right.into_folder(),
        }
    }

    fn full(&self) -> bool {
        // An item may go to either side: stop only when neither wants more.
        self.left.full() && self.right.full()
    }
}

impl<T, OP, CA, CB> UnindexedConsumer<T> for UnzipConsumer<'_, OP, CA, CB>
where
    OP: UnzipOp<T>,
    CA: UnindexedConsumer<OP::Left>,
    CB: UnindexedConsumer<OP::Right>,
{
    fn split_off_left(&self) -> Self {
        UnzipConsumer {
            op: self.op,
            left: self.left.split_off_left(),
            right: self.right.split_off_left(),
        }
    }

    fn to_reducer(&self) -> Self::Reducer {
        UnzipReducer {
            left: self.left.to_reducer(),
            right: self.right.to_reducer(),
        }
    }
}

/// One piece's two folders.
struct UnzipFolder<'r, OP, FA, FB> {
    op: &'r OP,
    left: FA,
    right: FB,
}

impl<T, OP, FA, FB> Folder<T> for UnzipFolder<'_, OP, FA, FB>
where
    OP: UnzipOp<T>,
    FA: Folder<OP::Left>,
    FB: Folder<OP::Right>,
{
    type Result = (FA::Result, FB::Result);

    fn consume(self, item: T) -> Self {
        let (left, right) = self.op.consume(item, self.left, self.right);
        UnzipFolder {
            op: self.op,
            left,
            right,
        }
    }

    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        // The two folders as locals of the loop, not fields of a `self` moved through it
        // on every item: LLVM then keeps them out of memory between items (moved as one
        // struct, both sides' state was stored and reloaded per item in some builds).
        let UnzipFolder {
            op,
            mut left,
            mut right,
        } = self;
        for item in iter {
            (left, right) = op.consume(item, left, right);
            if left.full() && right.full() {
                break;
            }
        }
        UnzipFolder { op, left, right }
    }

    fn complete(self) -> Self::Result {
        (self.left.complete(), self.right.complete())
    }

    fn full(&self) -> bool {
        self.left.full() && self.right.full()
    }
}

/// Reduces each side with its own reducer.
struct UnzipReducer<RA, RB> {
    left: RA,
    right: RB,
}

impl<A, B, RA, RB> Reducer<(A, B)> for UnzipReducer<RA, RB>
where
    RA: Reducer<A>,
    RB: Reducer<B>,
{
    fn reduce(self, left: (A, B), right: (A, B)) -> (A, B) {
        (
            self.left.reduce(left.0, right.0),
            self.right.reduce(left.1, right.1),
        )
    }
}

// ---- pairs of collections ----

/// Extends both collections from one run over pairs, as [`unzip`] does.
///
/// [`unzip`]: ParallelIterator::unzip
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut pair = (vec![0], vec!['a']);
/// pair.par_extend((1..4u8).into_par_iter().map(|i| (i, char::from(b'a' + i))));
/// assert_eq!(pair, (vec![0, 1, 2, 3], vec!['a', 'b', 'c', 'd']));
/// ```
impl<A, B, FromA, FromB> ParallelExtend<(A, B)> for (FromA, FromB)
where
    A: Send,
    B: Send,
    FromA: Send + ParallelExtend<A>,
    FromB: Send + ParallelExtend<B>,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = (A, B)>,
    {
        execute_into(&mut self.0, &mut self.1, par_iter.into_par_iter(), Unzip);
    }
}

/// Extends the first collection with the `Left` values and the second with the `Right`
/// ones, from one run, as [`partition_map`] does.
///
/// [`partition_map`]: ParallelIterator::partition_map
impl<L, R, A, B> ParallelExtend<Either<L, R>> for (A, B)
where
    L: Send,
    R: Send,
    A: Send + ParallelExtend<L>,
    B: Send + ParallelExtend<R>,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = Either<L, R>>,
    {
        execute_into(
            &mut self.0,
            &mut self.1,
            par_iter.into_par_iter(),
            PartitionMap(std::convert::identity::<Either<L, R>>),
        );
    }
}

/// Collects pairs into two collections from one run (each side only needs to be
/// [`FromParallelIterator`]).
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::BTreeSet;
///
/// let (squares, set): (Vec<u32>, BTreeSet<u32>) =
///     (0..5u32).into_par_iter().map(|i| (i * i, i % 2)).collect();
/// assert_eq!(squares, [0, 1, 4, 9, 16]);
/// assert!(set.iter().eq(&[0, 1]));
/// ```
impl<A, B, FromA, FromB> FromParallelIterator<(A, B)> for (FromA, FromB)
where
    A: Send,
    B: Send,
    FromA: Send + FromParallelIterator<A>,
    FromB: Send + FromParallelIterator<B>,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = (A, B)>,
    {
        let (a, b): (Collector<FromA>, Collector<FromB>) = execute(par_iter.into_par_iter(), Unzip);
        (a.finish(), b.finish())
    }
}

/// Collects the `Left` values into the first collection and the `Right` ones into the
/// second, from one run.
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::Either;
///
/// let (evens, odds): (Vec<u32>, Vec<u32>) = (0..6u32)
///     .into_par_iter()
///     .map(|i| if i % 2 == 0 { Either::Left(i) } else { Either::Right(i) })
///     .collect();
/// assert_eq!((evens, odds), (vec![0, 2, 4], vec![1, 3, 5]));
/// ```
impl<L, R, A, B> FromParallelIterator<Either<L, R>> for (A, B)
where
    L: Send,
    R: Send,
    A: Send + FromParallelIterator<L>,
    B: Send + FromParallelIterator<R>,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Either<L, R>>,
    {
        let (a, b): (Collector<A>, Collector<B>) = execute(
            par_iter.into_par_iter(),
            PartitionMap(std::convert::identity::<Either<L, R>>),
        );
        (a.finish(), b.finish())
    }
}

/// Lets a collection that is only [`FromParallelIterator`] be a side of an unzip: its one
/// `par_extend` is the collection's `from_par_iter`.
struct Collector<C> {
    result: Option<C>,
}

impl<C> Default for Collector<C> {
    fn default() -> Self {
        Collector { result: None }
    }
}

impl<C> Collector<C> {
    fn finish(self) -> C {
        self.result
            .expect("unzip: a side's par_extend was not called")
    }
}

impl<T: Send, C: FromParallelIterator<T>> ParallelExtend<T> for Collector<C> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        debug_assert!(self.result.is_none(), "a Collector is extended once");
        self.result = Some(C::from_par_iter(par_iter));
    }
}

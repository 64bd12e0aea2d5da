//! `collect` and `par_extend` for `Vec`: in place when the length is known up front,
//! otherwise each piece fills its own `Vec` and the pieces are appended in order.

use std::collections::LinkedList;
use std::ffi::OsString;
use std::marker::PhantomData;

use super::collect::collect_with_consumer;
use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::{FromParallelIterator, IntoParallelIterator, ParallelExtend, ParallelIterator};

impl<T: Send> FromParallelIterator<T> for Vec<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        let mut v = Vec::new();
        v.par_extend(par_iter);
        v
    }
}

impl<T: Send> ParallelExtend<T> for Vec<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        let par_iter = par_iter.into_par_iter();
        match par_iter.opt_len() {
            Some(len) => {
                collect_with_consumer(self, len, |consumer| par_iter.drive_unindexed(consumer))
            }
            None => {
                let pieces = collect_pieces(par_iter);
                self.reserve(pieces.iter().map(Vec::len).sum());
                for mut piece in pieces {
                    self.append(&mut piece);
                }
            }
        }
    }
}

/// Runs `par_iter` into one `Vec` per piece, in order.
pub(super) fn collect_pieces<I: ParallelIterator>(par_iter: I) -> LinkedList<Vec<I::Item>> {
    fold_pieces(par_iter)
}

/// Runs `par_iter` into one `A` per piece (each piece `extend`s its own, in parallel),
/// and returns them in order. Pieces that received nothing are left out.
pub(super) fn fold_pieces<A, I>(par_iter: I) -> LinkedList<A>
where
    I: ParallelIterator,
    A: Default + Extend<I::Item> + IsEmpty + Send,
{
    par_iter.drive_unindexed(PiecesConsumer(PhantomData))
}

/// Whether a piece's accumulator received nothing (such a piece is not kept).
pub(super) trait IsEmpty {
    fn is_empty(&self) -> bool;
}

impl<T> IsEmpty for Vec<T> {
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
}

impl<T> IsEmpty for LinkedList<T> {
    fn is_empty(&self) -> bool {
        LinkedList::is_empty(self)
    }
}

impl IsEmpty for String {
    fn is_empty(&self) -> bool {
        String::is_empty(self)
    }
}

impl IsEmpty for OsString {
    fn is_empty(&self) -> bool {
        self.as_os_str().is_empty()
    }
}

/// Consumer and reducer of [`fold_pieces`], folding into an `A` per piece.
struct PiecesConsumer<A>(PhantomData<fn() -> A>);

impl<A> Clone for PiecesConsumer<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for PiecesConsumer<A> {}

/// Folder of [`fold_pieces`]: the piece's accumulator.
struct PiecesFolder<A>(A);

impl<A, T> Consumer<T> for PiecesConsumer<A>
where
    A: Default + Extend<T> + IsEmpty + Send,
{
    type Folder = PiecesFolder<A>;
    type Reducer = Self;
    type Result = LinkedList<A>;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> PiecesFolder<A> {
        PiecesFolder(A::default())
    }

    fn full(&self) -> bool {
        false
    }
}

impl<A, T> UnindexedConsumer<T> for PiecesConsumer<A>
where
    A: Default + Extend<T> + IsEmpty + Send,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<A, T> Folder<T> for PiecesFolder<A>
where
    A: Extend<T> + IsEmpty,
{
    type Result = LinkedList<A>;

    fn consume(mut self, item: T) -> Self {
        self.0.extend(std::iter::once(item));
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        self.0.extend(iter);
        self
    }

    fn complete(self) -> LinkedList<A> {
        let mut list = LinkedList::new();
        if !self.0.is_empty() {
            list.push_back(self.0);
        }
        list
    }

    fn full(&self) -> bool {
        false
    }
}

impl<A> Reducer<LinkedList<A>> for PiecesConsumer<A> {
    fn reduce(self, mut left: LinkedList<A>, mut right: LinkedList<A>) -> LinkedList<A> {
        left.append(&mut right);
        left
    }
}

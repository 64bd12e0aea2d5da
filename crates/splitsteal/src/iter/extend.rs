//! `collect` and `par_extend` for `Vec`: in place when the length is known up front,
//! otherwise each piece fills its own `Vec` and the pieces are appended in order.

use std::collections::LinkedList;

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
    par_iter.drive_unindexed(PiecesConsumer)
}

/// Consumer, folder and reducer of [`collect_pieces`].
struct PiecesConsumer;

struct PiecesFolder<T>(Vec<T>);

impl<T: Send> Consumer<T> for PiecesConsumer {
    type Folder = PiecesFolder<T>;
    type Reducer = PiecesConsumer;
    type Result = LinkedList<Vec<T>>;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (PiecesConsumer, PiecesConsumer, PiecesConsumer)
    }

    fn into_folder(self) -> PiecesFolder<T> {
        PiecesFolder(Vec::new())
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T: Send> UnindexedConsumer<T> for PiecesConsumer {
    fn split_off_left(&self) -> Self {
        PiecesConsumer
    }

    fn to_reducer(&self) -> Self {
        PiecesConsumer
    }
}

impl<T> Folder<T> for PiecesFolder<T> {
    type Result = LinkedList<Vec<T>>;

    fn consume(mut self, item: T) -> Self {
        self.0.push(item);
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        self.0.extend(iter);
        self
    }

    fn complete(self) -> LinkedList<Vec<T>> {
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

impl<T> Reducer<LinkedList<Vec<T>>> for PiecesConsumer {
    fn reduce(
        self,
        mut left: LinkedList<Vec<T>>,
        mut right: LinkedList<Vec<T>>,
    ) -> LinkedList<Vec<T>> {
        left.append(&mut right);
        left
    }
}

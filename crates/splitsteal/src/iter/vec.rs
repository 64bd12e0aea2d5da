//! `into_par_iter()` on a `Vec`: the items move out, each piece owning its
//! part of the buffer.
//!
//! The `Vec`'s length is set to zero before the run, so the `Vec` frees only its buffer;
//! every item is either moved out by a piece's iterator or dropped by the piece that owns
//! it (when the run stops early, or a panic unwinds through it). None is dropped twice.

use std::ptr;

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The iterator of `par_drain(range)` on a `Vec` ([`ParallelDrainRange`](super::ParallelDrainRange)).
pub use super::drain::VecDrain as Drain;

/// The iterator of `into_par_iter()` on a `Vec<T>`.
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct IntoIter<T: Send> {
    vec: Vec<T>,
}

impl<T: Send> IntoParallelIterator for Vec<T> {
    type Item = T;
    type Iter = IntoIter<T>;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter { vec: self }
    }
}

impl<T: Send> ParallelIterator for IntoIter<T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.vec.len())
    }
}

impl<T: Send> IndexedParallelIterator for IntoIter<T> {
    fn len(&self) -> usize {
        self.vec.len()
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<T>,
    {
        bridge(self, consumer)
    }

    fn with_producer<CB>(mut self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<T>,
    {
        let len = self.vec.len();
        // SAFETY: from here on the items belong to the producer (and the pieces it splits
        // into); the Vec keeps only its allocation, freed when `self` drops.
        unsafe { self.vec.set_len(0) };
        // SAFETY: the buffer holds `len` initialized items, now owned by nobody else.
        let items = unsafe { std::slice::from_raw_parts_mut(self.vec.as_mut_ptr(), len) };
        callback.callback(DrainProducer { items })
    }
}

/// Owns the items of `items`: moves them out as it is iterated, drops the rest.
pub(crate) struct DrainProducer<'data, T: Send> {
    items: &'data mut [T],
}

impl<'data, T: Send> DrainProducer<'data, T> {
    /// # Safety
    /// `items` must be initialized and owned by nobody else: the producer drops or moves
    /// out every one of them.
    pub(crate) unsafe fn new(items: &'data mut [T]) -> Self {
        DrainProducer { items }
    }
}

impl<'data, T: Send + 'data> Producer for DrainProducer<'data, T> {
    type Item = T;
    type IntoIter = SliceDrain<'data, T>;

    fn into_iter(mut self) -> SliceDrain<'data, T> {
        let items = std::mem::take(&mut self.items);
        SliceDrain {
            iter: items.iter_mut(),
        }
    }

    fn split_at(mut self, index: usize) -> (Self, Self) {
        let items = std::mem::take(&mut self.items);
        let (left, right) = items.split_at_mut(index);
        (
            DrainProducer { items: left },
            DrainProducer { items: right },
        )
    }
}

impl<T: Send> Drop for DrainProducer<'_, T> {
    fn drop(&mut self) {
        let rest: &mut [T] = std::mem::take(&mut self.items);
        // SAFETY: the items still here were neither moved out nor handed to a split.
        unsafe { ptr::drop_in_place(rest) };
    }
}

/// The sequential iterator of a [`DrainProducer`] piece.
pub(crate) struct SliceDrain<'data, T> {
    iter: std::slice::IterMut<'data, T>,
}

impl<T> Iterator for SliceDrain<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        // SAFETY: each slot is yielded once by the slice iterator, and then is no longer
        // counted as ours (Drop only drops what the iterator has not yet yielded).
        self.iter.next().map(|slot| unsafe { ptr::read(slot) })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl<T> DoubleEndedIterator for SliceDrain<'_, T> {
    fn next_back(&mut self) -> Option<T> {
        // SAFETY: as in `next`.
        self.iter.next_back().map(|slot| unsafe { ptr::read(slot) })
    }
}

impl<T> ExactSizeIterator for SliceDrain<'_, T> {}

impl<T> Drop for SliceDrain<'_, T> {
    fn drop(&mut self) {
        let rest = std::mem::take(&mut self.iter).into_slice();
        // SAFETY: the slots not yet yielded are still initialized and ours.
        unsafe { ptr::drop_in_place(rest) };
    }
}

/// The draining producer driven by hand, without a pool, so miri can check its unsafe
/// code (CI runs these under miri): every item moved out or dropped exactly once.
#[cfg(test)]
mod tests {
    use super::*;

    fn strings(n: usize) -> Vec<String> {
        (0..n).map(|i| i.to_string()).collect()
    }

    /// Runs `f` on a draining producer over `v`'s items, as `with_producer` does.
    fn drain<R>(mut v: Vec<String>, f: impl FnOnce(DrainProducer<'_, String>) -> R) -> R {
        let len = v.len();
        // SAFETY: as in `IntoIter::with_producer`: the items now belong to the producer.
        unsafe { v.set_len(0) };
        // SAFETY: the buffer holds `len` initialized items owned by nobody else.
        let items = unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr(), len) };
        // SAFETY: the items are initialized and owned only by the producer.
        f(unsafe { DrainProducer::new(items) })
    }

    #[test]
    fn split_pieces_move_every_item_out_once() {
        let out = drain(strings(7), |p| {
            let (left, right) = p.split_at(3);
            let (mid, last) = right.split_at(2);
            let mut out: Vec<String> = left.into_iter().collect();
            out.extend(mid.into_iter().rev());
            out.extend(last.into_iter());
            out
        });
        assert_eq!(out, ["0", "1", "2", "4", "3", "5", "6"]);
    }

    #[test]
    fn unread_items_are_dropped_by_their_piece() {
        let first = drain(strings(6), |p| {
            let (left, right) = p.split_at(4);
            drop(right); // never iterated
            let mut iter = left.into_iter();
            let first = iter.next();
            let _ = iter.next_back();
            first // `iter` drops the two items it did not yield
        });
        assert_eq!(first.as_deref(), Some("0"));
    }
}

//! `par_windows`: every contiguous window of a slice, as an indexed parallel iterator.
//!
//! Windows overlap, so the producer's halves share `window_size - 1` items: splitting
//! after `index` windows gives the left half `slice[..index + window_size - 1]` (exactly
//! `index` windows) and the right half `slice[index..]` (the rest).

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`par_windows`](super::slice::ParallelSlice::par_windows): every
/// contiguous window of `window_size` items, in order.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let sums: Vec<i32> = [1, 2, 3, 4].par_windows(3).map(|w| w.iter().sum()).collect();
/// assert_eq!(sums, [6, 9]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct Windows<'data, T: Sync> {
    window_size: usize,
    slice: &'data [T],
}

impl<'data, T: Sync> Windows<'data, T> {
    pub(super) fn new(window_size: usize, slice: &'data [T]) -> Self {
        Windows { window_size, slice }
    }
}

impl<T: Sync> Clone for Windows<'_, T> {
    fn clone(&self) -> Self {
        Windows { ..*self }
    }
}

impl<'data, T: Sync + 'data> ParallelIterator for Windows<'data, T> {
    type Item = &'data [T];

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<'data, T: Sync + 'data> IndexedParallelIterator for Windows<'data, T> {
    fn len(&self) -> usize {
        self.slice.len().saturating_sub(self.window_size - 1)
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<Self::Item>,
    {
        bridge(self, consumer)
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        callback.callback(WindowsProducer {
            window_size: self.window_size,
            slice: self.slice,
        })
    }
}

struct WindowsProducer<'data, T: Sync> {
    window_size: usize,
    slice: &'data [T],
}

impl<'data, T: Sync + 'data> Producer for WindowsProducer<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::Windows<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.windows(self.window_size)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let left_end = Ord::min(index + (self.window_size - 1), self.slice.len());
        let left = WindowsProducer {
            window_size: self.window_size,
            slice: &self.slice[..left_end],
        };
        let right = WindowsProducer {
            window_size: self.window_size,
            slice: &self.slice[index..],
        };
        (left, right)
    }
}

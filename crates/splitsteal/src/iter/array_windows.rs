//! `par_array_windows::<N>()`: every contiguous window of `N` items of a slice, as
//! `&[T; N]`, as an indexed parallel iterator.
//!
//! As with `par_windows`, neighbouring pieces share `N - 1` items: splitting after
//! `index` windows gives the left piece `slice[..index + N - 1]` (exactly `index` windows)
//! and the right piece `slice[index..]`.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`par_array_windows`](super::slice::ParallelSlice::par_array_windows):
/// every contiguous window of `N` items, as an array reference, in order.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let v = [1, 2, 3, 4];
/// let sums: Vec<i32> = v.par_array_windows().map(|[a, b, c]| a + b + c).collect();
/// assert_eq!(sums, [6, 9]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct ArrayWindows<'data, T: Sync, const N: usize> {
    slice: &'data [T],
}

impl<'data, T: Sync, const N: usize> ArrayWindows<'data, T, N> {
    #[track_caller]
    pub(super) fn new(slice: &'data [T]) -> Self {
        assert!(N != 0, "window size must not be zero");
        ArrayWindows { slice }
    }
}

impl<T: Sync, const N: usize> Clone for ArrayWindows<'_, T, N> {
    fn clone(&self) -> Self {
        ArrayWindows { slice: self.slice }
    }
}

impl<'data, T: Sync, const N: usize> ParallelIterator for ArrayWindows<'data, T, N> {
    type Item = &'data [T; N];

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

impl<'data, T: Sync, const N: usize> IndexedParallelIterator for ArrayWindows<'data, T, N> {
    fn len(&self) -> usize {
        // `new` checked that N >= 1.
        self.slice.len().saturating_sub(N - 1)
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
        callback.callback(ArrayWindowsProducer::<T, N> { slice: self.slice })
    }
}

struct ArrayWindowsProducer<'data, T, const N: usize> {
    slice: &'data [T],
}

/// A window of exactly `N` items as an array reference (`windows(N)` gives only such).
fn as_array<T, const N: usize>(window: &[T]) -> &[T; N] {
    window.try_into().expect("windows(N) yields N items")
}

impl<'data, T: Sync, const N: usize> Producer for ArrayWindowsProducer<'data, T, N> {
    type Item = &'data [T; N];
    type IntoIter = std::iter::Map<std::slice::Windows<'data, T>, fn(&'data [T]) -> &'data [T; N]>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.windows(N).map(as_array::<T, N>)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let left_end = Ord::min(self.slice.len(), index + (N - 1));
        (
            ArrayWindowsProducer {
                slice: &self.slice[..left_end],
            },
            ArrayWindowsProducer {
                slice: &self.slice[index..],
            },
        )
    }
}

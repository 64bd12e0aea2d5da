//! Slices cut where a predicate says: `par_split`, `par_split_inclusive`, `par_chunk_by`
//! and their `_mut` forms, giving the sub-slices std's `split`, `split_inclusive` and
//! `chunk_by` give, in order.
//!
//! A piece of the slice is split by finding a cut near its middle (searching forward, then
//! backward): a separator for `par_split` (dropped, the two sides split independently), a
//! separator followed by more items for `par_split_inclusive` (the separator ends the left
//! side), a pair the predicate rejects for `par_chunk_by`. In each case the sequential
//! result of the whole is the left side's followed by the right side's, so pieces fold with
//! std's own iterators. A piece with no cut is folded whole, so a failed search costs at
//! most one extra pass over items that are then folded anyway.

use super::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use super::ParallelIterator;

/// Where a piece may be cut, and how a piece is folded sequentially.
trait Cut<T>: Sync {
    /// `(left_end, right_start)` of a cut near the middle of `s`, with both sides shorter
    /// than `s` (so splitting always makes progress), or `None`.
    fn cut(&self, s: &[T]) -> Option<(usize, usize)>;

    fn fold<'a, F: Folder<&'a [T]>>(&self, s: &'a [T], folder: F) -> F
    where
        T: 'a;

    fn fold_mut<'a, F: Folder<&'a mut [T]>>(&self, s: &'a mut [T], folder: F) -> F
    where
        T: 'a;
}

/// The first index in `range` (searched from the middle outwards: forward, then backward)
/// where `hit` holds.
fn search(lo: usize, hi: usize, hit: impl Fn(usize) -> bool) -> Option<usize> {
    let mid = lo + (hi - lo) / 2;
    (mid..hi)
        .find(|&i| hit(i))
        .or_else(|| (lo..mid).rev().find(|&i| hit(i)))
}

struct Sep<P>(P);
struct SepInclusive<P>(P);
struct Runs<F>(F);

impl<T, P: Fn(&T) -> bool + Sync> Cut<T> for Sep<P> {
    fn cut(&self, s: &[T]) -> Option<(usize, usize)> {
        search(0, s.len(), |i| (self.0)(&s[i])).map(|i| (i, i + 1))
    }

    fn fold<'a, F: Folder<&'a [T]>>(&self, s: &'a [T], folder: F) -> F
    where
        T: 'a,
    {
        folder.consume_iter(s.split(&self.0))
    }

    fn fold_mut<'a, F: Folder<&'a mut [T]>>(&self, s: &'a mut [T], folder: F) -> F
    where
        T: 'a,
    {
        folder.consume_iter(s.split_mut(&self.0))
    }
}

impl<T, P: Fn(&T) -> bool + Sync> Cut<T> for SepInclusive<P> {
    fn cut(&self, s: &[T]) -> Option<(usize, usize)> {
        // A separator at the very end cuts nothing off.
        search(0, s.len().saturating_sub(1), |i| (self.0)(&s[i])).map(|i| (i + 1, i + 1))
    }

    fn fold<'a, F: Folder<&'a [T]>>(&self, s: &'a [T], folder: F) -> F
    where
        T: 'a,
    {
        folder.consume_iter(s.split_inclusive(&self.0))
    }

    fn fold_mut<'a, F: Folder<&'a mut [T]>>(&self, s: &'a mut [T], folder: F) -> F
    where
        T: 'a,
    {
        folder.consume_iter(s.split_inclusive_mut(&self.0))
    }
}

impl<T, P: Fn(&T, &T) -> bool + Sync> Cut<T> for Runs<P> {
    fn cut(&self, s: &[T]) -> Option<(usize, usize)> {
        search(1, s.len().max(1), |i| !(self.0)(&s[i - 1], &s[i])).map(|i| (i, i))
    }

    fn fold<'a, F: Folder<&'a [T]>>(&self, s: &'a [T], folder: F) -> F
    where
        T: 'a,
    {
        folder.consume_iter(s.chunk_by(&self.0))
    }

    fn fold_mut<'a, F: Folder<&'a mut [T]>>(&self, s: &'a mut [T], folder: F) -> F
    where
        T: 'a,
    {
        folder.consume_iter(s.chunk_by_mut(&self.0))
    }
}

struct Pieces<'a, 'c, T, C> {
    slice: &'a [T],
    cut: &'c C,
}

impl<'a, T: Sync, C: Cut<T>> UnindexedProducer for Pieces<'a, '_, T, C> {
    type Item = &'a [T];

    fn split(self) -> (Self, Option<Self>) {
        match self.cut.cut(self.slice) {
            Some((left_end, right_start)) => (
                Pieces {
                    slice: &self.slice[..left_end],
                    cut: self.cut,
                },
                Some(Pieces {
                    slice: &self.slice[right_start..],
                    cut: self.cut,
                }),
            ),
            None => (self, None),
        }
    }

    fn fold_with<F: Folder<&'a [T]>>(self, folder: F) -> F {
        self.cut.fold(self.slice, folder)
    }
}

struct PiecesMut<'a, 'c, T, C> {
    slice: &'a mut [T],
    cut: &'c C,
}

impl<'a, T: Send, C: Cut<T>> UnindexedProducer for PiecesMut<'a, '_, T, C> {
    type Item = &'a mut [T];

    fn split(self) -> (Self, Option<Self>) {
        match self.cut.cut(self.slice) {
            Some((left_end, right_start)) => {
                let (left, right) = self.slice.split_at_mut(right_start);
                (
                    PiecesMut {
                        slice: &mut left[..left_end],
                        cut: self.cut,
                    },
                    Some(PiecesMut {
                        slice: right,
                        cut: self.cut,
                    }),
                )
            }
            None => (self, None),
        }
    }

    fn fold_with<F: Folder<&'a mut [T]>>(self, folder: F) -> F {
        self.cut.fold_mut(self.slice, folder)
    }
}

macro_rules! split_iter {
    ($(#[$doc:meta])* $name:ident, $cut:ident, $bound:path, ref) => {
        $(#[$doc])*
        #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
        pub struct $name<'data, T, P> {
            slice: &'data [T],
            cut: $cut<P>,
        }

        impl<'data, T, P> $name<'data, T, P> {
            pub(super) fn new(slice: &'data [T], pred: P) -> Self {
                $name { slice, cut: $cut(pred) }
            }
        }

        impl<T: std::fmt::Debug, P> std::fmt::Debug for $name<'_, T, P> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name)).field("slice", &self.slice).finish()
            }
        }

        impl<T, P: Clone> Clone for $name<'_, T, P> {
            fn clone(&self) -> Self {
                $name { slice: self.slice, cut: $cut(self.cut.0.clone()) }
            }
        }

        impl<'data, T: Sync, P: $bound + Sync + Send> ParallelIterator for $name<'data, T, P> {
            type Item = &'data [T];

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: UnindexedConsumer<Self::Item>,
            {
                bridge_unindexed(Pieces { slice: self.slice, cut: &self.cut }, consumer)
            }
        }
    };
    ($(#[$doc:meta])* $name:ident, $cut:ident, $bound:path, mut) => {
        $(#[$doc])*
        #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
        pub struct $name<'data, T, P> {
            slice: &'data mut [T],
            cut: $cut<P>,
        }

        impl<'data, T, P> $name<'data, T, P> {
            pub(super) fn new(slice: &'data mut [T], pred: P) -> Self {
                $name { slice, cut: $cut(pred) }
            }
        }

        impl<T: std::fmt::Debug, P> std::fmt::Debug for $name<'_, T, P> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name)).field("slice", &self.slice).finish()
            }
        }

        impl<'data, T: Send, P: $bound + Sync + Send> ParallelIterator for $name<'data, T, P> {
            type Item = &'data mut [T];

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: UnindexedConsumer<Self::Item>,
            {
                bridge_unindexed(PiecesMut { slice: self.slice, cut: &self.cut }, consumer)
            }
        }
    };
}

split_iter! {
    /// The iterator of [`par_split`](super::slice::ParallelSlice::par_split): the sub-slices
    /// between separators, as `[T]::split` gives them.
    Split, Sep, Fn(&T) -> bool, ref
}
split_iter! {
    /// The iterator of [`par_split_inclusive`](super::slice::ParallelSlice::par_split_inclusive):
    /// the sub-slices each ended by its separator, as `[T]::split_inclusive` gives them.
    SplitInclusive, SepInclusive, Fn(&T) -> bool, ref
}
split_iter! {
    /// The iterator of [`par_chunk_by`](super::slice::ParallelSlice::par_chunk_by): the runs of
    /// items where each neighbouring pair satisfies the predicate, as `[T]::chunk_by`.
    ChunkBy, Runs, Fn(&T, &T) -> bool, ref
}
split_iter! {
    /// The iterator of [`par_split_mut`](super::slice::ParallelSliceMut::par_split_mut).
    SplitMut, Sep, Fn(&T) -> bool, mut
}
split_iter! {
    /// The iterator of
    /// [`par_split_inclusive_mut`](super::slice::ParallelSliceMut::par_split_inclusive_mut).
    SplitInclusiveMut, SepInclusive, Fn(&T) -> bool, mut
}
split_iter! {
    /// The iterator of [`par_chunk_by_mut`](super::slice::ParallelSliceMut::par_chunk_by_mut).
    ChunkByMut, Runs, Fn(&T, &T) -> bool, mut
}

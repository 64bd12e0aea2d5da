//! Slices cut where a predicate says: `par_split`, `par_split_inclusive`, `par_chunk_by`
//! and their `_mut` forms, giving the sub-slices std's `split`, `split_inclusive` and
//! `chunk_by` give, in order.
//!
//! A *position* is where a cut may be: an item for `par_split` (a separator, dropped) and
//! `par_split_inclusive` (a separator, which ends the left side; the last item is not a
//! position, since a separator there cuts nothing off), a neighbouring pair for
//! `par_chunk_by` (a pair the predicate rejects). The predicate is called exactly once
//! per position (never for the last item of `par_split_inclusive`), as rayon does: each
//! piece remembers the `tail` of its positions already known not to be cuts.
//!
//! A piece is split by looking for a cut among its untested positions, from their middle
//! forward, then backward. Found forward, the positions between the middle and the cut are
//! known clean and become the left side's tail; found backward, everything right of the cut
//! was tested. Not found, the whole piece is known clean and is folded as one item. A
//! piece is folded by testing its untested positions in order, and the sequential result
//! of the whole is the left side's followed by the right side's, so the order is std's.

use super::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use super::ParallelIterator;

/// The kind of cut: which positions a slice has and what a cut at one leaves.
trait Cut<T>: Sync {
    /// Whether the final piece is produced even when empty (`split` gives `[]` after a
    /// trailing separator and for an empty slice; the others do not).
    const EMPTY_LAST: bool;

    /// How many positions a slice of `len` items has.
    fn positions(len: usize) -> usize;

    /// Whether position `p` of `s` is a cut (the predicate's one call for it).
    fn hit(&self, s: &[T], p: usize) -> bool;

    /// `(left_end, right_start)` of a cut at position `p`.
    fn sides(p: usize) -> (usize, usize);
}

struct Sep<P>(P);
struct SepInclusive<P>(P);
struct Runs<F>(F);

impl<T, P: Fn(&T) -> bool + Sync> Cut<T> for Sep<P> {
    const EMPTY_LAST: bool = true;

    fn positions(len: usize) -> usize {
        len
    }

    fn hit(&self, s: &[T], p: usize) -> bool {
        (self.0)(&s[p])
    }

    fn sides(p: usize) -> (usize, usize) {
        (p, p + 1)
    }
}

impl<T, P: Fn(&T) -> bool + Sync> Cut<T> for SepInclusive<P> {
    const EMPTY_LAST: bool = false;

    fn positions(len: usize) -> usize {
        len.saturating_sub(1)
    }

    fn hit(&self, s: &[T], p: usize) -> bool {
        (self.0)(&s[p])
    }

    fn sides(p: usize) -> (usize, usize) {
        (p + 1, p + 1)
    }
}

impl<T, P: Fn(&T, &T) -> bool + Sync> Cut<T> for Runs<P> {
    const EMPTY_LAST: bool = false;

    fn positions(len: usize) -> usize {
        len.saturating_sub(1)
    }

    /// Position `p` is the pair `(s[p], s[p + 1])`.
    fn hit(&self, s: &[T], p: usize) -> bool {
        !(self.0)(&s[p], &s[p + 1])
    }

    fn sides(p: usize) -> (usize, usize) {
        (p + 1, p + 1)
    }
}

/// What the pieces are: `&[T]` or `&mut [T]`.
trait Slice: Sized + Send {
    type Elem;
    fn get(&self) -> &[Self::Elem];
    fn cut_at(self, index: usize) -> (Self, Self);
}

impl<T: Sync> Slice for &[T] {
    type Elem = T;

    fn get(&self) -> &[T] {
        self
    }

    fn cut_at(self, index: usize) -> (Self, Self) {
        self.split_at(index)
    }
}

impl<T: Send> Slice for &mut [T] {
    type Elem = T;

    fn get(&self) -> &[T] {
        self
    }

    fn cut_at(self, index: usize) -> (Self, Self) {
        self.split_at_mut(index)
    }
}

/// A piece of the slice; its positions from `tail` on are known not to be cuts.
struct Pieces<'c, S, C> {
    slice: S,
    tail: usize,
    cut: &'c C,
}

impl<'c, S: Slice, C: Cut<S::Elem>> Pieces<'c, S, C> {
    fn new(slice: S, cut: &'c C) -> Self {
        let tail = C::positions(slice.get().len());
        Pieces { slice, tail, cut }
    }
}

impl<S: Slice, C: Cut<S::Elem>> UnindexedProducer for Pieces<'_, S, C> {
    type Item = S;

    fn split(self) -> (Self, Option<Self>) {
        let Pieces { slice, tail, cut } = self;
        let mid = tail / 2;
        let s = slice.get();
        let forward = (mid..tail).find(|&p| cut.hit(s, p));
        let found = match forward {
            Some(p) => Some(p),
            None => (0..mid).rev().find(|&p| cut.hit(s, p)),
        };
        let Some(p) = found else {
            // No cut at all: the whole piece is one item.
            return (
                Pieces {
                    slice,
                    tail: 0,
                    cut,
                },
                None,
            );
        };
        let (left_end, right_start) = C::sides(p);
        let (left, right) = slice.cut_at(right_start);
        let (left, _) = left.cut_at(left_end);
        let (left_tail, right_tail) = if forward.is_some() {
            // Tested: `mid..=p`. The left side keeps `mid..p` clean; the right side's
            // clean positions are still those from `tail` on.
            (mid, tail - right_start)
        } else {
            // Tested: all of `mid..tail`, then `p..mid` backward: the right side is clean.
            (p, 0)
        };
        (
            Pieces {
                slice: left,
                tail: left_tail,
                cut,
            },
            Some(Pieces {
                slice: right,
                tail: right_tail,
                cut,
            }),
        )
    }

    fn fold_with<F: Folder<S>>(self, mut folder: F) -> F {
        let Pieces { slice, tail, cut } = self;
        // `rest` is the slice from `start` on, not yet handed to the folder.
        let (mut rest, mut start) = (slice, 0);
        for p in 0..tail {
            if cut.hit(rest.get(), p - start) {
                let (left_end, right_start) = C::sides(p - start);
                let (item, after) = rest.cut_at(right_start);
                folder = folder.consume(item.cut_at(left_end).0);
                if folder.full() {
                    return folder;
                }
                rest = after;
                start += right_start;
            }
        }
        if C::EMPTY_LAST || !rest.get().is_empty() {
            folder = folder.consume(rest);
        }
        folder
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
                bridge_unindexed(Pieces::new(self.slice, &self.cut), consumer)
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
                bridge_unindexed(Pieces::new(self.slice, &self.cut), consumer)
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

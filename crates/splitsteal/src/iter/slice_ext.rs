//! The slice extension traits [`ParallelSlice`] and [`ParallelSliceMut`] (re-exported from
//! [`slice`](super::slice) and the prelude): chunks, windows and the parallel sorts, with
//! rayon's names and signatures.
//!
//! The sorts are splitsteal's own parallel merge sort ([`crate::par::sort`] and friends)
//! run on the current pool: the stable ones keep equal elements in order, the unstable
//! ones may not (and use std's faster unstable sort at the leaves).

use std::cmp::Ordering;

use super::chunks::{
    Chunks, ChunksExact, ChunksExactMut, ChunksMut, RChunks, RChunksExact, RChunksExactMut,
    RChunksMut,
};
use super::slice_split::{ChunkBy, ChunkByMut, Split, SplitInclusive, SplitInclusiveMut, SplitMut};
use super::windows::Windows;
use super::{IndexedParallelIterator, IntoParallelRefMutIterator, ParallelIterator};
use crate::par::current;

#[track_caller]
fn check_chunk_size(chunk_size: usize) {
    assert!(chunk_size != 0, "chunk_size must not be zero");
}

/// Parallel methods on shared slices (`[T]`, and through deref `Vec<T>` and arrays).
pub trait ParallelSlice<T: Sync> {
    /// The slice the other methods work on.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = vec![1, 2];
    /// assert_eq!(v.as_parallel_slice(), [1, 2]);
    /// ```
    fn as_parallel_slice(&self) -> &[T];

    /// Every contiguous window of `window_size` items (they overlap), in order.
    ///
    /// # Panics
    /// If `window_size` is 0 (as std's `windows(0)`; rayon panics when the iterator is
    /// run, splitsteal already here).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let windows: Vec<&[i32]> = [1, 2, 3].par_windows(2).collect();
    /// assert_eq!(windows, [[1, 2], [2, 3]]);
    /// ```
    #[track_caller]
    fn par_windows(&self, window_size: usize) -> Windows<'_, T> {
        assert!(window_size != 0, "window_size must not be zero");
        Windows::new(window_size, self.as_parallel_slice())
    }

    /// Every contiguous window of `N` items (they overlap), as `&[T; N]`, in order.
    ///
    /// # Panics
    /// If `N` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let windows: Vec<&[i32; 2]> = [1, 2, 3].par_array_windows().collect();
    /// assert_eq!(windows, [&[1, 2], &[2, 3]]);
    /// ```
    #[track_caller]
    fn par_array_windows<const N: usize>(&self) -> super::slice::ArrayWindows<'_, T, N> {
        super::slice::ArrayWindows::new(self.as_parallel_slice())
    }

    /// Non-overlapping chunks of `chunk_size` items, in order; the last may be shorter.
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let chunks: Vec<&[i32]> = [1, 2, 3, 4, 5].par_chunks(2).collect();
    /// assert_eq!(chunks, [&[1, 2][..], &[3, 4], &[5]]);
    /// ```
    #[track_caller]
    fn par_chunks(&self, chunk_size: usize) -> Chunks<'_, T> {
        check_chunk_size(chunk_size);
        Chunks::new(chunk_size, self.as_parallel_slice())
    }

    /// Non-overlapping chunks of exactly `chunk_size` items, in order; the remainder is
    /// left out (see [`ChunksExact::remainder`]).
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let chunks: Vec<&[i32]> = [1, 2, 3, 4, 5].par_chunks_exact(2).collect();
    /// assert_eq!(chunks, [&[1, 2][..], &[3, 4]]);
    /// ```
    #[track_caller]
    fn par_chunks_exact(&self, chunk_size: usize) -> ChunksExact<'_, T> {
        check_chunk_size(chunk_size);
        ChunksExact::new(chunk_size, self.as_parallel_slice())
    }

    /// Non-overlapping chunks of `chunk_size` items counted from the back, back to front;
    /// the last (the slice's head) may be shorter.
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let chunks: Vec<&[i32]> = [1, 2, 3, 4, 5].par_rchunks(2).collect();
    /// assert_eq!(chunks, [&[4, 5][..], &[2, 3], &[1]]);
    /// ```
    #[track_caller]
    fn par_rchunks(&self, chunk_size: usize) -> RChunks<'_, T> {
        check_chunk_size(chunk_size);
        RChunks::new(chunk_size, self.as_parallel_slice())
    }

    /// Non-overlapping chunks of exactly `chunk_size` items counted from the back; the
    /// head that is left over is left out (see [`RChunksExact::remainder`]).
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let chunks: Vec<&[i32]> = [1, 2, 3, 4, 5].par_rchunks_exact(2).collect();
    /// assert_eq!(chunks, [&[4, 5][..], &[2, 3]]);
    /// ```
    #[track_caller]
    fn par_rchunks_exact(&self, chunk_size: usize) -> RChunksExact<'_, T> {
        check_chunk_size(chunk_size);
        RChunksExact::new(chunk_size, self.as_parallel_slice())
    }

    /// The sub-slices between the items where `separator` holds (those items left out), as
    /// std's `split`: two adjacent separators give an empty slice between them.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let parts: Vec<&[i32]> = [1, 0, 2, 3, 0, 0, 4].par_split(|&x| x == 0).collect();
    /// assert_eq!(parts, [&[1][..], &[2, 3], &[], &[4]]);
    /// ```
    fn par_split<P>(&self, separator: P) -> Split<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        Split::new(self.as_parallel_slice(), separator)
    }

    /// The sub-slices each ended by an item where `separator` holds (that item included),
    /// as std's `split_inclusive`; the last may end without one.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let parts: Vec<&[i32]> = [1, 0, 2, 3, 0, 4].par_split_inclusive(|&x| x == 0).collect();
    /// assert_eq!(parts, [&[1, 0][..], &[2, 3, 0], &[4]]);
    /// ```
    fn par_split_inclusive<P>(&self, separator: P) -> SplitInclusive<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SplitInclusive::new(self.as_parallel_slice(), separator)
    }

    /// The runs of items where `pred` holds for every neighbouring pair, as std's
    /// `chunk_by`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let runs: Vec<&[i32]> = [1, 1, 2, 3, 3, 3].par_chunk_by(|a, b| a == b).collect();
    /// assert_eq!(runs, [&[1, 1][..], &[2], &[3, 3, 3]]);
    /// ```
    fn par_chunk_by<F>(&self, pred: F) -> ChunkBy<'_, T, F>
    where
        F: Fn(&T, &T) -> bool + Send + Sync,
    {
        ChunkBy::new(self.as_parallel_slice(), pred)
    }
}

impl<T: Sync> ParallelSlice<T> for [T] {
    #[inline]
    fn as_parallel_slice(&self) -> &[T] {
        self
    }
}

/// Parallel methods on mutable slices (`[T]`, and through deref `Vec<T>` and arrays):
/// mutable chunks and the parallel sorts.
pub trait ParallelSliceMut<T: Send> {
    /// The slice the other methods work on.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = vec![1, 2];
    /// v.as_parallel_slice_mut()[0] = 5;
    /// assert_eq!(v, [5, 2]);
    /// ```
    fn as_parallel_slice_mut(&mut self) -> &mut [T];

    /// Non-overlapping mutable chunks of `chunk_size` items; the last may be shorter.
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_chunks_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [2, 1, 4, 3, 5]);
    /// ```
    #[track_caller]
    fn par_chunks_mut(&mut self, chunk_size: usize) -> ChunksMut<'_, T> {
        check_chunk_size(chunk_size);
        ChunksMut::new(chunk_size, self.as_parallel_slice_mut())
    }

    /// Non-overlapping mutable chunks of exactly `chunk_size` items; the remainder is left
    /// out (see [`ChunksExactMut::into_remainder`]).
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_chunks_exact_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [2, 1, 4, 3, 5]);
    /// ```
    #[track_caller]
    fn par_chunks_exact_mut(&mut self, chunk_size: usize) -> ChunksExactMut<'_, T> {
        check_chunk_size(chunk_size);
        ChunksExactMut::new(chunk_size, self.as_parallel_slice_mut())
    }

    /// Non-overlapping mutable chunks of `chunk_size` items counted from the back.
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_rchunks_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [1, 3, 2, 5, 4]);
    /// ```
    #[track_caller]
    fn par_rchunks_mut(&mut self, chunk_size: usize) -> RChunksMut<'_, T> {
        check_chunk_size(chunk_size);
        RChunksMut::new(chunk_size, self.as_parallel_slice_mut())
    }

    /// Non-overlapping mutable chunks of exactly `chunk_size` items counted from the back;
    /// the head left over is left out.
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_rchunks_exact_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [1, 3, 2, 5, 4]);
    /// ```
    #[track_caller]
    fn par_rchunks_exact_mut(&mut self, chunk_size: usize) -> RChunksExactMut<'_, T> {
        check_chunk_size(chunk_size);
        RChunksExactMut::new(chunk_size, self.as_parallel_slice_mut())
    }

    /// Sorts the slice in parallel; stable (a parallel merge sort, see
    /// [`crate::par::sort`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [5, 4, 1, 3, 2];
    /// v.par_sort();
    /// assert_eq!(v, [1, 2, 3, 4, 5]);
    /// ```
    fn par_sort(&mut self)
    where
        T: Ord,
    {
        current::sort(self.as_parallel_slice_mut());
    }

    /// Sorts the slice with a comparator, in parallel; stable.
    ///
    /// If `compare` is not a total order, the slice ends in some permutation of its
    /// elements, without a panic (as with rayon). `std`'s sort, used on the pieces, may
    /// still report such a comparator with a panic message on stderr, which the sort
    /// catches (with `panic = "abort"`, the process aborts). A panic of `compare` itself
    /// propagates, leaving the slice a permutation of its elements.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [5, 4, 1, 3, 2];
    /// v.par_sort_by(|a, b| b.cmp(a));
    /// assert_eq!(v, [5, 4, 3, 2, 1]);
    /// ```
    fn par_sort_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync,
    {
        current::sort_by(self.as_parallel_slice_mut(), compare);
    }

    /// Sorts the slice by a key, in parallel; stable. The key is computed at every
    /// comparison; see [`par_sort_by_cached_key`](ParallelSliceMut::par_sort_by_cached_key)
    /// for expensive keys.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd')];
    /// v.par_sort_by_key(|p| p.0);
    /// assert_eq!(v, [(1, 'b'), (1, 'd'), (2, 'a'), (2, 'c')]);
    /// ```
    fn par_sort_by_key<K, F>(&mut self, f: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync,
    {
        current::sort_by_key(self.as_parallel_slice_mut(), f);
    }

    /// Sorts the slice by a key computed once per element, in parallel; stable.
    ///
    /// The keys are computed in parallel (`f` is called exactly once per element), the
    /// `(key, index)` pairs are sorted with the crate's parallel sort (the index breaks
    /// ties, so equal keys keep their order), and the elements are then moved into place
    /// by following the permutation's cycles (sequential, one swap per element).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = ["ccc", "a", "bb", "d"];
    /// v.par_sort_by_cached_key(|s| s.len());
    /// assert_eq!(v, ["a", "d", "bb", "ccc"]);
    /// ```
    fn par_sort_by_cached_key<K, F>(&mut self, f: F)
    where
        F: Fn(&T) -> K + Sync,
        K: Ord + Send,
    {
        let slice = self.as_parallel_slice_mut();
        let len = slice.len();
        // `par_iter_mut` (not `par_iter`) so that only `T: Send` is needed, as in rayon.
        let mut keyed: Vec<(K, usize)> = slice
            .par_iter_mut()
            .enumerate()
            .map(|(i, x)| (f(&*x), i))
            .collect();
        if len < 2 {
            return;
        }
        // Indices are distinct, so the unstable sort orders equal keys by index: stable.
        current::sort_unstable(&mut keyed);
        // `keyed[i].1` is where position i's element is now. Earlier positions were already
        // filled by swaps, which moved the element that was at i onward to the swapped-from
        // slot; following the chain of recorded indices below i finds where it went.
        for i in 0..len {
            let mut index = keyed[i].1;
            while index < i {
                index = keyed[index].1;
            }
            keyed[i].1 = index;
            slice.swap(i, index);
        }
    }

    /// Sorts the slice in parallel; not stable (equal elements may be reordered).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [5, 4, 1, 3, 2];
    /// v.par_sort_unstable();
    /// assert_eq!(v, [1, 2, 3, 4, 5]);
    /// ```
    fn par_sort_unstable(&mut self)
    where
        T: Ord,
    {
        current::sort_unstable(self.as_parallel_slice_mut());
    }

    /// Sorts the slice with a comparator, in parallel; not stable. A comparator that is
    /// not a total order, or that panics, is handled as in
    /// [`par_sort_by`](ParallelSliceMut::par_sort_by).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1.5f64, -2.0, 0.25];
    /// v.par_sort_unstable_by(|a, b| a.total_cmp(b));
    /// assert_eq!(v, [-2.0, 0.25, 1.5]);
    /// ```
    fn par_sort_unstable_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync,
    {
        current::sort_unstable_by(self.as_parallel_slice_mut(), compare);
    }

    /// Sorts the slice by a key, in parallel; not stable.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [-3i32, 1, -2];
    /// v.par_sort_unstable_by_key(|x| x.abs());
    /// assert_eq!(v, [1, -2, -3]);
    /// ```
    fn par_sort_unstable_by_key<K, F>(&mut self, f: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync,
    {
        current::sort_unstable_by_key(self.as_parallel_slice_mut(), f);
    }

    /// Mutable sub-slices between the items where `separator` holds, as std's `split_mut`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [3, 1, 0, 5, 4, 0, 2];
    /// v.par_split_mut(|&x| x == 0).for_each(|part| part.sort());
    /// assert_eq!(v, [1, 3, 0, 4, 5, 0, 2]);
    /// ```
    fn par_split_mut<P>(&mut self, separator: P) -> SplitMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SplitMut::new(self.as_parallel_slice_mut(), separator)
    }

    /// Mutable sub-slices each ended by an item where `separator` holds, as std's
    /// `split_inclusive_mut`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [2, 1, 0, 4, 3, 0];
    /// v.par_split_inclusive_mut(|&x| x == 0).for_each(|part| part.reverse());
    /// assert_eq!(v, [0, 1, 2, 0, 3, 4]);
    /// ```
    fn par_split_inclusive_mut<P>(&mut self, separator: P) -> SplitInclusiveMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SplitInclusiveMut::new(self.as_parallel_slice_mut(), separator)
    }

    /// Mutable runs of items where `pred` holds for every neighbouring pair, as std's
    /// `chunk_by_mut`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3, 2, 5, 9];
    /// v.par_chunk_by_mut(|a, b| a < b).for_each(|run| run.reverse());
    /// assert_eq!(v, [3, 2, 1, 9, 5, 2]);
    /// ```
    fn par_chunk_by_mut<F>(&mut self, pred: F) -> ChunkByMut<'_, T, F>
    where
        F: Fn(&T, &T) -> bool + Send + Sync,
    {
        ChunkByMut::new(self.as_parallel_slice_mut(), pred)
    }
}

impl<T: Send> ParallelSliceMut<T> for [T] {
    #[inline]
    fn as_parallel_slice_mut(&mut self) -> &mut [T] {
        self
    }
}

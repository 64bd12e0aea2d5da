//! Parallel iterators over non-overlapping chunks of a slice: `par_chunks`,
//! `par_chunks_exact`, `par_rchunks`, `par_rchunks_exact` and their `_mut` forms (see
//! [`ParallelSlice`](super::slice::ParallelSlice) and
//! [`ParallelSliceMut`](super::slice::ParallelSliceMut)).
//!
//! All are indexed: the producer splits in units of whole chunks (chunk `i` starts at
//! `i * chunk_size`, or ends there counting from the back for the `r` forms), so every
//! piece sees exactly the chunks std's sequential iterator would give it, and `zip`,
//! `enumerate` and in-place `collect` work on them. The `_exact` forms cut the remainder
//! off up front; it is available from `remainder()`.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// Where to cut a slice of `len` items after `index` chunks, counting from the front.
fn cut_front(len: usize, chunk_size: usize, index: usize) -> usize {
    Ord::min(index.saturating_mul(chunk_size), len)
}

/// Where to cut a slice of `len` items after `index` chunks, counting from the back.
fn cut_back(len: usize, chunk_size: usize, index: usize) -> usize {
    len.saturating_sub(index.saturating_mul(chunk_size))
}

fn split_front<T>(s: &[T], size: usize, index: usize) -> (&[T], &[T]) {
    s.split_at(cut_front(s.len(), size, index))
}

fn split_front_mut<T>(s: &mut [T], size: usize, index: usize) -> (&mut [T], &mut [T]) {
    s.split_at_mut(cut_front(s.len(), size, index))
}

/// The first `index` chunks from the back are the tail of the slice: they go left.
fn split_back<T>(s: &[T], size: usize, index: usize) -> (&[T], &[T]) {
    let (head, tail) = s.split_at(cut_back(s.len(), size, index));
    (tail, head)
}

fn split_back_mut<T>(s: &mut [T], size: usize, index: usize) -> (&mut [T], &mut [T]) {
    let (head, tail) = s.split_at_mut(cut_back(s.len(), size, index));
    (tail, head)
}

/// The chunk count of a slice whose last chunk may be short.
fn ceil_chunks(len: usize, chunk_size: usize) -> usize {
    len.div_ceil(chunk_size)
}

/// The chunk count of a slice already cut to a multiple of the chunk size.
fn exact_chunks(len: usize, chunk_size: usize) -> usize {
    len / chunk_size
}

/// The parallel-iterator impls and the producer of one chunk iterator: `$name` has fields
/// `chunk_size` and `slice`; `$count` gives its number of chunks, `$make` is the std slice
/// method a leaf iterates with, `$split` cuts the slice after a number of chunks.
macro_rules! chunk_iterator {
    (
        $name:ident, $producer:ident, $bound:ident, $item:ty, $slice:ty,
        $iter:ty, $make:ident, $split:ident, $count:ident
    ) => {
        impl<'data, T: $bound + 'data> ParallelIterator for $name<'data, T> {
            type Item = $item;

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

        impl<'data, T: $bound + 'data> IndexedParallelIterator for $name<'data, T> {
            fn len(&self) -> usize {
                $count(self.slice.len(), self.chunk_size)
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
                callback.callback($producer {
                    chunk_size: self.chunk_size,
                    slice: self.slice,
                })
            }
        }

        struct $producer<'data, T: $bound> {
            chunk_size: usize,
            slice: $slice,
        }

        impl<'data, T: $bound + 'data> Producer for $producer<'data, T> {
            type Item = $item;
            type IntoIter = $iter;

            fn into_iter(self) -> Self::IntoIter {
                self.slice.$make(self.chunk_size)
            }

            fn split_at(self, index: usize) -> (Self, Self) {
                let (left, right) = $split(self.slice, self.chunk_size, index);
                (
                    $producer {
                        chunk_size: self.chunk_size,
                        slice: left,
                    },
                    $producer {
                        chunk_size: self.chunk_size,
                        slice: right,
                    },
                )
            }
        }
    };
}

/// The iterator of [`par_chunks`](super::slice::ParallelSlice::par_chunks): chunks of
/// `chunk_size` items, the last one possibly shorter.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let sums: Vec<i32> = [1, 2, 3, 4, 5].par_chunks(2).map(|c| c.iter().sum()).collect();
/// assert_eq!(sums, [3, 7, 5]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct Chunks<'data, T: Sync> {
    chunk_size: usize,
    slice: &'data [T],
}

impl<'data, T: Sync> Chunks<'data, T> {
    pub(super) fn new(chunk_size: usize, slice: &'data [T]) -> Self {
        Chunks { chunk_size, slice }
    }
}

impl<T: Sync> Clone for Chunks<'_, T> {
    fn clone(&self) -> Self {
        Chunks { ..*self }
    }
}

chunk_iterator!(
    Chunks,
    ChunksProducer,
    Sync,
    &'data [T],
    &'data [T],
    std::slice::Chunks<'data, T>,
    chunks,
    split_front,
    ceil_chunks
);

/// The iterator of [`par_chunks_exact`](super::slice::ParallelSlice::par_chunks_exact):
/// chunks of exactly `chunk_size` items; the last `len % chunk_size` items are left out
/// and available from [`remainder`](ChunksExact::remainder).
///
/// ```
/// use splitsteal::prelude::*;
///
/// let it = [1, 2, 3, 4, 5].par_chunks_exact(2);
/// assert_eq!(it.remainder(), [5]);
/// let sums: Vec<i32> = it.map(|c| c.iter().sum()).collect();
/// assert_eq!(sums, [3, 7]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct ChunksExact<'data, T: Sync> {
    chunk_size: usize,
    slice: &'data [T],
    rem: &'data [T],
}

impl<'data, T: Sync> ChunksExact<'data, T> {
    pub(super) fn new(chunk_size: usize, slice: &'data [T]) -> Self {
        let (slice, rem) = slice.split_at(slice.len() - slice.len() % chunk_size);
        ChunksExact {
            chunk_size,
            slice,
            rem,
        }
    }

    /// The items left over after the last whole chunk (fewer than `chunk_size`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert_eq!([1, 2, 3].par_chunks_exact(2).remainder(), [3]);
    /// ```
    pub fn remainder(&self) -> &'data [T] {
        self.rem
    }
}

impl<T: Sync> Clone for ChunksExact<'_, T> {
    fn clone(&self) -> Self {
        ChunksExact { ..*self }
    }
}

chunk_iterator!(
    ChunksExact,
    ChunksExactProducer,
    Sync,
    &'data [T],
    &'data [T],
    std::slice::ChunksExact<'data, T>,
    chunks_exact,
    split_front,
    exact_chunks
);

/// The iterator of [`par_rchunks`](super::slice::ParallelSlice::par_rchunks): chunks of
/// `chunk_size` items counted from the back, the last one (the slice's head) possibly
/// shorter.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let chunks: Vec<&[i32]> = [1, 2, 3, 4, 5].par_rchunks(2).collect();
/// assert_eq!(chunks, [&[4, 5][..], &[2, 3], &[1]]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct RChunks<'data, T: Sync> {
    chunk_size: usize,
    slice: &'data [T],
}

impl<'data, T: Sync> RChunks<'data, T> {
    pub(super) fn new(chunk_size: usize, slice: &'data [T]) -> Self {
        RChunks { chunk_size, slice }
    }
}

impl<T: Sync> Clone for RChunks<'_, T> {
    fn clone(&self) -> Self {
        RChunks { ..*self }
    }
}

chunk_iterator!(
    RChunks,
    RChunksProducer,
    Sync,
    &'data [T],
    &'data [T],
    std::slice::RChunks<'data, T>,
    rchunks,
    split_back,
    ceil_chunks
);

/// The iterator of [`par_rchunks_exact`](super::slice::ParallelSlice::par_rchunks_exact):
/// chunks of exactly `chunk_size` items counted from the back; the first
/// `len % chunk_size` items are left out and available from
/// [`remainder`](RChunksExact::remainder).
///
/// ```
/// use splitsteal::prelude::*;
///
/// let it = [1, 2, 3, 4, 5].par_rchunks_exact(2);
/// assert_eq!(it.remainder(), [1]);
/// let chunks: Vec<&[i32]> = it.collect();
/// assert_eq!(chunks, [&[4, 5][..], &[2, 3]]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct RChunksExact<'data, T: Sync> {
    chunk_size: usize,
    slice: &'data [T],
    rem: &'data [T],
}

impl<'data, T: Sync> RChunksExact<'data, T> {
    pub(super) fn new(chunk_size: usize, slice: &'data [T]) -> Self {
        let (rem, slice) = slice.split_at(slice.len() % chunk_size);
        RChunksExact {
            chunk_size,
            slice,
            rem,
        }
    }

    /// The items before the first whole chunk (fewer than `chunk_size`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert_eq!([1, 2, 3].par_rchunks_exact(2).remainder(), [1]);
    /// ```
    pub fn remainder(&self) -> &'data [T] {
        self.rem
    }
}

impl<T: Sync> Clone for RChunksExact<'_, T> {
    fn clone(&self) -> Self {
        RChunksExact { ..*self }
    }
}

chunk_iterator!(
    RChunksExact,
    RChunksExactProducer,
    Sync,
    &'data [T],
    &'data [T],
    std::slice::RChunksExact<'data, T>,
    rchunks_exact,
    split_back,
    exact_chunks
);

/// The iterator of [`par_chunks_mut`](super::slice::ParallelSliceMut::par_chunks_mut):
/// mutable chunks of `chunk_size` items, the last one possibly shorter.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut v = [1, 2, 3, 4, 5];
/// v.par_chunks_mut(2).for_each(|c| c.reverse());
/// assert_eq!(v, [2, 1, 4, 3, 5]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct ChunksMut<'data, T: Send> {
    chunk_size: usize,
    slice: &'data mut [T],
}

impl<'data, T: Send> ChunksMut<'data, T> {
    pub(super) fn new(chunk_size: usize, slice: &'data mut [T]) -> Self {
        ChunksMut { chunk_size, slice }
    }
}

chunk_iterator!(
    ChunksMut,
    ChunksMutProducer,
    Send,
    &'data mut [T],
    &'data mut [T],
    std::slice::ChunksMut<'data, T>,
    chunks_mut,
    split_front_mut,
    ceil_chunks
);

/// The iterator of
/// [`par_chunks_exact_mut`](super::slice::ParallelSliceMut::par_chunks_exact_mut): mutable
/// chunks of exactly `chunk_size` items; the last `len % chunk_size` items are left out
/// and available from [`into_remainder`](ChunksExactMut::into_remainder) and friends.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut v = [1, 2, 3, 4, 5];
/// v.par_chunks_exact_mut(2).for_each(|c| c.swap(0, 1));
/// assert_eq!(v, [2, 1, 4, 3, 5]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct ChunksExactMut<'data, T: Send> {
    chunk_size: usize,
    slice: &'data mut [T],
    rem: &'data mut [T],
}

impl<'data, T: Send> ChunksExactMut<'data, T> {
    pub(super) fn new(chunk_size: usize, slice: &'data mut [T]) -> Self {
        let cut = slice.len() - slice.len() % chunk_size;
        let (slice, rem) = slice.split_at_mut(cut);
        ChunksExactMut {
            chunk_size,
            slice,
            rem,
        }
    }

    /// The items left over after the last whole chunk, for the slice's whole lifetime.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3];
    /// v.par_chunks_exact_mut(2).into_remainder()[0] = 9;
    /// assert_eq!(v, [1, 2, 9]);
    /// ```
    pub fn into_remainder(self) -> &'data mut [T] {
        self.rem
    }

    /// The items left over after the last whole chunk, borrowed from the iterator.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3];
    /// let mut it = v.par_chunks_exact_mut(2);
    /// it.remainder()[0] = 7;
    /// it.for_each(|c| c[0] = 0);
    /// assert_eq!(v, [0, 2, 7]);
    /// ```
    pub fn remainder(&mut self) -> &mut [T] {
        self.rem
    }

    /// Takes the left-over items out of the iterator (it keeps an empty remainder).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3];
    /// let mut it = v.par_chunks_exact_mut(2);
    /// let rem = it.take_remainder();
    /// assert!(it.remainder().is_empty());
    /// rem[0] = 5;
    /// assert_eq!(v, [1, 2, 5]);
    /// ```
    pub fn take_remainder(&mut self) -> &'data mut [T] {
        std::mem::take(&mut self.rem)
    }
}

chunk_iterator!(
    ChunksExactMut,
    ChunksExactMutProducer,
    Send,
    &'data mut [T],
    &'data mut [T],
    std::slice::ChunksExactMut<'data, T>,
    chunks_exact_mut,
    split_front_mut,
    exact_chunks
);

/// The iterator of [`par_rchunks_mut`](super::slice::ParallelSliceMut::par_rchunks_mut):
/// mutable chunks of `chunk_size` items counted from the back.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut v = [1, 2, 3, 4, 5];
/// v.par_rchunks_mut(2).for_each(|c| c.reverse());
/// assert_eq!(v, [1, 3, 2, 5, 4]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct RChunksMut<'data, T: Send> {
    chunk_size: usize,
    slice: &'data mut [T],
}

impl<'data, T: Send> RChunksMut<'data, T> {
    pub(super) fn new(chunk_size: usize, slice: &'data mut [T]) -> Self {
        RChunksMut { chunk_size, slice }
    }
}

chunk_iterator!(
    RChunksMut,
    RChunksMutProducer,
    Send,
    &'data mut [T],
    &'data mut [T],
    std::slice::RChunksMut<'data, T>,
    rchunks_mut,
    split_back_mut,
    ceil_chunks
);

/// The iterator of
/// [`par_rchunks_exact_mut`](super::slice::ParallelSliceMut::par_rchunks_exact_mut):
/// mutable chunks of exactly `chunk_size` items counted from the back; the first
/// `len % chunk_size` items are left out.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut v = [1, 2, 3, 4, 5];
/// let it = v.par_rchunks_exact_mut(2);
/// it.for_each(|c| c.reverse());
/// assert_eq!(v, [1, 3, 2, 5, 4]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct RChunksExactMut<'data, T: Send> {
    chunk_size: usize,
    slice: &'data mut [T],
    rem: &'data mut [T],
}

impl<'data, T: Send> RChunksExactMut<'data, T> {
    pub(super) fn new(chunk_size: usize, slice: &'data mut [T]) -> Self {
        let (rem, slice) = slice.split_at_mut(slice.len() % chunk_size);
        RChunksExactMut {
            chunk_size,
            slice,
            rem,
        }
    }

    /// The items before the first whole chunk, for the slice's whole lifetime.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3];
    /// v.par_rchunks_exact_mut(2).into_remainder()[0] = 9;
    /// assert_eq!(v, [9, 2, 3]);
    /// ```
    pub fn into_remainder(self) -> &'data mut [T] {
        self.rem
    }

    /// The items before the first whole chunk, borrowed from the iterator.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3];
    /// let mut it = v.par_rchunks_exact_mut(2);
    /// assert_eq!(it.remainder(), [1]);
    /// ```
    pub fn remainder(&mut self) -> &mut [T] {
        self.rem
    }

    /// Takes the items before the first whole chunk out of the iterator.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = [1, 2, 3];
    /// let mut it = v.par_rchunks_exact_mut(2);
    /// let rem = it.take_remainder();
    /// rem[0] = 4;
    /// assert!(it.remainder().is_empty());
    /// assert_eq!(v, [4, 2, 3]);
    /// ```
    pub fn take_remainder(&mut self) -> &'data mut [T] {
        std::mem::take(&mut self.rem)
    }
}

chunk_iterator!(
    RChunksExactMut,
    RChunksExactMutProducer,
    Send,
    &'data mut [T],
    &'data mut [T],
    std::slice::RChunksExactMut<'data, T>,
    rchunks_exact_mut,
    split_back_mut,
    exact_chunks
);

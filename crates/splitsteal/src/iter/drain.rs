//! `par_drain`: moving items out of a collection that stays usable (and keeps its
//! capacity), as rayon's `ParallelDrainRange` / `ParallelDrainFull` do.
//!
//! A `Vec`'s drain is lazy and indexed: the range's items are moved straight out of the
//! buffer by the pieces of the run (the `Vec`'s length is cut to the range's start while it
//! runs, so a panic can never expose a moved-out slot), and when the iterator is dropped the
//! tail is moved down behind the items kept before the range. Items a run did not reach (an
//! early stop, a panic) are dropped by the piece that owned them.
//!
//! The other collections cannot be cut by position in place, so their drains move the items
//! out first with the collection's own sequential `drain` (one pass, the same pass rayon's
//! hash-table drains make) and iterate that `Vec` in parallel.

use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::marker::PhantomData;
use std::ops::{Bound, Range, RangeBounds};
use std::ptr;

use super::plumbing::{bridge, Consumer, ProducerCallback, UnindexedConsumer};
use super::string::ParallelString;
use super::vec::{self, DrainProducer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// Drains a range of an indexable collection into a parallel iterator, leaving the rest of
/// the collection (and its capacity) in place.
///
/// When the iterator is dropped, every item of the range has been removed, even if the
/// iterator was never run or stopped early. If it is leaked (`std::mem::forget`), how many
/// items are removed is unspecified (as in rayon).
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut v: Vec<i32> = (0..10).collect();
/// let taken: Vec<i32> = v.par_drain(2..5).collect();
/// assert_eq!(taken, [2, 3, 4]);
/// assert_eq!(v, [0, 1, 5, 6, 7, 8, 9]);
/// ```
pub trait ParallelDrainRange<Idx = usize> {
    /// The draining parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// The items it moves out.
    type Item: Send;

    /// Drains `range` (panics, as `Vec::drain` does, if it is out of bounds or, for a
    /// `String`, not on `char` boundaries).
    fn par_drain<R: RangeBounds<Idx>>(self, range: R) -> Self::Iter;
}

/// Drains all of a collection that cannot be drained by range (hash tables, heaps) into a
/// parallel iterator, leaving it empty with its capacity.
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::HashSet;
///
/// let mut s: HashSet<u32> = (0..100).collect();
/// let total: u32 = s.par_drain().sum();
/// assert_eq!(total, 4950);
/// assert!(s.is_empty());
/// ```
pub trait ParallelDrainFull {
    /// The draining parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// The items it moves out.
    type Item: Send;

    /// Drains every item.
    fn par_drain(self) -> Self::Iter;
}

/// `range` as a `start..end` within `0..len`, panicking with std's messages when it does not
/// fit (the caller asked for items that are not there: rayon and std panic too).
fn to_range<R: RangeBounds<usize>>(range: R, len: usize) -> Range<usize> {
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s
            .checked_add(1)
            .expect("attempted to drain from after usize::MAX"),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e
            .checked_add(1)
            .expect("attempted to drain up to after usize::MAX"),
        Bound::Excluded(&e) => e,
        Bound::Unbounded => len,
    };
    assert!(
        start <= end,
        "drain range starts at {start} but ends at {end}"
    );
    assert!(
        end <= len,
        "drain range end {end} out of range for length {len}"
    );
    start..end
}

/// The iterator of [`par_drain`](ParallelDrainRange::par_drain) on a `Vec`: the range's
/// items, moved out in order; indexed.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut v: Vec<String> = (0..6).map(|i| i.to_string()).collect();
/// let joined: String = v.par_drain(..3).collect();
/// assert_eq!(joined, "012");
/// assert_eq!(v, ["3", "4", "5"]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct VecDrain<'data, T: Send> {
    vec: &'data mut Vec<T>,
    range: Range<usize>,
    /// The `Vec`'s length before the run: a length still equal to it on drop means the
    /// run never started.
    orig_len: usize,
}

impl<'data, T: Send> ParallelDrainRange<usize> for &'data mut Vec<T> {
    type Iter = VecDrain<'data, T>;
    type Item = T;

    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> VecDrain<'data, T> {
        let orig_len = self.len();
        VecDrain {
            range: to_range(range, orig_len),
            vec: self,
            orig_len,
        }
    }
}

impl<T: Send> ParallelIterator for VecDrain<'_, T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.range.len())
    }
}

impl<T: Send> IndexedParallelIterator for VecDrain<'_, T> {
    fn len(&self) -> usize {
        self.range.len()
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<T>,
    {
        bridge(self, consumer)
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<T>,
    {
        let Range { start, end } = self.range.clone();
        // SAFETY: the range's items now belong to the producer and the tail is ours until
        // `drop` moves it back; with the length cut to `start` neither is reachable (nor
        // dropped) through the Vec, even if the run panics.
        unsafe { self.vec.set_len(start) };
        // SAFETY: `start..end` lies within the old length (checked by `to_range`), so these
        // are `end - start` initialized items that nobody else owns now.
        let items = unsafe {
            std::slice::from_raw_parts_mut(self.vec.as_mut_ptr().add(start), end - start)
        };
        // SAFETY: as just said, initialized and owned by the producer alone.
        let result = callback.callback(unsafe { DrainProducer::new(items) });
        // `self` drops here (or while unwinding), closing the gap.
        result
    }
}

impl<T: Send> Drop for VecDrain<'_, T> {
    fn drop(&mut self) {
        let Range { start, end } = self.range.clone();
        if self.vec.len() == self.orig_len {
            // Never run (or an empty range at the very end): remove the range as std does,
            // dropping its items.
            self.vec.drain(start..end);
            return;
        }
        // The run moved out or dropped every item of the range; the tail sits after it.
        let tail = self.orig_len - end;
        let base = self.vec.as_mut_ptr();
        // SAFETY: `end..orig_len` are the tail's initialized items and `start + tail` fits
        // the buffer; the regions may overlap, which `ptr::copy` allows.
        unsafe { ptr::copy(base.add(end), base.add(start), tail) };
        // SAFETY: `0..start` were never touched and `start..start + tail` now hold the tail.
        unsafe { self.vec.set_len(start + tail) };
    }
}

/// The iterator of [`par_drain`](ParallelDrainRange::par_drain) on a `VecDeque`: the
/// range's items, front to back; indexed. They are moved out with `VecDeque::drain` when
/// `par_drain` is called, then iterated in parallel.
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::VecDeque;
///
/// let mut d: VecDeque<i32> = (0..8).collect();
/// assert_eq!(d.par_drain(6..).collect::<Vec<_>>(), [6, 7]);
/// assert_eq!(d, [0, 1, 2, 3, 4, 5]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct VecDequeDrain<'data, T: Send> {
    inner: vec::IntoIter<T>,
    marker: PhantomData<&'data mut VecDeque<T>>,
}

impl<'data, T: Send> ParallelDrainRange<usize> for &'data mut VecDeque<T> {
    type Iter = VecDequeDrain<'data, T>;
    type Item = T;

    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> VecDequeDrain<'data, T> {
        let range = to_range(range, self.len());
        VecDequeDrain {
            inner: self.drain(range).collect::<Vec<_>>().into_par_iter(),
            marker: PhantomData,
        }
    }
}

super::delegate::delegate_indexed_iterator! { VecDequeDrain<'data, T> => T, impl<'data, T: Send> }

/// The iterator of [`par_drain`](ParallelDrainRange::par_drain) on a `String`: the range's
/// `char`s (as `par_chars` gives them). The range is removed when the iterator drops.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut s = String::from("hello, world");
/// let upper: String = s.par_drain(..5).map(|c| c.to_ascii_uppercase()).collect();
/// assert_eq!(upper, "HELLO");
/// assert_eq!(s, ", world");
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct StringDrain<'data> {
    string: &'data mut String,
    range: Range<usize>,
}

impl<'data> ParallelDrainRange<usize> for &'data mut String {
    type Iter = StringDrain<'data>;
    type Item = char;

    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> StringDrain<'data> {
        let range = to_range(range, self.len());
        assert!(
            self.is_char_boundary(range.start) && self.is_char_boundary(range.end),
            "drain range {range:?} is not on char boundaries"
        );
        StringDrain {
            string: self,
            range,
        }
    }
}

impl ParallelIterator for StringDrain<'_> {
    type Item = char;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<char>,
    {
        // The chars are `Copy`: read them in place, and remove the range on drop.
        self.string[self.range.clone()]
            .par_chars()
            .drive_unindexed(consumer)
    }
}

impl Drop for StringDrain<'_> {
    fn drop(&mut self) {
        self.string.drain(self.range.clone());
    }
}

macro_rules! drain_full {
    ($(#[$doc:meta])* $name:ident<$($p:ident),*>, $coll:ty, $item:ty, [$($bounds:tt)*], $macro:ident) => {
        $(#[$doc])*
        #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
        #[derive(Debug)]
        pub struct $name<'data, $($bounds)*> {
            inner: vec::IntoIter<$item>,
            marker: PhantomData<&'data mut $coll>,
        }

        super::delegate::$macro! { $name<'data, $($p),*> => $item, impl<'data, $($bounds)*> }
    };
}

drain_full! {
    /// The iterator of [`par_drain`](ParallelDrainFull::par_drain) on a `HashMap`: its
    /// `(key, value)` pairs; the map is left empty with its capacity.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::HashMap;
    ///
    /// let mut m: HashMap<u32, u32> = (0..10).map(|i| (i, i * i)).collect();
    /// assert_eq!(m.par_drain().map(|(_, v)| v).sum::<u32>(), 285);
    /// assert!(m.is_empty());
    /// ```
    HashMapDrain<K, V>, HashMap<K, V>, (K, V), [K: Hash + Eq + Send, V: Send], delegate_iterator
}

drain_full! {
    /// The iterator of [`par_drain`](ParallelDrainFull::par_drain) on a `HashSet`: its
    /// items; the set is left empty with its capacity.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::HashSet;
    ///
    /// let mut s: HashSet<u32> = (1..=4).collect();
    /// assert_eq!(s.par_drain().product::<u32>(), 24);
    /// ```
    HashSetDrain<T>, HashSet<T>, T, [T: Hash + Eq + Send], delegate_iterator
}

drain_full! {
    /// The iterator of [`par_drain`](ParallelDrainFull::par_drain) on a `BinaryHeap`: its
    /// items in the heap's internal order; indexed.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::BinaryHeap;
    ///
    /// let mut h: BinaryHeap<i32> = [3, 1, 4, 1, 5].into_iter().collect();
    /// assert_eq!(h.par_drain().max(), Some(5));
    /// assert!(h.is_empty());
    /// ```
    BinaryHeapDrain<T>, BinaryHeap<T>, T, [T: Ord + Send], delegate_indexed_iterator
}

impl<'data, K: Hash + Eq + Send, V: Send, S: BuildHasher> ParallelDrainFull
    for &'data mut HashMap<K, V, S>
{
    type Iter = HashMapDrain<'data, K, V>;
    type Item = (K, V);

    fn par_drain(self) -> HashMapDrain<'data, K, V> {
        HashMapDrain {
            inner: self.drain().collect::<Vec<_>>().into_par_iter(),
            marker: PhantomData,
        }
    }
}

impl<'data, T: Hash + Eq + Send, S: BuildHasher> ParallelDrainFull for &'data mut HashSet<T, S> {
    type Iter = HashSetDrain<'data, T>;
    type Item = T;

    fn par_drain(self) -> HashSetDrain<'data, T> {
        HashSetDrain {
            inner: self.drain().collect::<Vec<_>>().into_par_iter(),
            marker: PhantomData,
        }
    }
}

impl<'data, T: Ord + Send> ParallelDrainFull for &'data mut BinaryHeap<T> {
    type Iter = BinaryHeapDrain<'data, T>;
    type Item = T;

    fn par_drain(self) -> BinaryHeapDrain<'data, T> {
        BinaryHeapDrain {
            inner: self.drain().collect::<Vec<_>>().into_par_iter(),
            marker: PhantomData,
        }
    }
}

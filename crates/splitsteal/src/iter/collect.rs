//! Collecting an iterator of known length into a `Vec`, in place: the spare capacity is
//! split with the producer, so each piece writes its items straight into their final slots
//! and no intermediate lists are built.
//!
//! Panics: each piece's [`CollectResult`] owns the items it has written so far and drops
//! them if it is dropped (a piece panicked, or its neighbour did). Two adjacent pieces'
//! results merge only when the left one filled its part completely, so when the run
//! finishes the written items are exactly one contiguous run from the start, counted once.

use std::marker::PhantomData;
use std::mem::{self, MaybeUninit};
use std::ptr;

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::IndexedParallelIterator;

pub(super) fn collect_into_vec<I>(par_iter: I, target: &mut Vec<I::Item>)
where
    I: IndexedParallelIterator,
{
    target.clear();
    let len = par_iter.len();
    collect_with_consumer(target, len, |consumer| par_iter.drive(consumer));
}

/// Appends exactly `len` items to `vec`, produced by `run` into the consumer it is given.
///
/// # Panics
/// If `run` writes other than `len` items (an iterator whose `len` lied).
pub(super) fn collect_with_consumer<T, F>(vec: &mut Vec<T>, len: usize, run: F)
where
    T: Send,
    F: FnOnce(CollectConsumer<'_, T>) -> CollectResult<'_, T>,
{
    vec.reserve(len);
    let start = vec.len();
    let target = &mut vec.spare_capacity_mut()[..len];
    let result = run(CollectConsumer::new(target));
    let written = result.initialized;
    assert!(
        written == len,
        "expected {len} items from an indexed parallel iterator, but got {written}"
    );
    // The items now belong to `vec`.
    mem::forget(result);
    // SAFETY: `start..start + len` are initialized: the merged result covers exactly the
    // `len` slots after the old length, each written once.
    unsafe { vec.set_len(start + len) };
}

/// A consumer that writes each item into its own slot of an uninitialized slice.
pub(super) struct CollectConsumer<'c, T: Send> {
    target: &'c mut [MaybeUninit<T>],
}

impl<'c, T: Send> CollectConsumer<'c, T> {
    fn new(target: &'c mut [MaybeUninit<T>]) -> Self {
        CollectConsumer { target }
    }
}

impl<'c, T: Send + 'c> Consumer<T> for CollectConsumer<'c, T> {
    type Folder = CollectResult<'c, T>;
    type Reducer = CollectReducer;
    type Result = CollectResult<'c, T>;

    fn split_at(self, index: usize) -> (Self, Self, CollectReducer) {
        let (left, right) = self.target.split_at_mut(index);
        (
            CollectConsumer::new(left),
            CollectConsumer::new(right),
            CollectReducer,
        )
    }

    fn into_folder(self) -> CollectResult<'c, T> {
        CollectResult {
            start: self.target.as_mut_ptr().cast(),
            total_len: self.target.len(),
            initialized: 0,
            _target: PhantomData,
        }
    }

    fn full(&self) -> bool {
        false
    }
}

impl<'c, T: Send + 'c> UnindexedConsumer<T> for CollectConsumer<'c, T> {
    fn split_off_left(&self) -> Self {
        unreachable!("collecting in place needs an iterator that splits by position")
    }

    fn to_reducer(&self) -> CollectReducer {
        CollectReducer
    }
}

/// The items one piece (or several adjacent pieces, once merged) has written.
pub(super) struct CollectResult<'c, T> {
    start: *mut T,
    total_len: usize,
    initialized: usize,
    /// Borrows the target slice for `'c`, as the consumer did.
    _target: PhantomData<&'c mut [MaybeUninit<T>]>,
}

// SAFETY: a CollectResult owns the `T`s it has written (sending it sends them) and has the
// exclusive use of its part of the target slice.
unsafe impl<T: Send> Send for CollectResult<'_, T> {}

impl<T> Drop for CollectResult<'_, T> {
    fn drop(&mut self) {
        // SAFETY: the first `initialized` slots were written by this result (or merged into
        // it) and not handed on: they are initialized and owned only here.
        unsafe {
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.start, self.initialized));
        }
    }
}

impl<'c, T: Send + 'c> Folder<T> for CollectResult<'c, T> {
    type Result = Self;

    fn consume(mut self, item: T) -> Self {
        assert!(
            self.initialized < self.total_len,
            "an indexed parallel iterator produced more items than its length"
        );
        // SAFETY: `initialized < total_len`, so the slot is inside this piece's part of the
        // target and not yet written.
        unsafe { self.start.add(self.initialized).write(item) };
        self.initialized += 1;
        self
    }

    fn complete(self) -> Self {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

/// Merges adjacent results; see the module docs.
pub(super) struct CollectReducer;

impl<'c, T> Reducer<CollectResult<'c, T>> for CollectReducer {
    fn reduce(
        self,
        mut left: CollectResult<'c, T>,
        right: CollectResult<'c, T>,
    ) -> CollectResult<'c, T> {
        // SAFETY: `left.start + left.initialized` stays within (or one past) left's part.
        if unsafe { left.start.add(left.initialized) } == right.start {
            left.total_len += right.total_len;
            left.initialized += right.initialized;
            // `left` owns right's items now.
            mem::forget(right);
        }
        // Otherwise the left piece stopped short: `right` drops its items here, and the
        // final count check panics.
        left
    }
}

/// The in-place collect driven by hand, without a pool, so miri can check its unsafe code
/// (CI runs these under miri): pieces written out of order, merged, and dropped midway.
#[cfg(test)]
mod tests {
    use super::*;

    fn write_piece<'c>(
        consumer: CollectConsumer<'c, String>,
        items: std::ops::Range<usize>,
    ) -> CollectResult<'c, String> {
        consumer
            .into_folder()
            .consume_iter(items.map(|i| i.to_string()))
            .complete()
    }

    #[test]
    fn pieces_written_right_first_merge_into_the_whole_vec() {
        let mut v = vec!["old".to_string()];
        collect_with_consumer(&mut v, 5, |consumer| {
            let (left, right, reducer) = consumer.split_at(2);
            let right = write_piece(right, 2..5);
            let left = write_piece(left, 0..2);
            reducer.reduce(left, right)
        });
        assert_eq!(v, ["old", "0", "1", "2", "3", "4"]);
    }

    #[test]
    fn a_short_left_piece_drops_both_sides_once_and_panics() {
        let outcome = std::panic::catch_unwind(|| {
            let mut v: Vec<String> = Vec::new();
            collect_with_consumer(&mut v, 4, |consumer| {
                let (left, right, reducer) = consumer.split_at(2);
                let left = write_piece(left, 0..1); // one short
                let right = write_piece(right, 2..4);
                reducer.reduce(left, right)
            });
        });
        assert!(
            outcome.is_err(),
            "a short run must panic, not expose uninitialized items"
        );
    }

    #[test]
    fn a_piece_abandoned_midway_drops_what_it_wrote() {
        let mut v: Vec<String> = Vec::with_capacity(3);
        let target = &mut v.spare_capacity_mut()[..3];
        let partial = write_piece(CollectConsumer::new(target), 0..2);
        drop(partial); // as when a panic unwinds through the piece
        assert!(v.is_empty());
    }

    #[test]
    #[should_panic(expected = "more items than its length")]
    fn writing_past_the_piece_panics() {
        let mut v: Vec<String> = Vec::with_capacity(2);
        let target = &mut v.spare_capacity_mut()[..2];
        let _ = write_piece(CollectConsumer::new(target), 0..3);
    }
}

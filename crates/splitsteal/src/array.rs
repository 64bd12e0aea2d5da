//! `into_par_iter()` on an array `[T; N]`: the items move out, as rayon's `rayon::array`.
//!
//! (`&[T; N]` and `&mut [T; N]` iterate as slices: [`slice::Iter`](crate::slice::Iter) and
//! [`slice::IterMut`](crate::slice::IterMut).)
//!
//! ```
//! use splitsteal::prelude::*;
//!
//! let names = [String::from("fig"), String::from("pear"), String::from("apple")];
//! let iter: splitsteal::array::IntoIter<String, 3> = names.into_par_iter();
//! let lengths: Vec<usize> = iter.map(|name| name.len()).collect();
//! assert_eq!(lengths, [3, 4, 5]);
//! ```

use std::mem::ManuallyDrop;

use crate::iter::plumbing::{bridge, Consumer, ProducerCallback, UnindexedConsumer};
use crate::iter::vec::DrainProducer;
use crate::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The parallel iterator that moves the items out of an array: the type of
/// `[T; N]::into_par_iter()`.
///
/// Indexed: it can be zipped, reversed, split at positions, collected in order. Items a run
/// does not consume (it stopped early, or a closure panicked) are dropped, each once.
///
/// ```
/// use splitsteal::array::IntoIter;
/// use splitsteal::prelude::*;
///
/// let iter: IntoIter<u32, 4> = [1, 2, 3, 4].into_par_iter();
/// assert_eq!(iter.len(), 4);
/// let again = iter.clone();
/// assert_eq!(iter.rev().collect::<Vec<_>>(), [4, 3, 2, 1]);
/// assert_eq!(again.sum::<u32>(), 10);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct IntoIter<T, const N: usize> {
    array: [T; N],
}

impl<T: Send, const N: usize> IntoParallelIterator for [T; N] {
    type Item = T;
    type Iter = IntoIter<T, N>;

    fn into_par_iter(self) -> IntoIter<T, N> {
        IntoIter { array: self }
    }
}

impl<T: Send, const N: usize> ParallelIterator for IntoIter<T, N> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(N)
    }
}

impl<T: Send, const N: usize> IndexedParallelIterator for IntoIter<T, N> {
    fn len(&self) -> usize {
        N
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
        // The array no longer drops its items: the producer (and the pieces it splits
        // into) moves each out or drops it, also when the callback unwinds.
        let mut array = ManuallyDrop::new(self.array);
        // SAFETY: the `N` items are initialized, and `ManuallyDrop` makes the producer
        // their only owner; the array's storage outlives the callback that uses them.
        let producer = unsafe { DrainProducer::new(array.as_mut_slice()) };
        callback.callback(producer)
    }
}

#[cfg(test)]
mod tests {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::atomic::{AtomicUsize, Ordering};

    use crate::iter::plumbing::{Producer, ProducerCallback};
    use crate::prelude::*;

    const N: usize = 64;

    /// Counts, per position, how many times the value made for it was dropped.
    struct Drops([AtomicUsize; N]);

    impl Drops {
        fn new() -> Self {
            Drops(std::array::from_fn(|_| AtomicUsize::new(0)))
        }

        fn array(&self) -> [Counted<'_>; N] {
            std::array::from_fn(|id| Counted { id, drops: self })
        }

        /// Each of the `N` values was dropped exactly once.
        fn assert_each_once(&self, context: &str) {
            for (id, count) in self.0.iter().enumerate() {
                // SeqCst everywhere here: a test, where only the totals matter.
                let count = count.load(Ordering::SeqCst);
                assert_eq!(count, 1, "{context}: item {id} dropped {count} times");
            }
        }
    }

    struct Counted<'a> {
        id: usize,
        drops: &'a Drops,
    }

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.drops.0[self.id].fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Runs `f` in a two-thread pool, with the array split into pieces of one item, so that
    /// the pieces run on both workers and each piece's drop path is taken.
    fn in_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
        let pool = crate::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(f)
    }

    /// Splits the array's producer by hand (no pool, so Miri can run it): moves out one
    /// item of the left piece and the last of the right, and drops the rest unread.
    struct SplitAndStopEarly;

    impl<'a> ProducerCallback<Counted<'a>> for SplitAndStopEarly {
        type Output = [usize; 2];

        fn callback<P: Producer<Item = Counted<'a>>>(self, producer: P) -> [usize; 2] {
            let (left, right) = producer.split_at(N / 4);
            let first = left.into_iter().next().map(|c| c.id);
            let last = right.into_iter().next_back().map(|c| c.id);
            [first.unwrap(), last.unwrap()]
        }
    }

    #[test]
    fn producer_driven_by_hand_drops_every_item_once() {
        let drops = Drops::new();
        assert_eq!(
            drops
                .array()
                .into_par_iter()
                .with_producer(SplitAndStopEarly),
            [0, N - 1]
        );
        drops.assert_each_once("split by hand");
    }

    #[test]
    fn items_move_out_in_order() {
        let words = ["a", "bb", "ccc", "dddd"].map(String::from);
        let iter = words.into_par_iter();
        assert_eq!(iter.len(), 4);
        assert_eq!(iter.opt_len(), Some(4));
        let copy = iter.clone();
        assert_eq!(
            iter.with_max_len(1).collect::<Vec<_>>(),
            ["a", "bb", "ccc", "dddd"]
        );
        assert_eq!(
            copy.rev().map(|s| s.len()).collect::<Vec<_>>(),
            [4, 3, 2, 1]
        );
        let empty: [String; 0] = [];
        assert_eq!(empty.into_par_iter().count(), 0);
    }

    #[test]
    fn debug_shows_the_items() {
        assert_eq!(
            format!("{:?}", [1, 2].into_par_iter()),
            "IntoIter { array: [1, 2] }"
        );
    }

    #[test]
    fn every_item_dropped_once_when_consumed() {
        let drops = Drops::new();
        let sum: usize = in_pool(|| {
            drops
                .array()
                .into_par_iter()
                .with_max_len(1)
                .map(|c| c.id)
                .sum()
        });
        assert_eq!(sum, N * (N - 1) / 2);
        drops.assert_each_once("consumed");
    }

    #[test]
    fn every_item_dropped_once_when_a_consumer_panics() {
        for panic_at in [0, N / 2, N - 1] {
            let drops = Drops::new();
            let result = catch_unwind(AssertUnwindSafe(|| {
                in_pool(|| {
                    drops.array().into_par_iter().with_max_len(1).for_each(|c| {
                        if c.id == panic_at {
                            panic!("planned panic at {panic_at}");
                        }
                    })
                })
            }));
            assert!(result.is_err(), "no panic at {panic_at}");
            drops.assert_each_once(&format!("panic at {panic_at}"));
        }
    }

    #[test]
    fn every_item_dropped_once_when_a_run_stops_early() {
        let drops = Drops::new();
        let found = in_pool(|| {
            let found = drops
                .array()
                .into_par_iter()
                .with_max_len(1)
                .find_any(|c| c.id == 7);
            found.map(|c| c.id)
        });
        assert_eq!(found, Some(7));
        drops.assert_each_once("find_any");

        // A zip with a shorter iterator leaves the array's tail unread.
        let drops = Drops::new();
        let pairs = in_pool(|| {
            drops
                .array()
                .into_par_iter()
                .zip(0..5)
                .map(|(c, i)| c.id + i)
                .count()
        });
        assert_eq!(pairs, 5);
        drops.assert_each_once("zip with a shorter iterator");

        // Never driven at all.
        let drops = Drops::new();
        drop(drops.array().into_par_iter());
        drops.assert_each_once("not driven");
    }
}

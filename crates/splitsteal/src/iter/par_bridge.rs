//! `par_bridge()`: any sequential `Iterator + Send` as a parallel iterator.
//!
//! The iterator sits behind a `Mutex` shared by up to `current_num_threads()` pieces; each
//! piece takes items from it in small batches (1, 2, 4, ... up to 16 at a time, so short
//! iterators still spread across workers) and processes them outside the lock. Items are
//! therefore processed, and collected, in no particular order; use `par_bridge` for
//! iterators that cannot be split (channels, file lines, a `HashMap::drain`), and
//! sort afterwards if the order matters.
//!
//! The iterator's `next` runs under the lock: it must not itself wait on work of the same
//! pool that would need this iterator (a nested `par_bridge` of the same iterator).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use super::ParallelIterator;
use crate::current_num_threads;

/// The most items a piece takes from the iterator per lock.
const MAX_BATCH: usize = 16;

/// `par_bridge()` on every sequential iterator that can be sent to another thread.
pub trait ParallelBridge: Sized {
    /// Turns a sequential iterator into a parallel one; items come in no particular order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::sync::mpsc::channel;
    ///
    /// let (tx, rx) = channel();
    /// for i in 0..100u64 {
    ///     tx.send(i).unwrap();
    /// }
    /// drop(tx);
    /// let mut squares: Vec<u64> = rx.into_iter().par_bridge().map(|x| x * x).collect();
    /// squares.sort();
    /// assert_eq!(squares, (0..100u64).map(|x| x * x).collect::<Vec<_>>());
    /// ```
    fn par_bridge(self) -> IterBridge<Self>;
}

impl<T: Iterator + Send> ParallelBridge for T
where
    T::Item: Send,
{
    fn par_bridge(self) -> IterBridge<Self> {
        IterBridge { iter: self }
    }
}

/// The iterator of [`par_bridge`](ParallelBridge::par_bridge).
///
/// ```
/// use splitsteal::prelude::*;
///
/// let total: u64 = (1..=100u64).filter(|x| x % 2 == 0).par_bridge().sum();
/// assert_eq!(total, 2550);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct IterBridge<Iter> {
    iter: Iter,
}

impl<Iter: Iterator + Send> ParallelIterator for IterBridge<Iter>
where
    Iter::Item: Send,
{
    type Item = Iter::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        let shared = Shared {
            iter: Mutex::new(self.iter),
            done: AtomicBool::new(false),
            // Every piece pulls from the same iterator, so more pieces than workers only
            // add contention.
            pieces_left: AtomicUsize::new(current_num_threads().saturating_sub(1)),
        };
        bridge_unindexed(BridgeProducer { shared: &shared }, consumer)
    }
}

/// The state all pieces share.
struct Shared<Iter> {
    iter: Mutex<Iter>,
    /// Set once `next` returned `None` (never called again: the iterator may not be
    /// fused) or a piece panicked inside it.
    done: AtomicBool,
    /// How many more pieces may be split off.
    pieces_left: AtomicUsize,
}

impl<Iter: Iterator> Shared<Iter> {
    /// Moves up to `want` items into `batch`.
    fn fill(&self, batch: &mut Vec<Iter::Item>, want: usize) {
        if self.done.load(Ordering::Acquire) {
            return;
        }
        let Ok(mut iter) = self.iter.lock() else {
            // Poisoned: another piece panicked in `next`, and that panic is on its way
            // to the caller; stop here.
            self.done.store(true, Ordering::Release);
            return;
        };
        // Checked again under the lock: another piece may have exhausted it meanwhile.
        if self.done.load(Ordering::Acquire) {
            return;
        }
        for _ in 0..want {
            match iter.next() {
                Some(item) => batch.push(item),
                None => {
                    self.done.store(true, Ordering::Release);
                    break;
                }
            }
        }
    }
}

struct BridgeProducer<'a, Iter> {
    shared: &'a Shared<Iter>,
}

impl<Iter: Iterator + Send> UnindexedProducer for BridgeProducer<'_, Iter>
where
    Iter::Item: Send,
{
    type Item = Iter::Item;

    fn split(self) -> (Self, Option<Self>) {
        let shared = self.shared;
        let more = !shared.done.load(Ordering::Acquire)
            && shared
                .pieces_left
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
                .is_ok();
        (self, more.then_some(BridgeProducer { shared }))
    }

    fn fold_with<F>(self, mut folder: F) -> F
    where
        F: Folder<Self::Item>,
    {
        let mut batch = Vec::new();
        let mut want = 1;
        while !folder.full() {
            self.shared.fill(&mut batch, want);
            if batch.is_empty() {
                break;
            }
            folder = folder.consume_iter(batch.drain(..));
            want = Ord::min(want * 2, MAX_BATCH);
        }
        folder
    }
}

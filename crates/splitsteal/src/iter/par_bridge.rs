//! `par_bridge()`: any sequential `Iterator + Send` as a parallel iterator.
//!
//! The iterator sits behind a `Mutex` shared by up to `current_num_threads()` pieces; each
//! piece takes one item at a time from it and processes it outside the lock, as rayon's
//! does. Items are therefore processed, and collected, in no particular order; use
//! `par_bridge` for iterators that cannot be split (channels, file lines, a
//! `HashMap::drain`), and sort afterwards if the order matters.
//!
//! One item per lock, never a batch: an iterator may wait in `next` for items that only
//! the processing of its earlier items produces (a directory walk whose `next` waits on a
//! queue the walk itself fills, a channel fed by the closure). A piece that asked for a
//! second item before processing its first could wait for itself forever.
//!
//! A worker that re-enters a bridge it is already pulling from (work it took while it
//! waited, inside `next` or inside the closure) pulls nothing there: inside `next` it
//! holds the lock, and the outer loop takes the rest of the items anyway.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use super::ParallelIterator;
use crate::{current_num_threads, current_thread_index};

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
        let shared = Shared::new(self.iter, current_num_threads());
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
    /// Per worker index (modulo its length): whether that worker is inside a piece's
    /// loop already (module doc).
    pulling: Box<[AtomicBool]>,
}

impl<Iter: Iterator> Shared<Iter> {
    /// The state of a bridge over `iter` on a pool of `threads` workers.
    fn new(iter: Iter, threads: usize) -> Self {
        Shared {
            iter: Mutex::new(iter),
            done: AtomicBool::new(false),
            // Every piece pulls from the same iterator, so more pieces than workers only
            // add contention.
            pieces_left: AtomicUsize::new(threads.saturating_sub(1)),
            pulling: (0..threads.max(1))
                .map(|_| AtomicBool::new(false))
                .collect(),
        }
    }

    /// The iterator's next item, taken under the lock; `None` once it is exhausted (or
    /// a piece panicked in `next`).
    fn next(&self) -> Option<Iter::Item> {
        if self.done.load(Ordering::Acquire) {
            return None;
        }
        let Ok(mut iter) = self.iter.lock() else {
            // Poisoned: another piece panicked in `next`, and that panic is on its way
            // to the caller; stop here.
            self.done.store(true, Ordering::Release);
            return None;
        };
        // Checked again under the lock: another piece may have exhausted it meanwhile.
        if self.done.load(Ordering::Acquire) {
            return None;
        }
        let item = iter.next();
        if item.is_none() {
            self.done.store(true, Ordering::Release);
        }
        item
    }

    /// Marks the calling worker as pulling from this bridge until the guard drops; `None`
    /// if it already is (or, off any pool, never: no work is taken while waiting there).
    fn enter(&self) -> Option<Pulling<'_>> {
        let Some(index) = current_thread_index() else {
            return Some(Pulling(None));
        };
        let flag = &self.pulling[index % self.pulling.len()];
        // Relaxed: the flag publishes nothing; it tells this worker, in its own program
        // order, whether it is inside the loop already. (The slice has a flag per worker of
        // the pool that drives the bridge, the pool its pieces run on, so none is shared.)
        (!flag.swap(true, Ordering::Relaxed)).then_some(Pulling(Some(flag)))
    }
}

/// A worker's mark of being inside a bridge's loop, cleared when it leaves (or unwinds).
struct Pulling<'a>(Option<&'a AtomicBool>);

impl Drop for Pulling<'_> {
    fn drop(&mut self) {
        if let Some(flag) = self.0 {
            // Relaxed: as in `Shared::enter`.
            flag.store(false, Ordering::Relaxed);
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
        let Some(_pulling) = self.shared.enter() else {
            return folder;
        };
        while !folder.full() {
            match self.shared.next() {
                Some(item) => folder = folder.consume(item),
                None => break,
            }
        }
        folder
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ThreadPoolBuilder;

    /// A piece's loop re-entered on the same worker (work taken while it waited) pulls
    /// nothing: `enter` refuses it until the first leaves, and only on that worker.
    #[test]
    // A pool's workers (and their signal handlers) are not this module's unsafe code, which
    // is what Miri runs `iter::` for.
    #[cfg_attr(miri, ignore)]
    fn a_worker_pulls_from_a_bridge_in_one_loop_at_a_time() {
        let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let shared = Shared::new(0..10, 2);
        pool.install(|| {
            let first = shared.enter();
            assert!(first.is_some());
            assert!(shared.enter().is_none(), "the same worker entered twice");
            drop(first);
            assert!(
                shared.enter().is_some(),
                "the flag stayed set after the loop"
            );
        });
        // Off any pool nothing can re-enter, so every call may pull.
        let (a, b) = (shared.enter(), shared.enter());
        assert!(a.is_some() && b.is_some());
    }
}

//! `skip`: the base producer is split once at `n`; the right part is the result, and the
//! left part is still run, beside it, into a consumer that discards its items, so the
//! skipped items' side effects (an upstream `map` or `inspect` closure) happen, as with
//! std's `skip` and rayon's.

use super::plumbing::{bridge, Consumer, ProducerCallback, UnindexedConsumer};
use super::skip_take::{Cut, Keep};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::skip`]. The skipped items are produced
/// (and dropped), so closures upstream still run on them.
///
/// ```
/// use splitsteal::prelude::*;
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// let seen = AtomicUsize::new(0);
/// let rest: Vec<u32> = (0..10u32)
///     .into_par_iter()
///     .inspect(|_| {
///         seen.fetch_add(1, Ordering::Relaxed);
///     })
///     .skip(7)
///     .collect();
/// assert_eq!(rest, [7, 8, 9]);
/// assert_eq!(seen.into_inner(), 10);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Skip<I> {
    base: I,
    n: usize,
}

impl<I: IndexedParallelIterator> Skip<I> {
    pub(super) fn new(base: I, n: usize) -> Self {
        // Skipping more than there is skips everything.
        let n = Ord::min(n, base.len());
        Skip { base, n }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for Skip<I> {
    type Item = I::Item;

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

impl<I: IndexedParallelIterator> IndexedParallelIterator for Skip<I> {
    fn len(&self) -> usize {
        self.base.len() - self.n
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
        self.base.with_producer(Cut {
            callback,
            at: self.n,
            keep: Keep::After,
        })
    }
}

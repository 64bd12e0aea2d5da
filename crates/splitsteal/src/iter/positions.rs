//! `positions`: the indices of the items a predicate accepts, in order; `enumerate`,
//! `filter_map` and the base's own driving, put together when the iterator runs.

use super::plumbing::UnindexedConsumer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::positions`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Positions<I, P> {
    base: I,
    predicate: P,
}

impl<I: std::fmt::Debug, P> std::fmt::Debug for Positions<I, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Positions")
            .field("base", &self.base)
            .finish()
    }
}

impl<I, P> Positions<I, P> {
    pub(super) fn new(base: I, predicate: P) -> Self {
        Positions { base, predicate }
    }
}

impl<I, P> ParallelIterator for Positions<I, P>
where
    I: IndexedParallelIterator,
    P: Fn(I::Item) -> bool + Sync + Send,
{
    type Item = usize;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<usize>,
    {
        let predicate = &self.predicate;
        self.base
            .enumerate()
            .filter_map(move |(i, item)| predicate(item).then_some(i))
            .drive_unindexed(consumer)
    }
}

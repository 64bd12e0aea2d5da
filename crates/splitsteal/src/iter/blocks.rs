//! `by_exponential_blocks` and `by_uniform_blocks`: run an indexed iterator as a sequence
//! of blocks, one after another, each block in parallel. Between blocks the consumer is
//! asked whether it is full, so `find_first`-like consumers stop after the block holding
//! their answer instead of having every piece of the whole input started.

use super::plumbing::{
    bridge_producer_consumer, Folder, Producer, ProducerCallback, Reducer, UnindexedConsumer,
};
use super::{IndexedParallelIterator, ParallelIterator};
use crate::current_num_threads;

/// The iterator of [`IndexedParallelIterator::by_exponential_blocks`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct ExponentialBlocks<I> {
    base: I,
}

impl<I> ExponentialBlocks<I> {
    pub(super) fn new(base: I) -> Self {
        ExponentialBlocks { base }
    }
}

/// The iterator of [`IndexedParallelIterator::by_uniform_blocks`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct UniformBlocks<I> {
    base: I,
    block_size: usize,
}

impl<I> UniformBlocks<I> {
    pub(super) fn new(base: I, block_size: usize) -> Self {
        UniformBlocks { base, block_size }
    }
}

/// Runs the producer block by block; `next` gives each block's size from the previous one.
struct Blocks<C, S> {
    consumer: C,
    len: usize,
    first: usize,
    next: S,
}

impl<T, C, S> ProducerCallback<T> for Blocks<C, S>
where
    C: UnindexedConsumer<T>,
    S: Fn(usize) -> usize,
{
    type Output = C::Result;

    fn callback<P: Producer<Item = T>>(self, mut producer: P) -> C::Result {
        let mut consumer = self.consumer;
        let mut left = self.len;
        // The result so far starts as an empty piece's, so each block's result can be
        // reduced onto it (left before right).
        let (empty, rest, _) = consumer.split_at(0);
        consumer = rest;
        let mut result = empty.into_folder().complete();
        let mut size = self.first.max(1);
        while left > 0 && !consumer.full() {
            let block = size.min(left);
            let (p_block, p_rest) = producer.split_at(block);
            let (c_block, c_rest, reducer) = consumer.split_at(block);
            let block_result = bridge_producer_consumer(block, p_block, c_block);
            result = reducer.reduce(result, block_result);
            producer = p_rest;
            consumer = c_rest;
            left -= block;
            size = (self.next)(size).max(1);
        }
        result
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for ExponentialBlocks<I> {
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<I::Item>,
    {
        let len = self.base.len();
        self.base.with_producer(Blocks {
            consumer,
            len,
            // One item per thread first, then doubling: about log2(len) blocks.
            first: current_num_threads(),
            next: |s: usize| s.saturating_mul(2),
        })
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for UniformBlocks<I> {
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<I::Item>,
    {
        let len = self.base.len();
        self.base.with_producer(Blocks {
            consumer,
            len,
            first: self.block_size,
            next: |s: usize| s,
        })
    }
}

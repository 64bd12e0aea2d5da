//! `fold_chunks` and `fold_chunks_with`: one folded value per run of `chunk_size` items,
//! in order (the last run may be shorter). Each chunk is gathered by the `chunks` adaptor
//! and then folded sequentially, so a chunk's items are folded in their order.

use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::fold_chunks`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FoldChunks<I, ID, F> {
    base: I,
    chunk_size: usize,
    identity: ID,
    fold_op: F,
}

/// The iterator of [`IndexedParallelIterator::fold_chunks_with`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct FoldChunksWith<I, U, F> {
    base: I,
    chunk_size: usize,
    item: U,
    fold_op: F,
}

impl<I: std::fmt::Debug, ID, F> std::fmt::Debug for FoldChunks<I, ID, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FoldChunks")
            .field("base", &self.base)
            .field("chunk_size", &self.chunk_size)
            .finish()
    }
}

impl<I: std::fmt::Debug, U: std::fmt::Debug, F> std::fmt::Debug for FoldChunksWith<I, U, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FoldChunksWith")
            .field("base", &self.base)
            .field("chunk_size", &self.chunk_size)
            .field("item", &self.item)
            .finish()
    }
}

impl<I, ID, F> FoldChunks<I, ID, F> {
    #[track_caller]
    pub(super) fn new(base: I, chunk_size: usize, identity: ID, fold_op: F) -> Self {
        assert!(chunk_size != 0, "chunk_size must not be zero");
        FoldChunks {
            base,
            chunk_size,
            identity,
            fold_op,
        }
    }
}

impl<I, U, F> FoldChunksWith<I, U, F> {
    #[track_caller]
    pub(super) fn new(base: I, chunk_size: usize, item: U, fold_op: F) -> Self {
        assert!(chunk_size != 0, "chunk_size must not be zero");
        FoldChunksWith {
            base,
            chunk_size,
            item,
            fold_op,
        }
    }
}

impl<I, ID, F> FoldChunks<I, ID, F> {
    /// The base, the chunk size, and the fold of one chunk.
    fn parts<U>(self) -> (I, usize, impl Fn(Vec<I::Item>) -> U + Send + Sync)
    where
        I: IndexedParallelIterator,
        ID: Fn() -> U + Send + Sync,
        F: Fn(U, I::Item) -> U + Send + Sync,
    {
        let (identity, fold_op) = (self.identity, self.fold_op);
        let fold = move |chunk: Vec<I::Item>| chunk.into_iter().fold(identity(), &fold_op);
        (self.base, self.chunk_size, fold)
    }
}

impl<I, U, F> FoldChunksWith<I, U, F> {
    /// The base, the chunk size, the start value, and the fold of one chunk (given a
    /// clone of the start value per piece, as `map_with` hands out, so `U` need not be
    /// `Sync`).
    #[allow(clippy::type_complexity)]
    fn parts(
        self,
    ) -> (
        I,
        usize,
        U,
        impl Fn(&mut U, Vec<I::Item>) -> U + Send + Sync,
    )
    where
        I: IndexedParallelIterator,
        U: Send + Clone,
        F: Fn(U, I::Item) -> U + Send + Sync,
    {
        let fold_op = self.fold_op;
        let fold =
            move |item: &mut U, chunk: Vec<I::Item>| chunk.into_iter().fold(item.clone(), &fold_op);
        (self.base, self.chunk_size, self.item, fold)
    }
}

macro_rules! via_chunks {
    ($name:ident<$($g:ident),*>, [$($bounds:tt)*]) => {
        impl<U, $($g),*> ParallelIterator for $name<$($g),*>
        where
            $($bounds)*
        {
            type Item = U;

            fn drive_unindexed<C: UnindexedConsumer<U>>(self, consumer: C) -> C::Result {
                let (base, size, fold) = self.parts();
                base.chunks(size).map(fold).drive_unindexed(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl<U, $($g),*> IndexedParallelIterator for $name<$($g),*>
        where
            $($bounds)*
        {
            fn len(&self) -> usize {
                self.base.len().div_ceil(self.chunk_size)
            }

            fn drive<C: Consumer<U>>(self, consumer: C) -> C::Result {
                let (base, size, fold) = self.parts();
                base.chunks(size).map(fold).drive(consumer)
            }

            fn with_producer<CB: ProducerCallback<U>>(self, callback: CB) -> CB::Output {
                let (base, size, fold) = self.parts();
                base.chunks(size).map(fold).with_producer(callback)
            }
        }
    };
}

via_chunks!(FoldChunks<I, ID, F>, [
    I: IndexedParallelIterator,
    U: Send,
    ID: Fn() -> U + Send + Sync,
    F: Fn(U, I::Item) -> U + Send + Sync,
]);

/// `FoldChunksWith`'s `U` is its own parameter, so it is spelled out here.
impl<I, U, F> ParallelIterator for FoldChunksWith<I, U, F>
where
    I: IndexedParallelIterator,
    U: Send + Clone,
    F: Fn(U, I::Item) -> U + Send + Sync,
{
    type Item = U;

    fn drive_unindexed<C: UnindexedConsumer<U>>(self, consumer: C) -> C::Result {
        let (base, size, item, fold) = self.parts();
        base.chunks(size)
            .map_with(item, fold)
            .drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<I, U, F> IndexedParallelIterator for FoldChunksWith<I, U, F>
where
    I: IndexedParallelIterator,
    U: Send + Clone,
    F: Fn(U, I::Item) -> U + Send + Sync,
{
    fn len(&self) -> usize {
        self.base.len().div_ceil(self.chunk_size)
    }

    fn drive<C: Consumer<U>>(self, consumer: C) -> C::Result {
        let (base, size, item, fold) = self.parts();
        base.chunks(size).map_with(item, fold).drive(consumer)
    }

    fn with_producer<CB: ProducerCallback<U>>(self, callback: CB) -> CB::Output {
        let (base, size, item, fold) = self.parts();
        base.chunks(size)
            .map_with(item, fold)
            .with_producer(callback)
    }
}

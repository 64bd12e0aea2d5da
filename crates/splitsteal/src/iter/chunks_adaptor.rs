//! `chunks` on an indexed iterator: its items gathered into `Vec`s of `chunk_size` (the
//! last one shorter). Chunk `i` is base items `i * chunk_size ..`, so the producer splits
//! at whole chunks, and a leaf cuts its base piece into chunks one `split_at` at a time.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::chunks`]: `Vec`s of consecutive items.
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Chunks<I> {
    base: I,
    chunk_size: usize,
}

impl<I> Chunks<I> {
    pub(super) fn new(base: I, chunk_size: usize) -> Self {
        assert!(chunk_size != 0, "chunk_size must not be zero");
        Chunks { base, chunk_size }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for Chunks<I> {
    type Item = Vec<I::Item>;

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

impl<I: IndexedParallelIterator> IndexedParallelIterator for Chunks<I> {
    fn len(&self) -> usize {
        self.base.len().div_ceil(self.chunk_size)
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
        struct Callback<CB> {
            callback: CB,
            chunk_size: usize,
            len: usize,
        }
        impl<T, CB> ProducerCallback<T> for Callback<CB>
        where
            CB: ProducerCallback<Vec<T>>,
        {
            type Output = CB::Output;
            fn callback<P>(self, base: P) -> CB::Output
            where
                P: Producer<Item = T>,
            {
                self.callback.callback(ChunkProducer {
                    base,
                    chunk_size: self.chunk_size,
                    base_len: self.len,
                })
            }
        }
        let len = self.base.len();
        self.base.with_producer(Callback {
            callback,
            chunk_size: self.chunk_size,
            len,
        })
    }
}

/// A piece of whole chunks (the last possibly short) over `base_len` base items.
struct ChunkProducer<P> {
    base: P,
    chunk_size: usize,
    base_len: usize,
}

impl<P: Producer> Producer for ChunkProducer<P> {
    type Item = Vec<P::Item>;
    type IntoIter = ChunkSeq<P>;

    fn into_iter(self) -> ChunkSeq<P> {
        ChunkSeq {
            rest: Some(self.base),
            chunk_size: self.chunk_size,
            base_len: self.base_len,
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len().div_ceil(self.chunk_size)
    }

    fn max_len(&self) -> usize {
        Ord::max(self.base.max_len() / self.chunk_size, 1)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let base_index = Ord::min(index.saturating_mul(self.chunk_size), self.base_len);
        let (left, right) = self.base.split_at(base_index);
        (
            ChunkProducer {
                base: left,
                chunk_size: self.chunk_size,
                base_len: base_index,
            },
            ChunkProducer {
                base: right,
                chunk_size: self.chunk_size,
                base_len: self.base_len - base_index,
            },
        )
    }
}

/// The sequential iterator of a [`ChunkProducer`] piece: cuts chunks off either end of
/// the base piece that is left.
struct ChunkSeq<P> {
    rest: Option<P>,
    chunk_size: usize,
    base_len: usize,
}

impl<P: Producer> Iterator for ChunkSeq<P> {
    type Item = Vec<P::Item>;

    fn next(&mut self) -> Option<Vec<P::Item>> {
        let rest = self.rest.take()?;
        if self.base_len == 0 {
            return None;
        }
        let size = Ord::min(self.chunk_size, self.base_len);
        let (chunk, rest) = rest.split_at(size);
        self.base_len -= size;
        self.rest = Some(rest);
        Some(chunk.into_iter().collect())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.base_len.div_ceil(self.chunk_size);
        (n, Some(n))
    }
}

impl<P: Producer> DoubleEndedIterator for ChunkSeq<P> {
    fn next_back(&mut self) -> Option<Vec<P::Item>> {
        let rest = self.rest.take()?;
        if self.base_len == 0 {
            return None;
        }
        // The last chunk is the short one, if any is.
        let size = match self.base_len % self.chunk_size {
            0 => self.chunk_size,
            short => short,
        };
        let (rest, chunk) = rest.split_at(self.base_len - size);
        self.base_len -= size;
        self.rest = Some(rest);
        Some(chunk.into_iter().collect())
    }
}

impl<P: Producer> ExactSizeIterator for ChunkSeq<P> {}

//! `with_min_len` / `with_max_len`: bound the size of the pieces an indexed iterator is
//! split into. They only change the producer's [`min_len`](Producer::min_len) /
//! [`max_len`](Producer::max_len); the bridge's splitter does the rest (see
//! [`plumbing`](super::plumbing)).

use super::plumbing::{bridge, Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::with_min_len`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct MinLen<I> {
    base: I,
    min: usize,
}

/// The iterator of [`IndexedParallelIterator::with_max_len`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct MaxLen<I> {
    base: I,
    max: usize,
}

impl<I> MinLen<I> {
    pub(super) fn new(base: I, min: usize) -> Self {
        MinLen { base, min }
    }
}

impl<I> MaxLen<I> {
    pub(super) fn new(base: I, max: usize) -> Self {
        MaxLen { base, max }
    }
}

/// Which bound a [`LenProducer`] sets.
#[derive(Clone, Copy)]
enum Bound {
    Min(usize),
    Max(usize),
}

macro_rules! len_adaptor {
    ($name:ident, $field:ident, $bound:ident) => {
        impl<I: IndexedParallelIterator> ParallelIterator for $name<I> {
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

        impl<I: IndexedParallelIterator> IndexedParallelIterator for $name<I> {
            fn len(&self) -> usize {
                self.base.len()
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
                self.base.with_producer(Callback {
                    callback,
                    bound: Bound::$bound(self.$field),
                })
            }
        }
    };
}

len_adaptor!(MinLen, min, Min);
len_adaptor!(MaxLen, max, Max);

struct Callback<CB> {
    callback: CB,
    bound: Bound,
}

impl<T, CB> ProducerCallback<T> for Callback<CB>
where
    CB: ProducerCallback<T>,
{
    type Output = CB::Output;
    fn callback<P>(self, base: P) -> CB::Output
    where
        P: Producer<Item = T>,
    {
        self.callback.callback(LenProducer {
            base,
            bound: self.bound,
        })
    }
}

/// A producer with one of its piece-size bounds tightened.
struct LenProducer<P> {
    base: P,
    bound: Bound,
}

impl<P: Producer> Producer for LenProducer<P> {
    type Item = P::Item;
    type IntoIter = P::IntoIter;

    fn into_iter(self) -> P::IntoIter {
        self.base.into_iter()
    }

    // Bounds only tighten: a `with_min_len` outside a `with_max_len` keeps the maximum, and
    // of two minimums the larger wins.
    fn min_len(&self) -> usize {
        match self.bound {
            Bound::Min(min) => Ord::max(min, self.base.min_len()),
            Bound::Max(_) => self.base.min_len(),
        }
    }

    fn max_len(&self) -> usize {
        match self.bound {
            Bound::Min(_) => self.base.max_len(),
            Bound::Max(max) => Ord::min(max, self.base.max_len()),
        }
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(index);
        (
            LenProducer {
                base: left,
                bound: self.bound,
            },
            LenProducer {
                base: right,
                bound: self.bound,
            },
        )
    }

    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>,
    {
        self.base.fold_with(folder)
    }
}

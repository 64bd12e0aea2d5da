//! `step_by`: every `step`-th item, from the first. Item `i` of the result is base item
//! `i * step`, so splitting the result at `i` splits the base at `i * step`.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::step_by`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct StepBy<I> {
    base: I,
    step: usize,
}

impl<I> StepBy<I> {
    pub(super) fn new(base: I, step: usize) -> Self {
        assert!(step != 0, "step_by: the step must not be zero");
        StepBy { base, step }
    }
}

/// The number of items of a `len`-item piece that a step of `step` visits.
fn stepped_len(len: usize, step: usize) -> usize {
    if len == 0 {
        0
    } else {
        (len - 1) / step + 1
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for StepBy<I> {
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

impl<I: IndexedParallelIterator> IndexedParallelIterator for StepBy<I> {
    fn len(&self) -> usize {
        stepped_len(self.base.len(), self.step)
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
            step: usize,
            len: usize,
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
                self.callback.callback(StepByProducer {
                    base,
                    step: self.step,
                    base_len: self.len,
                })
            }
        }
        let len = self.base.len();
        self.base.with_producer(Callback {
            callback,
            step: self.step,
            len,
        })
    }
}

/// A piece of the stepped iterator: `base_len` base items, of which every `step`-th runs.
struct StepByProducer<P> {
    base: P,
    step: usize,
    base_len: usize,
}

impl<P: Producer> Producer for StepByProducer<P> {
    type Item = P::Item;
    type IntoIter = std::iter::StepBy<P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter().step_by(self.step)
    }

    // The base's bounds count base items; a stepped piece of `k` items spans about
    // `k * step` of them.
    fn min_len(&self) -> usize {
        self.base.min_len().div_ceil(self.step)
    }

    fn max_len(&self) -> usize {
        Ord::max(self.base.max_len() / self.step, 1)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        // The left piece ends just before base item `index * step` (or at the end, for the
        // last index: the base may stop short of a whole step).
        let base_index = Ord::min(index.saturating_mul(self.step), self.base_len);
        let (left, right) = self.base.split_at(base_index);
        (
            StepByProducer {
                base: left,
                step: self.step,
                base_len: base_index,
            },
            StepByProducer {
                base: right,
                step: self.step,
                base_len: self.base_len - base_index,
            },
        )
    }
}

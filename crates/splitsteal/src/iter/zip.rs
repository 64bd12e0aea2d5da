//! `zip` and `zip_eq`: two indexed iterators walked in step. Both sides' producers are
//! fetched (one callback inside the other) and split at the same indices, so each piece
//! pairs the items at the same positions.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::zip`]: pairs, as long as the shorter side.
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Zip<A, B> {
    a: A,
    b: B,
}

impl<A, B> Zip<A, B> {
    pub(super) fn new(a: A, b: B) -> Self {
        Zip { a, b }
    }
}

impl<A, B> ParallelIterator for Zip<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    type Item = (A::Item, B::Item);

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

impl<A, B> IndexedParallelIterator for Zip<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    fn len(&self) -> usize {
        Ord::min(self.a.len(), self.b.len())
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
        let len = self.len();
        let (a_len, b_len) = (self.a.len(), self.b.len());
        return self.a.with_producer(CallbackA {
            callback,
            len,
            a_len,
            b_len,
            b: self.b,
        });

        struct CallbackA<CB, B> {
            callback: CB,
            len: usize,
            a_len: usize,
            b_len: usize,
            b: B,
        }
        impl<CB, ITEM, B> ProducerCallback<ITEM> for CallbackA<CB, B>
        where
            B: IndexedParallelIterator,
            CB: ProducerCallback<(ITEM, B::Item)>,
        {
            type Output = CB::Output;
            fn callback<PA>(self, a: PA) -> CB::Output
            where
                PA: Producer<Item = ITEM>,
            {
                self.b.with_producer(CallbackB {
                    callback: self.callback,
                    a: truncate(a, self.a_len, self.len),
                    len: self.len,
                    b_len: self.b_len,
                })
            }
        }

        struct CallbackB<CB, PA> {
            callback: CB,
            a: PA,
            len: usize,
            b_len: usize,
        }
        impl<CB, ITEM, PA> ProducerCallback<ITEM> for CallbackB<CB, PA>
        where
            PA: Producer,
            CB: ProducerCallback<(PA::Item, ITEM)>,
        {
            type Output = CB::Output;
            fn callback<PB>(self, b: PB) -> CB::Output
            where
                PB: Producer<Item = ITEM>,
            {
                self.callback.callback(ZipProducer {
                    a: self.a,
                    b: truncate(b, self.b_len, self.len),
                })
            }
        }
    }
}

/// Cuts the longer side's producer down to the zipped length, so both sides of every
/// piece are exactly as long as the piece: its sequential iterator is then exact from
/// either end, and the surplus (say, a `Vec`'s items) is dropped here rather than
/// half-iterated by `next_back`.
fn truncate<P: Producer>(producer: P, len: usize, to: usize) -> P {
    if len > to {
        producer.split_at(to).0
    } else {
        producer
    }
}

struct ZipProducer<A, B> {
    a: A,
    b: B,
}

impl<A: Producer, B: Producer> Producer for ZipProducer<A, B> {
    type Item = (A::Item, B::Item);
    type IntoIter = std::iter::Zip<A::IntoIter, B::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        self.a.into_iter().zip(self.b.into_iter())
    }

    fn min_len(&self) -> usize {
        Ord::max(self.a.min_len(), self.b.min_len())
    }

    fn max_len(&self) -> usize {
        Ord::min(self.a.max_len(), self.b.max_len())
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (a_left, a_right) = self.a.split_at(index);
        let (b_left, b_right) = self.b.split_at(index);
        (
            ZipProducer {
                a: a_left,
                b: b_left,
            },
            ZipProducer {
                a: a_right,
                b: b_right,
            },
        )
    }
}

/// The iterator of [`IndexedParallelIterator::zip_eq`]: a [`Zip`] whose two sides were
/// checked to have the same length.
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct ZipEq<A, B> {
    zip: Zip<A, B>,
}

impl<A, B> ZipEq<A, B> {
    pub(super) fn new(a: A, b: B) -> Self {
        ZipEq {
            zip: Zip::new(a, b),
        }
    }
}

impl<A, B> ParallelIterator for ZipEq<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    type Item = (A::Item, B::Item);

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        bridge(self.zip, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.zip.len())
    }
}

impl<A, B> IndexedParallelIterator for ZipEq<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    fn len(&self) -> usize {
        self.zip.len()
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<Self::Item>,
    {
        bridge(self.zip, consumer)
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        self.zip.with_producer(callback)
    }
}

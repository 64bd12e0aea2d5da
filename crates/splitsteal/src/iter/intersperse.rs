//! `intersperse`: a clone of one item between every two neighbouring items.
//!
//! On an indexed base the output position says what goes there (even: the base's item
//! `i / 2`, odd: the separator), so pieces split by position and each knows whether it
//! starts with a separator. An unindexed base cannot tell a piece whether an item comes
//! first overall (the pieces before it may all be empty), so its items are collected into a
//! `Vec` first, in order, and that `Vec` is interspersed by position.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The iterator of [`ParallelIterator::intersperse`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Intersperse<I: ParallelIterator> {
    base: I,
    item: I::Item,
}

impl<I: ParallelIterator> Intersperse<I> {
    pub(super) fn new(base: I, item: I::Item) -> Self {
        Intersperse { base, item }
    }
}

fn interspersed_len(n: usize) -> usize {
    n.saturating_mul(2).saturating_sub(1)
}

impl<I> ParallelIterator for Intersperse<I>
where
    I: ParallelIterator,
    I::Item: Clone,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let items: Vec<I::Item> = self.base.collect();
        bridge(
            Intersperse {
                base: items.into_par_iter(),
                item: self.item,
            },
            consumer,
        )
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len().map(interspersed_len)
    }
}

impl<I> IndexedParallelIterator for Intersperse<I>
where
    I: IndexedParallelIterator,
    I::Item: Clone,
{
    fn len(&self) -> usize {
        let n = self.base.len();
        assert!(
            n <= usize::MAX / 2 + 1,
            "intersperse: length overflows usize"
        );
        interspersed_len(n)
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let len = self.len();
        return self.base.with_producer(Callback {
            callback,
            item: self.item,
            len,
        });

        struct Callback<CB, T> {
            callback: CB,
            item: T,
            len: usize,
        }
        impl<T: Clone + Send, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB, T> {
            type Output = CB::Output;
            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                self.callback.callback(IntersperseProducer {
                    base,
                    item: self.item,
                    len: self.len,
                    sep_first: false,
                })
            }
        }
    }
}

/// `len` output positions: alternately an item of `base` and a separator, starting with
/// a separator if `sep_first`.
struct IntersperseProducer<P: Producer> {
    base: P,
    item: P::Item,
    len: usize,
    sep_first: bool,
}

/// How many of the first `index` positions hold base items.
fn items_before(index: usize, sep_first: bool) -> usize {
    if sep_first {
        index / 2
    } else {
        index.div_ceil(2)
    }
}

impl<P> Producer for IntersperseProducer<P>
where
    P: Producer,
    P::Item: Clone + Send,
{
    type Item = P::Item;
    type IntoIter = IntersperseIter<P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        let last = self.len.wrapping_sub(1);
        IntersperseIter {
            base: self.base.into_iter(),
            len: self.len,
            sep_front: self.sep_first,
            // Position `last` is a separator when its parity differs from the first item's.
            sep_back: self.len > 0 && last.is_multiple_of(2) == self.sep_first,
            item: self.item,
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(items_before(index, self.sep_first));
        (
            IntersperseProducer {
                base: left,
                item: self.item.clone(),
                len: index,
                sep_first: self.sep_first,
            },
            IntersperseProducer {
                base: right,
                item: self.item,
                len: self.len - index,
                sep_first: self.sep_first == index.is_multiple_of(2),
            },
        )
    }
}

/// The sequential iterator of an [`IntersperseProducer`] piece.
struct IntersperseIter<It: Iterator> {
    base: It,
    item: It::Item,
    len: usize,
    sep_front: bool,
    sep_back: bool,
}

impl<It> Iterator for IntersperseIter<It>
where
    It: Iterator,
    It::Item: Clone,
{
    type Item = It::Item;

    fn next(&mut self) -> Option<It::Item> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let sep = self.sep_front;
        self.sep_front = !sep;
        if sep {
            Some(self.item.clone())
        } else {
            self.base.next()
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }
}

impl<It> DoubleEndedIterator for IntersperseIter<It>
where
    It: DoubleEndedIterator,
    It::Item: Clone,
{
    fn next_back(&mut self) -> Option<It::Item> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let sep = self.sep_back;
        self.sep_back = !sep;
        if sep {
            Some(self.item.clone())
        } else {
            self.base.next_back()
        }
    }
}

impl<It> ExactSizeIterator for IntersperseIter<It>
where
    It: Iterator,
    It::Item: Clone,
{
}

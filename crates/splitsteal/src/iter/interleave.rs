//! `interleave` and `interleave_shortest`: two indexed iterators' items alternately
//! (`a0, b0, a1, b1, ...`), then the rest of the longer one.
//!
//! A piece is two producers and whose turn comes first. Which output positions belong to
//! which side depends only on `(a_first, a_len, b_len)`: alternation while both have items,
//! then the rest of the longer. So a split at output index `i` knows how many items of each
//! side lie before `i`, and both sides split there.

use std::iter::Fuse;

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator, Take};

/// The iterator of [`IndexedParallelIterator::interleave`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Interleave<I, J> {
    a: I,
    b: J,
}

impl<I, J> Interleave<I, J> {
    pub(super) fn new(a: I, b: J) -> Self {
        Interleave { a, b }
    }
}

/// The iterator of [`IndexedParallelIterator::interleave_shortest`]: as `interleave`, but
/// stopping once the side whose turn it is has run out.
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct InterleaveShortest<I, J> {
    inner: Interleave<Take<I>, Take<J>>,
}

impl<I: IndexedParallelIterator, J: IndexedParallelIterator<Item = I::Item>>
    InterleaveShortest<I, J>
{
    pub(super) fn new(a: I, b: J) -> Self {
        let (la, lb) = (a.len(), b.len());
        // `a` goes first, so it may have one item more than `b`.
        let (ta, tb) = if la <= lb { (la, la) } else { (lb + 1, lb) };
        InterleaveShortest {
            inner: Interleave::new(a.take(ta), b.take(tb)),
        }
    }
}

super::delegate::delegate_indexed_iterator! {
    InterleaveShortest<I, J> => I::Item,
    impl<I: IndexedParallelIterator, J: IndexedParallelIterator<Item = I::Item>>
}

impl<I, J> ParallelIterator for Interleave<I, J>
where
    I: IndexedParallelIterator,
    J: IndexedParallelIterator<Item = I::Item>,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<I, J> IndexedParallelIterator for Interleave<I, J>
where
    I: IndexedParallelIterator,
    J: IndexedParallelIterator<Item = I::Item>,
{
    fn len(&self) -> usize {
        self.a
            .len()
            .checked_add(self.b.len())
            .expect("interleave: length overflows usize")
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let (a_len, b_len) = (self.a.len(), self.b.len());
        return self.a.with_producer(CallbackA {
            callback,
            b: self.b,
            a_len,
            b_len,
        });

        struct CallbackA<CB, J> {
            callback: CB,
            b: J,
            a_len: usize,
            b_len: usize,
        }
        impl<T, CB, J> ProducerCallback<T> for CallbackA<CB, J>
        where
            CB: ProducerCallback<T>,
            J: IndexedParallelIterator<Item = T>,
        {
            type Output = CB::Output;
            fn callback<A: Producer<Item = T>>(self, a: A) -> CB::Output {
                self.b.with_producer(CallbackB {
                    callback: self.callback,
                    a,
                    a_len: self.a_len,
                    b_len: self.b_len,
                })
            }
        }

        struct CallbackB<CB, A> {
            callback: CB,
            a: A,
            a_len: usize,
            b_len: usize,
        }
        impl<T, CB, A> ProducerCallback<T> for CallbackB<CB, A>
        where
            CB: ProducerCallback<T>,
            A: Producer<Item = T>,
        {
            type Output = CB::Output;
            fn callback<B: Producer<Item = T>>(self, b: B) -> CB::Output {
                self.callback.callback(InterleaveProducer {
                    a: self.a,
                    b,
                    a_len: self.a_len,
                    b_len: self.b_len,
                    a_first: true,
                })
            }
        }
    }
}

/// How many of the first `index` positions belong to the side that goes first, when it has
/// `first` items and the other `second`.
fn firsts_before(index: usize, first: usize, second: usize) -> usize {
    // Alternating, the first side has the even positions: ceil(index / 2) of them; once the
    // second side is out, every later position is the first side's.
    Ord::min(
        first,
        Ord::max(index.div_ceil(2), index.saturating_sub(second)),
    )
}

struct InterleaveProducer<A, B> {
    a: A,
    b: B,
    a_len: usize,
    b_len: usize,
    a_first: bool,
}

impl<T, A, B> Producer for InterleaveProducer<A, B>
where
    A: Producer<Item = T>,
    B: Producer<Item = T>,
{
    type Item = T;
    type IntoIter = InterleaveIter<A::IntoIter, B::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        InterleaveIter {
            a: self.a.into_iter().fuse(),
            b: self.b.into_iter().fuse(),
            a_len: self.a_len,
            b_len: self.b_len,
            a_first: self.a_first,
        }
    }

    fn min_len(&self) -> usize {
        Ord::max(self.a.min_len(), self.b.min_len())
    }

    fn max_len(&self) -> usize {
        Ord::min(self.a.max_len(), self.b.max_len())
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (na, nb) = if self.a_first {
            let na = firsts_before(index, self.a_len, self.b_len);
            (na, index - na)
        } else {
            let nb = firsts_before(index, self.b_len, self.a_len);
            (index - nb, nb)
        };
        let (a_left, a_right) = self.a.split_at(na);
        let (b_left, b_right) = self.b.split_at(nb);
        (
            InterleaveProducer {
                a: a_left,
                b: b_left,
                a_len: na,
                b_len: nb,
                a_first: self.a_first,
            },
            InterleaveProducer {
                a: a_right,
                b: b_right,
                a_len: self.a_len - na,
                b_len: self.b_len - nb,
                // The turn alternates with each position.
                a_first: self.a_first == index.is_multiple_of(2),
            },
        )
    }
}

/// The sequential iterator of an [`InterleaveProducer`] piece.
struct InterleaveIter<A, B> {
    a: Fuse<A>,
    b: Fuse<B>,
    a_len: usize,
    b_len: usize,
    a_first: bool,
}

impl<T, A, B> Iterator for InterleaveIter<A, B>
where
    A: Iterator<Item = T>,
    B: Iterator<Item = T>,
{
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let take_a = self.b_len == 0 || (self.a_first && self.a_len > 0);
        if self.a_len + self.b_len == 0 {
            return None;
        }
        self.a_first = !take_a;
        if take_a {
            self.a_len -= 1;
            self.a.next()
        } else {
            self.b_len -= 1;
            self.b.next()
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.a_len + self.b_len;
        (n, Some(n))
    }
}

impl<T, A, B> DoubleEndedIterator for InterleaveIter<A, B>
where
    A: DoubleEndedIterator<Item = T>,
    B: DoubleEndedIterator<Item = T>,
{
    fn next_back(&mut self) -> Option<T> {
        if self.a_len + self.b_len == 0 {
            return None;
        }
        // The last position is the longer side's; with equal lengths, the side that does
        // not go first ends the alternation.
        let last_a = self.a_len > self.b_len || (self.a_len == self.b_len && !self.a_first);
        if last_a {
            self.a_len -= 1;
            self.a.next_back()
        } else {
            self.b_len -= 1;
            self.b.next_back()
        }
    }
}

impl<T, A, B> ExactSizeIterator for InterleaveIter<A, B>
where
    A: Iterator<Item = T>,
    B: Iterator<Item = T>,
{
}

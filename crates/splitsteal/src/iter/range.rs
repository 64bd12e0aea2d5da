//! `into_par_iter()` on ranges of integers: `(0..n).into_par_iter()` and `(a..=b)`.
//!
//! Every primitive integer type up to 64 bits (and `usize` / `isize`) is indexed, so
//! `enumerate`, `zip` and in-place `collect` work on any of them. A range whose length does
//! not fit in `usize` (only `0..=u64::MAX`-like inclusive ranges of 64-bit types) panics
//! with a message when iterated; 128-bit ranges are not provided.

use std::ops::{Range, RangeInclusive};

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The parallel iterator of an integer range (`a..b` or `a..=b`): `len` values from
/// `start`, counting up.
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Iter<T> {
    start: T,
    len: usize,
}

/// The sequential iterator of a piece of a range.
#[derive(Debug, Clone)]
pub struct Counter<T> {
    next: T,
    left: usize,
}

/// The integer types whose ranges are parallel iterators (sealed: implemented for the
/// primitive integers up to 64 bits).
pub trait RangeInteger: sealed::Sealed + Copy + Send + PartialOrd {
    /// The length of `start..end`.
    fn range_len(start: Self, end: Self) -> usize;
    /// The length of `start..=end`.
    fn inclusive_range_len(start: Self, end: Self) -> usize;
}

mod sealed {
    pub trait Sealed {}
}

// One generic impl per range kind (not one per integer type), so that the type of an
// unsuffixed literal range like `(0..5).into_par_iter()` is inferred from later use, as
// with a sequential range.
impl<T: RangeInteger> IntoParallelIterator for Range<T>
where
    Iter<T>: ParallelIterator<Item = T>,
{
    type Item = T;
    type Iter = Iter<T>;

    fn into_par_iter(self) -> Iter<T> {
        Iter {
            start: self.start,
            len: T::range_len(self.start, self.end),
        }
    }
}

impl<T: RangeInteger> IntoParallelIterator for RangeInclusive<T>
where
    Iter<T>: ParallelIterator<Item = T>,
{
    type Item = T;
    type Iter = Iter<T>;

    fn into_par_iter(self) -> Iter<T> {
        let (start, end) = (*self.start(), *self.end());
        let len = if self.is_empty() {
            0
        } else {
            T::inclusive_range_len(start, end)
        };
        Iter { start, len }
    }
}

macro_rules! integer_ranges {
    ($($t:ty)*) => {$(
        impl sealed::Sealed for $t {}

        impl RangeInteger for $t {
            fn range_len(start: $t, end: $t) -> usize {
                if start < end {
                    length(end as i128 - start as i128)
                } else {
                    0
                }
            }

            fn inclusive_range_len(start: $t, end: $t) -> usize {
                if start <= end {
                    length(end as i128 - start as i128 + 1)
                } else {
                    0
                }
            }
        }

        impl ParallelIterator for Iter<$t> {
            type Item = $t;

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: UnindexedConsumer<$t>,
            {
                bridge(self, consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len)
            }
        }

        impl IndexedParallelIterator for Iter<$t> {
            fn len(&self) -> usize {
                self.len
            }

            fn drive<C>(self, consumer: C) -> C::Result
            where
                C: Consumer<$t>,
            {
                bridge(self, consumer)
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: ProducerCallback<$t>,
            {
                callback.callback(self)
            }
        }

        impl Producer for Iter<$t> {
            type Item = $t;
            type IntoIter = Counter<$t>;

            fn into_iter(self) -> Counter<$t> {
                Counter { next: self.start, left: self.len }
            }

            fn split_at(self, index: usize) -> (Self, Self) {
                // Wrapping: `index <= len`, so the true value is in range; the cast only
                // drops high bits that the type's own arithmetic would wrap away.
                let mid = self.start.wrapping_add(index as $t);
                (
                    Iter { start: self.start, len: index },
                    Iter { start: mid, len: self.len - index },
                )
            }
        }

        impl Iterator for Counter<$t> {
            type Item = $t;

            #[inline]
            fn next(&mut self) -> Option<$t> {
                if self.left == 0 {
                    return None;
                }
                let item = self.next;
                self.left -= 1;
                self.next = self.next.wrapping_add(1);
                Some(item)
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.left, Some(self.left))
            }
        }

        impl DoubleEndedIterator for Counter<$t> {
            #[inline]
            fn next_back(&mut self) -> Option<$t> {
                if self.left == 0 {
                    return None;
                }
                self.left -= 1;
                Some(self.next.wrapping_add(self.left as $t))
            }
        }

        impl ExactSizeIterator for Counter<$t> {}
    )*};
}

integer_ranges!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

fn length(len: i128) -> usize {
    usize::try_from(len).unwrap_or_else(|_| {
        panic!("a range of {len} values is too long for a parallel iterator (at most usize::MAX)")
    })
}

//! `into_par_iter()` on ranges of integers: `(0..n).into_par_iter()` and `(a..=b)`.
//!
//! Every primitive integer type (128-bit included) and `char` is indexed, so `enumerate`,
//! `zip` and in-place `collect` work on any of them (rayon's 128-bit ranges are not
//! indexed; here they are, as long as their length fits in `usize`). A range whose length
//! does not fit in `usize` (`0..=u64::MAX`, or most of a 128-bit type's values) panics with
//! a message when `into_par_iter` is called. A `char` range skips the surrogate code
//! points (`'\u{D7FF}'..='\u{E000}'` has two values), as std's does.

use std::ops::{Range, RangeInclusive};

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The parallel iterator of an integer or `char` range (`a..b` or `a..=b`): `len` values
/// from `start`, counting up.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let letters: String = ('a'..='e').into_par_iter().collect();
/// assert_eq!(letters, "abcde");
/// assert_eq!(('\u{D7FF}'..='\u{E000}').into_par_iter().count(), 2); // no surrogates
/// let big: u128 = (u128::MAX - 9..=u128::MAX).into_par_iter().map(|x| x - (u128::MAX - 9)).sum();
/// assert_eq!(big, 45);
/// ```
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

/// The types whose ranges are parallel iterators (sealed: implemented for the primitive
/// integers and `char`).
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

/// `end - start` (for `start <= end`) as a `u128`, exact for every integer type.
trait Distance: Copy {
    fn distance(start: Self, end: Self) -> u128;
}

macro_rules! narrow_distance {
    ($($t:ty)*) => {$(
        impl Distance for $t {
            fn distance(start: $t, end: $t) -> u128 {
                // Every type here fits in i128, so the difference is exact.
                (end as i128 - start as i128) as u128
            }
        }
    )*};
}

narrow_distance!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

impl Distance for u128 {
    fn distance(start: u128, end: u128) -> u128 {
        end - start
    }
}

impl Distance for i128 {
    fn distance(start: i128, end: i128) -> u128 {
        // The true difference is in 0..2^128, which the two's-complement wrap gives.
        end.wrapping_sub(start) as u128
    }
}

macro_rules! integer_ranges {
    ($($t:ty)*) => {$(
        impl sealed::Sealed for $t {}

        impl RangeInteger for $t {
            fn range_len(start: $t, end: $t) -> usize {
                if start < end {
                    length(Some(Distance::distance(start, end)))
                } else {
                    0
                }
            }

            fn inclusive_range_len(start: $t, end: $t) -> usize {
                if start <= end {
                    length(Distance::distance(start, end).checked_add(1))
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

integer_ranges!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize u128 i128);

/// A range's length as a `usize`; `None` is a length of 2^128.
fn length(len: Option<u128>) -> usize {
    len.and_then(|n| usize::try_from(n).ok()).unwrap_or_else(|| {
        let shown = len.map_or_else(|| "2^128".to_string(), |n| n.to_string());
        panic!("a range of {shown} values is too long for a parallel iterator (at most usize::MAX)")
    })
}

/// The surrogate code points, which are not `char`s.
const SURROGATES: std::ops::Range<u32> = 0xD800..0xE000;

/// The `char` `n` places after `c`, skipping the surrogates (the caller knows it exists).
fn char_after(c: char, n: usize) -> char {
    let mut v = c as u32 + n as u32;
    if (c as u32) < SURROGATES.start && v >= SURROGATES.start {
        v += SURROGATES.end - SURROGATES.start;
    }
    char::from_u32(v).expect("within the range's chars")
}

/// How many `char`s lie in `start..end` code points (neither is a surrogate).
fn chars_between(start: char, end: char) -> usize {
    let (s, e) = (start as u32, end as u32);
    let gap = if s < SURROGATES.start && e >= SURROGATES.end {
        SURROGATES.end - SURROGATES.start
    } else {
        0
    };
    (e - s - gap) as usize
}

impl sealed::Sealed for char {}

impl RangeInteger for char {
    fn range_len(start: char, end: char) -> usize {
        if start < end {
            chars_between(start, end)
        } else {
            0
        }
    }

    fn inclusive_range_len(start: char, end: char) -> usize {
        if start <= end {
            chars_between(start, end) + 1
        } else {
            0
        }
    }
}

impl ParallelIterator for Iter<char> {
    type Item = char;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<char>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len)
    }
}

impl IndexedParallelIterator for Iter<char> {
    fn len(&self) -> usize {
        self.len
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<char>,
    {
        bridge(self, consumer)
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<char>,
    {
        callback.callback(self)
    }
}

impl Producer for Iter<char> {
    type Item = char;
    type IntoIter = Counter<char>;

    fn into_iter(self) -> Counter<char> {
        Counter {
            next: self.start,
            left: self.len,
        }
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        // `char_after` would be asked for a char past the end when the right part is empty.
        let mid = if index < self.len {
            char_after(self.start, index)
        } else {
            self.start
        };
        (
            Iter {
                start: self.start,
                len: index,
            },
            Iter {
                start: mid,
                len: self.len - index,
            },
        )
    }
}

impl Iterator for Counter<char> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        if self.left == 0 {
            return None;
        }
        let item = self.next;
        self.left -= 1;
        if self.left > 0 {
            self.next = char_after(item, 1);
        }
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl DoubleEndedIterator for Counter<char> {
    fn next_back(&mut self) -> Option<char> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        Some(char_after(self.next, self.left))
    }
}

impl ExactSizeIterator for Counter<char> {}

//! `into_par_iter()` on inclusive ranges of integers and `char`s: `(a..=b).into_par_iter()`.
//!
//! The same machinery as [`range`] (whose docs say how long ranges and
//! inference work): `0..=u64::MAX` and `0..=u128::MAX` (2^128 values) are unindexed
//! parallel iterators that split in halves.
//!
//! ```
//! use splitsteal::prelude::*;
//!
//! let r: u64 = (0..=100u64).into_par_iter().sum();
//! assert_eq!(r, 5050);
//! assert_eq!((0..=u64::MAX).into_par_iter().opt_len(), None);
//! assert_eq!((0..=u64::MAX).into_par_iter().find_any(|&x| x == 7), Some(7));
//! ```

use std::ops::RangeInclusive;

use super::plumbing::{bridge, Consumer, ProducerCallback, UnindexedConsumer};
use super::range::{self, RangeInteger, Span};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The parallel iterator of an integer or `char` range `a..=b`: the values from `a` to
/// `b`, counting up.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let letters: String = ('a'..='e').into_par_iter().collect();
/// assert_eq!(letters, "abcde");
/// assert_eq!(('\u{D7FF}'..='\u{E000}').into_par_iter().count(), 2); // no surrogates
/// let top: Vec<u8> = (250..=u8::MAX).into_par_iter().collect();
/// assert_eq!(top, [250, 251, 252, 253, 254, 255]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Iter<T> {
    range: RangeInclusive<T>,
}

impl<T: RangeInteger> IntoParallelIterator for RangeInclusive<T> {
    type Item = T;
    type Iter = Iter<T>;

    fn into_par_iter(self) -> Iter<T> {
        Iter { range: self }
    }
}

impl<T: RangeInteger> Iter<T> {
    fn span(&self) -> Option<Span<T>> {
        // `is_empty` also sees a sequentially exhausted range.
        if self.range.is_empty() {
            None
        } else {
            Span::inclusive(*self.range.start(), *self.range.end())
        }
    }
}

impl<T: RangeInteger> ParallelIterator for Iter<T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        range::drive_unindexed(*self.range.start(), self.span(), consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        range::opt_len(self.span())
    }
}

impl<T: RangeInteger> IndexedParallelIterator for Iter<T> {
    /// The number of values.
    ///
    /// # Panics
    /// If the range has more than `usize::MAX` values (see [`range`]).
    fn len(&self) -> usize {
        range::indexed_len(self.span())
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<T>,
    {
        bridge(self, consumer)
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<T>,
    {
        range::with_producer(*self.range.start(), self.span(), callback)
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[test]
    // Runs on the global pool, whose signal handler miri cannot install (CI's miri runs
    // this module's pool-free tests).
    #[cfg_attr(miri, ignore = "needs the global pool")]
    fn inclusive_ranges_reach_the_type_maximum() {
        let v: Vec<i8> = (120..=i8::MAX).into_par_iter().collect();
        assert_eq!(v, (120..=i8::MAX).collect::<Vec<_>>());
        #[allow(clippy::reversed_empty_ranges)]
        let empty = 3..=2u128;
        assert_eq!(empty.into_par_iter().count(), 0);
        let mut done = 0..=0u8;
        done.next();
        assert_eq!(done.into_par_iter().count(), 0);
    }

    #[test]
    fn inclusive_ranges_are_indexed_while_their_length_fits_usize() {
        assert_eq!((0..=u32::MAX).into_par_iter().opt_len(), Some(1 << 32));
        assert_eq!((0..=u64::MAX).into_par_iter().opt_len(), None);
        assert_eq!(
            (0..=usize::MAX as u64 - 1).into_par_iter().opt_len(),
            Some(usize::MAX)
        );
        assert_eq!((0..=u128::MAX).into_par_iter().opt_len(), None);
        assert_eq!((i128::MIN..=i128::MAX).into_par_iter().opt_len(), None);
    }
}

//! `into_par_iter()` on ranges of integers and `char`s: `(a..b).into_par_iter()` (this
//! module) and `(a..=b)` ([`range_inclusive`](super::range_inclusive)).
//!
//! Every primitive integer type (128-bit included) and `char` works, through one generic
//! `impl ParallelIterator for Iter<T>` (not one impl per type): the type of an unsuffixed
//! literal range is then inferred from later use, as with a sequential range, so
//! `(1..100).into_par_iter().filter(|&x| is_even(x))` with `fn is_even(x: i64)` iterates
//! `i64`s.
//!
//! A range whose length fits in `usize` is driven as an indexed iterator (split at any
//! index, `collect` in place). A longer one (`0..=u64::MAX`, most 128-bit ranges) is an
//! *unindexed* parallel iterator, as in rayon: its [`opt_len`](ParallelIterator::opt_len)
//! is `None` and it splits in halves in its own width, so short-circuiting consumers
//! (`find_first`, `find_last`, `find_any`, `any`) finish early even on `0..10^27u128`.
//! Unlike rayon, which implements [`IndexedParallelIterator`] only for the types whose
//! ranges always fit, every type's range is indexed here; on a range too long for `usize`
//! the indexed methods (`len`, `enumerate`, `zip`, `rev`, ...) panic with a message.
//!
//! A `char` range skips the surrogate code points (`'\u{D7FF}'..='\u{E000}'` has two
//! values), as std's does.

use std::ops::Range;

use super::plumbing::{
    bridge, bridge_producer_consumer, bridge_unindexed, Consumer, Folder, Producer,
    ProducerCallback, UnindexedConsumer, UnindexedProducer,
};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The parallel iterator of an integer or `char` range `a..b`: the values from `a`,
/// counting up, before `b`.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let letters: String = ('a'..'f').into_par_iter().collect();
/// assert_eq!(letters, "abcde");
/// let big: u128 = (u128::MAX - 9..u128::MAX).into_par_iter().map(|x| x - (u128::MAX - 9)).sum();
/// assert_eq!(big, 36);
/// // Longer than usize::MAX: unindexed, and still quick to search.
/// let huge = 0..10u128.pow(27);
/// assert_eq!(huge.clone().into_par_iter().opt_len(), None);
/// assert_eq!(huge.into_par_iter().find_first(|&x| x > 5), Some(6));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Iter<T> {
    range: Range<T>,
}

/// The sequential iterator of a piece of a range.
#[derive(Debug, Clone)]
pub struct Counter<T> {
    next: T,
    left: usize,
}

/// The types whose ranges are parallel iterators (sealed: implemented for the primitive
/// integers and `char`).
pub trait RangeInteger: sealed::Sealed + Step + PartialOrd {
    /// The length of `start..end`.
    ///
    /// # Panics
    /// If the length does not fit in `usize`.
    fn range_len(start: Self, end: Self) -> usize {
        if start < end {
            length(Some(Self::count_to(start, end)))
        } else {
            0
        }
    }

    /// The length of `start..=end`.
    ///
    /// # Panics
    /// If the length does not fit in `usize`.
    fn inclusive_range_len(start: Self, end: Self) -> usize {
        if start <= end {
            length(Self::count_to(start, end).checked_add(1))
        } else {
            0
        }
    }
}

mod sealed {
    pub trait Sealed {}
}

/// The unnameable helper trait under [`RangeInteger`]: counting and stepping in the type's
/// own width (public only because it bounds public impls; its module is private).
mod step {
    pub trait Step: Copy + Send + Sync + PartialEq {
        /// How many values lie in `start..end`, for `start < end` (exact, `< 2^128`).
        fn count_to(start: Self, end: Self) -> u128;
        /// The value `n` places after `self`; the caller knows it exists.
        fn forward(self, n: u128) -> Self;
        /// The next value (wrapping for integers; `char::MAX` stays put): the caller only
        /// uses it when a next value exists, or discards it.
        fn succ(self) -> Self;
    }
}
use step::Step;

/// A non-empty run of `last_index + 1` values from `start`: the form both range kinds take
/// before they are driven. (`last_index` is `u128` so that all 2^128 values of
/// `0..=u128::MAX` fit.)
#[derive(Clone, Copy)]
pub(super) struct Span<T> {
    pub(super) start: T,
    pub(super) last_index: u128,
}

impl<T: Step> Span<T> {
    /// The span of `start..end`, or `None` if it is empty.
    pub(super) fn exclusive(start: T, end: T) -> Option<Span<T>>
    where
        T: PartialOrd,
    {
        (start < end).then(|| Span {
            start,
            last_index: T::count_to(start, end) - 1,
        })
    }

    /// The span of `start..=end` (not exhausted), or `None` if it is empty.
    pub(super) fn inclusive(start: T, end: T) -> Option<Span<T>>
    where
        T: PartialOrd,
    {
        (start <= end).then(|| Span {
            start,
            last_index: if start == end {
                0
            } else {
                T::count_to(start, end)
            },
        })
    }

    /// The number of values, if it fits in `usize`.
    fn len(&self) -> Option<usize> {
        usize::try_from(self.last_index).ok()?.checked_add(1)
    }
}

/// The length of a possibly empty span as an `Option<usize>` (`opt_len`).
pub(super) fn opt_len<T: Step>(span: Option<Span<T>>) -> Option<usize> {
    match span {
        Some(span) => span.len(),
        None => Some(0),
    }
}

/// The length of a possibly empty span for `IndexedParallelIterator::len`.
pub(super) fn indexed_len<T: Step>(span: Option<Span<T>>) -> usize {
    opt_len(span).unwrap_or_else(|| {
        panic!(
            "a range of more than usize::MAX values has no usize length: it is an unindexed \
             parallel iterator, so len, enumerate, zip, rev and other indexed methods cannot \
             be used on it"
        )
    })
}

/// Drives a possibly empty span (starting at `start` if empty) into an unindexed consumer:
/// indexed when its length fits in `usize`, else by halves.
pub(super) fn drive_unindexed<T, C>(start: T, span: Option<Span<T>>, consumer: C) -> C::Result
where
    T: Step,
    C: UnindexedConsumer<T>,
{
    match span {
        None => bridge_producer_consumer(0, IterProducer { start, len: 0 }, consumer),
        Some(span) => match span.len() {
            Some(len) => bridge_producer_consumer(
                len,
                IterProducer {
                    start: span.start,
                    len,
                },
                consumer,
            ),
            None => bridge_unindexed(LongProducer(span), consumer),
        },
    }
}

/// Hands the indexed producer of a possibly empty span to `callback` (panics if the span
/// is too long for `usize`, see [`indexed_len`]).
pub(super) fn with_producer<T, CB>(start: T, span: Option<Span<T>>, callback: CB) -> CB::Output
where
    T: Step,
    CB: ProducerCallback<T>,
{
    let len = indexed_len(span);
    let start = span.map_or(start, |s| s.start);
    callback.callback(IterProducer { start, len })
}

impl<T: RangeInteger> IntoParallelIterator for Range<T> {
    type Item = T;
    type Iter = Iter<T>;

    fn into_par_iter(self) -> Iter<T> {
        Iter { range: self }
    }
}

impl<T: RangeInteger> Iter<T> {
    fn span(&self) -> Option<Span<T>> {
        Span::exclusive(self.range.start, self.range.end)
    }
}

impl<T: RangeInteger> ParallelIterator for Iter<T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        drive_unindexed(self.range.start, self.span(), consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        opt_len(self.span())
    }
}

impl<T: RangeInteger> IndexedParallelIterator for Iter<T> {
    /// The number of values.
    ///
    /// # Panics
    /// If the range has more than `usize::MAX` values (see the [module docs](self)).
    fn len(&self) -> usize {
        indexed_len(self.span())
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
        with_producer(self.range.start, self.span(), callback)
    }
}

/// An indexed piece: `len` values from `start`.
struct IterProducer<T> {
    start: T,
    len: usize,
}

impl<T: Step> Producer for IterProducer<T> {
    type Item = T;
    type IntoIter = Counter<T>;

    fn into_iter(self) -> Counter<T> {
        Counter {
            next: self.start,
            left: self.len,
        }
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        // `forward` would be asked for a value past the end when the right part is empty.
        let mid = if index < self.len {
            self.start.forward(index as u128)
        } else {
            self.start
        };
        (
            IterProducer {
                start: self.start,
                len: index,
            },
            IterProducer {
                start: mid,
                len: self.len - index,
            },
        )
    }
}

/// An unindexed piece of a range too long for `usize`: split in halves of its own width.
struct LongProducer<T>(Span<T>);

impl<T: Step> UnindexedProducer for LongProducer<T> {
    type Item = T;

    fn split(self) -> (Self, Option<Self>) {
        let Span { start, last_index } = self.0;
        if last_index == 0 {
            return (self, None);
        }
        // Left: indices `0..=half`; right: `half + 1..=last_index` (non-empty, as
        // `half < last_index`).
        let half = last_index / 2;
        let left = Span {
            start,
            last_index: half,
        };
        let right = Span {
            start: start.forward(half + 1),
            last_index: last_index - half - 1,
        };
        (LongProducer(left), Some(LongProducer(right)))
    }

    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<T>,
    {
        folder.consume_iter(Walk {
            next: Some(self.0.start),
            left: self.0.last_index,
        })
    }
}

/// The values of a long span, in order (`left` more after `next`).
struct Walk<T> {
    next: Option<T>,
    left: u128,
}

impl<T: Step> Iterator for Walk<T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        let item = self.next?;
        if self.left == 0 {
            self.next = None;
        } else {
            self.left -= 1;
            self.next = Some(item.succ());
        }
        Some(item)
    }
}

impl<T: Step> Iterator for Counter<T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.left == 0 {
            return None;
        }
        let item = self.next;
        self.left -= 1;
        self.next = item.succ();
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<T: Step> DoubleEndedIterator for Counter<T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        Some(self.next.forward(self.left as u128))
    }
}

impl<T: Step> ExactSizeIterator for Counter<T> {}

/// `end - start` (for `start <= end`) as a `u128`, exact for every integer type.
macro_rules! integer_ranges {
    ($($t:ty => $distance:expr;)*) => {$(
        impl sealed::Sealed for $t {}

        impl RangeInteger for $t {}

        impl Step for $t {
            #[inline]
            fn count_to(start: $t, end: $t) -> u128 {
                let distance: fn($t, $t) -> u128 = $distance;
                distance(start, end)
            }

            #[inline]
            fn forward(self, n: u128) -> $t {
                // Wrapping: the true value is in range; the cast only drops high bits that
                // the type's own arithmetic would wrap away.
                self.wrapping_add(n as $t)
            }

            #[inline]
            fn succ(self) -> $t {
                self.wrapping_add(1)
            }
        }
    )*};
}

integer_ranges! {
    // Every type up to 64 bits fits in i128, so the difference is exact.
    u8 => |s, e| (e as i128 - s as i128) as u128;
    u16 => |s, e| (e as i128 - s as i128) as u128;
    u32 => |s, e| (e as i128 - s as i128) as u128;
    u64 => |s, e| (e as i128 - s as i128) as u128;
    usize => |s, e| (e as i128 - s as i128) as u128;
    i8 => |s, e| (e as i128 - s as i128) as u128;
    i16 => |s, e| (e as i128 - s as i128) as u128;
    i32 => |s, e| (e as i128 - s as i128) as u128;
    i64 => |s, e| (e as i128 - s as i128) as u128;
    isize => |s, e| (e as i128 - s as i128) as u128;
    u128 => |s, e| e - s;
    // The true difference is in 0..2^128, which the two's-complement wrap gives.
    i128 => |s, e| e.wrapping_sub(s) as u128;
}

/// A range's length as a `usize`; `None` is a length of 2^128.
fn length(len: Option<u128>) -> usize {
    len.and_then(|n| usize::try_from(n).ok())
        .unwrap_or_else(|| {
            let shown = len.map_or_else(|| "2^128".to_string(), |n| n.to_string());
            panic!("a range of {shown} values is too long for a usize length")
        })
}

/// The surrogate code points, which are not `char`s.
const SURROGATES: std::ops::Range<u32> = 0xD800..0xE000;

/// The `char` `n` places after `c`, skipping the surrogates (the caller knows it exists).
fn char_after(c: char, n: u128) -> char {
    let n = u32::try_from(n).expect("within the range's chars");
    let mut v = c as u32 + n;
    if (c as u32) < SURROGATES.start && v >= SURROGATES.start {
        v += SURROGATES.end - SURROGATES.start;
    }
    char::from_u32(v).expect("within the range's chars")
}

impl sealed::Sealed for char {}

impl RangeInteger for char {}

impl Step for char {
    fn count_to(start: char, end: char) -> u128 {
        // How many `char`s lie in `start..end` code points (neither is a surrogate).
        let (s, e) = (start as u32, end as u32);
        let gap = if s < SURROGATES.start && e >= SURROGATES.end {
            SURROGATES.end - SURROGATES.start
        } else {
            0
        };
        (e - s - gap) as u128
    }

    fn forward(self, n: u128) -> char {
        char_after(self, n)
    }

    fn succ(self) -> char {
        if self == char::MAX {
            self
        } else {
            char_after(self, 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_spans_split_in_halves_without_losing_values() {
        // 2^128 values: both halves have 2^127.
        let full = Span::inclusive(0u128, u128::MAX).unwrap();
        assert_eq!(full.len(), None);
        let (l, r) = LongProducer(full).split();
        let r = r.unwrap();
        assert_eq!((l.0.start, l.0.last_index), (0, u128::MAX / 2));
        assert_eq!((r.0.start, r.0.last_index), (1 << 127, u128::MAX / 2));
        // Signed, across zero.
        let s = Span::inclusive(i128::MIN, i128::MAX).unwrap();
        let (l, r) = LongProducer(s).split();
        assert_eq!((l.0.start, r.unwrap().0.start), (i128::MIN, 0));
        // Walk a small span to the end, including the type's last value.
        let s = Span::inclusive(u64::MAX - 3, u64::MAX).unwrap();
        let w: Vec<u64> = Walk {
            next: Some(s.start),
            left: s.last_index,
        }
        .collect();
        assert_eq!(w, [u64::MAX - 3, u64::MAX - 2, u64::MAX - 1, u64::MAX]);
        // Always the left piece of a split: the pieces' starts.
        let mut p = Some(LongProducer(Span::exclusive(-3i8, 4).unwrap()));
        let mut pieces = vec![];
        while let Some(q) = p.take() {
            let (l, r) = q.split();
            pieces.push(l.0.start);
            p = r;
        }
        assert_eq!(pieces, [-3, 1, 3]);
    }

    #[test]
    fn split_at_past_the_type_maximum() {
        // The split index overflows `i8`.
        let p = IterProducer {
            start: -100i8,
            len: 200,
        };
        let (l, r) = p.split_at(150);
        let sum: i32 = l.into_iter().chain(r.into_iter()).map(i32::from).sum();
        assert_eq!(sum, -100);
    }

    #[test]
    fn opt_len_is_none_beyond_usize() {
        assert_eq!((0..100u64).into_par_iter().opt_len(), Some(100));
        assert_eq!((0..100u128).into_par_iter().opt_len(), Some(100));
        assert_eq!(
            (0..usize::MAX as u128).into_par_iter().opt_len(),
            Some(usize::MAX)
        );
        assert_eq!((0..usize::MAX as u128 + 1).into_par_iter().opt_len(), None);
        assert_eq!((i128::MIN..i128::MAX).into_par_iter().opt_len(), None);
        #[allow(clippy::reversed_empty_ranges)]
        let empty = 5..3u128;
        assert_eq!(empty.into_par_iter().opt_len(), Some(0));
    }

    #[test]
    #[should_panic(expected = "unindexed")]
    fn indexed_methods_on_a_long_range_panic() {
        let _ = (0..u128::MAX).into_par_iter().len();
    }
}

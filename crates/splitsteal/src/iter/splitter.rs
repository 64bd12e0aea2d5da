//! `iter::split`: a parallel iterator over the pieces of any value that knows how to halve
//! itself. The value is an unindexed producer whose `split` is the user's function; each
//! piece that is not split further is one item.

use std::fmt;

use super::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use super::ParallelIterator;

/// A parallel iterator over the pieces `splitter` cuts `data` into: the run calls
/// `splitter` on a piece whenever it wants more parallelism there (as it would split a
/// range), and each piece left unsplit is yielded once, as an item. `splitter` returns the
/// piece it was given, halved: the first part and `Some(second part)`, or the whole piece
/// and `None` when it cannot or should not be split further.
///
/// Every part of `data` ends up in exactly one item; how finely it is cut depends on the
/// pool (as for any unindexed iterator), so the number of items is not fixed.
///
/// ```
/// use splitsteal::iter;
/// use splitsteal::prelude::*;
/// use std::ops::Range;
///
/// fn halve(r: Range<u64>) -> (Range<u64>, Option<Range<u64>>) {
///     if r.end - r.start < 2 {
///         return (r, None);
///     }
///     let mid = r.start + (r.end - r.start) / 2;
///     (r.start..mid, Some(mid..r.end))
/// }
///
/// // Each piece is summed sequentially; the pieces together cover 0..1000 exactly once.
/// let sum: u64 = iter::split(0..1000u64, halve).map(|r| r.sum::<u64>()).sum();
/// assert_eq!(sum, 999 * 1000 / 2);
/// let pieces: Vec<Range<u64>> = iter::split(0..1000u64, halve).collect();
/// assert_eq!(pieces.first().unwrap().start, 0);
/// assert!(pieces.windows(2).all(|w| w[0].end == w[1].start));
/// assert_eq!(pieces.last().unwrap().end, 1000);
/// ```
pub fn split<D, S>(data: D, splitter: S) -> Split<D, S>
where
    D: Send,
    S: Fn(D) -> (D, Option<D>) + Sync,
{
    Split { data, splitter }
}

/// The iterator of [`split()`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct Split<D, S> {
    data: D,
    splitter: S,
}

/// Shows the data only (the splitting function has no `Debug`), as rayon's does.
impl<D: fmt::Debug, S> fmt::Debug for Split<D, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Split").field("data", &self.data).finish()
    }
}

impl<D, S> ParallelIterator for Split<D, S>
where
    D: Send,
    S: Fn(D) -> (D, Option<D>) + Sync + Send,
{
    type Item = D;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<D>,
    {
        bridge_unindexed(
            Piece {
                data: self.data,
                splitter: &self.splitter,
            },
            consumer,
        )
    }
}

/// One piece of the data, with the function that halves it.
struct Piece<'s, D, S> {
    data: D,
    splitter: &'s S,
}

impl<D, S> UnindexedProducer for Piece<'_, D, S>
where
    D: Send,
    S: Fn(D) -> (D, Option<D>) + Sync,
{
    type Item = D;

    fn split(self) -> (Self, Option<Self>) {
        let splitter = self.splitter;
        let (first, second) = splitter(self.data);
        (
            Piece {
                data: first,
                splitter,
            },
            second.map(|data| Piece { data, splitter }),
        )
    }

    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<D>,
    {
        folder.consume(self.data)
    }
}

//! `repeat(x)`: `x` cloned endlessly (unindexed), and `repeat_n(x, n)` (also `repeatn`):
//! `n` clones (indexed), as rayon's. A `RepeatN` holds its element only while its count
//! is not zero: `repeat_n(x, 0)` drops `x` at once, and a split that leaves one side empty
//! moves the element to the other side instead of cloning it.

use std::fmt;

use super::plumbing::{
    bridge, bridge_unindexed, Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer,
    UnindexedProducer,
};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator, Zip};

/// The iterator of [`repeat`]: endless clones of one element.
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::repeat;
///
/// let v: Vec<char> = repeat('x').take(3).collect();
/// assert_eq!(v, ['x', 'x', 'x']);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Repeat<T> {
    element: T,
}

/// A parallel iterator that clones `element` endlessly. It never ends by itself: shorten
/// it with [`Repeat::take`] (or `zip`), or consume it with something that stops early.
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::repeat;
///
/// let total: u32 = repeat(2u32).take(10).sum();
/// assert_eq!(total, 20);
/// ```
pub fn repeat<T: Clone + Send>(element: T) -> Repeat<T> {
    Repeat { element }
}

impl<T: Clone + Send> Repeat<T> {
    /// Only `n` clones: an indexed [`RepeatN`], like [`repeat_n`].
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use splitsteal::iter::repeat;
    ///
    /// assert_eq!(repeat(1).take(5).len(), 5);
    /// ```
    pub fn take(self, n: usize) -> RepeatN<T> {
        repeat_n(self.element, n)
    }

    /// Pairs a clone of the element with each item of an indexed iterator: as many clones
    /// as it has items, and the result is indexed (as `self.take(len).zip(other)`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use splitsteal::iter::repeat;
    ///
    /// let pairs = repeat('x').zip(0..3);
    /// assert_eq!(pairs.len(), 3);
    /// let v: Vec<(char, i32)> = pairs.collect();
    /// assert_eq!(v, [('x', 0), ('x', 1), ('x', 2)]);
    /// ```
    pub fn zip<Z>(self, zip_op: Z) -> Zip<RepeatN<T>, Z::Iter>
    where
        Z: IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        let other = zip_op.into_par_iter();
        let n = other.len();
        self.take(n).zip(other)
    }
}

impl<T: Clone + Send> ParallelIterator for Repeat<T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        bridge_unindexed(RepeatProducer(self.element), consumer)
    }
}

/// A piece of an endless repeat: every piece is endless too, and splits as often as asked.
struct RepeatProducer<T>(T);

impl<T: Clone + Send> UnindexedProducer for RepeatProducer<T> {
    type Item = T;

    fn split(self) -> (Self, Option<Self>) {
        (RepeatProducer(self.0.clone()), Some(self))
    }

    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<T>,
    {
        // Stops only when the folder is full.
        folder.consume_iter(std::iter::repeat(self.0))
    }
}

/// The iterator of [`repeat_n`]: `n` clones of one element (indexed).
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::repeat_n;
///
/// let v: Vec<&str> = repeat_n("ab", 2).collect();
/// assert_eq!(v, ["ab", "ab"]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct RepeatN<T> {
    /// `None` exactly when `count` is 0.
    element: Option<T>,
    count: usize,
}

impl<T: fmt::Debug> fmt::Debug for RepeatN<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("RepeatN");
        d.field("count", &self.count);
        match &self.element {
            Some(element) => d.field("element", element).finish(),
            None => d.finish_non_exhaustive(),
        }
    }
}

impl<T> RepeatN<T> {
    fn new(element: T, count: usize) -> Self {
        RepeatN {
            // A count of 0 needs no element: drop it now.
            element: (count > 0).then_some(element),
            count,
        }
    }

    fn empty() -> Self {
        RepeatN {
            element: None,
            count: 0,
        }
    }
}

/// A parallel iterator of `n` clones of `element` (the last one is `element` itself; with
/// `n == 0`, `element` is dropped at once and never cloned).
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::repeat_n;
///
/// let v: Vec<Vec<u8>> = repeat_n(vec![1u8], 3).collect();
/// assert_eq!(v, [[1], [1], [1]]);
/// ```
pub fn repeat_n<T: Clone + Send>(element: T, n: usize) -> RepeatN<T> {
    RepeatN::new(element, n)
}

/// The older name of [`repeat_n`], kept so rayon code using it compiles.
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::repeatn;
///
/// assert_eq!(repeatn(7, 4).sum::<i32>(), 28);
/// ```
pub fn repeatn<T: Clone + Send>(element: T, n: usize) -> RepeatN<T> {
    repeat_n(element, n)
}

impl<T: Clone + Send> ParallelIterator for RepeatN<T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.count)
    }
}

impl<T: Clone + Send> IndexedParallelIterator for RepeatN<T> {
    fn len(&self) -> usize {
        self.count
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
        callback.callback(self)
    }
}

impl<T: Clone + Send> Producer for RepeatN<T> {
    type Item = T;
    type IntoIter = RepeatNIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        RepeatNIter {
            element: self.element,
            count: self.count,
        }
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        assert!(index <= self.count, "split index out of range");
        if index == 0 {
            (RepeatN::empty(), self)
        } else if index == self.count {
            (self, RepeatN::empty())
        } else {
            let element = self.element.expect("a non-empty RepeatN holds its element");
            let left = RepeatN {
                element: Some(element.clone()),
                count: index,
            };
            let right = RepeatN {
                element: Some(element),
                count: self.count - index,
            };
            (left, right)
        }
    }
}

/// The sequential iterator of a piece of [`RepeatN`]: clones, then the element itself.
#[derive(Debug, Clone)]
pub struct RepeatNIter<T> {
    /// `None` exactly when `count` is 0.
    element: Option<T>,
    count: usize,
}

impl<T: Clone> Iterator for RepeatNIter<T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        match self.count {
            0 => None,
            1 => {
                self.count = 0;
                self.element.take()
            }
            _ => {
                self.count -= 1;
                self.element.clone()
            }
        }
    }

    fn nth(&mut self, n: usize) -> Option<T> {
        if n >= self.count {
            self.count = 0;
            self.element = None;
            None
        } else {
            self.count -= n;
            self.next()
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.count, Some(self.count))
    }
}

impl<T: Clone> DoubleEndedIterator for RepeatNIter<T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        self.next()
    }

    fn nth_back(&mut self, n: usize) -> Option<T> {
        self.nth(n)
    }
}

impl<T: Clone> ExactSizeIterator for RepeatNIter<T> {}

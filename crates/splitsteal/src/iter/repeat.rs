//! `repeat(x)`: `x` cloned endlessly (unindexed), and `repeat_n(x, n)` (also `repeatn`):
//! `n` clones (indexed), as rayon's.

use super::plumbing::{
    bridge, bridge_unindexed, Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer,
    UnindexedProducer,
};
use super::{IndexedParallelIterator, ParallelIterator};

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
#[derive(Debug, Clone)]
pub struct RepeatN<T> {
    element: T,
    count: usize,
}

/// A parallel iterator of `n` clones of `element` (the last one is `element` itself).
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::repeat_n;
///
/// let v: Vec<Vec<u8>> = repeat_n(vec![1u8], 3).collect();
/// assert_eq!(v, [[1], [1], [1]]);
/// ```
pub fn repeat_n<T: Clone + Send>(element: T, n: usize) -> RepeatN<T> {
    RepeatN { element, count: n }
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
    type IntoIter = std::iter::RepeatN<T>;

    fn into_iter(self) -> Self::IntoIter {
        std::iter::repeat_n(self.element, self.count)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let left = RepeatN {
            element: self.element.clone(),
            count: index,
        };
        let right = RepeatN {
            element: self.element,
            count: self.count - index,
        };
        (left, right)
    }
}

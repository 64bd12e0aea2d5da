//! `once(x)` and `empty()`: the parallel iterators of one item and of none (indexed), as
//! rayon's.

use std::fmt;
use std::marker::PhantomData;

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The iterator of [`once`]: exactly one item.
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::once;
///
/// assert_eq!(once(5).collect::<Vec<_>>(), [5]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Once<T: Send> {
    item: T,
}

/// A parallel iterator that yields `item` once (handy to `chain` onto another).
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::once;
///
/// assert_eq!(once(String::from("x")).count(), 1);
/// ```
pub fn once<T: Send>(item: T) -> Once<T> {
    Once { item }
}

impl<T: Send> ParallelIterator for Once<T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(1)
    }
}

impl<T: Send> IndexedParallelIterator for Once<T> {
    fn len(&self) -> usize {
        1
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
        // One item is an `Option` that is `Some`: reuse its producer.
        Some(self.item).into_par_iter().with_producer(callback)
    }
}

/// The iterator of [`empty`]: no items.
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::empty;
///
/// assert_eq!(empty::<u8>().len(), 0);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
pub struct Empty<T: Send> {
    marker: PhantomData<T>,
}

/// A parallel iterator with no items.
///
/// ```
/// use splitsteal::prelude::*;
/// use splitsteal::iter::empty;
///
/// let v: Vec<String> = empty().collect();
/// assert!(v.is_empty());
/// ```
pub fn empty<T: Send>() -> Empty<T> {
    Empty {
        marker: PhantomData,
    }
}

impl<T: Send> Clone for Empty<T> {
    fn clone(&self) -> Self {
        empty()
    }
}

impl<T: Send> fmt::Debug for Empty<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Empty")
    }
}

impl<T: Send> ParallelIterator for Empty<T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(0)
    }
}

impl<T: Send> IndexedParallelIterator for Empty<T> {
    fn len(&self) -> usize {
        0
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
        callback.callback(EmptyProducer(PhantomData))
    }
}

struct EmptyProducer<T: Send>(PhantomData<T>);

impl<T: Send> Producer for EmptyProducer<T> {
    type Item = T;
    type IntoIter = std::iter::Empty<T>;

    fn into_iter(self) -> Self::IntoIter {
        std::iter::empty()
    }

    fn split_at(self, _index: usize) -> (Self, Self) {
        (EmptyProducer(PhantomData), EmptyProducer(PhantomData))
    }
}

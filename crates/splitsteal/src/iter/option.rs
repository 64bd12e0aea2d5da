//! Parallel iterators over an `Option`: `into_par_iter()` on `Option<T>`, `&Option<T>` and
//! `&mut Option<T>` gives an indexed iterator of zero or one item, as rayon's
//! `rayon::option` does. Handy to chain with other iterators, or to collect into.

use super::delegate::delegate_indexed_iterator;
use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The iterator of `into_par_iter()` on an `Option<T>`: the value, if there is one.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let v: Vec<i32> = Some(3).into_par_iter().collect();
/// assert_eq!(v, [3]);
/// assert_eq!(None::<i32>.into_par_iter().count(), 0);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct IntoIter<T: Send> {
    opt: Option<T>,
}

impl<T: Send> IntoParallelIterator for Option<T> {
    type Item = T;
    type Iter = IntoIter<T>;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter { opt: self }
    }
}

impl<T: Send> ParallelIterator for IntoIter<T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<T: Send> IndexedParallelIterator for IntoIter<T> {
    fn len(&self) -> usize {
        usize::from(self.opt.is_some())
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
        callback.callback(OptionProducer { opt: self.opt })
    }
}

/// The producer of an `Option`: zero or one item, so a split leaves it whole on one side.
struct OptionProducer<T: Send> {
    opt: Option<T>,
}

impl<T: Send> Producer for OptionProducer<T> {
    type Item = T;
    type IntoIter = std::option::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.opt.into_iter()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let none = OptionProducer { opt: None };
        if index == 0 {
            (none, self)
        } else {
            (self, none)
        }
    }
}

/// The iterator of `par_iter()` on an `Option<T>`: a reference to the value, if any.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let x = Some(String::from("hi"));
/// let lens: Vec<usize> = x.par_iter().map(|s| s.len()).collect();
/// assert_eq!(lens, [2]);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct Iter<'a, T: Sync> {
    inner: IntoIter<&'a T>,
}

impl<T: Sync> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Iter {
            inner: self.inner.clone(),
        }
    }
}

impl<'a, T: Sync> IntoParallelIterator for &'a Option<T> {
    type Item = &'a T;
    type Iter = Iter<'a, T>;

    fn into_par_iter(self) -> Iter<'a, T> {
        Iter {
            inner: self.as_ref().into_par_iter(),
        }
    }
}

delegate_indexed_iterator! { Iter<'a, T> => &'a T, impl<'a, T: Sync + 'a> }

/// The iterator of `par_iter_mut()` on an `Option<T>`: a mutable reference to the value,
/// if any.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut x = Some(1);
/// x.par_iter_mut().for_each(|v| *v += 10);
/// assert_eq!(x, Some(11));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct IterMut<'a, T: Send> {
    inner: IntoIter<&'a mut T>,
}

impl<'a, T: Send> IntoParallelIterator for &'a mut Option<T> {
    type Item = &'a mut T;
    type Iter = IterMut<'a, T>;

    fn into_par_iter(self) -> IterMut<'a, T> {
        IterMut {
            inner: self.as_mut().into_par_iter(),
        }
    }
}

delegate_indexed_iterator! { IterMut<'a, T> => &'a mut T, impl<'a, T: Send + 'a> }

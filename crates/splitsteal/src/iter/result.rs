//! Parallel iterators over a `Result`: `into_par_iter()` on `Result<T, E>`, `&Result<T, E>`
//! and `&mut Result<T, E>` gives the `Ok` value, if any (zero or one item), as rayon's
//! `rayon::result` does.

use super::delegate::delegate_indexed_iterator;
use super::{option, IntoParallelIterator};

/// The iterator of `into_par_iter()` on a `Result<T, E>`: the `Ok` value, if there is one.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let ok: Result<i32, String> = Ok(4);
/// let err: Result<i32, String> = Err("no".into());
/// assert_eq!(ok.into_par_iter().collect::<Vec<_>>(), [4]);
/// assert_eq!(err.into_par_iter().count(), 0);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct IntoIter<T: Send> {
    inner: option::IntoIter<T>,
}

impl<T: Send, E> IntoParallelIterator for Result<T, E> {
    type Item = T;
    type Iter = IntoIter<T>;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter {
            inner: self.ok().into_par_iter(),
        }
    }
}

delegate_indexed_iterator! { IntoIter<T> => T, impl<T: Send> }

/// The iterator of `par_iter()` on a `Result<T, E>`: a reference to the `Ok` value, if any.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let r: Result<i32, ()> = Ok(5);
/// assert_eq!(r.par_iter().map(|x| x * 2).sum::<i32>(), 10);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct Iter<'a, T: Sync> {
    inner: option::IntoIter<&'a T>,
}

impl<T: Sync> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Iter {
            inner: self.inner.clone(),
        }
    }
}

impl<'a, T: Sync, E> IntoParallelIterator for &'a Result<T, E> {
    type Item = &'a T;
    type Iter = Iter<'a, T>;

    fn into_par_iter(self) -> Iter<'a, T> {
        Iter {
            inner: self.as_ref().ok().into_par_iter(),
        }
    }
}

delegate_indexed_iterator! { Iter<'a, T> => &'a T, impl<'a, T: Sync + 'a> }

/// The iterator of `par_iter_mut()` on a `Result<T, E>`: a mutable reference to the `Ok`
/// value, if any.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut r: Result<i32, ()> = Ok(5);
/// r.par_iter_mut().for_each(|x| *x = 0);
/// assert_eq!(r, Ok(0));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct IterMut<'a, T: Send> {
    inner: option::IntoIter<&'a mut T>,
}

impl<'a, T: Send, E> IntoParallelIterator for &'a mut Result<T, E> {
    type Item = &'a mut T;
    type Iter = IterMut<'a, T>;

    fn into_par_iter(self) -> IterMut<'a, T> {
        IterMut {
            inner: self.as_mut().ok().into_par_iter(),
        }
    }
}

delegate_indexed_iterator! { IterMut<'a, T> => &'a mut T, impl<'a, T: Send + 'a> }

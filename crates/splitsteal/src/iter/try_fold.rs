//! `try_fold` and `try_fold_with`: `fold`, except that a piece stops folding at the first
//! `None` / `Err` / `Break` and yields it as its item. Each piece stops only itself (as in
//! rayon); a `try_reduce` or `try_for_each` after it stops the others.

use std::fmt;
use std::marker::PhantomData;
use std::ops::ControlFlow::{self, Break, Continue};

use super::fold::{FromClone, FromIdentity, Start};
use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::try_trait::{unbranch, Try};
use super::ParallelIterator;

/// The iterator of [`ParallelIterator::try_fold`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// let sum: Option<u8> = (0..20u8)
///     .into_par_iter()
///     .try_fold(|| 0u8, |a, x| a.checked_add(x))
///     .try_reduce(|| 0, |a, b| a.checked_add(b));
/// assert_eq!(sum, Some(190));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct TryFold<I, U, ID, F> {
    base: I,
    identity: ID,
    fold_op: F,
    marker: PhantomData<U>,
}

impl<U, I: fmt::Debug, ID, F> fmt::Debug for TryFold<I, U, ID, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TryFold").field("base", &self.base).finish()
    }
}

impl<I, U, ID, F> TryFold<I, U, ID, F> {
    pub(super) fn new(base: I, identity: ID, fold_op: F) -> Self {
        TryFold {
            base,
            identity,
            fold_op,
            marker: PhantomData,
        }
    }
}

impl<U, I, ID, F> ParallelIterator for TryFold<I, U, ID, F>
where
    I: ParallelIterator,
    F: Fn(U::Output, I::Item) -> U + Sync + Send,
    ID: Fn() -> U::Output + Sync + Send,
    U: Try + Send,
{
    type Item = U;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<U>,
    {
        self.base.drive_unindexed(TryFoldConsumer {
            base: consumer,
            start: FromIdentity(&self.identity),
            fold_op: &self.fold_op,
            marker: PhantomData,
        })
    }
}

/// The iterator of [`ParallelIterator::try_fold_with`].
///
/// ```
/// use splitsteal::prelude::*;
///
/// let r: Result<u32, String> = (1..=10u32)
///     .into_par_iter()
///     .try_fold_with(0u32, |a, x| if x == 7 { Err(format!("saw {x}")) } else { Ok(a + x) })
///     .try_reduce(|| 0, |a, b| Ok(a + b));
/// assert_eq!(r, Err("saw 7".to_string()));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
pub struct TryFoldWith<I, U: Try, F> {
    base: I,
    item: U::Output,
    fold_op: F,
}

impl<I: Clone, U: Try, F: Clone> Clone for TryFoldWith<I, U, F>
where
    U::Output: Clone,
{
    fn clone(&self) -> Self {
        TryFoldWith {
            base: self.base.clone(),
            item: self.item.clone(),
            fold_op: self.fold_op.clone(),
        }
    }
}

impl<I: fmt::Debug, U: Try, F> fmt::Debug for TryFoldWith<I, U, F>
where
    U::Output: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TryFoldWith")
            .field("base", &self.base)
            .field("item", &self.item)
            .finish()
    }
}

impl<I, U: Try, F> TryFoldWith<I, U, F> {
    pub(super) fn new(base: I, item: U::Output, fold_op: F) -> Self {
        TryFoldWith {
            base,
            item,
            fold_op,
        }
    }
}

impl<U, I, F> ParallelIterator for TryFoldWith<I, U, F>
where
    I: ParallelIterator,
    F: Fn(U::Output, I::Item) -> U + Sync + Send,
    U: Try + Send,
    U::Output: Clone + Send,
{
    type Item = U;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<U>,
    {
        self.base.drive_unindexed(TryFoldConsumer {
            base: consumer,
            start: FromClone(self.item),
            fold_op: &self.fold_op,
            marker: PhantomData,
        })
    }
}

struct TryFoldConsumer<'f, C, S, F, U> {
    base: C,
    start: S,
    fold_op: &'f F,
    marker: PhantomData<fn() -> U>,
}

impl<'f, T, C, S, F, U> Consumer<T> for TryFoldConsumer<'f, C, S, F, U>
where
    C: UnindexedConsumer<U>,
    S: Start<Value = U::Output>,
    F: Fn(U::Output, T) -> U + Sync,
    U: Try + Send,
{
    type Folder = TryFoldFolder<'f, C::Folder, F, U>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, _index: usize) -> (Self, Self, C::Reducer) {
        // The base consumes one result per piece; an input index means nothing to it.
        let left = self.split_off_left();
        let reducer = self.base.to_reducer();
        (left, self, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        TryFoldFolder {
            base: self.base.into_folder(),
            control: Continue(self.start.into_value()),
            fold_op: self.fold_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, S, F, U> UnindexedConsumer<T> for TryFoldConsumer<'_, C, S, F, U>
where
    C: UnindexedConsumer<U>,
    S: Start<Value = U::Output>,
    F: Fn(U::Output, T) -> U + Sync,
    U: Try + Send,
{
    fn split_off_left(&self) -> Self {
        TryFoldConsumer {
            base: self.base.split_off_left(),
            start: self.start.split(),
            fold_op: self.fold_op,
            marker: PhantomData,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct TryFoldFolder<'f, B, F, U: Try> {
    base: B,
    control: ControlFlow<U::Residual, U::Output>,
    fold_op: &'f F,
}

impl<T, B, F, U> Folder<T> for TryFoldFolder<'_, B, F, U>
where
    B: Folder<U>,
    F: Fn(U::Output, T) -> U,
    U: Try,
{
    type Result = B::Result;

    fn consume(self, item: T) -> Self {
        let control = match self.control {
            Continue(acc) => (self.fold_op)(acc, item).branch(),
            stopped @ Break(_) => stopped,
        };
        TryFoldFolder { control, ..self }
    }

    fn complete(self) -> B::Result {
        self.base.consume(unbranch(self.control)).complete()
    }

    fn full(&self) -> bool {
        matches!(self.control, Break(_)) || self.base.full()
    }
}

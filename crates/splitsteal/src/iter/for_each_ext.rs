//! `for_each_with` / `for_each_init` (each piece gets its own state: a clone, or a fresh
//! `init()`), and `try_for_each` and its `_with` / `_init` forms, which stop the whole run
//! at the first `None` / `Err` / `Break`: the piece that meets it raises a flag every
//! other piece checks through `full()`. Of two stops, combining keeps the left one, but
//! which stops are met at all depends on timing, so the one returned is not necessarily
//! the sequentially first.

use std::marker::PhantomData;
use std::ops::ControlFlow::{Break, Continue};
use std::sync::atomic::{AtomicBool, Ordering};

use super::fold::{FromClone, FromIdentity, Start};
use super::for_each::NoopReducer;
use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::try_trait::Try;
use super::ParallelIterator;

pub(super) fn for_each_with<I, OP, T>(par_iter: I, init: T, op: &OP)
where
    I: ParallelIterator,
    OP: Fn(&mut T, I::Item) + Sync,
    T: Send + Clone,
{
    par_iter.drive_unindexed(ForEachStateConsumer {
        start: FromClone(init),
        op,
    })
}

pub(super) fn for_each_init<I, OP, INIT, T>(par_iter: I, init: &INIT, op: &OP)
where
    I: ParallelIterator,
    OP: Fn(&mut T, I::Item) + Sync,
    INIT: Fn() -> T + Sync,
{
    par_iter.drive_unindexed(ForEachStateConsumer {
        start: FromIdentity(init),
        op,
    })
}

pub(super) fn try_for_each<I, OP, R>(par_iter: I, op: &OP) -> R
where
    I: ParallelIterator,
    OP: Fn(I::Item) -> R + Sync,
    R: Try<Output = ()> + Send,
{
    try_for_each_with(par_iter, (), &|_: &mut (), item| op(item))
}

pub(super) fn try_for_each_with<I, OP, T, R>(par_iter: I, init: T, op: &OP) -> R
where
    I: ParallelIterator,
    OP: Fn(&mut T, I::Item) -> R + Sync,
    T: Send + Clone,
    R: Try<Output = ()> + Send,
{
    let stop = AtomicBool::new(false);
    par_iter.drive_unindexed(TryForEachConsumer {
        start: FromClone(init),
        op,
        stop: &stop,
        marker: PhantomData,
    })
}

pub(super) fn try_for_each_init<I, OP, INIT, T, R>(par_iter: I, init: &INIT, op: &OP) -> R
where
    I: ParallelIterator,
    OP: Fn(&mut T, I::Item) -> R + Sync,
    INIT: Fn() -> T + Sync,
    R: Try<Output = ()> + Send,
{
    let stop = AtomicBool::new(false);
    par_iter.drive_unindexed(TryForEachConsumer {
        start: FromIdentity(init),
        op,
        stop: &stop,
        marker: PhantomData,
    })
}

struct ForEachStateConsumer<'f, S, OP> {
    start: S,
    op: &'f OP,
}

impl<'f, T, S, OP> Consumer<T> for ForEachStateConsumer<'f, S, OP>
where
    S: Start,
    OP: Fn(&mut S::Value, T) + Sync,
{
    type Folder = ForEachStateFolder<'f, S::Value, OP>;
    type Reducer = NoopReducer;
    type Result = ();

    fn split_at(self, _index: usize) -> (Self, Self, NoopReducer) {
        (self.split_off_left(), self, NoopReducer)
    }

    fn into_folder(self) -> Self::Folder {
        ForEachStateFolder {
            state: self.start.into_value(),
            op: self.op,
        }
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T, S, OP> UnindexedConsumer<T> for ForEachStateConsumer<'_, S, OP>
where
    S: Start,
    OP: Fn(&mut S::Value, T) + Sync,
{
    fn split_off_left(&self) -> Self {
        ForEachStateConsumer {
            start: self.start.split(),
            op: self.op,
        }
    }

    fn to_reducer(&self) -> NoopReducer {
        NoopReducer
    }
}

struct ForEachStateFolder<'f, U, OP> {
    state: U,
    op: &'f OP,
}

impl<T, U, OP> Folder<T> for ForEachStateFolder<'_, U, OP>
where
    OP: Fn(&mut U, T),
{
    type Result = ();

    fn consume(mut self, item: T) -> Self {
        (self.op)(&mut self.state, item);
        self
    }

    fn consume_iter<It>(mut self, iter: It) -> Self
    where
        It: IntoIterator<Item = T>,
    {
        for item in iter {
            (self.op)(&mut self.state, item);
        }
        self
    }

    fn complete(self) {}

    fn full(&self) -> bool {
        false
    }
}

struct TryForEachConsumer<'f, S, OP, R> {
    start: S,
    op: &'f OP,
    stop: &'f AtomicBool,
    marker: PhantomData<fn() -> R>,
}

impl<'f, T, S, OP, R> Consumer<T> for TryForEachConsumer<'f, S, OP, R>
where
    S: Start,
    OP: Fn(&mut S::Value, T) -> R + Sync,
    R: Try<Output = ()> + Send,
{
    type Folder = TryForEachFolder<'f, S::Value, OP, R>;
    type Reducer = TryForEachReducer<R>;
    type Result = R;

    fn split_at(self, _index: usize) -> (Self, Self, TryForEachReducer<R>) {
        (self.split_off_left(), self, TryForEachReducer(PhantomData))
    }

    fn into_folder(self) -> Self::Folder {
        TryForEachFolder {
            state: self.start.into_value(),
            op: self.op,
            stop: self.stop,
            residual: None,
        }
    }

    fn full(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl<T, S, OP, R> UnindexedConsumer<T> for TryForEachConsumer<'_, S, OP, R>
where
    S: Start,
    OP: Fn(&mut S::Value, T) -> R + Sync,
    R: Try<Output = ()> + Send,
{
    fn split_off_left(&self) -> Self {
        TryForEachConsumer {
            start: self.start.split(),
            op: self.op,
            stop: self.stop,
            marker: PhantomData,
        }
    }

    fn to_reducer(&self) -> TryForEachReducer<R> {
        TryForEachReducer(PhantomData)
    }
}

struct TryForEachFolder<'f, U, OP, R: Try> {
    state: U,
    op: &'f OP,
    stop: &'f AtomicBool,
    /// The stop this piece met, if any.
    residual: Option<R::Residual>,
}

impl<T, U, OP, R> Folder<T> for TryForEachFolder<'_, U, OP, R>
where
    OP: Fn(&mut U, T) -> R,
    R: Try<Output = ()>,
{
    type Result = R;

    fn consume(mut self, item: T) -> Self {
        if self.residual.is_none()
            && let Break(residual) = (self.op)(&mut self.state, item).branch()
        {
            self.residual = Some(residual);
            // Relaxed: the flag only lets other pieces skip work; the stop itself
            // reaches the result through the reducers, which `join` orders.
            self.stop.store(true, Ordering::Relaxed);
        }
        self
    }

    fn complete(self) -> R {
        match self.residual {
            Some(residual) => R::from_residual(residual),
            None => R::from_output(()),
        }
    }

    fn full(&self) -> bool {
        self.residual.is_some() || self.stop.load(Ordering::Relaxed)
    }
}

/// Keeps the left piece's stop if it has one, else the right piece's result.
struct TryForEachReducer<R>(PhantomData<fn() -> R>);

impl<R: Try<Output = ()>> Reducer<R> for TryForEachReducer<R> {
    fn reduce(self, left: R, right: R) -> R {
        match left.branch() {
            Break(residual) => R::from_residual(residual),
            Continue(()) => right,
        }
    }
}

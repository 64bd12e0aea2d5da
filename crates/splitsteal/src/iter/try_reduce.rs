//! `try_reduce` and `try_reduce_with`: `reduce` over `Option` / `Result` / `ControlFlow`
//! items that stops at the first `None` / `Err` / `Break`.
//!
//! A piece that meets a stop sets a flag shared by the whole run, and every other piece
//! sees it through `full()` and stops early. Combining two pieces keeps a stop over any
//! output (the left one if both stopped), so the run returns one of the stops it met; which
//! one depends on timing. A run that meets none returns the sequential reduction.

use std::marker::PhantomData;
use std::ops::ControlFlow::{self, Break, Continue};
use std::sync::atomic::{AtomicBool, Ordering};

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::try_trait::{unbranch, Try};
use super::ParallelIterator;

pub(super) fn try_reduce<I, T, ID, OP>(par_iter: I, identity: ID, op: OP) -> I::Item
where
    I: ParallelIterator,
    I::Item: Try<Output = T>,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> I::Item + Sync,
{
    let stop = AtomicBool::new(false);
    par_iter.drive_unindexed(TryReduceConsumer {
        identity: &identity,
        op: &op,
        stop: &stop,
        marker: PhantomData,
    })
}

pub(super) fn try_reduce_with<I, T, OP>(par_iter: I, op: OP) -> Option<I::Item>
where
    I: ParallelIterator,
    I::Item: Try<Output = T>,
    OP: Fn(T, T) -> I::Item + Sync,
{
    let stop = AtomicBool::new(false);
    par_iter.drive_unindexed(TryReduceWithConsumer {
        op: &op,
        stop: &stop,
        marker: PhantomData,
    })
}

/// Folds `item` into the running `acc`, raising `stop` if that stops the run.
fn step<R, OP>(
    acc: ControlFlow<R::Residual, R::Output>,
    item: R,
    op: &OP,
    stop: &AtomicBool,
) -> ControlFlow<R::Residual, R::Output>
where
    R: Try,
    OP: Fn(R::Output, R::Output) -> R,
{
    let next = match (acc, item.branch()) {
        (stopped @ Break(_), _) => return stopped,
        (Continue(_), Break(residual)) => Break(residual),
        (Continue(acc), Continue(x)) => op(acc, x).branch(),
    };
    if let Break(_) = next {
        // Relaxed: the flag only lets other pieces skip work; the stop itself reaches the
        // result through the reducers, which `join` orders.
        stop.store(true, Ordering::Relaxed);
    }
    next
}

/// Consumer and reducer of `try_reduce`.
struct TryReduceConsumer<'r, ID, OP, R> {
    identity: &'r ID,
    op: &'r OP,
    stop: &'r AtomicBool,
    marker: PhantomData<fn() -> R>,
}

impl<ID, OP, R> Clone for TryReduceConsumer<'_, ID, OP, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<ID, OP, R> Copy for TryReduceConsumer<'_, ID, OP, R> {}

impl<'r, ID, OP, R> Consumer<R> for TryReduceConsumer<'r, ID, OP, R>
where
    R: Try + Send,
    ID: Fn() -> R::Output + Sync,
    OP: Fn(R::Output, R::Output) -> R + Sync,
{
    type Folder = TryReduceFolder<'r, OP, R>;
    type Reducer = Self;
    type Result = R;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> Self::Folder {
        TryReduceFolder {
            op: self.op,
            stop: self.stop,
            control: Continue((self.identity)()),
        }
    }

    fn full(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl<ID, OP, R> UnindexedConsumer<R> for TryReduceConsumer<'_, ID, OP, R>
where
    R: Try + Send,
    ID: Fn() -> R::Output + Sync,
    OP: Fn(R::Output, R::Output) -> R + Sync,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<ID, OP, R> Reducer<R> for TryReduceConsumer<'_, ID, OP, R>
where
    R: Try,
    OP: Fn(R::Output, R::Output) -> R,
{
    fn reduce(self, left: R, right: R) -> R {
        unbranch(step(left.branch(), right, self.op, self.stop))
    }
}

struct TryReduceFolder<'r, OP, R: Try> {
    op: &'r OP,
    stop: &'r AtomicBool,
    control: ControlFlow<R::Residual, R::Output>,
}

impl<OP, R> Folder<R> for TryReduceFolder<'_, OP, R>
where
    R: Try,
    OP: Fn(R::Output, R::Output) -> R,
{
    type Result = R;

    fn consume(self, item: R) -> Self {
        TryReduceFolder {
            control: step(self.control, item, self.op, self.stop),
            ..self
        }
    }

    fn complete(self) -> R {
        unbranch(self.control)
    }

    fn full(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Consumer and reducer of `try_reduce_with`.
struct TryReduceWithConsumer<'r, OP, R> {
    op: &'r OP,
    stop: &'r AtomicBool,
    marker: PhantomData<fn() -> R>,
}

impl<OP, R> Clone for TryReduceWithConsumer<'_, OP, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<OP, R> Copy for TryReduceWithConsumer<'_, OP, R> {}

impl<'r, OP, R> Consumer<R> for TryReduceWithConsumer<'r, OP, R>
where
    R: Try + Send,
    OP: Fn(R::Output, R::Output) -> R + Sync,
{
    type Folder = TryReduceWithFolder<'r, OP, R>;
    type Reducer = Self;
    type Result = Option<R>;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> Self::Folder {
        TryReduceWithFolder {
            op: self.op,
            stop: self.stop,
            control: None,
        }
    }

    fn full(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl<OP, R> UnindexedConsumer<R> for TryReduceWithConsumer<'_, OP, R>
where
    R: Try + Send,
    OP: Fn(R::Output, R::Output) -> R + Sync,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<OP, R> Reducer<Option<R>> for TryReduceWithConsumer<'_, OP, R>
where
    R: Try,
    OP: Fn(R::Output, R::Output) -> R,
{
    fn reduce(self, left: Option<R>, right: Option<R>) -> Option<R> {
        match (left, right) {
            (Some(left), Some(right)) => {
                Some(unbranch(step(left.branch(), right, self.op, self.stop)))
            }
            (left, None) => left,
            (None, right) => right,
        }
    }
}

struct TryReduceWithFolder<'r, OP, R: Try> {
    op: &'r OP,
    stop: &'r AtomicBool,
    /// `None` until the piece's first item.
    control: Option<ControlFlow<R::Residual, R::Output>>,
}

impl<OP, R> Folder<R> for TryReduceWithFolder<'_, OP, R>
where
    R: Try,
    OP: Fn(R::Output, R::Output) -> R,
{
    type Result = Option<R>;

    fn consume(self, item: R) -> Self {
        let control = match self.control {
            None => {
                let first = item.branch();
                if let Break(_) = first {
                    self.stop.store(true, Ordering::Relaxed);
                }
                first
            }
            Some(acc) => step(acc, item, self.op, self.stop),
        };
        TryReduceWithFolder {
            control: Some(control),
            ..self
        }
    }

    fn complete(self) -> Option<R> {
        self.control.map(unbranch)
    }

    fn full(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

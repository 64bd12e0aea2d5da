//! `while_some`: items pass until a `None` is seen; from then on every piece stops at its
//! next check (a shared flag), so items after the first `None` may or may not arrive, as
//! in rayon.

use std::sync::atomic::{AtomicBool, Ordering};

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::ParallelIterator;

/// The iterator of [`ParallelIterator::while_some`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct WhileSome<I> {
    base: I,
}

impl<I> WhileSome<I> {
    pub(super) fn new(base: I) -> Self {
        WhileSome { base }
    }
}

impl<I, T> ParallelIterator for WhileSome<I>
where
    I: ParallelIterator<Item = Option<T>>,
    T: Send,
{
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        let stop = AtomicBool::new(false);
        self.base.drive_unindexed(WhileSomeConsumer {
            base: consumer,
            stop: &stop,
        })
    }
}

struct WhileSomeConsumer<'f, C> {
    base: C,
    stop: &'f AtomicBool,
}

impl<'f, T, C> Consumer<Option<T>> for WhileSomeConsumer<'f, C>
where
    C: Consumer<T>,
    T: Send,
{
    type Folder = WhileSomeConsumer<'f, C::Folder>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let stop = self.stop;
        (
            WhileSomeConsumer { base: left, stop },
            WhileSomeConsumer { base: right, stop },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        WhileSomeConsumer {
            base: self.base.into_folder(),
            stop: self.stop,
        }
    }

    fn full(&self) -> bool {
        // Relaxed: the flag only cuts work short; results still combine in order.
        self.stop.load(Ordering::Relaxed) || self.base.full()
    }
}

impl<T, C> UnindexedConsumer<Option<T>> for WhileSomeConsumer<'_, C>
where
    C: UnindexedConsumer<T>,
    T: Send,
{
    fn split_off_left(&self) -> Self {
        WhileSomeConsumer {
            base: self.base.split_off_left(),
            stop: self.stop,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T, F> Folder<Option<T>> for WhileSomeConsumer<'_, F>
where
    F: Folder<T>,
{
    type Result = F::Result;

    fn consume(mut self, item: Option<T>) -> Self {
        match item {
            Some(item) => self.base = self.base.consume(item),
            // Relaxed: as in `full`.
            None => self.stop.store(true, Ordering::Relaxed),
        }
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.base.full()
    }
}

//! What `skip` and `take` share: the base producer is split once, at `n`, before the run.
//! For `take` the part after the cut is dropped at once (a `Vec`'s items, say, are freed
//! before the run rather than after it), as rayon and std's `take` never produce them. For
//! `skip` the part before the cut is still run, into a consumer that drops its items, so
//! their side effects happen, as std's `skip` and rayon's do.

use super::for_each::NoopReducer;
use super::plumbing::{bridge_producer_consumer, Consumer, Folder, Producer, ProducerCallback};

/// Which part of the cut is the result.
pub(super) enum Keep {
    /// `[0, at)`: `take` (the rest is dropped unproduced).
    Before,
    /// `[at, len)`: `skip` (the rest is produced and discarded).
    After,
}

/// Hands `callback` one part of the base producer, cut at `at`.
pub(super) struct Cut<CB> {
    pub(super) callback: CB,
    pub(super) at: usize,
    pub(super) keep: Keep,
}

impl<T, CB> ProducerCallback<T> for Cut<CB>
where
    CB: ProducerCallback<T>,
{
    type Output = CB::Output;

    fn callback<P>(self, base: P) -> CB::Output
    where
        P: Producer<Item = T>,
    {
        let (before, after) = base.split_at(self.at);
        match self.keep {
            Keep::Before => {
                drop(after);
                self.callback.callback(before)
            }
            Keep::After if self.at == 0 => self.callback.callback(after),
            Keep::After => {
                // The skipped part runs as a spawned job while this thread runs the rest; a
                // panic in either is re-raised when the scope ends.
                let at = self.at;
                crate::in_place_scope(|scope| {
                    scope.spawn(move |_| bridge_producer_consumer(at, before, Discard));
                    self.callback.callback(after)
                })
            }
        }
    }
}

/// A consumer that drops every item: it runs the skipped part for its side effects.
struct Discard;

impl<T> Consumer<T> for Discard {
    type Folder = Discard;
    type Reducer = NoopReducer;
    type Result = ();

    fn split_at(self, _index: usize) -> (Self, Self, NoopReducer) {
        (Discard, Discard, NoopReducer)
    }

    fn into_folder(self) -> Self {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T> Folder<T> for Discard {
    type Result = ();

    fn consume(self, item: T) -> Self {
        drop(item);
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(self, iter: I) -> Self {
        iter.into_iter().for_each(drop);
        self
    }

    fn complete(self) {}

    fn full(&self) -> bool {
        false
    }
}

//! What `skip` and `take` share: the base producer is split once, at `n`, before the run;
//! one part runs and the other is dropped at once (a `Vec`'s items, say, are freed before
//! the run rather than after it).

use super::plumbing::{Producer, ProducerCallback};

/// Which part of the cut runs.
pub(super) enum Keep {
    /// `[0, at)`: `take`.
    Before,
    /// `[at, len)`: `skip`.
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
        let (kept, dropped) = match self.keep {
            Keep::Before => (before, after),
            Keep::After => (after, before),
        };
        drop(dropped);
        self.callback.callback(kept)
    }
}

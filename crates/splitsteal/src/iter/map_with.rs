//! `map_with` and `map_init`: `map` with a mutable state per piece. The two differ only in
//! where a new piece's state comes from (a clone of the given value, or a call of the init
//! closure), so a [`PieceState`] stands for that, and one producer wrapper and one
//! consumer wrapper serve both.
//!
//! A producer or consumer that splits gives the left half a new state and keeps its own
//! for the right half; a piece that is folded turns its state source into the state.
//! `map_init`'s closure is therefore called once per piece that runs, not once per split.

use std::fmt;

use super::plumbing::{Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// Where a piece's state comes from.
trait PieceState: Send + Sized {
    /// The state the map closure is handed.
    type State;
    /// A source for a new piece split off to the left of this one.
    fn split_off(&self) -> Self;
    /// The state for this piece, now that it runs.
    fn into_state(self) -> Self::State;
}

/// `map_with`'s state: every piece gets a clone of the value.
struct WithState<T>(T);

impl<T: Send + Clone> PieceState for WithState<T> {
    type State = T;
    fn split_off(&self) -> Self {
        WithState(self.0.clone())
    }
    fn into_state(self) -> T {
        self.0
    }
}

/// `map_init`'s state: every piece calls the init closure.
struct InitState<'f, INIT>(&'f INIT);

impl<T, INIT: Fn() -> T + Sync> PieceState for InitState<'_, INIT> {
    type State = T;
    fn split_off(&self) -> Self {
        InitState(self.0)
    }
    fn into_state(self) -> T {
        (self.0)()
    }
}

/// The iterator of [`ParallelIterator::map_with`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct MapWith<I, T, F> {
    base: I,
    item: T,
    map_op: F,
}

impl<I, T, F> MapWith<I, T, F> {
    pub(super) fn new(base: I, item: T, map_op: F) -> Self {
        MapWith { base, item, map_op }
    }
}

impl<I: fmt::Debug, T: fmt::Debug, F> fmt::Debug for MapWith<I, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapWith")
            .field("base", &self.base)
            .field("item", &self.item)
            .finish()
    }
}

/// The iterator of [`ParallelIterator::map_init`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct MapInit<I, INIT, F> {
    base: I,
    init: INIT,
    map_op: F,
}

impl<I, INIT, F> MapInit<I, INIT, F> {
    pub(super) fn new(base: I, init: INIT, map_op: F) -> Self {
        MapInit { base, init, map_op }
    }
}

impl<I: fmt::Debug, INIT, F> fmt::Debug for MapInit<I, INIT, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapInit").field("base", &self.base).finish()
    }
}

impl<I, T, F, R> ParallelIterator for MapWith<I, T, F>
where
    I: ParallelIterator,
    T: Send + Clone,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    type Item = R;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<R>,
    {
        let MapWith { base, item, map_op } = self;
        base.drive_unindexed(StateConsumer {
            base: consumer,
            state: WithState(item),
            map_op: &map_op,
        })
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I, T, F, R> IndexedParallelIterator for MapWith<I, T, F>
where
    I: IndexedParallelIterator,
    T: Send + Clone,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<R>,
    {
        let MapWith { base, item, map_op } = self;
        base.drive(StateConsumer {
            base: consumer,
            state: WithState(item),
            map_op: &map_op,
        })
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<R>,
    {
        let MapWith { base, item, map_op } = self;
        base.with_producer(StateCallback {
            callback,
            state: WithState(item),
            map_op: &map_op,
        })
    }
}

impl<I, INIT, T, F, R> ParallelIterator for MapInit<I, INIT, F>
where
    I: ParallelIterator,
    INIT: Fn() -> T + Sync + Send,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    type Item = R;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<R>,
    {
        let MapInit { base, init, map_op } = self;
        base.drive_unindexed(StateConsumer {
            base: consumer,
            state: InitState(&init),
            map_op: &map_op,
        })
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I, INIT, T, F, R> IndexedParallelIterator for MapInit<I, INIT, F>
where
    I: IndexedParallelIterator,
    INIT: Fn() -> T + Sync + Send,
    F: Fn(&mut T, I::Item) -> R + Sync + Send,
    R: Send,
{
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<R>,
    {
        let MapInit { base, init, map_op } = self;
        base.drive(StateConsumer {
            base: consumer,
            state: InitState(&init),
            map_op: &map_op,
        })
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<R>,
    {
        let MapInit { base, init, map_op } = self;
        base.with_producer(StateCallback {
            callback,
            state: InitState(&init),
            map_op: &map_op,
        })
    }
}

/// Hands the base's producer on wrapped in a [`StateProducer`].
struct StateCallback<'f, CB, S, F> {
    callback: CB,
    state: S,
    map_op: &'f F,
}

impl<'f, T, R, CB, S, F> ProducerCallback<T> for StateCallback<'f, CB, S, F>
where
    CB: ProducerCallback<R>,
    S: PieceState,
    F: Fn(&mut S::State, T) -> R + Sync,
    R: Send,
{
    type Output = CB::Output;

    fn callback<P>(self, base: P) -> CB::Output
    where
        P: Producer<Item = T>,
    {
        self.callback.callback(StateProducer {
            base,
            state: self.state,
            map_op: self.map_op,
        })
    }
}

/// A piece of the base producer, with the source of its state.
struct StateProducer<'f, P, S, F> {
    base: P,
    state: S,
    map_op: &'f F,
}

impl<'f, P, S, F, R> Producer for StateProducer<'f, P, S, F>
where
    P: Producer,
    S: PieceState,
    F: Fn(&mut S::State, P::Item) -> R + Sync,
    R: Send,
{
    type Item = R;
    type IntoIter = StateIter<'f, P::IntoIter, S::State, F>;

    fn into_iter(self) -> Self::IntoIter {
        StateIter {
            base: self.base.into_iter(),
            state: self.state.into_state(),
            map_op: self.map_op,
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(index);
        (
            StateProducer {
                base: left,
                state: self.state.split_off(),
                map_op: self.map_op,
            },
            StateProducer {
                base: right,
                state: self.state,
                map_op: self.map_op,
            },
        )
    }

    fn fold_with<G>(self, folder: G) -> G
    where
        G: Folder<R>,
    {
        self.base
            .fold_with(StateFolder {
                base: folder,
                state: self.state.into_state(),
                map_op: self.map_op,
            })
            .base
    }
}

/// The sequential iterator of a [`StateProducer`] piece: one state for all its items,
/// from either end.
struct StateIter<'f, I, T, F> {
    base: I,
    state: T,
    map_op: &'f F,
}

impl<I, T, F, R> Iterator for StateIter<'_, I, T, F>
where
    I: Iterator,
    F: Fn(&mut T, I::Item) -> R,
{
    type Item = R;

    #[inline]
    fn next(&mut self) -> Option<R> {
        let item = self.base.next()?;
        Some((self.map_op)(&mut self.state, item))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.base.size_hint()
    }
}

impl<I, T, F, R> DoubleEndedIterator for StateIter<'_, I, T, F>
where
    I: DoubleEndedIterator,
    F: Fn(&mut T, I::Item) -> R,
{
    #[inline]
    fn next_back(&mut self) -> Option<R> {
        let item = self.base.next_back()?;
        Some((self.map_op)(&mut self.state, item))
    }
}

impl<I, T, F, R> ExactSizeIterator for StateIter<'_, I, T, F>
where
    I: ExactSizeIterator,
    F: Fn(&mut T, I::Item) -> R,
{
}

/// Wraps a consumer of mapped items; carries the source of the state for its piece.
struct StateConsumer<'f, C, S, F> {
    base: C,
    state: S,
    map_op: &'f F,
}

impl<'f, T, R, C, S, F> Consumer<T> for StateConsumer<'f, C, S, F>
where
    C: Consumer<R>,
    S: PieceState,
    F: Fn(&mut S::State, T) -> R + Sync,
    R: Send,
{
    type Folder = StateFolder<'f, C::Folder, S::State, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        (
            StateConsumer {
                base: left,
                state: self.state.split_off(),
                map_op: self.map_op,
            },
            StateConsumer {
                base: right,
                state: self.state,
                map_op: self.map_op,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        StateFolder {
            base: self.base.into_folder(),
            state: self.state.into_state(),
            map_op: self.map_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, R, C, S, F> UnindexedConsumer<T> for StateConsumer<'_, C, S, F>
where
    C: UnindexedConsumer<R>,
    S: PieceState,
    F: Fn(&mut S::State, T) -> R + Sync,
    R: Send,
{
    fn split_off_left(&self) -> Self {
        StateConsumer {
            base: self.base.split_off_left(),
            state: self.state.split_off(),
            map_op: self.map_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

/// Folds one piece, with its state.
struct StateFolder<'f, C, T, F> {
    base: C,
    state: T,
    map_op: &'f F,
}

impl<U, R, C, T, F> Folder<U> for StateFolder<'_, C, T, F>
where
    C: Folder<R>,
    F: Fn(&mut T, U) -> R,
{
    type Result = C::Result;

    fn consume(mut self, item: U) -> Self {
        let mapped = (self.map_op)(&mut self.state, item);
        StateFolder {
            base: self.base.consume(mapped),
            ..self
        }
    }

    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = U>,
    {
        let StateFolder {
            base,
            mut state,
            map_op,
        } = self;
        let base = base.consume_iter(iter.into_iter().map(|item| map_op(&mut state, item)));
        StateFolder {
            base,
            state,
            map_op,
        }
    }

    fn complete(self) -> C::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

//! The searching consumers: `find_any` (any match, stops everything at the first one seen),
//! `find_first` / `find_last` (the sequentially first / last match, stopping the pieces
//! that cannot hold it), and `position_*` on indexed iterators. `any` and `all` are
//! `find_any` over the predicate's results.
//!
//! # Stopping early in order
//!
//! Each consumer of `find_first` / `find_last` owns an interval of `0..usize::MAX`; a split
//! gives the left part the lower half of the interval and keeps the upper half, so
//! intervals are ordered as the items are. A piece that finds a match publishes its
//! interval's lower bound (`find_first`: `fetch_min`) or upper bound (`find_last`:
//! `fetch_max`) in one shared atomic, and a piece whose own bound is strictly beyond the
//! published one (to the right of a found first match, to the left of a found last match)
//! reports itself full and stops. Halving runs out after 64 levels of splitting; pieces
//! split deeper share a bound, do not stop each other, and are still combined in order by
//! the reducer, so the result stays right and only the early stop is lost.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer, CHUNK};
use super::{IndexedParallelIterator, ParallelIterator};

pub(super) fn find_any<I, P>(par_iter: I, predicate: &P) -> Option<I::Item>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync,
{
    let found = AtomicBool::new(false);
    par_iter.drive_unindexed(FindAnyConsumer {
        predicate,
        found: &found,
    })
}

pub(super) fn find_first<I, P>(par_iter: I, predicate: &P) -> Option<I::Item>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync,
{
    let best = AtomicUsize::new(usize::MAX);
    par_iter.drive_unindexed(FindInOrderConsumer::new(predicate, Side::First, &best))
}

pub(super) fn find_last<I, P>(par_iter: I, predicate: &P) -> Option<I::Item>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync,
{
    let best = AtomicUsize::new(0);
    par_iter.drive_unindexed(FindInOrderConsumer::new(predicate, Side::Last, &best))
}

pub(super) fn position_any<I, P>(par_iter: I, predicate: &P) -> Option<usize>
where
    I: IndexedParallelIterator,
    P: Fn(I::Item) -> bool + Sync,
{
    let found = AtomicBool::new(false);
    let base = FindAnyConsumer {
        predicate: &|_: &usize| true,
        found: &found,
    };
    par_iter.drive(PositionConsumer {
        base,
        offset: 0,
        predicate,
    })
}

pub(super) fn position_first<I, P>(par_iter: I, predicate: &P) -> Option<usize>
where
    I: IndexedParallelIterator,
    P: Fn(I::Item) -> bool + Sync,
{
    let best = AtomicUsize::new(usize::MAX);
    let base = FindInOrderConsumer::new(&|_: &usize| true, Side::First, &best);
    par_iter.drive(PositionConsumer {
        base,
        offset: 0,
        predicate,
    })
}

pub(super) fn position_last<I, P>(par_iter: I, predicate: &P) -> Option<usize>
where
    I: IndexedParallelIterator,
    P: Fn(I::Item) -> bool + Sync,
{
    let best = AtomicUsize::new(0);
    let base = FindInOrderConsumer::new(&|_: &usize| true, Side::Last, &best);
    par_iter.drive(PositionConsumer {
        base,
        offset: 0,
        predicate,
    })
}

// ---- find_any ----

/// Consumer and reducer of `find_any`: every piece stops once any piece has found a match.
struct FindAnyConsumer<'p, P> {
    predicate: &'p P,
    found: &'p AtomicBool,
}

impl<P> Clone for FindAnyConsumer<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for FindAnyConsumer<'_, P> {}

impl<'p, T, P> Consumer<T> for FindAnyConsumer<'p, P>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
{
    type Folder = FindAnyFolder<'p, P, T>;
    type Reducer = Self;
    type Result = Option<T>;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> Self::Folder {
        FindAnyFolder {
            predicate: self.predicate,
            found: self.found,
            item: None,
            polls: Poll::new(),
        }
    }

    fn full(&self) -> bool {
        // Relaxed: the flag only lets pieces skip work; the match itself reaches the
        // result through the reducers, which `join` orders.
        self.found.load(Ordering::Relaxed)
    }
}

impl<T, P> UnindexedConsumer<T> for FindAnyConsumer<'_, P>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<T, P> Reducer<Option<T>> for FindAnyConsumer<'_, P> {
    fn reduce(self, left: Option<T>, right: Option<T>) -> Option<T> {
        left.or(right)
    }
}

struct FindAnyFolder<'p, P, T> {
    predicate: &'p P,
    found: &'p AtomicBool,
    item: Option<T>,
    polls: Poll,
}

/// A search's look at the world outside its piece, every [`CHUNK`] looks at `full()`:
/// [`serve_thieves`](crate::serve_thieves). Under `lcws-poll` a search whose piece is too
/// long to walk (rayon's octillion tests: `find_last` on `0..10^27u128`, a filter that
/// rejects a whole half) ends only because other workers steal and split the pieces that
/// hold the match, and its worker answers them only at pushes, pops and here. (A
/// countdown in a `Cell`, since `full` takes `&self`: adaptors that loop over a piece
/// item by item, `filter` for one, call it per item; the searches' own `consume_iter`
/// count down themselves.)
///
/// `None` where thieves do not poll ([`serve_thieves_needed`](crate::serve_thieves_needed)
/// is asked once per piece): there `full()` stays a plain load, and the folder can stay
/// in registers (a `Cell` written per item put it in memory: a `filter(..).find_first(..)`
/// loop ran 1.35x rayon's time).
struct Poll(Option<Cell<usize>>);

impl Poll {
    fn new() -> Poll {
        Poll(crate::serve_thieves_needed().then(|| Cell::new(CHUNK)))
    }

    /// Counting down, whatever the pool (the caller asked `serve_thieves_needed`).
    fn counting() -> Poll {
        Poll(Some(Cell::new(CHUNK)))
    }

    #[inline]
    fn tick(&self) {
        if let Some(left) = &self.0 {
            match left.get() - 1 {
                0 => {
                    crate::serve_thieves();
                    left.set(CHUNK);
                }
                n => left.set(n),
            }
        }
    }
}

/// `live`, counting down to a [`serve_thieves`](crate::serve_thieves) call every
/// [`CHUNK`] items: what the searches' own loops look at per item where thieves poll.
fn serving_thieves<T>(mut live: impl FnMut(&T) -> bool) -> impl FnMut(&T) -> bool {
    let polls = Poll::counting();
    move |item| {
        polls.tick();
        live(item)
    }
}

impl<T, P> Folder<T> for FindAnyFolder<'_, P, T>
where
    P: Fn(&T) -> bool,
{
    type Result = Option<T>;

    fn consume(mut self, item: T) -> Self {
        if self.item.is_none() && (self.predicate)(&item) {
            self.item = Some(item);
            self.found.store(true, Ordering::Relaxed);
        }
        self
    }

    /// The piece as one `Iterator::find`, stopping when another piece has found a match:
    /// the folder's state stays in registers (the default loop moves `self` through
    /// `consume` and `full` per item, which left `any`/`all` on a slice about 30x slower
    /// than rayon at one thread). Where thieves poll (`lcws-poll`), every [`CHUNK`] items
    /// they are served ([`serve_thieves`](crate::serve_thieves)), so that the pieces that
    /// would find a match can be stolen while this one searches; elsewhere the loop is
    /// rayon's, without the countdown (which cost a cheap predicate's loop 2x).
    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        if self.item.is_some() {
            return self;
        }
        let (predicate, found) = (self.predicate, self.found);
        let iter = iter.into_iter();
        // Relaxed: as in `full`.
        let live = |_: &T| !found.load(Ordering::Relaxed);
        self.item = if crate::serve_thieves_needed() {
            iter.take_while(serving_thieves(live))
                .find(|item| predicate(item))
        } else {
            iter.take_while(live).find(|item| predicate(item))
        };
        if self.item.is_some() {
            found.store(true, Ordering::Relaxed);
        }
        self
    }

    fn complete(self) -> Option<T> {
        self.item
    }

    fn full(&self) -> bool {
        self.polls.tick();
        self.item.is_some() || self.found.load(Ordering::Relaxed)
    }
}

// ---- find_first / find_last ----

/// Which match is wanted: the sequentially first or last.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    First,
    Last,
}

/// Consumer of `find_first` / `find_last` for the items of the interval `lower..upper`
/// (see the module docs).
struct FindInOrderConsumer<'p, P> {
    predicate: &'p P,
    side: Side,
    /// A cell because `split_off_left` takes `&self` and hands the lower half away.
    lower: Cell<usize>,
    upper: usize,
    /// The bound of the best match published so far.
    best: &'p AtomicUsize,
}

impl<'p, P> FindInOrderConsumer<'p, P> {
    fn new(predicate: &'p P, side: Side, best: &'p AtomicUsize) -> Self {
        FindInOrderConsumer {
            predicate,
            side,
            lower: Cell::new(0),
            upper: usize::MAX,
            best,
        }
    }

    /// The bound this consumer publishes and is compared by.
    fn bound(&self) -> usize {
        match self.side {
            Side::First => self.lower.get(),
            Side::Last => self.upper,
        }
    }
}

/// Whether a piece with bound `bound` cannot hold the wanted match, given the best bound
/// published so far.
#[inline(always)]
fn beaten(side: Side, best: &AtomicUsize, bound: usize) -> bool {
    // Relaxed: a stale value only delays the stop; the reducers decide the result.
    let best = best.load(Ordering::Relaxed);
    match side {
        Side::First => best < bound,
        Side::Last => best > bound,
    }
}

impl<'p, T, P> Consumer<T> for FindInOrderConsumer<'p, P>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
{
    type Folder = FindInOrderFolder<'p, P, T>;
    type Reducer = FindInOrderReducer;
    type Result = Option<T>;

    fn split_at(self, _index: usize) -> (Self, Self, FindInOrderReducer) {
        let left = self.split_off_left();
        let reducer = FindInOrderReducer(self.side);
        (left, self, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FindInOrderFolder {
            predicate: self.predicate,
            side: self.side,
            bound: self.bound(),
            best: self.best,
            item: None,
            polls: Poll::new(),
        }
    }

    fn full(&self) -> bool {
        beaten(self.side, self.best, self.bound())
    }
}

impl<T, P> UnindexedConsumer<T> for FindInOrderConsumer<'_, P>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
{
    fn split_off_left(&self) -> Self {
        let lower = self.lower.get();
        let mid = lower + (self.upper - lower) / 2;
        self.lower.set(mid);
        FindInOrderConsumer {
            predicate: self.predicate,
            side: self.side,
            lower: Cell::new(lower),
            upper: mid,
            best: self.best,
        }
    }

    fn to_reducer(&self) -> FindInOrderReducer {
        FindInOrderReducer(self.side)
    }
}

/// Keeps the left piece's match for `find_first`, the right piece's for `find_last`.
struct FindInOrderReducer(Side);

impl<T> Reducer<Option<T>> for FindInOrderReducer {
    fn reduce(self, left: Option<T>, right: Option<T>) -> Option<T> {
        match self.0 {
            Side::First => left.or(right),
            Side::Last => right.or(left),
        }
    }
}

struct FindInOrderFolder<'p, P, T> {
    predicate: &'p P,
    side: Side,
    bound: usize,
    best: &'p AtomicUsize,
    item: Option<T>,
    polls: Poll,
}

impl<T, P> Folder<T> for FindInOrderFolder<'_, P, T>
where
    P: Fn(&T) -> bool,
{
    type Result = Option<T>;

    fn consume(mut self, item: T) -> Self {
        match self.side {
            // Callers may feed one item past `full()`, so the first match is kept.
            Side::First if self.item.is_some() => {}
            Side::First => {
                if (self.predicate)(&item) {
                    self.best.fetch_min(self.bound, Ordering::Relaxed);
                    self.item = Some(item);
                }
            }
            Side::Last => {
                if (self.predicate)(&item) {
                    if self.item.is_none() {
                        self.best.fetch_max(self.bound, Ordering::Relaxed);
                    }
                    // A later match in the same piece replaces an earlier one.
                    self.item = Some(item);
                }
            }
        }
        self
    }

    /// The piece as one `Iterator::find` (`find_first`) or one scan keeping the last match
    /// (`find_last`), stopping once another piece has beaten this one. Where thieves poll
    /// (`lcws-poll`) it serves them every [`CHUNK`] items
    /// ([`serve_thieves`](crate::serve_thieves)): a `find_last` over a range too long to
    /// walk ends only because other workers keep stealing and splitting the pieces after
    /// this one.
    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        if self.side == Side::First && self.item.is_some() {
            return self;
        }
        let (predicate, side, best, bound) = (self.predicate, self.side, self.best, self.bound);
        let iter = iter.into_iter();
        let unbeaten = |_: &T| !beaten(side, best, bound);
        if crate::serve_thieves_needed() {
            self.scan(
                iter.take_while(serving_thieves(unbeaten))
                    .filter(|x| predicate(x)),
            )
        } else {
            self.scan(iter.take_while(unbeaten).filter(|x| predicate(x)))
        }
    }

    fn complete(self) -> Option<T> {
        self.item
    }

    fn full(&self) -> bool {
        self.polls.tick();
        (self.side == Side::First && self.item.is_some())
            || beaten(self.side, self.best, self.bound)
    }
}

impl<T, P> FindInOrderFolder<'_, P, T> {
    /// Takes the piece's matches, `matches`, as `find_first` or `find_last` wants them.
    fn scan(mut self, mut matches: impl Iterator<Item = T>) -> Self {
        let (side, best, bound) = (self.side, self.best, self.bound);
        match side {
            Side::First => {
                if let Some(found) = matches.next() {
                    best.fetch_min(bound, Ordering::Relaxed);
                    self.item = Some(found);
                }
            }
            // The first match is published at once (not at the end of the scan): the
            // pieces before this one stop as soon as it exists.
            Side::Last => {
                for found in matches {
                    if self.item.is_none() {
                        best.fetch_max(bound, Ordering::Relaxed);
                    }
                    self.item = Some(found);
                }
            }
        }
        self
    }
}

// ---- position_* ----

/// Wraps a consumer of positions: passes on the index of every item `predicate` accepts.
/// Only for indexed runs, where `split_at` is given true positions.
struct PositionConsumer<'p, C, P> {
    base: C,
    /// The position of this piece's first item.
    offset: usize,
    predicate: &'p P,
}

impl<'p, T, C, P> Consumer<T> for PositionConsumer<'p, C, P>
where
    C: Consumer<usize>,
    P: Fn(T) -> bool + Sync,
{
    type Folder = PositionFolder<'p, C::Folder, P>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        (
            PositionConsumer {
                base: left,
                offset: self.offset,
                predicate: self.predicate,
            },
            PositionConsumer {
                base: right,
                offset: self.offset + index,
                predicate: self.predicate,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        PositionFolder {
            base: self.base.into_folder(),
            next: self.offset,
            predicate: self.predicate,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

struct PositionFolder<'p, F, P> {
    base: F,
    /// The position of the next item.
    next: usize,
    predicate: &'p P,
}

impl<T, F, P> Folder<T> for PositionFolder<'_, F, P>
where
    F: Folder<usize>,
    P: Fn(T) -> bool,
{
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        let index = self.next;
        self.next += 1;
        if (self.predicate)(item) {
            self.base = self.base.consume(index);
        }
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

//! The machinery under the parallel iterators: producers that split by position,
//! consumers that split alongside them, and the bridge that runs the two over `join`.
//!
//! The traits have rayon's names and shapes (`Producer`, `Consumer`, `Folder`, `Reducer`,
//! `UnindexedProducer`, `UnindexedConsumer`, `ProducerCallback`), so an iterator written
//! against `rayon::iter::plumbing` ports by changing its `use` lines.
//!
//! # How a parallel iterator runs
//!
//! A *producer* is the data side: a slice, a range, or an adaptor over another producer.
//! An indexed producer ([`Producer`]) knows its length and splits at any index; an
//! unindexed one ([`UnindexedProducer`]) splits where it likes, or refuses. A *consumer* is
//! the result side: `sum`, `collect`, `for_each`. It splits along with the producer and
//! hands each piece a [`Folder`], which folds that piece's items sequentially; a
//! [`Reducer`] then combines the two halves' results, left before right, so order-sensitive
//! results (`collect`, `find_first`, `reduce` with a non-commutative operator) come out as
//! the sequential iterator would give them.
//!
//! # When to split: the adaptive splitter
//!
//! Each split is one [`join_context`]. The bridge first splits the input into about
//! `current_num_threads()` pieces (halving a budget at each level; on a worker of a
//! one-thread pool, one piece, where rayon makes two), and from then on splits
//! a piece again only when it was *stolen*: [`FnContext::migrated`](crate::FnContext::migrated) tells the second half
//! that another worker took it, which means that worker was idle and more pieces can be
//! used. This is rayon's adaptive splitter. It was kept, over splitting more eagerly, by
//! measuring (`splitsteal bench --mode iter`, splitsteal's default policy against rayon,
//! 2-core host, medians of 5, two interleaved runs of each variant):
//! - a starting budget of 4 × threads instead of 1 × (more pieces up front, as a fixed
//!   grain would give) made the nested iterators several times slower: `nested-sum`
//!   (`par_iter` over rows, each row a `par_iter().sum()`) went from 0.96–1.00 × rayon's
//!   time to 2.95–3.46 × at 1 thread, `flat-map` from 0.75–0.94 × to 2.43–2.85 ×, because
//!   every inner iterator multiplies the splits, while the flat programs did not get faster
//!   (geometric mean over all 15 programs 0.95–1.00 × rayon adaptive, 1.14 × eager);
//! - under the LCWS policies an unstolen split is already cheap and lazy (a private push,
//!   exposed only when a thief asks), so the adaptive splitter is the lazy splitter's outer
//!   loop: `migrated()` is the thief's request arriving, and a piece nobody asks for costs
//!   one join per level and no synchronization.
//!
//! # Nested iterators
//!
//! A bridge that starts *nested* begins with a budget of 1, not `current_num_threads()`:
//! it splits once, so its second half is stealable, and splits further only where a piece
//! is stolen (a stolen piece gets the fresh full budget, as above). A bridge is nested
//! when it starts inside a leaf piece of another bridge (`rows.par_iter().map(|r|
//! r.par_iter().sum())`: each row's iterator runs inside a piece of the rows' iterator;
//! a thread-local flag is set while a leaf folds), or on a worker whose own deque holds
//! pending tasks (`current_thread_has_pending_tasks()`: a bridge inside a `join` arm, whose
//! other arm waits there). The enclosing level already made pieces for every worker, and
//! its unrun pieces wait where idle workers can take them, so a full budget per inner
//! iterator only multiplied the joins: at 2 threads each inner `(0..10)` made 3 joins
//! instead of 1, and skynet (8 levels of `(0..10).into_par_iter().map(..).sum()`) made
//! 33.3 M tasks at 2 threads against 11.1 M at 1 (one split per bridge then; a one-thread
//! pool's bridges no longer split). On several threads the budget is never 0: an inner
//! iterator whose enclosing siblings are small (an outer iterator of two items, one a big
//! inner iterator, the other trivial) must still reach the other workers, and does, through
//! its stealable half (`tests/stealable.rs` checks it under every policy).
//!
//! The cost: a nested bridge leaves its unstolen first half whole, so under an unbalanced
//! outer iterator on many threads that half (up to half of the inner work) runs on one
//! worker, where the full budget left only `1 / (2 × threads)` there. At 2 threads (the
//! measured host) the two are the same.
//!
//! Measured (`splitsteal bench`, splitsteal's default policy then, `lcws-signal`, the splitter
//! before this rule against this one, interleaved rounds, medians of each mode's reps and
//! the median and min–max over rounds; a 2-core host shared with other builds, load average
//! 2 to 12, so wall times drift between rounds and the rayon cell of the same run is the
//! control; task counts are exact):
//! - tasks at 2 threads: skynet (10^8 leaves) 33.3 M → 11.1 M (11.1 M at 1 thread, both),
//!   nqueens (14) 9.89 M → 7.19 M, `nested-sum` 150,004 → 50,004, `flat-map` 731 k →
//!   263 k; programs without nested iterators unchanged (fib, matmul, the flat iterators);
//! - skynet at 2 threads, full size, load ≈ 2: 356, 355 ms → 210 ms (1 thread: 391 ms);
//!   at `--quick` size, 3 rounds: 3.59 [3.58–3.68] → 2.14 [2.12–2.23] ms, `nested-sum`
//!   2.37 [2.17–2.59] → 0.67 [0.65–0.70] ms, `flat-map` 6.53 [6.47–6.55] → 3.10
//!   [3.03–3.11] ms;
//! - splitsteal ÷ rayon in the same run, full size, 3 rounds at load 5–12: skynet 0.56
//!   [0.54–0.60] → 0.33 [0.32–0.35], `nested-sum` 1.21 [0.96–1.40] → 0.43 [0.41–0.70],
//!   `flat-map` 0.57 [0.53–0.61] → 0.23 [0.21–0.25]; nqueens 0.96 [0.83–0.98] → 0.99
//!   [0.97–1.00], fib, matmul and the other iterator programs within the spread; the
//!   `--quick` suite at 2 threads (join and scope programs, which never reach a bridge)
//!   within its noise;
//! - the cost: at 1 thread, where the splits are the same, the nested programs measured a
//!   few percent slower (skynet `--quick` 3.90 [3.87–3.94] → 4.08 [4.02–4.14] ms, 5
//!   rounds; full size 391 → 412–416 ms; `flat-map` 5.20 [5.15–5.29] → 5.64 [5.62–5.69]
//!   ms), a code-generation effect: one worker skips the check and the leaf mark
//!   (`mark_leaves`), and keeping them out of line (`#[inline(never)]`) was slower still.
//!
//! The leaf mark is what catches most nested bridges: the deque alone misses every inner
//! bridge started in the last piece a worker folds (its deque is empty by then), a quarter
//! of `nested-sum`'s rows at 2 threads (`tests/iter/rayon_additions.rs` counts the tasks).
//!
//! `with_min_len` / `with_max_len` bound the pieces of an indexed producer: a piece
//! shorter than twice the minimum is never split; the budget starts at least at
//! `len / max_len` (nested or not), so no piece is left longer than the maximum unsplit.

use std::cell::Cell;

use crate::{
    current_num_threads, current_thread_has_pending_tasks, current_thread_index, join_context,
};

/// An indexed data source: knows its length and can be split at any index.
pub trait Producer: Send + Sized {
    /// The items produced.
    type Item;
    /// The sequential iterator a piece becomes at a leaf.
    type IntoIter: Iterator<Item = Self::Item> + DoubleEndedIterator + ExactSizeIterator;

    /// This piece as a sequential iterator.
    fn into_iter(self) -> Self::IntoIter;

    /// The shortest piece worth running alone (set by `with_min_len`).
    fn min_len(&self) -> usize {
        1
    }

    /// The longest piece that may run alone (set by `with_max_len`).
    fn max_len(&self) -> usize {
        usize::MAX
    }

    /// Splits into `[0, index)` and `[index, len)`.
    fn split_at(self, index: usize) -> (Self, Self);

    /// Feeds this piece's items to `folder`, stopping early once it is full.
    //
    // `#[inline]`: a copy in every codegen unit that calls it, so that the bridge's leaf
    // can always take the fold loop in. Without it, whether the instance landed in the
    // bridge's unit depended on unrelated code: adding the sorts' parallel in-order check
    // moved the `sieve` program's enumerate/filter/map/collect loop out of line, 67.7 M ->
    // 164.5 M instructions, 2.1x rayon's time (callgrind, one thread, `--quick`).
    #[inline]
    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>,
    {
        folder.consume_iter(self.into_iter())
    }
}

/// A data source whose length is not known in advance (`filter`'s output, a bridged
/// sequential iterator): it splits where it can.
pub trait UnindexedProducer: Send + Sized {
    /// The items produced.
    type Item;

    /// Splits off a second piece, or returns `None` when this one cannot split further.
    fn split(self) -> (Self, Option<Self>);

    /// Feeds this piece's items to `folder`.
    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>;
}

/// The result side of an indexed run: splits at the same indices as the producer.
pub trait Consumer<Item>: Send + Sized {
    /// Folds one piece's items.
    type Folder: Folder<Item, Result = Self::Result>;
    /// Combines two adjacent pieces' results.
    type Reducer: Reducer<Self::Result>;
    /// The result.
    type Result: Send;

    /// Splits into consumers for `[0, index)` and `[index, ..)`, and the reducer that joins
    /// their results.
    fn split_at(self, index: usize) -> (Self, Self, Self::Reducer);

    /// The folder for a piece that is not split further.
    fn into_folder(self) -> Self::Folder;

    /// Whether no more items are wanted (a `find_any` that found one).
    fn full(&self) -> bool;
}

/// A consumer that can also be split without knowing where: the left part is split off and
/// `self` stays the right part.
pub trait UnindexedConsumer<Item>: Consumer<Item> {
    /// A consumer for items before all of `self`'s.
    fn split_off_left(&self) -> Self;

    /// The reducer for a `split_off_left` pair.
    fn to_reducer(&self) -> Self::Reducer;
}

/// Folds the items of one piece, sequentially.
pub trait Folder<Item>: Sized {
    /// What the piece folds to.
    type Result;

    /// Takes one item.
    fn consume(self, item: Item) -> Self;

    /// Takes items until the iterator ends or the folder is full.
    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = Item>,
    {
        for item in iter {
            self = self.consume(item);
            if self.full() {
                break;
            }
        }
        self
    }

    /// The piece's result.
    fn complete(self) -> Self::Result;

    /// Whether no more items are wanted.
    fn full(&self) -> bool;
}

/// How many items a folder that loops over its piece itself (the searches, `filter`)
/// takes between two looks at the rest of the world: whether it is full, and whether a
/// thief is waiting ([`serve_thieves`](crate::serve_thieves), which `lcws-poll` needs).
pub(crate) const CHUNK: usize = 1024;

/// Combines the results of two adjacent pieces, `left` before `right`.
pub trait Reducer<Result> {
    /// The combined result.
    fn reduce(self, left: Result, right: Result) -> Result;
}

/// A computation handed a producer of unknown type: how an indexed iterator lends its
/// producer to an adaptor (`zip` takes both sides' producers this way).
pub trait ProducerCallback<Item> {
    /// The computation's result.
    type Output;

    /// Runs the computation on `producer`.
    fn callback<P>(self, producer: P) -> Self::Output
    where
        P: Producer<Item = Item>;
}

/// Decides whether a piece splits again (see the module docs).
#[derive(Clone, Copy)]
struct Splitter {
    /// Splits left before pieces stop splitting unless stolen.
    budget: usize,
    /// Whether leaves mark the thread as inside a bridge (only with several workers: with
    /// one, the budget does not depend on the mark, and the mark would be pure cost).
    mark_leaves: bool,
}

impl Splitter {
    /// The budget of a bridge starting on the calling thread: the pool's size, or 1 for a
    /// nested bridge (see the module docs, "Nested iterators").
    ///
    /// On a worker of a one-thread pool the budget is 0: no split, since no other worker
    /// could take a half, and each split is a join, a second fold state and a reduce (a
    /// `fold` into a `HashMap` builds and merges one more map per split). Called from
    /// outside any pool, the budget stays 1, so that the first split's `join` moves the
    /// work into the pool (its closures run on the pool's thread, as rayon's do).
    ///
    /// Inline for a one-thread pool's answer (thread-local loads, no call: every bridge
    /// asks, an inner iterator's too); the nested test is a call.
    #[inline]
    fn new() -> Splitter {
        let threads = current_num_threads();
        if threads > 1 {
            Splitter::shared(threads)
        } else {
            Splitter {
                budget: usize::from(current_thread_index().is_none()),
                mark_leaves: false,
            }
        }
    }

    /// [`Splitter::new`] for a pool of `threads` > 1 workers.
    #[inline(never)]
    fn shared(threads: usize) -> Splitter {
        // Started inside a leaf piece of another bridge, or while the enclosing
        // computation's unrun halves wait in this worker's deque (where idle workers can
        // take them): the outer level already made pieces for the pool, so one split (a
        // stealable second half) is enough.
        let nested = IN_LEAF.with(Cell::get) || current_thread_has_pending_tasks() == Some(true);
        Splitter {
            budget: if nested { 1 } else { threads },
            mark_leaves: true,
        }
    }

    /// Runs a leaf piece's `fold`, with [`IN_LEAF`] set when leaves are marked.
    #[inline]
    fn fold_leaf<R>(&self, fold: impl FnOnce() -> R) -> R {
        if self.mark_leaves {
            in_leaf(fold)
        } else {
            fold()
        }
    }

    #[inline]
    fn try_split(&mut self, stolen: bool) -> bool {
        if stolen {
            // A thief was idle: give the stolen piece a fresh budget for the pool's size,
            // but keep halving it so repeated steals of ever smaller pieces run out.
            self.budget = Ord::max(current_num_threads(), self.budget / 2);
            true
        } else if self.budget > 0 {
            self.budget /= 2;
            true
        } else {
            false
        }
    }
}

thread_local! {
    /// Whether this thread is folding a leaf piece of a bridge: a bridge started now is
    /// nested in it.
    static IN_LEAF: Cell<bool> = const { Cell::new(false) };
}

/// Runs `fold` (a bridge's leaf piece) with [`IN_LEAF`] set, restoring it after, also on
/// unwinding.
fn in_leaf<R>(fold: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            IN_LEAF.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(IN_LEAF.with(|c| c.replace(true)));
    fold()
}

/// A [`Splitter`] that also respects an indexed producer's `min_len` and `max_len`.
#[derive(Clone, Copy)]
struct LengthSplitter {
    inner: Splitter,
    min: usize,
}

impl LengthSplitter {
    #[inline]
    fn new(min: usize, max: usize, len: usize) -> LengthSplitter {
        let mut inner = Splitter::new();
        // Enough budget that, halving at every level, no piece stays above `max`. (The
        // division only when `max` is below `len`: the default `usize::MAX` is not, and a
        // 64-bit division is tens of cycles on every bridge, an inner iterator's too.)
        if len >= max {
            inner.budget = Ord::max(inner.budget, len / Ord::max(max, 1));
        }
        LengthSplitter {
            inner,
            min: Ord::max(min, 1),
        }
    }

    #[inline]
    fn try_split(&mut self, len: usize, stolen: bool) -> bool {
        len / 2 >= self.min && self.inner.try_split(stolen)
    }
}

/// Runs an indexed producer of `len` items into a consumer, splitting both alike.
///
/// ```
/// use splitsteal::iter::plumbing::*;
/// use splitsteal::prelude::*;
///
/// // A consumer written against the plumbing: counts the items it is given.
/// struct Count;
/// struct CountFolder(usize);
/// struct Add;
/// impl Consumer<u8> for Count {
///     type Folder = CountFolder;
///     type Reducer = Add;
///     type Result = usize;
///     fn split_at(self, _: usize) -> (Self, Self, Add) { (Count, Count, Add) }
///     fn into_folder(self) -> CountFolder { CountFolder(0) }
///     fn full(&self) -> bool { false }
/// }
/// impl Folder<u8> for CountFolder {
///     type Result = usize;
///     fn consume(self, _: u8) -> Self { CountFolder(self.0 + 1) }
///     fn complete(self) -> usize { self.0 }
///     fn full(&self) -> bool { false }
/// }
/// impl Reducer<usize> for Add {
///     fn reduce(self, a: usize, b: usize) -> usize { a + b }
/// }
/// let v = vec![7u8; 1000];
/// assert_eq!(v.par_iter().map(|x| *x).drive(Count), 1000);
/// ```
pub fn bridge<I, C>(par_iter: I, consumer: C) -> C::Result
where
    I: crate::iter::IndexedParallelIterator,
    C: Consumer<I::Item>,
{
    let len = par_iter.len();
    struct Callback<C> {
        len: usize,
        consumer: C,
    }
    impl<C, Item> ProducerCallback<Item> for Callback<C>
    where
        C: Consumer<Item>,
    {
        type Output = C::Result;
        fn callback<P>(self, producer: P) -> C::Result
        where
            P: Producer<Item = Item>,
        {
            bridge_producer_consumer(self.len, producer, self.consumer)
        }
    }
    par_iter.with_producer(Callback { len, consumer })
}

/// Runs a producer of `len` items into a consumer (the core of every indexed run).
pub fn bridge_producer_consumer<P, C>(len: usize, producer: P, consumer: C) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    let splitter = LengthSplitter::new(producer.min_len(), producer.max_len(), len);
    bridge_indexed(len, false, splitter, producer, consumer)
}

fn bridge_indexed<P, C>(
    len: usize,
    stolen: bool,
    mut splitter: LengthSplitter,
    producer: P,
    consumer: C,
) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    if !splitter.try_split(len, stolen) {
        return splitter
            .inner
            .fold_leaf(|| producer.fold_with(consumer.into_folder()).complete());
    }
    let mid = len / 2;
    let (left_producer, right_producer) = producer.split_at(mid);
    let (left_consumer, right_consumer, reducer) = consumer.split_at(mid);
    let (left, right) = join_context(
        |ctx| bridge_indexed(mid, ctx.migrated(), splitter, left_producer, left_consumer),
        |ctx| {
            bridge_indexed(
                len - mid,
                ctx.migrated(),
                splitter,
                right_producer,
                right_consumer,
            )
        },
    );
    reducer.reduce(left, right)
}

/// Runs an unindexed producer into a consumer.
pub fn bridge_unindexed<P, C>(producer: P, consumer: C) -> C::Result
where
    P: UnindexedProducer,
    C: UnindexedConsumer<P::Item>,
{
    bridge_unindexed_with(Splitter::new(), false, producer, consumer)
}

fn bridge_unindexed_with<P, C>(
    mut splitter: Splitter,
    stolen: bool,
    producer: P,
    consumer: C,
) -> C::Result
where
    P: UnindexedProducer,
    C: UnindexedConsumer<P::Item>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    if !splitter.try_split(stolen) {
        return splitter.fold_leaf(|| producer.fold_with(consumer.into_folder()).complete());
    }
    match producer.split() {
        (left_producer, Some(right_producer)) => {
            let left_consumer = consumer.split_off_left();
            let reducer = consumer.to_reducer();
            let (left, right) = join_context(
                |ctx| bridge_unindexed_with(splitter, ctx.migrated(), left_producer, left_consumer),
                |ctx| bridge_unindexed_with(splitter, ctx.migrated(), right_producer, consumer),
            );
            reducer.reduce(left, right)
        }
        (producer, None) => {
            splitter.fold_leaf(|| producer.fold_with(consumer.into_folder()).complete())
        }
    }
}

//! Parallel iterators with rayon's names and signatures, on splitsteal's scheduler.
//!
//! ```
//! use splitsteal::prelude::*;
//!
//! let v: Vec<u64> = (0..1000).collect();
//! let sum_of_squares: u64 = v.par_iter().map(|x| x * x).sum();
//! assert_eq!(sum_of_squares, v.iter().map(|x| x * x).sum());
//! let evens: Vec<u64> = (0..1000u64).into_par_iter().filter(|x| x % 2 == 0).collect();
//! assert_eq!(evens.len(), 500);
//! ```
//!
//! Everything runs on the pool the caller is in (inside
//! [`ThreadPool::install`](crate::ThreadPool::install)), else on the global pool, under that
//! pool's [`Policy`](crate::Policy). How pieces are split is explained in [`plumbing`].
//!
//! The layout follows rayon's: sources beside the types they iterate (`slice`, `vec`,
//! [`range`], ...), one file per adaptor or family of adaptors, consumers in their own
//! files, and the traits here.

pub mod plumbing;

mod collect;
mod extend;
mod for_each;
mod map;
mod reduce;
mod sum;

pub mod range;
pub mod range_inclusive;
pub mod slice;
pub mod vec;

pub use map::Map;

mod chunks;
pub mod collections;
mod delegate;
mod once;
pub mod option;
mod par_bridge;
mod repeat;
pub mod result;
mod slice_ext;
mod slice_split;
pub mod string;
mod windows;
mod words;

pub use once::{empty, once, Empty, Once};
pub use par_bridge::{IterBridge, ParallelBridge};
pub use repeat::{repeat, repeat_n, repeatn, Repeat, RepeatN};

mod chain;
mod chunks_adaptor;
mod cloned;
mod enumerate;
mod inspect;
mod len;
mod map_with;
mod rev;
mod skip;
mod skip_take;
mod step_by;
mod take;
mod update;
mod zip;

pub use chain::Chain;
pub use chunks_adaptor::Chunks;
pub use cloned::{Cloned, Copied};
pub use enumerate::Enumerate;
pub use inspect::Inspect;
pub use len::{MaxLen, MinLen};
pub use map_with::{MapInit, MapWith};
pub use rev::Rev;
pub use skip::Skip;
pub use step_by::StepBy;
pub use take::Take;
pub use update::Update;
pub use zip::{Zip, ZipEq};

mod filter;
mod filter_map;
mod find;
mod flat_map;
mod fold;
mod for_each_ext;
mod min_max;
mod positions;
mod reduce_with;
mod try_fold;
mod try_reduce;
mod try_trait;
mod while_some;

pub use filter::Filter;
pub use filter_map::FilterMap;
pub use flat_map::{FlatMap, FlatMapIter, Flatten, FlattenIter};
pub use fold::{Fold, FoldWith};
pub use positions::Positions;
pub use try_fold::{TryFold, TryFoldWith};
use try_trait::Try;
pub use while_some::WhileSome;

mod blocks;
pub(crate) mod drain;
mod fold_chunks;
mod interleave;
mod intersperse;
mod panic_fuse;
mod take_any;

pub use blocks::{ExponentialBlocks, UniformBlocks};
pub use drain::{ParallelDrainFull, ParallelDrainRange};
pub use fold_chunks::{FoldChunks, FoldChunksWith};
pub use interleave::{Interleave, InterleaveShortest};
pub use intersperse::Intersperse;
pub use panic_fuse::PanicFuse;
pub use take_any::{SkipAny, SkipAnyWhile, TakeAny, TakeAnyWhile};

mod from_par_iter;
mod par_extend;
mod unzip;

/// The two-sided value of [`ParallelIterator::partition_map`] (the `either` crate's, as
/// rayon re-exports it).
pub use either::Either;

// rayon's sources and adaptors that rayon's own tests use: `split`, the tree walks,
// tuples zipped by `into_par_iter()`, `Either` as an iterator, `par_array_windows`.
mod array_windows;
mod multizip;
mod par_either;
mod splitter;
mod walk_tree;

pub use multizip::MultiZip;
pub use splitter::{split, Split};
pub use walk_tree::{
    walk_tree, walk_tree_postfix, walk_tree_prefix, WalkTree, WalkTreePostfix, WalkTreePrefix,
};

use plumbing::{Consumer, ProducerCallback, UnindexedConsumer};

/// A parallel iterator: a source of items that can be split across the pool's workers.
///
/// The adaptors and consumers are provided methods; an implementation supplies
/// [`drive_unindexed`](ParallelIterator::drive_unindexed) (and, if it knows its exact
/// length cheaply, [`opt_len`](ParallelIterator::opt_len)).
pub trait ParallelIterator: Sized + Send {
    /// The items produced.
    type Item: Send;

    /// Runs the iterator into `consumer` (the one required method).
    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>;

    /// The exact number of items, if known without running the iterator. `Some` promises
    /// that `drive_unindexed` splits the consumer only by position (as an indexed iterator
    /// does), which lets `collect` write in place.
    fn opt_len(&self) -> Option<usize> {
        None
    }

    /// Calls `op` on every item, in no particular order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// let total = AtomicUsize::new(0);
    /// (0..100usize).into_par_iter().for_each(|x| {
    ///     total.fetch_add(x, Ordering::Relaxed);
    /// });
    /// assert_eq!(total.into_inner(), 4950);
    /// ```
    fn for_each<OP>(self, op: OP)
    where
        OP: Fn(Self::Item) + Sync + Send,
    {
        for_each::for_each(self, &op)
    }

    /// Applies `map_op` to every item.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let doubled: Vec<i32> = [1, 2, 3].par_iter().map(|x| x * 2).collect();
    /// assert_eq!(doubled, [2, 4, 6]);
    /// ```
    fn map<F, R>(self, map_op: F) -> Map<Self, F>
    where
        F: Fn(Self::Item) -> R + Sync + Send,
        R: Send,
    {
        Map::new(self, map_op)
    }

    /// Combines all items with `op`, starting each piece from `identity()`. `op` must be
    /// associative, and `identity()` its neutral element, for the result to be the
    /// sequential fold's.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let product = (1..=10u64).into_par_iter().reduce(|| 1, |a, b| a * b);
    /// assert_eq!(product, 3_628_800);
    /// ```
    fn reduce<OP, ID>(self, identity: ID, op: OP) -> Self::Item
    where
        OP: Fn(Self::Item, Self::Item) -> Self::Item + Sync + Send,
        ID: Fn() -> Self::Item + Sync + Send,
    {
        reduce::reduce(self, identity, op)
    }

    /// Sums the items (as [`Iterator::sum`]; overflow panics in debug builds).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let s: u64 = (1..=100u64).into_par_iter().sum();
    /// assert_eq!(s, 5050);
    /// ```
    fn sum<S>(self) -> S
    where
        S: Send + std::iter::Sum<Self::Item> + std::iter::Sum<S>,
    {
        sum::sum(self)
    }

    /// Multiplies the items (as [`Iterator::product`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let p: u64 = (1..=10u64).into_par_iter().product();
    /// assert_eq!(p, 3_628_800);
    /// ```
    fn product<P>(self) -> P
    where
        P: Send + std::iter::Product<Self::Item> + std::iter::Product<P>,
    {
        sum::product(self)
    }

    /// The number of items.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert_eq!((0..1000).into_par_iter().filter(|x| x % 3 == 0).count(), 334);
    /// ```
    fn count(self) -> usize {
        sum::count(self)
    }

    /// Puts a clone of `element` between every two neighbouring items.
    ///
    /// An unindexed iterator's items are collected into a `Vec` first (only their
    /// positions say where the separators go); an indexed one's are not.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<i32> = [1, 2, 3].par_iter().copied().intersperse(0).collect();
    /// assert_eq!(v, [1, 0, 2, 0, 3]);
    /// ```
    fn intersperse(self, element: Self::Item) -> Intersperse<Self>
    where
        Self::Item: Clone,
    {
        Intersperse::new(self, element)
    }

    /// Stops the other pieces at their next item once any piece panics (the panic is
    /// still re-raised), instead of letting them run to the end first.
    ///
    /// ```should_panic
    /// use splitsteal::prelude::*;
    ///
    /// (0..1_000_000u32).into_par_iter().panic_fuse().for_each(|x| assert!(x != 10));
    /// ```
    fn panic_fuse(self) -> PanicFuse<Self> {
        PanicFuse::new(self)
    }

    /// Takes `n` items from anywhere in the iterator (whichever pieces get there first),
    /// or all if there are fewer; stops early once it has them.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let some: Vec<u32> = (0..100u32).into_par_iter().take_any(5).collect();
    /// assert_eq!(some.len(), 5);
    /// assert!(some.iter().all(|&x| x < 100));
    /// ```
    fn take_any(self, n: usize) -> TakeAny<Self> {
        TakeAny::new(self, n)
    }

    /// Skips `n` items from anywhere in the iterator and passes the rest.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let rest: Vec<u32> = (0..100u32).into_par_iter().skip_any(95).collect();
    /// assert_eq!(rest.len(), 5);
    /// ```
    fn skip_any(self, n: usize) -> SkipAny<Self> {
        SkipAny::new(self, n)
    }

    /// Passes items while `predicate` holds; once it fails for any item, no further item
    /// passes (items already being checked elsewhere at that moment may still pass).
    /// Unlike `take_while`, "further" is in time, not in order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u32> = (0..100u32).into_par_iter().take_any_while(|&x| x < 50).collect();
    /// assert!(v.iter().all(|&x| x < 50));
    /// ```
    fn take_any_while<P>(self, predicate: P) -> TakeAnyWhile<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        TakeAnyWhile::new(self, predicate)
    }

    /// Skips items while `predicate` holds; once it fails for any item, every later item
    /// (in time) passes, that one included.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u32> = (0..100u32).into_par_iter().skip_any_while(|&x| x < 50).collect();
    /// assert!(v.iter().all(|&x| x >= 50) || v.len() >= 50);
    /// assert!((50..100).all(|x| v.contains(&x)));
    /// ```
    fn skip_any_while<P>(self, predicate: P) -> SkipAnyWhile<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        SkipAnyWhile::new(self, predicate)
    }

    /// Collects the items, in order, into a list of `Vec`s, one per piece the run was
    /// split into (cheaper than `collect` into a `Vec` when the length is unknown and the
    /// pieces are used as they are).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let list = (0..100u32).into_par_iter().filter(|x| x % 3 == 0).collect_vec_list();
    /// let flat: Vec<u32> = list.into_iter().flatten().collect();
    /// assert_eq!(flat, (0..100).filter(|x| x % 3 == 0).collect::<Vec<_>>());
    /// ```
    fn collect_vec_list(self) -> std::collections::LinkedList<Vec<Self::Item>> {
        self.fold(Vec::new, |mut v, x| {
            v.push(x);
            v
        })
        .map(|v| std::collections::LinkedList::from([v]))
        .reduce(std::collections::LinkedList::new, |mut a, mut b| {
            a.append(&mut b);
            a
        })
    }

    /// Passes the `Some` items until a `None` is seen; items after the first `None` may
    /// or may not be passed (pieces stop at their next check), as in rayon.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u32> = (0..10u32).into_par_iter().map(Some).while_some().collect();
    /// assert_eq!(v.len(), 10);
    /// let cut: Vec<u32> = (0..1000u32)
    ///     .into_par_iter()
    ///     .map(|x| if x == 500 { None } else { Some(x) })
    ///     .while_some()
    ///     .collect();
    /// assert!(!cut.contains(&500) && cut.len() < 1000);
    /// ```
    fn while_some<T>(self) -> WhileSome<Self>
    where
        Self: ParallelIterator<Item = Option<T>>,
        T: Send,
    {
        WhileSome::new(self)
    }

    /// Collects the items, in order, into any [`FromParallelIterator`] collection.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<usize> = (0..5usize).into_par_iter().map(|x| x * x).collect();
    /// assert_eq!(v, [0, 1, 4, 9, 16]);
    /// ```
    fn collect<C>(self) -> C
    where
        C: FromParallelIterator<Self::Item>,
    {
        C::from_par_iter(self)
    }

    /// Applies `map_op` to every item with a mutable state: each piece the run splits into
    /// starts from its own clone of `init`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// // Each piece counts the items it has mapped so far, from its own clone of 0.
    /// let v: Vec<(u32, usize)> = (0..100u32)
    ///     .into_par_iter()
    ///     .map_with(0usize, |seen, x| {
    ///         *seen += 1;
    ///         (x * 2, *seen)
    ///     })
    ///     .collect();
    /// assert!(v.iter().map(|p| p.0).eq((0..100).map(|x| x * 2)));
    /// assert!(v.iter().all(|&(_, seen)| (1..=100).contains(&seen)));
    /// ```
    fn map_with<F, T, R>(self, init: T, map_op: F) -> MapWith<Self, T, F>
    where
        F: Fn(&mut T, Self::Item) -> R + Sync + Send,
        T: Send + Clone,
        R: Send,
    {
        MapWith::new(self, init, map_op)
    }

    /// Applies `map_op` to every item with a mutable state made by `init`, called once for
    /// each piece the run splits into (not once per item): for scratch buffers, random
    /// number generators, and other state too costly to make per item.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// // A scratch buffer per piece, reused for every item of that piece.
    /// let lens: Vec<usize> = (0..50u32)
    ///     .into_par_iter()
    ///     .map_init(String::new, |buf, x| {
    ///         buf.clear();
    ///         buf.push_str(&x.to_string());
    ///         buf.len()
    ///     })
    ///     .collect();
    /// assert_eq!(lens, (0..50u32).map(|x| x.to_string().len()).collect::<Vec<_>>());
    /// ```
    fn map_init<F, INIT, T, R>(self, init: INIT, map_op: F) -> MapInit<Self, INIT, F>
    where
        F: Fn(&mut T, Self::Item) -> R + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
        R: Send,
    {
        MapInit::new(self, init, map_op)
    }

    /// Clones every item out of its reference (as [`Iterator::cloned`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let words = vec![String::from("a"), String::from("bc")];
    /// let owned: Vec<String> = words.par_iter().cloned().collect();
    /// assert_eq!(owned, words);
    /// ```
    fn cloned<'a, T>(self) -> Cloned<Self>
    where
        T: 'a + Clone + Send,
        Self: ParallelIterator<Item = &'a T>,
    {
        Cloned::new(self)
    }

    /// Copies every item out of its reference (as [`Iterator::copied`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = [1u64, 2, 3];
    /// let total: u64 = v.par_iter().copied().sum();
    /// assert_eq!(total, 6);
    /// ```
    fn copied<'a, T>(self) -> Copied<Self>
    where
        T: 'a + Copy + Send,
        Self: ParallelIterator<Item = &'a T>,
    {
        Copied::new(self)
    }

    /// Calls `inspect_op` on a reference to every item as it passes, then passes it on
    /// (as [`Iterator::inspect`]; the calls happen in no particular order).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// let odd = AtomicUsize::new(0);
    /// let total: u32 = (0..10u32)
    ///     .into_par_iter()
    ///     .inspect(|x| {
    ///         if x % 2 == 1 {
    ///             odd.fetch_add(1, Ordering::Relaxed);
    ///         }
    ///     })
    ///     .sum();
    /// assert_eq!(total, 45);
    /// assert_eq!(odd.into_inner(), 5);
    /// ```
    fn inspect<OP>(self, inspect_op: OP) -> Inspect<Self, OP>
    where
        OP: Fn(&Self::Item) + Sync + Send,
    {
        Inspect::new(self, inspect_op)
    }

    /// Changes every item in place with `update_op`, then passes it on.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<Vec<u8>> = (0..4u8)
    ///     .into_par_iter()
    ///     .map(|x| vec![x])
    ///     .update(|v| v.push(9))
    ///     .collect();
    /// assert_eq!(v, [vec![0, 9], vec![1, 9], vec![2, 9], vec![3, 9]]);
    /// ```
    fn update<F>(self, update_op: F) -> Update<Self, F>
    where
        F: Fn(&mut Self::Item) + Sync + Send,
    {
        Update::new(self, update_op)
    }

    /// This iterator's items, then `chain`'s, in that order. Indexed when both are.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u32> = (0..3u32).into_par_iter().chain(vec![10, 11]).collect();
    /// assert_eq!(v, [0, 1, 2, 10, 11]);
    /// ```
    fn chain<C>(self, chain: C) -> Chain<Self, C::Iter>
    where
        C: IntoParallelIterator<Item = Self::Item>,
    {
        Chain::new(self, chain.into_par_iter())
    }

    /// Keeps the items for which `filter_op` returns `true`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let evens: Vec<i32> = (0..10).into_par_iter().filter(|x| x % 2 == 0).collect();
    /// assert_eq!(evens, [0, 2, 4, 6, 8]);
    /// ```
    fn filter<P>(self, filter_op: P) -> Filter<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        Filter::new(self, filter_op)
    }

    /// Applies `filter_op` to every item and keeps the values inside the `Some`s.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let halves: Vec<i32> = (0..10)
    ///     .into_par_iter()
    ///     .filter_map(|x| if x % 2 == 0 { Some(x / 2) } else { None })
    ///     .collect();
    /// assert_eq!(halves, [0, 1, 2, 3, 4]);
    /// ```
    fn filter_map<P, R>(self, filter_op: P) -> FilterMap<Self, P>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        FilterMap::new(self, filter_op)
    }

    /// Maps every item to a parallel iterator and runs those too, in parallel, yielding
    /// their items in order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let pairs: Vec<(u8, u8)> = (0..3u8)
    ///     .into_par_iter()
    ///     .flat_map(|a| (0..a).into_par_iter().map(move |b| (a, b)))
    ///     .collect();
    /// assert_eq!(pairs, [(1, 0), (2, 0), (2, 1)]);
    /// ```
    fn flat_map<F, PI>(self, map_op: F) -> FlatMap<Self, F>
    where
        F: Fn(Self::Item) -> PI + Sync + Send,
        PI: IntoParallelIterator,
    {
        FlatMap::new(self, map_op)
    }

    /// Maps every item to a sequential iterator, run inside the piece that produced the
    /// item; cheaper than [`flat_map`](ParallelIterator::flat_map) when each inner
    /// iterator is short.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u32> = (1..4u32).into_par_iter().flat_map_iter(|n| 0..n).collect();
    /// assert_eq!(v, [0, 0, 1, 0, 1, 2]);
    /// ```
    fn flat_map_iter<F, SI>(self, map_op: F) -> FlatMapIter<Self, F>
    where
        F: Fn(Self::Item) -> SI + Sync + Send,
        SI: IntoIterator,
        SI::Item: Send,
    {
        FlatMapIter::new(self, map_op)
    }

    /// Runs every item, itself a parallel iterator, yielding their items in order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let nested = vec![vec![1, 2], vec![], vec![3, 4]];
    /// let flat: Vec<i32> = nested.into_par_iter().flatten().collect();
    /// assert_eq!(flat, [1, 2, 3, 4]);
    /// ```
    fn flatten(self) -> Flatten<Self>
    where
        Self::Item: IntoParallelIterator,
    {
        Flatten::new(self)
    }

    /// Iterates every item, itself an `IntoIterator`, sequentially inside its piece.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let nested = vec![vec![1, 2], vec![], vec![3, 4]];
    /// let flat: Vec<i32> = nested.into_par_iter().flatten_iter().collect();
    /// assert_eq!(flat, [1, 2, 3, 4]);
    /// ```
    fn flatten_iter(self) -> FlattenIter<Self>
    where
        Self::Item: IntoIterator,
        <Self::Item as IntoIterator>::Item: Send,
    {
        FlattenIter::new(self)
    }

    /// Folds each piece's items into an accumulator started by `identity()`; the result is
    /// a parallel iterator of the accumulators, one per piece (how many depends on how the
    /// run split). Follow it with `reduce`, `sum`, ... to combine them.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u64> = (0..1000).collect();
    /// let sum: u64 = v.par_iter().fold(|| 0u64, |acc, x| acc + x).sum();
    /// assert_eq!(sum, 499_500);
    /// // Collecting words' lengths per piece, then joining the pieces, keeps the order.
    /// let lens = ["a", "bb", "ccc"]
    ///     .par_iter()
    ///     .fold(Vec::new, |mut acc, w| {
    ///         acc.push(w.len());
    ///         acc
    ///     })
    ///     .reduce(Vec::new, |mut a, mut b| {
    ///         a.append(&mut b);
    ///         a
    ///     });
    /// assert_eq!(lens, [1, 2, 3]);
    /// ```
    fn fold<T, ID, F>(self, identity: ID, fold_op: F) -> Fold<Self, ID, F>
    where
        F: Fn(T, Self::Item) -> T + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        T: Send,
    {
        Fold::new(self, identity, fold_op)
    }

    /// [`fold`](ParallelIterator::fold) with each piece starting from a clone of `init`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let total: u32 = (1..=10u32).into_par_iter().fold_with(0, |a, x| a + x).sum();
    /// assert_eq!(total, 55);
    /// ```
    fn fold_with<F, T>(self, init: T, fold_op: F) -> FoldWith<Self, T, F>
    where
        F: Fn(T, Self::Item) -> T + Sync + Send,
        T: Send + Clone,
    {
        FoldWith::new(self, init, fold_op)
    }

    /// [`fold`](ParallelIterator::fold) where `fold_op` returns an `Option`, `Result` or
    /// `ControlFlow`: a piece stops at its first `None` / `Err` / `Break` and yields it.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let sum: Option<u32> = (1..=100u32)
    ///     .into_par_iter()
    ///     .try_fold(|| 0u32, |a, x| a.checked_add(x))
    ///     .try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(sum, Some(5050));
    /// let overflow: Option<u8> = (1..=100u8)
    ///     .into_par_iter()
    ///     .try_fold(|| 0u8, |a, x| a.checked_add(x))
    ///     .try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(overflow, None);
    /// ```
    fn try_fold<T, R, ID, F>(self, identity: ID, fold_op: F) -> TryFold<Self, R, ID, F>
    where
        F: Fn(T, Self::Item) -> R + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        R: Try<Output = T> + Send,
    {
        TryFold::new(self, identity, fold_op)
    }

    /// [`try_fold`](ParallelIterator::try_fold) with each piece starting from a clone of
    /// `init`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let r: Result<u64, &str> = (1..=20u64)
    ///     .into_par_iter()
    ///     .try_fold_with(0u64, |a, x| Ok(a + x))
    ///     .try_reduce(|| 0, |a, b| Ok(a + b));
    /// assert_eq!(r, Ok(210));
    /// ```
    fn try_fold_with<F, T, R>(self, init: T, fold_op: F) -> TryFoldWith<Self, R, F>
    where
        F: Fn(T, Self::Item) -> R + Sync + Send,
        R: Try<Output = T> + Send,
        T: Clone + Send,
    {
        TryFoldWith::new(self, init, fold_op)
    }

    /// [`for_each`](ParallelIterator::for_each) with a value `op` can change: each piece
    /// gets its own clone of `init`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::sync::mpsc::channel;
    ///
    /// let (sender, receiver) = channel();
    /// (0..5).into_par_iter().for_each_with(sender, |s, x| s.send(x).unwrap());
    /// let mut got: Vec<i32> = receiver.iter().collect();
    /// got.sort();
    /// assert_eq!(got, [0, 1, 2, 3, 4]);
    /// ```
    fn for_each_with<OP, T>(self, init: T, op: OP)
    where
        OP: Fn(&mut T, Self::Item) + Sync + Send,
        T: Send + Clone,
    {
        for_each_ext::for_each_with(self, init, &op)
    }

    /// [`for_each`](ParallelIterator::for_each) with a value `op` can change: each piece
    /// makes its own with `init()` (far fewer calls than items).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// let sum = AtomicUsize::new(0);
    /// (0..1000usize).into_par_iter().for_each_init(Vec::new, |scratch, x| {
    ///     scratch.push(x); // a per-piece buffer, never shared
    ///     sum.fetch_add(x, Ordering::Relaxed);
    /// });
    /// assert_eq!(sum.into_inner(), 499_500);
    /// ```
    fn for_each_init<OP, INIT, T>(self, init: INIT, op: OP)
    where
        OP: Fn(&mut T, Self::Item) + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
    {
        for_each_ext::for_each_init(self, &init, &op)
    }

    /// Calls `op` on items until one returns `None` / `Err` / `Break`, then stops the run
    /// early and returns such a result (which one, when several fail, depends on timing);
    /// otherwise returns `Ok(())` (`Some(())`, `Continue(())`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let ok: Result<(), String> = (0..100).into_par_iter().try_for_each(|x| {
    ///     if x < 100 { Ok(()) } else { Err(format!("{x} too big")) }
    /// });
    /// assert_eq!(ok, Ok(()));
    /// let err: Result<(), String> = (0..100).into_par_iter().try_for_each(|x| {
    ///     if x != 42 { Ok(()) } else { Err(format!("{x} is bad")) }
    /// });
    /// assert_eq!(err, Err("42 is bad".to_string()));
    /// ```
    fn try_for_each<OP, R>(self, op: OP) -> R
    where
        OP: Fn(Self::Item) -> R + Sync + Send,
        R: Try<Output = ()> + Send,
    {
        for_each_ext::try_for_each(self, &op)
    }

    /// [`try_for_each`](ParallelIterator::try_for_each) with a value `op` can change, each
    /// piece getting its own clone of `init`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::sync::mpsc::channel;
    ///
    /// let (sender, receiver) = channel();
    /// let r = (0..5).into_par_iter().try_for_each_with(sender, |s, x| s.send(x));
    /// assert!(r.is_ok());
    /// let mut got: Vec<i32> = receiver.iter().collect();
    /// got.sort();
    /// assert_eq!(got, [0, 1, 2, 3, 4]);
    /// ```
    fn try_for_each_with<OP, T, R>(self, init: T, op: OP) -> R
    where
        OP: Fn(&mut T, Self::Item) -> R + Sync + Send,
        T: Send + Clone,
        R: Try<Output = ()> + Send,
    {
        for_each_ext::try_for_each_with(self, init, &op)
    }

    /// [`try_for_each`](ParallelIterator::try_for_each) with a value `op` can change, each
    /// piece making its own with `init()`.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let r: Option<()> = (0..1000u32).into_par_iter().try_for_each_init(
    ///     || 0u32,
    ///     |seen, x| {
    ///         *seen += 1;
    ///         if x < 1000 { Some(()) } else { None }
    ///     },
    /// );
    /// assert_eq!(r, Some(()));
    /// ```
    fn try_for_each_init<OP, INIT, T, R>(self, init: INIT, op: OP) -> R
    where
        OP: Fn(&mut T, Self::Item) -> R + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
        R: Try<Output = ()> + Send,
    {
        for_each_ext::try_for_each_init(self, &init, &op)
    }

    /// [`reduce`](ParallelIterator::reduce) over `Option` / `Result` / `ControlFlow`
    /// items: combines the outputs with `op` (which may itself fail), and stops the run
    /// early at a `None` / `Err` / `Break`, returning one such (which one, when several
    /// fail, depends on timing).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let sum = (1..=100u32).into_par_iter().map(Some).try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(sum, Some(5050));
    /// let err: Result<u32, &str> = (0..100u32)
    ///     .into_par_iter()
    ///     .map(|x| if x == 50 { Err("fifty") } else { Ok(x) })
    ///     .try_reduce(|| 0, |a, b| Ok(a + b));
    /// assert_eq!(err, Err("fifty"));
    /// ```
    fn try_reduce<T, OP, ID>(self, identity: ID, op: OP) -> Self::Item
    where
        OP: Fn(T, T) -> Self::Item + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        Self::Item: Try<Output = T>,
    {
        try_reduce::try_reduce(self, identity, op)
    }

    /// [`try_reduce`](ParallelIterator::try_reduce) without an identity: `None` for an
    /// empty iterator.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let max = [3u8, 9, 4].par_iter().map(|&x| Ok::<u8, ()>(x)).try_reduce_with(|a, b| Ok(a.max(b)));
    /// assert_eq!(max, Some(Ok(9)));
    /// let none = Vec::<Option<u8>>::new().into_par_iter().try_reduce_with(|a, b| a.checked_add(b));
    /// assert_eq!(none, None);
    /// ```
    fn try_reduce_with<T, OP>(self, op: OP) -> Option<Self::Item>
    where
        OP: Fn(T, T) -> Self::Item + Sync + Send,
        Self::Item: Try<Output = T>,
    {
        try_reduce::try_reduce_with(self, op)
    }

    /// Combines all items with `op` (associative, for the sequential result), or `None`
    /// for an empty iterator.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let product = (1..=6u32).into_par_iter().reduce_with(|a, b| a * b);
    /// assert_eq!(product, Some(720));
    /// assert_eq!((0..0u32).into_par_iter().reduce_with(|a, b| a + b), None);
    /// ```
    fn reduce_with<OP>(self, op: OP) -> Option<Self::Item>
    where
        OP: Fn(Self::Item, Self::Item) -> Self::Item + Sync + Send,
    {
        reduce_with::reduce_with(self, op)
    }

    /// Some item that `predicate` accepts, not necessarily the first; the run stops as soon
    /// as one is found.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = [1, 8, 3, 8, 5];
    /// assert_eq!(v.par_iter().find_any(|&&x| x == 8), Some(&8));
    /// assert_eq!(v.par_iter().find_any(|&&x| x == 100), None);
    /// ```
    fn find_any<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        find::find_any(self, &predicate)
    }

    /// The sequentially first item that `predicate` accepts; pieces after a found match
    /// stop early.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = [(1, 'a'), (8, 'b'), (3, 'c'), (8, 'd')];
    /// assert_eq!(v.par_iter().find_first(|p| p.0 == 8), Some(&(8, 'b')));
    /// ```
    fn find_first<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        find::find_first(self, &predicate)
    }

    /// The sequentially last item that `predicate` accepts; pieces before a found match
    /// stop early.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = [(1, 'a'), (8, 'b'), (3, 'c'), (8, 'd')];
    /// assert_eq!(v.par_iter().find_last(|p| p.0 == 8), Some(&(8, 'd')));
    /// ```
    fn find_last<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        find::find_last(self, &predicate)
    }

    /// Some non-`None` result of `predicate`, not necessarily the first; stops early.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = ["x", "12", "y"];
    /// assert_eq!(v.par_iter().find_map_any(|s| s.parse::<u32>().ok()), Some(12));
    /// ```
    fn find_map_any<P, R>(self, predicate: P) -> Option<R>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.filter_map(predicate).find_any(|_| true)
    }

    /// The sequentially first non-`None` result of `predicate`; stops early.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = ["x", "12", "y", "34"];
    /// assert_eq!(v.par_iter().find_map_first(|s| s.parse::<u32>().ok()), Some(12));
    /// ```
    fn find_map_first<P, R>(self, predicate: P) -> Option<R>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.filter_map(predicate).find_first(|_| true)
    }

    /// The sequentially last non-`None` result of `predicate`; stops early.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = ["x", "12", "y", "34"];
    /// assert_eq!(v.par_iter().find_map_last(|s| s.parse::<u32>().ok()), Some(34));
    /// ```
    fn find_map_last<P, R>(self, predicate: P) -> Option<R>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.filter_map(predicate).find_last(|_| true)
    }

    /// Whether `predicate` accepts some item; stops at the first one found.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert!((0..1000).into_par_iter().any(|x| x == 999));
    /// assert!(!(0..1000).into_par_iter().any(|x| x > 1000));
    /// ```
    fn any<P>(self, predicate: P) -> bool
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate).find_any(|&accepted| accepted).is_some()
    }

    /// Whether `predicate` accepts every item; stops at the first one it rejects.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert!((0..1000).into_par_iter().all(|x| x < 1000));
    /// assert!(!(0..1000).into_par_iter().all(|x| x != 500));
    /// ```
    fn all<P>(self, predicate: P) -> bool
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate)
            .find_any(|&accepted| !accepted)
            .is_none()
    }

    /// The smallest item, or `None` if there are none; of equal smallest, the first (as
    /// [`Iterator::min`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert_eq!([4, -2, 7].par_iter().min(), Some(&-2));
    /// assert_eq!(Vec::<i32>::new().par_iter().min(), None);
    /// ```
    fn min(self) -> Option<Self::Item>
    where
        Self::Item: Ord,
    {
        min_max::min_by(self, Ord::cmp)
    }

    /// The smallest item by `f`; of equal smallest, the first (as [`Iterator::min_by`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = [(2, 'a'), (1, 'b'), (1, 'c')];
    /// assert_eq!(v.par_iter().min_by(|x, y| x.0.cmp(&y.0)), Some(&(1, 'b')));
    /// ```
    fn min_by<F>(self, f: F) -> Option<Self::Item>
    where
        F: Sync + Send + Fn(&Self::Item, &Self::Item) -> std::cmp::Ordering,
    {
        min_max::min_by(self, f)
    }

    /// The item with the smallest key `f(item)`; of equal keys, the first (as
    /// [`Iterator::min_by_key`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = ["ccc", "a", "b", "dd"];
    /// assert_eq!(v.par_iter().min_by_key(|s| s.len()), Some(&"a"));
    /// ```
    fn min_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Sync + Send + Fn(&Self::Item) -> K,
    {
        min_max::min_by_key(self, f)
    }

    /// The largest item, or `None` if there are none; of equal largest, the last (as
    /// [`Iterator::max`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert_eq!([4, -2, 7].par_iter().max(), Some(&7));
    /// assert_eq!(Vec::<i32>::new().par_iter().max(), None);
    /// ```
    fn max(self) -> Option<Self::Item>
    where
        Self::Item: Ord,
    {
        min_max::max_by(self, Ord::cmp)
    }

    /// The largest item by `f`; of equal largest, the last (as [`Iterator::max_by`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = [(2, 'a'), (2, 'b'), (1, 'c')];
    /// assert_eq!(v.par_iter().max_by(|x, y| x.0.cmp(&y.0)), Some(&(2, 'b')));
    /// ```
    fn max_by<F>(self, f: F) -> Option<Self::Item>
    where
        F: Sync + Send + Fn(&Self::Item, &Self::Item) -> std::cmp::Ordering,
    {
        min_max::max_by(self, f)
    }

    /// The item with the largest key `f(item)`; of equal keys, the last (as
    /// [`Iterator::max_by_key`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = ["ccc", "a", "eee", "dd"];
    /// assert_eq!(v.par_iter().max_by_key(|s| s.len()), Some(&"eee"));
    /// ```
    fn max_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Sync + Send + Fn(&Self::Item) -> K,
    {
        min_max::max_by_key(self, f)
    }

    /// Splits an iterator of pairs into two collections, from one run: the first halves,
    /// in order, into `FromA`, the second halves into `FromB`.
    ///
    /// Into `Vec`s from an iterator of known length, both sides are written in place.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let (nums, squares): (Vec<u32>, Vec<u32>) =
    ///     (0..5u32).into_par_iter().map(|i| (i, i * i)).unzip();
    /// assert_eq!(nums, [0, 1, 2, 3, 4]);
    /// assert_eq!(squares, [0, 1, 4, 9, 16]);
    /// ```
    fn unzip<A, B, FromA, FromB>(self) -> (FromA, FromB)
    where
        Self: ParallelIterator<Item = (A, B)>,
        FromA: Default + Send + ParallelExtend<A>,
        FromB: Default + Send + ParallelExtend<B>,
        A: Send,
        B: Send,
    {
        unzip::execute(self, unzip::Unzip)
    }

    /// Splits the items into two collections, from one run: those where `predicate` holds
    /// into `A`, the others into `B`, each in order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let (small, big): (Vec<u32>, Vec<u32>) = (0..10u32).into_par_iter().partition(|&x| x < 3);
    /// assert_eq!(small, [0, 1, 2]);
    /// assert_eq!(big, [3, 4, 5, 6, 7, 8, 9]);
    /// ```
    fn partition<A, B, P>(self, predicate: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<Self::Item>,
        B: Default + Send + ParallelExtend<Self::Item>,
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        unzip::execute(self, unzip::Partition(predicate))
    }

    /// Maps each item to [`Either`] and collects the `Left` values into `A` and the
    /// `Right` values into `B`, each in order, from one run.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use splitsteal::iter::Either;
    /// use std::collections::HashSet;
    ///
    /// let (words, lens): (Vec<String>, HashSet<usize>) = vec!["a", "", "bc", ""]
    ///     .into_par_iter()
    ///     .partition_map(|s| if s.is_empty() { Either::Right(0) } else { Either::Left(s.to_string()) });
    /// assert_eq!(words, ["a", "bc"]);
    /// assert_eq!(lens, HashSet::from([0]));
    /// ```
    fn partition_map<A, B, P, L, R>(self, predicate: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<L>,
        B: Default + Send + ParallelExtend<R>,
        P: Fn(Self::Item) -> Either<L, R> + Sync + Send,
        L: Send,
        R: Send,
    {
        unzip::execute(self, unzip::PartitionMap(predicate))
    }
}

/// A parallel iterator that knows its length and can be split at any position: slices,
/// ranges, `Vec`s, and the adaptors that keep positions (`map`, `zip`, `enumerate`, ...).
#[allow(clippy::len_without_is_empty)] // rayon's trait has no `is_empty` either
pub trait IndexedParallelIterator: ParallelIterator {
    /// The exact number of items.
    fn len(&self) -> usize;

    /// Runs the iterator into an indexed `consumer`.
    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<Self::Item>;

    /// Hands this iterator's producer to `callback` (how adaptors such as `zip` reach the
    /// producers of the iterators they combine).
    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>;

    /// Collects the items into `target`, replacing its contents, writing each item in place.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let mut v = vec![9; 3];
    /// (0..5).into_par_iter().map(|x| x + 1).collect_into_vec(&mut v);
    /// assert_eq!(v, [1, 2, 3, 4, 5]);
    /// ```
    fn collect_into_vec(self, target: &mut Vec<Self::Item>) {
        collect::collect_into_vec(self, target)
    }

    /// Pairs every item with its index (as [`Iterator::enumerate`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<(usize, char)> = ['a', 'b', 'c'].par_iter().copied().enumerate().collect();
    /// assert_eq!(v, [(0, 'a'), (1, 'b'), (2, 'c')]);
    /// ```
    fn enumerate(self) -> Enumerate<Self> {
        Enumerate::new(self)
    }

    /// Walks this iterator and `zip_op`'s in step, as long as the shorter one (as
    /// [`Iterator::zip`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let a = [1, 2, 3];
    /// let b = vec![10, 20];
    /// let sums: Vec<i32> = a.par_iter().zip(&b).map(|(x, y)| x + y).collect();
    /// assert_eq!(sums, [11, 22]);
    /// ```
    fn zip<Z>(self, zip_op: Z) -> Zip<Self, Z::Iter>
    where
        Z: IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        Zip::new(self, zip_op.into_par_iter())
    }

    /// Like [`zip`](IndexedParallelIterator::zip), for iterators that must have the same
    /// length.
    ///
    /// # Panics
    /// At once, if the lengths differ.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let dot: i32 = [1, 2, 3].par_iter().zip_eq(&[4, 5, 6]).map(|(x, y)| x * y).sum();
    /// assert_eq!(dot, 32);
    /// let uneven = std::panic::catch_unwind(|| [1, 2].par_iter().zip_eq(&[1]).count());
    /// assert!(uneven.is_err());
    /// ```
    fn zip_eq<Z>(self, zip_op: Z) -> ZipEq<Self, Z::Iter>
    where
        Z: IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        let zip_op = zip_op.into_par_iter();
        let (len, other) = (self.len(), zip_op.len());
        assert!(
            len == other,
            "zip_eq: iterators must have the same length ({len} and {other})"
        );
        ZipEq::new(self, zip_op)
    }

    /// The items in reverse order (as [`Iterator::rev`]).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u8> = (0..5u8).into_par_iter().rev().collect();
    /// assert_eq!(v, [4, 3, 2, 1, 0]);
    /// ```
    fn rev(self) -> Rev<Self> {
        Rev::new(self)
    }

    /// All but the first `n` items (none if there are fewer), as [`Iterator::skip`].
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u32> = (0..10u32).into_par_iter().skip(7).collect();
    /// assert_eq!(v, [7, 8, 9]);
    /// assert_eq!((0..10u32).into_par_iter().skip(99).count(), 0);
    /// ```
    fn skip(self, n: usize) -> Skip<Self> {
        Skip::new(self, n)
    }

    /// The first `n` items (all if there are fewer), as [`Iterator::take`].
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u32> = (0..10u32).into_par_iter().take(3).collect();
    /// assert_eq!(v, [0, 1, 2]);
    /// assert_eq!((0..10u32).into_par_iter().take(99).count(), 10);
    /// ```
    fn take(self, n: usize) -> Take<Self> {
        Take::new(self, n)
    }

    /// Every `step`-th item, starting with the first (as [`Iterator::step_by`]).
    ///
    /// # Panics
    /// If `step` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u32> = (0..10u32).into_par_iter().step_by(4).collect();
    /// assert_eq!(v, [0, 4, 8]);
    /// ```
    fn step_by(self, step: usize) -> StepBy<Self> {
        StepBy::new(self, step)
    }

    /// The items gathered into `Vec`s of `chunk_size` consecutive items; the last may be
    /// shorter.
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<Vec<u32>> = (0..7u32).into_par_iter().chunks(3).collect();
    /// assert_eq!(v, [vec![0, 1, 2], vec![3, 4, 5], vec![6]]);
    /// ```
    fn chunks(self, chunk_size: usize) -> Chunks<Self> {
        Chunks::new(self, chunk_size)
    }

    /// Never splits the run into pieces shorter than `min` items (a piece shorter than
    /// `2 * min` runs whole): for items so cheap that a split costs more than it gains.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// // 1000 items with a minimum of 1000 run as one piece: one init call.
    /// let inits = std::sync::atomic::AtomicUsize::new(0);
    /// let total: u64 = (0..1000u64)
    ///     .into_par_iter()
    ///     .with_min_len(1000)
    ///     .map_init(|| inits.fetch_add(1, std::sync::atomic::Ordering::Relaxed), |_, x| x)
    ///     .sum();
    /// assert_eq!(total, 499_500);
    /// assert_eq!(inits.into_inner(), 1);
    /// ```
    fn with_min_len(self, min: usize) -> MinLen<Self> {
        MinLen::new(self, min)
    }

    /// Splits the run until no piece is longer than `max` items: for items so costly that
    /// even a few make a piece worth running on its own.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// // 100 items with a maximum of 10 run as at least 10 pieces: one init call each.
    /// let inits = std::sync::atomic::AtomicUsize::new(0);
    /// let total: u64 = (0..100u64)
    ///     .into_par_iter()
    ///     .with_max_len(10)
    ///     .map_init(|| inits.fetch_add(1, std::sync::atomic::Ordering::Relaxed), |_, x| x)
    ///     .sum();
    /// assert_eq!(total, 4950);
    /// assert!(inits.into_inner() >= 10);
    /// ```
    fn with_max_len(self, max: usize) -> MaxLen<Self> {
        MaxLen::new(self, max)
    }

    /// The position of some item that `predicate` accepts, not necessarily the first; the
    /// run stops as soon as one is found.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = [1, 8, 3, 8, 5];
    /// let i = v.par_iter().position_any(|&x| x == 8).unwrap();
    /// assert!(i == 1 || i == 3);
    /// assert_eq!(v.par_iter().position_any(|&x| x == 100), None);
    /// ```
    fn position_any<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        find::position_any(self, &predicate)
    }

    /// The position of the first item that `predicate` accepts; pieces after a found match
    /// stop early.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = [1, 8, 3, 8, 5];
    /// assert_eq!(v.par_iter().position_first(|&x| x == 8), Some(1));
    /// ```
    fn position_first<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        find::position_first(self, &predicate)
    }

    /// The position of the last item that `predicate` accepts; pieces before a found match
    /// stop early.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = [1, 8, 3, 8, 5];
    /// assert_eq!(v.par_iter().position_last(|&x| x == 8), Some(3));
    /// ```
    fn position_last<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        find::position_last(self, &predicate)
    }

    /// This iterator's and `other`'s items alternately (`a0, b0, a1, b1, ...`), then the
    /// rest of the longer one.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<i32> = vec![1, 2, 3, 4].into_par_iter().interleave(vec![5, 6]).collect();
    /// assert_eq!(v, [1, 5, 2, 6, 3, 4]);
    /// ```
    fn interleave<I>(self, other: I) -> Interleave<Self, I::Iter>
    where
        I: IntoParallelIterator<Item = Self::Item>,
        I::Iter: IndexedParallelIterator<Item = Self::Item>,
    {
        Interleave::new(self, other.into_par_iter())
    }

    /// As [`interleave`](IndexedParallelIterator::interleave), but stopping once the side
    /// whose turn it is has no items left.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<i32> = vec![1, 2, 3, 4].into_par_iter().interleave_shortest(vec![5, 6]).collect();
    /// assert_eq!(v, [1, 5, 2, 6, 3]);
    /// ```
    fn interleave_shortest<I>(self, other: I) -> InterleaveShortest<Self, I::Iter>
    where
        I: IntoParallelIterator<Item = Self::Item>,
        I::Iter: IndexedParallelIterator<Item = Self::Item>,
    {
        InterleaveShortest::new(self, other.into_par_iter())
    }

    /// Folds each run of `chunk_size` items (the last may be shorter), in order, starting
    /// from `identity()`: one value per chunk.
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let sums: Vec<i32> = (1..=7).into_par_iter().fold_chunks(3, || 0, |a, x| a + x).collect();
    /// assert_eq!(sums, [6, 15, 7]);
    /// ```
    #[track_caller]
    fn fold_chunks<T, ID, F>(
        self,
        chunk_size: usize,
        identity: ID,
        fold_op: F,
    ) -> FoldChunks<Self, ID, F>
    where
        ID: Fn() -> T + Send + Sync,
        F: Fn(T, Self::Item) -> T + Send + Sync,
        T: Send,
    {
        FoldChunks::new(self, chunk_size, identity, fold_op)
    }

    /// As [`fold_chunks`](IndexedParallelIterator::fold_chunks), starting each chunk from a
    /// clone of `init`.
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<String> = ['a', 'b', 'c'].into_par_iter()
    ///     .fold_chunks_with(2, String::from(">"), |mut s, c| { s.push(c); s })
    ///     .collect();
    /// assert_eq!(v, [">ab", ">c"]);
    /// ```
    #[track_caller]
    fn fold_chunks_with<T, F>(
        self,
        chunk_size: usize,
        init: T,
        fold_op: F,
    ) -> FoldChunksWith<Self, T, F>
    where
        T: Send + Clone,
        F: Fn(T, Self::Item) -> T + Send + Sync,
    {
        FoldChunksWith::new(self, chunk_size, init, fold_op)
    }

    /// Runs the items as a sequence of blocks, one after another, each block in parallel;
    /// the blocks start at one item per thread and double. A consumer that can stop early
    /// (`find_first`, `any`) stops after the block that settles it.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let first = (0..1_000_000u64).into_par_iter().by_exponential_blocks().find_first(|x| x % 7 == 6);
    /// assert_eq!(first, Some(6));
    /// ```
    fn by_exponential_blocks(self) -> ExponentialBlocks<Self> {
        ExponentialBlocks::new(self)
    }

    /// Runs the items as a sequence of blocks of `block_size` items (the last may be
    /// shorter), one after another, each block in parallel.
    ///
    /// # Panics
    /// If `block_size` is 0.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<u32> = (0..10u32).into_par_iter().by_uniform_blocks(3).collect();
    /// assert_eq!(v, (0..10).collect::<Vec<_>>());
    /// ```
    #[track_caller]
    fn by_uniform_blocks(self, block_size: usize) -> UniformBlocks<Self> {
        assert!(block_size != 0, "block_size must not be zero");
        UniformBlocks::new(self, block_size)
    }

    /// The positions of all items `predicate` accepts, in order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v = vec![3, 0, 7, 0, 0, 1];
    /// let zeros: Vec<usize> = v.par_iter().positions(|&x| x == 0).collect();
    /// assert_eq!(zeros, [1, 3, 4]);
    /// ```
    fn positions<P>(self, predicate: P) -> Positions<Self, P>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        Positions::new(self, predicate)
    }

    /// Collects the pairs into two `Vec`s, replacing their contents (in place when the
    /// length is known, as `unzip` into `Vec`s is).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let (mut a, mut b) = (vec![9], vec!['z']);
    /// (0..3).into_par_iter().map(|i| (i, (b'a' + i as u8) as char)).unzip_into_vecs(&mut a, &mut b);
    /// assert_eq!((a, b), (vec![0, 1, 2], vec!['a', 'b', 'c']));
    /// ```
    fn unzip_into_vecs<A, B>(self, left: &mut Vec<A>, right: &mut Vec<B>)
    where
        Self: IndexedParallelIterator<Item = (A, B)>,
        A: Send,
        B: Send,
    {
        left.clear();
        right.clear();
        let mut pair = (std::mem::take(left), std::mem::take(right));
        pair.par_extend(self);
        (*left, *right) = pair;
    }

    /// Compares lexicographically with another indexed iterator, as [`Iterator::cmp`]:
    /// the first unequal pair decides, else the shorter is less.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::cmp::Ordering;
    ///
    /// let a = vec![1, 2, 3];
    /// assert_eq!(a.par_iter().cmp(&vec![1, 2, 4]), Ordering::Less);
    /// assert_eq!(a.par_iter().cmp(&vec![1, 2]), Ordering::Greater);
    /// ```
    fn cmp<I>(self, other: I) -> std::cmp::Ordering
    where
        I: IntoParallelIterator<Item = Self::Item>,
        I::Iter: IndexedParallelIterator,
        Self::Item: Ord,
    {
        let other = other.into_par_iter();
        let by_length = self.len().cmp(&other.len());
        self.zip(other)
            .map(|(x, y)| Ord::cmp(&x, &y))
            .find_first(|&order| order != std::cmp::Ordering::Equal)
            .unwrap_or(by_length)
    }

    /// Compares lexicographically with another indexed iterator, as
    /// [`Iterator::partial_cmp`]; `None` if the first pair that is not equal is unordered.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::cmp::Ordering;
    ///
    /// let a = vec![1.0, 2.0];
    /// assert_eq!(a.par_iter().partial_cmp(&vec![1.0, 3.0]), Some(Ordering::Less));
    /// assert_eq!(a.par_iter().partial_cmp(&vec![f64::NAN, 0.0]), None);
    /// ```
    fn partial_cmp<I>(self, other: I) -> Option<std::cmp::Ordering>
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        let other = other.into_par_iter();
        let by_length = self.len().cmp(&other.len());
        self.zip(other)
            .map(|(x, y)| PartialOrd::partial_cmp(&x, &y))
            .find_first(|&order| order != Some(std::cmp::Ordering::Equal))
            .unwrap_or(Some(by_length))
    }

    /// Whether both iterators have the same length and equal items, as [`Iterator::eq`].
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert!((0..100).into_par_iter().eq(0..100));
    /// assert!(!(0..100).into_par_iter().eq(0..99));
    /// ```
    fn eq<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialEq<I::Item>,
    {
        let other = other.into_par_iter();
        self.len() == other.len() && self.zip(other).all(|(x, y)| x.eq(&y))
    }

    /// The negation of [`eq`](IndexedParallelIterator::eq).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert!([1, 2].par_iter().ne(&[1, 3]));
    /// ```
    fn ne<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialEq<I::Item>,
    {
        !self.eq(other)
    }

    /// Lexicographically less than `other`, as [`Iterator::lt`].
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert!([1, 2].par_iter().lt(&[1, 3]));
    /// assert!(![1, 2].par_iter().lt(&[1, 2]));
    /// ```
    fn lt<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        self.partial_cmp(other) == Some(std::cmp::Ordering::Less)
    }

    /// Lexicographically less than or equal to `other`, as [`Iterator::le`].
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert!([1, 2].par_iter().le(&[1, 2]));
    /// ```
    fn le<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        matches!(
            self.partial_cmp(other),
            Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
        )
    }

    /// Lexicographically greater than `other`, as [`Iterator::gt`].
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert!([1, 3].par_iter().gt(&[1, 2, 9]));
    /// ```
    fn gt<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        self.partial_cmp(other) == Some(std::cmp::Ordering::Greater)
    }

    /// Lexicographically greater than or equal to `other`, as [`Iterator::ge`].
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// assert!([1, 2].par_iter().ge(&[1, 2]));
    /// ```
    fn ge<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        matches!(
            self.partial_cmp(other),
            Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal)
        )
    }
}

/// Anything that can become a parallel iterator (`into_par_iter()`).
///
/// ```
/// use splitsteal::prelude::*;
///
/// let v = vec![1, 2, 3];
/// let total: i32 = v.into_par_iter().sum();
/// assert_eq!(total, 6);
/// ```
pub trait IntoParallelIterator {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items.
    type Item: Send;

    /// Converts `self` into a parallel iterator.
    fn into_par_iter(self) -> Self::Iter;
}

impl<T: ParallelIterator> IntoParallelIterator for T {
    type Iter = T;
    type Item = T::Item;

    fn into_par_iter(self) -> T {
        self
    }
}

/// `par_iter()`: a parallel iterator over references into a collection.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let v = vec![1, 2, 3];
/// let total: i32 = v.par_iter().sum();
/// assert_eq!(total, 6);
/// ```
pub trait IntoParallelRefIterator<'data> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (usually `&'data T`).
    type Item: Send + 'data;

    /// A parallel iterator over `&self`'s items.
    fn par_iter(&'data self) -> Self::Iter;
}

impl<'data, I: 'data + ?Sized> IntoParallelRefIterator<'data> for I
where
    &'data I: IntoParallelIterator,
{
    type Iter = <&'data I as IntoParallelIterator>::Iter;
    type Item = <&'data I as IntoParallelIterator>::Item;

    fn par_iter(&'data self) -> Self::Iter {
        self.into_par_iter()
    }
}

/// `par_iter_mut()`: a parallel iterator over mutable references into a collection.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut v = vec![1, 2, 3];
/// v.par_iter_mut().for_each(|x| *x *= 10);
/// assert_eq!(v, [10, 20, 30]);
/// ```
pub trait IntoParallelRefMutIterator<'data> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (usually `&'data mut T`).
    type Item: Send + 'data;

    /// A parallel iterator over `&mut self`'s items.
    fn par_iter_mut(&'data mut self) -> Self::Iter;
}

impl<'data, I: 'data + ?Sized> IntoParallelRefMutIterator<'data> for I
where
    &'data mut I: IntoParallelIterator,
{
    type Iter = <&'data mut I as IntoParallelIterator>::Iter;
    type Item = <&'data mut I as IntoParallelIterator>::Item;

    fn par_iter_mut(&'data mut self) -> Self::Iter {
        self.into_par_iter()
    }
}

/// A collection that can be built from a parallel iterator (the target of `collect`).
pub trait FromParallelIterator<T>
where
    T: Send,
{
    /// Builds the collection from `par_iter`'s items.
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>;
}

/// A collection that can be extended by a parallel iterator (`par_extend`).
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut v = vec![0];
/// v.par_extend((1..4).into_par_iter());
/// assert_eq!(v, [0, 1, 2, 3]);
/// ```
pub trait ParallelExtend<T>
where
    T: Send,
{
    /// Appends `par_iter`'s items, in order.
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>;
}

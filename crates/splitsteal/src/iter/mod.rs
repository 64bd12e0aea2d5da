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
//! The layout follows rayon's: sources beside the types they iterate ([`slice`], [`vec`],
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
pub mod slice;
pub mod vec;

pub use map::Map;

// ---- modules and re-exports (helper A: sources, slices, strings, par_bridge) ----


// ---- modules and re-exports (helper B: indexed adaptors) ----
mod chain;
mod chunks_adaptor;
mod cloned;
mod enumerate;
mod inspect;
mod len;
mod map_with;
mod rev;
mod skip;
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


// ---- modules and re-exports (helper C: unindexed adaptors, consumers) ----


// ---- modules and re-exports (helper D: collections, extend, unzip/partition) ----


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

    // ---- adaptors (helper B) ----

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

    // ---- adaptors (helper C) ----

    // ---- consumers (helper C) ----

    // ---- collections (helper D) ----
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

    // ---- indexed adaptors (helper B) ----

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

    // ---- indexed consumers (helper C) ----
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

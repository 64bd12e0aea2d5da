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


// ---- modules and re-exports (helper C: unindexed adaptors, consumers) ----


// ---- modules and re-exports (helper D: collections, extend, unzip/partition) ----
mod from_par_iter;
mod par_extend;
mod unzip;

/// The two-sided value of [`ParallelIterator::partition_map`] (the `either` crate's, as
/// rayon re-exports it).
pub use either::Either;


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

    // ---- adaptors (helper C) ----

    // ---- consumers (helper C) ----

    // ---- collections (helper D) ----

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

    // ---- indexed adaptors (helper B) ----

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

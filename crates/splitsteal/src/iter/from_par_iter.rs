//! `collect` into the standard collections other than `Vec` (in `extend.rs`), and into the
//! wrappers `Option<C>` and `Result<C, E>`.
//!
//! Most collections are their empty value `par_extend`ed (see `par_extend.rs`: pieces are
//! gathered in parallel and inserted in order); `BTreeMap` and `BTreeSet` are gathered
//! into one `Vec` and built by their sequential `FromIterator` (a sort and a bulk build).
//! Either way a collect gives what the sequential `collect` gives, down to which of two
//! equal keys is kept.
//!
//! ```
//! use splitsteal::prelude::*;
//! use std::collections::{BTreeSet, HashMap, VecDeque};
//!
//! let m: HashMap<u32, u32> = (0..100u32).into_par_iter().map(|i| (i % 10, i)).collect();
//! assert_eq!(m[&4], 94);
//! let s: BTreeSet<u32> = (0..100u32).into_par_iter().map(|i| i / 10).collect();
//! assert_eq!(s.len(), 10);
//! let d: VecDeque<u32> = (0..5u32).into_par_iter().collect();
//! assert_eq!(d, [0, 1, 2, 3, 4]);
//! let text: String = (0..3u8).into_par_iter().map(|i| char::from(b'a' + i)).collect();
//! assert_eq!(text, "abc");
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::ffi::{OsStr, OsString};
use std::hash::{BuildHasher, Hash};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::{FromParallelIterator, IntoParallelIterator, ParallelExtend, ParallelIterator};

/// The empty `C`, extended by `par_iter`.
fn extend_default<C, I>(mut collection: C, par_iter: I) -> C
where
    C: ParallelExtend<I::Item>,
    I: IntoParallelIterator,
{
    collection.par_extend(par_iter);
    collection
}

// ---- sequences ----

/// Collects the items, in order, into a deque (through a `Vec`, whose buffer it takes
/// over).
impl<T: Send> FromParallelIterator<T> for VecDeque<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

/// Collects the items into a heap; the heap order is built sequentially at the end.
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::BinaryHeap;
///
/// let heap: BinaryHeap<u32> = (0..100u32).into_par_iter().map(|i| i * 7 % 100).collect();
/// assert_eq!(heap.into_sorted_vec(), (0..100).collect::<Vec<_>>());
/// ```
impl<T: Ord + Send> FromParallelIterator<T> for BinaryHeap<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

/// Collects the items, in order, into a linked list.
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::LinkedList;
///
/// let list: LinkedList<u32> = (0..4u32).into_par_iter().collect();
/// assert!(list.into_iter().eq(0..4));
/// ```
impl<T: Send> FromParallelIterator<T> for LinkedList<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        extend_default(LinkedList::new(), par_iter)
    }
}

/// Collects the items, in order, into a boxed slice (through a `Vec`).
///
/// ```
/// use splitsteal::prelude::*;
///
/// let b: Box<[u32]> = (0..3u32).into_par_iter().collect();
/// assert_eq!(&*b, [0, 1, 2]);
/// ```
impl<T: Send> FromParallelIterator<T> for Box<[T]> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into_boxed_slice()
    }
}

/// Collects the items, in order, into a reference-counted slice (through a `Vec`).
impl<T: Send> FromParallelIterator<T> for Rc<[T]> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

/// Collects the items, in order, into an atomically reference-counted slice (through a
/// `Vec`).
///
/// ```
/// use splitsteal::prelude::*;
/// use std::sync::Arc;
///
/// let a: Arc<[u32]> = (0..3u32).into_par_iter().collect();
/// assert_eq!(&*a, [0, 1, 2]);
/// ```
impl<T: Send> FromParallelIterator<T> for Arc<[T]> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

// ---- maps and sets ----

/// Collects the pairs into a hash map; for a key given more than once, the last value
/// wins, as with a sequential `collect`.
impl<K, V, S> FromParallelIterator<(K, V)> for HashMap<K, V, S>
where
    K: Eq + Hash + Send,
    V: Send,
    S: BuildHasher + Default + Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = (K, V)>,
    {
        extend_default(HashMap::with_hasher(S::default()), par_iter)
    }
}

/// Collects the pairs into an ordered map; for a key given more than once, the last pair
/// wins (its value and, for keys equal but distinguishable, its key), as with a sequential
/// `collect`.
impl<K, V> FromParallelIterator<(K, V)> for BTreeMap<K, V>
where
    K: Ord + Send,
    V: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = (K, V)>,
    {
        // Built as the sequential `collect` builds it (sorted, then in bulk), which also
        // decides which of two equal keys is kept: the last, unlike `extend`.
        Vec::from_par_iter(par_iter).into_iter().collect()
    }
}

/// Collects the items into a hash set; of equal items, the first is kept, as with a
/// sequential `collect`.
impl<T, S> FromParallelIterator<T> for HashSet<T, S>
where
    T: Eq + Hash + Send,
    S: BuildHasher + Default + Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        extend_default(HashSet::with_hasher(S::default()), par_iter)
    }
}

/// Collects the items into an ordered set; of equal items, the last is kept, as with a
/// sequential `collect` (`BTreeSet`'s `FromIterator` sorts and builds in bulk; its
/// `extend`, like `par_extend`, keeps the first).
impl<T> FromParallelIterator<T> for BTreeSet<T>
where
    T: Ord + Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        // As for `BTreeMap`: the sequential `collect`'s bulk build, keeping the last of
        // equal items.
        Vec::from_par_iter(par_iter).into_iter().collect()
    }
}

// ---- strings ----

macro_rules! impl_collect_text {
    ($target:ty: $(impl[$($a:lifetime)?] $item:ty;)*) => {$(
        /// Concatenates the items' text, in order.
        impl<$($a)?> FromParallelIterator<$item> for $target {
            fn from_par_iter<I>(par_iter: I) -> Self
            where
                I: IntoParallelIterator<Item = $item>,
            {
                extend_default(<$target>::new(), par_iter)
            }
        }
    )*};
}

impl_collect_text! { String:
    impl[] char;
    impl['a] &'a char;
    impl['a] &'a str;
    impl[] String;
    impl[] Box<str>;
    impl['a] Cow<'a, str>;
}

impl_collect_text! { OsString:
    impl['a] &'a OsStr;
    impl[] OsString;
    impl['a] Cow<'a, OsStr>;
}

// ---- Cow and () ----

/// Collects into the owned form of `C` (a `Cow::Owned`).
///
/// ```
/// use splitsteal::prelude::*;
/// use std::borrow::Cow;
///
/// let c: Cow<'_, [u32]> = (0..3u32).into_par_iter().collect();
/// assert!(matches!(c, Cow::Owned(_)));
/// assert_eq!(&*c, [0, 1, 2]);
/// ```
impl<'a, C, T> FromParallelIterator<T> for Cow<'a, C>
where
    C: ToOwned + ?Sized,
    C::Owned: FromParallelIterator<T>,
    T: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Cow::Owned(C::Owned::from_par_iter(par_iter))
    }
}

/// Runs the iterator for its side effects (handy after a `map` returning `()`).
///
/// ```
/// use splitsteal::prelude::*;
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// let calls = AtomicUsize::new(0);
/// let () = (0..10).into_par_iter().map(|_| {
///     calls.fetch_add(1, Ordering::Relaxed);
/// }).collect();
/// assert_eq!(calls.into_inner(), 10);
/// ```
impl FromParallelIterator<()> for () {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = ()>,
    {
        par_iter.into_par_iter().for_each(drop)
    }
}

// ---- Option and Result: stop at the first failure ----

/// Collects `Some` values into `C`, or gives `None` if any item is `None`.
///
/// Once a `None` is seen, the run stops as soon as each piece notices (items not yet
/// produced are not produced), and what was collected is dropped.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let all: Option<Vec<u32>> = (0..100u32).into_par_iter().map(Some).collect();
/// assert_eq!(all.map(|v| v.len()), Some(100));
/// let gap: Option<Vec<u32>> =
///     (0..100u32).into_par_iter().map(|i| (i != 42).then_some(i)).collect();
/// assert_eq!(gap, None);
/// ```
impl<C, T> FromParallelIterator<Option<T>> for Option<C>
where
    C: FromParallelIterator<T>,
    T: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Option<T>>,
    {
        collect_until_failure(par_iter.into_par_iter().map(|item| item.ok_or(()))).ok()
    }
}

/// Collects `Ok` values into `C`, or gives an `Err` if any item is one.
///
/// Once an `Err` is seen, the run stops as soon as each piece notices (items not yet
/// produced are not produced), and what was collected is dropped. As in rayon, when
/// several items are errors, which of them is returned is not specified: it is the first
/// one any piece reached, not necessarily the first in order.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let parsed: Result<Vec<u32>, String> =
///     vec!["1", "2", "3"].par_iter().map(|s| s.parse().map_err(|_| s.to_string())).collect();
/// assert_eq!(parsed, Ok(vec![1, 2, 3]));
/// let bad: Result<Vec<u32>, String> =
///     vec!["1", "x", "3"].par_iter().map(|s| s.parse().map_err(|_| s.to_string())).collect();
/// assert_eq!(bad, Err("x".to_string()));
/// ```
impl<C, T, E> FromParallelIterator<Result<T, E>> for Result<C, E>
where
    C: FromParallelIterator<T>,
    T: Send,
    E: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Result<T, E>>,
    {
        collect_until_failure(par_iter.into_par_iter())
    }
}

/// Collects the `Ok` items into `C`, or returns the first `Err` any piece reaches.
fn collect_until_failure<C, I, T, E>(par_iter: I) -> Result<C, E>
where
    C: FromParallelIterator<T>,
    I: ParallelIterator<Item = Result<T, E>>,
    T: Send,
    E: Send,
{
    let failure = Failure {
        error: Mutex::new(None),
        stop: AtomicBool::new(false),
    };
    let collection = C::from_par_iter(Successes {
        base: par_iter,
        failure: &failure,
    });
    match failure
        .error
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
    {
        Some(error) => Err(error),
        None => Ok(collection),
    }
}

/// Shared by all pieces of a `Result` collect: the error kept, and whether to stop.
struct Failure<E> {
    error: Mutex<Option<E>>,
    stop: AtomicBool,
}

impl<E> Failure<E> {
    fn record(&self, error: E) {
        // Nothing panics while the lock is held, but a poisoned lock still holds a value.
        let mut slot = self.error.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(error);
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The `Ok` values of `base`, until a piece meets an `Err`. Unindexed (`opt_len` is
/// `None`): how many items it yields is not known in advance.
struct Successes<'f, I, E> {
    base: I,
    failure: &'f Failure<E>,
}

impl<I, T, E> ParallelIterator for Successes<'_, I, E>
where
    I: ParallelIterator<Item = Result<T, E>>,
    T: Send,
    E: Send,
{
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        self.base.drive_unindexed(SuccessConsumer {
            base: consumer,
            failure: self.failure,
        })
    }
}

/// Passes `Ok` values on to `base`; records an `Err` and reports itself full from then on.
struct SuccessConsumer<'f, C, E> {
    base: C,
    failure: &'f Failure<E>,
}

impl<'f, C, T, E> Consumer<Result<T, E>> for SuccessConsumer<'f, C, E>
where
    C: Consumer<T>,
    E: Send,
{
    type Folder = SuccessConsumer<'f, C::Folder, E>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        (
            SuccessConsumer {
                base: left,
                failure: self.failure,
            },
            SuccessConsumer {
                base: right,
                failure: self.failure,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        SuccessConsumer {
            base: self.base.into_folder(),
            failure: self.failure,
        }
    }

    fn full(&self) -> bool {
        self.failure.stopped() || self.base.full()
    }
}

impl<C, T, E> UnindexedConsumer<Result<T, E>> for SuccessConsumer<'_, C, E>
where
    C: UnindexedConsumer<T>,
    E: Send,
{
    fn split_off_left(&self) -> Self {
        SuccessConsumer {
            base: self.base.split_off_left(),
            failure: self.failure,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<F, T, E> Folder<Result<T, E>> for SuccessConsumer<'_, F, E>
where
    F: Folder<T>,
{
    type Result = F::Result;

    fn consume(self, item: Result<T, E>) -> Self {
        match item {
            Ok(value) => SuccessConsumer {
                base: self.base.consume(value),
                failure: self.failure,
            },
            Err(error) => {
                self.failure.record(error);
                self
            }
        }
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.failure.stopped() || self.base.full()
    }
}

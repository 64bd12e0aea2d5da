//! `par_extend` for the standard collections other than `Vec` (whose impl, in place when
//! the length is known, is in `extend.rs`).
//!
//! The items are gathered in parallel, one `Vec` per piece ([`collect_pieces`]), and then
//! inserted sequentially, piece after piece, in the iterator's order (a `LinkedList` or a
//! string instead builds one of its own per piece, in parallel, and joins those). Inserting is the
//! part a hashed or ordered collection cannot share between threads without locks, and
//! doing it in order keeps the sequential `extend`'s answer wherever order matters: for a
//! map, the last value given for a key is the one kept; for a set, the first of equal
//! items is.
//!
//! ```
//! use splitsteal::prelude::*;
//! use std::collections::{BTreeMap, HashSet};
//!
//! let mut squares = BTreeMap::new();
//! squares.par_extend((0..100u32).into_par_iter().map(|i| (i % 10, i)));
//! // Key 3 was given 3, 13, ..., 93: the last one wins, as with `Extend`.
//! assert_eq!(squares[&3], 93);
//!
//! let mut seen: HashSet<u32> = HashSet::new();
//! seen.par_extend((0..1000u32).into_par_iter().map(|i| i % 7));
//! assert_eq!(seen.len(), 7);
//!
//! let words = vec!["de", "f", "", "gh"];
//! let mut text = String::from("abc");
//! text.par_extend(words.par_iter().map(|w| *w));
//! text.par_extend((0..3u8).into_par_iter().map(|i| char::from(b'x' + i)));
//! assert_eq!(text, "abcdefghxyz");
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::ffi::{OsStr, OsString};
use std::hash::{BuildHasher, Hash};

use super::extend::{collect_pieces, fold_pieces, IsEmpty};
use super::{FromParallelIterator, IntoParallelIterator, ParallelExtend, ParallelIterator};

/// Gathers `par_iter`'s items into per-piece `Vec`s, in order.
fn pieces<I: IntoParallelIterator>(par_iter: I) -> LinkedList<Vec<I::Item>> {
    collect_pieces(par_iter.into_par_iter())
}

/// How many items the pieces hold in all.
fn total_len<T>(pieces: &LinkedList<Vec<T>>) -> usize {
    pieces.iter().map(Vec::len).sum()
}

/// Inserts the pieces' items into `target`, piece after piece (so in the iterator's order).
fn extend_in_order<C, T>(target: &mut C, pieces: LinkedList<Vec<T>>)
where
    C: Extend<T>,
{
    for piece in pieces {
        target.extend(piece);
    }
}

/// Copies the items out of references, as `Iterator::copied` does (the `&T` impls).
fn copied<'a, T, I>(par_iter: I) -> impl ParallelIterator<Item = T> + use<'a, T, I>
where
    T: 'a + Copy + Send + Sync,
    I: IntoParallelIterator<Item = &'a T>,
{
    par_iter.into_par_iter().map(|&x| x)
}

/// Copies both halves of a `(&K, &V)` pair (the maps' `&` impls).
fn copied_pairs<'a, K, V, I>(par_iter: I) -> impl ParallelIterator<Item = (K, V)> + use<'a, K, V, I>
where
    K: 'a + Copy + Send + Sync,
    V: 'a + Copy + Send + Sync,
    I: IntoParallelIterator<Item = (&'a K, &'a V)>,
{
    par_iter.into_par_iter().map(|(&k, &v)| (k, v))
}

// ---- Vec<T> from references (the owned-item impl is in extend.rs) ----

/// Appends copies of the referenced items, in order (in place when the length is known).
///
/// ```
/// use splitsteal::prelude::*;
///
/// let src = [4, 5, 6];
/// let mut v = vec![1, 2, 3];
/// v.par_extend(src.par_iter());
/// assert_eq!(v, [1, 2, 3, 4, 5, 6]);
/// ```
impl<'a, T> ParallelExtend<&'a T> for Vec<T>
where
    T: 'a + Copy + Send + Sync,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        self.par_extend(copied(par_iter));
    }
}

// ---- VecDeque, BinaryHeap, LinkedList ----

/// Appends the items at the back, in order.
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::VecDeque;
///
/// let mut d = VecDeque::from([0]);
/// d.par_extend((1..5).into_par_iter());
/// assert_eq!(d, [0, 1, 2, 3, 4]);
/// ```
impl<T: Send> ParallelExtend<T> for VecDeque<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        // Through a `Vec`, so an indexed iterator is collected in place; into an empty
        // deque the `Vec`'s buffer is taken over without copying.
        let vec = Vec::from_par_iter(par_iter);
        if self.is_empty() {
            *self = VecDeque::from(vec);
        } else {
            self.extend(vec);
        }
    }
}

/// Appends copies of the referenced items at the back, in order.
impl<'a, T> ParallelExtend<&'a T> for VecDeque<T>
where
    T: 'a + Copy + Send + Sync,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        self.par_extend(copied(par_iter));
    }
}

/// Pushes the items onto the heap (the heap order is restored sequentially at the end).
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::BinaryHeap;
///
/// let mut heap = BinaryHeap::from([5]);
/// heap.par_extend((0..10).into_par_iter());
/// assert_eq!(heap.len(), 11);
/// assert_eq!(heap.peek(), Some(&9));
/// ```
impl<T: Ord + Send> ParallelExtend<T> for BinaryHeap<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        let vec = Vec::from_par_iter(par_iter);
        if self.is_empty() {
            // Heapify in one pass instead of pushing one by one.
            *self = BinaryHeap::from(vec);
        } else {
            self.extend(vec);
        }
    }
}

/// Pushes copies of the referenced items onto the heap.
impl<'a, T> ParallelExtend<&'a T> for BinaryHeap<T>
where
    T: 'a + Copy + Ord + Send + Sync,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        self.par_extend(copied(par_iter));
    }
}

/// Appends the items at the back, in order.
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::LinkedList;
///
/// let mut list = LinkedList::from([0]);
/// list.par_extend((1..4).into_par_iter());
/// assert!(list.iter().eq(&[0, 1, 2, 3]));
/// ```
impl<T: Send> ParallelExtend<T> for LinkedList<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        // Each piece builds its own list in parallel; joining them is O(1) per piece.
        for mut list in fold_pieces::<LinkedList<T>, _>(par_iter.into_par_iter()) {
            self.append(&mut list);
        }
    }
}

/// Appends copies of the referenced items at the back, in order.
impl<'a, T> ParallelExtend<&'a T> for LinkedList<T>
where
    T: 'a + Copy + Send + Sync,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        self.par_extend(copied(par_iter));
    }
}

// ---- maps and sets ----

/// Inserts the pairs in the iterator's order: for a key given more than once, the last
/// value wins, as with [`Extend`].
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::HashMap;
///
/// let mut m = HashMap::new();
/// m.par_extend((0..1000u32).into_par_iter().map(|i| (i % 10, i)));
/// assert_eq!(m.len(), 10);
/// assert_eq!(m[&7], 997);
/// ```
impl<K, V, S> ParallelExtend<(K, V)> for HashMap<K, V, S>
where
    K: Eq + Hash + Send,
    V: Send,
    S: BuildHasher + Send,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = (K, V)>,
    {
        let pieces = pieces(par_iter);
        self.reserve(total_len(&pieces));
        extend_in_order(self, pieces);
    }
}

/// Inserts copies of the referenced pairs, the last value for a key winning.
impl<'a, K, V, S> ParallelExtend<(&'a K, &'a V)> for HashMap<K, V, S>
where
    K: 'a + Copy + Eq + Hash + Send + Sync,
    V: 'a + Copy + Send + Sync,
    S: BuildHasher + Send,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = (&'a K, &'a V)>,
    {
        self.par_extend(copied_pairs(par_iter));
    }
}

/// Inserts the pairs in the iterator's order: for a key given more than once, the last
/// value wins, as with [`Extend`].
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::BTreeMap;
///
/// let mut m = BTreeMap::new();
/// m.par_extend((0..100u32).into_par_iter().map(|i| (i / 10, i)));
/// assert_eq!(m.into_iter().collect::<Vec<_>>()[..2], [(0, 9), (1, 19)]);
/// ```
impl<K, V> ParallelExtend<(K, V)> for BTreeMap<K, V>
where
    K: Ord + Send,
    V: Send,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = (K, V)>,
    {
        extend_in_order(self, pieces(par_iter));
    }
}

/// Inserts copies of the referenced pairs, the last value for a key winning.
impl<'a, K, V> ParallelExtend<(&'a K, &'a V)> for BTreeMap<K, V>
where
    K: 'a + Copy + Ord + Send + Sync,
    V: 'a + Copy + Send + Sync,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = (&'a K, &'a V)>,
    {
        self.par_extend(copied_pairs(par_iter));
    }
}

/// Inserts the items in the iterator's order (of equal items, the one already there, or
/// else the first, is kept, as with [`Extend`]).
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::HashSet;
///
/// let mut s = HashSet::new();
/// s.par_extend((0..1000u32).into_par_iter().map(|i| i % 3));
/// assert_eq!(s, HashSet::from([0, 1, 2]));
/// ```
impl<T, S> ParallelExtend<T> for HashSet<T, S>
where
    T: Eq + Hash + Send,
    S: BuildHasher + Send,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        let pieces = pieces(par_iter);
        self.reserve(total_len(&pieces));
        extend_in_order(self, pieces);
    }
}

/// Inserts copies of the referenced items.
impl<'a, T, S> ParallelExtend<&'a T> for HashSet<T, S>
where
    T: 'a + Copy + Eq + Hash + Send + Sync,
    S: BuildHasher + Send,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        self.par_extend(copied(par_iter));
    }
}

/// Inserts the items in the iterator's order (of equal items, the one already there, or
/// else the first, is kept, as with [`Extend`]).
///
/// ```
/// use splitsteal::prelude::*;
/// use std::collections::BTreeSet;
///
/// let mut s = BTreeSet::new();
/// s.par_extend((0..1000u32).into_par_iter().map(|i| i % 5));
/// assert!(s.iter().eq(&[0, 1, 2, 3, 4]));
/// ```
impl<T> ParallelExtend<T> for BTreeSet<T>
where
    T: Ord + Send,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        extend_in_order(self, pieces(par_iter));
    }
}

/// Inserts copies of the referenced items.
impl<'a, T> ParallelExtend<&'a T> for BTreeSet<T>
where
    T: 'a + Copy + Ord + Send + Sync,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        self.par_extend(copied(par_iter));
    }
}

// ---- strings ----

/// Appends the items' text to `target`, in order: each piece appends its items' text to
/// its own buffer, in parallel; then room is reserved for all of it and the pieces'
/// buffers are appended whole (into an empty `target`, the first piece's buffer is taken
/// over instead of copied).
fn extend_text<S, T, I>(
    target: &mut S,
    par_iter: I,
    len: fn(&S) -> usize,
    reserve: fn(&mut S, usize),
    append: fn(&mut S, &S),
) where
    S: Default + Extend<T> + IsEmpty + Send,
    I: IntoParallelIterator<Item = T>,
{
    let mut pieces = fold_pieces::<S, _>(par_iter.into_par_iter());
    if target.is_empty() {
        match pieces.pop_front() {
            Some(first) => *target = first,
            None => return,
        }
    }
    reserve(target, pieces.iter().map(len).sum());
    for piece in &pieces {
        append(target, piece);
    }
}

macro_rules! impl_extend_text {
    ($doc:literal, $target:ty, $len:expr, $reserve:expr, $append:expr, [$(impl[$($a:lifetime)?] $item:ty;)*]) => {$(
        #[doc = $doc]
        impl<$($a)?> ParallelExtend<$item> for $target {
            fn par_extend<I>(&mut self, par_iter: I)
            where
                I: IntoParallelIterator<Item = $item>,
            {
                extend_text(self, par_iter, $len, $reserve, $append);
            }
        }
    )*};
}

impl_extend_text! {
    "Appends the items' text, in order.",
    String, String::len, String::reserve, |s, piece| s.push_str(piece), [
        impl[] char;
        impl['a] &'a char;
        impl['a] &'a str;
        impl[] String;
        impl[] Box<str>;
        impl['a] Cow<'a, str>;
    ]
}

impl_extend_text! {
    "Appends the items' text, in order.",
    OsString, |s| s.as_os_str().len(), OsString::reserve, |s, piece| s.push(piece), [
        impl['a] &'a OsStr;
        impl[] OsString;
        impl['a] Cow<'a, OsStr>;
    ]
}

// ---- () ----

/// Runs the iterator for its side effects: `()` is the collection of nothing.
///
/// ```
/// use splitsteal::prelude::*;
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// let calls = AtomicUsize::new(0);
/// let mut unit = ();
/// unit.par_extend((0..10).into_par_iter().map(|_| {
///     calls.fetch_add(1, Ordering::Relaxed);
/// }));
/// assert_eq!(calls.into_inner(), 10);
/// ```
impl ParallelExtend<()> for () {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = ()>,
    {
        par_iter.into_par_iter().for_each(drop);
    }
}

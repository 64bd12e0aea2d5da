//! Parallel iterators over the standard collections (`HashMap`, `HashSet`, `BTreeMap`,
//! `BTreeSet`, `VecDeque`, `LinkedList`, `BinaryHeap`), one module per collection with
//! rayon's names (`hash_map::IntoIter`, `hash_map::Iter`, `hash_map::IterMut`, ...).
//!
//! None of these collections can be split cheaply by position, so, as rayon does, each
//! iterator first walks the collection's sequential iterator into a `Vec` (of the items
//! for `into_par_iter()`, of references for `par_iter()` / `par_iter_mut()`) and then
//! iterates that `Vec` in parallel. The walk is sequential and costs one pass over the
//! collection; the work done per item is what runs in parallel. The iterators of
//! `VecDeque` and `BinaryHeap` are indexed (as rayon's are); the others are not.
//!
//! ```
//! use splitsteal::prelude::*;
//! use std::collections::HashMap;
//!
//! let m: HashMap<u32, u32> = (0..100).map(|i| (i, i * i)).collect();
//! let total: u32 = m.par_iter().map(|(_, v)| *v).sum();
//! assert_eq!(total, m.values().sum());
//! ```

use super::vec;

/// Parallel iterators over a `HashMap` (generic over its hasher).
pub mod hash_map {
    /// The iterator of `par_drain` on this collection.
    pub use super::super::drain::HashMapDrain as Drain;

    use std::collections::HashMap;
    use std::hash::{BuildHasher, Hash};

    use super::super::delegate::delegate_iterator;
    use super::super::IntoParallelIterator;
    use super::vec;

    /// The iterator of `into_par_iter()` on a `HashMap`: its `(key, value)` pairs, in the
    /// map's iteration order as far as `collect` is concerned.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::HashMap;
    ///
    /// let m: HashMap<i32, char> = [(1, 'a'), (2, 'b')].into_iter().collect();
    /// let mut pairs: Vec<(i32, char)> = m.into_par_iter().collect();
    /// pairs.sort();
    /// assert_eq!(pairs, [(1, 'a'), (2, 'b')]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug, Clone)]
    pub struct IntoIter<K: Hash + Eq + Send, V: Send> {
        inner: vec::IntoIter<(K, V)>,
    }

    impl<K: Hash + Eq + Send, V: Send, S: BuildHasher> IntoParallelIterator for HashMap<K, V, S> {
        type Item = (K, V);
        type Iter = IntoIter<K, V>;

        fn into_par_iter(self) -> IntoIter<K, V> {
            IntoIter {
                inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! { IntoIter<K, V> => (K, V), impl<K: Hash + Eq + Send, V: Send> }

    /// The iterator of `par_iter()` on a `HashMap`: `(&key, &value)` pairs.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::HashMap;
    ///
    /// let m: HashMap<&str, i32> = [("a", 1), ("b", 2)].into_iter().collect();
    /// assert_eq!(m.par_iter().map(|(_, v)| *v).sum::<i32>(), 3);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct Iter<'a, K: Hash + Eq + Sync, V: Sync> {
        inner: vec::IntoIter<(&'a K, &'a V)>,
    }

    impl<K: Hash + Eq + Sync, V: Sync> Clone for Iter<'_, K, V> {
        fn clone(&self) -> Self {
            Iter {
                inner: self.inner.clone(),
            }
        }
    }

    impl<'a, K: Hash + Eq + Sync, V: Sync, S: BuildHasher> IntoParallelIterator
        for &'a HashMap<K, V, S>
    {
        type Item = (&'a K, &'a V);
        type Iter = Iter<'a, K, V>;

        fn into_par_iter(self) -> Iter<'a, K, V> {
            Iter {
                inner: self.iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! {
        Iter<'a, K, V> => (&'a K, &'a V), impl<'a, K: Hash + Eq + Sync + 'a, V: Sync + 'a>
    }

    /// The iterator of `par_iter_mut()` on a `HashMap`: `(&key, &mut value)` pairs.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::HashMap;
    ///
    /// let mut m: HashMap<i32, i32> = (0..10).map(|i| (i, i)).collect();
    /// m.par_iter_mut().for_each(|(k, v)| *v += k);
    /// assert!(m.iter().all(|(k, v)| *v == 2 * k));
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct IterMut<'a, K: Hash + Eq + Sync, V: Send> {
        inner: vec::IntoIter<(&'a K, &'a mut V)>,
    }

    impl<'a, K: Hash + Eq + Sync, V: Send, S: BuildHasher> IntoParallelIterator
        for &'a mut HashMap<K, V, S>
    {
        type Item = (&'a K, &'a mut V);
        type Iter = IterMut<'a, K, V>;

        fn into_par_iter(self) -> IterMut<'a, K, V> {
            IterMut {
                inner: self.iter_mut().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! {
        IterMut<'a, K, V> => (&'a K, &'a mut V), impl<'a, K: Hash + Eq + Sync + 'a, V: Send + 'a>
    }
}

/// Parallel iterators over a `HashSet` (generic over its hasher).
pub mod hash_set {
    /// The iterator of `par_drain` on this collection.
    pub use super::super::drain::HashSetDrain as Drain;

    use std::collections::HashSet;
    use std::hash::{BuildHasher, Hash};

    use super::super::delegate::delegate_iterator;
    use super::super::IntoParallelIterator;
    use super::vec;

    /// The iterator of `into_par_iter()` on a `HashSet`: its items.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::HashSet;
    ///
    /// let s: HashSet<u64> = (1..=10).collect();
    /// assert_eq!(s.into_par_iter().sum::<u64>(), 55);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug, Clone)]
    pub struct IntoIter<T: Hash + Eq + Send> {
        inner: vec::IntoIter<T>,
    }

    impl<T: Hash + Eq + Send, S: BuildHasher> IntoParallelIterator for HashSet<T, S> {
        type Item = T;
        type Iter = IntoIter<T>;

        fn into_par_iter(self) -> IntoIter<T> {
            IntoIter {
                inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! { IntoIter<T> => T, impl<T: Hash + Eq + Send> }

    /// The iterator of `par_iter()` on a `HashSet`: references to its items.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::HashSet;
    ///
    /// let s: HashSet<u64> = (1..=10).collect();
    /// assert_eq!(s.par_iter().map(|x| x * 2).sum::<u64>(), 110);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct Iter<'a, T: Hash + Eq + Sync> {
        inner: vec::IntoIter<&'a T>,
    }

    impl<T: Hash + Eq + Sync> Clone for Iter<'_, T> {
        fn clone(&self) -> Self {
            Iter {
                inner: self.inner.clone(),
            }
        }
    }

    impl<'a, T: Hash + Eq + Sync, S: BuildHasher> IntoParallelIterator for &'a HashSet<T, S> {
        type Item = &'a T;
        type Iter = Iter<'a, T>;

        fn into_par_iter(self) -> Iter<'a, T> {
            Iter {
                inner: self.iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! { Iter<'a, T> => &'a T, impl<'a, T: Hash + Eq + Sync + 'a> }
}

/// Parallel iterators over a `BTreeMap`.
pub mod btree_map {
    use std::collections::BTreeMap;

    use super::super::delegate::delegate_iterator;
    use super::super::IntoParallelIterator;
    use super::vec;

    /// The iterator of `into_par_iter()` on a `BTreeMap`: its `(key, value)` pairs; `collect`
    /// keeps the map's key order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::BTreeMap;
    ///
    /// let m: BTreeMap<i32, char> = [(2, 'b'), (1, 'a')].into_iter().collect();
    /// let pairs: Vec<(i32, char)> = m.into_par_iter().collect();
    /// assert_eq!(pairs, [(1, 'a'), (2, 'b')]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug, Clone)]
    pub struct IntoIter<K: Ord + Send, V: Send> {
        inner: vec::IntoIter<(K, V)>,
    }

    impl<K: Ord + Send, V: Send> IntoParallelIterator for BTreeMap<K, V> {
        type Item = (K, V);
        type Iter = IntoIter<K, V>;

        fn into_par_iter(self) -> IntoIter<K, V> {
            IntoIter {
                inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! { IntoIter<K, V> => (K, V), impl<K: Ord + Send, V: Send> }

    /// The iterator of `par_iter()` on a `BTreeMap`: `(&key, &value)` pairs, in key order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::BTreeMap;
    ///
    /// let m: BTreeMap<i32, i32> = (0..5).map(|i| (i, i * 10)).collect();
    /// let vals: Vec<i32> = m.par_iter().map(|(_, v)| *v).collect();
    /// assert_eq!(vals, [0, 10, 20, 30, 40]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct Iter<'a, K: Ord + Sync, V: Sync> {
        inner: vec::IntoIter<(&'a K, &'a V)>,
    }

    impl<K: Ord + Sync, V: Sync> Clone for Iter<'_, K, V> {
        fn clone(&self) -> Self {
            Iter {
                inner: self.inner.clone(),
            }
        }
    }

    impl<'a, K: Ord + Sync, V: Sync> IntoParallelIterator for &'a BTreeMap<K, V> {
        type Item = (&'a K, &'a V);
        type Iter = Iter<'a, K, V>;

        fn into_par_iter(self) -> Iter<'a, K, V> {
            Iter {
                inner: self.iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! {
        Iter<'a, K, V> => (&'a K, &'a V), impl<'a, K: Ord + Sync + 'a, V: Sync + 'a>
    }

    /// The iterator of `par_iter_mut()` on a `BTreeMap`: `(&key, &mut value)` pairs.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::BTreeMap;
    ///
    /// let mut m: BTreeMap<i32, i32> = (0..5).map(|i| (i, i)).collect();
    /// m.par_iter_mut().for_each(|(_, v)| *v *= 3);
    /// assert_eq!(m.values().copied().collect::<Vec<_>>(), [0, 3, 6, 9, 12]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct IterMut<'a, K: Ord + Sync, V: Send> {
        inner: vec::IntoIter<(&'a K, &'a mut V)>,
    }

    impl<'a, K: Ord + Sync, V: Send> IntoParallelIterator for &'a mut BTreeMap<K, V> {
        type Item = (&'a K, &'a mut V);
        type Iter = IterMut<'a, K, V>;

        fn into_par_iter(self) -> IterMut<'a, K, V> {
            IterMut {
                inner: self.iter_mut().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! {
        IterMut<'a, K, V> => (&'a K, &'a mut V), impl<'a, K: Ord + Sync + 'a, V: Send + 'a>
    }
}

/// Parallel iterators over a `BTreeSet`.
pub mod btree_set {
    use std::collections::BTreeSet;

    use super::super::delegate::delegate_iterator;
    use super::super::IntoParallelIterator;
    use super::vec;

    /// The iterator of `into_par_iter()` on a `BTreeSet`: its items; `collect` keeps their
    /// order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::BTreeSet;
    ///
    /// let s: BTreeSet<i32> = [3, 1, 2].into_iter().collect();
    /// assert_eq!(s.into_par_iter().collect::<Vec<_>>(), [1, 2, 3]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug, Clone)]
    pub struct IntoIter<T: Ord + Send> {
        inner: vec::IntoIter<T>,
    }

    impl<T: Ord + Send> IntoParallelIterator for BTreeSet<T> {
        type Item = T;
        type Iter = IntoIter<T>;

        fn into_par_iter(self) -> IntoIter<T> {
            IntoIter {
                inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! { IntoIter<T> => T, impl<T: Ord + Send> }

    /// The iterator of `par_iter()` on a `BTreeSet`: references to its items, in order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::BTreeSet;
    ///
    /// let s: BTreeSet<i32> = [3, 1, 2].into_iter().collect();
    /// assert_eq!(s.par_iter().map(|x| x * 2).collect::<Vec<_>>(), [2, 4, 6]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct Iter<'a, T: Ord + Sync> {
        inner: vec::IntoIter<&'a T>,
    }

    impl<T: Ord + Sync> Clone for Iter<'_, T> {
        fn clone(&self) -> Self {
            Iter {
                inner: self.inner.clone(),
            }
        }
    }

    impl<'a, T: Ord + Sync> IntoParallelIterator for &'a BTreeSet<T> {
        type Item = &'a T;
        type Iter = Iter<'a, T>;

        fn into_par_iter(self) -> Iter<'a, T> {
            Iter {
                inner: self.iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! { Iter<'a, T> => &'a T, impl<'a, T: Ord + Sync + 'a> }
}

/// Parallel iterators over a `VecDeque` (indexed).
pub mod vec_deque {
    /// The iterator of `par_drain` on this collection.
    pub use super::super::drain::VecDequeDrain as Drain;

    use std::collections::VecDeque;

    use super::super::delegate::delegate_indexed_iterator;
    use super::super::IntoParallelIterator;
    use super::vec;

    /// The iterator of `into_par_iter()` on a `VecDeque`: its items, front to back. The
    /// deque becomes a `Vec` in place (`Vec::from`), moving items only if it had wrapped
    /// around its buffer.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::VecDeque;
    ///
    /// let mut d: VecDeque<i32> = (1..=3).collect();
    /// d.push_front(0);
    /// assert_eq!(d.into_par_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug, Clone)]
    pub struct IntoIter<T: Send> {
        inner: vec::IntoIter<T>,
    }

    impl<T: Send> IntoParallelIterator for VecDeque<T> {
        type Item = T;
        type Iter = IntoIter<T>;

        fn into_par_iter(self) -> IntoIter<T> {
            IntoIter {
                inner: Vec::from(self).into_par_iter(),
            }
        }
    }

    delegate_indexed_iterator! { IntoIter<T> => T, impl<T: Send> }

    /// The iterator of `par_iter()` on a `VecDeque`: references to its items, front to
    /// back.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::VecDeque;
    ///
    /// let d: VecDeque<i32> = (1..=4).collect();
    /// assert_eq!(d.par_iter().sum::<i32>(), 10);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct Iter<'a, T: Sync> {
        inner: vec::IntoIter<&'a T>,
    }

    impl<T: Sync> Clone for Iter<'_, T> {
        fn clone(&self) -> Self {
            Iter {
                inner: self.inner.clone(),
            }
        }
    }

    impl<'a, T: Sync> IntoParallelIterator for &'a VecDeque<T> {
        type Item = &'a T;
        type Iter = Iter<'a, T>;

        fn into_par_iter(self) -> Iter<'a, T> {
            Iter {
                inner: self.iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_indexed_iterator! { Iter<'a, T> => &'a T, impl<'a, T: Sync + 'a> }

    /// The iterator of `par_iter_mut()` on a `VecDeque`: mutable references to its items,
    /// front to back.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::VecDeque;
    ///
    /// let mut d: VecDeque<i32> = (1..=4).collect();
    /// d.par_iter_mut().for_each(|x| *x *= -1);
    /// assert_eq!(d, [-1, -2, -3, -4]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct IterMut<'a, T: Send> {
        inner: vec::IntoIter<&'a mut T>,
    }

    impl<'a, T: Send> IntoParallelIterator for &'a mut VecDeque<T> {
        type Item = &'a mut T;
        type Iter = IterMut<'a, T>;

        fn into_par_iter(self) -> IterMut<'a, T> {
            IterMut {
                inner: self.iter_mut().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_indexed_iterator! { IterMut<'a, T> => &'a mut T, impl<'a, T: Send + 'a> }
}

/// Parallel iterators over a `LinkedList`.
pub mod linked_list {
    use std::collections::LinkedList;

    use super::super::delegate::delegate_iterator;
    use super::super::IntoParallelIterator;
    use super::vec;

    /// The iterator of `into_par_iter()` on a `LinkedList`: its items, front to back.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::LinkedList;
    ///
    /// let l: LinkedList<i32> = (1..=3).collect();
    /// assert_eq!(l.into_par_iter().collect::<Vec<_>>(), [1, 2, 3]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug, Clone)]
    pub struct IntoIter<T: Send> {
        inner: vec::IntoIter<T>,
    }

    impl<T: Send> IntoParallelIterator for LinkedList<T> {
        type Item = T;
        type Iter = IntoIter<T>;

        fn into_par_iter(self) -> IntoIter<T> {
            IntoIter {
                inner: self.into_iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! { IntoIter<T> => T, impl<T: Send> }

    /// The iterator of `par_iter()` on a `LinkedList`: references to its items.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::LinkedList;
    ///
    /// let l: LinkedList<i32> = (1..=3).collect();
    /// assert_eq!(l.par_iter().sum::<i32>(), 6);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct Iter<'a, T: Sync> {
        inner: vec::IntoIter<&'a T>,
    }

    impl<T: Sync> Clone for Iter<'_, T> {
        fn clone(&self) -> Self {
            Iter {
                inner: self.inner.clone(),
            }
        }
    }

    impl<'a, T: Sync> IntoParallelIterator for &'a LinkedList<T> {
        type Item = &'a T;
        type Iter = Iter<'a, T>;

        fn into_par_iter(self) -> Iter<'a, T> {
            Iter {
                inner: self.iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! { Iter<'a, T> => &'a T, impl<'a, T: Sync + 'a> }

    /// The iterator of `par_iter_mut()` on a `LinkedList`: mutable references to its items.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::LinkedList;
    ///
    /// let mut l: LinkedList<i32> = (1..=3).collect();
    /// l.par_iter_mut().for_each(|x| *x += 1);
    /// assert_eq!(l.into_iter().collect::<Vec<_>>(), [2, 3, 4]);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct IterMut<'a, T: Send> {
        inner: vec::IntoIter<&'a mut T>,
    }

    impl<'a, T: Send> IntoParallelIterator for &'a mut LinkedList<T> {
        type Item = &'a mut T;
        type Iter = IterMut<'a, T>;

        fn into_par_iter(self) -> IterMut<'a, T> {
            IterMut {
                inner: self.iter_mut().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_iterator! { IterMut<'a, T> => &'a mut T, impl<'a, T: Send + 'a> }
}

/// Parallel iterators over a `BinaryHeap` (indexed; in the heap's internal order, as its
/// sequential `iter()` and `into_iter()` are).
pub mod binary_heap {
    /// The iterator of `par_drain` on this collection.
    pub use super::super::drain::BinaryHeapDrain as Drain;

    use std::collections::BinaryHeap;

    use super::super::delegate::delegate_indexed_iterator;
    use super::super::IntoParallelIterator;
    use super::vec;

    /// The iterator of `into_par_iter()` on a `BinaryHeap`: its items, in the heap's
    /// internal (arbitrary) order. The heap becomes its `Vec` without moving any item.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::BinaryHeap;
    ///
    /// let h: BinaryHeap<i32> = [3, 1, 4, 1, 5].into_iter().collect();
    /// assert_eq!(h.into_par_iter().sum::<i32>(), 14);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug, Clone)]
    pub struct IntoIter<T: Ord + Send> {
        inner: vec::IntoIter<T>,
    }

    impl<T: Ord + Send> IntoParallelIterator for BinaryHeap<T> {
        type Item = T;
        type Iter = IntoIter<T>;

        fn into_par_iter(self) -> IntoIter<T> {
            IntoIter {
                inner: Vec::from(self).into_par_iter(),
            }
        }
    }

    delegate_indexed_iterator! { IntoIter<T> => T, impl<T: Ord + Send> }

    /// The iterator of `par_iter()` on a `BinaryHeap`: references to its items, in the
    /// heap's internal order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    /// use std::collections::BinaryHeap;
    ///
    /// let h: BinaryHeap<i32> = [3, 1, 4].into_iter().collect();
    /// assert_eq!(h.par_iter().count(), 3);
    /// ```
    #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
    #[derive(Debug)]
    pub struct Iter<'a, T: Ord + Sync> {
        inner: vec::IntoIter<&'a T>,
    }

    impl<T: Ord + Sync> Clone for Iter<'_, T> {
        fn clone(&self) -> Self {
            Iter {
                inner: self.inner.clone(),
            }
        }
    }

    impl<'a, T: Ord + Sync> IntoParallelIterator for &'a BinaryHeap<T> {
        type Item = &'a T;
        type Iter = Iter<'a, T>;

        fn into_par_iter(self) -> Iter<'a, T> {
            Iter {
                inner: self.iter().collect::<Vec<_>>().into_par_iter(),
            }
        }
    }

    delegate_indexed_iterator! { Iter<'a, T> => &'a T, impl<'a, T: Ord + Sync + 'a> }
}

//! `MultiZip`: a tuple of indexed parallel iterators walked in step, yielding tuples.
//!
//! It is built from `zip`: `(a, b, c)` runs as `a.zip(b.zip(c))` with the nested pairs
//! flattened back into a triple by a `map`, so the pieces split exactly as `zip`'s do and
//! the length is the shortest member's.

use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::{
    IndexedParallelIterator, IntoParallelIterator, IntoParallelRefIterator,
    IntoParallelRefMutIterator, ParallelIterator,
};

/// A tuple of indexed parallel iterators zipped together: yields tuples of their items,
/// as long as the shortest of them. Made by `into_par_iter()` on a tuple (up to 12) of
/// values that convert into indexed parallel iterators, or `par_iter()` / `par_iter_mut()`
/// on a tuple of collections iterable by reference.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let mut out = vec![0; 3];
/// // `&mut out` is walked by mutable reference, the ranges by value; the shortest (`out`)
/// // sets the length.
/// (&mut out, 1..10, 10..100).into_par_iter().for_each(|(o, x, y)| *o = x * y);
/// assert_eq!(out, [10, 22, 36]);
///
/// // A tuple of collections, all by reference.
/// let pair = (vec![1, 2, 3], vec![4, 5, 6]);
/// let sums: Vec<i32> = pair.par_iter().map(|(a, b)| a + b).collect();
/// assert_eq!(sums, [5, 7, 9]);
///
/// // ... or all by mutable reference.
/// let mut pair = pair;
/// pair.par_iter_mut().for_each(|(a, b)| std::mem::swap(a, b));
/// assert_eq!(pair, (vec![4, 5, 6], vec![1, 2, 3]));
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct MultiZip<T> {
    tuple: T,
}

/// `a.zip(b.zip(c.zip(...)))` over the given iterators.
macro_rules! zip_chain {
    ($a:expr) => { $a };
    ($a:expr, $($rest:expr),+) => {
        IndexedParallelIterator::zip($a, zip_chain!($($rest),+))
    };
}

/// The pattern `(a, (b, (c, ...)))` matching an item of `zip_chain!`.
macro_rules! chain_pattern {
    ($a:ident) => { $a };
    ($a:ident, $($rest:ident),+) => { ($a, chain_pattern!($($rest),+)) };
}

macro_rules! multizip {
    ($(($($T:ident $t:ident $idx:tt),+))+) => {$(
        impl<$($T),+> IntoParallelIterator for ($($T,)+)
        where
            $($T: IntoParallelIterator<Iter: IndexedParallelIterator>,)+
        {
            type Item = ($($T::Item,)+);
            type Iter = MultiZip<($($T::Iter,)+)>;

            fn into_par_iter(self) -> Self::Iter {
                MultiZip {
                    tuple: ($(self.$idx.into_par_iter(),)+),
                }
            }
        }

        impl<'a, $($T),+> IntoParallelIterator for &'a ($($T,)+)
        where
            $($T: IntoParallelRefIterator<'a, Iter: IndexedParallelIterator>,)+
        {
            type Item = ($($T::Item,)+);
            type Iter = MultiZip<($($T::Iter,)+)>;

            fn into_par_iter(self) -> Self::Iter {
                MultiZip {
                    tuple: ($(self.$idx.par_iter(),)+),
                }
            }
        }

        impl<'a, $($T),+> IntoParallelIterator for &'a mut ($($T,)+)
        where
            $($T: IntoParallelRefMutIterator<'a, Iter: IndexedParallelIterator>,)+
        {
            type Item = ($($T::Item,)+);
            type Iter = MultiZip<($($T::Iter,)+)>;

            fn into_par_iter(self) -> Self::Iter {
                MultiZip {
                    tuple: ($(self.$idx.par_iter_mut(),)+),
                }
            }
        }

        impl<$($T),+> ParallelIterator for MultiZip<($($T,)+)>
        where
            $($T: IndexedParallelIterator,)+
        {
            type Item = ($($T::Item,)+);

            fn drive_unindexed<CONSUMER>(self, consumer: CONSUMER) -> CONSUMER::Result
            where
                CONSUMER: UnindexedConsumer<Self::Item>,
            {
                self.drive(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl<$($T),+> IndexedParallelIterator for MultiZip<($($T,)+)>
        where
            $($T: IndexedParallelIterator,)+
        {
            fn len(&self) -> usize {
                let lens = [$(self.tuple.$idx.len()),+];
                lens.into_iter().min().expect("a tuple has a member")
            }

            fn drive<CONSUMER>(self, consumer: CONSUMER) -> CONSUMER::Result
            where
                CONSUMER: Consumer<Self::Item>,
            {
                zip_chain!($(self.tuple.$idx),+)
                    .map(|chain_pattern!($($t),+)| ($($t,)+))
                    .drive(consumer)
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: ProducerCallback<Self::Item>,
            {
                zip_chain!($(self.tuple.$idx),+)
                    .map(|chain_pattern!($($t),+)| ($($t,)+))
                    .with_producer(callback)
            }
        }
    )+};
}

multizip! {
    (A a 0)
    (A a 0, B b 1)
    (A a 0, B b 1, C c 2)
    (A a 0, B b 1, C c 2, D d 3)
    (A a 0, B b 1, C c 2, D d 3, E e 4)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9, K k 10)
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9, K k 10, L l 11)
}

//! Macros for parallel iterators that are a thin wrapper around another one (the
//! `Option`, `Result` and collection iterators): the wrapper keeps its own public name,
//! as rayon's does, and forwards every method to the iterator inside.

/// Implements [`ParallelIterator`](crate::iter::ParallelIterator) for `$iter` by forwarding
/// to its `inner` field.
macro_rules! delegate_iterator {
    ($iter:ty => $item:ty, impl $($args:tt)*) => {
        impl $($args)* $crate::iter::ParallelIterator for $iter {
            type Item = $item;

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: $crate::iter::plumbing::UnindexedConsumer<Self::Item>,
            {
                self.inner.drive_unindexed(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                self.inner.opt_len()
            }
        }
    };
}

/// As [`delegate_iterator`], and also
/// [`IndexedParallelIterator`](crate::iter::IndexedParallelIterator).
macro_rules! delegate_indexed_iterator {
    ($iter:ty => $item:ty, impl $($args:tt)*) => {
        $crate::iter::delegate::delegate_iterator! { $iter => $item, impl $($args)* }

        impl $($args)* $crate::iter::IndexedParallelIterator for $iter {
            fn len(&self) -> usize {
                self.inner.len()
            }

            fn drive<C>(self, consumer: C) -> C::Result
            where
                C: $crate::iter::plumbing::Consumer<Self::Item>,
            {
                self.inner.drive(consumer)
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: $crate::iter::plumbing::ProducerCallback<Self::Item>,
            {
                self.inner.with_producer(callback)
            }
        }
    };
}

pub(super) use {delegate_indexed_iterator, delegate_iterator};

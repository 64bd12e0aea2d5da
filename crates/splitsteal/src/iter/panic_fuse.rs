//! `panic_fuse`: once any piece panics, the other pieces stop at their next item instead of
//! running to the end before the panic is re-raised. A shared flag is set by a guard that
//! sees the folder's unwind; consumers and folders report themselves full once it is set.
//!
//! An adaptor above the fuse may run a piece through the producer's sequential iterator
//! instead of its `fold_with` (`rev` does), so that iterator is fused too: it ends once the
//! flag is set, and sets the flag if it is dropped while its thread unwinds (a panic in
//! the folder that was pulling items from it).

use std::sync::atomic::{AtomicBool, Ordering};

use super::plumbing::{Consumer, Folder, Producer, ProducerCallback, Reducer, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`ParallelIterator::panic_fuse`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct PanicFuse<I> {
    base: I,
}

impl<I> PanicFuse<I> {
    pub(super) fn new(base: I) -> Self {
        PanicFuse { base }
    }
}

/// Sets the fuse if dropped while unwinding.
struct Guard<'f>(&'f AtomicBool);

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            // Relaxed: the flag only asks other pieces to stop; the panic itself travels
            // through `join`.
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

fn blown(fuse: &AtomicBool) -> bool {
    // Relaxed: see `Guard`.
    fuse.load(Ordering::Relaxed)
}

impl<I: ParallelIterator> ParallelIterator for PanicFuse<I> {
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<I::Item>,
    {
        let fuse = AtomicBool::new(false);
        self.base.drive_unindexed(FuseConsumer {
            base: consumer,
            fuse: &fuse,
        })
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for PanicFuse<I> {
    fn len(&self) -> usize {
        self.base.len()
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<I::Item>,
    {
        let fuse = AtomicBool::new(false);
        self.base.drive(FuseConsumer {
            base: consumer,
            fuse: &fuse,
        })
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<I::Item>,
    {
        return self.base.with_producer(Callback { callback });

        struct Callback<CB> {
            callback: CB,
        }
        impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB> {
            type Output = CB::Output;
            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                let fuse = AtomicBool::new(false);
                self.callback.callback(FuseProducer { base, fuse: &fuse })
            }
        }
    }
}

struct FuseProducer<'f, P> {
    base: P,
    fuse: &'f AtomicBool,
}

impl<'f, P: Producer> Producer for FuseProducer<'f, P> {
    type Item = P::Item;
    type IntoIter = FuseIter<'f, P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        FuseIter {
            base: self.base.into_iter(),
            fuse: self.fuse,
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        (
            FuseProducer {
                base: l,
                fuse: self.fuse,
            },
            FuseProducer {
                base: r,
                fuse: self.fuse,
            },
        )
    }

    fn fold_with<F: Folder<P::Item>>(self, folder: F) -> F {
        self.base
            .fold_with(FuseFolder {
                base: folder,
                fuse: self.fuse,
            })
            .base
    }
}

/// A piece's sequential iterator under the fuse: ends once the fuse is blown, and blows
/// it if dropped while unwinding.
struct FuseIter<'f, I> {
    base: I,
    fuse: &'f AtomicBool,
}

impl<I> Drop for FuseIter<'_, I> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            // Relaxed: see `Guard`.
            self.fuse.store(true, Ordering::Relaxed);
        }
    }
}

impl<I: Iterator> Iterator for FuseIter<'_, I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if blown(self.fuse) {
            None
        } else {
            self.base.next()
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.base.size_hint()
    }
}

impl<I: DoubleEndedIterator> DoubleEndedIterator for FuseIter<'_, I> {
    fn next_back(&mut self) -> Option<I::Item> {
        if blown(self.fuse) {
            None
        } else {
            self.base.next_back()
        }
    }
}

// The length is the base's: it is only cut short by a panic, which discards the result.
impl<I: ExactSizeIterator> ExactSizeIterator for FuseIter<'_, I> {}

struct FuseConsumer<'f, C> {
    base: C,
    fuse: &'f AtomicBool,
}

impl<'f, T, C: Consumer<T>> Consumer<T> for FuseConsumer<'f, C> {
    type Folder = FuseFolder<'f, C::Folder>;
    type Reducer = FuseReducer<'f, C::Reducer>;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, Self::Reducer) {
        let (l, r, reducer) = self.base.split_at(index);
        (
            FuseConsumer {
                base: l,
                fuse: self.fuse,
            },
            FuseConsumer {
                base: r,
                fuse: self.fuse,
            },
            FuseReducer {
                base: reducer,
                fuse: self.fuse,
            },
        )
    }

    fn into_folder(self) -> Self::Folder {
        FuseFolder {
            base: self.base.into_folder(),
            fuse: self.fuse,
        }
    }

    fn full(&self) -> bool {
        blown(self.fuse) || self.base.full()
    }
}

impl<T, C: UnindexedConsumer<T>> UnindexedConsumer<T> for FuseConsumer<'_, C> {
    fn split_off_left(&self) -> Self {
        FuseConsumer {
            base: self.base.split_off_left(),
            fuse: self.fuse,
        }
    }

    fn to_reducer(&self) -> Self::Reducer {
        FuseReducer {
            base: self.base.to_reducer(),
            fuse: self.fuse,
        }
    }
}

/// Guards the reduction too: an operator that panics there blows the fuse as well.
struct FuseReducer<'f, R> {
    base: R,
    fuse: &'f AtomicBool,
}

impl<T, R: Reducer<T>> Reducer<T> for FuseReducer<'_, R> {
    fn reduce(self, left: T, right: T) -> T {
        let _guard = Guard(self.fuse);
        self.base.reduce(left, right)
    }
}

struct FuseFolder<'f, F> {
    base: F,
    fuse: &'f AtomicBool,
}

impl<T, F: Folder<T>> Folder<T> for FuseFolder<'_, F> {
    type Result = F::Result;

    fn consume(self, item: T) -> Self {
        let _guard = Guard(self.fuse);
        FuseFolder {
            base: self.base.consume(item),
            fuse: self.fuse,
        }
    }

    fn consume_iter<It: IntoIterator<Item = T>>(self, iter: It) -> Self {
        let _guard = Guard(self.fuse);
        let fuse = self.fuse;
        // Stop between items once another piece has panicked.
        let base = self
            .base
            .consume_iter(iter.into_iter().take_while(|_| !blown(fuse)));
        FuseFolder { base, fuse }
    }

    fn complete(self) -> F::Result {
        let _guard = Guard(self.fuse);
        self.base.complete()
    }

    fn full(&self) -> bool {
        blown(self.fuse) || self.base.full()
    }
}

//! `take_any`, `skip_any`, `take_any_while`, `skip_any_while`: the order-free cousins of
//! `take`/`skip`/`take_while`/`skip_while`. Each is a gate shared by all pieces of the run
//! (an atomic counter or flag) in front of the consumer: which items pass depends on which
//! piece reaches the gate first, not on their positions. Once a `take_*` gate has closed,
//! the consumer reports itself full so pieces stop early.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::ParallelIterator;

/// A gate deciding, item by item, what reaches the consumer.
trait Gate<T>: Sync {
    /// Whether `item` passes (and counts it, for the counting gates).
    fn pass(&self, item: &T) -> bool;
    /// Whether no item will pass any more.
    fn closed(&self) -> bool;
}

/// Takes one from `left` if any is left; whether it did.
fn take_one(left: &AtomicUsize) -> bool {
    // Relaxed: the count is the only shared state; no other memory is published with it.
    left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
        .is_ok()
}

struct TakeGate(AtomicUsize);
struct SkipGate(AtomicUsize);
struct TakeWhileGate<P> {
    taking: AtomicBool,
    pred: P,
}
struct SkipWhileGate<P> {
    skipping: AtomicBool,
    pred: P,
}

impl<T> Gate<T> for TakeGate {
    fn pass(&self, _: &T) -> bool {
        take_one(&self.0)
    }
    fn closed(&self) -> bool {
        // Relaxed: a stale non-zero only delays the early stop by an item.
        self.0.load(Ordering::Relaxed) == 0
    }
}

impl<T> Gate<T> for SkipGate {
    fn pass(&self, _: &T) -> bool {
        !take_one(&self.0)
    }
    fn closed(&self) -> bool {
        false
    }
}

impl<T, P: Fn(&T) -> bool + Sync> Gate<T> for TakeWhileGate<P> {
    fn pass(&self, item: &T) -> bool {
        // Relaxed: the flag carries no data; a racing item may still pass, as documented.
        if !self.taking.load(Ordering::Relaxed) {
            return false;
        }
        if (self.pred)(item) {
            true
        } else {
            self.taking.store(false, Ordering::Relaxed);
            false
        }
    }
    fn closed(&self) -> bool {
        // Relaxed: as in `pass`.
        !self.taking.load(Ordering::Relaxed)
    }
}

impl<T, P: Fn(&T) -> bool + Sync> Gate<T> for SkipWhileGate<P> {
    fn pass(&self, item: &T) -> bool {
        // Relaxed: the flag carries no data.
        if !self.skipping.load(Ordering::Relaxed) {
            return true;
        }
        if (self.pred)(item) {
            false
        } else {
            self.skipping.store(false, Ordering::Relaxed);
            true
        }
    }
    fn closed(&self) -> bool {
        false
    }
}

struct GateConsumer<'g, C, G> {
    base: C,
    gate: &'g G,
}

impl<'g, T, C, G> Consumer<T> for GateConsumer<'g, C, G>
where
    C: UnindexedConsumer<T>,
    G: Gate<T>,
{
    type Folder = GateFolder<'g, C::Folder, G>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, _index: usize) -> (Self, Self, C::Reducer) {
        // Items may not pass, so input positions say nothing about the base's.
        let left = self.split_off_left();
        let reducer = self.base.to_reducer();
        (left, self, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        GateFolder {
            base: self.base.into_folder(),
            gate: self.gate,
        }
    }

    fn full(&self) -> bool {
        self.gate.closed() || self.base.full()
    }
}

impl<T, C, G> UnindexedConsumer<T> for GateConsumer<'_, C, G>
where
    C: UnindexedConsumer<T>,
    G: Gate<T>,
{
    fn split_off_left(&self) -> Self {
        GateConsumer {
            base: self.base.split_off_left(),
            gate: self.gate,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct GateFolder<'g, F, G> {
    base: F,
    gate: &'g G,
}

impl<T, F, G> Folder<T> for GateFolder<'_, F, G>
where
    F: Folder<T>,
    G: Gate<T>,
{
    type Result = F::Result;

    fn consume(self, item: T) -> Self {
        if self.gate.pass(&item) {
            GateFolder {
                base: self.base.consume(item),
                gate: self.gate,
            }
        } else {
            self
        }
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.gate.closed() || self.base.full()
    }
}

macro_rules! gated {
    ($(#[$doc:meta])* $name:ident<I $(, $p:ident)?> { $($field:ident: $ty:ty),* }, |$this:ident| $gate:expr, $debug:ident) => {
        $(#[$doc])*
        #[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
        #[derive(Clone)]
        pub struct $name<I $(, $p)?> {
            base: I,
            $($field: $ty),*
        }

        // The base and the count, never the predicate (closures have no `Debug`), as
        // rayon prints them.
        impl<I: std::fmt::Debug $(, $p)?> std::fmt::Debug for $name<I $(, $p)?> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let mut s = f.debug_struct(stringify!($name));
                s.field("base", &self.base);
                gated!(@$debug s, self);
                s.finish()
            }
        }

        impl<I $(, $p)?> $name<I $(, $p)?> {
            pub(super) fn new(base: I, $($field: $ty),*) -> Self {
                $name { base, $($field),* }
            }
        }

        impl<I: ParallelIterator $(, $p: Fn(&I::Item) -> bool + Sync + Send)?> ParallelIterator
            for $name<I $(, $p)?>
        {
            type Item = I::Item;

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: UnindexedConsumer<I::Item>,
            {
                let $this = self;
                let gate = $gate;
                $this.base.drive_unindexed(GateConsumer {
                    base: consumer,
                    gate: &gate,
                })
            }
        }
    };
    (@count $s:ident, $this:ident) => {{
        $s.field("n", &$this.n);
    }};
    (@predicate $s:ident, $this:ident) => {};
}

gated! {
    /// The iterator of [`ParallelIterator::take_any`].
    TakeAny<I> { n: usize },
    |this| TakeGate(AtomicUsize::new(this.n)),
    count
}
gated! {
    /// The iterator of [`ParallelIterator::skip_any`].
    SkipAny<I> { n: usize },
    |this| SkipGate(AtomicUsize::new(this.n)),
    count
}
gated! {
    /// The iterator of [`ParallelIterator::take_any_while`].
    TakeAnyWhile<I, P> { predicate: P },
    |this| TakeWhileGate { taking: AtomicBool::new(true), pred: this.predicate },
    predicate
}
gated! {
    /// The iterator of [`ParallelIterator::skip_any_while`].
    SkipAnyWhile<I, P> { predicate: P },
    |this| SkipWhileGate { skipping: AtomicBool::new(true), pred: this.predicate },
    predicate
}

//! The Chase-Lev deque (as in the low-latency thesis), with the C11 orderings of Lê, Pop,
//! Cohen and Zappa Nardelli (PPoPP 2013).
//!
//! ```text
//! logical index:   top ........................ bottom
//!                   [ tasks: oldest .. newest ]
//! buffer (power of two, circular): slot = index & (capacity - 1)
//! ```
//!
//! - `top` and `bottom` are unbounded (wrapping `usize`) logical indices; `top` only ever
//!   grows, so no ABA tag is needed. Live tasks are `[top, bottom)`.
//! - [`Owner::push`] writes `slot(bottom)` and raises `bottom`. When the buffer is full it
//!   first **grows**: a buffer of twice the size receives `[top, bottom)` and is published.
//!   Push never returns [`Full`].
//! - [`Owner::pop`] (`take`) lowers `bottom`, executes a `SeqCst` fence, reads `top`, and
//!   races thieves with a CAS on `top` for the last task. After a successful pop that leaves
//!   fewer than `capacity / K` tasks (`K` = [`SHRINK_K`] = 4) it **shrinks** to half the
//!   size, never below the initial capacity; growing again needs `capacity / 2` tasks,
//!   twice the shrink threshold, so grow/shrink cannot thrash.
//! - [`Stealer::steal`] reads `top`, fences, reads `bottom`, reads the buffer and its slot,
//!   and CASes `top` to `top + 1`; it never retries ([`Steal::Abort`] on a lost race).
//!
//! # Reclaiming retired buffers
//!
//! A thief may load the buffer pointer and read a slot long after the owner replaced the
//! buffer, so a retired buffer cannot simply be freed. Epoch-based reclamation would bring
//! in `crossbeam-epoch` and a pin per steal; hazard pointers need a registry of thieves.
//! Instead this deque **never frees a buffer while the deque lives** and bounds memory by
//! **keeping at most one buffer per power-of-two size class**: a grow or shrink to size
//! `c` reuses the retired buffer of size `c` if there is one, else allocates it. Every
//! buffer is freed when the last handle drops. Memory is at most
//! `initial + 2 + 4 + ... + max ≤ 2 · max` slots, where `max` is the largest size reached.
//!
//! Reuse means a stale thief can read a slot that the owner has since rewritten for a
//! *different* logical index (the same slot modulo the size). Why it still succeeds its CAS
//! only with the right task: a thief `T` reads `top = t`, then (after its fence) a
//! `bottom > t`, then the buffer `A`, then `x = A[t mod |A|]`, then CASes `top` from `t`.
//! Call `task(t)` the task at logical index `t` as pushed before the `bottom` `T` read.
//!
//! 1. *While `top` stays `t`, logical index `t` holds `task(t)` in every buffer that ever
//!    holds it.* A grow or shrink copies `[top, bottom)` unchanged, and the owner can only
//!    push a new task at index `t` after popping `t`. By the fence argument below, popping
//!    index `t` while a thief is between its `top = t` read and its CAS means the owner's
//!    fenced `top` read returns `t` (so it races for `t` with a CAS on `top`: if it wins,
//!    `T`'s CAS fails) or more than `t` (then `T`'s CAS already happened).
//! 2. *Any other write to `A[t mod |A|]` that `T` could read happens after `T`'s CAS.* Such
//!    a write stores logical index `j ≠ t`, `j ≡ t (mod |A|)`. If `j ≥ t + |A|`, the owner
//!    wrote it with `bottom - top_read < |A|`, so it had read `top > t`; if `j < t`, the
//!    owner's `bottom` was `≤ t` when it wrote, so it had lowered `bottom` through `t` after
//!    the `bottom` value `T` read, and by (1) its fenced `top` read returned `> t` or it won
//!    index `t` by CAS. Every owner read of `top` is **Acquire** (including the owner's
//!    failed CAS), and `T`'s CAS is a release RMW, so in every surviving case `T`'s CAS
//!    happens before the owner's write, and `T`'s earlier slot read cannot read it
//!    (no read takes its value from a write that happens after it).
//! 3. *The writes of `task(t)` that `T` could read are at least as new as the stale ones.*
//!    The `bottom` `T` read was stored (Release) after the push of `task(t)`, and the buffer
//!    pointer `T` reads (Acquire, after `bottom`) is the one current at that store or a later
//!    one, whose publication (Release) follows its copy of `[top, bottom)`, which contains `t`
//!    by (1)–(2). So a write of `task(t)` to `A[t mod |A|]` happens before `T`'s slot read and
//!    after every earlier write to that slot.
//!
//! Hence `x = task(t)` whenever the CAS succeeds; when it fails `x` is discarded. Slots are
//! atomics because such stale reads are normal. The loom models in `deque/loom_models.rs`
//! exercise growth and reuse with a concurrent thief.
//!
//! # Memory orderings (C11/Rust)
//!
//! - `pop`: `bottom` store, **`SeqCst` fence**, `top` load; thief: `top` load, **`SeqCst`
//!   fence**, `bottom` load, CAS (Lê et al.). If the owner's fence comes first in the
//!   fences' total order, the thief sees the lowered `bottom`; otherwise the owner sees at
//!   least the `top` the thief saw, and for the last task both CAS and exactly one wins.
//! - Every `bottom` store is Release (Lê et al. use relaxed stores in `take`, but since C++20
//!   a relaxed store ends the release sequence of the push that published the slots).
//! - The buffer pointer is stored with Release after the copy and loaded with Acquire
//!   after the thief's `bottom` load.
//! - A thief reads `bottom` once before its fence and returns [`Steal::Empty`] when the
//!   deque looks empty, so failed attempts on empty deques execute no fence.
//!
//! # Owner-side caches
//!
//! The owner keeps its own copies of `bottom` (it is the only writer), of the buffer, and of
//! a lower bound of `top` (the last value it read; `top` only grows). So a push reads `top`
//! only when the buffer *might* be full, and a pop on a deque the owner already saw empty
//! (`bottom == top_bound`, hence `top == bottom`) returns `None` without a fence.
//!
//! # Synchronization per operation (counted in [`crate::stats`])
//!
//! | operation | fences | CAS |
//! |---|---|---|
//! | push (growing or not) | 0 | 0 |
//! | pop, deque had ≥ 2 tasks | 1 | 0 |
//! | pop of the last task | 1 | 1 |
//! | pop after thieves emptied the deque | 1 | 0 |
//! | pop when the owner already saw the deque empty | 0 | 0 |
//! | steal that finds the deque empty | 0 | 0 |
//! | steal otherwise | 1 | 1 |

use std::marker::PhantomData;
use std::ptr::NonNull;

use crossbeam_utils::CachePadded;

use super::{Full, Owner, Steal, Stealer, Task};
use crate::stats::{count_cas, seq_cst_fence, Side};
use crate::sync::{Arc, AtomicPtr, AtomicUsize, Ordering};

/// The deque shrinks when a pop leaves fewer than `capacity / SHRINK_K` tasks (the low-latency thesis: K ≥ 3).
pub const SHRINK_K: usize = 4;

/// Number of power-of-two size classes (`1 << k` slots for `k < SIZE_CLASSES`).
const SIZE_CLASSES: usize = usize::BITS as usize;

/// A circular array of `2^k` atomic slots.
struct Buffer {
    slots: Box<[AtomicPtr<()>]>,
}

impl Buffer {
    /// A new buffer as a raw pointer (owned by the deque's pool until the deque drops).
    fn alloc(capacity: usize) -> *mut Buffer {
        debug_assert!(capacity.is_power_of_two());
        Box::into_raw(Box::new(Buffer {
            slots: (0..capacity)
                .map(|_| AtomicPtr::new(std::ptr::null_mut()))
                .collect(),
        }))
    }

    #[inline(always)]
    fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// The slot of logical index `i`.
    #[inline(always)]
    fn slot(&self, i: usize) -> &AtomicPtr<()> {
        // SAFETY: the length is a power of two, so `i & (len - 1) < len`.
        unsafe { self.slots.get_unchecked(i & (self.slots.len() - 1)) }
    }
}

/// The state shared by the owner and the thieves.
struct Inner {
    /// Index of the oldest task; only grows (thieves' CAS, and the owner's for the last task).
    top: CachePadded<AtomicUsize>,
    /// One past the newest task. Written by the owner only.
    bottom: CachePadded<AtomicUsize>,
    /// The current buffer. Written by the owner only; points into `pool`.
    buffer: CachePadded<AtomicPtr<Buffer>>,
    /// Every buffer ever allocated, at most one per size class (index `log2(capacity)`),
    /// freed on drop. Owner-only bookkeeping: `std` atomics even under loom (there is no
    /// concurrent access to model), relaxed.
    pool: [std::sync::atomic::AtomicPtr<Buffer>; SIZE_CLASSES],
}

impl Inner {
    /// The buffer of `capacity` slots: the retired one of that size class, else a new one.
    /// Called by the owner only.
    fn buffer_of(&self, capacity: usize) -> *mut Buffer {
        let class = &self.pool[capacity.trailing_zeros() as usize];
        // Relaxed: owner-only bookkeeping (see `pool`).
        let mut buffer = class.load(Ordering::Relaxed);
        if buffer.is_null() {
            buffer = Buffer::alloc(capacity);
            // Relaxed: as above.
            class.store(buffer, Ordering::Relaxed);
        }
        buffer
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        for class in &mut self.pool {
            let buffer = *class.get_mut();
            if !buffer.is_null() {
                // SAFETY: allocated by `Buffer::alloc` (`Box::into_raw`), stored once in its
                // class, and no handle is left to use it.
                drop(unsafe { Box::from_raw(buffer) });
            }
        }
    }
}

/// The owner's handle of a Chase-Lev deque: `Send`, not `Sync`, not `Clone`.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::deque::{ChaseLev, Owner, Steal, Stealer};
/// use std::num::NonZeroUsize;
///
/// let task = |i| NonZeroUsize::new(i).unwrap();
/// let mut owner: ChaseLev<NonZeroUsize> = ChaseLev::with_capacity(2);
/// let thief = owner.stealer();
/// for i in 1..=5 {
///     owner.push(task(i)).unwrap(); // grows 2 -> 4 -> 8: never full
/// }
/// assert_eq!(owner.capacity(), 8);
/// assert_eq!(thief.steal(), Steal::Success(task(1))); // oldest at the top
/// assert_eq!(owner.pop(), Some(task(5))); // newest at the bottom
/// assert_eq!(owner.pop(), Some(task(4)));
/// assert_eq!(owner.pop(), Some(task(3))); // 1 task left < 8 / 4: shrinks to 4
/// assert_eq!(owner.capacity(), 4);
/// ```
///
/// The owner handle is not `Sync`:
/// ```compile_fail
/// # use splitsteal_core as splitsteal;
/// fn sync<T: Sync>() {}
/// sync::<splitsteal::deque::ChaseLev<std::num::NonZeroUsize>>();
/// ```
/// nor `Clone`:
/// ```compile_fail
/// # use splitsteal_core as splitsteal;
/// fn clone<T: Clone>() {}
/// clone::<splitsteal::deque::ChaseLev<std::num::NonZeroUsize>>();
/// ```
pub struct ChaseLev<T: Task> {
    inner: Arc<Inner>,
    /// The owner's copy of `bottom` (it is the only writer).
    bottom: usize,
    /// A lower bound of `top`: the last value this owner read (`top` only grows).
    top_bound: usize,
    /// The current buffer (the owner is the only writer of `inner.buffer`).
    buffer: NonNull<Buffer>,
    /// The initial capacity, below which the deque never shrinks.
    min_capacity: usize,
    /// `!Sync` and `Send` (see `OwnerMarker`).
    _marker: super::OwnerMarker<T>,
}

// SAFETY: `buffer` points into the `Inner` this handle keeps alive through `inner`, and
// buffers hold only atomics; moving the (sole) owner handle to another thread moves the
// owner role with it, which is allowed.
unsafe impl<T: Task> Send for ChaseLev<T> {}

/// A thief's handle of a Chase-Lev deque: `Send + Sync + Clone`.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::deque::{ChaseLev, Owner, Steal, Stealer};
/// use std::num::NonZeroUsize;
///
/// let mut owner: ChaseLev<NonZeroUsize> = ChaseLev::with_capacity(8);
/// owner.push(NonZeroUsize::new(5).unwrap()).unwrap();
/// let thief = owner.stealer();
/// let got = std::thread::spawn(move || thief.steal()).join().unwrap();
/// assert_eq!(got, Steal::Success(NonZeroUsize::new(5).unwrap()));
/// ```
pub struct ChaseLevStealer<T: Task> {
    inner: Arc<Inner>,
    _marker: PhantomData<fn() -> T>,
}

impl<T: Task> Clone for ChaseLevStealer<T> {
    fn clone(&self) -> Self {
        ChaseLevStealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }
}

impl<T: Task> ChaseLev<T> {
    /// The current buffer's capacity (a power of two).
    pub fn capacity(&self) -> usize {
        self.buffer().capacity()
    }

    #[inline(always)]
    fn buffer(&self) -> &Buffer {
        // SAFETY: `self.buffer` is in `inner.pool`, freed only when `inner` drops.
        unsafe { self.buffer.as_ref() }
    }

    /// Moves `[top, bottom)` into the buffer of `capacity` slots and publishes it.
    #[cold]
    fn resize(&mut self, capacity: usize, top: usize) {
        let new = self.inner.buffer_of(capacity);
        debug_assert_ne!(new, self.buffer.as_ptr(), "resize to the current size");
        // SAFETY: `new` is in the pool, alive as long as `inner`.
        let new_ref = unsafe { &*new };
        let old = self.buffer();
        let mut i = top;
        while i != self.bottom {
            // Relaxed both: the owner wrote these slots; thieves reach the new ones only
            // through the Release store of the buffer pointer below.
            new_ref
                .slot(i)
                .store(old.slot(i).load(Ordering::Relaxed), Ordering::Relaxed);
            i = i.wrapping_add(1);
        }
        // Release: a thief that loads this pointer (Acquire) sees the copied slots.
        self.inner.buffer.store(new, Ordering::Release);
        // SAFETY: `new` came from `Box::into_raw`, never null.
        self.buffer = unsafe { NonNull::new_unchecked(new) };
    }
}

impl<T: Task> Owner<T> for ChaseLev<T> {
    type Stealer = ChaseLevStealer<T>;

    /// A deque whose buffer starts (and never shrinks below) `capacity` rounded up to a
    /// power of two (at least 1).
    fn with_capacity(capacity: usize) -> Self {
        let capacity = capacity.max(1).next_power_of_two();
        let inner = Inner {
            top: CachePadded::new(AtomicUsize::new(0)),
            bottom: CachePadded::new(AtomicUsize::new(0)),
            buffer: CachePadded::new(AtomicPtr::new(std::ptr::null_mut())),
            pool: [const { std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()) }; SIZE_CLASSES],
        };
        let buffer = inner.buffer_of(capacity);
        // Relaxed: not shared yet (the `Arc` below publishes it).
        inner.buffer.store(buffer, Ordering::Relaxed);
        ChaseLev {
            inner: Arc::new(inner),
            bottom: 0,
            top_bound: 0,
            // SAFETY: `Box::into_raw` never returns null.
            buffer: unsafe { NonNull::new_unchecked(buffer) },
            min_capacity: capacity,
            _marker: PhantomData,
        }
    }

    fn stealer(&self) -> ChaseLevStealer<T> {
        ChaseLevStealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }

    /// Writes the slot and raises `bottom`; grows first when the buffer is full. No fence,
    /// no CAS; reads `top` only when the buffer might be full.
    #[inline]
    fn push(&mut self, task: T) -> Result<(), Full<T>> {
        let bottom = self.bottom;
        let capacity = self.capacity();
        if bottom.wrapping_sub(self.top_bound) >= capacity {
            // Acquire: see the module doc, point 2 (a thief's CAS happens before the writes
            // this read allows).
            self.top_bound = self.inner.top.load(Ordering::Acquire);
            if bottom.wrapping_sub(self.top_bound) >= capacity {
                self.resize(capacity * 2, self.top_bound);
            }
        }
        // Relaxed: published by the Release store of `bottom` below.
        self.buffer()
            .slot(bottom)
            .store(task.into_raw().as_ptr(), Ordering::Relaxed);
        // Release: a thief that reads `bottom + 1` (Acquire) sees the slot and the buffer.
        self.inner
            .bottom
            .store(bottom.wrapping_add(1), Ordering::Release);
        self.bottom = bottom.wrapping_add(1);
        Ok(())
    }

    /// `take`: one fence (none if the owner already knows the deque is empty); a CAS too
    /// for the last task; may shrink the buffer.
    #[inline]
    fn pop(&mut self) -> Option<T> {
        if self.bottom == self.top_bound {
            // `top_bound <= top <= bottom`: empty, and only this owner can refill it.
            return None;
        }
        let inner = &*self.inner;
        let bottom = self.bottom.wrapping_sub(1);
        // Release: keeps the slots below published to a thief that reads this value.
        inner.bottom.store(bottom, Ordering::Release);
        // StoreLoad: thieves must see the lowered `bottom` before we read `top`, or both
        // sides could take index `bottom`.
        seq_cst_fence(Side::Owner);
        // Acquire: module doc, point 2.
        let top = inner.top.load(Ordering::Acquire);
        let size = bottom.wrapping_sub(top) as isize;
        if size < 0 {
            // Thieves emptied it: restore `bottom` (= `top`). Release: as above.
            inner.bottom.store(self.bottom, Ordering::Release);
            self.top_bound = top;
            return None;
        }
        // Relaxed: written by this thread.
        let raw = self.buffer().slot(bottom).load(Ordering::Relaxed);
        if size == 0 {
            // The last task: race the thieves for it.
            count_cas(Side::Owner);
            // SeqCst on success: totally ordered with the thieves' CAS. Acquire on failure:
            // module doc, point 2 (the winning thief's CAS happens before our next writes).
            let won = inner
                .top
                .compare_exchange(
                    top,
                    top.wrapping_add(1),
                    Ordering::SeqCst,
                    Ordering::Acquire,
                )
                .is_ok();
            // Either way `top` is now `top + 1`: the deque is empty. Release: as above.
            inner.bottom.store(self.bottom, Ordering::Release);
            self.top_bound = top.wrapping_add(1);
            if !won {
                return None;
            }
        } else {
            self.bottom = bottom;
            self.top_bound = top;
            let capacity = self.capacity();
            if capacity > self.min_capacity && (size as usize) < capacity / SHRINK_K {
                self.resize(capacity / 2, top);
            }
        }
        // SAFETY: slots of `[top, bottom)` hold values stored by `push` (never null).
        Some(unsafe { T::from_raw(NonNull::new_unchecked(raw)) })
    }

    fn len(&self) -> usize {
        // Relaxed: a snapshot.
        let top = self.inner.top.load(Ordering::Relaxed);
        (self.bottom.wrapping_sub(top) as isize).max(0) as usize
    }
}

impl<T: Task> Stealer<T> for ChaseLevStealer<T> {
    /// Nothing synchronizing when the deque looks empty, else 1 fence + 1 CAS.
    #[inline]
    fn steal(&self) -> Steal<T> {
        let inner = &*self.inner;
        // Acquire: orders the loads below after it (Lê et al.).
        let top = inner.top.load(Ordering::Acquire);
        // Acquire: the slots below the value read, and their buffer, are visible.
        if bottom_le(inner.bottom.load(Ordering::Acquire), top) {
            // Looks empty: report it without paying for a fence.
            return Steal::Empty;
        }
        // Fence, then re-read `bottom`: if our CAS comes after the owner's fence in `pop`,
        // this read sees its lowered `bottom` (Lê et al.'s steal fence).
        seq_cst_fence(Side::Thief);
        // Acquire: as above.
        if bottom_le(inner.bottom.load(Ordering::Acquire), top) {
            return Steal::Empty;
        }
        // Acquire: pairs with the Release publication of a resized buffer (its copied
        // slots are visible); at least the buffer current at the `bottom` store we read.
        let buffer = inner.buffer.load(Ordering::Acquire);
        // SAFETY: buffers live until the deque (our `inner`) drops.
        let buffer = unsafe { &*buffer };
        // Relaxed: speculative, used only if the CAS succeeds (module doc, points 1–3).
        let raw = buffer.slot(top).load(Ordering::Relaxed);
        count_cas(Side::Thief);
        // SeqCst: the linearization point, totally ordered with the owner's fence and CAS
        // (and a release the owner's Acquire reads of `top` pair with). Relaxed on failure:
        // nothing is read through it.
        match inner.top.compare_exchange(
            top,
            top.wrapping_add(1),
            Ordering::SeqCst,
            Ordering::Relaxed,
        ) {
            Ok(_) => match NonNull::new(raw) {
                // SAFETY: the CAS succeeded, so `raw` is the task pushed at index `top`.
                Some(raw) => Steal::Success(unsafe { T::from_raw(raw) }),
                None => unreachable!("Chase-Lev: claimed an unwritten slot"),
            },
            Err(_) => Steal::Abort,
        }
    }

    fn is_empty(&self) -> bool {
        // Acquire both: a snapshot, `top` first as in `steal`.
        let top = self.inner.top.load(Ordering::Acquire);
        bottom_le(self.inner.bottom.load(Ordering::Acquire), top)
    }
}

/// `bottom <= top` on wrapping indices (the live range is far below `isize::MAX`).
#[inline(always)]
fn bottom_le(bottom: usize, top: usize) -> bool {
    (bottom.wrapping_sub(top) as isize) <= 0
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::deque::testkit::{self, t};
    use crate::stats::SyncCounts;
    use std::num::NonZeroUsize;

    fn allocated(d: &ChaseLev<NonZeroUsize>) -> Vec<usize> {
        d.inner
            .pool
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.load(Ordering::Relaxed).is_null())
            .map(|(k, _)| 1 << k)
            .collect()
    }

    #[test]
    fn lifo_for_the_owner_fifo_for_thieves() {
        testkit::lifo_for_the_owner_fifo_for_thieves(ChaseLev::with_capacity(4), 4);
    }

    #[test]
    fn grows_when_full_and_shrinks_below_a_quarter() {
        let mut d: ChaseLev<NonZeroUsize> = ChaseLev::with_capacity(3);
        assert_eq!(d.capacity(), 4);
        for i in 1..=4 {
            d.push(t(i)).unwrap();
        }
        assert_eq!(d.capacity(), 4);
        d.push(t(5)).unwrap();
        assert_eq!(d.capacity(), 8);
        for i in 6..=17 {
            d.push(t(i)).unwrap();
        }
        assert_eq!(d.capacity(), 32);
        assert_eq!(allocated(&d), vec![4, 8, 16, 32]);
        let mut want = 17;
        while d.len() >= 8 {
            assert_eq!(d.pop(), Some(t(want)));
            want -= 1;
        }
        // 7 tasks left < 32 / 4: halved.
        assert_eq!((d.len(), d.capacity()), (7, 16));
        for _ in 0..4 {
            assert_eq!(d.pop(), Some(t(want)));
            want -= 1;
        }
        // 3 < 16 / 4.
        assert_eq!((d.len(), d.capacity()), (3, 8));
        while let Some(v) = d.pop() {
            assert_eq!(v, t(want));
            want -= 1;
        }
        assert_eq!(want, 0);
        // Never below the initial capacity.
        assert_eq!(d.capacity(), 4);
        // Growing again reuses the retired buffers: nothing new is allocated.
        for i in 1..=32 {
            d.push(t(i)).unwrap();
        }
        assert_eq!(d.capacity(), 32);
        assert_eq!(allocated(&d), vec![4, 8, 16, 32]);
        for i in (1..=32).rev() {
            assert_eq!(d.pop(), Some(t(i)));
        }
    }

    #[test]
    fn growth_copies_the_live_range_after_wraparound() {
        let mut d: ChaseLev<NonZeroUsize> = ChaseLev::with_capacity(4);
        let s = d.stealer();
        let mut next = 1;
        let mut oldest = 1;
        // Move the live range around the circular buffer a few times.
        for _ in 0..10 {
            for _ in 0..3 {
                d.push(t(next)).unwrap();
                next += 1;
            }
            for _ in 0..3 {
                assert_eq!(s.steal(), Steal::Success(t(oldest)));
                oldest += 1;
            }
        }
        for _ in 0..6 {
            d.push(t(next)).unwrap();
            next += 1;
        }
        assert_eq!(d.capacity(), 8);
        while oldest < next {
            assert_eq!(s.steal(), Steal::Success(t(oldest)));
            oldest += 1;
        }
        assert_eq!(d.pop(), None);
    }

    #[test]
    fn stale_buffer_read_of_the_same_index_is_the_same_task() {
        let mut d: ChaseLev<NonZeroUsize> = ChaseLev::with_capacity(2);
        let s = d.stealer();
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        // A thief loads the old buffer...
        let stale = d.inner.buffer.load(Ordering::Acquire);
        d.push(t(3)).unwrap(); // grows
        assert_ne!(d.inner.buffer.load(Ordering::Acquire), stale);
        // ...and reads index `top` from it: the same task as in the new buffer.
        // SAFETY: buffers live as long as the deque.
        let raw = unsafe { &*stale }.slot(0).load(Ordering::Relaxed);
        assert_eq!(raw.addr(), 1);
        assert_eq!(s.steal(), Steal::Success(t(1)));
    }

    #[test]
    fn synchronization_per_path() {
        let mut d: ChaseLev<NonZeroUsize> = ChaseLev::with_capacity(2);
        let s = d.stealer();
        let delta = |f: &mut dyn FnMut()| {
            let before = SyncCounts::current_thread();
            f();
            SyncCounts::current_thread() - before
        };
        let c = delta(&mut || {
            for i in 1..=3 {
                d.push(t(i)).unwrap(); // grows once
            }
        });
        assert_eq!(c, SyncCounts::default());
        let c = delta(&mut || assert_eq!(d.pop(), Some(t(3))));
        assert_eq!((c.owner.fences, c.owner.cas), (1, 0));
        let c = delta(&mut || assert_eq!(s.steal(), Steal::Success(t(1))));
        assert_eq!((c.thief.fences, c.thief.cas, c.owner.total()), (1, 1, 0));
        let c = delta(&mut || assert_eq!(d.pop(), Some(t(2))));
        assert_eq!((c.owner.fences, c.owner.cas), (1, 1));
        let c = delta(&mut || assert_eq!(d.pop(), None));
        assert_eq!(c, SyncCounts::default());
        let c = delta(&mut || assert_eq!(s.steal(), Steal::Empty));
        assert_eq!(c, SyncCounts::default());
        d.push(t(4)).unwrap();
        assert_eq!(s.steal(), Steal::Success(t(4)));
        // The owner has not seen the steal: one fence to find out.
        let c = delta(&mut || assert_eq!(d.pop(), None));
        assert_eq!((c.owner.fences, c.owner.cas), (1, 0));
        let c = delta(&mut || assert_eq!(d.pop(), None));
        assert_eq!(c, SyncCounts::default());
    }

    #[test]
    fn owner_and_thieves_take_each_task_once() {
        let n: usize = if cfg!(miri) { 200 } else { 20_000 };
        let d: ChaseLev<NonZeroUsize> = ChaseLev::with_capacity(2);
        testkit::owner_and_thieves_take_each_task_once(d, n, |d, mine| {
            let mut next = 1;
            let mut round = 0usize;
            while next <= n {
                // Bursts of growing length, then pops: exercises grow and shrink.
                round += 1;
                for _ in 0..(round % 23) {
                    if next <= n {
                        d.push(t(next)).unwrap();
                        next += 1;
                    }
                }
                for _ in 0..(round % 19) {
                    mine.extend(d.pop().map(NonZeroUsize::get));
                }
            }
        });
    }

    #[test]
    fn handle_types() {
        fn send_sync_clone<S: Send + Sync + Clone>() {}
        fn send<S: Send>() {}
        send_sync_clone::<ChaseLevStealer<NonZeroUsize>>();
        send::<ChaseLev<NonZeroUsize>>();
    }
}

//! The row: the memory an owner's push and pop touch, shared by the two deques whose push
//! and pop run inline in `join` ([`Split`](super::Split) and [`Asym`](super::Asym)).
//!
//! ```text
//! line     the lowest index the owner may pop without asking anyone (low 32 bits)
//! bottom   bot: one past the newest task (the owner writes it, thieves read it)
//!          limit: the owner's room (owner only)
//! requests a byte thieves set to ask the owner for something
//! slots    index i in slot i
//! ```
//!
//! Both deques push the same way (write the slot, then raise `bot`) and pop the same way
//! (lower `bot`, a fence, then read the line: an index at or above it is the owner's
//! alone). What the line *means* differs, and that is the whole difference between them at
//! the owner's end:
//!
//! - in the split deque it is `public_bot`, which only the owner (and a signal handler on
//!   its thread) writes: below it tasks are public, above it private, and the fence is a
//!   compiler fence against that handler;
//! - in the asymmetric deque it is the end of what thieves have taken or are taking, which
//!   thieves write, and the fence is the owner's half of an asymmetric fence
//!   ([`crate::wakeup::light_fence`]).
//!
//! So the runtime's `join` keeps one pointer to its worker's row and runs one push and one
//! pop on it, whichever of the two deques the pool uses, testing no kind: an index below
//! the line, a full row and a set request byte each send the owner out of line, where its
//! deque takes over. A pool of any other deque gives `join` a *gate* ([`Row::gate`]), a row
//! with no room whose request byte is always set.
//!
//! Indices and `bot` stay below 2³¹ (a row has at most [`MAX_SLOTS`] slots), so an index
//! fits the line's 32 bits, and `bot` may read as −1 (`usize::MAX`) for a moment: the pop
//! lowers it before it looks, which saves it a test of `bot` against 0; every reader
//! compares it signed.

use std::cell::UnsafeCell;
use std::ptr::NonNull;

use crossbeam_utils::CachePadded;

use crate::sync::{compiler_fence, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering};

/// A row with slots `S` (`[AtomicPtr<()>]` in use; a sized array only while it is built).
#[repr(C)]
pub(crate) struct RowOf<S: ?Sized> {
    /// The lowest index the owner may pop on its own, in the low 32 bits (the deques keep
    /// what else they need above them). On its own line: under the asymmetric deque
    /// thieves write it.
    pub(crate) line: CachePadded<AtomicU64>,
    /// `bot` and the owner's `limit`, on one line that only the owner writes.
    bottom: CachePadded<Bottom>,
    /// A byte thieves set to ask the owner for something, which the owner reads after its
    /// pushes and before its pops from the row it already holds (the runtime keeps its
    /// `Wanted` bits here). The deques never read it, except for [`Row::OWNER_FENCES`] and
    /// [`Row::CLAIM_POSTED`].
    /// Its own line: thieves write it.
    pub(crate) requests: CachePadded<AtomicU8>,
    /// Index `i` in slot `i`.
    pub(crate) slots: S,
}

/// The owner's line of the row.
struct Bottom {
    /// One past the newest task. Written by the owner only.
    bot: AtomicUsize,
    /// The owner may push while `bot < limit`: the deque's room, which it refreshes out of
    /// line when `bot` gets there (each deque's "Capacity" section). Only the owner's
    /// thread reads or writes it (a signal handler on it never does): a plain value, so
    /// that the push compares `bot` with it in memory (an atomic load would cost the push
    /// an instruction more).
    limit: UnsafeCell<usize>,
}

// SAFETY: `limit`, the one field that is not an atomic, is touched only by the owner's
// thread (`Row::limit` and `Row::set_limit` are for the owner alone, as the deques' owner
// handles are `!Sync`); every other field is an atomic.
unsafe impl<S: ?Sized + Sync> Sync for RowOf<S> {}

/// The row in use.
pub(crate) type Row = RowOf<[AtomicPtr<()>]>;

impl Row {
    /// The request bit of an asymmetric deque whose owner must fence its pops (the heavy
    /// fence is unavailable): a pop then always leaves the inline path. The runtime's own
    /// wants use the bits below it.
    pub(crate) const OWNER_FENCES: u8 = 0x80;

    /// The request bit of an asymmetric deque's thief whose claim waits for the owner's
    /// answer: the owner's next push or pop goes out of line and answers it. Set and
    /// cleared by the thief.
    pub(crate) const CLAIM_POSTED: u8 = 0x40;

    /// A row of `slots` empty slots: `bot`, the line and `limit` at 0.
    pub(crate) fn new(slots: usize) -> Box<Row> {
        use std::alloc::{alloc, handle_alloc_error, Layout};
        assert!(
            slots <= MAX_SLOTS,
            "deque row: {slots} slots is over 2^31 - 1"
        );
        let (layout, offset) = Layout::new::<RowOf<[AtomicPtr<()>; 0]>>()
            .extend(Layout::array::<AtomicPtr<()>>(slots).expect("deque row: too many slots"))
            .expect("deque row: too many slots");
        // `Box`'s deallocation uses the value's own layout: a `repr(C)` struct pads its
        // size to its alignment, as this does.
        let layout = layout.pad_to_align();
        // SAFETY: the layout has a non-zero size (the cache-padded header).
        let raw = unsafe { alloc(layout) };
        if raw.is_null() {
            handle_alloc_error(layout);
        }
        // SAFETY: `raw` is a fresh allocation of `layout`, which holds the header (the
        // sized `RowOf` with no slots) at 0 and `slots` slots at `offset`, as the
        // `repr(C)` layout of `Row` places them; every field is written before the `Box`
        // is made, and the slice pointer's length is the slot count (the metadata a
        // `RowOf<[_]>` pointer carries).
        unsafe {
            raw.cast::<RowOf<[AtomicPtr<()>; 0]>>().write(RowOf {
                line: CachePadded::new(AtomicU64::new(0)),
                bottom: CachePadded::new(Bottom {
                    bot: AtomicUsize::new(0),
                    limit: UnsafeCell::new(0),
                }),
                requests: CachePadded::new(AtomicU8::new(0)),
                slots: [],
            });
            let first = raw.add(offset).cast::<AtomicPtr<()>>();
            for i in 0..slots {
                first.add(i).write(AtomicPtr::new(std::ptr::null_mut()));
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(raw, slots) as *mut Row)
        }
    }

    /// A row that takes nothing, for an owner that tries the inline push and pop before it
    /// looks at what its deque really is (the runtime's `join`, in a pool of another
    /// deque): no room (so [`Row::try_push_then`] hands every task back), and the request
    /// byte always set (so the pop never starts). Nobody writes it.
    pub(crate) fn gate() -> Box<Row> {
        let gate = Row::new(0);
        // Relaxed: nobody else has the row yet.
        gate.requests.store(u8::MAX, Ordering::Relaxed);
        gate
    }

    /// `bot`: the owner writes it, thieves (and a signal handler on the owner's thread)
    /// read it.
    #[inline(always)]
    pub(crate) fn bot(&self) -> &AtomicUsize {
        &self.bottom.bot
    }

    /// `bot`, read by its only writer.
    #[inline(always)]
    pub(crate) fn own_bot(&self) -> usize {
        // Relaxed: only the owner's thread writes `bot`.
        self.bottom.bot.load(Ordering::Relaxed)
    }

    /// The owner's room: it may push while `bot < limit`. Only the owner's thread may
    /// call it.
    #[inline(always)]
    pub(crate) fn limit(&self) -> usize {
        // SAFETY: only the owner's thread reads or writes `limit` (see `Bottom::limit`), one
        // access at a time.
        unsafe { *self.bottom.limit.get() }
    }

    /// Sets the owner's room. Only the owner's thread may call it.
    #[inline(always)]
    pub(crate) fn set_limit(&self, limit: usize) {
        // SAFETY: as in `limit`.
        unsafe { *self.bottom.limit.get() = limit };
    }

    /// The slot of index `i`, which is below a `bot` or line the reader loaded (or the
    /// owner's own `bot`).
    #[inline(always)]
    pub(crate) fn slot(&self, i: usize) -> &AtomicPtr<()> {
        debug_assert!(i < self.slots.len());
        // SAFETY: `bot` never exceeds `slots.len()` (the push stops at `limit`, at most
        // the last slot) and every reader reads slots below a `bot` it loaded, or below a
        // line that never exceeds `bot` by the deque's own argument.
        unsafe { self.slots.get_unchecked(i) }
    }

    /// The owner's inline push: at `bot` if that is below `limit`, then `look` at the
    /// request byte. At `limit` it hands `task` back untouched, and the owner goes out of
    /// line to its deque's push, which refreshes the room.
    ///
    /// Only the owner's thread may call it.
    #[inline(always)]
    pub(crate) fn try_push_then<R>(
        &self,
        task: NonNull<()>,
        look: impl FnOnce(&AtomicU8) -> R,
    ) -> Result<R, NonNull<()>> {
        let bot = self.own_bot();
        if bot == self.limit() {
            return Err(task);
        }
        Ok(self.push_at(bot, task, look))
    }

    /// The push proper, at index `bot` (the owner's `bot`, below `limit`), then `look` at
    /// the request byte (the runtime puts its light fence there).
    #[inline(always)]
    pub(crate) fn push_at<R>(
        &self,
        bot: usize,
        task: NonNull<()>,
        look: impl FnOnce(&AtomicU8) -> R,
    ) -> R {
        // Relaxed: published by the `bot` store below (Release), or under the split deque
        // by the exposure's Release store of the line.
        self.slot(bot).store(task.as_ptr(), Ordering::Relaxed);
        // A signal fence: the slot is written before a signal handler on this thread can
        // see it below `bot` (the split deque's rule 1). Free at run time.
        compiler_fence(Ordering::SeqCst);
        // Release: a thief of the asymmetric deque that loads this `bot` with Acquire sees
        // the slot below it (`mov` on x86, `stlr` on Arm: neither a fence nor an RMW).
        self.bottom.bot.store(bot + 1, Ordering::Release);
        look(&self.requests)
    }

    /// The owner's inline pop: lowers `bot`, runs `fence`, then reads the line. The newest
    /// task if its index is at or above the line; `None` otherwise, with `bot` restored
    /// (the row as it was), and the owner goes out of line to its deque's pop.
    ///
    /// `fence` orders the `bot` store before the line load: a compiler fence against a
    /// signal handler (split deque), the owner's half of the asymmetric fence (asymmetric
    /// deque). `interrupted` runs between the two, where a handler may interrupt (a no-op
    /// except in tests).
    ///
    /// Only the owner's thread may call it.
    #[inline(always)]
    pub(crate) fn pop_above_line(
        &self,
        fence: impl FnOnce(),
        interrupted: &mut impl FnMut(),
    ) -> Option<NonNull<()>> {
        let bot = self.own_bot();
        // −1 when the deque is empty at index 0: the signed compare below then undoes the
        // pop, with no test of `bot` against 0 first.
        let new_bot = bot.wrapping_sub(1);
        // Relaxed: single writer. Lowered *before* the line is read (the Dekker half the
        // fence orders).
        self.bottom.bot.store(new_bot, Ordering::Relaxed);
        fence();
        interrupted();
        // Relaxed: the value alone decides; the owner reads no data published with it.
        let line = self.line.load(Ordering::Relaxed);
        if below_line(new_bot, line) {
            // Relaxed: single writer.
            self.bottom.bot.store(bot, Ordering::Relaxed);
            return None;
        }
        // Relaxed: the slot was written by this thread in `push_at`.
        let raw = self.slot(new_bot).load(Ordering::Relaxed);
        // SAFETY: slots below `bot` hold values stored by `push_at` (never null).
        Some(unsafe { NonNull::new_unchecked(raw) })
    }
}

/// Whether index `i` (which may be −1 as a `usize`) lies below the index kept in the low
/// 32 bits of a line: both as signed 32-bit numbers, exact for indices below 2³¹ (each
/// deque keeps its slots below that: [`MAX_SLOTS`]). A 32-bit compare needs no extension
/// of the line's half, an instruction less per pop.
#[inline(always)]
pub(crate) fn below_line(i: usize, line: u64) -> bool {
    (i as u32 as i32) < (line as u32 as i32)
}

/// The most slots a row has: every index and `bot` stay below 2³¹.
pub(crate) const MAX_SLOTS: usize = (1 << 31) - 1;

/// The most slots beyond the capacity that a deque's indices may drift into.
const MAX_SLACK: usize = 1 << 20;

/// The slots of a row-based deque of `capacity` (a power of two, at most 2³⁰, which
/// `deque` asserts): the capacity and as many again, at most [`MAX_SLACK`] more, the room
/// its indices drift into while thieves take the oldest tasks before the owner moves its
/// tasks down.
pub(crate) fn row_slots(capacity: usize, deque: &str) -> usize {
    assert!(
        capacity <= 1 << 30,
        "{deque} capacity {capacity} is over 2^30 tasks"
    );
    capacity + capacity.min(MAX_SLACK)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn task(i: usize) -> NonNull<()> {
        NonNull::new(std::ptr::without_provenance_mut(i)).unwrap()
    }

    /// The inline pair on a bare row: pushes up to `limit`, pops down to the line, and a
    /// failed pop leaves the row as it was.
    #[test]
    fn push_to_the_limit_and_pop_down_to_the_line() {
        let row = Row::new(8);
        row.set_limit(3);
        let look = |r: &AtomicU8| r.load(Ordering::Relaxed);
        for i in 1..=3 {
            assert_eq!(row.try_push_then(task(i), look), Ok(0));
        }
        assert_eq!(row.try_push_then(task(4), look), Err(task(4)));
        row.line.store(1, Ordering::Relaxed);
        let mut none = || {};
        assert_eq!(row.pop_above_line(|| {}, &mut none), Some(task(3)));
        assert_eq!(row.pop_above_line(|| {}, &mut none), Some(task(2)));
        assert_eq!(row.pop_above_line(|| {}, &mut none), None);
        assert_eq!(row.own_bot(), 1);
        row.line.store(0, Ordering::Relaxed);
        assert_eq!(row.pop_above_line(|| {}, &mut none), Some(task(1)));
        // Empty at index 0: `bot` goes to −1 for the look and comes back.
        assert_eq!(row.pop_above_line(|| {}, &mut none), None);
        assert_eq!(row.own_bot(), 0);
    }

    /// Only the line's low 32 bits are an index: what a deque keeps above them does not
    /// move it.
    #[test]
    fn only_the_low_half_of_the_line_is_an_index() {
        assert!(below_line(4, 5 | (7 << 32)));
        assert!(!below_line(5, 5 | (u64::MAX << 32)));
        assert!(below_line(usize::MAX, 0));
        assert!(!below_line(MAX_SLOTS, MAX_SLOTS as u64));
        assert!(below_line(MAX_SLOTS - 1, MAX_SLOTS as u64));
    }

    /// A gate takes nothing and never pops.
    #[test]
    fn a_gate_takes_nothing() {
        let gate = Row::gate();
        assert_ne!(gate.requests.load(Ordering::Relaxed), 0);
        assert_eq!(gate.try_push_then(task(1), |_| ()), Err(task(1)));
        assert_eq!(gate.limit(), 0);
    }
}

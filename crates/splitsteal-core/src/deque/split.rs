//! The LCWS split deque (LCWS paper, Algorithm 2, LCWS-in-practice paper, Listing 2).
//!
//! ```text
//! index (unbounded):  top ........... public_bot ............ bot
//!                      [ public part: stolen  ][ private part: owner only ]
//!                         with a CAS on `age`     plain loads and stores
//! slot = index: `capacity` slots and as many again (at most 2²⁰ more)
//! ```
//!
//! - The **private part** `[public_bot, bot)` is the owner's call stack: [`Split::push`]
//!   and [`Split::pop_private`] use relaxed loads and stores only: no CAS, no fence, no
//!   read-modify-write (the LCWS paper Lemmas 1 and 2).
//! - The **public part** `[top, public_bot)` is an ABP deque whose bottom is `public_bot`:
//!   thieves take its top with a CAS on `age = {tag, top}`; the owner takes its bottom with
//!   [`Split::pop_public_bottom`] once the private part is empty (a fence, and a CAS for the
//!   last task, as ABP's `popBottom`).
//! - Work becomes stealable only by **exposure**: moving the *oldest* private tasks (those
//!   next to the public part) into the public part by raising `public_bot`
//!   ([`Exposure::One`], [`Exposure::Conservative`], [`Exposure::Half`]). A thief that finds
//!   the public part empty but private work present gets [`Steal::PrivateWork`] and asks
//!   the owner to expose (a polled flag or a signal: the runtime's business).
//!
//! # Exposure from a signal handler
//!
//! the LCWS-in-practice paper's signal-based LCWS exposes inside a signal handler that interrupts the owner
//! between *any* two of its instructions ([`SignalExposer`]). The handler reads `bot` and
//! `public_bot` and, if `public_bot < bot`, raises `public_bot`. Four rules make that safe,
//! each enforced with a `compiler_fence` (a signal fence: it orders the owner's accesses
//! against a handler running on the same thread, and costs nothing at run time):
//!
//! 1. **push** writes the slot *before* raising `bot`, so a handler never exposes a slot
//!    that has not been written.
//! 2. **pop_private** lowers `bot` *before* reading `public_bot` (the LCWS-in-practice paper's fix of the race on the
//!    last private task). A handler that runs before the `bot` store may still expose the
//!    task being popped, but then the owner reads the raised `public_bot`, sees the task is
//!    public and backs off; a handler that runs after the store sees the task outside
//!    `[public_bot, bot)` and cannot expose it.
//! 3. **pop_public_bottom** lowers `bot` to the new `public_bot` *before* lowering
//!    `public_bot`, and resets `bot` before `public_bot`, so during the whole operation
//!    `bot <= public_bot` and a handler finds nothing private to expose.
//! 4. **expose**, the owner's own ([`Split::expose`]), reads `bot` and `public_bot` and then
//!    stores `public_bot + n`. A handler that raised `public_bot` in between would be undone
//!    by that stale store: `public_bot` would drop under `top`, and tasks thieves had taken
//!    would count as private again and be popped by the owner too. So the owner
//!    raises a same-thread guard (`ExposeGuard::active`) before its first read and lowers it
//!    after its store, with a signal fence on each side. A handler that finds the guard
//!    raised writes neither `bot` nor `public_bot`: it counts its request in
//!    `ExposeGuard::deferred` and returns 0. Still under the guard, the owner then serves
//!    every counted request (reading `bot` and `public_bot` afresh, after the handler), lowers
//!    the guard, and looks at the counts once more: a handler that ran between its last look
//!    and the lowering counted a request that no one served yet, so it goes round again.
//!    At every interruption point the handler is safe: before the guard is raised or after
//!    it is lowered, the owner holds no value read from `public_bot` that it will store
//!    from; while it is raised, the handler stores nothing the owner has read. Every request
//!    counted during a call is served before the call returns, and is included in its result.
//!
//! The owner's other stores that depend on earlier reads are covered by rules 2 and 3:
//! `pop_private`'s undo stores `bot`, which only the owner writes, and both it and
//! `pop_public_bottom` store `public_bot` or `bot` only while `bot <= public_bot`, when a
//! handler changes nothing (`pop_public_bottom` must be called with the private part empty,
//! as `pop` does; a debug assertion checks it). Handlers that expose the same deque must not
//! interrupt one another (a signal is blocked while its own handler runs; the runtime uses
//! one signal).
//!
//! `pop_private` on a deque whose indices are at 0 lowers `bot` to −1 (`usize::MAX`) for the
//! moment of its check, which saves the pop a test of `bot` against 0 (every join pays
//! it). So every reader other than the owner's own code compares `bot` as a signed
//! index ([`signed`]): the handler then sees `bot < public_bot`, nothing private, as rule 2
//! wants; a thief's racy look sees no private work. Indices stay far below 2⁶³ (at one push
//! per nanosecond they would need 292 years to get there).
//!
//! Deviation from the LCWS-in-practice paper, on purpose: when the private part is empty, `pop_private` restores
//! `bot` at once instead of leaving it one below `public_bot` for `pop_public_bottom` to
//! repair. During the restore `bot` is `public_bot - 1` then `public_bot`, so a handler
//! still sees no private work; the deque is left unchanged by a failed pop, which keeps
//! `pop_private` usable on its own.
//!
//! # Memory orderings (C11/Rust, not only x86-TSO)
//!
//! - Slot and `bot` accesses are relaxed: only the owner writes them; thieves read a slot
//!   only after an Acquire load of `public_bot` that covers it.
//! - The guard of rule 4 is relaxed and ordered by signal fences: only the owner's thread
//!   (the owner, or a handler interrupting it) ever touches it. It is a `std` atomic even
//!   under loom: no other thread exists for loom to model.
//! - Every store to `public_bot` is Release: it publishes the slots below it.
//! - `pop_public_bottom` fences (`SeqCst`) between its `public_bot` store and its `age`
//!   load (ABP's StoreLoad fence), and loads `age` with Acquire so that a thief's
//!   speculative slot read cannot see the owner's later writes; a thief fences between its `age` load and its
//!   `public_bot` load (the Lê et al. pattern), but only once it has seen a non-empty public
//!   part, so failing attempts on empty deques execute no fence.
//! - Resets store `public_bot = 0` before publishing the new tag with a Release store or
//!   the CAS, and thieves load `age` with Acquire, so a thief that sees the new tag sees
//!   the reset bottom (this replaces the LCWS-in-practice paper's trailing fence).
//!
//! # Capacity: slots in a row, moved down when they run out
//!
//! Index `i` lives in slot `i`: the owner's push and pop address their slot with no mask
//! (a ring cost each join two instructions more: the mask's load and the `and`). Indices
//! go back to 0 when the public part runs dry in `pop_public_bottom`, but they drift up
//! while thieves steal and the owner keeps pushing (a producer spawning in a loop), so
//! there are `capacity` slots and as many again (at most 2²⁰ more; a capacity of at most 2³⁰) to drift
//! into. When `bot` reaches the last slot, the push's cold path moves the tasks down
//! ([`Split::compact_now`]): if none is public, the private ones go to indices `0..n` and
//! a new epoch starts (a new tag, `top = 0`), as `pop_public_bottom`'s reset does; a stale
//! thief fails its CAS on the new tag, and its speculative read of a moved slot is
//! discarded with it (as in [`Abp`](super::Abp)'s "Reusing slots"). It runs under rule 4's
//! guard, so a signal handler defers its exposure until the tasks are down.
//!
//! The deque is **full when it holds `capacity` tasks**, public and private together, or
//! when `bot` is at the last slot while a task is still public (a thief may be claiming
//! it, so nothing can move): a push then returns [`Full`] with the task (the runtime runs
//! a join's task inline and queues a spawn elsewhere), until thieves have taken the public
//! part. Each move frees at least as many slots as the drift room holds beyond the tasks
//! moved, so a producer that never pops moves at most about one task per push. The owner
//! keeps `limit`, the lower of the last slot and `capacity` above a lower bound of `top`,
//! so the private push makes one compare (`bot == limit`) and reads `age` (with Acquire;
//! no fence, no CAS, no read-modify-write) only when the deque *might* be full. A signal
//! handler reads and writes neither `limit` nor the slots.
//!
//! Every index stays below 2³¹, so [`Age::distance`] of two indices of any two epochs is
//! their true difference: a thief reads slot `top` only after seeing `top` below a
//! `public_bot`, which never exceeds the slot count.

use std::marker::PhantomData;
use std::ptr::NonNull;
// Rule 4's guard: same-thread only, so `std`'s even under loom (see the module doc).
use std::sync::atomic::{AtomicBool as ThreadAtomicBool, AtomicUsize as ThreadAtomicUsize};

use crossbeam_utils::CachePadded;

use super::row::Row;
use super::{Age, Full, Owner, Steal, Stealer, Task};
use crate::stats::{seq_cst_fence, Side};
use crate::sync::{compiler_fence, Arc, AtomicPtr, AtomicU64, AtomicU8, Ordering};

/// How many private tasks one exposure request moves to the public part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Exposure {
    /// The oldest private task (the LCWS paper's `UPDATEBOTTOM`, LCWS-in-practice paper, "Signal").
    #[default]
    One,
    /// The oldest private task, but never the last one (LCWS-in-practice paper, "Cons").
    Conservative,
    /// ⌈r/2⌉ of the r private tasks, oldest first (LCWS-in-practice paper, "Half").
    Half,
}

impl Exposure {
    /// Every variant, in [`Exposure::index`] order.
    const ALL: [Exposure; 3] = [Exposure::One, Exposure::Conservative, Exposure::Half];

    /// The variant's position in [`Exposure::ALL`].
    #[inline]
    fn index(self) -> usize {
        self as usize
    }

    /// How many of `private` tasks this rule exposes.
    #[inline]
    pub fn count(self, private: usize) -> usize {
        match self {
            Exposure::One => private.min(1),
            Exposure::Conservative => usize::from(private >= 2),
            // ⌈r/2⌉: round-half-up of r/2, as `std::round` in the LCWS-in-practice paper (r = 1 and 2 give 1).
            Exposure::Half => private.div_ceil(2),
        }
    }
}

/// What the owner does under rule 4's guard ([`Split::guarded`]).
#[derive(Clone, Copy)]
enum Guarded {
    /// Its own exposure ([`Split::expose`]).
    Expose(Exposure),
    /// Moving its tasks down to index 0 ([`Split::compact_now`]).
    Compact,
}

/// Rule 4 of the module doc: the owner's own exposure against a signal handler's. Touched
/// only on the owner's thread, by the owner and by a handler that interrupted it.
#[derive(Default)]
struct ExposeGuard {
    /// Raised while the owner's [`Split::expose`] reads and writes `public_bot`; a handler
    /// that finds it raised defers its request instead of exposing.
    active: ThreadAtomicBool,
    /// Requests deferred by handlers, counted per [`Exposure`] (wrapping). Written by
    /// handlers only; the owner counts the ones it served in [`Split::served`].
    deferred: [ThreadAtomicUsize; 3],
}

/// The state shared by the owner, the thieves and a signal handler.
struct Inner {
    /// `{tag, top}`: written by thieves (CAS) and by the owner on resets.
    age: CachePadded<AtomicU64>,
    /// Rule 4: on its own line, so that the owner's writes to it never disturb thieves.
    guard: CachePadded<ExposeGuard>,
    /// The bottoms and the slots.
    row: Box<Row>,
    /// How many tasks the deque holds at most, public and private together.
    capacity: usize,
}

/// The split deque's name for its row's line (the shared row of `super::row`): the split
/// point, `public_bot`, which only the owner's thread writes. It never uses the line's
/// high half, so the whole word is the index.
trait PublicBot {
    fn public_bot(&self, order: Ordering) -> usize;
    fn set_public_bot(&self, public_bot: usize, order: Ordering);
}

impl PublicBot for Row {
    #[inline(always)]
    fn public_bot(&self, order: Ordering) -> usize {
        self.line.load(order) as usize
    }

    #[inline(always)]
    fn set_public_bot(&self, public_bot: usize, order: Ordering) {
        self.line.store(public_bot as u64, order);
    }
}

/// An index as a signed number: `bot` may read as −1 during `pop_private` (module doc).
#[inline(always)]
fn signed(index: usize) -> isize {
    index as isize
}

impl Inner {
    fn new(capacity: usize) -> Inner {
        let capacity = super::ring_slots(capacity, "split deque");
        // Room to drift into, keeping every index below 2³¹ (module doc).
        let slots = super::row::row_slots(capacity, "split deque");
        Inner {
            age: CachePadded::new(AtomicU64::new(0)),
            guard: CachePadded::new(ExposeGuard::default()),
            row: Row::new(slots),
            capacity,
        }
    }

    /// Moves `how.count(r)` of the r private tasks to the public part. Runs on the owner's
    /// thread only: in [`Split::expose`] (under rule 4's guard), or in a signal handler
    /// that did not interrupt the owner's own exposure (see the module doc for why every
    /// other interruption point is safe). `interrupted` runs where a handler may interrupt
    /// a read-then-write (a no-op except in tests, which expose there as a handler would).
    #[inline(always)]
    fn expose_now(&self, how: Exposure, interrupted: &mut impl FnMut()) -> usize {
        // Relaxed: `bot` and `public_bot` are written only by this thread (the interrupted
        // owner); the owner's compiler fences order its writes against this handler.
        let bot = self.row.bot().load(Ordering::Relaxed);
        interrupted();
        // Relaxed: as above.
        let public_bot = self.row.public_bot(Ordering::Relaxed);
        // Signed: `bot` is −1 while a pop on an empty deque checks it (module doc).
        if signed(bot) <= signed(public_bot) {
            return 0;
        }
        let n = how.count(bot - public_bot);
        interrupted();
        if n > 0 {
            // Release: publishes the slots written by `push` before `bot` was raised over
            // them (same hardware thread, kept in program order by push's compiler fence).
            self.row.set_public_bot(public_bot + n, Ordering::Release);
        }
        n
    }
}

/// The owner's handle of a split deque: `Send`, not `Sync`, not `Clone`.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::deque::{Exposure, Owner, Split, Steal, Stealer};
/// use std::num::NonZeroUsize;
///
/// let task = |i| NonZeroUsize::new(i).unwrap();
/// let mut owner: Split<NonZeroUsize> = Split::with_capacity(16);
/// let thief = owner.stealer();
/// owner.push(task(1)).unwrap();
/// owner.push(task(2)).unwrap();
/// // Private work is invisible to thieves until the owner exposes it...
/// assert_eq!(thief.steal(), Steal::PrivateWork);
/// assert_eq!(owner.expose(Exposure::One), 1);
/// // ...and then the oldest task is stolen.
/// assert_eq!(thief.steal(), Steal::Success(task(1)));
/// assert_eq!(owner.pop(), Some(task(2)));
/// assert_eq!(thief.steal(), Steal::Empty);
/// ```
///
/// The owner handle is not `Sync`:
/// ```compile_fail
/// # use splitsteal_core as splitsteal;
/// fn sync<T: Sync>() {}
/// sync::<splitsteal::deque::Split<std::num::NonZeroUsize>>();
/// ```
/// nor `Clone`:
/// ```compile_fail
/// # use splitsteal_core as splitsteal;
/// fn clone<T: Clone>() {}
/// clone::<splitsteal::deque::Split<std::num::NonZeroUsize>>();
/// ```
pub struct Split<T: Task> {
    inner: Arc<Inner>,
    /// The owner's copy of the row's address (`inner.row`): the hot path reaches both
    /// bottoms and the slots from it, without going through the `Arc`. (`bot` stays in the
    /// row, on a line only the owner writes: a copy here would cost a second store per
    /// push and pop.)
    /// The row's `limit` is the lower of the last slot and `capacity` above a lower bound
    /// of `top` in the current epoch: `bot < limit` means there is room (see "Capacity" in
    /// the module doc).
    row: NonNull<Row>,
    /// Rule 4: how many of the requests handlers deferred (`ExposeGuard::deferred`, per
    /// [`Exposure`], wrapping) this owner has served.
    served: [usize; 3],
    /// `!Sync` and `Send` (see `OwnerMarker`).
    _marker: super::OwnerMarker<T>,
}

// SAFETY: `row` points at the row of the `Inner` kept alive by `inner`; the handle moves between
// threads as a whole (it is `!Sync`, so only one thread uses it at a time).
unsafe impl<T: Task> Send for Split<T> {}

/// A thief's handle of a split deque: `Send + Sync + Clone`.
pub struct SplitStealer<T: Task> {
    inner: Arc<Inner>,
    _marker: PhantomData<fn() -> T>,
}

impl<T: Task> Clone for SplitStealer<T> {
    fn clone(&self) -> Self {
        SplitStealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }
}

/// A raw handle that exposes private tasks of one split deque from a signal handler.
///
/// It holds no reference count (a handler must not touch an `Arc`), so its user keeps the
/// deque alive and calls [`SignalExposer::expose`] only on the owner's thread.
#[derive(Debug, Clone, Copy)]
pub struct SignalExposer {
    inner: NonNull<()>,
}

// SAFETY: a plain address; all use goes through the unsafe `expose`, whose contract
// (owner thread, deque alive) is what makes the access sound.
unsafe impl Send for SignalExposer {}
// SAFETY: as above.
unsafe impl Sync for SignalExposer {}

impl SignalExposer {
    /// Exposes private tasks as [`Split::expose`] does and returns how many. It executes
    /// no CAS, no fence and no read-modify-write, allocates nothing and takes no lock, so
    /// it is async-signal-safe.
    ///
    /// If it interrupted the owner's own [`Split::expose`], it exposes nothing and returns 0:
    /// it leaves its request to that call, which serves it before returning and counts it in
    /// its own result (rule 4 of the module doc).
    ///
    /// # Safety
    /// The deque this handle came from must be alive, and the call must run on the
    /// owner's thread: either between the owner's deque operations or in a signal handler
    /// that interrupted that thread.
    #[inline]
    pub unsafe fn expose(&self, how: Exposure) -> usize {
        // SAFETY: the caller keeps the deque (and so `Inner`) alive.
        let inner = unsafe { self.inner.cast::<Inner>().as_ref() };
        let guard = &inner.guard;
        // Relaxed: written only on this thread (the owner's `expose`, which we interrupted
        // if it is raised; its signal fences order it against us).
        if guard.active.load(Ordering::Relaxed) {
            let deferred = &guard.deferred[how.index()];
            // Relaxed, and a load then a store rather than a read-modify-write: only handlers
            // write the count, one at a time, on this thread; the owner only reads it.
            deferred.store(
                deferred.load(Ordering::Relaxed).wrapping_add(1),
                Ordering::Relaxed,
            );
            return 0;
        }
        inner.expose_now(how, &mut || {})
    }
}

impl<T: Task> Split<T> {
    /// The deque's fixed capacity: how many tasks (public and private) it holds at most
    /// (the `capacity` it was built with, rounded up to a power of two).
    pub fn capacity(&self) -> usize {
        self.inner.capacity
    }

    /// The slot of index `i`, which is below `bot`.
    #[inline(always)]
    fn slot(&self, i: usize) -> &AtomicPtr<()> {
        self.row().slot(i)
    }

    /// `push` found `bot == limit`. At the last slot, moves the tasks down to index 0 if
    /// none is public ([`Split::compact_now`]); then reads `top` afresh and moves `limit` up to
    /// `capacity` above it (at most to the last slot). Returns whether there is room now.
    #[cold]
    #[inline(never)]
    fn refresh_limit(&mut self) -> bool {
        self.refresh_limit_interruptible(&mut || {})
    }

    /// [`Split::refresh_limit`], with `interrupted` run where a signal handler may interrupt
    /// the compaction (a no-op except in tests).
    #[inline(always)]
    fn refresh_limit_interruptible(&mut self, interrupted: &mut impl FnMut()) -> bool {
        let end = self.inner.row.slots.len();
        if self.own_bot() == end && !self.guarded(Guarded::Compact, interrupted).1 {
            return false;
        }
        // Acquire: the claims of the slots we are about to reuse (the thieves' CAS) happen
        // before our rewrites of those slots (see "Reusing slots" in `Abp`'s module doc).
        let top = Age::unpack(self.inner.age.load(Ordering::Acquire)).top;
        let bot = self.own_bot();
        // Within the owner's epoch (it made the last reset), `top <= public_bot <= bot`
        // between operations.
        let live = Age::distance(top, bot);
        debug_assert!((0..=self.capacity() as i64).contains(&i64::from(live)));
        let limit = (bot - live as usize + self.capacity()).min(end);
        self.row().set_limit(limit);
        bot != limit
    }

    /// The compaction step of [`Split::refresh_limit`], under rule 4's guard (so no handler
    /// exposes meanwhile): if no task is public, moves the private ones to indices
    /// `0..n` and starts a new epoch (a new tag, `top = 0`), as `pop_public_bottom`'s
    /// reset does. Returns whether it did; with a public task left it does nothing (the
    /// push then reports [`Full`] until thieves have taken the public part).
    ///
    /// No thief can take a task under the `age` read here: with `top == public_bot` a
    /// claim needs a thief to have read a `public_bot` above `top` under the same `age`,
    /// and within one `age` value `public_bot` only rises (exposures) or falls to values
    /// above `top` (`pop_public_bottom` without a reset): it was `top` all along. So the
    /// new tag is a plain store, not a CAS, and the owner still executes no
    /// read-modify-write. A thief still holding the old `age` fails its CAS on the new
    /// tag; its speculative read of a moved slot is discarded with it.
    fn compact_now(&mut self, interrupted: &mut impl FnMut()) -> bool {
        let inner = &*self.inner;
        // Acquire: as in `refresh_limit` (we rewrite slots the thieves claimed).
        let old = Age::unpack(inner.age.load(Ordering::Acquire));
        // Relaxed: written by this thread only (a handler defers under the guard).
        let public_bot = inner.row.public_bot(Ordering::Relaxed);
        if Age::distance(old.top, public_bot) != 0 {
            return false;
        }
        let bot = self.own_bot();
        for i in 0..bot - public_bot {
            // Relaxed, both: private slots, written and read by this thread only; thieves
            // read them only after an exposure's Release store.
            let task = self.slot(public_bot + i).load(Ordering::Relaxed);
            self.slot(i).store(task, Ordering::Relaxed);
            interrupted();
        }
        // `bot` down first, then `public_bot`, so that `bot <= public_bot` until the moved
        // tasks are private again (rule 3's order, though the guard already holds handlers
        // off). Relaxed: single writer.
        inner.row.bot().store(0, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        // Release: ordered before the new tag below, as in `pop_public_bottom`'s reset.
        inner.row.set_public_bot(0, Ordering::Release);
        let new_age = Age {
            tag: old.tag.wrapping_add(1),
            top: 0,
        };
        // Release: a thief that reads the new tag also reads the reset `public_bot`.
        inner.age.store(new_age.pack(), Ordering::Release);
        compiler_fence(Ordering::SeqCst);
        interrupted();
        // Relaxed: single writer; the moved tasks are private again.
        inner.row.bot().store(bot - public_bot, Ordering::Relaxed);
        true
    }

    /// `bot`, read by its only writer.
    #[inline(always)]
    fn own_bot(&self) -> usize {
        self.row().own_bot()
    }

    /// [`Owner::push`], then `look` at the request byte thieves set for the owner (see
    /// `RowOf::requests`) through the row the push just used: no load more for its address.
    /// `look` runs after the push's last store (the runtime puts its fence there).
    #[inline(always)]
    pub(crate) fn push_then<R>(
        &mut self,
        task: T,
        look: impl FnOnce(&AtomicU8) -> R,
    ) -> Result<R, Full<T>> {
        let mut bot = self.own_bot();
        if bot == self.row().limit() {
            if !self.refresh_limit() {
                return Err(Full(task));
            }
            // A compaction moved the tasks down.
            bot = self.own_bot();
        }
        // Rule 1 is the row's: the slot is written before `bot` rises over it.
        Ok(self.row().push_at(bot, task.into_raw(), look))
    }

    /// The row the owner pushes and pops on: the runtime's `join` runs its inline push and
    /// pop on it directly (`Row::try_push_then`, `Row::pop_above_line`), and comes back to
    /// [`Split::push_then`] or [`Split::pop_public_bottom`] when they hand back.
    #[inline(always)]
    pub(crate) fn row(&self) -> &Row {
        // SAFETY: `row` points at `inner.row`, which lives as long as `inner` (and so as
        // `self`) and is only ever shared (its fields are atomics).
        unsafe { self.row.as_ref() }
    }

    /// Pops the newest private task: relaxed loads and stores only. `None` when the private
    /// part is empty (the LCWS paper's `RACE`); then [`Split::pop_public_bottom`] may still find work.
    #[inline(always)]
    pub fn pop_private(&mut self) -> Option<T> {
        self.pop_private_interruptible(&mut || {})
    }

    /// [`Split::pop_private`], with `interrupted` run where a signal handler may interrupt
    /// it between its `bot` store and its `public_bot` load (a no-op except in tests, which
    /// expose there as a handler would).
    ///
    /// Rule 2 of the module doc is the row's pop: `bot` is lowered *before* `public_bot` is
    /// read (the LCWS-in-practice paper's fix), with a signal fence between, so from the
    /// store on a signal handler cannot expose slot `bot - 1`; if `public_bot` came out
    /// above it (the private part was empty, or a handler just exposed its last task), the
    /// pop is undone, and while `bot` is `public_bot - 1` or `public_bot` a handler sees
    /// no private work.
    #[inline(always)]
    fn pop_private_interruptible(&mut self, interrupted: &mut impl FnMut()) -> Option<T> {
        let raw = self
            .row()
            .pop_above_line(|| compiler_fence(Ordering::SeqCst), interrupted)?;
        // SAFETY: the row holds values stored by `push_then` (`into_raw` of a `T`).
        Some(unsafe { T::from_raw(raw) })
    }

    /// Pops the bottom task of the public part, racing thieves for the last one (ABP's
    /// `popBottom` on `public_bot`). Call it only when the private part is empty; `None`
    /// when the public part is empty too. Executes nothing synchronizing if no task was
    /// exposed since the last reset.
    pub fn pop_public_bottom(&mut self) -> Option<T> {
        let inner = &*self.inner;
        // Relaxed: the owner is the only writer of `public_bot` and `bot`.
        let public_bot = inner.row.public_bot(Ordering::Relaxed);
        if public_bot == 0 {
            return None;
        }
        debug_assert_eq!(
            self.own_bot(),
            public_bot,
            "pop_public_bottom with a non-empty private part"
        );
        let new_bot = public_bot - 1;
        // Rule 3 of the module doc: `bot` drops first, so `bot <= public_bot` throughout and
        // a signal handler finds no private work to expose. Relaxed: single writer.
        inner.row.bot().store(new_bot, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        // Release: any thief that reads this value also sees the slots below it.
        inner.row.set_public_bot(new_bot, Ordering::Release);
        // StoreLoad: thieves must see the lowered bottom before we read `top`, or both sides
        // could take slot `new_bot` (ABP popBottom's fence).
        seq_cst_fence(Side::Owner);
        // Relaxed: the slot was written by this thread.
        let raw = self.slot(new_bot).load(Ordering::Relaxed);
        // Acquire (after the fence, which the race argument needs): a thief's successful
        // CAS that we observe then happens before our later slot writes, so its speculative
        // slot read cannot return them (C11 load buffering; free on x86). As in `Abp`.
        let old = Age::unpack(inner.age.load(Ordering::Acquire));
        if Age::distance(old.top, new_bot) > 0 {
            // Another public task sits above ours: no thief can reach index `new_bot`.
            // SAFETY: slots below `public_bot` hold pushed values.
            return Some(unsafe { T::from_raw(NonNull::new_unchecked(raw)) });
        }
        // The public part is now empty: reset the indices to 0 under a new tag so that a
        // thief holding the old `age` fails its CAS (ABA). `bot` first (rule 3).
        inner.row.bot().store(0, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        // Release: ordered before the new tag is published below.
        inner.row.set_public_bot(0, Ordering::Release);
        // `top` is 0 once the reset is published below (whoever wins the last task).
        self.row().set_limit(self.capacity());
        Age::reset_after_pop(&inner.age, old, new_bot).then(|| {
            // SAFETY: we won the last task; its slot holds a pushed value.
            unsafe { T::from_raw(NonNull::new_unchecked(raw)) }
        })
    }

    /// Moves private tasks to the public part per `how` (oldest first) and returns how
    /// many; no CAS, no fence, no read-modify-write.
    ///
    /// A signal handler that interrupts this call leaves its exposure to it (rule 4 of the
    /// module doc): the result then includes what the handler's requests exposed.
    #[inline]
    pub fn expose(&mut self, how: Exposure) -> usize {
        self.expose_interruptible(how, &mut || {})
    }

    /// [`Split::expose`], with `interrupted` run at every point where a signal handler may
    /// interrupt it (a no-op except in tests, which expose there as a handler would).
    #[inline(always)]
    fn expose_interruptible(&mut self, how: Exposure, interrupted: &mut impl FnMut()) -> usize {
        self.guarded(Guarded::Expose(how), interrupted).0
    }

    /// Runs `first` under rule 4's guard, then serves the requests handlers deferred
    /// meanwhile. Returns how many tasks were exposed in all, and whether `first` did
    /// what it was asked (an exposure always does; a compaction may not).
    #[inline(always)]
    fn guarded(&mut self, first: Guarded, interrupted: &mut impl FnMut()) -> (usize, bool) {
        let mut first = Some(first);
        let mut done = false;
        let mut exposed = 0;
        loop {
            interrupted();
            // Rule 4. Relaxed: only this thread touches the guard; the signal fence keeps
            // the reads of `expose_now` after it.
            self.inner.guard.active.store(true, Ordering::Relaxed);
            compiler_fence(Ordering::SeqCst);
            interrupted();
            match first.take() {
                Some(Guarded::Expose(how)) => {
                    exposed += self.inner.expose_now(how, interrupted);
                    done = true;
                }
                Some(Guarded::Compact) => done = self.compact_now(interrupted),
                None => {}
            }
            interrupted();
            let inner = &*self.inner;
            let guard = &inner.guard;
            // Serve the requests of handlers that found the guard raised (this call's, as
            // none outlives a call), still under the guard.
            for (kind, served) in Exposure::ALL.into_iter().zip(&mut self.served) {
                // Relaxed: written by handlers on this thread only.
                let deferred = guard.deferred[kind.index()].load(Ordering::Relaxed);
                while *served != deferred {
                    *served = served.wrapping_add(1);
                    exposed += inner.expose_now(kind, interrupted);
                    interrupted();
                }
                interrupted();
            }
            // Signal fence: our `public_bot` store and count loads stay before the guard
            // drops. Relaxed: as above.
            compiler_fence(Ordering::SeqCst);
            guard.active.store(false, Ordering::Relaxed);
            // Signal fence: the look below stays after the guard drops; a handler that ran
            // before the drop but after our loads above deferred a request we must serve.
            compiler_fence(Ordering::SeqCst);
            interrupted();
            let pending = Exposure::ALL
                .into_iter()
                .zip(&self.served)
                // Relaxed: as above.
                .any(|(kind, &served)| {
                    guard.deferred[kind.index()].load(Ordering::Relaxed) != served
                });
            if !pending {
                return (exposed, done);
            }
        }
    }

    /// A raw exposure handle for a signal handler running on this owner's thread.
    pub fn signal_exposer(&self) -> SignalExposer {
        SignalExposer {
            inner: NonNull::from(&*self.inner).cast(),
        }
    }

    /// Tasks in the private part.
    #[inline(always)]
    pub fn private_len(&self) -> usize {
        // Relaxed: written by this thread (or a signal handler on it).
        let public_bot = self.inner.row.public_bot(Ordering::Relaxed);
        // `bot >= public_bot` between owner operations: a handler raises `public_bot` at
        // most to `bot`, and only `pop_*` lowers `bot` (never below `public_bot` on exit).
        self.own_bot() - public_bot
    }

    /// Tasks in the public part (a snapshot: thieves may be taking them).
    pub fn public_len(&self) -> usize {
        // Relaxed: a snapshot for the owner's information only.
        let public_bot = self.inner.row.public_bot(Ordering::Relaxed);
        let top = Age::unpack(self.inner.age.load(Ordering::Relaxed)).top;
        Age::distance(top, public_bot).max(0) as usize
    }
}

impl<T: Task> Owner<T> for Split<T> {
    type Stealer = SplitStealer<T>;

    /// A deque of `capacity` tasks rounded up to a power of two (at most 2³⁰), with room
    /// for its indices to drift (module doc, "Capacity").
    fn with_capacity(capacity: usize) -> Self {
        let inner = Arc::new(Inner::new(capacity));
        let row = NonNull::from(&*inner.row);
        inner.row.set_limit(inner.capacity);
        Split {
            row,
            served: [0; 3],
            inner,
            _marker: PhantomData,
        }
    }

    fn stealer(&self) -> SplitStealer<T> {
        SplitStealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }

    /// Pushes at the bottom of the private part: relaxed stores only. [`Full`] when the
    /// deque holds `capacity` tasks, or when `bot` is at the last slot with a task still
    /// public (module doc, "Capacity").
    #[inline(always)]
    fn push(&mut self, task: T) -> Result<(), Full<T>> {
        self.push_then(task, |_| ())
    }

    /// The private part's newest task, else the public part's bottom task.
    #[inline(always)]
    fn pop(&mut self) -> Option<T> {
        match self.pop_private() {
            Some(task) => Some(task),
            None => self.pop_public_bottom(),
        }
    }

    fn len(&self) -> usize {
        self.private_len() + self.public_len()
    }
}

impl<T: Task> SplitStealer<T> {
    /// The request byte thieves set for the owner (see `RowOf::requests`).
    pub(crate) fn requests(&self) -> &AtomicU8 {
        &self.inner.row.requests
    }

    /// Tasks in the owner's private part, as this thief sees them (a racy hint; the LCWS-in-practice paper's
    /// `has_two_tasks` for the conservative variant).
    pub fn private_len(&self) -> usize {
        // Relaxed: a heuristic snapshot; nothing is read through it.
        let bot = self.inner.row.bot().load(Ordering::Relaxed);
        let public_bot = self.inner.row.public_bot(Ordering::Relaxed);
        // Signed: `bot` may be −1 for a moment (module doc).
        signed(bot).saturating_sub(signed(public_bot)).max(0) as usize
    }

    /// Tasks in the public part, as this thief sees them (a racy hint: whether a steal
    /// could succeed now).
    pub fn public_len(&self) -> usize {
        // Acquire/Relaxed: a snapshot, as in `is_empty`.
        let top = Age::unpack(self.inner.age.load(Ordering::Acquire)).top;
        let public_bot = self.inner.row.public_bot(Ordering::Relaxed);
        Age::distance(top, public_bot).max(0) as usize
    }

    #[inline]
    fn empty_public_part(&self, public_bot: usize) -> Steal<T> {
        // Relaxed: only tells the thief whether asking for an exposure is worthwhile
        // (LCWS-in-practice paper, Listing 2 line 46, with its branches corrected: private work when
        // `public_bot < bot`, EMPTY otherwise).
        // Signed: `bot` may be −1 for a moment (module doc).
        if signed(public_bot) < signed(self.inner.row.bot().load(Ordering::Relaxed)) {
            Steal::PrivateWork
        } else {
            Steal::Empty
        }
    }
}

impl<T: Task> Stealer<T> for SplitStealer<T> {
    /// ABP's `popTop` on the public part; [`Steal::PrivateWork`] when only private work exists.
    fn steal(&self) -> Steal<T> {
        let inner = &*self.inner;
        // Acquire: pairs with the owner's Release publication of a reset (tag) so the
        // `public_bot` read below is at least as new as that reset.
        let old = Age::unpack(inner.age.load(Ordering::Acquire));
        // Acquire: slots below the value read are visible.
        let public_bot = inner.row.public_bot(Ordering::Acquire);
        if Age::distance(old.top, public_bot) <= 0 {
            // Looks empty: report it without paying for a fence.
            return self.empty_public_part(public_bot);
        }
        // The public part looks non-empty. Fence, then re-read the bottom: if our CAS will
        // come after the owner's fence in `pop_public_bottom`, this read sees its lowered
        // bottom, so we cannot both take the last slot (Lê et al.'s steal fence).
        seq_cst_fence(Side::Thief);
        // Acquire: as above.
        let public_bot = inner.row.public_bot(Ordering::Acquire);
        if Age::distance(old.top, public_bot) <= 0 {
            return self.empty_public_part(public_bot);
        }
        // Relaxed: covered by the Acquire of `public_bot`; speculative, used only if the
        // CAS proves no reset and no other removal happened since `age` was read. (`top` is
        // the index itself: indices stay below 2³¹.)
        let raw = inner.row.slot(old.top as usize).load(Ordering::Relaxed);
        if Age::claim_top(&inner.age, old) {
            // SAFETY: the CAS succeeded, so slot `top` held a pushed, exposed task.
            Steal::Success(unsafe { T::from_raw(NonNull::new_unchecked(raw)) })
        } else {
            Steal::Abort
        }
    }

    fn is_empty(&self) -> bool {
        // Acquire/Relaxed: a snapshot.
        let top = Age::unpack(self.inner.age.load(Ordering::Acquire)).top;
        let bot = self.inner.row.bot().load(Ordering::Relaxed);
        let public_bot = self.inner.row.public_bot(Ordering::Relaxed);
        // Signed: `bot` may be −1 for a moment (module doc); then only `public_bot` counts.
        let end = if signed(bot) > signed(public_bot) {
            bot
        } else {
            public_bot
        };
        Age::distance(top, end) <= 0
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::deque::testkit::{self, t};
    use crate::stats::SyncCounts;
    use std::num::NonZeroUsize;

    #[test]
    fn private_part_is_lifo_and_invisible_to_thieves() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(8);
        let s = d.stealer();
        assert_eq!(s.steal(), Steal::Empty);
        for i in 1..=3 {
            d.push(t(i)).unwrap();
        }
        assert_eq!(s.steal(), Steal::PrivateWork);
        assert_eq!(d.private_len(), 3);
        assert_eq!(d.pop(), Some(t(3)));
        assert_eq!(d.pop(), Some(t(2)));
        assert_eq!(d.pop(), Some(t(1)));
        assert_eq!(d.pop(), None);
        assert_eq!(s.steal(), Steal::Empty);
    }

    /// The runtime's inline try on the split deque's row: with room, `try_push_then`
    /// pushes and looks at the request byte; at the end of the room it hands the task back
    /// untouched (the caller goes out of line to `push_then`, which finds room).
    #[test]
    fn the_rows_inline_push_hands_back_at_the_end_of_the_room() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(2);
        let look = |r: &AtomicU8| r.load(Ordering::Relaxed);
        let raw = |i| t(i).into_raw();
        assert_eq!(d.row().try_push_then(raw(1), look).ok(), Some(0));
        d.row().requests.store(1, Ordering::Relaxed);
        assert_eq!(d.row().try_push_then(raw(2), look).ok(), Some(1));
        assert_eq!(d.row().try_push_then(raw(3), look).err(), Some(raw(3)));
        assert_eq!(d.private_len(), 2);
        // The room is refreshed out of line: both tasks still there, nothing more fits.
        assert!(d.push_then(t(3), look).is_err());
        assert_eq!(d.pop(), Some(t(2)));
        assert_eq!(d.row().try_push_then(raw(3), look).ok(), Some(1));
        assert_eq!(d.pop(), Some(t(3)));
    }

    #[test]
    fn expose_moves_the_oldest_private_task() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(8);
        let s = d.stealer();
        for i in 1..=3 {
            d.push(t(i)).unwrap();
        }
        assert_eq!(d.expose(Exposure::One), 1);
        assert_eq!((d.public_len(), d.private_len()), (1, 2));
        assert_eq!(s.steal(), Steal::Success(t(1)));
        assert_eq!(s.steal(), Steal::PrivateWork);
        assert_eq!(d.pop(), Some(t(3)));
        assert_eq!(d.pop(), Some(t(2)));
        assert_eq!(d.pop(), None);
    }

    #[test]
    fn exposure_variants_count() {
        for (how, r, want) in [
            (Exposure::One, 0, 0),
            (Exposure::One, 1, 1),
            (Exposure::One, 5, 1),
            (Exposure::Conservative, 1, 0),
            (Exposure::Conservative, 2, 1),
            (Exposure::Half, 1, 1),
            (Exposure::Half, 2, 1),
            (Exposure::Half, 3, 2),
            (Exposure::Half, 5, 3),
            (Exposure::Half, 8, 4),
        ] {
            let mut d: Split<NonZeroUsize> = Split::with_capacity(16);
            for i in 1..=r {
                d.push(t(i)).unwrap();
            }
            assert_eq!(d.expose(how), want, "{how:?} with {r} private tasks");
            assert_eq!(d.public_len(), want);
            assert_eq!(d.private_len(), r - want);
        }
    }

    #[test]
    fn public_part_is_reclaimed_by_the_owner_and_reset() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(8);
        let s = d.stealer();
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        assert_eq!(d.expose(Exposure::Half), 1);
        assert_eq!(d.expose(Exposure::One), 1);
        assert_eq!(d.private_len(), 0);
        // Private part empty: `pop` falls through to the public bottom.
        assert_eq!(d.pop(), Some(t(2)));
        let tag_before = Age::unpack(d.inner.age.load(Ordering::Relaxed)).tag;
        assert_eq!(d.pop(), Some(t(1)));
        // The last public task was taken with the CAS: indices reset, tag bumped.
        let age = Age::unpack(d.inner.age.load(Ordering::Relaxed));
        assert_eq!((age.top, age.tag), (0, tag_before + 1));
        assert_eq!(d.inner.row.public_bot(Ordering::Relaxed), 0);
        assert_eq!(d.inner.row.bot().load(Ordering::Relaxed), 0);
        assert_eq!(s.steal(), Steal::Empty);
    }

    #[test]
    fn stale_thief_fails_after_reset() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(8);
        d.push(t(1)).unwrap();
        d.expose(Exposure::One);
        let stale = d.inner.age.load(Ordering::Relaxed);
        assert_eq!(d.pop(), Some(t(1)));
        d.push(t(2)).unwrap();
        d.expose(Exposure::One);
        // A thief that read `age` before the reset and CASes now must fail: same top,
        // different tag.
        let ok = d
            .inner
            .age
            .compare_exchange(stale, stale + 1, Ordering::SeqCst, Ordering::Relaxed)
            .is_ok();
        assert!(!ok);
        assert_eq!(d.stealer().steal(), Steal::Success(t(2)));
    }

    #[test]
    fn full_deque_returns_the_task() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(2);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        assert_eq!(d.push(t(3)), Err(Full(t(3))));
        assert_eq!(d.pop(), Some(t(2)));
        d.push(t(3)).unwrap();
        assert_eq!(d.len(), 2);
    }

    /// Issue 33, defect 3: a producer that only pushes (and exposes) while a thief keeps up.
    /// Indices drift up without a reset; `Full` must come only with `capacity` tasks held,
    /// and the owner's side still executes no fence, CAS or read-modify-write.
    #[test]
    fn a_producer_that_never_pops_is_never_full_while_thieves_keep_up() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(4);
        let s = d.stealer();
        let before = SyncCounts::current_thread();
        // Under Miri the ring (4 slots) still wraps 25 times.
        let rounds = if cfg!(miri) { 100 } else { 1000 };
        for i in 1..=rounds {
            assert_eq!(d.push(t(i)), Ok(()), "push {i} with 0 tasks held");
            assert_eq!(d.expose(Exposure::One), 1);
            assert_eq!(s.steal(), Steal::Success(t(i)));
        }
        assert_eq!((SyncCounts::current_thread() - before).owner.total(), 0);
        // One public task and three private ones, the ring wrapped many times: full.
        let r = rounds;
        for i in r + 1..=r + 4 {
            d.push(t(i)).unwrap();
        }
        d.expose(Exposure::One);
        assert_eq!((d.public_len(), d.private_len()), (1, 3));
        assert_eq!(d.push(t(r + 5)), Err(Full(t(r + 5))));
        assert_eq!(s.steal(), Steal::Success(t(r + 1)));
        d.push(t(r + 5)).unwrap();
        assert_eq!(d.push(t(r + 6)), Err(Full(t(r + 6))));
        for i in (r + 2..=r + 5).rev() {
            assert_eq!(d.pop(), Some(t(i)));
        }
        assert_eq!(d.pop(), None);
        assert_eq!(s.steal(), Steal::Empty);
        // A capacity rounds up to a power of two; 0 stays 0, always full.
        assert_eq!(Split::<NonZeroUsize>::with_capacity(5).capacity(), 8);
        let mut empty: Split<NonZeroUsize> = Split::with_capacity(0);
        assert_eq!(empty.push(t(1)), Err(Full(t(1))));
        assert_eq!(empty.pop(), None);
        assert_eq!(empty.stealer().steal(), Steal::Empty);
    }

    /// The last slot with a task still public: no compaction (a thief may be claiming it),
    /// so `Full` with fewer than `capacity` tasks held, until the thief has it; then the
    /// push moves the private tasks down to index 0 and goes on, nothing lost or doubled.
    #[test]
    fn at_the_last_slot_the_owner_moves_its_tasks_down_once_none_is_public() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(4);
        let s = d.stealer();
        let slots = d.inner.row.slots.len();
        // Drift: each task pushed, exposed and stolen, until `bot` is two below the end.
        for i in 1..=slots - 2 {
            d.push(t(i)).unwrap();
            d.expose(Exposure::One);
            assert_eq!(s.steal(), Steal::Success(t(i)));
        }
        d.push(t(101)).unwrap();
        d.push(t(102)).unwrap();
        d.expose(Exposure::One);
        assert_eq!(d.own_bot(), slots);
        assert_eq!((d.public_len(), d.private_len()), (1, 1));
        assert_eq!(d.push(t(103)), Err(Full(t(103))));
        assert_eq!(s.steal(), Steal::Success(t(101)));
        d.push(t(103)).unwrap();
        assert_eq!(d.own_bot(), 2, "moved down to index 0");
        assert_eq!((d.public_len(), d.private_len()), (0, 2));
        // The old tag is dead: a thief's next look sees private work only.
        assert_eq!(s.steal(), Steal::PrivateWork);
        d.expose(Exposure::One);
        assert_eq!(s.steal(), Steal::Success(t(102)));
        assert_eq!(d.pop(), Some(t(103)));
        assert_eq!(d.pop(), None);
        assert_eq!(s.steal(), Steal::Empty);
    }

    /// A thief that read `age` (and the task) before a compaction and resumes after it
    /// must fail its claim: the compaction's new tag is what stops it.
    #[test]
    fn a_thief_paused_across_a_compaction_fails_its_claim() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(1);
        let s = d.stealer();
        d.push(t(1)).unwrap();
        d.expose(Exposure::One);
        // The paused thief's reads: `age`, then a `public_bot` above its `top`.
        let old = Age::unpack(d.inner.age.load(Ordering::Acquire));
        assert!(Age::distance(old.top, d.inner.row.public_bot(Ordering::Acquire)) > 0);
        // Another thief takes task 1; task 2 goes to the last slot; task 3 finds nothing
        // public there, so task 2 moves down to index 0 (and then the deque is full).
        assert_eq!(s.steal(), Steal::Success(t(1)));
        d.push(t(2)).unwrap();
        assert_eq!(d.push(t(3)), Err(Full(t(3))));
        assert_eq!(d.own_bot(), 1, "moved down");
        assert!(
            !Age::claim_top(&d.inner.age, old),
            "a stale claim succeeded"
        );
        assert_eq!(d.pop(), Some(t(2)));
    }

    /// A signal handler that interrupts the compaction at every point defers its exposure
    /// (rule 4's guard) and the owner serves it once the tasks are down: every task comes
    /// out once, and what the handler asked for is public.
    #[test]
    fn a_handler_interrupting_the_compaction_at_every_point() {
        for private in 0..=3 {
            for point in 0.. {
                let mut d: Split<NonZeroUsize> = Split::with_capacity(4);
                let s = d.stealer();
                let slots = d.inner.row.slots.len();
                for i in 1..=slots - private {
                    d.push(t(i)).unwrap();
                    d.expose(Exposure::One);
                    assert_eq!(s.steal(), Steal::Success(t(i)));
                }
                let first = slots - private + 1;
                for i in first..=slots {
                    d.push(t(i)).unwrap();
                }
                let e = d.signal_exposer();
                let (mut seen, mut fired, mut by_handler) = (0, false, 0);
                let room = d.refresh_limit_interruptible(&mut || {
                    if seen == point {
                        fired = true;
                        // SAFETY: this thread owns the deque; the "handler" runs here.
                        by_handler += unsafe { e.expose(Exposure::One) };
                    }
                    seen += 1;
                });
                if !fired {
                    break;
                }
                let case = format!("{private} private, handler at point {point}");
                // One request, one exposure (if there was private work): the handler's own
                // before the guard went up or after it came down, else the owner's for it.
                assert_eq!(d.public_len(), private.min(1), "{case}");
                if room {
                    assert_eq!(d.own_bot(), private, "{case}: moved down");
                } else {
                    // Only a handler that ran before the guard went up leaves a public
                    // task, which stops the compaction.
                    assert_eq!((point, by_handler), (0, 1), "{case}");
                    assert_eq!(d.own_bot(), slots, "{case}: nothing moved");
                }
                let mut out: Vec<usize> = Vec::new();
                while let Steal::Success(x) = s.steal() {
                    out.push(x.get());
                }
                out.extend(std::iter::from_fn(|| d.pop()).map(|x| x.get()));
                out.sort_unstable();
                assert_eq!(out, (first..=slots).collect::<Vec<_>>(), "{case}");
            }
        }
    }

    #[test]
    fn private_operations_execute_no_synchronization() {
        let before = SyncCounts::current_thread();
        let mut d: Split<NonZeroUsize> = Split::with_capacity(64);
        for round in 0..if cfg!(miri) { 10 } else { 100 } {
            for i in 1..=50 {
                d.push(t(i + round)).unwrap();
            }
            for _ in 0..50 {
                assert!(d.pop().is_some());
            }
            assert_eq!(d.pop(), None);
        }
        assert_eq!(SyncCounts::current_thread() - before, SyncCounts::default());
    }

    #[test]
    fn failed_steal_on_empty_public_part_executes_no_fence() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(8);
        let s = d.stealer();
        d.push(t(1)).unwrap();
        let before = SyncCounts::current_thread();
        assert_eq!(s.steal(), Steal::PrivateWork);
        assert_eq!(SyncCounts::current_thread() - before, SyncCounts::default());
        d.expose(Exposure::One);
        assert_eq!(s.steal(), Steal::Success(t(1)));
        let c = SyncCounts::current_thread() - before;
        assert_eq!((c.thief.cas, c.thief.fences), (1, 1));
    }

    #[test]
    fn signal_exposer_exposes_on_the_owner_thread() {
        let mut d: Split<NonZeroUsize> = Split::with_capacity(8);
        let s = d.stealer();
        let e = d.signal_exposer();
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        // SAFETY: same thread as the owner, deque alive.
        assert_eq!(unsafe { e.expose(Exposure::One) }, 1);
        assert_eq!(s.steal(), Steal::Success(t(1)));
        assert_eq!(d.pop(), Some(t(2)));
    }

    #[test]
    fn owner_and_thieves_take_each_task_once() {
        let n: usize = if cfg!(miri) { 200 } else { 20_000 };
        let d: Split<NonZeroUsize> = Split::with_capacity(64);
        testkit::owner_and_thieves_take_each_task_once(d, n, |d, mine| {
            let mut next = 1;
            let mut round = 0usize;
            while next <= n {
                let mut full = false;
                for _ in 0..3 {
                    if next <= n {
                        match d.push(t(next)) {
                            Ok(()) => next += 1,
                            Err(_) => full = true,
                        }
                    }
                }
                d.expose(Exposure::One);
                round += 1;
                // Indices only drop on owner pops, so a full deque must pop to progress.
                if full || round.is_multiple_of(2) {
                    mine.extend(d.pop().map(NonZeroUsize::get));
                }
            }
        });
    }

    /// The sequential result of a set of exposure requests on `private` private tasks, for
    /// every order they could run in: the public tasks each order adds.
    fn orders(private: usize, requests: &[Exposure]) -> Vec<usize> {
        if requests.is_empty() {
            return vec![0];
        }
        let mut out = Vec::new();
        for i in 0..requests.len() {
            let mut rest = requests.to_vec();
            let first = rest.remove(i);
            let n = first.count(private);
            out.extend(orders(private - n, &rest).into_iter().map(|m| n + m));
        }
        out
    }

    /// A handler that interrupts `pop_private` between its `bot` store and its `public_bot`
    /// load (rule 2) exposes only what is still private, whatever the deque holds; on a
    /// deque whose indices are at 0, `bot` reads as −1 there and the handler must see
    /// nothing private (the signed compares of the module doc).
    #[test]
    fn a_handler_interrupting_the_owners_pop_finds_nothing_it_must_not_expose() {
        for (private, public) in [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (3, 2)] {
            for how in Exposure::ALL {
                let mut d: Split<NonZeroUsize> = Split::with_capacity(8);
                let thief = d.stealer();
                for i in 1..=public + private {
                    d.push(t(i)).unwrap();
                }
                for _ in 0..public {
                    d.expose(Exposure::One);
                }
                let e = d.signal_exposer();
                let mut exposed = 0;
                // SAFETY: this thread owns the deque; the "handler" runs here.
                let popped =
                    d.pop_private_interruptible(&mut || exposed += unsafe { e.expose(how) });
                let case = format!("{private} private, {public} public, {how:?}");
                // The handler saw the popped slot outside the private part.
                assert_eq!(popped, (private > 0).then(|| t(public + private)), "{case}");
                assert!(
                    exposed <= private.saturating_sub(1),
                    "{case}: exposed {exposed}"
                );
                // Everything else comes out exactly once, and nothing more.
                let mut rest: Vec<usize> =
                    std::iter::from_fn(|| d.pop()).map(|x| x.get()).collect();
                loop {
                    match thief.steal() {
                        Steal::Success(x) => rest.push(x.get()),
                        Steal::Empty => break,
                        other => panic!("{case}: {other:?}"),
                    }
                }
                rest.sort_unstable();
                let left = public + private - usize::from(private > 0);
                assert_eq!(rest, (1..=left).collect::<Vec<_>>(), "{case}");
            }
        }
    }

    /// Rule 4 at every interruption point: a handler (every variant) exposes at the k-th
    /// point of the owner's own `expose` (every variant), or at two points, on every small
    /// deque. `public_bot` never drops, no request is lost, and the result is what some
    /// sequential order of the requests gives. Under miri (about 60 ms a case): one point
    /// at a time, on 5 private tasks and 1 public.
    #[test]
    fn a_handler_interrupting_the_owners_expose_at_every_point() {
        // An uninterrupted call has at most 9 points; each interruption adds at most 12 (a
        // round of 9 to serve a request deferred after its kind's turn, 3 for serving it),
        // so a call interrupted once has at most 21, twice at most 33.
        const POINTS: usize = 34;
        let points: Vec<(usize, usize)> = if cfg!(miri) {
            (0..21).map(|k| (k, k)).collect()
        } else {
            (0..POINTS)
                .flat_map(|k1| (k1..POINTS).map(move |k2| (k1, k2)))
                .collect()
        };
        assert!((0..3).all(|i| Exposure::ALL[i].index() == i));
        let deques: Vec<(usize, usize)> = if cfg!(miri) {
            vec![(5, 1)]
        } else {
            (0..=5).flat_map(|r| [(r, 0), (r, 1)]).collect()
        };
        let mut cases = 0;
        for &(private, public) in &deques {
            for owner_how in Exposure::ALL {
                for handler_how in Exposure::ALL {
                    for &(k1, k2) in &points {
                        let mut d: Split<NonZeroUsize> = Split::with_capacity(16);
                        for i in 1..=public + private {
                            d.push(t(i)).unwrap();
                        }
                        for _ in 0..public {
                            d.expose(Exposure::One);
                        }
                        let (inner, e) = (d.inner.clone(), d.signal_exposer());
                        let (mut point, mut low, mut by_handler) = (0, public, 0);
                        let mut requests = vec![owner_how];
                        let by_owner = d.expose_interruptible(owner_how, &mut || {
                            let now = inner.row.public_bot(Ordering::Relaxed);
                            assert!(now >= low, "public_bot dropped from {low} to {now}");
                            if point == k1 || point == k2 {
                                // SAFETY: this thread owns the deque; the handler runs here.
                                by_handler += unsafe { e.expose(handler_how) };
                                requests.push(handler_how);
                            }
                            low = inner.row.public_bot(Ordering::Relaxed);
                            point += 1;
                        });
                        let what = || {
                            format!(
                                "{private} private, {public} public, owner {owner_how:?}, \
                                 handler {handler_how:?} at points {k1} and {k2}"
                            )
                        };
                        assert!(point <= POINTS, "{point} points: {}", what());
                        let exposed = d.inner.row.public_bot(Ordering::Relaxed) - public;
                        assert_eq!(exposed, by_owner + by_handler, "{}", what());
                        assert!(orders(private, &requests).contains(&exposed), "{}", what());
                        assert_eq!(d.private_len(), private - exposed, "{}", what());
                        let mut all: Vec<usize> = std::iter::from_fn(|| d.pop())
                            .map(NonZeroUsize::get)
                            .collect();
                        all.sort_unstable();
                        assert_eq!(
                            all,
                            (1..=public + private).collect::<Vec<_>>(),
                            "{}",
                            what()
                        );
                        cases += 1;
                    }
                }
            }
        }
        assert_eq!(cases, deques.len() * 9 * points.len());
    }
}

/// loom cannot deliver a signal, but it can interleave a thief with an owner whose own
/// exposure is interrupted, at each of its points in turn, by a handler's exposure (run
/// there as a plain call on the owner's thread, which is what a signal does).
#[cfg(all(test, loom))]
mod loom_models {
    use super::*;
    use std::num::NonZeroUsize;

    /// Rule 4 with a thief: 3 private tasks; the owner exposes one itself and a handler
    /// exposes half at point `k`; a thief makes two attempts; the owner pops everything.
    /// Before rule 4, a handler between the owner's read and its store let the thief take
    /// tasks 1 and 2, and the owner's stale store made task 2 private again: taken twice
    /// (this model finds it). Preemption bound 2 (`LOOM_MAX_PREEMPTIONS` overrides it): the
    /// race needs only the owner's preemption after the handler and the switch back.
    #[test]
    fn loom_owner_expose_interrupted_by_a_handler_with_a_thief() {
        // 21 points cover the call interrupted once (see the unit test above).
        for k in 0..21 {
            let mut builder = loom::model::Builder::new();
            builder.preemption_bound = builder.preemption_bound.or(Some(2));
            builder.check(move || {
                let t = |i| NonZeroUsize::new(i).unwrap();
                let mut d: Split<NonZeroUsize> = Split::with_capacity(4);
                for i in 1..=3 {
                    d.push(t(i)).unwrap();
                }
                let s = d.stealer();
                let thief = loom::thread::spawn(move || {
                    (0..2)
                        .filter_map(|_| s.steal().success().map(NonZeroUsize::get))
                        .collect::<Vec<_>>()
                });
                let e = d.signal_exposer();
                let mut point = 0;
                d.expose_interruptible(Exposure::One, &mut || {
                    if point == k {
                        // SAFETY: this thread owns the deque; the "handler" runs here.
                        unsafe { e.expose(Exposure::Half) };
                    }
                    point += 1;
                });
                assert!(point <= 21, "{point} points");
                let mut all: Vec<usize> = std::iter::from_fn(|| d.pop())
                    .map(NonZeroUsize::get)
                    .collect();
                all.extend(thief.join().unwrap());
                all.sort_unstable();
                assert_eq!(all, [1, 2, 3], "handler at point {k}");
            });
        }
    }
}

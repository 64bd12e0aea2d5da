//! The asymmetric deque: every task is public, the owner's push and pop execute no fence
//! and no read-modify-write, and a thief pays for both sides with a process-wide heavy
//! fence.
//!
//! ```text
//! index:   ... start ......... end .................... bot
//!              [ claimed by a  ][ the owner's, stealable ]
//!              [ thief, pending]
//! line = {tag: 24 bits, claim: 8 bits, end: 32 bits}; start = end - claim
//! ```
//!
//! # The problem it solves
//!
//! A work-stealing deque's owner pops its newest task while thieves steal the oldest; when
//! one task is left, both may go for it. Every classical deque (Cilk's THE protocol, ABP,
//! Chase-Lev) settles that race with a store-load fence on *every* pop: the owner lowers
//! `bot`, fences, then reads the thieves' index. Attiya et al. proved that an ordinary
//! algorithm cannot drop it. The LCWS split deque avoids it by keeping the newest tasks
//! private, and pays with a thief that must ask the owner for work (a signal, or a poll).
//!
//! This deque keeps every task public and drops the fence anyway, by making it
//! *asymmetric*: the owner's half is a compiler fence ([`light_fence`]), and a thief, before
//! it trusts what it read of the owner, executes a heavy fence ([`heavy_fence`]:
//! `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)` on Linux), which makes every running
//! thread of the process execute a full memory barrier. Pops are many and steals few (the
//! LCWS paper's O(P·T∞) bound on steals), so the cost moves from the many to the few. It is
//! the idiom `crate::wakeup` already uses for sleepers, applied to the deque itself.
//!
//! # The protocol
//!
//! The owner's push and pop are the shared row's ([`Row`]): push writes slot `bot`, then
//! raises `bot` (Release); pop lowers `bot`, runs the light fence, and reads the line: an
//! index at or above its `end` is the owner's without further ado.
//!
//! A thief (`steal_batch`):
//! 1. reads the line (no claim pending, else it aborts: one thief at a time per victim) and
//!    `bot`; `bot - end` tasks are stealable;
//! 2. **claims** `k` of them (1, or up to half) with a CAS of the line from `{tag, 0, end}`
//!    to `{tag, k, end + k}`;
//! 3. waits briefly for the **owner's answer** (below), and only if none comes runs the
//!    **heavy fence**;
//! 4. reads `bot` again: the claimed tasks below it are its (`take`); it reads their slots;
//! 5. **commits** with a CAS from `{tag, k, end + k}` to `{tag, 0, end + take}`; or, if
//!    nothing is left to take, withdraws its claim with a CAS back to `{tag + 1, 0, end}`.
//!    If the owner cut the claim down meanwhile (below), it commits what is left of it.
//!
//! The owner, whose pop found its index `i` below `end` (`pop_contended`), looks at the
//! line again: if `i` lies inside a pending claim `[start, end)`, it **cuts** the claim down
//! to `[start, i)` (a CAS to `{tag, i - start, i}`), or **revokes** it if `i == start` (a
//! CAS to `{tag + 1, 0, start}`), and takes its task; if `i` lies below `start`, thieves
//! took it and everything above it: the deque is empty, and the owner resets its indices
//! to 0 (a CAS to `{tag + 1, 0, 0}`, after `bot = 0`).
//!
//! # Why no task is taken twice
//!
//! The race is the store-buffer (Dekker) pattern: the owner stores `bot` and loads the line;
//! the thief stores the line (its claim) and loads `bot`. The barrier the heavy fence forces
//! on the owner lands either after the owner's line load (then the owner's `bot` store is
//! visible to the thief's second load of `bot`: the thief sees the task gone and does not
//! take it) or before it (then the owner's load runs after the claim was made visible by the
//! barrier: the owner sees the claim, and goes to `pop_contended`). Both may happen; then
//! the owner's cut (or revoke) and the thief's commit are CASes on the same word from the
//! same value, and exactly one wins: if the commit wins, the owner finds its task taken;
//! if the cut wins, the thief's commit fails, and it commits again from the cut claim,
//! whose tasks all lie below the owner's task (the owner pops downwards, so it has popped
//! none of them). A thief reads a slot only after its claim is made and checked, and uses
//! it only if its commit proves the claim was never revoked and still covered the slot, so
//! the owner cannot have popped (and rewritten) the slot in between: a pop into a claimed
//! range cuts or revokes first. A thief knows its claim, cut or not, by its tag and first
//! index: no other thief claims while it is pending. The tag, bumped at every revoke,
//! reset and compaction (the owner's transitions that take a claim away whole), keeps an
//! old claim from being mistaken for a new one with the same `start`: a commit could
//! otherwise succeed on a claim that was revoked and made again while the thief slept. It
//! would take 2²⁴ such transitions during one thief's steal to fool it.
//!
//! Thieves load `bot` with Acquire and the owner raises it with Release, so the slots below
//! a `bot` a thief read are visible to it; the commit is a Release and every path by which
//! the owner comes to rewrite a stolen slot first reads the line with Acquire (its
//! contended pop, its reset, its compaction), so a thief's slot read never sees the owner's
//! later write.
//!
//! # The owner's answer
//!
//! The heavy fence interrupts every CPU running the process, and costs its caller more the
//! more of them there are; yet an owner that is pushing and popping could settle the race
//! itself, by saying that it has seen the claim. So after its claim the thief sets
//! [`Row::CLAIM_POSTED`] in the owner's request byte (which the owner already reads after
//! every push and before every pop of a join, so that the bit costs the fast path nothing)
//! and waits. The owner's next push or pop goes out of line (`answer_claim`), reads the
//! line, and if a claim is pending publishes that line word, claim included, in `answer`
//! with a Release store: no fence and no read-modify-write. The thief waits until it reads
//! its own claim's word there (Acquire), or finds the line changed (only the owner changes
//! it while a claim is pending, with an AcqRel CAS), and then goes on at step 4 with no
//! heavy fence. If neither comes within about one heavy fence's running time (the
//! process's last one, measured: `wakeup::heavy_fence_cost_ns`), because the owner is deep
//! in a task that neither pushes nor pops, or not running, it runs the heavy fence after
//! all; so a steal costs at most about twice what it did. Either way it clears the bit
//! before it commits (no other thief can have posted: none claims while ours is pending).
//! `Stats::answered_claims` counts the answered claims.
//!
//! Why the answer replaces the heavy fence: the owner read the claim before it stored the
//! answer. Every pop it made before that read stored its `bot` before the answer, so the
//! thief, which read the answer with Acquire, sees those pops in `bot` (it does not take a
//! popped task); every pop it makes after that read loads the line after it, and so finds
//! the claim or what replaced it (read-read coherence), going out of line into the cut or
//! revoke of "The protocol". The answer never runs inside a pop, between its `bot` store
//! and its line load. An answer names its claim by the whole line word, which no later
//! claim repeats: `start` only grows under one tag, and every transition that lowers it
//! (a revoke, a reset, a compaction, a withdrawal) moves to the next tag. The loom
//! models `loom_asym_answered_*` check it with the owner's light fence as the compiler
//! fence it is at run time (`wakeup::loom_answers`).
//!
//! ## When thieves ask
//!
//! Waiting has a price where the heavy fence is cheap: a victim busy in a task that
//! neither pushes nor pops (a spawned task, a leaf of real work) does not answer, and its
//! thief starts the stolen task that much later. On a few CPUs the fence is cheap and
//! waiting measurably delayed the first stolen start of a spawn burst; the timed model
//! finds asking worth it only as the fence grows with the CPUs it interrupts (from about
//! eight workers on irregular trees). So in the runtime thieves ask only in pools of at
//! least `ANSWERS_FROM_WORKERS` workers (`Asym::for_pool`); a deque built on its own
//! ([`Owner::with_capacity`]) always asks. The owner answers in every pool: the bit is
//! never set where thieves do not ask, so its fast path is the same. (The measurements:
//! `docs/design/asymmetric-fence.md`, "The owner's answer".)
//!
//! # Without the heavy fence
//!
//! Where the system offers no heavy fence (no `membarrier`: an old kernel, a seccomp
//! filter, Miri's and loom's worlds aside), the deque falls back to a classical one: the
//! owner fences every pop with a `SeqCst` fence, the thief after its claim. The fallback is
//! decided per deque, in the `fences` word:
//!
//! - built where the heavy fence is unavailable: `OWNER_FENCES` from the start;
//! - a thief whose heavy fence fails later (a filter installed after the pool was built)
//!   withdraws its claim, sets `ASKED` and the row's [`Row::OWNER_FENCES`] request bit, and
//!   aborts. The owner's next pop sees the bit (the runtime's inline pop then always leaves
//!   the inline path), switches to fenced pops and says so with a Release store of
//!   `OWNER_FENCES`; thieves steal again once they read it with Acquire (every unfenced pop
//!   before it then happened before their claim). Until then nothing is stolen from that
//!   owner, and nothing is lost: its tasks wait for it.
//!
//! # Capacity
//!
//! As in the split deque, index `i` lives in slot `i`, with `capacity` slots and as many
//! again (at most 2²⁰ more) for the indices to drift into while thieves take the oldest
//! tasks. The deque is full when it holds `capacity` tasks; when `bot` reaches the last
//! slot, the push's cold path moves the tasks down to index 0 under a lock taken on the
//! line itself (claim `LOCKED`: thieves abort; any pending claim is revoked by the same
//! CAS). Indices stay below 2³¹, so the row's signed 32-bit compare is exact.
//!
//! # Loom
//!
//! Under loom the two fences are modelled as `SeqCst` fences, the effect `membarrier`
//! gives each side, as `crate::wakeup` does; the models in `super::loom_models` run the
//! owner's pops against one and two thieves, with steal-one and steal-half, their thieves
//! fencing without asking. The owner's answer has models of its own, in which thieves ask
//! and wait and no heavy fence runs, so the light fence is the compiler fence it is at run
//! time, and one in which an answer races the fence (`wakeup::loom_answers`).
//!
//! [`light_fence`]: crate::wakeup::light_fence
//! [`heavy_fence`]: crate::wakeup::heavy_fence

use std::marker::PhantomData;
use std::ptr::NonNull;

use crossbeam_utils::CachePadded;

use super::row::Row;
use super::{Full, Owner, Steal, Stealer, Task};
use crate::stats::{
    count_answered_claim, count_cas, count_fallback_fence, count_heavy_fence, count_rmw, Side,
};
use crate::sync::{Arc, AtomicU64, AtomicU8, Ordering};
use crate::wakeup::{heavy_fence, heavy_fence_available, light_fence};

/// The most tasks one steal takes (the claim field's width, less the value that marks a
/// locked claim).
pub const MAX_STEAL: usize = 254;

/// How many tasks one steal takes from an asymmetric deque (oldest first).
///
/// A thief pays one heavy fence per steal, so where work appears on a victim a task at a
/// time (a spawn loop, a list walk, a chain of joins), taking one task per steal pays a
/// fence per task; where a victim's tasks come from a recursion (divide and conquer), its
/// oldest task holds about half of its work, and taking half of its tasks takes nearly all
/// of it. [`StealAmount::Adaptive`] tells the two apart by depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StealAmount {
    /// The oldest task (the classical rule).
    One,
    /// ⌈n/2⌉ of the n stealable tasks (at most [`MAX_STEAL`]).
    Half,
    /// The runtime's default: the oldest task, or half when the victim holds more than
    /// [`StealAmount::DEEP`] tasks. A recursion's deque is as deep as the recursion
    /// (rarely past a few dozen levels); a loop's or a chain's grows with the loop.
    #[default]
    Adaptive,
}

impl StealAmount {
    /// [`StealAmount::Adaptive`]'s threshold: more stealable tasks than this, and a steal
    /// takes half.
    pub const DEEP: usize = 64;

    /// How many of `n > 0` stealable tasks one steal takes.
    pub fn of(self, n: usize) -> usize {
        match self {
            StealAmount::One => 1,
            StealAmount::Half => n.div_ceil(2).min(MAX_STEAL),
            StealAmount::Adaptive if n > Self::DEEP => n.div_ceil(2).min(MAX_STEAL),
            StealAmount::Adaptive => 1,
        }
    }
}

/// The smallest pool whose `asym` thieves ask for the owner's answer (module doc, "When
/// thieves ask"); smaller pools run the heavy fence on every steal, as the standalone
/// deque's thieves never do.
pub(crate) const ANSWERS_FROM_WORKERS: usize = 8;

/// The claim value of the owner's lock while it moves its tasks down.
const LOCKED: u8 = u8::MAX;

/// `fences`: thieves run the heavy fence, the owner a compiler fence.
const HEAVY: u8 = 0;
/// `fences`: a thief found the heavy fence unavailable; nothing is stolen until the owner
/// says it fences.
const ASKED: u8 = 1;
/// `fences`: the owner fences every pop; thieves run a `SeqCst` fence.
const OWNER_FENCES: u8 = 2;

/// The line of an asymmetric deque, unpacked: `[end - claim, end)` is claimed by a thief
/// (pending), everything below `end - claim` was taken, `[end, bot)` is the owner's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Line {
    end: u32,
    claim: u8,
    /// 24 bits.
    tag: u32,
}

impl Line {
    const TAG_MASK: u32 = (1 << 24) - 1;

    #[inline(always)]
    fn pack(self) -> u64 {
        u64::from(self.end) | (u64::from(self.claim) << 32) | (u64::from(self.tag) << 40)
    }

    #[inline(always)]
    fn unpack(word: u64) -> Line {
        Line {
            end: word as u32,
            claim: (word >> 32) as u8,
            tag: (word >> 40) as u32,
        }
    }

    /// The first claimed index (`end` when nothing is claimed): every task below it was
    /// taken by thieves.
    #[inline(always)]
    fn start(self) -> u32 {
        if self.claim == LOCKED {
            self.end
        } else {
            self.end - u32::from(self.claim)
        }
    }

    /// The same line after one of the owner's transitions, with the next tag.
    #[inline(always)]
    fn next(self, end: u32, claim: u8) -> Line {
        Line {
            end,
            claim,
            tag: self.tag.wrapping_add(1) & Self::TAG_MASK,
        }
    }
}

/// How far `bot` (which may read as −1) is above `end`: the tasks a thief may claim.
#[inline(always)]
fn above(end: u32, bot: usize) -> i64 {
    // `as isize`: −1 stays −1 whatever the width of `usize`.
    bot as isize as i64 - i64::from(end)
}

/// A thief's claim, between its CAS and its commit.
#[derive(Debug, Clone, Copy)]
struct Claim {
    /// The line the claim was made from (and goes back to if withdrawn).
    before: u64,
    claimed: Line,
    /// The `fences` word the thief read before it claimed.
    fences: u8,
}

/// What the owner, the thieves and the runtime share.
struct Inner {
    /// The line (thieves' claims and commits, the owner's revokes and resets), `bot`,
    /// the request byte and the slots.
    row: Box<Row>,
    /// How many tasks the deque holds at most.
    capacity: usize,
    /// `HEAVY`, `ASKED` or `OWNER_FENCES` (module doc, "Without the heavy fence").
    fences: CachePadded<AtomicU8>,
    /// The owner's answer: the last line with a pending claim that it saw (module doc,
    /// "The owner's answer"). Only the owner writes it; 0 (no claim) at first.
    answer: CachePadded<AtomicU64>,
    /// Whether thieves ask for the owner's answer before they run the heavy fence (module
    /// doc, "When thieves ask").
    thieves_ask: bool,
}

impl Inner {
    fn new(capacity: usize, owner_fences: bool, thieves_ask: bool) -> Inner {
        let capacity = super::ring_slots(capacity, "asymmetric deque");
        let slots = super::row::row_slots(capacity, "asymmetric deque");
        let row = Row::new(slots);
        row.set_limit(capacity.min(slots));
        let fences = if owner_fences {
            // Relaxed: nobody else has the row yet.
            row.requests.store(Row::OWNER_FENCES, Ordering::Relaxed);
            OWNER_FENCES
        } else {
            HEAVY
        };
        Inner {
            row,
            capacity,
            fences: CachePadded::new(AtomicU8::new(fences)),
            answer: CachePadded::new(AtomicU64::new(0)),
            thieves_ask,
        }
    }
}

/// The owner's handle of an asymmetric deque: `Send`, not `Sync`, not `Clone`.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::deque::{Asym, Owner, Steal, Stealer};
/// use std::num::NonZeroUsize;
///
/// let task = |i| NonZeroUsize::new(i).unwrap();
/// let mut owner: Asym<NonZeroUsize> = Asym::with_capacity(16);
/// let thief = owner.stealer();
/// owner.push(task(1)).unwrap();
/// owner.push(task(2)).unwrap();
/// // Every task is stealable at once: the thief takes the oldest...
/// assert_eq!(thief.steal(), Steal::Success(task(1)));
/// // ...and the owner the newest, with no fence on its side.
/// assert_eq!(owner.pop(), Some(task(2)));
/// assert_eq!(owner.pop(), None);
/// assert_eq!(thief.steal(), Steal::Empty);
/// ```
///
/// The owner handle is not `Sync`:
/// ```compile_fail
/// # use splitsteal_core as splitsteal;
/// fn sync<T: Sync>() {}
/// sync::<splitsteal::deque::Asym<std::num::NonZeroUsize>>();
/// ```
pub struct Asym<T: Task> {
    inner: Arc<Inner>,
    /// The owner's copy of the row's address (`inner.row`), as in the split deque.
    row: NonNull<Row>,
    /// `!Sync` and `Send` (see `OwnerMarker`).
    _marker: super::OwnerMarker<T>,
}

// SAFETY: `row` points at the row of the `Inner` kept alive by `inner`; the handle moves
// between threads as a whole (it is `!Sync`, so only one thread uses it at a time).
unsafe impl<T: Task> Send for Asym<T> {}

/// A thief's handle of an asymmetric deque: `Send + Sync + Clone`.
pub struct AsymStealer<T: Task> {
    inner: Arc<Inner>,
    /// The heavy fence (a test may put one that fails here).
    heavy: fn() -> bool,
    _marker: PhantomData<fn() -> T>,
}

impl<T: Task> Clone for AsymStealer<T> {
    fn clone(&self) -> Self {
        AsymStealer {
            inner: self.inner.clone(),
            heavy: self.heavy,
            _marker: PhantomData,
        }
    }
}

impl<T: Task> Asym<T> {
    /// A deque whose owner fences every pop, as if the heavy fence were unavailable (what
    /// [`Owner::with_capacity`] builds where it is).
    pub fn with_owner_fences(capacity: usize) -> Self {
        Self::new(capacity, true, true)
    }

    /// A deque for a pool of `workers` workers: its owner fences its pops if
    /// `owner_fences`, and its thieves ask for the owner's answer only in a pool of at
    /// least [`ANSWERS_FROM_WORKERS`] (module doc, "When thieves ask").
    pub(crate) fn for_pool(capacity: usize, owner_fences: bool, workers: usize) -> Self {
        Self::new(capacity, owner_fences, workers >= ANSWERS_FROM_WORKERS)
    }

    fn new(capacity: usize, owner_fences: bool, thieves_ask: bool) -> Self {
        let inner = Arc::new(Inner::new(capacity, owner_fences, thieves_ask));
        let row = NonNull::from(&*inner.row);
        Asym {
            inner,
            row,
            _marker: PhantomData,
        }
    }

    /// The deque's capacity: how many tasks it holds at most (the `capacity` it was built
    /// with, rounded up to a power of two).
    pub fn capacity(&self) -> usize {
        self.inner.capacity
    }

    /// Whether the owner fences its pops (the heavy fence is unavailable, or a thief found
    /// it so and asked), the classical fallback.
    pub fn owner_fences(&self) -> bool {
        // Relaxed: the owner's own bit (thieves only set it).
        self.row().requests.load(Ordering::Relaxed) & Row::OWNER_FENCES != 0
    }

    /// The row the owner pushes and pops on (the runtime's `join` runs its inline push and
    /// pop on it, and comes back to [`Asym::push_then`] or [`Asym::pop`] when they hand
    /// back).
    #[inline(always)]
    pub(crate) fn row(&self) -> &Row {
        // SAFETY: `row` points at `inner.row`, which lives as long as `inner` (and so as
        // `self`) and is only ever shared (its fields are atomics).
        unsafe { self.row.as_ref() }
    }

    /// [`Owner::push`], then `look` at the request byte (see `Row::requests`).
    #[inline(always)]
    pub(crate) fn push_then<R>(
        &mut self,
        task: T,
        look: impl FnOnce(&AtomicU8) -> R,
    ) -> Result<R, Full<T>> {
        let mut bot = self.row().own_bot();
        if bot == self.row().limit() {
            if !self.refresh_limit() {
                return Err(Full(task));
            }
            bot = self.row().own_bot();
        }
        Ok(self.row().push_at(bot, task.into_raw(), look))
    }

    /// `push` found `bot == limit`. At the last slot, moves the tasks down to index 0
    /// first; then moves `limit` to `capacity` above the thieves' `start` (at most the
    /// last slot). Returns whether there is room.
    #[cold]
    #[inline(never)]
    fn refresh_limit(&mut self) -> bool {
        let last = self.row().slots.len();
        if self.row().own_bot() == last {
            self.compact();
        }
        // Acquire: the thieves' commits of the slots we may now rewrite happen before.
        let start = Line::unpack(self.row().line.load(Ordering::Acquire)).start() as usize;
        let limit = (start + self.capacity()).min(last);
        self.row().set_limit(limit);
        self.row().own_bot() < limit
    }

    /// Moves the tasks `[start, bot)` down to `[0, bot - start)`, under a lock taken on the
    /// line (module doc, "Capacity").
    fn compact(&mut self) {
        let row = self.row();
        let (locked, start) = loop {
            // Acquire: as in `refresh_limit`.
            let word = row.line.load(Ordering::Acquire);
            let line = Line::unpack(word);
            let start = line.start();
            // Revokes a pending claim, if any, and holds thieves off.
            let locked = line.next(start, LOCKED);
            count_cas(Side::Owner);
            // Acquire (both): as above. Nothing is published by the lock itself.
            if row
                .line
                .compare_exchange(word, locked.pack(), Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                break (locked, start as usize);
            }
        };
        let bot = row.own_bot();
        for i in start..bot {
            // Relaxed, both: only the owner writes slots, and no thief reads them while the
            // line is locked (it reads a slot only under a claim it made).
            let task = row.slot(i).load(Ordering::Relaxed);
            row.slot(i - start).store(task, Ordering::Relaxed);
        }
        // Relaxed: published by the Release store of the line below.
        row.bot().store(bot - start, Ordering::Relaxed);
        // Release: a thief that reads the unlocked line (Acquire) sees the new `bot` and
        // the moved slots.
        row.line.store(locked.next(0, 0).pack(), Ordering::Release);
    }

    /// The newest task. Its fast path is the row's pop (no fence, no read-modify-write);
    /// a pop that meets a thief's claim, or finds its task taken, goes out of line.
    #[inline]
    fn pop_inline(&mut self) -> Option<T> {
        // Relaxed: the owner's hint; `answer_claim` reads the byte again with Acquire.
        let asks = self.row().requests.load(Ordering::Relaxed);
        if asks & Row::CLAIM_POSTED != 0 {
            self.answer_claim();
        }
        let fenced = asks & Row::OWNER_FENCES != 0 && self.ack_owner_fences();
        let raw = if fenced {
            self.row().pop_above_line(fenced_pop_fence, &mut || {})
        } else {
            self.row().pop_above_line(light_fence, &mut || {})
        };
        match raw {
            // SAFETY: the row holds values stored by `push_then` (`into_raw` of a `T`).
            Some(raw) => Some(unsafe { T::from_raw(raw) }),
            None => self.pop_contended(),
        }
    }

    /// The owner's pop where the row's pop handed back: the deque is empty, or the newest
    /// task's index was below the line. Takes it unless thieves did (module doc, "The
    /// protocol"), revoking a pending claim on it; resets the indices to 0 once the deque
    /// is found empty. Also where the owner switches to fenced pops when a thief asked.
    #[cold]
    #[inline(never)]
    pub(crate) fn pop_contended(&mut self) -> Option<T> {
        let fenced = self.ack_owner_fences();
        let row = self.row();
        let bot = row.own_bot();
        if bot == 0 {
            return None;
        }
        let new_bot = bot - 1;
        // Relaxed: single writer (the Dekker half the fence orders, as in the row's pop).
        row.bot().store(new_bot, Ordering::Relaxed);
        if fenced {
            fenced_pop_fence();
        } else {
            light_fence();
        }
        loop {
            // Acquire: a commit we see (Release) happens before our later rewrites of the
            // slots it took.
            let word = row.line.load(Ordering::Acquire);
            let line = Line::unpack(word);
            if new_bot as u32 >= line.end {
                // Above every claim: ours (a claim withdrawn or revoked meanwhile).
                // Relaxed: written by this thread in `push`.
                let raw = row.slot(new_bot).load(Ordering::Relaxed);
                // SAFETY: a slot below `bot` holds a pushed value.
                return Some(unsafe { T::from_raw(NonNull::new_unchecked(raw)) });
            }
            if line.claim != 0 && new_bot as u32 >= line.start() {
                // Inside a pending claim: cut it down to the tasks below ours (the thief
                // commits what is left of it), or revoke it if ours is its first (the
                // thief's commit then fails), and look again.
                let cut = match new_bot as u32 - line.start() {
                    0 => line.next(line.start(), 0),
                    below => Line {
                        end: new_bot as u32,
                        claim: below as u8,
                        tag: line.tag,
                    },
                };
                count_cas(Side::Owner);
                // AcqRel on success: Acquire as above (nothing else to publish); Acquire
                // on failure: we look again.
                let _ = row.line.compare_exchange(
                    word,
                    cut.pack(),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                );
                continue;
            }
            // Below every claim: thieves took it and everything above it.
            self.reset();
            return None;
        }
    }

    /// The deque is empty (thieves took its last tasks): both indices back to 0, under a
    /// new tag, so that the slots are reused from the start.
    fn reset(&mut self) {
        let row = self.row();
        // Relaxed: published by the Release CAS below; a thief reading either the old or
        // the new `bot` against the old line finds nothing above its `end`.
        row.bot().store(0, Ordering::Relaxed);
        loop {
            // Acquire: as in `pop_contended`.
            let word = row.line.load(Ordering::Acquire);
            let line = Line::unpack(word);
            count_cas(Side::Owner);
            // AcqRel: Release publishes `bot = 0` to a thief that reads the new line; a
            // stale claim above our tasks is replaced (revoked) with it.
            if row
                .line
                .compare_exchange(
                    word,
                    line.next(0, 0).pack(),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                )
                .is_ok()
            {
                break;
            }
        }
        self.row()
            .set_limit(self.capacity().min(self.row().slots.len()));
    }

    /// Answers a thief that posted its claim (`Row::CLAIM_POSTED`) and waits for the owner
    /// to see it: if the line holds a pending claim, publishes it as seen (module doc, "The
    /// owner's answer"). Between two of the owner's operations, never inside a pop. No
    /// fence and no read-modify-write: a load of the request byte and of the line, and at
    /// most one store.
    #[cold]
    #[inline(never)]
    pub(crate) fn answer_claim(&self) {
        let row = self.row();
        // Acquire: pairs with the thief's Release post, made after its claim, so that the
        // line load below finds the claim (liveness only: an answer is sound for whatever
        // claim the load finds).
        if row.requests.load(Ordering::Acquire) & Row::CLAIM_POSTED == 0 {
            return;
        }
        // Relaxed: the value alone matters (module doc, "The owner's answer").
        let word = row.line.load(Ordering::Relaxed);
        let line = Line::unpack(word);
        // Relaxed: only this thread writes `answer`.
        if line.claim == 0
            || line.claim == LOCKED
            || self.inner.answer.load(Ordering::Relaxed) == word
        {
            return;
        }
        // Release: our `bot` stores so far happen before the look at `bot` of the thief
        // that reads this answer (Acquire); our later pops read the line after the load
        // above, so they find this claim or what replaced it.
        self.inner.answer.store(word, Ordering::Release);
    }

    /// If a thief asked this owner to fence its pops, says (once) that it does from now
    /// on. Returns whether it fences.
    fn ack_owner_fences(&self) -> bool {
        if !self.owner_fences() {
            return false;
        }
        // Relaxed then Release: only thieves move `HEAVY` to `ASKED`; only we move it on.
        if self.inner.fences.load(Ordering::Relaxed) == ASKED {
            // Release: our earlier, unfenced pops happen before any claim of a thief that
            // reads this (Acquire).
            self.inner.fences.store(OWNER_FENCES, Ordering::Release);
        }
        true
    }

    /// Tasks held, as the owner sees them (a pending claim counts as taken).
    fn owner_len(&self) -> usize {
        // Relaxed: a snapshot.
        let start = Line::unpack(self.row().line.load(Ordering::Relaxed)).start();
        above(start, self.row().own_bot()).max(0) as usize
    }
}

/// How long a thief waits for its victim's answer: about one heavy fence's cost
/// (`wakeup::heavy_fence_cost_ns`), so that a steal whose victim is deep in a task that neither
/// pushes nor pops costs at most about twice what the fence alone would. Under loom, as
/// the model's `wakeup::loom_answers` mode says.
struct Patience {
    #[cfg(not(all(test, loom)))]
    deadline: std::time::Instant,
    looks: u32,
}

#[cfg(all(test, not(loom)))]
thread_local! {
    /// A test's patience for the thieves on its thread (`Patience::for_this_thread`).
    static TEST_PATIENCE: std::cell::Cell<Option<std::time::Duration>> =
        const { std::cell::Cell::new(None) };
}

impl Patience {
    /// `None`: do not ask at all (loom models of the fence alone).
    fn new() -> Option<Patience> {
        #[cfg(all(test, loom))]
        if crate::wakeup::loom_answers::mode() == crate::wakeup::loom_answers::Mode::Never {
            return None;
        }
        #[cfg(not(all(test, loom)))]
        let patience = std::time::Duration::from_nanos(crate::wakeup::heavy_fence_cost_ns());
        #[cfg(all(test, not(loom)))]
        let patience = TEST_PATIENCE.get().unwrap_or(patience);
        Some(Patience {
            #[cfg(not(all(test, loom)))]
            deadline: std::time::Instant::now() + patience,
            looks: 0,
        })
    }

    /// Tests: thieves on this thread wait `patience` for an answer, until the guard drops.
    #[cfg(all(test, not(loom)))]
    fn for_this_thread(patience: std::time::Duration) -> impl Drop {
        struct Reset;
        impl Drop for Reset {
            fn drop(&mut self) {
                TEST_PATIENCE.set(None);
            }
        }
        TEST_PATIENCE.set(Some(patience));
        Reset
    }

    /// Waits a little before the next look; `false` when the time is up.
    fn wait(&mut self) -> bool {
        self.looks += 1;
        #[cfg(all(test, loom))]
        {
            crate::sync::yield_now();
            crate::wakeup::loom_answers::only()
        }
        #[cfg(not(all(test, loom)))]
        {
            std::hint::spin_loop();
            // The clock every 8 looks: a look is a load from a line the owner writes once.
            !self.looks.is_multiple_of(8) || std::time::Instant::now() < self.deadline
        }
    }
}

/// The owner's store-load fence in fenced mode (counted apart: the fallback's cost).
#[inline]
fn fenced_pop_fence() {
    count_fallback_fence();
    crate::sync::fence(Ordering::SeqCst);
}

impl<T: Task> Owner<T> for Asym<T> {
    type Stealer = AsymStealer<T>;

    /// A deque of `capacity` tasks rounded up to a power of two (at most 2³⁰), with room
    /// for its indices to drift. Its owner fences its pops if the heavy fence is
    /// unavailable ([`Asym::with_owner_fences`]).
    fn with_capacity(capacity: usize) -> Self {
        Self::new(capacity, !heavy_fence_available(), true)
    }

    fn stealer(&self) -> AsymStealer<T> {
        AsymStealer {
            inner: self.inner.clone(),
            heavy: heavy_fence,
            _marker: PhantomData,
        }
    }

    /// Pushes at the bottom: relaxed slot store, Release store of `bot`, then a look at
    /// the request byte for a thief waiting for its answer. [`Full`] when the deque holds
    /// `capacity` tasks.
    #[inline(always)]
    fn push(&mut self, task: T) -> Result<(), Full<T>> {
        // Relaxed: a hint; `answer_claim` reads the byte again with Acquire.
        let posted = |r: &AtomicU8| r.load(Ordering::Relaxed) & Row::CLAIM_POSTED != 0;
        if self.push_then(task, posted)? {
            self.answer_claim();
        }
        Ok(())
    }

    /// The newest task (see the module doc for what it costs).
    #[inline]
    fn pop(&mut self) -> Option<T> {
        self.pop_inline()
    }

    fn len(&self) -> usize {
        self.owner_len()
    }
}

impl<T: Task> AsymStealer<T> {
    /// A thief whose heavy fence is `heavy` (tests: one that fails, as under a seccomp
    /// filter installed after the pool was built).
    #[cfg(test)]
    pub(crate) fn with_heavy_fence(&self, heavy: fn() -> bool) -> Self {
        AsymStealer {
            inner: self.inner.clone(),
            heavy,
            _marker: PhantomData,
        }
    }

    /// The request byte thieves set for the owner (see `Row::requests`).
    pub(crate) fn requests(&self) -> &AtomicU8 {
        &self.inner.row.requests
    }

    /// Steals the oldest task, and with it as many more as `amount` says, which `rest`
    /// receives oldest first. The protocol of the module doc: claim, heavy fence, check,
    /// commit. [`Steal::Abort`] when another thief's claim is pending, the owner revoked
    /// ours or took the claimed tasks first, or its pops are not fenced yet where they
    /// must be.
    pub fn steal_batch(&self, amount: StealAmount, rest: impl FnMut(T)) -> Steal<T> {
        match self.claim(amount) {
            Ok(claim) => self.finish(claim, rest),
            Err(outcome) => outcome,
        }
    }

    /// Steps 1 and 2 of a steal: look, and claim the oldest tasks with a CAS of the line.
    #[inline]
    fn claim(&self, amount: StealAmount) -> Result<Claim, Steal<T>> {
        let inner = &*self.inner;
        let row = &*inner.row;
        // Acquire: pairs with the owner's Release when it starts fencing its pops.
        let fences = inner.fences.load(Ordering::Acquire);
        if fences == ASKED {
            return Err(Steal::Abort);
        }
        // Acquire: a reset or compaction we see published its `bot` and slots.
        let before = row.line.load(Ordering::Acquire);
        let line = Line::unpack(before);
        if line.claim != 0 {
            return Err(Steal::Abort);
        }
        // Acquire: the slots below the `bot` we read are visible.
        let stealable = above(line.end, row.bot().load(Ordering::Acquire));
        if stealable <= 0 {
            return Err(Steal::Empty);
        }
        let k = amount.of(stealable as usize);
        let claimed = Line {
            end: line.end + k as u32,
            claim: k as u8,
            tag: line.tag,
        };
        count_cas(Side::Thief);
        // AcqRel: the claim is the store half of the Dekker pattern (the fence in `finish`
        // orders it before our `bot` load); Acquire as for the load above.
        if row
            .line
            .compare_exchange(before, claimed.pack(), Ordering::AcqRel, Ordering::Relaxed)
            .is_err()
        {
            return Err(Steal::Abort);
        }
        Ok(Claim {
            before,
            claimed,
            fences,
        })
    }

    /// Steps 3 to 5 of a steal: the fence, the check of `bot`, and the commit (or the
    /// withdrawal) of `claim`.
    #[inline]
    fn finish(&self, claim: Claim, mut rest: impl FnMut(T)) -> Steal<T> {
        let inner = &*self.inner;
        let row = &*inner.row;
        let Claim {
            before,
            claimed,
            fences,
        } = claim;
        let fenced = if fences == OWNER_FENCES {
            crate::stats::seq_cst_fence(Side::Thief);
            true
        } else if self.answered(claimed) {
            true
        } else {
            count_heavy_fence(Side::Thief);
            (self.heavy)()
        };
        if !fenced {
            // No heavy fence after all: withdraw, ask the owner to fence, steal later.
            self.withdraw(claimed, before);
            // Relaxed: one-way; ordered for the owner by the request bit below.
            inner.fences.store(ASKED, Ordering::Relaxed);
            count_rmw(Side::Thief);
            // Release: the owner that sees the bit sees `ASKED`.
            row.requests.fetch_or(Row::OWNER_FENCES, Ordering::Release);
            return Steal::Abort;
        }
        let start = Line::unpack(before).end;
        // Acquire: the slots below are visible (see the module doc).
        let bot = row.bot().load(Ordering::Acquire);
        let take = above(start, bot).clamp(0, i64::from(claimed.claim)) as usize;
        if take == 0 {
            self.withdraw(claimed, before);
            return Steal::Abort;
        }
        let first = start as usize;
        // Relaxed: covered by the Acquire of `bot`; used only if the commit succeeds,
        // which proves the owner popped none of them meanwhile.
        let mut tasks = [std::mem::MaybeUninit::<*mut ()>::uninit(); MAX_STEAL];
        for (i, t) in tasks[..take].iter_mut().enumerate() {
            t.write(row.slot(first + i).load(Ordering::Relaxed));
        }
        // The commit. The owner may have cut the claim down meanwhile (its pop reached
        // into it): then we commit what is left, which it left us.
        let mut pending = claimed;
        let take = loop {
            let take = take.min(usize::from(pending.claim));
            let committed = Line {
                end: start + take as u32,
                claim: 0,
                tag: claimed.tag,
            };
            count_cas(Side::Thief);
            // AcqRel: Release orders our slot reads before the owner's later rewrites (it
            // reads the line with Acquire before it reuses them). Relaxed on failure: we
            // only look at the value.
            match row.line.compare_exchange(
                pending.pack(),
                committed.pack(),
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => break take,
                Err(now) => match self.still_ours(now, claimed) {
                    Some(cut) => pending = cut,
                    None => return Steal::Abort,
                },
            }
        };
        // SAFETY: the first `take` entries were written above; committed, so slots
        // `first..first + take` held pushed values (never null), now ours.
        let task = |t: &std::mem::MaybeUninit<*mut ()>| unsafe {
            T::from_raw(NonNull::new_unchecked(t.assume_init()))
        };
        for t in &tasks[1..take] {
            rest(task(t));
        }
        Steal::Success(task(&tasks[0]))
    }

    /// Posts our claim `claimed` to the owner and waits for its answer (module doc, "The
    /// owner's answer"): `true` once the owner has seen the claim, so that no heavy fence
    /// is needed; `false` if it did not answer within about a heavy fence's cost.
    fn answered(&self, claimed: Line) -> bool {
        let inner = &*self.inner;
        if !inner.thieves_ask {
            return false;
        }
        let Some(mut patience) = Patience::new() else {
            return false;
        };
        let row = &*inner.row;
        let word = claimed.pack();
        count_rmw(Side::Thief);
        // Release: the owner that reads the bit with Acquire finds our claim.
        row.requests.fetch_or(Row::CLAIM_POSTED, Ordering::Release);
        let answered = loop {
            // Acquire: pairs with the owner's Release answer: its `bot` stores before it
            // happen before our look at `bot`.
            if inner.answer.load(Ordering::Acquire) == word {
                break true;
            }
            // Acquire: a changed line was changed by the owner (no other thief claims
            // while ours is pending), with an AcqRel CAS that saw our claim: as good as
            // an answer. (The commit's CAS, which validates against that change, would
            // also catch a stale view of `bot` here.)
            if row.line.load(Ordering::Acquire) != word {
                break true;
            }
            if !patience.wait() {
                break false;
            }
        };
        if answered {
            count_answered_claim();
        }
        count_rmw(Side::Thief);
        // Relaxed: the bit is a hint; our claim is still pending, so no other thief's
        // post can be cleared by this one (it claims only after our commit).
        row.requests
            .fetch_and(!Row::CLAIM_POSTED, Ordering::Relaxed);
        answered
    }

    /// Takes back our claim `claimed` (made from `before`); fails harmlessly if the owner
    /// revoked it meanwhile. The line goes back to `before`'s `end` under the next tag, so
    /// that no later claim has the same word as this one (the owner's answer names a
    /// claim by its word).
    fn withdraw(&self, claimed: Line, before: u64) {
        let before = Line::unpack(before);
        let back = before.next(before.end, 0).pack();
        let mut pending = claimed;
        loop {
            count_cas(Side::Thief);
            // Relaxed: nothing is published or read through it.
            match self.inner.row.line.compare_exchange(
                pending.pack(),
                back,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(now) => match self.still_ours(now, claimed) {
                    Some(cut) => pending = cut,
                    None => return,
                },
            }
        }
    }

    /// The line `now`, if it still holds our claim `claimed`, cut down by the owner: the
    /// same tag and first index, and a claim pending. (No other thief claims while ours
    /// is pending, and the owner bumps the tag whenever it takes a claim away whole.)
    fn still_ours(&self, now: u64, claimed: Line) -> Option<Line> {
        let now = Line::unpack(now);
        (now.tag == claimed.tag
            && now.claim != 0
            && now.claim != LOCKED
            && now.start() == claimed.start())
        .then_some(now)
    }
}

impl<T: Task> Stealer<T> for AsymStealer<T> {
    /// Steals the oldest task ([`AsymStealer::steal_batch`] of one).
    fn steal(&self) -> Steal<T> {
        self.steal_batch(StealAmount::One, |_| {
            unreachable!("a steal of one takes one")
        })
    }

    fn is_empty(&self) -> bool {
        let row = &*self.inner.row;
        // Acquire/Relaxed: a snapshot.
        let line = Line::unpack(row.line.load(Ordering::Acquire));
        above(line.start(), row.bot().load(Ordering::Relaxed)) <= 0
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::deque::testkit::{self, t};
    use crate::stats::{SyncCounts, SyncOps};
    use std::num::NonZeroUsize;
    use std::time::Duration;

    type D = Asym<NonZeroUsize>;

    fn line(d: &D) -> Line {
        Line::unpack(d.row().line.load(Ordering::Relaxed))
    }

    #[test]
    fn lifo_for_the_owner_fifo_for_thieves() {
        testkit::lifo_for_the_owner_fifo_for_thieves(D::with_capacity(8), 6);
        testkit::lifo_for_the_owner_fifo_for_thieves(D::with_owner_fences(8), 6);
    }

    /// The owner's push and pop execute no CAS, no fence and no read-modify-write, and a
    /// successful steal that the owner does not answer (it runs nothing meanwhile) two
    /// CAS, the post and the clearing of its request bit, and one heavy fence; the
    /// owner's pop of a stolen task (a reset) one CAS.
    #[test]
    fn what_each_side_executes() {
        let _hurry = Patience::for_this_thread(Duration::ZERO);
        let mut d = D::with_capacity(64);
        let s = d.stealer();
        let before = SyncCounts::current_thread();
        for i in 1..=1000 {
            d.push(t(i)).unwrap();
            d.push(t(i)).unwrap();
            assert_eq!(d.pop(), Some(t(i)));
            assert_eq!(d.pop(), Some(t(i)));
        }
        assert_eq!(SyncCounts::current_thread() - before, SyncCounts::default());
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        let before = SyncCounts::current_thread();
        assert_eq!(s.steal(), Steal::Success(t(1)));
        let stolen = SyncCounts::current_thread() - before;
        let thief = SyncOps {
            cas: 2,
            rmw: 2,
            heavy_fences: 1,
            ..SyncOps::default()
        };
        assert_eq!((stolen.thief, stolen.owner), (thief, SyncOps::default()));
        let before = SyncCounts::current_thread();
        assert_eq!(d.pop(), Some(t(2)));
        assert_eq!(d.pop(), None);
        let owner = SyncCounts::current_thread() - before;
        assert_eq!(owner.owner.total(), 1, "{owner:?}: the reset's CAS");
        assert_eq!(
            (line(&d).end, d.row().own_bot()),
            (0, 0),
            "reset to index 0"
        );
    }

    /// A thief whose owner answers (here: an owner that does nothing but answer) runs no
    /// heavy fence: each steal is two CAS and the two RMWs of its request bit. The owner
    /// answers with no CAS, fence or read-modify-write; the tasks come out exactly once,
    /// oldest to the thief.
    #[test]
    fn a_thief_answered_by_its_owner_runs_no_heavy_fence() {
        let mut d = D::with_capacity(64);
        let s = d.stealer();
        for i in 1..=20 {
            d.push(t(i)).unwrap();
        }
        let done = std::sync::atomic::AtomicBool::new(false);
        let (stolen, thief) = std::thread::scope(|scope| {
            let thief = scope.spawn(|| {
                // Patient enough that only a missing answer ends its wait, and then fails.
                let _patience = Patience::for_this_thread(Duration::from_secs(5));
                let s = s.with_heavy_fence(|| panic!("the owner did not answer"));
                let before = SyncCounts::current_thread();
                let stolen: Vec<_> = (0..10)
                    .map(|_| match s.steal() {
                        Steal::Success(v) => v,
                        other => panic!("{other:?}"),
                    })
                    .collect();
                done.store(true, Ordering::Release);
                (stolen, SyncCounts::current_thread() - before)
            });
            let before = SyncCounts::current_thread();
            while !done.load(Ordering::Acquire) {
                d.answer_claim();
                std::hint::spin_loop();
            }
            let owner = SyncCounts::current_thread() - before;
            assert_eq!(owner.total(), SyncOps::default(), "{owner:?}");
            thief.join().unwrap()
        });
        assert_eq!(stolen, (1..=10).map(t).collect::<Vec<_>>());
        let expected = SyncOps {
            cas: 20,
            rmw: 20,
            ..SyncOps::default()
        };
        assert_eq!((thief.thief, thief.answered_claims), (expected, 10));
        assert_eq!(
            d.row().requests.load(Ordering::Relaxed) & Row::CLAIM_POSTED,
            0,
            "the thief clears its post"
        );
        for i in (11..=20).rev() {
            assert_eq!(d.pop(), Some(t(i)));
        }
        assert_eq!(d.pop(), None);
    }

    /// Steal-half takes ⌈n/2⌉ of the n tasks, oldest first, the first returned and the
    /// rest handed over in order; the owner keeps the newest.
    #[test]
    fn steal_half_takes_the_older_half() {
        for n in 1..=9 {
            let mut d = D::with_capacity(16);
            for i in 1..=n {
                d.push(t(i)).unwrap();
            }
            let mut rest = Vec::new();
            let first = d
                .stealer()
                .steal_batch(StealAmount::Half, |v| rest.push(v.get()));
            assert_eq!(first, Steal::Success(t(1)), "n = {n}");
            let taken = n.div_ceil(2);
            assert_eq!(rest, (2..=taken).collect::<Vec<_>>(), "n = {n}");
            let mut mine = Vec::new();
            while let Some(v) = d.pop() {
                mine.push(v.get());
            }
            assert_eq!(mine, (taken + 1..=n).rev().collect::<Vec<_>>(), "n = {n}");
        }
        assert_eq!(StealAmount::Half.of(10_000), MAX_STEAL);
        let adaptive: Vec<usize> = [1, 2, 64, 65, 66, 1000]
            .map(|n| StealAmount::Adaptive.of(n))
            .into();
        assert_eq!(adaptive, [1, 1, 1, 33, 33, MAX_STEAL]);
    }

    /// A thief claims the oldest task and pauses before its commit; the owner pops down
    /// into the claim: it revokes it (its task is the claim's first) and takes its task,
    /// and the thief's commit fails.
    #[test]
    fn a_pop_inside_a_pending_claim_revokes_it() {
        let mut d = D::with_capacity(8);
        let s = d.stealer();
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        let claim = s.claim(StealAmount::One).unwrap();
        assert_eq!((line(&d).claim, line(&d).end), (1, 1));
        assert_eq!(d.pop(), Some(t(2)), "above the claim: the fast path");
        assert_eq!(d.pop(), Some(t(1)), "inside the claim: revoked");
        assert_eq!(s.finish(claim, |_| unreachable!()), Steal::Abort);
        assert_eq!(d.pop(), None);
        assert_eq!(s.steal(), Steal::Empty);
    }

    /// The other order: the thief commits first; the owner finds its task gone, and the
    /// deque resets to index 0.
    #[test]
    fn a_committed_steal_is_never_popped() {
        let mut d = D::with_capacity(8);
        let s = d.stealer();
        d.push(t(1)).unwrap();
        let claim = s.claim(StealAmount::One).unwrap();
        assert_eq!(s.finish(claim, |_| unreachable!()), Steal::Success(t(1)));
        let tag = line(&d).tag;
        assert_eq!(d.pop(), None);
        assert_eq!(
            line(&d),
            Line {
                end: 0,
                claim: 0,
                tag: tag + 1
            }
        );
        d.push(t(2)).unwrap();
        assert_eq!(s.steal(), Steal::Success(t(2)));
    }

    /// A claim that the owner's pops made empty before the thief's check: the thief
    /// withdraws it (the line is as before), and the owner's later pops are undisturbed.
    #[test]
    fn a_claim_over_popped_tasks_is_withdrawn() {
        let mut d = D::with_capacity(8);
        let s = d.stealer();
        for i in 1..=4 {
            d.push(t(i)).unwrap();
        }
        let before = line(&d);
        let claim = s.claim(StealAmount::Half).unwrap();
        assert_eq!(line(&d).claim, 2);
        // The owner pops 4 and 3 (above the claim) ...
        assert_eq!((d.pop(), d.pop()), (Some(t(4)), Some(t(3))));
        // ... and the thief, checking `bot` now, takes both claimed tasks.
        let mut rest = Vec::new();
        assert_eq!(s.finish(claim, |v| rest.push(v)), Steal::Success(t(1)));
        assert_eq!(rest, vec![t(2)]);
        assert_eq!(d.pop(), None);
        // A claim of two of four, with three popped meanwhile: the commit takes one.
        for i in 1..=4 {
            d.push(t(i)).unwrap();
        }
        let claim = s.claim(StealAmount::Half).unwrap();
        let popped: Vec<_> = (0..2).filter_map(|_| d.pop()).collect();
        assert_eq!(popped, vec![t(4), t(3)]);
        // `bot` is 2 now; lower it to 1 the way a pop in flight would, and the thief
        // takes index 0 only.
        d.row().bot().store(1, Ordering::Relaxed);
        let mut rest = Vec::new();
        assert_eq!(s.finish(claim, |v| rest.push(v)), Steal::Success(t(1)));
        assert!(rest.is_empty());
        d.row().bot().store(2, Ordering::Relaxed);
        assert_eq!(line(&d).end, 1);
        assert_eq!(d.pop(), Some(t(2)));
        // The claimed task's pop in flight (`bot` lowered, the line not read yet) when the
        // thief checks: it withdraws, the line is as before, and the pop takes the task.
        d.push(t(5)).unwrap();
        let now = line(&d);
        let claim = s.claim(StealAmount::One).unwrap();
        d.row().bot().store(1, Ordering::Relaxed);
        assert_eq!(s.finish(claim, |_| unreachable!()), Steal::Abort);
        // Back to where it was, under the next tag (a withdrawn claim's word never
        // comes back: the owner's answer names a claim by it).
        assert_eq!(line(&d), now.next(now.end, 0));
        d.row().bot().store(2, Ordering::Relaxed);
        assert_eq!(d.pop(), Some(t(5)));
        assert_ne!(before, now, "the commit above moved the line");
    }

    /// A thief claims half (the three oldest of five) and pauses before its commit; the
    /// owner pops down into the claim: it cuts the claim down to the tasks below its own
    /// (tag unchanged), and the thief commits those. Then the owner finds the rest taken.
    #[test]
    fn a_pop_inside_a_claim_of_several_cuts_it_down() {
        let mut d = D::with_capacity(8);
        let s = d.stealer();
        for i in 1..=5 {
            d.push(t(i)).unwrap();
        }
        let claim = s.claim(StealAmount::Half).unwrap();
        let tag = line(&d).tag;
        assert_eq!((line(&d).claim, line(&d).end), (3, 3));
        assert_eq!(
            (d.pop(), d.pop()),
            (Some(t(5)), Some(t(4))),
            "above the claim"
        );
        assert_eq!(d.pop(), Some(t(3)), "the claim's last: cut");
        assert_eq!(
            line(&d),
            Line {
                end: 2,
                claim: 2,
                tag
            }
        );
        let mut rest = Vec::new();
        assert_eq!(s.finish(claim, |v| rest.push(v)), Steal::Success(t(1)));
        assert_eq!(rest, vec![t(2)]);
        assert_eq!(
            line(&d),
            Line {
                end: 2,
                claim: 0,
                tag
            }
        );
        assert_eq!(d.pop(), None);
        // A claim of two whose first task the owner pops: revoked whole, tag bumped.
        for i in 1..=3 {
            d.push(t(i)).unwrap();
        }
        let claim = s.claim(StealAmount::Half).unwrap();
        let tag = line(&d).tag;
        assert_eq!(
            (d.pop(), d.pop(), d.pop()),
            (Some(t(3)), Some(t(2)), Some(t(1)))
        );
        assert_eq!(line(&d).tag, tag + 1);
        assert_eq!(s.finish(claim, |_| unreachable!()), Steal::Abort);
    }

    /// Another thief's pending claim makes a steal abort (one claim at a time per victim).
    #[test]
    fn one_claim_at_a_time() {
        let mut d = D::with_capacity(8);
        let s = d.stealer();
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        let claim = s.claim(StealAmount::One).unwrap();
        assert_eq!(s.steal(), Steal::Abort);
        assert_eq!(s.finish(claim, |_| unreachable!()), Steal::Success(t(1)));
        assert_eq!(s.steal(), Steal::Success(t(2)));
        assert_eq!(s.steal(), Steal::Empty);
    }

    #[test]
    fn full_deque_returns_the_task() {
        let mut d = D::with_capacity(2);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        assert_eq!(d.push(t(3)), Err(Full(t(3))));
        assert_eq!(d.pop(), Some(t(2)));
        d.push(t(3)).unwrap();
        assert_eq!(d.len(), 2);
    }

    /// A producer that never pops while a thief keeps up: the indices drift to the last
    /// slot, the owner moves its tasks down under the line's lock, and the deque is full
    /// only with `capacity` tasks; no task is lost or doubled.
    #[test]
    fn a_producer_that_never_pops_is_never_full_while_thieves_keep_up() {
        let mut d = D::with_capacity(4);
        let s = d.stealer();
        let rounds = if cfg!(miri) { 100 } else { 1000 };
        let mut stolen = Vec::new();
        for i in 1..=rounds {
            d.push(t(i))
                .unwrap_or_else(|_| panic!("full at {i} with {} tasks", d.len()));
            if i > 2 {
                stolen.push(s.steal().success().unwrap().get());
            }
        }
        while let Some(v) = s.steal().success() {
            stolen.push(v.get());
        }
        assert_eq!(stolen, (1..=rounds).collect::<Vec<_>>());
        assert!(d.row().own_bot() <= d.row().slots.len());
    }

    /// A claim pending when the owner compacts is revoked by the lock: its commit fails.
    #[test]
    fn compaction_revokes_a_pending_claim() {
        let mut d = D::with_capacity(2);
        let s = d.stealer();
        let slots = d.row().slots.len();
        // Drift to the last slot: push two, steal one, push, steal, ...
        d.push(t(1)).unwrap();
        let mut next = 2;
        while d.row().own_bot() < slots {
            d.push(t(next)).unwrap();
            next += 1;
            assert!(s.steal().success().is_some());
        }
        let claim = s.claim(StealAmount::One).unwrap();
        // At the last slot: this push compacts (the claim is revoked) and pushes.
        d.push(t(next)).unwrap();
        assert_eq!(line(&d).end, 0);
        assert_eq!(s.finish(claim, |_| unreachable!()), Steal::Abort);
        let mut left = Vec::new();
        while let Some(v) = d.pop() {
            left.push(v.get());
        }
        // The claimed task moved down with the other, and stays the owner's.
        assert_eq!(left, vec![next, next - 1]);
    }

    /// A thief whose heavy fence fails withdraws its claim, asks the owner to fence, and
    /// nothing is stolen until the owner's next pop says it does; then steals go on with
    /// a `SeqCst` fence, and the owner's fences are counted as the fallback's.
    #[test]
    fn a_lost_heavy_fence_makes_the_owner_fence_its_pops() {
        let mut d = D::with_capacity(8);
        let s = d.stealer();
        let failing = s.with_heavy_fence(|| false);
        for i in 1..=4 {
            d.push(t(i)).unwrap();
        }
        assert!(!d.owner_fences());
        assert_eq!(failing.steal(), Steal::Abort);
        assert!(d.owner_fences());
        assert_eq!(line(&d).claim, 0, "withdrawn");
        assert_eq!(s.steal(), Steal::Abort, "until the owner fences");
        let before = SyncCounts::current_thread();
        assert_eq!(d.pop(), Some(t(4)));
        let c = SyncCounts::current_thread() - before;
        assert_eq!((c.owner.fences, c.fallback_fences), (1, 1));
        let before = SyncCounts::current_thread();
        assert_eq!(s.steal(), Steal::Success(t(1)));
        let c = SyncCounts::current_thread() - before;
        assert_eq!(
            (c.thief.fences, c.thief.heavy_fences, c.thief.cas),
            (1, 0, 2)
        );
        assert_eq!((d.pop(), d.pop(), d.pop()), (Some(t(3)), Some(t(2)), None));
    }

    #[test]
    fn owner_and_thieves_take_each_task_once() {
        let n = if cfg!(miri) { 200 } else { 20_000 };
        for fenced in [false, true] {
            let d = if fenced {
                D::with_owner_fences(64)
            } else {
                D::with_capacity(64)
            };
            testkit::owner_and_thieves_take_each_task_once(d, n, |d, mine| {
                let mut rng = 0x2545_F491_4F6C_DD1Du64;
                let mut i = 1;
                while i <= n {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    for _ in 0..rng % 8 {
                        if i > n {
                            break;
                        }
                        match d.push(t(i)) {
                            Ok(()) => i += 1,
                            Err(_) => break,
                        }
                    }
                    for _ in 0..(rng >> 8) % 6 {
                        if let Some(v) = d.pop() {
                            mine.push(v.get());
                        }
                    }
                }
            });
        }
    }

    /// The same with thieves that steal half.
    #[test]
    fn owner_and_half_stealing_thieves_take_each_task_once() {
        let n = if cfg!(miri) { 200 } else { 20_000 };
        let mut owner = D::with_capacity(64);
        let stealer = owner.stealer();
        let done = std::sync::atomic::AtomicBool::new(false);
        let mut all: Vec<usize> = std::thread::scope(|scope| {
            let thieves: Vec<_> = (0..2)
                .map(|_| {
                    let s = stealer.clone();
                    let done = &done;
                    scope.spawn(move || {
                        let mut got = Vec::new();
                        while !done.load(Ordering::Acquire) || !s.is_empty() {
                            if let Steal::Success(v) =
                                s.steal_batch(StealAmount::Half, |v| got.push(v.get()))
                            {
                                got.push(v.get());
                            }
                            std::hint::spin_loop();
                        }
                        got
                    })
                })
                .collect();
            let mut mine = Vec::new();
            for i in 1..=n {
                while owner.push(t(i)).is_err() {
                    mine.extend(owner.pop().map(|v| v.get()));
                }
                if i % 3 == 0 {
                    mine.extend(owner.pop().map(|v| v.get()));
                }
            }
            while let Some(v) = owner.pop() {
                mine.push(v.get());
            }
            done.store(true, Ordering::Release);
            thieves
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .chain(mine)
                .collect()
        });
        all.sort_unstable();
        assert_eq!(all, (1..=n).collect::<Vec<_>>());
    }
}

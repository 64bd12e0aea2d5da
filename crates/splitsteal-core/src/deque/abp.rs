//! The ABP deque (ABP paper, Fig. 5; low-latency thesis, Algorithms 2–4).
//!
//! ```text
//! index (unbounded):  top ................ bot
//!                      [ tasks: oldest .. newest ]
//! slot = index & (capacity - 1): a ring of `capacity` slots (a power of two)
//!            thieves take here (CAS on age)   owner pushes / pops here
//! ```
//!
//! - A **fixed ring** of slots; live tasks are indices `[top, bot)`, index `i` in slot
//!   `i mod capacity`. `age = {tag, top}` is packed in one [`AtomicU64`] (`top` modulo 2³²
//!   in the low 32 bits, `tag` in the high 32), so one CAS moves `top` and checks the tag.
//! - [`Owner::push`] (`pushBottom`) writes the slot and raises `bot`: no synchronization.
//!   The deque is **full only when it holds `capacity` live tasks** (`bot - top ==
//!   capacity`); slots freed by thieves are reused. A push into a full deque returns
//!   [`Full`] with the task: never UB, never a lost task. The caller decides (run it
//!   inline, queue it elsewhere, ...).
//! - [`Owner::pop`] (`popBottom`) lowers `bot`, executes a `SeqCst` fence (the StoreLoad
//!   barrier between the `bot` store and the `age` load) and returns the bottom task when
//!   another task sits above it; the last task is raced for with a CAS on `age`. When the
//!   deque is (or becomes) empty, the owner **resets** `bot = top = 0` and bumps the tag.
//! - [`Stealer::steal`] (`popTop`) reads `age`, then `bot`, and CASes `age` from
//!   `{tag, top}` to `{tag, top + 1}`; it never retries ([`Steal::Abort`] on a lost race).
//!
//! # Reusing slots
//!
//! The ABP paper's array only returns to index 0 on a reset, so `bot` drifts up while
//! thieves steal and the owner only pushes (a producer spawning in a loop): "full" came
//! after `capacity` pushes since the last reset, however few tasks were live. The ring
//! removes the drift. The owner keeps `limit`, `capacity` above a lower bound of `top`
//! (`top` only grows within an epoch), so a push compares `bot` with `limit` and reads
//! `age` only when that compare says the ring *might* be full.
//!
//! Reuse means the owner may rewrite slot `t mod capacity` (for index `j = t + k·capacity`)
//! while a stale thief that read `top = t` is about to read that slot. Its CAS then fails:
//! the owner writes index `j > t` only after reading (with **Acquire**) a `top` above `t`,
//! i.e. after observing some thief's CAS that moved `top` past `t`; that CAS is a release
//! RMW in `age`'s modification order before our stale thief's, which therefore fails (it
//! expects `top = t`), and the rewrite happens after the CAS, so the winner's speculative
//! slot read cannot see it. The same argument as Chase-Lev's (`deque/chase_lev.rs`, point 2),
//! with resets covered by the tag below.
//!
//! # The tag (ABA)
//!
//! A thief may read `age = {tag, t}` and `slots[t]`, then pause; meanwhile the owner
//! empties the deque (reset: `top` back to 0) and refills it so that `top` is `t` again
//! with a *different* task in `slots[t]`. Without the tag the thief's CAS would succeed
//! and return the stale task (taken twice, the new one lost). Every reset increments the
//! tag, so the stale CAS fails. A claim that wraps `top` past 2³² carries into the tag, so
//! the whole `age` word only ever increases; it wraps (`wrapping_add`), and a thief would
//! have to stay paused across 2³² resets (or 2⁶⁴ claims) for ABA to come back, the usual
//! accepted risk (the ABP paper mentions bounded tags; pbbs/parlay use 32 bits too).
//!
//! # Memory orderings (C11/Rust)
//!
//! - Slots are atomics written relaxed: a stale thief may read a slot the owner is
//!   rewriting after a reset; it uses the value only if its CAS succeeds.
//! - Every store of `bot` that a thief may read before reading a slot is Release, and
//!   thieves load `bot` with Acquire, so the slots below the value read are visible.
//!   (`pop`'s decrement is Release as well: since C++20 a relaxed store by the owner
//!   would end the release sequence of the push that published the slots.)
//! - `pop`: `bot` store, **`SeqCst` fence**, `age` load. A thief: `age` load, **`SeqCst`
//!   fence**, `bot` load, CAS (the Lê et al. 2013 placement for Chase-Lev, which is the same
//!   argument here). If the owner's fence comes first in the fences' total order the thief
//!   sees the lowered `bot`; otherwise the owner sees at least the `top` the thief saw, so
//!   for the last task both go to their CAS and exactly one wins.
//! - A thief reads `bot` once before its fence and returns [`Steal::Empty`] at once when
//!   the deque looks empty, so failed attempts on empty deques execute no fence.
//! - A reset stores `bot = 0` before publishing the new tag (Release store, or the CAS),
//!   and thieves load `age` with Acquire: a thief that sees the new tag sees the reset
//!   `bot` (or a later one).
//! - The owner reads `age` with Acquire (after its fence, and on a failed CAS): a thief
//!   whose CAS the owner observed then happens before the owner's later slot writes, so its
//!   speculative slot read cannot return one of them (C11 allows that load-buffering
//!   outcome with a relaxed read; no x86 or ARM core produces it, and on x86 the Acquire is
//!   free).
//!
//! # Synchronization per operation (counted in [`crate::stats`])
//!
//! | operation | fences | CAS |
//! |---|---|---|
//! | push | 0 | 0 |
//! | pop, deque had ≥ 2 tasks | 1 | 0 |
//! | pop of the last task | 1 | 1 |
//! | pop after thieves emptied the deque | 1 | 0 |
//! | pop when `bot == 0` | 0 | 0 |
//! | steal that finds the deque empty | 0 | 0 |
//! | steal otherwise | 1 | 1 |
//! | push that finds `bot == limit` | 0 | 0 (one Acquire load of `age`) |

use std::marker::PhantomData;
use std::ptr::NonNull;

use crossbeam_utils::CachePadded;

use super::{Age, Full, Owner, Steal, Stealer, Task};
use crate::stats::{seq_cst_fence, Side};
use crate::sync::{Arc, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

/// The state shared by the owner and the thieves.
struct Inner {
    /// `{tag, top}`: CASed by thieves and by the owner (last task), stored on resets.
    age: CachePadded<AtomicU64>,
    /// One past the newest task (an unbounded index). Written by the owner only.
    bot: CachePadded<AtomicUsize>,
    /// The ring: a power of two of slots (or none).
    slots: Box<[AtomicPtr<()>]>,
    /// `slots.len() - 1`: index `i` lives in slot `i & mask`.
    mask: usize,
}

impl Inner {
    /// The slot of index `i` (any index: it is reduced modulo the ring's size).
    #[inline(always)]
    fn slot(&self, i: usize) -> &AtomicPtr<()> {
        let i = i & self.mask;
        debug_assert!(i < self.slots.len());
        // SAFETY: `i & mask < slots.len()` when the ring has slots (a power of two); a ring of
        // none is always full, so no index is ever live and no caller reaches here.
        unsafe { self.slots.get_unchecked(i) }
    }
}

/// The owner's handle of an ABP deque: `Send`, not `Sync`, not `Clone`.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::deque::{Abp, Full, Owner, Steal, Stealer};
/// use std::num::NonZeroUsize;
///
/// let task = |i| NonZeroUsize::new(i).unwrap();
/// let mut owner: Abp<NonZeroUsize> = Abp::with_capacity(2);
/// let thief = owner.stealer();
/// owner.push(task(1)).unwrap();
/// owner.push(task(2)).unwrap();
/// // The ring is fixed: a push into a deque holding `capacity` tasks hands the task back.
/// assert_eq!(owner.push(task(3)), Err(Full(task(3))));
/// assert_eq!(thief.steal(), Steal::Success(task(1))); // oldest at the top
/// owner.push(task(3)).unwrap(); // the stolen task's slot is free again
/// assert_eq!(owner.pop(), Some(task(3)));
/// assert_eq!(owner.pop(), Some(task(2))); // the last task: fence + CAS, then a reset
/// assert_eq!(owner.pop(), None);
/// ```
///
/// The owner handle is not `Sync`:
/// ```compile_fail
/// # use splitsteal_core as splitsteal;
/// fn sync<T: Sync>() {}
/// sync::<splitsteal::deque::Abp<std::num::NonZeroUsize>>();
/// ```
/// nor `Clone`:
/// ```compile_fail
/// # use splitsteal_core as splitsteal;
/// fn clone<T: Clone>() {}
/// clone::<splitsteal::deque::Abp<std::num::NonZeroUsize>>();
/// ```
pub struct Abp<T: Task> {
    inner: Arc<Inner>,
    /// The owner's copy of `bot` (it is the only writer), so push and pop load nothing.
    bot: usize,
    /// `capacity` above a lower bound of `top` in the current epoch: `bot < limit` means
    /// there is room (see "Reusing slots" in the module doc).
    limit: usize,
    /// `!Sync` and `Send` (see `OwnerMarker`).
    _marker: super::OwnerMarker<T>,
}

/// A thief's handle of an ABP deque: `Send + Sync + Clone`.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::deque::{Abp, Owner, Steal, Stealer};
/// use std::num::NonZeroUsize;
///
/// let mut owner: Abp<NonZeroUsize> = Abp::with_capacity(8);
/// owner.push(NonZeroUsize::new(5).unwrap()).unwrap();
/// let thief = owner.stealer();
/// let got = std::thread::spawn(move || thief.steal()).join().unwrap();
/// assert_eq!(got, Steal::Success(NonZeroUsize::new(5).unwrap()));
/// ```
pub struct AbpStealer<T: Task> {
    inner: Arc<Inner>,
    _marker: PhantomData<fn() -> T>,
}

impl<T: Task> Clone for AbpStealer<T> {
    fn clone(&self) -> Self {
        AbpStealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }
}

impl<T: Task> Abp<T> {
    /// The deque's fixed capacity: how many tasks it holds at most (the `capacity` it was
    /// built with, rounded up to a power of two).
    pub fn capacity(&self) -> usize {
        self.inner.slots.len()
    }

    /// `push` found `bot == limit`: reads `top` afresh and moves `limit` up to `capacity`
    /// above it. Returns whether there is room now (fewer than `capacity` live tasks).
    #[cold]
    #[inline(never)]
    fn refresh_limit(&mut self) -> bool {
        // Acquire: the claims of the slots we are about to reuse (the thieves' CAS) happen
        // before our rewrites of those slots, so a winner's speculative slot read cannot see
        // them (see "Reusing slots" in the module doc).
        let top = Age::unpack(self.inner.age.load(Ordering::Acquire)).top;
        // Within the owner's epoch (it made the last reset), `top <= bot` between operations.
        let live = Age::distance(top, self.bot);
        debug_assert!((0..=self.capacity() as i64).contains(&i64::from(live)));
        // Saturating: with a 32-bit `usize`, `bot` would wrap to 0 after 2³² pushes in one
        // epoch (tasks pushed and stolen while an older one stays), and `pop` reads `bot ==
        // 0` as empty. At the top of the range the deque reports itself full instead (the
        // caller runs the task inline), until it empties and the indices reset. A 64-bit
        // `bot` never gets there.
        self.limit = (self.bot - live as usize).saturating_add(self.capacity());
        self.bot != self.limit
    }
}

impl<T: Task> Owner<T> for Abp<T> {
    type Stealer = AbpStealer<T>;

    /// A deque of `capacity` slots rounded up to a power of two (at most 2³¹).
    fn with_capacity(capacity: usize) -> Self {
        let slots = super::ring_slots(capacity, "ABP");
        Abp {
            inner: Arc::new(Inner {
                age: CachePadded::new(AtomicU64::new(0)),
                bot: CachePadded::new(AtomicUsize::new(0)),
                slots: (0..slots)
                    .map(|_| AtomicPtr::new(std::ptr::null_mut()))
                    .collect(),
                mask: slots.wrapping_sub(1),
            }),
            bot: 0,
            limit: slots,
            _marker: PhantomData,
        }
    }

    fn stealer(&self) -> AbpStealer<T> {
        AbpStealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }

    /// `pushBottom`: a relaxed slot store and a release store of `bot`; no fence, no CAS.
    /// [`Full`] only when the deque holds `capacity` tasks.
    #[inline]
    fn push(&mut self, task: T) -> Result<(), Full<T>> {
        let bot = self.bot;
        if bot == self.limit && !self.refresh_limit() {
            return Err(Full(task));
        }
        // Relaxed: published by the Release store of `bot` below.
        self.inner
            .slot(bot)
            .store(task.into_raw().as_ptr(), Ordering::Relaxed);
        // Release: a thief that reads `bot + 1` (Acquire) sees the slot.
        self.inner.bot.store(bot + 1, Ordering::Release);
        self.bot = bot + 1;
        Ok(())
    }

    /// `popBottom`: one fence; a CAS too for the last task.
    #[inline]
    fn pop(&mut self) -> Option<T> {
        let inner = &*self.inner;
        let bot = self.bot;
        if bot == 0 {
            return None;
        }
        let new_bot = bot - 1;
        // Release: keeps the slots below `new_bot` published to a thief that reads this
        // value (C++20 release sequences end at a relaxed store).
        inner.bot.store(new_bot, Ordering::Release);
        // StoreLoad: thieves must see the lowered `bot` before we read `top`, or both sides
        // could take slot `new_bot` (ABP popBottom's fence).
        seq_cst_fence(Side::Owner);
        // Relaxed: the slot was written by this thread.
        let raw = inner.slot(new_bot).load(Ordering::Relaxed);
        // Acquire (after the fence, which is what the race argument needs): if this reads a
        // thief's CAS, that thief's earlier speculative slot read happens before our later
        // slot writes, so it cannot return one of them (C11 load buffering).
        let old = Age::unpack(inner.age.load(Ordering::Acquire));
        if Age::distance(old.top, new_bot) > 0 {
            // Another task sits above ours: no thief can reach index `new_bot`.
            self.bot = new_bot;
            // SAFETY: slots below `bot` hold values stored by `push` (never null).
            return Some(unsafe { T::from_raw(NonNull::new_unchecked(raw)) });
        }
        // The deque is now empty: reset the indices to 0 under a new tag so that a thief
        // holding the old `age` fails its CAS (ABA). Relaxed: published by the new tag's
        // Release below; a thief reading 0 takes nothing.
        inner.bot.store(0, Ordering::Relaxed);
        self.bot = 0;
        // `top` is 0 once the reset is published below (whoever wins the last task).
        self.limit = self.capacity();
        Age::reset_after_pop(&inner.age, old, new_bot).then(|| {
            // SAFETY: we won the last task; its slot holds a pushed value.
            unsafe { T::from_raw(NonNull::new_unchecked(raw)) }
        })
    }

    fn len(&self) -> usize {
        // Relaxed: a snapshot; `bot` is this thread's own value.
        let top = Age::unpack(self.inner.age.load(Ordering::Relaxed)).top;
        Age::distance(top, self.bot).max(0) as usize
    }
}

impl<T: Task> Stealer<T> for AbpStealer<T> {
    /// `popTop`: nothing synchronizing when the deque looks empty, else 1 fence + 1 CAS.
    #[inline]
    fn steal(&self) -> Steal<T> {
        let inner = &*self.inner;
        // Acquire: pairs with the owner's Release publication of a reset (tag) so the `bot`
        // read below is at least as new as that reset.
        let old = Age::unpack(inner.age.load(Ordering::Acquire));
        let top = old.top;
        // Acquire: slots below the value read are visible.
        if Age::distance(top, inner.bot.load(Ordering::Acquire)) <= 0 {
            // Looks empty: report it without paying for a fence.
            return Steal::Empty;
        }
        // Fence, then re-read `bot`: if our CAS comes after the owner's fence in `pop`,
        // this read sees its lowered `bot` (Lê et al.'s steal fence).
        seq_cst_fence(Side::Thief);
        // Acquire: as above.
        if Age::distance(top, inner.bot.load(Ordering::Acquire)) <= 0 {
            return Steal::Empty;
        }
        // Relaxed: covered by the Acquire of `bot`; speculative, used only if the CAS proves
        // that no reset and no other removal happened since `age` was read. (`top` is the
        // index modulo 2³², and so modulo the ring's size.)
        let raw = inner.slot(top as usize).load(Ordering::Relaxed);
        if !Age::claim_top(&inner.age, old) {
            return Steal::Abort;
        }
        match NonNull::new(raw) {
            // SAFETY: the CAS succeeded, so slot `top` held a task pushed in this epoch.
            Some(raw) => Steal::Success(unsafe { T::from_raw(raw) }),
            None => unreachable!("ABP: claimed an unwritten slot"),
        }
    }

    fn is_empty(&self) -> bool {
        // Acquire: as in `steal`; a snapshot.
        let top = Age::unpack(self.inner.age.load(Ordering::Acquire)).top;
        // Acquire: a snapshot.
        Age::distance(top, self.inner.bot.load(Ordering::Acquire)) <= 0
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::deque::testkit::{self, t};
    use crate::stats::SyncCounts;
    use std::num::NonZeroUsize;

    fn age(d: &Abp<NonZeroUsize>) -> Age {
        Age::unpack(d.inner.age.load(Ordering::Relaxed))
    }

    #[test]
    fn lifo_for_the_owner_fifo_for_thieves() {
        testkit::lifo_for_the_owner_fifo_for_thieves(Abp::with_capacity(8), 4);
    }

    #[test]
    fn last_pop_resets_indices_and_bumps_the_tag() {
        let mut d: Abp<NonZeroUsize> = Abp::with_capacity(8);
        let s = d.stealer();
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        assert_eq!(s.steal(), Steal::Success(t(1)));
        assert_eq!(age(&d), Age { tag: 0, top: 1 });
        assert_eq!(d.pop(), Some(t(2)));
        assert_eq!(age(&d), Age { tag: 1, top: 0 });
        assert_eq!(d.inner.bot.load(Ordering::Relaxed), 0);
        // Thieves emptied it: the next pop resets with a plain store.
        d.push(t(3)).unwrap();
        assert_eq!(s.steal(), Steal::Success(t(3)));
        assert_eq!(age(&d), Age { tag: 1, top: 1 });
        assert_eq!(d.pop(), None);
        assert_eq!(age(&d), Age { tag: 2, top: 0 });
        assert_eq!(d.inner.bot.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn stale_thief_fails_after_reset_and_refill() {
        let mut d: Abp<NonZeroUsize> = Abp::with_capacity(8);
        d.push(t(1)).unwrap();
        // A thief reads `age` and slot 0, then pauses.
        let stale = d.inner.age.load(Ordering::Relaxed);
        // The owner empties the deque (reset) and refills it: `top` is 0 again.
        assert_eq!(d.pop(), Some(t(1)));
        d.push(t(2)).unwrap();
        assert_eq!(age(&d).top, Age::unpack(stale).top);
        // The thief's CAS must fail: same top, different tag.
        let ok = d
            .inner
            .age
            .compare_exchange(stale, stale + 1, Ordering::SeqCst, Ordering::Relaxed)
            .is_ok();
        assert!(!ok);
        assert_eq!(d.stealer().steal(), Steal::Success(t(2)));
    }

    #[test]
    fn tag_wraps_around() {
        let mut d: Abp<NonZeroUsize> = Abp::with_capacity(4);
        let stale = Age {
            tag: u32::MAX,
            top: 0,
        }
        .pack();
        d.inner.age.store(stale, Ordering::Relaxed);
        d.push(t(1)).unwrap();
        assert_eq!(d.pop(), Some(t(1)));
        assert_eq!(age(&d), Age { tag: 0, top: 0 });
        d.push(t(2)).unwrap();
        // A thief holding the pre-wrap age still fails.
        let ok = d
            .inner
            .age
            .compare_exchange(stale, stale + 1, Ordering::SeqCst, Ordering::Relaxed)
            .is_ok();
        assert!(!ok);
        assert_eq!(d.stealer().steal(), Steal::Success(t(2)));
    }

    #[test]
    fn full_means_capacity_live_tasks() {
        let mut d: Abp<NonZeroUsize> = Abp::with_capacity(2);
        let s = d.stealer();
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        assert_eq!(d.push(t(3)), Err(Full(t(3))));
        // Thieves take everything: both slots are free again, without an owner pop.
        assert_eq!(s.steal(), Steal::Success(t(1)));
        assert_eq!(s.steal(), Steal::Success(t(2)));
        d.push(t(3)).unwrap();
        d.push(t(4)).unwrap();
        assert_eq!(d.push(t(5)), Err(Full(t(5))));
        assert_eq!(d.pop(), Some(t(4)));
        assert_eq!(d.pop(), Some(t(3)));
        assert_eq!(d.pop(), None);
        // A capacity rounds up to a power of two; 0 stays 0, always full.
        assert_eq!(Abp::<NonZeroUsize>::with_capacity(5).capacity(), 8);
        let mut empty: Abp<NonZeroUsize> = Abp::with_capacity(0);
        assert_eq!(empty.push(t(1)), Err(Full(t(1))));
        assert_eq!(empty.pop(), None);
        assert_eq!(empty.stealer().steal(), Steal::Empty);
    }

    /// Issue 33, defect 3: a producer that only pushes while a thief keeps up. The ABP
    /// paper's array drifts: `Full` came after `capacity` pushes since the last reset, with
    /// one live task. The ring reports `Full` only with `capacity` live tasks.
    #[test]
    fn a_producer_that_never_pops_is_never_full_while_thieves_keep_up() {
        let mut d: Abp<NonZeroUsize> = Abp::with_capacity(4);
        let s = d.stealer();
        for i in 1..=1000 {
            assert_eq!(d.push(t(i)), Ok(()), "push {i} with 0 live tasks");
            assert_eq!(s.steal(), Steal::Success(t(i)));
        }
        // Three live tasks, the ring's slots wrapped around many times: one more fits.
        for i in 1001..=1003 {
            d.push(t(i)).unwrap();
        }
        assert_eq!(s.steal(), Steal::Success(t(1001)));
        d.push(t(1004)).unwrap();
        d.push(t(1005)).unwrap();
        assert_eq!(d.len(), 4);
        assert_eq!(d.push(t(1006)), Err(Full(t(1006))));
        for i in (1002..=1005).rev() {
            assert_eq!(d.pop(), Some(t(i)));
        }
        assert_eq!(d.pop(), None);
        assert_eq!(age(&d).top, 0, "reset");
    }

    /// `top` wraps past 2³² within one epoch (no reset): the claim carries into the tag, the
    /// distances stay right, and a thief holding the pre-wrap `age` fails its CAS. (With a
    /// 32-bit `usize`, `bot` cannot pass 2³² - 1: see the next test.)
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn top_wraps_around_without_a_reset() {
        let mut d: Abp<NonZeroUsize> = Abp::with_capacity(4);
        let s = d.stealer();
        // As if 2³² - 2 tasks had been pushed and stolen since the last reset.
        let start = u32::MAX as usize - 1;
        let before = Age {
            tag: 7,
            top: start as u32,
        };
        d.inner.age.store(before.pack(), Ordering::Relaxed);
        d.inner.bot.store(start, Ordering::Relaxed);
        (d.bot, d.limit) = (start, start);
        for i in 1..=4 {
            d.push(t(i)).unwrap();
        }
        assert_eq!(d.push(t(5)), Err(Full(t(5))));
        assert_eq!(s.steal(), Steal::Success(t(1)));
        assert_eq!(s.steal(), Steal::Success(t(2)));
        assert_eq!(age(&d), Age { tag: 8, top: 0 }, "carried into the tag");
        assert_eq!(d.len(), 2);
        d.push(t(5)).unwrap();
        let ok = d
            .inner
            .age
            .compare_exchange(
                before.pack(),
                before.pack() + 1,
                Ordering::SeqCst,
                Ordering::Relaxed,
            )
            .is_ok();
        assert!(!ok);
        assert_eq!(s.steal(), Steal::Success(t(3)));
        assert_eq!(d.pop(), Some(t(5)));
        assert_eq!(d.pop(), Some(t(4)));
        assert_eq!(d.pop(), None);
        assert_eq!(s.steal(), Steal::Empty);
    }

    /// At the top of `usize`'s range within one epoch (reachable with a 32-bit `usize`:
    /// 2³² pushes while an older task stays), `push` reports the deque full instead of
    /// wrapping `bot` to 0, which `pop` would read as empty; pops and steals still see every
    /// task, and once empty the indices reset and pushes work again.
    #[test]
    fn bot_at_the_top_of_the_range_reports_full_instead_of_wrapping() {
        let mut d: Abp<NonZeroUsize> = Abp::with_capacity(4);
        let s = d.stealer();
        let start = usize::MAX - 2;
        let before = Age {
            tag: 3,
            top: start as u32,
        };
        d.inner.age.store(before.pack(), Ordering::Relaxed);
        d.inner.bot.store(start, Ordering::Relaxed);
        (d.bot, d.limit) = (start, start);
        d.push(t(1)).unwrap();
        d.push(t(2)).unwrap();
        assert_eq!(d.bot, usize::MAX);
        assert_eq!(d.push(t(3)), Err(Full(t(3))), "bot would wrap");
        assert_eq!(s.steal(), Steal::Success(t(1)));
        assert_eq!(d.push(t(3)), Err(Full(t(3))), "still at the top");
        assert_eq!(d.pop(), Some(t(2)));
        assert_eq!(d.pop(), None);
        // Emptied: the indices reset, and the deque holds `capacity` tasks again.
        for i in 1..=4 {
            d.push(t(i)).unwrap();
        }
        assert_eq!(
            (1..=4).rev().map(|_| d.pop()).collect::<Vec<_>>(),
            [4, 3, 2, 1].map(|i| Some(t(i)))
        );
    }
    #[test]
    fn synchronization_per_path() {
        let mut d: Abp<NonZeroUsize> = Abp::with_capacity(8);
        let s = d.stealer();
        let delta = |f: &mut dyn FnMut()| {
            let before = SyncCounts::current_thread();
            f();
            SyncCounts::current_thread() - before
        };
        let c = delta(&mut || {
            d.push(t(1)).unwrap();
            d.push(t(2)).unwrap();
        });
        assert_eq!(c, SyncCounts::default());
        let c = delta(&mut || assert_eq!(d.pop(), Some(t(2))));
        assert_eq!((c.owner.fences, c.owner.cas), (1, 0));
        let c = delta(&mut || assert_eq!(d.pop(), Some(t(1))));
        assert_eq!((c.owner.fences, c.owner.cas), (1, 1));
        let c = delta(&mut || assert_eq!(d.pop(), None));
        assert_eq!(c, SyncCounts::default());
        let c = delta(&mut || assert_eq!(s.steal(), Steal::Empty));
        assert_eq!(c, SyncCounts::default());
        d.push(t(3)).unwrap();
        let c = delta(&mut || assert_eq!(s.steal(), Steal::Success(t(3))));
        assert_eq!((c.thief.fences, c.thief.cas, c.owner.total()), (1, 1, 0));
        let c = delta(&mut || assert_eq!(d.pop(), None));
        assert_eq!((c.owner.fences, c.owner.cas), (1, 0));
    }

    #[test]
    fn owner_and_thieves_take_each_task_once() {
        let n: usize = if cfg!(miri) { 200 } else { 20_000 };
        let d: Abp<NonZeroUsize> = Abp::with_capacity(64);
        testkit::owner_and_thieves_take_each_task_once(d, n, |d, mine| {
            let mut next = 1;
            while next <= n {
                for _ in 0..3 {
                    match d.push(t(next)) {
                        Ok(()) => next += 1,
                        // Full: pop to make room (or to reset drifted indices).
                        Err(Full(_)) => break,
                    }
                    if next > n {
                        break;
                    }
                }
                mine.extend(d.pop().map(NonZeroUsize::get));
            }
        });
    }

    #[test]
    fn handle_types() {
        fn send_sync_clone<S: Send + Sync + Clone>() {}
        fn send<S: Send>() {}
        send_sync_clone::<AbpStealer<NonZeroUsize>>();
        send::<Abp<NonZeroUsize>>();
    }
}

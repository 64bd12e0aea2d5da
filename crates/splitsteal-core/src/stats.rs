//! Exact synchronization counts.
//!
//! LCWS's claim is about *how many* synchronizing instructions a scheduler executes, so
//! every CAS, every other read-modify-write (swap, fetch-add, a mutex acquire/release)
//! and every `SeqCst` fence a deque executes is counted, split by side (owner or thief).
//!
//! The counters live in a thread-local block written only by its own thread with a plain
//! relaxed load and store (no shared atomic increment, no shared hot cache line). Other
//! threads may read a block (relaxed loads) to sum it; a [`SyncCounts`] value is such a sum.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub};
use std::sync::atomic::{AtomicU64, Ordering};

/// A counter with a single writer: increments are a relaxed load and store (a plain
/// `mov` pair on x86, no lock prefix); any thread may read it.
#[derive(Default)]
#[repr(transparent)]
pub(crate) struct Counter(AtomicU64);

impl Counter {
    pub(crate) const fn new() -> Self {
        Counter(AtomicU64::new(0))
    }

    /// Adds one. Only the owning thread calls this (single writer), so load+store is exact.
    #[inline(always)]
    pub(crate) fn bump(&self) {
        // Relaxed: single writer; readers only need an eventually-consistent snapshot.
        self.0
            .store(self.0.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// Adds `n` (single writer).
    #[inline(always)]
    pub(crate) fn add(&self, n: u64) {
        // Relaxed: as in `bump`.
        self.0
            .store(self.0.load(Ordering::Relaxed) + n, Ordering::Relaxed);
    }

    #[inline(always)]
    pub(crate) fn get(&self) -> u64 {
        // Relaxed: a snapshot for reporting; nothing is ordered by it.
        self.0.load(Ordering::Relaxed)
    }
}

impl fmt::Debug for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

/// Synchronizing instructions executed on one side of a deque.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SyncOps {
    /// Compare-and-swap instructions (successful or not).
    pub cas: u64,
    /// Other atomic read-modify-writes (swap, fetch-add, lock release, ...).
    pub rmw: u64,
    /// `SeqCst` fences (a full barrier, `mfence` or a locked instruction on x86).
    pub fences: u64,
    /// Process-wide heavy fences (`membarrier` on Linux): each makes every running thread
    /// of the process execute a full barrier. Executed by thieves of the `asym` policy,
    /// one per claim, and by workers falling asleep.
    pub heavy_fences: u64,
}

impl SyncOps {
    /// CAS + RMW + fences + heavy fences.
    pub fn total(&self) -> u64 {
        self.cas + self.rmw + self.fences + self.heavy_fences
    }
}

/// Field-wise `+` and saturating `-` for the counter structs (all fields `u64`).
macro_rules! fieldwise_arithmetic {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Add for $ty {
            type Output = $ty;
            fn add(self, o: $ty) -> $ty {
                $ty { $($field: self.$field + o.$field),* }
            }
        }

        impl Sub for $ty {
            type Output = $ty;
            /// Saturating: a snapshot taken before a baseline counts as zero.
            fn sub(self, o: $ty) -> $ty {
                $ty { $($field: self.$field.saturating_sub(o.$field)),* }
            }
        }
    };
}

fieldwise_arithmetic!(SyncOps {
    cas,
    rmw,
    fences,
    heavy_fences
});

/// Synchronizing instructions executed by deque owners and by thieves.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::deque::{Owner, Split};
/// use splitsteal::stats::SyncCounts;
/// use std::num::NonZeroUsize;
///
/// let before = SyncCounts::current_thread();
/// let mut d: Split<NonZeroUsize> = Split::with_capacity(64);
/// for i in 1..=1000 {
///     d.push(NonZeroUsize::new(i).unwrap()).unwrap();
///     assert_eq!(d.pop(), NonZeroUsize::new(i));
/// }
/// // The split deque's private part needs no synchronization at all.
/// assert_eq!(SyncCounts::current_thread() - before, SyncCounts::default());
/// ```
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SyncCounts {
    /// Executed by the owner (push, pop, pop of the public part, ...).
    pub owner: SyncOps,
    /// Executed by thieves (steal attempts).
    pub thief: SyncOps,
    /// Executed by the scheduler around the deques: join latches, scopes, the injector,
    /// mailboxes and task proxies.
    pub scheduler: SyncOps,
    /// Executed to fall asleep when idle and to wake a sleeping worker: not part of
    /// scheduling work, so reported apart.
    pub idle: SyncOps,
    /// Of the owner's fences, those an `asym` deque executed because the heavy fence was
    /// unavailable (its fallback: the owner fences every pop).
    pub fallback_fences: u64,
    /// Claims of `asym` thieves that their owner answered in time, so that the thief ran
    /// no heavy fence (see [`Stats::answered_claims`]).
    pub answered_claims: u64,
}

impl SyncCounts {
    /// The counts executed so far by the calling thread, on any deque.
    pub fn current_thread() -> SyncCounts {
        THREAD_COUNTERS.with(|c| c.snapshot())
    }

    /// All sides added, idle included.
    pub fn total(&self) -> SyncOps {
        self.owner + self.thief + self.scheduler + self.idle
    }

    /// What scheduling work executed: the deques and the scheduler, not idle sleeping.
    pub fn working(&self) -> SyncOps {
        self.owner + self.thief + self.scheduler
    }

    /// The deque sides only (owner + thief).
    pub fn deque(&self) -> SyncOps {
        self.owner + self.thief
    }
}

impl Add for SyncCounts {
    type Output = SyncCounts;
    fn add(self, o: SyncCounts) -> SyncCounts {
        SyncCounts {
            owner: self.owner + o.owner,
            thief: self.thief + o.thief,
            scheduler: self.scheduler + o.scheduler,
            idle: self.idle + o.idle,
            fallback_fences: self.fallback_fences + o.fallback_fences,
            answered_claims: self.answered_claims + o.answered_claims,
        }
    }
}

impl AddAssign for SyncCounts {
    fn add_assign(&mut self, o: SyncCounts) {
        *self = *self + o;
    }
}

impl Sub for SyncCounts {
    type Output = SyncCounts;
    fn sub(self, o: SyncCounts) -> SyncCounts {
        SyncCounts {
            owner: self.owner - o.owner,
            thief: self.thief - o.thief,
            scheduler: self.scheduler - o.scheduler,
            idle: self.idle - o.idle,
            fallback_fences: self.fallback_fences.saturating_sub(o.fallback_fences),
            answered_claims: self.answered_claims.saturating_sub(o.answered_claims),
        }
    }
}

impl Sum for SyncCounts {
    fn sum<I: Iterator<Item = SyncCounts>>(iter: I) -> SyncCounts {
        iter.fold(SyncCounts::default(), Add::add)
    }
}

/// Which side of a deque executed an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Owner,
    Thief,
    /// Latches, scopes, the injector, mailboxes, proxies: not a deque operation.
    Scheduler,
    /// Falling asleep and waking up.
    Idle,
}

/// One side's counters on one thread.
#[derive(Debug, Default)]
struct SideCounters {
    cas: Counter,
    rmw: Counter,
    fences: Counter,
    heavy_fences: Counter,
}

impl SideCounters {
    const fn new() -> Self {
        SideCounters {
            cas: Counter::new(),
            rmw: Counter::new(),
            fences: Counter::new(),
            heavy_fences: Counter::new(),
        }
    }

    fn snapshot(&self) -> SyncOps {
        SyncOps {
            cas: self.cas.get(),
            rmw: self.rmw.get(),
            fences: self.fences.get(),
            heavy_fences: self.heavy_fences.get(),
        }
    }
}

/// One thread's counters.
#[derive(Debug, Default)]
pub(crate) struct ThreadCounters {
    owner: SideCounters,
    thief: SideCounters,
    scheduler: SideCounters,
    idle: SideCounters,
    fallback_fences: Counter,
    answered_claims: Counter,
}

impl ThreadCounters {
    const fn new() -> Self {
        ThreadCounters {
            owner: SideCounters::new(),
            thief: SideCounters::new(),
            scheduler: SideCounters::new(),
            idle: SideCounters::new(),
            fallback_fences: Counter::new(),
            answered_claims: Counter::new(),
        }
    }

    /// Reads the block (any thread may call this while the owning thread lives).
    pub(crate) fn snapshot(&self) -> SyncCounts {
        SyncCounts {
            owner: self.owner.snapshot(),
            thief: self.thief.snapshot(),
            scheduler: self.scheduler.snapshot(),
            idle: self.idle.snapshot(),
            fallback_fences: self.fallback_fences.get(),
            answered_claims: self.answered_claims.get(),
        }
    }

    fn side(&self, side: Side) -> &SideCounters {
        match side {
            Side::Owner => &self.owner,
            Side::Thief => &self.thief,
            Side::Scheduler => &self.scheduler,
            Side::Idle => &self.idle,
        }
    }
}

thread_local! {
    // `const` initialisation and no `Drop`: access is a plain TLS-relative address, with no
    // lazy-init branch and no destructor registration.
    static THREAD_COUNTERS: ThreadCounters = const { ThreadCounters::new() };
}

/// The calling thread's counter block; valid until the thread exits.
pub(crate) fn thread_counters() -> *const ThreadCounters {
    THREAD_COUNTERS.with(|c| c as *const ThreadCounters)
}

/// Counts one CAS executed by `side` on the calling thread.
#[inline(always)]
pub(crate) fn count_cas(side: Side) {
    THREAD_COUNTERS.with(|c| c.side(side).cas.bump())
}

/// Counts one non-CAS read-modify-write executed by `side` on the calling thread.
#[inline(always)]
pub(crate) fn count_rmw(side: Side) {
    THREAD_COUNTERS.with(|c| c.side(side).rmw.bump())
}

/// Counts one `SeqCst` fence executed by `side` on the calling thread.
#[inline(always)]
pub(crate) fn count_fence(side: Side) {
    THREAD_COUNTERS.with(|c| c.side(side).fences.bump())
}

/// Counts one process-wide heavy fence executed by `side` on the calling thread.
#[inline(always)]
pub(crate) fn count_heavy_fence(side: Side) {
    THREAD_COUNTERS.with(|c| c.side(side).heavy_fences.bump())
}

/// Counts one owner's fence executed by the `asym` deque's fallback (an owner fence).
#[inline(always)]
pub(crate) fn count_fallback_fence() {
    THREAD_COUNTERS.with(|c| {
        c.owner.fences.bump();
        c.fallback_fences.bump();
    })
}

/// Counts one `asym` thief's claim that its owner answered (no heavy fence ran for it).
#[inline(always)]
pub(crate) fn count_answered_claim() {
    THREAD_COUNTERS.with(|c| c.answered_claims.bump())
}

/// A counted `fence(SeqCst)`.
#[inline(always)]
pub(crate) fn seq_cst_fence(side: Side) {
    count_fence(side);
    crate::sync::fence(Ordering::SeqCst);
}

/// What a pool's workers did, summed over workers (see [`ThreadPool::stats`]).
///
/// [`ThreadPool::stats`]: crate::ThreadPool::stats
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Jobs executed: the second closures of `join` (inline or stolen), spawned and
    /// injected jobs.
    pub tasks: u64,
    /// Steal attempts (every `steal` call on a victim's deque).
    pub steal_attempts: u64,
    /// Successful steals.
    pub steals: u64,
    /// Tasks moved from a private part to a public part (LCWS exposure).
    pub exposures: u64,
    /// Exposure signals sent with `pthread_kill` (`lcws-signal`, `lcws-cons`, `lcws-half`).
    pub signals: u64,
    /// Compare-and-swap instructions (deques, latches, mailboxes, task proxies).
    pub cas: u64,
    /// `SeqCst` fences.
    pub fences: u64,
    /// Process-wide heavy fences (`membarrier` on Linux) executed by thieves: under the
    /// `asym` policy one per claim (a claim that then loses the task to its owner's pop
    /// fences too), except those the owner answered (see `answered_claims`), none under
    /// the others. (A worker falling asleep executes one too, counted in `idle_sync`.)
    pub heavy_fences: u64,
    /// Claims of `asym` thieves that the victim answered at its next push or pop, within
    /// about a heavy fence's time: those steals ran no heavy fence and interrupted no
    /// other CPU. Zero under the other policies and in pools of fewer than eight workers,
    /// whose thieves do not ask.
    pub answered_claims: u64,
    /// Of `fences`, those the `asym` policy's owners executed because the heavy fence was
    /// unavailable (no `membarrier`: an old kernel, a seccomp filter): each pop then fences,
    /// as under a classical deque. Zero wherever the heavy fence works.
    pub fallback_fences: u64,
    /// Other atomic read-modify-writes (swaps, fetch-adds, lock acquire/release).
    pub rmw: u64,
    /// Times a worker went to sleep for lack of work.
    pub sleeps: u64,
    /// CAS, other RMWs and fences executed to fall asleep and to wake sleepers (not
    /// included in `cas`, `rmw` and `fences`, which count scheduling work).
    pub idle_sync: u64,
    /// Tasks mailed to another worker's mailbox (`hybrid`).
    pub mailed: u64,
}

impl Stats {
    /// CAS + fences (heavy ones included): the synchronization LCWS bounds by O(P·T∞).
    pub fn cas_and_fences(&self) -> u64 {
        self.cas + self.fences + self.heavy_fences
    }
}

fieldwise_arithmetic!(Stats {
    tasks,
    steal_attempts,
    steals,
    exposures,
    signals,
    cas,
    fences,
    heavy_fences,
    answered_claims,
    fallback_fences,
    rmw,
    sleeps,
    idle_sync,
    mailed,
});

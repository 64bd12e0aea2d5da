//! Latches: one-shot "this job is done" signals.
//!
//! - [`WorkerLatch`]: a worker waits on it while running other work (a `join` whose second
//!   closure was stolen, a scope, an `install` from another pool); setting it wakes the
//!   worker if it went to sleep.
//! - [`LockLatch`]: a thread outside the pool blocks on it (`install` from outside).
//! - [`CountLatch`]: a scope's count of unfinished spawned jobs (its owner, a worker or a
//!   thread outside the pool, waits as above).
//!
//! A latch is usually on the waiter's stack: once it is set the waiter may return and
//! free it, so `set` takes a raw pointer and touches nothing through it after the store.

use std::cell::Cell;
use std::mem::MaybeUninit;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::mailbox::{Proxy, WorkerRange};
use crate::registry::Registry;
use crate::stats::{count_cas, count_rmw, Side};
use crate::worker::WorkerThread;

/// Something that can be set once.
pub(crate) trait Latch {
    /// Sets the latch.
    ///
    /// # Safety
    /// `this` must point to a live latch; it may be freed as soon as the latch is set, so
    /// implementations must not touch `*this` after the store that sets it.
    unsafe fn set(this: *const Self);
}

/// Something a worker can wait on.
pub(crate) trait Probe {
    /// Whether the latch is set (Acquire: what happened before `set` is visible).
    fn probe(&self) -> bool;

    /// Called by `worker` just before it goes to sleep waiting on the latch (a latch that
    /// learns its waiter only then; the others know it from the start).
    fn before_sleep(&self, _worker: &WorkerThread) {}
}

/// `join`'s latch: its joiner waits on it while working.
///
/// One word holds the flag and, once the joiner goes to sleep on the latch, whom to wake
/// ([`JoinLatch::before_sleep`]): a new latch is then one store of zero (with `unpushed`
/// beside it), where a joiner pointer cost every join a store more. The setter learns the
/// sleeper from its own swap of the word.
///
/// It also keeps, for the joiner alone, what became of the join's second job when the
/// deque did not simply take it ([`Unpushed`]): `join`'s cold paths read it, so the hot
/// path carries nothing about those cases across the first closure.
///
/// `repr(C)`, in this order: the word and `unpushed` (four bytes each) side by side and the
/// never-initialised `mailed` last, so that a new latch costs one eight-byte store (rustc's
/// own order put `mailed` between them and LLVM then zeroed it too).
#[repr(C)]
pub(crate) struct JoinLatch {
    /// [`JoinLatch::SET`], and the sleeping joiner's index + 1 in the bits above it.
    state: AtomicU32,
    /// Written before the job is published, read by the joiner only.
    unpushed: Cell<Unpushed>,
    /// Under [`Unpushed::Mailed`]: the proxy and the task's own range (uninitialised
    /// otherwise; nothing else reads it).
    mailed: Cell<MaybeUninit<(NonNull<Proxy>, WorkerRange)>>,
}

/// What became of a join's second job, if the deque did not take it.
///
/// Four bytes, so that it and the latch's word make one eight-byte store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Unpushed {
    /// It was pushed (the common case).
    No,
    /// The deque was full: it was never published, and the joiner runs it.
    Full,
    /// `hybrid` mailed it in a proxy (see [`JoinLatch::mailed`]).
    Mailed,
}

impl JoinLatch {
    /// The flag bit of `state`.
    const SET: u32 = 1;

    #[inline(always)]
    pub(crate) fn new() -> Self {
        JoinLatch {
            state: AtomicU32::new(0),
            unpushed: Cell::new(Unpushed::No),
            mailed: Cell::new(MaybeUninit::uninit()),
        }
    }

    /// What became of the job, if the deque did not take it.
    #[inline]
    pub(crate) fn unpushed(&self) -> Unpushed {
        self.unpushed.get()
    }

    /// The job was not published: the deque is full.
    pub(crate) fn mark_full(&self) {
        self.unpushed.set(Unpushed::Full);
    }

    /// The job went out in `proxy`; the joiner's task had `range` before the fork.
    pub(crate) fn mark_mailed(&self, proxy: NonNull<Proxy>, range: WorkerRange) {
        self.mailed.set(MaybeUninit::new((proxy, range)));
        self.unpushed.set(Unpushed::Mailed);
    }

    /// The proxy and range [`JoinLatch::mark_mailed`] kept.
    ///
    /// # Safety
    /// `unpushed()` is [`Unpushed::Mailed`].
    pub(crate) unsafe fn mailed(&self) -> (NonNull<Proxy>, WorkerRange) {
        // SAFETY: written by `mark_mailed`, which set `Unpushed::Mailed` (the caller's
        // guarantee).
        unsafe { self.mailed.get().assume_init() }
    }
}

impl Probe for JoinLatch {
    #[inline(always)]
    fn probe(&self) -> bool {
        // Acquire: pairs with the SeqCst swap in `set`; the job's result is then visible.
        self.state.load(Ordering::Acquire) & Self::SET != 0
    }

    /// Writes the joiner's index into the word, unless the latch is set already: a setter
    /// that swaps after this finds whom to wake; one that swapped before makes this fail
    /// (and the probe that follows sees the flag).
    fn before_sleep(&self, worker: &WorkerThread) {
        let joiner = u32::try_from(worker.index + 1).expect("worker index fits in 31 bits");
        debug_assert!(joiner < 1 << 31);
        count_cas(Side::Idle);
        // SeqCst: ordered with the setter's swap (one of the two sees the other) and
        // before the sleeper's SeqCst announcement. Relaxed on failure: the flag is then
        // set, and our next probe (Acquire, same location) sees it.
        let _ = self
            .state
            .compare_exchange(0, joiner << 1, Ordering::SeqCst, Ordering::Relaxed);
    }
}

impl Latch for JoinLatch {
    unsafe fn set(this: *const Self) {
        // SAFETY: `this` is live until the swap, and nothing touches it after.
        let old = unsafe {
            count_rmw(Side::Scheduler);
            // SeqCst (an xchg on x86): with the sleeper's SeqCst announce-then-probe, either
            // the sleeper sees the latch set or we see it asleep (no lost wake-up); and
            // totally ordered with the joiner's `before_sleep`.
            (*this).state.swap(Self::SET, Ordering::SeqCst)
        };
        let joiner = old >> 1;
        if joiner != 0 {
            // The joiner went to sleep on this latch. Its job ran on a worker of its pool
            // (stolen, or run by a worker of the pool's), this thread.
            let worker = WorkerThread::current();
            debug_assert!(
                !worker.is_null(),
                "a join's job runs on a worker of its pool"
            );
            // SAFETY: a non-null current worker is this thread's own.
            if let Some(worker) = unsafe { worker.as_ref() } {
                worker.registry.sleep.wake_worker(joiner as usize - 1);
            }
        }
    }
}

/// A latch a worker of `registry` (index `target`) waits on while working.
pub(crate) struct WorkerLatch<'r> {
    set: AtomicBool,
    registry: &'r Arc<Registry>,
    target: usize,
    /// The setter may belong to another pool, which must then keep `registry` alive
    /// through the wake-up (`install` from a worker of another pool).
    cross: bool,
}

impl<'r> WorkerLatch<'r> {
    /// A latch for worker `target` of `registry`, set by a worker of the same pool.
    #[inline(always)]
    pub(crate) fn new(registry: &'r Arc<Registry>, target: usize) -> Self {
        WorkerLatch {
            set: AtomicBool::new(false),
            registry,
            target,
            cross: false,
        }
    }

    /// A latch set by a thread of another pool.
    pub(crate) fn cross(registry: &'r Arc<Registry>, target: usize) -> Self {
        WorkerLatch {
            cross: true,
            ..WorkerLatch::new(registry, target)
        }
    }
}

impl Probe for WorkerLatch<'_> {
    #[inline(always)]
    fn probe(&self) -> bool {
        // Acquire: pairs with the SeqCst store in `set`; the job's result is then visible.
        self.set.load(Ordering::Acquire)
    }
}

impl Latch for WorkerLatch<'_> {
    unsafe fn set(this: *const Self) {
        // SAFETY: `this` is live until the store below; everything needed after the store is
        // copied out first. The registry outlives the store: a same-pool setter is one of its
        // workers, and a cross-pool setter holds the `Arc` clone made here.
        unsafe {
            let cross_registry;
            let registry: &Registry = if (*this).cross {
                cross_registry = Arc::clone((*this).registry);
                &cross_registry
            } else {
                (*this).registry
            };
            let target = (*this).target;
            count_rmw(Side::Scheduler);
            // SeqCst (an xchg on x86): with the sleeper's SeqCst announce-then-probe, either
            // the sleeper sees the latch set or we see it asleep (no lost wake-up).
            (*this).set.store(true, Ordering::SeqCst);
            registry.sleep.wake_worker(target);
        }
    }
}

/// A blocking latch for threads outside the pool.
#[derive(Default)]
pub(crate) struct LockLatch {
    done: Mutex<bool>,
    cond: Condvar,
}

impl LockLatch {
    /// Blocks until set, then re-arms the latch for the next use (it is thread-local).
    pub(crate) fn wait_and_reset(&self) {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        while !*done {
            done = self.cond.wait(done).unwrap_or_else(|e| e.into_inner());
        }
        *done = false;
    }
}

impl Latch for LockLatch {
    unsafe fn set(this: *const Self) {
        // SAFETY: the waiting thread owns `*this` (a thread-local, or a scope on its stack)
        // and returns from `wait_and_reset` only after taking the lock that we hold until
        // our last access, so `*this` stays valid through the notification.
        let this = unsafe { &*this };
        count_rmw(Side::Scheduler);
        let mut done = this.done.lock().unwrap_or_else(|e| e.into_inner());
        *done = true;
        this.cond.notify_all();
    }
}

/// A scope's latch: set when the count of unfinished jobs (plus one for the scope's own
/// body) reaches zero; then wakes the scope's owner: a worker (which waits while working)
/// or a thread outside any pool (which blocks).
pub(crate) struct CountLatch {
    counter: AtomicUsize,
    set: AtomicBool,
    owner: CountOwner,
}

enum CountOwner {
    /// Owned, so that the last job can still wake the owner after the store that lets the
    /// owner return (the clone made in `set` keeps the registry alive through the wake).
    Worker {
        registry: Arc<Registry>,
        index: usize,
    },
    Thread(LockLatch),
}

impl CountLatch {
    /// A latch worker `owner` waits on while working (`WorkerThread::wait_until`).
    pub(crate) fn for_worker(owner: &WorkerThread) -> Self {
        CountLatch::with_owner(CountOwner::Worker {
            registry: Arc::clone(&owner.registry),
            index: owner.index,
        })
    }

    /// A latch a thread outside any pool blocks on (`wait_blocking`).
    pub(crate) fn for_thread() -> Self {
        CountLatch::with_owner(CountOwner::Thread(LockLatch::default()))
    }

    fn with_owner(owner: CountOwner) -> Self {
        CountLatch {
            counter: AtomicUsize::new(1),
            set: AtomicBool::new(false),
            owner,
        }
    }

    /// One more job to wait for.
    pub(crate) fn increment(&self) {
        count_rmw(Side::Scheduler);
        // Relaxed: the job holding this increment is published (pushed) afterwards, and the
        // decrement that reaches zero is AcqRel.
        self.counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Waits until the latch is set: a worker owner runs other work meanwhile, a thread
    /// owner blocks.
    pub(crate) fn wait(&self, owner: Option<&WorkerThread>) {
        match (&self.owner, owner) {
            (CountOwner::Worker { .. }, Some(worker)) => worker.wait_until(self),
            (CountOwner::Thread(latch), None) => latch.wait_and_reset(),
            _ => unreachable!("a scope is waited on by the thread that made it"),
        }
    }
}

impl Probe for CountLatch {
    #[inline]
    fn probe(&self) -> bool {
        // Acquire: pairs with the SeqCst store in `set`.
        self.set.load(Ordering::Acquire)
    }
}

impl Latch for CountLatch {
    unsafe fn set(this: *const Self) {
        count_rmw(Side::Scheduler);
        // SAFETY: the owner frees `*this` only after observing `set` (a worker) or after
        // the lock latch's lock is released (a thread); everything used after that is
        // copied out before it.
        unsafe {
            // AcqRel: the last decrement sees every job's writes and publishes them.
            if (*this).counter.fetch_sub(1, Ordering::AcqRel) != 1 {
                return;
            }
            match &(*this).owner {
                CountOwner::Worker { registry, index } => {
                    let registry = Arc::clone(registry);
                    let index = *index;
                    count_rmw(Side::Scheduler);
                    // SeqCst: Dekker with the sleeping owner, as in `WorkerLatch::set`.
                    (*this).set.store(true, Ordering::SeqCst);
                    registry.sleep.wake_worker(index);
                }
                // The blocked owner returns only once it holds the lock this releases.
                CountOwner::Thread(latch) => LockLatch::set(latch),
            }
        }
    }
}

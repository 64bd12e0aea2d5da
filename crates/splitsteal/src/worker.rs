//! A worker thread and its scheduling loop, per policy.
//!
//! Every policy runs the same loop (002 Fig. 3 / 000 Algorithm 1, in fork-join form):
//! take local work (pop the newest task), else make one steal attempt on a uniformly
//! random other worker, else take a job injected from outside; between failed attempts
//! yield the processor (002's `yield`, so a pool with more workers than free cores keeps
//! going), and after a while sleep. The policies differ in the deque and in what a thief
//! does when a victim has only private work:
//!
//! | policy | deque | on `PrivateWork` | victim exposes |
//! |---|---|---|---|
//! | `locked`, `abp`, `chase-lev` | mutex / ABP / Chase-Lev | (never returned) | (everything is public) |
//! | `lcws-poll` | split | set the victim's `targeted` flag | one task, when it polls the flag (every join and every pop) |
//! | `lcws-signal` | split | flag + `pthread_kill`, unless already flagged | one task, in the signal handler |
//! | `lcws-cons` | split | as `lcws-signal`, if the victim has two private tasks | one task, never the last |
//! | `lcws-half` | split | as `lcws-signal` | ⌈r/2⌉ of r private tasks |
//!
//! For the signal variants the flag only suppresses duplicate signals; it is cleared when
//! the victim pushes a task or when one of its public tasks is taken (003 §4).

use std::cell::{Cell, UnsafeCell};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use crate::deque::{
    Abp, AbpStealer, ChaseLev, ChaseLevStealer, Exposure, Locked, LockedStealer, Owner,
    SignalExposer, Split, SplitStealer, Steal, Stealer,
};
use crate::exposure;
use crate::job::JobRef;
use crate::latch::Probe;
use crate::registry::{Registry, Terminated, WorkerInfo};
use crate::stats::{Counter, Stats};
use crate::Policy;

/// A worker's own end of its deque.
pub(crate) enum LocalDeque {
    Locked(Locked<JobRef>),
    Abp(Abp<JobRef>),
    ChaseLev(ChaseLev<JobRef>),
    Split(Split<JobRef>),
}

/// The deque/notification combination a worker schedules with; `join` and the pop paths
/// are compiled once per flavor so their hot paths carry no run-time policy checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Locked,
    Abp,
    ChaseLev,
    /// Split deque, polled `targeted` flag.
    LcwsPoll,
    /// Split deque, exposure signals (`lcws-signal`, `lcws-cons`, `lcws-half`).
    LcwsSignal,
    /// `hybrid` (joins only; its deque has its base policy's kind).
    Hybrid,
}

impl Kind {
    fn of(policy: Policy) -> Kind {
        match policy {
            Policy::Locked => Kind::Locked,
            Policy::Abp => Kind::Abp,
            Policy::ChaseLev => Kind::ChaseLev,
            Policy::LcwsPoll => Kind::LcwsPoll,
            Policy::LcwsSignal | Policy::LcwsCons | Policy::LcwsHalf => Kind::LcwsSignal,
            Policy::Hybrid => Kind::Hybrid,
        }
    }
}

/// A [`Kind`] at the type level.
pub(crate) trait Flavor {
    type Owner: Owner<JobRef>;
    /// `lcws-poll`: read the `targeted` flag at every join and pop.
    const POLL: bool = false;
    /// Signal variants: clear the flag on pushes and public removals.
    const SIGNAL: bool = false;
    /// The worker's deque, of this flavor.
    ///
    /// # Safety
    /// The deque must be of this flavor (the worker's `kind` says so).
    unsafe fn owner(d: &mut LocalDeque) -> &mut Self::Owner;
    /// The owner's pop of its newest task (for split deques: the private part only; the
    /// public part is the caller's slow path).
    fn pop_newest(d: &mut Self::Owner) -> Option<JobRef>;
    /// Split deques: whether the private part already holds `window` tasks (then a new
    /// join cannot be exposed before them, and runs sequentially).
    #[inline(always)]
    fn window_full(_d: &Self::Owner, _window: usize) -> bool {
        false
    }
}

macro_rules! split_window {
    () => {
        #[inline(always)]
        fn window_full(d: &Split<JobRef>, window: usize) -> bool {
            d.private_len() >= window
        }
    };
}

macro_rules! flavor {
    ($name:ident, $variant:ident, $owner:ty, $pop:ident, { $($extra:tt)* } $(, $c:ident)*) => {
        pub(crate) struct $name;
        impl Flavor for $name {
            type Owner = $owner;
            $(const $c: bool = true;)*
            $($extra)*
            #[inline(always)]
            fn pop_newest(d: &mut $owner) -> Option<JobRef> {
                d.$pop()
            }
            #[inline(always)]
            unsafe fn owner(d: &mut LocalDeque) -> &mut $owner {
                match d {
                    LocalDeque::$variant(d) => d,
                    // SAFETY: the caller guarantees the variant.
                    _ => unsafe { std::hint::unreachable_unchecked() },
                }
            }
        }
    };
}
flavor!(LockedFlavor, Locked, Locked<JobRef>, pop, {});
flavor!(AbpFlavor, Abp, Abp<JobRef>, pop, {});
flavor!(ChaseLevFlavor, ChaseLev, ChaseLev<JobRef>, pop, {});
flavor!(
    PollFlavor,
    Split,
    Split<JobRef>,
    pop_private,
    {
        split_window!();
    },
    POLL
);
flavor!(
    SignalFlavor,
    Split,
    Split<JobRef>,
    pop_private,
    {
        split_window!();
    },
    SIGNAL
);

/// Evaluates `$body` with `$F` bound to the flavor type of the deque kind `$kind`.
/// `$body` may call `_as::<$F>` methods: the caller guarantees `$kind` is the worker's
/// deque kind, which is what their safety contract asks.
macro_rules! with_deque_flavor {
    ($kind:expr, $F:ident => $body:expr) => {
        match $kind {
            Kind::LcwsSignal => {
                type $F = $crate::worker::SignalFlavor;
                $body
            }
            Kind::LcwsPoll => {
                type $F = $crate::worker::PollFlavor;
                $body
            }
            Kind::ChaseLev => {
                type $F = $crate::worker::ChaseLevFlavor;
                $body
            }
            Kind::Abp => {
                type $F = $crate::worker::AbpFlavor;
                $body
            }
            Kind::Locked => {
                type $F = $crate::worker::LockedFlavor;
                $body
            }
            Kind::Hybrid => unreachable!("a deque has a base kind"),
        }
    };
}
pub(crate) use with_deque_flavor;

/// The thieves' end of a worker's deque.
pub(crate) enum RemoteDeque {
    Locked(LockedStealer<JobRef>),
    Abp(AbpStealer<JobRef>),
    ChaseLev(ChaseLevStealer<JobRef>),
    Split(SplitStealer<JobRef>),
}

impl LocalDeque {
    /// A deque for `policy` and its thief handle.
    pub(crate) fn new(policy: Policy, capacity: usize) -> (LocalDeque, RemoteDeque) {
        match policy {
            Policy::Locked => {
                let d = Locked::with_capacity(capacity);
                let s = d.stealer();
                (LocalDeque::Locked(d), RemoteDeque::Locked(s))
            }
            Policy::Abp => {
                let d = Abp::with_capacity(capacity);
                let s = d.stealer();
                (LocalDeque::Abp(d), RemoteDeque::Abp(s))
            }
            Policy::ChaseLev => {
                let d = ChaseLev::with_capacity(capacity);
                let s = d.stealer();
                (LocalDeque::ChaseLev(d), RemoteDeque::ChaseLev(s))
            }
            Policy::LcwsPoll | Policy::LcwsSignal | Policy::LcwsCons | Policy::LcwsHalf => {
                let d = Split::with_capacity(capacity);
                let s = d.stealer();
                (LocalDeque::Split(d), RemoteDeque::Split(s))
            }
            Policy::Hybrid => unreachable!("hybrid runs on its base policy's deque"),
        }
    }
}

impl RemoteDeque {
    #[inline]
    pub(crate) fn steal(&self) -> Steal<JobRef> {
        match self {
            RemoteDeque::Locked(s) => s.steal(),
            RemoteDeque::Abp(s) => s.steal(),
            RemoteDeque::ChaseLev(s) => s.steal(),
            RemoteDeque::Split(s) => s.steal(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        match self {
            RemoteDeque::Locked(s) => s.is_empty(),
            RemoteDeque::Abp(s) => s.is_empty(),
            RemoteDeque::ChaseLev(s) => s.is_empty(),
            RemoteDeque::Split(s) => s.is_empty(),
        }
    }

    fn private_len(&self) -> usize {
        match self {
            RemoteDeque::Split(s) => s.private_len(),
            _ => 0,
        }
    }
}

/// What one worker did; written by that worker only (the signal handler writes
/// `handler_exposures`, and nothing else writes it).
#[derive(Debug, Default)]
pub(crate) struct WorkerCounters {
    pub(crate) tasks: Counter,
    pub(crate) steal_attempts: Counter,
    pub(crate) steals: Counter,
    pub(crate) exposures: Counter,
    pub(crate) handler_exposures: Counter,
    pub(crate) signals: Counter,
    pub(crate) sleeps: Counter,
    pub(crate) mailed: Counter,
}

impl WorkerCounters {
    pub(crate) fn snapshot(&self) -> Stats {
        Stats {
            tasks: self.tasks.get(),
            steal_attempts: self.steal_attempts.get(),
            steals: self.steals.get(),
            exposures: self.exposures.get() + self.handler_exposures.get(),
            signals: self.signals.get(),
            sleeps: self.sleeps.get(),
            mailed: self.mailed.get(),
            ..Stats::default()
        }
    }
}

thread_local! {
    // `const`-initialized, no destructor: a plain TLS-relative load, also from the
    // exposure signal handler.
    static CURRENT: Cell<*const WorkerThread> = const { Cell::new(ptr::null()) };
}

/// A worker: its deque, its random victim picker, its counters.
pub(crate) struct WorkerThread {
    pub(crate) registry: Arc<Registry>,
    pub(crate) index: usize,
    /// How `join` dispatches (`Hybrid` for the hybrid policy).
    pub(crate) kind: Kind,
    /// The deque's flavor (the base policy's, under `hybrid`).
    pub(crate) deque_kind: Kind,
    /// The deque policy (the base policy under `hybrid`).
    policy: Policy,
    /// `hybrid`: the workers the current task's work is meant for, `(first, count)`.
    range: Cell<(u32, u32)>,
    /// `hybrid`: round-robin position for mailed spawns.
    spawn_rr: Cell<u32>,
    /// Touched only by this thread, one short borrow at a time (never across user code).
    deque: UnsafeCell<LocalDeque>,
    /// This worker's `targeted` flag (in the registry, which outlives the worker).
    targeted: *const AtomicBool,
    /// For the signal handler (split deques under signal policies).
    exposer: Option<SignalExposer>,
    exposure: Exposure,
    /// LCWS: joins beyond this many private tasks run sequentially (see `join`).
    window: usize,
    rng: Cell<u64>,
    pub(crate) counters: WorkerCounters,
}

impl WorkerThread {
    fn new(registry: Arc<Registry>, index: usize, deque: LocalDeque) -> WorkerThread {
        let policy = registry.config.base;
        let exposer = match (&deque, policy.uses_signals()) {
            (LocalDeque::Split(d), true) => Some(d.signal_exposer()),
            _ => None,
        };
        let targeted: *const AtomicBool = &*registry.workers[index].targeted;
        let exposure = registry.config.exposure();
        let window = registry.config.lcws_window;
        WorkerThread {
            window,
            kind: Kind::of(registry.policy()),
            deque_kind: Kind::of(policy),
            policy,
            range: Cell::new((index as u32, 1)),
            spawn_rr: Cell::new(0),
            deque: UnsafeCell::new(deque),
            targeted,
            exposer,
            exposure,
            // Any non-zero seed; distinct per worker.
            rng: Cell::new(0x9E37_79B9_7F4A_7C15 ^ ((index as u64 + 1) << 17)),
            counters: WorkerCounters::default(),
            registry,
            index,
        }
    }

    /// The calling thread's worker, or null outside any pool.
    #[inline(always)]
    pub(crate) fn current() -> *const WorkerThread {
        CURRENT.with(Cell::get)
    }

    /// The worker's own deque.
    ///
    /// # Safety
    /// Only this worker's thread may call it (it reaches `self` through `CURRENT`), and the
    /// borrow must end before any other code that could borrow the deque runs (user code,
    /// another call of this function).
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    unsafe fn deque(&self) -> &mut LocalDeque {
        // SAFETY: the caller's contract.
        unsafe { &mut *self.deque.get() }
    }

    #[inline(always)]
    fn targeted(&self) -> &AtomicBool {
        // SAFETY: points into `self.registry`, which this worker keeps alive.
        unsafe { &*self.targeted }
    }

    fn info(&self, index: usize) -> &WorkerInfo {
        &self.registry.workers[index]
    }

    /// Pushes a job at the bottom of the local deque; `false` if the deque is full.
    ///
    /// # Safety
    /// `F` is this worker's flavor.
    #[inline(always)]
    pub(crate) unsafe fn push_as<F: Flavor>(&self, job: JobRef) -> bool {
        // SAFETY: flavor guaranteed by the caller.
        let pushed = unsafe { F::owner(self.deque()) }.push(job).is_ok();
        if F::SIGNAL {
            // A push is new work: thieves may signal again (003 §4). Relaxed: a hint.
            let targeted = self.targeted();
            if targeted.load(Ordering::Relaxed) {
                targeted.store(false, Ordering::Relaxed);
            }
        }
        pushed
    }

    /// LCWS: whether the private part holds a full window of tasks, so that a new join
    /// could not be exposed before them.
    ///
    /// # Safety
    /// `F` is this worker's flavor.
    #[inline(always)]
    pub(crate) unsafe fn window_full_as<F: Flavor>(&self) -> bool {
        // SAFETY: flavor guaranteed by the caller.
        F::window_full(unsafe { F::owner(self.deque()) }, self.window)
    }

    /// `lcws-poll`'s check on a join that runs sequentially.
    #[inline(always)]
    pub(crate) fn poll_as<F: Flavor>(&self) {
        if F::POLL {
            self.poll_exposure_request();
        }
    }

    /// Pushes a job (dispatching on the worker's flavor); `false` if the deque is full.
    pub(crate) fn push(&self, job: JobRef) -> bool {
        // SAFETY: the flavor is the deque's kind.
        unsafe { with_deque_flavor!(self.deque_kind, F => self.push_as::<F>(job)) }
    }

    /// After pushing a job: answer an exposure request (`lcws-poll`) and wake a sleeping
    /// worker if there is one.
    #[inline(always)]
    pub(crate) fn after_push_as<F: Flavor>(&self) {
        self.poll_as::<F>();
        if self.registry.sleep.has_sleepers() {
            self.wake_a_sleeper();
        }
    }

    /// [`after_push_as`](Self::after_push_as), dispatching on the worker's flavor.
    pub(crate) fn after_push(&self) {
        with_deque_flavor!(self.deque_kind, F => self.after_push_as::<F>())
    }

    /// A push found a sleeping worker: wake it. Under LCWS, first expose the oldest private
    /// task: a sleeping worker is a standing exposure request, and the woken thief can then
    /// steal at its first attempt. Without it, a thief that the OS wakes on the owner's own
    /// CPU (Linux often places a wakee there) cannot complete the request-then-steal
    /// handshake until the owner's time slice ends: measured, the second worker's first
    /// task started up to 4 ms late in a 6 ms `fib(32)`.
    #[cold]
    #[inline(never)]
    fn wake_a_sleeper(&self) {
        // SAFETY: on the owner thread; the borrow ends with the statement.
        if let LocalDeque::Split(d) = unsafe { self.deque() } {
            // One exposed task at a time: if the sleeper is slow to wake, later pushes must
            // not keep draining the private part.
            if d.public_len() == 0 {
                let exposed = d.expose(Exposure::One);
                self.counters.exposures.add(exposed as u64);
            }
        }
        self.registry.sleep.wake_one();
    }

    /// `lcws-poll`: one plain load of the `targeted` flag per scheduling step.
    #[inline(always)]
    fn poll_exposure_request(&self) {
        // Relaxed: a plain load (000: reading a fresh flag needs no synchronization).
        if self.targeted().load(Ordering::Relaxed) {
            self.expose_on_request();
        }
    }

    #[cold]
    #[inline(never)]
    fn expose_on_request(&self) {
        // SAFETY: on the owner thread; the borrow ends with the match.
        let exposed = match unsafe { self.deque() } {
            LocalDeque::Split(d) => d.expose(Exposure::One),
            _ => 0,
        };
        // Relaxed: a plain store, as 000 Algorithm 1 line 5 (a lost concurrent request is
        // benign: the exposed task serves it).
        self.targeted().store(false, Ordering::Relaxed);
        if exposed > 0 {
            self.counters.exposures.add(exposed as u64);
            if self.registry.sleep.has_sleepers() {
                self.registry.sleep.wake_one();
            }
        }
    }

    /// Pops the newest local job.
    ///
    /// # Safety
    /// `F` is this worker's flavor.
    #[inline(always)]
    pub(crate) unsafe fn take_local_as<F: Flavor>(&self) -> Option<JobRef> {
        self.poll_as::<F>();
        // SAFETY: flavor guaranteed by the caller.
        let owner = unsafe { F::owner(self.deque()) };
        match F::pop_newest(owner) {
            Some(job) => Some(job),
            None if F::POLL || F::SIGNAL => self.pop_public(),
            None => None,
        }
    }

    /// Pops the newest local job (dispatching on the worker's flavor).
    pub(crate) fn take_local(&self) -> Option<JobRef> {
        // SAFETY: the flavor is the deque's kind.
        unsafe { with_deque_flavor!(self.deque_kind, F => self.take_local_as::<F>()) }
    }

    /// `hybrid`: the current task's worker range.
    #[inline(always)]
    pub(crate) fn range(&self) -> (u32, u32) {
        self.range.get()
    }

    /// Runs `f` with the worker range `range`, restoring the current one afterwards (also
    /// if `f` panics: the panic then propagates).
    pub(crate) fn run_in_range<R>(&self, range: (u32, u32), f: impl FnOnce() -> R) -> R {
        struct Restore<'a>(&'a WorkerThread, (u32, u32));
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                self.0.range.set(self.1);
            }
        }
        let _restore = Restore(self, self.range.replace(range));
        f()
    }

    /// `hybrid`: the next round-robin offset in `0..count` for a mailed spawn.
    pub(crate) fn next_spawn_target(&self, count: u32) -> u32 {
        let k = self.spawn_rr.get() % count;
        self.spawn_rr.set(k + 1);
        k
    }

    /// `hybrid`: mails `proxy` to worker `target` and wakes it if it sleeps.
    pub(crate) fn mail(&self, target: usize, proxy: std::ptr::NonNull<crate::mailbox::Proxy>) {
        // SAFETY: a fresh proxy, in no mailbox.
        unsafe { self.info(target).mailbox.push(proxy) };
        self.counters.mailed.bump();
        if let Some(h) = &self.registry.hybrid {
            h.mailed();
        }
        // StoreLoad between the mail and the sleep-state read (the Dekker pattern with a
        // worker falling asleep, which announces itself, fences, then checks its mailbox).
        crate::stats::seq_cst_fence(crate::stats::Side::Scheduler);
        self.registry.sleep.wake_worker(target);
    }

    /// `hybrid`: the oldest proxy in this worker's own mailbox.
    pub(crate) fn pop_mail(&self) -> Option<std::ptr::NonNull<crate::mailbox::Proxy>> {
        let mailbox = &self.info(self.index).mailbox;
        if mailbox.is_empty() {
            return None;
        }
        // SAFETY: each worker is the single consumer of its own mailbox.
        unsafe { mailbox.pop() }
    }

    /// Counts a task whose body starts now, and records its start if enabled.
    #[inline(always)]
    pub(crate) fn task_starts(&self) {
        self.counters.tasks.bump();
        self.record_start();
    }

    /// Records a task start when start latencies are being recorded.
    #[inline(always)]
    pub(crate) fn record_start(&self) {
        if let Some(rec) = &self.registry.latency {
            rec.record(self.index);
        }
    }

    #[inline(never)]
    fn pop_public(&self) -> Option<JobRef> {
        // SAFETY: on the owner thread; the borrow ends with this function.
        let LocalDeque::Split(d) = (unsafe { self.deque() }) else {
            return None;
        };
        let job = d.pop_public_bottom();
        if job.is_some() && self.policy.uses_signals() {
            // A public task was removed: thieves may signal again (003 §4).
            self.targeted().store(false, Ordering::Relaxed);
        }
        job
    }

    /// Runs in the exposure signal handler on this worker's thread.
    pub(crate) fn on_exposure_signal(&self) {
        if let Some(exposer) = self.exposer {
            // SAFETY: we are on the owner's thread (the handler interrupted it) and the deque
            // lives as long as `self`.
            let exposed = unsafe { exposer.expose(self.exposure) };
            self.counters.handler_exposures.add(exposed as u64);
        }
    }

    /// A uniformly random worker other than this one (xorshift64*).
    fn random_victim(&self) -> usize {
        let n = self.registry.num_threads();
        let mut x = self.rng.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng.set(x);
        let r = (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as usize % (n - 1);
        if r >= self.index {
            r + 1
        } else {
            r
        }
    }

    /// One steal attempt on a random victim.
    fn steal_once(&self) -> Option<JobRef> {
        if self.registry.num_threads() < 2 {
            return None;
        }
        if let Some(h) = &self.registry.hybrid {
            if !h.can_steal() {
                return None;
            }
        }
        let info = self.info(self.random_victim());
        self.counters.steal_attempts.bump();
        match info.steal() {
            Steal::Success(job) => Some(self.stole(info, job)),
            Steal::PrivateWork => {
                if self.notify(info) {
                    self.await_exposure(info)
                } else {
                    None
                }
            }
            Steal::Empty | Steal::Abort => None,
        }
    }

    /// After asking `info`'s worker to expose work: watch its public part for a short
    /// while (an exposure takes one poll or one signal delivery, microseconds) instead of
    /// yielding at once, which on a loaded machine gives the processor away for a whole
    /// time slice and lets the exposed task be reclaimed by its owner. Looking costs no
    /// fence while the public part is empty.
    fn await_exposure(&self, info: &WorkerInfo) -> Option<JobRef> {
        const CHECKS: u32 = 64;
        const SPINS_PER_CHECK: u32 = 32;
        for _ in 0..CHECKS {
            for _ in 0..SPINS_PER_CHECK {
                std::hint::spin_loop();
            }
            self.counters.steal_attempts.bump();
            match info.steal() {
                Steal::Success(job) => return Some(self.stole(info, job)),
                // Still private: keep watching (a lost race also leaves more to take).
                Steal::PrivateWork | Steal::Abort => {}
                // The victim ran out of work: look elsewhere.
                Steal::Empty => return None,
            }
        }
        None
    }

    /// Bookkeeping of a successful steal from `info`'s worker.
    fn stole(&self, info: &WorkerInfo, job: JobRef) -> JobRef {
        self.counters.steals.bump();
        // A public task was removed: the victim may be signalled again (003 §4).
        // Relaxed: the flag is a duplicate-signal filter.
        if self.policy.uses_signals() && info.targeted.load(Ordering::Relaxed) {
            info.targeted.store(false, Ordering::Relaxed);
        }
        job
    }

    /// Asks the worker of `info`, which has private work only, to expose some. Returns
    /// whether an exposure is on its way (requested now or by an earlier request).
    fn notify(&self, info: &WorkerInfo) -> bool {
        // Relaxed throughout: the flag is a request and a duplicate-signal filter; a stale
        // read costs at most one extra request.
        if info.targeted.load(Ordering::Relaxed) {
            return true;
        }
        match self.policy {
            Policy::LcwsPoll => {
                info.targeted.store(true, Ordering::Relaxed);
                true
            }
            Policy::LcwsSignal | Policy::LcwsHalf | Policy::LcwsCons => {
                if self.policy == Policy::LcwsCons && info.stealer.private_len() < 2 {
                    return false; // 003 "Cons": never ask for the last private task
                }
                info.targeted.store(true, Ordering::Relaxed);
                self.counters.signals.bump();
                // SAFETY: workers stay alive until every worker stopped stealing
                // (`Registry::worker_stopping`), and `victim != self.index`.
                unsafe { exposure::send(info.pthread(), self.registry.config.signal) };
                true
            }
            _ => false,
        }
    }

    /// Runs one piece of work if there is some: mail (`hybrid`), local work, one steal
    /// attempt, an injected job. Returns whether it ran something.
    #[inline]
    fn run_some_work(&self) -> bool {
        if self.kind == Kind::Hybrid && crate::hybrid::run_mail(self) {
            return true;
        }
        if let Some(job) = self.take_local() {
            self.execute(job);
            return true;
        }
        if let Some(job) = self.steal_once() {
            // A stolen task's work is this worker's alone (`hybrid`).
            self.run_in_range((self.index as u32, 1), || self.execute(job));
            return true;
        }
        if let Some(job) = self.registry.pop_injected() {
            self.run_origin(job);
            return true;
        }
        false
    }

    /// `hybrid`: whether the steal gate is still closed (an origin task is distributing
    /// work by mail).
    fn awaiting_mail(&self) -> bool {
        self.registry
            .hybrid
            .as_ref()
            .is_some_and(|h| !h.can_steal())
    }

    /// Runs an injected job: an origin task (start latency, `hybrid`'s range and gate).
    fn run_origin(&self, job: JobRef) {
        if let Some(rec) = &self.registry.latency {
            rec.origin(self.index);
        }
        match &self.registry.hybrid {
            Some(h) => {
                h.origin_started();
                let all = self.registry.num_threads() as u32;
                self.run_in_range((self.index as u32, all), || self.execute(job));
            }
            None => self.execute(job),
        }
    }

    /// Runs a job taken from a deque or the injector. (Task counts and start times are
    /// recorded by the job itself when its body starts, so a proxy, which may lose its
    /// claim, is not counted as a task.)
    #[inline]
    pub(crate) fn execute(&self, job: JobRef) {
        // SAFETY: jobs in deques and the injector are alive and not yet run; each is taken
        // from exactly one place exactly once (the deques' exactly-once guarantee).
        unsafe { job.execute() }
    }

    /// Runs other work until `latch` is set; yields between failed steal attempts and
    /// sleeps after a while.
    pub(crate) fn wait_until<L: Probe + ?Sized>(&self, latch: &L) {
        let spin_rounds = self.registry.config.spin_rounds;
        let mut idle_rounds = 0u32;
        while !latch.probe() {
            if self.run_some_work() {
                idle_rounds = 0;
                continue;
            }
            idle_rounds += 1;
            if idle_rounds <= spin_rounds {
                if self.awaiting_mail() {
                    // `hybrid` before its steal gate opens: work is about to arrive by mail,
                    // so watch the mailbox (one load per check) instead of giving the
                    // processor away.
                    let mailbox = &self.info(self.index).mailbox;
                    for _ in 0..256 {
                        if !mailbox.is_empty() {
                            break;
                        }
                        std::hint::spin_loop();
                    }
                } else {
                    // 002's yield between consecutive steal attempts.
                    thread::yield_now();
                }
                continue;
            }
            let registry = &*self.registry;
            let index = self.index;
            if registry
                .sleep
                .sleep(index, || latch.probe() || registry.has_visible_work(index))
            {
                self.counters.sleeps.bump();
            }
            idle_rounds = 0;
        }
    }
}

/// Pins the calling thread to the `index`-th CPU (round-robin) of the set it may run on.
/// Best effort: a failure leaves the thread unpinned.
fn pin_to_allowed_cpu(index: usize) {
    // SAFETY: `cpu_set_t` is plain data; the calls only read and write the sets we pass.
    unsafe {
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut allowed) != 0 {
            return;
        }
        let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &allowed))
            .collect();
        if cpus.len() < 2 {
            return;
        }
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpus[index % cpus.len()], &mut one);
        libc::sched_setaffinity(0, size, &one);
    }
}

/// The body of a worker thread.
pub(crate) fn main_loop(registry: Arc<Registry>, index: usize, deque: LocalDeque) {
    // A panic escaping the scheduler itself (not a task: tasks' panics are caught) would
    // leave joiners waiting forever; abort instead.
    struct AbortOnUnwind;
    impl Drop for AbortOnUnwind {
        fn drop(&mut self) {
            eprintln!("splitsteal: a worker thread panicked outside any task; aborting");
            std::process::abort();
        }
    }
    let guard = AbortOnUnwind;
    if registry.config.pin_threads {
        pin_to_allowed_cpu(index);
    }
    let worker = WorkerThread::new(registry, index, deque);
    CURRENT.with(|c| c.set(&worker));
    worker.registry.worker_started(&worker);
    worker.wait_until(&Terminated(&worker.registry));
    // An idle pool's deques can still hold `hybrid` proxies whose task the mailbox side
    // claimed (their deque side frees them when popped): pop them before the deque goes.
    while let Some(job) = worker.take_local() {
        worker.execute(job);
    }
    worker.registry.worker_stopping(index);
    // Cleared before `worker` is dropped: a late signal handler then sees null.
    CURRENT.with(|c| c.set(ptr::null()));
    std::mem::forget(guard);
}

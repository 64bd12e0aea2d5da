//! A worker thread and its scheduling loop, per policy.
//!
//! Every policy runs the same loop (ABP paper Fig. 3 / LCWS paper Algorithm 1, in
//! fork-join form): take local work (pop the newest task), else make one steal attempt on a
//! uniformly random other worker, else take a job injected from outside; between failed
//! attempts yield the processor (ABP's `yield`, so a pool with more workers than free cores
//! keeps going), and after a while sleep. The policies differ in the deque and in what a
//! thief does when a victim has only private work:
//!
//! | policy | deque | on `PrivateWork` | victim exposes |
//! |---|---|---|---|
//! | `locked`, `abp`, `chase-lev` | mutex / ABP / Chase-Lev | (never returned) | (everything is public) |
//! | `lcws-poll` | split | post a poll request in the victim's `Wanted` | one task, at its next push or pop |
//! | `lcws-signal` | split | `pthread_kill`, unless a signal is already on its way | one task, in the signal handler |
//! | `lcws-cons` | split | as `lcws-signal` | one task, never the last, unless asked again after an answer that exposed nothing |
//! | `lcws-half` | split | as `lcws-signal` | ⌈r/2⌉ of r private tasks |
//!
//! Every join is recorded: from the moment `join` starts `a` until it pops `b` back, `b` is
//! in the deque, where a thief can reach it (the LCWS paper's bound assumes exactly this).
//!
//! A thief that asked and got no answer (the victim is descheduled, or polls only at its
//! next join) yields, then naps or sleeps: it never spins on a CPU its victim may need.
//! How sleepers are woken without a fence on the push path: `crate::wakeup`.

use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{compiler_fence, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crate::deque::{Exposure, SignalExposer, Steal, StealAmount};
use crate::hybrid;
use crate::job::JobRef;
use crate::latch::{JoinLatch, Probe, Unpushed};
use crate::local::LocalDeque;
use crate::mailbox::WorkerRange;
use crate::plan::Asking;
use crate::registry::{Registry, Terminated, WorkerInfo};
use crate::sleep::{Verdict, NAP};
use crate::stats::{count_rmw, Side};
use crate::stats::{Counter, Stats};
use crate::wakeup::Wanted;

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
    // `CURRENT` where its worker may have thieves, null where it has none (the only
    // worker of an `asym` pool) or no worker is current: `join`'s one load, which then takes
    // its common path as it did with `CURRENT` alone (see `WorkerThread::for_join`).
    static JOINS_IN_DEQUE: Cell<*const WorkerThread> = const { Cell::new(ptr::null()) };
}

/// Makes `w` (null: none) the calling thread's current worker, for every reader: the
/// pool operations, `join`'s fast path, the exposure signal handler.
fn set_current(w: *const WorkerThread) {
    // SAFETY: a non-null `w` is a live worker, being entered by this thread.
    let shared = match unsafe { w.as_ref() } {
        Some(worker) if !worker.alone => w,
        _ => ptr::null(),
    };
    JOINS_IN_DEQUE.with(|c| c.set(shared));
    CURRENT.with(|c| c.set(w));
}

thread_local! {
    /// This thread's borrowed worker (`use_current_thread`), entered or not; null if none.
    /// `const`, no destructor: read by the exposure signal handler too.
    static BORROWED: Cell<*const WorkerThread> = const { Cell::new(ptr::null()) };
    /// Ends the borrowed worker's role when its thread exits.
    static ROLE: RoleGuard = const { RoleGuard };
}

/// Its destructor runs when a thread that was given a borrowed worker exits.
struct RoleGuard;

impl Drop for RoleGuard {
    fn drop(&mut self) {
        // `BORROWED` has no destructor, so it is still readable here.
        let w = BORROWED.with(Cell::get);
        if !w.is_null() {
            // SAFETY: the thread is exiting: nothing on its stack uses the worker (an
            // operation that entered it would have returned).
            unsafe { leave_borrowed(w) };
        }
    }
}

/// Makes the calling thread worker 0 of `registry` (`use_current_thread`), until the pool
/// is dropped on this thread, the thread exits, or (dropped elsewhere) the pool has
/// terminated and this thread next uses a pool. The worker is *borrowed*: the thread runs
/// its own code and is entered as the pool's worker ([`Entered`]) only for the pool
/// operations it calls. The caller checked that the thread has no worker yet.
pub(crate) fn start_borrowed(registry: Arc<Registry>, deque: LocalDeque) {
    debug_assert!(WorkerThread::current().is_null() && BORROWED.with(Cell::get).is_null());
    if let Some(signo) = registry.config.plan.signal() {
        // The other workers signal this thread too (through its gate).
        crate::exposure::unblock(signo);
    }
    let worker = Box::into_raw(Box::new(WorkerThread::new(registry, 0, deque, true)));
    // Registers the destructor that ends the role at thread exit.
    ROLE.with(|_| ());
    BORROWED.with(|b| b.set(worker));
    // SAFETY: just allocated; freed only by `leave_borrowed`, on this thread.
    let worker = unsafe { &*worker };
    worker.registry.worker_started(worker);
}

/// The calling thread's borrowed worker, when no operation of its pool is running on
/// this thread (`CURRENT` is null). A borrowed worker whose pool has terminated (it was
/// dropped on another thread) leaves here, and `None` is returned.
pub(crate) fn borrowed_worker<'a>() -> Option<&'a WorkerThread> {
    debug_assert!(WorkerThread::current().is_null());
    let w = BORROWED.with(Cell::get);
    // SAFETY: a non-null borrowed worker is alive until `leave_borrowed` on this thread.
    let worker = unsafe { w.as_ref() }?;
    if worker.registry.is_terminated() {
        // SAFETY: `CURRENT` is null: no operation of the pool uses the worker here.
        unsafe { leave_borrowed(w) };
        return None;
    }
    Some(worker)
}

/// The pool `registry` is being dropped on this thread: its borrowed worker, if this thread
/// is it, leaves now, or when the operation of the pool running here returns.
pub(crate) fn end_borrowed_role(registry: &Arc<Registry>) {
    let w = BORROWED.with(Cell::get);
    // SAFETY: as in `borrowed_worker`.
    let Some(worker) = (unsafe { w.as_ref() }) else {
        return;
    };
    if !Arc::ptr_eq(&worker.registry, registry) {
        return;
    }
    if WorkerThread::current().is_null() {
        // SAFETY: no operation of the pool runs on this thread.
        unsafe { leave_borrowed(w) };
    } else {
        // The operation's `Entered` guard makes us leave on its way out.
        worker.leave_pending.set(true);
    }
}

/// Ends a borrowed worker's role: runs what is still addressed to it (its share of
/// broadcasts, its mail, jobs spawned into its deque), closes its signal gate, hands its
/// counts to the registry and frees it.
///
/// # Safety
/// `w` is this thread's borrowed worker and nothing on this thread's stack uses it
/// (`CURRENT` is null).
unsafe fn leave_borrowed(w: *const WorkerThread) {
    // SAFETY: the caller's guarantee.
    let worker = unsafe { &*w };
    set_current(w);
    worker.run_own_work();
    set_current(ptr::null());
    let registry = Arc::clone(&worker.registry);
    registry.workers[worker.index].close_gate();
    registry.borrowed_worker_left(worker.index);
    BORROWED.with(|b| b.set(ptr::null()));
    // A signal handler that runs after this sees null, never the freed worker (it runs on
    // this thread, so the compiler's order is the order it sees).
    compiler_fence(Ordering::SeqCst);
    // SAFETY: made by `Box::into_raw` in `start_borrowed`; no reference to it remains.
    drop(unsafe { Box::from_raw(w.cast_mut()) });
}

/// The calling thread's borrowed worker, entered as its current worker for the guard's
/// lifetime: how a pool operation called on that thread runs on the pool, as on any of its
/// workers. On exit, tasks it left in its deque (spawned, not yet run) are exposed to
/// thieves, since the thread is about to run its own code again.
pub(crate) struct Entered(*const WorkerThread);

impl Entered {
    /// Enters the calling thread's borrowed worker, if it has one and is not inside an
    /// operation of a pool already (`CURRENT` is null).
    pub(crate) fn borrowed() -> Option<Entered> {
        if !WorkerThread::current().is_null() {
            return None;
        }
        let w: *const WorkerThread = borrowed_worker()?;
        set_current(w);
        Some(Entered(w))
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        // SAFETY: alive until `leave_borrowed`, which only runs once `CURRENT` is null.
        let worker = unsafe { &*self.0 };
        worker.publish_local_work();
        set_current(ptr::null());
        if worker.leave_pending.get() {
            // SAFETY: `CURRENT` is null again: the entered operation has returned.
            unsafe { leave_borrowed(self.0) };
        }
    }
}

/// A worker: its deque, its random victim picker, its counters.
pub(crate) struct WorkerThread {
    pub(crate) registry: Arc<Registry>,
    pub(crate) index: usize,
    /// The worker's own deque (the plan's choice, decided when the pool was built).
    pub(crate) deque: LocalDeque,
    /// This worker's `Wanted` word (in the registry, which outlives the worker).
    wanted: *const Wanted,
    /// For the signal handler (split deques under signal policies).
    exposer: Option<SignalExposer>,
    /// How much an answer to a thief's request exposes (`Asking::exposure`), and how this
    /// pool's workers ask each other for private work ...
    asking: Asking,
    /// ... except a borrowed worker 0 (`use_current_thread`), which polls instead of
    /// signalling: its thread may leave the pool while others still run, so nothing may
    /// make the others wait for it (the exit barrier that keeps signalled threads alive).
    thief_asking: Asking,
    /// A borrowed worker whose pool was dropped while it ran one of the pool's operations:
    /// it leaves when that operation returns.
    leave_pending: Cell<bool>,
    /// Whether task starts are recorded (a copy of the registry's setting, one load away).
    records_starts: bool,
    /// The only worker of an `asym` pool that records no task starts: no thief can ever
    /// take a join's second closure, so `join` runs both closures in line. The papers'
    /// policies keep their deque operations at one worker, where the papers measure them.
    alone: bool,
    rng: Cell<u64>,
    /// How many sleepers this worker has woken since a sleeper's request last reached it
    /// (`answer_wants`: a burst wakes one per task a thief can take).
    burst_woken: Cell<usize>,
    pub(crate) counters: WorkerCounters,
}

impl WorkerThread {
    fn new(registry: Arc<Registry>, index: usize, deque: LocalDeque, borrowed: bool) -> Self {
        let plan = registry.config.plan;
        let wanted: *const Wanted = registry.workers[index].wanted();
        let thief_asking = match plan.asking {
            Asking::Signal { .. } if borrowed => Asking::Poll,
            asking => asking,
        };
        WorkerThread {
            records_starts: registry.latency.is_some(),
            // Fixed for the pool's life: a pool never gains workers.
            alone: registry.workers.len() == 1
                && registry.latency.is_none()
                && registry.policy() == crate::Policy::Asym,
            exposer: deque.signal_exposer(),
            deque,
            wanted,
            asking: plan.asking,
            thief_asking,
            leave_pending: Cell::new(false),
            // Any non-zero seed; distinct per worker.
            rng: Cell::new(0x9E37_79B9_7F4A_7C15 ^ ((index as u64 + 1) << 17)),
            burst_woken: Cell::new(0),
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

    /// The calling thread's worker unless it is alone (the only worker of an `asym` pool:
    /// `join` then runs both closures in line; see [`WorkerThread::current`]); null
    /// outside any pool too.
    #[inline(always)]
    pub(crate) fn for_join() -> *const WorkerThread {
        JOINS_IN_DEQUE.with(Cell::get)
    }

    /// The calling thread's worker, or else its borrowed worker (not entered), for
    /// questions about it (its pool, index, deque length): not for running work, which
    /// needs the worker entered ([`Entered`]).
    pub(crate) fn current_or_borrowed<'a>() -> Option<&'a WorkerThread> {
        Self::current_ref().or_else(borrowed_worker)
    }

    /// For the exposure signal handler: the current worker, else the borrowed one.
    /// Async-signal-safe (two `const` thread-local loads).
    #[inline]
    pub(crate) fn signal_target() -> *const WorkerThread {
        let w = Self::current();
        if w.is_null() {
            BORROWED.with(Cell::get)
        } else {
            w
        }
    }

    /// Runs what is addressed to this worker alone until none is left: its share of
    /// broadcasts, its mail (`hybrid`) and the jobs in its deque. (A borrowed worker
    /// leaving its pool.)
    fn run_own_work(&self) {
        loop {
            if let Some(job) = self.info(self.index).broadcasts.pop() {
                hybrid::run_in_range(self, WorkerRange::one(self.index), || self.execute(job));
                continue;
            }
            if self.deque.hybrid().is_some() && hybrid::run_mail(self) {
                continue;
            }
            if !self.run_local() {
                return;
            }
        }
    }

    /// A borrowed worker returning to its thread's own code: makes the tasks left in its
    /// deque (spawned inside the operation, not yet run) public, and wakes a sleeper to
    /// take them, since this thread will not look at them until it blocks on the pool.
    fn publish_local_work(&self) {
        if self.deque.is_empty() {
            return;
        }
        if let Some(d) = self.deque.split() {
            // SAFETY: on the owner's thread, outside any other borrow of the deque (the
            // operation has returned); the borrow ends with this block.
            let d = unsafe { &mut *d.get() };
            let mut exposed = 0;
            loop {
                let n = d.expose(Exposure::Half);
                if n == 0 {
                    break;
                }
                exposed += n;
            }
            self.counters.exposures.add(exposed as u64);
        }
        self.registry.sleep.wake_all();
    }

    /// The calling thread's worker (of any pool), if it is one.
    #[inline]
    pub(crate) fn current_ref<'a>() -> Option<&'a WorkerThread> {
        // SAFETY: a non-null current worker is this thread's own; it lives until its thread
        // leaves `main_loop`, after everything the thread runs (the callers' borrows end
        // within the task or call that made them).
        unsafe { Self::current().as_ref() }
    }

    #[inline(always)]
    fn wanted(&self) -> &Wanted {
        // SAFETY: points into `self.registry`, which this worker keeps alive.
        unsafe { &*self.wanted }
    }

    fn info(&self, index: usize) -> &WorkerInfo {
        &self.registry.workers[index]
    }

    /// Pushes a job at the bottom of the local deque; `false` if the deque is full.
    pub(crate) fn push(&self, job: JobRef) -> bool {
        // SAFETY: `self` is the calling thread's worker (a `WorkerThread` is `!Sync` and
        // reached only through its own thread's pointer), so this is the owner thread.
        unsafe { self.deque.push(job) }
    }

    /// Pushes a spawned job (or a FIFO's reference) and answers waiting thieves. A full
    /// deque (one holding its capacity of tasks) hands it to the pool's injector instead,
    /// where any worker, this one included, takes it later: `spawn` never runs its closure
    /// inside the call (issue 33, defect 4: a spawner that holds a lock its task takes, or
    /// that sends to the task it spawned, would deadlock).
    pub(crate) fn push_or_inject(&self, job: JobRef) {
        if self.push(job) {
            self.after_push();
        } else {
            self.registry.inject(job);
        }
    }

    /// Pops the newest local job.
    pub(crate) fn take_local(&self) -> Option<JobRef> {
        // SAFETY: as in `push`: the owner thread, and `self` owns the deque.
        unsafe { self.deque.take(self) }
    }

    /// After a push: one plain load of this worker's `Wanted` word, and the cold path if a
    /// thief wants something (an exposure, a wake-up).
    #[inline(always)]
    pub(crate) fn after_push(&self) {
        if self.wanted().is_set_after_push() {
            self.answer_wants();
        }
    }

    /// Whether some thief asks this worker for work by polling (answered only at pushes,
    /// pops and `serve_thieves`): under `lcws-poll`, and under the signal policies in a
    /// pool whose borrowed worker 0 polls when it steals (`use_current_thread`).
    pub(crate) fn thieves_poll(&self) -> bool {
        match self.asking {
            Asking::Poll => true,
            Asking::Signal { .. } => self.registry.config.use_current_thread,
            Asking::Never => false,
        }
    }

    /// Whether a thief or a sleeper wants something from this worker: one plain load
    /// (checked after a push, and before a pop).
    #[inline(always)]
    pub(crate) fn is_wanted(&self) -> bool {
        self.wanted().has_wants()
    }

    /// Answers what thieves want: an `asym` thief's posted claim is answered (the deque's
    /// `answer_claim`), a poll request or a sleeper's standing request gets one
    /// exposure (if nothing is public yet), and a sleeper is woken (and under a deque
    /// whose every task is stealable, more at the next pushes and pops while they have
    /// tasks to take: `Wanted::BURST`). With nothing to give,
    /// a poll request is answered empty and a sleeper's request is left for the next push
    /// (waking it now would only have it fall asleep again). Runs on the owner's thread
    /// outside any signal handler.
    #[cold]
    #[inline(never)]
    pub(crate) fn answer_wants(&self) {
        if self.wanted().has_claim_posted() {
            // SAFETY: on the owner's thread (`self` is the calling thread's worker).
            unsafe { self.deque.answer_claim() };
            if !self.wanted().has_other_wants() {
                return;
            }
        }
        if self.deque.is_empty() {
            count_rmw(Side::Scheduler);
            self.wanted().clear(Wanted::POLL_REQUEST);
            return;
        }
        count_rmw(Side::Scheduler);
        let wants = self.wanted().take();
        // After the Acquire in `take`: a sleeper whose want we took is counted here.
        let sleepers = self.registry.sleep.has_sleepers();
        let poll_request = wants & Wanted::POLL_REQUEST != 0;
        let sleeper = wants & Wanted::SLEEPER != 0 && sleepers;
        if (poll_request || sleeper)
            && let Some(d) = self.deque.split()
        {
            // SAFETY: on the owner's thread, outside any other borrow of the deque (our
            // callers hold none); the borrow ends with this block.
            let d = unsafe { &mut *d.get() };
            // One exposed task at a time: while it waits for its thief, later pushes do
            // not keep draining the private part.
            if d.public_len() == 0 {
                let info = self.info(self.index);
                let exposed = d.expose(self.answer_exposure(info));
                self.counters.exposures.add(exposed as u64);
                self.answered_with(info, exposed);
            }
        }
        // A sleeper's request wakes one sleeper. While more sleep, a burst note
        // (`Wanted::BURST`) sends this worker's next push or pop here again, to wake
        // another if its deque then holds more tasks than it woke thieves for (every task
        // is stealable where the note is left).
        // A burst of work on one worker (a spawn loop, the first splits of a recursion or
        // a parallel loop after an idle spell) so wakes a sleeper per push, as many as its
        // tasks can keep busy, rather than one per round of thieves' passed-on wake-ups
        // (`stole`); a join that pops its own task back at once wakes one, as before.
        let woken = if sleeper {
            0
        } else if wants & Wanted::BURST != 0
            && sleepers
            && self.deque.len() > self.burst_woken.get()
        {
            self.burst_woken.get()
        } else {
            return;
        };
        if self.registry.sleep.wake_one() {
            self.burst_woken.set(woken + 1);
            // Not under the LCWS policies: their answer exposes one task at a time, which
            // one thief takes.
            if self.deque.split().is_none() && self.registry.sleep.has_sleepers() {
                count_rmw(Side::Scheduler);
                self.wanted().post(Wanted::BURST);
            }
        }
    }

    /// Counts a task whose body starts now, and records its start if enabled.
    #[inline(always)]
    pub(crate) fn task_starts(&self) {
        self.counters.tasks.bump();
        self.record_start();
    }

    /// Counts the start of a join's second closure, popped back to run inline, without
    /// recording it: the fast path tests no flag, and a pool that records starts has its
    /// deque's pop out of line, where the record is taken (`LocalDeque::take_fork`,
    /// `take_back`).
    #[inline(always)]
    pub(crate) fn inline_task_starts(&self) {
        self.counters.tasks.bump();
    }

    /// Records a task start when start latencies are being recorded.
    #[inline(always)]
    pub(crate) fn record_start(&self) {
        if self.records_starts {
            self.record_start_cold();
        }
    }

    /// Whether this is the only worker of an `asym` pool that records no task starts: no
    /// thief can take what it pushes, so joins run both closures in line.
    #[inline(always)]
    pub(crate) fn is_alone(&self) -> bool {
        self.alone
    }

    /// Whether this pool records task starts.
    #[inline(always)]
    pub(crate) fn records_starts(&self) -> bool {
        self.records_starts
    }

    /// Records a task start (in a pool that records them: see `records_starts`).
    #[cold]
    #[inline(never)]
    pub(crate) fn record_start_cold(&self) {
        if let Some(rec) = &self.registry.latency {
            rec.record(self.index);
        }
    }

    /// `join`'s second job `ours` was not the first job popped (`popped`): pops and runs
    /// local jobs (pushed by a scope inside the first closure) until `ours` comes back, and
    /// returns `true` then (the caller runs it inline). Returns `false` once `latch` is set:
    /// `ours` ran through its job (a thief took it; or, when the deque did not take it
    /// (`latch.unpushed()`), this worker ran it here or `hybrid` delivered it), and its
    /// result is in the job. Not generic: one copy serves every join.
    ///
    /// Cold: it runs only when the first pop did not bring `ours` back; told so, LLVM keeps
    /// `latch`'s address out of the hot path's registers (0.7 to 1.6 instructions fewer per
    /// join on the classical deques, measured with callgrind).
    #[cold]
    #[inline(never)]
    pub(crate) fn take_back(
        &self,
        ours: JobRef,
        latch: &JoinLatch,
        popped: Option<JobRef>,
    ) -> bool {
        match latch.unpushed() {
            Unpushed::No => {}
            Unpushed::Full => {
                // `ours` was never published, and `popped` is older work: put it back
                // where it was (its slot is free again) and run `ours` through its job.
                // (The slot it left is free, so the push succeeds; were it ever refused,
                // running the job here would still lose nothing.)
                if let Some(job) = popped
                    && !self.push(job)
                {
                    self.execute(job);
                }
                self.execute(ours);
                return false;
            }
            Unpushed::Mailed => {
                // SAFETY: marked `Mailed` by `hybrid::mail_fork`, on this worker.
                unsafe { hybrid::finish_mailed(self, latch, popped) };
                return false;
            }
        }
        let back = self.pop_until(ours, latch, popped);
        if back {
            // `join` runs it inline and only counts it (`inline_task_starts`).
            self.record_start();
        }
        back
    }

    /// [`WorkerThread::take_back`] for a job that was pushed: pops and runs local jobs
    /// until `ours` comes back (`true`) or `latch` is set (`false`), starting from
    /// `popped`, the result of the last pop.
    pub(crate) fn pop_until(
        &self,
        ours: JobRef,
        latch: &JoinLatch,
        mut popped: Option<JobRef>,
    ) -> bool {
        loop {
            match popped {
                Some(job) if job == ours => return true,
                Some(job) => {
                    self.execute(job);
                    if latch.probe() {
                        return false;
                    }
                }
                // Nothing left: a thief took `ours`.
                None => break,
            }
            popped = self.take_local();
        }
        self.wait_until(latch);
        false
    }

    /// Runs in the exposure signal handler on this worker's thread.
    ///
    /// Async-signal-safe: atomic loads and stores and the deque's handler-safe exposure.
    pub(crate) fn on_exposure_signal(&self) {
        if let Some(exposer) = self.exposer {
            let info = self.info(self.index);
            let how = self.answer_exposure(info);
            // SAFETY: we are on the owner's thread (the handler interrupted it) and the deque
            // lives as long as `self`.
            let exposed = unsafe { exposer.expose(how) };
            self.counters.handler_exposures.add(exposed as u64);
            self.answered_with(info, exposed);
            // Relaxed: a hint for the thieves' overdue check; a stale count only makes one
            // of them wait longer before its next look.
            info.rearms.store(0, Ordering::Relaxed);
            // A thief that sees the answer also sees the exposure (or, if we interrupted the
            // owner's own `expose`, sees it a few instructions later, when that call serves
            // our deferred request and counts it under `exposures`).
            info.signalled.answer();
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
        if let Some(h) = &self.registry.hybrid
            && !h.can_steal()
        {
            return None;
        }
        let info = self.info(self.random_victim());
        self.counters.steal_attempts.bump();
        match info.steal(self.registry.config.plan.steal, |job| {
            self.push_or_inject(job)
        }) {
            Steal::Success(job) => Some(self.stole(job, info)),
            Steal::PrivateWork => {
                self.notify(info);
                self.await_exposure(info)
            }
            Steal::Empty | Steal::Abort => None,
        }
    }

    /// After asking `info`'s worker to expose work: watch its public part for a short
    /// while (an exposure takes one poll or one signal delivery, microseconds) instead of
    /// yielding at once, which on a loaded machine gives the processor away for a whole
    /// time slice and lets the exposed task be reclaimed by its owner. Looking costs no
    /// fence while the public part is empty. An answer that left nothing to take (another
    /// thief took it, or `lcws-cons` kept its last task) is followed by a new request,
    /// which under `lcws-cons` gets the last task.
    fn await_exposure(&self, info: &WorkerInfo) -> Option<JobRef> {
        const CHECKS: u32 = 64;
        const SPINS_PER_CHECK: u32 = 32;
        for _ in 0..CHECKS {
            for _ in 0..SPINS_PER_CHECK {
                std::hint::spin_loop();
            }
            self.counters.steal_attempts.bump();
            // One task: only split deques answer `PrivateWork`.
            match info.steal(StealAmount::One, |_| {}) {
                Steal::Success(job) => return Some(self.stole(job, info)),
                // Still private: ask again once the last request was answered.
                Steal::PrivateWork => {
                    if self.answered(info) {
                        self.notify(info);
                    }
                }
                // A lost race leaves more to take.
                Steal::Abort => {}
                // The victim ran out of work: look elsewhere.
                Steal::Empty => return None,
            }
        }
        None
    }

    /// Bookkeeping of a successful steal from `victim`, and the wake-up it passes on.
    ///
    /// A victim's pushes wake a sleeper each while it holds tasks for them
    /// (`answer_wants`), but a victim deep in a task neither pushes nor pops, and a split
    /// deque's answer exposes one task, which reaches one thief: a burst of work there
    /// would stay on two workers. So each successful thief passes a wake-up on while
    /// others sleep: to one sleeper now if the victim has work left, else as a standing
    /// request on the victim, so that its next push wakes one. Thieves woken this way do
    /// the same when they succeed, and the wake-ups spread in doublings. A steal is rare
    /// (the LCWS paper's O(P·T∞) bound), so this adds at most one wake-up per steal.
    fn stole(&self, job: JobRef, victim: &WorkerInfo) -> JobRef {
        self.counters.steals.bump();
        if self.registry.sleep.has_sleepers() {
            if victim.stealer.has_public_work() || victim.stealer.private_len() > 0 {
                self.registry.sleep.wake_one();
            } else {
                count_rmw(Side::Scheduler);
                victim.wanted().post(Wanted::SLEEPER);
            }
        }
        job
    }

    /// Whether the last request to `info`'s worker was answered (its handler ran, or it
    /// polled).
    fn answered(&self, info: &WorkerInfo) -> bool {
        match self.thief_asking {
            // Acquire: pairs with the handler's Release; its exposure is then visible.
            Asking::Signal { .. } => !info.signalled.is_pending(Ordering::Acquire),
            Asking::Poll | Asking::Never => !info.wanted().has(Wanted::POLL_REQUEST),
        }
    }

    /// Asks the worker of `info`, which has private work only, to expose some: a signal,
    /// unless one is on its way (then only an overdue one is followed up), or a poll
    /// request.
    fn notify(&self, info: &WorkerInfo) {
        let Asking::Signal { signal, .. } = self.thief_asking else {
            self.post_poll_request(info);
            return;
        };
        // A victim asked by polling answers at its next push (a `sigaction` call per look
        // would only find the same foreign handler).
        if self.asked_by_polling(info) {
            return;
        }
        // One signal in flight per victim: only the thief that sets the mark sends
        // (`crate::exposure`, "One signal in flight per victim").
        if !info.signalled.claim() {
            self.follow_up(info, signal);
            return;
        }
        // Relaxed: a stale time costs one early or late follow-up.
        info.signal_sent_at.store(clock_ns(), Ordering::Relaxed);
        self.send_signal_if_ours(info, signal);
    }

    /// Sends `signal` to `info`'s worker if its disposition is still the pool's handler;
    /// else (the program installed its own, reset it to the default or ignores it, after the
    /// build) posts a poll request instead, clears the victim's mark (no signal of ours is
    /// on its way, and none of our handlers will clear it) and its follow-up count, and
    /// reports it once. Checking before every send
    /// is what keeps a program that resets the pool's signal from being killed by it (a
    /// real-time signal's default action ends the process) and keeps another handler from
    /// receiving the pool's signals, but for a signal already on its way when the
    /// disposition changed (at most one per worker).
    fn send_signal_if_ours(&self, info: &WorkerInfo, signal: std::ffi::c_int) {
        if crate::exposure::handler_is_ours(signal) {
            self.send_signal(info, signal);
        } else {
            self.registry.report_foreign_handler(signal);
            self.post_poll_request(info);
            // Relaxed: a hint for the overdue check (as the handler's reset).
            info.rearms.store(0, Ordering::Relaxed);
            info.signalled.withdraw();
        }
    }

    /// Sends `signal` to `info`'s worker. A send that fails (`EAGAIN`: the real-time signal
    /// queue is full) is handled as a signal that never arrives: a poll request now, and the
    /// overdue follow-up later (`signalled` stays set, so thieves do not retry at once).
    fn send_signal(&self, info: &WorkerInfo, signal: std::ffi::c_int) {
        self.counters.signals.bump();
        // Not to ourselves (the victim is another worker); a borrowed victim's thread is
        // reached through its gate.
        if !info.send_signal(signal) {
            self.post_poll_request(info);
        }
    }

    /// A signal to `info`'s worker is on its way. If it is overdue (see `crate::exposure`,
    /// "When a signal is not answered"), one thief posts a poll request for this attempt
    /// and re-arms: it sends a new signal, unless a foreign handler owns the number.
    #[cold]
    #[inline(never)]
    fn follow_up(&self, info: &WorkerInfo, signal: std::ffi::c_int) {
        let now = clock_ns();
        // Relaxed: a timestamp; the CAS below elects one thief per overdue look.
        let sent_at = info.signal_sent_at.load(Ordering::Relaxed);
        if now.saturating_sub(sent_at) < overdue_after(info) {
            return;
        }
        // Counted as every scheduler read-modify-write is (the CAS, and `rearms` below).
        count_rmw(Side::Scheduler);
        // Relaxed: elects the thief that follows up; nothing is published through it.
        if info
            .signal_sent_at
            .compare_exchange(sent_at, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        {
            return;
        }
        count_rmw(Side::Scheduler);
        // Relaxed: a hint (see `overdue_after`).
        info.rearms.fetch_add(1, Ordering::Relaxed);
        self.post_poll_request(info);
        // A foreign disposition gets none of ours (and the mark is cleared): the victims
        // answer poll requests at their pushes meanwhile.
        self.send_signal_if_ours(info, signal);
    }

    /// Whether `info`'s worker was asked by a poll request that is still posted, because a
    /// foreign handler owned the pool's signal when a thief last looked
    /// (`send_signal_if_ours`): thieves then neither ask it again nor stay awake for it.
    #[inline]
    fn asked_by_polling(&self, info: &WorkerInfo) -> bool {
        self.registry.foreign_handler_seen() && info.wanted().has(Wanted::POLL_REQUEST)
    }

    /// Posts a poll request on `info`'s worker (answered at its next push, under every
    /// policy, and under `lcws-poll` at its next pop), unless one is posted.
    fn post_poll_request(&self, info: &WorkerInfo) {
        if !info.wanted().has(Wanted::POLL_REQUEST) {
            count_rmw(Side::Thief);
            info.wanted().post(Wanted::POLL_REQUEST);
        }
    }

    /// How much this worker's answer to a request exposes: its policy's rule, except that
    /// under `lcws-cons` a request that follows an answer that kept the last private task
    /// gets it, however late either comes (the promise: a repeated request gets the last
    /// task). Called on the owner's thread (its handler, its answers at pushes).
    #[inline]
    fn answer_exposure(&self, info: &WorkerInfo) -> Exposure {
        match self.asking.exposure() {
            // Relaxed: written only on this thread (a handler that interrupts the owner's
            // answer between this load and `answered_with` costs one more round at most).
            Exposure::Conservative if info.kept_last.load(Ordering::Relaxed) => Exposure::One,
            how => how,
        }
    }

    /// Records an answer that exposed `exposed` tasks (see `answer_exposure`).
    #[inline]
    fn answered_with(&self, info: &WorkerInfo, exposed: usize) {
        if self.asking.exposure() == Exposure::Conservative {
            // Relaxed: as in `answer_exposure`.
            info.kept_last.store(exposed == 0, Ordering::Relaxed);
        }
    }

    /// A thief about to sleep posts a standing request on every other worker: the next
    /// one to make work exposes a task and wakes a sleeper (see `crate::wakeup`).
    fn post_standing_requests(&self) {
        for (i, info) in self.registry.workers.iter().enumerate() {
            if i != self.index {
                count_rmw(Side::Idle);
                info.wanted().post(Wanted::SLEEPER);
            }
        }
    }

    /// What an idle thief may do, seen after it announced its sleep and posted its
    /// standing request (see `Sleep::sleep`): go back to work, nap, or sleep.
    fn idle_verdict(&self) -> Verdict {
        let registry = &*self.registry;
        let me = self.info(self.index);
        if registry.has_injected() || !me.mailbox.is_empty() || !me.broadcasts.is_empty() {
            return Verdict::Work;
        }
        let mut nap: Option<Duration> = None;
        for (i, info) in registry.workers.iter().enumerate() {
            if i == self.index {
                continue;
            }
            if info.stealer.has_public_work() {
                return Verdict::Work;
            }
            if info.stealer.private_len() == 0 {
                continue;
            }
            if let Asking::Signal { .. } = self.thief_asking {
                // A signal is answered at once by a running victim: ask (again) unless one
                // is on its way, and then only nap, so a descheduled victim can run; a
                // signal already followed up (the victim blocks it, or lost it) is looked
                // at again when it is next overdue, and an overdue one now.
                // Relaxed: a hint; the nap is bounded.
                if !info.signalled.is_pending(Ordering::Relaxed) {
                    // As under `lcws-poll` below.
                    if self.asked_by_polling(info) {
                        continue;
                    }
                    return Verdict::Work;
                }
                let this = match overdue_in(info) {
                    None => return Verdict::Work,
                    // Relaxed: a hint.
                    Some(left) if info.rearms.load(Ordering::Relaxed) > 0 => left,
                    Some(left) => left.min(NAP),
                };
                nap = Some(nap.map_or(this, |n| n.min(this)));
            } else if !info.wanted().is_set() {
                // Private work nobody asked for yet: go and ask.
                return Verdict::Work;
            }
            // `lcws-poll` with a request posted: the victim answers at its next push or
            // pop, and wakes us (our standing request is in its `Wanted`).
        }
        match nap {
            Some(d) => Verdict::Nap(d),
            None => Verdict::Sleep,
        }
    }

    /// Runs one piece of work if there is some: a broadcast's share, mail (`hybrid`),
    /// local work, one steal attempt, an injected job. Returns whether it ran something.
    #[inline]
    pub(crate) fn run_some_work(&self) -> bool {
        if let Some(job) = self.info(self.index).broadcasts.pop() {
            // The worker's own work, whatever range it runs in (`hybrid`).
            hybrid::run_in_range(self, WorkerRange::one(self.index), || self.execute(job));
            return true;
        }
        if self.deque.hybrid().is_some() && hybrid::run_mail(self) {
            return true;
        }
        if self.run_local() {
            return true;
        }
        if let Some(job) = self.steal_once() {
            // A stolen task's work is this worker's alone (`hybrid`).
            hybrid::run_in_range(self, WorkerRange::one(self.index), || self.execute(job));
            return true;
        }
        if let Some(job) = self.registry.pop_injected() {
            self.run_origin(job);
            return true;
        }
        false
    }

    /// Runs the newest local job, if any; returns whether it ran one.
    pub(crate) fn run_local(&self) -> bool {
        match self.take_local() {
            Some(job) => {
                self.execute(job);
                true
            }
            None => false,
        }
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
        match hybrid::origin_range(self) {
            Some(all) => hybrid::run_in_range(self, all, || self.execute(job)),
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
                    // The ABP paper's yield between consecutive steal attempts.
                    thread::yield_now();
                }
                continue;
            }
            let registry = &*self.registry;
            latch.before_sleep(self);
            let slept = registry.sleep.sleep(
                self.index,
                || self.post_standing_requests(),
                || {
                    if latch.probe() {
                        Verdict::Work
                    } else {
                        self.idle_verdict()
                    }
                },
            );
            if slept {
                self.counters.sleeps.bump();
            }
            idle_rounds = 0;
        }
    }
}

/// How long a thief waits for the answer to an exposure signal before it follows it up
/// (see `crate::exposure`, "When a signal is not answered"): far longer than a delivery to
/// a running thread (microseconds), about a few time slices of a busy CPU.
pub(crate) const OVERDUE: Duration = Duration::from_millis(20);
/// The wait doubles at each follow-up that found the signal still unanswered, at most this
/// many times (about 20 s).
const MAX_DOUBLINGS: u32 = 10;

/// Nanoseconds since the first call (monotonic): when exposure signals were sent.
fn clock_ns() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    // Wraps after 584 years.
    epoch.elapsed().as_nanos() as u64
}

/// How long after its sending the signal pending on `info`'s worker is overdue.
fn overdue_after(info: &WorkerInfo) -> u64 {
    // Relaxed: a hint; a stale count makes one look early or late.
    let doublings = info.rearms.load(Ordering::Relaxed).min(MAX_DOUBLINGS);
    (OVERDUE.as_nanos() as u64) << doublings
}

/// How long until the signal pending on `info`'s worker is overdue; `None` if it is.
fn overdue_in(info: &WorkerInfo) -> Option<Duration> {
    // Relaxed: a hint (the caller only naps for the time returned).
    let sent_at = info.signal_sent_at.load(Ordering::Relaxed);
    let age = clock_ns().saturating_sub(sent_at);
    let after = overdue_after(info);
    (age < after).then(|| Duration::from_nanos(after - age))
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
        // Process-wide, so that pools spread over the CPUs instead of all starting at the
        // first one. Relaxed: only spreads placement.
        static NEXT_CPU: AtomicUsize = AtomicUsize::new(0);
        crate::platform::affinity::pin_to_allowed_cpu(NEXT_CPU.fetch_add(1, Ordering::Relaxed));
    }
    // `ThreadBuilder::run` refuses a thread that is already a worker; the null set at the
    // end restores what was here.
    assert!(
        CURRENT.with(Cell::get).is_null() && BORROWED.with(Cell::get).is_null(),
        "splitsteal: a worker loop started on a thread that is already a worker"
    );
    let worker = WorkerThread::new(registry, index, deque, false);
    set_current(&worker);
    worker.registry.worker_started(&worker);
    // After publishing (so `build` does not wait for it, as in rayon: a start handler may
    // wait for the builder's thread), before this worker looks for work.
    worker.registry.worker_start_handler(index);
    if let Some(signo) = worker.registry.config.plan.signal() {
        // After the start handler, before this worker runs any task: the mask it inherited
        // from the building thread or its spawn handler, or the one its start handler set
        // (blocking every signal, so that only `main` gets SIGINT), may block the pool's
        // own signal, and a worker that cannot be asked for work would leave its private
        // tasks to itself (a consumer blocked in `recv` under its producer, for good).
        // Signals sent before this stay pending until now.
        crate::exposure::unblock(signo);
    }
    worker.wait_until(&Terminated(&worker.registry));
    // An idle pool's deques can still hold `hybrid` proxies whose task the mailbox side
    // claimed (their deque side frees them when popped): pop them before the deque goes.
    while let Some(job) = worker.take_local() {
        worker.execute(job);
    }
    worker.registry.worker_stopping(index);
    // Stopped: nothing will be stolen from or signalled to this worker any more. The
    // handler still sees this thread as the pool's worker (`current_thread_index`).
    worker.registry.worker_exit_handler(index);
    // Cleared before `worker` is dropped: a late signal handler then sees null.
    set_current(ptr::null());
    // `shutdown` of a pool whose threads a spawn handler started waits for this.
    worker.registry.loop_exited();
    std::mem::forget(guard);
}

//! The state a pool's workers share: their thief handles and notification flags, the
//! injector for jobs from outside, sleep, termination and statistics.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crossbeam_utils::CachePadded;

use crate::deque::{Steal, StealAmount};
use crate::exposure::SignalMark;
use crate::handlers::Handlers;
use crate::hybrid::Hybrid;
use crate::job::{JobRef, StackJob};
use crate::job_queue::{JobFifo, JobQueue};
use crate::latch::{Latch, LockLatch, Probe, WorkerLatch};
use crate::latency::Recorder;
use crate::local::RemoteDeque;
use crate::mailbox::Mailbox;
use crate::plan::Plan;
use crate::sleep::Sleep;
use crate::stats::{count_rmw, Side, Stats, SyncCounts, ThreadCounters};
use crate::wakeup::Wanted;
use crate::worker::{Entered, WorkerCounters, WorkerThread};
use crate::Policy;

/// What a thief needs to know about a worker.
pub(crate) struct WorkerInfo {
    /// The thief handle of the worker's deque.
    pub(crate) stealer: RemoteDeque,
    /// What thieves want from this worker (an exposure, a wake-up), when its deque is not
    /// a split deque (see [`WorkerInfo::wanted`]): written by thieves, read by the owner
    /// after every push, so it sits alone on its cache line.
    own_wanted: CachePadded<Wanted>,
    /// Signal policies: an exposure signal is on its way to this worker and its handler has
    /// not run yet (thieves send no second one meanwhile). Set by thieves, cleared by the
    /// handler.
    pub(crate) signalled: CachePadded<SignalMark>,
    /// When the pending signal was sent (`clock_ns`), for the thieves' overdue check (see
    /// `crate::exposure`, "When a signal is not answered").
    pub(crate) signal_sent_at: AtomicU64,
    /// How many overdue looks in a row found the signal unanswered (each doubles the wait
    /// before the next); reset by the handler.
    pub(crate) rearms: AtomicU32,
    /// `lcws-cons`: the worker's last answer to a request exposed nothing (it kept its last
    /// private task), so the next request, whenever it comes, gets that task. Written only
    /// by the worker's own thread (its handler and its answers at pushes).
    pub(crate) kept_last: AtomicBool,
    /// The worker's pthread, for exposure signals (set before the pool is handed out).
    pthread: AtomicUsize,
    /// Mail for this worker (`hybrid`).
    pub(crate) mailbox: Box<Mailbox>,
    /// Jobs only this worker may run (`broadcast`).
    pub(crate) broadcasts: JobQueue,
    /// The jobs of this worker's `spawn_fifo`s, in the order they were spawned.
    pub(crate) fifo: JobFifo,
    /// The worker's counters (on its thread), for `stats`.
    counters: AtomicPtr<WorkerCounters>,
    /// The worker thread's deque counters (thread-local), for `stats`.
    sync_counters: AtomicPtr<ThreadCounters>,
    /// Whether this worker is a borrowed thread (`use_current_thread`'s worker 0), which may
    /// stop being a worker, or exit, while the pool runs: signals to it go through the gate
    /// below.
    gated: bool,
    /// The gate: `false` once the borrowed thread has left the pool ...
    present: AtomicBool,
    /// ... and the number of thieves that may be signalling it right now.
    senders: AtomicUsize,
}

impl WorkerInfo {
    /// What thieves want from this worker: the request byte of its split deque (where its
    /// push reads it with the row it already holds), else the registry's own word.
    #[inline]
    pub(crate) fn wanted(&self) -> &Wanted {
        match &self.stealer {
            RemoteDeque::Split(s) => Wanted::at(s.requests()),
            RemoteDeque::Asym(s) => Wanted::at(s.requests()),
            _ => &self.own_wanted,
        }
    }

    pub(crate) fn new(stealer: RemoteDeque, gated: bool) -> WorkerInfo {
        WorkerInfo {
            stealer,
            own_wanted: CachePadded::new(Wanted::new()),
            signalled: CachePadded::new(SignalMark::new()),
            signal_sent_at: AtomicU64::new(0),
            rearms: AtomicU32::new(0),
            kept_last: AtomicBool::new(false),
            pthread: AtomicUsize::new(0),
            mailbox: Mailbox::new(),
            broadcasts: JobQueue::new(),
            fifo: JobFifo::new(),
            counters: AtomicPtr::new(std::ptr::null_mut()),
            sync_counters: AtomicPtr::new(std::ptr::null_mut()),
            gated,
            present: AtomicBool::new(true),
            senders: AtomicUsize::new(0),
        }
    }

    /// Sends the exposure signal `signo` to this worker's thread; through the gate if the
    /// thread is borrowed (it may have left the pool, and exited, meanwhile: then nothing is
    /// sent). Returns `false` if `pthread_kill` failed.
    pub(crate) fn send_signal(&self, signo: std::ffi::c_int) -> bool {
        if !self.gated {
            // SAFETY: a spawned worker's thread lives until every worker stopped stealing
            // (`Registry::worker_stopping`), and the caller is such a worker.
            return unsafe { crate::exposure::send(self.pthread(), signo) };
        }
        let mut sent = true;
        count_rmw(Side::Thief);
        // SeqCst (this RMW and the load): Dekker with `close_gate` (store `present`, then
        // load `senders`): either it sees us and waits, or we see it gone.
        self.senders.fetch_add(1, Ordering::SeqCst);
        if self.present.load(Ordering::SeqCst) {
            // SAFETY: the thread cannot leave the pool (and exit) before we leave the gate.
            sent = unsafe { crate::exposure::send(self.pthread(), signo) };
        }
        count_rmw(Side::Thief);
        // Release: our send happens before the leaving thread's Acquire load sees zero.
        self.senders.fetch_sub(1, Ordering::Release);
        sent
    }

    /// Called by a borrowed worker's thread as it leaves the pool: after this returns, no
    /// thief sends it a signal any more.
    pub(crate) fn close_gate(&self) {
        // SeqCst: see `send_signal`.
        self.present.store(false, Ordering::SeqCst);
        // SeqCst on the first load (the Dekker half); Acquire would do for the rest.
        while self.senders.load(Ordering::SeqCst) != 0 {
            std::hint::spin_loop();
        }
        // Relaxed: a thief that still sees `false` finds the gate closed; `true` keeps the
        // others from trying at all.
        self.signalled.close();
    }

    pub(crate) fn pthread(&self) -> crate::platform::signals::ThreadId {
        // Acquire: published before the pool was handed out (see `Registry::worker_started`).
        self.pthread.load(Ordering::Acquire)
    }

    /// Steals the oldest task of this worker's deque (under `asym` with as many more as
    /// `amount` says, which `rest` gets oldest first).
    #[inline]
    pub(crate) fn steal(&self, amount: StealAmount, rest: impl FnMut(JobRef)) -> Steal<JobRef> {
        self.stealer.steal(amount, rest)
    }
}

/// Settings fixed when the pool is built.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// The policy, resolved: everything below the pool reads this, never `Policy`.
    pub(crate) plan: Plan,
    pub(crate) record_start_latency: bool,
    /// Pin each worker to its own allowed CPU (spread over pools), or leave placement to
    /// the OS (the default).
    pub(crate) pin_threads: bool,
    pub(crate) num_threads: usize,
    /// Worker 0 is the building thread (`use_current_thread`).
    pub(crate) use_current_thread: bool,
    pub(crate) deque_capacity: usize,
    pub(crate) morsel_bytes: usize,
    pub(crate) spin_rounds: u32,
    /// Sleep as if the system had no `membarrier` (a test knob: `crate::sleep`).
    pub(crate) assume_no_membarrier: bool,
}

/// A pool's shared state.
pub(crate) struct Registry {
    pub(crate) config: Config,
    pub(crate) workers: Box<[WorkerInfo]>,
    pub(crate) sleep: Sleep,
    /// `hybrid` only: the steal gate and mailing strategy.
    pub(crate) hybrid: Option<Hybrid>,
    /// When enabled: task start times.
    pub(crate) latency: Option<Recorder>,
    /// The user's start, exit and panic handlers.
    pub(crate) handlers: Handlers,
    injector: CachePadded<JobQueue>,
    /// What keeps the workers running: one for the `ThreadPool` handle (or the global
    /// pool's lifetime) and one per spawned job not yet finished. At zero they stop.
    live: AtomicUsize,
    /// Threads in [`Registry::wait_idle`]: the release that makes the pool idle wakes them.
    idle_waiters: AtomicUsize,
    /// Under its lock: how many spawned workers have left their loop (their exit handler
    /// run), for `shutdown`; its condition variable also wakes `wait_idle`'s threads.
    quiet: Mutex<usize>,
    quiet_changed: Condvar,
    /// Set by `shutdown` once the pool is idle: spawns with a handle that still reach the
    /// pool fail at once ([`crate::PoolShutDown`]).
    closed: AtomicBool,
    terminate: AtomicBool,
    started: AtomicUsize,
    exited: AtomicUsize,
    /// `stats` bookkeeping; its lock also keeps a borrowed worker from unpublishing its
    /// counters while they are read.
    book: Mutex<StatsBook>,
    /// Whether a thief found a foreign handler on the exposure signal (and said so on
    /// stderr, once per pool): from then on thieves ask a victim with a poll request
    /// posted no further, as under `lcws-poll` (`WorkerThread::notify`).
    foreign_handler_seen: AtomicBool,
}

/// What `stats` subtracts and adds besides the live workers' counters.
#[derive(Default)]
struct StatsBook {
    /// The counts at the last `reset_stats`.
    baseline: Stats,
    /// The final counts of a borrowed worker that has left.
    retired: Stats,
    /// A borrowed thread's deque counters when it became a worker (they count from its
    /// start, not the pool's).
    borrowed_base: SyncCounts,
}

// SAFETY: the injector holds `JobRef`s, which are `Send`; everything else is atomics,
// locks and thief handles (`Send + Sync`).
unsafe impl Sync for Registry {}
// SAFETY: as above.
unsafe impl Send for Registry {}

impl Registry {
    pub(crate) fn new(config: Config, stealers: Vec<RemoteDeque>, handlers: Handlers) -> Registry {
        let n = stealers.len();
        let hybrid = config
            .plan
            .mail
            .map(|m| Hybrid::new(m.mailing, m.gate_mails, m.gate_delay));
        let latency = config.record_start_latency.then(|| Recorder::new(n));
        let borrowed = config.use_current_thread;
        let sleep = Sleep::new(n, config.assume_no_membarrier);
        Registry {
            hybrid,
            latency,
            handlers,
            config,
            workers: stealers
                .into_iter()
                .enumerate()
                .map(|(i, s)| WorkerInfo::new(s, borrowed && i == 0))
                .collect(),
            sleep,
            injector: CachePadded::new(JobQueue::new()),
            live: AtomicUsize::new(1),
            idle_waiters: AtomicUsize::new(0),
            quiet: Mutex::new(0),
            quiet_changed: Condvar::new(),
            closed: AtomicBool::new(false),
            terminate: AtomicBool::new(false),
            started: AtomicUsize::new(0),
            // A borrowed worker 0 never waits at the exit barrier (it leaves the pool on its
            // own: `worker::leave_borrowed`), so it counts as passed from the start.
            exited: AtomicUsize::new(usize::from(borrowed)),
            book: Mutex::new(StatsBook::default()),
            foreign_handler_seen: AtomicBool::new(false),
        }
    }

    #[inline]
    pub(crate) fn num_threads(&self) -> usize {
        self.workers.len()
    }

    pub(crate) fn policy(&self) -> Policy {
        self.config.plan.policy
    }

    /// Hands a panic that has nowhere to propagate (a start or exit handler's, a
    /// fire-and-forget task's) to the pool's panic handler. With no panic handler, or if it
    /// panics itself, prints why on stderr and aborts the process (as rayon does): a panic
    /// is never silently lost.
    pub(crate) fn handle_panic(&self, payload: Box<dyn Any + Send>) {
        self.handlers.handle_panic(payload)
    }

    /// Runs the start handler, if any, for worker `index` (on that worker's thread).
    pub(crate) fn worker_start_handler(&self, index: usize) {
        if let Some(h) = &self.handlers.start {
            self.catching_panics(|| h(index));
        }
    }

    /// Runs the exit handler, if any, for worker `index` (on that worker's thread).
    pub(crate) fn worker_exit_handler(&self, index: usize) {
        if let Some(h) = &self.handlers.exit {
            self.catching_panics(|| h(index));
        }
    }

    /// Runs `f`; a panic in it goes to [`Registry::handle_panic`].
    pub(crate) fn catching_panics(&self, f: impl FnOnce()) {
        if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(f)) {
            self.handle_panic(payload);
        }
    }

    /// Called by worker `index` on its own thread before it looks for work.
    pub(crate) fn worker_started(&self, worker: &WorkerThread) {
        let info = &self.workers[worker.index];
        let me = crate::platform::signals::current_thread();
        // Release: pairs with `pthread()` and `stats()` (Acquire).
        info.pthread.store(me, Ordering::Release);
        info.counters.store(
            std::ptr::from_ref(&worker.counters).cast_mut(),
            Ordering::Release,
        );
        info.sync_counters.store(
            crate::stats::thread_counters().cast_mut(),
            Ordering::Release,
        );
        if info.gated {
            // SAFETY: our own thread's counter block, alive while we run.
            let base = unsafe { (*crate::stats::thread_counters()).snapshot() };
            self.book().borrowed_base = base;
        }
        self.sleep.register(worker.index);
        // Release: the builder waits for every worker to be published (Acquire).
        self.started.fetch_add(1, Ordering::Release);
    }

    /// A thief found that `signo` has a handler that is not ours: says so on stderr, once
    /// per pool.
    pub(crate) fn report_foreign_handler(&self, signo: std::ffi::c_int) {
        // Relaxed: only makes the message appear once (and `foreign_handler_seen` is a hint).
        if !self.foreign_handler_seen.swap(true, Ordering::Relaxed) {
            eprintln!(
                "splitsteal: signal {signo}, which this pool uses to ask its workers for work, \
                 no longer runs splitsteal's handler (the program installed its own, reset \
                 it to the default or ignores it, after the pool was built); the pool sends \
                 it no more and asks by polling while it stays so (choose another number \
                 with ThreadPoolBuilder::signal)"
            );
        }
    }

    /// Whether a thief ever found the exposure signal's disposition not ours (see
    /// `report_foreign_handler`); it may have been restored since.
    #[inline]
    pub(crate) fn foreign_handler_seen(&self) -> bool {
        // Relaxed: a hint; a thief that misses it asks once more, through the check
        // before every send.
        self.foreign_handler_seen.load(Ordering::Relaxed)
    }

    /// Whether the pool has been told to stop (its workers stop once idle).
    pub(crate) fn is_terminated(&self) -> bool {
        Terminated(self).probe()
    }

    /// Whether every worker has published its handles.
    pub(crate) fn all_started(&self) -> bool {
        // Acquire: see `worker_started`.
        self.started.load(Ordering::Acquire) == self.workers.len()
    }

    /// Called by each worker after its last steal attempt; returns once no worker will
    /// steal (or send an exposure signal) any more, so the thread may exit.
    pub(crate) fn worker_stopping(&self, index: usize) {
        let info = &self.workers[index];
        // AcqRel: the last arrival sees everybody's final state.
        self.exited.fetch_add(1, Ordering::AcqRel);
        let mut spins = 0u32;
        // Acquire: pairs with the increments above.
        while self.exited.load(Ordering::Acquire) < self.workers.len() {
            spins += 1;
            if spins < 100 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(std::time::Duration::from_micros(100));
            }
        }
        // Release: stats readers stop reading this worker's counters (the pool is being
        // dropped; `stats` can no longer be called).
        info.counters.store(std::ptr::null_mut(), Ordering::Release);
        info.sync_counters
            .store(std::ptr::null_mut(), Ordering::Release);
    }

    /// Called by a borrowed worker's thread as it leaves the pool (its gate closed): keeps
    /// its final counts and stops `stats` from reading its counters.
    pub(crate) fn borrowed_worker_left(&self, index: usize) {
        let mut book = self.book();
        let last = self.worker_stats(index, &book);
        book.retired = book.retired + last;
        let info = &self.workers[index];
        // Release: as in `worker_stopping` (the readers hold the lock anyway).
        info.counters.store(std::ptr::null_mut(), Ordering::Release);
        info.sync_counters
            .store(std::ptr::null_mut(), Ordering::Release);
    }

    /// Queues a job from outside the pool and wakes a worker for it.
    pub(crate) fn inject(&self, job: JobRef) {
        self.injector.push(job);
        self.sleep.wake_one_after_inject();
    }

    /// Takes an injected job, if any.
    pub(crate) fn pop_injected(&self) -> Option<JobRef> {
        self.injector.pop()
    }

    /// Whether jobs injected from outside are waiting.
    pub(crate) fn has_injected(&self) -> bool {
        !self.injector.is_empty()
    }

    /// Queues a job for worker `index` alone and wakes it if it sleeps.
    pub(crate) fn push_for_worker(&self, index: usize, job: JobRef) {
        self.workers[index].broadcasts.push(job);
        self.sleep.wake_worker(index);
    }

    /// Puts a spawned job where the pool's workers find it: on the caller's deque if the
    /// caller is one of them (stealable from there, like a `join`'s second closure; under
    /// `hybrid` also mailed) and it has room, else in the injector. Never runs it here.
    pub(crate) fn push_or_inject(self: &Arc<Self>, job: JobRef) {
        match WorkerThread::current_ref() {
            Some(w) if Arc::ptr_eq(&w.registry, self) => {
                if let Some(h) = w.deque.hybrid()
                    && crate::hybrid::spawn_mailing(w, h, job)
                {
                    return;
                }
                w.push_or_inject(job);
            }
            // From a thread of another pool (or none).
            _ => self.inject(job),
        }
    }

    /// One more spawned job keeps the workers running until it has finished.
    pub(crate) fn add_live(&self) {
        count_rmw(Side::Scheduler);
        // Relaxed: the count is only lowered by the job this increment belongs to, which is
        // published after it; the decrement that reaches zero is AcqRel.
        self.live.fetch_add(1, Ordering::Relaxed);
    }

    /// A spawned job finished, or the pool's handle was dropped: the last one stops the
    /// workers (once they are idle). Returns whether this was the last.
    pub(crate) fn release_live(&self) -> bool {
        count_rmw(Side::Scheduler);
        // SeqCst: AcqRel, so that the last release sees every job's effects before the
        // workers stop; and the write half of the Dekker pattern with `wait_idle` (which
        // counts itself in `idle_waiters`, then reads `live`).
        match self.live.fetch_sub(1, Ordering::SeqCst) {
            1 => {
                self.terminate();
                return true;
            }
            // The last spawned job finished (one count is the pool's handle).
            // SeqCst: the read half of the Dekker pattern above.
            2 if self.idle_waiters.load(Ordering::SeqCst) != 0 => self.wake_idle_waiters(),
            _ => {}
        }
        false
    }

    /// Whether no spawned job is pending: only the pool's handle keeps it alive.
    pub(crate) fn is_idle(&self) -> bool {
        // SeqCst: see `release_live` (the waiter's read).
        self.live.load(Ordering::SeqCst) <= 1
    }

    /// Waits until no spawned job is pending (`ThreadPool::wait_idle`). A thread outside
    /// the pool blocks; the pool's borrowed thread (`use_current_thread`, not inside an
    /// operation of the pool) runs the pool's work meanwhile, since it may be the only
    /// worker. The caller is not one of the pool's workers.
    pub(crate) fn wait_idle(self: &Arc<Self>) {
        count_rmw(Side::Scheduler);
        // SeqCst: before our reads of `live` (Dekker with `release_live`).
        self.idle_waiters.fetch_add(1, Ordering::SeqCst);
        let own_borrowed = WorkerThread::current().is_null()
            && crate::worker::borrowed_worker().is_some_and(|w| Arc::ptr_eq(&w.registry, self));
        match own_borrowed.then(Entered::borrowed).flatten() {
            Some(_entered) => {
                let worker = WorkerThread::current_ref().expect("entered a borrowed worker");
                debug_assert!(Arc::ptr_eq(&worker.registry, self));
                worker.wait_until(&Idle(self));
            }
            None => {
                let mut quiet = self.quiet();
                // The waker takes the lock before it notifies: no wake-up falls between
                // this look and the wait.
                while !self.is_idle() {
                    quiet = self
                        .quiet_changed
                        .wait(quiet)
                        .unwrap_or_else(|e| e.into_inner());
                }
            }
        }
        count_rmw(Side::Scheduler);
        // Relaxed: only spares later releases the lock.
        self.idle_waiters.fetch_sub(1, Ordering::Relaxed);
    }

    #[cold]
    fn wake_idle_waiters(&self) {
        drop(self.quiet());
        self.quiet_changed.notify_all();
        if self.config.use_current_thread {
            // A borrowed thread waits as worker 0 (`wait_idle`).
            self.sleep.wake_worker(0);
        }
    }

    fn quiet(&self) -> MutexGuard<'_, usize> {
        self.quiet.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Called by a spawned worker's thread once it has left its loop, its exit handler
    /// run (the last thing it does for the pool).
    pub(crate) fn loop_exited(&self) {
        *self.quiet() += 1;
        self.quiet_changed.notify_all();
    }

    /// Waits until `n` spawned workers have left their loop (`shutdown`, whose pool's
    /// threads were started by a spawn handler: it has no thread handles to join).
    pub(crate) fn wait_loops_exited(&self, n: usize) {
        let mut quiet = self.quiet();
        while *quiet < n {
            quiet = self
                .quiet_changed
                .wait(quiet)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// `shutdown`: spawns with a handle that still reach the pool fail from now on.
    pub(crate) fn close(&self) {
        // Relaxed: only the pool's own exit handlers can still reach it (the handle is
        // consumed); they run on threads that `shutdown` joins after this store.
        self.closed.store(true, Ordering::Relaxed);
    }

    /// Whether `shutdown` has closed the pool.
    #[inline]
    pub(crate) fn is_closed(&self) -> bool {
        // Relaxed: see `close`.
        self.closed.load(Ordering::Relaxed)
    }

    /// Stops a partially built pool whose first `started` workers were spawned: the
    /// shutdown barrier then only waits for those.
    pub(crate) fn terminate_partial(&self, started: usize) {
        // Relaxed: the barrier counts up to the number of workers; pretend the missing
        // ones have already passed it.
        self.exited
            .fetch_add(self.workers.len() - started, Ordering::Relaxed);
        self.release_live();
    }

    /// Asks the workers to stop once they are idle.
    fn terminate(&self) {
        count_rmw(Side::Scheduler);
        // SeqCst: Dekker with sleepers, as for latches.
        self.terminate.store(true, Ordering::SeqCst);
        self.sleep.wake_all();
    }

    fn book(&self) -> std::sync::MutexGuard<'_, StatsBook> {
        self.book.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Worker `index`'s counts (zero once it has stopped); called with the book locked.
    fn worker_stats(&self, index: usize, book: &StatsBook) -> Stats {
        let w = &self.workers[index];
        let mut total = Stats::default();
        // Acquire: pairs with `worker_started`; the pointees live while the pool does (a
        // borrowed worker's, until it unpublishes them under the lock we hold).
        let c = w.counters.load(Ordering::Acquire);
        let s = w.sync_counters.load(Ordering::Acquire);
        if !c.is_null() {
            // SAFETY: published by a live worker; cleared before it exits.
            total = total + unsafe { (*c).snapshot() };
        }
        if !s.is_null() {
            // SAFETY: as above (the worker thread's thread-local block).
            let mut sync = unsafe { (*s).snapshot() };
            if w.gated {
                sync = sync - book.borrowed_base;
            }
            let working = sync.working();
            total.cas += working.cas;
            total.fences += working.fences;
            total.heavy_fences += working.heavy_fences;
            total.fallback_fences += sync.fallback_fences;
            total.answered_claims += sync.answered_claims;
            total.rmw += working.rmw;
            total.idle_sync += sync.idle.total();
        }
        total
    }

    /// The pool's counts since it was built; called with the book locked.
    fn raw_stats(&self, book: &StatsBook) -> Stats {
        (0..self.workers.len()).fold(book.retired, |total, i| total + self.worker_stats(i, book))
    }

    /// Counts since the last `reset_stats`.
    pub(crate) fn stats(&self) -> Stats {
        let book = self.book();
        self.raw_stats(&book) - book.baseline
    }

    /// Makes the counts start again from zero.
    pub(crate) fn reset_stats(&self) {
        let mut book = self.book();
        book.baseline = self.raw_stats(&book);
    }

    /// Runs `op` on a worker of this pool: directly if the caller is one, else by injecting
    /// it (blocking an outside thread, or keeping a worker of another pool busy meanwhile).
    pub(crate) fn in_worker<OP, R>(self: &Arc<Self>, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread) -> R + Send,
        R: Send,
    {
        let current = WorkerThread::current();
        if current.is_null() {
            return self.in_worker_cold(op);
        }
        // SAFETY: a non-null current worker is alive for the duration of this call (it is
        // this thread's own worker).
        let current = unsafe { &*current };
        if Arc::ptr_eq(&current.registry, self) {
            op(current)
        } else {
            self.in_worker_cross(current, op)
        }
    }

    /// [`Registry::in_worker`] for a type-erased operation: compiled once, so a generic
    /// caller's cold path (a `join` from outside the pool) does not compile the injection
    /// machinery once per call site. The caller keeps its result in what `op` captures.
    pub(crate) fn in_worker_dyn(self: &Arc<Self>, op: &mut (dyn FnMut(&WorkerThread) + Send)) {
        self.in_worker(|worker| op(worker));
    }

    #[cold]
    fn in_worker_cold<OP, R>(self: &Arc<Self>, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread) -> R + Send,
        R: Send,
    {
        // A borrowed worker (`use_current_thread`) on this thread: enter it and run as it.
        if let Some(_entered) = Entered::borrowed() {
            return self.in_worker(op);
        }
        thread_local! {
            static LOCK_LATCH: LockLatch = LockLatch::default();
        }
        LOCK_LATCH.with(|latch| {
            let job = StackJob::new(op, LatchRef(latch));
            self.inject(job.as_job_ref());
            latch.wait_and_reset();
            // SAFETY: the latch was set by the job's `execute`.
            unsafe { job.into_result() }
        })
    }

    #[cold]
    fn in_worker_cross<OP, R>(self: &Arc<Self>, current: &WorkerThread, op: OP) -> R
    where
        OP: FnOnce(&WorkerThread) -> R + Send,
        R: Send,
    {
        let latch = WorkerLatch::cross(&current.registry, current.index);
        let job = StackJob::new(op, latch);
        self.inject(job.as_job_ref());
        current.wait_until(&job.latch);
        // SAFETY: the latch is set.
        unsafe { job.into_result() }
    }
}

/// A probe on the registry's termination flag: the workers' main loop waits on it.
pub(crate) struct Terminated<'r>(pub(crate) &'r Registry);

impl Probe for Terminated<'_> {
    #[inline]
    fn probe(&self) -> bool {
        // Acquire: pairs with `terminate`.
        self.0.terminate.load(Ordering::Acquire)
    }
}

/// A probe on the registry's idleness: a borrowed worker in `wait_idle` waits on it.
struct Idle<'r>(&'r Registry);

impl Probe for Idle<'_> {
    fn probe(&self) -> bool {
        self.0.is_idle()
    }
}

/// A latch by reference (for thread-local latches).
pub(crate) struct LatchRef<'a, L>(pub(crate) &'a L);

impl<L: Latch> Latch for LatchRef<'_, L> {
    unsafe fn set(this: *const Self) {
        // SAFETY: the referenced latch outlives the job (it is the waiter's thread-local);
        // we copy the reference out before setting.
        unsafe { L::set((*this).0) }
    }
}

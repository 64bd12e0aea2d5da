//! How a thief gets a victim to expose private work (LCWS notification).
//!
//! - **Poll** (`lcws-poll`, the LCWS paper's Algorithm 1 / the LCWS-in-practice paper's
//!   user-space variant): the thief posts a request in the victim's `Wanted` word; the
//!   victim reads that word with one plain load after every push and at every pop, and
//!   exposes one task when a request is there.
//! - **Signal** (`lcws-signal`, `lcws-cons`, `lcws-half`; the LCWS-in-practice paper, §4): the
//!   thief marks the victim `signalled` and sends it a signal ([`default_signal`]: `SIGURG`)
//!   with `pthread_kill`;
//!   the handler, running on the victim between any two of its instructions, exposes
//!   through the deque's [`SignalExposer`](crate::deque::SignalExposer) and clears the mark.
//!   While the mark is set no other thief signals that victim ([`SignalMark`]).
//!
//! # One signal in flight per victim
//!
//! Real-time signals queue: every `pthread_kill` is one more run of the handler, however
//! many are pending (a standard signal such as `SIGURG` does not queue, but a thread's
//! pending copy is still one more run). So the mark is claimed with an atomic swap, and
//! only the thief whose swap set it sends. With a load-then-store test instead (the first version), every thief
//! that read the mark clear between the handler's clearing and the first thief's store
//! sent a signal of its own; each of those handlers cleared the mark again and let another
//! round through. On 2 cores the window is rarely hit, but on a 16-core machine 15 thieves
//! waiting on one victim fed back faster than it could run handlers: 370,000 queued signals,
//! the victim in the kernel 90 % of its time, and `skynet` at 16 threads taking over 10 s
//! instead of 0.07 (in 2 of 6 runs; 0 of 6 with the swap).
//!
//! # When a signal is not answered
//!
//! A signal can fail to arrive: the victim's thread blocks it (a task called
//! `pthread_sigmask`), a task consumed it (`sigwait` on a full set), the program changed the
//! number's disposition after the pool was built (installed its own handler, reset it to the
//! default, ignores it), or `pthread_kill` failed (`EAGAIN` once `RLIMIT_SIGPENDING` is
//! exhausted). So that none of these stops exposure for good, or ends the process:
//!
//! - every worker unblocks its pool's signal when it starts, after the user's start handler
//!   ([`unblock`]; a pool built on a thread that blocked every signal, as the
//!   block-then-`sigwait` pattern does, has workers that inherit that mask, and a start
//!   handler that blocks every signal so that only `main` gets `SIGINT` is common);
//! - a thief checks the disposition before every send ([`handler_is_ours`]): when it is not
//!   the pool's handler any more, it sends nothing, posts a poll request instead and
//!   clears the mark it claimed (no signal is on its way), and the pool says so once on
//!   stderr. From then on the thieves ask as `lcws-poll`'s do: a victim with a poll
//!   request posted is not asked again, and an idle thief sleeps until the victim's next
//!   push answers it and wakes it (they look at the disposition again at each new
//!   request, so a restored handler gets signals again). A foreign handler then gets only
//!   the pool's signals already on their way when it was installed, at most one per
//!   worker, and a disposition reset to the default only those too: with `SIGURG`, whose
//!   default action is to ignore it, they are dropped; with a real-time number of the
//!   user's choice, whose default action ends the process, one that lands in that window
//!   still does;
//! - a send that fails is answered like a signal that never came (below), at once with a
//!   poll request;
//! - a thief that finds a victim's mark older than a bounded time (`worker::OVERDUE`,
//!   doubling at each consecutive overdue look, reset by the handler) posts a poll request
//!   for that attempt (the victim answers it at its next push, under every policy) and
//!   re-arms: it sends a new signal, if the disposition is still the pool's. The doubling
//!   keeps a victim that blocks the signal for a long time from piling up queued real-time
//!   signals (at most one per doubling), and the thieves from waking up for it more often.
//!
//! # Which signal
//!
//! `SIGURG` by default ([`default_signal`]), the choice Go's runtime made for the same job
//! (preempting goroutines) and for the same reasons: its default action is to ignore it, so
//! a copy that arrives after the program reset the disposition is harmless; programs rarely
//! use it (it reports TCP urgent data, and only to a process that asked with `F_SETOWN`);
//! every POSIX system has it, where real-time signals are Linux's; and debuggers pass it
//! through without stopping (gdb's default for it is `nostop noprint pass`). A real-time
//! signal (`SIGRTMIN..=SIGRTMAX`) can be chosen with `ThreadPoolBuilder::signal`.
//!
//! The workers unblock the number, so a copy sent to the process (not to a thread) may be
//! delivered to a worker and taken by the pool's handler: a program that waits for the
//! pool's signal itself (`sigwait`, `signalfd`) must give the pool another number.
//!
//! A task that blocks the signal, or runs while a foreign handler owns it, is served as under
//! `lcws-poll`: at its pushes, not while it spins without joining.
//!
//! # System calls interrupted by the signal (`EINTR`, short counts, early returns)
//!
//! The handler is installed with `SA_RESTART`, so a task blocked in `read`, `write`,
//! `wait`, `futex` or similar restarts the call instead of failing, when nothing was
//! transferred yet. But a handler still changes what a task's system calls return
//! (signal(7), "Interruption of system calls"):
//!
//! - Linux never restarts some calls after a handler: `poll`, `ppoll`, `select`,
//!   `epoll_wait`, `nanosleep`/`clock_nanosleep`, `sem_timedwait`, `sigtimedwait`, System V
//!   IPC (`semop`, `semtimedop`, `msgrcv`, `msgsnd`), and socket reads and writes with a
//!   timeout set (`SO_RCVTIMEO`, `SO_SNDTIMEO`): they fail with `EINTR`;
//! - a blocking transfer that has moved some data returns a **short count** instead of
//!   restarting: a `write` of 256 KiB into a pipe returns fewer bytes, so code that calls
//!   `write` once rather than looping (`write_all`) loses the rest;
//! - glibc's `sleep` and `usleep` return **early**: `sleep` with the seconds left and no
//!   error to retry on (a program that ignores its result sleeps a few milliseconds instead
//!   of a second), `usleep` with `EINTR`.
//!
//! A task running under a signal policy that makes such a call directly sees this when a
//! thief asks its worker for work, and must retry as POSIX code generally must
//! (`std::thread::sleep`, `write_all` and most of `std`'s I/O already do). The default,
//! `asym`, sends no signal. Tests keep this list true
//! (`poll_with_a_timeout_sees_eintr_under_signal_policies` in `tests/signals.rs`, and
//! `the_signal_policies_do_to_system_calls_what_their_documentation_says` in
//! `tests/user_code.rs` for short writes, early sleeps and System V IPC under each signal
//! policy).
//!
//! The handler touches only atomics and a `const`-initialized thread-local: no allocation,
//! no lock, nothing that is not async-signal-safe.

use std::ffi::c_int;
use std::sync::Mutex;

use crate::platform::signals;

use crate::stats::{count_rmw, Side};
use crate::sync::{AtomicBool, Ordering};
use crate::worker::WorkerThread;

/// A victim's "an exposure signal is on its way" mark (see "One signal in flight per
/// victim" above): set by the one thief that [claims](SignalMark::claim) it, cleared by the
/// victim's handler.
pub(crate) struct SignalMark(AtomicBool);

impl SignalMark {
    pub(crate) fn new() -> SignalMark {
        SignalMark(AtomicBool::new(false))
    }

    /// Sets the mark; `true` if this call set it, so the caller, and no other thief, sends
    /// the signal. A read first, so that thieves finding it set do not write its line; the
    /// swap, when it runs (won or lost), is counted as a thief's read-modify-write.
    #[inline]
    pub(crate) fn claim(&self) -> bool {
        // Relaxed (both): the swap elects the sender and publishes nothing; what the
        // handler exposes is published by the deque (`public_bot`'s Release) and by
        // `answer`'s Release.
        if self.0.load(Ordering::Relaxed) {
            return false;
        }
        count_rmw(Side::Thief);
        !self.0.swap(true, Ordering::Relaxed)
    }

    /// Whether a signal is on its way (with the caller's ordering: Acquire to see what the
    /// handler exposed before it cleared the mark, Relaxed for a hint).
    #[inline]
    pub(crate) fn is_pending(&self, order: Ordering) -> bool {
        self.0.load(order)
    }

    /// The handler ran: the next request may send a signal again.
    #[inline]
    pub(crate) fn answer(&self) {
        // Release: a thief that sees the mark clear (Acquire) also sees the exposure.
        self.0.store(false, Ordering::Release);
    }

    /// Clears the mark of a claim that sent nothing (the signal's disposition was not the
    /// pool's handler), so that the next request is not taken for an unanswered signal.
    /// A borrowed worker's [`close`](SignalMark::close) that races with it is undone; its
    /// gate still stops every send (the thief then posts a poll request).
    #[inline]
    pub(crate) fn withdraw(&self) {
        // Relaxed: nothing was exposed for a thief to see; it only lets the next claim in.
        self.0.store(false, Ordering::Relaxed);
    }

    /// Sets the mark for good (a borrowed worker left the pool): no thief claims it again.
    pub(crate) fn close(&self) {
        // Relaxed: a thief that still reads it clear is stopped by the gate.
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The default exposure signal of the signal policies: `SIGURG`, whose default action is to
/// ignore it (so a copy that arrives after the program reset its disposition ends nothing),
/// which programs rarely use and debuggers pass through (see the module doc, "Which
/// signal"). Unix only: elsewhere the signal policies do not exist.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// assert_eq!(splitsteal::default_signal(), libc::SIGURG);
/// ```
#[cfg(unix)]
pub fn default_signal() -> c_int {
    signals::default_signal()
}

/// Checks that `signo` may carry exposure requests (`SIGURG`, or a real-time signal where
/// the platform has them) and installs the exposure handler for it, unless another handler
/// owns it.
pub(crate) fn install_handler(signo: c_int) -> Result<(), String> {
    signals::check_number(signo)?;
    // One pool at a time, so that two builds do not both read `SIG_DFL` and install.
    static INSTALLING: Mutex<()> = Mutex::new(());
    let _one_at_a_time = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    signals::install_handler(signo, on_exposure_signal)
}

/// The exposure signal handler.
extern "C" fn on_exposure_signal(_signo: c_int) {
    // A `const`-initialized thread-local without destructor: reading it is a plain
    // TLS-relative load, async-signal-safe.
    // The current worker, or a borrowed one whose thread runs its own code
    // (`use_current_thread`).
    let worker = WorkerThread::signal_target();
    if !worker.is_null() {
        // SAFETY: the pointer is cleared before the worker is dropped, on this same thread,
        // so a non-null value points to the live worker this signal interrupted.
        unsafe { (*worker).on_exposure_signal() }
    }
}

/// Sends the exposure signal to a worker thread; `false` if it could not be sent (`EAGAIN`
/// when the real-time signal queue limit is reached).
///
/// # Safety
/// `thread` must be a live thread (workers stay alive until every worker stopped stealing).
pub(crate) unsafe fn send(thread: signals::ThreadId, signo: c_int) -> bool {
    // SAFETY: as the caller guarantees.
    unsafe { signals::send(thread, signo) }
}

/// Unblocks `signo` in the calling thread (a worker starting: it may have inherited a mask
/// that blocks it).
pub(crate) fn unblock(signo: c_int) {
    signals::unblock(signo);
}

/// Whether `signo`'s current disposition is our exposure handler (`false`: the user
/// installed another handler, or ignores or resets the signal, after the pool was built).
pub(crate) fn handler_is_ours(signo: c_int) -> bool {
    signals::handler_is(signo, on_exposure_signal)
}

#[cfg(all(test, target_os = "linux", not(loom), not(miri)))]
mod tests {
    use std::time::{Duration, Instant};

    use crate::wakeup::Wanted;
    use crate::worker::WorkerThread;
    use crate::{join, Policy, ThreadPoolBuilder};

    /// Polls `what` for up to five seconds; whether it became true.
    fn within_five_seconds(mut what: impl FnMut() -> bool) -> bool {
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(5) {
            if what() {
                return true;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        false
    }

    /// The program ignores the pool's signal after the build. A thief that then asks a
    /// victim with private work sends nothing, posts a poll request and leaves the
    /// victim's mark clear (no signal is on its way); while the request waits for the
    /// victim's next push, the thief sleeps instead of asking again. (With the mark left
    /// set, later requests went out only at the overdue follow-ups, 20 ms doubling to
    /// 20 s, and stealing nearly stopped on a loaded machine.)
    #[test]
    fn a_thief_that_finds_the_signal_not_ours_asks_by_polling_and_sleeps() {
        let signo = libc::SIGRTMIN() + 11;
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(Policy::LcwsHalf)
            .signal(signo)
            .build()
            .unwrap();
        // SAFETY: ignores a signal number no other test uses; no handler of ours runs.
        let old = unsafe { libc::signal(signo, libc::SIG_IGN) };
        assert_ne!(old, libc::SIG_ERR);
        // Runs on the victim, in the inner join's first half: the outer join's task may
        // go to a sleeping thief (its standing request), the inner one stays private until
        // asked for.
        let probe = || {
            // SAFETY: the calling thread's own worker, alive while it runs a task.
            let me = unsafe { &*WorkerThread::current() };
            let registry = &*me.registry;
            let mine = &registry.workers[me.index];
            let asked = within_five_seconds(|| {
                registry.foreign_handler_seen()
                    && mine.wanted().has(Wanted::POLL_REQUEST)
                    && !mine.signalled.is_pending(crate::sync::Ordering::SeqCst)
            });
            // Asleep now, and still asleep a while later: not going back to work at
            // every look.
            let slept = within_five_seconds(|| registry.sleep.asleep() == 1) && {
                std::thread::sleep(Duration::from_millis(50));
                registry.sleep.asleep() == 1
            };
            (asked, slept)
        };
        let (asked, slept) = pool.install(|| join(|| join(probe, || ()).0, || ()).0);
        assert!(
            asked,
            "the victim's mark stayed set, or no poll request came"
        );
        assert!(slept, "the thief did not sleep on its poll request");
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::SignalMark;
    use loom::sync::atomic::{AtomicUsize, Ordering};
    use loom::sync::Arc;

    /// Three thieves ask one victim at once: exactly one of them sends (a load-then-store
    /// claim elects several). Then the handler's answer lets the next claim send again,
    /// once.
    #[test]
    fn loom_one_signal_in_flight_per_victim() {
        loom::model(|| {
            let mark = Arc::new(SignalMark::new());
            let sent = Arc::new(AtomicUsize::new(0));
            let thieves: Vec<_> = (0..2)
                .map(|_| {
                    let (mark, sent) = (mark.clone(), sent.clone());
                    loom::thread::spawn(move || {
                        if mark.claim() {
                            sent.fetch_add(1, Ordering::Relaxed);
                        }
                    })
                })
                .collect();
            if mark.claim() {
                sent.fetch_add(1, Ordering::Relaxed);
            }
            for t in thieves {
                t.join().unwrap();
            }
            assert_eq!(sent.load(Ordering::Relaxed), 1);
            assert!(mark.is_pending(Ordering::Relaxed));
            mark.answer();
            assert!(mark.claim());
            assert!(!mark.claim());
        });
    }
}

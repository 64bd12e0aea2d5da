//! The split deque under real signals (003's signal-based LCWS): a signaller thread fires
//! a real-time signal at the owner with `pthread_kill` while the owner pushes and pops
//! millions of times; the handler exposes private tasks through the owner's
//! [`SignalExposer`], interrupting the owner between arbitrary instructions of `push`,
//! `pop_private` and `pop_public_bottom`; thieves steal the exposed tasks concurrently.
//! Every task must be taken exactly once.
//!
//! Size: `SPLITSTEAL_SIGNAL_TASKS` tasks (default 4,000,000 in release builds, 1,000,000 in
//! debug builds); the owner goes on past that until the handler has run at least
//! [`MIN_HANDLED`] times, exposed something at least [`MIN_EXPOSING`] times and a thief
//! has stolen, so every run exercises all three (no timing involved).
#![cfg(target_os = "linux")]

use std::cell::Cell;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use splitsteal::deque::{Exposure, Full, Owner, SignalExposer, Split, Steal, Stealer};

type Task = NonZeroUsize;

const MIN_HANDLED: usize = 2_000;
const MIN_EXPOSING: usize = 200;
const THIEVES: usize = 2;

fn tasks() -> usize {
    std::env::var("SPLITSTEAL_SIGNAL_TASKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            1_000_000
        } else {
            4_000_000
        })
}

thread_local! {
    /// The owner's exposer, read by the handler on the owner's thread. `const`-initialized
    /// and without `Drop`: reading it is a plain TLS access, async-signal-safe.
    static EXPOSER: Cell<Option<SignalExposer>> = const { Cell::new(None) };
}

/// Signals handled (on any thread).
static HANDLED: AtomicUsize = AtomicUsize::new(0);
/// Handler runs that exposed at least one task.
static EXPOSING: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_signal(_signal: libc::c_int) {
    // Async-signal-safe: a TLS read, the exposer's plain loads and store, relaxed atomics.
    let handled = HANDLED.fetch_add(1, Ordering::Relaxed);
    let how = match handled % 3 {
        0 => Exposure::One,
        1 => Exposure::Conservative,
        _ => Exposure::Half,
    };
    if let Some(exposer) = EXPOSER.with(Cell::get) {
        // SAFETY: `EXPOSER` is set only on the owner's thread while its deque is alive
        // (cleared before the deque drops), and this handler runs on the thread it
        // interrupted.
        if unsafe { exposer.expose(how) } > 0 {
            EXPOSING.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Installs `on_signal` for `signal` with `SA_RESTART`.
fn install(signal: libc::c_int) {
    // SAFETY: a zeroed `sigaction` is a valid starting value; the handler is an
    // `extern "C" fn(c_int)` (no `SA_SIGINFO`), as `sa_sigaction` expects then.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        assert_eq!(libc::sigaction(signal, &action, std::ptr::null_mut()), 0);
    }
}

/// Count and sums of what one thread took (see `deque_stress.rs`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Tally {
    count: u64,
    sum: u64,
    mixed: u64,
}

fn mix(v: usize) -> u64 {
    let mut z = (v as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Tally {
    fn take(&mut self, t: Task) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(t.get() as u64);
        self.mixed = self.mixed.wrapping_add(mix(t.get()));
    }

    fn add(self, o: Tally) -> Tally {
        Tally {
            count: self.count + o.count,
            sum: self.sum.wrapping_add(o.sum),
            mixed: self.mixed.wrapping_add(o.mixed),
        }
    }
}

/// The owner's exit, normal or by a panic: stops the signaller (and waits until it has sent
/// its last signal, so no signal targets a finished thread), clears the exposer, and on a
/// panic stops the thieves too (instead of leaving them waiting for a drained deque).
struct OwnerExit<'a> {
    signalling: &'a AtomicBool,
    signaller_stopped: &'a AtomicBool,
    aborted: &'a AtomicBool,
}

impl Drop for OwnerExit<'_> {
    fn drop(&mut self) {
        // Release: the signaller stops; Acquire: its last `pthread_kill` is behind us.
        self.signalling.store(false, Ordering::Release);
        while !self.signaller_stopped.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        EXPOSER.with(|e| e.set(None));
        if std::thread::panicking() {
            // Release: pairs with the thieves' Acquire.
            self.aborted.store(true, Ordering::Release);
        }
    }
}

#[test]
fn exposure_by_signal_keeps_exactly_once() {
    let signal = libc::SIGRTMIN() + 3;
    install(signal);
    let n = tasks();
    let owner_thread = AtomicU64::new(0);
    let owner_ready = AtomicBool::new(false);
    let signalling = AtomicBool::new(true);
    let signaller_stopped = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let aborted = AtomicBool::new(false);
    let stolen = AtomicUsize::new(0);
    let start = Instant::now();

    let (owner, thieves, total, signals) = std::thread::scope(|scope| {
        let mut d: Split<Task> = Split::with_capacity(1024);
        let stealer = d.stealer();
        let thieves: Vec<_> = (0..THIEVES)
            .map(|_| {
                let s = stealer.clone();
                let (done, stolen, aborted) = (&done, &stolen, &aborted);
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    let mut failures = 0u32;
                    loop {
                        match s.steal() {
                            Steal::Success(t) => {
                                tally.take(t);
                                // Relaxed: a progress counter.
                                stolen.fetch_add(1, Ordering::Relaxed);
                                continue;
                            }
                            // Acquire: after the owner's final drain the deque stays empty.
                            Steal::Empty if done.load(Ordering::Acquire) && s.is_empty() => break,
                            _ => {}
                        }
                        // Acquire: the owner panicked; the test fails there.
                        if aborted.load(Ordering::Acquire) {
                            break;
                        }
                        failures = failures.wrapping_add(1);
                        if failures.is_multiple_of(32) {
                            std::thread::yield_now();
                        } else {
                            std::hint::spin_loop();
                        }
                    }
                    tally
                })
            })
            .collect();

        let signaller = {
            let (owner_thread, owner_ready) = (&owner_thread, &owner_ready);
            let (signalling, signaller_stopped) = (&signalling, &signaller_stopped);
            scope.spawn(move || {
                // Acquire: the owner's thread id is written before the flag.
                while !owner_ready.load(Ordering::Acquire) {
                    std::thread::yield_now();
                }
                let target = owner_thread.load(Ordering::Relaxed) as libc::pthread_t;
                let mut sent = 0usize;
                // Acquire: stop as soon as the owner asks (it waits for our answer).
                while signalling.load(Ordering::Acquire) {
                    // At most one signal in flight: real-time signals queue up otherwise.
                    if HANDLED.load(Ordering::Relaxed) >= sent {
                        // SAFETY: the owner thread is alive until we set
                        // `signaller_stopped`: it waits for that before returning.
                        let rc = unsafe { libc::pthread_kill(target, signal) };
                        assert_eq!(rc, 0, "pthread_kill failed");
                        sent += 1;
                    }
                    std::hint::spin_loop();
                }
                // Release: all our `pthread_kill` calls happen before the owner returns.
                signaller_stopped.store(true, Ordering::Release);
                sent
            })
        };

        // The owner.
        EXPOSER.with(|e| e.set(Some(d.signal_exposer())));
        let exit = OwnerExit {
            signalling: &signalling,
            signaller_stopped: &signaller_stopped,
            aborted: &aborted,
        };
        // SAFETY: `pthread_self` has no preconditions.
        owner_thread.store(unsafe { libc::pthread_self() } as u64, Ordering::Relaxed);
        // Release: publishes the thread id.
        owner_ready.store(true, Ordering::Release);
        let mut tally = Tally::default();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut below = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        let mut next = 1usize;
        let mut round = 0usize;
        loop {
            let more = next <= n
                || HANDLED.load(Ordering::Relaxed) < MIN_HANDLED
                || EXPOSING.load(Ordering::Relaxed) < MIN_EXPOSING
                || stolen.load(Ordering::Relaxed) == 0;
            if !more {
                break;
            }
            round += 1;
            // Phases of 256 rounds: the deque fills up (more pushes than pops), drains (the
            // private part runs dry, `pop` falls through to `pop_public_bottom`), or holds
            // one private task at a time (push, pop: a signal inside `pop_private` can then
            // expose the very task being popped: 003's race).
            let (max_pushes, max_pops) = match (round / 256) % 3 {
                0 => (12, 8),
                1 => (12, 16),
                _ => (2, 2),
            };
            for _ in 0..below(max_pushes) {
                match d.push(NonZeroUsize::new(next).unwrap()) {
                    Ok(()) => next += 1,
                    Err(Full(_)) => {
                        if let Some(t) = d.pop() {
                            tally.take(t);
                        }
                        break;
                    }
                }
            }
            for _ in 0..below(max_pops) {
                if let Some(t) = d.pop() {
                    tally.take(t);
                }
            }
        }
        drop(exit);
        while let Some(t) = d.pop() {
            tally.take(t);
        }
        // Release: the thieves' final `is_empty` sees the drained deque.
        done.store(true, Ordering::Release);
        let thieves: Vec<Tally> = thieves.into_iter().map(|h| h.join().unwrap()).collect();
        let signals = signaller.join().unwrap();
        (tally, thieves, next - 1, signals)
    });

    let got = thieves.iter().fold(owner, |a, &b| a.add(b));
    let mut want = Tally::default();
    (1..=total).for_each(|v| want.take(NonZeroUsize::new(v).unwrap()));
    println!(
        "{total} tasks in {:.2?}: {signals} signals, {} handled, {} exposing, {} stolen",
        start.elapsed(),
        HANDLED.load(Ordering::Relaxed),
        EXPOSING.load(Ordering::Relaxed),
        got.count - owner.count,
    );
    assert_eq!(got, want, "a task was lost or taken twice");
}

//! rayon's documented semantics for the rayon-compatible API: `spawn` / `spawn_fifo`
//! (exactly once, kept alive by a dropped pool), FIFO / LIFO order at one thread,
//! `broadcast` / `spawn_broadcast`, `join_context`'s `migrated()`, `in_place_scope`,
//! `yield_now` / `yield_local`, and panics in scope tasks; under every policy.
//!
//! Timeouts here only detect hangs; nothing waits for time to pass.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use splitsteal_core::{current_thread_index, Policy, ThreadPool, Yield};

mod common;
use common::{fib, fib_seq, pool};

/// How long anything may take before the test calls it a hang.
const HANG: Duration = Duration::from_secs(60);

fn recv<T>(rx: &Receiver<T>, what: &str) -> T {
    rx.recv_timeout(HANG)
        .unwrap_or_else(|e| panic!("{what}: nothing after {HANG:?} ({e})"))
}

/// Spins (yielding the processor) until `cond` holds; `false` if it did not within `HANG`.
fn spin_until(cond: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + HANG;
    while !cond() {
        if Instant::now() > deadline {
            return false;
        }
        thread::yield_now();
    }
    true
}

// ---------------------------------------------------------------------------------------
// 1. Spawns run exactly once.

/// Non-idempotent bookkeeping: one slot per job index, a sum of indices, and a count whose
/// last increment reports completion on a channel.
struct Tally {
    slots: Vec<AtomicU8>,
    sum: AtomicU64,
    done: AtomicUsize,
    finished: Mutex<Option<Sender<()>>>,
}

impl Tally {
    fn new(total: usize) -> (Arc<Tally>, Receiver<()>) {
        let (tx, rx) = mpsc::channel();
        let tally = Tally {
            slots: (0..total).map(|_| AtomicU8::new(0)).collect(),
            sum: AtomicU64::new(0),
            done: AtomicUsize::new(0),
            finished: Mutex::new(Some(tx)),
        };
        (Arc::new(tally), rx)
    }

    fn hit(&self, i: usize) {
        self.slots[i].fetch_add(1, Ordering::Relaxed);
        self.sum.fetch_add(i as u64, Ordering::Relaxed);
        // AcqRel: the last hit sees every other hit's slot and sum.
        if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.slots.len()
            && let Some(tx) = self.finished.lock().unwrap().take()
        {
            let _ = tx.send(());
        }
    }

    fn check(&self, what: &str) {
        let n = self.slots.len();
        for (i, s) in self.slots.iter().enumerate() {
            let c = s.load(Ordering::Relaxed);
            assert_eq!(c, 1, "{what}: job {i} ran {c} times");
        }
        let expected = (n as u64) * (n as u64 - 1) / 2;
        assert_eq!(self.sum.load(Ordering::Relaxed), expected, "{what}: sum");
        assert_eq!(self.done.load(Ordering::Relaxed), n, "{what}: count");
    }
}

/// Job `lo` of `lo..hi`, which spawns the rest of its range from inside itself: half with
/// `spawn`, half with `spawn_fifo` (both on the current worker's pool).
fn spawn_tree(t: Arc<Tally>, lo: usize, hi: usize) {
    t.hit(lo);
    let mid = (lo + 1 + hi) / 2;
    if lo + 1 < mid {
        let t = Arc::clone(&t);
        splitsteal_core::spawn(move || spawn_tree(t, lo + 1, mid));
    }
    if mid < hi {
        splitsteal_core::spawn_fifo(move || spawn_tree(t, mid, hi));
    }
}

/// `total` spawns into a 2-thread pool: half a nested tree (rooted from outside the pool),
/// 30% flat from three non-worker threads, 20% flat from inside `install`.
fn spawns_run_exactly_once(policy: Policy, total: usize) {
    let what = format!("{policy}, {total} spawns");
    let pool = pool(2, policy);
    let (tally, finished) = Tally::new(total);
    let tree_end = total / 2;
    let threads_end = tree_end + total * 3 / 10;

    let t = Arc::clone(&tally);
    pool.spawn(move || spawn_tree(t, 0, tree_end));

    thread::scope(|s| {
        let chunk = (threads_end - tree_end).div_ceil(3);
        for start in (tree_end..threads_end).step_by(chunk) {
            let (pool, tally) = (&pool, &tally);
            s.spawn(move || {
                for i in start..(start + chunk).min(threads_end) {
                    let t = Arc::clone(tally);
                    if i % 2 == 0 {
                        pool.spawn(move || t.hit(i));
                    } else {
                        pool.spawn_fifo(move || t.hit(i));
                    }
                }
            });
        }
        pool.install(|| {
            for i in threads_end..total {
                let t = Arc::clone(&tally);
                if i % 2 == 0 {
                    splitsteal_core::spawn(move || t.hit(i));
                } else {
                    splitsteal_core::spawn_fifo(move || t.hit(i));
                }
            }
        });
    });

    recv(&finished, &what);
    tally.check(&what);
}

#[test]
fn a_million_spawns_at_the_default_policy_each_run_exactly_once() {
    spawns_run_exactly_once(Policy::default(), 1_000_000);
}

#[test]
fn spawns_run_exactly_once_under_every_policy() {
    for &policy in Policy::ALL {
        if policy != Policy::default() {
            spawns_run_exactly_once(policy, 20_000);
        }
    }
}

#[test]
fn free_spawns_from_outside_any_pool_run_on_the_global_pool() {
    let n = 1000;
    let global_threads = splitsteal_core::current_num_threads();
    let (tally, finished) = Tally::new(n);
    let on_worker = Arc::new(AtomicUsize::new(0));
    for i in 0..n {
        let (t, w) = (Arc::clone(&tally), Arc::clone(&on_worker));
        let job = move || {
            if current_thread_index().is_some()
                && splitsteal_core::current_num_threads() == global_threads
            {
                w.fetch_add(1, Ordering::Relaxed);
            }
            t.hit(i);
        };
        if i % 2 == 0 {
            splitsteal_core::spawn(job);
        } else {
            splitsteal_core::spawn_fifo(job);
        }
    }
    recv(&finished, "global pool spawns");
    tally.check("global pool spawns");
    assert_eq!(on_worker.load(Ordering::Relaxed), n);
}

// ---------------------------------------------------------------------------------------
// 2. Dropping a pool neither loses pending spawns nor waits for them.

/// Reports on a channel when the thread that holds it exits (thread-local destructors run
/// before a thread's join returns).
struct ExitGuard(Sender<usize>, usize);

impl Drop for ExitGuard {
    fn drop(&mut self) {
        let _ = self.0.send(self.1);
    }
}

thread_local! {
    static EXIT_GUARD: RefCell<Option<ExitGuard>> = const { RefCell::new(None) };
}

/// Gives each worker of `pool` an `ExitGuard`; returns where they report.
fn watch_exits(pool: &ThreadPool) -> Receiver<usize> {
    let (tx, rx) = mpsc::channel();
    pool.broadcast(|ctx| {
        EXIT_GUARD.with(|g| *g.borrow_mut() = Some(ExitGuard(tx.clone(), ctx.index())));
    });
    rx
}

#[test]
fn dropping_an_idle_pool_joins_its_threads() {
    for &policy in Policy::ALL {
        let pool = pool(3, policy);
        let exits = watch_exits(&pool);
        assert_eq!(pool.install(|| fib(15)), fib_seq(15));
        drop(pool);
        // Joined: every worker has exited already, no waiting.
        let mut exited: Vec<usize> = exits.try_iter().collect();
        exited.sort_unstable();
        assert_eq!(
            exited,
            [0, 1, 2],
            "{policy}: workers still running after drop"
        );
    }
}

#[test]
fn dropping_a_pool_with_pending_spawns_runs_them_all_and_then_exits() {
    const JOBS: usize = 6;
    for &policy in Policy::ALL {
        let threads = 2;
        let pool = pool(threads, policy);
        let exits = watch_exits(&pool);
        let (started_tx, started) = mpsc::channel();
        let (done_tx, done) = mpsc::channel();
        let mut gates = Vec::new();
        let mut jobs = Vec::new();
        for id in 0..JOBS {
            let (gate_tx, gate) = mpsc::channel::<()>();
            gates.push(gate_tx);
            let (started_tx, done_tx) = (started_tx.clone(), done_tx.clone());
            jobs.push(move || {
                let _ = started_tx.send(id);
                let opened = gate.recv_timeout(HANG).is_ok();
                let _ = done_tx.send((id, opened));
            });
        }
        // Half from a worker (first: with every worker blocked, an `install` queued
        // behind the gated jobs could not run), half from outside, each kind both ways.
        let outside: Vec<_> = jobs.drain(JOBS / 2..).collect();
        pool.install(|| {
            for (k, job) in jobs.drain(..).enumerate() {
                if k % 2 == 0 {
                    splitsteal_core::spawn(job);
                } else {
                    splitsteal_core::spawn_fifo(job);
                }
            }
        });
        for (k, job) in outside.into_iter().enumerate() {
            if k % 2 == 0 {
                pool.spawn(job);
            } else {
                pool.spawn_fifo(job);
            }
        }
        let (bcast_tx, bcast) = mpsc::channel();
        pool.spawn_broadcast(move |ctx| {
            let _ = bcast_tx.send(ctx.index());
        });

        // Every worker is blocked in a gated job: nothing can finish before the drop.
        for _ in 0..threads {
            recv(&started, &format!("{policy}: gated job start"));
        }
        let (dropped_tx, dropped) = mpsc::channel();
        let dropper = thread::spawn(move || {
            drop(pool);
            dropped_tx.send(()).unwrap();
        });
        let drop_returned = dropped.recv_timeout(HANG).is_ok();
        // Open the gates now (also on failure, so that the workers can finish).
        for g in &gates {
            let _ = g.send(());
        }
        assert!(
            drop_returned,
            "{policy}: dropping the pool waited for pending spawns"
        );
        dropper.join().unwrap();

        let mut ran: Vec<(usize, bool)> = (0..JOBS)
            .map(|_| recv(&done, &format!("{policy}: pending spawn after drop")))
            .collect();
        ran.sort_unstable();
        let expected: Vec<(usize, bool)> = (0..JOBS).map(|id| (id, true)).collect();
        assert_eq!(ran, expected, "{policy}");
        let mut shares: Vec<usize> = (0..threads)
            .map(|_| recv(&bcast, &format!("{policy}: spawn_broadcast after drop")))
            .collect();
        shares.sort_unstable();
        assert_eq!(shares, [0, 1], "{policy}: spawn_broadcast shares");
        // With nothing left, the threads exit on their own.
        let mut exited: Vec<usize> = (0..threads)
            .map(|_| recv(&exits, &format!("{policy}: worker exit")))
            .collect();
        exited.sort_unstable();
        assert_eq!(exited, [0, 1], "{policy}");
        assert!(done.try_recv().is_err(), "{policy}: a job ran twice");
    }
}

// ---------------------------------------------------------------------------------------
// 3. Order at one thread: FIFO for the `_fifo` spawns, LIFO for plain ones.

fn collect_sent(rx: &Receiver<usize>, n: usize, what: &str) -> Vec<usize> {
    (0..n).map(|_| recv(rx, what)).collect()
}

#[test]
fn spawn_fifo_at_one_thread_starts_jobs_in_spawn_order() {
    const N: usize = 16;
    let fifo: Vec<usize> = (0..N).collect();
    for &policy in Policy::ALL {
        let pool = pool(1, policy);
        let (tx, rx) = mpsc::channel();
        pool.install(|| {
            for i in 0..N {
                let tx = tx.clone();
                splitsteal_core::spawn_fifo(move || {
                    let _ = tx.send(i);
                });
            }
        });
        assert_eq!(
            collect_sent(&rx, N, "spawn_fifo"),
            fifo,
            "{policy}: spawn_fifo"
        );

        // From outside the pool: queued in order too.
        for i in 0..N {
            let tx = tx.clone();
            pool.spawn_fifo(move || {
                let _ = tx.send(i);
            });
        }
        let got = collect_sent(&rx, N, "pool.spawn_fifo");
        assert_eq!(got, fifo, "{policy}: ThreadPool::spawn_fifo");

        // Plain `spawn` from the worker: newest first.
        pool.install(|| {
            for i in 0..N {
                let tx = tx.clone();
                splitsteal_core::spawn(move || {
                    let _ = tx.send(i);
                });
            }
        });
        let lifo: Vec<usize> = (0..N).rev().collect();
        assert_eq!(collect_sent(&rx, N, "spawn"), lifo, "{policy}: spawn");
    }
}

#[test]
fn scope_fifo_at_one_thread_starts_tasks_in_spawn_order() {
    for &policy in Policy::ALL {
        let pool = pool(1, policy);
        let order = Mutex::new(Vec::new());
        let push = |i: usize| order.lock().unwrap().push(i);
        // Task 0 spawns 10 and 11: they queue behind 1..=3.
        let expected = [0, 1, 2, 3, 10, 11];
        pool.scope_fifo(|s| {
            for i in 0..4 {
                s.spawn_fifo(move |s| {
                    push(i);
                    if i == 0 {
                        s.spawn_fifo(move |_| push(10));
                        s.spawn_fifo(move |_| push(11));
                    }
                });
            }
        });
        let got = std::mem::take(&mut *order.lock().unwrap());
        assert_eq!(got, expected, "{policy}: ThreadPool::scope_fifo");

        pool.install(|| {
            splitsteal_core::scope_fifo(|s| {
                for i in 0..8 {
                    s.spawn_fifo(move |_| push(i));
                }
            })
        });
        let got = std::mem::take(&mut *order.lock().unwrap());
        assert_eq!(got, (0..8).collect::<Vec<_>>(), "{policy}: scope_fifo");

        // In place, from a worker and from outside.
        pool.install(|| {
            splitsteal_core::in_place_scope_fifo(|s| {
                for i in 0..8 {
                    s.spawn_fifo(move |_| push(i));
                }
            })
        });
        let got = std::mem::take(&mut *order.lock().unwrap());
        assert_eq!(
            got,
            (0..8).collect::<Vec<_>>(),
            "{policy}: in_place_scope_fifo"
        );
        pool.in_place_scope_fifo(|s| {
            for i in 0..8 {
                s.spawn_fifo(move |_| push(i));
            }
        });
        let got = std::mem::take(&mut *order.lock().unwrap());
        let what = format!("{policy}: in_place_scope_fifo from outside");
        assert_eq!(got, (0..8).collect::<Vec<_>>(), "{what}");
    }
}

#[test]
fn scope_at_one_thread_runs_the_newest_spawn_first() {
    for &policy in Policy::ALL {
        let pool = pool(1, policy);
        let order = Mutex::new(Vec::new());
        let push = |i: usize| order.lock().unwrap().push(i);
        // Once the body returns: 2 first, whose own spawns (newest first) precede 1 and 0.
        let expected = [2, 21, 20, 1, 0];
        pool.scope(|s| {
            for i in 0..3 {
                s.spawn(move |s| {
                    push(i);
                    if i == 2 {
                        s.spawn(move |_| push(20));
                        s.spawn(move |_| push(21));
                    }
                });
            }
            assert!(
                order.lock().unwrap().is_empty(),
                "{policy}: ran before the body returned"
            );
        });
        let got = std::mem::take(&mut *order.lock().unwrap());
        assert_eq!(got, expected, "{policy}: ThreadPool::scope");

        pool.install(|| {
            splitsteal_core::in_place_scope(|s| {
                for i in 0..8 {
                    s.spawn(move |_| push(i));
                }
            })
        });
        let got = std::mem::take(&mut *order.lock().unwrap());
        let lifo: Vec<usize> = (0..8).rev().collect();
        assert_eq!(got, lifo, "{policy}: in_place_scope from a worker");
    }
}

// ---------------------------------------------------------------------------------------
// 4. Broadcasts.

/// Checks a broadcast's results `(ctx.index(), ctx.num_threads(), current_thread_index())`
/// and its per-index run counts.
fn check_broadcast(got: Vec<(usize, usize, Option<usize>)>, runs: &[AtomicUsize], what: &str) {
    let n = runs.len();
    let expected: Vec<_> = (0..n).map(|i| (i, n, Some(i))).collect();
    assert_eq!(got, expected, "{what}: results");
    for (i, r) in runs.iter().enumerate() {
        assert_eq!(
            r.swap(0, Ordering::Relaxed),
            1,
            "{what}: runs on worker {i}"
        );
    }
}

#[test]
fn broadcast_runs_once_on_every_worker_in_index_order() {
    for &policy in Policy::ALL {
        for n in [2, 3] {
            let pool = pool(n, policy);
            let runs: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            let op = |ctx: splitsteal_core::BroadcastContext<'_>| {
                runs[ctx.index()].fetch_add(1, Ordering::Relaxed);
                (ctx.index(), ctx.num_threads(), current_thread_index())
            };
            let what = format!("{policy} x{n}");
            check_broadcast(pool.broadcast(op), &runs, &format!("{what} from outside"));
            let got = pool.install(|| splitsteal_core::broadcast(op));
            check_broadcast(got, &runs, &format!("{what} from install"));
            let got = pool.install(|| pool.broadcast(op));
            check_broadcast(got, &runs, &format!("{what} pool.broadcast from install"));
            // From inside a join on a worker, several times.
            for _ in 0..5 {
                let (got, f) = pool.install(|| {
                    splitsteal_core::join(|| splitsteal_core::broadcast(op), || fib(12))
                });
                assert_eq!(f, fib_seq(12));
                check_broadcast(got, &runs, &format!("{what} from a join"));
            }
        }
    }
}

/// A job that keeps one worker busy, without joins, until `release` is set.
struct Busy {
    release: AtomicBool,
    done: AtomicBool,
    timed_out: AtomicBool,
}

/// Spawns a `Busy` job on `pool`; returns it and the worker it occupies once it runs.
fn occupy_a_worker(pool: &ThreadPool, what: &str) -> (Arc<Busy>, usize) {
    let busy = Arc::new(Busy {
        release: AtomicBool::new(false),
        done: AtomicBool::new(false),
        timed_out: AtomicBool::new(false),
    });
    let (tx, rx) = mpsc::channel();
    let b = Arc::clone(&busy);
    pool.spawn(move || {
        let _ = tx.send(current_thread_index().unwrap());
        if !spin_until(|| b.release.load(Ordering::SeqCst)) {
            b.timed_out.store(true, Ordering::SeqCst);
        }
        b.done.store(true, Ordering::SeqCst);
    });
    let index = recv(&rx, &format!("{what}: busy job start"));
    (busy, index)
}

#[test]
fn broadcast_waits_for_a_busy_worker_and_runs_on_it_after_its_job() {
    for &policy in Policy::ALL {
        for n in [2, 3] {
            let what = format!("{policy} x{n}");
            let pool = Arc::new(pool(n, policy));
            let runs: Arc<Vec<AtomicUsize>> =
                Arc::new((0..n).map(|_| AtomicUsize::new(0)).collect());

            // From outside: the other workers run their shares while one is busy; the
            // broadcast returns only after the busy job ended and that worker ran its share.
            let (busy, busy_index) = occupy_a_worker(&pool, &what);
            let (result_tx, result) = mpsc::channel();
            let caller = {
                let (pool, runs, busy) = (Arc::clone(&pool), Arc::clone(&runs), Arc::clone(&busy));
                thread::spawn(move || {
                    let got = pool.broadcast(|ctx| {
                        // Read before counting the run: once every idle share is counted the
                        // main thread releases the busy job, which may then set `done`.
                        let after_job = busy.done.load(Ordering::SeqCst);
                        runs[ctx.index()].fetch_add(1, Ordering::SeqCst);
                        (ctx.index(), after_job)
                    });
                    result_tx.send(got).unwrap();
                })
            };
            let others_ran = spin_until(|| {
                (0..n).all(|i| i == busy_index || runs[i].load(Ordering::SeqCst) == 1)
            });
            let early = result.try_recv().is_ok();
            busy.release.store(true, Ordering::SeqCst);
            assert!(others_ran, "{what}: idle workers did not run their shares");
            assert!(
                !early,
                "{what}: broadcast returned without the busy worker's share"
            );
            let got = recv(&result, &format!("{what}: broadcast from outside"));
            caller.join().unwrap();
            let expected: Vec<_> = (0..n).map(|i| (i, i == busy_index)).collect();
            assert_eq!(
                got, expected,
                "{what}: from outside, busy worker {busy_index}"
            );
            assert!(!busy.timed_out.load(Ordering::SeqCst), "{what}");
            for r in runs.iter() {
                assert_eq!(r.swap(0, Ordering::SeqCst), 1, "{what}: runs");
            }

            // From inside `install` on another worker: a share on a non-busy worker releases
            // the busy one.
            let (busy, busy_index) = occupy_a_worker(&pool, &what);
            let got = pool.install(|| {
                let me = current_thread_index().unwrap();
                assert_ne!(me, busy_index);
                splitsteal_core::broadcast(|ctx| {
                    runs[ctx.index()].fetch_add(1, Ordering::SeqCst);
                    if ctx.index() == busy_index {
                        busy.done.load(Ordering::SeqCst)
                    } else {
                        busy.release.store(true, Ordering::SeqCst);
                        true
                    }
                })
            });
            assert!(!busy.timed_out.load(Ordering::SeqCst), "{what}");
            assert!(
                got.iter().all(|&after| after),
                "{what}: share ran during the busy job"
            );
            for r in runs.iter() {
                assert_eq!(r.swap(0, Ordering::SeqCst), 1, "{what}: runs from install");
            }
        }
    }
}

#[test]
fn spawn_broadcast_runs_once_on_every_worker() {
    for &policy in Policy::ALL {
        for n in [2, 3] {
            let what = format!("{policy} x{n}");
            let pool = pool(n, policy);
            let (tx, rx) = mpsc::channel();
            let op = move |tag: usize| {
                let tx = tx.clone();
                move |ctx: splitsteal_core::BroadcastContext<'_>| {
                    let on = current_thread_index();
                    let _ = tx.send((tag, ctx.index(), ctx.num_threads(), on));
                }
            };
            pool.spawn_broadcast(op(0));
            pool.install(|| splitsteal_core::spawn_broadcast(op(1)));
            pool.install(|| pool.spawn_broadcast(op(2)));
            drop(op);
            drop(pool);
            // Every copy of the sender goes once every share has run (and no earlier).
            let mut got = Vec::new();
            loop {
                match rx.recv_timeout(HANG) {
                    Ok(m) => got.push(m),
                    Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) => panic!("{what}: shares missing: {got:?}"),
                }
            }
            got.sort_unstable();
            let expected: Vec<_> = (0..3)
                .flat_map(|t| (0..n).map(move |i| (t, i, n, Some(i))))
                .collect();
            assert_eq!(got, expected, "{what}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// 5. join_context: migrated().

#[test]
fn join_context_is_not_migrated_at_one_thread() {
    for &policy in Policy::ALL {
        let pool = pool(1, policy);
        let got = pool.install(|| {
            splitsteal_core::join_context(
                |a| {
                    let inner = splitsteal_core::join_context(|x| x.migrated(), |y| y.migrated());
                    (a.migrated(), inner)
                },
                |b| b.migrated(),
            )
        });
        assert_eq!(got, ((false, (false, false)), false), "{policy}");
    }
}

#[test]
fn join_context_from_outside_any_pool_is_migrated_on_both_sides() {
    let (a, b) = splitsteal_core::join_context(
        |a| (a.migrated(), current_thread_index().is_some()),
        |b| (b.migrated(), current_thread_index().is_some()),
    );
    assert_eq!((a, b), ((true, true), (true, true)));
}

#[test]
fn join_context_second_closure_is_migrated_iff_stolen() {
    for &policy in Policy::ALL {
        let pool = pool(2, policy);
        let mut stolen = 0;
        for round in 0..4 {
            let what = format!("{policy}, round {round}");
            let b_started = AtomicBool::new(false);
            let (caller, (a_thread, a_migrated, waited), (b_thread, b_migrated)) =
                pool.install(|| {
                    let caller = current_thread_index().unwrap();
                    let (a, b) = splitsteal_core::join_context(
                        |a| {
                            // Do not return before `b` has started: someone else must run it.
                            // The small joins let a polled victim answer the thief's request.
                            let waited = spin_until(|| {
                                splitsteal_core::join(|| (), || ());
                                b_started.load(Ordering::SeqCst)
                            });
                            (current_thread_index().unwrap(), a.migrated(), waited)
                        },
                        |b| {
                            b_started.store(true, Ordering::SeqCst);
                            (current_thread_index().unwrap(), b.migrated())
                        },
                    );
                    (caller, a, b)
                });
            assert!(waited, "{what}: b never started while a waited");
            assert_eq!((a_thread, a_migrated), (caller, false), "{what}: a");
            assert_eq!(
                b_migrated,
                b_thread != caller,
                "{what}: b ran on {b_thread}"
            );
            stolen += usize::from(b_thread != caller);
        }
        assert!(stolen > 0, "{policy}: b was never stolen");
    }
}

// ---------------------------------------------------------------------------------------
// 6. in_place_scope.

/// Doubles every element of `data` in spawned tasks borrowing disjoint slices (each
/// spawned from inside another task), while the body uses a non-`Send` value; returns the
/// thread the body ran on and whether every task ran on a worker.
fn double_in_place(
    data: &mut [u64],
    fifo: bool,
    pool: Option<&ThreadPool>,
) -> (thread::ThreadId, bool) {
    let not_send = Rc::new(RefCell::new(0usize));
    let tasks_on_workers = AtomicUsize::new(0);
    let tasks = data.len().div_ceil(4);
    let on_workers = &tasks_on_workers;
    let double = move |chunk: &mut [u64]| {
        for x in chunk {
            *x *= 2;
        }
        if current_thread_index().is_some() {
            on_workers.fetch_add(1, Ordering::Relaxed);
        }
    };
    // One body for the four ways in (a macro: each call infers its own scope lifetime).
    macro_rules! body {
        ($spawn:ident) => {
            |s| {
                for chunk in data.chunks_mut(4) {
                    s.$spawn(move |s| s.$spawn(move |_| double(chunk)));
                    *not_send.borrow_mut() += 1;
                }
                thread::current().id()
            }
        };
    }
    let body_thread = match (fifo, pool) {
        (false, Some(p)) => p.in_place_scope(body!(spawn)),
        (false, None) => splitsteal_core::in_place_scope(body!(spawn)),
        (true, Some(p)) => p.in_place_scope_fifo(body!(spawn_fifo)),
        (true, None) => splitsteal_core::in_place_scope_fifo(body!(spawn_fifo)),
    };
    assert_eq!(*not_send.borrow(), tasks);
    (
        body_thread,
        tasks_on_workers.load(Ordering::Relaxed) == tasks,
    )
}

#[test]
fn in_place_scope_borrows_the_callers_stack_and_runs_its_body_in_place() {
    for &policy in Policy::ALL {
        let pool = pool(2, policy);
        for fifo in [false, true] {
            let what = format!("{policy}, fifo {fifo}");
            // From a thread outside any pool: the body runs here, the tasks on the pool,
            // and the call returns only after they all finished.
            let mut data: Vec<u64> = (0..37).collect();
            let (body, tasks_on_workers) = double_in_place(&mut data, fifo, Some(&pool));
            assert_eq!(body, thread::current().id(), "{what}");
            assert!(tasks_on_workers, "{what}: tasks ran off the pool");
            assert_eq!(data, (0..37).map(|x| 2 * x).collect::<Vec<_>>(), "{what}");

            // The free functions from outside: the global pool.
            let (body, tasks_on_workers) = double_in_place(&mut data, fifo, None);
            assert_eq!(body, thread::current().id(), "{what}: global");
            assert!(tasks_on_workers, "{what}: global");
            assert_eq!(data, (0..37).map(|x| 4 * x).collect::<Vec<_>>(), "{what}");

            // From inside `install`: the body runs on the installing worker.
            let (ok, worker) = pool.install(|| {
                let me = (thread::current().id(), current_thread_index());
                let mut data: Vec<u64> = (0..37).collect();
                let (body, on_workers) = double_in_place(&mut data, fifo, None);
                let doubled = data == (0..37).map(|x| 2 * x).collect::<Vec<_>>();
                (doubled && on_workers && body == me.0, me.1)
            });
            assert!(ok, "{what}: from install");
            assert!(worker.is_some());
        }
    }
}

// ---------------------------------------------------------------------------------------
// 7. yield_now / yield_local.

#[test]
fn yield_outside_a_pool_is_none() {
    assert_eq!(splitsteal_core::yield_now(), None);
    assert_eq!(splitsteal_core::yield_local(), None);
    let pool = pool(1, Policy::default());
    assert_eq!(pool.yield_now(), None);
    assert_eq!(pool.yield_local(), None);
}

#[test]
fn yield_runs_pending_work_at_one_thread_then_reports_idle() {
    for &policy in Policy::ALL {
        let pool = pool(1, policy);
        let other = common::pool(1, policy);
        pool.install(|| {
            let ran = AtomicUsize::new(0);
            splitsteal_core::scope(|s| {
                s.spawn(|_| {
                    ran.fetch_add(1, Ordering::SeqCst);
                });
                assert_eq!(
                    splitsteal_core::yield_now(),
                    Some(Yield::Executed),
                    "{policy}"
                );
                assert_eq!(ran.load(Ordering::SeqCst), 1, "{policy}: yield_now");
                assert_eq!(splitsteal_core::yield_now(), Some(Yield::Idle), "{policy}");

                s.spawn(|_| {
                    ran.fetch_add(1, Ordering::SeqCst);
                });
                assert_eq!(
                    splitsteal_core::yield_local(),
                    Some(Yield::Executed),
                    "{policy}"
                );
                assert_eq!(ran.load(Ordering::SeqCst), 2, "{policy}: yield_local");
                assert_eq!(
                    splitsteal_core::yield_local(),
                    Some(Yield::Idle),
                    "{policy}"
                );

                s.spawn(|_| {
                    ran.fetch_add(1, Ordering::SeqCst);
                });
                // Another pool's methods: not its worker.
                assert_eq!(other.yield_now(), None, "{policy}");
                assert_eq!(other.yield_local(), None, "{policy}");
                assert_eq!(ran.load(Ordering::SeqCst), 2, "{policy}");
                assert_eq!(pool.yield_now(), Some(Yield::Executed), "{policy}");
                assert_eq!(ran.load(Ordering::SeqCst), 3, "{policy}: pool.yield_now");
                assert_eq!(pool.yield_local(), Some(Yield::Idle), "{policy}");
                assert_eq!(pool.yield_now(), Some(Yield::Idle), "{policy}");
            });
        });
    }
}

// ---------------------------------------------------------------------------------------
// 8. Panics in scope tasks.

/// Sets its flag when dropped (also while unwinding).
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

fn panic_message(r: thread::Result<()>) -> String {
    let payload = r.expect_err("the scope did not propagate the task's panic");
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "?".into()
    }
}

#[test]
fn a_panic_in_a_scope_task_reaches_the_caller_after_every_task_finished() {
    const TASKS: usize = 8;
    for &policy in Policy::ALL {
        let pool = pool(2, policy);
        let one = common::pool(1, policy);
        let finished = AtomicUsize::new(0);
        let unwound = AtomicBool::new(false);
        let work = |i: usize| {
            if i == 0 {
                let _flag = SetOnDrop(&unwound);
                panic!("boom in task 0");
            }
            // The other tasks finish only after task 0 has panicked: the scope holds a
            // panic while they still run. Yielding runs task 0 if it is still pending.
            let waited = spin_until(|| {
                let _ = splitsteal_core::yield_now();
                unwound.load(Ordering::SeqCst)
            });
            assert_eq!(fib(16), fib_seq(16));
            if waited {
                finished.fetch_add(1, Ordering::SeqCst);
            }
        };
        type Entry<'a> = (&'a str, Box<dyn Fn() + 'a>);
        let entries: Vec<Entry<'_>> = vec![
            (
                "ThreadPool::scope_fifo",
                Box::new(|| {
                    pool.scope_fifo(|s| {
                        for i in 0..TASKS {
                            s.spawn_fifo(move |_| work(i));
                        }
                    })
                }),
            ),
            (
                "in_place_scope_fifo from a worker",
                Box::new(|| {
                    pool.install(|| {
                        splitsteal_core::in_place_scope_fifo(|s| {
                            for i in 0..TASKS {
                                s.spawn_fifo(move |_| work(i));
                            }
                        })
                    })
                }),
            ),
            (
                "ThreadPool::in_place_scope from outside",
                Box::new(|| {
                    pool.in_place_scope(|s| {
                        // Injected, first in first out: task 0 starts first.
                        for i in 0..TASKS {
                            s.spawn(move |_| work(i));
                        }
                    })
                }),
            ),
            (
                "in_place_scope from a worker",
                Box::new(|| {
                    pool.install(|| {
                        splitsteal_core::in_place_scope(|s| {
                            // LIFO locally: spawn task 0 last so that it runs first.
                            for i in (0..TASKS).rev() {
                                s.spawn(move |_| work(i));
                            }
                        })
                    })
                }),
            ),
            (
                "in_place_scope at one thread, panic recorded before the body returns",
                Box::new(|| {
                    one.in_place_scope(|s| {
                        s.spawn(move |_| work(0));
                        // Injected, one worker: the marker runs after task 0 has finished.
                        let (tx, rx) = mpsc::channel();
                        s.spawn(move |_| {
                            let _ = tx.send(());
                        });
                        recv(&rx, "marker task");
                        for i in 1..TASKS {
                            s.spawn(move |_| work(i));
                        }
                    })
                }),
            ),
        ];
        for (how, enter) in entries {
            let what = format!("{policy}: {how}");
            let r = panic::catch_unwind(AssertUnwindSafe(enter));
            assert_eq!(panic_message(r), "boom in task 0", "{what}");
            assert_eq!(finished.swap(0, Ordering::SeqCst), TASKS - 1, "{what}");
            assert!(unwound.swap(false, Ordering::SeqCst), "{what}");
            // The pool still works.
            assert_eq!(pool.install(|| fib(15)), fib_seq(15), "{what}: afterwards");
            let mut v = [0usize; 4];
            pool.scope_fifo(|s| {
                for (i, x) in v.iter_mut().enumerate() {
                    s.spawn_fifo(move |_| *x = i + 1);
                }
            });
            assert_eq!(v, [1, 2, 3, 4], "{what}: afterwards");
        }
    }
}

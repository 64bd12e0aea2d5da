//! Beyond rayon: `spawn_handle` (join and `.await`), `spawn_future`, `block_on`,
//! `ThreadPool::wait_idle` and `shutdown`, under every policy with one to three workers,
//! awaited from futures' `block_on` and from tokio's two runtimes.

// tokio and futures-executor are dev-dependencies only outside the loom and Miri builds.
#![cfg(not(any(loom, miri)))]

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Barrier, Mutex};
use std::task::{Context, Poll};

use splitsteal_core::{self as splitsteal, Abandoned, Policy, ThreadPool, ThreadPoolBuilder};

/// Every policy with one, two and three workers; the pool's panic handler counts into
/// `handled` (a handle's panic must never reach it).
fn pools(handled: &Arc<AtomicUsize>) -> impl Iterator<Item = (Policy, usize, ThreadPool)> + '_ {
    Policy::ALL.iter().flat_map(move |&policy| {
        (1..=3).map(move |n| {
            let handled = Arc::clone(handled);
            let pool = ThreadPoolBuilder::new()
                .num_threads(n)
                .policy(policy)
                .panic_handler(move |_| {
                    handled.fetch_add(1, Ordering::SeqCst);
                })
                .build()
                .unwrap();
            (policy, n, pool)
        })
    })
}

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn message(payload: Box<dyn std::any::Any + Send>) -> String {
    match payload.downcast::<&str>() {
        Ok(s) => s.to_string(),
        Err(p) => *p.downcast::<String>().expect("a string payload"),
    }
}

#[test]
fn results_and_panics_come_back_through_join() {
    let handled = Arc::new(AtomicUsize::new(0));
    for (policy, n, pool) in pools(&handled) {
        let ctx = format!("{policy} x{n}");
        // From outside the pool: the caller parks.
        let h = pool.spawn_handle(|| fib(18));
        assert_eq!(h.join().unwrap(), 2584, "{ctx}");
        let h = pool.spawn_handle(|| -> u8 { panic!("task panicked") });
        assert_eq!(message(h.join().unwrap_err()), "task panicked", "{ctx}");
        // On a worker: the free function spawns into this pool, and `join` runs work.
        let (index_ok, sum) = pool.install(|| {
            let handles: Vec<_> = (0..20u64)
                .map(|i| {
                    splitsteal::spawn_handle(move || (splitsteal::current_thread_index(), fib(i)))
                })
                .collect();
            let mut ok = true;
            let mut sum = 0;
            for h in handles {
                let (index, v) = h.join().unwrap();
                ok &= index.is_some_and(|i| i < n);
                sum += v;
            }
            (ok, sum)
        });
        assert!(index_ok, "{ctx}: ran on this pool's workers");
        assert_eq!(sum, (0..20).map(fib_serial).sum::<u64>(), "{ctx}");
        let err = pool.install(|| splitsteal::spawn_handle(|| panic!("inside")).join());
        assert_eq!(message(err.unwrap_err()), "inside", "{ctx}");
        // Scoped handles borrow, and their panics stay theirs.
        let data: Vec<u64> = (1..=100).collect();
        let (total, panicked) = pool.scope(|s| {
            let halves: Vec<_> = data
                .chunks(50)
                .map(|c| s.spawn_handle(move |_| c.iter().sum::<u64>()))
                .collect();
            let bad = s.spawn_handle(|_| -> u64 { panic!("scoped") });
            let total: u64 = halves.into_iter().map(|h| h.join().unwrap()).sum();
            (total, bad.join().is_err())
        });
        assert_eq!((total, panicked), (5050, true), "{ctx}");
    }
    assert_eq!(
        handled.load(Ordering::SeqCst),
        0,
        "a handle's panic reached the panic handler"
    );
}

fn fib_serial(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fib_serial(n - 1) + fib_serial(n - 2)
    }
}

#[test]
fn awaited_from_futures_block_on_and_from_tokio() {
    let handled = Arc::new(AtomicUsize::new(0));
    let current = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let multi = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    for (policy, n, pool) in pools(&handled) {
        let ctx = format!("{policy} x{n}");
        let h = pool.spawn_handle(|| fib(15));
        assert_eq!(futures_executor::block_on(h).unwrap(), 610, "{ctx}");
        let h = pool.spawn_handle(|| -> () { panic!("awaited") });
        assert_eq!(
            message(futures_executor::block_on(h).unwrap_err()),
            "awaited",
            "{ctx}"
        );
        for rt in [&current, &multi] {
            let handles: Vec<_> = (0..8u64)
                .map(|i| pool.spawn_handle(move || fib(i + 10)))
                .collect();
            let bad = pool.spawn_handle(|| -> u64 { panic!("on tokio") });
            let (sum, err) = rt.block_on(async {
                let mut sum = 0;
                for h in handles {
                    sum += h.await.unwrap();
                }
                // A tokio task awaiting a handle (moved into the runtime's own scheduler).
                let err = tokio::spawn(bad).await.unwrap();
                (sum, err)
            });
            assert_eq!(sum, (10..18).map(fib_serial).sum::<u64>(), "{ctx}");
            assert_eq!(message(err.unwrap_err()), "on tokio", "{ctx}");
        }
    }
    assert_eq!(handled.load(Ordering::SeqCst), 0);
}

#[test]
fn ten_thousand_handles_in_flight() {
    let handled = Arc::new(AtomicUsize::new(0));
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    for (policy, n, pool) in pools(&handled) {
        let handles: Vec<_> = (0..10_000u64)
            .map(|i| pool.spawn_handle(move || i * 3))
            .collect();
        let sum: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(sum, 3 * 9_999 * 10_000 / 2, "{policy} x{n}");
        // The same from inside the pool, and awaited from tokio.
        let sum: u64 = pool.install(|| {
            let handles: Vec<_> = (0..10_000u64)
                .map(|i| splitsteal::spawn_handle(move || i))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        assert_eq!(sum, 9_999 * 10_000 / 2, "{policy} x{n}");
        let handles: Vec<_> = (0..10_000u64)
            .map(|i| pool.spawn_handle(move || i))
            .collect();
        let sum = rt.block_on(async {
            let mut sum = 0;
            for h in handles {
                sum += h.await.unwrap();
            }
            sum
        });
        assert_eq!(sum, 9_999 * 10_000 / 2, "{policy} x{n}");
    }
}

/// Counts its drops and says whether the last one ran on a pool worker.
struct Tracked {
    drops: Arc<AtomicUsize>,
    on_worker: Arc<AtomicUsize>,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
        if splitsteal::current_thread_index().is_some() {
            self.on_worker.fetch_add(1, Ordering::SeqCst);
        }
    }
}

#[test]
fn a_handle_dropped_before_during_and_after_its_task() {
    let handled = Arc::new(AtomicUsize::new(0));
    for (policy, n, pool) in pools(&handled) {
        let ctx = format!("{policy} x{n}");
        for when in ["before", "during", "after"] {
            let drops = Arc::new(AtomicUsize::new(0));
            let on_worker = Arc::new(AtomicUsize::new(0));
            let (started_tx, started) = mpsc::channel();
            let (go, go_rx) = mpsc::channel::<()>();
            let tracked = Tracked {
                drops: Arc::clone(&drops),
                on_worker: Arc::clone(&on_worker),
            };
            let (ran_tx, ran) = mpsc::channel();
            // "before": every worker is held, so the task waits in the queue.
            let hold = Arc::new(Barrier::new(n + 1));
            if when == "before" {
                for _ in 0..n {
                    let hold = Arc::clone(&hold);
                    pool.spawn(move || {
                        hold.wait();
                    });
                }
            }
            let handle = pool.spawn_handle(move || {
                started_tx.send(()).unwrap();
                go_rx.recv().unwrap();
                ran_tx.send(()).unwrap();
                tracked
            });
            match when {
                "before" => {
                    drop(handle);
                    assert!(started.try_recv().is_err(), "{ctx}: not started yet");
                    hold.wait();
                    go.send(()).unwrap();
                }
                "during" => {
                    started.recv().unwrap();
                    drop(handle);
                    go.send(()).unwrap();
                }
                _ => {
                    go.send(()).unwrap();
                    while !handle.is_finished() {
                        std::thread::yield_now();
                    }
                    // The task has let go of the packet once the pool is idle: the handle
                    // is the last to hold the result.
                    pool.wait_idle().unwrap();
                    drop(handle);
                }
            }
            ran.recv().unwrap();
            pool.wait_idle().unwrap();
            assert_eq!(
                drops.load(Ordering::SeqCst),
                1,
                "{ctx} {when}: dropped once"
            );
            let expect_on_worker = usize::from(when != "after");
            assert_eq!(
                on_worker.load(Ordering::SeqCst),
                expect_on_worker,
                "{ctx} {when}: a detached result is dropped by its task"
            );
        }
    }
}

/// A future that returns `Pending` `left` times, waking itself each time (a yield).
struct YieldTimes {
    left: u32,
    polls_on_workers: Arc<AtomicUsize>,
}

impl Future for YieldTimes {
    type Output = u32;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        if splitsteal::current_thread_index().is_some() {
            self.polls_on_workers.fetch_add(1, Ordering::SeqCst);
        }
        if self.left == 0 {
            return Poll::Ready(7);
        }
        self.left -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[test]
fn spawned_futures_yield_and_are_woken_from_everywhere() {
    let handled = Arc::new(AtomicUsize::new(0));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    for (policy, n, pool) in pools(&handled) {
        let ctx = format!("{policy} x{n}");
        // Yields: each wake-up queues the next poll, always on the pool.
        let polls = Arc::new(AtomicUsize::new(0));
        let h = pool.spawn_future(YieldTimes {
            left: 50,
            polls_on_workers: Arc::clone(&polls),
        });
        assert_eq!(h.join().unwrap(), 7, "{ctx}");
        assert_eq!(
            polls.load(Ordering::SeqCst),
            51,
            "{ctx}: every poll on a worker"
        );

        // Woken from a plain thread; while pending it holds no worker: a one-thread pool
        // still runs other tasks.
        let (tx, rx) = tokio::sync::oneshot::channel::<u32>();
        let h = pool.spawn_future(async move { rx.await.unwrap() + 1 });
        let other = pool.spawn_handle(|| fib(12));
        assert_eq!(
            other.join().unwrap(),
            144,
            "{ctx}: a pending future holds no worker"
        );
        std::thread::spawn(move || tx.send(41).unwrap())
            .join()
            .unwrap();
        assert_eq!(h.join().unwrap(), 42, "{ctx}");

        // Woken from inside the pool: awaiting the pool's own tasks.
        let h = pool.spawn_future(async {
            let mut sum = 0;
            for i in 0..10u64 {
                sum += splitsteal::spawn_handle(move || fib(i)).await.unwrap();
            }
            sum
        });
        assert_eq!(
            h.join().unwrap(),
            (0..10).map(fib_serial).sum::<u64>(),
            "{ctx}"
        );

        // Woken from a tokio task.
        let (tx, rx) = tokio::sync::oneshot::channel::<&str>();
        let h = pool.spawn_future(async move { rx.await.unwrap() });
        rt.spawn(async move { tx.send("from tokio").unwrap() });
        assert_eq!(h.join().unwrap(), "from tokio", "{ctx}");

        // A poll's panic is the handle's `Err`; an abandoned future's too.
        let h = pool.spawn_future(async { panic!("in a poll") });
        assert_eq!(message(h.join().unwrap_err()), "in a poll", "{ctx}");
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let h = pool.spawn_future(rx);
        drop(tx); // wakes the receiver, with an error
        assert!(
            h.join().unwrap().is_err(),
            "{ctx}: the sender's drop wakes the future"
        );
        let h = pool.spawn_future(Forgets);
        let payload = h.join().unwrap_err();
        assert!(
            payload.downcast_ref::<Abandoned>().is_some(),
            "{ctx}: abandoned"
        );
    }
    assert_eq!(handled.load(Ordering::SeqCst), 0);
}

/// Returns `Pending` without keeping its waker: nothing can wake it.
struct Forgets;

impl Future for Forgets {
    type Output = ();
    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        Poll::Pending
    }
}

#[test]
fn block_on_inside_join_runs_pool_work() {
    let handled = Arc::new(AtomicUsize::new(0));
    for (policy, n, pool) in pools(&handled) {
        // Both sides of a join block on futures that wait for pool tasks: with one worker
        // only `block_on`'s running of other work lets them finish.
        let (a, b) = pool.install(|| {
            splitsteal::join(
                || {
                    splitsteal::block_on(async {
                        splitsteal::spawn_handle(|| fib(14)).await.unwrap()
                    })
                },
                || {
                    let inner = splitsteal::spawn_future(async {
                        splitsteal::spawn_handle(|| 5).await.unwrap()
                    });
                    splitsteal::block_on(inner).unwrap()
                },
            )
        });
        assert_eq!((a, b), (377, 5), "{policy} x{n}");
        // Outside any pool, `block_on` parks.
        assert_eq!(splitsteal::block_on(pool.spawn_handle(|| 9)).unwrap(), 9);
    }
}

#[test]
fn wait_idle_waits_for_spawns_that_spawn() {
    let handled = Arc::new(AtomicUsize::new(0));
    for (policy, n, pool) in pools(&handled) {
        let done = Arc::new(AtomicUsize::new(0));
        fn tree(depth: u32, done: Arc<AtomicUsize>) {
            if depth > 0 {
                for _ in 0..2 {
                    let d = Arc::clone(&done);
                    splitsteal::spawn(move || tree(depth - 1, d));
                }
            }
            done.fetch_add(1, Ordering::SeqCst);
        }
        let d = Arc::clone(&done);
        pool.spawn(move || tree(8, d));
        // A future that is pending for a while counts too.
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let d = Arc::clone(&done);
        let _detached = pool.spawn_future(async move {
            rx.await.unwrap();
            d.fetch_add(1, Ordering::SeqCst);
        });
        let sender = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(5));
            tx.send(()).unwrap();
        });
        pool.wait_idle().unwrap();
        assert_eq!(
            done.load(Ordering::SeqCst),
            (1 << 9) - 1 + 1,
            "{policy} x{n}"
        );
        sender.join().unwrap();
        let inside = pool.install(|| pool.wait_idle());
        assert_eq!(inside, Err(splitsteal::WaitError::OnOwnWorker));
        assert!(!inside.unwrap_err().to_string().is_empty());
    }
}

/// Threads of this process (Linux); `None` elsewhere.
fn thread_count() -> Option<usize> {
    std::fs::read_dir("/proc/self/task").ok().map(|d| d.count())
}

/// The thread count once it is `want`, or what it still is after 10 s. A joined thread
/// has ended (its `pthread_join` returned), but the kernel may list it in
/// `/proc/self/task` a little longer, until its exit is complete.
fn thread_count_settled(want: Option<usize>) -> Option<usize> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let now = thread_count();
        if now == want || std::time::Instant::now() > deadline {
            return now;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

thread_local! {
    static TLS: Tracker = const { Tracker };
}

static TLS_DROPS: AtomicUsize = AtomicUsize::new(0);

struct Tracker;

impl Drop for Tracker {
    fn drop(&mut self) {
        TLS_DROPS.fetch_add(1, Ordering::SeqCst);
    }
}

/// Counts threads, so it runs in a process of its own (`shutdown_returns_every_thread`
/// starts it): other tests' threads would come and go meanwhile.
#[test]
#[ignore = "run by shutdown_returns_every_thread, in a process of its own"]
fn shutdown_in_a_process_of_its_own() {
    for &policy in Policy::ALL {
        for n in 1..=3 {
            let ctx = format!("{policy} x{n}");
            let before = thread_count();
            TLS_DROPS.store(0, Ordering::SeqCst);
            let exits = Arc::new(AtomicUsize::new(0));
            let e = Arc::clone(&exits);
            let pool = ThreadPoolBuilder::new()
                .num_threads(n)
                .policy(policy)
                .start_handler(|_| TLS.with(|_| ()))
                .exit_handler(move |_| {
                    e.fetch_add(1, Ordering::SeqCst);
                })
                .build()
                .unwrap();
            // Queued work: the first tasks hold every worker until released, the rest
            // wait in the queues (some spawning more).
            let gate = Arc::new(Barrier::new(n + 1));
            let ran = Arc::new(AtomicUsize::new(0));
            for _ in 0..n {
                let gate = Arc::clone(&gate);
                pool.spawn(move || {
                    gate.wait();
                });
            }
            let handles: Vec<_> = (0..100)
                .map(|i| {
                    let ran = Arc::clone(&ran);
                    pool.spawn_handle(move || {
                        let r = Arc::clone(&ran);
                        splitsteal::spawn(move || {
                            r.fetch_add(1, Ordering::SeqCst);
                        });
                        ran.fetch_add(1, Ordering::SeqCst);
                        i
                    })
                })
                .collect();
            gate.wait();
            pool.shutdown().unwrap();
            assert_eq!(ran.load(Ordering::SeqCst), 200, "{ctx}: queued work ran");
            assert!(handles.iter().all(|h| h.is_finished()));
            assert_eq!(exits.load(Ordering::SeqCst), n, "{ctx}: exit handlers ran");
            assert_eq!(
                TLS_DROPS.load(Ordering::SeqCst),
                n,
                "{ctx}: thread-locals dropped"
            );
            assert_eq!(
                thread_count_settled(before),
                before,
                "{ctx}: every worker thread exited"
            );
        }
    }
}

#[test]
fn shutdown_returns_every_thread() {
    if thread_count().is_none() {
        return; // no /proc/self/task: nothing to count
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "shutdown_in_a_process_of_its_own",
            "--ignored",
            "--test-threads=1",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains("1 passed"),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn shutdown_on_its_own_worker_is_an_error() {
    // `shutdown` consumes the pool, so the worker needs a pool it owns: one moved into a
    // task of its own (`spawn` keeps the pool alive until the task has run).
    let (tx, rx) = mpsc::channel();
    let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let slot = Arc::new(Mutex::new(None::<ThreadPool>));
    let s = Arc::clone(&slot);
    let (ready_tx, ready) = mpsc::channel::<()>();
    pool.spawn(move || {
        ready.recv().unwrap();
        let pool = s.lock().unwrap().take().unwrap();
        tx.send(pool.shutdown()).unwrap();
    });
    *slot.lock().unwrap() = Some(pool);
    ready_tx.send(()).unwrap();
    assert_eq!(rx.recv().unwrap(), Err(splitsteal::WaitError::OnOwnWorker));
    // Handles keep distinct results apart (a sanity check on many small pools).
    let seen: HashSet<u64> = (0..50u64)
        .map(|i| splitsteal::spawn_handle(move || i).join().unwrap())
        .collect();
    assert_eq!(seen.len(), 50);
}

#[test]
fn handles_add_nothing_to_a_join_that_does_not_use_one() {
    let lcws = [
        Policy::LcwsSignal,
        Policy::LcwsPoll,
        Policy::LcwsCons,
        Policy::LcwsHalf,
    ];
    for policy in lcws {
        let pool = ThreadPoolBuilder::new()
            .num_threads(1)
            .policy(policy)
            .build()
            .unwrap();
        // Handles in use on the pool, before and around the joins.
        let before = pool.install(|| splitsteal::spawn_handle(|| fib(10)).join().unwrap());
        let pending = pool.spawn_handle(|| 1);
        pool.wait_idle().unwrap();
        pool.reset_stats();
        assert_eq!(pool.install(|| fib(20)), 6765);
        let stats = pool.stats();
        // One worker, split deque: every join stays private, as without handles.
        assert_eq!((stats.cas, stats.fences), (0, 0), "{policy}");
        assert_eq!((before, pending.join().unwrap()), (55, 1));
    }
}

//! The adversarial shapes of issue 33 together, under every policy, each with
//! exactly-once checking and a watchdog (a hang fails the test instead of hanging CI):
//! a scope body that spawns far more tasks than a deque holds while a thief takes them,
//! join chains longer than the deque's capacity, a pool used from inside another pool's
//! tasks, and a pool built on a thread that blocks every signal (the block-then-`sigwait`
//! pattern). Bounded: a few seconds in all on two cores.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use splitsteal_core::{Policy, ThreadPool, ThreadPoolBuilder};

/// Runs `body` on its own thread and fails if it does not finish within `secs`.
fn within(secs: u64, what: &str, body: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        body();
        let _ = tx.send(());
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(()) => {}
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: did not finish in {secs} s"),
        // The body panicked: its own message is already printed.
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: failed"),
    }
}

/// One slot per task; each must be run exactly once.
struct Slots(Vec<AtomicU8>);

impl Slots {
    fn new(n: usize) -> Slots {
        Slots((0..n).map(|_| AtomicU8::new(0)).collect())
    }

    fn run(&self, i: usize) {
        // Relaxed: the counts are read after the pool's operation returned, which orders them.
        self.0[i].fetch_add(1, Ordering::Relaxed);
    }

    fn assert_each_once(&self, what: &str) {
        for (i, s) in self.0.iter().enumerate() {
            let n = s.load(Ordering::Relaxed);
            assert_eq!(n, 1, "{what}: task {i} ran {n} times");
        }
    }
}

fn pool(threads: usize, policy: Policy, capacity: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .policy(policy)
        .deque_capacity(capacity)
        .build()
        .unwrap_or_else(|e| panic!("{policy} x{threads}: {e}"))
}

/// A chain of `depth` nested joins whose `b`s each run one slot: deeper than the deque.
fn chain(slots: &Slots, depth: usize) {
    if depth == 0 {
        return;
    }
    splitsteal_core::join(|| chain(slots, depth - 1), || slots.run(depth - 1));
}

fn shapes(policy: Policy, threads: usize) {
    const SPAWNS: usize = 12_000;
    const CAPACITY: usize = 256;
    let p = pool(threads, policy, CAPACITY);
    let what = format!("{policy} x{threads}");

    // A producer that spawns far more tasks than the deque holds.
    let spawned = Slots::new(SPAWNS);
    p.scope(|s| {
        for i in 0..SPAWNS {
            let spawned = &spawned;
            s.spawn(move |_| spawned.run(i));
        }
    });
    spawned.assert_each_once(&format!("{what}: spawning producer"));

    // The producer holds a lock its tasks take: a spawn that ran its task inside the call
    // would deadlock here.
    let locked = std::sync::Mutex::new(Slots::new(SPAWNS));
    p.scope(|s| {
        let guard = locked.lock().unwrap();
        for i in 0..SPAWNS {
            let locked = &locked;
            s.spawn(move |_| locked.lock().unwrap().run(i));
        }
        drop(guard);
    });
    locked
        .into_inner()
        .unwrap()
        .assert_each_once(&format!("{what}: spawning under a lock"));

    // Join chains four times longer than the deque, several in parallel.
    let chains: Vec<Slots> = (0..4).map(|_| Slots::new(4 * CAPACITY)).collect();
    p.install(|| {
        splitsteal_core::join(
            || {
                splitsteal_core::join(
                    || chain(&chains[0], 4 * CAPACITY),
                    || chain(&chains[1], 4 * CAPACITY),
                )
            },
            || {
                splitsteal_core::join(
                    || chain(&chains[2], 4 * CAPACITY),
                    || chain(&chains[3], 4 * CAPACITY),
                )
            },
        )
    });
    for c in &chains {
        c.assert_each_once(&format!("{what}: join chain"));
    }

    // Another pool used from inside this one's tasks (and this one from inside those).
    let inner = pool(threads, policy, CAPACITY);
    let nested = Slots::new(64);
    p.scope(|s| {
        for k in 0..8 {
            let (inner, nested, outer) = (&inner, &nested, &p);
            s.spawn(move |_| {
                inner.scope(|t| {
                    for j in 0..8 {
                        t.spawn(move |_| {
                            outer.install(|| nested.run(k * 8 + j));
                        });
                    }
                });
            });
        }
    });
    nested.assert_each_once(&format!("{what}: nested pools"));
}

#[test]
fn adversarial_shapes_run_each_task_exactly_once_under_every_policy() {
    for &policy in Policy::ALL {
        for threads in [1, 2, 3] {
            within(60, &format!("{policy} x{threads}"), move || {
                shapes(policy, threads)
            });
        }
    }
}

#[test]
fn a_pool_built_with_every_signal_blocked_runs_each_task_exactly_once() {
    for &policy in Policy::ALL {
        within(60, &format!("{policy}, signals blocked"), move || {
            // SAFETY: plain mask manipulation of this (fresh) thread; the pool's workers
            // inherit the mask, as they do in a program that blocks signals in `main`.
            unsafe {
                let mut all: libc::sigset_t = std::mem::zeroed();
                libc::sigfillset(&mut all);
                assert_eq!(
                    libc::pthread_sigmask(libc::SIG_BLOCK, &all, std::ptr::null_mut()),
                    0
                );
            }
            shapes(policy, 2);
            // A fork tree with a little work per leaf, which the thief spreads.
            let p = pool(2, policy, 1024);
            let leaves = Slots::new(1 << 12);
            fn tree(lo: usize, hi: usize, leaves: &Slots) {
                if hi - lo == 1 {
                    leaves.run(lo);
                    std::hint::black_box((0..200u64).sum::<u64>());
                    return;
                }
                let mid = (lo + hi) / 2;
                splitsteal_core::join(|| tree(lo, mid, leaves), || tree(mid, hi, leaves));
            }
            p.install(|| tree(0, 1 << 12, &leaves));
            leaves.assert_each_once(&format!("{policy}, signals blocked: tree"));
        });
    }
}

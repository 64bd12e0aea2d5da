//! Every join stays stealable: from the moment a join starts `a` until `b` comes back, a
//! thief can get `b` (in the deque, or exposed on request). The LCWS paper's time bound
//! assumes it, and users' code relies on it for parallelism.
//!
//! Each shape below ends in a *rendezvous*: `a` waits until `b` has started on another
//! worker. If `b` was committed to run after `a` on the same worker (a serializing
//! shortcut), `a` gives up after a deadline and the test fails instead of hanging. While
//! it waits, `a` yields (so a thief sharing its CPU can run) and, under `lcws-poll` only,
//! makes trivial joins: that policy answers requests at joins and pops, so a task that
//! never joins cannot be asked for work (its documented limit). Under the other policies
//! `a` makes no join, so `b` stays the only private task (which `lcws-cons` must still give
//! up when asked twice).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use splitsteal::{Policy, ThreadPool, ThreadPoolBuilder};

// The runtime's test helpers, shared rather than copied.
#[path = "../../splitsteal-core/tests/common/mod.rs"]
mod common;
use common::fib;

const DEADLINE: Duration = Duration::from_secs(20);

/// One step of a waiting loop: yield, and under `lcws-poll` make a trivial join.
fn wait_step(joins: bool) {
    if joins {
        splitsteal::join(|| (), || ());
    }
    std::thread::yield_now();
}

/// `join(a, b)` where `a` waits for `b` to start elsewhere; whether it did.
fn rendezvous(joins: bool) -> bool {
    let started = AtomicBool::new(false);
    let here = splitsteal::current_thread_index();
    let (waited, b_thread) = splitsteal::join(
        || {
            let t0 = Instant::now();
            // Acquire/Release: a plain handshake between the two closures.
            while !started.load(Ordering::Acquire) {
                if t0.elapsed() > DEADLINE {
                    return false;
                }
                wait_step(joins);
            }
            true
        },
        || {
            started.store(true, Ordering::Release);
            splitsteal::current_thread_index()
        },
    );
    waited && b_thread != here
}

/// The rendezvous entered while `k` trivial joins are pending above it (their `b`s are
/// older private tasks than the rendezvous's `b`).
fn behind_pending_joins(k: usize, joins: bool) -> bool {
    if k == 0 {
        return rendezvous(joins);
    }
    splitsteal::join(
        || behind_pending_joins(k - 1, joins),
        || std::hint::black_box(k),
    )
    .0
}

/// A linked list walked with `join(|| walk(next), || process(node))`: the last node's
/// walk waits until the first node's processing has started on another worker.
fn list_walk(nodes: usize, joins: bool) -> bool {
    let head_started = AtomicBool::new(false);
    let here = splitsteal::current_thread_index();
    let head_thread = AtomicUsize::new(usize::MAX);
    fn walk(
        node: usize,
        nodes: usize,
        joins: bool,
        head_started: &AtomicBool,
        head_thread: &AtomicUsize,
    ) -> bool {
        if node == nodes {
            let t0 = Instant::now();
            while !head_started.load(Ordering::Acquire) {
                if t0.elapsed() > DEADLINE {
                    return false;
                }
                wait_step(joins);
            }
            return true;
        }
        splitsteal::join(
            || walk(node + 1, nodes, joins, head_started, head_thread),
            || {
                if node == 0 {
                    let me = splitsteal::current_thread_index().unwrap_or(usize::MAX);
                    head_thread.store(me, Ordering::Relaxed);
                    head_started.store(true, Ordering::Release);
                }
            },
        )
        .0
    }
    let waited = walk(0, nodes, joins, &head_started, &head_thread);
    waited && Some(head_thread.load(Ordering::Relaxed)) != here
}

/// A scope that spawns a few small tasks, then runs the rendezvous in its body.
fn spawns_then_join(joins: bool) -> bool {
    splitsteal::scope(|s| {
        for _ in 0..4 {
            s.spawn(|_| {
                std::hint::black_box(fib(5));
            });
        }
        rendezvous(joins)
    })
}

/// A scope that spawns a few small tasks, then a `par_for` whose first item waits until
/// some other item has run on another worker.
fn spawns_then_par_for(joins: bool) -> bool {
    const NONE: usize = usize::MAX;
    let elsewhere = AtomicBool::new(false);
    let first = AtomicUsize::new(NONE);
    let gave_up = AtomicBool::new(false);
    splitsteal::scope(|s| {
        for _ in 0..4 {
            s.spawn(|_| {
                std::hint::black_box(fib(5));
            });
        }
        splitsteal::par_for_grain(0..1024, 1, |i| {
            let me = splitsteal::current_thread_index().unwrap_or(NONE);
            if i != 0 {
                let f = first.load(Ordering::Acquire);
                if f != NONE && f != me {
                    elsewhere.store(true, Ordering::Release);
                }
                return;
            }
            first.store(me, Ordering::Release);
            let t0 = Instant::now();
            while !elsewhere.load(Ordering::Acquire) {
                if t0.elapsed() > DEADLINE {
                    gave_up.store(true, Ordering::Relaxed);
                    return;
                }
                wait_step(joins);
            }
        });
    });
    !gave_up.load(Ordering::Relaxed)
}

/// An unbalanced nested iterator: an outer `par_iter` of two items, the first a big inner
/// `par_iter`, the second trivial. The inner iterator starts nested (with one split of
/// budget, not the pool's size) and must still hand half of its elements to the other
/// worker: its first element waits until some other element has run there. A nested
/// budget of zero would run the whole inner iterator on this worker.
fn unbalanced_nested_iter(joins: bool) -> bool {
    use splitsteal::prelude::*;
    // Bit `t` set: an inner element ran on worker `t`.
    let ran_on = AtomicUsize::new(0);
    let gave_up = AtomicBool::new(false);
    (0..2).into_par_iter().for_each(|outer| {
        if outer == 1 {
            return;
        }
        (0..1024).into_par_iter().for_each(|i| {
            let me = 1 << splitsteal::current_thread_index().unwrap();
            // AcqRel/Acquire: a plain handshake between the elements.
            ran_on.fetch_or(me, Ordering::AcqRel);
            if i != 0 {
                return;
            }
            let t0 = Instant::now();
            while ran_on.load(Ordering::Acquire) & !me == 0 {
                if t0.elapsed() > DEADLINE {
                    gave_up.store(true, Ordering::Relaxed);
                    return;
                }
                wait_step(joins);
            }
        });
    });
    !gave_up.load(Ordering::Relaxed) && ran_on.load(Ordering::Relaxed) == 0b11
}

type Shape = (&'static str, fn(bool) -> bool);

const SHAPES: &[Shape] = &[
    ("flat join", rendezvous),
    ("coarse join behind 4 pending joins", |j| {
        behind_pending_joins(4, j)
    }),
    ("coarse join behind 40 pending joins", |j| {
        behind_pending_joins(40, j)
    }),
    ("list walk of 16 nodes", |j| list_walk(16, j)),
    ("spawns then a coarse join", spawns_then_join),
    ("spawns then a par_for", spawns_then_par_for),
    ("an unbalanced nested par_iter", unbalanced_nested_iter),
];

fn check_shapes(pool: &ThreadPool, policy: Policy, what: &str) {
    let joins = policy == Policy::LcwsPoll;
    for (name, shape) in SHAPES {
        assert!(
            pool.install(|| shape(joins)),
            "{what}: `{name}`: the second closure never reached another worker"
        );
    }
    assert_eq!(pool.install(|| fib(20)), 6765, "{what}");
}

#[test]
fn every_shape_reaches_the_other_worker_under_every_policy() {
    for &policy in Policy::ALL {
        let pool = common::pool(2, policy);
        check_shapes(&pool, policy, policy.name());
    }
}

/// Restricts the calling thread to the first CPU it may run on; threads it spawns
/// (the pools' workers) inherit the restriction.
fn restrict_to_one_cpu() {
    // SAFETY: `cpu_set_t` is plain data; the calls only read and write the sets we pass.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        assert_eq!(libc::sched_getaffinity(0, size, &mut set), 0);
        let first = (0..libc::CPU_SETSIZE as usize)
            .find(|&c| libc::CPU_ISSET(c, &set))
            .unwrap();
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(first, &mut one);
        assert_eq!(libc::sched_setaffinity(0, size, &one), 0);
    }
}

/// Two workers sharing one CPU: a thief that asked cannot be answered until the victim
/// runs, so it must yield or nap rather than spin (the handshake must still complete).
#[test]
fn two_workers_on_one_cpu_still_share_every_shape() {
    std::thread::spawn(|| {
        restrict_to_one_cpu();
        for &policy in Policy::ALL {
            let pool = common::pool(2, policy);
            check_shapes(&pool, policy, &format!("{policy} on one CPU"));
        }
    })
    .join()
    .unwrap();
}

/// The allowed CPUs of the calling thread.
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: as in `restrict_to_one_cpu`.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        assert_eq!(libc::sched_getaffinity(0, size, &mut set), 0);
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

#[test]
fn workers_are_not_pinned_by_default_and_pinned_pools_spread() {
    let process = allowed_cpus();
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let seen = pool.broadcast_like(allowed_cpus);
    for cpus in &seen {
        assert_eq!(cpus, &process, "a default worker was restricted");
    }
    if process.len() < 2 {
        return;
    }
    // Two pinned one-thread pools get different CPUs (they used to both take the first).
    let a = ThreadPoolBuilder::new()
        .num_threads(1)
        .pin_threads(true)
        .build()
        .unwrap();
    let b = ThreadPoolBuilder::new()
        .num_threads(1)
        .pin_threads(true)
        .build()
        .unwrap();
    let (ca, cb) = (a.install(allowed_cpus), b.install(allowed_cpus));
    assert_eq!((ca.len(), cb.len()), (1, 1), "{ca:?} {cb:?}");
    assert_ne!(ca, cb, "two pinned pools share a CPU");
}

/// Runs `f` on each worker of a 2-thread pool (by making each worker run one side of a
/// rendezvous-free pair of long-enough tasks); a stand-in until `broadcast` exists.
trait BroadcastLike {
    fn broadcast_like<R: Send>(&self, f: fn() -> R) -> Vec<R>;
}

impl BroadcastLike for ThreadPool {
    fn broadcast_like<R: Send>(&self, f: fn() -> R) -> Vec<R> {
        self.install(|| {
            let started = AtomicBool::new(false);
            let (a, b) = splitsteal::join(
                || {
                    let r = f();
                    let t0 = Instant::now();
                    while !started.load(Ordering::Acquire) && t0.elapsed() < DEADLINE {
                        splitsteal::join(|| (), || ());
                        std::thread::yield_now();
                    }
                    r
                },
                || {
                    started.store(true, Ordering::Release);
                    f()
                },
            );
            vec![a, b]
        })
    }
}

//! The fork-join runtime under every policy: exactly-once execution, results, nesting.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use splitsteal_core::{Policy, ThreadPool, ThreadPoolBuilder};

mod common;
use common::{fib, fib_counted, fib_seq};

fn pool(threads: usize, policy: Policy) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .policy(policy)
        .build()
        .unwrap_or_else(|e| panic!("building {policy} x{threads}: {e}"))
}

#[test]
fn fib_is_right_and_every_call_runs_once_under_every_policy() {
    for &policy in Policy::ALL {
        for threads in [1, 2, 3] {
            let pool = pool(threads, policy);
            let calls = AtomicU64::new(0);
            let n = 21;
            let got = pool.install(|| fib_counted(n, &calls));
            assert_eq!(got, fib_seq(n), "{policy} x{threads}");
            assert_eq!(
                calls.load(Ordering::Relaxed),
                2 * fib_seq(n + 1) - 1,
                "{policy} x{threads}: calls"
            );
        }
    }
}

/// A random fork tree: each node forks with a probability that shrinks with depth; every
/// node has a distinct id, and each must be visited exactly once.
fn tree(id: u64, depth: u32, seed: u64, seen: &[AtomicUsize]) {
    let slot = &seen[(id as usize) % seen.len()];
    slot.fetch_add(1, Ordering::Relaxed);
    let h = (id ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33;
    if depth < 16 && (h % 100) < (90 - depth as u64 * 4) {
        splitsteal_core::join(
            || tree(2 * id, depth + 1, seed, seen),
            || tree(2 * id + 1, depth + 1, seed, seen),
        );
    }
}

fn tree_seq(id: u64, depth: u32, seed: u64, ids: &mut Vec<u64>) {
    ids.push(id);
    let h = (id ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33;
    if depth < 16 && (h % 100) < (90 - depth as u64 * 4) {
        tree_seq(2 * id, depth + 1, seed, ids);
        tree_seq(2 * id + 1, depth + 1, seed, ids);
    }
}

#[test]
fn random_fork_trees_visit_every_node_exactly_once() {
    for &policy in Policy::ALL {
        let pool = pool(2, policy);
        for seed in [1u64, 7, 42] {
            let mut ids = Vec::new();
            tree_seq(1, 0, seed, &mut ids);
            let max = *ids.iter().max().unwrap() as usize + 1;
            let seen: Vec<AtomicUsize> = (0..max).map(|_| AtomicUsize::new(0)).collect();
            pool.install(|| tree(1, 0, seed, &seen));
            let mut want = vec![0usize; max];
            for id in ids {
                want[id as usize] += 1;
            }
            let got: Vec<usize> = seen.iter().map(|a| a.load(Ordering::Relaxed)).collect();
            assert_eq!(got, want, "{policy} seed {seed}");
        }
    }
}

#[test]
fn scope_spawns_run_exactly_once_and_may_borrow() {
    for &policy in Policy::ALL {
        let pool = pool(2, policy);
        let counter = AtomicUsize::new(0);
        let mut out = vec![0u64; 1000];
        pool.scope(|s| {
            for (i, chunk) in out.chunks_mut(10).enumerate() {
                let counter = &counter;
                s.spawn(move |s| {
                    counter.fetch_add(1, Ordering::Relaxed);
                    for (j, x) in chunk.iter_mut().enumerate() {
                        *x = (i * 10 + j) as u64;
                    }
                    // Nested spawns from inside a spawned task.
                    s.spawn(move |_| {
                        counter.fetch_add(1, Ordering::Relaxed);
                    });
                });
            }
        });
        assert_eq!(counter.load(Ordering::Relaxed), 200, "{policy}");
        assert!(
            out.iter().enumerate().all(|(i, &x)| x == i as u64),
            "{policy}"
        );
    }
}

#[test]
fn a_full_deque_runs_joins_inline_and_loses_nothing() {
    for &policy in Policy::ALL {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(policy)
            .deque_capacity(2)
            .build()
            .unwrap();
        let calls = AtomicU64::new(0);
        assert_eq!(
            pool.install(|| fib_counted(18, &calls)),
            fib_seq(18),
            "{policy}"
        );
        assert_eq!(
            calls.load(Ordering::Relaxed),
            2 * fib_seq(19) - 1,
            "{policy}"
        );
        // Spawns beyond the capacity run inline, too.
        let n = AtomicUsize::new(0);
        pool.scope(|s| {
            for _ in 0..100 {
                s.spawn(|_| {
                    n.fetch_add(1, Ordering::Relaxed);
                });
            }
        });
        assert_eq!(n.load(Ordering::Relaxed), 100, "{policy}");
    }
}

#[test]
fn nested_pools_and_install_from_inside_another_pool() {
    for &outer_policy in Policy::ALL {
        let outer = pool(2, outer_policy);
        let inner = pool(
            2,
            Policy::ALL[(outer_policy as usize + 3) % Policy::ALL.len()],
        );
        let total = outer.install(|| {
            let (a, b) = splitsteal_core::join(
                || inner.install(|| fib(16)),
                || {
                    // A pool built and dropped inside a task of another pool.
                    let nested = pool(2, outer_policy);
                    nested.install(|| fib(15))
                },
            );
            assert_eq!(splitsteal_core::current_num_threads(), 2);
            a + b
        });
        assert_eq!(total, fib_seq(16) + fib_seq(15), "{outer_policy}");
    }
}

#[test]
fn free_functions_outside_any_pool_use_the_global_pool() {
    assert_eq!(fib(15), fib_seq(15));
    assert!(splitsteal_core::current_num_threads() >= 1);
    let mut v = [0u8; 2];
    let (l, r) = v.split_at_mut(1);
    splitsteal_core::scope(|s| {
        s.spawn(|_| l[0] = 1);
        s.spawn(|_| r[0] = 2);
    });
    assert_eq!(v, [1, 2]);
    assert_eq!(splitsteal_core::current_thread_index(), None);
}

#[test]
fn one_lcws_worker_executes_no_cas_and_no_fence() {
    for &policy in Policy::ALL.iter().filter(|p| p.is_lcws()) {
        let pool = common::pool(1, policy);
        pool.install(|| fib(10));
        pool.reset_stats();
        pool.install(|| fib(22));
        let stats = pool.stats();
        assert_eq!((stats.cas, stats.fences), (0, 0), "{policy}: {stats:?}");
        assert_eq!(stats.steal_attempts, 0, "{policy}");
        // Every join pushed its second closure as a job (none ran unrecorded), plus the
        // injected job.
        let joins = fib_seq(23) - 1;
        assert_eq!(stats.tasks, joins + 1, "{policy}: {stats:?}");
    }
}

#[test]
fn classical_deques_fence_at_every_pop() {
    for policy in [Policy::Abp, Policy::ChaseLev] {
        let pool = pool(1, policy);
        pool.install(|| fib(10));
        pool.reset_stats();
        pool.install(|| fib(20));
        let joins = fib_seq(21) - 1;
        let stats = pool.stats();
        assert!(stats.fences >= joins, "{policy}: {stats:?}");
    }
}

#[test]
fn stats_reset_to_zero() {
    let pool = pool(2, Policy::Abp);
    pool.install(|| fib(15));
    assert!(pool.stats().tasks > 0);
    pool.reset_stats();
    assert_eq!(pool.stats().tasks, 0);
}

#[test]
fn builder_rejects_bad_settings_with_clear_errors() {
    let e = ThreadPoolBuilder::new()
        .num_threads(100_000)
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("at most"), "{e}");
    let e = ThreadPoolBuilder::new()
        .deque_capacity(0)
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("deque_capacity"), "{e}");
    let e = ThreadPoolBuilder::new()
        .morsel_bytes(100)
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("power of two"), "{e}");
    let e = ThreadPoolBuilder::new()
        .policy(Policy::LcwsSignal)
        .signal(libc::SIGINT)
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("real-time"), "{e}");
}

#[test]
fn policy_names_round_trip() {
    for &p in Policy::ALL {
        assert_eq!(p.to_string().parse::<Policy>(), Ok(p));
    }
    let e = "fifo".parse::<Policy>().unwrap_err().to_string();
    for &p in Policy::ALL {
        assert!(e.contains(p.name()), "{e}");
    }
}

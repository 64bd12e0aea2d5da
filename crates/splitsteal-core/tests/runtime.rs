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
        // Spawns beyond the capacity go to the injector and run later.
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
fn one_lcws_or_asym_worker_executes_no_cas_and_no_fence() {
    let policies = Policy::ALL
        .iter()
        .filter(|p| p.is_lcws() || **p == Policy::Asym);
    for &policy in policies {
        // A lone `asym` worker runs its joins in line, deque untouched, unless the pool
        // records task starts: recording keeps every join in the deque, whose private
        // operations are what this checks.
        let pool = common::one_worker_keeping_joins_in_its_deque(policy);
        pool.install(|| fib(10));
        // What an `install` itself costs (its injection and latch), whatever it runs.
        pool.reset_stats();
        pool.install(|| ());
        let install = pool.stats();
        pool.reset_stats();
        pool.install(|| fib(22));
        let stats = pool.stats();
        let sync = (stats.cas, stats.rmw, stats.fences, stats.heavy_fences);
        let base = (
            install.cas,
            install.rmw,
            install.fences,
            install.heavy_fences,
        );
        assert_eq!(
            sync, base,
            "{policy}: {stats:?}, an install alone {install:?}"
        );
        assert_eq!(stats.steal_attempts, 0, "{policy}");
        // Every join pushed its second closure as a job (none ran unrecorded), plus the
        // injected job.
        let joins = fib_seq(23) - 1;
        assert_eq!(stats.tasks, joins + 1, "{policy}: {stats:?}");
    }
}

#[test]
fn a_lone_asym_worker_runs_both_sides_of_its_joins_in_line() {
    let pool = common::pool(1, Policy::Asym);
    // Nothing but this thread could run `b`, so it is not queued while `a` runs.
    let (pending_in_a, b) = pool
        .install(|| splitsteal_core::join(splitsteal_core::current_thread_has_pending_tasks, || 7));
    assert_eq!((pending_in_a, b), (Some(false), 7));
    let (pending_in_a, ()) = pool.install(|| {
        splitsteal_core::join_context(
            |_| splitsteal_core::current_thread_has_pending_tasks(),
            |_| (),
        )
    });
    assert_eq!(pending_in_a, Some(false));
    let (a_migrated, b_migrated) =
        pool.install(|| splitsteal_core::join_context(|a| a.migrated(), |b| b.migrated()));
    assert!(!a_migrated && !b_migrated);
    // Each join is still counted as a task; the install is one more.
    pool.reset_stats();
    assert_eq!(pool.install(|| fib(15)), fib_seq(15));
    assert_eq!(pool.stats().tasks, fib_seq(16));
    // `b` runs even when `a` panics, and the panic comes out after it.
    let b_ran = AtomicUsize::new(0);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pool.install(|| {
            splitsteal_core::join(
                || panic!("a panics"),
                || b_ran.fetch_add(1, Ordering::Relaxed),
            )
        })
    }));
    assert!(caught.is_err());
    assert_eq!(b_ran.load(Ordering::Relaxed), 1);
    // The papers' policies keep `b` in the deque at one worker, where the papers measure
    // their deques; so does an `asym` pool that records task starts.
    let recording = common::one_worker_keeping_joins_in_its_deque(Policy::Asym);
    let others = Policy::ALL.iter().filter(|&&p| p != Policy::Asym);
    for pool in others.map(|&p| common::pool(1, p)).chain([recording]) {
        let pending_in_a = pool.install(|| {
            splitsteal_core::join(splitsteal_core::current_thread_has_pending_tasks, || ()).0
        });
        assert_eq!(pending_in_a, Some(true), "{:?}", pool.policy());
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

/// One join on `pool` whose `a` runs `step` again and again until `b` has started on
/// another worker (at most 20 s): a steal however loaded the machine is. Returns whether
/// `b` was stolen.
fn steal_b_while_a_runs(pool: &ThreadPool, step: impl Fn() + Sync) -> bool {
    pool.install(|| {
        let here = splitsteal_core::current_thread_index();
        let started = std::sync::atomic::AtomicBool::new(false);
        let t0 = std::time::Instant::now();
        let (_, b_thread) = splitsteal_core::join(
            || {
                while !started.load(Ordering::Acquire) && t0.elapsed().as_secs() < 20 {
                    step();
                }
            },
            || {
                started.store(true, Ordering::Release);
                splitsteal_core::current_thread_index()
            },
        );
        b_thread != here
    })
}

/// [`steal_b_while_a_runs`] with an `a` that keeps forking (pushes and pops, where an
/// owner answers a claim): a steal from an owner that would answer.
fn steal_from_a_forking_owner(pool: &ThreadPool) -> bool {
    steal_b_while_a_runs(pool, || assert_eq!(fib(8), fib_seq(8)))
}

/// Under `asym` a thief pays for each steal with one heavy fence, or with its owner's
/// answer (and two CAS), and the owners with no fence and no fallback. `a` waits until `b`
/// starts on the other worker, so at least one steal happens however loaded the machine
/// is.
#[test]
fn asym_thieves_pay_a_heavy_fence_per_steal() {
    let pool = pool(2, Policy::Asym);
    pool.install(|| fib(10));
    pool.reset_stats();
    let stolen = steal_b_while_a_runs(&pool, std::thread::yield_now);
    assert!(stolen, "the second closure never reached the other worker");
    assert_eq!(pool.install(|| fib(22)), fib_seq(22));
    let stats = pool.stats();
    assert!(stats.steals > 0, "{stats:?}");
    assert!(
        stats.heavy_fences + stats.answered_claims >= stats.steals,
        "{stats:?}"
    );
    assert_eq!((stats.fences, stats.fallback_fences), (0, 0), "{stats:?}");
}

/// In a pool of eight workers `asym`'s thieves ask the owner to answer their claims, and
/// an owner busy forking and joining answers (so that steal runs no heavy fence); in a
/// pool of two they never ask, whatever the owner does. (Eight workers on a machine with
/// fewer CPUs take turns, and a claim on a worker that is not running times out: the big
/// pool steals until one claim was answered, at most 200 times.)
#[test]
fn asym_thieves_ask_for_answers_only_in_pools_of_eight_or_more() {
    let big = pool(8, Policy::Asym);
    for _ in 0..200 {
        assert!(steal_from_a_forking_owner(&big), "b never left its worker");
        if big.stats().answered_claims > 0 {
            break;
        }
    }
    assert!(big.stats().answered_claims > 0, "{:?}", big.stats());
    assert_eq!(big.install(|| fib(20)), fib_seq(20));
    let small = pool(2, Policy::Asym);
    for _ in 0..10 {
        assert!(
            steal_from_a_forking_owner(&small),
            "b never left its worker"
        );
    }
    let stats = small.stats();
    assert!(stats.steals >= 10, "{stats:?}");
    assert_eq!(stats.answered_claims, 0, "{stats:?}");
    assert!(stats.heavy_fences >= stats.steals, "{stats:?}");
}

/// The pool's counters once its workers have stopped moving them: two reads 10 ms apart
/// that agree (at most about 2 s of tries). `stats` reads each worker's counters one after
/// another while the workers run, so a read taken as `install` returns, with the other
/// worker still looking for work, can catch a fallback fence counted in `fallback_fences`
/// but not yet in `fences`.
fn settled_stats(pool: &ThreadPool) -> splitsteal_core::Stats {
    let mut last = pool.stats();
    for _ in 0..200 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        let now = pool.stats();
        if now == last {
            break;
        }
        last = now;
    }
    last
}

/// Without the heavy fence (as under a seccomp filter), `asym`'s owners fence every pop,
/// the stats say so, and every task still runs exactly once, stolen or not.
#[test]
fn asym_without_a_heavy_fence_fences_the_owners_pops_and_loses_nothing() {
    for threads in [1, 2] {
        let pool = ThreadPoolBuilder::new()
            .num_threads(threads)
            .policy(Policy::Asym)
            .assume_no_membarrier(true)
            // Keeps a lone `asym` worker's joins in its deque (else they run in line).
            .record_start_latency(threads == 1)
            .build()
            .unwrap();
        pool.install(|| fib(10));
        pool.reset_stats();
        let calls = AtomicU64::new(0);
        assert_eq!(pool.install(|| fib_counted(22, &calls)), fib_seq(22));
        assert_eq!(calls.load(Ordering::Relaxed), 2 * fib_seq(23) - 1);
        let stats = settled_stats(&pool);
        let joins = fib_seq(23) - 1;
        assert!(stats.fallback_fences >= joins, "x{threads}: {stats:?}");
        assert!(
            stats.fences >= stats.fallback_fences,
            "x{threads}: {stats:?}"
        );
        assert_eq!(stats.heavy_fences, 0, "x{threads}: {stats:?}");
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

/// Every policy, and `hybrid` on a base deque of each kind (its default base grows).
/// A pool that records task starts records each task exactly once, the joins' second
/// closures run inline included (the inline path only counts them; the record is taken
/// where the pool's out-of-line pop brings them back), under every policy and hybrid base.
#[test]
fn recorded_starts_match_the_counted_tasks_under_every_policy() {
    for (policy, base) in policies_and_hybrid_bases() {
        for threads in [1, 2] {
            let mut b = ThreadPoolBuilder::new()
                .num_threads(threads)
                .policy(policy)
                .record_start_latency(true);
            if let Some(base) = base {
                b = b.hybrid_base(base);
            }
            let pool = b.build().unwrap();
            // fib(12): 232 joins.
            assert_eq!(pool.install(|| fib(12)), 144);
            let tasks = pool.stats().tasks;
            let starts = pool.take_start_latencies().unwrap().starts.len() as u64;
            assert!(
                tasks >= 232,
                "{policy} ({base:?}) x{threads}: {tasks} tasks"
            );
            assert_eq!(starts, tasks, "{policy} ({base:?}) x{threads}");
        }
    }
}

fn policies_and_hybrid_bases() -> Vec<(Policy, Option<Policy>)> {
    let mut all: Vec<_> = Policy::ALL.iter().map(|&p| (p, None)).collect();
    for base in [
        Policy::Abp,
        Policy::LcwsSignal,
        Policy::LcwsPoll,
        Policy::Asym,
    ] {
        all.push((Policy::Hybrid, Some(base)));
    }
    all
}

fn pool_with(threads: usize, policy: Policy, base: Option<Policy>, capacity: usize) -> ThreadPool {
    let mut b = ThreadPoolBuilder::new()
        .num_threads(threads)
        .policy(policy)
        .deque_capacity(capacity);
    if let Some(base) = base {
        b = b.hybrid_base(base);
    }
    b.build()
        .unwrap_or_else(|e| panic!("building {policy} ({base:?}) x{threads}: {e}"))
}

std::thread_local! {
    /// Raised on a thread while it is inside a `spawn` call.
    static IN_SPAWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Calls `spawn` with `IN_SPAWN` raised on this thread.
fn spawning(spawn: impl FnOnce()) {
    IN_SPAWN.with(|f| f.set(true));
    spawn();
    IN_SPAWN.with(|f| f.set(false));
}

/// Issue 33, defects 3 and 4: `spawn` runs its closure "some time later" and returns at
/// once, however many tasks the producer spawned (12,000 in a scope: three times the
/// default deque capacity) and whether or not another worker steals meanwhile. A task that
/// finds `IN_SPAWN` raised on its thread ran inside a spawn call. Every configuration is
/// tried before the verdict, which lists those that failed.
#[test]
fn spawns_never_run_inside_the_spawn_call_however_many() {
    let mut failed = Vec::new();
    for (policy, base) in policies_and_hybrid_bases() {
        for threads in [1, 2] {
            let what = format!("{policy} ({base:?}) x{threads}");
            let mut check = |kind: &str, ran: usize, want: usize, inside: usize| {
                assert_eq!(ran, want, "{what}: {kind}: tasks run");
                if inside > 0 {
                    failed.push(format!(
                        "{what}: {kind}: {inside} of {want} ran inside spawn"
                    ));
                }
            };
            let capacity =
                ThreadPoolBuilder::<splitsteal_core::DefaultSpawn>::DEFAULT_DEQUE_CAPACITY;
            let pool = pool_with(threads, policy, base, capacity);
            let (ran, inside) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let task = || {
                ran.fetch_add(1, Ordering::Relaxed);
                if IN_SPAWN.with(|f| f.get()) {
                    inside.fetch_add(1, Ordering::Relaxed);
                }
            };
            pool.scope(|s| {
                for _ in 0..12_000 {
                    spawning(|| s.spawn(|_| task()));
                }
            });
            check(
                "scope.spawn",
                ran.swap(0, Ordering::Relaxed),
                12_000,
                inside.swap(0, Ordering::Relaxed),
            );
            // A small deque for the other kinds of spawn: the same overflow, cheaper.
            let pool = pool_with(threads, policy, base, 64);
            pool.scope_fifo(|s| {
                for _ in 0..500 {
                    spawning(|| s.spawn_fifo(|_| task()));
                }
            });
            check(
                "scope_fifo.spawn_fifo",
                ran.swap(0, Ordering::Relaxed),
                500,
                inside.swap(0, Ordering::Relaxed),
            );
            let (tx, rx) = std::sync::mpsc::channel();
            pool.install(|| {
                for i in 0..1_000 {
                    let tx = tx.clone();
                    let job = move || tx.send(IN_SPAWN.with(|f| f.get())).unwrap();
                    if i % 2 == 0 {
                        spawning(|| splitsteal_core::spawn(job));
                    } else {
                        spawning(|| splitsteal_core::spawn_fifo(job));
                    }
                }
            });
            let inside = (0..1_000).filter(|_| rx.recv().unwrap()).count();
            check("spawn and spawn_fifo", 1_000, 1_000, inside);
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// Runs `body` on its own thread; `false` if it has not returned within a generous bound
/// (a deadlock must fail the test, not stall CI; the stuck thread is left behind).
fn returns_in_time(body: impl FnOnce() + Send + 'static) -> bool {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        body();
        let _ = tx.send(());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(10)) {
        Ok(()) => true,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => false,
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("the body panicked"),
    }
}

/// Issue 33, defect 4: programs that rayon completes, and which deadlock if a spawn runs
/// its closure inside the call: the scope body holds a `Mutex` its tasks lock while it
/// spawns them; the body spawns a consumer and then sends to it over a channel. Both spawn
/// more tasks than the deque holds, at 1 and 2 threads, under every policy.
#[test]
fn spawning_past_the_deque_capacity_never_deadlocks() {
    let mut failed = Vec::new();
    for (policy, base) in policies_and_hybrid_bases() {
        for threads in [1, 2] {
            let what = format!("{policy} ({base:?}) x{threads}");
            let w = what.clone();
            let mutex = move || {
                let pool = pool_with(threads, policy, base, 64);
                let m = std::sync::Mutex::new(0u64);
                pool.scope(|s| {
                    let _held = m.lock().unwrap();
                    for _ in 0..1_000 {
                        s.spawn(|_| *m.lock().unwrap() += 1);
                    }
                });
                assert_eq!(*m.lock().unwrap(), 1_000, "{w}: mutex");
            };
            if !returns_in_time(mutex) {
                failed.push(format!("{what}: mutex held while spawning: deadlocked"));
            }
            let w = what.clone();
            let channel = move || {
                let pool = pool_with(threads, policy, base, 64);
                let filler = AtomicUsize::new(0);
                let sum = AtomicU64::new(0);
                pool.scope(|s| {
                    for _ in 0..1_000 {
                        s.spawn(|_| {
                            filler.fetch_add(1, Ordering::Relaxed);
                        });
                    }
                    let (tx, rx) = std::sync::mpsc::channel::<u64>();
                    let sum = &sum;
                    s.spawn(move |_| sum.store(rx.iter().sum(), Ordering::Relaxed));
                    for v in 1..=100 {
                        tx.send(v).unwrap();
                    }
                });
                assert_eq!(filler.load(Ordering::Relaxed), 1_000, "{w}: channel");
                assert_eq!(sum.load(Ordering::Relaxed), 5_050, "{w}: channel");
            };
            if !returns_in_time(channel) {
                failed.push(format!(
                    "{what}: consumer spawned, then sent to: deadlocked"
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// Issue 33, defect 3, in the runtime: a producer that spawns one task at a time and waits
/// until the other worker has started it. The thief keeps up, so the producer's deque
/// never holds more than one task: every task must be stolen from it, the 9th and later
/// too, although the producer pushed far more than the deque's capacity (8) and never
/// popped (which is what resets the ABP paper's indices). Before, "full" meant 8 pushes
/// since the last reset, and later tasks ran inline or went to the injector, unstolen.
/// (Policies whose owner must act for a thief to get private work are left out: an
/// `lcws-poll` owner answers at pushes and pops, not while it waits; `lcws-cons` never
/// exposes the last private task on a first request.)
#[test]
fn a_producer_whose_thief_keeps_up_never_finds_its_deque_full() {
    let mut failed = Vec::new();
    for policy in [
        Policy::Abp,
        Policy::LcwsSignal,
        Policy::LcwsHalf,
        Policy::ChaseLev,
        Policy::Locked,
    ] {
        let steals = std::sync::Arc::new(AtomicU64::new(0));
        let got = steals.clone();
        let done = returns_in_time(move || {
            let pool = pool_with(2, policy, None, 8);
            let started = AtomicUsize::new(0);
            pool.reset_stats();
            pool.scope(|s| {
                for i in 0..200 {
                    s.spawn(|_| {
                        started.fetch_add(1, Ordering::Release);
                    });
                    // Acquire: a formality; the count is all we read.
                    while started.load(Ordering::Acquire) <= i {
                        std::hint::spin_loop();
                    }
                }
            });
            got.store(pool.stats().steals, Ordering::Relaxed);
        });
        let steals = steals.load(Ordering::Relaxed);
        if !done || steals < 200 {
            failed.push(format!(
                "{policy}: done {done}, {steals} of 200 tasks stolen"
            ));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// A burst of spawned tasks from one worker, while the others sleep, reaches every worker:
/// each task waits (a bounded while) until all `THREADS` tasks run at once, which only
/// happens if every sleeping worker was woken and stole one. The spawner's first push
/// wakes one sleeper; the others must be woken as thieves succeed (a wake-up passed on
/// while the victim has work left), or the burst runs on two workers.
#[test]
fn a_spawn_burst_wakes_every_sleeping_worker() {
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};
    const THREADS: usize = 4;
    for &policy in Policy::ALL {
        let pool = pool(THREADS, policy);
        // Let every worker run out of spin rounds and fall asleep.
        std::thread::sleep(Duration::from_millis(50));
        let arrived = AtomicUsize::new(0);
        let all_met = AtomicBool::new(true);
        pool.scope(|s| {
            for _ in 0..THREADS {
                s.spawn(|_| {
                    arrived.fetch_add(1, Ordering::SeqCst);
                    let t0 = Instant::now();
                    while arrived.load(Ordering::SeqCst) < THREADS {
                        // A polled victim answers its thieves here.
                        splitsteal_core::serve_thieves();
                        if t0.elapsed() > Duration::from_secs(5) {
                            all_met.store(false, Ordering::SeqCst);
                            return;
                        }
                        std::thread::yield_now();
                    }
                });
            }
        });
        assert!(
            all_met.load(Ordering::SeqCst),
            "{policy}: a task waited 5 s for the other {} to start: the burst did not reach \
             every worker",
            THREADS - 1
        );
    }
}

/// A joiner whose second closure was stolen, and which fell asleep waiting for it, is
/// woken when the thief finishes: the latch learns whom to wake only when the joiner goes
/// to sleep (`JoinLatch::before_sleep`), so a setter that did not find it there would
/// leave it asleep for good. Each join must come back (a watchdog fails the test instead
/// of hanging), and the joiner must have slept in one of the tries: `b` holds the thief
/// 30 ms, then twice as long at each try in which the joiner did not get to sleep (on a
/// loaded host it may not spin out within 30 ms: CI saw that once, under `lcws-cons`).
#[test]
fn a_joiner_asleep_on_its_stolen_closure_is_woken_when_it_ends() {
    use std::sync::atomic::AtomicBool;
    use std::sync::mpsc;
    use std::time::Duration;
    for &policy in Policy::ALL {
        let pool = std::sync::Arc::new(common::pool(2, policy));
        assert_eq!(pool.install(|| fib(15)), 610);
        let sleeps_before = pool.stats().sleeps;
        let mut slept = false;
        for hold_ms in [30, 60, 120, 240, 480, 960] {
            let (done, finished) = mpsc::channel();
            let worker = std::thread::spawn({
                let pool = pool.clone();
                move || {
                    let b_started = AtomicBool::new(false);
                    let (a_thread, b_thread) = pool.install(|| {
                        splitsteal_core::join(
                            || {
                                // Hold `a` until the other worker has taken `b` (joining
                                // meanwhile: `lcws-poll` exposes `b` only at a push or pop).
                                while !b_started.load(Ordering::Acquire) {
                                    splitsteal_core::join(|| (), || ());
                                }
                                std::thread::current().id()
                            },
                            || {
                                b_started.store(true, Ordering::Release);
                                // Long enough for the joiner to spin out and fall asleep.
                                std::thread::sleep(Duration::from_millis(hold_ms));
                                std::thread::current().id()
                            },
                        )
                    });
                    done.send(a_thread != b_thread).unwrap();
                }
            });
            let stolen = finished
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("{policy}: the joiner was never woken"));
            worker.join().unwrap();
            assert!(stolen, "{policy}: `b` ran on the joiner's thread");
            if pool.stats().sleeps > sleeps_before {
                slept = true;
                break;
            }
        }
        assert!(
            slept,
            "{policy}: the joiner never slept, so the wake-up was not tested"
        );
    }
}

/// An `lcws-poll` owner answers its thieves at pops too, not only at pushes (the LCWS
/// paper polls "once per executed node"): unwinding a chain of joins whose second closures
/// run no join of their own is pops only, and a thief that asks meanwhile must get work.
/// The owner pushes the whole chain first and then sits still for a while at its bottom,
/// so a thief's request arrives when no push is left to answer it. Each second closure
/// sleeps 2 ms; at least 4 of the 48 must run on the other worker (answered at the pops:
/// about half; answered at pushes only: at most the one exposed during the descent).
#[test]
fn a_polled_owner_answers_thieves_while_it_only_pops() {
    use std::time::Duration;
    const DEPTH: usize = 48;
    fn chain(depth: usize, owner: usize, elsewhere: &AtomicUsize) {
        if depth == 0 {
            // Long enough for the other worker to find only private work and ask.
            std::thread::sleep(Duration::from_millis(50));
            return;
        }
        splitsteal_core::join(
            || chain(depth - 1, owner, elsewhere),
            || {
                std::thread::sleep(Duration::from_millis(2));
                if splitsteal_core::current_thread_index() != Some(owner) {
                    elsewhere.fetch_add(1, Ordering::Relaxed);
                }
            },
        );
    }
    let pool = pool(2, Policy::LcwsPoll);
    let elsewhere = AtomicUsize::new(0);
    pool.install(|| {
        let owner = splitsteal_core::current_thread_index().expect("on a worker");
        chain(DEPTH, owner, &elsewhere);
    });
    let elsewhere = elsewhere.load(Ordering::Relaxed);
    assert!(
        elsewhere >= 4,
        "only {elsewhere} of {DEPTH} second closures ran on the thief: the owner did not \
         answer its requests at its pops"
    );
}

//! The hybrid (mailboxing) policy: exactly-once on every base deque and mailing strategy,
//! proxies freed exactly once, tasks reaching other workers through their mailboxes.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use splitsteal_core::{Mailing, Policy, ThreadPool, ThreadPoolBuilder};

mod common;
use common::{fib_counted, fib_seq};

/// The proxy gauge is process-wide: tests that read it must not overlap.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn hybrid(threads: usize, base: Policy, mailing: Mailing) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .policy(Policy::Hybrid)
        .hybrid_base(base)
        .mailing(mailing)
        .build()
        .unwrap_or_else(|e| panic!("hybrid on {base}: {e}"))
}

#[test]
fn every_base_and_mailing_runs_each_task_once_and_frees_every_proxy() {
    let _serial = serial();
    let bases = Policy::ALL.iter().copied().filter(|&p| p != Policy::Hybrid);
    for base in bases {
        for mailing in [Mailing::Even, Mailing::Uneven] {
            for threads in [2, 3, 4] {
                let pool = hybrid(threads, base, mailing);
                for _ in 0..3 {
                    let calls = AtomicU64::new(0);
                    assert_eq!(pool.install(|| fib_counted(20, &calls)), fib_seq(20));
                    assert_eq!(calls.load(Ordering::Relaxed), 2 * fib_seq(21) - 1);
                    let ran = AtomicUsize::new(0);
                    pool.scope(|s| {
                        for _ in 0..50 {
                            s.spawn(|_| {
                                ran.fetch_add(1, Ordering::Relaxed);
                            });
                        }
                    });
                    assert_eq!(
                        ran.load(Ordering::Relaxed),
                        50,
                        "{base} {mailing:?} x{threads}"
                    );
                }
                let stats = pool.stats();
                assert!(stats.mailed > 0, "{base} {mailing:?} x{threads}: {stats:?}");
                drop(pool);
            }
        }
    }
    // Every proxy was claimed by one side and freed by the other.
    assert_eq!(splitsteal_core::__live_proxies(), 0);
}

/// Forks alone (no spawns, which mail on their own path) mail on every base deque: the
/// `join` fast paths of the split deques must not take a hybrid worker's base deque.
#[test]
fn joins_mail_on_every_base() {
    let _serial = serial();
    for base in Policy::ALL.iter().copied().filter(|&p| p != Policy::Hybrid) {
        let pool = hybrid(4, base, Mailing::Even);
        let calls = AtomicU64::new(0);
        assert_eq!(pool.install(|| fib_counted(16, &calls)), fib_seq(16));
        let stats = pool.stats();
        assert!(stats.mailed > 0, "{base}: {stats:?}");
    }
    assert_eq!(splitsteal_core::__live_proxies(), 0);
}

#[test]
fn the_first_task_on_another_worker_arrives_by_mail() {
    let _serial = serial();
    for mailing in [Mailing::Even, Mailing::Uneven] {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(Policy::Hybrid)
            .mailing(mailing)
            // Keep thieves out for the whole run: only mail can move work.
            .steal_after_mails(usize::MAX)
            .steal_after(Duration::from_secs(3600))
            .record_start_latency(true)
            .build()
            .unwrap();
        let workers = std::sync::Mutex::new(Vec::new());
        pool.scope(|s| {
            for _ in 0..32 {
                s.spawn(|_| {
                    std::thread::sleep(Duration::from_millis(1));
                    workers
                        .lock()
                        .unwrap()
                        .push(splitsteal_core::current_thread_index().unwrap());
                });
            }
        });
        let workers = workers.into_inner().unwrap();
        assert_eq!(workers.len(), 32);
        let stats = pool.stats();
        assert_eq!(stats.steals, 0, "{stats:?}");
        assert!(
            workers.contains(&0) && workers.contains(&1),
            "{mailing:?}: {workers:?}"
        );
        let starts = pool.take_start_latencies().unwrap();
        // 32 tasks and the origin job (the scope body, injected by `pool.scope`).
        assert_eq!(starts.starts.len(), 33, "{starts:?}");
        let other = starts
            .first_on_other_worker()
            .expect("a task ran on the other worker");
        assert_ne!(other.worker, starts.origin_worker);
        assert!(starts
            .starts
            .windows(2)
            .all(|w| w[0].since_origin <= w[1].since_origin));
    }
    assert_eq!(splitsteal_core::__live_proxies(), 0);
}

#[test]
fn hybrid_settings_are_validated() {
    let e = ThreadPoolBuilder::new()
        .policy(Policy::Hybrid)
        .hybrid_base(Policy::Hybrid)
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("hybrid_base"), "{e}");
    assert!(ThreadPoolBuilder::new().take_start_latencies_is_off());
}

trait Off {
    fn take_start_latencies_is_off(self) -> bool;
}

impl Off for ThreadPoolBuilder {
    fn take_start_latencies_is_off(self) -> bool {
        self.num_threads(1)
            .build()
            .unwrap()
            .take_start_latencies()
            .is_none()
    }
}

#[test]
fn mailing_splits() {
    assert_eq!(Mailing::Even.split(2), (1, 1));
    assert_eq!(Mailing::Even.split(5), (3, 2));
    assert_eq!(Mailing::Uneven.split(5), (4, 1));
}

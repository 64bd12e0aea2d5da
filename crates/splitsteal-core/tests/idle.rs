//! Idle costs nothing: an idle pool's workers sleep, and so do thieves that have nothing
//! to steal while one worker runs a long leaf.
//! (Alone in its binary: it measures the whole process's CPU time; the tests take a lock
//! so that they do not overlap.)

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Serializes the tests of this binary (each measures the whole process).
static ALONE: Mutex<()> = Mutex::new(());

use splitsteal_core::Policy;

mod common;
use common::fib;

fn process_cpu_time() -> Duration {
    // SAFETY: `getrusage` writes into the zeroed struct we pass.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_SELF, &mut u), 0);
        u
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Warms `pools` up, lets their workers fall asleep for `settle`, and returns the CPU time
/// the process burned over the next `window` and that window's real length.
fn idle_burn(
    pools: &[splitsteal_core::ThreadPool],
    settle: Duration,
    window: Duration,
) -> (Duration, Duration) {
    for pool in pools {
        assert_eq!(pool.install(|| fib(20)), 6765);
    }
    std::thread::sleep(settle);
    let cpu0 = process_cpu_time();
    let wall0 = Instant::now();
    std::thread::sleep(window);
    (process_cpu_time() - cpu0, wall0.elapsed())
}

#[test]
fn an_idle_pool_burns_under_one_percent_of_a_core_and_wakes_promptly() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let pools: Vec<_> = Policy::ALL.iter().map(|&p| common::pool(2, p)).collect();
    // Let the workers finish spinning and fall asleep, then measure.
    let (cpu, wall) = idle_burn(&pools, Duration::from_millis(200), Duration::from_secs(1));
    // All pools together (14 workers) must stay under 1% of one core.
    assert!(
        cpu.as_secs_f64() < 0.01 * wall.as_secs_f64(),
        "idle pools burned {cpu:?} of CPU in {wall:?}"
    );
    // And they wake up for new work.
    for pool in &pools {
        let t = Instant::now();
        assert_eq!(pool.install(|| fib(15)), 610);
        assert!(t.elapsed() < Duration::from_secs(5));
    }
}

/// Issue 33, 7: where the system has no `membarrier` (a seccomp filter, old kernels) an
/// idle pool must cost nothing either (it used to park with a 1 ms timeout forever: 1.7% of
/// a core at 2 threads). `assume_no_membarrier` makes the pools sleep as they would there.
#[test]
fn an_idle_pool_without_membarrier_burns_nothing_and_wakes() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let pools: Vec<_> = Policy::ALL
        .iter()
        .map(|&p| {
            splitsteal_core::ThreadPoolBuilder::new()
                .num_threads(2)
                .policy(p)
                .assume_no_membarrier(true)
                .build()
                .unwrap()
        })
        .collect();
    let (cpu, wall) = idle_burn(
        &pools,
        Duration::from_millis(100),
        Duration::from_millis(300),
    );
    // 14 workers together under 1% of one core (they burned about 12% before).
    assert!(
        cpu.as_secs_f64() < 0.01 * wall.as_secs_f64(),
        "idle pools without membarrier burned {cpu:?} of CPU in {wall:?}"
    );
    // Sleepers are woken by pushes and injections: joins and installs still complete.
    for pool in &pools {
        assert_eq!(pool.install(|| fib(18)), 2584);
    }
}

/// Spins for `d` without making a join (a long leaf).
fn leaf(d: Duration) {
    let t = Instant::now();
    while t.elapsed() < d {
        std::hint::spin_loop();
    }
}

/// One worker of a 2-worker pool runs a 400 ms leaf without joins, (a) with nothing else
/// in the pool and (b) with trivial tasks private in its deque (nested `join`s whose
/// innermost `a` is the leaf; the push that finds the sleeping thief exposes one of them,
/// the rest stay private: under `lcws-poll` a request for them is answered only at the
/// next join, so the thief must sleep on its request instead of polling for it). The
/// process may burn the busy core plus at most 5% of another.
#[test]
fn thieves_sleep_while_a_long_leaf_runs() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    const LEAF: Duration = Duration::from_millis(400);
    for &policy in Policy::ALL {
        let pool = common::pool(2, policy);
        assert_eq!(pool.install(|| fib(20)), 6765);
        for with_private_task in [false, true] {
            let cpu0 = process_cpu_time();
            let wall0 = Instant::now();
            if with_private_task {
                pool.install(|| {
                    splitsteal_core::join(|| splitsteal_core::join(|| leaf(LEAF), || ()), || ())
                });
            } else {
                pool.install(|| leaf(LEAF));
            }
            let cpu = (process_cpu_time() - cpu0).as_secs_f64();
            let wall = wall0.elapsed().as_secs_f64();
            assert!(
                cpu < 1.05 * wall + 0.005,
                "{policy} (private task: {with_private_task}): burned {cpu:.3} s of CPU \
                 in {wall:.3} s"
            );
        }
    }
}

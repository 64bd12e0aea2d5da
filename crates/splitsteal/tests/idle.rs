//! Idle costs nothing: an idle pool's workers sleep.
//! (Alone in its binary: it measures the whole process's CPU time.)

use std::time::{Duration, Instant};

use splitsteal::{Policy, ThreadPoolBuilder};

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

#[test]
fn an_idle_pool_burns_under_one_percent_of_a_core_and_wakes_promptly() {
    let pools: Vec<_> = Policy::ALL
        .iter()
        .map(|&p| {
            ThreadPoolBuilder::new()
                .num_threads(2)
                .policy(p)
                .build()
                .unwrap()
        })
        .collect();
    for pool in &pools {
        assert_eq!(pool.install(|| fib(20)), 6765);
    }
    // Let the workers finish spinning and fall asleep.
    std::thread::sleep(Duration::from_millis(200));
    let cpu0 = process_cpu_time();
    let wall0 = Instant::now();
    std::thread::sleep(Duration::from_secs(1));
    let cpu = process_cpu_time() - cpu0;
    let wall = wall0.elapsed();
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

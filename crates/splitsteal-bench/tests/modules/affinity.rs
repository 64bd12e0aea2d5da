use std::time::Duration;

use splitsteal_bench::affinity::*;
use splitsteal_bench::sched::{Scheduler, SchedulerKind};

/// Every scheduler's pool built on a thread restricted to one CPU runs all its tasks on
/// threads restricted to that CPU (chili included: it spawns its threads when built),
/// and the restriction does not leak to the calling thread.
#[test]
fn pools_built_on_a_restricted_thread_inherit_its_cpu() {
    let before = allowed_cpus().unwrap();
    let cpu = before[0];
    let seen = std::thread::spawn(move || {
        restrict_current_thread(cpu).unwrap();
        assert_eq!(allowed_cpus().unwrap(), [cpu]);
        SchedulerKind::all()
            .into_iter()
            .map(|k| {
                let s = Scheduler::build(k, 2).unwrap();
                (s.label(), probe(&s, 4, Duration::from_micros(20)))
            })
            .collect::<Vec<_>>()
    })
    .join()
    .unwrap();
    for (label, p) in seen {
        assert!(p.all_on(cpu), "{label}: {}", p.describe());
    }
    assert_eq!(
        allowed_cpus().unwrap(),
        before,
        "the caller is not restricted"
    );
}

#[test]
fn one_thread_is_confined_to_the_first_cpu_and_its_threads_inherit_it() {
    // On a thread of its own: the test harness's threads keep their CPUs.
    std::thread::spawn(|| {
        let all = allowed_cpus().unwrap();
        assert_eq!(confine_for_threads(1, &all).unwrap(), &all[..1]);
        assert_eq!(allowed_cpus().unwrap(), all[..1]);
        let inherited = std::thread::spawn(allowed_cpus).join().unwrap().unwrap();
        assert_eq!(
            inherited,
            all[..1],
            "a pool's workers would not share the CPU"
        );
        assert_eq!(confine_for_threads(2, &all).unwrap(), &all[..]);
        assert_eq!(allowed_cpus().unwrap(), all);
    })
    .join()
    .unwrap();
}

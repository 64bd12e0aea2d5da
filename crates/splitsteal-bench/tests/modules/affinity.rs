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

use splitsteal_workloads::sched::Workload;
use splitsteal_workloads::sched::{Scheduler, SchedulerKind};
use splitsteal_workloads::workloads::latency::*;

#[test]
fn every_task_runs_once_everywhere() {
    for kind in SchedulerKind::all() {
        let s = Scheduler::build(kind, 2).unwrap();
        for n in [1, 2, 8, 32] {
            let w = StartLatency { n };
            let out = s.run(&w, w.input()).output;
            let sample = summarize(&out);
            assert_eq!(sample.exactly_once, Ok(()), "{kind} n={n}");
            if kind == SchedulerKind::Serial {
                assert_eq!(sample.on_other, 0);
            }
        }
    }
}

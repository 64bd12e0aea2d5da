use std::time::Duration;

use splitsteal::ForkJoin;
use splitsteal_bench::runner::*;
use splitsteal_bench::sched::{PoolOptions, SchedulerKind, Workload};
use splitsteal_bench::workloads::Size;

/// Wrong on every scheduler but serial.
struct Liar;
impl Workload for Liar {
    type Input = ();
    type Output = usize;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> usize {
        c.num_threads()
    }
    fn check(&self, out: &usize) -> Result<(), String> {
        if *out == 1 {
            Ok(())
        } else {
            Err(format!("{out} != 1"))
        }
    }
}

#[test]
fn progress_lines_say_runs_done_planned_and_an_eta() {
    let l = progress_line("suite", "fib", 10, 40, Duration::from_secs(5));
    assert!(l.starts_with("[suite] fib: runs 10/40, "), "{l}");
    // 0.5 s per run, 30 runs left.
    assert!(l.ends_with("ETA 15.0 s"), "{l}");
    assert!(progress_line("iter", "sum", 0, 4, Duration::ZERO).ends_with("ETA ?"));
    assert!(progress_line("iter", "sum", 4, 4, Duration::ZERO).ends_with("ETA 0 s"));
}

#[test]
fn cells_put_serial_once() {
    let c = cells(&[SchedulerKind::Serial, SchedulerKind::Rayon], &[1, 2]);
    assert_eq!(c.len(), 3);
    assert_eq!(
        c.iter().filter(|c| c.kind == SchedulerKind::Serial).count(),
        1
    );
}

#[test]
fn wrong_results_are_failed_and_untimed() {
    let cs = cells(&[SchedulerKind::Serial, SchedulerKind::Rayon], &[2]);
    let pools = build_pools(&cs, PoolOptions::default());
    let recs = measure(
        "suite",
        "liar",
        "",
        &Liar,
        &pools,
        Reps { warmup: 1, reps: 3 },
        &Progress::hidden(),
        &Watchdog::disabled(),
    );
    assert!(recs[0].verified && recs[0].reps == 3 && recs[0].median_s.is_some());
    assert!(!recs[1].verified);
    assert_eq!(recs[1].median_s, None);
    assert!(recs[1].times_s.is_empty());
    assert!(recs[1].error.as_deref().unwrap().contains("2 != 1"));
}

#[test]
fn splitsteal_pools_run_and_report_stats() {
    let cs = vec![Cell {
        kind: SchedulerKind::Splitsteal(splitsteal::Policy::ChaseLev),
        threads: 2,
    }];
    let pools = build_pools(&cs, PoolOptions::default());
    let w = (splitsteal_bench::workloads::fib::spec().build)(Size::Test, 1);
    let recs = measure(
        "suite",
        "fib",
        "",
        &*w,
        &pools,
        Reps { warmup: 0, reps: 1 },
        &Progress::hidden(),
        &Watchdog::disabled(),
    );
    assert!(recs[0].verified, "{:?}", recs[0].error);
    assert!(recs[0].stats.is_some(), "splitsteal pools report stats");
}

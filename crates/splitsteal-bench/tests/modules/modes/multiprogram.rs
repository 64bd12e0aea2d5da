use splitsteal::Policy;
use splitsteal_bench::affinity;
use splitsteal_bench::modes::multiprogram::*;
use splitsteal_bench::modes::{Env, ModeOutput};
use splitsteal_bench::report::Record;
use splitsteal_bench::runner::{Progress, Watchdog};
use splitsteal_bench::sched::{PoolOptions, SchedulerKind};
use splitsteal_bench::workloads::Size;

fn one_cpu_rec(w: &str, k: &str, threads: usize, t: f64) -> Record {
    let mut r = Record::new("multiprogram", w, "p", k, threads);
    r.set_times(vec![t]);
    r.verified = true;
    r.extra.insert("one_cpu".into(), 1.0);
    r.extra.insert("cpu".into(), 0.0);
    r.extra.insert("affinity_ok".into(), 1.0);
    r.extra.insert("threads_seen".into(), threads as f64);
    r
}

fn with_ratios(mut recs: Vec<Record>) -> Vec<Record> {
    let base: Vec<(String, String, f64)> = recs
        .iter()
        .filter(|r| r.threads == 1)
        .map(|r| (r.workload.clone(), r.scheduler.clone(), r.median_s.unwrap()))
        .collect();
    for r in recs.iter_mut().filter(|r| r.threads == 2) {
        let (_, _, t1) = base
            .iter()
            .find(|(w, k, _)| *w == r.workload && *k == r.scheduler)
            .unwrap();
        r.extra
            .insert("ratio_1worker".into(), r.median_s.unwrap() / t1);
    }
    recs
}

#[test]
fn one_cpu_target_counts_the_policies_and_names_the_cells_above() {
    let recs = with_ratios(vec![
        one_cpu_rec("fib", "lcws-signal", 1, 0.010),
        one_cpu_rec("fib", "lcws-signal", 2, 0.011),
        one_cpu_rec("listwalk", "lcws-signal", 1, 0.010),
        one_cpu_rec("listwalk", "lcws-signal", 2, 0.020),
        one_cpu_rec("fib", "rayon", 1, 0.010),
        one_cpu_rec("fib", "rayon", 2, 0.030),
        one_cpu_rec("listwalk", "rayon", 1, 0.010),
        one_cpu_rec("listwalk", "rayon", 2, 0.010),
    ]);
    let tabs = one_cpu_tables(&recs);
    assert_eq!(tabs.len(), 2);
    let t = &tabs[0];
    let col = |k: &str| t.header.iter().position(|h| h == k).unwrap();
    let row = |w: &str| t.rows.iter().find(|r| r[0] == w).unwrap();
    assert_eq!(row("fib")[col("lcws-signal")], "1.10");
    assert_eq!(row("listwalk")[col("lcws-signal")], "2.00 ✗");
    assert_eq!(row("≤ 1.5×")[col("lcws-signal")], "missed");
    assert_eq!(row("≤ 1.5×")[col("rayon")], "missed");
    assert!(
        t.notes[0].contains(": missed") && t.notes[0].contains("lcws-signal on listwalk 2.00×"),
        "{:?}",
        t.notes
    );
    assert!(
        !t.notes[0].contains("rayon on"),
        "rayon is for reference only"
    );
    assert!(t.notes[1].contains("all 4 pools"), "{:?}", t.notes);
    // Without the slow cell the policies pass, whatever rayon does.
    let recs: Vec<Record> = recs.into_iter().filter(|r| r.workload == "fib").collect();
    let t = &one_cpu_tables(&recs)[0];
    assert!(t.notes[0].contains(": met"), "{:?}", t.notes);
    assert!(!t.notes.iter().any(|n| n.contains("warning")));
    // The ABP paper's tables ignore the one-CPU records.
    assert!(abp_tables(&recs).is_empty());
    // A 1-worker run that got half the CPU: the CPU was shared, the table says so.
    let mut recs = recs;
    recs[0].extra.insert("p_a".into(), 0.5);
    let t = &one_cpu_tables(&recs)[0];
    assert!(
        t.notes
            .iter()
            .any(|n| n.starts_with("warning: CPU 0 was shared")),
        "{:?}",
        t.notes
    );
}

#[test]
fn one_cpu_setting_runs_every_pool_on_one_cpu() {
    let out_dir = std::env::temp_dir().join(format!("ss-bench-1cpu-{}", std::process::id()));
    let env = Env {
        size: Size::Test,
        seed: 1,
        reps: Some(1),
        warmup: 0,
        workloads: Some(vec!["fib".into(), "coarsejoin".into()]),
        kinds: vec![
            SchedulerKind::Splitsteal(Policy::LcwsSignal),
            SchedulerKind::Rayon,
            SchedulerKind::Chili,
        ],
        threads: None,
        pool_options: PoolOptions::default(),
        out: out_dir,
        progress: Progress::hidden(),
        watchdog: Watchdog::disabled(),
        partial: Default::default(),
        pbbs: Default::default(),
    };
    let mut out = ModeOutput::default();
    let before = affinity::allowed_cpus().unwrap();
    run_one_cpu(&env, &mut out);
    assert_eq!(affinity::allowed_cpus().unwrap(), before);
    assert!(out.notes.is_empty(), "{:?}", out.notes);
    assert_eq!(out.records.len(), 2 * 3 * 2);
    for r in &out.records {
        assert!(r.verified && is_one_cpu(r), "{r:?}");
        assert_eq!(r.extra.get("affinity_ok"), Some(&1.0), "{r:?}");
        assert_eq!(r.extra.get("cpu"), Some(&(before[0] as f64)));
        if r.threads == 2 {
            assert!(r.extra.contains_key("ratio_1worker"), "{r:?}");
        }
    }
    let tabs = one_cpu_tables(&out.records);
    assert!(tabs[0].notes[0].starts_with("target (a performance goal"));
}

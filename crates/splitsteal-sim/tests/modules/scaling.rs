use serde_json::{json, Value};
use splitsteal_sim::meta::RunMeta;
use splitsteal_sim::progress::Progress;
use splitsteal_sim::scaling::*;
use splitsteal_sim::steal_cost::{Policy, Shape};

/// One suite record as `splitsteal bench` writes it.
fn record(
    workload: &str,
    scheduler: &str,
    threads: usize,
    times: [f64; 3],
    tasks: Option<u64>,
) -> Value {
    let [min, median, max] = times;
    json!({
        "experiment": "suite",
        "workload": workload,
        "params": format!("{workload} input"),
        "scheduler": scheduler,
        "threads": threads,
        "reps": 3,
        "median_s": median,
        "min_s": min,
        "max_s": max,
        "verified": true,
        "stats": tasks.map(|t| json!({
            "cas": 0, "fences": 0, "steals": 0, "steal_attempts": 0, "exposures": 0,
            "signals": 0, "tasks": t, "rmw": 0, "sleeps": 0, "mailed": 0
        })),
        "speedup": null,
        "vs_rayon": null,
        "error": null,
        "times_s": [min, median, max],
        "extra": {}
    })
}

fn results(records: Vec<Value>) -> String {
    json!({
        "run": {"command": "splitsteal bench", "date": "today", "machine": "2 CPUs"},
        "records": records
    })
    .to_string()
}

/// fib: serial 30 ms; asym 40 ms on 1 thread, 20 ms on 2 (1024 tasks at most); rayon only
/// on 1 thread; an iter record that must be ignored.
fn fixture() -> String {
    let mut iter = record("fib", "asym", 1, [9.0, 9.0, 9.0], Some(1));
    iter["experiment"] = json!("iter");
    results(vec![
        record("fib", "serial", 1, [0.028, 0.03, 0.035], None),
        record("fib", "asym", 1, [0.038, 0.04, 0.05], Some(1024)),
        record("fib", "asym", 2, [0.019, 0.02, 0.025], Some(1000)),
        record("fib", "chase-lev", 1, [0.05, 0.05, 0.05], Some(1024)),
        record("fib", "chase-lev", 2, [0.03, 0.03, 0.03], Some(1024)),
        record("fib", "rayon", 1, [0.04, 0.04, 0.04], None),
        record("matmul", "serial", 1, [0.5, 0.5, 0.5], None),
        iter,
    ])
}

fn fib() -> Analog {
    *ANALOGS.iter().find(|a| a.workload == "fib").unwrap()
}

#[test]
fn calibration_times_a_node_from_the_serial_time_per_fork() {
    let m = parse(&fixture()).unwrap();
    assert!(m.records.iter().all(|r| r.experiment == "suite"));
    assert_eq!(m.run.machine, "2 CPUs");
    let e = ScalingExperiment::default();
    let (c, dag) = calibrate(&m.records, &fib(), &e).unwrap().unwrap();
    // The most tasks of any record (1024), less the root job: 2^10 − 1 forks, which the
    // complete tree of depth 10 matches exactly.
    assert_eq!((c.tasks, c.forks), (1024, 1023));
    assert_eq!(c.shape_params.fib_depth, 10);
    assert_eq!((c.model_forks, c.model_work), (1023, 3 * 1024 - 2));
    assert_eq!(dag.work(), c.model_work);
    assert!(c.full_size());
    assert!((c.serial_s - 0.03).abs() < 1e-12);
    assert!((c.ns_per_fork - 0.03e9 / 1023.0).abs() < 1e-6);
    // At the measured size: serial time per node.
    assert!((c.node_ns - 0.03e9 / 3070.0).abs() < 1e-6, "{}", c.node_ns);

    // A capped depth keeps the time per fork, not the total.
    let capped = ScalingExperiment {
        max_fib_depth: 8,
        ..ScalingExperiment::default()
    };
    let (c, _) = calibrate(&m.records, &fib(), &capped).unwrap().unwrap();
    assert_eq!(
        (c.shape_params.fib_depth, c.model_forks, c.model_work),
        (8, 255, 766)
    );
    assert!(!c.full_size());
    let want = 0.03e9 / 1023.0 * 255.0 / 766.0;
    assert!((c.node_ns - want).abs() < 1e-6, "{} vs {want}", c.node_ns);

    // Workloads the records lack are skipped; matmul has no analog.
    let all = calibrate_all(&m.records, &e).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].0.analog.shape, Shape::Fib);
}

#[test]
fn list_and_spawn_shapes_fork_as_often_as_measured() {
    let e = ScalingExperiment::default();
    let walk = ANALOGS.iter().find(|a| a.workload == "listwalk").unwrap();
    let spawn = ANALOGS.iter().find(|a| a.workload == "spawnloop").unwrap();
    assert_eq!(shape_params(walk, 1999, &e).list_len, 1999);
    assert_eq!(shape_params(spawn, 256, &e).burst_children, 256);
    assert_eq!(shape_params(spawn, 256, &e).leaf_units, e.leaf_units);
    // 2^20 forks is one more than the complete tree of depth 20 has.
    assert_eq!(shape_params(&fib(), (1 << 20) - 1, &e).fib_depth, 20);
    assert_eq!(shape_params(&fib(), (1 << 20) - 2, &e).fib_depth, 19);
}

#[test]
fn measured_speedup_is_self_relative_with_the_repetitions_spread() {
    let m = parse(&fixture()).unwrap();
    let m2 = measured_speedup(&m.records, "fib", "asym").unwrap();
    let s = m2.self_relative;
    assert!((s.median - 2.0).abs() < 1e-12);
    assert!((s.min - 0.038 / 0.025).abs() < 1e-12);
    assert!((s.max - 0.05 / 0.019).abs() < 1e-12);
    let o = m2.over_serial.unwrap();
    assert!((o.median - 1.5).abs() < 1e-12);
    assert!((o.min - 0.028 / 0.025).abs() < 1e-12);
    assert!((o.max - 0.035 / 0.019).abs() < 1e-12);
    // rayon has no 2-thread cell; lcws-signal none at all.
    assert_eq!(measured_speedup(&m.records, "fib", "rayon"), None);
    assert_eq!(measured_speedup(&m.records, "fib", "lcws-signal"), None);
}

#[test]
fn verdict_agrees_inside_the_measured_spread_only() {
    let m = Spread {
        median: 2.0,
        min: 1.5,
        max: 2.5,
    };
    let v = verdict(1.9, &m);
    assert!(v.agrees);
    assert!((v.factor - 0.95).abs() < 1e-12);
    assert!(verdict(1.5, &m).agrees && verdict(2.5, &m).agrees);
    let high = verdict(2.7, &m);
    assert!(!high.agrees);
    assert!((high.factor - 1.35).abs() < 1e-12);
    assert!(!verdict(1.49, &m).agrees);
    assert_eq!(high.to_string(), "disagrees (×1.35)");
    assert_eq!(v.to_string(), "agrees (×0.95)");
}

#[test]
fn bad_input_is_an_error_that_says_why() {
    let missing = std::env::temp_dir().join("splitsteal-sim-scaling-no-such-file.json");
    let err = load(&missing).unwrap_err();
    assert!(err.contains("no-such-file.json"), "{err}");

    let err = parse("{\"run\": {}, \"records\": 3}").unwrap_err();
    assert!(err.contains("not a results.json"), "{err}");
    let err = parse("not json").unwrap_err();
    assert!(err.contains("not a results.json"), "{err}");

    let mut iter = record("fib", "asym", 1, [1.0, 1.0, 1.0], Some(3));
    iter["experiment"] = json!("iter");
    let err = parse(&results(vec![iter])).unwrap_err();
    assert!(err.contains("no suite records"), "{err}");

    let e = ScalingExperiment::default();
    let no_serial = parse(&results(vec![record(
        "fib",
        "asym",
        1,
        [1.0, 1.0, 1.0],
        Some(3),
    )]))
    .unwrap();
    let err = calibrate_all(&no_serial.records, &e).unwrap_err();
    assert!(err.contains("fib") && err.contains("serial"), "{err}");

    let mut failed = record("fib", "serial", 1, [1.0, 1.0, 1.0], None);
    failed["verified"] = json!(false);
    let unverified = parse(&results(vec![
        failed,
        record("fib", "asym", 1, [1.0, 1.0, 1.0], Some(3)),
    ]))
    .unwrap();
    assert!(calibrate_all(&unverified.records, &e).is_err());

    let no_tasks = parse(&results(vec![record(
        "fib",
        "serial",
        1,
        [1.0, 1.0, 1.0],
        None,
    )]))
    .unwrap();
    let err = calibrate_all(&no_tasks.records, &e).unwrap_err();
    assert!(err.contains("stats.tasks"), "{err}");

    let no_analog = parse(&results(vec![record(
        "matmul",
        "serial",
        1,
        [1.0, 1.0, 1.0],
        None,
    )]))
    .unwrap();
    let err = calibrate_all(&no_analog.records, &e).unwrap_err();
    assert!(err.contains("none of the workloads"), "{err}");

    let bad = ScalingExperiment {
        procs: vec![2, 2000],
        ..ScalingExperiment::default()
    };
    assert!(bad.validate().is_err());
}

#[test]
fn run_sets_each_scheduler_beside_its_model_and_writes_the_report() {
    let m = parse(&fixture()).unwrap();
    let e = ScalingExperiment {
        procs: vec![4, 16],
        runs: 2,
        max_fib_depth: 7,
        ..ScalingExperiment::default()
    };
    assert_eq!(e.simulated_procs(), vec![1, 2, 4, 16]);
    let cal = calibrate_all(&m.records, &e).unwrap();
    assert_eq!(planned_runs(&e, cal.len()), 4 * 4 * 2);
    let res = run(&m.records, &cal, &e, &Progress::hidden()).unwrap();
    assert_eq!(res.len(), 1);
    let names: Vec<(&str, Policy)> = res[0]
        .schedulers
        .iter()
        .map(|s| (s.scheduler.as_str(), s.policy))
        .collect();
    assert_eq!(
        names,
        [
            ("asym", Policy::Asym),
            ("asym-answered", Policy::AsymAnswered),
            ("lcws-signal", Policy::LcwsSignal),
            ("chase-lev", Policy::ChaseLev),
            ("rayon", Policy::ChaseLev)
        ]
    );
    let [asym, answered, lcws, chase, rayon] = &res[0].schedulers[..] else {
        panic!("five schedulers")
    };
    for s in &res[0].schedulers {
        let procs: Vec<usize> = s.predictions.iter().map(|p| p.procs).collect();
        assert_eq!(procs, [1, 2, 4, 16]);
        for p in &s.predictions {
            assert!(
                p.min_speedup <= p.speedup && p.speedup <= p.max_speedup,
                "{p:?}"
            );
            // No more than P times faster than the serial elision.
            assert!(p.speedup <= p.procs as f64 + 1e-9, "{p:?}");
        }
        let self2 = s.at(1).unwrap().makespan / s.at(2).unwrap().makespan;
        assert!((s.predicted_self_2 - self2).abs() < 1e-12);
    }
    assert_eq!(rayon.predictions, chase.predictions);
    // Verdicts exactly where both thread counts were measured.
    let measured = asym.measured.unwrap();
    let v = asym.verdict.unwrap();
    assert_eq!(v, verdict(asym.predicted_self_2, &measured.self_relative));
    // chase-lev's fence per pop makes its model slower than the serial elision at P = 1, so
    // its two verdicts judge different numbers.
    assert!(chase.at(1).unwrap().speedup < 1.0);
    for s in [asym, chase] {
        let m = s.measured.unwrap();
        assert_eq!(
            s.verdict_over_serial.unwrap(),
            verdict(s.at(2).unwrap().speedup, &m.over_serial.unwrap())
        );
    }
    assert!(chase.verdict.is_some() && chase.verdict_over_serial.is_some());
    assert!(lcws.verdict.is_none() && rayon.verdict.is_none());
    assert!(lcws.verdict_over_serial.is_none() && rayon.verdict_over_serial.is_none());
    // The runtime's protocol with answered claims has no measurement yet.
    assert!(answered.measured.is_none() && answered.verdict.is_none());
    assert_ne!(answered.predictions, asym.predictions);

    let dir = std::env::temp_dir().join(format!("splitsteal-sim-scaling-{}", std::process::id()));
    let meta = RunMeta::new(e.seed, &e, vec![]);
    let files = splitsteal_sim::scaling_report::write(&dir, &e, &m.run, &res, &meta).unwrap();
    assert_eq!(files.len(), 4);
    splitsteal_report::svg_check::check_svg_file(&dir.join(splitsteal_sim::scaling_report::FIGURE))
        .unwrap();
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for f in [
        "scaling.json",
        "scaling.md",
        splitsteal_sim::scaling_report::FIGURE,
    ] {
        assert!(html.contains(&format!("href=\"{f}\"")), "{html}");
        assert!(dir.join(f).is_file());
    }
    let md = std::fs::read_to_string(dir.join("scaling.md")).unwrap();
    assert!(md.contains(&v.to_string()), "{md}");
    assert!(md.contains("rayon (model: chase-lev)"), "{md}");
    // The default policy's table: a row per asym protocol, each labelled by what it is.
    for label in [
        "| asym-answered (owner answers, fence on timeout) |",
        "| asym (heavy fence on every steal) |",
        "| lcws-signal |",
    ] {
        assert_eq!(
            md.matches(label).count(),
            2,
            "once in each table: {label}: {md}"
        );
    }
    let js: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("scaling.json")).unwrap()).unwrap();
    assert_eq!(js["workloads"][0]["calibration"]["forks"], 1023);
    assert!(dir.join("index.html").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Adding a policy leaves the earlier policies' runs as they were: their seed streams are
/// the ones they had when they were the only three, and no two (workload, policy) pairs
/// share one.
#[test]
fn seed_streams_keep_the_first_policies_runs() {
    assert_eq!(
        SIMULATED_POLICIES[..3],
        [Policy::Asym, Policy::LcwsSignal, Policy::ChaseLev]
    );
    for workloads in [1, 2, 9] {
        let mut seen = std::collections::HashSet::new();
        for w in 0..workloads {
            for a in 0..SIMULATED_POLICIES.len() {
                let s = seed_stream(w, a, workloads);
                if a < 3 {
                    assert_eq!(s, w * 3 + a);
                }
                assert!(seen.insert(s), "w={w} a={a}: stream {s} twice");
            }
        }
    }
}

#[test]
fn random_shapes_deepen_toward_the_measured_fork_count() {
    let nqueens = *ANALOGS.iter().find(|a| a.workload == "nqueens").unwrap();
    let uts = *ANALOGS.iter().find(|a| a.workload == "uts").unwrap();
    let e = ScalingExperiment {
        max_random_nodes: 10_000_000,
        ..ScalingExperiment::default()
    };
    let seed = splitsteal_sim::par::run_seed(e.seed ^ 0x5EED, 0, 0);
    for (analog, tasks) in [(nqueens, 1_000_001), (uts, 200_001)] {
        let m = parse(&results(vec![
            record(analog.workload, "serial", 1, [0.1, 0.1, 0.1], None),
            record(analog.workload, "asym", 1, [0.1, 0.1, 0.1], Some(tasks)),
        ]))
        .unwrap();
        let (c, dag) = calibrate(&m.records, &analog, &e).unwrap().unwrap();
        let defaults = splitsteal_sim::steal_cost::ShapeParams::default();
        let mut deeper = c.shape_params;
        match analog.shape {
            Shape::Nqueens => {
                assert!(
                    c.shape_params.nqueens_depth > defaults.nqueens_depth,
                    "{c:?}"
                );
                deeper.nqueens_depth += 1;
            }
            _ => {
                assert!(
                    c.shape_params.irregular_depth > defaults.irregular_depth,
                    "{c:?}"
                );
                deeper.irregular_depth += IRREGULAR_DEPTH_STEP;
            }
        }
        // The deepest that forks no more often than measured, within the budget.
        assert!(
            c.model_forks < tasks && c.model_nodes <= 10_000_000,
            "{c:?}"
        );
        assert_eq!(dag.forks(), c.model_forks);
        deeper.max_nodes = usize::MAX;
        let next = deeper.build(analog.shape, seed).unwrap();
        assert!(next.forks() >= tasks || next.nodes() > 10_000_000, "{c:?}");
        let want = 0.1e9 / (tasks - 1) as f64 * c.model_forks as f64 / c.model_work as f64;
        assert!((c.node_ns - want).abs() < 1e-9 * want);
    }
}

use splitsteal_sim::latency::{self, SplitRule};
use splitsteal_sim::meta::RunMeta;
use splitsteal_sim::sweep::*;

#[test]
fn paper_grid_shape() {
    let g = SweepConfig::paper(SplitRule::Halving, 1);
    assert_eq!(g.params().len(), 400);
    assert_eq!(g.latencies.first(), Some(&2));
    assert_eq!(g.latencies.last(), Some(&482));
    assert_eq!(pow10_label(100_000_000), "10^8");
    assert_eq!(pow10_label(1234), "1234");
}

#[test]
fn small_sweep_writes_outputs_and_matches_direct_runs() {
    let cfg = SweepConfig {
        works: vec![20_000, 40_000],
        procs: vec![8, 16],
        latencies: vec![2, 22],
        runs: 5,
        seed: 3,
        split: SplitRule::Halving,
    };
    let res = run_sweep(&cfg).unwrap();
    assert_eq!(res.total_runs(), 40);
    // Each configuration equals the stand-alone batch with the same (seed, config index).
    for (c, cr) in res.configs.iter().enumerate() {
        let direct = latency::simulate_runs(&cr.params, 5, 3, c as u64);
        assert_eq!(direct, cr.runs);
    }
    let dir = std::env::temp_dir().join(format!("splitsteal-sim-sweep-{}", std::process::id()));
    let meta = RunMeta::new(3, &cfg, Vec::new());
    let files = write_outputs(&res, &dir, 262, &meta).unwrap();
    assert!(files.iter().any(|f| f.ends_with("index.html")));
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "svg"))
    {
        splitsteal_report::svg_check::check_svg_file(f).unwrap();
    }
    assert!(files.iter().any(|f| f.ends_with("figure1_lambda22.svg")));
    let csv = std::fs::read_to_string(dir.join("latency_runs.csv")).unwrap();
    assert_eq!(csv.lines().count(), 41);
    let table = median_table(&res);
    assert!(table.contains("| 16 |"));
    // A rerun at another latency replaces the figure instead of adding one beside it.
    write_outputs(&res, &dir, 2, &meta).unwrap();
    assert!(dir.join("figure1_lambda2.svg").is_file());
    assert!(
        !dir.join("figure1_lambda22.svg").exists(),
        "stale figure kept"
    );
    std::fs::remove_dir_all(&dir).ok();
    assert!(run_sweep(&SweepConfig { runs: 0, ..cfg }).is_err());
}

//! `splitsteal sim ...`: argument parsing and printing only; the logic lives in
//! [`crate::latency`], [`crate::sweep`], [`crate::dag`] and [`crate::kernel`].

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;

use crate::latency::{self, LatencyParams, RunResult, SplitRule, Summary};
use crate::sweep::{self, SweepConfig};

/// A simulator.
#[derive(Subcommand, Debug)]
pub enum SimCommand {
    /// Work stealing with communication latency λ on W unit tasks (WS-latency paper).
    Latency(LatencyArgs),
    /// Largest useful processor count for W, λ and a target efficiency (WS-latency paper's bound and fit).
    Calibrate(CalibrateArgs),
    /// Synchronization counts of classical work stealing vs LCWS on fork-join DAGs (LCWS paper, Fig. 2).
    Dag(DagArgs),
    /// Work stealing under a multiprogrammed kernel adversary with yields (ABP paper).
    Kernel(KernelArgs),
}

/// Work-division rule on the command line.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitArg {
    /// Victim keeps ⌊rem/2⌋ and sends the rest (the authors' simulator).
    Halving,
    /// Victim sends ⌊(rem − λ)/2⌋ (the paper's λ-corrected model).
    Paper,
}

impl From<SplitArg> for SplitRule {
    fn from(s: SplitArg) -> Self {
        match s {
            SplitArg::Halving => SplitRule::Halving,
            SplitArg::Paper => SplitRule::Paper,
        }
    }
}

/// Parses a positive count written as `1000000`, `1_000_000`, `1e6` or `10^6`.
pub fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    let bad = || format!("`{s}` is not a non-negative integer (use e.g. 1000000, 1e6 or 10^6)");
    if let Some((b, e)) = t.split_once('^') {
        let b: u64 = b.parse().map_err(|_| bad())?;
        let e: u32 = e.parse().map_err(|_| bad())?;
        return b
            .checked_pow(e)
            .ok_or_else(|| format!("`{s}` overflows u64"));
    }
    if let Some((m, e)) = t.split_once(['e', 'E']) {
        let m: u64 = m.parse().map_err(|_| bad())?;
        let e: u32 = e.parse().map_err(|_| bad())?;
        return 10u64
            .checked_pow(e)
            .and_then(|p| p.checked_mul(m))
            .ok_or_else(|| format!("`{s}` overflows u64"));
    }
    t.parse().map_err(|_| bad())
}

fn parse_procs(s: &str) -> Result<usize, String> {
    let v = parse_count(s)?;
    if v < 2 || v > LatencyParams::MAX_PROCS as u64 {
        return Err(format!(
            "processor count must be in 2..={}, got {v}",
            LatencyParams::MAX_PROCS
        ));
    }
    Ok(v as usize)
}

fn parse_positive(s: &str) -> Result<u64, String> {
    match parse_count(s)? {
        0 => Err("must be at least 1".into()),
        v => Ok(v),
    }
}

/// Flags of `sim latency`.
#[derive(Args, Debug)]
pub struct LatencyArgs {
    /// Total work W (unit tasks); accepts 1e6 or 10^6.
    #[arg(long = "work", short = 'w', default_value = "1e6", value_parser = parse_positive)]
    pub work: u64,
    /// Number of processors p (≥ 2).
    #[arg(long = "procs", short = 'p', default_value = "64", value_parser = parse_procs)]
    pub procs: usize,
    /// One-way latency λ (≥ 1).
    #[arg(long = "latency", short = 'l', default_value = "262", value_parser = parse_positive)]
    pub latency: u64,
    /// Runs per configuration (the paper uses 1000).
    #[arg(long, short = 'n', default_value = "1000", value_parser = parse_positive)]
    pub runs: u64,
    /// Base seed; run i uses a stream derived from (seed, configuration, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Work-division rule.
    #[arg(long, value_enum, default_value = "halving")]
    pub split: SplitArg,
    /// Print one JSON object (`params`, `runs`, `summary`, `runs_per_second`).
    #[arg(long)]
    pub json: bool,
    /// Run the paper's grid (W = 10^5..10^8, p = 32..256, λ = 2, 22, …, 482) instead of one
    /// configuration; --work/--procs/--latency are ignored, --runs/--seed/--split apply.
    #[arg(long)]
    pub sweep: bool,
    /// Sweep: override the W values (comma separated).
    #[arg(long, value_delimiter = ',', value_parser = parse_positive, requires = "sweep")]
    pub sweep_works: Option<Vec<u64>>,
    /// Sweep: override the p values (comma separated).
    #[arg(long, value_delimiter = ',', value_parser = parse_procs, requires = "sweep")]
    pub sweep_procs: Option<Vec<usize>>,
    /// Sweep: override the λ values (comma separated).
    #[arg(long, value_delimiter = ',', value_parser = parse_positive, requires = "sweep")]
    pub sweep_latencies: Option<Vec<u64>>,
    /// Sweep: latency of the Figure-1 box plot (the closest grid value is used).
    #[arg(long, default_value = "262", value_parser = parse_positive)]
    pub figure_latency: u64,
    /// Sweep: output directory for the CSV, JSON, table and SVG figures.
    #[arg(long, default_value = "sim-report")]
    pub out: PathBuf,
}

/// Flags of `sim calibrate`.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Total work W.
    #[arg(long = "work", short = 'w', value_parser = parse_positive)]
    pub work: u64,
    /// One-way latency λ.
    #[arg(long = "latency", short = 'l', value_parser = parse_positive)]
    pub latency: u64,
    /// Target efficiency (W/p)/Cmax, strictly between 0 and 1.
    #[arg(long, short = 'e', value_parser = parse_efficiency)]
    pub efficiency: f64,
    /// Runs per probed p for the simulated answer (0 skips the simulation).
    #[arg(long, short = 'n', default_value_t = 50)]
    pub runs: usize,
    /// Base seed of the simulated probes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Work-division rule for the simulated probes.
    #[arg(long, value_enum, default_value = "halving")]
    pub split: SplitArg,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

fn parse_efficiency(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!(
            "efficiency must be strictly between 0 and 1, got {v}"
        ))
    }
}

/// Runs a simulator command.
pub fn run(cmd: SimCommand) -> Result<(), Box<dyn std::error::Error>> {
    match cmd {
        SimCommand::Latency(a) if a.sweep => run_sweep(a),
        SimCommand::Latency(a) => run_latency(a),
        SimCommand::Calibrate(a) => run_calibrate(a),
        SimCommand::Dag(a) => run_dag(a),
        SimCommand::Kernel(a) => run_kernel(a),
    }
}

/// Largest `--runs` per configuration (results are kept in memory).
pub const MAX_RUNS: u64 = 10_000_000;

fn checked_runs(runs: u64) -> Result<usize, String> {
    if runs > MAX_RUNS {
        return Err(format!("--runs must be at most {MAX_RUNS}, got {runs}"));
    }
    usize::try_from(runs).map_err(|e| e.to_string())
}

fn run_latency(a: LatencyArgs) -> Result<(), Box<dyn std::error::Error>> {
    let params = LatencyParams {
        work: a.work,
        procs: a.procs,
        latency: a.latency,
        split: a.split.into(),
    };
    params.validate()?;
    let runs = checked_runs(a.runs)?;
    let t = Instant::now();
    let rs = latency::simulate_runs(&params, runs, a.seed, 0);
    let secs = t.elapsed().as_secs_f64();
    let summary = latency::summarize(&params, &rs);
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            params: &'a LatencyParams,
            seed: u64,
            runs: &'a [RunResult],
            summary: &'a Summary,
            bound_overhead: f64,
            gamma_p: f64,
            seconds: f64,
            runs_per_second: f64,
        }
        println!(
            "{}",
            serde_json::to_string(&Out {
                params: &params,
                seed: a.seed,
                runs: &rs,
                summary: &summary,
                bound_overhead: latency::bound_overhead(params.work, params.latency),
                gamma_p: latency::gamma(params.procs),
                seconds: secs,
                runs_per_second: runs as f64 / secs,
            })?
        );
    } else {
        println!(
            "W = {}, p = {}, λ = {}, split = {}, {} runs, seed {}",
            params.work, params.procs, params.latency, params.split, runs, a.seed
        );
        println!(
            "  W/p                      {:.1}",
            params.work as f64 / params.procs as f64
        );
        println!("  mean Cmax                {:.1}", summary.mean_cmax);
        println!("  median overhead Cmax−W/p {:.1}", summary.median_overhead);
        println!(
            "  bound term 16.12·λ·log2(W/2λ) {:.1}   (4γ(p) = {:.3})",
            latency::bound_overhead(params.work, params.latency),
            4.0 * latency::gamma(params.procs)
        );
        println!(
            "  overhead ratio           median {:.3}, min {:.3}, max {:.3}{}",
            summary.median_ratio,
            summary.min_ratio,
            summary.max_ratio,
            if summary.min_ratio >= 1.0 {
                "  (bound holds in every run)"
            } else {
                "  (BOUND EXCEEDED in some run)"
            }
        );
        println!(
            "  mean requests {:.1}, mean successful steals {:.1}",
            summary.mean_requests, summary.mean_successful_steals
        );
        println!(
            "  speed: {:.0} simulated runs/s ({runs} runs in {secs:.3} s)",
            runs as f64 / secs
        );
    }
    Ok(())
}

fn run_sweep(a: LatencyArgs) -> Result<(), Box<dyn std::error::Error>> {
    let mut cfg = SweepConfig::paper(a.split.into(), a.seed);
    cfg.runs = checked_runs(a.runs)?;
    if let Some(w) = a.sweep_works {
        cfg.works = w;
    }
    if let Some(p) = a.sweep_procs {
        cfg.procs = p;
    }
    if let Some(l) = a.sweep_latencies {
        cfg.latencies = l;
    }
    cfg.validate()?;
    let n = cfg.params().len();
    eprintln!(
        "sweep: {n} configurations × {} runs = {} runs, split = {} …",
        cfg.runs,
        n * cfg.runs,
        cfg.split
    );
    let res = sweep::run_sweep(&cfg)?;
    let files = sweep::write_outputs(&res, &a.out, a.figure_latency)?;
    let table = sweep::median_table(&res);
    let worst = res
        .configs
        .iter()
        .map(|c| c.summary.min_ratio)
        .fold(f64::INFINITY, f64::min);
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            configurations: usize,
            total_runs: usize,
            seconds: f64,
            runs_per_second: f64,
            min_ratio: f64,
            files: Vec<String>,
            config: &'a SweepConfig,
        }
        println!(
            "{}",
            serde_json::to_string(&Out {
                configurations: n,
                total_runs: res.total_runs(),
                seconds: res.seconds,
                runs_per_second: res.runs_per_second(),
                min_ratio: worst,
                files: files.iter().map(|f| f.display().to_string()).collect(),
                config: &cfg,
            })?
        );
    } else {
        println!("{table}");
        println!(
            "smallest ratio over all {} runs: {worst:.3} ({})",
            res.total_runs(),
            if worst >= 1.0 {
                "the bound holds in every run"
            } else {
                "the bound is exceeded in some run"
            }
        );
        println!(
            "simulated {} runs in {:.1} s: {:.0} runs/s",
            res.total_runs(),
            res.seconds,
            res.runs_per_second()
        );
        for f in files {
            println!("wrote {}", f.display());
        }
    }
    Ok(())
}

fn run_calibrate(a: CalibrateArgs) -> Result<(), Box<dyn std::error::Error>> {
    let c = latency::calibrate(
        a.work,
        a.latency,
        a.efficiency,
        a.split.into(),
        a.runs,
        a.seed,
    )?;
    if a.json {
        println!("{}", serde_json::to_string(&c)?);
        return Ok(());
    }
    println!(
        "W = {}, λ = {}, target efficiency (W/p)/Cmax ≥ {}",
        c.work, c.latency, c.efficiency
    );
    let show = |p: u64| {
        if p == u64::MAX {
            "unbounded".to_string()
        } else {
            p.to_string()
        }
    };
    println!(
        "  by the bound  (overhead 16.12·λ·log2(W/2λ)):     p ≤ {}",
        show(c.p_bound)
    );
    println!(
        "  by the fit    (overhead 3.4·λ·log2(W/2λ) + 3λ):  p ≤ {}",
        show(c.p_fit)
    );
    if let (Some(p), Some(e)) = (c.p_simulated, c.simulated_efficiency) {
        println!(
            "  by simulation ({} runs per probe, split = {}):   p ≤ {p} (measured efficiency {e:.3})",
            a.runs, SplitRule::from(a.split)
        );
    }
    Ok(())
}

fn parse_at_least_one(s: &str) -> Result<usize, String> {
    match parse_count(s)? {
        0 => Err("must be at least 1".into()),
        v => usize::try_from(v).map_err(|e| e.to_string()),
    }
}

fn parse_rate(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    if v > 0.0 && v.is_finite() {
        Ok(v)
    } else {
        Err(format!("rate must be positive, got {v}"))
    }
}

fn parse_depth(s: &str) -> Result<u32, String> {
    let v = parse_count(s)?;
    u32::try_from(v).map_err(|_| format!("depth {v} too large"))
}

/// Which panel(s) of the LCWS paper's Figure 2 to compute.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DagPanel {
    /// All three panels.
    All,
    /// Regular fork trees against fork-span.
    Regular,
    /// Irregular DAGs against depth.
    Irregular,
    /// Regular fork tree against the number of processors.
    Procs,
}

/// Flags of `sim dag`.
#[derive(Args, Debug)]
pub struct DagArgs {
    /// Panel(s) to compute.
    #[arg(long, value_enum, default_value = "all")]
    pub panel: DagPanel,
    /// Processors for the depth panels.
    #[arg(long, short = 'p', default_value = "8", value_parser = parse_at_least_one)]
    pub procs: usize,
    /// Fork-spans of the regular panel (comma separated, ≤ 26).
    #[arg(long, value_delimiter = ',', default_value = "4,6,8,10,12,14,16,18,20,22", value_parser = parse_depth)]
    pub depths: Vec<u32>,
    /// Total depths of the irregular panel (comma separated).
    #[arg(long, value_delimiter = ',', default_value = "50,100,150,200,250", value_parser = parse_depth)]
    pub irregular_depths: Vec<u32>,
    /// Rate of the exponential fork spacing of irregular DAGs (paper: 0.05).
    #[arg(long, default_value = "0.05", value_parser = parse_rate)]
    pub rate: f64,
    /// Processor counts of the P panel (comma separated).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32,64", value_parser = parse_at_least_one)]
    pub procs_list: Vec<usize>,
    /// Fork-span of the regular DAG used in the P panel.
    #[arg(long, default_value = "16", value_parser = parse_depth)]
    pub procs_depth: u32,
    /// Runs per point.
    #[arg(long, short = 'n', default_value = "5", value_parser = parse_at_least_one)]
    pub runs: usize,
    /// Base seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Largest irregular DAG (nodes) before giving up with an error.
    #[arg(long, default_value = "5e7", value_parser = parse_at_least_one)]
    pub max_nodes: usize,
    /// Output directory for JSON and SVG.
    #[arg(long, default_value = "sim-report")]
    pub out: PathBuf,
    /// Print the points as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
}

fn run_dag(a: DagArgs) -> Result<(), Box<dyn std::error::Error>> {
    let want = |p: DagPanel| a.panel == DagPanel::All || a.panel == p;
    let mut all = Vec::new();
    let mut files = Vec::new();
    let t = Instant::now();
    if want(DagPanel::Regular) {
        let cells: Vec<(u32, usize)> = a.depths.iter().map(|&d| (d, a.procs)).collect();
        let pts = crate::dag_report::regular(&cells, a.runs, a.seed)?;
        files.extend(crate::dag_report::write(
            &a.out,
            "regular",
            &format!(
                "Regular fork trees, P = {}: synchronization vs fork-span",
                a.procs
            ),
            "fork-span (fork levels)",
            &pts,
            false,
        )?);
        all.push(("regular DAGs against fork-span", pts));
    }
    if want(DagPanel::Irregular) {
        let cells: Vec<(u32, usize)> = a.irregular_depths.iter().map(|&d| (d, a.procs)).collect();
        let pts = crate::dag_report::irregular(&cells, a.rate, a.runs, a.seed, a.max_nodes)?;
        files.extend(crate::dag_report::write(
            &a.out,
            "irregular",
            &format!(
                "Irregular DAGs (fork spacing ~ Exp({})), P = {}",
                a.rate, a.procs
            ),
            "total depth (instructions)",
            &pts,
            false,
        )?);
        all.push(("irregular DAGs against depth", pts));
    }
    if want(DagPanel::Procs) {
        let cells: Vec<(u32, usize)> = a.procs_list.iter().map(|&p| (a.procs_depth, p)).collect();
        let pts = crate::dag_report::regular(&cells, a.runs, a.seed)?;
        files.extend(crate::dag_report::write(
            &a.out,
            "procs",
            &format!(
                "Regular fork tree of fork-span {}: synchronization vs P",
                a.procs_depth
            ),
            "processors P",
            &pts,
            true,
        )?);
        all.push(("regular DAG against P", pts));
    }
    let secs = t.elapsed().as_secs_f64();
    if a.json {
        let v: Vec<_> = all.iter().flat_map(|(_, p)| p.iter()).collect();
        println!("{}", serde_json::to_string(&v)?);
    } else {
        for (name, pts) in &all {
            println!("{name} ({} runs per point):\n", a.runs);
            println!("{}", crate::dag_report::table(pts));
        }
        println!("simulated in {secs:.1} s");
        for f in files {
            println!("wrote {}", f.display());
        }
    }
    Ok(())
}

/// Flags of `sim kernel`.
#[derive(Args, Debug)]
pub struct KernelArgs {
    /// Number of processes P.
    #[arg(long, short = 'p', default_value = "16", value_parser = parse_procs)]
    pub procs: usize,
    /// Smallest number of processes the kernel runs per round.
    #[arg(long, default_value = "1", value_parser = parse_at_least_one)]
    pub pmin: usize,
    /// Largest number of processes the kernel runs per round (≤ P).
    #[arg(long, default_value = "8", value_parser = parse_at_least_one)]
    pub pmax: usize,
    /// Total depth of the random DAGs (irregular fork-join, exponential fork spacing).
    #[arg(long, default_value = "150", value_parser = parse_depth)]
    pub depth: u32,
    /// Fork rate of the random DAGs.
    #[arg(long, default_value = "0.05", value_parser = parse_rate)]
    pub rate: f64,
    /// Runs per (adversary, yield) cell.
    #[arg(long, short = 'n', default_value = "20", value_parser = parse_at_least_one)]
    pub runs: usize,
    /// Give up after this many rounds (counts as a timeout).
    #[arg(long, default_value = "1e6", value_parser = parse_positive)]
    pub max_rounds: u64,
    /// Base seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory.
    #[arg(long, default_value = "sim-report")]
    pub out: PathBuf,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

fn run_kernel(a: KernelArgs) -> Result<(), Box<dyn std::error::Error>> {
    let e = crate::kernel_report::KernelExperiment {
        base: crate::kernel::KernelParams {
            procs: a.procs,
            pmin: a.pmin,
            pmax: a.pmax,
            adversary: crate::kernel::Adversary::Benign,
            yield_kind: crate::kernel::YieldKind::None,
            max_rounds: a.max_rounds,
        },
        dag_depth: a.depth,
        dag_rate: a.rate,
        runs: a.runs,
        seed: a.seed,
    };
    let t = Instant::now();
    let cells = crate::kernel_report::run_grid(&e)?;
    let secs = t.elapsed().as_secs_f64();
    let files = crate::kernel_report::write(&a.out, &e, &cells)?;
    if a.json {
        println!("{}", serde_json::to_string(&cells)?);
    } else {
        println!("{}", crate::kernel_report::table(&e, &cells));
        println!("simulated in {secs:.1} s");
        for f in files {
            println!("wrote {}", f.display());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Top {
        #[command(subcommand)]
        cmd: SimCommand,
    }

    #[test]
    fn parse_counts() {
        assert_eq!(parse_count("1e6"), Ok(1_000_000));
        assert_eq!(parse_count("10^8"), Ok(100_000_000));
        assert_eq!(parse_count("1_000"), Ok(1000));
        assert_eq!(parse_count("3E2"), Ok(300));
        assert!(parse_count("x").is_err());
        assert!(parse_count("1e30").is_err());
        assert!(parse_count("-5").is_err());
    }

    #[test]
    fn bad_flags_are_clap_errors_not_panics() {
        for args in [
            vec!["t", "latency", "--procs", "1"],
            vec!["t", "latency", "--latency", "0"],
            vec!["t", "latency", "--work", "abc"],
            vec!["t", "latency", "--split", "thirds"],
            vec!["t", "latency", "--sweep-procs", "32"],
            vec![
                "t",
                "calibrate",
                "--work",
                "1e6",
                "--latency",
                "2",
                "--efficiency",
                "1.5",
            ],
            vec!["t", "dag", "--procs", "0"],
            vec!["t", "kernel", "--procs", "0"],
        ] {
            assert!(Top::try_parse_from(&args).is_err(), "{args:?} should fail");
        }
        let ok = Top::try_parse_from([
            "t",
            "latency",
            "--work",
            "1e5",
            "--procs",
            "8",
            "--latency",
            "3",
            "--runs",
            "4",
            "--split",
            "paper",
            "--json",
        ])
        .unwrap();
        match ok.cmd {
            SimCommand::Latency(a) => {
                assert_eq!((a.work, a.procs, a.latency, a.runs), (100_000, 8, 3, 4));
                assert_eq!(a.split, SplitArg::Paper);
                assert!(a.json);
            }
            other => panic!("{other:?}"),
        }
    }
}

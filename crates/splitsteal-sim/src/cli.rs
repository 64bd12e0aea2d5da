//! `splitsteal sim ...`: argument parsing and printing only; the logic lives in
//! [`crate::latency`], [`crate::sweep`], [`crate::dag`], [`crate::kernel`] and
//! [`crate::steal_cost`].

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;

use splitsteal_report::out_dir::{self, PathError};
use splitsteal_report::{console, say, tell, Exit, ExitError};

use crate::latency::{self, LatencyParams, RunResult, SplitRule, Summary};
use crate::meta::RunMeta;
use crate::progress::Progress;
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
    /// Makespan, steals, claims cut and answered, and heavy fences of asym (answered claims, or a heavy fence on every steal; own or shared fences) against lcws-signal and chase-lev, with sleeping thieves, in a timed model with measured costs.
    StealCost(StealCostArgs),
    /// The timed model calibrated on a bench run's results.json: predicted speedups at P = 2 to 256 beside the measured 2-thread ones.
    Scaling(ScalingArgs),
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

fn parse_dag_procs(s: &str) -> Result<usize, String> {
    let v = parse_count(s)?;
    if v < 1 || v > LatencyParams::MAX_PROCS as u64 {
        return Err(format!(
            "processor count must be in 1..={}, got {v}",
            LatencyParams::MAX_PROCS
        ));
    }
    Ok(v as usize)
}

fn parse_kernel_procs(s: &str) -> Result<usize, String> {
    let v = parse_count(s)?;
    if !(2..=crate::kernel::KernelParams::MAX_PROCS as u64).contains(&v) {
        return Err(format!(
            "process count must be in 2..={}, got {v}",
            crate::kernel::KernelParams::MAX_PROCS
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
    /// Number of processors p, 2..=2^20 (1048576): each one is simulated, and cost grows
    /// with p.
    #[arg(long = "procs", short = 'p', default_value = "64", value_parser = parse_procs)]
    pub procs: usize,
    /// One-way latency λ (≥ 1).
    #[arg(long = "latency", short = 'l', default_value = "262", value_parser = parse_positive)]
    pub latency: u64,
    /// Runs per configuration (the paper uses 1000; at most 10^7).
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
    /// Sweep: output directory for the CSV, JSON, table, SVG figures and index.html; checked
    /// (created and written) before the sweep starts. Only with --sweep: a single
    /// configuration prints its result and writes no files.
    #[arg(long, default_value = "sim-report", requires = "sweep")]
    pub out: PathBuf,
    /// Refuse to start when the estimated number of simulation steps exceeds this (the
    /// estimate and the limit are printed). 2 cores do about 3·10^7 steps per second, so the
    /// default is about 5 minutes there; the paper's full latency sweep is 1.4·10^9.
    #[arg(long, default_value = "1e10", value_parser = parse_positive)]
    pub max_steps: u64,
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
    /// Refuse to start when the estimated number of simulation steps of the probes exceeds
    /// this (see `sim latency --help`).
    #[arg(long, default_value = "1e10", value_parser = parse_positive)]
    pub max_steps: u64,
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
        SimCommand::StealCost(a) => run_steal_cost(a),
        SimCommand::Scaling(a) => run_scaling(a),
    }
}

/// Largest `--runs` per configuration (results are kept in memory).
pub const MAX_RUNS: u64 = 10_000_000;

/// Largest number of runs of a whole sweep: every run is kept in memory (32 bytes) and
/// written as one line of `latency_runs.csv` (about 60 bytes).
pub const MAX_TOTAL_RUNS: u64 = 100_000_000;

/// Default `--max-steps`: the estimated number of simulation events a command may plan.
/// A 2-core machine simulates about 3·10^7 estimated steps per second, so this is about
/// 5 minutes there; the paper's full sweep is 1.4·10^9 (under a minute).
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000_000;

/// Estimated steps per second on 2 cores, for the time shown when a command is refused.
const STEPS_PER_SECOND: f64 = 3e7;

fn checked_runs(runs: u64) -> Result<usize, String> {
    if runs > MAX_RUNS {
        return Err(format!("--runs must be at most {MAX_RUNS}, got {runs}"));
    }
    usize::try_from(runs).map_err(|e| e.to_string())
}

/// Refuses a command whose estimated cost exceeds `--max-steps`, before anything runs.
fn check_cost(what: &str, steps: f64, max_steps: u64) -> Result<(), String> {
    if steps > max_steps as f64 {
        return Err(format!(
            "{what} would take about {steps:.2e} simulation steps, more than --max-steps {max_steps:.2e} \
             (roughly {} on 2 cores); use fewer runs or processors, or raise --max-steps",
            crate::progress::human_secs(steps / STEPS_PER_SECOND)
        ));
    }
    Ok(())
}

/// Creates and probes `--out` before any simulation, so that a long run cannot be lost to a
/// folder it cannot write. A folder that cannot be written is a value rejected before
/// anything ran: [`Exit::Usage`] (2), as in `splitsteal bench`.
fn prepare_out(out: &std::path::Path) -> Result<(), ExitError> {
    out_dir::prepare(out).map_err(|e: PathError| ExitError::usage(e.to_string()))
}

/// On SIGINT, SIGTERM or SIGHUP, says that `what` was interrupted and that nothing was
/// written to `out` (the simulators write their files only at the end), removes `out` if
/// this run created it and it is still empty, and exits with [`Exit::Interrupted`] (130).
fn on_interrupt(what: &'static str, out: &std::path::Path, created: bool) {
    let out = out.to_path_buf();
    let handler = move || {
        // remove_dir removes an empty folder only: nothing of anyone's is lost.
        let removed = created && std::fs::remove_dir(&out).is_ok();
        tell!(
            "\ninterrupted (SIGINT, SIGTERM or SIGHUP): {what} stopped before it finished; nothing was written{}",
            if removed {
                format!(" (the empty folder {} it had created is removed)", out.display())
            } else {
                format!(" to {}", out.display())
            }
        );
        Exit::Interrupted.exit_now();
    };
    if let Err(e) = ctrlc::set_handler(handler) {
        tell!("warning: no interrupt handler ({e})");
    }
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
    check_cost(
        &format!("{runs} runs of p = {}", params.procs),
        runs as f64 * params.estimated_steps(),
        a.max_steps,
    )?;
    let mut meta = RunMeta::new(
        a.seed,
        &params,
        vec![format!(
            "W = {}, p = {}, λ = {}, split = {}, {runs} runs, seed {}",
            params.work, params.procs, params.latency, params.split, a.seed
        )],
    );
    let t = Instant::now();
    let progress = Progress::start("latency", runs as u64);
    let rs = latency::simulate_runs_with(&params, runs, a.seed, 0, &progress);
    progress.finish();
    let secs = t.elapsed().as_secs_f64();
    meta.info.timing.push(format!("simulated in {secs:.2} s"));
    let summary = latency::summarize(&params, &rs);
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            run: &'a RunMeta,
            params: &'a LatencyParams,
            seed: u64,
            runs: &'a [RunResult],
            summary: &'a Summary,
            bound_overhead: f64,
            gamma_p: f64,
            seconds: f64,
            runs_per_second: f64,
        }
        say!(
            "{}",
            serde_json::to_string(&Out {
                run: &meta,
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
        return Ok(());
    }
    let lines = [
        format!(
            "W = {}, p = {}, λ = {}, split = {}, {} runs, seed {}",
            params.work, params.procs, params.latency, params.split, runs, a.seed
        ),
        format!(
            "  W/p                      {:.1}",
            params.work as f64 / params.procs as f64
        ),
        format!("  mean Cmax                {:.1}", summary.mean_cmax),
        format!("  median overhead Cmax−W/p {:.1}", summary.median_overhead),
        format!(
            "  bound term 16.12·λ·log2(W/2λ) {:.1}   (4γ(p) = {:.3})",
            latency::bound_overhead(params.work, params.latency),
            4.0 * latency::gamma(params.procs)
        ),
        format!(
            "  overhead ratio           median {:.3}, min {:.3}, max {:.3}{}",
            summary.median_ratio,
            summary.min_ratio,
            summary.max_ratio,
            if summary.min_ratio >= 1.0 {
                "  (bound holds in every run)"
            } else {
                "  (BOUND EXCEEDED in some run)"
            }
        ),
        format!(
            "  mean requests {:.1}, mean successful steals {:.1}",
            summary.mean_requests, summary.mean_successful_steals
        ),
        format!(
            "  speed: {:.0} simulated runs/s ({runs} runs in {secs:.3} s)",
            runs as f64 / secs
        ),
    ];
    // stdout is this command's only product: once its reader has gone, stop.
    for l in lines {
        if console::stdout_closed() {
            break;
        }
        say!("{l}");
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
    let total = (n * cfg.runs) as u64;
    if total > MAX_TOTAL_RUNS {
        return Err(format!(
            "the sweep has {n} configurations × {} runs = {total} runs, more than {MAX_TOTAL_RUNS} \
             (every run is kept in memory and written to latency_runs.csv)",
            cfg.runs
        )
        .into());
    }
    let steps: f64 = cfg
        .params()
        .iter()
        .map(|p| p.estimated_steps() * cfg.runs as f64)
        .sum();
    check_cost("the sweep", steps, a.max_steps)?;
    let created = !a.out.exists();
    prepare_out(&a.out)?;
    on_interrupt("the sweep", &a.out, created);
    let mut meta = RunMeta::new(
        a.seed,
        &cfg,
        vec![
            format!(
                "W ∈ {:?}, p ∈ {:?}, λ ∈ {:?}",
                cfg.works, cfg.procs, cfg.latencies
            ),
            format!(
                "{n} configurations × {} runs = {total} runs, split = {}, seed {}",
                cfg.runs, cfg.split, cfg.seed
            ),
        ],
    );
    let progress = Progress::start("sweep", total);
    let res = sweep::run_sweep_with(&cfg, &progress)?;
    progress.finish();
    meta.info.timing.push(format!(
        "simulated in {:.1} s ({:.0} runs/s)",
        res.seconds,
        res.runs_per_second()
    ));
    let files = sweep::write_outputs(&res, &a.out, a.figure_latency, &meta)?;
    let table = sweep::median_table(&res);
    let worst = res
        .configs
        .iter()
        .map(|c| c.summary.min_ratio)
        .fold(f64::INFINITY, f64::min);
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            run: &'a RunMeta,
            configurations: usize,
            total_runs: usize,
            seconds: f64,
            runs_per_second: f64,
            min_ratio: f64,
            files: Vec<String>,
            config: &'a SweepConfig,
        }
        say!(
            "{}",
            serde_json::to_string(&Out {
                run: &meta,
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
        say!("{table}");
        say!(
            "smallest ratio over all {} runs: {worst:.3} ({})",
            res.total_runs(),
            if worst >= 1.0 {
                "the bound holds in every run"
            } else {
                "the bound is exceeded in some run"
            }
        );
        say!(
            "simulated {} runs in {:.1} s: {:.0} runs/s",
            res.total_runs(),
            res.seconds,
            res.runs_per_second()
        );
        for f in files {
            say!("wrote {}", f.display());
        }
    }
    Ok(())
}

fn run_calibrate(a: CalibrateArgs) -> Result<(), Box<dyn std::error::Error>> {
    checked_runs(a.runs as u64)?;
    if a.runs > 0 {
        // The probes search p up to 4× the fit's answer (at most 2^20): about log2 of that
        // many probes, none costlier than the largest.
        let fit = latency::p_max_for_overhead(
            a.work,
            latency::fitted_overhead(a.work, a.latency),
            a.efficiency,
        );
        let hi = fit
            .saturating_mul(4)
            .clamp(4, LatencyParams::MAX_PROCS as u64);
        let probe = LatencyParams {
            work: a.work,
            procs: hi as usize,
            latency: a.latency,
            split: a.split.into(),
        };
        check_cost(
            &format!("calibrating with {} runs per probe up to p = {hi}", a.runs),
            (hi.ilog2() as f64 + 4.0) * a.runs as f64 * probe.estimated_steps(),
            a.max_steps,
        )?;
    }
    let c = latency::calibrate(
        a.work,
        a.latency,
        a.efficiency,
        a.split.into(),
        a.runs,
        a.seed,
    )?;
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            run: RunMeta,
            #[serde(flatten)]
            calibration: &'a latency::Calibration,
        }
        #[derive(Serialize)]
        struct Params {
            work: u64,
            latency: u64,
            efficiency: f64,
            runs: usize,
            split: SplitRule,
        }
        let run = RunMeta::new(
            a.seed,
            &Params {
                work: a.work,
                latency: a.latency,
                efficiency: a.efficiency,
                runs: a.runs,
                split: a.split.into(),
            },
            Vec::new(),
        );
        say!(
            "{}",
            serde_json::to_string(&Out {
                run,
                calibration: &c
            })?
        );
        return Ok(());
    }
    say!(
        "W = {}, λ = {}, target efficiency (W/p)/Cmax ≥ {}",
        c.work,
        c.latency,
        c.efficiency
    );
    let show = |p: u64| {
        if p == u64::MAX {
            "unbounded".to_string()
        } else {
            p.to_string()
        }
    };
    say!(
        "  by the bound  (overhead 16.12·λ·log2(W/2λ)):     p ≤ {}",
        show(c.p_bound)
    );
    say!(
        "  by the fit    (overhead 3.4·λ·log2(W/2λ) + 3λ):  p ≤ {}",
        show(c.p_fit)
    );
    if let (Some(p), Some(e)) = (c.p_simulated, c.simulated_efficiency) {
        say!(
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
    /// Processors for the depth panels (1..=2^20).
    #[arg(long, short = 'p', default_value = "8", value_parser = parse_dag_procs)]
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
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16,32,64", value_parser = parse_dag_procs)]
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
    /// Output directory for JSON, SVG and index.html; checked before anything runs.
    #[arg(long, default_value = "sim-report")]
    pub out: PathBuf,
    /// Print the points as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Refuse to start when the estimated number of simulation steps exceeds this (the
    /// estimate and the limit are printed). 2 cores do about 3·10^7 steps per second, so the
    /// default is about 5 minutes there; the paper's full latency sweep is 1.4·10^9.
    #[arg(long, default_value = "1e10", value_parser = parse_positive)]
    pub max_steps: u64,
}

fn run_dag(a: DagArgs) -> Result<(), Box<dyn std::error::Error>> {
    let want = |p: DagPanel| a.panel == DagPanel::All || a.panel == p;
    checked_runs(a.runs as u64)?;
    let regular_cells: Vec<(u32, usize)> = a.depths.iter().map(|&d| (d, a.procs)).collect();
    let irregular_cells: Vec<(u32, usize)> =
        a.irregular_depths.iter().map(|&d| (d, a.procs)).collect();
    let procs_cells: Vec<(u32, usize)> = a.procs_list.iter().map(|&p| (a.procs_depth, p)).collect();
    // Fail on a bad depth now, not after the panels before it have run.
    for &(d, _) in regular_cells.iter().chain(&procs_cells) {
        if d > crate::dag::Dag::MAX_REGULAR_DEPTH {
            return Err(format!(
                "regular fork-span {d} too large (max {})",
                crate::dag::Dag::MAX_REGULAR_DEPTH
            )
            .into());
        }
    }
    let mut steps = 0.0;
    let mut planned = Vec::new();
    if want(DagPanel::Regular) {
        steps += crate::dag_report::estimated_steps(&regular_cells, a.runs);
        planned.push(("regular", regular_cells.len() * a.runs));
    }
    if want(DagPanel::Irregular) {
        planned.push(("irregular", irregular_cells.len() * a.runs));
    }
    if want(DagPanel::Procs) {
        steps += crate::dag_report::estimated_steps(&procs_cells, a.runs);
        planned.push(("procs", procs_cells.len() * a.runs));
    }
    check_cost("sim dag", steps, a.max_steps)?;
    let created = !a.out.exists();
    prepare_out(&a.out)?;
    on_interrupt("the dag simulation", &a.out, created);
    let mut meta = RunMeta::new(
        a.seed,
        &DagParams::of(&a),
        vec![format!(
            "panel {}, P = {}, {} runs per point, seed {}",
            format!("{:?}", a.panel).to_lowercase(),
            a.procs,
            a.runs,
            a.seed
        )],
    );
    let mut all = Vec::new();
    let t = Instant::now();
    let step = |name: &str| {
        let (i, &(_, n)) = planned
            .iter()
            .enumerate()
            .find(|(_, (p, _))| *p == name)
            .expect("planned panel");
        Progress::start(
            &format!("panel {}/{} ({name})", i + 1, planned.len()),
            n as u64,
        )
    };
    if want(DagPanel::Regular) {
        let pr = step("regular");
        let pts = crate::dag_report::regular_with(&regular_cells, a.runs, a.seed, &pr)?;
        pr.finish();
        all.push(crate::dag_report::Panel {
            name: "regular".into(),
            title: format!(
                "Regular fork trees, P = {}: synchronization vs fork-span",
                a.procs
            ),
            x_desc: "fork-span (fork levels)".into(),
            x_is_procs: false,
            points: pts,
        });
    }
    if want(DagPanel::Irregular) {
        let pr = step("irregular");
        let pts = crate::dag_report::irregular_with(
            &irregular_cells,
            a.rate,
            a.runs,
            a.seed,
            a.max_nodes,
            &pr,
        )?;
        pr.finish();
        all.push(crate::dag_report::Panel {
            name: "irregular".into(),
            title: format!(
                "Irregular DAGs (fork spacing ~ Exp({})), P = {}",
                a.rate, a.procs
            ),
            x_desc: "total depth (instructions)".into(),
            x_is_procs: false,
            points: pts,
        });
    }
    if want(DagPanel::Procs) {
        let pr = step("procs");
        let pts = crate::dag_report::regular_with(&procs_cells, a.runs, a.seed, &pr)?;
        pr.finish();
        all.push(crate::dag_report::Panel {
            name: "procs".into(),
            title: format!(
                "Regular fork tree of fork-span {}: synchronization vs P",
                a.procs_depth
            ),
            x_desc: "processors P".into(),
            x_is_procs: true,
            points: pts,
        });
    }
    let secs = t.elapsed().as_secs_f64();
    meta.info.timing.push(format!("simulated in {secs:.1} s"));
    let files = crate::dag_report::write_all(&a.out, &all, a.runs, &meta)?;
    if a.json {
        #[derive(Serialize)]
        struct Out<'a> {
            run: &'a RunMeta,
            points: Vec<&'a crate::dag_report::DagPoint>,
        }
        say!(
            "{}",
            serde_json::to_string(&Out {
                run: &meta,
                points: all.iter().flat_map(|p| p.points.iter()).collect(),
            })?
        );
    } else {
        for p in &all {
            say!("{} ({} runs per point):\n", p.title, a.runs);
            say!("{}", crate::dag_report::table(&p.points));
        }
        say!("simulated in {secs:.1} s");
        for f in files {
            say!("wrote {}", f.display());
        }
    }
    Ok(())
}

/// The flags of `sim dag` as they appear in the JSON's `"run"` object.
#[derive(Serialize)]
struct DagParams {
    panel: String,
    procs: usize,
    depths: Vec<u32>,
    irregular_depths: Vec<u32>,
    rate: f64,
    procs_list: Vec<usize>,
    procs_depth: u32,
    runs: usize,
    max_nodes: usize,
}

impl DagParams {
    fn of(a: &DagArgs) -> DagParams {
        DagParams {
            panel: format!("{:?}", a.panel).to_lowercase(),
            procs: a.procs,
            depths: a.depths.clone(),
            irregular_depths: a.irregular_depths.clone(),
            rate: a.rate,
            procs_list: a.procs_list.clone(),
            procs_depth: a.procs_depth,
            runs: a.runs,
            max_nodes: a.max_nodes,
        }
    }
}

/// Flags of `sim kernel`.
#[derive(Args, Debug)]
pub struct KernelArgs {
    /// Number of processes P (2..=4096).
    #[arg(long, short = 'p', default_value = "16", value_parser = parse_kernel_procs)]
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
    /// Output directory for JSON, Markdown, SVG and index.html; checked before anything runs.
    #[arg(long, default_value = "sim-report")]
    pub out: PathBuf,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Refuse to start when the estimated number of simulation steps exceeds this (the
    /// estimate and the limit are printed). 2 cores do about 3·10^7 steps per second, so the
    /// default is about 5 minutes there; the paper's full latency sweep is 1.4·10^9.
    #[arg(long, default_value = "1e10", value_parser = parse_positive)]
    pub max_steps: u64,
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
        runs: checked_runs(a.runs as u64)?,
        seed: a.seed,
    };
    e.base.validate()?;
    check_cost("sim kernel", e.estimated_steps(), a.max_steps)?;
    let created = !a.out.exists();
    prepare_out(&a.out)?;
    on_interrupt("the kernel simulation", &a.out, created);
    let mut meta = RunMeta::new(
        a.seed,
        &e,
        vec![format!(
            "P = {}, p_i in [{}, {}], DAG depth {} rate {}, {} runs per cell, cap {} rounds, seed {}",
            a.procs, a.pmin, a.pmax, a.depth, a.rate, a.runs, a.max_rounds, a.seed
        )],
    );
    let t = Instant::now();
    let progress = Progress::start("kernel grid", e.planned_runs() as u64);
    let cells = crate::kernel_report::run_grid_with(&e, &progress)?;
    progress.finish();
    let secs = t.elapsed().as_secs_f64();
    meta.info.timing.push(format!("simulated in {secs:.1} s"));
    let files = crate::kernel_report::write(&a.out, &e, &cells, &meta)?;
    say_cells(
        a.json,
        &meta,
        &cells,
        || crate::kernel_report::table(&e, &cells),
        secs,
        &files,
    )
}

/// A shape of `sim steal-cost` on the command line.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeArg {
    /// Regular binary fork tree (fine-grained, like fib).
    Fib,
    /// The LCWS paper's irregular DAGs (exponentially spaced forks).
    Irregular,
    /// join(walk(next), process(node)) over a list: each step pushes a leaf of L units.
    ListWalk,
    /// One task spawns B children of L units in a loop.
    SpawnBurst,
    /// The root spawns k children, every other node 0..=k at random, to a depth (seeded).
    Nqueens,
}

impl From<ShapeArg> for crate::steal_cost::Shape {
    fn from(s: ShapeArg) -> Self {
        use crate::steal_cost::Shape;
        match s {
            ShapeArg::Fib => Shape::Fib,
            ShapeArg::Irregular => Shape::Irregular,
            ShapeArg::ListWalk => Shape::ListWalk,
            ShapeArg::SpawnBurst => Shape::SpawnBurst,
            ShapeArg::Nqueens => Shape::Nqueens,
        }
    }
}

/// A policy of `sim steal-cost` on the command line.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyArg {
    /// asym with a heavy fence on every steal (the runtime's protocol before owners answered claims): free push and pop, shared heavy fences, a steal takes one task (half of a victim holding more than 64).
    Asym,
    /// The runtime's asym with answered claims: the thief waits for its victim's answer at the victim's next push or pop, and runs the heavy fence only if none comes within --answer-timeout-ns.
    AsymAnswered,
    /// asym, a steal always takes one task.
    AsymOne,
    /// asym, a steal always takes half the tasks (at most 254).
    AsymHalf,
    /// asym-one where every thief and sleeper runs its own heavy fence (no sharing).
    AsymOwn,
    /// asym-half with its callers' own heavy fences.
    AsymHalfOwn,
    /// LCWS split deque; a signal asks the victim to expose one task.
    LcwsSignal,
    /// Classical Chase-Lev: a fence on every pop and every steal.
    ChaseLev,
}

impl From<PolicyArg> for crate::steal_cost::Policy {
    fn from(p: PolicyArg) -> Self {
        use crate::steal_cost::Policy;
        match p {
            PolicyArg::Asym => Policy::Asym,
            PolicyArg::AsymAnswered => Policy::AsymAnswered,
            PolicyArg::AsymOwn => Policy::AsymOwn,
            PolicyArg::AsymHalfOwn => Policy::AsymHalfOwn,
            PolicyArg::AsymOne => Policy::AsymOne,
            PolicyArg::AsymHalf => Policy::AsymHalf,
            PolicyArg::LcwsSignal => Policy::LcwsSignal,
            PolicyArg::ChaseLev => Policy::ChaseLev,
        }
    }
}

fn parse_steal_procs(s: &str) -> Result<usize, String> {
    let v = parse_count(s)?;
    let max = crate::steal_cost::MAX_PROCS as u64;
    if !(1..=max).contains(&v) {
        return Err(format!("processor count must be in 1..={max}, got {v}"));
    }
    Ok(v as usize)
}

/// Parses a cost in nanoseconds: a finite number ≥ 0, at most 10^9 (a second).
pub fn parse_ns(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of nanoseconds"))?;
    if !(v.is_finite() && v >= 0.0) {
        return Err(format!("a cost must be a finite number ≥ 0, got {v}"));
    }
    if v > 1e9 {
        return Err(format!("{v} ns is over a second; costs are in nanoseconds"));
    }
    Ok(v)
}

fn parse_positive_ns(s: &str) -> Result<f64, String> {
    let v = parse_ns(s)?;
    if v < 0.001 {
        return Err(format!("must be at least 0.001 ns, got {v}"));
    }
    Ok(v)
}

fn parse_units(s: &str) -> Result<u32, String> {
    match parse_count(s)? {
        0 => Err("must be at least 1".into()),
        v => u32::try_from(v).map_err(|_| format!("{v} is too large")),
    }
}

fn parse_fib_depth(s: &str) -> Result<u32, String> {
    let v = parse_count(s)?;
    let max = crate::dag::Dag::MAX_REGULAR_DEPTH as u64;
    if v > max {
        return Err(format!("fib depth must be at most {max}, got {v}"));
    }
    Ok(v as u32)
}

fn parse_branching(s: &str) -> Result<u32, String> {
    let v = parse_count(s)?;
    if !(1..=255).contains(&v) {
        return Err(format!("branching must be in 1..=255, got {v}"));
    }
    Ok(v as u32)
}

fn parse_spin_rounds(s: &str) -> Result<u32, String> {
    let v = parse_count(s)?;
    u32::try_from(v).map_err(|_| format!("{v} is too large"))
}

fn parse_nqueens_depth(s: &str) -> Result<u32, String> {
    let v = parse_count(s)?;
    if v > 64 {
        return Err(format!("nqueens depth must be at most 64, got {v}"));
    }
    Ok(v as u32)
}

/// Flags of `sim steal-cost`. The cost defaults were measured on a 2-vCPU KVM guest
/// (`crate::steal_cost`'s module doc says how, and what is extrapolated).
#[derive(Args, Debug)]
pub struct StealCostArgs {
    /// Shapes (comma separated).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "fib,irregular,list-walk,spawn-burst,nqueens"
    )]
    pub shapes: Vec<ShapeArg>,
    /// Policies (comma separated).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "asym,asym-answered,asym-one,asym-half,asym-own,asym-half-own,lcws-signal,chase-lev"
    )]
    pub policies: Vec<PolicyArg>,
    /// Processor counts (comma separated, 1..=1024).
    #[arg(long, value_delimiter = ',', default_value = "16,64,256", value_parser = parse_steal_procs)]
    pub procs_list: Vec<usize>,
    /// Runs per (shape, P, policy) cell.
    #[arg(long, short = 'n', default_value = "5", value_parser = parse_at_least_one)]
    pub runs: usize,
    /// Base seed (victim choices; the random shapes' DAGs).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// fib: fork levels of the regular tree (T1 = 3·2^d − 2 units), ≤ 26.
    #[arg(long, default_value = "15", value_parser = parse_fib_depth)]
    pub fib_depth: u32,
    /// irregular: total depth in nodes.
    #[arg(long, default_value = "200", value_parser = parse_units)]
    pub irregular_depth: u32,
    /// irregular: rate of the exponential fork spacing (LCWS paper: 0.05).
    #[arg(long, default_value = "0.05", value_parser = parse_rate)]
    pub rate: f64,
    /// list-walk and spawn-burst: units of a leaf (L).
    #[arg(long, default_value = "100", value_parser = parse_units)]
    pub leaf_units: u32,
    /// list-walk: length of the list.
    #[arg(long, default_value = "2000", value_parser = parse_units)]
    pub list_len: u32,
    /// spawn-burst: children spawned (B).
    #[arg(long, default_value = "128", value_parser = parse_units)]
    pub burst_children: u32,
    /// nqueens: largest branching factor k (children uniform in 0..=k), 1..=255.
    #[arg(long, default_value = "8", value_parser = parse_branching)]
    pub nqueens_branching: u32,
    /// nqueens: depth of the tree (≤ 64; the tree grows like (k/2)^depth).
    #[arg(long, default_value = "8", value_parser = parse_nqueens_depth)]
    pub nqueens_depth: u32,
    /// Largest DAG (nodes) before giving up with an error.
    #[arg(long, default_value = "2e7", value_parser = parse_at_least_one)]
    pub max_nodes: usize,
    /// One time unit (an ordinary DAG node), in ns.
    #[arg(long, default_value = "20", value_parser = parse_positive_ns)]
    pub node_ns: f64,
    /// A CAS, in ns (measured: uncontended lock cmpxchg).
    #[arg(long, default_value = "6", value_parser = parse_ns)]
    pub cas_ns: f64,
    /// A SeqCst fence, in ns (measured: mfence after a store).
    #[arg(long, default_value = "8", value_parser = parse_ns)]
    pub fence_ns: f64,
    /// A thief's look at a victim's indices, in ns (measured: one cache-line transfer).
    #[arg(long, default_value = "100", value_parser = parse_positive_ns)]
    pub probe_ns: f64,
    /// Heavy fence with no other processor running, in ns (measured: membarrier alone).
    #[arg(long, default_value = "135", value_parser = parse_ns)]
    pub heavy_base_ns: f64,
    /// What each other running processor adds to the heavy fence, in ns (measured for one
    /// other CPU: 285 in the fast mode, 2140 in the slow one; assumed the same for each
    /// further one).
    #[arg(long, default_value = "285", value_parser = parse_ns)]
    pub heavy_per_cpu_ns: f64,
    /// What each other running processor loses per heavy fence, in ns (measured: a spinning
    /// thread's loss per membarrier).
    #[arg(long, default_value = "1400", value_parser = parse_ns)]
    pub ipi_ns: f64,
    /// lcws-signal: from pthread_kill to the exposure being visible, in ns (measured).
    #[arg(long, default_value = "4700", value_parser = parse_ns)]
    pub signal_latency_ns: f64,
    /// lcws-signal: what the victim loses per handled signal, in ns (measured).
    #[arg(long, default_value = "3600", value_parser = parse_ns)]
    pub handler_ns: f64,
    /// The yield after each failed steal round, in ns (measured: sched_yield with nothing
    /// else to run).
    #[arg(long, default_value = "250", value_parser = parse_ns)]
    pub yield_ns: f64,
    /// What waking a parked sleeper costs the waker, in ns (measured: its FUTEX_WAKE call).
    #[arg(long, default_value = "2400", value_parser = parse_ns)]
    pub unpark_ns: f64,
    /// From the waker's unpark to the sleeper running again, in ns (measured on a KVM
    /// guest whose other CPU had gone idle).
    #[arg(long, default_value = "15000", value_parser = parse_ns)]
    pub wake_latency_ns: f64,
    /// Idle processors never sleep: they keep looking, and every heavy fence interrupts all
    /// P − 1 others (the worst case).
    #[arg(long)]
    pub no_sleep: bool,
    /// Failed steal rounds (each followed by a yield) before an idle processor sleeps.
    #[arg(long, default_value = "64", value_parser = parse_spin_rounds)]
    pub spin_rounds: u32,
    /// asym-answered: how long a thief waits for its victim's answer before it runs the
    /// heavy fence, in ns (0: it does not ask, and fences at once). Default: the heavy
    /// fence's own cost with the processors running when the wait starts.
    #[arg(long, value_parser = parse_ns)]
    pub answer_timeout_ns: Option<f64>,
    /// Output directory for JSON, CSV, Markdown, SVG and index.html; checked before anything runs.
    #[arg(long, default_value = "sim-report")]
    pub out: PathBuf,
    /// Print the cells as JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Refuse to start when the estimated number of simulation events exceeds this (the
    /// estimate and the limit are printed).
    #[arg(long, default_value = "1e10", value_parser = parse_positive)]
    pub max_steps: u64,
}

impl StealCostArgs {
    /// The experiment these flags describe.
    pub fn experiment(&self) -> crate::steal_cost_report::StealExperiment {
        use crate::steal_cost::{Costs, ShapeParams};
        crate::steal_cost_report::StealExperiment {
            shapes: self.shapes.iter().map(|&s| s.into()).collect(),
            policies: self.policies.iter().map(|&p| p.into()).collect(),
            procs: self.procs_list.clone(),
            runs: self.runs,
            seed: self.seed,
            shape_params: ShapeParams {
                fib_depth: self.fib_depth,
                irregular_depth: self.irregular_depth,
                rate: self.rate,
                leaf_units: self.leaf_units,
                list_len: self.list_len,
                burst_children: self.burst_children,
                nqueens_branching: self.nqueens_branching,
                nqueens_depth: self.nqueens_depth,
                max_nodes: self.max_nodes,
            },
            costs: Costs {
                node_ns: self.node_ns,
                cas_ns: self.cas_ns,
                fence_ns: self.fence_ns,
                probe_ns: self.probe_ns,
                heavy_base_ns: self.heavy_base_ns,
                heavy_per_cpu_ns: self.heavy_per_cpu_ns,
                ipi_ns: self.ipi_ns,
                signal_latency_ns: self.signal_latency_ns,
                handler_ns: self.handler_ns,
                yield_ns: self.yield_ns,
                unpark_ns: self.unpark_ns,
                wake_latency_ns: self.wake_latency_ns,
            },
            options: crate::steal_cost::Options {
                sleep: !self.no_sleep,
                spin_rounds: self.spin_rounds,
                answer_timeout_ns: self.answer_timeout_ns,
            },
        }
    }
}

/// What an `asym-answered` thief waits for an answer, in words.
fn answer_timeout_label(o: &crate::steal_cost::Options) -> String {
    match o.answer_timeout_ns {
        Some(ns) => format!("asym-answered waits {ns} ns for an answer"),
        None => "asym-answered waits for an answer as long as the heavy fence would take".into(),
    }
}

fn run_steal_cost(a: StealCostArgs) -> Result<(), Box<dyn std::error::Error>> {
    let e = a.experiment();
    e.validate()?;
    checked_runs(a.runs as u64)?;
    let t = Instant::now();
    // The DAGs first (seconds at most): the estimate needs their sizes.
    let dags = e.build_dags()?;
    check_cost("sim steal-cost", e.estimated_events(&dags), a.max_steps)?;
    let created = !a.out.exists();
    prepare_out(&a.out)?;
    on_interrupt("the steal-cost simulation", &a.out, created);
    let mut meta = RunMeta::new(
        a.seed,
        &e,
        vec![
            format!(
                "shapes {}; policies {}; P = {:?}; {} runs per cell, seed {}; {}",
                e.shapes
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                e.policies
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                e.procs,
                e.runs,
                e.seed,
                if e.options.sleep {
                    format!(
                        "idle processors sleep after {} failed rounds",
                        e.options.spin_rounds
                    )
                } else {
                    "idle processors never sleep".to_string()
                }
            ),
            format!(
                "costs (ns): {}; {}",
                e.costs
                    .named()
                    .iter()
                    .map(|(n, v)| format!("{n} {v}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                answer_timeout_label(&e.options)
            ),
        ],
    );
    let progress = Progress::start("steal-cost", e.planned_runs() as u64);
    let cells = crate::steal_cost_report::run_with(&e, &dags, &progress)?;
    progress.finish();
    let secs = t.elapsed().as_secs_f64();
    meta.info.timing.push(format!("simulated in {secs:.1} s"));
    let files = crate::steal_cost_report::write(&a.out, &e, &cells, &meta)?;
    say_cells(
        a.json,
        &meta,
        &cells,
        || crate::steal_cost_report::table(&e, &cells),
        secs,
        &files,
    )
}

/// Flags of `sim scaling`.
#[derive(Args, Debug)]
#[command(
    after_help = "The synchronization costs are sim steal-cost's defaults (measured on a \
2-vCPU KVM guest); each workload's node time comes from its serial time in RESULTS.json. \
crate::scaling's documentation says how the model is sized and compared.

Example:
  splitsteal sim scaling --from docs/results/suite/results.json --runs 5 --out sim-report/scaling"
)]
pub struct ScalingArgs {
    /// A results.json written by `splitsteal bench` with suite records.
    #[arg(long, value_name = "RESULTS.json")]
    pub from: PathBuf,
    /// Processor counts of the predictions (comma separated, 1..=1024; P = 1 and 2 are
    /// simulated in any case).
    #[arg(long, value_delimiter = ',', default_value = "2,4,8,16,64,256", value_parser = parse_steal_procs)]
    pub procs_list: Vec<usize>,
    /// Runs per (workload, policy, P) cell.
    #[arg(long, short = 'n', default_value = "5", value_parser = parse_at_least_one)]
    pub runs: usize,
    /// Base seed (victim choices; the random shapes' DAGs).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Largest fork depth of a fib-shaped model DAG (3·2^d − 2 nodes); a workload that forks
    /// more is modelled by the largest tree, with its time per fork.
    #[arg(long, default_value = "20", value_parser = parse_fib_depth)]
    pub max_fib_depth: u32,
    /// list-walk and spawn-burst: units of a leaf, the leaf's time over a walk or spawn step.
    #[arg(long, default_value = "1000", value_parser = parse_units)]
    pub leaf_units: u32,
    /// irregular and nqueens: the largest model DAG (nodes) when deepening it toward the
    /// workload's fork count.
    #[arg(long, default_value = "4e6", value_parser = parse_at_least_one)]
    pub max_random_nodes: usize,
    /// Output directory for scaling.json, scaling.md and index.html; checked before anything runs.
    #[arg(long, default_value = "sim-report")]
    pub out: PathBuf,
    /// Print the calibrations and predictions as JSON instead of the tables.
    #[arg(long)]
    pub json: bool,
}

fn run_scaling(a: ScalingArgs) -> Result<(), Box<dyn std::error::Error>> {
    use crate::scaling::{self, ScalingExperiment};
    let e = ScalingExperiment {
        procs: a.procs_list.clone(),
        runs: checked_runs(a.runs as u64)?,
        seed: a.seed,
        max_fib_depth: a.max_fib_depth,
        leaf_units: a.leaf_units,
        max_random_nodes: a.max_random_nodes,
        ..ScalingExperiment::default()
    };
    e.validate().map_err(ExitError::usage)?;
    let measured = scaling::load(&a.from).map_err(ExitError::usage)?;
    let t = Instant::now();
    let calibrated = scaling::calibrate_all(&measured.records, &e)
        .map_err(|err| ExitError::usage(format!("{}: {err}", a.from.display())))?;
    let created = !a.out.exists();
    prepare_out(&a.out)?;
    on_interrupt("the scaling simulation", &a.out, created);
    let mut meta = RunMeta::new(
        a.seed,
        &e,
        vec![
            format!(
                "measured: {} ({}), `{}`",
                measured.run.machine, measured.run.date, measured.run.command
            ),
            format!(
                "workloads {}; policies {}; P = {:?}; {} runs per cell, seed {}",
                calibrated
                    .iter()
                    .map(|(c, _)| c.analog.workload)
                    .collect::<Vec<_>>()
                    .join(", "),
                scaling::SIMULATED_POLICIES
                    .map(|p| p.to_string())
                    .join(", "),
                e.simulated_procs(),
                e.runs,
                e.seed
            ),
        ],
    );
    let progress = Progress::start(
        "scaling",
        scaling::planned_runs(&e, calibrated.len()) as u64,
    );
    let results = scaling::run(&measured.records, &calibrated, &e, &progress)?;
    progress.finish();
    let secs = t.elapsed().as_secs_f64();
    meta.info.timing.push(format!("simulated in {secs:.1} s"));
    let files = crate::scaling_report::write(&a.out, &e, &measured.run, &results, &meta)?;
    if a.json {
        say!(
            "{}",
            serde_json::to_string(&crate::scaling_report::json_doc(
                &e,
                &measured.run,
                &results,
                &meta
            ))?
        );
    } else {
        say!(
            "{}",
            crate::scaling_report::table(&e, &measured.run, &results)
        );
        say!("simulated in {secs:.1} s");
        for f in files {
            say!("wrote {}", f.display());
        }
    }
    Ok(())
}

/// The end of a grid command (`kernel`, `steal-cost`): its run and cells as one JSON
/// object, or its table, the time and the files written.
fn say_cells<C: Serialize>(
    json: bool,
    meta: &RunMeta,
    cells: &[C],
    table: impl FnOnce() -> String,
    secs: f64,
    files: &[std::path::PathBuf],
) -> Result<(), Box<dyn std::error::Error>> {
    if json {
        #[derive(Serialize)]
        struct Out<'a, C> {
            run: &'a RunMeta,
            cells: &'a [C],
        }
        say!("{}", serde_json::to_string(&Out { run: meta, cells })?);
    } else {
        say!("{}", table());
        say!("simulated in {secs:.1} s");
        for f in files {
            say!("wrote {}", f.display());
        }
    }
    Ok(())
}

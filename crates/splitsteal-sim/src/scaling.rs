//! `sim scaling`: the timed model of [`crate::steal_cost`] calibrated on a measured
//! `splitsteal bench` run, its predicted speedups at P = 2 to 256 beside the measured
//! 2-thread ones, and whether the two agree at P = 2.
//!
//! # Calibration
//!
//! The model's synchronization costs are [`Costs`]' defaults, measured on the 2-vCPU
//! machine the suite ran on (`crates/splitsteal-sim/probes`). The one cost that depends on
//! the workload, [`Costs::node_ns`], comes from the workload's records: its serial elision's
//! median time divided by the work, in nodes, of its model DAG at the measured size.
//! The measured size is the number of forks, `tasks − 1`, where `tasks` is the runtime's
//! own count of jobs executed (`stats.tasks`, which counts the root job too), the largest
//! over the workload's splitsteal records: an adaptive splitter (`par_for`) makes tasks only
//! when a thief shows up, so a 1-thread run understates what a parallel run forks. The model
//! DAG forks that often where its shape can: `fib`'s complete tree up to
//! [`ScalingExperiment::max_fib_depth`], the list walk and the spawn burst exactly;
//! `irregular` and `nqueens` are deepened from `sim steal-cost`'s defaults while they fork
//! no more often than the workload and stay within [`ScalingExperiment::max_random_nodes`].
//! Where the model DAG is smaller than the measured one, the time per fork is kept: `node_ns =
//! serial / forks_measured × forks_model / work_model`, so a steal costs the model the same
//! share of a task's work as it costs the runtime. At the measured size the two rules are
//! the same: serial time per node.
//!
//! # Comparison
//!
//! Two verdicts at P = 2, each *agrees* when the model's speedup lies inside the measured
//! spread, which comes from the fastest and slowest repetitions (`min_a/max_b` to
//! `max_a/min_b` for a speedup `a/b`), with the factor model / measured median:
//!
//! * self-relative, as the suite reports a scheduler: its 1-thread median over its 2-thread
//!   median, against the model's makespan at P = 1 over P = 2 under the same policy;
//! * over the serial elision: the serial median over the 2-thread median, against the
//!   model's `T1 / makespan` at P = 2. The model charges a task nothing but its deque's
//!   synchronization (no job frame, no allocation, no latch), so this one shows the
//!   per-task costs the model leaves out.
//!
//! The predictions at every P are over the serial elision. `rayon` is compared with the
//! `chase-lev` model, the deque it uses.
//!
//! # Example
//!
//! Calibration and the verdict on a hand-made results.json (`splitsteal sim scaling --from
//! results.json` runs the model too):
//!
//! ```
//! use splitsteal_sim::scaling::{calibrate_all, measured_speedup, parse, verdict, ScalingExperiment};
//!
//! let cell = |scheduler: &str, threads: usize, secs: f64, tasks: Option<u64>| {
//!     serde_json::json!({
//!         "experiment": "suite", "workload": "fib", "params": "n = 10",
//!         "scheduler": scheduler, "threads": threads, "reps": 1,
//!         "median_s": secs, "min_s": secs, "max_s": secs, "verified": true,
//!         "stats": tasks.map(|t| serde_json::json!({"cas": 0, "fences": 0, "steals": 0,
//!             "steal_attempts": 0, "exposures": 0, "signals": 0, "tasks": t, "rmw": 0,
//!             "sleeps": 0, "mailed": 0})),
//!         "speedup": null, "vs_rayon": null, "error": null, "times_s": [secs], "extra": {}
//!     })
//! };
//! let json = serde_json::json!({"run": {}, "records": [
//!     cell("serial", 1, 0.003, None),
//!     cell("asym", 1, 0.004, Some(64)),
//!     cell("asym", 2, 0.002, Some(64)),
//! ]});
//! let measured = parse(&json.to_string())?;
//! let calibrated = calibrate_all(&measured.records, &ScalingExperiment::default())?;
//! let fib = &calibrated[0].0;
//! // 63 forks: the complete tree of depth 6, 3·2^6 − 2 nodes, 3 ms over them.
//! assert_eq!((fib.forks, fib.model_work), (63, 190));
//! assert!((fib.node_ns - 3e6 / 190.0).abs() < 1e-9);
//! let asym = measured_speedup(&measured.records, "fib", "asym").unwrap();
//! assert!(verdict(2.0, &asym.self_relative).agrees);
//! assert!(!verdict(1.5, &asym.self_relative).agrees);
//! # Ok::<(), String>(())
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};
use splitsteal_report::records::Record;

use crate::par::{par_map_runs, run_seed};
use crate::progress::Progress;
use crate::steal_cost::{self, Costs, Policy, Shape, ShapeParams, TimedDag, MAX_PROCS};

/// A suite workload and the model shape that stands for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Analog {
    /// The suite workload's name (as in `splitsteal bench --list`).
    pub workload: &'static str,
    /// The model shape.
    pub shape: Shape,
    /// Why this shape, and what it leaves out.
    pub why: &'static str,
}

/// The suite workloads with a model analog, in report order.
pub const ANALOGS: [Analog; 9] = [
    Analog {
        workload: "fib",
        shape: Shape::Fib,
        why: "binary recursion with a join per call; the model's complete tree has the same \
              fork count and grain, not fib's lopsided tree",
    },
    Analog {
        workload: "treesum",
        shape: Shape::Fib,
        why: "a join per node of a perfect binary tree: exactly the complete tree \
              (pointer-chasing leaves, whose cache misses the model does not see)",
    },
    Analog {
        workload: "uts",
        shape: Shape::Irregular,
        why: "an unbalanced random tree; the model's irregular DAG (exponentially spaced forks) \
              at its default size, with uts's time per fork",
    },
    Analog {
        workload: "nqueens",
        shape: Shape::Nqueens,
        why: "a random-branching tree spawned in a loop per node; the model's tree at its \
              default branching and depth, with nqueens's time per fork",
    },
    Analog {
        workload: "listwalk",
        shape: Shape::ListWalk,
        why: "join(walk(next), process(node)) over a list: the model's list walk, one fork \
              per element",
    },
    Analog {
        workload: "spine",
        shape: Shape::ListWalk,
        why: "a chain of joins with a cheap second side: a list walk with short leaves",
    },
    Analog {
        workload: "spawnloop",
        shape: Shape::SpawnBurst,
        why: "one task spawns equal tasks in a loop and waits: exactly the spawn burst",
    },
    Analog {
        workload: "spawnjoin",
        shape: Shape::SpawnBurst,
        why: "a few spawns then join(big, big): a spawn burst of the same task count, whose \
              equal leaves stand for unequal ones (the model overrates its balance)",
    },
    Analog {
        workload: "spawnparfor",
        shape: Shape::SpawnBurst,
        why: "a few spawns then a par_for: a spawn burst of as many tasks as the par_for made \
              at 2 threads; a flat burst, not the par_for's halving tree",
    },
];

/// The policies the model runs, each with the bench scheduler it is compared with. The
/// measured `asym` ran the heavy fence on every steal ([`Policy::Asym`]);
/// `asym-answered` ([`Policy::AsymAnswered`], its owners answering claims) has no
/// measurement yet.
pub const MODEL_POLICIES: [(Policy, &str); 5] = [
    (Policy::Asym, "asym"),
    (Policy::AsymAnswered, "asym-answered"),
    (Policy::LcwsSignal, "lcws-signal"),
    (Policy::ChaseLev, "chase-lev"),
    (Policy::ChaseLev, "rayon"),
];

/// The policies simulated, in the order their seed streams were given: a policy added
/// later takes streams after those of the earlier ones, so that adding it leaves their
/// runs as they were.
pub const SIMULATED_POLICIES: [Policy; 4] = [
    Policy::Asym,
    Policy::LcwsSignal,
    Policy::ChaseLev,
    Policy::AsymAnswered,
];

/// The seed stream of workload `w` of `workloads` under policy number `a` of
/// [`SIMULATED_POLICIES`]: the first three policies' streams as they were when they were
/// the only ones (`w × 3 + a`), then the others'.
#[doc(hidden)]
pub fn seed_stream(w: usize, a: usize, workloads: usize) -> usize {
    const FIRST: usize = 3;
    if a < FIRST {
        w * FIRST + a
    } else {
        workloads * FIRST + w * (SIMULATED_POLICIES.len() - FIRST) + (a - FIRST)
    }
}

/// The measured run a scaling report compares with: the suite's records, and the facts of
/// its run (command, date, machine) as results.json gives them.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The `suite` experiment's records.
    pub records: Vec<Record>,
    /// `run.command`, `run.date`, `run.machine` of results.json (empty where absent).
    pub run: MeasuredRun,
}

/// The facts of the measured run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasuredRun {
    /// The command that ran the suite.
    #[serde(default)]
    pub command: String,
    /// When it ran.
    #[serde(default)]
    pub date: String,
    /// The machine it ran on.
    #[serde(default)]
    pub machine: String,
}

/// Reads the suite's records from a `results.json` written by `splitsteal bench` (parsed as
/// the bench's own [`Record`]s). Errors name the file: unreadable, not a results.json, or
/// without suite records.
pub fn load(path: &Path) -> Result<Measured, String> {
    let text = splitsteal_report::out_dir::read_to_string(path).map_err(|e| e.to_string())?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// [`load`] on the text of a results.json.
pub fn parse(text: &str) -> Result<Measured, String> {
    #[derive(Deserialize)]
    struct Saved {
        #[serde(default)]
        run: MeasuredRun,
        records: Vec<Record>,
    }
    let saved: Saved = serde_json::from_str(text)
        .map_err(|e| format!("not a results.json written by splitsteal bench: {e}"))?;
    let records: Vec<Record> = saved
        .records
        .into_iter()
        .filter(|r| r.experiment == "suite")
        .collect();
    if records.is_empty() {
        return Err("no suite records (run `splitsteal bench` with the suite mode)".into());
    }
    Ok(Measured {
        records,
        run: saved.run,
    })
}

/// The inputs of one `sim scaling` run besides the measurement.
#[derive(Debug, Clone, Serialize)]
pub struct ScalingExperiment {
    /// Processor counts of the predictions (P = 1 and 2 are simulated in any case).
    pub procs: Vec<usize>,
    /// Runs per (workload, policy, P) cell.
    pub runs: usize,
    /// Base seed.
    pub seed: u64,
    /// Largest fork depth of a `fib`-shaped model DAG (`3·2^d − 2` nodes).
    pub max_fib_depth: u32,
    /// Units of a leaf of the list-walk and spawn-burst shapes: how much longer a leaf is
    /// than a walk or spawn step.
    pub leaf_units: u32,
    /// Largest `irregular` or `nqueens` model DAG (nodes) when deepening it toward the
    /// workload's fork count.
    pub max_random_nodes: usize,
    /// The costs, but `node_ns`, which each workload's calibration sets.
    pub costs: Costs,
}

/// How much deeper each step of sizing an `irregular` model DAG goes (nodes of depth).
pub const IRREGULAR_DEPTH_STEP: u32 = 10;

impl Default for ScalingExperiment {
    fn default() -> Self {
        ScalingExperiment {
            procs: vec![2, 4, 8, 16, 64, 256],
            runs: 5,
            seed: 1,
            max_fib_depth: 20,
            leaf_units: 1000,
            max_random_nodes: 4_000_000,
            costs: Costs::default(),
        }
    }
}

impl ScalingExperiment {
    /// Checks every value together.
    pub fn validate(&self) -> Result<(), String> {
        if self.procs.is_empty() {
            return Err("need at least one processor count".into());
        }
        if let Some(&p) = self.procs.iter().find(|&&p| p == 0 || p > MAX_PROCS) {
            return Err(format!(
                "processor count must be in 1..={MAX_PROCS}, got {p}"
            ));
        }
        if self.runs == 0 {
            return Err("runs must be at least 1".into());
        }
        if self.max_fib_depth == 0 || self.max_fib_depth > crate::dag::Dag::MAX_REGULAR_DEPTH {
            return Err(format!(
                "the largest fib depth must be in 1..={}, got {}",
                crate::dag::Dag::MAX_REGULAR_DEPTH,
                self.max_fib_depth
            ));
        }
        if self.max_random_nodes == 0 {
            return Err("the largest random DAG must have at least 1 node".into());
        }
        if self.leaf_units == 0 {
            return Err("a leaf must be at least 1 unit".into());
        }
        self.costs.validate()
    }

    /// The processor counts simulated: 1, 2 and `procs`, ascending, once each.
    pub fn simulated_procs(&self) -> Vec<usize> {
        let mut v = vec![1, 2];
        v.extend(&self.procs);
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// How a workload's model was sized and timed.
#[derive(Debug, Clone, Serialize)]
pub struct Calibration {
    /// The workload and its shape.
    pub analog: Analog,
    /// The workload's input, as its serial record describes it.
    pub params: String,
    /// The serial elision's median time (s).
    pub serial_s: f64,
    /// The most jobs a splitsteal policy executed (`stats.tasks`).
    pub tasks: u64,
    /// Forks of the measured run: `tasks − 1` (the root job is not forked), at least 1.
    pub forks: u64,
    /// Serial time per fork (ns).
    pub ns_per_fork: f64,
    /// The model DAG's sizes.
    pub shape_params: ShapeParams,
    /// Forks of the model DAG.
    pub model_forks: u64,
    /// Nodes of the model DAG.
    pub model_nodes: u64,
    /// Work of the model DAG (units).
    pub model_work: u64,
    /// Span of the model DAG (units).
    pub model_span: u64,
    /// One unit of the model (ns): `ns_per_fork × model_forks / model_work`.
    pub node_ns: f64,
}

impl Calibration {
    /// Whether the model DAG forks as often as the measured run.
    pub fn full_size(&self) -> bool {
        self.model_forks == self.forks
    }
}

/// The records of `workload` on `scheduler` with `threads` threads that have times.
fn timed<'a>(
    records: &'a [Record],
    workload: &str,
    scheduler: &str,
    threads: usize,
) -> Option<&'a Record> {
    records.iter().find(|r| {
        r.workload == workload
            && r.scheduler == scheduler
            && r.threads == threads
            && r.verified
            && r.range().is_some()
            && r.median_s.is_some_and(|m| m > 0.0)
    })
}

/// The model DAG's sizes for `analog` with `forks` measured forks: the measured count where
/// the shape can fork that often, else the largest the experiment allows.
pub fn shape_params(analog: &Analog, forks: u64, e: &ScalingExperiment) -> ShapeParams {
    let mut p = ShapeParams {
        leaf_units: e.leaf_units,
        ..ShapeParams::default()
    };
    // No model DAG grows past u32 forks: the counts below are clamped, never wrapped.
    let forks32 = u32::try_from(forks).unwrap_or(u32::MAX).max(1);
    match analog.shape {
        // 2^d − 1 forks: the largest d with 2^d − 1 ≤ forks.
        Shape::Fib => p.fib_depth = (63 - (forks + 1).leading_zeros()).clamp(1, e.max_fib_depth),
        Shape::ListWalk => p.list_len = forks32,
        Shape::SpawnBurst => p.burst_children = forks32,
        Shape::Irregular | Shape::Nqueens => {}
    }
    p.max_nodes = 100_000_000;
    p
}

/// Calibrates the model of `analog` on `records` (see the module doc); `None` if the
/// records hold nothing of that workload. Errors if they hold it without a serial time or
/// without splitsteal's task counts.
pub fn calibrate(
    records: &[Record],
    analog: &Analog,
    e: &ScalingExperiment,
) -> Result<Option<(Calibration, TimedDag)>, String> {
    let w = analog.workload;
    if !records.iter().any(|r| r.workload == w) {
        return Ok(None);
    }
    let serial = timed(records, w, "serial", 1).ok_or_else(|| {
        format!("workload {w} has no verified serial 1-thread time, which calibrates its model")
    })?;
    let serial_s = serial.median_s.unwrap_or_default();
    let tasks = records
        .iter()
        .filter(|r| r.workload == w)
        .filter_map(|r| r.stats.map(|s| s.tasks))
        .max()
        .ok_or_else(|| {
            format!("workload {w} has no splitsteal counters (stats.tasks), which size its model")
        })?;
    let forks = tasks.saturating_sub(1).max(1);
    let seed = run_seed(e.seed ^ 0x5EED, 0, 0);
    let mut shape_params = shape_params(analog, forks, e);
    let mut dag = shape_params
        .build(analog.shape, seed)
        .map_err(|err| format!("{w}: {err}"))?;
    // The random shapes' size is set by a depth: deepen from the default while the DAG
    // forks no more often than the workload and stays within the node budget.
    if analog.shape.is_random() {
        loop {
            let mut deeper = shape_params;
            deeper.max_nodes = e.max_random_nodes;
            match analog.shape {
                Shape::Irregular => deeper.irregular_depth += IRREGULAR_DEPTH_STEP,
                _ => deeper.nqueens_depth += 1,
            }
            if deeper.nqueens_depth > 64 {
                break;
            }
            match deeper.build(analog.shape, seed) {
                // The build itself refuses a DAG over the budget.
                Ok(g) if g.forks() <= forks => {
                    (shape_params, dag) = (deeper, g);
                }
                _ => break,
            }
        }
    }
    let ns_per_fork = serial_s * 1e9 / forks as f64;
    let node_ns = ns_per_fork * dag.forks() as f64 / dag.work() as f64;
    let cal = Calibration {
        analog: *analog,
        params: serial.params.clone(),
        serial_s,
        tasks,
        forks,
        ns_per_fork,
        shape_params,
        model_forks: dag.forks(),
        model_nodes: dag.nodes(),
        model_work: dag.work(),
        model_span: dag.span(),
        node_ns,
    };
    let costs = Costs { node_ns, ..e.costs };
    costs
        .validate()
        .map_err(|err| format!("{w}: its calibrated costs are out of range: {err}"))?;
    Ok(Some((cal, dag)))
}

/// A measured speedup: the ratio of two medians, and the spread the repetitions allow.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// Median over median.
    pub median: f64,
    /// The numerator's fastest repetition over the denominator's slowest.
    pub min: f64,
    /// The numerator's slowest repetition over the denominator's fastest.
    pub max: f64,
}

impl Spread {
    /// `num / den` of two records with times.
    fn of(num: &Record, den: &Record) -> Option<Spread> {
        let (min_n, max_n) = num.range()?;
        let (min_d, max_d) = den.range()?;
        Some(Spread {
            median: num.median_s? / den.median_s?,
            min: min_n / max_d,
            max: max_n / min_d,
        })
    }
}

/// A scheduler's measured 2-thread speedups.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MeasuredSpeedup {
    /// Self-relative: its 1-thread time over its 2-thread time.
    pub self_relative: Spread,
    /// The serial elision's time over its 2-thread time.
    pub over_serial: Option<Spread>,
}

/// `scheduler`'s measured 2-thread speedups on `workload`, if both its 1- and 2-thread
/// cells have verified times.
pub fn measured_speedup(
    records: &[Record],
    workload: &str,
    scheduler: &str,
) -> Option<MeasuredSpeedup> {
    let one = timed(records, workload, scheduler, 1)?;
    let two = timed(records, workload, scheduler, 2)?;
    Some(MeasuredSpeedup {
        self_relative: Spread::of(one, two)?,
        over_serial: timed(records, workload, "serial", 1).and_then(|s| Spread::of(s, two)),
    })
}

/// Whether a prediction agrees with a measurement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Verdict {
    /// The prediction lies inside the measured min–max spread.
    pub agrees: bool,
    /// Prediction / measured median.
    pub factor: f64,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (×{:.2})",
            if self.agrees { "agrees" } else { "disagrees" },
            self.factor
        )
    }
}

/// The verdict on `predicted` against `measured`: agrees when inside `[min, max]`.
pub fn verdict(predicted: f64, measured: &Spread) -> Verdict {
    Verdict {
        agrees: predicted >= measured.min && predicted <= measured.max,
        factor: predicted / measured.median,
    }
}

/// The model's result at one processor count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prediction {
    /// Processors.
    pub procs: usize,
    /// Mean makespan over the runs (units).
    pub makespan: f64,
    /// Mean speedup over the serial elision, `T1 / makespan`.
    pub speedup: f64,
    /// Smallest speedup of a run.
    pub min_speedup: f64,
    /// Largest speedup of a run.
    pub max_speedup: f64,
}

/// One measured scheduler of a workload against its model policy.
#[derive(Debug, Clone, Serialize)]
pub struct SchedulerResult {
    /// The bench scheduler (`asym`, `lcws-signal`, `chase-lev`, `rayon`).
    pub scheduler: String,
    /// The model policy standing for it.
    pub policy: Policy,
    /// Its measured 2-thread speedup, if the records have it.
    pub measured: Option<MeasuredSpeedup>,
    /// The model's self-relative speedup at P = 2: makespan at 1 / makespan at 2.
    pub predicted_self_2: f64,
    /// The verdict on it against the measured self-relative speedup, where there is one.
    pub verdict: Option<Verdict>,
    /// The verdict on the model's speedup over the serial elision at P = 2 against the
    /// measured one, where there is one.
    pub verdict_over_serial: Option<Verdict>,
    /// The model's predictions at every simulated P, ascending.
    pub predictions: Vec<Prediction>,
}

impl SchedulerResult {
    /// The prediction at `procs`, if simulated.
    pub fn at(&self, procs: usize) -> Option<&Prediction> {
        self.predictions.iter().find(|p| p.procs == procs)
    }
}

/// Everything `sim scaling` says about one workload.
#[derive(Debug, Clone, Serialize)]
pub struct WorkloadResult {
    /// How its model was built.
    pub calibration: Calibration,
    /// Per measured scheduler, in [`MODEL_POLICIES`] order.
    pub schedulers: Vec<SchedulerResult>,
}

/// Calibrates every workload of [`ANALOGS`] found in `records`. Errors if none is.
pub fn calibrate_all(
    records: &[Record],
    e: &ScalingExperiment,
) -> Result<Vec<(Calibration, TimedDag)>, String> {
    let mut out = Vec::new();
    for a in &ANALOGS {
        if let Some(c) = calibrate(records, a, e)? {
            out.push(c);
        }
    }
    if out.is_empty() {
        return Err(format!(
            "none of the workloads with a model analog ({}) has suite records",
            ANALOGS.map(|a| a.workload).join(", ")
        ));
    }
    Ok(out)
}

/// Simulations planned for `workloads` calibrated workloads.
pub fn planned_runs(e: &ScalingExperiment, workloads: usize) -> usize {
    // rayon shares chase-lev's simulations.
    workloads * SIMULATED_POLICIES.len() * e.simulated_procs().len() * e.runs
}

/// Simulates every calibrated workload under [`SIMULATED_POLICIES`] at every simulated P,
/// `e.runs` runs each, and sets them beside the measurement.
pub fn run(
    records: &[Record],
    calibrated: &[(Calibration, TimedDag)],
    e: &ScalingExperiment,
    progress: &Progress,
) -> Result<Vec<WorkloadResult>, String> {
    e.validate()?;
    let policies = SIMULATED_POLICIES;
    let procs = e.simulated_procs();
    let (np, nr) = (procs.len(), e.runs);
    let per_workload = policies.len() * np * nr;
    let jobs = calibrated.len() * per_workload;
    let runs = par_map_runs(jobs, |j| {
        let (w, rest) = (j / per_workload, j % per_workload);
        let (a, rest) = (rest / (np * nr), rest % (np * nr));
        let (p, r) = (rest / nr, rest % nr);
        let (cal, dag) = &calibrated[w];
        let costs = Costs {
            node_ns: cal.node_ns,
            ..e.costs
        };
        let config = (seed_stream(w, a, calibrated.len()) * MAX_PROCS + procs[p]) as u64;
        let out = steal_cost::simulate(
            dag,
            policies[a],
            procs[p],
            &costs,
            run_seed(e.seed, config, r as u64),
        );
        progress.inc();
        out
    });
    let mut runs = runs.into_iter();
    let mut results = Vec::with_capacity(calibrated.len());
    for (cal, _) in calibrated {
        let mut by_policy = Vec::with_capacity(policies.len());
        for &policy in &policies {
            let mut preds = Vec::with_capacity(np);
            for &p in &procs {
                let mut speedups = Vec::with_capacity(nr);
                let mut makespan = 0.0;
                for _ in 0..nr {
                    let run = runs
                        .next()
                        .ok_or("internal: fewer simulations than planned")?
                        .map_err(|err| {
                            format!("{}: {policy}, P = {p}: {err}", cal.analog.workload)
                        })?;
                    makespan += run.makespan / nr as f64;
                    speedups.push(run.t1 as f64 / run.makespan);
                }
                preds.push(Prediction {
                    procs: p,
                    makespan,
                    speedup: speedups.iter().sum::<f64>() / nr as f64,
                    min_speedup: speedups.iter().copied().fold(f64::INFINITY, f64::min),
                    max_speedup: speedups.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                });
            }
            by_policy.push((policy, preds));
        }
        let schedulers = MODEL_POLICIES
            .iter()
            .map(|&(policy, scheduler)| {
                let preds = by_policy
                    .iter()
                    .find(|(p, _)| *p == policy)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default();
                let makespan_at = |procs: usize| {
                    preds
                        .iter()
                        .find(|x| x.procs == procs)
                        .map_or(f64::NAN, |x| x.makespan)
                };
                let predicted_self_2 = makespan_at(1) / makespan_at(2);
                let measured = measured_speedup(records, cal.analog.workload, scheduler);
                SchedulerResult {
                    scheduler: scheduler.to_string(),
                    policy,
                    measured,
                    predicted_self_2,
                    verdict: measured.map(|m| verdict(predicted_self_2, &m.self_relative)),
                    verdict_over_serial: measured.and_then(|m| {
                        let at_2 = preds.iter().find(|x| x.procs == 2)?.speedup;
                        Some(verdict(at_2, &m.over_serial?))
                    }),
                    predictions: preds,
                }
            })
            .collect();
        results.push(WorkloadResult {
            calibration: cal.clone(),
            schedulers,
        });
    }
    Ok(results)
}

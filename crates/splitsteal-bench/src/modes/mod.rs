//! The experiments (`--mode`): each produces records, tables and plots.
//!
//! | mode | what | paper |
//! |---|---|---|
//! | `suite` | every workload × scheduler at 1 and 2 threads | low-latency thesis, §4.2.1; LCWS-in-practice paper, §5 |
//! | `iter` | rayon-style parallel-iterator programs, one source on splitsteal's prelude and on rayon's, 1 and 2 threads: ×rayon = splitsteal's time ÷ rayon's | rayon's API |
//! | `syncops` | CAS, fences, steals, exposures, signals per policy on the suite | LCWS-in-practice paper, Figs. 3 and 8 |
//! | `scaling` | `fib(n)`, n = 16..32, 2 workers: CAS+fences against n | LCWS paper, Fig. 2a |
//! | `latency` | start delays of N spawned tasks on 2 workers, 100 runs | low-latency thesis, §4.2.2 |
//! | `multiprogram` | 2/4/8 workers on 2 cores, and 2 workers + a CPU hog, against T1/P_A; 2 workers on 1 CPU against their own 1-worker time | ABP paper (§4.4) |
//! | `mailbox` | one consumer, 1/2/4 producers: ns per message through splitsteal's mailbox, a `Mutex<VecDeque>`, crossbeam's channel, `SegQueue`, `ArrayQueue` | low-latency thesis, §4.4 |
//! | `cache` | L1 and last-level misses per task and per steal of each deque, simulated by cachegrind | low-latency thesis, §4.3.1 |
//! | `pbbs` | the PBBS benchmarks on PBBS-format input files (generated, or `--pbbs-dir`), 1 and 2 threads: best policy, lcws-signal, rayon's own API, serial; PBBS's checkers | LCWS-in-practice paper, §5 |
//! | `runtimes` | the tzcnt/runtime-benchmarks programs (fib, skynet, nqueens, matmul) on splitsteal, rayon, chili and forte, 1 and 2 threads: medians and the suite's mean ratio to best | tzcnt/runtime-benchmarks |

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use clap::ValueEnum;

use crate::report::{Record, Table};
use crate::runner::{Progress, Watchdog};
use crate::sched::{PoolOptions, SchedulerKind};
use crate::workloads::{Size, WorkloadSpec};

pub mod cache;
pub mod iter;
pub mod latency;
pub mod mailbox;
pub mod multiprogram;
pub mod pbbs;
pub mod runtimes;
pub mod scaling;
pub mod suite;
pub mod syncops;

/// An experiment. `--mode` also takes `all` ([`crate::cli::ModeArg`]), which is a
/// selection of these, not an experiment of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ValueEnum)]
pub enum Mode {
    /// Every workload, every scheduler, 1 and 2 threads: medians, speedups, ratio to rayon.
    Suite,
    /// Parallel iterators: the same rayon-style programs on splitsteal's prelude and rayon's, 1 and 2 threads.
    Iter,
    /// CAS, fences, heavy fences, steals, exposures and signals per policy on the suite (LCWS-in-practice paper's profiles).
    Syncops,
    /// fib(n), n = 16..32 on 2 workers: CAS+fences against n (LCWS paper: work vs span).
    Scaling,
    /// Start latency of N = 2, 8, 32, 128 spawned tasks on 2 workers, 100 runs.
    Latency,
    /// 2, 4, 8 workers, and 2 against a CPU hog: T vs T1/P_A (ABP paper); 2 workers on 1 CPU vs 1 worker.
    Multiprogram,
    /// One consumer, 1, 2, 4 producers: splitsteal's mailbox against a locked queue and crossbeam's MPMC queues.
    Mailbox,
    /// Cache misses per task and per steal of each deque, SIMULATED by cachegrind (valgrind).
    Cache,
    /// PBBS benchmarks on PBBS-format inputs (--pbbs-dir, or generated): best policy, lcws-signal, rayon's API, serial.
    Pbbs,
    /// tzcnt/runtime-benchmarks' fib, skynet, nqueens, matmul on splitsteal, rayon, chili, forte: mean ratio to best.
    Runtimes,
}

/// What a mode is: its name, the runs it plans and how it runs.
struct Spec {
    /// The `--mode` value.
    name: &'static str,
    /// The timed runs it will make (for the progress bar), given every mode selected.
    planned_runs: fn(&Env, &[Mode]) -> u64,
    /// Runs it, given the outputs of the modes that ran before it.
    run: fn(&Env, &[(Mode, ModeOutput)]) -> ModeOutput,
    /// The `--workload` names it runs given the selection, or `None` if it ignores
    /// `--workload` (its inputs are its own: `fib(n)`, `spawn-N`).
    workloads: fn(&Env) -> Option<Vec<&'static str>>,
}

fn names(specs: Vec<WorkloadSpec>) -> Option<Vec<&'static str>> {
    Some(specs.into_iter().map(|s| s.name).collect())
}

impl Mode {
    /// Every mode, in run order (the declaration order: the suite runs before syncops,
    /// which reads its records).
    pub fn all() -> &'static [Mode] {
        Mode::value_variants()
    }

    /// The one place that maps a mode to its name and behaviour.
    fn spec(self) -> Spec {
        match self {
            Mode::Suite => Spec {
                name: "suite",
                planned_runs: |env, _| suite::planned_runs(env),
                run: |env, _| suite::run(env),
                workloads: |env| names(env.workloads_or(&[])),
            },
            Mode::Iter => Spec {
                name: "iter",
                planned_runs: |env, _| iter::planned_runs(env),
                run: |env, _| iter::run(env),
                workloads: |env| names(iter::programs(env)),
            },
            // With the suite selected, syncops reads the suite's records: no runs of its own.
            Mode::Syncops => Spec {
                name: "syncops",
                planned_runs: |env, selected| {
                    if selected.contains(&Mode::Suite) {
                        0
                    } else {
                        syncops::planned_runs(env)
                    }
                },
                run: |env, earlier| {
                    let suite = output_of(earlier, Mode::Suite).map(|o| o.records.as_slice());
                    syncops::run(env, suite)
                },
                workloads: |env| names(env.workloads_or(&[])),
            },
            Mode::Scaling => Spec {
                name: "scaling",
                planned_runs: |env, _| scaling::planned_runs(env),
                run: |env, _| scaling::run(env),
                workloads: |_| None,
            },
            Mode::Latency => Spec {
                name: "latency",
                planned_runs: |env, _| latency::planned_runs(env),
                run: |env, _| latency::run(env),
                workloads: |_| None,
            },
            Mode::Multiprogram => Spec {
                name: "multiprogram",
                planned_runs: |env, _| multiprogram::planned_runs(env),
                run: |env, _| multiprogram::run(env),
                workloads: |env| {
                    let mut v = names(env.workloads_or(&multiprogram::WORKLOADS))?;
                    for n in names(env.workloads_or(&multiprogram::ONE_CPU_WORKLOADS))? {
                        if !v.contains(&n) {
                            v.push(n);
                        }
                    }
                    Some(v)
                },
            },
            Mode::Mailbox => Spec {
                name: "mailbox",
                planned_runs: |env, _| mailbox::planned_runs(env),
                run: |env, _| mailbox::run(env),
                workloads: |_| None,
            },
            Mode::Cache => Spec {
                name: "cache",
                planned_runs: |env, _| cache::planned_runs(env),
                run: |env, _| cache::run(env),
                workloads: |env| Some(cache::workloads(env)),
            },
            Mode::Pbbs => Spec {
                name: "pbbs",
                planned_runs: |env, _| pbbs::planned_runs(env),
                run: |env, _| pbbs::run(env),
                workloads: |_| None,
            },
            // Its programs are its own (fib, skynet, nqueens, matmul at the suite's sizes).
            Mode::Runtimes => Spec {
                name: "runtimes",
                planned_runs: |env, _| runtimes::planned_runs(env),
                run: |env, _| runtimes::run(env),
                workloads: |env| Some(runtimes::programs(env).iter().map(|p| p.name()).collect()),
            },
        }
    }

    /// The mode's name.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The timed runs the mode will make when `selected` (which includes it) run together.
    pub fn planned_runs(self, env: &Env, selected: &[Mode]) -> u64 {
        (self.spec().planned_runs)(env, selected)
    }

    /// The `--workload` names the mode runs with `env`'s selection, or `None` if it
    /// ignores `--workload`.
    pub fn workloads(self, env: &Env) -> Option<Vec<&'static str>> {
        (self.spec().workloads)(env)
    }

    /// The mode's tables made from `records` alone: for a mode stopped before it
    /// completed, the tables of its finished workloads. Empty for pbbs, whose tables need
    /// the input files' descriptions.
    pub fn tables(self, records: &[Record]) -> Vec<Table> {
        match self {
            Mode::Suite => suite::tables(records),
            Mode::Iter => iter::tables(records),
            Mode::Syncops => syncops::tables(records),
            Mode::Scaling => scaling::tables(records),
            Mode::Latency => latency::tables(records),
            Mode::Multiprogram => multiprogram::tables(records),
            Mode::Mailbox => mailbox::tables(records),
            Mode::Cache => cache::tables(records),
            Mode::Pbbs => Vec::new(),
            Mode::Runtimes => runtimes::tables(records),
        }
    }

    /// Runs the mode; `earlier` are the outputs of the modes that ran before it.
    pub fn run(self, env: &Env, earlier: &[(Mode, ModeOutput)]) -> ModeOutput {
        (self.spec().run)(env, earlier)
    }
}

/// The output of `mode` among `outputs`, if it ran.
pub fn output_of(outputs: &[(Mode, ModeOutput)], mode: Mode) -> Option<&ModeOutput> {
    outputs.iter().find(|(m, _)| *m == mode).map(|(_, o)| o)
}

/// A plot file with its caption.
#[derive(Debug, Clone)]
pub struct Plot {
    /// File name inside the output folder.
    pub file: String,
    /// Caption.
    pub caption: String,
    /// What the plot leaves out and why (shown under it).
    pub notes: Vec<String>,
}

/// What an experiment produced.
#[derive(Debug, Clone, Default)]
pub struct ModeOutput {
    /// Records (also written to `results.json`).
    pub records: Vec<Record>,
    /// Tables, printed and written to `tables.md` / `index.html`.
    pub tables: Vec<Table>,
    /// Plots written to the output folder.
    pub plots: Vec<Plot>,
    /// Remarks shown with the tables.
    pub notes: Vec<String>,
    /// The machine's load while the mode ran (set by the caller that timed it).
    pub load: Option<crate::load::SectionLoad>,
}

/// What every experiment needs: options, the output folder, the progress bar.
pub struct Env {
    /// Input size class.
    pub size: Size,
    /// Input seed.
    pub seed: u64,
    /// `--reps`, if given.
    pub reps: Option<usize>,
    /// Warm-up runs per cell.
    pub warmup: usize,
    /// `--workload`, if given.
    pub workloads: Option<Vec<String>>,
    /// The schedulers to run.
    pub kinds: Vec<SchedulerKind>,
    /// `--threads`, if given.
    pub threads: Option<Vec<usize>>,
    /// Options of the splitsteal pools.
    pub pool_options: PoolOptions,
    /// Output folder (plots are written there as the experiments run).
    pub out: PathBuf,
    /// The progress bar.
    pub progress: Progress,
    /// The hung-run watchdog.
    pub watchdog: Watchdog,
    /// Every record so far (the partial report of an interrupted or timed-out run).
    pub partial: Arc<Mutex<Vec<Record>>>,
    /// The pbbs mode's inputs: `--pbbs-dir`, `--pbbs-n`.
    pub pbbs: pbbs::Source,
}

impl Env {
    /// The selected workloads among `default` (names from the registry), in registry
    /// order; `--workload` overrides the default list.
    pub fn workloads_or(&self, default: &[&str]) -> Vec<WorkloadSpec> {
        let all = crate::workloads::registry();
        match &self.workloads {
            Some(sel) => all
                .into_iter()
                .filter(|s| sel.iter().any(|n| n.eq_ignore_ascii_case(s.name)))
                .collect(),
            None if default.is_empty() => all,
            None => all
                .into_iter()
                .filter(|s| default.contains(&s.name))
                .collect(),
        }
    }

    /// `--threads` or the default.
    pub fn threads_or(&self, default: &[usize]) -> Vec<usize> {
        self.threads.clone().unwrap_or_else(|| default.to_vec())
    }

    /// `--reps` or the default for the size (test, quick, full).
    pub fn reps_or(&self, test: usize, quick: usize, full: usize) -> usize {
        self.reps
            .unwrap_or_else(|| self.size.pick(test, quick, full))
    }

    /// Keeps a copy of a finished workload's `records` for a partial report, and reports
    /// the progress (a line per workload when stderr is not a terminal).
    pub fn save_partial(&self, records: &[Record]) {
        if let Ok(mut p) = self.partial.lock() {
            p.extend_from_slice(records);
        }
        if let Some(r) = records.first() {
            self.progress.workload_done(&r.workload);
        }
    }

    /// A path in the output folder.
    pub fn path(&self, file: &str) -> PathBuf {
        self.out.join(file)
    }

    /// Draws a plot, reporting (not propagating) a failure: a plot must not lose the data.
    pub fn plot(
        &self,
        plots: &mut Vec<Plot>,
        notes: &mut Vec<String>,
        file: &str,
        caption: &str,
        draw: impl FnOnce(&std::path::Path) -> crate::plot::PlotResult,
    ) {
        match draw(&self.path(file)) {
            Ok(()) => plots.push(Plot {
                file: file.into(),
                caption: caption.into(),
                notes: Vec::new(),
            }),
            Err(e) => notes.push(format!("plot {file} failed: {e}")),
        }
    }

    /// The non-serial schedulers selected.
    pub fn parallel_kinds(&self) -> Vec<SchedulerKind> {
        self.kinds
            .iter()
            .copied()
            .filter(|k| *k != SchedulerKind::Serial)
            .collect()
    }
}

/// Scheduler names in report order among those present in `records`.
pub fn scheduler_order(records: &[Record]) -> Vec<String> {
    SchedulerKind::all()
        .iter()
        .map(|k| k.name().to_string())
        .filter(|n| records.iter().any(|r| &r.scheduler == n))
        .collect()
}

/// Workload names in first-appearance order.
pub fn workload_order(records: &[Record]) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in records {
        if !v.contains(&r.workload) {
            v.push(r.workload.clone());
        }
    }
    v
}

//! `splitsteal bench`: the command line of the suite.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};

use splitsteal_report::out_dir::{self, PathError};
use splitsteal_report::{say, tell, Exit, ExitError};

use crate::html::{self, RunInfo};
use crate::modes::{self, runtimes, Env, Mode, ModeOutput};
use crate::report::{fmt_secs, write_atomic, write_results, Record, RunMeta};
use crate::runner::{Progress, Watchdog};
use crate::sched::{PoolOptions, SchedulerKind};
use crate::workloads::{self, Size};

const AFTER_HELP: &str = "\
Without options, runs the full suite (every workload, every scheduler, 1 and 2 threads)
and the iter section (parallel iterators, splitsteal's default policy against rayon) and
writes bench-report/: about 9 minutes on 2 quiet cores (553 s on 2026-11-29), --quick
about 80 s, and --mode all (every experiment of the papers) longer; a busy machine
stretches these (the README's run times are the measured ones). The report records the machine's load during each section. A run whose output fails verification is reported
FAILED and makes the exit status 1.

Examples:
  splitsteal bench --quick
  splitsteal bench --mode all --quick
  splitsteal bench --workload fib,cilksort --policy rayon,chili --threads 2 --reps 10
  splitsteal bench --mode latency,scaling
  splitsteal bench --mode runtimes --quick   (tzcnt/runtime-benchmarks: splitsteal, rayon, chili, forte)
  splitsteal bench --list
  splitsteal bench --gen-pbbs pbbs-10M && splitsteal bench --pbbs-dir pbbs-10M   (PBBS 10^7 table)

Output (--out, default bench-report/): results.json ({\"run\": command, revision, machine,
date, seed, size, settings, partial, load (per section: load average at its start and end,
other processes' CPU, high); \"records\": one per experiment × workload × scheduler ×
threads: median_s, min_s, max_s, reps, verified, stats, speedup, vs_rayon (this time ÷
rayon's, below 1 faster), ...}), results.csv (the records), tables.md, SVG plots and
index.html. Plots an earlier run left in --out and this one did not draw are removed. An
interrupt before any workload finished writes nothing, and removes --out if this run
created it.

Progress: a bar with an ETA on a terminal; otherwise (a log, CI) a line per finished
workload: [mode] workload: runs done/planned, elapsed, ETA.

Exit status:
  0    every run verified, report written
  1    a cell FAILED (wrong output, or its pool could not be built), so the target
       \"every run verified\" failed; or a report file could not be written
  2    bad values, rejected before anything ran (--threads above the pools' maximum,
       a --workload no selected mode runs, a --mode left with nothing to run, an
       --out that cannot be written); clap's usage errors are 2 as well
  124  a run hung past --timeout: the finished workloads are written as a partial report
  130  interrupted (SIGINT, SIGTERM, SIGHUP): the finished workloads are written as a
       partial report (\"partial\" in results.json, PARTIAL in index.html); an earlier
       report in --out is left alone if no workload had finished
A closed stdout (| head) does not stop the run: the report is still written.

Method: inputs generated from --seed; one warm-up run per cell (--warmup), then --reps
rounds, each running every scheduler once in a rotated order; every output is checked
against a serial reference, and a wrong result is reported FAILED and never timed.";

/// Options of `splitsteal bench`.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = AFTER_HELP)]
pub struct BenchArgs {
    /// Experiments to run, comma-separated: suite, iter, syncops, scaling, latency,
    /// multiprogram, mailbox, cache, pbbs, runtimes, or all (default: suite,iter; pbbs with
    /// --pbbs-dir). A mode named here that the
    /// --workload and --policy selection leaves with nothing to run is an error.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "MODE,...")]
    pub mode: Vec<ModeArg>,

    /// Small inputs and fewer repetitions: suite and iter section in 31 s on 2 CPUs (measured
    /// with other processes keeping one busy).
    #[arg(long)]
    pub quick: bool,

    /// Workloads to run, comma-separated (default: every workload of the mode; see --list).
    #[arg(long, value_delimiter = ',', value_parser = parse_workload, value_name = "NAME,...")]
    pub workload: Vec<String>,

    /// Schedulers to run, comma-separated: policy names, rayon, chili, serial (default:
    /// all).
    #[arg(long, value_delimiter = ',', value_parser = parse_scheduler, value_name = "NAME,...")]
    pub policy: Vec<SchedulerKind>,

    /// Worker-thread counts, comma-separated (default: 1,2 for suite; 2 for syncops,
    /// scaling and latency; 2,4,8 for multiprogram). A count above 4 times the CPUs gets a
    /// warning (the run still starts): its workers mostly wait for a CPU, so such a run is
    /// slow and measures the oversubscription.
    #[arg(long, value_delimiter = ',', value_parser = parse_positive, value_name = "N,...")]
    pub threads: Vec<usize>,

    /// Timed repetitions per cell (default: suite 5, quick 3; latency 100 runs).
    #[arg(long, value_parser = parse_positive, value_name = "N")]
    pub reps: Option<usize>,

    /// Untimed (but verified) warm-up runs per cell.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub warmup: usize,

    /// Output folder.
    #[arg(long, default_value = "bench-report", value_name = "DIR")]
    pub out: PathBuf,

    /// Write PBBS's standard inputs (randomSeq_10M_int, rMatGraph_J_5_10M, ...: PBBS's file
    /// names and text formats) into DIR at --pbbs-n elements, then exit.
    #[arg(long, value_name = "DIR")]
    pub gen_pbbs: Option<PathBuf>,

    /// Run the PBBS workloads (the pbbs mode) on the PBBS-format files in DIR, recognised
    /// by PBBS's file names and headers; other files are listed and skipped. Without
    /// --mode, runs the pbbs mode alone.
    #[arg(long, value_name = "DIR")]
    pub pbbs_dir: Option<PathBuf>,

    /// Elements per input for --gen-pbbs (default 10000000, PBBS's 10M) and for the pbbs
    /// mode's generated inputs (default: by size, see --list).
    #[arg(long, value_parser = parse_positive, value_name = "N")]
    pub pbbs_n: Option<usize>,

    /// The cache mode's child run (WORKLOAD:SCHEDULER:THREADS), started under valgrind.
    #[arg(long, hide = true, value_name = "WORKLOAD:SCHEDULER:THREADS")]
    pub cache_child: Option<String>,

    /// List modes, workloads (with input sizes) and schedulers, then exit.
    #[arg(long)]
    pub list: bool,

    /// Seed of the generated inputs, decimal or hexadecimal (0x...).
    #[arg(long, default_value = "0x5eed", value_parser = parse_seed, value_name = "SEED")]
    pub seed: u64,

    /// Abort (writing partial results, exit status 124) if a single run takes longer than
    /// this (seconds); 0: no limit.
    #[arg(long, default_value_t = 300, value_name = "SECS")]
    pub timeout: u64,

    /// Also replace the section between `<!-- bench-report:start -->` and
    /// `<!-- bench-report:end -->` of this Markdown file with the suite tables and plot
    /// links (the project keeps its latest suite run in docs/results/suite.md).
    #[arg(long, value_name = "README")]
    pub update_readme: Option<PathBuf>,
}

/// A `--mode` value: one experiment, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeArg {
    /// One experiment.
    One(Mode),
    /// Every experiment, in run order.
    All,
}

impl ValueEnum for ModeArg {
    fn value_variants<'a>() -> &'a [Self] {
        static VARIANTS: OnceLock<Vec<ModeArg>> = OnceLock::new();
        VARIANTS.get_or_init(|| {
            let one = Mode::all().iter().map(|&m| ModeArg::One(m));
            one.chain([ModeArg::All]).collect()
        })
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        match self {
            ModeArg::One(m) => m.to_possible_value(),
            ModeArg::All => Some(
                PossibleValue::new("all")
                    .help("All of the above (syncops reuses the suite's runs)"),
            ),
        }
    }
}

fn parse_workload(s: &str) -> Result<String, String> {
    // The runtimes mode's programs, then the suite's and the iter section's workloads.
    let t = s.trim();
    let programs = runtimes::program_names();
    if let Some(p) = programs.iter().find(|p| p.eq_ignore_ascii_case(t)) {
        return Ok(p.to_string());
    }
    workloads::find(s)
        .map(|w| w.name.to_string())
        .map_err(|e| format!("{e}; and the runtimes mode's: {}", programs.join(", ")))
}

fn parse_scheduler(s: &str) -> Result<SchedulerKind, String> {
    s.parse()
}

/// `--seed`: decimal (`24301`) or hexadecimal (`0x5eed`), the form the reports print.
fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => t.parse::<u64>(),
    };
    r.map_err(|_| format!("`{s}` is not a seed (a decimal or 0x-hexadecimal integer)"))
}

/// Thread counts above this many times the CPUs get a warning.
pub const OVERSUBSCRIBED: usize = 4;

/// The warning for `--threads` counts above [`OVERSUBSCRIBED`] times `cpus`, if any.
#[doc(hidden)]
pub fn oversubscription_warning(threads: &[usize], cpus: usize) -> Option<String> {
    let t = threads.iter().copied().max()?;
    (t > OVERSUBSCRIBED * cpus).then(|| {
        format!(
            "warning: --threads {t} is more than {OVERSUBSCRIBED}× the {cpus} CPU(s): the workers mostly wait for a \
             CPU, so the run is slow and measures oversubscription, not the schedulers"
        )
    })
}

fn parse_positive(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("`{s}` is not a positive integer")),
    }
}

/// `--list`.
pub fn list() -> String {
    use std::fmt::Write as _;
    let mut s = String::from("Modes (--mode):\n");
    for p in ModeArg::value_variants()
        .iter()
        .filter_map(ModeArg::to_possible_value)
    {
        let help = p.get_help().map(|h| h.to_string()).unwrap_or_default();
        let _ = writeln!(s, "  {:<13} {help}", p.get_name());
    }
    s.push_str("\nWorkloads (--workload): name [group]: quick input | full input\n");
    for w in workloads::registry() {
        let _ = writeln!(
            s,
            "  {:<10} [{}] {}\n             quick: {} | full: {}",
            w.name,
            w.group.label(),
            w.description,
            (w.params)(Size::Quick),
            (w.params)(Size::Full)
        );
    }
    s.push_str(
        "\nParallel-iterator programs of the iter section (--workload; rayon and splitsteal pools only):\n",
    );
    for w in crate::par_iter::programs() {
        let _ = writeln!(
            s,
            "  {:<12} [{}] {}\n             quick: {} | full: {}",
            w.name,
            w.group.label(),
            w.description,
            (w.params)(Size::Quick),
            (w.params)(Size::Full)
        );
    }
    let _ = writeln!(
        s,
        "\nPrograms of the runtimes mode (--workload): {} (see --mode's help)",
        runtimes::program_names().join(", ")
    );
    s.push_str("\nSchedulers (--policy):\n");
    for k in SchedulerKind::all() {
        let _ = writeln!(s, "  {}", k.name());
    }
    s
}

/// The schedulers selected by `--policy` (default: all), in report order, without
/// duplicates.
pub fn select_schedulers(sel: &[SchedulerKind]) -> Vec<SchedulerKind> {
    SchedulerKind::all()
        .into_iter()
        .filter(|k| sel.is_empty() || sel.contains(k))
        .collect()
}

/// The experiments selected by `--mode`, in run order.
#[doc(hidden)]
pub fn concrete_modes(sel: &[ModeArg]) -> Vec<Mode> {
    let all = sel.contains(&ModeArg::All);
    Mode::all()
        .iter()
        .copied()
        .filter(|&m| all || sel.contains(&ModeArg::One(m)))
        .collect()
}

/// The modes run when `--mode` is not given.
const DEFAULT_MODES: [ModeArg; 2] = [ModeArg::One(Mode::Suite), ModeArg::One(Mode::Iter)];

/// The `--mode` selection, or the default one.
#[doc(hidden)]
pub fn selected_modes(sel: &[ModeArg]) -> Vec<Mode> {
    if sel.is_empty() {
        concrete_modes(&DEFAULT_MODES)
    } else {
        concrete_modes(sel)
    }
}

/// Checks the values that pass clap but cannot run, before anything runs, and returns the
/// modes to run. A mode left with nothing to run by `--workload`/`--policy` is an error
/// when `--mode` named it, and is skipped (with a line saying so) when it is only a default.
#[doc(hidden)]
pub fn plan(args: &BenchArgs, env: &Env) -> Result<Vec<Mode>, ExitError> {
    // The splitsteal pools' own limit (ThreadPoolBuilder rejects more): the suite compares
    // every scheduler at the same thread counts.
    let max = splitsteal::max_num_threads();
    if let Some(t) = args.threads.iter().find(|&&t| t > max) {
        return Err(ExitError::usage(format!(
            "--threads {t}: a pool has at most {max} worker threads"
        )));
    }
    if let Some(w) = oversubscription_warning(&args.threads, crate::load::cpus()) {
        tell!("{w}");
    }
    // --pbbs-dir alone asks for the pbbs mode alone.
    let pbbs_only = args.mode.is_empty() && args.pbbs_dir.is_some();
    let explicit = !args.mode.is_empty() || pbbs_only;
    let selected = if pbbs_only {
        vec![Mode::Pbbs]
    } else {
        selected_modes(&args.mode)
    };
    if selected.contains(&Mode::Pbbs) {
        // Before planning: the runs it plans are the files it loaded, and a malformed
        // file is an error before anything runs.
        modes::pbbs::prepare(env).map_err(ExitError::usage)?;
    } else if let Some(d) = &args.pbbs_dir {
        return Err(ExitError::usage(format!(
            "--pbbs-dir {}: the pbbs mode is not among the selected modes",
            d.display()
        )));
    }
    let mut modes = Vec::new();
    for &m in &selected {
        // With the suite, syncops reads the suite's records instead of running its own.
        let reads_suite = m == Mode::Syncops && selected.contains(&Mode::Suite);
        if reads_suite || m.planned_runs(env, &selected) > 0 {
            modes.push(m);
            continue;
        }
        let why = match m.workloads(env) {
            Some(w) if w.is_empty() => format!(
                "none of its workloads is among --workload {}",
                args.workload.join(",")
            ),
            _ => "none of its schedulers is among --policy".to_string(),
        };
        if explicit {
            return Err(ExitError::usage(format!(
                "--mode {}: nothing to run ({why}; see --list)",
                m.name()
            )));
        }
        tell!("{}: skipped, {why}", m.name());
    }
    if modes.is_empty() {
        return Err(ExitError::usage(
            "nothing to run with this --workload/--policy selection (see --list)",
        ));
    }
    for w in &args.workload {
        let runs_it = |m: &Mode| m.workloads(env).is_some_and(|v| v.contains(&w.as_str()));
        if !modes.iter().any(runs_it) {
            let names: Vec<&str> = modes.iter().map(|m| m.name()).collect();
            return Err(ExitError::usage(format!(
                "--workload {w}: not run by the selected mode(s) {} (see --list)",
                names.join(", ")
            )));
        }
    }
    Ok(modes)
}

/// What an interrupted or timed-out run can still write: the records finished so far, the
/// outputs of the modes that completed, and whether the full report is already written.
struct Salvage {
    out: PathBuf,
    /// This run created `out`: an interrupt before anything is written removes it again
    /// (if still empty), rather than leave an empty folder behind.
    created_out: bool,
    info: RunInfo,
    seed: u64,
    size: String,
    /// Every finished workload's records ([`Env::partial`]).
    records: Arc<Mutex<Vec<Record>>>,
    progress: Progress,
    state: Mutex<SalvageState>,
}

#[derive(Default)]
struct SalvageState {
    /// The completed modes' outputs.
    done: Vec<(Mode, ModeOutput)>,
    /// How many of `records` the completed modes had saved.
    done_records: usize,
    /// The mode running, and the machine's load when it started.
    current: Option<(Mode, crate::load::Sample)>,
    /// A report (full or partial) is written: nothing may overwrite it any more.
    written: bool,
}

impl Salvage {
    fn state(&self) -> std::sync::MutexGuard<'_, SalvageState> {
        // A panic while the lock was held leaves the state usable: keep the records.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn begin(&self, m: Mode, start: crate::load::Sample) {
        self.state().current = Some((m, start));
    }

    fn completed(&self, m: Mode, out: &ModeOutput) {
        let n = self.records.lock().map(|r| r.len()).unwrap_or(0);
        let mut st = self.state();
        st.done.push((m, out.clone()));
        st.done_records = n;
        st.current = None;
    }

    /// Writes the full report, unless an interrupt got there first (then the process is
    /// already exiting).
    fn write_final(
        &self,
        info: &RunInfo,
        outputs: &[(Mode, ModeOutput)],
    ) -> Result<(), Box<dyn Error>> {
        let mut st = self.state();
        let r = write_reports(&self.out, info, &self.meta(info, outputs), outputs);
        st.written = true;
        r
    }

    fn meta<'a>(&self, info: &'a RunInfo, outputs: &[(Mode, ModeOutput)]) -> RunMeta<'a> {
        RunMeta {
            info,
            seed: self.seed,
            size: self.size.clone(),
            load: outputs.iter().filter_map(|(_, o)| o.load.clone()).collect(),
        }
    }

    /// Writes what is finished as a report marked partial (`why`), says where, and ends the
    /// process with `exit`. Holds the state lock to the end, so that the main thread
    /// cannot write the full report over it meanwhile.
    fn abort(&self, why: &str, exit: Exit) -> ! {
        let mut st = self.state();
        // Before `finish`, which moves the bar to its end.
        let (done, planned) = self.progress.counts();
        self.progress.finish();
        if st.written {
            tell!(
                "\n{why}: the report was already written: {}",
                self.out.join("index.html").display()
            );
            exit.exit_now();
        }
        let saved = self.records.lock().map(|r| r.clone()).unwrap_or_default();
        let mut outputs = st.done.clone();
        if let Some((m, start)) = st.current {
            let mut recs = saved[st.done_records.min(saved.len())..].to_vec();
            if !recs.is_empty() {
                crate::report::fill_ratios(&mut recs);
                outputs.push((
                    m,
                    ModeOutput {
                        tables: m.tables(&recs),
                        records: recs,
                        notes: vec![format!(
                            "{} stopped before it completed: its tables show the workloads that finished (their \
                             records are in results.json and results.csv); its plots are drawn only when it completes.",
                            m.name()
                        )],
                        load: Some(section_load(m, &start)),
                        ..Default::default()
                    },
                ));
            }
        }
        if outputs.iter().all(|(_, o)| o.records.is_empty()) {
            // remove_dir removes an empty folder only: nothing of anyone's is lost.
            if self.created_out && std::fs::remove_dir(&self.out).is_ok() {
                tell!(
                    "\n{why}: no workload had finished; nothing written, and the empty folder {} this run had \
                     created is removed",
                    self.out.display()
                );
            } else {
                tell!(
                    "\n{why}: no workload had finished; nothing written (what {} held is left as it was)",
                    self.out.display()
                );
            }
            exit.exit_now();
        }
        let mut info = self.info.clone();
        info.partial = Some(format!("{why}, after {done} of {planned} runs"));
        match write_reports(&self.out, &info, &self.meta(&info, &outputs), &outputs) {
            Ok(()) => tell!(
                "\n{why}: partial report of the finished workloads: {} (results.json, results.csv)",
                self.out.join("index.html").display()
            ),
            Err(e) => tell!("\n{why}: could not write the partial report: {e}"),
        }
        st.written = true;
        exit.exit_now()
    }
}

/// Runs `splitsteal bench`.
pub fn run(args: BenchArgs) -> Result<(), Box<dyn Error>> {
    if let Some(cell) = &args.cache_child {
        // The child's input size: test-size unless the parent asks for the quick one.
        let size = if args.quick { Size::Quick } else { Size::Test };
        return Ok(modes::cache::child(cell, size, args.seed)?);
    }
    if args.list {
        say!("{}", list().trim_end());
        return Ok(());
    }
    if let Some(dir) = &args.gen_pbbs {
        return gen_pbbs(dir, args.pbbs_n.unwrap_or(GEN_PBBS_N), args.seed);
    }
    if selected_modes(&args.mode).contains(&Mode::Runtimes) {
        // Before the first thread of the process (the interrupt handler's, the watchdog's,
        // the pools'): std reads RUST_MIN_STACK once, at the first spawn.
        modes::runtimes::set_min_stack();
    }
    let start = Instant::now();
    let mut env = env(&args);
    let modes = plan(&args, &env)?;
    let created_out = !args.out.exists();
    out_dir::prepare(&args.out).map_err(|e| ExitError::usage(e.to_string()))?;
    let planned: u64 = modes.iter().map(|m| m.planned_runs(&env, &modes)).sum();
    let mut info = run_info(&env, &modes);
    env.progress = Progress::new(planned);
    let salvage = Arc::new(Salvage {
        out: args.out.clone(),
        created_out,
        info: info.clone(),
        seed: env.seed,
        size: env.size.to_string(),
        records: env.partial.clone(),
        progress: env.progress.clone(),
        state: Mutex::default(),
    });
    let s = salvage.clone();
    if let Err(e) = ctrlc::set_handler(move || {
        s.abort("interrupted (SIGINT, SIGTERM or SIGHUP)", Exit::Interrupted);
    }) {
        tell!("warning: no interrupt handler ({e}): Ctrl-C will lose the finished runs");
    }
    // After the handler is in place: from this line on, Ctrl-C keeps what finished.
    tell!("splitsteal bench: {}", info.settings.join("; "));
    tell!("{planned} runs planned; report in {}", args.out.display());
    if args.timeout > 0 {
        let s = salvage.clone();
        env.watchdog = Watchdog::start(Duration::from_secs(args.timeout), move |why| {
            s.abort(&format!("timed out: {why}"), Exit::Timeout)
        });
    }

    let Ran { outputs, timing } = run_modes(&env, &modes, &salvage);
    info.timing.push(wall_time(start.elapsed(), &timing));
    salvage.write_final(&info, &outputs)?;
    print_summary(&args.out, &info, &outputs);
    if let Some(readme) = &args.update_readme {
        update_readme(readme, &args.out, &info, &outputs)?;
    }
    failures(&outputs)
}

/// `--gen-pbbs`'s default size: PBBS's 10^7-element files (`randomSeq_10M_int`), the size
/// of the measurements' table.
pub const GEN_PBBS_N: usize = 10_000_000;

/// `--gen-pbbs DIR`: writes the standard inputs; a folder or file that cannot be written
/// is a usage error (exit 2) naming the path.
fn gen_pbbs(dir: &Path, n: usize, seed: u64) -> Result<(), Box<dyn Error>> {
    let t = Instant::now();
    tell!(
        "writing PBBS's standard inputs, {n} elements each, seed {seed:#x}, into {}",
        dir.display()
    );
    let names =
        crate::pbbs_io::generate::write_standard_inputs(dir, n, seed).map_err(ExitError::usage)?;
    for name in &names {
        say!("{}", dir.join(name).display());
    }
    tell!(
        "{} files written in {}",
        names.len(),
        fmt_secs(t.elapsed().as_secs_f64())
    );
    Ok(())
}

/// An error naming the cells whose output failed verification (or that could not run), so
/// that the exit status says so ([`Exit::Failed`]: the suite's "every run verified" target
/// fails with them); the reports are written before.
fn failures(outputs: &[(Mode, ModeOutput)]) -> Result<(), Box<dyn Error>> {
    let failed: Vec<String> = outputs
        .iter()
        .flat_map(|(m, o)| o.records.iter().map(move |r| (m, r)))
        .filter(|(_, r)| !r.verified)
        .map(|(m, r)| {
            format!(
                "{} {} on {}@{}",
                m.name(),
                r.workload,
                r.scheduler,
                r.threads
            )
        })
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(ExitError::failed(format!(
            "{} cell(s) FAILED: {}",
            failed.len(),
            failed.join(", ")
        ))
        .into())
    }
}

/// The experiments' environment; the progress bar and the hung-run watchdog are set up
/// once the run is planned.
#[doc(hidden)]
pub fn env(args: &BenchArgs) -> Env {
    Env {
        size: if args.quick { Size::Quick } else { Size::Full },
        seed: args.seed,
        reps: args.reps,
        warmup: args.warmup,
        workloads: (!args.workload.is_empty()).then(|| args.workload.clone()),
        kinds: select_schedulers(&args.policy),
        threads: (!args.threads.is_empty()).then(|| args.threads.clone()),
        pool_options: PoolOptions::default(),
        out: args.out.clone(),
        progress: Progress::hidden(),
        watchdog: Watchdog::disabled(),
        partial: Arc::default(),
        pbbs: modes::pbbs::Source::new(args.pbbs_dir.clone(), args.pbbs_n),
    }
}

/// The facts at the top of every report; the timing is added after the runs.
fn run_info(env: &Env, selected: &[Mode]) -> RunInfo {
    let mode_names: Vec<&str> = selected.iter().map(|m| m.name()).collect();
    let schedulers: Vec<&str> = env.kinds.iter().map(|k| k.name()).collect();
    let mut settings = vec![
        format!(
            "modes: {}; size: {}; warm-up {} + reps {} per cell (latency: {} runs); seed {:#x}",
            mode_names.join(", "),
            env.size,
            env.warmup,
            env.reps_or(1, modes::suite::REPS.1, modes::suite::REPS.2),
            env.reps_or(1, 100, 100),
            env.seed
        ),
        format!("schedulers: {}", schedulers.join(", ")),
    ];
    // The pbbs mode runs its own selection and repetitions (its 10^6..10^7 inputs take
    // seconds per cell): say so, or its cells would read as the line above's.
    if selected.contains(&Mode::Pbbs) {
        let kinds: Vec<&str> = modes::pbbs::kinds(env).iter().map(|k| k.name()).collect();
        let (test, quick, full) = modes::pbbs::REPS;
        settings.push(format!(
            "pbbs: schedulers {}; warm-up {} + reps {} per cell",
            kinds.join(", "),
            env.warmup,
            env.reps_or(test, quick, full)
        ));
    }
    // The runtimes mode too: its runtimes (forte among them) and repetitions are its own.
    if selected.contains(&Mode::Runtimes) {
        let rts: Vec<String> = modes::runtimes::runtimes(env)
            .iter()
            .map(|r| r.label())
            .collect();
        let (test, quick, full) = modes::runtimes::REPS;
        settings.push(format!(
            "runtimes: {}; warm-up {} + reps {} per cell",
            rts.join(", "),
            env.warmup,
            env.reps_or(test, quick, full)
        ));
    }
    settings.push(format!("splitsteal pools: {}", env.pool_options.describe()));
    RunInfo {
        command: std::env::args().collect::<Vec<_>>().join(" "),
        date: html::utc_now(),
        machine: html::machine(),
        revision: html::revision(),
        settings,
        timing: Vec::new(),
        partial: None,
    }
}

/// What the modes produced, in run order.
struct Ran {
    /// Each mode's output.
    outputs: Vec<(Mode, ModeOutput)>,
    /// Each mode's wall time in seconds.
    timing: Vec<(Mode, f64)>,
}

/// Runs the modes in order, telling `salvage` what is finished.
fn run_modes(env: &Env, modes: &[Mode], salvage: &Salvage) -> Ran {
    let mut outputs = Vec::new();
    let mut timing = Vec::new();
    for &m in modes {
        let t = Instant::now();
        env.progress.set_mode(m.name());
        let start = crate::load::Sample::now();
        salvage.begin(m, start);
        let mut out = m.run(env, &outputs);
        out.load = Some(section_load(m, &start));
        salvage.completed(m, &out);
        let secs = t.elapsed().as_secs_f64();
        env.progress
            .println(format!("{} done in {}", m.name(), fmt_secs(secs)));
        timing.push((m, secs));
        outputs.push((m, out));
    }
    env.progress.finish();
    Ran { outputs, timing }
}

/// The machine's load over mode `m`, which started at `start`, until now.
fn section_load(m: Mode, start: &crate::load::Sample) -> crate::load::SectionLoad {
    crate::load::SectionLoad::between(
        m.name(),
        start,
        &crate::load::Sample::now(),
        crate::load::cpus(),
        crate::load::ticks_per_second(),
    )
}

/// `wall time: <total> total (<mode> <time>, ...)`.
fn wall_time(total: Duration, timing: &[(Mode, f64)]) -> String {
    let per_mode: Vec<String> = timing
        .iter()
        .map(|(m, s)| format!("{} {}", m.name(), fmt_secs(*s)))
        .collect();
    format!(
        "wall time: {} total ({})",
        fmt_secs(total.as_secs_f64()),
        per_mode.join(", ")
    )
}

/// Whether `name` is a plot a mode writes: `<mode>.svg` or `<mode>-*.svg`.
#[doc(hidden)]
pub fn is_mode_plot(name: &str) -> bool {
    name.strip_suffix(".svg").is_some_and(|stem| {
        Mode::all().iter().any(|m| {
            stem.strip_prefix(m.name())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
        })
    })
}

/// Removes the plots an earlier run left in `out` that this report does not show, so that
/// the folder holds one run's report. Only the modes' plot names are touched.
fn remove_stale_plots(out: &Path, outputs: &[(Mode, ModeOutput)]) -> Result<(), PathError> {
    let drawn = |name: &str| {
        outputs
            .iter()
            .any(|(_, o)| o.plots.iter().any(|p| p.file == name))
    };
    out_dir::remove_stale(out, |name| is_mode_plot(name) && !drawn(name))
}

/// Writes results.json, results.csv, tables.md and index.html into `out`, after removing
/// the plots of an earlier run that this one did not draw.
fn write_reports(
    out: &Path,
    info: &RunInfo,
    meta: &RunMeta,
    outputs: &[(Mode, ModeOutput)],
) -> Result<(), Box<dyn Error>> {
    let records: Vec<Record> = outputs
        .iter()
        .flat_map(|(_, o)| o.records.iter().cloned())
        .collect();
    remove_stale_plots(out, outputs)?;
    write_results(out, meta, &records)?;
    write_atomic(&out.join("tables.md"), html::markdown(info, outputs, ""))?;
    html::write_index(out, info, outputs)?;
    Ok(())
}

/// Prints every mode's notes and tables, the timing and where the report is.
fn print_summary(out: &Path, info: &RunInfo, outputs: &[(Mode, ModeOutput)]) {
    for (m, o) in outputs {
        say!("\n==== {} ====", m.name());
        for n in &o.notes {
            say!("{n}");
        }
        for t in &o.tables {
            say!("\n{}", t.to_text());
        }
    }
    say!();
    for l in &info.timing {
        say!("{l}");
    }
    for l in outputs.iter().filter_map(|(_, o)| o.load.as_ref()) {
        if l.high {
            say!(
                "load was HIGH during {}: other processes took {}: its times are less trustworthy",
                l.section,
                l.row()[3]
            );
        }
    }
    say!(
        "report: {} (results.json, results.csv, tables.md, {} plots)",
        out.join("index.html").display(),
        outputs.iter().map(|(_, o)| o.plots.len()).sum::<usize>()
    );
}

/// `--update-readme`: replaces the README's generated section with the suite's
/// summaries, targets and plot links (not the full per-cell table).
fn update_readme(
    readme: &Path,
    out: &Path,
    info: &RunInfo,
    outputs: &[(Mode, ModeOutput)],
) -> Result<(), Box<dyn Error>> {
    let Some(suite) = modes::output_of(outputs, Mode::Suite) else {
        return Err("--update-readme needs the suite mode".into());
    };
    let brief = ModeOutput {
        records: Vec::new(),
        tables: suite.tables.iter().skip(1).cloned().collect(),
        plots: suite.plots.clone(),
        notes: suite.notes.clone(),
        load: None,
    };
    let dir = readme.parent().unwrap_or(Path::new("."));
    let prefix = format!("{}/", html::relative_path(dir, out).display());
    let section = html::readme_section(info, &brief, &prefix);
    let text = out_dir::read_to_string(readme)?;
    let new =
        html::replace_section(&text, &section).map_err(|e| format!("{}: {e}", readme.display()))?;
    out_dir::write(readme, new)?;
    say!("updated {}", readme.display());
    Ok(())
}

/// Options of `splitsteal report`.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = "\
Reads the records and run facts of a results.json that `splitsteal bench` wrote and writes
index.html and tables.md again with this revision's tables (headline, targets, summaries,
load flags), without running anything. results.json, results.csv and the plots are left as
they are; the page shows the plots found beside the output. The runs' progress notes are not
in results.json, so the rebuilt page lacks them.

Example:
  splitsteal report docs/results/results.json")]
pub struct ReportArgs {
    /// A results.json written by `splitsteal bench`.
    #[arg(value_name = "RESULTS.json")]
    pub results: PathBuf,

    /// Output folder (default: the folder of RESULTS.json).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `results.json` as `splitsteal report` reads it back.
#[derive(serde::Deserialize)]
struct SavedResults {
    run: SavedRun,
    records: Vec<Record>,
}

/// The `run` object of `results.json` ([`RunMeta`]); fields older reports lack default.
#[derive(serde::Deserialize)]
struct SavedRun {
    command: String,
    date: String,
    machine: String,
    #[serde(default)]
    revision: String,
    #[serde(default)]
    settings: Vec<String>,
    #[serde(default)]
    timing: Vec<String>,
    #[serde(default)]
    partial: Option<String>,
    #[serde(default)]
    load: Vec<crate::load::SectionLoad>,
}

/// The modes a saved run ran, in run order: those named by its load sections or its
/// `modes: ...` settings line, and any with records.
#[doc(hidden)]
pub fn saved_modes(settings: &[String], load: &[String], records: &[Record]) -> Vec<Mode> {
    let listed: Vec<&str> = settings
        .iter()
        .find_map(|l| l.strip_prefix("modes: "))
        .map(|l| l.split(';').next().unwrap_or("").split(", ").collect())
        .unwrap_or_default();
    Mode::all()
        .iter()
        .copied()
        .filter(|m| {
            let n = m.name();
            listed.contains(&n)
                || load.iter().any(|s| s == n)
                || records.iter().any(|r| r.experiment == n)
        })
        .collect()
}

/// The records mode `m` makes its tables from: its own, and for syncops, which reads the
/// suite's counters when both ran, the suite's too.
fn records_of(m: Mode, records: &[Record]) -> Vec<Record> {
    records
        .iter()
        .filter(|r| r.experiment == m.name() || (m == Mode::Syncops && r.experiment == "suite"))
        .cloned()
        .collect()
}

/// The title an SVG plot draws first (its first `<text>`), as the image's caption.
fn svg_title(svg: &str) -> Option<String> {
    let at = svg.find("<text")?;
    let body = &svg[at..];
    let start = body.find('>')? + 1;
    let end = body[start..].find("</text>")? + start;
    let t = body[start..end].trim();
    (!t.is_empty()).then(|| {
        t.replace("&gt;", ">")
            .replace("&lt;", "<")
            .replace("&apos;", "'")
            .replace("&#39;", "'")
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
    })
}

/// The plots of mode `m` found in `dir` (`<mode>.svg`, `<mode>-*.svg`), by file name.
fn plots_in(dir: &Path, m: Mode) -> Vec<modes::Plot> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| {
            f.strip_suffix(".svg").is_some_and(|stem| {
                stem.strip_prefix(m.name())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
            })
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|file| modes::Plot {
            caption: std::fs::read_to_string(dir.join(&file))
                .ok()
                .and_then(|s| svg_title(&s))
                .unwrap_or_else(|| file.clone()),
            file,
            notes: Vec::new(),
        })
        .collect()
}

/// The experiments whose `speedup` and `vs_rayon` are [`crate::report::fill_ratios`]'s,
/// recomputed when a report is rebuilt.
const RATIOS_FROM_MEDIANS: [&str; 4] = ["suite", "iter", "scaling", "pbbs"];

/// Runs `splitsteal report`: index.html and tables.md rebuilt from a results.json.
pub fn report(args: ReportArgs) -> Result<(), Box<dyn Error>> {
    let text =
        out_dir::read_to_string(&args.results).map_err(|e| ExitError::usage(e.to_string()))?;
    let saved: SavedResults = serde_json::from_str(&text).map_err(|e| {
        ExitError::usage(format!(
            "{}: not a results.json written by splitsteal bench: {e}",
            args.results.display()
        ))
    })?;
    let out = match &args.out {
        Some(o) => o.clone(),
        None => args
            .results
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf(),
    };
    out_dir::prepare(&out).map_err(|e| ExitError::usage(e.to_string()))?;
    let run = saved.run;
    let mut records = saved.records;
    // Ratios as this revision defines them (an older run may have stored ×rayon the other
    // way up), for the modes that derive them from the medians.
    let (mut derived, kept): (Vec<Record>, Vec<Record>) = records
        .into_iter()
        .partition(|r| RATIOS_FROM_MEDIANS.contains(&r.experiment.as_str()));
    crate::report::fill_ratios(&mut derived);
    records = derived;
    records.extend(kept);
    let sections: Vec<String> = run.load.iter().map(|l| l.section.clone()).collect();
    let modes = saved_modes(&run.settings, &sections, &records);
    if modes.is_empty() {
        return Err(ExitError::usage(format!(
            "{}: no records of a known mode",
            args.results.display()
        ))
        .into());
    }
    let mut settings = run.settings;
    settings.push(format!(
        "report rebuilt from results.json by `splitsteal report` at revision {} on {}: the tables are this \
         revision's; the runs' own notes are not recorded in results.json and are absent",
        html::revision(),
        html::utc_now()
    ));
    let info = RunInfo {
        command: run.command,
        date: run.date,
        machine: run.machine,
        revision: run.revision,
        settings,
        timing: run.timing,
        partial: run.partial,
    };
    let outputs: Vec<(Mode, ModeOutput)> = modes
        .into_iter()
        .map(|m| {
            let records = records_of(m, &records);
            let mut notes = Vec::new();
            if m == Mode::Pbbs {
                notes.push(
                    "pbbs: its tables need the input files' descriptions, which results.json does not hold; its \
                     records are in results.json."
                        .to_string(),
                );
            }
            // The flag under this revision's rule, from the recorded figures.
            let load = run.load.iter().find(|l| l.section == m.name()).map(|l| {
                crate::load::SectionLoad::new(
                    &l.section,
                    l.seconds,
                    l.loadavg_start,
                    l.loadavg_end,
                    l.other_cpu,
                    l.cpus,
                )
            });
            let output = ModeOutput {
                tables: m.tables(&records),
                records: if m == Mode::Syncops && records.iter().all(|r| r.experiment != "syncops") {
                    Vec::new()
                } else {
                    records
                },
                plots: plots_in(&out, m),
                notes,
                load,
            };
            (m, output)
        })
        .collect();
    write_atomic(&out.join("tables.md"), html::markdown(&info, &outputs, ""))?;
    html::write_index(&out, &info, &outputs)?;
    print_summary(&out, &info, &outputs);
    Ok(())
}

//! `splitsteal bench`: the command line of the suite.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};

use crate::html::{self, RunInfo};
use crate::modes::{self, Env, Mode, ModeOutput};
use crate::report::{fmt_secs, write_results, Record};
use crate::runner::{Progress, Watchdog};
use crate::sched::{PoolOptions, SchedulerKind};
use crate::workloads::{self, Size};

const AFTER_HELP: &str = "\
Without options, runs the full suite (every workload, every scheduler, 1 and 2 threads;
about 15 minutes) and the iter section (parallel iterators, splitsteal's default policy
against rayon) and writes bench-report/. Use --quick for about a minute, and --mode all
for every experiment of the papers. A run whose output fails verification is reported
FAILED and makes the exit status non-zero.

Examples:
  splitsteal bench --quick
  splitsteal bench --mode all --quick
  splitsteal bench --workload fib,cilksort --policy rayon,chili --threads 2 --reps 10
  splitsteal bench --mode latency,scaling
  splitsteal bench --list

Output (--out, default bench-report/): results.json and results.csv (one record per
experiment × workload × scheduler × threads: median_s, min_s, max_s, reps, verified,
stats, speedup, vs_rayon, ...), tables.md, SVG plots and index.html.

Method: inputs generated from --seed; one warm-up run per cell (--warmup), then --reps
rounds, each running every scheduler once in a rotated order; every output is checked
against a serial reference, and a wrong result is reported FAILED and never timed.";

/// Options of `splitsteal bench`.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = AFTER_HELP)]
pub struct BenchArgs {
    /// Experiments to run, comma-separated: suite, iter, syncops, scaling, latency,
    /// multiprogram, or all.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "suite,iter")]
    pub mode: Vec<ModeArg>,

    /// Small inputs and fewer repetitions: the suite takes under a minute (23 s measured).
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
    /// scaling and latency; 2,4,8 for multiprogram).
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

    /// List modes, workloads (with input sizes) and schedulers, then exit.
    #[arg(long)]
    pub list: bool,

    /// Seed of the generated inputs.
    #[arg(long, default_value_t = 0x5eed)]
    pub seed: u64,

    /// Abort (writing partial results) if a single run takes longer than this (seconds).
    #[arg(long, default_value_t = 300, value_name = "SECS")]
    pub timeout: u64,

    /// Also replace the section between `<!-- bench-report:start -->` and
    /// `<!-- bench-report:end -->` of this README with the suite tables and plot links.
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
    workloads::find(s).map(|w| w.name.to_string())
}

fn parse_scheduler(s: &str) -> Result<SchedulerKind, String> {
    s.parse()
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
fn concrete_modes(sel: &[ModeArg]) -> Vec<Mode> {
    let all = sel.contains(&ModeArg::All);
    Mode::all()
        .iter()
        .copied()
        .filter(|&m| all || sel.contains(&ModeArg::One(m)))
        .collect()
}

fn write_partial(out: &Path, partial: &Mutex<Vec<Record>>) {
    if let Ok(p) = partial.lock() {
        let mut recs = p.clone();
        crate::report::fill_ratios(&mut recs);
        match write_results(out, &recs) {
            Ok(()) => eprintln!("partial results: {}", out.join("results.json").display()),
            Err(e) => eprintln!("could not write partial results: {e}"),
        }
    }
}

/// Runs `splitsteal bench`.
pub fn run(args: BenchArgs) -> Result<(), Box<dyn Error>> {
    if args.list {
        print!("{}", list());
        return Ok(());
    }
    let start = Instant::now();
    let modes = concrete_modes(&args.mode);
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut env = env(&args);
    let planned: u64 = modes.iter().map(|m| m.planned_runs(&env, &modes)).sum();
    let mut info = run_info(&env, &modes);
    eprintln!("splitsteal bench: {}", info.settings.join("; "));
    eprintln!("{planned} runs planned; report in {}", args.out.display());
    env.progress = Progress::new(planned);

    let Ran { outputs, timing } = run_modes(&env, &modes);
    info.timing.push(wall_time(start.elapsed(), &timing));
    write_reports(&args.out, &info, &outputs)?;
    print_summary(&args.out, &info, &outputs);
    if let Some(readme) = &args.update_readme {
        update_readme(readme, &args.out, &info, &outputs)?;
    }
    failures(&outputs)
}

/// An error naming the cells whose output failed verification (or that could not run), so
/// that the exit status says so; the reports are written before.
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
        Err(format!("{} cell(s) FAILED: {}", failed.len(), failed.join(", ")).into())
    }
}

/// The experiments' environment, with the hung-run watchdog started and the progress bar
/// hidden (it is shown once the runs are counted).
fn env(args: &BenchArgs) -> Env {
    let partial: Arc<Mutex<Vec<Record>>> = Arc::default();
    let watchdog = {
        let (out, partial) = (args.out.clone(), partial.clone());
        Watchdog::start(Duration::from_secs(args.timeout.max(1)), move || {
            write_partial(&out, &partial)
        })
    };
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
        watchdog,
        partial,
    }
}

/// The facts at the top of every report; the timing is added after the runs.
fn run_info(env: &Env, selected: &[Mode]) -> RunInfo {
    let mode_names: Vec<&str> = selected.iter().map(|m| m.name()).collect();
    let schedulers: Vec<&str> = env.kinds.iter().map(|k| k.name()).collect();
    RunInfo {
        command: std::env::args().collect::<Vec<_>>().join(" "),
        date: html::utc_now(),
        machine: html::machine(),
        revision: html::revision(),
        settings: vec![
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
            format!("splitsteal pools: {}", env.pool_options.describe()),
        ],
        timing: Vec::new(),
    }
}

/// What the modes produced, in run order.
struct Ran {
    /// Each mode's output.
    outputs: Vec<(Mode, ModeOutput)>,
    /// Each mode's wall time in seconds.
    timing: Vec<(Mode, f64)>,
}

/// Runs the modes in order.
fn run_modes(env: &Env, modes: &[Mode]) -> Ran {
    let mut outputs = Vec::new();
    let mut timing = Vec::new();
    for &m in modes {
        let t = Instant::now();
        let out = m.run(env, &outputs);
        let secs = t.elapsed().as_secs_f64();
        env.progress
            .println(format!("{} done in {}", m.name(), fmt_secs(secs)));
        timing.push((m, secs));
        outputs.push((m, out));
    }
    env.progress.finish();
    Ran { outputs, timing }
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

/// Writes results.json, results.csv, tables.md and index.html into `out`.
fn write_reports(
    out: &Path,
    info: &RunInfo,
    outputs: &[(Mode, ModeOutput)],
) -> Result<(), Box<dyn Error>> {
    let records: Vec<Record> = outputs
        .iter()
        .flat_map(|(_, o)| o.records.iter().cloned())
        .collect();
    write_results(out, &records)?;
    std::fs::write(out.join("tables.md"), html::markdown(info, outputs, ""))?;
    html::write_index(out, info, outputs)?;
    Ok(())
}

/// Prints every mode's notes and tables, the timing and where the report is.
fn print_summary(out: &Path, info: &RunInfo, outputs: &[(Mode, ModeOutput)]) {
    for (m, o) in outputs {
        println!("\n==== {} ====", m.name());
        for n in &o.notes {
            println!("{n}");
        }
        for t in &o.tables {
            println!("\n{}", t.to_text());
        }
    }
    println!();
    for l in &info.timing {
        println!("{l}");
    }
    println!(
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
    };
    let dir = readme.parent().unwrap_or(Path::new("."));
    let prefix = format!("{}/", html::relative_path(dir, out).display());
    let section = html::readme_section(info, &brief, &prefix);
    let text = std::fs::read_to_string(readme).map_err(|e| format!("{}: {e}", readme.display()))?;
    let new =
        html::replace_section(&text, &section).map_err(|e| format!("{}: {e}", readme.display()))?;
    std::fs::write(readme, new)?;
    println!("updated {}", readme.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        args: BenchArgs,
    }

    fn parse(args: &[&str]) -> Result<BenchArgs, String> {
        let mut v = vec!["bench"];
        v.extend_from_slice(args);
        Cli::try_parse_from(v)
            .map(|c| c.args)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn defaults() {
        let a = parse(&[]).unwrap();
        assert_eq!(
            a.mode,
            vec![ModeArg::One(Mode::Suite), ModeArg::One(Mode::Iter)]
        );
        assert!(!a.quick && a.workload.is_empty() && a.policy.is_empty());
        assert_eq!(a.out, PathBuf::from("bench-report"));
        assert_eq!(a.warmup, 1);
    }

    #[test]
    fn lists_parse() {
        let a = parse(&[
            "--quick",
            "--mode",
            "suite,latency",
            "--workload",
            "fib,CILKSORT",
            "--policy",
            "rayon,chili,serial,lcws-signal",
            "--threads",
            "1,2",
            "--reps",
            "4",
            "--out",
            "x",
        ])
        .unwrap();
        assert_eq!(
            a.mode,
            vec![ModeArg::One(Mode::Suite), ModeArg::One(Mode::Latency)]
        );
        assert_eq!(a.workload, vec!["fib", "cilksort"]);
        assert_eq!(a.policy.len(), 4);
        assert_eq!(a.threads, vec![1, 2]);
        assert_eq!(a.reps, Some(4));
    }

    #[test]
    fn bad_names_list_the_valid_ones() {
        let e = parse(&["--workload", "fib,fibonacci"]).unwrap_err();
        assert!(
            e.contains("fibonacci") && e.contains("valid workloads") && e.contains("nqueens"),
            "{e}"
        );
        let e = parse(&["--policy", "tbb"]).unwrap_err();
        assert!(
            e.contains("tbb")
                && e.contains("chase-lev")
                && e.contains("rayon")
                && e.contains("serial"),
            "{e}"
        );
        let e = parse(&["--mode", "speed"]).unwrap_err();
        assert!(e.contains("speed") && e.contains("multiprogram"), "{e}");
        let e = parse(&["--threads", "0"]).unwrap_err();
        assert!(e.contains("positive"), "{e}");
        assert!(parse(&["--reps", "x"]).is_err());
        assert!(parse(&["--frobnicate"]).is_err());
        // The runtime records every join: there is no LCWS window to set any more.
        let e = parse(&["--lcws-window", "max"]).unwrap_err();
        assert!(e.contains("--lcws-window"), "{e}");
    }

    #[test]
    fn selected_schedulers_are_in_report_order_without_duplicates() {
        let sel = [SchedulerKind::Splitsteal(splitsteal::Policy::ChaseLev)];
        assert_eq!(select_schedulers(&sel), sel);
        let k = select_schedulers(&[
            SchedulerKind::Chili,
            SchedulerKind::Serial,
            SchedulerKind::Chili,
        ]);
        assert_eq!(k, vec![SchedulerKind::Serial, SchedulerKind::Chili]);
        assert_eq!(select_schedulers(&[]), SchedulerKind::all());
    }

    #[test]
    fn list_mentions_everything() {
        let l = list();
        for w in workloads::registry() {
            assert!(l.contains(w.name));
        }
        for w in crate::par_iter::programs() {
            assert!(l.contains(w.name));
        }
        for k in SchedulerKind::all() {
            assert!(l.contains(k.name()));
        }
        assert!(l.contains("multiprogram") && l.contains("iter"));
    }

    #[test]
    fn mode_names_are_their_cli_values() {
        for m in Mode::all() {
            assert_eq!(m.to_possible_value().unwrap().get_name(), m.name());
        }
    }

    #[test]
    fn syncops_plans_no_runs_of_its_own_with_the_suite() {
        let env =
            env(&parse(&["--quick", "--workload", "fib", "--policy", "lcws-signal"]).unwrap());
        assert!(Mode::Syncops.planned_runs(&env, &[Mode::Syncops]) > 0);
        assert_eq!(
            Mode::Syncops.planned_runs(&env, &[Mode::Suite, Mode::Syncops]),
            0
        );
    }

    #[test]
    fn modes_expand() {
        assert_eq!(concrete_modes(&[ModeArg::All]), Mode::all());
        assert_eq!(Mode::all().len(), 6);
        assert_eq!(
            concrete_modes(&[ModeArg::One(Mode::Latency), ModeArg::One(Mode::Suite)]),
            vec![Mode::Suite, Mode::Latency]
        );
    }
}

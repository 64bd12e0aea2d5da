//! `cache`: cache misses per task and per steal of each deque, SIMULATED by cachegrind
//! (the LCWS paper's companion thesis, §4.3.1, compares the deques' L1 and last-level
//! misses; hardware counters are not available on the suite's machines).
//!
//! Each cell is a child process, the bench binary itself run under
//! `valgrind --tool=cachegrind --cache-sim=yes` with the hidden `--cache-child
//! WORKLOAD:SCHEDULER:THREADS` option: it builds the workload's small input ([`child_size`]),
//! runs it once, checks the output, prints its pool's [`StatsRecord`] and exits 1 if the
//! output was wrong. The parent reads the totals of the cachegrind output file.
//!
//! What the numbers include: the whole child process (start-up, input generation, the
//! reference, the check), so the same child on the serial elision is run as a baseline
//! and subtracted; what remains is the pool (start-up and shutdown of its workers
//! included) and its scheduling. The caches are simulated, and valgrind runs one thread at
//! a time on one simulated cache hierarchy: misses caused by another core invalidating a
//! line (true or false sharing, the main cost of a steal on hardware) are not modelled.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use splitsteal_report::{say, ExitError};

use crate::modes::{Env, ModeOutput};
use crate::report::{fmt_count, Record, StatsRecord, Table};
use crate::sched::{Scheduler, SchedulerKind};
use crate::workloads::{self, Size};
use splitsteal::Policy;

/// The workloads run by default.
pub const WORKLOADS: [&str; 3] = ["fib", "cilksort", "treesum"];

/// The deques compared (the thesis's deques and the LCWS ones; `lcws-cons` and
/// `lcws-half` only differ from `lcws-signal` in how much they expose).
pub const POLICIES: [Policy; 6] = [
    Policy::Locked,
    Policy::Abp,
    Policy::ChaseLev,
    Policy::LcwsSignal,
    Policy::LcwsPoll,
    Policy::Hybrid,
];

/// The prefix of the child's result line on stdout.
const CHILD_LINE: &str = "cache-child stats: ";

/// The cachegrind totals of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    /// Instructions executed (`Ir`).
    pub ir: u64,
    /// L1 data misses, reads and writes (`D1mr + D1mw`).
    pub d1: u64,
    /// Last-level data misses, reads and writes (`DLmr + DLmw`).
    pub ll: u64,
}

/// Reads the totals from the text of a cachegrind output file: the `events:` line names
/// the columns of the `summary:` line.
pub fn parse_cachegrind(text: &str) -> Result<Totals, String> {
    let line = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .ok_or_else(|| format!("no `{key}` line"))
    };
    let events: Vec<&str> = line("events:")?.split_whitespace().collect();
    let values = line("summary:")?
        .split_whitespace()
        .map(|v| {
            v.parse::<u64>()
                .map_err(|_| format!("`summary:` value `{v}` is not a count"))
        })
        .collect::<Result<Vec<u64>, String>>()?;
    if values.len() != events.len() {
        return Err(format!(
            "`summary:` has {} values for {} events",
            values.len(),
            events.len()
        ));
    }
    let get = |name: &str| {
        events
            .iter()
            .position(|e| *e == name)
            .map(|i| values[i])
            .ok_or_else(|| format!("no `{name}` event (was --cache-sim=yes given?)"))
    };
    Ok(Totals {
        ir: get("Ir")?,
        d1: get("D1mr")? + get("D1mw")?,
        ll: get("DLmr")? + get("DLmw")?,
    })
}

/// The cells' schedulers: [`POLICIES`] among those selected.
fn policies(env: &Env) -> Vec<SchedulerKind> {
    POLICIES
        .iter()
        .map(|&p| SchedulerKind::Splitsteal(p))
        .filter(|k| env.kinds.contains(k))
        .collect()
}

/// The workloads run: `--workload` among the registry, else [`WORKLOADS`] (the first
/// two under `--quick`, to stay within its minute).
pub fn workloads(env: &Env) -> Vec<&'static str> {
    let default: &[&str] = if env.size == Size::Full {
        &WORKLOADS
    } else {
        &WORKLOADS[..2]
    };
    env.workloads_or(default)
        .into_iter()
        .map(|s| s.name)
        .collect()
}

/// Child runs planned by [`run`]: per workload, the serial baseline and every cell.
pub fn planned_runs(env: &Env) -> u64 {
    let cells = policies(env).len() * env.threads_or(&[1, 2]).len();
    if cells == 0 {
        return 0;
    }
    (workloads(env).len() * (cells + 1)) as u64
}

/// The hidden `--cache-child WORKLOAD:SCHEDULER:THREADS`: runs the workload's test-size
/// input once on that scheduler, prints the pool's counters and fails (exit status 1) if
/// the output is wrong. Bad values are a usage error (2).
pub fn child(spec: &str, size: Size, seed: u64) -> Result<(), ExitError> {
    let bad = |why: String| {
        ExitError::usage(format!(
            "--cache-child {spec}: {why} (expected WORKLOAD:SCHEDULER:THREADS)"
        ))
    };
    let parts: Vec<&str> = spec.split(':').collect();
    let [w, s, t] = parts[..] else {
        return Err(bad("not three fields".into()));
    };
    let w = workloads::find(w).map_err(bad)?;
    let kind: SchedulerKind = s.parse().map_err(bad)?;
    let threads: usize = t
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| bad(format!("`{t}` is not a positive thread count")))?;
    let sched = Scheduler::build(kind, threads).map_err(bad)?;
    let out = (w.build)(size, seed).run_on(&sched);
    let stats = out.stats.map(StatsRecord::from).unwrap_or_default();
    let json = serde_json::to_string(&stats).map_err(|e| ExitError::failed(e.to_string()))?;
    say!("{CHILD_LINE}{json}");
    out.check
        .map_err(|e| ExitError::failed(format!("{} on {kind}@{threads}: {e}", w.name)))
}

/// Whether valgrind runs here.
fn valgrind_found() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A fresh path for a cachegrind output file.
fn scratch_file() -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    // Relaxed: only uniqueness of the value matters.
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "splitsteal-cachegrind-{}-{n}.out",
        std::process::id()
    ))
}

/// What one child produced.
struct ChildRun {
    totals: Totals,
    stats: StatsRecord,
}

/// The simulated caches, fixed so that the numbers do not depend on the host's caches
/// (cachegrind would copy them, and takes an odd last level such as 512 MiB 2-way from
/// large server L3s): 32 KiB 8-way L1s and an 8 MiB 16-way last level, 64-byte lines.
const CACHES: [&str; 3] = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"];

/// The children's input size for the mode's size: the workloads' test inputs under
/// `--quick` (about 1 s per child under valgrind), their quick inputs otherwise (2-6 s,
/// enough work for a few steals with valgrind's serialized threads).
pub fn child_size(size: Size) -> Size {
    match size {
        Size::Full => Size::Quick,
        _ => Size::Test,
    }
}

/// Runs `exe bench --cache-child cell` under cachegrind; `Err` says why the cell failed
/// (wrong output, a crash, an unreadable cachegrind file).
fn run_child(exe: &Path, cell: &str, size: Size, seed: u64) -> Result<ChildRun, String> {
    let file = scratch_file();
    let mut cmd = Command::new("valgrind");
    cmd.args(["--tool=cachegrind", "--cache-sim=yes", "-q"])
        .args(CACHES)
        .arg(format!("--cachegrind-out-file={}", file.display()))
        .arg(exe)
        .args(["bench", "--cache-child", cell, "--seed", &seed.to_string()])
        .env_remove("SPLITSTEAL_NUM_THREADS")
        .env_remove("SPLITSTEAL_POLICY");
    if size == Size::Quick {
        cmd.arg("--quick");
    }
    let out = cmd.output();
    let text = std::fs::read_to_string(&file);
    let _ = std::fs::remove_file(&file);
    let out = out.map_err(|e| format!("could not start valgrind: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr.lines().last().unwrap_or("").trim();
        return Err(format!("child exited with {}: {last}", out.status));
    }
    let stats = stdout
        .lines()
        .find_map(|l| l.strip_prefix(CHILD_LINE))
        .ok_or("the child printed no counters")
        .and_then(|j| serde_json::from_str(j).map_err(|_| "unreadable counters"))?;
    let text = text.map_err(|e| format!("cachegrind output {}: {e}", file.display()))?;
    let totals = parse_cachegrind(&text)
        .map_err(|e| format!("cachegrind output {}: {e}", file.display()))?;
    Ok(ChildRun { totals, stats })
}

/// Runs the experiment with the bench binary that is running.
pub fn run(env: &Env) -> ModeOutput {
    match std::env::current_exe() {
        Ok(exe) => run_with(env, &exe),
        Err(e) => ModeOutput {
            notes: vec![format!(
                "cache: skipped, the bench binary is not found: {e}"
            )],
            ..Default::default()
        },
    }
}

/// Runs the experiment, `exe` being the `splitsteal` binary.
pub fn run_with(env: &Env, exe: &Path) -> ModeOutput {
    let mut out = ModeOutput::default();
    if !valgrind_found() {
        out.notes
            .push("cache: skipped: valgrind not found (it simulates the caches).".into());
        return out;
    }
    let size = child_size(env.size);
    let kinds = policies(env);
    let threads = env.threads_or(&[1, 2]);
    // The children run side by side, one per core: the simulated counts do not depend on
    // the host's load, only the wall time does.
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    for w in workloads(env) {
        let spec = workloads::find(w).expect("a registry name");
        let params = (spec.params)(size);
        let mut cells = vec![(SchedulerKind::Serial, 1)];
        cells.extend(
            kinds
                .iter()
                .flat_map(|&k| threads.iter().map(move |&t| (k, t))),
        );
        let results: Vec<Mutex<Option<Result<ChildRun, String>>>> =
            cells.iter().map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        env.watchdog.begin(format!(
            "cache {w}: {} children under cachegrind",
            cells.len()
        ));
        std::thread::scope(|s| {
            for _ in 0..jobs.min(cells.len()) {
                s.spawn(|| loop {
                    // Relaxed: the counter only hands out indices; the results travel
                    // through their mutexes and the scope's join.
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(kind, t)) = cells.get(i) else {
                        break;
                    };
                    let r = run_child(exe, &format!("{w}:{kind}:{t}"), size, env.seed);
                    env.progress.inc();
                    if let Ok(mut g) = results[i].lock() {
                        *g = Some(r);
                    }
                });
            }
        });
        env.watchdog.end();
        let mut recs = Vec::new();
        for ((kind, t), r) in cells.iter().zip(results) {
            let mut rec = Record::new("cache", w, &params, kind.name(), *t);
            match r.into_inner().ok().flatten() {
                Some(Ok(c)) => {
                    rec.verified = true;
                    rec.stats = kind.has_stats().then_some(c.stats);
                    rec.extra.insert("ir".into(), c.totals.ir as f64);
                    rec.extra.insert("d1_misses".into(), c.totals.d1 as f64);
                    rec.extra.insert("ll_misses".into(), c.totals.ll as f64);
                }
                Some(Err(e)) => rec.error = Some(e),
                None => rec.error = Some("the child did not run".into()),
            }
            recs.push(rec);
        }
        env.save_partial(&recs);
        out.records.extend(recs);
    }
    out.tables = tables(&out.records);
    out.notes.push(format!(
        "cache: the misses are SIMULATED by valgrind's cachegrind (--cache-sim=yes; {}), not measured: \
         valgrind runs the threads one at a time on one simulated cache hierarchy, so misses from \
         another core invalidating a line (sharing, the main cost of a steal on hardware) are not \
         counted. Each cell is one run of the workload's {size}-size input in a child process; the \
         same child on the serial elision is subtracted (Δ per task), leaving the pool's start-up, \
         scheduling and shutdown; per steal, the same deque on 1 thread is subtracted instead.",
        CACHES.join(" ")
    ));
    out
}

fn extra(r: &Record, key: &str) -> Option<f64> {
    r.extra.get(key).copied()
}

/// `x / n`, signed, or `-` when `n` is 0.
fn per(x: f64, n: u64) -> String {
    if n == 0 {
        "-".into()
    } else {
        format!("{:+.1}", x / n as f64)
    }
}

/// One table per workload: the cells' totals, and their excess over the serial baseline
/// per task and per steal.
pub fn tables(records: &[Record]) -> Vec<Table> {
    let mut out = Vec::new();
    for w in crate::modes::workload_order(records) {
        let recs: Vec<&Record> = records
            .iter()
            .filter(|r| r.experiment == "cache" && r.workload == w)
            .collect();
        let Some(first) = recs.first() else { continue };
        let base = recs
            .iter()
            .find(|r| r.scheduler == "serial" && r.verified)
            .copied();
        let mut tab = Table::new(
            format!("cache (SIMULATED by cachegrind): {w}, {}", first.params),
            &[
                "scheduler",
                "threads",
                "tasks",
                "steals",
                "Ir",
                "D1 misses",
                "LL misses",
                "ΔIr/task",
                "ΔD1/task",
                "ΔLL/task",
                "ΔD1/steal vs 1 thread",
                "ΔLL/steal vs 1 thread",
            ],
        );
        for r in &recs {
            let mut row = vec![r.scheduler.clone(), r.threads.to_string()];
            if !r.verified {
                row.push("FAILED".into());
                row.resize(12, "-".into());
                tab.row(row);
                continue;
            }
            let s = r.stats.unwrap_or_default();
            let (tasks, steals) = (s.tasks, s.steals);
            let has = r.stats.is_some();
            let count = |v: u64| if has { fmt_count(v) } else { "-".into() };
            row.push(count(tasks));
            row.push(count(steals));
            for k in ["ir", "d1_misses", "ll_misses"] {
                row.push(extra(r, k).map_or("-".into(), |v| fmt_count(v as u64)));
            }
            let delta = |k: &str| Some(extra(r, k)? - extra(base?, k)?);
            for k in ["ir", "d1_misses", "ll_misses"] {
                row.push(match delta(k) {
                    Some(d) if has => per(d, tasks),
                    _ => "-".into(),
                });
            }
            // Per steal, against the same deque on one worker (which never steals): the
            // pool's own overhead is in both, so what remains is the second worker's,
            // its steals included.
            let one = recs
                .iter()
                .find(|o| o.scheduler == r.scheduler && o.threads == 1 && o.verified)
                .filter(|_| r.threads > 1);
            for k in ["d1_misses", "ll_misses"] {
                let d = one.and_then(|o| Some(extra(r, k)? - extra(o, k)?));
                row.push(d.map_or("-".into(), |d| per(d, steals)));
            }
            tab.row(row);
        }
        tab.notes.push(
            "SIMULATED (cachegrind), one run, threads serialized by valgrind. Δ: this cell minus the \
             serial elision's child (same input, same checks), i.e. the pool's start-up, scheduling \
             and shutdown, ÷ the pool's tasks. Per steal: this cell minus the same deque on 1 thread \
             (the second worker's start-up and its steals) ÷ the successful steals; - when none."
                .into(),
        );
        if base.is_none() {
            tab.notes
                .push("The serial baseline failed: no Δ columns.".into());
        }
        out.push(tab);
    }
    out
}

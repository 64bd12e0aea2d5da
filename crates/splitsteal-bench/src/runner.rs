//! The measurement method: warm-up, then repetitions with the schedulers interleaved,
//! every output verified, failures reported and never timed.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use splitsteal_report::{tell, Exit};

use crate::report::{fmt_secs, Record, StatsRecord};
use crate::sched::{process_cpu_time, PoolOptions, Scheduler, SchedulerKind};
use crate::workloads::DynWorkload;

/// A (scheduler, threads) configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The scheduler.
    pub kind: SchedulerKind,
    /// Worker threads.
    pub threads: usize,
}

/// The cells for `kinds` × `threads`; `serial` appears once, with 1 thread.
pub fn cells(kinds: &[SchedulerKind], threads: &[usize]) -> Vec<Cell> {
    let mut v = Vec::new();
    for &t in threads {
        for &kind in kinds {
            let t = if kind == SchedulerKind::Serial { 1 } else { t };
            let c = Cell { kind, threads: t };
            if !v.contains(&c) {
                v.push(c);
            }
        }
    }
    v
}

/// Progress: an indicatif bar with an ETA when stderr is a terminal; otherwise one line
/// per finished workload (`[mode] workload: runs done/planned, elapsed, ETA`), so that a
/// log or CI shows the run moving too.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    /// Print a line per finished workload (stderr is not a terminal).
    lines: bool,
    /// The mode running, for those lines.
    mode: Arc<Mutex<&'static str>>,
    started: Instant,
}

impl Progress {
    /// A bar of `total` steps on stderr.
    pub fn new(total: u64) -> Progress {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40.cyan/blue}] {pos}/{len} runs, ETA {eta} {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        // indicatif hides a bar whose stderr is not a terminal.
        let lines = bar.is_hidden();
        Progress {
            bar,
            lines,
            mode: Arc::new(Mutex::new("")),
            started: Instant::now(),
        }
    }

    /// A bar that draws nothing and prints no progress lines (tests).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            lines: false,
            mode: Arc::new(Mutex::new("")),
            started: Instant::now(),
        }
    }

    /// Adds `n` steps to the total.
    pub fn add_total(&self, n: u64) {
        self.bar.inc_length(n);
    }

    /// One step done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Sets the message shown after the bar.
    pub fn msg(&self, m: String) {
        self.bar.set_message(m);
    }

    /// Names the mode now running (for the per-workload lines).
    pub fn set_mode(&self, mode: &'static str) {
        if let Ok(mut m) = self.mode.lock() {
            *m = mode;
        }
    }

    /// Runs done and planned so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.bar.position(), self.bar.length().unwrap_or(0))
    }

    /// A workload finished: off a terminal, prints
    /// `[mode] workload: runs done/planned, elapsed, ETA`.
    pub fn workload_done(&self, workload: &str) {
        if !self.lines {
            return;
        }
        let (done, planned) = self.counts();
        let mode = self.mode.lock().map(|m| *m).unwrap_or("");
        tell!(
            "{}",
            progress_line(mode, workload, done, planned, self.started.elapsed())
        );
    }

    /// Prints a line above the bar.
    pub fn println(&self, line: impl AsRef<str>) {
        if self.bar.is_hidden() {
            tell!("{}", line.as_ref());
        } else {
            self.bar.println(line.as_ref());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `[mode] workload: runs done/planned, elapsed, ETA`; the ETA assumes the remaining
/// runs take as long on average as the finished ones.
pub fn progress_line(
    mode: &str,
    workload: &str,
    done: u64,
    planned: u64,
    elapsed: Duration,
) -> String {
    let secs = elapsed.as_secs_f64();
    let eta = if done == 0 {
        "?".to_string()
    } else if done >= planned {
        "0 s".to_string()
    } else {
        fmt_secs(secs / done as f64 * planned.saturating_sub(done) as f64)
    };
    format!(
        "[{mode}] {workload}: runs {done}/{planned}, {} elapsed, ETA {eta}",
        fmt_secs(secs)
    )
}

/// Aborts the process if one run takes longer than the timeout (a deadlocked scheduler
/// would otherwise hang the suite). Results measured so far are written first.
#[derive(Clone)]
pub struct Watchdog {
    /// The run in progress: its start, its label, and whether it was reported slow.
    current: Arc<Mutex<Option<(Instant, String, bool)>>>,
}

/// A run longer than this is named on stderr while it goes on (once).
const SLOW_RUN: Duration = Duration::from_secs(10);

impl Watchdog {
    /// Starts the watchdog thread; `on_timeout` runs (once, given what hung) before the
    /// process exits with [`Exit::Timeout`].
    pub fn start(timeout: Duration, on_timeout: impl Fn(String) + Send + 'static) -> Watchdog {
        let current: Arc<Mutex<Option<(Instant, String, bool)>>> = Arc::new(Mutex::new(None));
        let c = current.clone();
        thread::Builder::new()
            .name("bench-watchdog".into())
            .spawn(move || loop {
                thread::sleep(Duration::from_millis(500));
                let (stuck, slow) = c
                    .lock()
                    .ok()
                    .and_then(|mut g| {
                        let (started, label, noted) = g.as_mut()?;
                        let age = started.elapsed();
                        let stuck = (age > timeout).then(|| label.clone());
                        // Said once per run, so a run stopped from outside (a shell's
                        // `timeout`, Ctrl-C) has named the cell that was taking long.
                        let slow = (age > SLOW_RUN && !*noted).then(|| {
                            *noted = true;
                            label.clone()
                        });
                        Some((stuck, slow))
                    })
                    .unwrap_or((None, None));
                if let Some(label) = slow {
                    tell!(
                        "\nnote: {label} has been running for over {} s",
                        SLOW_RUN.as_secs()
                    );
                }
                if let Some(label) = stuck {
                    let why = format!(
                        "{label} has not finished after {} s (--timeout)",
                        timeout.as_secs()
                    );
                    tell!("\nerror: {why}; writing partial results and aborting");
                    on_timeout(why);
                    Exit::Timeout.exit_now();
                }
            })
            .expect("spawn watchdog");
        Watchdog { current }
    }

    /// A watchdog that never fires (tests).
    pub fn disabled() -> Watchdog {
        Watchdog {
            current: Arc::new(Mutex::new(None)),
        }
    }

    /// Marks the start of a run.
    pub fn begin(&self, label: String) {
        if let Ok(mut g) = self.current.lock() {
            *g = Some((Instant::now(), label, false));
        }
    }

    /// Marks the end of the run.
    pub fn end(&self) {
        if let Ok(mut g) = self.current.lock() {
            *g = None;
        }
    }
}

/// Builds the pool of every cell. A cell whose pool cannot be built is returned as an
/// error message instead (e.g. a policy the runtime does not offer yet).
pub fn build_pools(cells: &[Cell], opts: PoolOptions) -> Vec<(Cell, Result<Scheduler, String>)> {
    cells
        .iter()
        .map(|&c| (c, Scheduler::build_with(c.kind, c.threads, opts)))
        .collect()
}

/// Fraction of a core the process burns while idle over `window` (should be ~0: a pool
/// whose idle workers spin would distort every other measurement).
pub fn idle_load(window: Duration) -> f64 {
    thread::sleep(Duration::from_millis(20));
    let c0 = process_cpu_time();
    let t0 = Instant::now();
    thread::sleep(window);
    process_cpu_time().saturating_sub(c0).as_secs_f64() / t0.elapsed().as_secs_f64()
}

/// Repetition options.
#[derive(Debug, Clone, Copy)]
pub struct Reps {
    /// Untimed warm-up runs per cell (still verified).
    pub warmup: usize,
    /// Timed runs per cell.
    pub reps: usize,
}

impl Reps {
    /// Runs per cell.
    pub fn runs(&self) -> usize {
        self.warmup + self.reps
    }
}

struct CellState {
    times: Vec<f64>,
    cpu: Vec<f64>,
    stats: Vec<splitsteal::Stats>,
    error: Option<String>,
}

/// Measures `w` on every scheduler: `warmup` rounds then `reps` rounds, each round running
/// every cell once, in an order rotated by one each round (so that drift and ordering
/// effects hit every scheduler alike). A run whose output fails verification marks the
/// cell FAILED: its times are dropped and it is not run again.
///
/// Returns one [`Record`] per cell (experiment, workload and params as given). Each
/// record's `extra` has `p_a`, the median processor average (process CPU time / wall time).
#[allow(clippy::too_many_arguments)]
pub fn measure(
    experiment: &str,
    workload: &str,
    params: &str,
    w: &dyn DynWorkload,
    scheds: &[(Cell, Result<Scheduler, String>)],
    reps: Reps,
    progress: &Progress,
    watchdog: &Watchdog,
) -> Vec<Record> {
    let n = scheds.len();
    let mut state: Vec<CellState> = scheds
        .iter()
        .map(|(_, s)| CellState {
            times: Vec::new(),
            cpu: Vec::new(),
            stats: Vec::new(),
            error: s.as_ref().err().cloned(),
        })
        .collect();
    for round in 0..reps.runs() {
        let timed = round >= reps.warmup;
        for k in 0..n {
            let i = (k + round) % n;
            progress.inc();
            let (cell, sched) = &scheds[i];
            let Ok(sched) = sched else { continue };
            if state[i].error.is_some() {
                continue;
            }
            let label = format!("{workload} on {}@{}", cell.kind, cell.threads);
            progress.msg(label.clone());
            watchdog.begin(label);
            let out = w.run_on(sched);
            watchdog.end();
            let st = &mut state[i];
            match out.check {
                Err(e) => {
                    progress.println(format!(
                        "FAILED: {workload} on {}@{}: {e}",
                        cell.kind, cell.threads
                    ));
                    st.error = Some(e);
                    st.times.clear();
                    st.cpu.clear();
                    st.stats.clear();
                }
                Ok(()) if timed => {
                    let secs = out.time.as_secs_f64();
                    st.times.push(secs);
                    st.cpu.push(out.cpu.as_secs_f64() / secs.max(1e-9));
                    st.stats.extend(out.stats);
                }
                Ok(()) => {}
            }
        }
    }
    scheds
        .iter()
        .zip(state)
        .map(|((cell, _), st)| {
            let mut r = Record::new(experiment, workload, params, cell.kind.name(), cell.threads);
            r.verified = st.error.is_none();
            r.error = st.error;
            if r.verified {
                r.set_times(st.times);
                r.stats = StatsRecord::median_of(&st.stats);
                let mut cpu = st.cpu;
                cpu.sort_by(|a, b| a.total_cmp(b));
                if !cpu.is_empty() {
                    r.extra.insert("p_a".into(), cpu[cpu.len() / 2]);
                }
            }
            r
        })
        .collect()
}

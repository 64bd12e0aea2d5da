//! Progress of a long simulation: a bar with an ETA on a terminal, and on anything else (a
//! log file, CI) a plain line every few seconds with runs done / planned and the estimate,
//! so that a sweep never sits silent for tens of seconds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use splitsteal_report::tell;

/// How often a line is printed when stderr is not a terminal.
const LINE_INTERVAL: Duration = Duration::from_secs(5);

/// Progress of one step (a sweep, a panel, a grid) of `total` runs; shared by the worker
/// threads that do the runs.
pub struct Progress {
    label: String,
    total: u64,
    // Relaxed: a counter read only for display; the runs' results travel through the pool.
    done: AtomicU64,
    start: Instant,
    /// The bar, drawn only on a terminal.
    bar: ProgressBar,
    /// Lines mode (stderr is not a terminal): when the last line was printed.
    last_line: Option<Mutex<Instant>>,
}

impl Progress {
    /// Starts the progress of `label` with `total` runs: a bar when stderr is a terminal,
    /// else a line saying what is planned.
    pub fn start(label: &str, total: u64) -> Progress {
        let on_terminal = !ProgressDrawTarget::stderr().is_hidden();
        let p = Progress::with_mode(label, total, on_terminal);
        if !on_terminal {
            tell!("{label}: {total} runs planned");
        }
        p
    }

    /// Progress that shows nothing (library callers and tests).
    pub fn hidden() -> Progress {
        let mut p = Progress::with_mode("", 0, false);
        p.last_line = None;
        p
    }

    /// [`Progress::start`] with the terminal test's answer given: a bar if `on_terminal`,
    /// else lines.
    #[doc(hidden)]
    pub fn with_mode(label: &str, total: u64, on_terminal: bool) -> Progress {
        let bar = if on_terminal {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix} {elapsed_precise} [{bar:40.cyan/blue}] {human_pos}/{human_len} runs, ETA {eta}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar.set_prefix(label.to_string());
            bar
        } else {
            ProgressBar::hidden()
        };
        Progress {
            label: label.to_string(),
            total,
            done: AtomicU64::new(0),
            start: Instant::now(),
            bar,
            last_line: (!on_terminal).then(|| Mutex::new(Instant::now())),
        }
    }

    /// One run done (called from any worker thread).
    pub fn inc(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.bar.inc(1);
        // try_lock: a worker never waits for another one's line.
        if let Some(Ok(mut last)) = self.last_line.as_ref().map(Mutex::try_lock) {
            if last.elapsed() >= LINE_INTERVAL && done < self.total {
                *last = Instant::now();
                drop(last);
                tell!("{}", self.line(done));
            }
        }
    }

    /// "label: done/total runs (x%), elapsed, ETA".
    #[doc(hidden)]
    pub fn line(&self, done: u64) -> String {
        let secs = self.start.elapsed().as_secs_f64();
        let pct = 100.0 * done as f64 / self.total.max(1) as f64;
        let eta = if done > 0 {
            format!(
                ", ETA {}",
                human_secs(secs * (self.total - done.min(self.total)) as f64 / done as f64)
            )
        } else {
            String::new()
        };
        format!(
            "{}: {done}/{} runs ({pct:.0}%), {} elapsed{eta}",
            self.label,
            self.total,
            human_secs(secs)
        )
    }

    /// Ends the step: removes the bar, or prints the closing line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
        if self.last_line.is_some() {
            let done = self.done.load(Ordering::Relaxed);
            tell!(
                "{}: {done}/{} runs done in {}",
                self.label,
                self.total,
                human_secs(self.start.elapsed().as_secs_f64())
            );
        }
    }
}

/// `42 s`, `3 min 05 s`, `1 h 02 min`.
pub fn human_secs(s: f64) -> String {
    let s = s.max(0.0);
    if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        let m = (s / 60.0).floor();
        format!("{m:.0} min {:02.0} s", (s - 60.0 * m).floor())
    } else {
        let h = (s / 3600.0).floor();
        format!("{h:.0} h {:02.0} min", ((s - 3600.0 * h) / 60.0).floor())
    }
}

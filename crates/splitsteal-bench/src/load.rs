//! The machine's load while a section of the report ran, so that a run on a busy machine
//! does not read as trustworthy as a quiet one.
//!
//! At the start and end of every section the suite reads the CPU time spent by the whole
//! machine (`/proc/stat`) and by this process (`/proc/self/stat`); the machine's busy time
//! minus this process's, over the section's wall time, is the CPU other processes took
//! meanwhile ([`others_cpu`]). A section is flagged when that took more than
//! [`OTHER_SHARE_HIGH`] of the CPUs this process may use ([`is_high`]). The 1-minute load
//! average (`/proc/loadavg`) is shown too but never flags a section: it counts the
//! benchmark's own threads, so a benchmark that keeps every CPU busy reaches the CPU count
//! on a quiet machine. Where `/proc` is missing (not Linux) the figures are absent and no
//! section is flagged.

use std::time::Instant;

use serde::{Deserialize, Serialize};

/// Other processes' share of the CPUs this process may use above which a section is
/// flagged: a tenth (0.2 CPU on 2 CPUs) taken from a benchmark that uses every CPU moves
/// its times by more than their usual spread.
pub const OTHER_SHARE_HIGH: f64 = 0.10;

/// The CPU other processes took between two readings, in CPUs (1.0: one CPU busy the
/// whole time): the machine's busy jiffies `busy.1 - busy.0` less this process's
/// `own.1 - own.0`, over `seconds` of wall time at `ticks` jiffies per second. `None` when
/// the interval or the tick rate is not positive; never below 0 (the two files are read
/// a moment apart, so this process's count can run ahead of the machine's).
pub fn others_cpu(busy: (u64, u64), own: (u64, u64), ticks: f64, seconds: f64) -> Option<f64> {
    if seconds <= 0.0 || ticks <= 0.0 {
        return None;
    }
    let machine = busy.1.saturating_sub(busy.0) as f64;
    let mine = own.1.saturating_sub(own.0) as f64;
    Some(((machine - mine) / ticks / seconds).max(0.0))
}

/// Whether other processes' `other_cpu` CPUs (from [`others_cpu`]) are more than
/// [`OTHER_SHARE_HIGH`] of `cpus`. Unknown (`None`) is not high.
pub fn is_high(other_cpu: Option<f64>, cpus: usize) -> bool {
    other_cpu.is_some_and(|c| c > OTHER_SHARE_HIGH * cpus.max(1) as f64)
}

/// One reading of the machine's load.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// When it was read.
    #[doc(hidden)]
    pub at: Instant,
    /// The 1-minute load average.
    #[doc(hidden)]
    pub loadavg: Option<f64>,
    /// Jiffies every CPU spent busy (not idle, not waiting for I/O), since boot.
    #[doc(hidden)]
    pub busy: Option<u64>,
    /// Jiffies this process (and its waited-for children) spent on a CPU.
    #[doc(hidden)]
    pub own: Option<u64>,
}

impl Sample {
    /// Reads `/proc` now.
    pub fn now() -> Sample {
        let read = |p: &str| std::fs::read_to_string(p).ok();
        Sample {
            at: Instant::now(),
            loadavg: read("/proc/loadavg").as_deref().and_then(parse_loadavg),
            busy: read("/proc/stat").as_deref().and_then(parse_stat_busy),
            own: read("/proc/self/stat").as_deref().and_then(parse_self_stat),
        }
    }
}

/// The load over one section, as `results.json`'s `run.load` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SectionLoad {
    /// The section (a `--mode` name).
    pub section: String,
    /// Its wall time (s).
    pub seconds: f64,
    /// The 1-minute load average at its start and its end (this process's threads count
    /// too, so it never flags a section).
    pub loadavg_start: Option<f64>,
    /// See `loadavg_start`.
    pub loadavg_end: Option<f64>,
    /// The CPU time other processes took during the section, in CPUs (1.0: one CPU busy
    /// the whole time).
    pub other_cpu: Option<f64>,
    /// The CPUs this process may use.
    pub cpus: usize,
    /// Other processes took more than [`OTHER_SHARE_HIGH`] of the CPUs ([`is_high`]): this
    /// section's times are less trustworthy.
    pub high: bool,
}

impl SectionLoad {
    /// The load between two samples, with `ticks` jiffies per second.
    pub fn between(section: &str, a: &Sample, b: &Sample, cpus: usize, ticks: f64) -> Self {
        let seconds = b.at.duration_since(a.at).as_secs_f64();
        let other_cpu = match (a.busy, b.busy, a.own, b.own) {
            (Some(b0), Some(b1), Some(o0), Some(o1)) => {
                others_cpu((b0, b1), (o0, o1), ticks, seconds)
            }
            _ => None,
        };
        SectionLoad::new(section, seconds, a.loadavg, b.loadavg, other_cpu, cpus)
    }

    /// A section's load from its figures; `high` is computed.
    pub fn new(
        section: &str,
        seconds: f64,
        loadavg_start: Option<f64>,
        loadavg_end: Option<f64>,
        other_cpu: Option<f64>,
        cpus: usize,
    ) -> Self {
        let high = is_high(other_cpu, cpus);
        SectionLoad {
            section: section.to_string(),
            seconds,
            loadavg_start,
            loadavg_end,
            other_cpu,
            cpus,
            high,
        }
    }

    /// The section's row of the report's load table.
    pub fn row(&self) -> Vec<String> {
        let f = |x: Option<f64>| x.map(|v| format!("{v:.2}")).unwrap_or_else(|| "-".into());
        vec![
            self.section.clone(),
            crate::report::fmt_secs(self.seconds),
            format!("{} → {}", f(self.loadavg_start), f(self.loadavg_end)),
            self.other_cpu
                .map(|c| {
                    format!(
                        "{c:.2} CPU ({:.0}% of {})",
                        100.0 * c / self.cpus.max(1) as f64,
                        self.cpus
                    )
                })
                .unwrap_or_else(|| "unknown".into()),
            if self.high { "HIGH" } else { "ok" }.to_string(),
        ]
    }
}

/// Jiffies per second (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
pub fn ticks_per_second() -> f64 {
    // SAFETY: sysconf reads a configuration value; it has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as f64
    } else {
        100.0
    }
}

/// The CPUs this process may use.
pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The report's table of every section's load.
pub fn table(loads: &[SectionLoad]) -> crate::report::Table {
    let mut t = crate::report::Table::new(
        "System load during each section",
        &[
            "section",
            "wall time",
            "load average (start → end)",
            "other processes",
            "load",
        ],
    );
    for l in loads {
        t.row(l.row());
    }
    t.notes.push(format!(
        "Other processes: the CPU time the rest of the machine took during the section (/proc/stat's busy time \
         minus this process's own, /proc/self/stat's utime + stime), in CPUs and as a share of the {} CPU(s) the \
         benchmark may use. HIGH: that share above {:.0}%; the times of that section are then less trustworthy (on a \
         busy machine 2-thread cells can be no faster than 1-thread ones). The load average is shown for reference \
         only and never flags a section: it counts this benchmark's own threads, so a benchmark that keeps every \
         CPU busy reaches the CPU count on a quiet machine. unknown: no /proc (not Linux), nothing flagged.",
        loads.first().map_or_else(cpus, |l| l.cpus),
        100.0 * OTHER_SHARE_HIGH
    ));
    t
}

/// The first field of `/proc/loadavg`.
#[doc(hidden)]
pub fn parse_loadavg(s: &str) -> Option<f64> {
    s.split_whitespace().next()?.parse().ok()
}

/// The busy jiffies of `/proc/stat`'s `cpu` line: user, nice, system, irq, softirq and steal
/// (idle and iowait left out; guest time is already inside user).
#[doc(hidden)]
pub fn parse_stat_busy(s: &str) -> Option<u64> {
    let line = s.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    let at = |i: usize| v.get(i).copied().unwrap_or(0);
    Some(at(0) + at(1) + at(2) + at(5) + at(6) + at(7))
}

/// utime + stime + cutime + cstime of `/proc/self/stat` (fields 14 to 17, counted after
/// the command name, which may hold spaces and parentheses).
#[doc(hidden)]
pub fn parse_self_stat(s: &str) -> Option<u64> {
    let rest = &s[s.rfind(')')? + 1..];
    // Fields from 3 (state) on; utime is field 14.
    let f: Vec<&str> = rest.split_whitespace().collect();
    (11..15)
        .map(|i| f.get(i)?.parse::<i64>().ok().map(|x| x.max(0) as u64))
        .sum()
}

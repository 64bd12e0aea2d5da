//! The facts about a run that head every report: command, date, machine, revision.

use serde::Serialize;

/// Facts about the run shown at the top of the report.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RunInfo {
    /// The command line.
    pub command: String,
    /// UTC date and time.
    pub date: String,
    /// CPU model and core count.
    pub machine: String,
    /// `git describe`-like revision, if available.
    pub revision: String,
    /// Size, repetitions, schedulers, ...
    pub settings: Vec<String>,
    /// Wall time of each mode and in total.
    pub timing: Vec<String>,
    /// Why the report is partial (interrupted, timed out), or `None` for a complete run:
    /// a reader must not take a partial report's missing cells for absent schedulers.
    pub partial: Option<String>,
}

impl RunInfo {
    /// Lines for the text/Markdown header.
    pub fn lines(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .partial
            .iter()
            .map(|why| format!("PARTIAL: {why}"))
            .collect();
        v.extend([
            format!("command: {}", self.command),
            format!("date: {}", self.date),
            format!("machine: {}", self.machine),
        ]);
        if !self.revision.is_empty() {
            v.push(format!("revision: {}", self.revision));
        }
        v.extend(self.settings.iter().cloned());
        v.extend(self.timing.iter().cloned());
        v
    }
}

/// Today's UTC date and time from the system clock (`YYYY-MM-DD HH:MM UTC`).
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil-from-days (H. Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// CPU model (from `/proc/cpuinfo`) and the number of CPUs this process may use.
pub fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let n = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("MemTotal"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map(|kb| format!(", {:.0} GiB", kb / (1024.0 * 1024.0)))
        .unwrap_or_default();
    format!("{model}, {n} CPUs{mem}")
}

/// `git rev-parse --short HEAD` (plus `-dirty`), or empty.
pub fn revision() -> String {
    let run = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match run(&["rev-parse", "--short", "HEAD"]) {
        Some(h) => {
            let dirty = run(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{h}-dirty")
            } else {
                h
            }
        }
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_look_like_dates() {
        let d = utc_now();
        assert_eq!(d.len(), "2026-01-01 00:00 UTC".len(), "{d}");
        assert!(d.starts_with("20") && d.ends_with(" UTC"), "{d}");
    }

    #[test]
    fn lines_skip_an_unknown_revision() {
        let mut info = RunInfo {
            command: "splitsteal bench".into(),
            ..RunInfo::default()
        };
        assert!(!info.lines().iter().any(|l| l.starts_with("revision")));
        info.revision = "abc1234".into();
        assert!(info.lines().contains(&"revision: abc1234".to_string()));
    }

    #[test]
    fn a_partial_run_says_so_first() {
        let mut info = RunInfo::default();
        assert!(!info.lines().iter().any(|l| l.contains("PARTIAL")));
        info.partial = Some("interrupted".into());
        assert_eq!(info.lines()[0], "PARTIAL: interrupted");
    }
}

//! The records of a `splitsteal bench` run: one [`Record`] per (experiment, workload,
//! scheduler, threads) cell, as `results.json` holds them. Here, not in the bench crate,
//! so that what reads a run's results (`splitsteal sim scaling`) parses the very type the
//! bench writes without depending on the bench and its peers' runtimes.
//!
//! ```
//! use splitsteal_report::records::Record;
//!
//! let mut r = Record::new("suite", "fib", "n = 34", "asym", 2);
//! r.set_times(vec![0.031, 0.029, 0.030]);
//! assert_eq!((r.reps, r.median_s, r.range()), (3, Some(0.030), Some((0.029, 0.031))));
//! let json = serde_json::to_string(&r).unwrap();
//! let back: Record = serde_json::from_str(&json).unwrap();
//! assert_eq!(back, r);
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use splitsteal_core::Stats;

/// The splitsteal counters of a record (the per-run median of each counter).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsRecord {
    /// Compare-and-swap instructions.
    pub cas: u64,
    /// `SeqCst` fences.
    pub fences: u64,
    /// Successful steals.
    pub steals: u64,
    /// Steal attempts.
    pub steal_attempts: u64,
    /// Tasks moved from a private to a public deque part (LCWS).
    pub exposures: u64,
    /// Exposure signals sent.
    pub signals: u64,
    /// Jobs executed.
    pub tasks: u64,
    /// Other atomic read-modify-writes.
    pub rmw: u64,
    /// Times a worker went to sleep.
    pub sleeps: u64,
    /// Tasks mailed (`hybrid`).
    pub mailed: u64,
    /// Process-wide heavy fences (`membarrier` on Linux) run by thieves, one per claim
    /// under `asym` unless its owner answered the claim; each interrupts every running
    /// thread of the process, so they are counted apart from `fences`. Absent (0) in the
    /// records of runs from before the field existed.
    #[serde(default)]
    pub heavy_fences: u64,
    /// `asym` thieves' claims that their owner answered, so that the steal ran no heavy
    /// fence (pools of eight workers or more). Absent (0) in older records.
    #[serde(default)]
    pub answered_claims: u64,
}

impl From<Stats> for StatsRecord {
    fn from(s: Stats) -> Self {
        StatsRecord {
            cas: s.cas,
            fences: s.fences,
            steals: s.steals,
            steal_attempts: s.steal_attempts,
            exposures: s.exposures,
            signals: s.signals,
            tasks: s.tasks,
            rmw: s.rmw,
            sleeps: s.sleeps,
            mailed: s.mailed,
            heavy_fences: s.heavy_fences,
            answered_claims: s.answered_claims,
        }
    }
}

impl StatsRecord {
    /// The counters as (name, value) pairs, in the CSV column order.
    pub fn fields(&self) -> [(&'static str, u64); 12] {
        [
            ("cas", self.cas),
            ("fences", self.fences),
            ("steals", self.steals),
            ("steal_attempts", self.steal_attempts),
            ("exposures", self.exposures),
            ("signals", self.signals),
            ("tasks", self.tasks),
            ("rmw", self.rmw),
            ("sleeps", self.sleeps),
            ("mailed", self.mailed),
            ("heavy_fences", self.heavy_fences),
            ("answered_claims", self.answered_claims),
        ]
    }

    /// The median of each counter over `runs` (upper median for even counts).
    pub fn median_of(runs: &[Stats]) -> Option<StatsRecord> {
        if runs.is_empty() {
            return None;
        }
        let med = |f: fn(&Stats) -> u64| {
            let mut v: Vec<u64> = runs.iter().map(f).collect();
            v.sort_unstable();
            v[v.len() / 2]
        };
        Some(StatsRecord {
            cas: med(|s| s.cas),
            fences: med(|s| s.fences),
            steals: med(|s| s.steals),
            steal_attempts: med(|s| s.steal_attempts),
            exposures: med(|s| s.exposures),
            signals: med(|s| s.signals),
            tasks: med(|s| s.tasks),
            rmw: med(|s| s.rmw),
            sleeps: med(|s| s.sleeps),
            mailed: med(|s| s.mailed),
            heavy_fences: med(|s| s.heavy_fences),
            answered_claims: med(|s| s.answered_claims),
        })
    }
}

/// One cell of an experiment: a workload on a scheduler with a thread count.
///
/// `results.json`'s `records` are a list of these. Times are wall-clock seconds over the timed
/// repetitions (warm-up excluded). A cell whose output failed verification in any run
/// has `verified = false`, an `error`, and no times.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// `suite`, `scaling`, `latency` or `multiprogram`.
    pub experiment: String,
    /// Workload name (for `scaling`, `fib(n)`; for `latency`, `spawn-N`).
    pub workload: String,
    /// Input description.
    pub params: String,
    /// Scheduler name (`serial`, a policy, `rayon`, `chili`).
    pub scheduler: String,
    /// Worker threads.
    pub threads: usize,
    /// Timed repetitions.
    pub reps: usize,
    /// Median time (s).
    pub median_s: Option<f64>,
    /// Fastest repetition (s).
    pub min_s: Option<f64>,
    /// Slowest repetition (s).
    pub max_s: Option<f64>,
    /// Whether every run's output matched the serial reference.
    pub verified: bool,
    /// splitsteal counters (per-run medians); `null` for serial, rayon and chili.
    pub stats: Option<StatsRecord>,
    /// Serial median / this median (same run).
    pub speedup: Option<f64>,
    /// This median / rayon's median at the same thread count (same run), "×rayon": below
    /// 1 is faster than rayon (0.80 takes 80% of rayon's time).
    pub vs_rayon: Option<f64>,
    /// Why the cell failed, if it did.
    pub error: Option<String>,
    /// Every timed repetition (s), in run order.
    pub times_s: Vec<f64>,
    /// Experiment-specific numbers (latency percentiles, processor average, ...).
    pub extra: BTreeMap<String, f64>,
}

impl Record {
    /// A record with the identifying fields set and no measurements.
    pub fn new(
        experiment: &str,
        workload: &str,
        params: &str,
        scheduler: &str,
        threads: usize,
    ) -> Record {
        Record {
            experiment: experiment.into(),
            workload: workload.into(),
            params: params.into(),
            scheduler: scheduler.into(),
            threads,
            reps: 0,
            median_s: None,
            min_s: None,
            max_s: None,
            verified: false,
            stats: None,
            speedup: None,
            vs_rayon: None,
            error: None,
            times_s: Vec::new(),
            extra: BTreeMap::new(),
        }
    }

    /// Sets `times_s`, `reps`, `median_s`, `min_s` and `max_s` from `times`.
    pub fn set_times(&mut self, times: Vec<f64>) {
        self.reps = times.len();
        let s = sorted(&times);
        self.median_s = (!s.is_empty()).then(|| quantile_sorted(&s, 0.5));
        self.min_s = s.first().copied();
        self.max_s = s.last().copied();
        self.times_s = times;
    }

    /// The fastest and slowest repetition, `(min_s, max_s)`, if the cell has times.
    pub fn range(&self) -> Option<(f64, f64)> {
        Some((self.min_s?, self.max_s?))
    }
}

/// Sorted copy.
pub fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v
}

/// Linear-interpolation quantile of sorted data (NaN if empty).
pub fn quantile_sorted(s: &[f64], q: f64) -> f64 {
    match s.len() {
        0 => f64::NAN,
        1 => s[0],
        n => {
            let h = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            s[lo] + (h - lo as f64) * (s[hi] - s[lo])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heavy_fences_and_answered_claims_come_from_the_pools_counters() {
        let stats = |heavy_fences, answered_claims| Stats {
            heavy_fences,
            answered_claims,
            steals: 7,
            ..Stats::default()
        };
        let one = StatsRecord::from(stats(5, 2));
        assert_eq!(
            (one.heavy_fences, one.answered_claims, one.steals),
            (5, 2, 7)
        );
        let med = StatsRecord::median_of(&[stats(1, 8), stats(9, 0), stats(4, 3)]).unwrap();
        assert_eq!((med.heavy_fences, med.answered_claims), (4, 3));
        let fields = med.fields();
        assert!(fields.contains(&("heavy_fences", 4)), "{fields:?}");
        assert!(fields.contains(&("answered_claims", 3)), "{fields:?}");
    }

    #[test]
    fn records_written_before_the_heavy_fence_counters_still_parse() {
        let old = r#"{"cas": 1, "fences": 2, "steals": 3, "steal_attempts": 4, "exposures": 0,
                      "signals": 0, "tasks": 9, "rmw": 0, "sleeps": 0, "mailed": 0}"#;
        let parsed: StatsRecord = serde_json::from_str(old).unwrap();
        assert_eq!(
            (parsed.steals, parsed.heavy_fences, parsed.answered_claims),
            (3, 0, 0)
        );
    }
}

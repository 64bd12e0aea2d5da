//! Results: the [`Record`] of one (experiment, workload, scheduler, threads) cell (defined
//! in `splitsteal-report`, which the simulator that reads `results.json` shares), the
//! `results.json` / `results.csv` writers, and plain/Markdown/HTML [`Table`]s.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::Path;

use serde::Serialize;
use splitsteal_report::out_dir::{self, PathError};
use splitsteal_report::RunInfo;

pub use splitsteal_report::records::{quantile_sorted, sorted, Record, StatsRecord};

/// How one cell compares with another once the run-to-run spread is accounted for: a win
/// or a loss only when the two cells' min–max ranges of repetition times do not overlap;
/// overlapping (or touching) ranges are a tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Versus {
    /// Faster beyond the spread: its slowest repetition beat the other's fastest.
    Win,
    /// The min–max ranges overlap: the difference is within the run-to-run spread.
    Tie,
    /// Slower beyond the spread.
    Loss,
}

impl Versus {
    /// `a` against `b`, from their (min, max) repetition times (lower is faster).
    pub fn of_ranges(a: (f64, f64), b: (f64, f64)) -> Versus {
        if a.1 < b.0 {
            Versus::Win
        } else if a.0 > b.1 {
            Versus::Loss
        } else {
            Versus::Tie
        }
    }

    /// `a` against `b` (`None` unless both cells have times).
    pub fn of_records(a: &Record, b: &Record) -> Option<Versus> {
        Some(Versus::of_ranges(a.range()?, b.range()?))
    }
}

/// Wins, ties and losses of one scheduler against another over workloads ([`Versus`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Faster beyond the spread.
    pub wins: usize,
    /// Within the spread.
    pub ties: usize,
    /// Slower beyond the spread.
    pub losses: usize,
}

impl Tally {
    /// Counts one comparison.
    pub fn add(&mut self, v: Versus) {
        match v {
            Versus::Win => self.wins += 1,
            Versus::Tie => self.ties += 1,
            Versus::Loss => self.losses += 1,
        }
    }

    /// Counts a comparison if there is one.
    pub fn extend(&mut self, v: Option<Versus>) {
        if let Some(v) = v {
            self.add(v);
        }
    }

    /// The number of comparisons.
    pub fn total(&self) -> usize {
        self.wins + self.ties + self.losses
    }

    /// The share of wins (ties count against), `None` if empty.
    pub fn win_share(&self) -> Option<f64> {
        (self.total() > 0).then(|| self.wins as f64 / self.total() as f64)
    }

    /// `7 wins, 10 ties, 1 loss`.
    pub fn describe(&self) -> String {
        let n =
            |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        format!(
            "{}, {}, {}",
            n(self.wins, "win", "wins"),
            n(self.ties, "tie", "ties"),
            n(self.losses, "loss", "losses")
        )
    }
}

/// The range of `num`'s time / `den`'s time over their repetitions: (`num.min / den.max`,
/// `num.max / den.min`). E.g. `ratio_range(p, rayon)` bounds p's ×rayon.
pub fn ratio_range(num: &Record, den: &Record) -> Option<(f64, f64)> {
    let (a, b) = (num.range()?, den.range()?);
    (b.0 > 0.0).then(|| (a.0 / b.1, a.1 / b.0))
}

/// Geometric mean (None if empty or any value is not positive).
pub fn geomean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() || xs.iter().any(|&x| x.is_nan() || x <= 0.0) {
        return None;
    }
    Some((xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// Fills `speedup` (vs the `serial` record of the same experiment and workload) and
/// `vs_rayon` (vs the `rayon` record with the same thread count).
pub fn fill_ratios(records: &mut [Record]) {
    let key = |r: &Record| (r.experiment.clone(), r.workload.clone());
    let mut serial = BTreeMap::new();
    let mut rayon = BTreeMap::new();
    for r in records.iter() {
        if let Some(m) = r.median_s {
            if r.scheduler == "serial" {
                serial.insert(key(r), m);
            } else if r.scheduler == "rayon" {
                rayon.insert((key(r), r.threads), m);
            }
        }
    }
    for r in records.iter_mut() {
        if let Some(m) = r.median_s.filter(|&m| m > 0.0) {
            r.speedup = serial.get(&key(r)).map(|s| s / m);
            r.vs_rayon = rayon
                .get(&(key(r), r.threads))
                .filter(|&&s| s > 0.0)
                .map(|s| m / s);
        }
    }
}

/// The CSV columns, in order (stats flattened; empty cells for absent values).
pub const CSV_COLUMNS: [&str; 28] = [
    "experiment",
    "workload",
    "params",
    "scheduler",
    "threads",
    "reps",
    "median_s",
    "min_s",
    "max_s",
    "verified",
    "speedup",
    "vs_rayon",
    "cas",
    "fences",
    "steals",
    "steal_attempts",
    "exposures",
    "signals",
    "tasks",
    "rmw",
    "sleeps",
    "mailed",
    "heavy_fences",
    "answered_claims",
    "error",
    "times_s",
    "extra",
    "stats_present",
];

fn opt<T: ToString>(x: Option<T>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

/// Writes `records` as CSV (columns [`CSV_COLUMNS`]; `times_s` and `extra` are
/// `;`-separated lists).
pub fn write_csv<W: io::Write>(w: W, records: &[Record]) -> csv::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(CSV_COLUMNS)?;
    for r in records {
        let mut row: Vec<String> = vec![
            r.experiment.clone(),
            r.workload.clone(),
            r.params.clone(),
            r.scheduler.clone(),
            r.threads.to_string(),
            r.reps.to_string(),
            opt(r.median_s),
            opt(r.min_s),
            opt(r.max_s),
            r.verified.to_string(),
            opt(r.speedup),
            opt(r.vs_rayon),
        ];
        match &r.stats {
            Some(s) => row.extend(s.fields().iter().map(|(_, v)| v.to_string())),
            None => row.extend(std::iter::repeat_n(
                String::new(),
                StatsRecord::default().fields().len(),
            )),
        }
        row.push(r.error.clone().unwrap_or_default());
        row.push(
            r.times_s
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(";"),
        );
        row.push(
            r.extra
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(";"),
        );
        row.push(r.stats.is_some().to_string());
        out.write_record(&row)?;
    }
    out.flush()?;
    Ok(())
}

/// The `run` object of `results.json`: the facts that head the report ([`RunInfo`]'s
/// fields, `partial` among them), plus the input seed and size class.
#[derive(Debug, Clone, Serialize)]
pub struct RunMeta<'a> {
    /// Command, date, machine, revision, settings, timing, partial.
    #[serde(flatten)]
    pub info: &'a RunInfo,
    /// `--seed`.
    pub seed: u64,
    /// Input size class: `quick` or `full`.
    pub size: String,
    /// The machine's load during each section ([`crate::load`]).
    pub load: Vec<crate::load::SectionLoad>,
}

/// `results.json`: `{"run": {...}, "records": [...]}`.
#[derive(Serialize)]
struct Results<'a> {
    run: &'a RunMeta<'a>,
    records: &'a [Record],
}

/// Writes `contents` to a temporary file beside `path`, then renames it over `path`: a
/// reader (or a run interrupted while writing) never sees a half-written file.
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), PathError> {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    out_dir::write(&tmp, contents)?;
    std::fs::rename(&tmp, path).map_err(|source| PathError {
        path: path.to_path_buf(),
        action: "replace",
        source,
    })
}

/// Writes `results.json` (the run's facts and the records) and `results.csv` (the
/// records) into `dir`; errors name the file.
pub fn write_results(
    dir: &Path,
    run: &RunMeta,
    records: &[Record],
) -> Result<(), Box<dyn std::error::Error>> {
    let json = serde_json::to_string_pretty(&Results { run, records })?;
    write_atomic(&dir.join("results.json"), json + "\n")?;
    let mut csv = Vec::new();
    write_csv(&mut csv, records)?;
    write_atomic(&dir.join("results.csv"), csv)?;
    Ok(())
}

/// Where a table belongs in the report: the page leads with the headline and the targets
/// and collapses the raw per-cell tables, which few readers need and which would otherwise
/// push everything else off the first screen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TableRole {
    /// The one-glance answer (per workload: the default policy against rayon and chili).
    Headline,
    /// Targets: performance goals met or missed, and verification PASS or FAILED, with why.
    Targets,
    /// A readable summary, shown beside its mode's plots.
    #[default]
    Summary,
    /// Every cell: collapsed in the page, last in `tables.md`.
    Raw,
}

/// A table with a title, rendered as aligned text, Markdown or HTML.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// Title (a heading in Markdown/HTML).
    pub title: String,
    /// Column headers.
    pub header: Vec<String>,
    /// Rows (same length as the header).
    pub rows: Vec<Vec<String>>,
    /// Lines printed under the table.
    pub notes: Vec<String>,
    /// Where the report puts it.
    pub role: TableRole,
}

impl Table {
    /// An empty table with these headers.
    pub fn new(title: impl Into<String>, header: &[&str]) -> Table {
        Table {
            title: title.into(),
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
            notes: Vec::new(),
            role: TableRole::Summary,
        }
    }

    /// The same table in another role.
    pub fn with_role(mut self, role: TableRole) -> Table {
        self.role = role;
        self
    }

    /// Appends a row.
    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.header.len());
        self.rows.push(cells);
    }

    fn widths(&self) -> Vec<usize> {
        let mut w: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate() {
                w[i] = w[i].max(c.chars().count());
            }
        }
        w
    }

    /// Aligned plain text: first column left-aligned, the others right-aligned (without
    /// rows: the title and notes).
    pub fn to_text(&self) -> String {
        let w = self.widths();
        let mut s = String::new();
        let _ = writeln!(s, "{}", self.title);
        if self.rows.is_empty() {
            for n in &self.notes {
                let _ = writeln!(s, "{n}");
            }
            return s;
        }
        let line = |s: &mut String, cells: &[String]| {
            for (i, c) in cells.iter().enumerate() {
                let pad = w[i].saturating_sub(c.chars().count());
                if i == 0 {
                    s.push_str(c);
                    s.push_str(&" ".repeat(pad));
                } else {
                    s.push_str("  ");
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                }
            }
            s.push('\n');
        };
        line(&mut s, &self.header);
        let total: usize = w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1);
        s.push_str(&"-".repeat(total));
        s.push('\n');
        for r in &self.rows {
            line(&mut s, r);
        }
        for n in &self.notes {
            let _ = writeln!(s, "{n}");
        }
        s
    }

    /// A GitHub Markdown table under a `###` heading (without rows: the heading and notes).
    pub fn to_markdown(&self) -> String {
        let mut s = format!("### {}\n\n", self.title);
        if self.rows.is_empty() {
            for n in &self.notes {
                let _ = writeln!(s, "{n}\n");
            }
            return s;
        }
        let _ = writeln!(s, "| {} |", self.header.join(" | "));
        let _ = writeln!(
            s,
            "|{}",
            self.header
                .iter()
                .enumerate()
                .map(|(i, _)| if i == 0 || self.is_text_column(i) {
                    "---|"
                } else {
                    "---:|"
                })
                .collect::<String>()
        );
        for r in &self.rows {
            let _ = writeln!(s, "| {} |", r.join(" | "));
        }
        for n in &self.notes {
            let _ = write!(s, "\n{n}\n");
        }
        s
    }

    /// Whether every filled cell of column `i` is a name or a sentence (aligned left).
    fn is_text_column(&self, i: usize) -> bool {
        let mut cells = self
            .rows
            .iter()
            .filter_map(|r| r.get(i))
            .filter(|c| !c.is_empty())
            .peekable();
        cells.peek().is_some() && cells.all(|c| is_text(c))
    }

    /// An HTML `<table>` under an `<h3>` heading; a table without rows shows its heading
    /// and notes only (the notes say why it is empty).
    pub fn to_html(&self) -> String {
        let table = if self.rows.is_empty() {
            String::new()
        } else {
            self.to_html_table()
        };
        let mut s = format!("<h3>{}</h3>\n{table}", esc(&self.title));
        for n in &self.notes {
            let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(n));
        }
        s
    }

    /// The bare HTML `<table>`, without title or notes. FAILED cells (a wrong result) are
    /// the only red ones, so that they stand out in a long table; a performance goal's
    /// "met" or "missed" is shaded neutrally.
    pub fn to_html_table(&self) -> String {
        let mut s = String::from("<table>\n<tr>");
        for (i, h) in self.header.iter().enumerate() {
            // A column of names or sentences is headed from the left, as it reads.
            let class = if i > 0 && self.is_text_column(i) {
                " class=\"text\""
            } else {
                ""
            };
            let _ = write!(s, "<th{class}>{}</th>", esc(h));
        }
        s.push_str("</tr>\n");
        for r in &self.rows {
            s.push_str("<tr>");
            for c in r {
                let mut class: Vec<&str> = Vec::new();
                if c.contains("FAILED") {
                    class.push("failed");
                } else if c == "PASS" {
                    class.push("pass");
                } else if c == "met" || c == "missed" {
                    class.push(if c == "met" { "met" } else { "missed" });
                }
                // Numbers line up on the right; sentences and names read from the left.
                if is_text(c) {
                    class.push("text");
                }
                let attr = if class.is_empty() {
                    String::new()
                } else {
                    format!(" class=\"{}\"", class.join(" "))
                };
                let _ = write!(s, "<td{attr}>{}</td>", esc(c));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n");
        s
    }
}

/// A name or a sentence (`lcws-signal`, `n/a: rayon not run`), as opposed to a measurement.
fn is_text(c: &str) -> bool {
    c.chars().any(|ch| ch.is_alphabetic()) && !looks_numeric(c)
}

/// A measurement with a unit or mark (`12.3 ms`, `1.20× (tie)`, `3.4k`), as opposed to a
/// name or a sentence.
fn looks_numeric(c: &str) -> bool {
    c.trim_start_matches(['-', '+', '≤', '≥', ' '])
        .chars()
        .next()
        .is_some_and(|ch| ch.is_ascii_digit())
        && c.split_whitespace().count() <= 3
}

/// HTML escaping (the one shared by every report).
pub use splitsteal_report::page::esc;

/// Seconds formatted with a unit that keeps 3 significant digits (`12.3 ms`).
pub fn fmt_secs(s: f64) -> String {
    if !s.is_finite() {
        return "-".into();
    }
    let (v, unit) = if s >= 1.0 {
        (s, "s")
    } else if s >= 1e-3 {
        (s * 1e3, "ms")
    } else if s >= 1e-6 {
        (s * 1e6, "µs")
    } else {
        (s * 1e9, "ns")
    };
    if v >= 100.0 {
        format!("{v:.0} {unit}")
    } else if v >= 10.0 {
        format!("{v:.1} {unit}")
    } else {
        format!("{v:.2} {unit}")
    }
}

/// One workload's cells on a progress line: `scheduler@threads median`, or `FAILED`.
pub fn cells_line(records: &[Record]) -> String {
    records
        .iter()
        .map(|r| match r.median_s {
            Some(m) => format!("{}@{} {}", r.scheduler, r.threads, fmt_secs(m)),
            None => format!("{}@{} FAILED", r.scheduler, r.threads),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A large count with a k/M/G suffix.
pub fn fmt_count(n: u64) -> String {
    let f = n as f64;
    if n < 10_000 {
        n.to_string()
    } else if f < 1e6 {
        format!("{:.1}k", f / 1e3)
    } else if f < 1e9 {
        format!("{:.1}M", f / 1e6)
    } else {
        format!("{:.2}G", f / 1e9)
    }
}

/// `x` with 2 decimals (no decimals from 100 on), or `-`.
pub fn fmt_ratio(x: Option<f64>) -> String {
    match x {
        Some(v) if v.abs() >= 100.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.2}"),
        None => "-".into(),
    }
}

//! The `dist latency` report folder: `dist_latency_runs.csv` (every run),
//! `dist_latency_summary.json` (per cell and per λ, the transport's latency),
//! `median_ratios.md`, `dist_ratio_boxes.svg` (overhead ratios of real ranks and of
//! `sim latency`, per cell, in the style of `sim latency`'s Figure 1) and `index.html`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use splitsteal_report::page::Page;
use splitsteal_report::{out_dir, ExitError};
use splitsteal_sim::latency::{self as simlat, RunResult};
use splitsteal_sim::meta::RunMeta;
use splitsteal_sim::plot::{self, BoxData};
use splitsteal_sim::stats;
use splitsteal_sim::sweep::{markdown_tables_html, pow10_label};

use crate::bag::BagRun;
use crate::ping::PingResult;

/// One run checked against the WS-latency paper's bound on the makespan,
/// `Cmax ≤ W/p + 16.12·λ·log2(W/(2λ))` (all in units of `u`).
///
/// ```
/// use splitsteal_dist::report::RunCheck;
///
/// // W = 8000 on p = 8 ranks, λ = 2: the bound is 1000 + 16.12·2·log2(2000) ≈ 1353.6 u.
/// let ok = RunCheck::new(8000, 8, 2, 1100.0);
/// assert!(ok.within && ok.ratio > 1.0);
/// let late = RunCheck::new(8000, 8, 2, 1400.0);
/// assert!(!late.within && late.ratio < 1.0);
/// assert!(late.describe().contains("exceeds"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RunCheck {
    /// W.
    pub work: u64,
    /// p.
    pub procs: usize,
    /// λ.
    pub latency: u64,
    /// The measured makespan `Cmax`.
    pub cmax: f64,
    /// The bound on the makespan, `W/p + 16.12·λ·log2(W/(2λ))`.
    pub bound_cmax: f64,
    /// The paper's overhead ratio, bound term over measured overhead `Cmax − W/p`: at least
    /// 1 within the bound (the quantity `sim latency` reports).
    pub ratio: f64,
    /// Whether the makespan is within the bound.
    pub within: bool,
}

impl RunCheck {
    /// Checks one run's makespan `cmax` (units) on the cell (W, p, λ). Where the bound says
    /// nothing (W ≤ 2λ, a bound term ≤ 0) the run is not within it.
    pub fn new(work: u64, procs: usize, latency: u64, cmax: f64) -> RunCheck {
        let term = simlat::bound_overhead(work, latency);
        let ideal = work as f64 / procs.max(1) as f64;
        let overhead = cmax - ideal;
        RunCheck {
            work,
            procs,
            latency,
            cmax,
            bound_cmax: ideal + term,
            // Cmax ≥ W/p in every real run; the floor only keeps a degenerate zero overhead
            // from dividing by zero.
            ratio: term / overhead.max(f64::MIN_POSITIVE),
            within: term > 0.0 && overhead <= term,
        }
    }

    /// One line: the cell, the verdict, the makespan against the bound, the ratio.
    pub fn describe(&self) -> String {
        format!(
            "W = {}, p = {}, λ = {}: Cmax = {:.1} u {} the bound {:.1} u (overhead ratio {:.2})",
            self.work,
            self.procs,
            self.latency,
            self.cmax,
            if self.within { "within" } else { "exceeds" },
            self.bound_cmax,
            self.ratio
        )
    }
}

/// How many runs kept within the bound, and the run closest to it (or furthest above).
///
/// ```
/// use splitsteal_dist::report::{RunCheck, Verdict};
///
/// let checks = [RunCheck::new(8000, 8, 2, 1100.0), RunCheck::new(8000, 8, 2, 1300.0)];
/// let v = Verdict::of(&checks);
/// assert!(v.holds() && v.runs == 2 && v.exceeded == 0);
/// assert_eq!(v.worst.unwrap().cmax, 1300.0);
/// assert!(v.line().starts_with("within the bound"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Verdict {
    /// Runs checked.
    pub runs: usize,
    /// Runs above the bound.
    pub exceeded: usize,
    /// The run with the smallest overhead ratio (`None` without runs).
    pub worst: Option<RunCheck>,
}

impl Verdict {
    /// The verdict over `checks`.
    pub fn of<'a>(checks: impl IntoIterator<Item = &'a RunCheck>) -> Verdict {
        let mut v = Verdict {
            runs: 0,
            exceeded: 0,
            worst: None,
        };
        for c in checks {
            v.runs += 1;
            v.exceeded += usize::from(!c.within);
            // A run above the bound is worse than any within it, whatever the ratios say
            // (a degenerate overhead can make a ratio huge); among equals, the smaller ratio.
            let worse = v.worst.is_none_or(|w| {
                if c.within != w.within {
                    !c.within
                } else {
                    c.ratio < w.ratio
                }
            });
            if worse {
                v.worst = Some(*c);
            }
        }
        v
    }

    /// Every run checked, and every one within the bound. No runs is no verdict: it does not
    /// hold.
    pub fn holds(&self) -> bool {
        self.runs > 0 && self.exceeded == 0
    }

    /// `within the bound in 5/5 runs (...)` or `EXCEEDS the bound in 1 of 5 runs (...)`,
    /// naming the worst run's makespan, bound and ratio.
    pub fn line(&self) -> String {
        if self.runs == 0 {
            "no runs: no verdict".into()
        } else if self.holds() {
            format!(
                "within the bound in {}/{} runs{}",
                self.runs,
                self.runs,
                self.worst_clause()
            )
        } else {
            format!(
                "EXCEEDS the bound in {} of {} runs{}",
                self.exceeded,
                self.runs,
                self.worst_clause()
            )
        }
    }

    /// `; closest: Cmax .. u ≤ bound .. u, overhead ratio ..` (`worst` and `>` when above).
    fn worst_clause(&self) -> String {
        self.worst.map_or(String::new(), |w| {
            format!(
                "; {}: Cmax {:.1} u {} bound {:.1} u, overhead ratio {:.2}",
                if self.exceeded == 0 {
                    "closest"
                } else {
                    "worst"
                },
                w.cmax,
                if w.within { "≤" } else { ">" },
                w.bound_cmax,
                w.ratio
            )
        })
    }
}

/// Median, smallest and largest value of a sample (all `NaN` when it is empty).
///
/// ```
/// use splitsteal_dist::report::Spread;
///
/// let s = Spread::of(&[1.1, 0.9, 1.0, 0.95]);
/// assert_eq!((s.min, s.max), (0.9, 1.1));
/// assert!((s.median - 0.975).abs() < 1e-12);
/// assert_eq!(s.to_string(), "0.97 (0.90–1.10)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// Median.
    pub median: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
}

impl Spread {
    /// The spread of `xs`.
    pub fn of(xs: &[f64]) -> Spread {
        let s = stats::sorted(xs);
        Spread {
            median: stats::quantile_sorted(&s, 0.5),
            min: stats::quantile_sorted(&s, 0.0),
            max: stats::quantile_sorted(&s, 1.0),
        }
    }
}

impl std::fmt::Display for Spread {
    /// `median (min–max)`, two decimals.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.2} ({:.2}–{:.2})", self.median, self.min, self.max)
    }
}

/// One (W, p, λ) cell: the real runs and `sim latency` on the same parameters.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    /// W.
    pub work: u64,
    /// p.
    pub procs: usize,
    /// λ.
    pub latency: u64,
    /// The bound's term `16.12·λ·log2(W/(2λ))`.
    pub bound_term: f64,
    /// Real runs, those above the bound included.
    pub runs: Vec<BagRun>,
    /// Each run checked against the bound, in the order of `runs`.
    pub checks: Vec<RunCheck>,
    /// The cell's verdict.
    pub verdict: Verdict,
    /// Overhead ratios of the real runs (bound term / overhead).
    pub ratios: Vec<f64>,
    /// Median overhead of the real runs, in units.
    pub median_overhead: f64,
    /// Median ratio of the real runs.
    pub median_ratio: f64,
    /// Overhead ratios of the simulated runs.
    #[serde(skip)]
    pub sim_ratios: Vec<f64>,
    /// Median overhead of `sim latency`.
    pub sim_median_overhead: f64,
    /// Median ratio of `sim latency`.
    pub sim_median_ratio: f64,
    /// Each real run's overhead ratio over `sim latency`'s median ratio on the cell, as a
    /// spread over the runs (below 1: that run had more overhead than the simulation).
    pub real_over_sim: Spread,
}

impl Cell {
    /// Summarises a cell.
    pub fn new(
        work: u64,
        procs: usize,
        latency: u64,
        runs: Vec<BagRun>,
        sim: &[RunResult],
    ) -> Cell {
        let bound_term = simlat::bound_overhead(work, latency);
        let checks: Vec<RunCheck> = runs
            .iter()
            .map(|r| RunCheck::new(work, procs, latency, r.cmax))
            .collect();
        let ov: Vec<f64> = runs
            .iter()
            .map(|r| r.cmax - work as f64 / procs as f64)
            .collect();
        let ratios: Vec<f64> = checks.iter().map(|c| c.ratio).collect();
        let sim_ov: Vec<f64> = sim
            .iter()
            .map(|r| simlat::overhead(r.cmax, work, procs))
            .collect();
        let sim_ratios: Vec<f64> = sim_ov.iter().map(|o| bound_term / o).collect();
        let sim_median_ratio = stats::median(&sim_ratios);
        let over_sim: Vec<f64> = ratios.iter().map(|r| r / sim_median_ratio).collect();
        Cell {
            work,
            procs,
            latency,
            bound_term,
            verdict: Verdict::of(&checks),
            median_overhead: stats::median(&ov),
            median_ratio: stats::median(&ratios),
            sim_median_overhead: stats::median(&sim_ov),
            sim_median_ratio,
            real_over_sim: Spread::of(&over_sim),
            runs,
            checks,
            ratios,
            sim_ratios,
        }
    }

    /// The console line: the cell, its verdict (the makespan against the bound), the
    /// overhead against `sim latency`'s, and real/sim as median (min–max) over the runs.
    pub fn line(&self) -> String {
        format!(
            "  W = {:>9}, p = {:>3}, λ = {:>3}: {}\n      overhead {:.1} u (sim {:.1}), overhead ratio {}, sim {:.2}; real/sim {}",
            self.work,
            self.procs,
            self.latency,
            self.verdict.line(),
            self.median_overhead,
            self.sim_median_overhead,
            Spread::of(&self.ratios),
            self.sim_median_ratio,
            self.real_over_sim,
        )
    }
}

/// Per λ, over every cell with that λ.
#[derive(Debug, Clone, Serialize)]
pub struct PerLambda {
    /// λ.
    pub latency: u64,
    /// Median overhead ratio of the real runs.
    pub median_ratio: f64,
    /// Median overhead ratio of `sim latency`.
    pub sim_median_ratio: f64,
    /// Each real run's ratio over `sim latency`'s median ratio on its own cell, as a spread
    /// over every run with this λ (below 1: real runs have more overhead).
    pub real_over_sim: Spread,
    /// Real runs with this λ.
    pub runs: usize,
}

/// Everything the report shows.
#[derive(Debug, Clone, Serialize)]
pub struct LatencyReport {
    /// Transport, in words.
    pub backend: String,
    /// Ranks in the world.
    pub ranks: usize,
    /// u in µs.
    pub unit_us: u64,
    /// Spinning units.
    pub spin: bool,
    /// Ping-pong measurements.
    pub pings: Vec<PingResult>,
    /// The cells.
    pub cells: Vec<Cell>,
    /// Runs that exceeded the bound (errors, not results).
    pub violations: Vec<String>,
}

impl LatencyReport {
    /// Per-λ medians, and the spread of real/sim over the runs.
    pub fn per_lambda(&self) -> Vec<PerLambda> {
        let mut lams: Vec<u64> = self.cells.iter().map(|c| c.latency).collect();
        lams.sort_unstable();
        lams.dedup();
        lams.into_iter()
            .map(|l| {
                let cells = || self.cells.iter().filter(move |c| c.latency == l);
                let real: Vec<f64> = cells().flat_map(|c| c.ratios.iter().copied()).collect();
                let sim: Vec<f64> = cells().flat_map(|c| c.sim_ratios.iter().copied()).collect();
                let over_sim: Vec<f64> = cells()
                    .flat_map(|c| c.ratios.iter().map(|r| r / c.sim_median_ratio))
                    .collect();
                PerLambda {
                    latency: l,
                    median_ratio: stats::median(&real),
                    sim_median_ratio: stats::median(&sim),
                    real_over_sim: Spread::of(&over_sim),
                    runs: real.len(),
                }
            })
            .collect()
    }

    /// Console lines of the per-λ table.
    pub fn per_lambda_lines(&self) -> Vec<String> {
        self.per_lambda()
            .iter()
            .map(|p| {
                format!(
                    "  λ = {:>3}: median overhead ratio real {:.2}, sim latency {:.2}; real/sim {} over {} runs",
                    p.latency, p.median_ratio, p.sim_median_ratio, p.real_over_sim, p.runs
                )
            })
            .collect()
    }

    /// The verdict over every run of every cell.
    pub fn verdict(&self) -> Verdict {
        Verdict::of(self.cells.iter().flat_map(|c| c.checks.iter()))
    }

    /// The overall verdict line: over all runs, and how many configurations had a run
    /// above the bound.
    pub fn verdict_line(&self) -> String {
        let v = self.verdict();
        let cells = self.cells.len();
        if v.runs == 0 {
            "verdict: none, no run was checked".into()
        } else if v.holds() {
            format!(
                "verdict: within the paper's bound in {}/{} runs of {cells} configurations{}",
                v.runs,
                v.runs,
                v.worst_clause()
            )
        } else {
            let failed = self.cells.iter().filter(|c| !c.verdict.holds()).count();
            format!(
                "verdict: EXCEEDS the paper's bound in {} of {} runs, in {failed} of {cells} configurations{}",
                v.exceeded,
                v.runs,
                v.worst_clause()
            )
        }
    }

    /// How the command ends: `Ok` when every run was within the bound, otherwise a failure
    /// ([`Exit::Failed`](splitsteal_report::Exit::Failed), status 1) saying how many runs
    /// exceeded it. A failed check never ends with status 0.
    ///
    /// ```
    /// use splitsteal_dist::bag::BagRun;
    /// use splitsteal_dist::report::{Cell, LatencyReport};
    /// use splitsteal_sim::latency::RunResult;
    ///
    /// let run = |cmax| BagRun { cmax, cmax_ns: 0, requests: 0, steals: 0, min_delay_ns: 0, delayed_handled: 0 };
    /// let sim = [RunResult { cmax: 1100, requests: 0, successful_steals: 0, work_executed: 0 }];
    /// // W = 8000, p = 8, λ = 2: the bound on the makespan is about 1353.6 u.
    /// let cell = Cell::new(8000, 8, 2, vec![run(1100.0), run(1400.0)], &sim);
    /// let rep = LatencyReport {
    ///     backend: "example".into(), ranks: 8, unit_us: 1000, spin: false,
    ///     pings: vec![], cells: vec![cell], violations: vec![],
    /// };
    /// assert!(rep.verdict_line().starts_with("verdict: EXCEEDS the paper's bound in 1 of 2 runs"));
    /// assert!(rep.outcome().is_err());
    /// ```
    pub fn outcome(&self) -> Result<(), ExitError> {
        let v = self.verdict();
        if v.holds() {
            return Ok(());
        }
        Err(ExitError::failed(if v.runs == 0 {
            "no run was checked against the paper's bound".to_string()
        } else {
            format!(
                "{} of {} run(s) exceeded the paper's bound (listed above and in the report): an error to investigate",
                v.exceeded, v.runs
            )
        }))
    }

    fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{}", self.verdict_line());
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "| λ | median ratio, real ranks | median ratio, sim latency | real / sim, median (min–max) | runs |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|");
        for p in self.per_lambda() {
            let _ = writeln!(
                s,
                "| {} | {:.2} | {:.2} | {} | {} |",
                p.latency, p.median_ratio, p.sim_median_ratio, p.real_over_sim, p.runs
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "| W | p | λ | bound term | median overhead, real | median overhead, sim | median ratio, real | median ratio, sim | real / sim, median (min–max) | runs within the bound |");
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
        for c in &self.cells {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} | {} | {}/{} |",
                c.work,
                c.procs,
                c.latency,
                c.bound_term,
                c.median_overhead,
                c.sim_median_overhead,
                c.median_ratio,
                c.sim_median_ratio,
                c.real_over_sim,
                c.verdict.runs - c.verdict.exceeded,
                c.verdict.runs
            );
        }
        s
    }
}

/// Writes the report folder; returns the files written.
pub fn write(
    rep: &LatencyReport,
    out: &Path,
    meta: &RunMeta,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    out_dir::prepare(out)?;
    let mut written = Vec::new();

    let csv = out.join("dist_latency_runs.csv");
    let mut s = String::from(
        "work,procs,latency,unit_us,spin,run,cmax,overhead,bound_term,ratio,within_bound,requests,steals,min_delay_units\n",
    );
    for c in &rep.cells {
        for (i, (r, check)) in c.runs.iter().zip(&c.checks).enumerate() {
            let ov = r.cmax - c.work as f64 / c.procs as f64;
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{:.3},{:.3},{:.3},{:.6},{},{},{},{:.4}",
                c.work,
                c.procs,
                c.latency,
                rep.unit_us,
                rep.spin,
                i,
                r.cmax,
                ov,
                c.bound_term,
                check.ratio,
                check.within,
                r.requests,
                r.steals,
                r.min_delay_ns as f64 / (rep.unit_us * 1000) as f64
            );
        }
    }
    out_dir::write(&csv, s)?;
    written.push(csv);

    #[derive(Serialize)]
    struct Doc<'a> {
        run: &'a RunMeta,
        report: &'a LatencyReport,
        per_lambda: Vec<PerLambda>,
    }
    let js = out.join("dist_latency_summary.json");
    out_dir::write_json(
        &js,
        &Doc {
            run: meta,
            report: rep,
            per_lambda: rep.per_lambda(),
        },
    )?;
    written.push(js);

    let md_text = rep.markdown();
    let md = out.join("median_ratios.md");
    out_dir::write(&md, &md_text)?;
    written.push(md);

    let mut boxes = Vec::new();
    for c in &rep.cells {
        let label = format!("W={}\np={}\nλ={}", pow10_label(c.work), c.procs, c.latency);
        boxes.push(BoxData {
            label: label.clone(),
            group: 0,
            samples: c.ratios.clone(),
        });
        boxes.push(BoxData {
            label,
            group: 1,
            samples: c.sim_ratios.clone(),
        });
    }
    let svg = out.join("dist_ratio_boxes.svg");
    plot::box_plot(
        &svg,
        "Overhead ratio: real ranks and sim latency",
        "cell (W, p, λ)",
        "16.12·λ·log2(W/(2λ)) / (Cmax − W/p)",
        &boxes,
        &["real ranks".to_string(), "sim latency".to_string()],
        Some((1.0, "bound (ratio 1)")),
    )
    .map_err(|e| format!("{}: {e}", svg.display()))?;
    written.push(svg);

    let mut page = Page::new("splitsteal dist latency", &meta.info);
    page.section("transport", "Transport");
    let mut t = format!(
        "Backend {}, {} ranks, unit u = {} µs ({}).",
        rep.backend,
        rep.ranks,
        rep.unit_us,
        if rep.spin { "spin" } else { "timed wait" }
    );
    for p in &rep.pings {
        let _ = write!(
            t,
            " Measured one-way latency ({}): median {:.1} µs (= {:.4} u), min {:.1} µs.",
            if p.spin {
                "spinning receive"
            } else {
                "polled receive"
            },
            p.one_way_ns / 1e3,
            p.one_way_ns / (rep.unit_us * 1000) as f64,
            p.min_one_way_ns / 1e3
        );
    }
    page.para(&t);
    if !rep.violations.is_empty() {
        page.section("errors", "Runs above the bound (errors)");
        for v in &rep.violations {
            page.note(v);
        }
    }
    page.section("ratios", "Overhead ratios");
    page.table_html(&markdown_tables_html(&md_text));
    page.figure(
        "dist_ratio_boxes.svg",
        "Overhead ratio per cell, real ranks against sim latency on the same cell (the dashed line is the bound).",
    );
    written.push(page.write(out)?);
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bag_run(cmax: f64) -> BagRun {
        BagRun {
            cmax,
            cmax_ns: 0,
            requests: 10,
            steals: 3,
            min_delay_ns: 0,
            delayed_handled: 0,
        }
    }

    fn sim_run(cmax: u64) -> RunResult {
        RunResult {
            cmax,
            requests: 5,
            successful_steals: 2,
            work_executed: 0,
        }
    }

    #[test]
    fn a_run_is_within_the_bound_up_to_the_bound_itself() {
        // W/p = 64 and the term 16.12·2·log2(512) ≈ 290.2 share one binade with their sum,
        // so a makespan of exactly the bound has an overhead of exactly the term.
        let (w, p, l) = (2048u64, 32usize, 2u64);
        let term = simlat::bound_overhead(w, l);
        let ideal = w as f64 / p as f64;
        assert_eq!((ideal + term) - ideal, term, "the boundary case is exact");
        let at = RunCheck::new(w, p, l, ideal + term);
        assert!(at.within, "{at:?}");
        assert_eq!(at.bound_cmax, ideal + term);
        assert_eq!(at.ratio, 1.0);
        let half = RunCheck::new(w, p, l, ideal + term / 2.0);
        assert!(half.within && (half.ratio - 2.0).abs() < 1e-12, "{half:?}");
        let above = RunCheck::new(w, p, l, ideal + term + 0.01);
        assert!(!above.within && above.ratio < 1.0, "{above:?}");
        assert!(above.describe().contains("exceeds the bound"));
        assert!(half.describe().contains("within the bound"));
        // W ≤ 2λ: the bound term is not positive, so no run can be within it.
        assert!(!RunCheck::new(40, 4, 20, 10.0).within);
    }

    #[test]
    fn the_verdict_counts_the_runs_above_the_bound_and_names_the_worst() {
        let (w, p, l) = (8000u64, 8usize, 2u64);
        let ideal = 1000.0;
        let bound = ideal + simlat::bound_overhead(w, l);
        let checks: Vec<RunCheck> = [ideal + 100.0, bound + 5.0, ideal + 300.0, bound + 50.0]
            .iter()
            .map(|&c| RunCheck::new(w, p, l, c))
            .collect();
        let v = Verdict::of(&checks);
        assert_eq!((v.runs, v.exceeded), (4, 2));
        assert!(!v.holds());
        assert_eq!(v.worst.unwrap().cmax, bound + 50.0);
        let line = v.line();
        assert!(
            line.starts_with("EXCEEDS the bound in 2 of 4 runs"),
            "{line}"
        );
        assert!(
            line.contains(&format!("Cmax {:.1} u > bound {bound:.1} u", bound + 50.0)),
            "{line}"
        );

        let within = Verdict::of(
            &checks[..1]
                .iter()
                .chain(&checks[2..3])
                .copied()
                .collect::<Vec<_>>(),
        );
        assert!(within.holds() && within.exceeded == 0 && within.runs == 2);
        assert_eq!(
            within.worst.unwrap().cmax,
            ideal + 300.0,
            "closest to the bound"
        );
        assert!(
            within.line().starts_with("within the bound in 2/2 runs"),
            "{}",
            within.line()
        );

        let none = Verdict::of(&[]);
        assert!(
            !none.holds() && none.worst.is_none(),
            "no runs is no verdict"
        );
    }

    #[test]
    fn a_run_above_the_bound_is_worse_than_any_within_it() {
        let within = RunCheck::new(8000, 8, 2, 1100.0);
        // A run above the bound whose ratio is not below the others' (a degenerate overhead).
        let above = RunCheck {
            within: false,
            ratio: within.ratio + 1.0,
            ..within
        };
        assert_eq!(Verdict::of(&[within, above]).worst, Some(above));
        assert_eq!(Verdict::of(&[above, within]).worst, Some(above));
    }

    #[test]
    fn the_spread_is_the_median_and_the_extremes() {
        let s = Spread::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
        let even = Spread::of(&[4.0, 1.0, 2.0, 3.0]);
        assert_eq!((even.median, even.min, even.max), (2.5, 1.0, 4.0));
        assert_eq!(even.to_string(), "2.50 (1.00–4.00)");
        let empty = Spread::of(&[]);
        assert!(empty.median.is_nan() && empty.min.is_nan() && empty.max.is_nan());
    }

    #[test]
    fn the_report_verdict_keeps_runs_above_the_bound_and_counts_configurations() {
        let bound = 1000.0 + simlat::bound_overhead(8000, 2);
        let sim = vec![sim_run(1100); 3];
        let good = Cell::new(8000, 8, 2, vec![bag_run(1100.0), bag_run(1200.0)], &sim);
        let bad = Cell::new(
            8000,
            8,
            2,
            vec![bag_run(1150.0), bag_run(bound + 10.0)],
            &sim,
        );
        assert!(good.verdict.holds());
        assert_eq!((bad.verdict.runs, bad.verdict.exceeded), (2, 1));
        assert_eq!(
            bad.ratios.len(),
            2,
            "a run above the bound stays in the cell"
        );
        assert!(
            bad.line().contains("EXCEEDS the bound in 1 of 2 runs"),
            "{}",
            bad.line()
        );
        assert!(
            good.line().contains("within the bound in 2/2 runs"),
            "{}",
            good.line()
        );
        // real/sim per run: the run's ratio over the cell's simulated median ratio.
        let sim_ratio = good.sim_median_ratio;
        assert!((good.real_over_sim.max - good.ratios[0] / sim_ratio).abs() < 1e-12);
        assert!((good.real_over_sim.min - good.ratios[1] / sim_ratio).abs() < 1e-12);
        let mut rep = LatencyReport {
            backend: "test".into(),
            ranks: 8,
            unit_us: 1000,
            spin: false,
            pings: vec![],
            cells: vec![good.clone()],
            violations: vec![],
        };
        assert!(rep.verdict().holds());
        assert!(rep
            .verdict_line()
            .starts_with("verdict: within the paper's bound in 2/2 runs"));
        rep.cells.push(bad);
        let v = rep.verdict();
        assert_eq!((v.runs, v.exceeded), (4, 1));
        assert!(!v.holds());
        let line = rep.verdict_line();
        assert!(
            line.starts_with("verdict: EXCEEDS the paper's bound in 1 of 4 runs"),
            "{line}"
        );
        assert!(
            line.contains("runs, in 1 of 2 configurations; worst: Cmax"),
            "{line}"
        );
        assert_eq!(rep.per_lambda()[0].runs, 4);
        let failure = rep.outcome().unwrap_err();
        assert_eq!(failure.exit, splitsteal_report::Exit::Failed);
        assert!(
            failure.message.starts_with("1 of 4 run(s) exceeded"),
            "{failure:?}"
        );
        rep.cells.clear();
        assert!(rep.outcome().is_err(), "no runs checked is not a success");
        assert_eq!(rep.verdict_line(), "verdict: none, no run was checked");
    }

    #[test]
    fn cells_compare_with_the_simulation_and_the_report_is_written() {
        let run = |cmax: f64| BagRun {
            cmax,
            cmax_ns: 0,
            requests: 10,
            steals: 3,
            min_delay_ns: 0,
            delayed_handled: 0,
        };
        let sim = vec![
            RunResult {
                cmax: 1100,
                requests: 5,
                successful_steals: 2,
                work_executed: 0,
            };
            3
        ];
        let c = Cell::new(
            8000,
            8,
            2,
            vec![run(1200.0), run(1100.0), run(1150.0)],
            &sim,
        );
        assert_eq!(c.sim_median_overhead, 100.0);
        assert_eq!(c.median_overhead, 150.0);
        let rep = LatencyReport {
            backend: "test".into(),
            ranks: 8,
            unit_us: 1000,
            spin: false,
            pings: vec![],
            cells: vec![c],
            violations: vec![],
        };
        let pl = rep.per_lambda();
        assert_eq!(pl.len(), 1);
        // Per run, real ratio over sim's median ratio = sim overhead / real overhead.
        let ros = pl[0].real_over_sim;
        assert!((ros.median - 100.0 / 150.0).abs() < 1e-9, "{ros:?}");
        assert!((ros.min - 100.0 / 200.0).abs() < 1e-9, "{ros:?}");
        assert!((ros.max - 1.0).abs() < 1e-9, "{ros:?}");
        assert_eq!(pl[0].runs, 3);
        let dir = std::env::temp_dir().join(format!("dist-report-test-{}", std::process::id()));
        let meta = RunMeta::new(1, &1, vec![]);
        let files = write(&rep, &dir, &meta).unwrap();
        assert_eq!(files.len(), 5);
        let svg = std::fs::read_to_string(dir.join("dist_ratio_boxes.svg")).unwrap();
        splitsteal_report::svg_check::check_svg(&svg).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}

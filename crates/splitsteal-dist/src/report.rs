//! The `dist latency` report folder: `dist_latency_runs.csv` (every run),
//! `dist_latency_summary.json` (per cell and per λ, the transport's latency),
//! `median_ratios.md`, `dist_ratio_boxes.svg` (overhead ratios of real ranks and of
//! `sim latency`, per cell, in the style of `sim latency`'s Figure 1) and `index.html`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use splitsteal_report::out_dir;
use splitsteal_report::page::Page;
use splitsteal_sim::latency::{self as simlat, RunResult};
use splitsteal_sim::meta::RunMeta;
use splitsteal_sim::plot::{self, BoxData};
use splitsteal_sim::stats;
use splitsteal_sim::sweep::{markdown_tables_html, pow10_label};

use crate::bag::BagRun;
use crate::ping::PingResult;

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
    /// Real runs (within the bound).
    pub runs: Vec<BagRun>,
    /// Their overhead ratios (bound term / overhead).
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
        let ov: Vec<f64> = runs
            .iter()
            .map(|r| r.cmax - work as f64 / procs as f64)
            .collect();
        let ratios: Vec<f64> = ov.iter().map(|o| bound_term / o).collect();
        let sim_ov: Vec<f64> = sim
            .iter()
            .map(|r| simlat::overhead(r.cmax, work, procs))
            .collect();
        let sim_ratios: Vec<f64> = sim_ov.iter().map(|o| bound_term / o).collect();
        let med = |v: &[f64]| {
            if v.is_empty() {
                f64::NAN
            } else {
                stats::median(v)
            }
        };
        Cell {
            work,
            procs,
            latency,
            bound_term,
            median_overhead: med(&ov),
            median_ratio: med(&ratios),
            sim_median_overhead: med(&sim_ov),
            sim_median_ratio: med(&sim_ratios),
            runs,
            ratios,
            sim_ratios,
        }
    }

    /// A console line.
    pub fn line(&self) -> String {
        format!(
            "  W = {:>9}, p = {:>3}, λ = {:>3}: overhead {:>8.1} u (sim {:>8.1}), ratio {:>5.2} (sim {:>5.2}), real/sim overhead {:.2}, {} runs",
            self.work,
            self.procs,
            self.latency,
            self.median_overhead,
            self.sim_median_overhead,
            self.median_ratio,
            self.sim_median_ratio,
            self.median_overhead / self.sim_median_overhead,
            self.runs.len()
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
    /// `median_ratio / sim_median_ratio` (below 1: real runs have more overhead).
    pub real_over_sim: f64,
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
    /// Per-λ medians.
    pub fn per_lambda(&self) -> Vec<PerLambda> {
        let mut lams: Vec<u64> = self.cells.iter().map(|c| c.latency).collect();
        lams.sort_unstable();
        lams.dedup();
        lams.into_iter()
            .map(|l| {
                let real: Vec<f64> = self
                    .cells
                    .iter()
                    .filter(|c| c.latency == l)
                    .flat_map(|c| c.ratios.iter().copied())
                    .collect();
                let sim: Vec<f64> = self
                    .cells
                    .iter()
                    .filter(|c| c.latency == l)
                    .flat_map(|c| c.sim_ratios.iter().copied())
                    .collect();
                let m = if real.is_empty() {
                    f64::NAN
                } else {
                    stats::median(&real)
                };
                let s = if sim.is_empty() {
                    f64::NAN
                } else {
                    stats::median(&sim)
                };
                PerLambda {
                    latency: l,
                    median_ratio: m,
                    sim_median_ratio: s,
                    real_over_sim: m / s,
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
                    "  λ = {:>3}: median overhead ratio real {:.2}, sim latency {:.2}, real/sim {:.2}",
                    p.latency, p.median_ratio, p.sim_median_ratio, p.real_over_sim
                )
            })
            .collect()
    }

    fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "| λ | median ratio, real ranks | median ratio, sim latency | real / sim |"
        );
        let _ = writeln!(s, "|---|---|---|---|");
        for p in self.per_lambda() {
            let _ = writeln!(
                s,
                "| {} | {:.2} | {:.2} | {:.2} |",
                p.latency, p.median_ratio, p.sim_median_ratio, p.real_over_sim
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "| W | p | λ | bound term | median overhead, real | median overhead, sim | median ratio, real | median ratio, sim | runs |");
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
        for c in &self.cells {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} | {} |",
                c.work,
                c.procs,
                c.latency,
                c.bound_term,
                c.median_overhead,
                c.sim_median_overhead,
                c.median_ratio,
                c.sim_median_ratio,
                c.runs.len()
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
        "work,procs,latency,unit_us,spin,run,cmax,overhead,bound_term,ratio,requests,steals,min_delay_units\n",
    );
    for c in &rep.cells {
        for (i, r) in c.runs.iter().enumerate() {
            let ov = r.cmax - c.work as f64 / c.procs as f64;
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{:.3},{:.3},{:.3},{:.6},{},{},{:.4}",
                c.work,
                c.procs,
                c.latency,
                rep.unit_us,
                rep.spin,
                i,
                r.cmax,
                ov,
                c.bound_term,
                c.bound_term / ov,
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
        assert!((pl[0].real_over_sim - 100.0 / 150.0).abs() < 1e-9);
        let dir = std::env::temp_dir().join(format!("dist-report-test-{}", std::process::id()));
        let meta = RunMeta::new(1, &1, vec![]);
        let files = write(&rep, &dir, &meta).unwrap();
        assert_eq!(files.len(), 5);
        let svg = std::fs::read_to_string(dir.join("dist_ratio_boxes.svg")).unwrap();
        splitsteal_report::svg_check::check_svg(&svg).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}

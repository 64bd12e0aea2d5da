//! The WS-latency paper's parameter sweep (§5.1) and its Figure 1.
//!
//! The text gives the ranges (p = 32..256, λ from 2 to about 500, 1000 runs each) but has lost
//! the bounds of W; the grid below is the one the authors' scripts loop over: W = 10^5..10^8,
//! λ = 2 + 20k for k = 0..24.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;
use splitsteal_report::out_dir;
use splitsteal_report::page::{esc, Page};

use crate::latency::{self, LatencyParams, RunResult, SplitRule, Summary};
use crate::meta::RunMeta;
use crate::par::{par_map_runs, run_seed};
use crate::plot::{self, BoxData};
use crate::progress::Progress;
use crate::stats;

/// A grid of configurations, each simulated `runs` times.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepConfig {
    /// Values of W.
    pub works: Vec<u64>,
    /// Values of p.
    pub procs: Vec<usize>,
    /// Values of λ.
    pub latencies: Vec<u64>,
    /// Runs per configuration.
    pub runs: usize,
    /// Base seed; configuration `c`, run `r` uses `run_seed(seed, c, r)`.
    pub seed: u64,
    /// Work-division rule.
    pub split: SplitRule,
}

impl SweepConfig {
    /// The paper's grid: W ∈ {10^5, 10^6, 10^7, 10^8}, p ∈ {32, 64, 128, 256},
    /// λ ∈ {2, 22, …, 482}, 1000 runs each (400 configurations, 400,000 runs).
    pub fn paper(split: SplitRule, seed: u64) -> Self {
        SweepConfig {
            works: vec![100_000, 1_000_000, 10_000_000, 100_000_000],
            procs: vec![32, 64, 128, 256],
            latencies: (0..25).map(|k| 2 + 20 * k).collect(),
            runs: 1000,
            seed,
            split,
        }
    }

    /// All configurations in a fixed order (W, then p, then λ).
    pub fn params(&self) -> Vec<LatencyParams> {
        let mut v = Vec::new();
        for &work in &self.works {
            for &procs in &self.procs {
                for &latency in &self.latencies {
                    v.push(LatencyParams {
                        work,
                        procs,
                        latency,
                        split: self.split,
                    });
                }
            }
        }
        v
    }

    /// Validates every configuration and the run count.
    pub fn validate(&self) -> Result<(), String> {
        if self.runs == 0 {
            return Err("runs must be at least 1".into());
        }
        if self.works.is_empty() || self.procs.is_empty() || self.latencies.is_empty() {
            return Err("the sweep grid must not be empty".into());
        }
        for p in self.params() {
            p.validate()?;
        }
        Ok(())
    }
}

/// Runs of one configuration.
#[derive(Debug, Clone, Serialize)]
pub struct ConfigRuns {
    /// The configuration.
    pub params: LatencyParams,
    /// Its runs.
    pub runs: Vec<RunResult>,
    /// Their summary.
    pub summary: Summary,
}

/// Outcome of a sweep.
#[derive(Debug, Clone)]
pub struct SweepResult {
    /// The grid that was run.
    pub config: SweepConfig,
    /// One entry per configuration, in [`SweepConfig::params`] order.
    pub configs: Vec<ConfigRuns>,
    /// Wall-clock seconds of the simulation (excluding output).
    pub seconds: f64,
}

impl SweepResult {
    /// Total simulated runs.
    pub fn total_runs(&self) -> usize {
        self.configs.iter().map(|c| c.runs.len()).sum()
    }

    /// Simulated runs per second of wall-clock time.
    pub fn runs_per_second(&self) -> f64 {
        self.total_runs() as f64 / self.seconds
    }

    /// Overhead ratios of every run matching the filter.
    pub fn ratios(&self, keep: impl Fn(&LatencyParams) -> bool) -> Vec<f64> {
        self.configs
            .iter()
            .filter(|c| keep(&c.params))
            .flat_map(|c| {
                c.runs
                    .iter()
                    .map(move |r| latency::overhead_ratio(r, &c.params))
            })
            .collect()
    }
}

/// Runs the whole grid, all runs of all configurations spread over [`par_map_runs`].
pub fn run_sweep(cfg: &SweepConfig) -> Result<SweepResult, String> {
    run_sweep_with(cfg, &Progress::hidden())
}

/// [`run_sweep`] counting every finished run in `progress`.
pub fn run_sweep_with(cfg: &SweepConfig, progress: &Progress) -> Result<SweepResult, String> {
    cfg.validate()?;
    let params = cfg.params();
    let runs = cfg.runs;
    let t = Instant::now();
    // Interleave configurations so that expensive ones (large p, small λ) are spread evenly.
    let flat = par_map_runs(params.len() * runs, |i| {
        let (r, c) = (i / params.len(), i % params.len());
        let run = latency::simulate(&params[c], run_seed(cfg.seed, c as u64, r as u64));
        progress.inc();
        run
    });
    let seconds = t.elapsed().as_secs_f64();
    let configs = params
        .iter()
        .enumerate()
        .map(|(c, p)| {
            let rs: Vec<RunResult> = (0..runs).map(|r| flat[r * params.len() + c]).collect();
            ConfigRuns {
                params: *p,
                summary: latency::summarize(p, &rs),
                runs: rs,
            }
        })
        .collect();
    Ok(SweepResult {
        config: cfg.clone(),
        configs,
        seconds,
    })
}

/// `w` as `10^k` when it is a power of ten (plot and table labels), else in digits.
pub fn pow10_label(w: u64) -> String {
    let mut k = 0;
    let mut x = w;
    while x >= 10 && x.is_multiple_of(10) {
        x /= 10;
        k += 1;
    }
    if x == 1 && k > 0 {
        format!("10^{k}")
    } else {
        w.to_string()
    }
}

/// Markdown tables of the median overhead ratio: per p (all W and λ pooled), and per (W, p).
pub fn median_table(res: &SweepResult) -> String {
    let cfg = &res.config;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Overhead ratio 16.12·λ·log2(W/(2λ)) / (Cmax − W/p), split = {}, {} runs per configuration\n",
        cfg.split, cfg.runs
    );
    let _ = writeln!(
        s,
        "| p | runs | median ratio | min ratio | max ratio | γ(p)·4 |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|");
    for &p in &cfg.procs {
        let r = res.ratios(|c| c.procs == p);
        let f = stats::FiveNumber::of(&r);
        let _ = writeln!(
            s,
            "| {p} | {} | {:.3} | {:.3} | {:.3} | {:.2} |",
            r.len(),
            f.median,
            f.min,
            f.max,
            4.0 * latency::gamma(p)
        );
    }
    let _ = writeln!(s, "\nMedian ratio per (W, p), all λ pooled:\n");
    let _ = write!(s, "| W |");
    for &p in &cfg.procs {
        let _ = write!(s, " p = {p} |");
    }
    let _ = write!(s, "\n|---|");
    for _ in &cfg.procs {
        let _ = write!(s, "---|");
    }
    let _ = writeln!(s);
    for &w in &cfg.works {
        let _ = write!(s, "| {} |", pow10_label(w));
        for &p in &cfg.procs {
            let _ = write!(
                s,
                " {:.3} |",
                stats::median(&res.ratios(|c| c.procs == p && c.work == w))
            );
        }
        let _ = writeln!(s);
    }
    s
}

/// Writes the sweep outputs into `out`: `latency_runs.csv` (one line per run),
/// `latency_summary.json` (with the `"run"` facts), `median_ratios.md`,
/// `figure1_lambda<λ>.svg` (Figure 1 at the chosen latency, or the grid latency closest to
/// it), `figure1_all_latencies.svg` and `index.html` showing them. Returns the paths written;
/// every error names its file.
pub fn write_outputs(
    res: &SweepResult,
    out: &Path,
    figure_latency: u64,
    meta: &RunMeta,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    out_dir::prepare(out)?;
    let mut written = Vec::new();
    let cfg = &res.config;

    let csv = out.join("latency_runs.csv");
    {
        let mut s = String::with_capacity(64 * (res.total_runs() + 1));
        s.push_str("work,procs,latency,split,run,cmax,requests,successful_steals,overhead,ratio\n");
        for c in &res.configs {
            let p = &c.params;
            for (i, r) in c.runs.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{},{},{},{:.6}",
                    p.work,
                    p.procs,
                    p.latency,
                    p.split,
                    i,
                    r.cmax,
                    r.requests,
                    r.successful_steals,
                    latency::overhead(r.cmax, p.work, p.procs),
                    latency::overhead_ratio(r, p)
                );
            }
        }
        out_dir::write(&csv, s)?;
    }
    written.push(csv);

    #[derive(Serialize)]
    struct Entry<'a> {
        params: &'a LatencyParams,
        summary: &'a Summary,
    }
    #[derive(Serialize)]
    struct Doc<'a> {
        run: &'a RunMeta,
        config: &'a SweepConfig,
        seconds: f64,
        runs_per_second: f64,
        configurations: Vec<Entry<'a>>,
    }
    let js = out.join("latency_summary.json");
    out_dir::write_json(
        &js,
        &Doc {
            run: meta,
            config: cfg,
            seconds: res.seconds,
            runs_per_second: res.runs_per_second(),
            configurations: res
                .configs
                .iter()
                .map(|c| Entry {
                    params: &c.params,
                    summary: &c.summary,
                })
                .collect(),
        },
    )?;
    written.push(js);

    let table = median_table(res);
    let md = out.join("median_ratios.md");
    out_dir::write(&md, &table)?;
    written.push(md);

    let lam = *cfg
        .latencies
        .iter()
        .min_by_key(|&&l| l.abs_diff(figure_latency))
        .ok_or("empty latency list")?;
    let mut procs_desc = cfg.procs.clone();
    procs_desc.sort_unstable_by(|a, b| b.cmp(a));
    let boxes_for = |keep_lambda: &dyn Fn(u64) -> bool| -> Vec<BoxData> {
        let mut v = Vec::new();
        for &w in &cfg.works {
            for (g, &p) in procs_desc.iter().enumerate() {
                v.push(BoxData {
                    label: format!("W={}\np={p}", pow10_label(w)),
                    group: g,
                    samples: res.ratios(|c| c.work == w && c.procs == p && keep_lambda(c.latency)),
                });
            }
        }
        v
    };
    let groups: Vec<String> = procs_desc.iter().map(|p| format!("p = {p}")).collect();
    let fig_name = format!("figure1_lambda{lam}.svg");
    let fig = out.join(&fig_name);
    plot::box_plot(
        &fig,
        &format!(
            "Overhead ratio, λ = {lam}, {} runs per box, split = {}",
            cfg.runs, cfg.split
        ),
        "(W, p)",
        "overhead ratio",
        &boxes_for(&|l| l == lam),
        &groups,
        Some((1.0, "ratio 1: bound met exactly")),
    )?;
    written.push(fig);
    remove_stale_figures(out, &fig_name)?;
    let fig_all = out.join("figure1_all_latencies.svg");
    plot::box_plot(
        &fig_all,
        &format!(
            "Overhead ratio, all λ pooled ({} runs per box), split = {}",
            cfg.runs * cfg.latencies.len(),
            cfg.split
        ),
        "(W, p)",
        "overhead ratio",
        &boxes_for(&|_| true),
        &groups,
        Some((1.0, "ratio 1: bound met exactly")),
    )?;
    written.push(fig_all);

    let worst = res
        .configs
        .iter()
        .map(|c| c.summary.min_ratio)
        .fold(f64::INFINITY, f64::min);
    let mut page = Page::new(
        "Work stealing with latency: the WS-latency paper's sweep",
        &meta.info,
    );
    page.section("summary", "Summary")
        .para(&format!(
            "Overhead ratio = 16.12·λ·log2(W/(2λ)) / (Cmax − W/p): the bound's overhead term over the \
             measured overhead. A ratio of at least 1 means the bound holds in that run. Smallest ratio \
             over all {} runs: {worst:.3} ({}).",
            res.total_runs(),
            if worst >= 1.0 {
                "the bound holds in every run"
            } else {
                "the bound is exceeded in some run"
            }
        ))
        .table_html(&markdown_tables_html(&table));
    page.section("figures", "Figures")
        .figure(
            &fig_name,
            &format!(
                "Figure 1 at λ = {lam}: overhead ratio per (W, p); boxes are quartiles, whiskers 1.5·IQR, \
                 the dashed line is ratio 1."
            ),
        )
        .figure(
            "figure1_all_latencies.svg",
            "The same with every λ of the grid pooled.",
        );
    page.section("files", "Data files")
        .raw_html(
            "<ul><li><a href=\"latency_runs.csv\">latency_runs.csv</a>: every run</li>\
             <li><a href=\"latency_summary.json\">latency_summary.json</a>: per configuration, with the run facts</li>\
             <li><a href=\"median_ratios.md\">median_ratios.md</a>: the tables above</li></ul>",
        );
    written.push(page.write(out)?);
    Ok(written)
}

/// Removes `figure1_lambda*.svg` files of earlier sweeps at other latencies from a reused
/// folder, so that what lies beside `index.html` is this run's.
fn remove_stale_figures(out: &Path, keep: &str) -> Result<(), out_dir::PathError> {
    out_dir::remove_stale(out, |name| {
        name.starts_with("figure1_lambda") && name.ends_with(".svg") && name != keep
    })
}

/// The pipe tables of a Markdown text as HTML tables; other lines become paragraphs.
pub fn markdown_tables_html(md: &str) -> String {
    let mut s = String::new();
    let mut in_table = false;
    for line in md.lines() {
        let t = line.trim();
        if t.starts_with('|') {
            let cells: Vec<&str> = t.trim_matches('|').split('|').map(str::trim).collect();
            if cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
            {
                continue;
            }
            let tag = if in_table { "td" } else { "th" };
            if !in_table {
                s.push_str("<table>");
                in_table = true;
            }
            s.push_str("<tr>");
            for c in cells {
                let _ = write!(s, "<{tag}>{}</{tag}>", esc(c));
            }
            s.push_str("</tr>");
        } else {
            if in_table {
                s.push_str("</table>\n");
                in_table = false;
            }
            if !t.is_empty() {
                let _ = writeln!(s, "<p>{}</p>", esc(t));
            }
        }
    }
    if in_table {
        s.push_str("</table>\n");
    }
    s
}

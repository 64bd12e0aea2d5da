//! The ABP paper's experiment (§4.4): every adversary against every yield kind.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use splitsteal_report::out_dir;
use splitsteal_report::page::Page;

use crate::dag::Dag;
use crate::kernel::{self, Adversary, KernelParams, KernelRun, YieldKind};
use crate::meta::RunMeta;
use crate::par::{par_map_runs, run_seed};
use crate::plot::{self, BoxData};
use crate::progress::Progress;
use crate::stats;

/// All runs of one (adversary, yield) combination.
#[derive(Debug, Clone, Serialize)]
pub struct KernelCell {
    /// Adversary.
    pub adversary: Adversary,
    /// Yield kind.
    pub yield_kind: YieldKind,
    /// Runs.
    pub runs: Vec<KernelRun>,
    /// Runs that finished within `max_rounds`.
    pub finished: usize,
    /// Mean rounds.
    pub mean_rounds: f64,
    /// Mean processor average.
    pub mean_pa: f64,
    /// Mean `T1/P_A + T∞·P/P_A`.
    pub mean_bound: f64,
    /// Median of `T / bound` (timed-out runs count with their lower-bound ratio).
    pub median_ratio: f64,
    /// Largest `T / bound`.
    pub max_ratio: f64,
}

/// The experiment's fixed inputs.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct KernelExperiment {
    /// Kernel parameters; `adversary` and `yield_kind` are overridden per cell.
    pub base: KernelParams,
    /// Depth of the random irregular DAGs.
    pub dag_depth: u32,
    /// Fork rate of the random DAGs.
    pub dag_rate: f64,
    /// Runs per cell.
    pub runs: usize,
    /// Base seed.
    pub seed: u64,
}

const ADVERSARIES: [Adversary; 3] = [Adversary::Benign, Adversary::Oblivious, Adversary::Adaptive];
const YIELDS: [YieldKind; 3] = [YieldKind::None, YieldKind::ToRandom, YieldKind::ToAll];

impl KernelExperiment {
    /// Simulations of the grid: every adversary × yield cell, `runs` each.
    pub fn planned_runs(&self) -> usize {
        ADVERSARIES.len() * YIELDS.len() * self.runs
    }

    /// Upper estimate of the simulation steps: a run that never finishes (the adaptive
    /// adversary against no yield) takes `max_rounds` rounds of up to `pmax` processes.
    pub fn estimated_steps(&self) -> f64 {
        self.planned_runs() as f64 * self.base.max_rounds as f64 * self.base.pmax as f64
    }
}

/// Runs the 3 × 3 grid of adversaries and yields. Run `r` of every cell uses the same random
/// DAG and the same `p_i` sequence, so cells differ only by adversary and yield.
pub fn run_grid(e: &KernelExperiment) -> Result<Vec<KernelCell>, String> {
    run_grid_with(e, &Progress::hidden())
}

/// [`run_grid`] counting every finished simulation in `progress`.
pub fn run_grid_with(e: &KernelExperiment, progress: &Progress) -> Result<Vec<KernelCell>, String> {
    e.base.validate()?;
    if e.runs == 0 {
        return Err("runs must be at least 1".into());
    }
    let dags = par_map_runs(e.runs, |r| {
        Dag::irregular(
            e.dag_depth,
            e.dag_rate,
            run_seed(e.seed, 0xDA6, r as u64),
            1 << 24,
        )
    });
    let dags: Vec<Dag> = dags.into_iter().collect::<Result<_, _>>()?;
    let combos: Vec<(Adversary, YieldKind)> = ADVERSARIES
        .into_iter()
        .flat_map(|a| YIELDS.map(|y| (a, y)))
        .collect();
    let res = par_map_runs(combos.len() * e.runs, |i| {
        let (c, r) = (i / e.runs, i % e.runs);
        let p = KernelParams {
            adversary: combos[c].0,
            yield_kind: combos[c].1,
            ..e.base
        };
        let run = kernel::simulate(
            &dags[r],
            &p,
            run_seed(e.seed, c as u64, r as u64),
            run_seed(e.seed, 0x6E7, r as u64),
        );
        progress.inc();
        run
    });
    let res: Vec<KernelRun> = res.into_iter().collect::<Result<_, _>>()?;
    let procs = e.base.procs;
    Ok(combos
        .iter()
        .enumerate()
        .map(|(c, &(adversary, yield_kind))| {
            let runs: Vec<KernelRun> = res[c * e.runs..(c + 1) * e.runs].to_vec();
            let ratios: Vec<f64> = runs.iter().map(|r| r.ratio(procs)).collect();
            let f = |g: &dyn Fn(&KernelRun) -> f64| {
                stats::mean(&runs.iter().map(g).collect::<Vec<_>>())
            };
            KernelCell {
                adversary,
                yield_kind,
                finished: runs.iter().filter(|r| r.finished).count(),
                mean_rounds: f(&|r| r.rounds as f64),
                mean_pa: f(&|r| r.pa),
                mean_bound: f(&|r| r.bound(procs)),
                median_ratio: stats::median(&ratios),
                max_ratio: ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                runs,
            }
        })
        .collect())
}

/// Markdown table of the grid.
pub fn table(e: &KernelExperiment, cells: &[KernelCell]) -> String {
    let mut s = String::new();
    let t1 = stats::mean(
        &cells[0]
            .runs
            .iter()
            .map(|r| r.t1 as f64)
            .collect::<Vec<_>>(),
    );
    let span = stats::mean(
        &cells[0]
            .runs
            .iter()
            .map(|r| r.span as f64)
            .collect::<Vec<_>>(),
    );
    let _ = writeln!(
        s,
        "P = {}, p_i uniform in [{}, {}], random DAGs: mean T1 = {t1:.0}, mean T∞ = {span:.1}; {} runs per cell, cap {} rounds\n",
        e.base.procs, e.base.pmin, e.base.pmax, e.runs, e.base.max_rounds
    );
    let _ = writeln!(
        s,
        "| adversary | yield | finished | mean T (rounds) | mean P_A | mean T1/P_A + T∞·P/P_A | median T/bound | max T/bound |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    for c in cells {
        let _ = writeln!(
            s,
            "| {} | {} | {}/{} | {:.0} | {:.2} | {:.0} | {:.3}{} | {:.3} |",
            c.adversary,
            c.yield_kind,
            c.finished,
            c.runs.len(),
            c.mean_rounds,
            c.mean_pa,
            c.mean_bound,
            c.median_ratio,
            if c.finished < c.runs.len() {
                " (≥, timeouts)"
            } else {
                ""
            },
            c.max_ratio
        );
    }
    s
}

/// Writes `kernel.json` (with the `"run"` facts), `kernel.md`, `kernel_ratio.svg` (box plot of
/// `T / bound` per cell) and `index.html` showing them; returns the paths.
pub fn write(
    out: &Path,
    e: &KernelExperiment,
    cells: &[KernelCell],
    meta: &RunMeta,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    out_dir::prepare(out)?;
    #[derive(Serialize)]
    struct Doc<'a> {
        run: &'a RunMeta,
        experiment: &'a KernelExperiment,
        cells: &'a [KernelCell],
    }
    let js = out.join("kernel.json");
    out_dir::write_json(
        &js,
        &Doc {
            run: meta,
            experiment: e,
            cells,
        },
    )?;
    let md = out.join("kernel.md");
    let tab = table(e, cells);
    out_dir::write(&md, &tab)?;
    let svg = out.join("kernel_ratio.svg");
    let yield_name = |y: YieldKind| match y {
        YieldKind::None => "no yield".to_string(),
        y => y.to_string(),
    };
    let boxes: Vec<BoxData> = cells
        .iter()
        .map(|c| BoxData {
            label: format!("{}\n{}", c.adversary, yield_name(c.yield_kind)),
            group: YIELDS.iter().position(|&y| y == c.yield_kind).unwrap_or(0),
            samples: c
                .runs
                .iter()
                .map(|r| r.ratio(e.base.procs).log10())
                .collect(),
        })
        .collect();
    plot::box_plot(
        &svg,
        &format!(
            "log10 of T / (T1/P_A + T∞·P/P_A), P = {}, runs capped at {} rounds",
            e.base.procs, e.base.max_rounds
        ),
        "kernel adversary and thieves' yield",
        "log10(T / bound)",
        &boxes,
        &YIELDS.map(yield_name),
        Some((0.0, "T = bound")),
    )?;
    let mut page = Page::new(
        "Work stealing under a multiprogrammed kernel (ABP paper)",
        &meta.info,
    );
    page.section("summary", "Summary")
        .para(
            "Rounds T of the ABP work stealer against the ABP paper's bound T1/P_A + T∞·P/P_A, for \
             every kernel adversary and every yield the thieves may call. A ratio near 1 (log10 near 0) \
             means the bound holds with constant 1; runs that reach the round cap count as timeouts and \
             their ratio is a lower bound.",
        )
        .table_html(&crate::sweep::markdown_tables_html(&tab));
    page.section("figures", "Figures").figure(
        "kernel_ratio.svg",
        "log10(T / bound) per adversary and yield: boxes are quartiles, whiskers 1.5·IQR; the dashed \
         line is T = bound.",
    );
    page.section("files", "Data files").raw_html(
        "<ul><li><a href=\"kernel.json\">kernel.json</a>: every run, with the run facts</li>\
         <li><a href=\"kernel.md\">kernel.md</a>: the table above</li></ul>",
    );
    let html = page.write(out)?;
    Ok(vec![js, md, svg, html])
}

//! The LCWS paper's Figure 2 experiments (§5): synchronization of CWS vs LCWS against fork-span
//! (regular DAGs), against depth (irregular DAGs) and against the number of processors.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use splitsteal_report::out_dir;
use splitsteal_report::page::Page;

use crate::dag::{self, Algorithm, Dag, DagMeans, DagRunStats};
use crate::meta::RunMeta;
use crate::par::{par_map_runs, run_seed};
use crate::plot::{self, Series};
use crate::progress::Progress;

/// Which DAG family a point belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DagKind {
    /// Complete binary fork trees.
    Regular,
    /// Exponentially spaced forks.
    Irregular,
}

/// Mean counters of one (DAG, P, algorithm) cell.
#[derive(Debug, Clone, Serialize)]
pub struct DagPoint {
    /// DAG family.
    pub kind: DagKind,
    /// Fork-span (regular) or total depth (irregular).
    pub depth: u32,
    /// Processors.
    pub procs: usize,
    /// Scheduler.
    pub algorithm: Algorithm,
    /// Runs averaged.
    pub runs: usize,
    /// Means over the runs.
    pub mean: DagMeans,
}

fn collect(
    kind: DagKind,
    cells: &[(u32, usize)],
    runs: usize,
    results: &[[DagRunStats; 2]],
) -> Vec<DagPoint> {
    let mut out = Vec::new();
    for (c, &(depth, procs)) in cells.iter().enumerate() {
        for (a, alg) in [Algorithm::Cws, Algorithm::Lcws].into_iter().enumerate() {
            let rs: Vec<DagRunStats> = (0..runs).map(|r| results[c * runs + r][a]).collect();
            out.push(DagPoint {
                kind,
                depth,
                procs,
                algorithm: alg,
                runs,
                mean: DagMeans::of(&rs),
            });
        }
    }
    out
}

/// Regular fork trees: every `(depth, procs)` cell, both algorithms on the same DAG,
/// `runs` runs each (run `r` of cell `c` seeded by `run_seed(seed, c, r)`).
pub fn regular(cells: &[(u32, usize)], runs: usize, seed: u64) -> Result<Vec<DagPoint>, String> {
    regular_with(cells, runs, seed, &Progress::hidden())
}

/// Estimated simulation steps of [`regular`] on `cells`: both algorithms visit every node
/// (`T1 = 3·2^d − 2`) and every processor steps for about the span (`2d`) at least.
pub fn estimated_steps(cells: &[(u32, usize)], runs: usize) -> f64 {
    cells
        .iter()
        .map(|&(d, p)| {
            let t1 = 3.0 * 2f64.powi(d.min(60) as i32);
            2.0 * runs as f64 * (t1 + p as f64 * 2.0 * (d as f64 + 1.0))
        })
        .sum()
}

/// [`regular`] counting every finished run in `progress`.
pub fn regular_with(
    cells: &[(u32, usize)],
    runs: usize,
    seed: u64,
    progress: &Progress,
) -> Result<Vec<DagPoint>, String> {
    if runs == 0 {
        return Err("runs must be at least 1".into());
    }
    let mut depths: Vec<u32> = cells.iter().map(|c| c.0).collect();
    depths.sort_unstable();
    depths.dedup();
    for &d in &depths {
        if d > Dag::MAX_REGULAR_DEPTH {
            return Err(format!(
                "regular depth {d} too large (max {})",
                Dag::MAX_REGULAR_DEPTH
            ));
        }
    }
    for &(_, p) in cells {
        if p == 0 {
            return Err("procs must be at least 1".into());
        }
    }
    let dags: Vec<Dag> = depths.iter().map(|&d| Dag::regular(d)).collect();
    let dag_of = |d: u32| &dags[depths.binary_search(&d).expect("depth listed")];
    let res = par_map_runs(cells.len() * runs, |i| {
        let (c, r) = (i / runs, i % runs);
        let (d, p) = cells[c];
        let s = run_seed(seed, c as u64, r as u64);
        let g = dag_of(d);
        let both = [
            dag::simulate(g, Algorithm::Cws, p, s),
            dag::simulate(g, Algorithm::Lcws, p, s),
        ];
        progress.inc();
        both
    });
    let res: Result<Vec<[DagRunStats; 2]>, String> =
        res.into_iter().map(|[a, b]| Ok([a?, b?])).collect();
    Ok(collect(DagKind::Regular, cells, runs, &res?))
}

/// Irregular DAGs: a fresh random DAG per run (shared by both algorithms).
pub fn irregular(
    cells: &[(u32, usize)],
    rate: f64,
    runs: usize,
    seed: u64,
    max_nodes: usize,
) -> Result<Vec<DagPoint>, String> {
    irregular_with(cells, rate, runs, seed, max_nodes, &Progress::hidden())
}

/// [`irregular`] counting every finished run in `progress`.
pub fn irregular_with(
    cells: &[(u32, usize)],
    rate: f64,
    runs: usize,
    seed: u64,
    max_nodes: usize,
    progress: &Progress,
) -> Result<Vec<DagPoint>, String> {
    if runs == 0 {
        return Err("runs must be at least 1".into());
    }
    let res = par_map_runs(
        cells.len() * runs,
        |i| -> Result<[DagRunStats; 2], String> {
            let (c, r) = (i / runs, i % runs);
            let (d, p) = cells[c];
            let s = run_seed(seed, c as u64, r as u64);
            // The DAG depends on (depth, run) only, so cells that differ only in P share DAGs.
            let g = Dag::irregular(
                d,
                rate,
                run_seed(seed ^ 0x5EED, d as u64, r as u64),
                max_nodes,
            )?;
            let both = [
                dag::simulate(&g, Algorithm::Cws, p, s)?,
                dag::simulate(&g, Algorithm::Lcws, p, s)?,
            ];
            progress.inc();
            Ok(both)
        },
    );
    let res: Result<Vec<_>, String> = res.into_iter().collect();
    Ok(collect(DagKind::Irregular, cells, runs, &res?))
}

/// Markdown table of a set of points, CWS and LCWS side by side.
pub fn table(points: &[DagPoint]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| kind | depth | P | T1 | T∞ | CWS CAS+fences | LCWS CAS+fences | LCWS notifications | LCWS steal attempts | CWS sync / T1 | LCWS sync / (P·T∞) | makespan CWS / LCWS |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|");
    for pair in points.chunks(2) {
        let [c, l] = pair else { continue };
        let pt = l.procs as f64 * l.mean.span;
        let _ = writeln!(
            s,
            "| {:?} | {} | {} | {:.0} | {:.1} | {:.0} | {:.0} | {:.0} | {:.0} | {:.3} | {:.3} | {:.0} / {:.0} |",
            c.kind,
            c.depth,
            c.procs,
            c.mean.t1,
            c.mean.span,
            c.mean.sync,
            l.mean.sync,
            l.mean.notifications,
            l.mean.steal_attempts,
            c.mean.sync / c.mean.t1,
            l.mean.sync / pt,
            c.mean.makespan,
            l.mean.makespan
        );
    }
    s
}

/// Draws one Figure-2 panel: synchronization (log scale) against `x` (depth or P).
pub fn figure(
    path: &Path,
    title: &str,
    x_desc: &str,
    points: &[DagPoint],
    x_is_procs: bool,
) -> plot::PlotResult {
    let x = |p: &DagPoint| {
        if x_is_procs {
            p.procs as f64
        } else {
            p.depth as f64
        }
    };
    let pick = |alg: Algorithm, f: &dyn Fn(&DagMeans) -> f64| -> Vec<(f64, f64)> {
        points
            .iter()
            .filter(|p| p.algorithm == alg)
            .map(|p| (x(p), f(&p.mean)))
            .collect()
    };
    let series = vec![
        Series {
            name: "CWS: CAS + fences".into(),
            points: pick(Algorithm::Cws, &|m| m.sync),
            reference: false,
        },
        Series {
            name: "LCWS: CAS + fences".into(),
            points: pick(Algorithm::Lcws, &|m| m.sync),
            reference: false,
        },
        Series {
            name: "LCWS: notifications".into(),
            points: pick(Algorithm::Lcws, &|m| m.notifications),
            reference: false,
        },
        Series {
            name: "work T1".into(),
            points: pick(Algorithm::Cws, &|m| m.t1),
            reference: true,
        },
        Series {
            name: "P·T∞".into(),
            points: points
                .iter()
                .filter(|p| p.algorithm == Algorithm::Lcws)
                .map(|p| (x(p), p.procs as f64 * p.mean.span))
                .collect(),
            reference: true,
        },
    ];
    plot::line_plot(
        path,
        title,
        x_desc,
        "count (mean over runs, log scale)",
        &series,
        true,
        x_is_procs,
    )
}

/// One computed panel of Figure 2.
#[derive(Debug, Clone)]
pub struct Panel {
    /// File stem: `dag_<name>.json`, `dag_<name>.svg`.
    pub name: String,
    /// Figure title.
    pub title: String,
    /// X axis title.
    pub x_desc: String,
    /// Whether x is the processor count (else the depth).
    pub x_is_procs: bool,
    /// The points, CWS and LCWS alternating.
    pub points: Vec<DagPoint>,
}

/// Writes `dag_<name>.json` (with the `"run"` facts) and `dag_<name>.svg` into `out`; returns
/// the paths.
pub fn write(
    out: &Path,
    panel: &Panel,
    meta: &RunMeta,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    #[derive(Serialize)]
    struct Doc<'a> {
        run: &'a RunMeta,
        panel: &'a str,
        points: &'a [DagPoint],
    }
    let js = out.join(format!("dag_{}.json", panel.name));
    out_dir::write_json(
        &js,
        &Doc {
            run: meta,
            panel: &panel.name,
            points: &panel.points,
        },
    )?;
    let svg = out.join(format!("dag_{}.svg", panel.name));
    figure(
        &svg,
        &panel.title,
        &panel.x_desc,
        &panel.points,
        panel.x_is_procs,
    )?;
    Ok(vec![js, svg])
}

/// Writes every panel ([`write()`]) and `index.html` showing them; returns the paths.
pub fn write_all(
    out: &Path,
    panels: &[Panel],
    runs: usize,
    meta: &RunMeta,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    out_dir::prepare(out)?;
    // Panels not computed this time must not survive from an earlier run beside this index.
    let stale = |name: &str| {
        ["regular", "irregular", "procs"].iter().any(|panel| {
            !panels.iter().any(|p| p.name == *panel)
                && (name == format!("dag_{panel}.json") || name == format!("dag_{panel}.svg"))
        })
    };
    out_dir::remove_stale(out, stale)?;
    let mut files = Vec::new();
    let mut page = Page::new(
        "Synchronization of classical work stealing vs LCWS (LCWS paper, Figure 2)",
        &meta.info,
    );
    page.section("summary", "Summary").para(
        "CAS and fences counted by simulation on fork-join DAGs, means over the runs. Classical \
         work stealing (CWS) pays synchronization on every push and pop, so its count follows the \
         work T1; LCWS pays only when work is exposed to thieves, so its count should follow \
         P·T∞ (the dashed references).",
    );
    page.section("figures", "Figures");
    for p in panels {
        files.extend(write(out, p, meta)?);
        page.figure(&format!("dag_{}.svg", p.name), &p.title);
    }
    page.section("tables", "Tables");
    for p in panels {
        page.subsection(&p.name, &p.title);
        page.table_html(&crate::sweep::markdown_tables_html(&table(&p.points)));
    }
    page.note(&format!(
        "{runs} runs per point. Sync = CAS + fences; makespans in steps."
    ));
    page.section("files", "Data files");
    let mut list = String::from("<ul>");
    for p in panels {
        let _ = write!(
            list,
            "<li><a href=\"dag_{n}.json\">dag_{n}.json</a>: the {n} panel's points, with the run facts</li>",
            n = p.name
        );
    }
    list.push_str("</ul>");
    page.raw_html(&list);
    files.push(page.write(out)?);
    Ok(files)
}

//! The LCWS paper's Figure 2 experiments (§5): synchronization of CWS vs LCWS against fork-span
//! (regular DAGs), against depth (irregular DAGs) and against the number of processors.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::dag::{self, Algorithm, Dag, DagMeans, DagRunStats};
use crate::par::{par_map_runs, run_seed};
use crate::plot::{self, Series};

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
        [
            dag::simulate(g, Algorithm::Cws, p, s),
            dag::simulate(g, Algorithm::Lcws, p, s),
        ]
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
            Ok([
                dag::simulate(&g, Algorithm::Cws, p, s)?,
                dag::simulate(&g, Algorithm::Lcws, p, s)?,
            ])
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
        },
        Series {
            name: "LCWS: CAS + fences".into(),
            points: pick(Algorithm::Lcws, &|m| m.sync),
        },
        Series {
            name: "LCWS: notifications".into(),
            points: pick(Algorithm::Lcws, &|m| m.notifications),
        },
        Series {
            name: "work T1".into(),
            points: pick(Algorithm::Cws, &|m| m.t1),
        },
        Series {
            name: "P·T∞".into(),
            points: points
                .iter()
                .filter(|p| p.algorithm == Algorithm::Lcws)
                .map(|p| (x(p), p.procs as f64 * p.mean.span))
                .collect(),
        },
    ];
    plot::line_plot(
        path,
        title,
        x_desc,
        "count (mean over runs, log scale)",
        &series,
        true,
    )
}

/// Writes `dag_<name>.json` and `dag_<name>.svg` into `out`; returns the paths.
pub fn write(
    out: &Path,
    name: &str,
    title: &str,
    x_desc: &str,
    points: &[DagPoint],
    x_is_procs: bool,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    std::fs::create_dir_all(out)?;
    let js = out.join(format!("dag_{name}.json"));
    std::fs::write(&js, serde_json::to_string_pretty(points)?)?;
    let svg = out.join(format!("dag_{name}.svg"));
    figure(&svg, title, x_desc, points, x_is_procs)?;
    Ok(vec![js, svg])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_experiments_and_outputs() {
        let reg = regular(&[(4, 2), (6, 2)], 2, 1).unwrap();
        assert_eq!(reg.len(), 4);
        assert_eq!(reg[0].algorithm, Algorithm::Cws);
        assert_eq!(reg[1].mean.t1, (3 * 16 - 2) as f64);
        let irr = irregular(&[(40, 4)], 0.05, 2, 1, 1 << 20).unwrap();
        assert_eq!(
            irr[0].mean.t1, irr[1].mean.t1,
            "same DAGs for both algorithms"
        );
        assert!(regular(&[(40, 2)], 1, 1).is_err());
        assert!(regular(&[(4, 0)], 1, 1).is_err());
        let dir = std::env::temp_dir().join(format!("splitsteal-sim-dag-{}", std::process::id()));
        let files = write(&dir, "t", "t", "depth", &reg, false).unwrap();
        assert_eq!(files.len(), 2);
        assert!(table(&reg).lines().count() == 4);
        std::fs::remove_dir_all(&dir).ok();
    }
}

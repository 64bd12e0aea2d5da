//! `sim steal-cost`: every shape × processor count × policy of the timed model
//! ([`crate::steal_cost`]), `runs` runs each; the table, CSV, JSON, one SVG per shape and
//! `index.html`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use splitsteal_report::out_dir;
use splitsteal_report::page::Page;

use crate::meta::RunMeta;
use crate::par::{par_map_runs, run_seed};
use crate::plot::{self, Series};
use crate::progress::Progress;
use crate::steal_cost::{
    self, Costs, Options, Policy, Shape, ShapeParams, StealMeans, StealRun, TimedDag, MAX_PROCS,
};

/// The inputs of one `sim steal-cost` run.
#[derive(Debug, Clone, Serialize)]
pub struct StealExperiment {
    /// Shapes, in report order.
    pub shapes: Vec<Shape>,
    /// Policies, in report order.
    pub policies: Vec<Policy>,
    /// Processor counts.
    pub procs: Vec<usize>,
    /// Runs per (shape, P, policy) cell.
    pub runs: usize,
    /// Base seed.
    pub seed: u64,
    /// Sizes of the shapes.
    pub shape_params: ShapeParams,
    /// The costs of the model.
    pub costs: Costs,
    /// Sleeping on or off, and after how many failed rounds.
    pub options: Options,
}

/// Mean counters of one (shape, P, policy) cell.
#[derive(Debug, Clone, Serialize)]
pub struct StealCell {
    /// DAG family.
    pub shape: Shape,
    /// Processors.
    pub procs: usize,
    /// Policy.
    pub policy: Policy,
    /// Runs averaged.
    pub runs: usize,
    /// Mean number of DAG nodes.
    pub nodes: f64,
    /// Means over the runs.
    pub mean: StealMeans,
}

/// The DAGs of an experiment: a fixed shape's one DAG, kept; a random shape's sizes only
/// (each run rebuilds its DAG from its seed when it runs, so that a big experiment holds a
/// few DAGs at a time, not one per run).
pub struct Dags {
    fixed: Vec<Option<TimedDag>>,
    /// `(nodes, T1, T∞)` of every run's DAG, per shape.
    sizes: Vec<Vec<(u64, u64, u64)>>,
}

impl Dags {
    /// `(nodes, T1, T∞)` of run `r`'s DAG of shape number `s`.
    pub fn size(&self, s: usize, r: usize) -> (u64, u64, u64) {
        let v = &self.sizes[s];
        v[r.min(v.len() - 1)]
    }

    /// The DAG of run `r` of shape number `s` of `e`.
    pub fn dag(
        &self,
        e: &StealExperiment,
        s: usize,
        r: usize,
    ) -> Result<std::borrow::Cow<'_, TimedDag>, String> {
        match &self.fixed[s] {
            Some(g) => Ok(std::borrow::Cow::Borrowed(g)),
            None => e.dag(s, r).map(std::borrow::Cow::Owned),
        }
    }
}

impl StealExperiment {
    /// Checks every value (the CLI has checked each on its own; this checks them together,
    /// for library callers too).
    pub fn validate(&self) -> Result<(), String> {
        if self.shapes.is_empty() || self.policies.is_empty() || self.procs.is_empty() {
            return Err("need at least one shape, one policy and one processor count".into());
        }
        fn unique<T: PartialEq + std::fmt::Debug>(what: &str, v: &[T]) -> Result<(), String> {
            for (i, x) in v.iter().enumerate() {
                if v[..i].contains(x) {
                    return Err(format!("{what} lists {x:?} twice"));
                }
            }
            Ok(())
        }
        unique("--shapes", &self.shapes)?;
        unique("--policies", &self.policies)?;
        unique("--procs-list", &self.procs)?;
        if self.runs == 0 {
            return Err("runs must be at least 1".into());
        }
        for &p in &self.procs {
            if p == 0 || p > MAX_PROCS {
                return Err(format!(
                    "processor count must be in 1..={MAX_PROCS}, got {p}"
                ));
            }
        }
        self.costs.validate()?;
        self.options.validate()
    }

    /// Simulations planned: shapes × P × policies × runs.
    pub fn planned_runs(&self) -> usize {
        self.shapes.len() * self.procs.len() * self.policies.len() * self.runs
    }

    /// The DAG of run `r` of shape number `s` (a random shape's is seeded from
    /// `(seed, shape, run)`).
    pub fn dag(&self, s: usize, r: usize) -> Result<TimedDag, String> {
        let shape = self.shapes[s];
        let r = if shape.is_random() { r } else { 0 };
        self.shape_params
            .build(shape, run_seed(self.seed ^ 0x5EED, s as u64, r as u64))
            .map_err(|e| format!("{shape}: {e}"))
    }

    /// Builds the fixed shapes' DAGs and measures the random ones'.
    pub fn build_dags(&self) -> Result<Dags, String> {
        let mut fixed = Vec::with_capacity(self.shapes.len());
        let mut sizes = Vec::with_capacity(self.shapes.len());
        for (s, &shape) in self.shapes.iter().enumerate() {
            let size = |g: &TimedDag| (g.nodes(), g.work(), g.span());
            if shape.is_random() {
                let v = par_map_runs(self.runs, |r| self.dag(s, r).map(|g| size(&g)));
                sizes.push(v.into_iter().collect::<Result<Vec<_>, String>>()?);
                fixed.push(None);
            } else {
                let g = self.dag(s, 0)?;
                sizes.push(vec![size(&g)]);
                fixed.push(Some(g));
            }
        }
        Ok(Dags { fixed, sizes })
    }

    /// Estimated simulation events: every node once, and every processor looking at
    /// victims (one look per `probe_ns`) for 4 times `T1/P + T∞` units, twice (the default
    /// run's makespans are up to tens of times the bound, but most cells are near it; the
    /// estimate came out at about its event count).
    pub fn estimated_events(&self, dags: &Dags) -> f64 {
        let look = self.costs.node_ns / self.costs.probe_ns;
        let mut total = 0.0;
        for s in 0..self.shapes.len() {
            for r in 0..self.runs {
                let (nodes, work, span) = dags.size(s, r);
                for &p in &self.procs {
                    let busy = work as f64 / p as f64 + span as f64;
                    total +=
                        self.policies.len() as f64 * (nodes as f64 + 8.0 * p as f64 * busy * look);
                }
            }
        }
        total
    }
}

/// Runs the experiment (building its DAGs first).
pub fn run(e: &StealExperiment) -> Result<Vec<StealCell>, String> {
    e.validate()?;
    let dags = e.build_dags()?;
    run_with(e, &dags, &Progress::hidden())
}

/// Runs every cell on `dags` (from [`StealExperiment::build_dags`]), counting every finished
/// simulation in `progress`. Run `r` of every policy in a (shape, P) cell uses the same
/// DAG and the same seed, so the policies differ only by their rules; the DAG of run `r`
/// is the same at every P.
pub fn run_with(
    e: &StealExperiment,
    dags: &Dags,
    progress: &Progress,
) -> Result<Vec<StealCell>, String> {
    e.validate()?;
    let (ns, np, na, runs) = (e.shapes.len(), e.procs.len(), e.policies.len(), e.runs);
    // One item per (shape, run): its DAG, then every (P, policy) on it.
    let res = par_map_runs(ns * runs, |i| -> Result<Vec<StealRun>, String> {
        let (s, r) = (i / runs, i % runs);
        let g = dags.dag(e, s, r)?;
        let mut out = Vec::with_capacity(np * na);
        for (pi, &p) in e.procs.iter().enumerate() {
            let seed = run_seed(e.seed, (s * np + pi) as u64, r as u64);
            for &policy in &e.policies {
                out.push(
                    steal_cost::simulate_with(&g, policy, p, &e.costs, &e.options, seed).map_err(
                        |err| format!("{} at P = {p} under {policy}, run {r}: {err}", e.shapes[s]),
                    )?,
                );
                progress.inc();
            }
        }
        Ok(out)
    });
    let res: Vec<Vec<StealRun>> = res.into_iter().collect::<Result<_, _>>()?;
    // res[s * runs + r][pi * na + a] → cells in (shape, P, policy) order, runs together.
    let res: Vec<StealRun> = (0..ns * np * na)
        .flat_map(|c| {
            let (s, k) = (c / (np * na), c % (np * na));
            let res = &res;
            (0..runs).map(move |r| res[s * runs + r][k])
        })
        .collect();
    let mut cells = Vec::with_capacity(e.shapes.len() * np * na);
    for (c, chunk) in res.chunks(runs).enumerate() {
        let a = c % na;
        let pi = (c / na) % np;
        let s = c / na / np;
        cells.push(StealCell {
            shape: e.shapes[s],
            procs: e.procs[pi],
            policy: e.policies[a],
            runs,
            nodes: chunk.iter().map(|r| r.nodes as f64).sum::<f64>() / runs as f64,
            mean: StealMeans::of(chunk),
        });
    }
    Ok(cells)
}

/// The Markdown table: one row per cell, grouped by shape and P.
pub fn table(e: &StealExperiment, cells: &[StealCell]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Times in units of {} ns (one node); ratio = makespan / (T1/P + T∞), mean [min–max] over {} runs; counts are means per run. {}. claims: cut = cut at least once, revoked = by a pop at their first task or a reset; heavy fences: issued (thieves' and sleepers'), callers served per fence; IPI loss: time all processors together lost to heavy fences' interrupts; fence wait: thieves' time waiting for a shared fence; answered / timeouts (asym-answered): claims whose owner answered in time / whose thief waited in vain and ran the heavy fence.\n",
        e.costs.node_ns,
        e.runs,
        if e.options.sleep {
            format!(
                "Idle processors sleep after {} failed rounds",
                e.options.spin_rounds
            )
        } else {
            "Idle processors never sleep".to_string()
        }
    );
    let _ = writeln!(
        s,
        "| shape | P | policy | T1 | T∞ | makespan | ratio | steals | tasks stolen | claims | cut | revoked | withdrawn | heavy fences | served/fence | IPI loss | fence wait | sleeps | wake-ups | CAS | fences | signals | handler loss | answered | timeouts |"
    );
    let _ = writeln!(
        s,
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for c in cells {
        let m = &c.mean;
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.0} | {:.0} | {:.0} | {:.2} [{:.2}–{:.2}] | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.1} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} |",
            c.shape,
            c.procs,
            c.policy,
            m.t1,
            m.span,
            m.makespan,
            m.ratio,
            m.min_ratio,
            m.max_ratio,
            m.steals,
            m.tasks_stolen,
            m.claims,
            m.claims_cut,
            m.revoked,
            m.withdrawn,
            m.heavy_fences,
            m.served_per_fence,
            m.ipi_lost,
            m.fence_wait,
            m.sleeps,
            m.wakeups,
            m.cas,
            m.fences,
            m.signals,
            m.handler_lost,
            m.answered,
            m.answer_timeouts,
        );
    }
    s
}

/// The cells as CSV, one line per cell, every mean.
pub fn csv(cells: &[StealCell]) -> String {
    let mut s = String::from(
        "shape,procs,policy,runs,nodes,t1,span,makespan,ratio,min_ratio,max_ratio,steals,tasks_stolen,\
         steal_attempts,aborts,lost_cas,claims,claims_cut,cut_commits,revoked,withdrawn,partial_commits,failed_validations,\
         heavy_fences,sleep_fences,served_per_fence,ipis,cas,fences,signals,sleep_attempts,sleeps,wakeups,\
         ipi_lost,handler_lost,fence_time,fence_wait,parked_time,events,\
         answered,answer_timeouts,owner_answers,answer_wait\n",
    );
    for c in cells {
        let m = &c.mean;
        let v = [
            m.t1,
            m.span,
            m.makespan,
            m.ratio,
            m.min_ratio,
            m.max_ratio,
            m.steals,
            m.tasks_stolen,
            m.steal_attempts,
            m.aborts,
            m.lost_cas,
            m.claims,
            m.claims_cut,
            m.cut_commits,
            m.revoked,
            m.withdrawn,
            m.partial_commits,
            m.failed_validations,
            m.heavy_fences,
            m.sleep_fences,
            m.served_per_fence,
            m.ipis,
            m.cas,
            m.fences,
            m.signals,
            m.sleep_attempts,
            m.sleeps,
            m.wakeups,
            m.ipi_lost,
            m.handler_lost,
            m.fence_time,
            m.fence_wait,
            m.parked_time,
            m.events,
            m.answered,
            m.answer_timeouts,
            m.owner_answers,
            m.answer_wait,
        ];
        let _ = write!(
            s,
            "{},{},{},{},{}",
            c.shape, c.procs, c.policy, c.runs, c.nodes
        );
        for x in v {
            let _ = write!(s, ",{x}");
        }
        s.push('\n');
    }
    s
}

/// Draws, for one shape, the mean ratio against P, one line per policy.
fn figure(path: &Path, shape: Shape, cells: &[StealCell]) -> plot::PlotResult {
    let mut policies: Vec<Policy> = Vec::new();
    for c in cells.iter().filter(|c| c.shape == shape) {
        if !policies.contains(&c.policy) {
            policies.push(c.policy);
        }
    }
    let series: Vec<Series> = policies
        .iter()
        .map(|&a| Series {
            name: a.to_string(),
            points: cells
                .iter()
                .filter(|c| c.shape == shape && c.policy == a)
                .map(|c| (c.procs as f64, c.mean.ratio))
                .collect(),
            reference: false,
        })
        .collect();
    plot::line_plot(
        path,
        &format!("{shape}: makespan / (T1/P + T∞)"),
        "processors P",
        "mean ratio (log scale)",
        &series,
        true,
        true,
    )
}

/// Writes `steal_cost.json` (with the `"run"` facts), `steal_cost.csv`, `steal_cost.md`,
/// `steal_cost_<shape>.svg` and `index.html` into `out`; returns the paths.
pub fn write(
    out: &Path,
    e: &StealExperiment,
    cells: &[StealCell],
    meta: &RunMeta,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    out_dir::prepare(out)?;
    // Figures of shapes not computed this time must not survive beside this index.
    out_dir::remove_stale(out, |name| {
        name.starts_with("steal_cost_")
            && name.ends_with(".svg")
            && !e
                .shapes
                .iter()
                .any(|s| name == format!("steal_cost_{s}.svg"))
    })?;
    #[derive(Serialize)]
    struct Doc<'a> {
        run: &'a RunMeta,
        experiment: &'a StealExperiment,
        cells: &'a [StealCell],
    }
    let js = out.join("steal_cost.json");
    out_dir::write_json(
        &js,
        &Doc {
            run: meta,
            experiment: e,
            cells,
        },
    )?;
    let csv_path = out.join("steal_cost.csv");
    out_dir::write(&csv_path, csv(cells))?;
    let md = out.join("steal_cost.md");
    let tab = table(e, cells);
    out_dir::write(&md, &tab)?;
    let mut files = vec![js, csv_path, md];
    let mut page = Page::new(
        "What a steal costs: asym (answered claims, or a heavy fence on every steal) against lcws-signal and chase-lev (timed model)",
        &meta.info,
    );
    page.section("summary", "Summary").para(
        "P processors run fork-join DAGs in a timed model (crate::steal_cost): nodes take units of \
         --node-ns, and every synchronization its measured cost. asym's thieves pay a heavy fence \
         per claim, which interrupts every other running processor (all but the -own policies \
         share one fence among the thieves and sleepers that need one at the same moment); \
         asym-answered's thieves wait for the owner to answer their claim at its next push or \
         pop, and pay the heavy fence only when no answer comes within the fence's own cost \
         (or --answer-timeout-ns); an owner's \
         pop into a pending claim cuts it (or revokes it at its first task); lcws-signal's thieves \
         signal the victim to expose work; chase-lev pays a fence on every pop. Idle processors \
         sleep after a number of failed rounds (unless --no-sleep), and a parked processor is \
         neither interrupted nor counted by heavy fences. The ratio is the makespan over the \
         work-stealing bound T1/P + T∞ (1 would be perfect).",
    );
    let costs: Vec<String> = e
        .costs
        .named()
        .iter()
        .map(|(n, v)| format!("{n} {v}"))
        .collect();
    page.note(&format!(
        "Costs (ns): {}; {}; heavy fence with all of P = {} running: {}.",
        costs.join(", "),
        if e.options.sleep {
            format!("sleeping after {} failed rounds", e.options.spin_rounds)
        } else {
            "no sleeping".to_string()
        },
        e.procs
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        e.procs
            .iter()
            .map(|&p| format!("{:.0} ns", e.costs.heavy_ns(p)))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    page.section("figures", "Figures");
    for &shape in &e.shapes {
        let name = format!("steal_cost_{shape}.svg");
        let svg = out.join(&name);
        figure(&svg, shape, cells)?;
        page.figure(&name, &format!("{shape}: mean ratio against P, per policy"));
        files.push(svg);
    }
    page.section("tables", "Table")
        .table_html(&crate::sweep::markdown_tables_html(&tab));
    page.section("files", "Data files").raw_html(
        "<ul><li><a href=\"steal_cost.json\">steal_cost.json</a>: every cell, with the run facts</li>\
         <li><a href=\"steal_cost.csv\">steal_cost.csv</a>: every cell's means</li>\
         <li><a href=\"steal_cost.md\">steal_cost.md</a>: the table above</li></ul>",
    );
    files.push(page.write(out)?);
    Ok(files)
}

//! `sim scaling`'s outputs: the Markdown report (calibration, measured against predicted
//! speedups, the default policy against `chase-lev`), `scaling.json` and `index.html`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use splitsteal_report::out_dir;
use splitsteal_report::page::Page;

use crate::meta::RunMeta;
use crate::plot::{self, Series};
use crate::scaling::{
    MeasuredRun, ScalingExperiment, SchedulerResult, Spread, Verdict, WorkloadResult,
};

fn fmt_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn spread_cell(m: Option<Spread>) -> String {
    m.map_or("–".into(), |m| {
        format!("{:.2} [{:.2}–{:.2}]", m.median, m.min, m.max)
    })
}

fn verdict_cell(v: Option<Verdict>) -> String {
    v.map_or("no measurement".into(), |v| v.to_string())
}

/// A scheduler's name, and what its model is where the name does not say it: `asym`'s
/// thieves run a heavy fence on every steal, `asym-answered`'s only when the owner does
/// not answer in time.
fn scheduler_label(s: &SchedulerResult) -> String {
    if s.scheduler == s.policy.to_string() {
        policy_label(&s.scheduler)
    } else {
        format!("{} (model: {})", s.scheduler, s.policy)
    }
}

fn policy_label(name: &str) -> String {
    match name {
        "asym" => "asym (heavy fence on every steal)".into(),
        "asym-answered" => "asym-answered (owner answers, fence on timeout)".into(),
        _ => name.into(),
    }
}

/// `predicted / chase-lev's predicted` speedup of `policy` at `procs` in `w`.
pub fn versus_chase_lev(w: &WorkloadResult, scheduler: &str, procs: usize) -> Option<f64> {
    let of = |name: &str| {
        w.schedulers
            .iter()
            .find(|s| s.scheduler == name)
            .and_then(|s| s.at(procs))
            .map(|p| p.speedup)
    };
    Some(of(scheduler)? / of("chase-lev")?)
}

/// The report's tables and notes, as Markdown (the body of `scaling.md`).
pub fn table(e: &ScalingExperiment, measured: &MeasuredRun, results: &[WorkloadResult]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Measured: `{}` on {} ({}). Model: the timed model of `sim steal-cost` \
         (crates/splitsteal-sim/src/steal_cost.rs), its synchronization costs the `Costs` defaults measured on the \
         same kind of machine by crates/splitsteal-sim/probes, one node's time calibrated per workload from its \
         serial time; {} runs per cell, seed {}. Predictions past the measured thread count are the model's \
         alone: nothing here has been run on more than 2 cores.\n",
        measured.command, measured.machine, measured.date, e.runs, e.seed
    );
    let _ = writeln!(s, "## Calibration\n");
    let _ = writeln!(
        s,
        "node ns = serial median / forks measured × forks of the model DAG / its work (units): the serial time per \
         fork, spread over the model's nodes; at the measured size this is serial time per node. Forks measured = \
         the most tasks (`stats.tasks`, the runtime's count) of any splitsteal record − 1. A model DAG marked \
         *smaller* forks less often than the workload (a capped fib depth, or a shape whose size the records do \
         not fix); it keeps the time per fork, not the total.\n"
    );
    let _ = writeln!(
        s,
        "| workload | model shape | serial median | forks measured | serial per fork | model forks | model nodes | model T∞ | size | node ns |\n|---|---|---|---|---|---|---|---|---|---|"
    );
    for w in results {
        let c = &w.calibration;
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |",
            c.analog.workload,
            c.analog.shape,
            fmt_ns(c.serial_s * 1e9),
            c.forks,
            fmt_ns(c.ns_per_fork),
            c.model_forks,
            c.model_nodes,
            c.model_span,
            if c.full_size() { "measured" } else { "smaller" },
            c.node_ns
        );
    }
    let _ = writeln!(s, "\n## Speedups\n");
    let _ = writeln!(
        s,
        "measured T1/T2: the scheduler's 1-thread median over its 2-thread median [fastest 1-thread / slowest \
         2-thread – slowest / fastest]; model T1/T2: the model's makespan at P = 1 over P = 2 under the same \
         policy. Ts/T2: the serial elision's median over the 2-thread median, and the model's T1 / makespan at P = 2. \
         A verdict *agrees* when the model lies inside the measured spread; the factor is model / measured median. \
         P = …: the model's speedup over the serial elision (T1 / makespan), mean over the runs. rayon is set \
         against the chase-lev model (its deque); its predictions are chase-lev's.\n"
    );
    let mut head = String::from(
        "| workload | scheduler | measured T1/T2 | model T1/T2 | verdict | measured Ts/T2 | model Ts/T2 | verdict |",
    );
    let mut rule = String::from("|---|---|---|---|---|---|---|---|");
    for p in &e.procs {
        let _ = write!(head, " P = {p} |");
        rule.push_str("---|");
    }
    let _ = writeln!(s, "{head}\n{rule}");
    for w in results {
        for sr in &w.schedulers {
            let _ = write!(
                s,
                "| {} | {} | {} | {:.2} | {} | {} | {} | {} |",
                w.calibration.analog.workload,
                scheduler_label(sr),
                spread_cell(sr.measured.map(|m| m.self_relative)),
                sr.predicted_self_2,
                verdict_cell(sr.verdict),
                spread_cell(sr.measured.and_then(|m| m.over_serial)),
                sr.at(2).map_or("–".into(), |x| format!("{:.2}", x.speedup)),
                verdict_cell(sr.verdict_over_serial),
            );
            for &p in &e.procs {
                let cell = sr.at(p).map_or("–".into(), |x| format!("{:.2}", x.speedup));
                let _ = write!(s, " {cell} |");
            }
            s.push('\n');
        }
    }
    let count = |pick: fn(&SchedulerResult) -> Option<Verdict>| {
        results
            .iter()
            .flat_map(|w| &w.schedulers)
            .filter_map(pick)
            .fold((0, 0), |(a, t), v| (a + usize::from(v.agrees), t + 1))
    };
    let (agree, total) = count(|s| s.verdict);
    let (agree_serial, total_serial) = count(|s| s.verdict_over_serial);
    let _ = writeln!(
        s,
        "\nAt P = 2 the model agrees with {agree} of {total} measured self-relative speedups and with \
         {agree_serial} of {total_serial} speedups over the serial elision."
    );
    let _ = writeln!(s, "\n## The default policy against chase-lev\n");
    let _ = writeln!(
        s,
        "The model's speedup of asym-answered (the runtime's asym in pools of eight workers or more, whose \
         owners answer claims: a thief runs the heavy fence only when its victim does not answer within the \
         fence's own cost), of asym (a heavy fence on every steal: the runtime's asym below eight workers, as \
         measured here) and of lcws-signal over chase-lev's at the same P (above 1: faster than chase-lev).\n"
    );
    let mut head = String::from("| workload | policy |");
    let mut rule = String::from("|---|---|");
    for p in &e.procs {
        let _ = write!(head, " P = {p} |");
        rule.push_str("---|");
    }
    let _ = writeln!(s, "{head}\n{rule}");
    for w in results {
        for name in ["asym-answered", "asym", "lcws-signal"] {
            let _ = write!(
                s,
                "| {} | {} |",
                w.calibration.analog.workload,
                policy_label(name)
            );
            for &p in &e.procs {
                let cell = versus_chase_lev(w, name, p).map_or("–".into(), |x| format!("{x:.2}"));
                let _ = write!(s, " {cell} |");
            }
            s.push('\n');
        }
    }
    let _ = writeln!(s, "\n## Why these shapes\n");
    for w in results {
        let a = &w.calibration.analog;
        let _ = writeln!(
            s,
            "- {} → {}: {} (input: {}).",
            a.workload, a.shape, a.why, w.calibration.params
        );
    }
    s
}

/// The figure's file name.
pub const FIGURE: &str = "scaling_asym_vs_chase_lev.svg";

/// Draws asym's predicted speedup over chase-lev's against P, one line per workload, with
/// parity as a reference.
fn figure(path: &Path, e: &ScalingExperiment, results: &[WorkloadResult]) -> plot::PlotResult {
    let mut series: Vec<Series> = results
        .iter()
        .map(|w| Series {
            name: w.calibration.analog.workload.to_string(),
            points: e
                .procs
                .iter()
                .filter_map(|&p| Some((p as f64, versus_chase_lev(w, "asym", p)?)))
                .collect(),
            reference: false,
        })
        .collect();
    series.push(Series {
        name: "parity".into(),
        points: e.procs.iter().map(|&p| (p as f64, 1.0)).collect(),
        reference: true,
    });
    plot::line_plot(
        path,
        "model: asym's speedup ÷ chase-lev's (a heavy fence on every steal)",
        "processors P",
        "asym ÷ chase-lev (log scale)",
        &series,
        true,
        true,
    )
}

/// Writes `scaling.json` (with the `"run"` facts), `scaling.md`, the figure and
/// `index.html` into `out`; returns the paths.
pub fn write(
    out: &Path,
    e: &ScalingExperiment,
    measured: &MeasuredRun,
    results: &[WorkloadResult],
    meta: &RunMeta,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    out_dir::prepare(out)?;
    let js = out.join("scaling.json");
    out_dir::write_json(&js, &json_doc(e, measured, results, meta))?;
    let body = table(e, measured, results);
    let md = out.join("scaling.md");
    out_dir::write(
        &md,
        format!(
            "# sim scaling, {}\n\nCommand: `{}`.\n\n{body}",
            meta.info.date, meta.info.command
        ),
    )?;
    let mut page = Page::new(
        "Scaling: measured 2-thread speedups beside the timed model's predictions at P = 2 to 256",
        &meta.info,
    );
    page.section("summary", "Summary").para(
        "The timed model of sim steal-cost, its per-node time calibrated on each workload's measured serial time \
         and its synchronization costs measured on the same 2-vCPU machine, predicts each policy's speedup at P \
         processors. At P = 2 it is set beside the measured self-relative speedup; beyond, it is the model alone.",
    );
    let svg = out.join(FIGURE);
    figure(&svg, e, results)?;
    page.section("figures", "Figure").figure(
        FIGURE,
        "asym's predicted speedup over chase-lev's against P, per workload (above 1: asym faster)",
    );
    page.section("tables", "Tables")
        .table_html(&crate::sweep::markdown_tables_html(&body));
    page.section("files", "Data files").raw_html(
        "<ul><li><a href=\"scaling.json\">scaling.json</a>: every calibration and prediction, with the run facts</li>\
         <li><a href=\"scaling.md\">scaling.md</a>: the tables above</li>\
         <li><a href=\"scaling_asym_vs_chase_lev.svg\">scaling_asym_vs_chase_lev.svg</a>: the figure</li></ul>",
    );
    Ok(vec![js, md, svg, page.write(out)?])
}

/// The JSON document of a run: `{"run", "measured_run", "experiment", "workloads"}`.
pub fn json_doc<'a>(
    e: &'a ScalingExperiment,
    measured: &'a MeasuredRun,
    results: &'a [WorkloadResult],
    meta: &'a RunMeta,
) -> impl Serialize + 'a {
    #[derive(Serialize)]
    struct Doc<'a> {
        run: &'a RunMeta,
        measured_run: &'a MeasuredRun,
        experiment: &'a ScalingExperiment,
        workloads: &'a [WorkloadResult],
    }
    Doc {
        run: meta,
        measured_run: measured,
        experiment: e,
        workloads: results,
    }
}

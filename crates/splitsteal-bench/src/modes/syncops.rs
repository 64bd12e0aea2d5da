//! `syncops`: synchronization counts per policy on the suite (the LCWS-in-practice paper's
//! profile figures, Figs. 3 and 8:
//! fences, CAS, steals, and exposed-but-unstolen work, relative to classical stealing).

use crate::modes::{scheduler_order, workload_order, Env, ModeOutput};
use crate::plot::Bars;
use crate::report::{fmt_count, fmt_ratio, Record, StatsRecord, Table};
use crate::runner::{build_pools, cells, measure, Reps};

/// The classical work-stealing baseline the ratios are taken against (the LCWS-in-practice
/// paper's "WS").
pub const BASELINE: &str = "chase-lev";

/// Default repetitions (test, quick, full) when run on its own.
pub const REPS: (usize, usize, usize) = (1, 1, 3);

/// Runs planned by [`run`] when it has to run the workloads itself.
pub fn planned_runs(env: &Env) -> u64 {
    let kinds: Vec<_> = env
        .kinds
        .iter()
        .copied()
        .filter(|k| k.has_stats())
        .collect();
    let w = env.workloads_or(&[]).len();
    let c = cells(&kinds, &env.threads_or(&[2])).len();
    (w * c * (env.reps_or(REPS.0, REPS.1, REPS.2) + env.warmup)) as u64
}

/// Builds the syncops report from `suite` records if given (mode `all`), otherwise runs
/// the suite's workloads on the splitsteal policies only.
pub fn run(env: &Env, suite: Option<&[Record]>) -> ModeOutput {
    let mut out = ModeOutput::default();
    let records: Vec<Record> = match suite {
        Some(r) => r.iter().filter(|r| r.stats.is_some()).cloned().collect(),
        None => {
            let kinds: Vec<_> = env
                .kinds
                .iter()
                .copied()
                .filter(|k| k.has_stats())
                .collect();
            let cs = cells(&kinds, &env.threads_or(&[2]));
            let pools = build_pools(&cs, env.pool_options);
            let reps = Reps {
                warmup: env.warmup,
                reps: env.reps_or(REPS.0, REPS.1, REPS.2),
            };
            let mut recs = Vec::new();
            if !cs.is_empty() {
                for spec in env.workloads_or(&[]) {
                    let params = (spec.params)(env.size);
                    let w = (spec.build)(env.size, env.seed);
                    let r = measure(
                        "syncops",
                        spec.name,
                        &params,
                        &*w,
                        &pools,
                        reps,
                        &env.progress,
                        &env.watchdog,
                    );
                    env.save_partial(&r);
                    recs.extend(r);
                }
            }
            out.records = recs.clone();
            recs
        }
    };
    if records.iter().all(|r| r.stats.is_none()) {
        out.notes.push(
            "no splitsteal policy ran (none was selected): rayon, chili and serial have no counters."
                .into(),
        );
        return out;
    }
    out.tables = tables(&records);
    let Some(t) = records.iter().map(|r| r.threads).max() else {
        return out;
    };
    let order = scheduler_order(&records);
    let workloads = workload_order(&records);
    let get = |w: &str, s: &str| -> Option<StatsRecord> {
        records
            .iter()
            .find(|r| r.workload == w && r.scheduler == s && r.threads == t)
            .and_then(|r| r.stats)
    };
    let abs = Bars {
        title: format!("CAS + fences per run at {t} threads"),
        y_desc: "CAS + fences".into(),
        categories: workloads.clone(),
        series: order
            .iter()
            .map(|s| {
                (
                    s.clone(),
                    workloads
                        .iter()
                        .map(|w| {
                            get(w, s)
                                .map(|x| (x.cas + x.fences) as f64)
                                .filter(|&v| v > 0.0)
                        })
                        .collect(),
                )
            })
            .collect(),
        log_y: true,
        reference: None,
    };
    env.plot(
        &mut out.plots,
        &mut out.notes,
        "syncops.svg",
        &abs.title.clone(),
        |p| abs.draw(p),
    );
    let rel = Bars {
        title: format!(
            "Fences relative to {BASELINE} at {t} threads (LCWS-in-practice paper, Figs. 3a, 8a)"
        ),
        y_desc: format!("fences / {BASELINE} fences"),
        categories: workloads.clone(),
        series: order
            .iter()
            .filter(|s| s.as_str() != BASELINE)
            .map(|s| {
                (
                    s.clone(),
                    workloads
                        .iter()
                        .map(|w| {
                            ratio(
                                get(w, s).map(|x| x.fences),
                                get(w, BASELINE).map(|x| x.fences),
                            )
                        })
                        .collect(),
                )
            })
            .collect(),
        log_y: true,
        reference: Some(1.0),
    };
    env.plot(
        &mut out.plots,
        &mut out.notes,
        "syncops-vs-chase-lev.svg",
        &rel.title.clone(),
        |p| rel.draw(p),
    );
    out
}

fn ratio(a: Option<u64>, b: Option<u64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b > 0 && a > 0 => Some(a as f64 / b as f64),
        _ => None,
    }
}

/// Per workload and policy: the counters and their ratios to [`BASELINE`].
pub fn tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records.iter().filter(|r| r.stats.is_some()).collect();
    if recs.is_empty() {
        return Vec::new();
    }
    let order = scheduler_order(records);
    // The LCWS-in-practice paper's profiles are about parallel runs: the largest thread count
    // (the other counts are in the suite table and results.json).
    let threads: Vec<usize> = recs.iter().map(|r| r.threads).max().into_iter().collect();
    let mut out = Vec::new();
    for t in threads {
        let mut tab = Table::new(
            format!("syncops at {t} thread(s): per-run medians; ratios to {BASELINE} (the LCWS-in-practice paper's WS)"),
            &[
                "workload",
                "policy",
                "cas",
                "fences",
                "heavy fences",
                "answered",
                "rmw",
                "steals",
                "attempts",
                "exposures",
                "unstolen",
                "signals",
                "tasks",
                "cas/CL",
                "fences/CL",
                "steals/CL",
            ],
        );
        for w in workload_order(records) {
            let base = recs
                .iter()
                .find(|r| r.workload == w && r.scheduler == BASELINE && r.threads == t)
                .and_then(|r| r.stats);
            for s in &order {
                let Some(r) = recs
                    .iter()
                    .find(|r| r.workload == w && &r.scheduler == s && r.threads == t)
                else {
                    continue;
                };
                let x = r.stats.expect("filtered");
                let unstolen = if x.exposures > 0 {
                    format!(
                        "{:.0}%",
                        100.0 * x.exposures.saturating_sub(x.steals) as f64 / x.exposures as f64
                    )
                } else {
                    "-".into()
                };
                tab.row(vec![
                    w.clone(),
                    s.clone(),
                    fmt_count(x.cas),
                    fmt_count(x.fences),
                    fmt_count(x.heavy_fences),
                    fmt_count(x.answered_claims),
                    fmt_count(x.rmw),
                    fmt_count(x.steals),
                    fmt_count(x.steal_attempts),
                    fmt_count(x.exposures),
                    unstolen,
                    fmt_count(x.signals),
                    fmt_count(x.tasks),
                    fmt_ratio(ratio(Some(x.cas), base.map(|b| b.cas))),
                    fmt_ratio(ratio(Some(x.fences), base.map(|b| b.fences))),
                    fmt_ratio(ratio(Some(x.steals), base.map(|b| b.steals))),
                ]);
            }
        }
        tab.notes.push(
            "heavy fences: process-wide barriers (membarrier) run by asym's thieves, one per claim (those that lose to the owner's pop \
             included) unless the owner answered it (answered; pools of eight workers or more); each interrupts every running thread of the process, so `fences` \
             (SeqCst fences only) leaves them out. \
             unstolen = (exposures − steals) / exposures: exposed work the owner took back (LCWS-in-practice paper, Figs. 3d, 8h). \
             That paper: USLCWS < 1% of WS's fences and ~60% of its CAS; Signal even fewer, especially at 2 workers."
                .into(),
        );
        out.push(tab);
    }
    out
}

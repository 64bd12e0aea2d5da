//! `suite`: every workload, every scheduler, 1 and 2 threads.

use std::time::Instant;

use crate::modes::{scheduler_order, workload_order, Env, ModeOutput};
use crate::plot::Bars;
use crate::report::{fill_ratios, fmt_count, fmt_ratio, fmt_secs, geomean, Record, Table};
use crate::runner::{build_pools, cells, idle_load, measure, Reps};
use crate::sched::{SchedulerKind, SpawnKind};
use crate::workloads::{registry, Group, SPAWNING};

/// Default repetitions (test, quick, full).
pub const REPS: (usize, usize, usize) = (1, 3, 5);

/// Runs planned by [`run`] (for the progress bar).
pub fn planned_runs(env: &Env) -> u64 {
    let w = env.workloads_or(&[]).len();
    let c = cells(&env.kinds, &env.threads_or(&[1, 2])).len();
    let reps = env.reps_or(REPS.0, REPS.1, REPS.2) + env.warmup;
    (w * c * reps) as u64
}

/// Runs the suite.
pub fn run(env: &Env) -> ModeOutput {
    let specs = env.workloads_or(&[]);
    let threads = env.threads_or(&[1, 2]);
    let cs = cells(&env.kinds, &threads);
    let pools = build_pools(&cs, env.pool_options);
    // Every pool stays alive for the whole suite: idle workers must not burn CPU.
    let idle = idle_load(std::time::Duration::from_millis(200));
    let reps = Reps {
        warmup: env.warmup,
        reps: env.reps_or(REPS.0, REPS.1, REPS.2),
    };
    let mut records = Vec::new();
    let mut notes = Vec::new();
    env.progress.println(format!(
        "{} pools built; idle load {idle:.2} cores",
        pools.len()
    ));
    if idle > 0.05 {
        notes.push(format!(
            "warning: with every pool built and idle, the process used {idle:.2} cores: some pool's idle workers \
             do not sleep, which slows every other scheduler's runs"
        ));
    }
    for spec in specs {
        let params = (spec.params)(env.size);
        env.progress.msg(format!("{}: generating input", spec.name));
        let t = Instant::now();
        let w = (spec.build)(env.size, env.seed);
        let setup = t.elapsed();
        let recs = measure(
            "suite",
            spec.name,
            &params,
            &*w,
            &pools,
            reps,
            &env.progress,
            &env.watchdog,
        );
        drop(w);
        let line = recs
            .iter()
            .map(|r| match r.median_s {
                Some(m) => format!("{}@{} {}", r.scheduler, r.threads, fmt_secs(m)),
                None => format!("{}@{} FAILED", r.scheduler, r.threads),
            })
            .collect::<Vec<_>>()
            .join(", ");
        env.progress.println(format!(
            "{:<10} ({params}; setup {}): {line}",
            spec.name,
            fmt_secs(setup.as_secs_f64())
        ));
        env.save_partial(&recs);
        records.extend(recs);
    }
    fill_ratios(&mut records);
    notes.push(
        "stats are splitsteal's exact counters (per-run medians); absent (null, `-`) for serial, rayon and chili."
            .into(),
    );
    let mut out = ModeOutput {
        tables: tables(&records),
        records,
        notes,
        ..Default::default()
    };
    plots(env, &mut out);
    out
}

/// The suite's tables: the full table, one summary per thread count, and the targets.
pub fn tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records.iter().filter(|r| r.experiment == "suite").collect();
    if recs.is_empty() {
        return Vec::new();
    }
    let spawn = spawn_emulation(&recs);
    let mut full = Table::new(
        "suite: median time per scheduler (min–max), speedup over serial, ×rayon = rayon's time / this time (same run), splitsteal Stats",
        &[
            "workload", "scheduler", "thr", "median", "min", "max", "speedup", "×rayon", "cas", "fences", "steals",
            "attempts", "exposures", "signals", "tasks",
        ],
    );
    let order = scheduler_order(records);
    for w in workload_order(records) {
        let mut rows: Vec<&&Record> = recs.iter().filter(|r| r.workload == w).collect();
        rows.sort_by_key(|r| (r.threads, order.iter().position(|n| *n == r.scheduler)));
        for r in rows {
            let (med, lo, hi) = match (r.median_s, r.min_s, r.max_s) {
                (Some(m), Some(a), Some(b)) => (fmt_secs(m), fmt_secs(a), fmt_secs(b)),
                _ if !r.verified => ("FAILED".into(), "-".into(), "-".into()),
                _ => ("-".into(), "-".into(), "-".into()),
            };
            let st = |f: fn(&crate::report::StatsRecord) -> u64| {
                r.stats
                    .as_ref()
                    .map(|s| fmt_count(f(s)))
                    .unwrap_or_else(|| "-".into())
            };
            let emulated = SPAWNING.contains(&r.workload.as_str())
                && spawn.iter().any(|(x, _)| *x == r.scheduler);
            full.row(vec![
                r.workload.clone(),
                if emulated {
                    format!("{} †", r.scheduler)
                } else {
                    r.scheduler.clone()
                },
                r.threads.to_string(),
                med,
                lo,
                hi,
                fmt_ratio(r.speedup),
                fmt_ratio(r.vs_rayon),
                st(|s| s.cas),
                st(|s| s.fences),
                st(|s| s.steals),
                st(|s| s.steal_attempts),
                st(|s| s.exposures),
                st(|s| s.signals),
                st(|s| s.tasks),
            ]);
        }
    }
    for r in recs.iter().filter(|r| !r.verified) {
        full.notes.push(format!(
            "FAILED: {} on {}@{}: {}",
            r.workload,
            r.scheduler,
            r.threads,
            r.error.as_deref().unwrap_or("?")
        ));
    }
    full.notes.extend(spawn.iter().map(|(_, n)| n.clone()));
    let mut out = vec![full];
    let mut threads: Vec<usize> = recs
        .iter()
        .filter(|r| r.scheduler != "serial")
        .map(|r| r.threads)
        .collect();
    threads.sort_unstable();
    threads.dedup();
    for &t in &threads {
        out.push(summary(&recs, &order, t, &spawn));
    }
    if let Some(&t) = threads.last() {
        out.push(targets(&recs, &order, t));
    }
    out
}

fn cell<'a>(recs: &[&'a Record], w: &str, s: &str, t: usize) -> Option<&'a Record> {
    recs.iter()
        .copied()
        .find(|r| r.workload == w && r.scheduler == s && (r.threads == t || s == "serial"))
}

/// The schedulers among `recs` that ran a spawning workload ([`SPAWNING`]) without real
/// scope spawns ([`SpawnKind::JoinEmulated`]: chili), each with the note that says so.
/// Their cells of those workloads are marked `†` in the summaries.
fn spawn_emulation(recs: &[&Record]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for r in recs {
        let Ok(kind) = r.scheduler.parse::<SchedulerKind>() else {
            continue;
        };
        if kind.spawn_kind() != SpawnKind::JoinEmulated
            || !SPAWNING.contains(&r.workload.as_str())
            || out.iter().any(|(s, _)| *s == r.scheduler)
        {
            continue;
        }
        let ws: Vec<&str> = SPAWNING
            .iter()
            .copied()
            .filter(|w| {
                recs.iter()
                    .any(|x| x.workload == *w && x.scheduler == r.scheduler)
            })
            .collect();
        out.push((
            r.scheduler.clone(),
            format!(
                "† {} has no spawn: in {} each spawn is emulated with a join whose offered side is the \
                 spawned task and whose first side is the rest of the scope (the tasks are pending, oldest \
                 first, while the body runs)",
                r.scheduler,
                ws.join(", "),
            ),
        ));
    }
    out
}

/// Workload × scheduler at `t` threads: median time and ×rayon; geometric means. Cells of
/// `spawn`'s schedulers on the spawning workloads are marked `†`.
fn summary(recs: &[&Record], order: &[String], t: usize, spawn: &[(String, String)]) -> Table {
    let mut header = vec!["workload".to_string()];
    header.extend(order.iter().map(|s| {
        if s == "serial" {
            "serial".to_string()
        } else {
            format!("{s}@{t}")
        }
    }));
    let mut tab = Table {
        title: format!("suite summary at {t} thread(s): median time (×rayon)"),
        header,
        ..Default::default()
    };
    let workloads = workload_order(&recs.iter().map(|r| (*r).clone()).collect::<Vec<_>>());
    let mut per_sched: Vec<Vec<f64>> = vec![Vec::new(); order.len()];
    let mut per_sched_speed: Vec<Vec<f64>> = vec![Vec::new(); order.len()];
    for w in &workloads {
        let mut row = vec![w.clone()];
        for (i, s) in order.iter().enumerate() {
            row.push(match cell(recs, w, s, t) {
                Some(r) if !r.verified => "FAILED".into(),
                Some(r) => match r.median_s {
                    Some(m) => {
                        if s != "serial" {
                            per_sched[i].extend(r.vs_rayon);
                            per_sched_speed[i].extend(r.speedup);
                        }
                        let mark = if SPAWNING.contains(&w.as_str())
                            && spawn.iter().any(|(x, _)| x == s)
                        {
                            " †"
                        } else {
                            ""
                        };
                        match (s.as_str(), r.vs_rayon) {
                            ("serial", _) | (_, None) => format!("{}{mark}", fmt_secs(m)),
                            (_, Some(v)) => format!("{} ({v:.2}){mark}", fmt_secs(m)),
                        }
                    }
                    None => "-".into(),
                },
                None => "-".into(),
            });
        }
        tab.row(row);
    }
    let mut g = vec!["geomean ×rayon".to_string()];
    g.extend(per_sched.iter().map(|v| fmt_ratio(geomean(v))));
    tab.row(g);
    let mut g = vec!["geomean speedup".to_string()];
    g.extend(per_sched_speed.iter().map(|v| fmt_ratio(geomean(v))));
    tab.row(g);
    tab.notes.push(
        "×rayon > 1: faster than rayon at the same thread count, measured in the same run; speedup: serial elision time / time."
            .into(),
    );
    tab.notes.extend(spawn.iter().map(|(_, n)| n.clone()));
    tab
}

/// The targets at `t` threads.
fn targets(recs: &[&Record], order: &[String], t: usize) -> Table {
    let mut tab = Table::new(
        format!("targets at {t} threads (in the report, not in tests)"),
        &["target", "measured", "status"],
    );
    let workloads = workload_order(&recs.iter().map(|r| (*r).clone()).collect::<Vec<_>>());
    let policies: Vec<&String> = order
        .iter()
        .filter(|s| !matches!(s.as_str(), "serial" | "rayon" | "chili"))
        .collect();
    // Geomean ×rayon per policy, over the workloads where it verified.
    let gm = |s: &str| {
        let v: Vec<f64> = workloads
            .iter()
            .filter_map(|w| cell(recs, w, s, t).and_then(|r| r.vs_rayon))
            .collect();
        geomean(&v)
    };
    let best = policies
        .iter()
        .filter_map(|p| gm(p).map(|g| (p.as_str(), g)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    match best {
        Some((p, g)) => tab.row(vec![
            "best policy ≥ 1.2× rayon (geomean)".into(),
            format!("{p}: {g:.2}×"),
            if g >= 1.2 { "PASS" } else { "FAIL" }.into(),
        ]),
        None => tab.row(vec![
            "best policy ≥ 1.2× rayon (geomean)".into(),
            format!("chili: {}×", fmt_ratio(gm("chili"))),
            "n/a (no policy ran)".into(),
        ]),
    }
    let chili_w: Vec<String> = registry()
        .iter()
        .filter(|s| s.group == Group::Chili)
        .map(|s| s.name.to_string())
        .filter(|w| workloads.contains(w))
        .collect();
    let vs_chili: Option<Vec<f64>> = best.and_then(|(p, _)| {
        chili_w
            .iter()
            .map(|w| {
                let c = cell(recs, w, "chili", t)?.median_s?;
                let m = cell(recs, w, p, t)?.median_s?;
                Some(c / m)
            })
            .collect()
    });
    match (best, vs_chili.as_deref().and_then(geomean)) {
        (Some((p, _)), Some(g)) => tab.row(vec![
            format!("best policy no slower than chili on {}", chili_w.join(", ")),
            format!("{p}: {g:.2}× chili"),
            if g >= 1.0 { "PASS" } else { "FAIL" }.into(),
        ]),
        _ => tab.row(vec![
            format!("best policy no slower than chili on {}", chili_w.join(", ")),
            "-".into(),
            "n/a".into(),
        ]),
    }
    let sig = "lcws-signal";
    let cl = "chase-lev";
    let pairs: Vec<(f64, f64)> = workloads
        .iter()
        .filter_map(|w| {
            Some((
                cell(recs, w, sig, t)?.median_s?,
                cell(recs, w, cl, t)?.median_s?,
            ))
        })
        .collect();
    if pairs.is_empty() {
        tab.row(vec![
            format!("{sig} ahead of {cl} on ≥ 65% of workloads"),
            "-".into(),
            "n/a".into(),
        ]);
    } else {
        let ahead = pairs.iter().filter(|(s, c)| s < c).count();
        let frac = ahead as f64 / pairs.len() as f64;
        tab.row(vec![
            format!("{sig} ahead of {cl} on ≥ 65% of workloads"),
            format!("{ahead}/{} ({:.0}%)", pairs.len(), 100.0 * frac),
            if frac >= 0.65 { "PASS" } else { "FAIL" }.into(),
        ]);
    }
    let failed = recs.iter().filter(|r| !r.verified).count();
    tab.row(vec![
        "every run verified".into(),
        format!("{failed} failed cell(s) of {}", recs.len()),
        if failed == 0 { "PASS" } else { "FAIL" }.into(),
    ]);
    tab
}

fn plots(env: &Env, out: &mut ModeOutput) {
    let recs: Vec<&Record> = out.records.iter().collect();
    let Some(t) = recs
        .iter()
        .filter(|r| r.scheduler != "serial")
        .map(|r| r.threads)
        .max()
    else {
        return;
    };
    let order = scheduler_order(&out.records);
    let workloads = workload_order(&out.records);
    let series =
        |f: fn(&Record) -> Option<f64>, skip: &[&str]| -> Vec<(String, Vec<Option<f64>>)> {
            order
                .iter()
                .filter(|s| !skip.contains(&s.as_str()))
                .map(|s| {
                    (
                        s.clone(),
                        workloads
                            .iter()
                            .map(|w| cell(&recs, w, s, t).and_then(f))
                            .collect(),
                    )
                })
                .collect()
        };
    let speed = Bars {
        title: format!("Speedup over the serial elision at {t} threads"),
        y_desc: "serial time / time".into(),
        categories: workloads.clone(),
        series: series(|r| r.speedup, &["serial"]),
        log_y: false,
        reference: Some(1.0),
    };
    env.plot(
        &mut out.plots,
        &mut out.notes,
        "suite-speedup.svg",
        &speed.title.clone(),
        |p| speed.draw(p),
    );
    let vs = Bars {
        title: format!("Time relative to rayon at {t} threads (> 1: faster than rayon)"),
        y_desc: "rayon time / time".into(),
        categories: workloads.clone(),
        series: series(|r| r.vs_rayon, &["serial", "rayon"]),
        log_y: true,
        reference: Some(1.0),
    };
    env.plot(
        &mut out.plots,
        &mut out.notes,
        "suite-vs-rayon.svg",
        &vs.title.clone(),
        |p| vs.draw(p),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(workload: &str, scheduler: &str, threads: usize, t: f64) -> Record {
        let mut r = Record::new("suite", workload, "p", scheduler, threads);
        r.set_times(vec![t]);
        r.verified = true;
        r
    }

    #[test]
    fn chili_cells_of_spawning_workloads_are_marked() {
        let mut recs = Vec::new();
        for w in ["fib", "spawnjoin", "listwalk"] {
            recs.push(rec(w, "serial", 1, 0.04));
            for s in ["lcws-signal", "rayon", "chili"] {
                recs.push(rec(w, s, 2, 0.02));
            }
        }
        fill_ratios(&mut recs);
        let tabs = tables(&recs);
        let summary = tabs
            .iter()
            .find(|t| t.title.starts_with("suite summary at 2"))
            .unwrap();
        let col = |name: &str| summary.header.iter().position(|h| h == name).unwrap();
        let row = |w: &str| summary.rows.iter().find(|r| r[0] == w).unwrap();
        assert!(row("spawnjoin")[col("chili@2")].ends_with('†'));
        assert!(!row("spawnjoin")[col("rayon@2")].contains('†'));
        assert!(!row("listwalk")[col("chili@2")].contains('†'));
        assert!(!row("fib")[col("chili@2")].contains('†'));
        assert!(
            summary
                .notes
                .iter()
                .any(|n| n.starts_with("† chili has no spawn: in spawnjoin each spawn")),
            "{:?}",
            summary.notes
        );
        let full = &tabs[0];
        assert!(full
            .rows
            .iter()
            .any(|r| r[0] == "spawnjoin" && r[1] == "chili †"));
        assert!(full.notes.iter().any(|n| n.starts_with('†')));
        // Every cell verified: the targets still compute with the shapes present.
        let targets = tabs.last().unwrap();
        assert!(targets
            .rows
            .iter()
            .any(|r| r[0] == "every run verified" && r[2] == "PASS"));
        // Without chili, no mark and no note.
        recs.retain(|r| r.scheduler != "chili");
        let tabs = tables(&recs);
        assert!(tabs
            .iter()
            .all(|t| t.notes.iter().all(|n| !n.starts_with('†'))));
    }
}

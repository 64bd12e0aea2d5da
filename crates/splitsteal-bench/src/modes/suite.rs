//! `suite`: every workload, every scheduler, 1 and 2 threads.

use std::time::Instant;

use crate::modes::{scheduler_order, workload_order, Env, ModeOutput};
use crate::plot::Bars;
use crate::report::{
    cells_line, fill_ratios, fmt_count, fmt_ratio, fmt_secs, geomean, ratio_range, Record, Table,
    TableRole, Tally, Versus,
};
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
        let line = cells_line(&recs);
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
        "suite: median time per scheduler (min–max), speedup over serial, ×rayon = this time ÷ rayon's (same run; below 1: faster), splitsteal Stats",
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
    full.role = TableRole::Raw;
    let mut out = vec![full];
    let mut threads: Vec<usize> = recs
        .iter()
        .filter(|r| r.scheduler != "serial")
        .map(|r| r.threads)
        .collect();
    threads.sort_unstable();
    threads.dedup();
    if let Some(&t) = threads.last() {
        out.extend(headline(&recs, &order, t));
    }
    for &t in &threads {
        out.push(summary(&recs, &order, t, &spawn));
    }
    if let Some(&t) = threads.last() {
        out.push(targets(&recs, &order, t).with_role(TableRole::Targets));
    }
    out
}

/// The splitsteal policies among `order` (every scheduler but serial, rayon and chili).
fn policies_of(order: &[String]) -> Vec<&String> {
    order
        .iter()
        .filter(|s| !matches!(s.as_str(), "serial" | "rayon" | "chili"))
        .collect()
}

/// `best`'s time / `rival`'s time on medians (below 1: `best` faster), marked `(tie)` when the two cells' min–max
/// ranges overlap, so that a reader does not take a difference within the run-to-run
/// spread for a result.
fn versus_cell(best: &Record, rival: Option<&Record>) -> (String, Option<f64>) {
    let Some(r) = rival else {
        return ("-".into(), None);
    };
    if !r.verified {
        return ("FAILED".into(), None);
    }
    match (r.median_s, best.median_s) {
        (Some(a), Some(b)) if a > 0.0 => {
            let tie = Versus::of_records(best, r) == Some(Versus::Tie);
            let x = b / a;
            (
                format!("{x:.2}×{}", if tie { " (tie)" } else { "" }),
                Some(x),
            )
        }
        _ => ("-".into(), None),
    }
}

/// The headline at `t` threads: per workload, the fastest splitsteal policy (lowest median
/// among verified cells) and its time, rayon's and chili's times, and ×rayon, ×chili
/// (the policy's time ÷ theirs: below 1 is splitsteal faster). Columns of a scheduler that was
/// not run are left out, with a note saying so. `None` if no policy ran.
fn headline(recs: &[&Record], order: &[String], t: usize) -> Option<Table> {
    let policies = policies_of(order);
    if policies.is_empty() {
        return None;
    }
    let rivals: Vec<&str> = ["rayon", "chili"]
        .into_iter()
        .filter(|s| order.iter().any(|o| o == s))
        .collect();
    let mut header = vec!["workload", "best splitsteal policy", "its time"];
    header.extend(rivals.iter().copied());
    let ratio_names: Vec<String> = rivals.iter().map(|r| format!("×{r}")).collect();
    header.extend(ratio_names.iter().map(String::as_str));
    let mut tab = Table::new(
        format!("Headline at {t} threads: the fastest splitsteal policy per workload against rayon and chili"),
        &header,
    )
    .with_role(TableRole::Headline);
    let workloads = workload_order(&recs.iter().map(|r| (*r).clone()).collect::<Vec<_>>());
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); rivals.len()];
    for w in &workloads {
        let best = policies
            .iter()
            .filter_map(|p| cell(recs, w, p, t))
            .filter(|r| r.verified && r.median_s.is_some())
            .min_by(|a, b| {
                a.median_s
                    .unwrap_or(f64::MAX)
                    .total_cmp(&b.median_s.unwrap_or(f64::MAX))
            });
        let mut row = vec![w.clone()];
        match best {
            Some(b) => {
                row.push(b.scheduler.clone());
                row.push(fmt_secs(b.median_s.unwrap_or(f64::NAN)));
                let mut xs = Vec::new();
                for (i, rv) in rivals.iter().enumerate() {
                    let rc = cell(recs, w, rv, t);
                    row.push(match rc {
                        Some(r) if !r.verified => "FAILED".into(),
                        Some(r) => r.median_s.map(fmt_secs).unwrap_or_else(|| "-".into()),
                        None => "-".into(),
                    });
                    let (text, x) = versus_cell(b, rc);
                    ratios[i].extend(x);
                    xs.push(text);
                }
                row.extend(xs);
            }
            None => {
                row.push("FAILED (no policy verified)".into());
                row.extend(std::iter::repeat_n("-".to_string(), 1 + 2 * rivals.len()));
            }
        }
        tab.row(row);
    }
    if !rivals.is_empty() {
        let mut g = vec!["geomean".to_string(), String::new(), String::new()];
        g.extend(rivals.iter().map(|_| String::new()));
        g.extend(ratios.iter().map(|v| {
            geomean(v)
                .map(|x| format!("{x:.2}×"))
                .unwrap_or_else(|| "-".into())
        }));
        tab.row(g);
    }
    if !rivals.is_empty() {
        tab.notes.push(
            "×rayon, ×chili: the best policy's median time ÷ theirs (below 1: splitsteal faster). (tie): the two cells' \
             min–max ranges over the repetitions overlap, so the difference is within the run-to-run spread."
                .into(),
        );
    }
    for s in ["rayon", "chili"] {
        if !rivals.contains(&s) {
            tab.notes
                .push(format!("{s} was not run (--policy), so it has no column."));
        }
    }
    Some(tab)
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
        "×rayon: this time ÷ rayon's at the same thread count, measured in the same run (below 1: faster than rayon); speedup: serial elision time ÷ time."
            .into(),
    );
    tab.notes.extend(spawn.iter().map(|(_, n)| n.clone()));
    tab
}

/// The suite's performance targets at `t` threads: goals the project sets itself, judged
/// "met" or "missed" (never a test failure), and the one correctness check, "every run
/// verified", PASS or FAILED.
///
/// Every comparison also says whether it is beyond the run-to-run spread ([`Versus`]: two
/// cells whose min–max ranges overlap are a tie). The "lcws-signal ahead of chase-lev"
/// target counts only wins beyond the spread; the ×rayon and ×chili targets keep their
/// median-based pass/fail and say whether the difference is within the spread.
fn targets(recs: &[&Record], order: &[String], t: usize) -> Table {
    let mut tab = Table::new(
        format!("targets at {t} threads: the project's performance goals (met or missed), and verification"),
        &["target", "measured", "status"],
    );
    let workloads = workload_order(&recs.iter().map(|r| (*r).clone()).collect::<Vec<_>>());
    let policies = policies_of(order);
    let ran = |s: &str| order.iter().any(|o| o == s);
    // Geomean ×rayon per policy (time ÷ rayon's), over the workloads where it verified.
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
        .min_by(|a, b| a.1.total_cmp(&b.1));
    match best {
        Some((p, g)) => {
            // The same geomean from the repetitions' extremes, and per workload whether
            // the policy is faster than rayon beyond the spread.
            let mut lo = Vec::new();
            let mut hi = Vec::new();
            let mut tally = Tally::default();
            for w in &workloads {
                let (Some(pr), Some(rr)) = (cell(recs, w, p, t), cell(recs, w, "rayon", t)) else {
                    continue;
                };
                if pr.vs_rayon.is_none() {
                    continue;
                }
                if let Some((a, b)) = ratio_range(pr, rr) {
                    lo.push(a);
                    hi.push(b);
                }
                tally.extend(Versus::of_records(pr, rr));
            }
            let spread = match (geomean(&lo), geomean(&hi)) {
                (Some(a), Some(b)) => format!(
                    "; spread {a:.2}–{b:.2}×{}",
                    if (a..=b).contains(&RAYON_TARGET) {
                        ", the target within it"
                    } else {
                        ""
                    }
                ),
                _ => String::new(),
            };
            tab.row(vec![
                RAYON_TARGET_NAME.into(),
                format!(
                    "{p}: {g:.2}×{spread}; per workload vs rayon: {} of {}",
                    tally.describe(),
                    tally.total()
                ),
                met(g <= RAYON_TARGET).into(),
            ])
        }
        None => tab.row(vec![
            RAYON_TARGET_NAME.into(),
            if !ran("rayon") {
                "n/a: rayon not run".into()
            } else if policies.is_empty() {
                "n/a: no splitsteal policy run".into()
            } else {
                "n/a: no policy cell verified with a rayon cell beside it".into()
            },
            "n/a".into(),
        ]),
    }
    let chili_w: Vec<String> = registry()
        .iter()
        .filter(|s| s.group == Group::Chili)
        .map(|s| s.name.to_string())
        .filter(|w| workloads.contains(w))
        .collect();
    // Per chili workload: (best / chili) on medians, its range over the repetitions, and
    // the comparison beyond the spread.
    type VsChili = (f64, Option<(f64, f64)>, Option<Versus>);
    let vs_chili: Option<Vec<VsChili>> = best.and_then(|(p, _)| {
        chili_w
            .iter()
            .map(|w| {
                let c = cell(recs, w, "chili", t)?;
                let m = cell(recs, w, p, t)?;
                Some((
                    m.median_s? / c.median_s?,
                    ratio_range(m, c),
                    Versus::of_records(m, c),
                ))
            })
            .collect()
    });
    let chili_target = if chili_w.is_empty() {
        "best policy no slower than chili on chili's workloads (none selected)".to_string()
    } else {
        format!("best policy no slower than chili on {}", chili_w.join(", "))
    };
    match (best, vs_chili) {
        (Some((p, _)), Some(v)) if !v.is_empty() => {
            let g = geomean(&v.iter().map(|x| x.0).collect::<Vec<_>>()).unwrap_or(f64::NAN);
            let ranges: Option<Vec<(f64, f64)>> = v.iter().map(|x| x.1).collect();
            let mut tally = Tally::default();
            for x in &v {
                tally.extend(x.2);
            }
            let spread = match ranges {
                Some(r) => {
                    let a = geomean(&r.iter().map(|x| x.0).collect::<Vec<_>>());
                    let b = geomean(&r.iter().map(|x| x.1).collect::<Vec<_>>());
                    match (a, b) {
                        (Some(a), Some(b)) => format!(
                            "; spread {a:.2}–{b:.2}×, {}",
                            if tally.ties == tally.total() {
                                "the difference is within the spread (a tie)".to_string()
                            } else if tally.total() == 1 {
                                "the difference is beyond the spread".to_string()
                            } else {
                                format!("per workload: {}", tally.describe())
                            }
                        ),
                        _ => String::new(),
                    }
                }
                None => String::new(),
            };
            tab.row(vec![
                chili_target,
                format!("{p}: {g:.2}× chili's time{spread}"),
                met(g <= 1.0).into(),
            ])
        }
        _ => {
            let why = if !ran("chili") {
                "n/a: chili not run"
            } else if chili_w.is_empty() {
                "n/a: no chili workload run"
            } else if !ran("rayon") {
                "n/a: rayon not run (the best policy is the one with the best ×rayon)"
            } else {
                "n/a: a chili or policy cell failed"
            };
            tab.row(vec![chili_target, why.into(), "n/a".into()])
        }
    }
    let sig = "lcws-signal";
    let cl = "chase-lev";
    let target = format!("{sig} ahead of {cl} on ≥ 65% of workloads (wins beyond the min–max spread; overlap is a tie)");
    let mut tally = Tally::default();
    for w in &workloads {
        if let (Some(s), Some(c)) = (cell(recs, w, sig, t), cell(recs, w, cl, t)) {
            tally.extend(Versus::of_records(s, c));
        }
    }
    let missing: Vec<&str> = [sig, cl].into_iter().filter(|s| !ran(s)).collect();
    match tally.win_share() {
        None if !missing.is_empty() => tab.row(vec![
            target,
            format!("n/a: {} not run", missing.join(" and ")),
            "n/a".into(),
        ]),
        None => tab.row(vec![target, "-".into(), "n/a".into()]),
        Some(frac) => tab.row(vec![
            target,
            format!(
                "{} of {} → {:.0}%",
                tally.describe(),
                tally.total(),
                100.0 * frac
            ),
            met(frac >= 0.65).into(),
        ]),
    }
    let failed = recs.iter().filter(|r| !r.verified).count();
    tab.row(vec![
        "every run verified".into(),
        format!("{failed} failed cell(s) of {}", recs.len()),
        if failed == 0 { "PASS" } else { "FAILED" }.into(),
    ]);
    tab.notes.push(
        "The first three rows are the project's performance goals, not tests: \"missed\" means this run on this \
         machine did not reach the goal, nothing is broken. Only \"every run verified\" checks correctness: FAILED \
         there means some scheduler computed a wrong result."
            .into(),
    );
    tab.notes.push(format!(
        "{RAYON_TARGET_NAME}: the fastest splitsteal policy should take at most 1/1.2 of rayon's time, as a \
         geometric mean over the workloads (×rayon = time ÷ rayon's time, below 1 is faster)."
    ));
    tab.notes.push(
        "no slower than chili: on chili's own benchmarks, that policy's time ÷ chili's should be at most 1 (geomean)."
            .into(),
    );
    tab.notes.push(
        "lcws-signal ahead of chase-lev: the signal-based LCWS policy (the papers' subject) should beat the classic \
         Chase–Lev deque beyond the run-to-run spread on at least 65% of the workloads."
            .into(),
    );
    tab.notes.push(
        "Spread: a comparison is a win or a loss only when the two cells' min–max ranges over the repetitions do not overlap; \
         otherwise it is a tie. A geomean's spread is the same geomean taken over each workload's extreme ratios."
            .into(),
    );
    tab
}

/// The ×rayon goal of the fastest policy: 1.2 times rayon's speed, i.e. at most 1/1.2 of
/// its time (geomean).
const RAYON_TARGET: f64 = 1.0 / 1.2;

/// The ×rayon target's name in the targets table.
const RAYON_TARGET_NAME: &str = "best policy ≤ 0.83 ×rayon, i.e. 1.2× rayon's speed (geomean)";

/// A performance target's status: goals are met or missed, never failed.
fn met(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "missed"
    }
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
        title: format!("Time ÷ rayon's time at {t} threads (×rayon; below 1: faster than rayon)"),
        y_desc: "time / rayon's time".into(),
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

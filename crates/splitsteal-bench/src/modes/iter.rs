//! `iter`: rayon-style parallel-iterator programs, the same source compiled
//! against `splitsteal::prelude` and `rayon::prelude` ([`crate::par_iter`]), at 1 and 2
//! threads; per program the time ratio splitsteal ÷ rayon (×rayon), and its geometric mean.
//!
//! The splitsteal side runs on a pool with splitsteal's default policy
//! ([`Policy::default`], `asym`) unless `--policy` names policies; serial and chili
//! have no parallel iterators and are skipped. The method is the suite's
//! ([`crate::runner::measure`]): a verified warm-up round, then `--reps` rounds, each running
//! every (library, threads) cell once in a rotated order; every output is compared with a
//! serial reference, and a wrong one marks the cell FAILED (and the bench's exit status).

use std::time::Instant;

use splitsteal::Policy;

use crate::modes::{Env, ModeOutput};
use crate::plot::Bars;
use crate::report::{
    cells_line, fill_ratios, fmt_ratio, fmt_secs, geomean, ratio_range, Record, Table, TableRole,
    Tally, Versus,
};
use crate::runner::{build_pools, cells, measure, Reps};
use crate::sched::SchedulerKind;
use crate::workloads::{Group, WorkloadSpec};

/// Default repetitions (test, quick, full): more than the suite's, as the runs are short
/// (about 2–60 ms) and the ratios of two close times need steady medians.
pub const REPS: (usize, usize, usize) = (1, 6, 7);

/// The experiment name in the records.
pub const EXPERIMENT: &str = "iter";

/// The programs selected: `--workload` names among [`crate::par_iter::programs`], or all.
pub fn programs(env: &Env) -> Vec<WorkloadSpec> {
    let all = crate::par_iter::programs();
    match &env.workloads {
        Some(sel) => all
            .into_iter()
            .filter(|s| sel.iter().any(|n| n.eq_ignore_ascii_case(s.name)))
            .collect(),
        None => all,
    }
}

/// The schedulers of the section: the splitsteal policies `--policy` selected, or only the
/// default policy when `--policy` did not narrow them down; and rayon, if selected.
pub fn kinds(env: &Env) -> Vec<SchedulerKind> {
    let policies: Vec<SchedulerKind> = env
        .kinds
        .iter()
        .copied()
        .filter(|k| matches!(k, SchedulerKind::Splitsteal(_)))
        .collect();
    let mut v = if policies.len() == Policy::ALL.len() {
        vec![SchedulerKind::Splitsteal(Policy::default())]
    } else {
        policies
    };
    if env.kinds.contains(&SchedulerKind::Rayon) {
        v.push(SchedulerKind::Rayon);
    }
    v
}

/// Runs planned by [`run`].
pub fn planned_runs(env: &Env) -> u64 {
    let c = cells(&kinds(env), &env.threads_or(&[1, 2])).len();
    let reps = env.reps_or(REPS.0, REPS.1, REPS.2) + env.warmup;
    (programs(env).len() * c * reps) as u64
}

/// Runs the section.
pub fn run(env: &Env) -> ModeOutput {
    let cs = cells(&kinds(env), &env.threads_or(&[1, 2]));
    let pools = build_pools(&cs, env.pool_options);
    let reps = Reps {
        warmup: env.warmup,
        reps: env.reps_or(REPS.0, REPS.1, REPS.2),
    };
    let mut records = Vec::new();
    for spec in programs(env) {
        let params = (spec.params)(env.size);
        env.progress.msg(format!("{}: generating input", spec.name));
        let t = Instant::now();
        let w = (spec.build)(env.size, env.seed);
        let setup = t.elapsed();
        let mut recs = measure(
            EXPERIMENT,
            spec.name,
            &params,
            &*w,
            &pools,
            reps,
            &env.progress,
            &env.watchdog,
        );
        drop(w);
        fill_ratios(&mut recs);
        let line = cells_line(&recs);
        env.progress.println(format!(
            "{:<24} ({params}; setup {}): {line}",
            spec.name,
            fmt_secs(setup.as_secs_f64())
        ));
        env.save_partial(&recs);
        records.extend(recs);
    }
    fill_ratios(&mut records);
    let policies: Vec<&str> = kinds(env)
        .iter()
        .filter(|k| k.has_stats())
        .map(|k| k.name())
        .collect();
    let notes = vec![format!(
        "The same program text runs on both libraries: compiled once under `use rayon::{{join, prelude::*}};` and once \
         under `use splitsteal::{{join, prelude::*}};` (crate::par_iter; the port programs are the port_from_rayon \
         example's source). splitsteal side: policy {} ({}); rayon 1.x side: a rayon ThreadPool. \
         Both entered with install, timed around the call. Warm-up {} + reps {} per cell.",
        policies.join(", "),
        if policies == [Policy::default().name()] {
            "splitsteal's default policy"
        } else {
            "selected with --policy"
        },
        reps.warmup,
        reps.reps,
    )];
    let mut out = ModeOutput {
        tables: tables(&records),
        records,
        notes,
        ..Default::default()
    };
    plots(env, &mut out);
    out
}

/// The splitsteal schedulers among `recs`, in first-appearance order.
fn splitsteal_names(recs: &[&Record]) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in recs {
        let is_policy = r
            .scheduler
            .parse::<SchedulerKind>()
            .is_ok_and(|k| k.has_stats());
        if is_policy && !v.contains(&r.scheduler) {
            v.push(r.scheduler.clone());
        }
    }
    v
}

fn cell<'a>(recs: &[&'a Record], w: &str, s: &str, t: usize) -> Option<&'a Record> {
    recs.iter()
        .copied()
        .find(|r| r.workload == w && r.scheduler == s && r.threads == t)
}

/// splitsteal's median / rayon's median for one program (< 1: splitsteal faster).
fn ratio(recs: &[&Record], w: &str, s: &str, t: usize) -> Option<f64> {
    let p = cell(recs, w, s, t)?;
    let r = cell(recs, w, "rayon", t)?;
    Some(p.median_s? / r.median_s?).filter(|x| x.is_finite() && *x > 0.0)
}

/// The section's tables: every cell, and the ratio summary with geometric means.
pub fn tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records
        .iter()
        .filter(|r| r.experiment == EXPERIMENT)
        .collect();
    if recs.is_empty() {
        return Vec::new();
    }
    let order: Vec<String> = {
        let mut v = splitsteal_names(&recs);
        if recs.iter().any(|r| r.scheduler == "rayon") {
            v.push("rayon".into());
        }
        v
    };
    let mut names: Vec<String> = Vec::new();
    for r in &recs {
        if !names.contains(&r.workload) {
            names.push(r.workload.clone());
        }
    }
    let mut threads: Vec<usize> = recs.iter().map(|r| r.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    let policies = splitsteal_names(&recs);

    let mut full = Table::new(
        "iter: median time per library (min–max); ×rayon = this time ÷ rayon's time at the same thread count (below 1: faster than rayon)",
        &["program", "input", "scheduler", "thr", "median", "min", "max", "×rayon", "×rayon spread"],
    );
    for w in &names {
        let mut rows: Vec<&&Record> = recs.iter().filter(|r| &r.workload == w).collect();
        rows.sort_by_key(|r| (r.threads, order.iter().position(|n| *n == r.scheduler)));
        for r in rows {
            let (med, lo, hi) = match (r.median_s, r.min_s, r.max_s) {
                (Some(m), Some(a), Some(b)) => (fmt_secs(m), fmt_secs(a), fmt_secs(b)),
                _ if !r.verified => ("FAILED".into(), "-".into(), "-".into()),
                _ => ("-".into(), "-".into(), "-".into()),
            };
            let rayon = cell(&recs, w, "rayon", r.threads);
            let (q, spread) = if r.scheduler == "rayon" {
                ("-".to_string(), "-".to_string())
            } else {
                (
                    fmt_ratio(ratio(&recs, w, &r.scheduler, r.threads)),
                    rayon
                        .and_then(|ry| ratio_range(r, ry))
                        .map(|(a, b)| format!("{a:.2}–{b:.2}"))
                        .unwrap_or_else(|| "-".into()),
                )
            };
            full.row(vec![
                w.clone(),
                r.params.clone(),
                r.scheduler.clone(),
                r.threads.to_string(),
                med,
                lo,
                hi,
                q,
                spread,
            ]);
        }
    }
    full.role = TableRole::Raw;
    for r in recs.iter().filter(|r| !r.verified) {
        full.notes.push(format!(
            "FAILED: {} on {}@{}: {}",
            r.workload,
            r.scheduler,
            r.threads,
            r.error.as_deref().unwrap_or("?")
        ));
    }

    let mut header = vec!["program".to_string(), "group".to_string()];
    for &t in &threads {
        header.push(format!("rayon@{t}"));
        for p in &policies {
            header.push(format!("{p}@{t}"));
            header.push(format!("{p}×rayon@{t}"));
        }
    }
    let mut summary = Table {
        title: "iter summary: median time per library and ×rayon = splitsteal's time ÷ rayon's (below 1: splitsteal faster), with geometric means"
            .into(),
        header,
        ..Default::default()
    };
    let group_of = |w: &str| {
        crate::par_iter::programs()
            .into_iter()
            .find(|s| s.name == w)
            .map(|s| s.group)
    };
    let time = |w: &str, s: &str, t: usize| match cell(&recs, w, s, t) {
        Some(r) if !r.verified => "FAILED".to_string(),
        Some(r) => r.median_s.map(fmt_secs).unwrap_or_else(|| "-".into()),
        None => "-".into(),
    };
    for w in &names {
        let mut row = vec![
            w.clone(),
            group_of(w).map(|g| g.label()).unwrap_or("-").to_string(),
        ];
        for &t in &threads {
            row.push(time(w, "rayon", t));
            for p in &policies {
                row.push(time(w, p, t));
                row.push(fmt_ratio(ratio(&recs, w, p, t)));
            }
        }
        summary.row(row);
    }
    let mut groups: Vec<(String, Option<Group>)> = vec![("geomean ×rayon (all)".into(), None)];
    for g in GROUPS {
        groups.push((format!("geomean ×rayon ({})", g.label()), Some(g)));
    }
    for (label, group) in groups {
        let members: Vec<&String> = names
            .iter()
            .filter(|w| group.is_none() || group_of(w) == group)
            .collect();
        if members.is_empty() {
            continue;
        }
        let mut row = vec![label, format!("{} programs", members.len())];
        for &t in &threads {
            row.push(String::new());
            for p in &policies {
                let v: Vec<f64> = members
                    .iter()
                    .filter_map(|w| ratio(&recs, w, p, t))
                    .collect();
                row.push(String::new());
                row.push(fmt_ratio(geomean(&v)));
            }
        }
        summary.row(row);
    }
    for &t in &threads {
        for p in &policies {
            let mut tally = Tally::default();
            for w in &names {
                if let (Some(a), Some(b)) = (cell(&recs, w, p, t), cell(&recs, w, "rayon", t)) {
                    tally.extend(Versus::of_records(a, b));
                }
            }
            if tally.total() > 0 {
                summary.notes.push(format!(
                    "{p}@{t} against rayon@{t}, beyond the min–max spread of the repetitions: {} of {}.",
                    tally.describe(),
                    tally.total()
                ));
            }
        }
    }
    let failed = recs.iter().filter(|r| !r.verified).count();
    summary.notes.push(if failed == 0 {
        format!(
            "Every run verified against its serial reference ({} cells).",
            recs.len()
        )
    } else {
        format!(
            "{failed} of {} cells FAILED verification (see the table above).",
            recs.len()
        )
    });
    let slower = slower_than_rayon(&recs, &names, &threads, &policies, &group_of);
    let head = headline(&recs, &names, &threads, &policies);
    vec![full, summary, slower, head]
}

/// The section's line in the report's summary: per policy and thread count, the geometric
/// mean of ×rayon over the programs, its spread, and the programs slower than rayon beyond
/// the spread.
fn headline(recs: &[&Record], names: &[String], threads: &[usize], policies: &[String]) -> Table {
    let mut t = Table::new(
        "Parallel iterators against rayon: ×rayon = splitsteal's time ÷ rayon's, geometric mean over the programs",
        &["library", "thr", "geomean ×rayon", "spread", "programs", "slower than rayon beyond the spread"],
    )
    .with_role(TableRole::Headline);
    for &th in threads {
        for p in policies {
            let (mut v, mut lo, mut hi) = (Vec::new(), Vec::new(), Vec::new());
            let mut slower: Vec<(f64, &str)> = Vec::new();
            for w in names {
                let (Some(a), Some(b)) = (cell(recs, w, p, th), cell(recs, w, "rayon", th)) else {
                    continue;
                };
                let Some(q) = ratio(recs, w, p, th) else {
                    continue;
                };
                v.push(q);
                if let Some((x, y)) = ratio_range(a, b) {
                    lo.push(x);
                    hi.push(y);
                }
                if Versus::of_records(a, b) == Some(Versus::Loss) {
                    slower.push((q, w.as_str()));
                }
            }
            if v.is_empty() {
                continue;
            }
            slower.sort_by(|x, y| y.0.total_cmp(&x.0));
            let listed: Vec<String> = slower
                .iter()
                .map(|(q, w)| format!("{w} ({q:.2})"))
                .collect();
            t.row(vec![
                p.clone(),
                th.to_string(),
                fmt_ratio(geomean(&v)),
                match (geomean(&lo), geomean(&hi)) {
                    (Some(a), Some(b)) => format!("{a:.2}–{b:.2}"),
                    _ => "-".into(),
                },
                v.len().to_string(),
                if listed.is_empty() {
                    "none".into()
                } else {
                    format!("{}: {}", listed.len(), listed.join(", "))
                },
            ]);
        }
    }
    t.notes.push(
        "Below 1: splitsteal faster than rayon at the same thread count, same run. Spread: the same geomean over each \
         program's extreme ratios (slowest ÷ fastest repetitions)."
            .into(),
    );
    t
}

/// The groups of the section in report order (each gets a geometric-mean row).
const GROUPS: [Group; 6] = [
    Group::ParIterFine,
    Group::ParIterPort,
    Group::ParIterSource,
    Group::ParIterAdaptor,
    Group::ParIterConsumer,
    Group::ParIterSort,
];

/// Every (program, policy, thread count) cell slower than rayon's at the same thread count
/// beyond the run-to-run spread (the min–max ranges do not overlap: [`Versus::Loss`]),
/// listed per thread count, slowest ratio first; a note per thread count names them or
/// says there are none.
fn slower_than_rayon(
    recs: &[&Record],
    names: &[String],
    threads: &[usize],
    policies: &[String],
    group_of: &dyn Fn(&str) -> Option<Group>,
) -> Table {
    let mut t = Table::new(
        "iter: SLOWER THAN RAYON beyond the run-to-run spread (splitsteal's slowest-to-fastest range entirely above rayon's), per thread count",
        &["thr", "program", "group", "scheduler", "median", "rayon median", "×rayon", "×rayon spread"],
    );
    for &th in threads {
        for p in policies {
            let mut losses: Vec<(f64, &Record, &Record)> = names
                .iter()
                .filter_map(|w| {
                    let (a, b) = (cell(recs, w, p, th)?, cell(recs, w, "rayon", th)?);
                    (Versus::of_records(a, b)? == Versus::Loss)
                        .then(|| Some((ratio(recs, w, p, th)?, a, b)))
                        .flatten()
                })
                .collect();
            losses.sort_by(|x, y| y.0.total_cmp(&x.0));
            let listed: Vec<String> = losses
                .iter()
                .map(|(q, a, _)| format!("{} ({q:.2})", a.workload))
                .collect();
            t.notes.push(format!(
                "{p}@{th}: {} of {} programs slower than rayon@{th} beyond the spread{}",
                losses.len(),
                names.len(),
                if listed.is_empty() {
                    ".".to_string()
                } else {
                    format!(": {}.", listed.join(", "))
                }
            ));
            for (q, a, b) in losses {
                t.row(vec![
                    th.to_string(),
                    a.workload.clone(),
                    group_of(&a.workload)
                        .map(|g| g.label())
                        .unwrap_or("-")
                        .to_string(),
                    p.clone(),
                    a.median_s.map(fmt_secs).unwrap_or_else(|| "-".into()),
                    b.median_s.map(fmt_secs).unwrap_or_else(|| "-".into()),
                    fmt_ratio(Some(q)),
                    ratio_range(a, b)
                        .map(|(lo, hi)| format!("{lo:.2}–{hi:.2}"))
                        .unwrap_or_else(|| "-".into()),
                ]);
            }
        }
    }
    t
}

fn plots(env: &Env, out: &mut ModeOutput) {
    let recs: Vec<&Record> = out.records.iter().collect();
    let policies = splitsteal_names(&recs);
    let mut names: Vec<String> = Vec::new();
    for r in &recs {
        if !names.contains(&r.workload) {
            names.push(r.workload.clone());
        }
    }
    let mut threads: Vec<usize> = recs.iter().map(|r| r.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    let mut series = Vec::new();
    for &t in &threads {
        for p in &policies {
            series.push((
                format!("{p}@{t}"),
                names.iter().map(|w| ratio(&recs, w, p, t)).collect(),
            ));
        }
    }
    if series.is_empty() {
        return;
    }
    let bars = Bars {
        title:
            "Parallel iterators: splitsteal's time ÷ rayon's (×rayon; below 1: splitsteal faster)"
                .into(),
        y_desc: "time / rayon's time".into(),
        categories: names,
        series,
        log_y: true,
        reference: Some(1.0),
    };
    env.plot(
        &mut out.plots,
        &mut out.notes,
        "iter-vs-rayon.svg",
        &bars.title.clone(),
        |p| bars.draw(p),
    );
}

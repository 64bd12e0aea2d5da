//! `latency`: the start-latency experiment (low-latency thesis, §4.2.2).
//!
//! An origin task spawns N tasks (N = 2, 8, 32, 128) on P = 2 workers, 100 runs per
//! scheduler, interleaved. Reported per scheduler and N: the distribution (median, p90,
//! max) of the start delay of the first task to start on a worker other than the origin's,
//! and of the last task to start. See [`crate::workloads::latency`] for the task shape.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use crate::modes::{scheduler_order, Env, ModeOutput};
use crate::plot::{Lines, Series};
use crate::report::{quantile_sorted, sorted, Record, Table};
use crate::runner::{build_pools, cells};
use crate::sched::Workload;
use crate::workloads::latency::{summarize, StartLatency, TASK_SPIN};
use crate::workloads::{panic_message, Size};

/// Task counts.
pub fn task_counts(size: Size) -> Vec<usize> {
    match size {
        Size::Test => vec![2, 8],
        _ => vec![2, 8, 32, 128],
    }
}

/// Default runs per (N, scheduler) (test, quick, full).
pub const RUNS: (usize, usize, usize) = (3, 100, 100);

/// Runs planned by [`run`].
pub fn planned_runs(env: &Env) -> u64 {
    let c = cells(&env.parallel_kinds(), &env.threads_or(&[2])).len();
    (task_counts(env.size).len() * c * (env.reps_or(RUNS.0, RUNS.1, RUNS.2) + env.warmup)) as u64
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Runs the experiment.
pub fn run(env: &Env) -> ModeOutput {
    let cs = cells(&env.parallel_kinds(), &env.threads_or(&[2]));
    // splitsteal pools also record starts with the runtime's recorder, as a cross-check of
    // the in-workload clock reads.
    let mut opts = env.pool_options;
    opts.record_start_latency = true;
    let pools = build_pools(&cs, opts);
    let runs = env.reps_or(RUNS.0, RUNS.1, RUNS.2);
    let mut records = Vec::new();
    for n in task_counts(env.size) {
        let w = StartLatency { n };
        let mut first: Vec<Vec<f64>> = vec![Vec::new(); pools.len()];
        let mut last: Vec<Vec<f64>> = vec![Vec::new(); pools.len()];
        let mut other: Vec<usize> = vec![0; pools.len()];
        let mut rt_first: Vec<Vec<f64>> = vec![Vec::new(); pools.len()];
        let mut rt_last: Vec<Vec<f64>> = vec![Vec::new(); pools.len()];
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); pools.len()];
        let mut errors: Vec<Option<String>> = pools
            .iter()
            .map(|(_, p)| p.as_ref().err().cloned())
            .collect();
        for round in 0..env.warmup + runs {
            for k in 0..pools.len() {
                let i = (k + round) % pools.len();
                env.progress.inc();
                let (cell, Ok(s)) = &pools[i] else { continue };
                if errors[i].is_some() {
                    continue;
                }
                let label = format!("spawn-{n} on {}@{}", cell.kind, cell.threads);
                env.progress.msg(label.clone());
                env.watchdog.begin(label);
                let input = w.input();
                let _ = s.take_start_latencies(); // drop anything recorded before this run
                let res = catch_unwind(AssertUnwindSafe(|| s.run(&w, input)));
                env.watchdog.end();
                let rt = s.take_start_latencies();
                let t = match res {
                    Ok(t) => t,
                    Err(p) => {
                        errors[i] = Some(format!("panicked: {}", panic_message(&*p)));
                        continue;
                    }
                };
                let sample = summarize(&t.output);
                if let Err(e) = sample.exactly_once {
                    env.progress.println(format!(
                        "FAILED: spawn-{n} on {}@{}: {e}",
                        cell.kind, cell.threads
                    ));
                    errors[i] = Some(e);
                    continue;
                }
                if round >= env.warmup {
                    times[i].push(t.time.as_secs_f64());
                    last[i].push(us(sample.last));
                    if let Some(f) = sample.first_other {
                        first[i].push(us(f));
                        other[i] += 1;
                    }
                    if let Some(rt) = rt {
                        if let Some(f) = rt.first_on_other_worker() {
                            rt_first[i].push(us(f.since_origin));
                        }
                        if let Some(l) = rt.last() {
                            rt_last[i].push(us(l.since_origin));
                        }
                    }
                }
            }
        }
        for (i, (cell, _)) in pools.iter().enumerate() {
            let mut r = Record::new(
                "latency",
                &format!("spawn-{n}"),
                &format!("{n} tasks of {} µs", TASK_SPIN.as_micros()),
                cell.kind.name(),
                cell.threads,
            );
            r.verified = errors[i].is_none();
            r.error = errors[i].take();
            if r.verified {
                r.set_times(std::mem::take(&mut times[i]));
                let f = sorted(&first[i]);
                let l = sorted(&last[i]);
                r.extra.insert("n".into(), n as f64);
                r.extra.insert("runs_with_other".into(), other[i] as f64);
                let rf = sorted(&rt_first[i]);
                let rl = sorted(&rt_last[i]);
                if !rl.is_empty() {
                    r.extra.insert("rt_runs_with_other".into(), rf.len() as f64);
                }
                for (name, s) in [
                    ("first_other", &f),
                    ("last", &l),
                    ("rt_first_other", &rf),
                    ("rt_last", &rl),
                ] {
                    if !s.is_empty() {
                        r.extra
                            .insert(format!("{name}_p50_us"), quantile_sorted(s, 0.5));
                        r.extra
                            .insert(format!("{name}_p90_us"), quantile_sorted(s, 0.9));
                        r.extra.insert(format!("{name}_max_us"), s[s.len() - 1]);
                    }
                }
            }
            records.push(r);
        }
        env.save_partial(&records[records.len() - pools.len()..]);
    }
    let mut out = ModeOutput {
        tables: tables(&records),
        records,
        ..Default::default()
    };
    plots(env, &mut out);
    out
}

/// Ideal start of the last task with `p` workers: `(⌈n/p⌉ − 1) · spin`.
pub fn ideal_last_us(n: usize, p: usize) -> f64 {
    (n.div_ceil(p.max(1)) as f64 - 1.0).max(0.0) * TASK_SPIN.as_secs_f64() * 1e6
}

/// One table: N × scheduler with both distributions.
pub fn tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records
        .iter()
        .filter(|r| r.experiment == "latency")
        .collect();
    if recs.is_empty() {
        return Vec::new();
    }
    let order = scheduler_order(records);
    let mut tab = Table::new(
        "latency: start delay after the origin's t0 (µs): first task on the other worker, and last task",
        &[
            "N", "scheduler", "thr", "runs", "w/ other", "first p50", "first p90", "first max", "last p50", "last p90",
            "last max", "ideal last",
        ],
    );
    let mut ns: Vec<usize> = recs
        .iter()
        .filter_map(|r| r.extra.get("n").map(|&n| n as usize))
        .collect();
    ns.sort_unstable();
    ns.dedup();
    let g = |r: &Record, k: &str| {
        r.extra
            .get(k)
            .map(|v| format!("{v:.1}"))
            .unwrap_or_else(|| "-".into())
    };
    for n in ns {
        for s in &order {
            for r in recs
                .iter()
                .filter(|r| &r.scheduler == s && r.extra.get("n") == Some(&(n as f64)))
            {
                tab.row(vec![
                    n.to_string(),
                    s.clone(),
                    r.threads.to_string(),
                    r.reps.to_string(),
                    r.extra
                        .get("runs_with_other")
                        .map(|v| format!("{v:.0}"))
                        .unwrap_or_else(|| "-".into()),
                    g(r, "first_other_p50_us"),
                    g(r, "first_other_p90_us"),
                    g(r, "first_other_max_us"),
                    g(r, "last_p50_us"),
                    g(r, "last_p90_us"),
                    g(r, "last_max_us"),
                    format!("{:.0}", ideal_last_us(n, r.threads)),
                ]);
            }
        }
        // Failed cells have no "n" in extra: list them by workload name.
        for r in recs
            .iter()
            .filter(|r| !r.verified && r.workload == format!("spawn-{n}"))
        {
            let mut row = vec![n.to_string(), r.scheduler.clone(), r.threads.to_string()];
            row.extend(std::iter::repeat_n("FAILED".to_string(), 9));
            tab.row(row);
        }
    }
    tab.notes.push(format!(
        "Each task spins {} µs after reading the clock; 'w/ other' = runs in which some task ran on another worker than the origin's. \
         ideal last = (⌈N/P⌉ − 1) × spin.",
        TASK_SPIN.as_micros()
    ));
    let mut rt = Table::new(
        "latency, splitsteal's own start-latency recorder (µs after the origin job started): first job on the other worker, last job",
        &["N", "policy", "w/ other", "first p50", "first p90", "first max", "last p50", "last p90", "last max"],
    );
    for r in recs
        .iter()
        .filter(|r| r.extra.contains_key("rt_last_p50_us"))
    {
        rt.row(vec![
            r.extra
                .get("n")
                .map(|n| format!("{n:.0}"))
                .unwrap_or_default(),
            r.scheduler.clone(),
            r.extra
                .get("rt_runs_with_other")
                .map(|v| format!("{v:.0}"))
                .unwrap_or_else(|| "-".into()),
            g(r, "rt_first_other_p50_us"),
            g(r, "rt_first_other_p90_us"),
            g(r, "rt_first_other_max_us"),
            g(r, "rt_last_p50_us"),
            g(r, "rt_last_p90_us"),
            g(r, "rt_last_max_us"),
        ]);
    }
    rt.notes.push(
        "The recorder stamps every task a worker starts: the origin, every spawned task, and every join's second closure, \
         stolen or popped back (every join is recorded). Compare with the in-workload clock reads above."
            .into(),
    );
    if rt.rows.is_empty() {
        vec![tab]
    } else {
        vec![tab, rt]
    }
}

fn plots(env: &Env, out: &mut ModeOutput) {
    let order = scheduler_order(&out.records);
    for (file, key, title) in [
        (
            "latency-first.svg",
            "first_other_p50_us",
            "Median start delay of the first task on the other worker",
        ),
        (
            "latency-last.svg",
            "last_p50_us",
            "Median start delay of the last task",
        ),
    ] {
        let mut series: Vec<Series> = order
            .iter()
            .map(|s| {
                (
                    s.clone(),
                    out.records
                        .iter()
                        .filter(|r| r.experiment == "latency" && &r.scheduler == s)
                        .filter_map(|r| Some((r.extra.get("n")?.log2(), *r.extra.get(key)?)))
                        .collect(),
                    false,
                )
            })
            .collect();
        if key == "last_p50_us" {
            let p = out.records.iter().map(|r| r.threads).max().unwrap_or(2);
            series.push((
                "ideal".into(),
                task_counts(env.size)
                    .into_iter()
                    .map(|n| ((n as f64).log2(), ideal_last_us(n, p)))
                    .filter(|&(_, y)| y > 0.0)
                    .collect(),
                true,
            ));
        }
        let l = Lines {
            title: title.into(),
            x_desc: "N (tasks spawned)".into(),
            y_desc: "µs after the origin's t0".into(),
            series,
            log_x: false,
            log_y: true,
            x_pow2: true,
        };
        env.plot(&mut out.plots, &mut out.notes, file, title, |p| l.draw(p));
        let missing = missing_points(&out.records, key);
        if let (Some(p), false) = (out.plots.last_mut(), missing.is_empty()) {
            if p.file == file {
                p.notes.push(format!(
                    "No point for {}: {}.",
                    missing.join("; "),
                    if key == "first_other_p50_us" {
                        "in none of its runs did a task start on another worker than the origin's, \
                         so there is no first-on-the-other-worker delay to plot"
                    } else {
                        "the cell has no such measurement (failed or not run)"
                    }
                ));
            }
        }
    }
}

/// The (scheduler, N) latency cells that ran but have no `key`: the points a plot of
/// `key` leaves out, one entry per N (`N = 2: lcws-poll, chili`), in record order.
pub fn missing_points(records: &[Record], key: &str) -> Vec<String> {
    let mut by_n: Vec<(String, Vec<&str>)> = Vec::new();
    for r in records
        .iter()
        .filter(|r| r.experiment == "latency" && !r.extra.contains_key(key))
    {
        let n = r
            .extra
            .get("n")
            .map(|n| format!("{n:.0}"))
            .unwrap_or_else(|| r.workload.trim_start_matches("spawn-").to_string());
        match by_n.iter_mut().find(|(m, _)| *m == n) {
            Some((_, v)) => v.push(&r.scheduler),
            None => by_n.push((n, vec![&r.scheduler])),
        }
    }
    by_n.into_iter()
        .map(|(n, v)| format!("N = {n}: {}", v.join(", ")))
        .collect()
}

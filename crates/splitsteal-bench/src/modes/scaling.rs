//! `scaling`: `fib(n)` on 2 workers for growing `n`; CAS+fences against `n`.
//!
//! The LCWS paper (Fig. 2a, simulated): classical work stealing executes synchronization
//! proportional to the work (`fib(n)` makes `fib(n+1) - 1` joins, growing ×φ ≈ 1.618 per
//! step of `n`), LCWS proportional to the span (growing linearly in `n`). This measures it
//! on real hardware, and the time per join of every scheduler.
//!
//! The splitsteal pools record every join, as the LCWS paper's algorithm does (the runtime
//! has no private window to skip pushes), so no pool option is needed for the comparison
//! with the paper: the pools are built like everywhere else in the suite.

use crate::modes::{scheduler_order, Env, ModeOutput};
use crate::plot::{Lines, Series};
use crate::report::{fill_ratios, fmt_count, fmt_ratio, Record, Table};
use crate::runner::{build_pools, cells, measure, Reps};
use crate::workloads::fib::{fib_joins, Fib};
use crate::workloads::Size;

/// Default repetitions (test, quick, full).
pub const REPS: (usize, usize, usize) = (1, 2, 3);

/// The `n` values for a size.
pub fn ns(size: Size) -> Vec<u32> {
    match size {
        Size::Test => vec![10, 12],
        Size::Quick => (16..=28).step_by(2).collect(),
        Size::Full => (16..=32).collect(),
    }
}

/// Runs planned by [`run`].
pub fn planned_runs(env: &Env) -> u64 {
    let c = cells(&env.kinds, &env.threads_or(&[2])).len();
    (ns(env.size).len() * c * (env.reps_or(REPS.0, REPS.1, REPS.2) + env.warmup)) as u64
}

/// Runs the experiment.
pub fn run(env: &Env) -> ModeOutput {
    let cs = cells(&env.kinds, &env.threads_or(&[2]));
    let pools = build_pools(&cs, env.pool_options);
    let reps = Reps {
        warmup: env.warmup,
        reps: env.reps_or(REPS.0, REPS.1, REPS.2),
    };
    let mut records = Vec::new();
    for n in ns(env.size) {
        let w = Fib::new(n);
        let name = format!("fib({n})");
        let mut recs = measure(
            "scaling",
            &name,
            &format!("n = {n}"),
            &w,
            &pools,
            reps,
            &env.progress,
            &env.watchdog,
        );
        for r in &mut recs {
            r.extra.insert("n".into(), n as f64);
            r.extra.insert("joins".into(), fib_joins(n) as f64);
        }
        env.save_partial(&recs);
        records.extend(recs);
    }
    fill_ratios(&mut records);
    let mut out = ModeOutput {
        tables: tables(&records),
        records,
        notes: vec![format!(
            "splitsteal pools: {}.",
            env.pool_options.describe()
        )],
        ..Default::default()
    };
    plots(env, &mut out);
    out
}

fn n_of(r: &Record) -> Option<u32> {
    r.extra.get("n").map(|&n| n as u32)
}

fn sync_ops(r: &Record) -> Option<f64> {
    r.stats.map(|s| (s.cas + s.fences) as f64)
}

/// Growth factor per step of `n` between the first and last points.
fn growth(points: &[(u32, f64)]) -> Option<f64> {
    let (a, b) = (points.first()?, points.last()?);
    (b.0 > a.0 && a.1 > 0.0 && b.1 > 0.0).then(|| (b.1 / a.1).powf(1.0 / (b.0 - a.0) as f64))
}

/// CAS+fences per policy against `n`, and the time per join of every scheduler.
pub fn tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records
        .iter()
        .filter(|r| r.experiment == "scaling")
        .collect();
    if recs.is_empty() {
        return Vec::new();
    }
    let order = scheduler_order(records);
    let mut n_list: Vec<u32> = recs.iter().filter_map(|r| n_of(r)).collect();
    n_list.sort_unstable();
    n_list.dedup();
    let threads = recs
        .iter()
        .filter(|r| r.scheduler != "serial")
        .map(|r| r.threads)
        .max()
        .unwrap_or(1);
    let find = |s: &str, n: u32| {
        recs.iter().copied().find(|r| {
            r.scheduler == s && n_of(r) == Some(n) && (r.threads == threads || s == "serial")
        })
    };
    let mut out = Vec::new();
    let policies: Vec<&String> = order
        .iter()
        .filter(|s| recs.iter().any(|r| &r.scheduler == *s && r.stats.is_some()))
        .collect();
    if !policies.is_empty() {
        let mut header = vec!["n".to_string(), "joins (work)".to_string()];
        header.extend(policies.iter().map(|s| s.to_string()));
        let mut tab = Table {
            title: format!("scaling: CAS + fences per run of fib(n) on {threads} workers"),
            header,
            ..Default::default()
        };
        for &n in &n_list {
            let mut row = vec![n.to_string(), fmt_count(fib_joins(n))];
            row.extend(policies.iter().map(|s| {
                find(s, n)
                    .and_then(sync_ops)
                    .map(|v| fmt_count(v as u64))
                    .unwrap_or_else(|| "-".into())
            }));
            tab.row(row);
        }
        let mut row = vec![
            "×/step".to_string(),
            fmt_ratio(growth(
                &n_list
                    .iter()
                    .map(|&n| (n, fib_joins(n) as f64))
                    .collect::<Vec<_>>(),
            )),
        ];
        row.extend(policies.iter().map(|s| {
            let pts: Vec<(u32, f64)> = n_list
                .iter()
                .filter_map(|&n| Some((n, find(s, n).and_then(sync_ops)?)))
                .collect();
            fmt_ratio(growth(&pts))
        }));
        tab.row(row);
        tab.notes.push(format!(
            "×/step: geometric growth of the count per +1 of n. Work grows ×φ ≈ 1.618 per step; the span (n) by ×{:.3} over this range. \
             The LCWS paper predicts ≈ 1.618 for classical stealing and close to 1 for LCWS.",
            growth(&[(n_list[0], n_list[0] as f64), (*n_list.last().expect("nonempty"), *n_list.last().expect("nonempty") as f64)])
                .unwrap_or(1.0)
        ));
        out.push(tab);
    }
    let mut header = vec!["n".to_string()];
    header.extend(order.iter().cloned());
    let mut tab = Table {
        title: format!("scaling: time per join (ns) of fib(n), {threads} workers (serial: 1)"),
        header,
        ..Default::default()
    };
    for &n in &n_list {
        let mut row = vec![n.to_string()];
        row.extend(order.iter().map(|s| {
            match find(s, n) {
                Some(r) if !r.verified => "FAILED".into(),
                Some(r) => r
                    .median_s
                    .map(|m| format!("{:.1}", m * 1e9 / fib_joins(n) as f64))
                    .unwrap_or_else(|| "-".into()),
                None => "-".into(),
            }
        }));
        tab.row(row);
    }
    out.push(tab);
    out
}

fn plots(env: &Env, out: &mut ModeOutput) {
    let recs: Vec<&Record> = out.records.iter().collect();
    let order = scheduler_order(&out.records);
    // Counts + 1, so that runs without any CAS or fence (LCWS on few steals) show on the
    // log axis.
    let mut series: Vec<Series> = Vec::new();
    for s in &order {
        let pts: Vec<(f64, f64)> = recs
            .iter()
            .filter(|r| &r.scheduler == s)
            .filter_map(|r| Some((n_of(r)? as f64, sync_ops(r)? + 1.0)))
            .collect();
        if !pts.is_empty() {
            series.push((s.clone(), pts, false));
        }
    }
    if !series.is_empty() {
        let at_max: Vec<(f64, f64)> = series
            .iter()
            .filter_map(|(_, p, _)| p.last().copied())
            .collect();
        let n_list: Vec<f64> = series[0].1.iter().map(|p| p.0).collect();
        if let Some(&(nmax, _)) = at_max.first() {
            let hi = at_max.iter().map(|p| p.1).fold(0.0, f64::max);
            let work = |n: f64| fib_joins(n as u32) as f64;
            // The work line through the largest count; the span line through the largest
            // count that is far below it (the LCWS policies), else at P·n.
            let kw = hi / work(nmax);
            let low = at_max
                .iter()
                .map(|p| p.1)
                .filter(|&c| c < 0.01 * hi)
                .fold(0.0, f64::max);
            let ks = if low > 0.0 { low / nmax } else { 2.0 };
            series.push((
                "∝ work (joins)".into(),
                n_list.iter().map(|&n| (n, kw * work(n))).collect(),
                true,
            ));
            series.push((
                "∝ span (n)".into(),
                n_list.iter().map(|&n| (n, ks * n)).collect(),
                true,
            ));
        }
        let l = Lines {
            title: "CAS + fences per run of fib(n), 2 workers (LCWS paper, Fig. 2a, on hardware)"
                .into(),
            x_desc: "n".into(),
            y_desc: "CAS + fences + 1".into(),
            series,
            log_x: false,
            log_y: true,
            x_pow2: false,
        };
        env.plot(
            &mut out.plots,
            &mut out.notes,
            "scaling.svg",
            &l.title.clone(),
            |p| l.draw(p),
        );
    }
    let series: Vec<Series> = order
        .iter()
        .map(|s| {
            (
                s.clone(),
                recs.iter()
                    .filter(|r| &r.scheduler == s)
                    .filter_map(|r| {
                        let n = n_of(r)?;
                        Some((n as f64, r.median_s? * 1e9 / fib_joins(n) as f64))
                    })
                    .collect(),
                false,
            )
        })
        .collect();
    let l = Lines {
        title: "Time per join of fib(n)".into(),
        x_desc: "n".into(),
        y_desc: "ns per join".into(),
        series,
        log_x: false,
        log_y: true,
        x_pow2: false,
    };
    env.plot(
        &mut out.plots,
        &mut out.notes,
        "scaling-time.svg",
        &l.title.clone(),
        |p| l.draw(p),
    );
}

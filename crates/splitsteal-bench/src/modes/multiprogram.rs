//! `multiprogram`: paper 002's setting on this machine.
//!
//! More workers than cores (P = 2, 4, 8 on the 2-core machine), and P = 2 while a
//! CPU-bound process competes for a core. 002's bound says `T ≈ T1/P_A (+ T∞·P/P_A)` with
//! a constant of about 1, where `P_A` is the processor average: the processors the kernel
//! actually gave the computation. Here `P_A` is measured as the process's CPU time divided
//! by the wall time of the run (so time a thief spends spinning counts as given), and `T1`
//! is the CPU time of the serial elision's run measured in the same mode (its wall time on a
//! dedicated machine); the table reports `T / (T1/P_A)` for every scheduler.

use crate::hog::Hog;
use crate::modes::{scheduler_order, Env, ModeOutput};
use crate::plot::Bars;
use crate::report::{fmt_secs, geomean, Record, Table};
use crate::runner::{build_pools, cells, measure, Cell, Reps};
use crate::sched::SchedulerKind;

/// Default workloads: fine-grained, memory-bound, irregular.
pub const WORKLOADS: [&str; 3] = ["fib", "cilksort", "uts"];

/// Default repetitions (test, quick, full).
pub const REPS: (usize, usize, usize) = (1, 2, 3);

/// One setting: worker count and whether a hog competes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// Worker threads.
    pub workers: usize,
    /// A CPU-bound process competes.
    pub hog: bool,
}

impl Setting {
    /// `P=4` or `P=2+hog`.
    pub fn label(&self) -> String {
        if self.hog {
            format!("P={}+hog", self.workers)
        } else {
            format!("P={}", self.workers)
        }
    }
}

/// The settings: each `--threads` value (default 2, 4, 8), then the smallest with a hog.
pub fn settings(env: &Env) -> Vec<Setting> {
    let ps = env.threads_or(&[2, 4, 8]);
    let mut v: Vec<Setting> = ps
        .iter()
        .map(|&workers| Setting {
            workers,
            hog: false,
        })
        .collect();
    if let Some(&p) = ps.iter().min() {
        v.push(Setting {
            workers: p,
            hog: true,
        });
    }
    v
}

/// Runs planned by [`run`].
pub fn planned_runs(env: &Env) -> u64 {
    let w = env.workloads_or(&WORKLOADS).len();
    let k = env.parallel_kinds().len();
    let runs = env.reps_or(REPS.0, REPS.1, REPS.2) + env.warmup;
    (w * (1 + k * settings(env).len()) * runs) as u64
}

fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Processors a fair kernel gives `p` workers on this machine, with a competing hog or not.
pub fn nominal_pa(s: Setting) -> f64 {
    let c = cores() as f64;
    let p = s.workers as f64;
    if s.hog {
        p.min(c * p / (p + 1.0))
    } else {
        p.min(c)
    }
}

/// Runs the experiment.
pub fn run(env: &Env) -> ModeOutput {
    let specs = env.workloads_or(&WORKLOADS);
    let reps = Reps {
        warmup: env.warmup,
        reps: env.reps_or(REPS.0, REPS.1, REPS.2),
    };
    let mut out = ModeOutput::default();
    let built: Vec<_> = specs
        .iter()
        .map(|s| ((s.build)(env.size, env.seed), (s.params)(env.size)))
        .collect();
    // T1: the serial elision, dedicated machine.
    let serial = [Cell {
        kind: SchedulerKind::Serial,
        threads: 1,
    }];
    let serial_pool = build_pools(&serial, env.pool_options);
    let mut t1 = Vec::new();
    for (spec, (w, params)) in specs.iter().zip(&built) {
        let r = measure(
            "multiprogram",
            spec.name,
            params,
            &**w,
            &serial_pool,
            reps,
            &env.progress,
            &env.watchdog,
        );
        // T1 is the serial run's CPU time (its wall time on a dedicated machine): the
        // processor average is measured from CPU time too, so other load on the machine
        // cancels out of T / (T1/P_A).
        t1.push(
            r[0].median_s
                .map(|m| m * r[0].extra.get("p_a").copied().unwrap_or(1.0).min(1.0)),
        );
        env.save_partial(&r);
        out.records.extend(r);
    }
    let kinds = env.parallel_kinds();
    for setting in settings(env) {
        let cs = cells(&kinds, &[setting.workers]);
        let pools = build_pools(&cs, env.pool_options);
        let hog = if setting.hog {
            match Hog::start() {
                Ok(h) => {
                    // Let it get scheduled before measuring.
                    std::thread::sleep(std::time::Duration::from_millis(100));
                    Some(h)
                }
                Err(e) => {
                    out.notes.push(format!(
                        "could not start the CPU hog: {e}; skipped {}",
                        setting.label()
                    ));
                    for _ in 0..specs.len() * cs.len() * reps.runs() {
                        env.progress.inc();
                    }
                    continue;
                }
            }
        } else {
            None
        };
        for ((spec, (w, params)), t1) in specs.iter().zip(&built).zip(&t1) {
            let params = format!("{params}; {}", setting.label());
            let mut recs = measure(
                "multiprogram",
                spec.name,
                &params,
                &**w,
                &pools,
                reps,
                &env.progress,
                &env.watchdog,
            );
            for r in &mut recs {
                r.extra
                    .insert("hog".into(), if setting.hog { 1.0 } else { 0.0 });
                r.extra.insert("nominal_p_a".into(), nominal_pa(setting));
                if let (Some(t1), Some(m), Some(&pa)) = (t1, r.median_s, r.extra.get("p_a")) {
                    r.extra.insert("t1_s".into(), *t1);
                    r.extra.insert("ideal_s".into(), t1 / pa);
                    r.extra.insert("ratio".into(), m / (t1 / pa));
                    r.extra
                        .insert("ratio_nominal".into(), m / (t1 / nominal_pa(setting)));
                    r.speedup = Some(t1 / m);
                }
            }
            env.save_partial(&recs);
            out.records.extend(recs);
        }
        drop(hog);
        drop(pools);
    }
    out.tables = tables(&out.records);
    plots(env, &mut out);
    out
}

fn setting_of(r: &Record) -> Setting {
    Setting {
        workers: r.threads,
        hog: r.extra.get("hog") == Some(&1.0),
    }
}

/// `T / (T1/P_A)` and the raw times, per workload, setting and scheduler.
pub fn tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records
        .iter()
        .filter(|r| r.experiment == "multiprogram" && r.scheduler != "serial")
        .collect();
    if recs.is_empty() {
        return Vec::new();
    }
    let order: Vec<String> = scheduler_order(records)
        .into_iter()
        .filter(|s| s != "serial")
        .collect();
    let mut settings: Vec<Setting> = Vec::new();
    for r in &recs {
        let s = setting_of(r);
        if !settings.contains(&s) {
            settings.push(s);
        }
    }
    let mut workloads: Vec<String> = Vec::new();
    for r in &recs {
        if !workloads.contains(&r.workload) {
            workloads.push(r.workload.clone());
        }
    }
    let mut header = vec!["workload".to_string(), "setting".to_string()];
    header.extend(order.iter().cloned());
    let mut ratio = Table {
        title: "multiprogram: T / (T1/P_A), P_A measured (CPU time / wall time); ~1 is 002's bound with constant 1".into(),
        header: header.clone(),
        ..Default::default()
    };
    let mut raw = Table {
        title: "multiprogram: median time [measured P_A]".into(),
        header,
        ..Default::default()
    };
    for w in &workloads {
        for s in &settings {
            let mut a = vec![w.clone(), s.label()];
            let mut b = a.clone();
            for k in &order {
                let r = recs
                    .iter()
                    .find(|r| &r.workload == w && &r.scheduler == k && setting_of(r) == *s);
                match r {
                    Some(r) if !r.verified => {
                        a.push("FAILED".into());
                        b.push("FAILED".into());
                    }
                    Some(r) => {
                        a.push(
                            r.extra
                                .get("ratio")
                                .map(|v| format!("{v:.2}"))
                                .unwrap_or_else(|| "-".into()),
                        );
                        b.push(match (r.median_s, r.extra.get("p_a")) {
                            (Some(m), Some(pa)) => format!("{} [{pa:.2}]", fmt_secs(m)),
                            _ => "-".into(),
                        });
                    }
                    None => {
                        a.push("-".into());
                        b.push("-".into());
                    }
                }
            }
            ratio.row(a);
            raw.row(b);
        }
    }
    for s in &settings {
        let mut row = vec!["geomean".to_string(), s.label()];
        for k in &order {
            let v: Vec<f64> = recs
                .iter()
                .filter(|r| &r.scheduler == k && setting_of(r) == *s)
                .filter_map(|r| r.extra.get("ratio").copied())
                .collect();
            row.push(
                geomean(&v)
                    .map(|g| format!("{g:.2}"))
                    .unwrap_or_else(|| "-".into()),
            );
        }
        ratio.row(row);
    }
    ratio.notes.push(format!(
        "T1 = CPU time of the serial elision on the same input (no hog). This machine has {} cores; with a hog, a fair kernel gives P workers {}·P/(P+1) cores. \
         A ratio above 1 is CPU time wasted (spinning, preempted lock holders, ...).",
        cores(),
        cores()
    ));
    vec![ratio, raw]
}

fn plots(env: &Env, out: &mut ModeOutput) {
    let recs: Vec<&Record> = out
        .records
        .iter()
        .filter(|r| r.experiment == "multiprogram" && r.scheduler != "serial")
        .collect();
    let order: Vec<String> = scheduler_order(&out.records)
        .into_iter()
        .filter(|s| s != "serial")
        .collect();
    let mut settings: Vec<Setting> = Vec::new();
    for r in &recs {
        let s = setting_of(r);
        if !settings.contains(&s) {
            settings.push(s);
        }
    }
    let series = |key: fn(&Record) -> Option<f64>| -> Vec<(String, Vec<Option<f64>>)> {
        order
            .iter()
            .map(|k| {
                (
                    k.clone(),
                    settings
                        .iter()
                        .map(|s| {
                            let v: Vec<f64> = recs
                                .iter()
                                .filter(|r| &r.scheduler == k && setting_of(r) == *s)
                                .filter_map(|r| key(r))
                                .collect();
                            geomean(&v)
                        })
                        .collect(),
                )
            })
            .collect()
    };
    let b = Bars {
        title: "T / (T1/P_A), geometric mean over workloads (002: ≈ 1)".into(),
        y_desc: "T / (T1 / P_A)".into(),
        categories: settings.iter().map(|s| s.label()).collect(),
        series: series(|r| r.extra.get("ratio").copied()),
        log_y: false,
        reference: Some(1.0),
    };
    env.plot(
        &mut out.plots,
        &mut out.notes,
        "multiprogram.svg",
        &b.title.clone(),
        |p| b.draw(p),
    );
    let b = Bars {
        title: "Speedup over the serial elision, geometric mean over workloads".into(),
        y_desc: "T1 / T".into(),
        categories: settings.iter().map(|s| s.label()).collect(),
        series: series(|r| r.speedup),
        log_y: false,
        reference: Some(1.0),
    };
    env.plot(
        &mut out.plots,
        &mut out.notes,
        "multiprogram-speedup.svg",
        &b.title.clone(),
        |p| b.draw(p),
    );
}

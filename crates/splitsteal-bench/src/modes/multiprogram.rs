//! `multiprogram`: the ABP paper's setting on this machine, and the one-CPU check.
//!
//! More workers than cores (P = 2, 4, 8 on the 2-core machine), and P = 2 while a
//! CPU-bound process competes for a core. The ABP paper's bound (§4.4) says
//! `T ≈ T1/P_A (+ T∞·P/P_A)` with a constant of about 1 (as its §6 reports from
//! experiments), where `P_A` is the processor average: the processors the kernel
//! actually gave the computation. Here `P_A` is measured as the process's CPU time divided
//! by the wall time of the run (so time a thief spends spinning counts as given), and `T1`
//! is the CPU time of the serial elision's run measured in the same mode (its wall time on a
//! dedicated machine); the table reports `T / (T1/P_A)` for every scheduler.
//!
//! # `P=2 on 1 CPU`
//!
//! A 2-worker pool whose threads all share one CPU, as under `taskset -c 0`, must finish
//! fib and the everyday shapes under every policy in at most 1.5× its own 1-worker time: a
//! thief that asks a victim on its own CPU for work must let the victim run. The setting
//! builds each scheduler's 1-worker and 2-worker pools on a thread restricted (with
//! `sched_setaffinity`) to the first CPU the process may use, and runs their measurements
//! on that thread too. The pools' threads inherit the restriction: the splitsteal and rayon
//! workers, chili's workers and heartbeat thread (all spawned while the pool is built), and
//! chili's calling thread, which runs tasks itself. Both pools are restricted, so the ratio
//! `T(2 workers, 1 CPU) / T(1 worker, 1 CPU)` isolates the cost of the second worker
//! sharing the CPU. Before measuring, a probe reads `sched_getaffinity` inside the tasks of
//! every pool; the records keep what it saw (`affinity_ok`, `threads_seen`) and the table's
//! notes report it.

use crate::affinity;
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

/// Default workloads of the `P=2 on 1 CPU` setting: fib and the everyday shapes.
pub const ONE_CPU_WORKLOADS: [&str; 5] =
    ["fib", "listwalk", "coarsejoin", "spawnjoin", "spawnparfor"];

/// Workers of the `P=2 on 1 CPU` setting (its baseline has 1).
pub const ONE_CPU_WORKERS: usize = 2;

/// Default repetitions of the `P=2 on 1 CPU` setting (test, quick, full); its runs are
/// short, so it affords more than the other settings.
pub const ONE_CPU_REPS: (usize, usize, usize) = (1, 3, 5);

/// Issue 10's target: `T(2 workers, 1 CPU) ≤ 1.5 × T(1 worker, 1 CPU)` for every policy.
pub const ONE_CPU_TARGET: f64 = 1.5;

/// The label of the `P=2 on 1 CPU` setting.
pub const ONE_CPU_LABEL: &str = "P=2 on 1 CPU";

/// A 1-worker run of the `P=2 on 1 CPU` setting with a processor average below this shared
/// its CPU with other processes: the table warns that the ratios include other load.
pub const LOADED_P_A: f64 = 0.9;

/// Leaves (`2^depth`) and leaf time of the affinity probe run on each one-CPU pool.
const PROBE: (u32, std::time::Duration) = (9, std::time::Duration::from_micros(20));

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

/// Whether `r` belongs to the `P=2 on 1 CPU` setting (its 2-worker cell or its 1-worker
/// baseline).
pub fn is_one_cpu(r: &Record) -> bool {
    r.extra.get("one_cpu") == Some(&1.0)
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
    let one_cpu = env.workloads_or(&ONE_CPU_WORKLOADS).len()
        * k
        * 2
        * (env.reps_or(ONE_CPU_REPS.0, ONE_CPU_REPS.1, ONE_CPU_REPS.2) + env.warmup);
    (w * (1 + k * settings(env).len()) * runs + one_cpu) as u64
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
    run_one_cpu(env, &mut out);
    out.tables = tables(&out.records);
    plots(env, &mut out);
    out
}

/// The `P=2 on 1 CPU` setting (see the module documentation): per workload, every
/// scheduler's 1-worker and 2-worker pools, all on one CPU, interleaved in one rotating
/// order; the 2-worker records get `t_1worker_s` and `ratio_1worker`.
#[doc(hidden)]
pub fn run_one_cpu(env: &Env, out: &mut ModeOutput) {
    let specs = env.workloads_or(&ONE_CPU_WORKLOADS);
    let kinds = env.parallel_kinds();
    let reps = Reps {
        warmup: env.warmup,
        reps: env.reps_or(ONE_CPU_REPS.0, ONE_CPU_REPS.1, ONE_CPU_REPS.2),
    };
    let planned = specs.len() * kinds.len() * 2 * reps.runs();
    let skip = |out: &mut ModeOutput, why: String| {
        out.notes.push(format!("{ONE_CPU_LABEL}: skipped ({why})"));
        for _ in 0..planned {
            env.progress.inc();
        }
    };
    if specs.is_empty() || kinds.is_empty() {
        return;
    }
    let cpu = match affinity::allowed_cpus() {
        Ok(c) if !c.is_empty() => c[0],
        Ok(_) => return skip(out, "no allowed CPU reported".into()),
        Err(e) => return skip(out, format!("sched_getaffinity: {e}")),
    };
    let result = std::thread::scope(|sc| {
        std::thread::Builder::new()
            .name("bench-one-cpu".into())
            .spawn_scoped(sc, || -> Result<Vec<Record>, String> {
                // Only this thread (and the threads it creates) is restricted.
                affinity::restrict_current_thread(cpu)
                    .map_err(|e| format!("sched_setaffinity to CPU {cpu}: {e}"))?;
                let mut cs = Vec::new();
                for &kind in &kinds {
                    for threads in [1, ONE_CPU_WORKERS] {
                        cs.push(Cell { kind, threads });
                    }
                }
                let pools = build_pools(&cs, env.pool_options);
                // What the pools' tasks see: the allowed CPUs of every thread that ran one.
                let probes: Vec<Option<affinity::ProbeResult>> = pools
                    .iter()
                    .map(|(_, s)| {
                        s.as_ref()
                            .ok()
                            .map(|s| affinity::probe(s, PROBE.0, PROBE.1))
                    })
                    .collect();
                let mut records = Vec::new();
                for spec in &specs {
                    let w = (spec.build)(env.size, env.seed);
                    let params = (spec.params)(env.size);
                    let mut recs = measure(
                        "multiprogram",
                        spec.name,
                        &params,
                        &*w,
                        &pools,
                        reps,
                        &env.progress,
                        &env.watchdog,
                    );
                    for (r, probe) in recs.iter_mut().zip(&probes) {
                        r.params = if r.threads == 1 {
                            format!("{params}; P=1 on 1 CPU (baseline of {ONE_CPU_LABEL})")
                        } else {
                            format!("{params}; {ONE_CPU_LABEL}")
                        };
                        r.extra.insert("one_cpu".into(), 1.0);
                        r.extra.insert("cpu".into(), cpu as f64);
                        r.extra.insert("nominal_p_a".into(), 1.0);
                        if let Some(p) = probe {
                            r.extra.insert(
                                "affinity_ok".into(),
                                if p.all_on(cpu) { 1.0 } else { 0.0 },
                            );
                            r.extra
                                .insert("threads_seen".into(), p.threads.len() as f64);
                        }
                    }
                    // The ratio to the same scheduler's 1-worker time.
                    let base: Vec<(String, Option<f64>)> = recs
                        .iter()
                        .filter(|r| r.threads == 1)
                        .map(|r| (r.scheduler.clone(), r.median_s))
                        .collect();
                    for r in recs.iter_mut().filter(|r| r.threads == ONE_CPU_WORKERS) {
                        let t1 = base
                            .iter()
                            .find(|(k, _)| *k == r.scheduler)
                            .and_then(|(_, m)| *m);
                        if let (Some(t1), Some(m)) = (t1, r.median_s) {
                            r.extra.insert("t_1worker_s".into(), t1);
                            r.extra.insert("ratio_1worker".into(), m / t1);
                        }
                    }
                    env.save_partial(&recs);
                    records.extend(recs);
                }
                Ok(records)
            })
            .map_err(|e| format!("cannot start the restricted thread: {e}"))
            .and_then(|h| {
                h.join()
                    .map_err(|p| format!("panicked: {}", crate::workloads::panic_message(&*p)))
            })
    });
    match result {
        Ok(Ok(records)) => out.records.extend(records),
        Ok(Err(e)) | Err(e) => skip(out, e),
    }
}

fn setting_of(r: &Record) -> Setting {
    Setting {
        workers: r.threads,
        hog: r.extra.get("hog") == Some(&1.0),
    }
}

/// `T / (T1/P_A)` and the raw times, per workload, setting and scheduler.
pub fn tables(records: &[Record]) -> Vec<Table> {
    let mut out = abp_tables(records);
    out.extend(one_cpu_tables(records));
    out
}

/// The ABP paper's tables: `T / (T1/P_A)` and the raw times (every setting but `P=2 on 1 CPU`).
#[doc(hidden)]
pub fn abp_tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records
        .iter()
        .filter(|r| r.experiment == "multiprogram" && r.scheduler != "serial" && !is_one_cpu(r))
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
        title: "multiprogram: T / (T1/P_A), P_A measured (CPU time / wall time); ~1 is the ABP paper's bound with constant 1".into(),
        header: header.clone(),
        ..Default::default()
    };
    let mut raw = Table {
        role: crate::report::TableRole::Raw,
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

/// Whether a scheduler name is one of splitsteal's policies (the target is theirs; rayon and
/// chili are shown for reference).
fn is_policy(name: &str) -> bool {
    matches!(
        name.parse::<SchedulerKind>(),
        Ok(SchedulerKind::Splitsteal(_))
    )
}

/// The `P=2 on 1 CPU` tables: `T(2 workers, 1 CPU) / T(1 worker, 1 CPU)` per workload and
/// scheduler with its target, and the raw times.
pub fn one_cpu_tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records
        .iter()
        .filter(|r| r.experiment == "multiprogram" && is_one_cpu(r))
        .collect();
    if recs.is_empty() {
        return Vec::new();
    }
    let order: Vec<String> = scheduler_order(records)
        .into_iter()
        .filter(|s| s != "serial" && recs.iter().any(|r| &r.scheduler == s))
        .collect();
    let mut workloads: Vec<String> = Vec::new();
    for r in &recs {
        if !workloads.contains(&r.workload) {
            workloads.push(r.workload.clone());
        }
    }
    let find = |w: &str, k: &str, t: usize| {
        recs.iter()
            .copied()
            .find(|r| r.workload == w && r.scheduler == k && r.threads == t)
    };
    let mut header = vec!["workload".to_string()];
    header.extend(order.iter().cloned());
    let mut ratio = Table {
        title: format!(
            "multiprogram, {ONE_CPU_LABEL} (issue 10): T(2 workers, 1 CPU) / T(1 worker, 1 CPU), medians; target ≤ {ONE_CPU_TARGET}× own 1-worker time"
        ),
        header: header.clone(),
        ..Default::default()
    };
    let mut raw = Table {
        role: crate::report::TableRole::Raw,
        title: format!(
            "multiprogram, {ONE_CPU_LABEL}: median time, 2 workers / 1 worker (both on 1 CPU) [P_A: CPU time / wall time, 2 workers / 1 worker]"
        ),
        header,
        ..Default::default()
    };
    // Per scheduler: the worst ratio, and whether any cell failed or is missing.
    let mut worst: Vec<Option<(f64, String)>> = vec![None; order.len()];
    let mut broken: Vec<bool> = vec![false; order.len()];
    for w in &workloads {
        let mut a = vec![w.clone()];
        let mut b = vec![w.clone()];
        for (i, k) in order.iter().enumerate() {
            let (one, two) = (find(w, k, 1), find(w, k, ONE_CPU_WORKERS));
            if one.is_some_and(|r| !r.verified) || two.is_some_and(|r| !r.verified) {
                broken[i] = true;
                a.push("FAILED".into());
                b.push("FAILED".into());
                continue;
            }
            match two.and_then(|r| r.extra.get("ratio_1worker").copied()) {
                Some(v) => {
                    if worst[i].as_ref().is_none_or(|(x, _)| v > *x) {
                        worst[i] = Some((v, w.clone()));
                    }
                    let over = if v > ONE_CPU_TARGET { " ✗" } else { "" };
                    a.push(format!("{v:.2}{over}"));
                }
                None => {
                    broken[i] = true;
                    a.push("-".into());
                }
            }
            let ms = |r: Option<&Record>| {
                r.and_then(|r| r.median_s)
                    .map(fmt_secs)
                    .unwrap_or_else(|| "-".into())
            };
            let pa = |r: Option<&Record>| {
                r.and_then(|r| r.extra.get("p_a"))
                    .map(|p| format!("{p:.2}"))
                    .unwrap_or_else(|| "-".into())
            };
            b.push(format!(
                "{} / {} [{} / {}]",
                ms(two),
                ms(one),
                pa(two),
                pa(one)
            ));
        }
        ratio.row(a);
        raw.row(b);
    }
    let mut max_row = vec!["max".to_string()];
    let mut status_row = vec![format!("≤ {ONE_CPU_TARGET}×")];
    for i in 0..order.len() {
        max_row.push(
            worst[i]
                .as_ref()
                .map(|(v, _)| format!("{v:.2}"))
                .unwrap_or_else(|| "-".into()),
        );
        status_row.push(
            match (&worst[i], broken[i]) {
                // A performance goal: met or missed (a wrong result shows as FAILED in its cell).
                (_, true) => "missed",
                (Some((v, _)), false) if *v <= ONE_CPU_TARGET => "met",
                (Some(_), false) => "missed",
                (None, false) => "n/a",
            }
            .into(),
        );
    }
    ratio.row(max_row);
    ratio.row(status_row);

    // The target line: the policies only (rayon and chili for reference).
    let policies: Vec<usize> = (0..order.len()).filter(|&i| is_policy(&order[i])).collect();
    let mut over: Vec<String> = Vec::new();
    for w in &workloads {
        for &i in &policies {
            let k = &order[i];
            let v = find(w, k, ONE_CPU_WORKERS).and_then(|r| r.extra.get("ratio_1worker"));
            if let Some(&v) = v.filter(|&&v| v > ONE_CPU_TARGET) {
                over.push(format!("{k} on {w} {v:.2}×"));
            }
        }
    }
    let missing = policies.iter().filter(|&&i| broken[i]).count();
    let worst_policy = policies
        .iter()
        .filter_map(|&i| worst[i].as_ref().map(|(v, w)| (*v, &order[i], w)))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let target = if policies.is_empty() {
        "n/a (no splitsteal policy ran)".to_string()
    } else {
        let status = if over.is_empty() && missing == 0 {
            "met"
        } else {
            "missed"
        };
        let mut s = format!(
            "target (a performance goal, not a test): every policy ≤ {ONE_CPU_TARGET}× own 1-worker time on every workload: {status}"
        );
        if let Some((v, k, w)) = worst_policy {
            s.push_str(&format!("; worst {v:.2}× ({k} on {w})"));
        }
        if !over.is_empty() {
            s.push_str(&format!("; above: {}", over.join(", ")));
        }
        if missing > 0 {
            s.push_str(&format!(
                "; {missing} polic{} with a FAILED or missing cell",
                if missing == 1 { "y" } else { "ies" }
            ));
        }
        s
    };
    ratio.notes.push(target);
    // What the affinity probe saw.
    let cpu = recs
        .iter()
        .find_map(|r| r.extra.get("cpu"))
        .map(|c| format!("{c:.0}"))
        .unwrap_or_else(|| "?".into());
    let mut pools: Vec<(&str, usize, f64, f64)> = Vec::new();
    for r in &recs {
        let key = (r.scheduler.as_str(), r.threads);
        if pools.iter().any(|p| (p.0, p.1) == key) {
            continue;
        }
        if let (Some(&ok), Some(&seen)) = (r.extra.get("affinity_ok"), r.extra.get("threads_seen"))
        {
            pools.push((key.0, key.1, ok, seen));
        }
    }
    let bad: Vec<String> = pools
        .iter()
        .filter(|p| p.2 != 1.0)
        .map(|p| format!("{}@{}", p.0, p.1))
        .collect();
    let two: Vec<&(&str, usize, f64, f64)> =
        pools.iter().filter(|p| p.1 == ONE_CPU_WORKERS).collect();
    let both = two.iter().filter(|p| p.3 >= 2.0).count();
    ratio.notes.push(if bad.is_empty() {
        format!(
            "Each scheduler's 1- and 2-worker pools were built, and run, on a thread restricted to CPU {cpu} (the first CPU the process may use), \
             as under `taskset -c {cpu}`; the pools' threads inherit it. Checked: sched_getaffinity read inside the tasks of all {} pools \
             gave only CPU {cpu}; in {both} of the {} 2-worker pools the probe's tasks ran on 2 threads. ✗: above the target. \
             The target counts the splitsteal policies; rayon and chili are shown for reference.",
            pools.len(),
            two.len()
        )
    } else {
        format!(
            "warning: the pools were built on a thread restricted to CPU {cpu}, but tasks of {} ran on threads allowed other CPUs: \
             their cells do not measure one CPU.",
            bad.join(", ")
        )
    });
    // Other processes on the same CPU: a 1-worker pool never idles, so its runs get the
    // whole CPU (P_A ≈ 1) unless something else runs there.
    let busy = recs
        .iter()
        .filter(|r| r.threads == 1)
        .filter_map(|r| r.extra.get("p_a").copied())
        .fold(f64::INFINITY, f64::min);
    if busy < LOADED_P_A {
        ratio.notes.push(format!(
            "warning: CPU {cpu} was shared with other processes: some 1-worker runs got only {busy:.2} of it \
             (P_A, about 1.00 on a quiet CPU), so these ratios include other load. Measure on a quiet machine."
        ));
    }
    vec![ratio, raw]
}

fn plots(env: &Env, out: &mut ModeOutput) {
    let recs: Vec<&Record> = out
        .records
        .iter()
        .filter(|r| r.experiment == "multiprogram" && r.scheduler != "serial" && !is_one_cpu(r))
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
        title: "T / (T1/P_A), geometric mean over workloads (ABP paper: ≈ 1)".into(),
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

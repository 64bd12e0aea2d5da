//! `suite`: every workload, every scheduler, 1 and 2 threads.

use std::fmt::Write as _;
use std::time::Instant;

use splitsteal::Policy;

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

/// The suite's tables: the full table (raw), the headline (the default policy against rayon
/// and chili at every thread count), the fastest policy per workload chosen after the
/// fact, one summary per thread count, and the targets.
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
    out.push(headline(&recs, &order, &threads));
    if let Some(&t) = threads.last() {
        out.extend(selection(&recs, &order, t));
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

/// The policy the headline and the targets are about: the one a user gets without
/// choosing ([`Policy::default`]).
pub fn default_policy() -> &'static str {
    Policy::default().name()
}

/// The policy kept as a yardstick, never offered as the fastest choice: classical work
/// stealing on a mutex-protected deque (the low-latency thesis's baseline), which
/// measures what the lock-free deques gain.
pub const BASELINE_POLICY: &str = "locked";

/// A verified cell with a median, or why not: `Err("FAILED")` for a wrong result, `Err("-")`
/// for a cell that was not run.
fn timed(c: Option<&Record>) -> Result<&Record, &'static str> {
    match c {
        Some(r) if !r.verified => Err("FAILED"),
        Some(r) if r.median_s.is_some_and(|m| m > 0.0) => Ok(r),
        _ => Err("-"),
    }
}

/// One workload's `subject` time ÷ `rival` time: `0.90× (0.85–0.97)`, the ratio of the
/// medians with its range over the repetitions ([`ratio_range`]), and `tie` when that range
/// contains 1 (the two cells' min–max ranges overlap, [`Versus::Tie`]). `FAILED` or `-`
/// when either cell has no verified time.
pub fn ratio_cell(subject: Option<&Record>, rival: Option<&Record>) -> String {
    let (s, r) = match (timed(subject), timed(rival)) {
        (Ok(s), Ok(r)) => (s, r),
        (Err(e), _) | (_, Err(e)) => return e.to_string(),
    };
    let (Some(a), Some(b)) = (s.median_s, r.median_s) else {
        return "-".into();
    };
    let mut cell = format!("{:.2}×", a / b);
    if let Some((lo, hi)) = ratio_range(s, r) {
        let _ = write!(cell, " ({lo:.2}–{hi:.2})");
    }
    if Versus::of_records(s, r) == Some(Versus::Tie) {
        cell.push_str(" tie");
    }
    cell
}

/// `subject` against `rival` over some workloads at one thread count: the geometric mean
/// of the median ratios, the same mean over each workload's extreme ratios (the spread),
/// and the wins, ties and losses beyond the spread. The headline and the targets both
/// read it, so that they state the same numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// Geometric mean of `subject`'s median ÷ `rival`'s, over the workloads where both
    /// verified; `None` if there are none.
    pub geomean: Option<f64>,
    /// The geometric means of the lowest and highest ratio per workload.
    pub spread: Option<(f64, f64)>,
    /// Per workload, faster, within or slower than the spread.
    pub tally: Tally,
}

impl Comparison {
    /// `subject` against `rival` at `t` threads over `workloads`.
    pub fn of(
        recs: &[&Record],
        workloads: &[String],
        subject: &str,
        rival: &str,
        t: usize,
    ) -> Self {
        let (mut ratios, mut lo, mut hi) = (Vec::new(), Vec::new(), Vec::new());
        let mut tally = Tally::default();
        let mut every_range = true;
        for w in workloads {
            let (Ok(s), Ok(r)) = (
                timed(cell(recs, w, subject, t)),
                timed(cell(recs, w, rival, t)),
            ) else {
                continue;
            };
            let (Some(a), Some(b)) = (s.median_s, r.median_s) else {
                continue;
            };
            ratios.push(a / b);
            match ratio_range(s, r) {
                Some((x, y)) => {
                    lo.push(x);
                    hi.push(y);
                }
                None => every_range = false,
            }
            tally.extend(Versus::of_records(s, r));
        }
        let spread = match (every_range, geomean(&lo), geomean(&hi)) {
            (true, Some(a), Some(b)) => Some((a, b)),
            _ => None,
        };
        Comparison {
            geomean: geomean(&ratios),
            spread,
            tally,
        }
    }

    /// `0.88× (0.80–0.95)`, or `-` without a comparison.
    pub fn describe(&self) -> String {
        match (self.geomean, self.spread) {
            (Some(g), Some((a, b))) => format!("{g:.2}× ({a:.2}–{b:.2})"),
            (Some(g), None) => format!("{g:.2}×"),
            _ => "-".into(),
        }
    }
}

/// The headline: per workload and thread count, the default policy's time and its time ÷
/// rayon's and ÷ chili's with their spread ([`ratio_cell`]); then the geometric means
/// ([`Comparison`]) and the per-workload wins, ties and losses. The default policy is the
/// subject because it is what a user runs; the fastest policy per workload, known only
/// after the fact, is [`selection`]'s table. Rival columns that were not run are left out,
/// with a note. Without the default policy the table has no rows and says why.
fn headline(recs: &[&Record], order: &[String], threads: &[usize]) -> Table {
    let subject = default_policy();
    let rivals: Vec<&str> = ["rayon", "chili"]
        .into_iter()
        .filter(|s| order.iter().any(|o| o == s))
        .collect();
    let mut header = vec!["workload".to_string()];
    for t in threads {
        header.push(format!("{subject}@{t}"));
        header.extend(rivals.iter().map(|r| format!("×{r}@{t}")));
    }
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let vs = if rivals.is_empty() {
        String::new()
    } else {
        format!(" against {}", rivals.join(" and "))
    };
    let mut tab = Table::new(
        format!(
            "Headline: {subject}, splitsteal's default policy{vs} (time ÷ theirs; below 1: {subject} faster)"
        ),
        &header,
    )
    .with_role(TableRole::Headline);
    if !order.iter().any(|o| o == subject) {
        tab.notes.push(format!(
            "{subject}, the default policy, was not run (it is not in this run's schedulers): no headline. The \
             suite summaries below have every scheduler that ran."
        ));
        return tab;
    }
    let workloads = workload_order(&recs.iter().map(|r| (*r).clone()).collect::<Vec<_>>());
    for w in &workloads {
        let mut row = vec![w.clone()];
        for &t in threads {
            let s = cell(recs, w, subject, t);
            row.push(match timed(s) {
                Ok(r) => fmt_secs(r.median_s.unwrap_or(f64::NAN)),
                Err(e) => e.to_string(),
            });
            row.extend(rivals.iter().map(|r| ratio_cell(s, cell(recs, w, r, t))));
        }
        tab.row(row);
    }
    if !rivals.is_empty() {
        let mut mean = vec!["geomean".to_string()];
        let mut tallies = vec!["faster / tie / slower".to_string()];
        for &t in threads {
            mean.push(String::new());
            tallies.push(String::new());
            for r in &rivals {
                let c = Comparison::of(recs, &workloads, subject, r, t);
                mean.push(c.describe());
                tallies.push(format!(
                    "{} / {} / {}",
                    c.tally.wins, c.tally.ties, c.tally.losses
                ));
            }
        }
        tab.row(mean);
        tab.row(tallies);
        tab.notes.push(format!(
            "×rayon, ×chili: {subject}'s median time ÷ theirs at the same thread count, measured in the same run \
             (below 1: {subject} faster). In brackets, the ratio's range over the repetitions ({subject}'s fastest \
             ÷ their slowest to {subject}'s slowest ÷ their fastest); tie: that range contains 1, so the difference \
             is within the run-to-run spread. geomean: over the workloads, the brackets the same mean of each \
             workload's extremes. faster / tie / slower: workloads where {subject} is faster beyond the spread, \
             within it, slower beyond it."
        ));
    }
    for s in ["rayon", "chili"] {
        if !rivals.contains(&s) {
            tab.notes
                .push(format!("{s} was not run (--policy), so it has no column."));
        }
    }
    tab
}

/// After the fact, per workload at `t` threads: the fastest policy (lowest verified
/// median; [`BASELINE_POLICY`] left out) against rayon and chili, and the default
/// policy's time ÷ that policy's. A summary of the suite section, not the headline: no
/// user can pick the fastest policy per workload in advance. `None` if no policy but the
/// baseline ran.
fn selection(recs: &[&Record], order: &[String], t: usize) -> Option<Table> {
    let candidates: Vec<&String> = policies_of(order)
        .into_iter()
        .filter(|p| p.as_str() != BASELINE_POLICY)
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let subject = default_policy();
    let rivals: Vec<&str> = ["rayon", "chili"]
        .into_iter()
        .filter(|s| order.iter().any(|o| o == s))
        .collect();
    let mut header = vec![
        "workload".to_string(),
        "fastest policy".into(),
        "its time".into(),
    ];
    header.extend(rivals.iter().map(|r| format!("×{r}")));
    let with_default = order.iter().any(|o| o == subject);
    if with_default {
        header.push(format!("{subject} ÷ it"));
    }
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut tab = Table::new(
        format!("Selected after the fact at {t} threads: the fastest policy per workload (not a choice a user can make in advance)"),
        &header,
    );
    let workloads = workload_order(&recs.iter().map(|r| (*r).clone()).collect::<Vec<_>>());
    for w in &workloads {
        let best = candidates
            .iter()
            .filter_map(|p| timed(cell(recs, w, p, t)).ok())
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
                row.extend(
                    rivals
                        .iter()
                        .map(|r| ratio_cell(Some(b), cell(recs, w, r, t))),
                );
                if with_default {
                    row.push(ratio_cell(cell(recs, w, subject, t), Some(b)));
                }
            }
            None => {
                row.push("FAILED (no policy verified)".into());
                row.extend(std::iter::repeat_n("-".to_string(), header.len() - 2));
            }
        }
        tab.row(row);
    }
    tab.notes.push(format!(
        "Chosen per row after the measurements, so this flatters splitsteal: a user runs one policy for every \
         workload (by default {subject}, the headline). {BASELINE_POLICY} is left out: it is the mutex-protected \
         deque kept as a baseline for the lock-free ones, not a policy to run; its times are in the suite summaries. \
         Ratios as in the headline: median ÷ median, the range over the repetitions in brackets, tie within the spread."
    ));
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
    let subject = default_policy();
    let ran = |s: &str| order.iter().any(|o| o == s);
    // Why a comparison of the default policy with `rival` has no number.
    let missing = |rival: &str| -> &'static str {
        if !ran(subject) {
            "n/a: the default policy was not run"
        } else if !ran(rival) {
            if rival == "rayon" {
                "n/a: rayon not run"
            } else {
                "n/a: chili not run"
            }
        } else {
            "n/a: no verified cell beside the rival's"
        }
    };
    let rayon = Comparison::of(recs, &workloads, subject, "rayon", t);
    let rayon_target = rayon_target_name();
    match rayon.geomean {
        Some(g) => {
            let within = match rayon.spread {
                Some((a, b)) if (a..=b).contains(&RAYON_TARGET) => ", the target within the spread",
                _ => "",
            };
            tab.row(vec![
                rayon_target,
                format!(
                    "{subject}: {}{within}; per workload vs rayon: {} of {}",
                    rayon.describe(),
                    rayon.tally.describe(),
                    rayon.tally.total()
                ),
                met(g <= RAYON_TARGET).into(),
            ])
        }
        None => tab.row(vec![rayon_target, missing("rayon").into(), "n/a".into()]),
    }
    let chili_w: Vec<String> = registry()
        .iter()
        .filter(|s| s.group == Group::Chili)
        .map(|s| s.name.to_string())
        .filter(|w| workloads.contains(w))
        .collect();
    let chili_target = if chili_w.is_empty() {
        format!(
            "{subject} (default policy) no slower than chili on chili's workloads (none selected)"
        )
    } else {
        format!(
            "{subject} (default policy) no slower than chili on {}",
            chili_w.join(", ")
        )
    };
    let chili = Comparison::of(recs, &chili_w, subject, "chili", t);
    match chili.geomean {
        // Every chili workload compared: a goal over some of them would read as over all.
        Some(g) if chili.tally.total() == chili_w.len() => {
            let verdict = if chili.tally.ties == chili.tally.total() {
                "the difference is within the spread (a tie)".to_string()
            } else if chili.tally.total() == 1 {
                "the difference is beyond the spread".to_string()
            } else {
                format!("per workload: {}", chili.tally.describe())
            };
            tab.row(vec![
                chili_target,
                format!("{subject}: {} chili's time; {verdict}", chili.describe()),
                met(g <= 1.0).into(),
            ])
        }
        _ => {
            let why = if !ran(subject) || !ran("chili") {
                missing("chili")
            } else if chili_w.is_empty() {
                "n/a: no chili workload run"
            } else {
                "n/a: a chili or default-policy cell failed"
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
        "{}: {subject}, the policy a pool gets unless told otherwise, should take at most 1/1.2 of rayon's time, \
         as a geometric mean over the workloads (time ÷ rayon's time, below 1 is faster); the same figure as the \
         headline's geomean ×rayon at {t} threads.",
        rayon_target_name()
    ));
    tab.notes.push(format!(
        "no slower than chili: on chili's own benchmarks, {subject}'s time ÷ chili's should be at most 1 (geomean)."
    ));
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

/// The ×rayon goal of the default policy: 1.2 times rayon's speed, i.e. at most 1/1.2 of
/// its time (geomean).
const RAYON_TARGET: f64 = 1.0 / 1.2;

/// The ×rayon target's name in the targets table.
fn rayon_target_name() -> String {
    format!(
        "{} (default policy) ≤ 0.83 ×rayon, i.e. 1.2× rayon's speed (geomean)",
        default_policy()
    )
}

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

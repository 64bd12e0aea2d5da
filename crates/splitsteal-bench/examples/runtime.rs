//! Issue 3's measurement: `fib(32)` with a join at every call and the sum of a complete
//! binary tree of 2^24 - 1 heap nodes with a join at every node (chili's benchmark), on
//! every splitsteal policy, rayon and chili, at 1 and 2 threads, side by side in one run;
//! then issue 10's shapes (`listwalk`, `coarsejoin`, `spawnjoin`, `spawnparfor`, the suite's
//! workloads at their default size and seed) at 1 and 2 threads with each scheduler's
//! 2-thread speedup (its own 1-thread median / its 2-thread median).
//!
//! `cargo run --release -p splitsteal-bench --example runtime [-- REPS [--shapes-only | --no-shapes]]`
//! (`RUNTIME_SCHEDULERS=rayon,lcws-signal` runs a subset; the serial code, every ratio's
//! baseline, always runs, and the "× rayon" column is "–" without rayon). About a minute
//! on the 2-core development machine.
//!
//! Schedulers are interleaved within each repetition, in an order rotated by one each
//! repetition (machine drift hits all alike; for the shapes, the 1- and 2-thread pools of
//! every scheduler are interleaved in one rotating order); the tables give medians, the
//! ratio to the serial code (the serial elision on the same workload code), the ratio to
//! rayon, each scheduler's time over chili's in the same repetition (median and quartiles
//! of those paired ratios; "–" without chili), and the splitsteal `Stats` of the median
//! run.
//! The splitsteal pools record every join (the runtime has no private window) and their
//! workers are not pinned each to a CPU (the runtime's defaults). The fib and tree-sum
//! tables at one thread run the whole process on its first allowed CPU, so that the
//! schedulers that run on the calling thread (chili, the serial code) and those that run
//! on a worker share one CPU (see `fib_and_tree`); the 2-thread tables and the shapes use
//! every CPU.

use std::time::Duration;

use splitsteal_bench::affinity;
use splitsteal_bench::sched::{PoolOptions, Scheduler, SchedulerKind, SpawnKind, Workload};
use splitsteal_bench::workloads::fib::Fib;
use splitsteal_bench::workloads::treesum::TreeSum;
use splitsteal_bench::workloads::{shapes, DynWorkload, Size, SPAWNING};

/// The suite's default seed (`--seed`), so the shapes get the suite's inputs.
const SEED: u64 = 0x5eed;

struct Cell {
    label: String,
    times: Vec<Duration>,
    stats: Vec<Option<splitsteal::Stats>>,
}

fn measure<W: Workload>(name: &str, w: &W, scheds: &[Scheduler], reps: usize) -> Vec<Cell>
where
    W::Output: std::fmt::Debug,
{
    let mut cells: Vec<Cell> = scheds
        .iter()
        .map(|s| Cell {
            label: s.label(),
            times: Vec::new(),
            stats: Vec::new(),
        })
        .collect();
    let n = scheds.len();
    for rep in 0..=reps {
        // Rotated by one each repetition, as in `measure_dyn`: no scheduler always runs
        // right after the same one (a tree walk leaves the caches to the next run).
        for i in (0..n).map(|i| (i + rep) % n) {
            let t = scheds[i].run(w, w.input());
            if let Err(e) = w.check(&t.output) {
                panic!("{name} on {}: FAILED: {e}", scheds[i].label());
            }
            if rep > 0 {
                // rep 0 is the warm-up
                cells[i].times.push(t.time);
                cells[i].stats.push(t.stats);
            }
        }
    }
    cells
}

/// `cell`'s time over `base`'s in the same repetition, as the median and the quartiles of
/// those ratios: on a noisy machine the paired ratio moves less than the ratio of medians,
/// since a slow stretch hits both runs of a repetition.
fn paired_ratio(cell: &Cell, base: &Cell) -> String {
    let mut r: Vec<f64> = cell
        .times
        .iter()
        .zip(&base.times)
        .map(|(t, b)| t.as_secs_f64() / b.as_secs_f64())
        .collect();
    r.sort_by(f64::total_cmp);
    let q = |f: f64| r[((r.len() - 1) as f64 * f).round() as usize];
    format!("{:.3} ({:.3}–{:.3})", q(0.5), q(0.25), q(0.75))
}

/// Like [`measure`] for a registry workload: every scheduler once per repetition, in an
/// order rotated by one each repetition (rep 0 is the warm-up).
fn measure_dyn(name: &str, w: &dyn DynWorkload, scheds: &[Scheduler], reps: usize) -> Vec<Cell> {
    let mut cells: Vec<Cell> = scheds
        .iter()
        .map(|s| Cell {
            label: s.label(),
            times: Vec::new(),
            stats: Vec::new(),
        })
        .collect();
    let n = scheds.len();
    for rep in 0..=reps {
        for i in (0..n).map(|i| (i + rep) % n) {
            let out = w.run_on(&scheds[i]);
            if let Err(e) = out.check {
                panic!("{name} on {}: FAILED: {e}", scheds[i].label());
            }
            if rep > 0 {
                cells[i].times.push(out.time);
                cells[i].stats.push(out.stats);
            }
        }
    }
    cells
}

fn median(cell: &Cell) -> (Duration, Option<splitsteal::Stats>) {
    let mut idx: Vec<usize> = (0..cell.times.len()).collect();
    idx.sort_by_key(|&i| cell.times[i]);
    let m = idx[idx.len() / 2];
    (cell.times[m], cell.stats[m])
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(bad) = args
        .iter()
        .skip(1)
        .find(|a| a.starts_with("--") && *a != "--shapes-only" && *a != "--no-shapes")
    {
        eprintln!("unknown option {bad}; usage: runtime [REPS] [--shapes-only | --no-shapes] (every join is recorded; there is no window to set)");
        std::process::exit(2);
    }
    let reps: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let opts = PoolOptions::default();
    println!(
        "{} (median of {reps} runs after a warm-up)\n",
        opts.describe()
    );
    // `RUNTIME_SCHEDULERS=lcws-signal,chili` restricts the set. The serial code is always
    // run (every ratio's baseline); without rayon its column is "–".
    let only: Option<Vec<String>> = std::env::var("RUNTIME_SCHEDULERS")
        .ok()
        .map(|v| v.split(',').map(str::to_string).collect());
    if let Some(bad) = only
        .iter()
        .flatten()
        .find(|n| n.parse::<SchedulerKind>().is_err())
    {
        eprintln!("RUNTIME_SCHEDULERS: unknown scheduler {bad:?}");
        std::process::exit(2);
    }
    let kinds: Vec<SchedulerKind> = SchedulerKind::all()
        .into_iter()
        .filter(|k| {
            *k == SchedulerKind::Serial
                || only
                    .as_ref()
                    .is_none_or(|o| o.iter().any(|n| n == k.name()))
        })
        .collect();
    let earlier = if args.iter().any(|a| a == "--shapes-only") {
        Vec::new()
    } else {
        fib_and_tree(&kinds, opts, reps)
    };
    if !args.iter().any(|a| a == "--no-shapes") {
        shape_tables(&kinds, opts, reps, earlier);
    }
}

/// Per workload, each of `kinds`' 2-thread speedup (`None` where it has no 2-thread run).
type Speedups = Vec<(&'static str, Vec<Option<f64>>)>;

/// Issue 3's tables: fib(32) and the tree sum, one thread count at a time. Returns each
/// scheduler's 2-thread speedup (its 1-thread median / its 2-thread median) on both.
fn fib_and_tree(kinds: &[SchedulerKind], opts: PoolOptions, reps: usize) -> Speedups {
    let fib = Fib::new(32);
    let tree = TreeSum::new(24);
    let mut speedups: Speedups = vec![
        ("fib(32)", vec![None; kinds.len()]),
        ("treesum", vec![None; kinds.len()]),
    ];
    let mut one_thread: Vec<Vec<f64>> = vec![Vec::new(); 2];
    let all_cpus = affinity::allowed_cpus().expect("sched_getaffinity");
    for threads in [1, 2] {
        // One thread: the main thread and every pool built now on one CPU (the pools'
        // threads inherit it), so that chili and the serial code, which run on the main
        // thread, run where the other pools' single workers do. Two threads: every CPU.
        // chili's pool is built before, on every CPU: its heartbeat thread, which wakes
        // every 100 µs, would otherwise share the one CPU with the work it times (the
        // suite, which pins nothing, runs it on another CPU too).
        let build = |k| Scheduler::build_with(k, threads, opts).expect("pool");
        let mut chili = kinds
            .contains(&SchedulerKind::Chili)
            .then(|| build(SchedulerKind::Chili));
        let cpus = affinity::confine_for_threads(threads, &all_cpus).expect("sched_setaffinity");
        let scheds: Vec<Scheduler> = kinds
            .iter()
            .map(|&k| match k {
                SchedulerKind::Chili => chili.take().expect("chili's pool, built above"),
                _ => build(k),
            })
            .collect();
        for (j, (name, cells)) in [
            ("fib(32)", measure("fib", &fib, &scheds, reps)),
            ("treesum(2^24-1)", measure("treesum", &tree, &scheds, reps)),
        ]
        .into_iter()
        .enumerate()
        {
            let medians: Vec<f64> = cells.iter().map(|c| median(c).0.as_secs_f64()).collect();
            if threads == 1 {
                one_thread[j] = medians;
            } else {
                for (i, k) in kinds.iter().enumerate() {
                    if *k != SchedulerKind::Serial {
                        speedups[j].1[i] = Some(one_thread[j][i] / medians[i]);
                    }
                }
            }
            let serial = median(&cells[0]).0.as_secs_f64();
            let rayon = cells
                .iter()
                .find(|c| c.label.starts_with("rayon"))
                .map(|c| median(c).0.as_secs_f64());
            let chili = cells.iter().find(|c| c.label.starts_with("chili"));
            println!("### {name}, {threads} thread(s), on CPUs {cpus:?}\n");
            println!("| scheduler | median ms | × serial | × rayon | ÷ chili, paired (quartiles) | CAS | fences | steals | exposures | signals | tasks |");
            println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            for cell in &cells {
                let (t, stats) = median(cell);
                let t = t.as_secs_f64();
                let s = |f: fn(&splitsteal::Stats) -> u64| {
                    stats.map_or("–".to_string(), |st| f(&st).to_string())
                };
                println!(
                    "| {} | {:.2} | {:.2} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    cell.label,
                    t * 1e3,
                    t / serial,
                    rayon.map_or("–".to_string(), |r| format!("{:.2}", r / t)),
                    chili.map_or("–".to_string(), |c| paired_ratio(cell, c)),
                    s(|x| x.cas),
                    s(|x| x.fences),
                    s(|x| x.steals),
                    s(|x| x.exposures),
                    s(|x| x.signals),
                    s(|x| x.tasks),
                );
            }
            println!();
        }
    }
    speedups
}

/// Issue 10's shapes: per shape, every scheduler at 1 and 2 threads (interleaved) with its
/// 2-thread speedup; then the speedups side by side, after the `earlier` ones (fib, tree).
fn shape_tables(kinds: &[SchedulerKind], opts: PoolOptions, reps: usize, earlier: Speedups) {
    // serial once (1 thread), every other scheduler at 1 and 2 threads.
    let mut scheds: Vec<Scheduler> = Vec::new();
    for &k in kinds {
        for threads in [1, 2] {
            if k == SchedulerKind::Serial && threads == 2 {
                continue;
            }
            scheds.push(Scheduler::build_with(k, threads, opts).expect("pool"));
        }
    }
    let time = |cells: &[Cell], k: SchedulerKind, t: usize| {
        scheds
            .iter()
            .zip(cells)
            .find(|(s, _)| s.kind() == k && s.threads() == t)
            .map(|(_, c)| median(c))
    };
    let specs = shapes::specs();
    let mut speedups = earlier;
    for spec in &specs {
        let w = (spec.build)(Size::Full, SEED);
        let cells = measure_dyn(spec.name, &*w, &scheds, reps);
        println!(
            "### {} (issue 10 shape), 1 and 2 threads: {}\n",
            spec.name,
            (spec.params)(Size::Full)
        );
        println!("{}\n", spec.description);
        println!("| scheduler | 1 thread ms | 2 threads ms | speedup 1→2 | 1 thread × serial | 2 threads × rayon | steals@2 | exposures@2 | CAS@2 | fences@2 |");
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        let serial = time(&cells, SchedulerKind::Serial, 1).map(|(t, _)| t.as_secs_f64());
        let rayon2 = time(&cells, SchedulerKind::Rayon, 2).map(|(t, _)| t.as_secs_f64());
        let ms = |t: Option<f64>| t.map_or("–".to_string(), |t| format!("{:.2}", t * 1e3));
        let ratio = |x: Option<f64>| x.map_or("–".to_string(), |x| format!("{x:.2}"));
        let mut col = Vec::new();
        for &k in kinds {
            let one = time(&cells, k, 1);
            let two = time(&cells, k, 2);
            let (t1, t2) = (
                one.map(|(t, _)| t.as_secs_f64()),
                two.map(|(t, _)| t.as_secs_f64()),
            );
            let speedup = t1.zip(t2).map(|(a, b)| a / b);
            col.push(speedup);
            let stats = two.and_then(|(_, s)| s);
            let s = |f: fn(&splitsteal::Stats) -> u64| {
                stats.map_or("–".to_string(), |st| f(&st).to_string())
            };
            let emulated =
                SPAWNING.contains(&spec.name) && k.spawn_kind() == SpawnKind::JoinEmulated;
            println!(
                "| {}{} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                k.name(),
                if emulated { " †" } else { "" },
                ms(t1),
                ms(t2),
                ratio(speedup),
                ratio(t1.zip(serial).map(|(t, s)| t / s)),
                ratio(t2.zip(rayon2).map(|(t, r)| r / t)),
                s(|x| x.steals),
                s(|x| x.exposures),
                s(|x| x.cas),
                s(|x| x.fences),
            );
        }
        println!();
        speedups.push((spec.name, col));
    }
    println!("### 2-thread speedup (the scheduler's own 1-thread median / its 2-thread median)\n");
    print!("| scheduler |");
    for (name, _) in &speedups {
        print!(" {name} |");
    }
    println!();
    println!("|---|{}", "---:|".repeat(speedups.len()));
    for (i, k) in kinds.iter().enumerate() {
        if *k == SchedulerKind::Serial {
            continue;
        }
        print!("| {} |", k.name());
        for (name, col) in &speedups {
            let mark = if SPAWNING.contains(name) && k.spawn_kind() == SpawnKind::JoinEmulated {
                " †"
            } else {
                ""
            };
            match col[i] {
                Some(x) => print!(" {x:.2}{mark} |"),
                None => print!(" – |"),
            }
        }
        println!();
    }
    if kinds
        .iter()
        .any(|k| k.spawn_kind() == SpawnKind::JoinEmulated)
    {
        println!(
            "\n† chili has no spawn: in {} each spawn is emulated with a join whose offered side is the spawned task and whose first side is the rest of the scope.",
            SPAWNING.join(" and ")
        );
    }
}

//! Issue 3's measurement: `fib(32)` with a join at every call and the sum of a complete
//! binary tree of 2^24 - 1 heap nodes with a join at every node (chili's benchmark), on
//! every splitsteal policy, rayon and chili, at 1 and 2 threads, side by side in one run.
//!
//! `cargo run --release -p splitsteal-bench --example runtime [-- REPS [--window N|max]]`
//! (`RUNTIME_SCHEDULERS=serial,rayon,lcws-signal` runs a subset; serial and rayon are the
//! ratios' baselines).
//!
//! Schedulers are interleaved within each repetition (machine drift hits all alike); the
//! table gives medians, the ratio to the serial code (the serial elision on the same
//! workload code), the ratio to rayon, and the splitsteal `Stats` of the median run.

use std::time::Duration;

use splitsteal_bench::sched::{PoolOptions, Scheduler, SchedulerKind};
use splitsteal_bench::workloads::fib::Fib;
use splitsteal_bench::workloads::treesum::TreeSum;
use splitsteal_bench::workloads::Workload;

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
    for rep in 0..=reps {
        for (s, cell) in scheds.iter().zip(cells.iter_mut()) {
            let t = s.run(w, w.input());
            if let Err(e) = w.check(&t.output) {
                panic!("{name} on {}: FAILED: {e}", s.label());
            }
            if rep > 0 {
                // rep 0 is the warm-up
                cell.times.push(t.time);
                cell.stats.push(t.stats);
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
    let reps: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let window = match args.iter().position(|a| a == "--window") {
        Some(i) => match args.get(i + 1).map(String::as_str) {
            Some("max") => Some(usize::MAX),
            Some(n) => Some(n.parse().expect("--window N|max")),
            None => panic!("--window N|max"),
        },
        None => None,
    };
    let opts = PoolOptions {
        lcws_window: window,
        ..PoolOptions::default()
    };
    println!(
        "{} (median of {reps} runs after a warm-up)\n",
        opts.describe()
    );
    let fib = Fib::new(32);
    let tree = TreeSum::new(24);
    for threads in [1, 2] {
        // `RUNTIME_SCHEDULERS=serial,lcws-signal,rayon` restricts the set (serial and rayon
        // are needed for the ratios).
        let only: Option<Vec<String>> = std::env::var("RUNTIME_SCHEDULERS")
            .ok()
            .map(|v| v.split(',').map(str::to_string).collect());
        let scheds: Vec<Scheduler> = SchedulerKind::all()
            .into_iter()
            .filter(|k| {
                only.as_ref()
                    .is_none_or(|o| o.iter().any(|n| n == k.name()))
            })
            .map(|k| Scheduler::build_with(k, threads, opts).expect("pool"))
            .collect();
        for (name, cells) in [
            ("fib(32)", measure("fib", &fib, &scheds, reps)),
            ("treesum(2^24-1)", measure("treesum", &tree, &scheds, reps)),
        ] {
            let serial = median(&cells[0]).0.as_secs_f64();
            let rayon = cells
                .iter()
                .find(|c| c.label.starts_with("rayon"))
                .map(|c| median(c).0.as_secs_f64())
                .unwrap();
            println!("### {name}, {threads} thread(s)\n");
            println!("| scheduler | median ms | × serial | × rayon | CAS | fences | steals | exposures | signals | tasks |");
            println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            for cell in &cells {
                let (t, stats) = median(cell);
                let t = t.as_secs_f64();
                let s = |f: fn(&splitsteal::Stats) -> u64| {
                    stats.map_or("–".to_string(), |st| f(&st).to_string())
                };
                println!(
                    "| {} | {:.2} | {:.2} | {:.2} | {} | {} | {} | {} | {} | {} |",
                    cell.label,
                    t * 1e3,
                    t / serial,
                    rayon / t,
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
}

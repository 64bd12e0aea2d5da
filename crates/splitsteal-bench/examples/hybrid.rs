//! Issue 5's measurement: the hybrid (mailboxing) policy against classical work stealing
//! and LCWS on this machine, P = 2 workers.
//!
//! 1. **Start latency** (low-latency thesis, §4.2.2): an origin task spawns N tasks (N = 2, 8,
//!    32, 128), 100 runs per configuration, configurations interleaved; the start delay of the
//!    first task on the *other* worker and of the last task (median, p90, max).
//! 2. **Throughput** on the `par`-based workloads (PBBS integer sort, comparison sort,
//!    histogram, remove duplicates, BFS): median time, and the ratio to the best classical
//!    policy measured in the same run.
//! 3. **Which deque under the mailboxes**: every configuration above exists for `hybrid`
//!    on the Chase-Lev, ABP and split (`lcws-signal`) deques, and for even and uneven
//!    mailing.
//!
//! `cargo run --release -p splitsteal-bench --example hybrid [-- RUNS]`

use std::time::Duration;

use splitsteal::{Mailing, Policy, ThreadPoolBuilder};
use splitsteal_bench::sched::{Scheduler, Workload};
use splitsteal_bench::workloads::latency::{summarize, StartLatency};
use splitsteal_bench::workloads::{find, Size};

fn configs() -> Vec<(String, Scheduler)> {
    let mut v = Vec::new();
    let plain = [
        Policy::ChaseLev,
        Policy::Abp,
        Policy::LcwsSignal,
        Policy::LcwsPoll,
    ];
    for p in plain {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(p)
            .build()
            .unwrap();
        v.push((p.to_string(), Scheduler::from_splitsteal_pool(pool)));
    }
    for base in [Policy::ChaseLev, Policy::Abp, Policy::LcwsSignal] {
        for mailing in [Mailing::Even, Mailing::Uneven] {
            let pool = ThreadPoolBuilder::new()
                .num_threads(2)
                .policy(Policy::Hybrid)
                .hybrid_base(base)
                .mailing(mailing)
                .build()
                .unwrap();
            let m = if mailing == Mailing::Even {
                "even"
            } else {
                "uneven"
            };
            v.push((
                format!("hybrid/{base}/{m}"),
                Scheduler::from_splitsteal_pool(pool),
            ));
        }
    }
    v
}

fn pct(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let scheds = configs();

    println!("## Start latency, P = 2, {runs} runs (µs after the origin task started)\n");
    println!("| N | scheduler | runs with a task on the other worker | first other p50 | p90 | max | last p50 | p90 | max |");
    println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    for n in [2usize, 8, 32, 128] {
        let w = StartLatency { n };
        let mut first: Vec<Vec<f64>> = vec![Vec::new(); scheds.len()];
        let mut last: Vec<Vec<f64>> = vec![Vec::new(); scheds.len()];
        for rep in 0..=runs {
            for (k, (_, s)) in scheds.iter().enumerate() {
                let out = s.run(&w, w.input()).output;
                let sample = summarize(&out);
                sample.exactly_once.expect("every task exactly once");
                if rep == 0 {
                    continue; // warm-up
                }
                if let Some(f) = sample.first_other {
                    first[k].push(f.as_secs_f64() * 1e6);
                }
                last[k].push(sample.last.as_secs_f64() * 1e6);
            }
        }
        for (k, (name, _)) in scheds.iter().enumerate() {
            first[k].sort_by(f64::total_cmp);
            last[k].sort_by(f64::total_cmp);
            let f = &first[k];
            let l = &last[k];
            println!(
                "| {n} | {name} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
                f.len(),
                pct(f, 0.5),
                pct(f, 0.9),
                pct(f, 1.0),
                pct(l, 0.5),
                pct(l, 0.9),
                pct(l, 1.0)
            );
        }
    }

    println!(
        "\n## Throughput on the par-based workloads (full inputs), P = 2 (median of 11 runs, ms)\n"
    );
    let names = ["isort-rand", "sort", "histogram", "dedup", "bfs"];
    let workloads: Vec<_> = names
        .iter()
        .map(|n| (*n, (find(n).unwrap().build)(Size::Full, 0x5eed)))
        .collect();
    print!("| scheduler |");
    for n in names {
        print!(" {n} |");
    }
    println!(" geomean × best classical |");
    println!("|---|{}---:|", "---:|".repeat(names.len()));
    let mut med = vec![vec![0f64; names.len()]; scheds.len()];
    for (j, (_, w)) in workloads.iter().enumerate() {
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); scheds.len()];
        for rep in 0..12 {
            for (k, (_, s)) in scheds.iter().enumerate() {
                let o = w.run_on(s);
                o.check.expect("verified");
                if rep > 0 {
                    times[k].push(o.time);
                }
            }
        }
        for k in 0..scheds.len() {
            times[k].sort();
            med[k][j] = times[k][times[k].len() / 2].as_secs_f64() * 1e3;
        }
    }
    // Best classical (chase-lev or abp) per workload.
    let best: Vec<f64> = (0..names.len()).map(|j| med[0][j].min(med[1][j])).collect();
    for (k, (name, _)) in scheds.iter().enumerate() {
        print!("| {name} |");
        let mut log = 0.0;
        for j in 0..names.len() {
            print!(" {:.2} |", med[k][j]);
            log += (med[k][j] / best[j]).ln();
        }
        println!(" {:.3} |", (log / names.len() as f64).exp());
    }
}

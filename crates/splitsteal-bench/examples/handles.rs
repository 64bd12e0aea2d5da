//! Join handles against what rayon users reach for: awaiting 10,000 `spawn_handle`
//! results from tokio against tokio-rayon's `spawn`, and `spawn_handle` + `join` against
//! rayon's `spawn` + a channel. Each task's work is a few multiplications, so the times are
//! the cost of spawning a task and getting its result back.
//!
//! `cargo run --release -p splitsteal-bench --example handles [-- ROUNDS [TASKS [THREADS]]]`
//!
//! A fifth program, splitsteal's `spawn` + a channel, separates the handle's cost from the
//! spawn path's.
//!
//! Each round runs the five programs once, in an order that rotates by round (interleaved,
//! so that a busy moment of a shared machine hits all of them), and checks every sum. Per
//! program it prints the median time and the spread (min and max over the rounds), and the
//! per-round ratios' median for each pair. splitsteal's pool and rayon's global pool (which
//! tokio-rayon uses) both get THREADS workers (default: the available parallelism).

use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A task's work: cheap, and not foldable by the compiler.
fn work(i: u64) -> u64 {
    let x = std::hint::black_box(i);
    (x ^ (x >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40
}

fn expected(tasks: u64) -> u64 {
    (0..tasks).map(work).sum()
}

/// Awaits `tasks` splitsteal join handles from a tokio current-thread runtime.
fn splitsteal_from_tokio(
    pool: &splitsteal::ThreadPool,
    rt: &tokio::runtime::Runtime,
    tasks: u64,
) -> u64 {
    rt.block_on(async {
        let handles: Vec<_> = (0..tasks)
            .map(|i| pool.spawn_handle(move || work(i)))
            .collect();
        let mut sum = 0;
        for h in handles {
            sum += h.await.unwrap();
        }
        sum
    })
}

/// The same with tokio-rayon (rayon's global pool).
fn tokio_rayon_from_tokio(rt: &tokio::runtime::Runtime, tasks: u64) -> u64 {
    rt.block_on(async {
        let handles: Vec<_> = (0..tasks)
            .map(|i| tokio_rayon::spawn(move || work(i)))
            .collect();
        let mut sum = 0;
        for h in handles {
            sum += h.await;
        }
        sum
    })
}

/// `spawn_handle` + `join` from the main thread.
fn splitsteal_join(pool: &splitsteal::ThreadPool, tasks: u64) -> u64 {
    let handles: Vec<_> = (0..tasks)
        .map(|i| pool.spawn_handle(move || work(i)))
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).sum()
}

/// splitsteal's `spawn` + a channel: the same spawns without handles, which separates what
/// the handle costs from what the pool's spawn path costs.
fn splitsteal_channel(pool: &splitsteal::ThreadPool, tasks: u64) -> u64 {
    let (tx, rx) = mpsc::channel();
    for i in 0..tasks {
        let tx = tx.clone();
        pool.spawn(move || tx.send(work(i)).unwrap());
    }
    drop(tx);
    rx.iter().sum()
}

/// rayon's `spawn` + a channel, as rayon users collect spawned results.
fn rayon_channel(pool: &rayon::ThreadPool, tasks: u64) -> u64 {
    let (tx, rx) = mpsc::channel();
    for i in 0..tasks {
        let tx = tx.clone();
        pool.spawn(move || tx.send(work(i)).unwrap());
    }
    drop(tx);
    rx.iter().sum()
}

const NAMES: [&str; 5] = [
    "splitsteal spawn_handle, awaited from tokio",
    "tokio-rayon spawn, awaited from tokio",
    "splitsteal spawn_handle + join",
    "rayon spawn + mpsc channel",
    "splitsteal spawn + mpsc channel",
];

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: handles [ROUNDS [TASKS [THREADS]]]";
    let parse = |i: usize, default: u64| -> u64 {
        args.get(i).map_or(default, |s| {
            s.parse().unwrap_or_else(|_| {
                eprintln!("{usage}: {s:?} is not a positive integer");
                std::process::exit(2)
            })
        })
    };
    let rounds = parse(1, 11).max(1) as usize;
    let tasks = parse(2, 10_000);
    let default_threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let threads = parse(3, default_threads).max(1) as usize;

    let pool = splitsteal::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap_or_else(|e| {
            eprintln!("splitsteal pool: {e}");
            std::process::exit(2)
        });
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .unwrap_or_else(|e| {
            eprintln!("rayon's global pool: {e}");
            std::process::exit(2)
        });
    let rayon_pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let want = expected(tasks);

    let run = |which: usize| -> Duration {
        let start = Instant::now();
        let sum = match which {
            0 => splitsteal_from_tokio(&pool, &rt, tasks),
            1 => tokio_rayon_from_tokio(&rt, tasks),
            2 => splitsteal_join(&pool, tasks),
            3 => rayon_channel(&rayon_pool, tasks),
            _ => splitsteal_channel(&pool, tasks),
        };
        let t = start.elapsed();
        if sum != want {
            eprintln!("FAILED: {} summed {sum}, expected {want}", NAMES[which]);
            std::process::exit(1);
        }
        t
    };
    // One warm-up round, not timed.
    for which in 0..NAMES.len() {
        run(which);
    }
    let mut times: [Vec<f64>; NAMES.len()] = Default::default();
    for round in 0..rounds {
        for k in 0..NAMES.len() {
            let which = (round + k) % NAMES.len();
            times[which].push(run(which).as_secs_f64() * 1e3);
        }
    }
    println!("{tasks} tasks, {threads} threads, {rounds} rounds (interleaved); times in ms");
    for (which, name) in NAMES.iter().enumerate() {
        let mut t = times[which].clone();
        let (min, max) = (
            t.iter().copied().fold(f64::INFINITY, f64::min),
            t.iter().copied().fold(0.0, f64::max),
        );
        println!(
            "{name:<46} median {:8.3}  min {min:8.3}  max {max:8.3}",
            median(&mut t)
        );
    }
    for (a, b) in [(0, 1), (2, 3), (4, 3)] {
        let mut ratios: Vec<f64> = times[a].iter().zip(&times[b]).map(|(x, y)| x / y).collect();
        println!(
            "{} / {}: per-round median ratio {:.2}",
            NAMES[a],
            NAMES[b],
            median(&mut ratios)
        );
    }
}

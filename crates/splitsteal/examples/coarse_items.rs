//! A `par_iter` over a few coarse items: 8 items of 20 ms of arithmetic each, on a pool of
//! 2 workers, under every policy. Ideal is 4 item-times (80 ms): each worker runs 4 items.
//! A policy whose thief must wait for its victim to answer (`lcws-poll` while the victim
//! runs an item) leaves items on one worker.
//!
//! Prints, per policy, the median time over the repetitions in item-times and the spread
//! (min–max). An item-time is an eighth of the same 8 items run serially in the same
//! repetition (the serial run is interleaved with the pools': the policies in an order
//! rotated by one each repetition, then the serial run). Every run's output is checked.
//!
//! Run: `cargo run --release -p splitsteal --example coarse_items [-- REPS]` (default 7;
//! about 0.5 s per repetition and policy).

use std::time::{Duration, Instant};

use splitsteal::prelude::*;
use splitsteal::{Policy, ThreadPoolBuilder};

/// One item's work: dependent rounds of a 64-bit mix, for about `ITEM` of time.
fn item(seed: u64, rounds: u64) -> u64 {
    let mut x = seed;
    for _ in 0..rounds {
        x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23) ^ 0xA5A5_5A5A;
    }
    x
}

const ITEMS: u64 = 8;
const ITEM: Duration = Duration::from_millis(20);

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("REPS: a number"))
        .unwrap_or(7);
    // Calibrate the rounds for one item on this machine (the best of a few tries).
    let probe = 1 << 20;
    let best = (0..5)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(item(std::hint::black_box(1), probe));
            t.elapsed()
        })
        .min()
        .unwrap();
    let rounds = (probe as f64 * ITEM.as_secs_f64() / best.as_secs_f64()) as u64;
    let expected: Vec<u64> = (0..ITEMS).map(|i| item(i, rounds)).collect();

    let pools: Vec<_> = Policy::ALL
        .iter()
        .map(|&p| {
            let pool = ThreadPoolBuilder::new()
                .num_threads(2)
                .policy(p)
                .build()
                .unwrap_or_else(|e| panic!("{p}: {e}"));
            (p, pool)
        })
        .collect();
    let mut times = vec![Vec::new(); pools.len()];
    for rep in 0..=reps {
        let mut this_rep = vec![0.0; pools.len()];
        for k in 0..pools.len() {
            let i = (k + rep) % pools.len();
            let (policy, pool) = &pools[i];
            let t = Instant::now();
            let out: Vec<u64> = pool.install(|| {
                (0..ITEMS)
                    .into_par_iter()
                    .map(|i| item(i, rounds))
                    .collect()
            });
            let took = t.elapsed();
            assert_eq!(out, expected, "{policy}: FAILED: wrong output");
            this_rep[i] = took.as_secs_f64();
        }
        let t = Instant::now();
        let serial: Vec<u64> = (0..ITEMS).map(|i| item(i, rounds)).collect();
        let item_time = t.elapsed().as_secs_f64() / ITEMS as f64;
        assert_eq!(serial, expected);
        // Repetition 0 warms up.
        if rep > 0 {
            for (all, took) in times.iter_mut().zip(this_rep) {
                all.push(took / item_time);
            }
        }
    }
    println!(
        "{ITEMS} items of about {ITEM:?} each, 2 workers, {reps} repetitions (ideal: 4 item-times)\n"
    );
    println!("| policy | item-times, median | min–max |");
    println!("|---|---:|---:|");
    for ((policy, _), mut t) in pools.iter().zip(times) {
        t.sort_by(f64::total_cmp);
        println!(
            "| {policy} | {:.2} | {:.2}–{:.2} |",
            t[t.len() / 2],
            t[0],
            t[t.len() - 1]
        );
    }
}

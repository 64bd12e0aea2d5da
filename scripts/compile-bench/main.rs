//! A fixed user program for `scripts/compile-bench.sh`: written the way rayon users write
//! code (iterators, sorts, a `join` quicksort, a fold/reduce word count, a scope), built
//! unchanged against rayon and against splitsteal by the Cargo rename.
use std::collections::HashMap;

use rayon::prelude::*;

// The script's one-line edit changes this line.
const EDIT: u64 = 0;

fn quicksort<T: PartialOrd + Send>(v: &mut [T]) {
    if v.len() <= 32 {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        return;
    }
    let mid = partition(v);
    let (lo, hi) = v.split_at_mut(mid);
    rayon::join(|| quicksort(lo), || quicksort(&mut hi[1..]));
}

fn partition<T: PartialOrd>(v: &mut [T]) -> usize {
    let pivot = v.len() - 1;
    let mut store = 0;
    for i in 0..pivot {
        if v[i] <= v[pivot] {
            v.swap(i, store);
            store += 1;
        }
    }
    v.swap(store, pivot);
    store
}

fn fib(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    let (a, b) = rayon::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn word_count(text: &str) -> HashMap<&str, usize> {
    text.par_lines()
        .fold(HashMap::new, |mut m, line| {
            for w in line.split_whitespace() {
                *m.entry(w).or_insert(0) += 1;
            }
            m
        })
        .reduce(HashMap::new, |mut a, b| {
            for (k, v) in b {
                *a.entry(k).or_insert(0) += v;
            }
            a
        })
}

fn keys(n: usize, seed: u64) -> Vec<u64> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

#[derive(Clone, Debug, PartialEq)]
struct Point {
    x: f64,
    y: f64,
}

fn main() {
    let n = 200_000;
    let v = keys(n, 42 + EDIT);

    let sum: u64 = v.par_iter().map(|&x| x % 1000).sum();
    let evens = v.par_iter().filter(|&&x| x % 2 == 0).count();
    let max = v.par_iter().copied().max().unwrap();
    let found = v.par_iter().position_any(|&x| x == max);
    let squares: Vec<u64> = (0..n as u64).into_par_iter().map(|i| i * i).collect();
    let dot: u64 = v
        .par_iter()
        .zip(squares.par_iter())
        .map(|(a, b)| (a % 7).wrapping_mul(b % 7))
        .sum();
    let chunk_sums: Vec<u64> = v.par_chunks(1024).map(|c| c.iter().sum::<u64>() % 97).collect();
    let (small, big): (Vec<u64>, Vec<u64>) = v.par_iter().partition(|&&x| x < u64::MAX / 2);
    println!("{sum} {evens} {max} {found:?} {dot} {} {} {}", chunk_sums.len(), small.len(), big.len());

    let mut a = v.clone();
    a.par_sort();
    let mut b = v.clone();
    b.par_sort_unstable();
    let mut c = v.clone();
    c.par_sort_by_key(|&x| std::cmp::Reverse(x));
    let mut pts: Vec<Point> = v
        .par_iter()
        .map(|&x| Point {
            x: (x % 1000) as f64,
            y: (x % 997) as f64,
        })
        .collect();
    pts.par_sort_by(|p, q| p.x.partial_cmp(&q.x).unwrap().then(p.y.partial_cmp(&q.y).unwrap()));
    let mut d = v.clone();
    quicksort(&mut d);
    println!("{} {} {} {:?} {}", a == b, b[0], c[0], pts[0], d == a);

    let text: String = (0..20_000)
        .map(|i| format!("w{} w{} w{}\n", i % 13, i % 101, i % 7))
        .collect();
    let counts = word_count(&text);
    let words = text.par_split_whitespace().count();
    let upper: String = text.par_chars().map(|c| c.to_ascii_uppercase()).collect();
    println!("{} {} {} {}", counts.len(), words, upper.len(), fib(20));

    let mut grid = vec![0u32; 512 * 512];
    grid.par_chunks_mut(512).enumerate().for_each(|(row, cells)| {
        for (col, cell) in cells.iter_mut().enumerate() {
            *cell = (row * col) as u32 % 255;
        }
    });
    let nested: u64 = (0..64u64)
        .into_par_iter()
        .map(|i| (0..1000u64).into_par_iter().map(|j| i * j).sum::<u64>())
        .sum();

    let mut partials = vec![0u64; 8];
    rayon::scope(|s| {
        for (i, slot) in partials.iter_mut().enumerate() {
            let v = &v;
            s.spawn(move |_| {
                *slot = v.iter().skip(i).step_by(8).map(|x| x % 13).sum();
            });
        }
    });
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let in_pool: u64 = pool.install(|| v.par_iter().map(|&x| x >> 60).sum());
    let mut sorted_words: Vec<&str> = counts.keys().copied().collect();
    sorted_words.par_sort_unstable();
    let joined: Vec<String> = sorted_words.par_iter().map(|w| w.to_uppercase()).collect();
    println!(
        "{} {} {} {} {}",
        grid.iter().map(|&c| c as u64).sum::<u64>(),
        nested,
        partials.iter().sum::<u64>(),
        in_pool,
        joined.len()
    );
}

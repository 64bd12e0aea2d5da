//! What the two instantiations of the port programs (`programs.rs`) share: the data types,
//! the generated inputs, and the serial reference of every program, written with plain
//! loops and std only, so that an output can be compared with something independent of
//! either library.

use std::collections::HashMap;

/// Added to every squared distance of the n-body step, so that a body's pull on itself
/// (distance 0) is 0 rather than NaN and close encounters stay finite.
pub const SOFTENING: f64 = 1e-3;

/// Length of a segment of the prime sieve (`par_chunks_mut`): 32 KiB of flags, about an
/// L1 cache.
pub const SIEVE_SEGMENT: usize = 1 << 15;

/// A body of the n-body simulation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Position.
    pub pos: [f64; 3],
    /// Velocity.
    pub vel: [f64; 3],
    /// Mass.
    pub mass: f64,
}

/// The input sizes of the port programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortSizes {
    /// Bodies of the n-body step.
    pub bodies: usize,
    /// Rows and columns of the life grid.
    pub life: (usize, usize),
    /// Elements of the quicksort and merge sort inputs (u64).
    pub sort: usize,
    /// Bound of the prime sieve.
    pub sieve: usize,
    /// Bound of the filtered prime count.
    pub prime_count: u32,
    /// Words of the word-frequency text.
    pub words: usize,
    /// Order of the matrices of the product.
    pub matmul: usize,
}

impl PortSizes {
    /// Small enough for a debug-build test in well under a second.
    pub const TEST: PortSizes = PortSizes {
        bodies: 300,
        life: (67, 130),
        sort: 50_000,
        sieve: 200_000,
        prime_count: 30_000,
        words: 20_000,
        matmul: 70,
    };

    /// The example's sizes: each program takes some milliseconds in release.
    pub const EXAMPLE: PortSizes = PortSizes {
        bodies: 2_000,
        life: (1_000, 1_000),
        sort: 1_000_000,
        sieve: 10_000_000,
        prime_count: 1_000_000,
        words: 500_000,
        matmul: 256,
    };
}

/// splitmix64, the generator of every input here (portable, seedable per stream).
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A uniform float in [0, 1) from `x`.
fn unit(x: u64) -> f64 {
    (mix(x) >> 11) as f64 / (1u64 << 53) as f64
}

/// `n` bodies at random positions in the unit cube, at rest, with masses in [0.5, 1.5).
pub fn bodies(n: usize, seed: u64) -> Vec<Body> {
    (0..n as u64)
        .map(|i| {
            let s = mix(seed ^ 0xB0D1) ^ (i * 8);
            Body {
                pos: [unit(s), unit(s + 1), unit(s + 2)],
                vel: [0.0; 3],
                mass: 0.5 + unit(s + 3),
            }
        })
        .collect()
}

/// A random `rows` × `cols` life grid, about a third of the cells alive.
pub fn life_grid(rows: usize, cols: usize, seed: u64) -> Vec<u8> {
    (0..(rows * cols) as u64)
        .map(|i| u8::from(mix(seed ^ 0x11FE ^ (i << 16)).is_multiple_of(3)))
        .collect()
}

/// `n` random u64 keys (duplicates included: keys below `n`).
pub fn keys(n: usize, seed: u64) -> Vec<u64> {
    (0..n as u64)
        .map(|i| mix(seed ^ 0x5047 ^ (i << 20)) % n.max(1) as u64)
        .collect()
}

/// A text of `words` words, 1 to 16 per line, drawn from a vocabulary of 5000 with a
/// skewed (roughly Zipf) frequency, as natural text has.
pub fn text(words: usize, seed: u64) -> String {
    let mut s = String::with_capacity(words * 8);
    let mut i = 0u64;
    let mut left_on_line = 0;
    for _ in 0..words {
        if left_on_line == 0 {
            if !s.is_empty() {
                s.push('\n');
            }
            left_on_line = 1 + mix(seed ^ 0x7E47 ^ i) % 16;
            i += 1;
        } else {
            s.push(' ');
        }
        left_on_line -= 1;
        // Rank ∝ 1/u: a few words very often, most rarely.
        let u = unit(seed ^ 0x3011 ^ (i << 8)) + 1e-9;
        i += 1;
        let rank = ((1.0 / u) as u64).min(5000);
        s.push_str(&format!("w{rank}"));
    }
    s
}

/// An `n` × `n` matrix of small integers (as f64), so that products are exact.
pub fn matrix(n: usize, seed: u64) -> Vec<f64> {
    (0..(n * n) as u64)
        .map(|i| (mix(seed ^ 0x3A7 ^ (i << 12)) % 10) as f64)
        .collect()
}

/// The primes up to and including `n` (a plain sieve).
pub fn small_primes(n: usize) -> Vec<u32> {
    let mut sieve = vec![true; n + 1];
    let mut out = Vec::new();
    for p in 2..=n {
        if sieve[p] {
            out.push(p as u32);
            let mut m = p * p;
            while m <= n {
                sieve[m] = false;
                m += p;
            }
        }
    }
    out
}

/// Trial division.
pub fn is_prime(x: u32) -> bool {
    if x < 2 {
        return false;
    }
    let mut d = 2u32;
    while d * d <= x {
        if x.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

/// Serial references: the same computations with loops and std only.
pub mod serial {
    use super::*;

    /// [`Body`]s after one n-body step (the same per-body arithmetic, in the same order).
    pub fn nbody_step(bodies: &mut [Body], dt: f64) {
        let snapshot = bodies.to_vec();
        for b in bodies.iter_mut() {
            let mut acc = [0.0f64; 3];
            for o in &snapshot {
                let d = [
                    o.pos[0] - b.pos[0],
                    o.pos[1] - b.pos[1],
                    o.pos[2] - b.pos[2],
                ];
                let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + SOFTENING;
                let s = o.mass / (r2 * r2.sqrt());
                for (a, dk) in acc.iter_mut().zip(d) {
                    *a += dk * s;
                }
            }
            for (v, a) in b.vel.iter_mut().zip(acc) {
                *v += a * dt;
            }
        }
        for b in bodies.iter_mut() {
            for (x, v) in b.pos.iter_mut().zip(b.vel) {
                *x += v * dt;
            }
        }
    }

    /// The next life generation, by counting each cell's eight neighbours on the torus.
    pub fn life_step(grid: &[u8], rows: usize, cols: usize) -> Vec<u8> {
        let mut next = vec![0; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                let mut n = 0;
                for (dr, dc) in [
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, -1),
                    (0, 1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                ] {
                    let rr = (r as isize + dr).rem_euclid(rows as isize) as usize;
                    let cc = (c as isize + dc).rem_euclid(cols as isize) as usize;
                    n += grid[rr * cols + cc];
                }
                let alive = grid[r * cols + c] == 1;
                next[r * cols + c] = u8::from(n == 3 || (alive && n == 2));
            }
        }
        next
    }

    /// `v` sorted (std's stable sort).
    pub fn sorted(v: &[u64]) -> Vec<u64> {
        let mut v = v.to_vec();
        v.sort();
        v
    }

    /// The primes below `n` from a plain (unsegmented) sieve, independent of the segment
    /// arithmetic.
    pub fn primes_below(n: usize) -> Vec<u32> {
        let mut v = small_primes(n);
        if v.last() == Some(&(n as u32)) {
            v.pop();
        }
        v
    }

    /// The primes ≡ 1 (mod 4) below `n`, counted from a sieve.
    pub fn count_primes_1_mod_4(n: u32) -> usize {
        small_primes(n as usize)
            .into_iter()
            .filter(|&p| p < n && p % 4 == 1)
            .count()
    }

    /// Word counts with one `HashMap`.
    pub fn word_frequencies(text: &str) -> HashMap<&str, usize> {
        let mut m = HashMap::new();
        for w in text.split_whitespace() {
            *m.entry(w).or_insert(0) += 1;
        }
        m
    }

    /// The textbook i-j-k triple loop (exact: the entries are small integers).
    pub fn matmul(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
        let mut c = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let mut s = 0.0;
                for k in 0..n {
                    s += a[i * n + k] * b[k * n + j];
                }
                c[i * n + j] = s;
            }
        }
        c
    }
}

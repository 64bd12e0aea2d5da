//! The `port_from_rayon` example's programs, compiled against rayon and against splitsteal
//! from the same source (`splitsteal_workloads::par_iter::{on_rayon, on_splitsteal}` include
//! `examples/port_from_rayon/programs.rs` under the two `use` lines), at test sizes: each
//! output must equal its serial reference, on a 1-thread and a 2-thread pool of each
//! library.

use splitsteal_workloads::par_iter::common::{self, serial, PortSizes};
use splitsteal_workloads::par_iter::{on_rayon, on_splitsteal};

const SEED: u64 = 0x5eed;
const DT: f64 = 1e-4;

struct Pools {
    rayon: Vec<rayon::ThreadPool>,
    splitsteal: Vec<splitsteal::ThreadPool>,
}

fn pools() -> Pools {
    Pools {
        rayon: [1, 2]
            .map(|t| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .unwrap()
            })
            .into(),
        splitsteal: [1, 2]
            .map(|t| {
                splitsteal::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .unwrap()
            })
            .into(),
    }
}

/// Runs `$body` with `$lib` = `on_rayon` in each rayon pool and `$lib` = `on_splitsteal` in
/// each splitsteal pool, and asserts every output equals `$reference`.
macro_rules! both {
    ($name:literal, $reference:expr, |$lib:ident| $body:expr) => {{
        let reference = $reference;
        let pools = pools();
        for p in &pools.rayon {
            let out = p.install(|| {
                use on_rayon as $lib;
                $body
            });
            assert!(
                out == reference,
                "{} on rayon at {} thread(s) differs from the serial reference",
                $name,
                p.current_num_threads()
            );
        }
        for p in &pools.splitsteal {
            let out = p.install(|| {
                use on_splitsteal as $lib;
                $body
            });
            assert!(
                out == reference,
                "{} on splitsteal at {} thread(s) differs from the serial reference",
                $name,
                p.current_num_threads()
            );
        }
    }};
}

const S: PortSizes = PortSizes::TEST;

#[test]
fn nbody_step() {
    let bodies = common::bodies(S.bodies, SEED);
    let mut reference = bodies.clone();
    serial::nbody_step(&mut reference, DT);
    both!("nbody", reference, |lib| {
        let mut b = bodies.clone();
        lib::nbody_step(&mut b, DT);
        b
    });
}

#[test]
fn life_step() {
    let (r, c) = S.life;
    let grid = common::life_grid(r, c, SEED);
    // Three generations: each one's input is the previous parallel output.
    let mut reference = grid.clone();
    for _ in 0..3 {
        reference = serial::life_step(&reference, r, c);
    }
    both!("life", reference, |lib| {
        let mut g = grid.clone();
        for _ in 0..3 {
            g = lib::life_step(&g, r, c);
        }
        g
    });
}

#[test]
fn quicksort_and_mergesort() {
    for v in [
        common::keys(S.sort, SEED),
        common::keys(S.sort, SEED)
            .into_iter()
            .map(|k| k % 4)
            .collect(),
        (0..S.sort as u64).rev().collect(),
        vec![],
        vec![7],
    ] {
        let reference = serial::sorted(&v);
        both!("quicksort", reference.clone(), |lib| {
            let mut w = v.clone();
            lib::quicksort(&mut w);
            w
        });
        both!("mergesort", reference.clone(), |lib| {
            let mut w = v.clone();
            lib::mergesort(&mut w);
            w
        });
    }
}

#[test]
fn primes() {
    for n in [0, 1, 2, 3, 100, common::SIEVE_SEGMENT + 1, S.sieve] {
        both!("sieve", serial::primes_below(n), |lib| lib::primes_below(n));
    }
    for n in [0, 5, 6, S.prime_count] {
        both!("prime-count", serial::count_primes_1_mod_4(n), |lib| {
            lib::count_primes_1_mod_4(n)
        });
    }
}

#[test]
fn word_frequencies() {
    let text = common::text(S.words, SEED);
    both!("wordfreq", serial::word_frequencies(&text), |lib| {
        lib::word_frequencies(&text)
    });
    both!("wordfreq (empty)", serial::word_frequencies(""), |lib| {
        lib::word_frequencies("")
    });
}

#[test]
fn matmul() {
    for n in [1, 2, S.matmul] {
        let (a, b) = (common::matrix(n, SEED), common::matrix(n, SEED ^ 1));
        both!("matmul", serial::matmul(&a, &b, n), |lib| lib::matmul(
            &a, &b, n
        ));
    }
}

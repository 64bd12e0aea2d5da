//! Porting rayon programs to splitsteal: change the `use` line, nothing else.
//!
//! `port_from_rayon/programs.rs` holds classic rayon programs written in rayon's style: an
//! n-body step (`par_iter_mut`, a sequential inner loop), a generation of Conway's life
//! (`into_par_iter` over the cells, `collect`), quicksort and merge sort with `join`, a
//! segmented prime sieve (`par_chunks_mut`, `enumerate`, `filter`, `collect`), a filtered
//! prime count (`filter`, `count`), word frequencies (`par_lines`, `fold` into a `HashMap`
//! per split, `reduce`), and a matrix product (`par_chunks_mut` over the result's rows).
//! This example compiles that one file twice, into [`on_rayon`] under
//! `use rayon::{join, prelude::*};` and into [`on_splitsteal`] under
//! `use splitsteal::{join, prelude::*};`, runs both in a pool of each library, and asserts
//! that each output equals its serial reference (`port_from_rayon/common.rs`, std only).
//!
//! ```text
//! cargo run --release -p splitsteal-workloads --example port_from_rayon [-- THREADS [--small]]
//! ```
//!
//! (default 2 threads; `--small` uses the test sizes). The times it prints are one run
//! each, for orientation; `splitsteal bench --mode iter` measures these programs properly
//! (warm-up, interleaved repetitions, medians). The splitsteal pool uses the default
//! policy, `lcws-signal`.

use std::time::{Duration, Instant};

#[path = "port_from_rayon/common.rs"]
mod common;

// The programs name these as `super::`.
use common::{is_prime, small_primes, Body, PortSizes, SIEVE_SEGMENT, SOFTENING};

/// The programs, on rayon.
mod on_rayon {
    use rayon::{join, prelude::*};
    include!("port_from_rayon/programs.rs");
}

/// The same programs, on splitsteal: the same file, the other `use` line.
mod on_splitsteal {
    use splitsteal::{join, prelude::*};
    include!("port_from_rayon/programs.rs");
}

/// The n-body time step.
const DT: f64 = 1e-4;

/// Runs `$body` with `$lib` naming `on_rayon` inside the rayon pool, then naming
/// `on_splitsteal` inside the splitsteal pool; asserts both outputs equal `$reference`
/// and prints the two times. `$input` (not timed) is evaluated afresh for each run.
macro_rules! port {
    ($pools:expr, $name:literal, $reference:expr, input: $input:expr, |$lib:ident, $x:pat_param| $body:expr) => {{
        let (rayon_pool, splitsteal_pool) = $pools;
        let reference = $reference;
        let $x = $input;
        let t = Instant::now();
        let rayon_out = rayon_pool.install(|| {
            use on_rayon as $lib;
            $body
        });
        let rayon_time = t.elapsed();
        assert!(
            rayon_out == reference,
            "{}: rayon's output differs from the serial one",
            $name
        );
        let $x = $input;
        let t = Instant::now();
        let splitsteal_out = splitsteal_pool.install(|| {
            use on_splitsteal as $lib;
            $body
        });
        let splitsteal_time = t.elapsed();
        assert!(
            splitsteal_out == reference,
            "{}: splitsteal's output differs from the serial one",
            $name
        );
        report($name, rayon_time, splitsteal_time);
    }};
}

fn report(name: &str, rayon: Duration, splitsteal: Duration) {
    println!(
        "{name:<12} ok   rayon {:>9.2} ms   splitsteal {:>9.2} ms",
        rayon.as_secs_f64() * 1e3,
        splitsteal.as_secs_f64() * 1e3
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(2);
    let sizes = if args.iter().any(|a| a == "--small") {
        PortSizes::TEST
    } else {
        PortSizes::EXAMPLE
    };
    let rayon_pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("rayon pool");
    let splitsteal_pool = splitsteal::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("splitsteal pool");
    println!(
        "{threads} threads; splitsteal policy {}; sizes {sizes:?}",
        splitsteal_pool.policy()
    );
    let pools = (&rayon_pool, &splitsteal_pool);
    let seed = 0x5eed;

    let bodies = common::bodies(sizes.bodies, seed);
    port!(pools, "nbody", {
        let mut b = bodies.clone();
        common::serial::nbody_step(&mut b, DT);
        b
    }, input: bodies.clone(), |lib, mut b| {
        lib::nbody_step(&mut b, DT);
        b
    });

    let (rows, cols) = sizes.life;
    let grid = common::life_grid(rows, cols, seed);
    port!(pools, "life", common::serial::life_step(&grid, rows, cols), input: (), |lib, ()| {
        lib::life_step(&grid, rows, cols)
    });

    let keys = common::keys(sizes.sort, seed);
    port!(pools, "quicksort", common::serial::sorted(&keys), input: keys.clone(), |lib, mut v| {
        lib::quicksort(&mut v);
        v
    });
    port!(pools, "mergesort", common::serial::sorted(&keys), input: keys.clone(), |lib, mut v| {
        lib::mergesort(&mut v);
        v
    });

    port!(pools, "sieve", common::serial::primes_below(sizes.sieve), input: (), |lib, ()| {
        lib::primes_below(sizes.sieve)
    });
    port!(
        pools,
        "prime-count",
        common::serial::count_primes_1_mod_4(sizes.prime_count),
        input: (),
        |lib, ()| lib::count_primes_1_mod_4(sizes.prime_count)
    );

    let text = common::text(sizes.words, seed);
    port!(pools, "wordfreq", common::serial::word_frequencies(&text), input: (), |lib, ()| {
        lib::word_frequencies(&text)
    });

    let n = sizes.matmul;
    let (a, b) = (common::matrix(n, seed), common::matrix(n, seed ^ 1));
    port!(pools, "matmul", common::serial::matmul(&a, &b, n), input: (), |lib, ()| {
        lib::matmul(&a, &b, n)
    });

    println!("every output equals its serial reference, on both libraries");
}

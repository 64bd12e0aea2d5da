//! The programs of the `iter` section: rayon-style parallel-iterator code,
//! written once and compiled twice, against `rayon::prelude` ([`on_rayon`]) and against
//! `splitsteal::prelude` ([`on_splitsteal`]). The two modules include the same files; each
//! has one `use` line of its own:
//!
//! | module | its only import | included |
//! |---|---|---|
//! | [`on_rayon`] | `use rayon::{join, prelude::*};` | `fine.rs`, `examples/port_from_rayon/programs.rs` |
//! | [`on_splitsteal`] | `use splitsteal::{join, prelude::*};` | the same two files |
//!
//! - **fine-grained** (`fine.rs`): a few nanoseconds per item, so splitting and reducing
//!   dominate: a map-sum over a range, a nested `par_iter` over short rows, filter+count,
//!   collect of a map, a zip dot product, flat_map into short ranges, `par_sort_unstable`;
//! - **port** (`examples/port_from_rayon/programs.rs`, the `port_from_rayon` example's own
//!   source): classic rayon programs (n-body, life, quicksort and merge sort with `join`, a
//!   segmented sieve, a filtered prime count, word frequencies with fold+reduce, a matrix
//!   product over `par_chunks_mut`).
//!
//! Every program's output is compared with a serial reference written with std only
//! ([`common::serial`] and plain iterators here). [`programs`] lists them as
//! [`WorkloadSpec`]s whose workloads run on the pools of [`Scheduler`]s that have parallel
//! iterators ([`Scheduler::run_par_iter`]): rayon and the splitsteal policies.

use std::collections::HashMap;
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use crate::sched::{ParIterLib, Scheduler};
use crate::workloads::{panic_message, DynWorkload, Group, RunOutcome, Size, WorkloadSpec};

#[path = "../../examples/port_from_rayon/common.rs"]
pub mod common;

// The port programs name their shared types and helpers as `super::`.
use common::{is_prime, small_primes, Body, SIEVE_SEGMENT, SOFTENING};

/// The programs on rayon: `fine.rs` and the port programs under `rayon::prelude`.
pub mod on_rayon {
    use rayon::{join, prelude::*};
    include!("fine.rs");
    include!("surface.rs");
    include!("../../examples/port_from_rayon/programs.rs");
}

/// The same programs under `splitsteal::prelude`: the same files, the other `use` line.
pub mod on_splitsteal {
    use splitsteal::{join, prelude::*};
    include!("fine.rs");
    include!("surface.rs");
    include!("../../examples/port_from_rayon/programs.rs");
}

/// Calls program `$f` of the library `$lib` (a [`ParIterLib`]).
macro_rules! on {
    ($lib:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $lib {
            ParIterLib::Splitsteal => on_splitsteal::$f($($arg),*),
            ParIterLib::Rayon => on_rayon::$f($($arg),*),
        }
    };
    ($lib:expr, $f:ident::<$($t:ty),*>($($arg:expr),* $(,)?)) => {
        match $lib {
            ParIterLib::Splitsteal => on_splitsteal::$f::<$($t),*>($($arg),*),
            ParIterLib::Rayon => on_rayon::$f::<$($t),*>($($arg),*),
        }
    };
}

mod surface_specs;
// The surface programs call their element functions as `super::`.
use surface_specs::{heavy, scramble};

/// A parallel-iterator program: its data, a run on either library, a check against the
/// serial reference.
pub trait Program: Send + Sync {
    /// What one run consumes (a fresh copy of the data to sort in place), `()` if the
    /// program only reads the data it owns.
    type Input: Send;
    /// What one run produces (it may borrow the program's data: word frequencies do).
    type Output<'a>: Send
    where
        Self: 'a;

    /// Prepares the input of one run (not timed).
    fn input(&self) -> Self::Input;

    /// The timed part, inside the pool: the program on `lib`'s prelude.
    fn run(&self, lib: ParIterLib, input: Self::Input) -> Self::Output<'_>;

    /// Compares an output with the serial reference (not timed).
    fn check(&self, out: &Self::Output<'_>) -> Result<(), String>;
}

/// A [`Program`] as a [`DynWorkload`], so that the suite's runner measures it: prepare the
/// input, run it in the scheduler's pool with the scheduler's library (timed), check it.
/// A scheduler without parallel iterators (serial, chili) fails the check.
pub struct AsWorkload<P>(pub P);

impl<P: Program> DynWorkload for AsWorkload<P> {
    fn run_on(&self, s: &Scheduler) -> RunOutcome {
        let failed = |e: String| RunOutcome {
            time: Duration::ZERO,
            stats: None,
            cpu: Duration::ZERO,
            check: Err(e),
        };
        let input = self.0.input();
        match catch_unwind(AssertUnwindSafe(|| {
            s.run_par_iter(|lib| self.0.run(lib, input))
        })) {
            Ok(Some(t)) => {
                let check = self.0.check(&t.output);
                drop(t.output);
                RunOutcome {
                    time: t.time,
                    stats: t.stats,
                    cpu: t.cpu,
                    check,
                }
            }
            Ok(None) => failed(format!("{} has no parallel iterators", s.label())),
            Err(p) => failed(format!("panicked: {}", panic_message(&*p))),
        }
    }
}

/// The common shape: data, an owned output compared with a precomputed reference.
struct Prog<D, I, O> {
    data: D,
    reference: O,
    input: fn(&D) -> I,
    run: fn(ParIterLib, &D, I) -> O,
    compare: fn(&O, &O) -> Result<(), String>,
}

impl<D, I, O> Program for Prog<D, I, O>
where
    D: Send + Sync,
    I: Send,
    O: Send + Sync,
{
    type Input = I;
    type Output<'a>
        = O
    where
        Self: 'a;

    fn input(&self) -> I {
        (self.input)(&self.data)
    }

    fn run(&self, lib: ParIterLib, input: I) -> O {
        (self.run)(lib, &self.data, input)
    }

    fn check(&self, out: &O) -> Result<(), String> {
        (self.compare)(out, &self.reference)
    }
}

/// Reads only the data it owns.
fn no_input<D>(_: &D) {}

/// `Debug` of `x`, cut to a readable length.
fn short(x: &impl Debug) -> String {
    clip(&format!("{x:?}"), 0)
}

/// 100 characters of `s` from character `from`, with `…` where it is cut.
fn clip(s: &str, from: usize) -> String {
    let n = s.chars().count();
    let part: String = s.chars().skip(from).take(100).collect();
    let before = if from > 0 { "…" } else { "" };
    let after = if from + 100 < n { "…" } else { "" };
    format!("{before}{part}{after}")
}

/// Equality with the reference; shows both `Debug` texts from a little before their
/// first difference.
#[doc(hidden)] // public for the module tests (tests/modules)
pub fn same<O: PartialEq + Debug>(got: &O, want: &O) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let (g, w) = (format!("{got:?}"), format!("{want:?}"));
    let common = g.chars().zip(w.chars()).take_while(|(a, b)| a == b).count();
    let from = common.saturating_sub(30);
    Err(format!(
        "got {}, the serial reference gives {}",
        clip(&g, from),
        clip(&w, from)
    ))
}

/// Element-wise equality with the reference; names the first difference.
#[allow(clippy::ptr_arg)] // a `compare` of `Vec` outputs: `fn(&O, &O)` with `O = Vec<T>`
#[doc(hidden)] // public for the module tests (tests/modules)
pub fn same_vec<T: PartialEq + Debug>(got: &Vec<T>, want: &Vec<T>) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{} elements, the serial reference has {}",
            got.len(),
            want.len()
        ));
    }
    match got.iter().zip(want).position(|(a, b)| a != b) {
        None => Ok(()),
        Some(i) => Err(format!(
            "element {i} is {}, the serial reference has {}",
            short(&got[i]),
            short(&want[i])
        )),
    }
}

/// Boxes a program for the runner.
fn boxed<P: Program + 'static>(p: P) -> Box<dyn DynWorkload> {
    Box::new(AsWorkload(p))
}

/// A generated vector of `n` values below `bound` (stream `stream` of `seed`).
fn values(n: usize, bound: u64, seed: u64, stream: u64) -> Vec<u64> {
    (0..n as u64)
        .map(|i| common::mix(seed ^ common::mix(stream) ^ i) % bound)
        .collect()
}

/// The input sizes of the port programs in the bench.
pub fn port_sizes(size: Size) -> common::PortSizes {
    size.pick(
        common::PortSizes::TEST,
        common::PortSizes {
            bodies: 1_500,
            life: (500, 500),
            sort: 200_000,
            sieve: 4_000_000,
            prime_count: 300_000,
            words: 150_000,
            matmul: 300,
        },
        common::PortSizes {
            bodies: 2_500,
            life: (1_000, 1_000),
            sort: 500_000,
            sieve: 10_000_000,
            prime_count: 600_000,
            words: 400_000,
            matmul: 400,
        },
    )
}

/// Input sizes of the fine-grained programs.
mod fine_sizes {
    use super::Size;

    /// `sum-map`: range length.
    pub fn sum_map(s: Size) -> u64 {
        s.pick(10_000, 10_000_000, 10_000_000)
    }
    /// `nested-sum`: (rows, row length).
    pub fn nested(s: Size) -> (usize, usize) {
        s.pick((100, 16), (20_000, 64), (50_000, 64))
    }
    /// The vectors of `filter-count`, `collect-map`, `dot`.
    pub fn vector(s: Size) -> usize {
        s.pick(10_000, 2_000_000, 4_000_000)
    }
    /// `flat-map`: outer range length.
    pub fn flat_map(s: Size) -> u64 {
        s.pick(10_000, 100_000, 300_000)
    }
    /// `par-sort`: elements.
    pub fn sort(s: Size) -> usize {
        s.pick(10_000, 1_000_000, 1_000_000)
    }
}

/// The time step of the n-body program.
const DT: f64 = 1e-4;

fn spec(
    name: &'static str,
    group: Group,
    description: &'static str,
    params: fn(Size) -> String,
    build: fn(Size, u64) -> Box<dyn DynWorkload>,
) -> WorkloadSpec {
    WorkloadSpec {
        name,
        group,
        description,
        params,
        build,
    }
}

/// The fine-grained programs.
fn fine() -> Vec<WorkloadSpec> {
    let g = Group::ParIterFine;
    vec![
        spec(
            "sum-map",
            g,
            "(0..n).into_par_iter().map(|x| x ^ x >> 3).sum()",
            |s| format!("n = {}", fine_sizes::sum_map(s)),
            |s, _| {
                let n = fine_sizes::sum_map(s);
                boxed(Prog {
                    data: n,
                    reference: (0..n).map(|x| x ^ (x >> 3)).sum::<u64>(),
                    input: no_input,
                    run: |lib, &n, ()| on!(lib, sum_map(n)),
                    compare: same,
                })
            },
        ),
        spec(
            "nested-sum",
            g,
            "rows.par_iter().map(|row| row.par_iter().sum()).sum() over short rows",
            |s| {
                let (r, c) = fine_sizes::nested(s);
                format!("{r} rows × {c} u64")
            },
            |s, seed| {
                let (r, c) = fine_sizes::nested(s);
                let rows: Vec<Vec<u64>> = (0..r)
                    .map(|i| values(c, 1 << 20, seed, 0x4E57 + i as u64))
                    .collect();
                let reference = rows.iter().flatten().sum::<u64>();
                boxed(Prog {
                    data: rows,
                    reference,
                    input: no_input,
                    run: |lib, rows, ()| on!(lib, nested_sum(rows)),
                    compare: same,
                })
            },
        ),
        spec(
            "filter-count",
            g,
            "v.par_iter().filter(|x| x % 3 == 0).count()",
            |s| format!("{} u64", fine_sizes::vector(s)),
            |s, seed| {
                let v = values(fine_sizes::vector(s), u64::MAX, seed, 0xF17);
                let reference = v.iter().filter(|&&x| x % 3 == 0).count();
                boxed(Prog {
                    data: v,
                    reference,
                    input: no_input,
                    run: |lib, v, ()| on!(lib, filter_count(v)),
                    compare: same,
                })
            },
        ),
        spec(
            "collect-map",
            g,
            "v.par_iter().map(hash).collect::<Vec<u64>>()",
            |s| format!("{} u64", fine_sizes::vector(s)),
            |s, seed| {
                let v = values(fine_sizes::vector(s), u64::MAX, seed, 0xC011);
                let reference: Vec<u64> = v
                    .iter()
                    .map(|&x| x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7)
                    .collect();
                boxed(Prog {
                    data: v,
                    reference,
                    input: no_input,
                    run: |lib, v, ()| on!(lib, collect_map(v)),
                    compare: same_vec,
                })
            },
        ),
        spec(
            "dot-zip",
            g,
            "a.par_iter().zip(b).map(|(x, y)| x * y).sum() (f64, integer-valued: exact)",
            |s| format!("2 × {} f64", fine_sizes::vector(s)),
            |s, seed| {
                let n = fine_sizes::vector(s);
                let a: Vec<f64> = values(n, 1000, seed, 0xD07A)
                    .into_iter()
                    .map(|x| x as f64)
                    .collect();
                let b: Vec<f64> = values(n, 1000, seed, 0xD07B)
                    .into_iter()
                    .map(|x| x as f64)
                    .collect();
                let reference = a.iter().zip(&b).map(|(x, y)| x * y).sum::<f64>();
                boxed(Prog {
                    data: (a, b),
                    reference,
                    input: no_input,
                    run: |lib, (a, b), ()| on!(lib, dot(a, b)),
                    compare: same,
                })
            },
        ),
        spec(
            "flat-map",
            g,
            "(0..n).into_par_iter().flat_map(|i| 0..i % 16).map(|j| 2j + 1).sum()",
            |s| format!("n = {} (≈7.5 items each)", fine_sizes::flat_map(s)),
            |s, _| {
                let n = fine_sizes::flat_map(s);
                boxed(Prog {
                    data: n,
                    reference: (0..n)
                        .flat_map(|i| 0..i % 16)
                        .map(|j| 2 * j + 1)
                        .sum::<u64>(),
                    input: no_input,
                    run: |lib, &n, ()| on!(lib, flat_map_ranges(n)),
                    compare: same,
                })
            },
        ),
        spec(
            "par-sort",
            g,
            "v.par_sort_unstable() of random u64",
            |s| format!("{} u64", fine_sizes::sort(s)),
            |s, seed| {
                let v = values(fine_sizes::sort(s), u64::MAX, seed, 0x5027);
                let mut reference = v.clone();
                reference.sort_unstable();
                boxed(Prog {
                    data: v,
                    reference,
                    input: |v| v.clone(),
                    run: |lib, _, mut v| {
                        on!(lib, sort_unstable(&mut v));
                        v
                    },
                    compare: same_vec,
                })
            },
        ),
    ]
}

/// Word frequencies: the output borrows the text, so it is not a [`Prog`].
struct WordFreq {
    text: String,
    reference: HashMap<String, usize>,
    /// The program: a word count of the text on a library.
    count: for<'a> fn(ParIterLib, &'a str) -> HashMap<&'a str, usize>,
}

impl Program for WordFreq {
    type Input = ();
    type Output<'a> = HashMap<&'a str, usize>;

    fn input(&self) {}

    fn run(&self, lib: ParIterLib, (): ()) -> HashMap<&str, usize> {
        (self.count)(lib, &self.text)
    }

    fn check(&self, out: &HashMap<&str, usize>) -> Result<(), String> {
        if out.len() != self.reference.len() {
            return Err(format!(
                "{} distinct words, the serial reference has {}",
                out.len(),
                self.reference.len()
            ));
        }
        for (w, &k) in &self.reference {
            let got = out.get(w.as_str()).copied().unwrap_or(0);
            if got != k {
                return Err(format!(
                    "`{w}` counted {got} times, the serial reference {k}"
                ));
            }
        }
        Ok(())
    }
}

/// The port programs (the `port_from_rayon` example's source) at bench sizes.
fn port() -> Vec<WorkloadSpec> {
    let g = Group::ParIterPort;
    vec![
        spec(
            "nbody",
            g,
            "one all-pairs n-body step: par_iter_mut over the bodies, a sequential inner loop",
            |s| format!("{} bodies", port_sizes(s).bodies),
            |s, seed| {
                let b = common::bodies(port_sizes(s).bodies, seed);
                let mut reference = b.clone();
                common::serial::nbody_step(&mut reference, DT);
                boxed(Prog {
                    data: b,
                    reference,
                    input: |b| b.clone(),
                    run: |lib, _, mut b| {
                        on!(lib, nbody_step(&mut b, DT));
                        b
                    },
                    compare: same_vec,
                })
            },
        ),
        spec(
            "life",
            g,
            "one generation of Conway's life on a torus: into_par_iter over the cells, map, collect",
            |s| {
                let (r, c) = port_sizes(s).life;
                format!("{r} × {c} cells")
            },
            |s, seed| {
                let (r, c) = port_sizes(s).life;
                let grid = common::life_grid(r, c, seed);
                let reference = common::serial::life_step(&grid, r, c);
                boxed(Prog {
                    data: (grid, r, c),
                    reference,
                    input: no_input,
                    run: |lib, (g, r, c), ()| on!(lib, life_step(g, *r, *c)),
                    compare: same_vec,
                })
            },
        ),
        spec(
            "quicksort",
            g,
            "quicksort with join over the two sides of each partition",
            |s| format!("{} u64", port_sizes(s).sort),
            |s, seed| {
                let v = common::keys(port_sizes(s).sort, seed);
                let reference = common::serial::sorted(&v);
                boxed(Prog {
                    data: v,
                    reference,
                    input: |v| v.clone(),
                    run: |lib, _, mut v| {
                        on!(lib, quicksort(&mut v));
                        v
                    },
                    compare: same_vec,
                })
            },
        ),
        spec(
            "mergesort",
            g,
            "merge sort with join over the halves and a parallel (join) merge",
            |s| format!("{} u64", port_sizes(s).sort),
            |s, seed| {
                let v = common::keys(port_sizes(s).sort, seed ^ 1);
                let reference = common::serial::sorted(&v);
                boxed(Prog {
                    data: v,
                    reference,
                    input: |v| v.clone(),
                    run: |lib, _, mut v| {
                        on!(lib, mergesort(&mut v));
                        v
                    },
                    compare: same_vec,
                })
            },
        ),
        spec(
            "sieve",
            g,
            "segmented prime sieve over par_chunks_mut, then enumerate/filter/map/collect",
            |s| format!("primes below {}", port_sizes(s).sieve),
            |s, _| {
                let n = port_sizes(s).sieve;
                boxed(Prog {
                    data: n,
                    reference: common::serial::primes_below(n),
                    input: no_input,
                    run: |lib, &n, ()| on!(lib, primes_below(n)),
                    compare: same_vec,
                })
            },
        ),
        spec(
            "prime-count",
            g,
            "(0..n).into_par_iter().filter(|x| x % 4 == 1 && is_prime(x)).count(), trial division",
            |s| format!("n = {}", port_sizes(s).prime_count),
            |s, _| {
                let n = port_sizes(s).prime_count;
                boxed(Prog {
                    data: n,
                    reference: common::serial::count_primes_1_mod_4(n),
                    input: no_input,
                    run: |lib, &n, ()| on!(lib, count_primes_1_mod_4(n)),
                    compare: same,
                })
            },
        ),
        spec(
            "wordfreq",
            g,
            "word frequencies: par_lines, fold into a HashMap per split, reduce by merging",
            |s| format!("{} words", port_sizes(s).words),
            |s, seed| {
                let text = common::text(port_sizes(s).words, seed);
                let reference = common::serial::word_frequencies(&text)
                    .into_iter()
                    .map(|(w, k)| (w.to_string(), k))
                    .collect();
                boxed(WordFreq {
                    text,
                    reference,
                    count: |lib, t| on!(lib, word_frequencies(t)),
                })
            },
        ),
        spec(
            "matmul-rows",
            g,
            "n × n f64 matrix product, one task per output row (par_chunks_mut + enumerate)",
            |s| {
                let n = port_sizes(s).matmul;
                format!("{n} × {n}")
            },
            |s, seed| {
                let n = port_sizes(s).matmul;
                let a = common::matrix(n, seed);
                let b = common::matrix(n, seed ^ 1);
                let reference = common::serial::matmul(&a, &b, n);
                boxed(Prog {
                    data: (a, b, n),
                    reference,
                    input: no_input,
                    run: |lib, (a, b, n), ()| on!(lib, matmul(a, b, *n)),
                    compare: same_vec,
                })
            },
        ),
    ]
}

/// Every program of the `iter` section, in report order: the fine-grained ones, the port
/// programs, then the surface programs (sources, adaptors, consumers, sorts).
pub fn programs() -> Vec<WorkloadSpec> {
    let mut v = fine();
    v.extend(port());
    v.extend(surface_specs::programs());
    v
}

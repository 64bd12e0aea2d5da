//! The workloads: each written once, generic over [`ForkJoin`] (the spawning ones over
//! [`BenchCtx`], `ForkJoin` plus scope spawns), with a generated input and a serial
//! reference to verify every run's output against.
//!
//! Each implements [`Workload`], which lives in [`crate::sched`] with the contexts it is
//! written against; this module adds the type-erased [`DynWorkload`] and the [`registry`].
//!
//! | group | workloads |
//! |---|---|
//! | low-latency thesis (§4.2.1) | `fib`, `nqueens`, `knapsack`, `matmul`, `strassen`, `cilksort`, `mcpi` |
//! | chili / UTS | `treesum`, `uts` |
//! | PBBS (LCWS-in-practice paper, §5; generated inputs) | see [`registry`] |
//! | shapes | [`shapes`]: shapes users write every day, which a scheduler that runs some joins sequentially for good cannot parallelize |
//!
//! The shapes, [`shapes`]; arithmetic only, so that nothing but the
//! scheduler's willingness to let the coarse work be stolen decides the speedup:
//!
//! | workload | shape |
//! |---|---|
//! | `listwalk` | a linked list walked with `join(|| walk(next), || process(node))`, about 15 µs of arithmetic per node |
//! | `coarsejoin` | inside the first side of 4 nested joins whose second sides are trivial, a `join(big, big)` of two long leaves with no joins inside |
//! | `spawnjoin` | a scope spawns 4 small tasks, then its body runs `join(big, big)` of two long leaves |
//! | `spawnparfor` | a scope spawns 4 small tasks, then its body runs a `par_for` with about 5 µs of arithmetic per element |
//! | `spine` | a chain of joins `join(|| spine(rest), || cheap(item))` whose second sides are about 3 µs each |
//! | `spawnloop` | a scope spawns its tasks from one loop, about 40 µs of arithmetic each |
//!
//! chili has no spawn: under chili, `spawnjoin`, `spawnparfor` and `spawnloop` emulate each spawn with a
//! join ([`BenchCtx::spawn_then`],
//! [`SpawnKind::JoinEmulated`](crate::sched::SpawnKind::JoinEmulated)); the reports say so.
//!
//! Input sizes are per [`Size`]; [`registry`] lists them and the per-rep time each size
//! aims for (on one core of the development machine, serial elision).

use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use splitsteal::{ForkJoin, Stats};

// The workload files import these through `super::`; the items live in `sched`, which runs
// workloads and does not depend on this module.
use crate::sched::{BenchCtx, Scheduler, SpawnTask, Workload};

pub mod cilksort;
pub mod fib;
pub mod knapsack;
pub mod latency;
pub mod matmul;
pub mod mcpi;
pub mod nqueens;
pub mod pbbs;
pub mod shapes;
pub mod treesum;
pub mod uts;

/// The outcome of one run of an erased workload.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    /// Wall time of the run.
    pub time: Duration,
    /// splitsteal counters, if the scheduler has them.
    pub stats: Option<Stats>,
    /// Process CPU time during the run (all threads).
    pub cpu: Duration,
    /// `Ok` if the output matched the reference; the mismatch or panic message otherwise.
    pub check: Result<(), String>,
}

/// A [`Workload`] with its types erased, so that workloads can sit in one list.
pub trait DynWorkload: Send + Sync {
    /// Prepares an input, runs it on `s` (timed), checks the output (not timed). A panic
    /// in the workload or the scheduler is caught and reported as a failed check.
    fn run_on(&self, s: &Scheduler) -> RunOutcome;
}

/// The message of a caught panic.
pub fn panic_message(p: &(dyn Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".into()
    }
}

impl<W: Workload> DynWorkload for W {
    fn run_on(&self, s: &Scheduler) -> RunOutcome {
        let input = self.input();
        match catch_unwind(AssertUnwindSafe(|| s.run(self, input))) {
            Ok(t) => {
                let check = self.check(&t.output);
                drop(t.output);
                RunOutcome {
                    time: t.time,
                    stats: t.stats,
                    cpu: t.cpu,
                    check,
                }
            }
            Err(p) => RunOutcome {
                time: Duration::ZERO,
                stats: None,
                cpu: Duration::ZERO,
                check: Err(format!("panicked: {}", panic_message(&*p))),
            },
        }
    }
}

/// Input size class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Size {
    /// Tiny inputs for `cargo test` (debug builds).
    Test,
    /// `--quick`: about 25 ms per serial run, so the quick suite takes about half a
    /// minute on 2 cores.
    Quick,
    /// The default: about 150–250 ms per serial run.
    Full,
}

impl Size {
    /// `test`, `quick` or `full`.
    pub fn name(self) -> &'static str {
        match self {
            Size::Test => "test",
            Size::Quick => "quick",
            Size::Full => "full",
        }
    }

    /// Picks the value for this size.
    pub fn pick<T>(self, test: T, quick: T, full: T) -> T {
        match self {
            Size::Test => test,
            Size::Quick => quick,
            Size::Full => full,
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a workload comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// The low-latency thesis's throughput benchmarks (§4.2.1).
    LowLatencyThesis,
    /// chili's own benchmark.
    Chili,
    /// Unbalanced tree search (irregular parallelism).
    Uts,
    /// The LCWS-in-practice paper's PBBS benchmarks (§5), on generated inputs.
    Pbbs,
    /// Issue 10's shapes: list walk, coarse join behind pending work, spawns then a coarse
    /// join or a `par_for`.
    Shapes,
    /// The `iter` section's fine-grained parallel-iterator programs, where
    /// splitting and reducing dominate.
    ParIterFine,
    /// The `iter` section's classic rayon programs (the `port_from_rayon` example).
    ParIterPort,
    /// The `iter` section's survey of rayon's sources (`src-*`).
    ParIterSource,
    /// The `iter` section's survey of the adaptors that split in their own way (`ad-*`).
    ParIterAdaptor,
    /// The `iter` section's survey of the consumers (`con-*`).
    ParIterConsumer,
    /// The `iter` section's sorts on five key distributions (`sort-*`).
    ParIterSort,
}

impl Group {
    /// Short label for tables.
    pub fn label(self) -> &'static str {
        match self {
            Group::LowLatencyThesis => "low-latency thesis",
            Group::Chili => "chili",
            Group::Uts => "uts",
            Group::Pbbs => "PBBS (LCWS-in-practice paper)",
            Group::Shapes => "shapes (issue 10)",
            Group::ParIterFine => "iter: fine-grained",
            Group::ParIterPort => "iter: rayon port",
            Group::ParIterSource => "iter: sources",
            Group::ParIterAdaptor => "iter: adaptors",
            Group::ParIterConsumer => "iter: consumers",
            Group::ParIterSort => "iter: sorts",
        }
    }
}

/// A registered workload: its name, description and constructor.
pub struct WorkloadSpec {
    /// Name used on the command line and in reports.
    pub name: &'static str,
    /// Origin of the workload.
    pub group: Group,
    /// One-line description of the algorithm.
    pub description: &'static str,
    /// Human-readable input parameters for a size.
    pub params: fn(Size) -> String,
    /// Generates the input and the reference for a size and seed.
    pub build: fn(Size, u64) -> Box<dyn DynWorkload>,
}

impl fmt::Debug for WorkloadSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkloadSpec")
            .field("name", &self.name)
            .field("group", &self.group)
            .finish()
    }
}

/// Every workload, in report order.
pub fn registry() -> Vec<WorkloadSpec> {
    let mut v = vec![
        fib::spec(),
        nqueens::spec(),
        knapsack::spec(),
        matmul::spec_matmul(),
        matmul::spec_strassen(),
        cilksort::spec(),
        mcpi::spec(),
        treesum::spec(),
        uts::spec(),
    ];
    v.extend(pbbs::specs());
    v.extend(shapes::specs());
    v
}

/// The workloads that spawn ([`BenchCtx::spawn_then`]): their cells on a scheduler whose
/// [`SpawnKind`](crate::sched::SpawnKind) is not
/// [`SpawnKind::Scope`](crate::sched::SpawnKind::Scope) are labelled in the reports.
pub const SPAWNING: [&str; 3] = [shapes::SPAWNJOIN, shapes::SPAWNPARFOR, shapes::SPAWNLOOP];

/// Every workload name (the `iter` section's programs included), comma-separated.
pub fn valid_names() -> String {
    registry()
        .iter()
        .chain(&crate::par_iter::programs())
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Finds a workload by name (case-insensitive), a workload of the registry or a program
/// of the `iter` section ([`crate::par_iter::programs`]), or an error listing the valid
/// names.
pub fn find(name: &str) -> Result<WorkloadSpec, String> {
    let t = name.trim();
    registry()
        .into_iter()
        .chain(crate::par_iter::programs())
        .find(|s| s.name.eq_ignore_ascii_case(t))
        .ok_or_else(|| {
            format!(
                "unknown workload `{name}`; valid workloads: {}",
                valid_names()
            )
        })
}

/// splitmix64: a fast 64-bit mixer, used to derive per-task seeds and hash values.
#[inline]
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The generator used for every input: `Xoshiro256PlusPlus` (rand's `SmallRng` algorithm
/// on 64-bit targets, but portable), seeded with `seed_from_u64`.
pub type InputRng = rand::rngs::Xoshiro256PlusPlus;

/// A generator for input `stream` of seed `seed` (distinct workloads use distinct streams).
pub fn rng(seed: u64, stream: u64) -> InputRng {
    use rand::SeedableRng;
    InputRng::seed_from_u64(splitmix64(seed ^ splitmix64(stream)))
}

/// Splits `[lo, hi)` recursively with `join` down to ranges of at most `grain` and calls
/// `leaf` on each; returns the results combined with `combine`. The building block of the
/// recursive workloads' parallel loops.
pub fn par_range<C, T, L, M>(
    c: &mut C,
    lo: usize,
    hi: usize,
    grain: usize,
    leaf: &L,
    combine: &M,
) -> T
where
    C: ForkJoin,
    T: Send,
    L: Fn(usize, usize) -> T + Sync,
    M: Fn(T, T) -> T + Sync,
{
    if hi - lo <= grain.max(1) {
        return leaf(lo, hi);
    }
    let mid = lo + (hi - lo) / 2;
    let (a, b) = c.join(
        |c| par_range(c, lo, mid, grain, leaf, combine),
        |c| par_range(c, mid, hi, grain, leaf, combine),
    );
    combine(a, b)
}

//! `runtimes`: the four fork-join programs of the public tzcnt/runtime-benchmarks suite
//! (github.com/tzcnt/runtime-benchmarks, its `rust/` entries), written here to that suite's
//! specification and run the same way on splitsteal, rayon, chili and forte, at 1 and 2
//! threads.
//!
//! | program | full size (the suite's) | fork shape |
//! |---|---|---|
//! | `fib` | `fib(39)` | `join(fib(n-1), fib(n-2))` |
//! | `skynet` | 8 levels of 10 children: 10^8 leaves, sum 4999999950000000 | `(0..10).into_par_iter().map(child).sum()` at every node |
//! | `nqueens` | 14 queens: 365596 solutions | the valid placements of the next column gathered into a `Vec`, then `into_par_iter().map(child).sum()` |
//! | `matmul` | 2048×2048 `i32`, recursive quadrants down to 32×32 | two groups of 4 quadrant products, each group a `scope` with 4 spawns |
//!
//! How each runtime runs them (as the suite's own entries for each do):
//! - **splitsteal** (default policy, [`Policy::default`], or the policies `--policy` names)
//!   and **rayon**: the same program text, generated twice by one macro
//!   ([`on_splitsteal`], [`on_rayon`]) with `use <lib>::prelude::*;`, `<lib>::join` and
//!   `<lib>::scope`: splitsteal's public API is rayon's. Run inside `ThreadPool::install`.
//! - **chili** and **forte** have a binary `join` and no parallel iterator (forte has a
//!   scope, the suite's forte entry does not use it): as in the suite's chili and forte
//!   entries, skynet's 10-way fan-out and nqueens' fan-out over the valid placements are a
//!   balanced binary split of the child range joined recursively (the shape rayon's
//!   `into_par_iter().sum()` produces), and matmul's group of 4 is
//!   `join(join(m0, m1), join(m2, m3))`. Both use their native `join` order. chili runs on a
//!   `chili::ThreadPool` with `threads` workers (the caller is one), forte on a static pool
//!   with `threads - 1` managed workers plus the caller (the suite's convention; at 1 thread
//!   forte has no managed worker and no heartbeat). forte 1.0.0-alpha.4 cannot shrink a pool
//!   (see `FORTE`), so its pools stay for the rest of the process, and with them, from 2
//!   threads on, its heartbeat thread, which wakes every 100 µs: the mode is last in the run
//!   order, and its notes give the idle load of all its pools together (what the other
//!   runtimes' runs share the machine with). forte's workers need bigger stacks than std's
//!   2 MiB default ([`set_min_stack`]: `RUST_MIN_STACK` = 64 MiB, as the suite's forte entry),
//!   and so does the caller of chili and forte, which is a thread of 64 MiB made for each
//!   run (`on_big_stack`), not `main`.
//!
//! Method: the clock starts inside the runtime (in `install`, with chili's scope open, in
//! forte's `with_worker`), as in the suite; matmul's inputs and zeroed output are prepared
//! before it. Per program, a verified warm-up round, then `--reps` rounds, each running every
//! (runtime, threads) cell once in an order rotated by one per round (the machine is noisy:
//! drift hits every runtime alike). Every output is verified (fib against an iterative
//! reference, skynet against `(L-1)L/2` for `L` leaves, nqueens against the known counts,
//! matmul by two Freivalds checks, and against a serial product up to 256×256); a wrong
//! output or a panic marks the cell FAILED, never a time. The matmul inputs are small
//! non-constant integers (the suite's are all ones, which any tiling error that keeps the
//! count of products right would pass); the work is the same.
//!
//! The summary is the suite's: per program the best runtime's median, each runtime's
//! median ÷ that best, and per runtime the arithmetic mean of those ratios ("mean ratio to
//! best", lower is better), per thread count.

use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use splitsteal::{Policy, Stats};

use crate::modes::{Env, ModeOutput};
use crate::plot::Bars;
use crate::report::{cells_line, fmt_ratio, fmt_secs, Record, StatsRecord, Table, TableRole};
use crate::sched::SchedulerKind;
use crate::workloads::{panic_message, Size};

/// Default repetitions (test, quick, full): full-size runs take about a second each.
pub const REPS: (usize, usize, usize) = (1, 5, 3);

/// The experiment name in the records.
pub const EXPERIMENT: &str = "runtimes";

/// A runtime of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    /// A splitsteal pool with this policy, through splitsteal's rayon-compatible API.
    Splitsteal(Policy),
    /// rayon 1.x.
    Rayon,
    /// chili 0.2 (heartbeat scheduling, binary `join`).
    Chili,
    /// forte 1.0.0-alpha.4 (heartbeat scheduling, binary `join`).
    Forte,
}

impl Runtime {
    /// The scheduler name in the records: the policy name for splitsteal (as in every
    /// mode), otherwise the library's.
    pub fn name(self) -> &'static str {
        match self {
            Runtime::Splitsteal(p) => p.name(),
            Runtime::Rayon => "rayon",
            Runtime::Chili => "chili",
            Runtime::Forte => "forte",
        }
    }

    /// The name in the tables: `splitsteal (policy)` for splitsteal.
    pub fn label(self) -> String {
        match self {
            Runtime::Splitsteal(p) => format!("splitsteal ({p})"),
            r => r.name().to_string(),
        }
    }
}

/// The runtimes of the section: splitsteal with its default policy (or the policies
/// `--policy` selected), rayon and chili if selected, and forte unless `--policy` narrowed
/// the schedulers down (forte is not one of the suite's schedulers).
pub fn runtimes(env: &Env) -> Vec<Runtime> {
    let policies: Vec<Policy> = env
        .kinds
        .iter()
        .filter_map(|k| match k {
            SchedulerKind::Splitsteal(p) => Some(*p),
            _ => None,
        })
        .collect();
    let mut v: Vec<Runtime> = if policies.len() == Policy::ALL.len() {
        vec![Runtime::Splitsteal(Policy::default())]
    } else {
        policies.into_iter().map(Runtime::Splitsteal).collect()
    };
    if env.kinds.contains(&SchedulerKind::Rayon) {
        v.push(Runtime::Rayon);
    }
    if env.kinds.contains(&SchedulerKind::Chili) {
        v.push(Runtime::Chili);
    }
    if env.kinds.len() == SchedulerKind::all().len() {
        v.push(Runtime::Forte);
    }
    v
}

/// One of the suite's programs at a size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// `fib(n)`.
    Fib(u64),
    /// skynet with this many levels of 10 children (10^levels leaves).
    Skynet(u32),
    /// The n-queens count on an n×n board.
    Nqueens(usize),
    /// The product of two n×n `i32` matrices (n a power of two).
    Matmul(usize),
}

impl Program {
    /// The four programs at `size`: the suite's sizes at full size.
    pub fn all(size: Size) -> [Program; 4] {
        [
            Program::Fib(size.pick(18, 27, 39)),
            Program::Skynet(size.pick(3, 6, 8)),
            Program::Nqueens(size.pick(8, 11, 14)),
            Program::Matmul(size.pick(64, 256, 2048)),
        ]
    }

    /// The program's name.
    pub fn name(self) -> &'static str {
        match self {
            Program::Fib(_) => "fib",
            Program::Skynet(_) => "skynet",
            Program::Nqueens(_) => "nqueens",
            Program::Matmul(_) => "matmul",
        }
    }

    /// The input, for the records.
    pub fn params(self) -> String {
        match self {
            Program::Fib(n) => format!("fib({n})"),
            Program::Skynet(d) => format!("10^{d} leaves"),
            Program::Nqueens(n) => format!("{n} queens"),
            Program::Matmul(n) => format!("{n}×{n} i32"),
        }
    }
}

/// The programs' names (`--workload` accepts them with this mode).
pub fn program_names() -> [&'static str; 4] {
    Program::all(Size::Test).map(Program::name)
}

/// The programs this run selects: those `--workload` names, else all four.
pub fn programs(env: &Env) -> Vec<Program> {
    Program::all(env.size)
        .into_iter()
        .filter(|p| {
            env.workloads
                .as_ref()
                .is_none_or(|sel| sel.iter().any(|n| n.eq_ignore_ascii_case(p.name())))
        })
        .collect()
}

/// Runs planned by [`run`].
pub fn planned_runs(env: &Env) -> u64 {
    let cells = runtimes(env).len() * env.threads_or(&[1, 2]).len();
    let rounds = env.reps_or(REPS.0, REPS.1, REPS.2) + env.warmup;
    (programs(env).len() * cells * rounds) as u64
}

// ---------------------------------------------------------------------------------------
// The programs

/// The largest board nqueens takes.
pub const NQ_MAX: usize = 16;

/// A partial placement: `board[x]` is the row of the queen in column `x`.
type Board = [i8; NQ_MAX];

/// The number of solutions of the n-queens problem, n = 0..=16.
const NQ_ANSWERS: [u64; NQ_MAX + 1] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
];

/// The boards that extend `board` (queens in columns `0..x`) with a queen in column `x`
/// that no earlier queen attacks (the suite's child loop, shared by every runtime).
#[doc(hidden)]
pub fn nq_children(n: usize, x: usize, board: &Board) -> Vec<Board> {
    let mut children = Vec::new();
    for y in 0..n as i32 {
        let safe = (0..x).all(|c| {
            let p = board[c] as i32;
            let d = (x - c) as i32;
            y != p && y != p - d && y != p + d
        });
        if safe {
            let mut next = *board;
            next[x] = y as i8;
            children.push(next);
        }
    }
    children
}

/// The distance between two siblings' base numbers at `depth` of a skynet of `levels`.
fn skynet_offset(levels: u32, depth: u32) -> u64 {
    10u64.pow(levels - depth - 1)
}

/// A square tile of the three matrices of one product: `c += a · b` on `n`×`n` tiles of
/// row-major matrices with row length `stride`.
///
/// Invariant (what makes the raw pointers sound): a `Tile` is only made by [`Tile::root`],
/// from slices of `stride * stride` elements that the caller keeps borrowed (`a`, `b`
/// shared, `c` exclusively) until every task working on the tile and its sub-tiles has
/// finished, and by [`Tile::groups`], whose sub-tiles lie inside their parent. Tasks that
/// may run at the same time (one group) write disjoint quadrants of `c`; `a` and `b` are
/// only read.
#[derive(Debug, Clone, Copy)]
struct Tile<'a> {
    a: *const i32,
    b: *const i32,
    c: *mut i32,
    n: usize,
    stride: usize,
    /// The borrow of the matrices the pointers point into.
    _borrow: PhantomData<&'a mut [i32]>,
}

// SAFETY: a `Tile` is a set of pointers into matrices that outlive every task using it (the
// type's invariant); tasks sent to other threads read `a` and `b` and write disjoint parts
// of `c`, so moving tiles between threads creates no data race.
unsafe impl Send for Tile<'_> {}

/// The side at and below which a tile is multiplied serially (the suite's base case).
const MATMUL_LEAF: usize = 32;

impl<'a> Tile<'a> {
    /// The whole product `c += a · b` of `n`×`n` matrices.
    fn root(a: &'a [i32], b: &'a [i32], c: &'a mut [i32], n: usize) -> Tile<'a> {
        assert!(n.is_power_of_two(), "matmul: n = {n} is not a power of two");
        assert!(a.len() == n * n && b.len() == n * n && c.len() == n * n);
        Tile {
            a: a.as_ptr(),
            b: b.as_ptr(),
            c: c.as_mut_ptr(),
            n,
            stride: n,
            _borrow: PhantomData,
        }
    }

    /// Whether the tile is multiplied serially.
    fn is_leaf(&self) -> bool {
        self.n <= MATMUL_LEAF
    }

    /// The eight quadrant products, in two groups of four whose members write different
    /// quadrants of `c`: the first group `c_ij += a_i0 · b_0j`, the second `c_ij += a_i1 ·
    /// b_1j`. The groups must run one after the other.
    fn groups(&self) -> [[Tile<'a>; 4]; 2] {
        let k = self.n / 2;
        let s = self.stride;
        // Offsets of the quadrants (row, column) = (0,0), (0,1), (1,0), (1,1).
        let q = [0, k, k * s, k * s + k];
        // Pointer arithmetic only (`wrapping_add` is safe); the offsets stay inside the
        // parent tile, so inside the matrices.
        let sub = |ai: usize, bi: usize, ci: usize| Tile {
            a: self.a.wrapping_add(q[ai]),
            b: self.b.wrapping_add(q[bi]),
            c: self.c.wrapping_add(q[ci]),
            n: k,
            stride: s,
            _borrow: PhantomData,
        };
        [
            [sub(0, 0, 0), sub(0, 1, 1), sub(2, 0, 2), sub(2, 1, 3)],
            [sub(1, 2, 0), sub(1, 3, 1), sub(3, 2, 2), sub(3, 3, 3)],
        ]
    }

    /// The serial base case: `c += a · b`, i-k-j order (the suite's `matmul_small`), the
    /// inner loop over a row of `c` and a row of `b`.
    fn multiply_leaf(&self) {
        let (n, s) = (self.n, self.stride);
        for i in 0..n {
            // SAFETY: row `i` of the tile, `n` elements from `c + i·s`, lies inside the
            // output matrix (the type's invariant), and no other task touches this tile of
            // `c` while this one runs (tasks that run together write disjoint quadrants).
            let c_row = unsafe { std::slice::from_raw_parts_mut(self.c.add(i * s), n) };
            for k in 0..n {
                // SAFETY: `a` and `b` are only read while the product runs, and these
                // elements lie inside their tiles (the type's invariant).
                let (a_ik, b_row) = unsafe {
                    (
                        *self.a.add(i * s + k),
                        std::slice::from_raw_parts(self.b.add(k * s), n),
                    )
                };
                for (c, &b) in c_row.iter_mut().zip(b_row) {
                    *c += a_ik * b;
                }
            }
        }
    }
}

/// The programs on a rayon-style API: one text, compiled against `$lib`'s prelude, `join`
/// and `scope` (splitsteal's public API is rayon's).
macro_rules! rayon_style {
    ($(#[$doc:meta])* $module:ident, $lib:ident) => {
        $(#[$doc])*
        pub mod $module {
            use super::{nq_children, skynet_offset, Board, Job, Tile};
            use $lib::prelude::*;

            /// `fib(n)` with `join`.
            pub fn fib(n: u64) -> u64 {
                if n < 2 {
                    return n;
                }
                let (a, b) = $lib::join(|| fib(n - 1), || fib(n - 2));
                a + b
            }

            /// The sum of the leaves under the node `base` at `depth`.
            pub fn skynet(base: u64, depth: u32, levels: u32) -> u64 {
                if depth == levels {
                    return base;
                }
                let offset = skynet_offset(levels, depth);
                (0..10u64)
                    .into_par_iter()
                    .map(|i| skynet(base + offset * i, depth + 1, levels))
                    .sum()
            }

            /// The solutions that extend `board` (queens in columns `0..x`).
            pub fn nqueens(n: usize, x: usize, board: Board) -> u64 {
                if x == n {
                    return 1;
                }
                nq_children(n, x, &board)
                    .into_par_iter()
                    .map(|next| nqueens(n, x + 1, next))
                    .sum()
            }

            pub(super) fn matmul(t: Tile<'_>) {
                if t.is_leaf() {
                    t.multiply_leaf();
                    return;
                }
                for group in t.groups() {
                    $lib::scope(move |s| {
                        for m in group {
                            s.spawn(move |_| matmul(m));
                        }
                    });
                }
            }

            pub(super) fn run(job: Job<'_>) -> u64 {
                match job {
                    Job::Fib(n) => fib(n),
                    Job::Skynet(levels) => skynet(0, 0, levels),
                    Job::Nqueens(n) => nqueens(n, 0, [0; super::NQ_MAX]),
                    Job::Matmul(t) => {
                        matmul(t);
                        0
                    }
                }
            }
        }
    };
}

rayon_style!(
    /// The programs on splitsteal: `use splitsteal::prelude::*`, `splitsteal::join`,
    /// `splitsteal::scope`.
    on_splitsteal,
    splitsteal
);
rayon_style!(
    /// The same programs on rayon: `use rayon::prelude::*`, `rayon::join`, `rayon::scope`.
    on_rayon,
    rayon
);

/// The programs on chili's `Scope::join` (no parallel iterator, no scope): binary splits of
/// the fan-outs, as the suite's chili entry does.
pub mod on_chili {
    use super::{nq_children, skynet_offset, Board, Job, Tile};
    use chili::Scope;

    /// `fib(n)` with `join`.
    pub fn fib(n: u64, s: &mut Scope<'_>) -> u64 {
        if n < 2 {
            return n;
        }
        let (a, b) = s.join(|s| fib(n - 1, s), |s| fib(n - 2, s));
        a + b
    }

    /// The sum of the leaves under the node `base` at `depth`.
    pub fn skynet(base: u64, depth: u32, levels: u32, s: &mut Scope<'_>) -> u64 {
        if depth == levels {
            return base;
        }
        children(base, skynet_offset(levels, depth), depth, levels, 0, 10, s)
    }

    /// The sum over children `lo..hi` of a node whose children are `offset` apart.
    fn children(
        base: u64,
        offset: u64,
        depth: u32,
        levels: u32,
        lo: u64,
        hi: u64,
        s: &mut Scope<'_>,
    ) -> u64 {
        if hi - lo == 1 {
            return skynet(base + offset * lo, depth + 1, levels, s);
        }
        let mid = lo + (hi - lo) / 2;
        let (l, r) = s.join(
            |s| children(base, offset, depth, levels, lo, mid, s),
            |s| children(base, offset, depth, levels, mid, hi, s),
        );
        l + r
    }

    /// The solutions that extend `board` (queens in columns `0..x`).
    pub fn nqueens(n: usize, x: usize, board: Board, s: &mut Scope<'_>) -> u64 {
        if x == n {
            return 1;
        }
        placements(n, x + 1, &nq_children(n, x, &board), s)
    }

    fn placements(n: usize, x: usize, boards: &[Board], s: &mut Scope<'_>) -> u64 {
        match boards {
            [] => 0,
            [one] => nqueens(n, x, *one, s),
            _ => {
                let (l, r) = boards.split_at(boards.len() / 2);
                let (a, b) = s.join(|s| placements(n, x, l, s), |s| placements(n, x, r, s));
                a + b
            }
        }
    }

    pub(super) fn matmul(t: Tile<'_>, s: &mut Scope<'_>) {
        if t.is_leaf() {
            t.multiply_leaf();
            return;
        }
        for [m0, m1, m2, m3] in t.groups() {
            s.join(
                move |s| {
                    s.join(move |s| matmul(m0, s), move |s| matmul(m1, s));
                },
                move |s| {
                    s.join(move |s| matmul(m2, s), move |s| matmul(m3, s));
                },
            );
        }
    }

    pub(super) fn run(job: Job<'_>, s: &mut Scope<'_>) -> u64 {
        match job {
            Job::Fib(n) => fib(n, s),
            Job::Skynet(levels) => skynet(0, 0, levels, s),
            Job::Nqueens(n) => nqueens(n, 0, [0; super::NQ_MAX], s),
            Job::Matmul(t) => {
                matmul(t, s);
                0
            }
        }
    }
}

/// The programs on forte's `Worker::join`, shaped as the suite's forte entry (the same as
/// its chili entry).
pub mod on_forte {
    use super::{nq_children, skynet_offset, Board, Job, Tile};
    use forte::Worker;

    /// `fib(n)` with `join`.
    pub fn fib(n: u64, w: &Worker) -> u64 {
        if n < 2 {
            return n;
        }
        let (a, b) = w.join(|w| fib(n - 1, w), |w| fib(n - 2, w));
        a + b
    }

    /// The sum of the leaves under the node `base` at `depth`.
    pub fn skynet(base: u64, depth: u32, levels: u32, w: &Worker) -> u64 {
        if depth == levels {
            return base;
        }
        children(base, skynet_offset(levels, depth), depth, levels, 0, 10, w)
    }

    fn children(
        base: u64,
        offset: u64,
        depth: u32,
        levels: u32,
        lo: u64,
        hi: u64,
        w: &Worker,
    ) -> u64 {
        if hi - lo == 1 {
            return skynet(base + offset * lo, depth + 1, levels, w);
        }
        let mid = lo + (hi - lo) / 2;
        let (l, r) = w.join(
            |w| children(base, offset, depth, levels, lo, mid, w),
            |w| children(base, offset, depth, levels, mid, hi, w),
        );
        l + r
    }

    /// The solutions that extend `board` (queens in columns `0..x`).
    pub fn nqueens(n: usize, x: usize, board: Board, w: &Worker) -> u64 {
        if x == n {
            return 1;
        }
        placements(n, x + 1, &nq_children(n, x, &board), w)
    }

    fn placements(n: usize, x: usize, boards: &[Board], w: &Worker) -> u64 {
        match boards {
            [] => 0,
            [one] => nqueens(n, x, *one, w),
            _ => {
                let (l, r) = boards.split_at(boards.len() / 2);
                let (a, b) = w.join(|w| placements(n, x, l, w), |w| placements(n, x, r, w));
                a + b
            }
        }
    }

    pub(super) fn matmul(t: Tile<'_>, w: &Worker) {
        if t.is_leaf() {
            t.multiply_leaf();
            return;
        }
        for [m0, m1, m2, m3] in t.groups() {
            w.join(
                move |w| {
                    w.join(move |w| matmul(m0, w), move |w| matmul(m1, w));
                },
                move |w| {
                    w.join(move |w| matmul(m2, w), move |w| matmul(m3, w));
                },
            );
        }
    }

    pub(super) fn run(job: Job<'_>, w: &Worker) -> u64 {
        match job {
            Job::Fib(n) => fib(n, w),
            Job::Skynet(levels) => skynet(0, 0, levels, w),
            Job::Nqueens(n) => nqueens(n, 0, [0; super::NQ_MAX], w),
            Job::Matmul(t) => {
                matmul(t, w);
                0
            }
        }
    }
}

/// One run's work, as the runtimes' modules take it: the count programs' size, or the
/// matmul tile (whose matrices the caller keeps borrowed for the run).
#[derive(Debug, Clone, Copy)]
enum Job<'a> {
    Fib(u64),
    Skynet(u32),
    Nqueens(usize),
    Matmul(Tile<'a>),
}

// ---------------------------------------------------------------------------------------
// Inputs and checks

/// A program's inputs (matmul's matrices) and reference.
#[doc(hidden)]
pub struct Input {
    /// The program.
    pub program: Program,
    /// matmul: `a` (row-major, n×n).
    pub a: Vec<i32>,
    /// matmul: `b` (row-major, n×n).
    pub b: Vec<i32>,
    /// matmul: the exact product when n ≤ 256 (else verified by Freivalds' checks only).
    pub exact: Option<Vec<i32>>,
}

/// Small non-constant matrix entries in `-5..=5` and `-4..=4`.
fn matmul_inputs(n: usize) -> (Vec<i32>, Vec<i32>) {
    let a = (0..n * n)
        .map(|i| ((i / n * 31 + i % n * 17) % 11) as i32 - 5)
        .collect();
    let b = (0..n * n)
        .map(|i| ((i / n * 13 + i % n * 7) % 9) as i32 - 4)
        .collect();
    (a, b)
}

/// The serial product (i-k-j), for the reference.
fn serial_product(a: &[i32], b: &[i32], n: usize) -> Vec<i32> {
    let mut c = vec![0; n * n];
    for i in 0..n {
        for k in 0..n {
            let aik = a[i * n + k];
            for j in 0..n {
                c[i * n + j] += aik * b[k * n + j];
            }
        }
    }
    c
}

/// `m · x` for an n×n row-major matrix.
fn mat_vec(m: &[i32], x: &[i64], n: usize) -> Vec<i64> {
    (0..n)
        .map(|i| (0..n).map(|j| m[i * n + j] as i64 * x[j]).sum())
        .collect()
}

/// `y · m` for an n×n row-major matrix.
fn vec_mat(y: &[i64], m: &[i32], n: usize) -> Vec<i64> {
    let mut out = vec![0i64; n];
    for (i, &yi) in y.iter().enumerate() {
        for j in 0..n {
            out[j] += yi * m[i * n + j] as i64;
        }
    }
    out
}

impl Input {
    /// The inputs and reference of `program`.
    pub fn new(program: Program) -> Input {
        let (a, b, exact) = match program {
            Program::Matmul(n) => {
                let (a, b) = matmul_inputs(n);
                let exact = (n <= 256).then(|| serial_product(&a, &b, n));
                (a, b, exact)
            }
            _ => (Vec::new(), Vec::new(), None),
        };
        Input {
            program,
            a,
            b,
            exact,
        }
    }

    /// A zeroed output matrix for matmul (empty for the others).
    pub fn output(&self) -> Vec<i32> {
        match self.program {
            Program::Matmul(n) => vec![0; n * n],
            _ => Vec::new(),
        }
    }

    /// The job of one run, writing matmul's product into `c`.
    fn job<'a>(&'a self, c: &'a mut [i32]) -> Job<'a> {
        match self.program {
            Program::Fib(n) => Job::Fib(n),
            Program::Skynet(d) => Job::Skynet(d),
            Program::Nqueens(n) => Job::Nqueens(n),
            Program::Matmul(n) => Job::Matmul(Tile::root(&self.a, &self.b, c, n)),
        }
    }

    /// Checks one run's result (`count`, or the product `c`).
    pub fn check(&self, count: u64, c: &[i32]) -> Result<(), String> {
        let expect = |want: u64| {
            if count == want {
                Ok(())
            } else {
                Err(format!("got {count}, expected {want}"))
            }
        };
        match self.program {
            Program::Fib(n) => expect(fib_reference(n)),
            Program::Skynet(d) => {
                let leaves = 10u64.pow(d);
                expect((leaves - 1) * leaves / 2)
            }
            Program::Nqueens(n) => expect(NQ_ANSWERS[n]),
            Program::Matmul(n) => self.check_product(c, n),
        }
    }

    fn check_product(&self, c: &[i32], n: usize) -> Result<(), String> {
        if let Some(exact) = &self.exact {
            if let Some(i) = (0..n * n).find(|&i| c[i] != exact[i]) {
                return Err(format!(
                    "c[{}][{}] = {}, expected {}",
                    i / n,
                    i % n,
                    c[i],
                    exact[i]
                ));
            }
            return Ok(());
        }
        // Freivalds: c·x = a·(b·x) and y·c = (y·a)·b, for fixed x, y.
        let x: Vec<i64> = (0..n as i64).map(|j| j % 13 + 1).collect();
        let y: Vec<i64> = (0..n as i64).map(|i| i % 7 - 3).collect();
        if mat_vec(c, &x, n) != mat_vec(&self.a, &mat_vec(&self.b, &x, n), n) {
            return Err("c·x ≠ a·(b·x): the product is wrong".into());
        }
        if vec_mat(&y, c, n) != vec_mat(&vec_mat(&y, &self.a, n), &self.b, n) {
            return Err("y·c ≠ (y·a)·b: the product is wrong".into());
        }
        Ok(())
    }
}

/// `fib(n)`, iteratively.
#[doc(hidden)]
pub fn fib_reference(n: u64) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

/// `c += a · b` for `n`×`n` row-major matrices by the rayon version of the matmul program,
/// for the tests. (`Tile` stays private: it is `Copy`, and two copies must not run at once.)
#[doc(hidden)]
pub fn rayon_matmul(a: &[i32], b: &[i32], c: &mut [i32], n: usize) {
    on_rayon::matmul(Tile::root(a, b, c, n));
}

/// Only the first group of the quadrant products of [`rayon_matmul`] (a wrong product), for
/// the tests.
#[doc(hidden)]
pub fn rayon_matmul_first_group(a: &[i32], b: &[i32], c: &mut [i32], n: usize) {
    let t = Tile::root(a, b, c, n);
    for q in t.groups()[0] {
        on_rayon::matmul(q);
    }
}

// ---------------------------------------------------------------------------------------
// Pools and runs

/// The worker stack size the mode asks for, in bytes: 64 MiB, as the suite's forte entry.
pub const MIN_STACK: usize = 64 << 20;

/// Sets `RUST_MIN_STACK` to [`MIN_STACK`] unless the environment sets it, as the suite's
/// forte entry does. forte 1.0.0-alpha.4 spawns its workers with std's default stack
/// (2 MiB unless `RUST_MIN_STACK` says otherwise) and its `join` runs other jobs on a
/// waiting worker's stack, nesting without bound: skynet at full size overflowed a forte
/// worker's 2 MiB stack at 2 threads here. std reads the variable once, at the first thread
/// spawned without an explicit stack size, so this must run before the process starts any
/// thread (`splitsteal bench` calls it first thing when the runtimes mode is selected); it
/// then applies to every such thread (rayon's and chili's workers too: address space only).
pub fn set_min_stack() {
    if std::env::var_os("RUST_MIN_STACK").is_none() {
        // Called while the process has one thread: no other thread reads the environment.
        std::env::set_var("RUST_MIN_STACK", MIN_STACK.to_string());
    }
}

/// `RUST_MIN_STACK` as the process has it, for the notes.
fn min_stack_note() -> String {
    match std::env::var("RUST_MIN_STACK") {
        Ok(v) => format!(
            "Threads without an explicit stack size (forte's, rayon's and chili's workers) get RUST_MIN_STACK = {v} bytes, \
             as in the suite's forte entry (forte runs other jobs on a waiting worker's stack: 2 MiB overflowed on skynet)."
        ),
        Err(_) => "RUST_MIN_STACK is not set: forte's workers have 2 MiB stacks, which skynet at full size overflows \
                   (splitsteal bench sets it when the runtimes mode is selected)."
            .into(),
    }
}

/// The most threads a forte cell takes here (one static pool per thread count).
pub const FORTE_MAX_THREADS: usize = 16;

/// forte's pools, `'static` by forte's API: `FORTE[t - 1]` has `t - 1` managed workers
/// (and the caller), made the first time a `t`-thread forte cell is built and kept for the
/// rest of the process: forte 1.0.0-alpha.4 cannot shrink a pool (its `resize` down joins
/// the heartbeat thread while holding the pool's lock, which that thread takes: a deadlock).
static FORTE: [forte::ThreadPool; FORTE_MAX_THREADS] =
    [const { forte::ThreadPool::new() }; FORTE_MAX_THREADS];

/// The pool of one (runtime, threads) cell.
#[doc(hidden)]
pub enum Pool {
    /// A splitsteal pool.
    Splitsteal(splitsteal::ThreadPool),
    /// A rayon pool.
    Rayon(rayon::ThreadPool),
    /// A chili pool.
    Chili(chili::ThreadPool),
    /// One of forte's static pools (`FORTE`).
    Forte(&'static forte::ThreadPool),
}

impl Pool {
    /// The pool of `rt` with `threads` threads.
    pub fn build(rt: Runtime, threads: usize) -> Result<Pool, String> {
        Ok(match rt {
            Runtime::Splitsteal(p) => Pool::Splitsteal(
                splitsteal::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .policy(p)
                    .thread_name(move |i| format!("ss-{p}-{i}"))
                    .build()
                    .map_err(|e| format!("splitsteal pool ({p}, {threads} threads): {e}"))?,
            ),
            Runtime::Rayon => Pool::Rayon(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("rayon-{i}"))
                    .build()
                    .map_err(|e| format!("rayon pool: {e}"))?,
            ),
            Runtime::Chili => Pool::Chili(chili::ThreadPool::with_config(chili::Config {
                thread_count: std::num::NonZero::new(threads),
                ..chili::Config::default()
            })),
            Runtime::Forte => {
                let Some(pool) = FORTE.get(threads.wrapping_sub(1)) else {
                    return Err(format!(
                        "forte: {threads} threads (this mode's forte pools take 1 to {FORTE_MAX_THREADS})"
                    ));
                };
                // A no-op once the pool has its workers.
                pool.resize_to(threads - 1);
                Pool::Forte(pool)
            }
        })
    }
}

/// What one run produced.
#[doc(hidden)]
pub struct RunOut {
    time: Duration,
    stats: Option<Stats>,
}

/// Times `f` (the clock runs inside the runtime, as in the suite).
fn timed<R>(f: impl FnOnce() -> R) -> (Duration, R) {
    let t = Instant::now();
    let r = f();
    (t.elapsed(), r)
}

/// Runs `f` on a thread of its own with a [`MIN_STACK`] stack, and returns its result (a
/// panic in `f` is resumed here). chili's and forte's calling thread is one of their
/// workers, and both run other jobs on a waiting worker's stack: called from `main`
/// (8 MiB), nqueens at full size overflowed it on 2026-11-28 and aborted the whole bench.
/// The thread is made outside the timed region.
#[doc(hidden)]
pub fn on_big_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|scope| {
        let runner = std::thread::Builder::new()
            .name("runtimes-caller".into())
            .stack_size(MIN_STACK)
            .spawn_scoped(scope, f)
            .expect("spawning the runtimes mode's calling thread");
        match runner.join() {
            Ok(r) => r,
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

/// Runs `input`'s program once on `pool` and checks the result (the check untimed).
#[doc(hidden)]
pub fn run_once(pool: &Pool, input: &Input) -> Result<RunOut, String> {
    let mut c = input.output();
    let job = input.job(&mut c);
    let res = catch_unwind(AssertUnwindSafe(|| match pool {
        Pool::Splitsteal(p) => {
            p.reset_stats();
            let (time, count) = p.install(move || timed(move || on_splitsteal::run(job)));
            (time, count, Some(p.stats()))
        }
        Pool::Rayon(p) => {
            let (time, count) = p.install(move || timed(move || on_rayon::run(job)));
            (time, count, None)
        }
        Pool::Chili(p) => {
            let (time, count) = on_big_stack(move || {
                let mut scope = p.scope();
                timed(|| on_chili::run(job, &mut scope))
            });
            (time, count, None)
        }
        Pool::Forte(p) => {
            let (time, count) =
                on_big_stack(move || p.with_worker(move |w| timed(move || on_forte::run(job, w))));
            (time, count, None)
        }
    }));
    let (time, count, stats) = res.map_err(|p| format!("panicked: {}", panic_message(&*p)))?;
    input.check(count, &c)?;
    Ok(RunOut { time, stats })
}

/// A (runtime, threads) cell and its pool.
struct Cell {
    runtime: Runtime,
    threads: usize,
    pool: Result<Pool, String>,
}

/// What a cell gathered over the rounds of one program.
#[derive(Default)]
struct Gathered {
    times: Vec<f64>,
    stats: Vec<Stats>,
    error: Option<String>,
}

/// Measures `program` on every cell: `warmup` rounds then `reps` rounds, each running every
/// cell once in an order rotated by one per round. A failed run marks its cell FAILED (its
/// times dropped, not run again).
fn measure(env: &Env, program: Program, cells: &[Cell], warmup: usize, reps: usize) -> Vec<Record> {
    let input = Input::new(program);
    let n = cells.len();
    let mut got: Vec<Gathered> = cells
        .iter()
        .map(|c| Gathered {
            error: c.pool.as_ref().err().cloned(),
            ..Gathered::default()
        })
        .collect();
    for round in 0..warmup + reps {
        for k in 0..n {
            let i = (k + round) % n;
            env.progress.inc();
            let cell = &cells[i];
            let Ok(pool) = &cell.pool else { continue };
            if got[i].error.is_some() {
                continue;
            }
            let label = format!(
                "{} on {}@{}",
                program.name(),
                cell.runtime.label(),
                cell.threads
            );
            env.progress.msg(label.clone());
            env.watchdog.begin(label.clone());
            let out = run_once(pool, &input);
            env.watchdog.end();
            let g = &mut got[i];
            match out {
                Err(e) => {
                    env.progress.println(format!("FAILED: {label}: {e}"));
                    g.error = Some(e);
                    g.times.clear();
                    g.stats.clear();
                }
                Ok(o) if round >= warmup => {
                    g.times.push(o.time.as_secs_f64());
                    g.stats.extend(o.stats);
                }
                Ok(_) => {}
            }
        }
    }
    cells
        .iter()
        .zip(got)
        .map(|(c, g)| {
            let mut r = Record::new(
                EXPERIMENT,
                program.name(),
                &program.params(),
                c.runtime.name(),
                c.threads,
            );
            r.verified = g.error.is_none();
            r.error = g.error;
            if r.verified {
                r.set_times(g.times);
                r.stats = StatsRecord::median_of(&g.stats);
            }
            r
        })
        .collect()
}

/// Runs the section.
pub fn run(env: &Env) -> ModeOutput {
    let rts = runtimes(env);
    let threads = env.threads_or(&[1, 2]);
    // The other pools first, then forte's, measuring what the idle process burns in between
    // and after (forte's pools stay, heartbeat included: see `FORTE`).
    let build = |forte: bool| {
        let mut v = Vec::new();
        for &t in &threads {
            for &rt in rts.iter().filter(|&&r| (r == Runtime::Forte) == forte) {
                v.push(Cell {
                    runtime: rt,
                    threads: t,
                    pool: Pool::build(rt, t),
                });
            }
        }
        v
    };
    let mut cells = build(false);
    let idle_others = crate::runner::idle_load(Duration::from_millis(300));
    cells.extend(build(true));
    let idle_all = rts
        .contains(&Runtime::Forte)
        .then(|| crate::runner::idle_load(Duration::from_millis(300)));
    // Report order: threads, then runtimes as listed.
    cells.sort_by_key(|c| {
        let t = threads.iter().position(|&t| t == c.threads);
        (t, rts.iter().position(|&r| r == c.runtime))
    });
    let reps = env.reps_or(REPS.0, REPS.1, REPS.2);
    let mut records = Vec::new();
    for program in programs(env) {
        env.progress
            .msg(format!("{}: {}", program.name(), program.params()));
        let recs = measure(env, program, &cells, env.warmup, reps);
        let line = cells_line(&recs);
        env.progress.println(format!(
            "{:<8} ({}): {line}",
            program.name(),
            program.params()
        ));
        env.save_partial(&recs);
        records.extend(recs);
    }
    drop(cells);
    fill_ratios_to_best(&mut records);
    let labels: Vec<String> = rts.iter().map(|r| r.label()).collect();
    let mut notes = vec![format!(
        "The four fork-join programs of tzcnt/runtime-benchmarks (fib, skynet, nqueens, matmul), \
         written to its specification, on {}. splitsteal and rayon run one program text \
         (parallel iterators, join, scope); chili and forte, which have no parallel iterator, \
         split skynet's and nqueens' fan-outs into binary joins and matmul's groups of 4 into \
         join(join, join), as the suite's own chili and forte entries do. Clock inside the \
         runtime; warm-up {} + reps {} per cell, runtimes interleaved per round; every output \
         verified.",
        labels.join(", "),
        env.warmup,
        reps
    )];
    notes.push(format!(
        "Idle load of the process before the runs (CPU time ÷ wall time over 0.3 s, another \
         process's load not included): {:.1}% of a core with the splitsteal, rayon and chili \
         pools{}.",
        idle_others * 100.0,
        idle_all.map_or(String::new(), |x| format!(
            ", {:.1}% once forte's pools exist too (they cannot be shrunk, and from 2 threads \
             on forte's heartbeat thread wakes every 100 µs for the rest of the process, beside \
             every other runtime's runs; --policy <policy>,rayon,chili leaves forte out)",
            x * 100.0
        ))
    ));
    notes.push(min_stack_note());
    let mut out = ModeOutput {
        tables: tables(&records),
        records,
        notes,
        ..Default::default()
    };
    plots(env, &mut out);
    out
}

// ---------------------------------------------------------------------------------------
// Ratios and tables

/// The best (smallest) verified median of `program` at `threads` among `recs`.
fn best<'a>(recs: &[&'a Record], program: &str, threads: usize) -> Option<&'a Record> {
    recs.iter()
        .copied()
        .filter(|r| r.workload == program && r.threads == threads && r.verified)
        .filter(|r| r.median_s.is_some_and(|m| m > 0.0))
        .min_by(|a, b| a.median_s.unwrap().total_cmp(&b.median_s.unwrap()))
}

/// Sets each record's `extra.ratio_to_best` (its median ÷ the best median of its program at
/// its thread count) and `extra.mean_ratio_to_best` (the mean of its runtime's ratios over
/// the programs at that thread count: the suite's summary metric).
pub fn fill_ratios_to_best(records: &mut [Record]) {
    let ratios: Vec<Option<f64>> = {
        let recs: Vec<&Record> = records
            .iter()
            .filter(|r| r.experiment == EXPERIMENT)
            .collect();
        records
            .iter()
            .map(|r| {
                let b = best(&recs, &r.workload, r.threads)?;
                Some(r.median_s? / b.median_s?)
            })
            .collect()
    };
    for (r, q) in records.iter_mut().zip(&ratios) {
        if let (true, Some(q)) = (r.experiment == EXPERIMENT, q) {
            r.extra.insert("ratio_to_best".into(), *q);
        }
    }
    let means: Vec<Option<f64>> = records
        .iter()
        .map(|r| mean_ratio(records, &r.scheduler, r.threads).map(|(m, _)| m))
        .collect();
    for (r, m) in records.iter_mut().zip(means) {
        if let (true, Some(m)) = (r.experiment == EXPERIMENT, m) {
            r.extra.insert("mean_ratio_to_best".into(), m);
        }
    }
}

/// The mean of `scheduler`'s ratios to the best at `threads`, and how many programs it
/// covers (a FAILED program has no ratio).
fn mean_ratio(records: &[Record], scheduler: &str, threads: usize) -> Option<(f64, usize)> {
    let v: Vec<f64> = records
        .iter()
        .filter(|r| r.experiment == EXPERIMENT && r.scheduler == scheduler && r.threads == threads)
        .filter_map(|r| r.extra.get("ratio_to_best").copied())
        .collect();
    (!v.is_empty()).then(|| (v.iter().sum::<f64>() / v.len() as f64, v.len()))
}

/// Names in first-appearance order.
fn order(recs: &[&Record], key: impl Fn(&Record) -> String) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in recs {
        let k = key(r);
        if !v.contains(&k) {
            v.push(k);
        }
    }
    v
}

/// The label of a scheduler name in the tables (`splitsteal (policy)` for a policy).
fn label_of(scheduler: &str) -> String {
    match scheduler.parse::<SchedulerKind>() {
        Ok(SchedulerKind::Splitsteal(p)) => Runtime::Splitsteal(p).label(),
        _ => scheduler.to_string(),
    }
}

/// The section's tables: every cell, then per thread count the suite's summary.
pub fn tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records
        .iter()
        .filter(|r| r.experiment == EXPERIMENT)
        .collect();
    if recs.is_empty() {
        return Vec::new();
    }
    let programs = order(&recs, |r| r.workload.clone());
    let scheds = order(&recs, |r| r.scheduler.clone());
    let mut threads: Vec<usize> = recs.iter().map(|r| r.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    let cell = |w: &str, s: &str, t: usize| {
        recs.iter()
            .copied()
            .find(|r| r.workload == w && r.scheduler == s && r.threads == t)
    };
    let ratio = |r: &Record| r.extra.get("ratio_to_best").copied();

    let mut full = Table::new(
        "runtimes: median time per runtime (min–max); ÷best = this median / the best runtime's median for the program at the same thread count",
        &["program", "input", "runtime", "thr", "median", "min", "max", "÷best"],
    )
    .with_role(TableRole::Raw);
    for w in &programs {
        for &t in &threads {
            for s in &scheds {
                let Some(r) = cell(w, s, t) else { continue };
                let (med, lo, hi) = match (r.median_s, r.min_s, r.max_s) {
                    (Some(m), Some(a), Some(b)) => (fmt_secs(m), fmt_secs(a), fmt_secs(b)),
                    _ if !r.verified => ("FAILED".into(), "-".into(), "-".into()),
                    _ => ("-".into(), "-".into(), "-".into()),
                };
                full.row(vec![
                    w.clone(),
                    r.params.clone(),
                    label_of(s),
                    t.to_string(),
                    med,
                    lo,
                    hi,
                    fmt_ratio(ratio(r)),
                ]);
            }
        }
    }
    for r in recs.iter().filter(|r| !r.verified) {
        full.notes.push(format!(
            "FAILED: {} on {}@{}: {}",
            r.workload,
            label_of(&r.scheduler),
            r.threads,
            r.error.as_deref().unwrap_or("?")
        ));
    }

    let mut out = vec![full];
    for &t in &threads {
        let mut header = vec!["program".to_string(), "input".to_string()];
        header.extend(scheds.iter().map(|s| label_of(s)));
        header.push("best".into());
        let mut table = Table {
            title: format!(
                "runtimes at {t} thread{}: median time (÷ the best runtime's), and the suite's summary metric, the mean ratio to best (lower is better)",
                if t == 1 { "" } else { "s" }
            ),
            header,
            ..Default::default()
        };
        for w in &programs {
            let mut row = vec![
                w.clone(),
                recs.iter()
                    .find(|r| &r.workload == w)
                    .map(|r| r.params.clone())
                    .unwrap_or_default(),
            ];
            for s in &scheds {
                row.push(match cell(w, s, t) {
                    Some(r) if !r.verified => "FAILED".into(),
                    Some(r) => match (r.median_s, ratio(r)) {
                        (Some(m), Some(q)) => format!("{} ({q:.2}×)", fmt_secs(m)),
                        _ => "-".into(),
                    },
                    None => "-".into(),
                });
            }
            row.push(
                best(&recs, w, t)
                    .map(|r| label_of(&r.scheduler))
                    .unwrap_or_else(|| "-".into()),
            );
            table.row(row);
        }
        let mut row = vec!["mean ratio to best".to_string(), String::new()];
        let mut ranked: Vec<(String, f64)> = Vec::new();
        for s in &scheds {
            row.push(match mean_ratio(records, s, t) {
                Some((m, k)) if k == programs.len() => {
                    ranked.push((label_of(s), m));
                    format!("{m:.2}×")
                }
                Some((m, k)) => format!("{m:.2}× ({k} of {})", programs.len()),
                None => "-".into(),
            });
        }
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
        row.push(ranked.first().map(|r| r.0.clone()).unwrap_or_default());
        table.row(row);
        if !ranked.is_empty() {
            table.notes.push(format!(
                "Ranked by mean ratio to best at {t}: {}.",
                ranked
                    .iter()
                    .map(|(s, m)| format!("{s} {m:.2}×"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        out.push(table);
    }
    let failed = recs.iter().filter(|r| !r.verified).count();
    if let Some(last) = out.last_mut() {
        last.notes.push(if failed == 0 {
            format!("Every run verified ({} cells).", recs.len())
        } else {
            format!(
                "{failed} of {} cells FAILED verification (see the per-cell table).",
                recs.len()
            )
        });
    }
    out
}

fn plots(env: &Env, out: &mut ModeOutput) {
    let recs: Vec<&Record> = out.records.iter().collect();
    let programs = order(&recs, |r| r.workload.clone());
    let scheds = order(&recs, |r| r.scheduler.clone());
    let mut threads: Vec<usize> = recs.iter().map(|r| r.threads).collect();
    threads.sort_unstable();
    threads.dedup();
    let mut series = Vec::new();
    for &t in &threads {
        for s in &scheds {
            series.push((
                // The policy name alone for splitsteal: the legend is narrow.
                format!("{s}@{t}"),
                programs
                    .iter()
                    .map(|w| {
                        recs.iter()
                            .find(|r| &r.workload == w && &r.scheduler == s && r.threads == t)
                            .and_then(|r| r.extra.get("ratio_to_best").copied())
                    })
                    .collect(),
            ));
        }
    }
    if series.is_empty() {
        return;
    }
    let bars = Bars {
        title: "tzcnt/runtime-benchmarks programs: time ÷ the best runtime's (1 = best; a policy name is splitsteal)".into(),
        y_desc: "time / best time".into(),
        categories: programs,
        series,
        log_y: true,
        reference: Some(1.0),
    };
    env.plot(
        &mut out.plots,
        &mut out.notes,
        "runtimes-ratio-to-best.svg",
        &bars.title.clone(),
        |p| bars.draw(p),
    );
}

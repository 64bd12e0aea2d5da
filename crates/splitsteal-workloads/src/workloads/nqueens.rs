//! `nqueens`: counts the placements of `n` non-attacking queens (the low-latency
//! thesis's N-Queens, §4.2.1).
//!
//! Bitmask backtracking. At each row the free columns are split in two halves with
//! `join` until one column is left, which is placed; the last [`SERIAL_ROWS`] rows run
//! serially (a leaf of a few hundred nanoseconds).

use splitsteal::ForkJoin;

use super::{DynWorkload, Group, Size, Workload, WorkloadSpec};

/// Rows left below which the search runs serially.
pub const SERIAL_ROWS: u32 = 3;

/// Known solution counts (OEIS A000170), n = 0..=16.
pub const SOLUTIONS: [u64; 17] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
];

fn serial_bits(all: u32, cols: u32, d1: u32, d2: u32) -> u64 {
    if cols == all {
        return 1;
    }
    let mut free = all & !(cols | d1 | d2);
    let mut count = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        count += serial_bits(all, cols | bit, ((d1 | bit) << 1) & all, (d2 | bit) >> 1);
    }
    count
}

fn place<C: ForkJoin>(c: &mut C, n: u32, row: u32, cols: u32, d1: u32, d2: u32) -> u64 {
    let all = (1u32 << n) - 1;
    if n - row <= SERIAL_ROWS {
        return serial_bits(all, cols, d1, d2);
    }
    let free = all & !(cols | d1 | d2);
    try_set(c, n, row, cols, d1, d2, free)
}

/// Tries every column of `set` in row `row`, splitting the set in halves with `join`.
fn try_set<C: ForkJoin>(c: &mut C, n: u32, row: u32, cols: u32, d1: u32, d2: u32, set: u32) -> u64 {
    let k = set.count_ones();
    if k == 0 {
        return 0;
    }
    if k == 1 {
        let all = (1u32 << n) - 1;
        return place(
            c,
            n,
            row + 1,
            cols | set,
            ((d1 | set) << 1) & all,
            (d2 | set) >> 1,
        );
    }
    // The lowest k/2 bits of `set` go left.
    let mut low = 0u32;
    let mut rest = set;
    for _ in 0..k / 2 {
        let bit = rest & rest.wrapping_neg();
        low |= bit;
        rest ^= bit;
    }
    let (a, b) = c.join(
        |c| try_set(c, n, row, cols, d1, d2, low),
        |c| try_set(c, n, row, cols, d1, d2, rest),
    );
    a + b
}

/// Counts the solutions of the `n`-queens problem in parallel.
pub fn nqueens<C: ForkJoin>(c: &mut C, n: u32) -> u64 {
    assert!((1..=20).contains(&n));
    place(c, n, 0, 0, 0, 0)
}

/// Reference: array-based backtracking with explicit attack checks (independent of the
/// bitmask code).
pub fn nqueens_reference(n: usize) -> u64 {
    fn go(n: usize, row: usize, q: &mut Vec<usize>) -> u64 {
        if row == n {
            return 1;
        }
        let mut count = 0;
        for col in 0..n {
            let ok = q
                .iter()
                .enumerate()
                .all(|(r, &qc)| qc != col && qc.abs_diff(col) != row - r);
            if ok {
                q.push(col);
                count += go(n, row + 1, q);
                q.pop();
            }
        }
        count
    }
    go(n, 0, &mut Vec::with_capacity(n))
}

/// The `nqueens` workload.
#[derive(Debug)]
pub struct NQueens {
    n: u32,
    expected: u64,
}

impl Workload for NQueens {
    type Input = ();
    type Output = u64;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> u64 {
        nqueens(c, self.n)
    }
    fn check(&self, out: &u64) -> Result<(), String> {
        if *out == self.expected {
            Ok(())
        } else {
            Err(format!(
                "{}-queens: {out} solutions, expected {}",
                self.n, self.expected
            ))
        }
    }
}

fn n_for(size: Size) -> u32 {
    size.pick(8, 12, 13)
}

/// Registry entry.
pub fn spec() -> WorkloadSpec {
    WorkloadSpec {
        name: "nqueens",
        group: Group::LowLatencyThesis,
        description: "N-Queens solution count, bitmask backtracking, join over free columns",
        params: |s| format!("n = {}", n_for(s)),
        build: |s, _seed| {
            let n = n_for(s);
            // The table for the benchmark sizes (the array search takes seconds at n = 13);
            // the tests check the table against the array search for small n.
            Box::new(NQueens {
                n,
                expected: SOLUTIONS[n as usize],
            }) as Box<dyn DynWorkload>
        },
    }
}

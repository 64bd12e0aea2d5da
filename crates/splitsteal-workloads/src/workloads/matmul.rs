//! `matmul` and `strassen`: dense `n × n` matrix multiplication (the low-latency thesis's
//! "matrix multiplication" and "Strassen", §4.2.1).
//!
//! Matrices are stored in a block-recursive (Morton) layout: the four quadrants are
//! consecutive quarters of the slice, recursively, down to [`BLOCK`]`×`[`BLOCK`] row-major
//! blocks. Quadrants are then disjoint sub-slices (`chunks_exact_mut`), so the parallel code
//! needs no `unsafe`, and each leaf works on contiguous, cache-resident blocks.
//!
//! Entries are small integers stored as `f64`, so every product and every Strassen
//! intermediate is exact and the result must equal the reference bit for bit.

use rand::RngExt;
use splitsteal::{ForkJoin, Serial};

use super::{rng, DynWorkload, Group, Size, Workload, WorkloadSpec};

/// Side of the row-major leaf blocks.
pub const BLOCK: usize = 32;
/// Side at or below which Strassen switches to the classical recursive product.
pub const STRASSEN_CUTOFF: usize = 64;

/// Offset of element `(i, j)` of an `n × n` matrix in the block-recursive layout with
/// leaf blocks of side `bs` (`n` a power of two, `bs` dividing `n`).
pub fn morton_index(n: usize, bs: usize, mut i: usize, mut j: usize) -> usize {
    let mut off = 0;
    let mut s = n;
    while s > bs {
        let h = s / 2;
        let q = usize::from(i >= h) * 2 + usize::from(j >= h);
        off += q * h * h;
        i %= h;
        j %= h;
        s = h;
    }
    off + i * bs + j
}

/// Converts a row-major matrix to the block-recursive layout.
pub fn to_morton(n: usize, bs: usize, rm: &[f64]) -> Vec<f64> {
    let mut m = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            m[morton_index(n, bs, i, j)] = rm[i * n + j];
        }
    }
    m
}

/// The leaf block side for an `n × n` matrix.
pub fn block_for(n: usize) -> usize {
    BLOCK.min(n)
}

fn quads(x: &[f64]) -> (&[f64], &[f64], &[f64], &[f64]) {
    let q = x.len() / 4;
    (&x[..q], &x[q..2 * q], &x[2 * q..3 * q], &x[3 * q..])
}

fn quads_mut(x: &mut [f64]) -> (&mut [f64], &mut [f64], &mut [f64], &mut [f64]) {
    let q = x.len() / 4;
    let (x0, rest) = x.split_at_mut(q);
    let (x1, rest) = rest.split_at_mut(q);
    let (x2, x3) = rest.split_at_mut(q);
    (x0, x1, x2, x3)
}

/// `out += a * b` on `bs × bs` row-major blocks.
#[inline]
fn kernel(a: &[f64], b: &[f64], out: &mut [f64], bs: usize) {
    for i in 0..bs {
        let orow = &mut out[i * bs..(i + 1) * bs];
        for k in 0..bs {
            let aik = a[i * bs + k];
            let brow = &b[k * bs..(k + 1) * bs];
            for (o, &bv) in orow.iter_mut().zip(brow) {
                *o += aik * bv;
            }
        }
    }
}

/// `out += a * b` for `n × n` matrices in the block-recursive layout: the four output
/// quadrants in parallel, each the sum of two sub-products computed one after the other.
pub fn matmul<C: ForkJoin>(c: &mut C, a: &[f64], b: &[f64], out: &mut [f64], n: usize, bs: usize) {
    if n <= bs {
        kernel(a, b, out, bs);
        return;
    }
    let h = n / 2;
    let (a00, a01, a10, a11) = quads(a);
    let (b00, b01, b10, b11) = quads(b);
    let (o00, o01, o10, o11) = quads_mut(out);
    c.join(
        |c| {
            c.join(
                |c| {
                    matmul(c, a00, b00, o00, h, bs);
                    matmul(c, a01, b10, o00, h, bs);
                },
                |c| {
                    matmul(c, a00, b01, o01, h, bs);
                    matmul(c, a01, b11, o01, h, bs);
                },
            )
        },
        |c| {
            c.join(
                |c| {
                    matmul(c, a10, b00, o10, h, bs);
                    matmul(c, a11, b10, o10, h, bs);
                },
                |c| {
                    matmul(c, a10, b01, o11, h, bs);
                    matmul(c, a11, b11, o11, h, bs);
                },
            )
        },
    );
}

fn add(x: &[f64], y: &[f64]) -> Vec<f64> {
    x.iter().zip(y).map(|(a, b)| a + b).collect()
}

fn sub(x: &[f64], y: &[f64]) -> Vec<f64> {
    x.iter().zip(y).map(|(a, b)| a - b).collect()
}

/// One Strassen product `l * r` of two `h × h` operands (already summed).
fn product<C: ForkJoin>(c: &mut C, l: &[f64], r: &[f64], h: usize, bs: usize) -> Vec<f64> {
    let mut m = vec![0.0; h * h];
    strassen(c, l, r, &mut m, h, bs);
    m
}

/// `out = a * b` by Strassen's algorithm: the seven products in parallel (each forming its
/// operands itself), then the four output quadrants in parallel.
pub fn strassen<C: ForkJoin>(
    c: &mut C,
    a: &[f64],
    b: &[f64],
    out: &mut [f64],
    n: usize,
    bs: usize,
) {
    if n <= STRASSEN_CUTOFF.max(bs) {
        out.fill(0.0);
        matmul(&mut Serial, a, b, out, n, bs);
        return;
    }
    let h = n / 2;
    let (a11, a12, a21, a22) = quads(a);
    let (b11, b12, b21, b22) = quads(b);
    let (((m1, m2), (m3, m4)), ((m5, m6), m7)) = c.join(
        |c| {
            c.join(
                |c| {
                    c.join(
                        |c| product(c, &add(a11, a22), &add(b11, b22), h, bs),
                        |c| product(c, &add(a21, a22), b11, h, bs),
                    )
                },
                |c| {
                    c.join(
                        |c| product(c, a11, &sub(b12, b22), h, bs),
                        |c| product(c, a22, &sub(b21, b11), h, bs),
                    )
                },
            )
        },
        |c| {
            c.join(
                |c| {
                    c.join(
                        |c| product(c, &add(a11, a12), b22, h, bs),
                        |c| product(c, &sub(a21, a11), &add(b11, b12), h, bs),
                    )
                },
                |c| product(c, &sub(a12, a22), &add(b21, b22), h, bs),
            )
        },
    );
    let (c11, c12, c21, c22) = quads_mut(out);
    let (m1, m2, m3, m4, m5, m6, m7) = (&m1, &m2, &m3, &m4, &m5, &m6, &m7);
    c.join(
        |c| {
            c.join(
                |_| {
                    for (i, o) in c11.iter_mut().enumerate() {
                        *o = m1[i] + m4[i] - m5[i] + m7[i];
                    }
                },
                |_| {
                    for (i, o) in c12.iter_mut().enumerate() {
                        *o = m3[i] + m5[i];
                    }
                },
            )
        },
        |c| {
            c.join(
                |_| {
                    for (i, o) in c21.iter_mut().enumerate() {
                        *o = m2[i] + m4[i];
                    }
                },
                |_| {
                    for (i, o) in c22.iter_mut().enumerate() {
                        *o = m1[i] - m2[i] + m3[i] + m6[i];
                    }
                },
            )
        },
    );
}

/// The textbook row-major triple loop in exact integer arithmetic (the tests' reference).
pub fn matmul_reference(n: usize, a: &[i64], b: &[i64]) -> Vec<i64> {
    let mut c = vec![0i64; n * n];
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

/// Which algorithm a [`MatMul`] workload runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algo {
    /// Classical 8-way recursive product.
    Classical,
    /// Strassen's 7-product recursion.
    Strassen,
}

/// The `matmul` / `strassen` workload.
///
/// Outputs are verified with Freivalds' check in exact integer arithmetic:
/// `C·x = A·(B·x)` for [`FREIVALDS_VECTORS`] random vectors `x` with entries below 2^20,
/// O(n²) per vector and independent of the parallel code (a wrong `C` passes with
/// probability at most 2^-20 per vector). The tests compare with the full product.
#[derive(Debug)]
pub struct MatMul {
    algo: Algo,
    n: usize,
    bs: usize,
    a: Vec<f64>,
    b: Vec<f64>,
    // Row-major copies, for the tests' comparison with the full product.
    #[cfg_attr(not(test), allow(dead_code))]
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub a_rm: Vec<i64>,
    #[cfg_attr(not(test), allow(dead_code))]
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub b_rm: Vec<i64>,
    xs: Vec<Vec<i64>>,
    /// `A·(B·x)` for each `x` of `xs`.
    abx: Vec<Vec<i64>>,
}

/// Random vectors used by Freivalds' check.
pub const FREIVALDS_VECTORS: usize = 2;

fn mat_vec(n: usize, m: &[i64], x: &[i64]) -> Vec<i64> {
    (0..n)
        .map(|i| {
            m[i * n..(i + 1) * n]
                .iter()
                .zip(x)
                .map(|(a, b)| a * b)
                .sum()
        })
        .collect()
}

impl MatMul {
    /// Two random `n × n` matrices with entries in -4..=4, and Freivalds' vectors.
    pub fn new(algo: Algo, n: usize, seed: u64) -> MatMul {
        assert!(n.is_power_of_two());
        let mut r = rng(seed, 4);
        let a_rm: Vec<i64> = (0..n * n).map(|_| r.random_range(-4..=4i64)).collect();
        let b_rm: Vec<i64> = (0..n * n).map(|_| r.random_range(-4..=4i64)).collect();
        let bs = block_for(n);
        let af: Vec<f64> = a_rm.iter().map(|&x| x as f64).collect();
        let bf: Vec<f64> = b_rm.iter().map(|&x| x as f64).collect();
        let xs: Vec<Vec<i64>> = (0..FREIVALDS_VECTORS)
            .map(|_| (0..n).map(|_| r.random_range(0..1i64 << 20)).collect())
            .collect();
        let abx = xs
            .iter()
            .map(|x| mat_vec(n, &a_rm, &mat_vec(n, &b_rm, x)))
            .collect();
        MatMul {
            algo,
            n,
            bs,
            a: to_morton(n, bs, &af),
            b: to_morton(n, bs, &bf),
            a_rm,
            b_rm,
            xs,
            abx,
        }
    }

    /// The output converted to row-major integers (an error if an entry is not an exact
    /// integer).
    #[doc(hidden)] // public for the module tests (tests/modules)
    pub fn output_rm(&self, out: &[f64]) -> Result<Vec<i64>, String> {
        let n = self.n;
        if out.len() != n * n {
            return Err(format!(
                "output has {} entries, expected {}",
                out.len(),
                n * n
            ));
        }
        let mut c = vec![0i64; n * n];
        for i in 0..n {
            for j in 0..n {
                let v = out[morton_index(n, self.bs, i, j)];
                if v.fract() != 0.0 || v.abs() > (1u64 << 52) as f64 {
                    return Err(format!("C[{i}][{j}] = {v} is not an exact integer"));
                }
                c[i * n + j] = v as i64;
            }
        }
        Ok(c)
    }
}

impl Workload for MatMul {
    type Input = Vec<f64>;
    type Output = Vec<f64>;
    fn input(&self) -> Vec<f64> {
        vec![0.0; self.n * self.n]
    }
    fn run<C: ForkJoin>(&self, c: &mut C, mut out: Vec<f64>) -> Vec<f64> {
        match self.algo {
            Algo::Classical => matmul(c, &self.a, &self.b, &mut out, self.n, self.bs),
            Algo::Strassen => strassen(c, &self.a, &self.b, &mut out, self.n, self.bs),
        }
        out
    }
    fn check(&self, out: &Vec<f64>) -> Result<(), String> {
        let c = self.output_rm(out)?;
        for (x, want) in self.xs.iter().zip(&self.abx) {
            let got = mat_vec(self.n, &c, x);
            if let Some(i) = got.iter().zip(want).position(|(g, w)| g != w) {
                return Err(format!(
                    "Freivalds' check fails in row {i}: (C·x)[{i}] = {}, (A·B·x)[{i}] = {}",
                    got[i], want[i]
                ));
            }
        }
        Ok(())
    }
}

fn n_matmul(size: Size) -> usize {
    size.pick(64, 512, 1024)
}

fn n_strassen(size: Size) -> usize {
    size.pick(128, 512, 1024)
}

/// Registry entry for `matmul`.
pub fn spec_matmul() -> WorkloadSpec {
    WorkloadSpec {
        name: "matmul",
        group: Group::LowLatencyThesis,
        description: "recursive matrix product, block-recursive layout, 4 quadrants in parallel",
        params: |s| {
            let n = n_matmul(s);
            format!("{n}×{n} f64 (integer entries), {BLOCK}×{BLOCK} leaves")
        },
        build: |s, seed| {
            Box::new(MatMul::new(Algo::Classical, n_matmul(s), seed)) as Box<dyn DynWorkload>
        },
    }
}

/// Registry entry for `strassen`.
pub fn spec_strassen() -> WorkloadSpec {
    WorkloadSpec {
        name: "strassen",
        group: Group::LowLatencyThesis,
        description: "Strassen's algorithm, 7 products in parallel, classical below 64×64",
        params: |s| {
            let n = n_strassen(s);
            format!("{n}×{n} f64 (integer entries), cutoff {STRASSEN_CUTOFF}")
        },
        build: |s, seed| {
            Box::new(MatMul::new(Algo::Strassen, n_strassen(s), seed ^ 1)) as Box<dyn DynWorkload>
        },
    }
}

//! PBBS's input generators, with its distributions and parameters, seeded and portable.
//!
//! PBBS draws element `i` from a hash of `i` (`utils::hash`), so that a file does not
//! depend on the thread count; the same here, with [`splitmix64`] of the seed and index
//! as the hash. The same (seed, n) gives the same values, bit for bit, on every machine.
//! The values are not PBBS's own (its hash differs), the distributions are.

use std::f64::consts::PI;
use std::path::Path;

use super::format::{self, AdjGraph, PbbsData};
use crate::workloads::pbbs::graph::Graph;
use crate::workloads::splitmix64;

/// The hash behind every generator: `i`-th value of stream `seed`.
#[inline]
pub fn hash(seed: u64, i: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ i)
}

/// A uniform double in `[0, 1)` from 53 hash bits.
#[inline]
fn unit(seed: u64, i: u64) -> f64 {
    (hash(seed, i) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// PBBS randomSeq (`randomSeq -r range n`): `n` integers uniform in `0..range` (PBBS's
/// default range is `n`; its standard files also use 256, 10^5 and 2^31).
pub fn random_seq(n: usize, range: u64, seed: u64) -> Vec<i64> {
    assert!(range > 0, "random_seq: range must be positive");
    (0..n)
        .map(|i| (hash(seed, i as u64) % range) as i64)
        .collect()
}

/// PBBS randomSeq -t double: `n` doubles uniform in `[0, 1)`.
pub fn random_doubles(n: usize, seed: u64) -> Vec<f64> {
    (0..n).map(|i| unit(seed, i as u64)).collect()
}

/// PBBS exptSeq (`dataGen::expDist`): element `i` draws `range = 2^(h(2i) mod lg)` with
/// `lg = log2Up(n) + 1`, then the key `range + h(2i+1) mod range`, so key sizes are
/// log-uniform and small keys repeat exponentially often; the output is the key's hash
/// (PBBS `hash<T>`), reduced into `0..range` so that values spread over the key space.
pub fn expt_seq(n: usize, range: u64, seed: u64) -> Vec<i64> {
    assert!(range > 0, "expt_seq: range must be positive");
    let lg = log2_up(n as u64) + 1;
    (0..n as u64)
        .map(|i| (hash(seed ^ 0x5eed, expt_key(seed, i, lg)) % range) as i64)
        .collect()
}

/// exptSeq's key of element `i` before it is hashed: `r + h mod r` with
/// `r = 2^(h' mod lg)`, so its size is log-uniform below `2^lg`.
pub fn expt_key(seed: u64, i: u64, lg: u32) -> u64 {
    let r = 1u64 << (hash(seed, 2 * i) % lg as u64);
    r + hash(seed, 2 * i + 1) % r
}

/// `ceil(log2(x))`, 0 for x <= 1 (PBBS `utils::log2Up`).
pub fn log2_up(x: u64) -> u32 {
    if x <= 1 {
        0
    } else {
        64 - (x - 1).leading_zeros()
    }
}

/// PBBS almostSortedSeq (`dataGen::almostSorted`): `0..n` in order, then `swaps` swaps of
/// two random positions (PBBS's default is `floor(sqrt(n))` swaps: [`default_swaps`]).
pub fn almost_sorted_seq(n: usize, swaps: usize, seed: u64) -> Vec<i64> {
    let mut a: Vec<i64> = (0..n as i64).collect();
    if n == 0 {
        return a;
    }
    for i in 0..swaps as u64 {
        let x = (hash(seed, 2 * i) % n as u64) as usize;
        let y = (hash(seed, 2 * i + 1) % n as u64) as usize;
        a.swap(x, y);
    }
    a
}

/// PBBS's default swap count for almostSortedSeq: `floor(sqrt(n))`.
pub fn default_swaps(n: usize) -> usize {
    (n as f64).sqrt().floor() as usize
}

/// PBBS rMat's quadrant probabilities (a, b, c); d = 1 - a - b - c = 0.3.
pub const RMAT_ABC: (f64, f64, f64) = (0.5, 0.1, 0.1);

/// The (row, column) bit of one rMat level for a uniform draw `x` in [0, 1): quadrant
/// (0,0) with probability a, (0,1) with b, (1,0) with c, (1,1) with the rest.
pub fn rmat_quadrant(x: f64, (a, b, c): (f64, f64, f64)) -> (u32, u32) {
    if x < a {
        (0, 0)
    } else if x < a + b {
        (0, 1)
    } else if x < a + b + c {
        (1, 0)
    } else {
        (1, 1)
    }
}

/// PBBS rMatGraph: `m` directed edges over `2^log_n` vertices, each edge placed by
/// descending `log_n` levels of the adjacency matrix with quadrant probabilities
/// (a, b, c, d) = (0.5, 0.1, 0.1, 0.3), every level's choice from its own hash.
pub fn rmat_edges(log_n: u32, m: usize, seed: u64) -> Vec<(u32, u32)> {
    let (a, b, c) = RMAT_ABC;
    (0..m as u64)
        .map(|e| {
            let (mut u, mut v) = (0u32, 0u32);
            for l in 0..log_n as u64 {
                let (bu, bv) = rmat_quadrant(unit(seed, e * 64 + l), (a, b, c));
                u = (u << 1) | bu;
                v = (v << 1) | bv;
            }
            (u, v)
        })
        .collect()
}

/// PBBS randLocalGraph (shape): each of the `n` vertices gets `degree` edges to vertices
/// near it: offset `1 + h mod 2^k` with `k` uniform in `0..=log2Up(n)`, so most edges are
/// short (good locality) and a few span the graph, wrapping around at `n`.
pub fn rand_local_edges(n: usize, degree: usize, seed: u64) -> Vec<(u32, u32)> {
    let lg = log2_up(n as u64) as u64 + 1;
    let mut e = Vec::with_capacity(n * degree);
    for v in 0..n as u64 {
        for j in 0..degree as u64 {
            let i = v * degree as u64 + j;
            let k = hash(seed, 2 * i) % lg;
            let off = 1 + hash(seed, 2 * i + 1) % (1u64 << k);
            e.push((v as u32, ((v + off) % n as u64) as u32));
        }
    }
    e
}

/// Symmetrizes `edges` over `n` vertices (PBBS's `-j`: each edge both ways, self-loops and
/// duplicates dropped) into an adjacency graph.
pub fn symmetric_graph(n: usize, edges: &[(u32, u32)]) -> AdjGraph {
    let g = Graph::from_edges(n, edges);
    AdjGraph::from_csr(&g.offsets, &g.adj)
}

/// PBBS 2DinCube: `n` points uniform in the unit square.
pub fn in_square(n: usize, seed: u64) -> Vec<(f64, f64)> {
    (0..n as u64)
        .map(|i| (unit(seed, 2 * i), unit(seed, 2 * i + 1)))
        .collect()
}

/// PBBS 2DinSphere: `n` points uniform in the unit disk (rejection from the square, each
/// point from its own hash stream so that point `i` does not depend on the others).
pub fn in_circle(n: usize, seed: u64) -> Vec<(f64, f64)> {
    (0..n as u64)
        .map(|i| {
            let s = hash(seed, i);
            let mut t = 0;
            loop {
                let x = 2.0 * unit(s, 2 * t) - 1.0;
                let y = 2.0 * unit(s, 2 * t + 1) - 1.0;
                if x * x + y * y < 1.0 {
                    return (x, y);
                }
                t += 1;
            }
        })
        .collect()
}

/// PBBS 2Dkuzmin: `n` points from Kuzmin's disk (surface density ∝ (1 + r²)^(-3/2)):
/// radius from the inverse of its mass fraction `1 - 1/sqrt(1 + r²)`, angle uniform. Heavy
/// tailed: a few points lie very far out, most near the centre.
pub fn kuzmin(n: usize, seed: u64) -> Vec<(f64, f64)> {
    (0..n as u64)
        .map(|i| {
            let u = unit(seed, 2 * i);
            let s = 1.0 / (1.0 - u);
            let r = (s * s - 1.0).sqrt();
            let a = 2.0 * PI * unit(seed, 2 * i + 1);
            (r * a.cos(), r * a.sin())
        })
        .collect()
}

/// The English sample the trigram model is counted from: ordinary prose, written for this
/// purpose, so that the letter statistics are English's without shipping a corpus.
const ENGLISH: &str = "\
the problem based benchmark suite is a collection of problems that are defined by their input and \
output rather than by the code that solves them. each problem comes with inputs of several kinds and \
with a program that checks whether an output is correct for its input. the suite was designed so that \
people could compare parallel algorithms and the systems that run them on the same footing. among the \
problems there are sorting and searching of sequences, counting the words of a text, finding the \
shortest paths and the breadth first trees of large graphs, and building the convex hull of a cloud of \
points in the plane. a scheduler that steals work from the other processors when it runs out of its \
own keeps every core busy while the work is uneven, and it does so without a central queue that all \
of the threads would have to share. when one of the workers finishes early it looks at another \
worker and takes the oldest task it finds there, which is usually the largest piece of the remaining \
computation. the thief then splits that piece again and again, so that the other workers can help, \
and in this way the whole computation is spread over the machine with very little communication. \
this works well for divide and conquer programs where each step splits the problem into two halves \
of about the same size, but it also works for loops over large arrays and for the rounds of graph \
algorithms in which the frontier grows and shrinks from one round to the next. the measurements in \
these papers show where the time goes: in the memory fences that protect the deque, in the atomic \
operations that settle a race between the owner and a thief, and in the cache misses that follow \
when a task moves to another core. with these numbers in hand the authors could choose which of the \
operations to remove and show that the programs still compute the right answer every time.";

/// A letter-trigram model of English (PBBS trigramSeq/trigramString draw words from one):
/// for each pair of preceding characters (space at a word's start), the counts of the
/// next character, space meaning the end of the word.
pub struct Trigrams {
    /// `next[a][b][c]`: how often `c` follows `a b`; index 0 is space, 1..=26 a..z.
    next: Vec<[[u32; 27]; 27]>,
}

fn letter_index(b: u8) -> usize {
    if b.is_ascii_lowercase() {
        (b - b'a') as usize + 1
    } else {
        0
    }
}

impl Trigrams {
    /// The model counted from the built-in English sample.
    pub fn english() -> Trigrams {
        let mut next = vec![[[0u32; 27]; 27]; 27];
        for w in ENGLISH.split(|c: char| !c.is_ascii_lowercase()) {
            if w.is_empty() {
                continue;
            }
            let (mut a, mut b) = (0, 0);
            for c in w.bytes().map(letter_index).chain(std::iter::once(0)) {
                next[a][b][c] += 1;
                (a, b) = (b, c);
            }
        }
        Trigrams { next }
    }

    /// One word from hash stream `stream` of `seed`: letters drawn by the counts of what
    /// follows the two characters before, until the end is drawn (at most 16 letters).
    pub fn word(&self, seed: u64, stream: u64, out: &mut Vec<u8>) {
        let (mut a, mut b) = (0usize, 0usize);
        for j in 0..16u64 {
            let counts = &self.next[a][b];
            let total: u32 = counts.iter().sum();
            if total == 0 {
                return;
            }
            let mut x = (hash(seed, stream * 17 + j) % total as u64) as u32;
            let mut c = 0;
            while x >= counts[c] {
                x -= counts[c];
                c += 1;
            }
            if c == 0 {
                return;
            }
            out.push(b'a' + c as u8 - 1);
            (a, b) = (b, c);
        }
    }
}

/// PBBS trigramString: words of the English trigram model ([`Trigrams`]), separated by a
/// space (a line feed after about one word in ten), until the text is `n` bytes long.
pub fn trigram_string(n: usize, seed: u64) -> Vec<u8> {
    let model = Trigrams::english();
    let mut t = Vec::with_capacity(n + 20);
    let mut i = 0u64;
    while t.len() < n {
        model.word(seed, i, &mut t);
        t.push(if hash(seed ^ 0x7e7, i).is_multiple_of(10) {
            b'\n'
        } else {
            b' '
        });
        i += 1;
    }
    t.truncate(n);
    t
}

/// One standard input: PBBS's file name and its contents.
pub struct StandardInput {
    /// PBBS's file name, e.g. `randomSeq_10M_int`.
    pub name: String,
    /// The contents.
    pub data: PbbsData,
}

/// PBBS's size suffix: `10M`, `100K`, or the number itself.
pub fn size_name(n: usize) -> String {
    if n >= 1_000_000 && n.is_multiple_of(1_000_000) {
        format!("{}M", n / 1_000_000)
    } else if n >= 1000 && n.is_multiple_of(1000) {
        format!("{}K", n / 1000)
    } else {
        n.to_string()
    }
}

/// A standard input not yet made: its name, and the generator that makes it (so that
/// [`write_standard_inputs`] holds one input in memory at a time, which matters at 10^7).
pub type Maker = (String, Box<dyn FnOnce() -> PbbsData>);

/// The standard inputs of the PBBS workloads at size `n`, with PBBS's file names.
pub fn standard_inputs(n: usize, seed: u64) -> Vec<StandardInput> {
    makers(n, seed)
        .into_iter()
        .map(|(name, make)| StandardInput { name, data: make() })
        .collect()
}

/// The names of [`standard_inputs`] at size `n`, without making the inputs.
pub fn standard_names(n: usize) -> Vec<String> {
    makers(n, 0).into_iter().map(|(name, _)| name).collect()
}

/// [`standard_inputs`], each behind its generator.
pub fn makers(n: usize, seed: u64) -> Vec<Maker> {
    let s = size_name(n);
    let log_n = log2_up(n as u64);
    let m = |name: String, make: Box<dyn FnOnce() -> PbbsData>| (name, make);
    vec![
        m(
            format!("randomSeq_{s}_int"),
            Box::new(move || PbbsData::Ints(random_seq(n, n as u64, seed))),
        ),
        m(
            format!("randomSeq_{s}_256_int"),
            Box::new(move || PbbsData::Ints(random_seq(n, 256, seed ^ 1))),
        ),
        m(
            format!("randomSeq_{s}_100K_int"),
            Box::new(move || PbbsData::Ints(random_seq(n, 100_000, seed ^ 2))),
        ),
        m(
            format!("randomSeq_{s}_2^31_int"),
            Box::new(move || PbbsData::Ints(random_seq(n, 1 << 31, seed ^ 3))),
        ),
        m(
            format!("exptSeq_{s}_int"),
            Box::new(move || PbbsData::Ints(expt_seq(n, n as u64, seed ^ 4))),
        ),
        m(
            format!("almostSortedSeq_{s}_int"),
            Box::new(move || PbbsData::Ints(almost_sorted_seq(n, default_swaps(n), seed ^ 5))),
        ),
        m(
            format!("randomSeq_{s}_double"),
            Box::new(move || PbbsData::Doubles(random_doubles(n, seed ^ 6))),
        ),
        m(
            format!("rMatGraph_J_5_{s}"),
            Box::new(move || {
                PbbsData::Adjacency(symmetric_graph(
                    1 << log_n,
                    &rmat_edges(log_n, 5 * n, seed ^ 7),
                ))
            }),
        ),
        m(
            format!("randLocalGraph_J_5_{s}"),
            Box::new(move || {
                PbbsData::Adjacency(symmetric_graph(n, &rand_local_edges(n, 5, seed ^ 8)))
            }),
        ),
        m(
            format!("2DinCube_{s}"),
            Box::new(move || PbbsData::Points2d(in_square(n, seed ^ 9))),
        ),
        m(
            format!("2DinSphere_{s}"),
            Box::new(move || PbbsData::Points2d(in_circle(n, seed ^ 10))),
        ),
        m(
            format!("2Dkuzmin_{s}"),
            Box::new(move || PbbsData::Points2d(kuzmin(n, seed ^ 11))),
        ),
        m(
            format!("trigramString_{s}"),
            Box::new(move || PbbsData::Words(trigram_string(n, seed ^ 12))),
        ),
    ]
}

/// Writes [`standard_inputs`] into `dir` (created if missing); returns the file names.
pub fn write_standard_inputs(dir: &Path, n: usize, seed: u64) -> Result<Vec<String>, String> {
    splitsteal_report::out_dir::prepare(dir).map_err(|e| e.to_string())?;
    let mut names = Vec::new();
    for (name, make) in makers(n, seed) {
        format::write(&dir.join(&name), &make())?;
        names.push(name);
    }
    Ok(names)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    const N: usize = 100_000;

    fn mean(v: &[i64]) -> f64 {
        v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64
    }

    /// Pearson's chi-square of `counts` against equal expected counts.
    fn chi2_uniform(counts: &[usize]) -> f64 {
        let total: usize = counts.iter().sum();
        let e = total as f64 / counts.len() as f64;
        counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
    }

    #[test]
    fn random_seq_is_uniform_in_range() {
        for range in [256u64, 100_000, 1 << 31, N as u64] {
            let v = random_seq(N, range, 1);
            assert!(v.iter().all(|&x| (0..range as i64).contains(&x)));
            let m = mean(&v) / range as f64;
            assert!((m - 0.5).abs() < 0.01, "range {range}: mean/range {m}");
            // 64 buckets, 63 degrees of freedom: mean 63, sd ≈ 11; 150 is > 7 sd.
            let mut b = [0usize; 64];
            for &x in &v {
                b[(x as u128 * 64 / range as u128) as usize] += 1;
            }
            let c = chi2_uniform(&b);
            assert!(c < 150.0, "range {range}: chi-square {c}");
        }
        let d = random_doubles(N, 2);
        assert!(d.iter().all(|x| (0.0..1.0).contains(x)));
        let m = d.iter().sum::<f64>() / N as f64;
        assert!((m - 0.5).abs() < 0.01, "{m}");
    }

    #[test]
    fn expt_seq_repeats_small_keys_exponentially() {
        let v = expt_seq(N, N as u64, 3);
        assert!(v.iter().all(|&x| (0..N as i64).contains(&x)));
        let mut counts = std::collections::HashMap::new();
        for &x in &v {
            *counts.entry(x).or_insert(0usize) += 1;
        }
        // Key 1 (range 1) comes with probability 1/lg: lg = 18 for 10^5.
        let lg = (log2_up(N as u64) + 1) as f64;
        let top = *counts.values().max().unwrap() as f64;
        let want = N as f64 / lg;
        assert!(
            (top / want - 1.0).abs() < 0.15,
            "top {top}, want about {want}"
        );
        // Far fewer distinct values than a uniform sequence (which has ~63% of n).
        assert!(counts.len() < N / 3, "{} distinct", counts.len());
        let u: std::collections::HashSet<_> = random_seq(N, N as u64, 3).into_iter().collect();
        assert!(u.len() > N / 2);
    }

    #[test]
    fn almost_sorted_is_a_nearly_sorted_permutation() {
        let v = almost_sorted_seq(N, default_swaps(N), 4);
        assert_eq!(default_swaps(N), 316);
        let mut s = v.clone();
        s.sort_unstable();
        assert_eq!(s, (0..N as i64).collect::<Vec<_>>());
        let out_of_place = v
            .iter()
            .enumerate()
            .filter(|(i, &x)| *i as i64 != x)
            .count();
        // Each swap moves two elements (rarely fewer); at most 2 · 316.
        assert!((500..=632).contains(&out_of_place), "{out_of_place}");
        let descents = v.windows(2).filter(|w| w[0] > w[1]).count();
        assert!(descents > 400 && descents <= 700, "{descents}");
    }

    /// Inversions by merge sort, O(n log n).
    fn inversions(v: &mut [i64]) -> u64 {
        if v.len() < 2 {
            return 0;
        }
        let mid = v.len() / 2;
        let mut inv = inversions(&mut v[..mid]) + inversions(&mut v[mid..]);
        let (l, r) = (v[..mid].to_vec(), v[mid..].to_vec());
        let (mut i, mut j) = (0, 0);
        for slot in v.iter_mut() {
            if j == r.len() || (i < l.len() && l[i] <= r[j]) {
                *slot = l[i];
                i += 1;
            } else {
                *slot = r[j];
                j += 1;
                inv += (l.len() - i) as u64;
            }
        }
        inv
    }

    #[test]
    fn almost_sorted_inversions_are_of_the_expected_order() {
        // A swap of positions x < y adds 2(y - x) - 1 inversions (fewer when swaps
        // overlap, which is rare at sqrt(n) swaps); E|x - y| = n/3, so about
        // swaps · 2n/3 in all: 2.1e7 here, against n²/4 = 2.5e9 for a random order.
        let mut v = almost_sorted_seq(N, default_swaps(N), 4);
        let inv = inversions(&mut v) as f64;
        let want = default_swaps(N) as f64 * 2.0 * N as f64 / 3.0;
        assert!(
            (inv / want - 1.0).abs() < 0.15,
            "{inv} inversions, want about {want}"
        );
        let mut r = random_seq(N, N as u64, 4);
        let rinv = inversions(&mut r) as f64;
        assert!(
            (rinv / (N as f64 * N as f64 / 4.0) - 1.0).abs() < 0.02,
            "{rinv}"
        );
    }

    #[test]
    fn expt_seq_key_sizes_are_log_uniform() {
        // The key drawn for element i lies in [r, 2r) with r = 2^k, k uniform in 0..lg:
        // its median is near 2^(lg/2), far below the n/2 of a uniform key.
        let lg = log2_up(N as u64) + 1;
        let mut keys: Vec<u64> = (0..N as u64).map(|i| expt_key(3, i, lg)).collect();
        keys.sort_unstable();
        let median = keys[N / 2] as f64;
        let want = 2f64.powi(lg as i32 / 2);
        assert!(
            median > want / 2.0 && median < want * 3.0,
            "median {median}, want about {want}"
        );
        let mean = keys.iter().sum::<u64>() as f64 / N as f64;
        // E[key] = Σ_k 1.5 · 2^k / lg ≈ 1.5 · 2^lg / lg.
        let want_mean = 1.5 * 2f64.powi(lg as i32) / lg as f64;
        assert!(
            (mean / want_mean - 1.0).abs() < 0.1,
            "mean {mean}, want {want_mean}"
        );
    }

    #[test]
    fn trigram_words_look_like_english() {
        let t = trigram_string(200_000, 5);
        assert_eq!(t.len(), 200_000);
        assert!(t
            .iter()
            .all(|&b| b.is_ascii_lowercase() || b == b' ' || b == b'\n'));
        let words: Vec<&[u8]> = t
            .split(|b| !b.is_ascii_lowercase())
            .filter(|w| !w.is_empty())
            .collect();
        let mean = words.iter().map(|w| w.len()).sum::<usize>() as f64 / words.len() as f64;
        // English running text averages 4 to 5 letters a word; the model's sample ~4.6.
        assert!((3.5..6.0).contains(&mean), "mean word length {mean}");
        assert!(words.iter().all(|w| w.len() <= 16));
        let mut freq = [0usize; 26];
        for w in &words {
            for &b in *w {
                freq[(b - b'a') as usize] += 1;
            }
        }
        let letters: usize = freq.iter().sum();
        let f = |c: u8| freq[(c - b'a') as usize] as f64 / letters as f64;
        // English's commonest letter is e (about 12%); q, z, x are rare.
        assert!(freq.iter().max() == Some(&freq[4]), "{freq:?}");
        assert!(
            f(b'e') > 0.08 && f(b'q') < 0.01 && f(b'z') < 0.01,
            "{freq:?}"
        );
        // A trigram model repeats common words: 'the' is among them, and the
        // vocabulary is far smaller than the word count.
        let distinct: std::collections::HashSet<&[u8]> = words.iter().copied().collect();
        assert!(words.iter().filter(|w| **w == b"the").count() > words.len() / 100);
        assert!(
            distinct.len() < words.len() / 2,
            "{} distinct",
            distinct.len()
        );
        // Portable: the same text on every machine (a change of the model, the sample
        // or the hash shows up here).
        assert_eq!(
            String::from_utf8(trigram_string(40, 1)).unwrap(),
            "to\nthe works computs the at thms\nthe\nits"
        );
    }

    #[test]
    fn standard_names_are_the_inputs_names() {
        for n in [1000, 2500, 3_000_000] {
            let names: Vec<String> = if n <= 2500 {
                standard_inputs(n, 1).into_iter().map(|i| i.name).collect()
            } else {
                standard_names(n)
            };
            assert_eq!(names, standard_names(n));
        }
        assert!(standard_names(10_000_000).contains(&"randomSeq_10M_int".to_string()));
    }

    #[test]
    fn rmat_degrees_are_skewed() {
        let log_n = 14;
        let m = 5 << log_n;
        let e = rmat_edges(log_n, m, 5);
        let n = 1usize << log_n;
        // The top-left quadrant gets a = 0.5 of the edges at the first level: source and
        // target both in the lower half.
        let both_low = e
            .iter()
            .filter(|&&(u, v)| (u as usize) < n / 2 && (v as usize) < n / 2);
        let f = both_low.count() as f64 / m as f64;
        assert!((f - 0.5).abs() < 0.02, "{f}");
        // Source's high bit is set with probability c + d = 0.4.
        let hi = e.iter().filter(|&&(u, _)| u as usize >= n / 2).count() as f64 / m as f64;
        assert!((hi - 0.4).abs() < 0.02, "{hi}");
        let g = symmetric_graph(n, &e);
        let (off, _) = g.to_csr();
        let deg: Vec<usize> = off.windows(2).map(|w| w[1] - w[0]).collect();
        let max = *deg.iter().max().unwrap() as f64;
        let avg = deg.iter().sum::<usize>() as f64 / n as f64;
        // Skewed: the top vertex has about 11 times the mean degree here; a uniform random
        // graph of this size and mean (Poisson degrees) would top out near 2.7 times.
        assert!(max > 5.0 * avg, "max {max}, avg {avg}");
    }

    #[test]
    fn rand_local_edges_are_mostly_short() {
        let n = 1 << 14;
        let e = rand_local_edges(n, 5, 6);
        assert_eq!(e.len(), 5 * n);
        let dist = |&(u, v): &(u32, u32)| (v as usize + n - u as usize) % n;
        let short = e.iter().filter(|x| dist(x) <= 128).count() as f64 / e.len() as f64;
        // k ≤ 7 of 0..=14 (8/15) gives an offset ≤ 128; larger k sometimes does too.
        assert!(short > 0.53 && short < 0.65, "{short}");
        assert!(e.iter().all(|x| dist(x) >= 1));
    }

    #[test]
    fn points_follow_their_distributions() {
        let sq = in_square(N, 7);
        assert!(sq
            .iter()
            .all(|&(x, y)| (0.0..1.0).contains(&x) && (0.0..1.0).contains(&y)));
        let mut b = [0usize; 16];
        for &(x, y) in &sq {
            b[(x * 4.0) as usize * 4 + (y * 4.0) as usize] += 1;
        }
        // 15 degrees of freedom: mean 15, sd ≈ 5.5.
        assert!(chi2_uniform(&b) < 60.0, "{}", chi2_uniform(&b));

        let c = in_circle(N, 8);
        assert!(c.iter().all(|&(x, y)| x * x + y * y < 1.0));
        // Uniform in the disk: P(r < 1/2) = 1/4.
        let inner = c.iter().filter(|&&(x, y)| x * x + y * y < 0.25).count() as f64 / N as f64;
        assert!((inner - 0.25).abs() < 0.01, "{inner}");

        let k = kuzmin(N, 9);
        // Kuzmin mass within r: 1 - 1/sqrt(1 + r²): r = 1 holds 1 - 1/√2 ≈ 0.293, r = 10
        // holds ≈ 0.9005.
        let within =
            |r: f64| k.iter().filter(|&&(x, y)| x * x + y * y < r * r).count() as f64 / N as f64;
        assert!((within(1.0) - 0.2929).abs() < 0.01, "{}", within(1.0));
        assert!((within(10.0) - 0.9005).abs() < 0.01, "{}", within(10.0));
    }

    #[test]
    fn same_seed_same_output_other_seed_other_output() {
        let a = standard_inputs(1000, 42);
        let b = standard_inputs(1000, 42);
        let c = standard_inputs(1000, 43);
        for ((x, y), z) in a.iter().zip(&b).zip(&c) {
            assert_eq!(x.name, y.name);
            assert_eq!(
                format::to_text(&x.data),
                format::to_text(&y.data),
                "{}",
                x.name
            );
            assert_ne!(
                format::to_text(&x.data),
                format::to_text(&z.data),
                "{}",
                x.name
            );
        }
        // Pinned values: a change of hash or of its use shows up here, on any machine.
        assert_eq!(
            random_seq(4, 1000, 42),
            vec![PIN[0], PIN[1], PIN[2], PIN[3]]
        );
    }

    const PIN: [i64; 4] = [668, 893, 94, 698];

    #[test]
    fn standard_inputs_have_pbbs_names_and_parse_back() {
        let names: Vec<String> = standard_inputs(2000, 1)
            .into_iter()
            .map(|i| i.name)
            .collect();
        assert!(names.contains(&"randomSeq_2K_int".to_string()), "{names:?}");
        assert!(names.contains(&"rMatGraph_J_5_2K".to_string()));
        assert_eq!(size_name(10_000_000), "10M");
        assert_eq!(size_name(100_000), "100K");
        assert_eq!(size_name(1234), "1234");
        let dir = std::env::temp_dir().join(format!("pbbs_gen_{}", std::process::id()));
        let written = write_standard_inputs(&dir, 500, 3).unwrap();
        for (name, inp) in written.iter().zip(standard_inputs(500, 3)) {
            assert_eq!(format::read(&dir.join(name)).unwrap(), inp.data, "{name}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

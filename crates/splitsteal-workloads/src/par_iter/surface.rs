// The surface programs of the `iter` section (issue 31): one short program per source
// family, adaptor with its own splitting, consumer and sort of rayon's prelude, so that a
// slow or wrong corner of the iterator surface shows as its own row. Like `fine.rs`, this
// file is `include!`d twice, under `use rayon::{join, prelude::*};` and under
// `use splitsteal::{join, prelude::*};`; it names std's collections by path and the
// element functions of its parent (`super::scramble`, `super::heavy`), which the serial
// references share.

// ---- sources ----

/// `par_iter` over a slice: Σ (scramble(x) >> 40).
pub fn src_slice(v: &[u64]) -> u64 {
    v.par_iter().map(|&x| super::scramble(x) >> 40).sum()
}

/// `par_iter_mut` over a slice: every element scrambled in place.
pub fn src_slice_mut(v: &mut [u64]) {
    v.par_iter_mut().for_each(|x| *x = super::scramble(*x));
}

/// `par_chunks`: the sum of the maxima of chunks of 100.
pub fn src_chunks(v: &[u64]) -> u64 {
    v.par_chunks(100)
        .map(|c| c.iter().copied().max().unwrap_or(0))
        .sum()
}

/// `par_chunks_mut(cols).enumerate().for_each`: a row loop over a grid, each cell mixed
/// with its index.
pub fn src_chunks_mut_rows(grid: &mut [u64], cols: usize) {
    grid.par_chunks_mut(cols).enumerate().for_each(|(r, row)| {
        for (c, x) in row.iter_mut().enumerate() {
            *x ^= super::scramble((r * cols + c) as u64);
        }
    });
}

/// `par_windows(3)`: how many elements are strict local maxima.
pub fn src_windows(v: &[u64]) -> usize {
    v.par_windows(3)
        .filter(|w| w[1] > w[0] && w[1] > w[2])
        .count()
}

/// `(0..n).into_par_iter()` (u64, half-open): how many scramble to a multiple of 7.
pub fn src_range(n: u64) -> usize {
    (0..n)
        .into_par_iter()
        .filter(|&i| super::scramble(i).is_multiple_of(7))
        .count()
}

/// `(1..=n).into_par_iter()` (u32, inclusive): Σ i² mod 1_000_003.
pub fn src_range_inclusive(n: u32) -> u64 {
    (1..=n)
        .into_par_iter()
        .map(|i| u64::from(i) * u64::from(i) % 1_000_003)
        .sum()
}

/// `par_chars` over a text with multi-byte characters: Σ code × (code mod 8).
pub fn src_chars(s: &str) -> u64 {
    s.par_chars()
        .map(|c| u64::from(c) * (u64::from(c) & 7))
        .sum()
}

/// Word counts over any parallel iterator of text pieces (lines or words): a `HashMap` per
/// fold, merged by `reduce`.
pub fn count_words<'a, I>(pieces: I) -> std::collections::HashMap<&'a str, usize>
where
    I: ParallelIterator<Item = &'a str>,
{
    use std::collections::HashMap;
    pieces
        .fold(HashMap::new, |mut m, piece| {
            for w in piece.split_whitespace() {
                *m.entry(w).or_insert(0) += 1;
            }
            m
        })
        .reduce(HashMap::new, |mut a, b| {
            for (w, k) in b {
                *a.entry(w).or_insert(0) += k;
            }
            a
        })
}

/// Word counts over `par_lines`.
pub fn src_lines_word_count(text: &str) -> std::collections::HashMap<&str, usize> {
    count_words(text.par_lines())
}

/// Word counts over `par_split_whitespace`.
pub fn src_split_whitespace_word_count(text: &str) -> std::collections::HashMap<&str, usize> {
    count_words(text.par_split_whitespace())
}

/// `par_split(',')` over comma-separated numbers: their sum (a field that is not a number
/// panics, which fails the run).
pub fn src_split(csv: &str) -> u64 {
    csv.par_split(',')
        .map(|f| f.parse::<u64>().expect("a number between the commas"))
        .sum()
}

/// `Vec::into_par_iter` over owned strings: Σ length (each string is dropped by the run).
pub fn src_vec_into(v: Vec<String>) -> usize {
    v.into_par_iter().map(|s| s.len()).sum()
}

/// `HashMap::par_iter`: Σ (scramble(k ^ v) >> 40).
pub fn src_hash_map(m: &std::collections::HashMap<u64, u64>) -> u64 {
    m.par_iter()
        .map(|(&k, &v)| super::scramble(k ^ v) >> 40)
        .sum()
}

/// `HashSet::par_iter`: how many scramble to a multiple of 3.
pub fn src_hash_set(s: &std::collections::HashSet<u64>) -> usize {
    s.par_iter()
        .filter(|&&x| super::scramble(x).is_multiple_of(3))
        .count()
}

/// `BTreeMap::par_iter`: Σ (scramble(k ^ v) >> 40).
pub fn src_btree_map(m: &std::collections::BTreeMap<u64, u64>) -> u64 {
    m.par_iter()
        .map(|(&k, &v)| super::scramble(k ^ v) >> 40)
        .sum()
}

/// `par_bridge` over a sequential iterator (a mapped range), about 100 ns per item.
pub fn src_bridge(n: u64) -> u64 {
    (0..n)
        .map(|i| i * 3)
        .par_bridge()
        .map(|x| super::heavy(x) >> 40)
        .sum()
}

// ---- adaptors with their own splitting ----

/// `flat_map` into short parallel ranges, collected in order.
pub fn ad_flat_map(n: u64) -> Vec<u64> {
    (0..n)
        .into_par_iter()
        .flat_map(|i| (0..i % 32).into_par_iter().map(move |j| i * 32 + j))
        .collect()
}

/// `flat_map_iter` into short sequential ranges: Σ (scramble(i ^ j) >> 40).
pub fn ad_flat_map_iter(n: u64) -> u64 {
    (0..n)
        .into_par_iter()
        .flat_map_iter(|i| (0..i % 32).map(move |j| super::scramble(i ^ (j << 40)) >> 40))
        .sum()
}

/// `chain` of two slices, mapped and collected in order.
pub fn ad_chain(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.par_iter()
        .chain(b.par_iter())
        .map(|&x| super::scramble(x))
        .collect()
}

/// A three-way `zip`, collected in order: a × b + c (wrapping).
pub fn ad_zip(a: &[u64], b: &[u64], c: &[u64]) -> Vec<u64> {
    a.par_iter()
        .zip(b)
        .zip(c)
        .map(|((&x, &y), &z)| x.wrapping_mul(y).wrapping_add(z))
        .collect()
}

/// The `chunks(64)` adaptor (a `Vec` per chunk): Σ chunk maxima.
pub fn ad_chunks(v: &[u64]) -> u64 {
    v.par_iter()
        .chunks(64)
        .map(|c| c.into_iter().copied().max().unwrap_or(0))
        .sum()
}

/// `step_by(3)`: Σ (scramble(x) >> 40) over every third element.
pub fn ad_step_by(v: &[u64]) -> u64 {
    v.par_iter()
        .step_by(3)
        .map(|&x| super::scramble(x) >> 40)
        .sum()
}

/// `with_min_len(4096)` on a range (usize: rayon's u64 ranges are not indexed): Σ
/// (scramble(i) >> 40).
pub fn ad_with_min_len(n: usize) -> u64 {
    (0..n)
        .into_par_iter()
        .with_min_len(4096)
        .map(|i| super::scramble(i as u64) >> 40)
        .sum()
}

/// `enumerate`, then a filter on the index: Σ (i ^ x) over every third index.
pub fn ad_enumerate(v: &[u64]) -> u64 {
    v.par_iter()
        .enumerate()
        .filter(|(i, _)| i % 3 == 0)
        .map(|(i, &x)| i as u64 ^ x)
        .sum()
}

/// `skip(len / 8).take(len / 2)`, mapped and collected in order.
pub fn ad_skip_take(v: &[u64]) -> Vec<u64> {
    v.par_iter()
        .skip(v.len() / 8)
        .take(v.len() / 2)
        .map(|&x| super::scramble(x))
        .collect()
}

// ---- consumers ----

/// `collect` into any collection (`Vec`, `HashMap`, `HashSet`, `BTreeMap`, `String`,
/// `LinkedList`) of `f` of every element.
pub fn con_collect<T, C, F>(v: &[u64], f: F) -> C
where
    T: Send,
    C: FromParallelIterator<T>,
    F: Fn(u64) -> T + Sync + Send,
{
    v.par_iter().map(|&x| f(x)).collect()
}

/// `collect` into a `Vec` after a `filter` (an unindexed collect), in order.
pub fn con_collect_filtered(v: &[u64]) -> Vec<u64> {
    v.par_iter()
        .filter(|&&x| x % 3 != 0)
        .map(|&x| super::scramble(x))
        .collect()
}

/// `fold` + `reduce`: a 16-bucket histogram of the low bits.
pub fn con_fold_reduce(v: &[u64]) -> [u64; 16] {
    v.par_iter()
        .fold(
            || [0u64; 16],
            |mut h, &x| {
                h[(x & 15) as usize] += 1;
                h
            },
        )
        .reduce(
            || [0u64; 16],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
}

/// `find_any` of the one element equal to `target`.
pub fn con_find_any(v: &[u64], target: u64) -> Option<u64> {
    v.par_iter().find_any(|&&x| x == target).copied()
}

/// `find_first` of an element at least `bound` (several are).
pub fn con_find_first(v: &[u64], bound: u64) -> Option<u64> {
    v.par_iter().find_first(|&&x| x >= bound).copied()
}

/// `sum` of the elements.
pub fn con_sum(v: &[u64]) -> u64 {
    v.par_iter().sum()
}

/// `min_by_key` over `enumerate` (several minima: rayon returns the first).
pub fn con_min_by_key(v: &[u64]) -> Option<(usize, u64)> {
    v.par_iter()
        .enumerate()
        .min_by_key(|&(_, &x)| x % 1_000_003)
        .map(|(i, &x)| (i, x))
}

/// `unzip` into two `Vec`s, in order.
pub fn con_unzip(v: &[u64]) -> (Vec<u64>, Vec<u64>) {
    v.par_iter().map(|&x| (x, super::scramble(x))).unzip()
}

/// `partition` into two `Vec`s (multiples of 3 and the rest), in order.
pub fn con_partition(v: &[u64]) -> (Vec<u64>, Vec<u64>) {
    v.par_iter().copied().partition(|&x| x % 3 == 0)
}

/// `count` of the words of a text (`par_split_whitespace`).
pub fn con_count_words(text: &str) -> usize {
    text.par_split_whitespace().count()
}

/// `any` of the one element equal to `target` and `all` elements below `bound` (true:
/// a full scan).
pub fn con_any_all(v: &[u64], target: u64, bound: u64) -> (bool, bool) {
    (
        v.par_iter().any(|&x| x == target),
        v.par_iter().all(|&x| x <= bound),
    )
}

// ---- sorts ----

/// `par_sort` (stable), in place.
pub fn sort_stable(v: &mut [u64]) {
    v.par_sort();
}

/// `par_sort_by_key` on the u64 key of (key, index) pairs (stable: equal keys keep their
/// index order).
pub fn sort_by_key(v: &mut [(u64, u32)]) {
    v.par_sort_by_key(|p| p.0);
}

//! Output checkers with the semantics of PBBS's `*Check` programs: they judge an output
//! against its input alone, not against one reference answer, so any correct output
//! (any valid BFS tree, any maximal independent set) passes.

use std::collections::HashSet;

use crate::workloads::pbbs::graph::{bfs_depths_reference, Graph, NONE};
use crate::workloads::pbbs::hull::{cross, Pt};

/// Sorted (by `cmp`) and a permutation of `input`.
pub fn sorted_permutation<T: Clone + PartialEq + std::fmt::Debug>(
    input: &[T],
    out: &[T],
    cmp: impl Fn(&T, &T) -> std::cmp::Ordering,
) -> Result<(), String> {
    SortedPermutation::new(input, &cmp).check(out, &cmp)
}

/// [`sorted_permutation`] prepared once for many outputs of the same input: the input is
/// sorted here, not again for every output checked.
#[derive(Debug, Clone)]
pub struct SortedPermutation<T> {
    want: Vec<T>,
}

impl<T: Clone + PartialEq + std::fmt::Debug> SortedPermutation<T> {
    /// Prepares the check of outputs for `input`.
    pub fn new(input: &[T], cmp: impl Fn(&T, &T) -> std::cmp::Ordering) -> Self {
        let mut want = input.to_vec();
        want.sort_by(cmp);
        SortedPermutation { want }
    }

    /// `out` is sorted by `cmp` and a permutation of the input. Sorted first, so that an
    /// unsorted output says so rather than where it first differs.
    pub fn check(
        &self,
        out: &[T],
        cmp: impl Fn(&T, &T) -> std::cmp::Ordering,
    ) -> Result<(), String> {
        if let Some(i) = out.windows(2).position(|w| cmp(&w[0], &w[1]).is_gt()) {
            return Err(format!(
                "not sorted at {i}: {:?} > {:?}",
                out[i],
                out[i + 1]
            ));
        }
        // Two sorted sequences are permutations of each other iff they are equal (up to
        // the order of equal keys, which for the total orders used here means equal).
        crate::workloads::pbbs::seq::compare(out, &self.want)
            .map_err(|e| format!("not a permutation of the input: {e}"))
    }
}

/// Duplicates removed: no value twice, and the same set of values as `input`.
pub fn dedup(input: &[u32], out: &[u32]) -> Result<(), String> {
    let mut seen = HashSet::with_capacity(out.len());
    for &x in out {
        if !seen.insert(x) {
            return Err(format!("{x} appears twice"));
        }
    }
    let want: HashSet<u32> = input.iter().copied().collect();
    if let Some(x) = want.iter().find(|x| !seen.contains(x)) {
        return Err(format!("{x} is in the input but not the output"));
    }
    if let Some(x) = seen.iter().find(|x| !want.contains(x)) {
        return Err(format!("{x} is in the output but not the input"));
    }
    Ok(())
}

/// Histogram: `counts[b]` is the number of keys equal to `b`.
pub fn histogram(keys: &[u32], counts: &[usize]) -> Result<(), String> {
    let mut want = vec![0usize; counts.len()];
    for &k in keys {
        *want
            .get_mut(k as usize)
            .ok_or_else(|| format!("key {k} is past the {} buckets", counts.len()))? += 1;
    }
    crate::workloads::pbbs::seq::compare(counts, &want).map_err(|e| format!("bucket {e}"))
}

/// A BFS tree from `src`: every reachable vertex reached, every other not; each parent is
/// a neighbour one level closer to `src` (depths from a serial BFS).
pub fn bfs_tree(g: &Graph, src: u32, parent: &[u32]) -> Result<(), String> {
    bfs_tree_with_depths(g, src, &bfs_depths_reference(g, src), parent)
}

/// [`bfs_tree`] with the depths from `src` ([`bfs_depths_reference`]) computed once by
/// the caller, for checking many outputs on one graph.
pub fn bfs_tree_with_depths(
    g: &Graph,
    src: u32,
    depth: &[u32],
    parent: &[u32],
) -> Result<(), String> {
    if parent.len() != g.n() || depth.len() != g.n() {
        return Err(format!("{} parents for {} vertices", parent.len(), g.n()));
    }
    for (v, (&p, &d)) in parent.iter().zip(depth).enumerate() {
        let ok = match (d, p) {
            (NONE, p) => p == NONE,
            (_, NONE) => false,
            (0, p) => p == src,
            (d, p) => {
                (p as usize) < g.n()
                    && depth[p as usize] + 1 == d
                    && g.neighbors(p).contains(&(v as u32))
            }
        };
        if !ok {
            return Err(format!(
                "vertex {v} (depth {d}): parent {p} is not a neighbour one level up"
            ));
        }
    }
    Ok(())
}

/// A maximal independent set: no two members adjacent, every non-member has a member
/// neighbour.
pub fn mis(g: &Graph, inset: &[bool]) -> Result<(), String> {
    if inset.len() != g.n() {
        return Err(format!("{} flags for {} vertices", inset.len(), g.n()));
    }
    for v in 0..g.n() as u32 {
        let nb_in = g.neighbors(v).iter().find(|&&u| inset[u as usize]);
        match (inset[v as usize], nb_in) {
            (true, Some(u)) => return Err(format!("not independent: {v} and {u} are adjacent")),
            (false, None) => return Err(format!("not maximal: {v} could join")),
            _ => {}
        }
    }
    Ok(())
}

/// A convex hull of `pts`: input points, strictly convex and counter-clockwise, every
/// point inside or on it.
pub fn hull(pts: &[Pt], h: &[Pt]) -> Result<(), String> {
    let set: HashSet<Pt> = pts.iter().copied().collect();
    if let Some(p) = h.iter().find(|p| !set.contains(p)) {
        return Err(format!("hull point {p:?} is not an input point"));
    }
    if h.len() < 3 {
        let distinct: HashSet<Pt> = h.iter().copied().collect();
        return if pts
            .iter()
            .all(|p| distinct.contains(p) || h.len() == 2 && cross(h[0], h[1], *p) == 0)
        {
            Ok(())
        } else {
            Err(format!("{} hull points cannot enclose the input", h.len()))
        };
    }
    let k = h.len();
    for i in 0..k {
        let (a, b, c) = (h[i], h[(i + 1) % k], h[(i + 2) % k]);
        if cross(a, b, c) <= 0 {
            return Err(format!(
                "not a strictly convex counter-clockwise turn at {b:?}"
            ));
        }
    }
    // Convexity is established, so each point needs O(log k) orientation tests, not k
    // (a disk of 10^7 points has over a thousand hull vertices); the offending edge is
    // looked for only once a point is found outside.
    for &p in pts {
        if !inside_convex(h, p) {
            let i = (0..k)
                .find(|&i| cross(h[i], h[(i + 1) % k], p) < 0)
                .unwrap_or(0);
            return Err(format!(
                "point {p:?} is outside the hull edge {:?}-{:?}",
                h[i],
                h[(i + 1) % k]
            ));
        }
    }
    Ok(())
}

/// Whether `p` is inside or on the strictly convex counter-clockwise polygon `h` (at
/// least 3 vertices): find the wedge `h[0], h[i], h[i+1]` holding `p` by binary search on
/// the orientation around `h[0]`, then test the one edge `h[i]-h[i+1]`.
#[doc(hidden)] // public for the module tests (tests/modules)
pub fn inside_convex(h: &[Pt], p: Pt) -> bool {
    let (k, o) = (h.len(), h[0]);
    if cross(o, h[1], p) < 0 || cross(o, h[k - 1], p) > 0 {
        return false;
    }
    // Invariant: cross(o, h[lo], p) >= 0; the orientation is monotone along the polygon
    // within the wedge, so the last such index is found by bisection.
    let (mut lo, mut hi) = (1, k - 1);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if cross(o, h[mid], p) >= 0 {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    if lo == k - 1 {
        // On the line o-h[k-1] (both tests were 0): inside iff not past h[k-1].
        let d = (h[k - 1].0 - o.0, h[k - 1].1 - o.1);
        let q = (p.0 - o.0, p.1 - o.1);
        let dot = q.0 as i128 * d.0 as i128 + q.1 as i128 * d.1 as i128;
        let len2 = d.0 as i128 * d.0 as i128 + d.1 as i128 * d.1 as i128;
        return (0..=len2).contains(&dot);
    }
    cross(h[lo], h[lo + 1], p) >= 0
}

/// Word counts (PBBS wordCounts): `out` holds `(start, length, count)` per distinct word of
/// `text` (a word: a maximal run of `is_letter` bytes), each word once, with its count.
pub fn word_counts(
    text: &[u8],
    out: &[(u32, u32, u32)],
    is_letter: impl Fn(u8) -> bool,
) -> Result<(), String> {
    let mut want: std::collections::HashMap<&[u8], u32> = std::collections::HashMap::new();
    for w in text.split(|&b| !is_letter(b)).filter(|w| !w.is_empty()) {
        *want.entry(w).or_default() += 1;
    }
    let mut seen = HashSet::with_capacity(out.len());
    for &(s, l, c) in out {
        let w = text
            .get(s as usize..s as usize + l as usize)
            .ok_or_else(|| format!("word at {s}, length {l}, is past the text's end"))?;
        let shown = String::from_utf8_lossy(w);
        if !seen.insert(w) {
            return Err(format!("'{shown}' is counted twice"));
        }
        match want.get(w) {
            None => return Err(format!("'{shown}' is not a word of the text")),
            Some(&n) if n != c => return Err(format!("'{shown}': count {c}, the text has {n}")),
            Some(_) => {}
        }
    }
    if seen.len() != want.len() {
        let missing = want
            .keys()
            .find(|w| !seen.contains(*w))
            .expect("fewer seen");
        return Err(format!(
            "{} distinct words, the text has {} ('{}' is missing)",
            seen.len(),
            want.len(),
            String::from_utf8_lossy(missing)
        ));
    }
    Ok(())
}

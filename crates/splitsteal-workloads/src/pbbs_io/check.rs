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
fn inside_convex(h: &[Pt], p: Pt) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workloads::pbbs::{graph, hull as wh};
    use splitsteal::Serial;

    #[test]
    fn sort_checker_rejects_swaps_and_drops() {
        let inp = vec![3, 1, 2, 2];
        assert!(sorted_permutation(&inp, &[1, 2, 2, 3], i32::cmp).is_ok());
        assert!(sorted_permutation(&inp, &[2, 1, 2, 3], i32::cmp).is_err());
        assert!(sorted_permutation(&inp, &[1, 2, 3], i32::cmp).is_err());
        assert!(sorted_permutation(&inp, &[1, 2, 3, 3], i32::cmp).is_err());
    }

    #[test]
    fn dedup_and_histogram_checkers_reject_wrong_outputs() {
        let inp = [5, 1, 5, 2];
        assert!(dedup(&inp, &[2, 5, 1]).is_ok());
        assert!(dedup(&inp, &[2, 5]).is_err());
        assert!(dedup(&inp, &[2, 5, 1, 1]).is_err());
        assert!(dedup(&inp, &[2, 5, 1, 7]).is_err());
        assert!(histogram(&[0, 2, 2], &[1, 0, 2]).is_ok());
        assert!(histogram(&[0, 2, 2], &[1, 1, 1]).is_err());
        assert!(histogram(&[0, 3], &[1, 0, 0]).is_err());
    }

    #[test]
    fn graph_checkers_accept_real_outputs_and_reject_broken_ones() {
        let g = graph::rmat(10, 6000, 3);
        let src = (0..g.n() as u32)
            .max_by_key(|&v| g.neighbors(v).len())
            .unwrap();
        let (mut parent, _) = graph::bfs(&mut Serial, &g, src);
        bfs_tree(&g, src, &parent).unwrap();
        let v = (0..g.n())
            .find(|&v| parent[v] != NONE && v as u32 != src)
            .unwrap();
        parent[v] = NONE;
        assert!(bfs_tree(&g, src, &parent).is_err());
        parent[v] = src; // wrong unless v is at depth 1
        if !g.neighbors(src).contains(&(v as u32)) {
            assert!(bfs_tree(&g, src, &parent).is_err());
        }
        let mut m = graph::mis(&mut Serial, &g, 9);
        mis(&g, &m).unwrap();
        let u = (0..g.n())
            .find(|&u| m[u] && !g.neighbors(u as u32).is_empty())
            .unwrap();
        let w = g.neighbors(u as u32)[0] as usize;
        m[w] = true;
        assert!(mis(&g, &m).unwrap_err().starts_with("not independent"));
        m[w] = false;
        m[u] = false;
        assert!(mis(&g, &m).unwrap_err().starts_with("not maximal"));
    }

    #[test]
    fn hull_checker_rejects_wrong_hulls() {
        let pts = wh::in_disk(2000, 4);
        let h = wh::monotone_chain(&pts);
        hull(&pts, &h).unwrap();
        let mut dropped = h.clone();
        dropped.remove(3);
        assert!(hull(&pts, &dropped).is_err());
        let mut cw = h.clone();
        cw.reverse();
        assert!(hull(&pts, &cw).is_err());
        let mut moved = h.clone();
        moved[0] = (RADIUS_PLUS, 0);
        assert!(hull(&pts, &moved).is_err());
    }

    const RADIUS_PLUS: i64 = wh::RADIUS + 5;

    #[test]
    fn hull_check_accepts_boundary_points_and_rejects_a_point_just_outside() {
        // A square with points on every edge, at the corners twice, and at the centre:
        // all inside or on; the binary search must place each in its wedge.
        let sq = vec![(0, 0), (4, 0), (4, 4), (0, 4)];
        let mut pts = sq.clone();
        pts.extend([
            (2, 0),
            (4, 2),
            (2, 4),
            (0, 2),
            (0, 0),
            (2, 2),
            (1, 3),
            (3, 1),
        ]);
        hull(&pts, &sq).unwrap();
        // Rotated start: still a valid hull.
        hull(&pts, &[(4, 4), (0, 4), (0, 0), (4, 0)]).unwrap();
        for out in [(5, 2), (2, -1), (-1, 0), (0, 5), (4, 5), (5, 5)] {
            let mut p = pts.clone();
            p.push(out);
            let e = hull(&p, &sq).unwrap_err();
            assert!(e.contains(&format!("{out:?} is outside")), "{out:?}: {e}");
        }
        // On the diagonal from h[0] past h[k-1]'s line: the last wedge's special case.
        let tri = vec![(0, 0), (4, 0), (0, 4)];
        let inner = vec![(0, 0), (4, 0), (0, 4), (0, 2), (2, 2), (1, 1)];
        hull(&inner, &tri).unwrap();
        let mut past = inner.clone();
        past.push((0, 6));
        assert!(hull(&past, &tri).is_err());
        let mut behind = inner.clone();
        behind.push((0, -1));
        assert!(hull(&behind, &tri).is_err());
    }

    #[test]
    fn inside_convex_agrees_with_the_edge_by_edge_test() {
        let pts = wh::in_disk(3000, 9);
        let h = wh::monotone_chain(&pts);
        let r = wh::RADIUS;
        for i in 0..20_000i64 {
            let p = (
                (crate::workloads::splitmix64(i as u64) % (2 * r as u64 + 40)) as i64 - r - 20,
                (crate::workloads::splitmix64(!i as u64) % (2 * r as u64 + 40)) as i64 - r - 20,
            );
            let slow = (0..h.len()).all(|j| cross(h[j], h[(j + 1) % h.len()], p) >= 0);
            assert_eq!(inside_convex(&h, p), slow, "{p:?}");
        }
        for &p in &h {
            assert!(inside_convex(&h, p));
        }
    }

    #[test]
    fn word_count_checker_rejects_wrong_counts() {
        let text = b"the cat, the hat\nthe end";
        let is_letter = |b: u8| b.is_ascii_lowercase();
        // (start, length, count) of the, cat, hat, end.
        let good = [(0, 3, 3), (4, 3, 1), (13, 3, 1), (21, 3, 1)];
        word_counts(text, &good, is_letter).unwrap();
        let mut wrong = good;
        wrong[0].2 = 2;
        assert!(word_counts(text, &wrong, is_letter)
            .unwrap_err()
            .contains("count 2"));
        assert!(word_counts(text, &good[..3], is_letter)
            .unwrap_err()
            .contains("'end' is missing"));
        let twice = [good[0], good[1], good[2], good[3], (9, 3, 3)];
        assert!(word_counts(text, &twice, is_letter)
            .unwrap_err()
            .contains("twice"));
        let bogus = [good[0], good[1], good[2], (1, 3, 1)];
        assert!(word_counts(text, &bogus, is_letter)
            .unwrap_err()
            .contains("'he ' is not a word"));
        assert!(word_counts(text, &[(30, 3, 1)], is_letter).is_err());
    }

    #[test]
    fn prepared_sort_check_is_the_one_shot_check() {
        let inp = [5u32, 1, 4, 1];
        let s = SortedPermutation::new(&inp, u32::cmp);
        assert!(s.check(&[1, 1, 4, 5], u32::cmp).is_ok());
        assert!(s
            .check(&[1, 4, 1, 5], u32::cmp)
            .unwrap_err()
            .starts_with("not sorted"));
        assert!(s
            .check(&[1, 1, 4, 6], u32::cmp)
            .unwrap_err()
            .starts_with("not a permutation"));
        let g = graph::rmat(8, 1500, 2);
        let (parent, _) = graph::bfs(&mut Serial, &g, 0);
        let d = bfs_depths_reference(&g, 0);
        bfs_tree_with_depths(&g, 0, &d, &parent).unwrap();
        assert!(bfs_tree_with_depths(&g, 0, &d, &parent[1..]).is_err());
    }
}

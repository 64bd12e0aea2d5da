//! Output checkers with the semantics of PBBS's `*Check` programs: they judge an output
//! against its input alone, not against one reference answer, so any correct output
//! (any valid BFS tree, any maximal independent set) passes.

use std::collections::HashSet;

use crate::workloads::pbbs::graph::{bfs_depths_reference, Graph, NONE};
use crate::workloads::pbbs::hull::{cross, Pt};

/// Sorted (by `lt`) and a permutation of `input`.
pub fn sorted_permutation<T: Clone + PartialEq + std::fmt::Debug>(
    input: &[T],
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
    let mut want = input.to_vec();
    want.sort_by(&cmp);
    crate::workloads::pbbs::seq::compare(out, &want)
        .map_err(|e| format!("not a permutation of the input: {e}"))
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
    if parent.len() != g.n() {
        return Err(format!("{} parents for {} vertices", parent.len(), g.n()));
    }
    let depth = bfs_depths_reference(g, src);
    for (v, (&p, &d)) in parent.iter().zip(&depth).enumerate() {
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
    for &p in pts {
        for i in 0..k {
            if cross(h[i], h[(i + 1) % k], p) < 0 {
                return Err(format!(
                    "point {p:?} is outside the hull edge {:?}-{:?}",
                    h[i],
                    h[(i + 1) % k]
                ));
            }
        }
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
}

//! `hull`: PBBS convexHull on 2DinSphere (points uniform in a disk), by parallel quickhull.
//!
//! Coordinates are integers (|x|, |y| < 2^20), so every orientation test is exact and the
//! hull is unique: vertices in counter-clockwise order from the lexicographically smallest
//! point, collinear boundary points excluded.

use rand::RngExt;
use splitsteal::{par, ForkJoin};

use crate::workloads::{rng, DynWorkload, Group, Size, Workload, WorkloadSpec};

/// A point with integer coordinates.
pub type Pt = (i64, i64);

/// Radius of the disk.
pub const RADIUS: i64 = 1 << 20;

/// Twice the signed area of (p, q, r): > 0 if r is left of p→q.
#[inline]
pub fn cross(p: Pt, q: Pt, r: Pt) -> i64 {
    (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
}

/// Hull vertices of `idx` (all strictly left of p→q), in counter-clockwise order from q
/// to p (both excluded).
fn rec<C: ForkJoin>(c: &mut C, pts: &[Pt], idx: &[u32], p: Pt, q: Pt) -> Vec<Pt> {
    if idx.is_empty() {
        return Vec::new();
    }
    // The farthest point from the line (ties: smallest index).
    let (_, far) = par::map_reduce(
        c,
        idx,
        |&i| (cross(p, q, pts[i as usize]), std::cmp::Reverse(i)),
        || (i64::MIN, std::cmp::Reverse(u32::MAX)),
        |a, b| a.max(b),
    );
    let r = pts[far.0 as usize];
    let (left_pr, left_rq) = c.join(
        |c| par::filter(c, idx, |&i| cross(p, r, pts[i as usize]) > 0),
        |c| par::filter(c, idx, |&i| cross(r, q, pts[i as usize]) > 0),
    );
    let (mut a, b) = c.join(
        |c| rec(c, pts, &left_rq, r, q),
        |c| rec(c, pts, &left_pr, p, r),
    );
    a.push(r);
    a.extend(b);
    a
}

/// The convex hull of `pts` in parallel (quickhull).
pub fn quickhull<C: ForkJoin>(c: &mut C, pts: &[Pt]) -> Vec<Pt> {
    if pts.is_empty() {
        return Vec::new();
    }
    let (lo, hi) = par::map_reduce(
        c,
        pts,
        |&p| (p, p),
        || ((i64::MAX, i64::MAX), (i64::MIN, i64::MIN)),
        |a, b| (a.0.min(b.0), a.1.max(b.1)),
    );
    if lo == hi {
        return vec![lo];
    }
    let all: Vec<u32> = par::tabulate(c, pts.len(), |i| i as u32);
    let (upper, lower) = c.join(
        |c| par::filter(c, &all, |&i| cross(lo, hi, pts[i as usize]) > 0),
        |c| par::filter(c, &all, |&i| cross(hi, lo, pts[i as usize]) > 0),
    );
    drop(all);
    let (low_chain, up_chain) = c.join(
        |c| rec(c, pts, &lower, hi, lo),
        |c| rec(c, pts, &upper, lo, hi),
    );
    let mut h = vec![lo];
    h.extend(low_chain);
    h.push(hi);
    h.extend(up_chain);
    h
}

/// Reference: Andrew's monotone chain (sort; lower chain left to right, upper chain back).
pub fn monotone_chain(pts: &[Pt]) -> Vec<Pt> {
    let mut p = pts.to_vec();
    p.sort_unstable();
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let chain = |it: &mut dyn Iterator<Item = Pt>| {
        let mut h: Vec<Pt> = Vec::new();
        for x in it {
            while h.len() >= 2 && cross(h[h.len() - 2], h[h.len() - 1], x) <= 0 {
                h.pop();
            }
            h.push(x);
        }
        h.pop();
        h
    };
    let mut lower = chain(&mut p.iter().copied());
    let upper = chain(&mut p.iter().rev().copied());
    lower.extend(upper);
    lower
}

/// `n` points uniform in the disk of radius [`RADIUS`] (2DinSphere).
pub fn in_disk(n: usize, seed: u64) -> Vec<Pt> {
    let mut r = rng(seed, 40);
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let x = r.random_range(-RADIUS..=RADIUS);
        let y = r.random_range(-RADIUS..=RADIUS);
        if x * x + y * y <= RADIUS * RADIUS {
            v.push((x, y));
        }
    }
    v
}

/// The `hull` workload.
#[derive(Debug)]
pub struct Hull {
    pts: Vec<Pt>,
    expected: Vec<Pt>,
}

impl Workload for Hull {
    type Input = ();
    type Output = Vec<Pt>;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> Vec<Pt> {
        quickhull(c, &self.pts)
    }
    fn check(&self, out: &Vec<Pt>) -> Result<(), String> {
        super::seq::compare(out, &self.expected)
    }
}

fn n_for(s: Size) -> usize {
    s.pick(20_000, 700_000, 4_000_000)
}

/// Registry entry.
pub fn spec() -> WorkloadSpec {
    WorkloadSpec {
        name: "hull",
        group: Group::Pbbs,
        description: "PBBS convexHull on 2DinSphere: parallel quickhull (map_reduce, filter, join)",
        params: |s| {
            format!(
                "{} integer points uniform in a disk of radius 2^20",
                n_for(s)
            )
        },
        build: |s, seed| {
            let pts = in_disk(n_for(s), seed);
            let expected = monotone_chain(&pts);
            Box::new(Hull { pts, expected }) as Box<dyn DynWorkload>
        },
    }
}

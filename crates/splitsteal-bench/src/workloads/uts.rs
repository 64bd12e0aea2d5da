//! `uts`: Unbalanced Tree Search on a geometric tree (irregular parallelism).
//!
//! As UTS's geometric trees with fixed branching: a node at depth `< depth` has
//! `⌊ln(1-u) / ln(1-p)⌋` children, `p = 1/(1+b)`, where `u` comes from the node's hash,
//! so the expected branching factor is `b` but the subtree sizes vary wildly. Node
//! hashes are derived from the parent's with [`splitmix64`] rounds (UTS uses SHA-1; the
//! [`HASH_ROUNDS`] rounds stand for its per-node cost). The root has [`ROOT_CHILDREN`]
//! children (a geometric root is a leaf with probability 1/5, and the tree size would
//! swing by orders of magnitude with the root hash). The tree is fixed by its root hash
//! (not by `--seed`), as UTS's named trees are.

use splitsteal::ForkJoin;

use super::{splitmix64, DynWorkload, Group, Size, Workload, WorkloadSpec};

/// Mixing rounds per child hash (stands for UTS's SHA-1 evaluation).
pub const HASH_ROUNDS: u32 = 8;
/// Expected branching factor.
pub const BRANCHING: f64 = 4.0;
/// Root seed (fixed, like UTS's `-r` seed).
pub const ROOT: u64 = 19;
/// Children of the root.
pub const ROOT_CHILDREN: u64 = 16;

fn root() -> UtsNode {
    UtsNode {
        hash: splitmix64(splitmix64(ROOT)),
        depth: 0,
    }
}

/// A node descriptor.
#[derive(Debug, Clone, Copy)]
pub struct UtsNode {
    hash: u64,
    depth: u32,
}

/// Counts: (nodes, leaves, maximum depth).
pub type UtsCount = (u64, u64, u32);

fn child(n: UtsNode, i: u64) -> UtsNode {
    let mut h = n.hash ^ splitmix64(i + 1);
    for _ in 0..HASH_ROUNDS {
        h = splitmix64(h);
    }
    UtsNode {
        hash: h,
        depth: n.depth + 1,
    }
}

fn num_children(n: UtsNode, max_depth: u32) -> u64 {
    if n.depth >= max_depth {
        return 0;
    }
    if n.depth == 0 {
        return ROOT_CHILDREN;
    }
    let u = (n.hash >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
    let p = 1.0 / (1.0 + BRANCHING);
    ((1.0 - u).ln() / (1.0 - p).ln()).floor() as u64
}

fn combine(a: UtsCount, b: UtsCount) -> UtsCount {
    (a.0 + b.0, a.1 + b.1, a.2.max(b.2))
}

fn visit<C: ForkJoin>(c: &mut C, n: UtsNode, max_depth: u32) -> UtsCount {
    let k = num_children(n, max_depth);
    if k == 0 {
        return (1, 1, n.depth);
    }
    let (nodes, leaves, depth) = children(c, n, 0, k, max_depth);
    (nodes + 1, leaves, depth)
}

fn children<C: ForkJoin>(c: &mut C, n: UtsNode, lo: u64, hi: u64, max_depth: u32) -> UtsCount {
    if hi - lo == 1 {
        return visit(c, child(n, lo), max_depth);
    }
    let mid = lo + (hi - lo) / 2;
    let (a, b) = c.join(
        |c| children(c, n, lo, mid, max_depth),
        |c| children(c, n, mid, hi, max_depth),
    );
    combine(a, b)
}

/// Traverses the tree of depth limit `max_depth` in parallel.
pub fn uts<C: ForkJoin>(c: &mut C, max_depth: u32) -> UtsCount {
    visit(c, root(), max_depth)
}

/// Reference: an explicit-stack traversal.
pub fn uts_reference(max_depth: u32) -> UtsCount {
    let mut stack = vec![root()];
    let mut count = (0, 0, 0);
    while let Some(n) = stack.pop() {
        let k = num_children(n, max_depth);
        count.0 += 1;
        if k == 0 {
            count.1 += 1;
            count.2 = count.2.max(n.depth);
        }
        stack.extend((0..k).map(|i| child(n, i)));
    }
    count
}

/// The `uts` workload.
#[derive(Debug)]
pub struct Uts {
    depth: u32,
    expected: UtsCount,
}

impl Workload for Uts {
    type Input = ();
    type Output = UtsCount;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> UtsCount {
        uts(c, self.depth)
    }
    fn check(&self, out: &UtsCount) -> Result<(), String> {
        if *out == self.expected {
            Ok(())
        } else {
            Err(format!(
                "(nodes, leaves, depth) = {out:?}, expected {:?}",
                self.expected
            ))
        }
    }
}

fn depth_for(size: Size) -> u32 {
    size.pick(5, 8, 10)
}

/// Registry entry.
pub fn spec() -> WorkloadSpec {
    WorkloadSpec {
        name: "uts",
        group: Group::Uts,
        description: "unbalanced tree search, geometric tree (b = 4), a join per child split",
        params: |s| {
            let d = depth_for(s);
            format!("geometric b = {BRANCHING}, depth limit {d}, root {ROOT} with {ROOT_CHILDREN} children")
        },
        build: |s, _seed| {
            let depth = depth_for(s);
            Box::new(Uts {
                depth,
                expected: uts_reference(depth),
            }) as Box<dyn DynWorkload>
        },
    }
}

//! `uts`: Unbalanced Tree Search on a geometric tree (irregular parallelism): the tree of
//! [`splitsteal_report::uts`], shared with `splitsteal dist uts`.

use splitsteal::ForkJoin;
use splitsteal_report::uts::{UtsNode, BRANCHING, ROOT, ROOT_CHILDREN};

use super::{DynWorkload, Group, Size, Workload, WorkloadSpec};

/// Counts: (nodes, leaves, maximum depth).
pub type UtsCount = (u64, u64, u32);

fn combine(a: UtsCount, b: UtsCount) -> UtsCount {
    (a.0 + b.0, a.1 + b.1, a.2.max(b.2))
}

fn visit<C: ForkJoin>(c: &mut C, n: UtsNode, max_depth: u32) -> UtsCount {
    let k = n.num_children(max_depth);
    if k == 0 {
        return (1, 1, n.depth);
    }
    let (nodes, leaves, depth) = children(c, n, 0, k, max_depth);
    (nodes + 1, leaves, depth)
}

fn children<C: ForkJoin>(c: &mut C, n: UtsNode, lo: u64, hi: u64, max_depth: u32) -> UtsCount {
    if hi - lo == 1 {
        return visit(c, n.child(lo), max_depth);
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
    visit(c, UtsNode::root(), max_depth)
}

/// Reference: an explicit-stack traversal.
pub fn uts_reference(max_depth: u32) -> UtsCount {
    let mut stack = vec![UtsNode::root()];
    let mut count = (0, 0, 0);
    while let Some(n) = stack.pop() {
        let k = n.num_children(max_depth);
        count.0 += 1;
        if k == 0 {
            count.1 += 1;
            count.2 = count.2.max(n.depth);
        }
        stack.extend((0..k).map(|i| n.child(i)));
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

//! `treesum`: chili's benchmark, the sum of a perfect binary tree of boxed nodes with a
//! `join` per node (a pointer-chasing, very fine-grained workload).
//!
//! Node layout matters more than one would think. chili's own benchmark allocates the
//! tree recursively, which puts the nodes in post-order in memory; chili's `join` runs its
//! *second* closure first, so its depth-first walk (node, right, left) visits the nodes in
//! exactly decreasing address order, a sequential stream for the prefetcher, while a
//! scheduler that runs the first closure first (rayon, splitsteal, the serial elision)
//! jumps around. On this machine that alone made chili about 3× faster than the serial
//! elision on one thread. Here the nodes are allocated level by level (leaves first, left
//! to right), so the left-first and right-first walks are mirror images and neither join
//! order gets a sequential walk for free.

use splitsteal::ForkJoin;

use super::{splitmix64, DynWorkload, Group, Size, Workload, WorkloadSpec};

/// A tree node, as in chili's example.
#[derive(Debug)]
pub struct Node {
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub val: u64,
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub left: Option<Box<Node>>,
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub right: Option<Box<Node>>,
}

impl Node {
    /// A perfect tree with `layers` layers (heap numbering: the root is 1, the children of
    /// `i` are `2i` and `2i + 1`); node values are hashes of their number. Nodes are
    /// allocated level by level, deepest first, left to right (see the module docs).
    pub fn tree(layers: u32) -> Node {
        assert!((1..=40).contains(&layers));
        let val = |id: u64| splitmix64(id) >> 40;
        let deepest = layers - 1;
        let mut level: Vec<Box<Node>> = ((1u64 << deepest)..(2u64 << deepest))
            .map(|id| {
                Box::new(Node {
                    val: val(id),
                    left: None,
                    right: None,
                })
            })
            .collect();
        for l in (0..deepest).rev() {
            let mut below = level.into_iter();
            level = ((1u64 << l)..(2u64 << l))
                .map(|id| {
                    Box::new(Node {
                        val: val(id),
                        left: below.next(),
                        right: below.next(),
                    })
                })
                .collect();
        }
        *level.pop().expect("one root")
    }
}

/// chili's `sum`, with the context passed down.
pub fn sum<C: ForkJoin>(c: &mut C, node: &Node) -> u64 {
    let (left, right) = c.join(
        |c| node.left.as_deref().map(|n| sum(c, n)).unwrap_or_default(),
        |c| node.right.as_deref().map(|n| sum(c, n)).unwrap_or_default(),
    );
    node.val + left + right
}

/// Reference: an explicit-stack traversal.
pub fn sum_reference(root: &Node) -> u64 {
    let mut stack = vec![root];
    let mut total = 0;
    while let Some(n) = stack.pop() {
        total += n.val;
        stack.extend(n.left.as_deref());
        stack.extend(n.right.as_deref());
    }
    total
}

/// The `treesum` workload.
#[derive(Debug)]
pub struct TreeSum {
    root: Node,
    expected: u64,
}

impl Drop for TreeSum {
    fn drop(&mut self) {
        // Dismantle iteratively: the recursive drop of a deep tree is fine (depth = layers),
        // but this keeps teardown cheap and predictable.
        let mut stack: Vec<Box<Node>> = Vec::new();
        stack.extend(self.root.left.take());
        stack.extend(self.root.right.take());
        while let Some(mut n) = stack.pop() {
            stack.extend(n.left.take());
            stack.extend(n.right.take());
        }
    }
}

impl TreeSum {
    /// The sum of a perfect tree of `layers` layers (`2^layers - 1` nodes).
    pub fn new(layers: u32) -> TreeSum {
        let root = Node::tree(layers);
        let expected = sum_reference(&root);
        TreeSum { root, expected }
    }
}

impl Workload for TreeSum {
    type Input = ();
    type Output = u64;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> u64 {
        sum(c, &self.root)
    }
    fn check(&self, out: &u64) -> Result<(), String> {
        if *out == self.expected {
            Ok(())
        } else {
            Err(format!("sum {out}, expected {}", self.expected))
        }
    }
}

fn layers_for(size: Size) -> u32 {
    size.pick(12, 21, 23)
}

/// Registry entry.
pub fn spec() -> WorkloadSpec {
    WorkloadSpec {
        name: "treesum",
        group: Group::Chili,
        description:
            "chili's benchmark: sum of a perfect binary tree of boxed nodes, a join per node",
        params: |s| {
            let l = layers_for(s);
            format!("{l} layers ({} nodes)", (1u64 << l) - 1)
        },
        build: |s, _seed| Box::new(TreeSum::new(layers_for(s))) as Box<dyn DynWorkload>,
    }
}

//! The tree of UTS (Unbalanced Tree Search) that the benchmark suite's `uts` workload and
//! `splitsteal dist uts` both traverse: one definition, so that their node counts agree.
//!
//! As UTS's geometric trees with fixed branching: a node at depth `< depth` has
//! `⌊ln(1-u) / ln(1-p)⌋` children, `p = 1/(1+b)`, where `u` comes from the node's hash,
//! so the expected branching factor is `b` but the subtree sizes vary wildly. Child hashes
//! mix the parent's with splitmix64 rounds (UTS uses SHA-1; the [`HASH_ROUNDS`] rounds
//! stand for its per-node cost). The root has [`ROOT_CHILDREN`] children (a geometric root
//! is a leaf with probability 1/5, and the tree size would swing by orders of magnitude
//! with the root hash). The tree is fixed by its root seed, as UTS's named trees are.
//!
//! ```
//! use splitsteal_report::uts::UtsNode;
//!
//! let root = UtsNode::root();
//! assert_eq!(root.num_children(3), 16);
//! assert_eq!(root.child(0).depth, 1);
//! assert_eq!(root.num_children(0), 0); // depth limit 0: the root is a leaf
//! ```

/// Mixing rounds per child hash (stands for UTS's SHA-1 evaluation).
pub const HASH_ROUNDS: u32 = 8;
/// Expected branching factor.
pub const BRANCHING: f64 = 4.0;
/// Root seed (fixed, like UTS's `-r` seed).
pub const ROOT: u64 = 19;
/// Children of the root.
pub const ROOT_CHILDREN: u64 = 16;

/// A node: its hash and depth (plain data, so a distributed run can send it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtsNode {
    /// The node's hash, which fixes its subtree.
    pub hash: u64,
    /// Its depth (the root's is 0).
    pub depth: u32,
}

impl UtsNode {
    /// The root.
    pub fn root() -> UtsNode {
        UtsNode {
            hash: splitmix64(splitmix64(ROOT)),
            depth: 0,
        }
    }

    /// The `i`-th child.
    pub fn child(self, i: u64) -> UtsNode {
        let mut h = self.hash ^ splitmix64(i + 1);
        for _ in 0..HASH_ROUNDS {
            h = splitmix64(h);
        }
        UtsNode {
            hash: h,
            depth: self.depth + 1,
        }
    }

    /// How many children the node has in the tree cut at `max_depth`.
    pub fn num_children(self, max_depth: u32) -> u64 {
        if self.depth >= max_depth {
            return 0;
        }
        if self.depth == 0 {
            return ROOT_CHILDREN;
        }
        let u = (self.hash >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
        let p = 1.0 / (1.0 + BRANCHING);
        ((1.0 - u).ln() / (1.0 - p).ln()).floor() as u64
    }
}

/// splitmix64's output function.
fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

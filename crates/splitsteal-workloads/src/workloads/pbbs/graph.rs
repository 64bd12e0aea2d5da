//! Graph benchmarks on PBBS-style rMat graphs: breadth-first search and maximal
//! independent set.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering};

use rand::RngExt;
use splitsteal::{par, ForkJoin};

use crate::workloads::{rng, splitmix64, DynWorkload, Group, Size, Workload, WorkloadSpec};

/// An undirected graph in compressed sparse row form (each edge stored both ways, no
/// self-loops, no parallel edges).
#[derive(Debug, Clone)]
pub struct Graph {
    /// `offsets[v]..offsets[v + 1]` indexes `v`'s neighbors in `adj`.
    pub offsets: Vec<usize>,
    /// Neighbor lists, sorted.
    pub adj: Vec<u32>,
}

impl Graph {
    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of directed edges (twice the undirected count).
    pub fn m(&self) -> usize {
        self.adj.len()
    }

    /// The neighbors of `v`.
    #[inline]
    pub fn neighbors(&self, v: u32) -> &[u32] {
        &self.adj[self.offsets[v as usize]..self.offsets[v as usize + 1]]
    }

    /// Builds the graph from undirected edges (self-loops and duplicates dropped).
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Graph {
        let mut deg = vec![0usize; n + 1];
        for &(u, v) in edges {
            if u != v {
                deg[u as usize] += 1;
                deg[v as usize] += 1;
            }
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let mut acc = 0;
        for d in &deg[..n] {
            offsets.push(acc);
            acc += d;
        }
        offsets.push(acc);
        let mut fill = offsets.clone();
        let mut adj = vec![0u32; acc];
        for &(u, v) in edges {
            if u != v {
                adj[fill[u as usize]] = v;
                fill[u as usize] += 1;
                adj[fill[v as usize]] = u;
                fill[v as usize] += 1;
            }
        }
        // Sort and deduplicate each list, compacting in place.
        let mut out_off = Vec::with_capacity(n + 1);
        let mut w = 0;
        for v in 0..n {
            let (s, e) = (offsets[v], offsets[v + 1]);
            adj[s..e].sort_unstable();
            out_off.push(w);
            let mut last = u32::MAX;
            for i in s..e {
                let x = adj[i];
                if x != last {
                    adj[w] = x;
                    w += 1;
                    last = x;
                }
            }
        }
        out_off.push(w);
        adj.truncate(w);
        adj.shrink_to_fit();
        Graph {
            offsets: out_off,
            adj,
        }
    }
}

/// PBBS's rMat generator: `2^log_n` vertices and `m` edges, each placed by descending
/// `log_n` levels of the adjacency matrix with quadrant probabilities (a, b, c, d) =
/// (0.5, 0.1, 0.1, 0.3); vertex ids are then scrambled by a fixed permutation so that
/// high-degree vertices are not clustered at low ids.
pub fn rmat(log_n: u32, m: usize, seed: u64) -> Graph {
    let n = 1usize << log_n;
    let mut r = rng(seed, 30);
    let (a, b, c) = (0.5, 0.1, 0.1);
    let edges: Vec<(u32, u32)> = (0..m)
        .map(|_| {
            let (mut u, mut v) = (0u32, 0u32);
            for _ in 0..log_n {
                let (bu, bv) = crate::pbbs_io::generate::rmat_quadrant(r.random(), (a, b, c));
                u = (u << 1) | bu;
                v = (v << 1) | bv;
            }
            (u, v)
        })
        .collect();
    // A fixed pseudo-random permutation of the ids: sort ids by a hash.
    let mut perm: Vec<u32> = (0..n as u32).collect();
    perm.sort_unstable_by_key(|&i| splitmix64(i as u64 ^ seed));
    let edges: Vec<(u32, u32)> = edges
        .into_iter()
        .map(|(u, v)| (perm[u as usize], perm[v as usize]))
        .collect();
    Graph::from_edges(n, &edges)
}

/// "Not yet": unvisited parent, unfilled frontier slot.
pub const NONE: u32 = u32::MAX;

/// Parallel frontier BFS from `src` (PBBS's nondeterministic BFS): each round, the edges
/// out of the frontier are spread evenly over the workers (`par_for_ranges` over the
/// prefix sums of the frontier's degrees), a neighbor is claimed with a CAS on its parent,
/// and the claimed neighbors form the next frontier (`filter`). Returns (parent, depth);
/// parents depend on the schedule, depths do not.
pub fn bfs<C: ForkJoin>(c: &mut C, g: &Graph, src: u32) -> (Vec<u32>, Vec<u32>) {
    let n = g.n();
    let parent: Vec<AtomicU32> = par::tabulate(c, n, |_| AtomicU32::new(NONE));
    let depth: Vec<AtomicU32> = par::tabulate(c, n, |_| AtomicU32::new(NONE));
    parent[src as usize].store(src, Ordering::Relaxed);
    depth[src as usize].store(0, Ordering::Relaxed);
    let mut frontier = vec![src];
    let mut round = 0;
    while !frontier.is_empty() {
        round += 1;
        let degrees: Vec<usize> = par::map(c, &frontier, |&v| g.neighbors(v).len());
        let (offs, total) = par::scan(c, &degrees, || 0, |a, b| a + b);
        drop(degrees);
        let next: Vec<AtomicU32> = par::tabulate(c, total, |_| AtomicU32::new(NONE));
        let (fr, offs_ref, next_ref, parent_ref, depth_ref) =
            (&frontier, &offs, &next, &parent, &depth);
        par::par_for_ranges(c, 0..total, |edges| {
            // The frontier vertex owning edge slot `edges.start`.
            let mut i = offs_ref.partition_point(|&o| o <= edges.start) - 1;
            let mut e = edges.start;
            while e < edges.end {
                let end_i = offs_ref.get(i + 1).copied().unwrap_or(total);
                if e >= end_i {
                    i += 1;
                    continue;
                }
                let v = fr[i];
                let nb = g.neighbors(v);
                let stop = end_i.min(edges.end);
                for slot in e..stop {
                    let u = nb[slot - offs_ref[i]] as usize;
                    if parent_ref[u].load(Ordering::Relaxed) == NONE
                        && parent_ref[u]
                            .compare_exchange(NONE, v, Ordering::Relaxed, Ordering::Relaxed)
                            .is_ok()
                    {
                        depth_ref[u].store(round, Ordering::Relaxed);
                        next_ref[slot].store(u as u32, Ordering::Relaxed);
                    }
                }
                e = stop;
            }
        });
        let claimed: Vec<u32> = par::map(c, &next, |x| x.load(Ordering::Relaxed));
        drop(next);
        frontier = par::filter(c, &claimed, |&u| u != NONE);
    }
    let unwrap = |v: Vec<AtomicU32>| {
        v.into_iter()
            .map(AtomicU32::into_inner)
            .collect::<Vec<u32>>()
    };
    (unwrap(parent), unwrap(depth))
}

/// Reference: queue-based BFS depths.
pub fn bfs_depths_reference(g: &Graph, src: u32) -> Vec<u32> {
    let mut depth = vec![NONE; g.n()];
    depth[src as usize] = 0;
    let mut q = VecDeque::from([src]);
    while let Some(v) = q.pop_front() {
        for &u in g.neighbors(v) {
            if depth[u as usize] == NONE {
                depth[u as usize] = depth[v as usize] + 1;
                q.push_back(u);
            }
        }
    }
    depth
}

/// The `bfs` workload.
#[derive(Debug)]
pub struct Bfs {
    g: Graph,
    src: u32,
    depths: Vec<u32>,
}

impl Workload for Bfs {
    type Input = ();
    type Output = (Vec<u32>, Vec<u32>);
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> (Vec<u32>, Vec<u32>) {
        bfs(c, &self.g, self.src)
    }
    fn check(&self, (parent, depth): &(Vec<u32>, Vec<u32>)) -> Result<(), String> {
        super::seq::compare(depth, &self.depths).map_err(|e| format!("depths: {e}"))?;
        for (v, (&p, &d)) in parent.iter().zip(depth).enumerate() {
            let ok = if d == NONE {
                p == NONE
            } else if v as u32 == self.src {
                p == self.src
            } else {
                p != NONE
                    && depth[p as usize] + 1 == d
                    && self.g.neighbors(p).binary_search(&(v as u32)).is_ok()
            };
            if !ok {
                return Err(format!(
                    "vertex {v}: parent {p} is not a neighbor one level up"
                ));
            }
        }
        Ok(())
    }
}

fn graph_for(s: Size) -> (u32, usize) {
    // (log2 vertices, generated edges): average degree about 2 · 10.
    s.pick((12, 40_000), (16, 600_000), (18, 2_500_000))
}

/// The source: the highest-degree vertex (so the search reaches the giant component).
#[doc(hidden)] // public for the module tests (tests/modules)
pub fn source(g: &Graph) -> u32 {
    (0..g.n() as u32)
        .max_by_key(|&v| (g.neighbors(v).len(), std::cmp::Reverse(v)))
        .unwrap_or(0)
}

/// Registry entry for `bfs`.
pub fn spec_bfs() -> WorkloadSpec {
    WorkloadSpec {
        name: "bfs",
        group: Group::Pbbs,
        description: "PBBS breadthFirstSearch on an rMat graph: frontier BFS with CAS claims",
        params: |s| {
            let (l, m) = graph_for(s);
            format!("rMat 2^{l} vertices, {m} edges (a,b,c = .5,.1,.1), symmetrized")
        },
        build: |s, seed| {
            let (l, m) = graph_for(s);
            let g = rmat(l, m, seed);
            let src = source(&g);
            let depths = bfs_depths_reference(&g, src);
            Box::new(Bfs { g, src, depths }) as Box<dyn DynWorkload>
        },
    }
}

const UNDECIDED: u8 = 0;
const IN: u8 = 1;
const OUT: u8 = 2;

/// Priority of vertex `v` (smaller first): a hash, ties broken by the id.
#[inline]
pub fn priority(v: u32, seed: u64) -> u64 {
    (splitmix64(v as u64 ^ seed) & !0xFFFF_FFFF) | v as u64
}

/// The maximal independent set that the greedy algorithm finds when it visits the
/// vertices by increasing [`priority`], computed in parallel rounds (Blelloch, Fineman
/// and Shun, SPAA'12): a vertex joins when it precedes all its undecided neighbors, then
/// the neighbors of the new members leave. The result is independent of the schedule.
pub fn mis<C: ForkJoin>(c: &mut C, g: &Graph, seed: u64) -> Vec<bool> {
    let n = g.n();
    let status: Vec<AtomicU8> = par::tabulate(c, n, |_| AtomicU8::new(UNDECIDED));
    let mut remaining: Vec<u32> = par::tabulate(c, n, |v| v as u32);
    while !remaining.is_empty() {
        let (rem, st) = (&remaining, &status);
        par::par_for(c, 0..rem.len(), |i| {
            let v = rem[i];
            let pv = priority(v, seed);
            // A neighbor that joins in this round precedes v, so reading it as IN or as
            // UNDECIDED gives the same answer.
            let first = g
                .neighbors(v)
                .iter()
                .all(|&u| st[u as usize].load(Ordering::Relaxed) == OUT || priority(u, seed) > pv);
            if first {
                st[v as usize].store(IN, Ordering::Relaxed);
            }
        });
        par::par_for(c, 0..rem.len(), |i| {
            let v = rem[i];
            if st[v as usize].load(Ordering::Relaxed) == UNDECIDED
                && g.neighbors(v)
                    .iter()
                    .any(|&u| st[u as usize].load(Ordering::Relaxed) == IN)
            {
                st[v as usize].store(OUT, Ordering::Relaxed);
            }
        });
        remaining = par::filter(c, rem, |&v| {
            st[v as usize].load(Ordering::Relaxed) == UNDECIDED
        });
    }
    par::map(c, &status, |s| s.load(Ordering::Relaxed) == IN)
}

/// Reference: the sequential greedy MIS in priority order.
pub fn mis_reference(g: &Graph, seed: u64) -> Vec<bool> {
    let mut order: Vec<u32> = (0..g.n() as u32).collect();
    order.sort_unstable_by_key(|&v| priority(v, seed));
    let mut inset = vec![false; g.n()];
    for v in order {
        if !g.neighbors(v).iter().any(|&u| inset[u as usize]) {
            inset[v as usize] = true;
        }
    }
    inset
}

/// The `mis` workload.
#[derive(Debug)]
pub struct Mis {
    g: Graph,
    seed: u64,
    expected: Vec<bool>,
}

impl Workload for Mis {
    type Input = ();
    type Output = Vec<bool>;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> Vec<bool> {
        mis(c, &self.g, self.seed)
    }
    fn check(&self, out: &Vec<bool>) -> Result<(), String> {
        super::seq::compare(out, &self.expected)
    }
}

fn mis_graph_for(s: Size) -> (u32, usize) {
    s.pick((12, 40_000), (16, 600_000), (19, 5_000_000))
}

/// Registry entry for `mis`.
pub fn spec_mis() -> WorkloadSpec {
    WorkloadSpec {
        name: "mis",
        group: Group::Pbbs,
        description: "PBBS maximalIndependentSet on an rMat graph: deterministic greedy MIS in parallel rounds",
        params: |s| {
            let (l, m) = mis_graph_for(s);
            format!("rMat 2^{l} vertices, {m} edges, symmetrized; random priorities")
        },
        build: |s, seed| {
            let (l, m) = mis_graph_for(s);
            let g = rmat(l, m, seed ^ 0x315);
            let expected = mis_reference(&g, seed);
            Box::new(Mis { g, seed, expected }) as Box<dyn DynWorkload>
        },
    }
}

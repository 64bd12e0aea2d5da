//! Synchronization counts of classical work stealing (CWS) and Low-Cost Work Stealing (LCWS) on
//! fork-join DAGs (the LCWS paper: Rito & Paulino, *Scheduling computations with provably low
//! synchronization overheads*, 2021, §5 and Fig. 2).
//!
//! # DAGs ([`Dag`])
//!
//! Nodes are unit instructions with out-degree ≤ 2, one root and one sink (the paper's model).
//! * [`Dag::regular`]: a complete binary fork tree of `depth` fork levels: every non-leaf
//!   instruction forks two others, and matching join instructions bring the branches back to a
//!   single sink. `T1 = 3·2^depth − 2`, `T∞ = 2·depth + 1` (nodes on the longest path).
//!   `depth` is the paper's "fork-span".
//! * [`Dag::irregular`]: the argument is the total depth (in instructions); every thread runs a
//!   chain whose length until its next fork is drawn from an exponential distribution (paper:
//!   rate λ = 0.05, i.e. mean 20), and stops at the depth budget. Joins as above. `T1` and `T∞`
//!   are computed exactly.
//!
//! # Schedulers (P processors, unit-time steps)
//!
//! In every step every processor runs one scheduling iteration: it executes its assigned node,
//! or, if it has none, makes one steal attempt at a victim chosen uniformly among the *other*
//! processors (Algorithm 1, line 26, draws among all P, and the analysis's Lemma 10 uses
//! exactly P bins; excluding oneself is the usual, harmless deviation). Processors act in a
//! rotating order whose start is drawn at random each step. Executing a node that enables two
//! nodes keeps the first and pushes the second (work-first). Two thieves hitting the same deque
//! top within one step contend: the second one's CAS fails (ABORT, allowed by the relaxed
//! semantics).
//!
//! * [`Algorithm::Cws`]: the Arora–Blumofe–Plaxton deque (ABP paper, §3.3) as used by classical
//!   work stealing. `pushBottom` is free; every `popBottom` on a non-empty-index deque executes
//!   the store→load fence of the take path (1 fence) and a CAS when it contends for the last
//!   node; every `popTop` that finds work executes a CAS.
//! * [`Algorithm::Lcws`]: the LCWS paper's Algorithm 1 (the scheduler) + Algorithm 2 (the split
//!   deque). PUSH and POP on the private part are free. A thief whose POPTOP finds the public
//!   part empty sets the victim's `targeted` flag (one *notification*). The owner polls the
//!   flag every iteration and then exposes one node with UPDATEBOTTOM; each node-moving
//!   UPDATEBOTTOM is counted as one fence (an optional SeqCst fence after its store: the paper
//!   places no fence, it only bounds the iterations that may contain one, and these are among
//!   them; counting it makes the LCWS numbers an upper bound). POPBOTTOM (only after POP
//!   returned RACE) is free when nothing was ever exposed since the last reset
//!   (`officialBottom = 0`, line 37); otherwise 1 fence, plus a CAS for the last public node.
//!   POPTOP costs a CAS when it finds work.
//!
//! Thief-side loads cost nothing in both (x86-TSO, as the paper assumes). The counts are
//! therefore directly comparable between the two algorithms.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

const NONE: u32 = u32::MAX;

/// A computation DAG with out-degree ≤ 2, one root (node 0) and one sink.
#[derive(Debug, Clone)]
pub struct Dag {
    succ: Vec<[u32; 2]>,
    /// The in-degree of each node.
    #[doc(hidden)]
    pub indeg: Vec<u8>,
    sink: u32,
    span: u64,
    forks: u64,
}

struct Builder {
    succ: Vec<[u32; 2]>,
    indeg: Vec<u8>,
    /// Longest path (in nodes) ending at each node.
    depth: Vec<u32>,
    forks: u64,
}

impl Builder {
    fn new() -> Self {
        Builder {
            succ: Vec::new(),
            indeg: Vec::new(),
            depth: Vec::new(),
            forks: 0,
        }
    }
    fn node(&mut self) -> u32 {
        let id = self.succ.len();
        assert!(id < NONE as usize - 1, "DAG too large");
        self.succ.push([NONE, NONE]);
        self.indeg.push(0);
        self.depth.push(1);
        id as u32
    }
    fn edge(&mut self, a: u32, b: u32) {
        let s = &mut self.succ[a as usize];
        if s[0] == NONE {
            s[0] = b;
        } else {
            debug_assert_eq!(s[1], NONE, "out-degree ≤ 2");
            s[1] = b;
        }
        debug_assert!(a < b, "node ids are a topological order");
        self.indeg[b as usize] += 1;
    }
    /// A chain of `len ≥ 1` nodes; returns (first, last).
    fn chain(&mut self, len: u32) -> (u32, u32) {
        let first = self.node();
        let mut last = first;
        for _ in 1..len {
            let n = self.node();
            self.edge(last, n);
            last = n;
        }
        (first, last)
    }
    /// Forks after `last`: two sub-computations, then a join; returns the join.
    fn fork_join(&mut self, last: u32, left: (u32, u32), right: (u32, u32)) -> u32 {
        self.forks += 1;
        self.edge(last, left.0);
        self.edge(last, right.0);
        let j = self.node();
        self.edge(left.1, j);
        self.edge(right.1, j);
        j
    }
    fn finish(mut self, root: u32, sink: u32) -> Dag {
        debug_assert_eq!(root, 0);
        // Every edge goes from a smaller to a larger id, so one pass in id order computes the
        // longest path (in nodes) ending at each node.
        for a in 0..self.succ.len() {
            let d = self.depth[a] + 1;
            for b in self.succ[a] {
                if b != NONE {
                    let db = &mut self.depth[b as usize];
                    *db = (*db).max(d);
                }
            }
        }
        let span = self.depth[sink as usize] as u64;
        Dag {
            succ: self.succ,
            indeg: self.indeg,
            sink,
            span,
            forks: self.forks,
        }
    }
}

impl Dag {
    /// Largest supported regular depth (T1 = 3·2^depth − 2 nodes must fit in memory).
    pub const MAX_REGULAR_DEPTH: u32 = 26;

    /// Complete binary fork tree with `depth` fork levels and matching joins.
    pub fn regular(depth: u32) -> Dag {
        assert!(depth <= Self::MAX_REGULAR_DEPTH, "depth too large");
        fn rec(b: &mut Builder, levels: u32) -> (u32, u32) {
            let f = b.node();
            if levels == 0 {
                return (f, f);
            }
            let l = rec(b, levels - 1);
            let r = rec(b, levels - 1);
            (f, b.fork_join(f, l, r))
        }
        let mut b = Builder::new();
        let (root, sink) = rec(&mut b, depth);
        b.finish(root, sink)
    }

    /// Irregular fork-join DAG of total depth `depth` (instructions along each root-to-leaf
    /// thread path) whose fork spacing is `⌈Exp(rate)⌉`. Fails if the DAG would exceed
    /// `max_nodes` nodes.
    pub fn irregular(depth: u32, rate: f64, seed: u64, max_nodes: usize) -> Result<Dag, String> {
        if depth == 0 {
            return Err("irregular depth must be at least 1".into());
        }
        if !(rate > 0.0 && rate.is_finite()) {
            return Err(format!("fork rate must be positive, got {rate}"));
        }
        let mut rng = SmallRng::seed_from_u64(seed);
        fn rec(
            b: &mut Builder,
            rng: &mut SmallRng,
            budget: u32,
            rate: f64,
            max: usize,
        ) -> Result<(u32, u32), String> {
            if b.succ.len() > max {
                return Err(format!(
                    "irregular DAG exceeds {max} nodes; lower the depth or the rate"
                ));
            }
            let u: f64 = rng.random();
            let gap = (-(1.0 - u).ln() / rate).ceil().max(1.0);
            if gap >= budget as f64 {
                return Ok(b.chain(budget));
            }
            let gap = gap as u32;
            let (first, fork) = b.chain(gap);
            let l = rec(b, rng, budget - gap, rate, max)?;
            let r = rec(b, rng, budget - gap, rate, max)?;
            Ok((first, b.fork_join(fork, l, r)))
        }
        let mut b = Builder::new();
        let (root, sink) = rec(&mut b, &mut rng, depth, rate, max_nodes)?;
        Ok(b.finish(root, sink))
    }

    /// Work `T1`: the number of nodes.
    pub fn work(&self) -> u64 {
        self.succ.len() as u64
    }

    /// Span `T∞`: the number of nodes on a longest path.
    pub fn span(&self) -> u64 {
        self.span
    }

    /// Number of fork nodes.
    pub fn forks(&self) -> u64 {
        self.forks
    }

    /// Root node.
    pub fn root(&self) -> u32 {
        0
    }

    /// Sink node.
    pub fn sink(&self) -> u32 {
        self.sink
    }

    /// Successors of `n` (0, 1 or 2).
    pub fn successors(&self, n: u32) -> impl Iterator<Item = u32> + '_ {
        self.succ[n as usize].iter().copied().filter(|&s| s != NONE)
    }

    /// Fresh per-run join counters (in-degree of each node).
    pub fn pending(&self) -> Vec<u8> {
        self.indeg.clone()
    }

    /// Executes `n`: decrements its successors' counters and returns the nodes it enables
    /// (`NONE`-padded), as in the paper's `EXECUTE`.
    #[inline]
    pub(crate) fn execute(&self, n: u32, pending: &mut [u8]) -> [u32; 2] {
        let mut out = [NONE, NONE];
        let mut k = 0;
        for s in self.succ[n as usize] {
            if s == NONE {
                break;
            }
            let c = &mut pending[s as usize];
            *c -= 1;
            if *c == 0 {
                out[k] = s;
                k += 1;
            }
        }
        out
    }
}

/// Which scheduler to simulate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Algorithm {
    /// Classical work stealing on concurrent (ABP) deques.
    Cws,
    /// Low-Cost Work Stealing on split deques.
    Lcws,
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Algorithm::Cws => "CWS",
            Algorithm::Lcws => "LCWS",
        })
    }
}

/// Counters of one simulated execution.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DagRunStats {
    /// Work of the DAG.
    pub t1: u64,
    /// Span of the DAG.
    pub span: u64,
    /// Number of processors.
    pub procs: u64,
    /// Steps until the sink executed.
    pub makespan: u64,
    /// Nodes executed (equals `t1`).
    pub executed: u64,
    /// CAS instructions (successful or not).
    pub cas: u64,
    /// Memory fences.
    pub fences: u64,
    /// Notifications: thief sets a victim's `targeted` flag (LCWS only).
    pub notifications: u64,
    /// Nodes moved from a private to a public part by UPDATEBOTTOM (LCWS only).
    pub exposures: u64,
    /// Steal attempts (idle iterations).
    pub steal_attempts: u64,
    /// Steal attempts that obtained a node.
    pub successful_steals: u64,
    /// Steal attempts whose CAS failed (contention within a step).
    pub aborts: u64,
}

impl DagRunStats {
    /// CAS + fences.
    pub fn sync(&self) -> u64 {
        self.cas + self.fences
    }
}

/// A (split) deque. For CWS the private part is always empty (`obot == pbot`).
#[derive(Debug, Clone, Default)]
#[doc(hidden)]
pub struct Deque {
    entries: Vec<u32>,
    /// ABP's `top`: the index of the oldest node, the next one a thief takes.
    pub top: usize,
    /// officialBottom (ABP's `bot` for CWS).
    pub obot: usize,
    /// privateBottom.
    pub pbot: usize,
    /// Step in which a thief last removed the top node (for ABORT on contention).
    top_taken: u64,
}

/// Result of a steal attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[doc(hidden)]
pub enum Steal {
    /// The thief took this node.
    Got(u32),
    /// No exposed node.
    Empty,
    /// Another thief took the top node in the same step: the CAS failed.
    Abort,
}

impl Deque {
    /// Empties the deque, as at the start of a run.
    pub fn clear(&mut self) {
        self.top = 0;
        self.obot = 0;
        self.pbot = 0;
        self.top_taken = u64::MAX;
    }

    fn store(&mut self, idx: usize, n: u32) {
        if idx == self.entries.len() {
            self.entries.push(n);
        } else {
            self.entries[idx] = n;
        }
    }

    /// Whether the deque holds no node at all.
    pub fn is_empty(&self) -> bool {
        self.pbot == self.obot && self.obot <= self.top
    }

    /// CWS pushBottom (public) — free.
    pub fn push_public(&mut self, n: u32) {
        self.store(self.obot, n);
        self.obot += 1;
        self.pbot = self.obot;
    }

    /// LCWS PUSH (private) — free.
    pub fn push_private(&mut self, n: u32) {
        self.store(self.pbot, n);
        self.pbot += 1;
    }

    /// LCWS POP — free; `None` is RACE.
    pub fn pop_private(&mut self) -> Option<u32> {
        if self.pbot == self.obot {
            return None;
        }
        self.pbot -= 1;
        Some(self.entries[self.pbot])
    }

    /// LCWS UPDATEBOTTOM; returns whether a node was exposed.
    pub fn update_bottom(&mut self) -> bool {
        if self.pbot > self.obot {
            self.obot += 1;
            true
        } else {
            false
        }
    }

    /// ABP popBottom / LCWS POPBOTTOM on the public part (precondition: private part empty).
    pub fn pop_bottom(&mut self, s: &mut DagRunStats) -> Option<u32> {
        debug_assert_eq!(self.pbot, self.obot);
        if self.obot == 0 {
            return None; // line 37: nothing exposed since the last reset, no fence
        }
        let ob = self.obot - 1;
        self.obot = ob;
        self.pbot = ob;
        s.fences += 1; // store officialBottom → load age
        let node = self.entries[ob];
        if ob > self.top {
            return Some(node);
        }
        let last = ob == self.top;
        self.obot = 0;
        self.pbot = 0;
        self.top = 0;
        if last {
            // Contends with thieves by CAS; within our sequential step the owner wins whenever
            // the node is still there.
            s.cas += 1;
            Some(node)
        } else {
            None
        }
    }

    /// popTop / POPTOP by a thief at step `step`.
    pub fn pop_top(&mut self, step: u64, s: &mut DagRunStats) -> Steal {
        if self.obot <= self.top {
            return Steal::Empty;
        }
        s.cas += 1;
        if self.top_taken == step {
            // Another thief removed the top in this very step: our CAS on `age` fails.
            s.aborts += 1;
            return Steal::Abort;
        }
        self.top_taken = step;
        let n = self.entries[self.top];
        self.top += 1;
        Steal::Got(n)
    }
}

/// Simulates `alg` with `procs` processors on `dag`. Returns `Err` if `procs == 0` or if the
/// run exceeds `max_steps` steps (it cannot for sane inputs: the makespan is at most
/// `T1 + steal overhead`).
pub fn simulate(dag: &Dag, alg: Algorithm, procs: usize, seed: u64) -> Result<DagRunStats, String> {
    if procs == 0 {
        return Err("need at least one processor".into());
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pending = dag.pending();
    let mut deques = vec![Deque::default(); procs];
    for d in &mut deques {
        d.clear();
    }
    let mut assigned = vec![NONE; procs];
    let mut targeted = vec![false; procs];
    assigned[0] = dag.root();
    let mut s = DagRunStats {
        t1: dag.work(),
        span: dag.span(),
        procs: procs as u64,
        ..DagRunStats::default()
    };
    let sink = dag.sink();
    // Generous safety net against livelock bugs: every step with no execution is a step where
    // all P processors steal, and the analysis bounds those by O(P·T∞) attempts in expectation.
    let max_steps = 64 * (dag.work() + 64 * dag.span() * procs as u64 + 1024);
    let mut step: u64 = 0;
    loop {
        step += 1;
        if step > max_steps {
            return Err(format!("no termination after {max_steps} steps"));
        }
        let offset = if procs > 1 {
            rng.random_range(0..procs)
        } else {
            0
        };
        for k in 0..procs {
            let i = if offset + k >= procs {
                offset + k - procs
            } else {
                offset + k
            };
            if alg == Algorithm::Lcws && targeted[i] {
                if deques[i].update_bottom() {
                    s.exposures += 1;
                    s.fences += 1;
                }
                targeted[i] = false;
            }
            let a = assigned[i];
            if a != NONE {
                let en = dag.execute(a, &mut pending);
                s.executed += 1;
                if a == sink {
                    s.makespan = step;
                    return Ok(s);
                }
                if en[0] != NONE {
                    assigned[i] = en[0];
                    if en[1] != NONE {
                        match alg {
                            Algorithm::Cws => deques[i].push_public(en[1]),
                            Algorithm::Lcws => deques[i].push_private(en[1]),
                        }
                    }
                } else {
                    assigned[i] = match alg {
                        Algorithm::Cws => deques[i].pop_bottom(&mut s),
                        Algorithm::Lcws => match deques[i].pop_private() {
                            Some(n) => Some(n),
                            None => deques[i].pop_bottom(&mut s),
                        },
                    }
                    .unwrap_or(NONE);
                }
            } else if procs > 1 {
                s.steal_attempts += 1;
                let mut v = rng.random_range(0..procs - 1);
                if v >= i {
                    v += 1;
                }
                match deques[v].pop_top(step, &mut s) {
                    Steal::Got(n) => {
                        s.successful_steals += 1;
                        assigned[i] = n;
                    }
                    Steal::Abort => {}
                    Steal::Empty => {
                        if alg == Algorithm::Lcws {
                            targeted[v] = true;
                            s.notifications += 1;
                        }
                    }
                }
            }
        }
    }
}

/// Mean counters over several runs (all fields are means).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct DagMeans {
    /// Mean work.
    pub t1: f64,
    /// Mean span.
    pub span: f64,
    /// Mean makespan.
    pub makespan: f64,
    /// Mean CAS count.
    pub cas: f64,
    /// Mean fence count.
    pub fences: f64,
    /// Mean CAS + fences.
    pub sync: f64,
    /// Mean notifications.
    pub notifications: f64,
    /// Mean exposures.
    pub exposures: f64,
    /// Mean steal attempts.
    pub steal_attempts: f64,
    /// Mean successful steals.
    pub successful_steals: f64,
}

impl DagMeans {
    /// Averages a batch of runs.
    pub fn of(runs: &[DagRunStats]) -> Self {
        let n = runs.len().max(1) as f64;
        let m = |f: &dyn Fn(&DagRunStats) -> u64| runs.iter().map(|r| f(r) as f64).sum::<f64>() / n;
        DagMeans {
            t1: m(&|r| r.t1),
            span: m(&|r| r.span),
            makespan: m(&|r| r.makespan),
            cas: m(&|r| r.cas),
            fences: m(&|r| r.fences),
            sync: m(&|r| r.sync()),
            notifications: m(&|r| r.notifications),
            exposures: m(&|r| r.exposures),
            steal_attempts: m(&|r| r.steal_attempts),
            successful_steals: m(&|r| r.successful_steals),
        }
    }
}

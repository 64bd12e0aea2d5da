//! Work stealing on a multiprogrammed machine (the ABP paper: Arora, Blumofe & Plaxton, *Thread
//! scheduling for multiprogrammed multiprocessors*, 2001).
//!
//! # Model
//!
//! * `P` processes run the work stealer of the ABP paper's Figure 3 (ABP deques, one deque per
//!   process, the root assigned to process 0, victims uniform among the other processes).
//! * The kernel runs in rounds. In round `i` it picks `p_i` processes (the *processor count* of
//!   that round, drawn uniformly from `[pmin, pmax]` by a kernel stream that is the same for
//!   every adversary and yield kind with the same seed); each chosen process executes one
//!   scheduling iteration (execute its assigned node, or one steal attempt). This is the round
//!   model of the paper's §4.1 with one milestone per round. The processor average is
//!   `P_A = (Σ p_i) / T` over the `T` rounds of the execution, counting the processes actually
//!   scheduled.
//! * Which processes run ([`Adversary`]):
//!   - [`Adversary::Benign`] — `p_i` processes chosen uniformly at random.
//!   - [`Adversary::Oblivious`] — commits to its whole schedule before the execution: it
//!     round-robins over processes `1..P` and never picks process 0, which (it knows) holds the
//!     root. With `pmax < P`, process 0 only runs when a yield forces it.
//!   - [`Adversary::Adaptive`] — looks at the state every round and prefers processes that hold
//!     no work (no assigned node, empty deque), i.e. it starves the workers while thieves spin.
//! * Yields ([`YieldKind`]), called by a thief between two consecutive steal attempts (after
//!   a failed one):
//!   - [`YieldKind::None`] — nothing.
//!   - [`YieldKind::ToRandom`] — `yieldToRandom`: a random other process `r` is drawn; the
//!     thief cannot be scheduled again until `r` has been scheduled at some round `≥` the yield's.
//!   - [`YieldKind::ToAll`] — `yieldToAll`: the thief cannot be scheduled again until every other
//!     process has been scheduled at some round `≥` the yield's.
//!
//!   The kernel obeys yields by substitution, as in the paper: when it wants a blocked process,
//!   it schedules one of the processes that process is waiting for instead (an eligible one;
//!   one always exists). Yields never change `p_i` except when too few processes are eligible.
//!
//! The theorems bound the expected execution time by `O(T1/P_A + T∞·P/P_A)` for the benign
//! adversary with no yield (Thm 10), the oblivious one with `yieldToRandom` (Thm 11) and the
//! adaptive one with `yieldToAll` (Thm 12), all in §4.4. [`KernelRun::ratio`] reports
//! `T / (T1/P_A + T∞·P/P_A)`. A run that does not finish within `max_rounds` is reported as
//! timed out.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::dag::{Dag, DagRunStats, Deque, Steal};

const NONE: u32 = u32::MAX;

/// Who picks the scheduled processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Adversary {
    /// Random processes.
    Benign,
    /// Fixed, precommitted schedule that never picks process 0.
    Oblivious,
    /// Online: prefers processes without work.
    Adaptive,
}

/// What a thief does between steal attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum YieldKind {
    /// No yield.
    None,
    /// `yieldToRandom`.
    ToRandom,
    /// `yieldToAll`.
    ToAll,
}

impl std::fmt::Display for Adversary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Adversary::Benign => "benign",
            Adversary::Oblivious => "oblivious",
            Adversary::Adaptive => "adaptive",
        })
    }
}

impl std::fmt::Display for YieldKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            YieldKind::None => "none",
            YieldKind::ToRandom => "yieldToRandom",
            YieldKind::ToAll => "yieldToAll",
        })
    }
}

/// Parameters of a kernel simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct KernelParams {
    /// Number of processes `P` (≥ 2).
    pub procs: usize,
    /// Smallest `p_i` (≥ 1).
    pub pmin: usize,
    /// Largest `p_i` (≤ `P`).
    pub pmax: usize,
    /// Kernel adversary.
    pub adversary: Adversary,
    /// Yield used by thieves.
    pub yield_kind: YieldKind,
    /// Give up after this many rounds.
    pub max_rounds: u64,
}

impl KernelParams {
    /// Largest number of processes.
    pub const MAX_PROCS: usize = 4096;

    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), String> {
        if self.procs < 2 || self.procs > Self::MAX_PROCS {
            return Err(format!(
                "procs must be in 2..={}, got {}",
                Self::MAX_PROCS,
                self.procs
            ));
        }
        if self.pmin == 0 || self.pmin > self.pmax || self.pmax > self.procs {
            return Err(format!(
                "need 1 ≤ pmin ≤ pmax ≤ procs, got pmin = {}, pmax = {}, procs = {}",
                self.pmin, self.pmax, self.procs
            ));
        }
        if self.max_rounds == 0 {
            return Err("max_rounds must be at least 1".into());
        }
        Ok(())
    }
}

/// Outcome of one kernel simulation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct KernelRun {
    /// Work of the DAG.
    pub t1: u64,
    /// Span of the DAG.
    pub span: u64,
    /// Rounds executed (= `max_rounds` on timeout).
    pub rounds: u64,
    /// Whether the computation finished.
    pub finished: bool,
    /// Processor average `Σ p_i / rounds`.
    pub pa: f64,
    /// Steal attempts.
    pub steal_attempts: u64,
    /// Yield calls.
    pub yields: u64,
    /// Times the kernel had to substitute a process because of a yield.
    pub substitutions: u64,
}

impl KernelRun {
    /// `T1/P_A + T∞·P/P_A` for `procs = P`.
    pub fn bound(&self, procs: usize) -> f64 {
        (self.t1 as f64 + self.span as f64 * procs as f64) / self.pa
    }

    /// `rounds / bound` (a lower bound on the true ratio when the run timed out).
    pub fn ratio(&self, procs: usize) -> f64 {
        self.rounds as f64 / self.bound(procs)
    }
}

/// Simulates the work stealer on `dag` under the given kernel. `seed` drives victims, yields and
/// the benign/adaptive choices; `kernel_seed` drives the `p_i` sequence (the "kernel schedule"
/// shared by every adversary for the same seed).
pub fn simulate(
    dag: &Dag,
    params: &KernelParams,
    seed: u64,
    kernel_seed: u64,
) -> Result<KernelRun, String> {
    params.validate()?;
    let p = params.procs;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut krng = SmallRng::seed_from_u64(kernel_seed);
    let mut pending = dag.pending();
    let mut deques = vec![Deque::default(); p];
    for d in &mut deques {
        d.clear();
    }
    let mut assigned = vec![NONE; p];
    assigned[0] = dag.root();
    // Yield state: round of the pending yield (u64::MAX = none) and its target (yieldToRandom).
    let mut yield_round = vec![u64::MAX; p];
    let mut yield_target = vec![0usize; p];
    // Last round in which each process was scheduled (0 = never; rounds start at 1).
    let mut last = vec![0u64; p];
    let mut chosen = vec![false; p];
    let mut order: Vec<usize> = (0..p).collect();
    let mut sched: Vec<usize> = Vec::with_capacity(p);
    let mut stats = DagRunStats::default();
    let (mut yields, mut subs, mut total_p) = (0u64, 0u64, 0u64);
    let mut rr = 0usize; // oblivious round-robin cursor

    let mut round = 0u64;
    let finished = 'outer: loop {
        if round >= params.max_rounds {
            break false;
        }
        round += 1;
        let pi = krng.random_range(params.pmin..=params.pmax);

        // min and second min of `last` (for yieldToAll eligibility in O(1)).
        let (mut m1, mut a1, mut m2) = (u64::MAX, usize::MAX, u64::MAX);
        for (r, &l) in last.iter().enumerate() {
            if l < m1 {
                m2 = m1;
                m1 = l;
                a1 = r;
            } else if l < m2 {
                m2 = l;
            }
        }
        let eligible = |q: usize| -> bool {
            let y = yield_round[q];
            if y == u64::MAX {
                return true;
            }
            match params.yield_kind {
                YieldKind::None => true,
                YieldKind::ToRandom => last[yield_target[q]] >= y,
                YieldKind::ToAll => (if a1 == q { m2 } else { m1 }) >= y,
            }
        };

        // Preference order of the adversary.
        match params.adversary {
            Adversary::Benign => {
                for k in 0..p {
                    let j = rng.random_range(k..p);
                    order.swap(k, j);
                }
            }
            Adversary::Oblivious => {
                // 1..P round-robin, then 0 last: fixed before the execution starts.
                order.clear();
                for k in 0..p - 1 {
                    order.push(1 + (rr + k) % (p - 1));
                }
                order.push(0);
                rr = (rr + pi) % (p - 1);
            }
            Adversary::Adaptive => {
                for k in 0..p {
                    let j = rng.random_range(k..p);
                    order.swap(k, j);
                }
                // Stable partition: processes without work first.
                order.sort_by_key(|&q| assigned[q] != NONE || !deques[q].is_empty());
            }
        }

        sched.clear();
        for &q in &order {
            if sched.len() >= pi {
                break;
            }
            if chosen[q] {
                continue;
            }
            if eligible(q) {
                chosen[q] = true;
                sched.push(q);
                continue;
            }
            // Substitute a process that q is waiting for (follow the chain to an eligible one).
            let mut r = q;
            let mut hops = 0;
            let sub = loop {
                let next = match params.yield_kind {
                    YieldKind::ToRandom => yield_target[r],
                    _ => {
                        let y = yield_round[r];
                        // Prefer the longest-unscheduled process r waits for.
                        let mut best = usize::MAX;
                        for (s, &l) in last.iter().enumerate() {
                            if s != r
                                && l < y
                                && !chosen[s]
                                && (best == usize::MAX || l < last[best])
                            {
                                best = s;
                            }
                        }
                        if best == usize::MAX {
                            break None;
                        }
                        best
                    }
                };
                if chosen[next] {
                    break None;
                }
                if eligible(next) {
                    break Some(next);
                }
                r = next;
                hops += 1;
                if hops > p {
                    break None;
                }
            };
            if let Some(s) = sub {
                chosen[s] = true;
                sched.push(s);
                subs += 1;
            }
        }
        // Execute the scheduled processes in a random order.
        for k in 0..sched.len() {
            let j = rng.random_range(k..sched.len());
            sched.swap(k, j);
        }
        total_p += sched.len() as u64;
        for &q in &sched {
            chosen[q] = false;
            last[q] = round;
            yield_round[q] = u64::MAX; // it runs again: any yield it made has been honoured
        }
        for &q in &sched {
            let a = assigned[q];
            if a != NONE {
                let en = dag.execute(a, &mut pending);
                stats.executed += 1;
                if a == dag.sink() {
                    break 'outer true;
                }
                if en[0] != NONE {
                    assigned[q] = en[0];
                    if en[1] != NONE {
                        deques[q].push_public(en[1]);
                    }
                } else {
                    assigned[q] = deques[q].pop_bottom(&mut stats).unwrap_or(NONE);
                }
            } else {
                stats.steal_attempts += 1;
                let mut v = rng.random_range(0..p - 1);
                if v >= q {
                    v += 1;
                }
                match deques[v].pop_top(round, &mut stats) {
                    Steal::Got(n) => assigned[q] = n,
                    Steal::Empty | Steal::Abort => {
                        if params.yield_kind != YieldKind::None {
                            yields += 1;
                            yield_round[q] = round;
                            if params.yield_kind == YieldKind::ToRandom {
                                let mut r = rng.random_range(0..p - 1);
                                if r >= q {
                                    r += 1;
                                }
                                yield_target[q] = r;
                            }
                        }
                    }
                }
            }
        }
    };
    Ok(KernelRun {
        t1: dag.work(),
        span: dag.span(),
        rounds: round,
        finished,
        pa: total_p as f64 / round as f64,
        steal_attempts: stats.steal_attempts,
        yields,
        substitutions: subs,
    })
}

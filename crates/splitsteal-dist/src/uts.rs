//! Unbalanced Tree Search across ranks (Dinan et al.'s distributed work stealing): each rank
//! explores its share on a splitsteal pool and, when its local nodes run out, steals a
//! batch of unexplored subtrees from a random other rank.
//!
//! # The tree
//!
//! The geometric tree of [`splitsteal_report::uts`], the one splitsteal-bench's `uts`
//! workload traverses too (so the counts agree): expected branching 4, the root (seed 19)
//! with 16 children.
//!
//! # The distributed traversal
//!
//! A rank's unexplored nodes sit on a stack. It takes a batch (`4 × threads` nodes) off the
//! top and explores each on its pool, at most `chunk` nodes per task (depth first), pushing
//! what is left back; between batches it answers messages. A victim gives the bottom half of
//! its stack (the shallowest nodes, the biggest subtrees) or refuses when it has fewer than
//! two nodes. Steal messages take `λ` as in [`crate::bag`] (0 by default).
//!
//! Termination is Mattern's four-counter method: when idle, rank 0 sends waves of probes;
//! each rank answers whether it is passive (no nodes) and how many work messages it has sent
//! and received. Two consecutive waves with every rank passive and equal totals (sent =
//! received, unchanged between the waves) prove that no rank held work and no work was in
//! flight at the moment between them: the count is complete.

use serde::Serialize;
use splitsteal::prelude::*;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::clock::{now_ns, wait_until};
use crate::transport::{kind, Endpoint, Transport};
use crate::{mix64, proto, FAR};

pub use splitsteal_report::uts::UtsNode as Node;

/// Counts of a traversal.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Count {
    /// Nodes.
    pub nodes: u64,
    /// Leaves.
    pub leaves: u64,
    /// Deepest leaf.
    pub max_depth: u32,
}

impl Count {
    fn add(&mut self, o: &Count) {
        self.nodes += o.nodes;
        self.leaves += o.leaves;
        self.max_depth = self.max_depth.max(o.max_depth);
    }
}

/// Explores depth first from the nodes on `stack`, at most `budget` nodes; what is left
/// stays on `stack`.
fn explore(stack: &mut Vec<Node>, max_depth: u32, budget: u64, count: &mut Count) {
    let mut left = budget;
    while left > 0 {
        let Some(n) = stack.pop() else { return };
        left -= 1;
        let k = n.num_children(max_depth);
        count.nodes += 1;
        if k == 0 {
            count.leaves += 1;
            count.max_depth = count.max_depth.max(n.depth);
        }
        stack.extend((0..k).map(|i| n.child(i)));
    }
}

/// The serial count (one thread, an explicit stack).
pub fn serial_count(max_depth: u32) -> Count {
    let mut stack = vec![Node::root()];
    let mut c = Count::default();
    explore(&mut stack, max_depth, u64::MAX, &mut c);
    c
}

/// One distributed traversal's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UtsParams {
    /// Depth limit of the tree.
    pub depth: u32,
    /// Participating ranks.
    pub procs: usize,
    /// Threads of each rank's splitsteal pool.
    pub threads: usize,
    /// Nodes a task explores before it hands the rest back to the rank's stack.
    pub chunk: u64,
    /// Injected one-way latency of the steal messages, in nanoseconds.
    pub latency_ns: u64,
    /// Seed of the victim choices.
    pub seed: u64,
}

impl UtsParams {
    fn encode(&self, t0: u64) -> Vec<u64> {
        vec![
            proto::UTS,
            self.depth as u64,
            self.procs as u64,
            self.threads as u64,
            self.chunk,
            self.latency_ns,
            self.seed,
            t0,
        ]
    }
    fn decode(p: &[u64]) -> Option<(UtsParams, u64)> {
        if p.len() < 8 || p[0] != proto::UTS {
            return None;
        }
        Some((
            UtsParams {
                depth: p[1] as u32,
                procs: p[2] as usize,
                threads: p[3] as usize,
                chunk: p[4],
                latency_ns: p[5],
                seed: p[6],
            },
            p[7],
        ))
    }
}

/// One traversal's outcome (rank 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct UtsRun {
    /// Ranks.
    pub procs: usize,
    /// The counts, all ranks.
    pub count: Count,
    /// Wall-clock seconds from the common start to the detected termination.
    pub seconds: f64,
    /// Steal requests, all ranks.
    pub requests: u64,
    /// Successful steals, all ranks.
    pub steals: u64,
    /// Termination waves rank 0 sent.
    pub waves: u64,
}

/// Runs a traversal as rank 0 with ranks `1..procs` following ([`crate::follow`]).
pub fn lead<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    epoch: u64,
    params: &UtsParams,
) -> Result<UtsRun, String> {
    let size = ep.transport().size();
    if params.procs == 0 || params.procs > size {
        return Err(format!(
            "{} ranks requested, {size} available",
            params.procs
        ));
    }
    if params.threads == 0 || params.chunk == 0 {
        return Err("threads and chunk must be positive".into());
    }
    let t0 = now_ns() + 20_000_000 + 1_000_000 * params.procs as u64;
    let start = params.encode(t0);
    for r in 1..params.procs {
        ep.send_epoch(r, kind::START, epoch, &start);
    }
    ep.begin(epoch, params.latency_ns);
    run_rank(ep, params, t0).map(|r| r.expect("rank 0 returns the run"))
}

pub(crate) fn follow_start<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    epoch: u64,
    start: &[u64],
) -> Result<(), String> {
    let (params, t0) = UtsParams::decode(start).ok_or("bad UTS start")?;
    ep.begin(epoch, params.latency_ns);
    run_rank(ep, &params, t0).map(|_| ())
}

fn encode_nodes(nodes: &[Node]) -> Vec<u64> {
    nodes
        .iter()
        .flat_map(|n| [n.hash, n.depth as u64])
        .collect()
}

fn decode_nodes(words: &[u64]) -> impl Iterator<Item = Node> + '_ {
    words.chunks_exact(2).map(|w| Node {
        hash: w[0],
        depth: w[1] as u32,
    })
}

/// Rank 0's termination wave in progress.
#[derive(Debug, Default)]
struct Wave {
    id: u64,
    replies: usize,
    all_passive: bool,
    sent: u64,
    received: u64,
}

/// Mattern's four-counter rule, applied to each complete wave in turn.
#[derive(Debug, Default)]
struct Termination {
    /// The previous wave's totals (sent, received), if every rank was passive and they
    /// balanced.
    previous: Option<(u64, u64)>,
}

impl Termination {
    /// A wave has completed: true when it and the previous one prove termination (every
    /// rank passive in both, sent = received, the totals unchanged between them, so no
    /// rank's counters moved and none became active in between).
    fn wave(&mut self, all_passive: bool, sent: u64, received: u64) -> bool {
        let this = (all_passive && sent == received).then_some((sent, received));
        let done = this.is_some() && this == self.previous;
        self.previous = this;
        done
    }
}

fn run_rank<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    p: &UtsParams,
    t0: u64,
) -> Result<Option<UtsRun>, String> {
    let me = ep.transport().rank();
    let pool = splitsteal::ThreadPoolBuilder::new()
        .num_threads(p.threads)
        .build()
        .map_err(|e| format!("rank {me}: pool: {e}"))?;
    let mut rng = SmallRng::seed_from_u64(mix64(p.seed ^ mix64(me as u64 + 1)));
    let mut stack: Vec<Node> = if me == 0 {
        vec![Node::root()]
    } else {
        Vec::new()
    };
    let mut count = Count::default();
    let (mut sent, mut received, mut requests) = (0u64, 0u64, 0u64);
    let mut outstanding = false;
    let batch = 4 * p.threads;
    // Rank 0: the current wave and the termination rule over the complete ones.
    let mut wave: Option<Wave> = None;
    let mut termination = Termination::default();
    let mut waves = 0u64;
    let mut done = false;

    wait_until(t0, false);
    while !done {
        // Answer what has arrived, without waiting while there is work.
        let idle = stack.is_empty();
        if idle && me == 0 && p.procs == 1 {
            break;
        }
        if idle && !outstanding && p.procs > 1 {
            let mut v = rng.random_range(0..p.procs - 1);
            if v >= me {
                v += 1;
            }
            ep.send(v, kind::REQUEST, &[]);
            requests += 1;
            outstanding = true;
        }
        if idle && me == 0 && wave.is_none() && p.procs > 1 {
            waves += 1;
            for r in 1..p.procs {
                ep.send(r, kind::PROBE, &[waves]);
            }
            wave = Some(Wave {
                id: waves,
                replies: 0,
                all_passive: true, // rank 0 is passive now
                sent,
                received,
            });
        }
        // Idle: wait up to 1 ms for an answer; busy: only what has arrived.
        let until = if idle { now_ns() + 1_000_000 } else { 0 };
        while let Some(m) = ep.next(until) {
            match m.kind {
                kind::REQUEST => {
                    if stack.len() >= 2 {
                        let give: Vec<Node> = stack.drain(..stack.len() / 2).collect();
                        ep.send(m.from, kind::WORK, &encode_nodes(&give));
                        sent += 1;
                    } else {
                        ep.send(m.from, kind::REFUSE, &[]);
                    }
                }
                kind::WORK => {
                    outstanding = false;
                    received += 1;
                    stack.extend(decode_nodes(&m.payload));
                }
                kind::REFUSE => outstanding = false,
                kind::PROBE if me != 0 => {
                    let passive = stack.is_empty() as u64;
                    ep.send(
                        0,
                        kind::PROBE_REPLY,
                        &[m.payload[0], passive, sent, received],
                    );
                }
                kind::PROBE_REPLY if me == 0 => {
                    if let (Some(w), [id, passive, s, r]) = (&mut wave, &m.payload[..]) {
                        if *id == w.id {
                            w.replies += 1;
                            w.all_passive &= *passive != 0;
                            w.sent += s;
                            w.received += r;
                        }
                    }
                    if wave.as_ref().is_some_and(|w| w.replies == p.procs - 1) {
                        let w = wave.take().expect("checked");
                        if termination.wave(w.all_passive, w.sent, w.received) {
                            done = true;
                            break;
                        }
                    }
                }
                kind::STOP if me != 0 => {
                    done = true;
                    break;
                }
                kind::EXIT => return Err("EXIT during a run".into()),
                _ => {}
            }
            // An idle rank goes back to work, to asking again, or to the next wave.
            if idle && (!stack.is_empty() || !outstanding || me == 0 && wave.is_none()) {
                break;
            }
        }
        if done || stack.is_empty() {
            continue;
        }
        // A batch off the top of the stack, explored on the pool.
        let take = stack.len().min(batch);
        let mut roots: Vec<Vec<Node>> = stack
            .split_off(stack.len() - take)
            .into_iter()
            .map(|n| vec![n])
            .collect();
        let depth = p.depth;
        let chunk = p.chunk;
        let counts: Vec<Count> = pool.install(|| {
            roots
                .par_iter_mut()
                .map(|s| {
                    let mut c = Count::default();
                    explore(s, depth, chunk, &mut c);
                    c
                })
                .collect()
        });
        for c in &counts {
            count.add(c);
        }
        for s in roots {
            stack.extend(s);
        }
    }
    if me != 0 {
        ep.send(
            0,
            kind::STATS,
            &[
                count.nodes,
                count.leaves,
                count.max_depth as u64,
                requests,
                received,
            ],
        );
        return Ok(None);
    }
    let seconds = now_ns().saturating_sub(t0) as f64 / 1e9;
    for r in 1..p.procs {
        ep.send(r, kind::STOP, &[]);
    }
    let mut run = UtsRun {
        procs: p.procs,
        count,
        seconds,
        requests,
        steals: received,
        waves,
    };
    let mut missing = p.procs - 1;
    while missing > 0 {
        let Some(m) = ep.next(FAR) else { continue };
        if m.kind == kind::EXIT {
            return Err(format!("rank {} failed during the run", m.from));
        }
        if let (kind::STATS, [n, l, d, req, rec]) = (m.kind, &m.payload[..]) {
            run.count.add(&Count {
                nodes: *n,
                leaves: *l,
                max_depth: *d as u32,
            });
            run.requests += req;
            run.steals += rec;
            missing -= 1;
        }
    }
    Ok(Some(run))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_is_pinned() {
        // The counts of this definition (splitsteal-bench's uts tree), so a change to the
        // hashing or the branching rule shows.
        let c = serial_count(7);
        assert_eq!((c.nodes, c.leaves, c.max_depth), (67_167, 53_785, 7));
    }

    #[test]
    fn termination_needs_two_identical_passive_balanced_waves() {
        let mut t = Termination::default();
        assert!(!t.wave(true, 3, 3), "one wave proves nothing");
        assert!(t.wave(true, 3, 3));
        let mut t = Termination::default();
        assert!(!t.wave(true, 3, 3));
        assert!(!t.wave(true, 4, 4), "work moved between the waves");
        assert!(t.wave(true, 4, 4));
        let mut t = Termination::default();
        assert!(!t.wave(true, 5, 4), "work in flight");
        assert!(!t.wave(true, 5, 4));
        assert!(!t.wave(false, 5, 5), "a rank is active");
        assert!(!t.wave(true, 5, 5));
        assert!(t.wave(true, 5, 5));
    }

    #[test]
    fn distributed_count_equals_the_serial_count() {
        let depth = 7;
        let serial = serial_count(depth);
        for (procs, threads, chunk, latency_ns) in
            [(4, 1, 16, 0), (3, 2, 64, 200_000), (1, 2, 32, 0)]
        {
            let params = UtsParams {
                depth,
                procs,
                threads,
                chunk,
                latency_ns,
                seed: 3,
            };
            let (run, _) = crate::in_process(4, false, |ep| lead(ep, 1, &params));
            let run = run.unwrap();
            assert_eq!(run.count, serial, "{params:?}");
            if procs > 1 {
                assert!(run.steals > 0, "work moved between ranks: {run:?}");
            }
        }
    }
}

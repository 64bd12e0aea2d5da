//! Work stealing with communication latency (the WS-latency paper: Gast, Khatiri, Trystram &
//! Wagner, *A new analysis of Work Stealing with latency*, 2018).
//!
//! The text of the paper we work from has lost nearly every formula (the prose, the proof
//! structure and the parameter ranges survive). Formulas below marked *reconstructed* fit the
//! surviving proofs and the paper's constants (4.03, the "4 to 5.5" ratio band); where the
//! authors' simulator and plotting scripts (§5.1 links github.com/wagnerf42/wssimulator) pin
//! a value down, that is said.
//!
//! # Model (WS-latency paper, §2; event rules as in the authors' simulator, §5.1)
//!
//! * `W` unit tasks form a divisible bag of work; at `t = 0` all of it sits on processor 0.
//! * `p` identical processors; one unit of work takes one unit of time; all times are integers.
//! * A processor whose work runs out becomes a thief: it picks a victim uniformly among the
//!   `p − 1` others and sends a steal request. The request arrives after the one-way latency
//!   `λ`; the answer (some work, or a failure) arrives after another `λ`. A failed thief
//!   immediately tries again with a fresh victim.
//! * A victim serves at most one thief at a time: while a transfer it started is in flight
//!   (for `λ`), every other request it receives fails. Requests reaching an idle processor fail.
//!   Several requests may reach a victim at the same instant; one is served and the others fail.
//! * Work division ([`SplitRule`]):
//!   - [`SplitRule::Halving`] — the victim keeps `⌊rem/2⌋` of its remaining work `rem` and sends
//!     `rem − ⌊rem/2⌋`; the steal succeeds iff `⌊rem/2⌋ > 0`. This is what the authors' own
//!     simulator did and what produced the published data: it splits at request time and
//!     ignores the λ correction of §2. Simultaneous requests are served in arrival (FIFO)
//!     order.
//!   - [`SplitRule::Paper`] — the λ-corrected split of the paper's model (Eqs. 1–2,
//!     reconstructed; the text's threshold is blank, λ fits the proof): the victim sends
//!     `⌊(rem − λ)/2⌋` and keeps the rest, so that both loads are balanced when the work
//!     lands; the steal fails (threshold ≈ λ) unless at least one unit is sent. Among
//!     simultaneous requests the victim serves a uniformly random one, as the text says ("He
//!     deals \[with\] a random thief and send\[s\] a negative response to the remaining thieves").
//! * The makespan `Cmax` is the time at which the last unit of work completes.
//!
//! # Implementation
//!
//! The simulator is event driven. Every message (request or answer) travels for exactly `λ`,
//! and time never goes backwards, so messages are created in non-decreasing order of arrival:
//! they live in a FIFO ring buffer instead of a priority queue. Only the "chunk finished" events
//! have arbitrary times; they live in a binary heap with at most one live entry per processor
//! (re-scheduling after a steal bumps a per-processor generation, and stale entries are skipped).
//! Ties at equal time are broken by creation order, as in the authors' simulator. A
//! [`LatencySim`] owns all buffers and is reused across runs, so the event loop performs no heap
//! allocation.
//!
//! # Bound (WS-latency paper, Theorem 4.1; reconstructed)
//!
//! `E[Cmax] ≤ W/p + 4γ·λ·log2(W/(2λ))` (+ an O(λ) term), with `γ = γ(p) < 4.03`, hence the
//! term `16.12·λ·log2(W/(2λ))` that the authors compared their simulations with
//! ([`bound_overhead`]). The per-run **overhead ratio** is
//! `16.12·λ·log2(W/(2λ)) / (Cmax − W/p)` ([`overhead_ratio`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::par::{par_map_runs, run_seed};
use crate::progress::Progress;
use crate::stats;

/// Constant of the paper's overhead term: `2·2·4.03` (Theorem 4.1 with `γ < 4.03`; the authors'
/// Figure 1 script plots exactly `2·2·4.03·λ·log2(W/(2λ))` as "the second term of our
/// theoretical bound").
pub const BOUND_CONSTANT: f64 = 16.12;

/// How a victim divides its remaining work with a thief.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SplitRule {
    /// Keep `⌊rem/2⌋`, send the rest (the authors' simulator; FIFO among simultaneous requests).
    Halving,
    /// Send `⌊(rem − λ)/2⌋` (the paper's model; random winner among simultaneous requests).
    Paper,
}

impl std::fmt::Display for SplitRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SplitRule::Halving => "halving",
            SplitRule::Paper => "paper",
        })
    }
}

/// Parameters of one simulated configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LatencyParams {
    /// Total work `W` (unit tasks), at least 1.
    pub work: u64,
    /// Number of processors `p`, at least 2.
    pub procs: usize,
    /// One-way latency `λ`, at least 1.
    pub latency: u64,
    /// Work-division rule.
    pub split: SplitRule,
}

impl LatencyParams {
    /// Largest supported processor count, 2^20: every processor is simulated, and a run
    /// costs about `p·log2(W/λ)` events (see [`LatencyParams::estimated_steps`]).
    pub const MAX_PROCS: usize = 1 << 20;

    /// Estimated events of one run: each of the `p` processors sends about
    /// `2·log2(W/(2λ))` steal requests (one every `2λ` while idle; the idle time is about
    /// `4λ·log2(W/(2λ))` per processor, four times below the bound's overhead term).
    /// Used to refuse commands that would run for hours before they start.
    pub fn estimated_steps(&self) -> f64 {
        let l = self.latency as f64;
        let lg = (self.work as f64 / (2.0 * l)).max(2.0).log2();
        self.procs as f64 * (2.0 * lg + 2.0)
    }

    /// Checks that the parameters describe a valid simulation.
    pub fn validate(&self) -> Result<(), String> {
        if self.work == 0 {
            return Err("work W must be at least 1".into());
        }
        if self.procs < 2 || self.procs > Self::MAX_PROCS {
            return Err(format!(
                "procs p must be in 2..={} (work stealing needs a victim), got {}",
                Self::MAX_PROCS,
                self.procs
            ));
        }
        if self.latency == 0 {
            return Err("latency λ must be at least 1".into());
        }
        // Times stay far below u64::MAX: Cmax ≤ W + 2λ·(requests) and requests are bounded by
        // the event count; guard against absurd inputs that could overflow.
        if self.work > 1 << 50 || self.latency > 1 << 40 {
            return Err("work must be ≤ 2^50 and latency ≤ 2^40".into());
        }
        Ok(())
    }
}

/// Outcome of one simulated run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RunResult {
    /// Makespan: time at which the last unit of work completes.
    pub cmax: u64,
    /// Total number of steal requests sent (`R`).
    pub requests: u64,
    /// Number of requests answered with work.
    pub successful_steals: u64,
    /// Total processor-time spent executing work, measured from the event times (equals `W`
    /// when work is conserved; kept for the tests, not printed).
    #[serde(skip)]
    pub work_executed: u64,
}

#[derive(Debug, Clone, Copy, Default)]
struct Proc {
    /// Start of the current chunk.
    start: u64,
    /// Length of the current chunk (it ends at `start + size`).
    size: u64,
    /// The processor is busy sending work until this time (exclusive).
    net_busy_until: u64,
    /// Generation of the live "chunk finished" event.
    generation: u32,
    has_work: bool,
    /// Paper mode: time of the last successful service, number of requests that arrived at
    /// that instant, and ring position of the successful answer.
    win_time: u64,
    win_count: u32,
    win_pos: u64,
}

const NO_VICTIM: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, Default)]
struct Msg {
    time: u64,
    seq: u64,
    thief: u32,
    /// `NO_VICTIM` for an answer.
    victim: u32,
    /// Work carried by an answer (0 = failure).
    amount: u64,
}

/// A reusable latency simulator: owns every buffer, so repeated runs do not allocate.
#[derive(Debug, Default)]
pub struct LatencySim {
    procs: Vec<Proc>,
    /// "Chunk finished" events: (time, seq, processor, generation).
    heap: BinaryHeap<Reverse<(u64, u64, u32, u32)>>,
    ring: Vec<Msg>,
    head: u64,
    tail: u64,
}

impl LatencySim {
    /// Creates a simulator with empty buffers (they grow on first use).
    pub fn new() -> Self {
        Self::default()
    }

    /// Simulates one run with the given seed. Panics if `params` is invalid (see
    /// [`LatencyParams::validate`]).
    pub fn run(&mut self, params: &LatencyParams, seed: u64) -> RunResult {
        if let Err(e) = params.validate() {
            panic!("invalid latency parameters: {e}");
        }
        let p = params.procs;
        let lambda = params.latency;
        let mut rng = SmallRng::seed_from_u64(seed);

        self.procs.clear();
        self.procs.resize(p, Proc::default());
        self.heap.clear();
        let cap = p.next_power_of_two();
        if self.ring.len() < cap {
            self.ring.resize(cap, Msg::default());
        }
        let mask = (self.ring.len() - 1) as u64;
        self.head = 0;
        self.tail = 0;

        let mut seq: u64 = 0;
        let mut remaining = params.work;
        let mut requests: u64 = 0;
        let mut steals: u64 = 0;
        let mut executed: u64 = 0;

        // t = 0: processor 0 holds everything, the others are idle and steal at once.
        self.procs[0] = Proc {
            start: 0,
            size: params.work,
            has_work: true,
            ..Proc::default()
        };
        self.heap.push(Reverse((params.work, seq, 0, 0)));
        seq += 1;

        // Sends a steal request from `thief` at time `t`.
        macro_rules! steal {
            ($thief:expr, $t:expr) => {{
                let thief = $thief as u32;
                let mut v = rng.random_range(0..(p as u32 - 1));
                if v >= thief {
                    v += 1;
                }
                requests += 1;
                debug_assert!(self.tail - self.head < self.ring.len() as u64);
                self.ring[(self.tail & mask) as usize] = Msg {
                    time: $t + lambda,
                    seq,
                    thief,
                    victim: v,
                    amount: 0,
                };
                self.tail += 1;
                seq += 1;
            }};
        }

        for i in 1..p {
            steal!(i, 0u64);
        }

        let cmax = loop {
            // Next event: the earlier of the ring front and the heap top, by (time, seq).
            let msg_first = match (self.head < self.tail, self.heap.peek()) {
                (false, _) => false,
                (true, None) => true,
                (true, Some(Reverse((ht, hs, _, _)))) => {
                    let m = &self.ring[(self.head & mask) as usize];
                    (m.time, m.seq) < (*ht, *hs)
                }
            };
            if !msg_first {
                let Some(Reverse((t, _, i, gen))) = self.heap.pop() else {
                    unreachable!("work remains, so some event is pending");
                };
                let pr = &mut self.procs[i as usize];
                if gen != pr.generation || !pr.has_work {
                    continue; // stale: the chunk was shortened by a steal
                }
                debug_assert_eq!(t, pr.start + pr.size);
                executed += pr.size;
                remaining -= pr.size;
                pr.has_work = false;
                if remaining == 0 {
                    break t;
                }
                steal!(i, t);
                continue;
            }

            let m = self.ring[(self.head & mask) as usize];
            self.head += 1;
            let t = m.time;

            if m.victim == NO_VICTIM {
                // Answer reaches the thief.
                if m.amount == 0 {
                    steal!(m.thief, t);
                } else {
                    steals += 1;
                    let pr = &mut self.procs[m.thief as usize];
                    pr.start = t;
                    pr.size = m.amount;
                    pr.has_work = true;
                    pr.generation = pr.generation.wrapping_add(1);
                    self.heap
                        .push(Reverse((t + m.amount, seq, m.thief, pr.generation)));
                    seq += 1;
                }
                continue;
            }

            // Request reaches the victim.
            let v = m.victim as usize;
            let mut answer_to = m.thief;
            let mut amount = 0u64;
            let vp = &mut self.procs[v];
            if vp.has_work && t >= vp.net_busy_until {
                let elapsed = t - vp.start;
                let rem = vp.size - elapsed;
                let give = match params.split {
                    SplitRule::Halving => {
                        let keep = rem / 2;
                        if keep > 0 {
                            rem - keep
                        } else {
                            0
                        }
                    }
                    SplitRule::Paper => rem.saturating_sub(lambda) / 2,
                };
                if give > 0 {
                    vp.size = elapsed + (rem - give);
                    vp.generation = vp.generation.wrapping_add(1);
                    vp.net_busy_until = t + lambda;
                    vp.win_time = t;
                    vp.win_count = 1;
                    vp.win_pos = self.tail;
                    let end = vp.start + vp.size;
                    let gen = vp.generation;
                    self.heap.push(Reverse((end, seq, v as u32, gen)));
                    seq += 1;
                    amount = give;
                }
            } else if params.split == SplitRule::Paper && vp.win_time == t && vp.win_count > 0 {
                // Another request arrived at the very instant this victim started serving one:
                // reservoir-sample the winner so each simultaneous thief is served w.p. 1/k.
                vp.win_count += 1;
                if rng.random_range(0..vp.win_count) == 0 {
                    let slot = (vp.win_pos & mask) as usize;
                    debug_assert!(vp.win_pos >= self.head && vp.win_pos < self.tail);
                    answer_to = self.ring[slot].thief;
                    self.ring[slot].thief = m.thief;
                }
            }
            debug_assert!(self.tail - self.head < self.ring.len() as u64);
            self.ring[(self.tail & mask) as usize] = Msg {
                time: t + lambda,
                seq,
                thief: answer_to,
                victim: NO_VICTIM,
                amount,
            };
            self.tail += 1;
            seq += 1;
        };

        RunResult {
            cmax,
            requests,
            successful_steals: steals,
            work_executed: executed,
        }
    }
}

thread_local! {
    static SIM: std::cell::RefCell<LatencySim> = std::cell::RefCell::new(LatencySim::new());
}

/// Runs one simulation on this thread's cached [`LatencySim`] (no allocation after warm-up).
pub fn simulate(params: &LatencyParams, seed: u64) -> RunResult {
    SIM.with(|s| s.borrow_mut().run(params, seed))
}

/// Simulates `runs` independent runs in parallel; run `i` is seeded with
/// `run_seed(seed, config, i)`, so the result does not depend on the thread count.
pub fn simulate_runs(
    params: &LatencyParams,
    runs: usize,
    seed: u64,
    config: u64,
) -> Vec<RunResult> {
    simulate_runs_with(params, runs, seed, config, &Progress::hidden())
}

/// [`simulate_runs`] counting every finished run in `progress`.
pub fn simulate_runs_with(
    params: &LatencyParams,
    runs: usize,
    seed: u64,
    config: u64,
    progress: &Progress,
) -> Vec<RunResult> {
    par_map_runs(runs, |i| {
        let r = simulate(params, run_seed(seed, config, i as u64));
        progress.inc();
        r
    })
}

/// The paper's overhead term `16.12·λ·log2(W/(2λ))` (Theorem 4.1, reconstructed; as plotted
/// by the authors in Figure 1). Can be ≤ 0 when `W ≤ 2λ`, where the bound says nothing.
pub fn bound_overhead(work: u64, latency: u64) -> f64 {
    let l = latency as f64;
    BOUND_CONSTANT * l * (work as f64 / (2.0 * l)).log2()
}

/// The authors' fitted overhead `3.4·λ·log2(W/(2λ)) + 3λ` (§5.3 mentions "a more precise
/// fitting" whose formula the text lost; this is the one their Figure 1 scripts compute).
pub fn fitted_overhead(work: u64, latency: u64) -> f64 {
    let l = latency as f64;
    3.4 * l * (work as f64 / (2.0 * l)).log2() + 3.0 * l
}

/// Overhead of a run: `Cmax − W/p`.
pub fn overhead(cmax: u64, work: u64, procs: usize) -> f64 {
    cmax as f64 - work as f64 / procs as f64
}

/// Overhead ratio of a run: [`bound_overhead`] divided by [`overhead`].
pub fn overhead_ratio(r: &RunResult, params: &LatencyParams) -> f64 {
    bound_overhead(params.work, params.latency) / overhead(r.cmax, params.work, params.procs)
}

/// `q(r)`: probability that a given processor receives at least one of `r` requests when each
/// thief picks uniformly among the `p − 1` others (Eq. 5, reconstructed).
pub fn q(r: u32, p: usize) -> f64 {
    1.0 - (1.0 - 1.0 / (p as f64 - 1.0)).powi(r as i32)
}

/// `h(r) = 1 − q(r)/4`: bound on the expected potential ratio per λ-interval (Lemma 4.2,
/// reconstructed).
pub fn h(r: u32, p: usize) -> f64 {
    1.0 - q(r, p) / 4.0
}

/// `r / (−p·log2 h(r))`, the quantity maximised by γ.
pub fn gamma_term(r: u32, p: usize) -> f64 {
    r as f64 / (-(p as f64) * h(r, p).log2())
}

/// `γ(p) = max_{1≤r≤p} r / (−p·log2 h(r))` (Lemma 4.3, reconstructed; it gives the paper's
/// `γ < 4.03`). Requires `p ≥ 2`.
pub fn gamma(p: usize) -> f64 {
    (1..=p as u32)
        .map(|r| gamma_term(r, p))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// `γ(∞) = 1 / (−log2((3 + 1/e)/4)) ≈ 4.0297`, the p-independent constant behind 16.12.
pub fn gamma_limit() -> f64 {
    1.0 / -((3.0 + (-1.0f64).exp()) / 4.0).log2()
}

/// Summary statistics of a batch of runs (the `summary` object of `sim latency --json`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    /// Mean makespan.
    pub mean_cmax: f64,
    /// Median of `Cmax − W/p`.
    pub median_overhead: f64,
    /// Median overhead ratio.
    pub median_ratio: f64,
    /// Smallest overhead ratio (the bound holds in every run iff this is ≥ 1).
    pub min_ratio: f64,
    /// Largest overhead ratio.
    pub max_ratio: f64,
    /// Mean number of steal requests.
    pub mean_requests: f64,
    /// Mean number of successful steals.
    pub mean_successful_steals: f64,
}

/// Summarises a batch of runs of one configuration.
pub fn summarize(params: &LatencyParams, runs: &[RunResult]) -> Summary {
    let cmax: Vec<f64> = runs.iter().map(|r| r.cmax as f64).collect();
    let ov: Vec<f64> = runs
        .iter()
        .map(|r| overhead(r.cmax, params.work, params.procs))
        .collect();
    let ratios: Vec<f64> = runs.iter().map(|r| overhead_ratio(r, params)).collect();
    let req: Vec<f64> = runs.iter().map(|r| r.requests as f64).collect();
    let st: Vec<f64> = runs.iter().map(|r| r.successful_steals as f64).collect();
    let five = stats::FiveNumber::of(&ratios);
    Summary {
        mean_cmax: stats::mean(&cmax),
        median_overhead: stats::median(&ov),
        median_ratio: five.median,
        min_ratio: five.min,
        max_ratio: five.max,
        mean_requests: stats::mean(&req),
        mean_successful_steals: stats::mean(&st),
    }
}

/// Result of [`calibrate`]: the largest processor count that keeps the efficiency
/// `(W/p) / Cmax` at or above the target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Calibration {
    /// Total work.
    pub work: u64,
    /// One-way latency.
    pub latency: u64,
    /// Target efficiency in (0, 1).
    pub efficiency: f64,
    /// By the guaranteed overhead term `16.12·λ·log2(W/(2λ))`.
    pub p_bound: u64,
    /// By the authors' fit `3.4·λ·log2(W/(2λ)) + 3λ`.
    pub p_fit: u64,
    /// By simulation (mean makespan over the given runs), if requested.
    pub p_simulated: Option<u64>,
    /// Measured mean efficiency at `p_simulated`.
    pub simulated_efficiency: Option<f64>,
}

/// Largest `p` with `(W/p) / (W/p + overhead) ≥ eff`, i.e. `p ≤ W(1−eff)/(eff·overhead)`, for a
/// p-independent overhead. Returns 0 when even `p = 1` cannot reach it (overhead ≤ 0 counts as
/// unconstrained and gives `u64::MAX`).
pub fn p_max_for_overhead(work: u64, overhead: f64, eff: f64) -> u64 {
    if overhead <= 0.0 {
        return u64::MAX;
    }
    let p = work as f64 * (1.0 - eff) / (eff * overhead);
    if p >= u64::MAX as f64 {
        u64::MAX
    } else {
        p.floor() as u64
    }
}

/// Mean simulated efficiency `(W/p) / mean(Cmax)` of `runs` runs.
pub fn simulated_efficiency(params: &LatencyParams, runs: usize, seed: u64) -> f64 {
    let rs = simulate_runs(params, runs, seed, params.procs as u64);
    let mean_cmax = rs.iter().map(|r| r.cmax as f64).sum::<f64>() / rs.len() as f64;
    (params.work as f64 / params.procs as f64) / mean_cmax
}

/// Calibration helper (the use the paper's abstract suggests, "calibrate the maximal number of
/// processors", without a formula): the largest useful `p` for work `W`, latency `λ` and a
/// target efficiency, by the bound, by the authors' fit, and (if `sim_runs > 0`) by bisection on
/// the simulated mean efficiency over `p ∈ [2, p_hi]` with `p_hi = max(4·p_fit, 4)` capped at
/// `2^20`. Returns `Err` for invalid input.
pub fn calibrate(
    work: u64,
    latency: u64,
    eff: f64,
    split: SplitRule,
    sim_runs: usize,
    seed: u64,
) -> Result<Calibration, String> {
    if !(eff > 0.0 && eff < 1.0) {
        return Err(format!("efficiency must be in (0, 1), got {eff}"));
    }
    LatencyParams {
        work,
        procs: 2,
        latency,
        split,
    }
    .validate()?;
    let p_bound = p_max_for_overhead(work, bound_overhead(work, latency), eff);
    let p_fit = p_max_for_overhead(work, fitted_overhead(work, latency), eff);
    let (mut p_simulated, mut simulated_eff) = (None, None);
    if sim_runs > 0 {
        let eff_at = |p: u64| {
            simulated_efficiency(
                &LatencyParams {
                    work,
                    procs: p as usize,
                    latency,
                    split,
                },
                sim_runs,
                seed,
            )
        };
        let mut lo = 2u64;
        let e_lo = eff_at(lo);
        if e_lo >= eff {
            let mut hi = p_fit.saturating_mul(4).clamp(4, 1 << 20);
            // Grow until the target fails (or the cap is reached).
            while hi < (1 << 20) && eff_at(hi) >= eff {
                lo = hi;
                hi = (hi * 2).min(1 << 20);
            }
            // Invariant: eff(lo) ≥ target; eff(hi) < target unless hi is the cap.
            if eff_at(hi) >= eff {
                lo = hi;
            } else {
                while hi - lo > 1 {
                    let mid = lo + (hi - lo) / 2;
                    if eff_at(mid) >= eff {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
            }
            p_simulated = Some(lo);
            simulated_eff = Some(eff_at(lo));
        } else {
            p_simulated = Some(1);
            simulated_eff = Some(1.0);
        }
    }
    Ok(Calibration {
        work,
        latency,
        efficiency: eff,
        p_bound,
        p_fit,
        p_simulated,
        simulated_efficiency: simulated_eff,
    })
}

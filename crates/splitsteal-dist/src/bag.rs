//! The WS-latency paper's algorithm on real ranks: a bag of `W` unit tasks, all on rank 0
//! at the start; an idle rank asks a uniformly random other participant for work; the victim
//! answers with half of its remaining work or a refusal; every steal message is handled no
//! earlier than `λ` after its send ([`Endpoint`]).
//!
//! # The rules, as in `sim latency --split halving`
//!
//! * Work is a range of unit ids `[lo, hi)`; a rank executes its units one after the other,
//!   each a timed wait of `u` (or a spin, `--spin`). The deadlines chain (`d + u`), so a late
//!   wake-up catches up rather than stretching the work.
//! * A victim's remaining work is its queue `hi − lo` plus the unit in progress; it keeps
//!   `⌊(queue+1)/2⌋` (the unit in progress among them) and sends the rest, when that is at
//!   least one unit; otherwise it refuses. While a transfer it sent is in flight (`λ`), it
//!   refuses every other request. An idle rank refuses.
//! * A thief sends one request at a time and asks again at once after a refusal.
//!
//! # Termination (control messages, not counted in the protocol)
//!
//! Each rank that runs out of work reports to rank 0 how many units it completed since its
//! last report, their id sum and id hash, and the time its last one completed. Units are
//! conserved, so the run is over exactly when rank 0's count reaches `W`; the makespan is the
//! latest completion time minus the common start `t0`. Rank 0 then checks the id sum and hash
//! (every unit executed exactly once), stops the others and collects their statistics.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::clock::{now_ns, wait_until};
use crate::transport::{kind, Endpoint, Transport};
use crate::{mix64, proto, FAR};

/// One run's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BagParams {
    /// Total work `W` in units.
    pub work: u64,
    /// Participating ranks `p` (ranks `0..p`).
    pub procs: usize,
    /// One-way latency `λ` in units.
    pub latency: u64,
    /// Duration of a unit `u` in nanoseconds.
    pub unit_ns: u64,
    /// Units spin instead of sleeping.
    pub spin: bool,
    /// Seed of the victim choices.
    pub seed: u64,
}

impl BagParams {
    fn encode(&self, t0: u64) -> Vec<u64> {
        vec![
            proto::BAG,
            self.work,
            self.procs as u64,
            self.latency,
            self.unit_ns,
            self.spin as u64,
            self.seed,
            t0,
        ]
    }
    fn decode(p: &[u64]) -> Option<(BagParams, u64)> {
        if p.len() < 8 || p[0] != proto::BAG {
            return None;
        }
        Some((
            BagParams {
                work: p[1],
                procs: p[2] as usize,
                latency: p[3],
                unit_ns: p[4],
                spin: p[5] != 0,
                seed: p[6],
            },
            p[7],
        ))
    }
}

/// One run's outcome (on rank 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BagRun {
    /// Makespan in units of `u`.
    pub cmax: f64,
    /// Makespan in nanoseconds.
    pub cmax_ns: u64,
    /// Steal requests sent, all ranks.
    pub requests: u64,
    /// Requests answered with work.
    pub steals: u64,
    /// Smallest delay between the send and the handling of a steal message, over all ranks
    /// (ns); never below `λ·u`.
    pub min_delay_ns: u64,
    /// Steal messages handled, all ranks.
    pub delayed_handled: u64,
}

/// What one rank did in a run.
#[derive(Debug, Clone, Default)]
pub struct RankStats {
    /// Requests sent.
    pub requests: u64,
    /// Work answers received.
    pub steals: u64,
    /// Units executed.
    pub executed: u64,
    /// The ids executed, in order, when asked for (tests).
    pub ids: Option<Vec<u64>>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    count: u64,
    sum: u64,
    hash: u64,
    last_ns: u64,
}

impl Tally {
    fn add(&mut self, id: u64, at: u64) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(id);
        self.hash = self.hash.wrapping_add(mix64(id));
        self.last_ns = self.last_ns.max(at);
    }
    fn merge(&mut self, o: &Tally) {
        self.count += o.count;
        self.sum = self.sum.wrapping_add(o.sum);
        self.hash = self.hash.wrapping_add(o.hash);
        self.last_ns = self.last_ns.max(o.last_ns);
    }
    /// The tally of every id in `0..w`, each once.
    fn expected(w: u64) -> Tally {
        let mut t = Tally::default();
        for id in 0..w {
            t.add(id, 0);
        }
        t
    }
}

/// Margin between the start announcement and the common start `t0`, so that every rank has
/// received it in time.
fn start_margin_ns(procs: usize) -> u64 {
    20_000_000 + 1_000_000 * procs as u64
}

/// Runs one bag-of-units run as rank 0 (the leader) with ranks `1..p` following
/// ([`crate::follow`]). Errors if a unit was lost or executed twice.
pub fn lead<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    epoch: u64,
    params: &BagParams,
) -> Result<BagRun, String> {
    lead_recording(ep, epoch, params, false).map(|(r, _)| r)
}

/// [`lead`], also returning rank 0's own statistics (with the ids executed if `record`).
pub fn lead_recording<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    epoch: u64,
    params: &BagParams,
    record: bool,
) -> Result<(BagRun, RankStats), String> {
    let t = ep.transport();
    if t.rank() != 0 {
        return Err("only rank 0 leads a run".into());
    }
    if params.procs == 0 || params.procs > t.size() {
        return Err(format!(
            "{} participants requested, {} ranks available",
            params.procs,
            t.size()
        ));
    }
    if params.work == 0 || params.unit_ns == 0 {
        return Err("work and unit must be positive".into());
    }
    let t0 = now_ns() + start_margin_ns(params.procs);
    let start = params.encode(t0);
    for r in 1..params.procs {
        ep.send_epoch(r, kind::START, epoch, &start);
    }
    ep.begin(epoch, params.latency * params.unit_ns);
    run_rank(ep, params, t0, record)
        .map(|(run, stats)| (run.expect("rank 0 returns the run"), stats))
}

/// Runs a follower's side of a run announced by `start` (the payload of a `START`).
/// Returns false if the payload is not a bag run.
pub(crate) fn follow_start<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    epoch: u64,
    start: &[u64],
    record: bool,
) -> Option<Result<RankStats, String>> {
    let (params, t0) = BagParams::decode(start)?;
    ep.begin(epoch, params.latency * params.unit_ns);
    Some(run_rank(ep, &params, t0, record).map(|(_, s)| s))
}

/// The rank loop (every participant, rank 0 with the termination count as well).
fn run_rank<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    p: &BagParams,
    t0: u64,
    record: bool,
) -> Result<(Option<BagRun>, RankStats), String> {
    let me = ep.transport().rank();
    let u = p.unit_ns;
    let lam = p.latency.saturating_mul(u);
    let mut rng = SmallRng::seed_from_u64(mix64(p.seed ^ mix64(me as u64 + 1)));
    let mut stats = RankStats {
        ids: record.then(Vec::new),
        ..RankStats::default()
    };
    let (mut lo, mut hi) = if me == 0 { (0, p.work) } else { (0, 0) };
    // The unit in progress: (id, deadline).
    let mut cur: Option<(u64, u64)> = None;
    let mut outstanding = false;
    let mut net_busy_until = 0u64;
    let mut since_report = Tally::default();
    // Rank 0: every report, its own included.
    let mut total = Tally::default();

    wait_until(t0, false);
    let mut now = t0;
    if lo < hi {
        cur = Some((lo, t0 + u));
        lo += 1;
    }
    loop {
        // Units whose deadline has passed are done; the next one starts at that deadline.
        while let Some((id, d)) = cur {
            if d > now {
                break;
            }
            since_report.add(id, d);
            stats.executed += 1;
            if let Some(ids) = &mut stats.ids {
                ids.push(id);
            }
            cur = (lo < hi).then(|| {
                lo += 1;
                (lo - 1, d + u)
            });
        }
        if cur.is_none() && lo < hi {
            cur = Some((lo, now + u)); // work just arrived
            lo += 1;
        }
        if cur.is_none() && since_report.count > 0 {
            if me == 0 {
                total.merge(&since_report);
            } else {
                let s = &since_report;
                ep.send(0, kind::DONE, &[s.count, s.sum, s.hash, s.last_ns]);
            }
            since_report = Tally::default();
        }
        if me == 0 && total.count >= p.work {
            break;
        }
        if cur.is_none() && !outstanding && p.procs > 1 {
            let mut v = rng.random_range(0..p.procs - 1);
            if v >= me {
                v += 1;
            }
            ep.send(v, kind::REQUEST, &[]);
            stats.requests += 1;
            outstanding = true;
        }
        let msg = match cur {
            Some(_) if p.spin => {
                let m = ep.next(0);
                if m.is_none() {
                    std::hint::spin_loop();
                }
                m
            }
            Some((_, d)) => ep.next(d),
            None => ep.next(FAR),
        };
        now = now_ns();
        let Some(m) = msg else { continue };
        match m.kind {
            kind::REQUEST => {
                let queue = hi - lo;
                if cur.is_some() && queue >= 1 && now >= net_busy_until {
                    // Remaining work: the queue and the unit in progress; keep ⌊rem/2⌋.
                    let rem = queue + 1;
                    let amount = rem - rem / 2;
                    ep.send(m.from, kind::WORK, &[hi - amount, hi]);
                    hi -= amount;
                    net_busy_until = now + lam;
                } else {
                    ep.send(m.from, kind::REFUSE, &[]);
                }
            }
            kind::WORK => {
                outstanding = false;
                stats.steals += 1;
                if let [a, b] = m.payload[..] {
                    debug_assert_eq!(lo, hi, "work reaches an idle thief");
                    lo = a;
                    hi = b;
                }
            }
            kind::REFUSE => outstanding = false,
            kind::DONE if me == 0 => {
                if let [count, sum, hash, last_ns] = m.payload[..] {
                    total.merge(&Tally {
                        count,
                        sum,
                        hash,
                        last_ns,
                    });
                }
            }
            kind::STOP if me != 0 => break,
            kind::EXIT => return Err("EXIT during a run".into()),
            _ => {}
        }
    }
    if me != 0 {
        ep.send(
            0,
            kind::STATS,
            &[
                stats.requests,
                stats.steals,
                stats.executed,
                ep.min_delay_ns,
                ep.delayed_handled,
            ],
        );
        return Ok((None, stats));
    }
    // Rank 0: the run is over; check, stop everyone, collect their statistics.
    let expected = Tally::expected(p.work);
    let check = if total.count != expected.count
        || total.sum != expected.sum
        || total.hash != expected.hash
    {
        Err(format!(
            "units lost or executed twice: {} executed of {} (id sum {} vs {}, hash {:#x} vs {:#x})",
            total.count, p.work, total.sum, expected.sum, total.hash, expected.hash
        ))
    } else {
        Ok(())
    };
    for r in 1..p.procs {
        ep.send(r, kind::STOP, &[]);
    }
    let mut run = BagRun {
        cmax_ns: total.last_ns.saturating_sub(t0),
        cmax: total.last_ns.saturating_sub(t0) as f64 / u as f64,
        requests: stats.requests,
        steals: stats.steals,
        min_delay_ns: ep.min_delay_ns,
        delayed_handled: ep.delayed_handled,
    };
    let mut missing = p.procs - 1;
    while missing > 0 {
        let Some(m) = ep.next(FAR) else { continue };
        if m.kind == kind::EXIT {
            return Err(format!("rank {} failed during the run", m.from));
        }
        if let (kind::STATS, [req, st, _exec, md, dh]) = (m.kind, &m.payload[..]) {
            run.requests += req;
            run.steals += st;
            run.min_delay_ns = run.min_delay_ns.min(*md);
            run.delayed_handled += dh;
            missing -= 1;
        }
    }
    check.map(|()| (Some(run), stats))
}

/// The paper's bound applied to one run: `Ok(ratio)` with `ratio = bound term / overhead`
/// (≥ 1), or an error naming the run if its overhead `Cmax − W/p` exceeds the bound's term
/// `16.12·λ·log2(W/(2λ))` ([`splitsteal_sim::latency::bound_overhead`]).
pub fn check_bound(work: u64, procs: usize, latency: u64, cmax: f64) -> Result<f64, String> {
    let bound = splitsteal_sim::latency::bound_overhead(work, latency);
    if bound <= 0.0 {
        return Err(format!(
            "W = {work} ≤ 2λ = {}: the bound says nothing there",
            2 * latency
        ));
    }
    let check = crate::report::RunCheck::new(work, procs, latency, cmax);
    if !check.within {
        return Err(format!("run {}", check.describe()));
    }
    Ok(check.ratio)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::in_process;

    fn run_recorded(params: BagParams, world: usize) -> (BagRun, Vec<Vec<u64>>) {
        let (res, follower_ids) = in_process(world, true, |ep| {
            lead_recording(ep, 1, &params, true).map(|(r, s)| (r, s.ids.unwrap()))
        });
        let (run, ids0) = res.expect("run");
        let mut all = follower_ids;
        all.insert(0, ids0);
        (run, all)
    }

    #[test]
    fn every_unit_runs_exactly_once_and_steals_happen() {
        let params = BagParams {
            work: 3000,
            procs: 4,
            latency: 2,
            unit_ns: 20_000,
            spin: false,
            seed: 7,
        };
        let (run, ids) = run_recorded(params, 4);
        let mut all: Vec<u64> = ids.iter().flatten().copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..3000).collect::<Vec<_>>());
        // Work spread: the followers executed units, so requests were answered with work.
        assert!(ids[1..].iter().any(|v| !v.is_empty()));
        assert!(run.steals >= 1 && run.requests >= run.steals);
        assert!(run.cmax >= 3000.0 / 4.0);
        // λ injection: no steal message handled before λ·u after its send.
        assert!(run.delayed_handled > 0);
        assert!(
            run.min_delay_ns >= 2 * 20_000,
            "a steal message was handled {} ns after its send, λ·u = 40000",
            run.min_delay_ns
        );
    }

    #[test]
    fn refusals_when_there_is_nothing_to_share_and_runs_reuse_the_world() {
        // W = 1: rank 0 holds a single unit in progress, so every request is refused,
        // and the run still terminates with that unit executed once.
        let params = BagParams {
            work: 1,
            procs: 3,
            latency: 1,
            unit_ns: 2_000_000,
            spin: false,
            seed: 1,
        };
        let (run, ids) = run_recorded(params, 3);
        assert_eq!(ids.iter().map(Vec::len).sum::<usize>(), 1);
        assert_eq!(ids[0], vec![0]);
        assert_eq!(run.steals, 0, "nothing can be stolen");
        // Two runs in a row on the same world (epochs keep them apart), the spin unit too.
        let res = in_process(3, false, |ep| {
            let a = lead(
                ep,
                1,
                &BagParams {
                    work: 500,
                    ..params
                },
            );
            let b = lead(
                ep,
                2,
                &BagParams {
                    work: 400,
                    spin: true,
                    unit_ns: 10_000,
                    ..params
                },
            );
            (a, b)
        })
        .0;
        assert!(res.0.is_ok() && res.1.is_ok(), "{res:?}");
    }

    #[test]
    fn the_bound_check_rejects_a_run_above_the_term() {
        let (w, p, l) = (100_000u64, 32usize, 22u64);
        let term = splitsteal_sim::latency::bound_overhead(w, l);
        let ideal = w as f64 / p as f64;
        let ok = check_bound(w, p, l, ideal + term * 0.5).unwrap();
        assert!((ok - 2.0).abs() < 1e-9);
        assert!(check_bound(w, p, l, ideal + term).is_ok());
        let err = check_bound(w, p, l, ideal + term + 1.0).unwrap_err();
        assert!(err.contains("exceeds the bound"), "{err}");
        assert!(check_bound(10, p, 5, 100.0).is_err(), "W ≤ 2λ has no bound");
    }
}

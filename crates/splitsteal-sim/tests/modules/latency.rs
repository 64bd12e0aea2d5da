use splitsteal_sim::latency::*;
use splitsteal_sim::par::run_seed;

fn params(work: u64, procs: usize, latency: u64, split: SplitRule) -> LatencyParams {
    LatencyParams {
        work,
        procs,
        latency,
        split,
    }
}

fn check_invariants(pr: &LatencyParams, r: &RunResult) {
    let (w, p, l) = (pr.work, pr.procs as u64, pr.latency);
    assert_eq!(r.work_executed, w, "work conserved {pr:?}");
    assert!(
        p * r.cmax <= w + 2 * l * r.requests,
        "p·Cmax ≤ W + 2λR violated: {pr:?} {r:?}"
    );
    // Every initially idle processor waits for its first round trip (2λ), or until the end
    // if the run is shorter than that (tiny W). With a successful steal Cmax > 2λ, and this
    // is exactly p·Cmax ≥ W + 2λ(p−1).
    assert!(
        p * r.cmax >= w + (2 * l).min(r.cmax) * (p - 1),
        "p·Cmax ≥ W + min(2λ, Cmax)(p−1) violated: {pr:?} {r:?}"
    );
    if r.successful_steals > 0 {
        assert!(
            p * r.cmax >= w + 2 * l * (p - 1),
            "p·Cmax ≥ W + 2λ(p−1) violated: {pr:?} {r:?}"
        );
    }
    assert!(r.successful_steals <= r.requests);
    assert!(r.requests >= p - 1);
    assert!(r.cmax >= w.div_ceil(p));
}

#[test]
fn invariants_hold_on_a_small_grid() {
    for split in [SplitRule::Halving, SplitRule::Paper] {
        for &w in &[1u64, 2, 3, 17, 1000, 20_000] {
            for &p in &[2usize, 3, 8, 33] {
                for &l in &[1u64, 2, 7, 50] {
                    let pr = params(w, p, l, split);
                    let mut sim = LatencySim::new();
                    for s in 0..3 {
                        let r = sim.run(&pr, s);
                        check_invariants(&pr, &r);
                    }
                }
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
    /// Work conservation and both makespan inequalities hold for arbitrary small inputs.
    #[test]
    fn invariants_hold_for_random_parameters(
        w in 1u64..60_000,
        p in 2usize..80,
        l in 1u64..120,
        paper in proptest::bool::ANY,
        seed in proptest::num::u64::ANY,
    ) {
        let split = if paper { SplitRule::Paper } else { SplitRule::Halving };
        let pr = params(w, p, l, split);
        let r = LatencySim::new().run(&pr, seed);
        check_invariants(&pr, &r);
        // The same simulator object reused gives the same answer (no state leaks).
        let mut sim = LatencySim::new();
        sim.run(&params(w / 2 + 1, p + 3, l + 1, split), seed ^ 1);
        proptest::prop_assert_eq!(sim.run(&pr, seed), r);
    }
}

#[test]
fn single_chunk_too_small_to_split_runs_alone() {
    // W = 1 cannot be split by either rule: processor 0 runs it, every request fails.
    let pr = params(1, 4, 5, SplitRule::Halving);
    let r = LatencySim::new().run(&pr, 9);
    assert_eq!(r.cmax, 1);
    assert_eq!(r.successful_steals, 0);
    assert_eq!(r.requests, 3);
}

#[test]
fn two_processors_halving_is_exact() {
    // p = 2, λ = 1, W = 10, halving: P1's request arrives at t = 1 (rem = 9: keep 4, send 5),
    // P0 finishes at 1 + 4 = 5; P1 gets 5 units at t = 2 and finishes at 7. Both then steal
    // (failures), and the run ends at the last completion, 7.
    let pr = params(10, 2, 1, SplitRule::Halving);
    let r = LatencySim::new().run(&pr, 0);
    assert_eq!(r.cmax, 7);
    assert_eq!(r.successful_steals, 1);
}

#[test]
fn two_processors_paper_split_balances_on_arrival() {
    // Paper rule, p = 2, λ = 3, W = 100: at t = 3 rem = 97, send ⌊(97−3)/2⌋ = 47, keep 50.
    // P0 ends at 53; P1 receives 47 at t = 6 and ends at 53: balanced at arrival.
    let pr = params(100, 2, 3, SplitRule::Paper);
    let r = LatencySim::new().run(&pr, 0);
    assert_eq!(r.cmax, 53);
}

#[test]
fn same_seed_same_result_and_thread_independence() {
    let pr = params(50_000, 16, 5, SplitRule::Paper);
    let a = simulate_runs(&pr, 20, 42, 3);
    let b = simulate_runs(&pr, 20, 42, 3);
    assert_eq!(a, b);
    let seq: Vec<RunResult> = (0..20)
        .map(|i| LatencySim::new().run(&pr, run_seed(42, 3, i)))
        .collect();
    assert_eq!(a, seq);
    let c = simulate_runs(&pr, 20, 43, 3);
    assert_ne!(a, c, "different seeds should give different runs");
}

#[test]
fn bound_holds_in_every_run_in_the_papers_regime() {
    // Scaled-down version of the paper's grid (W/λ ratios as in the sweep, W ≤ 2·10^5).
    for split in [SplitRule::Halving, SplitRule::Paper] {
        for &(w, l) in &[
            (100_000u64, 2u64),
            (100_000, 42),
            (200_000, 262),
            (100_000, 482),
        ] {
            for &p in &[32usize, 64, 256] {
                let pr = params(w, p, l, split);
                let rs = simulate_runs(&pr, 8, 7, 0);
                for r in &rs {
                    check_invariants(&pr, r);
                    let ratio = overhead_ratio(r, &pr);
                    assert!(ratio > 1.0, "bound violated: {pr:?} {r:?} ratio {ratio}");
                }
            }
        }
    }
}

#[test]
fn gamma_numerics_match_precomputed_values() {
    // γ(p) to 4 decimals, computed independently; the paper only states γ < 4.03.
    for (p, g) in [
        (32usize, 3.9100),
        (64, 3.9698),
        (128, 3.9997),
        (256, 4.0147),
    ] {
        assert!((gamma(p) - g).abs() < 5e-5, "γ({p}) = {}", gamma(p));
    }
    assert!((gamma_limit() - 4.0297).abs() < 5e-5);
    assert!((4.0 * gamma_limit() - 16.119).abs() < 5e-4);
    assert!(4.0 * gamma_limit() < BOUND_CONSTANT);
    // γ(p) increases towards γ(∞) and never exceeds it.
    let mut prev = 0.0;
    for p in [4usize, 8, 16, 32, 64, 128, 256, 1024, 4096] {
        let g = gamma(p);
        assert!(g > prev && g < gamma_limit(), "γ({p}) = {g}");
        prev = g;
    }
}

#[test]
fn gamma_term_is_increasing_in_r() {
    for p in [32usize, 256] {
        for r in 1..p as u32 {
            assert!(gamma_term(r + 1, p) > gamma_term(r, p), "p={p} r={r}");
        }
        // Below the small-r limit 4·ln 2 ≈ 2.77 (reconstructed: §5.3's "about [...] for
        // small values of r", blank in the text) ...
        assert!(gamma_term(1, p) < 4.0 * std::f64::consts::LN_2);
    }
    // ... which it approaches as p grows.
    let t = gamma_term(1, 1 << 16);
    assert!((t - 4.0 * std::f64::consts::LN_2).abs() < 1e-3, "{t}");
    assert!((q(1, 5) - 0.25).abs() < 1e-12);
    assert!((h(1, 5) - (1.0 - 0.25 / 4.0)).abs() < 1e-12);
}

#[test]
fn calibration_matches_a_worked_example() {
    // W = 10^6, λ = 262, efficiency 1/2 (overhead ≤ W/p): p ≤ W / overhead, so the bound
    // gives p ≤ 21 and the fit p ≤ 95.
    let c = calibrate(1_000_000, 262, 0.5, SplitRule::Halving, 0, 1).unwrap();
    assert_eq!(c.p_bound, 21);
    assert_eq!(c.p_fit, 95);
    assert!(calibrate(1000, 1, 1.5, SplitRule::Halving, 0, 1).is_err());
    assert!(calibrate(1000, 0, 0.5, SplitRule::Halving, 0, 1).is_err());
}

#[test]
fn simulated_calibration_is_consistent() {
    let c = calibrate(100_000, 10, 0.8, SplitRule::Halving, 4, 1).unwrap();
    let p = c.p_simulated.unwrap();
    let e = c.simulated_efficiency.unwrap();
    assert!(p >= 2 && e >= 0.8, "{c:?}");
    // One more processor (next bisection step) must miss the target, unless capped.
    let next = simulated_efficiency(
        &params(100_000, p as usize + 1, 10, SplitRule::Halving),
        4,
        1,
    );
    assert!(next < 0.8, "p+1 = {} still reaches {next}", p + 1);
}

#[test]
fn invalid_params_are_rejected() {
    assert!(params(0, 4, 1, SplitRule::Halving).validate().is_err());
    assert!(params(10, 1, 1, SplitRule::Halving).validate().is_err());
    assert!(params(10, 4, 0, SplitRule::Halving).validate().is_err());
    assert!(params(10, 4, 1, SplitRule::Halving).validate().is_ok());
}

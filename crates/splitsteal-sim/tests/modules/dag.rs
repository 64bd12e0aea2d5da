use splitsteal_sim::dag::*;

#[test]
fn regular_dag_shape() {
    for d in 0..8 {
        let g = Dag::regular(d);
        assert_eq!(g.work(), 3 * (1 << d) - 2);
        assert_eq!(g.span(), 2 * d as u64 + 1);
        assert_eq!(g.forks(), (1 << d) - 1);
        assert_eq!(g.successors(g.sink()).count(), 0);
    }
}

#[test]
fn irregular_dag_is_well_formed() {
    for seed in 0..20 {
        let g = Dag::irregular(80, 0.05, seed, 1 << 22).unwrap();
        // Exactly one node with in-degree 0 (the root) and one with out-degree 0 (the sink).
        let roots = (0..g.work() as u32)
            .filter(|&n| g.indeg[n as usize] == 0)
            .count();
        let sinks = (0..g.work() as u32)
            .filter(|&n| g.successors(n).count() == 0)
            .count();
        assert_eq!((roots, sinks), (1, 1));
        // The span is the thread depth plus one join per fork level on the deepest path.
        assert!(g.span() >= 80 && g.span() <= 80 + g.forks());
    }
    assert!(Dag::irregular(400, 0.5, 1, 10_000).is_err());
    assert!(Dag::irregular(0, 0.05, 1, 10).is_err());
    assert!(Dag::irregular(10, 0.0, 1, 10).is_err());
}

fn check_run(g: &Dag, alg: Algorithm, p: usize, seed: u64) -> DagRunStats {
    let s = simulate(g, alg, p, seed).unwrap();
    assert_eq!(s.executed, g.work(), "every node executes exactly once");
    assert!(s.makespan >= g.span());
    assert!(s.makespan >= g.work().div_ceil(p as u64));
    assert!(s.successful_steals + s.aborts <= s.steal_attempts);
    if alg == Algorithm::Lcws {
        // Each exposure consumes a flag set by an EMPTY steal attempt.
        assert!(s.exposures <= s.notifications);
        assert!(s.notifications <= s.steal_attempts);
    } else {
        assert_eq!(s.notifications + s.exposures, 0);
    }
    s
}

#[test]
fn lcws_single_processor_has_no_synchronization() {
    for g in [
        Dag::regular(10),
        Dag::irregular(120, 0.05, 3, 1 << 22).unwrap(),
    ] {
        let s = check_run(&g, Algorithm::Lcws, 1, 1);
        assert_eq!(
            (s.cas, s.fences, s.notifications, s.exposures),
            (0, 0, 0, 0)
        );
        assert_eq!(s.steal_attempts, 0);
        assert_eq!(s.makespan, g.work());
        // CWS pays a fence on every take, even alone: proportional to the work.
        let c = check_run(&g, Algorithm::Cws, 1, 1);
        assert_eq!(c.fences, g.forks(), "one popBottom per pushed node");
        assert!(c.sync() > 0);
    }
}

#[test]
fn correctness_across_processor_counts() {
    let g = Dag::regular(9);
    let h = Dag::irregular(100, 0.05, 11, 1 << 22).unwrap();
    for p in [1usize, 2, 3, 8, 32] {
        for alg in [Algorithm::Cws, Algorithm::Lcws] {
            for seed in 0..3 {
                check_run(&g, alg, p, seed);
                check_run(&h, alg, p, seed);
            }
        }
    }
    assert!(simulate(&g, Algorithm::Cws, 0, 0).is_err());
}

#[test]
fn deque_semantics() {
    let mut s = DagRunStats::default();
    let mut d = Deque::default();
    d.clear();
    d.push_private(1);
    d.push_private(2);
    assert_eq!(
        d.pop_top(1, &mut s),
        Steal::Empty,
        "private nodes are invisible"
    );
    assert!(d.update_bottom());
    assert_eq!(
        d.pop_top(2, &mut s),
        Steal::Got(1),
        "the oldest node is exposed"
    );
    assert!(d.update_bottom());
    assert_eq!(d.pop_top(3, &mut s), Steal::Got(2));
    assert_eq!(d.pop_private(), None);
    assert_eq!(d.pop_bottom(&mut s), None);
    assert!(d.is_empty());
    d.push_public(5);
    d.push_public(6);
    assert_eq!(d.pop_top(4, &mut s), Steal::Got(5));
    assert_eq!(d.pop_top(4, &mut s), Steal::Abort, "same-step contention");
    assert_eq!(d.pop_bottom(&mut s), Some(6));
    assert_eq!(
        (d.top, d.obot, d.pbot),
        (0, 0, 0),
        "reset after the last node"
    );
}

/// LCWS synchronization follows O(P·T∞) while CWS follows T1 (LCWS paper, Theorem 1, §5).
#[test]
fn lcws_scales_with_span_cws_with_work() {
    let p = 8;
    let runs = 4;
    let mean = |g: &Dag, alg| {
        DagMeans::of(
            &(0..runs)
                .map(|s| simulate(g, alg, p, s).unwrap())
                .collect::<Vec<_>>(),
        )
    };
    let small = Dag::regular(8);
    let big = Dag::regular(14);
    let (ls, lb) = (mean(&small, Algorithm::Lcws), mean(&big, Algorithm::Lcws));
    let (cs, cb) = (mean(&small, Algorithm::Cws), mean(&big, Algorithm::Cws));
    // Work grows 64×, span 29/17 ≈ 1.7×.
    let work_growth = big.work() as f64 / small.work() as f64;
    assert!(
        cb.sync / cs.sync > 0.5 * work_growth,
        "CWS ∝ T1: {cs:?} → {cb:?}"
    );
    assert!(lb.sync / ls.sync < 4.0, "LCWS ∝ T∞: {ls:?} → {lb:?}");
    // Bounded constant in front of P·T∞ (observed ≈ 1–2; the test allows 8).
    for (g, m) in [(&small, ls), (&big, lb)] {
        let c = m.sync / (p as f64 * g.span() as f64);
        assert!(c < 8.0, "LCWS sync / (P·T∞) = {c}");
        assert!(m.steal_attempts / (p as f64 * g.span() as f64) < 16.0);
    }
    assert!(lb.sync * 20.0 < cb.sync, "LCWS far below CWS at depth 14");
}

use splitsteal_sim::dag::Dag;
use splitsteal_sim::kernel::*;

fn params(adversary: Adversary, yield_kind: YieldKind) -> KernelParams {
    KernelParams {
        procs: 8,
        pmin: 1,
        pmax: 4,
        adversary,
        yield_kind,
        max_rounds: 200_000,
    }
}

#[test]
fn dedicated_machine_finishes_within_bound() {
    let g = Dag::regular(10);
    let p = KernelParams {
        pmin: 8,
        pmax: 8,
        ..params(Adversary::Benign, YieldKind::None)
    };
    let r = simulate(&g, &p, 1, 2).unwrap();
    assert!(r.finished);
    assert_eq!(r.pa, 8.0);
    assert!(r.rounds as f64 >= g.work() as f64 / 8.0);
    assert!(r.ratio(8) < 2.0, "{r:?}");
}

#[test]
fn theorem_pairs_finish_and_adaptive_defeats_no_yield() {
    let g = Dag::irregular(100, 0.05, 5, 1 << 20).unwrap();
    for (adv, y) in [
        (Adversary::Benign, YieldKind::None),
        (Adversary::Oblivious, YieldKind::ToRandom),
        (Adversary::Adaptive, YieldKind::ToAll),
    ] {
        for seed in 0..3 {
            let r = simulate(&g, &params(adv, y), seed, seed + 100).unwrap();
            assert!(r.finished, "{adv} + {y}: {r:?}");
            assert!(r.ratio(8) < 4.0, "{adv} + {y}: ratio {}", r.ratio(8));
            assert!(r.rounds as f64 * r.pa >= g.work() as f64, "T·P_A ≥ T1");
        }
    }
    // Without yields the adaptive adversary starves every worker, and the oblivious one
    // never runs process 0 (which holds the root): no progress at all.
    for adv in [Adversary::Adaptive, Adversary::Oblivious] {
        // Cap at 10·(T1 + P·T∞) rounds: at least 10·P_A ≥ 10 times the bound.
        let p = KernelParams {
            max_rounds: 10 * (g.work() + 8 * g.span()),
            ..params(adv, YieldKind::None)
        };
        let r = simulate(&g, &p, 1, 2).unwrap();
        assert!(!r.finished, "{adv} without yield should not finish: {r:?}");
        assert!(r.ratio(8) >= 10.0, "{}", r.ratio(8));
    }
}

#[test]
fn invalid_kernel_params() {
    let g = Dag::regular(3);
    for bad in [
        KernelParams {
            procs: 1,
            ..params(Adversary::Benign, YieldKind::None)
        },
        KernelParams {
            pmin: 0,
            ..params(Adversary::Benign, YieldKind::None)
        },
        KernelParams {
            pmax: 9,
            ..params(Adversary::Benign, YieldKind::None)
        },
        KernelParams {
            pmin: 5,
            ..params(Adversary::Benign, YieldKind::None)
        },
    ] {
        assert!(simulate(&g, &bad, 0, 0).is_err());
    }
}

#[test]
fn deterministic() {
    let g = Dag::irregular(60, 0.05, 2, 1 << 20).unwrap();
    let p = params(Adversary::Adaptive, YieldKind::ToRandom);
    assert_eq!(
        simulate(&g, &p, 3, 4).unwrap(),
        simulate(&g, &p, 3, 4).unwrap()
    );
}

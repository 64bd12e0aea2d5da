use splitsteal_sim::dag::Dag;
use splitsteal_sim::steal_cost::*;

/// Small versions of every shape.
fn small_shapes() -> Vec<(Shape, TimedDag)> {
    let p = ShapeParams {
        fib_depth: 9,
        irregular_depth: 90,
        rate: 0.05,
        leaf_units: 30,
        list_len: 150,
        burst_children: 40,
        nqueens_branching: 5,
        nqueens_depth: 5,
        max_nodes: 1 << 22,
    };
    Shape::ALL
        .iter()
        .map(|&s| (s, p.build(s, 7).unwrap()))
        .collect()
}

#[test]
fn shapes_have_their_work_and_span() {
    for d in 0..8 {
        let g = TimedDag::from_unit(&Dag::regular(d));
        assert_eq!(g.work(), 3 * (1 << d) - 2);
        assert_eq!(g.span(), 2 * d as u64 + 1);
        assert_eq!(g.forks(), (1 << d) - 1);
    }
    for (n, l) in [(1, 1), (5, 3), (100, 50)] {
        let g = TimedDag::list_walk(n, l, 1 << 20).unwrap();
        assert_eq!(g.work(), n as u64 * (l as u64 + 2) + 1);
        assert_eq!(g.span(), 2 * n as u64 + l as u64);
        assert_eq!(g.forks(), n as u64);
        let b = TimedDag::spawn_burst(n, l, 1 << 20).unwrap();
        assert_eq!(b.work(), n as u64 * (l as u64 + 1) + 2);
        assert_eq!(b.span(), n as u64 + l as u64 + 2);
        assert_eq!(b.forks(), n as u64, "every spawn has two successors");
    }
    assert!(TimedDag::list_walk(0, 5, 100).is_err());
    assert!(TimedDag::spawn_burst(5, 0, 100).is_err());
    assert!(TimedDag::list_walk(1000, 5, 100).is_err(), "max_nodes");
    assert!(TimedDag::nqueens(0, 3, 1, 100).is_err());
}

/// A fork keeps its first successor and pushes its second: the pushed one must be the leaf
/// (list walk, spawn burst), as `join(walk(next), process(node))` and a spawn push it.
#[test]
fn forks_push_the_leaf_and_keep_the_walk() {
    let l = 17;
    for g in [
        TimedDag::list_walk(20, l, 1 << 20).unwrap(),
        TimedDag::spawn_burst(20, l, 1 << 20).unwrap(),
    ] {
        for n in 0..g.nodes() as u32 {
            let s: Vec<u32> = g.successors(n).collect();
            if s.len() == 2 {
                assert_eq!(g.cost(s[0]), 1, "the walk (or the loop) is kept");
                assert_eq!(g.cost(s[1]), l, "the leaf is pushed");
            }
        }
    }
}

#[test]
fn nqueens_is_well_formed_and_seeded() {
    for seed in 0..10 {
        let g = TimedDag::nqueens(6, 5, seed, 1 << 22).unwrap();
        let n = g.nodes() as u32;
        let mut indeg = vec![0u32; n as usize];
        for a in 0..n {
            for b in g.successors(a) {
                assert!(b > a, "ids are a topological order");
                indeg[b as usize] += 1;
            }
        }
        let roots = indeg.iter().filter(|&&d| d == 0).count();
        let sinks = (0..n).filter(|&a| g.successors(a).count() == 0).count();
        assert_eq!((roots, sinks), (1, 1));
        assert_eq!(g.successors(g.sink()).count(), 0);
        assert_eq!(g.work(), g.nodes(), "unit nodes");
        let again = TimedDag::nqueens(6, 5, seed, 1 << 22).unwrap();
        assert_eq!(again.nodes(), g.nodes(), "the seed decides the tree");
    }
    let sizes: Vec<u64> = (0..10)
        .map(|s| TimedDag::nqueens(6, 5, s, 1 << 22).unwrap().nodes())
        .collect();
    assert!(
        sizes.iter().any(|&x| x != sizes[0]),
        "seeds differ: {sizes:?}"
    );
}

/// Invariants of every run under the default costs and options; returns the run.
fn check(g: &TimedDag, policy: Policy, p: usize, seed: u64) -> StealRun {
    check_with(g, policy, p, seed, &Costs::default())
}

/// Invariants of every run under `c` and the default options; returns the run.
fn check_with(g: &TimedDag, policy: Policy, p: usize, seed: u64, c: &Costs) -> StealRun {
    check_opts(g, policy, p, seed, c, &Options::default())
}

/// Sleeping off: every processor runs all the time (the old worst case).
const AWAKE: Options = Options {
    sleep: false,
    spin_rounds: 64,
    answer_timeout_ns: None,
};

/// Invariants of every run under `c` and `o`; returns the run.
fn check_opts(
    g: &TimedDag,
    policy: Policy,
    p: usize,
    seed: u64,
    c: &Costs,
    o: &Options,
) -> StealRun {
    let r = simulate_with(g, policy, p, c, o, seed).unwrap();
    let ctx = format!("{policy} P={p} seed={seed} {o:?}: {r:?}");
    assert_eq!(r.executed, g.nodes(), "every node exactly once: {ctx}");
    assert!(
        r.makespan * p as f64 >= g.work() as f64 - 1e-6,
        "makespan ≥ T1/P: {ctx}"
    );
    assert!(r.makespan >= g.span() as f64 - 1e-9, "makespan ≥ T∞: {ctx}");
    assert!(r.ratio() >= 0.5, "{ctx}");
    assert!(r.steals <= r.steal_attempts, "{ctx}");
    assert!(r.tasks_stolen >= r.steals, "{ctx}");
    assert!(r.owner_pops <= r.pushes + r.tasks_stolen, "{ctx}");
    // Every interrupt sent costs its target ipi_ns, and only those.
    let lost = r.ipis as f64 * c.ipi_ns / c.node_ns;
    assert!(
        (r.ipi_lost - lost).abs() <= 1e-9 * lost.max(1.0),
        "ipi_lost = ipis × ipi_ns: {ctx}"
    );
    assert!(r.ipis <= r.heavy_fences * (p as u64 - 1), "{ctx}");
    assert!(r.sleeps <= r.sleep_attempts, "{ctx}");
    assert!(r.sleep_fences <= r.sleep_attempts, "{ctx}");
    assert!(r.naps <= r.sleeps, "{ctx}");
    if !o.sleep {
        assert_eq!(
            (r.sleep_attempts, r.sleep_fences, r.wakeups, r.parked_time),
            (0, 0, 0, 0.0),
            "{ctx}"
        );
        assert_eq!(
            r.ipis,
            r.heavy_fences * (p as u64 - 1),
            "awake, every fence interrupts the P − 1 others: {ctx}"
        );
    }
    // Thieves ask for a heavy fence after every claim, but under asym-answered only after
    // those whose answer did not come in time.
    let callers = r.fenced_claims() + r.sleep_fences;
    if policy.shares_fences() {
        assert!(
            r.heavy_fences <= callers,
            "a shared fence serves one caller or more: {ctx}"
        );
    } else {
        assert_eq!(r.heavy_fences, callers, "one fence per caller: {ctx}");
        assert_eq!(r.fence_wait, 0.0, "{ctx}");
    }
    if policy.is_asym() {
        assert_eq!(
            r.claims,
            r.steals + r.failed_validations + r.in_flight_at_end,
            "every claim ends in a commit or a failed validation: {ctx}"
        );
        assert_eq!(
            r.failed_validations + r.in_flight_revoked,
            r.revokes + r.reset_revokes + r.withdrawals,
            "a claim fails only when its owner revoked it or had taken its tasks: {ctx}"
        );
        assert_eq!(
            r.owner_cas,
            r.cuts + r.revokes + r.resets,
            "the owner's CAS: cuts, revokes, resets: {ctx}"
        );
        assert!(r.claims_cut <= r.cuts && r.claims_cut <= r.claims, "{ctx}");
        assert!(
            r.cut_commits <= r.claims_cut && r.cut_commits <= r.partial_commits,
            "a cut claim commits fewer tasks than it claimed: {ctx}"
        );
        assert!(r.partial_commits <= r.steals, "{ctx}");
        assert_eq!(r.fences, 0, "no StoreLoad fence anywhere: {ctx}");
        if policy.answers_claims() {
            assert_eq!(
                r.claims,
                r.answered + r.answer_timeouts + r.answer_waits_at_end,
                "every claim is answered, times out, or is waiting at the end: {ctx}"
            );
            assert!(r.answer_waits_at_end <= r.in_flight_at_end, "{ctx}");
            assert!(
                r.owner_answers <= r.claims,
                "an owner answers only a request a claim made: {ctx}"
            );
            if o.answer_timeout_ns == Some(0.0) {
                assert_eq!(
                    (r.answered, r.owner_answers, r.answer_wait),
                    (0, 0, 0.0),
                    "no wait, no request: {ctx}"
                );
            }
        } else {
            assert_eq!(
                (r.answered, r.answer_timeouts, r.answer_waits_at_end),
                (0, 0, 0),
                "{ctx}"
            );
            assert_eq!((r.owner_answers, r.answer_wait), (0, 0.0), "{ctx}");
        }
        // Claim CAS (won: a claim; lost: lost_cas), then one commit CAS per claim checked.
        assert_eq!(
            r.cas,
            2 * r.claims - r.in_flight_at_end + r.lost_cas + r.owner_cas,
            "{ctx}"
        );
        assert_eq!(r.signals, 0, "{ctx}");
        assert!(r.max_batch <= MAX_STEAL as u64, "{ctx}");
        if matches!(policy, Policy::AsymOne | Policy::AsymOwn) {
            assert_eq!(r.tasks_stolen, r.steals, "steal one: {ctx}");
            assert_eq!(r.cuts, 0, "a claim of one is revoked, never cut: {ctx}");
        }
        if r.steals > 0 && !o.sleep && !policy.answers_claims() {
            // A stolen task starts after its thief's whole heavy fence, and ends
            // before the sink.
            let fence = c.heavy_ns(p) / c.node_ns;
            assert!(r.makespan >= fence, "makespan ≥ one heavy fence: {ctx}");
        }
    } else {
        assert_eq!(
            (r.claims, r.cuts, r.revokes, r.withdrawals),
            (0, 0, 0, 0),
            "{ctx}"
        );
        assert_eq!((r.answered, r.answer_timeouts, r.owner_answers), (0, 0, 0));
        assert_eq!(r.tasks_stolen, r.steals, "{ctx}");
        // Every steal CAS, won or lost, follows one fence.
        assert_eq!(r.fences, r.owner_fences + r.steals + r.lost_cas, "{ctx}");
        assert_eq!(r.cas, r.owner_cas + r.steals + r.lost_cas, "{ctx}");
        if policy == Policy::ChaseLev {
            assert!(
                r.owner_fences >= r.owner_pops,
                "every pop that returns a task costs a fence: {ctx}"
            );
            assert_eq!((r.signals, r.exposures), (0, 0), "{ctx}");
        } else {
            assert!(
                r.steals <= r.exposures,
                "only exposed tasks are stolen: {ctx}"
            );
            if !o.sleep {
                assert!(r.exposures <= r.signals, "{ctx}");
            }
            let most = r.signals as f64 * c.handler_ns / c.node_ns;
            assert!(r.handler_lost <= most + 1e-6, "a handler per signal: {ctx}");
        }
    }
    r
}

#[test]
fn invariants_on_every_shape_policy_and_processor_count() {
    let c = Costs::default();
    for (shape, g) in small_shapes() {
        for p in [1usize, 2, 3, 8, 32] {
            for policy in Policy::ALL {
                for (seed, o) in [(0, Options::default()), (1, Options::default()), (0, AWAKE)] {
                    let r = check_opts(&g, policy, p, seed, &c, &o);
                    assert_eq!((r.procs, r.t1, r.span), (p as u64, g.work(), g.span()));
                    if p >= 8 {
                        assert!(
                            r.steals + r.heavy_fences > 0,
                            "{shape} {policy} P={p}: no steal"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn one_processor_runs_the_work_with_no_steal() {
    let c = Costs::default();
    for (shape, g) in small_shapes() {
        for policy in Policy::ALL {
            // Sleeping on or off, fences own or shared: one processor never looks.
            let r = check(&g, policy, 1, 3);
            for o in [
                AWAKE,
                Options {
                    sleep: true,
                    spin_rounds: 0,
                    answer_timeout_ns: None,
                },
            ] {
                assert_eq!(check_opts(&g, policy, 1, 3, &c, &o), r, "{shape} {policy}");
            }
            if policy == Policy::ChaseLev {
                continue;
            }
            assert_eq!(
                r.makespan,
                g.work() as f64,
                "{shape} {policy}: makespan = T1"
            );
            assert_eq!(
                (r.steals, r.steal_attempts, r.heavy_fences, r.cas, r.fences),
                (0, 0, 0, 0, 0),
                "{shape} {policy}: no synchronization alone"
            );
            assert_eq!(
                (r.sleep_attempts, r.wakeups, r.ipis),
                (0, 0, 0),
                "{shape} {policy}"
            );
        }
        // Chase-Lev pays a fence on every pop even alone, and a CAS for each last task.
        let r = check(&g, Policy::ChaseLev, 1, 3);
        assert_eq!(r.pushes, g.forks_pushed_alone());
        assert_eq!(
            r.owner_pops, r.pushes,
            "{shape}: every pushed task is popped"
        );
        assert_eq!(r.fences, r.pushes, "{shape}: one fence per pop");
        assert!(r.cas >= 1 && r.cas <= r.pushes, "{shape}: {r:?}");
        let extra = (r.fences as f64 * c.fence_ns + r.cas as f64 * c.cas_ns) / c.node_ns;
        assert!(
            (r.makespan - (g.work() as f64 + extra)).abs() < 1e-6,
            "{shape}: T1 plus the fences and CASes: {r:?}"
        );
    }
}

trait PushedAlone {
    fn forks_pushed_alone(&self) -> u64;
}

impl PushedAlone for TimedDag {
    /// Pushes of a one-processor run: every fork pushes its second successor, except a
    /// spawn loop's last spawn, whose wait is not enabled (its child runs at once).
    fn forks_pushed_alone(&self) -> u64 {
        let mut pushed = 0;
        for n in 0..self.nodes() as u32 {
            let s: Vec<u32> = self.successors(n).collect();
            if s.len() == 2 && self.in_degree(s[0]) == 1 {
                pushed += 1;
            }
        }
        pushed
    }
}

#[test]
fn claims_are_steals_plus_failed_validations() {
    let (_, g) = small_shapes().remove(0);
    let c = Costs::default();
    let mut claims = 0;
    let mut failed = 0;
    for p in [2usize, 4, 16, 64] {
        for policy in Policy::ALL.into_iter().filter(|p| p.is_asym()) {
            for seed in 0..4 {
                for o in [Options::default(), AWAKE] {
                    let r = check_opts(&g, policy, p, seed, &c, &o);
                    claims += r.claims;
                    failed += r.failed_validations;
                }
            }
        }
    }
    assert!(claims > 100, "enough steals to mean something: {claims}");
    assert!(failed > 0, "some claims are revoked");
}

#[test]
fn interrupts_cost_the_other_processors() {
    let (_, g) = small_shapes().remove(0);
    let c = Costs::default();
    for p in [2usize, 8, 32] {
        // Awake: every processor runs, so every fence interrupts all the others.
        let r = simulate_with(&g, Policy::AsymOwn, p, &c, &AWAKE, 5).unwrap();
        // Every heavy fence interrupts the P − 1 others for ipi_ns each.
        let expect = r.heavy_fences as f64 * (p - 1) as f64 * c.ipi_ns / c.node_ns;
        assert!(
            (r.ipi_lost - expect).abs() < 1e-6 * expect.max(1.0) + 1e-9,
            "P={p}: {} lost, {expect} expected",
            r.ipi_lost
        );
        // No interrupts, no loss; and the heavy fence grows with P.
        let quiet = Costs { ipi_ns: 0.0, ..c };
        assert_eq!(
            simulate_with(&g, Policy::AsymOwn, p, &quiet, &AWAKE, 5)
                .unwrap()
                .ipi_lost,
            0.0
        );
        assert!(c.heavy_ns(p) > c.heavy_ns(p - 1));
    }
}

#[test]
fn steal_half_takes_half_capped() {
    for n in 1..=600 {
        assert_eq!(
            steal_amount(Policy::AsymHalfOwn, n),
            n.div_ceil(2).min(254),
            "n={n}"
        );
        assert_eq!(steal_amount(Policy::AsymHalf, n), n.div_ceil(2).min(254));
        for p in [
            Policy::AsymOwn,
            Policy::AsymOne,
            Policy::LcwsSignal,
            Policy::ChaseLev,
        ] {
            assert_eq!(steal_amount(p, n), 1);
        }
        // The runtime's default: one task, half of a deeper deque than `DEEP`.
        let adaptive = if n > DEEP { n.div_ceil(2).min(254) } else { 1 };
        assert_eq!(steal_amount(Policy::Asym, n), adaptive, "n={n}");
    }
    assert_eq!(DEEP, 64);
    assert_eq!(MAX_STEAL, 254);
    // A long burst of long children: the thief's second look finds hundreds of tasks.
    let g = TimedDag::spawn_burst(1000, 2000, 1 << 20).unwrap();
    let half = check(&g, Policy::AsymHalfOwn, 2, 1);
    assert_eq!(half.max_batch, 254, "{half:?}");
    assert!(half.tasks_stolen > half.steals);
    let one = check(&g, Policy::AsymOwn, 2, 1);
    assert_eq!(one.max_batch, 1);
}

#[test]
fn runs_are_deterministic_and_depend_on_the_seed() {
    let (_, g) = small_shapes().remove(1);
    let c = Costs::default();
    for policy in Policy::ALL {
        let a = simulate(&g, policy, 8, &c, 11).unwrap();
        let b = simulate(&g, policy, 8, &c, 11).unwrap();
        assert_eq!(a, b);
    }
    let ms: Vec<f64> = (0..6)
        .map(|s| simulate(&g, Policy::AsymOwn, 8, &c, s).unwrap().makespan)
        .collect();
    assert!(ms.iter().any(|&m| m != ms[0]), "{ms:?}");
}

#[test]
fn bad_arguments_are_errors() {
    let (_, g) = small_shapes().remove(0);
    let c = Costs::default();
    assert!(simulate(&g, Policy::AsymOwn, 0, &c, 1).is_err());
    assert!(simulate(&g, Policy::AsymOwn, MAX_PROCS + 1, &c, 1).is_err());
    for ns in [-1.0, f64::NAN, f64::INFINITY, 2e9] {
        let o = timeout(Options::default(), ns);
        let err = simulate_with(&g, Policy::AsymAnswered, 2, &c, &o, 1).unwrap_err();
        assert!(err.contains("--answer-timeout-ns"), "{err}");
    }
    for bad in [
        Costs { cas_ns: -1.0, ..c },
        Costs {
            fence_ns: f64::NAN,
            ..c
        },
        Costs {
            ipi_ns: f64::INFINITY,
            ..c
        },
        Costs { node_ns: 0.0, ..c },
        Costs { probe_ns: 0.0, ..c },
        Costs {
            heavy_per_cpu_ns: 2e9,
            ..c
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
        assert!(simulate(&g, Policy::AsymOwn, 2, &bad, 1).is_err());
    }
    assert!(c.validate().is_ok());
    assert_eq!(c.heavy_ns(1), c.heavy_base_ns);
    assert_eq!(c.heavy_ns(3), c.heavy_base_ns + 2.0 * c.heavy_per_cpu_ns);
    let p = ShapeParams {
        fib_depth: 40,
        ..ShapeParams::default()
    };
    assert!(p.build(Shape::Fib, 1).is_err());
}

/// A thief spends `heavy_base_ns + heavy_per_cpu_ns × (P − 1)` in each heavy fence
/// (interrupts off, so nothing else stretches it), and a committed steal's task ends
/// after its fence (checked in `check_with`).
#[test]
fn the_heavy_fence_grows_with_the_processors() {
    let (_, g) = small_shapes().remove(0);
    let c = Costs {
        ipi_ns: 0.0,
        ..Costs::default()
    };
    for p in [2usize, 8, 64] {
        for policy in [Policy::AsymOwn, Policy::AsymHalfOwn] {
            // Awake, own fences: every fence is a thief's, with all P running.
            let r = check_opts(&g, policy, p, 1, &c, &AWAKE);
            let ended = (r.heavy_fences - r.in_flight_at_end) as f64;
            let expect = ended * c.heavy_ns(p) / c.node_ns;
            assert!(ended > 0.0, "{policy} P={p}: {r:?}");
            assert!(
                (r.fence_time - expect).abs() < 1e-6 * expect,
                "{policy} P={p}: {} in fences, {expect} expected",
                r.fence_time
            );
        }
    }
}

/// Each cost slows the runs it belongs to: the same seed with the cost raised ends later.
#[test]
fn every_cost_takes_time() {
    let (_, g) = small_shapes().remove(0);
    let zero = Costs {
        cas_ns: 0.0,
        fence_ns: 0.0,
        heavy_base_ns: 0.0,
        heavy_per_cpu_ns: 0.0,
        ipi_ns: 0.0,
        signal_latency_ns: 0.0,
        handler_ns: 0.0,
        ..Costs::default()
    };
    let slow = |policy, c: Costs| {
        let base = check_with(&g, policy, 8, 2, &zero).makespan;
        let r = check_with(&g, policy, 8, 2, &c);
        assert!(
            r.makespan > base + 100.0,
            "{policy} with {c:?}: {} against {base}",
            r.makespan
        );
    };
    // 20 µs = 1000 units per interrupt, per handler, per fence.
    slow(
        Policy::AsymOwn,
        Costs {
            ipi_ns: 20_000.0,
            ..zero
        },
    );
    slow(
        Policy::AsymOwn,
        Costs {
            heavy_base_ns: 20_000.0,
            ..zero
        },
    );
    slow(
        Policy::LcwsSignal,
        Costs {
            handler_ns: 20_000.0,
            ..zero
        },
    );
    slow(
        Policy::LcwsSignal,
        Costs {
            signal_latency_ns: 20_000.0,
            ..zero
        },
    );
    slow(
        Policy::ChaseLev,
        Costs {
            fence_ns: 20_000.0,
            ..zero
        },
    );
}

#[test]
fn thieves_pick_every_other_processor_and_never_themselves() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
    for p in 2..9 {
        for i in 0..p {
            let mut seen = vec![0u32; p];
            for _ in 0..200 * p {
                seen[victim(&mut rng, i, p)] += 1;
            }
            assert_eq!(seen[i], 0, "P={p}: thief {i} picked itself");
            assert!(
                (0..p).filter(|&v| v != i).all(|v| seen[v] > 100),
                "P={p}, thief {i}: {seen:?}"
            );
        }
    }
}

/// A node of `serial` units (node 0), then a regular binary fork tree of `depth` fork
/// levels whose leaves take `leaf` units (forks and joins 1 unit): the thieves find nothing
/// for `serial` units, then plenty.
fn tree_after(serial: u32, depth: u32, leaf: u32) -> TimedDag {
    fn rec(d: u32, leaf: u32, cost: &mut Vec<u32>, edges: &mut Vec<(u32, u32)>) -> (u32, u32) {
        fn node(c: u32, cost: &mut Vec<u32>) -> u32 {
            cost.push(c);
            cost.len() as u32 - 1
        }
        if d == 0 {
            let l = node(leaf, cost);
            return (l, l);
        }
        let f = node(1, cost);
        let (l0, l1) = rec(d - 1, leaf, cost, edges);
        let (r0, r1) = rec(d - 1, leaf, cost, edges);
        let j = node(1, cost);
        // The fork keeps its left subtree and pushes its right one.
        edges.extend([(f, l0), (f, r0), (l1, j), (r1, j)]);
        (f, j)
    }
    let mut cost = vec![serial];
    let mut edges = Vec::new();
    let (first, _) = rec(depth, leaf, &mut cost, &mut edges);
    edges.push((0, first));
    edges.sort_by_key(|&(a, _)| a);
    // `sort_by_key` is stable: each fork's kept edge stays first.
    TimedDag::from_edges(&cost, &edges).unwrap()
}

#[test]
fn dags_from_edges_are_checked() {
    let g = tree_after(50, 3, 4);
    assert_eq!(g.nodes(), 1 + 3 * 8 - 2);
    assert_eq!(g.work(), 50 + 8 * 4 + 2 * 7);
    assert_eq!(g.span(), 50 + 3 + 4 + 3);
    assert!(TimedDag::from_edges(&[1, 1], &[(1, 0)]).is_err(), "a < b");
    assert!(
        TimedDag::from_edges(&[1, 1, 1], &[(0, 2), (1, 2)]).is_err(),
        "node 1: a second root"
    );
    assert!(
        TimedDag::from_edges(&[1, 1, 1], &[(0, 1)]).is_err(),
        "node 1: a second sink"
    );
    assert!(
        TimedDag::from_edges(&[1, 1, 1, 1], &[(0, 1), (0, 2), (0, 3), (1, 3), (2, 3)]).is_err(),
        "three successors"
    );
    assert!(
        TimedDag::from_edges(&[1, 0], &[(0, 1)]).is_err(),
        "a free node"
    );
}

/// The owner's pop into a pending claim above its first task cuts the claim, and the
/// thief commits the tasks below the cut (before the runtime's change it revoked the claim
/// whole). Exactly-once is checked by the simulator itself (a task run twice is an error)
/// and by `check_opts`.
#[test]
fn a_pop_inside_a_claim_cuts_it_and_the_thief_keeps_the_rest() {
    let c = Costs::default();
    let mut t = StealRun::default();
    for (shape, g) in small_shapes() {
        if shape == Shape::ListWalk || shape == Shape::SpawnBurst {
            continue;
        }
        for policy in [Policy::AsymHalfOwn, Policy::AsymHalf] {
            for p in [4usize, 16, 64] {
                for (seed, o) in [(1, Options::default()), (2, AWAKE)] {
                    let r = check_opts(&g, policy, p, seed, &c, &o);
                    t.claims += r.claims;
                    t.cuts += r.cuts;
                    t.claims_cut += r.claims_cut;
                    t.cut_commits += r.cut_commits;
                    t.revokes += r.revokes;
                }
            }
        }
    }
    assert!(t.cuts >= t.claims_cut && t.claims_cut > 0, "{t:?}");
    assert!(
        t.cut_commits * 4 > t.claims_cut,
        "a good share of the cut claims commit what is left: {t:?}"
    );
}

/// A thief commits the claimed tasks still below `bot`: a steal-half claim made from a
/// stale look (the owner popped meanwhile, above the line) takes fewer than it claimed,
/// with no cut.
#[test]
fn a_commit_takes_only_what_is_still_below_bot() {
    let c = Costs::default();
    let mut partial = 0;
    let mut cut = 0;
    for (_, g) in small_shapes() {
        for policy in [Policy::AsymHalfOwn, Policy::AsymHalf] {
            for p in [2usize, 8, 32] {
                for seed in 0..3 {
                    let r = check_opts(&g, policy, p, seed, &c, &AWAKE);
                    partial += r.partial_commits;
                    cut += r.cut_commits;
                }
            }
        }
    }
    assert!(
        partial > cut,
        "partial takes without a cut: {partial} vs {cut}"
    );
}

/// Traced runs of `policy` on the small shapes and a serial-then-tree DAG.
fn traced_runs(policy: Policy, c: &Costs, o: &Options) -> Vec<(TimedDag, usize, StealRun, Trace)> {
    let mut out = Vec::new();
    let mut dags: Vec<TimedDag> = small_shapes().into_iter().map(|(_, g)| g).collect();
    dags.push(tree_after(3000, 7, 30));
    for g in dags {
        for p in [4usize, 16, 48] {
            let (r, tr) = simulate_traced(&g, policy, p, c, o, 3).unwrap();
            out.push((g.clone(), p, r, tr));
        }
    }
    out
}

/// Shared fences: one runs at a time; each caller is served by a fence that started after
/// it asked; callers that ask together share one.
#[test]
fn shared_fences_never_overlap_and_serve_only_later_callers() {
    let c = Costs::default();
    let mut fences = 0;
    let mut callers = 0;
    for policy in [
        Policy::AsymOne,
        Policy::AsymHalf,
        Policy::ChaseLev,
        Policy::LcwsSignal,
    ] {
        for o in [Options::default(), AWAKE] {
            for (g, p, r, tr) in traced_runs(policy, &c, &o) {
                let ctx = format!("{policy} P={p} {o:?} T1={}: {r:?}", g.work());
                check_opts(&g, policy, p, 3, &c, &o);
                assert_eq!(tr.fences.len() as u64, r.heavy_fences, "{ctx}");
                for w in tr.fences.windows(2) {
                    assert!(
                        w[1].start_ps >= w[0].end_ps,
                        "overlapping fences {w:?}: {ctx}"
                    );
                }
                for &(who, asked, f) in &tr.served {
                    assert!(
                        tr.fences[f].start_event > asked,
                        "processor {who}, asking at {asked}, served by {:?}: {ctx}",
                        tr.fences[f]
                    );
                }
                let served: u32 = tr
                    .fences
                    .iter()
                    .filter(|f| f.end_ps != u64::MAX)
                    .map(|f| f.served)
                    .sum();
                assert_eq!(served as usize, tr.served.len(), "{ctx}");
                if !o.sleep {
                    assert!(r.heavy_fences <= r.claims, "{ctx}");
                }
                fences += r.heavy_fences;
                callers += r.claims + r.sleep_fences;
            }
        }
    }
    assert!(
        2 * callers > 3 * fences && fences > 50,
        "callers share fences: {callers} callers, {fences} fences"
    );
}

/// With own fences (`asym-own`, `asym-half-own`), fences overlap and each serves its caller.
#[test]
fn own_fences_serve_their_caller_and_may_overlap() {
    let c = Costs::default();
    let mut overlaps = 0;
    for policy in [Policy::AsymOwn, Policy::AsymHalfOwn] {
        for (_, _, r, tr) in traced_runs(policy, &c, &AWAKE) {
            assert!(tr
                .fences
                .iter()
                .all(|f| f.served == 1 || f.end_ps == u64::MAX));
            assert_eq!(r.fence_wait, 0.0);
            let mut v = tr.fences.clone();
            v.sort_by_key(|f| f.start_ps);
            overlaps += v.windows(2).filter(|w| w[1].start_ps < w[0].end_ps).count();
        }
    }
    assert!(overlaps > 0);
}

/// A parked processor is not running: no heavy fence interrupts it, and none counts it
/// in its own time; each running processor pays for exactly the interrupts sent to it.
#[test]
fn a_parked_processor_is_neither_interrupted_nor_counted() {
    // No interrupt time: nothing stretches a fence beyond what it planned.
    let quiet = Costs {
        ipi_ns: 0.0,
        ..Costs::default()
    };
    let c = Costs::default();
    let mut below_p = 0;
    let mut parks = 0;
    for policy in [
        Policy::AsymOwn,
        Policy::AsymHalfOwn,
        Policy::AsymOne,
        Policy::ChaseLev,
    ] {
        for (costs, o) in [
            (c, Options::default()),
            (
                c,
                Options {
                    sleep: true,
                    spin_rounds: 4,
                    answer_timeout_ns: None,
                },
            ),
            (quiet, Options::default()),
        ] {
            for (g, p, r, tr) in traced_runs(policy, &costs, &o) {
                let ctx = format!("{policy} P={p} T1={}: {r:?}", g.work());
                let mut sent = vec![0u64; p];
                for &(t, j) in &tr.ipis {
                    sent[j as usize] += 1;
                    assert!(
                        !tr.parks
                            .iter()
                            .any(|&(k, from, to)| k == j && from < t && t < to),
                        "processor {j} interrupted at {t} while parked: {ctx}"
                    );
                }
                assert_eq!(sent, tr.ipis_taken, "interrupts paid = sent: {ctx}");
                assert_eq!(tr.ipis.len() as u64, r.ipis, "{ctx}");
                for f in &tr.fences {
                    let heavy = (costs.heavy_ns(f.running as usize) * 1000.0).round() as u64;
                    let extra = f.planned_ps - heavy;
                    let (cas, probe) = (
                        (costs.cas_ns * 1000.0) as u64,
                        (costs.probe_ns * 1000.0) as u64,
                    );
                    assert!(
                        [0, cas, cas + probe].contains(&extra),
                        "{f:?}: the heavy fence for the processors running: {ctx}"
                    );
                    if costs.ipi_ns == 0.0 && f.end_ps != u64::MAX {
                        assert_eq!(f.end_ps - f.start_ps, f.planned_ps, "{ctx}");
                    }
                    below_p += u64::from((f.running as usize) < p);
                }
                parks += tr.parks.len();
            }
        }
    }
    assert!(
        below_p > 20 && parks > 20,
        "fences ran while some slept: {below_p}, parks: {parks}"
    );
}

/// Thieves that found nothing during a long serial node sleep; the owner's first push
/// wakes one (the sleepers' standing request), each successful thief wakes the next, and
/// a wake-up takes `wake_latency_ns`.
#[test]
fn pushes_and_thieves_wake_the_sleepers() {
    let g = tree_after(5000, 10, 40);
    let c = Costs::default();
    let unit = (c.node_ns * 1000.0) as u64;
    for policy in Policy::ALL {
        let p = 8;
        let r = check_opts(&g, policy, p, 1, &c, &Options::default());
        let ctx = format!("{policy}: {r:?}");
        assert!(r.sleeps >= p as u64 - 1, "all thieves slept: {ctx}");
        assert!(r.wakeups >= p as u64 - 1, "and were woken: {ctx}");
        assert!(r.parked_time > 0.0, "{ctx}");
        // The first push wakes one sleeper, and each thief that steals wakes another: the
        // wake-ups spread in doublings, so the seven sleepers run again within a few
        // wake-up latencies (one by one, it would take seven or more).
        let (_, tr) = simulate_traced(&g, policy, p, &c, &Options::default(), 1).unwrap();
        let slept: Vec<_> = tr.parks.iter().filter(|k| k.1 < 5000 * unit).collect();
        assert_eq!(slept.len(), p - 1, "{ctx}");
        let by = 5000 * unit + 6 * (c.wake_latency_ns * 1000.0) as u64;
        assert!(
            slept.iter().all(|k| k.2 <= by),
            "{policy}: woken at {:?}, not all by {by}",
            slept.iter().map(|k| k.2).collect::<Vec<_>>()
        );
        assert!(
            r.makespan < 0.6 * g.work() as f64,
            "the tree ran in parallel: {ctx}"
        );
        // Awake, nobody sleeps; a slower wake-up ends the run later.
        let awake = check_opts(&g, policy, p, 1, &c, &AWAKE);
        assert_eq!((awake.sleeps, awake.wakeups), (0, 0), "{ctx}");
        let slow = Costs {
            wake_latency_ns: 400_000.0,
            ..c
        };
        let late = check_opts(&g, policy, p, 1, &slow, &Options::default());
        assert!(
            late.makespan > r.makespan + 10_000.0,
            "{policy}: {} against {}",
            late.makespan,
            r.makespan
        );
    }
}

/// `lcws-signal`: a sleeper that finds private work whose signal is on its way naps (a
/// park with a deadline), and runs again by the deadline and a wake-up latency at the
/// latest (earlier if woken).
#[test]
fn lcws_sleepers_nap_until_their_deadline() {
    let c = Costs::default();
    let wake = (c.wake_latency_ns * 1000.0) as u64;
    let mut naps = 0;
    let mut to_deadline = 0;
    for spin_rounds in [0, 1, 2, 4] {
        let o = Options {
            sleep: true,
            spin_rounds,
            answer_timeout_ns: None,
        };
        for (_, _, r, tr) in traced_runs(Policy::LcwsSignal, &c, &o) {
            let end = (r.makespan * c.node_ns * 1000.0).round() as u64;
            assert_eq!(tr.naps.len() as u64, r.naps, "{r:?}");
            for &(j, from, deadline) in &tr.naps {
                assert_eq!(deadline - from, (NAP_NS * 1000.0) as u64);
                let &(_, _, to) = tr
                    .parks
                    .iter()
                    .find(|k| k.0 == j && k.1 == from)
                    .expect("a nap is a park");
                if deadline + wake <= end {
                    assert!(to <= deadline + wake, "nap {j} {from}..{to}: {r:?}");
                    to_deadline += u64::from(to == deadline + wake);
                }
                naps += 1;
            }
        }
    }
    assert!(
        naps > 0 && to_deadline > 0,
        "naps {naps}, to their deadline {to_deadline}"
    );
}

/// `o` with a fixed answer timeout.
fn timeout(o: Options, ns: f64) -> Options {
    Options {
        answer_timeout_ns: Some(ns),
        ..o
    }
}

/// Owners that push or pop every few units answer every claim in time: on fib no thief
/// runs a heavy fence (awake, no sleeper does either), where `asym`'s thieves fence on
/// every steal.
#[test]
fn owners_that_push_and_pop_answer_every_claim() {
    let c = Costs::default();
    let g = TimedDag::from_unit(&Dag::regular(12));
    for p in [4usize, 16] {
        for o in [Options::default(), AWAKE] {
            let (r, tr) = simulate_traced(&g, Policy::AsymAnswered, p, &c, &o, 2).unwrap();
            let ctx = format!("P={p} {o:?}: {r:?}");
            check_opts(&g, Policy::AsymAnswered, p, 2, &c, &o);
            assert!(r.claims >= 5, "{ctx}");
            assert_eq!(r.answer_timeouts, 0, "{ctx}");
            assert_eq!(r.answered, r.claims - r.answer_waits_at_end, "{ctx}");
            assert_eq!(r.fenced_claims(), 0, "{ctx}");
            assert!(
                r.heavy_fences <= r.sleep_fences,
                "only sleepers fence: {ctx}"
            );
            assert_eq!(tr.answer_waits.len() as u64, r.claims, "{ctx}");
            for w in &tr.answer_waits {
                if w.end_ps != u64::MAX {
                    assert!(w.answered, "{w:?}: {ctx}");
                    assert!(w.end_ps - w.from_ps <= w.timeout_ps, "{w:?}");
                }
                assert_eq!(
                    w.timeout_ps,
                    (c.heavy_ns(p) * 1000.0).round() as u64,
                    "the default timeout: the fence with all P running"
                );
            }
            if !o.sleep {
                assert_eq!((r.heavy_fences, r.ipis), (0, 0), "{ctx}");
                let asym = check_opts(&g, Policy::Asym, p, 2, &c, &o);
                assert!(asym.heavy_fences > 0 && asym.ipis > 0, "{asym:?}");
            }
        }
    }
    // A spawner pushes every unit and pops only when its loop is done: its pushes answer
    // the claims on it (its children, 1 unit each, pop after each).
    let g = TimedDag::spawn_burst(2000, 1, 1 << 20).unwrap();
    for p in [2usize, 4] {
        let r = check_opts(&g, Policy::AsymAnswered, p, 1, &c, &AWAKE);
        assert!(r.claims >= 10, "{r:?}");
        assert_eq!(
            (r.answer_timeouts, r.answered),
            (0, r.claims - r.answer_waits_at_end),
            "{r:?}"
        );
    }
}

/// Node 0 pushes a task and runs a node of `long` units: a thief's claim on that task
/// waits for an owner that answers only at the end of it.
fn owner_in_a_long_node(long: u32) -> TimedDag {
    TimedDag::from_edges(&[1, long, 1, 1], &[(0, 1), (0, 2), (1, 3), (2, 3)]).unwrap()
}

/// An owner in a long node does not answer in time: the thief waits exactly its timeout,
/// then fences.
#[test]
fn an_owner_in_a_long_node_lets_the_thief_time_out_and_fence() {
    let c = Costs::default();
    let g = owner_in_a_long_node(10_000);
    for (o, wait_ns) in [
        (AWAKE, c.heavy_ns(2)),
        (timeout(AWAKE, 3000.0), 3000.0),
        (Options::default(), c.heavy_ns(2)),
    ] {
        let (r, tr) = simulate_traced(&g, Policy::AsymAnswered, 2, &c, &o, 1).unwrap();
        let ctx = format!("{o:?}: {r:?} {tr:?}");
        check_opts(&g, Policy::AsymAnswered, 2, 1, &c, &o);
        assert_eq!(
            (r.claims, r.answered, r.answer_timeouts, r.steals),
            (1, 0, 1, 1),
            "{ctx}"
        );
        // The long node enables the join, the sink: the owner never pushes or pops again.
        assert_eq!(r.owner_answers, 0, "{ctx}");
        let [w] = tr.answer_waits[..] else {
            panic!("one wait: {ctx}")
        };
        assert_eq!((w.thief, w.victim, w.answered), (1, 0, false), "{ctx}");
        let wait = (wait_ns * 1000.0).round() as u64;
        assert_eq!((w.timeout_ps, w.end_ps - w.from_ps), (wait, wait), "{ctx}");
        assert!((r.answer_wait - wait_ns / c.node_ns).abs() < 1e-9, "{ctx}");
        // Its call for the fence, after its SeqCst fence, starts the shared fence.
        let f = tr.fences[0];
        assert_eq!(f.fencer, 1, "{ctx}");
        let fence = (c.fence_ns * 1000.0).round() as u64;
        assert_eq!(f.start_ps, w.end_ps + fence, "{ctx}");
    }
}

/// A thief that waits longer than the owner's long node is answered by the owner's pop,
/// which revokes the claim: it sees the changed line one transfer after the owner's CAS
/// (before the owner's answer itself), and runs no heavy fence.
#[test]
fn a_change_of_the_line_answers_the_thief() {
    let c = Costs::default();
    let long = 10_000;
    let g = owner_in_a_long_node(long);
    let (r, tr) =
        simulate_traced(&g, Policy::AsymAnswered, 2, &c, &timeout(AWAKE, 1e6), 1).unwrap();
    let ctx = format!("{r:?} {tr:?}");
    assert_eq!(
        (r.claims, r.answered, r.answer_timeouts, r.steals, r.revokes),
        (1, 1, 0, 0, 1),
        "{ctx}"
    );
    assert_eq!((r.failed_validations, r.heavy_fences), (1, 0), "{ctx}");
    let [w] = tr.answer_waits[..] else {
        panic!("one wait: {ctx}")
    };
    let ps = |ns: f64| (ns * 1000.0).round() as u64;
    // The owner's pop ends node `long`, which started after node 0 (1 unit).
    let pop = (1 + long as u64) * ps(c.node_ns);
    assert!(w.answered, "{ctx}");
    let seen = pop + ps(c.cas_ns) + ps(c.probe_ns);
    assert_eq!(w.end_ps, seen, "{ctx}");
    // A timeout that ends after the owner's CAS but before the thief can see it: the
    // change comes too late, and the thief fences.
    let deadline = seen - ps(c.probe_ns) / 2;
    let o = timeout(AWAKE, (deadline - w.from_ps) as f64 / 1000.0);
    let (r, tr) = simulate_traced(&g, Policy::AsymAnswered, 2, &c, &o, 1).unwrap();
    let ctx = format!("{r:?} {tr:?}");
    assert_eq!((r.answered, r.answer_timeouts), (0, 1), "{ctx}");
    assert_eq!(tr.answer_waits[0].end_ps, deadline, "{ctx}");
    assert_eq!(r.heavy_fences, 1, "{ctx}");
}

/// With a timeout of 0 the thief does not ask and fences at once: every count and time of
/// `asym`, every claim a timeout.
#[test]
fn a_zero_timeout_fences_as_asym_does() {
    let c = Costs::default();
    for (shape, g) in small_shapes() {
        for p in [2usize, 8, 32] {
            for o in [Options::default(), AWAKE] {
                let zero = timeout(o, 0.0);
                let a = check_opts(&g, Policy::AsymAnswered, p, 4, &c, &zero);
                let b = check_opts(&g, Policy::Asym, p, 4, &c, &o);
                assert_eq!(a.answer_timeouts, a.claims, "{shape} P={p}: {a:?}");
                let same = StealRun {
                    answer_timeouts: 0,
                    ..a
                };
                assert_eq!(same, b, "{shape} P={p} {o:?}");
            }
        }
    }
}

/// Leaves of many units: a thief that took a batch pushes the rest and runs a long leaf,
/// so claims on it time out and fence, while claims on a walker or spawner are answered;
/// every invariant holds under fixed timeouts too.
#[test]
fn long_leaves_make_some_claims_time_out() {
    let c = Costs::default();
    for g in [
        TimedDag::list_walk(1000, 1000, 1 << 22).unwrap(),
        TimedDag::spawn_burst(1000, 2000, 1 << 22).unwrap(),
    ] {
        let (r, tr) = simulate_traced(&g, Policy::AsymAnswered, 16, &c, &AWAKE, 1).unwrap();
        check_opts(&g, Policy::AsymAnswered, 16, 1, &c, &AWAKE);
        assert!(r.answered > 0 && r.answer_timeouts > 0, "{r:?}");
        assert_eq!(r.fenced_claims(), r.answer_timeouts, "{r:?}");
        let timed_out = tr
            .answer_waits
            .iter()
            .filter(|w| !w.answered && w.end_ps != u64::MAX);
        assert_eq!(timed_out.clone().count() as u64, r.answer_timeouts);
        for w in timed_out {
            assert_eq!(w.end_ps - w.from_ps, w.timeout_ps, "{w:?}");
        }
        for w in tr.answer_waits.iter().filter(|w| w.answered) {
            assert!(w.end_ps - w.from_ps <= w.timeout_ps, "seen in time: {w:?}");
        }
        for ns in [0.0, 50.0, 2000.0, 1e5] {
            for o in [AWAKE, Options::default()] {
                check_opts(&g, Policy::AsymAnswered, 16, 1, &c, &timeout(o, ns));
            }
        }
    }
}

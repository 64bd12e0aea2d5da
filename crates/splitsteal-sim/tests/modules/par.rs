use splitsteal_sim::par::*;

#[test]
fn par_map_is_ordered_and_complete() {
    for n in [0usize, 1, 2, 3, 100, 1000] {
        let v = par_map_runs(n, |i| i * 3 + 1);
        assert_eq!(v, (0..n).map(|i| i * 3 + 1).collect::<Vec<_>>());
    }
    // Also inside an explicit pool of every policy.
    for &policy in splitsteal::Policy::ALL {
        let pool = splitsteal::ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(policy)
            .build()
            .unwrap();
        let v = pool.install(|| par_map_runs(500, |i| i ^ 7));
        assert_eq!(v, (0..500).map(|i| i ^ 7).collect::<Vec<_>>(), "{policy}");
    }
}

#[test]
fn run_seeds_differ() {
    let a = run_seed(1, 0, 0);
    assert_ne!(a, run_seed(1, 0, 1));
    assert_ne!(a, run_seed(1, 1, 0));
    assert_ne!(a, run_seed(2, 0, 0));
    assert_eq!(a, run_seed(1, 0, 0));
}

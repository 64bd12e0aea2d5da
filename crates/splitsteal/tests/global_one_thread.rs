//! An iterator called from outside any pool, on a one-thread global pool, runs on the
//! pool's worker, as rayon's does: a one-thread pool's bridges do not split on its worker,
//! but from outside the first split still moves the work into the pool. Its own test
//! binary, because the global pool is built once per process.

use splitsteal::prelude::*;

#[test]
fn an_iterator_called_from_outside_runs_on_the_one_thread_global_pool() {
    splitsteal::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("the first pool of this process");
    assert_eq!(splitsteal::current_thread_index(), None);
    let ran_on: Vec<Option<usize>> = (0..1000u32)
        .into_par_iter()
        .map(|_| splitsteal::current_thread_index())
        .collect();
    assert!(ran_on.iter().all(|&i| i == Some(0)), "{:?}", &ran_on[..4]);
    let total: u64 = (0..1000u64)
        .into_par_iter()
        .map(|i| (0..10u64).into_par_iter().map(|j| i * j).sum::<u64>())
        .sum();
    assert_eq!(total, 45 * 999 * 1000 / 2);
}

//! The hybrid (mailboxing) policy under the data-parallel layer: the primitives' splits
//! follow the mailing split, every item runs once and every proxy is freed.

use std::sync::atomic::{AtomicUsize, Ordering};

use splitsteal::{Mailing, Policy, ThreadPoolBuilder};

#[test]
fn data_parallel_primitives_follow_the_mailing_split() {
    for mailing in [Mailing::Even, Mailing::Uneven] {
        for threads in [2, 3] {
            let pool = ThreadPoolBuilder::new()
                .num_threads(threads)
                .policy(Policy::Hybrid)
                .hybrid_base(Policy::ChaseLev)
                .mailing(mailing)
                .build()
                .unwrap();
            let n = 100_003;
            let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            pool.install(|| {
                splitsteal::par_for(0..n, |i| {
                    hits[i].fetch_add(1, Ordering::Relaxed);
                })
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
            let mut v: Vec<u64> = (0..n as u64).rev().collect();
            pool.install(|| splitsteal::par::current::sort(&mut v));
            assert!(v.windows(2).all(|w| w[0] <= w[1]), "{mailing:?} x{threads}");
            assert!(pool.stats().mailed > 0, "{mailing:?} x{threads}");
        }
    }
    assert_eq!(splitsteal_core::__live_proxies(), 0);
}

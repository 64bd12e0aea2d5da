//! What a program gets on a platform without threads (WebAssembly: `wasm32-wasip1`,
//! `wasm32-unknown-unknown`), as under rayon: the global pool is one worker, the calling
//! thread, and joins, scopes, parallel iterators and sorts give serial code's results; a pool
//! built explicitly returns the spawn error. Where threads exist, the same calls run on the
//! usual global pool and must give the same results. CI runs this file on `wasm32-wasip1`
//! under a WASI runtime. Its own test binary, because the global pool is built once per
//! process.

use splitsteal::prelude::*;

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

#[test]
fn the_global_pool_runs_every_api_with_or_without_threads() {
    assert_eq!(fib(20), 6765);

    let mut seen = vec![0u32; 100];
    splitsteal::scope(|s| {
        for (i, slot) in seen.iter_mut().enumerate() {
            s.spawn(move |_| *slot = i as u32 * 3);
        }
    });
    assert!(seen.iter().enumerate().all(|(i, &v)| v == i as u32 * 3));

    let squares: Vec<u64> = (0..10_000u64).into_par_iter().map(|x| x * x).collect();
    assert_eq!(squares, (0..10_000u64).map(|x| x * x).collect::<Vec<_>>());
    let sum: u64 = (0..100_000u64).into_par_iter().filter(|x| x % 3 == 0).sum();
    assert_eq!(sum, (0..100_000u64).filter(|x| x % 3 == 0).sum());

    let mut v: Vec<u32> = (0..50_000u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let mut expected = v.clone();
    expected.sort_unstable();
    v.par_sort();
    assert_eq!(v, expected);

    let threads = splitsteal::current_num_threads();
    if cfg!(target_family = "wasm") {
        // The fallback: one worker, this thread, and no other thread to be had.
        assert_eq!(threads, 1);
        let err = splitsteal::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect_err("a pool of two threads where threads cannot be spawned");
        assert!(
            matches!(err, splitsteal::BuildError::Spawn(ref e)
                if e.kind() == std::io::ErrorKind::Unsupported),
            "{err}"
        );
    } else {
        assert!(threads >= 1);
    }
}

/// A policy or setting the platform cannot provide is refused by `build`, before any
/// thread is spawned, with an error that names the platform and what works there.
#[test]
fn build_refuses_what_the_platform_cannot_do_and_names_what_works() {
    use splitsteal::{BuildError, Policy, ThreadPoolBuilder};
    for policy in Policy::ALL.iter().copied() {
        let built = ThreadPoolBuilder::new()
            .num_threads(1)
            .policy(policy)
            .build();
        if policy.is_supported() {
            // Where threads exist the pool runs; without them only the spawn fails.
            assert!(
                built.is_ok() || matches!(built, Err(BuildError::Spawn(_))),
                "{policy}: {:?}",
                built.err()
            );
            continue;
        }
        if cfg!(unix) {
            panic!("{policy} is refused on a Unix");
        }
        let err = built.expect_err("an unsupported policy");
        let text = err.to_string();
        assert!(matches!(err, BuildError::Unsupported(_)), "{text}");
        assert!(text.contains(policy.name()), "{text}");
        assert!(text.contains(std::env::consts::OS), "{text}");
        assert!(
            text.contains("asym") && text.contains("lcws-poll"),
            "{text}"
        );
    }
    assert_eq!(
        Policy::supported().count() == Policy::ALL.len(),
        cfg!(unix),
        "the signal policies work on every Unix and nowhere else"
    );
    let pinned = ThreadPoolBuilder::new()
        .num_threads(1)
        .pin_threads(true)
        .build();
    if cfg!(any(target_os = "linux", target_os = "android")) {
        assert!(pinned.is_ok(), "{:?}", pinned.err());
    } else {
        let err = pinned.expect_err("pinning where this crate cannot pin");
        assert!(matches!(err, BuildError::Unsupported(_)), "{err}");
    }
}

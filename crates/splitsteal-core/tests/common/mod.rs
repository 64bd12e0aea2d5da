//! Helpers shared by the integration tests of splitsteal-core and splitsteal (each test
//! binary uses a subset).
#![allow(dead_code)]

use std::sync::atomic::{AtomicU64, Ordering};

/// Fibonacci with a `join` at every call.
pub fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal_core::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// `fib`, counting every call: `fib(n)` makes `2 fib(n + 1) - 1` calls.
pub fn fib_counted(n: u64, calls: &AtomicU64) -> u64 {
    calls.fetch_add(1, Ordering::Relaxed);
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal_core::join(|| fib_counted(n - 1, calls), || fib_counted(n - 2, calls));
    a + b
}

/// The sequential reference.
pub fn fib_seq(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fib_seq(n - 1) + fib_seq(n - 2)
    }
}

/// A pool of `threads` workers under `policy`, every other setting at its default.
pub fn pool(threads: usize, policy: splitsteal_core::Policy) -> splitsteal_core::ThreadPool {
    splitsteal_core::ThreadPoolBuilder::new()
        .num_threads(threads)
        .policy(policy)
        .build()
        .unwrap_or_else(|e| panic!("{policy} x{threads}: {e}"))
}

/// One worker under `policy` in a pool that records task starts, which keeps every join in
/// the worker's deque (a lone `asym` worker otherwise runs its joins in line): for tests
/// of a one-worker deque's operations.
pub fn one_worker_keeping_joins_in_its_deque(
    policy: splitsteal_core::Policy,
) -> splitsteal_core::ThreadPool {
    splitsteal_core::ThreadPoolBuilder::new()
        .num_threads(1)
        .policy(policy)
        .record_start_latency(true)
        .build()
        .unwrap_or_else(|e| panic!("{policy} x1, recording: {e}"))
}

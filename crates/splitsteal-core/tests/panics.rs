//! A panic in a task reaches the caller after both sides finished; the pool stays usable.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use splitsteal_core::Policy;

mod common;
use common::fib;

fn quiet<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    panic::catch_unwind(AssertUnwindSafe(f))
}

#[test]
fn panics_propagate_after_both_sides_and_the_pool_stays_usable() {
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    for &policy in Policy::ALL {
        let pool = common::pool(2, policy);

        // Panic in `a`: `b` still runs to completion before the panic arrives.
        let b_done = AtomicBool::new(false);
        let r = quiet(|| {
            pool.install(|| {
                splitsteal_core::join(
                    || -> u64 { panic!("boom in a") },
                    || {
                        let v = fib(18);
                        b_done.store(true, Ordering::SeqCst);
                        v
                    },
                )
            })
        });
        let msg = r.unwrap_err().downcast::<&str>().map(|b| *b).unwrap_or("?");
        assert_eq!(msg, "boom in a", "{policy}");
        assert!(b_done.load(Ordering::SeqCst), "{policy}: b did not finish");

        // Both panic: `a`'s panic arrives and `b`'s is dropped, as in rayon.
        let r = quiet(|| {
            pool.install(|| {
                splitsteal_core::join(
                    || -> u64 { panic!("boom in a") },
                    || -> u64 { panic!("boom in b") },
                )
            })
        });
        let msg = r.unwrap_err().downcast::<&str>().map(|b| *b).unwrap_or("?");
        assert_eq!(msg, "boom in a", "{policy}: both panicked");

        // Panic in `b`, deep in a fork tree.
        let a_done = AtomicBool::new(false);
        let r = quiet(|| {
            pool.install(|| {
                splitsteal_core::join(
                    || {
                        let v = fib(18);
                        a_done.store(true, Ordering::SeqCst);
                        v
                    },
                    || splitsteal_core::join(|| fib(10), || -> u64 { panic!("boom in b") }),
                )
            })
        });
        assert!(r.is_err(), "{policy}");
        assert!(a_done.load(Ordering::SeqCst), "{policy}: a did not finish");

        // Panic in a spawned task: the scope still waits for all its tasks.
        let ran = AtomicUsize::new(0);
        let r = quiet(|| {
            pool.scope(|s| {
                for i in 0..20 {
                    let ran = &ran;
                    s.spawn(move |_| {
                        ran.fetch_add(1, Ordering::SeqCst);
                        if i == 7 {
                            panic!("boom in spawn");
                        }
                    });
                }
            })
        });
        assert!(r.is_err(), "{policy}");
        assert_eq!(ran.load(Ordering::SeqCst), 20, "{policy}");

        // The pool still works.
        assert_eq!(pool.install(|| fib(20)), 6765, "{policy}");
    }
    panic::set_hook(hook);
}

#[test]
fn a_panic_in_a_join_whose_deque_was_full_still_runs_b_first() {
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    for &policy in Policy::ALL {
        // Capacity 1: the outer join's `b` (or `hybrid`'s proxy of it) fills the deque, so
        // the inner join's `b` is never published and its joiner must run it.
        let pool = splitsteal_core::ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(policy)
            .deque_capacity(1)
            .build()
            .unwrap();
        let inner_b_done = AtomicBool::new(false);
        let r = quiet(|| {
            pool.install(|| {
                splitsteal_core::join(
                    || {
                        splitsteal_core::join(
                            || -> u64 { panic!("boom in the inner a") },
                            || inner_b_done.store(true, Ordering::SeqCst),
                        )
                    },
                    || fib(15),
                )
            })
        });
        let msg = r.unwrap_err().downcast::<&str>().map(|b| *b).unwrap_or("?");
        assert_eq!(msg, "boom in the inner a", "{policy}");
        assert!(
            inner_b_done.load(Ordering::SeqCst),
            "{policy}: the unpublished b did not run"
        );
        assert_eq!(pool.install(|| fib(20)), 6765, "{policy}");
    }
    panic::set_hook(hook);
}

/// A thief runs `b` and `b` panics: the panic is caught on the thief's side (its worker
/// survives) and resumed on the joiner's, after `a` returned.
#[test]
fn a_panic_in_a_stolen_b_reaches_the_joiner() {
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    for &policy in Policy::ALL {
        let pool = common::pool(2, policy);
        let b_started = AtomicBool::new(false);
        let a_saw_b = AtomicBool::new(false);
        let r = quiet(|| {
            pool.install(|| {
                splitsteal_core::join(
                    || {
                        // `b` can only start on the other worker while `a` runs; small
                        // joins let a polled victim answer the thief.
                        let t0 = std::time::Instant::now();
                        while !b_started.load(Ordering::SeqCst) {
                            splitsteal_core::join(|| (), || ());
                            if t0.elapsed() > std::time::Duration::from_secs(10) {
                                return;
                            }
                        }
                        a_saw_b.store(true, Ordering::SeqCst);
                    },
                    || {
                        b_started.store(true, Ordering::SeqCst);
                        panic!("boom in stolen b")
                    },
                )
            })
        });
        assert!(
            a_saw_b.load(Ordering::SeqCst),
            "{policy}: b was never stolen"
        );
        let msg = r.unwrap_err().downcast::<&str>().map(|b| *b).unwrap_or("?");
        assert_eq!(msg, "boom in stolen b", "{policy}");
        // Both workers still run work.
        assert_eq!(pool.install(|| fib(20)), 6765, "{policy}");
    }
    panic::set_hook(hook);
}

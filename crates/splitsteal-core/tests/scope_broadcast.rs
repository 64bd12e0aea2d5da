//! `Scope::spawn_broadcast` / `ScopeFifo::spawn_broadcast`: once per worker, inside the
//! scope's lifetime, under every policy.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use splitsteal_core::{Policy, ThreadPoolBuilder};

#[test]
fn every_worker_runs_its_share_before_the_scope_ends() {
    for &policy in Policy::ALL {
        let pool = ThreadPoolBuilder::new()
            .num_threads(3)
            .policy(policy)
            .build()
            .unwrap();
        let seen = Mutex::new(Vec::new());
        let nested = AtomicUsize::new(0);
        pool.scope(|s| {
            s.spawn_broadcast(|s, ctx| {
                assert_eq!(ctx.num_threads(), 3);
                // The share runs on the worker it names.
                assert_eq!(splitsteal_core::current_thread_index(), Some(ctx.index()));
                seen.lock().unwrap().push(ctx.index());
                // A share may spawn more into the same scope.
                s.spawn(|_| {
                    nested.fetch_add(1, Ordering::Relaxed);
                });
            });
        });
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, [0, 1, 2], "{policy}");
        assert_eq!(nested.into_inner(), 3, "{policy}");
    }
}

#[test]
fn fifo_scopes_broadcast_too() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let runs = AtomicUsize::new(0);
    pool.scope_fifo(|s| {
        s.spawn_broadcast(|s, _| {
            runs.fetch_add(1, Ordering::Relaxed);
            s.spawn_fifo(|_| {
                runs.fetch_add(10, Ordering::Relaxed);
            });
        })
    });
    assert_eq!(runs.into_inner(), 22);
}

#[test]
fn a_panicking_share_propagates_from_the_scope() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let runs = AtomicUsize::new(0);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pool.scope(|s| {
            s.spawn_broadcast(|_, ctx| {
                runs.fetch_add(1, Ordering::Relaxed);
                if ctx.index() == 1 {
                    panic!("share 1 failed");
                }
            })
        })
    }));
    assert_eq!(
        r.unwrap_err().downcast_ref::<&str>(),
        Some(&"share 1 failed")
    );
    // Both shares ran: the scope waited for the other one before propagating.
    assert_eq!(runs.into_inner(), 2);
}

#[test]
fn a_scope_from_outside_the_pool_waits_for_every_share() {
    let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let runs = AtomicUsize::new(0);
    pool.in_place_scope(|s| {
        s.spawn_broadcast(|_, _| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            runs.fetch_add(1, Ordering::Relaxed);
        })
    });
    assert_eq!(runs.into_inner(), 2);
}

//! `ThreadPoolBuilder::spawn_handler` and `build_scoped`: workers started by the user's
//! code, under every policy (the signal policies must reach threads they did not spawn).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use splitsteal_core::{self as splitsteal, BuildError, Policy, ThreadPoolBuilder};

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

type Handles = Arc<Mutex<Vec<JoinHandle<()>>>>;

/// A spawn handler that starts `std` threads and keeps their handles, so a test can join
/// them and know the workers really exited.
fn keeping_handles(
    handles: &Handles,
) -> impl FnMut(splitsteal::ThreadBuilder) -> std::io::Result<()> + use<> {
    let handles = Arc::clone(handles);
    move |thread| {
        let name = format!("custom-{}", thread.index());
        let h = std::thread::Builder::new()
            .name(name)
            .spawn(|| thread.run())?;
        handles.lock().unwrap().push(h);
        Ok(())
    }
}

fn join_all(handles: &Handles) -> usize {
    let hs: Vec<_> = handles.lock().unwrap().drain(..).collect();
    let n = hs.len();
    for h in hs {
        h.join().unwrap();
    }
    n
}

#[test]
fn custom_spawned_workers_run_every_policy() {
    for &policy in Policy::ALL {
        let handles = Handles::default();
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(policy)
            .spawn_handler(keeping_handles(&handles))
            .build()
            .unwrap();
        assert_eq!(pool.install(|| fib(20)), 6765, "{policy}");
        let names: Vec<String> =
            pool.broadcast(|_| std::thread::current().name().unwrap().to_owned());
        let mut names = names;
        names.sort();
        assert_eq!(names, ["custom-0", "custom-1"], "{policy}");
        drop(pool);
        // The pool does not join threads it did not spawn; they exit on their own.
        assert_eq!(join_all(&handles), 2, "{policy}");
    }
}

#[test]
fn thread_builder_reports_index_name_and_stack_size() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let handles = Handles::default();
    let (s, h) = (Arc::clone(&seen), Arc::clone(&handles));
    let pool = ThreadPoolBuilder::new()
        .num_threads(3)
        .thread_name(|i| format!("named-{i}"))
        .stack_size(1 << 20)
        .spawn_handler(move |thread| {
            s.lock().unwrap().push((
                thread.index(),
                thread.name().map(str::to_owned),
                thread.stack_size(),
            ));
            h.lock().unwrap().push(std::thread::spawn(|| thread.run()));
            Ok(())
        })
        .build()
        .unwrap();
    drop(pool);
    join_all(&handles);
    let seen = seen.lock().unwrap().clone();
    let want: Vec<_> = (0..3)
        .map(|i| (i, Some(format!("named-{i}")), Some(1 << 20)))
        .collect();
    assert_eq!(seen, want);
}

#[test]
fn a_failing_spawn_handler_fails_the_build_and_stops_the_started_workers() {
    let handles = Handles::default();
    let mut keep = keeping_handles(&handles);
    let err = ThreadPoolBuilder::new()
        .num_threads(3)
        .spawn_handler(move |thread| {
            if thread.index() == 2 {
                return Err(std::io::Error::other("no more threads today"));
            }
            keep(thread)
        })
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::Spawn(_)), "{err:?}");
    assert!(err.to_string().contains("no more threads today"), "{err}");
    // The two started workers stop (a hang here is the failure).
    assert_eq!(join_all(&handles), 2);
}

#[test]
fn a_dropped_thread_builder_fails_the_build_instead_of_hanging() {
    let handles = Handles::default();
    let mut keep = keeping_handles(&handles);
    let err = ThreadPoolBuilder::new()
        .num_threads(3)
        .policy(Policy::LcwsSignal)
        .spawn_handler(move |thread| {
            if thread.index() == 1 {
                drop(thread);
                return Ok(());
            }
            keep(thread)
        })
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("without running"), "{err}");
    assert_eq!(join_all(&handles), 2);
}

#[test]
fn build_scoped_workers_borrow_and_have_exited_on_return() {
    let started = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let out = ThreadPoolBuilder::new()
        .num_threads(2)
        .build_scoped(
            |thread| {
                started.fetch_add(1, Ordering::SeqCst);
                thread.run();
                finished.fetch_add(1, Ordering::SeqCst);
            },
            |pool| {
                // Every worker has started before `with_pool` runs.
                assert_eq!(started.load(Ordering::SeqCst), 2);
                pool.install(|| fib(18))
            },
        )
        .unwrap();
    assert_eq!(out, 2584);
    // Every worker thread has returned from `run` (and been joined) by now.
    assert_eq!(finished.load(Ordering::SeqCst), 2);
}

#[test]
fn build_scoped_propagates_a_panic_after_the_workers_exit() {
    let finished = AtomicUsize::new(0);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        ThreadPoolBuilder::new().num_threads(2).build_scoped(
            |thread| {
                thread.run();
                finished.fetch_add(1, Ordering::SeqCst);
            },
            |_pool| -> u32 { panic!("with_pool failed") },
        )
    }));
    let payload = r.unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"with_pool failed"));
    assert_eq!(finished.load(Ordering::SeqCst), 2);
}

#[test]
fn build_scoped_reports_a_bad_configuration() {
    let err = ThreadPoolBuilder::new()
        .num_threads(splitsteal::max_num_threads() + 1)
        .build_scoped(|thread| thread.run(), |_| ())
        .unwrap_err();
    assert!(matches!(err, BuildError::InvalidConfig(_)), "{err:?}");
}

#[test]
fn a_borrowing_spawn_handler_collects_join_handles_in_a_local_vec() {
    for &policy in Policy::ALL {
        let mut handles: Vec<JoinHandle<()>> = Vec::new(); // borrowed mutably by the handler
        let mut spawned = 0usize;
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(policy)
            .spawn_handler(|thread| {
                spawned += 1;
                handles.push(std::thread::spawn(|| thread.run()));
                Ok(())
            })
            .build()
            .unwrap();
        assert_eq!(pool.install(|| fib(20)), 6765, "{policy}");
        drop(pool);
        assert_eq!((spawned, handles.len()), (2, 2), "{policy}");
        for h in handles {
            h.join().unwrap(); // the workers exit once the pool is dropped
        }
    }
}

#[test]
fn a_spawn_handler_spawns_scoped_threads_that_borrow() {
    for &policy in Policy::ALL {
        let started = AtomicUsize::new(0); // borrowed by the workers, not 'static
        let sum = std::thread::scope(|scope| {
            let pool = ThreadPoolBuilder::new()
                .num_threads(2)
                .policy(policy)
                .spawn_handler(|thread| {
                    std::thread::Builder::new().spawn_scoped(scope, || {
                        started.fetch_add(1, Ordering::Relaxed);
                        thread.run()
                    })?;
                    Ok(())
                })
                .build()
                .unwrap();
            pool.install(|| fib(18))
            // The pool is dropped here, so the scope's join of its threads ends.
        });
        assert_eq!(sum, 2584, "{policy}");
        assert_eq!(started.load(Ordering::Relaxed), 2, "{policy}");
    }
}

/// Code written against rayon names the builder in signatures without its parameter.
fn sized(builder: ThreadPoolBuilder, n: usize) -> ThreadPoolBuilder {
    builder.num_threads(n)
}

#[test]
fn the_builder_is_nameable_without_its_spawn_parameter() {
    let pool = sized(ThreadPoolBuilder::new(), 2).build().unwrap();
    assert_eq!(pool.current_num_threads(), 2);
}

/// A panic payload's message (`panic!` with or without format arguments).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    match payload.downcast_ref::<&str>() {
        Some(s) => (*s).to_owned(),
        None => payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default(),
    }
}

/// A worker of pool B started on a worker of pool A (B's spawn handler hands the thread to
/// `a.spawn`) is refused with a clear panic, as rayon does, and the build fails. (It used
/// to run, and when B's loop ended the thread forgot it was A's worker: A's next job on it
/// dereferenced a null worker pointer, a segfault.) A keeps working on every worker.
#[test]
fn a_worker_started_on_another_pools_worker_by_spawn_is_refused() {
    for &policy in Policy::ALL {
        let panics: Arc<Mutex<Vec<String>>> = Arc::default();
        let seen = Arc::clone(&panics);
        let a = Arc::new(
            ThreadPoolBuilder::new()
                .num_threads(2)
                .policy(policy)
                .panic_handler(move |payload| seen.lock().unwrap().push(panic_message(&*payload)))
                .build()
                .unwrap(),
        );
        let on_a = Arc::clone(&a);
        let b = ThreadPoolBuilder::new()
            .num_threads(1)
            .policy(policy)
            .spawn_handler(move |thread| {
                on_a.spawn(move || thread.run());
                Ok(())
            })
            .build();
        let err = b.as_ref().err().map(ToString::to_string);
        drop(b);
        // Every worker of A runs jobs (joins) normally afterwards.
        assert_eq!(a.broadcast(|_| fib(15)), [610, 610], "{policy}");
        let err = err.unwrap_or_else(|| panic!("{policy}: the nested pool was built"));
        assert!(err.contains("already a worker"), "{policy}: {err}");
        let panics = panics.lock().unwrap();
        assert_eq!(panics.len(), 1, "{policy}: {panics:?}");
        assert!(
            panics[0].contains("already a worker"),
            "{policy}: {panics:?}"
        );
    }
}

/// The same refusal when `build_scoped`'s wrapper runs the worker inside `a.install`: the
/// panic reaches the wrapper, which sees a clear message.
#[test]
fn a_worker_started_on_another_pools_worker_by_install_is_refused() {
    for &policy in Policy::ALL {
        let a = ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(policy)
            .build()
            .unwrap();
        let refused = Mutex::new(Vec::new());
        let b = ThreadPoolBuilder::new()
            .num_threads(1)
            .policy(policy)
            .build_scoped(
                |thread| {
                    let run = std::panic::AssertUnwindSafe(|| a.install(move || thread.run()));
                    if let Err(payload) = std::panic::catch_unwind(run) {
                        refused.lock().unwrap().push(panic_message(&*payload));
                    }
                },
                |b| b.install(|| fib(15)),
            );
        assert_eq!(a.broadcast(|_| fib(15)), [610, 610], "{policy}");
        let err = b.expect_err("the nested pool was built").to_string();
        assert!(err.contains("already a worker"), "{policy}: {err}");
        let refused = refused.into_inner().unwrap();
        assert_eq!(refused.len(), 1, "{policy}: {refused:?}");
        assert!(
            refused[0].contains("already a worker"),
            "{policy}: {refused:?}"
        );
    }
}

//! rayon-core's builder and introspection API under every policy: thread names, start /
//! exit / panic handlers, `ThreadPool::current_thread_index`, pending tasks, the thread cap.

use std::cell::{Cell, RefCell};
use std::process::{Command, Stdio};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use splitsteal_core::{
    current_thread_has_pending_tasks, current_thread_index, max_num_threads, BuildError, Policy,
    ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder,
};

mod common;
use common::{fib, fib_seq};

/// What a start or exit handler saw: the index it was given, the thread's name, the
/// worker index the thread reports and whether its deque holds tasks.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    index: usize,
    name: Option<String>,
    current: Option<usize>,
    pending: Option<bool>,
}

fn seen(index: usize) -> Seen {
    Seen {
        index,
        name: std::thread::current().name().map(str::to_owned),
        current: current_thread_index(),
        pending: current_thread_has_pending_tasks(),
    }
}

/// Waits until `shared` has no other owner: the pool's handlers hold clones of it, and go
/// when its last worker has exited (a pool with handlers is not joined by its drop, as in
/// rayon: a handler may wait for the dropping thread).
fn wait_unshared<T>(shared: &Arc<T>, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Arc::strong_count(shared) > 1 {
        assert!(
            Instant::now() < deadline,
            "{what}: the handlers were never dropped"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn sorted(log: &Mutex<Vec<Seen>>) -> Vec<Seen> {
    let mut v = log.lock().unwrap().clone();
    v.sort_by_key(|s| s.index);
    v
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "?".to_owned()
    }
}

thread_local! {
    /// Set by the start handler of `handlers_run_once_per_worker_...` on its worker.
    static STARTED_AS: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Fib whose every call checks that the worker running it finished its start handler.
fn fib_checking_start(n: u64, unstarted: &AtomicUsize) -> u64 {
    if STARTED_AS.with(Cell::get) != current_thread_index() {
        unstarted.fetch_add(1, Ordering::Relaxed);
    }
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal_core::join(
        || fib_checking_start(n - 1, unstarted),
        || fib_checking_start(n - 2, unstarted),
    );
    a + b
}

#[test]
fn handlers_run_once_per_worker_with_its_index_under_every_policy() {
    for &policy in Policy::ALL {
        for threads in [1, 3] {
            let starts = Arc::new(Mutex::new(Vec::new()));
            let exits = Arc::new(Mutex::new(Vec::new()));
            let (s, e) = (Arc::clone(&starts), Arc::clone(&exits));
            let pool = ThreadPoolBuilder::new()
                .num_threads(threads)
                .policy(policy)
                .thread_name(move |i| format!("ba-{policy}-{i}"))
                .start_handler(move |i| {
                    STARTED_AS.with(|c| c.set(Some(i)));
                    s.lock().unwrap().push(seen(i));
                })
                .exit_handler(move |i| e.lock().unwrap().push(seen(i)))
                .build()
                .unwrap();
            // Every task runs on a worker whose start handler has finished.
            let unstarted = AtomicUsize::new(0);
            let got = pool.install(|| fib_checking_start(20, &unstarted));
            assert_eq!(got, fib_seq(20), "{policy} x{threads}");
            assert_eq!(
                unstarted.into_inner(),
                0,
                "{policy} x{threads}: before start"
            );
            assert!(
                exits.lock().unwrap().is_empty(),
                "{policy} x{threads}: exit handler ran while the pool lives"
            );
            drop(pool);
            wait_unshared(&exits, "exits");
            wait_unshared(&starts, "starts");
            let want: Vec<Seen> = (0..threads)
                .map(|i| Seen {
                    index: i,
                    name: Some(format!("ba-{policy}-{i}")),
                    current: Some(i),
                    // Nothing forked yet at the start; nothing left at the exit.
                    pending: Some(false),
                })
                .collect();
            assert_eq!(sorted(&starts), want, "{policy} x{threads}: starts");
            assert_eq!(sorted(&exits), want, "{policy} x{threads}: exits");
        }
    }
}

#[test]
fn thread_names_come_from_the_closure_under_every_policy() {
    for &policy in Policy::ALL {
        // Not `Send`: the closure runs on the building thread only, once per worker.
        let calls = Rc::new(RefCell::new(Vec::new()));
        let c = Rc::clone(&calls);
        let pool = ThreadPoolBuilder::new()
            .num_threads(3)
            .policy(policy)
            .thread_name(move |i| {
                c.borrow_mut().push(i);
                format!("named-{policy}-{i}")
            })
            .build()
            .unwrap();
        assert_eq!(*calls.borrow(), [0, 1, 2], "{policy}: closure calls");
        // Inside `install`, and on whichever workers run a fork tree's tasks.
        let wrong = AtomicUsize::new(0);
        fn check(n: u64, policy: Policy, wrong: &AtomicUsize) {
            let name = std::thread::current().name().map(str::to_owned);
            let want = current_thread_index().map(|i| format!("named-{policy}-{i}"));
            if name.is_none() || name != want {
                wrong.fetch_add(1, Ordering::Relaxed);
            }
            if n >= 2 {
                splitsteal_core::join(
                    || check(n - 1, policy, wrong),
                    || check(n - 2, policy, wrong),
                );
            }
        }
        pool.install(|| check(18, policy, &wrong));
        assert_eq!(wrong.into_inner(), 0, "{policy}: tasks on misnamed threads");

        // Without a closure: `splitsteal-<policy>-<index>`.
        let pool = common::pool(2, policy);
        let (index, name) = pool.install(|| {
            let name = std::thread::current().name().map(str::to_owned);
            (current_thread_index().unwrap(), name)
        });
        assert_eq!(
            name,
            Some(format!("splitsteal-{policy}-{index}")),
            "{policy}"
        );
    }
}

#[test]
fn bad_thread_names_fail_the_build_after_stopping_the_workers_already_started() {
    // Names come one worker at a time, just before its spawn (as in rayon): a bad first
    // name starts nothing.
    let started = Arc::new(AtomicUsize::new(0));
    let s = Arc::clone(&started);
    let err = ThreadPoolBuilder::new()
        .num_threads(2)
        .thread_name(|i| format!("nul\0{i}"))
        .start_handler(move |_| {
            s.fetch_add(1, Ordering::SeqCst);
        })
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::InvalidConfig(_)), "{err:?}");
    assert!(err.to_string().contains("NUL"), "{err}");
    wait_unshared(&started, "started");
    assert_eq!(started.load(Ordering::SeqCst), 0, "a worker was started");
    // A closure that fails for worker 3: workers 0 to 2 ran and were stopped, their start
    // and exit handlers ran, and the panic (or the error) reaches the caller.
    for panics in [true, false] {
        let starts = Arc::new(AtomicUsize::new(0));
        let exits = Arc::new(AtomicUsize::new(0));
        let (s, e) = (Arc::clone(&starts), Arc::clone(&exits));
        let build = move || {
            ThreadPoolBuilder::new()
                .num_threads(6)
                .thread_name(move |i| match i {
                    3 if panics => panic!("no name"),
                    3 => "nul\0".into(),
                    _ => format!("ok-{i}"),
                })
                .start_handler(move |_| {
                    s.fetch_add(1, Ordering::SeqCst);
                })
                .exit_handler(move |_| {
                    e.fetch_add(1, Ordering::SeqCst);
                })
                .build()
        };
        if panics {
            let r = std::panic::catch_unwind(build);
            assert_eq!(panic_message(&*r.unwrap_err()), "no name");
        } else {
            let err = build().unwrap_err();
            assert!(matches!(err, BuildError::InvalidConfig(_)), "{err:?}");
        }
        wait_unshared(&starts, "starts");
        wait_unshared(&exits, "exits");
        let counts = (starts.load(Ordering::SeqCst), exits.load(Ordering::SeqCst));
        assert_eq!(counts, (3, 3), "panics: {panics}");
    }
}

/// rayon-core's own tests wait in a start or exit handler for the thread that built or
/// dropped the pool, which reaches the wait only once `build` or the drop has returned.
#[test]
fn handlers_may_wait_for_the_thread_that_builds_and_drops_the_pool_under_every_policy() {
    for &policy in Policy::ALL {
        // On a thread of its own, watched: a drop that waited for the handlers would never
        // return.
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let threads = 3;
            let started = Arc::new(std::sync::Barrier::new(threads + 1));
            let exited = Arc::new(std::sync::Barrier::new(threads + 1));
            let (s, e) = (Arc::clone(&started), Arc::clone(&exited));
            let pool = ThreadPoolBuilder::new()
                .num_threads(threads)
                .policy(policy)
                .start_handler(move |_| {
                    s.wait();
                })
                .exit_handler(move |_| {
                    e.wait();
                })
                .build()
                .unwrap();
            // Dropped before the start handlers can return: the drop must not wait for them.
            drop(pool);
            started.wait();
            exited.wait();
            done.send(()).unwrap();
        });
        finished
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("{policy}: deadlock between the drop and the handlers"));
    }
}

#[test]
fn panics_in_start_and_exit_handlers_reach_the_panic_handler_under_every_policy() {
    for &policy in Policy::ALL {
        let caught = Arc::new(Mutex::new(Vec::new()));
        let c = Arc::clone(&caught);
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(policy)
            .start_handler(|i| panic!("start {i}"))
            .exit_handler(|i| panic!("exit {i}"))
            .panic_handler(move |payload| c.lock().unwrap().push(panic_message(&*payload)))
            .build()
            .unwrap();
        // The workers started normally once the panic handler returned.
        assert_eq!(pool.install(|| fib(18)), fib_seq(18), "{policy}");
        drop(pool);
        wait_unshared(&caught, "caught");
        let mut caught = caught.lock().unwrap().clone();
        caught.sort();
        assert_eq!(
            caught,
            ["exit 0", "exit 1", "start 0", "start 1"],
            "{policy}"
        );
    }
}

#[test]
fn pool_current_thread_index_is_none_off_its_own_workers_under_every_policy() {
    for &policy in Policy::ALL {
        let pool = common::pool(2, policy);
        let other = common::pool(1, policy);
        assert_eq!(pool.current_thread_index(), None, "{policy}: main thread");
        let (mine, free) = pool.install(|| (pool.current_thread_index(), current_thread_index()));
        assert!(mine.is_some_and(|i| i < 2), "{policy}: {mine:?}");
        assert_eq!(mine, free, "{policy}");
        // On the other pool's worker the free function says Some(0); this pool says None.
        let (mine, free) = other.install(|| (pool.current_thread_index(), current_thread_index()));
        assert_eq!(
            (mine, free),
            (None, Some(0)),
            "{policy}: other pool's worker"
        );
        // The same, nested: `pool`'s worker installs on `other`.
        let nested = pool.install(|| other.install(|| pool.current_thread_index()));
        assert_eq!(nested, None, "{policy}: nested in another pool");
        let plain = std::thread::scope(|s| s.spawn(|| pool.current_thread_index()).join());
        assert_eq!(plain.unwrap(), None, "{policy}: a plain thread");
    }
}

#[test]
fn pending_tasks_are_the_local_deque_under_every_policy() {
    for &policy in Policy::ALL {
        // One worker: nobody steals `join`'s second closure while the first runs. Recording
        // task starts keeps a lone `asym` worker's joins in its deque (else both closures
        // run in line, `b` never pending).
        let pool = common::one_worker_keeping_joins_in_its_deque(policy);
        let other = common::one_worker_keeping_joins_in_its_deque(policy);
        assert_eq!(current_thread_has_pending_tasks(), None, "{policy}: main");
        assert_eq!(
            pool.current_thread_has_pending_tasks(),
            None,
            "{policy}: main"
        );
        let got = pool.install(|| {
            let fresh = (
                pool.current_thread_has_pending_tasks(),
                current_thread_has_pending_tasks(),
            );
            let (in_a, in_b) = splitsteal_core::join(
                || {
                    (
                        pool.current_thread_has_pending_tasks(),
                        current_thread_has_pending_tasks(),
                    )
                },
                // `b` was popped to run: the deque is empty again.
                current_thread_has_pending_tasks,
            );
            let after = current_thread_has_pending_tasks();
            (fresh, in_a, in_b, after)
        });
        assert_eq!(
            got,
            (
                (Some(false), Some(false)),
                (Some(true), Some(true)),
                Some(false),
                Some(false)
            ),
            "{policy}"
        );
        // On another pool's worker, this pool says None; the free function answers.
        let there = other.install(|| {
            splitsteal_core::join(
                || {
                    (
                        pool.current_thread_has_pending_tasks(),
                        current_thread_has_pending_tasks(),
                    )
                },
                || (),
            )
            .0
        });
        assert_eq!(there, (None, Some(true)), "{policy}: other pool's worker");
    }
}

#[test]
fn max_num_threads_is_the_cap_and_exceeding_it_is_a_clear_error() {
    let max = max_num_threads();
    assert!(max >= 1);
    assert_eq!(max, splitsteal_core::pool::MAX_THREADS);
    for &policy in Policy::ALL {
        let err: ThreadPoolBuildError = ThreadPoolBuilder::new()
            .num_threads(max + 1)
            .policy(policy)
            .build()
            .unwrap_err();
        assert!(
            matches!(err, BuildError::InvalidConfig(_)),
            "{policy}: {err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("num_threads({})", max + 1))
                && msg.contains(&format!("at most {max} threads")),
            "{policy}: {msg}"
        );
    }
}

// ---- Aborts: run in a child process (this test binary, filtered to one test). ----

/// Set in the child: `<mode>:<policy>`.
const CHILD_ENV: &str = "SPLITSTEAL_BUILDER_API_ABORT_CHILD";
const CHILD_TEST: &str = "unhandled_handler_panics_abort_the_process_under_every_policy";

/// In the child: build a pool whose start handler panics with no panic handler, or with a
/// panic handler that panics too. The process must abort before `install` returns.
fn abort_child(spec: &str) {
    // No core file for the expected abort.
    let no_core = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system call on a valid struct.
    unsafe { libc::setrlimit(libc::RLIMIT_CORE, &no_core) };
    let (mode, policy) = spec.split_once(':').unwrap();
    let policy: Policy = policy.parse().unwrap();
    let builder = ThreadPoolBuilder::new()
        .num_threads(1)
        .policy(policy)
        .start_handler(|_| panic!("start handler boom"));
    let builder = match mode {
        "none" => builder,
        "panicking" => builder.panic_handler(|_| panic!("panic handler boom")),
        _ => unreachable!("{mode}"),
    };
    let pool: ThreadPool = builder.build().unwrap();
    // The single worker runs this only after its start handler returned.
    pool.install(|| ());
    eprintln!("child: still alive");
}

#[test]
fn unhandled_handler_panics_abort_the_process_under_every_policy() {
    if let Ok(spec) = std::env::var(CHILD_ENV) {
        return abort_child(&spec);
    }
    use std::os::unix::process::ExitStatusExt;
    let exe = std::env::current_exe().unwrap();
    for &policy in Policy::ALL {
        for (mode, says) in [
            ("none", "no panic_handler set"),
            (
                "panicking",
                "the panic_handler panicked (panic handler boom)",
            ),
        ] {
            let mut child = Command::new(&exe)
                .args([CHILD_TEST, "--exact", "--nocapture", "--test-threads=1"])
                .env(CHILD_ENV, format!("{mode}:{policy}"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let deadline = Instant::now() + Duration::from_secs(60);
            let status = loop {
                if let Some(status) = child.try_wait().unwrap() {
                    break status;
                }
                if Instant::now() > deadline {
                    child.kill().unwrap();
                    child.wait().unwrap();
                    panic!("{mode}:{policy}: the child did not abort within 60 s");
                }
                std::thread::sleep(Duration::from_millis(10));
            };
            let mut stderr = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
            assert_eq!(
                status.signal(),
                Some(libc::SIGABRT),
                "{mode}:{policy}: {status}; stderr:\n{stderr}"
            );
            assert!(
                stderr.contains(says) && stderr.contains("aborting"),
                "{mode}:{policy}: stderr:\n{stderr}"
            );
            assert!(!stderr.contains("still alive"), "{mode}:{policy}");
        }
    }
}

/// A `join` on the calling thread whose second closure must be stolen: the first waits
/// until the second has run on another thread, making tiny joins meanwhile (pushes, which
/// answer poll requests; the signal policies' handler answers anyway). Returns whether the
/// second closure ran elsewhere.
fn second_half_stolen() -> bool {
    let me = std::thread::current().id();
    let elsewhere = AtomicUsize::new(0); // 0: not run, 1: elsewhere, 2: here
    let deadline = Instant::now() + Duration::from_secs(20);
    splitsteal_core::join(
        || {
            while elsewhere.load(Ordering::Acquire) == 0 && Instant::now() < deadline {
                splitsteal_core::join(|| (), || ());
                std::thread::yield_now();
            }
        },
        || {
            let there = std::thread::current().id() != me;
            elsewhere.store(if there { 1 } else { 2 }, Ordering::Release);
        },
    );
    elsewhere.load(Ordering::Acquire) == 1
}

#[test]
fn use_current_thread_makes_the_caller_worker_0_under_every_policy() {
    for &policy in Policy::ALL {
        // On a thread of its own, so the role never touches the test harness's threads.
        std::thread::spawn(move || {
            let starts = Arc::new(Mutex::new(Vec::new()));
            let exits = Arc::new(Mutex::new(Vec::new()));
            let (s, e) = (Arc::clone(&starts), Arc::clone(&exits));
            let pool = ThreadPoolBuilder::new()
                .num_threads(3)
                .policy(policy)
                .use_current_thread()
                .start_handler(move |i| s.lock().unwrap().push(i))
                .exit_handler(move |i| e.lock().unwrap().push(i))
                .build()
                .unwrap();
            let me = std::thread::current().id();
            // Worker 0 between operations, too.
            assert_eq!(current_thread_index(), Some(0), "{policy}");
            assert_eq!(pool.current_thread_index(), Some(0), "{policy}");
            assert_eq!(splitsteal_core::current_num_threads(), 3, "{policy}");
            assert_eq!(current_thread_has_pending_tasks(), Some(false), "{policy}");
            // `install` runs here; the free functions run on the pool.
            assert_eq!(pool.install(|| std::thread::current().id()), me, "{policy}");
            assert_eq!(pool.install(|| fib(20)), fib_seq(20), "{policy}");
            assert_eq!(fib(18), fib_seq(18), "{policy}: a top-level join");
            assert!(
                !splitsteal_core::join_context(|a| a.migrated(), |_| ()).0,
                "{policy}: worker 0's own join"
            );
            // Its share of a broadcast runs here, the others' on the other workers.
            let ran: Vec<(usize, bool)> =
                pool.broadcast(|ctx| (ctx.index(), std::thread::current().id() == me));
            assert_eq!(ran, [(0, true), (1, false), (2, false)], "{policy}");
            // The others steal from it (signal policies: by signalling this thread).
            assert!(
                second_half_stolen(),
                "{policy}: nothing stolen from worker 0"
            );
            // A scope's tasks run, here or elsewhere.
            let count = AtomicUsize::new(0);
            splitsteal_core::scope(|s| {
                for _ in 0..16 {
                    s.spawn(|_| {
                        count.fetch_add(1, Ordering::Relaxed);
                    });
                }
            });
            assert_eq!(count.load(Ordering::Relaxed), 16, "{policy}");
            // A fire-and-forget spawn from this thread runs on the others.
            let (tx, rx) = std::sync::mpsc::channel();
            splitsteal_core::spawn(move || tx.send(std::thread::current().id()).unwrap());
            assert_ne!(rx.recv().unwrap(), me, "{policy}");
            // No start or exit handler for the borrowed thread. (The spawned job may still
            // be finishing: then the workers exit after it, on their own.)
            drop(pool);
            assert_eq!(current_thread_index(), None, "{policy}: still a worker");
            let deadline = Instant::now() + Duration::from_secs(20);
            while exits.lock().unwrap().len() < 2 && Instant::now() < deadline {
                std::thread::yield_now();
            }
            let (mut starts, mut exits) = (
                starts.lock().unwrap().clone(),
                exits.lock().unwrap().clone(),
            );
            starts.sort();
            exits.sort();
            assert_eq!((starts, exits), (vec![1, 2], vec![1, 2]), "{policy}");
            // The thread is free again, for another pool.
            let pool = ThreadPoolBuilder::new()
                .num_threads(1)
                .policy(policy)
                .use_current_thread()
                .build()
                .unwrap();
            assert_eq!(pool.install(|| fib(15)), fib_seq(15), "{policy}");
        })
        .join()
        .unwrap();
    }
}

#[test]
fn use_current_thread_ends_when_the_pool_is_dropped_elsewhere_or_the_thread_exits() {
    for &policy in Policy::ALL {
        // The pool dropped on another thread: its workers exit, and this thread stops
        // being a worker (it joins the global pool's side again).
        std::thread::spawn(move || {
            let exits = Arc::new(AtomicUsize::new(0));
            let e = Arc::clone(&exits);
            let pool = ThreadPoolBuilder::new()
                .num_threads(2)
                .policy(policy)
                .use_current_thread()
                .exit_handler(move |_| {
                    e.fetch_add(1, Ordering::SeqCst);
                })
                .build()
                .unwrap();
            assert_eq!(pool.install(|| fib(18)), fib_seq(18), "{policy}");
            std::thread::spawn(move || drop(pool)).join().unwrap();
            let deadline = Instant::now() + Duration::from_secs(20);
            while exits.load(Ordering::SeqCst) < 1 && Instant::now() < deadline {
                std::thread::yield_now();
            }
            assert_eq!(exits.load(Ordering::SeqCst), 1, "{policy}: worker 1 exited");
            assert_eq!(current_thread_index(), None, "{policy}");
            // Usable for a new pool right away.
            let again = ThreadPoolBuilder::new()
                .num_threads(2)
                .policy(policy)
                .use_current_thread()
                .build()
                .unwrap();
            assert_eq!(again.install(|| fib(15)), fib_seq(15), "{policy}");
        })
        .join()
        .unwrap();
        // Dropped here with a spawned job still pending (the pool keeps running for it):
        // the role ends at the drop all the same.
        std::thread::spawn(move || {
            let pool = ThreadPoolBuilder::new()
                .num_threads(2)
                .policy(policy)
                .use_current_thread()
                .build()
                .unwrap();
            let (tx, rx) = std::sync::mpsc::channel::<()>();
            pool.spawn(move || rx.recv().unwrap());
            drop(pool);
            assert_eq!(current_thread_index(), None, "{policy}: pending spawn");
            tx.send(()).unwrap();
        })
        .join()
        .unwrap();
        // The thread exits while the pool lives on: the pool keeps working without it,
        // and its signals no longer go to that thread.
        let pool = std::thread::spawn(move || {
            let pool = ThreadPoolBuilder::new()
                .num_threads(3)
                .policy(policy)
                .use_current_thread()
                .build()
                .unwrap();
            assert_eq!(fib(18), fib_seq(18), "{policy}");
            pool
        })
        .join()
        .unwrap();
        for _ in 0..5 {
            assert_eq!(pool.install(|| fib(20)), fib_seq(20), "{policy}");
        }
        let stats = pool.stats();
        assert!(stats.tasks > 0, "{policy}: {stats:?}");
        drop(pool);
    }
}

#[test]
fn use_current_thread_on_a_worker_is_an_error_and_a_mid_operation_drop_waits() {
    let outer = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let err = outer
        .install(|| {
            ThreadPoolBuilder::new()
                .num_threads(2)
                .use_current_thread()
                .build()
        })
        .unwrap_err();
    assert!(
        matches!(err, BuildError::CurrentThreadAlreadyInPool),
        "{err}"
    );
    // rayon-core's words, which its users may compare.
    assert_eq!(
        err.to_string(),
        "The current thread is already part of another thread pool."
    );
    std::thread::spawn(|| {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .use_current_thread()
            .build()
            .unwrap();
        let err = ThreadPoolBuilder::new()
            .num_threads(2)
            .use_current_thread()
            .build()
            .unwrap_err();
        assert!(
            matches!(err, BuildError::CurrentThreadAlreadyInPool),
            "{err}"
        );
        // The last handle dropped inside one of the pool's operations on this thread: the
        // role ends when the operation returns, not under its feet.
        let (during, ()) = splitsteal_core::join(
            move || {
                drop(pool);
                let during = current_thread_index();
                assert_eq!(fib(12), fib_seq(12)); // still runs as worker 0
                during
            },
            || (),
        );
        assert_eq!(during, Some(0));
        assert_eq!(current_thread_index(), None);
    })
    .join()
    .unwrap();
}

#[test]
fn two_semver_incompatible_copies_of_the_runtime_do_not_resolve_into_one_build() {
    // The manifest's `links` value, read from the real Cargo.toml, is declared by two
    // packages named like the runtime at versions 1 and 2 that one crate depends on; Cargo
    // must refuse the graph (a second copy would fight the first over the exposure signal
    // and the global pool at run time). No registry is touched: path dependencies only.
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let links = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("links = "))
        .expect("splitsteal-core's Cargo.toml declares `links`")
        .trim_matches('"')
        .to_owned();
    let dir = std::env::temp_dir().join(format!("splitsteal-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (sub, version) in [("one", "1.0.0"), ("two", "2.0.0")] {
        std::fs::create_dir_all(dir.join(sub).join("src")).unwrap();
        std::fs::write(
            dir.join(sub).join("Cargo.toml"),
            format!(
                "[package]\nname = \"splitsteal-core\"\nversion = \"{version}\"\nedition = \"2021\"\n\
                 links = \"{links}\"\nbuild = \"build.rs\"\n[workspace]\n"
            ),
        )
        .unwrap();
        std::fs::write(dir.join(sub).join("build.rs"), "fn main() {}\n").unwrap();
        std::fs::write(dir.join(sub).join("src/lib.rs"), "").unwrap();
    }
    std::fs::create_dir_all(dir.join("app/src")).unwrap();
    std::fs::write(
        dir.join("app/Cargo.toml"),
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n\
         [dependencies]\none = { package = \"splitsteal-core\", path = \"../one\" }\n\
         two = { package = \"splitsteal-core\", path = \"../two\" }\n",
    )
    .unwrap();
    std::fs::write(dir.join("app/src/lib.rs"), "").unwrap();
    let out = std::process::Command::new(env!("CARGO"))
        .args(["generate-lockfile", "--offline"])
        .current_dir(dir.join("app"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.status.success(), "two copies resolved: {stderr}");
    assert!(
        stderr.contains("links"),
        "refused, but not for `links`: {stderr}"
    );
}

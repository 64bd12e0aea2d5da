use std::num::NonZero;
use std::time::Duration;

use splitsteal::ForkJoin;
use splitsteal_workloads::sched::*;

fn fib<C: ForkJoin>(c: &mut C, n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = c.join(|c| fib(c, n - 1), |c| fib(c, n - 2));
    a + b
}

#[test]
fn names_round_trip_and_bad_names_list_valid_ones() {
    for k in SchedulerKind::all() {
        assert_eq!(k.name().parse::<SchedulerKind>(), Ok(k));
    }
    let e = "tbb".parse::<SchedulerKind>().unwrap_err();
    for name in ["serial", "rayon", "chili", "chase-lev", "lcws-signal"] {
        assert!(e.contains(name), "{e}");
    }
}

#[test]
fn chili_ctx_nests_and_uses_both_threads() {
    let pool = chili::ThreadPool::with_config(chili::Config {
        thread_count: NonZero::new(2),
        heartbeat_interval: Duration::from_micros(5),
    });
    let mut scope = pool.scope();
    let r = ChiliCtx::enter(&mut scope, 2, |c| {
        assert_eq!(c.num_threads(), 2);
        fib(c, 22)
    });
    assert_eq!(r, 17711);
}

#[test]
fn chili_ctx_runs_the_first_closure_first_like_the_others() {
    let pool = chili::ThreadPool::with_config(chili::Config {
        thread_count: NonZero::new(1),
        ..chili::Config::default()
    });
    let mut scope = pool.scope();
    let order = std::sync::Mutex::new(Vec::new());
    let (a, b) = ChiliCtx::enter(&mut scope, 1, |c| {
        c.join(
            |_| {
                order.lock().unwrap().push('a');
                1
            },
            |_| {
                order.lock().unwrap().push('b');
                2
            },
        )
    });
    assert_eq!((a, b), (1, 2));
    assert_eq!(*order.lock().unwrap(), ['a', 'b']);
}

#[test]
fn spawn_then_runs_every_task_once_before_returning_the_body() {
    use std::sync::atomic::{AtomicU32, Ordering};
    struct S(usize);
    impl Workload for S {
        type Input = ();
        type Output = (Vec<u32>, u64, SpawnKind);
        fn input(&self) {}
        fn run<C: BenchCtx>(&self, c: &mut C, _: ()) -> Self::Output {
            let runs: Vec<AtomicU32> = (0..self.0).map(|_| AtomicU32::new(0)).collect();
            let tasks = runs
                .iter()
                .map(|r| {
                    Box::new(move || {
                        r.fetch_add(1, Ordering::Relaxed);
                    }) as SpawnTask<'_>
                })
                .collect();
            let body = c.spawn_then(tasks, |c| fib(c, 15));
            let runs = runs.iter().map(|r| r.load(Ordering::Relaxed)).collect();
            (runs, body, C::SPAWN)
        }
        fn check(&self, _: &Self::Output) -> Result<(), String> {
            Ok(())
        }
    }
    for kind in SchedulerKind::all() {
        for threads in [1, 2] {
            let s = Scheduler::build(kind, threads).unwrap();
            for n in [0, 1, 4, 33] {
                let (runs, body, spawn) = s.run(&S(n), ()).output;
                assert_eq!(runs, vec![1; n], "{} with {n} tasks", s.label());
                assert_eq!(body, 610, "{}", s.label());
                assert_eq!(spawn, kind.spawn_kind());
            }
        }
    }
    assert_eq!(SchedulerKind::Chili.spawn_kind(), SpawnKind::JoinEmulated);
    assert_eq!(SchedulerKind::Rayon.spawn_kind(), SpawnKind::Scope);
    assert_eq!(SchedulerKind::Serial.spawn_kind(), SpawnKind::Inline);
}

#[test]
fn rayon_ctx_reports_pool_size() {
    let s = Scheduler::build(SchedulerKind::Rayon, 2).unwrap();
    struct N;
    impl Workload for N {
        type Input = ();
        type Output = usize;
        fn input(&self) {}
        fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> usize {
            c.num_threads()
        }
        fn check(&self, _: &usize) -> Result<(), String> {
            Ok(())
        }
    }
    assert_eq!(s.run(&N, ()).output, 2);
    let s = Scheduler::build(SchedulerKind::Chili, 2).unwrap();
    assert_eq!(s.run(&N, ()).output, 2);
    let s = Scheduler::build(SchedulerKind::Serial, 2).unwrap();
    assert_eq!(s.run(&N, ()).output, 1);
    assert_eq!(s.threads(), 1);
}

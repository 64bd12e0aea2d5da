//! `latency`: start latency of spawned tasks (low-latency thesis, §4.2.2: the
//! hybrid scheduler's experiment).
//!
//! An origin task records `t0` and spawns `n` tasks as a spawn loop written with `join`:
//! `spawn(i) = join(|| spawn(i + 1), || task(i))`: every scheduler runs the first closure
//! and offers the second (the chili adapter swaps chili's native order, see
//! [`crate::sched::ChiliCtx`]), so the origin offers task 0, 1, … while it keeps spawning,
//! and thieves take the oldest first. (chili shares work only on its heartbeat, every
//! 100 µs by default, which shows in its first-steal delays.) Each task reads
//! the clock and its thread on entry, then spins for [`TASK_SPIN`] so that there is
//! something to steal. The start delay of a task is its start time minus `t0`.
//!
//! Until the runtime offers its opt-in start-latency recorder, this is measured in the
//! workload itself, identically for every scheduler.

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use splitsteal::ForkJoin;

use super::Workload;

/// How long each task spins after recording its start.
pub const TASK_SPIN: Duration = Duration::from_micros(5);

static NEXT_THREAD: AtomicUsize = AtomicUsize::new(1);

thread_local! {
    static THREAD: Cell<usize> = const { Cell::new(0) };
}

/// A small per-thread id (cheaper than `thread::current().id()`).
pub fn thread_tag() -> usize {
    THREAD.with(|t| {
        if t.get() == 0 {
            t.set(NEXT_THREAD.fetch_add(1, Ordering::Relaxed));
        }
        t.get()
    })
}

/// Per-task record, written by the task.
#[derive(Debug, Default)]
pub struct Slot {
    start_ns: AtomicU64,
    thread: AtomicUsize,
    runs: AtomicU32,
}

/// What one run of the experiment observed.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencySample {
    /// Start delay of the first task that started on another thread than the origin's.
    pub first_other: Option<Duration>,
    /// Start delay of the last task to start.
    pub last: Duration,
    /// How many tasks ran on another thread than the origin's.
    pub on_other: usize,
    /// `Err` if some task did not run exactly once.
    pub exactly_once: Result<(), String>,
}

struct Ctx<'a> {
    t0: Instant,
    slots: &'a [Slot],
}

fn task(cx: &Ctx<'_>, i: usize) {
    let now = Instant::now();
    let s = &cx.slots[i];
    s.start_ns.store(
        now.duration_since(cx.t0).as_nanos() as u64,
        Ordering::Relaxed,
    );
    s.thread.store(thread_tag(), Ordering::Relaxed);
    s.runs.fetch_add(1, Ordering::Relaxed);
    while now.elapsed() < TASK_SPIN {
        std::hint::spin_loop();
    }
}

fn spawn<C: ForkJoin>(c: &mut C, cx: &Ctx<'_>, i: usize) {
    if i + 1 == cx.slots.len() {
        task(cx, i);
        return;
    }
    c.join(|c| spawn(c, cx, i + 1), |_| task(cx, i));
}

/// The experiment with `n` tasks.
#[derive(Debug)]
pub struct StartLatency {
    /// Number of spawned tasks.
    pub n: usize,
}

impl Workload for StartLatency {
    type Input = Vec<Slot>;
    type Output = (Vec<Slot>, usize);

    fn input(&self) -> Vec<Slot> {
        (0..self.n).map(|_| Slot::default()).collect()
    }

    fn run<C: ForkJoin>(&self, c: &mut C, slots: Vec<Slot>) -> (Vec<Slot>, usize) {
        let origin = thread_tag();
        let cx = Ctx {
            t0: Instant::now(),
            slots: &slots,
        };
        if !slots.is_empty() {
            spawn(c, &cx, 0);
        }
        (slots, origin)
    }

    fn check(&self, out: &(Vec<Slot>, usize)) -> Result<(), String> {
        summarize(out).exactly_once
    }
}

/// Summarizes one run's slots.
pub fn summarize((slots, origin): &(Vec<Slot>, usize)) -> LatencySample {
    let mut first_other: Option<u64> = None;
    let mut last = 0;
    let mut on_other = 0;
    let mut exactly_once = Ok(());
    for (i, s) in slots.iter().enumerate() {
        let runs = s.runs.load(Ordering::Relaxed);
        if runs != 1 && exactly_once.is_ok() {
            exactly_once = Err(format!("task {i} ran {runs} times"));
        }
        let t = s.start_ns.load(Ordering::Relaxed);
        last = last.max(t);
        if s.thread.load(Ordering::Relaxed) != *origin {
            on_other += 1;
            first_other = Some(first_other.map_or(t, |f| f.min(t)));
        }
    }
    LatencySample {
        first_other: first_other.map(Duration::from_nanos),
        last: Duration::from_nanos(last),
        on_other,
        exactly_once,
    }
}

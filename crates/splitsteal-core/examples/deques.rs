//! Deque micro-benchmark (a measurement, not a test).
//!
//! ```text
//! cargo run --release -p splitsteal-core --example deques [-- REPS]
//! ```
//!
//! For each deque (the four of `splitsteal_core::deque` and `crossbeam-deque`'s Chase-Lev
//! `Worker`/`Stealer`, taken in the same run) it prints:
//!
//! - **push+pop, empty**: ns per owner `push` + `pop` pair on one thread when the deque is
//!   otherwise empty (ABP/Chase-Lev/crossbeam: every pop races for the last task: fence +
//!   CAS; split: a private push and pop);
//! - **push+pop, 16 below**: the same with 16 older tasks underneath (the pop is not the
//!   last task: one fence for ABP/Chase-Lev/crossbeam);
//! - **steals/s**: one thief thread taking 1,000,000 prefilled tasks (exposed first for the
//!   split deque) while the owner waits, in tasks per second.
//!
//! Every figure is the median over REPS repetitions (default 7); each repetition runs every
//! deque once, in turn, so slow drifts of the machine hit all deques alike. Times are the
//! measuring thread's CPU time, not wall time, so the figures hold on a shared machine
//! (descheduled slices do not count; cache pollution by neighbours still does).

use std::hint::black_box;
use std::num::NonZeroUsize;
use std::time::Duration;

use splitsteal_core::deque::{Abp, ChaseLev, Exposure, Locked, Owner, Split, Steal, Stealer};

type Task = NonZeroUsize;

const PAIRS: usize = 10_000_000;
const BELOW: usize = 16;
const STEALS: usize = 1_000_000;

fn t(i: usize) -> Task {
    NonZeroUsize::new(i).unwrap()
}

/// One deque under measurement.
trait Bench {
    const NAME: &'static str;
    /// ns per push+pop pair with `below` tasks underneath.
    fn pairs(below: usize) -> f64;
    /// Tasks per second taken by one thief from `STEALS` prefilled tasks.
    fn steals() -> f64;
}

/// A clock of the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): time slices lost
/// to other processes on a shared machine do not count.
#[derive(Clone, Copy)]
struct Instant(Duration);

impl Instant {
    fn now() -> Instant {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid out-pointer; the clock id is supported on Linux.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0, "clock_gettime failed");
        Instant(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }

    fn elapsed(self) -> Duration {
        Instant::now().0 - self.0
    }
}

fn ns_per(elapsed: Duration, n: usize) -> f64 {
    elapsed.as_secs_f64() * 1e9 / n as f64
}

/// The owner's loop, shared by every deque of this crate (monomorphized per deque). The
/// popped values are summed (and the sum returned) so nothing is optimized away without
/// adding stack traffic to every iteration.
#[inline(never)]
fn pair_loop<O: Owner<Task>>(d: &mut O, n: usize) -> usize {
    let mut sum = 0usize;
    for i in 1..=n {
        d.push(t(i)).unwrap();
        sum = sum.wrapping_add(d.pop().map_or(0, NonZeroUsize::get));
    }
    sum
}

fn pairs_of<O: Owner<Task>>(below: usize) -> f64 {
    let mut d = O::with_capacity(64);
    for i in 0..below {
        d.push(t(usize::MAX - i)).unwrap();
    }
    black_box(pair_loop(&mut d, PAIRS / 10)); // warm-up
    let start = Instant::now();
    black_box(pair_loop(&mut d, PAIRS));
    ns_per(start.elapsed(), PAIRS)
}

/// Prefills `STEALS` tasks, makes them stealable with `publish`, and times one thief.
fn steals_of<O: Owner<Task>>(publish: impl FnOnce(&mut O)) -> f64
where
    O::Stealer: 'static,
{
    let mut d = O::with_capacity(STEALS);
    for i in 1..=STEALS {
        d.push(t(i)).unwrap();
    }
    publish(&mut d);
    let s = d.stealer();
    let elapsed = std::thread::spawn(move || {
        let start = Instant::now();
        let mut got = 0;
        while got < STEALS {
            match s.steal() {
                Steal::Success(v) => {
                    black_box(v);
                    got += 1;
                }
                Steal::Abort => {}
                other => panic!("unexpected {other:?} with tasks left"),
            }
        }
        start.elapsed()
    })
    .join()
    .unwrap();
    drop(d);
    STEALS as f64 / elapsed.as_secs_f64()
}

struct LockedBench;
struct AbpBench;
struct ChaseLevBench;
struct SplitBench;
struct CrossbeamBench;

impl Bench for LockedBench {
    const NAME: &'static str = "Locked (mutex)";
    fn pairs(below: usize) -> f64 {
        pairs_of::<Locked<Task>>(below)
    }
    fn steals() -> f64 {
        steals_of::<Locked<Task>>(|_| {})
    }
}

impl Bench for AbpBench {
    const NAME: &'static str = "Abp";
    fn pairs(below: usize) -> f64 {
        pairs_of::<Abp<Task>>(below)
    }
    fn steals() -> f64 {
        steals_of::<Abp<Task>>(|_| {})
    }
}

impl Bench for ChaseLevBench {
    const NAME: &'static str = "ChaseLev";
    fn pairs(below: usize) -> f64 {
        pairs_of::<ChaseLev<Task>>(below)
    }
    fn steals() -> f64 {
        steals_of::<ChaseLev<Task>>(|_| {})
    }
}

impl Bench for SplitBench {
    const NAME: &'static str = "Split (private)";
    fn pairs(below: usize) -> f64 {
        pairs_of::<Split<Task>>(below)
    }
    fn steals() -> f64 {
        steals_of::<Split<Task>>(|d| while d.expose(Exposure::Half) > 0 {})
    }
}

impl Bench for CrossbeamBench {
    const NAME: &'static str = "crossbeam-deque";
    fn pairs(below: usize) -> f64 {
        #[inline(never)]
        fn pair_loop(w: &crossbeam_deque::Worker<Task>, n: usize) -> usize {
            let mut sum = 0usize;
            for i in 1..=n {
                w.push(t(i));
                sum = sum.wrapping_add(w.pop().map_or(0, NonZeroUsize::get));
            }
            sum
        }
        let w = crossbeam_deque::Worker::new_lifo();
        for i in 0..below {
            w.push(t(usize::MAX - i));
        }
        black_box(pair_loop(&w, PAIRS / 10));
        let start = Instant::now();
        black_box(pair_loop(&w, PAIRS));
        ns_per(start.elapsed(), PAIRS)
    }
    fn steals() -> f64 {
        let w = crossbeam_deque::Worker::new_lifo();
        for i in 1..=STEALS {
            w.push(t(i));
        }
        let s = w.stealer();
        let elapsed = std::thread::spawn(move || {
            let start = Instant::now();
            let mut got = 0;
            while got < STEALS {
                match s.steal() {
                    crossbeam_deque::Steal::Success(v) => {
                        black_box(v);
                        got += 1;
                    }
                    crossbeam_deque::Steal::Retry => {}
                    crossbeam_deque::Steal::Empty => panic!("empty with tasks left"),
                }
            }
            start.elapsed()
        })
        .join()
        .unwrap();
        drop(w);
        STEALS as f64 / elapsed.as_secs_f64()
    }
}

/// Samples of one deque: (push+pop empty, push+pop with `BELOW` below, steals/s).
#[derive(Default)]
struct Samples {
    name: &'static str,
    empty: Vec<f64>,
    below: Vec<f64>,
    steals: Vec<f64>,
}

fn sample<B: Bench>(s: &mut Samples) {
    s.name = B::NAME;
    s.empty.push(B::pairs(0));
    s.below.push(B::pairs(BELOW));
    s.steals.push(B::steals());
}

/// Reference points for reading the table: a `Vec` push+pop (the same loop with no
/// synchronization and no signal-safety ordering: the floor), and one `fence(SeqCst)`
/// after a store (what every ABP/Chase-Lev/crossbeam pop pays on top).
fn references() -> (f64, f64) {
    #[inline(never)]
    fn vec_loop(v: &mut Vec<Task>, n: usize) -> usize {
        let mut sum = 0usize;
        for i in 1..=n {
            v.push(t(i));
            sum = sum.wrapping_add(v.pop().map_or(0, NonZeroUsize::get));
        }
        sum
    }
    #[inline(never)]
    fn fence_loop(x: &std::sync::atomic::AtomicUsize, n: usize) {
        for i in 0..n {
            x.store(i, std::sync::atomic::Ordering::Relaxed);
            std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        }
    }
    let mut v = Vec::with_capacity(64);
    black_box(vec_loop(&mut v, PAIRS / 10));
    let start = Instant::now();
    black_box(vec_loop(&mut v, PAIRS));
    let vec = ns_per(start.elapsed(), PAIRS);
    let x = std::sync::atomic::AtomicUsize::new(0);
    fence_loop(&x, PAIRS / 10);
    let start = Instant::now();
    fence_loop(&x, PAIRS);
    let fence = ns_per(start.elapsed(), PAIRS);
    (vec, fence)
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("REPS must be a number"))
        .unwrap_or(7);
    let mut all: [Samples; 5] = Default::default();
    let (mut vec, mut fence) = (Vec::new(), Vec::new());
    for rep in 0..reps {
        eprint!("repetition {}/{reps}\r", rep + 1);
        sample::<LockedBench>(&mut all[0]);
        sample::<AbpBench>(&mut all[1]);
        sample::<ChaseLevBench>(&mut all[2]);
        sample::<SplitBench>(&mut all[3]);
        sample::<CrossbeamBench>(&mut all[4]);
        let (v, f) = references();
        vec.push(v);
        fence.push(f);
    }
    eprintln!();
    println!(
        "medians of {reps} repetitions; {PAIRS} pairs, {STEALS} steals per sample\n\n\
         | deque | push+pop, empty (ns/pair) | push+pop, {BELOW} below (ns/pair) | steals/s (1 thief) |\n\
         |---|---:|---:|---:|"
    );
    for s in &all {
        println!(
            "| {} | {:.2} | {:.2} | {:.1} M |",
            s.name,
            median(&s.empty),
            median(&s.below),
            median(&s.steals) / 1e6
        );
    }
    println!(
        "\nreferences: Vec push+pop {:.2} ns/pair; store + fence(SeqCst) {:.2} ns",
        median(&vec),
        median(&fence)
    );
    let (split_empty, split_below) = (median(&all[3].empty), median(&all[3].below));
    let (cb_empty, cb_below) = (median(&all[4].empty), median(&all[4].below));
    println!(
        "split private push+pop: {split_empty:.2} / {split_below:.2} ns/pair (target <= 2 ns); \
         vs crossbeam-deque: {:.1}x cheaper on an empty deque, {:.1}x with {BELOW} below \
         (target >= 3x)",
        cb_empty / split_empty,
        cb_below / split_below,
    );
}

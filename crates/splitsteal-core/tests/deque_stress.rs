//! Stress: one owner pushing and popping in random bursts, several thieves stealing, millions
//! of tasks per deque; every task must be taken exactly once.
//!
//! Each thread sums what it took: a count, the plain sum and a sum of a 64-bit mix of each
//! value (all wrapping). A lost task changes the count; a task taken twice plus a lost one
//! would have to collide in both sums. The harness is written once, generic over
//! [`Owner`]; the split deque's owner also answers the thieves' exposure requests
//! (a thief that sees [`Steal::PrivateWork`] raises a flag the owner polls, as in LCWS).
//!
//! Size: `SPLITSTEAL_STRESS_TASKS` tasks per deque (default 16,000,000 in release builds and
//! 2,000,000 in debug builds, so the file stays within a minute on two shared cores).

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use splitsteal_core::deque::{Abp, ChaseLev, Exposure, Full, Locked, Owner, Split, Steal, Stealer};

type Task = NonZeroUsize;

const THIEVES: usize = 3;

fn tasks() -> usize {
    std::env::var("SPLITSTEAL_STRESS_TASKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            2_000_000
        } else {
            16_000_000
        })
}

/// A 64-bit mix (splitmix64's finalizer).
fn mix(v: usize) -> u64 {
    let mut z = (v as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What one thread took.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Tally {
    count: u64,
    sum: u64,
    mixed: u64,
}

impl Tally {
    fn take(&mut self, t: Task) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(t.get() as u64);
        self.mixed = self.mixed.wrapping_add(mix(t.get()));
    }

    fn add(self, o: Tally) -> Tally {
        Tally {
            count: self.count + o.count,
            sum: self.sum.wrapping_add(o.sum),
            mixed: self.mixed.wrapping_add(o.mixed),
        }
    }
}

/// A tiny xorshift generator (deterministic per run, no dependency).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The owner's answer to exposure requests (a no-op for deques whose pushes are public).
trait Poll {
    fn poll(&mut self, _requested: &AtomicBool, _rng: &mut Rng) {}
}

impl Poll for Abp<Task> {}
impl Poll for ChaseLev<Task> {}
impl Poll for Locked<Task> {}

impl Poll for Split<Task> {
    fn poll(&mut self, requested: &AtomicBool, rng: &mut Rng) {
        // Relaxed: a hint; a lost or late request only delays an exposure (the LCWS paper's
        // Lemma 9 argument covers an overwritten notification).
        // Also exposes unasked now and then, sometimes everything, so that thieves find
        // public work often and the owner's pops race them in `pop_public_bottom`.
        if requested.load(Ordering::Relaxed) || rng.below(8) == 0 {
            requested.store(false, Ordering::Relaxed);
            match rng.below(4) {
                0 => _ = self.expose(Exposure::One),
                1 => _ = self.expose(Exposure::Conservative),
                2 => _ = self.expose(Exposure::Half),
                _ => while self.expose(Exposure::Half) > 0 {},
            }
        }
    }
}

/// Raises its flag if dropped while panicking: a failed assertion on the owner's thread
/// then stops the thieves instead of leaving them waiting for a drained deque (a hang).
struct AbortOnPanic<'a>(&'a AtomicBool);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            // Release: nothing to publish really; pairs with the thieves' Acquire.
            self.0.store(true, Ordering::Release);
        }
    }
}

/// Tasks kept for the end of the run (see `stress`).
const RESERVE: usize = 64;

/// Pushes task `v`; on `Full` (the ABP and split rings hold `capacity` tasks), pops one
/// task instead to make room, and returns false.
fn push<D: Owner<Task>>(d: &mut D, v: usize, tally: &mut Tally) -> bool {
    match d.push(NonZeroUsize::new(v).unwrap()) {
        Ok(()) => true,
        Err(Full(_)) => {
            if let Some(t) = d.pop() {
                tally.take(t);
            }
            false
        }
    }
}

/// Asserts that the owner's and the thieves' tallies together took tasks `1..=n` once
/// each; returns how many the thieves took.
fn assert_each_taken_once(name: &str, n: usize, owner: Tally, thieves: &[Tally]) -> u64 {
    let total = thieves.iter().fold(owner, |a, &b| a.add(b));
    let want = (1..=n).fold(Tally::default(), |mut t, v| {
        t.take(NonZeroUsize::new(v).unwrap());
        t
    });
    assert_eq!(total, want, "{name}: a task was lost or taken twice");
    total.count - owner.count
}

/// Runs the stress on deque `D`: asserts exactly-once and returns the thieves' share.
fn stress<D: Owner<Task> + Poll>(name: &str, capacity: usize) -> u64 {
    let n = tasks();
    let mut d = D::with_capacity(capacity);
    let stealer = d.stealer();
    let done = AtomicBool::new(false);
    let requested = AtomicBool::new(false);
    let stole_any = AtomicBool::new(false);
    let aborted = AtomicBool::new(false);
    let start = Instant::now();
    let (owner, thieves) = std::thread::scope(|scope| {
        let thieves: Vec<_> = (0..THIEVES)
            .map(|_| {
                let s = stealer.clone();
                let (done, requested, stole_any) = (&done, &requested, &stole_any);
                let aborted = &aborted;
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    let mut failures = 0u32;
                    loop {
                        match s.steal() {
                            Steal::Success(t) => {
                                tally.take(t);
                                if tally.count == 1 {
                                    // Release: see the owner's wait.
                                    stole_any.store(true, Ordering::Release);
                                }
                                continue;
                            }
                            Steal::Abort => {}
                            Steal::PrivateWork => {
                                // Relaxed: a hint (see `Poll`).
                                requested.store(true, Ordering::Relaxed);
                            }
                            Steal::Empty => {
                                // Acquire: after the owner's final drain, the deque is
                                // empty for good.
                                if done.load(Ordering::Acquire) && s.is_empty() {
                                    break;
                                }
                            }
                        }
                        // Acquire: the owner panicked; the test fails there.
                        if aborted.load(Ordering::Acquire) {
                            break;
                        }
                        // Spin a little, then let the owner run (two cores are shared).
                        failures = failures.wrapping_add(1);
                        if failures.is_multiple_of(32) {
                            std::thread::yield_now();
                        } else {
                            std::hint::spin_loop();
                        }
                    }
                    tally
                })
            })
            .collect();
        let _abort = AbortOnPanic(&aborted);
        let mut tally = Tally::default();
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut next = 1;
        // The last `RESERVE` tasks are pushed at the end and left to the thieves until one
        // of them has stolen something, so every run exercises steals (no timing involved).
        let main = n.saturating_sub(RESERVE);
        let mut round = 0usize;
        while next <= main {
            d.poll(&requested, &mut rng);
            // Alternating phases of 256 rounds: bursts of 0..12 pushes against 0..8 pops
            // (the deque fills up, thieves find work) or 0..16 pops (it drains to zero, the
            // owner and the thieves race for the last tasks).
            round += 1;
            let max_pops = if (round / 256).is_multiple_of(2) {
                8
            } else {
                16
            };
            for _ in 0..rng.below(12) {
                if next > main {
                    break;
                }
                if !push(&mut d, next, &mut tally) {
                    break;
                }
                next += 1;
            }
            for _ in 0..rng.below(max_pops) {
                if let Some(t) = d.pop() {
                    tally.take(t);
                }
            }
        }
        while next <= n {
            if push(&mut d, next, &mut tally) {
                next += 1;
            }
        }
        // Acquire: pairs with the thief's Release after a successful steal.
        while !stole_any.load(Ordering::Acquire) {
            d.poll(&AtomicBool::new(true), &mut rng);
            std::thread::yield_now();
        }
        while let Some(t) = d.pop() {
            tally.take(t);
        }
        assert_eq!(d.len(), 0);
        // Release: the thieves' final `is_empty` sees the drained deque.
        done.store(true, Ordering::Release);
        let thieves: Vec<Tally> = thieves.into_iter().map(|h| h.join().unwrap()).collect();
        (tally, thieves)
    });
    let stolen = assert_each_taken_once(name, n, owner, &thieves);
    println!(
        "{name}: {n} tasks in {:.2?}, {stolen} stolen by {THIEVES} thieves",
        start.elapsed()
    );
    stolen
}

#[test]
fn abp_exactly_once() {
    stress::<Abp<Task>>("abp", 256);
}

#[test]
fn chase_lev_exactly_once() {
    // A small initial buffer: the owner's bursts grow and shrink it constantly.
    stress::<ChaseLev<Task>>("chase-lev", 2);
}

#[test]
fn split_exactly_once() {
    stress::<Split<Task>>("split", 256);
}

/// A producer on a split deque of capacity 4 (eight slots): it pushes every task, exposes
/// one task after half of the pushes and pops only now and then, while thieves steal, so its indices drift up to the
/// last slot over and over, where it moves its tasks down to index 0 (or, with a task still
/// public there, gets `Full` and keeps the task, as the runtime runs it inline). Every
/// task must be taken exactly once.
#[test]
fn split_producer_at_the_last_slot_exactly_once() {
    let n = tasks() / 8;
    let mut d: Split<Task> = Split::with_capacity(4);
    let stealer = d.stealer();
    let done = AtomicBool::new(false);
    let (owner, thieves) = std::thread::scope(|scope| {
        let thieves: Vec<_> = (0..THIEVES)
            .map(|_| {
                let s = stealer.clone();
                let done = &done;
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    loop {
                        match s.steal() {
                            Steal::Success(t) => tally.take(t),
                            // Acquire: after the owner's final drain, empty for good.
                            Steal::Empty if done.load(Ordering::Acquire) && s.is_empty() => break,
                            _ => std::thread::yield_now(),
                        }
                    }
                    tally
                })
            })
            .collect();
        let mut tally = Tally::default();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for v in 1..=n {
            let task = NonZeroUsize::new(v).unwrap();
            if let Err(Full(task)) = d.push(task) {
                tally.take(task);
            }
            // Half the pushes exposed: private tasks are left to move down.
            if rng.below(2) == 0 {
                d.expose(Exposure::One);
            }
            if rng.below(16) == 0
                && let Some(t) = d.pop()
            {
                tally.take(t);
            }
        }
        while let Some(t) = d.pop() {
            tally.take(t);
        }
        // Release: the thieves' final `is_empty` sees the drained deque.
        done.store(true, Ordering::Release);
        let thieves: Vec<Tally> = thieves.into_iter().map(|h| h.join().unwrap()).collect();
        (tally, thieves)
    });
    let stolen = assert_each_taken_once("split producer", n, owner, &thieves);
    println!("split producer: {n} tasks, {stolen} stolen by {THIEVES} thieves");
}

#[test]
fn locked_exactly_once() {
    stress::<Locked<Task>>("locked", 16);
}

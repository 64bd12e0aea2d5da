//! [`ForkJoin`]: the one trait parallel code is written against.
//!
//! The data-parallel primitives (`splitsteal::par`) and the benchmark workloads are generic
//! over it, so the same algorithm runs on every splitsteal policy, on rayon, on chili and
//! serially; only the scheduler differs. The context is passed down explicitly (chili's
//! style) because some schedulers need it; splitsteal's own context, [`Current`](crate::Current), is a
//! zero-sized handle to whatever pool the calling thread is in.

/// A fork-join scheduler, seen from inside a task.
pub trait ForkJoin: Sized {
    /// Runs `a` and `b`, potentially in parallel, and returns both results. A panic in
    /// either closure propagates after both have finished (splitsteal and [`Serial`] run
    /// `b` even when `a` panics; other schedulers may skip a side that had not started).
    fn join<A, B, RA, RB>(&mut self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(&mut Self) -> RA + Send,
        B: FnOnce(&mut Self) -> RB + Send,
        RA: Send,
        RB: Send;

    /// The number of worker threads that may run tasks in parallel.
    fn num_threads(&self) -> usize;

    /// The morsel size in bytes: data-parallel leaves write whole blocks of this many
    /// bytes of an output slice, aligned to it, so two workers never share a cache line.
    fn morsel_bytes(&self) -> usize {
        DEFAULT_MORSEL_BYTES
    }

    /// How the scheduler would like the next fork's work divided, as worker shares
    /// `(a, b)`: `Some` only when it distributes work by mailing (`hybrid`), whose
    /// uneven strategy gives `b` one worker's share. Data-parallel code splits its range in
    /// this proportion; `None` (the default) means "split evenly".
    fn split_hint(&self) -> Option<(usize, usize)> {
        None
    }
}

/// Default morsel size (see [`ForkJoin::morsel_bytes`]): two cache lines, since some
/// CPUs fetch adjacent-line pairs (as the low-latency thesis pads).
pub const DEFAULT_MORSEL_BYTES: usize = 128;

/// Runs `a`, then `b` even if `a` panicked, then resumes `a`'s panic: a join's contract
/// when both closures run on the calling thread (the serial elision, a join whose second
/// closure was never published).
#[inline(always)]
pub(crate) fn run_both<RA, RB>(a: impl FnOnce() -> RA, b: impl FnOnce() -> RB) -> (RA, RB) {
    let ra = std::panic::catch_unwind(std::panic::AssertUnwindSafe(a));
    let rb = b();
    match ra {
        Ok(ra) => (ra, rb),
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// The serial elision: `join(a, b)` runs `a` then `b` on the calling thread.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use splitsteal::{ForkJoin, Serial};
///
/// fn fib<C: ForkJoin>(c: &mut C, n: u64) -> u64 {
///     if n < 2 {
///         return n;
///     }
///     let (a, b) = c.join(|c| fib(c, n - 1), |c| fib(c, n - 2));
///     a + b
/// }
/// assert_eq!(fib(&mut Serial, 20), 6765);
/// ```
#[derive(Debug, Default, Clone, Copy)]
pub struct Serial;

impl ForkJoin for Serial {
    #[inline(always)]
    fn join<A, B, RA, RB>(&mut self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(&mut Self) -> RA + Send,
        B: FnOnce(&mut Self) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        run_both(|| a(&mut Serial), || b(&mut Serial))
    }

    fn num_threads(&self) -> usize {
        1
    }
}

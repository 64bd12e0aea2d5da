//! Shared by the parallel-iterator tests: the pools every property runs on, and the
//! awkward lengths every adaptor and consumer is checked at.
#![allow(dead_code)]

use std::sync::{Once, OnceLock};

use splitsteal::{Policy, ThreadPool, ThreadPoolBuilder};

/// Lengths where splitting goes wrong if it can: empty, one, two, primes, and 10^6.
pub const LENGTHS: &[usize] = &[0, 1, 2, 3, 7, 13, 97, 1009, 10_007, 1_000_000];

/// The same lengths without the largest, for quadratic or allocation-heavy checks.
pub const SMALL_LENGTHS: &[usize] = &[0, 1, 2, 3, 7, 13, 97, 1009, 10_007];

/// One named place to run a closure: a pool, or a pool inside another pool.
pub struct Place {
    pub name: String,
    outer: Option<&'static ThreadPool>,
    inner: &'static ThreadPool,
}

impl Place {
    /// Runs `f` here and returns its result.
    pub fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match self.outer {
            Some(outer) => outer.install(|| self.inner.install(f)),
            None => self.inner.install(f),
        }
    }
}

fn pool(threads: usize, policy: Policy) -> &'static ThreadPool {
    Box::leak(Box::new(
        ThreadPoolBuilder::new()
            .num_threads(threads)
            .policy(policy)
            .build()
            .expect("test pool"),
    ))
}

/// A one-thread pool (the serial case), every policy at two threads, and a two-thread
/// pool nested inside another pool's worker. Built once per test binary.
pub fn places() -> &'static [Place] {
    static PLACES: OnceLock<Vec<Place>> = OnceLock::new();
    PLACES.get_or_init(|| {
        let mut places = vec![Place {
            name: "serial (1 thread)".into(),
            outer: None,
            inner: pool(1, Policy::ChaseLev),
        }];
        for &policy in Policy::ALL {
            places.push(Place {
                name: format!("{policy} x2"),
                outer: None,
                inner: pool(2, policy),
            });
        }
        places.push(Place {
            name: "chase-lev x2 nested in lcws-signal x2".into(),
            outer: Some(pool(2, Policy::LcwsSignal)),
            inner: pool(2, Policy::ChaseLev),
        });
        places
    })
}

/// Runs `check` in every place; the place's name is in the panic message if one fails.
pub fn everywhere(check: impl Fn() + Sync) {
    for place in places() {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| place.run(&check)));
        if let Err(e) = result {
            eprintln!("failed on {}", place.name);
            std::panic::resume_unwind(e);
        }
    }
}

/// A deterministic pseudo-random vector of `n` values below `modulo`.
pub fn data(n: usize, modulo: u64) -> Vec<u64> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ n as u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % modulo
        })
        .collect()
}

/// `0..n` as an iterator that does not know its length (`opt_len` is `None`) and splits
/// in halves through `UnindexedProducer`, as `filter` or `par_bridge` would: the path
/// where consumers are split with `split_off_left`.
pub struct Unindexed {
    start: usize,
    end: usize,
}

pub fn unindexed(n: usize) -> Unindexed {
    Unindexed { start: 0, end: n }
}

impl splitsteal::iter::ParallelIterator for Unindexed {
    type Item = usize;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: splitsteal::iter::plumbing::UnindexedConsumer<usize>,
    {
        splitsteal::iter::plumbing::bridge_unindexed(self, consumer)
    }
}

impl splitsteal::iter::plumbing::UnindexedProducer for Unindexed {
    type Item = usize;

    fn split(self) -> (Self, Option<Self>) {
        let len = self.end - self.start;
        if len < 2 {
            return (self, None);
        }
        let mid = self.start + len / 2;
        (
            Unindexed {
                start: self.start,
                end: mid,
            },
            Some(Unindexed {
                start: mid,
                end: self.end,
            }),
        )
    }

    fn fold_with<F>(self, folder: F) -> F
    where
        F: splitsteal::iter::plumbing::Folder<usize>,
    {
        folder.consume_iter(self.start..self.end)
    }
}

/// The payload of the panics the tests cause on purpose (their messages are not printed).
pub const PLANNED: &str = "planned panic";

/// Panics with [`PLANNED`] as the payload.
pub fn planned() -> ! {
    std::panic::panic_any(PLANNED)
}

/// Hides the planned panics' messages; any other panic is reported as usual.
pub fn quiet_planned_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<&str>() != Some(&PLANNED) {
                default(info);
            }
        }));
    });
}

//! `fib`: the naive doubly recursive Fibonacci with a `join` at every call and no cutoff
//! (the low-latency thesis's fine-grained benchmark, §4.2.1; the regular dag of the LCWS
//! paper's simulations, §5).

use splitsteal::ForkJoin;

use super::{DynWorkload, Group, Size, Workload, WorkloadSpec};

/// `fib(n)` with a fork at every call.
pub fn fib<C: ForkJoin>(c: &mut C, n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    let (a, b) = c.join(|c| fib(c, n - 1), |c| fib(c, n - 2));
    a + b
}

/// Reference: the iterative Fibonacci.
pub fn fib_reference(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

/// Number of `join` calls `fib(n)` makes (the work, in forks): `fib(n+1) - 1`.
pub fn fib_joins(n: u32) -> u64 {
    fib_reference(n + 1) - 1
}

/// The `fib` workload.
#[derive(Debug)]
pub struct Fib {
    n: u32,
    expected: u64,
}

impl Fib {
    /// `fib(n)`.
    pub fn new(n: u32) -> Fib {
        Fib {
            n,
            expected: fib_reference(n),
        }
    }
}

impl Workload for Fib {
    type Input = ();
    type Output = u64;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> u64 {
        fib(c, self.n)
    }
    fn check(&self, out: &u64) -> Result<(), String> {
        if *out == self.expected {
            Ok(())
        } else {
            Err(format!(
                "fib({}) = {out}, expected {}",
                self.n, self.expected
            ))
        }
    }
}

fn n_for(size: Size) -> u32 {
    size.pick(18, 32, 34)
}

/// Registry entry.
pub fn spec() -> WorkloadSpec {
    WorkloadSpec {
        name: "fib",
        group: Group::LowLatencyThesis,
        description: "naive recursive Fibonacci, a join at every call, no cutoff",
        params: |s| {
            let n = n_for(s);
            format!("n = {n} ({} joins)", fib_joins(n))
        },
        build: |s, _seed| Box::new(Fib::new(n_for(s))) as Box<dyn DynWorkload>,
    }
}

use splitsteal_core::{Policy, ThreadPoolBuilder};
use std::time::Instant;

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal_core::join(|| fib(n - 1), || fib(n - 2));
    a + b
}
fn fib_seq(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    fib_seq(n - 1) + fib_seq(n - 2)
}

fn main() {
    let n = 30;
    let t = Instant::now();
    let want = std::hint::black_box(fib_seq(std::hint::black_box(n)));
    println!("serial {:?}", t.elapsed());
    for threads in [1, 2] {
        for &p in Policy::ALL {
            let pool = ThreadPoolBuilder::new()
                .num_threads(threads)
                .policy(p)
                .build()
                .unwrap();
            pool.install(|| fib(20));
            pool.reset_stats();
            let t = Instant::now();
            let got = pool.install(|| fib(n));
            let el = t.elapsed();
            assert_eq!(got, want);
            println!("{threads} {p:12} {el:?} {:?}", pool.stats());
        }
    }
}

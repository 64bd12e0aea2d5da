//! Instructions (under callgrind) or time per join:
//! `join_overhead <serial|POLICY[+ctx]> <n> [threads] [reps]` (prints the best time of
//! `reps`; `+ctx` runs the `ForkJoin` version, which passes the worker down; `+loop` makes
//! fib(n) joins of two trivial closures from a loop, a caller that does not recurse; `+tree`
//! sums a perfect binary tree of 2^n - 1 boxed nodes with a join per node, chili's
//! benchmark; `+fenced` is fib(n) with the owner's pops fenced, as where the system offers
//! no heavy fence: macOS, the BSDs, WebAssembly).
//! E.g. `valgrind --tool=callgrind target/release/examples/join_overhead lcws-poll 25`.

use std::time::Instant;

use splitsteal_core::{Current, ForkJoin, Policy, ThreadPoolBuilder};

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal_core::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// The same, written against `ForkJoin` (the context is passed down, no thread-local).
fn fib_ctx<C: ForkJoin>(c: &mut C, n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = c.join(|c| fib_ctx(c, n - 1), |c| fib_ctx(c, n - 2));
    a + b
}

/// A node of `+tree`'s tree.
struct Node {
    val: u64,
    left: Option<Box<Node>>,
    right: Option<Box<Node>>,
}

/// A perfect tree of `layers` layers.
fn tree(layers: u64) -> Option<Box<Node>> {
    (layers > 0).then(|| {
        Box::new(Node {
            val: layers,
            left: tree(layers - 1),
            right: tree(layers - 1),
        })
    })
}

/// chili's `sum`: a join at every node.
fn tree_sum(node: &Node) -> u64 {
    let (l, r) = splitsteal_core::join(
        || node.left.as_deref().map(tree_sum).unwrap_or_default(),
        || node.right.as_deref().map(tree_sum).unwrap_or_default(),
    );
    node.val + l + r
}

/// As many joins as `fib(n)` makes, each of two trivial closures, from one loop.
fn joins_in_a_loop(n: u64) -> u64 {
    let joins = fib_seq(n + 1) - 1;
    let mut sum = 0;
    for i in 0..joins {
        let (a, b) =
            splitsteal_core::join(|| std::hint::black_box(i), || std::hint::black_box(1u64));
        sum += a + b;
    }
    sum
}

fn fib_seq(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    fib_seq(n - 1) + fib_seq(n - 2)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage =
        "usage: join_overhead <serial|POLICY[+ctx|+loop|+tree|+fenced]> <n> [threads] [reps]";
    let mode = args.get(1).expect(usage);
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).expect(usage);
    let threads: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let reps: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut best = std::time::Duration::MAX;
    let mut v = 0;
    if mode == "serial" {
        for _ in 0..reps {
            let t = Instant::now();
            v = fib_seq(std::hint::black_box(n));
            best = best.min(t.elapsed());
        }
    } else {
        let (mode, shape) = match mode.split_once('+') {
            Some((m, shape)) => (m, shape),
            None => (mode.as_str(), "fib"),
        };
        let policy: Policy = mode.parse().unwrap_or_else(|e| panic!("{e}"));
        let pool = ThreadPoolBuilder::new()
            .num_threads(threads)
            .policy(policy)
            .assume_no_membarrier(shape == "fenced")
            .build()
            .unwrap();
        pool.install(|| fib(std::hint::black_box(10)));
        // Built once, outside the timed runs.
        let root = if shape == "tree" { tree(n) } else { None };
        for _ in 0..reps {
            let t = Instant::now();
            v = match shape {
                "ctx" => pool.install(|| fib_ctx(&mut Current, std::hint::black_box(n))),
                "loop" => pool.install(|| joins_in_a_loop(std::hint::black_box(n))),
                "tree" => {
                    let root = root.as_deref().expect("n > 0");
                    pool.install(|| tree_sum(root))
                }
                _ => pool.install(|| fib(std::hint::black_box(n))),
            };
            best = best.min(t.elapsed());
        }
    }
    println!("{mode} x{threads} fib({n}) = {v}: best of {reps} {best:?}");
}

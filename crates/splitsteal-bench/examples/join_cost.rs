//! Instructions per join, for callgrind: runs one workload once on one scheduler at one
//! thread, through the same `Scheduler::run` path the suite and the `runtime` example use
//! (so the measured code is the code they time).
//!
//! `join_cost <scheduler> <fib|treesum> <n>`: `fib(n)`, or the tree sum of `2^n - 1` nodes.
//! Per join = (instructions at n2 - instructions at n1) / (joins at n2 - joins at n1):
//! ```text
//! for n in 20 24; do valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/join_cost lcws-signal fib $n; done
//! ```
//! It prints the joins it made, so the difference needs no arithmetic about the workload.

use splitsteal_bench::sched::{Scheduler, SchedulerKind, Workload};
use splitsteal_bench::workloads::fib::{fib_joins, Fib};
use splitsteal_bench::workloads::treesum::TreeSum;

fn run<W: Workload>(s: &Scheduler, w: &W) {
    let t = s.run(w, w.input());
    if let Err(e) = w.check(&t.output) {
        eprintln!("FAILED: {e}");
        std::process::exit(1);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: join_cost <scheduler> <fib|treesum> <n>";
    let (Some(sched), Some(workload), Some(n)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let kind: SchedulerKind = match sched.parse() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("{e}\n{usage}");
            std::process::exit(2);
        }
    };
    let Ok(n) = n.parse::<u32>() else {
        eprintln!("n must be a small integer\n{usage}");
        std::process::exit(2);
    };
    let s = match Scheduler::build(kind, 1) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let joins = match workload.as_str() {
        "fib" if n <= 40 => {
            run(&s, &Fib::new(n));
            fib_joins(n)
        }
        "treesum" if (1..=26).contains(&n) => {
            run(&s, &TreeSum::new(n));
            (1u64 << n) - 1
        }
        _ => {
            eprintln!("{usage} (fib: n <= 40; treesum: 1 <= n <= 26)");
            std::process::exit(2);
        }
    };
    println!("{} {workload}({n}): {joins} joins", s.label());
}

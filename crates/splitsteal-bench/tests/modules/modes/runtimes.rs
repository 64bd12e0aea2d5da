use splitsteal::Policy;
use splitsteal_bench::modes::runtimes::*;
use splitsteal_bench::report::Record;
use splitsteal_bench::workloads::Size;

/// chili's and forte's runs get a calling thread with a `MIN_STACK` stack: a recursion
/// 16 MiB deep, twice `main`'s 8 MiB and eight times a test thread's 2 MiB, completes
/// there. The depth is measured (the distance from the first frame's local to the
/// deepest's), since a frame's size depends on the optimization level.
#[test]
fn the_calling_thread_of_chili_and_forte_has_a_big_stack() {
    const DEPTH: usize = 16 << 20;
    /// Recurses until `top`, the first frame's local, is `DEPTH` bytes above this frame's;
    /// returns the number of frames.
    #[inline(never)]
    fn deep(top: usize) -> usize {
        let frame = std::hint::black_box([7u8; 1024]);
        let here = std::hint::black_box(&frame).as_ptr() as usize;
        if top.abs_diff(here) >= DEPTH {
            return 1;
        }
        1 + deep(top) + usize::from(std::hint::black_box(frame)[0] == 0)
    }
    let frames = on_big_stack(|| {
        let top = 0u8;
        deep(std::hint::black_box(&top) as *const u8 as usize)
    });
    assert!(frames > 1, "{frames} frames");
}

/// Every program at its test size on every runtime at 1 and 2 threads: the answer
/// is right.
#[test]
fn every_program_is_right_on_every_runtime() {
    let runtimes = [
        Runtime::Splitsteal(Policy::default()),
        Runtime::Rayon,
        Runtime::Chili,
        Runtime::Forte,
    ];
    for program in Program::all(Size::Test) {
        let input = Input::new(program);
        for rt in runtimes {
            for threads in [1, 2] {
                let pool = Pool::build(rt, threads).unwrap();
                let out = run_once(&pool, &input);
                assert!(
                    out.is_ok(),
                    "{} on {}@{threads}: {:?}",
                    program.name(),
                    rt.label(),
                    out.err()
                );
            }
        }
    }
}

#[test]
fn checks_reject_wrong_answers() {
    let fib = Input::new(Program::Fib(18));
    assert!(fib.check(2584, &[]).is_ok());
    assert!(fib.check(2583, &[]).is_err());
    let sky = Input::new(Program::Skynet(8));
    assert!(sky.check(4_999_999_950_000_000, &[]).is_ok());
    assert!(sky.check(4_999_999_950_000_001, &[]).is_err());
    let nq = Input::new(Program::Nqueens(14));
    assert!(nq.check(365_596, &[]).is_ok());
    assert!(nq.check(365_595, &[]).is_err());
    // matmul: the exact check and Freivalds' (what sizes above 256 get) both catch one
    // wrong element and a missing quadrant product.
    let n = 64;
    let exact = Input::new(Program::Matmul(n));
    assert!(exact.exact.is_some());
    let freivalds = Input {
        exact: None,
        ..Input::new(Program::Matmul(n))
    };
    for (which, mm) in [("exact", exact), ("Freivalds", freivalds)] {
        let mut c = mm.output();
        rayon_matmul(&mm.a, &mm.b, &mut c, n);
        assert!(mm.check(0, &c).is_ok(), "{which}");
        let mut wrong = c.clone();
        wrong[n * n / 2 + 3] += 1;
        assert!(mm.check(0, &wrong).is_err(), "{which}");
        // Only the first group of quadrant products.
        let mut half = mm.output();
        rayon_matmul_first_group(&mm.a, &mm.b, &mut half, n);
        assert!(mm.check(0, &half).is_err(), "{which}");
    }
}

#[test]
fn the_serial_children_and_references_are_the_suites() {
    // Skynet's sum for 10^8 leaves is the suite's constant.
    let leaves = 10u64.pow(8);
    assert_eq!((leaves - 1) * leaves / 2, 4_999_999_950_000_000);
    assert_eq!(fib_reference(39), 63_245_986);
    // The first column of an 8-board: every row is a placement.
    assert_eq!(nq_children(8, 0, &[0; NQ_MAX]).len(), 8);
    // After a queen at row 0 of column 0, rows 0 and 1 of column 1 are attacked.
    let mut b = [0; NQ_MAX];
    b[0] = 0;
    assert_eq!(nq_children(8, 1, &b).len(), 6);
}

fn rec(w: &str, s: &str, t: usize, m: f64) -> Record {
    let mut r = Record::new(EXPERIMENT, w, "", s, t);
    r.set_times(vec![m, m, m]);
    r.verified = true;
    r
}

#[test]
fn mean_ratio_to_best_is_the_suites_metric() {
    let mut recs = vec![
        rec("fib", "rayon", 1, 2.0),
        rec("fib", "chili", 1, 1.0),
        rec("skynet", "rayon", 1, 1.0),
        rec("skynet", "chili", 1, 3.0),
        rec("fib", "rayon", 2, 1.0),
    ];
    let mut bad = Record::new(EXPERIMENT, "fib", "", "chili", 2);
    bad.error = Some("got 1, expected 2".into());
    recs.push(bad);
    fill_ratios_to_best(&mut recs);
    // rayon: (2/1 + 1/1) / 2 = 1.5; chili: (1 + 3) / 2 = 2.
    assert_eq!(recs[0].extra["mean_ratio_to_best"], 1.5);
    assert_eq!(recs[1].extra["mean_ratio_to_best"], 2.0);
    assert_eq!(recs[3].extra["ratio_to_best"], 3.0);
    // The failed cell has no ratio; rayon is best alone at 2 threads.
    assert!(!recs[5].extra.contains_key("ratio_to_best"));
    assert_eq!(recs[4].extra["ratio_to_best"], 1.0);
    let tabs = tables(&recs);
    assert_eq!(tabs.len(), 3);
    let at1 = &tabs[1];
    let last = at1.rows.last().unwrap();
    assert_eq!(last[0], "mean ratio to best");
    assert_eq!(last[2..], ["1.50×", "2.00×", "rayon"]);
    assert_eq!(at1.rows[0].last().unwrap(), "chili");
    assert!(tabs[2].rows[0].contains(&"FAILED".to_string()));
    assert!(tabs[0]
        .notes
        .iter()
        .any(|n| n.starts_with("FAILED: fib on chili@2")));
}

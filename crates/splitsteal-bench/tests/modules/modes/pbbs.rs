use splitsteal::Policy;
use splitsteal_bench::modes::pbbs::*;
use splitsteal_bench::pbbs_io::{check, generate};
use splitsteal_bench::sched::{Scheduler, SchedulerKind, Workload};
use splitsteal_bench::workloads::pbbs::graph::{self, NONE};
use splitsteal_bench::workloads::DynWorkload;

#[test]
fn pbbs_names_are_recognised_and_others_are_not() {
    let r = recognise;
    use Bench::*;
    assert_eq!(
        r("randomSeq_10M_int"),
        Some((Kind::Ints, vec![IntegerSort, RemoveDuplicates]))
    );
    assert_eq!(
        r("exptSeq_10M_int"),
        Some((Kind::Ints, vec![IntegerSort, RemoveDuplicates]))
    );
    assert_eq!(
        r("almostSortedSeq_10M_int"),
        Some((Kind::Ints, vec![IntegerSort]))
    );
    assert_eq!(
        r("randomSeq_100M_100K_int"),
        Some((Kind::Ints, vec![IntegerSort, Histogram(100_000)]))
    );
    assert_eq!(
        r("randomSeq_10M_256_int"),
        Some((Kind::Ints, vec![IntegerSort, Histogram(256)]))
    );
    // 2^31 buckets is not a histogram PBBS runs.
    assert_eq!(
        r("randomSeq_10M_2^31_int"),
        Some((Kind::Ints, vec![IntegerSort]))
    );
    assert_eq!(
        r("exptSeq_10M_double"),
        Some((Kind::Doubles, vec![ComparisonSort]))
    );
    assert_eq!(r("rMatGraph_J_5_10M"), Some((Kind::Graph, vec![Bfs, Mis])));
    assert_eq!(
        r("randLocalGraph_J_5_10M.bin"),
        Some((Kind::Graph, vec![Bfs, Mis]))
    );
    assert_eq!(r("2Dkuzmin_10M"), Some((Kind::Points, vec![Hull])));
    assert_eq!(
        r("trigramString_10M"),
        Some((Kind::Words, vec![WordCounts]))
    );
    for other in [
        "README",
        "randomSeq",
        "randomSeq_x_int",
        "randomSeq_10M_long",
        "sortedSeq_10M_int",
        "randomSeq_10M_256_512_int",
        "2D",
        "notes.txt",
    ] {
        assert_eq!(r(other), None, "{other}");
    }
    assert_eq!(parse_count("2^31"), Some(1 << 31));
    assert_eq!(parse_count("100K"), Some(100_000));
    assert_eq!(parse_count("10M"), Some(10_000_000));
    assert_eq!(parse_count("K"), None);
    assert_eq!(parse_count("2^99"), None);
}

#[test]
fn points_map_onto_the_grid_keeping_their_order() {
    let g = to_grid(&[(0.5, -1.0), (0.25, 0.0), (-1e-12, 1.0)]).unwrap();
    let m = (1i64 << 29) - 1;
    assert_eq!(g, vec![(m / 2 + 1, -m), (m / 4 + 1, 0), (0, m)]);
    assert!(to_grid(&[(f64::NAN, 0.0)])
        .unwrap_err()
        .contains("not finite"));
    assert_eq!(to_grid(&[(0.0, 0.0)]).unwrap(), vec![(0, 0)]);
}

/// Every case of the standard inputs at a small size, on serial, a splitsteal pool and
/// rayon (its API where it has one), at 2 threads: each output passes its checker.
#[test]
fn every_case_verifies_on_every_kind_and_a_wrong_output_is_rejected() {
    let dir = std::env::temp_dir().join(format!("ss-pbbs-mode-{}", std::process::id()));
    generate::write_standard_inputs(&dir, 3000, 5).unwrap();
    let cases = load_dir(&dir, 5).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(cases.len(), 19, "{cases:?}");
    let scheds: Vec<Scheduler> = [
        SchedulerKind::Serial,
        SchedulerKind::Splitsteal(Policy::LcwsSignal),
        SchedulerKind::Rayon,
    ]
    .into_iter()
    .map(|k| Scheduler::build(k, 2).unwrap())
    .collect();
    for case in &cases {
        for s in &scheds {
            let o = case.run_on(s);
            assert_eq!(o.check, Ok(()), "{case:?} on {s:?}");
        }
        // A wrong output of the case's kind: the checker must say no.
        let out = Scheduler::build(SchedulerKind::Serial, 1)
            .unwrap()
            .run(case, case.input())
            .output;
        let bad = match out {
            // The first key twice, the last gone: a duplicate for dedup, not the
            // input's multiset for a sort.
            Out::Keys(mut v) => {
                let first = v[0];
                *v.last_mut().unwrap() = first;
                Out::Keys(v)
            }
            Out::Doubles(mut v) => {
                v[0] = 2.0;
                Out::Doubles(v)
            }
            Out::Counts(mut c) => {
                c[1] += 1;
                Out::Counts(c)
            }
            Out::Parents(mut p) => {
                let v = (1..p.len()).find(|&v| p[v] != NONE).unwrap();
                p[v] = NONE;
                Out::Parents(p)
            }
            Out::Flags(mut f) => {
                let v = f.iter().position(|&x| x).unwrap();
                f[v] = false;
                Out::Flags(f)
            }
            Out::Hull(mut h) => {
                h.remove(1);
                Out::Hull(h)
            }
            Out::Words(mut w) => {
                w[0].2 += 1;
                Out::Words(w)
            }
        };
        assert!(
            case.check(&bad).is_err(),
            "{case:?} accepted a wrong output"
        );
    }
}

#[test]
fn the_rayon_api_versions_agree_with_the_checkers() {
    let keys: Vec<u32> = generate::random_seq(5000, 300, 1)
        .into_iter()
        .map(|x| x as u32)
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        check::histogram(&keys, &rayon_histogram(&keys, 300)).unwrap();
        check::dedup(&keys, &rayon_dedup(&keys)).unwrap();
        let g = graph::rmat(10, 5000, 1);
        check::bfs_tree(&g, 0, &rayon_bfs(&g, 0)).unwrap();
    });
}

use splitsteal_bench::modes::cache::*;
use splitsteal_bench::report::{Record, StatsRecord};

/// The head and tail of a real cachegrind output file (valgrind 3.19, `splitsteal bench
/// --cache-child fib:abp:2` with [`CACHES`]); the per-line counts between are cut. The
/// file ends without a newline.
const SAMPLE: &str = "\
desc: I1 cache:         32768 B, 64 B, 8-way associative
desc: D1 cache:         32768 B, 64 B, 8-way associative
desc: LL cache:         8388608 B, 64 B, 16-way associative
cmd: /tmp/tgt-f/release/splitsteal bench --cache-child fib:abp:2
events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw 
fl=./csu/../csu/libc-start.c
fn=__libc_start_main@@GLIBC_2.34
128 2 1 1 2 0 0 0 0 0
134 3 0 0 1 1 0 0 0 0
135 6 0 0 2 0 0 1 0 0
0 31 3 3 10 1 0 9 0 0
fn=std::thread::spawnhook::run_spawn_hooks
0 108 10 6 27 4 0 36 0 0
summary: 1312924 5579 4945 348045 7463 4829 244814 5753 4521";

#[test]
fn parses_a_real_cachegrind_file() {
    let t = parse_cachegrind(SAMPLE).unwrap();
    assert_eq!(
        t,
        Totals {
            ir: 1_312_924,
            d1: 7463 + 5753,
            ll: 4829 + 4521,
        }
    );
}

#[test]
fn bad_cachegrind_files_are_named_errors() {
    let no_sim = "events: Ir\nsummary: 100\n";
    let e = parse_cachegrind(no_sim).unwrap_err();
    assert!(e.contains("D1mr") && e.contains("--cache-sim"), "{e}");
    let cut = SAMPLE.replace("summary:", "sum:");
    assert!(parse_cachegrind(&cut).unwrap_err().contains("summary:"));
    let short = "events: Ir D1mr\nsummary: 1\n";
    assert!(parse_cachegrind(short)
        .unwrap_err()
        .contains("1 values for 2"));
    let e = parse_cachegrind("events: Ir\nsummary: x\n").unwrap_err();
    assert!(e.contains("`x`"), "{e}");
}

fn rec(scheduler: &str, threads: usize, ir: f64, tasks: u64, steals: u64) -> Record {
    let mut r = Record::new("cache", "fib", "n = 18", scheduler, threads);
    r.verified = true;
    r.extra.insert("ir".into(), ir);
    r.extra.insert("d1_misses".into(), ir / 100.0);
    r.extra.insert("ll_misses".into(), ir / 1000.0);
    if scheduler != "serial" {
        r.stats = Some(StatsRecord {
            tasks,
            steals,
            ..Default::default()
        });
    }
    r
}

#[test]
fn table_subtracts_the_serial_baseline_and_marks_failures() {
    let mut failed = rec("locked", 2, 0.0, 0, 0);
    failed.verified = false;
    let recs = vec![
        rec("serial", 1, 100_000.0, 0, 0),
        rec("abp", 1, 200_000.0, 1000, 0),
        rec("abp", 2, 300_000.0, 1000, 4),
        failed,
    ];
    let t = &tables(&recs)[0];
    assert!(t.title.contains("SIMULATED"), "{}", t.title);
    // Δ Ir over serial = 200 000 over 1000 tasks; D1 over abp@1 = 1000 over 4 steals.
    let abp = &t.rows[2];
    assert_eq!(abp[7], "+200.0");
    assert_eq!(abp[10], "+250.0");
    // One worker: no steals, no per-steal column.
    assert_eq!(t.rows[1][10], "-");
    assert_eq!(t.rows[3][2], "FAILED");
    assert!(t.rows.iter().all(|r| r.len() == t.header.len()));
}

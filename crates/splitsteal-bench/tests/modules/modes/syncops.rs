use splitsteal_bench::modes::syncops::{tables, BASELINE};
use splitsteal_bench::report::{Record, StatsRecord};

fn rec(scheduler: &str, stats: StatsRecord) -> Record {
    let mut r = Record::new("suite", "fib", "n = 30", scheduler, 2);
    r.verified = true;
    r.set_times(vec![0.01]);
    r.stats = Some(stats);
    r
}

#[test]
fn the_table_shows_heavy_fences_apart_from_fences() {
    let recs = vec![
        rec(
            BASELINE,
            StatsRecord {
                cas: 40,
                fences: 1000,
                steals: 20,
                ..Default::default()
            },
        ),
        rec(
            "asym",
            StatsRecord {
                cas: 30,
                fences: 0,
                steals: 20,
                heavy_fences: 12,
                answered_claims: 8,
                ..Default::default()
            },
        ),
    ];
    let t = &tables(&recs)[0];
    let col = |name: &str| t.header.iter().position(|h| h == name).unwrap();
    let asym = t.rows.iter().find(|r| r[1] == "asym").expect("an asym row");
    assert_eq!(asym[col("fences")], "0");
    assert_eq!(asym[col("heavy fences")], "12");
    assert_eq!(asym[col("answered")], "8");
    let baseline = t.rows.iter().find(|r| r[1] == BASELINE).unwrap();
    assert_eq!(baseline[col("heavy fences")], "0");
    assert!(t.rows.iter().all(|r| r.len() == t.header.len()));
    assert!(
        t.notes.iter().any(|n| n.contains("membarrier")),
        "{:?}",
        t.notes
    );
}

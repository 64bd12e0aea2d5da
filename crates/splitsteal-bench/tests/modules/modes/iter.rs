use splitsteal_bench::modes::iter::*;
use splitsteal_bench::report::{fill_ratios, Record, TableRole};

fn rec(w: &str, s: &str, t: usize, times: Vec<f64>) -> Record {
    let mut r = Record::new(EXPERIMENT, w, "", s, t);
    r.set_times(times);
    r.verified = true;
    r
}

#[test]
fn ratios_and_geomeans() {
    let mut recs = vec![
        rec("sum-map", "rayon", 1, vec![0.10, 0.10, 0.10]),
        rec("sum-map", "lcws-signal", 1, vec![0.05, 0.05, 0.05]),
        rec("nbody", "rayon", 1, vec![0.10, 0.10, 0.10]),
        rec("nbody", "lcws-signal", 1, vec![0.20, 0.20, 0.20]),
        rec("sum-map", "rayon", 2, vec![0.10, 0.10, 0.10]),
        rec("sum-map", "lcws-signal", 2, vec![0.08, 0.09, 0.12]),
    ];
    let mut bad = Record::new(EXPERIMENT, "nbody", "", "lcws-signal", 2);
    bad.error = Some("element 3 differs".into());
    recs.push(bad);
    recs.push(rec("nbody", "rayon", 2, vec![0.1]));
    fill_ratios(&mut recs);
    let tabs = tables(&recs);
    assert_eq!(tabs.len(), 4);
    let s = &tabs[1];
    let col = |h: &str| {
        s.header
            .iter()
            .position(|x| x == h)
            .unwrap_or_else(|| panic!("{h}: {:?}", s.header))
    };
    let row = |w: &str| s.rows.iter().find(|r| r[0] == w).unwrap();
    assert_eq!(row("sum-map")[col("lcws-signal×rayon@1")], "0.50");
    assert_eq!(row("nbody")[col("lcws-signal×rayon@1")], "2.00");
    assert_eq!(row("nbody")[col("lcws-signal@2")], "FAILED");
    assert_eq!(row("nbody")[col("lcws-signal×rayon@2")], "-");
    assert_eq!(row("sum-map")[col("group")], "iter: fine-grained");
    assert_eq!(row("nbody")[col("group")], "iter: rayon port");
    // geomean(0.5, 2) = 1; at 2 threads only sum-map has a ratio (0.9).
    assert_eq!(
        row("geomean ×rayon (all)")[col("lcws-signal×rayon@1")],
        "1.00"
    );
    assert_eq!(
        row("geomean ×rayon (all)")[col("lcws-signal×rayon@2")],
        "0.90"
    );
    assert_eq!(
        row("geomean ×rayon (iter: rayon port)")[col("lcws-signal×rayon@1")],
        "2.00"
    );
    assert!(
        s.notes.iter().any(|n| n.contains("1 of 8 cells FAILED")),
        "{:?}",
        s.notes
    );
    assert!(tabs[0]
        .notes
        .iter()
        .any(|n| n.starts_with("FAILED: nbody on lcws-signal@2")));
    assert!(tabs[0]
        .rows
        .iter()
        .any(|r| r[0] == "nbody" && r[4] == "FAILED"));
    // Slower than rayon beyond the spread: nbody@1 only (sum-map@2's 0.08–0.12
    // overlaps rayon's 0.10: a tie; nbody@2 failed).
    let slow = &tabs[2];
    assert!(slow.title.contains("SLOWER THAN RAYON"), "{}", slow.title);
    assert_eq!(slow.rows.len(), 1, "{:?}", slow.rows);
    assert_eq!(slow.rows[0][..3], ["1", "nbody", "iter: rayon port"]);
    assert_eq!(slow.rows[0][6], "2.00");
    assert_eq!(
        slow.notes,
        [
            "lcws-signal@1: 1 of 2 programs slower than rayon@1 beyond the spread: nbody (2.00).",
            "lcws-signal@2: 0 of 2 programs slower than rayon@2 beyond the spread.",
        ]
    );
    // The report's summary gets the section's geomean ×rayon per thread count and the
    // programs slower than rayon beyond the spread.
    let h = &tabs[3];
    assert_eq!(h.role, TableRole::Headline);
    assert_eq!(
        h.rows,
        [
            [
                "lcws-signal",
                "1",
                "1.00",
                "1.00–1.00",
                "2",
                "1: nbody (2.00)"
            ],
            ["lcws-signal", "2", "0.90", "0.80–1.20", "1", "none"],
        ]
    );
}

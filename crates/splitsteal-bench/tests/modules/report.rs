use splitsteal_bench::report::*;
use splitsteal_report::RunInfo;

fn sample() -> Vec<Record> {
    let mut a = Record::new("suite", "fib", "n = 30", "serial", 1);
    a.set_times(vec![0.4, 0.2, 0.3]);
    a.verified = true;
    let mut b = Record::new("suite", "fib", "n = 30", "rayon", 2);
    b.set_times(vec![0.2, 0.1]);
    b.verified = true;
    let mut c = Record::new("suite", "fib", "n = 30", "lcws-signal", 2);
    c.set_times(vec![0.1]);
    c.verified = true;
    c.stats = Some(StatsRecord {
        cas: 5,
        fences: 7,
        heavy_fences: 3,
        answered_claims: 2,
        ..Default::default()
    });
    let mut d = Record::new("suite", "fib", "n = 30", "chili", 2);
    d.error = Some("fib(30) = 1, expected 832040".into());
    vec![a, b, c, d]
}

#[test]
fn times_and_ratios() {
    let mut r = sample();
    fill_ratios(&mut r);
    assert_eq!(r[0].median_s, Some(0.3));
    assert_eq!(
        (r[0].min_s, r[0].max_s, r[0].reps),
        (Some(0.2), Some(0.4), 3)
    );
    assert!((r[1].median_s.unwrap() - 0.15).abs() < 1e-12);
    assert!((r[1].speedup.unwrap() - 2.0).abs() < 1e-12);
    // ×rayon is this time / rayon's: below 1 is faster than rayon.
    assert!((r[2].vs_rayon.unwrap() - 1.0 / 1.5).abs() < 1e-12);
    assert_eq!(r[3].speedup, None);
    assert_eq!(geomean(&[1.0, 4.0]), Some(2.0));
    assert_eq!(geomean(&[]), None);
}

#[test]
fn json_has_the_documented_fields() {
    let r = sample();
    let v: serde_json::Value = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    let arr = v.as_array().unwrap();
    for rec in arr {
        for f in [
            "workload",
            "scheduler",
            "threads",
            "reps",
            "median_s",
            "min_s",
            "max_s",
            "verified",
            "stats",
        ] {
            assert!(rec.get(f).is_some(), "missing {f}");
        }
    }
    assert!(arr[0]["stats"].is_null(), "serial has no stats");
    let s = &arr[2]["stats"];
    for f in [
        "cas",
        "fences",
        "steals",
        "steal_attempts",
        "exposures",
        "signals",
        "tasks",
        "heavy_fences",
        "answered_claims",
    ] {
        assert!(s[f].is_u64(), "stats.{f}");
    }
    assert_eq!(arr[3]["verified"], false);
    assert!(arr[3]["median_s"].is_null());
    let back: Vec<Record> = serde_json::from_value(v).unwrap();
    assert_eq!(back, r);
}

#[test]
fn results_json_is_the_run_and_its_records() {
    let dir = std::env::temp_dir().join(format!("ss-results-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let info = RunInfo {
        command: "splitsteal bench".into(),
        partial: Some("interrupted".into()),
        ..RunInfo::default()
    };
    let meta = RunMeta {
        info: &info,
        seed: 7,
        size: "quick".into(),
        load: vec![splitsteal_bench::load::SectionLoad::new(
            "suite",
            2.0,
            Some(0.5),
            Some(2.5),
            Some(0.3),
            2,
        )],
    };
    write_results(&dir, &meta, &sample()).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(v["run"]["command"], "splitsteal bench");
    assert_eq!(v["run"]["partial"], "interrupted");
    assert_eq!(v["run"]["seed"], 7);
    assert_eq!(v["run"]["size"], "quick");
    assert_eq!(v["run"]["load"][0]["section"], "suite");
    assert_eq!(v["run"]["load"][0]["loadavg_end"], 2.5);
    assert_eq!(v["run"]["load"][0]["high"], true);
    let back: Vec<Record> = serde_json::from_value(v["records"].clone()).unwrap();
    assert_eq!(back, sample());
    // Written through a temporary file renamed into place: none is left behind.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["results.csv", "results.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn csv_has_the_documented_columns() {
    let mut buf = Vec::new();
    write_csv(&mut buf, &sample()).unwrap();
    let mut rd = csv::Reader::from_reader(&buf[..]);
    let header: Vec<String> = rd.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, CSV_COLUMNS);
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 4);
    let col = |name: &str| CSV_COLUMNS.iter().position(|c| *c == name).unwrap();
    assert_eq!(&rows[2][col("cas")], "5");
    assert_eq!(&rows[2][col("heavy_fences")], "3");
    assert_eq!(&rows[2][col("answered_claims")], "2");
    assert_eq!(&rows[0][col("cas")], "", "absent stats are empty, not zero");
    assert_eq!(&rows[0][col("answered_claims")], "");
    assert_eq!(
        &rows[0][col("error")],
        "",
        "the columns after the counters stay in place"
    );
    assert_eq!(&rows[3][col("verified")], "false");
    assert_eq!(&rows[0][col("times_s")], "0.4;0.2;0.3");
}

#[test]
fn overlapping_ranges_are_ties_disjoint_ones_wins_or_losses() {
    use Versus::*;
    // Disjoint: a win for the faster, a loss for the slower.
    assert_eq!(Versus::of_ranges((1.0, 2.0), (3.0, 4.0)), Win);
    assert_eq!(Versus::of_ranges((3.0, 4.0), (1.0, 2.0)), Loss);
    // Overlapping, nested or touching ranges are ties, whatever the medians say.
    assert_eq!(Versus::of_ranges((1.0, 3.0), (2.0, 4.0)), Tie);
    assert_eq!(Versus::of_ranges((2.0, 4.0), (1.0, 3.0)), Tie);
    assert_eq!(Versus::of_ranges((1.0, 5.0), (2.0, 3.0)), Tie);
    assert_eq!(Versus::of_ranges((1.0, 2.0), (2.0, 3.0)), Tie);
    // From records: the median is lower, but the spread overlaps.
    let rec = |times: Vec<f64>| {
        let mut r = Record::new("suite", "fib", "", "x", 2);
        r.set_times(times);
        r
    };
    let a = rec(vec![0.10, 0.11, 0.20]);
    let b = rec(vec![0.12, 0.13, 0.14]);
    assert!(a.median_s < b.median_s);
    assert_eq!(Versus::of_records(&a, &b), Some(Tie));
    let c = rec(vec![0.15, 0.16]);
    assert_eq!(Versus::of_records(&b, &c), Some(Win));
    assert_eq!(Versus::of_records(&c, &b), Some(Loss));
    assert_eq!(Versus::of_records(&c, &rec(vec![])), None);
    let mut t = Tally::default();
    for v in [Win, Tie, Tie, Loss, Win, Win] {
        t.add(v);
    }
    assert_eq!(t.describe(), "3 wins, 2 ties, 1 loss");
    assert_eq!(t.win_share(), Some(0.5));
    let (lo, hi) = ratio_range(&c, &b).unwrap();
    assert!((lo - 0.15 / 0.14).abs() < 1e-12 && (hi - 0.16 / 0.12).abs() < 1e-12);
}

#[test]
fn tables_render() {
    let mut t = Table::new("T", &["a", "bb"]);
    t.row(vec!["x".into(), "FAILED".into()]);
    assert!(t.to_text().contains("x  FAILED"));
    assert!(t.to_markdown().contains("| x | FAILED |"));
    assert!(t.to_html().contains("class=\"failed text\""));
    let mut t = Table::new("T", &["a", "b", "c"]);
    t.row(vec!["fib".into(), "12.3 ms".into(), "1.20× (tie)".into()]);
    let h = t.to_html();
    assert!(h.contains("<td class=\"text\">fib</td>"), "{h}");
    assert!(h.contains("<td>12.3 ms</td><td>1.20× (tie)</td>"), "{h}");
    // Markdown: a column of names reads from the left, measurements from the right.
    let mut t = Table::new("T", &["workload", "best policy", "its time"]);
    t.row(vec!["fib".into(), "lcws-cons".into(), "5.46 ms".into()]);
    t.row(vec!["uts".into(), String::new(), "4.54 ms".into()]);
    assert!(
        t.to_markdown().contains("|---|---|---:|"),
        "{}",
        t.to_markdown()
    );
    assert_eq!(fmt_secs(0.01234), "12.3 ms");
    assert_eq!(fmt_count(12_345_678), "12.3M");
}

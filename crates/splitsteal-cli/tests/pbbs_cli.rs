//! `bench --gen-pbbs` and `bench --pbbs-dir` (issue 15): PBBS's standard inputs written
//! under PBBS's names, read back and run by the pbbs mode on tiny sizes; bad folders and
//! malformed files are exit 2 naming the path (and line).

use std::path::Path;

#[allow(dead_code)] // Each test file uses part of the shared helpers.
mod common;
use common::{scratch, splitsteal};

fn gen(dir: &Path, n: &str) -> (i32, String, String) {
    splitsteal(&["bench", "--gen-pbbs", dir.to_str().unwrap(), "--pbbs-n", n])
}

/// A tiny run of the pbbs mode on `dir`'s files, one policy and rayon, 1 and 2 threads.
fn run_dir(dir: &Path, out: &Path) -> (i32, String, String) {
    splitsteal(&[
        "bench",
        "--pbbs-dir",
        dir.to_str().unwrap(),
        "--policy",
        "serial,lcws-signal,rayon",
        "--threads",
        "1,2",
        "--reps",
        "1",
        "--warmup",
        "0",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn gen_pbbs_writes_the_standard_inputs_and_the_pbbs_dir_run_verifies_them() {
    let dir = scratch("pbbs-gen");
    let (code, out, err) = gen(&dir, "600");
    assert_eq!(code, 0, "{err}");
    for name in [
        "randomSeq_600_int",
        "randomSeq_600_256_int",
        "exptSeq_600_int",
        "almostSortedSeq_600_int",
        "randomSeq_600_double",
        "rMatGraph_J_5_600",
        "2DinSphere_600",
        "trigramString_600",
    ] {
        assert!(dir.join(name).is_file(), "{name} missing: {out}");
        assert!(out.contains(name), "{out}");
    }
    let head = std::fs::read_to_string(dir.join("randomSeq_600_int")).unwrap();
    assert!(head.starts_with("sequenceInt\n"), "{head}");
    assert_eq!(head.lines().count(), 601);

    // A file of another name is listed and skipped, not read.
    std::fs::write(dir.join("notes.txt"), "not a PBBS file").unwrap();
    let report = scratch("pbbs-report");
    let (code, stdout, err) = run_dir(&dir, &report);
    assert_eq!(code, 0, "{err}\n{stdout}");
    assert!(err.contains("skipped notes.txt"), "{err}");
    let json = std::fs::read_to_string(report.join("results.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let recs = v["records"].as_array().unwrap();
    let pbbs: Vec<_> = recs.iter().filter(|r| r["experiment"] == "pbbs").collect();
    // Every benchmark PBBS runs on these files, each on serial@1, lcws-signal@1,2, rayon@1,2.
    for b in [
        "integerSort/randomSeq_600_int",
        "removeDuplicates/exptSeq_600_int",
        "histogram/randomSeq_600_256_int",
        "comparisonSort/randomSeq_600_double",
        "BFS/rMatGraph_J_5_600",
        "MIS/randLocalGraph_J_5_600",
        "convexHull/2Dkuzmin_600",
        "wordCounts/trigramString_600",
    ] {
        let cells: Vec<_> = pbbs.iter().filter(|r| r["workload"] == b).collect();
        assert_eq!(cells.len(), 5, "{b}: {cells:?}");
        assert!(
            cells.iter().all(|r| r["verified"] == true),
            "{b}: {cells:?}"
        );
    }
    assert!(stdout.contains("best ×rayon@2"), "{stdout}");
    // The report's facts say what the pbbs mode ran, not the suite's defaults.
    let tables = std::fs::read_to_string(report.join("tables.md")).unwrap();
    assert!(
        tables.contains("pbbs: schedulers serial, lcws-signal, rayon; warm-up 0 + reps 1 per cell"),
        "{tables}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&report);
}

#[test]
fn bad_folders_and_malformed_files_are_exit_2_naming_them() {
    let base = scratch("pbbs-bad");
    std::fs::create_dir_all(&base).unwrap();
    // A file where the folder should be.
    let blocker = base.join("file");
    std::fs::write(&blocker, "x").unwrap();
    let (code, _, err) = gen(&blocker.join("sub"), "10");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&blocker.display().to_string()), "{err}");

    let dir = base.join("inputs");
    std::fs::create_dir_all(&dir).unwrap();
    let report = base.join("report");
    // No PBBS names at all.
    std::fs::write(dir.join("data.csv"), "1,2").unwrap();
    let (code, _, err) = run_dir(&dir, &report);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no PBBS input files"), "{err}");

    let cases = [
        (
            "sequenceInt\n3\n1\nx\n",
            ":4: expected an integer, found 'x'",
        ),
        ("sequenceDouble\n0.5\n", ":1: header 'sequenceDouble'"),
        ("sequenceInt\n3\n-1\n", "value 2 (-1) is not in 0..2^32"),
    ];
    for (text, want) in cases {
        std::fs::write(dir.join("randomSeq_3_int"), text).unwrap();
        let (code, _, err) = run_dir(&dir, &report);
        assert_eq!(code, 2, "{text:?}: {err}");
        assert!(
            err.contains("randomSeq_3_int") && err.contains(want),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // A histogram file whose keys do not fit the range its name gives.
    std::fs::remove_file(dir.join("randomSeq_3_int")).unwrap();
    std::fs::write(dir.join("randomSeq_3_256_int"), "sequenceInt\n1 300 2\n").unwrap();
    let (code, _, err) = run_dir(&dir, &report);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("key 300 is past the 256 buckets"), "{err}");
    assert!(!report.join("results.json").exists());
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn pbbs_dir_needs_the_pbbs_mode() {
    let (code, _, err) = splitsteal(&["bench", "--mode", "latency", "--pbbs-dir", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--pbbs-dir x") && err.contains("pbbs mode"),
        "{err}"
    );
}

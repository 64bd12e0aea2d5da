//! `bench --mode cache` (issue 15): child runs of the binary under cachegrind, on one tiny
//! workload and one policy. Skipped, with a message, where valgrind is not installed.

use std::process::Command;

#[allow(dead_code)] // Each test file uses part of the shared helpers.
mod common;
use common::{scratch, splitsteal};

fn valgrind_found() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_child_run_prints_its_counters_and_rejects_bad_cells() {
    let (code, out, err) = splitsteal(&["bench", "--cache-child", "fib:abp:2"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("cache-child stats: {") && out.contains("\"tasks\":"),
        "{out}"
    );
    for bad in ["fib:abp", "fib:tbb:2", "fibo:abp:2", "fib:abp:0"] {
        let (code, _, err) = splitsteal(&["bench", "--cache-child", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains(&format!("--cache-child {bad}")), "{err}");
    }
}

#[test]
fn cache_mode_reports_simulated_misses_per_task() {
    let dir = scratch("cache-mode");
    let out_dir = dir.display().to_string();
    let (code, out, err) = splitsteal(&[
        "bench",
        "--mode",
        "cache",
        "--quick",
        "--workload",
        "fib",
        "--policy",
        "abp",
        "--threads",
        "2",
        "--out",
        &out_dir,
    ]);
    assert_eq!(code, 0, "{err}");
    if !valgrind_found() {
        eprintln!("valgrind not found: only the skip note is checked");
        assert!(out.contains("skipped: valgrind not found"), "{out}");
        return;
    }
    assert!(out.contains("SIMULATED"), "{out}");
    let json = std::fs::read_to_string(dir.join("results.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let recs: Vec<&serde_json::Value> = v["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["experiment"] == "cache")
        .collect();
    // The serial baseline, then abp at 2 threads.
    assert_eq!(recs.len(), 2, "{json}");
    assert_eq!(recs[0]["scheduler"], "serial");
    assert_eq!(recs[1]["scheduler"], "abp");
    for r in &recs {
        assert_eq!(r["verified"], true, "{r}");
        for k in ["ir", "d1_misses", "ll_misses"] {
            assert!(r["extra"][k].as_f64().unwrap() > 0.0, "{k}: {r}");
        }
    }
    // fib(n) runs a task per join: the pool's counters came back from the child.
    assert!(
        recs[1]["stats"]["tasks"].as_u64().unwrap() > 1000,
        "{}",
        recs[1]
    );
    let tables = std::fs::read_to_string(dir.join("tables.md")).unwrap();
    assert!(
        tables.contains("ΔIr/task") && tables.contains("cache (SIMULATED"),
        "{tables}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

//! The binary rejects bad input with a clear message and a failing exit code, and `bench`
//! behaves like a tool scripts can trust: documented exit codes, a closed pipe or an
//! interrupt that keeps the finished work, no stale files in a reused report folder.

use std::path::Path;
use std::process::Command;

mod common;
use common::{interrupted_at, output_with_closed_stdout, scratch};

fn splitsteal(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_splitsteal"));
    cmd.args(args)
        .env_remove("SPLITSTEAL_NUM_THREADS")
        .env_remove("SPLITSTEAL_POLICY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the splitsteal binary");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn bad_environment_values_are_named_and_rejected() {
    let (code, err) = splitsteal(
        &[
            "sim",
            "latency",
            "--work",
            "100",
            "--procs",
            "2",
            "--latency",
            "2",
        ],
        &[("SPLITSTEAL_NUM_THREADS", "abc")],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("SPLITSTEAL_NUM_THREADS") && err.contains("abc"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let (code, err) = splitsteal(&["bench", "--list"], &[("SPLITSTEAL_POLICY", "fifo")]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("lcws-signal"),
        "lists the valid policies: {err}"
    );
}

#[test]
fn bad_flags_and_names_list_the_valid_ones() {
    let (code, err) = splitsteal(&["bench", "--policy", "fifo"], &[]);
    assert_ne!(code, 0);
    assert!(
        err.contains("valid schedulers") && err.contains("chili"),
        "{err}"
    );
    let (code, err) = splitsteal(&["bench", "--workload", "fibonacci"], &[]);
    assert_ne!(code, 0);
    assert!(err.contains("fib"), "{err}");
    let (code, err) = splitsteal(&["frobnicate"], &[]);
    assert_ne!(code, 0);
    assert!(
        err.contains("unrecognized subcommand") && err.contains("--help"),
        "{err}"
    );
}

#[test]
fn a_small_simulation_runs_and_prints_json() {
    let out = Command::new(env!("CARGO_BIN_EXE_splitsteal"))
        .args([
            "sim",
            "latency",
            "--work",
            "10000",
            "--procs",
            "4",
            "--latency",
            "2",
        ])
        .args(["--runs", "8", "--seed", "1", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(
        json.contains("\"runs\"") && json.contains("median_ratio"),
        "{json}"
    );
}

// ---- `splitsteal bench` as a tool scripts can trust (issue 14) ----

/// The cheapest real run: one quick workload, one repetition, no warm-up, two schedulers
/// (serial and one policy) at one thread.
fn quick_bench(out: &Path) -> Vec<String> {
    [
        "bench",
        "--quick",
        "--reps",
        "1",
        "--warmup",
        "0",
        "--workload",
        "nqueens",
        "--policy",
        "serial,chase-lev",
        "--threads",
        "1",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string()])
    .collect()
}

fn bench_cmd(args: &[String]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_splitsteal"));
    cmd.args(args)
        .env_remove("SPLITSTEAL_NUM_THREADS")
        .env_remove("SPLITSTEAL_POLICY");
    cmd
}

fn results(out: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("results.json")).expect("results.json");
    serde_json::from_str(&text).expect("results.json parses")
}

#[test]
fn a_good_run_exits_0_with_the_run_facts_in_results_json() {
    let out = scratch("ok");
    let mut args = quick_bench(&out);
    // 0 is "no limit", not a 1 s limit.
    args.extend(["--timeout".into(), "0".into()]);
    let o = bench_cmd(&args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let v = results(&out);
    let run = &v["run"];
    for f in ["command", "revision", "machine", "date", "settings"] {
        assert!(run.get(f).is_some(), "run.{f} missing: {run}");
    }
    assert_eq!(run["seed"], 0x5eed);
    assert_eq!(run["size"], "quick");
    assert!(run["partial"].is_null(), "{run}");
    let recs = v["records"].as_array().unwrap();
    assert_eq!(recs.len(), 2, "serial and chase-lev on nqueens");
    assert!(recs.iter().all(|r| r["verified"] == true));
    // Off a terminal, a line per finished workload.
    assert!(err.contains("[suite] nqueens: runs 2/2, "), "{err}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_exit_codes_are_in_the_help() {
    let o = bench_cmd(&["bench".into(), "--help".into()])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    for code in ["0 ", "1 ", "2 ", "124", "130"] {
        assert!(help.contains(&format!("\n  {code}")), "exit {code}: {help}");
    }
    assert!(help.contains("0: no limit"), "{help}");
    // One form of the seed everywhere (the reports print it in hex).
    assert!(help.contains("[default: 0x5eed]"), "{help}");
    assert!(help.contains("4 times the CPUs"), "{help}");
}

#[test]
fn values_that_cannot_run_exit_2_before_anything_runs() {
    let cases: [(&[&str], &str); 5] = [
        (&["--threads", "1025"], "--threads 1025"),
        (&["--threads", "100000"], "--threads 100000"),
        (&["--workload", "fibonacci"], "fibonacci"),
        (&["--mode", "iter", "--workload", "nqueens"], "--mode iter"),
        // The LCWS window is gone from the runtime (every join is recorded): clap rejects
        // the flag itself, with the same status.
        (
            &["--policy", "lcws-cons", "--lcws-window", "1"],
            "--lcws-window",
        ),
    ];
    for (extra, named) in cases {
        let out = scratch("bad");
        let mut args: Vec<String> = ["bench", "--quick", "--out"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.push(out.display().to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = bench_cmd(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(named), "{extra:?} should name {named}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!err.contains("runs planned"), "nothing may run: {err}");
        assert!(
            !out.exists(),
            "{extra:?}: nothing written to {}",
            out.display()
        );
    }
}

#[test]
fn an_out_folder_under_a_regular_file_is_named_before_running() {
    let dir = scratch("blocked");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("not-a-folder");
    std::fs::write(&file, b"x").unwrap();
    let out = file.join("report");
    let o = bench_cmd(&quick_bench(&out)).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&out.display().to_string()), "{err}");
    assert!(!err.contains("runs planned"), "nothing may run: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A real failing cell: under an address-space limit (`ulimit -v`), a pool of 1000
/// workers cannot get its thread stacks, so its cell is FAILED. With one malloc arena: each
/// thread's own arena reserves 64 MiB of address space, and with them a thread that had
/// started could find no memory for its thread-local destructors (glibc then aborts the
/// process) before a thread's creation failed; small allocations from the one arena leave
/// the stacks to hit the limit first. With 32 MiB stacks (`RUST_MIN_STACK`): a thread that
/// has started still maps its own signal stack (std's, a few pages), and with 2 MiB stacks
/// the space the last stack left was at times too small for one (a started thread then
/// aborted the process: 1 run in 30); sixteen times larger stacks make that rare.
#[test]
fn a_failed_cell_exits_1_after_writing_the_report() {
    let out = scratch("failed");
    let mut args = quick_bench(&out);
    let t = args.iter().position(|a| a == "--threads").unwrap();
    args[t + 1] = "1000".into();
    let o = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 500000 && exec "$@""#)
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_splitsteal"))
        .args(&args)
        .env_remove("SPLITSTEAL_NUM_THREADS")
        .env_remove("SPLITSTEAL_POLICY")
        .env("MALLOC_ARENA_MAX", "1")
        .env("RUST_MIN_STACK", (32 << 20).to_string())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("FAILED") && err.contains("chase-lev@1000"),
        "{err}"
    );
    // Far more workers than CPUs: said before the run starts.
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    if 1000 > 4 * cpus {
        let warned = err.find("warning: --threads 1000 is more than 4×");
        assert!(
            warned.is_some() && warned < err.find("runs planned"),
            "{err}"
        );
    }
    let v = results(&out);
    let failed: Vec<_> = v["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["verified"] == false)
        .collect();
    assert_eq!(failed.len(), 1, "{v}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_closed_stdout_does_not_stop_the_run() {
    let out = scratch("pipe");
    let o = output_with_closed_stdout(&mut bench_cmd(&quick_bench(&out)));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    for f in ["results.json", "results.csv", "tables.md", "index.html"] {
        assert!(out.join(f).is_file(), "{f}: {err}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn sigint_writes_the_finished_workloads_as_a_partial_report_and_exits_130() {
    let out = scratch("sigint");
    let mut args = quick_bench(&out);
    // nqueens (≈25 ms a round here) finishes first; knapsack (≈125 ms a round) is still
    // running when the signal comes.
    let w = args.iter().position(|a| a == "--workload").unwrap();
    args[w + 1] = "nqueens,knapsack".into();
    let r = args.iter().position(|a| a == "--reps").unwrap();
    args[r + 1] = "10".into();
    let (code, seen, rest) = interrupted_at(&mut bench_cmd(&args), |line| {
        line.starts_with("[suite] nqueens: runs ")
    });
    assert_eq!(code, 130, "{seen}{rest}");
    assert!(
        rest.contains("partial report") && rest.contains(&out.display().to_string()),
        "says where: {rest}"
    );
    let v = results(&out);
    let partial = v["run"]["partial"].as_str().unwrap_or_default();
    // 20 runs of nqueens done; knapsack's 20 not all.
    assert!(
        partial.starts_with("interrupted") && !partial.contains("40 of 40"),
        "{}",
        v["run"]
    );
    let recs = v["records"].as_array().unwrap();
    assert!(
        recs.iter().all(|r| r["workload"] == "nqueens") && recs.len() == 2,
        "only the finished workload: {v}"
    );
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("PARTIAL"), "the page says so");
    // The finished workload keeps its tables, in the page and in tables.md.
    assert!(
        index.contains("suite summary at 1 thread(s)") && index.contains(">nqueens</td>"),
        "{index}"
    );
    let md = std::fs::read_to_string(out.join("tables.md")).unwrap();
    assert!(md.contains("| nqueens |"), "{md}");
    let _ = std::fs::remove_dir_all(&out);
}

/// Ctrl-C before any workload finished: nothing to report, and the output folder the run
/// created is removed again rather than left empty.
#[test]
fn an_early_sigint_leaves_no_empty_folder_behind() {
    let out = scratch("early-sigint").join("report");
    let mut args = quick_bench(&out);
    // knapsack takes about 125 ms a round: 10 rounds are still running at the signal.
    let w = args.iter().position(|a| a == "--workload").unwrap();
    args[w + 1] = "knapsack".into();
    let r = args.iter().position(|a| a == "--reps").unwrap();
    args[r + 1] = "10".into();
    let out_for_check = out.clone();
    let (code, seen, rest) = interrupted_at(&mut bench_cmd(&args), |line| {
        // The run made its folder before it says how many runs it plans.
        line.contains("runs planned") && {
            assert!(out_for_check.is_dir(), "the run made its folder: {line}");
            true
        }
    });
    assert_eq!(code, 130, "{seen}{rest}");
    assert!(
        rest.contains("no workload had finished") && rest.contains("removed"),
        "{rest}"
    );
    assert!(!out.exists(), "an empty folder left behind: {rest}");
    let _ = std::fs::remove_dir_all(out.parent().unwrap());
}

#[test]
fn a_reused_out_folder_loses_the_plots_this_run_did_not_draw() {
    let out = scratch("stale");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("latency-first.svg"), "<svg/>").unwrap();
    std::fs::write(out.join("my-notes.svg"), "<svg/>").unwrap();
    let o = bench_cmd(&quick_bench(&out)).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        !out.join("latency-first.svg").exists(),
        "stale plot removed"
    );
    assert!(
        out.join("my-notes.svg").exists(),
        "not a plot name of ours: kept"
    );
    assert!(out.join("suite-speedup.svg").exists());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn dist_latency_prints_a_verdict_that_its_exit_status_agrees_with() {
    let out = scratch("dist-latency");
    let (code, stdout, stderr) = common::splitsteal(&[
        "dist",
        "latency",
        "--backend",
        "inproc",
        "--procs",
        "4",
        "--works",
        "400",
        "--latencies",
        "2",
        "--repeat",
        "3",
        "--sim-runs",
        "20",
        "--pings",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    // Real runs on a busy host could in principle exceed the bound (ratio ≈ 5 leaves a wide
    // margin): what must hold either way is a verdict per cell and overall, and an exit
    // status that agrees with it.
    let verdict = stdout
        .lines()
        .find(|l| l.starts_with("verdict: "))
        .unwrap_or_else(|| panic!("no overall verdict in:\n{stdout}\n{stderr}"));
    assert!(
        stdout.contains("W =       400, p =   4, λ =   2: within the bound in 3/3 runs")
            || stdout.contains("W =       400, p =   4, λ =   2: EXCEEDS the bound in "),
        "{stdout}"
    );
    assert!(
        stdout.contains("real/sim ") && stdout.contains("over 3 runs"),
        "{stdout}"
    );
    match code {
        0 => assert!(
            verdict.starts_with("verdict: within the paper's bound in 3/3 runs"),
            "{verdict}"
        ),
        1 => assert!(
            verdict.starts_with("verdict: EXCEEDS the paper's bound")
                && stderr.contains("exceeded the paper's bound"),
            "{verdict}\n{stderr}"
        ),
        _ => panic!("exit status {code}:\n{stderr}"),
    }
    let table = std::fs::read_to_string(out.join("median_ratios.md")).unwrap();
    assert!(table.starts_with(verdict), "{table}");
    let _ = std::fs::remove_dir_all(&out);
}

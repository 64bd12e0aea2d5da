//! The binary rejects bad input with a clear message and a failing exit code.

use std::process::Command;

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

//! `splitsteal sim` as a tool people trust in scripts (issue 14): it checks `--out` before it
//! computes, rejects absurd sizes up front, survives a closed stdout, tags its JSON with the
//! run's facts and writes an `index.html` whose links all resolve. Every run here is tiny.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{interrupted_at, output_with_closed_stdout};

/// The three simulators that write files, with tiny parameters.
fn writing_commands() -> Vec<Vec<&'static str>> {
    vec![
        vec![
            "latency",
            "--sweep",
            "--sweep-works",
            "1e4",
            "--sweep-procs",
            "4,8",
            "--sweep-latencies",
            "2",
            "--runs",
            "3",
        ],
        vec![
            "dag",
            "--procs",
            "2",
            "--depths",
            "4,5",
            "--irregular-depths",
            "20",
            "--procs-list",
            "1,2",
            "--procs-depth",
            "4",
            "--runs",
            "1",
        ],
        vec![
            "kernel",
            "--procs",
            "4",
            "--pmin",
            "1",
            "--pmax",
            "2",
            "--depth",
            "20",
            "--runs",
            "1",
            "--max-rounds",
            "1000",
        ],
    ]
}

fn sim(args: &[&str], out: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_splitsteal"));
    cmd.arg("sim")
        .args(args)
        .env_remove("SPLITSTEAL_POLICY")
        .env("SPLITSTEAL_NUM_THREADS", "2");
    if let Some(o) = out {
        cmd.arg("--out").arg(o);
    }
    cmd.output().expect("run the splitsteal binary")
}

/// A fresh scratch folder, created.
fn scratch(name: &str) -> PathBuf {
    let d = common::scratch(&format!("sim-{name}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn an_unwritable_out_fails_before_any_run_and_names_the_path() {
    let d = scratch("unwritable");
    let blocker = d.join("a-file");
    std::fs::write(&blocker, "x").unwrap();
    let out = blocker.join("report");
    // Every subcommand is tried, and all faults are reported together.
    let mut faults = Vec::new();
    for args in writing_commands() {
        let o = sim(&args, Some(&out));
        let err = text(&o.stderr);
        // One code for one kind of error: an --out that cannot be written is rejected
        // before anything runs, 2, as in `splitsteal bench`.
        if o.status.code() != Some(2) {
            faults.push(format!("{}: exit {:?}, not 2", args[0], o.status.code()));
        }
        if !err.contains(&out.display().to_string()) {
            faults.push(format!(
                "{}: the error does not name the path: {err}",
                args[0]
            ));
        }
        // Progress announces the planned runs when the computing starts: it must not have.
        if err.contains("runs planned") {
            faults.push(format!(
                "{}: computed before checking --out: {err}",
                args[0]
            ));
        }
        if err.contains("panicked") {
            faults.push(format!("{}: panicked: {err}", args[0]));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_closed_stdout_is_not_a_failure() {
    let d = scratch("pipe");
    let mut cases: Vec<Vec<String>> = writing_commands()
        .into_iter()
        .map(|a| a.into_iter().map(String::from).collect())
        .collect();
    cases.push(
        ["latency", "-w", "1e4", "-p", "4", "-l", "2", "-n", "3"]
            .map(String::from)
            .to_vec(),
    );
    for (i, args) in cases.iter().enumerate() {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_splitsteal"));
        cmd.arg("sim").args(args);
        if args[0] != "latency" || args.iter().any(|a| a == "--sweep") {
            cmd.arg("--out").arg(d.join(i.to_string()));
        }
        let o = output_with_closed_stdout(cmd.env("SPLITSTEAL_NUM_THREADS", "2"));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert!(
        d.join("0").join("index.html").is_file(),
        "the sweep still wrote its report"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn sizes_over_the_caps_are_refused_up_front() {
    let o = sim(&["latency", "-p", "16777216"], None);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("16777216") && err.contains("1048576"), "{err}");

    // Allowed p, but 1000 runs of it would take many minutes: refused by the cost estimate.
    let o = sim(&["latency", "-p", "1048576", "-n", "1000"], None);
    let err = text(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("--max-steps"), "{err}");
    assert!(
        !err.contains("runs planned"),
        "refused before running: {err}"
    );

    let o = sim(&["latency", "-n", "1e8"], None);
    let err = text(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("100000000") && err.contains("10000000"),
        "{err}"
    );

    // The calibration's simulated probes would go up to p = 2^20 with 10^5 runs each.
    let o = sim(
        &[
            "calibrate",
            "-w",
            "1e15",
            "-l",
            "2",
            "-e",
            "0.5",
            "-n",
            "100000",
        ],
        None,
    );
    let err = text(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("--max-steps"), "{err}");

    let o = sim(
        &[
            "kernel",
            "--max-rounds",
            "1e12",
            "--out",
            "/nonexistent/never",
        ],
        None,
    );
    let err = text(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("--max-steps"),
        "the cost is checked first: {err}"
    );
}

#[test]
fn json_outputs_carry_the_run_facts() {
    let d = scratch("json");
    let mut stdout_cases: Vec<(Vec<&str>, Option<PathBuf>)> = writing_commands()
        .into_iter()
        .enumerate()
        .map(|(i, a)| (a, Some(d.join(i.to_string()))))
        .collect();
    stdout_cases.push((
        vec!["latency", "-w", "1e4", "-p", "4", "-l", "2", "-n", "3"],
        None,
    ));
    stdout_cases.push((
        vec!["calibrate", "-w", "1e4", "-l", "2", "-e", "0.5", "-n", "2"],
        None,
    ));
    for (args, out) in &stdout_cases {
        let mut a = args.clone();
        a.push("--json");
        let o = sim(&a, out.as_deref());
        let s = text(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{a:?}: {}", text(&o.stderr));
        assert!(s.starts_with("{\"run\":{\"command\":"), "{a:?}: {s}");
        for key in [
            "\"revision\":",
            "\"machine\":",
            "\"date\":",
            "\"seed\":",
            "\"parameters\":",
        ] {
            assert!(s.contains(key), "{a:?} lacks {key}: {s}");
        }
    }
    for f in [
        "0/latency_summary.json",
        "1/dag_regular.json",
        "1/dag_irregular.json",
        "1/dag_procs.json",
        "2/kernel.json",
    ] {
        let s = std::fs::read_to_string(d.join(f)).unwrap();
        assert!(s.trim_start().starts_with("{\n  \"run\": {"), "{f}: {s}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// `href="…"` and `src="…"` targets of a page.
fn links(html: &str) -> Vec<String> {
    let mut v = Vec::new();
    for key in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(key) {
            rest = &rest[i + key.len()..];
            let end = rest.find('"').unwrap();
            v.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    v
}

#[test]
fn every_simulator_reports_progress_and_writes_an_index_whose_links_resolve() {
    let d = scratch("index");
    for (i, args) in writing_commands().into_iter().enumerate() {
        let out = d.join(i.to_string());
        let o = sim(&args, Some(&out));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        // Off a terminal, progress is plain lines: what is planned, then done / planned.
        assert!(
            err.contains("runs planned") && err.contains("runs done in"),
            "{args:?} reports progress: {err}"
        );
        let html = std::fs::read_to_string(out.join("index.html")).unwrap();
        let files: Vec<String> = links(&html)
            .into_iter()
            .filter(|l| !l.starts_with('#'))
            .collect();
        assert!(
            files.iter().any(|f| f.ends_with(".svg")),
            "{args:?} shows a figure: {html}"
        );
        for f in &files {
            assert!(
                out.join(f).is_file(),
                "{args:?}: index links to missing {f}"
            );
        }
        for f in files.iter().filter(|f| f.ends_with(".svg")) {
            splitsteal_report::svg_check::check_svg_file(&out.join(f))
                .unwrap_or_else(|e| panic!("{args:?} {f}: {e}"));
        }
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// An interrupted sweep says so (and that nothing was written) before it exits 130, and
/// removes the empty `--out` it had created.
#[test]
fn an_interrupted_sweep_says_so_and_exits_130() {
    let d = scratch("sweep-sigint");
    let out = d.join("report");
    // The paper's full sweep: tens of seconds, far longer than the test waits.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_splitsteal"));
    cmd.args(["sim", "latency", "--sweep", "--out"])
        .arg(&out)
        .env_remove("SPLITSTEAL_POLICY")
        .env("SPLITSTEAL_NUM_THREADS", "2");
    let (code, seen, rest) = interrupted_at(&mut cmd, |line| line.contains("runs planned"));
    assert_eq!(code, 130, "{seen}{rest}");
    assert!(
        rest.contains("interrupted") && rest.contains("the sweep stopped before it finished"),
        "{rest}"
    );
    assert!(!out.exists(), "the empty folder is removed: {rest}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// `sim scaling` on the committed suite run, tiny: exit 0, JSON with the run's facts, an
/// index whose links resolve; a missing `--from` or an unwritable `--out` is refused with
/// exit 2 and the path, before anything is simulated.
#[test]
fn scaling_reads_a_suite_run_and_refuses_bad_input_up_front() {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/results/suite/results.json");
    let suite = suite.to_str().unwrap();
    let tiny = [
        "scaling",
        "--from",
        suite,
        "--procs-list",
        "2,4",
        "--runs",
        "1",
        "--max-fib-depth",
        "8",
        "--max-random-nodes",
        "50000",
    ];
    let d = scratch("scaling");
    let out = d.join("report");
    let mut args = tiny.to_vec();
    args.push("--json");
    let o = sim(&args, Some(&out));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    assert!(s.starts_with("{\"run\":{\"command\":"), "{s}");
    assert!(s.contains("\"verdict\":"), "{s}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for f in links(&html).iter().filter(|l| !l.starts_with('#')) {
        assert!(out.join(f).is_file(), "index links to missing {f}");
    }

    let missing = d.join("no-results.json");
    let mut args = tiny.to_vec();
    args[2] = missing.to_str().unwrap();
    let o = sim(&args, Some(&d.join("never")));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no-results.json") && !err.contains("panicked"),
        "{err}"
    );
    assert!(!d.join("never").exists());

    let blocker = d.join("a-file");
    std::fs::write(&blocker, "x").unwrap();
    let o = sim(&tiny, Some(&blocker.join("report")));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&blocker.display().to_string()), "{err}");
    assert!(
        !err.contains("runs planned"),
        "simulated before checking --out: {err}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

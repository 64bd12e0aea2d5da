//! What the CLI test files share: scratch folders, a run whose stdout reader is gone, and
//! a run interrupted (SIGINT) at a chosen point.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A fresh, unique path under the system's temporary folder (removed if it exists, not
/// created): tests in one binary run in parallel and test binaries run side by side.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "splitsteal-cli-{name}-{}-{:?}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Runs `cmd` with its stdout reader closed before the first line is written, as with
/// `| head -0`; stderr is captured.
pub fn output_with_closed_stdout(cmd: &mut Command) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the splitsteal binary");
    drop(child.stdout.take());
    child
        .wait_with_output()
        .expect("wait for the splitsteal binary")
}

/// Runs the `splitsteal` binary with `args`, outside any pool settings of the caller's
/// environment: (exit code, stdout, stderr).
#[allow(dead_code)] // Not every test file runs the binary this way.
pub fn splitsteal(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_splitsteal"))
        .args(args)
        .env_remove("SPLITSTEAL_NUM_THREADS")
        .env_remove("SPLITSTEAL_POLICY")
        .output()
        .expect("run the splitsteal binary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `cmd`, sends it SIGINT once a line of its stderr satisfies `at`, and waits for it:
/// (exit code, stderr up to that line, the rest of stderr). stdout is discarded.
#[allow(dead_code)] // Not every test file interrupts a run.
pub fn interrupted_at(cmd: &mut Command, at: impl Fn(&str) -> bool) -> (i32, String, String) {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the splitsteal binary");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        let n = stderr.read_line(&mut line).unwrap();
        assert_ne!(n, 0, "the run ended before the awaited line: {seen}");
        seen.push_str(&line);
        if at(&line) {
            break;
        }
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid, which has not been waited for (so the pid
    // is not reused); it only sends a signal.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    (status.code().unwrap_or(-1), seen, rest)
}

//! What the CLI test files share: scratch folders and a run whose stdout reader is gone.

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

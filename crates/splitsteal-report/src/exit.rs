//! The exit statuses of `splitsteal`, so that scripts and CI can tell a good run from a
//! failed, rejected, hung or interrupted one.

use std::fmt;

/// How a `splitsteal` command ends. The binary maps it to its exit status:
///
/// | status | meaning |
/// |---|---|
/// | 0 | [`Exit::Ok`]: everything ran and every result verified |
/// | 1 | [`Exit::Failed`]: a cell FAILED (wrong output, or its pool could not be built), a target that is not noise-sensitive failed ("every run verified"), or a report file could not be written |
/// | 2 | [`Exit::Usage`]: bad values rejected before anything ran, an output folder that cannot be written among them, in every command (clap's own usage errors are 2 as well) |
/// | 124 | [`Exit::Timeout`]: the `--timeout` watchdog fired; the finished results were written, marked partial |
/// | 130 | [`Exit::Interrupted`]: SIGINT, SIGTERM or SIGHUP; the finished results were written, marked partial |
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Success.
    Ok,
    /// The run went through but something failed.
    Failed,
    /// Bad values, rejected up front.
    Usage,
    /// A single run hung past `--timeout`.
    Timeout,
    /// Stopped by a signal.
    Interrupted,
}

impl Exit {
    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Failed => 1,
            // The code clap uses for its own usage errors: one code for every rejected input.
            Exit::Usage => 2,
            // timeout(1)'s code for a command that ran out of time.
            Exit::Timeout => 124,
            // 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C.
            Exit::Interrupted => 130,
        }
    }

    /// Ends the process now with this status (for the watchdog and signal threads, which
    /// cannot return to `main`).
    pub fn exit_now(self) -> ! {
        std::process::exit(i32::from(self.code()))
    }
}

/// An error that says which [`Exit`] status it ends the command with; `main` looks for it
/// in the error it gets and exits with that status (any other error is [`Exit::Failed`]).
#[derive(Debug)]
pub struct ExitError {
    /// The status.
    pub exit: Exit,
    /// The one-line message, printed after `error: `.
    pub message: String,
}

impl ExitError {
    /// A value rejected before anything ran ([`Exit::Usage`]).
    pub fn usage(message: impl Into<String>) -> ExitError {
        ExitError {
            exit: Exit::Usage,
            message: message.into(),
        }
    }

    /// Something failed in a run that went through ([`Exit::Failed`]).
    pub fn failed(message: impl Into<String>) -> ExitError {
        ExitError {
            exit: Exit::Failed,
            message: message.into(),
        }
    }

    /// The status of any boxed error: its own if it is an `ExitError`, else [`Exit::Failed`].
    pub fn exit_of(e: &(dyn std::error::Error + 'static)) -> Exit {
        e.downcast_ref::<ExitError>()
            .map_or(Exit::Failed, |x| x.exit)
    }
}

impl fmt::Display for ExitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExitError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_documented_ones() {
        let codes: Vec<u8> = [
            Exit::Ok,
            Exit::Failed,
            Exit::Usage,
            Exit::Timeout,
            Exit::Interrupted,
        ]
        .map(Exit::code)
        .to_vec();
        assert_eq!(codes, [0, 1, 2, 124, 130]);
    }

    #[test]
    fn boxed_errors_keep_their_status() {
        let e: Box<dyn std::error::Error> = Box::new(ExitError::usage("--threads 0"));
        assert_eq!(ExitError::exit_of(&*e), Exit::Usage);
        assert_eq!(e.to_string(), "--threads 0");
        let other: Box<dyn std::error::Error> = "plain".into();
        assert_eq!(ExitError::exit_of(&*other), Exit::Failed);
    }
}

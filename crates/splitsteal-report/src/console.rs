//! Console output that does not kill a run when its reader goes away.
//!
//! Rust ignores `SIGPIPE`, so `println!` panics once the other end of a pipe is closed
//! (`splitsteal bench | head`). A benchmark run is worth more than its console output:
//! these functions drop output to a closed stream and remember it, so the run goes on to
//! write its report files and exits with its own status.

use std::fmt::Arguments;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

// Relaxed: a flag read only to skip later writes; nothing else is published through it.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);

fn write_line(stream: &mut dyn Write, closed: &AtomicBool, args: Arguments) {
    if closed.load(Ordering::Relaxed) {
        return;
    }
    let r = stream
        .write_fmt(args)
        .and_then(|()| stream.write_all(b"\n"))
        .and_then(|()| stream.flush());
    if let Err(e) = r {
        if e.kind() == io::ErrorKind::BrokenPipe {
            closed.store(true, Ordering::Relaxed);
        }
    }
}

/// Writes one line to stdout; a closed stdout drops it (and every later line).
pub fn out_line(args: Arguments) {
    write_line(&mut io::stdout().lock(), &STDOUT_CLOSED, args);
}

/// Writes one line to stderr; a closed stderr drops it (and every later line).
pub fn err_line(args: Arguments) {
    write_line(&mut io::stderr().lock(), &STDERR_CLOSED, args);
}

/// Whether a write to stdout has found it closed: a command whose only product is its
/// stdout may stop early.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// `println!` that survives a closed stdout.
#[macro_export]
macro_rules! say {
    () => { $crate::console::out_line(format_args!("")) };
    ($($arg:tt)*) => { $crate::console::out_line(format_args!($($arg)*)) };
}

/// `eprintln!` that survives a closed stderr.
#[macro_export]
macro_rules! tell {
    () => { $crate::console::err_line(format_args!("")) };
    ($($arg:tt)*) => { $crate::console::err_line(format_args!($($arg)*)) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader has gone.
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_stream_is_remembered_and_later_lines_are_dropped() {
        let flag = AtomicBool::new(false);
        write_line(&mut Closed, &flag, format_args!("lost"));
        assert!(flag.load(Ordering::Relaxed));
        let mut buf = Vec::new();
        write_line(&mut buf, &flag, format_args!("also lost"));
        assert!(buf.is_empty(), "nothing is written after the pipe closed");
    }

    #[test]
    fn an_open_stream_gets_whole_lines() {
        let flag = AtomicBool::new(false);
        let mut buf = Vec::new();
        write_line(&mut buf, &flag, format_args!("a {}", 1));
        write_line(&mut buf, &flag, format_args!("b"));
        assert_eq!(buf, b"a 1\nb\n");
        assert!(!flag.load(Ordering::Relaxed));
    }
}

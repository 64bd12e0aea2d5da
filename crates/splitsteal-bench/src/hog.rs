//! A competing CPU-bound process for the multiprogramming experiment (the ABP paper).

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

/// A child process spinning on one core (`sh -c 'while :; do :; done'`).
///
/// It is killed and reaped when the guard is dropped (also when unwinding from a panic),
/// and the kernel kills it if this process dies first (`PR_SET_PDEATHSIG`), so an aborted
/// or interrupted benchmark never leaves it behind.
#[derive(Debug)]
pub struct Hog {
    child: Child,
}

impl Hog {
    /// Starts the spinning child.
    pub fn start() -> io::Result<Hog> {
        let parent = std::process::id() as libc::pid_t;
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "while :; do :; done"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: the closure runs in the forked child before `exec`; it only calls
        // `prctl` and `getppid`, both async-signal-safe, and allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The parent may have died before prctl took effect.
                if libc::getppid() != parent {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
        Ok(Hog {
            child: cmd.spawn()?,
        })
    }

    /// The child's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

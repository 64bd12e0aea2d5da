//! The operating system's side of the signal policies' exposure signal (`crate::exposure`
//! has the protocol): which numbers may carry it, installing and checking its handler,
//! unblocking it, naming a thread and sending it one.
//!
//! Every Unix has `SIGURG`, the default ([`default_signal`]); Linux and Android also offer
//! the real-time signals `SIGRTMIN..=SIGRTMAX`. Windows and WebAssembly have no signals that
//! one thread can send another: there [`SUPPORTED`] is `false`, `build` refuses the signal
//! policies, and nothing here is called.

use std::ffi::c_int;

/// Whether the signal policies can work here.
pub(crate) const SUPPORTED: bool = cfg!(unix);

/// The handler's type: the signal number, nothing else.
pub(crate) type Handler = extern "C" fn(c_int);

/// A thread that signals may be sent to, as an integer (a `pthread_t` on Unix).
pub(crate) type ThreadId = usize;

pub(crate) use imp::*;

#[cfg(unix)]
mod imp {
    use super::{Handler, ThreadId};
    use std::ffi::c_int;
    use std::io;

    /// `SIGURG`: see `crate::exposure`, "Which signal".
    pub(crate) fn default_signal() -> c_int {
        libc::SIGURG
    }

    /// The real-time signals, where the platform has them.
    fn real_time() -> Option<std::ops::RangeInclusive<c_int>> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return Some(libc::SIGRTMIN()..=libc::SIGRTMAX());
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        return None;
    }

    /// `Ok` if `signo` may carry exposure requests: `SIGURG` or a real-time signal. Any
    /// other would change what the program's own signals do.
    pub(crate) fn check_number(signo: c_int) -> Result<(), String> {
        if signo == libc::SIGURG || real_time().is_some_and(|r| r.contains(&signo)) {
            return Ok(());
        }
        Err(match real_time() {
            Some(r) => format!(
                "exposure signal {signo} is neither SIGURG ({}) nor a real-time signal \
                 ({}..={}): any other would change what the program's own signals do",
                libc::SIGURG,
                r.start(),
                r.end()
            ),
            None => format!(
                "exposure signal {signo} is not SIGURG ({}), the only one that may carry \
                 exposure requests on {}, which has no real-time signals",
                libc::SIGURG,
                super::super::name()
            ),
        })
    }

    /// The disposition of `signo`: the handler's address, `SIG_DFL` or `SIG_IGN`.
    fn disposition(signo: c_int) -> io::Result<usize> {
        // SAFETY: a null new action only reads the current disposition into `old`.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signo, std::ptr::null(), &mut old) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(old.sa_sigaction)
        }
    }

    /// Installs `handler` for `signo` (with `SA_RESTART`), unless a handler other than
    /// `handler` owns it.
    pub(crate) fn install_handler(signo: c_int, handler: Handler) -> Result<(), String> {
        let old = disposition(signo)
            .map_err(|e| format!("cannot read the disposition of signal {signo}: {e}"))?;
        if old == handler as usize {
            return Ok(());
        }
        if old != libc::SIG_DFL && old != libc::SIG_IGN {
            return Err(format!(
                "signal {signo} already has a handler installed by someone else; \
                 choose another with ThreadPoolBuilder::signal"
            ));
        }
        // SAFETY: the action is zeroed, then filled: a handler of the right type, an
        // initialized empty mask.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as usize;
            // SA_RESTART: blocking system calls in tasks restart instead of failing with
            // EINTR, where the kernel restarts them at all (see `crate::exposure`).
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signo, &action, std::ptr::null_mut()) != 0 {
                return Err(format!(
                    "cannot install the exposure handler for signal {signo}: {}",
                    io::Error::last_os_error()
                ));
            }
        }
        Ok(())
    }

    /// Whether `signo`'s disposition is `handler` (`false`: the program installed another
    /// handler, or ignores or resets the signal, after the pool was built).
    pub(crate) fn handler_is(signo: c_int, handler: Handler) -> bool {
        // Unreadable (cannot happen for a number `check_number` accepted): assume ours.
        disposition(signo).map_or(true, |d| d == handler as usize)
    }

    /// Unblocks `signo` in the calling thread.
    pub(crate) fn unblock(signo: c_int) {
        // SAFETY: `sigset_t` is plain data, initialized by `sigemptyset`; `pthread_sigmask`
        // only reads the set (no old mask asked for).
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signo);
            // Cannot fail with a valid `how` and set.
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }

    /// The calling thread, as [`send`] names it.
    pub(crate) fn current_thread() -> ThreadId {
        // SAFETY: `pthread_self` has no preconditions.
        let me = unsafe { libc::pthread_self() };
        // `pthread_t` is an integer or a pointer, never wider than `usize`.
        me as ThreadId
    }

    /// Sends `signo` to `thread`; `false` if it could not be sent (`EAGAIN` once the
    /// real-time signal queue limit is reached).
    ///
    /// # Safety
    /// `thread` must be a live thread, named by [`current_thread`].
    pub(crate) unsafe fn send(thread: ThreadId, signo: c_int) -> bool {
        // SAFETY: the caller guarantees the thread is alive; the number was checked.
        unsafe { libc::pthread_kill(thread as libc::pthread_t, signo) == 0 }
    }
}

#[cfg(not(unix))]
mod imp {
    //! No signals: `build` refuses the signal policies (`SUPPORTED` is `false`), so only
    //! `current_thread` and `default_signal` are ever called.
    use super::{Handler, ThreadId};
    use std::ffi::c_int;

    /// No signal: a number no signal has, never sent.
    pub(crate) fn default_signal() -> c_int {
        0
    }

    pub(crate) fn check_number(_signo: c_int) -> Result<(), String> {
        Err(format!("{} has no signals", super::super::name()))
    }

    pub(crate) fn install_handler(signo: c_int, _handler: Handler) -> Result<(), String> {
        check_number(signo)
    }

    pub(crate) fn handler_is(_signo: c_int, _handler: Handler) -> bool {
        false
    }

    pub(crate) fn unblock(_signo: c_int) {}

    pub(crate) fn current_thread() -> ThreadId {
        0
    }

    /// # Safety
    /// Never called: no signal policy runs here.
    pub(crate) unsafe fn send(_thread: ThreadId, _signo: c_int) -> bool {
        false
    }
}

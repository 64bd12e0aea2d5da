//! The heavy half of the asymmetric fence (`crate::wakeup`, `crate::deque::Asym`): one call
//! that makes every running thread of the process execute a full memory barrier before it
//! returns (a thread that is not running passes one when it is switched out).
//!
//! - **Linux, Android**: `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)` (kernel 4.14 and
//!   later; the process registers once). A seccomp filter or an old kernel may refuse it:
//!   [`register`] then returns `false`.
//! - **Windows**: `FlushProcessWriteBuffers` (every version since Vista), the call .NET's
//!   garbage collector and the userspace RCU port use for the same idiom.
//! - **Elsewhere** (macOS, the BSDs, WebAssembly): none. macOS has no documented call with
//!   that guarantee (.NET reads every thread's registers through Mach to force one, an
//!   undocumented side effect this crate does not rely on). [`register`] returns `false`,
//!   and the callers fall back: an `asym` owner fences its own pops and idle workers nap
//!   before they sleep (the costs are in `docs/policies.md`).
//!
//! Under loom and Miri, which cannot run a system call, `crate::wakeup` models both halves
//! as `SeqCst` fences and calls nothing here.
#![cfg_attr(any(all(test, loom), miri), allow(dead_code))]

/// Registers the process for [`run`], once, and tries one barrier (a filter may allow the
/// one and refuse the other); whether [`run`] works here.
pub(crate) fn register() -> bool {
    imp::register()
}

/// One process-wide barrier; `false` if the system refused it.
pub(crate) fn run() -> bool {
    imp::run()
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod imp {
    use std::sync::OnceLock;

    // From <linux/membarrier.h>.
    const CMD_PRIVATE_EXPEDITED: libc::c_int = 1 << 3;
    const CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_int = 1 << 4;

    static AVAILABLE: OnceLock<bool> = OnceLock::new();

    fn call(cmd: libc::c_int) -> bool {
        // SAFETY: membarrier takes two integers and touches no memory of ours.
        unsafe { libc::syscall(libc::SYS_membarrier, cmd, 0, 0) == 0 }
    }

    pub(super) fn register() -> bool {
        *AVAILABLE
            .get_or_init(|| call(CMD_REGISTER_PRIVATE_EXPEDITED) && call(CMD_PRIVATE_EXPEDITED))
    }

    pub(super) fn run() -> bool {
        register() && call(CMD_PRIVATE_EXPEDITED)
    }
}

#[cfg(windows)]
mod imp {
    #[link(name = "kernel32")]
    unsafe extern "system" {
        // <processthreadsapi.h>: no arguments, no result, cannot fail.
        fn FlushProcessWriteBuffers();
    }

    pub(super) fn register() -> bool {
        true
    }

    pub(super) fn run() -> bool {
        // SAFETY: takes nothing, touches no memory of ours.
        unsafe { FlushProcessWriteBuffers() };
        true
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android", windows)))]
mod imp {
    pub(super) fn register() -> bool {
        false
    }

    pub(super) fn run() -> bool {
        false
    }
}

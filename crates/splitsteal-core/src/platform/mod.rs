//! Everything that differs from one operating system to another, one file per concern.
//! The rest of the runtime calls these functions and never names a platform.
//!
//! | concern | file | Linux, Android | other Unix (macOS, the BSDs) | Windows | WebAssembly |
//! |---|---|---|---|---|---|
//! | the exposure signal of the signal policies | [`signals`] | `SIGURG` or a real-time signal | `SIGURG` | none | none |
//! | the heavy half of the asymmetric fence | [`heavy_fence`] | `membarrier` | none: owners fence | `FlushProcessWriteBuffers` | none: owners fence |
//! | pinning workers to CPUs | [`affinity`] | `sched_setaffinity` | none | none | none |
//!
//! Where a concern has no implementation, the module says so with a `SUPPORTED` constant or
//! a `false` return, and the caller chooses what to do: `ThreadPoolBuilder::build` refuses a
//! policy or setting that cannot work (naming the platform and what works there), and the
//! asymmetric fence falls back to a fence on the owner's side.
//!
//! Whether threads can be spawned at all (not on `wasm32-unknown-unknown` and
//! `wasm32-wasip1`) is not decided here: `std` answers it when the pool spawns its workers,
//! and the global pool then runs on the calling thread (`crate::registry`).

pub(crate) mod affinity;
pub(crate) mod heavy_fence;
pub(crate) mod signals;

/// The platform's name, for error messages.
pub(crate) fn name() -> String {
    let os = std::env::consts::OS;
    let arch = std::env::consts::ARCH;
    if os.is_empty() {
        arch.to_string()
    } else {
        format!("{os} on {arch}")
    }
}

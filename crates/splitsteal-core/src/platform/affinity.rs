//! Pinning a worker to a CPU (`ThreadPoolBuilder::pin_threads`): Linux and Android only,
//! through `sched_setaffinity`. macOS offers only affinity *hints* between threads, and the
//! other systems need APIs this crate does not call yet; there `build` refuses the setting
//! ([`SUPPORTED`] is `false`).

/// Whether [`pin_to_allowed_cpu`] pins anything here.
pub(crate) const SUPPORTED: bool = cfg!(any(target_os = "linux", target_os = "android"));

/// Pins the calling thread to the `index`-th CPU (round-robin) of the set it may run on.
/// Best effort: a failure leaves the thread unpinned.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn pin_to_allowed_cpu(index: usize) {
    // SAFETY: `cpu_set_t` is plain data; the calls only read and write the sets we pass.
    unsafe {
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut allowed) != 0 {
            return;
        }
        let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &allowed))
            .collect();
        if cpus.is_empty() {
            return;
        }
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpus[index % cpus.len()], &mut one);
        libc::sched_setaffinity(0, size, &one);
    }
}

/// Never called: `build` refuses `pin_threads(true)` where [`SUPPORTED`] is `false`.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn pin_to_allowed_cpu(_index: usize) {}

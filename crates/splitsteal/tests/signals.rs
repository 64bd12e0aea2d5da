//! Signal-based LCWS: tasks blocked in system calls while exposure signals fly see no
//! spurious error (the handler is installed with SA_RESTART).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use splitsteal::{Policy, ThreadPoolBuilder};

fn spin_fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal::join(|| spin_fib(n - 1), || spin_fib(n - 2));
    a + b
}

/// A task that keeps private work in its deque (so thieves signal its worker) and blocks
/// in `read` on a pipe and in `thread::sleep` meanwhile.
fn blocking_under_signals(policy: Policy) {
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .policy(policy)
        .build()
        .unwrap();
    let mut fds = [0; 2];
    // SAFETY: `pipe` writes two descriptors into the array.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let (rd, wr) = (fds[0], fds[1]);
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: writing 4 bytes from a live buffer to our pipe.
        let n = unsafe { libc::write(wr, b"ping".as_ptr().cast(), 4) };
        assert_eq!(n, 4);
    });
    let stop = AtomicBool::new(false);
    let signals_before = pool.stats().signals;
    let (read_result, slept) = pool.install(|| {
        splitsteal::join(
            || {
                // Push private work first so thieves find PrivateWork and signal us.
                splitsteal::join(
                    || {
                        let mut buf = [0u8; 4];
                        // Raw `read`: no retry loop that would hide an EINTR.
                        // SAFETY: reading into a live 4-byte buffer.
                        let n = unsafe { libc::read(rd, buf.as_mut_ptr().cast(), 4) };
                        let err = std::io::Error::last_os_error();
                        let t = Instant::now();
                        std::thread::sleep(Duration::from_millis(100));
                        let slept = t.elapsed();
                        stop.store(true, Ordering::SeqCst);
                        ((n, buf, err.raw_os_error()), slept)
                    },
                    || spin_fib(12),
                )
                .0
            },
            || {
                // The other worker: keep stealing (and signalling) until the reader is done.
                while !stop.load(Ordering::SeqCst) {
                    std::hint::black_box(spin_fib(10));
                    std::thread::yield_now();
                }
            },
        )
        .0
    });
    writer.join().unwrap();
    let (n, buf, errno) = read_result;
    assert_eq!(n, 4, "{policy}: read failed with errno {errno:?}");
    assert_eq!(&buf, b"ping", "{policy}");
    assert!(
        slept >= Duration::from_millis(100),
        "{policy}: slept {slept:?}"
    );
    // The experiment is only meaningful if signals were actually sent meanwhile.
    assert!(
        pool.stats().signals > signals_before,
        "{policy}: no signal was sent"
    );
    // SAFETY: closing our own descriptors.
    unsafe {
        libc::close(rd);
        libc::close(wr);
    }
}

#[test]
fn blocking_syscalls_in_tasks_survive_exposure_signals() {
    for policy in [Policy::LcwsSignal, Policy::LcwsHalf] {
        blocking_under_signals(policy);
    }
}

#[test]
fn signal_policies_compute_correctly_with_many_signals() {
    for &policy in Policy::ALL.iter().filter(|p| p.uses_signals()) {
        let pool = ThreadPoolBuilder::new()
            .num_threads(3)
            .policy(policy)
            .build()
            .unwrap();
        for _ in 0..5 {
            assert_eq!(pool.install(|| spin_fib(22)), 17711, "{policy}");
        }
    }
}

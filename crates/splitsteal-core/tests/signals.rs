//! Signal-based LCWS: tasks blocked in system calls while exposure signals fly see no
//! spurious error where `SA_RESTART` restarts the call (`read`, and `thread::sleep`, which
//! retries by itself), and do see `EINTR` where the kernel never restarts it (`poll` with a
//! timeout), as the signal policies' documentation says.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use splitsteal_core::{Policy, ThreadPoolBuilder};

fn spin_fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = splitsteal_core::join(|| spin_fib(n - 1), || spin_fib(n - 2));
    a + b
}

fn spin_for(d: Duration) {
    let t = Instant::now();
    while t.elapsed() < d {
        std::hint::spin_loop();
    }
}

/// Pushes `k` private tasks of 8 ms each, then runs `body`. The other worker can only get
/// those tasks by sending exposure signals, one per task, so signals keep arriving for
/// about `k * 8 ms` while `body` blocks in system calls.
fn with_private_tasks<R: Send>(k: usize, body: &(dyn Fn() -> R + Sync)) -> R {
    if k == 0 {
        return body();
    }
    splitsteal_core::join(
        || with_private_tasks(k - 1, body),
        || spin_for(Duration::from_millis(8)),
    )
    .0
}

/// A task that blocks in `thread::sleep` and then in `read` on a pipe while the other
/// worker keeps signalling it.
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
    let stop = AtomicBool::new(false);
    let signals_before = pool.stats().signals;
    let signals_sent = || pool.stats().signals - signals_before;
    let (read_result, slept) = std::thread::scope(|s| {
        // The writer waits for the thief's signals rather than for a fixed time, so a
        // loaded machine that delays the thief cannot end the read before any signal
        // lands (lcws-half needs about six signals to expose 40 tasks; waiting for three
        // keeps the read blocked while they arrive). After 10 s it writes anyway and the
        // signal-count assertion below fails.
        s.spawn(|| {
            let t = Instant::now();
            while signals_sent() < 3 && t.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(5));
            }
            std::thread::sleep(Duration::from_millis(20));
            // SAFETY: writing 4 bytes from a live buffer to our pipe.
            let n = unsafe { libc::write(wr, b"ping".as_ptr().cast(), 4) };
            assert_eq!(n, 4);
        });
        pool.install(|| {
            with_private_tasks(40, &|| {
                let t = Instant::now();
                std::thread::sleep(Duration::from_millis(100));
                let slept = t.elapsed();
                let mut buf = [0u8; 4];
                // Raw `read`: no retry loop that would hide an EINTR.
                // SAFETY: reading into a live 4-byte buffer.
                let n = unsafe { libc::read(rd, buf.as_mut_ptr().cast(), 4) };
                let err = std::io::Error::last_os_error();
                stop.store(true, Ordering::SeqCst);
                ((n, buf, err.raw_os_error()), slept)
            })
        })
    });
    let (n, buf, errno) = read_result;
    assert_eq!(n, 4, "{policy}: read failed with errno {errno:?}");
    assert_eq!(&buf, b"ping", "{policy}");
    assert!(
        slept >= Duration::from_millis(100),
        "{policy}: slept {slept:?}"
    );
    // The experiment is only meaningful if signals were actually sent meanwhile (one per
    // task for lcws-signal; lcws-half exposes half of the private part per signal, so 40
    // tasks take about six).
    let signals = pool.stats().signals - signals_before;
    assert!(signals >= 3, "{policy}: only {signals} signals were sent");
    assert!(stop.load(Ordering::SeqCst));
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

/// `poll(2)` with a timeout is never restarted after a signal handler, `SA_RESTART` or not
/// (signal(7)): under the signal policies a task that polls while a thief asks for its
/// private work sees `EINTR`. This keeps the documentation of that caveat true.
#[test]
fn poll_with_a_timeout_sees_eintr_under_signal_policies() {
    for policy in [Policy::LcwsSignal, Policy::LcwsHalf] {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(policy)
            .build()
            .unwrap();
        let interrupted = pool.install(|| {
            with_private_tasks(40, &|| {
                let t = Instant::now();
                let mut interrupted = 0;
                while t.elapsed() < Duration::from_millis(250) {
                    // SAFETY: no descriptors; a plain 20 ms timed wait.
                    let r = unsafe { libc::poll(std::ptr::null_mut(), 0, 20) };
                    if r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
                    {
                        interrupted += 1;
                    }
                }
                interrupted
            })
        });
        assert!(interrupted > 0, "{policy}: poll was never interrupted");
    }
}

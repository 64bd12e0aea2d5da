//! The clock every rank reads: `CLOCK_MONOTONIC`, shared by all processes of one host, so
//! a send time stamped by one rank can be compared with another rank's clock.

/// Nanoseconds of `CLOCK_MONOTONIC` (the same clock in every process of a host).
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec that outlives the call, and
    // CLOCK_MONOTONIC is a clock id every Linux and macOS kernel supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_MONOTONIC) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Waits until the clock reads `deadline_ns`: a timed wait (the thread sleeps) or, with
/// `spin`, a busy loop on the clock.
pub fn wait_until(deadline_ns: u64, spin: bool) {
    loop {
        let now = now_ns();
        if now >= deadline_ns {
            return;
        }
        if spin {
            std::hint::spin_loop();
        } else {
            std::thread::sleep(std::time::Duration::from_nanos(deadline_ns - now));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_is_monotonic_and_waits_reach_their_deadline() {
        let a = now_ns();
        wait_until(a + 200_000, false);
        let b = now_ns();
        assert!(b >= a + 200_000);
        wait_until(b + 50_000, true);
        assert!(now_ns() >= b + 50_000);
    }
}

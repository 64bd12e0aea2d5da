//! The transport's real one-way latency: a ping-pong between ranks 0 and 1, half the median
//! round trip. `spin` receives by polling the transport without pause (the transport's own
//! latency); otherwise through the protocols' receive path (probe and sleep for MPI).

use serde::Serialize;

use crate::clock::now_ns;
use crate::transport::{kind, Endpoint, Transport};
use crate::{proto, FAR};

/// Result of a ping-pong.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PingResult {
    /// Round trips measured.
    pub round_trips: u64,
    /// Receives polled without pause.
    pub spin: bool,
    /// Half the median round trip, in nanoseconds.
    pub one_way_ns: f64,
    /// Half the smallest round trip, in nanoseconds.
    pub min_one_way_ns: f64,
}

fn recv_kind<T: Transport + ?Sized>(ep: &mut Endpoint<'_, T>, want: u64, spin: bool) {
    loop {
        if spin {
            if let Some(p) = ep.transport().try_recv() {
                if p.data.first() == Some(&want) {
                    return;
                }
            } else {
                std::hint::spin_loop();
            }
        } else if ep.next(FAR).is_some_and(|m| m.kind == want) {
            return;
        }
    }
}

/// Measures `n` round trips between rank 0 (the caller) and rank 1 (following).
pub fn lead<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    epoch: u64,
    n: u64,
    spin: bool,
) -> Option<PingResult> {
    if ep.transport().size() < 2 || n == 0 {
        return None;
    }
    ep.send_epoch(1, kind::START, epoch, &[proto::PING, n, spin as u64]);
    ep.begin(epoch, 0);
    let mut rtt = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let t = now_ns();
        ep.send(1, kind::PING, &[]);
        recv_kind(ep, kind::PONG, spin);
        rtt.push(now_ns() - t);
    }
    rtt.sort_unstable();
    Some(PingResult {
        round_trips: n,
        spin,
        one_way_ns: rtt[rtt.len() / 2] as f64 / 2.0,
        min_one_way_ns: rtt[0] as f64 / 2.0,
    })
}

pub(crate) fn follow_start<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    epoch: u64,
    start: &[u64],
) {
    let (n, spin) = (start[1], start[2] != 0);
    ep.begin(epoch, 0);
    for _ in 0..n {
        recv_kind(ep, kind::PING, spin);
        ep.send(0, kind::PONG, &[]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ping_pong_measures_both_ways() {
        let (r, _) = crate::in_process(3, false, |ep| {
            (lead(ep, 1, 20, true), lead(ep, 2, 20, false))
        });
        for p in [r.0.unwrap(), r.1.unwrap()] {
            assert_eq!(p.round_trips, 20);
            assert!(p.one_way_ns >= p.min_one_way_ns && p.min_one_way_ns > 0.0);
        }
    }
}

//! The transport trait, the in-process backend, and the message layer every protocol uses
//! ([`Endpoint`]: run epochs, and the software latency λ).
//!
//! A message is a `Vec<u64>`: `[kind, epoch, sent_ns, payload...]`. `sent_ns` is the
//! sender's [`now_ns`] at the send; a *delayed* message (the steal protocol: request, work,
//! refusal) is handled no earlier than `sent_ns + λ` by the receiver's clock, which on one
//! host is the same `CLOCK_MONOTONIC` as the sender's. Control messages (start, stop, the
//! termination counts) are handled at once: they are not part of the model, and counting
//! them separately keeps them out of the makespan.

use std::collections::{BinaryHeap, VecDeque};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

use crate::clock::now_ns;

/// A message as the transport carries it: its sender and its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packet {
    /// Rank of the sender.
    pub from: usize,
    /// `[kind, epoch, sent_ns, payload...]`.
    pub data: Vec<u64>,
}

/// What the protocols need from a message transport: point-to-point sends of `u64` words to
/// a rank, and receives from any rank.
pub trait Transport {
    /// This process's rank, `0..size()`.
    fn rank(&self) -> usize;
    /// Number of ranks.
    fn size(&self) -> usize;
    /// Sends `data` to rank `to` (never to itself). Must not block for long (eager sends).
    fn send(&self, to: usize, data: &[u64]);
    /// A message that has arrived, if any; never blocks.
    fn try_recv(&self) -> Option<Packet>;
    /// The next message, waiting at most `timeout` for one. Must not spin: a backend
    /// without a blocking receive with a timeout probes and sleeps briefly.
    fn recv_timeout(&self, timeout: Duration) -> Option<Packet>;
}

/// One rank of the in-process backend: threads and channels, same protocol code.
#[derive(Debug)]
pub struct InProc {
    rank: usize,
    peers: Vec<Sender<Packet>>,
    inbox: Receiver<Packet>,
}

impl InProc {
    /// `size` connected endpoints, one per rank (give each to its own thread).
    pub fn group(size: usize) -> Vec<InProc> {
        let (txs, rxs): (Vec<_>, Vec<_>) = (0..size).map(|_| channel()).unzip();
        rxs.into_iter()
            .enumerate()
            .map(|(rank, inbox)| InProc {
                rank,
                peers: txs.clone(),
                inbox,
            })
            .collect()
    }
}

impl Transport for InProc {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.peers.len()
    }
    fn send(&self, to: usize, data: &[u64]) {
        debug_assert_ne!(to, self.rank, "a rank never sends to itself");
        // A peer that already returned (its run ended) drops what it would have dropped.
        let _ = self.peers[to].send(Packet {
            from: self.rank,
            data: data.to_vec(),
        });
    }
    fn try_recv(&self) -> Option<Packet> {
        self.inbox.try_recv().ok()
    }
    fn recv_timeout(&self, timeout: Duration) -> Option<Packet> {
        // A timeout and a disconnection (every sender gone) both mean "nothing came".
        self.inbox.recv_timeout(timeout).ok()
    }
}

/// Message kinds. Those below [`FIRST_CONTROL`](kind::FIRST_CONTROL) are the steal protocol (delayed by λ).
pub mod kind {
    /// Steal request (thief → victim).
    pub const REQUEST: u64 = 1;
    /// Work (victim → thief); the payload is the work.
    pub const WORK: u64 = 2;
    /// Refusal (victim → thief).
    pub const REFUSE: u64 = 3;
    /// Kinds from here on are control messages, handled at once.
    pub const FIRST_CONTROL: u64 = 16;
    /// Start of a run (rank 0 → participants); payload: run parameters.
    pub const START: u64 = 16;
    /// Completion report (→ rank 0).
    pub const DONE: u64 = 17;
    /// End of the run (rank 0 → participants).
    pub const STOP: u64 = 18;
    /// A participant's statistics after `STOP` (→ rank 0).
    pub const STATS: u64 = 19;
    /// Termination wave probe (rank 0 → participants), and its answer.
    pub const PROBE: u64 = 20;
    /// Answer to a probe.
    pub const PROBE_REPLY: u64 = 21;
    /// Ping and pong (latency measurement).
    pub const PING: u64 = 22;
    /// Pong.
    pub const PONG: u64 = 23;
    /// Leave the command (rank 0 → everyone).
    pub const EXIT: u64 = 24;
}

/// A received message, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Msg {
    /// Sender rank.
    pub from: usize,
    /// One of [`kind`].
    pub kind: u64,
    /// The run it belongs to.
    pub epoch: u64,
    /// Sender's clock at the send, in nanoseconds.
    pub sent_ns: u64,
    /// Payload words.
    pub payload: Vec<u64>,
}

impl Msg {
    fn decode(p: Packet) -> Option<Msg> {
        if p.data.len() < 3 {
            return None;
        }
        Some(Msg {
            from: p.from,
            kind: p.data[0],
            epoch: p.data[1],
            sent_ns: p.data[2],
            payload: p.data[3..].to_vec(),
        })
    }
    fn delayed(&self) -> bool {
        self.kind < kind::FIRST_CONTROL
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Due {
    due: u64,
    seq: u64,
    msg: Msg,
}
impl Ord for Due {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        // Reversed: BinaryHeap is a max-heap, the earliest due time must come out first.
        (o.due, o.seq).cmp(&(self.due, self.seq))
    }
}
impl PartialOrd for Due {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

/// A rank's view of the transport for the protocols: stamps every message with the run's
/// epoch and the send time, drops messages of finished runs, keeps those of a run not yet
/// started, and holds back each steal-protocol message until `λ` after it was sent.
pub struct Endpoint<'a, T: Transport + ?Sized> {
    t: &'a T,
    epoch: u64,
    lambda_ns: u64,
    held: BinaryHeap<Due>,
    early: VecDeque<Msg>,
    /// Control messages of this run that arrived before it started.
    ready: VecDeque<Msg>,
    seq: u64,
    /// Smallest `handled − sent` over the delayed messages handled in this run (ns).
    pub min_delay_ns: u64,
    /// Delayed messages handled in this run.
    pub delayed_handled: u64,
}

impl<'a, T: Transport + ?Sized> Endpoint<'a, T> {
    /// An endpoint over `t`, before any run (epoch 0).
    pub fn new(t: &'a T) -> Self {
        Endpoint {
            t,
            epoch: 0,
            lambda_ns: 0,
            held: BinaryHeap::new(),
            early: VecDeque::new(),
            ready: VecDeque::new(),
            seq: 0,
            min_delay_ns: u64::MAX,
            delayed_handled: 0,
        }
    }

    /// The transport.
    pub fn transport(&self) -> &'a T {
        self.t
    }

    /// Current epoch.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Enters run `epoch` with latency `lambda_ns`: forgets the held messages of the
    /// previous run and releases the early ones of this run.
    pub fn begin(&mut self, epoch: u64, lambda_ns: u64) {
        self.epoch = epoch;
        self.lambda_ns = lambda_ns;
        self.held.clear();
        self.ready.clear();
        self.min_delay_ns = u64::MAX;
        self.delayed_handled = 0;
        let early = std::mem::take(&mut self.early);
        for m in early {
            if m.epoch == epoch {
                if let Some(m) = self.admit_current(m) {
                    self.ready.push_back(m);
                }
            } else if m.epoch > epoch {
                self.early.push_back(m);
            }
        }
    }

    /// Sends a message of this epoch.
    pub fn send(&self, to: usize, kind: u64, payload: &[u64]) {
        self.send_epoch(to, kind, self.epoch, payload);
    }

    /// Sends a message of a given epoch (rank 0 announcing the next run).
    pub fn send_epoch(&self, to: usize, kind: u64, epoch: u64, payload: &[u64]) {
        let mut data = Vec::with_capacity(3 + payload.len());
        data.extend_from_slice(&[kind, epoch, now_ns()]);
        data.extend_from_slice(payload);
        self.t.send(to, &data);
    }

    // Ready: control messages of this epoch at once; delayed ones go to `held`.
    fn admit_current(&mut self, m: Msg) -> Option<Msg> {
        if m.delayed() {
            let due = m.sent_ns.saturating_add(self.lambda_ns);
            self.seq += 1;
            self.held.push(Due {
                due,
                seq: self.seq,
                msg: m,
            });
            None
        } else {
            Some(m)
        }
    }

    /// Sorts one raw packet: `Some` if it can be handled now.
    fn admit(&mut self, p: Packet) -> Option<Msg> {
        let m = Msg::decode(p)?;
        if m.kind == kind::START || m.kind == kind::EXIT {
            // Announcements carry the epoch they open; the caller decides.
            return Some(m);
        }
        if m.epoch < self.epoch {
            return None; // a finished run's straggler
        }
        if m.epoch > self.epoch {
            self.early.push_back(m);
            return None;
        }
        self.admit_current(m)
    }

    fn pop_due(&mut self, now: u64) -> Option<Msg> {
        if self.held.peek().is_some_and(|d| d.due <= now) {
            let d = self.held.pop()?;
            let delay = now.saturating_sub(d.msg.sent_ns);
            self.min_delay_ns = self.min_delay_ns.min(delay);
            self.delayed_handled += 1;
            Some(d.msg)
        } else {
            None
        }
    }

    /// The next message that may be handled, waiting until `until_ns` (clock time) at most:
    /// a control message as soon as it arrives, a steal-protocol message once `λ` has passed
    /// since its send.
    pub fn next(&mut self, until_ns: u64) -> Option<Msg> {
        if let Some(m) = self.ready.pop_front() {
            return Some(m);
        }
        loop {
            // Everything that has arrived is sorted first, so no control message waits
            // behind a held one.
            while let Some(p) = self.t.try_recv() {
                if let Some(m) = self.admit(p) {
                    return Some(m);
                }
            }
            let now = now_ns();
            if let Some(m) = self.pop_due(now) {
                return Some(m);
            }
            let wake = self.held.peek().map_or(until_ns, |d| d.due.min(until_ns));
            if now >= until_ns {
                return None;
            }
            let wait = Duration::from_nanos(wake.saturating_sub(now));
            if let Some(p) = self.t.recv_timeout(wait) {
                if let Some(m) = self.admit(p) {
                    return Some(m);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delayed_messages_wait_lambda_and_control_ones_do_not() {
        let g = InProc::group(2);
        let mut a = Endpoint::new(&g[0]);
        let mut b = Endpoint::new(&g[1]);
        let lambda = 3_000_000; // 3 ms
        a.begin(1, lambda);
        b.begin(1, lambda);
        a.send(1, kind::REQUEST, &[7]);
        a.send(1, kind::DONE, &[8]);
        let deadline = now_ns() + 1_000_000_000;
        let first = b.next(deadline).unwrap();
        assert_eq!(first.kind, kind::DONE, "control messages are not held");
        let second = b.next(deadline).unwrap();
        assert_eq!(
            (second.kind, second.payload.clone()),
            (kind::REQUEST, vec![7])
        );
        assert!(
            b.min_delay_ns >= lambda,
            "handled {} ns after its send, λ = {lambda} ns",
            b.min_delay_ns
        );
    }

    #[test]
    fn stale_runs_are_dropped_and_early_ones_kept() {
        let g = InProc::group(2);
        let a = Endpoint::new(&g[0]);
        let mut b = Endpoint::new(&g[1]);
        b.begin(5, 0);
        a.send_epoch(1, kind::DONE, 4, &[1]); // finished run
        a.send_epoch(1, kind::DONE, 6, &[2]); // next run
        assert_eq!(b.next(now_ns() + 20_000_000), None);
        b.begin(6, 0);
        let m = b.next(now_ns() + 20_000_000).unwrap();
        assert_eq!((m.epoch, m.payload), (6, vec![2]));
    }
}

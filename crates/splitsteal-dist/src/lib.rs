//! # splitsteal-dist: work stealing with latency on real processes (issue 35)
//!
//! The WS-latency paper (Gast, Khatiri, Trystram & Wagner, 2018) bounds the makespan of work
//! stealing when every message takes a one-way latency `λ`; its authors, like
//! `splitsteal sim latency`, checked the bound in simulation only. This crate runs the same
//! algorithm on real ranks exchanging real messages ([`bag`]), and a real workload, the
//! Unbalanced Tree Search benchmark, stealing across ranks whose local work runs on a
//! splitsteal pool ([`uts`]).
//!
//! * The protocols are written once over [`transport::Transport`]: the in-process backend
//!   ([`transport::InProc`]: a thread per rank, channels) is always built and is what the
//!   tests run; the MPI backend (`mpi_backend::Mpi`, rsmpi over the system's MPICH or Open
//!   MPI) is behind the cargo feature `mpi`.
//! * `λ` is injected in software: every steal message carries its send time and is handled
//!   no earlier than `λ` after it by the receiver's clock (`CLOCK_MONOTONIC`, shared by the
//!   processes of one host; [`transport::Endpoint`]). The transport's own one-way latency is
//!   measured by a ping-pong ([`ping`]) and reported beside `λ`.
//! * A unit task is a timed wait of `u` (the rank sleeps; `--spin` busy-waits instead), so
//!   32 ranks fit on 2 cores; `W`, `λ` and the makespan are in units of `u`.
//!
//! `splitsteal dist latency` and `splitsteal dist uts` ([`cli`]) drive them, under
//! `mpiexec -n P` with the `dist-mpi` feature of splitsteal-cli, or on threads without it.

#![warn(missing_docs)]

pub mod bag;
pub mod cli;
pub mod clock;
#[cfg(feature = "mpi")]
pub mod mpi_backend;
pub mod ping;
pub mod report;
pub mod transport;
pub mod uts;

use transport::{kind, Endpoint, InProc, Transport};

/// "No deadline" for [`Endpoint::next`].
pub(crate) const FAR: u64 = u64::MAX;

/// Protocol ids, the first word of a `START` payload.
pub(crate) mod proto {
    pub const BAG: u64 = 1;
    pub const UTS: u64 = 2;
    pub const PING: u64 = 3;
}

/// The splitmix64 finalizer (seeds, id hashes, UTS node hashes).
pub fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A follower rank (every rank but 0): runs the runs rank 0 announces until it says `EXIT`.
/// With `record`, returns the ids of the bag units this rank executed (tests).
pub fn follow<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    record: bool,
) -> Result<Vec<u64>, String> {
    let mut ids = Vec::new();
    loop {
        let Some(m) = ep.next(FAR) else { continue };
        match m.kind {
            kind::EXIT => return Ok(ids),
            kind::START => match m.payload.first().copied() {
                Some(proto::BAG) => {
                    if let Some(r) = bag::follow_start(ep, m.epoch, &m.payload, record) {
                        ids.extend(r?.ids.unwrap_or_default());
                    }
                }
                Some(proto::UTS) => uts::follow_start(ep, m.epoch, &m.payload)?,
                Some(proto::PING) => ping::follow_start(ep, m.epoch, &m.payload),
                _ => return Err(format!("unknown run announced: {:?}", m.payload)),
            },
            _ => {} // a straggler between runs
        }
    }
}

/// Tells every other rank to leave [`follow`].
pub fn release_all<T: Transport + ?Sized>(ep: &Endpoint<'_, T>) {
    for r in 1..ep.transport().size() {
        ep.send_epoch(r, kind::EXIT, u64::MAX, &[]);
    }
}

/// Runs `lead` as rank 0 of an in-process world of `size` ranks (threads), the others
/// following; returns its result and, per follower, the bag unit ids it executed when
/// `record`.
pub fn in_process<R>(
    size: usize,
    record: bool,
    lead: impl FnOnce(&mut Endpoint<'_, InProc>) -> R,
) -> (R, Vec<Vec<u64>>) {
    let mut group = InProc::group(size.max(1)).into_iter();
    let zero = group.next().expect("rank 0");
    std::thread::scope(|s| {
        let handles: Vec<_> = group
            .map(|t| {
                s.spawn(move || {
                    // A follower that panics tells rank 0, which then fails its run
                    // rather than wait for this rank forever.
                    struct Alarm<'a>(Endpoint<'a, InProc>);
                    impl Drop for Alarm<'_> {
                        fn drop(&mut self) {
                            if std::thread::panicking() {
                                self.0.send_epoch(0, kind::EXIT, u64::MAX, &[]);
                            }
                        }
                    }
                    let mut guard = Alarm(Endpoint::new(&t));
                    follow(&mut guard.0, record)
                })
            })
            .collect();
        // Released on the way out, a panic included, so no follower thread waits forever.
        struct Release<'a>(Endpoint<'a, InProc>);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                release_all(&self.0);
            }
        }
        let mut guard = Release(Endpoint::new(&zero));
        let r = lead(&mut guard.0);
        drop(guard);
        let ids = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .expect("follower panicked")
                    .expect("follower failed")
            })
            .collect();
        (r, ids)
    })
}

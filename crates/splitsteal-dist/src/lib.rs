//! # splitsteal-dist: work stealing with latency on real processes
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
//!
//! ```text
//! # MPI (Debian: apt-get install mpich libmpich-dev libclang-dev)
//! cargo build --release -p splitsteal-cli --features dist-mpi
//! mpiexec -n 32 target/release/splitsteal dist latency          # reduced grid → dist-report/
//! mpiexec -n 4 target/release/splitsteal dist uts --depth 12    # count = serial, speedup
//! # the same on threads of one process, no MPI needed
//! splitsteal dist latency --backend inproc --procs 32
//! splitsteal dist uts --backend inproc --procs 4
//! ```
//!
//! The same from code, on threads (`in_process`; under MPI, `mpi_backend::Mpi` and
//! [`follow`] on the ranks other than 0):
//!
//! ```
//! use splitsteal_dist::bag::{self, check_bound, BagParams};
//!
//! let params = BagParams { work: 400, procs: 4, latency: 2, unit_ns: 20_000, spin: false, seed: 1 };
//! let (run, _) = splitsteal_dist::in_process(4, false, |ep| bag::lead(ep, 1, &params));
//! let run = run.unwrap(); // errors if a unit was lost or executed twice
//! assert!(run.cmax >= 100.0 && run.min_delay_ns >= 2 * 20_000);
//! // The bound holds for the schedule; a timed run on a busy host can still miss it, and
//! // that is an error to report, not a result.
//! match check_bound(400, 4, 2, run.cmax) {
//!     Ok(ratio) => assert!(ratio >= 1.0),
//!     Err(e) => assert!(e.contains("exceeds the bound"), "{e}"),
//! }
//! ```
//!
//! `dist latency` runs, for each (W, λ) of the grid (default W = 10^4, 3·10^4,
//! λ = 2, 22, 62, 122, 5 runs each (`--runs`, alias `--repeat`), u = 1 ms; about 70 s at 32
//! ranks on 2 cores), every run on all ranks, and checks each run's makespan against the
//! paper's bound `Cmax ≤ W/p + 16.12·λ·log2(W/(2λ))` ([`report::RunCheck`]). It prints a
//! verdict per cell and overall ([`report::Verdict`]: within the bound, or how many runs
//! exceed it, with the makespan, the bound and the overhead ratio), and compares each cell
//! with `sim latency --split halving`: real/sim, a run's overhead ratio over the
//! simulation's median, as median (min–max) over the runs. A run above the bound is an
//! error (exit status 1, every check made and the report written first), never a result.
//!
//! What the timed-wait unit changes: a waiting rank uses no core, so 32 ranks behave as 32
//! processors on a 2-core host, but the unit measures scheduling only (no cache or memory
//! effects), and each message is handled up to one poll interval plus the OS's wake-up
//! delay late (the "polled receive" latency the command prints, about 0.2 u at u = 1 ms
//! here, where MPI's own one-way latency is under a microsecond). Unit deadlines chain
//! (`d + u`), so a late wake-up does not stretch a rank's work.

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

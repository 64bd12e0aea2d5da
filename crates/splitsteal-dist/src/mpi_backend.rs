//! The MPI backend (feature `mpi`): rsmpi over the system's MPICH or Open MPI.
//!
//! Sends are standard-mode sends of short `u64` vectors (eager on shared memory). Receives
//! probe for any message and, when none is there, sleep for the poll interval: a blocking
//! MPI receive busy-polls in both MPICH and Open MPI, and 32 ranks on 2 cores must not spin.

use std::time::Duration;

use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};

use crate::clock::now_ns;
use crate::transport::{Packet, Transport};

/// One MPI rank (owns `MPI_COMM_WORLD` and finalizes MPI when dropped).
pub struct Mpi {
    // Field order matters: the communicator goes before the universe, whose drop finalizes.
    world: SimpleCommunicator,
    _universe: mpi::environment::Universe,
    rank: usize,
    size: usize,
    poll: Duration,
}

impl std::fmt::Debug for Mpi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mpi")
            .field("rank", &self.rank)
            .field("size", &self.size)
            .finish()
    }
}

impl Mpi {
    /// Initializes MPI (once per process). `poll` is the sleep between probes while waiting.
    pub fn init(poll: Duration) -> Result<Mpi, String> {
        let universe = mpi::initialize().ok_or("MPI was already initialized")?;
        let world = universe.world();
        let rank = world.rank() as usize;
        let size = world.size() as usize;
        Ok(Mpi {
            world,
            _universe: universe,
            rank,
            size,
            poll,
        })
    }

    /// The MPI library's version string.
    pub fn library_version() -> String {
        mpi::environment::library_version().unwrap_or_else(|_| "unknown MPI".into())
    }
}

impl Transport for Mpi {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.size
    }
    fn send(&self, to: usize, data: &[u64]) {
        self.world.process_at_rank(to as i32).send(data);
    }
    fn try_recv(&self) -> Option<Packet> {
        let probed = self.world.any_process().immediate_matched_probe()?;
        let (data, status) = probed.matched_receive_vec::<u64>();
        Some(Packet {
            from: status.source_rank() as usize,
            data,
        })
    }
    fn recv_timeout(&self, timeout: Duration) -> Option<Packet> {
        let end = now_ns().saturating_add(timeout.as_nanos().min(u64::MAX as u128) as u64);
        loop {
            if let Some(p) = self.try_recv() {
                return Some(p);
            }
            let now = now_ns();
            if now >= end {
                return None;
            }
            std::thread::sleep(self.poll.min(Duration::from_nanos(end - now)));
        }
    }
}

/// Whether this process looks launched by `mpiexec`/`mpirun` (MPICH's Hydra or Open MPI).
pub fn launched_by_mpiexec() -> bool {
    ["PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

//! The MPI backend's check, run by `.ci/run` under `mpiexec -n 4` (needs `--features mpi`):
//! UTS returns the serial node count with work stolen across ranks, and bag-of-units runs
//! execute every unit exactly once (rank 0 checks the id tally), never handle a steal
//! message before λ, and stay within the paper's bound.
//!
//! ```text
//! cargo build --release -p splitsteal-dist --features mpi --example mpi_check
//! mpiexec -n 4 target/release/examples/mpi_check
//! ```

use std::process::ExitCode;
use std::time::Duration;

use splitsteal_dist::bag::{self, check_bound, BagParams};
use splitsteal_dist::mpi_backend::Mpi;
use splitsteal_dist::transport::{Endpoint, Transport};
use splitsteal_dist::uts::{self, UtsParams};

fn check(ep: &mut Endpoint<'_, Mpi>) -> Result<(), String> {
    let n = ep.transport().size();
    if n < 2 {
        return Err("run under mpiexec -n 4 (at least 2 ranks)".into());
    }
    let depth = 9;
    let serial = uts::serial_count(depth);
    let params = UtsParams {
        depth,
        procs: n,
        threads: 1,
        chunk: 256,
        latency_ns: 0,
        seed: 1,
    };
    let run = uts::lead(ep, 1, &params)?;
    if run.count != serial || run.steals == 0 {
        return Err(format!(
            "UTS on {n} ranks: {run:?}, serial count {serial:?}"
        ));
    }
    println!(
        "UTS depth {depth} on {n} ranks: {} nodes = serial, {} steals",
        run.count.nodes, run.steals
    );
    for (epoch, latency) in [(2, 2), (3, 10)] {
        let p = BagParams {
            work: 4000,
            procs: n,
            latency,
            unit_ns: 200_000,
            spin: false,
            seed: epoch,
        };
        let r = bag::lead(ep, epoch, &p)?; // errors if a unit was lost or run twice
        if r.min_delay_ns < latency * p.unit_ns || r.steals == 0 {
            return Err(format!("λ = {latency}: {r:?}"));
        }
        let ratio = check_bound(p.work, n, latency, r.cmax)?;
        println!(
            "bag W = {} λ = {latency} on {n} ranks: Cmax = {:.1} u, overhead ratio {ratio:.2} (≥ 1: within the bound), {} steals",
            p.work, r.cmax, r.steals
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let t = Mpi::init(Duration::from_micros(50)).expect("MPI init");
    let mut ep = Endpoint::new(&t);
    if t.rank() != 0 {
        return match splitsteal_dist::follow(&mut ep, false) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("rank {}: {e}", t.rank());
                ExitCode::FAILURE
            }
        };
    }
    let r = check(&mut ep);
    splitsteal_dist::release_all(&ep);
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mpi_check failed: {e}");
            ExitCode::FAILURE
        }
    }
}

//! `splitsteal dist ...`: the commands, their arguments and the backend choice.
//!
//! Under `mpiexec -n P` with the `mpi` feature (splitsteal-cli's `dist-mpi`), every rank
//! runs the command; rank 0 leads the runs and writes the report, the others follow. Without
//! MPI the same runs happen on threads of one process (`--procs`).

use std::error::Error;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;
use splitsteal_report::{say, tell, ExitError};
use splitsteal_sim::cli::parse_count;
use splitsteal_sim::latency::{self as simlat, LatencyParams, SplitRule};
use splitsteal_sim::meta::RunMeta;
use splitsteal_sim::par::run_seed;

use crate::bag::{self, BagParams};
use crate::ping::{self, PingResult};
use crate::report::{self, Cell, LatencyReport};
use crate::transport::{Endpoint, Transport};
use crate::uts::{self, UtsParams};

/// The `dist` subcommands.
#[derive(Subcommand, Debug)]
pub enum DistCommand {
    /// The WS-latency paper's algorithm on real ranks: a (W, p, λ) grid, each run's
    /// overhead checked against the bound and compared with `sim latency` on the same cell.
    Latency(LatencyArgs),
    /// Unbalanced Tree Search across ranks, each on a splitsteal pool: node count checked
    /// against the serial count, speedup of P ranks over one.
    Uts(UtsArgs),
}

/// Which transport runs the ranks.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// MPI when built with it and launched by mpiexec, threads otherwise.
    Auto,
    /// Threads and channels in this process.
    Inproc,
    /// MPI (the `mpi` feature; launch under mpiexec).
    Mpi,
}

/// Arguments every `dist` command takes.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Transport.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: Backend,
    /// MPI backend: sleep between probes while waiting for a message, in microseconds.
    #[arg(long, default_value_t = 50)]
    pub poll_us: u64,
    /// Ranks of the in-process backend (threads); under MPI, participants (≤ the world
    /// size; default: the world size). A list runs each.
    #[arg(long, value_delimiter = ',')]
    pub procs: Option<Vec<usize>>,
    /// Base seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `dist latency` arguments.
#[derive(Args, Debug, Clone, Serialize)]
pub struct LatencyArgs {
    /// Backend, ranks, seed.
    #[command(flatten)]
    #[serde(skip)]
    pub common: Common,
    /// Values of W, in units (1e4, 10^5 and 100000 all work). The default grid keeps the
    /// default command near a minute at u = 1 ms with 5 runs per cell.
    #[arg(long, value_delimiter = ',', value_parser = parse_count, default_value = "10000,30000")]
    pub works: Vec<u64>,
    /// Values of λ, in units (the paper's grid is 2, 22, ..., 482).
    #[arg(long, value_delimiter = ',', value_parser = parse_count, default_value = "2,22,62,122")]
    pub latencies: Vec<u64>,
    /// Runs of each cell (W, p, λ): each one is checked against the bound, and real/sim is
    /// printed as the median (min–max) over them.
    #[arg(long, visible_alias = "repeat", default_value_t = 5)]
    pub runs: usize,
    /// Duration u of a unit task, in microseconds.
    #[arg(long, default_value_t = 1000)]
    pub unit_us: u64,
    /// Unit tasks spin on the clock instead of sleeping (needs a core per rank).
    #[arg(long)]
    pub spin: bool,
    /// Simulated runs per cell for the comparison with `sim latency`.
    #[arg(long, default_value_t = 200)]
    pub sim_runs: usize,
    /// Ping-pong round trips measuring the transport's latency.
    #[arg(long, default_value_t = 200)]
    pub pings: u64,
    /// Report folder.
    #[arg(long, default_value = "dist-report")]
    pub out: PathBuf,
}

/// `dist uts` arguments.
#[derive(Args, Debug, Clone, Serialize)]
pub struct UtsArgs {
    /// Backend, ranks, seed.
    #[command(flatten)]
    #[serde(skip)]
    pub common: Common,
    /// Depth limit of the geometric tree (b = 4; depth 12 has 68 million nodes).
    #[arg(long, default_value_t = 12)]
    pub depth: u32,
    /// Threads of each rank's splitsteal pool.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Nodes a task explores before handing the rest back to its rank's stack.
    #[arg(long, default_value_t = 16384)]
    pub chunk: u64,
    /// Injected one-way latency of the steal messages, in microseconds.
    #[arg(long, default_value_t = 0)]
    pub latency_us: u64,
    /// Timed traversals per rank count (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

type Res<T> = Result<T, Box<dyn Error>>;

#[cfg(not(feature = "mpi"))]
const NO_MPI: &str = "MPI support is not compiled in: build with \
    `cargo build --release -p splitsteal-cli --features dist-mpi` (needs MPICH or Open MPI and \
    libclang: `apt-get install mpich libmpich-dev libclang-dev`), or run without mpiexec \
    (`--backend inproc`, threads in one process)";

/// Runs a `dist` command.
pub fn run(cmd: DistCommand) -> Res<()> {
    let common = match &cmd {
        DistCommand::Latency(a) => a.common.clone(),
        DistCommand::Uts(a) => a.common.clone(),
    };
    validate(&cmd)?;
    let use_mpi = match common.backend {
        Backend::Inproc => false,
        Backend::Mpi => true,
        Backend::Auto => under_mpiexec(),
    };
    if use_mpi {
        return run_mpi(cmd, &common);
    }
    let procs = common.procs.clone().unwrap_or_else(|| match &cmd {
        DistCommand::Latency(_) => vec![32],
        DistCommand::Uts(_) => vec![4],
    });
    let size = procs.iter().copied().max().unwrap_or(1);
    crate::in_process(size, false, |ep| lead(ep, &cmd, &procs, "in-process")).0
}

fn under_mpiexec() -> bool {
    ["PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

#[cfg(feature = "mpi")]
fn run_mpi(cmd: DistCommand, common: &Common) -> Res<()> {
    let t = crate::mpi_backend::Mpi::init(std::time::Duration::from_micros(common.poll_us))?;
    let mut ep = Endpoint::new(&t);
    if t.rank() != 0 {
        crate::follow(&mut ep, false)?;
        return Ok(());
    }
    let procs = common.procs.clone().unwrap_or_else(|| vec![t.size()]);
    let backend = format!(
        "MPI ({})",
        crate::mpi_backend::Mpi::library_version()
            .lines()
            .next()
            .unwrap_or("")
            .trim()
    );
    let r = lead(&mut ep, &cmd, &procs, &backend);
    crate::release_all(&ep);
    r
}

#[cfg(not(feature = "mpi"))]
fn run_mpi(_: DistCommand, _: &Common) -> Res<()> {
    Err(ExitError::usage(NO_MPI).into())
}

fn validate(cmd: &DistCommand) -> Res<()> {
    let usage = |m: String| -> Res<()> { Err(ExitError::usage(m).into()) };
    if let Some(p) = match cmd {
        DistCommand::Latency(a) => &a.common.procs,
        DistCommand::Uts(a) => &a.common.procs,
    } {
        if p.iter().any(|&x| x == 0 || x > 4096) {
            return usage(format!("--procs must be in 1..=4096, got {p:?}"));
        }
    }
    match cmd {
        DistCommand::Latency(a) => {
            if a.runs == 0 || a.unit_us == 0 || a.sim_runs == 0 {
                return usage("--runs, --unit-us and --sim-runs must be positive".into());
            }
            for &w in &a.works {
                for &l in &a.latencies {
                    if l == 0 || w <= 2 * l {
                        return usage(format!(
                            "every cell needs λ ≥ 1 and W > 2λ (the bound's log2(W/(2λ))): W = {w}, λ = {l}"
                        ));
                    }
                }
            }
            if a.works.is_empty() || a.latencies.is_empty() {
                return usage("empty grid".into());
            }
        }
        DistCommand::Uts(a) => {
            if a.threads == 0 || a.chunk == 0 || a.runs == 0 || a.depth > 20 {
                return usage("--threads, --chunk, --runs must be positive, --depth ≤ 20".into());
            }
        }
    }
    Ok(())
}

fn lead<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    cmd: &DistCommand,
    procs: &[usize],
    backend: &str,
) -> Res<()> {
    let size = ep.transport().size();
    if let Some(&p) = procs.iter().find(|&&p| p > size) {
        return Err(ExitError::usage(format!("--procs {p} exceeds the {size} ranks")).into());
    }
    match cmd {
        DistCommand::Latency(a) => lead_latency(ep, a, procs, backend),
        DistCommand::Uts(a) => lead_uts(ep, a, procs, backend),
    }
}

/// Epochs: every run (ping-pong included) gets the next one.
struct Epochs(u64);
impl Epochs {
    fn next(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

fn lead_latency<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    a: &LatencyArgs,
    procs: &[usize],
    backend: &str,
) -> Res<()> {
    // Rank 0 alone checks the folder, before the first run.
    splitsteal_report::out_dir::prepare(&a.out)?;
    let mut epochs = Epochs(0);
    let unit_ns = a.unit_us * 1000;
    let pings: Vec<PingResult> = [true, false]
        .into_iter()
        .filter_map(|spin| ping::lead(ep, epochs.next(), a.pings, spin))
        .collect();
    say!(
        "dist latency: backend {backend}, {} ranks, u = {} µs ({})",
        ep.transport().size(),
        a.unit_us,
        if a.spin { "spin" } else { "timed wait" }
    );
    for p in &pings {
        say!(
            "  transport one-way latency ({}): median {:.1} µs, min {:.1} µs = {:.4} u",
            if p.spin {
                "spinning receive"
            } else {
                "polled receive, as the runs use"
            },
            p.one_way_ns / 1e3,
            p.min_one_way_ns / 1e3,
            p.one_way_ns / unit_ns as f64
        );
    }
    let mut cells = Vec::new();
    let mut violations = Vec::new();
    let mut config = 0u64;
    for &work in &a.works {
        for &p in procs {
            if p < 2 {
                return Err(ExitError::usage("work stealing needs p ≥ 2 ranks").into());
            }
            for &latency in &a.latencies {
                config += 1;
                let mut runs = Vec::new();
                for r in 0..a.runs {
                    let params = BagParams {
                        work,
                        procs: p,
                        latency,
                        unit_ns,
                        spin: a.spin,
                        seed: run_seed(a.common.seed, config, r as u64),
                    };
                    let run = bag::lead(ep, epochs.next(), &params)?;
                    if run.min_delay_ns < latency * unit_ns {
                        return Err(ExitError::failed(format!(
                            "a steal message was handled {} ns after its send, under λ·u = {} ns",
                            run.min_delay_ns,
                            latency * unit_ns
                        ))
                        .into());
                    }
                    runs.push(run);
                }
                let sp = LatencyParams {
                    work,
                    procs: p,
                    latency,
                    split: SplitRule::Halving,
                };
                let sim = simlat::simulate_runs(&sp, a.sim_runs, a.common.seed, config);
                let cell = Cell::new(work, p, latency, runs, &sim);
                for (r, check) in cell.checks.iter().enumerate().filter(|(_, c)| !c.within) {
                    let v = format!("run {r}: {}", check.describe());
                    tell!("error: {v}");
                    violations.push(v);
                }
                say!("{}", cell.line());
                cells.push(cell);
            }
        }
    }
    let rep = LatencyReport {
        backend: backend.to_string(),
        ranks: ep.transport().size(),
        unit_us: a.unit_us,
        spin: a.spin,
        pings,
        cells,
        violations: violations.clone(),
    };
    let meta = RunMeta::new(
        a.common.seed,
        a,
        vec![
            format!("backend {backend}"),
            format!(
                "u = {} µs, {}",
                a.unit_us,
                if a.spin { "spin" } else { "timed wait" }
            ),
            format!(
                "{} runs per cell, sim latency {} runs per cell",
                a.runs, a.sim_runs
            ),
        ],
    );
    let written = report::write(&rep, &a.out, &meta)?;
    for line in rep.per_lambda_lines() {
        say!("{line}");
    }
    say!("wrote {} files to {}", written.len(), a.out.display());
    say!("{}", rep.verdict_line());
    rep.outcome()?;
    Ok(())
}

/// What `dist uts --json` prints.
#[derive(Debug, Serialize)]
struct UtsOut {
    backend: String,
    depth: u32,
    serial: uts::Count,
    serial_seconds: f64,
    runs: Vec<uts::UtsRun>,
    speedups: Vec<(usize, f64)>,
}

fn lead_uts<T: Transport + ?Sized>(
    ep: &mut Endpoint<'_, T>,
    a: &UtsArgs,
    procs: &[usize],
    backend: &str,
) -> Res<()> {
    let mut epochs = Epochs(0);
    let t = std::time::Instant::now();
    let serial = uts::serial_count(a.depth);
    let serial_seconds = t.elapsed().as_secs_f64();
    if !a.json {
        say!(
            "dist uts: backend {backend}, depth {}, serial count {} nodes ({} leaves) in {:.3} s",
            a.depth,
            serial.nodes,
            serial.leaves,
            serial_seconds
        );
    }
    let mut list: Vec<usize> = vec![1];
    list.extend(procs.iter().copied().filter(|&p| p != 1));
    let mut runs = Vec::new();
    let mut medians = Vec::new();
    for &p in &list {
        let mut times = Vec::new();
        for r in 0..a.runs {
            let params = UtsParams {
                depth: a.depth,
                procs: p,
                threads: a.threads,
                chunk: a.chunk,
                latency_ns: a.latency_us * 1000,
                seed: run_seed(a.common.seed, p as u64, r as u64),
            };
            let run = uts::lead(ep, epochs.next(), &params)?;
            if run.count != serial {
                return Err(ExitError::failed(format!(
                    "{p} ranks counted {:?}, the serial count is {serial:?}",
                    run.count
                ))
                .into());
            }
            times.push(run.seconds);
            runs.push(run);
        }
        times.sort_by(f64::total_cmp);
        let med = times[times.len() / 2];
        medians.push((p, med));
        if !a.json {
            let last = runs.last().expect("a run");
            say!(
                "  {p} rank(s) × {} thread(s): {} nodes (= serial), median {:.3} s, {} steals of {} requests, {} waves",
                a.threads, last.count.nodes, med, last.steals, last.requests, last.waves
            );
        }
    }
    let t1 = medians[0].1;
    let speedups: Vec<(usize, f64)> = medians.iter().map(|&(p, t)| (p, t1 / t)).collect();
    if a.json {
        let out = UtsOut {
            backend: backend.into(),
            depth: a.depth,
            serial,
            serial_seconds,
            runs,
            speedups,
        };
        say!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        for &(p, s) in &speedups[1..] {
            let tp = medians.iter().find(|m| m.0 == p).map_or(f64::NAN, |m| m.1);
            say!(
                "  speedup of {p} ranks over 1 rank: {s:.2}× (over the serial traversal: {:.2}×)",
                serial_seconds / tp
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(subcommand)]
        c: DistCommand,
    }

    #[test]
    fn without_mpi_the_mpi_backend_says_how_to_get_it() {
        if cfg!(feature = "mpi") {
            return; // it would initialize MPI
        }
        let t = T::try_parse_from(["x", "uts", "--backend", "mpi", "--depth", "3"]).unwrap();
        let e = run(t.c).unwrap_err().to_string();
        assert!(e.contains("--features dist-mpi"), "{e}");
    }

    #[test]
    fn bad_grids_are_usage_errors() {
        let t = T::try_parse_from(["x", "latency", "--works", "10", "--latencies", "5"]).unwrap();
        let e = run(t.c).unwrap_err();
        assert!(e.to_string().contains("W > 2λ"), "{e}");
    }
}

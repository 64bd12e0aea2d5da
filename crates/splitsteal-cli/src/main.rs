//! The `splitsteal` binary: the benchmark suite and the simulators.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use splitsteal_report::{tell, Exit, ExitError};

/// splitsteal: work-stealing schedulers measured on real hardware and in simulation.
#[derive(Parser, Debug)]
#[command(name = "splitsteal", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the benchmark suite (every policy, rayon and chili, side by side).
    Bench(splitsteal_bench::cli::BenchArgs),
    /// Rebuild a bench report (index.html, tables.md) from its results.json, running nothing.
    Report(splitsteal_bench::cli::ReportArgs),
    /// Run one of the simulators of the LCWS, ABP and WS-latency papers.
    Sim {
        #[command(subcommand)]
        command: splitsteal_sim::cli::SimCommand,
    },
    /// Work stealing with latency across processes (MPI under mpiexec, threads without).
    Dist {
        #[command(subcommand)]
        command: splitsteal_dist::cli::DistCommand,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The simulators (and any global-pool use) read SPLITSTEAL_NUM_THREADS and
    // SPLITSTEAL_POLICY: report a bad value here, plainly, rather than deep inside a run.
    if let Err(e) = splitsteal::ThreadPoolBuilder::from_env() {
        tell!("error: {e}");
        return ExitCode::from(Exit::Usage.code());
    }
    let result = match cli.command {
        Command::Bench(args) => splitsteal_bench::cli::run(args),
        Command::Report(args) => splitsteal_bench::cli::report(args),
        Command::Sim { command } => splitsteal_sim::cli::run(command),
        Command::Dist { command } => splitsteal_dist::cli::run(command),
    };
    match result {
        Ok(()) => ExitCode::from(Exit::Ok.code()),
        Err(e) => {
            tell!("error: {e}");
            // The error says how the command ends (bad values: 2); any other is a failure.
            ExitCode::from(ExitError::exit_of(&*e).code())
        }
    }
}

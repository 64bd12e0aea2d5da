//! Stand-alone driver for the simulators, equivalent to `splitsteal sim ...` without building the
//! rest of the workspace: `cargo run --release -p splitsteal-sim --example sim -- latency --help`.
use clap::Parser;

/// splitsteal's simulators.
#[derive(Parser, Debug)]
struct Cli {
    #[command(subcommand)]
    command: splitsteal_sim::cli::SimCommand,
}

fn main() -> std::process::ExitCode {
    match splitsteal_sim::cli::run(Cli::parse().command) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            splitsteal_report::tell!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

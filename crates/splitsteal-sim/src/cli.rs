//! `splitsteal sim ...` (placeholder until the simulators land).
use clap::Subcommand;

/// A simulator.
#[derive(Subcommand, Debug)]
pub enum SimCommand {
    /// Work stealing with communication latency (paper 004).
    Latency,
}

/// Runs a simulator command.
pub fn run(_cmd: SimCommand) -> Result<(), Box<dyn std::error::Error>> {
    Err("the simulators are not implemented yet".into())
}

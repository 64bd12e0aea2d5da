//! The facts about a simulation run that every JSON output and page carries, so a result
//! file found later says what produced it: command, revision, machine, date, seed and the
//! parameters.

use serde::Serialize;
use splitsteal_report::RunInfo;

/// [`RunInfo`] plus the seed and the parameters, as the `"run"` object of every JSON output.
#[derive(Debug, Clone, Serialize)]
pub struct RunMeta {
    /// Command, date, machine, revision, settings (human-readable) and timing.
    #[serde(flatten)]
    pub info: RunInfo,
    /// Base seed of the runs.
    pub seed: u64,
    /// The parameters, as the simulator read them.
    pub parameters: serde_json::Value,
}

impl RunMeta {
    /// The facts about this process's run, with `settings` lines for the page header.
    pub fn new(seed: u64, parameters: &impl Serialize, settings: Vec<String>) -> RunMeta {
        RunMeta {
            info: RunInfo {
                command: std::env::args().collect::<Vec<_>>().join(" "),
                date: splitsteal_report::utc_now(),
                machine: splitsteal_report::machine(),
                revision: splitsteal_report::revision(),
                settings,
                timing: Vec::new(),
                partial: None,
            },
            seed,
            parameters: serde_json::to_value(parameters).unwrap_or(serde_json::Value::Null),
        }
    }
}

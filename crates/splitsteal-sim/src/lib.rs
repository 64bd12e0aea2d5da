//! The simulators of papers 000, 002 and 004 (issue 7). Documentation to come.
pub mod cli;
pub mod latency;
pub mod par;
pub mod stats;

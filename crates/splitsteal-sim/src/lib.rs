//! The simulators of papers 000, 002 and 004 (issue 7). Documentation to come.
pub mod cli;
pub mod dag;
pub mod dag_report;
pub mod kernel;
pub mod kernel_report;
pub mod latency;
pub mod par;
pub mod plot;
pub mod stats;
pub mod sweep;

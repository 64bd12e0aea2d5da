//! The benchmark suite (issue 6).
pub mod cli;

//! PBBS's standard inputs: its file formats ([`format`](mod@format)), its input generators
//! ([`generate`]) and the semantics of its output checkers ([`check`]), so that the PBBS
//! workloads can run on, and be judged like, the files that PBBS, ParlayLib and their
//! ports publish numbers on.

pub mod check;
pub mod format;
pub mod generate;

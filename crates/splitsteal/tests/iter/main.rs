//! The parallel iterators against the sequential `Iterator` and std's collections, at
//! awkward lengths, on every policy's pool (`common::places`): one test binary, one module
//! per part of the API.

mod basics;
mod collect;
mod common;
mod indexed;
mod panic_safety;
mod rayon_additions;
mod sources;
mod unindexed;

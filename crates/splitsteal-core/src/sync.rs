//! The synchronization primitives the lock-free code is written against.
//!
//! In the library's unit tests under `--cfg loom` (loom is a dev-dependency) they are
//! loom's model-checked doubles, so the same deque and mailbox code runs under the model
//! checker (the tokio pattern); otherwise they are `std`'s. Only code that must be model-checked imports from here.

#[cfg(all(test, loom))]
pub(crate) use loom::sync::atomic::{
    fence, AtomicBool, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize,
};
#[cfg(all(test, loom))]
pub(crate) use loom::sync::Arc;

#[cfg(not(all(test, loom)))]
pub(crate) use std::sync::atomic::{
    fence, AtomicBool, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize,
};
#[cfg(not(all(test, loom)))]
pub(crate) use std::sync::Arc;

pub(crate) use std::sync::atomic::{compiler_fence, Ordering};

/// Yields the processor (a scheduling point under loom).
#[cfg(all(test, loom))]
pub(crate) fn yield_now() {
    loom::thread::yield_now();
}

/// Yields the processor (a scheduling point under loom).
#[cfg(not(all(test, loom)))]
pub(crate) fn yield_now() {
    std::thread::yield_now();
}

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

/// A cell whose accesses loom checks for data races (under `--cfg loom`); otherwise
/// `std`'s `UnsafeCell` behind the same two closures.
#[cfg(all(test, loom))]
pub(crate) use loom::cell::UnsafeCell;

/// `std::cell::UnsafeCell` with loom's interface: every access goes through `with` (shared)
/// or `with_mut` (exclusive), so the same code runs under the model checker.
#[cfg(not(all(test, loom)))]
#[derive(Debug)]
pub(crate) struct UnsafeCell<T>(std::cell::UnsafeCell<T>);

#[cfg(not(all(test, loom)))]
impl<T> UnsafeCell<T> {
    pub(crate) const fn new(value: T) -> Self {
        UnsafeCell(std::cell::UnsafeCell::new(value))
    }

    /// Calls `f` with a pointer for reading; the caller rules out concurrent writers.
    #[inline(always)]
    pub(crate) fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
        f(self.0.get())
    }

    /// Calls `f` with a pointer for writing; the caller rules out any concurrent access.
    #[inline(always)]
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.0.get())
    }
}

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

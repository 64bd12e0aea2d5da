//! `join` allocates nothing: its second closure lives in a job on the joiner's stack.
//! (Alone in its binary: it installs a counting global allocator.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use splitsteal_core::Policy;

mod common;
use common::fib;

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
static COUNTING: AtomicBool = AtomicBool::new(false);

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn join_does_not_allocate() {
    // One worker: no steals, so nothing but joins runs (a steal is allocation-free too,
    // but a sleeping/waking worker may touch lazily allocated thread state).
    for &policy in Policy::ALL {
        let pool = common::pool(1, policy);
        pool.install(|| fib(5));
        let allocated = pool.install(|| {
            ALLOCATIONS.store(0, Ordering::SeqCst);
            COUNTING.store(true, Ordering::SeqCst);
            let v = fib(20);
            COUNTING.store(false, Ordering::SeqCst);
            assert_eq!(v, 6765);
            ALLOCATIONS.load(Ordering::SeqCst)
        });
        // `locked` is a VecDeque: it grows once, then reuses its buffer.
        let limit = if policy == Policy::Locked { 1 } else { 0 };
        assert!(allocated <= limit, "{policy}: {allocated} allocations");
    }
}

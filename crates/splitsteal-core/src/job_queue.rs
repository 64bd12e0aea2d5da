//! Locked FIFO queues of jobs, for work that does not go through a deque: jobs injected from
//! outside the pool, jobs for one worker only (`broadcast`), and the per-thread FIFOs behind
//! `spawn_fifo`.

use std::collections::VecDeque;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::job::{JobHeader, JobRef};
use crate::stats::{count_rmw, Side};

/// A FIFO of jobs under a lock, with a length a worker can check without taking it.
pub(crate) struct JobQueue {
    jobs: Mutex<VecDeque<JobRef>>,
    len: AtomicUsize,
}

impl JobQueue {
    pub(crate) fn new() -> JobQueue {
        JobQueue {
            jobs: Mutex::new(VecDeque::new()),
            len: AtomicUsize::new(0),
        }
    }

    /// Appends `job`. The caller wakes whoever should run it afterwards.
    pub(crate) fn push(&self, job: JobRef) {
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(job);
        count_rmw(Side::Scheduler);
        // SeqCst: Dekker with sleepers (they announce their sleep, then read `len` in
        // `is_empty`); the waker reads the sleep state after this.
        self.len.fetch_add(1, Ordering::SeqCst);
    }

    /// Takes the oldest job, if any.
    pub(crate) fn pop(&self) -> Option<JobRef> {
        // Relaxed: a cheap "anything there?" check; the lock orders the real access.
        if self.len.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let job = self
            .jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        if job.is_some() {
            count_rmw(Side::Scheduler);
            // Relaxed: the count is a hint; the queue itself is under the lock.
            self.len.fetch_sub(1, Ordering::Relaxed);
        }
        job
    }

    /// Whether the queue is empty (the read half of the Dekker pattern with `push`).
    pub(crate) fn is_empty(&self) -> bool {
        // SeqCst: see `push`.
        self.len.load(Ordering::SeqCst) == 0
    }
}

/// A FIFO that a deque can carry: its header runs the oldest queued job. `spawn_fifo`
/// queues the job here and pushes a reference to the FIFO on the worker's deque. The
/// deque hands the references out newest first (or oldest first, to a thief), but each
/// one runs whichever job has waited longest, so one thread's `spawn_fifo`s start in the
/// order they were made.
#[repr(C)]
pub(crate) struct JobFifo {
    /// Must stay the first field: the deque's `JobRef` points at it (`repr(C)`).
    header: JobHeader,
    queue: JobQueue,
}

impl JobFifo {
    pub(crate) fn new() -> JobFifo {
        JobFifo {
            header: JobHeader::new(Self::execute),
            queue: JobQueue::new(),
        }
    }

    /// Queues `job` and returns the reference to push in its place. The FIFO must outlive
    /// every reference (it does: it lives in a scope that waits for its jobs, or in the
    /// registry).
    pub(crate) fn push(&self, job: JobRef) -> JobRef {
        self.queue.push(job);
        JobRef::from_header(NonNull::from(&self.header))
    }

    unsafe fn execute(this: NonNull<JobHeader>) {
        // SAFETY: `this` is the header of a live `JobFifo` (`repr(C)`, first field).
        let fifo = unsafe { this.cast::<JobFifo>().as_ref() };
        // Every reference handed out by `push` queued exactly one job first, and each
        // reference runs once: the queue is not empty.
        let job = fifo
            .queue
            .pop()
            .expect("splitsteal: a FIFO reference ran with no job queued");
        // SAFETY: the queued job is alive and not yet run; it is taken from the queue once.
        unsafe { job.execute() }
    }
}

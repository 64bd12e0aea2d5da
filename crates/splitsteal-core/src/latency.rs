//! Task start latency (the low-latency thesis's start-latency experiment): when each task started, on which worker, relative to
//! the moment its origin task began. Opt-in ([`ThreadPoolBuilder::record_start_latency`]);
//! when off, the only cost is one predictable branch where a job starts.
//!
//! [`ThreadPoolBuilder::record_start_latency`]: crate::ThreadPoolBuilder::record_start_latency

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One task start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskStart {
    /// The worker that ran the task.
    pub worker: usize,
    /// When it started, after its origin task began.
    pub since_origin: Duration,
}

/// The task starts recorded since the last [`take_start_latencies`], for the latest
/// origin task (a job injected by `install` from outside the pool).
///
/// [`take_start_latencies`]: crate::ThreadPool::take_start_latencies
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartLatencies {
    /// The worker the origin task ran on.
    pub origin_worker: usize,
    /// Task starts in time order (starts before the origin are dropped).
    pub starts: Vec<TaskStart>,
}

impl StartLatencies {
    /// The first start on a worker other than the origin's.
    pub fn first_on_other_worker(&self) -> Option<TaskStart> {
        self.starts
            .iter()
            .copied()
            .find(|s| s.worker != self.origin_worker)
    }

    /// The last start.
    pub fn last(&self) -> Option<TaskStart> {
        self.starts.last().copied()
    }
}

/// The pool's recorder: one buffer per worker, written by that worker.
pub(crate) struct Recorder {
    epoch: Instant,
    origin_ns: AtomicU64,
    origin_worker: AtomicUsize,
    starts: Box<[Mutex<Vec<u64>>]>,
}

impl Recorder {
    pub(crate) fn new(workers: usize) -> Recorder {
        Recorder {
            epoch: Instant::now(),
            origin_ns: AtomicU64::new(0),
            origin_worker: AtomicUsize::new(0),
            starts: (0..workers).map(|_| Mutex::new(Vec::new())).collect(),
        }
    }

    fn now_ns(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// An origin task starts on `worker`.
    pub(crate) fn origin(&self, worker: usize) {
        // Relaxed: read by `take`, which runs after the experiment (the pool's `install`
        // returning orders everything before it).
        self.origin_ns.store(self.now_ns(), Ordering::Relaxed);
        self.origin_worker.store(worker, Ordering::Relaxed);
    }

    /// A task starts on `worker`.
    pub(crate) fn record(&self, worker: usize) {
        let t = self.now_ns();
        self.starts[worker]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(t);
    }

    /// Drains the records.
    pub(crate) fn take(&self) -> StartLatencies {
        // Relaxed: see `origin`.
        let origin = self.origin_ns.load(Ordering::Relaxed);
        let mut starts: Vec<TaskStart> = Vec::new();
        for (worker, buf) in self.starts.iter().enumerate() {
            let mut buf = buf.lock().unwrap_or_else(|e| e.into_inner());
            starts.extend(buf.drain(..).filter(|&t| t >= origin).map(|t| TaskStart {
                worker,
                since_origin: Duration::from_nanos(t - origin),
            }));
        }
        starts.sort_by_key(|s| s.since_origin);
        StartLatencies {
            origin_worker: self.origin_worker.load(Ordering::Relaxed),
            starts,
        }
    }
}

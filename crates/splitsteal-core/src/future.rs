//! Futures on the pool: [`spawn_future`] polls a future on the pool's workers, and
//! [`block_on`] runs one to completion on the calling thread.
//!
//! # Waiting: `block_on` (and `JoinHandle::join`)
//!
//! The future is polled on the calling thread with a waker over a [`Wakeup`]: one flag,
//! `woken`, and whom to wake. A thread outside any pool parks until the flag is set (the
//! park token covers a wake-up between its look and its `park`). A worker runs its pool's
//! other work meanwhile through `WorkerThread::wait_until`, with the flag as the latch it
//! waits on, so a worker that falls asleep there is woken by the waker as a latch's setter
//! wakes it: the waker sets the flag with a SeqCst store and then reads the worker's sleep
//! slot (`Sleep::wake_worker`), the sleeper announces itself with a SeqCst store and
//! then probes the flag: one of the two sees the other. Between polls the flag is cleared
//! with a swap, which reads the latest wake-up in the flag's modification order, so a wake
//! racing with the clear is seen by the next poll (a plain store could overwrite it).
//!
//! # Spawned futures: one task per poll
//!
//! A spawned future lives in a [`FutureTask`] (an `Arc`), which is also its waker. Its
//! state word says who may poll it:
//!
//! - `IDLE`: pending, no poll queued; a wake-up moves it to `SCHEDULED` (a CAS, so only one
//!   waker wins) and queues one pool task that polls it: on the waking worker's deque when
//!   woken from a worker of the pool (as a spawn is), else in the pool's injector. A
//!   pending future holds no worker.
//! - `SCHEDULED`: a poll is queued; more wake-ups do nothing.
//! - `RUNNING`: a worker polls it; a wake-up moves it to `NOTIFIED`.
//! - `NOTIFIED`: woken during its poll; when the poll returns pending the worker queues
//!   the next poll as a new task (not a loop on the spot: a future that wakes itself each
//!   time, a yield, lets the other tasks run).
//! - `DONE`: it returned (or panicked); the output is in its handle's packet, and
//!   wake-ups do nothing.
//!
//! The poller owns the future cell from `SCHEDULED` to its CAS out of `RUNNING`; the next
//! poller acquires it through the waker's CAS (which reads the Release of that CAS) and the
//! queue that hands it the task. Each spawned future counts as one of the pool's spawned
//! tasks until it is done, so the pool stays alive while it is pending (and
//! [`ThreadPool::wait_idle`] waits for it). A future whose every waker is dropped while it
//! is pending can never be polled again: its handle then returns an `Err` whose payload is
//! [`Abandoned`], instead of waiting forever.

use std::cell::UnsafeCell;
use std::fmt;
use std::future::Future;
use std::panic::{self, AssertUnwindSafe};
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

use crate::handle::{JoinHandle, Packet, PoolShutDown};
use crate::job::HeapJob;
use crate::latch::Probe;
use crate::pool::ThreadPool;
use crate::registry::Registry;
use crate::spawn::with_current_registry;
use crate::worker::{Entered, WorkerThread};

/// Runs `future` to completion on the calling thread and returns its output.
///
/// On a worker of a pool, the worker runs its pool's other work between polls (as it does
/// while a `join` waits for a stolen closure), so a future that waits for pool tasks
/// completes even on a one-thread pool; elsewhere the thread parks until the future's
/// waker is woken. Before this, a rayon user reached for another executor's `block_on`,
/// which parks a worker and can deadlock a pool whose tasks the future waits for.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// let sum = pool.install(|| {
///     let h = splitsteal::spawn_handle(|| 40);
///     // The only worker awaits a task of its own pool: it runs it between polls.
///     splitsteal::block_on(async move { h.await.unwrap() + 2 })
/// });
/// assert_eq!(sum, 42);
/// ```
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    // A pool's borrowed thread (`use_current_thread`) waits as the worker it is.
    let _entered = Entered::borrowed();
    let target = match WorkerThread::current_ref() {
        Some(w) => Target::Worker {
            registry: Arc::clone(&w.registry),
            index: w.index,
        },
        None => Target::Thread(thread::current()),
    };
    let wakeup = Arc::new(Wakeup {
        woken: AtomicBool::new(false),
        target,
    });
    let waker = Waker::from(Arc::clone(&wakeup));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        match WorkerThread::current_ref() {
            Some(worker) => worker.wait_until(&*wakeup),
            None => {
                while !wakeup.woken.load(Ordering::Acquire) {
                    thread::park();
                }
            }
        }
        // Acquire (an RMW: it reads the newest wake-up, see the module doc): what the waker
        // did before waking is visible to the next poll.
        wakeup.woken.swap(false, Ordering::Acquire);
    }
}

/// The waker of a [`block_on`]: sets `woken` and wakes the waiting thread.
struct Wakeup {
    woken: AtomicBool,
    target: Target,
}

/// Who waits for a [`Wakeup`].
enum Target {
    /// A thread outside any pool, parked.
    Thread(Thread),
    /// Worker `index` of `registry`, in `wait_until` (possibly asleep).
    Worker {
        registry: Arc<Registry>,
        index: usize,
    },
}

impl Wake for Wakeup {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // SeqCst: Dekker with a worker falling asleep (see the module doc). A flag already
        // set has its wake-up on the way (the waiter has not cleared it yet).
        if self.woken.swap(true, Ordering::SeqCst) {
            return;
        }
        match &self.target {
            Target::Thread(t) => t.unpark(),
            Target::Worker { registry, index } => {
                registry.sleep.wake_worker(*index);
            }
        }
    }
}

impl Probe for Wakeup {
    #[inline]
    fn probe(&self) -> bool {
        // Acquire: pairs with the waker's SeqCst swap.
        self.woken.load(Ordering::Acquire)
    }
}

/// Polls `future` on the current pool's workers (the pool the caller is a worker of, else
/// the global pool) and returns a handle to its output; see [`ThreadPool::spawn_future`].
///
/// rayon runs no futures; its users ran them on another runtime and sent the CPU-bound
/// parts to rayon through a channel. Here both run on one pool.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let handle = splitsteal::spawn_future(async {
///     // Awaiting pool work from a future on the pool holds no worker.
///     let a = splitsteal::spawn_handle(|| 20);
///     let b = splitsteal::spawn_handle(|| 22);
///     a.await.unwrap() + b.await.unwrap()
/// });
/// assert_eq!(handle.join().unwrap(), 42);
/// ```
pub fn spawn_future<F>(future: F) -> JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    with_current_registry(|registry| spawn_future_in(registry, future))
}

impl ThreadPool {
    /// Polls `future` on this pool's workers and returns a handle to its output (with
    /// rayon, the future ran on another runtime, which sent its CPU work to the pool).
    ///
    /// The first poll is queued at once; after that, each wake-up queues the next poll
    /// as a pool task (on the waking worker's deque when woken from one of this pool's
    /// workers), and a pending future holds no worker. A panic in a poll ends the future;
    /// it comes back as the handle's `Err`. The pool stays alive until the future is done.
    /// If every [`Waker`] of a pending future is dropped, nothing can poll it again: its
    /// handle returns `Err` with an [`Abandoned`] payload.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use std::sync::mpsc;
    ///
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let (tx, rx) = mpsc::channel();
    /// let handle = pool.spawn_future(async move {
    ///     let squares: Vec<_> = (0..4u64).map(|i| splitsteal::spawn_handle(move || i * i)).collect();
    ///     let mut sum = 0;
    ///     for h in squares {
    ///         sum += h.await.unwrap();
    ///     }
    ///     tx.send(sum).unwrap();
    ///     sum
    /// });
    /// assert_eq!(rx.recv().unwrap(), 14);
    /// assert_eq!(handle.join().unwrap(), 14);
    /// ```
    pub fn spawn_future<F>(&self, future: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        spawn_future_in(&self.registry, future)
    }
}

/// The payload of the `Err` a [`spawn_future`] handle returns when the future returned
/// `Pending` and then every [`Waker`] to it was dropped: nothing could poll it again.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use std::future::poll_fn;
/// use std::task::Poll;
///
/// // Pending, and the waker is dropped with the context: nothing will ever wake it.
/// let handle = splitsteal::spawn_future(poll_fn(|_| Poll::<()>::Pending));
/// let payload = handle.join().unwrap_err();
/// assert!(payload.downcast_ref::<splitsteal::Abandoned>().is_some());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Abandoned;

impl fmt::Display for Abandoned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the future returned Pending and every Waker to it was dropped")
    }
}

impl std::error::Error for Abandoned {}

fn spawn_future_in<F>(registry: &Arc<Registry>, future: F) -> JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    if registry.is_closed() {
        return JoinHandle::failed(Box::new(PoolShutDown));
    }
    let (handle, packet) = JoinHandle::new();
    registry.add_live();
    let task = Arc::new(FutureTask {
        state: AtomicU8::new(SCHEDULED),
        future: UnsafeCell::new(Some(future)),
        packet,
        registry: Arc::clone(registry),
    });
    task.schedule();
    handle
}

const IDLE: u8 = 0;
const SCHEDULED: u8 = 1;
const RUNNING: u8 = 2;
const NOTIFIED: u8 = 3;
const DONE: u8 = 4;

/// A spawned future, its state (module doc) and where its output goes; its own waker.
struct FutureTask<F: Future> {
    state: AtomicU8,
    /// `None` once done. Touched only by the poller (module doc) and by the last drop.
    future: UnsafeCell<Option<F>>,
    packet: crate::sync::Arc<Packet<F::Output>>,
    registry: Arc<Registry>,
}

// SAFETY: the future cell is used by one poller at a time (the state word hands it over
// with Release/Acquire); `F` and its output are `Send`; the rest is `Sync`.
unsafe impl<F: Future + Send> Sync for FutureTask<F> where F::Output: Send {}

impl<F> FutureTask<F>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    /// Queues one poll of the task, as a spawn from the calling thread would be.
    fn schedule(self: Arc<Self>) {
        let registry = Arc::clone(&self.registry);
        registry.push_or_inject(HeapJob::into_job_ref(move || self.run()));
    }

    /// One poll (the task is `SCHEDULED` by us).
    fn run(self: Arc<Self>) {
        // Acquire: reads the `SCHEDULED` of the waker's CAS, which read the previous
        // poller's Release (an RMW continues its release sequence): the cell is ours.
        self.state.swap(RUNNING, Ordering::Acquire);
        let waker = Waker::from(Arc::clone(&self));
        let mut cx = Context::from_waker(&waker);
        let polled = panic::catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: we hold the cell (`RUNNING`, module doc). The future is pinned: it
            // lives in the `Arc` until it is dropped in place below or with the task.
            let slot = unsafe { &mut *self.future.get() };
            let future = slot.as_mut().expect("a pending future is polled");
            // SAFETY: as above, never moved out of the cell.
            let poll = unsafe { Pin::new_unchecked(future) }.poll(&mut cx);
            if poll.is_ready() {
                // Done: drop the future here, in place, on the pool.
                *slot = None;
            }
            poll
        }));
        let outcome = match polled {
            Ok(Poll::Pending) => {
                // Release: hands the cell to the next poller (through a waker's CAS).
                // Acquire on failure: nothing to read; the state is ours again.
                if self
                    .state
                    .compare_exchange(RUNNING, IDLE, Ordering::Release, Ordering::Relaxed)
                    .is_err()
                {
                    // `NOTIFIED`: woken during the poll. Queue the next poll as a task.
                    // Relaxed: we still own the state; the queue publishes the cell.
                    self.state.store(SCHEDULED, Ordering::Relaxed);
                    self.schedule();
                }
                return;
            }
            Ok(Poll::Ready(output)) => Ok(output),
            Err(payload) => {
                // A poll panicked: the future is not polled again; drop it now, on the
                // pool (a panic of its drop is dropped: the poll's comes first).
                // SAFETY: we still hold the cell (`RUNNING`).
                let drop_future = || unsafe { *self.future.get() = None };
                let _ = panic::catch_unwind(AssertUnwindSafe(drop_future));
                Err(payload)
            }
        };
        // Release: a late waker's Acquire load sees `DONE` and leaves the task alone.
        self.state.store(DONE, Ordering::Release);
        self.packet.complete(outcome);
        self.registry.release_live();
    }
}

impl<F> Wake for FutureTask<F>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Acquire: a `DONE` or `IDLE` read here pairs with the poller's Release.
        let mut state = self.state.load(Ordering::Acquire);
        loop {
            let next = match state {
                IDLE => SCHEDULED,
                RUNNING => NOTIFIED,
                _ => return, // SCHEDULED, NOTIFIED, DONE: nothing to do
            };
            // AcqRel: from `IDLE` we take the cell for the poll we queue (Acquire of the
            // last poller's Release) and pass it on with the queue; from `RUNNING` the
            // poller's failed CAS must see our mark (Release).
            match self
                .state
                .compare_exchange(state, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => break,
                Err(now) => state = now,
            }
        }
        if state == IDLE {
            Arc::clone(self).schedule();
        }
    }
}

impl<F: Future> Drop for FutureTask<F> {
    fn drop(&mut self) {
        // Exclusive (`&mut self`): the last reference.
        if *self.state.get_mut() != DONE {
            // Pending, never to be polled again: every waker is gone. The future is
            // dropped with the task (here) and the handle learns why it gets no output.
            *self.future.get_mut() = None;
            self.packet.complete(Err(Box::new(Abandoned)));
            self.registry.release_live();
        }
    }
}

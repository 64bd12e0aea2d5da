//! Join handles: a spawned task's result, for whoever holds its [`JoinHandle`].
//!
//! rayon's `spawn` returns nothing; its users learn a task's result through a channel or a
//! scope. [`spawn_handle`] returns a [`JoinHandle`] instead, which can be joined (blocking,
//! or running other pool work meanwhile on a worker) or awaited from any executor.
//!
//! # The packet
//!
//! The task and its handle share one [`Packet`] (an `Arc`): the result cell, the waker
//! cell and one state word with two bits, `COMPLETE` and `WAKER`. Who may touch which cell:
//!
//! - **result**: written by the task once, before it sets `COMPLETE` (a Release RMW); read
//!   by the handle once, after it saw `COMPLETE` (Acquire). Nobody else touches it, so the
//!   result left in a packet whose handle was dropped is dropped with the packet, by the
//!   last of the two to let go: the task's thread if the handle went first.
//! - **waker**: while `WAKER` is clear and the task is not complete, the handle alone owns
//!   the cell: it writes its waker, then sets `WAKER` with a Release CAS from `0`. While
//!   `WAKER` is set the cell is read-only: the task, whose `COMPLETE` RMW (Acquire) saw
//!   `WAKER`, calls `wake_by_ref` on it; the handle compares it with its next waker and, to
//!   replace it, first takes the cell back with a CAS from `WAKER` to `0`, which fails once
//!   the task has completed (then the result is there to take instead).
//!
//! The race of the three (the result written, a waker registered, the handle dropped) has
//! one outcome per order of the two RMWs on the word: the task's `COMPLETE` before the
//! handle's CAS makes the CAS fail and the handle take the result; after it, the task sees
//! `WAKER` and wakes. A dropped handle clears `WAKER` first (so the task wakes nobody) and
//! never touches a cell. The loom model `loom_completion_races_poll_and_drop` checks every
//! interleaving.
//!
//! How a blocked thread or a waiting worker is woken is `crate::future`'s concern: joining
//! is awaiting the handle with [`block_on`](crate::block_on).

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::thread;

use crate::pool::ThreadPool;
use crate::registry::Registry;
use crate::scope::Scope;
use crate::spawn::with_current_registry;
use crate::sync::{Arc, AtomicUsize, Ordering, UnsafeCell};

/// The result is written.
const COMPLETE: usize = 1;
/// A waker is in the packet's waker cell, for the task to wake.
const WAKER: usize = 2;

/// What a spawned task and its [`JoinHandle`] share.
pub(crate) struct Packet<T> {
    state: AtomicUsize,
    result: UnsafeCell<Option<thread::Result<T>>>,
    waker: UnsafeCell<Option<Waker>>,
}

// SAFETY: the cells are handed over between the task's thread and the handle's by the
// protocol of the module doc; what crosses is a `T` (Send) or a `Waker` (Send + Sync).
unsafe impl<T: Send> Send for Packet<T> {}
// SAFETY: as above; through `&Packet` each cell is written by one side at a time.
unsafe impl<T: Send> Sync for Packet<T> {}

impl<T> Packet<T> {
    pub(crate) fn new() -> Self {
        Packet {
            state: AtomicUsize::new(0),
            result: UnsafeCell::new(None),
            waker: UnsafeCell::new(None),
        }
    }

    /// Called once, by the task: stores its outcome and wakes the handle's waker, if any.
    pub(crate) fn complete(&self, result: thread::Result<T>) {
        // SAFETY: only the task writes the result, once, and the handle reads it only after
        // seeing `COMPLETE`, which is set below.
        self.result.with_mut(|cell| unsafe { *cell = Some(result) });
        // AcqRel: Release publishes the result to the handle's Acquire; Acquire makes the
        // waker the handle wrote before its Release CAS visible here.
        let before = self.state.fetch_or(COMPLETE, Ordering::AcqRel);
        if before & WAKER != 0 {
            // SAFETY: `WAKER` and `COMPLETE` are both set: the handle no longer writes the
            // cell (its CAS from `WAKER` now fails), and it holds a waker (written before
            // `WAKER` was set).
            self.waker
                .with(|cell| unsafe { (*cell).as_ref() }.map(Waker::wake_by_ref));
        }
    }

    /// Whether the result is written.
    pub(crate) fn is_complete(&self) -> bool {
        // Acquire: a `true` lets the caller read the result.
        self.state.load(Ordering::Acquire) & COMPLETE != 0
    }

    /// The handle's poll: the result if it is there, else registers `waker`.
    ///
    /// # Safety
    /// Called by the packet's one handle only (never concurrently with itself or with
    /// [`Packet::take_result`]).
    pub(crate) unsafe fn poll_result(&self, waker: &Waker) -> Poll<thread::Result<T>> {
        // Acquire: pairs with `complete`'s Release (the result).
        let state = self.state.load(Ordering::Acquire);
        if state & COMPLETE != 0 {
            // SAFETY: complete, and we are the handle.
            return Poll::Ready(unsafe { self.take_result() });
        }
        if state & WAKER != 0 {
            // SAFETY: with `WAKER` set the cell is only read (by us and the task).
            let same = self
                .waker
                .with(|cell| unsafe { (*cell).as_ref() }.is_some_and(|w| w.will_wake(waker)));
            if same {
                return Poll::Pending;
            }
            // Take the cell back to replace the waker. Relaxed on success: the task reads
            // the cell only after its RMW saw `WAKER`, which would make this CAS fail.
            // Acquire on failure: the task completed (the result).
            if self
                .state
                .compare_exchange(WAKER, 0, Ordering::Relaxed, Ordering::Acquire)
                .is_err()
            {
                // SAFETY: only `COMPLETE` can have changed the word: complete, we are the
                // handle.
                return Poll::Ready(unsafe { self.take_result() });
            }
        }
        let waker = waker.clone();
        // SAFETY: `WAKER` is clear and the task has not completed: the task does not touch
        // the cell (it reads it only if its RMW sees `WAKER`), and we are its only writer.
        self.waker.with_mut(|cell| unsafe { *cell = Some(waker) });
        // Release: the task's Acquire RMW sees the waker written above. Acquire on failure:
        // the task completed meanwhile (the result; our waker stays unread in the cell).
        match self
            .state
            .compare_exchange(0, WAKER, Ordering::Release, Ordering::Acquire)
        {
            Ok(_) => Poll::Pending,
            // SAFETY: complete, and we are the handle.
            Err(_) => Poll::Ready(unsafe { self.take_result() }),
        }
    }

    /// The result.
    ///
    /// # Safety
    /// `COMPLETE` was observed with Acquire ordering, and the caller is the one handle.
    unsafe fn take_result(&self) -> thread::Result<T> {
        // SAFETY: written before `COMPLETE` (the caller saw it), never touched by the task
        // again; the one handle is the only reader.
        self.result
            .with_mut(|cell| unsafe { (*cell).take() })
            .expect("splitsteal: a JoinHandle was polled again after it returned its result")
    }

    /// The handle is dropped: the task is detached and wakes nobody.
    fn detach(&self) {
        // Relaxed: clearing `WAKER` only spares the task a wake-up; the waker left in the
        // cell is dropped with the packet, after both sides let go (the `Arc`'s ordering).
        let _ = self
            .state
            .compare_exchange(WAKER, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// An owned permission to learn a spawned task's result: join it ([`JoinHandle::join`]) or
/// await it (`JoinHandle` is a [`Future`]).
///
/// What rayon's `spawn` does not return (its users passed a channel's sender into the
/// task). Made by [`spawn_handle`], [`ThreadPool::spawn_handle`], [`Scope::spawn_handle`],
/// [`spawn_future`](crate::spawn_future) and [`ThreadPool::spawn_future`]. Dropping it
/// detaches the task: the task still runs, and its result (or panic) is dropped, on the
/// task's thread when it completes.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let handle = pool.spawn_handle(|| (1..=10u64).product::<u64>());
/// assert_eq!(handle.join().unwrap(), 3_628_800);
/// ```
///
/// A scope's handle ([`Scope::spawn_handle`]) is the same type: its task may borrow for
/// the scope, and so may its result `T`, which bounds where the handle can go; the scope
/// waits for the task whether or not the handle is joined.
#[must_use = "dropping a JoinHandle detaches its task; join or await it to get the result"]
pub struct JoinHandle<T> {
    packet: Arc<Packet<T>>,
}

impl<T> JoinHandle<T> {
    /// A handle and the packet its task completes.
    pub(crate) fn new() -> (JoinHandle<T>, Arc<Packet<T>>) {
        let packet = Arc::new(Packet::new());
        let handle = JoinHandle {
            packet: Arc::clone(&packet),
        };
        (handle, packet)
    }

    /// A handle whose task never ran, with `payload` as its outcome's `Err`.
    pub(crate) fn failed(payload: Box<dyn Any + Send>) -> JoinHandle<T> {
        let (handle, packet) = JoinHandle::new();
        packet.complete(Err(payload));
        handle
    }

    /// Waits for the task and returns its result; `Err` holds the payload of its panic
    /// (which never reaches the pool's panic handler), as
    /// [`std::thread::JoinHandle::join`] does.
    ///
    /// On a worker of a pool (this task's or another's) the wait runs that pool's other
    /// work, as a `join` whose second closure was stolen does, so joining inside a
    /// one-thread pool does not deadlock: the worker runs the task itself. Elsewhere it
    /// parks the thread until the task completes. Joining a finished task costs one load.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let one = splitsteal::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    /// // The only worker spawns and joins: it runs the task while it waits.
    /// let v = one.install(|| splitsteal::spawn_handle(|| 6 * 7).join().unwrap());
    /// assert_eq!(v, 42);
    ///
    /// let failed = one.spawn_handle(|| -> u32 { panic!("no") });
    /// assert_eq!(*failed.join().unwrap_err().downcast::<&str>().unwrap(), "no");
    /// ```
    pub fn join(mut self) -> thread::Result<T> {
        if self.packet.is_complete() {
            // SAFETY: complete (Acquire), and we are the handle.
            return unsafe { self.packet.take_result() };
        }
        crate::future::block_on(&mut self)
    }

    /// Whether the task has finished (its result is ready: [`join`](Self::join) will not
    /// wait). Never blocks.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let handle = splitsteal::spawn_handle(|| "done");
    /// while !handle.is_finished() {
    ///     std::thread::yield_now();
    /// }
    /// assert_eq!(handle.join().unwrap(), "done");
    /// ```
    pub fn is_finished(&self) -> bool {
        self.packet.is_complete()
    }
}

impl<T> Future for JoinHandle<T> {
    type Output = thread::Result<T>;

    /// Ready with the task's result (or `Err` with its panic). Pending costs the awaiting
    /// executor no thread: the task wakes the last waker registered when it completes.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let handle = splitsteal::spawn_handle(|| 2 + 2);
    /// // Any executor can await it; `block_on` is this crate's own.
    /// assert_eq!(splitsteal::block_on(async { handle.await.unwrap() }), 4);
    /// ```
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // SAFETY: `self` is the packet's only handle (not `Clone`), borrowed mutably.
        unsafe { self.packet.poll_result(cx.waker()) }
    }
}

impl<T> Drop for JoinHandle<T> {
    fn drop(&mut self) {
        self.packet.detach();
    }
}

impl<T> fmt::Debug for JoinHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JoinHandle")
            .field("finished", &self.is_finished())
            .finish()
    }
}

/// What a handle's task was never run for: the pool had shut down
/// ([`ThreadPool::shutdown`]) when the spawn reached it. The payload of the `Err` that such
/// a handle's [`join`](JoinHandle::join) returns.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// use std::sync::{Arc, Mutex};
///
/// // The one code that runs after a pool shut down: its exit handlers.
/// let late = Arc::new(Mutex::new(Vec::new()));
/// let keep = Arc::clone(&late);
/// let pool = splitsteal::ThreadPoolBuilder::new()
///     .num_threads(1)
///     .exit_handler(move |_| keep.lock().unwrap().push(splitsteal::spawn_handle(|| 1)))
///     .build()
///     .unwrap();
/// pool.shutdown().unwrap();
/// let handle = late.lock().unwrap().pop().unwrap();
/// let payload = handle.join().unwrap_err();
/// assert!(payload.downcast_ref::<splitsteal::PoolShutDown>().is_some());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolShutDown;

impl fmt::Display for PoolShutDown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the thread pool had shut down; the task never ran")
    }
}

impl std::error::Error for PoolShutDown {}

/// Runs `func` on the current pool (the one the calling thread is a worker of, else the
/// global pool), as [`spawn`](crate::spawn) does, and returns a handle to its result.
///
/// With rayon one sent the result back through a channel, or waited in a
/// [`scope`](crate::scope()); the handle does both: [`join`](JoinHandle::join) it, or
/// `.await` it from any executor. A panic in `func` comes back as `join`'s `Err` and never
/// reaches the pool's panic handler.
///
/// ```
/// # use splitsteal_core as splitsteal;
/// let handles: Vec<_> = (0..4u64).map(|i| splitsteal::spawn_handle(move || i * i)).collect();
/// let squares: Vec<u64> = handles.into_iter().map(|h| h.join().unwrap()).collect();
/// assert_eq!(squares, [0, 1, 4, 9]);
/// ```
pub fn spawn_handle<F, T>(func: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    with_current_registry(|registry| spawn_handle_in(registry, func))
}

impl ThreadPool {
    /// [`spawn_handle`] on this pool: `func` runs on one of its workers; the handle gives
    /// its result (with rayon, `pool.spawn` and a channel). As with
    /// [`spawn`](Self::spawn), dropping the pool does not cancel it.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let pool = splitsteal::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let handle = pool.spawn_handle(|| splitsteal::current_thread_index());
    /// drop(pool); // the task still runs
    /// assert!(handle.join().unwrap().is_some());
    /// ```
    pub fn spawn_handle<F, T>(&self, func: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        spawn_handle_in(&self.registry, func)
    }
}

fn spawn_handle_in<F, T>(registry: &std::sync::Arc<Registry>, func: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    if registry.is_closed() {
        return JoinHandle::failed(Box::new(PoolShutDown));
    }
    let (handle, packet) = JoinHandle::new();
    crate::spawn::spawn_in(registry, move || {
        packet.complete(panic::catch_unwind(AssertUnwindSafe(func)));
    });
    handle
}

impl<'scope> Scope<'scope> {
    /// [`spawn`](Scope::spawn) with a handle to the task's result: the task may borrow for
    /// the scope, and so may its result. A panic comes back as the handle's `Err` (the
    /// scope does not resume it); the scope still waits for every task, joined or not.
    ///
    /// Where a rayon scope wrote each result into a slot borrowed from outside, a task can
    /// return it:
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// let words = ["fork", "join", "steal"];
    /// let total = splitsteal::scope(|s| {
    ///     let handles: Vec<_> = words.iter().map(|w| s.spawn_handle(move |_| w.len())).collect();
    ///     handles.into_iter().map(|h| h.join().unwrap()).sum::<usize>()
    /// });
    /// assert_eq!(total, 13);
    /// ```
    pub fn spawn_handle<BODY, T>(&self, body: BODY) -> JoinHandle<T>
    where
        BODY: FnOnce(&Scope<'scope>) -> T + Send + 'scope,
        T: Send + 'scope,
    {
        let (handle, packet) = JoinHandle::new();
        self.spawn(move |scope| {
            // The task's reference to the packet is dropped here, before the scope's count
            // goes down: nothing of `'scope` is touched once the scope may return.
            packet.complete(panic::catch_unwind(AssertUnwindSafe(|| body(scope))));
        });
        handle
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    //! The packet on its own, with plain threads (no pool): what Miri checks.
    use super::*;
    use std::sync::atomic::AtomicUsize as StdAtomicUsize;
    use std::task::Wake;

    /// A waker that counts its wake-ups.
    #[derive(Default)]
    struct Counter(StdAtomicUsize);

    impl Wake for Counter {
        fn wake(self: std::sync::Arc<Self>) {
            self.wake_by_ref();
        }
        fn wake_by_ref(self: &std::sync::Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn counter() -> (std::sync::Arc<Counter>, Waker) {
        let c = std::sync::Arc::new(Counter::default());
        let w = Waker::from(std::sync::Arc::clone(&c));
        (c, w)
    }

    /// Drops count themselves, so a result dropped twice or never shows.
    struct Tracked(std::sync::Arc<StdAtomicUsize>);
    impl Drop for Tracked {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn result_after_registration_wakes_and_is_taken() {
        let (mut handle, packet) = JoinHandle::<u32>::new();
        let (woken, waker) = counter();
        let mut cx = Context::from_waker(&waker);
        assert!(Pin::new(&mut handle).poll(&mut cx).is_pending());
        let t = std::thread::spawn(move || packet.complete(Ok(7)));
        t.join().unwrap();
        assert_eq!(woken.0.load(Ordering::SeqCst), 1);
        assert!(handle.is_finished());
        match Pin::new(&mut handle).poll(&mut cx) {
            Poll::Ready(Ok(7)) => {}
            _ => panic!("the result is ready"),
        }
    }

    #[test]
    fn a_new_waker_replaces_the_old_one() {
        let (mut handle, packet) = JoinHandle::<u32>::new();
        let (first, w1) = counter();
        let (second, w2) = counter();
        assert!(Pin::new(&mut handle)
            .poll(&mut Context::from_waker(&w1))
            .is_pending());
        assert!(Pin::new(&mut handle)
            .poll(&mut Context::from_waker(&w2))
            .is_pending());
        packet.complete(Ok(1));
        assert_eq!(first.0.load(Ordering::SeqCst), 0);
        assert_eq!(second.0.load(Ordering::SeqCst), 1);
        assert!(matches!(handle.join(), Ok(1)));
    }

    #[test]
    fn racing_completion_and_polling_threads() {
        for _ in 0..if cfg!(miri) { 20 } else { 500 } {
            let drops = std::sync::Arc::new(StdAtomicUsize::new(0));
            let (mut handle, packet) = JoinHandle::new();
            let d = std::sync::Arc::clone(&drops);
            let t = std::thread::spawn(move || packet.complete(Ok(Tracked(d))));
            let (woken, waker) = counter();
            let mut cx = Context::from_waker(&waker);
            let got = loop {
                match Pin::new(&mut handle).poll(&mut cx) {
                    Poll::Ready(r) => break r,
                    Poll::Pending => {
                        while woken.0.load(Ordering::SeqCst) == 0 {
                            std::thread::yield_now();
                        }
                    }
                }
            };
            t.join().unwrap();
            assert!(got.is_ok());
            drop(got);
            drop(handle);
            assert_eq!(drops.load(Ordering::SeqCst), 1);
        }
    }

    #[test]
    fn a_dropped_handle_leaves_the_result_to_the_task() {
        for registered in [false, true] {
            let drops = std::sync::Arc::new(StdAtomicUsize::new(0));
            let (mut handle, packet) = JoinHandle::new();
            let (woken, waker) = counter();
            if registered {
                assert!(Pin::new(&mut handle)
                    .poll(&mut Context::from_waker(&waker))
                    .is_pending());
            }
            drop(handle);
            let d = std::sync::Arc::clone(&drops);
            std::thread::spawn(move || {
                packet.complete(Ok(Tracked(d)));
                // The task holds the last reference: the result goes with it, here.
            })
            .join()
            .unwrap();
            assert_eq!(drops.load(Ordering::SeqCst), 1);
            assert_eq!(
                woken.0.load(Ordering::SeqCst),
                0,
                "a detached task wakes nobody"
            );
        }
    }

    #[test]
    fn a_panic_is_the_err() {
        let (handle, packet) = JoinHandle::<()>::new();
        packet.complete(Err(Box::new("boom")));
        assert_eq!(
            *handle.join().unwrap_err().downcast::<&str>().unwrap(),
            "boom"
        );
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    use super::*;
    use loom::sync::atomic::AtomicUsize as LoomUsize;
    use loom::thread;
    use std::task::Wake;

    /// A waker that counts its wake-ups (a loom atomic, so the model sees the race).
    struct Counter(LoomUsize);

    impl Wake for Counter {
        fn wake(self: std::sync::Arc<Self>) {
            self.wake_by_ref();
        }
        fn wake_by_ref(self: &std::sync::Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Counts its drops.
    struct Tracked(Arc<LoomUsize>);
    impl Drop for Tracked {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// The task completes while the handle polls (registers a waker), polls again with
    /// another waker, and then either drops or takes the result: no wake-up lost, the
    /// result read only once written (loom's cells report any other read), dropped exactly
    /// once, a replaced waker never woken.
    #[test]
    fn loom_completion_races_poll_and_drop() {
        for handle_drops in [false, true] {
            loom::model(move || {
                let drops = Arc::new(LoomUsize::new(0));
                let (mut handle, packet) = JoinHandle::new();
                let d = Arc::clone(&drops);
                let task = thread::spawn(move || packet.complete(Ok(Tracked(d))));

                let first = std::sync::Arc::new(Counter(LoomUsize::new(0)));
                let second = std::sync::Arc::new(Counter(LoomUsize::new(0)));
                let w1 = Waker::from(std::sync::Arc::clone(&first));
                let w2 = Waker::from(std::sync::Arc::clone(&second));
                let mut taken = None;
                let mut pending_on = None;
                for (w, which) in [(&w1, 1), (&w2, 2)] {
                    match Pin::new(&mut handle).poll(&mut Context::from_waker(w)) {
                        Poll::Ready(r) => {
                            taken = Some(r);
                            break;
                        }
                        Poll::Pending => pending_on = Some(which),
                    }
                }
                if handle_drops && taken.is_none() {
                    drop(handle);
                    task.join().unwrap();
                    // Woken only if the task completed before the drop cleared `WAKER`.
                    assert!(second.0.load(Ordering::SeqCst) <= 1);
                } else {
                    task.join().unwrap();
                    if taken.is_none() {
                        // The last poll was pending: its waker must have been woken.
                        assert_eq!(pending_on, Some(2));
                        assert_eq!(second.0.load(Ordering::SeqCst), 1, "a lost wake-up");
                        match Pin::new(&mut handle).poll(&mut Context::from_waker(&w2)) {
                            Poll::Ready(r) => taken = Some(r),
                            Poll::Pending => panic!("woken but not complete"),
                        }
                    }
                    assert!(matches!(taken, Some(Ok(_))));
                    drop(taken);
                    drop(handle);
                }
                if pending_on == Some(2) {
                    // The second waker replaced the first before the task looked.
                    assert_eq!(
                        first.0.load(Ordering::SeqCst),
                        0,
                        "a replaced waker was woken"
                    );
                }
                assert_eq!(drops.load(Ordering::SeqCst), 1, "the result dropped once");
            });
        }
    }
}

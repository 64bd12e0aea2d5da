//! Task proxies and mailboxes: the two halves of the low-latency thesis's hybrid scheduler.
//!
//! # Task proxy (low-latency thesis §3.4.1)
//!
//! A task that is both *mailed* to another worker and *pushed* on the local deque is
//! wrapped in a [`Proxy`]. Its `task_and_tag` word holds the task pointer and two location
//! bits, [`IN_DEQUE`] and [`IN_MAILBOX`]; both are set at first. Each side claims the task
//! with [`Proxy::extract`]: the first side to CAS the word wins the task and leaves the
//! other side's bit alone in the word; the second side then reads (or fails its CAS
//! against) its own bit, learns that it lost, and frees the proxy. So exactly one side runs
//! the task ("the faster thread executes") and exactly one frees the proxy ("the slower
//! frees").
//!
//! **Ownership.** A proxy is heap-allocated by the worker that forks; it is never on a
//! stack frame, because it may be reached from a mailbox or a deque after the frame that
//! made it has returned. The *task* it points to may live on the forking frame (a join's
//! stack job): that is sound because only the claim winner ever dereferences the task
//! pointer, and the forking frame does not return before its task has run (it runs the
//! task itself after winning the claim, or waits on the task's latch). The loser only
//! reads the proxy's tag word (which, once claimed, no longer holds the pointer) and frees
//! the proxy; by then the proxy is reachable from nowhere: the winner took it out of one
//! location, the loser out of the other.
//!
//! # Mailbox (low-latency thesis §3.4.2, oneTBB's `mail_outbox`)
//!
//! An intrusive multi-producer single-consumer FIFO of proxies, linked through their
//! `next` field. Producers are wait-free: one `swap` of the tail link and one store. The
//! consumer pops with acquire loads and, for the last element only, a CAS of the tail back
//! to the head; if a producer has swapped the tail but not yet linked its proxy (the
//! last-element race), the consumer waits for the link, as the low-latency thesis describes ("instead of
//! memory fences, we are choosing to wait").

use std::ptr::{self, NonNull};

use crossbeam_utils::CachePadded;

use crate::job::{JobHeader, JobRef};
use crate::stats::{count_cas, count_rmw, Side};
use crate::sync::{AtomicPtr, Ordering};

/// Location bit: the proxy is (or was) in a deque.
pub(crate) const IN_DEQUE: usize = 0b01;
/// Location bit: the proxy is (or was) in a mailbox.
pub(crate) const IN_MAILBOX: usize = 0b10;
const LOCATIONS: usize = IN_DEQUE | IN_MAILBOX;

/// The workers a task's work is meant for: `count` workers from `first` on, wrapping
/// around the pool (see `crate::hybrid`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WorkerRange {
    pub(crate) first: u32,
    pub(crate) count: u32,
}

impl WorkerRange {
    /// Worker `index` alone.
    pub(crate) fn one(index: usize) -> WorkerRange {
        WorkerRange {
            first: index as u32,
            count: 1,
        }
    }
}

/// The proxy leak gauge, compiled only for splitsteal's own tests (`cfg(test)` or the
/// `proxy-leak-check` feature the test suite turns on): builds for users count nothing.
#[cfg(any(test, feature = "proxy-leak-check"))]
mod proxy_gauge {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicIsize, Ordering};

    /// Proxies made minus proxies freed, by this thread: a plain thread-local (no shared
    /// cache line, no atomic on the mailing path). A thread's balance moves to
    /// [`OF_EXITED_THREADS`] when it exits.
    struct Gauge(Cell<isize>);

    impl Drop for Gauge {
        fn drop(&mut self) {
            // Relaxed: read by the tests only after joining the threads that wrote it.
            OF_EXITED_THREADS.fetch_add(self.0.get(), Ordering::Relaxed);
        }
    }

    thread_local! {
        static GAUGE: Gauge = const { Gauge(Cell::new(0)) };
    }

    static OF_EXITED_THREADS: AtomicIsize = AtomicIsize::new(0);

    pub(super) fn add(delta: isize) {
        // A thread that is exiting (its gauge already dropped) frees no proxies: ignore.
        let _ = GAUGE.try_with(|g| g.0.set(g.0.get() + delta));
    }

    /// Proxies alive, counted over threads that have exited plus the calling thread: once
    /// the pools that mailed have been dropped (their threads joined), every proxy must
    /// be freed.
    pub(crate) fn live_proxies() -> isize {
        // Relaxed: see `Gauge::drop`.
        OF_EXITED_THREADS.load(Ordering::Relaxed) + GAUGE.try_with(|g| g.0.get()).unwrap_or(0)
    }
}

#[cfg(not(any(test, feature = "proxy-leak-check")))]
mod proxy_gauge {
    #[inline(always)]
    pub(super) fn add(_delta: isize) {}
}

#[cfg(any(test, feature = "proxy-leak-check"))]
pub(crate) use proxy_gauge::live_proxies;

/// A task that lives in a deque and a mailbox at once.
#[repr(C)]
pub(crate) struct Proxy {
    /// First field: a proxy is itself a job; running it from a deque claims the task from
    /// the deque side (`repr(C)`).
    header: JobHeader,
    /// The task's address with the location bits of the sides that have not claimed it;
    /// after a claim, only the loser's bit (no address). A tagged pointer rather than an
    /// integer, so the task keeps its provenance.
    task_and_tag: AtomicPtr<JobHeader>,
    /// The next proxy in the mailbox (written by the producer that links after us).
    next: AtomicPtr<Proxy>,
    /// The workers the task's work is meant for.
    pub(crate) range: WorkerRange,
}

impl Proxy {
    /// A proxy for `task`, in both locations. `on_deque_run` is what running the proxy
    /// from a deque does (the runtime's claim-and-run from the deque side).
    pub(crate) fn new(
        task: JobRef,
        range: WorkerRange,
        on_deque_run: unsafe fn(NonNull<JobHeader>),
    ) -> NonNull<Proxy> {
        let task = task.as_ptr();
        debug_assert_eq!(
            task.addr() & LOCATIONS,
            0,
            "jobs are at least 4-byte aligned"
        );
        let proxy = Box::new(Proxy {
            header: JobHeader::new(on_deque_run),
            task_and_tag: AtomicPtr::new(task.map_addr(|a| a | LOCATIONS)),
            next: AtomicPtr::new(ptr::null_mut()),
            range,
        });
        proxy_gauge::add(1);
        NonNull::from(Box::leak(proxy))
    }

    /// The proxy as a deque entry.
    pub(crate) fn job_ref(proxy: NonNull<Proxy>) -> JobRef {
        JobRef::from_header(proxy.cast())
    }

    /// The proxy behind a deque entry made by [`Proxy::job_ref`].
    ///
    /// # Safety
    /// `header` must be the header of a live proxy.
    pub(crate) unsafe fn from_header(header: NonNull<JobHeader>) -> NonNull<Proxy> {
        header.cast()
    }

    /// Claims the task from side `from` (`IN_DEQUE` or `IN_MAILBOX`): `Some(task)` if this
    /// side wins; `None` if the other side has it, in which case the caller must free the
    /// proxy with [`Proxy::free`] (and must not touch it afterwards).
    ///
    /// # Safety
    /// `this` is a live proxy, and each side calls `extract` at most once.
    pub(crate) unsafe fn extract(this: NonNull<Proxy>, from: usize) -> Option<JobRef> {
        // SAFETY: the proxy is live until the loser frees it, and the loser is whoever
        // calls `extract` second: us only after this call returns.
        let word = unsafe { &this.as_ref().task_and_tag };
        // Acquire: if the other side already claimed, its CAS is visible (we then free).
        let tat = word.load(Ordering::Acquire);
        if tat.addr() != from {
            let cleaner = ptr::without_provenance_mut(LOCATIONS & !from);
            count_cas(Side::Scheduler);
            // AcqRel: the winner's CAS orders the claim; the loser's failed CAS (Acquire)
            // sees the winner's, so the loser's free comes after the winner's last read.
            if word
                .compare_exchange(tat, cleaner, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                debug_assert_eq!(tat.addr() & LOCATIONS, LOCATIONS, "claimed twice");
                let task = tat.map_addr(|a| a & !LOCATIONS);
                // SAFETY: the word held the (non-null) task pointer with both bits set.
                return Some(JobRef::from_header(unsafe { NonNull::new_unchecked(task) }));
            }
        }
        None
    }

    /// Frees a proxy after losing the claim.
    ///
    /// # Safety
    /// `extract` returned `None` for this side, so the other side is done with the proxy
    /// and nothing links to it.
    pub(crate) unsafe fn free(this: NonNull<Proxy>) {
        // SAFETY: made by `Box::leak` in `new`; the caller guarantees exclusive ownership.
        drop(unsafe { Box::from_raw(this.as_ptr()) });
        proxy_gauge::add(-1);
    }
}

/// A worker's mailbox: many senders, one receiver (its worker).
pub(crate) struct Mailbox {
    /// The oldest proxy, or null.
    first: CachePadded<AtomicPtr<Proxy>>,
    /// The link the next proxy must be written into: the newest proxy's `next`, or null
    /// for `first` (oneTBB stores `&first`; a null stands for it here, so nothing points
    /// into the mailbox itself and it may move freely).
    last: CachePadded<AtomicPtr<AtomicPtr<Proxy>>>,
}

impl Mailbox {
    /// A new, empty mailbox (boxed: it is shared through the registry, one per worker).
    pub(crate) fn new() -> Box<Mailbox> {
        Box::new(Mailbox {
            first: CachePadded::new(AtomicPtr::new(ptr::null_mut())),
            last: CachePadded::new(AtomicPtr::new(ptr::null_mut())),
        })
    }

    /// The link a null `last` stands for.
    fn link(&self, last: *mut AtomicPtr<Proxy>) -> &AtomicPtr<Proxy> {
        if last.is_null() {
            &self.first
        } else {
            // SAFETY: a non-null `last` is the `next` of a proxy still in the mailbox (see
            // `push` and `pop`).
            unsafe { &*last }
        }
    }

    /// Mails a proxy (any thread). Wait-free: a swap and a store.
    ///
    /// # Safety
    /// `proxy` is live and in no mailbox.
    pub(crate) unsafe fn push(&self, proxy: NonNull<Proxy>) {
        // SAFETY: the proxy is live; we are its only producer.
        let next = unsafe { &proxy.as_ref().next };
        // Relaxed: published by the Release store into the previous link below.
        next.store(ptr::null_mut(), Ordering::Relaxed);
        count_rmw(Side::Scheduler);
        // AcqRel: Acquire so that the link we get is initialised (it was published by the
        // previous producer's swap); Release so the next producer sees our `next` null.
        let link = self
            .last
            .swap(ptr::from_ref(next).cast_mut(), Ordering::AcqRel);
        // Release: the consumer's Acquire load of this link sees the proxy's contents.
        // (`link` is `first` or the `next` of a proxy still in the mailbox: the consumer
        // does not release a proxy whose `next` is null while the tail points past it; it
        // waits for this store, see `pop`.)
        self.link(link).store(proxy.as_ptr(), Ordering::Release);
    }

    /// Whether the mailbox looks empty (the owner's cheap check).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        // Relaxed: a hint; `pop` re-reads with Acquire.
        self.first.load(Ordering::Relaxed).is_null()
    }

    /// Takes the oldest proxy. Only the owning worker calls this.
    ///
    /// # Safety
    /// Called by the mailbox's single consumer only.
    pub(crate) unsafe fn pop(&self) -> Option<NonNull<Proxy>> {
        // Acquire: pairs with the Release store that linked it.
        let curr = NonNull::new(self.first.load(Ordering::Acquire))?;
        // SAFETY: linked proxies are live until their consumer (us) hands them out.
        let curr_next = unsafe { &curr.as_ref().next };
        // Acquire: pairs with the next producer's Release store into `curr.next`.
        let mut second = curr_next.load(Ordering::Acquire);
        if second.is_null() {
            // `curr` looks like the last proxy: empty the box, unless a producer has
            // already swapped the tail past `curr`.
            // Relaxed: only the consumer writes `first`; producers write it only through a
            // null `last`, which cannot be the tail while `curr` is linked.
            self.first.store(ptr::null_mut(), Ordering::Relaxed);
            count_cas(Side::Scheduler);
            // AcqRel: on success, the next producer's swap sees null and links into `first`.
            if self
                .last
                .compare_exchange(
                    ptr::from_ref(curr_next).cast_mut(),
                    ptr::null_mut(),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                )
                .is_ok()
            {
                return Some(curr);
            }
            // The last-element race: a producer swapped the tail to its own proxy but has
            // not stored the link into `curr.next` yet. Wait for it (rare and short: the
            // producer is between two instructions).
            let mut spins = 0u32;
            loop {
                // Acquire: as above.
                second = curr_next.load(Ordering::Acquire);
                if !second.is_null() {
                    break;
                }
                spins += 1;
                if spins < 64 {
                    std::hint::spin_loop();
                } else {
                    crate::sync::yield_now();
                }
            }
        }
        // Relaxed: only the consumer writes `first` while the box is non-empty.
        self.first.store(second, Ordering::Relaxed);
        Some(curr)
    }
}

impl Drop for Mailbox {
    fn drop(&mut self) {
        // A pool is dropped only when idle, so every mailed proxy was claimed; a proxy
        // left here was claimed from its deque side and must be freed by us.
        // SAFETY: `&mut self`: no producer or consumer is active.
        while let Some(p) = unsafe { self.pop() } {
            // SAFETY: see above; the mailbox side is the last user.
            unsafe {
                if Proxy::extract(p, IN_MAILBOX).is_none() {
                    Proxy::free(p);
                } else {
                    debug_assert!(false, "an unclaimed proxy in a dropped mailbox");
                }
            }
        }
    }
}

/// The mailbox on its own, for `splitsteal-bench`'s `mailbox` mode (the low-latency
/// thesis's mailbox micro-benchmarks). Not part of splitsteal's API: the runtime mails task
/// proxies, which users never see, and the benchmark needs the same push / pop / claim /
/// free path without a pool around it. `doc(hidden)` because it exists for measurement
/// only and may change with the runtime.
pub mod bench_support {
    use std::ptr::{self, NonNull};
    use std::sync::Arc;

    use super::{Mailbox, Proxy, WorkerRange, IN_DEQUE, IN_MAILBOX};
    use crate::job::{JobHeader, JobRef};

    /// The largest message [`Sender::send`] takes: the value rides in a proxy's task
    /// pointer, shifted past the two location bits.
    pub const MAX_MESSAGE: u64 = (usize::MAX >> 2) as u64 - 1;

    unsafe fn never_run(_: NonNull<JobHeader>) {
        unreachable!("benchmark proxies are never pushed on a deque")
    }

    struct Shared(Box<Mailbox>);

    impl Drop for Shared {
        fn drop(&mut self) {
            // Messages nobody received: claim and free them here, so that `Mailbox::drop`
            // (which expects only proxies already claimed from the deque side) sees none.
            // SAFETY: `&mut self`: no sender or receiver is left.
            while unsafe { take(&self.0) }.is_some() {}
        }
    }

    /// Pops one proxy, claims it from the mailbox side, frees it (what a worker's
    /// `run_mail` and the deque side's losing claim do between them), and decodes it.
    ///
    /// # Safety
    /// The caller is the mailbox's only consumer.
    unsafe fn take(mb: &Mailbox) -> Option<u64> {
        // SAFETY: the caller is the single consumer.
        let p = unsafe { mb.pop() }?;
        // SAFETY: a live proxy that nobody else claims: the mailbox side wins, the deque
        // side (played here too) loses and frees it, once.
        let task = unsafe {
            let task = Proxy::extract(p, IN_MAILBOX).expect("only the receiver claims");
            let lost = Proxy::extract(p, IN_DEQUE);
            debug_assert!(lost.is_none());
            Proxy::free(p);
            task
        };
        Some((task.as_ptr().addr() >> 2) as u64 - 1)
    }

    /// The sending half: any number of threads, each a producer.
    #[derive(Clone)]
    pub struct Sender(Arc<Shared>);

    /// The receiving half: one consumer (`recv` takes `&mut self` and there is one).
    pub struct Receiver(Arc<Shared>);

    /// A fresh mailbox's two halves.
    pub fn mailbox() -> (Sender, Receiver) {
        let shared = Arc::new(Shared(Mailbox::new()));
        (Sender(shared.clone()), Receiver(shared))
    }

    impl Sender {
        /// Mails `msg` (at most [`MAX_MESSAGE`]) as the runtime mails a task: a fresh
        /// proxy, pushed.
        pub fn send(&self, msg: u64) {
            assert!(msg <= MAX_MESSAGE, "message {msg} too large");
            // Non-null and 4-aligned; nothing dereferences it (only the receiver reads
            // the address back).
            let task = ptr::without_provenance_mut::<JobHeader>(((msg + 1) as usize) << 2);
            // SAFETY: non-null: msg + 1 >= 1, and the shift cannot overflow (MAX_MESSAGE).
            let task = JobRef::from_header(unsafe { NonNull::new_unchecked(task) });
            let proxy = Proxy::new(task, WorkerRange::one(0), never_run);
            // SAFETY: a fresh proxy, in no mailbox.
            unsafe { self.0 .0.push(proxy) };
        }
    }

    impl Receiver {
        /// The oldest message, or `None` if the mailbox is empty.
        pub fn recv(&mut self) -> Option<u64> {
            // SAFETY: the only `Receiver` of this mailbox, borrowed mutably.
            unsafe { take(&self.0 .0) }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    unsafe fn never_run(_: NonNull<JobHeader>) {
        unreachable!("test proxies are not run from a deque")
    }

    /// A fake task: any 8-aligned address works, nothing dereferences it.
    fn task(i: usize) -> JobRef {
        let p = ptr::without_provenance_mut::<JobHeader>(0x1000 + 8 * i);
        JobRef::from_header(NonNull::new(p).unwrap())
    }

    #[test]
    fn exactly_one_side_wins_and_the_other_frees() {
        for first in [IN_DEQUE, IN_MAILBOX] {
            let p = Proxy::new(task(1), WorkerRange::one(0), never_run);
            let second = LOCATIONS & !first;
            // SAFETY: live proxy, one extract per side; the loser frees.
            unsafe {
                assert_eq!(Proxy::extract(p, first), Some(task(1)));
                assert_eq!(Proxy::extract(p, second), None);
                Proxy::free(p);
            }
        }
    }

    #[test]
    fn bench_support_delivers_each_message_once_in_order() {
        let (tx, mut rx) = bench_support::mailbox();
        assert_eq!(rx.recv(), None);
        for v in [0, 7, bench_support::MAX_MESSAGE] {
            tx.send(v);
        }
        assert_eq!(rx.recv(), Some(0));
        assert_eq!(rx.recv(), Some(7));
        assert_eq!(rx.recv(), Some(bench_support::MAX_MESSAGE));
        assert_eq!(rx.recv(), None);
        // Messages left unreceived are claimed and freed when the last half goes.
        tx.send(1);
        drop(rx);
        tx.send(2);
        drop(tx);
    }

    #[test]
    fn mailbox_is_fifo_and_empties() {
        let mb = Mailbox::new();
        let proxies: Vec<_> = (0..5)
            .map(|i| Proxy::new(task(i), WorkerRange::one(0), never_run))
            .collect();
        for &p in &proxies {
            // SAFETY: live proxies in no mailbox.
            unsafe { mb.push(p) };
        }
        for &p in &proxies {
            // SAFETY: single consumer.
            assert_eq!(unsafe { mb.pop() }, Some(p));
        }
        // SAFETY: single consumer.
        assert_eq!(unsafe { mb.pop() }, None);
        assert!(mb.is_empty());
        // Reusable after emptying (the tail went back to `first`).
        // SAFETY: as above.
        unsafe {
            mb.push(proxies[0]);
            assert_eq!(mb.pop(), Some(proxies[0]));
        }
        for p in proxies {
            // SAFETY: never shared; both sides claim here, the loser frees.
            unsafe {
                Proxy::extract(p, IN_DEQUE);
                assert!(Proxy::extract(p, IN_MAILBOX).is_none());
                Proxy::free(p);
            }
        }
    }

    #[test]
    fn many_producers_one_consumer_lose_nothing() {
        let producers = if cfg!(miri) { 2 } else { 4 };
        let per = if cfg!(miri) { 50 } else { 20_000 };
        let mb = Mailbox::new();
        let got = std::thread::scope(|s| {
            for t in 0..producers {
                let mb = &mb;
                s.spawn(move || {
                    for i in 0..per {
                        let p = Proxy::new(task(t * per + i), WorkerRange::one(0), never_run);
                        // SAFETY: fresh proxy.
                        unsafe { mb.push(p) };
                    }
                });
            }
            let mut got = Vec::new();
            while got.len() < producers * per {
                // SAFETY: this is the only consumer.
                if let Some(p) = unsafe { mb.pop() } {
                    // SAFETY: mailbox side wins (the deque side never claims here).
                    let t = unsafe { Proxy::extract(p, IN_MAILBOX) }.unwrap();
                    // SAFETY: the deque side "loses" and frees.
                    unsafe {
                        assert!(Proxy::extract(p, IN_DEQUE).is_none());
                        Proxy::free(p);
                    }
                    got.push(t.as_ptr().addr());
                } else {
                    std::hint::spin_loop();
                }
            }
            got
        });
        // FIFO per producer, nothing lost, nothing twice.
        let mut last = vec![None; producers];
        for &a in &got {
            let i = (a - 0x1000) / 8;
            let (t, k) = (i / per, i % per);
            assert!(
                last[t].is_none_or(|prev| prev < k),
                "producer {t} out of order"
            );
            last[t] = Some(k);
        }
        let mut sorted = got;
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), producers * per);
    }

    /// A proxy pointer handed to another test thread.
    #[derive(Clone, Copy)]
    struct Shared(NonNull<Proxy>);
    // SAFETY: the threads follow the claim protocol (one extract per side, loser frees).
    unsafe impl Send for Shared {}

    fn claim_or_free(p: Shared, side: usize) -> bool {
        // SAFETY: one extract per side; the loser frees and never touches it again.
        unsafe {
            let won = Proxy::extract(p.0, side).is_some();
            if !won {
                Proxy::free(p.0);
            }
            won
        }
    }

    #[test]
    fn racing_claims_run_once_and_free_once() {
        let rounds = if cfg!(miri) { 20 } else { 200 };
        for _ in 0..rounds {
            let p = Shared(Proxy::new(task(7), WorkerRange::one(0), never_run));
            let (a, b) = std::thread::scope(|s| {
                let ha = s.spawn(move || claim_or_free(p, IN_DEQUE));
                let hb = s.spawn(move || claim_or_free(p, IN_MAILBOX));
                (ha.join().unwrap(), hb.join().unwrap())
            });
            assert!(a ^ b, "exactly one side must win");
        }
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    use super::*;
    use loom::sync::atomic::AtomicUsize;
    use loom::sync::Arc;
    use loom::thread;

    unsafe fn never_run(_: NonNull<JobHeader>) {
        unreachable!()
    }

    fn task(i: usize) -> JobRef {
        let p = ptr::without_provenance_mut::<JobHeader>(0x1000 + 8 * i);
        JobRef::from_header(NonNull::new(p).unwrap())
    }

    /// A proxy address that may cross loom threads.
    #[derive(Clone, Copy)]
    struct P(usize);
    // SAFETY: the models hand proxies between threads exactly as the runtime does.
    unsafe impl Send for P {}
    impl P {
        fn get(self) -> NonNull<Proxy> {
            NonNull::new(self.0 as *mut Proxy).unwrap()
        }
    }

    /// Claims from `side`; frees on a lost claim. Returns whether it won.
    fn claim(p: P, side: usize, frees: &AtomicUsize) -> bool {
        // SAFETY: each side claims once; the loser frees and never touches it again.
        unsafe {
            match Proxy::extract(p.get(), side) {
                Some(t) => {
                    assert_eq!(t, task(1));
                    true
                }
                None => {
                    Proxy::free(p.get());
                    frees.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    false
                }
            }
        }
    }

    #[test]
    fn loom_proxy_claim_race_runs_once_and_frees_once() {
        loom::model(|| {
            let p = P(Proxy::new(task(1), WorkerRange::one(0), never_run).as_ptr() as usize);
            let frees = Arc::new(AtomicUsize::new(0));
            let f = frees.clone();
            let deque_side = thread::spawn(move || claim(p, IN_DEQUE, &f));
            let mailbox_won = claim(p, IN_MAILBOX, &frees);
            let deque_won = deque_side.join().unwrap();
            assert!(deque_won ^ mailbox_won, "exactly one side runs the task");
            assert_eq!(frees.load(std::sync::atomic::Ordering::Relaxed), 1);
        });
    }

    #[test]
    fn loom_mailbox_push_races_pop_of_the_last_element() {
        loom::model(|| {
            let mb: Arc<Box<Mailbox>> = Arc::new(Mailbox::new());
            let first = P(Proxy::new(task(1), WorkerRange::one(0), never_run).as_ptr() as usize);
            let second = P(Proxy::new(task(2), WorkerRange::one(0), never_run).as_ptr() as usize);
            // SAFETY: fresh proxy.
            unsafe { mb.push(first.get()) };
            let m = mb.clone();
            // SAFETY: fresh proxy; this thread is a producer only.
            let producer = thread::spawn(move || unsafe { m.push(second.get()) });
            // The consumer pops the last element while the producer links a new one.
            let mut got = Vec::new();
            while got.len() < 2 {
                // SAFETY: the only consumer.
                match unsafe { mb.pop() } {
                    Some(p) => got.push(p.as_ptr() as usize),
                    None => thread::yield_now(),
                }
            }
            producer.join().unwrap();
            assert_eq!(
                got,
                vec![first.0, second.0],
                "FIFO, nothing lost or doubled"
            );
            // SAFETY: the only consumer.
            assert!(unsafe { mb.pop() }.is_none());
            for p in [first, second] {
                // SAFETY: both sides claim here; the loser frees.
                unsafe {
                    assert!(Proxy::extract(p.get(), IN_MAILBOX).is_some());
                    assert!(Proxy::extract(p.get(), IN_DEQUE).is_none());
                    Proxy::free(p.get());
                }
            }
        });
    }

    #[test]
    fn loom_two_producers_one_consumer() {
        // Three threads make the unbounded search take minutes; 3 preemptions still cover
        // a producer stopped between its swap and its link while the other producer and
        // the consumer run (the last-element race).
        let mut model = loom::model::Builder::new();
        model.preemption_bound = Some(3);
        model.check(|| {
            let mb: Arc<Box<Mailbox>> = Arc::new(Mailbox::new());
            let ps: Vec<P> = (1..=2)
                .map(|i| P(Proxy::new(task(i), WorkerRange::one(0), never_run).as_ptr() as usize))
                .collect();
            let handles: Vec<_> = ps
                .iter()
                .map(|&p| {
                    let m = mb.clone();
                    // SAFETY: fresh proxies, one producer each.
                    thread::spawn(move || unsafe { m.push(p.get()) })
                })
                .collect();
            let mut got = Vec::new();
            while got.len() < 2 {
                // SAFETY: the only consumer.
                match unsafe { mb.pop() } {
                    Some(p) => got.push(p.as_ptr() as usize),
                    None => thread::yield_now(),
                }
            }
            for h in handles {
                h.join().unwrap();
            }
            got.sort_unstable();
            let mut want: Vec<usize> = ps.iter().map(|p| p.0).collect();
            want.sort_unstable();
            assert_eq!(got, want);
            for p in ps {
                // SAFETY: as above.
                unsafe {
                    Proxy::extract(p.get(), IN_DEQUE);
                    Proxy::free(p.get());
                }
            }
        });
    }
}

//! The handshake between a worker that makes work and a thief that wants some.
//!
//! Every worker has a [`Wanted`] word: in its deque's row (the asymmetric and split deques,
//! where the push reads it from the pointer it already holds) or in the registry (the other
//! deques). Thieves write it; its owner reads it with one plain load after every push (and,
//! under `asym` and the LCWS policies, before every pop of a join's own job), and only when
//! it is non-zero takes the cold path that answers it. Two kinds of want:
//!
//! - [`Wanted::POLL_REQUEST`]: a `lcws-poll` thief found only private work and asks the
//!   owner to expose some (the LCWS paper's `targeted` flag).
//! - [`Wanted::SLEEPER`]: a thief is going to sleep. Before it parks it sets this bit on
//!   every other worker (a standing request), so the next worker that makes work exposes
//!   one task (LCWS) and wakes a sleeper.
//!
//! And one note the owner leaves itself, [`Wanted::BURST`]: it woke a sleeper and others
//! still sleep, so its next push or pop comes back to the cold path and wakes another if
//! its deque then holds more tasks a thief can take than it woke thieves for (deques whose
//! every task is stealable; an LCWS answer exposes one task). A burst of pushes so wakes
//! a sleeper per push, as rayon's pushes do, while a join that pops its task straight back
//! wakes one. The note is a hint: no wake-up depends on it (a sleeper's own request does).
//!
//! # Why no wake-up is lost, with no fence on the push path
//!
//! The owner's side is a store then a load: `bot` (or the classical deques' bottom), then
//! `wanted`. The sleeper's side is a store then a load too: `wanted`, then every victim's
//! `bot`. That is the store-buffer (Dekker) pattern: with plain accesses both sides can
//! miss each other, and a coarse `join` would then run serially while its thief sleeps.
//! The usual cure puts a `SeqCst` fence on both sides, which would cost every push a fence
//! and void the point of the split deque. Instead the fence is *asymmetric* (the
//! asymmetric deque, `crate::deque::Asym`, orders its owner's pops against thieves' claims
//! with the same two halves):
//!
//! - the owner's side ([`light_fence`]) is a compiler fence, free at run time;
//! - the sleeper's side ([`heavy_fence`]) is Linux's `membarrier(PRIVATE_EXPEDITED)` (or
//!   Windows' `FlushProcessWriteBuffers`: `crate::platform::heavy_fence`), which makes
//!   every running thread of the process execute a full memory barrier before it returns
//!   (a thread that is not running passes one when it is switched out).
//!
//! For the owner's store `S` and load `L` (program order, kept by the compiler fence), the
//! barrier the sleeper forces lands either after `L` (so `S` is globally visible before the
//! sleeper's post-barrier loads: the sleeper sees the work) or before `L` (so `L` runs after
//! the sleeper's `wanted` store was made visible by the barrier: the owner sees the want).
//! Either way one side sees the other. This is the asymmetric Dekker idiom of userspace RCU
//! and of `membarrier(2)`'s own documentation.
//!
//! Where the heavy fence is unavailable (macOS, the BSDs, WebAssembly; on Linux kernels
//! before 4.14, or a seccomp filter), the push
//! side is unchanged and sleepers make up for it ([`heavy_fence`] returns `false`): their
//! first few looks are timed naps of 1 ms, then they park untimed; `crate::sleep` argues why
//! no wake-up is lost and why an idle pool then costs nothing.
//!
//! Under loom both fences are modelled as `SeqCst` fences (the effect `membarrier` gives
//! the light side), and `loom_push_never_misses_a_sleeper` checks the pattern with the
//! real deque.

use crate::deque::row::Row;
use crate::sync::{AtomicU8, Ordering};

/// What thieves want from one worker (see the module doc).
///
/// `repr(transparent)`: a split deque keeps the byte in its row ([`Wanted::at`]).
#[derive(Debug, Default)]
#[repr(transparent)]
pub(crate) struct Wanted(AtomicU8);

impl Wanted {
    /// A `lcws-poll` thief asks for an exposure.
    pub(crate) const POLL_REQUEST: u8 = 1;
    /// A sleeping thief's standing request: expose one task and wake a sleeper.
    pub(crate) const SLEEPER: u8 = 2;
    /// The owner's own note after it woke a sleeper while others slept: at the next push
    /// or pop, wake another if more tasks can be stolen than it woke thieves for.
    pub(crate) const BURST: u8 = 4;

    pub(crate) fn new() -> Wanted {
        Wanted(AtomicU8::new(0))
    }

    /// The `Wanted` word kept in `byte` (a split deque's request byte).
    #[inline(always)]
    pub(crate) fn at(byte: &AtomicU8) -> &Wanted {
        // SAFETY: `Wanted` is a `repr(transparent)` wrapper of `AtomicU8`, so the two
        // references have the same layout and validity; the lifetime is `byte`'s.
        unsafe { &*(byte as *const AtomicU8).cast::<Wanted>() }
    }

    /// Every want: the three above. (The byte's top bit, `Row::OWNER_FENCES`, belongs to an
    /// asymmetric deque whose owner must fence its pops: it sends every pop out of line,
    /// but no push, and is never taken.)
    const WANTS: u8 = Self::POLL_REQUEST | Self::SLEEPER | Self::BURST;

    /// What the owner looks for after a push: the wants, and an asymmetric deque's thief
    /// waiting for the answer to its claim (`Row::CLAIM_POSTED`, which the thief clears
    /// itself: [`Wanted::take`] leaves it).
    const ASKS: u8 = Self::WANTS | Row::CLAIM_POSTED;

    /// The owner's hot check before a pop: one plain load; any bit set sends the pop out
    /// of line.
    #[inline(always)]
    pub(crate) fn is_set(&self) -> bool {
        // Relaxed: a hint; a stale zero is covered by the asymmetric fence (module doc), a
        // stale non-zero costs one trip to the cold path.
        self.0.load(Ordering::Relaxed) != 0
    }

    /// Whether a thief or a sleeper wants something (one plain load; the wants and a
    /// posted claim, not the owner-fences bit).
    #[inline(always)]
    pub(crate) fn has_wants(&self) -> bool {
        // Relaxed: as in `is_set`.
        self.0.load(Ordering::Relaxed) & Self::ASKS != 0
    }

    /// Whether an asymmetric deque's thief waits for the answer to its claim.
    #[inline]
    pub(crate) fn has_claim_posted(&self) -> bool {
        // Relaxed: a hint; the deque's answer reads the byte again with Acquire.
        self.0.load(Ordering::Relaxed) & Row::CLAIM_POSTED != 0
    }

    /// Whether a want other than a posted claim is set.
    #[inline]
    pub(crate) fn has_other_wants(&self) -> bool {
        // Relaxed: as in `is_set`.
        self.0.load(Ordering::Relaxed) & Self::WANTS != 0
    }

    /// The owner's look right after a push: [`light_fence`] (the push's store before the
    /// load), then [`Wanted::has_wants`].
    #[inline(always)]
    pub(crate) fn is_set_after_push(&self) -> bool {
        light_fence();
        self.has_wants()
    }

    /// The owner takes every want posted so far (the cold path; one atomic
    /// read-modify-write).
    #[inline]
    pub(crate) fn take(&self) -> u8 {
        // AcqRel: Acquire pairs with a sleeper's `arm` (its sleep announcement and its
        // sleeper count happen before, so the owner's wake-up finds it); an RMW rather than
        // a store so that a want posted meanwhile is never overwritten, and the bits that
        // are not wants stay.
        self.0.fetch_and(!Self::WANTS, Ordering::AcqRel) & Self::WANTS
    }

    /// The owner withdraws `bits` (a poll request it answered with nothing to give).
    #[inline]
    pub(crate) fn clear(&self, bits: u8) {
        // Release: a thief that sees the request gone (Acquire in `has`) sees our state.
        // An RMW, so that a sleeper's bit posted meanwhile stays.
        self.0.fetch_and(!bits, Ordering::Release);
    }

    /// A thief posts `bits`.
    #[inline]
    pub(crate) fn post(&self, bits: u8) {
        // SeqCst: a sleeper's post is the store half of the Dekker pattern of the module
        // doc, and it must come after its sleep announcement in the SeqCst order.
        self.0.fetch_or(bits, Ordering::SeqCst);
    }

    /// Whether `bits` are posted (a thief's look).
    #[inline]
    pub(crate) fn has(&self, bits: u8) -> bool {
        // Acquire: a cleared bit means the owner answered; its exposure is then visible.
        self.0.load(Ordering::Acquire) & bits != 0
    }
}

/// The owner's half of the asymmetric fence: orders its deque store before its next load
/// of what the other side wrote (its `Wanted`, or an asymmetric deque's line). Free at run
/// time (the other side's [`heavy_fence`] does the work).
///
/// Under loom and Miri, which cannot run `membarrier`, both halves are `SeqCst` fences:
/// the effect `membarrier` gives each side.
#[inline(always)]
pub(crate) fn light_fence() {
    #[cfg(all(test, loom))]
    if loom_answers::only() {
        crate::sync::compiler_fence(Ordering::SeqCst);
    } else {
        crate::sync::fence(Ordering::SeqCst);
    }
    #[cfg(all(miri, not(all(test, loom))))]
    crate::sync::fence(Ordering::SeqCst);
    #[cfg(not(any(all(test, loom), miri)))]
    crate::sync::compiler_fence(Ordering::SeqCst);
}

/// How a loom model's asymmetric-deque thieves treat the owner's answer. Per OS thread: a
/// model's loom threads all run on the thread that runs it.
///
/// - [`loom_answers::Mode::Never`] (the default): thieves do not ask, they run the heavy
///   fence at once, as before answers existed (the models of the fence's own protocol;
///   waiting would multiply their interleavings past what CI can run);
/// - [`loom_answers::Mode::Only`]: thieves wait for the answer however long, no heavy
///   fence runs, and the light fence is what it is at run time, a compiler fence that
///   orders nothing for loom, so the models check the answer's own orderings;
/// - [`loom_answers::Mode::Mixed`]: one look for the answer, then the heavy fence, with
///   both fences modelled as usual (an answer racing a fence).
#[cfg(all(test, loom))]
pub(crate) mod loom_answers {
    use std::cell::Cell;

    #[derive(Clone, Copy, PartialEq, Eq)]
    pub(crate) enum Mode {
        Never,
        Only,
        Mixed,
    }

    std::thread_local! {
        static MODE: Cell<Mode> = const { Cell::new(Mode::Never) };
    }

    /// The running model's mode.
    pub(crate) fn mode() -> Mode {
        MODE.get()
    }

    /// Whether the running model is one of answers only.
    pub(crate) fn only() -> bool {
        mode() == Mode::Only
    }

    /// Runs `f` (which runs a model) in `mode`.
    pub(crate) fn with<R>(mode: Mode, f: impl FnOnce() -> R) -> R {
        MODE.set(mode);
        let r = f();
        MODE.set(Mode::Never);
        r
    }
}

/// The heavy half: a full memory barrier on every running thread of the process, at some
/// point after the call began. Returns `false` if the system offers none (then it was only
/// a `SeqCst` fence on the calling thread): the caller must not rely on the other side's
/// [`light_fence`].
///
/// Barriers are shared: one `membarrier` runs at a time in the process, and a caller that
/// arrives while one runs waits for the next one, which starts after its arrival and
/// serves every caller that arrived before it started (`barriers::shared`). Thieves and
/// sleepers that need a barrier at the same moment then interrupt the other CPUs once,
/// not once each.
pub(crate) fn heavy_fence() -> bool {
    #[cfg(any(all(test, loom), miri))]
    {
        #[cfg(all(test, loom))]
        assert!(
            !loom_answers::only(),
            "a heavy fence in a model of answers only"
        );
        crate::sync::fence(Ordering::SeqCst);
        true
    }
    #[cfg(not(any(all(test, loom), miri)))]
    {
        // Our own barrier too: it orders what we wrote before the call (a claim, a
        // standing request) before our look at the barrier sequence, and the fallback
        // needs it.
        std::sync::atomic::fence(Ordering::SeqCst);
        barriers::shared()
    }
}

/// What one heavy fence costs its caller now, in nanoseconds: the running time of the
/// process's last barrier (2 µs before the first). An asymmetric deque's thief waits about
/// this long for its victim's answer before it runs one itself (`crate::deque::Asym`), so
/// a steal whose victim does not answer costs at most about twice what the barrier alone
/// would. It grows with the CPUs running the process, as the barrier does. (Not under
/// loom, whose thieves count looks instead.)
#[cfg(not(all(test, loom)))]
pub(crate) fn heavy_fence_cost_ns() -> u64 {
    #[cfg(miri)]
    {
        DEFAULT_HEAVY_FENCE_COST_NS
    }
    #[cfg(not(miri))]
    {
        barriers::last_cost_ns()
    }
}

/// [`heavy_fence_cost_ns`] before any barrier ran: about what one costs on two CPUs.
#[cfg(not(all(test, loom)))]
const DEFAULT_HEAVY_FENCE_COST_NS: u64 = 2_000;

/// Whether [`heavy_fence`] works here (registers the process on the first call).
pub(crate) fn heavy_fence_available() -> bool {
    #[cfg(any(all(test, loom), miri))]
    {
        true
    }
    #[cfg(not(any(all(test, loom), miri)))]
    {
        barriers::register()
    }
}

#[cfg(not(any(all(test, loom), miri)))]
mod barriers {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    pub(super) use crate::platform::heavy_fence::register;

    /// The process's barriers (see [`Barriers::shared`]).
    static BARRIERS: Barriers = Barriers::new();

    /// A `membarrier` that started after this call began, run by this thread or shared
    /// with another's; whether the system ran it.
    pub(super) fn shared() -> bool {
        BARRIERS.shared(crate::platform::heavy_fence::run)
    }

    /// The running time of the last barrier (see `heavy_fence_cost_ns`).
    pub(super) fn last_cost_ns() -> u64 {
        // Relaxed: an estimate; any recent value will do.
        BARRIERS.cost_ns.load(Ordering::Relaxed)
    }

    /// Barriers run one at a time and shared by the callers that wait for them.
    pub(super) struct Barriers {
        /// The sequence: even while no barrier runs, odd while one does.
        seq: AtomicU64,
        /// Whether the last barrier failed (the system refused `membarrier`).
        failed: AtomicBool,
        /// How long the last barrier took its fencer, in nanoseconds.
        cost_ns: AtomicU64,
    }

    impl Barriers {
        pub(super) const fn new() -> Barriers {
            Barriers {
                seq: AtomicU64::new(0),
                failed: AtomicBool::new(false),
                cost_ns: AtomicU64::new(super::DEFAULT_HEAVY_FENCE_COST_NS),
            }
        }

        /// A barrier (`run`) that started after this call began, run by this thread or
        /// by another caller; whether it ran. The caller has executed a `SeqCst` fence
        /// after the writes the barrier must order (`heavy_fence` does).
        ///
        /// Why a shared one will do: the caller's fence orders its writes before its load
        /// of `seq`. A barrier whose start (the CAS to an odd value) that load did not see
        /// started after it in `seq`'s order, so the fencer's `membarrier` ran after our
        /// writes were made visible by our fence: the barrier it forces on every other
        /// CPU comes after them, as one of ours would. We take the barrier as done when
        /// our Acquire load reads the fencer's Release store of its end, made after its
        /// `membarrier` returned (with a full barrier on the fencer's own CPU), so what the
        /// other CPUs stored before their barriers is visible to our later loads, as after
        /// one of ours. If a barrier is running when we arrive, it may have started before
        /// our writes: we wait for the next one.
        pub(super) fn shared(&self, run: impl FnOnce() -> bool) -> bool {
            // Relaxed, after the caller's SeqCst fence (see above).
            let seen = self.seq.load(Ordering::Relaxed);
            // The end of the first barrier to start after `seen`.
            let target = seen + 2 + (seen & 1);
            let mut spins = 0u32;
            loop {
                // Acquire: pairs with the fencer's Release store of the end.
                let now = self.seq.load(Ordering::Acquire);
                if now >= target {
                    // Relaxed: written before that end's Release store, which we read.
                    return !self.failed.load(Ordering::Relaxed);
                }
                // SeqCst: the start of a barrier is ordered with every caller's look at
                // the sequence (see above).
                if now & 1 == 0
                    && self
                        .seq
                        .compare_exchange(now, now + 1, Ordering::SeqCst, Ordering::Relaxed)
                        .is_ok()
                {
                    // (No clock on wasm32-unknown-unknown, where no barrier runs either.)
                    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
                    let started = std::time::Instant::now();
                    let ran = run();
                    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
                    {
                        let cost = started.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
                        // Relaxed: an estimate for thieves (`last_cost_ns`), nothing
                        // published.
                        self.cost_ns.store(cost, Ordering::Relaxed);
                    }
                    // Relaxed: published by the Release store below. (A caller that reads
                    // a later end than its own target trusts that later barrier: it too
                    // started after the caller arrived.)
                    self.failed.store(!ran, Ordering::Relaxed);
                    // Release: the end, after the barrier (see above).
                    self.seq.store(now + 2, Ordering::Release);
                    // `now + 2 >= target`: `now` is `seen`, or later and even.
                    return ran;
                }
                // A barrier runs (microseconds): wait for its end, yielding the CPU if it
                // takes longer (its fencer may have been preempted).
                spins += 1;
                if spins < 256 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use std::sync::atomic::AtomicUsize;
        use std::time::Duration;

        /// A caller that arrives while a barrier runs does not take that one (it may have
        /// started before the caller's writes): it waits for its end, then runs the next.
        #[test]
        fn a_barrier_already_running_is_not_enough() {
            let b = Barriers::new();
            // A barrier in progress, started by someone else.
            b.seq.store(5, Ordering::Relaxed);
            let ran = AtomicUsize::new(0);
            std::thread::scope(|s| {
                let caller = s.spawn(|| {
                    b.shared(|| {
                        ran.fetch_add(1, Ordering::Relaxed);
                        true
                    })
                });
                std::thread::sleep(Duration::from_millis(20));
                assert!(
                    !caller.is_finished(),
                    "took a barrier that started before it"
                );
                // The running barrier ends; the caller starts the next one.
                b.seq.store(6, Ordering::Release);
                assert!(caller.join().unwrap());
            });
            assert_eq!(ran.load(Ordering::Relaxed), 1);
            assert_eq!(b.seq.load(Ordering::Relaxed), 8);
        }

        /// Callers that need a barrier at the same time share them: never two at once,
        /// fewer barriers than calls, and every caller gets one that ran; a failed one is
        /// reported to the callers that waited for it.
        #[test]
        fn concurrent_callers_share_barriers_one_at_a_time() {
            let b = Barriers::new();
            let (running, runs) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let run = || {
                assert_eq!(running.fetch_add(1, Ordering::SeqCst), 0, "two at once");
                runs.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(200));
                running.fetch_sub(1, Ordering::SeqCst);
                true
            };
            let calls = 4 * 50;
            std::thread::scope(|s| {
                for _ in 0..4 {
                    s.spawn(|| {
                        for _ in 0..50 {
                            std::sync::atomic::fence(Ordering::SeqCst);
                            assert!(b.shared(run));
                        }
                    });
                }
            });
            let runs = runs.load(Ordering::Relaxed);
            assert!(
                runs < calls,
                "{runs} barriers for {calls} calls: none shared"
            );
            assert_eq!(b.seq.load(Ordering::Relaxed), 2 * runs as u64);
            // A failed barrier says so (its waiters read it as its end's), the next one
            // that runs says so too.
            assert!(!b.shared(|| false));
            assert!(b.failed.load(Ordering::Relaxed));
            assert!(b.shared(|| true));
        }
    }
}

#[cfg(all(test, loom))]
mod loom_models {
    use super::*;
    use crate::deque::{Owner, Split, Steal, Stealer};
    use loom::sync::Arc;
    use loom::thread;
    use std::num::NonZeroUsize;

    /// The push/sleep race: the owner pushes a private task then checks its `Wanted`; a
    /// thief falling asleep posts `SLEEPER` then looks at the owner's deque. In every
    /// interleaving and every weak-memory outcome loom explores, at least one of them
    /// sees the other (remove either fence and loom finds the execution where neither does).
    #[test]
    fn loom_push_never_misses_a_sleeper() {
        loom::model(|| {
            let wanted = Arc::new(Wanted::new());
            let mut deque: Split<NonZeroUsize> = Split::with_capacity(4);
            let stealer = deque.stealer();
            let sleeper = {
                let wanted = wanted.clone();
                thread::spawn(move || {
                    wanted.post(Wanted::SLEEPER);
                    assert!(heavy_fence());
                    stealer.steal() != Steal::Empty
                })
            };
            deque.push(NonZeroUsize::new(1).unwrap()).unwrap();
            let owner_saw_sleeper = wanted.is_set_after_push();
            let sleeper_saw_work = sleeper.join().unwrap();
            assert!(owner_saw_sleeper || sleeper_saw_work);
        });
    }
}

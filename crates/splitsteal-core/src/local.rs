//! A worker's two ends of its deque: [`LocalDeque`], which only the worker touches, and
//! [`RemoteDeque`], the thieves' handle.
//!
//! The plan picks the deque once, when the pool is built. The owner's operations take a
//! [`JobRef`] in and out, so none of them depends on what a join's closures are: a call
//! site of `join` compiles its closures' code once, whatever the deque.
//!
//! `join`'s push and pop ([`LocalDeque::push_fork`], [`LocalDeque::pop_fork`]) test no
//! kind: they always work on one split deque inline, the worker's own under the two LCWS
//! policies (the default), else a *gate* ([`Split::gate`]) that has no room and whose
//! request byte is always set. So the deque's own tests (room at the push, the request
//! byte at the pop) send every other deque out of line, where one call dispatches on the
//! kind. So are a pool that records task starts (it records a join's popped-back job
//! there) and `hybrid` (which may mail a fork instead): their split deques sit behind a
//! gate too.

use std::cell::UnsafeCell;

use crate::deque::{
    Abp, AbpStealer, ChaseLev, ChaseLevStealer, Locked, LockedStealer, Owner, SignalExposer, Split,
    SplitStealer, Steal, Stealer,
};
use crate::hybrid::HybridLocal;
use crate::job::JobRef;
use crate::plan::{Asking, DequeKind, Plan};
use crate::sync::AtomicU8;
use crate::wakeup::Wanted;
use crate::worker::WorkerThread;

/// A worker's own deque, and how it serves thieves.
///
/// Each deque sits in an `UnsafeCell`: only its worker's thread reaches it (the owner
/// methods are `unsafe` for that reason), one short `&mut` borrow at a time that never
/// spans user code.
pub(crate) struct LocalDeque {
    /// The deque `join` pushes on and pops from inline: the worker's split deque when
    /// `kind` is [`Kind::SplitSignalled`] or [`Kind::SplitPolled`], else a gate that sends
    /// every push and pop out of line (module doc).
    inline: UnsafeCell<Split<JobRef>>,
    kind: Kind,
}

/// What a worker's deque is, beside `LocalDeque::inline`.
///
/// Under `hybrid` the base deque is one of the `Mailing*` variants, inline, like the
/// plain ones, so one dispatch on the kind gives both the typed deque and whether forks
/// are mailed.
enum Kind {
    /// `inline` is a split deque whose thieves send signals, answered by the handler.
    SplitSignalled,
    /// `inline` is a split deque whose thieves post poll requests, answered at pushes and
    /// pops.
    SplitPolled,
    /// The two split deques in a pool that records task starts (`record_start_latency`):
    /// their owner operations go out of line, where a join's popped-back job is recorded.
    RecordingSplitSignalled(UnsafeCell<Split<JobRef>>),
    RecordingSplitPolled(UnsafeCell<Split<JobRef>>),
    Locked(UnsafeCell<Locked<JobRef>>),
    Abp(UnsafeCell<Abp<JobRef>>),
    ChaseLev(UnsafeCell<ChaseLev<JobRef>>),
    /// `hybrid` on each base deque: the base deque, whose forks are mailed as well, and
    /// hybrid's worker state. (Behind the gate, so that `join` never skips the mailing.)
    MailingSplitSignalled(Mailed<Split<JobRef>>),
    MailingSplitPolled(Mailed<Split<JobRef>>),
    MailingLocked(Mailed<Locked<JobRef>>),
    MailingAbp(Mailed<Abp<JobRef>>),
    MailingChaseLev(Mailed<ChaseLev<JobRef>>),
}

/// A base deque under `hybrid`, and hybrid's state for its worker.
///
/// `repr(C)`: the deque first, so that rustc puts it at the same offset in the enum as in
/// the plain variant of its kind (what rustc does, not a language guarantee: only the
/// generated code depends on it). The out-of-line `push` and `take` then serve a plain
/// deque and its `Mailing*` twin with one arm's code.
#[repr(C)]
pub(crate) struct Mailed<D> {
    deque: UnsafeCell<D>,
    hybrid: HybridLocal,
}

/// What [`LocalDeque::push_fork`] did with a join's second job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fork {
    /// On the deque: `join` runs `a`, then pops it back or waits for its thief.
    Pushed,
    /// On a split deque, and a thief wants something of this worker (`Wanted`, read after
    /// the push): `join` answers first. (The other deques answer in `push_fork_elsewhere`.)
    PushedWanted,
    /// The deque is full: nothing was published, `join` runs both closures inline.
    Full,
    /// `hybrid`, in a task whose range spans several workers: nothing was pushed; the
    /// join mails its second job instead (`hybrid::mail_fork`).
    Mail,
}

/// Runs `f` on the deque in `cell`. `f` is deque code only: it runs no user code and does
/// not reach this deque again.
///
/// # Safety
/// On the deque's owner thread (the worker whose `LocalDeque` holds `cell`).
#[inline(always)]
unsafe fn own<D, R>(cell: &UnsafeCell<D>, f: impl FnOnce(&mut D) -> R) -> R {
    // SAFETY: only the owning worker's thread calls this (the caller's contract), and the
    // borrow ends with `f`, which runs deque code only, so no other borrow of the deque can
    // overlap it. Signal handlers never touch `D` itself (they expose through a
    // `SignalExposer`).
    f(unsafe { &mut *cell.get() })
}

/// The public part's bottom task, once the private part is empty (out of line: a join
/// whose second job was stolen).
#[cold]
#[inline(never)]
fn pop_public(d: &UnsafeCell<Split<JobRef>>) -> Option<JobRef> {
    // SAFETY: called by `LocalDeque`'s owner methods, on the owner's thread.
    unsafe { own(d, |d| d.pop_public_bottom()) }
}

/// The newest task of a split deque: the private part inline, the public part out of line.
///
/// # Safety
/// On the deque's owner thread.
#[inline(always)]
unsafe fn pop_split(d: &UnsafeCell<Split<JobRef>>) -> Option<JobRef> {
    // SAFETY: forwarded from the caller.
    match unsafe { own(d, |d| d.pop_private()) } {
        Some(job) => Some(job),
        None => pop_public(d),
    }
}

impl LocalDeque {
    /// The two ends of a new deque for `plan`; `index` is the worker's; `records_starts`
    /// when the pool records task starts.
    pub(crate) fn new(
        plan: &Plan,
        capacity: usize,
        index: usize,
        records_starts: bool,
    ) -> (LocalDeque, RemoteDeque) {
        // Under `hybrid`, hybrid's state for worker `index`.
        let mail = plan.mail.map(|_| HybridLocal::new(index));
        /// The deque of kind `D` behind a gate, as `plain` or (under `hybrid`) `mailing`
        /// says, and its thieves' end.
        fn gated<D: Owner<JobRef>>(
            capacity: usize,
            mail: Option<HybridLocal>,
            plain: fn(UnsafeCell<D>) -> Kind,
            mailing: fn(Mailed<D>) -> Kind,
        ) -> (LocalDeque, D::Stealer) {
            let d = D::with_capacity(capacity);
            let s = d.stealer();
            let deque = UnsafeCell::new(d);
            let kind = match mail {
                None => plain(deque),
                Some(hybrid) => mailing(Mailed { deque, hybrid }),
            };
            let local = LocalDeque {
                inline: UnsafeCell::new(Split::gate()),
                kind,
            };
            (local, s)
        }
        /// An LCWS split deque: `join`'s inline one when nothing needs the out-of-line
        /// path (`inline_kind`), else behind a gate as `recording` or `mailing` says.
        fn split(
            capacity: usize,
            mail: Option<HybridLocal>,
            records_starts: bool,
            inline_kind: Kind,
            recording: fn(UnsafeCell<Split<JobRef>>) -> Kind,
            mailing: fn(Mailed<Split<JobRef>>) -> Kind,
        ) -> (LocalDeque, RemoteDeque) {
            let (local, s) = match (mail, records_starts) {
                (None, false) => {
                    let d = Split::with_capacity(capacity);
                    let s = d.stealer();
                    let local = LocalDeque {
                        inline: UnsafeCell::new(d),
                        kind: inline_kind,
                    };
                    (local, s)
                }
                (mail, _) => gated(capacity, mail, recording, mailing),
            };
            (local, RemoteDeque::Split(s))
        }
        match (plan.deque, plan.asking) {
            (DequeKind::Locked, _) => {
                let (d, s) = gated(capacity, mail, Kind::Locked, Kind::MailingLocked);
                (d, RemoteDeque::Locked(s))
            }
            (DequeKind::Abp, _) => {
                let (d, s) = gated(capacity, mail, Kind::Abp, Kind::MailingAbp);
                (d, RemoteDeque::Abp(s))
            }
            (DequeKind::ChaseLev, _) => {
                let (d, s) = gated(capacity, mail, Kind::ChaseLev, Kind::MailingChaseLev);
                (d, RemoteDeque::ChaseLev(s))
            }
            (DequeKind::Split, Asking::Signal { .. }) => split(
                capacity,
                mail,
                records_starts,
                Kind::SplitSignalled,
                Kind::RecordingSplitSignalled,
                Kind::MailingSplitSignalled,
            ),
            // A split deque nobody signals answers at its pushes and pops.
            (DequeKind::Split, Asking::Poll | Asking::Never) => split(
                capacity,
                mail,
                records_starts,
                Kind::SplitPolled,
                Kind::RecordingSplitPolled,
                Kind::MailingSplitPolled,
            ),
        }
    }

    /// Pushes a join's second job, inline on `inline` (module doc): its relaxed stores,
    /// then a look at the worker's `Wanted` byte. The gate, and a split deque at the end
    /// of its room, go out of line. None of it depends on the join's closures, so a call
    /// site compiles this once.
    ///
    /// # Safety
    /// On the owner thread (the worker that holds this deque).
    #[inline(always)]
    pub(crate) unsafe fn push_fork(&self, worker: &WorkerThread, job: JobRef) -> Fork {
        // The worker's `Wanted` is the deque's request byte (`WorkerInfo::wanted`), read
        // through the row the push just used.
        let look = |requests: &AtomicU8| Wanted::at(requests).is_set_after_push();
        // SAFETY: on the owner thread, by the caller's contract.
        match unsafe { own(&self.inline, |d| d.try_push_then(job, look)) } {
            Ok(false) => Fork::Pushed,
            Ok(true) => Fork::PushedWanted,
            // SAFETY: forwarded from the caller.
            Err(job) => unsafe { self.push_fork_elsewhere(worker, job) },
        }
    }

    /// [`LocalDeque::push_fork`] where the inline try handed the job back: an LCWS deque
    /// at the end of its room (push again, finding room), or any other deque behind the
    /// gate, under `hybrid` too (which may mail instead): one dispatch on the kind, the
    /// push inline in each arm, then the worker's look at what thieves want
    /// (`after_push`).
    ///
    /// Cold only for code layout: the inline push then falls through (two jumps fewer per
    /// join); for the deques that come here every time the call is the same.
    ///
    /// # Safety
    /// As for `push_fork`.
    #[cold]
    #[inline(never)]
    unsafe fn push_fork_elsewhere(&self, worker: &WorkerThread, job: JobRef) -> Fork {
        // SAFETY: forwarded from the caller.
        let fork = unsafe { self.push_or_mail(job, HybridLocal::mails) };
        if fork == Fork::Pushed {
            worker.after_push();
        }
        fork
    }

    /// Pushes `job` at the bottom of whichever deque this is; `false` if it is full.
    ///
    /// # Safety
    /// On the owner thread.
    #[inline(never)]
    pub(crate) unsafe fn push(&self, job: JobRef) -> bool {
        // SAFETY: forwarded from the caller.
        unsafe { self.push_or_mail(job, |_| false) == Fork::Pushed }
    }

    /// The push of [`LocalDeque::push`] and [`LocalDeque::push_fork_elsewhere`], in one
    /// dispatch on the kind: under `hybrid`, [`Fork::Mail`] instead where `mails` says so.
    ///
    /// # Safety
    /// On the owner thread.
    #[inline(always)]
    unsafe fn push_or_mail(&self, job: JobRef, mails: impl Fn(&HybridLocal) -> bool) -> Fork {
        #[inline(always)]
        fn push_on<D: Owner<JobRef>>(d: &UnsafeCell<D>, job: JobRef) -> Fork {
            // SAFETY: `push_or_mail`'s caller is on the owner thread.
            match unsafe { own(d, |d| d.push(job)) } {
                Ok(()) => Fork::Pushed,
                Err(_) => Fork::Full,
            }
        }
        #[inline(always)]
        fn mail_or_push<D: Owner<JobRef>>(
            m: &Mailed<D>,
            job: JobRef,
            mails: impl Fn(&HybridLocal) -> bool,
        ) -> Fork {
            if mails(&m.hybrid) {
                Fork::Mail
            } else {
                push_on(&m.deque, job)
            }
        }
        match &self.kind {
            Kind::SplitSignalled | Kind::SplitPolled => push_on(&self.inline, job),
            Kind::RecordingSplitSignalled(d) | Kind::RecordingSplitPolled(d) => push_on(d, job),
            Kind::Abp(d) => push_on(d, job),
            Kind::ChaseLev(d) => push_on(d, job),
            Kind::Locked(d) => push_on(d, job),
            Kind::MailingSplitSignalled(m) | Kind::MailingSplitPolled(m) => {
                mail_or_push(m, job, mails)
            }
            Kind::MailingAbp(m) => mail_or_push(m, job, mails),
            Kind::MailingChaseLev(m) => mail_or_push(m, job, mails),
            Kind::MailingLocked(m) => mail_or_push(m, job, mails),
        }
    }

    /// `join`'s pop: the newest local job, `keep` handed back beside it; `ours` is the
    /// join's own job. Inline on `inline` (module doc): a look at the worker's `Wanted`
    /// byte (the LCWS paper's poll "once per executed node"; under `lcws-signal` it finds
    /// a sleeper's standing request a little sooner than the next push would), then the
    /// private part's pop. A set byte (always, on the gate) goes out of line, where the
    /// want is answered or the deque behind the gate is popped; so does an empty private
    /// part (a stolen second job).
    ///
    /// `join` passes its first result through `keep`, which the inline path hands back
    /// untouched.
    ///
    /// # Safety
    /// On the owner thread; `worker` owns this deque.
    #[inline(always)]
    pub(crate) unsafe fn pop_fork<R>(
        &self,
        worker: &WorkerThread,
        keep: R,
        ours: JobRef,
    ) -> (R, Option<JobRef>) {
        // SAFETY: on the owner thread, by the caller's contract.
        let popped = unsafe {
            own(&self.inline, |d| {
                if Wanted::at(d.own_requests()).is_set() {
                    Err(())
                } else {
                    Ok(d.pop_private())
                }
            })
        };
        match popped {
            Ok(Some(job)) => (keep, Some(job)),
            Ok(None) => (keep, pop_public(&self.inline)),
            // SAFETY: forwarded from the caller.
            Err(()) => (keep, unsafe { self.pop_fork_elsewhere(worker, ours) }),
        }
    }

    /// [`LocalDeque::pop_fork`] where the request byte was set: under LCWS, answer what
    /// thieves want, then pop; behind the gate, pop the deque there, with its pop inline
    /// (one call), or in a pool that records task starts record `ours` if it came back
    /// (`join` only counts it).
    ///
    /// # Safety
    /// As for `pop_fork`.
    #[cold]
    #[inline(never)]
    unsafe fn pop_fork_elsewhere(&self, worker: &WorkerThread, ours: JobRef) -> Option<JobRef> {
        match self.kind {
            Kind::SplitSignalled | Kind::SplitPolled => {
                worker.answer_wants();
                // SAFETY: forwarded from the caller.
                unsafe { pop_split(&self.inline) }
            }
            // SAFETY (both): forwarded from the caller.
            _ if worker.records_starts() => unsafe { self.take_fork(worker, ours) },
            _ => unsafe { self.take_inline(worker) },
        }
    }

    /// [`LocalDeque::pop_fork_elsewhere`] in a pool that records task starts: records the
    /// start of `ours`, the join's own job, if it came back.
    ///
    /// # Safety
    /// As for `take`.
    #[cold]
    #[inline(never)]
    unsafe fn take_fork(&self, worker: &WorkerThread, ours: JobRef) -> Option<JobRef> {
        // SAFETY: forwarded from the caller.
        let popped = unsafe { self.take_inline(worker) };
        if popped == Some(ours) {
            worker.record_start_cold();
        }
        popped
    }

    /// Pops the newest local job of whichever deque this is (answering a poll request
    /// first, under `lcws-poll`). Cold for code layout only, as `push_fork_elsewhere`.
    ///
    /// # Safety
    /// On the owner thread; `worker` owns this deque.
    #[cold]
    #[inline(never)]
    pub(crate) unsafe fn take(&self, worker: &WorkerThread) -> Option<JobRef> {
        // SAFETY: forwarded from the caller.
        unsafe { self.take_inline(worker) }
    }

    /// The body of [`LocalDeque::take`], [`LocalDeque::pop_fork_elsewhere`] and
    /// [`LocalDeque::take_fork`].
    ///
    /// # Safety
    /// As for `take`.
    #[inline(always)]
    unsafe fn take_inline(&self, worker: &WorkerThread) -> Option<JobRef> {
        fn pop_on<D: Owner<JobRef>>(d: &UnsafeCell<D>) -> Option<JobRef> {
            // SAFETY: `LocalDeque::take`'s caller is on the owner thread.
            unsafe { own(d, |d| d.pop()) }
        }
        let polled = |d| {
            if worker.is_wanted() {
                worker.answer_wants();
            }
            // SAFETY: forwarded from the caller.
            unsafe { pop_split(d) }
        };
        match &self.kind {
            // SAFETY (this arm and the next): forwarded from the caller.
            Kind::SplitSignalled => unsafe { pop_split(&self.inline) },
            Kind::RecordingSplitSignalled(d)
            | Kind::MailingSplitSignalled(Mailed { deque: d, .. }) => unsafe { pop_split(d) },
            Kind::SplitPolled => polled(&self.inline),
            Kind::RecordingSplitPolled(d) | Kind::MailingSplitPolled(Mailed { deque: d, .. }) => {
                polled(d)
            }
            Kind::Locked(d) | Kind::MailingLocked(Mailed { deque: d, .. }) => pop_on(d),
            Kind::Abp(d) | Kind::MailingAbp(Mailed { deque: d, .. }) => pop_on(d),
            Kind::ChaseLev(d) | Kind::MailingChaseLev(Mailed { deque: d, .. }) => pop_on(d),
        }
    }

    /// The split deque, if this is one (under `hybrid` too): for exposing on the owner's
    /// own thread, outside any other borrow of the deque.
    pub(crate) fn split(&self) -> Option<&UnsafeCell<Split<JobRef>>> {
        match &self.kind {
            Kind::SplitPolled | Kind::SplitSignalled => Some(&self.inline),
            Kind::RecordingSplitPolled(d)
            | Kind::RecordingSplitSignalled(d)
            | Kind::MailingSplitPolled(Mailed { deque: d, .. })
            | Kind::MailingSplitSignalled(Mailed { deque: d, .. }) => Some(d),
            Kind::Locked(_)
            | Kind::Abp(_)
            | Kind::ChaseLev(_)
            | Kind::MailingLocked(_)
            | Kind::MailingAbp(_)
            | Kind::MailingChaseLev(_) => None,
        }
    }

    /// The handle a signal handler exposes through, for a signalled split deque.
    pub(crate) fn signal_exposer(&self) -> Option<SignalExposer> {
        let d = match &self.kind {
            Kind::SplitSignalled => &self.inline,
            Kind::RecordingSplitSignalled(d)
            | Kind::MailingSplitSignalled(Mailed { deque: d, .. }) => d,
            _ => return None,
        };
        // SAFETY: a short borrow on the worker's thread, before it runs anything.
        Some(unsafe { &*d.get() }.signal_exposer())
    }

    /// `hybrid`'s per-worker state, under `hybrid`.
    #[inline]
    pub(crate) fn hybrid(&self) -> Option<&HybridLocal> {
        match &self.kind {
            Kind::MailingSplitSignalled(Mailed { hybrid, .. })
            | Kind::MailingSplitPolled(Mailed { hybrid, .. })
            | Kind::MailingLocked(Mailed { hybrid, .. })
            | Kind::MailingAbp(Mailed { hybrid, .. })
            | Kind::MailingChaseLev(Mailed { hybrid, .. }) => Some(hybrid),
            Kind::SplitSignalled
            | Kind::SplitPolled
            | Kind::RecordingSplitSignalled(_)
            | Kind::RecordingSplitPolled(_)
            | Kind::Locked(_)
            | Kind::Abp(_)
            | Kind::ChaseLev(_) => None,
        }
    }

    /// Whether the deque holds no task (the owner's exact view).
    pub(crate) fn is_empty(&self) -> bool {
        fn empty<D: Owner<JobRef>>(d: &UnsafeCell<D>) -> bool {
            // SAFETY: as in `own`: a short borrow on the owner's thread (callers
            // are the owner's own methods, never a signal handler).
            unsafe { &*d.get() }.is_empty()
        }
        match &self.kind {
            Kind::Locked(d) | Kind::MailingLocked(Mailed { deque: d, .. }) => empty(d),
            Kind::Abp(d) | Kind::MailingAbp(Mailed { deque: d, .. }) => empty(d),
            Kind::ChaseLev(d) | Kind::MailingChaseLev(Mailed { deque: d, .. }) => empty(d),
            Kind::SplitPolled | Kind::SplitSignalled => empty(&self.inline),
            Kind::RecordingSplitPolled(d)
            | Kind::RecordingSplitSignalled(d)
            | Kind::MailingSplitPolled(Mailed { deque: d, .. })
            | Kind::MailingSplitSignalled(Mailed { deque: d, .. }) => empty(d),
        }
    }
}

/// The thieves' end of a worker's deque.
pub(crate) enum RemoteDeque {
    Locked(LockedStealer<JobRef>),
    Abp(AbpStealer<JobRef>),
    ChaseLev(ChaseLevStealer<JobRef>),
    Split(SplitStealer<JobRef>),
}

impl RemoteDeque {
    #[inline]
    pub(crate) fn steal(&self) -> Steal<JobRef> {
        match self {
            RemoteDeque::Locked(s) => s.steal(),
            RemoteDeque::Abp(s) => s.steal(),
            RemoteDeque::ChaseLev(s) => s.steal(),
            RemoteDeque::Split(s) => s.steal(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        match self {
            RemoteDeque::Locked(s) => s.is_empty(),
            RemoteDeque::Abp(s) => s.is_empty(),
            RemoteDeque::ChaseLev(s) => s.is_empty(),
            RemoteDeque::Split(s) => s.is_empty(),
        }
    }

    /// Tasks only the owner can take until it exposes them (split deques; a racy look).
    pub(crate) fn private_len(&self) -> usize {
        match self {
            RemoteDeque::Split(s) => s.private_len(),
            _ => 0,
        }
    }

    /// Whether a steal could succeed now (a racy look): some task is public.
    pub(crate) fn has_public_work(&self) -> bool {
        match self {
            RemoteDeque::Split(s) => s.public_len() > 0,
            other => !other.is_empty(),
        }
    }
}

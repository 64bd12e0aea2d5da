//! A worker's two ends of its deque: [`LocalDeque`], which only the worker touches, and
//! [`RemoteDeque`], the thieves' handle.
//!
//! The plan picks the deque once, when the pool is built. The owner's operations take a
//! [`JobRef`] in and out, so none of them depends on what a join's closures are: a call
//! site of `join` compiles its closures' code once, whatever the deque. The LCWS split
//! deques (the default) push and pop their private part inline, behind one compare of the
//! kind ([`LocalDeque::push_fork`], [`LocalDeque::pop_fork`]); every other deque is one call
//! out of line, which dispatches on the kind. So is every deque of a pool that records
//! task starts: it records a join's popped-back job there, so the inline path tests no
//! flag for it.

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
///
/// Under `hybrid` the base deque is one of the `Mailing*` variants: inline, like the
/// plain ones, so one dispatch on the kind gives both the typed deque and whether forks
/// are mailed, and the deque's address is the same as in the plain variant of its kind.
pub(crate) enum LocalDeque {
    /// A split deque whose thieves send signals, answered by the handler. (This and the
    /// next come first: `join`'s fast path tests for either with one compare.)
    SplitSignalled(UnsafeCell<Split<JobRef>>),
    /// A split deque whose thieves post poll requests, answered at pushes and pops.
    SplitPolled(UnsafeCell<Split<JobRef>>),
    /// The two split deques in a pool that records task starts (`record_start_latency`):
    /// their owner operations go out of line, where a join's popped-back job is recorded.
    RecordingSplitSignalled(UnsafeCell<Split<JobRef>>),
    RecordingSplitPolled(UnsafeCell<Split<JobRef>>),
    Locked(UnsafeCell<Locked<JobRef>>),
    Abp(UnsafeCell<Abp<JobRef>>),
    ChaseLev(UnsafeCell<ChaseLev<JobRef>>),
    /// `hybrid` on each base deque: the base deque, whose forks are mailed as well, and
    /// hybrid's worker state. (Not `SplitSignalled` or `SplitPolled`: `join`'s LCWS fast
    /// paths, which test for those, must not skip the mailing.)
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

/// `lcws-poll`'s pop when a thief has posted a request: answer it, then pop.
///
/// # Safety
/// On the owner thread; `worker` owns `d`.
#[cold]
#[inline(never)]
unsafe fn answer_then_take<R>(
    worker: &WorkerThread,
    d: &UnsafeCell<Split<JobRef>>,
    keep: R,
) -> (R, Option<JobRef>) {
    worker.answer_wants();
    // SAFETY: forwarded from the caller.
    (keep, unsafe { pop_split(d) })
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
        /// The deque of kind `D`, as `plain` or (under `hybrid`) `mailing` says, and its
        /// thieves' end.
        fn pair<D: Owner<JobRef>>(
            capacity: usize,
            mail: Option<HybridLocal>,
            plain: fn(UnsafeCell<D>) -> LocalDeque,
            mailing: fn(Mailed<D>) -> LocalDeque,
        ) -> (LocalDeque, D::Stealer) {
            let d = D::with_capacity(capacity);
            let s = d.stealer();
            let deque = UnsafeCell::new(d);
            let local = match mail {
                None => plain(deque),
                Some(hybrid) => mailing(Mailed { deque, hybrid }),
            };
            (local, s)
        }
        match (plan.deque, plan.asking) {
            (DequeKind::Locked, _) => {
                let (d, s) = pair(
                    capacity,
                    mail,
                    LocalDeque::Locked,
                    LocalDeque::MailingLocked,
                );
                (d, RemoteDeque::Locked(s))
            }
            (DequeKind::Abp, _) => {
                let (d, s) = pair(capacity, mail, LocalDeque::Abp, LocalDeque::MailingAbp);
                (d, RemoteDeque::Abp(s))
            }
            (DequeKind::ChaseLev, _) => {
                let (d, s) = pair(
                    capacity,
                    mail,
                    LocalDeque::ChaseLev,
                    LocalDeque::MailingChaseLev,
                );
                (d, RemoteDeque::ChaseLev(s))
            }
            (DequeKind::Split, Asking::Signal { .. }) => {
                let (d, s) = pair(
                    capacity,
                    mail,
                    if records_starts {
                        LocalDeque::RecordingSplitSignalled
                    } else {
                        LocalDeque::SplitSignalled
                    },
                    LocalDeque::MailingSplitSignalled,
                );
                (d, RemoteDeque::Split(s))
            }
            // A split deque nobody signals answers at its pushes and pops.
            (DequeKind::Split, Asking::Poll | Asking::Never) => {
                let (d, s) = pair(
                    capacity,
                    mail,
                    if records_starts {
                        LocalDeque::RecordingSplitPolled
                    } else {
                        LocalDeque::SplitPolled
                    },
                    LocalDeque::MailingSplitPolled,
                );
                (d, RemoteDeque::Split(s))
            }
        }
    }

    /// Pushes a join's second job. The split deques (LCWS, not under `hybrid`) push
    /// inline, with a compare of the kind and their private part's relaxed stores; every
    /// other deque, and `hybrid`'s decision to mail instead, is one call out of line. None
    /// of it depends on the join's closures, so a call site compiles this once.
    ///
    /// # Safety
    /// On the owner thread (the worker that holds this deque).
    #[inline(always)]
    pub(crate) unsafe fn push_fork(&self, worker: &WorkerThread, job: JobRef) -> Fork {
        match self {
            LocalDeque::SplitSignalled(d) | LocalDeque::SplitPolled(d) => {
                // The worker's `Wanted` is the deque's request byte (`WorkerInfo::wanted`),
                // read through the row the push just used.
                let look = |requests: &AtomicU8| Wanted::at(requests).is_set_after_push();
                // SAFETY: on the owner thread, by the caller's contract.
                match unsafe { own(d, |d| d.push_then(job, look)) } {
                    Ok(false) => Fork::Pushed,
                    Ok(true) => Fork::PushedWanted,
                    Err(_) => Fork::Full,
                }
            }
            // SAFETY: forwarded from the caller.
            _ => unsafe { self.push_fork_elsewhere(worker, job) },
        }
    }

    /// [`LocalDeque::push_fork`] on the classical deques and under `hybrid` (which may mail
    /// instead): one dispatch on the kind, the push inline in each arm, then the worker's
    /// look at what thieves want (`after_push`).
    ///
    /// Cold only for code layout: the split deques' inline push then falls through (two
    /// jumps fewer per join); for the deques that come here the call is the same.
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
        match self {
            LocalDeque::SplitSignalled(d)
            | LocalDeque::SplitPolled(d)
            | LocalDeque::RecordingSplitSignalled(d)
            | LocalDeque::RecordingSplitPolled(d) => push_on(d, job),
            LocalDeque::Abp(d) => push_on(d, job),
            LocalDeque::ChaseLev(d) => push_on(d, job),
            LocalDeque::Locked(d) => push_on(d, job),
            LocalDeque::MailingSplitSignalled(m) | LocalDeque::MailingSplitPolled(m) => {
                mail_or_push(m, job, mails)
            }
            LocalDeque::MailingAbp(m) => mail_or_push(m, job, mails),
            LocalDeque::MailingChaseLev(m) => mail_or_push(m, job, mails),
            LocalDeque::MailingLocked(m) => mail_or_push(m, job, mails),
        }
    }

    /// `join`'s pop: the newest local job, `keep` handed back beside it; `ours` is the
    /// join's own job. The split deques pop their private part inline (answering a poll
    /// request first, under `lcws-poll`); every other deque is one call out of line, after
    /// which a pool that records task starts records `ours` if it came back (`join` only
    /// counts it: the inline path tests no flag).
    ///
    /// `join` passes its first result through `keep`: the rare poll answer is then one
    /// cold call that also pops, so the result need not live across a call in a register
    /// the whole hot path would save and restore.
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
        match self {
            // SAFETY: on the owner thread, by the caller's contract.
            LocalDeque::SplitSignalled(d) => (keep, unsafe { pop_split(d) }),
            // (Its own arm: one test of the kind for `lcws-signal`, the default.)
            LocalDeque::SplitPolled(d) => {
                if worker.is_wanted() {
                    // SAFETY: forwarded from the caller.
                    return unsafe { answer_then_take(worker, d, keep) };
                }
                // SAFETY: on the owner thread, by the caller's contract.
                (keep, unsafe { pop_split(d) })
            }
            // SAFETY (both): forwarded from the caller.
            _ if worker.records_starts() => (keep, unsafe { self.take_fork(worker, ours) }),
            _ => (keep, unsafe { self.take(worker) }),
        }
    }

    /// [`LocalDeque::take`] for `join`'s pop in a pool that records task starts: records
    /// the start of `ours`, the join's own job, if it came back. Out of line with the pop
    /// inlined: one call, as `take`.
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

    /// The body of [`LocalDeque::take`] and [`LocalDeque::take_fork`].
    ///
    /// # Safety
    /// As for `take`.
    #[inline(always)]
    unsafe fn take_inline(&self, worker: &WorkerThread) -> Option<JobRef> {
        fn pop_on<D: Owner<JobRef>>(d: &UnsafeCell<D>) -> Option<JobRef> {
            // SAFETY: `LocalDeque::take`'s caller is on the owner thread.
            unsafe { own(d, |d| d.pop()) }
        }
        match self {
            LocalDeque::SplitSignalled(d)
            | LocalDeque::RecordingSplitSignalled(d)
            | LocalDeque::MailingSplitSignalled(Mailed { deque: d, .. }) => {
                // SAFETY: forwarded from the caller.
                unsafe { pop_split(d) }
            }
            LocalDeque::SplitPolled(d)
            | LocalDeque::RecordingSplitPolled(d)
            | LocalDeque::MailingSplitPolled(Mailed { deque: d, .. }) => {
                if worker.is_wanted() {
                    worker.answer_wants();
                }
                // SAFETY: forwarded from the caller.
                unsafe { pop_split(d) }
            }
            LocalDeque::Locked(d) | LocalDeque::MailingLocked(Mailed { deque: d, .. }) => pop_on(d),
            LocalDeque::Abp(d) | LocalDeque::MailingAbp(Mailed { deque: d, .. }) => pop_on(d),
            LocalDeque::ChaseLev(d) | LocalDeque::MailingChaseLev(Mailed { deque: d, .. }) => {
                pop_on(d)
            }
        }
    }

    /// The split deque, if this is one (under `hybrid` too): for exposing on the owner's
    /// own thread, outside any other borrow of the deque.
    pub(crate) fn split(&self) -> Option<&UnsafeCell<Split<JobRef>>> {
        match self {
            LocalDeque::SplitPolled(d)
            | LocalDeque::SplitSignalled(d)
            | LocalDeque::RecordingSplitPolled(d)
            | LocalDeque::RecordingSplitSignalled(d)
            | LocalDeque::MailingSplitPolled(Mailed { deque: d, .. })
            | LocalDeque::MailingSplitSignalled(Mailed { deque: d, .. }) => Some(d),
            LocalDeque::Locked(_)
            | LocalDeque::Abp(_)
            | LocalDeque::ChaseLev(_)
            | LocalDeque::MailingLocked(_)
            | LocalDeque::MailingAbp(_)
            | LocalDeque::MailingChaseLev(_) => None,
        }
    }

    /// The handle a signal handler exposes through, for a signalled split deque.
    pub(crate) fn signal_exposer(&self) -> Option<SignalExposer> {
        match self {
            LocalDeque::SplitSignalled(d)
            | LocalDeque::RecordingSplitSignalled(d)
            | LocalDeque::MailingSplitSignalled(Mailed { deque: d, .. }) => {
                // SAFETY: a short borrow on the worker's thread, before it runs anything.
                Some(unsafe { &*d.get() }.signal_exposer())
            }
            _ => None,
        }
    }

    /// `hybrid`'s per-worker state, under `hybrid`.
    #[inline]
    pub(crate) fn hybrid(&self) -> Option<&HybridLocal> {
        match self {
            LocalDeque::MailingSplitSignalled(Mailed { hybrid, .. })
            | LocalDeque::MailingSplitPolled(Mailed { hybrid, .. })
            | LocalDeque::MailingLocked(Mailed { hybrid, .. })
            | LocalDeque::MailingAbp(Mailed { hybrid, .. })
            | LocalDeque::MailingChaseLev(Mailed { hybrid, .. }) => Some(hybrid),
            LocalDeque::SplitSignalled(_)
            | LocalDeque::SplitPolled(_)
            | LocalDeque::RecordingSplitSignalled(_)
            | LocalDeque::RecordingSplitPolled(_)
            | LocalDeque::Locked(_)
            | LocalDeque::Abp(_)
            | LocalDeque::ChaseLev(_) => None,
        }
    }

    /// Whether the deque holds no task (the owner's exact view).
    pub(crate) fn is_empty(&self) -> bool {
        fn empty<D: Owner<JobRef>>(d: &UnsafeCell<D>) -> bool {
            // SAFETY: as in `own`: a short borrow on the owner's thread (callers
            // are the owner's own methods, never a signal handler).
            unsafe { &*d.get() }.is_empty()
        }
        match self {
            LocalDeque::Locked(d) | LocalDeque::MailingLocked(Mailed { deque: d, .. }) => empty(d),
            LocalDeque::Abp(d) | LocalDeque::MailingAbp(Mailed { deque: d, .. }) => empty(d),
            LocalDeque::ChaseLev(d) | LocalDeque::MailingChaseLev(Mailed { deque: d, .. }) => {
                empty(d)
            }
            LocalDeque::SplitPolled(d)
            | LocalDeque::SplitSignalled(d)
            | LocalDeque::RecordingSplitPolled(d)
            | LocalDeque::RecordingSplitSignalled(d)
            | LocalDeque::MailingSplitPolled(Mailed { deque: d, .. })
            | LocalDeque::MailingSplitSignalled(Mailed { deque: d, .. }) => empty(d),
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

//! A worker's two ends of its deque: [`LocalDeque`], which only the worker touches, and
//! [`RemoteDeque`], the thieves' handle.
//!
//! The plan picks the deque once, when the pool is built; [`LocalDeque::owned`] is the one
//! place that looks at which it is. It hands out a typed [`Owned`] handle, so `join` is
//! compiled once per deque with no run-time policy checks on its hot path, and nothing
//! can pair a deque with the wrong code: the handle's type *is* the deque's type.

use std::cell::UnsafeCell;

use crate::deque::{
    Abp, AbpStealer, ChaseLev, ChaseLevStealer, Locked, LockedStealer, Owner, SignalExposer, Split,
    SplitStealer, Steal, Stealer,
};
use crate::hybrid::HybridLocal;
use crate::job::JobRef;
use crate::plan::{Asking, DequeKind, Plan};
use crate::worker::WorkerThread;

/// A worker's own deque, and how it serves thieves.
///
/// Each deque sits in an `UnsafeCell`: only its worker's thread reaches it (through
/// [`Owned`]), one short `&mut` borrow at a time that never spans user code.
///
/// Under `hybrid` the base deque is one of the `Mailing*` variants: inline, like the
/// plain ones, so one dispatch on the kind gives both the typed deque and whether forks
/// are mailed, and the deque's address is the same as in the plain variant of its kind.
pub(crate) enum LocalDeque {
    /// A split deque whose thieves send signals, answered by the handler. (First: the
    /// default policy's `join` tests for it with one compare against zero.)
    SplitSignalled(UnsafeCell<Split<JobRef>>),
    /// A split deque whose thieves post poll requests, answered at pushes and pops.
    SplitPolled(UnsafeCell<Split<JobRef>>),
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
/// generated code depends on it). The plain and mailing paths of a `join` can then share
/// one deque address instead of carrying a second pointer through the hot path.
#[repr(C)]
pub(crate) struct Mailed<D> {
    deque: UnsafeCell<D>,
    hybrid: HybridLocal,
}

/// The owner's handle on its deque `D`; `POLLS` when it also answers poll requests at
/// pops. Built only by [`LocalDeque::owned`], on the worker's thread (it holds the
/// worker's `&WorkerThread`, which is `!Sync`, so the handle cannot leave the thread).
pub(crate) struct Owned<'w, D, const POLLS: bool> {
    worker: &'w WorkerThread,
    deque: &'w UnsafeCell<D>,
}

// `Copy` (two references, passed in registers) whatever `D` is: not derived, which would
// ask `D: Copy`.
impl<D, const POLLS: bool> Clone for Owned<'_, D, POLLS> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D, const POLLS: bool> Copy for Owned<'_, D, POLLS> {}

/// Whichever deque the worker owns, as a typed handle (with hybrid's state under
/// `hybrid`).
pub(crate) enum AnyOwned<'w> {
    SplitSignalled(Owned<'w, Split<JobRef>, false>),
    SplitPolled(Owned<'w, Split<JobRef>, true>),
    ChaseLev(Owned<'w, ChaseLev<JobRef>, false>),
    Abp(Owned<'w, Abp<JobRef>, false>),
    Locked(Owned<'w, Locked<JobRef>, false>),
    MailingSplitSignalled(Owned<'w, Split<JobRef>, false>, &'w HybridLocal),
    MailingSplitPolled(Owned<'w, Split<JobRef>, true>, &'w HybridLocal),
    MailingChaseLev(Owned<'w, ChaseLev<JobRef>, false>, &'w HybridLocal),
    MailingAbp(Owned<'w, Abp<JobRef>, false>, &'w HybridLocal),
    MailingLocked(Owned<'w, Locked<JobRef>, false>, &'w HybridLocal),
}

/// The owner's pop, split into the part inlined into `join` and the rest.
pub(crate) trait OwnDeque: Owner<JobRef> {
    /// The newest task, on the fast path (split deques: the private part only).
    #[inline(always)]
    fn pop_hot(&mut self) -> Option<JobRef> {
        self.pop()
    }

    /// What `pop_hot` does not look at (split deques: the public part), out of line.
    #[inline(always)]
    fn pop_cold(&mut self) -> Option<JobRef> {
        None
    }
}

impl OwnDeque for Locked<JobRef> {}
impl OwnDeque for Abp<JobRef> {}
impl OwnDeque for ChaseLev<JobRef> {}

impl OwnDeque for Split<JobRef> {
    #[inline(always)]
    fn pop_hot(&mut self) -> Option<JobRef> {
        self.pop_private()
    }

    #[inline(never)]
    fn pop_cold(&mut self) -> Option<JobRef> {
        self.pop_public_bottom()
    }
}

impl<'w, D: OwnDeque, const POLLS: bool> Owned<'w, D, POLLS> {
    /// Runs `f` on the deque. `f` is deque code only: it runs no user code and does not
    /// reach this deque again.
    #[inline(always)]
    fn with<R>(&self, f: impl FnOnce(&mut D) -> R) -> R {
        // SAFETY: only the owning worker's thread holds an `Owned` (see the type), and the
        // borrow ends with `f`, which runs deque code only, so no other borrow of the deque
        // can overlap it. Signal handlers never touch `D` itself (they expose through a
        // `SignalExposer`).
        f(unsafe { &mut *self.deque.get() })
    }

    /// Pushes `job` at the bottom; `false` if the deque is full.
    #[inline(always)]
    pub(crate) fn push(&self, job: JobRef) -> bool {
        self.with(|d| d.push(job).is_ok())
    }

    /// Pops the newest local job (answering a poll request first, under `lcws-poll`).
    #[inline(always)]
    pub(crate) fn take(&self) -> Option<JobRef> {
        self.take_keeping(()).1
    }

    /// `take`, handing `keep` back beside the job. `join` passes its first result through:
    /// the rare poll answer is then one cold call that also pops, so nothing (neither the
    /// result nor this handle) has to live across a call in a register the whole hot path
    /// would save and restore.
    #[inline(always)]
    pub(crate) fn take_keeping<R>(&self, keep: R) -> (R, Option<JobRef>) {
        if POLLS && self.worker.is_wanted() {
            return (*self).answer_then_take(keep);
        }
        (keep, self.take_unpolled())
    }

    #[cold]
    #[inline(never)]
    fn answer_then_take<R>(self, keep: R) -> (R, Option<JobRef>) {
        self.worker.answer_wants();
        (keep, self.take_unpolled())
    }

    /// Pops the newest local job, without looking at poll requests.
    #[inline(always)]
    fn take_unpolled(&self) -> Option<JobRef> {
        self.with(|d| match d.pop_hot() {
            Some(job) => Some(job),
            None => d.pop_cold(),
        })
    }

    /// The worker this handle belongs to.
    #[inline(always)]
    pub(crate) fn worker(&self) -> &'w WorkerThread {
        self.worker
    }
}

impl<'w> AnyOwned<'w> {
    /// Pushes `job` on whichever deque this is; `false` if it is full.
    pub(crate) fn push(&self, job: JobRef) -> bool {
        match self {
            AnyOwned::SplitSignalled(d) | AnyOwned::MailingSplitSignalled(d, _) => d.push(job),
            AnyOwned::SplitPolled(d) | AnyOwned::MailingSplitPolled(d, _) => d.push(job),
            AnyOwned::ChaseLev(d) | AnyOwned::MailingChaseLev(d, _) => d.push(job),
            AnyOwned::Abp(d) | AnyOwned::MailingAbp(d, _) => d.push(job),
            AnyOwned::Locked(d) | AnyOwned::MailingLocked(d, _) => d.push(job),
        }
    }

    /// Pops the newest local job from whichever deque this is.
    pub(crate) fn take(&self) -> Option<JobRef> {
        match self {
            AnyOwned::SplitSignalled(d) | AnyOwned::MailingSplitSignalled(d, _) => d.take(),
            AnyOwned::SplitPolled(d) | AnyOwned::MailingSplitPolled(d, _) => d.take(),
            AnyOwned::ChaseLev(d) | AnyOwned::MailingChaseLev(d, _) => d.take(),
            AnyOwned::Abp(d) | AnyOwned::MailingAbp(d, _) => d.take(),
            AnyOwned::Locked(d) | AnyOwned::MailingLocked(d, _) => d.take(),
        }
    }
}

impl LocalDeque {
    /// The two ends of a new deque for `plan`; `index` is the worker's.
    pub(crate) fn new(plan: &Plan, capacity: usize, index: usize) -> (LocalDeque, RemoteDeque) {
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
                    LocalDeque::SplitSignalled,
                    LocalDeque::MailingSplitSignalled,
                );
                (d, RemoteDeque::Split(s))
            }
            // A split deque nobody signals answers at its pushes and pops.
            (DequeKind::Split, Asking::Poll | Asking::Never) => {
                let (d, s) = pair(
                    capacity,
                    mail,
                    LocalDeque::SplitPolled,
                    LocalDeque::MailingSplitPolled,
                );
                (d, RemoteDeque::Split(s))
            }
        }
    }

    /// The typed handle for this deque: the one dispatch on the deque's kind.
    #[inline(always)]
    pub(crate) fn owned<'w>(&'w self, worker: &'w WorkerThread) -> AnyOwned<'w> {
        match self {
            LocalDeque::SplitSignalled(deque) => AnyOwned::SplitSignalled(Owned { worker, deque }),
            LocalDeque::SplitPolled(deque) => AnyOwned::SplitPolled(Owned { worker, deque }),
            LocalDeque::ChaseLev(deque) => AnyOwned::ChaseLev(Owned { worker, deque }),
            LocalDeque::Abp(deque) => AnyOwned::Abp(Owned { worker, deque }),
            LocalDeque::Locked(deque) => AnyOwned::Locked(Owned { worker, deque }),
            LocalDeque::MailingSplitSignalled(Mailed { deque, hybrid }) => {
                AnyOwned::MailingSplitSignalled(Owned { worker, deque }, hybrid)
            }
            LocalDeque::MailingSplitPolled(Mailed { deque, hybrid }) => {
                AnyOwned::MailingSplitPolled(Owned { worker, deque }, hybrid)
            }
            LocalDeque::MailingChaseLev(Mailed { deque, hybrid }) => {
                AnyOwned::MailingChaseLev(Owned { worker, deque }, hybrid)
            }
            LocalDeque::MailingAbp(Mailed { deque, hybrid }) => {
                AnyOwned::MailingAbp(Owned { worker, deque }, hybrid)
            }
            LocalDeque::MailingLocked(Mailed { deque, hybrid }) => {
                AnyOwned::MailingLocked(Owned { worker, deque }, hybrid)
            }
        }
    }

    /// The typed handle if this is a signalled split deque (`join`'s first test: one
    /// compare, where `owned`'s full dispatch could become a jump table). Not under
    /// `hybrid`, whose forks are mailed.
    #[inline(always)]
    pub(crate) fn signalled<'w>(
        &'w self,
        worker: &'w WorkerThread,
    ) -> Option<Owned<'w, Split<JobRef>, false>> {
        match self {
            LocalDeque::SplitSignalled(deque) => Some(Owned { worker, deque }),
            _ => None,
        }
    }

    /// The typed handle if this is a polled split deque (`join`'s second test; not under
    /// `hybrid`).
    #[inline(always)]
    pub(crate) fn polled<'w>(
        &'w self,
        worker: &'w WorkerThread,
    ) -> Option<Owned<'w, Split<JobRef>, true>> {
        match self {
            LocalDeque::SplitPolled(deque) => Some(Owned { worker, deque }),
            _ => None,
        }
    }

    /// The split deque, if this is one (under `hybrid` too): for exposing on the owner's
    /// own thread, outside any other borrow of the deque.
    pub(crate) fn split(&self) -> Option<&UnsafeCell<Split<JobRef>>> {
        match self {
            LocalDeque::SplitPolled(d)
            | LocalDeque::SplitSignalled(d)
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
            | LocalDeque::Locked(_)
            | LocalDeque::Abp(_)
            | LocalDeque::ChaseLev(_) => None,
        }
    }

    /// Whether the deque holds no task (the owner's exact view).
    pub(crate) fn is_empty(&self) -> bool {
        fn empty<D: Owner<JobRef>>(d: &UnsafeCell<D>) -> bool {
            // SAFETY: as in `Owned::deque`: a short borrow on the owner's thread (callers
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

//! A worker's two ends of its deque: [`LocalDeque`], which only the worker touches, and
//! [`RemoteDeque`], the thieves' handle.
//!
//! The plan picks the deque once, when the pool is built. The owner's operations take a
//! [`JobRef`] in and out, so none of them depends on what a join's closures are: a call
//! site of `join` compiles its closures' code once, whatever the deque.
//!
//! `join`'s push and pop ([`LocalDeque::push_fork`], [`LocalDeque::pop_fork`]) test no
//! kind: they always work inline on one *row* (`deque::Row`), the memory the owner's end
//! of the two inline deques is made of: the worker's asymmetric deque's (`asym`, the
//! default) or split deque's (`lcws-signal`, `lcws-poll`, `lcws-cons`, `lcws-half`), else a
//! *gate* (`Row::gate`) that has no room and whose request byte is always set. So the
//! row's own tests (room at the push, the request byte and the line at the pop) send every
//! other deque out of line, where one call dispatches on the kind. So are a pool that
//! records task starts (it records a join's popped-back job there) and `hybrid` (which may
//! mail a fork instead): their deques sit behind a gate too.
//!
//! The hybrid policy's mailing lives here too, behind the push: a fork that `hybrid` mails
//! instead of pushing is one more way for the deque to keep a join's second job
//! elsewhere ([`Fork::Held`]), which `join` never sees the detail of.

use std::cell::UnsafeCell;
use std::ptr::NonNull;

use crate::deque::{
    Abp, AbpStealer, Asym, AsymStealer, ChaseLev, ChaseLevStealer, Locked, LockedStealer, Owner,
    Row, SignalExposer, Split, SplitStealer, Steal, StealAmount, Stealer, Task,
};
use crate::hybrid::{self, HybridLocal};
use crate::job::JobRef;
use crate::latch::JoinLatch;
use crate::plan::{Asking, DequeKind, Plan};
use crate::sync::AtomicU8;
use crate::wakeup::{light_fence, Wanted};
use crate::worker::WorkerThread;

/// A worker's own deque, and how it serves thieves.
///
/// Each deque sits in an `UnsafeCell`: only its worker's thread reaches it (the owner
/// methods are `unsafe` for that reason), one short `&mut` borrow at a time that never
/// spans user code.
pub(crate) struct LocalDeque {
    /// The row `join` pushes on and pops from inline: the row of the deque in `kind` when
    /// that is an asymmetric or split deque with nothing to do out of line, else `gate`'s
    /// (module doc).
    inline: NonNull<Row>,
    /// The gate `inline` points at, if it points at one.
    _gate: Option<Box<Row>>,
    kind: Kind,
}

// SAFETY: `inline` points into heap memory this value owns (the row of the deque in
// `kind`, or `_gate`), which moves with it; the deque handles in `kind` are `Send`. The
// value is built on the building thread and then moved, once, to its worker's thread.
unsafe impl Send for LocalDeque {}

/// What a worker's deque is.
///
/// Under `hybrid` the base deque is one of the `Mailing*` variants, inline, like the
/// plain ones, so one dispatch on the kind gives both the typed deque and whether forks
/// are mailed.
enum Kind {
    /// The asymmetric deque (`asym`): every task public, thieves pay with a heavy fence.
    Asym(UnsafeCell<Asym<JobRef>>),
    /// A split deque whose thieves send signals, answered by the handler.
    SplitSignalled(UnsafeCell<Split<JobRef>>),
    /// A split deque whose thieves post poll requests, answered at pushes and pops.
    SplitPolled(UnsafeCell<Split<JobRef>>),
    Locked(UnsafeCell<Locked<JobRef>>),
    Abp(UnsafeCell<Abp<JobRef>>),
    ChaseLev(UnsafeCell<ChaseLev<JobRef>>),
    /// `hybrid` on each base deque: the base deque, whose forks are mailed as well, and
    /// hybrid's worker state. (Behind the gate, so that `join` never skips the mailing.)
    MailingAsym(Mailed<Asym<JobRef>>),
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

/// The newest task of a split deque: the private part inline, the public part out of line.
///
/// # Safety
/// On the deque's owner thread.
#[inline(always)]
unsafe fn pop_split(d: &UnsafeCell<Split<JobRef>>) -> Option<JobRef> {
    // SAFETY: forwarded from the caller.
    match unsafe { own(d, |d| d.pop_private()) } {
        Some(job) => Some(job),
        // SAFETY: forwarded from the caller.
        None => unsafe { pop_public(d) },
    }
}

/// The public part's bottom task, once the private part is empty (out of line: a join
/// whose second job was stolen).
///
/// # Safety
/// On the deque's owner thread.
#[cold]
#[inline(never)]
unsafe fn pop_public(d: &UnsafeCell<Split<JobRef>>) -> Option<JobRef> {
    // SAFETY: forwarded from the caller.
    unsafe { own(d, |d| d.pop_public_bottom()) }
}

/// The deque of kind `D`, behind the gate unless `inline` (with its row, then, the one
/// `join` pushes and pops on): `plain`, or under `hybrid` (`mail`) `mailing`.
fn assemble<D>(
    deque: D,
    row: Option<NonNull<Row>>,
    mail: Option<HybridLocal>,
    plain: fn(UnsafeCell<D>) -> Kind,
    mailing: fn(Mailed<D>) -> Kind,
) -> LocalDeque {
    let deque = UnsafeCell::new(deque);
    let (kind, row) = match mail {
        None => (plain(deque), row),
        // `hybrid` mails from the out-of-line push: its deque is never inline.
        Some(hybrid) => (mailing(Mailed { deque, hybrid }), None),
    };
    match row {
        Some(row) => LocalDeque {
            inline: row,
            _gate: None,
            kind,
        },
        None => {
            let gate = Row::gate();
            LocalDeque {
                inline: NonNull::from(&*gate),
                _gate: Some(gate),
                kind,
            }
        }
    }
}

impl LocalDeque {
    /// The two ends of a new deque for `plan`; `index` is the worker's, of `workers`;
    /// `records_starts` when the pool records task starts; `owner_fences` when the
    /// asymmetric deque must fall back to fencing its owner's pops (no heavy fence here).
    pub(crate) fn new(
        plan: &Plan,
        capacity: usize,
        (index, workers): (usize, usize),
        records_starts: bool,
        owner_fences: bool,
    ) -> (LocalDeque, RemoteDeque) {
        // Under `hybrid`, hybrid's state for worker `index`.
        let mail = plan.mail.map(|_| HybridLocal::new(index));
        // The row of an inline deque, unless the pool records task starts: those pools
        // record a join's popped-back job on the out-of-line pop.
        let inline = |row: &Row| (!records_starts).then(|| NonNull::from(row));
        match (plan.deque, plan.asking) {
            (DequeKind::Locked, _) => {
                let d = Locked::with_capacity(capacity);
                let s = d.stealer();
                let local = assemble(d, None, mail, Kind::Locked, Kind::MailingLocked);
                (local, RemoteDeque::Locked(s))
            }
            (DequeKind::Abp, _) => {
                let d = Abp::with_capacity(capacity);
                let s = d.stealer();
                let local = assemble(d, None, mail, Kind::Abp, Kind::MailingAbp);
                (local, RemoteDeque::Abp(s))
            }
            (DequeKind::ChaseLev, _) => {
                let d = ChaseLev::with_capacity(capacity);
                let s = d.stealer();
                let local = assemble(d, None, mail, Kind::ChaseLev, Kind::MailingChaseLev);
                (local, RemoteDeque::ChaseLev(s))
            }
            (DequeKind::Asym, _) => {
                let d = Asym::for_pool(capacity, owner_fences, workers);
                let (s, row) = (d.stealer(), inline(d.row()));
                let local = assemble(d, row, mail, Kind::Asym, Kind::MailingAsym);
                (local, RemoteDeque::Asym(s))
            }
            (DequeKind::Split, Asking::Signal { .. }) => {
                let d = Split::with_capacity(capacity);
                let (s, row) = (d.stealer(), inline(d.row()));
                let local = assemble(
                    d,
                    row,
                    mail,
                    Kind::SplitSignalled,
                    Kind::MailingSplitSignalled,
                );
                (local, RemoteDeque::Split(s))
            }
            // A split deque nobody signals answers at its pushes and pops.
            (DequeKind::Split, Asking::Poll | Asking::Never) => {
                let d = Split::with_capacity(capacity);
                let (s, row) = (d.stealer(), inline(d.row()));
                let local = assemble(d, row, mail, Kind::SplitPolled, Kind::MailingSplitPolled);
                (local, RemoteDeque::Split(s))
            }
        }
    }

    /// The row `join` works on inline.
    #[inline(always)]
    fn row(&self) -> &Row {
        // SAFETY: `inline` points at the row of the deque in `kind` (kept alive by it, at a
        // fixed heap address) or at `_gate`'s; both live as long as `self`.
        unsafe { self.inline.as_ref() }
    }

    /// Pushes a join's second job, inline on the row (module doc): a slot store and a
    /// Release store of `bot`, then a look at the worker's `Wanted` byte, answered at once
    /// if set. The gate, and a deque at the end of its room, go out of line, where
    /// `hybrid` may mail the job instead, and a full deque leaves it unpublished for
    /// after `a`: either is marked on `latch` (the job's: `Unpushed`), which
    /// `WorkerThread::take_back` reads to finish the join. None of it depends on the
    /// join's closures, so a call site compiles this once.
    ///
    /// # Safety
    /// On the owner thread (the worker that holds this deque); `latch` is `job`'s.
    #[inline(always)]
    pub(crate) unsafe fn push_fork(&self, worker: &WorkerThread, job: JobRef, latch: &JoinLatch) {
        // The worker's `Wanted` is the row's request byte (`WorkerInfo::wanted`), read
        // through the row the push just used.
        let look = |requests: &AtomicU8| Wanted::at(requests).is_set_after_push();
        match self.row().try_push_then(job.into_raw(), look) {
            Ok(false) => {}
            Ok(true) => worker.answer_wants(),
            // SAFETY: forwarded from the caller; `raw` is `job`, handed back.
            Err(raw) => unsafe { self.push_fork_elsewhere(worker, JobRef::from_raw(raw), latch) },
        }
    }

    /// [`LocalDeque::push_fork`] where the inline try handed the job back: a deque at the
    /// end of its room (push again, finding room), or any deque behind the gate, under
    /// `hybrid` too (which may mail instead): one dispatch on the kind, the push inline in
    /// each arm, then the worker's look at what thieves want (`after_push`). A job it
    /// does not push is marked on `latch`.
    ///
    /// Cold only for code layout: the inline push then falls through (two jumps fewer per
    /// join); for the deques that come here every time the call is the same.
    ///
    /// # Safety
    /// As for `push_fork`.
    #[cold]
    #[inline(never)]
    unsafe fn push_fork_elsewhere(&self, worker: &WorkerThread, job: JobRef, latch: &JoinLatch) {
        // SAFETY: forwarded from the caller.
        match unsafe { self.push_or_mail(job, HybridLocal::mails) } {
            Pushed::Yes => worker.after_push(),
            Pushed::Mail if hybrid::mail_fork(worker, job, latch) => {}
            Pushed::Mail | Pushed::Full => latch.mark_full(),
        }
    }

    /// Pushes `job` at the bottom of whichever deque this is; `false` if it is full.
    ///
    /// # Safety
    /// On the owner thread.
    #[inline(never)]
    pub(crate) unsafe fn push(&self, job: JobRef) -> bool {
        // SAFETY: forwarded from the caller.
        unsafe { self.push_or_mail(job, |_| false) == Pushed::Yes }
    }

    /// The push of [`LocalDeque::push`] and [`LocalDeque::push_fork_elsewhere`], in one
    /// dispatch on the kind: under `hybrid`, [`Pushed::Mail`] instead where `mails` says so.
    ///
    /// # Safety
    /// On the owner thread.
    #[inline(always)]
    unsafe fn push_or_mail(&self, job: JobRef, mails: impl Fn(&HybridLocal) -> bool) -> Pushed {
        #[inline(always)]
        fn push_on<D: Owner<JobRef>>(d: &UnsafeCell<D>, job: JobRef) -> Pushed {
            // SAFETY: `push_or_mail`'s caller is on the owner thread.
            match unsafe { own(d, |d| d.push(job)) } {
                Ok(()) => Pushed::Yes,
                Err(_) => Pushed::Full,
            }
        }
        #[inline(always)]
        fn mail_or_push<D: Owner<JobRef>>(
            m: &Mailed<D>,
            job: JobRef,
            mails: impl Fn(&HybridLocal) -> bool,
        ) -> Pushed {
            if mails(&m.hybrid) {
                Pushed::Mail
            } else {
                push_on(&m.deque, job)
            }
        }
        match &self.kind {
            Kind::Asym(d) => push_on(d, job),
            Kind::SplitSignalled(d) | Kind::SplitPolled(d) => push_on(d, job),
            Kind::Abp(d) => push_on(d, job),
            Kind::ChaseLev(d) => push_on(d, job),
            Kind::Locked(d) => push_on(d, job),
            Kind::MailingAsym(m) => mail_or_push(m, job, mails),
            Kind::MailingSplitSignalled(m) | Kind::MailingSplitPolled(m) => {
                mail_or_push(m, job, mails)
            }
            Kind::MailingAbp(m) => mail_or_push(m, job, mails),
            Kind::MailingChaseLev(m) => mail_or_push(m, job, mails),
            Kind::MailingLocked(m) => mail_or_push(m, job, mails),
        }
    }

    /// `join`'s pop: the newest local job, `keep` handed back beside it; `ours` is the
    /// join's own job. Inline on the row (module doc): a look at the worker's `Wanted`
    /// byte (the LCWS paper's poll "once per executed node"; it also finds a sleeper's
    /// standing request a little sooner than the next push would), then the row's pop:
    /// lower `bot`, the light fence, read the line. A set byte (always, on the gate) goes
    /// out of line, where the want is answered or the deque behind the gate is popped; so
    /// does an index below the line (a stolen second job, or under `asym` a thief's claim
    /// on it).
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
        let row = self.row();
        if Wanted::at(&row.requests).is_set() {
            // SAFETY: forwarded from the caller.
            return (keep, unsafe { self.pop_fork_elsewhere(worker, ours) });
        }
        // The light fence: a compiler fence against a split deque's signal handler, the
        // owner's half of the asymmetric deque's fence.
        match row.pop_above_line(light_fence, &mut || {}) {
            // SAFETY: the row holds `JobRef`s pushed by this deque's owner.
            Some(raw) => (keep, Some(unsafe { JobRef::from_raw(raw) })),
            // SAFETY: forwarded from the caller.
            None => (keep, unsafe { self.pop_below_line() }),
        }
    }

    /// The row's pop found its index below the line: a split deque's private part is
    /// empty (pop the public part), or an asymmetric deque's task was claimed or taken by
    /// a thief (`Asym::pop_contended`).
    ///
    /// # Safety
    /// As for `pop_fork`.
    #[cold]
    #[inline(never)]
    unsafe fn pop_below_line(&self) -> Option<JobRef> {
        match &self.kind {
            // SAFETY (both): forwarded from the caller.
            Kind::Asym(d) => unsafe { own(d, |d| d.pop_contended()) },
            Kind::SplitSignalled(d) | Kind::SplitPolled(d) => unsafe { pop_public(d) },
            // Only an inline deque's row has a line to be below.
            _ => unreachable!("a gate's pop never reaches its line"),
        }
    }

    /// [`LocalDeque::pop_fork`] where the request byte was set: in a pool that records
    /// task starts, pop and record `ours` if it came back (`join` only counts it); else
    /// under LCWS answer what thieves want, then pop; under `asym` answer a sleeper if one
    /// asked, then pop (fenced, if the request byte says the heavy fence is gone); behind
    /// the gate, pop the deque there, with its pop inline (one call).
    ///
    /// # Safety
    /// As for `pop_fork`.
    #[cold]
    #[inline(never)]
    unsafe fn pop_fork_elsewhere(&self, worker: &WorkerThread, ours: JobRef) -> Option<JobRef> {
        if worker.records_starts() {
            // SAFETY: forwarded from the caller.
            return unsafe { self.take_fork(worker, ours) };
        }
        match &self.kind {
            Kind::SplitSignalled(d) | Kind::SplitPolled(d) => {
                worker.answer_wants();
                // SAFETY: forwarded from the caller.
                unsafe { pop_split(d) }
            }
            Kind::Asym(d) => {
                if worker.is_wanted() {
                    worker.answer_wants();
                }
                // SAFETY: forwarded from the caller.
                unsafe { own(d, |d| d.pop()) }
            }
            // SAFETY: forwarded from the caller.
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
            Kind::Asym(d) | Kind::MailingAsym(Mailed { deque: d, .. }) => pop_on(d),
            // SAFETY: forwarded from the caller.
            Kind::SplitSignalled(d) | Kind::MailingSplitSignalled(Mailed { deque: d, .. }) => unsafe {
                pop_split(d)
            },
            Kind::SplitPolled(d) | Kind::MailingSplitPolled(Mailed { deque: d, .. }) => polled(d),
            Kind::Locked(d) | Kind::MailingLocked(Mailed { deque: d, .. }) => pop_on(d),
            Kind::Abp(d) | Kind::MailingAbp(Mailed { deque: d, .. }) => pop_on(d),
            Kind::ChaseLev(d) | Kind::MailingChaseLev(Mailed { deque: d, .. }) => pop_on(d),
        }
    }

    /// The split deque, if this is one (under `hybrid` too): for exposing on the owner's
    /// own thread, outside any other borrow of the deque.
    pub(crate) fn split(&self) -> Option<&UnsafeCell<Split<JobRef>>> {
        match &self.kind {
            Kind::SplitPolled(d)
            | Kind::SplitSignalled(d)
            | Kind::MailingSplitPolled(Mailed { deque: d, .. })
            | Kind::MailingSplitSignalled(Mailed { deque: d, .. }) => Some(d),
            Kind::Asym(_)
            | Kind::Locked(_)
            | Kind::Abp(_)
            | Kind::ChaseLev(_)
            | Kind::MailingAsym(_)
            | Kind::MailingLocked(_)
            | Kind::MailingAbp(_)
            | Kind::MailingChaseLev(_) => None,
        }
    }

    /// Under `asym`, answers a thief that waits for the owner to see its claim
    /// (`Asym::answer_claim`); the other deques have no claims to answer.
    ///
    /// # Safety
    /// On the owner thread.
    #[cold]
    #[inline(never)]
    pub(crate) unsafe fn answer_claim(&self) {
        match &self.kind {
            // SAFETY: forwarded from the caller.
            Kind::Asym(d) | Kind::MailingAsym(Mailed { deque: d, .. }) => unsafe {
                own(d, |d| d.answer_claim())
            },
            _ => {}
        }
    }

    /// The handle a signal handler exposes through, for a signalled split deque.
    pub(crate) fn signal_exposer(&self) -> Option<SignalExposer> {
        let d = match &self.kind {
            Kind::SplitSignalled(d) | Kind::MailingSplitSignalled(Mailed { deque: d, .. }) => d,
            _ => return None,
        };
        // SAFETY: a short borrow on the worker's thread, before it runs anything.
        Some(unsafe { &*d.get() }.signal_exposer())
    }

    /// `hybrid`'s per-worker state, under `hybrid`.
    #[inline]
    pub(crate) fn hybrid(&self) -> Option<&HybridLocal> {
        match &self.kind {
            Kind::MailingAsym(Mailed { hybrid, .. })
            | Kind::MailingSplitSignalled(Mailed { hybrid, .. })
            | Kind::MailingSplitPolled(Mailed { hybrid, .. })
            | Kind::MailingLocked(Mailed { hybrid, .. })
            | Kind::MailingAbp(Mailed { hybrid, .. })
            | Kind::MailingChaseLev(Mailed { hybrid, .. }) => Some(hybrid),
            Kind::Asym(_)
            | Kind::SplitSignalled(_)
            | Kind::SplitPolled(_)
            | Kind::Locked(_)
            | Kind::Abp(_)
            | Kind::ChaseLev(_) => None,
        }
    }

    /// How many tasks the deque holds (the owner's exact view).
    pub(crate) fn len(&self) -> usize {
        fn len<D: Owner<JobRef>>(d: &UnsafeCell<D>) -> usize {
            // SAFETY: as in `own`: a short borrow on the owner's thread (callers
            // are the owner's own methods, never a signal handler).
            unsafe { &*d.get() }.len()
        }
        match &self.kind {
            Kind::Asym(d) | Kind::MailingAsym(Mailed { deque: d, .. }) => len(d),
            Kind::Locked(d) | Kind::MailingLocked(Mailed { deque: d, .. }) => len(d),
            Kind::Abp(d) | Kind::MailingAbp(Mailed { deque: d, .. }) => len(d),
            Kind::ChaseLev(d) | Kind::MailingChaseLev(Mailed { deque: d, .. }) => len(d),
            Kind::SplitPolled(d)
            | Kind::SplitSignalled(d)
            | Kind::MailingSplitPolled(Mailed { deque: d, .. })
            | Kind::MailingSplitSignalled(Mailed { deque: d, .. }) => len(d),
        }
    }

    /// Whether the deque holds no task (the owner's exact view).
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What [`LocalDeque::push_or_mail`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pushed {
    Yes,
    /// The deque is full: nothing was published.
    Full,
    /// `hybrid`, in a task whose range spans several workers: nothing was pushed; the
    /// caller mails the job instead.
    Mail,
}

/// The thieves' end of a worker's deque.
pub(crate) enum RemoteDeque {
    Asym(AsymStealer<JobRef>),
    Locked(LockedStealer<JobRef>),
    Abp(AbpStealer<JobRef>),
    ChaseLev(ChaseLevStealer<JobRef>),
    Split(SplitStealer<JobRef>),
}

impl RemoteDeque {
    /// Steals the oldest task; under `asym` with as many more as `amount` says, which
    /// `rest` gets oldest first (the other deques take one).
    #[inline]
    pub(crate) fn steal(&self, amount: StealAmount, rest: impl FnMut(JobRef)) -> Steal<JobRef> {
        match self {
            RemoteDeque::Asym(s) => s.steal_batch(amount, rest),
            RemoteDeque::Locked(s) => s.steal(),
            RemoteDeque::Abp(s) => s.steal(),
            RemoteDeque::ChaseLev(s) => s.steal(),
            RemoteDeque::Split(s) => s.steal(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        match self {
            RemoteDeque::Asym(s) => s.is_empty(),
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

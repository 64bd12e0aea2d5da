//! [`Policy`]: which deque and which work-exposure rule a pool schedules with.

use std::fmt;
use std::str::FromStr;

/// A scheduling policy of the papers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The default: every pushed task is public and stealable at any moment, and still a
    /// join's push and pop execute no fence and no atomic read-modify-write. The owner's
    /// half of the store-load fence every classical deque pays on each pop is a compiler
    /// fence; a thief pays for both halves with a process-wide heavy fence (Linux's
    /// `membarrier`). In pools of eight workers or more, where that fence interrupts many
    /// CPUs, a thief first asks the owner to answer at its next push or pop that it saw the
    /// claim, and fences only if no answer comes within about a fence's time. Neither
    /// interrupts a thread's code: no signal is sent, so tasks' system calls, signal masks
    /// and handlers behave as on any thread.
    ///
    /// Where the heavy fence is unavailable (no `membarrier`: kernels before 4.14, a
    /// seccomp filter), each owner fences its pops instead, as under a classical deque:
    /// nothing is lost but speed, and [`Stats::fallback_fences`](crate::Stats) counts
    /// those fences. The deque and its correctness argument: [`Asym`](crate::deque::Asym).
    Asym,
    /// Classical work stealing on a mutex-protected deque (the low-latency thesis's baseline).
    Locked,
    /// Classical work stealing on the ABP deque with yields between steals (the ABP paper).
    Abp,
    /// Classical work stealing on the growable Chase-Lev deque (the low-latency thesis).
    ChaseLev,
    /// LCWS with polled requests: a thief posts a request, the victim answers it at its
    /// next push or pop (the LCWS paper's Algorithm 1). Sends no signals.
    ///
    /// By design, a victim answers only when it pushes or pops: while one of its tasks
    /// spins, blocks or computes for long without a `join`, `spawn` or `scope` of its own,
    /// the private tasks beneath it (the `b` sides of the joins it is inside) cannot be
    /// stolen, and stay for it to run when the task returns. The signal policies answer
    /// at once, between any two instructions.
    LcwsPoll,
    /// LCWS whose thieves signal the victim; the handler exposes one task (the
    /// LCWS-in-practice paper's "Signal").
    ///
    /// The handler is installed with `SA_RESTART`, but a handler still changes what system
    /// calls return: Linux never restarts `poll`, `ppoll`, `select`, `epoll_wait`,
    /// `nanosleep`, `clock_nanosleep`, `sem_timedwait`, `sigtimedwait`, System V IPC
    /// (`semtimedop`, `msgrcv`) or socket I/O with a timeout after it (they fail with
    /// `EINTR`); a blocking `write` that has moved some data returns a short count (code
    /// that calls `write` once instead of `write_all` loses the rest); glibc's `sleep` and
    /// `usleep` return early. A task that makes such a call directly under any signal policy
    /// (`lcws-signal`, `lcws-cons`, `lcws-half`) sees this when a thief asks it for work,
    /// and must retry (`std::thread::sleep` and `std`'s I/O helpers retry by themselves).
    /// Use the default, [`Policy::Asym`], which sends no signal, where that is not
    /// acceptable.
    ///
    /// The signal is `SIGURG` ([`default_signal`](crate::default_signal)), which gdb passes
    /// through without stopping; a real-time number chosen with
    /// [`ThreadPoolBuilder::signal`](crate::ThreadPoolBuilder::signal) needs gdb's
    /// `handle SIG<n> nostop noprint pass`.
    ///
    /// A task that blocks the signal (`pthread_sigmask`), or runs while someone else's
    /// handler owns its number, is served as under `lcws-poll` until it unblocks it: at its
    /// pushes, after a thief's bounded wait (see `ThreadPoolBuilder::signal`).
    LcwsSignal,
    /// Signal-based LCWS that does not expose the last private task on a first request
    /// ("Cons"); the next request after an answer that exposed nothing gets it, however
    /// late either is handled, so no join is committed to running sequentially.
    LcwsCons,
    /// Signal-based LCWS that exposes half of the private tasks (LCWS-in-practice paper, "Half").
    LcwsHalf,
    /// The low-latency thesis's hybrid: split-off tasks are mailed to other workers' mailboxes *and* pushed
    /// on the local deque (whichever side claims a task first runs it); stealing waits
    /// until the initial distribution is done. Runs on a base deque policy
    /// (`ThreadPoolBuilder::hybrid_base`).
    Hybrid,
}

impl Policy {
    /// Every policy, in a stable order.
    pub const ALL: &'static [Policy] = &[
        Policy::Asym,
        Policy::Locked,
        Policy::Abp,
        Policy::ChaseLev,
        Policy::LcwsPoll,
        Policy::LcwsSignal,
        Policy::LcwsCons,
        Policy::LcwsHalf,
        Policy::Hybrid,
    ];

    /// The policy's name, as accepted by [`FromStr`] and printed by [`Display`](fmt::Display).
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Asym => "asym",
            Policy::Locked => "locked",
            Policy::Abp => "abp",
            Policy::ChaseLev => "chase-lev",
            Policy::LcwsPoll => "lcws-poll",
            Policy::LcwsSignal => "lcws-signal",
            Policy::LcwsCons => "lcws-cons",
            Policy::LcwsHalf => "lcws-half",
            Policy::Hybrid => "hybrid",
        }
    }

    /// Whether the policy uses split deques (LCWS).
    pub const fn is_lcws(self) -> bool {
        matches!(
            self,
            Policy::LcwsPoll | Policy::LcwsSignal | Policy::LcwsCons | Policy::LcwsHalf
        )
    }

    /// Whether thieves notify victims with signals.
    pub const fn uses_signals(self) -> bool {
        matches!(
            self,
            Policy::LcwsSignal | Policy::LcwsCons | Policy::LcwsHalf
        )
    }

    /// Whether the policy works on the platform this program was built for: the signal
    /// policies need POSIX signals (every Unix: Linux, Android, macOS, the BSDs), the others
    /// work everywhere. [`ThreadPoolBuilder::build`](crate::ThreadPoolBuilder::build)
    /// refuses a policy that does not, with an error that names the policies that do.
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use splitsteal::Policy;
    ///
    /// assert!(Policy::default().is_supported());
    /// assert_eq!(Policy::LcwsSignal.is_supported(), cfg!(unix));
    /// ```
    pub const fn is_supported(self) -> bool {
        !self.uses_signals() || crate::platform::signals::SUPPORTED
    }

    /// The policies of [`Policy::ALL`] that work here ([`Policy::is_supported`]).
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use splitsteal::Policy;
    ///
    /// assert!(Policy::supported().any(|p| p == Policy::Asym));
    /// ```
    pub fn supported() -> impl Iterator<Item = Policy> {
        Policy::ALL.iter().copied().filter(|p| p.is_supported())
    }
}

impl Default for Policy {
    /// `asym`: fence-free joins, every task stealable, no signals ([`Policy::Asym`]).
    fn default() -> Self {
        Policy::Asym
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown policy name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePolicyError {
    given: String,
}

impl fmt::Display for ParsePolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown scheduling policy `{}`; valid policies: ",
            self.given
        )?;
        for (i, p) in Policy::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(p.name())?;
        }
        Ok(())
    }
}

impl std::error::Error for ParsePolicyError {}

impl FromStr for Policy {
    type Err = ParsePolicyError;

    /// Parses a policy name (case-insensitive, surrounding whitespace ignored).
    ///
    /// ```
    /// # use splitsteal_core as splitsteal;
    /// use splitsteal::Policy;
    /// assert_eq!("lcws-poll".parse::<Policy>(), Ok(Policy::LcwsPoll));
    /// assert!("lcws".parse::<Policy>().unwrap_err().to_string().contains("lcws-signal"));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        Policy::ALL
            .iter()
            .copied()
            .find(|p| p.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| ParsePolicyError {
                given: s.to_string(),
            })
    }
}

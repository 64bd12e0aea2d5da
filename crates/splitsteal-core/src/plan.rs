//! The pool's plan: a [`Policy`] resolved, once, by the builder, into the three things the
//! runtime below it needs to know. Nothing under the pool matches on `Policy` again; a new
//! policy is a new row in [`Plan::resolve`] (and, if it needs one, a new deque or a new way
//! of asking).
//!
//! | policy | deque | how a thief gets private work | forks mailed |
//! |---|---|---|---|
//! | `locked`, `abp`, `chase-lev` | mutex / ABP / Chase-Lev | (none: all work is public) | no |
//! | `lcws-poll` | split | posts a poll request | no |
//! | `lcws-signal`, `lcws-cons`, `lcws-half` | split | sends a signal; the handler exposes one / one but not the last / half | no |
//! | `asym` (default) | asymmetric | (none: all work is public; a steal runs a heavy fence) | no |
//! | `hybrid` | its base policy's | its base policy's | yes |

use std::time::Duration;

use std::ffi::c_int;

use crate::deque::{Exposure, StealAmount};
use crate::Policy;

/// How a task's worker range is split at a fork (low-latency thesis §3.4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mailing {
    /// Balanced halving: the work propagates down a balanced binary tree of workers.
    #[default]
    Even,
    /// The conservative, proportional split: the forking worker keeps all but one worker
    /// of its range and mails one worker's share at each fork, so a single producer feeds
    /// every other worker directly ("rapid-fire start").
    Uneven,
}

impl Mailing {
    /// The shares `(a, b)` of a range of `count >= 2` workers.
    pub fn split(self, count: u32) -> (u32, u32) {
        debug_assert!(count >= 2);
        match self {
            Mailing::Even => (count - count / 2, count / 2),
            Mailing::Uneven => (count - 1, 1),
        }
    }
}

/// Which deque each worker owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DequeKind {
    Locked,
    Abp,
    ChaseLev,
    Split,
    Asym,
}

/// How a thief that finds only private work (split deques) gets some exposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Asking {
    /// Classical deques: every task is public, a thief just steals.
    Never,
    /// Post a request in the victim's `Wanted` word; the victim answers at its next push
    /// or pop.
    Poll,
    /// Send `signal` to the victim's thread; its handler exposes by `exposure`.
    Signal { signal: c_int, exposure: Exposure },
}

impl Asking {
    /// How much one answer to a request exposes: a handler follows the signal policy's
    /// rule; a poll answer, and an owner's own exposure for a sleeper, expose one task.
    pub(crate) fn exposure(self) -> Exposure {
        match self {
            Asking::Signal { exposure, .. } => exposure,
            Asking::Never | Asking::Poll => Exposure::One,
        }
    }
}

/// `hybrid`'s settings: how ranges split, and when stealing may start after an origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MailPlan {
    pub(crate) mailing: Mailing,
    pub(crate) gate_mails: usize,
    pub(crate) gate_delay: Duration,
}

/// What a policy means for the runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The policy the user asked for (reported back by `ThreadPool::policy`).
    pub(crate) policy: Policy,
    pub(crate) deque: DequeKind,
    pub(crate) asking: Asking,
    /// `Some` under `hybrid`: forks are mailed as well as pushed.
    pub(crate) mail: Option<MailPlan>,
    /// How many tasks a steal takes from an asymmetric deque (the other deques: one).
    pub(crate) steal: StealAmount,
}

impl Plan {
    /// The plan for `policy`; `hybrid` runs on `base` (which must not be `hybrid`), with
    /// `mail`'s settings. `signal` is the exposure signal of the signal policies.
    pub(crate) fn resolve(
        policy: Policy,
        base: Policy,
        mail: MailPlan,
        signal: c_int,
        steal: StealAmount,
    ) -> Result<Plan, String> {
        let signalled = |exposure| Asking::Signal { signal, exposure };
        let (deque, asking, mail) = match policy {
            Policy::Locked => (DequeKind::Locked, Asking::Never, None),
            Policy::Abp => (DequeKind::Abp, Asking::Never, None),
            Policy::ChaseLev => (DequeKind::ChaseLev, Asking::Never, None),
            Policy::Asym => (DequeKind::Asym, Asking::Never, None),
            Policy::LcwsPoll => (DequeKind::Split, Asking::Poll, None),
            Policy::LcwsSignal => (DequeKind::Split, signalled(Exposure::One), None),
            Policy::LcwsCons => (DequeKind::Split, signalled(Exposure::Conservative), None),
            Policy::LcwsHalf => (DequeKind::Split, signalled(Exposure::Half), None),
            Policy::Hybrid => {
                if base == Policy::Hybrid {
                    return Err(
                        "hybrid_base(hybrid): the hybrid's base must be a deque policy".into(),
                    );
                }
                let base = Plan::resolve(base, base, mail, signal, steal)?;
                (base.deque, base.asking, Some(mail))
            }
        };
        Ok(Plan {
            policy,
            deque,
            asking,
            mail,
            steal,
        })
    }

    /// The exposure signal, if thieves send one.
    pub(crate) fn signal(&self) -> Option<c_int> {
        match self.asking {
            Asking::Signal { signal, .. } => Some(signal),
            Asking::Never | Asking::Poll => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail() -> MailPlan {
        MailPlan {
            mailing: Mailing::Even,
            gate_mails: 1,
            gate_delay: Duration::ZERO,
        }
    }

    #[test]
    fn every_policy_resolves_and_hybrid_takes_its_base() {
        for &p in Policy::ALL {
            let plan = Plan::resolve(p, Policy::LcwsHalf, mail(), 40, StealAmount::One).unwrap();
            assert_eq!(plan.policy, p);
            assert_eq!(plan.mail.is_some(), p == Policy::Hybrid, "{p}");
            assert_eq!(
                plan.deque == DequeKind::Split,
                p.is_lcws() || p == Policy::Hybrid
            );
            assert_eq!(
                plan.signal().is_some(),
                p.uses_signals() || p == Policy::Hybrid
            );
        }
        let half = Plan::resolve(
            Policy::Hybrid,
            Policy::LcwsHalf,
            mail(),
            40,
            StealAmount::One,
        )
        .unwrap();
        assert_eq!(half.asking.exposure(), Exposure::Half);
        let cons = Plan::resolve(
            Policy::LcwsCons,
            Policy::ChaseLev,
            mail(),
            40,
            StealAmount::One,
        )
        .unwrap();
        assert_eq!(cons.asking.exposure(), Exposure::Conservative);
        assert_eq!(cons.deque, DequeKind::Split);
        assert_eq!(cons.mail, None);
    }

    #[test]
    fn hybrid_on_hybrid_is_refused() {
        let e = Plan::resolve(Policy::Hybrid, Policy::Hybrid, mail(), 40, StealAmount::One)
            .unwrap_err();
        assert!(e.contains("hybrid_base"), "{e}");
    }
}

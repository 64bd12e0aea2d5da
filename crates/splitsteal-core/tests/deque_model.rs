//! Model-based tests: random single-threaded operation sequences on every deque, checked
//! step by step against a `VecDeque` model that also tracks what each deque promises
//! beyond order (ABP's ring: `Full` exactly when `capacity` tasks are held, however far the
//! indices drifted since the last reset; the split deque's slots in a row: `Full` with
//! `capacity` tasks held, or at the last slot with a task still public, and the tasks moved
//! down to index 0 there otherwise; Chase-Lev's capacity after every grow and shrink; the
//! split deque's public and private parts).

// proptest is not a dev-dependency under loom or Miri (see Cargo.toml).
#![cfg(not(any(loom, miri)))]

use std::collections::VecDeque;
use std::num::NonZeroUsize;

use proptest::prelude::*;
use splitsteal_core::deque::{
    Abp, ChaseLev, Exposure, Full, Locked, Owner, Split, Steal, Stealer, SHRINK_K,
};

type Task = NonZeroUsize;

#[derive(Debug, Clone, Copy)]
enum Op {
    Push,
    Pop,
    Steal,
    /// Split only (a no-op elsewhere).
    Expose(Exposure),
    /// Split only.
    PopPrivate,
    /// Split only; skipped when the model's private part is non-empty (precondition).
    PopPublicBottom,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => Just(Op::Push),
        3 => Just(Op::Pop),
        2 => Just(Op::Steal),
        1 => Just(Op::Expose(Exposure::One)),
        1 => Just(Op::Expose(Exposure::Conservative)),
        1 => Just(Op::Expose(Exposure::Half)),
        1 => Just(Op::PopPrivate),
        1 => Just(Op::PopPublicBottom),
    ]
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(op(), 0..300)
}

fn task(v: usize) -> Task {
    NonZeroUsize::new(v).unwrap()
}

fn got(t: Option<Task>) -> Option<usize> {
    t.map(NonZeroUsize::get)
}

fn stolen(s: Steal<Task>) -> Steal<usize> {
    match s {
        Steal::Success(t) => Steal::Success(t.get()),
        Steal::Empty => Steal::Empty,
        Steal::Abort => Steal::Abort,
        Steal::PrivateWork => Steal::PrivateWork,
    }
}

/// The ring size of the ABP and split deques: `capacity` rounded up to a power of two.
fn ring(capacity: usize) -> usize {
    if capacity == 0 {
        0
    } else {
        capacity.next_power_of_two()
    }
}

/// The ABP deque's model: tasks `[top, top + len)` of a ring of `capacity` slots.
struct AbpModel {
    tasks: VecDeque<usize>,
    top: usize,
    capacity: usize,
}

impl AbpModel {
    fn push(&mut self, v: usize) -> Result<(), usize> {
        // Full with `capacity` tasks, wherever the indices are (issue 33, defect 3).
        if self.tasks.len() == self.capacity {
            return Err(v);
        }
        self.tasks.push_back(v);
        Ok(())
    }

    fn pop(&mut self) -> Option<usize> {
        if self.top + self.tasks.len() == 0 {
            return None;
        }
        if self.tasks.len() >= 2 {
            return self.tasks.pop_back();
        }
        // The last task (or none left at a drifted `bot`): indices reset.
        self.top = 0;
        self.tasks.pop_back()
    }

    fn steal(&mut self) -> Steal<usize> {
        match self.tasks.pop_front() {
            Some(v) => {
                self.top += 1;
                Steal::Success(v)
            }
            None => Steal::Empty,
        }
    }
}

fn run_abp(capacity: usize, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut d: Abp<Task> = Abp::with_capacity(capacity);
    let s = d.stealer();
    let mut m = AbpModel {
        tasks: VecDeque::new(),
        top: 0,
        capacity: ring(capacity),
    };
    prop_assert_eq!(d.capacity(), ring(capacity));
    let mut next = 1;
    for (i, op) in ops.iter().enumerate() {
        match op {
            Op::Push => {
                let want = m.push(next).map_err(task).map_err(Full);
                prop_assert_eq!(d.push(task(next)), want, "step {}: push", i);
                next += 1;
            }
            Op::Pop | Op::PopPrivate | Op::PopPublicBottom => {
                prop_assert_eq!(got(d.pop()), m.pop(), "step {}: pop", i)
            }
            Op::Steal => prop_assert_eq!(stolen(s.steal()), m.steal(), "step {}: steal", i),
            Op::Expose(_) => {}
        }
        prop_assert_eq!(d.len(), m.tasks.len(), "step {}: len", i);
        prop_assert_eq!(s.is_empty(), m.tasks.is_empty(), "step {}: is_empty", i);
    }
    Ok(())
}

/// The Chase-Lev model: any number of tasks, and the capacity the grow/shrink rule gives.
struct ChaseLevModel {
    tasks: VecDeque<usize>,
    capacity: usize,
    min_capacity: usize,
}

impl ChaseLevModel {
    fn push(&mut self, v: usize) {
        if self.tasks.len() == self.capacity {
            self.capacity *= 2;
        }
        self.tasks.push_back(v);
    }

    fn pop(&mut self) -> Option<usize> {
        let v = self.tasks.pop_back()?;
        let left = self.tasks.len();
        // Shrinks after a pop that leaves 1 ≤ left < capacity / K (the last task's pop,
        // decided by a CAS, leaves the buffer alone).
        if left > 0 && self.capacity > self.min_capacity && left < self.capacity / SHRINK_K {
            self.capacity /= 2;
        }
        Some(v)
    }
}

fn run_chase_lev(capacity: usize, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut d: ChaseLev<Task> = ChaseLev::with_capacity(capacity);
    let s = d.stealer();
    let min_capacity = capacity.max(1).next_power_of_two();
    let mut m = ChaseLevModel {
        tasks: VecDeque::new(),
        capacity: min_capacity,
        min_capacity,
    };
    let mut next = 1;
    for (i, op) in ops.iter().enumerate() {
        match op {
            Op::Push => {
                m.push(next);
                prop_assert_eq!(d.push(task(next)), Ok(()), "step {}: push", i);
                next += 1;
            }
            Op::Pop | Op::PopPrivate | Op::PopPublicBottom => {
                prop_assert_eq!(got(d.pop()), m.pop(), "step {}: pop", i)
            }
            Op::Steal => {
                let want = m.tasks.pop_front().map_or(Steal::Empty, Steal::Success);
                prop_assert_eq!(stolen(s.steal()), want, "step {}: steal", i);
            }
            Op::Expose(_) => {}
        }
        prop_assert_eq!(d.len(), m.tasks.len(), "step {}: len", i);
        prop_assert_eq!(d.capacity(), m.capacity, "step {}: capacity", i);
        prop_assert_eq!(s.is_empty(), m.tasks.is_empty(), "step {}: is_empty", i);
    }
    Ok(())
}

fn run_locked(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut d: Locked<Task> = Locked::with_capacity(2);
    let s = d.stealer();
    let mut m = VecDeque::new();
    let mut next = 1;
    for (i, op) in ops.iter().enumerate() {
        match op {
            Op::Push => {
                m.push_back(next);
                prop_assert_eq!(d.push(task(next)), Ok(()), "step {}: push", i);
                next += 1;
            }
            Op::Pop | Op::PopPrivate | Op::PopPublicBottom => {
                prop_assert_eq!(got(d.pop()), m.pop_back(), "step {}: pop", i)
            }
            Op::Steal => {
                let want = m.pop_front().map_or(Steal::Empty, Steal::Success);
                prop_assert_eq!(stolen(s.steal()), want, "step {}: steal", i);
            }
            Op::Expose(_) => {}
        }
        prop_assert_eq!(d.len(), m.len(), "step {}: len", i);
        prop_assert_eq!(s.is_empty(), m.is_empty(), "step {}: is_empty", i);
    }
    Ok(())
}

/// The split deque's model: `tasks[..public]` is the public part (front = top), the rest
/// private; indices `[top, top + tasks.len())` of `slots` slots in a row.
struct SplitModel {
    tasks: VecDeque<usize>,
    public: usize,
    top: usize,
    capacity: usize,
    slots: usize,
}

impl SplitModel {
    fn private(&self) -> usize {
        self.tasks.len() - self.public
    }

    fn push(&mut self, v: usize) -> Result<(), usize> {
        // At the last slot: full while a task is public, else the tasks move down to 0.
        if self.top + self.tasks.len() == self.slots {
            if self.public > 0 {
                return Err(v);
            }
            self.top = 0;
        }
        // Full with `capacity` tasks, wherever the indices are (issue 33, defect 3).
        if self.tasks.len() == self.capacity {
            return Err(v);
        }
        self.tasks.push_back(v);
        Ok(())
    }

    fn pop_private(&mut self) -> Option<usize> {
        if self.private() == 0 {
            return None;
        }
        self.tasks.pop_back()
    }

    /// Precondition: empty private part.
    fn pop_public_bottom(&mut self) -> Option<usize> {
        assert_eq!(self.private(), 0);
        let public_bot = self.top + self.public;
        if public_bot == 0 {
            return None;
        }
        if self.public >= 2 {
            self.public -= 1;
            return self.tasks.pop_back();
        }
        // The last public task, or none left: reset.
        self.top = 0;
        self.public = 0;
        self.tasks.pop_back()
    }

    fn steal(&mut self) -> Steal<usize> {
        if self.public > 0 {
            self.public -= 1;
            self.top += 1;
            Steal::Success(self.tasks.pop_front().unwrap())
        } else if self.private() > 0 {
            Steal::PrivateWork
        } else {
            Steal::Empty
        }
    }
}

fn run_split(capacity: usize, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut d: Split<Task> = Split::with_capacity(capacity);
    let s = d.stealer();
    let mut m = SplitModel {
        tasks: VecDeque::new(),
        public: 0,
        top: 0,
        capacity: ring(capacity),
        // The capacity and as many again (the split deque's module doc, "Capacity").
        slots: 2 * ring(capacity),
    };
    prop_assert_eq!(d.capacity(), ring(capacity));
    let mut next = 1;
    for (i, op) in ops.iter().enumerate() {
        match *op {
            Op::Push => {
                let want = m.push(next).map_err(task).map_err(Full);
                prop_assert_eq!(d.push(task(next)), want, "step {}: push", i);
                next += 1;
            }
            Op::Pop => {
                let want = m.pop_private().or_else(|| m.pop_public_bottom());
                prop_assert_eq!(got(d.pop()), want, "step {}: pop", i);
            }
            Op::PopPrivate => {
                prop_assert_eq!(
                    got(d.pop_private()),
                    m.pop_private(),
                    "step {}: pop_private",
                    i
                )
            }
            Op::PopPublicBottom => {
                if m.private() == 0 {
                    let want = m.pop_public_bottom();
                    prop_assert_eq!(got(d.pop_public_bottom()), want, "step {}: ppb", i);
                }
            }
            Op::Steal => prop_assert_eq!(stolen(s.steal()), m.steal(), "step {}: steal", i),
            Op::Expose(how) => {
                let n = how.count(m.private());
                m.public += n;
                prop_assert_eq!(d.expose(how), n, "step {}: expose {:?}", i, how);
            }
        }
        prop_assert_eq!(d.private_len(), m.private(), "step {}: private_len", i);
        prop_assert_eq!(
            s.private_len(),
            m.private(),
            "step {}: thief private_len",
            i
        );
        prop_assert_eq!(d.public_len(), m.public, "step {}: public_len", i);
        prop_assert_eq!(d.len(), m.tasks.len(), "step {}: len", i);
        prop_assert_eq!(s.is_empty(), m.tasks.is_empty(), "step {}: is_empty", i);
    }
    Ok(())
}

proptest! {
    #[test]
    fn abp_matches_model(capacity in 0usize..24, ops in ops()) {
        run_abp(capacity, &ops)?;
    }

    #[test]
    fn chase_lev_matches_model(capacity in 0usize..20, ops in ops()) {
        run_chase_lev(capacity, &ops)?;
    }

    #[test]
    fn locked_matches_model(ops in ops()) {
        run_locked(&ops)?;
    }

    #[test]
    fn split_matches_model(capacity in 0usize..24, ops in ops()) {
        run_split(capacity, &ops)?;
    }
}

/// Long push-heavy runs push Chase-Lev through several grows and shrinks, which short
/// random sequences reach rarely.
#[test]
fn chase_lev_long_grow_and_shrink_cycles() {
    let mut ops = Vec::new();
    for round in 0..6 {
        ops.extend(std::iter::repeat_n(Op::Push, 40 + 10 * round));
        ops.extend(std::iter::repeat_n(Op::Steal, 5));
        ops.extend(std::iter::repeat_n(Op::Pop, 45 + 10 * round));
    }
    run_chase_lev(2, &ops).unwrap();
}

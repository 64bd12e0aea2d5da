//! Panic safety of collecting: when a closure panics part way through a run (at the first
//! item, in the middle, at the last), every item already made is dropped exactly once and
//! every item not yet reached is dropped exactly once, whichever path the items took
//! (written in place into a `Vec`, gathered in pieces, still inside a `Vec`'s
//! `into_par_iter`). Also the early stop of a `Result` collect, which leaves items unread.
//!
//! Each test counts its own live [`Tracked`] values (tests run side by side in this
//! binary), and a value dropped twice is counted (and panics, outside an unwind).

use std::collections::{BTreeMap, LinkedList};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::{everywhere, planned, quiet_planned_panics, unindexed, PLANNED, SMALL_LENGTHS};
use splitsteal::prelude::*;

/// One test's bookkeeping: how many of its values are alive, and how many drops found a
/// value already dropped.
struct Counter {
    live: AtomicUsize,
    double_drops: AtomicUsize,
}

impl Counter {
    const fn new() -> Self {
        Counter {
            live: AtomicUsize::new(0),
            double_drops: AtomicUsize::new(0),
        }
    }

    fn make(&'static self, id: usize) -> Tracked {
        self.live.fetch_add(1, Ordering::SeqCst);
        Tracked {
            id,
            state: ALIVE,
            counter: self,
        }
    }

    /// Checks that nothing leaked and nothing was dropped twice.
    fn assert_clean(&self, context: &str) {
        assert_eq!(
            self.double_drops.load(Ordering::SeqCst),
            0,
            "double drop: {context}"
        );
        assert_eq!(
            self.live.load(Ordering::SeqCst),
            0,
            "leaked values: {context}"
        );
    }
}

const ALIVE: u64 = 0xA11C_E5A1_1CE5_A11C;
const DEAD: u64 = 0xDEAD_DEAD_DEAD_DEAD;

/// A value that counts itself alive in its test's [`Counter`].
struct Tracked {
    id: usize,
    state: u64,
    counter: &'static Counter,
}

impl Clone for Tracked {
    fn clone(&self) -> Self {
        self.counter.make(self.id)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if self.state != ALIVE {
            self.counter.double_drops.fetch_add(1, Ordering::SeqCst);
            if !std::thread::panicking() {
                panic!("Tracked #{} dropped twice", self.id);
            }
            return;
        }
        self.state = DEAD;
        self.counter.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The positions to panic at for a length: the first item, the middle, the last.
fn panic_points(n: usize) -> Vec<usize> {
    if n == 0 {
        Vec::new()
    } else {
        vec![0, n / 2, n - 1]
    }
}

/// Runs `run`, which must panic with [`PLANNED`], then checks the counter is clean.
fn expect_planned_panic(counter: &Counter, context: &str, run: impl FnOnce()) {
    let result = catch_unwind(AssertUnwindSafe(run));
    match result {
        Ok(()) => panic!("no panic: {context}"),
        Err(payload) => assert_eq!(
            payload.downcast_ref::<&str>(),
            Some(&PLANNED),
            "another panic: {context}"
        ),
    }
    counter.assert_clean(context);
}

/// Lengths for these tests: the small awkward ones and one that splits many times.
fn lengths() -> impl Iterator<Item = usize> {
    SMALL_LENGTHS.iter().copied().chain([100_000])
}

#[test]
fn vec_into_par_iter_map_collect_panicking() {
    static COUNTER: Counter = Counter::new();
    quiet_planned_panics();
    everywhere(|| {
        for n in lengths() {
            for k in panic_points(n) {
                let items: Vec<Tracked> = (0..n).map(|i| COUNTER.make(i)).collect();
                expect_planned_panic(&COUNTER, &format!("collect n={n} k={k}"), || {
                    let _: Vec<Tracked> = items
                        .into_par_iter()
                        .map(|t| if t.id == k { planned() } else { t })
                        .collect();
                });
            }
            // And without a panic, everything is collected and dropped once.
            let items: Vec<Tracked> = (0..n).map(|i| COUNTER.make(i)).collect();
            let out: Vec<Tracked> = items.into_par_iter().map(|t| t).collect();
            assert!(out.iter().enumerate().all(|(i, t)| t.id == i));
            drop(out);
            COUNTER.assert_clean("no panic");
        }
    });
}

#[test]
fn collect_into_vec_panicking() {
    static COUNTER: Counter = Counter::new();
    quiet_planned_panics();
    everywhere(|| {
        for n in lengths() {
            for k in panic_points(n) {
                let items: Vec<Tracked> = (0..n).map(|i| COUNTER.make(i)).collect();
                // The target's old items are dropped by the clear, before the run.
                let mut target: Vec<Tracked> = (0..3).map(|i| COUNTER.make(i)).collect();
                let context = format!("collect_into_vec n={n} k={k}");
                expect_planned_panic(&COUNTER, &context, || {
                    items
                        .into_par_iter()
                        .map(|t| if t.id == k { planned() } else { t })
                        .collect_into_vec(&mut target);
                    drop(target);
                });
            }
            // Panicking in a map that makes the values (nothing moves out of a Vec).
            for k in panic_points(n) {
                let mut target = Vec::new();
                let context = format!("collect_into_vec made n={n} k={k}");
                expect_planned_panic(&COUNTER, &context, || {
                    (0..n)
                        .into_par_iter()
                        .map(|i| if i == k { planned() } else { COUNTER.make(i) })
                        .collect_into_vec(&mut target);
                });
                assert!(target.is_empty());
            }
        }
    });
}

#[test]
fn unindexed_collect_panicking() {
    static COUNTER: Counter = Counter::new();
    quiet_planned_panics();
    everywhere(|| {
        for n in lengths() {
            for k in panic_points(n) {
                let source = || unindexed(n);
                let make = |i: usize| {
                    if i == k {
                        planned()
                    }
                    COUNTER.make(i)
                };
                let context = format!("unindexed n={n} k={k}");
                expect_planned_panic(&COUNTER, &context, || {
                    let _: Vec<Tracked> = source().map(make).collect();
                });
                expect_planned_panic(&COUNTER, &context, || {
                    let _: LinkedList<Tracked> = source().map(make).collect();
                });
                expect_planned_panic(&COUNTER, &context, || {
                    let _: BTreeMap<usize, Tracked> = source().map(|i| (i, make(i))).collect();
                });
            }
        }
    });
}

#[test]
fn into_par_iter_dropped_after_a_partial_run() {
    static COUNTER: Counter = Counter::new();
    quiet_planned_panics();
    everywhere(|| {
        for n in lengths() {
            for k in panic_points(n) {
                let items: Vec<Tracked> = (0..n).map(|i| COUNTER.make(i)).collect();
                let context = format!("for_each n={n} k={k}");
                expect_planned_panic(&COUNTER, &context, || {
                    items.into_par_iter().for_each(|t| {
                        if t.id == k {
                            planned()
                        }
                    });
                });
                // A panic in the reduction of two pieces, after both have run.
                let items: Vec<Tracked> = (0..n).map(|i| COUNTER.make(i)).collect();
                let context = format!("reduce n={n} k={k}");
                let _ = k;
                if n >= 2 {
                    expect_planned_panic(&COUNTER, &context, || {
                        items
                            .into_par_iter()
                            .map(|t| vec![t])
                            .reduce(Vec::new, |a, b| {
                                if !a.is_empty() && !b.is_empty() && a[0].id == 0 {
                                    planned()
                                }
                                let mut a = a;
                                a.extend(b);
                                a
                            });
                    });
                } else {
                    drop(items);
                    COUNTER.assert_clean(&context);
                }
            }
            // An iterator made and dropped without running.
            let items: Vec<Tracked> = (0..n).map(|i| COUNTER.make(i)).collect();
            drop(items.into_par_iter().map(|t| t));
            COUNTER.assert_clean("never run");
        }
    });
}

#[test]
fn result_collect_stopping_early_drops_what_it_did_not_read() {
    static COUNTER: Counter = Counter::new();
    everywhere(|| {
        for n in lengths() {
            for k in panic_points(n) {
                let items: Vec<Tracked> = (0..n).map(|i| COUNTER.make(i)).collect();
                let got: Result<Vec<Tracked>, Tracked> = items
                    .into_par_iter()
                    .map(|t| if t.id == k { Err(t) } else { Ok(t) })
                    .collect();
                assert_eq!(got.err().map(|t| t.id), Some(k));
                COUNTER.assert_clean(&format!("result n={n} k={k}"));
            }
        }
    });
}

#[test]
fn unzip_and_partition_panicking() {
    static COUNTER: Counter = Counter::new();
    quiet_planned_panics();
    everywhere(|| {
        for n in lengths() {
            for k in panic_points(n) {
                let items: Vec<Tracked> = (0..n).map(|i| COUNTER.make(i)).collect();
                let context = format!("unzip n={n} k={k}");
                expect_planned_panic(&COUNTER, &context, || {
                    let _: (Vec<Tracked>, Vec<Tracked>) = items
                        .into_par_iter()
                        .map(|t| {
                            if t.id == k {
                                planned()
                            }
                            let twin = t.clone();
                            (t, twin)
                        })
                        .unzip();
                });
                let items: Vec<Tracked> = (0..n).map(|i| COUNTER.make(i)).collect();
                let context = format!("partition n={n} k={k}");
                expect_planned_panic(&COUNTER, &context, || {
                    let _: (Vec<Tracked>, LinkedList<Tracked>) = items
                        .into_par_iter()
                        .map(|t| if t.id == k { planned() } else { t })
                        .partition(|t| t.id % 2 == 0);
                });
            }
        }
    });
}

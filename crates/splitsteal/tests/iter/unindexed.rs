//! The unindexed adaptors (`filter`, `filter_map`, `flat_map*`, `flatten*`, `fold*`,
//! `try_fold*`) and the consumers (`reduce_with`, `try_reduce*`, `for_each_*`,
//! `try_for_each*`, `find_*`, `position_*`, `any`, `all`, `min*`, `max*`) against the
//! sequential `Iterator`, everywhere, including early exit: the searches and the `try_*`
//! consumers must stop the pieces that cannot matter, not just return the right answer.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common::{data, everywhere, LENGTHS, SMALL_LENGTHS};
use splitsteal::prelude::*;

/// The values of `data(n, modulo)` paired with their positions, so that a search result
/// says which of several equal values was returned.
fn indexed(n: usize, modulo: u64) -> Vec<(usize, u64)> {
    data(n, modulo).into_iter().enumerate().collect()
}

// ---- filter, filter_map ----

#[test]
fn filter_and_filter_map_match_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 100);
            let par: Vec<u64> = v.par_iter().filter(|&&x| x % 3 == 0).map(|x| *x).collect();
            let seq: Vec<u64> = v.iter().filter(|&&x| x % 3 == 0).copied().collect();
            assert_eq!(par, seq, "filter n={n}");
            assert_eq!(
                v.par_iter().filter(|&&x| x < 50).count(),
                v.iter().filter(|&&x| x < 50).count(),
                "filter count n={n}"
            );
            let par: Vec<u64> = v
                .par_iter()
                .filter_map(|&x| (x % 7 != 0).then_some(x * 2))
                .collect();
            let seq: Vec<u64> = v
                .iter()
                .filter_map(|&x| (x % 7 != 0).then_some(x * 2))
                .collect();
            assert_eq!(par, seq, "filter_map n={n}");
            let s: u64 = v.par_iter().filter_map(|&x| x.checked_sub(90)).sum();
            assert_eq!(
                s,
                v.iter().filter_map(|&x| x.checked_sub(90)).sum(),
                "n={n}"
            );
            // Nothing kept, everything kept.
            assert_eq!(v.par_iter().filter(|_| false).count(), 0);
            assert_eq!(
                v.clone()
                    .into_par_iter()
                    .filter(|_| true)
                    .collect::<Vec<_>>(),
                v
            );
        }
    });
}

#[test]
fn filters_compose_on_an_unindexed_base() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let par: Vec<usize> = (0..n)
                .into_par_iter()
                .filter(|x| x % 2 == 0)
                .filter_map(|x| (x % 3 != 0).then_some(x + 1))
                .filter(|x| x % 5 != 0)
                .collect();
            let seq: Vec<usize> = (0..n)
                .filter(|x| x % 2 == 0)
                .filter_map(|x| (x % 3 != 0).then_some(x + 1))
                .filter(|x| x % 5 != 0)
                .collect();
            assert_eq!(par, seq, "n={n}");
        }
    });
}

// ---- flat_map, flat_map_iter, flatten, flatten_iter ----

#[test]
fn flat_maps_and_flattens_keep_order() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let len = |i: usize| (i * 7919) % 13; // inner lengths 0..13, some empty
            let seq: Vec<(usize, usize)> = (0..n)
                .flat_map(|i| (0..len(i)).map(move |j| (i, j)))
                .collect();
            let par: Vec<(usize, usize)> = (0..n)
                .into_par_iter()
                .flat_map(|i| (0..len(i)).into_par_iter().map(move |j| (i, j)))
                .collect();
            assert_eq!(par, seq, "flat_map n={n}");
            let par: Vec<(usize, usize)> = (0..n)
                .into_par_iter()
                .flat_map_iter(|i| (0..len(i)).map(move |j| (i, j)))
                .collect();
            assert_eq!(par, seq, "flat_map_iter n={n}");
            let nested: Vec<Vec<(usize, usize)>> = (0..n)
                .map(|i| (0..len(i)).map(|j| (i, j)).collect())
                .collect();
            let par: Vec<(usize, usize)> = nested.clone().into_par_iter().flatten().collect();
            assert_eq!(par, seq, "flatten n={n}");
            let par: Vec<(usize, usize)> = nested.into_par_iter().flatten_iter().collect();
            assert_eq!(par, seq, "flatten_iter n={n}");
            let total: usize = (0..n)
                .into_par_iter()
                .flat_map(|i| (0..len(i)).into_par_iter())
                .sum();
            assert_eq!(total, (0..n).flat_map(|i| 0..len(i)).sum::<usize>());
        }
        // A big inner iterator under a small outer one, and flat_map nested twice.
        let par: Vec<u32> = (0..3u32)
            .into_par_iter()
            .flat_map(|a| {
                (0..100_000u32)
                    .into_par_iter()
                    .map(move |b| a * 100_000 + b)
            })
            .collect();
        assert_eq!(par, (0..300_000).collect::<Vec<_>>());
        let par: Vec<u32> = (0..10u32)
            .into_par_iter()
            .flat_map(|a| {
                (0..10u32).into_par_iter().flat_map(move |b| {
                    (0..10u32)
                        .into_par_iter()
                        .map(move |c| a * 100 + b * 10 + c)
                })
            })
            .collect();
        assert_eq!(par, (0..1000).collect::<Vec<_>>());
    });
}

#[test]
fn flat_map_runs_its_inner_iterators_in_parallel() {
    everywhere(|| {
        // One outer item: a flat_map that folded the inner iterator inside the outer piece
        // would leave one piece, so one fold accumulator. Splitting the inner run gives
        // several on a pool of several threads. On a worker of a one-thread pool no bridge
        // splits (no other worker could take a half), so there it is one piece.
        let pieces: Vec<usize> = vec![()]
            .into_par_iter()
            .flat_map(|()| (0..10_000usize).into_par_iter())
            .fold(|| 0, |count, _| count + 1)
            .collect();
        if splitsteal::current_num_threads() > 1 {
            assert!(pieces.len() > 1, "inner run not split: {pieces:?}");
        } else {
            assert_eq!(pieces.len(), 1, "a one-thread pool split: {pieces:?}");
        }
        assert_eq!(pieces.iter().sum::<usize>(), 10_000);
        // flat_map_iter runs the inner iterator where the outer item is: one piece.
        let pieces: Vec<usize> = vec![()]
            .into_par_iter()
            .flat_map_iter(|()| 0..10_000usize)
            .fold(|| 0, |count, _| count + 1)
            .collect();
        assert_eq!(pieces, [10_000]);
    });
}

// ---- fold, fold_with ----

#[test]
fn fold_then_combine_equals_the_sequential_fold() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let seq: u64 = v.iter().sum();
            let par: u64 = v.par_iter().fold(|| 0u64, |a, x| a + x).sum();
            assert_eq!(par, seq, "fold.sum n={n}");
            let par = v
                .par_iter()
                .fold(|| 0u64, |a, x| a + x)
                .reduce(|| 0, |a, b| a + b);
            assert_eq!(par, seq, "fold.reduce n={n}");
            let par: u64 = v.par_iter().fold_with(0u64, |a, x| a + x).sum();
            assert_eq!(par, seq, "fold_with.sum n={n}");
            // Per-piece lists concatenated in order give back the input: the accumulators
            // come out in order and no item is folded twice or dropped.
            if n <= 10_007 {
                let pieces: Vec<Vec<u64>> = v
                    .par_iter()
                    .fold(Vec::new, |mut acc, &x| {
                        acc.push(x);
                        acc
                    })
                    .collect();
                assert_eq!(pieces.concat(), v, "fold pieces n={n}");
                let joined = v
                    .par_iter()
                    .fold_with(Vec::new(), |mut acc, &x| {
                        acc.push(x);
                        acc
                    })
                    .reduce(Vec::new, |mut a, mut b| {
                        a.append(&mut b);
                        a
                    });
                assert_eq!(joined, v, "fold_with pieces n={n}");
            }
        }
        // On an unindexed base too.
        let odd_sum: u64 = (0..10_007u64)
            .into_par_iter()
            .filter(|x| x % 2 == 1)
            .fold(|| 0, |a, x| a + x)
            .sum();
        assert_eq!(odd_sum, (0..10_007u64).filter(|x| x % 2 == 1).sum());
    });
}

// ---- try_fold, try_fold_with ----

#[test]
fn try_fold_matches_sequential_and_stops_each_piece() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let seq: u64 = v.iter().sum();
            let par = v
                .par_iter()
                .try_fold(|| 0u64, |a, &x| a.checked_add(x))
                .try_reduce(|| 0, |a, b| a.checked_add(b));
            assert_eq!(par, Some(seq), "try_fold n={n}");
            let par: Result<u64, ()> = v
                .par_iter()
                .try_fold_with(0u64, |a, &x| Ok(a + x))
                .try_reduce(|| 0, |a, b| Ok(a + b));
            assert_eq!(par, Ok(seq), "try_fold_with n={n}");
            // Overflow of a u8 accumulator in whichever piece: the result is the failure.
            if n >= 1009 {
                let par = v
                    .par_iter()
                    .map(|&x| (x % 200) as u8)
                    .try_fold(|| 0u8, |a, x| a.checked_add(x))
                    .try_reduce(|| 0, |a, b| a.checked_add(b));
                assert_eq!(par, None, "n={n}");
            }
        }
        // Each piece's result is its own fold, stopped at its first failure: folding
        // 0..n with a failure at 5 yields an Err piece and Ok pieces, which concatenate to
        // exactly one Err.
        let results: Vec<Result<usize, usize>> = (0..1009usize)
            .into_par_iter()
            .try_fold(|| 0, |a, x| if x == 5 { Err(x) } else { Ok(a + x) })
            .collect();
        assert_eq!(results.iter().filter(|r| r.is_err()).count(), 1);
        assert!(results.contains(&Err(5)));
        // ControlFlow works as the Try type too.
        let flow = (0..100u32)
            .into_par_iter()
            .try_fold(
                || 0u32,
                |a, x| {
                    if x == 77 {
                        ControlFlow::Break(x)
                    } else {
                        ControlFlow::Continue(a + x)
                    }
                },
            )
            .try_reduce(|| 0, |a, b| ControlFlow::Continue(a + b));
        assert_eq!(flow, ControlFlow::Break(77));
    });
}

// ---- reduce_with ----

#[test]
fn reduce_with_matches_sequential_and_keeps_order() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let par = v.par_iter().map(|x| *x).reduce_with(|a, b| a + b);
            assert_eq!(par, v.iter().copied().reduce(|a, b| a + b), "n={n}");
            if n <= 10_007 {
                // Concatenation: associative, not commutative.
                let par = (0..n)
                    .into_par_iter()
                    .map(|i| vec![i])
                    .reduce_with(|mut a, mut b| {
                        a.append(&mut b);
                        a
                    });
                assert_eq!(par, (n > 0).then(|| (0..n).collect::<Vec<_>>()), "n={n}");
            }
        }
        // Through a filter that leaves most pieces empty.
        let par = (0..100_000u64)
            .into_par_iter()
            .filter(|&x| x == 12_345 || x == 99_999)
            .reduce_with(|a, b| a * 10 + b % 10);
        assert_eq!(par, Some(12_345 * 10 + 9));
    });
}

// ---- try_reduce, try_reduce_with ----

#[test]
fn try_reduce_ok_equals_sequential_and_errors_come_from_the_input() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let seq: u64 = v.iter().sum();
            let par: Result<u64, usize> = v
                .par_iter()
                .map(|&x| Ok(x))
                .try_reduce(|| 0, |a, b| Ok(a + b));
            assert_eq!(par, Ok(seq), "n={n}");
            let par = v
                .par_iter()
                .map(|&x| Ok::<u64, usize>(x))
                .try_reduce_with(|a, b| Ok(a + b));
            assert_eq!(par, (n > 0).then_some(Ok(seq)), "try_reduce_with n={n}");
            let par = v
                .par_iter()
                .map(|&x| Some(x))
                .try_reduce(|| 0, |a, b| Some(a + b));
            assert_eq!(par, Some(seq), "n={n}");

            // Errors at every 1000th position (from 37): one of them is returned.
            let bad = |i: usize| i % 1000 == 37;
            let errors: HashSet<usize> = (0..n).filter(|&i| bad(i)).collect();
            let fallible = |i: usize| if bad(i) { Err(i) } else { Ok(v[i]) };
            let par: Result<u64, usize> = (0..n)
                .into_par_iter()
                .map(fallible)
                .try_reduce(|| 0, |a, b| Ok(a + b));
            match par {
                Ok(total) => {
                    assert!(errors.is_empty(), "missed an error, n={n}");
                    assert_eq!(total, seq);
                }
                Err(i) => {
                    assert!(errors.contains(&i), "n={n}: {i} is no error");
                    if splitsteal::current_num_threads() == 1 {
                        // Left before right on one thread: the first error stops the rest.
                        assert_eq!(i, 37);
                    }
                }
            }
            let par = (0..n)
                .into_par_iter()
                .map(fallible)
                .try_reduce_with(|a, b| Ok(a + b));
            match par {
                None => assert_eq!(n, 0),
                Some(Ok(total)) => {
                    assert!(errors.is_empty());
                    assert_eq!(total, seq);
                }
                Some(Err(i)) => assert!(errors.contains(&i), "n={n}: {i} is no error"),
            }
        }
        // The combining operator itself can fail.
        let par = (0..=100u8)
            .into_par_iter()
            .map(Some)
            .try_reduce(|| 0, |a, b| a.checked_add(b));
        assert_eq!(par, None);
        let par = (0..=22u8)
            .into_par_iter()
            .map(Some)
            .try_reduce_with(|a, b| a.checked_add(b));
        assert_eq!(par, Some(Some(253)));
    });
}

// ---- for_each_with, for_each_init ----

#[test]
fn for_each_with_and_init_visit_every_item_once() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let seen: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            // Each piece's state is its own clone: pushing to it never shows another
            // piece's items.
            (0..n)
                .into_par_iter()
                .for_each_with(Vec::new(), |local: &mut Vec<usize>, i| {
                    seen[i].fetch_add(1, Ordering::Relaxed);
                    assert!(local.last().is_none_or(|&last| last < i), "state shared");
                    local.push(i);
                });
            assert!(
                seen.iter().all(|c| c.swap(0, Ordering::Relaxed) == 1),
                "n={n}"
            );

            let inits = AtomicUsize::new(0);
            (0..n).into_par_iter().for_each_init(
                || {
                    inits.fetch_add(1, Ordering::Relaxed);
                    0usize
                },
                |count, i| {
                    *count += 1;
                    seen[i].fetch_add(1, Ordering::Relaxed);
                },
            );
            assert!(seen.iter().all(|c| c.load(Ordering::Relaxed) == 1), "n={n}");
            let inits = inits.into_inner();
            // One state per piece: at least one, and far fewer than items on long inputs.
            assert!(
                inits >= 1 && (n < 1000 || inits < n / 10),
                "n={n}: {inits} inits"
            );
        }
    });
}

// ---- try_for_each, try_for_each_with, try_for_each_init ----

#[test]
fn try_for_each_family_ok_and_errors() {
    everywhere(|| {
        for &n in LENGTHS {
            let bad = |i: usize| i % 4099 == 100;
            let errors: HashSet<usize> = (0..n).filter(|&i| bad(i)).collect();
            let check = |r: Result<(), usize>, what: &str| match r {
                Ok(()) => assert!(errors.is_empty(), "{what} n={n}: missed an error"),
                Err(i) => {
                    assert!(errors.contains(&i), "{what} n={n}: {i} is no error");
                    if splitsteal::current_num_threads() == 1 {
                        assert_eq!(i, 100, "{what}: one thread returns the first error");
                    }
                }
            };
            let visited = AtomicUsize::new(0);
            let r = (0..n).into_par_iter().try_for_each(|i| {
                visited.fetch_add(1, Ordering::Relaxed);
                if bad(i) {
                    Err(i)
                } else {
                    Ok(())
                }
            });
            check(r, "try_for_each");
            if errors.is_empty() {
                assert_eq!(
                    visited.load(Ordering::Relaxed),
                    n,
                    "every item when no error"
                );
            }
            let r = (0..n)
                .into_par_iter()
                .try_for_each_with(
                    7usize,
                    |seven, i| if bad(i + *seven - 7) { Err(i) } else { Ok(()) },
                );
            check(r, "try_for_each_with");
            let r = (0..n).into_par_iter().try_for_each_init(
                || 3usize,
                |three, i| {
                    *three += 1;
                    if bad(i) {
                        Err(i)
                    } else {
                        Ok(())
                    }
                },
            );
            check(r, "try_for_each_init");
            // Option and ControlFlow.
            let r: Option<()> = (0..n)
                .into_par_iter()
                .try_for_each(|i| (!bad(i)).then_some(()));
            assert_eq!(r.is_none(), !errors.is_empty(), "n={n}");
            let r = (0..n).into_par_iter().try_for_each(|i| {
                if bad(i) {
                    ControlFlow::Break(i)
                } else {
                    ControlFlow::Continue(())
                }
            });
            match r {
                ControlFlow::Continue(()) => assert!(errors.is_empty()),
                ControlFlow::Break(i) => assert!(errors.contains(&i)),
            }
        }
    });
}

// ---- find_*, position_*, any, all ----

#[test]
fn finds_and_positions_match_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            // Values below 50: most targets occur many times, so first / last / any differ.
            let v = indexed(n, 50);
            for target in [0u64, 13, 49, 50] {
                let is = |p: &&(usize, u64)| p.1 == target;
                let first = v.iter().find(is);
                let last = v.iter().rev().find(is);
                assert_eq!(v.par_iter().find_first(is), first, "n={n} t={target}");
                assert_eq!(v.par_iter().find_last(is), last, "n={n} t={target}");
                let any = v.par_iter().find_any(is);
                assert_eq!(any.is_some(), first.is_some(), "n={n} t={target}");
                if let Some(p) = any {
                    assert_eq!(p.1, target);
                }
                let pos_first = v.iter().position(|p| p.1 == target);
                let pos_last = v.iter().rposition(|p| p.1 == target);
                assert_eq!(v.par_iter().position_first(|p| p.1 == target), pos_first);
                assert_eq!(v.par_iter().position_last(|p| p.1 == target), pos_last);
                match v.par_iter().position_any(|p| p.1 == target) {
                    Some(i) => assert_eq!(v[i].1, target, "n={n}"),
                    None => assert_eq!(pos_first, None, "n={n}"),
                }
                assert_eq!(v.par_iter().any(|p| p.1 == target), first.is_some());
                assert_eq!(v.par_iter().all(|p| p.1 != target), first.is_none());

                // The same searches on an unindexed base (filter keeps positions' order).
                let f = || v.par_iter().filter(|p| p.0 % 3 != 1);
                let seq = || v.iter().filter(|p| p.0 % 3 != 1);
                assert_eq!(f().find_first(is), seq().find(is), "filter n={n}");
                assert_eq!(f().find_last(is), seq().rev().find(is), "filter n={n}");
                let want = |p: &(usize, u64)| (p.1 == target).then_some(p.0);
                assert_eq!(v.par_iter().find_map_first(want), v.iter().find_map(want));
                assert_eq!(
                    v.par_iter().find_map_last(want),
                    v.iter().rev().find_map(want)
                );
                assert_eq!(
                    v.par_iter().find_map_any(want).is_some(),
                    v.iter().find_map(want).is_some()
                );
            }
            assert!(v.par_iter().all(|p| p.1 < 50));
            assert!(!v.par_iter().any(|p| p.1 >= 50));
        }
    });
}

#[test]
fn find_first_and_last_through_flat_map() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let rows = n / 7 + 1;
            let seq: Vec<(usize, usize)> = (0..rows)
                .flat_map(|r| (0..(r * 31) % 17).map(move |c| (r, c)))
                .collect();
            let par = || {
                (0..rows)
                    .into_par_iter()
                    .flat_map(|r| (0..(r * 31) % 17).into_par_iter().map(move |c| (r, c)))
            };
            for col in [0, 5, 16, 17] {
                let is = |p: &(usize, usize)| p.1 == col;
                assert_eq!(par().find_first(is), seq.iter().copied().find(is), "n={n}");
                assert_eq!(
                    par().find_last(is),
                    seq.iter().copied().rev().find(is),
                    "n={n}"
                );
            }
        }
    });
}

/// Some work per item, so that a piece running alone while its neighbour is descheduled
/// gets through few items, and the early-stop counts below are stable on a busy machine.
fn work(x: usize) -> usize {
    let mut h = x;
    for _ in 0..256 {
        h = std::hint::black_box(h.wrapping_mul(31).wrapping_add(7));
    }
    h
}

/// Runs `search` over `0..n` with a visit counter, and checks it visited little: on one
/// thread exactly `limit_serial` items at most (left runs first, then the right pieces see
/// the stop before they start), elsewhere under a quarter of the input.
fn assert_stops_early(what: &str, limit_serial: usize, search: impl Fn(&AtomicUsize, usize)) {
    let n = 200_000;
    let visited = AtomicUsize::new(0);
    search(&visited, n);
    let visited = visited.into_inner();
    if splitsteal::current_num_threads() == 1 {
        assert!(
            visited <= limit_serial,
            "{what}: visited {visited} on one thread"
        );
    } else {
        assert!(visited < n / 4, "{what}: visited {visited} of {n}");
    }
}

/// `range` as a parallel iterator that counts the items it yields in `visited`.
fn counted_range(
    visited: &AtomicUsize,
    range: std::ops::Range<usize>,
) -> impl IndexedParallelIterator<Item = usize> + '_ {
    range.into_par_iter().map(move |i| {
        visited.fetch_add(1, Ordering::Relaxed);
        std::hint::black_box(work(i));
        i
    })
}

fn counted(visited: &AtomicUsize, n: usize) -> impl IndexedParallelIterator<Item = usize> + '_ {
    counted_range(visited, 0..n)
}

#[test]
fn searches_and_try_consumers_stop_early() {
    everywhere(|| {
        let hit = 10;
        assert_stops_early("find_first", hit + 1, |c, n| {
            assert_eq!(
                counted(c, n).find_first(|&i| i == hit || i > n / 2),
                Some(hit)
            );
        });
        assert_stops_early("find_any", hit + 1, |c, n| {
            assert_eq!(counted(c, n).find_any(|&i| i == hit), Some(hit));
        });
        assert_stops_early("position_first", hit + 1, |c, n| {
            assert_eq!(counted(c, n).position_first(|i| i % 1000 == hit), Some(hit));
        });
        assert_stops_early("position_any", hit + 1, |c, n| {
            assert_eq!(counted(c, n).position_any(|i| i == hit), Some(hit));
        });
        assert_stops_early("any", hit + 1, |c, n| {
            assert!(counted(c, n).any(|i| i == hit));
        });
        assert_stops_early("all", hit + 1, |c, n| {
            assert!(!counted(c, n).all(|i| i != hit));
        });
        assert_stops_early("find_first through filter", hit + 1, |c, n| {
            let found = counted(c, n)
                .filter(|i| i % 2 == 0)
                .find_first(|&i| i >= hit);
            assert_eq!(found, Some(hit));
        });
        // Every item after the match is rejected: the search must still stop, though the
        // filter passes nothing more on to the searching folder.
        assert_stops_early(
            "find_first through a filter rejecting the rest",
            hit + 1,
            |c, n| {
                let found = counted(c, n).filter(|&i| i == hit).find_first(|_| true);
                assert_eq!(found, Some(hit));
            },
        );
        assert_stops_early(
            "find_any through a filter rejecting the rest",
            hit + 1,
            |c, n| {
                let found = counted(c, n).filter(|&i| i == hit).find_any(|_| true);
                assert_eq!(found, Some(hit));
            },
        );
        assert_stops_early("find_first through flat_map", hit + 1, |c, n| {
            // Rows of 1000: the inner runs must stop too, and the later rows not start.
            let found = (0..n / 1000)
                .into_par_iter()
                .flat_map(|r| counted_range(c, r * 1000..(r + 1) * 1000))
                .find_first(|&i| i == hit);
            assert_eq!(found, Some(hit));
        });
        assert_stops_early("try_for_each", hit + 1, |c, n| {
            let r = counted(c, n).try_for_each(|i| if i == hit { Err(i) } else { Ok(()) });
            assert_eq!(r, Err(hit));
        });
        assert_stops_early("try_for_each_init", hit + 1, |c, n| {
            let r = counted(c, n).try_for_each_init(|| (), |_, i| (i != hit).then_some(()));
            assert_eq!(r, None);
        });
        assert_stops_early("try_reduce", hit + 1, |c, n| {
            let r = counted(c, n)
                .map(|i| if i == hit { Err(i) } else { Ok(i) })
                .try_reduce(|| 0, |a, b| Ok(a + b));
            assert_eq!(r, Err(hit));
        });
        assert_stops_early("try_reduce_with", hit + 1, |c, n| {
            let r = counted(c, n)
                .map(|i| if i == hit { None } else { Some(i) })
                .try_reduce_with(|a, b| Some(a + b));
            assert_eq!(r, Some(None));
        });
    });
}

/// A piece whose items `filter` rejects stops once a piece to its left has found the
/// first match, though the filter never passes it an item to look at `full()` with: the
/// left piece holds its match back until the right half is stolen and running.
#[test]
fn filter_rejecting_a_whole_piece_stops_at_a_match_on_its_left() {
    let (n, hit) = (200_000, 10);
    let right_started = AtomicBool::new(false);
    let right_visited = AtomicUsize::new(0);
    let pool = splitsteal::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    let found = pool.install(|| {
        (0..n)
            .into_par_iter()
            .with_min_len(n / 2)
            .map(|i| {
                if i >= n / 2 {
                    // Relaxed: flags and counters only; `install` orders the final read.
                    right_started.store(true, Ordering::Relaxed);
                    right_visited.fetch_add(1, Ordering::Relaxed);
                    std::hint::black_box(work(i));
                } else if i == hit {
                    // Where no thief takes the right half within the wait, it is skipped
                    // whole and the assertion below holds trivially.
                    let start = Instant::now();
                    while !right_started.load(Ordering::Relaxed)
                        && start.elapsed() < Duration::from_secs(2)
                    {
                        std::thread::yield_now();
                    }
                }
                i
            })
            .filter(|&i| i == hit)
            .find_first(|_| true)
    });
    assert_eq!(found, Some(hit));
    let right = right_visited.into_inner();
    assert!(
        right < n / 4,
        "the right half ran through {right} of its {} items after the match",
        n / 2
    );
}

// ---- min, max ----

#[test]
fn min_max_match_sequential_including_ties() {
    everywhere(|| {
        for &n in LENGTHS {
            // Few distinct keys: many ties at the minimum and the maximum.
            let v = indexed(n, 10);
            let key = |p: &&(usize, u64)| p.1;
            assert_eq!(
                v.par_iter().min_by_key(key),
                v.iter().min_by_key(key),
                "n={n}"
            );
            assert_eq!(
                v.par_iter().max_by_key(key),
                v.iter().max_by_key(key),
                "n={n}"
            );
            let by = |a: &&(usize, u64), b: &&(usize, u64)| a.1.cmp(&b.1);
            assert_eq!(v.par_iter().min_by(by), v.iter().min_by(by), "n={n}");
            assert_eq!(v.par_iter().max_by(by), v.iter().max_by(by), "n={n}");
            let w = data(n, 1000);
            assert_eq!(w.par_iter().min(), w.iter().min(), "n={n}");
            assert_eq!(w.par_iter().max(), w.iter().max(), "n={n}");
            if let (Some(lo), Some(hi)) =
                (v.par_iter().min_by_key(key), v.par_iter().max_by_key(key))
            {
                // std's convention, spelled out: first of the minima, last of the maxima.
                assert_eq!(lo.0, v.iter().position(|p| p.1 == lo.1).unwrap());
                assert_eq!(hi.0, v.iter().rposition(|p| p.1 == hi.1).unwrap());
            }
        }
        // `Ord` ties between values that are equal but distinguishable.
        #[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
        struct Key(u8);
        let items: Vec<(Key, usize)> = (0..10_007).map(|i| (Key((i % 3) as u8), i)).collect();
        let cmp_key = |a: &&(Key, usize), b: &&(Key, usize)| a.0.cmp(&b.0);
        assert_eq!(items.par_iter().min_by(cmp_key), Some(&(Key(0), 0)));
        assert_eq!(items.par_iter().max_by(cmp_key), Some(&(Key(2), 10_004)));
        // On an unindexed base.
        let m = (0..10_007u32)
            .into_par_iter()
            .filter(|x| x % 7 == 3)
            .min_by_key(|x| x % 5);
        assert_eq!(
            m,
            (0..10_007u32).filter(|x| x % 7 == 3).min_by_key(|x| x % 5)
        );
        let m = (0..10_007u32)
            .into_par_iter()
            .filter(|x| x % 7 == 3)
            .max_by_key(|x| x % 5);
        assert_eq!(
            m,
            (0..10_007u32).filter(|x| x % 7 == 3).max_by_key(|x| x % 5)
        );
    });
}

/// A piece's `fold` stops consuming once another piece has filled the consumer it feeds
/// (`find_any` found something): piece B is stolen and folds slowly while piece A, which
/// waits until B has started, completes and is found.
#[test]
fn fold_stops_a_piece_once_another_piece_fills_the_consumer() {
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};
    let pool = splitsteal::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let n = 2000usize;
    let (b_started, b_items) = (AtomicBool::new(false), AtomicUsize::new(0));
    let found = pool.install(|| {
        (0..n)
            .into_par_iter()
            .with_min_len(n / 2)
            .fold(
                || 0usize,
                |acc, x| {
                    if x < n / 2 {
                        // Piece A: let B start beside it (bounded), then finish at once.
                        let t = Instant::now();
                        while x == 0
                            && !b_started.load(Ordering::SeqCst)
                            && t.elapsed() < Duration::from_secs(5)
                        {
                            std::thread::yield_now();
                        }
                    } else {
                        b_started.store(true, Ordering::SeqCst);
                        b_items.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    acc + 1
                },
            )
            .find_any(|_| true)
    });
    assert!(found.is_some());
    let b = b_items.load(Ordering::SeqCst);
    assert!(
        b < 200,
        "piece B consumed {b} of {} items after A filled the consumer",
        n / 2
    );
}

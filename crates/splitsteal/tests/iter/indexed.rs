//! The indexed adaptors (`enumerate`, `zip`, `zip_eq`, `chain`, `rev`, `skip`, `take`,
//! `step_by`, `chunks`, `with_min_len`, `with_max_len`) and the per-item ones (`cloned`,
//! `copied`, `inspect`, `update`, `map_with`, `map_init`) against the sequential
//! `Iterator` doing the same thing, at the awkward lengths, everywhere.
//!
//! Each adaptor is run three ways: `collect` (in place through the producer when the
//! length is known), `collect_into_vec` (the indexed consumer through `drive`), and on top
//! of a truly unindexed source (the consumer wrappers, and `split_off_left`).

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::common::{data, everywhere, LENGTHS, SMALL_LENGTHS};
use splitsteal::iter::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use splitsteal::prelude::*;

/// A source with no known length that splits in halves: drives the consumer wrappers
/// through `split_off_left`, as `filter` or `par_bridge` would.
struct Unindexed(Range<u64>);

struct Halves(Range<u64>);

impl UnindexedProducer for Halves {
    type Item = u64;

    fn split(self) -> (Self, Option<Self>) {
        let Range { start, end } = self.0;
        if end - start < 2 {
            return (self, None);
        }
        let mid = start + (end - start) / 2;
        (Halves(start..mid), Some(Halves(mid..end)))
    }

    fn fold_with<F: Folder<u64>>(self, folder: F) -> F {
        folder.consume_iter(self.0)
    }
}

impl ParallelIterator for Unindexed {
    type Item = u64;

    fn drive_unindexed<C: UnindexedConsumer<u64>>(self, consumer: C) -> C::Result {
        bridge_unindexed(Halves(self.0), consumer)
    }
}

fn unindexed(n: usize) -> Unindexed {
    Unindexed(0..n as u64)
}

/// `collect` and `collect_into_vec` of an indexed iterator, both checked against `expect`
/// (and its `len`/`opt_len`).
fn check_indexed<I>(make: impl Fn() -> I, expect: &[I::Item], what: &str)
where
    I: IndexedParallelIterator,
    I::Item: PartialEq + std::fmt::Debug,
{
    let it = make();
    assert_eq!(it.len(), expect.len(), "{what}: len");
    assert_eq!(it.opt_len(), Some(expect.len()), "{what}: opt_len");
    let collected: Vec<I::Item> = it.collect();
    assert_eq!(collected, expect, "{what}: collect");
    let mut into = Vec::new();
    make().collect_into_vec(&mut into);
    assert_eq!(into, expect, "{what}: collect_into_vec");
}

/// Awkward counts for a length `n`: none, half, all, and more than all (only half at the
/// largest length, to keep the file within its time budget).
fn counts(n: usize) -> Vec<usize> {
    pick(n, vec![0, n / 2, n, n + 1, usize::MAX], vec![n / 2])
}

/// The variants to try at length `n`: all of them below a million items, a few above.
fn pick<T>(n: usize, all: Vec<T>, big: Vec<T>) -> Vec<T> {
    if n < 1_000_000 {
        all
    } else {
        big
    }
}

#[test]
fn enumerate_matches_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let seq: Vec<(usize, &u64)> = v.iter().enumerate().collect();
            check_indexed(|| v.par_iter().enumerate(), &seq, &format!("n={n}"));
            for k in counts(n) {
                let seq: Vec<(usize, &u64)> = v.iter().skip(k).enumerate().collect();
                check_indexed(|| v.par_iter().skip(k).enumerate(), &seq, "skip.enumerate");
            }
            // Indices from the back must belong to the items from the back.
            let seq: Vec<(usize, &u64)> = v.iter().enumerate().rev().collect();
            check_indexed(|| v.par_iter().enumerate().rev(), &seq, "enumerate.rev");
            let seq: Vec<(usize, &u64)> = v.iter().rev().enumerate().collect();
            check_indexed(|| v.par_iter().rev().enumerate(), &seq, "rev.enumerate");
            let weighted: u64 = v.par_iter().enumerate().map(|(i, x)| i as u64 * x).sum();
            assert_eq!(
                weighted,
                v.iter().enumerate().map(|(i, x)| i as u64 * x).sum::<u64>()
            );
        }
    });
}

#[test]
fn zip_is_as_long_as_the_shorter_side() {
    everywhere(|| {
        for &n in LENGTHS {
            let a = data(n, 1000);
            for m in pick(n, vec![0, n / 2, n, n + 3], vec![n / 2]) {
                let b: Vec<u32> = (0..m as u32).collect();
                let seq: Vec<(&u64, &u32)> = a.iter().zip(&b).collect();
                check_indexed(|| a.par_iter().zip(&b), &seq, &format!("n={n} m={m}"));
                let seq: Vec<(&u32, &u64)> = b.iter().zip(&a).collect();
                check_indexed(|| b.par_iter().zip(&a), &seq, "swapped");
                // From the back, the longer side must be cut to the shorter first.
                let seq: Vec<(&u64, &u32)> = a.iter().zip(&b).rev().collect();
                check_indexed(|| a.par_iter().zip(&b).rev(), &seq, "zip.rev");
                let seq: Vec<(&u64, &u32)> = a.iter().rev().zip(b.iter().rev()).collect();
                check_indexed(
                    || a.par_iter().rev().zip(b.par_iter().rev()),
                    &seq,
                    "rev.zip(rev)",
                );
                let seq: Vec<(usize, (&u64, &u32))> = a.iter().zip(&b).enumerate().collect();
                check_indexed(|| a.par_iter().zip(&b).enumerate(), &seq, "zip.enumerate");
                // Owned `Vec` sides: the surplus of the longer one is dropped, not leaked.
                let seq: Vec<(u64, u32)> = a.iter().copied().zip(b.iter().copied()).collect();
                let owned: Vec<(u64, u32)> = a.clone().into_par_iter().zip(b.clone()).collect();
                assert_eq!(owned, seq);
            }
        }
    });
}

#[test]
fn zip_eq_checks_lengths() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let a = data(n, 1000);
            let b: Vec<usize> = (0..n).collect();
            let seq: Vec<(&u64, &usize)> = a.iter().zip(&b).collect();
            check_indexed(|| a.par_iter().zip_eq(&b), &seq, &format!("n={n}"));
            let seq: Vec<(&u64, &usize)> = a.iter().zip(&b).rev().collect();
            check_indexed(|| a.par_iter().zip_eq(&b).rev(), &seq, "zip_eq.rev");
            let short = &b[..n.saturating_sub(1)];
            let long: Vec<usize> = (0..n + 1).collect();
            for other in [short, &long[..]] {
                if other.len() == n {
                    continue;
                }
                let r = catch_unwind(AssertUnwindSafe(|| a.par_iter().zip_eq(other).count()));
                assert!(
                    r.is_err(),
                    "zip_eq of {n} and {} did not panic",
                    other.len()
                );
            }
        }
    });
}

#[test]
fn chain_keeps_order_indexed_and_not() {
    everywhere(|| {
        for &n in LENGTHS {
            let a = data(n, 1000);
            for m in pick(n, vec![0, 1, n / 3, n], vec![n / 3]) {
                let b = data(m, 7);
                let seq: Vec<&u64> = a.iter().chain(&b).collect();
                check_indexed(|| a.par_iter().chain(&b), &seq, &format!("n={n} m={m}"));
                let seq: Vec<&u64> = b.iter().chain(&a).collect();
                check_indexed(|| b.par_iter().chain(&a), &seq, "swapped");
                // Producer path: splits that fall in either side, from either end.
                let seq: Vec<&u64> = a.iter().chain(&b).rev().collect();
                check_indexed(|| a.par_iter().chain(&b).rev(), &seq, "chain.rev");
                let k = (n + m) / 2;
                let seq: Vec<(usize, &u64)> = a.iter().chain(&b).skip(k).enumerate().collect();
                check_indexed(
                    || a.par_iter().chain(&b).skip(k).enumerate(),
                    &seq,
                    "chain.skip.enumerate",
                );
                let seq: Vec<&u64> = a.iter().chain(&b).step_by(3).collect();
                check_indexed(|| a.par_iter().chain(&b).step_by(3), &seq, "chain.step_by");
                let owned: Vec<u64> = a.clone().into_par_iter().chain(b.clone()).collect();
                assert_eq!(owned, a.iter().chain(&b).copied().collect::<Vec<_>>());
                // Unindexed on either side: no length, pieces appended in order.
                let expect: Vec<u64> = (0..n as u64).chain(b.iter().copied()).collect();
                let left_unindexed = unindexed(n).chain(b.par_iter().copied());
                assert_eq!(left_unindexed.opt_len(), None);
                assert_eq!(left_unindexed.collect::<Vec<_>>(), expect);
                let expect: Vec<u64> = b.iter().copied().chain(0..n as u64).collect();
                let right_unindexed = b.par_iter().copied().chain(unindexed(n));
                assert_eq!(right_unindexed.opt_len(), None);
                assert_eq!(right_unindexed.collect::<Vec<_>>(), expect);
            }
        }
        let empty: Vec<u8> = Vec::new();
        let both: Vec<&u8> = empty.par_iter().chain(&empty).collect();
        assert!(both.is_empty());
    });
}

#[test]
fn rev_matches_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, u64::MAX);
            let seq: Vec<&u64> = v.iter().rev().collect();
            check_indexed(|| v.par_iter().rev(), &seq, &format!("n={n}"));
            let seq: Vec<&u64> = v.iter().collect();
            check_indexed(|| v.par_iter().rev().rev(), &seq, "rev.rev");
            let seq: Vec<u64> = v.iter().rev().copied().collect();
            check_indexed(|| v.clone().into_par_iter().rev(), &seq, "owned rev");
            let k = n / 3;
            let seq: Vec<&u64> = v.iter().rev().skip(k).take(k + 1).collect();
            check_indexed(
                || v.par_iter().rev().skip(k).take(k + 1),
                &seq,
                "rev.skip.take",
            );
        }
    });
}

#[test]
fn skip_and_take_at_every_awkward_count() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            for k in counts(n) {
                let seq: Vec<&u64> = v.iter().skip(k).collect();
                check_indexed(|| v.par_iter().skip(k), &seq, &format!("skip n={n} k={k}"));
                let seq: Vec<&u64> = v.iter().take(k).collect();
                check_indexed(|| v.par_iter().take(k), &seq, &format!("take n={n} k={k}"));
                let seq: Vec<&u64> = v.iter().skip(k / 2).take(k).collect();
                check_indexed(|| v.par_iter().skip(k / 2).take(k), &seq, "skip.take");
                let seq: Vec<&u64> = v.iter().take(k).skip(n / 4).collect();
                check_indexed(|| v.par_iter().take(k).skip(n / 4), &seq, "take.skip");
                let sum: u64 = v.par_iter().skip(k).sum();
                assert_eq!(sum, v.iter().skip(k).sum::<u64>());
            }
        }
    });
}

/// Counts live values, to show that `skip`, `take` and `zip` on owned items drop every
/// item exactly once, including the ones they cut off.
struct Tracked<'a>(&'a AtomicUsize);

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

#[test]
fn cut_off_owned_items_are_dropped_once() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let live = AtomicUsize::new(0);
            let make = |len: usize| -> Vec<Tracked<'_>> {
                live.fetch_add(len, Ordering::Relaxed);
                (0..len).map(|_| Tracked(&live)).collect()
            };
            assert_eq!(make(n).into_par_iter().skip(n / 2).count(), n - n / 2);
            let kept: Vec<Tracked<'_>> = make(n).into_par_iter().take(n / 3).collect();
            assert_eq!(kept.len(), n / 3);
            drop(kept);
            let zipped: Vec<_> = make(n).into_par_iter().zip(make(n / 2)).collect();
            assert_eq!(zipped.len(), n / 2);
            drop(zipped);
            let chunked: Vec<Vec<_>> = make(n).into_par_iter().rev().chunks(4).collect();
            assert_eq!(chunked.len(), n.div_ceil(4));
            drop(chunked);
            assert_eq!(live.load(Ordering::Relaxed), 0, "n={n}");
        }
    });
}

#[test]
fn step_by_matches_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            for step in pick(n, vec![1, 2, 3, 1000], vec![3]) {
                let seq: Vec<&u64> = v.iter().step_by(step).collect();
                check_indexed(
                    || v.par_iter().step_by(step),
                    &seq,
                    &format!("n={n} {step}"),
                );
                let seq: Vec<&u64> = v.iter().step_by(step).rev().collect();
                check_indexed(|| v.par_iter().step_by(step).rev(), &seq, "step_by.rev");
                let seq: Vec<&u64> = v.iter().rev().step_by(step).collect();
                check_indexed(|| v.par_iter().rev().step_by(step), &seq, "rev.step_by");
                let seq: Vec<(usize, &u64)> = v.iter().skip(1).step_by(step).enumerate().collect();
                check_indexed(
                    || v.par_iter().skip(1).step_by(step).enumerate(),
                    &seq,
                    "skip.step_by.enumerate",
                );
            }
        }
        let r = catch_unwind(|| (0..10).into_par_iter().step_by(0).count());
        assert!(r.is_err(), "step_by(0) must panic");
    });
}

#[test]
fn chunks_match_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            for size in pick(n, vec![1, 2, 3, 7, 1000], vec![1000]) {
                let seq: Vec<Vec<&u64>> = v.chunks(size).map(|c| c.iter().collect()).collect();
                check_indexed(|| v.par_iter().chunks(size), &seq, &format!("n={n} {size}"));
                // From the back: the short chunk comes first.
                let seq: Vec<Vec<&u64>> =
                    v.chunks(size).rev().map(|c| c.iter().collect()).collect();
                check_indexed(|| v.par_iter().chunks(size).rev(), &seq, "chunks.rev");
                let seq: Vec<(usize, Vec<u64>)> = v
                    .iter()
                    .zip(0..n as u64 / 2)
                    .map(|(a, b)| a + b)
                    .collect::<Vec<_>>()
                    .chunks(size)
                    .map(<[u64]>::to_vec)
                    .enumerate()
                    .collect();
                check_indexed(
                    || {
                        v.par_iter()
                            .zip(0..n as u64 / 2)
                            .map(|(a, b)| a + b)
                            .chunks(size)
                            .enumerate()
                    },
                    &seq,
                    "zip.map.chunks.enumerate",
                );
            }
        }
        let r = catch_unwind(|| (0..10).into_par_iter().chunks(0).count());
        assert!(r.is_err(), "chunks(0) must panic");
    });
}

#[test]
fn cloned_and_copied_match_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, u64::MAX);
            let strings: Vec<String> = v.iter().take(10_000).map(u64::to_string).collect();
            check_indexed(|| strings.par_iter().cloned(), &strings, &format!("n={n}"));
            check_indexed(|| v.par_iter().copied(), &v, "copied");
            let seq: Vec<u64> = v.iter().rev().copied().collect();
            check_indexed(|| v.par_iter().copied().rev(), &seq, "copied.rev");
            let seq: Vec<(usize, String)> = strings.iter().cloned().enumerate().collect();
            check_indexed(
                || strings.par_iter().cloned().enumerate(),
                &seq,
                "cloned.enumerate",
            );
            // Consumer path, from an unindexed source of references.
            let refs: Vec<&u64> = v.iter().collect();
            let copied: Vec<u64> = unindexed(n).map(|i| refs[i as usize]).copied().collect();
            assert_eq!(copied, v);
            // Small values, so that the sum does not overflow in debug builds.
            let small = data(n, 1000);
            let total: u64 = unindexed(n).map(|i| &small[i as usize]).cloned().sum();
            assert_eq!(total, small.iter().sum::<u64>());
        }
    });
}

#[test]
fn inspect_sees_every_item_once() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let seen = AtomicUsize::new(0);
            let seen_sum = AtomicUsize::new(0);
            let look = |x: &&u64| {
                seen.fetch_add(1, Ordering::Relaxed);
                seen_sum.fetch_add(**x as usize, Ordering::Relaxed);
            };
            let expect_sum = v.iter().sum::<u64>() as usize;
            let mut runs = 0;
            let mut reset = || {
                runs += 1;
                (
                    seen.swap(0, Ordering::Relaxed),
                    seen_sum.swap(0, Ordering::Relaxed),
                )
            };
            // Producer path (under `rev`), consumer path, unindexed path.
            let seq: Vec<&u64> = v.iter().rev().collect();
            check_indexed(|| v.par_iter().inspect(look).rev(), &seq, &format!("n={n}"));
            assert_eq!(reset(), (2 * n, 2 * expect_sum));
            let total: u64 = v.par_iter().inspect(look).sum();
            assert_eq!(total as usize, expect_sum);
            assert_eq!(reset(), (n, expect_sum));
            let collected: Vec<u64> = unindexed(n).inspect(|_| look(&&0)).collect();
            assert_eq!(collected, (0..n as u64).collect::<Vec<_>>());
            assert_eq!(reset(), (n, 0));
            assert_eq!(runs, 3);
        }
    });
}

#[test]
fn update_matches_sequential_map() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let seq: Vec<u64> = v.iter().map(|x| x * 3 + 1).collect();
            check_indexed(
                || v.par_iter().copied().update(|x| *x = *x * 3 + 1),
                &seq,
                &format!("n={n}"),
            );
            let seq: Vec<(usize, u64)> = seq.iter().copied().enumerate().rev().collect();
            check_indexed(
                || {
                    v.par_iter()
                        .copied()
                        .update(|x| *x = *x * 3 + 1)
                        .enumerate()
                        .rev()
                },
                &seq,
                "update.enumerate.rev",
            );
            let mut owned = v.clone();
            owned
                .par_iter_mut()
                .update(|x| **x += 1)
                .for_each(|x| *x *= 2);
            assert_eq!(owned, v.iter().map(|x| (x + 1) * 2).collect::<Vec<_>>());
            let u: Vec<u64> = unindexed(n).update(|x| *x += 5).collect();
            assert_eq!(u, (5..n as u64 + 5).collect::<Vec<_>>());
        }
    });
}

/// For a `map_with` / `map_init` whose state counts the items its piece has mapped: the
/// counts, in order, must restart at 1 at each piece and go up by one within it. Returns
/// the number of pieces.
fn pieces_of(counts: &[usize]) -> usize {
    for (i, w) in counts.windows(2).enumerate() {
        assert!(
            w[1] == w[0] + 1 || w[1] == 1,
            "state shared or skipped at {i}: {} then {}",
            w[0],
            w[1]
        );
    }
    assert!(
        counts.first().is_none_or(|&c| c == 1),
        "first piece not fresh"
    );
    counts.iter().filter(|&&c| c == 1).count()
}

fn count_item<T>(state: &mut usize, item: T) -> (T, usize) {
    *state += 1;
    (item, *state)
}

#[test]
fn map_with_gives_each_piece_its_own_clone() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let seq: Vec<u64> = v.iter().map(|x| x + 1).collect();
            // Consumer path (collect through drive_unindexed), then the producer path
            // (under `enumerate`, whose producer splits the map_with producer).
            let out: Vec<(u64, usize)> = v
                .par_iter()
                .map_with(0usize, |c, x| count_item(c, x + 1))
                .collect();
            assert!(out.iter().map(|p| p.0).eq(seq.iter().copied()), "n={n}");
            pieces_of(&out.iter().map(|p| p.1).collect::<Vec<_>>());
            let out: Vec<(usize, (u64, usize))> = v
                .par_iter()
                .map_with(0usize, |c, x| count_item(c, x + 1))
                .enumerate()
                .collect();
            assert!(out.iter().map(|p| p.0).eq(0..n));
            assert!(out.iter().map(|p| p.1 .0).eq(seq.iter().copied()));
            pieces_of(&out.iter().map(|p| p.1 .1).collect::<Vec<_>>());
            let mut into = Vec::new();
            v.par_iter()
                .map_with(0usize, |c, x| count_item(c, x + 1))
                .collect_into_vec(&mut into);
            assert!(into.iter().map(|p| p.0).eq(seq.iter().copied()));
            pieces_of(&into.iter().map(|p| p.1).collect::<Vec<_>>());
            // Unindexed: split_off_left clones too.
            let out: Vec<(u64, usize)> = unindexed(n).map_with(0usize, count_item).collect();
            assert!(out.iter().map(|p| p.0).eq(0..n as u64));
            pieces_of(&out.iter().map(|p| p.1).collect::<Vec<_>>());
            // From the back: one state per piece still, all items once.
            let seq_rev: Vec<u64> = seq.iter().rev().copied().collect();
            let out: Vec<u64> = v
                .par_iter()
                .map_with(String::from("s"), |s, x| {
                    assert_eq!(s, "s");
                    x + 1
                })
                .rev()
                .collect();
            assert_eq!(out, seq_rev);
        }
    });
}

#[test]
fn map_init_calls_init_once_per_piece() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let inits = AtomicUsize::new(0);
            let init = || {
                inits.fetch_add(1, Ordering::Relaxed);
                0usize
            };
            let check = |counts: Vec<usize>, what: &str| {
                let pieces = pieces_of(&counts);
                let calls = inits.swap(0, Ordering::Relaxed);
                if n > 0 {
                    assert_eq!(calls, pieces, "{what} n={n}: one init per piece");
                } else {
                    assert!(calls <= 1, "{what}: {calls} inits for no items");
                }
            };
            let out: Vec<(&u64, usize)> = v.par_iter().map_init(init, count_item).collect();
            assert!(out.iter().map(|p| p.0).eq(v.iter()), "n={n}");
            check(out.into_iter().map(|p| p.1).collect(), "consumer");
            let out: Vec<((&u64, usize), u32)> = v
                .par_iter()
                .map_init(init, count_item)
                .zip(0..n as u32)
                .collect();
            assert!(out.iter().map(|p| p.0 .0).eq(v.iter()));
            check(out.into_iter().map(|p| p.0 .1).collect(), "producer");
            let out: Vec<(u64, usize)> = unindexed(n).map_init(init, count_item).collect();
            assert!(out.iter().map(|p| p.0).eq(0..n as u64));
            check(out.into_iter().map(|p| p.1).collect(), "unindexed");
        }
    });
}

/// The lengths of the pieces a run of `n` items was split into, in order.
fn piece_lengths<I: IndexedParallelIterator>(iter: I) -> Vec<usize> {
    let counts: Vec<usize> = iter
        .map_init(|| 0usize, |c, _| count_item(c, ()).1)
        .collect();
    let mut lengths = Vec::new();
    for (i, &c) in counts.iter().enumerate() {
        if counts.get(i + 1).is_none_or(|&next| next == 1) {
            lengths.push(c);
        }
    }
    pieces_of(&counts);
    lengths
}

#[test]
fn with_max_len_splits_and_with_min_len_does_not() {
    everywhere(|| {
        let pieces = piece_lengths((0..1000).into_par_iter().with_max_len(10));
        assert!(pieces.len() >= 100, "{} pieces", pieces.len());
        assert!(pieces.iter().all(|&len| len <= 10), "{pieces:?}");
        for &n in LENGTHS {
            for max in pick(n, vec![1, 10, 1000], vec![1000]) {
                let pieces = piece_lengths((0..n).into_par_iter().with_max_len(max));
                assert_eq!(pieces.iter().sum::<usize>(), n);
                assert!(pieces.len() >= n / max, "n={n} max={max}: {}", pieces.len());
                assert!(pieces.iter().all(|&len| len <= max), "n={n} max={max}");
                // Through adaptors that rescale or combine producers.
                let pieces =
                    piece_lengths((0..n).into_par_iter().with_max_len(max).zip(0..n).rev());
                assert!(
                    pieces.iter().all(|&len| len <= max),
                    "zip.rev n={n} max={max}"
                );
                let pieces = piece_lengths((0..n).into_par_iter().with_max_len(max).step_by(3));
                assert!(
                    pieces.iter().all(|&len| len <= max.div_ceil(3)),
                    "step_by n={n} max={max}: {pieces:?}"
                );
            }
            let one = piece_lengths((0..n).into_par_iter().with_min_len(n));
            assert!(one.len() <= 1, "with_min_len(n) at n={n}: {one:?}");
            let pieces = piece_lengths((0..n).into_par_iter().with_min_len(100));
            assert!(
                pieces.iter().all(|&len| len >= 100) || pieces.len() == 1,
                "n={n}"
            );
            // Both: min wins when they conflict.
            let pieces = piece_lengths((0..n).into_par_iter().with_max_len(5).with_min_len(50));
            assert!(
                pieces.iter().all(|&len| len >= 50) || pieces.len() == 1,
                "n={n}"
            );
            let v: Vec<usize> = (0..n)
                .into_par_iter()
                .with_min_len(7)
                .with_max_len(9)
                .collect();
            assert_eq!(v, (0..n).collect::<Vec<_>>());
        }
    });
}

#[test]
fn long_pipelines_match_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let w: Vec<u32> = (0..n as u32).rev().collect();
            // std's `Chain` is not `ExactSizeIterator`: materialize it before `rev`.
            let chained: Vec<(u64, u32)> = v
                .iter()
                .copied()
                .chain(v.iter().copied().take(5))
                .zip(w.iter().copied().chain(0..3))
                .collect();
            let seq: Vec<(usize, (u64, u32))> = chained
                .into_iter()
                .skip(2)
                .step_by(2)
                .enumerate()
                .rev()
                .collect();
            check_indexed(
                || {
                    v.par_iter()
                        .copied()
                        .chain(v.par_iter().copied().take(5))
                        .zip(w.par_iter().copied().chain(0..3u32))
                        .with_max_len(64)
                        .skip(2)
                        .step_by(2)
                        .enumerate()
                        .rev()
                },
                &seq,
                &format!("n={n}"),
            );
        }
    });
}

#[test]
fn adaptors_report_their_length_without_running() {
    let ran = Mutex::new(false);
    let v = data(100, 10);
    let it = v
        .par_iter()
        .inspect(|_| *ran.lock().unwrap() = true)
        .map_init(|| (), |_, x| *x)
        .chain(0..5u64)
        .skip(3)
        .take(90)
        .step_by(4)
        .chunks(3);
    assert_eq!(it.len(), 23usize.div_ceil(3));
    assert_eq!(it.opt_len(), Some(8));
    assert!(!*ran.lock().unwrap());
    assert_eq!(unindexed(10).cloned_opt_len_probe(), None);
}

/// `opt_len` of the per-item adaptors over an unindexed source stays `None`.
trait Probe {
    fn cloned_opt_len_probe(self) -> Option<usize>;
}

impl Probe for Unindexed {
    fn cloned_opt_len_probe(self) -> Option<usize> {
        let xs = [1u64];
        let inspected = self.inspect(|_| ()).update(|_| ());
        assert_eq!(inspected.opt_len(), None);
        let mapped = Unindexed(0..3)
            .map_with(0, |_, x| x)
            .map_init(|| (), |_, x| x);
        assert_eq!(mapped.opt_len(), None);
        Unindexed(0..1).map(|_| &xs[0]).cloned().opt_len()
    }
}

//! Collecting and extending: every std collection, `String`s, `Option` /
//! `Result` collects, `unzip`, `partition`, `partition_map`, against the sequential
//! `collect` / `extend` / `unzip` / `partition`, at the awkward lengths, everywhere.
//!
//! Collections other than `Vec` are checked at `SMALL_LENGTHS` (building a map of 10^6
//! items at every place is seconds of test time and exercises nothing the smaller lengths
//! do not); the `Vec` paths (`unzip`, `partition`) and the early stop also at 10^6.
//!
//! Each property runs on an indexed source (`par_iter`, which splits by position) and on
//! an unindexed one ([`unindexed`], which splits with `split_off_left`), so both consumer
//! paths are covered.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::ffi::{OsStr, OsString};
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::common::{data, everywhere, unindexed, LENGTHS, SMALL_LENGTHS};
use splitsteal::iter::plumbing::UnindexedConsumer;
use splitsteal::iter::Either;
use splitsteal::prelude::*;

// ---- a key that compares on part of its value ----

/// Equal (and hashed) on `key` only, so which of two equal items a collection keeps shows
/// in `tag`.
#[derive(Clone, Copy, Debug)]
struct Keyed {
    key: u64,
    tag: usize,
}

impl PartialEq for Keyed {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl Eq for Keyed {}
impl Hash for Keyed {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}
impl PartialOrd for Keyed {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Keyed {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

/// Sorted `(key, tag)` pairs of a set, to compare which equal item was kept.
fn tags<'a>(items: impl IntoIterator<Item = &'a Keyed>) -> Vec<(u64, usize)> {
    let mut v: Vec<_> = items.into_iter().map(|k| (k.key, k.tag)).collect();
    v.sort_unstable();
    v
}

/// Sorted `(key, tag, value)` triples of a map keyed by [`Keyed`].
fn entries<'a>(map: impl IntoIterator<Item = (&'a Keyed, &'a usize)>) -> Vec<(u64, usize, usize)> {
    let mut v: Vec<_> = map.into_iter().map(|(k, v)| (k.key, k.tag, *v)).collect();
    v.sort_unstable();
    v
}

// ---- maps and sets ----

#[test]
fn maps_keep_the_last_value_for_a_key() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            // Few distinct keys, so every key repeats across pieces.
            let keys = data(n, 1 + n as u64 / 8);
            let pair = |i: usize| (keys[i], i);
            let want_hash: HashMap<u64, usize> = (0..n).map(pair).collect();
            let want_btree: BTreeMap<u64, usize> = (0..n).map(pair).collect();

            let got: HashMap<u64, usize> = (0..n).into_par_iter().map(pair).collect();
            assert_eq!(got, want_hash, "n={n}");
            let got: HashMap<u64, usize> = unindexed(n).map(pair).collect();
            assert_eq!(got, want_hash, "n={n}");
            let got: BTreeMap<u64, usize> = (0..n).into_par_iter().map(pair).collect();
            assert_eq!(got, want_btree, "n={n}");
            let got: BTreeMap<u64, usize> = unindexed(n).map(pair).collect();
            assert_eq!(got, want_btree, "n={n}");

            // Keys equal but distinguishable: which key object is kept must match too.
            let kpair = |i: usize| {
                (
                    Keyed {
                        key: keys[i],
                        tag: i,
                    },
                    i,
                )
            };
            let want: BTreeMap<Keyed, usize> = (0..n).map(kpair).collect();
            let got: BTreeMap<Keyed, usize> = unindexed(n).map(kpair).collect();
            assert_eq!(entries(&got), entries(&want), "n={n}");
            let want: HashMap<Keyed, usize> = (0..n).map(kpair).collect();
            let got: HashMap<Keyed, usize> = (0..n).into_par_iter().map(kpair).collect();
            assert_eq!(entries(&got), entries(&want), "n={n}");

            // A custom hasher (the `S: BuildHasher + Default` parameter).
            let got: HashMap<u64, usize, std::hash::BuildHasherDefault<FnvLike>> =
                unindexed(n).map(pair).collect();
            assert!(got.iter().all(|(k, v)| want_hash[k] == *v) && got.len() == want_hash.len());
        }
    });
}

/// A tiny hasher, so the map's `S` parameter is not the default one.
#[derive(Default)]
struct FnvLike(u64);

impl Hasher for FnvLike {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

#[test]
fn sets_keep_the_sequential_collects_choice_of_equal_items() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let keys = data(n, 1 + n as u64 / 8);
            let item = |i: usize| Keyed {
                key: keys[i],
                tag: i,
            };
            // HashSet keeps the first of equal items; BTreeSet's `collect` the last (it
            // sorts and builds in bulk), its `extend` the first.
            let want_hash: HashSet<Keyed> = (0..n).map(item).collect();
            let want_btree: BTreeSet<Keyed> = (0..n).map(item).collect();

            let got: HashSet<Keyed> = (0..n).into_par_iter().map(item).collect();
            assert_eq!(tags(&got), tags(&want_hash), "n={n}");
            let got: HashSet<Keyed> = unindexed(n).map(item).collect();
            assert_eq!(tags(&got), tags(&want_hash), "n={n}");
            let got: BTreeSet<Keyed> = (0..n).into_par_iter().map(item).collect();
            assert_eq!(tags(&got), tags(&want_btree), "n={n}");
            let got: BTreeSet<Keyed> = unindexed(n).map(item).collect();
            assert_eq!(tags(&got), tags(&want_btree), "n={n}");
        }
    });
}

#[test]
fn maps_and_sets_extend_like_the_sequential_extend() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let keys = data(n, 1 + n as u64 / 4);
            // Start from non-empty collections whose keys overlap the new ones.
            let start: Vec<(u64, usize)> = (0..5).map(|i| (i, usize::MAX - i as usize)).collect();

            let mut want: HashMap<u64, usize> = start.iter().copied().collect();
            want.extend((0..n).map(|i| (keys[i], i)));
            let mut got: HashMap<u64, usize> = start.iter().copied().collect();
            got.par_extend(unindexed(n).map(|i| (keys[i], i)));
            assert_eq!(got, want, "n={n}");

            let mut want: BTreeMap<u64, usize> = start.iter().copied().collect();
            want.extend((0..n).map(|i| (keys[i], i)));
            let mut got: BTreeMap<u64, usize> = start.iter().copied().collect();
            got.par_extend((0..n).into_par_iter().map(|i| (keys[i], i)));
            assert_eq!(got, want, "n={n}");

            // The `&T` / `(&K, &V)` impls.
            let pairs: Vec<(u64, usize)> = (0..n).map(|i| (keys[i], i)).collect();
            let mut got: BTreeMap<u64, usize> = BTreeMap::new();
            got.par_extend(pairs.par_iter().map(|(k, v)| (k, v)));
            assert_eq!(got, pairs.iter().copied().collect::<BTreeMap<_, _>>());
            let mut got: HashMap<u64, usize> = HashMap::new();
            got.par_extend(pairs.par_iter().map(|(k, v)| (k, v)));
            assert_eq!(got, pairs.iter().copied().collect::<HashMap<_, _>>());

            let old: Vec<Keyed> = (0..5)
                .map(|k| Keyed {
                    key: k,
                    tag: 1_000_000,
                })
                .collect();
            let new: Vec<Keyed> = (0..n)
                .map(|i| Keyed {
                    key: keys[i],
                    tag: i,
                })
                .collect();
            let mut want: HashSet<Keyed> = old.iter().copied().collect();
            want.extend(new.iter().copied());
            let mut got: HashSet<Keyed> = old.iter().copied().collect();
            got.par_extend(new.par_iter());
            assert_eq!(tags(&got), tags(&want), "n={n}");
            let mut want: BTreeSet<Keyed> = old.iter().copied().collect();
            want.extend(new.iter().copied());
            let mut got: BTreeSet<Keyed> = old.iter().copied().collect();
            got.par_extend(new.par_iter().map(|k| *k));
            assert_eq!(tags(&got), tags(&want), "n={n}");
        }
    });
}

// ---- sequences ----

#[test]
fn sequences_collect_in_order() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let v = data(n, u64::MAX);
            let want: Vec<u64> = v.iter().map(|x| x ^ 1).collect();
            let idx = || v.par_iter().map(|x| x ^ 1);
            let unx = || unindexed(n).map(|i| v[i] ^ 1);

            let d: VecDeque<u64> = idx().collect();
            assert!(d.iter().eq(&want), "n={n}");
            let d: VecDeque<u64> = unx().collect();
            assert!(d.iter().eq(&want), "n={n}");
            let l: LinkedList<u64> = idx().collect();
            assert!(l.iter().eq(&want), "n={n}");
            let l: LinkedList<u64> = unx().collect();
            assert!(l.iter().eq(&want), "n={n}");
            let b: Box<[u64]> = unx().collect();
            assert_eq!(&*b, &want[..]);
            let b: Box<[u64]> = idx().collect();
            assert_eq!(&*b, &want[..]);
            let r: Rc<[u64]> = unx().collect();
            assert_eq!(&*r, &want[..]);
            let a: Arc<[u64]> = idx().collect();
            assert_eq!(&*a, &want[..]);
            let c: Cow<'_, [u64]> = unx().collect();
            assert!(matches!(c, Cow::Owned(_)));
            assert_eq!(&*c, &want[..]);

            let h: BinaryHeap<u64> = unx().collect();
            let mut sorted = want.clone();
            sorted.sort_unstable();
            assert_eq!(h.into_sorted_vec(), sorted, "n={n}");
            let h: BinaryHeap<u64> = idx().collect();
            assert_eq!(h.len(), n);
        }
    });
}

#[test]
fn sequences_extend_after_their_contents() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let v = data(n, 1000);
            let head = [7u64, 8, 9];
            let want: Vec<u64> = head.iter().chain(&v).copied().collect();

            let mut d = VecDeque::from(head);
            d.par_extend(unindexed(n).map(|i| v[i]));
            assert!(d.iter().eq(&want), "n={n}");
            let mut d = VecDeque::from(head);
            d.par_extend(v.par_iter());
            assert!(d.iter().eq(&want), "n={n}");
            // A deque whose contents wrap around its buffer.
            let mut d: VecDeque<u64> = VecDeque::with_capacity(4);
            d.extend([0, 0, 0, 7]);
            d.pop_front();
            d.pop_front();
            d.pop_front();
            d.extend([8, 9]);
            d.par_extend(v.par_iter().map(|x| *x));
            assert!(d.iter().eq(&want), "n={n}");

            let mut l = LinkedList::from(head);
            l.par_extend(unindexed(n).map(|i| v[i]));
            assert!(l.iter().eq(&want), "n={n}");
            let mut l = LinkedList::from(head);
            l.par_extend(v.par_iter());
            assert!(l.iter().eq(&want), "n={n}");

            let mut h = BinaryHeap::from(head);
            h.par_extend(v.par_iter().map(|x| *x));
            h.par_extend(v.par_iter());
            let mut sorted: Vec<u64> = head.iter().chain(&v).chain(&v).copied().collect();
            sorted.sort_unstable();
            assert_eq!(h.into_sorted_vec(), sorted, "n={n}");

            let mut w = head.to_vec();
            w.par_extend(v.par_iter());
            assert_eq!(w, want);
            let mut w = head.to_vec();
            w.par_extend(unindexed(n).map(|i| &v[i]));
            assert_eq!(w, want);
        }
    });
}

// ---- strings ----

#[test]
fn strings_concatenate_in_order() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let codes = data(n, 0x3000);
            // Mixed widths: ASCII, two-, three-byte characters.
            let chars: Vec<char> = codes
                .iter()
                .map(|&c| char::from_u32(c as u32 + 0x20).unwrap_or('?'))
                .collect();
            let words: Vec<String> = codes.iter().map(|c| format!("{c}.")).collect();
            let want_chars: String = chars.iter().collect();
            let want_words: String = words.concat();

            let s: String = chars.par_iter().map(|c| *c).collect();
            assert_eq!(s, want_chars, "n={n}");
            let s: String = unindexed(n).map(|i| chars[i]).collect();
            assert_eq!(s, want_chars, "n={n}");
            let s: String = chars.par_iter().collect();
            assert_eq!(s, want_chars, "n={n}");
            let s: String = unindexed(n).map(|i| words[i].as_str()).collect();
            assert_eq!(s, want_words, "n={n}");
            let s: String = words.par_iter().map(|w| w.clone()).collect();
            assert_eq!(s, want_words, "n={n}");
            let s: String = unindexed(n)
                .map(|i| words[i].clone().into_boxed_str())
                .collect();
            assert_eq!(s, want_words, "n={n}");
            let s: String = unindexed(n)
                .map(|i| {
                    if i % 2 == 0 {
                        Cow::Borrowed(words[i].as_str())
                    } else {
                        Cow::Owned(words[i].clone())
                    }
                })
                .collect();
            assert_eq!(s, want_words, "n={n}");

            let mut s = String::from("<");
            s.par_extend(words.par_iter().map(|w| w.as_str()));
            s.par_extend(chars.par_iter());
            assert_eq!(s, format!("<{want_words}{want_chars}"), "n={n}");

            let o: OsString = unindexed(n).map(|i| OsStr::new(&words[i])).collect();
            assert_eq!(o, OsString::from(&want_words));
            let o: OsString = words.par_iter().map(OsString::from).collect();
            assert_eq!(o, OsString::from(&want_words));
            let o: OsString = words
                .par_iter()
                .map(|w| Cow::Borrowed(OsStr::new(w)))
                .collect();
            assert_eq!(o, OsString::from(&want_words));
        }
    });
}

#[test]
fn unit_collect_runs_every_item_once() {
    everywhere(|| {
        for &n in LENGTHS {
            let calls = AtomicUsize::new(0);
            let () = unindexed(n)
                .map(|_| {
                    calls.fetch_add(1, Ordering::Relaxed);
                })
                .collect();
            let mut unit = ();
            unit.par_extend((0..n).into_par_iter().map(|_| {
                calls.fetch_add(1, Ordering::Relaxed);
            }));
            assert_eq!(calls.into_inner(), 2 * n);
        }
    });
}

// ---- Option and Result ----

/// Positions to fail at, for a length: none, the first item, the middle, the last.
fn failure_points(n: usize) -> Vec<Option<usize>> {
    let mut points = vec![None];
    if n > 0 {
        points.extend([Some(0), Some(n / 2), Some(n - 1)]);
    }
    points
}

#[test]
fn result_collect_is_ok_only_without_errors() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let v = data(n, 1 << 20);
            for bad in failure_points(n) {
                // Several errors at and after `bad` (every 1000th item), each naming its
                // position: the one returned must be one of them.
                let item = |i: usize| match bad {
                    Some(b) if i == b || (i > b && i.is_multiple_of(1000)) => Err(i),
                    _ => Ok(v[i]),
                };
                let want: Result<Vec<u64>, usize> = (0..n).map(item).collect();
                let check = |got: Result<Vec<u64>, usize>| match (&got, &want) {
                    (Ok(g), Ok(w)) => assert_eq!(g, w, "n={n}"),
                    (Err(e), Err(_)) => {
                        let b = bad.unwrap();
                        assert!(
                            *e == b || (*e > b && e.is_multiple_of(1000)),
                            "n={n} bad={b} e={e}"
                        );
                    }
                    _ => panic!("n={n} bad={bad:?}: got {:?}", got.map(|g| g.len())),
                };
                check((0..n).into_par_iter().map(item).collect());
                check(unindexed(n).map(item).collect());
                // Into other collections (through the same stop-early adaptor).
                let got: Result<BTreeSet<u64>, usize> = unindexed(n).map(item).collect();
                assert_eq!(got.is_ok(), bad.is_none());
                if let Ok(set) = got {
                    assert_eq!(set, v.iter().copied().collect());
                }
                let got: Result<String, usize> = (0..n)
                    .into_par_iter()
                    .map(|i| item(i).map(|_| "x"))
                    .collect();
                assert_eq!(got.map(|s| s.len()).ok(), bad.is_none().then_some(n));
            }
        }
    });
}

#[test]
fn option_collect_is_some_only_without_nones() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let v = data(n, 1 << 20);
            for bad in failure_points(n) {
                let item = |i: usize| (Some(i) != bad).then_some(v[i]);
                let want: Option<Vec<u64>> = (0..n).map(item).collect();
                let got: Option<Vec<u64>> = (0..n).into_par_iter().map(item).collect();
                assert_eq!(got, want, "n={n} bad={bad:?}");
                let got: Option<Vec<u64>> = unindexed(n).map(item).collect();
                assert_eq!(got, want, "n={n} bad={bad:?}");
                let got: Option<HashMap<u64, usize>> =
                    unindexed(n).map(|i| item(i).map(|x| (x, i))).collect();
                let want: Option<HashMap<u64, usize>> =
                    (0..n).map(|i| item(i).map(|x| (x, i))).collect();
                assert_eq!(got, want, "n={n} bad={bad:?}");
                // Nested: an Option of a Result of a collection.
                let got: Option<Result<Vec<u64>, ()>> =
                    unindexed(n).map(|i| item(i).map(Ok)).collect();
                assert_eq!(got, want_nested(&v, bad), "n={n} bad={bad:?}");
            }
        }
    });
}

fn want_nested(v: &[u64], bad: Option<usize>) -> Option<Result<Vec<u64>, ()>> {
    match bad {
        Some(_) => None,
        None => Some(Ok(v.to_vec())),
    }
}

#[test]
fn result_collect_stops_early() {
    // One thread, so "early" is deterministic: after the error at position 10, the one
    // piece is full and nothing after it is produced.
    let pool = splitsteal::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| {
        let produced = AtomicUsize::new(0);
        let got: Result<Vec<usize>, usize> = (0..1_000_000usize)
            .into_par_iter()
            .map(|i| {
                produced.fetch_add(1, Ordering::Relaxed);
                if i == 10 {
                    Err(i)
                } else {
                    Ok(i)
                }
            })
            .collect();
        assert_eq!(got, Err(10));
        assert!(produced.into_inner() < 1000);
    });
    // On more threads, the other pieces stop when they next look.
    everywhere(|| {
        let produced = AtomicUsize::new(0);
        let got: Option<Vec<usize>> = unindexed(1_000_000)
            .map(|i| {
                produced.fetch_add(1, Ordering::Relaxed);
                (i != 0).then_some(i)
            })
            .collect();
        assert_eq!(got, None);
        assert!(produced.into_inner() < 1_000_000);
    });
}

// ---- unzip, partition, partition_map ----

#[test]
fn unzip_matches_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, u64::MAX);
            let pair = |x: &u64| (*x, x.wrapping_mul(3) as u8);
            let (wa, wb): (Vec<u64>, Vec<u8>) = v.iter().map(pair).unzip();

            let (a, b): (Vec<u64>, Vec<u8>) = v.par_iter().map(pair).unzip();
            assert_eq!((&a, &b), (&wa, &wb), "n={n}");
            let (a, b): (Vec<u64>, Vec<u8>) = unindexed(n).map(|i| pair(&v[i])).unzip();
            assert_eq!((&a, &b), (&wa, &wb), "n={n}");
            if n > 10_007 {
                // The other collections' paths are the same at every length.
                continue;
            }
            // Mixed sides: one in place, one from pieces.
            let (a, b): (Vec<u64>, LinkedList<u8>) = v.par_iter().map(pair).unzip();
            assert_eq!(a, wa, "n={n}");
            assert!(b.iter().eq(&wb), "n={n}");
            let (a, b): (BTreeSet<u64>, Vec<u8>) = v.par_iter().map(pair).unzip();
            assert_eq!(a, wa.iter().copied().collect(), "n={n}");
            assert_eq!(b, wb, "n={n}");
            // Via collect (each side only FromParallelIterator) and par_extend on a pair.
            let (a, b): (Vec<u64>, String) = v
                .par_iter()
                .map(|x| (*x, if x % 2 == 0 { 'e' } else { 'o' }))
                .collect();
            assert_eq!(a, wa, "n={n}");
            assert_eq!(
                b,
                v.iter()
                    .map(|x| if x % 2 == 0 { 'e' } else { 'o' })
                    .collect::<String>()
            );
            let mut pair_of = (vec![1u64], VecDeque::from([2u8]));
            pair_of.par_extend(unindexed(n).map(|i| pair(&v[i])));
            assert_eq!(pair_of.0[1..], wa[..], "n={n}");
            assert!(pair_of.1.iter().skip(1).eq(&wb), "n={n}");
            // Nested unzip: ((a, b), c).
            let ((x, y), z): ((Vec<u64>, Vec<u8>), Vec<u64>) =
                v.par_iter().map(|x| (pair(x), !x)).unzip();
            assert_eq!((x, y), (wa.clone(), wb.clone()));
            assert_eq!(z, v.iter().map(|x| !x).collect::<Vec<_>>());
        }
    });
}

#[test]
fn partition_matches_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let pred = |x: &u64| x.is_multiple_of(3);
            let (wa, wb): (Vec<u64>, Vec<u64>) = v.iter().copied().partition(pred);

            let (a, b): (Vec<u64>, Vec<u64>) = v.par_iter().map(|x| *x).partition(pred);
            assert_eq!((&a, &b), (&wa, &wb), "n={n}");
            let (a, b): (Vec<u64>, Vec<u64>) = unindexed(n).map(|i| v[i]).partition(pred);
            assert_eq!((&a, &b), (&wa, &wb), "n={n}");
            if n > 10_007 {
                continue;
            }
            let (a, b): (VecDeque<u64>, HashSet<u64>) = v.par_iter().map(|x| *x).partition(pred);
            assert!(a.iter().eq(&wa), "n={n}");
            assert_eq!(b, wb.iter().copied().collect(), "n={n}");
            // Everything to one side.
            let (a, b): (Vec<u64>, Vec<u64>) = v.par_iter().map(|x| *x).partition(|_| true);
            assert_eq!((&a[..], b.len()), (&v[..], 0));
            let (a, b): (Vec<u64>, Vec<u64>) = v.par_iter().map(|x| *x).partition(|_| false);
            assert_eq!((a.len(), &b[..]), (0, &v[..]));
        }
    });
}

#[test]
fn partition_map_matches_sequential() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let v = data(n, 1000);
            let split = |x: u64| {
                if x.is_multiple_of(2) {
                    Either::Left(x / 2)
                } else {
                    Either::Right(format!("{x}"))
                }
            };
            let mut wa = Vec::new();
            let mut wb = Vec::new();
            for x in &v {
                match split(*x) {
                    Either::Left(l) => wa.push(l),
                    Either::Right(r) => wb.push(r),
                }
            }

            let (a, b): (Vec<u64>, Vec<String>) = v.par_iter().partition_map(|x| split(*x));
            assert_eq!((&a, &b), (&wa, &wb), "n={n}");
            let (a, b): (Vec<u64>, String) = unindexed(n).partition_map(|i| split(v[i]));
            assert_eq!((&a, &b), (&wa, &wb.concat()), "n={n}");
            // Collecting `Either`s into a pair, and extending a pair with them.
            let (a, b): (Vec<u64>, Vec<String>) = v.par_iter().map(|x| split(*x)).collect();
            assert_eq!((&a, &b), (&wa, &wb), "n={n}");
            let mut pair = (vec![0u64], LinkedList::new());
            pair.par_extend(unindexed(n).map(|i| split(v[i])));
            assert_eq!(pair.0[1..], wa[..], "n={n}");
            assert!(pair.1.iter().eq(&wb), "n={n}");
        }
    });
}

type Pairs = Vec<(usize, usize)>;

/// `0..n`, indexed, recording the type of the consumer it is driven with.
struct Spy<'a> {
    n: usize,
    consumer: &'a std::sync::Mutex<String>,
}

impl ParallelIterator for Spy<'_> {
    type Item = (usize, usize);

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<(usize, usize)>,
    {
        *self.consumer.lock().unwrap() = std::any::type_name::<C>().to_string();
        let n = self.n;
        (0..n)
            .into_par_iter()
            .map(move |i| (i, n - i))
            .drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.n)
    }
}

#[test]
fn unzip_into_vecs_of_known_length_writes_in_place() {
    everywhere(|| {
        for &n in LENGTHS {
            let consumer = std::sync::Mutex::new(String::new());
            let (a, b): (Vec<usize>, Vec<usize>) = Spy {
                n,
                consumer: &consumer,
            }
            .unzip();
            assert!(a.iter().zip(&b).all(|(x, y)| x + y == n) && a.len() == n && b.len() == n);
            // Both sides' consumers are the in-place ones, side by side.
            let name = consumer.into_inner().unwrap();
            assert_eq!(name.matches("CollectConsumer").count(), 2, "{name}");

            // A side whose length is unknown (partition) is built from pieces.
            let consumer = std::sync::Mutex::new(String::new());
            let (a, b): (Pairs, Pairs) = Spy {
                n,
                consumer: &consumer,
            }
            .partition(|p| p.0 % 2 == 0);
            assert_eq!(a.len() + b.len(), n);
            let name = consumer.into_inner().unwrap();
            assert_eq!(name.matches("CollectConsumer").count(), 0, "{name}");
        }
    });
}

//! The sources against their sequential std counterparts, everywhere: `Option` and
//! `Result`, the std collections, slice chunks / windows / sorts, strings, `par_bridge`,
//! and `repeat` / `once` / `empty`.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::BuildHasherDefault;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::common::{data, everywhere, LENGTHS, SMALL_LENGTHS};
use splitsteal::prelude::*;

/// The panic message of `f`, which must panic.
fn panic_message(f: impl FnOnce()) -> String {
    let err = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    if let Some(s) = err.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = err.downcast_ref::<String>() {
        s.clone()
    } else {
        String::from("<not a string>")
    }
}

// ---- Option and Result ----

#[test]
fn option_and_result_yield_zero_or_one_item() {
    everywhere(|| {
        for opt in [None, Some(7u64)] {
            let expect: Vec<u64> = opt.iter().copied().collect();
            assert_eq!(opt.into_par_iter().collect::<Vec<_>>(), expect);
            assert_eq!(opt.into_par_iter().len(), expect.len());
            assert_eq!(opt.par_iter().map(|x| *x).collect::<Vec<_>>(), expect);
            let mut m = opt;
            m.par_iter_mut().for_each(|x| *x += 1);
            assert_eq!(m, opt.map(|x| x + 1));

            let res: Result<u64, String> = opt.ok_or_else(|| "e".into());
            assert_eq!(res.par_iter().map(|x| *x).collect::<Vec<_>>(), expect);
            assert_eq!(res.clone().into_par_iter().len(), expect.len());
            let mut r = res.clone();
            r.par_iter_mut().for_each(|x| *x *= 2);
            assert_eq!(r, res.clone().map(|x| x * 2));
            assert_eq!(res.into_par_iter().collect::<Vec<_>>(), expect);
        }
    });
}

// ---- collections ----

type SipBuild = BuildHasherDefault<std::collections::hash_map::DefaultHasher>;

#[test]
fn hash_collections_match_sequential() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let keys = data(n, u64::MAX);
            // A non-default hasher type: the impls are generic over it, as rayon's are.
            let map: HashMap<u64, u64, SipBuild> = keys.iter().map(|&k| (k, k % 97)).collect();
            let mut par: Vec<(u64, u64)> = map.clone().into_par_iter().collect();
            let mut seq: Vec<(u64, u64)> = map.clone().into_iter().collect();
            par.sort_unstable();
            seq.sort_unstable();
            assert_eq!(par, seq, "n={n}");
            let s: u64 = map
                .par_iter()
                .map(|(k, v)| k.wrapping_add(*v))
                .reduce(|| 0, u64::wrapping_add);
            let e = map
                .iter()
                .fold(0u64, |a, (k, v)| a.wrapping_add(k.wrapping_add(*v)));
            assert_eq!(s, e);
            let mut m2 = map.clone();
            m2.par_iter_mut().for_each(|(k, v)| *v = k % 13);
            assert!(m2.iter().all(|(k, v)| *v == k % 13));
            assert_eq!(m2.len(), map.len());

            let set: HashSet<u64> = keys.iter().copied().collect();
            assert_eq!(set.par_iter().count(), set.len());
            let mut par: Vec<u64> = set.clone().into_par_iter().collect();
            let mut seq: Vec<u64> = set.iter().copied().collect();
            par.sort_unstable();
            seq.sort_unstable();
            assert_eq!(par, seq);
            let set2: HashSet<u64, SipBuild> = keys.iter().copied().collect();
            assert_eq!(
                set2.par_iter().map(|x| x % 7).sum::<u64>(),
                set2.iter().map(|x| x % 7).sum()
            );
        }
    });
}

#[test]
fn ordered_collections_keep_their_order() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let v = data(n, 1000);
            let bmap: BTreeMap<u64, usize> = v.iter().enumerate().map(|(i, &k)| (k, i)).collect();
            assert_eq!(
                bmap.par_iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
                bmap.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>()
            );
            let mut m = bmap.clone();
            m.par_iter_mut().for_each(|(k, v)| *v += *k as usize);
            assert!(m.iter().all(|(k, v)| *v == bmap[k] + *k as usize));
            assert_eq!(
                bmap.clone().into_par_iter().collect::<Vec<_>>(),
                bmap.into_iter().collect::<Vec<_>>()
            );

            let bset: BTreeSet<u64> = v.iter().copied().collect();
            assert_eq!(
                bset.par_iter().map(|x| *x).collect::<Vec<_>>(),
                bset.iter().copied().collect::<Vec<_>>()
            );
            assert_eq!(
                bset.clone().into_par_iter().collect::<Vec<_>>(),
                bset.into_iter().collect::<Vec<_>>()
            );

            // A deque that wraps around its buffer: half pushed at the front.
            let mut dq: VecDeque<u64> = VecDeque::with_capacity(n);
            for (i, &x) in v.iter().enumerate() {
                if i % 2 == 0 {
                    dq.push_front(x)
                } else {
                    dq.push_back(x)
                }
            }
            let seq: Vec<u64> = dq.iter().copied().collect();
            assert_eq!(dq.par_iter().len(), n);
            assert_eq!(dq.par_iter().map(|x| *x).collect::<Vec<_>>(), seq);
            let mut dq2 = dq.clone();
            dq2.par_iter_mut().for_each(|x| *x += 1);
            assert_eq!(
                dq2.iter().copied().collect::<Vec<_>>(),
                seq.iter().map(|x| x + 1).collect::<Vec<_>>()
            );
            assert_eq!(dq.clone().into_par_iter().len(), n);
            assert_eq!(dq.into_par_iter().collect::<Vec<_>>(), seq);

            let list: LinkedList<u64> = v.iter().copied().collect();
            assert_eq!(list.par_iter().map(|x| *x).collect::<Vec<_>>(), v);
            let mut l2 = list.clone();
            l2.par_iter_mut().for_each(|x| *x *= 2);
            assert_eq!(
                l2.into_iter().collect::<Vec<_>>(),
                v.iter().map(|x| x * 2).collect::<Vec<_>>()
            );
            assert_eq!(list.into_par_iter().collect::<Vec<_>>(), v);

            let heap: BinaryHeap<u64> = v.iter().copied().collect();
            assert_eq!(heap.par_iter().len(), n);
            assert_eq!(
                heap.par_iter().map(|x| *x).collect::<Vec<_>>(),
                heap.iter().copied().collect::<Vec<_>>()
            );
            assert_eq!(heap.clone().into_par_iter().len(), n);
            assert_eq!(
                heap.clone().into_par_iter().collect::<Vec<_>>(),
                heap.into_vec()
            );
        }
    });
}

// ---- slices: chunks and windows ----

/// Chunk sizes to try at length `n`: small, awkward, the whole slice, and more than it.
fn chunk_sizes(n: usize) -> Vec<usize> {
    let mut sizes = vec![1, 2, 3, 7, n + 1, 1000];
    if n > 0 {
        sizes.push(n);
    }
    sizes
}

#[test]
fn chunks_match_std() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            for size in chunk_sizes(n) {
                if n == 1_000_000 && size < 3 {
                    continue; // the per-chunk Vec of a million slices adds nothing here
                }
                let ctx = format!("n={n} size={size}");
                let par: Vec<&[u64]> = v.par_chunks(size).collect();
                assert_eq!(par, v.chunks(size).collect::<Vec<_>>(), "{ctx}");
                assert_eq!(v.par_chunks(size).len(), v.chunks(size).len(), "{ctx}");

                let it = v.par_chunks_exact(size);
                assert_eq!(it.remainder(), v.chunks_exact(size).remainder(), "{ctx}");
                assert_eq!(it.len(), v.chunks_exact(size).len(), "{ctx}");
                assert_eq!(
                    it.collect::<Vec<_>>(),
                    v.chunks_exact(size).collect::<Vec<_>>(),
                    "{ctx}"
                );

                let par: Vec<&[u64]> = v.par_rchunks(size).collect();
                assert_eq!(par, v.rchunks(size).collect::<Vec<_>>(), "{ctx}");
                assert_eq!(v.par_rchunks(size).len(), v.rchunks(size).len(), "{ctx}");

                let it = v.par_rchunks_exact(size);
                assert_eq!(it.remainder(), v.rchunks_exact(size).remainder(), "{ctx}");
                assert_eq!(
                    it.collect::<Vec<_>>(),
                    v.rchunks_exact(size).collect::<Vec<_>>(),
                    "{ctx}"
                );

                let sums: Vec<u64> = v.par_chunks(size).map(|c| c.iter().sum()).collect();
                assert_eq!(
                    sums,
                    v.chunks(size).map(|c| c.iter().sum()).collect::<Vec<u64>>(),
                    "{ctx}"
                );
            }
        }
    });
}

/// Writes into each chunk its number and each item's place in it, so a chunk cut at the
/// wrong place, or twice, shows.
fn stamp(chunk_no: usize, c: &mut [u64]) {
    for (j, x) in c.iter_mut().enumerate() {
        *x = (chunk_no as u64) << 32 | (c_len_tag(j));
    }
}

fn c_len_tag(j: usize) -> u64 {
    j as u64 + 1
}

#[test]
fn chunks_mut_match_std() {
    everywhere(|| {
        for &n in LENGTHS {
            for size in chunk_sizes(n) {
                if n == 1_000_000 && size < 3 {
                    continue;
                }
                let ctx = format!("n={n} size={size}");
                // Chunk numbers come from the chunk's first item (its index, written first).
                let index_of = |c: &[u64]| c[0] as usize;
                let fresh = || (0..n as u64).collect::<Vec<u64>>();

                let (mut par, mut seq) = (fresh(), fresh());
                par.par_chunks_mut(size)
                    .for_each(|c| stamp(index_of(c) / size, c));
                seq.chunks_mut(size)
                    .for_each(|c| stamp(index_of(c) / size, c));
                assert_eq!(par, seq, "chunks_mut {ctx}");

                let (mut par, mut seq) = (fresh(), fresh());
                let mut it = par.par_chunks_exact_mut(size);
                assert_eq!(it.len(), n / size);
                assert_eq!(it.remainder().len(), n % size);
                it.for_each(|c| stamp(index_of(c) / size, c));
                seq.chunks_exact_mut(size)
                    .for_each(|c| stamp(index_of(c) / size, c));
                assert_eq!(par, seq, "chunks_exact_mut {ctx}");

                let (mut par, mut seq) = (fresh(), fresh());
                par.par_rchunks_mut(size)
                    .for_each(|c| stamp(index_of(c), c));
                seq.rchunks_mut(size).for_each(|c| stamp(index_of(c), c));
                assert_eq!(par, seq, "rchunks_mut {ctx}");

                let (mut par, mut seq) = (fresh(), fresh());
                let it = par.par_rchunks_exact_mut(size);
                assert_eq!(it.len(), n / size);
                it.for_each(|c| stamp(index_of(c), c));
                seq.rchunks_exact_mut(size)
                    .for_each(|c| stamp(index_of(c), c));
                assert_eq!(par, seq, "rchunks_exact_mut {ctx}");
            }
        }
    });
}

#[test]
fn windows_match_std() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let mut sizes = vec![1, 2, 3, 7, n + 1, n + 2];
            if n > 0 {
                sizes.extend([n, n - 1]);
            }
            for size in sizes {
                if size == 0 || (n == 1_000_000 && size < 3) {
                    continue;
                }
                let ctx = format!("n={n} size={size}");
                assert_eq!(v.par_windows(size).len(), v.windows(size).len(), "{ctx}");
                let firsts: Vec<(u64, usize)> =
                    v.par_windows(size).map(|w| (w[0], w.len())).collect();
                let expect: Vec<(u64, usize)> = v.windows(size).map(|w| (w[0], w.len())).collect();
                assert_eq!(firsts, expect, "{ctx}");
                if n <= 10_007 {
                    assert_eq!(
                        v.par_windows(size).collect::<Vec<_>>(),
                        v.windows(size).collect::<Vec<_>>(),
                        "{ctx}"
                    );
                }
            }
        }
    });
}

#[test]
fn zero_chunk_or_window_size_panics_like_rayon() {
    let mut v = [1, 2, 3];
    let msg = "chunk_size must not be zero";
    assert!(panic_message(|| drop(v.par_chunks(0))).contains(msg));
    assert!(panic_message(|| drop(v.par_chunks_exact(0))).contains(msg));
    assert!(panic_message(|| drop(v.par_rchunks(0))).contains(msg));
    assert!(panic_message(|| drop(v.par_rchunks_exact(0))).contains(msg));
    assert!(panic_message(|| drop(v.par_chunks_mut(0))).contains(msg));
    assert!(panic_message(|| drop(v.par_chunks_exact_mut(0))).contains(msg));
    assert!(panic_message(|| drop(v.par_rchunks_mut(0))).contains(msg));
    assert!(panic_message(|| drop(v.par_rchunks_exact_mut(0))).contains(msg));
    assert!(panic_message(|| drop(v.par_windows(0))).contains("window_size must not be zero"));
}

// ---- slices: sorts ----

#[test]
fn sorts_match_std() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let v = data(n, 50);
            let mut expect = v.clone();
            expect.sort();

            let mut a = v.clone();
            a.par_sort();
            assert_eq!(a, expect, "par_sort n={n}");
            let mut a = v.clone();
            a.par_sort_unstable();
            assert_eq!(a, expect, "par_sort_unstable n={n}");

            let mut rev = expect.clone();
            rev.reverse();
            let mut a = v.clone();
            a.par_sort_by(|x, y| y.cmp(x));
            assert_eq!(a, rev, "par_sort_by n={n}");
            let mut a = v.clone();
            a.par_sort_unstable_by(|x, y| y.cmp(x));
            assert_eq!(a, rev, "par_sort_unstable_by n={n}");
        }
    });
}

#[test]
fn key_sorts_are_stable_where_promised() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            // (key, original index): few distinct keys, so ties are everywhere.
            let pairs: Vec<(u64, usize)> = data(n, 7).into_iter().zip(0..).collect();
            let mut stable = pairs.clone();
            stable.sort_by_key(|p| p.0);

            let mut a = pairs.clone();
            a.par_sort_by_key(|p| p.0);
            assert_eq!(a, stable, "par_sort_by_key n={n}");

            let mut a = pairs.clone();
            a.par_sort_by(|x, y| x.0.cmp(&y.0));
            assert_eq!(a, stable, "par_sort_by n={n}");

            let calls = AtomicUsize::new(0);
            let mut a = pairs.clone();
            a.par_sort_by_cached_key(|p| {
                calls.fetch_add(1, Ordering::Relaxed);
                p.0
            });
            assert_eq!(a, stable, "par_sort_by_cached_key n={n}");
            assert_eq!(calls.load(Ordering::Relaxed), n, "key calls n={n}");

            // Unstable: keys in order, and the same multiset of pairs.
            let mut a = pairs.clone();
            a.par_sort_unstable_by_key(|p| p.0);
            assert!(a.windows(2).all(|w| w[0].0 <= w[1].0), "n={n}");
            a.sort();
            let mut all = pairs.clone();
            all.sort();
            assert_eq!(a, all, "par_sort_unstable_by_key lost items n={n}");
        }
    });
}

#[test]
fn sort_by_cached_key_with_expensive_distinct_keys() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let words: Vec<String> = data(n, 100_000)
                .iter()
                .map(|x| format!("w{}", x * 37 % 1001))
                .collect();
            let mut expect = words.clone();
            expect.sort_by_cached_key(|w| w.len());
            let mut a = words.clone();
            a.par_sort_by_cached_key(|w| w.len());
            assert_eq!(a, expect, "n={n}");
            let mut expect = words.clone();
            expect.sort_by_cached_key(|w| std::cmp::Reverse(w.clone()));
            let mut a = words;
            a.par_sort_by_cached_key(|w| std::cmp::Reverse(w.clone()));
            assert_eq!(a, expect, "n={n}");
        }
    });
}

// ---- strings ----

/// Chars to build test strings from: multi-byte letters (2, 3 and 4 bytes), every
/// separator the tests use, Unicode and ASCII whitespace (the vertical tab U+000B and
/// U+0085 are whitespace to `split_whitespace` only), and `\r` for `\r\n`.
const DENSE: &[char] = &[
    'a', 'é', '€', '😀', '中', ',', ';', ' ', '\n', '\r', '\u{3000}', '\t', 'x', '\u{a0}', '\x0B',
    '\u{85}',
];

/// A string of `n` chars: `sparse` has a separator about every 300 chars, else dense.
fn text(n: usize, sparse: bool) -> String {
    let letters = ['é', '€', '😀', '中', 'b'];
    let seps = [',', '\n', ' ', ';', '\r'];
    data(n, 1500)
        .iter()
        .map(|&x| {
            let x = x as usize;
            if !sparse {
                DENSE[x % DENSE.len()]
            } else if x < seps.len() {
                seps[x]
            } else {
                letters[x % letters.len()]
            }
        })
        .collect()
}

/// Short strings where the edge cases live: empty, separators only, at both ends,
/// `\r\n` and a lone `\r`, a single multi-byte char.
const EDGES: &[&str] = &[
    "",
    ",",
    ",,",
    "a,",
    ",a",
    "\n",
    "\n\n",
    "\r\n",
    "a\r",
    "a\r\n",
    "\r\n\r\n",
    "a\n\r\nb",
    " ",
    "  a  b ",
    "😀",
    "😀,😀",
    "é\n",
    "\u{3000}x\u{3000}",
    ";;a;;",
    "中,",
];

/// Every string iterator against std on `s`; the splitting ones only, unless `full`.
fn check_string(s: &str, full: bool) {
    let ctx = format!(
        "{:?} ({} bytes)",
        s.chars().take(20).collect::<String>(),
        s.len()
    );
    assert_eq!(
        s.par_split(',').collect::<Vec<_>>(),
        s.split(',').collect::<Vec<_>>(),
        "split {ctx}"
    );
    assert_eq!(
        s.par_lines().collect::<Vec<_>>(),
        s.lines().collect::<Vec<_>>(),
        "lines {ctx}"
    );
    assert_eq!(
        s.par_split_whitespace().collect::<Vec<_>>(),
        s.split_whitespace().collect::<Vec<_>>(),
        "split_whitespace {ctx}"
    );
    assert_eq!(
        s.par_split_inclusive('\n').collect::<Vec<_>>(),
        s.split_inclusive('\n').collect::<Vec<_>>(),
        "split_inclusive {ctx}"
    );
    if !full {
        return;
    }
    assert_eq!(
        s.par_chars().collect::<Vec<_>>(),
        s.chars().collect::<Vec<_>>(),
        "chars {ctx}"
    );
    assert_eq!(
        s.par_char_indices().collect::<Vec<_>>(),
        s.char_indices().collect::<Vec<_>>(),
        "char_indices {ctx}"
    );
    assert_eq!(
        s.par_bytes().collect::<Vec<_>>(),
        s.bytes().collect::<Vec<_>>(),
        "bytes {ctx}"
    );
    assert_eq!(s.par_bytes().len(), s.len());
    assert_eq!(
        s.par_encode_utf16().collect::<Vec<_>>(),
        s.encode_utf16().collect::<Vec<_>>(),
        "utf16 {ctx}"
    );

    let set: &[char] = &[',', ';'];
    assert_eq!(
        s.par_split(set).collect::<Vec<_>>(),
        s.split(set).collect::<Vec<_>>(),
        "split set {ctx}"
    );
    assert_eq!(
        s.par_split([' ', '€']).collect::<Vec<_>>(),
        s.split([' ', '€']).collect::<Vec<_>>(),
        "split array {ctx}"
    );
    assert_eq!(
        s.par_split(&['😀', '\n']).collect::<Vec<_>>(),
        s.split(&['😀', '\n']).collect::<Vec<_>>(),
        "split &array {ctx}"
    );
    let f = |c: char| c == '中' || c == ';';
    assert_eq!(
        s.par_split(f).collect::<Vec<_>>(),
        s.split(f).collect::<Vec<_>>(),
        "split fn {ctx}"
    );

    assert_eq!(
        s.par_split_inclusive(set).collect::<Vec<_>>(),
        s.split_inclusive(set).collect::<Vec<_>>(),
        "split_inclusive set {ctx}"
    );
    assert_eq!(
        s.par_split_terminator(',').collect::<Vec<_>>(),
        s.split_terminator(',').collect::<Vec<_>>(),
        "split_terminator {ctx}"
    );
    assert_eq!(
        s.par_split_terminator(f).collect::<Vec<_>>(),
        s.split_terminator(f).collect::<Vec<_>>(),
        "split_terminator fn {ctx}"
    );

    assert_eq!(
        s.par_split_ascii_whitespace().collect::<Vec<_>>(),
        s.split_ascii_whitespace().collect::<Vec<_>>(),
        "split_ascii_whitespace {ctx}"
    );
    assert_eq!(
        s.par_matches('é').collect::<Vec<_>>(),
        s.matches('é').collect::<Vec<_>>(),
        "matches {ctx}"
    );
    let g = |c: char| c == '😀' || c == ',';
    assert_eq!(
        s.par_match_indices(g).collect::<Vec<_>>(),
        s.match_indices(g).collect::<Vec<_>>(),
        "match_indices {ctx}"
    );
}

#[test]
fn strings_match_std_at_char_boundaries() {
    everywhere(|| {
        for s in EDGES {
            check_string(s, true);
        }
        for &n in LENGTHS {
            // A million chars only for the splitting iterators, to keep the file fast.
            let full = n < 1_000_000;
            check_string(&text(n, false), full);
            check_string(&text(n, true), full);
            // No separator at all: nothing to split at, one piece.
            let plain: String = text(n, false)
                .chars()
                .filter(|c| c.is_alphabetic())
                .collect();
            check_string(&plain, full);
        }
    });
}

#[test]
fn string_sums_and_counts_match_std() {
    everywhere(|| {
        for &n in LENGTHS {
            let s = text(n, false);
            let words = s.par_split_whitespace().count();
            assert_eq!(words, s.split_whitespace().count());
            let total: usize = s.par_lines().map(str::len).sum();
            assert_eq!(total, s.lines().map(str::len).sum::<usize>());
            let code: u64 = s.par_chars().map(|c| c as u64).sum();
            assert_eq!(code, s.chars().map(|c| c as u64).sum::<u64>());
        }
    });
}

// ---- par_bridge ----

/// An iterator that counts the calls to `next` made after its first `None` (an unfused
/// iterator could yield again there; this one says `None` again, so a bad bridge fails
/// the count instead of running forever).
struct Restarting<'a> {
    next: u64,
    end: u64,
    ended: bool,
    calls_after_end: &'a AtomicUsize,
}

impl Iterator for Restarting<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.ended {
            self.calls_after_end.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        if self.next == self.end {
            self.ended = true;
            return None;
        }
        self.next += 1;
        Some(self.next - 1)
    }
}

#[test]
fn par_bridge_yields_every_item_once() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1_000_000);
            let mut par: Vec<u64> = v.iter().map(|x| x * 2).par_bridge().collect();
            let mut seq: Vec<u64> = v.iter().map(|x| x * 2).collect();
            par.sort_unstable();
            seq.sort_unstable();
            assert_eq!(par, seq, "n={n}");
            let s: u64 = v.iter().copied().par_bridge().map(|x| x + 1).sum();
            assert_eq!(s, v.iter().map(|x| x + 1).sum::<u64>(), "n={n}");

            // Not fused: `next` must not be called again once it said `None`.
            let after = AtomicUsize::new(0);
            let it = Restarting {
                next: 0,
                end: n as u64,
                ended: false,
                calls_after_end: &after,
            };
            assert_eq!(it.par_bridge().count(), n, "n={n}");
            assert_eq!(
                after.load(Ordering::Relaxed),
                0,
                "next called after None, n={n}"
            );
        }
    });
}

#[test]
fn par_bridge_takes_a_send_but_not_sync_iterator() {
    everywhere(|| {
        for &n in SMALL_LENGTHS {
            let (tx, rx) = std::sync::mpsc::channel();
            for i in 0..n {
                tx.send(i).unwrap();
            }
            drop(tx);
            let mut got: Vec<usize> = rx.into_iter().par_bridge().collect();
            got.sort_unstable();
            assert_eq!(got, (0..n).collect::<Vec<_>>());
        }
    });
}

/// A tree walk fed back into its own `par_bridge`, as a directory walker's is (jwalk's
/// `next` waits on a queue its own closure fills): `next` waits until a node is queued or
/// none is left unprocessed, and processing a node queues its two children.
struct Frontier<'a> {
    queue: &'a Mutex<Vec<u32>>,
    unprocessed: &'a AtomicUsize,
}

impl Iterator for Frontier<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        loop {
            if let Some(depth) = self.queue.lock().unwrap().pop() {
                return Some(depth);
            }
            if self.unprocessed.load(Ordering::SeqCst) == 0 {
                return None;
            }
            std::thread::yield_now();
        }
    }
}

/// A bridge that asked for a second item before processing its first (it took them in
/// batches) waited here for itself forever, on every pool: the 60 s watchdog fails it.
#[test]
fn par_bridge_feeds_a_walk_whose_next_waits_for_the_items_it_processes() {
    const DEPTH: u32 = 10;
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        everywhere(|| {
            let queue = Mutex::new(vec![0u32]);
            let unprocessed = AtomicUsize::new(1);
            let visited = AtomicUsize::new(0);
            Frontier {
                queue: &queue,
                unprocessed: &unprocessed,
            }
            .par_bridge()
            .for_each(|depth| {
                if depth < DEPTH {
                    unprocessed.fetch_add(2, Ordering::SeqCst);
                    queue.lock().unwrap().extend([depth + 1, depth + 1]);
                }
                visited.fetch_add(1, Ordering::Relaxed);
                unprocessed.fetch_sub(1, Ordering::SeqCst);
            });
            assert_eq!(visited.into_inner(), (1 << (DEPTH + 1)) - 1);
        });
        done.send(()).unwrap();
    });
    match finished.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(()) => {}
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("the walk did not finish in 60 s: the bridge waits for items it holds")
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            panic!("the walk failed (its panic is printed above)")
        }
    }
}

// ---- repeat, repeat_n, once, empty ----

#[test]
fn repeat_once_and_empty_match_std() {
    use splitsteal::iter::{empty, once, repeat, repeat_n, repeatn};
    everywhere(|| {
        for &n in LENGTHS {
            let expect = vec![3u8; n];
            assert_eq!(repeat_n(3u8, n).collect::<Vec<_>>(), expect, "n={n}");
            assert_eq!(repeatn(3u8, n).len(), n);
            assert_eq!(repeat(3u8).take(n).collect::<Vec<_>>(), expect, "n={n}");
            let strings: Vec<String> = repeat_n(String::from("ab"), n.min(10_007)).collect();
            assert_eq!(
                strings,
                std::iter::repeat_n(String::from("ab"), n.min(10_007)).collect::<Vec<_>>()
            );
        }
        assert_eq!(once(9).collect::<Vec<_>>(), [9]);
        assert_eq!(once(9).len(), 1);
        assert_eq!(empty::<u32>().collect::<Vec<_>>(), Vec::<u32>::new());
        assert_eq!(empty::<u32>().sum::<u32>(), 0);
    });
}

//! Issue 4: every data-parallel primitive against its sequential std equivalent, on
//! random inputs of the awkward sizes (0, 1, primes, around a morsel) and distributions
//! (uniform, few distinct, all equal, sorted, reversed), under the serial context, a
//! thread-spawning context and splitsteal pools of every policy; plus a few inputs of
//! millions of elements, and panics in user closures.

// proptest is not a dev-dependency under Miri (see Cargo.toml).
#![cfg(not(miri))]

use std::collections::HashSet;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

use proptest::prelude::*;
use splitsteal::{par, Current, ForkJoin, Policy, Serial, ThreadPool, ThreadPoolBuilder};

/// `v`, sorted: the order-free view of an unordered result.
fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

/// Runs `b` on a fresh scoped thread for the first levels of recursion: a second,
/// independent parallel context.
#[derive(Clone, Copy)]
struct Spawn(u32);

impl ForkJoin for Spawn {
    fn join<A, B, RA, RB>(&mut self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(&mut Self) -> RA + Send,
        B: FnOnce(&mut Self) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        if self.0 == 0 {
            let ra = a(self);
            return (ra, b(self));
        }
        let d = self.0 - 1;
        std::thread::scope(|s| {
            let h = s.spawn(move || b(&mut Spawn(d)));
            let ra = a(&mut Spawn(d));
            match h.join() {
                Ok(rb) => (ra, rb),
                Err(p) => std::panic::resume_unwind(p),
            }
        })
    }
    fn num_threads(&self) -> usize {
        4
    }
}

/// One 2-thread pool per policy, shared by all tests (morsel sizes vary by policy, so
/// several morsel sizes are exercised too).
fn pools() -> &'static [ThreadPool] {
    static POOLS: OnceLock<Vec<ThreadPool>> = OnceLock::new();
    POOLS.get_or_init(|| {
        Policy::ALL
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                ThreadPoolBuilder::new()
                    .num_threads(2)
                    .policy(p)
                    .morsel_bytes([128, 64, 256, 4096][i % 4])
                    .build()
                    .unwrap()
            })
            .collect()
    })
}

/// Where a case runs: 0 = Serial, 1 = Spawn, 2.. = the pool of policy `k - 2`.
fn on<R: Send>(k: usize, f: impl FnOnce(&mut dyn FnMutCtx) -> R + Send) -> R {
    match k {
        0 => f(&mut Serial),
        1 => f(&mut Spawn(3)),
        _ => pools()[(k - 2) % Policy::ALL.len()].install(|| f(&mut Current)),
    }
}

/// The primitives are generic, so a case is run through a small object-safe shim that
/// dispatches on the context's concrete type.
trait FnMutCtx {
    fn serial(&mut self) -> Option<&mut Serial> {
        None
    }
    fn spawn(&mut self) -> Option<&mut Spawn> {
        None
    }
    fn current(&mut self) -> Option<&mut Current> {
        None
    }
}
impl FnMutCtx for Serial {
    fn serial(&mut self) -> Option<&mut Serial> {
        Some(self)
    }
}
impl FnMutCtx for Spawn {
    fn spawn(&mut self) -> Option<&mut Spawn> {
        Some(self)
    }
}
impl FnMutCtx for Current {
    fn current(&mut self) -> Option<&mut Current> {
        Some(self)
    }
}

/// Calls the generic expression `$e` with `$c` bound to the concrete context.
macro_rules! with_ctx {
    ($dyn:expr, |$c:ident| $e:expr) => {{
        let d: &mut dyn FnMutCtx = $dyn;
        if let Some($c) = d.serial() {
            $e
        } else if let Some($c) = d.spawn() {
            $e
        } else if let Some($c) = d.current() {
            $e
        } else {
            unreachable!()
        }
    }};
}

fn ctxs() -> std::ops::Range<usize> {
    0..2 + Policy::ALL.len()
}

/// Sizes: 0, 1, primes, around a 16-element (128-byte) morsel of u64 and around block
/// sizes, or anything up to 5000.
fn size() -> impl Strategy<Value = usize> {
    prop_oneof![
        prop::sample::select(vec![
            0usize, 1, 2, 3, 7, 13, 15, 16, 17, 31, 32, 33, 127, 128, 129, 511, 512, 513, 4093,
            4096, 4099
        ]),
        0usize..5000,
    ]
}

/// Inputs: uniform, few distinct values, all equal, sorted, reversed.
fn input() -> impl Strategy<Value = Vec<u64>> {
    (size(), 0u8..5, any::<u64>()).prop_flat_map(|(n, shape, seed)| {
        let base = prop::collection::vec(any::<u64>(), n);
        base.prop_map(move |mut v| {
            match shape {
                0 => {}
                1 => v.iter_mut().for_each(|x| *x %= 5),
                2 => v.iter_mut().for_each(|x| *x = seed),
                3 => v.sort_unstable(),
                _ => {
                    v.sort_unstable();
                    v.reverse()
                }
            }
            v
        })
    })
}

fn seq_scan(v: &[u64]) -> (Vec<u64>, u64) {
    let mut acc = 0u64;
    let out = v
        .iter()
        .map(|&x| {
            let o = acc;
            acc = acc.wrapping_add(x);
            o
        })
        .collect();
    (out, acc)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn loops_visit_every_index_once(n in size(), start in 0usize..100, k in ctxs()) {
        let hits: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        on(k, |c| with_ctx!(c, |c| par::par_for(c, start..start + n, |i| {
            hits[i - start].fetch_add(1, Ordering::Relaxed);
        })));
        prop_assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        let hits: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        on(k, |c| with_ctx!(c, |c| par::par_for_grain(c, start..start + n, 7, |i| {
            hits[i - start].fetch_add(1, Ordering::Relaxed);
        })));
        prop_assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        let mut v = vec![0usize; n];
        on(k, |c| with_ctx!(c, |c| par::for_each_mut(c, &mut v, |i, x| *x += i + 1)));
        prop_assert_eq!(v, (1..=n).collect::<Vec<_>>());
    }

    #[test]
    fn tabulate_map_reduce(v in input(), k in ctxs()) {
        let t = on(k, |c| with_ctx!(c, |c| par::tabulate(c, v.len(), |i| v[i] ^ i as u64)));
        prop_assert_eq!(t, v.iter().enumerate().map(|(i, x)| x ^ i as u64).collect::<Vec<_>>());
        let m = on(k, |c| with_ctx!(c, |c| par::map(c, &v, |x| x.to_string())));
        prop_assert_eq!(m, v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        let r = on(k, |c| with_ctx!(c, |c| par::reduce(c, &v, || 0, u64::wrapping_add)));
        prop_assert_eq!(r, v.iter().fold(0u64, |a, &b| a.wrapping_add(b)));
        // A non-commutative monoid: the order of the leaves must be kept.
        let cat = on(k, |c| with_ctx!(c, |c| par::map_reduce(c, &v, |x| vec![*x], Vec::new, |mut a, b| {
            a.extend(b);
            a
        })));
        prop_assert_eq!(&cat, &v);
        let mx = on(k, |c| with_ctx!(c, |c| par::map_reduce_range(c, 0..v.len(), |i| v[i], || 0, u64::max)));
        prop_assert_eq!(mx, v.iter().copied().max().unwrap_or(0));
        let s = on(k, |c| with_ctx!(c, |c| par::sum(c, &v.iter().map(|x| x % 1000).collect::<Vec<_>>())));
        prop_assert_eq!(s, v.iter().map(|x| x % 1000).sum::<u64>());
    }

    #[test]
    fn scans(v in input(), k in ctxs()) {
        let (ex, total) = seq_scan(&v);
        let incl: Vec<u64> = ex.iter().zip(&v).map(|(a, b)| a.wrapping_add(*b)).collect();
        let add = u64::wrapping_add;
        prop_assert_eq!(on(k, |c| with_ctx!(c, |c| par::scan(c, &v, || 0, add))), (ex.clone(), total));
        prop_assert_eq!(&on(k, |c| with_ctx!(c, |c| par::scan_inclusive(c, &v, || 0, add))), &incl);
        let mut w = v.clone();
        let t = on(k, |c| with_ctx!(c, |c| par::scan_inplace(c, &mut w, || 0, add)));
        prop_assert_eq!(t, total);
        prop_assert_eq!(&w, &ex);
        let mut w = v.clone();
        on(k, |c| with_ctx!(c, |c| par::scan_inclusive_inplace(c, &mut w, || 0, add)));
        prop_assert_eq!(&w, &incl);
    }

    #[test]
    fn filters_and_packs(v in input(), k in ctxs()) {
        let keep = |x: &u64| x % 3 != 1;
        let want: Vec<u64> = v.iter().copied().filter(keep).collect();
        prop_assert_eq!(&on(k, |c| with_ctx!(c, |c| par::filter(c, &v, keep))), &want);
        let flags: Vec<bool> = v.iter().map(keep).collect();
        prop_assert_eq!(&on(k, |c| with_ctx!(c, |c| par::pack(c, &v, &flags))), &want);
        let idx: Vec<usize> = (0..v.len()).filter(|&i| flags[i]).collect();
        prop_assert_eq!(on(k, |c| with_ctx!(c, |c| par::pack_index(c, &flags))), idx);
        let mut d = v.clone();
        d.dedup();
        prop_assert_eq!(on(k, |c| with_ctx!(c, |c| par::dedup(c, &v))), d);
    }

    #[test]
    fn comparison_sorts(v in input(), k in ctxs()) {
        // Stability: sort pairs by the key only.
        let pairs: Vec<(u64, usize)> = v.iter().map(|x| x % 64).zip(0..).collect();
        let mut want = pairs.clone();
        want.sort_by_key(|p| p.0);
        let mut w = pairs.clone();
        on(k, |c| with_ctx!(c, |c| par::sort_by_key(c, &mut w, |p| p.0)));
        prop_assert_eq!(&w, &want);
        let mut w = pairs.clone();
        on(k, |c| with_ctx!(c, |c| par::sort_by(c, &mut w, |a, b| a.0.cmp(&b.0))));
        prop_assert_eq!(&w, &want);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        let mut w = v.clone();
        on(k, |c| with_ctx!(c, |c| par::sort(c, &mut w)));
        prop_assert_eq!(&w, &sorted);
        let mut w = v.clone();
        on(k, |c| with_ctx!(c, |c| par::sort_unstable(c, &mut w)));
        prop_assert_eq!(&w, &sorted);
        let mut w = v.clone();
        on(k, |c| with_ctx!(c, |c| par::sort_unstable_by(c, &mut w, |a, b| b.cmp(a))));
        prop_assert!(w.iter().eq(sorted.iter().rev()));
        let mut w = v.clone();
        on(k, |c| with_ctx!(c, |c| par::sort_unstable_by_key(c, &mut w, |x| *x)));
        prop_assert_eq!(&w, &sorted);
    }

    #[test]
    fn integer_sorts(v in input(), bits in prop::sample::select(vec![1u32, 7, 8, 16, 17, 33, 64]), k in ctxs()) {
        let mask = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
        let pairs: Vec<(u64, usize)> = v.iter().copied().zip(0..).collect();
        let mut want = pairs.clone();
        want.sort_by_key(|p| p.0 & mask);
        let mut w = pairs.clone();
        on(k, |c| with_ctx!(c, |c| par::integer_sort_by_key(c, &mut w, bits, |p| p.0)));
        prop_assert_eq!(&w, &want);
        let mut w: Vec<i32> = v.iter().map(|&x| x as i32).collect();
        let mut s = w.clone();
        s.sort_unstable();
        on(k, |c| with_ctx!(c, |c| par::integer_sort(c, &mut w)));
        prop_assert_eq!(w, s);
    }

    #[test]
    fn histograms(v in input(), buckets in prop::sample::select(vec![1usize, 2, 16, 1000, 100_000]), k in ctxs()) {
        let mut want = vec![0usize; buckets];
        v.iter().for_each(|&x| want[(x % buckets as u64) as usize] += 1);
        let got = on(k, |c| with_ctx!(c, |c| par::histogram(c, &v, buckets, |&x| (x % buckets as u64) as usize)));
        prop_assert_eq!(got, want);
    }

    #[test]
    fn remove_duplicates(v in input(), k in ctxs()) {
        let v: Vec<u64> = v.iter().map(|x| x % 700).collect();
        let mut seen = HashSet::new();
        let want: Vec<u64> = v.iter().copied().filter(|x| seen.insert(*x)).collect();
        prop_assert_eq!(on(k, |c| with_ctx!(c, |c| par::remove_duplicates_in_order(c, &v))), want.clone());
        prop_assert_eq!(sorted(on(k, |c| with_ctx!(c, |c| par::remove_duplicates(c, &v)))), sorted(want));
        let s: Vec<String> = v.iter().map(|x| format!("k{x}")).collect();
        let mut seen = HashSet::new();
        let want: Vec<String> = s.iter().filter(|x| seen.insert(*x)).cloned().collect();
        prop_assert_eq!(on(k, |c| with_ctx!(c, |c| par::remove_duplicates_in_order(c, &s))), want.clone());
        prop_assert_eq!(sorted(on(k, |c| with_ctx!(c, |c| par::remove_duplicates(c, &s)))), sorted(want));
    }
}

/// Millions of elements, once, on a 2-thread pool (and the sorts on every policy).
#[test]
fn millions() {
    // 20 MB of u64: above the size from which scans go in rounds.
    let n = 2_500_009usize;
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let v: Vec<u64> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        })
        .collect();
    let mut sorted = v.clone();
    sorted.sort_unstable();
    let pool = &pools()[0];
    pool.install(|| {
        let c = &mut Current;
        let mut w = v.clone();
        par::sort(c, &mut w);
        assert!(w == sorted);
        let mut w = v.clone();
        par::integer_sort(c, &mut w);
        assert!(w == sorted);
        let (ex, total) = seq_scan(&v);
        assert!(par::scan(c, &v, || 0, u64::wrapping_add) == (ex.clone(), total));
        let mut w = v.clone();
        assert_eq!(par::scan_inplace(c, &mut w, || 0, u64::wrapping_add), total);
        assert!(w == ex);
        let keep = |x: &u64| x % 4 == 1;
        assert!(par::filter(c, &v, keep) == v.iter().copied().filter(keep).collect::<Vec<_>>());
        let h = par::histogram(c, &v, 1 << 16, |&x| (x >> 48) as usize);
        assert_eq!(h.iter().sum::<usize>(), n);
        let small: Vec<u64> = v.iter().map(|x| x % 1000).collect();
        let d = par::remove_duplicates(c, &small);
        assert_eq!(d.len(), 1000);
        // About 6x10^4 distinct values, then a low estimate (half the elements are 10^4
        // values, each in the sample about once, so it looks flat) with about 10^6
        // distinct ones: grouped here; on one thread (`Serial`) one table, which the
        // second input outgrows part-way.
        let mid: Vec<u64> = v.iter().map(|x| x % 60_000).collect();
        let skewed: Vec<u64> = v
            .iter()
            .enumerate()
            .map(|(i, x)| if i % 2 == 0 { x % 10_000 } else { *x })
            .collect();
        for w in [&mid, &skewed] {
            let want: HashSet<u64> = w.iter().copied().collect();
            for d in [
                par::remove_duplicates(c, w),
                par::remove_duplicates(&mut Serial, w),
            ] {
                let got: HashSet<u64> = d.iter().copied().collect();
                assert_eq!(got.len(), d.len(), "a value returned twice");
                assert!(got == want);
            }
        }
        let d = par::remove_duplicates_in_order(c, &small);
        let mut seen = HashSet::new();
        assert!(
            d == small
                .iter()
                .copied()
                .filter(|x| seen.insert(*x))
                .collect::<Vec<_>>()
        );
    });
    // The other policies, on a tenth of the input (debug-mode sorts are slow).
    let v = &v[..n / 10];
    let mut sorted = v.to_vec();
    sorted.sort_unstable();
    for p in pools().iter().skip(1) {
        let mut w = v.to_vec();
        p.install(|| par::sort_unstable(&mut Current, &mut w));
        assert!(w == sorted, "policy {}", p.policy());
    }
}

/// A panic in a user closure reaches the caller, under every policy, and the pool keeps
/// working afterwards.
#[test]
fn panics_propagate_and_pools_stay_usable() {
    let v: Vec<u64> = (0..50_000).rev().collect();
    for pool in pools() {
        let boom = |x: u64| {
            if x == 777 {
                panic!("boom at {x}");
            }
        };
        let cases: Vec<Box<dyn Fn() + Sync>> = vec![
            Box::new(|| par::par_for(&mut Current, 0..50_000, |i| boom(i as u64))),
            Box::new(|| {
                drop(par::map(&mut Current, &v, |&x| {
                    boom(x);
                    vec![x]
                }))
            }),
            Box::new(|| {
                let _ = par::map_reduce(
                    &mut Current,
                    &v,
                    |&x| {
                        boom(x);
                        x
                    },
                    || 0,
                    |a, b| a + b,
                );
            }),
            Box::new(|| {
                drop(par::scan(
                    &mut Current,
                    &v,
                    || 0,
                    |a, b| {
                        boom(b);
                        a + b
                    },
                ))
            }),
            Box::new(|| {
                drop(par::filter(&mut Current, &v, |&x| {
                    boom(x);
                    true
                }))
            }),
            Box::new(|| {
                let mut w: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                par::sort_by(&mut Current, &mut w, |a, b| {
                    boom(a.len() as u64 * 259);
                    a.cmp(b)
                });
            }),
            Box::new(|| {
                let mut w: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                par::integer_sort_by_key(&mut Current, &mut w, 20, |s| {
                    let x: u64 = s.parse().unwrap();
                    boom(x);
                    x
                });
            }),
            Box::new(|| {
                drop(par::histogram(&mut Current, &v, 50_000, |&x| {
                    boom(x);
                    x as usize
                }))
            }),
        ];
        for (i, case) in cases.iter().enumerate() {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.install(case)));
            let err = r.expect_err("the panic must propagate");
            let msg = err
                .downcast_ref::<String>()
                .map(String::as_str)
                .unwrap_or("");
            assert!(
                msg.contains("boom"),
                "case {i} under {}: {msg:?}",
                pool.policy()
            );
            // Still usable.
            let s = pool.install(|| par::sum(&mut Current, &v));
            assert_eq!(s, (0..50_000u64).sum::<u64>());
        }
    }
}

// ---------------------------------------------------------------------------------------
// Issue 16 (sorts): PBBS's input families for the comparison and integer sorts, at sizes
// past the sorts' sequential cutoffs (8192 elements for the comparison sorts, 65536 for
// the radix sort), where the presortedness pre-pass and the parallel passes run.
// ---------------------------------------------------------------------------------------

fn mix16(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A PBBS input family of `n` keys: 0 random, 1 exponential (PBBS exptSeq's shape: key
/// sizes log-uniform, small keys repeat exponentially often), 2 small key range, 3 almost
/// sorted (`sqrt(n)` swaps of `0..n`), 4 almost sorted with runs of 3 equal keys, 5 all
/// equal, 6 strictly reversed, 7 reversed with equal runs, 8 sorted, 9 reversed with a
/// tie every 1000 elements (a probe of neighbour pairs sees only descents).
fn family16(n: usize, fam: u8, seed: u64) -> Vec<u64> {
    let h = |i: u64| mix16(seed ^ mix16(i));
    let lg = 64 - (n as u64).leading_zeros() as u64 + 1;
    let mut v: Vec<u64> = (0..n as u64)
        .map(|i| match fam {
            0 => h(i),
            1 => {
                let r = 1u64 << (h(2 * i) % lg);
                mix16(r + h(2 * i + 1) % r) % (n as u64).max(1)
            }
            2 => h(i) % 1000,
            3 | 8 => i,
            4 => i / 3,
            5 => 42,
            6 => n as u64 - i,
            9 => n as u64 - i + (i % 1000 == 999) as u64,
            _ => (n as u64 - i) / 3,
        })
        .collect();
    if fam == 3 || fam == 4 {
        let swaps = (n as f64).sqrt() as u64;
        for s in 0..swaps {
            let (a, b) = (
                h(n as u64 + 2 * s) as usize % n,
                h(n as u64 + 2 * s + 1) as usize % n,
            );
            v.swap(a, b);
        }
    }
    v
}

fn size16(big: std::ops::Range<usize>) -> impl Strategy<Value = usize> {
    prop_oneof![prop::sample::select(vec![0usize, 1, 2, 3]), big]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn comparison_sorts_on_pbbs_families(n in size16(8193..40_000), fam in 0u8..10, seed in any::<u64>(), k in ctxs()) {
        let v = family16(n, fam, seed);
        // Stability: pairs sorted by a key with many ties (the key divided by 4), or with
        // family 9's few ties.
        let div = if fam == 9 { 1 } else { 4 };
        let pairs: Vec<(u64, usize)> = v.iter().map(|x| x / div).zip(0..).collect();
        let mut want = pairs.clone();
        want.sort_by_key(|p| p.0);
        let mut w = pairs.clone();
        on(k, |c| with_ctx!(c, |c| par::sort_by_key(c, &mut w, |p| p.0)));
        prop_assert_eq!(&w, &want, "stable sort, family {}", fam);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        let mut w = v.clone();
        on(k, |c| with_ctx!(c, |c| par::sort(c, &mut w)));
        prop_assert_eq!(&w, &sorted, "sort, family {}", fam);
        let mut w = v.clone();
        on(k, |c| with_ctx!(c, |c| par::sort_unstable(c, &mut w)));
        prop_assert_eq!(&w, &sorted, "sort_unstable, family {}", fam);
        let mut w = pairs.clone();
        on(k, |c| with_ctx!(c, |c| par::sort_unstable_by_key(c, &mut w, |p| p.0)));
        prop_assert!(w.iter().map(|p| p.0).eq(want.iter().map(|p| p.0)), "unstable by key, family {}", fam);
        w.sort();
        let mut all = pairs.clone();
        all.sort();
        prop_assert_eq!(w, all, "unstable sort lost elements, family {}", fam);
    }

    #[test]
    fn integer_sorts_on_pbbs_families(n in size16(65_537..140_000), fam in 0u8..10, seed in any::<u64>(), k in ctxs()) {
        let v = family16(n, fam, seed);
        let pairs: Vec<(u64, usize)> = v.iter().copied().zip(0..).collect();
        let mut want = pairs.clone();
        want.sort_by_key(|p| p.0 & 0xff_ffff);
        let mut w = pairs.clone();
        on(k, |c| with_ctx!(c, |c| par::integer_sort_by_key(c, &mut w, 24, |p| p.0)));
        prop_assert_eq!(&w, &want, "integer_sort_by_key, family {}", fam);
        let mut w = v.clone();
        let mut s = v.clone();
        s.sort_unstable();
        on(k, |c| with_ctx!(c, |c| par::integer_sort(c, &mut w)));
        prop_assert_eq!(w, s, "integer_sort, family {}", fam);
    }
}

/// Issue 16's input families (PBBS's generators' shapes): exponential (key sizes
/// log-uniform, small keys repeat often: exptSeq), a small key range, almost sorted
/// (`0..n` with `sqrt(n)` swaps: almostSortedSeq), all equal, reversed; sizes include 0
/// and 1. Returns the keys and their range (every key is below it).
fn family() -> impl Strategy<Value = (Vec<u64>, u64)> {
    (size(), 0u8..5, any::<u64>(), 1u64..2000).prop_map(|(n, shape, seed, k)| {
        let h = |i: u64| {
            let mut z = seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z ^ (z >> 31)
        };
        let nn = (n as u64).max(1);
        let v: Vec<u64> = match shape {
            0 => {
                let lg = 64 - nn.leading_zeros() as u64;
                (0..n as u64)
                    .map(|i| {
                        let r = 1u64 << (h(2 * i) % lg);
                        (r + h(2 * i + 1) % r) % nn
                    })
                    .collect()
            }
            1 => (0..n as u64).map(|i| h(i) % k).collect(),
            2 => {
                let mut v: Vec<u64> = (0..n as u64).collect();
                for s in 0..(n as f64).sqrt() as u64 {
                    v.swap((h(2 * s) % nn) as usize, (h(2 * s + 1) % nn) as usize);
                }
                v
            }
            3 => vec![seed % nn; n],
            _ => (0..n as u64).rev().collect(),
        };
        let range = if shape == 1 { k } else { nn };
        (v, range)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn families_remove_duplicates((v, _) in family(), k in ctxs()) {
        let mut seen = HashSet::new();
        let want: Vec<u64> = v.iter().copied().filter(|x| seen.insert(*x)).collect();
        prop_assert_eq!(on(k, |c| with_ctx!(c, |c| par::remove_duplicates_in_order(c, &v))), want.clone());
        prop_assert_eq!(sorted(on(k, |c| with_ctx!(c, |c| par::remove_duplicates(c, &v)))), sorted(want));
    }

    #[test]
    fn families_histogram((v, range) in family(), k in ctxs()) {
        let buckets = range as usize;
        let mut want = vec![0usize; buckets];
        v.iter().for_each(|&x| want[x as usize] += 1);
        prop_assert_eq!(on(k, |c| with_ctx!(c, |c| par::histogram(c, &v, buckets, |&x| x as usize))), want);
    }
}

/// The large-input paths, once each on a 2-thread pool: histograms over more buckets than
/// fit in cache (partitioned by bucket range), with exponential and small-range keys, and
/// a dedup whose distinct-count estimate is too low (a sample that sees mostly one heavy
/// value), so that its table fills and the build starts over, and one of distinct values
/// (the sorting path).
#[test]
fn families_large() {
    let n = 600_000usize;
    let h = |i: u64| {
        let mut z = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z ^ (z >> 31)
    };
    let buckets = 1usize << 20;
    let expt: Vec<u64> = (0..n as u64)
        .map(|i| {
            let r = 1u64 << (h(2 * i) % 21);
            (r + h(2 * i + 1) % r) % buckets as u64
        })
        .collect();
    let small: Vec<u64> = (0..n as u64).map(|i| h(i) % 1000).collect();
    // 90% zeros, the rest distinct: 60_000 distinct values, of which a sample sees ~10%.
    let heavy: Vec<u64> = (0..n as u64)
        .map(|i| if i % 10 == 0 { i } else { 0 })
        .collect();
    pools()[0].install(|| {
        let c = &mut Current;
        for v in [&expt, &small] {
            let mut want = vec![0usize; buckets];
            v.iter().for_each(|&x| want[x as usize] += 1);
            assert!(par::histogram(c, v, buckets, |&x| x as usize) == want);
        }
        // All distinct (reversed): the sample sees no repeats, so the sort path runs.
        let distinct: Vec<u64> = (0..n as u64).rev().collect();
        for v in [&expt, &small, &heavy, &distinct] {
            let mut seen = HashSet::new();
            let want: Vec<u64> = v.iter().copied().filter(|x| seen.insert(*x)).collect();
            assert!(par::remove_duplicates_in_order(c, v) == want);
            assert!(sorted(par::remove_duplicates(c, v)) == sorted(want));
        }
    });
}

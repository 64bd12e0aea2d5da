//! The core of the parallel iterators (sources, `map`, `sum`, `reduce`, `collect` into a
//! `Vec`) against the sequential `Iterator`, everywhere.

mod iter_common;

use iter_common::{data, everywhere, LENGTHS};
use splitsteal::prelude::*;

#[test]
fn slice_map_sum_matches_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 1000);
            let par: u64 = v.par_iter().map(|x| x * 3).sum();
            assert_eq!(par, v.iter().map(|x| x * 3).sum::<u64>(), "n={n}");
        }
    });
}

#[test]
fn ranges_of_every_width_match_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v: Vec<usize> = (0..n).into_par_iter().collect();
            assert_eq!(v, (0..n).collect::<Vec<_>>());
            let s: i64 = (-(n as i64)..=n as i64).into_par_iter().sum();
            assert_eq!(s, 0);
            let c = (0..n as u64).into_par_iter().count();
            assert_eq!(c, n);
        }
        let bytes: Vec<u8> = (0..=255u8).into_par_iter().collect();
        assert_eq!(bytes, (0..=255u8).collect::<Vec<_>>());
        let down: Vec<i8> = (-128..=127i8).into_par_iter().collect();
        assert_eq!(down, (-128..=127i8).collect::<Vec<_>>());
        let (hi, lo) = (5, 3);
        assert_eq!((hi..lo).into_par_iter().count(), 0);
    });
}

#[test]
fn collect_is_in_order_and_reuses_nothing_stale() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, u64::MAX);
            let doubled: Vec<u64> = v.par_iter().map(|x| x.wrapping_mul(2)).collect();
            assert_eq!(
                doubled,
                v.iter().map(|x| x.wrapping_mul(2)).collect::<Vec<_>>()
            );
            let mut target = vec![7u64; 5];
            v.par_iter().map(|x| *x).collect_into_vec(&mut target);
            assert_eq!(target, v);
            let mut ext = vec![1u64, 2];
            ext.par_extend(v.clone().into_par_iter());
            assert_eq!(ext.len(), n + 2);
            assert_eq!(&ext[2..], &v[..]);
        }
    });
}

#[test]
fn par_iter_mut_touches_every_item_once() {
    everywhere(|| {
        for &n in LENGTHS {
            let mut v = data(n, 1000);
            let expect: Vec<u64> = v.iter().map(|x| x + 1).collect();
            v.par_iter_mut().for_each(|x| *x += 1);
            assert_eq!(v, expect);
        }
    });
}

#[test]
fn reduce_keeps_order_of_a_non_commutative_operator() {
    everywhere(|| {
        for &n in LENGTHS {
            // Concatenation is associative but not commutative: any reordering shows.
            let v: Vec<Vec<usize>> = (0..n.min(20_000)).map(|i| vec![i]).collect();
            let joined = v.into_par_iter().reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
            assert_eq!(joined, (0..n.min(20_000)).collect::<Vec<_>>());
        }
    });
}

#[test]
fn product_and_count() {
    everywhere(|| {
        let p: u128 = (1..=30u64).into_par_iter().map(u128::from).product();
        assert_eq!(p, (1..=30u128).product());
        assert_eq!((0..1_000_000usize).into_par_iter().count(), 1_000_000);
        assert_eq!(Vec::<u8>::new().par_iter().map(|_| 1u32).sum::<u32>(), 0);
        assert_eq!(
            Vec::<u8>::new().par_iter().map(|_| 2u32).product::<u32>(),
            1
        );
    });
}

#[test]
fn count_runs_the_closures_of_a_known_length_iterator() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    everywhere(|| {
        let seen = AtomicUsize::new(0);
        let n = (0..1000usize)
            .into_par_iter()
            .map(|x| {
                seen.fetch_add(1, Ordering::Relaxed);
                x
            })
            .count();
        assert_eq!((n, seen.into_inner()), (1000, 1000));
    });
}

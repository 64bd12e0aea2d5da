//! The core of the parallel iterators (sources, `map`, `sum`, `reduce`, `collect` into a
//! `Vec`) against the sequential `Iterator`, everywhere.

use crate::common::{data, everywhere, LENGTHS};
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

#[test]
fn comparisons_match_sequential() {
    use std::cmp::Ordering;
    everywhere(|| {
        for &n in LENGTHS {
            let a = data(n, 3);
            let mut b = a.clone();
            assert_eq!(a.par_iter().cmp(&b), Ordering::Equal, "n={n}");
            assert!(a.par_iter().eq(&b) && a.par_iter().le(&b) && a.par_iter().ge(&b));
            if n == 0 {
                continue;
            }
            // Change one item near the end: the first difference decides, not the last.
            let at = n - 1 - n / 7;
            b[at] += 1;
            if at + 1 < n {
                b[n - 1] = 0;
            }
            assert_eq!(a.par_iter().cmp(&b), a.iter().cmp(b.iter()), "n={n}");
            assert_eq!(b.par_iter().cmp(&a), b.iter().cmp(a.iter()), "n={n}");
            assert_eq!(a.par_iter().partial_cmp(&b), a.iter().partial_cmp(b.iter()));
            assert!(a.par_iter().ne(&b) && a.par_iter().lt(&b) && b.par_iter().gt(&a));
            // A proper prefix is less.
            assert_eq!(a[..n - 1].par_iter().cmp(&a), Ordering::Less, "n={n}");
            assert!(!a[..n - 1].par_iter().eq(&a));
        }
        let nan = [1.0, f64::NAN];
        assert_eq!(nan.par_iter().partial_cmp(&[1.0, 2.0]), None);
    });
}

#[test]
fn unzip_into_vecs_replaces_the_contents() {
    everywhere(|| {
        for &n in LENGTHS {
            let (mut left, mut right) = (vec![7u64; 3], vec![8usize; 40]);
            let v = data(n, 1000);
            v.par_iter()
                .map(|&x| (x, x as usize * 2))
                .unzip_into_vecs(&mut left, &mut right);
            let (l, r): (Vec<u64>, Vec<usize>) = v.iter().map(|&x| (x, x as usize * 2)).unzip();
            assert_eq!((left, right), (l, r), "n={n}");
        }
    });
}

#[test]
fn positions_match_sequential() {
    everywhere(|| {
        for &n in LENGTHS {
            let v = data(n, 5);
            let par: Vec<usize> = v.par_iter().positions(|&x| x == 0).collect();
            let seq: Vec<usize> = (0..n).filter(|&i| v[i] == 0).collect();
            assert_eq!(par, seq, "n={n}");
        }
    });
}

#[test]
fn while_some_passes_the_prefix_and_stops_at_a_none() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    everywhere(|| {
        for &n in LENGTHS {
            // Without a None: everything, in order.
            let all: Vec<usize> = (0..n).into_par_iter().map(Some).while_some().collect();
            assert_eq!(all, (0..n).collect::<Vec<_>>(), "n={n}");
            if n < 2 {
                continue;
            }
            // A None at `cut`: every item before it that a piece reached is kept in order,
            // the None's item never appears, and on a long input most items are never read.
            let cut = n / 3;
            let read = AtomicUsize::new(0);
            let got: Vec<usize> = (0..n)
                .into_par_iter()
                .map(|i| {
                    read.fetch_add(1, Ordering::Relaxed);
                    (i != cut).then_some(i)
                })
                .while_some()
                .collect();
            assert!(!got.contains(&cut), "n={n}");
            assert!(got.windows(2).all(|w| w[0] < w[1]), "n={n}: out of order");
            if n == 1_000_000 {
                let read = read.into_inner();
                assert!(
                    read < n,
                    "n={n}: read all {read} items after a None at {cut}"
                );
            }
        }
    });
}

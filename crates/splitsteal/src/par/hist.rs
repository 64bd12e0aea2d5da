//! `histogram`.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::basic::tabulate;
use super::split::{block_target, map_blocks, run, Align, Blocks, Grain};
use crate::ForkJoin;

const SEQ_HIST: usize = if cfg!(any(test, miri)) { 64 } else { 1 << 12 };

/// Counts the elements of `v` per bucket: `out[b]` is the number of `x` with
/// `key(x) == b`, for `b < buckets` (rayon: a `fold` of local count vectors followed by a
/// `reduce` that adds them).
///
/// With few buckets relative to `v.len()`, each block of `v` counts into a private
/// histogram and the histograms are added in parallel per bucket; with many (more than
/// about `v.len() / (2 * threads)`), workers increment shared atomic counters instead.
///
/// # Panics
///
/// If `key` returns a value `>= buckets`.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let words = ["fork", "join", "steal", "split", "sync"];
/// let by_len = par::histogram(&mut Serial, &words, 6, |w| w.len());
/// assert_eq!(by_len, [0, 0, 0, 0, 3, 2]);
/// ```
pub fn histogram<C, T, K>(ctx: &mut C, v: &[T], buckets: usize, key: K) -> Vec<usize>
where
    C: ForkJoin,
    T: Sync,
    K: Fn(&T) -> usize + Sync,
{
    let n = v.len();
    let p = ctx.num_threads();
    let count_into = |h: &mut [usize], s: &[T]| {
        for x in s {
            let k = key(x);
            match h.get_mut(k) {
                Some(c) => *c += 1,
                None => panic!("histogram: key {k} out of range 0..{buckets}"),
            }
        }
    };
    if p <= 1 || n <= SEQ_HIST {
        let mut h = vec![0usize; buckets];
        count_into(&mut h, v);
        return h;
    }
    // Private histograms while their total size stays below about half the input.
    let blocks_by_size = Blocks::new(n, block_target(n, p, SEQ_HIST), Align::NONE).count();
    let affordable = n / (2 * buckets.max(1));
    let nb = blocks_by_size.min(affordable);
    if nb >= p {
        let blocks = Blocks::new(n, n.div_ceil(nb), Align::NONE);
        let locals: Vec<Vec<usize>> = map_blocks(ctx, blocks.count(), &|b| {
            let mut h = vec![0usize; buckets];
            count_into(&mut h, &v[blocks.range(b)]);
            h
        });
        return tabulate(ctx, buckets, |j| locals.iter().map(|h| h[j]).sum());
    }
    let counts: Vec<AtomicUsize> = tabulate(ctx, buckets, |_| AtomicUsize::new(0));
    run(
        ctx,
        v,
        0,
        Grain::Auto,
        Align::NONE,
        &|_, s: &[T]| {
            for x in s {
                let k = key(x);
                assert!(k < buckets, "histogram: key {k} out of range 0..{buckets}");
                counts[k].fetch_add(1, Ordering::Relaxed);
            }
        },
        &|(), ()| (),
    );
    counts.into_iter().map(AtomicUsize::into_inner).collect()
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{sizes, Rng, SplitSerial, Threads};
    use super::*;

    #[test]
    fn histogram_matches_sequential() {
        let mut rng = Rng(17);
        for n in sizes() {
            let bucket_counts: &[usize] = if cfg!(miri) {
                &[1, 2, 10]
            } else {
                &[1, 2, 10, 1000, 100_000]
            };
            for &buckets in bucket_counts {
                let v = rng.vec(n, buckets as u64);
                let mut want = vec![0usize; buckets];
                v.iter().for_each(|&x| want[x as usize] += 1);
                assert_eq!(
                    histogram(&mut Threads::new(), &v, buckets, |&x| x as usize),
                    want
                );
                let got = histogram(&mut SplitSerial { morsel: 64 }, &v, buckets, |&x| {
                    x as usize
                });
                assert_eq!(got, want);
            }
        }
        assert!(histogram(&mut Threads::new(), &[0u8; 0], 0, |_| 0).is_empty());
    }

    #[test]
    fn histogram_rejects_out_of_range_keys() {
        let v = vec![1usize; 1000];
        let r = std::panic::catch_unwind(|| histogram(&mut Threads::new(), &v, 1, |&x| x));
        assert!(r.is_err());
    }
}

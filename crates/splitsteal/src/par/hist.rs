//! `histogram`.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::basic::tabulate;
use super::split::{block_target, count_blocks, map_blocks, run, Align, Blocks, Grain, Ptr};
use crate::ForkJoin;

const SEQ_HIST: usize = if cfg!(any(test, miri)) { 64 } else { 1 << 12 };

/// Buckets whose counts fit in a core's L2 cache next to the streamed input (8-byte
/// counts: 1 MiB). Up to this many, counting straight into one array is fast, and
/// private per-block arrays are cheap to merge.
const CACHE_BUCKETS: usize = if cfg!(any(test, miri)) { 256 } else { 1 << 17 };

/// Buckets per range of the partitioned strategy: 256 KiB of counts, well inside L2.
const RANGE_BUCKETS: usize = if cfg!(any(test, miri)) { 64 } else { 1 << 15 };

/// Counts the elements of `v` per bucket: `out[b]` is the number of `x` with
/// `key(x) == b`, for `b < buckets` (rayon: a `fold` of local count vectors followed by a
/// `reduce` that adds them).
///
/// The strategy follows from the bucket count `B`, `n = v.len()` and the thread count
/// `p` (ParlayLib's `histogram_by_index` chooses likewise):
///
/// - `B` up to 2^17 (the counts fit in L2): one thread counts straight into the output;
///   several count into private arrays, one per block of about `n / 2p` elements, then
///   add them per bucket in parallel. Only `2p` blocks (not the 16 per thread the other
///   two-pass primitives use): each private array costs `B` to clear and to add, so with
///   10^5 buckets and 10^7 keys 32 blocks spent more on their arrays than they saved,
///   and 2 threads took 23 ms where 1 took 13. With fewer than `8B` keys per block the
///   private arrays do not pay and the next rule applies.
/// - more buckets (counts larger than L2, every increment a cache and TLB miss), when
///   there are at least `B / 4` keys: the keys are partitioned by bucket range (2^15
///   buckets each) with a two-pass counting scatter, and each range is then counted
///   into its slice of the output, in cache, ranges in parallel. Skewed keys (PBBS
///   exptSeq) cost no contention: no count is shared.
/// - otherwise (few keys for many buckets, or more than 2^32 buckets) shared atomic
///   counters, which only touch the buckets that occur.
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
    let checked = |x: &T| {
        let k = key(x);
        assert!(k < buckets, "histogram: key {k} out of range 0..{buckets}");
        k
    };
    let count_into = |h: &mut [usize], s: &[T]| {
        for x in s {
            h[checked(x)] += 1;
        }
    };
    if buckets <= CACHE_BUCKETS {
        let nb = (2 * p).min(n / (8 * buckets.max(1)));
        if p <= 1 || n <= SEQ_HIST || nb < p {
            if p <= 1 || n <= SEQ_HIST {
                let mut h = vec![0usize; buckets];
                count_into(&mut h, v);
                return h;
            }
        } else {
            let blocks = Blocks::new(n, n.div_ceil(nb), Align::NONE);
            let locals: Vec<Vec<usize>> = map_blocks(ctx, blocks.count(), &|b| {
                let mut h = vec![0usize; buckets];
                count_into(&mut h, &v[blocks.range(b)]);
                h
            });
            return tabulate(ctx, buckets, |j| locals.iter().map(|h| h[j]).sum());
        }
    } else if n >= buckets / 4 && buckets as u64 <= 1 << 32 {
        return by_ranges(ctx, v, buckets, &checked);
    }
    if p <= 1 {
        let mut h = vec![0usize; buckets];
        count_into(&mut h, v);
        return h;
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
                // Relaxed: a pure counter; the counts are read after the join.
                counts[checked(x)].fetch_add(1, Ordering::Relaxed);
            }
        },
        &|(), ()| (),
    );
    counts.into_iter().map(AtomicUsize::into_inner).collect()
}

/// The partitioned strategy of [`histogram`] (`buckets` <= 2^32): scatter the keys by
/// range of `RANGE_BUCKETS` buckets, then count each range in cache.
fn by_ranges<C, T, K>(ctx: &mut C, v: &[T], buckets: usize, key: &K) -> Vec<usize>
where
    C: ForkJoin,
    T: Sync,
    K: Fn(&T) -> usize + Sync,
{
    let n = v.len();
    let p = ctx.num_threads();
    let ranges = buckets.div_ceil(RANGE_BUCKETS);
    let range_of = |k: usize| k / RANGE_BUCKETS;
    let blocks = Blocks::new(n, block_target(n, p, SEQ_HIST), Align::NONE);
    // Pass 1: per block, the number of keys in each range.
    let counts = count_blocks(ctx, &blocks, ranges, move |i| range_of(key(&v[i])));
    // Range r's keys of block b go after those of every lower range and of the lower
    // blocks in range r.
    let (offsets, bounds) = super::split::bucket_offsets(&counts, ranges);
    debug_assert_eq!(bounds[ranges], n);
    let mut keys: Vec<u32> = Vec::with_capacity(n);
    super::split::advise_huge_pages(&mut keys);
    let dst = Ptr(keys.as_mut_ptr());
    // Pass 2: scatter. `key` is called again (as the radix sort does) rather than its
    // results stored: it is cheap, and a stored copy would cost a pass of its own.
    super::split::scatter_blocks(
        ctx,
        &blocks,
        &counts,
        &offsets,
        dst,
        move |i| {
            let k = key(&v[i]);
            (range_of(k), k as u32)
        },
        // SAFETY: `at` is this key's own slot in `0..n`, given once (`scatter_blocks`'
        // guarantee, which also catches a key that changed between the passes), and `n`
        // is the capacity.
        |at: *mut u32, k| unsafe { at.write(k) },
    );
    // SAFETY: `scatter_blocks` returned normally, so every block wrote exactly its counts,
    // and the (block, range) intervals cover `0..n`; `u32` needs no drop.
    unsafe { keys.set_len(n) };
    let keys = &keys[..];
    let mut out: Vec<usize> = tabulate(ctx, buckets, |_| 0usize);
    let out_bounds: Vec<usize> = (0..=ranges)
        .map(|r| (r * RANGE_BUCKETS).min(buckets))
        .collect();
    // Pass 3: each range counts into its own slice of the output.
    super::split::run_segments(ctx, &mut out[..], &out_bounds, 1, &|r, h: &mut [usize]| {
        let base = r * RANGE_BUCKETS;
        for &k in &keys[bounds[r]..bounds[r + 1]] {
            h[k as usize - base] += 1;
        }
    });
    out
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

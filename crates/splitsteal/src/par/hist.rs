//! `histogram` and `remove_duplicates`.

use std::collections::HashSet;
use std::hash::{BuildHasher, Hash, Hasher};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::basic::tabulate;
use super::filter::pack_with;
use super::radix::integer_sort_by_key;
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

/// The distinct elements of `v` in order of first occurrence, cloned (std: a `HashSet`
/// filter; rayon: `v.par_iter().cloned().collect::<HashSet<_>>()`, unordered).
///
/// The elements are hashed in parallel (with a fast, fixed-seed, non-DoS-resistant hash),
/// `(hash, index)` pairs are radix-sorted on 32 bits of the hash (stable, so indices stay
/// increasing within equal hashes), each run of equal hash bits keeps the elements not
/// equal to an earlier kept element of the run, and the kept indices are packed. Runs are
/// processed in parallel; a single run (all elements equal) is processed sequentially.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let v = ["b", "a", "b", "c", "a"];
/// assert_eq!(par::remove_duplicates(&mut Serial, &v), ["b", "a", "c"]);
/// ```
pub fn remove_duplicates<C, T>(ctx: &mut C, v: &[T]) -> Vec<T>
where
    C: ForkJoin,
    T: Hash + Eq + Clone + Send + Sync,
{
    let n = v.len();
    // One thread takes the sorting path too: it beats a hash set (random accesses into a
    // table larger than the caches) by about 4x at 10^7 elements.
    if n <= SEQ_HIST {
        let mut seen = HashSet::with_capacity_and_hasher(n, FastState);
        return v.iter().filter(|x| seen.insert(*x)).cloned().collect();
    }
    let mut pairs: Vec<(u64, usize)> = tabulate(ctx, n, |i| (FastState.hash_one(&v[i]), i));
    integer_sort_by_key(ctx, &mut pairs, 32, |p| p.0 >> 32);
    let keep: Vec<AtomicBool> = tabulate(ctx, n, |_| AtomicBool::new(false));
    let pairs = &pairs[..];
    let bits = |i: usize| pairs[i].0 >> 32;
    run(
        ctx,
        0..n,
        0,
        Grain::Auto,
        Align::NONE,
        &|_, r: Range<usize>| {
            // Handle the runs that start in `r` (to their end, which may lie beyond it).
            let mut i = r.start;
            while i < r.end && i > 0 && bits(i) == bits(i - 1) {
                i += 1;
            }
            let mut kept: Vec<usize> = Vec::new();
            while i < r.end {
                let b = bits(i);
                kept.clear();
                while i < n && bits(i) == b {
                    let (h, idx) = pairs[i];
                    if !kept
                        .iter()
                        .any(|&k| pairs[k].0 == h && v[pairs[k].1] == v[idx])
                    {
                        kept.push(i);
                        keep[idx].store(true, Ordering::Relaxed);
                    }
                    i += 1;
                }
            }
        },
        &|(), ()| (),
    );
    pack_with(ctx, n, &|i| keep[i].load(Ordering::Relaxed), &|i| {
        v[i].clone()
    })
}

/// A fixed-seed multiply-rotate hasher (FxHash-like) with a murmur3 finalizer, so all 64
/// bits of the result are mixed. Fast, deterministic, not resistant to adversarial input.
#[derive(Clone, Copy, Default)]
pub(crate) struct FastState;

impl BuildHasher for FastState {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(0)
    }
}

pub(crate) struct FastHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }
    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.add(x as u64)
    }
    #[inline]
    fn write_u16(&mut self, x: u16) {
        self.add(x as u64)
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.add(x as u64)
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.add(x)
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64)
    }
    #[inline]
    fn finish(&self) -> u64 {
        // murmur3's fmix64.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
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

    #[test]
    fn remove_duplicates_keeps_first_occurrences_in_order() {
        let mut rng = Rng(19);
        for n in sizes() {
            for modulo in [1u64, 2, 50, 1 << 20] {
                let v: Vec<String> = rng.vec(n, modulo).iter().map(|x| x.to_string()).collect();
                let mut seen = HashSet::new();
                let want: Vec<String> = v.iter().filter(|x| seen.insert(*x)).cloned().collect();
                assert_eq!(remove_duplicates(&mut Threads::new(), &v), want);
                assert_eq!(remove_duplicates(&mut SplitSerial { morsel: 64 }, &v), want);
            }
        }
    }

    /// Values that all hash alike still dedup correctly (runs with several values).
    #[test]
    fn remove_duplicates_with_colliding_hashes() {
        #[derive(Clone, PartialEq, Eq, Debug)]
        struct Collide(u32);
        impl Hash for Collide {
            fn hash<H: Hasher>(&self, h: &mut H) {
                h.write_u32(self.0 % 3)
            }
        }
        let n = if cfg!(miri) { 100 } else { 3000 };
        let v: Vec<Collide> = (0..n).map(|i| Collide((i * 7919) % 40)).collect();
        let mut want: Vec<Collide> = Vec::new();
        for x in &v {
            if !want.contains(x) {
                want.push(x.clone());
            }
        }
        assert_eq!(remove_duplicates(&mut Threads::new(), &v), want);
    }
}

//! `filter`, `pack`, `pack_index` and `dedup`: a blocked two-pass pack.
//!
//! Pass 1 evaluates the predicate once per element into a bit mask (one bit per element,
//! blocks of whole 512-element groups so blocks own whole cache lines of the mask) and
//! counts per block; the counts are scanned into output offsets; pass 2 copies the kept
//! elements of each block into its segment of the output. Unlike rayon's
//! `filter().collect()`, which appends the leaves' vectors sequentially, the copy into
//! the output is parallel too.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::split::{block_target, run_segments, Align, Blocks};
use crate::ForkJoin;

const SEQ_FILTER: usize = if cfg!(any(test, miri)) { 64 } else { 1 << 12 };

/// The elements of `v` for which `pred` holds, in order, cloned (rayon:
/// `v.par_iter().filter(|x| pred(x)).cloned().collect()`). `pred` is called exactly
/// once per element.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let v: Vec<u32> = (0..20).collect();
/// assert_eq!(par::filter(&mut Serial, &v, |x| x % 7 == 0), [0, 7, 14]);
/// ```
pub fn filter<C, T, P>(ctx: &mut C, v: &[T], pred: P) -> Vec<T>
where
    C: ForkJoin,
    T: Clone + Send + Sync,
    P: Fn(&T) -> bool + Sync,
{
    pack_with(ctx, v.len(), &|i| pred(&v[i]), &|i| v[i].clone())
}

/// The elements `v[i]` with `flags[i]`, in order, cloned (PBBS/ParlayLib `pack`).
///
/// # Panics
///
/// If `flags.len() != v.len()`.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let v = ["a", "b", "c", "d"];
/// assert_eq!(par::pack(&mut Serial, &v, &[true, false, false, true]), ["a", "d"]);
/// ```
pub fn pack<C, T>(ctx: &mut C, v: &[T], flags: &[bool]) -> Vec<T>
where
    C: ForkJoin,
    T: Clone + Send + Sync,
{
    assert_eq!(
        v.len(),
        flags.len(),
        "pack: flags and values differ in length"
    );
    pack_with(ctx, v.len(), &|i| flags[i], &|i| v[i].clone())
}

/// The indices `i` with `flags[i]`, in increasing order (ParlayLib `pack_index`).
///
/// ```
/// use splitsteal::{par, Serial};
///
/// assert_eq!(par::pack_index(&mut Serial, &[false, true, true, false]), [1, 2]);
/// ```
pub fn pack_index<C: ForkJoin>(ctx: &mut C, flags: &[bool]) -> Vec<usize> {
    pack_with(ctx, flags.len(), &|i| flags[i], &|i| i)
}

/// `v` without consecutive repeated elements, keeping the first of each run (std's
/// `Vec::dedup`, into a new vector). On sorted input this removes all duplicates; see
/// [`remove_duplicates`](super::remove_duplicates) for unsorted input.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// assert_eq!(par::dedup(&mut Serial, &[1, 1, 2, 3, 3, 3, 1]), [1, 2, 3, 1]);
/// ```
pub fn dedup<C, T>(ctx: &mut C, v: &[T]) -> Vec<T>
where
    C: ForkJoin,
    T: PartialEq + Clone + Send + Sync,
{
    pack_with(ctx, v.len(), &|i| i == 0 || v[i] != v[i - 1], &|i| {
        v[i].clone()
    })
}

/// The core of every pack: `(0..n).filter(keep).map(emit).collect()`, with `keep` called
/// exactly once per index and `emit` once per kept index, in parallel.
pub(crate) fn pack_with<C, T, K, E>(ctx: &mut C, n: usize, keep: &K, emit: &E) -> Vec<T>
where
    C: ForkJoin,
    T: Send,
    K: Fn(usize) -> bool + Sync,
    E: Fn(usize) -> T + Sync,
{
    let p = ctx.num_threads();
    // One thread takes the blocked path too (as one block): counting first lets the
    // output be allocated once, at its size, instead of grown by doubling.
    if n <= SEQ_FILTER {
        return (0..n).filter(|&i| keep(i)).map(emit).collect();
    }
    // Blocks of whole 512-index groups: 8 mask words, a 64-byte line of the mask each.
    let blocks = Blocks::new(n, block_target(n, p, SEQ_FILTER), Align::every(512));
    let nb = blocks.count();
    let mut mask = vec![0u64; n.div_ceil(64)];
    let word_bounds: Vec<usize> = blocks.starts.iter().map(|&s| s.div_ceil(64)).collect();
    let counts: Vec<AtomicUsize> = (0..nb).map(|_| AtomicUsize::new(0)).collect();
    run_segments(
        ctx,
        &mut mask[..],
        &word_bounds,
        1,
        &|b, words: &mut [u64]| {
            let r = blocks.range(b);
            let mut count = 0usize;
            for (w, word) in words.iter_mut().enumerate() {
                let lo = r.start + 64 * w;
                let hi = (lo + 64).min(r.end);
                let mut bits = 0u64;
                for i in lo..hi {
                    bits |= (keep(i) as u64) << (i - lo);
                }
                *word = bits;
                count += bits.count_ones() as usize;
            }
            counts[b].store(count, Ordering::Relaxed);
        },
    );
    // Relaxed: the counting `run_segments` has joined.
    let offsets = super::split::starts_of(counts.iter().map(|c| c.load(Ordering::Relaxed)));
    let total = offsets[nb];
    let mut out: Vec<T> = Vec::with_capacity(total);
    super::split::advise_huge_pages(&mut out);
    run_segments(
        ctx,
        &mut out.spare_capacity_mut()[..total],
        &offsets,
        1,
        &|b, dst: &mut [MaybeUninit<T>]| {
            let r = blocks.range(b);
            let mut k = 0;
            let first = r.start / 64;
            for (w, &word) in mask[first..r.end.div_ceil(64)].iter().enumerate() {
                let w = first + w;
                let mut bits = word;
                while bits != 0 {
                    let i = 64 * w + bits.trailing_zeros() as usize;
                    dst[k].write(emit(i));
                    k += 1;
                    bits &= bits - 1;
                }
            }
            debug_assert_eq!(k, dst.len());
        },
    );
    // SAFETY: segment `b` of the output has exactly `counts[b]` slots, the number of set
    // bits in block `b`'s mask, and its leaf wrote one slot per set bit; the segments
    // cover `0..total`, and no leaf panicked.
    unsafe { out.set_len(total) };
    out
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{sizes, Rng, SplitSerial, Threads};
    use super::*;

    #[test]
    fn packs_match_sequential() {
        let mut rng = Rng(11);
        for n in sizes() {
            for modulo in [1u64, 2, 3, 100] {
                let v = rng.vec(n, modulo);
                let ctx = &mut Threads::new();
                let keep = |x: &u64| x % 3 == 1;
                let want: Vec<u64> = v.iter().copied().filter(keep).collect();
                assert_eq!(filter(ctx, &v, keep), want);
                let flags: Vec<bool> = v.iter().map(keep).collect();
                assert_eq!(pack(ctx, &v, &flags), want);
                let idx: Vec<usize> = (0..n).filter(|&i| flags[i]).collect();
                assert_eq!(pack_index(&mut SplitSerial { morsel: 64 }, &flags), idx);
                let mut d = v.clone();
                d.dedup();
                assert_eq!(dedup(ctx, &v), d);
                let strings: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                let want: Vec<String> = strings.iter().filter(|s| s.len() == 1).cloned().collect();
                assert_eq!(filter(ctx, &strings, |s| s.len() == 1), want);
            }
        }
    }

    #[test]
    fn pack_checks_lengths() {
        let r =
            std::panic::catch_unwind(|| pack(&mut SplitSerial { morsel: 64 }, &[1, 2], &[true]));
        assert!(r.is_err());
    }
}

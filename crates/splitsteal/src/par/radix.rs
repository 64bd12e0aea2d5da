//! `integer_sort`: a stable parallel radix sort on the bits of a key.
//!
//! One parallel pass ORs all keys to find the bits actually used. Then a parallel MSD
//! pass on the top `d` bits (d chosen so buckets fit in L2, at most 11): per-block
//! histograms, a column-major scan into per-block bucket offsets, and a stable scatter
//! into a buffer. Buckets are then sorted in parallel: large ones recursively with
//! another parallel MSD pass, small ones sequentially (see `seq_sort`: LSD passes of 8
//! bits, one read computing every pass's histogram, passes where all keys share the digit
//! skipped; with many bits left, 16 bits of LSD and a stable insertion pass).
//! Every scatter is stable, so equal keys keep their input order.
//!
//! The strategy rule, from what the input shows (chosen by measurements on PBBS's input
//! families at 10^7 elements):
//! - Above `SEQ_RADIX` elements, a 128-pair probe first asks whether the keys are nearly
//!   sorted or strictly descending; if so the comparison sorts' presortedness pass (see
//!   `sort/presorted.rs`) sorts them in about two copies. Radix passes gain nothing from
//!   order: on PBBS almostSortedSeq they took 524 ms at 1T where rayon's
//!   `par_sort_unstable` took 104 (same run); random keys pay only the probe.
//! - The MSD digit aims at cache-sized buckets, except that with at most 22 bits left
//!   the digits are sized to finish in the fewest passes: with exptSeq's heavy keys (one
//!   value is 1/24 of the input) a bucket of one key otherwise paid a count and a scatter
//!   per 3 bits.
//!
//! Elements are moved bitwise between the slice and the buffer. Each recursive call keeps
//! track of where its elements are and, on return or while unwinding (the key function may
//! panic), leaves them in the slice: a panic leaves `v` a permutation of its input.

use std::mem;
use std::ops::Range;
use std::ptr;

use super::basic::map_reduce;
use super::sort::{join_or_fix, CopyOnDrop};
use super::split::{
    block_target, bucket_offsets, count_blocks, run, scatter_blocks, Align, Blocks, Grain, Ptr,
    Scratch,
};
use crate::ForkJoin;

/// Below this many elements, a bucket is sorted sequentially.
const SEQ_RADIX: usize = if cfg!(any(test, miri)) { 64 } else { 1 << 16 };
/// Below this many elements, a sequential sort uses std's stable sort instead of radix.
const SMALL: usize = if cfg!(any(test, miri)) { 8 } else { 32 };
/// Bits per sequential LSD pass.
const LSD_BITS: u32 = 8;
/// Most bits of a parallel MSD pass.
const MAX_MSD_BITS: u32 = 11;

/// Integer types [`integer_sort`] sorts directly: `radix_key` is order-preserving into
/// `u64` (signed integers have their sign bit flipped).
pub trait RadixKey: Copy + Send + Sync {
    /// The number of significant bits of `radix_key`.
    const BITS: u32;
    /// The key: `a < b` iff `a.radix_key() < b.radix_key()`.
    fn radix_key(&self) -> u64;
}

macro_rules! radix_unsigned {
    ($($t:ty),*) => {$(
        impl RadixKey for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn radix_key(&self) -> u64 {
                *self as u64
            }
        }
    )*};
}
macro_rules! radix_signed {
    ($($t:ty => $u:ty),*) => {$(
        impl RadixKey for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn radix_key(&self) -> u64 {
                (*self as $u ^ (1 << (<$t>::BITS - 1))) as u64
            }
        }
    )*};
}
radix_unsigned!(u8, u16, u32, u64, usize);
radix_signed!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, isize => usize);

/// Sorts integers in parallel with a radix sort (rayon: `v.par_sort_unstable()`; the
/// result is the same, since equal integers are indistinguishable).
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![30u32, 7, 1 << 20, 0, 7];
/// par::integer_sort(&mut Serial, &mut v);
/// assert_eq!(v, [0, 7, 7, 30, 1 << 20]);
/// let mut w = vec![-5i64, 3, i64::MIN, 0];
/// par::integer_sort(&mut Serial, &mut w);
/// assert_eq!(w, [i64::MIN, -5, 0, 3]);
/// ```
pub fn integer_sort<C, T>(ctx: &mut C, v: &mut [T])
where
    C: ForkJoin,
    T: RadixKey,
{
    integer_sort_by_key(ctx, v, T::BITS, T::radix_key)
}

/// Sorts `v` by the low `bits` bits of `key(x)` (higher bits are ignored; `bits` is
/// capped at 64) with a stable parallel radix sort: elements with equal keys keep their
/// order (rayon: `v.par_sort_by_key(key)`). Allocates a buffer of `v.len()` elements;
/// `key` is called a few times per element per pass, so it should be cheap (a field, a
/// shift).
///
/// If `key` panics, the panic propagates and `v` holds its elements in some order; none
/// is lost or duplicated.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// // (key, payload) pairs; keys below 2^8.
/// let mut v = vec![(3u8, 'a'), (1, 'b'), (3, 'c'), (0, 'd')];
/// par::integer_sort_by_key(&mut Serial, &mut v, 8, |p| p.0 as u64);
/// assert_eq!(v, [(0, 'd'), (1, 'b'), (3, 'a'), (3, 'c')]);
/// ```
pub fn integer_sort_by_key<C, T, K>(ctx: &mut C, v: &mut [T], bits: u32, key: K)
where
    C: ForkJoin,
    T: Send + Sync,
    K: Fn(&T) -> u64 + Sync,
{
    let n = v.len();
    let bits = bits.min(64);
    if n < 2 || bits == 0 || mem::size_of::<T>() == 0 {
        return;
    }
    let mask = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
    // `move`: the mask lives in the closure, one load closer to the scatter's loop.
    let key = move |x: &T| key(x) & mask;
    if n > SEQ_RADIX && super::sort::sort_presorted(ctx, v, &|a: &T, b: &T| key(a) < key(b)) {
        // Nearly sorted (or strictly descending) input: about two copies and a comparison
        // per element, where the radix passes cost as much as on random keys (PBBS
        // almostSortedSeq, 10^7: 250 ms at 1T, rayon's par_sort_unstable 57).
        return;
    }
    // The bits in use: keys declared 64-bit but below 2^24 need 3 passes, not 8.
    let used = map_reduce(ctx, v, &key, || 0, |a, b| a | b);
    let bits = 64 - used.leading_zeros();
    if bits == 0 {
        return; // all keys equal
    }
    if n <= SMALL {
        v.sort_by_key(&key);
        return;
    }
    // Freed on return and while unwinding; it never drops an element.
    let mut buf = Scratch::new(n);
    let cur = Ptr(v.as_mut_ptr());
    // SAFETY: `v` and `buf` are disjoint and valid for `n` elements; the elements are in
    // `v`, which is also where `rec` leaves them (sorted, or permuted if it unwinds).
    unsafe { rec(ctx, cur, buf.ptr(), cur, n, bits, &key) };
}

/// Sorts the `n` elements at `cur` by the low `bits` bits of their key (higher bits are
/// equal among them), using `alt` as scratch, and leaves them at `home`.
///
/// # Safety
/// `cur` and `alt` are disjoint ranges valid for `n` elements, `home` is one of them, the
/// elements are at `cur`, and nothing else accesses either range during the call. On
/// return *and* while unwinding, the elements (sorted, respectively permuted) are at `home`.
unsafe fn rec<C, T, K>(
    ctx: &mut C,
    cur: Ptr<T>,
    alt: Ptr<T>,
    home: Ptr<T>,
    n: usize,
    bits: u32,
    key: &K,
) where
    C: ForkJoin,
    T: Send,
    K: Fn(&T) -> u64 + Sync,
{
    if bits == 0 || n <= 1 {
        if cur.0 != home.0 {
            // SAFETY: per the contract, `cur` and `home` are disjoint and valid for `n`.
            unsafe { par_copy(ctx, cur, home, n) };
        }
        return;
    }
    // Large inputs take the MSD path even on one thread: its buckets fit in cache, where
    // LSD passes over the whole input would stream it from memory once per digit.
    if n <= SEQ_RADIX {
        // SAFETY: forwarded.
        unsafe { seq_sort(cur, alt, home, n, bits, key) };
        return;
    }
    // A parallel MSD pass on the top `d` of the remaining bits, aiming for buckets of about
    // SEQ_RADIX elements.
    let want = (n / SEQ_RADIX).max(2).next_power_of_two().trailing_zeros();
    let mut d = want.clamp(1, MAX_MSD_BITS).min(bits);
    if bits <= 2 * MAX_MSD_BITS {
        // Few bits left: finish in as few passes as the digit limit allows, with digits of
        // equal size. A bucket of one heavy key (PBBS exptSeq: 1/24 of all keys are one
        // value) otherwise took 3 bits per pass for 16 bits, six count-and-scatter passes
        // over the same elements instead of two.
        d = d.max(bits.div_ceil(bits.div_ceil(MAX_MSD_BITS)));
    }
    let shift = bits - d;
    let radix = 1usize << d;
    let digit = move |x: &T| ((key(x) >> shift) as usize) & (radix - 1);
    // Until the scatter is done the elements are all at `cur`: if the key function
    // panics, put them home.
    let restore = CopyOnDrop {
        src: cur.0,
        dst: home.0,
        len: if cur.0 == home.0 { 0 } else { n },
    };
    let p = ctx.num_threads();
    let blocks = Blocks::new(n, block_target(n, p, 1 << 14), Align::NONE);
    let counts = count_blocks(ctx, &blocks, radix, move |i| {
        // SAFETY: `i < n`; the elements at `cur` are only read during this pass.
        digit(unsafe { &*cur.get().add(i) })
    });
    // If every key has the same top digit, the pass would be a copy: go straight to the
    // next digit.
    let mut totals = vec![0usize; radix];
    for c in &counts {
        for (t, x) in totals.iter_mut().zip(c) {
            *t += x;
        }
    }
    if totals.contains(&n) {
        mem::forget(restore); // the call below takes over
                              // SAFETY: forwarded, with the same elements in the same place.
        unsafe { rec(ctx, cur, alt, home, n, shift, key) };
        return;
    }
    let (offsets, starts) = bucket_offsets(&counts, radix);
    scatter_blocks(
        ctx,
        &blocks,
        &counts,
        &offsets,
        alt,
        move |i| {
            // SAFETY: `i < n`; the elements at `cur` are only read during the scatter.
            let x = unsafe { cur.get().add(i) };
            // SAFETY: as above.
            (digit(unsafe { &*x }), Ptr(x))
        },
        // SAFETY: `x` is an element of `cur`, read once, and `at` is its own slot in
        // `alt`'s `0..n`, given once (`scatter_blocks`' guarantee), so the copies never
        // overlap or alias.
        |at, x: Ptr<T>| unsafe { ptr::copy_nonoverlapping(x.get(), at, 1) },
    );
    mem::forget(restore);
    // The elements are now at `alt`, grouped by bucket; sort the buckets in parallel.
    let grain = (n / (8 * p)).max(SEQ_RADIX);
    // SAFETY: the buckets partition `0..n`; forwarded.
    unsafe { buckets(ctx, alt, cur, home, &starts, 0, radix, grain, shift, key) };
}

/// Sorts buckets `lo..hi` (bucket `j` is `starts[j]..starts[j + 1]`) that are at `cur`,
/// leaving each at `home`.
///
/// # Safety
/// As [`rec`], for the range `starts[lo]..starts[hi]` of `cur`, `alt` and `home`.
#[allow(clippy::too_many_arguments)]
unsafe fn buckets<C, T, K>(
    ctx: &mut C,
    cur: Ptr<T>,
    alt: Ptr<T>,
    home: Ptr<T>,
    starts: &[usize],
    lo: usize,
    hi: usize,
    grain: usize,
    bits: u32,
    key: &K,
) where
    C: ForkJoin,
    T: Send,
    K: Fn(&T) -> u64 + Sync,
{
    let moved = cur.0 != home.0;
    // Moves the elements of buckets `a..b` home unsorted (for buckets that never ran).
    let send_home = |a: usize, b: usize| {
        if moved {
            // SAFETY: the buckets' ranges are valid and `cur`, `home` disjoint.
            unsafe {
                ptr::copy_nonoverlapping(
                    cur.0.add(starts[a]),
                    home.0.add(starts[a]),
                    starts[b] - starts[a],
                )
            }
        }
    };
    if hi - lo == 1 || starts[hi] - starts[lo] <= grain {
        // SAFETY (for the `add`s): `starts[j] <= n`.
        let at = |p: Ptr<T>, j: usize| unsafe { p.add(starts[j]) };
        // While bucket `j` runs, buckets `j+1..hi` have not started: if `j` unwinds, they
        // go home unsorted (bucket `j` takes care of itself).
        let mut pending = CopyOnDrop {
            src: cur.0,
            dst: home.0,
            len: 0,
        };
        for j in lo..hi {
            if moved {
                pending = replace_guard(pending, at(cur, j + 1).0, at(home, j + 1).0, {
                    starts[hi] - starts[j + 1]
                });
            }
            let len = starts[j + 1] - starts[j];
            // SAFETY: bucket `j`'s ranges are disjoint from every other bucket's.
            unsafe { rec(ctx, at(cur, j), at(alt, j), at(home, j), len, bits, key) };
        }
        mem::forget(pending);
        return;
    }
    // Split the buckets by weight: the first bucket boundary at or after the middle element.
    let half = starts[lo] + (starts[hi] - starts[lo]) / 2;
    let m = (lo + starts[lo..=hi].partition_point(|&s| s < half)).clamp(lo + 1, hi - 1);
    join_or_fix(
        ctx,
        // SAFETY: the bucket ranges `lo..m` and `m..hi` are disjoint.
        |c| unsafe { buckets(c, cur, alt, home, starts, lo, m, grain, bits, key) },
        |c| unsafe { buckets(c, cur, alt, home, starts, m, hi, grain, bits, key) },
        || send_home(lo, m),
        || send_home(m, hi),
    );
}

/// Disarms `old` and returns a guard for a new range.
fn replace_guard<T>(old: CopyOnDrop<T>, src: *const T, dst: *mut T, len: usize) -> CopyOnDrop<T> {
    mem::forget(old);
    CopyOnDrop { src, dst, len }
}

/// Copies `n` elements from `src` to `dst` in parallel (as `ptr::copy_nonoverlapping`).
///
/// # Safety
/// As `ptr::copy_nonoverlapping`; nothing else accesses the ranges meanwhile.
unsafe fn par_copy<C: ForkJoin, T: Send>(ctx: &mut C, src: Ptr<T>, dst: Ptr<T>, n: usize) {
    run(
        ctx,
        0..n,
        0,
        Grain::Fixed(1 << 16),
        Align::of(dst.0, ctx.morsel_bytes()),
        // SAFETY: the leaves are disjoint sub-ranges of the valid ranges.
        &|_, r: Range<usize>| unsafe {
            ptr::copy_nonoverlapping(src.get().add(r.start), dst.get().add(r.start), r.len())
        },
        &|(), ()| (),
    );
}

/// Where a sequential sort's elements are; on drop they are moved home.
struct Tracker<T> {
    cur: *mut T,
    alt: *mut T,
    home: *mut T,
    n: usize,
}

impl<T> Drop for Tracker<T> {
    fn drop(&mut self) {
        if self.cur != self.home {
            // SAFETY: `cur` holds the `n` elements; `home` is the other, disjoint range.
            unsafe { ptr::copy_nonoverlapping(self.cur, self.home, self.n) }
        }
    }
}

/// Sequential radix sort of the low `bits` bits; contract as [`rec`].
///
/// With at most 16 bits left: LSD passes of 8 bits. With more: two LSD passes on the top
/// 16 of the remaining bits, which in a cache-sized bucket leaves only short runs of equal
/// top bits; runs longer than [`SMALL`] recurse on the bits below, and one stable
/// insertion pass over the (nearly sorted) bucket finishes the short ones. Every step is a
/// branch-free counting pass or a nearly-always-predicted comparison, where finishing
/// random keys with a comparison sort would mispredict about once per element.
///
/// # Safety
/// As [`rec`].
unsafe fn seq_sort<T, K>(cur: Ptr<T>, alt: Ptr<T>, home: Ptr<T>, n: usize, bits: u32, key: &K)
where
    K: Fn(&T) -> u64,
{
    let mut t = Tracker {
        cur: cur.0,
        alt: alt.0,
        home: home.0,
        n,
    };
    if bits == 0 || n <= 1 {
        return; // `t` moves them home
    }
    let low = if bits >= 64 { !0 } else { (1u64 << bits) - 1 };
    if n <= SMALL {
        // SAFETY: exclusive access to the `n` elements at `cur`.
        let s = unsafe { std::slice::from_raw_parts_mut(t.cur, n) };
        s.sort_by_key(|x| key(x) & low);
        return; // `t` moves them home
    }
    if bits <= 2 * LSD_BITS {
        // SAFETY: forwarded.
        unsafe { lsd(&mut t, 0, bits, key) };
        return; // `t` moves them home
    }
    let shift = bits - 2 * LSD_BITS;
    // SAFETY: forwarded.
    unsafe { lsd(&mut t, shift, 2 * LSD_BITS, key) };
    if t.cur != t.home {
        // SAFETY: `t.cur` holds the elements, `t.home` is the other (disjoint) range.
        unsafe { ptr::copy_nonoverlapping(t.cur, t.home, n) };
        mem::swap(&mut t.cur, &mut t.alt);
    }
    // Now everything is (and stays) at home: `t` has nothing left to do.
    let (home, other) = (Ptr(t.cur), Ptr(t.alt));
    let top = |x: &T| key(x) >> shift;
    let mut i = 0;
    while i < n {
        // SAFETY: `i < n`.
        let d = top(unsafe { &*home.get().add(i) });
        let mut j = i + 1;
        // SAFETY: `j < n`.
        while j < n && top(unsafe { &*home.get().add(j) }) == d {
            j += 1;
        }
        if j - i > SMALL {
            // SAFETY: the run `i..j` is a disjoint sub-range whose elements are at home.
            unsafe { seq_sort(home.add(i), other.add(i), home.add(i), j - i, shift, key) };
        }
        i = j;
    }
    // SAFETY: exclusive access to the `n` elements at home.
    let s = unsafe { std::slice::from_raw_parts_mut(home.get(), n) };
    insertion_sort_by_key(s, &|x: &T| key(x) & low);
}

/// A stable insertion sort, linear on nearly sorted input. Safe code: if `key` panics,
/// `s` is still a permutation.
fn insertion_sort_by_key<T, K: Fn(&T) -> u64>(s: &mut [T], key: &K) {
    let Some(first) = s.first() else { return };
    let mut prev = key(first);
    for i in 1..s.len() {
        let k = key(&s[i]);
        if prev <= k {
            prev = k;
            continue;
        }
        // `s[i]` goes before every earlier element with a larger key (ties stay first).
        let mut j = i - 1;
        while j > 0 && key(&s[j - 1]) > k {
            j -= 1;
        }
        s[j..=i].rotate_right(1);
        // `prev` is still the largest key so far: it moved to `i`.
    }
}

/// Stable LSD passes of 8 bits over the bits `lo..lo + nbits` of the keys of the elements
/// `t` tracks (bits above `lo + nbits` in the top digit must be equal among them); the
/// elements end at `t.cur`.
///
/// # Safety
/// As [`rec`], for `t`'s ranges.
unsafe fn lsd<T, K>(t: &mut Tracker<T>, lo: u32, nbits: u32, key: &K)
where
    K: Fn(&T) -> u64,
{
    let n = t.n;
    let passes = nbits.div_ceil(LSD_BITS) as usize;
    debug_assert!(passes <= 2);
    const R: usize = 1 << LSD_BITS;
    let mut hist = [[0usize; R]; 2];
    let hist = &mut hist[..passes];
    for i in 0..n {
        // SAFETY: `i < n`.
        let k = key(unsafe { &*t.cur.add(i) }) >> lo;
        for (p, h) in hist.iter_mut().enumerate() {
            h[((k >> (LSD_BITS as usize * p)) as usize) & (R - 1)] += 1;
        }
    }
    for (p, h) in hist.iter_mut().enumerate() {
        if h.contains(&n) {
            continue; // every key has the same digit here
        }
        let mut acc = 0;
        for c in h.iter_mut() {
            let x = *c;
            *c = acc;
            acc += x;
        }
        let shift = lo as usize + LSD_BITS as usize * p;
        for i in 0..n {
            // SAFETY: `i < n`; `h[j]` (bucket `j`'s next slot) stays below `n`. While the
            // pass runs, `t.cur` still holds every element.
            unsafe {
                let x = t.cur.add(i);
                let j = ((key(&*x) >> shift) as usize) & (R - 1);
                ptr::copy_nonoverlapping(x, t.alt.add(h[j]), 1);
                h[j] += 1;
            }
        }
        mem::swap(&mut t.cur, &mut t.alt);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{planned_panic, sizes, Rng, SplitSerial, Threads};
    use super::*;

    #[test]
    fn integer_sort_matches_std_stable_sort() {
        let mut rng = Rng(21);
        let mut ns = sizes();
        if !cfg!(miri) {
            ns.push(300_000);
        }
        for n in ns {
            for (modulo, bits) in [
                (1u64, 64),
                (2, 1),
                (256, 8),
                (1000, 64),
                (1 << 40, 41),
                (u64::MAX, 64),
            ] {
                let v: Vec<(u64, u32)> = rng.vec(n, modulo).into_iter().zip(0..).collect();
                let mut want = v.clone();
                want.sort_by_key(|x| x.0);
                let mut w = v.clone();
                integer_sort_by_key(&mut Threads::new(), &mut w, bits, |x| x.0);
                assert!(w == want, "n={n} modulo={modulo}");
                let mut w = v.clone();
                integer_sort_by_key(&mut SplitSerial { morsel: 64 }, &mut w, bits, |x| x.0);
                assert!(w == want, "n={n} modulo={modulo}");
            }
        }
    }

    #[test]
    fn integer_sort_ignores_high_bits_and_handles_signed() {
        let mut v: Vec<u64> = vec![0x1_05, 0x2_03, 0x0_04, 0x3_03];
        integer_sort_by_key(&mut Threads::new(), &mut v, 8, |x| *x);
        assert_eq!(v, [0x2_03, 0x3_03, 0x0_04, 0x1_05]);
        let mut rng = Rng(4);
        let n = if cfg!(miri) { 100 } else { 10_000 };
        let mut s: Vec<i32> = rng.vec(n, u64::MAX).iter().map(|&x| x as i32).collect();
        let mut want = s.clone();
        want.sort();
        integer_sort(&mut Threads::new(), &mut s);
        assert_eq!(s, want);
    }

    #[test]
    fn panicking_key_keeps_every_element() {
        let n = if cfg!(miri) { 200 } else { 50_000 };
        let mut rng = Rng(8);
        let keys = rng.vec(n, 1 << 30);
        // The points are those of `n` = 50,000 scaled to `n`, so that Miri's smaller runs
        // panic too.
        for panic_after in [0, 5, 100, n / 50, 7 * n / 5, 6 * n] {
            let mut v: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
            let calls = std::sync::atomic::AtomicUsize::new(0);
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let key = |s: &String| {
                    if calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == panic_after {
                        planned_panic();
                    }
                    s.parse::<u64>().unwrap()
                };
                if panic_after % 2 == 0 {
                    integer_sort_by_key(&mut Threads::new(), &mut v, 30, key)
                } else {
                    integer_sort_by_key(&mut SplitSerial { morsel: 64 }, &mut v, 30, key)
                }
            }));
            let mut got: Vec<u64> = v.iter().map(|s| s.parse().unwrap()).collect();
            if r.is_ok() {
                assert!(got.windows(2).all(|w| w[0] <= w[1]));
            }
            got.sort();
            let mut want = keys.clone();
            want.sort();
            assert!(
                got == want,
                "panic_after={panic_after} panicked={}",
                r.is_err()
            );
        }
    }
}

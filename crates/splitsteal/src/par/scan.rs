//! Prefix sums: the two-pass blocked scan.
//!
//! Pass 1 reduces each block (blocks are morsel-aligned in the output, about 16 per
//! thread), the block sums are scanned sequentially, and pass 2 rescans every block from
//! its offset; `op` is called about twice per element, and needs only be associative.
//! Arrays much larger than the caches are scanned in rounds of a few L2-sized blocks per
//! thread, each round starting from the previous one's total, so that pass 2 finds its
//! block in cache: the input is read from memory once, as by a sequential scan.

use std::mem::MaybeUninit;

use super::split::{block_target, map_blocks, run_segments, Align, Blocks};
use crate::ForkJoin;

/// Below this many elements a scan runs sequentially.
const SEQ_SCAN: usize = if cfg!(any(test, miri)) { 64 } else { 1 << 12 };

/// The exclusive prefix "sums" of `v` under the associative `op` with neutral element
/// `identity()`, and the total: `out[i] = v[0] op ... op v[i-1]`, `out[0] = identity()`.
/// (rayon has no parallel scan; std: `v.iter().scan(..)`.)
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let (offsets, total) = par::scan(&mut Serial, &[3, 1, 4, 1, 5], || 0, |a, b| a + b);
/// assert_eq!(offsets, [0, 3, 4, 8, 9]);
/// assert_eq!(total, 14);
/// ```
pub fn scan<C, T, ID, OP>(ctx: &mut C, v: &[T], identity: ID, op: OP) -> (Vec<T>, T)
where
    C: ForkJoin,
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    let (out, total) = scan_into_new(ctx, v, &identity, &op, false);
    (out, total)
}

/// The inclusive prefix "sums" of `v`: `out[i] = v[0] op ... op v[i]`.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let running_max = par::scan_inclusive(&mut Serial, &[3, 1, 4, 1, 5], || 0, |a: u32, b| a.max(b));
/// assert_eq!(running_max, [3, 3, 4, 4, 5]);
/// ```
pub fn scan_inclusive<C, T, ID, OP>(ctx: &mut C, v: &[T], identity: ID, op: OP) -> Vec<T>
where
    C: ForkJoin,
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    scan_into_new(ctx, v, &identity, &op, true).0
}

/// [`scan`] in place: replaces `v[i]` by `v[0] op ... op v[i-1]` and returns the total.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![1u64; 5];
/// let total = par::scan_inplace(&mut Serial, &mut v, || 0, |a, b| a + b);
/// assert_eq!(v, [0, 1, 2, 3, 4]);
/// assert_eq!(total, 5);
/// ```
pub fn scan_inplace<C, T, ID, OP>(ctx: &mut C, v: &mut [T], identity: ID, op: OP) -> T
where
    C: ForkJoin,
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    scan_in_place(ctx, v, &identity, &op, false)
}

/// [`scan_inclusive`] in place: replaces `v[i]` by `v[0] op ... op v[i]`.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![1u64; 5];
/// par::scan_inclusive_inplace(&mut Serial, &mut v, || 0, |a, b| a + b);
/// assert_eq!(v, [1, 2, 3, 4, 5]);
/// ```
pub fn scan_inclusive_inplace<C, T, ID, OP>(ctx: &mut C, v: &mut [T], identity: ID, op: OP)
where
    C: ForkJoin,
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    scan_in_place(ctx, v, &identity, &op, true);
}

/// Per-block starting values of a scan of `v` from `carry`: blocks of about `target`
/// elements aligned to `align`, their offsets (`carry` op the sums of the earlier blocks)
/// and the total (`carry` op everything). `None` if there would be a single block.
fn plan<C, T, ID, OP>(
    ctx: &mut C,
    v: &[T],
    carry: &T,
    target: usize,
    align: Align,
    identity: &ID,
    op: &OP,
) -> Option<(Blocks, Vec<T>, T)>
where
    C: ForkJoin,
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    let blocks = Blocks::new(v.len(), target, align);
    if blocks.count() < 2 {
        return None;
    }
    let sums = map_blocks(ctx, blocks.count(), &|b| {
        v[blocks.range(b)]
            .iter()
            .fold(identity(), |a, x| op(a, x.clone()))
    });
    let mut offsets = Vec::with_capacity(sums.len());
    let mut acc = carry.clone();
    for s in sums {
        offsets.push(acc.clone());
        acc = op(acc, s);
    }
    Some((blocks, offsets, acc))
}

/// How a scan of `n` elements of `T` on `p` threads proceeds: `None` sequentially, else
/// `(round, target)`: rounds of `round` elements (scanned one after the other, each
/// with a carry-in), cut into blocks of about `target`.
///
/// Arrays much larger than the caches are scanned in rounds of a few L2-sized blocks per
/// thread: pass 1 of a round brings its blocks into cache and pass 2 rescans them there,
/// so the input streams from memory once instead of twice. Smaller arrays are one round.
fn rounds<T>(n: usize, p: usize) -> Option<(usize, usize)> {
    if p <= 1 || n <= SEQ_SCAN {
        return None;
    }
    let size = std::mem::size_of::<T>().max(1);
    let chunk = (ROUND_BLOCK_BYTES / size).max(SEQ_SCAN);
    if n.saturating_mul(size) > ROUNDS_ABOVE_BYTES && n > 8 * p * chunk {
        Some((4 * p * chunk, chunk))
    } else {
        Some((n, block_target(n, p, SEQ_SCAN)))
    }
}

/// Block size of a round (bytes): a quarter of a typical 1 MiB L2 for 4 blocks a thread.
const ROUND_BLOCK_BYTES: usize = if cfg!(any(test, miri)) {
    256
} else {
    128 << 10
};
/// Arrays above this size (bytes) are scanned in rounds.
const ROUNDS_ABOVE_BYTES: usize = if cfg!(any(test, miri)) {
    1 << 10
} else {
    16 << 20
};

fn scan_into_new<C, T, ID, OP>(
    ctx: &mut C,
    v: &[T],
    identity: &ID,
    op: &OP,
    inclusive: bool,
) -> (Vec<T>, T)
where
    C: ForkJoin,
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    let n = v.len();
    let mut out: Vec<T> = Vec::with_capacity(n);
    super::split::advise_huge_pages(&mut out);
    let leaf = |acc: T, src: &[T], dst: &mut [MaybeUninit<T>]| -> T {
        let mut acc = acc;
        if inclusive {
            for (x, o) in src.iter().zip(dst) {
                acc = op(acc, x.clone());
                o.write(acc.clone());
            }
        } else {
            for (x, o) in src.iter().zip(dst) {
                let next = op(acc.clone(), x.clone());
                o.write(acc);
                acc = next;
            }
        }
        acc
    };
    let morsel = ctx.morsel_bytes();
    let total = match rounds::<T>(n, ctx.num_threads()) {
        None => leaf(identity(), v, &mut out.spare_capacity_mut()[..n]),
        Some((round, target)) => {
            let mut carry = identity();
            let mut src = v;
            let mut dst = &mut out.spare_capacity_mut()[..n];
            while !src.is_empty() {
                let len = round.min(src.len());
                let (s0, s1) = src.split_at(len);
                let (d0, d1) = std::mem::take(&mut dst).split_at_mut(len);
                let align = Align::of(d0.as_ptr(), morsel);
                carry = match plan(ctx, s0, &carry, target, align, identity, op) {
                    None => leaf(carry, s0, d0),
                    Some((blocks, offsets, total)) => {
                        run_segments(
                            ctx,
                            (s0, d0),
                            &blocks.starts,
                            1,
                            &|b, (src, dst): (&[T], &mut [MaybeUninit<T>])| {
                                leaf(offsets[b].clone(), src, dst);
                            },
                        );
                        total
                    }
                };
                (src, dst) = (s1, d1);
            }
            carry
        }
    };
    // SAFETY: the leaves (sequential, or one per block, with the rounds' blocks covering
    // `0..n`) each wrote every slot of their piece, and none panicked (we got here).
    unsafe { out.set_len(n) };
    (out, total)
}

fn scan_in_place<C, T, ID, OP>(
    ctx: &mut C,
    v: &mut [T],
    identity: &ID,
    op: &OP,
    inclusive: bool,
) -> T
where
    C: ForkJoin,
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    let leaf = |acc: T, s: &mut [T]| -> T {
        let mut acc = acc;
        if inclusive {
            for x in s {
                acc = op(acc, x.clone());
                *x = acc.clone();
            }
        } else {
            for x in s {
                let next = op(acc.clone(), x.clone());
                *x = std::mem::replace(&mut acc, next);
            }
        }
        acc
    };
    let morsel = ctx.morsel_bytes();
    match rounds::<T>(v.len(), ctx.num_threads()) {
        None => leaf(identity(), v),
        Some((round, target)) => {
            let mut carry = identity();
            for r in v.chunks_mut(round) {
                let align = Align::of(r.as_ptr(), morsel);
                carry = match plan(ctx, r, &carry, target, align, identity, op) {
                    None => leaf(carry, r),
                    Some((blocks, offsets, total)) => {
                        run_segments(ctx, r, &blocks.starts, 1, &|b, s: &mut [T]| {
                            leaf(offsets[b].clone(), s);
                        });
                        total
                    }
                };
            }
            carry
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{sizes, Rng, SplitSerial, Threads};
    use super::*;

    fn seq_excl(v: &[u64]) -> (Vec<u64>, u64) {
        let mut acc = 0u64;
        let out = v
            .iter()
            .map(|x| {
                let o = acc;
                acc = acc.wrapping_add(*x);
                o
            })
            .collect();
        (out, acc)
    }

    #[test]
    fn scans_match_sequential() {
        let mut rng = Rng(3);
        let mut extra = sizes();
        if !cfg!(miri) {
            extra.push(100_003);
        }
        for n in extra {
            let v = rng.vec(n, u64::MAX);
            let (ex, total) = seq_excl(&v);
            let incl: Vec<u64> = ex.iter().zip(&v).map(|(a, b)| a.wrapping_add(*b)).collect();
            for morsel in [64, 128] {
                let ctx = &mut Threads {
                    morsel,
                    ..Threads::new()
                };
                let add = |a: u64, b: u64| a.wrapping_add(b);
                assert_eq!(scan(ctx, &v, || 0, add), (ex.clone(), total));
                assert_eq!(scan_inclusive(ctx, &v, || 0, add), incl);
                let mut w = v.clone();
                assert_eq!(scan_inplace(ctx, &mut w, || 0, add), total);
                assert_eq!(w, ex);
                let mut w = v.clone();
                scan_inclusive_inplace(&mut SplitSerial { morsel }, &mut w, || 0, add);
                assert_eq!(w, incl);
            }
        }
    }

    #[test]
    fn scan_keeps_order_of_non_commutative_op() {
        let n = if cfg!(miri) { 300 } else { 3000 };
        let v: Vec<String> = (0..n)
            .map(|i| ((b'a' + (i % 26) as u8) as char).to_string())
            .collect();
        let ctx = &mut SplitSerial { morsel: 128 };
        let (out, total) = scan(ctx, &v, String::new, |a, b| a + &b);
        assert_eq!(total, v.concat());
        assert_eq!(out[n - 1], v[..n - 1].concat());
    }
}

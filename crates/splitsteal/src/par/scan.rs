//! Prefix sums: the two-pass blocked scan.
//!
//! Pass 1 reduces each block (blocks are morsel-aligned in the output, about 16 per
//! thread), the block sums are scanned sequentially, and pass 2 rescans every block from
//! its offset. That reads the input twice and writes the output once; `op` is called about
//! twice per element, and needs only be associative.

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

/// The block structure and per-block starting values of a scan of `v`, or `None` when
/// the scan should run sequentially. Returns `(blocks, offsets, total)`.
fn plan<C, T, ID, OP>(
    ctx: &mut C,
    v: &[T],
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
    let n = v.len();
    let p = ctx.num_threads();
    if p <= 1 || n <= SEQ_SCAN {
        return None;
    }
    let blocks = Blocks::new(n, block_target(n, p, SEQ_SCAN), align);
    if blocks.count() < 2 {
        return None;
    }
    let sums = map_blocks(ctx, blocks.count(), &|b| {
        v[blocks.range(b)]
            .iter()
            .fold(identity(), |a, x| op(a, x.clone()))
    });
    let mut offsets = Vec::with_capacity(sums.len());
    let mut acc = identity();
    for s in sums {
        offsets.push(acc.clone());
        acc = op(acc, s);
    }
    Some((blocks, offsets, acc))
}

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
    let align = Align::of(out.as_ptr(), ctx.morsel_bytes());
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
    let total = match plan(ctx, v, align, identity, op) {
        None => leaf(identity(), v, &mut out.spare_capacity_mut()[..n]),
        Some((blocks, offsets, total)) => {
            run_segments(
                ctx,
                (v, &mut out.spare_capacity_mut()[..n]),
                &blocks.starts,
                1,
                &|b, (src, dst): (&[T], &mut [MaybeUninit<T>])| {
                    leaf(offsets[b].clone(), src, dst);
                },
            );
            total
        }
    };
    // SAFETY: the leaves (sequential, or one per block with the blocks covering `0..n`)
    // each wrote every slot of their piece, and none panicked (we got here).
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
    let align = Align::of(v.as_ptr(), ctx.morsel_bytes());
    match plan(ctx, v, align, identity, op) {
        None => leaf(identity(), v),
        Some((blocks, offsets, total)) => {
            run_segments(ctx, v, &blocks.starts, 1, &|b, s: &mut [T]| {
                leaf(offsets[b].clone(), s);
            });
            total
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

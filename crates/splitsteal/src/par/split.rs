//! The splitting engine every primitive is built on: recursive 9/16 splitting of an index
//! range (or of slices zipped with it) on [`ForkJoin::join`], with leaf boundaries rounded
//! to morsel boundaries and ParlayLib's timed automatic granularity.

use std::ops::Range;
use std::time::{Duration, Instant};

use crate::ForkJoin;

/// Something that can be cut in two at an index, like a range or a slice. The pieces must
/// be disjoint, so that two leaves never alias.
pub(crate) trait Part: Sized + Send {
    fn len(&self) -> usize;
    fn split_at(self, mid: usize) -> (Self, Self);
}

impl Part for Range<usize> {
    #[inline]
    fn len(&self) -> usize {
        self.end - self.start
    }
    #[inline]
    fn split_at(self, mid: usize) -> (Self, Self) {
        let m = self.start + mid;
        (self.start..m, m..self.end)
    }
}

impl<T: Sync> Part for &[T] {
    #[inline]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    #[inline]
    fn split_at(self, mid: usize) -> (Self, Self) {
        <[T]>::split_at(self, mid)
    }
}

impl<T: Send> Part for &mut [T] {
    #[inline]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    #[inline]
    fn split_at(self, mid: usize) -> (Self, Self) {
        <[T]>::split_at_mut(self, mid)
    }
}

/// Two parts of equal length, split together (a zip).
impl<A: Part, B: Part> Part for (A, B) {
    #[inline]
    fn len(&self) -> usize {
        debug_assert_eq!(self.0.len(), self.1.len());
        self.0.len()
    }
    #[inline]
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (a0, a1) = self.0.split_at(mid);
        let (b0, b1) = self.1.split_at(mid);
        ((a0, b0), (a1, b1))
    }
}

/// Where leaf boundaries may fall: at indices `i` with `i % unit == phase`. For an output
/// slice these are exactly the indices whose element starts a morsel (see [`Align::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Align {
    pub unit: usize,
    pub phase: usize,
}

impl Align {
    /// No constraint: any index may be a boundary.
    pub const NONE: Align = Align { unit: 1, phase: 0 };

    /// Boundaries at multiples of `unit` indices (relative to index 0).
    pub fn every(unit: usize) -> Align {
        Align {
            unit: unit.max(1),
            phase: 0,
        }
    }

    /// The morsel boundaries of a slice starting at `ptr` with elements of type `T`:
    /// index `i` is a boundary iff the address of element `i` is a multiple of `morsel`
    /// bytes, so that leaves that start and end on boundaries write disjoint morsels (and
    /// so disjoint cache lines when `morsel` is a multiple of the line size).
    ///
    /// `unit = morsel / gcd(size, morsel)` elements is the period of that pattern. If no
    /// element of the slice starts on a morsel boundary (an element type whose alignment is
    /// finer than `gcd(size, morsel)` at an unlucky address), the boundaries are the
    /// multiples of `unit` from the start: leaves then share at most one line at each end.
    pub fn of<T>(ptr: *const T, morsel: usize) -> Align {
        let size = std::mem::size_of::<T>();
        let m = morsel.max(1);
        if size == 0 {
            return Align::NONE;
        }
        let g = gcd(size, m);
        let unit = m / g;
        // Solve (addr + i*size) ≡ 0 (mod m) for the smallest i >= 0: solvable iff
        // g | addr mod m, then i ≡ (-addr/g) * (size/g)^-1 (mod unit).
        let addr = ptr as usize % m;
        let need = (m - addr) % m;
        if (need / g) * g != need {
            return Align { unit, phase: 0 };
        }
        let phase = if unit == 1 {
            0
        } else {
            let inv = mod_inverse((size / g) % unit, unit);
            ((need / g) as u128 * inv as u128 % unit as u128) as usize
        };
        Align { unit, phase }
    }

    /// The first boundary strictly greater than `a`.
    #[inline]
    fn first_after(self, a: usize) -> usize {
        let r = (a + 1) % self.unit;
        (a + 1) + (self.phase + self.unit - r) % self.unit
    }

    /// The last boundary `<= x`, if any.
    #[inline]
    fn at_or_before(self, x: usize) -> Option<usize> {
        let back = (x % self.unit + self.unit - self.phase) % self.unit;
        x.checked_sub(back)
    }

    /// A split point for `[a, b)` near `a + 9/16 (b - a)` (low-latency thesis: the 9/16
    /// rule, applied relative to `a`, so it stays inside the range when it does not start at
    /// 0),
    /// rounded down to a boundary strictly inside the range, or `None` if there is none.
    #[inline]
    pub fn split_point(self, a: usize, b: usize) -> Option<usize> {
        if b - a < 2 {
            return None;
        }
        self.split_near(a, b, a + nine_sixteenths(b - a))
    }

    /// A split point for `[a, b)` near `a + (b - a) * num / den` (the scheduler's
    /// [`split_hint`](crate::ForkJoin::split_hint) proportion), on a boundary strictly
    /// inside the range, or `None` if there is none.
    #[inline]
    pub fn split_in_proportion(self, a: usize, b: usize, num: usize, den: usize) -> Option<usize> {
        let n = b - a;
        if n < 2 || den == 0 {
            return None;
        }
        let share = ((n as u128 * num as u128) / den as u128) as usize;
        self.split_near(a, b, a + share.clamp(1, n - 1))
    }

    #[inline]
    fn split_near(self, a: usize, b: usize, mid: usize) -> Option<usize> {
        let lo = self.first_after(a);
        if lo >= b {
            return None;
        }
        let m = match self.at_or_before(mid) {
            Some(m) if m > a => m,
            _ => lo,
        };
        (m < b).then_some(m)
    }

    /// `x` rounded up to a boundary (or `x` itself if it is one).
    pub fn round_up(self, x: usize) -> usize {
        x + (self.phase + self.unit - x % self.unit) % self.unit
    }
}

/// `9 n / 16`, rounded, without overflow; the left part of a 9/16 split of `n` elements
/// (ParlayLib uses `9 (n + 1) / 16`).
#[inline]
pub(crate) fn nine_sixteenths(n: usize) -> usize {
    (n / 16) * 9 + ((n % 16) * 9 + 8) / 16
}

pub(crate) fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The inverse of `a` modulo `m` (`gcd(a, m) == 1`, `m > 1`).
fn mod_inverse(a: usize, m: usize) -> usize {
    let (mut old_r, mut r) = (a as i128, m as i128);
    let (mut old_s, mut s) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_s, s) = (s, old_s - q * s);
    }
    debug_assert_eq!(old_r, 1);
    old_s.rem_euclid(m as i128) as usize
}

/// How large leaves are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grain {
    /// Time doubling prefixes until one takes [`AUTO_GRAIN_TARGET`] (ParlayLib's rule).
    Auto,
    /// Leaves of at most this many indices (but never split between two boundaries).
    Fixed(usize),
}

/// The work a leaf should at least do under [`Grain::Auto`]: about a microsecond, after
/// ParlayLib's `parallel_for` (the library the LCWS-in-practice paper ports LCWS into), which
/// times doubling prefixes until one takes at least 1000 ns.
pub(crate) const AUTO_GRAIN_TARGET: Duration = Duration::from_nanos(1000);

/// Runs `leaf` over pieces of `part` in parallel and combines the results in order with
/// `combine` (which need only be associative). `start` is the index of `part`'s first
/// element; leaves receive the index of their first element. `leaf` is called at least
/// once (on an empty part if `part` is empty), so the leaf's result for an empty part
/// serves as the identity.
pub(crate) fn run<C, P, R, L, K>(
    ctx: &mut C,
    part: P,
    start: usize,
    grain: Grain,
    align: Align,
    leaf: &L,
    combine: &K,
) -> R
where
    C: ForkJoin,
    P: Part,
    R: Send,
    L: Fn(usize, P) -> R + Sync,
    K: Fn(R, R) -> R + Sync,
{
    run_erased(ctx, part, start, grain, align, leaf, combine)
}

/// [`run`], compiled once per `(C, P, R)`: the leaf and the combine are type-erased (see
/// [`Leaf`]).
fn run_erased<C, P, R>(
    ctx: &mut C,
    part: P,
    start: usize,
    grain: Grain,
    align: Align,
    leaf: &Leaf<'_, P, R>,
    combine: &Combine<'_, R>,
) -> R
where
    C: ForkJoin,
    P: Part,
    R: Send,
{
    let n = part.len();
    match grain {
        Grain::Fixed(g) => rec(ctx, part, start, g.max(1), align, leaf, combine),
        Grain::Auto => {
            let p = ctx.num_threads();
            if p <= 1 || n <= align.unit {
                return leaf(start, part);
            }
            // Time doubling prefixes until one takes about a microsecond, as ParlayLib's
            // `parallel_for` does; the indices done while timing are not redone.
            let mut rest = part;
            let mut done = 0usize;
            let mut size = 1usize;
            let mut acc: Option<R> = None;
            loop {
                // End prefixes on boundaries too, so even these leaves are whole morsels.
                let end = align.round_up(start + done + size).min(start + n);
                let take = end - (start + done);
                let (prefix, tail) = rest.split_at(take);
                rest = tail;
                let t0 = Instant::now();
                let r = leaf(start + done, prefix);
                let elapsed = t0.elapsed();
                acc = Some(match acc {
                    None => r,
                    Some(a) => combine(a, r),
                });
                done += take;
                size = size.saturating_mul(2);
                if elapsed >= AUTO_GRAIN_TARGET || rest.len() == 0 {
                    break;
                }
            }
            let acc = acc.expect("at least one prefix ran");
            if rest.len() == 0 {
                return acc;
            }
            // At least `done` per leaf, and no more than about 128 leaves per thread
            // (ParlayLib's bound, which keeps join overhead negligible for cheap bodies).
            let g = done.max(n / (128 * p)).max(1);
            let r = rec(ctx, rest, start + done, g, align, leaf, combine);
            combine(acc, r)
        }
    }
}

/// A leaf of [`rec`], type-erased: leaves are coarse (a grain of work each), so a dynamic
/// call per leaf costs nothing measurable, and `rec` (with its join) is compiled once per
/// `(C, P, R)` instead of once per leaf closure.
type Leaf<'a, P, R> = dyn Fn(usize, P) -> R + Sync + 'a;
/// How [`rec`] combines two results, type-erased as [`Leaf`].
type Combine<'a, R> = dyn Fn(R, R) -> R + Sync + 'a;

fn rec<C, P, R>(
    ctx: &mut C,
    part: P,
    start: usize,
    grain: usize,
    align: Align,
    leaf: &Leaf<'_, P, R>,
    combine: &Combine<'_, R>,
) -> R
where
    C: ForkJoin,
    P: Part,
    R: Send,
{
    let n = part.len();
    if n <= grain {
        return leaf(start, part);
    }
    // `hybrid`'s uneven mailing gives the mailed side one worker's share of the range;
    // otherwise the 9/16 rule.
    let mid = match ctx.split_hint() {
        Some((ka, kb)) => align.split_in_proportion(start, start + n, ka, ka + kb),
        None => align.split_point(start, start + n),
    };
    let Some(mid) = mid else {
        return leaf(start, part);
    };
    let (l, r) = part.split_at(mid - start);
    let (a, b) = ctx.join(
        move |c| rec(c, l, start, grain, align, leaf, combine),
        move |c| rec(c, r, mid, grain, align, leaf, combine),
    );
    combine(a, b)
}

/// Runs `leaf(i, piece)` for every piece `i` of a part cut at the given boundaries
/// (`bounds[0] == 0`, `bounds[k] == part.len()`, non-decreasing), in parallel. Used where
/// the pieces come from a scan (the output segments of `filter`, the buckets of a radix
/// sort); pieces are grouped into leaves of about `grain` elements.
pub(crate) fn run_segments<C, P, L>(ctx: &mut C, part: P, bounds: &[usize], grain: usize, leaf: &L)
where
    C: ForkJoin,
    P: Part,
    L: Fn(usize, P) + Sync,
{
    debug_assert!(bounds.len() >= 2);
    debug_assert_eq!(bounds[0], 0);
    debug_assert_eq!(*bounds.last().unwrap(), part.len());
    let k = bounds.len() - 1;
    let grain = if ctx.num_threads() <= 1 {
        usize::MAX
    } else {
        grain.max(1)
    };
    seg_rec(ctx, part, bounds, 0, k, grain, leaf as &Leaf<P, ()>);
}

/// [`run_segments`]' recursion, compiled once per `(C, P)` (the leaf type-erased, as in
/// [`rec`]).
fn seg_rec<C, P>(
    ctx: &mut C,
    part: P,
    bounds: &[usize],
    lo: usize,
    hi: usize,
    grain: usize,
    leaf: &Leaf<'_, P, ()>,
) where
    C: ForkJoin,
    P: Part,
{
    // `part` covers bounds[lo]..bounds[hi].
    let base = bounds[lo];
    let n = bounds[hi] - base;
    if hi - lo == 1 || n <= grain {
        let mut rest = part;
        for i in lo..hi {
            let (piece, tail) = rest.split_at(bounds[i + 1] - bounds[i]);
            rest = tail;
            leaf(i, piece);
        }
        return;
    }
    // Split by weight: the first segment boundary at or after the middle element.
    let half = base + n / 2;
    let mut m = lo + bounds[lo..=hi].partition_point(|&b| b < half);
    m = m.clamp(lo + 1, hi - 1);
    let (l, r) = part.split_at(bounds[m] - base);
    ctx.join(
        move |c| seg_rec(c, l, bounds, lo, m, grain, leaf),
        move |c| seg_rec(c, r, bounds, m, hi, grain, leaf),
    );
}

/// A raw pointer that may cross threads: sorts and scatters hand disjoint ranges of one
/// buffer to their tasks.
pub(crate) struct Ptr<T>(pub *mut T);

impl<T> Clone for Ptr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Ptr<T> {}
// SAFETY: a `Ptr` is only dereferenced by the one task that owns the range it points
// into; moving that access to another thread is moving `T`s, which `T: Send` allows.
unsafe impl<T: Send> Send for Ptr<T> {}
// SAFETY: as above; tasks share a `Ptr` only to derive pointers to disjoint ranges.
unsafe impl<T: Send> Sync for Ptr<T> {}

impl<T> Ptr<T> {
    /// The pointer (a method, so closures capture the whole `Ptr`, not its field).
    #[inline(always)]
    pub fn get(self) -> *mut T {
        self.0
    }

    /// # Safety
    /// As `pointer::add`.
    #[inline]
    pub unsafe fn add(self, k: usize) -> Self {
        // SAFETY: forwarded to the caller.
        Ptr(unsafe { self.0.add(k) })
    }
}

/// A blocking of `n` indices for two-pass algorithms (scan, filter, radix sort): blocks
/// start at boundaries of `align` (morsel-aligned), hold about `target` indices each, and
/// there are few enough of them to scan their summaries sequentially.
#[derive(Debug, Clone)]
pub(crate) struct Blocks {
    /// Block `i` is `starts[i]..starts[i + 1]`; `starts[0] == 0`, last == n.
    pub starts: Vec<usize>,
}

impl Blocks {
    pub fn new(n: usize, target: usize, align: Align) -> Blocks {
        let target = target.max(1);
        let mut starts = vec![0];
        if n > 0 {
            // Round the block size to whole units; the first block ends at a boundary.
            let size = target.div_ceil(align.unit).max(1) * align.unit;
            let mut next = align.round_up(1.min(n)).max(1);
            // Make the first block at least about `size` long too: whole units up to it
            // (in one step; a loop of single units cost O(n) with one block).
            if next < size.min(n) {
                next += (size.min(n) - next).div_ceil(align.unit) * align.unit;
            }
            while next < n {
                starts.push(next);
                next += size;
            }
            starts.push(n);
        } else {
            starts.push(0);
        }
        Blocks { starts }
    }

    pub fn count(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn range(&self, i: usize) -> Range<usize> {
        self.starts[i]..self.starts[i + 1]
    }
}

/// The block size two-pass algorithms use for `n` elements on `p` threads: enough blocks
/// for load balance (about 16 per thread), each at least `min` elements.
pub(crate) fn block_target(n: usize, p: usize, min: usize) -> usize {
    if p <= 1 {
        return n.max(1);
    }
    n.div_ceil(16 * p).max(min)
}

/// Computes `f(i)` for every block index in parallel, returning the results in order.
pub(crate) fn map_blocks<C, R, F>(ctx: &mut C, count: usize, f: &F) -> Vec<R>
where
    C: ForkJoin,
    R: Send,
    F: Fn(usize) -> R + Sync,
{
    let mut out: Vec<Option<R>> = Vec::with_capacity(count);
    out.resize_with(count, || None);
    run(
        ctx,
        &mut out[..],
        0,
        Grain::Fixed(1),
        Align::NONE,
        &|s, o: &mut [Option<R>]| {
            for (j, slot) in o.iter_mut().enumerate() {
                *slot = Some(f(s + j));
            }
        },
        &|(), ()| (),
    );
    out.into_iter()
        .map(|x| x.expect("every block ran"))
        .collect()
}

/// The counting pass of a bucket sort: for each block (in parallel), how many of its
/// indices `i` go to each of `k` buckets, `bucket_of(i)`: `counts[b][j]`, the input of
/// [`bucket_offsets`] and [`scatter_blocks`].
///
/// `bucket_of` is copied into each block's task, as `scatter_blocks`' closures are: through
/// a shared reference, the compiler must assume a store into the counts may change its
/// captures (traced at 2 threads on 10^7 radix-sort keys: 9 ms for the pass, 7 with a copy).
pub(crate) fn count_blocks<C, F>(
    ctx: &mut C,
    blocks: &Blocks,
    k: usize,
    bucket_of: F,
) -> Vec<Vec<usize>>
where
    C: ForkJoin,
    F: Fn(usize) -> usize + Sync + Copy,
{
    map_blocks(ctx, blocks.count(), &|b| {
        let local = bucket_of; // the copy (see above)
        let mut c = vec![0usize; k];
        for i in blocks.range(b) {
            c[local(i)] += 1;
        }
        c
    })
}

/// The scan of a counting pass over blocks: given `counts[b][j]`, the number of block
/// `b`'s elements that go to bucket `j` (of `k`), returns where each block's part of each
/// bucket starts (`offsets[b][j]`) and where each bucket starts (`starts`, `k + 1` long,
/// ending at the total). Column-major: bucket `j` of block `b` comes after every smaller
/// bucket and after bucket `j` of the earlier blocks, which keeps a scatter stable.
pub(crate) fn bucket_offsets(counts: &[Vec<usize>], k: usize) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut offsets = vec![vec![0usize; k]; counts.len()];
    let mut starts = Vec::with_capacity(k + 1);
    let mut acc = 0usize;
    for j in 0..k {
        starts.push(acc);
        for (off, c) in offsets.iter_mut().zip(counts) {
            off[j] = acc;
            acc += c[j];
        }
    }
    starts.push(acc);
    (offsets, starts)
}

/// The scatter of a counting sort over blocks, with the layout of [`bucket_offsets`]:
/// for every element index `i` of every block, in parallel, `elem(i)` gives its bucket
/// and what to write, and `write(at, x)` stores it at `at`, the next slot of that block's
/// part of the bucket in `dst`.
///
/// Guarantee `write` may rely on: `at` is `dst + slot` for a `slot` in
/// `offsets[b][j]..offsets[b][j] + counts[b][j]`, for the block `b` and bucket `j` it came
/// from, so (with offsets from `bucket_offsets(counts)`) slots are below the total and no
/// slot is given twice. An element whose bucket differs from the counting pass's (a key or
/// `Hash` that is not a pure function) would overrun its part: that panics instead.
///
/// Two things make the loop fast, and both were measured on 10^7 `u32` keys into 256
/// buckets, 2 threads (integer sort of PBBS's randomSeq_10M_int, the scatter alone): 27 ms
/// before, 12–16 after, where ParlayLib's whole counting sort takes about 11.
/// - Each write prefetches the cache line one line past it, so the next writes to the
///   bucket find their line already fetched, as ParlayLib's `seq_write_` does. With 256
///   streams per thread the hardware prefetcher does not follow them.
/// - `elem` and `write` are copied into each block's task (hence `Copy`). Reached through
///   a shared reference, their captures had to be reloaded after every store (the
///   compiler cannot tell the stores do not hit them), and with a dozen loads an element
///   the prefetch gained nothing.
pub(crate) fn scatter_blocks<C, D, X, E, W>(
    ctx: &mut C,
    blocks: &Blocks,
    counts: &[Vec<usize>],
    offsets: &[Vec<usize>],
    dst: Ptr<D>,
    elem: E,
    write: W,
) where
    C: ForkJoin,
    D: Send,
    E: Fn(usize) -> (usize, X) + Sync + Copy,
    W: Fn(*mut D, X) + Sync + Copy,
{
    map_blocks(ctx, blocks.count(), &|b| {
        // Local copies: their addresses never escape, so their captures stay in registers.
        let (elem, write, dst) = (elem, write, dst.get());
        let mut next = offsets[b].clone();
        let end: Vec<usize> = next.iter().zip(&counts[b]).map(|(o, c)| o + c).collect();
        for i in blocks.range(b) {
            let (j, x) = elem(i);
            let slot = next[j];
            assert!(
                slot < end[j],
                "an element's bucket changed between the counting pass and the scatter"
            );
            next[j] = slot + 1;
            let at = dst.wrapping_add(slot);
            prefetch_line_after(at);
            write(at, x);
        }
    });
}

/// Hints the processor to fetch the cache line 64 bytes past `p` (ignored where the
/// target has no stable prefetch instruction in Rust). Never faults, whatever `p` is.
#[inline(always)]
fn prefetch_line_after<D>(p: *mut D) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is a hint with no architectural effect: it does not fault on
        // any address and reads or writes nothing the program can observe.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((p as *const i8).wrapping_add(64)) };
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    let _ = p;
}

/// Where each of a sequence of pieces starts when they are laid end to end: `lens.len() +
/// 1` entries, from 0 to the total.
pub(crate) fn starts_of(lens: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut total = 0usize;
    let mut starts = vec![0];
    starts.extend(lens.into_iter().map(|len| {
        total += len;
        total
    }));
    starts
}

/// Asks the kernel to back `v`'s (fresh, untouched) spare capacity with transparent huge
/// pages when it is large. Outputs of 10^7 elements are otherwise filled at the cost of
/// one page fault per 4 KiB — most of the time of a `map` — and a 2 MiB fault also lets
/// the zeroing proceed in bigger, parallel steps. Advisory only: contents are unchanged
/// and failures are ignored. A no-op off Linux and under Miri.
pub(crate) fn advise_huge_pages<T>(v: &mut Vec<T>) {
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        const HUGE: usize = 2 << 20;
        let bytes = v.capacity().saturating_mul(std::mem::size_of::<T>());
        if bytes < 4 * HUGE {
            return;
        }
        let start = v.as_mut_ptr() as usize;
        let lo = start.next_multiple_of(HUGE);
        let hi = (start + bytes) / HUGE * HUGE;
        if hi > lo {
            // SAFETY: `lo..hi` lies inside `v`'s allocation (rounded inward to 2 MiB
            // boundaries, which are page-aligned); MADV_HUGEPAGE only changes how the
            // kernel backs the range, never its contents or validity.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(all(target_os = "linux", not(miri))))]
    let _ = v;
}

/// Uninitialized room for `n` elements that a primitive moves its elements through
/// bitwise (the merge sort's and the radix sort's ping-pong buffer). Its memory is freed
/// when it is dropped, on return or while unwinding from a panicking comparator or key
/// (those used to leak the buffer, 8 MB per caught panic on 1M `u64`); the elements it
/// holds are never dropped: they are copies of elements owned by the slice being sorted.
pub(crate) struct Scratch<T> {
    /// Length 0 throughout, so dropping it frees the memory and drops no element.
    buf: Vec<T>,
}

impl<T> Scratch<T> {
    pub(crate) fn new(n: usize) -> Self {
        let mut buf = Vec::with_capacity(n);
        advise_huge_pages(&mut buf);
        #[cfg(test)]
        scratch_count::LIVE.with(|c| c.set(c.get() + 1));
        Scratch { buf }
    }

    /// The start of the room, valid for `n` elements while `self` lives.
    pub(crate) fn ptr(&mut self) -> Ptr<T> {
        Ptr(self.buf.as_mut_ptr())
    }
}

#[cfg(test)]
impl<T> Drop for Scratch<T> {
    fn drop(&mut self) {
        // The memory itself is freed by `buf`'s own drop, right after.
        scratch_count::LIVE.with(|c| c.set(c.get() - 1));
    }
}

/// Test only: how many [`Scratch`] buffers the calling thread has made and not yet freed.
#[cfg(test)]
pub(crate) mod scratch_count {
    use std::cell::Cell;

    thread_local! {
        pub(super) static LIVE: Cell<isize> = const { Cell::new(0) };
    }

    pub(crate) fn live() -> isize {
        LIVE.with(Cell::get)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_sixteenths_is_inside_and_relative_to_start() {
        for n in 2..200 {
            let m = nine_sixteenths(n);
            assert!(m >= 1 && m < n, "n={n} m={m}");
        }
        // The low-latency thesis's literal formula (start + 9 (end - start)) / 16 (§3.1)
        // leaves [100, 116); ours not.
        let a = Align::NONE;
        let m = a.split_point(100, 116).unwrap();
        assert_eq!(m, 109);
        assert_eq!(a.split_point(0, 16), Some(9));
        assert_eq!(a.split_point(5, 6), None);
    }

    #[test]
    fn align_of_finds_morsel_starts() {
        for &morsel in &[1usize, 3, 64, 128, 96, 4096] {
            for size in [1usize, 2, 4, 8, 12, 24, 64, 192] {
                for off in (0..512).step_by(if cfg!(miri) { 36 } else { 4 }) {
                    let addr = 4096 + off;
                    // Fake pointers to types of the given size.
                    let a = match size {
                        1 => Align::of(addr as *const u8, morsel),
                        2 => Align::of(addr as *const u16, morsel),
                        4 => Align::of(addr as *const u32, morsel),
                        8 => Align::of(addr as *const [u32; 2], morsel),
                        12 => Align::of(addr as *const [u32; 3], morsel),
                        24 => Align::of(addr as *const [u32; 6], morsel),
                        64 => Align::of(addr as *const [u32; 16], morsel),
                        _ => Align::of(addr as *const [u32; 48], morsel),
                    };
                    assert!(a.phase < a.unit);
                    assert_eq!((a.unit * size) % morsel, 0);
                    let solvable = (0..a.unit).any(|i| (addr + i * size) % morsel == 0);
                    if solvable {
                        assert_eq!(
                            (addr + a.phase * size) % morsel,
                            0,
                            "size {size} m {morsel} addr {addr}"
                        );
                        assert!((0..a.phase).all(|i| (addr + i * size) % morsel != 0));
                    }
                }
            }
        }
    }

    #[test]
    fn proportional_split_points() {
        let a = Align::NONE;
        // Uneven mailing over 4 workers: the mailed side gets one worker's share.
        assert_eq!(a.split_in_proportion(0, 100, 3, 4), Some(75));
        assert_eq!(a.split_in_proportion(100, 200, 1, 2), Some(150));
        // Never the empty split, even for extreme shares.
        assert_eq!(a.split_in_proportion(0, 10, 0, 4), Some(1));
        assert_eq!(a.split_in_proportion(0, 10, 4, 4), Some(9));
        assert_eq!(a.split_in_proportion(5, 6, 1, 2), None);
    }

    #[test]
    fn split_points_are_boundaries_inside_the_range() {
        for unit in [1usize, 2, 3, 16, 100] {
            for phase in 0..unit.min(7) {
                let al = Align { unit, phase };
                let (na, nb) = if cfg!(miri) { (8, 40) } else { (60, 300) };
                for a in 0..na {
                    for b in a..a + nb {
                        match al.split_point(a, b) {
                            Some(m) => {
                                assert!(a < m && m < b);
                                assert_eq!(m % unit, phase);
                            }
                            None => assert!((a + 1..b).all(|i| i % unit != phase)),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn blocks_cover_and_align() {
        for n in [0usize, 1, 5, 100, 1000, 4097] {
            for al in [Align::NONE, Align { unit: 16, phase: 3 }, Align::every(64)] {
                let b = Blocks::new(n, 100, al);
                assert_eq!(b.starts[0], 0);
                assert_eq!(*b.starts.last().unwrap(), n);
                for w in b.starts.windows(2) {
                    assert!(w[0] < w[1] || n == 0);
                }
                for &s in &b.starts[1..b.starts.len() - 1] {
                    assert_eq!(s % al.unit, al.phase);
                }
                // The first block is about `target` long too (at least, unless n is less).
                if n > 0 {
                    assert!(b.starts[1] >= 100.min(n), "n {n}, {al:?}: {:?}", b.starts);
                }
            }
        }
    }

    /// The scatter places every element at its bucket's next free slot (a stable
    /// counting sort), and an element whose bucket changes between the counting pass
    /// and the scatter makes it panic rather than write past its part.
    #[test]
    fn scatter_blocks_sorts_stably_and_catches_changed_buckets() {
        use super::super::testkit::{Rng, Threads};
        use std::sync::atomic::{AtomicUsize, Ordering};
        let v: Vec<u64> = Rng(41).vec(3000, 1 << 20);
        let k = 16;
        let blocks = Blocks::new(v.len(), 100, Align::NONE);
        let counts: Vec<Vec<usize>> = (0..blocks.count())
            .map(|b| {
                let mut c = vec![0; k];
                v[blocks.range(b)]
                    .iter()
                    .for_each(|&x| c[x as usize % k] += 1);
                c
            })
            .collect();
        let (offsets, starts) = bucket_offsets(&counts, k);
        assert_eq!(starts[k], v.len());
        let mut out: Vec<AtomicUsize> =
            (0..v.len()).map(|_| AtomicUsize::new(usize::MAX)).collect();
        let ctx = &mut Threads::new();
        let dst = Ptr(out.as_mut_ptr());
        let (v, out_ref) = (&v[..], &out[..]);
        scatter_blocks(
            ctx,
            &blocks,
            &counts,
            &offsets,
            dst,
            move |i| (v[i] as usize % k, i),
            |at: *mut AtomicUsize, i| {
                // The slot `at` points to, checked to lie in `out` before it is used.
                let s = (at as usize).wrapping_sub(dst.get() as usize) / size_of::<AtomicUsize>();
                assert!(s < v.len() && dst.get().wrapping_add(s) == at);
                // Each slot exactly once.
                assert_eq!(out_ref[s].swap(i, Ordering::Relaxed), usize::MAX);
            },
        );
        let got: Vec<usize> = out.iter().map(|s| s.load(Ordering::Relaxed)).collect();
        let mut want: Vec<usize> = (0..v.len()).collect();
        want.sort_by_key(|&i| v[i] % k as u64); // stable
        assert_eq!(got, want);
        // Element 7 moves to another bucket after counting.
        let moved = |i: usize| (v[i] as usize + (i == 7) as usize) % k;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            scatter_blocks(
                ctx,
                &blocks,
                &counts,
                &offsets,
                dst,
                move |i| (moved(i), ()),
                |_, ()| {},
            )
        }));
        assert!(r.is_err());
    }
}

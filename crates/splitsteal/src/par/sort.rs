//! Comparison sorts: a parallel merge sort with a parallel merge ([`sort_by`], stable) and
//! a parallel pattern-defeating quicksort ([`sort_unstable_by`], in place; `sort/quick.rs`
//! describes it).
//!
//! The merge sort: the slice is halved recursively on `join` down to a few leaves per
//! thread; leaves are sorted with std's stable `sort_by`; sorted halves are merged *in
//! parallel* (the longer run is cut at its middle, the cut point is binary-searched in the
//! other, and the two sub-merges run on `join`), ping-ponging between the slice and one
//! buffer of the same length, so each level moves every element once. Already-ordered
//! neighbours are detected with one comparison and just copied, so sorted input costs about
//! one copy per level. The merge takes from the left run on ties, so [`sort_by`] is stable.
//!
//! The unstable sort replaced the same merge sort with std's `sort_unstable_by` at the
//! leaves (issue 31), which lost to rayon's quicksort on nearly sorted input: 1M u64 with
//! 2% of the keys swapped took 12.2 ms at 1 thread and 13.2 at 2 where rayon took 7.4 and
//! 4.3 (the merge sort's leaves and merges gain nothing from near-order).
//!
//! Before any of that, two pre-passes:
//! - A check (`sorted_or_reversed`) returns at once if the input is in order (one read)
//!   and reverses it if it is *strictly* descending; it stops at the first change of
//!   direction (within a stretch of 32 pairs), so other input pays a few dozen
//!   comparisons. On a pool of more than one thread, inputs above 2 × 64K elements are
//!   read in parallel blocks after a sequential prefix, and reversed in parallel
//!   (`sorted_or_reversed_par`): on the 2-vCPU Intel host of 2026-11-28 one thread's reads
//!   did not reach memory's speed (5M sorted u64 at two threads, `sort-stable-sorted`:
//!   8.0-8.4 ms against rayon's 3.6-3.9; then 3.7-4.2, and `sort-stable-reversed`
//!   11.9-12.3 -> 6.1-7.0 against rayon's 8.0-9.7).
//!   It replaced the parallel block scan below for these two cases: measured (5M u64,
//!   best of 9 inside the pool, 2 loaded cores), sorted input at 1 thread took 1.42 ms
//!   instead of 6.19 (rayon 1.45), reversed at 2 threads 2.3-2.4 instead of 3.1-3.3 (rayon
//!   2.4-2.5); sorted at 2 threads is unchanged (1.3-1.4, memory-bound). In the bench's
//!   iter rows (`--threads 1,2 --reps 3`, 4 interleaved rounds each, medians (min)):
//!   `sort-unstable-sorted` at 1 thread 2.68 (2.40) -> 1.46 (1.40) ms, rayon 1.46;
//!   `sort-unstable-reversed` 3.94 (2.46) -> 2.55 (2.41) at 1 thread and 4.40 (3.01) ->
//!   2.42 (2.34) at 2, rayon 2.58 and 2.73; `sort-stable-reversed` at 2 threads 3.15
//!   (3.01) -> 2.45 (2.37). Uniform, few-distinct and almost-sorted rows are unchanged
//!   within the spread.
//! - A presortedness pass (`sort/presorted.rs`, which documents its rule and measurements)
//!   sorts nearly sorted input with about one comparison per element and two copies, and
//!   reverses strictly descending input it sees (for the integer sort); other input pays a
//!   128-pair probe.
//!
//! Almost-sorted input beyond the presorted pass's budget (1M u64 with 1-4% of the keys
//! randomly swapped) was a known gap of the merge sort; the quicksort takes it (see the
//! quicksort's module). Loosening the pass's budget (probe 16 of 128 descents, 1/8 of a
//! block set aside) did not help: 14.7/22.8/18.6 ms at 1/2/4% against 16.2/18.7/16.6, the
//! indirect sort of that many outliers costing more than it saves.
//!
//! The merge sort moves elements bitwise between the slice and the buffer. To stay sound when the
//! comparator panics, every recursive call guarantees — on return and while unwinding —
//! that the elements of its range are all in the half (slice or buffer) the caller
//! expects: drop guards copy them there. So a panic leaves `v` a permutation of its input.
//!
//! A comparator that is not a total order (inconsistent, or random) gives some permutation
//! of the input and no panic, as rayon's sorts do. The merges and the pre-pass are
//! permutations by construction whatever the comparator answers; std's sorts at the leaves
//! may panic when they notice such a comparator (since Rust 1.81), so [`leaf_sort`] catches
//! that panic — telling it from the comparator's own panics, which propagate — and keeps
//! the leaf as std left it (a permutation). The happy path pays nothing per comparison.

use std::cell::Cell;
use std::cmp::Ordering;
use std::mem;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use super::split::{Ptr, Scratch};
use crate::ForkJoin;

mod presorted;
mod quick;

/// Below this many elements, sort sequentially.
pub(crate) const SEQ_SORT: usize = if cfg!(any(test, miri)) { 32 } else { 1 << 13 };
/// Below this many elements, merge sequentially.
const SEQ_MERGE: usize = if cfg!(any(test, miri)) { 16 } else { 1 << 12 };
/// Sequential leaves per thread.
const LEAVES_PER_THREAD: usize = 2;

/// Sorts `v` in parallel; stable (rayon: `v.par_sort()`).
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![5, 3, 1, 4, 2];
/// par::sort(&mut Serial, &mut v);
/// assert_eq!(v, [1, 2, 3, 4, 5]);
/// ```
pub fn sort<C, T>(ctx: &mut C, v: &mut [T])
where
    C: ForkJoin,
    T: Ord + Send,
{
    sort_by(ctx, v, T::cmp)
}

/// Sorts `v` with a comparator, in parallel; stable: equal elements keep their order
/// (rayon: `v.par_sort_by(cmp)`). A parallel merge sort with std's stable sort at the
/// leaves; allocates a buffer of `v.len()` elements.
///
/// If `cmp` panics, the panic propagates and `v` holds its elements in some order; none
/// is lost or duplicated.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd')];
/// par::sort_by(&mut Serial, &mut v, |x, y| x.0.cmp(&y.0));
/// assert_eq!(v, [(1, 'b'), (1, 'd'), (2, 'a'), (2, 'c')]);
/// ```
pub fn sort_by<C, T, F>(ctx: &mut C, v: &mut [T], cmp: F)
where
    C: ForkJoin,
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    merge_sort(
        ctx,
        v,
        &|a: &T, b: &T| cmp(a, b) == Ordering::Less,
        &|s: &mut [T]| leaf_sort(s, &cmp, true),
    )
}

/// Sorts `v` by a key, in parallel; stable (rayon: `v.par_sort_by_key(key)`). `key` is
/// called about `2 log n` times per element; cache expensive keys in the elements.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec!["ccc", "a", "bb"];
/// par::sort_by_key(&mut Serial, &mut v, |s| s.len());
/// assert_eq!(v, ["a", "bb", "ccc"]);
/// ```
pub fn sort_by_key<C, T, K, F>(ctx: &mut C, v: &mut [T], key: F)
where
    C: ForkJoin,
    T: Send,
    K: Ord,
    F: Fn(&T) -> K + Sync,
{
    sort_by(ctx, v, |a, b| key(a).cmp(&key(b)))
}

/// Sorts `v` in parallel; not stable (rayon: `v.par_sort_unstable()`).
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![5, 3, 1, 4, 2];
/// par::sort_unstable(&mut Serial, &mut v);
/// assert_eq!(v, [1, 2, 3, 4, 5]);
/// ```
pub fn sort_unstable<C, T>(ctx: &mut C, v: &mut [T])
where
    C: ForkJoin,
    T: Ord + Send,
{
    sort_unstable_by(ctx, v, T::cmp)
}

/// Sorts `v` with a comparator, in parallel; not stable (rayon:
/// `v.par_sort_unstable_by(cmp)`). In place, allocating nothing unless `v` is nearly
/// sorted: a parallel pattern-defeating quicksort (the two sides of a partition on
/// `join`), with std's `sort_unstable_by` for the ranges that look random once they are
/// too small to split further.
///
/// If `cmp` panics, the panic propagates and `v` holds its elements in some order; none
/// is lost or duplicated. If `cmp` is not a total order, `v` ends in some order, without
/// a panic.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![1.5f64, -2.0, 0.25];
/// par::sort_unstable_by(&mut Serial, &mut v, |a, b| a.total_cmp(b));
/// assert_eq!(v, [-2.0, 0.25, 1.5]);
/// ```
pub fn sort_unstable_by<C, T, F>(ctx: &mut C, v: &mut [T], cmp: F)
where
    C: ForkJoin,
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let is_less = |a: &T, b: &T| cmp(a, b) == Ordering::Less;
    if !sorted_by_first_passes(ctx, v, &is_less) {
        quick::sort(ctx, v, &is_less, &|s: &mut [T]| leaf_sort(s, &cmp, false))
    }
}

/// Sorts `v` by a key, in parallel; not stable (rayon: `v.par_sort_unstable_by_key(key)`).
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![-3i32, 1, -2];
/// par::sort_unstable_by_key(&mut Serial, &mut v, |x| x.abs());
/// assert_eq!(v, [1, -2, -3]);
/// ```
pub fn sort_unstable_by_key<C, T, K, F>(ctx: &mut C, v: &mut [T], key: F)
where
    C: ForkJoin,
    T: Send,
    K: Ord,
    F: Fn(&T) -> K + Sync,
{
    sort_unstable_by(ctx, v, |a, b| key(a).cmp(&key(b)))
}

/// std's `sort_by` (`stable`) or `sort_unstable_by` on `s`, except that the panic std may
/// raise when `cmp` is not a total order is caught: `s` is then left as std left it, a
/// permutation of its elements (std's sorts are panic-safe), which is all a sort can
/// promise for such a comparator. A panic of `cmp` itself still propagates.
///
/// The default panic hook still reports std's panic on stderr before it is caught, and
/// with `panic = "abort"` it aborts.
pub(crate) fn leaf_sort<T, F>(s: &mut [T], cmp: &F, stable: bool)
where
    F: Fn(&T, &T) -> Ordering,
{
    /// Records, when dropped while unwinding, that the panic came from `cmp`.
    struct Raised<'a>(&'a Cell<bool>);
    impl Drop for Raised<'_> {
        fn drop(&mut self) {
            self.0.set(true);
        }
    }
    let from_cmp = Cell::new(false);
    let watched = |a: &T, b: &T| {
        let raised = Raised(&from_cmp);
        let order = cmp(a, b);
        // Returned normally: nothing to record (`forget` costs nothing at run time).
        mem::forget(raised);
        order
    };
    let sorted = panic::catch_unwind(AssertUnwindSafe(|| {
        if stable {
            s.sort_by(watched)
        } else {
            s.sort_unstable_by(watched)
        }
    }));
    if let Err(payload) = sorted
        && from_cmp.get()
    {
        panic::resume_unwind(payload);
    }
    // std found `cmp` inconsistent: any permutation is an acceptable result.
}

/// `ctx.join(a, b)`, for code whose invariants need every branch to have run: if the join
/// unwinds (a panic in `a` or `b`) and one branch never started — a serial `join` does
/// not run `b` after `a` panicked — its `fix` runs instead while unwinding, to establish
/// what the branch would have guaranteed.
pub(crate) fn join_or_fix<C, A, B, FA, FB>(ctx: &mut C, a: A, b: B, fix_a: FA, fix_b: FB)
where
    C: ForkJoin,
    A: FnOnce(&mut C) + Send,
    B: FnOnce(&mut C) + Send,
    FA: FnOnce(),
    FB: FnOnce(),
{
    struct Fix<'a, FA: FnOnce(), FB: FnOnce()> {
        started: [&'a AtomicBool; 2],
        fix_a: Option<FA>,
        fix_b: Option<FB>,
    }
    impl<FA: FnOnce(), FB: FnOnce()> Drop for Fix<'_, FA, FB> {
        fn drop(&mut self) {
            // Relaxed: the join's completion synchronizes with the branches.
            if !self.started[0].load(AtomicOrdering::Relaxed)
                && let Some(f) = self.fix_a.take()
            {
                f()
            }
            if !self.started[1].load(AtomicOrdering::Relaxed)
                && let Some(f) = self.fix_b.take()
            {
                f()
            }
        }
    }
    let (sa, sb) = (AtomicBool::new(false), AtomicBool::new(false));
    let fix = Fix {
        started: [&sa, &sb],
        fix_a: Some(fix_a),
        fix_b: Some(fix_b),
    };
    ctx.join(marking_start(&sa, a), marking_start(&sb, b));
    // Both branches ran to completion: nothing to fix.
    mem::forget(fix);
}

/// `f`, setting `started` when it starts. A function generic over `f` alone: a closure
/// written in `join_or_fix` would carry all five of its type parameters, and the join's
/// layers of wrappers would multiply the length of its type's name (see
/// `splitsteal_core`'s `join::ignoring_worker`).
#[inline(always)]
fn marking_start<'a, C, F>(started: &'a AtomicBool, f: F) -> impl FnOnce(&mut C) + Send + 'a
where
    F: FnOnce(&mut C) + Send + 'a,
{
    move |c| {
        // Relaxed: the join's completion synchronizes with the branches.
        started.store(true, AtomicOrdering::Relaxed);
        f(c)
    }
}

/// Copies `len` elements from `src` to `dst` when dropped, normally or while unwinding.
pub(crate) struct CopyOnDrop<T> {
    pub src: *const T,
    pub dst: *mut T,
    pub len: usize,
}

impl<T> Drop for CopyOnDrop<T> {
    fn drop(&mut self) {
        // SAFETY: whoever builds a `CopyOnDrop` guarantees that `src` and `dst` are valid
        // for `len` elements and do not overlap when it is dropped.
        unsafe { ptr::copy_nonoverlapping(self.src, self.dst, self.len) }
    }
}

fn merge_sort<C, T, L, S>(ctx: &mut C, v: &mut [T], is_less: &L, leaf_sort: &S)
where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
    S: Fn(&mut [T]) + Sync,
{
    if !sorted_by_first_passes(ctx, v, is_less) {
        merge_sort_plain(ctx, v, is_less, leaf_sort)
    }
}

/// The passes both comparison sorts start with: nothing to do for zero-sized elements, the
/// sequential in-order / descending check, and (above [`SEQ_SORT`]) the presortedness pass.
/// Returns true when `v` is sorted by them.
fn sorted_by_first_passes<C, T, L>(ctx: &mut C, v: &mut [T], is_less: &L) -> bool
where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
{
    if mem::size_of::<T>() == 0 || sorted_or_reversed_par(ctx, v, is_less) {
        return true;
    }
    let parallel = ctx.num_threads() > 1;
    v.len() > SEQ_SORT && presorted::sort(ctx, v, is_less, parallel)
}

/// How many of `samples` evenly spaced neighbour pairs of `v` are descents (`v[i + 1]`
/// less than `v[i]`; `samples < v.len()`): the presortedness pass's probes and the
/// quicksort's test for a random-looking range.
fn descents<T, L>(v: &[T], samples: usize, is_less: &L) -> usize
where
    L: Fn(&T, &T) -> bool,
{
    let n = v.len();
    (0..samples)
        .filter(|&j| {
            let i = j * (n - 1) / samples;
            is_less(&v[i + 1], &v[i])
        })
        .count()
}

/// Below this many elements the in-order check and the reversal stay on one thread; above,
/// the check reads this many sequentially first (so input that is not in order pays no
/// fork), then the rest in blocks of this many, in parallel.
const SEQ_SCAN: usize = if cfg!(any(test, miri)) { 8 } else { 1 << 16 };

/// [`sorted_or_reversed`] on every worker: the same answer and the same effect on `v`.
///
/// One thread's reads do not reach memory's speed on every machine. On the 2-vCPU Intel
/// host of 2026-11-28, 5M sorted `u64` (40 MB) took 8.5 ms at one thread and 8.6 at two
/// with the sequential check, where rayon's merge sort took 7.6 and 4.0.
fn sorted_or_reversed_par<C, T, L>(ctx: &mut C, v: &mut [T], is_less: &L) -> bool
where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
{
    let n = v.len();
    if ctx.num_threads() < 2 || n < 2 * SEQ_SCAN {
        return sorted_or_reversed(v, is_less);
    }
    if !is_less(&v[1], &v[0]) {
        return prefix_then_blocks(ctx, v, &|a: &T, b: &T| !is_less(b, a));
    }
    if !prefix_then_blocks(ctx, v, &|a: &T, b: &T| is_less(b, a)) {
        return false;
    }
    reverse_par(ctx, v);
    true
}

/// Whether `in_order` holds for every neighbour pair of `v` (longer than [`SEQ_SCAN`]):
/// the first `SEQ_SCAN` elements on this thread, so that input out of order there pays no
/// fork, then the rest in parallel blocks.
fn prefix_then_blocks<C, T, F>(ctx: &mut C, v: &mut [T], in_order: &F) -> bool
where
    C: ForkJoin,
    T: Send,
    F: Fn(&T, &T) -> bool + Sync,
{
    all_pairs(&v[..SEQ_SCAN], in_order)
        && every_pair_par(
            ctx,
            &mut v[SEQ_SCAN - 1..],
            in_order,
            &AtomicBool::new(false),
        )
}

/// Reverses `v` and returns true if it is strictly descending (a reversal that is then
/// stable: no two elements are equal); else returns false with `v` untouched. In parallel
/// blocks: the check, then swaps of mirrored blocks.
pub(super) fn reverse_if_strictly_descending<C, T, L>(ctx: &mut C, v: &mut [T], is_less: &L) -> bool
where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
{
    if !every_pair_par(
        ctx,
        v,
        &|a: &T, b: &T| is_less(b, a),
        &AtomicBool::new(false),
    ) {
        return false;
    }
    reverse_par(ctx, v);
    true
}

/// Reverses `v`, in parallel blocks (see [`swap_mirrored`]).
fn reverse_par<C: ForkJoin, T: Send>(ctx: &mut C, v: &mut [T]) {
    let n = v.len();
    let (front, rest) = v.split_at_mut(n / 2);
    swap_mirrored(ctx, front, &mut rest[n % 2..]);
}

/// Whether `in_order` holds for every neighbour pair of `s`: branch-free stretches of 32
/// pairs (vectorizable), an early exit between them. (Stretches of 256 pairs folded over
/// `windows(2)` took 3.2 ms for 5M sorted u64 in cache, these 2.5.)
fn all_pairs<T>(s: &[T], in_order: &impl Fn(&T, &T) -> bool) -> bool {
    const STRETCH: usize = 32;
    let mut i = 0;
    while i + STRETCH < s.len() {
        let w = &s[i..i + STRETCH + 1];
        let mut ok = true;
        for j in 0..STRETCH {
            ok &= in_order(&w[j], &w[j + 1]);
        }
        if !ok {
            return false;
        }
        i += STRETCH;
    }
    s[i..].windows(2).all(|w| in_order(&w[0], &w[1]))
}

/// [`all_pairs`] in parallel, blocks of [`SEQ_SCAN`] elements; a block or a cut that fails
/// sets `failed`, and blocks not yet started then skip their scan. Takes `s` mutably only to
/// split it (a shared slice would need `T: Sync`, which the sorts do not ask).
fn every_pair_par<C, T, F>(ctx: &mut C, s: &mut [T], in_order: &F, failed: &AtomicBool) -> bool
where
    C: ForkJoin,
    T: Send,
    F: Fn(&T, &T) -> bool + Sync,
{
    // Relaxed: a hint to skip work; the answer is the `&&` of the halves' results.
    if failed.load(AtomicOrdering::Relaxed) {
        return false;
    }
    if s.len() <= SEQ_SCAN {
        let ok = all_pairs(s, in_order);
        if !ok {
            // Relaxed: as above.
            failed.store(true, AtomicOrdering::Relaxed);
        }
        return ok;
    }
    let mid = s.len() / 2;
    // The pair across the cut, which neither half sees.
    if !in_order(&s[mid - 1], &s[mid]) {
        // Relaxed: as above.
        failed.store(true, AtomicOrdering::Relaxed);
        return false;
    }
    let (left, right) = s.split_at_mut(mid);
    let (l, r) = ctx.join(
        |c| every_pair_par(c, left, in_order, failed),
        |c| every_pair_par(c, right, in_order, failed),
    );
    l && r
}

/// Swaps `a[i]` with `b[b.len() - 1 - i]` for every `i` (`a` and `b` of one length): the
/// two halves of a reversal, in parallel blocks of [`SEQ_SCAN`] elements.
fn swap_mirrored<C: ForkJoin, T: Send>(ctx: &mut C, a: &mut [T], b: &mut [T]) {
    debug_assert_eq!(a.len(), b.len());
    if a.len() <= SEQ_SCAN {
        for (x, y) in a.iter_mut().zip(b.iter_mut().rev()) {
            mem::swap(x, y);
        }
        return;
    }
    let m = a.len() / 2;
    let (a_front, a_back) = a.split_at_mut(m);
    let (b_front, b_back) = b.split_at_mut(b.len() - m);
    // `a_front` mirrors the last `m` of `b`, `a_back` the rest.
    ctx.join(
        |c| swap_mirrored(c, a_front, b_back),
        |c| swap_mirrored(c, a_back, b_front),
    );
}

/// Returns true, with `v` sorted, if `v` was already in order (reads it once) or
/// strictly descending (then reversed: stable, no two elements being equal); else
/// returns false with `v` untouched, after reading only up to its first change of
/// direction (at most a stretch of 32 pairs beyond it).
///
/// The one-thread and small-input case of [`sorted_or_reversed_par`]. (On the 2-vCPU AMD
/// host of 2026-11-27 this one pass ran at memory speed even at two threads: 5M sorted
/// u64 in 1.4 ms against 5.6-6.5 for the presortedness pass's parallel block scan, and
/// std's `reverse` beat a parallel reversal, 2.4 ms against 9. The Intel host of
/// 2026-11-28 is the reverse: see `sorted_or_reversed_par`.)
fn sorted_or_reversed<T, L>(v: &mut [T], is_less: &L) -> bool
where
    L: Fn(&T, &T) -> bool,
{
    if v.len() < 2 {
        return true;
    }
    if !is_less(&v[1], &v[0]) {
        return all_pairs(v, &|a, b| !is_less(b, a));
    }
    if !all_pairs(v, &|a, b| is_less(b, a)) {
        return false;
    }
    v.reverse();
    true
}

/// The presortedness pre-pass alone: sorts `v` (stably) and returns true if it is nearly
/// sorted or strictly descending, else returns false with `v` untouched. For
/// [`integer_sort_by_key`](super::integer_sort_by_key), whose radix passes gain nothing
/// from order.
pub(crate) fn sort_presorted<C, T, L>(ctx: &mut C, v: &mut [T], is_less: &L) -> bool
where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
{
    mem::size_of::<T>() > 0 && presorted::sort(ctx, v, is_less, true)
}

/// The merge sort without the presortedness pre-pass (which sorts its outliers with it).
pub(crate) fn merge_sort_plain<C, T, L, S>(ctx: &mut C, v: &mut [T], is_less: &L, leaf_sort: &S)
where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
    S: Fn(&mut [T]) + Sync,
{
    let n = v.len();
    let p = ctx.num_threads();
    if mem::size_of::<T>() == 0 || p <= 1 || n <= SEQ_SORT {
        leaf_sort(v);
        return;
    }
    let leaf_len = n.div_ceil(LEAVES_PER_THREAD * p).max(SEQ_SORT);
    let merge_grain = (n / (8 * p)).max(SEQ_MERGE);
    // Freed on return and while unwinding; it never drops an element.
    let mut buf = Scratch::new(n);
    let cfg = Cfg {
        leaf_len,
        merge_grain,
        is_less,
        leaf_sort,
    };
    // SAFETY: `v` and `buf` are valid, disjoint, and `n` elements long; `v` holds the
    // elements and the call leaves them (sorted, or permuted if it unwinds) in `v`.
    unsafe {
        sort_rec(ctx, Ptr(v.as_mut_ptr()), buf.ptr(), n, false, &cfg);
    }
}

struct Cfg<'a, L, S> {
    leaf_len: usize,
    merge_grain: usize,
    is_less: &'a L,
    leaf_sort: &'a S,
}

/// Sorts the `n` elements at `src`, leaving them at `buf` if `to_buf`, else at `src`.
///
/// # Safety
/// `src` and `buf` are valid for `n` elements and disjoint; the elements are at `src`;
/// nothing else accesses either range during the call. On return *and* on unwinding the
/// elements (sorted, respectively permuted) are at `buf` if `to_buf`, else at `src`.
unsafe fn sort_rec<C, T, L, S>(
    ctx: &mut C,
    src: Ptr<T>,
    buf: Ptr<T>,
    n: usize,
    to_buf: bool,
    cfg: &Cfg<'_, L, S>,
) where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
    S: Fn(&mut [T]) + Sync,
{
    if n <= cfg.leaf_len {
        // SAFETY: the caller gives us exclusive access to `n` elements at `src`.
        let s = unsafe { std::slice::from_raw_parts_mut(src.0, n) };
        if to_buf {
            // Copies the (sorted, or on a panic permuted: std's sorts keep every element)
            // leaf into the buffer on the way out either way.
            let _g = CopyOnDrop {
                src: src.0,
                dst: buf.0,
                len: n,
            };
            (cfg.leaf_sort)(s);
        } else {
            (cfg.leaf_sort)(s);
        }
        return;
    }
    let h = n / 2;
    // The halves leave their results in `from`; we merge them into `to`.
    let (from, to) = if to_buf { (src, buf) } else { (buf, src) };
    // If a half panics, both halves still end in `from` (by induction, or by the fix-up
    // of a half that never started); move them all to `to` while unwinding.
    let restore = CopyOnDrop {
        src: from.0,
        dst: to.0,
        len: n,
    };
    // SAFETY: `h < n`, so the offsets stay inside both ranges.
    let (src_r, buf_r, from_r) = unsafe { (src.add(h), buf.add(h), from.add(h)) };
    // A half that never started still has its elements at `src`.
    let not_started = |at: Ptr<T>, len: usize, dst: Ptr<T>| {
        if at.0 != dst.0 {
            // SAFETY: `at` (in `src`) and `dst` (in `buf`) are disjoint ranges of `len`.
            unsafe { ptr::copy_nonoverlapping(at.0, dst.0, len) }
        }
    };
    join_or_fix(
        ctx,
        // SAFETY: the halves `[0, h)` and `[h, n)` of both ranges are disjoint, valid,
        // and hold their elements at `src`.
        move |c| unsafe { sort_rec(c, src, buf, h, !to_buf, cfg) },
        move |c| unsafe { sort_rec(c, src_r, buf_r, n - h, !to_buf, cfg) },
        || not_started(src, h, from),
        || not_started(src_r, n - h, from_r),
    );
    mem::forget(restore);
    // SAFETY: both sorted halves are at `from`; `to` is disjoint and `n` long.
    unsafe { par_merge(ctx, from, h, from.add(h), n - h, to, cfg) };
}

/// Merges the sorted runs `a[..na]` and `b[..nb]` into `out[..na + nb]`, stably (ties
/// from `a` first), in parallel.
///
/// # Safety
/// The three ranges are valid and `out` is disjoint from `a` and `b`; nothing else
/// accesses them. On return and on unwinding, `out` holds all `na + nb` elements (merged,
/// respectively in some order) and `a`, `b` are logically moved-from.
unsafe fn par_merge<C, T, L, S>(
    ctx: &mut C,
    a: Ptr<T>,
    na: usize,
    b: Ptr<T>,
    nb: usize,
    out: Ptr<T>,
    cfg: &Cfg<'_, L, S>,
) where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
    S: Fn(&mut [T]) + Sync,
{
    let is_less = cfg.is_less;
    if na == 0 || nb == 0 {
        // SAFETY: valid disjoint ranges, per the contract.
        unsafe {
            ptr::copy_nonoverlapping(a.0, out.0, na);
            ptr::copy_nonoverlapping(b.0, out.0.add(na), nb);
        }
        return;
    }
    // If `is_less` panics before the work is handed on, put `a` then `b` into `out`.
    let fallback = MergeFallback { a, na, b, nb, out };
    // SAFETY: na, nb >= 1, so the first and last elements exist.
    let (a_last, b_first) = unsafe { (&*a.0.add(na - 1), &*b.0) };
    if !is_less(b_first, a_last) {
        // Already in order (sorted input): the fallback's copy is the merge.
        return;
    }
    // SAFETY: as above.
    let (a_first, b_last) = unsafe { (&*a.0, &*b.0.add(nb - 1)) };
    if is_less(b_last, a_first) {
        mem::forget(fallback);
        // Strictly reversed: `b` first (ties would have failed the strict test).
        // SAFETY: valid disjoint ranges.
        unsafe {
            ptr::copy_nonoverlapping(b.0, out.0, nb);
            ptr::copy_nonoverlapping(a.0, out.0.add(nb), na);
        }
        return;
    }
    if na + nb <= cfg.merge_grain || ctx.num_threads() <= 1 {
        mem::forget(fallback);
        // SAFETY: per the contract.
        unsafe { seq_merge(a, na, b, nb, out, is_less) };
        return;
    }
    // Cut the longer run in the middle and find the matching cut in the other, so that
    // everything left of both cuts precedes everything right of them, ties included.
    let (ca, cb) = if na >= nb {
        let ca = na / 2;
        // SAFETY: `ca < na`, and `b` is valid for `nb` elements.
        let (pivot, bs) = unsafe { (&*a.0.add(ca), std::slice::from_raw_parts(b.0, nb)) };
        // `b`'s elements equal to the pivot go right, after it.
        (ca, bs.partition_point(|y| is_less(y, pivot)))
    } else {
        let cb = nb / 2;
        // SAFETY: as above.
        let (pivot, as_) = unsafe { (&*b.0.add(cb), std::slice::from_raw_parts(a.0, na)) };
        // `a`'s elements equal to the pivot go left, before it.
        (as_.partition_point(|x| !is_less(pivot, x)), cb)
    };
    mem::forget(fallback);
    // SAFETY: `ca <= na`, `cb <= nb`: offsets stay in range.
    let (a_r, b_r, out_r) = unsafe { (a.add(ca), b.add(cb), out.add(ca + cb)) };
    join_or_fix(
        ctx,
        // SAFETY: the left and right parts of `a`, `b` and `out` are disjoint sub-ranges
        // with `ca + cb` and `na - ca + nb - cb` elements respectively.
        move |c| unsafe { par_merge(c, a, ca, b, cb, out, cfg) },
        move |c| unsafe { par_merge(c, a_r, na - ca, b_r, nb - cb, out_r, cfg) },
        // A sub-merge that never started: move its runs to its output unmerged.
        || {
            drop(MergeFallback {
                a,
                na: ca,
                b,
                nb: cb,
                out,
            })
        },
        || {
            drop(MergeFallback {
                a: a_r,
                na: na - ca,
                b: b_r,
                nb: nb - cb,
                out: out_r,
            })
        },
    );
}

/// On drop, copies `a` then `b` into `out`.
struct MergeFallback<T> {
    a: Ptr<T>,
    na: usize,
    b: Ptr<T>,
    nb: usize,
    out: Ptr<T>,
}

impl<T> Drop for MergeFallback<T> {
    fn drop(&mut self) {
        // SAFETY: built by `par_merge` from its (valid, disjoint) arguments.
        unsafe {
            ptr::copy_nonoverlapping(self.a.0, self.out.0, self.na);
            ptr::copy_nonoverlapping(self.b.0, self.out.0.add(self.na), self.nb);
        }
    }
}

/// The state of a sequential merge; on drop (normally after the loop, or when `is_less`
/// panics) the rest of both runs is copied to the rest of the output.
struct MergeState<T> {
    a: *const T,
    a_end: *const T,
    b: *const T,
    b_end: *const T,
    out: *mut T,
}

impl<T> Drop for MergeState<T> {
    fn drop(&mut self) {
        // SAFETY: `a..a_end` and `b..b_end` are the unmerged (still owned) elements, and
        // `out` has exactly room for them; the ranges are disjoint.
        unsafe {
            let ra = self.a_end.offset_from(self.a) as usize;
            let rb = self.b_end.offset_from(self.b) as usize;
            ptr::copy_nonoverlapping(self.a, self.out, ra);
            ptr::copy_nonoverlapping(self.b, self.out.add(ra), rb);
        }
    }
}

/// # Safety
/// As [`par_merge`]; `T` is not zero-sized.
unsafe fn seq_merge<T, L>(a: Ptr<T>, na: usize, b: Ptr<T>, nb: usize, out: Ptr<T>, is_less: &L)
where
    L: Fn(&T, &T) -> bool,
{
    // SAFETY: the ends are one past the valid ranges.
    let mut s = unsafe {
        MergeState {
            a: a.0,
            a_end: a.0.add(na),
            b: b.0,
            b_end: b.0.add(nb),
            out: out.0,
        }
    };
    while s.a != s.a_end && s.b != s.b_end {
        // SAFETY: both pointers are inside their runs (checked by the loop condition).
        let take_b = unsafe { is_less(&*s.b, &*s.a) };
        let src = if take_b { s.b } else { s.a };
        // SAFETY: `out` has room for every unmerged element, and advancing each pointer
        // by at most one keeps it within (or one past) its range.
        unsafe {
            ptr::copy_nonoverlapping(src, s.out, 1);
            s.out = s.out.add(1);
            s.b = s.b.add(take_b as usize);
            s.a = s.a.add(!take_b as usize);
        }
    }
    // Dropping `s` copies what is left of the run that is not exhausted.
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{planned_panic, sizes, Rng, SplitSerial, Threads};
    use super::*;
    use crate::Serial;
    use std::sync::atomic::{AtomicIsize, Ordering as AO};
    use std::sync::Arc;

    #[test]
    fn sorts_match_std() {
        let mut rng = Rng(5);
        let mut ns = sizes();
        if !cfg!(miri) {
            ns.push(100_000);
        }
        for n in ns {
            for modulo in [1u64, 3, 1000, u64::MAX] {
                let v: Vec<(u64, usize)> = rng.vec(n, modulo).into_iter().zip(0..).collect();
                let mut want = v.clone();
                want.sort_by_key(|x| x.0);
                let mut w = v.clone();
                sort_by_key(&mut Threads::new(), &mut w, |x| x.0);
                assert_eq!(w, want, "stable sort, n={n} modulo={modulo}");
                let mut w = v.clone();
                sort_unstable_by_key(&mut SplitSerial { morsel: 64 }, &mut w, |x| x.0);
                assert!(w.windows(2).all(|p| p[0].0 <= p[1].0));
                w.sort();
                let mut all = v.clone();
                all.sort();
                assert_eq!(w, all, "unstable sort lost elements");
                // Sorted and reversed input.
                let mut s = want.clone();
                sort_by_key(&mut Threads::new(), &mut s, |x| x.0);
                assert_eq!(s, want);
                let mut r: Vec<u64> = want.iter().map(|x| x.0).rev().collect();
                sort(&mut Threads::new(), &mut r);
                assert!(r.windows(2).all(|p| p[0] <= p[1]));
            }
        }
    }

    /// The parallel check and reversal give the sequential one's answer and leave `v` as it
    /// does, wherever the first pair out of order sits: in the sequential prefix, at a cut
    /// between two blocks, or inside one.
    #[test]
    fn sorted_or_reversed_par_agrees_with_the_sequential_check() {
        let lt = |a: &(u32, u32), b: &(u32, u32)| a.0 < b.0;
        let sizes: &[usize] = if cfg!(miri) {
            &[17, 40]
        } else {
            &[16, 17, 40, 100, 257]
        };
        for &n in sizes {
            let up: Vec<(u32, u32)> = (0..n as u32).map(|i| (i / 2, i)).collect();
            let down: Vec<(u32, u32)> = (0..n as u32).rev().map(|i| (i, i)).collect();
            let mut inputs = vec![up.clone(), down.clone()];
            for at in 1..n {
                let mut tied = down.clone();
                tied[at].0 = tied[at - 1].0;
                inputs.push(tied);
                let mut bent = up.clone();
                bent[at].0 = u32::MAX;
                bent.swap(at - 1, at);
                inputs.push(bent);
            }
            for input in inputs {
                let mut want = input.clone();
                let sorted = sorted_or_reversed(&mut want, &lt);
                let mut got = input.clone();
                assert_eq!(
                    sorted_or_reversed_par(&mut Threads::new(), &mut got, &lt),
                    sorted,
                    "n={n} input={input:?}"
                );
                assert_eq!(got, want, "n={n} input={input:?}");
            }
        }
    }

    /// The sequential pre-check: only in-order or *strictly* descending input is handled
    /// there (reversing keeps equal keys stable only when there are none), and anything
    /// else is left untouched for the merge sort, however late its first change of
    /// direction comes.
    #[test]
    fn sorted_or_reversed_only_takes_what_it_can_finish() {
        let lt = |a: &(u32, u32), b: &(u32, u32)| a.0 < b.0;
        for n in [2usize, 3, 255, 256, 257, 1000] {
            let up: Vec<(u32, u32)> = (0..n as u32).map(|i| (i / 2, i)).collect();
            let mut w = up.clone();
            assert!(sorted_or_reversed(&mut w, &lt), "n={n}");
            assert_eq!(w, up);
            let down: Vec<(u32, u32)> = (0..n as u32).rev().map(|i| (i, i)).collect();
            let mut w = down.clone();
            assert!(sorted_or_reversed(&mut w, &lt), "n={n}");
            assert!(w.windows(2).all(|p| p[0].0 < p[1].0), "n={n}");
            for at in [1, n / 2, n - 1] {
                // Descending with one tie: reversing would swap the tied pair.
                let mut tied = down.clone();
                tied[at].0 = tied[at - 1].0;
                let mut w = tied.clone();
                // (Two equal elements are in order: nothing to test at n = 2.)
                assert_eq!(sorted_or_reversed(&mut w, &lt), n == 2, "n={n} at={at}");
                assert_eq!(w, tied);
                // In order but for one descent.
                let mut bent = up.clone();
                bent[at].0 = u32::MAX;
                bent.swap(at - 1, at);
                let mut w = bent.clone();
                // (At n = 2 that is a strict descent, reversed.)
                assert_eq!(sorted_or_reversed(&mut w, &lt), n == 2, "n={n} at={at}");
                if n > 2 {
                    assert_eq!(w, bent);
                }
            }
            // The stable sort keeps ties in order on non-strictly descending input.
            let mut w: Vec<(u32, u32)> =
                (0..n as u32).rev().map(|i| (i / 2, n as u32 - i)).collect();
            let mut want = w.clone();
            want.sort_by_key(|p| p.0);
            sort_by_key(&mut Threads::new(), &mut w, |p| p.0);
            assert_eq!(w, want, "n={n}");
        }
    }

    #[test]
    fn sorts_owned_values() {
        let n = if cfg!(miri) { 200 } else { 10_000 };
        let mut rng = Rng(9);
        let v: Vec<String> = rng.vec(n, 500).iter().map(|x| x.to_string()).collect();
        let mut want = v.clone();
        want.sort();
        let mut w = v.clone();
        sort(&mut Threads::new(), &mut w);
        assert_eq!(w, want);
        let mut w = v;
        sort_unstable(&mut Threads::new(), &mut w);
        assert_eq!(w, want);
    }

    /// `0..n` (keys divided by `dup`, so runs of equal keys), then `swaps` random swaps:
    /// PBBS's almostSortedSeq shape, with payloads recording input order.
    fn almost_sorted(rng: &mut Rng, n: usize, swaps: usize, dup: u64) -> Vec<(u64, usize)> {
        let mut v: Vec<(u64, usize)> = (0..n as u64).map(|i| (i / dup, 0)).collect();
        for _ in 0..swaps {
            let (a, b) = (rng.next() as usize % n, rng.next() as usize % n);
            v.swap(a, b);
        }
        for (i, x) in v.iter_mut().enumerate() {
            x.1 = i;
        }
        v
    }

    #[test]
    fn presorted_inputs_sort_stably() {
        let mut rng = Rng(17);
        let big = if cfg!(miri) { 300 } else { 50_000 };
        for n in [0, 1, 2, 33, 100, 1000, big] {
            let swaps = (n as f64).sqrt() as usize;
            for (swaps, dup) in [(0, 1), (1, 1), (swaps, 1), (swaps, 3), (n / 40, 7), (n, 1)] {
                let v = almost_sorted(&mut rng, n.max(1), swaps, dup);
                let v = &v[..n];
                let mut want = v.to_vec();
                want.sort_by_key(|x| x.0);
                for split in [false, true] {
                    let mut w = v.to_vec();
                    if split {
                        sort_by_key(&mut SplitSerial { morsel: 64 }, &mut w, |x| x.0);
                    } else {
                        sort_by_key(&mut Threads::new(), &mut w, |x| x.0);
                    }
                    assert_eq!(w, want, "stable, n={n} swaps={swaps} dup={dup}");
                    let mut w = v.to_vec();
                    sort_unstable_by_key(&mut Threads::new(), &mut w, |x| x.0);
                    assert!(w.iter().map(|x| x.0).eq(want.iter().map(|x| x.0)));
                }
                // Reversed: strictly (reversal path) and with ties (merge sort path).
                let mut r: Vec<(u64, usize)> = want.iter().rev().copied().collect();
                for (i, x) in r.iter_mut().enumerate() {
                    x.1 = i;
                }
                let mut rw = r.clone();
                rw.sort_by_key(|x| x.0);
                sort_by_key(&mut Threads::new(), &mut r, |x| x.0);
                assert_eq!(r, rw, "reversed, n={n} dup={dup}");
            }
        }
    }

    #[test]
    fn presorted_panicking_comparator_leaves_input() {
        let n = if cfg!(miri) { 300 } else { 20_000 };
        let mut rng = Rng(3);
        // Few enough swaps that no block exceeds its outlier budget: the pre-pass sorts.
        let keys: Vec<u64> = almost_sorted(&mut rng, n, 20, 1)
            .iter()
            .map(|x| x.0)
            .collect();
        // Panics in the scan, at the seams and in the outliers' sort and ranking, and none.
        // Early, in the middle, around the end of the presorted scan (about `n` calls), and
        // later (the points are those of `n` = 20,000 scaled to `n`, so that Miri's smaller
        // runs panic too).
        for panic_after in [0, 50, n / 4, n - 10, n + 10, n + 100, n + 400, 5 * n] {
            let live = Arc::new(AtomicIsize::new(0));
            let mut v: Vec<Counted> = keys.iter().map(|&k| Counted::new(k, &live)).collect();
            let calls = AtomicIsize::new(0);
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                sort_by(&mut Threads::new(), &mut v, |a: &Counted, b: &Counted| {
                    if calls.fetch_add(1, AO::Relaxed) as usize == panic_after {
                        planned_panic();
                    }
                    a.0.cmp(&b.0)
                })
            }));
            let mut got: Vec<u64> = v.iter().map(|c| c.0).collect();
            if r.is_ok() {
                assert!(got.windows(2).all(|w| w[0] <= w[1]));
            }
            got.sort();
            let mut want = keys.clone();
            want.sort();
            assert!(got == want, "panic_after={panic_after}");
            drop(v);
            assert_eq!(live.load(AO::Relaxed), 0);
        }
    }

    /// A panicking comparator or key frees the sorts' scratch buffer (it used to leak
    /// it: 8 MB per caught panic on 1M `u64`). The buffer is made on the calling thread,
    /// so that thread's count of live buffers must be back where it was.
    #[test]
    fn a_panicking_comparator_or_key_frees_the_scratch_buffer() {
        use super::super::radix::integer_sort_by_key;
        use super::super::split::scratch_count;
        let n = if cfg!(miri) { 100 } else { 5000 };
        let keys = Rng(17).vec(n, 1 << 20);
        // Before the buffer exists (the pre-passes), at a leaf, and in a merge or a
        // radix pass; only the last under Miri, which is slow.
        let points = if cfg!(miri) {
            vec![3 * n]
        } else {
            vec![0, 300, 3 * n]
        };
        for panic_after in points {
            for which in ["stable", "unstable", "radix"] {
                let before = scratch_count::live();
                let mut v = keys.clone();
                let calls = AtomicIsize::new(0);
                let hit = || {
                    if calls.fetch_add(1, AO::Relaxed) as usize == panic_after {
                        planned_panic();
                    }
                };
                let cmp = |a: &u64, b: &u64| {
                    hit();
                    a.cmp(b)
                };
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match which {
                    "stable" => sort_by(&mut SplitSerial { morsel: 64 }, &mut v, cmp),
                    "unstable" => sort_unstable_by(&mut Threads::new(), &mut v, cmp),
                    _ => integer_sort_by_key(&mut SplitSerial { morsel: 64 }, &mut v, 20, |x| {
                        hit();
                        *x
                    }),
                }));
                assert!(r.is_err(), "{which}, panic_after={panic_after}");
                assert_eq!(
                    scratch_count::live(),
                    before,
                    "{which}, panic_after={panic_after}: the scratch buffer leaked"
                );
            }
        }
    }

    /// A value that counts live instances, to catch double drops and leaks.
    struct Counted(u64, Arc<AtomicIsize>);
    impl Counted {
        fn new(x: u64, live: &Arc<AtomicIsize>) -> Self {
            live.fetch_add(1, AO::Relaxed);
            Counted(x, live.clone())
        }
    }
    impl Drop for Counted {
        fn drop(&mut self) {
            self.1.fetch_sub(1, AO::Relaxed);
        }
    }

    #[test]
    fn panicking_comparator_keeps_every_element() {
        let n = if cfg!(miri) { 150 } else { 20_000 };
        let mut rng = Rng(13);
        let keys = rng.vec(n, 1 << 20);
        // Early, in the middle and near the end of the sort (the points are those of
        // `n` = 20,000 scaled to `n`, so that Miri's smaller runs panic too).
        for (i, panic_after) in [
            0,
            10,
            15,
            100,
            n / 20,
            n / 20 + 1,
            3 * n / 2,
            3 * n / 2 + 1,
            10 * n,
            10 * n + 1,
        ]
        .into_iter()
        .enumerate()
        {
            for stable in [true, false] {
                let live = Arc::new(AtomicIsize::new(0));
                let mut v: Vec<Counted> = keys.iter().map(|&k| Counted::new(k, &live)).collect();
                let calls = AtomicIsize::new(0);
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let cmp = |a: &Counted, b: &Counted| {
                        if calls.fetch_add(1, AO::Relaxed) as usize == panic_after {
                            planned_panic();
                        }
                        a.0.cmp(&b.0)
                    };
                    // `SplitSerial` never runs `b` once `a` panicked; `Threads` always does.
                    match (stable, i % 2 == 0) {
                        (true, true) => sort_by(&mut Threads::new(), &mut v, cmp),
                        (true, false) => sort_by(&mut SplitSerial { morsel: 64 }, &mut v, cmp),
                        (false, true) => sort_unstable_by(&mut Threads::new(), &mut v, cmp),
                        (false, false) => {
                            sort_unstable_by(&mut SplitSerial { morsel: 64 }, &mut v, cmp)
                        }
                    }
                }));
                let mut got: Vec<u64> = v.iter().map(|c| c.0).collect();
                got.sort();
                let mut want = keys.clone();
                want.sort();
                if got != want {
                    let extra: Vec<_> = got.iter().filter(|x| !want.contains(x)).take(5).collect();
                    let missing: Vec<_> =
                        want.iter().filter(|x| !got.contains(x)).take(5).collect();
                    panic!(
                        "panic_after={panic_after} stable={stable} panicked={}: extra {extra:?} missing {missing:?}",
                        r.is_err()
                    );
                }
                assert_eq!(live.load(AO::Relaxed), n as isize);
                drop(v);
                assert_eq!(live.load(AO::Relaxed), 0);
            }
        }
    }

    /// A comparator that answers at random (a shared xorshift state): no total order.
    fn random_cmp(seed: u64) -> impl Fn(&Counted, &Counted) -> Ordering + Sync {
        let state = std::sync::atomic::AtomicU64::new(seed | 1);
        move |_, _| {
            let mut x = state.load(AO::Relaxed);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            state.store(x, AO::Relaxed);
            [Ordering::Less, Ordering::Equal, Ordering::Greater][(x % 3) as usize]
        }
    }

    #[test]
    fn inconsistent_comparators_permute_without_panicking() {
        let big = if cfg!(miri) { 200 } else { 20_000 };
        let mut rng = Rng(21);
        for n in [0, 1, 2, 20, 100, 1000, big] {
            let keys = rng.vec(n, 1 << 20);
            let mut nearly: Vec<u64> = (0..n as u64).collect();
            if n > 10 {
                nearly.swap(3, n - 4); // through the presortedness pre-pass
            }
            for (which, input) in [("random", &keys), ("nearly sorted", &nearly)] {
                for stable in [true, false] {
                    for (name, cmp) in [
                        (
                            "random",
                            &random_cmp(n as u64)
                                as &(dyn Fn(&Counted, &Counted) -> Ordering + Sync),
                        ),
                        ("always less", &|_: &Counted, _: &Counted| Ordering::Less),
                        // Consistent but for one key, which claims to precede everything.
                        ("one liar", &|a: &Counted, b: &Counted| {
                            if a.0 == 5 || b.0 == 5 {
                                Ordering::Less
                            } else {
                                a.0.cmp(&b.0)
                            }
                        }),
                    ] {
                        let live = Arc::new(AtomicIsize::new(0));
                        let mut v: Vec<Counted> =
                            input.iter().map(|&k| Counted::new(k, &live)).collect();
                        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            match (stable, n % 2 == 0) {
                                (true, true) => sort_by(&mut Threads::new(), &mut v, cmp),
                                (true, false) => {
                                    sort_by(&mut SplitSerial { morsel: 64 }, &mut v, cmp)
                                }
                                (false, true) => sort_unstable_by(&mut Threads::new(), &mut v, cmp),
                                (false, false) => {
                                    sort_unstable_by(&mut SplitSerial { morsel: 64 }, &mut v, cmp)
                                }
                            }
                        }));
                        assert!(
                            r.is_ok(),
                            "n={n} {which} input, {name} comparator, stable={stable}"
                        );
                        let mut got: Vec<u64> = v.iter().map(|c| c.0).collect();
                        got.sort();
                        let mut want = input.clone();
                        want.sort();
                        assert!(got == want, "n={n} {which}, {name}: not a permutation");
                        drop(v);
                        assert_eq!(live.load(AO::Relaxed), 0);
                    }
                }
            }
        }
    }

    #[test]
    fn an_inconsistent_comparator_that_panics_still_panics() {
        let n = if cfg!(miri) { 200 } else { 5000 };
        let keys = Rng(4).vec(n, 1000);
        for panic_at in [0usize, 10, 100, 300] {
            let live = Arc::new(AtomicIsize::new(0));
            let mut v: Vec<Counted> = keys.iter().map(|&k| Counted::new(k, &live)).collect();
            let calls = AtomicIsize::new(0);
            let random = random_cmp(7);
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                sort_by(&mut Threads::new(), &mut v, |a: &Counted, b: &Counted| {
                    if calls.fetch_add(1, AO::Relaxed) as usize == panic_at {
                        planned_panic();
                    }
                    random(a, b)
                })
            }));
            assert!(r.is_err(), "panic_at={panic_at}");
            let mut got: Vec<u64> = v.iter().map(|c| c.0).collect();
            got.sort();
            let mut want = keys.clone();
            want.sort();
            assert!(got == want);
            drop(v);
            assert_eq!(live.load(AO::Relaxed), 0);
        }
    }

    /// Keys of a named distribution: the bench's five (`uniform`, `few` distinct, `sorted`,
    /// `reversed`, `almost` sorted: 2% of the keys swapped) and shapes that reach the
    /// quicksort's other paths: `almost-dups` (nearly sorted runs of equal keys: the
    /// equal-key partition below the parallel levels), `reversed-ties` (descending with
    /// ties: not taken by the pre-check, reversed by the pivot choice) and `organ` (up then
    /// down: unbalanced partitions).
    fn dist(rng: &mut Rng, which: &str, n: usize) -> Vec<u64> {
        let few = (n as u64 / 100).max(2);
        let mut v = match which {
            "few" => rng.vec(n, few),
            "almost-dups" | "reversed-ties" => (0..n as u64).map(|i| i / 7).collect(),
            "organ" => (0..n as u64).map(|i| i.min(n as u64 - i)).collect(),
            _ => rng.vec(n, u64::MAX),
        };
        match which {
            "sorted" => v.sort(),
            "reversed" | "reversed-ties" => v.sort_by(|a, b| b.cmp(a)),
            "almost" | "almost-dups" => {
                v.sort();
                for _ in 0..n / 50 + 1 {
                    if n > 0 {
                        let (a, b) = (rng.next() as usize % n, rng.next() as usize % n);
                        v.swap(a, b);
                    }
                }
            }
            _ => {}
        }
        v
    }

    const DISTS: [&str; 8] = [
        "uniform",
        "few",
        "sorted",
        "reversed",
        "almost",
        "almost-dups",
        "reversed-ties",
        "organ",
    ];

    /// `sort_unstable_by` on 1 thread (`Serial`), on the parallel path run serially
    /// (`SplitSerial`) and on threads, every distribution, every size up to 40 and larger
    /// ones: sorted, and the same multiset (pairs carry their input index).
    #[test]
    fn unstable_sort_sorts_every_distribution() {
        let mut ns: Vec<usize> = if cfg!(miri) {
            vec![0, 1, 2, 3, 8, 20, 21, 40]
        } else {
            (0..=40).collect()
        };
        ns.extend(if cfg!(miri) {
            vec![65, 300]
        } else {
            vec![65, 200, 1000, 30_000]
        });
        let mut rng = Rng(31);
        for n in ns {
            for which in DISTS {
                let v: Vec<(u64, usize)> = dist(&mut rng, which, n).into_iter().zip(0..).collect();
                let mut want = v.clone();
                want.sort();
                for ctx in ["serial", "split", "threads"] {
                    let mut w = v.clone();
                    let cmp = |a: &(u64, usize), b: &(u64, usize)| a.0.cmp(&b.0);
                    match ctx {
                        "serial" => sort_unstable_by(&mut Serial, &mut w, cmp),
                        "split" => sort_unstable_by(&mut SplitSerial { morsel: 64 }, &mut w, cmp),
                        _ => sort_unstable_by(&mut Threads::new(), &mut w, cmp),
                    }
                    assert!(
                        w.windows(2).all(|p| p[0].0 <= p[1].0),
                        "not sorted: n={n} {which} {ctx}"
                    );
                    w.sort();
                    assert!(w == want, "not a permutation: n={n} {which} {ctx}");
                }
            }
        }
    }

    /// Comparators that are no total order, on the distributions that reach the
    /// quicksort's partitions, insertion sorts and equal-key splits: no panic, and the
    /// elements come back, each once (`Counted` catches double drops and leaks).
    #[test]
    fn unstable_sort_permutes_under_inconsistent_comparators() {
        let n = if cfg!(miri) { 150 } else { 5000 };
        let mut rng = Rng(37);
        for which in ["uniform", "few", "almost", "almost-dups", "reversed-ties"] {
            let keys = dist(&mut rng, which, n);
            for (name, cmp) in [
                (
                    "random",
                    &random_cmp(n as u64) as &(dyn Fn(&Counted, &Counted) -> Ordering + Sync),
                ),
                ("always less", &|_: &Counted, _: &Counted| Ordering::Less),
                ("always greater", &|_: &Counted, _: &Counted| {
                    Ordering::Greater
                }),
                ("reversed on odd keys", &|a: &Counted, b: &Counted| {
                    if (a.0 ^ b.0) & 1 == 1 {
                        b.0.cmp(&a.0)
                    } else {
                        a.0.cmp(&b.0)
                    }
                }),
            ] {
                for ctx in ["serial", "split", "threads"] {
                    let live = Arc::new(AtomicIsize::new(0));
                    let mut v: Vec<Counted> =
                        keys.iter().map(|&k| Counted::new(k, &live)).collect();
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match ctx {
                        "serial" => sort_unstable_by(&mut Serial, &mut v, cmp),
                        "split" => sort_unstable_by(&mut SplitSerial { morsel: 64 }, &mut v, cmp),
                        _ => sort_unstable_by(&mut Threads::new(), &mut v, cmp),
                    }));
                    assert!(r.is_ok(), "{which}, {name}, {ctx}: panicked");
                    let mut got: Vec<u64> = v.iter().map(|c| c.0).collect();
                    got.sort();
                    let mut want = keys.clone();
                    want.sort();
                    assert!(got == want, "{which}, {name}, {ctx}: not a permutation");
                    assert_eq!(live.load(AO::Relaxed), n as isize);
                    drop(v);
                    assert_eq!(live.load(AO::Relaxed), 0);
                }
            }
        }
    }

    /// A comparator that panics after `k` calls, for `k` spread over the whole sort, on
    /// each distribution and context: the panic propagates, and every element is in the
    /// slice exactly once.
    #[test]
    fn unstable_sort_panics_leave_a_permutation() {
        let n = if cfg!(miri) { 120 } else { 3000 };
        let mut rng = Rng(41);
        for which in DISTS {
            let keys = dist(&mut rng, which, n);
            // How many comparisons the sort makes, to spread the panics over all of them.
            let calls = AtomicIsize::new(0);
            let mut v = keys.clone();
            sort_unstable_by(&mut Serial, &mut v, |a, b| {
                calls.fetch_add(1, AO::Relaxed);
                a.cmp(b)
            });
            let total = calls.load(AO::Relaxed) as usize;
            let steps = if cfg!(miri) { 6 } else { 40 };
            for s in 0..steps {
                let panic_after = total * s / steps + s % 3;
                for ctx in ["serial", "split", "threads"] {
                    let live = Arc::new(AtomicIsize::new(0));
                    let mut v: Vec<Counted> =
                        keys.iter().map(|&k| Counted::new(k, &live)).collect();
                    let calls = AtomicIsize::new(0);
                    let cmp = |a: &Counted, b: &Counted| {
                        if calls.fetch_add(1, AO::Relaxed) as usize == panic_after {
                            planned_panic();
                        }
                        a.0.cmp(&b.0)
                    };
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match ctx {
                        "serial" => sort_unstable_by(&mut Serial, &mut v, cmp),
                        "split" => sort_unstable_by(&mut SplitSerial { morsel: 64 }, &mut v, cmp),
                        _ => sort_unstable_by(&mut Threads::new(), &mut v, cmp),
                    }));
                    if ctx == "serial" {
                        // The same comparisons as the counting run: it must have panicked.
                        assert!(r.is_err(), "{which} panic_after={panic_after}");
                    }
                    let mut got: Vec<u64> = v.iter().map(|c| c.0).collect();
                    got.sort();
                    let mut want = keys.clone();
                    want.sort();
                    assert!(
                        got == want,
                        "{which} {ctx} panic_after={panic_after}: not a permutation"
                    );
                    assert_eq!(live.load(AO::Relaxed), n as isize);
                    drop(v);
                    assert_eq!(live.load(AO::Relaxed), 0);
                }
            }
        }
    }
}

//! The unstable sort: a parallel pattern-defeating quicksort (pdqsort), in place.
//!
//! Each [`step`] on a range longer than [`INSERTION`] elements:
//! - picks a pivot: the median of three samples, or from [`NINTHER`] elements up the
//!   median of three medians of three (a ninther), counting the swaps that ordering the
//!   samples took. None hints that the range is sorted; the most there can be (all samples
//!   descending) makes it reverse the range first. A range is random-looking if
//!   [`looks_random`] says so (from [`PROBED`] elements up: many descents among a few
//!   neighbour pairs) or, when shorter, if the samples took more than [`RANDOMISH`] swaps;
//! - if the parent's partition was balanced and moved nothing and the samples were in
//!   order, tries a partial insertion sort ([`partial_insertion_sort`]), which finishes a
//!   range with at most five descents and gives up cheaply on others: nearly sorted ranges
//!   end there;
//! - below the parallel levels, hands a random-looking range to std's `sort_unstable_by`
//!   (through the caller's `leaf`, which keeps std's panic on an inconsistent comparator
//!   from escaping): on random keys std's sort (sorting networks at its leaves) is about
//!   twice as fast as a pdqsort (1M u64, 1 thread: 10.5 ms against 17-20), and on one
//!   thread a random-looking slice goes there whole;
//! - if the range's predecessor (the pivot of an enclosing partition, which no element of
//!   the range precedes) is not less than the pivot, the two are equal: the range is split
//!   into the elements equal to the pivot, which are done, and the greater ones, so each
//!   distinct key costs about one pass;
//! - partitions around the pivot: a scan from each end finds the first misplaced element
//!   (an already partitioned range is found without a move), then between them [`blocks`]
//!   (BlockQuicksort: branch-free scans of blocks, swaps of misplaced pairs only) or, for a
//!   random-looking range, [`lomuto`] (branch-free, moves every element, faster there).
//!   Lomuto is not used on nearly sorted ranges: it rotates the greater side, destroying
//!   the order the next levels could use (1M u64, 2% swapped, 1 thread: 12.8 ms with it
//!   everywhere, 8.5 with blocks; rayon 7.8);
//! - after a partition leaving less than an eighth on one side, the next step swaps a few
//!   elements pseudo-randomly first, and after `log2(n)` such partitions a range is
//!   heapsorted instead: `O(n log n)` whatever the input.
//!
//! On more than one thread, the two sides of a partition of more than [`SEQ`] elements
//! run on `join`; below that, one thread sorts the range with the same [`step`] (the
//! smaller side recursively, the larger in a loop, so the stack stays `O(log n)` deep).
//!
//! Panic safety and inconsistent comparators: elements only move by swaps, by Lomuto's
//! read-copy-write triples (no comparison between the read and the write), and by the
//! insertion sort's shifts, whose element in flight a guard ([`Hole`]) puts back while
//! unwinding. So whatever the comparator answers or wherever it panics, the slice holds a
//! permutation of its elements; every index is bounds-checked or derived from counts
//! bounded by the range, never from the comparator's promise of an order.

use std::mem::{self, ManuallyDrop};
use std::ptr;

use super::descents;
use crate::ForkJoin;

/// Ranges up to this long are insertion sorted.
const INSERTION: usize = 20;
/// Ranges at least this long take a ninther as the pivot.
const NINTHER: usize = 50;
/// Ranges up to this long are sorted on one thread, without a join.
const SEQ: usize = if cfg!(any(test, miri)) { 64 } else { 1 << 12 };
/// Ranges up to `n / (LEAVES_PER_THREAD * threads)` long too.
const LEAVES_PER_THREAD: usize = if cfg!(any(test, miri)) { 1 << 20 } else { 16 };
/// Below [`PROBED`] elements, more swaps than this while ordering the pivot samples mark a
/// range as random-looking (a ninther's 12 comparisons swap 6 times on average on random
/// keys, and 0 to 3 times on sorted keys with an outlier among the samples).
const RANDOMISH: usize = 3;
/// From this length on, a range is judged random-looking by [`looks_random`] rather than
/// by the pivot samples.
const PROBED: usize = 256;
/// Neighbour pairs [`looks_random`] compares.
const PROBES: usize = 32;

/// Elements per block of [`blocks`] (at most 256: offsets are bytes). 128 measured
/// slightly faster than 64 (1M u64, 2% swapped: 8.5 against 8.6 ms).
const BLOCK: usize = 128;

/// The sort's leaf: std's sort of a random-looking range.
type Leaf<'a, T> = &'a (dyn Fn(&mut [T]) + Sync);

/// What a range inherits from the partition that made it.
#[derive(Clone, Copy)]
struct State {
    /// Unbalanced partitions still allowed before heapsort.
    limit: u32,
    /// Whether the last partition was balanced.
    balanced: bool,
    /// Whether the last partition found its range already partitioned.
    partitioned: bool,
}

impl State {
    /// A fresh state with the same budget of bad partitions.
    fn fresh(self) -> State {
        State {
            limit: self.limit,
            balanced: true,
            partitioned: true,
        }
    }
}

/// Sorts `v` by `is_less`, in parallel when `ctx` has more than one thread.
pub(crate) fn sort<C, T, L>(ctx: &mut C, v: &mut [T], is_less: &L, leaf: Leaf<'_, T>)
where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
{
    if mem::size_of::<T>() == 0 {
        return;
    }
    let st = State {
        limit: usize::BITS - v.len().leading_zeros(),
        balanced: true,
        partitioned: true,
    };
    let p = ctx.num_threads();
    let grain = (v.len() / (LEAVES_PER_THREAD * p)).max(SEQ);
    if p > 1 && v.len() > grain {
        par_rec(ctx, v, None, st, grain, is_less, leaf)
    } else {
        seq_rec(v, None, st, is_less, leaf)
    }
}

/// What [`step`] left to do.
enum Step {
    /// The range is sorted.
    Sorted,
    /// `v[mid]` is in place; `v[mid + 1..]` (after predecessor `v[mid]`) and, unless
    /// `left_done`, `v[..mid]` (after the range's own predecessor) remain to sort.
    Split { mid: usize, left_done: bool },
}

/// One pdqsort step on `v`. `pred`, if any, is the element just before `v` (the pivot of
/// an enclosing partition), which no element of `v` is less than.
fn step<T, L>(
    v: &mut [T],
    pred: Option<&T>,
    st: &mut State,
    is_less: &L,
    leaf: Option<Leaf<'_, T>>,
) -> Step
where
    L: Fn(&T, &T) -> bool,
{
    let len = v.len();
    if len <= INSERTION {
        insertion_sort(v, is_less);
        return Step::Sorted;
    }
    if st.limit == 0 {
        heapsort(v, is_less);
        return Step::Sorted;
    }
    if !st.balanced {
        break_patterns(v);
        st.limit -= 1;
    }
    let (p, swaps) = choose_pivot(v, is_less);
    let likely_sorted = swaps == 0;
    let randomish = if len >= PROBED {
        looks_random(v, is_less)
    } else {
        swaps > RANDOMISH
    };
    if st.balanced && st.partitioned && likely_sorted && partial_insertion_sort(v, is_less) {
        return Step::Sorted;
    }
    if let Some(leaf) = leaf
        && randomish
    {
        leaf(v);
        return Step::Sorted;
    }
    if let Some(pred) = pred
        && !is_less(pred, &v[p])
    {
        // The pivot equals the predecessor, and nothing here is less than that: the
        // elements not greater than the pivot are all equal to it.
        let (mid, _) = partition(v, p, &|x: &T, pivot: &T| !is_less(pivot, x), randomish);
        return Step::Split {
            mid,
            left_done: true,
        };
    }
    let (mid, was_partitioned) = partition(v, p, &|x: &T, pivot: &T| is_less(x, pivot), randomish);
    st.balanced = mid.min(len - mid) >= len / 8;
    st.partitioned = was_partitioned;
    Step::Split {
        mid,
        left_done: false,
    }
}

/// Sorts `v` on this thread.
fn seq_rec<'a, T, L>(
    mut v: &'a mut [T],
    mut pred: Option<&'a T>,
    mut st: State,
    is_less: &L,
    leaf: Leaf<'_, T>,
) where
    L: Fn(&T, &T) -> bool,
{
    loop {
        let Step::Split { mid, left_done } = step(v, pred, &mut st, is_less, Some(leaf)) else {
            return;
        };
        let (left, rest) = v.split_at_mut(mid);
        let (p, right) = rest.split_first_mut().expect("mid < len");
        let p = &*p;
        if left_done {
            (v, pred) = (right, Some(p));
        } else if left.len() < right.len() {
            seq_rec(left, pred, st.fresh(), is_less, leaf);
            (v, pred) = (right, Some(p));
        } else {
            seq_rec(right, Some(p), st.fresh(), is_less, leaf);
            v = left;
        }
    }
}

/// Sorts `v`, the two sides of each partition of more than [`SEQ`] elements on `join`.
/// The predecessor is borrowed mutably (no one else touches it) so that it may cross to
/// another thread with `T: Send` alone.
fn par_rec<'a, C, T, L>(
    ctx: &mut C,
    mut v: &'a mut [T],
    mut pred: Option<&'a mut T>,
    mut st: State,
    grain: usize,
    is_less: &L,
    leaf: Leaf<'_, T>,
) where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
{
    loop {
        if v.len() <= grain {
            return seq_rec(v, pred.map(|p| &*p), st, is_less, leaf);
        }
        let Step::Split { mid, left_done } = step(v, pred.as_deref(), &mut st, is_less, None)
        else {
            return;
        };
        let (left, rest) = v.split_at_mut(mid);
        let (p, right) = rest.split_first_mut().expect("mid < len");
        if left_done {
            (v, pred) = (right, Some(p));
            continue;
        }
        // As in the sequential loop, the larger side keeps the state and the smaller
        // starts afresh (with the same budget of bad partitions).
        let (sl, sr) = if left.len() < right.len() {
            (st.fresh(), st)
        } else {
            (st, st.fresh())
        };
        ctx.join(
            move |c| par_rec(c, left, pred, sl, grain, is_less, leaf),
            move |c| par_rec(c, right, Some(p), sr, grain, is_less, leaf),
        );
        return;
    }
}

/// Returns the index of a pivot for `v` (`len > INSERTION`) and how many swaps ordering
/// the samples took (0: they were in order). If they were all in descending order (the
/// most swaps there can be), reverses `v` first and says 0.
fn choose_pivot<T, L>(v: &mut [T], is_less: &L) -> (usize, usize)
where
    L: Fn(&T, &T) -> bool,
{
    let len = v.len();
    let q = len / 4;
    let mut swaps = 0;
    // Orders two indices by their elements.
    let mut sort2 = |a: &mut usize, b: &mut usize| {
        if is_less(&v[*b], &v[*a]) {
            mem::swap(a, b);
            swaps += 1;
        }
    };
    let mut sort3 = |a: &mut usize, b: &mut usize, c: &mut usize| {
        sort2(a, b);
        sort2(b, c);
        sort2(a, b);
    };
    let (mut a, mut b, mut c) = (q, 2 * q, 3 * q);
    if len >= NINTHER {
        for m in [&mut a, &mut b, &mut c] {
            let (mut l, mut r) = (*m - 1, *m + 1);
            sort3(&mut l, m, &mut r);
        }
    }
    sort3(&mut a, &mut b, &mut c);
    // Each `sort3` swaps at most 3 times: 12 is the most four of them can.
    const MAX_SWAPS: usize = 12;
    if swaps < MAX_SWAPS {
        (b, swaps)
    } else {
        v.reverse();
        (len - 1 - b, 0)
    }
}

/// Whether more than a quarter of [`PROBES`] evenly spaced neighbour pairs of `v` are
/// descents (`len > PROBES`): about half are on random keys, few distinct or not, and few
/// on nearly sorted ones (4% with 2% of the keys swapped). Sharper than the pivot samples'
/// swaps, which an outlier among the nine samples confuses: the 1-thread rows of the bench
/// kept partitioning a random slice once (0.3 ms of 10) a fraction of the time.
fn looks_random<T, L>(v: &[T], is_less: &L) -> bool
where
    L: Fn(&T, &T) -> bool,
{
    descents(v, PROBES, is_less) * 4 > PROBES
}

/// Partitions `v` around `v[p]` by `left(x, pivot)`: returns `(mid, was_partitioned)`
/// with the pivot at `v[mid]`, the elements for which `left` holds before it and the
/// others after it; `was_partitioned` if no element had to move but the pivot.
fn partition<T, F>(v: &mut [T], p: usize, left: &F, randomish: bool) -> (usize, bool)
where
    F: Fn(&T, &T) -> bool,
{
    v.swap(0, p);
    let (pivot, rest) = v.split_first_mut().expect("v is not empty");
    let pivot = &*pivot;
    let n = rest.len();
    // The first element out of place from the left, the last from the right.
    let mut l = 0;
    while l < n && left(&rest[l], pivot) {
        l += 1;
    }
    let mut r = n;
    while l < r && !left(&rest[r - 1], pivot) {
        r -= 1;
    }
    let was_partitioned = l >= r;
    let mid = if was_partitioned {
        l
    } else if randomish {
        l + lomuto(&mut rest[l..r], &|x: &T| left(x, pivot))
    } else {
        l + blocks(&mut rest[l..r], &|x: &T| left(x, pivot))
    };
    v.swap(0, mid);
    (mid, was_partitioned)
}

/// As [`lomuto`], but moving only misplaced elements (BlockQuicksort): a block of up to
/// [`BLOCK`] elements at each end of the unscanned middle is scanned without branches,
/// recording the offsets of its misplaced elements; misplaced pairs are swapped, and a
/// block whose misplaced elements have all been swapped is done and the next one scanned.
/// When the middle is empty, the misplaced elements left in the one unfinished block are
/// swapped to its inner end.
fn blocks<T, P>(s: &mut [T], left: &P) -> usize
where
    P: Fn(&T) -> bool,
{
    // Unscanned: `s[l + bl..r - br]`; the current blocks: `s[l..l + bl]`, `s[r - br..r]`.
    let (mut l, mut r) = (0, s.len());
    let (mut bl, mut br) = (0, 0);
    let mut offs_l = [0u8; BLOCK];
    let mut offs_r = [0u8; BLOCK];
    // Pending offsets: `offs_l[il..nl]` (from `l`), `offs_r[ir..nr]` (back from `r - 1`).
    let (mut il, mut nl, mut ir, mut nr) = (0, 0, 0, 0);
    loop {
        let middle = r - br - (l + bl);
        if il == nl {
            l += bl;
            // Share the middle with the right block if it needs one too.
            let middle = if ir == nr { middle.div_ceil(2) } else { middle };
            bl = middle.min(BLOCK);
            il = 0;
            nl = scan::<T, false>(&s[l..l + bl], &mut offs_l, &|x: &T| !left(x));
        }
        if ir == nr {
            r -= br;
            br = (r - (l + bl)).min(BLOCK);
            ir = 0;
            nr = scan::<T, true>(&s[r - br..r], &mut offs_r, left);
        }
        if bl == 0 || br == 0 {
            break;
        }
        let m = (nl - il).min(nr - ir);
        for k in 0..m {
            s.swap(l + offs_l[il + k] as usize, r - 1 - offs_r[ir + k] as usize);
        }
        il += m;
        ir += m;
    }
    // The middle is empty and one block (or none) has misplaced elements left.
    if il < nl {
        // `s[l..r]` is the left block: its pending (right-going) elements go to its end.
        let end = l + bl;
        r = end;
        for k in (il..nl).rev() {
            r -= 1;
            s.swap(l + offs_l[k] as usize, r);
        }
        r
    } else if ir < nr {
        // `s[l..r]` is the right block: its pending (left-going) elements go to its start.
        l = r - br;
        for k in (ir..nr).rev() {
            s.swap(r - 1 - offs_r[k] as usize, l);
            l += 1;
        }
        l
    } else {
        l + bl
    }
}

/// Writes to `offs[..k]` the offsets, in scan order, of the elements of `b` (at most
/// [`BLOCK`]) for which `take` holds and returns `k`, without a branch on `take`: from the
/// front, or if `REV` from the back (offset `i` is then `b[b.len() - 1 - i]`). Unrolled by
/// hand four times, each element addressed from a fixed end of the block, not through a
/// moving pointer: written as iterator loops in [`blocks`], LLVM unrolled the front scan
/// twice (5.5 instructions an element) and the back scan not at all (7); now 4.75 and 6,
/// rayon's 5 and 5.5. The whole sort of 1M u64 with 2% swapped, 1 thread: 131.8 M
/// instructions, now 118.0 M (126.3 M with a moving pointer); rayon's 116.2 M.
#[inline(always)]
fn scan<T, const REV: bool>(b: &[T], offs: &mut [u8; BLOCK], take: &impl Fn(&T) -> bool) -> usize {
    let len = b.len();
    assert!(len <= BLOCK);
    // Offset `i` is the element at `base + i`, or from the back at `base - 1 - i`.
    let base = if REV {
        b.as_ptr_range().end
    } else {
        b.as_ptr()
    };
    let mut k = 0;
    // SAFETY: `i < len` at each call, so the element read is in `b`; `k <= i < BLOCK` at
    // each store into `offs`.
    let mut one = |i: usize| unsafe {
        let x = if REV { base.sub(i + 1) } else { base.add(i) };
        *offs.get_unchecked_mut(k) = i as u8;
        k += take(&*x) as usize;
    };
    for q in 0..len / 4 {
        let i = 4 * q;
        one(i);
        one(i + 1);
        one(i + 2);
        one(i + 3);
    }
    for i in len / 4 * 4..len {
        one(i);
    }
    k
}

/// Moves the elements of `s` for which `left` holds to its front, keeping the others
/// after them; returns how many there are. Branch-free: every element is swapped with the
/// first of the others whatever the test says, and only the count depends on it.
fn lomuto<T, P>(s: &mut [T], left: &P) -> usize
where
    P: Fn(&T) -> bool,
{
    let base = s.as_mut_ptr();
    let mut lt = 0;
    for i in 0..s.len() {
        // SAFETY: `lt <= i < s.len()`, so both pointers are in `s`, to which we have the
        // only access through `base`. The comparison comes first, so a panic in it leaves
        // `s` untouched by this iteration; the read, copy and write cannot panic, and they
        // exchange the two elements (or rewrite one when `lt == i`: `ptr::copy` allows the
        // overlap): `s` stays a permutation.
        unsafe {
            let cur = base.add(i);
            let goes_left = left(&*cur);
            let first = base.add(lt);
            let tmp = ptr::read(cur);
            ptr::copy(first, cur, 1);
            ptr::write(first, tmp);
            lt += goes_left as usize;
        }
    }
    lt
}

/// An element taken out of the slice, written back to `dst` when dropped (normally or
/// while unwinding from a panicking comparison).
struct Hole<T> {
    tmp: ManuallyDrop<T>,
    dst: *mut T,
}

impl<T> Drop for Hole<T> {
    fn drop(&mut self) {
        // SAFETY: whoever moves `dst` keeps it on the one slot of the slice whose element
        // was moved out (or copied elsewhere), so writing `tmp` there restores a
        // permutation; `tmp` is a bitwise copy that nothing else will drop.
        unsafe { ptr::copy_nonoverlapping(&*self.tmp, self.dst, 1) }
    }
}

/// `v[..len - 1]` being sorted, inserts `v[len - 1]` into it.
fn insert_tail<T, L>(v: &mut [T], is_less: &L)
where
    L: Fn(&T, &T) -> bool,
{
    let n = v.len();
    if n < 2 || !is_less(&v[n - 1], &v[n - 2]) {
        return;
    }
    let base = v.as_mut_ptr();
    // SAFETY: all offsets are below `n`. The last element is read out into the hole's
    // `tmp`, leaving its slot to be filled: each shift copies an element one slot to the
    // right into the current empty slot and moves `dst` onto the slot it vacated; the
    // hole's drop fills the last empty slot with `tmp`, on return or if `is_less` panics.
    unsafe {
        let mut hole = Hole {
            tmp: ManuallyDrop::new(ptr::read(base.add(n - 1))),
            dst: base.add(n - 1),
        };
        let mut j = n - 1;
        loop {
            ptr::copy_nonoverlapping(base.add(j - 1), base.add(j), 1);
            hole.dst = base.add(j - 1);
            j -= 1;
            if j == 0 || !is_less(&hole.tmp, &*base.add(j - 1)) {
                break;
            }
        }
    }
}

/// Sorts `v` by inserting each element into the sorted prefix before it.
fn insertion_sort<T, L>(v: &mut [T], is_less: &L)
where
    L: Fn(&T, &T) -> bool,
{
    for i in 2..=v.len() {
        insert_tail(&mut v[..i], is_less);
    }
}

/// Sorts `v` and returns true if it has at most a few descents (neighbours out of
/// order); else returns false, with `v` untouched, after reading it up to its first
/// descent too many. Nearly sorted ranges are so sorted in two passes, and random ones
/// give up within a few dozen comparisons.
fn partial_insertion_sort<T, L>(v: &mut [T], is_less: &L) -> bool
where
    L: Fn(&T, &T) -> bool,
{
    /// Descents tolerated.
    const MAX_DESCENTS: usize = 5;
    let len = v.len();
    let mut first = len;
    let mut descents = 0;
    for i in 1..len {
        if is_less(&v[i], &v[i - 1]) {
            if descents == 0 {
                first = i;
            }
            descents += 1;
            if descents > MAX_DESCENTS {
                return false;
            }
        }
    }
    for i in first..len {
        insert_tail(&mut v[..=i], is_less);
    }
    true
}

/// Sorts `v` with a binary max-heap: `O(n log n)` whatever the input.
fn heapsort<T, L>(v: &mut [T], is_less: &L)
where
    L: Fn(&T, &T) -> bool,
{
    let sift_down = |v: &mut [T], mut node: usize| loop {
        let mut child = 2 * node + 1;
        if child >= v.len() {
            return;
        }
        if child + 1 < v.len() && is_less(&v[child], &v[child + 1]) {
            child += 1;
        }
        if !is_less(&v[node], &v[child]) {
            return;
        }
        v.swap(node, child);
        node = child;
    };
    for i in (0..v.len() / 2).rev() {
        sift_down(v, i);
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        sift_down(&mut v[..end], 0);
    }
}

/// Swaps three elements around the middle with pseudo-random others, to break a pattern
/// that made the last partition unbalanced.
fn break_patterns<T>(v: &mut [T]) {
    let len = v.len();
    let mut x = len as u64 | 1;
    for i in [len / 4, len / 2, 3 * len / 4] {
        // xorshift64
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.swap(i, (x % len as u64) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::testkit::planned_panic;

    fn lt(a: &u64, b: &u64) -> bool {
        a < b
    }

    #[test]
    fn pieces_sort() {
        let mut x = 7u64;
        let mut rnd = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for n in 0..60 {
            let v: Vec<u64> = (0..n).map(|_| rnd(10)).collect();
            let mut want = v.clone();
            want.sort();
            let mut w = v.clone();
            insertion_sort(&mut w, &lt);
            assert_eq!(w, want, "insertion n={n}");
            let mut w = v.clone();
            heapsort(&mut w, &lt);
            assert_eq!(w, want, "heapsort n={n}");
            if n > 0 {
                let mut w = v.clone();
                let p = rnd(n as u64) as usize;
                let (mid, _) = partition(&mut w, p, &|a: &u64, b: &u64| a < b, false);
                assert_eq!(w[mid], v[p]);
                assert!(w[..mid].iter().all(|x| *x < v[p]), "n={n}");
                assert!(w[mid..].iter().all(|x| *x >= v[p]), "n={n}");
            }
        }
    }

    /// Counts live values: a lost element leaves the count high, a duplicated one is
    /// dropped twice.
    struct Live(u64, std::rc::Rc<std::cell::Cell<isize>>);
    impl Drop for Live {
        fn drop(&mut self) {
            self.1.set(self.1.get() - 1);
        }
    }

    /// Each piece that moves elements, with a comparator that panics at its `k`-th call,
    /// for every `k` up to the number of calls it makes: the slice stays a permutation
    /// (the insertion sorts' `Hole` puts the element in flight back, Lomuto never holds one
    /// across a comparison) and no value is dropped twice or leaked.
    #[test]
    fn every_piece_survives_a_panic_at_every_comparison() {
        type Piece = fn(&mut [Live], &dyn Fn(&Live, &Live) -> bool);
        let pieces: [(&str, Piece); 7] = [
            ("insertion", |v, lt| insertion_sort(v, &lt)),
            ("partial insertion", |v, lt| {
                partial_insertion_sort(v, &lt);
            }),
            ("heapsort", |v, lt| heapsort(v, &lt)),
            ("blocks", |v, lt| {
                partition(v, 0, &|a: &Live, b: &Live| lt(a, b), false);
            }),
            ("lomuto", |v, lt| {
                partition(v, 0, &|a: &Live, b: &Live| lt(a, b), true);
            }),
            ("pivot", |v, lt| {
                choose_pivot(v, &lt);
            }),
            ("whole", |v, lt| {
                let st = State {
                    limit: 3,
                    balanced: true,
                    partitioned: true,
                };
                seq_rec(v, None, st, &lt, &|s: &mut [Live]| s.sort_by_key(|l| l.0))
            }),
        ];
        let n = if cfg!(miri) { 24 } else { 120 };
        let mut x = 11u64;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // Random keys, and nearly sorted ones (a few far outliers: long shifts).
        let random: Vec<u64> = (0..n).map(|_| rnd() % 50).collect();
        let mut nearly: Vec<u64> = (0..n as u64).collect();
        nearly.swap(3, n - 5);
        nearly.swap(n / 2, n / 3);
        // Under Miri (CI runs this test there): the pieces that hold an element in flight,
        // on random keys, at a sixth of the panic points (about 30 s).
        let pieces = if cfg!(miri) {
            &pieces[..5]
        } else {
            &pieces[..]
        };
        for &(name, piece) in pieces {
            let key_sets = if cfg!(miri) {
                vec![&random]
            } else {
                vec![&random, &nearly]
            };
            for keys in key_sets {
                let live = std::rc::Rc::new(std::cell::Cell::new(0));
                let calls = std::cell::Cell::new(0usize);
                let make = || -> Vec<Live> {
                    live.set(live.get() + n as isize);
                    keys.iter().map(|&k| Live(k, live.clone())).collect()
                };
                // Count the calls, then panic at each of them in turn.
                let mut v = make();
                piece(&mut v, &|a, b| {
                    calls.set(calls.get() + 1);
                    a.0 < b.0
                });
                drop(v);
                let total = calls.get();
                let stride = if cfg!(miri) { total / 5 + 1 } else { 1 };
                for k in (0..total).step_by(stride) {
                    let mut v = make();
                    calls.set(0);
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        piece(&mut v, &|a, b| {
                            calls.set(calls.get() + 1);
                            if calls.get() > k {
                                planned_panic();
                            }
                            a.0 < b.0
                        })
                    }));
                    assert!(r.is_err(), "{name}: k={k} of {total}");
                    let mut got: Vec<u64> = v.iter().map(|l| l.0).collect();
                    got.sort();
                    let mut want = keys.clone();
                    want.sort();
                    assert!(got == want, "{name}: k={k} of {total}: not a permutation");
                    drop(v);
                    assert_eq!(live.get(), 0, "{name}: k={k}");
                }
            }
        }
    }

    /// The heapsort fallback (no bad partition left) and the pieces on their own sort.
    #[test]
    fn heapsort_fallback_and_blocks_sort() {
        let mut x = 5u64;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // Under Miri up to two blocks and a part (`BLOCK` is 128): more repeats the same paths.
        let sizes: &[usize] = if cfg!(miri) {
            &[0, 1, 2, 21, 100, 257]
        } else {
            &[0, 1, 2, 21, 100, 257, 1000]
        };
        for &n in sizes {
            for modulo in [3u64, 1 << 40] {
                let v: Vec<u64> = (0..n).map(|_| rnd() % modulo).collect();
                let mut want = v.clone();
                want.sort();
                let mut w = v.clone();
                let st = State {
                    limit: 0,
                    balanced: true,
                    partitioned: true,
                };
                seq_rec(&mut w, None, st, &lt, &|_: &mut [u64]| panic!("no leaf"));
                assert_eq!(w, want, "heapsort fallback n={n}");
                // `blocks` alone: the left-going elements first, counted right.
                for p in [0u64, modulo / 2, modulo] {
                    let mut w = v.clone();
                    let m = blocks(&mut w, &|x: &u64| *x < p);
                    assert_eq!(m, v.iter().filter(|x| **x < p).count(), "n={n} p={p}");
                    assert!(w[..m].iter().all(|x| *x < p) && w[m..].iter().all(|x| *x >= p));
                    w.sort();
                    assert_eq!(w, want);
                }
            }
        }
    }
}

//! The comparison sorts' presortedness pre-pass: nearly sorted input in about two copies.
//!
//! The rule (`sort` below decides, before any element moves):
//! - A probe compares 128 evenly spaced neighbour pairs. Mostly descents: if the whole
//!   slice is *strictly* descending it is reversed in place (stable, since no two elements
//!   are equal), otherwise the merge sort runs. More than 4 descents (random input has
//!   about 64): the merge sort runs, and the probe is all this pass cost. At most 4: a
//!   closer probe of 1024 pairs must find at most 16 descents (1/64: each descent costs the
//!   scan about two outliers, so more would exceed its budget below). The first probe
//!   alone let about two inputs in five with 4% descents through (1M u64 with 2% of the keys
//!   swapped, the bench's `sort-unstable-almost`), and the scan read ~40% of it before
//!   giving up: 12.4 M instructions, a tenth of the quicksort that followed.
//! - Otherwise each block (16 per thread) is scanned once, read-only, keeping the
//!   elements in a sorted stack: an element smaller than the stack's top is set aside with
//!   that top as an *outlier pair* (each such pair is an inversion, so it holds at least one
//!   element outside any longest sorted subsequence: at most `2 (n - LIS)` outliers; PBBS's
//!   almost-sorted input, `sqrt(n)` random swaps, has at most `4 sqrt(n)`). Block seams
//!   get the same treatment. A block that sets aside more than 1/32 of its elements stops
//!   every block: the input is not nearly sorted, and the merge sort runs on the untouched
//!   slice (the wasted read is bounded by the budget: random-looking blocks fail fast).
//! - The outliers (by index) are sorted with the merge sort, ranked in the kept sequence by
//!   galloping, and everything is copied to a buffer in final order and back: two copies
//!   and about one comparison per element. Sorted input costs one read and no copy.
//!
//! Measured (10^7 u64, PBBS almostSortedSeq, `primitives --input almost`, 2 cores): the
//! merge sort took 535/502 ms at 1/2 threads against rayon's `par_sort` 234/261 and
//! 191/258 against `par_sort_unstable` 63/78 (one run, loaded machine, best of 5); with
//! this pass 42/36 (`sort`) and 40/40 (`sort_unstable`) against rayon's 194/203 and 53/55.
//!
//! Equal elements keep their input order: outliers are ordered by (element, index) and
//! placed among equal kept elements by index. Nothing moves until the last step, which
//! only copies, so a panicking comparator leaves the slice untouched.

use std::ops::Range;
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use super::super::split::{block_target, map_blocks, run, Align, Blocks, Grain};
use super::{descents, leaf_sort, merge_sort_plain, reverse_if_strictly_descending, Ptr, SEQ_SORT};
use crate::ForkJoin;

/// Neighbour pairs the probe compares.
const PROBE: usize = 128;
/// The probe lets at most `samples / PROBE_DIV` descents through (4 of 128).
const PROBE_DIV: usize = 32;
/// Neighbour pairs the second, closer probe compares (the first's among them).
const CLOSE_PROBE: usize = 1024;
/// The closer probe lets at most `samples / CLOSE_DIV` descents through (16 of 1024): each
/// descent costs the scan about two elements set aside, so more than that many would
/// exceed its budget (`OUTLIER_DIV`) on average.
const CLOSE_DIV: usize = 2 * OUTLIER_DIV;
/// Elements the scan tests for order at once.
const CHUNK: usize = 32;
/// A block may set aside at most `len / OUTLIER_DIV` elements.
const OUTLIER_DIV: usize = 32;

/// One block's scan: kept elements are its compact positions `ks..ke`; compact position
/// `c` is input index `start + c + off(c)`, where `off` is the step function `bps`.
struct Scan {
    start: usize,
    ks: usize,
    ke: usize,
    /// `(first compact position, offset)`, starts strictly increasing, `bps[0].0 == 0`.
    bps: Vec<(usize, usize)>,
    /// Input indices of the elements set aside.
    outs: Vec<usize>,
}

impl Scan {
    /// The input index of the kept element at compact position `c`.
    fn index(&self, c: usize) -> usize {
        let k = self.bps.partition_point(|e| e.0 <= c) - 1;
        self.start + c + self.bps[k].1
    }
    fn kept(&self) -> usize {
        self.ke - self.ks
    }
}

/// Sorts `v` if it is nearly sorted (see the module docs) and returns true; returns false,
/// with `v` untouched, if it is not.
/// `reverse`: whether to handle strictly descending input (on one thread std's sorts,
/// the merge sort's leaves, reverse it faster: 5 ms for 10^7 where this pass took 9).
pub(super) fn sort<C, T, L>(ctx: &mut C, v: &mut [T], is_less: &L, reverse: bool) -> bool
where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
{
    let n = v.len();
    if n < 2 {
        return true;
    }
    let samples = PROBE.min(n - 1);
    let desc = descents(v, samples, is_less);
    if desc * PROBE_DIV <= samples {
        // Few descents, but 4% of them show as 4 of 128 or fewer two times in five,
        // where the scan would give up after reading ~40% of the slice: look closer.
        let samples = CLOSE_PROBE.min(n - 1);
        return descents(v, samples, is_less) * CLOSE_DIV <= samples
            && sort_nearly_sorted(ctx, v, is_less);
    }
    if reverse && (samples - desc) * PROBE_DIV <= samples {
        return reverse_if_strictly_descending(ctx, v, is_less);
    }
    false
}

/// Sorts indices by `before`, a strict total order, with the parallel merge sort.
///
/// Generic over the context alone, with a dynamic comparator: every element type and
/// comparator share this one copy of the merge sort. (Instantiated per sort call site, the
/// outliers' index sort was a second whole parallel merge sort for each, a third of a
/// user crate's LLVM IR.) The dynamic call per comparison is small beside what it compares:
/// two elements reached through their indices, at most `n / 32` outliers.
fn sort_indices<C: ForkJoin>(
    ctx: &mut C,
    idx: &mut [usize],
    before: &(dyn Fn(&usize, &usize) -> bool + Sync),
) {
    // An inconsistent `is_less` makes this order inconsistent too: `leaf_sort` keeps std's
    // panic for that from escaping.
    let leaf = |s: &mut [usize]| {
        let cmp = |a: &usize, b: &usize| {
            if before(a, b) {
                std::cmp::Ordering::Less
            } else if before(b, a) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        };
        leaf_sort(s, &cmp, false)
    };
    merge_sort_plain(ctx, idx, &|a: &usize, b: &usize| before(a, b), &leaf);
}

/// Scans the block `start..end` of the input at `base` (see the module docs); `None` if it
/// set aside more than `budget` elements or another block gave up.
///
/// # Safety
/// `base` is valid for reads of `start..end`, which nobody writes meanwhile.
unsafe fn scan_block<T, L>(
    base: Ptr<T>,
    start: usize,
    end: usize,
    budget: usize,
    is_less: &L,
    stop: &AtomicBool,
) -> Option<Scan>
where
    L: Fn(&T, &T) -> bool,
{
    // SAFETY: per the contract.
    let s = unsafe { std::slice::from_raw_parts(base.get().add(start), end - start) };
    let mut m = 0usize; // kept
    let mut o = 0usize; // set aside
    let mut bps = vec![(0usize, 0usize)];
    let mut outs = Vec::new();
    let mut fresh = false; // the next kept element starts a new offset step
    let mut top = 0usize; // block index of the stack's top, when `m > 0`
    let mut slow_until = 0usize; // a chunk from here on has a descent: go one by one
    let mut i = 0usize;
    while i < s.len() {
        // Sorted stretches a chunk at a time, with a branch-free test that the compiler can
        // vectorize: all-equal input took 7 ms for 10^7 one element at a time, std 3.
        if !fresh && i >= slow_until && i + CHUNK <= s.len() && (m == 0 || !is_less(&s[i], &s[top]))
        {
            let c = &s[i..i + CHUNK];
            if !c.windows(2).fold(false, |d, w| d | is_less(&w[1], &w[0])) {
                m += CHUNK;
                top = i + CHUNK - 1;
                i += CHUNK;
                continue;
            }
            slow_until = i + CHUNK;
        }
        let x = &s[i];
        if m > 0 && is_less(x, &s[top]) {
            outs.push(start + top);
            outs.push(start + i);
            o += 2;
            m -= 1;
            // Relaxed: a hint to stop early; the result is decided after the join.
            if o > budget || stop.load(AtomicOrdering::Relaxed) {
                stop.store(true, AtomicOrdering::Relaxed);
                return None;
            }
            while bps.len() > 1 && bps[bps.len() - 1].0 >= m {
                bps.pop();
            }
            if m > 0 {
                top = m - 1 + bps[bps.len() - 1].1;
            }
            fresh = true;
        } else {
            if fresh {
                let last = bps.len() - 1;
                if bps[last].0 == m {
                    bps[last].1 = o;
                } else {
                    bps.push((m, o));
                }
                fresh = false;
            }
            m += 1;
            top = i;
        }
        i += 1;
    }
    Some(Scan {
        start,
        ks: 0,
        ke: m,
        bps,
        outs,
    })
}

fn sort_nearly_sorted<C, T, L>(ctx: &mut C, v: &mut [T], is_less: &L) -> bool
where
    C: ForkJoin,
    T: Send,
    L: Fn(&T, &T) -> bool + Sync,
{
    let n = v.len();
    let p = ctx.num_threads();
    let blocks = Blocks::new(n, block_target(n, p, 2 * SEQ_SORT), Align::NONE);
    let base = Ptr(v.as_mut_ptr());
    let stop = AtomicBool::new(false);
    let scans = map_blocks(ctx, blocks.count(), &|b| {
        let r = blocks.range(b);
        let budget = r.len() / OUTLIER_DIV;
        // SAFETY: the blocks are disjoint ranges of `v`, only read until the final copy.
        unsafe { scan_block(base, r.start, r.end, budget, is_less, &stop) }
    });
    let Some(mut scans) = scans.into_iter().collect::<Option<Vec<Scan>>>() else {
        return false;
    };
    // Seams: while a block's first kept element is below the last kept element before it,
    // set both aside (an inversion pair again).
    let mut live: Vec<usize> = Vec::new(); // blocks with kept elements, in order
    for b in 0..scans.len() {
        while scans[b].kept() > 0 {
            let Some(&a) = live.last() else { break };
            let (ia, ib) = (scans[a].index(scans[a].ke - 1), scans[b].index(scans[b].ks));
            if !is_less(&v[ib], &v[ia]) {
                break;
            }
            scans[a].outs.push(ia);
            scans[a].ke -= 1;
            scans[b].outs.push(ib);
            scans[b].ks += 1;
            if scans[a].kept() == 0 {
                live.pop();
            }
        }
        if scans[b].kept() > 0 {
            live.push(b);
        }
    }
    let mut outs: Vec<usize> = scans.iter_mut().flat_map(|s| s.outs.drain(..)).collect();
    let k = outs.len();
    if k > n / OUTLIER_DIV + 2 * scans.len() {
        return false;
    }
    if k == 0 {
        return true; // already sorted
    }
    // Sort the outliers by (element, index): a strict total order, so the unstable leaf
    // sort is fine and ties keep input order.
    {
        let vp = Ptr(v.as_ptr() as *mut T);
        // SAFETY: the indices are in bounds, and the merge sort hands each index, so each
        // element, to one task at a time; nothing writes `v` meanwhile.
        let before = move |a: &usize, b: &usize| unsafe {
            let (x, y) = (&*vp.get().add(*a), &*vp.get().add(*b));
            is_less(x, y) || (!is_less(y, x) && a < b)
        };
        sort_indices(ctx, &mut outs, &before);
    }
    // Kept elements in order: block `b`'s are global ranks `g0[b]..g0[b + 1]`.
    let mut g0 = Vec::with_capacity(scans.len() + 1);
    let mut acc = 0;
    for s in &scans {
        g0.push(acc);
        acc += s.kept();
    }
    g0.push(acc);
    let kt = acc;
    let index_of = |g: usize| {
        let b = g0.partition_point(|&x| x <= g) - 1;
        let s = &scans[b];
        s.index(s.ks + (g - g0[b]))
    };
    // Does the kept element of rank `g` go before the outlier at index `o`?
    let precedes = |g: usize, o: usize| {
        let e = index_of(g);
        is_less(&v[e], &v[o]) || (!is_less(&v[o], &v[e]) && e < o)
    };
    // rank[j]: how many kept elements go before outlier j; nondecreasing, so gallop.
    let mut rank = Vec::with_capacity(k);
    let mut lo = 0usize;
    for &o in &outs {
        let mut step = 1;
        let mut hi = kt;
        while lo < kt {
            let probe = (lo + step - 1).min(kt - 1);
            if precedes(probe, o) {
                lo = probe + 1;
                step *= 2;
            } else {
                hi = probe;
                break;
            }
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if precedes(mid, o) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        rank.push(lo);
    }
    // No comparison from here on: only copies, which cannot panic.
    let mut buf: Vec<T> = Vec::with_capacity(n);
    super::super::split::advise_huge_pages(&mut buf);
    let out = Ptr(buf.as_mut_ptr());
    let (scans, rank, outs, g0) = (&scans, &rank, &outs, &g0);
    run(
        ctx,
        0..scans.len(),
        0,
        Grain::Fixed(1),
        Align::NONE,
        &|_, r: Range<usize>| {
            for b in r {
                let s = &scans[b];
                let (mut g, gend) = (g0[b], g0[b + 1]);
                let mut c = s.ks;
                let mut bi = s.bps.partition_point(|e| e.0 <= c) - 1;
                let mut j = rank.partition_point(|&x| x <= g);
                while g < gend {
                    while j < k && rank[j] <= g {
                        j += 1;
                    }
                    let mut end = gend;
                    if bi + 1 < s.bps.len() {
                        end = end.min(g + (s.bps[bi + 1].0 - c));
                    }
                    if j < k {
                        end = end.min(rank[j]);
                    }
                    let len = end - g;
                    // SAFETY: the kept compact positions `c..c + len` share one offset, so
                    // they are consecutive input elements; their final places
                    // `g + j..` are distinct from every other copy's (ranks plus the
                    // outliers before them), all below `n`.
                    unsafe {
                        ptr::copy_nonoverlapping(
                            base.get().add(s.start + c + s.bps[bi].1),
                            out.get().add(g + j),
                            len,
                        )
                    };
                    g = end;
                    c += len;
                    while bi + 1 < s.bps.len() && c >= s.bps[bi + 1].0 {
                        bi += 1;
                    }
                }
            }
        },
        &|(), ()| (),
    );
    run(
        ctx,
        0..k,
        0,
        Grain::Fixed(1 << 12),
        Align::NONE,
        &|_, r: Range<usize>| {
            for j in r {
                // SAFETY: outlier `j` goes after `rank[j]` kept elements and `j` outliers:
                // a place no kept element takes (see above), below `n`.
                unsafe {
                    ptr::copy_nonoverlapping(base.get().add(outs[j]), out.get().add(rank[j] + j), 1)
                }
            }
        },
        &|(), ()| (),
    );
    run(
        ctx,
        0..n,
        0,
        Grain::Fixed(1 << 16),
        Align::NONE,
        &|_, r: Range<usize>| {
            // SAFETY: `buf` now holds every element once, in order; the leaves copy
            // disjoint ranges back. `buf`'s length stays 0, so it drops no element.
            unsafe {
                ptr::copy_nonoverlapping(out.get().add(r.start), base.get().add(r.start), r.len())
            }
        },
        &|(), ()| (),
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Serial;
    use std::sync::atomic::AtomicUsize;

    /// Sorted keys `0..n` with random swaps that spare the first probe's pairs, so that
    /// the first probe sees no descent whatever the rate elsewhere.
    fn swapped_off_the_probe(n: usize, swaps: usize) -> Vec<u64> {
        let probed: std::collections::HashSet<usize> = (0..PROBE)
            .flat_map(|j| {
                let i = j * (n - 1) / PROBE;
                [i, i + 1]
            })
            .collect();
        let mut v: Vec<u64> = (0..n as u64).collect();
        let mut rng = crate::par::testkit::Rng(0x2545_F491_4F6C_DD1D);
        let mut done = 0;
        while done < swaps {
            let x = rng.next();
            let (a, b) = ((x % n as u64) as usize, ((x >> 32) % n as u64) as usize);
            if a != b && !probed.contains(&a) && !probed.contains(&b) {
                v.swap(a, b);
                done += 1;
            }
        }
        v
    }

    /// 2% of the keys swapped (4% of neighbour pairs descents, the bench's
    /// `sort-unstable-almost`): more outliers than the scan's budget, which the first probe
    /// missed (4 of 128 descents or fewer, as a third of such inputs show it) and the
    /// scan read ~40% of the slice to find out. The closer probe turns it down, after
    /// its comparisons alone; 0.25% swapped still passes and is sorted.
    #[test]
    fn the_closer_probe_turns_down_what_the_scan_would() {
        let n = 1 << 16;
        let calls = AtomicUsize::new(0);
        let lt = |a: &u64, b: &u64| {
            // Relaxed: a count read on this thread after the sort.
            calls.fetch_add(1, AtomicOrdering::Relaxed);
            a < b
        };
        let v = swapped_off_the_probe(n, n / 50);
        let mut w = v.clone();
        assert!(!sort(&mut Serial, &mut w, &lt, false));
        assert!(w == v, "turned down, so untouched");
        let calls = calls.load(AtomicOrdering::Relaxed);
        assert!(
            calls <= PROBE + CLOSE_PROBE,
            "{calls} comparisons: the scan ran"
        );
        let v = swapped_off_the_probe(n, n / 400);
        let mut w = v.clone();
        assert!(sort(&mut Serial, &mut w, &lt, false));
        let mut want = v;
        want.sort_unstable();
        assert!(w == want);
    }
}

//! `remove_duplicates` (hash table, output in table order) and
//! `remove_duplicates_in_order` (first occurrences in input order).
//!
//! Four plans, chosen from the element type, a sample of the input and the thread count:
//! - one concurrent open-addressing table of indices into the (read-only) input (linear
//!   probing, compare-and-swap on empty slots): any `Hash + Eq` type, only the survivors
//!   cloned; used for few distinct values, inputs too small to sample, and larger types
//!   whose sample shows repeats;
//! - for small types without drop glue, ParlayLib's plan (`by_hash_buckets`): the
//!   elements themselves are copied into cache-sized buckets by hash and each bucket is
//!   deduplicated in place with a table of its own; on one thread, with a moderate
//!   number of distinct values and no heavy value in the sample, one table over the whole
//!   input instead (`by_one_table`);
//! - for other types with millions of distinct values, the same grouping on
//!   `(hash, index)` words (`by_sorting`), which keeps first occurrences.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::basic::tabulate;
use super::filter::pack_with;
use super::radix::integer_sort_by_key;
use super::split::{
    advise_huge_pages, block_target, bucket_offsets, count_blocks, run, run_segments,
    scatter_blocks, starts_of, Align, Blocks, Grain, Ptr,
};
use crate::ForkJoin;

const SEQ_DEDUP: usize = if cfg!(any(test, miri)) { 64 } else { 1 << 12 };

/// A slot is `tag << IDX_BITS | (index + 1)`, 0 when empty. The tag (hash bits not used
/// for the position) lets a probe skip most slots of other values without reading the
/// input; 40 index bits allow 2^40 - 1 elements (8 TiB of `u64`s).
const IDX_BITS: u32 = 40;
const IDX_MASK: u64 = (1 << IDX_BITS) - 1;

/// The distinct elements of `v`, cloned, in an unspecified order (it may differ from run
/// to run) -- the fast choice when order does not matter, as in PBBS's removeDuplicates.
/// For first occurrences in input order use [`remove_duplicates_in_order`] (1.2-1.9x
/// slower on 10^7 `u64`s with PBBS's random and exponential keys); for sorted input,
/// [`dedup`](super::dedup).
///
/// rayon has no equivalent; a rayon user writes `v.par_iter().cloned().collect::<HashSet<_>>()`
/// or copies, `par_sort_unstable`s and `dedup`s.
///
/// A sample of 2^14 elements estimates the number of distinct values. Up to about 2^14 of
/// them, every element is inserted into one shared open-addressing table of indices,
/// which stays in cache; the occupied slots are then packed. With more, small elements
/// (no drop glue, at most 16 bytes: integers, small tuples) are copied into cache-sized
/// buckets by hash, and each bucket is deduplicated in place with a table of its own, as
/// ParlayLib's `remove_duplicates` does (PBBS's 10^7 files, 2 threads: level with
/// ParlayLib, 2.2x faster than the index-based plans); on one thread, up to about 2^17 of
/// them and no value frequent in the sample, one table over the whole input skips the
/// bucketing (PBBS's 10^5-key file: 0.64x the time). Larger elements use the shared
/// table, sized from the estimate, or, when the sample shows almost no repeats, are
/// grouped the same way through `(hash, index)` words; either way only survivors are
/// cloned. The hash is a fast fixed-seed one, not resistant to adversarial input: a
/// `Hash` that maps many distinct values alike makes probing quadratic in their number.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut d = par::remove_duplicates(&mut Serial, &["b", "a", "b", "c", "a"]);
/// d.sort();
/// assert_eq!(d, ["a", "b", "c"]);
/// ```
pub fn remove_duplicates<C, T>(ctx: &mut C, v: &[T]) -> Vec<T>
where
    C: ForkJoin,
    T: Hash + Eq + Clone + Send + Sync,
{
    if v.len() <= SEQ_DEDUP {
        return seq_in_order(v);
    }
    let sample = sample(v);
    let est = sample.distinct;
    let n = v.len();
    if moves_values::<T>()
        && n >= SAMPLE_MIN
        && n <= u32::MAX as usize
        && est.is_none_or(|d| d > SHARED_MAX)
    {
        // One thread, each value repeated 8 times on average, and no heavy value that
        // would make the estimate too low.
        if let Some(d) = est.filter(|&d| {
            ctx.num_threads() == 1
                && sample.heaviest <= FLAT_MAX
                && d <= ONE_TABLE_MAX
                && n / 8 >= d
        }) {
            return by_one_table(ctx, v, d);
        }
        return by_hash_buckets(ctx, v, est);
    }
    match est {
        None if n >= SAMPLE_MIN => by_sorting(ctx, v),
        est => Table::build(ctx, v, false, est).pack(ctx, v),
    }
}

/// Whether `remove_duplicates` copies the elements themselves into hash buckets (small
/// types without drop glue: integers, floats' bit patterns, small tuples of them) rather
/// than indices into the input. A copy is then as cheap as an index, and the buckets'
/// tables compare elements that sit next to each other in cache instead of reading the
/// input at random.
const fn moves_values<T>() -> bool {
    !std::mem::needs_drop::<T>() && std::mem::size_of::<T>() <= 16
}

/// Up to this many distinct values (estimated) one shared table stays in cache (4 slots
/// per value, 8 bytes each: 512 KiB), and inserting into it beats a bucketing pass.
const SHARED_MAX: usize = 1 << 14;

/// The distinct elements of `v` in order of first occurrence, cloned (itertools:
/// `v.iter().unique()`; std: a `HashSet` filter). Not ParlayLib's
/// `remove_duplicates_ordered`, which sorts.
///
/// The same table as [`remove_duplicates`], but a slot keeps the smallest index of its
/// value (a compare-and-swap priority update), and the kept indices are marked in a
/// bitmap (1 bit per element) that is packed in index order.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let v = ["b", "a", "b", "c", "a"];
/// assert_eq!(par::remove_duplicates_in_order(&mut Serial, &v), ["b", "a", "c"]);
/// ```
pub fn remove_duplicates_in_order<C, T>(ctx: &mut C, v: &[T]) -> Vec<T>
where
    C: ForkJoin,
    T: Hash + Eq + Clone + Send + Sync,
{
    let n = v.len();
    if n <= SEQ_DEDUP {
        return seq_in_order(v);
    }
    match sample(v).distinct {
        None if n >= SAMPLE_MIN => by_sorting(ctx, v),
        est => Table::build(ctx, v, true, est).pack(ctx, v),
    }
}

fn seq_in_order<T: Hash + Eq + Clone>(v: &[T]) -> Vec<T> {
    let mut seen = HashSet::with_capacity_and_hasher(v.len(), FastState);
    v.iter().filter(|x| seen.insert(*x)).cloned().collect()
}

#[inline]
fn index(w: u64) -> usize {
    ((w & IDX_MASK) - 1) as usize
}

/// Elements hashed and prefetched together: enough misses in flight to cover the memory
/// latency (a core keeps about 10-12 outstanding), few enough to stay in registers and L1.
const BATCH: usize = 16;

/// A cache-prefetch hint for the line holding `*p`.
#[inline(always)]
fn prefetch<T>(p: &T) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: a prefetch is only a hint: it never faults and has no effect the program
    // can observe; `p` is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p as *const T as *const i8)
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    let _ = p;
}

/// Inserts index `i` (hash `h`) of `v` into the table `table` (`mask + 1` slots): takes
/// an empty slot with a compare-and-swap, or stops at the slot of an equal element; with
/// `first`, lowers that slot's index to `i` if `i` is smaller. True if it took a slot.
#[inline]
fn insert<T: Eq>(table: &[AtomicU64], mask: usize, v: &[T], i: usize, h: u64, first: bool) -> bool {
    let tag = h >> IDX_BITS;
    let mine = tag << IDX_BITS | (i as u64 + 1);
    let mut s = h as usize & mask;
    // Relaxed everywhere: a slot publishes only an index into `v`, which is shared
    // read-only and was written before the fork; nothing else is read through a slot, so
    // no ordering with other memory is needed. The final contents are read after a join.
    let mut cur = table[s].load(Ordering::Relaxed);
    loop {
        if cur == 0 {
            match table[s].compare_exchange(0, mine, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return true,
                // Another insert took the slot: look at what it holds.
                Err(now) => cur = now,
            }
        }
        if cur >> IDX_BITS == tag && v[index(cur)] == v[i] {
            // A slot never changes value once taken, so `cur` stays this value's slot;
            // lower its index while ours is smaller.
            while first && index(cur) > i {
                match table[s].compare_exchange_weak(
                    cur,
                    mine,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => return false,
                    Err(now) => cur = now,
                }
            }
            return false;
        }
        s = (s + 1) & mask;
        cur = table[s].load(Ordering::Relaxed);
    }
}

/// The shared table: a power of two of slots, at least 1.5 per element.
struct Table {
    slots: Vec<AtomicU64>,
}

impl Table {
    /// The elements whose indices the table holds, in index order: the indices are marked
    /// in a bitmap (1 bit per element, so it stays in cache while the table is scanned),
    /// which is packed. Cheaper than packing the table itself, which is larger than the
    /// input and would be read at random to clone the survivors.
    fn pack<C, T>(&self, ctx: &mut C, v: &[T]) -> Vec<T>
    where
        C: ForkJoin,
        T: Clone + Send + Sync,
    {
        let n = v.len();
        let bits: Vec<AtomicU64> = tabulate(ctx, n.div_ceil(64), |_| AtomicU64::new(0));
        let slots = &self.slots[..];
        let bits = &bits[..];
        run(
            ctx,
            0..slots.len(),
            0,
            Grain::Auto,
            Align::NONE,
            &|_, r: Range<usize>| {
                for s in r {
                    // Relaxed: the table is complete (its build joined), and the bits are
                    // read only after the join that ends this loop.
                    let w = slots[s].load(Ordering::Relaxed);
                    if w != 0 {
                        let i = index(w);
                        bits[i / 64].fetch_or(1 << (i % 64), Ordering::Relaxed);
                    }
                }
            },
            &|(), ()| (),
        );
        pack_with(
            ctx,
            n,
            // Relaxed: the marking loop has joined.
            &|i| bits[i / 64].load(Ordering::Relaxed) & (1 << (i % 64)) != 0,
            &|i| v[i].clone(),
        )
    }

    /// Inserts every index of `v`; with `first`, each value's slot ends up holding its
    /// smallest index.
    ///
    /// The table is sized from an estimate of the number of distinct values (see
    /// [`sample`]): a table sized for `n` when only 10^5 of 10^7 values are
    /// distinct spreads them over 128 MiB, and every probe misses the caches and the TLB.
    /// An estimate that is too low is caught (the table passes half full) and the build
    /// starts over at the size for `n`, which cannot fill.
    fn build<C, T>(ctx: &mut C, v: &[T], first: bool, estimate: Option<usize>) -> Table
    where
        C: ForkJoin,
        T: Hash + Eq + Sync,
    {
        let n = v.len();
        assert!(
            (n as u64) < IDX_MASK,
            "remove_duplicates: at most 2^40 - 2 elements"
        );
        let full = (n + n / 2).next_power_of_two();
        // Room for every thread's unflushed count (and a batch) beyond the half-full mark.
        let min_cap = (ctx.num_threads() * 4 * (FLUSH + BATCH))
            .max(1 << 16)
            .next_power_of_two();
        let guess = estimate
            .map_or(full, |d| d.saturating_mul(4).next_power_of_two())
            .max(min_cap);
        if guess < full
            && let Some(t) = Self::try_build(ctx, v, first, guess, guess / 2)
        {
            return t;
        }
        Self::try_build(ctx, v, first, full, usize::MAX).expect("a table for n never fills")
    }

    /// Builds with `cap` slots, giving up (`None`) once more than `limit` are taken.
    fn try_build<C, T>(ctx: &mut C, v: &[T], first: bool, cap: usize, limit: usize) -> Option<Table>
    where
        C: ForkJoin,
        T: Hash + Eq + Sync,
    {
        let n = v.len();
        let mask = cap - 1;
        let slots: Vec<AtomicU64> = tabulate(ctx, cap, |_| AtomicU64::new(0));
        let table = &slots[..];
        let taken = AtomicUsize::new(0);
        let full = AtomicBool::new(false);
        run(
            ctx,
            0..n,
            0,
            Grain::Auto,
            Align::NONE,
            &|_, r: Range<usize>| {
                // In batches: hash a batch and prefetch its home slots, then the inputs
                // that the occupied home slots point to, then insert. The table and the
                // input may be larger than the caches, so each step is a cache miss per
                // element; batching lets the misses of a batch overlap.
                let mut hashes = [0u64; BATCH];
                let mut local = 0usize;
                let mut i0 = r.start;
                while i0 < r.end {
                    // Relaxed (here and on `taken`): the flag and the count only decide
                    // when to give up; the table's contents do not depend on them.
                    if full.load(Ordering::Relaxed) {
                        return;
                    }
                    let b = (r.end - i0).min(BATCH);
                    for j in 0..b {
                        let h = FastState.hash_one(&v[i0 + j]);
                        hashes[j] = h;
                        prefetch(&table[h as usize & mask]);
                    }
                    for &h in &hashes[..b] {
                        // Relaxed: only a hint of which input element to prefetch.
                        let w = table[h as usize & mask].load(Ordering::Relaxed);
                        if w != 0 && w >> IDX_BITS == h >> IDX_BITS {
                            prefetch(&v[index(w)]);
                        }
                    }
                    for (j, &h) in hashes[..b].iter().enumerate() {
                        local += insert(table, mask, v, i0 + j, h, first) as usize;
                    }
                    // Count in bulk: one shared counter per insert would serialize them.
                    // Each thread holds back fewer than FLUSH + BATCH, so the table is
                    // never more than half full plus that slack (`min_cap` in `build`).
                    if local >= FLUSH {
                        if taken.fetch_add(local, Ordering::Relaxed) + local > limit {
                            full.store(true, Ordering::Relaxed);
                            return;
                        }
                        local = 0;
                    }
                    i0 += b;
                }
                taken.fetch_add(local, Ordering::Relaxed);
            },
            &|(), ()| (),
        );
        // Relaxed: `run` has joined every leaf.
        if full.load(Ordering::Relaxed) || taken.load(Ordering::Relaxed) > limit {
            return None;
        }
        Some(Table { slots })
    }
}

/// The sample size of [`sample`], and the input size from which it samples.
const SAMPLE: usize = 1 << 14;
const SAMPLE_MIN: usize = 4 * SAMPLE;

/// Dedup by grouping, for inputs whose sample shows almost no repeats (more than about
/// 2^21 distinct values), where one shared table is larger than the caches and every
/// insert misses. Each element becomes one word, its hash's high 32 bits above its
/// index; one stable radix pass on the top bits groups the words into cache-sized buckets
/// (equal elements share a bucket, in input order); each bucket is then deduplicated with
/// a small table of its own that stays in cache, and the repeats are marked in a bitmap
/// that is packed in input order (so the first occurrences survive).
///
/// Measured at 10^7 keys uniform in `0..10^7` (PBBS randomSeq_int, 6.3 million distinct),
/// 1 thread, medians of 5 on a loaded machine beside rayon's copy + sort + dedup (330 ms):
/// one shared table 630 ms; `(hash, index)` pairs radix-sorted on 32 bits and scanned for
/// runs 870 ms (a random write per element); this grouping 300 ms, of which about 35 are
/// hashing, 110 the radix pass, 160 the bucket tables (one random read of `v` per
/// element, prefetched), 20 the pack.
fn by_sorting<C, T>(ctx: &mut C, v: &[T]) -> Vec<T>
where
    C: ForkJoin,
    T: Hash + Eq + Clone + Send + Sync,
{
    let n = v.len();
    if n > u32::MAX as usize {
        return Table::build(ctx, v, true, None).pack(ctx, v);
    }
    let mut words: Vec<u64> = tabulate(ctx, n, |i| {
        FastState.hash_one(&v[i]) & !(u32::MAX as u64) | i as u64
    });
    // Buckets of about BUCKET words: with 8-byte words and a table of 4-byte slots at most
    // twice as long, a bucket's work stays within L2.
    let group_bits = (n / BUCKET).max(2).ilog2().min(MAX_GROUP_BITS);
    let group = |w: u64| w >> (64 - group_bits);
    integer_sort_by_key(ctx, &mut words, group_bits, |w| group(*w));
    let repeat: Vec<AtomicU64> = tabulate(ctx, n.div_ceil(64), |_| AtomicU64::new(0));
    let words = &words[..];
    let index = |i: usize| (words[i] & u32::MAX as u64) as usize;
    run(
        ctx,
        0..n,
        0,
        Grain::Auto,
        Align::NONE,
        &|_, r: Range<usize>| {
            // Handle the buckets that start in `r` (to their end, which may lie beyond it).
            let mut i = r.start;
            while i < r.end && i > 0 && group(words[i]) == group(words[i - 1]) {
                i += 1;
            }
            let mut table: Vec<u32> = Vec::new();
            let mut repeats: Vec<u32> = Vec::new();
            while i < r.end {
                let g = group(words[i]);
                let mut end = i + 1;
                while end < n && group(words[end]) == g {
                    end += 1;
                }
                // Slots hold a word's offset in the bucket + 1 (0: empty), keyed by the
                // hash bits below the bucket's.
                let cap = (2 * (end - i)).next_power_of_two();
                let mask = cap - 1;
                table.clear();
                table.resize(cap, 0);
                for j in i..end {
                    // Elements are read at random (and each again if a repeat follows it
                    // within the bucket, from L2 by then): start the misses ahead.
                    if j + PREFETCH_AHEAD < n {
                        prefetch(&v[index(j + PREFETCH_AHEAD)]);
                    }
                    let h = words[j] >> 32;
                    let mut s = h as usize & mask;
                    loop {
                        let slot = table[s];
                        if slot == 0 {
                            table[s] = (j - i + 1) as u32;
                            break;
                        }
                        let k = i + slot as usize - 1;
                        if words[k] >> 32 == h && v[index(k)] == v[index(j)] {
                            repeats.push(index(j) as u32);
                            break;
                        }
                        s = (s + 1) & mask;
                    }
                }
                i = end;
            }
            // Marked after the reads: a locked instruction among them would wait for each
            // outstanding miss instead of letting them overlap.
            for idx in repeats {
                let idx = idx as usize;
                // Relaxed: read after the join that ends this loop.
                repeat[idx / 64].fetch_or(1 << (idx % 64), Ordering::Relaxed);
            }
        },
        &|(), ()| (),
    );
    // Relaxed: the marking loop has joined.
    pack_with(
        ctx,
        n,
        &|i| repeat[i / 64].load(Ordering::Relaxed) & (1 << (i % 64)) == 0,
        &|i| v[i].clone(),
    )
}

/// Dedup of small values by grouping them: ParlayLib's plan for its hash-based
/// `remove_duplicates` (`collect_reduce_sparse`), with the tables kept in place. One
/// counting pass and one scatter copy the elements into about `n * size / BUCKET_BYTES`
/// buckets by the top bits of their hash (equal elements share a bucket). Each bucket is
/// then partitioned in place, sequentially, into its distinct elements followed by its
/// repeats, with a table of `u32` positions that grows as distinct elements arrive (so a
/// bucket of a few heavy values, as in exponential keys, keeps a table of a few slots).
/// The distinct prefixes are copied out.
///
/// Each element is read once from the input and a few times from a bucket in cache;
/// `by_sorting` instead reads the input at random once per element.
fn by_hash_buckets<C, T>(ctx: &mut C, v: &[T], estimate: Option<usize>) -> Vec<T>
where
    C: ForkJoin,
    T: Hash + Eq + Clone + Send + Sync,
{
    let n = v.len();
    let bytes = n.saturating_mul(std::mem::size_of::<T>().max(1));
    let bits = (bytes / BUCKET_BYTES).max(2).ilog2().min(MAX_GROUP_BITS);
    let nbuckets = 1usize << bits;
    // The top bits of `spread` pick the bucket; the bits below them index its table.
    let bucket = move |x: &T| (spread(x) >> (64 - bits)) as usize;
    let p = ctx.num_threads();
    let blocks = Blocks::new(n, block_target(n, p, 1 << 14), Align::NONE);
    let counts = count_blocks(ctx, &blocks, nbuckets, move |i| bucket(&v[i]));
    let (offsets, starts) = bucket_offsets(&counts, nbuckets);
    let mut grouped: Vec<T> = Vec::with_capacity(n);
    advise_huge_pages(&mut grouped);
    let dst = Ptr(grouped.as_mut_ptr());
    scatter_blocks(
        ctx,
        &blocks,
        &counts,
        &offsets,
        dst,
        move |i| (bucket(&v[i]), i),
        // SAFETY: `at` is element `i`'s own slot in `0..n`, given once (`scatter_blocks`'
        // guarantee, which also catches a `Hash` that changed between the passes), and
        // `n` is the capacity.
        move |at: *mut T, i| unsafe { at.write(v[i].clone()) },
    );
    // SAFETY: `scatter_blocks` returned normally, so every block wrote all its elements,
    // and the blocks' slots cover `0..n`. (Had a `clone` panicked, `grouped` would have been
    // dropped with length 0, leaking the clones: safe.)
    unsafe { grouped.set_len(n) };
    // Distinct values a bucket may hold, if the sample saw many repeats.
    let per_bucket = estimate.map_or(usize::MAX, |d| d.div_ceil(nbuckets));
    let kept: Vec<AtomicUsize> = (0..nbuckets).map(|_| AtomicUsize::new(0)).collect();
    run_segments(ctx, &mut grouped[..], &starts, 1, &|j, b: &mut [T]| {
        let k = distinct_to_front(b, per_bucket, bits);
        // Relaxed: read after the join that ends `run_segments`.
        kept[j].store(k, Ordering::Relaxed);
    });
    // Relaxed: `run_segments` has joined.
    let out_starts = starts_of(kept.iter().map(|k| k.load(Ordering::Relaxed)));
    let total = out_starts[nbuckets];
    let mut out: Vec<T> = Vec::with_capacity(total);
    advise_huge_pages(&mut out);
    let grouped = &grouped[..];
    run_segments(
        ctx,
        &mut out.spare_capacity_mut()[..total],
        &out_starts,
        1,
        &|j, o: &mut [std::mem::MaybeUninit<T>]| {
            for (slot, x) in o.iter_mut().zip(&grouped[starts[j]..]) {
                slot.write(x.clone());
            }
        },
    );
    // SAFETY: `run_segments` returned normally and its pieces cover `0..total`, each
    // filled whole (`kept[j]` elements from bucket `j`, which has at least that many).
    unsafe { out.set_len(total) };
    out
}

/// Moves the distinct elements of `b` to its front (keeping the first of each value) and
/// returns their number; the repeats end up behind them in some order.
///
/// The table ([`Positions`]) starts at twice the bucket's length (ParlayLib's tables are
/// 1.5x; within a 2^18-slot, 1 MiB cap that stays in L2), or at 8x `expect` distinct
/// values if that is smaller. Measured on PBBS's 10^7 files in buckets of about 78 000
/// keys, 1 thread: a table grown from 16 slots at half load took 1.4-2.9x as long as one
/// sized from the bucket (exptSeq 121 against 86 ms, randomSeq 248 against 135, 10^5 keys
/// 87 against 31).
///
/// The elements of a bucket share the top `bucket_bits` of their [`spread`] hash, so the
/// table is indexed by the bits below those.
fn distinct_to_front<T: Hash + Eq>(b: &mut [T], expect: usize, bucket_bits: u32) -> usize {
    let hash = |x: &T| spread(x) << bucket_bits;
    let mut table = Positions::new((2 * b.len()).min(expect.saturating_mul(8)), MAX_TABLE);
    let mut count = 0usize;
    for j in 0..b.len() {
        if table.insert(hash(&b[j]), count, |k| b[k] == b[j]) {
            b.swap(count, j);
            count += 1;
            table.grow_if_full(&b[..count], hash);
        }
    }
    count
}

/// An open-addressing table of positions into a caller's array of distinct elements:
/// slot `s` holds `k + 1` for element `k` of the array, 0 when empty. An element's first
/// slot is given by the top bits of its hash (those are the well-mixed bits of
/// [`spread`]). The array keeps
/// the elements dense (the table itself holds 4-byte slots whatever the element), and
/// the table is kept at most a quarter full: most lookups then end at their first slot,
/// where a longer probe costs a mispredicted branch (measured: tables kept half full
/// took 1.3-1.9x as long on 10^7 keys below 10^5 and 2^14, private tables, 1 thread).
struct Positions {
    slots: Vec<u32>,
}

impl Positions {
    /// A table for about `want / 4` elements: `want` slots rounded up to a power of two,
    /// within `16..=max`.
    fn new(want: usize, max: usize) -> Positions {
        Positions {
            slots: vec![0; want.next_power_of_two().clamp(16, max)],
        }
    }

    /// Whether an element with hash `h` is new: `is(k)` for none of the table's `len`
    /// elements that share its slots (`is(k)`: element `k` of the array equals it). If so,
    /// the table records it at position `len`, where the caller must put it before the
    /// next call.
    #[inline]
    fn insert(&mut self, h: u64, len: usize, is: impl Fn(usize) -> bool) -> bool {
        let mask = self.slots.len() - 1;
        let mut s = Self::first_slot(h, self.slots.len());
        loop {
            let slot = self.slots[s] as usize;
            if slot == 0 {
                self.slots[s] = len as u32 + 1;
                return true;
            }
            if is(slot - 1) {
                return false;
            }
            s = (s + 1) & mask;
        }
    }

    /// The slot a probe for hash `h` starts at in a table of `len` (a power of two, at
    /// least 2) slots: the top bits of `h`.
    #[inline]
    fn first_slot(h: u64, len: usize) -> usize {
        (h >> (64 - len.trailing_zeros())) as usize
    }

    /// Doubles the table once it is more than a quarter full with `kept`'s elements
    /// (`hash` as for `insert`).
    fn grow_if_full<T>(&mut self, kept: &[T], hash: impl Fn(&T) -> u64) {
        if 4 * kept.len() <= self.slots.len() {
            return;
        }
        let cap = 2 * self.slots.len();
        self.slots.clear();
        self.slots.resize(cap, 0);
        for (k, x) in kept.iter().enumerate() {
            let mut s = Self::first_slot(hash(x), cap);
            while self.slots[s] != 0 {
                s = (s + 1) & (cap - 1);
            }
            self.slots[s] = k as u32 + 1;
        }
    }
}

/// Dedup of small values with a moderate number of distinct values on one thread: one
/// table of the distinct elements over the whole input, with no counting pass and no
/// scatter, which are most of the grouping's time. (ParlayLib's counting sort likewise
/// takes a sequential path on one thread.) Measured on PBBS's 10^5-key file (10^7 `u32`s),
/// 4 interleaved rounds, medians: 87-119 ms against the grouping's 134. With two threads,
/// per-task tables (one or two blocks per thread, survivors merged by the grouping) tied
/// with the grouping (60-71 against 63 ms), so more threads keep the grouping: on this
/// host's two vCPUs two 2 MiB tables do not stay in cache where 256 KiB buckets do.
///
/// If the table passes `ONE_TABLE_MAX` values (the sample's estimate is low for skewed
/// data) the rest of the input is handed, with the values found, to the grouping: a wrong
/// estimate costs a copy, not a table that has outgrown the cache.
fn by_one_table<C, T>(ctx: &mut C, v: &[T], expect: usize) -> Vec<T>
where
    C: ForkJoin,
    T: Hash + Eq + Clone + Send + Sync,
{
    let mut table = Positions::new(4 * expect, 4 * ONE_TABLE_MAX);
    let mut kept: Vec<T> = Vec::new();
    for (j, x) in v.iter().enumerate() {
        if table.insert(spread(x), kept.len(), |k| kept[k] == *x) {
            kept.push(x.clone());
            if kept.len() == ONE_TABLE_MAX {
                kept.extend_from_slice(&v[j + 1..]);
                return by_hash_buckets(ctx, &kept, Some(expect));
            }
            table.grow_if_full(&kept, spread);
        }
    }
    kept
}

/// The most times one value may occur in the sample for `by_one_table` to trust the
/// estimate. Uniform data stays below it (2^14 values: a Poisson(1) maximum over 2^14
/// draws, about 7); exptSeq's heavy keys are far above it.
const FLAT_MAX: usize = 16;

/// The most distinct values `by_one_table` collects: its table then has 2^19 four-byte
/// slots, 2 MiB, one core's L2 on the machine it was tuned on.
const ONE_TABLE_MAX: usize = if cfg!(any(test, miri)) { 32 } else { 1 << 17 };

/// The slots a bucket's table starts with at most (it may grow beyond).
const MAX_TABLE: usize = if cfg!(any(test, miri)) { 64 } else { 1 << 18 };

/// The bytes of elements per bucket `by_hash_buckets` aims at.
const BUCKET_BYTES: usize = if cfg!(any(test, miri)) { 256 } else { 1 << 18 };

/// The words per bucket `by_sorting` aims at.
const BUCKET: usize = if cfg!(any(test, miri)) { 64 } else { 4096 };
/// At most this many bits for `by_sorting`'s buckets (one radix pass).
const MAX_GROUP_BITS: u32 = 11;
/// How far ahead `by_sorting` prefetches the elements it will compare.
const PREFETCH_AHEAD: usize = 16;

/// Inserts between counter updates of a leaf.
const FLUSH: usize = 256;

/// What a sample of `m` = 2^14 evenly spread elements of `v` says about its values.
struct Sample {
    /// An estimate of the number of distinct values, from the sample (one element at a
    /// pseudo-random place in each of `m` strides): with `c` repeats among the sample (the
    /// birthday count), about `m^2 / (2c)` values are distinct for uniform data; skewed
    /// data gives low estimates, which `Table::build` corrects. `None` when the sample has
    /// almost no repeats (then there are too many distinct values for a smaller table to
    /// pay) or `v` is small.
    distinct: Option<usize>,
    /// The most times one value occurs in the sample: a handful for uniform data (about 7
    /// for 2^14 values, fewer for more), hundreds where a heavy value (PBBS exptSeq: 1/24
    /// of all keys) makes `distinct` a gross underestimate. 0 when `v` is small.
    heaviest: usize,
}

/// Samples `v` (see [`Sample`]).
fn sample<T: Hash>(v: &[T]) -> Sample {
    const M: usize = SAMPLE;
    let n = v.len();
    if n < SAMPLE_MIN {
        return Sample {
            distinct: None,
            heaviest: 0,
        };
    }
    let stride = n / M;
    let mut seen: HashMap<u64, usize, FastState> = HashMap::with_capacity_and_hasher(M, FastState);
    for k in 0..M {
        let off = FastState.hash_one(k) as usize % stride;
        *seen
            .entry(FastState.hash_one(&v[k * stride + off]))
            .or_default() += 1;
    }
    let repeats = M - seen.len();
    Sample {
        // Fewer than 64 repeats: more than about 2^21 distinct values, within 8x of n anyway.
        distinct: (repeats >= 64).then(|| M * M / (2 * repeats)),
        heaviest: seen.values().copied().max().unwrap_or(0),
    }
}

/// The grouping's hash: [`FastHasher`]'s multiply-rotate rounds without the finalizer.
/// Only its top bits are well mixed (each is a sum over every lower bit of the input, as
/// in Fibonacci hashing); its low bits see only the input's low bits. Callers use the top
/// bits: the bucket is the top `bits`, a table slot the bits below them. Skipping the
/// finalizer's two multiplies halved the counting pass of the 10^5-key dedup (10^7 `u32`,
/// 2 threads: 15-20 ms to 8-11) and made the scatter, which hashes again, 3-6 ms faster.
#[inline]
fn spread<T: Hash + ?Sized>(x: &T) -> u64 {
    let mut h = FastHasher(0);
    x.hash(&mut h);
    h.0
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

    fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
        v.sort();
        v
    }

    /// The distinct values of `v`, sorted: what an unordered dedup must return, sorted.
    fn distinct_sorted(v: &[u32]) -> Vec<u32> {
        sorted(
            v.iter()
                .copied()
                .collect::<HashSet<_>>()
                .into_iter()
                .collect(),
        )
    }

    #[test]
    fn both_variants_match_sequential() {
        let mut rng = Rng(19);
        for n in sizes() {
            for modulo in [1u64, 2, 50, 1 << 20] {
                let v: Vec<String> = rng.vec(n, modulo).iter().map(|x| x.to_string()).collect();
                let mut seen = HashSet::new();
                let want: Vec<String> = v.iter().filter(|x| seen.insert(*x)).cloned().collect();
                assert_eq!(remove_duplicates_in_order(&mut Threads::new(), &v), want);
                let split = &mut SplitSerial { morsel: 64 };
                assert_eq!(remove_duplicates_in_order(split, &v), want);
                let want = sorted(want);
                assert_eq!(sorted(remove_duplicates(&mut Threads::new(), &v)), want);
                assert_eq!(sorted(remove_duplicates(split, &v)), want);
            }
        }
    }

    /// Values that all hash alike still dedup correctly (long probe chains of several
    /// values, and tags that match for unequal values).
    #[test]
    fn colliding_hashes() {
        #[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
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
        assert_eq!(remove_duplicates_in_order(&mut Threads::new(), &v), want);
        assert_eq!(
            sorted(remove_duplicates(&mut Threads::new(), &v)),
            sorted(want)
        );
    }

    /// The grouping of small values (`by_hash_buckets`), on the shapes of PBBS's input
    /// families, with estimates that are right, far too low (tables that grow past
    /// MAX_TABLE, 64 slots under test) and absent.
    #[test]
    fn hash_buckets_match_sequential() {
        let mut rng = Rng(23);
        for n in sizes() {
            let nn = n.max(1) as u64;
            let random: Vec<u32> = rng.vec(n, 1 << 31).iter().map(|&x| x as u32).collect();
            let small: Vec<u32> = rng.vec(n, 50).iter().map(|&x| x as u32).collect();
            let expt: Vec<u32> = (0..n)
                .map(|_| {
                    let r = 1u64 << (rng.next() % (64 - nn.leading_zeros() as u64));
                    ((r + rng.next() % r) % nn) as u32
                })
                .collect();
            let equal = vec![7u32; n];
            let reversed: Vec<u32> = (0..n as u32).rev().collect();
            for v in [&random, &small, &expt, &equal, &reversed] {
                let want = distinct_sorted(v);
                for est in [None, Some(1), Some(want.len())] {
                    let got = by_hash_buckets(&mut Threads::new(), v, est);
                    assert_eq!(sorted(got), want, "n {n} estimate {est:?}");
                    let got = by_hash_buckets(&mut SplitSerial { morsel: 64 }, v, est);
                    assert_eq!(sorted(got), want, "n {n} estimate {est:?}");
                }
            }
        }
    }

    /// The one table keeps each value once; past its cap (32 values under test) it hands
    /// what it found and the rest of the input to the grouping.
    #[test]
    fn one_table_matches_sequential() {
        let mut rng = Rng(31);
        for n in sizes() {
            let few: Vec<u32> = rng.vec(n, 20).iter().map(|&x| x as u32).collect();
            let many: Vec<u32> = rng.vec(n, 1 << 31).iter().map(|&x| x as u32).collect();
            let equal = vec![7u32; n];
            // Half a few heavy values, half distinct ones: a low estimate, a table that
            // passes the cap part-way.
            let skewed: Vec<u32> = (0..n as u32)
                .map(|i| if i % 2 == 0 { i % 5 } else { 1000 + i })
                .collect();
            for v in [&few, &many, &equal, &skewed] {
                let want = distinct_sorted(v);
                for expect in [1, want.len().max(1), 1000] {
                    let what = format!("n {n} expect {expect}");
                    let got = by_one_table(&mut Threads::new(), v, expect);
                    assert_eq!(sorted(got), want, "{what}");
                    let got = by_one_table(&mut SplitSerial { morsel: 64 }, v, expect);
                    assert_eq!(sorted(got), want, "{what}, split serial");
                }
            }
        }
    }

    /// A `Hash` that changes from call to call (legal, if useless) makes the grouping's
    /// scatter panic instead of writing out of bounds.
    #[test]
    fn changing_hash_panics_in_the_grouping() {
        struct Fickle(AtomicU64);
        impl Clone for Fickle {
            fn clone(&self) -> Self {
                Fickle(AtomicU64::new(self.0.load(Ordering::Relaxed)))
            }
        }
        impl PartialEq for Fickle {
            fn eq(&self, other: &Self) -> bool {
                self.0.load(Ordering::Relaxed) == other.0.load(Ordering::Relaxed)
            }
        }
        impl Eq for Fickle {}
        impl Hash for Fickle {
            fn hash<H: Hasher>(&self, h: &mut H) {
                h.write_u64(self.0.fetch_add(1, Ordering::Relaxed));
            }
        }
        let n = if cfg!(miri) { 200 } else { 5000 };
        let v: Vec<Fickle> = (0..n).map(|i| Fickle(AtomicU64::new(i))).collect();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            by_hash_buckets(&mut Threads::new(), &v, None)
        }));
        assert!(r.is_err());
    }

    /// A bucket's table keeps the first of each value, in order, at the front, and the
    /// bucket stays a permutation of itself; across table growth and long probe runs.
    #[test]
    fn distinct_to_front_keeps_first_occurrences() {
        let mut rng = Rng(29);
        for n in sizes() {
            for modulo in [1u64, 3, 40, 1 << 40] {
                let v = rng.vec(n, modulo);
                let mut seen = HashSet::new();
                let firsts: Vec<u64> = v.iter().copied().filter(|x| seen.insert(*x)).collect();
                for expect in [0, 1, n, usize::MAX] {
                    let mut b = v.clone();
                    let k = distinct_to_front(&mut b, expect, 3);
                    assert_eq!(
                        &b[..k],
                        &firsts[..],
                        "n {n} modulo {modulo} expect {expect}"
                    );
                    assert_eq!(sorted(b), sorted(v.clone()));
                }
            }
        }
    }

    /// The public entry point sends small values with many distinct ones to the grouping
    /// and large ones (`String`) to the index-based paths; both answer the same.
    #[test]
    fn small_values_and_strings_agree() {
        if cfg!(miri) {
            return; // SAMPLE_MIN elements are too many for Miri
        }
        let mut rng = Rng(31);
        for modulo in [1u64 << 17, 1 << 32] {
            let raw = rng.vec(2 * SAMPLE_MIN, modulo);
            let ints: Vec<u32> = raw.iter().map(|&x| x as u32).collect();
            let strings: Vec<String> = raw.iter().map(|x| x.to_string()).collect();
            let mut seen = HashSet::new();
            let want = sorted(ints.iter().copied().filter(|x| seen.insert(*x)).collect());
            let got = remove_duplicates(&mut Threads::new(), &ints);
            assert_eq!(sorted(got), want);
            let got: Vec<u32> = remove_duplicates(&mut Threads::new(), &strings)
                .iter()
                .map(|s| s.parse().unwrap())
                .collect();
            assert_eq!(sorted(got), want);
        }
    }

    /// The sorting path (inputs with almost no repeats): first occurrences in input
    /// order, with equal values far apart and unequal values that share their hash bits.
    #[test]
    fn by_sorting_keeps_first_occurrences() {
        #[derive(Clone, PartialEq, Eq, Debug)]
        struct Pairwise(u64);
        impl Hash for Pairwise {
            // Values 2k and 2k + 1 hash alike: runs of equal hash bits hold two values.
            fn hash<H: Hasher>(&self, h: &mut H) {
                h.write_u64(self.0 / 2)
            }
        }
        let n = if cfg!(miri) { 300 } else { 100_000 };
        let mut rng = Rng(7);
        // Mostly distinct, with repeats of early values near the end.
        let mut raw = rng.vec(n, 1 << 40);
        for k in 0..n / 10 {
            raw[n - 1 - k] = raw[3 * k] ^ (k as u64 & 1);
        }
        let v: Vec<Pairwise> = raw.iter().map(|&x| Pairwise(x)).collect();
        let mut seen = HashSet::new();
        let want: Vec<Pairwise> = v.iter().filter(|x| seen.insert(x.0)).cloned().collect();
        assert!(want.len() < n, "the input has repeats");
        assert_eq!(by_sorting(&mut Threads::new(), &v), want);
        assert_eq!(by_sorting(&mut SplitSerial { morsel: 64 }, &v), want);
    }
}

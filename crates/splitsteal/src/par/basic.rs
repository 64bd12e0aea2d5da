//! Loops, `tabulate`, `map` and reductions.

use std::iter::Sum;
use std::ops::Range;

use super::split::{advise_huge_pages, run, Align, Grain};
use crate::ForkJoin;

/// Runs `f(i)` for every `i` in `range`, in parallel, with automatic granularity.
///
/// The range is split recursively on [`ForkJoin::join`] at 9/16 of its length (the low-latency
/// thesis's rule against power-of-two cache-set aliasing, taken relative to the start of
/// each sub-range). Leaves are at least as large as the prefix that took about a microsecond
/// when the first iterations were timed (ParlayLib's rule), and leaf boundaries fall on
/// multiples of `ctx.morsel_bytes() / 8` indices — whole morsels of an array of 8-byte
/// elements. To write into a slice with exact morsel alignment, use [`for_each_mut`] or
/// [`blocks_mut`], which read the slice's address.
///
/// ```
/// use splitsteal::{par, Serial};
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// let total = AtomicU64::new(0);
/// par::par_for(&mut Serial, 10..20, |i| {
///     total.fetch_add(i as u64, Ordering::Relaxed);
/// });
/// assert_eq!(total.into_inner(), (10..20).sum());
/// ```
pub fn par_for<C, F>(ctx: &mut C, range: Range<usize>, f: F)
where
    C: ForkJoin,
    F: Fn(usize) + Sync,
{
    loop_ranges(ctx, range, Grain::Auto, &|r: Range<usize>| r.for_each(&f));
}

/// Like [`par_for`], with leaves of at most `grain` iterations (`grain` is clamped to at
/// least 1; a leaf may still be cut only at morsel boundaries, see [`par_for`]).
///
/// ```
/// use splitsteal::{par, Serial};
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// let count = AtomicUsize::new(0);
/// par::par_for_grain(&mut Serial, 0..1000, 64, |_| {
///     count.fetch_add(1, Ordering::Relaxed);
/// });
/// assert_eq!(count.into_inner(), 1000);
/// ```
pub fn par_for_grain<C, F>(ctx: &mut C, range: Range<usize>, grain: usize, f: F)
where
    C: ForkJoin,
    F: Fn(usize) + Sync,
{
    loop_ranges(ctx, range, Grain::Fixed(grain), &|r: Range<usize>| {
        r.for_each(&f)
    });
}

/// Like [`par_for`], but calls `f` once per leaf with the leaf's whole sub-range, so the
/// body can keep per-leaf state (a local buffer, a running sum) across its iterations.
///
/// ```
/// use splitsteal::{par, Serial};
/// use std::sync::Mutex;
///
/// let pieces = Mutex::new(Vec::new());
/// par::par_for_ranges(&mut Serial, 3..50, |r| pieces.lock().unwrap().push(r));
/// let mut pieces = pieces.into_inner().unwrap();
/// pieces.sort_by_key(|r| r.start);
/// assert_eq!(pieces.first().unwrap().start, 3);
/// assert_eq!(pieces.last().unwrap().end, 50);
/// ```
pub fn par_for_ranges<C, F>(ctx: &mut C, range: Range<usize>, f: F)
where
    C: ForkJoin,
    F: Fn(Range<usize>) + Sync,
{
    loop_ranges(ctx, range, Grain::Auto, &f);
}

fn loop_ranges<C, F>(ctx: &mut C, range: Range<usize>, grain: Grain, f: &F)
where
    C: ForkJoin,
    F: Fn(Range<usize>) + Sync,
{
    if range.start >= range.end {
        return;
    }
    let align = Align::every(ctx.morsel_bytes() / 8);
    let start = range.start;
    run(ctx, range, start, grain, align, &|_, r| f(r), &|(), ()| ());
}

/// Calls `f(i, &mut v[i])` for every element, in parallel; leaves are whole morsels of
/// `v` (rayon: `v.par_iter_mut().enumerate().for_each(...)`).
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![0u32; 100];
/// par::for_each_mut(&mut Serial, &mut v, |i, x| *x = i as u32 * 2);
/// assert_eq!(v[42], 84);
/// ```
pub fn for_each_mut<C, T, F>(ctx: &mut C, v: &mut [T], f: F)
where
    C: ForkJoin,
    T: Send,
    F: Fn(usize, &mut T) + Sync,
{
    blocks_mut(ctx, v, |start, block| {
        for (j, x) in block.iter_mut().enumerate() {
            f(start + j, x)
        }
    })
}

/// Calls `f(start, block)` on disjoint blocks of `v` covering it, in parallel, where
/// `block` is `&mut v[start..start + block.len()]`. Blocks begin and end on morsel
/// boundaries of `v` (addresses that are multiples of [`ForkJoin::morsel_bytes`]), except
/// at the ends of `v`, so two blocks never share a cache line.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let mut v = vec![1u64; 1000];
/// par::blocks_mut(&mut Serial, &mut v, |start, block| {
///     for (j, x) in block.iter_mut().enumerate() {
///         *x += (start + j) as u64;
///     }
/// });
/// assert_eq!(v[999], 1000);
/// ```
pub fn blocks_mut<C, T, F>(ctx: &mut C, v: &mut [T], f: F)
where
    C: ForkJoin,
    T: Send,
    F: Fn(usize, &mut [T]) + Sync,
{
    let align = Align::of(v.as_ptr(), ctx.morsel_bytes());
    run(ctx, v, 0, Grain::Auto, align, &f, &|(), ()| ());
}

/// Fills a vector of `n` elements in parallel: element `i` is `f(i)`. Each leaf writes
/// whole morsels of the (uninitialized) output.
///
/// If `f` panics, the panic propagates after the other leaves finish, and every element
/// already built is dropped.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let squares = par::tabulate(&mut Serial, 5, |i| i * i);
/// assert_eq!(squares, [0, 1, 4, 9, 16]);
/// ```
pub fn tabulate<C, T, F>(ctx: &mut C, n: usize, f: F) -> Vec<T>
where
    C: ForkJoin,
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    let mut out: Vec<T> = Vec::with_capacity(n);
    advise_huge_pages(&mut out);
    let align = Align::of(out.as_ptr(), ctx.morsel_bytes());
    let base = Base(out.as_mut_ptr());
    let filled = run(
        ctx,
        0..n,
        0,
        Grain::Auto,
        align,
        &|_, slots: Range<usize>| base.fill(slots.clone(), slots.map(&f)),
        &Filled::merge,
    );
    // SAFETY: `run` returned normally, so the leaves' pieces, merged in order, are the
    // whole of `0..n`, initialized.
    unsafe { out.set_len(filled.hand_over(n)) };
    out
}

/// `v.iter().map(f).collect()`, in parallel (rayon: `v.par_iter().map(f).collect()`).
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let v = [1, 2, 3];
/// assert_eq!(par::map(&mut Serial, &v, |x| x * 10), [10, 20, 30]);
/// ```
pub fn map<C, T, U, F>(ctx: &mut C, v: &[T], f: F) -> Vec<U>
where
    C: ForkJoin,
    T: Sync,
    U: Send,
    F: Fn(&T) -> U + Sync,
{
    let n = v.len();
    let mut out: Vec<U> = Vec::with_capacity(n);
    advise_huge_pages(&mut out);
    let align = Align::of(out.as_ptr(), ctx.morsel_bytes());
    let base = Base(out.as_mut_ptr());
    let filled = run(
        ctx,
        (v, 0..n),
        0,
        Grain::Auto,
        align,
        &|_, (src, slots): (&[T], Range<usize>)| base.fill(slots, src.iter().map(&f)),
        &Filled::merge,
    );
    // SAFETY: as in `tabulate`.
    unsafe { out.set_len(filled.hand_over(n)) };
    out
}

/// The start of a `Vec`'s buffer, shared by the leaves that fill it: each writes only its
/// own slots, through this pointer (never through a `&mut` to the buffer, so that a piece
/// merged from neighbours may drop its elements through a pointer that covers them all:
/// Stacked Borrows would not allow it from one leaf's sub-slice).
struct Base<T>(*mut T);

impl<T> Clone for Base<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Base<T> {}

// SAFETY: the leaves write disjoint slots through it, and the elements are `Send`.
unsafe impl<T: Send> Send for Base<T> {}
// SAFETY: as above: shared only to write disjoint slots.
unsafe impl<T: Send> Sync for Base<T> {}

impl<T> Base<T> {
    /// Writes `values` into `slots` (indices into the buffer, within its capacity, not
    /// initialized yet, written by no one else), in order, until either runs out; the
    /// written front.
    fn fill(self, slots: Range<usize>, values: impl Iterator<Item = T>) -> Filled<T> {
        let mut filled = Filled {
            // SAFETY: `slots.start` is within the buffer's capacity (or its end).
            first: unsafe { self.0.add(slots.start) },
            len: 0,
        };
        for value in values.take(slots.len()) {
            // SAFETY: `len < slots.len()`, so the slot is one of ours, in bounds; it is not
            // initialized yet, so nothing is overwritten without a drop.
            unsafe { filled.first.add(filled.len).write(value) };
            // Counted once written: a panic in the next `values.next()` drops this one.
            filled.len += 1;
        }
        filled
    }
}

/// The initialized front of a piece of an output buffer, owned: dropping it drops those
/// elements. A leaf returns one for its piece (the slots it wrote before a panic, if `f`
/// panicked there); `run` merges neighbours' in order; so when any leaf panics, the pieces
/// of those that finished are dropped on the way out, and nothing built is leaked.
struct Filled<T> {
    first: *mut T,
    len: usize,
}

// SAFETY: a `Filled<T>` owns `len` elements of type `T` (it is a piece of a `Vec<T>`), so
// sending it sends them.
unsafe impl<T: Send> Send for Filled<T> {}

impl<T> Filled<T> {
    /// Two neighbouring pieces, `left` just before `right`, as one.
    fn merge(left: Filled<T>, right: Filled<T>) -> Filled<T> {
        let left = std::mem::ManuallyDrop::new(left);
        let right = std::mem::ManuallyDrop::new(right);
        // `run` combines the results of neighbouring parts, left first, and every leaf
        // fills its whole part when it returns: `right` starts where `left` ends.
        assert_eq!(
            left.first.wrapping_add(left.len),
            right.first,
            "pieces merged out of order"
        );
        Filled {
            first: left.first,
            len: left.len + right.len,
        }
    }

    /// Gives up ownership of the elements (to the `Vec` whose length the caller sets);
    /// checks that they are the `n` expected.
    fn hand_over(self, n: usize) -> usize {
        assert_eq!(self.len, n, "a leaf left slots unwritten");
        std::mem::forget(self);
        n
    }
}

impl<T> Drop for Filled<T> {
    fn drop(&mut self) {
        // SAFETY: the `len` slots from `first` were written by `fill` and are owned by
        // this piece alone (merged pieces are not dropped: `ManuallyDrop`; handed-over
        // ones are forgotten).
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(self.first, self.len))
        };
    }
}

/// Reduces `v` with an associative operator (rayon: `v.par_iter().cloned().reduce(identity,
/// op)`). `identity()` must be a neutral element of `op`. The grouping depends on timing,
/// so a merely approximately associative `op` (floating-point addition) may give slightly
/// different results from run to run.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let v: Vec<u64> = (1..=100).collect();
/// assert_eq!(par::reduce(&mut Serial, &v, || 0, |a, b| a + b), 5050);
/// let max = par::reduce(&mut Serial, &v, || u64::MIN, |a, b| a.max(b));
/// assert_eq!(max, 100);
/// ```
pub fn reduce<C, T, ID, OP>(ctx: &mut C, v: &[T], identity: ID, op: OP) -> T
where
    C: ForkJoin,
    T: Clone + Send + Sync,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    map_reduce(ctx, v, T::clone, identity, op)
}

/// `v.iter().map(map).fold(identity(), op)` in parallel, with `op` associative and
/// `identity()` neutral (rayon: `v.par_iter().map(map).reduce(identity, op)`).
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let words = ["fork", "join", "steal"];
/// let letters = par::map_reduce(&mut Serial, &words, |w| w.len(), || 0, |a, b| a + b);
/// assert_eq!(letters, 13);
/// ```
pub fn map_reduce<C, T, U, M, ID, OP>(ctx: &mut C, v: &[T], map: M, identity: ID, op: OP) -> U
where
    C: ForkJoin,
    T: Sync,
    U: Send,
    M: Fn(&T) -> U + Sync,
    ID: Fn() -> U + Sync,
    OP: Fn(U, U) -> U + Sync,
{
    run(
        ctx,
        v,
        0,
        Grain::Auto,
        Align::NONE,
        &|_, s: &[T]| s.iter().fold(identity(), |a, x| op(a, map(x))),
        &op,
    )
}

/// `range.map(f).fold(identity(), op)` in parallel, with `op` associative and
/// `identity()` neutral: a reduction over indices, without an input slice.
///
/// ```
/// use splitsteal::{par, Serial};
///
/// let odd_squares = par::map_reduce_range(&mut Serial, 0..10, |i| (i % 2) * i * i, || 0, |a, b| a + b);
/// assert_eq!(odd_squares, 1 + 9 + 25 + 49 + 81);
/// ```
pub fn map_reduce_range<C, U, M, ID, OP>(
    ctx: &mut C,
    range: Range<usize>,
    map: M,
    identity: ID,
    op: OP,
) -> U
where
    C: ForkJoin,
    U: Send,
    M: Fn(usize) -> U + Sync,
    ID: Fn() -> U + Sync,
    OP: Fn(U, U) -> U + Sync,
{
    let range = range.start..range.end.max(range.start);
    let start = range.start;
    run(
        ctx,
        range,
        start,
        Grain::Auto,
        Align::NONE,
        &|_, r: Range<usize>| r.fold(identity(), |a, i| op(a, map(i))),
        &op,
    )
}

/// The sum of `v` (rayon: `v.par_iter().sum()` / `.copied().sum()`).
///
/// ```
/// use splitsteal::{par, Serial};
///
/// assert_eq!(par::sum(&mut Serial, &[1.5f64, 2.5, 3.0]), 7.0);
/// ```
pub fn sum<C, T>(ctx: &mut C, v: &[T]) -> T
where
    C: ForkJoin,
    T: Copy + Send + Sync + Sum<T>,
{
    run(
        ctx,
        v,
        0,
        Grain::Auto,
        Align::NONE,
        &|_, s: &[T]| s.iter().copied().sum::<T>(),
        &|a: T, b: T| [a, b].into_iter().sum::<T>(),
    )
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{sizes, Rng, SplitSerial, Threads};
    use super::*;
    use std::sync::atomic::{AtomicU8, Ordering};

    #[test]
    fn par_for_visits_every_index_once() {
        for n in sizes() {
            for start in [0usize, 3, 1000] {
                let hits: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
                par_for(&mut Threads::new(), start..start + n, |i| {
                    hits[i - start].fetch_add(1, Ordering::Relaxed);
                });
                assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "n={n}");
                let hits: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
                par_for_grain(&mut SplitSerial { morsel: 64 }, start..start + n, 3, |i| {
                    hits[i - start].fetch_add(1, Ordering::Relaxed);
                });
                assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "n={n}");
            }
        }
        // An empty or reversed range runs nothing.
        #[allow(clippy::reversed_empty_ranges)]
        par_for(&mut Threads::new(), 5..2, |_| panic!("ran"));
    }

    #[test]
    fn par_for_grain_respects_grain_and_morsels() {
        use std::sync::Mutex;
        let leaves = Mutex::new(Vec::new());
        let ctx = &mut SplitSerial { morsel: 128 };
        loop_ranges(ctx, 5..10_005, Grain::Fixed(100), &|r| {
            leaves.lock().unwrap().push(r)
        });
        let mut leaves = leaves.into_inner().unwrap();
        leaves.sort_by_key(|r| r.start);
        assert_eq!(leaves.first().unwrap().start, 5);
        assert_eq!(leaves.last().unwrap().end, 10_005);
        for w in leaves.windows(2) {
            assert_eq!(w[0].end, w[1].start);
            assert_eq!(w[0].end % 16, 0, "boundary off the morsel grid");
        }
        assert!(leaves.iter().all(|r| r.len() <= 100));
        assert!(
            leaves.len() < 10_000 / 16,
            "leaves too small: {}",
            leaves.len()
        );
    }

    #[test]
    fn blocks_are_morsel_aligned() {
        use std::sync::Mutex;
        for morsel in [64usize, 128, 4096] {
            let mut v = vec![0u32; 50_000];
            let starts = Mutex::new(Vec::new());
            let base = v.as_ptr() as usize;
            blocks_mut(
                &mut Threads {
                    morsel,
                    ..Threads::new()
                },
                &mut v,
                |s, b| {
                    starts.lock().unwrap().push(s);
                    b.iter_mut().for_each(|x| *x += 1);
                },
            );
            assert!(v.iter().all(|&x| x == 1));
            for s in starts.into_inner().unwrap() {
                if s != 0 {
                    assert_eq!((base + 4 * s) % morsel, 0);
                }
            }
        }
    }

    #[test]
    fn tabulate_map_reduce_match_sequential() {
        let mut rng = Rng(7);
        for n in sizes() {
            let v = rng.vec(n, 1000);
            let ctx = &mut Threads::new();
            assert_eq!(
                tabulate(ctx, n, |i| v[i] * 3),
                v.iter().map(|x| x * 3).collect::<Vec<_>>()
            );
            let strings = map(ctx, &v, |x| x.to_string());
            assert_eq!(strings, v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
            assert_eq!(reduce(ctx, &v, || 0, |a, b| a + b), v.iter().sum::<u64>());
            assert_eq!(sum(ctx, &v), v.iter().sum::<u64>());
            // A non-commutative associative operator: concatenation keeps order.
            let cat = map_reduce(
                ctx,
                &v,
                |x| vec![*x],
                Vec::new,
                |mut a, b| {
                    a.extend(b);
                    a
                },
            );
            assert_eq!(cat, v);
            let r = map_reduce_range(
                ctx,
                3..3 + n,
                |i| vec![i],
                Vec::new,
                |mut a, b| {
                    a.extend(b);
                    a
                },
            );
            assert_eq!(r, (3..3 + n).collect::<Vec<_>>());
        }
    }

    /// A panic in `f` propagates, and every element built (by the leaves that finished and
    /// by the panicking one before its panic) is dropped exactly once; no unbuilt slot is
    /// dropped. `Built` owns heap memory, so Miri's leak check (and ASan's) would report an
    /// element left undropped; its drop reads the element, so a drop of an unbuilt slot is
    /// a read of uninitialized memory (Miri reports it).
    #[test]
    fn panics_propagate_and_drop_what_was_built() {
        use std::sync::atomic::{AtomicBool, Ordering};
        // Under Miri, small and once: it interprets every slot's write and drop.
        let (n, reps) = if cfg!(miri) { (48, 1) } else { (10_000, 2) };
        #[derive(Debug)]
        struct Built<'a>(Box<usize>, &'a [AtomicBool]);
        impl Drop for Built<'_> {
            fn drop(&mut self) {
                assert!(
                    !self.1[*self.0].swap(true, Ordering::Relaxed),
                    "dropped twice"
                );
            }
        }
        let panic_at = n / 2;
        type Build = fn(&mut Threads, usize, &(dyn Fn(usize) -> usize + Sync)) -> usize;
        let by_tabulate: Build = |ctx, n, f| tabulate(ctx, n, f).len();
        let by_map: Build = |ctx, n, f| {
            let v: Vec<usize> = (0..n).collect();
            map(ctx, &v, |&i| f(i)).len()
        };
        for (name, build) in [("tabulate", by_tabulate), ("map", by_map)] {
            for _ in 0..reps {
                let built: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(false)).collect();
                let dropped: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(false)).collect();
                let r = std::panic::catch_unwind(|| match name {
                    "tabulate" => tabulate(&mut Threads::new(), n, |i| {
                        if i == panic_at {
                            panic!("boom {i}");
                        }
                        built[i].store(true, Ordering::Relaxed);
                        Built(Box::new(i), &dropped)
                    })
                    .len(),
                    _ => {
                        let v: Vec<usize> = (0..n).collect();
                        map(&mut Threads::new(), &v, |&i| {
                            if i == panic_at {
                                panic!("boom {i}");
                            }
                            built[i].store(true, Ordering::Relaxed);
                            Built(Box::new(i), &dropped)
                        })
                        .len()
                    }
                });
                let err = r.unwrap_err();
                assert_eq!(
                    err.downcast_ref::<String>().unwrap(),
                    &format!("boom {panic_at}")
                );
                let (built_count, mismatched) = (0..n).fold((0, Vec::new()), |(c, mut m), i| {
                    let b = built[i].load(Ordering::Relaxed);
                    if b != dropped[i].load(Ordering::Relaxed) {
                        m.push(i);
                    }
                    (c + usize::from(b), m)
                });
                assert!(
                    mismatched.is_empty(),
                    "{name}: built but not dropped, or dropped unbuilt: {:?} (of {built_count} built)",
                    &mismatched[..mismatched.len().min(8)]
                );
                assert!(built_count > 0, "{name}: nothing built before the panic");
            }
            // The context is still usable afterwards.
            assert_eq!(build(&mut Threads::new(), 10, &|i| i), 10);
        }
    }
}

// Classic rayon programs, written in rayon's style and nothing else: this file is
// `include!`d twice, once into a module whose only import is
// `use rayon::{join, prelude::*};` and once into a module whose only import is
// `use splitsteal::{join, prelude::*};`. The shared data types (`Body`) come from the
// including module's parent as `super::`. No line here knows which library it runs on.
//
// Every program gives exactly the output of its serial reference (`common.rs`): the
// floating-point ones do each element's arithmetic in a fixed order whatever the split, and
// the reductions are over integers (or integer-valued floats, exact below 2^53).

/// One step of the all-pairs n-body simulation: each body's velocity is updated from a
/// snapshot of every body (`par_iter_mut` over the bodies, a sequential inner loop), then
/// every position moves by its velocity.
pub fn nbody_step(bodies: &mut [super::Body], dt: f64) {
    let snapshot: Vec<super::Body> = bodies.to_vec();
    bodies.par_iter_mut().for_each(|b| {
        let mut acc = [0.0f64; 3];
        for o in &snapshot {
            let d = [
                o.pos[0] - b.pos[0],
                o.pos[1] - b.pos[1],
                o.pos[2] - b.pos[2],
            ];
            let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + super::SOFTENING;
            let s = o.mass / (r2 * r2.sqrt());
            for (a, dk) in acc.iter_mut().zip(d) {
                *a += dk * s;
            }
        }
        for (v, a) in b.vel.iter_mut().zip(acc) {
            *v += a * dt;
        }
    });
    bodies.par_iter_mut().for_each(|b| {
        for (x, v) in b.pos.iter_mut().zip(b.vel) {
            *x += v * dt;
        }
    });
}

/// One generation of Conway's life on a `rows` × `cols` torus (row-major cells, 1 = alive):
/// every cell of the next generation computed in parallel and collected.
pub fn life_step(grid: &[u8], rows: usize, cols: usize) -> Vec<u8> {
    (0..rows * cols)
        .into_par_iter()
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            let mut n = 0;
            for dr in [rows - 1, 0, 1] {
                for dc in [cols - 1, 0, 1] {
                    if dr != 0 || dc != 0 {
                        n += grid[(r + dr) % rows * cols + (c + dc) % cols];
                    }
                }
            }
            u8::from(n == 3 || (n == 2 && grid[i] == 1))
        })
        .collect()
}

/// Below this many elements the sorts recurse without `join`.
const SORT_SEQ_CUTOFF: usize = 2048;

/// Parallel quicksort: a three-way partition around the middle element (runs of equal
/// keys end up in the middle and are done), then both sides sorted with `join`.
pub fn quicksort<T: Ord + Copy + Send>(v: &mut [T]) {
    if v.len() <= SORT_SEQ_CUTOFF {
        return quicksort_seq(v);
    }
    let (lt, gt) = partition3(v);
    let (lo, rest) = v.split_at_mut(lt);
    join(|| quicksort(lo), || quicksort(&mut rest[gt - lt..]));
}

fn quicksort_seq<T: Ord + Copy>(v: &mut [T]) {
    if v.len() <= 16 {
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && v[j] < v[j - 1] {
                v.swap(j, j - 1);
                j -= 1;
            }
        }
        return;
    }
    let (lt, gt) = partition3(v);
    quicksort_seq(&mut v[..lt]);
    quicksort_seq(&mut v[gt..]);
}

/// Dutch-flag partition around the middle element: afterwards `v[..lt]` < pivot,
/// `v[lt..gt]` == pivot, `v[gt..]` > pivot. Returns `(lt, gt)`.
fn partition3<T: Ord + Copy>(v: &mut [T]) -> (usize, usize) {
    let pivot = v[v.len() / 2];
    let (mut lt, mut i, mut gt) = (0, 0, v.len());
    while i < gt {
        match v[i].cmp(&pivot) {
            std::cmp::Ordering::Less => {
                v.swap(lt, i);
                lt += 1;
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                gt -= 1;
                v.swap(i, gt);
            }
            std::cmp::Ordering::Equal => i += 1,
        }
    }
    (lt, gt)
}

/// Parallel merge sort: sort both halves with `join`, then merge them with a parallel
/// merge (split the longer run at its middle, binary-search the other, `join` the two
/// merges).
pub fn mergesort<T: Ord + Copy + Send + Sync>(v: &mut [T]) {
    let mut buf = v.to_vec();
    mergesort_into(v, &mut buf);
}

/// Sorts `v`, using `buf` (same length) as scratch space.
fn mergesort_into<T: Ord + Copy + Send + Sync>(v: &mut [T], buf: &mut [T]) {
    if v.len() <= SORT_SEQ_CUTOFF {
        v.sort();
        return;
    }
    let mid = v.len() / 2;
    {
        let (v1, v2) = v.split_at_mut(mid);
        let (b1, b2) = buf.split_at_mut(mid);
        join(|| mergesort_into(v1, b1), || mergesort_into(v2, b2));
    }
    let (a, b) = v.split_at(mid);
    par_merge(a, b, buf);
    v.copy_from_slice(buf);
}

/// Merges the sorted runs `a` and `b` into `out` (`a.len() + b.len()` long).
fn par_merge<T: Ord + Copy + Send + Sync>(a: &[T], b: &[T], out: &mut [T]) {
    if a.len() < b.len() {
        return par_merge(b, a, out);
    }
    if out.len() <= SORT_SEQ_CUTOFF {
        let (mut i, mut j) = (0, 0);
        for o in out.iter_mut() {
            // Take from `b` only when strictly smaller: equal keys keep their run's order.
            if j < b.len() && (i == a.len() || b[j] < a[i]) {
                *o = b[j];
                j += 1;
            } else {
                *o = a[i];
                i += 1;
            }
        }
        return;
    }
    let ma = a.len() / 2;
    let mb = b.partition_point(|x| x < &a[ma]);
    let (o1, o2) = out.split_at_mut(ma + mb);
    join(
        || par_merge(&a[..ma], &b[..mb], o1),
        || par_merge(&a[ma..], &b[mb..], o2),
    );
}

/// The primes below `n`: a segmented sieve (`par_chunks_mut` over segments of the flags,
/// each crossing out the multiples of the primes up to √n), then the indices of the
/// surviving flags, filtered and collected in order.
pub fn primes_below(n: usize) -> Vec<u32> {
    let base = super::small_primes((n as f64).sqrt() as usize + 1);
    let mut is_prime = vec![true; n];
    is_prime
        .par_chunks_mut(super::SIEVE_SEGMENT)
        .enumerate()
        .for_each(|(s, seg)| {
            let lo = s * super::SIEVE_SEGMENT;
            let hi = lo + seg.len();
            for &p in &base {
                let p = p as usize;
                if p * p >= hi {
                    break;
                }
                let mut m = (p * p).max(lo.div_ceil(p) * p);
                while m < hi {
                    seg[m - lo] = false;
                    m += p;
                }
            }
            for x in lo..hi.min(2) {
                seg[x - lo] = false;
            }
        });
    is_prime
        .par_iter()
        .enumerate()
        .filter(|&(_, &p)| p)
        .map(|(i, _)| i as u32)
        .collect()
}

/// The number of primes below `n` that are ≡ 1 (mod 4) (a sum of two squares):
/// `filter` over the candidates with a trial-division test, then `count`.
pub fn count_primes_1_mod_4(n: u32) -> usize {
    (0..n)
        .into_par_iter()
        .filter(|&x| x % 4 == 1 && super::is_prime(x))
        .count()
}

/// How often each word occurs in `text`: a `HashMap` per split of the lines (`fold`),
/// merged pairwise (`reduce`).
pub fn word_frequencies(text: &str) -> std::collections::HashMap<&str, usize> {
    use std::collections::HashMap;
    text.par_lines()
        .fold(HashMap::new, |mut m, line| {
            for w in line.split_whitespace() {
                *m.entry(w).or_insert(0) += 1;
            }
            m
        })
        .reduce(HashMap::new, |a, b| {
            let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
            for (w, k) in small {
                *big.entry(w).or_insert(0) += k;
            }
            big
        })
}

/// `n` × `n` matrix product (row-major): each output row is computed by its own task
/// (`par_chunks_mut` over the rows of the result), in i-k-j order.
pub fn matmul(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut c = vec![0.0; n * n];
    c.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        for k in 0..n {
            let aik = a[i * n + k];
            for (cj, bj) in row.iter_mut().zip(&b[k * n..(k + 1) * n]) {
                *cj += aik * bj;
            }
        }
    });
    c
}

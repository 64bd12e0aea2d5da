//! The surface programs (`surface.rs`) as [`WorkloadSpec`]s: their generated
//! inputs (deterministic from the seed), serial references written with std only, and
//! sizes. Four groups, named by prefix: `src-*` (sources), `ad-*` (adaptors), `con-*`
//! (consumers), `sort-*` (the three sorts on five key distributions).
//!
//! Sizes: every program names its full input size; `--quick` runs a tenth of it, the test
//! size a thousandth (at least 1,000). At full size a run takes about 2–50 ms on one core;
//! a collected output stays under 32 MB (glibc's largest mmap threshold), as a larger one
//! is a fresh mapping per run, whose page faults (≈30 ms for 80 MB) would hide the
//! iterator's own cost.

use std::collections::{BTreeMap, HashMap, HashSet, LinkedList};
use std::fmt::Debug;

use super::{boxed, no_input, on_rayon, on_splitsteal, same, spec, values, Prog, WordFreq};
use crate::sched::ParIterLib;
use crate::workloads::{DynWorkload, Group, Size, WorkloadSpec};

/// The element function of the surface programs: a cheap bijective scramble (one multiply).
pub fn scramble(x: u64) -> u64 {
    (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// A dearer element function, about 100 ns (24 rounds of splitmix), for `par_bridge`,
/// whose items go one by one through a shared iterator.
pub fn heavy(x: u64) -> u64 {
    (0..24).fold(x, |a, _| super::common::mix(a))
}

/// The input size of a program whose full size is `full`: a tenth with `--quick`, a
/// thousandth (at least 1,000) in tests.
fn z(s: Size, full: usize) -> usize {
    s.pick((full / 1000).max(1000).min(full), full / 10, full)
}

/// Values below 2^32 (so that sums of millions fit a u64), stream `stream` of `seed`.
fn vec32(n: usize, seed: u64, stream: u64) -> Vec<u64> {
    values(n, 1 << 32, seed, stream)
}

/// The bound of [`vec32`]'s values; [`marked`] puts `BOUND + 1` and `BOUND + 2` in.
const BOUND: u64 = 1 << 32;

/// [`vec32`] with two markers above the other values: `BOUND + 1` at 3/5 of the length
/// (what `find_first(x >= BOUND)` finds) and `BOUND + 2` at 4/5 (the one `find_any` and
/// `any` look for).
fn marked(n: usize, seed: u64) -> Vec<u64> {
    let mut v = vec32(n, seed, 0xF1D);
    v[n * 3 / 5] = BOUND + 1;
    v[n * 4 / 5] = BOUND + 2;
    v
}

/// Characters of [`unicode_text`]: one to four bytes long in UTF-8.
const CHARS: [char; 12] = [
    'a', 'e', 's', 't', ' ', '\n', 'é', 'ß', 'ж', 'λ', '中', '🦀',
];

/// A text of `n` characters drawn from [`CHARS`].
fn unicode_text(n: usize, seed: u64) -> String {
    (0..n as u64)
        .map(|i| CHARS[(super::common::mix(seed ^ 0xC4A5 ^ (i << 8)) % 12) as usize])
        .collect()
}

/// `n` numbers below 10^6, comma-separated.
fn csv(n: usize, seed: u64) -> String {
    let nums: Vec<String> = values(n, 1_000_000, seed, 0xC5F)
        .iter()
        .map(u64::to_string)
        .collect();
    nums.join(",")
}

/// A program that only reads `data`: its output against `serial(&data)`.
fn read_only<D, O>(
    data: D,
    serial: impl FnOnce(&D) -> O,
    run: fn(ParIterLib, &D, ()) -> O,
) -> Box<dyn DynWorkload>
where
    D: Send + Sync + 'static,
    O: PartialEq + Debug + Send + Sync + 'static,
{
    let reference = serial(&data);
    boxed(Prog {
        data,
        reference,
        input: no_input,
        run,
        compare: same,
    })
}

/// A program that rewrites a fresh copy of `data` in place (`run(lib, slice)`); the result
/// against `serial` applied to another copy.
fn in_place<T>(
    data: Vec<T>,
    serial: impl FnOnce(&mut Vec<T>),
    run: fn(ParIterLib, &mut [T]),
) -> Box<dyn DynWorkload>
where
    T: Clone + PartialEq + Debug + Send + Sync + 'static,
{
    let mut reference = data.clone();
    serial(&mut reference);
    boxed(Prog {
        data: (data, run),
        reference,
        input: |(d, _)| d.clone(),
        run: |lib, (_, f), mut v| {
            f(lib, &mut v);
            v
        },
        compare: super::same_vec,
    })
}

/// Word counts of a generated text of `words` words by `count`, against a serial count.
fn word_count(
    words: usize,
    seed: u64,
    count: for<'a> fn(ParIterLib, &'a str) -> HashMap<&'a str, usize>,
) -> Box<dyn DynWorkload> {
    let text = super::common::text(words, seed);
    let mut reference: HashMap<String, usize> = HashMap::new();
    for w in text.split_whitespace() {
        *reference.entry(w.to_string()).or_insert(0) += 1;
    }
    boxed(WordFreq {
        text,
        reference,
        count,
    })
}

/// A spec whose input size is `z(size, $full)` elements of `$unit`: the closure gets that
/// size and the seed.
macro_rules! prog {
    (
        $name:expr, $group:ident, $full:expr, $unit:expr, $desc:expr,
        |$n:ident, $seed:ident| $build:expr $(,)?
    ) => {
        spec(
            $name,
            Group::$group,
            $desc,
            |s| format!("{} {}", z(s, $full), $unit),
            |s, $seed| {
                let $n = z(s, $full);
                $build
            },
        )
    };
}

/// The sources: every family of `into_par_iter` / `par_iter` of rayon's prelude.
fn sources() -> Vec<WorkloadSpec> {
    vec![
        prog!(
            "src-slice",
            ParIterSource,
            10_000_000,
            "u64",
            "v.par_iter().map(scramble).sum()",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0x51),
                    |v| v.iter().map(|&x| scramble(x) >> 40).sum(),
                    |lib, v, ()| on!(lib, src_slice(v)),
                )
            }
        ),
        prog!(
            "src-slice-mut",
            ParIterSource,
            10_000_000,
            "u64",
            "v.par_iter_mut().for_each(|x| *x = scramble(*x))",
            |n, seed| {
                in_place(
                    vec32(n, seed, 0x52),
                    |v| v.iter_mut().for_each(|x| *x = scramble(*x)),
                    |lib, v| on!(lib, src_slice_mut(v)),
                )
            }
        ),
        prog!(
            "src-chunks",
            ParIterSource,
            4_000_000,
            "u64",
            "v.par_chunks(100).map(max).sum()",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0x53),
                    |v| {
                        v.chunks(100)
                            .map(|c| c.iter().copied().max().unwrap_or(0))
                            .sum()
                    },
                    |lib, v, ()| on!(lib, src_chunks(v)),
                )
            }
        ),
        prog!(
            "src-chunks-mut-rows",
            ParIterSource,
            10_000_000,
            "u64 (√n columns)",
            "grid.par_chunks_mut(cols).enumerate().for_each(row loop)",
            |n, seed| {
                // A square grid: the row loop reads its column count from the length.
                let cols = n.isqrt();
                in_place(
                    vec32(cols * cols, seed, 0x54),
                    |g| {
                        g.iter_mut()
                            .enumerate()
                            .for_each(|(i, x)| *x ^= scramble(i as u64))
                    },
                    |lib, g| {
                        let cols = g.len().isqrt();
                        on!(lib, src_chunks_mut_rows(g, cols))
                    },
                )
            }
        ),
        prog!(
            "src-windows",
            ParIterSource,
            4_000_000,
            "u64",
            "v.par_windows(3).filter(local maximum).count()",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0x55),
                    |v| v.windows(3).filter(|w| w[1] > w[0] && w[1] > w[2]).count(),
                    |lib, v, ()| on!(lib, src_windows(v)),
                )
            }
        ),
        prog!(
            "src-range",
            ParIterSource,
            10_000_000,
            "u64",
            "(0..n).into_par_iter().filter(scramble % 7 == 0).count()",
            |n, _seed| {
                read_only(
                    n as u64,
                    |&n| (0..n).filter(|&i| scramble(i).is_multiple_of(7)).count(),
                    |lib, &n, ()| on!(lib, src_range(n)),
                )
            }
        ),
        prog!(
            "src-range-incl",
            ParIterSource,
            20_000_000,
            "u32",
            "(1..=n).into_par_iter().map(i² mod p).sum()",
            |n, _seed| {
                read_only(
                    n as u32,
                    |&n| {
                        (1..=n)
                            .map(|i| u64::from(i) * u64::from(i) % 1_000_003)
                            .sum()
                    },
                    |lib, &n, ()| on!(lib, src_range_inclusive(n)),
                )
            }
        ),
        prog!(
            "src-chars",
            ParIterSource,
            4_000_000,
            "chars (1–4 bytes)",
            "s.par_chars().map(code × (code & 7)).sum()",
            |n, seed| {
                read_only(
                    unicode_text(n, seed),
                    |s| s.chars().map(|c| u64::from(c) * (u64::from(c) & 7)).sum(),
                    |lib, s, ()| on!(lib, src_chars(s)),
                )
            }
        ),
        prog!(
            "src-lines-wc",
            ParIterSource,
            400_000,
            "words",
            "text.par_lines().fold(HashMap::new, count).reduce(HashMap::new, merge)",
            |n, seed| word_count(n, seed, |lib, t| on!(lib, src_lines_word_count(t)))
        ),
        prog!(
            "src-split-ws-wc",
            ParIterSource,
            400_000,
            "words",
            "text.par_split_whitespace().fold(HashMap::new, count).reduce(merge)",
            |n, seed| {
                word_count(n, seed, |lib, t| {
                    on!(lib, src_split_whitespace_word_count(t))
                })
            }
        ),
        prog!(
            "src-split",
            ParIterSource,
            1_000_000,
            "numbers",
            "csv.par_split(',').map(parse).sum()",
            |n, seed| {
                read_only(
                    csv(n, seed),
                    |s| s.split(',').map(|f| f.parse::<u64>().unwrap()).sum(),
                    |lib, s, ()| on!(lib, src_split(s)),
                )
            }
        ),
        prog!(
            "src-vec-into",
            ParIterSource,
            500_000,
            "Strings",
            "v.into_par_iter().map(|s| s.len()).sum() over owned Strings",
            |n, seed| {
                let v: Vec<String> = vec32(n, seed, 0x56)
                    .iter()
                    .map(|x| format!("s{}", x % 100_000))
                    .collect();
                let reference: usize = v.iter().map(String::len).sum();
                boxed(Prog {
                    data: v,
                    reference,
                    input: Vec::clone,
                    run: |lib, _, v| on!(lib, src_vec_into(v)),
                    compare: same,
                })
            }
        ),
        prog!(
            "src-hash-map",
            ParIterSource,
            1_000_000,
            "entries",
            "HashMap::par_iter().map(scramble(k ^ v)).sum()",
            |n, seed| {
                let m: HashMap<u64, u64> = vec32(n, seed, 0x57)
                    .into_iter()
                    .map(|x| (x, x >> 3))
                    .collect();
                read_only(
                    m,
                    |m| m.iter().map(|(&k, &v)| scramble(k ^ v) >> 40).sum(),
                    |lib, m, ()| on!(lib, src_hash_map(m)),
                )
            }
        ),
        prog!(
            "src-hash-set",
            ParIterSource,
            1_000_000,
            "u64",
            "HashSet::par_iter().filter(scramble % 3 == 0).count()",
            |n, seed| {
                let s: HashSet<u64> = vec32(n, seed, 0x58).into_iter().collect();
                read_only(
                    s,
                    |s| s.iter().filter(|&&x| scramble(x).is_multiple_of(3)).count(),
                    |lib, s, ()| on!(lib, src_hash_set(s)),
                )
            }
        ),
        prog!(
            "src-btree-map",
            ParIterSource,
            1_000_000,
            "entries",
            "BTreeMap::par_iter().map(scramble(k ^ v)).sum()",
            |n, seed| {
                let m: BTreeMap<u64, u64> = vec32(n, seed, 0x59)
                    .into_iter()
                    .map(|x| (x, x >> 3))
                    .collect();
                read_only(
                    m,
                    |m| m.iter().map(|(&k, &v)| scramble(k ^ v) >> 40).sum(),
                    |lib, m, ()| on!(lib, src_btree_map(m)),
                )
            }
        ),
        prog!(
            "src-bridge",
            ParIterSource,
            200_000,
            "items of ~100 ns",
            "(0..n).map(..).par_bridge().map(heavy).sum()",
            |n, _seed| {
                read_only(
                    n as u64,
                    |&n| (0..n).map(|i| heavy(i * 3) >> 40).sum(),
                    |lib, &n, ()| on!(lib, src_bridge(n)),
                )
            }
        ),
    ]
}

/// The adaptors that split in their own way.
fn adaptors() -> Vec<WorkloadSpec> {
    vec![
        prog!(
            "ad-flat-map",
            ParIterAdaptor,
            150_000,
            "outer items (≈15.5 inner each)",
            "range.flat_map(|i| (0..i % 32).into_par_iter().map(..)).collect::<Vec<_>>()",
            |n, _seed| {
                read_only(
                    n as u64,
                    |&n| {
                        (0..n)
                            .flat_map(|i| (0..i % 32).map(move |j| i * 32 + j))
                            .collect()
                    },
                    |lib, &n, ()| on!(lib, ad_flat_map(n)),
                )
            }
        ),
        prog!(
            "ad-flat-map-iter",
            ParIterAdaptor,
            1_000_000,
            "outer items (≈15.5 inner each)",
            "(0..n).into_par_iter().flat_map_iter(|i| (0..i % 32).map(..)).sum()",
            |n, _seed| {
                read_only(
                    n as u64,
                    |&n| {
                        (0..n)
                            .flat_map(|i| (0..i % 32).map(move |j| scramble(i ^ (j << 40)) >> 40))
                            .sum()
                    },
                    |lib, &n, ()| on!(lib, ad_flat_map_iter(n)),
                )
            }
        ),
        prog!(
            "ad-chain",
            ParIterAdaptor,
            3_000_000,
            "u64 (two halves)",
            "a.par_iter().chain(b.par_iter()).map(scramble).collect::<Vec<_>>()",
            |n, seed| {
                let ab = (vec32(n / 2, seed, 0xA1), vec32(n - n / 2, seed, 0xA2));
                read_only(
                    ab,
                    |(a, b)| a.iter().chain(b).map(|&x| scramble(x)).collect(),
                    |lib, (a, b), ()| on!(lib, ad_chain(a, b)),
                )
            }
        ),
        prog!(
            "ad-zip",
            ParIterAdaptor,
            3_000_000,
            "u64 × 3",
            "a.par_iter().zip(b).zip(c).map(a × b + c).collect::<Vec<_>>()",
            |n, seed| {
                let abc = (
                    vec32(n, seed, 0xA3),
                    vec32(n, seed, 0xA4),
                    vec32(n, seed, 0xA5),
                );
                read_only(
                    abc,
                    |(a, b, c)| {
                        a.iter()
                            .zip(b)
                            .zip(c)
                            .map(|((&x, &y), &z)| x.wrapping_mul(y).wrapping_add(z))
                            .collect()
                    },
                    |lib, (a, b, c), ()| on!(lib, ad_zip(a, b, c)),
                )
            }
        ),
        prog!(
            "ad-chunks",
            ParIterAdaptor,
            4_000_000,
            "u64",
            "v.par_iter().chunks(64).map(max).sum()",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xA6),
                    |v| {
                        v.chunks(64)
                            .map(|c| c.iter().copied().max().unwrap_or(0))
                            .sum()
                    },
                    |lib, v, ()| on!(lib, ad_chunks(v)),
                )
            }
        ),
        prog!(
            "ad-step-by",
            ParIterAdaptor,
            12_000_000,
            "u64",
            "v.par_iter().step_by(3).map(scramble).sum()",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xA7),
                    |v| v.iter().step_by(3).map(|&x| scramble(x) >> 40).sum(),
                    |lib, v, ()| on!(lib, ad_step_by(v)),
                )
            }
        ),
        prog!(
            "ad-with-min-len",
            ParIterAdaptor,
            10_000_000,
            "u64",
            "(0..n).into_par_iter().with_min_len(4096).map(scramble).sum()",
            |n, _seed| {
                read_only(
                    n,
                    |&n| (0..n as u64).map(|i| scramble(i) >> 40).sum(),
                    |lib, &n, ()| on!(lib, ad_with_min_len(n)),
                )
            }
        ),
        prog!(
            "ad-enumerate",
            ParIterAdaptor,
            4_000_000,
            "u64",
            "v.par_iter().enumerate().filter(i % 3 == 0).map(i ^ x).sum()",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xA8),
                    |v| {
                        v.iter()
                            .enumerate()
                            .filter(|(i, _)| i % 3 == 0)
                            .map(|(i, &x)| i as u64 ^ x)
                            .sum()
                    },
                    |lib, v, ()| on!(lib, ad_enumerate(v)),
                )
            }
        ),
        prog!(
            "ad-skip-take",
            ParIterAdaptor,
            6_000_000,
            "u64",
            "v.par_iter().skip(n / 8).take(n / 2).map(scramble).collect::<Vec<_>>()",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xA9),
                    |v| {
                        v.iter()
                            .skip(v.len() / 8)
                            .take(v.len() / 2)
                            .map(|&x| scramble(x))
                            .collect()
                    },
                    |lib, v, ()| on!(lib, ad_skip_take(v)),
                )
            }
        ),
        prog!(
            "ad-nested",
            ParIterAdaptor,
            12_000_000,
            "u64 (√n rows of √n)",
            "rows.par_iter().map(|row| row.par_iter().sum()).sum() over long rows",
            |n, seed| {
                let r = n.isqrt();
                let rows: Vec<Vec<u64>> =
                    (0..r).map(|i| vec32(r, seed, 0xAA00 + i as u64)).collect();
                read_only(
                    rows,
                    |rows| rows.iter().flatten().sum(),
                    |lib, rows, ()| on!(lib, nested_sum(rows)),
                )
            }
        ),
    ]
}

/// `v.par_iter().map(f).collect::<$c>()` against the serial `v.iter().map(f).collect()`.
macro_rules! collect_into {
    ($name:literal, $full:expr, $c:ty, $desc:literal, $f:expr) => {
        prog!($name, ParIterConsumer, $full, "u64", $desc, |n, seed| {
            read_only(
                vec32(n, seed, 0xC0),
                |v| v.iter().map(|&x| $f(x)).collect::<$c>(),
                |lib, v, ()| on!(lib, con_collect::<_, $c, _>(v, $f)),
            )
        })
    };
}

/// The maps the consumers collect into.
type HashPairs = HashMap<u64, u64>;
type TreePairs = BTreeMap<u64, u64>;

/// A map entry for `x`: (x, x >> 3).
fn pair_of(x: u64) -> (u64, u64) {
    (x, x >> 3)
}

/// A character of [`CHARS`] for `x`.
fn char_of(x: u64) -> char {
    CHARS[(x % 12) as usize]
}

/// The consumers.
fn consumers() -> Vec<WorkloadSpec> {
    vec![
        collect_into!(
            "con-collect-vec",
            3_000_000,
            Vec<u64>,
            "v.par_iter().map(scramble).collect::<Vec<_>>() (indexed)",
            scramble
        ),
        prog!(
            "con-collect-vec-filtered",
            ParIterConsumer,
            4_000_000,
            "u64",
            "v.par_iter().filter(..).map(scramble).collect::<Vec<_>>() (unindexed)",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xC1),
                    |v| {
                        v.iter()
                            .filter(|&&x| x % 3 != 0)
                            .map(|&x| scramble(x))
                            .collect()
                    },
                    |lib, v, ()| on!(lib, con_collect_filtered(v)),
                )
            }
        ),
        collect_into!(
            "con-collect-hash-map",
            300_000,
            HashPairs,
            "v.par_iter().map(pair_of).collect::<HashMap<_, _>>()",
            pair_of
        ),
        collect_into!(
            "con-collect-hash-set",
            300_000,
            HashSet<u64>,
            "v.par_iter().map(scramble).collect::<HashSet<_>>()",
            scramble
        ),
        collect_into!(
            "con-collect-btree-map",
            300_000,
            TreePairs,
            "v.par_iter().map(pair_of).collect::<BTreeMap<_, _>>()",
            pair_of
        ),
        collect_into!(
            "con-collect-string",
            2_000_000,
            String,
            "v.par_iter().map(char_of).collect::<String>() (1–4-byte chars)",
            char_of
        ),
        collect_into!(
            "con-collect-list",
            500_000,
            LinkedList<u64>,
            "v.par_iter().map(scramble).collect::<LinkedList<_>>()",
            scramble
        ),
        prog!(
            "con-fold-reduce",
            ParIterConsumer,
            4_000_000,
            "u64",
            "v.par_iter().fold(|| [0; 16], count low bits).reduce(|| [0; 16], add)",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xC2),
                    |v| {
                        let mut h = [0u64; 16];
                        v.iter().for_each(|&x| h[(x & 15) as usize] += 1);
                        h
                    },
                    |lib, v, ()| on!(lib, con_fold_reduce(v)),
                )
            }
        ),
        prog!(
            "con-find-any",
            ParIterConsumer,
            12_000_000,
            "u64",
            "v.par_iter().find_any(== the one marker at 4/5)",
            |n, seed| {
                read_only(
                    marked(n, seed),
                    |v| v.iter().find(|&&x| x == BOUND + 2).copied(),
                    |lib, v, ()| on!(lib, con_find_any(v, BOUND + 2)),
                )
            }
        ),
        prog!(
            "con-find-first",
            ParIterConsumer,
            4_000_000,
            "u64",
            "v.par_iter().find_first(>= BOUND), markers at 3/5 and 4/5",
            |n, seed| {
                read_only(
                    marked(n, seed),
                    |v| v.iter().find(|&&x| x >= BOUND).copied(),
                    |lib, v, ()| on!(lib, con_find_first(v, BOUND)),
                )
            }
        ),
        prog!(
            "con-sum",
            ParIterConsumer,
            12_000_000,
            "u64",
            "v.par_iter().sum()",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xC3),
                    |v| v.iter().sum(),
                    |lib, v, ()| on!(lib, con_sum(v)),
                )
            }
        ),
        prog!(
            "con-min-by-key",
            ParIterConsumer,
            4_000_000,
            "u64",
            "v.par_iter().enumerate().min_by_key(x % p) (the first of several minima)",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xC4),
                    |v| {
                        v.iter()
                            .enumerate()
                            .min_by_key(|&(_, &x)| x % 1_000_003)
                            .map(|(i, &x)| (i, x))
                    },
                    |lib, v, ()| on!(lib, con_min_by_key(v)),
                )
            }
        ),
        prog!(
            "con-unzip",
            ParIterConsumer,
            2_000_000,
            "u64",
            "v.par_iter().map(|x| (x, scramble(x))).unzip() into two Vecs",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xC5),
                    |v| v.iter().map(|&x| (x, scramble(x))).unzip(),
                    |lib, v, ()| on!(lib, con_unzip(v)),
                )
            }
        ),
        prog!(
            "con-partition",
            ParIterConsumer,
            2_000_000,
            "u64",
            "v.par_iter().copied().partition(x % 3 == 0) into two Vecs",
            |n, seed| {
                read_only(
                    vec32(n, seed, 0xC6),
                    |v| v.iter().partition(|&&x| x % 3 == 0),
                    |lib, v, ()| on!(lib, con_partition(v)),
                )
            }
        ),
        prog!(
            "con-count",
            ParIterConsumer,
            1_000_000,
            "words",
            "text.par_split_whitespace().count()",
            |n, seed| {
                read_only(
                    super::common::text(n, seed),
                    |t| t.split_whitespace().count(),
                    |lib, t, ()| on!(lib, con_count_words(t)),
                )
            }
        ),
        prog!(
            "con-any-all",
            ParIterConsumer,
            8_000_000,
            "u64",
            "(v.par_iter().any(== the marker at 4/5), v.par_iter().all(<= BOUND + 2))",
            |n, seed| {
                read_only(
                    marked(n, seed),
                    |v| (v.contains(&(BOUND + 2)), v.iter().all(|&x| x <= BOUND + 2)),
                    |lib, v, ()| on!(lib, con_any_all(v, BOUND + 2, BOUND + 2)),
                )
            }
        ),
    ]
}

/// The key distributions of the sorts.
#[derive(Debug, Clone, Copy)]
enum Keys {
    /// Uniform random u64.
    Uniform,
    /// n / 1000 distinct values (5,000 among 5M keys), uniformly drawn.
    FewDistinct,
    /// Uniform random, sorted ascending.
    Sorted,
    /// Uniform random, sorted descending.
    Reversed,
    /// Sorted, then 2% of the keys swapped with random others.
    AlmostSorted,
}

/// `n` keys of distribution `k`.
fn keys(k: Keys, n: usize, seed: u64) -> Vec<u64> {
    let few = (n as u64 / 1000).max(1);
    let mut v = values(
        n,
        if matches!(k, Keys::FewDistinct) {
            few
        } else {
            u64::MAX
        },
        seed,
        0x5047,
    );
    match k {
        Keys::Uniform | Keys::FewDistinct => {}
        Keys::Sorted => v.sort_unstable(),
        Keys::Reversed => v.sort_unstable_by(|a, b| b.cmp(a)),
        Keys::AlmostSorted => {
            v.sort_unstable();
            let swaps = values(2 * (n / 50), n as u64, seed, 0x5A9);
            for p in swaps.chunks_exact(2) {
                v.swap(p[0] as usize, p[1] as usize);
            }
        }
    }
    v
}

/// The sorts: `par_sort`, `par_sort_unstable`, `par_sort_by_key` × the five [`Keys`]
/// (`$full`: the full size; `$short` names the distribution in the program's name, `$what`
/// describes it).
macro_rules! sorts {
    ($($dist:ident $full:literal $short:literal $what:literal;)*) => {
        vec![$(
            prog!(
                concat!("sort-stable-", $short), ParIterSort, $full, "u64",
                concat!("v.par_sort() of ", $what),
                |n, seed| in_place(
                    keys(Keys::$dist, n, seed),
                    |v| v.sort(),
                    |lib, v| on!(lib, sort_stable(v)),
                ),
            ),
            prog!(
                concat!("sort-unstable-", $short), ParIterSort, $full, "u64",
                concat!("v.par_sort_unstable() of ", $what),
                |n, seed| in_place(
                    keys(Keys::$dist, n, seed),
                    |v| v.sort_unstable(),
                    |lib, v| on!(lib, sort_unstable(v)),
                ),
            ),
            prog!(
                concat!("sort-by-key-", $short), ParIterSort, $full, "(u64, u32)",
                concat!("v.par_sort_by_key(|p| p.0) of (key, index) pairs, keys ", $what),
                |n, seed| in_place(
                    keys(Keys::$dist, n, seed).into_iter().zip(0u32..).collect(),
                    |v| v.sort_by_key(|p| p.0),
                    |lib, v| on!(lib, sort_by_key(v)),
                ),
            ),
        )*]
    };
}

/// The surface programs in report order: sources, adaptors, consumers, sorts.
pub fn programs() -> Vec<WorkloadSpec> {
    let mut v = sources();
    v.extend(adaptors());
    v.extend(consumers());
    v.extend(sorts! {
        // Sorted and reversed inputs take one pass: five times the elements.
        Uniform 1_000_000 "uniform" "uniform random u64";
        FewDistinct 1_000_000 "few" "few distinct u64 (n / 1000 values: 5,000 among 5M)";
        Sorted 5_000_000 "sorted" "sorted u64";
        Reversed 5_000_000 "reversed" "reversed u64";
        AlmostSorted 1_000_000 "almost" "almost-sorted u64 (2% of the keys swapped)";
    });
    v
}

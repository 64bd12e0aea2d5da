//! `pbbs`: the PBBS workloads on PBBS's standard input files, judged by PBBS's checkers ([`crate::pbbs_io::check`]).
//!
//! The inputs are PBBS-format files: those of `--pbbs-dir DIR` (recognised by PBBS's file
//! names, e.g. `randomSeq_10M_int`, and checked against the header their name implies), or
//! else the standard inputs ([`generate::standard_inputs`]) written at the run's size into
//! a temporary folder and read back through the same reader. Each file runs the PBBS
//! benchmarks PBBS runs on it:
//!
//! | file | benchmarks |
//! |---|---|
//! | `{randomSeq,exptSeq,almostSortedSeq}_<n>[_<range>]_int` | integerSort; removeDuplicates without a range (randomSeq, exptSeq); histogram with a range up to 2^20 (its buckets) |
//! | `*Seq_<n>_double` | comparisonSort |
//! | `*Graph_*` (text `AdjacencyGraph`, or pbbsbench's `.bin`) | BFS from vertex 0, MIS |
//! | `2D*` (`pbbs_sequencePoint2d`) | convexHull |
//! | `trigramString_<n>` (PBBS words) | wordCounts |
//!
//! Each benchmark runs, at 1 and 2 threads (or `--threads`): splitsteal's `par` algorithm
//! of the suite's PBBS workloads on splitsteal pools (chase-lev, hybrid and lcws-signal by
//! default; the table shows the best of them and lcws-signal), the same code on the serial
//! elision, and rayon **as a Rust user would call it**: `par_sort_unstable` (integerSort),
//! `par_sort_by` (comparisonSort), a `par_chunks().fold().reduce()` histogram, a
//! `par_iter().collect::<HashSet>()` dedup and a `flat_map_iter` frontier BFS. Rayon has no
//! MIS, hull or word-count idiom of its own, so there the rayon column runs the same `par`
//! algorithm on `rayon::join`; the table's last column says which.
//!
//! Types: PBBS's integer files are read as `u32` keys (a value outside `0..2^32` is an
//! error naming the file), as the suite's integer workloads sort `u32`. PBBS's points are
//! doubles; the hull workload is exact on integers, so the points are **converted**
//! explicitly, scaled into the integer grid `|x|, |y| <= 2^29 - 1` and rounded
//! ([`to_grid`]), and the hull (and its check) is of the grid points.
//!
//! Default sizes: 10^6 elements per input (about a minute and a half on 2 cores), 50,000
//! with `--quick`; `--pbbs-n` overrides. The table at PBBS's 10^7:
//! `splitsteal bench --gen-pbbs pbbs-10M && splitsteal bench --pbbs-dir pbbs-10M`
//! (or `splitsteal bench --mode pbbs --pbbs-n 10000000`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use splitsteal::{par, ForkJoin, Policy};
use splitsteal_report::tell;

use crate::modes::{Env, ModeOutput};
use crate::pbbs_io::check::{self, SortedPermutation};
use crate::pbbs_io::format::{self, PbbsData};
use crate::pbbs_io::generate;
use crate::plot::Bars;
use crate::report::{fill_ratios, fmt_ratio, fmt_secs, Record, Table};
use crate::runner::{self, build_pools, Reps};
use crate::sched::{SchedulerKind, Workload};
use crate::workloads::pbbs::graph::{self, Graph, NONE};
use crate::workloads::pbbs::hull::{self, Pt};
use crate::workloads::pbbs::text;
use crate::workloads::Size;

/// The experiment's name in records.
pub const EXPERIMENT: &str = "pbbs";

/// Default repetitions (test, quick, full).
pub const REPS: (usize, usize, usize) = (1, 2, 3);

/// The splitsteal policies run by default; the table shows the best and lcws-signal.
pub const POLICIES: [Policy; 3] = [Policy::ChaseLev, Policy::Hybrid, Policy::LcwsSignal];

/// Elements per generated input (test, quick, full) without `--pbbs-n`.
pub fn default_n(size: Size) -> usize {
    size.pick(2_000, 50_000, 1_000_000)
}

/// A PBBS benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bench {
    /// integerSort.
    IntegerSort,
    /// comparisonSort.
    ComparisonSort,
    /// histogram, with its bucket count.
    Histogram(usize),
    /// removeDuplicates.
    RemoveDuplicates,
    /// wordCounts.
    WordCounts,
    /// breadthFirstSearch.
    Bfs,
    /// maximalIndependentSet.
    Mis,
    /// convexHull.
    Hull,
}

impl Bench {
    /// PBBS's name of the benchmark.
    pub fn name(self) -> &'static str {
        match self {
            Bench::IntegerSort => "integerSort",
            Bench::ComparisonSort => "comparisonSort",
            Bench::Histogram(_) => "histogram",
            Bench::RemoveDuplicates => "removeDuplicates",
            Bench::WordCounts => "wordCounts",
            Bench::Bfs => "BFS",
            Bench::Mis => "MIS",
            Bench::Hull => "convexHull",
        }
    }

    /// What the rayon column runs.
    pub fn rayon_code(self) -> &'static str {
        match self {
            Bench::IntegerSort => "par_sort_unstable",
            Bench::ComparisonSort => "par_sort_by(total_cmp)",
            Bench::Histogram(_) => "par_chunks().fold().reduce()",
            Bench::RemoveDuplicates => "par_iter().collect::<HashSet>()",
            Bench::Bfs => "par_iter().flat_map_iter() + CAS",
            Bench::WordCounts | Bench::Mis | Bench::Hull => "same par algorithm on rayon::join",
        }
    }
}

/// What a recognised file must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `sequenceInt`.
    Ints,
    /// `sequenceDouble`.
    Doubles,
    /// `AdjacencyGraph` or the binary graph.
    Graph,
    /// `pbbs_sequencePoint2d`.
    Points,
    /// Words: `sequenceChar` and text, or PBBS's plain text ([`format::read_words`]).
    Words,
}

impl Kind {
    fn header(self) -> &'static str {
        match self {
            Kind::Ints => "sequenceInt",
            Kind::Doubles => "sequenceDouble",
            Kind::Graph => "AdjacencyGraph",
            Kind::Points => "pbbs_sequencePoint2d",
            Kind::Words => "sequenceChar",
        }
    }
}

/// PBBS's size or range suffix: `256`, `100K`, `10M`, `2^31`.
pub fn parse_count(s: &str) -> Option<u64> {
    if let Some((b, e)) = s.split_once('^') {
        return b.parse::<u64>().ok()?.checked_pow(e.parse().ok()?);
    }
    let (num, mult) = match s.as_bytes().last()? {
        b'K' => (&s[..s.len() - 1], 1_000),
        b'M' => (&s[..s.len() - 1], 1_000_000),
        b'G' => (&s[..s.len() - 1], 1_000_000_000),
        _ => (s, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(mult)
}

/// The largest histogram range run (PBBS's histogram files use 256 and 100K buckets).
pub const MAX_BUCKETS: u64 = 1 << 20;

/// What a PBBS file name says: the format its contents must have and the benchmarks PBBS
/// runs on it; `None` for a name that is not one of PBBS's input names.
pub fn recognise(name: &str) -> Option<(Kind, Vec<Bench>)> {
    let parts: Vec<&str> = name.split('_').collect();
    let (first, last) = (parts[0], *parts.last()?);
    if first.ends_with("Graph") || first.ends_with("Graph.bin") || name.ends_with("Graph.bin") {
        return Some((Kind::Graph, vec![Bench::Bfs, Bench::Mis]));
    }
    if first.starts_with("2D") && parts.len() >= 2 {
        return Some((Kind::Points, vec![Bench::Hull]));
    }
    if first.starts_with("trigram") && parts.len() >= 2 {
        return Some((Kind::Words, vec![Bench::WordCounts]));
    }
    if !["randomSeq", "exptSeq", "almostSortedSeq"].contains(&first) || parts.len() < 3 {
        return None;
    }
    parse_count(parts[1])?;
    match (last, parts.len()) {
        ("double", _) => Some((Kind::Doubles, vec![Bench::ComparisonSort])),
        ("int", 3) if first != "almostSortedSeq" => Some((
            Kind::Ints,
            vec![Bench::IntegerSort, Bench::RemoveDuplicates],
        )),
        ("int", 3) => Some((Kind::Ints, vec![Bench::IntegerSort])),
        ("int", 4) => {
            let range = parse_count(parts[2])?;
            let mut b = vec![Bench::IntegerSort];
            if range <= MAX_BUCKETS {
                b.push(Bench::Histogram(range as usize));
            }
            Some((Kind::Ints, b))
        }
        _ => None,
    }
}

/// PBBS's doubles mapped into the integer grid of the hull workload: every coordinate
/// scaled by `(2^29 - 1) / max |coordinate|` and rounded, which keeps the orientation tests
/// exact in `i64`. Non-finite coordinates are an error.
pub fn to_grid(pts: &[(f64, f64)]) -> Result<Vec<Pt>, String> {
    const GRID: f64 = ((1u64 << 29) - 1) as f64;
    let mut max = 0f64;
    for (i, &(x, y)) in pts.iter().enumerate() {
        if !x.is_finite() || !y.is_finite() {
            return Err(format!("point {i} ({x}, {y}) is not finite"));
        }
        max = max.max(x.abs()).max(y.abs());
    }
    let scale = if max > 0.0 { GRID / max } else { 1.0 };
    Ok(pts
        .iter()
        .map(|&(x, y)| ((x * scale).round() as i64, (y * scale).round() as i64))
        .collect())
}

/// A file's contents in the workloads' types.
#[derive(Debug)]
pub enum Data {
    /// Integer keys.
    Keys(Vec<u32>),
    /// Doubles.
    Doubles(Vec<f64>),
    /// A graph (CSR).
    Graph(Graph),
    /// Points on the integer grid ([`to_grid`]).
    Points(Vec<Pt>),
    /// Text of words.
    Text(Vec<u8>),
}

/// Reads `path` (named `name`, recognised as `kind`) into the workloads' types; errors name
/// the file (and line, for malformed text).
pub fn load(path: &Path, kind: Kind) -> Result<Data, String> {
    let shown = path.display();
    let data = match kind {
        Kind::Words => PbbsData::Words(format::read_words(path)?),
        _ => format::read(path)?,
    };
    let wrong = |d: &PbbsData| {
        format!(
            "{shown}:1: header '{}', but a file of this name holds {}",
            d.header(),
            kind.header()
        )
    };
    Ok(match (kind, data) {
        (Kind::Ints, PbbsData::Ints(v)) => Data::Keys(
            v.iter()
                .enumerate()
                .map(|(i, &x)| {
                    u32::try_from(x).map_err(|_| {
                        format!(
                            "{shown}: value {} ({x}) is not in 0..2^32 (the integer benchmarks sort u32 keys)",
                            i + 1
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
        ),
        (Kind::Doubles, PbbsData::Doubles(v)) => Data::Doubles(v),
        (Kind::Graph, PbbsData::Adjacency(g)) => {
            let (offsets, adj) = g.to_csr();
            Data::Graph(Graph { offsets, adj })
        }
        (Kind::Points, PbbsData::Points2d(p)) => {
            Data::Points(to_grid(&p).map_err(|e| format!("{shown}: {e}"))?)
        }
        (Kind::Words, PbbsData::Words(t)) => Data::Text(t),
        (_, d) => return Err(wrong(&d)),
    })
}

/// The check of one case, prepared once (the reference sort, the BFS depths).
enum Checker {
    Keys(SortedPermutation<u32>),
    Doubles(SortedPermutation<f64>),
    Histogram,
    Dedup,
    Bfs(Vec<u32>),
    Mis,
    Hull,
    Words,
}

/// One benchmark on one file.
pub struct Case {
    /// The file's name.
    pub file: String,
    /// The benchmark.
    pub bench: Bench,
    data: Arc<Data>,
    checker: Checker,
    seed: u64,
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Case({} on {})", self.bench.name(), self.file)
    }
}

/// BFS source: PBBS's default, vertex 0.
pub const BFS_SOURCE: u32 = 0;

impl Case {
    /// Prepares `bench` on `data` (the checker's reference work is done here, once).
    pub fn new(file: &str, bench: Bench, data: Arc<Data>, seed: u64) -> Result<Case, String> {
        let checker = match (bench, &*data) {
            (Bench::IntegerSort, Data::Keys(k)) => {
                Checker::Keys(SortedPermutation::new(k, u32::cmp))
            }
            (Bench::ComparisonSort, Data::Doubles(d)) => {
                Checker::Doubles(SortedPermutation::new(d, f64::total_cmp))
            }
            (Bench::Histogram(b), Data::Keys(k)) => {
                if let Some(x) = k.iter().find(|&&x| x as usize >= b) {
                    return Err(format!(
                        "{file}: key {x} is past the {b} buckets its name gives"
                    ));
                }
                Checker::Histogram
            }
            (Bench::RemoveDuplicates, Data::Keys(_)) => Checker::Dedup,
            (Bench::Bfs, Data::Graph(g)) => {
                if g.n() == 0 {
                    return Err(format!(
                        "{file}: a graph without vertices has no BFS source"
                    ));
                }
                Checker::Bfs(graph::bfs_depths_reference(g, BFS_SOURCE))
            }
            (Bench::Mis, Data::Graph(_)) => Checker::Mis,
            (Bench::Hull, Data::Points(_)) => Checker::Hull,
            (Bench::WordCounts, Data::Text(_)) => Checker::Words,
            (b, _) => return Err(format!("{file}: {} does not run on this data", b.name())),
        };
        Ok(Case {
            file: file.to_string(),
            bench,
            data,
            checker,
            seed,
        })
    }

    /// The record's workload name: benchmark and file.
    pub fn label(&self) -> String {
        format!("{}/{}", self.bench.name(), self.file)
    }
}

/// What one run consumes: a fresh copy of the array a sort sorts in place.
pub enum RunInput {
    /// Keys to sort.
    Keys(Vec<u32>),
    /// Doubles to sort.
    Doubles(Vec<f64>),
    /// The benchmark reads the case's data.
    None,
}

/// What one run produces.
#[derive(Debug)]
pub enum Out {
    /// Sorted keys, or the distinct keys.
    Keys(Vec<u32>),
    /// Sorted doubles.
    Doubles(Vec<f64>),
    /// Histogram counts.
    Counts(Vec<usize>),
    /// BFS parents.
    Parents(Vec<u32>),
    /// MIS membership.
    Flags(Vec<bool>),
    /// Hull vertices.
    Hull(Vec<Pt>),
    /// Word counts: (start, length, count).
    Words(Vec<(u32, u32, u32)>),
}

/// Keys per chunk of the rayon histogram (each fold allocates its own buckets).
const RAYON_HIST_CHUNK: usize = 1 << 16;

/// rayon's histogram as a user writes it: per-chunk counts folded, then added up.
pub fn rayon_histogram(keys: &[u32], buckets: usize) -> Vec<usize> {
    keys.par_chunks(RAYON_HIST_CHUNK)
        .fold(
            || vec![0usize; buckets],
            |mut h, c| {
                for &k in c {
                    h[k as usize] += 1;
                }
                h
            },
        )
        .reduce(
            || vec![0usize; buckets],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// rayon's dedup as a user writes it: collect into a `HashSet`.
pub fn rayon_dedup(keys: &[u32]) -> Vec<u32> {
    let set: HashSet<u32> = keys.par_iter().copied().collect();
    set.into_iter().collect()
}

/// rayon's BFS as a user writes it: each round, the frontier's neighbours claimed with a
/// CAS on their parent form the next frontier (`flat_map_iter`).
pub fn rayon_bfs(g: &Graph, src: u32) -> Vec<u32> {
    let parent: Vec<AtomicU32> = (0..g.n())
        .into_par_iter()
        .map(|_| AtomicU32::new(NONE))
        .collect();
    // Relaxed throughout: the parent word is the only data, and each round ends at
    // rayon's join, which orders it before the next.
    parent[src as usize].store(src, Ordering::Relaxed);
    let mut frontier = vec![src];
    while !frontier.is_empty() {
        frontier = frontier
            .par_iter()
            .flat_map_iter(|&v| {
                let parent = &parent;
                g.neighbors(v).iter().copied().filter(move |&u| {
                    parent[u as usize]
                        .compare_exchange(NONE, v, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                })
            })
            .collect();
    }
    parent.into_iter().map(AtomicU32::into_inner).collect()
}

impl Workload for Case {
    type Input = RunInput;
    type Output = Out;

    fn input(&self) -> RunInput {
        match (self.bench, &*self.data) {
            (Bench::IntegerSort, Data::Keys(k)) => RunInput::Keys(k.clone()),
            (Bench::ComparisonSort, Data::Doubles(d)) => RunInput::Doubles(d.clone()),
            _ => RunInput::None,
        }
    }

    fn run<C: ForkJoin>(&self, c: &mut C, input: RunInput) -> Out {
        // Inside a rayon pool (the rayon cells), rayon's own API where it has one.
        let rayon_api = rayon::current_thread_index().is_some();
        match (self.bench, &*self.data, input) {
            (Bench::IntegerSort, _, RunInput::Keys(mut v)) => {
                if rayon_api {
                    v.par_sort_unstable();
                } else {
                    par::integer_sort(c, &mut v);
                }
                Out::Keys(v)
            }
            (Bench::ComparisonSort, _, RunInput::Doubles(mut v)) => {
                if rayon_api {
                    v.par_sort_by(f64::total_cmp);
                } else {
                    par::sort_unstable_by(c, &mut v, f64::total_cmp);
                }
                Out::Doubles(v)
            }
            (Bench::Histogram(b), Data::Keys(k), _) => Out::Counts(if rayon_api {
                rayon_histogram(k, b)
            } else {
                par::histogram(c, k, b, |&x| x as usize)
            }),
            (Bench::RemoveDuplicates, Data::Keys(k), _) => Out::Keys(if rayon_api {
                rayon_dedup(k)
            } else {
                par::remove_duplicates(c, k)
            }),
            (Bench::Bfs, Data::Graph(g), _) => Out::Parents(if rayon_api {
                rayon_bfs(g, BFS_SOURCE)
            } else {
                graph::bfs(c, g, BFS_SOURCE).0
            }),
            (Bench::Mis, Data::Graph(g), _) => Out::Flags(graph::mis(c, g, self.seed)),
            (Bench::Hull, Data::Points(p), _) => Out::Hull(hull::quickhull(c, p)),
            (Bench::WordCounts, Data::Text(t), _) => Out::Words(text::word_counts(c, t)),
            (b, _, _) => panic!("{} has no data of its kind (Case::new checks)", b.name()),
        }
    }

    fn check(&self, out: &Out) -> Result<(), String> {
        match (&self.checker, &*self.data, out) {
            (Checker::Keys(s), _, Out::Keys(v)) => s.check(v, u32::cmp),
            (Checker::Doubles(s), _, Out::Doubles(v)) => s.check(v, f64::total_cmp),
            (Checker::Histogram, Data::Keys(k), Out::Counts(c)) => check::histogram(k, c),
            (Checker::Dedup, Data::Keys(k), Out::Keys(v)) => check::dedup(k, v),
            (Checker::Bfs(depth), Data::Graph(g), Out::Parents(p)) => {
                check::bfs_tree_with_depths(g, BFS_SOURCE, depth, p)
            }
            (Checker::Mis, Data::Graph(g), Out::Flags(f)) => check::mis(g, f),
            (Checker::Hull, Data::Points(p), Out::Hull(h)) => check::hull(p, h),
            (Checker::Words, Data::Text(t), Out::Words(w)) => {
                check::word_counts(t, w, text::is_letter)
            }
            _ => Err(format!("{:?}: the output is of the wrong kind", self)),
        }
    }
}

/// Where the pbbs mode's inputs come from, and what was loaded up front.
#[derive(Clone, Default)]
pub struct Source {
    /// `--pbbs-dir`: read the PBBS files there.
    pub dir: Option<PathBuf>,
    /// `--pbbs-n`: elements per generated input.
    pub n: Option<usize>,
    /// The cases of `dir`, loaded by [`prepare`] before anything runs.
    loaded: Arc<Mutex<Option<Vec<Case>>>>,
}

impl Source {
    /// `--pbbs-dir` and `--pbbs-n`.
    pub fn new(dir: Option<PathBuf>, n: Option<usize>) -> Source {
        Source {
            dir,
            n,
            loaded: Arc::default(),
        }
    }
}

/// A recognised file: its name, what it must hold, the benchmarks run on it.
pub type Found = (String, Kind, Vec<Bench>);

/// The files of `dir` PBBS's names recognise, sorted by name, and the names skipped.
pub fn scan(dir: &Path) -> Result<(Vec<Found>, Vec<String>), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("--pbbs-dir {}: {e}", dir.display()))?;
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    for e in entries.flatten() {
        if !e.path().is_file() {
            continue;
        }
        let name = e.file_name().to_string_lossy().into_owned();
        match recognise(&name) {
            Some((k, b)) => found.push((name, k, b)),
            None => skipped.push(name),
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    skipped.sort();
    Ok((found, skipped))
}

/// Loads every recognised file of `dir` into cases; the first malformed file is the error.
pub fn load_dir(dir: &Path, seed: u64) -> Result<Vec<Case>, String> {
    let (found, skipped) = scan(dir)?;
    for s in &skipped {
        tell!("pbbs: skipped {s} (not a PBBS input name)");
    }
    if found.is_empty() {
        return Err(format!(
            "--pbbs-dir {}: no PBBS input files (names like randomSeq_10M_int, rMatGraph_J_5_10M, 2DinSphere_10M; \
             bench --gen-pbbs writes them)",
            dir.display()
        ));
    }
    let mut cases = Vec::new();
    for (name, kind, benches) in found {
        let data = Arc::new(load(&dir.join(&name), kind)?);
        for b in benches {
            cases.push(Case::new(&name, b, data.clone(), seed)?);
        }
    }
    Ok(cases)
}

/// Loads `--pbbs-dir`'s files before anything runs, so that a malformed file is a usage
/// error (exit 2) naming it; nothing to do for generated inputs.
pub fn prepare(env: &Env) -> Result<(), String> {
    let Some(dir) = &env.pbbs.dir else {
        return Ok(());
    };
    let cases = load_dir(dir, env.seed)?;
    *env.pbbs.loaded.lock().unwrap_or_else(|e| e.into_inner()) = Some(cases);
    Ok(())
}

/// The cells run: `--policy`'s selection, or serial, [`POLICIES`] and rayon.
pub fn kinds(env: &Env) -> Vec<SchedulerKind> {
    if env.kinds == SchedulerKind::all() {
        let mut k = vec![SchedulerKind::Serial];
        k.extend(POLICIES.iter().map(|&p| SchedulerKind::Splitsteal(p)));
        k.push(SchedulerKind::Rayon);
        k
    } else {
        env.kinds.clone()
    }
}

fn cells(env: &Env) -> Vec<runner::Cell> {
    runner::cells(&kinds(env), &env.threads_or(&[1, 2]))
}

/// Runs planned by [`run`].
pub fn planned_runs(env: &Env) -> u64 {
    let cases = match &env.pbbs.dir {
        Some(_) => env
            .pbbs
            .loaded
            .lock()
            .map(|l| l.as_ref().map_or(0, |c| c.len()))
            .unwrap_or(0),
        None => generate::standard_names(env.pbbs.n.unwrap_or(default_n(env.size)))
            .iter()
            .filter_map(|n| recognise(n))
            .map(|(_, b)| b.len())
            .sum(),
    };
    let reps = env.reps_or(REPS.0, REPS.1, REPS.2) + env.warmup;
    (cases * cells(env).len() * reps) as u64
}

/// Generates the standard inputs into a temporary folder and reads them back as the
/// files of `--pbbs-dir` are read.
fn generated_cases(env: &Env, n: usize) -> Result<Vec<Case>, String> {
    let dir = std::env::temp_dir().join(format!("splitsteal-pbbs-{}", std::process::id()));
    let res =
        generate::write_standard_inputs(&dir, n, env.seed).and_then(|_| load_dir(&dir, env.seed));
    let _ = std::fs::remove_dir_all(&dir);
    res
}

/// Runs the experiment.
pub fn run(env: &Env) -> ModeOutput {
    let n = env.pbbs.n.unwrap_or(default_n(env.size));
    let loaded = env
        .pbbs
        .loaded
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    let (cases, origin) = match (&env.pbbs.dir, loaded) {
        (Some(dir), Some(c)) => (Ok(c), format!("the PBBS files of {}", dir.display())),
        (Some(dir), None) => (
            load_dir(dir, env.seed),
            format!("the PBBS files of {}", dir.display()),
        ),
        (None, _) => {
            env.progress
                .msg(format!("generating the PBBS inputs ({n} elements)"));
            (
                generated_cases(env, n),
                format!(
                    "PBBS's standard inputs generated at {n} elements (seed {:#x}), written and read back as PBBS files",
                    env.seed
                ),
            )
        }
    };
    let cases = match cases {
        Ok(c) => c,
        Err(e) => {
            let mut r = Record::new(EXPERIMENT, "inputs", &origin, "-", 0);
            r.error = Some(e.clone());
            env.progress.println(format!("FAILED: pbbs inputs: {e}"));
            return ModeOutput {
                records: vec![r],
                notes: vec![format!("pbbs: the inputs could not be made: {e}")],
                ..Default::default()
            };
        }
    };
    let scheds = build_pools(&cells(env), env.pool_options);
    let reps = Reps {
        warmup: env.warmup,
        reps: env.reps_or(REPS.0, REPS.1, REPS.2),
    };
    let mut records = Vec::new();
    for case in &cases {
        let mut recs = runner::measure(
            EXPERIMENT,
            &case.label(),
            &case.file,
            case,
            &scheds,
            reps,
            &env.progress,
            &env.watchdog,
        );
        for r in &mut recs {
            r.extra.insert("n".into(), n as f64);
        }
        env.save_partial(&recs);
        records.extend(recs);
    }
    drop(scheds);
    fill_ratios(&mut records);
    let mut out = ModeOutput {
        tables: tables(&records, &cases),
        records,
        notes: notes(&origin),
        ..Default::default()
    };
    plot(env, &mut out, &cases);
    out
}

fn notes(origin: &str) -> Vec<String> {
    vec![
        format!(
            "Inputs: {origin}. Every output is judged by PBBS's checkers' semantics (pbbs_io::check): sorted and a permutation \
             of the input; duplicates removed and the same set; counts equal; a valid BFS tree from vertex 0; an independent and \
             maximal set; a strictly convex counter-clockwise hull enclosing every point; each word once with its count."
        ),
        "splitsteal runs the suite's par algorithms (radix sort, merge sort, histogram, hash dedup, frontier BFS, rounds MIS, \
         quickhull, sort-based word count); 'best' is the fastest of the splitsteal policies run. rayon runs rayon's own API \
         where it has one (last column). Points are PBBS's doubles scaled onto an integer grid of ±(2^29 - 1) and rounded, \
         because the hull workload is exact on integers; integer files are read as u32 keys."
            .into(),
    ]
}

fn rec<'a>(records: &'a [Record], case: &Case, sched: &str, t: usize) -> Option<&'a Record> {
    records
        .iter()
        .find(|r| r.workload == case.label() && r.scheduler == sched && r.threads == t)
}

/// The fastest verified splitsteal record of `case` at `t` threads.
fn best<'a>(records: &'a [Record], case: &Case, t: usize) -> Option<&'a Record> {
    records
        .iter()
        .filter(|r| r.workload == case.label() && r.threads == t && r.verified)
        .filter(|r| !["serial", "rayon", "chili"].contains(&r.scheduler.as_str()))
        .filter(|r| r.median_s.is_some())
        .min_by(|a, b| {
            a.median_s
                .unwrap_or(f64::MAX)
                .total_cmp(&b.median_s.unwrap_or(f64::MAX))
        })
}

fn time_of(r: Option<&Record>) -> String {
    match r {
        None => "-".into(),
        Some(r) if !r.verified => "FAILED".into(),
        Some(r) => r.median_s.map_or("-".into(), fmt_secs),
    }
}

/// The thread counts present, ascending.
fn thread_counts(records: &[Record]) -> Vec<usize> {
    let mut t: Vec<usize> = records
        .iter()
        .filter(|r| r.scheduler != "serial" && r.threads > 0)
        .map(|r| r.threads)
        .collect();
    t.sort_unstable();
    t.dedup();
    t
}

/// One table: a row per (benchmark, file), per thread count the best policy, lcws-signal
/// and rayon, and the best policy's time ÷ rayon's (×rayon).
pub fn tables(records: &[Record], cases: &[Case]) -> Vec<Table> {
    if cases.is_empty() {
        return Vec::new();
    }
    let ts = thread_counts(records);
    let mut header: Vec<String> = vec!["benchmark".into(), "input".into(), "serial".into()];
    for t in &ts {
        header.push(format!("best@{t}"));
        header.push(format!("lcws-signal@{t}"));
        header.push(format!("rayon@{t}"));
        header.push(format!("best ×rayon@{t}"));
    }
    header.push("rayon's code".into());
    let h: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut tab = Table::new(
        "pbbs: PBBS benchmarks on PBBS-format inputs, median time per run (best = fastest splitsteal policy)",
        &h,
    );
    for case in cases {
        let mut row = vec![
            case.bench.name().to_string(),
            case.file.clone(),
            time_of(rec(records, case, "serial", 1)),
        ];
        for &t in &ts {
            let b = best(records, case, t);
            row.push(match b {
                Some(r) => format!("{} ({})", time_of(Some(r)), r.scheduler),
                None => "-".into(),
            });
            row.push(time_of(rec(records, case, "lcws-signal", t)));
            let ry = rec(records, case, "rayon", t);
            row.push(time_of(ry));
            row.push(fmt_ratio(
                match (ry.and_then(|r| r.median_s), b.and_then(|r| r.median_s)) {
                    (Some(a), Some(b)) if a > 0.0 && ry.is_some_and(|r| r.verified) => Some(b / a),
                    _ => None,
                },
            ));
        }
        row.push(case.bench.rayon_code().into());
        tab.row(row);
    }
    tab.notes.push(
        "best ×rayon = the best policy's time ÷ rayon's; below 1: splitsteal's best policy is faster than rayon's own API at that thread count. FAILED: an output \
         the checker rejected (the record's error says why); such a cell is never timed."
            .into(),
    );
    vec![tab]
}

fn plot(env: &Env, out: &mut ModeOutput, cases: &[Case]) {
    let Some(&t) = thread_counts(&out.records).last() else {
        return;
    };
    let ms = |r: Option<&Record>| {
        r.filter(|r| r.verified)
            .and_then(|r| r.median_s)
            .map(|s| s * 1e3)
    };
    let recs = &out.records;
    let series: Vec<(String, Vec<Option<f64>>)> = vec![
        (
            "serial".into(),
            cases
                .iter()
                .map(|c| ms(rec(recs, c, "serial", 1)))
                .collect(),
        ),
        (
            format!("best policy@{t}"),
            cases.iter().map(|c| ms(best(recs, c, t))).collect(),
        ),
        (
            format!("lcws-signal@{t}"),
            cases
                .iter()
                .map(|c| ms(rec(recs, c, "lcws-signal", t)))
                .collect(),
        ),
        (
            format!("rayon@{t}"),
            cases.iter().map(|c| ms(rec(recs, c, "rayon", t))).collect(),
        ),
    ];
    let bars = Bars {
        title: format!("PBBS benchmarks on PBBS inputs: median ms per run, {t} threads"),
        y_desc: "ms per run".into(),
        categories: cases
            .iter()
            .map(|c| format!("{} {}", c.bench.name(), short_name(&c.file)))
            .collect(),
        series,
        log_y: true,
        reference: None,
    };
    let title = bars.title.clone();
    env.plot(&mut out.plots, &mut out.notes, "pbbs.svg", &title, |p| {
        bars.draw(p)
    });
}

/// A file name without its size, for the plot's labels: `randomSeq_1M_256_int` ->
/// `randomSeq 256 int`.
fn short_name(file: &str) -> String {
    let parts: Vec<&str> = file.split('_').collect();
    parts
        .iter()
        .enumerate()
        .filter(|(i, p)| !(*i == 1 && parse_count(p).is_some() && parts.len() > 2) && **p != "J")
        .map(|(_, p)| *p)
        .collect::<Vec<_>>()
        .join(" ")
}

//! Issue 10's shapes: parallel code users write every day, in which the coarse work sits
//! behind a few pending tasks or at the bottom of a long chain of joins. A scheduler that
//! commits some joins to sequential execution (e.g. a join made while a worker already
//! holds a few unstolen tasks runs both sides inline and can never be stolen) gets a
//! speedup of about 1 here, where rayon and a classical deque get about 2.
//!
//! | workload | shape | the work that must be stealable |
//! |---|---|---|
//! | `listwalk` | a linked list walked with `join(|| walk(next), || process(node))` | every `process(node)` (≈ 15 µs each) |
//! | `coarsejoin` | inside the first side of [`PENDING`] nested joins whose second sides are trivial, `join(big, big)` | the second `big`, a long leaf with no joins |
//! | `spawnjoin` | a scope spawns [`SPAWNS`] small tasks, then its body runs `join(big, big)` | the second `big` |
//! | `spawnparfor` | a scope spawns [`SPAWNS`] small tasks, then its body runs a `par_for` | the `par_for`'s halves |
//! | `spine` | a chain of joins `join(|| spine(rest), || cheap(item))` with a cheap second side (≈ 3 µs) | every cheap side, taken one at a time from the top of one deque |
//! | `spawnloop` | a scope spawns [`LOOP_SPAWNS`] tasks (≈ 40 µs each) from one loop and waits | every spawned task, as it is spawned |
//!
//! The work is arithmetic only ([`Item::work`]: dependent splitmix64 rounds), on a
//! generated input, so that nothing but scheduling decides the speedup. Every output is
//! checked against a serial reference computed with plain loops. The spawning shapes use
//! [`BenchCtx::spawn_then`]; chili has no spawn, so its cells emulate each spawn with a
//! join ([`crate::sched::SpawnKind::JoinEmulated`]).

use std::sync::atomic::{AtomicU64, Ordering};

use rand::RngExt;
use splitsteal::{par, ForkJoin};

use super::{
    rng, splitmix64, BenchCtx, DynWorkload, Group, InputRng, Size, SpawnTask, Workload,
    WorkloadSpec,
};

/// `listwalk`'s name.
pub const LISTWALK: &str = "listwalk";
/// `coarsejoin`'s name.
pub const COARSEJOIN: &str = "coarsejoin";
/// `spawnjoin`'s name.
pub const SPAWNJOIN: &str = "spawnjoin";
/// `spawnparfor`'s name.
pub const SPAWNPARFOR: &str = "spawnparfor";
/// `spine`'s name.
pub const SPINE: &str = "spine";
/// `spawnloop`'s name.
pub const SPAWNLOOP: &str = "spawnloop";

/// Trivial joins pending above `coarsejoin`'s coarse join.
pub const PENDING: usize = 4;
/// Small tasks `spawnjoin` and `spawnparfor` spawn before their coarse work.
pub const SPAWNS: usize = 4;
/// Tasks `spawnloop` spawns from its loop (at full size).
pub const LOOP_SPAWNS: usize = 256;

/// splitmix64 rounds per µs on the development machine (a dependent chain, ≈ 4.5 ns a
/// round on its AMD EPYC); used only to size the inputs.
pub const ROUNDS_PER_US: u32 = 220;

/// One piece of arithmetic: `rounds` dependent splitmix64 rounds starting at `seed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// The start value.
    pub seed: u64,
    /// The number of rounds (≈ [`ROUNDS_PER_US`] per µs).
    pub rounds: u32,
}

impl Item {
    /// The item's result.
    #[inline]
    pub fn work(&self) -> u64 {
        let mut x = self.seed;
        for _ in 0..self.rounds {
            x = splitmix64(x);
        }
        x
    }
}

/// Folds a result into a checksum (order-sensitive).
#[inline]
fn mix(acc: u64, x: u64) -> u64 {
    acc.rotate_left(7) ^ x
}

/// A long leaf: works through `items` in order, with no joins.
pub fn leaf(items: &[Item]) -> u64 {
    items.iter().fold(0, |acc, it| mix(acc, it.work()))
}

/// `n` items whose rounds are uniform in `[mean / 2, 3 mean / 2]`.
fn gen_items(r: &mut InputRng, n: usize, mean_rounds: u32) -> Vec<Item> {
    let lo = mean_rounds / 2;
    let hi = mean_rounds + mean_rounds / 2;
    (0..n)
        .map(|_| Item {
            seed: r.random::<u64>(),
            rounds: r.random_range(lo..=hi),
        })
        .collect()
}

/// Rounds for about `us` µs.
const fn rounds_us(us: u32) -> u32 {
    us * ROUNDS_PER_US
}

/// Approximate serial time of `n` items of `mean_rounds`, for the params strings.
fn approx_ms(n: usize, mean_rounds: u32) -> f64 {
    n as f64 * mean_rounds as f64 / ROUNDS_PER_US as f64 / 1e3
}

// ---------------------------------------------------------------------------------------
// listwalk

/// The end of a list.
pub const NIL: u32 = u32::MAX;

/// A list node: its work and the index of the next node ([`NIL`] at the end).
#[derive(Debug, Clone, Copy)]
pub struct ListNode {
    /// `process(node)`'s work.
    pub item: Item,
    /// The next node's index in the arena, or [`NIL`].
    pub next: u32,
}

/// `walk(node) = join(|| walk(next), || process(node))`; returns (nodes visited, checksum
/// `mix(walk(next), process(node))`).
pub fn walk<C: ForkJoin>(c: &mut C, nodes: &[ListNode], at: u32) -> (u64, u64) {
    let node = &nodes[at as usize];
    if node.next == NIL {
        return (1, node.item.work());
    }
    let ((n, rest), mine) = c.join(|c| walk(c, nodes, node.next), |_| node.item.work());
    (n + 1, mix(rest, mine))
}

/// Reference: a loop down the list, then the checksum folded from the tail.
pub fn walk_reference(nodes: &[ListNode], head: u32) -> (u64, u64) {
    let mut results = Vec::new();
    let mut at = head;
    while at != NIL {
        let node = &nodes[at as usize];
        results.push(node.item.work());
        at = node.next;
    }
    let mut rev = results.iter().rev();
    let last = rev.next().copied().unwrap_or(0);
    (
        results.len() as u64,
        rev.fold(last, |acc, &mine| mix(acc, mine)),
    )
}

/// The `listwalk` workload: a list of nodes linked in random order in an arena.
#[derive(Debug)]
pub struct ListWalk {
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub nodes: Vec<ListNode>,
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub head: u32,
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub expected: (u64, u64),
}

impl ListWalk {
    /// A list of `n` nodes (n ≥ 1) of about `mean_rounds` rounds each, linked in a random
    /// order.
    pub fn new(n: usize, mean_rounds: u32, seed: u64) -> ListWalk {
        assert!(n >= 1 && n < NIL as usize);
        let mut r = rng(seed, 50);
        let items = gen_items(&mut r, n, mean_rounds);
        // Fisher–Yates: the visiting order of the arena's slots.
        let mut order: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            order.swap(i, r.random_range(0..=i));
        }
        let mut nodes = vec![
            ListNode {
                item: items[0],
                next: NIL,
            };
            n
        ];
        for (k, &slot) in order.iter().enumerate() {
            nodes[slot as usize] = ListNode {
                item: items[k],
                next: order.get(k + 1).copied().unwrap_or(NIL),
            };
        }
        let head = order[0];
        let expected = walk_reference(&nodes, head);
        ListWalk {
            nodes,
            head,
            expected,
        }
    }
}

impl Workload for ListWalk {
    type Input = ();
    type Output = (u64, u64);
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> (u64, u64) {
        walk(c, &self.nodes, self.head)
    }
    fn check(&self, out: &(u64, u64)) -> Result<(), String> {
        if *out == self.expected {
            Ok(())
        } else {
            Err(format!(
                "(nodes, checksum) = {out:?}, expected {:?}",
                self.expected
            ))
        }
    }
}

/// listwalk: (nodes, mean rounds per node).
fn listwalk_size(s: Size) -> (usize, u32) {
    s.pick((64, 50), (600, rounds_us(15)), (2000, rounds_us(15)))
}

// ---------------------------------------------------------------------------------------
// coarsejoin

/// The trivial second side of pending level `level`.
#[inline]
fn trivial(level: usize) -> u64 {
    splitmix64(level as u64)
}

/// Inside the first side of `pending` nested joins whose second sides are trivial (a hash),
/// `join(leaf(a), leaf(b))`. Returns `[leaf(a), leaf(b), checksum of the trivial sides]`.
pub fn coarse_behind<C: ForkJoin>(c: &mut C, pending: usize, a: &[Item], b: &[Item]) -> [u64; 3] {
    if pending == 0 {
        let (x, y) = c.join(|_| leaf(a), |_| leaf(b));
        return [x, y, 0];
    }
    let ([x, y, t], triv) = c.join(
        |c| coarse_behind(c, pending - 1, a, b),
        |_| trivial(pending),
    );
    [x, y, mix(t, triv)]
}

/// Two halves of long-leaf work, and their serial results.
#[derive(Debug)]
struct Halves {
    a: Vec<Item>,
    b: Vec<Item>,
}

impl Halves {
    fn new(r: &mut InputRng, per_half: usize, mean_rounds: u32) -> Halves {
        Halves {
            a: gen_items(r, per_half, mean_rounds),
            b: gen_items(r, per_half, mean_rounds),
        }
    }
}

/// The `coarsejoin` workload.
#[derive(Debug)]
pub struct CoarseJoin {
    halves: Halves,
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub expected: [u64; 3],
}

impl CoarseJoin {
    /// Two leaves of `per_half` items of about `mean_rounds` rounds each.
    pub fn new(per_half: usize, mean_rounds: u32, seed: u64) -> CoarseJoin {
        let mut r = rng(seed, 51);
        let halves = Halves::new(&mut r, per_half, mean_rounds);
        let expected = [
            leaf(&halves.a),
            leaf(&halves.b),
            (1..=PENDING).fold(0, |acc, level| mix(acc, trivial(level))),
        ];
        CoarseJoin { halves, expected }
    }
}

impl Workload for CoarseJoin {
    type Input = ();
    type Output = [u64; 3];
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> [u64; 3] {
        coarse_behind(c, PENDING, &self.halves.a, &self.halves.b)
    }
    fn check(&self, out: &[u64; 3]) -> Result<(), String> {
        if *out == self.expected {
            Ok(())
        } else {
            Err(format!(
                "[big a, big b, trivial] = {out:?}, expected {:?}",
                self.expected
            ))
        }
    }
}

/// coarsejoin and spawnjoin: (items per half, mean rounds per item).
fn halves_size(s: Size) -> (usize, u32) {
    s.pick((16, 50), (500, rounds_us(10)), (2000, rounds_us(10)))
}

// ---------------------------------------------------------------------------------------
// spawnjoin, spawnparfor

/// One spawned task per item of `small`, each writing its item's result into its slot.
fn small_tasks<'a>(slots: &'a mut [u64], small: &'a [Item]) -> Vec<SpawnTask<'a>> {
    slots
        .iter_mut()
        .zip(small)
        .map(|(slot, it)| Box::new(move || *slot = it.work()) as SpawnTask<'a>)
        .collect()
}

/// `scope(|s| { spawn each of small; join(leaf(a), leaf(b)) })`. Returns the small tasks'
/// results followed by `leaf(a)` and `leaf(b)`.
pub fn spawn_then_join<C: BenchCtx>(
    c: &mut C,
    small: &[Item; SPAWNS],
    a: &[Item],
    b: &[Item],
) -> [u64; SPAWNS + 2] {
    let mut out = [0; SPAWNS + 2];
    let (slots, big) = out.split_at_mut(SPAWNS);
    let (x, y) = c.spawn_then(small_tasks(slots, small), |c| {
        c.join(|_| leaf(a), |_| leaf(b))
    });
    big[0] = x;
    big[1] = y;
    out
}

/// Mean rounds of a small spawned task: (test, quick, full).
fn small_rounds(s: Size) -> u32 {
    s.pick(20, rounds_us(5), rounds_us(5))
}

fn gen_small(r: &mut InputRng, s: Size) -> [Item; SPAWNS] {
    let v = gen_items(r, SPAWNS, small_rounds(s));
    v.try_into().expect("SPAWNS items")
}

/// The `spawnjoin` workload.
#[derive(Debug)]
pub struct SpawnJoin {
    small: [Item; SPAWNS],
    halves: Halves,
    expected: [u64; SPAWNS + 2],
}

impl SpawnJoin {
    /// [`SPAWNS`] small tasks, then two leaves of `per_half` items of about `mean_rounds`
    /// rounds each.
    pub fn new(size: Size, per_half: usize, mean_rounds: u32, seed: u64) -> SpawnJoin {
        let mut r = rng(seed, 52);
        let small = gen_small(&mut r, size);
        let halves = Halves::new(&mut r, per_half, mean_rounds);
        let mut expected = [0; SPAWNS + 2];
        for (e, it) in expected.iter_mut().zip(&small) {
            *e = it.work();
        }
        expected[SPAWNS] = leaf(&halves.a);
        expected[SPAWNS + 1] = leaf(&halves.b);
        SpawnJoin {
            small,
            halves,
            expected,
        }
    }
}

impl Workload for SpawnJoin {
    type Input = ();
    type Output = [u64; SPAWNS + 2];
    fn input(&self) {}
    fn run<C: BenchCtx>(&self, c: &mut C, _: ()) -> [u64; SPAWNS + 2] {
        spawn_then_join(c, &self.small, &self.halves.a, &self.halves.b)
    }
    fn check(&self, out: &[u64; SPAWNS + 2]) -> Result<(), String> {
        if *out == self.expected {
            Ok(())
        } else {
            Err(format!(
                "[spawned.., big a, big b] = {out:?}, expected {:?}",
                self.expected
            ))
        }
    }
}

/// `scope(|s| { spawn each of small; par_for(0..n, |i| out[i] = items[i].work()) })`.
/// Returns the small tasks' results.
pub fn spawn_then_par_for<C: BenchCtx>(
    c: &mut C,
    small: &[Item; SPAWNS],
    items: &[Item],
    out: &[AtomicU64],
) -> [u64; SPAWNS] {
    assert_eq!(items.len(), out.len());
    let mut slots = [0; SPAWNS];
    c.spawn_then(small_tasks(&mut slots, small), |c| {
        par::par_for(c, 0..items.len(), |i| {
            out[i].store(items[i].work(), Ordering::Relaxed)
        })
    });
    slots
}

/// The `spawnparfor` workload.
#[derive(Debug)]
pub struct SpawnParFor {
    small: [Item; SPAWNS],
    items: Vec<Item>,
    expected_small: [u64; SPAWNS],
    expected: Vec<u64>,
}

impl SpawnParFor {
    /// [`SPAWNS`] small tasks, then a `par_for` over `n` elements of about `mean_rounds`
    /// rounds each.
    pub fn new(size: Size, n: usize, mean_rounds: u32, seed: u64) -> SpawnParFor {
        let mut r = rng(seed, 53);
        let small = gen_small(&mut r, size);
        let items = gen_items(&mut r, n, mean_rounds);
        SpawnParFor {
            expected_small: small.map(|it| it.work()),
            expected: items.iter().map(Item::work).collect(),
            small,
            items,
        }
    }
}

impl Workload for SpawnParFor {
    /// The output array, zeroed (allocated outside the timed part).
    type Input = Vec<AtomicU64>;
    /// The small tasks' results and the `par_for`'s output array.
    type Output = ([u64; SPAWNS], Vec<AtomicU64>);
    fn input(&self) -> Vec<AtomicU64> {
        (0..self.items.len()).map(|_| AtomicU64::new(0)).collect()
    }
    fn run<C: BenchCtx>(&self, c: &mut C, out: Vec<AtomicU64>) -> Self::Output {
        let small = spawn_then_par_for(c, &self.small, &self.items, &out);
        (small, out)
    }
    fn check(&self, (small, out): &Self::Output) -> Result<(), String> {
        if *small != self.expected_small {
            return Err(format!(
                "spawned tasks' results {small:?}, expected {:?}",
                self.expected_small
            ));
        }
        if out.len() != self.expected.len() {
            return Err(format!(
                "output length {} != expected {}",
                out.len(),
                self.expected.len()
            ));
        }
        match out
            .iter()
            .zip(&self.expected)
            .position(|(o, e)| o.load(Ordering::Relaxed) != *e)
        {
            None => Ok(()),
            Some(i) => Err(format!(
                "element {i}: {} != expected {}",
                out[i].load(Ordering::Relaxed),
                self.expected[i]
            )),
        }
    }
}

/// spawnparfor: (elements, mean rounds per element).
fn parfor_size(s: Size) -> (usize, u32) {
    s.pick((256, 20), (2000, rounds_us(5)), (8000, rounds_us(5)))
}

// ---------------------------------------------------------------------------------------
// spine

/// `spine(items) = join(|| spine(items[1..]), || items[0].work())`: a chain of joins whose
/// second sides are cheap. Returns the checksum `mix(spine(rest), work(first))`.
pub fn spine<C: ForkJoin>(c: &mut C, items: &[Item]) -> u64 {
    match items {
        [] => 0,
        [only] => only.work(),
        [first, rest @ ..] => {
            let (r, mine) = c.join(|c| spine(c, rest), |_| first.work());
            mix(r, mine)
        }
    }
}

/// Reference: `spine` folded from the tail with plain loops.
pub fn spine_reference(items: &[Item]) -> u64 {
    let mut rev = items.iter().rev();
    let last = rev.next().map_or(0, Item::work);
    rev.fold(last, |acc, it| mix(acc, it.work()))
}

/// The `spine` workload.
#[derive(Debug)]
pub struct Spine {
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub items: Vec<Item>,
    expected: u64,
}

impl Spine {
    /// A chain of `n` joins whose second sides are about `mean_rounds` rounds each.
    pub fn new(n: usize, mean_rounds: u32, seed: u64) -> Spine {
        let mut r = rng(seed, 54);
        let items = gen_items(&mut r, n, mean_rounds);
        let expected = spine_reference(&items);
        Spine { items, expected }
    }
}

impl Workload for Spine {
    type Input = ();
    type Output = u64;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> u64 {
        spine(c, &self.items)
    }
    fn check(&self, out: &u64) -> Result<(), String> {
        if *out == self.expected {
            Ok(())
        } else {
            Err(format!("checksum {out:#x}, expected {:#x}", self.expected))
        }
    }
}

/// spine: (joins, mean rounds per second side). The chain stays below the runtime's default
/// deque capacity (4096), so no join runs inline because its deque is full.
fn spine_size(s: Size) -> (usize, u32) {
    s.pick((64, 20), (1000, rounds_us(3)), (3000, rounds_us(3)))
}

// ---------------------------------------------------------------------------------------
// spawnloop

/// `scope(|s| for each item { s.spawn(work(item)) })`: a loop of spawns, and nothing else.
/// Returns each task's result, in spawn order.
pub fn spawn_loop<C: BenchCtx>(c: &mut C, items: &[Item]) -> Vec<u64> {
    let mut out = vec![0; items.len()];
    let tasks = out
        .iter_mut()
        .zip(items)
        .map(|(slot, it)| Box::new(move || *slot = it.work()) as SpawnTask<'_>)
        .collect();
    c.spawn_then(tasks, |_| ());
    out
}

/// The `spawnloop` workload.
#[derive(Debug)]
pub struct SpawnLoop {
    #[doc(hidden)] // read by the module tests (tests/modules)
    pub items: Vec<Item>,
    expected: Vec<u64>,
}

impl SpawnLoop {
    /// `n` spawned tasks of about `mean_rounds` rounds each.
    pub fn new(n: usize, mean_rounds: u32, seed: u64) -> SpawnLoop {
        let mut r = rng(seed, 55);
        let items = gen_items(&mut r, n, mean_rounds);
        SpawnLoop {
            expected: items.iter().map(Item::work).collect(),
            items,
        }
    }
}

impl Workload for SpawnLoop {
    type Input = ();
    type Output = Vec<u64>;
    fn input(&self) {}
    fn run<C: BenchCtx>(&self, c: &mut C, _: ()) -> Vec<u64> {
        spawn_loop(c, &self.items)
    }
    fn check(&self, out: &Vec<u64>) -> Result<(), String> {
        match out.iter().zip(&self.expected).position(|(o, e)| o != e) {
            None if out.len() == self.expected.len() => Ok(()),
            None => Err(format!(
                "{} results, expected {}",
                out.len(),
                self.expected.len()
            )),
            Some(i) => Err(format!(
                "task {i}: {} != expected {}",
                out[i], self.expected[i]
            )),
        }
    }
}

/// spawnloop: (tasks, mean rounds per task).
fn spawnloop_size(s: Size) -> (usize, u32) {
    s.pick((32, 20), (64, rounds_us(40)), (LOOP_SPAWNS, rounds_us(40)))
}

// ---------------------------------------------------------------------------------------
// registry

/// The registry entries, in report order.
pub fn specs() -> Vec<WorkloadSpec> {
    vec![
        WorkloadSpec {
            name: LISTWALK,
            group: Group::Shapes,
            description: "linked list walked with join(walk(next), process(node)), ≈15 µs of arithmetic per node",
            params: |s| {
                let (n, r) = listwalk_size(s);
                format!(
                    "{n} nodes linked in random order, ≈{r} rounds each (≈{:.0} ms serial)",
                    approx_ms(n, r)
                )
            },
            build: |s, seed| {
                let (n, r) = listwalk_size(s);
                Box::new(ListWalk::new(n, r, seed)) as Box<dyn DynWorkload>
            },
        },
        WorkloadSpec {
            name: COARSEJOIN,
            group: Group::Shapes,
            description: "join(big, big) of two long leaves inside 4 nested joins with trivial second sides",
            params: |s| {
                let (n, r) = halves_size(s);
                format!(
                    "{PENDING} pending trivial joins; 2 leaves × {n} items of ≈{r} rounds (≈2 × {:.0} ms serial)",
                    approx_ms(n, r)
                )
            },
            build: |s, seed| {
                let (n, r) = halves_size(s);
                Box::new(CoarseJoin::new(n, r, seed)) as Box<dyn DynWorkload>
            },
        },
        WorkloadSpec {
            name: SPAWNJOIN,
            group: Group::Shapes,
            description: "a scope spawns 4 small tasks, then its body runs join(big, big) of two long leaves (chili: spawns emulated with joins)",
            params: |s| {
                let (n, r) = halves_size(s);
                format!(
                    "{SPAWNS} spawns of ≈{} rounds; 2 leaves × {n} items of ≈{r} rounds (≈2 × {:.0} ms serial)",
                    small_rounds(s),
                    approx_ms(n, r)
                )
            },
            build: |s, seed| {
                let (n, r) = halves_size(s);
                Box::new(SpawnJoin::new(s, n, r, seed)) as Box<dyn DynWorkload>
            },
        },
        WorkloadSpec {
            name: SPAWNPARFOR,
            group: Group::Shapes,
            description: "a scope spawns 4 small tasks, then its body runs a par_for, ≈5 µs of arithmetic per element (chili: spawns emulated with joins)",
            params: |s| {
                let (n, r) = parfor_size(s);
                format!(
                    "{SPAWNS} spawns of ≈{} rounds; par_for over {n} elements of ≈{r} rounds (≈{:.0} ms serial)",
                    small_rounds(s),
                    approx_ms(n, r)
                )
            },
            build: |s, seed| {
                let (n, r) = parfor_size(s);
                Box::new(SpawnParFor::new(s, n, r, seed)) as Box<dyn DynWorkload>
            },
        },
        WorkloadSpec {
            name: SPINE,
            group: Group::Shapes,
            description: "a chain of joins join(spine(rest), cheap(item)) whose second sides are ≈3 µs of arithmetic",
            params: |s| {
                let (n, r) = spine_size(s);
                format!(
                    "{n} joins, second sides of ≈{r} rounds (≈{:.0} ms serial)",
                    approx_ms(n, r)
                )
            },
            build: |s, seed| {
                let (n, r) = spine_size(s);
                Box::new(Spine::new(n, r, seed)) as Box<dyn DynWorkload>
            },
        },
        WorkloadSpec {
            name: SPAWNLOOP,
            group: Group::Shapes,
            description: "a scope spawns its tasks from one loop, ≈40 µs of arithmetic each (chili: spawns emulated with joins)",
            params: |s| {
                let (n, r) = spawnloop_size(s);
                format!(
                    "{n} spawns of ≈{r} rounds (≈{:.0} ms serial)",
                    approx_ms(n, r)
                )
            },
            build: |s, seed| {
                let (n, r) = spawnloop_size(s);
                Box::new(SpawnLoop::new(n, r, seed)) as Box<dyn DynWorkload>
            },
        },
    ]
}

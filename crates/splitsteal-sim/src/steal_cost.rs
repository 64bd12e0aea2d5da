//! What a steal costs under the asymmetric deque (`asym-answered`, the runtime's default,
//! whose owners answer claims; `asym`, a heavy fence on every steal; and their variants)
//! against `lcws-signal` and `chase-lev`, in a timed model of `P` processors on fork-join
//! DAGs: makespan over the bound, steals, claims cut, revoked and withdrawn, claims
//! answered, heavy fences, and the time other processors lose to them.
//!
//! # Time
//!
//! Every DAG node takes a whole number of *units* (1 for an ordinary node; a leaf of the
//! list-walk and spawn-burst shapes takes `L`); a unit is [`Costs::node_ns`] nanoseconds
//! (default 20 ns, a `fib` leaf). Synchronization costs are given in nanoseconds and
//! converted to the same clock; the simulator keeps time in picoseconds, so costs below a
//! unit are not rounded away, and reports times in units. It is a discrete-event
//! simulation: each processor has at most one pending event (the end of its node, of its
//! look at a victim, of its CAS, of its heavy fence, of its wait for a signal or an answer,
//! of a step of falling asleep, of its wake-up), and events run in time order (ties by
//! processor index). Every event is atomic: what the runtime does with one read, one CAS or one
//! store, the model does at one instant.
//!
//! # Scheduling
//!
//! Work-first, as `join` does: executing a node that enables two nodes keeps the first and
//! pushes the second on the processor's deque; a node that enables none makes the processor
//! pop its deque (newest first) and, if that is empty, steal. A thief picks its victim
//! uniformly among the *other* processors, and looks at it (reads its indices: one
//! cache-line transfer, [`Costs::probe_ns`]). A look that finds nothing to take, a lost CAS
//! and a failed validation each end a failed *steal round*, which the runtime's worker
//! loop follows with a yield ([`Costs::yield_ns`]) before its next look. The join
//! continuation is run by whichever processor finishes the join's last predecessor (no
//! latch, no wait for the joining worker).
//!
//! # Sleeping ([`Options`])
//!
//! As the runtime's `wait_until` and `sleep.rs` do, with [`Options::sleep`] on (the
//! default): after [`Options::spin_rounds`] (64) failed rounds, an idle processor
//! announces its sleep (its sleep slot, the sleeper count: two read-modify-writes), posts a
//! standing request (`Wanted::SLEEPER`) on every other processor (`P − 1` read-modify-writes
//! on their lines, charged a look each, one after the other: locked instructions do not
//! overlap), runs a heavy fence (below), looks at the other deques in index order up to the
//! first with work (charged a look each, serial: an upper bound, the loads may overlap;
//! how far it reads is found from the deques as they are when it starts) and decides at
//! the end of that look, as `idle_verdict` does: work visible anywhere (a claimed task
//! counts; under `lcws-signal`, public work, or private work with no signal on its way):
//! back to stealing; under `lcws-signal`, private work whose signal is on its way: *nap*
//! (park for [`NAP_NS`] = 200 µs, or until woken); else *park* until woken. A parked
//! processor is not running: the heavy fences neither interrupt it nor count it. Wakers:
//!
//! * a processor that pushes and finds a standing request on itself takes it (one
//!   read-modify-write; the bit is one flag, so one request however many sleepers
//!   posted) and, while sleepers exist, wakes one (`wake_one`: the first sleeping slot
//!   from where the last wake-up left off; under `lcws-signal` it exposes a task first if
//!   its public part is empty);
//! * a thief that steals, while sleepers exist, wakes one at once if its victim has work
//!   left, else posts a standing request on the victim (the runtime's `stole`);
//! * a nap ends at its deadline.
//!
//! Waking costs the waker a CAS on the slot and, if the sleeper is parked,
//! [`Costs::unpark_ns`] (its `FUTEX_WAKE`); the sleeper runs [`Costs::wake_latency_ns`]
//! after the waker's call, and steals (its failed rounds start from 0). A sleeper woken
//! before it parked (its slot taken during its announcement, fence or last look) does not
//! park. With [`Options::sleep`] off, every processor runs all the time and idle thieves
//! look forever (each heavy fence then interrupts `P − 1` processors: the worst case).
//! Not modelled: wake-ups by latches (a joining worker that sleeps while a thief runs the
//! other half of its join; here the thief itself goes on), injected jobs, termination.
//!
//! # Policies ([`Policy`])
//!
//! * The asymmetric deque of `splitsteal-core/src/deque/asym.rs`. [`Policy::Asym`], a heavy
//!   fence on every steal (the runtime's protocol before its owners answered claims), and
//!   [`Policy::AsymAnswered`], the runtime's default (below, "Answered claims"): a steal
//!   of one task, or of `⌈n/2⌉` capped at [`MAX_STEAL`] = 254 when the victim holds more
//!   than [`DEEP`] = 64; [`Policy::AsymOne`] and
//!   [`Policy::AsymOwn`] always steal one, [`Policy::AsymHalf`] and
//!   [`Policy::AsymHalfOwn`] always half (see [`steal_amount`]). Every pushed task is
//!   public. Push and pop are free (the owner's
//!   StoreLoad fence is a compiler fence). A thief's look finds a pending claim of another
//!   thief (it aborts and looks elsewhere), nothing, or `n` tasks: it then claims `k` of
//!   them with a CAS (which fails if the victim's line changed since the look), runs the
//!   heavy fence, then re-reads the bottom and commits with a second CAS `min(k, bot −
//!   start)` tasks (a *partial take* when the owner's pops, made before the claim, left
//!   fewer): it runs the oldest and pushes the others on its own deque, oldest first; with
//!   none left it withdraws its claim. An owner whose pop reaches index `i` inside a
//!   pending claim `[start, end)` **cuts** it to `[start, i)` with a CAS (the tag kept; the
//!   thief then commits those `i − start` tasks, or fewer if the owner cuts again) and
//!   takes its task; at `i == start` it **revokes** the claim whole (a new tag: the thief's
//!   commit fails); an owner whose pop finds that thieves took everything resets its
//!   indices with a CAS (which also revokes a claim left above them). So every claim ends
//!   in a commit (possibly after cuts), a revoke, a withdrawal, or is in flight at the
//!   end: `claims = steals + failed_validations + in_flight_at_end`, and `owner_cas = cuts
//!   + revokes + resets`.
//! * [`Policy::LcwsSignal`]: the LCWS split deque. Push and pop of the private part are
//!   free; the owner's pop of its public part costs a fence, and a CAS for the last public
//!   task (ABP's `popBottom`). A thief that finds public work steals it with a fence and a
//!   CAS. A thief that finds only private work marks the victim and sends it a signal (one
//!   in flight per victim; a thief that finds the mark set waits for that signal); the
//!   signal is delivered [`Costs::signal_latency_ns`] after it was sent, when the handler
//!   exposes the victim's oldest private task and the victim loses [`Costs::handler_ns`];
//!   the waiting thieves then look at the victim again.
//! * [`Policy::ChaseLev`]: classical. Push is free; every pop costs a SeqCst fence (except on
//!   a deque the owner already saw empty and has not pushed to since), and the pop of the
//!   last task a CAS; a steal that finds work costs a fence and a CAS.
//!
//! A thief's CAS comes one look (and, where the policy has one, one fence) after the look
//! that decided it, so thieves that go for the same task contend: the first CAS wins, the
//! others fail (`lost_cas`). The owner's operations are atomic at their event.
//!
//! # Heavy fences
//!
//! A heavy fence (`membarrier(PRIVATE_EXPEDITED)`) takes its caller
//! `heavy_base_ns + heavy_per_cpu_ns × (R − 1)` and makes each of the `R − 1` other
//! *running* processors lose `ipi_ns` (its next event is pushed back by it), `R` counted
//! when it starts: the kernel interrupts only the CPUs running a thread of the process, so
//! parked processors neither lose time nor lengthen the fence. Thieves (after a claim) and
//! sleepers (after their standing requests) call it.
//!
//! * Own fences ([`Policy::AsymOwn`], [`Policy::AsymHalfOwn`]): every call runs its own, and
//!   any number run at once.
//! * Shared fences ([`Policy::Asym`], [`Policy::AsymAnswered`], [`Policy::AsymOne`],
//!   [`Policy::AsymHalf`], and the sleepers of
//!   [`Policy::LcwsSignal`] and [`Policy::ChaseLev`]: the runtime's `wakeup::heavy_fence`):
//!   a process-wide sequence, even while no fence runs, odd while one does. A caller, after
//!   its SeqCst fence ([`Costs::fence_ns`]), needs a fence that *started* after its writes
//!   (its claim, its posts): if none is running it starts one with a CAS on the sequence
//!   and runs it (the *fencer*: the CAS, the heavy fence, the interrupts); if one is running
//!   that started after its writes it waits for its end; if one started before them it
//!   waits for that one's end and the next one, which the first caller in line starts as
//!   soon as it sees the end (one look later: a cache-line transfer, then its CAS) and runs
//!   for all the callers that were waiting. Waiters see the end one look after it. So at
//!   most one heavy fence runs at a time, and callers that need one at the same moment
//!   share it. A waiter busy-waits: the wait costs it its own time (`fence_wait`), and
//!   nobody else's; it is running, so fences interrupt it.
//!
//! An interrupted processor loses `ipi_ns` even when it was only waiting (its next step is
//! pushed back; an overestimate where the wait outlasted the interrupt).
//!
//! # Answered claims ([`Policy::AsymAnswered`])
//!
//! The owner answers a claim, and the thief runs the heavy fence only when no answer comes
//! in time:
//!
//! 1. The thief, its claim CAS won, sets its bit in the victim's request byte (a
//!    read-modify-write of another processor's line: one look, [`Costs::probe_ns`]) and
//!    busy-waits for the owner's answer naming its claim, or for a change of the victim's
//!    line by the owner (a cut, a revoke or a reset: as good as an answer). It sees either
//!    one look after it was written. The wait is running time: heavy fences interrupt it.
//! 2. The owner answers at its next push or pop (a node that enables two nodes pushes one,
//!    a node that enables none pops): if the bit is set it takes it (a read-modify-write,
//!    [`Costs::cas_ns`]), reads its line (a look) and stores the answer, which names the
//!    claim pending in the line, if any. An owner inside a long node, or running nodes that
//!    enable one node each (a chain of joins), answers only at its next push or pop.
//! 3. The thief's timeout ([`Options::answer_timeout_ns`]) is by default the heavy fence's
//!    own cost with the processors running when its wait starts, so that a steal costs at
//!    most about twice what it costs under [`Policy::Asym`] (ski rental). An answer seen
//!    after the timeout is too late: at its timeout the thief calls for the shared heavy
//!    fence as [`Policy::Asym`]'s thieves do (an event of its own: interrupts taken
//!    meanwhile delay it), and goes on as they do. Its bit stays set; the owner answers it
//!    at its next push or pop all the same, an answer nobody reads (`owner_answers` counts
//!    every answer). With a timeout of 0 the thief does not ask: it is [`Policy::Asym`].
//!
//! After the answer, or the change of the line, the thief re-reads the bottom and commits
//! (or finds its claim revoked) as after a heavy fence, with no fence and no interrupt of
//! anyone. A claim is answered, times out, or is still waited on at the end: `claims =
//! answered + answer_timeouts + answer_waits_at_end`. The request bit and the owner's
//! taking it are not counted in `cas` (their time is charged), as the sleepers' standing
//! requests are not. The sleepers' heavy fences are unchanged.
//!
//! # Shapes ([`Shape`])
//!
//! `fib` (the regular binary fork tree of [`Dag::regular`]), `irregular` ([`Dag::irregular`]:
//! exponentially spaced forks, a fresh DAG per run), `list-walk` (`join(walk(next),
//! process(node))` over a list: a chain of forks each pushing a leaf of `L` units),
//! `spawn-burst` (one task spawns `B` children of `L` units in a loop, each pushed as it is
//! spawned, then waits for them) and `nqueens` (an irregular tree: the root spawns `k`
//! children and each other node of depth below `D` a uniform random number in `0..=k`, in a
//! loop, as a scope does; seeded, a fresh tree per run). See [`ShapeParams`].
//!
//! # Calibration (the defaults of [`Costs`])
//!
//! Measured with `probes/steal_costs.c` (in this crate; `gcc -O2 -pthread`, it says how
//! each number is taken) on the machine this simulator was written on: 2 vCPUs of an
//! "Intel(R) Xeon(R) Processor" (`lscpu` model name; family 6 model 207, a KVM guest),
//! Linux 6.18. Each probe run reports medians of 9 rounds; the table gives the median
//! (and quartiles) over 70 runs, each taken after a second in which both CPUs were at least 95 %
//! idle:
//!
//! | cost | measured (ns) | default (ns) |
//! |---|---|---|
//! | SeqCst fence after a store (`mfence`) | 8.4 [7.8–8.8] | `fence_ns` 8 |
//! | uncontended CAS (`lock cmpxchg`) | 5.7 [5.2–6.0] | `cas_ns` 6 |
//! | one cache-line transfer between the CPUs (half a ping-pong) | 101 [91–114] | `probe_ns` 100 |
//! | `membarrier(PRIVATE_EXPEDITED)`, no other thread running | 133 [122–141] | `heavy_base_ns` 135 |
//! | the same, one other thread spinning: 61 runs / 9 runs | 2275 [2153–2386] / 384 [365–413] | base + `heavy_per_cpu_ns` 285 = 420 |
//! | time the spinning thread loses per membarrier | 1390 [1198–1571] | `ipi_ns` 1400 |
//! | the same, as the spinner's own median TSC gap (30 runs) | 1506 [1339–1617] | |
//! | `pthread_kill` to a spinning thread until its handler's store is seen | 4694 [4256–6512] | `signal_latency_ns` 4700 |
//! | `pthread_kill`'s own call | 2028 [1901–2213] | (inside the latency) |
//! | time the spinning thread loses per handled signal | 3636 [3367–4268] | `handler_ns` 3600 |
//! | the same, as the spinner's median TSC gap (30 runs) | 3210 [2537–3431] | |
//!
//! The sleepers' costs were measured with `probes/wake_costs.c` (same machine, not idle:
//! other work shared its 2 CPUs; 7 runs of 301 rounds each, the median of the runs'
//! medians, and their range): the waker `FUTEX_WAKE`s a thread parked the way
//! `std::thread::park` parks, 1 ms after it parked, so that its CPU has gone idle.
//!
//! | cost | measured (ns) | default (ns) |
//! |---|---|---|
//! | `sched_yield` with no other thread to run | 259 [232–371] | `yield_ns` 250 |
//! | the waker's `FUTEX_WAKE` call | 2382 [2095–3266] | `unpark_ns` 2400 |
//! | from that call to the parked thread running | 15102 [11316–16422] | `wake_latency_ns` 15000 |
//!
//! The wake-up latency is a virtual machine's (the idle vCPU must be scheduled again by the
//! host); on bare metal it is a few µs from a shallow idle state, tens of µs from a deep
//! one. The membarrier with one other thread is bimodal from one process to the next on this
//! virtual machine: 2.3 µs in most runs, 0.4 µs in a few (those had a slow cache-line
//! transfer, ~300 ns: the two vCPUs sat elsewhere on the host). The default takes the fast
//! mode, 420 ns, which is also what was measured on this machine before this simulator
//! existed; `--heavy-per-cpu-ns 2140` gives the slow one. The interrupted thread's loss,
//! though, was about 1.4 µs in both modes. Extrapolated, not measured: the per-CPU slope.
//! Two vCPUs show one other CPU only, so the default assumes that each further running
//! processor adds what the first one did (the kernel queues a call-function entry on each
//! target and waits for each; the interrupts themselves overlap, so the slope may well be
//! smaller at P = 256, or larger where each interrupt costs the sender a VM exit).
//! Assumed, not measured: the sleepers' posts and last look (a look's time per line
//! touched), and `spin_rounds` and the nap's length (the runtime's constants).
//! `sim steal-cost --help` lists every flag.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::dag::Dag;

const NONE: u32 = u32::MAX;

/// Largest processor count of the timed model.
pub const MAX_PROCS: usize = 1024;

/// The most tasks one `asym-half-own` steal takes (the runtime's claim field is 8 bits, one
/// value of which is its lock).
pub const MAX_STEAL: usize = 254;

/// Event keys are `time_ps << ID_BITS | id`, ids `0..P` the processors, `P..2P` the
/// signal deliveries to them, `2P..3P` the ends of their naps and `3P..4P` the ends of
/// their waits for an answer (`4 × MAX_PROCS ≤ 2^ID_BITS`).
const ID_BITS: u32 = 12;
const MAX_TIME_PS: u64 = (1 << (64 - ID_BITS)) - 1;
const _: () = assert!(
    4 * MAX_PROCS <= 1 << ID_BITS,
    "event ids must fit in ID_BITS"
);

/// A fork-join DAG whose nodes take whole numbers of time units; out-degree ≤ 2, any
/// in-degree, node 0 the root, ids a topological order.
#[derive(Debug, Clone)]
pub struct TimedDag {
    succ: Vec<[u32; 2]>,
    indeg: Vec<u32>,
    cost: Vec<u32>,
    sink: u32,
    work: u64,
    span: u64,
    forks: u64,
}

struct Builder {
    succ: Vec<[u32; 2]>,
    indeg: Vec<u32>,
    cost: Vec<u32>,
    max_nodes: usize,
}

impl Builder {
    fn new(max_nodes: usize) -> Self {
        Builder {
            succ: Vec::new(),
            indeg: Vec::new(),
            cost: Vec::new(),
            max_nodes,
        }
    }

    fn node(&mut self, cost: u32) -> Result<u32, String> {
        let id = self.succ.len();
        if id >= self.max_nodes || id >= NONE as usize - 1 {
            return Err(format!(
                "the DAG exceeds {} nodes; use a smaller shape or raise --max-nodes",
                self.max_nodes
            ));
        }
        self.succ.push([NONE, NONE]);
        self.indeg.push(0);
        self.cost.push(cost);
        Ok(id as u32)
    }

    /// Edge `a → b`; the first edge out of `a` is the successor its processor keeps, the
    /// second the one it pushes.
    fn edge(&mut self, a: u32, b: u32) {
        debug_assert!(a < b, "node ids are a topological order");
        let s = &mut self.succ[a as usize];
        if s[0] == NONE {
            s[0] = b;
        } else {
            debug_assert_eq!(s[1], NONE, "out-degree ≤ 2");
            s[1] = b;
        }
        self.indeg[b as usize] += 1;
    }

    fn finish(self, sink: u32) -> TimedDag {
        // Longest path (in units) ending at each node, in id (= topological) order.
        let mut dist: Vec<u64> = self.cost.iter().map(|&c| c as u64).collect();
        for a in 0..self.succ.len() {
            for b in self.succ[a] {
                if b != NONE {
                    let d = dist[a] + self.cost[b as usize] as u64;
                    let db = &mut dist[b as usize];
                    *db = (*db).max(d);
                }
            }
        }
        TimedDag {
            work: self.cost.iter().map(|&c| c as u64).sum(),
            span: dist[sink as usize],
            forks: self.succ.iter().filter(|s| s[1] != NONE).count() as u64,
            succ: self.succ,
            indeg: self.indeg,
            cost: self.cost,
            sink,
        }
    }
}

impl TimedDag {
    /// The unit-time DAG `dag` (every node 1 unit).
    pub fn from_unit(dag: &Dag) -> TimedDag {
        let n = dag.work() as usize;
        let mut b = Builder::new(usize::MAX);
        for _ in 0..n {
            b.succ.push([NONE, NONE]);
            b.indeg.push(0);
            b.cost.push(1);
        }
        for a in 0..n as u32 {
            for s in dag.successors(a) {
                b.edge(a, s);
            }
        }
        b.finish(dag.sink())
    }

    /// `join(walk(next), process(node))` over a list of `len` nodes: a chain of `len`
    /// forks, each pushing a leaf of `leaf` units, then the walk's end and `len` joins.
    /// `T1 = len·(leaf + 2) + 1`, `T∞ = 2·len + leaf` (for `leaf ≥ 1`).
    pub fn list_walk(len: u32, leaf: u32, max_nodes: usize) -> Result<TimedDag, String> {
        if len == 0 || leaf == 0 {
            return Err("list-walk needs a length and a leaf of at least 1".into());
        }
        let mut b = Builder::new(max_nodes);
        let mut forks = Vec::with_capacity(len as usize);
        let mut leaves = Vec::with_capacity(len as usize);
        let mut prev = NONE;
        for _ in 0..len {
            let f = b.node(1)?;
            if prev != NONE {
                b.edge(prev, f);
            }
            let l = b.node(leaf)?;
            forks.push(f);
            leaves.push(l);
            prev = f;
        }
        let end = b.node(1)?;
        // The fork's first edge (kept) is the walk, the second (pushed) the leaf.
        for i in 0..len as usize {
            if i + 1 == len as usize {
                b.edge(forks[i], end);
            }
            b.edge(forks[i], leaves[i]);
        }
        let mut inner = end;
        for i in (0..len as usize).rev() {
            let j = b.node(1)?;
            b.edge(inner, j);
            b.edge(leaves[i], j);
            inner = j;
        }
        Ok(b.finish(inner))
    }

    /// One task spawns `children` leaves of `leaf` units in a loop (one unit per spawn;
    /// each child pushed as it is spawned), then waits for them.
    /// `T1 = children·(leaf + 1) + 2`, `T∞ = children + leaf + 2`.
    pub fn spawn_burst(children: u32, leaf: u32, max_nodes: usize) -> Result<TimedDag, String> {
        if children == 0 || leaf == 0 {
            return Err("spawn-burst needs at least 1 child and a leaf of at least 1".into());
        }
        let mut b = Builder::new(max_nodes);
        let root = b.node(1)?;
        let mut prev = root;
        let mut kids = Vec::with_capacity(children as usize);
        for _ in 0..children {
            let s = b.node(1)?;
            b.edge(prev, s);
            let c = b.node(leaf)?;
            kids.push((s, c));
            prev = s;
        }
        let wait = b.node(1)?;
        for (s, c) in kids {
            // The spawn's first edge: the loop goes on (or waits); second: the child.
            if s == prev {
                b.edge(s, wait);
            }
            b.edge(s, c);
            b.edge(c, wait);
        }
        Ok(b.finish(wait))
    }

    /// An nqueens-like tree: the root spawns `branching` children, and every other node
    /// (1 unit) of depth below `depth` a uniform random number in `0..=branching`, in a loop
    /// (1 unit per spawn, each child pushed as it is spawned), then waits for them (1 unit).
    pub fn nqueens(
        branching: u32,
        depth: u32,
        seed: u64,
        max_nodes: usize,
    ) -> Result<TimedDag, String> {
        if branching == 0 || branching > 255 {
            return Err(format!(
                "nqueens branching must be in 1..=255, got {branching}"
            ));
        }
        fn rec(
            b: &mut Builder,
            rng: &mut SmallRng,
            level: u32,
            depth: u32,
            k: u32,
        ) -> Result<(u32, u32), String> {
            let check = b.node(1)?;
            // The root branches fully (every column of the first row), the others at random.
            let n = if level >= depth {
                0
            } else if level == 0 {
                k
            } else {
                rng.random_range(0..=k)
            };
            if n == 0 {
                return Ok((check, check));
            }
            let mut prev = check;
            let mut spawns = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let s = b.node(1)?;
                b.edge(prev, s);
                let child = rec(b, rng, level + 1, depth, k)?;
                spawns.push((s, child));
                prev = s;
            }
            let wait = b.node(1)?;
            for &(s, (first, last)) in &spawns {
                if s == prev {
                    b.edge(s, wait);
                }
                b.edge(s, first);
                b.edge(last, wait);
            }
            Ok((check, wait))
        }
        // Edges out of a spawn must be added in the order (next spawn or wait, child); the
        // recursion adds `prev → s` first, so the loop's edge is always the kept one.
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut b = Builder::new(max_nodes);
        let (_, sink) = rec(&mut b, &mut rng, 0, depth, branching)?;
        Ok(b.finish(sink))
    }

    /// A DAG of `cost.len()` nodes from their costs and its edges `(a, b)`, `a < b`, a
    /// node's kept successor first (at most two per node); node 0 must be the only root
    /// and the last node the only sink. For tests: scenarios the shapes do not make.
    #[doc(hidden)]
    pub fn from_edges(cost: &[u32], edges: &[(u32, u32)]) -> Result<TimedDag, String> {
        let n = cost.len();
        if n == 0 || n >= NONE as usize {
            return Err(format!("{n} nodes"));
        }
        let mut b = Builder::new(n);
        for &c in cost {
            if c == 0 {
                return Err("a node takes at least 1 unit".into());
            }
            b.node(c)?;
        }
        for &(x, y) in edges {
            if x >= y || y as usize >= n {
                return Err(format!("edge {x} → {y}: not a < b < {n}"));
            }
            if b.succ[x as usize][1] != NONE {
                return Err(format!("node {x} has more than two successors"));
            }
            b.edge(x, y);
        }
        for v in 0..n {
            let root = b.indeg[v] == 0;
            let sink = b.succ[v][0] == NONE;
            if root != (v == 0) || sink != (v == n - 1) {
                return Err(format!(
                    "node {v}: node 0 must be the only root and node {} the only sink",
                    n - 1
                ));
            }
        }
        Ok(b.finish(n as u32 - 1))
    }

    /// Work `T1` in units.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Span `T∞` in units.
    pub fn span(&self) -> u64 {
        self.span
    }

    /// Number of nodes.
    pub fn nodes(&self) -> u64 {
        self.succ.len() as u64
    }

    /// Nodes with two successors (each pushes one task when it executes).
    pub fn forks(&self) -> u64 {
        self.forks
    }

    /// The sink.
    pub fn sink(&self) -> u32 {
        self.sink
    }

    /// Units node `n` takes.
    pub fn cost(&self, n: u32) -> u32 {
        self.cost[n as usize]
    }

    /// Number of predecessors of `n`.
    pub fn in_degree(&self, n: u32) -> u32 {
        self.indeg[n as usize]
    }

    /// Successors of `n`, the kept one first.
    pub fn successors(&self, n: u32) -> impl Iterator<Item = u32> + '_ {
        self.succ[n as usize].iter().copied().filter(|&s| s != NONE)
    }

    /// Executes `n`: returns the nodes it enables (`NONE`-padded), or an error if a
    /// successor's counter was already 0 (a node executed twice).
    fn execute(&self, n: u32, pending: &mut [u32]) -> Result<[u32; 2], String> {
        let mut out = [NONE, NONE];
        let mut k = 0;
        for s in self.succ[n as usize] {
            if s == NONE {
                break;
            }
            let c = &mut pending[s as usize];
            if *c == 0 {
                return Err(format!("node {s} enabled twice (node {n} executed twice)"));
            }
            *c -= 1;
            if *c == 0 {
                out[k] = s;
                k += 1;
            }
        }
        Ok(out)
    }
}

/// A DAG family of `sim steal-cost`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// Regular binary fork tree ([`Dag::regular`]): fine-grained, like `fib`.
    Fib,
    /// The LCWS paper's irregular DAGs ([`Dag::irregular`]).
    Irregular,
    /// `join(walk(next), process(node))` over a list ([`TimedDag::list_walk`]).
    ListWalk,
    /// One task spawning children in a loop ([`TimedDag::spawn_burst`]).
    SpawnBurst,
    /// Random-branching tree ([`TimedDag::nqueens`]).
    Nqueens,
}

impl Shape {
    /// Every shape, in report order.
    pub const ALL: [Shape; 5] = [
        Shape::Fib,
        Shape::Irregular,
        Shape::ListWalk,
        Shape::SpawnBurst,
        Shape::Nqueens,
    ];

    /// Whether runs draw a fresh DAG (else every run shares one).
    pub fn is_random(self) -> bool {
        matches!(self, Shape::Irregular | Shape::Nqueens)
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Shape::Fib => "fib",
            Shape::Irregular => "irregular",
            Shape::ListWalk => "list-walk",
            Shape::SpawnBurst => "spawn-burst",
            Shape::Nqueens => "nqueens",
        })
    }
}

/// The sizes of the shapes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ShapeParams {
    /// `fib`: fork levels of the regular tree (`T1 = 3·2^d − 2`).
    pub fib_depth: u32,
    /// `irregular`: total depth in nodes.
    pub irregular_depth: u32,
    /// `irregular`: rate of the exponential fork spacing.
    pub rate: f64,
    /// `list-walk` and `spawn-burst`: units of a leaf (`L`).
    pub leaf_units: u32,
    /// `list-walk`: list length.
    pub list_len: u32,
    /// `spawn-burst`: children spawned (`B`).
    pub burst_children: u32,
    /// `nqueens`: largest branching factor `k` (children uniform in `0..=k`).
    pub nqueens_branching: u32,
    /// `nqueens`: depth of the tree.
    pub nqueens_depth: u32,
    /// Largest DAG, in nodes, before giving up with an error.
    pub max_nodes: usize,
}

impl Default for ShapeParams {
    fn default() -> Self {
        ShapeParams {
            fib_depth: 15,
            irregular_depth: 200,
            rate: 0.05,
            leaf_units: 100,
            list_len: 2000,
            burst_children: 128,
            nqueens_branching: 8,
            nqueens_depth: 8,
            max_nodes: 20_000_000,
        }
    }
}

impl ShapeParams {
    /// The DAG of `shape`; `seed` draws the random shapes.
    pub fn build(&self, shape: Shape, seed: u64) -> Result<TimedDag, String> {
        match shape {
            Shape::Fib => {
                if self.fib_depth > Dag::MAX_REGULAR_DEPTH {
                    return Err(format!(
                        "fib depth {} too large (max {})",
                        self.fib_depth,
                        Dag::MAX_REGULAR_DEPTH
                    ));
                }
                let nodes = 3 * (1usize << self.fib_depth) - 2;
                if nodes > self.max_nodes {
                    return Err(format!(
                        "the DAG has {nodes} nodes, more than {}; use a smaller shape or raise --max-nodes",
                        self.max_nodes
                    ));
                }
                Ok(TimedDag::from_unit(&Dag::regular(self.fib_depth)))
            }
            Shape::Irregular => Ok(TimedDag::from_unit(&Dag::irregular(
                self.irregular_depth,
                self.rate,
                seed,
                self.max_nodes,
            )?)),
            Shape::ListWalk => TimedDag::list_walk(self.list_len, self.leaf_units, self.max_nodes),
            Shape::SpawnBurst => {
                TimedDag::spawn_burst(self.burst_children, self.leaf_units, self.max_nodes)
            }
            Shape::Nqueens => TimedDag::nqueens(
                self.nqueens_branching,
                self.nqueens_depth,
                seed,
                self.max_nodes,
            ),
        }
    }
}

/// A scheduling policy of the timed model (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// The asymmetric deque with a heavy fence on every steal (the runtime's `asym` before
    /// owners answered claims): shared heavy fences (module doc, "Heavy fences"), stealing
    /// one task, or half when the victim holds more than [`DEEP`] (the runtime's
    /// `StealAmount::Adaptive`).
    Asym,
    /// The runtime's `asym` with answered claims: [`Policy::Asym`] whose thief, after its
    /// claim, asks the owner to answer and waits for the answer (or a change of the line)
    /// up to [`Options::answer_timeout_ns`], and runs the shared heavy fence only when
    /// none came (module doc, "Answered claims").
    AsymAnswered,
    /// [`Policy::Asym`] always stealing one task.
    AsymOne,
    /// [`Policy::Asym`] always stealing half (capped at [`MAX_STEAL`]).
    AsymHalf,
    /// [`Policy::AsymOne`] where every heavy fence is its caller's own (the design before
    /// fences were shared).
    AsymOwn,
    /// [`Policy::AsymHalf`] with its callers' own heavy fences.
    AsymHalfOwn,
    /// LCWS split deque, a signal asks the victim to expose one task.
    LcwsSignal,
    /// Chase-Lev deque: a fence per pop and per steal.
    ChaseLev,
}

impl Policy {
    /// Every policy, in report order.
    pub const ALL: [Policy; 8] = [
        Policy::Asym,
        Policy::AsymAnswered,
        Policy::AsymOne,
        Policy::AsymHalf,
        Policy::AsymOwn,
        Policy::AsymHalfOwn,
        Policy::LcwsSignal,
        Policy::ChaseLev,
    ];

    /// Whether it runs the asymmetric deque.
    pub fn is_asym(self) -> bool {
        matches!(
            self,
            Policy::Asym
                | Policy::AsymAnswered
                | Policy::AsymOne
                | Policy::AsymHalf
                | Policy::AsymOwn
                | Policy::AsymHalfOwn
        )
    }

    /// Whether its heavy fences are shared: under the asym policies but the `-own` ones, and under
    /// `chase-lev` and `lcws-signal`, whose only heavy fences are their sleepers' (the
    /// runtime shares every heavy fence); not under `asym-own` and `asym-half-own`, whose thieves
    /// and sleepers each run their own.
    pub fn shares_fences(self) -> bool {
        !matches!(self, Policy::AsymOwn | Policy::AsymHalfOwn)
    }

    /// Whether a thief asks the owner to answer its claim before it falls back on the
    /// heavy fence ([`Policy::AsymAnswered`]).
    pub fn answers_claims(self) -> bool {
        self == Policy::AsymAnswered
    }
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Policy::Asym => "asym",
            Policy::AsymAnswered => "asym-answered",
            Policy::AsymOwn => "asym-own",
            Policy::AsymHalfOwn => "asym-half-own",
            Policy::AsymOne => "asym-one",
            Policy::AsymHalf => "asym-half",
            Policy::LcwsSignal => "lcws-signal",
            Policy::ChaseLev => "chase-lev",
        })
    }
}

/// [`Policy::Asym`]'s threshold: a victim holding more stealable tasks loses half per steal
/// (the runtime's `StealAmount::DEEP`).
pub const DEEP: usize = 64;

/// How many of `n > 0` stealable tasks one steal claims under `policy`: 1, or `⌈n/2⌉`
/// capped at [`MAX_STEAL`] under the steal-half policies, and under [`Policy::Asym`] and
/// [`Policy::AsymAnswered`] when `n > DEEP`.
pub fn steal_amount(policy: Policy, n: usize) -> usize {
    let half = n.div_ceil(2).min(MAX_STEAL);
    match policy {
        Policy::AsymHalf | Policy::AsymHalfOwn => half,
        Policy::Asym | Policy::AsymAnswered if n > DEEP => half,
        _ => 1,
    }
}

/// How idle processors behave (module doc, "Sleeping"), and how long an
/// [`Policy::AsymAnswered`] thief waits for an answer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Options {
    /// Whether an idle processor sleeps after `spin_rounds` failed steal rounds (else it
    /// keeps looking, and every processor runs all the time: the worst case for heavy
    /// fences).
    pub sleep: bool,
    /// Failed steal rounds, each followed by a yield, before a processor sleeps (the
    /// runtime's `ThreadPoolBuilder::DEFAULT_SPIN_ROUNDS`).
    pub spin_rounds: u32,
    /// [`Policy::AsymAnswered`]: how long a thief waits for its victim's answer before it
    /// runs the heavy fence, in ns; `None` (the default): the heavy fence's own cost with the
    /// processors running when the wait starts, so that a steal never costs much more than
    /// twice what the fence alone would (ski rental). `Some(0)`: the thief does not ask,
    /// and fences at once as [`Policy::Asym`] does.
    pub answer_timeout_ns: Option<f64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sleep: true,
            spin_rounds: 64,
            answer_timeout_ns: None,
        }
    }
}

impl Options {
    /// Checks that a fixed answer timeout is a finite number of nanoseconds, at most a
    /// second.
    ///
    /// ```
    /// use splitsteal_sim::steal_cost::*;
    ///
    /// let dag = TimedDag::list_walk(200, 50, 1 << 20)?;
    /// let c = Costs::default();
    /// // A thief that does not wait for an answer fences on every steal, as under `asym`.
    /// let no_wait = Options { answer_timeout_ns: Some(0.0), ..Options::default() };
    /// no_wait.validate()?;
    /// let answered = simulate_with(&dag, Policy::AsymAnswered, 8, &c, &no_wait, 1)?;
    /// let asym = simulate(&dag, Policy::Asym, 8, &c, 1)?;
    /// assert_eq!(answered.heavy_fences, asym.heavy_fences);
    /// assert_eq!(answered.answer_timeouts, answered.claims);
    /// assert!(Options { answer_timeout_ns: Some(-1.0), ..no_wait }.validate().is_err());
    /// # Ok::<(), String>(())
    /// ```
    pub fn validate(&self) -> Result<(), String> {
        if let Some(v) = self.answer_timeout_ns {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!(
                    "--answer-timeout-ns must be a finite number ≥ 0, got {v}"
                ));
            }
            if v > 1e9 {
                return Err(format!(
                    "--answer-timeout-ns {v} is over a second; use nanoseconds"
                ));
            }
        }
        Ok(())
    }
}

/// How long a `lcws-signal` sleeper naps when a victim's signal is still on its way (the
/// runtime's `sleep::NAP`).
pub const NAP_NS: f64 = 200_000.0;

/// The costs of the model, in nanoseconds (module doc: what was measured, what assumed).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Costs {
    /// One time unit: an ordinary DAG node.
    pub node_ns: f64,
    /// A CAS.
    pub cas_ns: f64,
    /// A SeqCst (StoreLoad) fence.
    pub fence_ns: f64,
    /// A thief's look at a victim's indices (one cache-line transfer).
    pub probe_ns: f64,
    /// The heavy fence with no other processor running.
    pub heavy_base_ns: f64,
    /// What each other running processor adds to the heavy fence.
    pub heavy_per_cpu_ns: f64,
    /// What each other running processor loses to one heavy fence (its interrupt).
    pub ipi_ns: f64,
    /// `lcws-signal`: from the thief's `pthread_kill` to the exposure being visible.
    pub signal_latency_ns: f64,
    /// `lcws-signal`: what the victim loses per handled signal.
    pub handler_ns: f64,
    /// The yield after a failed steal round (`sched_yield` with nothing else to run).
    pub yield_ns: f64,
    /// The waker's `unpark` of a parked thread (its `FUTEX_WAKE` call).
    pub unpark_ns: f64,
    /// From the waker's `unpark` to the parked thread running again.
    pub wake_latency_ns: f64,
}

impl Default for Costs {
    fn default() -> Self {
        Costs {
            node_ns: 20.0,
            cas_ns: 6.0,
            fence_ns: 8.0,
            probe_ns: 100.0,
            heavy_base_ns: 135.0,
            heavy_per_cpu_ns: 285.0,
            ipi_ns: 1400.0,
            signal_latency_ns: 4700.0,
            handler_ns: 3600.0,
            yield_ns: 250.0,
            unpark_ns: 2400.0,
            wake_latency_ns: 15_000.0,
        }
    }
}

impl Costs {
    /// Checks that every cost is finite and non-negative, the node and the look positive.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in self.named() {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("--{name} must be a finite number ≥ 0, got {v}"));
            }
            if v > 1e9 {
                return Err(format!("--{name} {v} is over a second; use nanoseconds"));
            }
        }
        if self.node_ns < 0.001 {
            return Err(format!(
                "--node-ns must be at least 0.001, got {}",
                self.node_ns
            ));
        }
        if self.probe_ns < 0.001 {
            return Err(format!(
                "--probe-ns must be at least 0.001 (a look that costs nothing would let idle thieves spin forever), got {}",
                self.probe_ns
            ));
        }
        Ok(())
    }

    /// Every cost with its flag name.
    pub fn named(&self) -> [(&'static str, f64); 12] {
        [
            ("node-ns", self.node_ns),
            ("cas-ns", self.cas_ns),
            ("fence-ns", self.fence_ns),
            ("probe-ns", self.probe_ns),
            ("heavy-base-ns", self.heavy_base_ns),
            ("heavy-per-cpu-ns", self.heavy_per_cpu_ns),
            ("ipi-ns", self.ipi_ns),
            ("signal-latency-ns", self.signal_latency_ns),
            ("handler-ns", self.handler_ns),
            ("yield-ns", self.yield_ns),
            ("unpark-ns", self.unpark_ns),
            ("wake-latency-ns", self.wake_latency_ns),
        ]
    }

    /// The heavy fence with `running` processors running (the caller among them).
    pub fn heavy_ns(&self, running: usize) -> f64 {
        self.heavy_base_ns + self.heavy_per_cpu_ns * running.saturating_sub(1) as f64
    }
}

/// The costs in picoseconds, the simulator's clock.
#[derive(Debug, Clone, Copy)]
struct Ticks {
    node: u64,
    cas: u64,
    fence: u64,
    probe: u64,
    ipi: u64,
    signal_latency: u64,
    handler: u64,
    yield_: u64,
    unpark: u64,
    wake: u64,
    nap: u64,
}

fn ps(ns: f64) -> u64 {
    (ns * 1000.0).round() as u64
}

impl Ticks {
    fn of(c: &Costs) -> Ticks {
        Ticks {
            node: ps(c.node_ns).max(1),
            cas: ps(c.cas_ns),
            fence: ps(c.fence_ns),
            probe: ps(c.probe_ns).max(1),
            ipi: ps(c.ipi_ns),
            signal_latency: ps(c.signal_latency_ns),
            handler: ps(c.handler_ns),
            yield_: ps(c.yield_ns),
            unpark: ps(c.unpark_ns),
            wake: ps(c.wake_latency_ns),
            nap: ps(NAP_NS),
        }
    }
}

/// Counters of one simulated execution. Times are in units (nodes of 1 unit).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StealRun {
    /// Processors.
    pub procs: u64,
    /// Nodes of the DAG.
    pub nodes: u64,
    /// Work `T1` (units).
    pub t1: u64,
    /// Span `T∞` (units).
    pub span: u64,
    /// Time at which the sink finished (units).
    pub makespan: f64,
    /// Nodes executed (equals `nodes`).
    pub executed: u64,
    /// Tasks pushed by forks (a thief's pushes of the rest of a batch are not counted).
    pub pushes: u64,
    /// Owner pops that returned a task.
    pub owner_pops: u64,
    /// Looks at a victim (including the look after a signal).
    pub steal_attempts: u64,
    /// Successful steals (under `asym-own`: commits).
    pub steals: u64,
    /// Tasks taken by successful steals.
    pub tasks_stolen: u64,
    /// Largest number of tasks one steal took.
    pub max_batch: u64,
    /// `asym-own`: looks that found another thief's claim pending (the thief looks elsewhere).
    pub aborts: u64,
    /// Thieves' CASes that failed because the victim's deque changed since their look
    /// (another thief, or the owner, came first): a steal's CAS, or `asym-own`'s claim CAS.
    pub lost_cas: u64,
    /// `asym-own`: claims made (claim CASes won). Each ends in a commit (`steals`), a failed
    /// validation, or is in flight at the end: `claims = steals + failed_validations +
    /// in_flight_at_end`.
    pub claims: u64,
    /// `asym-own`: claims whose commit failed after the heavy fence: revoked (by a pop at
    /// the claim's first task, or a reset), or withdrawn.
    pub failed_validations: u64,
    /// `asym-own`: thieves holding a claim (in or waiting for a heavy fence) when the sink
    /// finished.
    pub in_flight_at_end: u64,
    /// `asym-own`: those of them whose claim was already revoked.
    pub in_flight_revoked: u64,
    /// `asym-answered`: claims whose thief saw its victim's answer, or a change of the
    /// line by the owner, before its timeout (it ran no heavy fence for them).
    pub answered: u64,
    /// `asym-answered`: claims whose thief waited in vain and ran the heavy fence (all of
    /// them with a timeout of 0). `claims = answered + answer_timeouts +
    /// answer_waits_at_end`.
    pub answer_timeouts: u64,
    /// `asym-answered`: thieves asking for, or waiting for, an answer when the sink
    /// finished (counted in `in_flight_at_end` too).
    pub answer_waits_at_end: u64,
    /// `asym-answered`: answers the owners gave (each: take the request bit, read the line,
    /// store the answer), the late ones no thief was waiting for included.
    pub owner_answers: u64,
    /// Heavy fences issued (`membarrier` calls): thieves' and sleepers'; with shared
    /// fences, one serves every caller waiting for it.
    pub heavy_fences: u64,
    /// Heavy fences asked for by processors going to sleep (thieves ask `claims`, under
    /// `asym-answered` `answer_timeouts`).
    pub sleep_fences: u64,
    /// Interrupts the heavy fences sent: each reaches every running processor but its
    /// caller (`ipi_lost = ipis × ipi_ns`).
    pub ipis: u64,
    /// The deques' CAS instructions, owners' and thieves' (not the shared fences' own CAS
    /// nor the sleep protocol's read-modify-writes, whose time is charged all the same).
    pub cas: u64,
    /// The deques' SeqCst fences, owners' and thieves'.
    pub fences: u64,
    /// The owners' share of `cas`.
    pub owner_cas: u64,
    /// The owners' share of `fences`.
    pub owner_fences: u64,
    /// `asym-own`: pops into a pending claim above its first task, which cut the claim down to
    /// the tasks below the popped one.
    pub cuts: u64,
    /// `asym-own`: claims cut at least once.
    pub claims_cut: u64,
    /// `asym-own`: claims revoked by their owner (a pop at the claim's first task).
    pub revokes: u64,
    /// `asym-own`: pending claims that a reset replaced (the owner found every task below the
    /// claim taken).
    pub reset_revokes: u64,
    /// `asym-own`: thieves that found, after the heavy fence, that the owner had taken every
    /// claimed task before the claim (they withdraw it with their second CAS).
    pub withdrawals: u64,
    /// `asym-own`: commits of a claim that had been cut.
    pub cut_commits: u64,
    /// `asym-own`: commits that took fewer tasks than claimed (cut, or `bot` below the claim).
    pub partial_commits: u64,
    /// `asym-own`: resets of a deque thieves had emptied.
    pub resets: u64,
    /// `lcws-signal`: signals sent.
    pub signals: u64,
    /// `lcws-signal`: tasks exposed by handlers, and by owners waking a sleeper.
    pub exposures: u64,
    /// Idle processors that started to fall asleep (announced, posted their standing
    /// requests, asked for a heavy fence).
    pub sleep_attempts: u64,
    /// Of those, the ones that parked (the others saw work, or were woken first).
    pub sleeps: u64,
    /// `lcws-signal`: parks with a deadline (a signal was on its way).
    pub naps: u64,
    /// Sleepers woken by a pusher or a thief.
    pub wakeups: u64,
    /// Time lost to other processors' heavy fences' interrupts (units, all processors
    /// together).
    pub ipi_lost: f64,
    /// Time victims spent in signal handlers (units).
    pub handler_lost: f64,
    /// `asym-own`: time thieves spent between their claim and the end of the heavy fence it
    /// needed, for fences that ended before the sink (units; interrupts taken meanwhile
    /// included).
    pub fence_time: f64,
    /// The part of `fence_time` spent waiting for a shared fence another processor ran.
    pub fence_wait: f64,
    /// `asym-answered`: time thieves spent between setting the request bit and seeing
    /// the answer, or timing out, for waits that ended before the sink (units).
    pub answer_wait: f64,
    /// Time processors spent parked before the sink finished (units, all together).
    pub parked_time: f64,
    /// Simulation events processed.
    pub events: u64,
}

impl StealRun {
    /// `makespan / (T1/P + T∞)`: how far above the work-stealing bound the run ended.
    pub fn ratio(&self) -> f64 {
        self.makespan / (self.t1 as f64 / self.procs.max(1) as f64 + self.span as f64)
    }

    /// Claims whose thief asked for a heavy fence: every claim, but under `asym-answered`
    /// those that timed out.
    pub fn fenced_claims(&self) -> u64 {
        self.claims - self.answered - self.answer_waits_at_end
    }
}

/// What a traced run saw of the heavy fences and the sleepers (for tests).
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// Every heavy fence, in the order they started.
    pub fences: Vec<FenceSpan>,
    /// `(time_ps, processor)`: every interrupt a heavy fence sent, when it started.
    pub ipis: Vec<(u64, u32)>,
    /// `(processor, from_ps, to_ps)`: every park; `to_ps` is `u64::MAX` if the processor
    /// was parked (or not yet running again) at the end.
    pub parks: Vec<(u32, u64, u64)>,
    /// `(processor, from_ps, deadline_ps)`: every nap (a park with a deadline).
    pub naps: Vec<(u32, u64, u64)>,
    /// Interrupts each processor paid for (its lost time is this × `ipi_ns`).
    pub ipis_taken: Vec<u64>,
    /// `(processor, asked, fence)`: every caller a heavy fence served (its fencer
    /// included), the event that made the writes it needed the fence for (its claim, its
    /// posts: a number in the order events ran), and the index of that fence in `fences`.
    pub served: Vec<(u32, u64, usize)>,
    /// `asym-answered`: every thief's wait for an answer, in the order they started.
    pub answer_waits: Vec<AnswerWait>,
}

/// One `asym-answered` thief's wait of a [`Trace`].
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerWait {
    /// The thief.
    pub thief: u32,
    /// Its victim.
    pub victim: u32,
    /// When its request bit was set and it started to wait (ps).
    pub from_ps: u64,
    /// Its timeout (ps).
    pub timeout_ps: u64,
    /// When it saw the answer (or the line change), or timed out (ps); `u64::MAX` if it
    /// was still waiting when the sink finished.
    pub end_ps: u64,
    /// Whether it saw an answer (else it timed out, or was still waiting).
    pub answered: bool,
}

/// One heavy fence of a [`Trace`].
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FenceSpan {
    /// The processor that ran it.
    pub fencer: u32,
    /// When it started (ps): its caller's CAS on the sequence, then `membarrier`.
    pub start_ps: u64,
    /// The event that started it (a number in the order events ran).
    pub start_event: u64,
    /// When its caller saw it end (ps); `u64::MAX` if it had not when the sink finished.
    pub end_ps: u64,
    /// Processors running when it started, its caller included.
    pub running: u32,
    /// Callers it served, its own included (thieves and sleepers).
    pub served: u32,
    /// Its duration as planned at its start (ps): the heavy fence for `running`, and
    /// the shared sequence's own steps.
    pub planned_ps: u64,
}

/// One processor's deque: `[top, bot)` its tasks; under `lcws-signal` `[top, pub_bot)` the
/// public part and `[pub_bot, bot)` the private one.
#[derive(Debug, Clone, Default)]
struct Deque {
    buf: Vec<u32>,
    top: usize,
    pub_bot: usize,
    bot: usize,
    /// Bumped whenever the owner takes a claim away whole (revoke, reset) or moves `top`
    /// back, so a thief's stale `(tag, top)` fails its CAS. A cut keeps it (as the
    /// runtime's line does).
    tag: u64,
    /// `asym-own`: a pending claim `[top, top + k)`.
    claim: Option<Claim>,
    claims: u64,
    /// `chase-lev`: the owner saw the deque empty and has not pushed since.
    known_empty: bool,
    /// `asym-answered`: a thief's bit in the owner's request byte (set: answer my claim).
    asked: bool,
    /// `lcws-signal`: a signal is on its way, delivered at `delivery_at`.
    signalled: bool,
    delivery_at: u64,
}

#[derive(Debug, Clone, Copy)]
struct Claim {
    start: usize,
    /// Tasks claimed now (`claimed`, less what cuts took off).
    k: usize,
    claimed: usize,
    seq: u64,
    cut: bool,
    /// The thief that made it.
    thief: u32,
}

impl Deque {
    fn new() -> Deque {
        Deque {
            known_empty: true,
            ..Deque::default()
        }
    }

    fn store(&mut self, idx: usize, n: u32) {
        if idx == self.buf.len() {
            self.buf.push(n);
        } else {
            self.buf[idx] = n;
        }
    }

    fn push(&mut self, n: u32) {
        self.store(self.bot, n);
        self.bot += 1;
        self.known_empty = false;
    }
}

/// What a heavy fence is for.
#[derive(Debug, Clone, Copy)]
enum Need {
    /// A thief's claim `seq` on `v`: then it checks and commits.
    Thief { v: u32, seq: u64 },
    /// A processor falling asleep: then its last look.
    Sleep,
}

/// What a processor is doing until its next event.
#[derive(Debug, Clone, Copy)]
enum St {
    /// Executing a node; the event is its end.
    Run(u32),
    /// Idle: the event is a look at a random victim.
    Look,
    /// `chase-lev` / `lcws-signal`: the event is the CAS of a steal from `v`.
    Cas { v: u32, tag: u64, top: usize },
    /// `asym-own`: the event is the claim CAS on `v`.
    Claim {
        v: u32,
        tag: u64,
        top: usize,
        k: usize,
    },
    /// Shared fences: the event is the call for a heavy fence, after its own SeqCst fence;
    /// `order` is the event that made the writes it must order, `since` when it asked.
    Arrive { need: Need, since: u64, order: u64 },
    /// Running a heavy fence (its own, or the shared one as its fencer); the event is its
    /// end. `waited`: time spent waiting for an earlier shared fence first.
    Fence {
        need: Need,
        since: u64,
        order: u64,
        waited: u64,
    },
    /// Shared fences: waiting for a fence another processor runs; no event of its own
    /// (that fence's end releases it).
    Wait { need: Need, since: u64, order: u64 },
    /// Shared fences: released; the event is when it sees the fence's end.
    Released { need: Need, since: u64 },
    /// `lcws-signal`: the event is the look at `v` once its signal was delivered.
    Await { v: u32 },
    /// `asym-answered`: the event is the end of the thief's read-modify-write that sets
    /// the request bit on `v`, after its claim `seq`.
    Ask { v: u32, seq: u64 },
    /// `asym-answered`: busy-waiting since `since` for `v`'s answer or a change of its
    /// line; no event of its own (the owner's answer, or the line change, releases it; its
    /// timeout is an event apart).
    Answer { v: u32, seq: u64, since: u64 },
    /// `asym-answered`: released; the event is when it sees the answer (or the change),
    /// then it checks and commits as after a heavy fence.
    Answered { v: u32, seq: u64, since: u64 },
    /// `asym-answered`: no answer in time; the event is its call for the heavy fence.
    TimedOut { v: u32, seq: u64 },
    /// Falling asleep: the event is the end of its announcement (its standing requests).
    Post,
    /// Falling asleep: the event is the end of its last look, the verdict.
    Verdict,
    /// Parked: no event (but a nap's end, apart).
    Parked,
    /// Woken: the event is when it runs again.
    Wake,
}

/// An idle processor's last look before it parks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Work,
    Nap,
    Sleep,
}

/// The shared heavy fence running now.
#[derive(Debug, Clone)]
struct Barrier {
    fencer: usize,
    /// The event that started it: it serves callers whose writes came before.
    order: u64,
    /// Callers it serves besides its fencer.
    waiters: Vec<usize>,
}

struct Sim<'a> {
    dag: &'a TimedDag,
    policy: Policy,
    opts: Options,
    p: usize,
    t: Ticks,
    /// The heavy fence with `r` processors running, for each `r` in `0..=P`.
    heavy: Vec<u64>,
    /// `P − 1` looks: a sleeper's posts.
    scan: u64,
    rng: SmallRng,
    heap: BinaryHeap<Reverse<u64>>,
    st: Vec<St>,
    dq: Vec<Deque>,
    /// Heavy fences so far, and how many of them each processor has been interrupted by
    /// (or was not: its own, those while it was parked) and paid for.
    ipis: u64,
    ipi_seen: Vec<u64>,
    /// Handler time each processor still owes.
    owed: Vec<u64>,
    pending: Vec<u32>,
    done: Vec<bool>,
    s: StealRun,
    ipi_lost_ps: u64,
    handler_lost_ps: u64,
    fence_ps: u64,
    fence_wait_ps: u64,
    parked_ps: u64,
    /// Failed steal rounds since the processor last ran a node (or woke).
    idle: Vec<u32>,
    /// Parked: not running (heavy fences do not interrupt it, nor count it).
    parked: Vec<bool>,
    parked_since: Vec<u64>,
    running: usize,
    /// The runtime's sleep slots: `true` from a sleeper's announcement until a waker (or
    /// the sleeper itself) sets it awake.
    sleeping: Vec<bool>,
    /// The `SLEEPER` bit of each processor's `Wanted` word.
    wanted: Vec<bool>,
    /// The runtime's sleeper count: announced and not yet running again.
    sleepers: usize,
    wake_next: usize,
    /// The end of a processor's nap (0: none).
    nap_until: Vec<u64>,
    /// A thief's pending claim `(victim, seq)`, from its claim to its check.
    holding: Vec<Option<(u32, u64)>>,
    barrier: Option<Barrier>,
    /// Callers waiting for the shared fence after the running one.
    next: Vec<usize>,
    trace: Option<Box<Trace>>,
    /// The trace's fence each fencer runs.
    span_of: Vec<usize>,
    /// `asym-answered`: the fixed answer timeout, if any (else the heavy fence's cost).
    answer_timeout: Option<u64>,
    /// The end of a thief's wait for an answer (0: none).
    answer_deadline: Vec<u64>,
    answer_wait_ps: u64,
    /// The trace's wait each thief is in.
    wait_of: Vec<usize>,
}

/// A victim for thief `i` of `p ≥ 2`: uniform among the other processors.
#[doc(hidden)]
pub fn victim(rng: &mut SmallRng, i: usize, p: usize) -> usize {
    let v = rng.random_range(0..p - 1);
    if v >= i {
        v + 1
    } else {
        v
    }
}

/// Simulates `policy` with `procs` processors on `dag` (module doc) under the default
/// [`Options`] (sleeping on). Errors on bad arguments, and if the run exceeds its event
/// budget (a livelock: it cannot for sane inputs).
pub fn simulate(
    dag: &TimedDag,
    policy: Policy,
    procs: usize,
    costs: &Costs,
    seed: u64,
) -> Result<StealRun, String> {
    simulate_with(dag, policy, procs, costs, &Options::default(), seed)
}

/// [`simulate`] under `opts`.
pub fn simulate_with(
    dag: &TimedDag,
    policy: Policy,
    procs: usize,
    costs: &Costs,
    opts: &Options,
    seed: u64,
) -> Result<StealRun, String> {
    Ok(run_sim(dag, policy, procs, costs, opts, seed, false)?.0)
}

/// [`simulate_with`], and what it saw of the heavy fences and the sleepers.
#[doc(hidden)]
pub fn simulate_traced(
    dag: &TimedDag,
    policy: Policy,
    procs: usize,
    costs: &Costs,
    opts: &Options,
    seed: u64,
) -> Result<(StealRun, Trace), String> {
    let (r, t) = run_sim(dag, policy, procs, costs, opts, seed, true)?;
    Ok((r, *t.expect("traced")))
}

fn run_sim(
    dag: &TimedDag,
    policy: Policy,
    procs: usize,
    costs: &Costs,
    opts: &Options,
    seed: u64,
    traced: bool,
) -> Result<(StealRun, Option<Box<Trace>>), String> {
    costs.validate()?;
    opts.validate()?;
    if procs == 0 || procs > MAX_PROCS {
        return Err(format!(
            "processor count must be in 1..={MAX_PROCS}, got {procs}"
        ));
    }
    let t = Ticks::of(costs);
    let mut sim = Sim {
        dag,
        policy,
        opts: *opts,
        p: procs,
        t,
        heavy: (0..=procs).map(|r| ps(costs.heavy_ns(r))).collect(),
        scan: (procs as u64 - 1) * t.probe,
        rng: SmallRng::seed_from_u64(seed),
        heap: BinaryHeap::with_capacity(4 * procs),
        st: vec![St::Look; procs],
        dq: (0..procs).map(|_| Deque::new()).collect(),
        ipis: 0,
        ipi_seen: vec![0; procs],
        owed: vec![0; procs],
        pending: dag.indeg.clone(),
        done: vec![false; dag.succ.len()],
        s: StealRun {
            procs: procs as u64,
            nodes: dag.nodes(),
            t1: dag.work(),
            span: dag.span(),
            ..StealRun::default()
        },
        ipi_lost_ps: 0,
        handler_lost_ps: 0,
        fence_ps: 0,
        fence_wait_ps: 0,
        parked_ps: 0,
        idle: vec![0; procs],
        parked: vec![false; procs],
        parked_since: vec![0; procs],
        running: procs,
        sleeping: vec![false; procs],
        wanted: vec![false; procs],
        sleepers: 0,
        wake_next: 0,
        nap_until: vec![0; procs],
        holding: vec![None; procs],
        barrier: None,
        next: Vec::new(),
        trace: traced.then(|| {
            Box::new(Trace {
                ipis_taken: vec![0; procs],
                ..Trace::default()
            })
        }),
        span_of: vec![usize::MAX; procs],
        answer_timeout: opts.answer_timeout_ns.map(ps),
        answer_deadline: vec![0; procs],
        answer_wait_ps: 0,
        wait_of: vec![usize::MAX; procs],
    };
    sim.run()?;
    // Interrupts of heavy fences issued before the end that a running processor had not
    // yet paid for (its next event never came) were taken all the same.
    for i in 0..procs {
        if !sim.parked[i] {
            sim.take_ipis(i, sim.ipis - sim.ipi_seen[i]);
        }
    }
    let unit = sim.t.node as f64;
    sim.s.ipi_lost = sim.ipi_lost_ps as f64 / unit;
    sim.s.handler_lost = sim.handler_lost_ps as f64 / unit;
    sim.s.fence_time = sim.fence_ps as f64 / unit;
    sim.s.fence_wait = sim.fence_wait_ps as f64 / unit;
    sim.s.answer_wait = sim.answer_wait_ps as f64 / unit;
    sim.s.parked_time = sim.parked_ps as f64 / unit;
    Ok((sim.s, sim.trace))
}

impl Sim<'_> {
    fn at(&mut self, time: u64, id: usize) -> Result<(), String> {
        if time > MAX_TIME_PS {
            return Err(format!(
                "simulated time exceeds {:.0} s",
                MAX_TIME_PS as f64 * 1e-12
            ));
        }
        self.heap.push(Reverse(time << ID_BITS | id as u64));
        Ok(())
    }

    fn start(&mut self, i: usize, n: u32, time: u64) -> Result<(), String> {
        self.idle[i] = 0;
        self.st[i] = St::Run(n);
        self.at(time + self.dag.cost[n as usize] as u64 * self.t.node, i)
    }

    fn look_later(&mut self, i: usize, time: u64) -> Result<(), String> {
        self.st[i] = St::Look;
        self.at(time, i)
    }

    /// Processor `i` pays for `n` interrupts.
    fn take_ipis(&mut self, i: usize, n: u64) {
        self.ipi_lost_ps += n * self.t.ipi;
        self.ipi_seen[i] += n;
        if let Some(tr) = &mut self.trace {
            tr.ipis_taken[i] += n;
        }
    }

    fn run(&mut self) -> Result<(), String> {
        let p = self.p;
        self.start(0, 0, 0)?;
        for i in 1..p {
            let first = self.rng.random_range(0..self.t.probe);
            self.look_later(i, first)?;
        }
        let max_events = 200 * (self.dag.nodes() + 4096 * p as u64);
        while let Some(Reverse(key)) = self.heap.pop() {
            self.s.events += 1;
            if self.s.events > max_events {
                return Err(format!(
                    "no end after {max_events} events ({} of {} nodes executed)",
                    self.s.executed,
                    self.dag.nodes()
                ));
            }
            let time = key >> ID_BITS;
            let id = (key & ((1 << ID_BITS) - 1)) as usize;
            if id >= 3 * p {
                self.answer_times_out(id - 3 * p, time)?;
                continue;
            }
            if id >= 2 * p {
                self.nap_ends(id - 2 * p, time)?;
                continue;
            }
            if id >= p {
                self.deliver(id - p);
                continue;
            }
            let i = id;
            if let St::Wake = self.st[i] {
                self.unpark(i, time);
            }
            // Interrupts taken since this event was planned push it back.
            let ipis = self.ipis - self.ipi_seen[i];
            if ipis > 0 || self.owed[i] > 0 {
                let delay = ipis * self.t.ipi + self.owed[i];
                self.take_ipis(i, ipis);
                self.owed[i] = 0;
                if delay > 0 {
                    self.at(time + delay, i)?;
                    continue;
                }
            }
            match self.st[i] {
                St::Run(n) => {
                    if self.finish_node(i, n, time)? {
                        self.end(time);
                        return Ok(());
                    }
                }
                St::Look => {
                    if p == 1 {
                        return Err("the only processor has no work left before the sink".into());
                    }
                    let v = victim(&mut self.rng, i, p);
                    self.look(i, v, time)?;
                }
                St::Await { v } => self.look(i, v as usize, time)?,
                St::Cas { v, tag, top } => self.steal_cas(i, v as usize, tag, top, time)?,
                St::Claim { v, tag, top, k } => self.claim(i, v as usize, tag, top, k, time)?,
                St::Ask { v, seq } => self.ask(i, v as usize, seq, time)?,
                St::Answered { v, seq, since } => {
                    self.answer_wait_ps += time - since;
                    self.validate(i, v as usize, seq, time)?
                }
                St::TimedOut { v, seq } => self.request_fence(i, Need::Thief { v, seq }, time)?,
                St::Arrive { need, since, order } => self.arrive(i, need, since, order, time)?,
                St::Fence {
                    need,
                    since,
                    order,
                    waited,
                } => self.fence_ends(i, need, since, order, waited, time)?,
                St::Released { need, since } => self.fenced(i, need, since, time - since, time)?,
                St::Post => self.request_fence(i, Need::Sleep, time)?,
                St::Verdict => self.verdict(i, time)?,
                St::Wait { .. } | St::Answer { .. } | St::Parked | St::Wake => {
                    return Err(format!(
                        "processor {i} had an event in state {:?}",
                        self.st[i]
                    ))
                }
            }
        }
        Err("no event left before the sink ran".into())
    }

    /// The sink finished at `time`: thieves still holding a claim, and the sleepers'
    /// parked time up to now.
    fn end(&mut self, time: u64) {
        for i in 0..self.p {
            if let Some((v, seq)) = self.holding[i] {
                self.s.in_flight_at_end += 1;
                if matches!(self.st[i], St::Ask { .. } | St::Answer { .. }) {
                    self.s.answer_waits_at_end += 1;
                }
                let live = self.dq[v as usize].claim.is_some_and(|c| c.seq == seq);
                self.s.in_flight_revoked += u64::from(!live);
            }
            if self.parked[i] {
                self.parked_ps += time - self.parked_since[i];
            }
        }
    }

    /// End of node `n` on processor `i`; returns whether it was the sink.
    fn finish_node(&mut self, i: usize, n: u32, time: u64) -> Result<bool, String> {
        let seen = std::mem::replace(&mut self.done[n as usize], true);
        if seen {
            return Err(format!("node {n} executed twice"));
        }
        self.s.executed += 1;
        if n == self.dag.sink {
            self.s.makespan = time as f64 / self.t.node as f64;
            return Ok(true);
        }
        let en = self.dag.execute(n, &mut self.pending)?;
        if en[0] != NONE {
            let mut t = time;
            if en[1] != NONE {
                self.s.pushes += 1;
                self.dq[i].push(en[1]);
                t += self.after_push(i, t)?;
                t += self.answer(i, t)?;
            }
            self.start(i, en[0], t)?;
            return Ok(false);
        }
        let claim = self.dq[i].claim;
        let (task, mut cost) = self.pop(i);
        if let Some(c) = claim {
            // A cut, revoke or reset changed the line: a waiting thief sees it one
            // transfer after the owner's CAS, and that answers it.
            let now = self.dq[i].claim;
            if now.is_none_or(|n| n.seq != c.seq || n.k != c.k) {
                self.release(c.thief as usize, i, c.seq, time + cost + self.t.probe)?;
            }
        }
        cost += self.answer(i, time + cost)?;
        match task {
            Some(m) => {
                self.s.owner_pops += 1;
                self.start(i, m, time + cost)?;
            }
            None => self.look_later(i, time + cost)?,
        }
        Ok(false)
    }

    /// The owner's pop: the task, and what it cost.
    fn pop(&mut self, i: usize) -> (Option<u32>, u64) {
        let t = self.t;
        let s = &mut self.s;
        let d = &mut self.dq[i];
        if self.policy.is_asym() {
            if d.bot == 0 {
                return (None, 0);
            }
            let nb = d.bot - 1;
            // The line's `end`: above the pending claim, if any (it starts at `top`).
            let end = d.claim.map_or(d.top, |c| c.start + c.k);
            if nb >= end {
                d.bot = nb;
                return (Some(d.buf[nb]), 0);
            }
            s.cas += 1;
            s.owner_cas += 1;
            return match d.claim {
                Some(mut c) if nb >= c.start => {
                    if nb == c.start {
                        // The claim's first task: revoke the claim whole (a new tag).
                        s.revokes += 1;
                        d.claim = None;
                        d.tag += 1;
                    } else {
                        // Cut the claim down to the tasks below ours; the thief commits
                        // those.
                        s.cuts += 1;
                        if !c.cut {
                            s.claims_cut += 1;
                            c.cut = true;
                        }
                        c.k = nb - c.start;
                        d.claim = Some(c);
                    }
                    d.bot = nb;
                    (Some(d.buf[nb]), t.cas)
                }
                _ => {
                    // Thieves took everything: reset the indices (which revokes a claim
                    // left above them).
                    s.resets += 1;
                    if d.claim.take().is_some() {
                        s.reset_revokes += 1;
                    }
                    d.tag += 1;
                    d.top = 0;
                    d.bot = 0;
                    (None, t.cas)
                }
            };
        }
        if self.policy == Policy::ChaseLev {
            if d.known_empty {
                return (None, 0);
            }
            s.fences += 1;
            s.owner_fences += 1;
            if d.bot > d.top + 1 {
                d.bot -= 1;
                return (Some(d.buf[d.bot]), t.fence);
            }
            // The last task (the owner's CAS on `top` races the thieves'), or none:
            // thieves emptied the deque. Either way it is empty now, and the owner
            // knows it.
            let task = (d.bot == d.top + 1).then(|| d.buf[d.top]);
            let mut cost = t.fence;
            if task.is_some() {
                s.cas += 1;
                s.owner_cas += 1;
                cost += t.cas;
            }
            d.known_empty = true;
            // Back to index 0 (the real deque's indices grow on; here only the memory
            // matters, and the new tag fails a stale thief's CAS as a moved `top` would).
            d.top = 0;
            d.bot = 0;
            d.tag += 1;
            return (task, cost);
        }
        // lcws-signal.
        if d.bot > d.pub_bot {
            d.bot -= 1;
            return (Some(d.buf[d.bot]), 0);
        }
        // popBottom on the public part: nothing exposed since the last reset is free.
        if d.pub_bot == 0 {
            return (None, 0);
        }
        s.fences += 1;
        s.owner_fences += 1;
        let ob = d.pub_bot - 1;
        d.pub_bot = ob;
        d.bot = ob;
        let node = d.buf[ob];
        if ob > d.top {
            return (Some(node), t.fence);
        }
        let last = ob == d.top;
        d.top = 0;
        d.pub_bot = 0;
        d.bot = 0;
        d.tag += 1;
        if last {
            s.cas += 1;
            s.owner_cas += 1;
            (Some(node), t.fence + t.cas)
        } else {
            (None, t.fence)
        }
    }

    /// Processor `i` looks at victim `v` at `time`.
    fn look(&mut self, i: usize, v: usize, time: u64) -> Result<(), String> {
        self.s.steal_attempts += 1;
        let t = self.t;
        let after = time + t.probe;
        let d = &mut self.dq[v];
        if self.policy.is_asym() {
            if d.claim.is_some() {
                self.s.aborts += 1;
                return self.fail(i, after);
            }
            let n = d.bot.saturating_sub(d.top);
            if n == 0 {
                return self.fail(i, after);
            }
            self.st[i] = St::Claim {
                v: v as u32,
                tag: d.tag,
                top: d.top,
                k: steal_amount(self.policy, n),
            };
            return self.at(after, i);
        }
        let public = if self.policy == Policy::ChaseLev {
            d.bot
        } else {
            d.pub_bot
        };
        if public > d.top {
            // The fence (counted with the CAS it precedes), then the CAS.
            self.st[i] = St::Cas {
                v: v as u32,
                tag: d.tag,
                top: d.top,
            };
            return self.at(after + t.fence, i);
        }
        if self.policy == Policy::LcwsSignal && d.bot > d.pub_bot {
            // Private work only: signal (unless one is on its way) and wait for it.
            let send = !d.signalled;
            if send {
                d.signalled = true;
                d.delivery_at = after + t.signal_latency;
            }
            // Woken just after the delivery, which runs first.
            let wake = d.delivery_at + 1;
            if send {
                self.s.signals += 1;
                self.at(wake - 1, self.p + v)?;
            }
            self.st[i] = St::Await { v: v as u32 };
            return self.at(wake.max(after), i);
        }
        self.fail(i, after)
    }

    /// A signal reaches `v`: its handler exposes the oldest private task.
    fn deliver(&mut self, v: usize) {
        let d = &mut self.dq[v];
        d.signalled = false;
        if d.bot > d.pub_bot {
            d.pub_bot += 1;
            self.s.exposures += 1;
        }
        self.owed[v] += self.t.handler;
        self.handler_lost_ps += self.t.handler;
    }

    /// `chase-lev` / `lcws-signal`: the CAS of a steal decided by a look at `(tag, top)`.
    fn steal_cas(
        &mut self,
        i: usize,
        v: usize,
        tag: u64,
        top: usize,
        time: u64,
    ) -> Result<(), String> {
        self.s.fences += 1;
        self.s.cas += 1;
        let after = time + self.t.cas;
        let d = &mut self.dq[v];
        let public = if self.policy == Policy::ChaseLev {
            d.bot
        } else {
            d.pub_bot
        };
        if d.tag == tag && d.top == top && top < public {
            let n = d.buf[top];
            d.top += 1;
            self.s.steals += 1;
            self.s.tasks_stolen += 1;
            self.s.max_batch = self.s.max_batch.max(1);
            let cost = self.stole(v, after)?;
            return self.start(i, n, after + cost);
        }
        self.s.lost_cas += 1;
        self.fail(i, after)
    }

    /// `asym-own`: the claim CAS, then the heavy fence.
    fn claim(
        &mut self,
        i: usize,
        v: usize,
        tag: u64,
        top: usize,
        k: usize,
        time: u64,
    ) -> Result<(), String> {
        self.s.cas += 1;
        let after = time + self.t.cas;
        let d = &mut self.dq[v];
        if d.tag != tag || d.top != top || d.claim.is_some() {
            self.s.lost_cas += 1;
            return self.fail(i, after);
        }
        d.claims += 1;
        let seq = d.claims;
        d.claim = Some(Claim {
            start: top,
            k,
            claimed: k,
            seq,
            cut: false,
            thief: i as u32,
        });
        self.s.claims += 1;
        self.holding[i] = Some((v as u32, seq));
        if self.policy.answers_claims() {
            if self.answer_timeout != Some(0) {
                // Set the request bit on the victim: a read-modify-write of its line.
                self.st[i] = St::Ask { v: v as u32, seq };
                return self.at(after + self.t.probe, i);
            }
            // No wait: fence at once, as `asym` does.
            self.s.answer_timeouts += 1;
        }
        self.request_fence(i, Need::Thief { v: v as u32, seq }, after)
    }

    /// `asym-answered`: `i`'s request bit on `v` is set at `time`; it waits for the answer
    /// to its claim `seq` (or a change of the line) until its timeout: the fixed one, or
    /// the heavy fence's cost with the processors running now.
    fn ask(&mut self, i: usize, v: usize, seq: u64, time: u64) -> Result<(), String> {
        self.dq[v].asked = true;
        let timeout = self
            .answer_timeout
            .unwrap_or_else(|| self.heavy[self.running]);
        self.st[i] = St::Answer {
            v: v as u32,
            seq,
            since: time,
        };
        if let Some(tr) = &mut self.trace {
            self.wait_of[i] = tr.answer_waits.len();
            tr.answer_waits.push(AnswerWait {
                thief: i as u32,
                victim: v as u32,
                from_ps: time,
                timeout_ps: timeout,
                end_ps: u64::MAX,
                answered: false,
            });
        }
        self.answer_deadline[i] = time + timeout;
        let claim = self.dq[v].claim;
        if !claim.is_some_and(|c| c.seq == seq && c.k == c.claimed) {
            // The owner cut or revoked the claim while the bit was being set: the first
            // look sees the changed line.
            self.release(i, v, seq, time + self.t.probe)?;
            if !matches!(self.st[i], St::Answer { .. }) {
                return Ok(());
            }
        }
        self.at(time + timeout, 3 * self.p + i)
    }

    /// `asym-answered`: `i`'s wait may end at `time` with no answer: it calls for the
    /// heavy fence (an event of its own, so that interrupts taken meanwhile delay it).
    fn answer_times_out(&mut self, i: usize, time: u64) -> Result<(), String> {
        let St::Answer { v, seq, since } = self.st[i] else {
            return Ok(());
        };
        if self.answer_deadline[i] != time {
            return Ok(());
        }
        self.answer_deadline[i] = 0;
        self.s.answer_timeouts += 1;
        self.answer_wait_ps += time - since;
        if let Some(tr) = &mut self.trace {
            tr.answer_waits[self.wait_of[i]].end_ps = time;
        }
        self.st[i] = St::TimedOut { v, seq };
        self.at(time, i)
    }

    /// `asym-answered`: thief `j`, if it is still waiting for the answer to its claim `seq`
    /// on `v`, sees one (the owner's answer, or a change of the line) at `seen`, unless its
    /// timeout comes first (then the answer is too late: it fences).
    fn release(&mut self, j: usize, v: usize, seq: u64, seen: u64) -> Result<(), String> {
        if let St::Answer {
            v: wv,
            seq: ws,
            since,
        } = self.st[j]
        {
            if wv as usize == v && ws == seq && seen <= self.answer_deadline[j] {
                self.s.answered += 1;
                self.answer_deadline[j] = 0;
                if let Some(tr) = &mut self.trace {
                    let w = &mut tr.answer_waits[self.wait_of[j]];
                    w.end_ps = seen;
                    w.answered = true;
                }
                self.st[j] = St::Answered { v: wv, seq, since };
                // Its one pending event: it had none while it waited.
                return self.at(seen, j);
            }
        }
        Ok(())
    }

    /// `asym-answered`: the owner `i`, at a push or pop at `time`, answers a request if
    /// its bit is set: takes the bit (a read-modify-write), reads the line (a transfer)
    /// and stores the answer naming the pending claim, if any, which its thief sees one
    /// transfer later. Returns what it cost the owner.
    fn answer(&mut self, i: usize, time: u64) -> Result<u64, String> {
        if !self.dq[i].asked {
            return Ok(0);
        }
        self.dq[i].asked = false;
        self.s.owner_answers += 1;
        let cost = self.t.cas + self.t.probe;
        if let Some(c) = self.dq[i].claim {
            self.release(c.thief as usize, i, c.seq, time + cost + self.t.probe)?;
        }
        Ok(cost)
    }

    /// Processor `i` needs a heavy fence for `need` at `time`, its writes made at this
    /// event: its own at once, or (shared) it calls for one after its SeqCst fence.
    fn request_fence(&mut self, i: usize, need: Need, time: u64) -> Result<(), String> {
        if let Need::Sleep = need {
            self.s.sleep_fences += 1;
        }
        if self.policy.shares_fences() {
            self.st[i] = St::Arrive {
                need,
                since: time,
                order: self.s.events,
            };
            self.at(time + self.t.fence, i)
        } else {
            self.start_fence(i, need, time, self.s.events, time, 0, 0)
        }
    }

    /// Shared fences: `i` looks at the sequence. None running: it starts one. One running
    /// that started after its writes (`order`): it waits for its end. One that started
    /// before: it waits for the next.
    fn arrive(
        &mut self,
        i: usize,
        need: Need,
        since: u64,
        order: u64,
        time: u64,
    ) -> Result<(), String> {
        match &mut self.barrier {
            None => {
                self.barrier = Some(Barrier {
                    fencer: i,
                    order: self.s.events,
                    waiters: Vec::new(),
                });
                // Its CAS on the sequence, then the heavy fence.
                self.start_fence(i, need, since, order, time, self.t.cas, 0)
            }
            Some(b) => {
                if b.order > order {
                    b.waiters.push(i);
                } else {
                    self.next.push(i);
                }
                self.st[i] = St::Wait { need, since, order };
                Ok(())
            }
        }
    }

    /// `i` starts a heavy fence at `time`, `extra` before the `membarrier` itself: it takes
    /// the heavy fence for the processors running now, and interrupts each of them but
    /// `i`.
    #[allow(clippy::too_many_arguments)]
    fn start_fence(
        &mut self,
        i: usize,
        need: Need,
        since: u64,
        order: u64,
        time: u64,
        extra: u64,
        waited: u64,
    ) -> Result<(), String> {
        let running = self.running;
        let dur = extra + self.heavy[running];
        self.s.heavy_fences += 1;
        self.s.ipis += running as u64 - 1;
        self.ipis += 1;
        // Not itself (its pending interrupts, if any, stay pending).
        self.ipi_seen[i] += 1;
        if let Some(tr) = &mut self.trace {
            self.span_of[i] = tr.fences.len();
            tr.fences.push(FenceSpan {
                fencer: i as u32,
                start_ps: time,
                start_event: self.s.events,
                end_ps: u64::MAX,
                running: running as u32,
                served: 1,
                planned_ps: dur,
            });
            for (j, &parked) in self.parked.iter().enumerate() {
                if j != i && !parked {
                    tr.ipis.push((time, j as u32));
                }
            }
        }
        self.st[i] = St::Fence {
            need,
            since,
            order,
            waited,
        };
        self.at(time + dur, i)
    }

    /// `i`'s heavy fence ends: (shared) it releases the callers it served and the next
    /// fence starts for those waiting for it; then `i` goes on.
    fn fence_ends(
        &mut self,
        i: usize,
        need: Need,
        since: u64,
        order: u64,
        waited: u64,
        time: u64,
    ) -> Result<(), String> {
        let mut served = 1;
        if self.policy.shares_fences() {
            let b = self
                .barrier
                .take()
                .ok_or("a shared heavy fence ended that was not running")?;
            if b.fencer != i {
                return Err(format!(
                    "processor {i} ended the fence of processor {}",
                    b.fencer
                ));
            }
            served += b.waiters.len();
            for &w in &b.waiters {
                let St::Wait { need, since, order } = self.st[w] else {
                    return Err(format!("processor {w} waits in state {:?}", self.st[w]));
                };
                if let Some(tr) = &mut self.trace {
                    tr.served.push((w as u32, order, self.span_of[i]));
                }
                // It sees the end one cache-line transfer later.
                self.st[w] = St::Released { need, since };
                self.at(time + self.t.probe, w)?;
            }
            if !self.next.is_empty() {
                let next = std::mem::take(&mut self.next);
                let f = next[0];
                let St::Wait {
                    need: fneed,
                    since: fsince,
                    order: forder,
                } = self.st[f]
                else {
                    return Err(format!("processor {f} waits in state {:?}", self.st[f]));
                };
                self.barrier = Some(Barrier {
                    fencer: f,
                    order: self.s.events,
                    waiters: next[1..].to_vec(),
                });
                // The first in line sees this one end, starts the next (its CAS), and
                // runs it for all of them.
                self.start_fence(
                    f,
                    fneed,
                    fsince,
                    forder,
                    time,
                    self.t.probe + self.t.cas,
                    time - fsince,
                )?;
            }
        }
        if let Some(tr) = &mut self.trace {
            let span = &mut tr.fences[self.span_of[i]];
            span.end_ps = time;
            span.served = served as u32;
            tr.served.push((i as u32, order, self.span_of[i]));
        }
        self.fenced(i, need, since, waited, time)
    }

    /// `i`'s heavy fence for `need`, asked for at `since`, is over at `time` (`waited` of
    /// it spent waiting for others' fences).
    fn fenced(
        &mut self,
        i: usize,
        need: Need,
        since: u64,
        waited: u64,
        time: u64,
    ) -> Result<(), String> {
        match need {
            Need::Thief { v, seq } => {
                self.fence_ps += time - since;
                self.fence_wait_ps += waited;
                self.validate(i, v as usize, seq, time)
            }
            Need::Sleep => {
                // The last look reads the deques in index order and stops at the first
                // with work (found from the deques as they are now); its verdict is taken
                // at its end.
                let looked = self.idle_verdict(i).1;
                self.st[i] = St::Verdict;
                self.at(time + looked * self.t.probe, i)
            }
        }
    }

    /// `asym-own`: after the heavy fence, re-read the bottom and commit what is left of the
    /// claim below it (or withdraw).
    fn validate(&mut self, i: usize, v: usize, seq: u64, time: u64) -> Result<(), String> {
        self.holding[i] = None;
        self.s.cas += 1;
        let after = time + self.t.cas;
        let d = &mut self.dq[v];
        let claim = match d.claim {
            Some(c) if c.seq == seq => c,
            _ => {
                // Revoked (or replaced by a reset): the commit CAS fails.
                self.s.failed_validations += 1;
                return self.fail(i, after);
            }
        };
        d.claim = None;
        let take = claim.k.min(d.bot.saturating_sub(claim.start));
        if take == 0 {
            // The owner took the claimed tasks before the claim: withdraw.
            self.s.failed_validations += 1;
            self.s.withdrawals += 1;
            return self.fail(i, after);
        }
        d.top = claim.start + take;
        let first = d.buf[claim.start];
        let rest: Vec<u32> = d.buf[claim.start + 1..claim.start + take].to_vec();
        self.s.steals += 1;
        self.s.tasks_stolen += take as u64;
        self.s.max_batch = self.s.max_batch.max(take as u64);
        self.s.cut_commits += u64::from(claim.cut);
        self.s.partial_commits += u64::from(take < claim.claimed);
        let mut t = after;
        for n in rest {
            self.dq[i].push(n);
            t += self.after_push(i, t)?;
        }
        t += self.stole(v, t)?;
        self.start(i, first, t)
    }

    /// A failed steal round of `i`, ending at `time`: yield and look again, or, after
    /// `spin_rounds` of them, fall asleep.
    fn fail(&mut self, i: usize, time: u64) -> Result<(), String> {
        self.idle[i] += 1;
        if self.opts.sleep && self.idle[i] > self.opts.spin_rounds {
            self.idle[i] = 0;
            return self.begin_sleep(i, time);
        }
        self.look_later(i, time + self.t.yield_)
    }

    /// `i` announces its sleep (its slot, the sleeper count) and posts a standing request
    /// on every other processor: `P − 1` read-modify-writes on their lines.
    fn begin_sleep(&mut self, i: usize, time: u64) -> Result<(), String> {
        self.s.sleep_attempts += 1;
        self.sleeping[i] = true;
        self.sleepers += 1;
        for (j, w) in self.wanted.iter_mut().enumerate() {
            if j != i {
                *w = true;
            }
        }
        self.st[i] = St::Post;
        self.at(time + 2 * self.t.cas + self.scan, i)
    }

    /// `i`'s last look before it parks (after its heavy fence and its look at the other
    /// deques).
    fn verdict(&mut self, i: usize, time: u64) -> Result<(), String> {
        // A waker that took our slot meanwhile: no park.
        let v = if self.sleeping[i] {
            self.idle_verdict(i).0
        } else {
            Verdict::Work
        };
        match v {
            Verdict::Work => {
                self.sleeping[i] = false;
                self.sleepers -= 1;
                self.look_later(i, time)
            }
            Verdict::Sleep => self.park(i, time, None),
            Verdict::Nap => self.park(i, time, Some(time + self.t.nap)),
        }
    }

    /// The runtime's `idle_verdict`: work visible on another deque (a `lcws-signal` victim
    /// with private work and no signal on its way counts: go and signal it); a signal on
    /// its way: nap; else sleep. Also how many deques it read (in index order, up to the
    /// first with work).
    fn idle_verdict(&self, i: usize) -> (Verdict, u64) {
        let mut nap = false;
        let mut looked = 0;
        for (j, d) in self.dq.iter().enumerate() {
            if j == i {
                continue;
            }
            looked += 1;
            if self.policy == Policy::LcwsSignal {
                if d.pub_bot > d.top {
                    return (Verdict::Work, looked);
                }
                if d.bot > d.pub_bot {
                    if !d.signalled {
                        return (Verdict::Work, looked);
                    }
                    nap = true;
                }
            } else if d.bot > d.top {
                return (Verdict::Work, looked);
            }
        }
        let v = if nap { Verdict::Nap } else { Verdict::Sleep };
        (v, looked)
    }

    /// `i` parks at `time` (until `deadline`, if it naps): it stops running.
    fn park(&mut self, i: usize, time: u64, deadline: Option<u64>) -> Result<(), String> {
        self.parked[i] = true;
        self.running -= 1;
        self.parked_since[i] = time;
        self.s.sleeps += 1;
        self.st[i] = St::Parked;
        if let Some(tr) = &mut self.trace {
            tr.parks.push((i as u32, time, u64::MAX));
        }
        if let Some(d) = deadline {
            if let Some(tr) = &mut self.trace {
                tr.naps.push((i as u32, time, d));
            }
            self.s.naps += 1;
            self.nap_until[i] = d;
            self.at(d, 2 * self.p + i)?;
        }
        Ok(())
    }

    /// A nap of `i` reaches its deadline at `time` (unless it was woken before).
    fn nap_ends(&mut self, i: usize, time: u64) -> Result<(), String> {
        if matches!(self.st[i], St::Parked) && self.nap_until[i] == time {
            self.nap_until[i] = 0;
            self.sleeping[i] = false;
            self.st[i] = St::Wake;
            self.at(time + self.t.wake, i)?;
        }
        Ok(())
    }

    /// `i` runs again at `time`, woken: the heavy fences issued while it was parked did
    /// not interrupt it.
    fn unpark(&mut self, i: usize, time: u64) {
        self.parked[i] = false;
        self.running += 1;
        self.ipi_seen[i] = self.ipis;
        self.parked_ps += time - self.parked_since[i];
        if let Some(tr) = &mut self.trace {
            if let Some(park) = tr
                .parks
                .iter_mut()
                .rev()
                .find(|(j, _, to)| *j == i as u32 && *to == u64::MAX)
            {
                park.2 = time;
            }
        }
        self.sleepers -= 1;
        self.idle[i] = 0;
        self.st[i] = St::Look;
    }

    /// The runtime's `wake_one` at `time`: takes the first sleeping slot from where the
    /// last one left off and unparks its processor. Returns what it cost the waker.
    fn wake_one(&mut self, time: u64) -> Result<u64, String> {
        if self.sleepers == 0 {
            return Ok(0);
        }
        let p = self.p;
        for k in 0..p {
            let j = (self.wake_next + k) % p;
            if !self.sleeping[j] {
                continue;
            }
            self.sleeping[j] = false;
            self.wake_next = (j + 1) % p;
            self.s.wakeups += 1;
            if !matches!(self.st[j], St::Parked) {
                // Not parked yet: its last look sees the slot awake (no system call).
                return Ok(self.t.cas);
            }
            self.nap_until[j] = 0;
            self.st[j] = St::Wake;
            self.at(time + self.t.cas + self.t.wake, j)?;
            return Ok(self.t.cas + self.t.unpark);
        }
        Ok(0)
    }

    /// After `i` pushed at `time`: if a sleeper posted a standing request on it, it takes
    /// the request and (sleepers left) wakes one, exposing a task first under
    /// `lcws-signal`. Returns what it cost.
    fn after_push(&mut self, i: usize, time: u64) -> Result<u64, String> {
        if !self.wanted[i] {
            return Ok(0);
        }
        self.wanted[i] = false;
        let mut cost = self.t.cas;
        if self.sleepers > 0 {
            if self.policy == Policy::LcwsSignal {
                let d = &mut self.dq[i];
                if d.pub_bot == d.top && d.bot > d.pub_bot {
                    d.pub_bot += 1;
                    self.s.exposures += 1;
                }
            }
            cost += self.wake_one(time + cost)?;
        }
        Ok(cost)
    }

    /// A thief stole from `v` at `time`: while others sleep it passes a wake-up on, at once if
    /// `v` has work left, else as a standing request on `v`. Returns what it cost.
    fn stole(&mut self, v: usize, time: u64) -> Result<u64, String> {
        if self.sleepers == 0 {
            return Ok(0);
        }
        let d = &self.dq[v];
        if d.bot > d.top {
            self.wake_one(time)
        } else {
            self.wanted[v] = true;
            Ok(self.t.cas)
        }
    }
}

/// Mean counters over runs, and the spread of the ratio.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StealMeans {
    /// Mean work (units).
    pub t1: f64,
    /// Mean span (units).
    pub span: f64,
    /// Mean makespan (units).
    pub makespan: f64,
    /// Mean `makespan / (T1/P + T∞)`.
    pub ratio: f64,
    /// Smallest ratio of a run.
    pub min_ratio: f64,
    /// Largest ratio of a run.
    pub max_ratio: f64,
    /// Mean successful steals.
    pub steals: f64,
    /// Mean tasks stolen.
    pub tasks_stolen: f64,
    /// Mean steal attempts (looks).
    pub steal_attempts: f64,
    /// Mean aborts (looks that found a claim pending).
    pub aborts: f64,
    /// Mean thieves' CASes lost.
    pub lost_cas: f64,
    /// Mean claims made.
    pub claims: f64,
    /// Mean claims cut at least once.
    pub claims_cut: f64,
    /// Mean commits of a claim that had been cut.
    pub cut_commits: f64,
    /// Mean claims revoked (by a pop at their first task, or by a reset).
    pub revoked: f64,
    /// Mean claims withdrawn.
    pub withdrawn: f64,
    /// Mean commits that took fewer tasks than claimed.
    pub partial_commits: f64,
    /// Mean failed validations.
    pub failed_validations: f64,
    /// Mean claims answered by their owner (or a change of its line) in time.
    pub answered: f64,
    /// Mean claims whose thief timed out waiting for an answer and ran the heavy fence.
    pub answer_timeouts: f64,
    /// Mean answers the owners gave.
    pub owner_answers: f64,
    /// Mean heavy fences issued.
    pub heavy_fences: f64,
    /// Mean heavy fences asked for by sleepers.
    pub sleep_fences: f64,
    /// Callers (claims and sleepers) per heavy fence issued, over all runs together.
    pub served_per_fence: f64,
    /// Mean interrupts sent by heavy fences.
    pub ipis: f64,
    /// Mean CAS.
    pub cas: f64,
    /// Mean fences.
    pub fences: f64,
    /// Mean signals.
    pub signals: f64,
    /// Mean sleep attempts.
    pub sleep_attempts: f64,
    /// Mean parks.
    pub sleeps: f64,
    /// Mean wake-ups.
    pub wakeups: f64,
    /// Mean time lost to heavy fences' interrupts (units, all processors together).
    pub ipi_lost: f64,
    /// Mean time victims spent in signal handlers (units).
    pub handler_lost: f64,
    /// Mean time thieves spent in (or waiting for) heavy fences (units).
    pub fence_time: f64,
    /// Mean time thieves spent waiting for shared heavy fences (units).
    pub fence_wait: f64,
    /// Mean time thieves spent waiting for an answer (units).
    pub answer_wait: f64,
    /// Mean time processors spent parked (units, all together).
    pub parked_time: f64,
    /// Mean simulation events.
    pub events: f64,
}

impl StealMeans {
    /// Averages a batch of runs.
    pub fn of(runs: &[StealRun]) -> StealMeans {
        let n = runs.len().max(1) as f64;
        let m = |f: &dyn Fn(&StealRun) -> f64| runs.iter().map(f).sum::<f64>() / n;
        let ratios = runs.iter().map(StealRun::ratio);
        let fences: u64 = runs.iter().map(|r| r.heavy_fences).sum();
        let callers: u64 = runs
            .iter()
            .map(|r| r.fenced_claims() + r.sleep_fences)
            .sum();
        StealMeans {
            t1: m(&|r| r.t1 as f64),
            span: m(&|r| r.span as f64),
            makespan: m(&|r| r.makespan),
            ratio: m(&|r| r.ratio()),
            min_ratio: ratios.clone().fold(f64::INFINITY, f64::min),
            max_ratio: ratios.fold(f64::NEG_INFINITY, f64::max),
            steals: m(&|r| r.steals as f64),
            tasks_stolen: m(&|r| r.tasks_stolen as f64),
            steal_attempts: m(&|r| r.steal_attempts as f64),
            aborts: m(&|r| r.aborts as f64),
            lost_cas: m(&|r| r.lost_cas as f64),
            claims: m(&|r| r.claims as f64),
            claims_cut: m(&|r| r.claims_cut as f64),
            cut_commits: m(&|r| r.cut_commits as f64),
            revoked: m(&|r| (r.revokes + r.reset_revokes) as f64),
            withdrawn: m(&|r| r.withdrawals as f64),
            partial_commits: m(&|r| r.partial_commits as f64),
            failed_validations: m(&|r| r.failed_validations as f64),
            answered: m(&|r| r.answered as f64),
            answer_timeouts: m(&|r| r.answer_timeouts as f64),
            owner_answers: m(&|r| r.owner_answers as f64),
            heavy_fences: m(&|r| r.heavy_fences as f64),
            sleep_fences: m(&|r| r.sleep_fences as f64),
            served_per_fence: if fences == 0 {
                0.0
            } else {
                callers as f64 / fences as f64
            },
            ipis: m(&|r| r.ipis as f64),
            cas: m(&|r| r.cas as f64),
            fences: m(&|r| r.fences as f64),
            signals: m(&|r| r.signals as f64),
            sleep_attempts: m(&|r| r.sleep_attempts as f64),
            sleeps: m(&|r| r.sleeps as f64),
            wakeups: m(&|r| r.wakeups as f64),
            ipi_lost: m(&|r| r.ipi_lost),
            handler_lost: m(&|r| r.handler_lost),
            fence_time: m(&|r| r.fence_time),
            fence_wait: m(&|r| r.fence_wait),
            answer_wait: m(&|r| r.answer_wait),
            parked_time: m(&|r| r.parked_time),
            events: m(&|r| r.events as f64),
        }
    }
}

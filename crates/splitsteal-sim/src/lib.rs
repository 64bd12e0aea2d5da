//! # splitsteal-sim: the simulators of the LCWS, ABP and WS-latency papers
//!
//! Three of the papers behind splitsteal argue with analysis and simulation at scales a small
//! machine cannot reach on real threads. This crate simulates them, fast enough to run the
//! papers' full sweeps, with independent runs spread over threads by [`par::par_map_runs`]
//! (every run is seeded from `(seed, configuration, run index)`, so results do not depend on
//! the number of threads). Everything is driven by `splitsteal sim ...` ([`cli`]); the same
//! commands are available without building the rest of the workspace through
//! `cargo run --release -p splitsteal-sim --example sim -- <command> ...`.
//!
//! ## `sim latency`: work stealing with latency (WS-latency paper; [`latency`], [`sweep`])
//!
//! Discrete-event simulation of work stealing on a bag of `W` unit tasks, `p` processors and
//! one-way latency `λ` (the model of the WS-latency paper's §2): a steal request arrives after
//! `λ` and its answer (work or failure) after another `λ`; a victim sends to one thief at a
//! time; victims are uniform among the other processors. `--split halving` is the authors'
//! simulator (victim keeps `⌊rem/2⌋`), `--split paper` the λ-corrected split of the model
//! (victim sends `⌊(rem − λ)/2⌋`, random winner among simultaneous requests). Each run reports
//! `Cmax`, the number of requests `R` and of successful steals; the summary gives the overhead
//! `Cmax − W/p` and the overhead ratio `16.12·λ·log2(W/(2λ)) / (Cmax − W/p)` of the
//! reconstructed bound `E[Cmax] ≤ W/p + 4γ(p)·λ·log2(W/(2λ))`, `4γ(∞) = 16.119`
//! ([`latency::gamma`]).
//!
//! Flags: `--work W --procs p --latency λ --runs N --seed S --split halving|paper --json`.
//! With `--sweep` it runs the paper's grid (W = 10^5..10^8, p = 32..256,
//! λ = 2, 22, …, 482, `--runs` each, default 1000; `--sweep-works/--sweep-procs/--sweep-latencies`
//! override the grid) and writes to `--out DIR` (default `sim-report/`): `latency_runs.csv`
//! (every run), `latency_summary.json`, `median_ratios.md` (median ratio per p and per
//! (W, p)), `figure1_lambda262.svg` (the paper's Figure 1: ratio box plots per (W, p) at
//! `--figure-latency`, default 262), `figure1_all_latencies.svg` and `index.html` showing the
//! tables and figures.
//! The event loop keeps messages in a FIFO ring (they all travel exactly `λ`) and only chunk
//! completions in a heap, and allocates nothing; the full 400,000-run grid takes about a
//! minute of CPU time in release mode (`examples/latency_speed.rs` reports runs/s).
//!
//! `sim calibrate --work W --latency λ --efficiency e [--runs N]` answers the question the
//! paper's abstract raises ("calibrate the maximal number of processors to use") without
//! giving a formula: the largest `p` keeping `(W/p)/Cmax ≥ e`, by the bound, by the authors'
//! fit `3.4·λ·log2(W/(2λ)) + 3λ`, and by bisection on simulated runs.
//!
//! ```text
//! splitsteal sim latency --work 1e6 --procs 64 --latency 262 --runs 1000 --split paper --json
//! splitsteal sim latency --sweep --out sim-report
//! splitsteal sim calibrate --work 1e6 --latency 262 --efficiency 0.5
//! ```
//!
//! ## `sim dag`: synchronization of CWS vs LCWS (LCWS paper, Figure 2; [`dag`], [`dag_report`])
//!
//! `P` processors step in unit time on fork-join DAGs: complete binary fork trees of a given
//! fork-span (regular) and DAGs whose fork spacing is exponential with rate 0.05 (irregular).
//! Classical work stealing on ABP deques is compared with Low-Cost Work Stealing on split
//! deques (the LCWS paper's Algorithms 1 and 2), counting CAS, fences, notifications, exposures and
//! steal attempts. Three panels: against fork-span, against irregular depth, and against `P`
//! (`--panel all|regular|irregular|procs`, `--procs`, `--depths`, `--irregular-depths`,
//! `--rate`, `--procs-list`, `--procs-depth`, `--runs`, `--seed`, `--out`, `--json`). CWS
//! synchronization grows with the work `T1`, LCWS with `P·T∞`, and LCWS at `P = 1` performs
//! none.
//!
//! ```text
//! splitsteal sim dag --procs 8 --depths 4,8,12,16,20 --runs 5 --out sim-report
//! ```
//!
//! ## `sim kernel`: multiprogrammed kernels and yields (ABP paper; [`kernel`], [`kernel_report`])
//!
//! `P` processes run the ABP work stealer while a kernel schedules `p_i` of them per round
//! (`p_i` uniform in `[--pmin, --pmax]`), as a benign (random), oblivious (precommitted; never
//! picks process 0, which holds the root) or adaptive (starves processes holding work)
//! adversary; thieves call no yield, `yieldToRandom` or `yieldToAll` between steal attempts.
//! Random irregular DAGs with exactly computed `T1` and `T∞` (`--depth`, `--rate`). Every
//! adversary × yield cell reports the rounds `T`, the processor average `P_A`, and
//! `T / (T1/P_A + T∞·P/P_A)`; runs that exceed `--max-rounds` count as timeouts. The adaptive
//! (and the oblivious) adversary defeats the no-yield scheduler; `yieldToAll` restores the bound.
//!
//! ```text
//! splitsteal sim kernel --procs 16 --pmin 1 --pmax 8 --runs 20 --out sim-report
//! ```
//!
//! ## `sim steal-cost`: what a steal costs under `asym` (timed model; [`steal_cost`], [`steal_cost_report`])
//!
//! `P` processors run fork-join DAGs (`fib`, `irregular`, `list-walk`, `spawn-burst`,
//! `nqueens`) in a discrete-event model where a node takes `--node-ns` and every
//! synchronization its cost measured on a 2-vCPU machine (`probes/steal_costs.c`,
//! `probes/wake_costs.c`): the asymmetric deque (`asym`, the runtime's default: free pops, a
//! heavy fence per claim that interrupts every other running processor, heavy fences shared
//! through a process-wide sequence, one at a time, an owner's pop into a pending claim cuts
//! it, a steal takes one task or half of a deque deeper than 64; `asym-one` and
//! `asym-half` force one amount; `asym-own` and `asym-half-own` give every caller its own
//! fence, the design before sharing) against `lcws-signal` (a signal to expose work) and
//! `chase-lev` (a fence per pop). Idle processors sleep as the runtime's do
//! (`--spin-rounds` failed rounds, then a standing request, a heavy fence and a last look;
//! woken by pushes and by thieves; `--wake-latency-ns`), and parked processors are neither
//! interrupted nor counted by heavy fences; `--no-sleep` keeps every processor running (the
//! worst case). Every shape × P × policy cell reports the makespan over `T1/P + T∞`,
//! steals, claims cut, revoked and withdrawn, heavy fences and callers served per fence,
//! CAS, fences, signals, sleeps, wake-ups and the time lost to interrupts (`--shapes`,
//! `--policies`, `--procs-list` (default 16,64,256), `--runs`, `--seed`, one flag per cost
//! and per shape size, `--out`, `--json`); it writes `steal_cost.json`, `steal_cost.csv`,
//! `steal_cost.md`, one SVG per shape and `index.html`. The shapes' default sizes are
//! small (fib: 2^15 leaves, 2 ms of work at 20 ns a node), which keeps a run short and
//! makes the distribution phase, where steals happen, weigh heavily; `--fib-depth 22` and
//! the other size flags give runs of realistic length.
//!
//! ```text
//! splitsteal sim steal-cost --runs 5 --out sim-report/steal-cost
//! splitsteal sim steal-cost --shapes fib,list-walk --heavy-per-cpu-ns 2140 --json
//! splitsteal sim steal-cost --policies asym-half-own,asym-half --no-sleep
//! ```
//!
//! ## `sim scaling`: the timed model calibrated on a measured suite run ([`scaling`], [`scaling_report`])
//!
//! Reads a `results.json` of `splitsteal bench` (its suite records, through the bench's own
//! `Record`), gives each workload with a model analog (`fib` and `treesum` → `fib`, `uts` →
//! `irregular`, `nqueens` → `nqueens`, `listwalk` and `spine` → `list-walk`, `spawnloop`,
//! `spawnjoin` and `spawnparfor` → `spawn-burst`) a model DAG whose node time is its serial
//! time per node, runs `asym`, `lcws-signal` and `chase-lev` at every `--procs-list` P, and
//! sets the predicted speedups beside the measured 2-thread ones (rayon beside `chase-lev`),
//! with a verdict at P = 2 (`--from`, `--procs-list` (default 2,4,8,16,64,256), `--runs`,
//! `--seed`, `--max-fib-depth`, `--leaf-units`, `--max-random-nodes`, `--out`, `--json`); it
//! writes `scaling.json`, `scaling.md` and `index.html`.
//!
//! ```text
//! splitsteal sim scaling --from docs/results/suite/results.json --runs 5 --out sim-report/scaling
//! ```
//!
//! ## What every simulator does as a command-line tool
//!
//! Before the first run: every value is checked, the cost is estimated and refused above
//! `--max-steps` ([`latency::LatencyParams::estimated_steps`]), and `--out` is created and
//! probed, so a long run is never lost to a bad folder. While running: a progress bar with an
//! ETA on a terminal, a line every few seconds elsewhere ([`progress`]). Output goes through
//! `say!`/`tell!`, so a closed stdout (`| head`) ends nothing but the printing. Every JSON output
//! starts with a `"run"` object ([`meta::RunMeta`]: command, revision, machine, date, seed,
//! parameters), and each simulator that writes files writes an `index.html` showing them.
//!
//! Run-level parallelism: [`par::par_map_runs`] is the only place that spreads runs over
//! threads: splitsteal's own pool (`splitsteal::par::tabulate`; the global pool unless the caller
//! is inside one, so `SPLITSTEAL_NUM_THREADS` and `SPLITSTEAL_POLICY` apply).

#![warn(missing_docs)]

pub mod cli;
pub mod dag;
pub mod dag_report;
pub mod kernel;
pub mod kernel_report;
pub mod latency;
pub mod meta;
pub mod par;
pub mod plot;
pub mod progress;
pub mod scaling;
pub mod scaling_report;
pub mod stats;
pub mod steal_cost;
pub mod steal_cost_report;
pub mod sweep;

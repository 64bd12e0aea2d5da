//! `mailbox`: the mailbox on its own (low-latency thesis, §4.4).
//!
//! One consumer and P producers (P = 1, 2, 4, or `--threads`), each producer sending M
//! messages. The same exchange runs on splitsteal's mailbox and on the queues a Rust user
//! would take instead: a `Mutex<VecDeque>`, `crossbeam-channel`'s unbounded channel and
//! `crossbeam-queue`'s `SegQueue` and `ArrayQueue`. Reported per queue and P: the time from
//! the producers' start to the consumer's last message, as ns per message and messages per
//! second, medians with the min–max over repetitions. The queues take turns within each
//! repetition (the machine is noisy: a slow stretch hits every queue, not one).
//!
//! Every message is `producer × M + i`; the consumer checks each producer's messages arrive
//! in order with none missing (the five queues are all FIFO per producer), and the count
//! and the sum at the end. A lost, duplicated or reordered message fails the cell.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex, PoisonError};
use std::time::{Duration, Instant};

use splitsteal_core::bench_support;

use crate::modes::{Env, ModeOutput};
use crate::plot::Bars;
use crate::report::{fmt_ratio, Record, Table};
use crate::workloads::{panic_message, Size};

/// The experiment's name in records.
pub const EXPERIMENT: &str = "mailbox";

/// Default repetitions (test, quick, full).
pub const REPS: (usize, usize, usize) = (1, 5, 7);

/// `ArrayQueue`'s capacity: bounded, unlike the others; a producer that finds it full
/// backs off and retries.
pub const ARRAY_CAPACITY: usize = 1024;

/// Default producer counts.
pub const PRODUCERS: [usize; 3] = [1, 2, 4];

/// The queues compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queue {
    /// splitsteal's mailbox: a task proxy per message, pushed, popped, claimed, freed.
    Splitsteal,
    /// `Mutex<VecDeque<u64>>`: the locked baseline.
    Locked,
    /// `crossbeam_channel::unbounded`.
    Channel,
    /// `crossbeam_queue::SegQueue`.
    SegQueue,
    /// `crossbeam_queue::ArrayQueue` of [`ARRAY_CAPACITY`].
    ArrayQueue,
}

impl Queue {
    /// Every queue, in report order (splitsteal's first: the ratios are against it).
    pub const ALL: [Queue; 5] = [
        Queue::Splitsteal,
        Queue::Locked,
        Queue::Channel,
        Queue::SegQueue,
        Queue::ArrayQueue,
    ];

    /// The name in records, tables and the plot (short enough for the plot's legend).
    pub fn name(self) -> &'static str {
        match self {
            Queue::Splitsteal => "splitsteal-mailbox",
            Queue::Locked => "mutex-vecdeque",
            Queue::Channel => "crossbeam-channel",
            Queue::SegQueue => "crossbeam-segqueue",
            Queue::ArrayQueue => "crossbeam-array",
        }
    }
}

/// Messages per producer (M).
pub fn messages_per_producer(size: Size) -> usize {
    size.pick(2_000, 50_000, 1_000_000)
}

/// The producer counts run: `--threads` or [`PRODUCERS`].
pub fn producer_counts(env: &Env) -> Vec<usize> {
    env.threads_or(&PRODUCERS)
        .into_iter()
        .filter(|&p| p > 0)
        .collect()
}

/// Runs planned by [`run`].
pub fn planned_runs(env: &Env) -> u64 {
    let reps = env.reps_or(REPS.0, REPS.1, REPS.2) + env.warmup;
    (producer_counts(env).len() * Queue::ALL.len() * reps) as u64
}

/// The consumer's tally: each producer's next expected message, the count and the sum.
#[derive(Debug)]
pub struct Check {
    per: u64,
    next: Vec<u64>,
    count: u64,
    sum: u64,
    error: Option<String>,
}

impl Check {
    /// A tally for `producers` producers of `per` messages each.
    pub fn new(producers: usize, per: usize) -> Check {
        Check {
            per: per as u64,
            next: vec![0; producers],
            count: 0,
            sum: 0,
            error: None,
        }
    }

    /// Takes one received message.
    pub fn take(&mut self, v: u64) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(v);
        if self.error.is_some() {
            return;
        }
        let (p, i) = ((v / self.per) as usize, v % self.per);
        match self.next.get_mut(p) {
            None => self.error = Some(format!("message {v} was sent by no producer")),
            Some(n) if *n != i => {
                self.error = Some(format!(
                    "producer {p}: got its message {i}, expected {n} (a message lost, duplicated or reordered)"
                ))
            }
            Some(n) => *n += 1,
        }
    }

    /// Messages taken so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// `Ok` if every message arrived exactly once, in order per producer.
    pub fn verify(&self) -> Result<(), String> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let total = self.per * self.next.len() as u64;
        let want_sum = (total as u128 * (total as u128).saturating_sub(1) / 2) as u64;
        if self.count != total || self.sum != want_sum || self.next.iter().any(|&n| n != self.per) {
            return Err(format!(
                "received {} of {total} messages (sum {}, expected {want_sum})",
                self.count, self.sum
            ));
        }
        Ok(())
    }
}

/// An empty poll's wait: spin a little, then give the core away (with more threads than
/// cores, a spinning consumer would keep the producers it waits for off the CPU).
fn backoff(idle: &mut u32) {
    *idle += 1;
    if *idle < 64 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

/// A producer's "all sent", on drop.
struct Done<'a>(&'a AtomicUsize);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        // Release: a consumer that reads the final count sees every send before it.
        self.0.fetch_add(1, Ordering::Release);
    }
}

/// `producers` threads each call `send` `per` times while this thread polls `recv`:
/// the time from their common start to the last message, if every message arrived once.
fn exchange(
    producers: usize,
    per: usize,
    send: impl Fn(u64) + Sync,
    mut recv: impl FnMut() -> Option<u64>,
) -> Result<Duration, String> {
    let total = (producers * per) as u64;
    let start = Barrier::new(producers + 1);
    let done = AtomicUsize::new(0);
    let mut check = Check::new(producers, per);
    let elapsed = std::thread::scope(|s| {
        for p in 0..producers {
            let (send, start, done) = (&send, &start, &done);
            s.spawn(move || {
                // Counted even if `send` panics, so the consumer stops instead of waiting.
                let _done = Done(done);
                start.wait();
                let first = (p * per) as u64;
                for v in first..first + per as u64 {
                    send(v);
                }
            });
        }
        start.wait();
        let t0 = Instant::now();
        let mut elapsed = None;
        let mut idle = 0;
        loop {
            if let Some(v) = recv() {
                check.take(v);
                idle = 0;
                if check.count() == total && elapsed.is_none() {
                    elapsed = Some(t0.elapsed());
                }
                continue;
            }
            // Acquire: pairs with the producers' Release; once all are done, a queue
            // found empty stays empty, so a lost message ends the run instead of hanging.
            if done.load(Ordering::Acquire) == producers {
                match recv() {
                    Some(v) => {
                        check.take(v);
                        continue;
                    }
                    None => break,
                }
            }
            backoff(&mut idle);
        }
        elapsed.unwrap_or_else(|| t0.elapsed())
    });
    check.verify().map(|()| elapsed)
}

/// One exchange of `per` messages from each of `producers` producers through `queue`.
pub fn run_once(queue: Queue, producers: usize, per: usize) -> Result<Duration, String> {
    match queue {
        Queue::Splitsteal => {
            let (tx, mut rx) = bench_support::mailbox();
            exchange(producers, per, |v| tx.send(v), || rx.recv())
        }
        Queue::Locked => {
            let q = Mutex::new(VecDeque::new());
            let lock = || q.lock().unwrap_or_else(PoisonError::into_inner);
            exchange(
                producers,
                per,
                |v| lock().push_back(v),
                || lock().pop_front(),
            )
        }
        Queue::Channel => {
            let (tx, rx) = crossbeam_channel::unbounded();
            // A failed send (the receiver gone) would show as a lost message.
            exchange(
                producers,
                per,
                |v| {
                    let _ = tx.send(v);
                },
                || rx.try_recv().ok(),
            )
        }
        Queue::SegQueue => {
            let q = crossbeam_queue::SegQueue::new();
            exchange(producers, per, |v| q.push(v), || q.pop())
        }
        Queue::ArrayQueue => {
            let q = crossbeam_queue::ArrayQueue::new(ARRAY_CAPACITY);
            exchange(
                producers,
                per,
                |v| {
                    let (mut v, mut idle) = (v, 0);
                    while let Err(back) = q.push(v) {
                        v = back;
                        backoff(&mut idle);
                    }
                },
                || q.pop(),
            )
        }
    }
}

/// Runs the experiment.
pub fn run(env: &Env) -> ModeOutput {
    let per = messages_per_producer(env.size);
    let reps = env.reps_or(REPS.0, REPS.1, REPS.2);
    let n = Queue::ALL.len();
    let mut records = Vec::new();
    for p in producer_counts(env) {
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); n];
        let mut errors: Vec<Option<String>> = vec![None; n];
        for round in 0..env.warmup + reps {
            // Each round starts with another queue, so that none always runs first.
            for k in 0..n {
                let i = (k + round) % n;
                env.progress.inc();
                if errors[i].is_some() {
                    continue;
                }
                let q = Queue::ALL[i];
                let label = format!("{} with {p} producer(s)", q.name());
                env.progress.msg(label.clone());
                env.watchdog.begin(label.clone());
                let res = catch_unwind(AssertUnwindSafe(|| run_once(q, p, per)));
                env.watchdog.end();
                match res.unwrap_or_else(|e| Err(format!("panicked: {}", panic_message(&*e)))) {
                    Ok(t) if round >= env.warmup => times[i].push(t.as_secs_f64()),
                    Ok(_) => {}
                    Err(e) => {
                        env.progress.println(format!("FAILED: {label}: {e}"));
                        errors[i] = Some(e);
                    }
                }
            }
        }
        let first = records.len();
        for (i, q) in Queue::ALL.iter().enumerate() {
            let mut r = Record::new(
                EXPERIMENT,
                &format!("{p}-producer"),
                &format!("1 consumer, {p} producer(s) × {per} messages"),
                q.name(),
                p,
            );
            r.verified = errors[i].is_none();
            r.error = errors[i].take();
            r.extra.insert("producers".into(), p as f64);
            r.extra.insert("messages".into(), (p * per) as f64);
            if r.verified {
                r.set_times(std::mem::take(&mut times[i]));
                let msgs = (p * per) as f64;
                for (key, s) in [("p50", r.median_s), ("min", r.min_s), ("max", r.max_s)] {
                    if let Some(s) = s.filter(|&s| s > 0.0) {
                        r.extra.insert(format!("ns_per_msg_{key}"), s * 1e9 / msgs);
                        r.extra.insert(format!("msgs_per_s_{key}"), msgs / s);
                    }
                }
            }
            records.push(r);
        }
        env.save_partial(&records[first..]);
    }
    let mut out = ModeOutput {
        tables: tables(&records),
        records,
        notes: notes(per),
        ..Default::default()
    };
    plot(env, &mut out);
    out
}

/// What the numbers are, and what they are not.
fn notes(per: usize) -> Vec<String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    vec![
        format!(
            "splitsteal's mailbox (splitsteal-core, mailbox.rs) is an unbounded intrusive MPSC FIFO of task proxies, one per worker \
             (oneTBB's mail_outbox; the low-latency thesis, §3.4.2): the experiment's shape, so it is measured as a queue. \
             Its message is what mailing a task costs the runtime, less the deque push and the wake-up: the producer allocates a \
             proxy and pushes it, the consumer pops it, claims it from the mailbox side and frees it. The other queues carry a \
             plain u64; crossbeam-array is crossbeam-queue's ArrayQueue, bounded ({ARRAY_CAPACITY} slots: a producer that finds it full backs off and retries)."
        ),
        format!(
            "Each producer sends {per} messages; threads = producers, plus the one consumer. This machine has {cores} core(s): \
             with producers + 1 > {cores} threads the run is over-subscribed, and its times measure the kernel's time slicing as \
             much as the queue. An empty poll spins 64 times, then yields, for every queue alike."
        ),
    ]
}

fn extra(r: &Record, key: &str) -> Option<f64> {
    r.extra.get(key).copied()
}

/// One table: producers × queue, ns per message and messages per second.
pub fn tables(records: &[Record]) -> Vec<Table> {
    let recs: Vec<&Record> = records
        .iter()
        .filter(|r| r.experiment == EXPERIMENT)
        .collect();
    if recs.is_empty() {
        return Vec::new();
    }
    let mut tab = Table::new(
        "mailbox: one consumer, P producers: ns per message and messages/s, median (min–max over repetitions)",
        &[
            "P",
            "queue",
            "runs",
            "messages",
            "ns/msg",
            "ns/msg min–max",
            "Mmsg/s",
            "Mmsg/s min–max",
            "ns/msg vs mailbox",
        ],
    );
    for r in &recs {
        let messages = extra(r, "messages").map_or("-".into(), |m| format!("{m:.0}"));
        if !r.verified {
            let mut row = vec![
                r.threads.to_string(),
                r.scheduler.clone(),
                r.reps.to_string(),
                messages,
            ];
            row.extend(std::iter::repeat_n("FAILED".to_string(), 5));
            tab.row(row);
            continue;
        }
        let mailbox = recs
            .iter()
            .find(|m| m.threads == r.threads && m.scheduler == Queue::Splitsteal.name())
            .and_then(|m| extra(m, "ns_per_msg_p50"));
        let f =
            |k: &str, scale: f64| extra(r, k).map_or("-".into(), |v| format!("{:.1}", v * scale));
        tab.row(vec![
            r.threads.to_string(),
            r.scheduler.clone(),
            r.reps.to_string(),
            messages,
            f("ns_per_msg_p50", 1.0),
            format!("{}–{}", f("ns_per_msg_min", 1.0), f("ns_per_msg_max", 1.0)),
            f("msgs_per_s_p50", 1e-6),
            // The fastest run has the most messages per second: min time, max rate.
            format!(
                "{}–{}",
                f("msgs_per_s_max", 1e-6),
                f("msgs_per_s_min", 1e-6)
            ),
            fmt_ratio(match (extra(r, "ns_per_msg_p50"), mailbox) {
                (Some(a), Some(b)) if b > 0.0 => Some(a / b),
                _ => None,
            }),
        ]);
    }
    tab.notes.push(
        "ns/msg = (time from the producers' start to the consumer's last message) / messages; \
         'vs mailbox' > 1: that queue is slower than splitsteal's mailbox at the same P. FAILED: a message was lost, \
         duplicated or reordered (the record's error says which)."
            .into(),
    );
    vec![tab]
}

fn plot(env: &Env, out: &mut ModeOutput) {
    let recs: Vec<&Record> = out
        .records
        .iter()
        .filter(|r| r.experiment == EXPERIMENT)
        .collect();
    let mut ps: Vec<usize> = recs.iter().map(|r| r.threads).collect();
    ps.sort_unstable();
    ps.dedup();
    if ps.is_empty() {
        return;
    }
    let bars = Bars {
        title: "Mailbox micro-benchmark: ns per message (median), 1 consumer".into(),
        y_desc: "ns per message".into(),
        categories: ps.iter().map(|p| format!("P = {p}")).collect(),
        series: Queue::ALL
            .iter()
            .map(|q| {
                (
                    q.name().to_string(),
                    ps.iter()
                        .map(|&p| {
                            recs.iter()
                                .find(|r| r.threads == p && r.scheduler == q.name())
                                .and_then(|r| extra(r, "ns_per_msg_p50"))
                        })
                        .collect(),
                )
            })
            .collect(),
        log_y: true,
        reference: None,
    };
    let title = bars.title.clone();
    env.plot(&mut out.plots, &mut out.notes, "mailbox.svg", &title, |p| {
        bars.draw(p)
    });
}

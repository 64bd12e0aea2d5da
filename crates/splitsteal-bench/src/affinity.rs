//! CPU affinity (Linux): restrict a thread to one CPU, and check from inside a pool's tasks
//! which CPUs its threads may run on.
//!
//! Used by `multiprogram`'s `P=2 on 1 CPU` setting (a 2-worker pool restricted to
//! one CPU, as under `taskset -c 0`). A thread's affinity is inherited by the threads it
//! creates, so every pool built on a restricted thread has its workers on that CPU: the
//! splitsteal and rayon workers, and chili's workers and heartbeat thread (chili spawns
//! them all in `ThreadPool::with_config`; its pool also runs tasks on the thread that
//! enters it, which is why the setting runs its measurements on the restricted thread
//! too). [`probe`] verifies it with `sched_getaffinity` read inside the pool's tasks.

use std::collections::HashMap;
use std::io;
use std::sync::Mutex;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use splitsteal::ForkJoin;

use crate::sched::{BenchCtx, Scheduler, Workload};

/// The CPUs the calling thread may run on, in increasing order.
pub fn allowed_cpus() -> io::Result<Vec<usize>> {
    // SAFETY: `cpu_set_t` is plain data (all-zero is the empty set); the call writes at
    // most `size` bytes into `set`.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut set) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect())
    }
}

/// Restricts the calling thread (only it, not the process) to `cpu`. Threads it creates
/// afterwards inherit the restriction.
pub fn restrict_current_thread(cpu: usize) -> io::Result<()> {
    set_current_thread_cpus(&[cpu])
}

/// Confines the calling thread, and the pools it builds next, for a `threads`-worker
/// measurement: to the first of `cpus` for one thread, to all of `cpus` otherwise.
///
/// For side-by-side one-thread tables: schedulers that run on the calling thread (chili,
/// serial code) and those that run on one worker then share one CPU. Unpinned, on a VM
/// whose vCPUs are not equally fast, a ratio between two schedulers also measures which
/// vCPU each thread happened to get (on 2026-11-28 the same code's ratio to chili ranged
/// from 0.68 to 1.53 between processes). Returns the CPUs it chose.
pub fn confine_for_threads(threads: usize, cpus: &[usize]) -> io::Result<&[usize]> {
    let cpus = if threads == 1 {
        cpus.get(..1).unwrap_or(cpus)
    } else {
        cpus
    };
    set_current_thread_cpus(cpus).map(|()| cpus)
}

/// Lets the calling thread (only it) run on exactly `cpus`, for instance to undo
/// [`restrict_current_thread`] with what [`allowed_cpus`] returned before it.
pub fn set_current_thread_cpus(cpus: &[usize]) -> io::Result<()> {
    if let Some(&cpu) = cpus.iter().find(|&&c| c >= libc::CPU_SETSIZE as usize) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("CPU {cpu} is beyond CPU_SETSIZE"),
        ));
    }
    // SAFETY: as in `allowed_cpus`; every CPU is in range of the set.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &cpu in cpus {
            libc::CPU_SET(cpu, &mut set);
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// What [`probe`] saw: for each thread that ran one of its tasks, the CPUs that thread
/// was allowed to run on.
#[derive(Debug, Clone, Default)]
pub struct ProbeResult {
    /// Per thread, its allowed CPUs (as read inside a task on it).
    pub threads: HashMap<ThreadId, Vec<usize>>,
}

impl ProbeResult {
    /// Whether every thread seen was allowed exactly `[cpu]`.
    pub fn all_on(&self, cpu: usize) -> bool {
        !self.threads.is_empty() && self.threads.values().all(|c| c.as_slice() == [cpu])
    }

    /// The distinct allowed-CPU sets seen, e.g. `[0]` or `[0] and [0, 1]`.
    pub fn describe(&self) -> String {
        let mut sets: Vec<&Vec<usize>> = self.threads.values().collect();
        sets.sort();
        sets.dedup();
        sets.iter()
            .map(|s| format!("{s:?}"))
            .collect::<Vec<_>>()
            .join(" and ")
    }
}

/// A join tree of `2^depth` leaves; each leaf spins for `leaf` and records its thread's
/// allowed CPUs.
struct Probe {
    depth: u32,
    leaf: Duration,
}

fn probe_tree<C: ForkJoin>(
    c: &mut C,
    depth: u32,
    leaf: Duration,
    seen: &Mutex<HashMap<ThreadId, Vec<usize>>>,
) {
    if depth == 0 {
        let t = Instant::now();
        while t.elapsed() < leaf {
            std::hint::spin_loop();
        }
        let cpus = allowed_cpus().unwrap_or_default();
        let id = std::thread::current().id();
        seen.lock().expect("probe map").entry(id).or_insert(cpus);
        return;
    }
    c.join(
        |c| probe_tree(c, depth - 1, leaf, seen),
        |c| probe_tree(c, depth - 1, leaf, seen),
    );
}

impl Workload for Probe {
    type Input = ();
    type Output = HashMap<ThreadId, Vec<usize>>;

    fn input(&self) {}

    fn run<C: BenchCtx>(&self, c: &mut C, _: ()) -> Self::Output {
        let seen = Mutex::new(HashMap::new());
        probe_tree(c, self.depth, self.leaf, &seen);
        seen.into_inner().expect("probe map")
    }

    fn check(&self, _: &Self::Output) -> Result<(), String> {
        Ok(())
    }
}

/// Runs a join tree of `2^depth` leaves of `leaf` spinning each on `s` and returns the
/// allowed CPUs of every thread that ran a leaf.
pub fn probe(s: &Scheduler, depth: u32, leaf: Duration) -> ProbeResult {
    ProbeResult {
        threads: s.run(&Probe { depth, leaf }, ()).output,
    }
}

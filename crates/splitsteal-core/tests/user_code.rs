//! What each policy guarantees to user code that runs inside tasks.
//!
//! Under the default policy (`asym`, which sends no signal), while a thief steals from the
//! task's worker, the task's `write`, `sleep`, `usleep`, `nanosleep`, `poll`, `semtimedop`,
//! socket reads with `SO_RCVTIMEO` and `sigtimedwait` behave exactly as on a thread of no
//! pool. The signal policies (`lcws-signal`, `lcws-cons`, `lcws-half`) interrupt them as
//! their documentation says (a short `write`, an early `sleep`, `EINTR` from System V IPC):
//! a test checks that too, so that the documentation stays true.
//!
//! Under the default and under each signal policy (with the default signal, `SIGURG`, and
//! with a real-time one), at 1 and 2 threads, the signal masks and dispositions the program
//! sets change nothing: a start handler that blocks every signal (a producer / consumer
//! scope completes), every real-time signal and the pool's own reset to `SIG_DFL` after
//! the pool is built (the process survives and keeps stealing), and the program's own
//! real-time signals blocked before any thread exists and read back with `sigtimedwait`
//! (every copy arrives).
//!
//! Every system-call test builds its pool with [`builder`]: two workers and no policy named,
//! so the default (or `SPLITSTEAL_POLICY`); messages name the policy the pool reports. Each
//! call runs in a task on one worker (A) while A's deque holds stealable tasks
//! ([`with_pending`]) that the other worker (B) steals one at a time throughout the call.
//! Each test also checks that the pool counted steals and that B started one of those tasks
//! while the call was in progress, so that none can pass without a thief at work.
//!
//! The tests that change the process's signal mask or dispositions run in a child process:
//! this binary, filtered to the one test, with [`CHILD_ENV`] naming it and [`CASE_ENV`] the
//! case ([`run_case_in_child`]).

use std::ffi::c_void;
use std::io::Read;
use std::net::UdpSocket;
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use libc::c_int;
use splitsteal_core::{current_thread_index, Policy, ThreadPool, ThreadPoolBuilder};

mod common;

/// The builder of every pool of the system-call tests: two workers, the default policy.
fn builder() -> ThreadPoolBuilder {
    ThreadPoolBuilder::new().num_threads(2)
}

/// The policies the mask and disposition tests run under: the default, and each signal
/// policy (whose signal the program's masks and dispositions must not turn against it).
const MASK_POLICIES: [Option<Policy>; 4] = [
    None,
    Some(Policy::LcwsSignal),
    Some(Policy::LcwsCons),
    Some(Policy::LcwsHalf),
];

/// A pool of `threads` workers under `policy` (the default for `None`), exposure signal
/// `signal` (the default for `None`).
fn builder_for(policy: Option<Policy>, threads: usize, signal: Option<c_int>) -> ThreadPoolBuilder {
    let mut b = ThreadPoolBuilder::new().num_threads(threads);
    if let Some(p) = policy {
        b = b.policy(p);
    }
    if let Some(s) = signal {
        b = b.signal(s);
    }
    b
}

/// The cases of a mask or disposition test: every policy of [`MASK_POLICIES`] at 1 and 2
/// threads with the default signal, and the signal policies with a real-time signal of
/// the program's choice too.
fn mask_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for policy in MASK_POLICIES {
        for threads in [1, 2] {
            cases.push(Case {
                policy,
                threads,
                signal: None,
            });
            if policy.is_some() {
                cases.push(Case {
                    policy,
                    threads,
                    signal: Some(libc::SIGRTMIN() + 7),
                });
            }
        }
    }
    cases
}

/// One (policy, threads, signal) case of a mask or disposition test.
#[derive(Debug, Clone, Copy)]
struct Case {
    policy: Option<Policy>,
    threads: usize,
    signal: Option<c_int>,
}

impl Case {
    fn builder(self) -> ThreadPoolBuilder {
        builder_for(self.policy, self.threads, self.signal)
    }

    /// The case as a child process's argument ([`Case::parse`] reads it back).
    fn encode(self) -> String {
        format!(
            "{},{},{}",
            self.policy.map_or("default".to_string(), |p| p.to_string()),
            self.threads,
            self.signal.map_or(0, |s| s)
        )
    }

    fn parse(text: &str) -> Case {
        let mut it = text.split(',');
        let policy = match it.next().unwrap() {
            "default" => None,
            p => Some(p.parse().unwrap()),
        };
        let threads = it.next().unwrap().parse().unwrap();
        let signal = match it.next().unwrap().parse().unwrap() {
            0 => None,
            s => Some(s),
        };
        Case {
            policy,
            threads,
            signal,
        }
    }
}

fn pool() -> ThreadPool {
    builder()
        .build()
        .unwrap_or_else(|e| panic!("building a pool with the default policy: {e}"))
}

/// How long each timed call waits (the socket, semaphore, poll and sleep tests).
const TIMEOUT: Duration = Duration::from_millis(200);

/// A failure guard, never a timing expectation: a test body that has not finished by then
/// fails instead of hanging.
const LIMIT: Duration = Duration::from_secs(30);

// ---- The harness: a call on worker A while worker B steals from A. ----

/// How many stealable tasks worker A holds during a call, and how long each keeps the thief
/// busy (unless the call is over): 200 × 8 ms = 1.6 s of stealing, longer than any call
/// here, so that B keeps coming back to A's deque for the whole call.
const PENDING: usize = 200;
const PENDING_SPIN: Duration = Duration::from_millis(8);

/// What the pending tasks of one call saw.
struct Watch {
    /// The worker that makes the call (A).
    owner: usize,
    /// The call is in progress.
    in_call: AtomicBool,
    /// The call is over: the pending tasks that are left return at once.
    done: AtomicBool,
    /// Pending tasks that started on another worker while the call was in progress.
    stolen_during_call: AtomicUsize,
}

impl Watch {
    fn pending_task(&self) {
        // SeqCst: an order with the calling worker's stores around the call, nothing else.
        if current_thread_index() != Some(self.owner) && self.in_call.load(Ordering::SeqCst) {
            self.stolen_during_call.fetch_add(1, Ordering::Relaxed);
        }
        let t = Instant::now();
        while !self.done.load(Ordering::Relaxed) && t.elapsed() < PENDING_SPIN {
            std::hint::spin_loop();
        }
    }
}

/// Pushes `k` pending tasks on the calling worker's deque (the second closures of `k`
/// nested joins, oldest outermost, the first a thief takes), then runs `body` above them.
fn with_pending<R: Send>(k: usize, watch: &Watch, body: &(dyn Fn() -> R + Sync)) -> R {
    if k == 0 {
        return body();
    }
    splitsteal_core::join(|| with_pending(k - 1, watch, body), || watch.pending_task()).0
}

/// A call's result, with what the thief did meanwhile.
struct Observed<R> {
    result: R,
    policy: Policy,
    /// Steals the pool counted during the install that made the call.
    steals: u64,
    /// Pending tasks that started on the other worker while the call was in progress.
    stolen_during_call: usize,
}

impl<R> Observed<R> {
    /// The other worker stole from the caller's deque during the call: the test is not
    /// vacuous.
    fn assert_stolen(&self, what: &str) {
        assert!(
            self.steals >= 1 && self.stolen_during_call >= 1,
            "{what} ({}): the other worker did not steal from the calling worker during the \
             call ({} steals counted, {} pending tasks started on the other worker while the \
             call was in progress): thieves must stay active during the call, and without them \
             this test proves nothing",
            self.policy,
            self.steals,
            self.stolen_during_call
        );
    }
}

/// Runs `call` in a task on one worker of `pool` (A), above [`PENDING`] stealable tasks on
/// A's deque, which the other worker steals during the call.
fn under_stealing<R: Send>(pool: &ThreadPool, call: &(dyn Fn() -> R + Sync)) -> Observed<R> {
    let before = pool.stats().steals;
    let (result, stolen_during_call) = pool.install(|| {
        let watch = Watch {
            owner: current_thread_index().expect("an installed closure runs on a worker"),
            in_call: AtomicBool::new(false),
            done: AtomicBool::new(false),
            stolen_during_call: AtomicUsize::new(0),
        };
        let result = with_pending(PENDING, &watch, &|| {
            watch.in_call.store(true, Ordering::SeqCst);
            let result = call();
            watch.in_call.store(false, Ordering::SeqCst);
            watch.done.store(true, Ordering::Relaxed);
            result
        });
        // Every pending task has run: the joins above returned.
        (result, watch.stolen_during_call.load(Ordering::Relaxed))
    });
    Observed {
        result,
        policy: pool.policy(),
        steals: pool.stats().steals - before,
        stolen_during_call,
    }
}

/// Runs `f` on a thread of its own and waits at most [`LIMIT`] for its result, so that a
/// regression fails the test instead of hanging it (a stuck thread is left behind).
fn bounded<R: Send + 'static>(what: &str, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(LIMIT) {
        Ok(r) => r,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: no result within {LIMIT:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: the test thread panicked"),
    }
}

/// The calling thread's `errno`.
fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// `errno` value `e` in words, for messages.
fn strerror(e: i32) -> String {
    std::io::Error::from_raw_os_error(e).to_string()
}

fn spin_for(d: Duration) {
    let t = Instant::now();
    while t.elapsed() < d {
        std::hint::spin_loop();
    }
}

// ---- One test per system call. ----

const WRITE_LEN: usize = 256 * 1024;

/// One blocking `write` of 256 KiB into a pipe (64 KiB of buffer) whose reader drains 4 KiB
/// every 2 ms: the call blocks about 100 ms with part of the data transferred, where a
/// signal handler, `SA_RESTART` or not, makes it return a short count. It must return the
/// full count, and the reader must get every byte.
#[test]
fn a_blocking_write_into_a_slowly_drained_pipe_transfers_everything() {
    let (o, received) = bounded("write", || {
        let (mut reader, writer) = std::io::pipe().unwrap();
        let drain = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            let mut total = 0;
            loop {
                match reader.read(&mut buf) {
                    Ok(0) => return total,
                    Ok(n) => total += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => panic!("reading the pipe: {e}"),
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        let data = vec![0x5au8; WRITE_LEN];
        let pool = pool();
        let o = under_stealing(&pool, &|| {
            // One raw `write`: a short count comes back as is (no retry loop completes it).
            // SAFETY: writes `data.len()` bytes from a live buffer to our pipe.
            let n = unsafe { libc::write(writer.as_raw_fd(), data.as_ptr().cast(), data.len()) };
            (n, errno())
        });
        drop(writer);
        (o, drain.join().unwrap())
    });
    let (n, e) = o.result;
    let failure = if n < 0 {
        format!("failed: {}", strerror(e))
    } else {
        "a short count".to_string()
    };
    assert_eq!(
        n, WRITE_LEN as isize,
        "{}: a blocking write of {WRITE_LEN} bytes returned {n} ({failure})",
        o.policy
    );
    assert_eq!(received, WRITE_LEN, "{}: bytes the reader got", o.policy);
    o.assert_stolen("write");
}

/// glibc's `sleep(1)`: it returns the whole seconds left when interrupted, so an interrupted
/// `sleep(1)` returns 0, "slept it all", early. It must return 0 after at least 1 s.
#[test]
fn libc_sleep_sleeps_the_whole_second() {
    let o = bounded("sleep", || {
        let pool = pool();
        under_stealing(&pool, &|| {
            let t = Instant::now();
            // SAFETY: a plain library call.
            let left = unsafe { libc::sleep(1) };
            (left, t.elapsed())
        })
    });
    let (left, slept) = o.result;
    assert!(
        left == 0 && slept >= Duration::from_secs(1),
        "{}: sleep(1) returned {left} after {slept:?}",
        o.policy
    );
    o.assert_stolen("sleep");
}

/// `usleep(200_000)` returns 0 after at least 200 ms, never -1 with `EINTR`.
#[test]
fn usleep_sleeps_the_whole_time() {
    let o = bounded("usleep", || {
        let pool = pool();
        under_stealing(&pool, &|| {
            let t = Instant::now();
            // SAFETY: a plain library call.
            let r = unsafe { libc::usleep(TIMEOUT.as_micros() as libc::useconds_t) };
            (r, errno(), t.elapsed())
        })
    });
    let (r, e, slept) = o.result;
    assert!(
        r == 0 && slept >= TIMEOUT,
        "{}: usleep({}) returned {r} (errno {}) after {slept:?}",
        o.policy,
        TIMEOUT.as_micros(),
        strerror(e)
    );
    o.assert_stolen("usleep");
}

/// `nanosleep` for 200 ms returns 0 after at least 200 ms, never -1 with `EINTR`.
#[test]
fn nanosleep_sleeps_the_whole_time() {
    let o = bounded("nanosleep", || {
        let pool = pool();
        under_stealing(&pool, &|| {
            let request = libc::timespec {
                tv_sec: 0,
                tv_nsec: TIMEOUT.as_nanos() as libc::c_long,
            };
            let mut left = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            let t = Instant::now();
            // SAFETY: a valid request and a live struct for the time left.
            let r = unsafe { libc::nanosleep(&request, &mut left) };
            (r, errno(), t.elapsed(), left.tv_nsec)
        })
    });
    let (r, e, slept, left_ns) = o.result;
    assert!(
        r == 0 && slept >= TIMEOUT,
        "{}: nanosleep({TIMEOUT:?}) returned {r} (errno {}) after {slept:?}, {left_ns} ns left",
        o.policy,
        strerror(e)
    );
    o.assert_stolen("nanosleep");
}

/// `poll` on a pipe nobody writes, with a 200 ms timeout: returns 0 (timed out) after at
/// least 200 ms, never -1 with `EINTR`.
#[test]
fn poll_on_a_silent_pipe_times_out() {
    let o = bounded("poll", || {
        let (reader, writer) = std::io::pipe().unwrap();
        let pool = pool();
        let o = under_stealing(&pool, &|| {
            let mut fd = libc::pollfd {
                fd: reader.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let t = Instant::now();
            // SAFETY: one live `pollfd` for our pipe's read end.
            let r = unsafe { libc::poll(&mut fd, 1, TIMEOUT.as_millis() as c_int) };
            (r, errno(), t.elapsed())
        });
        drop(writer);
        o
    });
    let (r, e, waited) = o.result;
    assert!(
        r == 0 && waited >= TIMEOUT,
        "{}: poll with a {TIMEOUT:?} timeout on a silent pipe returned {r} (errno {}) after \
         {waited:?}",
        o.policy,
        strerror(e)
    );
    o.assert_stolen("poll");
}

// glibc's `semtimedop` (sys/sem.h), which the libc crate does not declare.
// SAFETY: the declaration is glibc's prototype on 64-bit Linux.
unsafe extern "C" {
    fn semtimedop(
        semid: c_int,
        sops: *mut libc::sembuf,
        nsops: libc::size_t,
        timeout: *const libc::timespec,
    ) -> c_int;
}

/// A private System V semaphore set of one semaphore, removed when dropped.
struct Semaphore(c_int);

impl Semaphore {
    fn new() -> Semaphore {
        // SAFETY: a plain system call: a new private set of one semaphore.
        let id = unsafe { libc::semget(libc::IPC_PRIVATE, 1, libc::IPC_CREAT | 0o600) };
        assert!(id >= 0, "semget: {}", std::io::Error::last_os_error());
        let sem = Semaphore(id);
        // SAFETY: `GETVAL` takes no fourth argument.
        let value = unsafe { libc::semctl(id, 0, libc::GETVAL) };
        assert_eq!(value, 0, "a new semaphore's value");
        sem
    }

    /// `semtimedop` decrementing the semaphore (at 0, so it waits) with a [`TIMEOUT`]
    /// timeout: its result and `errno`.
    fn down_with_timeout(&self) -> (c_int, i32) {
        let mut op = libc::sembuf {
            sem_num: 0,
            sem_op: -1,
            sem_flg: 0,
        };
        let timeout = libc::timespec {
            tv_sec: 0,
            tv_nsec: TIMEOUT.as_nanos() as libc::c_long,
        };
        // SAFETY: one live operation on our semaphore set, a valid timeout.
        let r = unsafe { semtimedop(self.0, &mut op, 1, &timeout) };
        (r, errno())
    }
}

impl Drop for Semaphore {
    fn drop(&mut self) {
        // SAFETY: removes our own set; `IPC_RMID` takes no fourth argument.
        unsafe { libc::semctl(self.0, 0, libc::IPC_RMID) };
    }
}

/// `semtimedop` decrementing a semaphore whose value is 0, with a 200 ms timeout: fails with
/// `EAGAIN` after at least 200 ms, never with `EINTR` (System V IPC calls are never
/// restarted after a signal handler).
#[test]
fn semtimedop_times_out_with_eagain() {
    let o = bounded("semtimedop", || {
        let sem = Semaphore::new();
        let pool = pool();
        under_stealing(&pool, &|| {
            let t = Instant::now();
            let (r, e) = sem.down_with_timeout();
            (r, e, t.elapsed())
        })
    });
    let (r, e, waited) = o.result;
    assert!(
        r == -1 && e == libc::EAGAIN && waited >= TIMEOUT,
        "{}: semtimedop with a {TIMEOUT:?} timeout on a semaphore at 0 returned {r} (errno {}) \
         after {waited:?}; expected -1 with EAGAIN",
        o.policy,
        strerror(e)
    );
    o.assert_stolen("semtimedop");
}

/// How early a socket's `SO_RCVTIMEO` may end on a plain thread: the kernel keeps that
/// timeout in jiffies and its timer may fire up to one tick (at most 10 ms) short of the
/// requested time.
const JIFFY: Duration = Duration::from_millis(10);

/// `recv` on a Unix stream socket and on a loopback UDP socket, each with a 200 ms
/// `SO_RCVTIMEO` and no data coming: each fails with `EAGAIN` (`EWOULDBLOCK`) once the
/// timeout has passed, never with `EINTR`.
#[test]
fn socket_reads_with_a_receive_timeout_time_out_with_eagain() {
    let o = bounded("socket read", || {
        let (stream, _peer) = UnixStream::pair().unwrap();
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
        udp.set_read_timeout(Some(TIMEOUT)).unwrap();
        let pool = pool();
        under_stealing(&pool, &|| {
            [stream.as_raw_fd(), udp.as_raw_fd()].map(|fd| {
                let mut buf = [0u8; 64];
                let t = Instant::now();
                // SAFETY: receives into a live buffer of `buf.len()` bytes.
                let n = unsafe { libc::recv(fd, buf.as_mut_ptr().cast(), buf.len(), 0) };
                (n, errno(), t.elapsed())
            })
        })
    });
    for ((n, e, waited), socket) in o.result.into_iter().zip(["Unix stream", "UDP"]) {
        assert!(
            n == -1 && e == libc::EAGAIN && waited + JIFFY >= TIMEOUT,
            "{}: recv on a {socket} socket with a {TIMEOUT:?} SO_RCVTIMEO returned {n} (errno \
             {}) after {waited:?}; expected -1 with EAGAIN",
            o.policy,
            strerror(e)
        );
    }
    o.assert_stolen("socket read");
}

// ---- Child processes. ----

/// Set in a child process to the name of the test whose body it runs.
const CHILD_ENV: &str = "SPLITSTEAL_USER_CODE_CHILD";
/// Set in a child process to the case it runs ([`Case::encode`]), where a test has cases.
const CASE_ENV: &str = "SPLITSTEAL_USER_CODE_CASE";

/// How long a child may take (a failure guard).
const CHILD_LIMIT: Duration = Duration::from_secs(60);

/// Whether this process is the child that runs `test`'s body.
fn is_child(test: &str) -> bool {
    std::env::var(CHILD_ENV).is_ok_and(|t| t == test)
}

/// The set of `signals` (every signal for `None`).
fn sigset(signals: Option<&[c_int]>) -> libc::sigset_t {
    // SAFETY: the calls initialize and fill the zeroed set we own.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        match signals {
            None => {
                libc::sigfillset(&mut set);
            }
            Some(signals) => {
                libc::sigemptyset(&mut set);
                for &s in signals {
                    libc::sigaddset(&mut set, s);
                }
            }
        }
        set
    }
}

fn describe(status: ExitStatus) -> String {
    match status.signal() {
        Some(s) if (libc::SIGRTMIN()..=libc::SIGRTMAX()).contains(&s) => {
            format!(
                "was killed by signal {s} (SIGRTMIN+{})",
                s - libc::SIGRTMIN()
            )
        }
        Some(s) => format!("was killed by signal {s}"),
        None => format!("exited with {status}"),
    }
}

/// Runs `test` in a child process (this binary, filtered to that test, [`CHILD_ENV`] set to
/// its name) whose signal mask blocks `blocked` from its first instruction on (set between
/// fork and exec and kept by `exec`), so that every thread it ever starts inherits that
/// mask. Fails unless the child ran the test and it passed.
fn run_in_child(test: &str, blocked: &[c_int]) {
    run_case_in_child(test, blocked, None);
}

/// [`run_in_child`] for one `case` of `test` (the child reads it from [`CASE_ENV`]);
/// returns what the child wrote on stderr.
fn run_case_in_child(test: &str, blocked: &[c_int], case: Option<Case>) -> String {
    let exe = std::env::current_exe().unwrap();
    let mut command = Command::new(exe);
    command
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, test)
        .env(CASE_ENV, case.map_or(String::new(), Case::encode))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if !blocked.is_empty() {
        let set = sigset(Some(blocked));
        // SAFETY: the closure runs in the child between fork and exec; it calls only
        // `sigprocmask` (async-signal-safe) on a set built before the fork, and allocates
        // nothing.
        unsafe {
            command.pre_exec(move || {
                if libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    let child = command.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let (output, timed_out) = match rx.recv_timeout(CHILD_LIMIT) {
        Ok(output) => (output.unwrap(), false),
        Err(_) => {
            // SAFETY: a plain system call on our own child, not yet reaped (its waiter has
            // not returned).
            unsafe { libc::kill(pid, libc::SIGKILL) };
            (rx.recv().unwrap().unwrap(), true)
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let text = format!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
    let case = case.map_or(String::new(), |c| format!(" ({c:?})"));
    assert!(
        !timed_out,
        "{test}{case}: the child did not finish within {CHILD_LIMIT:?}; its output:\n{text}"
    );
    assert!(
        output.status.success(),
        "{test}{case}: the child {}; its output:\n{text}",
        describe(output.status)
    );
    assert!(
        stdout.contains("1 passed"),
        "{test}{case}: the child did not run the test; its output:\n{text}"
    );
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The case a child process runs.
fn child_case() -> Case {
    Case::parse(&std::env::var(CASE_ENV).unwrap())
}

/// The threads of this process whose signal mask leaves `signo` unblocked, as
/// `name (tid)`, read from `/proc/self/task/*/status`.
fn threads_not_blocking(signo: c_int) -> Vec<String> {
    let mut found = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").unwrap() {
        let task = task.unwrap();
        // A thread that has exited since the listing has no status to read.
        let Ok(status) = std::fs::read_to_string(task.path().join("status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .map(str::trim)
                .unwrap_or("")
                .to_string()
        };
        let blocked = u64::from_str_radix(&field("SigBlk:"), 16).unwrap();
        if blocked & (1 << (signo - 1)) == 0 {
            found.push(format!(
                "{} ({})",
                field("Name:"),
                task.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// The program's own real-time signals: `SIGRTMIN+5` (the number `lcws-signal` uses by
/// default) and `SIGRTMIN+6`.
fn own_signals() -> [c_int; 2] {
    [libc::SIGRTMIN() + 5, libc::SIGRTMIN() + 6]
}

/// Copies of each own signal that the program queues.
const QUEUED: usize = 100;

/// Queues copy `i` of `signo` to this process, with `i` as its value.
fn queue(signo: c_int, i: usize) {
    let value = libc::sigval {
        sival_ptr: i as *mut c_void,
    };
    // SAFETY: a plain system call; the value is carried, never dereferenced.
    let r = unsafe { libc::sigqueue(libc::getpid(), signo, value) };
    assert_eq!(
        r,
        0,
        "sigqueue({signo}): {}",
        std::io::Error::last_os_error()
    );
}

/// What a program's `sigtimedwait` loop got.
#[derive(Debug, Default)]
struct Received {
    /// The values of each own signal's queued copies, in the order received.
    values: [Vec<usize>; 2],
    /// Signals received that this program did not queue: (number, `si_code`).
    foreign: Vec<(c_int, c_int)>,
    /// Failures other than a timeout (`EINTR`...).
    errors: Vec<i32>,
    /// `sigtimedwait` calls made.
    calls: usize,
}

/// Waits for the program's `signals` with `sigtimedwait` (1 s timeout per call) until `n`
/// copies of each came, or a call times out once `sent_all` holds; then takes whatever is
/// still pending (copies no one queued).
fn receive(signals: [c_int; 2], n: usize, sent_all: &AtomicBool) -> Received {
    let set = sigset(Some(&signals));
    // SAFETY: a plain system call.
    let pid = unsafe { libc::getpid() };
    let mut got = Received::default();
    let t = Instant::now();
    let wait = |timeout: Duration, got: &mut Received| -> Option<i32> {
        let timeout = libc::timespec {
            tv_sec: timeout.as_secs() as libc::time_t,
            tv_nsec: timeout.subsec_nanos() as libc::c_long,
        };
        // SAFETY: zeroed `siginfo_t` is plain data that the call fills.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: a valid set, a live `siginfo_t`, a valid timeout.
        let r = unsafe { libc::sigtimedwait(&set, &mut info, &timeout) };
        got.calls += 1;
        if r < 0 {
            return Some(errno());
        }
        // SAFETY: a queued signal's `siginfo_t` holds a sender pid and a value.
        let (sender, value) = unsafe { (info.si_pid(), info.si_value().sival_ptr as usize) };
        match signals.iter().position(|&s| s == r) {
            Some(k) if info.si_code == libc::SI_QUEUE && sender == pid => got.values[k].push(value),
            _ => got.foreign.push((r, info.si_code)),
        }
        None
    };
    while got.values.iter().any(|v| v.len() < n) && t.elapsed() < LIMIT && got.errors.len() < 1000 {
        match wait(Duration::from_secs(1), &mut got) {
            None => {}
            Some(libc::EAGAIN) if sent_all.load(Ordering::SeqCst) => break,
            Some(libc::EAGAIN) => {}
            Some(e) => got.errors.push(e),
        }
    }
    while wait(Duration::ZERO, &mut got).is_none() {}
    got
}

/// Checks what [`receive`] got: every queued copy, in order, nothing else, no failure.
fn assert_received_all(got: &Received, what: &str) {
    let errors: Vec<String> = got.errors.iter().map(|&e| strerror(e)).collect();
    assert!(
        errors.is_empty(),
        "{what}: sigtimedwait failed {} times ({:?}...) in {} calls",
        errors.len(),
        &errors[..errors.len().min(3)],
        got.calls
    );
    for (k, signo) in own_signals().into_iter().enumerate() {
        let values = &got.values[k];
        assert!(
            values.iter().copied().eq(0..QUEUED),
            "{what}: of the {QUEUED} copies of signal {signo} the program queued, it \
             received {} (values {:?}...)",
            values.len(),
            &values[..values.len().min(10)]
        );
    }
    assert!(
        got.foreign.is_empty(),
        "{what}: the program received signals it never queued: {} as (signo, si_code), \
         first {:?}",
        got.foreign.len(),
        &got.foreign[..got.foreign.len().min(5)]
    );
}

/// Checks that every thread of this process blocks the program's own signals.
fn assert_blocked_everywhere(when: &str) {
    for signo in own_signals() {
        let open = threads_not_blocking(signo);
        assert!(
            open.is_empty(),
            "{when}: threads that do not block signal {signo}: {open:?}"
        );
    }
}

/// A task calls `sigtimedwait` for the program's own `SIGRTMIN+5` and `SIGRTMIN+6`, blocked
/// in every thread of the process from its start, while another thread queues 100 copies
/// of each to the process (one pair every 2 ms): the task receives every copy, in order,
/// and nothing else, and no call fails with `EINTR`. In a child process, whose mask blocks
/// both signals before any thread exists.
#[test]
fn sigtimedwait_in_a_task_receives_every_queued_signal() {
    const TEST: &str = "sigtimedwait_in_a_task_receives_every_queued_signal";
    if !is_child(TEST) {
        return run_in_child(TEST, &own_signals());
    }
    assert_blocked_everywhere("the child, before building the pool");
    let pool = pool();
    let go = Arc::new(AtomicBool::new(false));
    let sent_all = Arc::new(AtomicBool::new(false));
    let sender = {
        let (go, sent_all) = (Arc::clone(&go), Arc::clone(&sent_all));
        std::thread::spawn(move || {
            let t = Instant::now();
            while !go.load(Ordering::SeqCst) && t.elapsed() < LIMIT {
                std::thread::sleep(Duration::from_millis(1));
            }
            for i in 0..QUEUED {
                for signo in own_signals() {
                    queue(signo, i);
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            sent_all.store(true, Ordering::SeqCst);
        })
    };
    let o = under_stealing(&pool, &|| {
        go.store(true, Ordering::SeqCst);
        receive(own_signals(), QUEUED, &sent_all)
    });
    sender.join().unwrap();
    let what = format!("{}: sigtimedwait in a task", o.policy);
    assert_received_all(&o.result, &what);
    o.assert_stolen("sigtimedwait");
    assert_blocked_everywhere(&format!("{}, after the test", o.policy));
}

// ---- Signal masks and dispositions the program sets. ----

/// Rounds of the producer / consumer scope.
const ROUNDS: usize = 20;
/// A failure guard per round (a round takes milliseconds).
const ROUND_LIMIT: Duration = Duration::from_secs(5);
/// Items the producer sends per round.
const ITEMS: u64 = 1000;

/// Whether the calling thread's mask blocks `signo`.
fn blocked_here(signo: c_int) -> bool {
    // SAFETY: with a null new set, `pthread_sigmask` only writes the current mask into our
    // zeroed set.
    unsafe {
        let mut mask: libc::sigset_t = std::mem::zeroed();
        assert_eq!(
            libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut mask),
            0
        );
        libc::sigismember(&mask, signo) == 1
    }
}

/// A start handler blocks every signal in each worker (`pthread_sigmask(SIG_BLOCK, full
/// set)`); then, 20 times, `pool.scope(|s| { s.spawn(|_| produce(tx)); rx.iter().sum() })`:
/// the consumer blocks in `recv` until the spawned producer runs on the other worker. Each
/// round must finish (within 5 s, a failure guard), with the right sum, the producer on
/// another worker than the consumer. Under the default policy and each signal policy
/// (with the default signal and with a real-time one), at 2 threads: at 1 the consumer
/// would wait for a producer only its own worker could run, under rayon as here.
#[test]
fn a_start_handler_that_blocks_every_signal_does_not_hang_a_producer_consumer_scope() {
    for case in mask_cases().into_iter().filter(|c| c.threads == 2) {
        producer_consumer_rounds(case);
    }
}

fn producer_consumer_rounds(case: Case) {
    let pool = Arc::new(
        case.builder()
            .start_handler(|_| {
                let set = sigset(None);
                // SAFETY: `pthread_sigmask` reads a filled set; no old mask wanted.
                let r =
                    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
                assert_eq!(r, 0, "pthread_sigmask");
            })
            .build()
            .unwrap(),
    );
    let policy = format!("{} ({case:?})", pool.policy());
    let (tx, rx) = mpsc::channel();
    {
        let pool = Arc::clone(&pool);
        std::thread::spawn(move || {
            for round in 0..ROUNDS {
                let producer_at = AtomicUsize::new(usize::MAX);
                let (consumer_at, sum, masked) = pool.scope(|s| {
                    let (items, received) = mpsc::channel::<u64>();
                    let producer_at = &producer_at;
                    s.spawn(move |_| {
                        producer_at.store(current_thread_index().unwrap(), Ordering::Relaxed);
                        for i in 0..ITEMS {
                            items.send(i).unwrap();
                        }
                    });
                    // A signal the pool does not use: the start handler's mask is in force.
                    let masked = blocked_here(libc::SIGRTMIN() + 6);
                    let sum: u64 = received.iter().sum();
                    (current_thread_index().unwrap(), sum, masked)
                });
                let producer_at = producer_at.load(Ordering::Relaxed);
                if tx
                    .send((round, consumer_at, producer_at, sum, masked))
                    .is_err()
                {
                    return;
                }
            }
        });
    }
    for round in 0..ROUNDS {
        let (r, consumer_at, producer_at, sum, masked) = match rx.recv_timeout(ROUND_LIMIT) {
            Ok(got) => got,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!(
                "{policy}: round {round} of {ROUNDS} did not finish within {ROUND_LIMIT:?}: the \
                 consumer waits for a producer that the other worker never got ({:?})",
                pool.stats()
            ),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("{policy}: round {round}: the thread running the rounds panicked")
            }
        };
        assert_eq!(r, round);
        assert!(masked, "{policy}: the start handler's mask is not in force");
        assert_eq!(sum, ITEMS * (ITEMS - 1) / 2, "{policy}: round {round}");
        assert_ne!(
            consumer_at, producer_at,
            "{policy}: round {round}: the producer ran on the consumer's worker"
        );
    }
}

/// After the pool is built, the program resets every real-time signal `SIGRTMIN..=SIGRTMAX`
/// and the pool's own signal to `SIG_DFL` (for a real-time signal, an action that ends the
/// process), then runs workloads whose thieves steal from busy workers: the process must
/// survive and keep stealing. In a child process per case: the default policy and each
/// signal policy, with the default signal and a real-time one, at 1 and 2 threads.
#[test]
fn every_signal_reset_to_sig_dfl_after_the_build_kills_nothing() {
    const TEST: &str = "every_signal_reset_to_sig_dfl_after_the_build_kills_nothing";
    if !is_child(TEST) {
        for case in mask_cases() {
            let stderr = run_case_in_child(TEST, &[], Some(case));
            // The documented sentence: the pool says so once on stderr, as soon as a thief
            // that wants to signal finds the disposition changed (with two workers under a
            // signal policy, one does; with one, no thief ever asks).
            let reports = stderr
                .matches("no longer runs splitsteal's handler")
                .count();
            let expected = usize::from(case.policy.is_some() && case.threads > 1);
            assert_eq!(
                reports, expected,
                "{case:?}: reports of the changed disposition on stderr:\n{stderr}"
            );
        }
        return;
    }
    let case = child_case();
    let pool = case.builder().build().unwrap();
    let pool_signal = case.signal.unwrap_or_else(splitsteal_core::default_signal);
    for signo in (libc::SIGRTMIN()..=libc::SIGRTMAX()).chain([pool_signal]) {
        // SAFETY: sets a signal's disposition to the default; no handler of ours.
        let old = unsafe { libc::signal(signo, libc::SIG_DFL) };
        assert_ne!(old, libc::SIG_ERR, "signal({signo}, SIG_DFL)");
    }
    if case.policy.is_none() {
        // The default sends no signal: its thieves steal from a task that only spins.
        for _ in 0..3 {
            let o = under_stealing(&pool, &|| spin_for(Duration::from_millis(50)));
            if case.threads > 1 {
                o.assert_stolen("a spinning task after SIG_DFL");
            }
        }
    }
    // Under a signal policy the thieves, finding the disposition changed, send no more and
    // post poll requests, which the workers answer at their joins: stealing goes on. A
    // few steals, not one: a thief that fell asleep gets its first task from a standing
    // request, without asking (and then would not report the change the parent checks).
    // Runs long enough for a thief to ask and then steal within one run on a loaded
    // machine too: there a thief between steal attempts yields, and gets a CPU again only
    // after the busy threads' time slices (milliseconds), so it asks in one slice and
    // takes what the answer exposed in a later one. With `fib(22)` runs (under a
    // millisecond) whole runs went by without a steal: none in 30 s once in 25 runs of
    // this binary beside two CPU hogs. With three children and two hogs on the 2 CPUs
    // (`lcws-signal` and `lcws-half`, 30 children each) a child took 8 and 11 s (medians,
    // up to 27) with `fib(27)` runs, and 0.3 and 0.7 s (up to 1.8) with `fib(30)`.
    let before = pool.stats().steals;
    for _ in 0..5 {
        assert_eq!(pool.install(|| common::fib(22)), 17711);
    }
    let t = Instant::now();
    while case.threads > 1 && pool.stats().steals < before + 8 && t.elapsed() < LIMIT {
        assert_eq!(pool.install(|| common::fib(30)), 832_040);
    }
    let steals = pool.stats().steals - before;
    assert!(
        case.threads == 1 || steals > 0,
        "{} {case:?}: no steal after the reset",
        pool.policy()
    );
    eprintln!(
        "child ({} {case:?}): alive after {steals} steals",
        pool.policy()
    );
}

/// A program blocks its own `SIGRTMIN+5` and `SIGRTMIN+6` before any thread exists (so
/// every thread, the pool's included, inherits the mask), builds the pool, and while a
/// stealing workload runs on it, queues 100 copies of each to the process and reads them
/// back with `sigtimedwait` on its own thread: it gets every copy, in order, and nothing
/// else; the pool's threads still block both signals. In a child process.
#[test]
fn signals_blocked_before_the_pool_exists_all_reach_the_program() {
    const TEST: &str = "signals_blocked_before_the_pool_exists_all_reach_the_program";
    if !is_child(TEST) {
        // The program's own signals are not the pool's: a pool given one of them as its
        // signal takes it (documented), so the real-time case uses another number.
        for case in mask_cases() {
            run_case_in_child(TEST, &own_signals(), Some(case));
        }
        return;
    }
    assert_blocked_everywhere("the child, before building the pool");
    let case = child_case();
    let pool = case.builder().build().unwrap();
    let before = pool.stats().steals;
    let stop = AtomicBool::new(false);
    let got = std::thread::scope(|s| {
        // `fib(30)` runs, long enough for a thief to ask and steal within one on a loaded
        // machine (see `every_signal_reset_to_sig_dfl_after_the_build_kills_nothing`):
        // with `fib(20)` runs, four runs of this binary in a row beside two CPU hogs saw no
        // steal in 30 s (`lcws-cons`, `SIGRTMIN+7`).
        s.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                assert_eq!(pool.install(|| common::fib(30)), 832_040);
            }
        });
        let t = Instant::now();
        while case.threads > 1 && pool.stats().steals == before && t.elapsed() < LIMIT {
            std::thread::sleep(Duration::from_millis(1));
        }
        for i in 0..QUEUED {
            for signo in own_signals() {
                queue(signo, i);
            }
        }
        let got = receive(own_signals(), QUEUED, &AtomicBool::new(true));
        stop.store(true, Ordering::Relaxed);
        got
    });
    let policy = pool.policy();
    let steals = pool.stats().steals - before;
    let open: Vec<_> = own_signals()
        .into_iter()
        .map(|signo| (signo, threads_not_blocking(signo)))
        .collect();
    assert_received_all(
        &got,
        &format!(
            "{policy}: the program's own sigtimedwait (threads that do not block the signals: \
             {open:?})"
        ),
    );
    if case.threads > 1 {
        assert!(steals >= 1, "{policy}: no steals during the workload");
    }
    assert_blocked_everywhere(&format!("{policy}, after the workload"));
}

// ---- What the signal policies do to system calls, as their documentation says. ----

/// A private System V message queue, removed when dropped.
struct MessageQueue(c_int);

impl MessageQueue {
    fn new() -> MessageQueue {
        // SAFETY: a plain system call: a new private queue.
        let id = unsafe { libc::msgget(libc::IPC_PRIVATE, libc::IPC_CREAT | 0o600) };
        assert!(id >= 0, "msgget: {}", std::io::Error::last_os_error());
        MessageQueue(id)
    }
}

impl Drop for MessageQueue {
    fn drop(&mut self) {
        // SAFETY: removes our own queue; `IPC_RMID` takes no buffer.
        unsafe { libc::msgctl(self.0, libc::IPC_RMID, std::ptr::null_mut()) };
    }
}

/// A System V message: a type and one byte.
#[repr(C)]
struct Message {
    kind: libc::c_long,
    byte: u8,
}

/// Under each signal policy, a task's system calls do what `Policy::LcwsSignal`'s,
/// `ThreadPoolBuilder::signal`'s and `exposure.rs`'s documentation says while a thief asks
/// its worker for work: a blocking `write` that moved some data returns a short count,
/// glibc's `sleep` returns early, and System V's `semtimedop` and `msgrcv` fail with
/// `EINTR`. (That `poll`, `nanosleep` and socket reads with a timeout fail with `EINTR` is
/// `tests/signals.rs`'s.) Each call is tried up to five times: whether a signal lands
/// during a given call is a matter of timing, and one that never does in five fails the
/// test.
#[test]
fn the_signal_policies_do_to_system_calls_what_their_documentation_says() {
    for policy in [Policy::LcwsSignal, Policy::LcwsCons, Policy::LcwsHalf] {
        let documented = bounded(&policy.to_string(), move || {
            let pool = builder_for(Some(policy), 2, None).build().unwrap();
            let tries = |call: &dyn Fn(&ThreadPool) -> bool| (0..5).any(|_| call(&pool));
            let short_write = tries(&|pool: &ThreadPool| {
                let (mut reader, writer) = std::io::pipe().unwrap();
                let drain = std::thread::spawn(move || {
                    let mut buf = [0u8; 4096];
                    while reader.read(&mut buf).is_ok_and(|n| n > 0) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                });
                let data = vec![0x5au8; WRITE_LEN];
                let o = under_stealing(pool, &|| {
                    // SAFETY: writes `data.len()` bytes from a live buffer to our pipe.
                    unsafe { libc::write(writer.as_raw_fd(), data.as_ptr().cast(), data.len()) }
                });
                drop(writer);
                drain.join().unwrap();
                (0..WRITE_LEN as isize).contains(&o.result)
            });
            let early_sleep = tries(&|pool: &ThreadPool| {
                let o = under_stealing(pool, &|| {
                    let t = Instant::now();
                    // SAFETY: a plain library call.
                    unsafe { libc::sleep(1) };
                    t.elapsed()
                });
                o.result < Duration::from_secs(1)
            });
            let semtimedop_eintr = tries(&|pool: &ThreadPool| {
                let sem = Semaphore::new();
                let o = under_stealing(pool, &|| sem.down_with_timeout());
                o.result == (-1, libc::EINTR)
            });
            let msgrcv_eintr = tries(&|pool: &ThreadPool| {
                let queue = MessageQueue::new();
                let id = queue.0;
                let got_signal = AtomicBool::new(false);
                // A message after 300 ms ends a call that no signal interrupted.
                let sender = std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(300));
                    let m = Message { kind: 1, byte: 7 };
                    // SAFETY: sends one live message of one byte to our queue.
                    unsafe { libc::msgsnd(id, (&raw const m).cast(), 1, libc::IPC_NOWAIT) };
                });
                under_stealing(pool, &|| {
                    let mut m = Message { kind: 0, byte: 0 };
                    // SAFETY: receives at most one byte into a live message.
                    let r = unsafe { libc::msgrcv(id, (&raw mut m).cast(), 1, 0, 0) };
                    got_signal.store(r == -1 && errno() == libc::EINTR, Ordering::Relaxed);
                });
                sender.join().unwrap();
                drop(queue);
                got_signal.load(Ordering::Relaxed)
            });
            [
                ("a short write", short_write),
                ("sleep returning early", early_sleep),
                ("semtimedop failing with EINTR", semtimedop_eintr),
                ("msgrcv failing with EINTR", msgrcv_eintr),
            ]
        });
        for (what, seen) in documented {
            assert!(
                seen,
                "{policy}: never saw {what} in five calls under stealing"
            );
        }
    }
}

/*
 * Calibration probes for `sim steal-cost` (crates/splitsteal-sim/src/steal_cost.rs).
 *
 *     gcc -O2 -pthread -o /tmp/steal_costs crates/splitsteal-sim/probes/steal_costs.c
 *     /tmp/steal_costs            # needs 2 CPUs; prints one line per probe
 *
 * Every probe pins the measuring thread to CPU 0 and, where a second thread takes part,
 * that thread to CPU 1, and reports the median of several rounds (ns):
 *
 *   fence        a store followed by a SeqCst fence (mfence), minus the store alone
 *   cas          an uncontended successful CAS (lock cmpxchg), minus a plain increment
 *   line         one cache-line transfer between the two CPUs (half a ping-pong round trip)
 *   heavy0       membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), no other thread running
 *   heavy0_one   the median of single calls spaced by 5 us (includes one clock read, ~20 ns)
 *   heavy1       the same with one other thread spinning on CPU 1
 *   heavy1_one   likewise
 *   ipi_loss     time the spinning thread loses per membarrier (its loop iterations
 *                missing in a window with membarriers, one every 5 us, against windows
 *                without, divided by its iteration rate and by the number of membarriers)
 *   kill_call    pthread_kill's own time (call to return) on a spinning thread
 *   kill_rtt     pthread_kill to a spinning thread until its handler's store is seen
 *   sig_loss     time the spinning thread loses per signal handled (as ipi_loss)
 *   ipi_gap      the spinner's median interruption per membarrier, from its own TSC reads
 *                (every gap between two reads over 150 cycles counts)
 *   sig_gap      likewise per signal (interrupt, signal frame, handler, sigreturn)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Actions are spaced by GAP_NS of busy waiting, so that the spinner handles each one on its
 * own (back to back, the interrupts of one call overlap the next). */
#define GAP_NS 5000u

static void gap(void) {
    uint64_t t0 = now_ns();
    while (now_ns() - t0 < GAP_NS)
        ;
}

static void pin(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (pthread_setaffinity_np(pthread_self(), sizeof s, &s) != 0) {
        fprintf(stderr, "cannot pin to CPU %d\n", cpu);
        exit(1);
    }
}

static int membarrier(int cmd) { return (int)syscall(__NR_membarrier, cmd, 0, 0); }

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define ROUNDS 9

/* ---- the second thread: spins, counting iterations; or bounces a cache line ---- */

static _Atomic int mode;            /* 0 stop, 1 spin, 2 ping-pong, 3 spin recording gaps */
static _Atomic uint64_t spins;      /* the spinner's iteration count, published each loop */
static _Atomic uint64_t handled;    /* the signal handler's store */
static _Atomic uint64_t ball;       /* ping-pong line */
static _Atomic int ready;

/* Mode 3: the spinner reads the TSC in a tight loop and records every gap between two
 * reads longer than GAP_MIN_CYCLES (an interruption), up to MAX_GAPS. */
#define MAX_GAPS 100000
#define GAP_MIN_CYCLES 150
static uint64_t gaps[MAX_GAPS];
static _Atomic uint64_t ngaps;
static _Atomic int recording;

static void on_signal(int sig) {
    (void)sig;
    atomic_fetch_add_explicit(&handled, 1, memory_order_release);
}

static void *other(void *arg) {
    (void)arg;
    pin(1);
    atomic_store(&ready, 1);
    uint64_t n = 0;
    for (;;) {
        int m = atomic_load_explicit(&mode, memory_order_relaxed);
        if (m == 0)
            break;
        if (m == 1) {
            n++;
            atomic_store_explicit(&spins, n, memory_order_relaxed);
        } else if (m == 3) {
            uint64_t prev = __rdtsc();
            while (atomic_load_explicit(&mode, memory_order_relaxed) == 3) {
                uint64_t t = __rdtsc();
                if (t - prev > GAP_MIN_CYCLES && atomic_load_explicit(&recording, memory_order_relaxed)) {
                    uint64_t k = atomic_load_explicit(&ngaps, memory_order_relaxed);
                    if (k < MAX_GAPS) {
                        gaps[k] = t - prev;
                        atomic_store_explicit(&ngaps, k + 1, memory_order_release);
                    }
                }
                prev = t;
            }
        } else {
            uint64_t b = atomic_load_explicit(&ball, memory_order_acquire);
            if (b & 1)
                atomic_store_explicit(&ball, b + 1, memory_order_release);
        }
    }
    return NULL;
}

static pthread_t start_other(int m) {
    pthread_t t;
    atomic_store(&mode, m);
    atomic_store(&ready, 0);
    pthread_create(&t, NULL, other, NULL);
    while (!atomic_load(&ready))
        ;
    /* let it settle on its CPU */
    uint64_t t0 = now_ns();
    while (now_ns() - t0 < 20000000u)
        ;
    return t;
}

static void stop_other(pthread_t t) {
    atomic_store(&mode, 0);
    pthread_join(t, NULL);
}

/* ---- single-thread probes ---- */

static volatile uint64_t sink;

static double probe_fence(void) {
    const int n = 2000000;
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        uint64_t t0 = now_ns();
        for (int i = 0; i < n; i++) {
            sink = (uint64_t)i;
            atomic_thread_fence(memory_order_seq_cst);
        }
        uint64_t t1 = now_ns();
        for (int i = 0; i < n; i++) {
            sink = (uint64_t)i;
            atomic_signal_fence(memory_order_seq_cst);
        }
        uint64_t t2 = now_ns();
        r[k] = ((double)(t1 - t0) - (double)(t2 - t1)) / n;
    }
    return median(r, ROUNDS);
}

static double probe_cas(void) {
    const int n = 2000000;
    static _Atomic uint64_t x;
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        uint64_t t0 = now_ns();
        for (int i = 0; i < n; i++) {
            uint64_t e = (uint64_t)i;
            atomic_compare_exchange_strong(&x, &e, (uint64_t)i + 1);
        }
        uint64_t t1 = now_ns();
        for (int i = 0; i < n; i++) {
            sink = sink + 1;
        }
        uint64_t t2 = now_ns();
        r[k] = ((double)(t1 - t0) - (double)(t2 - t1)) / n;
        atomic_store(&x, 0);
    }
    return median(r, ROUNDS);
}

/* Median time of single calls, spaced by GAP_NS. */
static double probe_heavy_single(void) {
    enum { N = 20001 };
    static double d[N];
    for (int i = 0; i < N; i++) {
        uint64_t t0 = now_ns();
        membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
        d[i] = (double)(now_ns() - t0);
        gap();
    }
    return median(d, N);
}

static double probe_heavy(void) {
    const int n = 20000;
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        uint64_t t0 = now_ns();
        for (int i = 0; i < n; i++)
            membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
        r[k] = (double)(now_ns() - t0) / n;
    }
    return median(r, ROUNDS);
}

/* ---- two-thread probes ---- */

static double probe_line(void) {
    const int n = 200000;
    double r[ROUNDS];
    pthread_t t = start_other(2);
    for (int k = 0; k < ROUNDS; k++) {
        atomic_store(&ball, 0);
        uint64_t t0 = now_ns();
        for (int i = 0; i < n; i++) {
            uint64_t b = atomic_load_explicit(&ball, memory_order_acquire);
            atomic_store_explicit(&ball, b + 1, memory_order_release);
            while (atomic_load_explicit(&ball, memory_order_acquire) == b + 1)
                ;
        }
        r[k] = (double)(now_ns() - t0) / n / 2.0;
    }
    stop_other(t);
    return median(r, ROUNDS);
}

/* Iterations of the spinner during [now, now + ns) while `act` runs as often as it can
 * (or nothing, if act is NULL); *count gets the number of actions. */
static uint64_t window(uint64_t ns, void (*act)(void), uint64_t *count, uint64_t *elapsed) {
    /* Without an action the loop waits as the actions' gaps do. */
    uint64_t s0 = atomic_load_explicit(&spins, memory_order_relaxed);
    uint64_t t0 = now_ns(), t1, c = 0;
    do {
        if (act) {
            act();
            c++;
        } else {
            gap();
        }
        t1 = now_ns();
    } while (t1 - t0 < ns);
    uint64_t s1 = atomic_load_explicit(&spins, memory_order_relaxed);
    *count = c;
    *elapsed = t1 - t0;
    return s1 - s0;
}

static void act_membarrier(void) {
    membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
    gap();
}

static pthread_t spinner;

static void act_signal(void) {
    uint64_t h = atomic_load_explicit(&handled, memory_order_acquire);
    pthread_kill(spinner, SIGUSR1);
    while (atomic_load_explicit(&handled, memory_order_acquire) == h)
        ;
    gap();
}

/* Time the spinner loses per action: alternating windows without and with actions. */
static double loss_per(void (*act)(void)) {
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        uint64_t c, e0, e1, e2, dummy;
        uint64_t base_a = window(10000000u, NULL, &dummy, &e0);
        uint64_t with = window(10000000u, act, &c, &e1);
        uint64_t base_b = window(10000000u, NULL, &dummy, &e2);
        double rate = (double)(base_a + base_b) / (double)(e0 + e2); /* iterations per ns */
        double lost_ns = ((double)e1 * rate - (double)with) / rate;
        r[k] = lost_ns / (double)c;
    }
    return median(r, ROUNDS);
}

/* TSC cycles per ns, against CLOCK_MONOTONIC over 50 ms. */
static double tsc_per_ns(void) {
    uint64_t t0 = now_ns(), c0 = __rdtsc();
    while (now_ns() - t0 < 50000000u)
        ;
    return (double)(__rdtsc() - c0) / (double)(now_ns() - t0);
}

/* The spinner's median interruption (ns) while `act` runs N_ACT times, `act` spacing its
 * calls by GAP_NS: each action's gap is one interruption of the spinner, from its last TSC
 * read before to its first after. The spinner's other interruptions (timer ticks) are a
 * few per millisecond against one action per 5 us, so the median is the action's. */
#define N_ACT 4000
static double gap_median(void (*act)(void), double per_ns, int *count) {
    atomic_store(&ngaps, 0);
    atomic_store(&recording, 1);
    for (int i = 0; i < N_ACT; i++)
        act();
    atomic_store(&recording, 0);
    int n = (int)atomic_load_explicit(&ngaps, memory_order_acquire);
    static double v[MAX_GAPS];
    for (int i = 0; i < n; i++)
        v[i] = (double)gaps[i] / per_ns;
    *count = n;
    return n ? median(v, n) : 0.0;
}

int main(void) {
    pin(0);
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0) {
        fprintf(stderr, "membarrier register: %s\n", strerror(errno));
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);

    printf("fence      %.1f\n", probe_fence());
    printf("cas        %.1f\n", probe_cas());
    printf("heavy0     %.1f\n", probe_heavy());
    printf("heavy0_one %.1f\n", probe_heavy_single());
    printf("line       %.1f\n", probe_line());

    spinner = start_other(1);
    printf("heavy1     %.1f\n", probe_heavy());
    printf("heavy1_one %.1f\n", probe_heavy_single());
    printf("ipi_loss   %.1f\n", loss_per(act_membarrier));

    const int n = 20007;
    double call[ROUNDS], rtt[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        uint64_t tc = 0, tr = 0;
        for (int i = 0; i < n / ROUNDS; i++) {
            uint64_t h = atomic_load_explicit(&handled, memory_order_acquire);
            uint64_t t0 = now_ns();
            pthread_kill(spinner, SIGUSR1);
            uint64_t t1 = now_ns();
            while (atomic_load_explicit(&handled, memory_order_acquire) == h)
                ;
            uint64_t t2 = now_ns();
            tc += t1 - t0;
            tr += t2 - t0;
        }
        call[k] = (double)tc / (n / ROUNDS);
        rtt[k] = (double)tr / (n / ROUNDS);
    }
    printf("kill_call  %.1f\n", median(call, ROUNDS));
    printf("kill_rtt   %.1f\n", median(rtt, ROUNDS));
    printf("sig_loss   %.1f\n", loss_per(act_signal));
    stop_other(spinner);

    /* The same losses seen from the spinner: its median interruption per action. */
    double per_ns = tsc_per_ns();
    spinner = start_other(3);
    int n_ipi, n_sig;
    double ipi_gap = gap_median(act_membarrier, per_ns, &n_ipi);
    double sig_gap = gap_median(act_signal, per_ns, &n_sig);
    printf("ipi_gap    %.1f\n", ipi_gap);
    printf("sig_gap    %.1f\n", sig_gap);
    fprintf(stderr, "(gaps seen: %d for %d membarriers, %d for %d signals)\n", n_ipi, N_ACT, n_sig, N_ACT);
    stop_other(spinner);
    return 0;
}

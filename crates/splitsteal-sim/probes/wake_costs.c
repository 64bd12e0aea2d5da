/*
 * Calibration probes for the sleeping thieves of `sim steal-cost`
 * (crates/splitsteal-sim/src/steal_cost.rs), a companion of steal_costs.c.
 *
 *     gcc -O2 -pthread -o /tmp/wake_costs crates/splitsteal-sim/probes/wake_costs.c
 *     /tmp/wake_costs             # needs 2 CPUs; prints one line per probe; ~1 s
 *
 * The waker is pinned to CPU 0, the sleeper to CPU 1. A sleeper parks the way Rust's
 * `std::thread::park` does on Linux (FUTEX_WAIT_PRIVATE on a word), the waker unparks it
 * the way `Thread::unpark` does (a store, then FUTEX_WAKE_PRIVATE of one waiter). Each
 * probe reports the median (and the quartiles) over ROUNDS rounds, in ns:
 *
 *   yield        sched_yield() with no other runnable thread on the CPU (batches of 1000)
 *   unpark_call  the waker's FUTEX_WAKE call, from call to return, with a sleeper parked
 *   wake         from just before that call to the sleeper running again (its first
 *                clock read after FUTEX_WAIT returns; CLOCK_MONOTONIC on both CPUs)
 *
 * Each wake-up comes GAP_US after the sleeper parked, so that its CPU has gone idle, as a
 * parked thief's has.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 301
#define GAP_US 1000u

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
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

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    printf("%-12s %9.0f  [%.0f-%.0f]\n", name, v[n / 2], v[n / 4], v[3 * n / 4]);
}

static long futex(_Atomic uint32_t *w, int op, uint32_t val) {
    return syscall(SYS_futex, (uint32_t *)w, op, val, NULL, NULL, 0);
}

/* The parker's word: 0 empty, 1 notified, UINT32_MAX parked (as std's futex parker). */
static _Atomic uint32_t state;
static _Atomic int round_no;      /* the round the sleeper is in (-1: stop) */
static _Atomic int parked_round;  /* the round in which the sleeper last parked */
static _Atomic uint64_t woke_at;  /* the sleeper's first clock read after waking */

static void *sleeper(void *arg) {
    (void)arg;
    pin(1);
    for (;;) {
        int r = atomic_load(&round_no);
        if (r < 0)
            return NULL;
        if (atomic_load(&parked_round) == r) {
            continue;
        }
        /* park: EMPTY -> PARKED, then wait while PARKED */
        uint32_t expect = 0;
        if (!atomic_compare_exchange_strong(&state, &expect, UINT32_MAX)) {
            atomic_store(&state, 0); /* a token was left: consume it */
            continue;
        }
        atomic_store(&parked_round, r);
        while (atomic_load(&state) == UINT32_MAX)
            futex(&state, FUTEX_WAIT_PRIVATE, UINT32_MAX);
        atomic_store(&woke_at, now_ns());
        atomic_store(&state, 0);
    }
}

static void spin_us(uint64_t us) {
    uint64_t t0 = now_ns();
    while (now_ns() - t0 < us * 1000)
        ;
}

int main(void) {
    static double v[ROUNDS], w[ROUNDS];
    pin(0);
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t t0 = now_ns();
        for (int i = 0; i < 1000; i++)
            sched_yield();
        v[r] = (double)(now_ns() - t0) / 1000.0;
    }
    report("yield", v, ROUNDS);

    atomic_store(&parked_round, -1);
    pthread_t t;
    pthread_create(&t, NULL, sleeper, NULL);
    for (int r = 0; r < ROUNDS; r++) {
        atomic_store(&woke_at, 0);
        atomic_store(&round_no, r);
        while (atomic_load(&parked_round) != r)
            ;
        spin_us(GAP_US);
        /* unpark: PARKED -> NOTIFIED, then wake one waiter */
        uint64_t t0 = now_ns();
        uint32_t prev = atomic_exchange(&state, 1);
        if (prev == UINT32_MAX)
            futex(&state, FUTEX_WAKE_PRIVATE, 1);
        uint64_t t1 = now_ns();
        uint64_t at;
        while ((at = atomic_load(&woke_at)) == 0)
            ;
        v[r] = (double)(t1 - t0);
        w[r] = (double)(at - t0);
    }
    atomic_store(&round_no, -1);
    pthread_join(t, NULL);
    report("unpark_call", v, ROUNDS);
    report("wake", w, ROUNDS);
    return 0;
}

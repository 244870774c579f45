/* sim/barrier.c -- spin, then sleep (see barrier.h). */
#define _DEFAULT_SOURCE /* sysconf(_SC_NPROCESSORS_ONLN) */
#include "sim/barrier.h"

#include <time.h>
#include <unistd.h>

/* How long a waiter spins before it sleeps: longer than most waits at a
** round's end (the other thread's share of it), short enough that a
** waiter whose partner is held up gives its core back soon. */
#define BARRIER_SPIN_NS 200000

/* The spin adapts to the host (barrier.h): a spin that ends in a sleep
** halves the budget (below BARRIER_SPIN_MIN_NS: none), one that ends in
** the release adds an eighth of the full spin back; with no budget, one
** wait in BARRIER_PROBE_EVERY spins BARRIER_PROBE_NS to see whether
** spinning pays again. */
#define BARRIER_SPIN_MIN_NS 2000
#define BARRIER_PROBE_EVERY 64
#define BARRIER_PROBE_NS    (BARRIER_SPIN_NS / 8)

static void spin_paid(Barrier *b, bool paid)
{
    uint64_t was = atomic_load_explicit(&b->spin_ns, memory_order_relaxed), now;
    if (paid) now = was + BARRIER_SPIN_NS / 8 > BARRIER_SPIN_NS ? BARRIER_SPIN_NS : was + BARRIER_SPIN_NS / 8;
    else now = was / 2 < BARRIER_SPIN_MIN_NS ? 0 : was / 2;
    /* a racing waiter's update may win: either is a fair estimate */
    atomic_store_explicit(&b->spin_ns, now, memory_order_relaxed);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

bool barrier_init(Barrier *b, uint32_t n)
{
    atomic_init(&b->arrived, 0);
    atomic_init(&b->generation, 0);
    b->n = n;
    b->sleepers = 0;
    atomic_init(&b->spin_ns, BARRIER_SPIN_NS);
    atomic_init(&b->waits, 0);
    /* more threads than cores: a spinning waiter would hold the core the
    ** thread it waits for needs, so waiters sleep at once */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    b->spin = cores <= 0 || n <= (uint64_t)cores;
    if (pthread_mutex_init(&b->lock, NULL) != 0) return false;
    if (pthread_cond_init(&b->opened, NULL) != 0) {
        pthread_mutex_destroy(&b->lock);
        return false;
    }
    return true;
}

void barrier_wait(Barrier *b)
{
    unsigned gen = atomic_load_explicit(&b->generation, memory_order_acquire);
    /* acq_rel: the last arrival acquires what every earlier one released */
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1 == b->n) {
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed); /* before the release below */
        pthread_mutex_lock(&b->lock); /* a waiter going to sleep checks the generation under it */
        atomic_store_explicit(&b->generation, gen + 1, memory_order_release);
        if (b->sleepers) pthread_cond_broadcast(&b->opened);
        pthread_mutex_unlock(&b->lock);
        return;
    }
    uint64_t budget = atomic_load_explicit(&b->spin_ns, memory_order_relaxed);
    /* a spin that stopped paying is tried now and then, briefly: the load
    ** that made it fail may have gone */
    if (b->spin && !budget && atomic_fetch_add_explicit(&b->waits, 1, memory_order_relaxed) % BARRIER_PROBE_EVERY == 0)
        budget = BARRIER_PROBE_NS;
    if (b->spin && budget) {
        uint64_t until = 0;
        for (uint32_t i = 1;; i++) {
            if (atomic_load_explicit(&b->generation, memory_order_acquire) != gen) {
                spin_paid(b, true);
                return;
            }
            cpu_relax();
            if (i % 64 == 0) { /* the clock now and then: a pause lasts 10 to 150 cycles by processor */
                uint64_t t = now_ns();
                if (!until) until = t + budget;
                else if (t >= until) break;
            }
        }
        spin_paid(b, false);
    }
    pthread_mutex_lock(&b->lock);
    b->sleepers++;
    while (atomic_load_explicit(&b->generation, memory_order_acquire) == gen) pthread_cond_wait(&b->opened, &b->lock);
    b->sleepers--;
    pthread_mutex_unlock(&b->lock);
}

void barrier_destroy(Barrier *b)
{
    pthread_cond_destroy(&b->opened);
    pthread_mutex_destroy(&b->lock);
}

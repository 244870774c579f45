/* sim/barrier.h -- the barrier between the threads of one launch (sim/par.c):
** every round ends with two to four of them, a few hundred microseconds
** apart. pthread_barrier_wait puts each waiter to sleep in the kernel and
** the last arrival wakes them, tens of microseconds each on a virtual
** machine, on the critical path every time (2 threads of transpose/copy:
** 13% of the samples in the kernel's scheduler). Here a waiter first spins
** on a generation counter, for up to 0.2 ms (barrier.c, BARRIER_SPIN_NS),
** then sleeps on a condition variable; with more threads than cores it
** sleeps at once, so that the thread it waits for gets a core. The spin
** adapts: where spins end in sleeps (another process holds a core, so the
** thread waited for is not running) it shrinks to nothing, and a spinning
** waiter no longer takes the core from the thread it waits for (2 threads
** with the other core busy ran 2.6x slower than one). */
#ifndef GPUSIM_SIM_BARRIER_H
#define GPUSIM_SIM_BARRIER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    _Alignas(64) atomic_uint arrived;    /* threads at the barrier this generation */
    _Alignas(64) atomic_uint generation; /* + 1 each time all have arrived        */
    uint32_t        n;                   /* threads that meet at it               */
    uint32_t        sleepers;            /* under lock: waiters past their spins  */
    bool            spin;                /* no more threads than cores: spin first */
    atomic_uint_fast64_t spin_ns;        /* how long a waiter spins now (adapts)  */
    atomic_uint     waits;               /* waits while spin_ns is 0 (probes)     */
    pthread_mutex_t lock;
    pthread_cond_t  opened;
} Barrier;

/* A barrier for n >= 1 threads. False when the host refuses the mutex or
** the condition variable (nothing is then held). */
bool barrier_init(Barrier *b, uint32_t n);

/* Returns once all n threads have called it; what each wrote before its
** call is visible to every thread after. */
void barrier_wait(Barrier *b);

void barrier_destroy(Barrier *b);

#endif

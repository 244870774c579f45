/* tests/check_barrier.c -- the launch threads' barrier (sim/barrier.h): no
** thread passes before all have arrived, what each wrote before is seen by
** all after, round after round; a waiter that has gone to sleep is woken;
** more threads than cores; one thread alone; a spin that stops paying
** and starts again. And the host's free cores, which a launch's threads
** are fitted to. (CI runs it under ThreadSanitizer too.) */
#define _DEFAULT_SOURCE /* usleep */
#include "sim/barrier.h"

#include <check.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/host.h"

#define MAX_THREADS 8
#define ROUNDS      2000

typedef struct {
    Barrier  *bar;
    uint32_t  n, me, rounds;
    uint32_t *slot;       /* one per thread: the round it last wrote */
    uint32_t  late_every; /* this thread sleeps before arriving every k-th round (0: never) */
    uint32_t  errors;
} Worker;

static void *work(void *arg)
{
    Worker *w = arg;
    for (uint32_t r = 1; r <= w->rounds; r++) {
        if (w->late_every && r % w->late_every == 0) usleep(2000); /* past the others' spins */
        w->slot[w->me] = r;
        barrier_wait(w->bar);
        for (uint32_t t = 0; t < w->n; t++) /* every thread has written round r */
            if (w->slot[t] != r) w->errors++;
        barrier_wait(w->bar); /* nobody writes r + 1 before all have read */
    }
    return NULL;
}

static uint64_t last_spin_ns; /* the barrier's spin when run() ended */

static uint32_t run(uint32_t n, uint32_t rounds, uint32_t late_every)
{
    alarm(30); /* a waiter never woken hangs: end the test's process instead */
    Barrier bar;
    ck_assert(barrier_init(&bar, n));
    uint32_t slot[MAX_THREADS] = { 0 };
    Worker w[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    for (uint32_t i = 0; i < n; i++) {
        w[i] = (Worker){ &bar, n, i, rounds, slot, i == n - 1 ? late_every : 0, 0 };
        if (i) ck_assert_int_eq(pthread_create(&tid[i], NULL, work, &w[i]), 0);
    }
    work(&w[0]);
    uint32_t errors = w[0].errors;
    for (uint32_t i = 1; i < n; i++) {
        ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
        errors += w[i].errors;
    }
    last_spin_ns = atomic_load(&bar.spin_ns);
    barrier_destroy(&bar);
    return errors;
}

/* 1 (alone), 2 and 3 (as CI's --threads runs), 8 (more than this host's cores). */
static const uint32_t THREADS[] = { 1, 2, 3, 8 };

START_TEST(test_rounds_in_step)
{
    ck_assert_uint_eq(run(THREADS[_i], ROUNDS, 0), 0);
}
END_TEST

START_TEST(test_a_late_thread_wakes_the_sleepers)
{
    /* the last thread arrives 2 ms late every 10th round: the others have
    ** stopped spinning and sleep, and must be woken by its arrival */
    ck_assert_uint_eq(run(THREADS[_i], 100, 10), 0);
}
END_TEST

/* A late arrival every round makes half the spins end in sleeps: the spin
** shrinks; then on-time rounds. In step throughout. */
START_TEST(test_spin_adapts)
{
    ck_assert_uint_eq(run(2, 60, 1), 0);
    ck_assert_uint_lt(last_spin_ns, 200000); /* half its spins ended in sleeps: shorter */
    Barrier bar;
    ck_assert(barrier_init(&bar, 1));
    ck_assert_uint_eq(atomic_load(&bar.spin_ns), 200000); /* starts at the full spin */
    barrier_destroy(&bar);
    ck_assert_uint_eq(run(2, ROUNDS, 0), 0);
}
END_TEST

static atomic_bool spinning;

static void *spin(void *arg)
{
    (void)arg;
    while (atomic_load(&spinning)) {}
    return NULL;
}

/* At least 1, at most the online cores; a thread of ours that spins takes
** one (it is runnable whenever the count is read). */
START_TEST(test_host_free_cores)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t cores = online > 0 ? (uint32_t)online : 1, free_cores = host_free_cores();
    ck_assert_uint_ge(free_cores, 1);
    ck_assert_uint_le(free_cores, cores);
    atomic_store(&spinning, true);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, spin, NULL), 0);
    usleep(1000);
    free_cores = host_free_cores();
    atomic_store(&spinning, false);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_uint_le(free_cores, cores > 1 ? cores - 1 : 1);
}
END_TEST

static Suite *barrier_suite(void)
{
    Suite *s = suite_create("barrier");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_rounds_in_step, 0, sizeof THREADS / sizeof THREADS[0]);
    tcase_add_loop_test(core, test_a_late_thread_wakes_the_sleepers, 1, sizeof THREADS / sizeof THREADS[0]);
    tcase_add_test(core, test_spin_adapts);
    tcase_add_test(core, test_host_free_cores);
    suite_add_tcase(s, core);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(barrier_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

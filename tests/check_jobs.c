/* tests/check_jobs.c -- the pool of cli/jobs.h: every task runs once,
** `done` sees them in index order after each has finished, a task starts
** only after its deps finished, tasks do run at the same time, and one
** thread means the caller's own. */
#define _POSIX_C_SOURCE 200809L
#include "cli/jobs.h"
#include "sim/gpu.h"

#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

enum { MAX_TASKS = 200 };

typedef struct {
    atomic_int  runs[MAX_TASKS];     /* times each task ran               */
    atomic_bool finished[MAX_TASKS];
    atomic_bool deps_ok[MAX_TASKS];  /* its deps had finished at its start */
    uint32_t    dep[MAX_TASKS][2];   /* each task needs up to two earlier */
    uint32_t    ndep[MAX_TASKS];
    uint32_t    handed[MAX_TASKS];   /* done's order                      */
    uint32_t    nhanded;
    bool        done_saw_unfinished;
    uint32_t    ntasks;
    /* concurrency probe: tasks wait (bounded) until `want` are running */
    atomic_int  running, most_running;
    int         want;
    pthread_t   caller;
    atomic_bool off_caller;
} Log;

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000, us % 1000000 * 1000 };
    nanosleep(&ts, NULL);
}

static void run(void *user, uint32_t t)
{
    Log *l = user;
    bool ok = true;
    for (uint32_t k = 0; k < l->ndep[t]; k++) ok &= atomic_load(&l->finished[l->dep[t][k]]);
    atomic_store(&l->deps_ok[t], ok);
    if (!pthread_equal(pthread_self(), l->caller)) atomic_store(&l->off_caller, true);
    int now = atomic_fetch_add(&l->running, 1) + 1;
    int seen = atomic_load(&l->most_running);
    while (now > seen && !atomic_compare_exchange_weak(&l->most_running, &seen, now)) {
    }
    for (int i = 0; i < 2000 && atomic_load(&l->running) < l->want; i++) sleep_us(500); /* at most 1 s */
    /* earlier tasks take longer, so later ones overtake them if they can */
    sleep_us((long)(l->ntasks - t) % 7 * 100);
    atomic_fetch_add(&l->runs[t], 1);
    atomic_fetch_sub(&l->running, 1);
    atomic_store(&l->finished[t], true);
}

static uint32_t deps(void *user, uint32_t t, const uint32_t **list)
{
    Log *l = user;
    *list = l->dep[t];
    return l->ndep[t];
}

static void done(void *user, uint32_t t)
{
    Log *l = user;
    for (uint32_t k = 0; k <= t; k++)
        if (!atomic_load(&l->finished[k])) l->done_saw_unfinished = true;
    l->handed[l->nhanded++] = t;
}

static Log *log_new(uint32_t ntasks, bool with_deps)
{
    Log *l = calloc(1, sizeof *l);
    l->ntasks = ntasks;
    l->caller = pthread_self();
    for (uint32_t t = 0; with_deps && t < ntasks; t++) {
        if (t >= 1 && t % 3 == 0) l->dep[t][l->ndep[t]++] = t - 1; /* the one just before */
        if (t >= 5 && t % 4 == 1) l->dep[t][l->ndep[t]++] = t / 2; /* one far back */
    }
    return l;
}

static void check_all(const Log *l)
{
    ck_assert_uint_eq(l->nhanded, l->ntasks);
    ck_assert(!l->done_saw_unfinished);
    for (uint32_t t = 0; t < l->ntasks; t++) {
        ck_assert_int_eq(atomic_load(&l->runs[t]), 1);
        ck_assert_uint_eq(l->handed[t], t);
        ck_assert_msg(atomic_load(&l->deps_ok[t]), "task %u started before its deps finished", t);
    }
}

START_TEST(every_task_once_in_order)
{
    static const uint32_t threads[] = { 0, 1, 2, 3, 8, 300 };
    static const uint32_t sizes[] = { 0, 1, 5, 100, MAX_TASKS };
    for (size_t a = 0; a < sizeof threads / sizeof threads[0]; a++)
        for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++) {
            Log *l = log_new(sizes[b], true);
            JobSet j = { .ntasks = sizes[b], .threads = threads[a], .run = run, .deps = deps, .done = done, .user = l };
            jobs_run(&j);
            check_all(l);
            free(l);
        }
}
END_TEST

START_TEST(tasks_overlap_on_several_threads)
{
    Log *l = log_new(8, false);
    l->want = 4;
    JobSet j = { .ntasks = 8, .threads = 4, .run = run, .done = done, .user = l };
    jobs_run(&j);
    check_all(l);
    ck_assert_int_eq(atomic_load(&l->most_running), 4);
    ck_assert(atomic_load(&l->off_caller));
    free(l);
}
END_TEST

START_TEST(one_thread_is_the_callers)
{
    Log *l = log_new(6, true);
    JobSet j = { .ntasks = 6, .threads = 1, .run = run, .deps = deps, .done = done, .user = l };
    jobs_run(&j);
    check_all(l);
    ck_assert_int_eq(atomic_load(&l->most_running), 1);
    ck_assert(!atomic_load(&l->off_caller));
    free(l);
}
END_TEST

START_TEST(parse_counts)
{
    uint32_t n = 7;
    ck_assert(jobs_parse("1", &n) && n == 1);
    ck_assert(jobs_parse("1024", &n) && n == 1024);
    n = 7;
    ck_assert(!jobs_parse("0", &n));
    ck_assert(!jobs_parse("1025", &n));
    ck_assert(!jobs_parse("2e3", &n));
    ck_assert(!jobs_parse("-1", &n));
    ck_assert(!jobs_parse("", &n));
    ck_assert(!jobs_parse("4 ", &n));
    ck_assert_uint_eq(n, 7);
    ck_assert(jobs_default() >= 1 && jobs_default() <= JOBS_MAX);
}
END_TEST

/* --threads N without --jobs: the cores shared, jobs x threads within them
** (at least one job). */
START_TEST(jobs_share_the_cores_with_threads)
{
    uint32_t cores = jobs_default();
    ck_assert_uint_eq(jobs_default_for(0), cores);
    ck_assert_uint_eq(jobs_default_for(1), cores);
    for (uint32_t t = 2; t <= 2 * cores + 3; t++) {
        uint32_t j = jobs_default_for(t);
        ck_assert_uint_ge(j, 1);
        if (t <= cores) ck_assert_uint_le(j * t, cores);
        else ck_assert_uint_eq(j, 1);
        ck_assert_uint_gt((j + 1) * t, cores); /* no more could run */
    }
    /* --threads' default: the cores shared among the jobs running at once */
    ck_assert_uint_eq(jobs_auto_threads(1), cores < GPU_MAX_THREADS ? cores : GPU_MAX_THREADS);
    ck_assert_uint_eq(jobs_auto_threads(0), jobs_auto_threads(1));
    for (uint32_t c = 1; c <= 2 * cores + 3; c++) {
        uint32_t t = jobs_auto_threads(c);
        ck_assert_uint_ge(t, 1);
        if (c <= cores) ck_assert_uint_le(t * c, cores);
        else ck_assert_uint_eq(t, 1);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jobs");
    TCase *tc = tcase_create("pool");
    tcase_add_test(tc, every_task_once_in_order);
    tcase_add_test(tc, tasks_overlap_on_several_threads);
    tcase_add_test(tc, one_thread_is_the_callers);
    tcase_add_test(tc, parse_counts);
    tcase_add_test(tc, jobs_share_the_cores_with_threads);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

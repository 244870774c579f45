/* cli/jobs.c -- the pool of cli/jobs.h: one mutex and one condition
** variable guard the next task to start and which tasks have finished;
** workers take tasks in index order, the caller hands them over in order. */
#include "cli/jobs.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/gpu.h"

typedef struct {
    const JobSet   *j;
    pthread_mutex_t mu;
    pthread_cond_t  changed;  /* a task finished                            */
    uint32_t        next;     /* the next task to start                     */
    uint8_t        *finished; /* per task                                   */
} Pool;

static bool deps_finished(const Pool *p, uint32_t task)
{
    const uint32_t *list = NULL;
    uint32_t n = p->j->deps ? p->j->deps(p->j->user, task, &list) : 0;
    for (uint32_t k = 0; k < n; k++)
        if (!p->finished[list[k]]) return false;
    return true;
}

static void *worker(void *arg)
{
    Pool *p = arg;
    pthread_mutex_lock(&p->mu);
    while (p->next < p->j->ntasks) {
        uint32_t task = p->next++;
        /* Every dep has a lower index, so it was taken before this task and
        ** is running or done: the wait ends. */
        while (!deps_finished(p, task)) pthread_cond_wait(&p->changed, &p->mu);
        pthread_mutex_unlock(&p->mu);
        p->j->run(p->j->user, task);
        pthread_mutex_lock(&p->mu);
        p->finished[task] = 1;
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void run_inline(const JobSet *j)
{
    for (uint32_t t = 0; t < j->ntasks; t++) {
        j->run(j->user, t);
        if (j->done) j->done(j->user, t);
    }
}

void jobs_run(const JobSet *j)
{
    uint32_t threads = j->threads < j->ntasks ? j->threads : j->ntasks;
    if (threads <= 1) {
        run_inline(j);
        return;
    }
    Pool p = { .j = j };
    p.finished = calloc(j->ntasks, 1);
    pthread_t *tids = calloc(threads, sizeof *tids);
    if (!p.finished || !tids) { /* out of host memory: no pool, same results */
        free(p.finished);
        free(tids);
        run_inline(j);
        return;
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.changed, NULL);
    uint32_t started = 0;
    for (uint32_t i = 0; i < threads; i++)
        if (pthread_create(&tids[started], NULL, worker, &p) == 0) started++;
    if (started == 0) {
        run_inline(j);
    } else {
        for (uint32_t t = 0; t < j->ntasks; t++) {
            pthread_mutex_lock(&p.mu);
            while (!p.finished[t]) pthread_cond_wait(&p.changed, &p.mu);
            pthread_mutex_unlock(&p.mu);
            if (j->done) j->done(j->user, t);
        }
        for (uint32_t i = 0; i < started; i++) pthread_join(tids[i], NULL);
    }
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.mu);
    free(p.finished);
    free(tids);
}

uint32_t jobs_default(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > JOBS_MAX ? JOBS_MAX : (uint32_t)cores;
}

uint32_t jobs_default_for(uint32_t threads)
{
    uint32_t cores = jobs_default();
    return threads > 1 ? (cores / threads ? cores / threads : 1) : cores;
}

uint32_t jobs_auto_threads(uint32_t concurrent)
{
    uint32_t cores = jobs_default(), n = concurrent ? cores / concurrent : cores;
    return n ? (n > GPU_MAX_THREADS ? GPU_MAX_THREADS : n) : 1;
}

bool jobs_parse(const char *text, uint32_t *out)
{
    uint64_t n;
    if (!cli_number_u64(text, false, &n) || n < 1 || n > JOBS_MAX) return false;
    *out = (uint32_t)n;
    return true;
}

/* cli/jobs.h -- independent runs on a pool of host threads: the variants
** of `gpusim run --jobs N` and the records of `gpusim compare --jobs N`.
** Tasks start in index order; a task that needs earlier ones (a variant
** whose same_as check reads another's buffers) waits for them to finish.
** What each task produced is handed to `done` on the calling thread in
** index order, so whatever the caller prints or adds up comes out the same
** for every N. With one thread everything runs on the caller, in order.  */
#ifndef GPUSIM_CLI_JOBS_H
#define GPUSIM_CLI_JOBS_H

#include <stdbool.h>
#include <stdint.h>

/* Most threads a pool starts (--jobs' upper bound). */
#define JOBS_MAX 1024

typedef struct {
    uint32_t   ntasks;
    uint32_t   threads;  /* 1 (or 0): on the caller; more: that many workers  */
    /* Runs one task (on a worker thread: it must touch nothing another task
    ** touches, except what its deps finished before it). */
    void     (*run)(void *user, uint32_t task);
    /* The earlier tasks (index < task) that must finish before task starts:
    ** their number, *list pointing at them; NULL: none need any. */
    uint32_t (*deps)(void *user, uint32_t task, const uint32_t **list);
    /* Called on the caller's thread, once per task, in index order, after
    ** that task and every earlier one finished; NULL: nothing to hand over. */
    void     (*done)(void *user, uint32_t task);
    void      *user;
} JobSet;

/* Runs every task of j; returns when all have finished and been handed to
** done. Threads that cannot be started leave their share to the others
** (none at all: everything runs on the caller). */
void jobs_run(const JobSet *j);

/* The default number of jobs: the host's online cores (at least 1); when
** each job's launches run on `threads` host threads (--threads), the cores
** shared among them, so that jobs x threads does not pass the cores. */
uint32_t jobs_default(void);
uint32_t jobs_default_for(uint32_t threads);

/* --threads' default (Launch.threads_auto) while `concurrent` jobs run at
** once: the cores shared among them, at least 1 each. */
uint32_t jobs_auto_threads(uint32_t concurrent);

/* Parses --jobs' value: 1 to JOBS_MAX. */
bool jobs_parse(const char *text, uint32_t *out);

#endif

/* cli/sweep_run.h -- the points of a sweep on a pool of host threads, the
** JSON lines of their runs handed out in sweep order. Each point has its
** own machine (a base machine plus the point's --set values), its own
** Workload parsed from the workload text with the point's --param values,
** and runs its variants on their own buffers (cli/variant.h), so the
** threads share nothing but the read-only SweepJob and the queue. Host
** memory: each thread holds one variant's buffers at a time (and the
** buffers its same_as checks keep), so --jobs N needs N times the largest
** point's; finished points wait in a bounded window until every earlier
** one is out.                                                            */
#ifndef GPUSIM_CLI_SWEEP_RUN_H
#define GPUSIM_CLI_SWEEP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/sweep_spec.h"
#include "sim/config.h"

/* What every run of a sweep shares (read-only while it runs). */
typedef struct {
    const SweepSpec *spec;
    char             spec_hash[17];
    const GpuConfig *bases;        /* one per value of the gpu axis (axes[gpu_axis]) */
    uint32_t         gpu_axis;
    const char      *workload_path;
    const char      *workload_text; /* the file's bytes, read once     */
    size_t           workload_len;
    const char      *workload_name;
    char *const     *variants;     /* the variants each point runs, in the workload's
                                      order: those selected and those their same_as
                                      checks compare with (workload_select) */
    uint32_t         nvariants;
    uint64_t         max_cycles, max_instructions; /* as VariantOptions takes them */
    bool             racecheck;
    uint32_t         threads;      /* host threads per launch (results do not depend on it) */
} SweepJob;

/* How each finished run ended, for the exit status. */
typedef enum { RUN_PASSED, RUN_FAILED, RUN_BAD_INPUT } RunOutcome;

/* Receives the line of run r = point * nvariants + variant, in sweep order:
** the whole JSON object and its newline, len bytes, with the run's outcome.
** Returns false to stop the sweep (a write error); points in flight then
** finish unseen. */
typedef bool (*SweepEmit)(void *user, uint64_t run, const char *line, size_t len, RunOutcome outcome);

/* Runs points[0..npoints) (ascending) on `threads` threads. A point is one
** job: its machine, its Workload, and its variants one after another in the
** order their same_as checks need (one VariantStore), as `gpusim run` runs
** them; the ratio is against its first variant that finished. Each run's
** line goes to emit in order of r, but for the runs marked in have (a
** bitmap over r: lines a resumed sweep already has; NULL: none). Lines
** depend only on the job and the point, never on the thread count or
** timing. progress: a progress line on stderr (a terminal). Returns false
** when emit stopped it or a thread could not be started (why says which). */
bool sweep_run(const SweepJob *job, const uint64_t *points, uint64_t npoints, const uint8_t *have, uint32_t threads,
               bool progress, SweepEmit emit, void *user, char *why, size_t cap);

/* All the lines of one point, one after another (malloc'd into *text, *len
** bytes), and the worst outcome among its runs. */
bool sweep_run_point(const SweepJob *job, uint64_t point, char **text, size_t *len, RunOutcome *worst);

#endif

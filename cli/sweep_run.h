/* cli/sweep_run.h -- the runs of a sweep on a pool of host threads, their
** JSON lines handed out in sweep order. Each run is one point and one
** variant: its own machine (a base machine plus the point's --set values),
** its own Workload parsed from the workload text with the point's
** --param values, its own buffers and simulation (cli/variant.h), so the
** threads share nothing but the read-only SweepJob and the queue. Host
** memory: each thread holds one run's buffers at a time, so --jobs N needs
** N times the largest run's; finished lines wait in a bounded window until
** every earlier one is out.                                              */
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
    char *const     *variants;     /* the selected variants, in the workload's order */
    uint32_t         nvariants;
    uint64_t         max_cycles, max_instructions; /* as VariantOptions takes them */
    bool             racecheck;
} SweepJob;

/* How each finished run ended, for the exit status. */
typedef enum { RUN_PASSED, RUN_FAILED, RUN_BAD_INPUT } RunOutcome;

/* Receives line k of the sweep (in order: k = 0, 1, ...): the whole JSON
** object and its newline, len bytes, with the run's outcome. Returns false
** to stop the sweep (a write error); runs in flight then finish unseen. */
typedef bool (*SweepEmit)(void *user, uint64_t run, const char *line, size_t len, RunOutcome outcome);

/* Base cycles of a point for the "ratio" key: the cycles of its first
** variant that ran, when that line is not run here (a resumed sweep read
** it from the file); 0 when unknown. NULL: none known. */
typedef uint64_t (*SweepBaseCycles)(void *user, uint64_t point);

/* Runs runs[0..nruns) (run r = point r / nvariants, variant r % nvariants,
** in sweep order) on `threads` threads and hands each line to emit in the
** order of runs[]. Lines depend only on the job and the run, never on the
** thread count or timing. progress: draw a progress line on stderr (a
** terminal). Returns false when emit stopped it or a thread could not be
** started (why says which). */
bool sweep_run(const SweepJob *job, const uint64_t *runs, uint64_t nruns, uint32_t threads, bool progress,
               SweepEmit emit, SweepBaseCycles base_cycles, void *user, char *why, size_t cap);

/* One run's line, as sweep_run emits it (malloc'd into *line, *len bytes),
** with base_cycles the cycles of the point's first variant that ran before
** this one (0: none: this run is the base if it ran). For tests and for
** --jobs-free callers. */
bool sweep_run_one(const SweepJob *job, uint64_t run, uint64_t base_cycles, char **line, size_t *len,
                   RunOutcome *outcome, uint64_t *cycles);

#endif

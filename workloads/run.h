/* workloads/run.h -- one loaded variant, ready to launch and then judged.
** workload_prepare builds fresh buffers in a GlobalMem with their initial
** contents (workload_fill: the init rules of workloads/README.md), the
** kernel's parameter values and each check's expected contents from its CPU
** reference; after the caller has simulated the launch, workload_compare
** judges one check. No timing and no JSON here: the Workload comes from
** workloads/loader.h, the simulation from the caller.                   */
#ifndef GPUSIM_WORKLOADS_RUN_H
#define GPUSIM_WORKLOADS_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/gmem.h"
#include "isa/program.h"
#include "workloads/loader.h"

/* Writes buffer b's initial contents (b->count elements of 4 bytes). */
void workload_fill(const WlBuffer *b, void *dst);

/* Writes elements first .. first+count-1 of b's initial contents (any range
** of b, in O(count): the random generator is counter-based). */
void workload_fill_range(const WlBuffer *b, uint64_t first, uint64_t count, void *dst);

/* splitmix64: advances *state and returns the next 64-bit output. */
uint64_t workload_splitmix64(uint64_t *state);

/* One variant, ready to launch: its buffers in a fresh GlobalMem with their
** initial contents, each launch's parameter values, and each reference
** check's expected buffer contents (computed from the initial contents,
** before anything runs, with the arguments of the check's launch: in a
** sequence, right for a launch whose inputs the earlier launches leave
** alone), except for checks whose reference has an elementwise form:
** workload_compare computes those in pieces from regenerated initial
** contents, so no whole expected copy is kept (expected[i] is NULL). */
typedef struct {
    GlobalMem *gmem;
    uint32_t  *addrs;         /* address of each Workload buffer           */
    uint32_t (*params)[ISA_MAX_PARAM_WORDS]; /* each launch's param space (KernelParam.offset) */
    void     **expected;      /* one array per check; NULL: elementwise,
                                 or not a reference check                  */
    const void **other;       /* per same_as check: the buffer as the variant
                                 it names left it; the CALLER sets it before
                                 workload_compare (NULL: that one failed)  */
    uint32_t   nchecks;
} WlRun;

/* Fills *r for variant v. Returns false with d set when the host runs out
** of memory or the buffers do not fit the simulated address space. */
bool workload_prepare(const Workload *w, const WlVariant *v, WlRun *r, Diag *d);
void workload_run_free(WlRun *r);

typedef struct {
    bool     pass;
    uint64_t mismatches;     /* elements outside the tolerance            */
    uint64_t first_bad;      /* index of the first of them                */
    double   expected, got;  /* their values (integers exactly, < 2^53)   */
    char     text[1024];     /* "pass" or "out[17]: expected 1.5, got 0 (3 of 1024 elements differ)" */
} WlCheckResult;

/* Compares check ck of v (its buffer in r->gmem after the run) with the
** expected contents: the reference's, r->other[ck] (same_as) or the
** expect file's. f32: |got - expected| <= atol + rtol * |expected|, NaN
** equals NaN; integers: |got - expected| <= atol. */
void workload_compare(const Workload *w, const WlVariant *v, uint32_t ck, const WlRun *r, WlCheckResult *out);

#endif

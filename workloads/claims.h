/* workloads/claims.h -- a workload's "claims" (workloads/README.md,
** "Claims"): the statements of its description, each as a small assertion
** over the variants' results that `gpusim run` checks (cli/claimcheck.h), so
** that a model change that breaks a lesson's sentence fails. A claim quotes
** the sentence it backs ("says", which must occur in the description word
** for word) and asserts one of:
**   a metric of one variant within [min, max]   {"variant", "metric", "min", "max"}
**   the ratio of that metric in two variants     {"variant", "over", "metric", "min", "max"}
**   a clause of the variant's "why" sentence     {"variant", "clause"}
** "metric" is a --json stats key, or cycles / time_us (default cycles);
** "gpu" restricts a claim to one preset (a figure of the A100's). The
** loader checks the form and the names; the metric names and the values
** are checked when the claims are (they are the report's).            */
#ifndef GPUSIM_WORKLOADS_CLAIMS_H
#define GPUSIM_WORKLOADS_CLAIMS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "workloads/jsonread.h"

typedef enum { WL_CLAIM_VALUE, WL_CLAIM_RATIO, WL_CLAIM_CLAUSE } WlClaimKind;

typedef struct {
    WlClaimKind kind;
    char       *says;      /* the description's words it backs          */
    uint32_t    variant;   /* index into the workload's variants        */
    uint32_t    over;      /* WL_CLAIM_RATIO: the denominator's variant */
    char       *metric;    /* value and ratio claims: the key           */
    double      min, max;  /* bounds, -inf / +inf when not given        */
    char       *clause;    /* WL_CLAIM_CLAUSE: words of the sentence    */
    char       *gpu;       /* the only preset it holds for, or NULL     */
    Diag       *unknown_metric; /* metric claims: the error, at the metric,
                                ** that names it unknown; the report knows
                                ** the metric names (report_metric), so the
                                ** command checks them before a run      */
} WlClaim;

/* Forward: the loader's Workload (workloads/loader.h). */
struct Workload;

/* Reads arr (the "claims" value, at r->at) against w, whose description
** and variants are loaded. Fills *out / *n (malloc'd; freed by
** claims_free) or returns false with the error recorded in r. */
bool claims_load(JsonReader *r, const struct Workload *w, const cJSON *arr, WlClaim **out, uint32_t *n);

void claims_free(WlClaim *c, uint32_t n);

#endif

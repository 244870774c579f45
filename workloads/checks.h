/* workloads/checks.h -- a variant's "checks" (workloads/README.md,
** "Checks"), for the loader: each compares one buffer after the run with
** a CPU reference ("reference"), with the same buffer after another
** variant ran on the same inputs ("same_as"), or with a .npy file
** ("expect"), within atol/rtol. checks_load reads one variant's array;
** checks_link, once every variant is loaded, resolves same_as names,
** refuses a missing variant or a cycle, and orders the runs so that a
** variant runs after those it compares with. Errors go through the
** JsonReader at the offending value, as every loader error does.        */
#ifndef GPUSIM_WORKLOADS_CHECKS_H
#define GPUSIM_WORKLOADS_CHECKS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "workloads/jsonread.h"
#include "workloads/loader.h"

/* Reads arr (the value at r->at) into v->checks / v->nchecks. v's kernel
** and arguments are loaded already (a reference check is matched against
** them and dry-run for sizes); same_as targets are left for checks_link;
** expect files are read (relative to the workload file) and must match
** the buffer's type and count. */
bool checks_load(JsonReader *r, const Workload *w, WlVariant *v, const cJSON *arr);

/* variants is the file's "variants" array (member number ord at the top
** level), whose every element is loaded into w->variants. Resolves each
** same_as to a variant index, then fills w->order. */
bool checks_link(JsonReader *r, Workload *w, const cJSON *variants, uint32_t ord);

/* Frees what checks_load allocated in v's checks (not v->checks itself). */
void checks_free(WlVariant *v);

#endif

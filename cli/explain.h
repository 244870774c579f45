/* cli/explain.h -- the sentence under each variant of a report: why it
** costs what it does, from general rules over its KernelStats (the limit
** that binds, bank conflicts, sectors per request, divergence, the
** occupancy limiter, the tail wave, the top stall reason), their thresholds in cli/explain.c, and
** never from per-workload text. */
#ifndef GPUSIM_CLI_EXPLAIN_H
#define GPUSIM_CLI_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "cli/report.h"

/* The sentence that explains row i of r's cost, without the variant name,
** into buf (cap bytes, always terminated). */
void explain_row(const RunReport *r, uint32_t i, char *buf, size_t cap);

/* What binds the launch, as --json's "bound" names it: a unit of
** LIMIT_NAMES at or near its peak, else "launch" (blocks arrive slower than
** they finish) or "latency". */
const char *explain_bound_name(const KernelStats *st);

#endif

/* cli/report.h -- what `gpusim run` prints about a workload's variants:
** a table with one sentence per variant that explains its cost (text), one
** JSON object (--json), or one CSV row per variant (--csv). The sentences
** come from general rules over the stats (report.c, "Explanations"), never
** from per-workload text. Formats are documented in workloads/README.md. */
#ifndef GPUSIM_CLI_REPORT_H
#define GPUSIM_CLI_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/variant.h"
#include "sim/config.h"

typedef struct {
    const Workload    *w;
    const GpuConfig   *c;
    const char *const *sets;   /* --set assignments, for the header          */
    size_t             nsets;
    RunRow            *rows;
    uint32_t           nrows;
    double             wall_seconds;       /* host time spent simulating      */
    uint64_t           warp_instructions;  /* over all variants                */
} RunReport;

/* The table, the explanations and a footer with the simulation speed. */
void report_text(FILE *out, const RunReport *r);

/* One JSON object (workloads/README.md, "gpusim run --json"). Byte-identical
** for identical inputs except sim.wall_seconds and sim.warp_insts_per_sec. */
void report_json(FILE *out, const RunReport *r);

/* A header line, then one row per variant with the JSON fields flattened. */
void report_csv(FILE *out, const RunReport *r);

/* The sentence that explains row i's cost, without the variant name. */
void report_explain(const RunReport *r, uint32_t i, char *buf, size_t cap);

/* A JSON string (escaped) and a number (6 significant digits, null when
** not finite), as every report writes them. */
void report_json_string(FILE *out, const char *s);
void report_json_double(FILE *out, double v);

/* "ok", "fault", "deadlock", "budget", "bad_launch", "internal_error" (static strings). */
const char *report_status_name(SimStatus s);

#endif

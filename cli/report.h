/* cli/report.h -- what `gpusim run` prints about a workload's variants:
** a table with one sentence per variant that explains its cost (text), one
** JSON object (--json), or one CSV row per variant (--csv). The sentences
** come from general rules over the stats (cli/explain.h), never from
** per-workload text. Formats are documented in workloads/README.md. */
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


/* The value of the stats key `name` (a --json key: an alias or an Nsight
** Compute name; "cycles" and "time_us" too) of st; false for a name the
** report does not know or one whose value is not a number. */
bool report_metric(const KernelStats *st, const char *name, double *out);


/* ---- the pieces of --json and --csv, for other writers (gpusim sweep) ---- */

/* The "stats" object of --json for st: the stats fields (one table in
** report.c, also the --csv columns), then "stall_reasons". one_line: no
** newlines inside (a JSON line); else as `gpusim run --json` prints it. */
void report_json_stats(FILE *out, const KernelStats *st, bool one_line);

/* The stats fields' names in that order (static strings; NULL for
** i >= report_stat_count()); the stall reasons follow them in --csv as
** stall_NAME (STALL_NAMES). */
size_t report_stat_count(void);
const char *report_stat_name(size_t i);

/* config_fnv1a of --json: FNV-1a of the machine as config_to_json prints it. */
uint64_t report_config_hash(const GpuConfig *c);

/* A CSV field (quoted when it holds a comma, quote or newline), and "pass" /
** "fail" / "none". (JSON strings and numbers: base/jsonstr.h.) */
void report_csv_field(FILE *out, const char *s);
const char *report_check_name(CheckState c);

#endif

/* cli/sweep_lines.h -- the JSON-lines files of `gpusim sweep`: one JSON
** object per run (a point and a variant), written whole and flushed one at
** a time. This module reads them back (to resume a sweep, to merge its
** shards), checks that shards make one sweep, and writes the CSV form of a
** line. No simulation here; errors as values naming file:line.
**
** Every line starts with its identity, in this order:
**   {"spec": "16 hex digits", "point": P, "points": N, "variant": "name",
**    "variant_index": V, "variants": M, ...
** (cli/cmd_sweep.c writes the rest: workload, machine, parameters, stats;
** workloads/README.md, "gpusim sweep", lists every key.)                  */
#ifndef GPUSIM_CLI_SWEEP_LINES_H
#define GPUSIM_CLI_SWEEP_LINES_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"

/* The longest line read back: a run's line is a few KiB; a longer one is
** not a line of gpusim sweep (a device such as /dev/zero never ends one). */
#define SWEEP_MAX_LINE (1 << 20)

/* What identifies a line, and where it lies in its file. */
typedef struct {
    char     spec[17];
    uint64_t point, points;
    uint32_t variant, variants;  /* "variant_index" and "variants"          */
    bool     ran;                /* "status" is "ok"                         */
    uint64_t cycles;             /* when ran                                 */
    uint64_t offset;             /* of the line in its file                  */
    uint32_t length;             /* bytes, the newline included              */
} SweepLine;

typedef struct {
    SweepLine *lines;            /* the whole lines, in file order           */
    size_t     n;
    uint64_t   whole_bytes;      /* bytes up to the end of the last whole line */
    bool       torn;             /* the file ends in a line without its newline
                                    (a sweep killed while writing it)       */
} SweepFile;

/* Called with each whole line's parsed object, in file order. */
typedef void (*SweepLineFn)(void *user, const cJSON *line);

/* Reads the lines of a sweep's JSON-lines file into *f (free with
** sweep_file_free). A last line without its newline is torn: reported in
** f->torn and f->whole_bytes, not an error. Refused, with d naming
** path:line: a whole line that is not a JSON object with the identity keys
** above. A file that does not exist is refused ("cannot open"), or read as
** empty when missing_ok. each may be NULL. */
bool sweep_file_read(const char *path, bool missing_ok, SweepFile *f, SweepLineFn each, void *user, Diag *d);
void sweep_file_free(SweepFile *f);

/* The identity of one parsed line (offset and length left 0); false with a
** reason in why when a key is missing or of the wrong type. */
bool sweep_line_ident(const cJSON *line, SweepLine *out, char *why, size_t cap);

/* A run's place in files being merged. */
typedef struct {
    uint32_t file;
    size_t   line;
} SweepRef;

/* Checks that the lines of files[0..nfiles) (named names[i] in messages)
** are the runs of one sweep: one spec hash, the same counts of points and
** variants in every line, every (point, variant) exactly once. On success
** *order is a malloc'd array of *nruns = points x variants references in
** sweep order (point, then variant). Refused: no lines at all, a torn
** file, lines of two sweeps (both files and hashes named), a run given
** twice (both places named), a run missing (the first one named, and how
** many are missing). */
bool sweep_merge_order(const SweepFile *files, const char *const *names, size_t nfiles, SweepRef **order,
                       uint64_t *nruns, Diag *d);

/* The columns the CSV form of a sweep's lines has: identity and machine,
** one column per swept key (the --set knobs, then the workload parameters
** with the values the workload ran with: an expression's value, not its
** text), the outcome, the stats fields of `gpusim run --csv` (their one
** table, cli/report.c) and the stall reasons as stall_NAME, and error. */
typedef struct {
    char  **set_keys;   /* "sm.count", ...   */
    size_t  nset;
    char  **param_keys; /* "n", "block", ... */
    size_t  nparam;
} SweepCsvColumns;

/* The swept keys of a line: the keys of its "set" and "param" objects, in
** order (malloc'd; free with sweep_csv_columns_free). */
bool sweep_csv_columns_of(const cJSON *line, SweepCsvColumns *cols);
void sweep_csv_columns_free(SweepCsvColumns *cols);

/* The header line, and one line's row (values missing from it are empty
** cells: a run that did not finish has no stats). */
void sweep_csv_header(FILE *out, const SweepCsvColumns *cols);
void sweep_csv_row(FILE *out, const cJSON *line, const SweepCsvColumns *cols);

/* A JSON number as CSV and the plots read it: integers in decimal, others
** as the shortest text that reads back. */
void sweep_number_text(double v, char *buf, size_t cap);

#endif

/* cli/sweep_spec.h -- what a sweep is (`gpusim sweep`): its axes (the
** machines of --gpu, the knobs of --set, the workload parameters of --param
** and --launch), the value lists they take, the order of its points, which
** points a shard runs, and the hash that names the sweep. Pure: no files,
** no simulation, no printing; errors as values.
**
** A point is one value of every axis; points are numbered like nested loops
** in command-line order (the first axis varies slowest, the last fastest),
** and every point is simulated once per selected variant (a run). Shard i
** of N runs the points p with p % N == i, all variants of each.          */
#ifndef GPUSIM_CLI_SWEEP_SPEC_H
#define GPUSIM_CLI_SWEEP_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

/* Per value list, and for the whole sweep (the messages say 10^6). The
** fuzz build (fuzz/CMakeLists.txt) defines it smaller: the same limit code,
** reached in microseconds instead of after building 10^6 strings. */
#ifndef SWEEP_MAX_POINTS
#define SWEEP_MAX_POINTS 1000000u
#endif

typedef enum { AXIS_GPU, AXIS_SET, AXIS_PARAM } SweepAxisKind;

typedef struct {
    SweepAxisKind kind;
    const char   *flag;    /* "--gpu", "--set", "--param" or "--launch" (static) */
    char         *key;     /* "gpu", "sm.count", "n", "block"                    */
    char        **values;  /* canonical texts (sweep_values_parse), nvalues >= 1 */
    uint32_t      nvalues;
} SweepAxis;

typedef struct {
    SweepAxis *axes;
    uint32_t   naxes;
    uint64_t   npoints; /* product of the axes' nvalues; 1 with no axes */
} SweepSpec;

/* An empty spec (one point); sweep_spec_free releases every axis. */
void sweep_spec_init(SweepSpec *s);
void sweep_spec_free(SweepSpec *s);

/* Parses a value list, the text after '=' of `--set KEY=LIST`. Items are
** separated by commas outside parentheses (so `min(a,b)` is one item); an
** item is a value or, with ranges, `START:STOP:STEP` (arithmetic; STOP
** included when a step lands on it; STEP may be negative, never 0; `START:
** STOP` steps by 1) or `START:STOP:*F` (geometric: START, START*F, ... up to
** STOP, F > 1, START > 0). Numbers are integers, decimals, exponent forms
** (1e3) or powers B^E (2^20); a range of integers gives integers, exactly.
** Canonical texts: a number as the shortest decimal that reads back (1e3 ->
** "1000", 2^20 -> "1048576", 0.1+0.2 -> "0.3" at 15 digits), anything else
** as written. Refused, with a reason in why: an empty list or item, a range
** whose ends or step are not numbers, step 0, a range going away from STOP,
** a list or range of more than SWEEP_MAX_POINTS values, a value given
** twice. Without ranges (machine names, which may hold ':') every item is a
** value as written. On success *values is a malloc'd array of *n malloc'd
** strings (free each, then the array). */
bool sweep_values_parse(const char *list, bool ranges, char ***values, uint32_t *n, char *why, size_t cap);

/* Adds the axis `KEY=LIST` given to flag (kind AXIS_GPU takes the whole
** text as the list, key "gpu"; --launch takes only block=LIST). Refused,
** with d->file = flag: no '=' or an empty key, a bad list (above), a key
** that another axis has already (whatever its flag: give all of a key's
** values in one list), or a sweep of more than SWEEP_MAX_POINTS points.
** Leaves s unchanged on error. */
bool sweep_spec_add(SweepSpec *s, SweepAxisKind kind, const char *flag, const char *assignment, Diag *d);

/* The axis named key, or NULL. */
const SweepAxis *sweep_spec_axis(const SweepSpec *s, const char *key);

/* The value index of every axis at point p (< npoints) into idx[naxes]:
** the first axis varies slowest. */
void sweep_point_indices(const SweepSpec *s, uint64_t p, uint32_t *idx);

/* --shard I/N: decimal 0 <= I < N, 1 <= N <= SWEEP_MAX_POINTS. Refused with
** d->file = "--shard" otherwise (5/4, 1/0, 1, -1/4, 0x1/4). */
bool sweep_shard_parse(const char *text, uint32_t *index, uint32_t *count, Diag *d);

/* Whether shard index/count runs point p. */
static inline bool sweep_shard_has(uint64_t p, uint32_t index, uint32_t count)
{
    return count <= 1 || p % count == index;
}

/* The name of a sweep: FNV-1a over its axes (kind, key and values, in
** order) followed by context (what else decides the results: the bytes of
** the workload and kernel files, the machines' hashes, the variants, the
** budgets, the gpusim version), as 16 lower-case hex digits. Shards of one
** sweep share it; --jobs, --shard and --out do not enter it. */
void sweep_spec_hash(const SweepSpec *s, const char *context, char out[17]);

#endif

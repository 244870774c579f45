/* workloads/loader.h -- workload files (workloads/README.md) -> launches.
** workload_load reads a workload JSON file, assembles its kernel file and
** evaluates every expression for one machine and one set of --param
** overrides, validating the WHOLE file before anything runs: a Workload that
** loads is one whose variants can all be launched and checked. Errors name
** the file, line:col of the offending JSON value and its path
** ("variants[2].grid: expected ..."), as the CLI prints them (exit 2).
** Running a variant (fresh buffers, expected contents, judging the result)
** is workloads/run.h; no timing in either: the caller simulates.
** Ownership: a Workload owns all it points to; workload_destroy frees it. */
#ifndef GPUSIM_WORKLOADS_LOADER_H
#define GPUSIM_WORKLOADS_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/names.h"
#include "isa/program.h"
#include "sim/config.h"
#include "sim/occupancy.h"
#include "workloads/claims.h"
#include "workloads/reference.h"

#define WL_MAX_NAME        64
#define WL_MAX_COUNT       (1ull << 30)  /* elements in one buffer              */
#define WL_MAX_FILE_BYTES  (16u << 20)
#define WL_MAX_PARAM_DEPTH 64            /* parameters defined through others  */

typedef struct {
    char    name[WL_MAX_NAME];
    int64_t value;
} WlParam;

typedef enum { WL_INIT_ZEROS, WL_INIT_CONSTANT, WL_INIT_IOTA, WL_INIT_RANDOM, WL_INIT_NPY } WlInitKind;

/* Initial contents. The same numbers in two forms: x* for f32 buffers,
** i* for u32/s32 ones. constant: x0/i0 = value; iota: element k = start +
** k*step with x0/i0 = start, x1/i1 = step; random: uniform in [min, max)
** for f32, [min, max] for integers, with x0/i0 = min, x1/i1 = max, from the
** splitmix64 stream of `seed`; npy: the elements of a .npy file, read when
** the workload loads (workloads/README.md, "Initial contents"; made by
** workload_fill, workloads/run.h). */
typedef struct {
    WlInitKind kind;
    uint64_t   seed;
    double     x0, x1;
    int64_t    i0, i1;
    void      *data;   /* npy: the buffer's count elements (owned)           */
    char      *file;   /* npy: the file's path, as the loader opened it      */
} WlInit;

typedef struct {
    char     name[WL_MAX_NAME];
    WlType   type;
    uint64_t count;   /* elements, 1 .. WL_MAX_COUNT; 4 bytes each */
    WlInit   init;
} WlBuffer;

typedef struct {
    RefArgKind kind;    /* REF_ARG_BUFFER, REF_ARG_INT or REF_ARG_FLOAT    */
    uint32_t   buffer;  /* REF_ARG_BUFFER: index into Workload.buffers     */
    int64_t    i;       /* REF_ARG_INT                                      */
    float      f;       /* REF_ARG_FLOAT                                    */
    uint64_t   bits;    /* scalars: the value the kernel parameter gets (its
                           low 4 bytes for a 32-bit one)                  */
} WlArg;

/* A check of one buffer after the variant ran: against a CPU reference
** (workloads/reference.h), against the same buffer after another variant
** ran on the same inputs (same_as), or against a .npy file (expect). */
typedef enum { WL_CHECK_REFERENCE, WL_CHECK_SAME_AS, WL_CHECK_EXPECT } WlCheckKind;

typedef struct {
    WlCheckKind     kind;
    uint32_t        buffer;   /* index into Workload.buffers                 */
    const RefEntry *ref;      /* reference                                   */
    uint32_t        launch;   /* reference: the launch whose arguments it gets */
    uint32_t        variant;  /* same_as: index into Workload.variants       */
    void           *expect;   /* expect: the buffer's count elements (owned) */
    char           *file;     /* expect: the .npy file                       */
    double          atol, rtol;
} WlCheck;

#define WL_MAX_VARIANT_NAME 256 /* bytes, with the NUL: any text but control characters */

/* One kernel launch of a variant. */
typedef struct {
    const Kernel *kernel;         /* inside Workload.program               */
    uint32_t      grid[3], block[3];
    uint32_t      dynamic_smem;   /* bytes                                 */
    uint32_t      regs;           /* 0: the kernel's own count             */
    OccResult     occ;            /* occupancy of this launch              */
    WlArg        *args;           /* kernel->nparams of them               */
} WlLaunch;

/* A variant: one launch (the form {kernel, grid, block, args, ...}) or
** several in order ("launches": [...]) on the same buffers, back to back
** on one GPU; its checks look at the buffers after the last. */
typedef struct {
    char          name[WL_MAX_VARIANT_NAME];
    char         *description;    /* optional teaching note, or NULL       */
    WlLaunch     *launches;       /* at least one                          */
    uint32_t      nlaunches;
    WlCheck      *checks;
    uint32_t      nchecks;
} WlVariant;

typedef struct Workload {
    char      *path;          /* the workload file as given               */
    char      *name;
    char      *description;
    WlParam   *params;        /* final values (after --param)            */
    uint32_t   nparams;
    char      *kernel_file;   /* path of the kernel file (for reports)   */
    Program    program;
    WlBuffer  *buffers;
    uint32_t   nbuffers;
    WlVariant *variants;
    uint32_t   nvariants;
    uint32_t  *order;         /* the variants in the order to run them: file
                                 order, but each after those its same_as
                                 checks compare with (nvariants entries)   */
    NameIndex  buffer_names;  /* lookups by name in linear time overall   */
    NameIndex  variant_names;
    WlClaim   *claims;        /* the description's checked statements     */
    uint32_t   nclaims;
} Workload;

/* Loads path for machine c (which must have passed config_validate) with
** overrides[0..noverrides) of the form "name=expression" (--param). The
** kernel file is found relative to the workload file's directory. Returns
** true with *out filled, or false with d set (and *out empty). */
bool workload_load(const char *path, const GpuConfig *c, const char *const *overrides, size_t noverrides,
                   Workload *out, Diag *d);

/* The same from text[0..len) (need not be NUL-terminated); path names it in
** diagnostics and anchors the kernel file. */
bool workload_parse(const char *text, size_t len, const char *path, const GpuConfig *c,
                    const char *const *overrides, size_t noverrides, Workload *out, Diag *d);

void workload_destroy(Workload *w);

/* Variant named name (exactly), or NULL. */
const WlVariant *workload_find_variant(const Workload *w, const char *name);

/* Index in w->buffers of the buffer named name, or -1. */
int workload_find_buffer(const Workload *w, const char *name);

/* Marks in run[] (nvariants entries) the variants chosen[] names and, through
** their same_as checks, every variant whose results they compare with. */
void workload_select(const Workload *w, const bool *chosen, bool *run);

/* The call a check's reference gets for launch l: each kernel argument as
** the reference sees it, into ra[0..l->kernel->nparams) (a buffer's data is
** data[its buffer index], or NULL when data is NULL: the loader's dry run of
** the size checks), and the launch shape. The result points into ra. */
RefCall workload_ref_call(const Workload *w, const WlLaunch *l, void *const *data, RefArg ra[ISA_MAX_PARAMS]);

#endif

/* workloads/reference.h -- CPU reference functions for workload checks.
** A check names one row of a table: the row says which kernel arguments the
** function takes (its signature, in the kernel's parameter order) and which
** of them is the buffer it predicts. The function sees every argument as the
** kernel did at launch (buffers with their initial contents, scalars with
** their values) plus the launch shape, and writes the expected final
** contents of its output buffer. The caller pre-fills that array with the
** buffer's initial contents, so elements the kernel does not touch need no
** code. Leaf module: knows nothing of the loader, the simulator or JSON.  */
#ifndef GPUSIM_WORKLOADS_REFERENCE_H
#define GPUSIM_WORKLOADS_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Element types of buffers (4 bytes each). */
typedef enum { WL_F32, WL_U32, WL_S32 } WlType;

/* "f32", "u32", "s32" (static strings). */
const char *wl_type_name(WlType t);

typedef enum { REF_ARG_BUFFER, REF_ARG_INT, REF_ARG_FLOAT } RefArgKind;

typedef struct {
    RefArgKind  kind;
    WlType      type;   /* buffers: element type                           */
    uint64_t    count;  /* buffers: elements                               */
    const void *data;   /* buffers: contents at launch (count elements)    */
    int64_t     i;      /* REF_ARG_INT: the value                          */
    float       f;      /* REF_ARG_FLOAT: the value                        */
} RefArg;

typedef struct {
    const RefArg *args;     /* the kernel's arguments, in parameter order  */
    uint32_t      nargs;
    uint32_t      grid[3], block[3];
} RefCall;

/* Writes the expected contents of the output argument into out (its
** count elements, pre-filled with its initial contents). With out == NULL
** only checks that the arguments' sizes are consistent (the loader's dry
** run before anything executes). Returns false with msg filled when they
** are not (e.g. "in holds 100 elements, n*n = 1024 needed"). */
typedef bool (*RefFn)(const RefCall *call, void *out, char *msg, size_t cap);

/* Optional second form of a reference whose output element k depends only
** on element k of its buffer arguments (and on k and the scalars), so the
** check can be computed in pieces after the run instead of keeping a whole
** expected copy (a 2^28-element check would otherwise cost 1 GiB more).
** Buffer arguments' data point at their element `first`; out holds output
** elements first .. first+count-1, pre-filled with their initial contents;
** writes those the kernel writes. Sizes were checked by the RefFn dry run. */
typedef void (*RefPointFn)(const RefCall *call, uint64_t first, uint64_t count, void *out);

/* Elements of [first, first + count) below n (n < 0 counts as 0). */
uint64_t ref_points_below(uint64_t first, uint64_t count, int64_t n);

typedef struct {
    const char *name;      /* what a check's "reference" names             */
    const char *signature; /* arguments, space separated: f32[] u32[] s32[]
                              for buffers, int or float for scalars        */
    uint32_t    output;    /* index of the buffer argument it predicts     */
    RefFn       fn;
    const char *help;      /* one line: what it computes                   */
    RefPointFn  points;    /* NULL, or the elementwise form of fn          */
} RefEntry;

/* Size checks shared by the reference functions: true when buffer a holds
** at least elems elements (else msg says which and how many: "buffer 'in'
** holds 100 elements, n*n = 1024 needed"), or when scalar a is >= 0. */
bool ref_need(const RefArg *a, const char *name, uint64_t elems, const char *what, char *msg, size_t cap);
bool ref_nonneg(const RefArg *a, const char *name, char *msg, size_t cap);

/* The row named `name`, or NULL. */
const RefEntry *reference_find(const char *name);

/* Rows in table order; i >= reference_count() gives NULL. */
size_t reference_count(void);
const RefEntry *reference_at(size_t i);

/* Parses a row's signature: fills kinds[] and types[] (types only for
** buffers) for up to cap arguments and returns how many there are. */
uint32_t reference_signature(const RefEntry *e, RefArgKind *kinds, WlType *types, uint32_t cap);

#endif

/* workloads/params.h -- a workload's parameters and what its expressions
** may name (workloads/README.md, "Params" and "Expressions").
** params_load reads "params" ({"n": 1024, "m": "n/2"}) and the --param
** overrides, then evaluates every parameter once, in dependency order (a
** parameter is evaluated when first named), so a cycle or a chain deeper
** than WL_MAX_PARAM_DEPTH is reported at the parameter that closes it.
** After that, params_int reads any integer of the file: a JSON integer or
** an expression (workloads/expr.h) over the parameters, the machine values
** of the GpuConfig (sm_count, ...), warp_size and, only between
** params_set_launch and params_clear_launch (a variant's grid and args),
** blocks_per_sm and threads_per_block. Errors go through the JsonReader:
** at the value being read, inside its expression string where the
** evaluator points, or at "--param" for an override.
** Params is embedded by the loader (params_init / params_free); its fields
** are params.c's own. Names are looked up through a sorted index, so a
** file of many parameters loads in O(n log n).                          */
#ifndef GPUSIM_WORKLOADS_PARAMS_H
#define GPUSIM_WORKLOADS_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/config.h"
#include "workloads/jsonread.h"
#include "workloads/loader.h"

typedef struct {
    JsonReader         *r;
    const GpuConfig    *c;
    Workload           *w;              /* params_load fills w->params, w->nparams  */
    const cJSON        *obj;            /* the "params" object, or NULL             */
    uint32_t            ord;            /* its member number at the top level       */
    const cJSON       **item;           /* each parameter's JSON value              */
    const char        **override;       /* "name=value" given with --param, or NULL */
    unsigned char      *state;          /* to do, being evaluated, done             */
    uint32_t           *chain;          /* done: the longest chain of parameters it
                                        ** is defined through, itself included     */
    uint32_t            refs_chain;     /* the longest chain among the parameters
                                        ** the one being evaluated names so far     */
    struct ParamsName  *by_name;        /* indices sorted by name                   */
    uint32_t            stack[WL_MAX_PARAM_DEPTH]; /* being evaluated, outermost first */
    uint32_t            depth;
    bool                launch;         /* blocks_per_sm, threads_per_block known   */
    int64_t             blocks_per_sm, threads_per_block;
    char                lookup_msg[512];
} Params;

/* Errors go to r; c gives the machine values; the parameters land in w. */
void params_init(Params *p, JsonReader *r, const GpuConfig *c, Workload *w);
/* Frees what params_init and params_load allocated, except w->params. */
void params_free(Params *p);

/* Reads root's "params" (optional) with overrides[0..noverrides) of the
** form "name=expression", and evaluates them all into p->w->params. */
bool params_load(Params *p, const cJSON *root, const char *const *overrides, size_t noverrides);

/* An integer at r's current path: a JSON integer or an expression string. */
bool params_int(Params *p, const cJSON *it, int64_t *out);
/* params_int within [lo, hi]; `what` names the quantity in the message. */
bool params_int_in(Params *p, const cJSON *it, int64_t lo, int64_t hi, const char *what, int64_t *out);

/* The launch values a variant's grid and args may name, from the occupancy
** its block, dynamic_smem and regs give; clear: unknown again. */
void params_set_launch(Params *p, int64_t blocks_per_sm, int64_t threads_per_block);
void params_clear_launch(Params *p);

/* Index of the parameter called name in p->w->params, or -1 (after
** params_load; O(log n)). */
int64_t params_find(const Params *p, const char *name);

/* True when name is a machine value, a launch value, warp_size or a
** function: what no parameter or buffer may be called. */
bool params_is_reserved(const char *name);

#endif

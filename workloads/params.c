/* workloads/params.c -- parameters, --param overrides and the variables of
** expressions (see params.h). The machine values an expression may name
** are one table, MACHINE_VARS, of GpuConfig fields. */
#include "workloads/params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/expr.h"

enum { PARAM_TODO, PARAM_BUSY, PARAM_DONE };

/* One entry of the name index: by_name is sorted by name, then index, so
** a name given twice sits next to its first occurrence. */
struct ParamsName {
    const char *name;
    uint32_t    index;
};

static int name_order(const void *a, const void *b)
{
    const struct ParamsName *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int name_key(const void *key, const void *elem)
{
    return strcmp(key, ((const struct ParamsName *)elem)->name);
}

/* ================================================================ machine values */

typedef struct {
    const char *name;
    size_t      offset; /* of a uint32_t field in GpuConfig */
    const char *help;
} MachineVar;

#define MV(name, field, help) { name, offsetof(GpuConfig, field), help }
static const MachineVar MACHINE_VARS[] = {
    MV("sm_count", sm_count, "streaming multiprocessors (sm.count)"),
    MV("max_threads_per_sm", sm_max_threads, "resident threads per SM (sm.max_threads)"),
    MV("max_warps_per_sm", sm_max_warps, "resident warps per SM (sm.max_warps)"),
    MV("max_blocks_per_sm", sm_max_blocks, "resident blocks per SM (sm.max_blocks)"),
    MV("max_threads_per_block", max_threads_per_block, "threads per block limit (sm.max_threads_per_block)"),
    MV("registers_per_sm", sm_registers, "32-bit registers per SM (sm.registers)"),
    MV("max_regs_per_thread", max_regs_per_thread, "registers per thread limit (sm.max_regs_per_thread)"),
    MV("shared_per_sm", sm_shared_memory, "largest shared memory carveout per SM, bytes (sm.shared_memory)"),
    MV("shared_per_block", shared_per_block, "shared memory per block without opt-in, bytes"),
    MV("shared_per_block_optin", shared_per_block_optin, "shared memory per block with opt-in, bytes"),
    MV("schedulers_per_sm", sm_schedulers, "warp schedulers per SM (sm.schedulers)"),
    MV("l2_size", l2_size, "L2 cache bytes (l2.size)"),
};
#undef MV
#define NMACHINE_VARS (sizeof MACHINE_VARS / sizeof MACHINE_VARS[0])

bool params_is_reserved(const char *name)
{
    if (expr_is_function(name) || strcmp(name, "warp_size") == 0 || strcmp(name, "blocks_per_sm") == 0 ||
        strcmp(name, "threads_per_block") == 0)
        return true;
    for (size_t i = 0; i < NMACHINE_VARS; i++)
        if (strcmp(name, MACHINE_VARS[i].name) == 0) return true;
    return false;
}

/* ================================================================ expressions */

static bool eval_param(Params *p, uint32_t i);

int64_t params_find(const Params *p, const char *name)
{
    const struct ParamsName *e = NULL;
    if (p->w->nparams) e = bsearch(name, p->by_name, p->w->nparams, sizeof *p->by_name, name_key);
    return e ? (int64_t)e->index : -1;
}

static ExprVarStatus lookup(void *user, const char *name, int64_t *v)
{
    Params *p = user;
    Workload *w = p->w;
    int64_t found = params_find(p, name);
    if (found >= 0) {
        uint32_t i = (uint32_t)found;
        if (p->state[i] == PARAM_BUSY) {
            size_t len = 0;
            len += (size_t)snprintf(p->lookup_msg, sizeof p->lookup_msg, "cyclic definition: ");
            uint32_t from = 0;
            while (p->stack[from] != i) from++;
            for (uint32_t k = from; k < p->depth && len < sizeof p->lookup_msg; k++)
                len += (size_t)snprintf(p->lookup_msg + len, sizeof p->lookup_msg - len, "%s -> ",
                                        w->params[p->stack[k]].name);
            if (len < sizeof p->lookup_msg) snprintf(p->lookup_msg + len, sizeof p->lookup_msg - len, "%s", name);
            return EXPR_VAR_FAILED;
        }
        if (p->state[i] == PARAM_TODO && !eval_param(p, i)) return EXPR_VAR_FAILED;
        if (p->chain[i] > p->refs_chain) p->refs_chain = p->chain[i];
        *v = w->params[i].value;
        return EXPR_VAR_FOUND;
    }
    for (size_t i = 0; i < NMACHINE_VARS; i++)
        if (strcmp(name, MACHINE_VARS[i].name) == 0) {
            uint32_t x;
            memcpy(&x, (const char *)p->c + MACHINE_VARS[i].offset, sizeof x);
            *v = x;
            return EXPR_VAR_FOUND;
        }
    if (strcmp(name, "warp_size") == 0) {
        *v = 32;
        return EXPR_VAR_FOUND;
    }
    if (strcmp(name, "blocks_per_sm") == 0 || strcmp(name, "threads_per_block") == 0) {
        if (p->launch) {
            *v = name[0] == 'b' ? p->blocks_per_sm : p->threads_per_block;
            return EXPR_VAR_FOUND;
        }
        snprintf(p->lookup_msg, sizeof p->lookup_msg,
                 "'%s' is known only in a variant's grid and args (block, dynamic_smem and regs decide it)", name);
        return EXPR_VAR_FAILED;
    }
    size_t len = (size_t)snprintf(p->lookup_msg, sizeof p->lookup_msg, "unknown variable '%s' (params:", name);
    for (uint32_t i = 0; i < w->nparams && len < sizeof p->lookup_msg; i++)
        len += (size_t)snprintf(p->lookup_msg + len, sizeof p->lookup_msg - len, "%s %s", i ? "," : "",
                                w->params[i].name);
    if (len < sizeof p->lookup_msg)
        snprintf(p->lookup_msg + len, sizeof p->lookup_msg - len,
                 "%s; machine: sm_count, max_threads_per_sm, max_warps_per_sm, ...; see workloads/README.md)",
                 w->nparams ? "" : " none");
    return EXPR_VAR_FAILED;
}

/* Evaluates expression text that came from the string value at the
** current path (override == NULL) or from a --param assignment. */
static bool eval_text(Params *p, const char *text, const char *override, int64_t *out)
{
    ExprError e;
    p->lookup_msg[0] = '\0';
    if (expr_eval(text, lookup, p, out, &e)) return true;
    if (e.delegated && !p->lookup_msg[0]) return false; /* a parameter's own error, already recorded */
    const char *msg = e.delegated ? p->lookup_msg : e.message;
    if (override) {
        if (p->r->failed) return false;
        p->r->failed = true;
        diag_set(p->r->d, "--param", 0, 0, "%s: %s", override, msg);
        return false;
    }
    return jsonread_fail_in(p->r, e.pos, "%s", msg);
}

bool params_int(Params *p, const cJSON *it, int64_t *out)
{
    JsonReader *r = p->r;
    if (cJSON_IsNumber(it)) {
        if (!jsonread_integer(it, out)) return jsonread_fail(r, "expected an integer, found %g", it->valuedouble);
        return true;
    }
    if (cJSON_IsString(it)) {
        if (!it->valuestring[0]) return jsonread_fail(r, "expected an integer expression, found an empty string");
        return eval_text(p, it->valuestring, NULL, out);
    }
    return jsonread_fail(r, "expected an integer or an expression string, found %s", jsonread_type(it));
}

bool params_int_in(Params *p, const cJSON *it, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
    if (!params_int(p, it, out)) return false;
    if (*out < lo || *out > hi) {
        if (cJSON_IsString(it))
            return jsonread_fail(p->r, "%s = %lld (from \"%s\") is outside %lld..%lld", what, (long long)*out,
                                 it->valuestring, (long long)lo, (long long)hi);
        return jsonread_fail(p->r, "%s = %lld is outside %lld..%lld", what, (long long)*out, (long long)lo,
                             (long long)hi);
    }
    return true;
}

void params_set_launch(Params *p, int64_t blocks_per_sm, int64_t threads_per_block)
{
    p->launch = true;
    p->blocks_per_sm = blocks_per_sm;
    p->threads_per_block = threads_per_block;
}

void params_clear_launch(Params *p) { p->launch = false; }

/* ================================================================ params */

/* Evaluates parameter i (member i of "params": duplicates are refused
** before anything is evaluated) with its errors at params.<name>. */
static bool eval_param(Params *p, uint32_t i)
{
    Workload *w = p->w;
    JsonReader *r = p->r;
    if (p->depth >= WL_MAX_PARAM_DEPTH) {
        JsonPath saved = r->at;
        r->at.n = 0;
        jsonpos_push(&r->at, "params", p->ord);
        jsonpos_push(&r->at, w->params[i].name, i);
        jsonread_fail(r, "parameters refer to each other more than %d deep", WL_MAX_PARAM_DEPTH);
        r->at = saved;
        return false;
    }
    p->state[i] = PARAM_BUSY;
    p->stack[p->depth++] = i;
    uint32_t saved_refs = p->refs_chain;
    p->refs_chain = 0;
    JsonPath saved = r->at;
    bool saved_launch = p->launch;
    p->launch = false;
    r->at.n = 0;
    jsonpos_push(&r->at, "params", p->ord);
    jsonpos_push(&r->at, w->params[i].name, i);
    bool ok;
    if (p->override[i]) {
        const char *eq = strchr(p->override[i], '=');
        ok = eval_text(p, eq + 1, p->override[i], &w->params[i].value);
    } else {
        ok = params_int(p, p->item[i], &w->params[i].value);
    }
    /* a chain counts however it was evaluated: p2 = p1+1 after p1 is done
    ** is as deep as when p2 asks for p1 first */
    p->chain[i] = p->refs_chain + 1;
    p->refs_chain = saved_refs;
    if (ok && p->chain[i] > WL_MAX_PARAM_DEPTH)
        ok = jsonread_fail(r, "parameters refer to each other more than %d deep", WL_MAX_PARAM_DEPTH);
    r->at = saved;
    p->launch = saved_launch;
    p->depth--;
    p->state[i] = PARAM_DONE;
    return ok;
}

void params_init(Params *p, JsonReader *r, const GpuConfig *c, Workload *w)
{
    memset(p, 0, sizeof *p);
    p->r = r;
    p->c = c;
    p->w = w;
}

void params_free(Params *p)
{
    free(p->item);
    free(p->override);
    free(p->state);
    free(p->chain);
    free(p->by_name);
    memset(p, 0, sizeof *p);
}

/* Takes each member of "params" in order: its name (at its key when bad;
** repeat[i]: member i's name was given before) and its value, unevaluated. */
static bool read_params(Params *p, const bool *repeat)
{
    JsonReader *r = p->r;
    uint32_t i = 0;
    for (const cJSON *it = p->obj ? p->obj->child : NULL; it; it = it->next, i++) {
        jsonpos_push(&r->at, "params", p->ord);
        jsonpos_push(&r->at, it->string, i);
        if (!expr_is_name(it->string))
            return jsonread_fail_key(r, "parameter name '%s' must be an identifier (letters, digits, '_')", it->string);
        if (strlen(it->string) >= WL_MAX_NAME)
            return jsonread_fail_key(r, "parameter name longer than %d characters", WL_MAX_NAME - 1);
        if (params_is_reserved(it->string))
            return jsonread_fail_key(r, "parameter name '%s' is reserved (a machine value or a function)", it->string);
        if (repeat[i]) return jsonread_fail_key(r, "duplicate key '%s'", it->string);
        if (!cJSON_IsNumber(it) && !cJSON_IsString(it))
            return jsonread_fail(r, "expected an integer or an expression string, found %s", jsonread_type(it));
        snprintf(p->w->params[i].name, WL_MAX_NAME, "%s", it->string);
        p->item[i] = it;
        jsonpos_pop(&r->at);
        jsonpos_pop(&r->at);
    }
    return true;
}

bool params_load(Params *p, const cJSON *root, const char *const *overrides, size_t noverrides)
{
    Workload *w = p->w;
    JsonReader *r = p->r;
    const cJSON *obj = jsonread_member(root, "params", &p->ord);
    uint32_t n = 0;
    if (obj) {
        jsonpos_push(&r->at, "params", p->ord);
        if (!cJSON_IsObject(obj))
            return jsonread_fail(r, "expected an object of name: integer, found %s", jsonread_type(obj));
        for (const cJSON *it = obj->child; it; it = it->next) n++;
        jsonpos_pop(&r->at);
    }
    p->obj = obj;
    w->params = calloc(n ? n : 1, sizeof *w->params);
    p->item = calloc(n ? n : 1, sizeof *p->item);
    p->override = calloc(n ? n : 1, sizeof *p->override);
    p->state = calloc(n ? n : 1, sizeof *p->state);
    p->chain = calloc(n ? n : 1, sizeof *p->chain);
    p->by_name = calloc(n ? n : 1, sizeof *p->by_name);
    bool *repeat = calloc(n ? n : 1, sizeof *repeat); /* a name given before */
    if (!w->params || !p->item || !p->override || !p->state || !p->chain || !p->by_name || !repeat) {
        free(repeat);
        return jsonread_fail(r, "out of memory");
    }
    uint32_t i = 0;
    for (const cJSON *it = obj ? obj->child : NULL; it; it = it->next, i++)
        p->by_name[i] = (struct ParamsName){ it->string, i };
    qsort(p->by_name, n, sizeof *p->by_name, name_order);
    for (uint32_t k = 1; k < n; k++)
        if (strcmp(p->by_name[k - 1].name, p->by_name[k].name) == 0) repeat[p->by_name[k].index] = true;
    bool ok = read_params(p, repeat);
    free(repeat);
    if (!ok) return false;
    w->nparams = n;
    for (size_t k = 0; k < noverrides; k++) {
        const char *a = overrides[k];
        const char *eq = strchr(a, '=');
        if (!eq || eq == a || !eq[1]) {
            diag_set(r->d, "--param", 0, 0, "expected NAME=VALUE, got '%s'", a);
            r->failed = true;
            return false;
        }
        uint32_t j = 0;
        while (j < n &&
               !(strlen(w->params[j].name) == (size_t)(eq - a) && strncmp(w->params[j].name, a, (size_t)(eq - a)) == 0))
            j++;
        if (j == n) {
            char list[512] = "";
            size_t len = 0;
            for (uint32_t q = 0; q < n; q++) len = diag_join(list, sizeof list, len, w->params[q].name);
            diag_set(r->d, "--param", 0, 0, "unknown parameter '%.*s' (%s has: %s)", (int)(eq - a), a, r->file,
                     n ? list : "no params");
            r->failed = true;
            return false;
        }
        p->override[j] = a; /* a later --param for the same name wins */
    }
    for (uint32_t k = 0; k < n; k++)
        if (p->state[k] == PARAM_TODO && !eval_param(p, k)) return false;
    return true;
}

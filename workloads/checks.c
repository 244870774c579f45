/* workloads/checks.c -- reading a variant's checks and linking same_as
** checks across variants (see checks.h). A reference check is validated
** against the kernel's parameters and dry-run for sizes; an expect file is
** read whole at load time; same_as names are resolved after all variants
** are read, and the run order is a depth-first walk in file order (a
** variant's targets first), iterative so that long chains cost no stack. */
#include "workloads/checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/npy.h"

/* A check's expect file may hold a buffer's largest count, plus its header. */
#define CHECKS_MAX_NPY_BYTES (WL_MAX_COUNT * 4 + (1u << 20))

static void push_key(JsonReader *r, const char *key, uint32_t index) { jsonpos_push(&r->at, key, index); }
static void pop(JsonReader *r) { jsonpos_pop(&r->at); }


static bool tolerance(JsonReader *r, const cJSON *obj, const char *key, double *out)
{
    uint32_t ord;
    const cJSON *it = jsonread_member(obj, key, &ord);
    *out = 0;
    if (!it) return true;
    push_key(r, key, ord);
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || it->valuedouble < 0)
        return jsonread_fail(r, "expected a non-negative number, found %s",
                             !cJSON_IsNumber(it) ? jsonread_type(it)
                             : isfinite(it->valuedouble) ? "a negative number" : "a number beyond the double range");
    *out = it->valuedouble;
    pop(r);
    return true;
}

/* "reference": a row of the table whose signature matches the kernel of
** the launch it gets (ck->launch) and whose output is the checked buffer;
** its size checks pass. */
static bool load_reference(JsonReader *r, const Workload *w, const WlLaunch *v, const cJSON *it, WlCheck *ck)
{
    if (!cJSON_IsString(it)) return jsonread_fail(r, "expected a reference function name, found %s", jsonread_type(it));
    ck->ref = reference_find(it->valuestring);
    if (!ck->ref) {
        DiagNear near = diag_near_start(it->valuestring, 2, true);
        for (size_t q = 0; q < reference_count(); q++) diag_near_offer(&near, reference_at(q)->name);
        if (near.best) return jsonread_fail(r, "unknown reference '%s'; did you mean '%s'?", it->valuestring, near.best);
        return jsonread_fail(r, "unknown reference '%s' (the references are listed in workloads/README.md)",
                             it->valuestring);
    }
    RefArgKind kinds[ISA_MAX_PARAMS];
    WlType types[ISA_MAX_PARAMS];
    uint32_t na = reference_signature(ck->ref, kinds, types, ISA_MAX_PARAMS);
    if (na != v->kernel->nparams)
        return jsonread_fail(r, "reference '%s' takes %u arguments (%s) but kernel '%s' has %u parameters", ck->ref->name,
                             na, ck->ref->signature, v->kernel->name, v->kernel->nparams);
    for (uint32_t q = 0; q < na; q++) {
        const WlArg *a = &v->args[q];
        bool ok = kinds[q] == REF_ARG_BUFFER ? a->kind == REF_ARG_BUFFER && w->buffers[a->buffer].type == types[q]
                : kinds[q] == REF_ARG_INT    ? a->kind == REF_ARG_INT
                                             : a->kind != REF_ARG_BUFFER;
        if (!ok)
            return jsonread_fail(r, "reference '%s' (%s) does not match argument %u ('%s') of kernel '%s'", ck->ref->name,
                                 ck->ref->signature, q, v->kernel->params[q].name, v->kernel->name);
    }
    const WlArg *outarg = &v->args[ck->ref->output];
    if (outarg->buffer != ck->buffer)
        return jsonread_fail(r, "reference '%s' predicts argument %u, buffer '%s', not '%s'", ck->ref->name,
                             ck->ref->output, w->buffers[outarg->buffer].name, w->buffers[ck->buffer].name);
    RefArg ra[ISA_MAX_PARAMS];
    RefCall call = workload_ref_call(w, v, NULL, ra); /* the dry run: sizes only */
    char msg[256] = "";
    if (!ck->ref->fn(&call, NULL, msg, sizeof msg)) return jsonread_fail(r, "reference '%s': %s", ck->ref->name, msg);
    return true;
}

/* "expect": a .npy file of the buffer's element type and count. */
static bool load_expect(JsonReader *r, const Workload *w, const cJSON *it, WlCheck *ck)
{
    if (!cJSON_IsString(it) || !it->valuestring[0])
        return jsonread_fail(r, "expected the path of a .npy file (a string), found %s",
                             cJSON_IsString(it) ? "an empty string" : jsonread_type(it));
    if (!(ck->file = jsonread_sibling_path(r, it->valuestring))) return jsonread_fail(r, "out of memory");
    const WlBuffer *b = &w->buffers[ck->buffer];
    NpyArray a;
    Diag d;
    if (!npy_read(ck->file, CHECKS_MAX_NPY_BYTES, &a, &d)) return jsonread_fail(r, "%s: %s", ck->file, d.message);
    bool ok = false;
    if (a.type != b->type) {
        jsonread_fail(r, "%s holds %s elements, buffer '%s' is %s (%s)", ck->file, npy_descr(a.type), b->name,
                      wl_type_name(b->type), npy_descr(b->type));
    } else if (a.count != b->count) {
        char shape[256];
        size_t len = (size_t)snprintf(shape, sizeof shape, "(");
        for (uint32_t k = 0; k < a.ndim && len < sizeof shape; k++)
            len += (size_t)snprintf(shape + len, sizeof shape - len, "%s%llu", k ? ", " : "", (unsigned long long)a.shape[k]);
        if (len < sizeof shape) snprintf(shape + len, sizeof shape - len, a.ndim == 1 ? ",)" : ")");
        jsonread_fail(r, "%s has shape %s = %llu elements, buffer '%s' has %llu", ck->file, shape,
                      (unsigned long long)a.count, b->name, (unsigned long long)b->count);
    } else {
        ck->expect = a.data;
        a.data = NULL;
        ok = true;
    }
    npy_free(&a);
    return ok;
}

bool checks_load(JsonReader *r, const Workload *w, WlVariant *v, const cJSON *arr)
{
    if (!cJSON_IsArray(arr)) return jsonread_fail(r, "expected an array of checks, found %s", jsonread_type(arr));
    uint32_t n = (uint32_t)cJSON_GetArraySize(arr);
    v->checks = calloc(n ? n : 1, sizeof *v->checks);
    if (!v->checks) return jsonread_fail(r, "out of memory");
    static const char *const keys[] = { "buffer", "reference", "same_as", "expect", "atol", "rtol", "launch", NULL };
    static const char *const required[] = { "buffer", NULL };
    static const char *const kinds[] = { "reference", "same_as", "expect" };
    uint32_t i = 0;
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        jsonpos_push(&r->at, NULL, i);
        v->nchecks = i + 1;
        if (!cJSON_IsObject(it)) return jsonread_fail(r, "expected a check object, found %s", jsonread_type(it));
        if (!jsonread_check_keys(r, it, keys, required)) return false;
        WlCheck *ck = &v->checks[i];
        uint32_t o;
        const cJSON *b = jsonread_member(it, "buffer", &o);
        push_key(r, "buffer", o);
        if (!cJSON_IsString(b)) return jsonread_fail(r, "expected a buffer name, found %s", jsonread_type(b));
        int bi = workload_find_buffer(w, b->valuestring);
        if (bi < 0) return jsonread_fail(r, "unknown buffer '%s'", b->valuestring);
        ck->buffer = (uint32_t)bi;
        pop(r);
        int kind = -1, given = 0;
        for (int k = 0; k < 3; k++)
            if (jsonread_member(it, kinds[k], NULL)) kind = kind < 0 ? k : kind, given++;
        if (given != 1)
            return jsonread_fail(r, "a check needs exactly one of \"reference\", \"same_as\" and \"expect\", found %d",
                                 given);
        ck->kind = kind == 0 ? WL_CHECK_REFERENCE : kind == 1 ? WL_CHECK_SAME_AS : WL_CHECK_EXPECT;
        ck->launch = v->nlaunches - 1;
        const cJSON *val = jsonread_member(it, "launch", &o);
        if (val) {
            push_key(r, "launch", o);
            int64_t li;
            if (ck->kind != WL_CHECK_REFERENCE)
                return jsonread_fail_key(r, "\"launch\" goes with \"reference\" only (the other checks look at the "
                                            "buffer after the last launch)");
            if (!cJSON_IsNumber(val) || !jsonread_integer(val, &li) || li < 0 || li >= (int64_t)v->nlaunches)
                return jsonread_fail(r, "expected the index of one of the variant's %u launches (0..%u)", v->nlaunches,
                                     v->nlaunches - 1);
            ck->launch = (uint32_t)li;
            pop(r);
        }
        val = jsonread_member(it, kinds[kind], &o);
        push_key(r, kinds[kind], o);
        if (ck->kind == WL_CHECK_REFERENCE && !load_reference(r, w, &v->launches[ck->launch], val, ck)) return false;
        if (ck->kind == WL_CHECK_SAME_AS && !cJSON_IsString(val))
            return jsonread_fail(r, "expected the name of a variant, found %s", jsonread_type(val));
        if (ck->kind == WL_CHECK_EXPECT && !load_expect(r, w, val, ck)) return false;
        pop(r);
        if (!tolerance(r, it, "atol", &ck->atol) || !tolerance(r, it, "rtol", &ck->rtol)) return false;
        pop(r);
    }
    return true;
}

void checks_free(WlVariant *v)
{
    for (uint32_t i = 0; v->checks && i < v->nchecks; i++) {
        free(v->checks[i].expect);
        free(v->checks[i].file);
    }
}

/* ================================================================ linking */

/* Places r->at at variants[vi].checks[k].same_as. */
static void at_same_as(JsonReader *r, const cJSON *variants, uint32_t ord, uint32_t vi, uint32_t k)
{
    r->at.n = 0;
    push_key(r, "variants", ord);
    jsonpos_push(&r->at, NULL, vi);
    const cJSON *v = cJSON_GetArrayItem(variants, (int)vi);
    uint32_t o;
    const cJSON *checks = jsonread_member(v, "checks", &o);
    push_key(r, "checks", o);
    jsonpos_push(&r->at, NULL, k);
    jsonread_member(cJSON_GetArrayItem(checks, (int)k), "same_as", &o);
    push_key(r, "same_as", o);
}

static bool resolve_names(JsonReader *r, Workload *w, const cJSON *variants, uint32_t ord)
{
    uint32_t vi = 0;
    for (const cJSON *jv = variants->child; jv; jv = jv->next, vi++) {
        WlVariant *v = &w->variants[vi];
        const cJSON *checks = jsonread_member(jv, "checks", NULL);
        for (uint32_t k = 0; k < v->nchecks; k++) {
            WlCheck *ck = &v->checks[k];
            if (ck->kind != WL_CHECK_SAME_AS) continue;
            const char *name = jsonread_member(cJSON_GetArrayItem(checks, (int)k), "same_as", NULL)->valuestring;
            const WlVariant *t = workload_find_variant(w, name);
            if (t == v) {
                at_same_as(r, variants, ord, vi, k);
                return jsonread_fail(r, "variant '%s' cannot be checked against itself", name);
            }
            if (!t) {
                char list[512];
                size_t len = 0;
                DiagNear near = diag_near_start(name, 2, true);
                list[0] = '\0';
                for (uint32_t q = 0; q < w->nvariants; q++) {
                    len = diag_join(list, sizeof list, len, w->variants[q].name);
                    diag_near_offer(&near, w->variants[q].name);
                }
                at_same_as(r, variants, ord, vi, k);
                if (near.best) return jsonread_fail(r, "no variant '%s' to compare with; did you mean '%s'?", name, near.best);
                return jsonread_fail(r, "no variant '%s' to compare with (the variants: %s)", name, list);
            }
            ck->variant = (uint32_t)(t - w->variants);
        }
    }
    return true;
}

enum { NODE_NEW, NODE_OPEN, NODE_DONE };

bool checks_link(JsonReader *r, Workload *w, const cJSON *variants, uint32_t ord)
{
    if (!resolve_names(r, w, variants, ord)) return false;
    uint32_t n = w->nvariants;
    w->order = calloc(n, sizeof *w->order);
    uint8_t *state = calloc(n, 1);
    uint32_t *stack = calloc(n, sizeof *stack), *next = calloc(n, sizeof *next);
    bool ok = w->order && state && stack && next;
    if (!ok) jsonread_fail(r, "out of memory");
    uint32_t done = 0;
    for (uint32_t root = 0; ok && root < n; root++) {
        if (state[root] != NODE_NEW) continue;
        uint32_t depth = 0;
        stack[depth++] = root;
        state[root] = NODE_OPEN;
        next[root] = 0;
        while (ok && depth) {
            uint32_t vi = stack[depth - 1];
            const WlVariant *v = &w->variants[vi];
            while (next[vi] < v->nchecks && v->checks[next[vi]].kind != WL_CHECK_SAME_AS) next[vi]++;
            if (next[vi] == v->nchecks) { /* its targets have their places: it goes next */
                state[vi] = NODE_DONE;
                w->order[done++] = vi;
                depth--;
                continue;
            }
            uint32_t k = next[vi]++, t = v->checks[k].variant;
            if (state[t] == NODE_OPEN) {
                char path[768] = "";
                size_t len = 0;
                uint32_t from = 0;
                while (stack[from] != t) from++;
                for (uint32_t q = from; q < depth && len < sizeof path; q++)
                    len += (size_t)snprintf(path + len, sizeof path - len, "%s -> ", w->variants[stack[q]].name);
                if (len < sizeof path) snprintf(path + len, sizeof path - len, "%s", w->variants[t].name);
                at_same_as(r, variants, ord, vi, k);
                ok = jsonread_fail(r, "variants compare with each other in a cycle: %s", path);
            } else if (state[t] == NODE_NEW) {
                state[t] = NODE_OPEN;
                next[t] = 0;
                stack[depth++] = t;
            }
        }
    }
    free(state);
    free(stack);
    free(next);
    return ok;
}

/* workloads/claims.c -- reads a workload's "claims" (see claims.h). */
#include "workloads/claims.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonpos.h"
#include "sim/config.h"
#include "workloads/loader.h"

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* Member key of obj as a malloc'd string in *out (NULL when absent). */
static bool string_key(JsonReader *r, const cJSON *obj, const char *key, char **out)
{
    uint32_t ord;
    const cJSON *it = jsonread_member(obj, key, &ord);
    *out = NULL;
    if (!it) return true;
    jsonpos_push(&r->at, key, ord);
    if (!cJSON_IsString(it) || !it->valuestring[0])
        return jsonread_fail(r, "expected a non-empty string, found %s", jsonread_type(it));
    if (!(*out = dup_str(it->valuestring))) return jsonread_fail(r, "out of memory");
    jsonpos_pop(&r->at);
    return true;
}

static bool variant_key(JsonReader *r, const struct Workload *w, const cJSON *obj, const char *key, uint32_t *out)
{
    char *name;
    if (!string_key(r, obj, key, &name)) return false;
    if (!name) return true;
    uint32_t ord;
    jsonread_member(obj, key, &ord);
    jsonpos_push(&r->at, key, ord);
    const WlVariant *v = workload_find_variant(w, name);
    bool ok = v != NULL;
    if (!ok) jsonread_fail(r, "no variant named '%s'", name);
    else *out = (uint32_t)(v - w->variants);
    free(name);
    if (ok) jsonpos_pop(&r->at);
    return ok;
}

static bool bound_key(JsonReader *r, const cJSON *obj, const char *key, double dflt, double *out)
{
    uint32_t ord;
    const cJSON *it = jsonread_member(obj, key, &ord);
    *out = dflt;
    if (!it) return true;
    jsonpos_push(&r->at, key, ord);
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
        return jsonread_fail(r, "expected a number, found %s", jsonread_type(it));
    *out = it->valuedouble;
    jsonpos_pop(&r->at);
    return true;
}

static bool load_claim(JsonReader *r, const struct Workload *w, const cJSON *it, WlClaim *c)
{
    static const char *const keys[] = { "says", "variant", "over", "metric", "min", "max", "clause", "gpu", NULL };
    static const char *const required[] = { "says", "variant", NULL };
    if (!cJSON_IsObject(it)) return jsonread_fail(r, "expected a claim object, found %s", jsonread_type(it));
    if (!jsonread_check_keys(r, it, keys, required)) return false;
    uint32_t ord;
    c->over = UINT32_MAX;
    if (!string_key(r, it, "says", &c->says) || !variant_key(r, w, it, "variant", &c->variant) ||
        !variant_key(r, w, it, "over", &c->over) || !string_key(r, it, "metric", &c->metric) ||
        !string_key(r, it, "clause", &c->clause) || !string_key(r, it, "gpu", &c->gpu) ||
        !bound_key(r, it, "min", -INFINITY, &c->min) || !bound_key(r, it, "max", INFINITY, &c->max))
        return false;
    if (strspn(c->says, " \t\n") == strlen(c->says)) {
        jsonread_member(it, "says", &ord);
        jsonpos_push(&r->at, "says", ord);
        return jsonread_fail(r, "only blanks: a claim quotes the words of the description it backs");
    }
    if (c->gpu) {
        bool known = false;
        for (size_t i = 0; i < config_preset_count() && !known; i++) known = strcmp(config_preset_name(i), c->gpu) == 0;
        if (!known) {
            jsonread_member(it, "gpu", &ord);
            jsonpos_push(&r->at, "gpu", ord);
            return jsonread_fail(r, "unknown GPU '%s': a claim holds for one preset (gpusim gpus lists them)", c->gpu);
        }
    }
    if (!strstr(w->description, c->says)) {
        jsonread_member(it, "says", &ord);
        jsonpos_push(&r->at, "says", ord);
        return jsonread_fail(r, "not the words of the description: a claim quotes the sentence it backs");
    }
    bool bounded = jsonread_member(it, "min", NULL) || jsonread_member(it, "max", NULL);
    if (c->clause) {
        if (bounded || c->metric || c->over != UINT32_MAX)
            return jsonread_fail(r, "a clause claim has no metric, over, min or max");
        c->kind = WL_CLAIM_CLAUSE;
        return true;
    }
    if (!bounded) return jsonread_fail(r, "a claim needs min, max (or both), or a clause");
    if (c->min > c->max) return jsonread_fail(r, "min %g is above max %g", c->min, c->max);
    if (!c->metric && !(c->metric = dup_str("cycles"))) return jsonread_fail(r, "out of memory");
    /* the error for a metric the report does not know, made here where its
    ** place in the file is known (the record of r is left as it was) */
    JsonReader at = *r;
    if (!(c->unknown_metric = calloc(1, sizeof *c->unknown_metric))) return jsonread_fail(r, "out of memory");
    at.d = c->unknown_metric;
    at.failed = false;
    if (jsonread_member(it, "metric", &ord)) jsonpos_push(&at.at, "metric", ord);
    jsonread_fail(&at, "no numeric metric '%s' (workloads/README.md, \"--json\", lists them)", c->metric);
    c->kind = c->over == UINT32_MAX ? WL_CLAIM_VALUE : WL_CLAIM_RATIO;
    return true;
}

bool claims_load(JsonReader *r, const struct Workload *w, const cJSON *arr, WlClaim **out, uint32_t *n)
{
    *out = NULL;
    *n = 0;
    if (!cJSON_IsArray(arr)) return jsonread_fail(r, "expected an array of claims, found %s", jsonread_type(arr));
    uint32_t count = (uint32_t)cJSON_GetArraySize(arr);
    if (!count) return true;
    WlClaim *c = calloc(count, sizeof *c);
    if (!c) return jsonread_fail(r, "out of memory");
    *out = c;
    uint32_t i = 0;
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        jsonpos_push(&r->at, NULL, i);
        *n = i + 1;
        if (!load_claim(r, w, it, &c[i])) return false;
        jsonpos_pop(&r->at);
    }
    return true;
}

void claims_free(WlClaim *c, uint32_t n)
{
    for (uint32_t i = 0; c && i < n; i++) {
        free(c[i].says);
        free(c[i].metric);
        free(c[i].clause);
        free(c[i].gpu);
        free(c[i].unknown_metric);
    }
    free(c);
}

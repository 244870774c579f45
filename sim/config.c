/* sim/config.c -- loading, --set, validation and printing of GpuConfig.
** Every behaviour here is driven by the rows of sim/config.def: one table,
** built by the X-macro below, gives each knob's key, type, field offset,
** range and help; the JSON loader, --set, the range checks, the JSON printer
** and the knob listing all walk that table. Adding a knob is one row.
** The numbers themselves live in sim/presets/NAME.json (compiled in by
** sim/presets/embed.cmake; sources in sim/presets/SOURCES.md).
** A machine file with "base": NAME-or-path starts from that machine (a
** preset, or a file found relative to the one naming it) and gives only
** the knobs it changes; bases may chain, a cycle is an error.
** Left out: JSON comments. cJSON is used with case-sensitive
** lookups; since it keeps no source positions, base/jsonpos finds the
** line:col of a JSON path for the error messages.                       */
#define _XOPEN_SOURCE 700 /* realpath, to tell a cycle of base files */
#include "sim/config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/jsonparse.h"
#include "base/jsonpos.h"
#include "base/jsonstr.h"
#include "base/names.h"

/* Defined in the C file that sim/presets/embed.cmake generates from
** the preset files: their names (file stems, sorted) and their texts.     */
extern const size_t config_embedded_count;
extern const char *const config_embedded_names[];
extern const char *const config_embedded_json[];

typedef enum { KNOB_U32, KNOB_F64, KNOB_POLICY } KnobType;

typedef struct {
    const char *key;  /* dotted JSON path, e.g. "sm.count" */
    size_t keylen;    /* strlen(key): lookups compare lengths first */
    KnobType type;
    size_t offset;    /* of the field in GpuConfig       */
    double lo, hi;    /* accepted range, inclusive       */
    const char *help;
} Knob;

static const Knob KNOBS[] = {
#define CFG(key, field, type, lo, hi, help) \
    {key, sizeof(key) - 1, KNOB_##type, offsetof(GpuConfig, field), (double)(lo), (double)(hi), help},
#include "sim/config.def"
#undef CFG
};
#define KNOB_COUNT (sizeof KNOBS / sizeof KNOBS[0])

#define MAX_KEY 128          /* longest dotted key we build           */
#define MAX_FILE (1u << 24)  /* a machine file is a few KB; refuse more */

static const char *const POLICY_NAMES[] = {"gto", "lrr", "rr"};

/* ---- knob table helpers ---- */

static const Knob *knob_find(const char *key)
{
    size_t n = strlen(key);
    for (size_t i = 0; i < KNOB_COUNT; i++)
        if (KNOBS[i].keylen == n && memcmp(KNOBS[i].key, key, n) == 0) return &KNOBS[i];
    return NULL;
}

static double knob_get(const GpuConfig *c, const Knob *k)
{
    const char *p = (const char *)c + k->offset;
    switch (k->type) {
    case KNOB_U32: { uint32_t v; memcpy(&v, p, sizeof v); return (double)v; }
    case KNOB_F64: { double v; memcpy(&v, p, sizeof v); return v; }
    case KNOB_POLICY: { SchedPolicy v; memcpy(&v, p, sizeof v); return (double)v; }
    }
    return 0.0;
}

/* v has been checked against the knob's type and range */
static void knob_put(GpuConfig *c, const Knob *k, double v)
{
    char *p = (char *)c + k->offset;
    switch (k->type) {
    case KNOB_U32: { uint32_t u = (uint32_t)v; memcpy(p, &u, sizeof u); break; }
    case KNOB_F64: memcpy(p, &v, sizeof v); break;
    case KNOB_POLICY: { SchedPolicy s = (SchedPolicy)(int)v; memcpy(p, &s, sizeof s); break; }
    }
}

static const char *knob_type_name(KnobType t)
{
    switch (t) {
    case KNOB_U32: return "u32";
    case KNOB_F64: return "f64";
    case KNOB_POLICY: return "policy";
    }
    return "?";
}

/* Shortest "%g" form of v that reads back as v (so JSON round-trips). */
static void num_str(double v, char buf[40])
{
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, 40, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, 40, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) return;
    }
}

static void range_str(const Knob *k, char buf[96])
{
    if (k->type == KNOB_POLICY) {
        snprintf(buf, 96, "gto | lrr | rr");
        return;
    }
    char lo[40], hi[40];
    num_str(k->lo, lo);
    num_str(k->hi, hi);
    snprintf(buf, 96, "[%s, %s]", lo, hi);
}

/* why = "" when v is in range, else a sentence naming the range */
static bool range_check(const Knob *k, double v, char *why, size_t n)
{
    if (v >= k->lo && v <= k->hi) return true;
    char vs[40], rs[96];
    num_str(v, vs);
    range_str(k, rs);
    snprintf(why, n, "%s is out of range %s", vs, rs);
    return false;
}

/* Parses a --set value for k; on failure writes a reason to why. */
static bool knob_parse_text(const Knob *k, const char *text, double *v, char *why, size_t n)
{
    char rs[96];
    range_str(k, rs);
    switch (k->type) {
    case KNOB_U32: {
        size_t len = strlen(text);
        bool digits = len > 0 && len <= 12;
        for (size_t i = 0; digits && i < len; i++) digits = text[i] >= '0' && text[i] <= '9';
        if (!digits) {
            snprintf(why, n, "expected an unsigned integer in %s, got '%s'", rs, text);
            return false;
        }
        *v = strtod(text, NULL);
        return range_check(k, *v, why, n);
    }
    case KNOB_F64: {
        /* plain decimal notation only: strtod alone would also take hex, inf, nan */
        char *end = NULL;
        double x = strtod(text, &end);
        if (end == text || *end != '\0' || strspn(text, "0123456789+-.eE") != strlen(text) || !isfinite(x)) {
            snprintf(why, n, "expected a number in %s, got '%s'", rs, text);
            return false;
        }
        *v = x;
        return range_check(k, *v, why, n);
    }
    case KNOB_POLICY:
        for (size_t i = 0; i < sizeof POLICY_NAMES / sizeof POLICY_NAMES[0]; i++)
            if (strcmp(text, POLICY_NAMES[i]) == 0) {
                *v = (double)i;
                return true;
            }
        snprintf(why, n, "expected gto, lrr or rr, got '%s'", text);
        return false;
    }
    return false;
}

static const char *json_type_name(const cJSON *it)
{
    if (cJSON_IsObject(it)) return "an object";
    if (cJSON_IsArray(it)) return "an array";
    if (cJSON_IsString(it)) return "a string";
    if (cJSON_IsNumber(it)) return "a number";
    if (cJSON_IsBool(it)) return "a boolean";
    if (cJSON_IsNull(it)) return "null";
    return "an invalid value";
}

/* Parses a JSON value for k; on failure writes a reason to why. */
static bool knob_parse_json(const Knob *k, const cJSON *it, double *v, char *why, size_t n)
{
    switch (k->type) {
    case KNOB_U32:
    case KNOB_F64: {
        const char *want = k->type == KNOB_U32 ? "an unsigned integer" : "a number";
        if (!cJSON_IsNumber(it)) {
            snprintf(why, n, "expected %s, got %s", want, json_type_name(it));
            return false;
        }
        double x = it->valuedouble;
        if (!isfinite(x) || (k->type == KNOB_U32 && x != floor(x))) {
            char xs[40];
            num_str(x, xs);
            snprintf(why, n, "expected %s, got %s", want, xs);
            return false;
        }
        *v = x;
        return range_check(k, x, why, n);
    }
    case KNOB_POLICY:
        if (!cJSON_IsString(it)) {
            snprintf(why, n, "expected \"gto\", \"lrr\" or \"rr\", got %s", json_type_name(it));
            return false;
        }
        return knob_parse_text(k, it->valuestring, v, why, n);
    }
    return false;
}

/* " (did you mean sm.count?)" for the closest knob, or "" when none is close. */
static void suggest(const char *key, char *buf, size_t n)
{
    DiagNear near = diag_near_start(key, 3, false);
    for (size_t i = 0; i < KNOB_COUNT; i++) diag_near_offer(&near, KNOBS[i].key);
    if (near.best) snprintf(buf, n, " (did you mean %s?)", near.best);
    else if (n) buf[0] = '\0';
}

/* Appends s to buf (size n, NUL-terminated), ending in "..." if it is full. */
static void append(char *buf, size_t n, const char *s)
{
    size_t len = strlen(buf), add = strlen(s);
    if (len + add + 1 <= n) {
        memcpy(buf + len, s, add + 1);
    } else if (n > 4 && len + 4 <= n) {
        memcpy(buf + len, "...", 4);
    }
}

/* Length of the first path component of key (up to '.' or the end). */
static size_t first_component(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? (size_t)(dot - key) : strlen(key);
}

/* Valid keys directly under prefix ("" or "sm."): the next path component of
** every knob below it, without repeats, plus name/description at the top. */
static void keys_under(const char *prefix, char *buf, size_t n)
{
    size_t plen = strlen(prefix);
    buf[0] = '\0';
    if (plen == 0) append(buf, n, "name, description");
    for (size_t i = 0; i < KNOB_COUNT; i++) {
        if (strncmp(KNOBS[i].key, prefix, plen) != 0) continue;
        const char *rest = KNOBS[i].key + plen;
        size_t clen = first_component(rest);
        bool dup = false;
        for (size_t j = 0; j < i && !dup; j++)
            dup = strncmp(KNOBS[j].key, prefix, plen) == 0 &&
                  first_component(KNOBS[j].key + plen) == clen &&
                  strncmp(KNOBS[j].key + plen, rest, clen) == 0;
        if (dup) continue;
        char comp[MAX_KEY];
        snprintf(comp, sizeof comp, "%.*s", (int)clen, rest);
        if (buf[0]) append(buf, n, ", ");
        append(buf, n, comp);
    }
    if (plen == 0) append(buf, n, ", base");
}

/* Every knob key, grouped: "compute_capability, clock_mhz, sm.{count, ...}, ..." */
static void all_keys(char *buf, size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; i < KNOB_COUNT; i++) {
        const char *key = KNOBS[i].key;
        size_t glen = first_component(key);
        if (key[glen] == '\0') {
            if (buf[0]) append(buf, n, ", ");
            append(buf, n, key);
            continue;
        }
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strncmp(KNOBS[j].key, key, glen + 1) == 0;
        if (seen) continue;
        char part[MAX_KEY];
        snprintf(part, sizeof part, "%s%.*s.{", buf[0] ? ", " : "", (int)glen, key);
        append(buf, n, part);
        bool first = true;
        for (size_t j = i; j < KNOB_COUNT; j++) {
            if (strncmp(KNOBS[j].key, key, glen + 1) != 0) continue;
            if (!first) append(buf, n, ", ");
            append(buf, n, KNOBS[j].key + glen + 1);
            first = false;
        }
        append(buf, n, "}");
    }
}

static bool is_group(const char *full)
{
    size_t len = strlen(full);
    for (size_t i = 0; i < KNOB_COUNT; i++)
        if (strncmp(KNOBS[i].key, full, len) == 0 && KNOBS[i].key[len] == '.') return true;
    return false;
}

/* ---- loading ---- */

typedef struct {
    const char *text;
    size_t len;
    const char *source;
    GpuConfig *cfg;
    Diag *d;
    bool seen[KNOB_COUNT];
    JsonPath at; /* the member being read */
} Loader;

/* Fails at the key of the member being read (at_key), or with no position. */
static bool load_fail(Loader *ld, bool at_key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool load_fail(Loader *ld, bool at_key, const char *fmt, ...)
{
    uint32_t line = 0, col = 0;
    size_t off;
    if (at_key && ld->at.n > 0 && jsonpos_locate(ld->text, ld->len, &ld->at, true, &off))
        jsonpos_line_col(ld->text, ld->len, off, &line, &col);
    va_list ap;
    va_start(ap, fmt);
    diag_setv(ld->d, ld->source, line, col, fmt, ap);
    va_end(ap);
    return false;
}

static bool load_string(Loader *ld, const cJSON *it, const char *key, char *dst, size_t cap)
{
    if (!cJSON_IsString(it))
        return load_fail(ld, true, "%s: expected a string, got %s", key, json_type_name(it));
    size_t n = strlen(it->valuestring);
    if (n >= cap) return load_fail(ld, true, "%s: longer than %zu characters", key, cap - 1);
    if (n == 0 && strcmp(key, "name") == 0)
        return load_fail(ld, true, "name: must not be empty");
    memcpy(dst, it->valuestring, n + 1);
    return true;
}

static bool load_member_list(Loader *ld, const cJSON *obj, const char *prefix, const cJSON **members,
                             NameIndex *seen);

/* The members of obj (an object at ld->at), keys prefixed with prefix. */
static bool load_members(Loader *ld, const cJSON *obj, const char *prefix)
{
    if (ld->at.n >= JSONPOS_MAX_DEPTH)
        return load_fail(ld, false, "%s: nested too deeply", prefix);
    /* keys seen so far, to find a duplicate in linear time */
    uint32_t nmembers = 0;
    for (const cJSON *it = obj->child; it; it = it->next) nmembers++;
    const cJSON **members = malloc((nmembers ? nmembers : 1) * sizeof *members);
    NameIndex seen = { 0 };
    if (!members) return load_fail(ld, false, "out of memory");
    bool ok = load_member_list(ld, obj, prefix, members, &seen);
    names_free(&seen);
    free(members);
    return ok;
}

static const char *member_key(const void *ctx, uint32_t id) { return ((const cJSON *const *)ctx)[id]->string; }

static bool load_member_list(Loader *ld, const cJSON *obj, const char *prefix, const cJSON **members, NameIndex *seen)
{
    uint32_t index = 0;
    for (const cJSON *it = obj->child; it; it = it->next, index++) {
        const char *key = it->string;
        char full[MAX_KEY];
        if ((size_t)snprintf(full, sizeof full, "%s%s", prefix, key) >= sizeof full)
            return load_fail(ld, false, "%s...: key too long", prefix);
        jsonpos_push(&ld->at, key, index);

        members[index] = it;
        if (names_find(seen, key, strlen(key), member_key, members) != NAMES_NONE)
            return load_fail(ld, true, "%s: duplicate key", full);
        if (!names_add(seen, index, member_key, members)) return load_fail(ld, false, "out of memory");

        if (strchr(key, '.'))
            return load_fail(ld, true, "%s: a dotted key must be written as nested objects, "
                                    "e.g. {\"sm\": {\"count\": 108}}", full);
        const Knob *k = knob_find(full);
        if (prefix[0] == '\0' && strcmp(key, "base") == 0) {
            /* read before the other members (parse_at) */
        } else if (prefix[0] == '\0' && strcmp(key, "name") == 0) {
            if (!load_string(ld, it, key, ld->cfg->name, sizeof ld->cfg->name)) return false;
        } else if (prefix[0] == '\0' && strcmp(key, "description") == 0) {
            if (!load_string(ld, it, key, ld->cfg->description, sizeof ld->cfg->description))
                return false;
        } else if (k) {
            double v = 0;
            char why[256];
            if (!knob_parse_json(k, it, &v, why, sizeof why)) return load_fail(ld, true, "%s: %s", full, why);
            knob_put(ld->cfg, k, v);
            ld->seen[k - KNOBS] = true;
        } else if (is_group(full)) {
            char sub[MAX_KEY + 1], valid[768];
            snprintf(sub, sizeof sub, "%s.", full);
            if (!cJSON_IsObject(it)) {
                keys_under(sub, valid, sizeof valid);
                return load_fail(ld, true, "%s: expected an object with keys %s, got %s", full, valid,
                                 json_type_name(it));
            }
            if (!load_members(ld, it, sub)) return false;
        } else {
            char valid[768], hint[MAX_KEY + 32];
            keys_under(prefix, valid, sizeof valid);
            suggest(full, hint, sizeof hint);
            return load_fail(ld, true, "%s: unknown key%s; valid keys: %s", full, hint, valid);
        }
        jsonpos_pop(&ld->at);
    }
    return true;
}

static bool validate_at(const GpuConfig *c, const char *source, Diag *d);

/* "dir/a100.json" -> "a100" */
static void file_stem(const char *source, char *dst, size_t cap)
{
    const char *base = source ? strrchr(source, '/') : NULL;
    base = base ? base + 1 : (source && source[0] ? source : "custom");
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0) n -= 5;
    if (n >= cap) n = cap - 1;
    memcpy(dst, base, n);
    dst[n] = '\0';
}

/* The machine files being loaded, the innermost first: a base naming one
** of them closes a cycle. */
typedef struct Chain {
    const char         *id;    /* a preset's name, or a file's real path */
    const char         *shown; /* ... as the message names it            */
    const struct Chain *up;
} Chain;

#define MAX_BASE_DEPTH 16

static bool load_at(const char *name_or_path, const char *from, const Chain *up, GpuConfig *out, Diag *d);

/* "base" of root (a member of ld's file): the machine it names, into *cfg,
** with its name cleared (the file's own name or stem replaces it). */
static bool load_base(Loader *ld, const cJSON *base, uint32_t index, const Chain *me, GpuConfig *cfg)
{
    jsonpos_push(&ld->at, "base", index);
    if (!cJSON_IsString(base) || !base->valuestring[0])
        return load_fail(ld, true, "base: expected the name of a preset or a machine file, got %s",
                         cJSON_IsString(base) ? "an empty string" : json_type_name(base));
    uint32_t depth = 0;
    for (const Chain *c = me; c; c = c->up) depth++;
    if (depth > MAX_BASE_DEPTH) return load_fail(ld, true, "base: more than %d machine files deep", MAX_BASE_DEPTH);
    Diag bd;
    if (!load_at(base->valuestring, ld->source, me, cfg, &bd)) {
        if (bd.file[0] && strcmp(bd.file, "base") != 0 && bd.line) { /* the base file's own error, at its place */
            *ld->d = bd;
            return false;
        }
        if (bd.file[0] && strcmp(bd.file, "base") != 0) /* a file that cannot be read: at the key naming it */
            return load_fail(ld, true, "base: machine file '%s': %s", base->valuestring, bd.message);
        return load_fail(ld, true, "base: %s", bd.message);
    }
    cfg->name[0] = '\0';
    jsonpos_pop(&ld->at);
    return true;
}

static bool parse_at(const char *json, size_t len, const char *source, const Chain *me, GpuConfig *out, Diag *d)
{
    if (!json) {
        json = "";
        len = 0;
    }
    cJSON *root = jsonparse_text(json, len, source, d);
    if (!root) return false;
    char *text = malloc(len + 1); /* the Loader's positions read it as a string */
    if (!text) {
        cJSON_Delete(root);
        diag_set(d, source, 0, 0, "out of memory");
        return false;
    }
    memcpy(text, json, len);
    text[len] = '\0';

    GpuConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    Loader ld = {.text = text, .len = len, .source = source, .cfg = &cfg, .d = d};
    bool ok, based = false;
    if (!cJSON_IsObject(root)) {
        ok = load_fail(&ld, false, "expected a JSON object at the top level, got %s", json_type_name(root));
    } else {
        uint32_t index = 0;
        const cJSON *base = root->child;
        while (base && strcmp(base->string, "base") != 0) base = base->next, index++;
        based = base != NULL;
        ok = (!base || load_base(&ld, base, index, me, &cfg)) && load_members(&ld, root, "");
    }
    for (size_t i = 0; ok && !based && i < KNOB_COUNT; i++) {
        if (ld.seen[i]) continue;
        size_t missing = 0;
        for (size_t j = i; j < KNOB_COUNT; j++) missing += !ld.seen[j];
        /* point at the enclosing group when there is one */
        char group[MAX_KEY];
        size_t glen = first_component(KNOBS[i].key);
        snprintf(group, sizeof group, "%.*s", (int)glen, KNOBS[i].key);
        ld.at.n = 0;
        if (KNOBS[i].key[glen] == '.') { /* the group's first occurrence */
            uint32_t index = 0;
            const cJSON *g = root->child;
            while (g && strcmp(g->string, group) != 0) g = g->next, index++;
            if (g) jsonpos_push(&ld.at, group, index);
        }
        ok = load_fail(&ld, ld.at.n > 0,
                       "%s: missing key; a machine file must give every knob (%zu missing in all; "
                       "`gpusim gpus a100` prints a complete one)",
                       KNOBS[i].key, missing);
    }
    cJSON_Delete(root);
    if (ok && cfg.name[0] == '\0') file_stem(source, cfg.name, sizeof cfg.name);
    if (ok) ok = validate_at(&cfg, source, d);
    free(text);
    if (ok) *out = cfg;
    return ok;
}

bool config_parse(const char *json, size_t len, const char *source, GpuConfig *out, Diag *d)
{
    Chain me = {source ? source : "", source ? source : "", NULL};
    return parse_at(json, len, source, &me, out, d);
}

static bool is_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') != NULL || (n >= 5 && strcmp(s + n - 5, ".json") == 0);
}

/* A cycle when id is already being loaded: "a.json -> b.json -> a.json". */
static bool cycle_check(const char *id, const char *shown, const Chain *up, Diag *d)
{
    const Chain *hit = up;
    while (hit && strcmp(hit->id, id) != 0) hit = hit->up;
    if (!hit) return true;
    char path[768] = "";
    const char *names[MAX_BASE_DEPTH + 2];
    size_t n = 0;
    for (const Chain *c = up; c && n < MAX_BASE_DEPTH + 1; c = c->up) {
        names[n++] = c->shown;
        if (c == hit) break;
    }
    while (n--) {
        append(path, sizeof path, names[n]);
        append(path, sizeof path, " -> ");
    }
    append(path, sizeof path, shown);
    diag_set(d, "base", 0, 0, "a cycle of machine files: %s", path);
    return false;
}

/* name_or_path as config_load takes it; a relative path is found beside
** `from` (the file that names it as its base, or NULL). */
static bool load_at(const char *name_or_path, const char *from, const Chain *up, GpuConfig *out, Diag *d)
{
    if (!name_or_path || !name_or_path[0]) {
        diag_set(d, NULL, 0, 0, "no GPU named");
        return false;
    }
    if (is_path(name_or_path)) {
        char path[4096], real[4096];
        const char *slash = from && name_or_path[0] != '/' ? strrchr(from, '/') : NULL;
        int dir = slash ? (int)(slash - from + 1) : 0;
        snprintf(path, sizeof path, "%.*s%s", dir, from ? from : "", name_or_path);
        Chain me = {realpath(path, real) ? real : path, path, up};
        if (!cycle_check(me.id, path, up, d)) return false;
        char *buf, why[256];
        size_t len;
        FileReadStatus st = file_read(path, MAX_FILE, &buf, &len, why, sizeof why);
        if (st != FILE_READ_OK) {
            diag_set(d, path, 0, 0, st == FILE_READ_CANNOT_OPEN ? "cannot open: %s" : "%s", why);
            return false;
        }
        bool ok = parse_at(buf, len, path, &me, out, d);
        free(buf);
        return ok;
    }
    for (size_t i = 0; i < config_embedded_count; i++) {
        if (strcmp(config_embedded_names[i], name_or_path) != 0) continue;
        char source[MAX_KEY];
        snprintf(source, sizeof source, "sim/presets/%s.json", name_or_path);
        Chain me = {name_or_path, name_or_path, up};
        if (!cycle_check(me.id, name_or_path, up, d)) return false;
        return parse_at(config_embedded_json[i], strlen(config_embedded_json[i]), source, &me, out, d);
    }
    char names[512] = "";
    for (size_t i = 0; i < config_embedded_count; i++) {
        if (i) append(names, sizeof names, ", ");
        append(names, sizeof names, config_embedded_names[i]);
    }
    diag_set(d, NULL, 0, 0, "unknown GPU '%s'; presets: %s (or a path to a .json machine file)",
             name_or_path, names);
    return false;
}

bool config_load(const char *name_or_path, GpuConfig *out, Diag *d)
{
    return load_at(name_or_path, NULL, NULL, out, d);
}

/* ---- --set ---- */

static void trim(const char *s, size_t n, char *dst, size_t cap)
{
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n >= cap) n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

bool config_set(GpuConfig *c, const char *assignment, Diag *d)
{
    const char *eq = assignment ? strchr(assignment, '=') : NULL;
    if (!eq) {
        diag_set(d, "--set", 0, 0, "expected key=value, got '%s'", assignment ? assignment : "");
        return false;
    }
    char key[MAX_KEY], value[MAX_KEY];
    trim(assignment, (size_t)(eq - assignment), key, sizeof key);
    trim(eq + 1, strlen(eq + 1), value, sizeof value);
    const Knob *k = knob_find(key);
    if (!k) {
        char valid[sizeof d->message], hint[MAX_KEY + 32];
        suggest(key, hint, sizeof hint);
        all_keys(valid, sizeof valid - 96);
        diag_set(d, "--set", 0, 0, "unknown key '%s'%s; valid keys: %s", key, hint, valid);
        return false;
    }
    double v = 0;
    char why[256];
    if (!knob_parse_text(k, value, &v, why, sizeof why)) {
        diag_set(d, "--set", 0, 0, "%s: %s", key, why);
        return false;
    }
    knob_put(c, k, v);
    return true;
}

/* ---- validation ---- */

static bool validate_at(const GpuConfig *c, const char *source, Diag *d)
{
    if (!memchr(c->name, '\0', sizeof c->name) || !memchr(c->description, '\0', sizeof c->description)) {
        diag_set(d, source, 0, 0, "name/description: not NUL-terminated");
        return false;
    }
    for (size_t i = 0; i < KNOB_COUNT; i++) {
        char why[256];
        double v = knob_get(c, &KNOBS[i]);
        if (!range_check(&KNOBS[i], v, why, sizeof why)) {
            diag_set(d, source, 0, 0, "%s: %s", KNOBS[i].key, why);
            return false;
        }
    }
    return config_check_consistency(c, source, d); /* all fields in range: no zero divisors */
}

bool config_validate(const GpuConfig *c, Diag *d)
{
    return validate_at(c, NULL, d);
}
/* ---- printing ---- */

typedef struct {
    char *s;
    size_t len, cap;
    bool oom;
} Buf;

static void buf_add(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void buf_add(Buf *b, const char *fmt, ...)
{
    if (b->oom) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = true;
        return;
    }
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (b->len + (size_t)n + 1 > cap) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = true;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static void buf_json_string(Buf *b, const char *s)
{
    size_t n = jsonstr_escape(NULL, 0, s);
    char *e = malloc(n + 1);
    if (!e) {
        b->oom = true;
        return;
    }
    jsonstr_escape(e, n + 1, s);
    buf_add(b, "%s", e);
    free(e);
}

static void buf_knob_value(Buf *b, const GpuConfig *c, const Knob *k)
{
    double v = knob_get(c, k);
    switch (k->type) {
    case KNOB_U32: buf_add(b, "%u", (uint32_t)v); break;
    case KNOB_F64: {
        char s[40];
        if (!isfinite(v)) {
            buf_add(b, "null");
            break;
        }
        num_str(v, s);
        buf_add(b, "%s", s);
        break;
    }
    case KNOB_POLICY: buf_add(b, "\"%s\"", config_policy_name((SchedPolicy)(int)v)); break;
    }
}

char *config_to_json(const GpuConfig *c)
{
    Buf b = {0};
    bool printed[KNOB_COUNT] = {false};
    buf_add(&b, "{\n  \"name\": ");
    buf_json_string(&b, c->name);
    buf_add(&b, ",\n  \"description\": ");
    buf_json_string(&b, c->description);
    /* top-level knobs in place; a group is printed whole where its first knob stands */
    for (size_t i = 0; i < KNOB_COUNT; i++) {
        if (printed[i]) continue;
        const char *key = KNOBS[i].key;
        size_t glen = first_component(key);
        if (key[glen] == '\0') {
            buf_add(&b, ",\n  \"%s\": ", key);
            buf_knob_value(&b, c, &KNOBS[i]);
            printed[i] = true;
            continue;
        }
        buf_add(&b, ",\n  \"%.*s\": {", (int)glen, key);
        bool first = true;
        for (size_t j = i; j < KNOB_COUNT; j++) {
            if (strncmp(KNOBS[j].key, key, glen + 1) != 0) continue;
            buf_add(&b, "%s\n    \"%s\": ", first ? "" : ",", KNOBS[j].key + glen + 1);
            buf_knob_value(&b, c, &KNOBS[j]);
            printed[j] = true;
            first = false;
        }
        buf_add(&b, "\n  }");
    }
    buf_add(&b, "\n}\n");
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

void config_print_knobs(FILE *out)
{
    fprintf(out, "%-32s %-7s %-24s %s\n", "key", "type", "range", "meaning");
    for (size_t i = 0; i < KNOB_COUNT; i++) {
        char rs[96];
        range_str(&KNOBS[i], rs);
        fprintf(out, "%-32s %-7s %-24s %s\n", KNOBS[i].key, knob_type_name(KNOBS[i].type), rs,
                KNOBS[i].help);
    }
}

size_t config_preset_count(void)
{
    return config_embedded_count;
}

const char *config_preset_name(size_t i)
{
    return i < config_embedded_count ? config_embedded_names[i] : NULL;
}

const char *config_policy_name(SchedPolicy p)
{
    size_t i = (size_t)p;
    return i < sizeof POLICY_NAMES / sizeof POLICY_NAMES[0] ? POLICY_NAMES[i] : "?";
}

double config_dram_bytes_per_cycle(const GpuConfig *c)
{
    if (!(c->clock_mhz > 0)) return 0.0;
    return c->dram_bandwidth_gbs * 1e9 / (c->clock_mhz * 1e6);
}

/* ---- the knob walk (config_knob_*): the knobs in config.def order, for
** tools that go through them all (`gpusim gpus --diff`, sweeps). A value's
** text is what --set and a machine file take back: u32 in decimal, f64 as
** the shortest text that reads back, the policy by name. */

size_t config_knob_count(void) { return KNOB_COUNT; }
const char *config_knob_key(size_t i) { return i < KNOB_COUNT ? KNOBS[i].key : NULL; }
bool config_knob_is_number(size_t i) { return i < KNOB_COUNT && KNOBS[i].type != KNOB_POLICY; }

int config_knob_find(const char *key)
{
    for (size_t i = 0; key && i < KNOB_COUNT; i++)
        if (strcmp(KNOBS[i].key, key) == 0) return (int)i;
    return -1;
}

void config_knob_text(const GpuConfig *c, size_t i, char *buf, size_t cap)
{
    if (!cap) return;
    buf[0] = '\0';
    if (i >= KNOB_COUNT) return;
    const char *p = (const char *)c + KNOBS[i].offset;
    switch (KNOBS[i].type) {
    case KNOB_U32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%u", v);
        break;
    }
    case KNOB_F64: {
        double v;
        memcpy(&v, p, sizeof v);
        if (!isfinite(v)) snprintf(buf, cap, "null");
        else if (v == floor(v) && fabs(v) < 1e15) snprintf(buf, cap, "%.0f", v);
        else
            for (int prec = 1; prec <= 17; prec++) {
                snprintf(buf, cap, "%.*g", prec, v);
                if (strtod(buf, NULL) == v) break;
            }
        break;
    }
    case KNOB_POLICY: {
        SchedPolicy v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%s", config_policy_name(v));
        break;
    }
    }
}

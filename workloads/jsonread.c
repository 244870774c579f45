/* workloads/jsonread.c -- JSON text to a cJSON tree, and errors about its
** values placed at their path and line:col (see jsonread.h). */
#include "workloads/jsonread.h"

#include "base/jsonparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ parsing */

cJSON *jsonread_parse(JsonReader *r, const char *text, size_t len, const char *file, Diag *d)
{
    memset(r, 0, sizeof *r);
    r->text = text;
    r->len = len;
    r->file = file;
    r->d = d;
    return jsonparse_text(text, len, file, d);
}

/* ================================================================ errors */

bool jsonread_failv(JsonReader *r, JsonReadWhere where, size_t k, const char *fmt, va_list ap)
{
    if (r->failed) return false;
    r->failed = true;
    char path[1024], msg[DIAG_MESSAGE_MAX - 1024];
    jsonpos_format(&r->at, path, sizeof path);
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t off = 0;
    uint32_t line = 1, col = 1;
    if (jsonpos_locate(r->text, r->len, &r->at, where == JSONREAD_KEY, &off)) {
        if (where == JSONREAD_STRING && off < r->len && r->text[off] == '"')
            off = jsonpos_string_offset(r->text, r->len, off, k);
        jsonpos_line_col(r->text, r->len, off, &line, &col);
    }
    if (path[0])
        diag_set(r->d, r->file, line, col, "%s: %s", path, msg);
    else
        diag_set(r->d, r->file, line, col, "%s", msg);
    return false;
}

bool jsonread_fail(JsonReader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jsonread_failv(r, JSONREAD_VALUE, 0, fmt, ap);
    va_end(ap);
    return false;
}

bool jsonread_fail_key(JsonReader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jsonread_failv(r, JSONREAD_KEY, 0, fmt, ap);
    va_end(ap);
    return false;
}

bool jsonread_fail_in(JsonReader *r, size_t k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jsonread_failv(r, JSONREAD_STRING, k, fmt, ap);
    va_end(ap);
    return false;
}

/* ================================================================ values */

const char *jsonread_type(const cJSON *it)
{
    if (cJSON_IsString(it)) return "a string";
    if (cJSON_IsNumber(it)) return "a number";
    if (cJSON_IsObject(it)) return "an object";
    if (cJSON_IsArray(it)) return "an array";
    if (cJSON_IsBool(it)) return "a boolean";
    if (cJSON_IsNull(it)) return "null";
    return "an invalid value";
}

const cJSON *jsonread_member(const cJSON *obj, const char *key, uint32_t *index)
{
    uint32_t i = 0;
    if (index) *index = UINT32_MAX;
    for (const cJSON *it = obj->child; it; it = it->next, i++)
        if (it->string && strcmp(it->string, key) == 0) {
            if (index) *index = i;
            return it;
        }
    return NULL;
}

bool jsonread_check_keys(JsonReader *r, const cJSON *obj, const char *const *allowed, const char *const *required)
{
    /* Every key passed is a distinct one of allowed[], so the loop stops
    ** within |allowed| + 1 keys: the lookups of earlier keys stay cheap
    ** however large obj is. */
    uint32_t i = 0;
    for (const cJSON *it = obj->child; it; it = it->next, i++) {
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++) ok = strcmp(*a, it->string) == 0;
        jsonpos_push(&r->at, it->string, i);
        if (!ok) {
            char list[512];
            size_t len = 0;
            list[0] = '\0';
            for (const char *const *a = allowed; *a && len < sizeof list; a++)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", a == allowed ? "" : ", ", *a);
            return jsonread_fail_key(r, "unknown key '%s' (expected one of: %s)", it->string, list);
        }
        uint32_t first;
        jsonread_member(obj, it->string, &first);
        if (first != i) return jsonread_fail_key(r, "duplicate key '%s'", it->string);
        jsonpos_pop(&r->at);
    }
    for (const char *const *q = required; q && *q; q++)
        if (!jsonread_member(obj, *q, NULL)) return jsonread_fail(r, "missing key '%s'", *q);
    return true;
}

bool jsonread_integer(const cJSON *it, int64_t *out)
{
    double v = it->valuedouble;
    /* at 2^53 and above a double no longer holds every integer: the literal
    ** may have been rounded on the way in, so it is refused, not guessed */
    if (!isfinite(v) || v != floor(v) || fabs(v) >= 9007199254740992.0) return false;
    *out = (int64_t)v;
    return true;
}

char *jsonread_sibling_path(const JsonReader *r, const char *rel)
{
    const char *slash = strrchr(r->file, '/');
    size_t dirlen = rel[0] == '/' || !slash ? 0 : (size_t)(slash - r->file + 1);
    size_t need = dirlen + strlen(rel) + 1;
    char *full = malloc(need);
    if (!full) return NULL;
    memcpy(full, r->file, dirlen);
    memcpy(full + dirlen, rel, strlen(rel) + 1);
    return full;
}

/* workloads/jsonread.c -- JSON text to a cJSON tree, and errors about its
** values placed at their path and line:col (see jsonread.h). */
#include "workloads/jsonread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ parsing */

/* A syntax error cJSON stopped at byte off: an unterminated string is
** reported where it opens (cJSON's own position is then the end of file). */
static void syntax_error(const char *text, size_t len, const char *file, size_t off, Diag *d)
{
    uint32_t line, col;
    size_t open = jsonpos_open_string(text, len);
    if (open < len && open <= off) {
        jsonpos_line_col(text, len, open, &line, &col);
        diag_set(d, file, line, col, "invalid JSON: unterminated string");
        return;
    }
    jsonpos_line_col(text, len, off, &line, &col);
    if (off >= len) {
        diag_set(d, file, line, col, "invalid JSON: unexpected end of file");
    } else {
        unsigned char ch = (unsigned char)text[off];
        if (ch >= 0x20 && ch < 0x7f)
            diag_set(d, file, line, col, "invalid JSON: unexpected '%c'", ch);
        else
            diag_set(d, file, line, col, "invalid JSON: unexpected byte 0x%02x", ch);
    }
}

cJSON *jsonread_parse(JsonReader *r, const char *text, size_t len, const char *file, Diag *d)
{
    memset(r, 0, sizeof *r);
    r->text = text;
    r->len = len;
    r->file = file;
    r->d = d;
    /* cJSON would stop at a NUL as if the text ended there */
    const char *nul = memchr(text, '\0', len);
    size_t nul_at = nul ? (size_t)(nul - text) : len;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!root || nul) {
        size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : len;
        cJSON_Delete(root);
        if (off < nul_at && jsonpos_depth_at(text, len, off) >= JSONPOS_NESTING_LIMIT) {
            uint32_t line, col;
            jsonpos_line_col(text, len, off, &line, &col);
            diag_set(d, file, line, col, "JSON nested too deeply (limit %d levels)", JSONPOS_NESTING_LIMIT);
            return NULL;
        }
        syntax_error(text, len, file, off < nul_at ? off : nul_at, d);
        return NULL;
    }
    size_t bad = jsonpos_find_bad_utf8(text, len);
    if (bad < len) {
        cJSON_Delete(root);
        uint32_t line, col;
        jsonpos_line_col(text, len, bad, &line, &col);
        diag_set(d, file, line, col, "byte 0x%02x is not UTF-8 text (JSON files are UTF-8)", (unsigned char)text[bad]);
        return NULL;
    }
    size_t nul_escape = jsonpos_find_nul_escape(text, len);
    if (nul_escape < len) {
        cJSON_Delete(root);
        uint32_t line, col;
        jsonpos_line_col(text, len, nul_escape, &line, &col);
        diag_set(d, file, line, col, "\\u0000 (a NUL character) inside a string: it would cut the string short");
        return NULL;
    }
    /* anything but whitespace after the value */
    size_t tail = end ? (size_t)(end - text) : len;
    while (tail < len && strchr(" \t\r\n", text[tail])) tail++;
    if (tail < len) {
        cJSON_Delete(root);
        uint32_t line, col;
        jsonpos_line_col(text, len, tail, &line, &col);
        diag_set(d, file, line, col, "invalid JSON: text after the end of the top-level value");
        return NULL;
    }
    return root;
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

/* workloads/jsonread.h -- reading a JSON text with errors that point into
** it: the text parsed by cJSON (syntax errors at their line:col), then the
** first error about a value recorded at the value's JSON path
** ("variants[2].grid: ...") and at its line:col, found by walking the text
** along that path (base/jsonpos.h; cJSON keeps no positions). Also the
** checks every object of the workload format gets: allowed, required and
** duplicate keys. The wording is the workload loader's; machine files
** (sim/config.c) word their own.
** A JsonReader is embedded by its user; it borrows the text, the file name
** and the Diag, and owns nothing.                                        */
#ifndef GPUSIM_WORKLOADS_JSONREAD_H
#define GPUSIM_WORKLOADS_JSONREAD_H

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/jsonpos.h"

typedef struct {
    const char *text;   /* the source, len bytes                                */
    size_t      len;
    const char *file;   /* names the source in diagnostics                      */
    Diag       *d;      /* where the first error goes                           */
    JsonPath    at;     /* the value being read (jsonpos_push / jsonpos_pop)    */
    bool        failed; /* an error is recorded: later ones are dropped          */
} JsonReader;

/* Where an error about the value at r->at points. */
typedef enum {
    JSONREAD_VALUE,  /* the value                                             */
    JSONREAD_KEY,    /* its key (the last step must be an object member)      */
    JSONREAD_STRING  /* byte k of its decoded string value (an expression)    */
} JsonReadWhere;

/* Parses text[0..len) (need not be NUL-terminated; a NUL inside is an
** error) and sets r up to read it. Returns the root value, which the caller
** frees with cJSON_Delete, or NULL with d set to "invalid JSON: ..." at the
** line:col of the problem: an unterminated string where it opens, anything
** after the top-level value where that starts. */
cJSON *jsonread_parse(JsonReader *r, const char *text, size_t len, const char *file, Diag *d);

/* Records "path: message" at the value at r->at (see JsonReadWhere) unless
** an error is already recorded. Always returns false, so that a reader can
** `return jsonread_fail(...)`. */
bool jsonread_failv(JsonReader *r, JsonReadWhere where, size_t k, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
bool jsonread_fail(JsonReader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool jsonread_fail_key(JsonReader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool jsonread_fail_in(JsonReader *r, size_t k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "a string", "a number", "an object", ... for "found %s" messages. */
const char *jsonread_type(const cJSON *it);

/* Member `key` of obj (case-sensitive, the first of that name) and its
** member number (UINT32_MAX when absent), or NULL. Linear in obj's size. */
const cJSON *jsonread_member(const cJSON *obj, const char *key, uint32_t *index);

/* Object obj, at r->at: rejects a key outside allowed[] or one seen before
** (at that key, in member order), then requires each of required[] (may be
** NULL). allowed[] and required[] end with NULL. */
bool jsonread_check_keys(JsonReader *r, const cJSON *obj, const char *const *allowed, const char *const *required);

/* A file that the JSON text names, rel, found relative to the directory of
** r->file unless rel is absolute: a malloc'd path, or NULL when out of
** memory. */
char *jsonread_sibling_path(const JsonReader *r, const char *rel);

/* A JSON number that is an integer exactly representable in a double
** (|v| <= 2^53); false otherwise. */
bool jsonread_integer(const cJSON *it, int64_t *out);

#endif

/* base/jsonpos.h -- where a value sits in JSON text. cJSON keeps no source
** positions, so an error about a value that cJSON accepted is located by
** walking the text along the value's path (member numbers, not keys, so
** duplicate and escaped keys are found too).
** One column rule for every JSON file gpusim reads: 1-based columns count
** characters, not bytes (UTF-8 continuation bytes do not count), as editors
** do. Pure functions over a byte range; no allocation.                   */
#ifndef GPUSIM_BASE_JSONPOS_H
#define GPUSIM_BASE_JSONPOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSONPOS_MAX_DEPTH 16

/* Member number `index` of an object (key: its name, for printing) or, with
** key NULL, element `index` of an array. */
typedef struct {
    const char *key;
    uint32_t    index;
} JsonStep;

/* A path from the top-level value; n may exceed JSONPOS_MAX_DEPTH while a
** caller descends (the steps past the limit are not kept). */
typedef struct {
    JsonStep step[JSONPOS_MAX_DEPTH];
    int      n;
} JsonPath;

/* Appends a step (kept only within JSONPOS_MAX_DEPTH; n counts them all). */
void jsonpos_push(JsonPath *p, const char *key, uint32_t index);
static inline void jsonpos_pop(JsonPath *p) { p->n--; }

/* "variants[2].grid" into buf (truncated to cap). */
void jsonpos_format(const JsonPath *p, char *buf, size_t cap);

/* Byte offset in text[0..len) of the value at p, or of its key when want_key
** and the last step is an object member. False when the text does not have
** that shape (it must be JSON that a parser accepted). A leading UTF-8
** byte-order mark is skipped. Cost: linear in the bytes before the value. */
bool jsonpos_locate(const char *text, size_t len, const JsonPath *p, bool want_key, size_t *off);

/* Offset in the source of byte k of the decoded string whose opening quote
** is at off (an escape counts as one byte). */
size_t jsonpos_string_offset(const char *text, size_t len, size_t off, size_t k);

/* 1-based line and column of byte offset off (the column rule above). */
void jsonpos_line_col(const char *text, size_t len, size_t off, uint32_t *line, uint32_t *col);

/* Nesting depth of objects and arrays at byte off (strings skipped): a
** parser that stops at its nesting limit reports the bracket it refused as
** unexpected, so a syntax error there is told apart as "nested too deeply". */
unsigned jsonpos_depth_at(const char *text, size_t len, size_t off);

/* The nesting limit of the JSON parser gpusim uses (cJSON). */
#define JSONPOS_NESTING_LIMIT 1000

/* Offset of the first byte of text[0..len) that is not part of well-formed
** UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF),
** or len. JSON text is UTF-8 (RFC 8259); a name with a stray byte would make
** the JSON that gpusim writes invalid, so the front ends refuse it. */
size_t jsonpos_find_bad_utf8(const char *text, size_t len);

/* Offset of the first \u0000 escape inside a string of text[0..len), or len
** when there is none: a parser decodes it to a NUL, which would silently end
** the name or path it is part of, so the front ends refuse it. */
size_t jsonpos_find_nul_escape(const char *text, size_t len);

/* Where an unterminated string opens, or len when every string closes (for
** syntax errors: the parser's own position is then at the end of file). */
size_t jsonpos_open_string(const char *text, size_t len);

#endif

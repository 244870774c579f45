/* base/diag.h -- errors as values.
** Library code never prints or exits on bad input: it fills a Diag and returns
** false. The CLI prints "file:line:col: error: message" and exits 2.
** line/col are 1-based; 0 means "not applicable" and is omitted when printed. */
#ifndef GPUSIM_BASE_DIAG_H
#define GPUSIM_BASE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Sized for any path the system can open (PATH_MAX is 4096 on Linux) and a
** message that quotes one or two of them, so no diagnostic cuts a path. */
#define DIAG_FILE_MAX    4096
#define DIAG_MESSAGE_MAX 8192

typedef struct {
    char     file[DIAG_FILE_MAX];       /* source of the error: a path, or "--set", "--param" */
    uint32_t line, col;                 /* 1-based; 0 = unknown                               */
    char     message[DIAG_MESSAGE_MAX]; /* what was found and what was expected              */
} Diag;

/* Fills d (if non-NULL) with a formatted message; file may be NULL. */
void diag_set(Diag *d, const char *file, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The same with a va_list, for modules' own "fail here" wrappers. */
void diag_setv(Diag *d, const char *file, uint32_t line, uint32_t col, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

/* Prints "file:line:col: error: message\n" (missing parts left out). */
void diag_print(FILE *out, const Diag *d);

/* The same line without its newline into buf (cap bytes, always
** terminated), for messages that are kept rather than printed at once. */
void diag_format(const Diag *d, char *buf, size_t cap);

/* Levenshtein distance between a and b, for "did you mean" hints, when it is
** at most `max`; anything farther (strings of 64 characters or more
** included) returns max + 1. Bounded by max, it looks only at a band of
** 2 * max + 1 cells per row and stops as soon as a row is past max, so a
** hint over every name of a long list stays cheap. */
size_t diag_edit_distance(const char *a, const char *b, size_t max);

/* Names for a message's list ("a, b, c"): appends item to buf (cap bytes,
** always terminated), after ", " unless it is the first (len == 0); len is
** what buf holds and the new length is returned (once the list no longer
** fits, cap: further items are dropped). Start with len 0. */
size_t diag_join(char *buf, size_t cap, size_t len, const char *item);

/* "Did you mean": the closest of the names offered to a word the user
** wrote. Start with diag_near_start(word, max_edits, proportional), offer
** every candidate (diag_near_offer), then read .best: the first of the
** closest within max_edits (and, when proportional, within one edit per
** three characters of word, so that a short word is not "corrected" into
** another), or NULL when none is. */
typedef struct {
    const char *word;
    const char *best;
    size_t      dist;         /* best's distance; max_edits + 1 while none */
    bool        proportional;
} DiagNear;

static inline DiagNear diag_near_start(const char *word, size_t max_edits, bool proportional)
{
    DiagNear n = { word, NULL, max_edits + 1, proportional };
    return n;
}

void diag_near_offer(DiagNear *n, const char *candidate);

#endif

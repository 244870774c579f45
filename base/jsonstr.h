/* base/jsonstr.h -- a C string written as a JSON string, the one escaper of
** every JSON gpusim writes (reports, machine files, sweep lines, traces),
** and the reports' one number format:
** quote and backslash escaped, control characters as \n \r \t or \u00XX,
** every other byte as it is (names are UTF-8, and the readers check that). */
#ifndef GPUSIM_BASE_JSONSTR_H
#define GPUSIM_BASE_JSONSTR_H

#include <stddef.h>
#include <stdio.h>

/* Writes s quoted and escaped into out (cap bytes, NUL-terminated when cap
** > 0, cut short when it does not fit); returns the length the whole
** string needs, quotes included, NUL not (as snprintf does). */
size_t jsonstr_escape(char *out, size_t cap, const char *s);

/* The same, onto a stream. */
void jsonstr_write(FILE *out, const char *s);

/* A number as every report writes one: 6 significant digits, null when it
** is not finite (JSON has no NaN or infinity). */
void jsonstr_number(FILE *out, double v);

#endif

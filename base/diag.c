/* base/diag.c -- formatting of error values (see diag.h). */
#include "base/diag.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

void diag_setv(Diag *d, const char *file, uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
    if (!d) return;
    /* the message first: fmt's arguments may point into *d (a re-located error) */
    char msg[sizeof d->message];
    vsnprintf(msg, sizeof msg, fmt, ap);
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
    d->line = line;
    d->col = col;
    memcpy(d->message, msg, sizeof msg);
}

void diag_set(Diag *d, const char *file, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_setv(d, file, line, col, fmt, ap);
    va_end(ap);
}

void diag_print(FILE *out, const Diag *d)
{
    if (d->file[0]) {
        fputs(d->file, out);
        if (d->line) {
            fprintf(out, ":%u", d->line);
            if (d->col) fprintf(out, ":%u", d->col);
        }
        fputs(": ", out);
    }
    fprintf(out, "error: %s\n", d->message);
}

size_t diag_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la >= 64 || lb >= 64) return SIZE_MAX;
    size_t row[64]; /* one row of the table, updated in place */
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

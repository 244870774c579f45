/* isa/diag.c -- formatting of error values (see diag.h). */
#include "isa/diag.h"

#include <stdarg.h>
#include <string.h>

void diag_set(Diag *d, const char *file, uint32_t line, uint32_t col, const char *fmt, ...)
{
    if (!d) return;
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
    d->line = line;
    d->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
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

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

void diag_format(const Diag *d, char *buf, size_t cap)
{
    if (!cap) return;
    if (!d->file[0]) snprintf(buf, cap, "error: %s", d->message);
    else if (!d->line) snprintf(buf, cap, "%s: error: %s", d->file, d->message);
    else if (!d->col) snprintf(buf, cap, "%s:%u: error: %s", d->file, d->line, d->message);
    else snprintf(buf, cap, "%s:%u:%u: error: %s", d->file, d->line, d->col, d->message);
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

size_t diag_edit_distance(const char *a, const char *b, size_t max)
{
    size_t la = strlen(a), lb = strlen(b), far = max + 1;
    if (la >= 64 || lb >= 64 || (la > lb ? la - lb : lb - la) > max) return far;
    size_t row[64]; /* one row of the table, updated in place; cells outside the band hold far */
    for (size_t j = 0; j <= lb; j++) row[j] = j <= max ? j : far;
    for (size_t i = 1; i <= la; i++) {
        size_t lo = i > max ? i - max : 1, hi = i + max < lb ? i + max : lb;
        size_t diag = row[lo - 1];
        row[lo - 1] = lo == 1 ? (i <= max ? i : far) : far;
        size_t best_in_row = row[lo - 1];
        for (size_t j = lo; j <= hi; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            if (best > far) best = far;
            row[j] = best;
            diag = up;
            if (best < best_in_row) best_in_row = best;
        }
        if (hi < lb) row[hi + 1] = far;
        if (best_in_row > max) return far;
    }
    return row[lb] <= max ? row[lb] : far;
}

void diag_near_offer(DiagNear *n, const char *candidate)
{
    size_t d = diag_edit_distance(n->word, candidate, n->dist - 1);
    if (d < n->dist && (!n->proportional || d * 3 <= strlen(n->word))) {
        n->dist = d;
        n->best = candidate;
    }
}

size_t diag_join(char *buf, size_t cap, size_t len, const char *item)
{
    if (!cap) return 0;
    if (len == 0) buf[0] = '\0';
    if (len >= cap) return cap;
    int n = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", item);
    return n < 0 || (size_t)n >= cap - len ? cap : len + (size_t)n;
}

/* base/jsonstr.c -- see jsonstr.h. */
#include "base/jsonstr.h"

#include <math.h>

/* The escape of byte c into e (at most 7 bytes with its NUL); 0 when c
** stands for itself. */
static size_t escape_of(unsigned char c, char e[7])
{
    switch (c) {
    case '"': return (size_t)snprintf(e, 7, "\\\"");
    case '\\': return (size_t)snprintf(e, 7, "\\\\");
    case '\n': return (size_t)snprintf(e, 7, "\\n");
    case '\r': return (size_t)snprintf(e, 7, "\\r");
    case '\t': return (size_t)snprintf(e, 7, "\\t");
    default: return c < 0x20 ? (size_t)snprintf(e, 7, "\\u%04x", c) : 0;
    }
}

size_t jsonstr_escape(char *out, size_t cap, const char *s)
{
    size_t n = 0;
#define PUT(ch)                            \
    do {                                   \
        if (n + 1 < cap) out[n] = (ch);    \
        n++;                               \
    } while (0)
    PUT('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char e[7];
        size_t k = escape_of(*p, e);
        if (!k) PUT((char)*p);
        for (size_t i = 0; i < k; i++) PUT(e[i]);
    }
    PUT('"');
#undef PUT
    if (cap) out[n < cap ? n : cap - 1] = 0;
    return n;
}

void jsonstr_write(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char e[7];
        if (escape_of(*p, e)) fputs(e, out);
        else fputc(*p, out);
    }
    fputc('"', out);
}

void jsonstr_number(FILE *out, double v)
{
    if (!isfinite(v)) fputs("null", out);
    else fprintf(out, "%.6g", v);
}

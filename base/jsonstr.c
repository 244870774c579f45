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

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
** forms, no surrogates, nothing past U+10FFFF), or 0 when p's byte does not
** start one. JSON text is UTF-8, so a stray byte is written as U+FFFD. */
static size_t utf8_len(const unsigned char *p)
{
    unsigned char c = p[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF) return 0; /* a NUL ends the string here too */
    return n;
}

#define REPLACEMENT "\\ufffd"

size_t jsonstr_escape(char *out, size_t cap, const char *s)
{
    size_t n = 0;
#define PUT(ch)                            \
    do {                                   \
        if (n + 1 < cap) out[n] = (ch);    \
        n++;                               \
    } while (0)
    PUT('"');
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        char e[7];
        size_t k = escape_of(*p, e), u = k ? 1 : utf8_len(p);
        if (!u) {
            for (const char *r = REPLACEMENT; *r; r++) PUT(*r);
            p++;
            continue;
        }
        if (!k)
            for (size_t i = 0; i < u; i++) PUT((char)p[i]);
        for (size_t i = 0; i < k; i++) PUT(e[i]);
        p += u;
    }
    PUT('"');
#undef PUT
    if (cap) out[n < cap ? n : cap - 1] = 0;
    return n;
}

void jsonstr_write(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        char e[7];
        size_t u = 1;
        if (escape_of(*p, e)) fputs(e, out);
        else if (!(u = utf8_len(p))) fputs(REPLACEMENT, out), u = 1;
        else fwrite(p, 1, u, out);
        p += u;
    }
    fputc('"', out);
}

void jsonstr_number(FILE *out, double v)
{
    if (!isfinite(v)) fputs("null", out);
    else fprintf(out, "%.6g", v);
}

/* isa/lex.c -- the front ends' text cursor and literals (see lex.h). */
#include "isa/lex.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t lex_col(const Lex *x, const char *at)
{
    return (uint32_t)(at - x->line_start) + 1;
}

const char *lex_quote(const char *at, const char *end, char *buf, size_t cap)
{
    size_t n = 0;
    for (const char *s = at; s < end && n + 5 < cap && s - at < 32; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == ',' && s != at) break;
        if (isspace(ch) && s != at) break;
        if (isprint(ch)) buf[n++] = (char)ch;
        else n += (size_t)snprintf(buf + n, cap - n, "\\x%02x", ch);
    }
    if (n == 0) {
        snprintf(buf, cap, "end of line");
        return buf;
    }
    buf[n] = 0;
    return buf;
}

bool lex_fail(Lex *x, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_setv(x->d, x->file, x->line, lex_col(x, at), fmt, ap);
    va_end(ap);
    return false;
}


void lex_skip_space(Lex *x)
{
    while (x->p < x->end && (*x->p == ' ' || *x->p == '\t')) x->p++;
}

bool lex_at_end(Lex *x)
{
    lex_skip_space(x);
    return x->p >= x->end;
}

bool lex_ident(Lex *x, char *buf, size_t cap, const char *what)
{
    lex_skip_space(x);
    const char *s = x->p;
    char q[64];
    if (s >= x->end || !lex_ident_start(*s))
        return lex_fail(x, s, "expected %s, found '%s'", what, lex_quote(s, x->end, q, sizeof q));
    while (x->p < x->end && lex_ident_char(*x->p)) x->p++;
    size_t n = (size_t)(x->p - s);
    if (n >= cap) return lex_fail(x, s, "name too long (%zu characters, at most %zu)", n, cap - 1);
    memcpy(buf, s, n);
    buf[n] = 0;
    return true;
}

bool lex_expect(Lex *x, char c, const char *context)
{
    lex_skip_space(x);
    char q[64];
    if (x->p >= x->end || *x->p != c)
        return lex_fail(x, x->p, "expected '%c' %s, found '%s'", c, context,
                       lex_quote(x->p, x->end, q, sizeof q));
    x->p++;
    return true;
}

bool lex_accept(Lex *x, char c)
{
    lex_skip_space(x);
    if (x->p < x->end && *x->p == c) {
        x->p++;
        return true;
    }
    return false;
}


bool lex_int32(Lex *x, int64_t *out)
{
    lex_skip_space(x);
    const char *s = x->p;
    char buf[48], q[64];
    size_t n = 0;
    while (x->p < x->end && (isalnum((unsigned char)*x->p) || *x->p == '-' || *x->p == '+') && n < sizeof buf - 1) {
        if ((*x->p == '-' || *x->p == '+') && n > 0) break;
        buf[n++] = *x->p++;
    }
    buf[n] = 0;
    if (n == 0 || n >= sizeof buf - 1)
        return lex_fail(x, s, "expected an integer, found '%s'", lex_quote(s, x->end, q, sizeof q));
    char *endp;
    errno = 0;
    long long v = strtoll(buf, &endp, 0);
    if (*endp || errno)
        return lex_fail(x, s, "expected an integer, found '%s'", lex_quote(s, x->end, q, sizeof q));
    if (v < INT32_MIN || v > (long long)UINT32_MAX)
        return lex_fail(x, s, "integer %s does not fit in 32 bits", buf);
    *out = v;
    return true;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

bool lex_number32(Lex *x, bool is_float, uint32_t *out)
{
    lex_skip_space(x);
    const char *s = x->p;
    char buf[64], q[64];
    size_t n = 0;
    while (x->p < x->end && n < sizeof buf - 1) {
        char c = *x->p;
        bool exp_sign = (c == '-' || c == '+') && n > 0 && (buf[n - 1] == 'e' || buf[n - 1] == 'E') &&
                        !(n > 1 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'));
        if (!(isalnum((unsigned char)c) || c == '.' || ((c == '-' || c == '+') && n == 0) || exp_sign)) break;
        buf[n++] = c;
        x->p++;
    }
    buf[n] = 0;
    if (n == 0 || n == sizeof buf - 1)
        return lex_fail(x, s, "expected a number, found '%s'", lex_quote(s, x->end, q, sizeof q));
    const char *digits = buf + (buf[0] == '-' || buf[0] == '+');
    bool raw_bits = (digits[0] == '0' && (digits[1] == 'f' || digits[1] == 'F') && digits == buf);
    bool looks_float = !raw_bits && !(digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) &&
                       (strpbrk(digits, ".eE") != NULL || strcmp(digits, "inf") == 0 || strcmp(digits, "nan") == 0);
    if (raw_bits) {
        if (!is_float) return lex_fail(x, s, "float literal '%s' given to an integer instruction", buf);
        if (strlen(buf) != 10) return lex_fail(x, s, "raw float '%s' needs exactly 8 hex digits after 0f", buf);
        char *endp;
        unsigned long v = strtoul(buf + 2, &endp, 16);
        if (*endp) return lex_fail(x, s, "raw float '%s' needs exactly 8 hex digits after 0f", buf);
        *out = (uint32_t)v;
        return true;
    }
    if (looks_float) {
        if (!is_float) return lex_fail(x, s, "float literal '%s' given to an integer instruction; expected an integer", buf);
        char *endp;
        float f = strtof(buf, &endp);
        if (*endp) return lex_fail(x, s, "expected a number, found '%s'", buf);
        /* a finite literal too large for f32 would silently become inf */
        if (isinf(f) && !strchr(digits, 'i') && !strchr(digits, 'I'))
            return lex_fail(x, s, "float literal '%s' is beyond the f32 range (largest finite 3.4028235e38); "
                                 "write inf or 0f7F800000 for infinity", buf);
        *out = f32_bits(f);
        return true;
    }
    char *endp;
    errno = 0;
    long long v = strtoll(buf, &endp, 0);
    if (*endp || errno)
        return lex_fail(x, s, "expected a number, found '%s'", lex_quote(s, x->end, q, sizeof q));
    if (v < INT32_MIN || v > (long long)UINT32_MAX)
        return lex_fail(x, s, "integer %s does not fit in 32 bits", buf);
    *out = is_float ? f32_bits((float)v) : (uint32_t)v;
    return true;
}

/* isa/ptx_lex.c -- the PTX front end's tokens and errors (see ptx_int.h):
** a line at a time through isa/lex.h's cursor, words, numbers and
** punctuation, the checked integer reader, and the diagnostic every error
** of the front end goes through. The grammar is isa/ptx.c's. */
#include "isa/ptx_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- errors */

bool ptx_fail(Ptx *P, const Tok *t, const char *fmt, ...)
{
    if (P->failed) return false;
    va_list ap;
    va_start(ap, fmt);
    diag_setv(P->d, P->file, t->line, t->col, fmt, ap);
    va_end(ap);
    P->failed = true;
    /* an instruction of nvcc's output: the error is at the CUDA line it came
    ** from (for code inlined from a header, the user's line it was inlined
    ** at), the PTX position after the message */
    const Program *pr = P->prog;
    if (P->in_instr && P->loc_line && pr && P->loc_file && P->loc_file <= pr->nsrc_files && pr->src_files[P->loc_file - 1]) {
        const char *src = pr->src_files[P->loc_file - 1];
        bool inlined = P->loc_inl_line && P->loc_inl_file && P->loc_inl_file <= pr->nsrc_files &&
                       pr->src_files[P->loc_inl_file - 1];
        char where[DIAG_FILE_MAX + 400];
        if (inlined)
            snprintf(where, sizeof where, " (in %s:%u, inlined here; PTX %s:%u:%u)", src, P->loc_line, P->file, t->line,
                     t->col);
        else
            snprintf(where, sizeof where, " (PTX %s:%u:%u)", P->file, t->line, t->col);
        size_t n = strlen(P->d->message);
        snprintf(P->d->message + n, sizeof P->d->message - n, "%s", where);
        snprintf(P->d->file, sizeof P->d->file, "%s", inlined ? pr->src_files[P->loc_inl_file - 1] : src);
        P->d->line = inlined ? P->loc_inl_line : P->loc_line;
        P->d->col = 0;
    }
    return false;
}

const char *ptx_quote(const Tok *t, char *buf, size_t cap)
{
    if (t->kind == TK_EOF) {
        snprintf(buf, cap, "end of file");
        return buf;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < t->len && i < 48 && n + 5 < cap; i++) {
        unsigned char c = (unsigned char)t->s[i];
        if (isprint(c)) buf[n++] = (char)c;
        else n += (size_t)snprintf(buf + n, cap - n, "\\x%02x", c);
    }
    buf[n] = 0;
    return buf;
}

/* ---------------------------------------------------------------- tokens */

/* Moves the cursor to the next line; false at the end of the input. */
static bool next_line(Ptx *P)
{
    const char *p = P->lx.end < P->end ? P->lx.end + 1 : P->end; /* past the '\n' */
    if (p >= P->end || P->lx.end >= P->end) return false;
    const char *nl = memchr(p, '\n', (size_t)(P->end - p));
    P->lx.line_start = P->lx.p = p;
    P->lx.end = nl ? nl : P->end;
    P->lx.line++;
    return true;
}

static bool word_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.'; }

/* Reads the next token into P->tok (TK_EOF at the end). */
void ptx_next(Ptx *P)
{
    Tok *t = &P->tok;
    for (;;) {
        if (P->in_comment) { /* inside a block comment */
            const char *e = NULL;
            for (const char *c = P->lx.p; c + 1 < P->lx.end; c++)
                if (c[0] == '*' && c[1] == '/') {
                    e = c;
                    break;
                }
            if (e) {
                P->lx.p = e + 2;
                P->in_comment = false;
            } else if (!next_line(P)) {
                *t = (Tok){ TK_EOF, P->end, 0, P->lx.line, lex_col(&P->lx, P->lx.end) };
                return;
            } else {
                continue;
            }
        }
        while (P->lx.p < P->lx.end && (*P->lx.p == ' ' || *P->lx.p == '\t' || *P->lx.p == '\r')) P->lx.p++;
        if (P->lx.p >= P->lx.end) {
            if (!next_line(P)) {
                *t = (Tok){ TK_EOF, P->end, 0, P->lx.line, lex_col(&P->lx, P->lx.end) };
                return;
            }
            continue;
        }
        const char *s = P->lx.p;
        if (s + 1 < P->lx.end && s[0] == '/' && s[1] == '/') {
            P->lx.p = P->lx.end;
            continue;
        }
        if (s + 1 < P->lx.end && s[0] == '/' && s[1] == '*') {
            P->lx.p = s + 2;
            P->in_comment = true;
            P->comment_line = P->lx.line;
            P->comment_col = lex_col(&P->lx, s);
            continue;
        }
        t->s = s;
        t->line = P->lx.line;
        t->col = lex_col(&P->lx, s);
        const char *e = s + 1;
        char c = *s;
        if (c == '"') {
            while (e < P->lx.end && *e != '"') e++;
            if (e < P->lx.end) e++;
            t->kind = TK_STR;
        } else if (isdigit((unsigned char)c)) {
            while (e < P->lx.end && (isalnum((unsigned char)*e) || *e == '.' ||
                                     ((*e == '-' || *e == '+') && (e[-1] == 'e' || e[-1] == 'E') &&
                                      !(s[0] == '0' && s + 1 < e && (s[1] == 'x' || s[1] == 'X' || s[1] == 'f' ||
                                                                      s[1] == 'F' || s[1] == 'd' || s[1] == 'D')))))
                e++;
            t->kind = TK_NUM;
        } else if (isalpha((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.') {
            /* words carry their dots (ld.global.f32, %tid.x) and "::" (.L2::128B) */
            /* a directive ends at its next dot: `.reg.b32 f;` (inline asm in
            ** cuda_fp16.hpp) is `.reg .b32 f;` */
            while (e < P->lx.end && !(c == '.' && *e == '.') &&
                   (word_char(*e) || (e[0] == ':' && e + 1 < P->lx.end && e[1] == ':' && e + 2 < P->lx.end && word_char(e[2])))) {
                e += *e == ':' ? 2 : 1;
            }
            t->kind = c == '.' ? TK_DIR : TK_WORD;
            if (c == '.' && e == s + 1) t->kind = TK_PUNCT;
        } else {
            t->kind = TK_PUNCT;
        }
        t->len = (uint32_t)(e - s);
        P->lx.p = e;
        return;
    }
}

bool ptx_is(const Tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->len == n && memcmp(t->s, word, n) == 0;
}

bool ptx_punct(const Tok *t, char c) { return t->kind == TK_PUNCT && t->s[0] == c; }

bool ptx_expect(Ptx *P, char c, const char *context)
{
    if (ptx_punct(&P->tok, c)) {
        ptx_next(P);
        return true;
    }
    char q[80];
    return ptx_fail(P, &P->tok, "expected '%c' %s, found '%s'", c, context, ptx_quote(&P->tok, q, sizeof q));
}

/* The token as a NUL-terminated string (cut at cap - 1 bytes). */
const char *ptx_text(const Tok *t, char *buf, size_t cap)
{
    size_t n = t->len < cap - 1 ? t->len : cap - 1;
    memcpy(buf, t->s, n);
    buf[n] = 0;
    return buf;
}

/* An integer literal (decimal, 0x hex, 0b binary, leading-0 octal, an
** optional U suffix) into 64 bits; negative when neg. */
bool ptx_int(Ptx *P, const Tok *t, bool neg, int64_t *out)
{
    char q[80];
    if (t->kind != TK_NUM) return ptx_fail(P, t, "expected an integer, found '%s'", ptx_quote(t, q, sizeof q));
    const char *s = t->s, *e = t->s + t->len;
    if (e > s && (e[-1] == 'U' || e[-1] == 'u')) e--;
    uint64_t v = 0;
    unsigned base = 10;
    if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
    else if (e - s > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s += 2;
    else if (e - s > 1 && s[0] == '0') base = 8, s += 1;
    if (s >= e) return ptx_fail(P, t, "expected an integer, found '%s'", ptx_quote(t, q, sizeof q));
    for (; s < e; s++) {
        int dgt = isdigit((unsigned char)*s) ? *s - '0' : isxdigit((unsigned char)*s) ? (tolower(*s) - 'a' + 10) : 99;
        if (dgt >= (int)base) return ptx_fail(P, t, "expected an integer, found '%s'", ptx_quote(t, q, sizeof q));
        if (v > (UINT64_MAX - (uint64_t)dgt) / base)
            return ptx_fail(P, t, "integer '%s' does not fit in 64 bits", ptx_quote(t, q, sizeof q));
        v = v * base + (uint64_t)dgt;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

/* isa/lex.h -- the text cursor the instruction-set front ends share: one
** source line at a time (a byte range, never assumed NUL-terminated),
** blanks, identifiers, punctuation and 32-bit numeric literals, with
** errors as values at file:line:col (columns count bytes from 1: kernel
** sources are ASCII, and any other byte is an error that quotes it).     */
#ifndef GPUSIM_ISA_LEX_H
#define GPUSIM_ISA_LEX_H

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

typedef struct {
    const char *file;                 /* names the source in diagnostics       */
    Diag       *d;                    /* where the first error goes (may be NULL) */
    const char *line_start, *p, *end; /* the current line; p is the cursor     */
    uint32_t    line;                 /* 1-based                                */
} Lex;

/* 1-based column of `at` on the current line. */
uint32_t lex_col(const Lex *x, const char *at);

/* At most 32 bytes of the source at `at` (up to a comma or a blank),
** non-printables escaped, for "found '...'" in messages; "end of line"
** when there is nothing. Returns buf. */
const char *lex_quote(const char *at, const char *end, char *buf, size_t cap);

/* Fills the Diag at the column of `at`; always returns false. */
bool lex_fail(Lex *x, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

void lex_skip_space(Lex *x);        /* blanks and tabs                          */
bool lex_at_end(Lex *x);            /* only blanks left on the line             */

static inline bool lex_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static inline bool lex_ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

/* An identifier [A-Za-z_][A-Za-z0-9_$]* of fewer than cap bytes into buf;
** `what` names it in the error ("a label"). */
bool lex_ident(Lex *x, char *buf, size_t cap, const char *what);

/* The character c (after blanks), or an error "expected 'c' CONTEXT". */
bool lex_expect(Lex *x, char c, const char *context);

/* Consumes c (after blanks) if it is next. */
bool lex_accept(Lex *x, char c);

/* An integer literal (decimal or 0x hex, optional sign) that fits 32 bits
** as signed or unsigned. */
bool lex_int32(Lex *x, int64_t *out);

/* A 32-bit immediate: integers, decimal floats (1.5, -2e-3, inf, nan) and
** raw float bits (0f3F800000). Floats are accepted only when is_float;
** integers given to a float operand are converted. */
bool lex_number32(Lex *x, bool is_float, uint32_t *out);

#endif

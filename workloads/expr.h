/* workloads/expr.h -- the small integer expressions of workload files
** ("ceil_div(n,32)", "4*sm_count*blocks_per_sm").
** Grammar (usual precedence, left associative):
**   expr    = term  { ("+" | "-") term }
**   term    = unary { ("*" | "/" | "%") unary }
**   unary   = ("-" | "+") unary | primary
**   primary = integer | name | name "(" expr { "," expr } ")" | "(" expr ")"
**   integer = decimal digits, or 0x followed by hex digits
** Functions: ceil_div(a,b) (a >= 0, b > 0), round_up(a,b) = ceil_div(a,b)*b,
** min(a,b,...), max(a,b,...). / and % truncate toward zero like C.
** Arithmetic is 64-bit signed and checked: overflow, division by zero and
** nesting deeper than EXPR_MAX_DEPTH are errors, never wrap-arounds.
** Variables come from a caller-supplied lookup, which may itself evaluate
** (the loader's parameters refer to each other). Pure: no global state.   */
#ifndef GPUSIM_WORKLOADS_EXPR_H
#define GPUSIM_WORKLOADS_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXPR_MAX_DEPTH 64   /* nested parentheses, unary signs and calls */
#define EXPR_MAX_LEN   1024 /* characters in one expression              */

typedef enum {
    EXPR_VAR_FOUND,   /* *value holds the variable's value                   */
    EXPR_VAR_UNKNOWN, /* no such variable: the evaluator reports it          */
    EXPR_VAR_FAILED   /* evaluating the variable failed; the lookup recorded
                         why itself, the evaluator just stops               */
} ExprVarStatus;

typedef ExprVarStatus (*ExprLookup)(void *user, const char *name, int64_t *value);

typedef struct {
    size_t pos;          /* byte offset in the text where the problem is      */
    bool   delegated;    /* a lookup returned EXPR_VAR_FAILED: see its report */
    char   message[256];
} ExprError;

/* Evaluates text (NUL-terminated). lookup may be NULL (no variables).
** Returns true with *out set, or false with *err filled. */
bool expr_eval(const char *text, ExprLookup lookup, void *user, int64_t *out, ExprError *err);

/* True when name is a function of the grammar (reserved: not a variable). */
bool expr_is_function(const char *name);

/* True when s (may be NULL) is a name as the grammar reads one: a letter or
** '_', then letters, digits and '_' (ASCII). What parameter and buffer
** names must be, so that expressions and kernel arguments can name them. */
bool expr_is_name(const char *s);

#endif

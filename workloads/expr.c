/* workloads/expr.c -- recursive-descent evaluator of workload expressions
** (grammar in expr.h). Evaluates while it parses: no tree, no allocation. */
#include "workloads/expr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t      pos;
    int         depth;
    ExprLookup  lookup;
    void       *user;
    ExprError  *err;
    bool        failed;
} Parser;

static const char *const FUNCTIONS[] = { "ceil_div", "round_up", "min", "max" };

bool expr_is_function(const char *name)
{
    for (size_t i = 0; i < sizeof FUNCTIONS / sizeof FUNCTIONS[0]; i++)
        if (strcmp(name, FUNCTIONS[i]) == 0) return true;
    return false;
}

__attribute__((format(printf, 3, 4))) static bool fail_at(Parser *p, size_t pos, const char *fmt, ...)
{
    if (p->failed) return false;
    p->failed = true;
    p->err->pos = pos;
    p->err->delegated = false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
    va_end(ap);
    return false;
}

static void skip_ws(Parser *p)
{
    while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r') p->pos++;
}

static bool is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

bool expr_is_name(const char *s)
{
    if (!s || !is_ident_start(*s)) return false;
    for (s++; *s; s++)
        if (!is_ident_char(*s)) return false;
    return true;
}

static bool parse_expr(Parser *p, int64_t *v);

static bool enter(Parser *p)
{
    if (++p->depth > EXPR_MAX_DEPTH)
        return fail_at(p, p->pos, "expression nested deeper than %d levels", EXPR_MAX_DEPTH);
    return true;
}

static bool parse_number(Parser *p, int64_t *v)
{
    size_t start = p->pos;
    uint64_t x = 0;
    int base = 10;
    if (p->s[p->pos] == '0' && (p->s[p->pos + 1] == 'x' || p->s[p->pos + 1] == 'X')) {
        base = 16;
        p->pos += 2;
        if (!isxdigit((unsigned char)p->s[p->pos])) return fail_at(p, start, "expected hex digits after '0x'");
    }
    while (base == 16 ? isxdigit((unsigned char)p->s[p->pos]) : isdigit((unsigned char)p->s[p->pos])) {
        char c = p->s[p->pos];
        unsigned d = isdigit((unsigned char)c) ? (unsigned)(c - '0') : (unsigned)(tolower((unsigned char)c) - 'a' + 10);
        if (x > ((uint64_t)INT64_MAX - d) / (uint64_t)base)
            return fail_at(p, start, "integer literal does not fit 64 bits");
        x = x * (uint64_t)base + d;
        p->pos++;
    }
    if (is_ident_char(p->s[p->pos]) || p->s[p->pos] == '.')
        return fail_at(p, p->pos, "unexpected '%c' in a number (only integers are allowed)", p->s[p->pos]);
    *v = (int64_t)x;
    return true;
}

static bool call(Parser *p, const char *name, size_t name_pos, int64_t *args, int nargs, int64_t *v)
{
    if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
        if (nargs < 2) return fail_at(p, name_pos, "%s() takes at least 2 arguments, got %d", name, nargs);
        int64_t r = args[0];
        for (int i = 1; i < nargs; i++)
            if (name[1] == 'i' ? args[i] < r : args[i] > r) r = args[i];
        *v = r;
        return true;
    }
    /* ceil_div and round_up */
    if (nargs != 2) return fail_at(p, name_pos, "%s() takes 2 arguments, got %d", name, nargs);
    int64_t a = args[0], b = args[1];
    if (b == 0) return fail_at(p, name_pos, "division by zero in %s(%lld, 0)", name, (long long)a);
    if (a < 0 || b < 0)
        return fail_at(p, name_pos, "%s(%lld, %lld): arguments must not be negative", name, (long long)a, (long long)b);
    int64_t q = a / b + (a % b != 0);
    if (strcmp(name, "round_up") == 0 && __builtin_mul_overflow(q, b, &q))
        return fail_at(p, name_pos, "integer overflow in round_up(%lld, %lld)", (long long)a, (long long)b);
    *v = q;
    return true;
}

#define EXPR_MAX_ARGS 16

static bool parse_primary(Parser *p, int64_t *v)
{
    skip_ws(p);
    char c = p->s[p->pos];
    if (isdigit((unsigned char)c)) return parse_number(p, v);
    if (c == '(') {
        size_t open = p->pos++;
        if (!enter(p) || !parse_expr(p, v)) return false;
        skip_ws(p);
        if (p->s[p->pos] != ')') return fail_at(p, p->pos, "expected ')' to close the '(' at offset %zu", open);
        p->pos++;
        p->depth--;
        return true;
    }
    if (is_ident_start(c)) {
        size_t start = p->pos;
        while (is_ident_char(p->s[p->pos])) p->pos++;
        char name[64];
        size_t len = p->pos - start;
        if (len >= sizeof name) return fail_at(p, start, "name longer than %zu characters", sizeof name - 1);
        memcpy(name, p->s + start, len);
        name[len] = '\0';
        skip_ws(p);
        if (p->s[p->pos] == '(') {
            if (!expr_is_function(name))
                return fail_at(p, start, "unknown function '%s' (functions: ceil_div, round_up, min, max)", name);
            p->pos++;
            if (!enter(p)) return false;
            int64_t args[EXPR_MAX_ARGS];
            int nargs = 0;
            skip_ws(p);
            if (p->s[p->pos] != ')') {
                for (;;) {
                    if (nargs == EXPR_MAX_ARGS) return fail_at(p, p->pos, "more than %d arguments", EXPR_MAX_ARGS);
                    if (!parse_expr(p, &args[nargs++])) return false;
                    skip_ws(p);
                    if (p->s[p->pos] == ',') {
                        p->pos++;
                        continue;
                    }
                    if (p->s[p->pos] == ')') break;
                    return fail_at(p, p->pos, "expected ',' or ')' in the arguments of %s()", name);
                }
            }
            p->pos++;
            p->depth--;
            return call(p, name, start, args, nargs, v);
        }
        if (expr_is_function(name)) return fail_at(p, start, "'%s' is a function: write %s(...)", name, name);
        ExprVarStatus st = p->lookup ? p->lookup(p->user, name, v) : EXPR_VAR_UNKNOWN;
        if (st == EXPR_VAR_FOUND) return true;
        if (st == EXPR_VAR_FAILED) {
            p->failed = true;
            p->err->pos = start;
            p->err->delegated = true;
            p->err->message[0] = '\0';
            return false;
        }
        return fail_at(p, start, "unknown variable '%s'", name);
    }
    if (c == '\0') return fail_at(p, p->pos, "expected a number, a name or '(' but the expression ends");
    if (isprint((unsigned char)c)) return fail_at(p, p->pos, "expected a number, a name or '(' but found '%c'", c);
    return fail_at(p, p->pos, "unexpected byte 0x%02x", (unsigned)(unsigned char)c);
}

static bool parse_unary(Parser *p, int64_t *v)
{
    skip_ws(p);
    char c = p->s[p->pos];
    if (c != '-' && c != '+') return parse_primary(p, v);
    size_t at = p->pos++;
    if (!enter(p) || !parse_unary(p, v)) return false;
    p->depth--;
    if (c == '-') {
        if (*v == INT64_MIN) return fail_at(p, at, "integer overflow in negation");
        *v = -*v;
    }
    return true;
}

static bool parse_term(Parser *p, int64_t *v)
{
    if (!parse_unary(p, v)) return false;
    for (;;) {
        skip_ws(p);
        char op = p->s[p->pos];
        if (op != '*' && op != '/' && op != '%') return true;
        size_t at = p->pos++;
        int64_t r;
        if (!parse_unary(p, &r)) return false;
        if (op == '*') {
            if (__builtin_mul_overflow(*v, r, v))
                return fail_at(p, at, "integer overflow: the product does not fit 64 bits");
        } else {
            if (r == 0) return fail_at(p, at, "division by zero");
            if (*v == INT64_MIN && r == -1) return fail_at(p, at, "integer overflow in division");
            *v = op == '/' ? *v / r : *v % r;
        }
    }
}

static bool parse_expr(Parser *p, int64_t *v)
{
    if (!parse_term(p, v)) return false;
    for (;;) {
        skip_ws(p);
        char op = p->s[p->pos];
        if (op != '+' && op != '-') return true;
        size_t at = p->pos++;
        int64_t r;
        if (!parse_term(p, &r)) return false;
        bool ovf = op == '+' ? __builtin_add_overflow(*v, r, v) : __builtin_sub_overflow(*v, r, v);
        if (ovf) return fail_at(p, at, "integer overflow: the %s does not fit 64 bits", op == '+' ? "sum" : "difference");
    }
}

bool expr_eval(const char *text, ExprLookup lookup, void *user, int64_t *out, ExprError *err)
{
    Parser p = { text, 0, 0, lookup, user, err, false };
    size_t len = strlen(text);
    if (len > EXPR_MAX_LEN) return fail_at(&p, EXPR_MAX_LEN, "expression longer than %d characters", EXPR_MAX_LEN);
    int64_t v;
    if (!parse_expr(&p, &v)) return false;
    skip_ws(&p);
    if (p.s[p.pos] != '\0') {
        char c = p.s[p.pos];
        if (c == ')') return fail_at(&p, p.pos, "unmatched ')'");
        if (isprint((unsigned char)c)) return fail_at(&p, p.pos, "unexpected '%c' after a complete expression", c);
        return fail_at(&p, p.pos, "unexpected byte 0x%02x", (unsigned)(unsigned char)c);
    }
    *out = v;
    return true;
}

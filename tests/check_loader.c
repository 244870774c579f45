/* tests/check_loader.c -- the workload loader (workloads/loader.h), its
** parameters (workloads/params.h) and its expression evaluator
** (workloads/expr.h): precedence, functions and errors; argument to
** parameter matching; JSON paths with line:col in errors (workloads/
** jsonread.h); --param overrides; a file of 80,000 parameters. Running
** the variants of a loaded file is tests/check_run.c.
** The bad-file corpus (tests/json_corpus) runs through the CLI in e2e_run.sh. */
#include "workloads/loader.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/expr.h"

/* A workload file next to this one: kernels are found relative to it. */
#define INLINE_PATH TESTS_DIR "/inline.json"
#define TRANSPOSE_ASM "\"../workloads/kernels/transpose.asm\""

static GpuConfig a100(void)
{
    GpuConfig c;
    Diag d;
    ck_assert_msg(config_load("a100", &c, &d), "%s", d.message);
    return c;
}

static bool parse(const char *text, const char *const *ov, size_t nov, Workload *w, Diag *d)
{
    GpuConfig c = a100();
    return workload_parse(text, strlen(text), INLINE_PATH, &c, ov, nov, w, d);
}

/* Loads text and expects failure at line:col with a message starting with msg. */
static void expect_error(const char *text, uint32_t line, uint32_t col, const char *msg)
{
    Workload w;
    Diag d;
    ck_assert_msg(!parse(text, NULL, 0, &w, &d), "loaded but expected: %s", msg);
    ck_assert_msg(strncmp(d.message, msg, strlen(msg)) == 0, "message '%s', expected '%s...'", d.message, msg);
    ck_assert_msg(d.line == line && d.col == col, "%s: at %u:%u, expected %u:%u", d.message, d.line, d.col, line, col);
}

/* ------------------------------------------------------------ expressions */

static ExprVarStatus vars(void *user, const char *name, int64_t *v)
{
    (void)user;
    if (strcmp(name, "n") == 0) *v = 5;
    else if (strcmp(name, "big") == 0) *v = INT64_MAX;
    else return EXPR_VAR_UNKNOWN;
    return EXPR_VAR_FOUND;
}

static const struct {
    const char *text;
    int64_t     value;
} good_exprs[] = {
    { "1+2*3", 7 },         { "(1+2)*3", 9 },        { "1-2-3", -4 },         { "100/10/5", 2 },
    { "-2*-3", 6 },         { "+4", 4 },             { "7/2", 3 },            { "-7/2", -3 },
    { "7%3", 1 },           { "-7%3", -1 },          { "2*3%4", 2 },          { "ceil_div(10,3)", 4 },
    { "ceil_div(9,3)", 3 }, { "ceil_div(0,3)", 0 },  { "round_up(10,4)", 12 }, { "min(3,1,2)", 1 },
    { "max(3,1,2)", 3 },    { "max(-1,-2)", -1 },    { "0x10+1", 17 },        { " 2 * ( 3 + 4 ) ", 14 },
    { "n*n", 25 },          { "ceil_div(n*1000,32)", 157 }, { "big", INT64_MAX }, { "-big-1", INT64_MIN },
    { "min(n, 4)*max(n,6)", 24 }, { "9223372036854775807", INT64_MAX },
};

START_TEST(test_expr_values)
{
    int64_t v;
    ExprError e;
    ck_assert_msg(expr_eval(good_exprs[_i].text, vars, NULL, &v, &e), "%s: %s", good_exprs[_i].text, e.message);
    ck_assert_msg(v == good_exprs[_i].value, "%s = %lld, expected %lld", good_exprs[_i].text, (long long)v,
                  (long long)good_exprs[_i].value);
}
END_TEST

static const struct {
    const char *text;
    size_t      pos;
    const char *message; /* prefix */
} bad_exprs[] = {
    { "1/0", 1, "division by zero" },
    { "n%0", 1, "division by zero" },
    { "big+1", 3, "integer overflow" },
    { "big*2", 3, "integer overflow" },
    { "-big-2", 4, "integer overflow" },
    { "9223372036854775808", 0, "integer literal does not fit" },
    { "ceil_div(1)", 0, "ceil_div() takes 2 arguments" },
    { "ceil_div(1,0)", 0, "division by zero in ceil_div" },
    { "ceil_div(-1,2)", 0, "ceil_div(-1, 2): arguments must not be negative" },
    { "min(1)", 0, "min() takes at least 2 arguments" },
    { "foo(1)", 0, "unknown function 'foo'" },
    { "2*x", 2, "unknown variable 'x'" },
    { "1.5", 1, "unexpected '.' in a number" },
    { "(1+2", 4, "expected ')'" },
    { "1+2)", 3, "unmatched ')'" },
    { "", 0, "expected a number, a name or '(' but the expression ends" },
    { "1 2", 2, "unexpected '2' after a complete expression" },
    { "min", 0, "'min' is a function" },
    { "3*", 2, "expected a number, a name or '(' but the expression ends" },
    { "0x", 0, "expected hex digits" },
};

START_TEST(test_expr_errors)
{
    int64_t v;
    ExprError e;
    ck_assert_msg(!expr_eval(bad_exprs[_i].text, vars, NULL, &v, &e), "%s evaluated", bad_exprs[_i].text);
    ck_assert_msg(strncmp(e.message, bad_exprs[_i].message, strlen(bad_exprs[_i].message)) == 0, "%s: '%s'",
                  bad_exprs[_i].text, e.message);
    ck_assert_msg(e.pos == bad_exprs[_i].pos, "%s: pos %zu, expected %zu", bad_exprs[_i].text, e.pos, bad_exprs[_i].pos);
}
END_TEST

START_TEST(test_expr_depth)
{
    char text[512];
    int64_t v;
    ExprError e;
    /* 60 levels are fine, 100 are absurd */
    size_t n = 0;
    for (int i = 0; i < 60; i++) text[n++] = '(';
    text[n++] = '1';
    for (int i = 0; i < 60; i++) text[n++] = ')';
    text[n] = '\0';
    ck_assert_msg(expr_eval(text, NULL, NULL, &v, &e) && v == 1, "%s", e.message);
    n = 0;
    for (int i = 0; i < 100; i++) text[n++] = '-';
    text[n++] = '1';
    text[n] = '\0';
    ck_assert(!expr_eval(text, NULL, NULL, &v, &e));
    ck_assert_str_eq(e.message, "expression nested deeper than 64 levels");
    char *longtext = malloc(EXPR_MAX_LEN + 10);
    memset(longtext, '1', EXPR_MAX_LEN + 5);
    longtext[EXPR_MAX_LEN + 5] = '\0';
    ck_assert(!expr_eval(longtext, NULL, NULL, &v, &e));
    ck_assert(strstr(e.message, "longer than") != NULL);
    free(longtext);
}
END_TEST

/* ------------------------------------------------------------ a good file */

static const char *GOOD =
    "{\n"
    "  \"name\": \"t\",\n"
    "  \"description\": \"d\",\n"
    "  \"params\": { \"n\": 64, \"m\": \"n/2\" },\n"
    "  \"kernels\": " TRANSPOSE_ASM ",\n"
    "  \"buffers\": [\n"
    "    { \"name\": \"in\", \"type\": \"f32\", \"count\": \"n*n\", \"init\": { \"random\": { \"seed\": 1, \"min\": -1, \"max\": 1 } } },\n"
    "    { \"name\": \"out\", \"type\": \"f32\", \"count\": \"n*n\" }\n"
    "  ],\n"
    "  \"variants\": [\n"
    "    { \"name\": \"naive\", \"kernel\": \"transpose_naive\", \"grid\": [\"ceil_div(n,32)\", \"ceil_div(n,32)\"],\n"
    "      \"block\": [32, 32], \"args\": [\"in\", \"out\", \"n\"],\n"
    "      \"checks\": [{ \"buffer\": \"out\", \"reference\": \"transpose\" }] },\n"
    "    { \"name\": \"wide\", \"kernel\": \"copy\", \"grid\": \"4*sm_count*blocks_per_sm\", \"block\": 256,\n"
    "      \"args\": [\"in\", \"out\", \"m\"], \"dynamic_smem\": \"1024*2\", \"regs\": 32 }\n"
    "  ]\n"
    "}\n";

START_TEST(test_good_file)
{
    Workload w;
    Diag d;
    ck_assert_msg(parse(GOOD, NULL, 0, &w, &d), "%s:%u:%u: %s", d.file, d.line, d.col, d.message);
    ck_assert_str_eq(w.name, "t");
    ck_assert_uint_eq(w.nparams, 2);
    ck_assert_int_eq(w.params[1].value, 32);
    ck_assert_uint_eq(w.nbuffers, 2);
    ck_assert_uint_eq(w.buffers[0].count, 4096);
    ck_assert_int_eq(w.buffers[0].init.kind, WL_INIT_RANDOM);
    ck_assert_int_eq(w.buffers[1].init.kind, WL_INIT_ZEROS);
    ck_assert_uint_eq(w.nvariants, 2);
    const WlVariant *v = workload_find_variant(&w, "naive");
    ck_assert_ptr_nonnull(v);
    ck_assert_uint_eq(v->launches[0].grid[0], 2);
    ck_assert_uint_eq(v->launches[0].grid[1], 2);
    ck_assert_uint_eq(v->launches[0].grid[2], 1);
    ck_assert_uint_eq(v->launches[0].block[1], 32);
    ck_assert_uint_eq(v->nchecks, 1);
    ck_assert_int_eq(v->launches[0].args[0].kind, REF_ARG_BUFFER);
    ck_assert_int_eq(v->launches[0].args[2].kind, REF_ARG_INT);
    ck_assert_uint_eq(v->launches[0].args[2].bits, 64);
    /* 256 threads x 32 regs: 8 blocks per SM on the A100 -> 4 * 108 * 8 */
    v = workload_find_variant(&w, "wide");
    ck_assert_uint_eq(v->launches[0].occ.blocks_per_sm, 8);
    ck_assert_uint_eq(v->launches[0].grid[0], 4 * 108 * 8);
    ck_assert_uint_eq(v->launches[0].dynamic_smem, 2048);
    ck_assert_uint_eq(v->launches[0].regs, 32);
    ck_assert_ptr_null(workload_find_variant(&w, "nope"));
    workload_destroy(&w);
}
END_TEST

START_TEST(test_param_overrides)
{
    Workload w;
    Diag d;
    const char *ov[] = { "n=128", "m=8*sm_count" };
    ck_assert_msg(parse(GOOD, ov, 2, &w, &d), "%s", d.message);
    ck_assert_int_eq(w.params[0].value, 128);
    ck_assert_int_eq(w.params[1].value, 864);
    ck_assert_uint_eq(w.buffers[0].count, 128 * 128);
    ck_assert_uint_eq(w.variants[0].launches[0].grid[0], 4);
    workload_destroy(&w);
    /* derived parameters follow the override */
    const char *ov2[] = { "n=32" };
    ck_assert(parse(GOOD, ov2, 1, &w, &d));
    ck_assert_int_eq(w.params[1].value, 16);
    workload_destroy(&w);
    const char *bad[][1] = { { "k=3" }, { "n" }, { "n=" }, { "n=abc" }, { "n=0" } };
    const char *msgs[] = { "unknown parameter 'k' (", "expected NAME=VALUE, got 'n'", "expected NAME=VALUE, got 'n='",
                           "n=abc: unknown variable 'abc'", NULL };
    for (int i = 0; i < 5; i++) {
        bool ok = parse(GOOD, bad[i], 1, &w, &d);
        ck_assert_msg(!ok, "%s loaded", bad[i][0]);
        if (msgs[i]) {
            ck_assert_str_eq(d.file, "--param");
            ck_assert_msg(strncmp(d.message, msgs[i], strlen(msgs[i])) == 0, "%s: '%s'", bad[i][0], d.message);
        } else { /* n=0: a buffer of 0 elements, reported where the count is */
            ck_assert_msg(strstr(d.message, "buffers[0].count: a buffer needs at least 1 element") != NULL, "%s",
                          d.message);
        }
    }
}
END_TEST

/* ------------------------------------------------------------ errors with positions */

/* A template with one hole (%s) inside variants[0]; line 8 starts the variant. */
static const char *VARIANT_TEMPLATE =
    "{\n"
    "  \"name\": \"t\", \"description\": \"d\",\n"
    "  \"params\": { \"n\": 64 },\n"
    "  \"kernels\": " TRANSPOSE_ASM ",\n"
    "  \"buffers\": [ { \"name\": \"in\", \"type\": \"f32\", \"count\": \"n*n\" },\n"
    "               { \"name\": \"out\", \"type\": \"f32\", \"count\": \"n*n\" } ],\n"
    "  \"variants\": [\n"
    "    { \"name\": \"v\", \"kernel\": \"transpose_naive\", %s }\n"
    "  ]\n"
    "}\n";

static void expect_variant_error(const char *hole, uint32_t col, const char *msg)
{
    char text[4096];
    snprintf(text, sizeof text, VARIANT_TEMPLATE, hole);
    /* col counts from the hole's first character */
    expect_error(text, 8, (uint32_t)strlen("    { \"name\": \"v\", \"kernel\": \"transpose_naive\", ") + col, msg);
}

static const struct {
    const char *hole;
    uint32_t    col; /* 1-based, within the hole */
    const char *msg;
} variant_errors[] = {
    { "\"grid\": 0, \"block\": 32, \"args\": [\"in\",\"out\",\"n\"]", 9, "variants[0].grid: grid = 0 is outside 1.." },
    { "\"grid\": \"n/0\", \"block\": 32, \"args\": [\"in\",\"out\",\"n\"]", 11, "variants[0].grid: division by zero" },
    { "\"grid\": [1, \"n*q\"], \"block\": 32, \"args\": [\"in\",\"out\",\"n\"]", 16,
      "variants[0].grid[1]: unknown variable 'q'" },
    { "\"grid\": [1,1,1,1], \"block\": 32, \"args\": [\"in\",\"out\",\"n\"]", 9,
      "variants[0].grid: expected 1 to 3 dimensions" },
    { "\"grid\": 1, \"block\": 2000, \"args\": [\"in\",\"out\",\"n\"]", 21,
      "variants[0].block: block = 2000 is outside 1..1024" },
    { "\"grid\": 1, \"block\": [64, 64], \"args\": [\"in\",\"out\",\"n\"]", 21,
      "variants[0].block: a block of 4096 threads is more than a100 allows" },
    { "\"grid\": 1, \"block\": \"blocks_per_sm\", \"args\": [\"in\",\"out\",\"n\"]", 22,
      "variants[0].block: 'blocks_per_sm' is known only in a variant's grid and args" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\"]", 33,
      "variants[0].args: kernel 'transpose_naive' takes 3 parameters (in, out, n), got 2 arguments" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"n\",\"n\"]", 39,
      "variants[0].args[1]: parameter 'out' of kernel 'transpose_naive' is .ptr: expected a buffer name, found 'n'" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",\"in\"]", 45,
      "variants[0].args[2]: 'in' is a buffer but parameter 'n' of kernel 'transpose_naive' is .u32" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",1.5]", 45,
      "variants[0].args[2]: parameter 'n' of kernel 'transpose_naive' is .u32: expected an integer, found 1.5" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",-1]", 45, "variants[0].args[2]: -1 does not fit parameter 'n'" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",\"n\"], \"blocks\": 1", 51,
      "variants[0].blocks: unknown key 'blocks'" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",\"n\"], \"grid\": 2", 51, "variants[0].grid: duplicate key 'grid'" },
    { "\"grid\": 1, \"block\": 32", 0, "variants[0]: missing key 'args'" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",\"n\"], \"checks\": [{\"buffer\": \"out\", \"reference\": \"nope\"}]",
      93, "variants[0].checks[0].reference: unknown reference 'nope' (the references are listed in workloads/README.md)" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",\"n\"], \"checks\": [{\"buffer\": \"in\", \"reference\": \"transpose\"}]",
      92, "variants[0].checks[0].reference: reference 'transpose' predicts argument 1, buffer 'out', not 'in'" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",\"n\"], \"checks\": [{\"buffer\": \"out\", \"reference\": \"vecadd\"}]",
      93, "variants[0].checks[0].reference: reference 'vecadd' takes 4 arguments" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",65], \"checks\": [{\"buffer\": \"out\", \"reference\": \"transpose\"}]",
      92, "variants[0].checks[0].reference: reference 'transpose': buffer 'in' holds 4096 elements, n*n = 4225 needed" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",\"n\"], \"checks\": [{\"buffer\": \"out\", \"reference\": \"transpose\", \"atol\": -1}]",
      114, "variants[0].checks[0].atol: expected a non-negative number" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",\"n\"], \"regs\": 300", 59,
      "variants[0].regs: regs = 300 is outside 0..255" },
    { "\"grid\": 1, \"block\": 32, \"args\": [\"in\",\"out\",\"n\"], \"dynamic_smem\": \"200*1024\"", 67,
      "variants[0].dynamic_smem: 204800 bytes of shared memory per block" },
};

START_TEST(test_variant_errors)
{
    if (variant_errors[_i].col == 0) { /* reported at the variant object itself */
        char text[4096];
        snprintf(text, sizeof text, VARIANT_TEMPLATE, variant_errors[_i].hole);
        expect_error(text, 8, 5, variant_errors[_i].msg);
        return;
    }
    expect_variant_error(variant_errors[_i].hole, variant_errors[_i].col, variant_errors[_i].msg);
}
END_TEST

START_TEST(test_syntax_errors)
{
    expect_error("{\n  \"name\": \"t\",\n  \"description\": \"", 3, 18, "invalid JSON: unterminated string");
    expect_error("{\n  \"name\" \"t\"\n}", 2, 10, "invalid JSON: unexpected '\"'");
    expect_error("\x89PNG\r\n", 1, 1, "invalid JSON: unexpected byte 0x89");
    expect_error("[]", 1, 1, "expected a JSON object at the top level, found an array");
    expect_error("{} {}", 1, 4, "invalid JSON: text after the end of the top-level value");
    expect_error("{}", 1, 1, "missing key 'name'");
    expect_error("{\"name\": 1, \"description\": \"\", \"kernels\": \"\", \"buffers\": [], \"variants\": []}", 1, 10,
                 "name: expected a string, found a number");
    expect_error("{\"nam\": 1}", 1, 2, "nam: unknown key 'nam' (expected one of: $schema, name, description");
}
END_TEST

START_TEST(test_param_errors)
{
    const char *head = "{\"name\": \"t\", \"description\": \"d\", \"kernels\": " TRANSPOSE_ASM
                       ", \"buffers\": [], \"variants\": [], \"params\": ";
    char text[1024];
    snprintf(text, sizeof text, "%s{\"n\": \"m\", \"m\": \"2*n\"}}", head);
    uint32_t at = (uint32_t)strlen(head);
    /* n -> m -> n: reported inside m's expression, at the reference to n */
    expect_error(text, 1, at + 20, "params.m: cyclic definition: n -> m -> n");
    snprintf(text, sizeof text, "%s{\"n\": \"n+1\"}}", head);
    expect_error(text, 1, at + 8, "params.n: cyclic definition: n -> n");
    snprintf(text, sizeof text, "%s{\"sm_count\": 3}}", head);
    expect_error(text, 1, at + 2, "params.sm_count: parameter name 'sm_count' is reserved");
    snprintf(text, sizeof text, "%s{\"n\": 1.5}}", head);
    expect_error(text, 1, at + 7, "params.n: expected an integer, found 1.5");
    snprintf(text, sizeof text, "%s{\"n\": \"1000000*1000000*1000000*1000000\"}}", head);
    expect_error(text, 1, at + 31, "params.n: integer overflow");
    snprintf(text, sizeof text, "%s[1]}", head);
    expect_error(text, 1, at + 1, "params: expected an object of name: integer, found an array");
    /* the first bad name in member order, whatever is wrong with it */
    snprintf(text, sizeof text, "%s{\"a\": 1, \"b\": 2, \"a\": 3, \"sm_count\": 4}}", head);
    expect_error(text, 1, at + 18, "params.a: duplicate key 'a'");
    snprintf(text, sizeof text, "%s{\"a\": 1, \"sm_count\": 2, \"a\": 3}}", head);
    expect_error(text, 1, at + 10, "params.sm_count: parameter name 'sm_count' is reserved");
    const char *clash = "{\"name\": \"t\", \"description\": \"d\", \"kernels\": " TRANSPOSE_ASM
                        ", \"params\": {\"x\": 1, \"n\": 4}, \"buffers\": [{\"name\": \"n\", \"type\": \"f32\", \"count\": 1}],"
                        " \"variants\": []}";
    expect_error(clash, 1, (uint32_t)(strstr(clash, "\"n\", \"type\"") - clash) + 1,
                 "buffers[0].name: buffer name 'n' is also a parameter: args could not tell them apart");
}
END_TEST

/* A chain of parameters is limited to WL_MAX_PARAM_DEPTH however the file
** orders it: written in order, each was evaluated after the one it names,
** and a chain of 80,000 loaded while the same chain written backwards was
** refused. */
START_TEST(test_param_chain_depth)
{
    for (int reversed = 0; reversed < 2; reversed++)
        for (int n = WL_MAX_PARAM_DEPTH; n <= WL_MAX_PARAM_DEPTH + 1; n++) {
            char text[8192];
            size_t len = (size_t)snprintf(text, sizeof text,
                                          "{\"name\": \"t\", \"description\": \"d\", \"kernels\": " TRANSPOSE_ASM
                                          ", \"params\": {");
            for (int k = 0; k < n; k++) {
                int i = reversed ? n - 1 - k : k;
                if (i == 0) len += (size_t)snprintf(text + len, sizeof text - len, "%s\"p0\": 64", k ? ", " : "");
                else len += (size_t)snprintf(text + len, sizeof text - len, "%s\"p%d\": \"p%d + 1\"", k ? ", " : "", i, i - 1);
            }
            snprintf(text + len, sizeof text - len,
                     "}, \"buffers\": [{\"name\": \"in\", \"type\": \"f32\", \"count\": 64},"
                     " {\"name\": \"out\", \"type\": \"f32\", \"count\": 64}],"
                     " \"variants\": [{\"name\": \"v\", \"kernel\": \"copy\", \"grid\": 1,"
                     " \"block\": 64, \"args\": [\"in\", \"out\", 64]}]}");
            Workload w;
            Diag d;
            bool ok = parse(text, NULL, 0, &w, &d);
            if (n <= WL_MAX_PARAM_DEPTH) {
                ck_assert_msg(ok, "a chain of %d (reversed %d): %s", n, reversed, d.message);
                workload_destroy(&w);
            } else {
                ck_assert_msg(!ok, "a chain of %d (reversed %d) was accepted", n, reversed);
                ck_assert_msg(strstr(d.message, "more than 64 deep"), "%s", d.message);
            }
        }
}
END_TEST

START_TEST(test_many_params)
{
    /* 80,000 parameters, each defined through the first: a legal file,
    ** which must load (names are found through a sorted index; a list
    ** walked per lookup and per duplicate check took half a minute) */
    enum { N = 80000 };
    size_t cap = (size_t)N * 32 + 1024, len = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    len += (size_t)snprintf(text + len, cap - len,
                            "{\"name\": \"t\", \"description\": \"d\", \"kernels\": " TRANSPOSE_ASM
                            ", \"params\": {\"p0\": 7");
    for (int i = 1; i < N; i++) len += (size_t)snprintf(text + len, cap - len, ", \"p%d\": \"p0 + %d\"", i, i);
    size_t params_end = len;
    len += (size_t)snprintf(text + len, cap - len,
                            "}, \"buffers\": [{\"name\": \"in\", \"type\": \"f32\", \"count\": \"p%d\"},"
                            " {\"name\": \"out\", \"type\": \"f32\", \"count\": \"p%d\"}],"
                            " \"variants\": [{\"name\": \"v\", \"kernel\": \"copy\", \"grid\": \"ceil_div(p%d, 256)\","
                            " \"block\": 256, \"args\": [\"in\", \"out\", \"p%d\"]}]}",
                            N - 1, N - 1, N - 1, N - 1);
    Workload w;
    Diag d;
    ck_assert_msg(parse(text, NULL, 0, &w, &d), "%s:%u:%u: %s", d.file, d.line, d.col, d.message);
    ck_assert_uint_eq(w.nparams, N);
    ck_assert_str_eq(w.params[N - 1].name, "p79999");
    ck_assert_int_eq(w.params[N - 1].value, 7 + N - 1);
    ck_assert_uint_eq(w.buffers[0].count, 7 + N - 1);
    ck_assert_uint_eq(w.variants[0].launches[0].args[2].bits, 7 + N - 1);
    workload_destroy(&w);
    /* an override of the first moves everything */
    const char *ov[] = { "p0=0" };
    ck_assert_msg(parse(text, ov, 1, &w, &d), "%s", d.message);
    ck_assert_int_eq(w.params[N - 1].value, N - 1);
    workload_destroy(&w);
    /* the same name again at the very end is still found, at its key */
    char tail[4096];
    snprintf(tail, sizeof tail, "%s", text + params_end);
    snprintf(text + params_end, cap - params_end, ", \"p0\": 1%s", tail);
    expect_error(text, 1, (uint32_t)params_end + 3, "params.p0: duplicate key 'p0'");
    free(text);
}
END_TEST

START_TEST(test_buffer_errors)
{
    const char *head = "{\"name\": \"t\", \"description\": \"d\", \"kernels\": " TRANSPOSE_ASM
                       ", \"variants\": [], \"buffers\": [";
    uint32_t at = (uint32_t)strlen(head);
    static const struct {
        const char *buf;
        uint32_t    col;
        const char *msg;
    } cases[] = {
        { "{\"name\": \"a\", \"type\": \"f64\", \"count\": 1}", 23, "buffers[0].type: unknown element type 'f64'" },
        { "{\"name\": \"a\", \"type\": \"f32\", \"count\": -4}", 39, "buffers[0].count: a buffer needs at least 1 element, got -4" },
        { "{\"name\": \"a\", \"type\": \"f32\", \"count\": 1e15}", 39,
          "buffers[0].count: 1000000000000000 elements is more than the 1073741824 (2^30)" },
        { "{\"name\": \"a\", \"type\": \"f32\", \"count\": 536870912}, {\"name\": \"b\", \"type\": \"f32\", \"count\": 536870912}",
          89, "buffers[1].count: the buffers up to 'b' need" },
        { "{\"name\": \"1a\", \"type\": \"f32\", \"count\": 1}", 10, "buffers[0].name: buffer name '1a' must be an identifier" },
        { "{\"name\": \"a\", \"type\": \"f32\", \"count\": 1}, {\"name\": \"a\", \"type\": \"f32\", \"count\": 1}", 52,
          "buffers[1].name: duplicate buffer name 'a'" },
        { "{\"name\": \"a\", \"type\": \"f32\", \"count\": 1, \"init\": \"ones\"}", 50, "buffers[0].init: unknown init 'ones'" },
        { "{\"name\": \"a\", \"type\": \"u32\", \"count\": 1, \"init\": {\"constant\": {\"value\": -1}}}", 73,
          "buffers[0].init.constant.value: -1 is outside the u32 range" },
        { "{\"name\": \"a\", \"type\": \"s32\", \"count\": 10, \"init\": {\"iota\": {\"start\": 2147483640}}}", 60,
          "buffers[0].init.iota: iota leaves the s32 range" },
        { "{\"name\": \"a\", \"type\": \"f32\", \"count\": 1, \"init\": {\"random\": {\"min\": 2, \"max\": 1}}}", 61,
          "buffers[0].init.random: min is larger than max" },
        { "{\"name\": \"a\", \"type\": \"f32\", \"count\": 1, \"init\": {\"random\": {}, \"iota\": {}}}", 50,
          "buffers[0].init: expected exactly one of" },
        { "{\"name\": \"a\", \"type\": \"f32\", \"count\": 1, \"init\": {\"random\": {\"sed\": 1}}}", 62,
          "buffers[0].init.random.sed: unknown key 'sed'" },
    };
    char text[2048];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "%s%s]}", head, cases[i].buf);
        expect_error(text, 1, at + cases[i].col, cases[i].msg);
    }
}
END_TEST

START_TEST(test_kernel_errors)
{
    expect_error("{\"name\": \"t\", \"description\": \"d\", \"kernels\": \"nowhere.asm\", \"buffers\": [], \"variants\": []}", 1,
                 46, "kernels: cannot read kernel file '" TESTS_DIR "/nowhere.asm'");
    const char *text = "{\"name\": \"t\", \"description\": \"d\", \"kernels\": " TRANSPOSE_ASM ", \"buffers\": [],\n"
                       " \"variants\": [{\"name\": \"v\", \"kernel\": \"transpose\", \"grid\": 1, \"block\": 1, \"args\": []}]}";
    expect_error(text, 2, 39, "variants[0].kernel: no kernel 'transpose' in");
    expect_error("{\"name\": \"t\", \"description\": \"d\", \"kernels\": " TRANSPOSE_ASM ", \"buffers\": [], \"variants\": []}",
                 1, 111, "variants: a workload needs at least one variant");
}
END_TEST

START_TEST(test_shipped_workloads)
{
    /* every workload file in workloads/ and workloads/examples/ loads on every preset */
    static const char *const dirs[] = { "workloads", "workloads/examples" };
    size_t files = 0;
    for (size_t p = 0; p < config_preset_count(); p++) {
        GpuConfig c;
        Diag d;
        ck_assert(config_load(config_preset_name(p), &c, &d));
        for (size_t k = 0; k < 2; k++) {
            char dir[1024];
            snprintf(dir, sizeof dir, "%s/../%s", TESTS_DIR, dirs[k]);
            DIR *dp = opendir(dir);
            ck_assert_ptr_nonnull(dp);
            for (struct dirent *e; (e = readdir(dp));) {
                size_t n = strlen(e->d_name);
                if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0 || strstr(e->d_name, "schema")) continue;
                char path[2048];
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                Workload w;
                ck_assert_msg(workload_load(path, &c, NULL, 0, &w, &d), "%s on %s: %s:%u:%u: %s", e->d_name,
                              config_preset_name(p), d.file, d.line, d.col, d.message);
                workload_destroy(&w);
                files++;
            }
            closedir(dp);
        }
    }
    ck_assert_uint_ge(files, 19 * config_preset_count());
}
END_TEST

/* Launches, same_as order and selection, init values as expressions. */
static const char *SEQ =
    "{\"name\": \"s\", \"description\": \"d\", \"params\": {\"n\": 64}, \"kernels\": " TRANSPOSE_ASM ",\n"
    " \"buffers\": [{\"name\": \"in\", \"type\": \"f32\", \"count\": \"n*n\", \"init\": {\"constant\": {\"value\": \"n/4\"}}},\n"
    "             {\"name\": \"mid\", \"type\": \"f32\", \"count\": \"n*n\"},\n"
    "             {\"name\": \"out\", \"type\": \"u32\", \"count\": \"n*n\", \"init\": {\"iota\": {\"start\": \"n\", \"step\": \"2\"}}}],\n"
    " \"variants\": [\n"
    "  {\"name\": \"clever one\", \"launches\": [\n"
    "     {\"kernel\": \"copy\", \"grid\": \"n*n/256\", \"block\": 256, \"args\": [\"in\", \"mid\", \"n*n\"]},\n"
    "     {\"kernel\": \"transpose_naive\", \"grid\": [2, 2], \"block\": [32, 32], \"args\": [\"mid\", \"in\", \"n\"]}],\n"
    "   \"checks\": [{\"buffer\": \"mid\", \"same_as\": \"simple\"}, {\"buffer\": \"mid\", \"reference\": \"copy\", \"launch\": 0}]},\n"
    "  {\"name\": \"simple\", \"kernel\": \"copy\", \"grid\": \"n*n/256\", \"block\": 256, \"args\": [\"in\", \"mid\", \"n*n\"],\n"
    "   \"checks\": [{\"buffer\": \"mid\", \"reference\": \"copy\"}]},\n"
    "  {\"name\": \"alone\", \"kernel\": \"copy\", \"grid\": 1, \"block\": 32, \"args\": [\"in\", \"mid\", 32]}]}\n";

START_TEST(test_launches_and_same_as)
{
    Workload w;
    Diag d;
    ck_assert_msg(parse(SEQ, NULL, 0, &w, &d), "%s:%u:%u: %s", d.file, d.line, d.col, d.message);
    const WlVariant *v = &w.variants[0];
    ck_assert_str_eq(v->name, "clever one");
    ck_assert_uint_eq(v->nlaunches, 2);
    ck_assert_str_eq(v->launches[1].kernel->name, "transpose_naive");
    ck_assert_uint_eq(v->launches[1].grid[1], 2);
    ck_assert_uint_eq(v->launches[0].args[2].bits, 64 * 64);
    ck_assert_int_eq(v->checks[0].kind, WL_CHECK_SAME_AS);
    ck_assert_uint_eq(v->checks[0].variant, 1);
    ck_assert_uint_eq(v->checks[0].launch, 1); /* the last launch by default */
    ck_assert_uint_eq(v->checks[1].launch, 0);
    ck_assert_uint_eq(w.variants[1].nlaunches, 1);
    /* simple runs before the variant that compares with it */
    ck_assert_uint_eq(w.order[0], 1);
    ck_assert_uint_eq(w.order[1], 0);
    ck_assert_uint_eq(w.order[2], 2);
    bool chosen[3] = { true, false, false }, run[3];
    workload_select(&w, chosen, run);
    ck_assert(run[0] && run[1] && !run[2]);
    ck_assert(w.buffers[0].init.x0 == 16.0);
    ck_assert_int_eq(w.buffers[2].init.i0, 64);
    ck_assert_int_eq(w.buffers[2].init.i1, 2);
    ck_assert_ptr_nonnull(workload_find_variant(&w, "clever one"));
    ck_assert_ptr_null(workload_find_variant(&w, "clever"));
    workload_destroy(&w);
}
END_TEST

static Suite *loader_suite(void)
{
    Suite *s = suite_create("loader");
    TCase *tc = tcase_create("Expr");
    tcase_add_loop_test(tc, test_expr_values, 0, sizeof good_exprs / sizeof good_exprs[0]);
    tcase_add_loop_test(tc, test_expr_errors, 0, sizeof bad_exprs / sizeof bad_exprs[0]);
    tcase_add_test(tc, test_expr_depth);
    suite_add_tcase(s, tc);
    tc = tcase_create("Core");
    tcase_add_test(tc, test_good_file);
    tcase_add_test(tc, test_param_overrides);
    tcase_add_test(tc, test_shipped_workloads);
    tcase_add_test(tc, test_many_params);
    tcase_add_test(tc, test_param_chain_depth);
    tcase_add_test(tc, test_launches_and_same_as);
    suite_add_tcase(s, tc);
    tc = tcase_create("BadInput");
    tcase_add_loop_test(tc, test_variant_errors, 0, sizeof variant_errors / sizeof variant_errors[0]);
    tcase_add_test(tc, test_syntax_errors);
    tcase_add_test(tc, test_param_errors);
    tcase_add_test(tc, test_buffer_errors);
    tcase_add_test(tc, test_kernel_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(loader_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* tests/check_run.c -- a loaded variant's run (workloads/run.h): every
** initial-contents kind (random reproducible and pinned, any slice made
** alone equal to that slice of the whole), preparing a variant (fresh
** buffers, kernel parameters, expected contents) and judging its results,
** whole or piece by piece for elementwise references. The kernels do not
** run here: the tests write the buffers as a kernel would. */
#include "workloads/run.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A workload file next to this one: kernels are found relative to it. */
#define INLINE_PATH TESTS_DIR "/inline.json"

static bool parse(const char *text, Workload *w, Diag *d)
{
    GpuConfig c;
    ck_assert_msg(config_load("a100", &c, d), "%s", d->message);
    return workload_parse(text, strlen(text), INLINE_PATH, &c, NULL, 0, w, d);
}

/* ------------------------------------------------------------ initial contents */

static WlBuffer buffer(WlType t, uint64_t count, WlInitKind kind, double x0, double x1, uint64_t seed)
{
    WlBuffer b;
    memset(&b, 0, sizeof b);
    snprintf(b.name, sizeof b.name, "b");
    b.type = t;
    b.count = count;
    b.init.kind = kind;
    b.init.x0 = x0;
    b.init.x1 = x1;
    b.init.i0 = (int64_t)x0;
    b.init.i1 = (int64_t)x1;
    b.init.seed = seed;
    return b;
}

START_TEST(test_init_kinds)
{
    float f[8];
    uint32_t u[8];
    int32_t s[8];
    WlBuffer b = buffer(WL_F32, 8, WL_INIT_ZEROS, 0, 0, 0);
    memset(f, 0xff, sizeof f);
    workload_fill(&b, f);
    for (int i = 0; i < 8; i++) ck_assert(f[i] == 0.0f);
    b = buffer(WL_F32, 8, WL_INIT_CONSTANT, 2.5, 0, 0);
    workload_fill(&b, f);
    for (int i = 0; i < 8; i++) ck_assert(f[i] == 2.5f);
    b = buffer(WL_U32, 8, WL_INIT_CONSTANT, 7, 0, 0);
    workload_fill(&b, u);
    for (int i = 0; i < 8; i++) ck_assert_uint_eq(u[i], 7);
    b = buffer(WL_F32, 8, WL_INIT_IOTA, 1.0, 0.5, 0);
    workload_fill(&b, f);
    for (int i = 0; i < 8; i++) ck_assert(f[i] == 1.0f + 0.5f * (float)i);
    b = buffer(WL_S32, 8, WL_INIT_IOTA, 3, -2, 0);
    workload_fill(&b, s);
    for (int i = 0; i < 8; i++) ck_assert_int_eq(s[i], 3 - 2 * i);
}
END_TEST

START_TEST(test_random_reproducible)
{
    /* splitmix64 from state 1: the first output is pinned, so every
    ** machine produces the same bytes */
    uint64_t state = 1;
    ck_assert_uint_eq(workload_splitmix64(&state), 0x910a2dec89025cc1ull);
    enum { N = 10000 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    WlBuffer w1 = buffer(WL_F32, N, WL_INIT_RANDOM, -1, 1, 1);
    WlBuffer w2 = buffer(WL_F32, N, WL_INIT_RANDOM, -1, 1, 2);
    workload_fill(&w1, a);
    workload_fill(&w1, b);
    workload_fill(&w2, c);
    ck_assert(memcmp(a, b, N * sizeof *a) == 0);
    ck_assert(memcmp(a, c, N * sizeof *a) != 0);
    uint32_t bits;
    memcpy(&bits, &a[0], 4); /* (0x910a2d * 2^-24) * 2 - 1 */
    ck_assert_uint_eq(bits, 0x3e085168u);
    double sum = 0;
    for (int i = 0; i < N; i++) {
        ck_assert(a[i] >= -1.0f && a[i] <= 1.0f);
        sum += a[i];
    }
    ck_assert(fabs(sum / N) < 0.05);
    uint32_t *u = malloc(N * sizeof *u);
    WlBuffer w3 = buffer(WL_U32, N, WL_INIT_RANDOM, 10, 13, 7);
    workload_fill(&w3, u);
    int seen[4] = { 0 };
    for (int i = 0; i < N; i++) {
        ck_assert(u[i] >= 10 && u[i] <= 13);
        seen[u[i] - 10]++;
    }
    for (int i = 0; i < 4; i++) ck_assert(seen[i] > N / 8);
    free(a);
    free(b);
    free(c);
    free(u);
}
END_TEST

START_TEST(test_fill_range)
{
    /* any slice of a buffer, made alone, equals that slice of the whole */
    enum { N = 5000 };
    WlBuffer kinds[] = {
        buffer(WL_F32, N, WL_INIT_RANDOM, -1, 1, 3), buffer(WL_U32, N, WL_INIT_RANDOM, 10, 1000, 9),
        buffer(WL_F32, N, WL_INIT_IOTA, 0.5, 0.25, 0), buffer(WL_S32, N, WL_INIT_IOTA, 7, -3, 0),
        buffer(WL_F32, N, WL_INIT_CONSTANT, 1.5, 0, 0), buffer(WL_U32, N, WL_INIT_ZEROS, 0, 0, 0),
    };
    static const uint64_t firsts[] = { 0, 1, 17, 4095, 4999 };
    uint32_t whole[N], part[N];
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        workload_fill(&kinds[k], whole);
        for (size_t f = 0; f < sizeof firsts / sizeof firsts[0]; f++) {
            uint64_t first = firsts[f], count = N - first < 333 ? N - first : 333;
            memset(part, 0xab, sizeof part);
            workload_fill_range(&kinds[k], first, count, part);
            ck_assert_msg(memcmp(part, whole + first, count * 4) == 0, "kind %zu from %llu", k,
                          (unsigned long long)first);
        }
    }
}
END_TEST

/* ------------------------------------------------------------ prepare and compare */

/* A 64 x 64 transpose: random input, a zeroed output and its check. */
static const char *GOOD =
    "{\n"
    "  \"name\": \"t\",\n"
    "  \"description\": \"d\",\n"
    "  \"params\": { \"n\": 64 },\n"
    "  \"kernels\": \"../workloads/kernels/transpose.asm\",\n"
    "  \"buffers\": [\n"
    "    { \"name\": \"in\", \"type\": \"f32\", \"count\": \"n*n\", \"init\": { \"random\": { \"seed\": 1, \"min\": -1, \"max\": 1 } } },\n"
    "    { \"name\": \"out\", \"type\": \"f32\", \"count\": \"n*n\" }\n"
    "  ],\n"
    "  \"variants\": [\n"
    "    { \"name\": \"naive\", \"kernel\": \"transpose_naive\", \"grid\": [\"ceil_div(n,32)\", \"ceil_div(n,32)\"],\n"
    "      \"block\": [32, 32], \"args\": [\"in\", \"out\", \"n\"],\n"
    "      \"checks\": [{ \"buffer\": \"out\", \"reference\": \"transpose\" }] }\n"
    "  ]\n"
    "}\n";

START_TEST(test_prepare_compare)
{
    Workload w;
    Diag d;
    ck_assert_msg(parse(GOOD, &w, &d), "%s", d.message);
    const WlVariant *v = &w.variants[0];
    WlRun r;
    ck_assert_msg(workload_prepare(&w, v, &r, &d), "%s", d.message);
    ck_assert_uint_eq(r.params[0][0], r.addrs[0]);
    ck_assert_uint_eq(r.params[0][1], r.addrs[1]);
    ck_assert_uint_eq(r.params[0][2], 64);
    float *in = gmem_translate(r.gmem, r.addrs[0], 4096 * 4);
    float *out = gmem_translate(r.gmem, r.addrs[1], 4096 * 4);
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(out);
    const float *exp = r.expected[0];
    ck_assert(exp[1 * 64 + 0] == in[0 * 64 + 1]); /* out[c*n + r] = in[r*n + c] */
    WlCheckResult cr;
    workload_compare(&w, v, 0, &r, &cr); /* out is still zeros */
    ck_assert(!cr.pass);
    memcpy(out, exp, 4096 * 4);
    workload_compare(&w, v, 0, &r, &cr);
    ck_assert_msg(cr.pass, "%s", cr.text);
    ck_assert_str_eq(cr.text, "pass");
    out[17] += 1.0f;
    out[100] = NAN;
    workload_compare(&w, v, 0, &r, &cr);
    ck_assert(!cr.pass);
    ck_assert_uint_eq(cr.first_bad, 17);
    ck_assert_uint_eq(cr.mismatches, 2);
    ck_assert_msg(strncmp(cr.text, "out[17]: expected ", 18) == 0, "%s", cr.text);
    ck_assert(strstr(cr.text, "(2 of 4096 elements differ, reference 'transpose')") != NULL);
    workload_run_free(&r);
    /* a second run starts from fresh buffers */
    ck_assert(workload_prepare(&w, v, &r, &d));
    out = gmem_translate(r.gmem, r.addrs[1], 4096 * 4);
    ck_assert(out[17] == 0.0f);
    workload_run_free(&r);
    workload_destroy(&w);
}
END_TEST

/* vecadd (three buffers) and light (in place) over more elements than one
** piece of the elementwise comparison, with a tail past n left alone */
static const char *POINTWISE =
    "{ \"name\": \"p\", \"description\": \"d\", \"params\": { \"n\": 600000 },\n"
    "  \"kernels\": \"../workloads/kernels/vecadd.asm\",\n"
    "  \"buffers\": [\n"
    "    { \"name\": \"a\", \"type\": \"f32\", \"count\": \"n\", \"init\": { \"random\": { \"seed\": 1, \"min\": -1, \"max\": 1 } } },\n"
    "    { \"name\": \"b\", \"type\": \"f32\", \"count\": \"n\", \"init\": { \"iota\": { \"start\": 0, \"step\": 0.5 } } },\n"
    "    { \"name\": \"c\", \"type\": \"f32\", \"count\": \"n + 7\", \"init\": { \"constant\": { \"value\": 3 } } } ],\n"
    "  \"variants\": [ { \"name\": \"v\", \"kernel\": \"vecadd_scalar\", \"grid\": \"ceil_div(n,256)\", \"block\": 256,\n"
    "      \"args\": [\"a\", \"b\", \"c\", \"n\"], \"checks\": [{ \"buffer\": \"c\", \"reference\": \"vecadd\" }] } ] }\n";

START_TEST(test_compare_pointwise)
{
    Workload w;
    Diag d;
    ck_assert_msg(parse(POINTWISE, &w, &d), "%s", d.message);
    const WlVariant *v = &w.variants[0];
    WlRun r;
    ck_assert_msg(workload_prepare(&w, v, &r, &d), "%s", d.message);
    ck_assert_ptr_null(r.expected[0]); /* no whole expected copy is kept */
    enum { N = 600000 };
    const float *a = gmem_translate(r.gmem, r.addrs[0], N * 4), *b = gmem_translate(r.gmem, r.addrs[1], N * 4);
    float *c = gmem_translate(r.gmem, r.addrs[2], (N + 7) * 4);
    WlCheckResult cr;
    workload_compare(&w, v, 0, &r, &cr); /* c is still 3s */
    uint64_t differ = 0;
    for (uint64_t k = 0; k < N; k++) differ += a[k] + b[k] != 3.0f;
    ck_assert(!cr.pass);
    ck_assert_uint_eq(cr.mismatches, differ);
    for (uint64_t k = 0; k < N; k++) c[k] = a[k] + b[k];
    workload_compare(&w, v, 0, &r, &cr);
    ck_assert_msg(cr.pass, "%s", cr.text);
    /* one wrong element in the third piece, and one in the tail past n */
    c[555555] += 0.25f;
    workload_compare(&w, v, 0, &r, &cr);
    ck_assert(!cr.pass);
    ck_assert_uint_eq(cr.first_bad, 555555);
    ck_assert_uint_eq(cr.mismatches, 1);
    ck_assert(cr.expected == (double)(a[555555] + b[555555]));
    c[555555] -= 0.25f;
    c[N + 3] = 0.0f;
    workload_compare(&w, v, 0, &r, &cr);
    ck_assert_uint_eq(cr.first_bad, N + 3);
    ck_assert_msg(strstr(cr.text, "expected 3, got 0 (1 of 600007 elements differ, reference 'vecadd')") != NULL, "%s",
                  cr.text);
    workload_run_free(&r);
    workload_destroy(&w);
}
END_TEST

static Suite *run_suite(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("Core");
    tcase_add_test(tc, test_init_kinds);
    tcase_add_test(tc, test_random_reproducible);
    tcase_add_test(tc, test_fill_range);
    tcase_add_test(tc, test_prepare_compare);
    tcase_add_test(tc, test_compare_pointwise);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(run_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

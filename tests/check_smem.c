/* tests/check_smem.c -- shared-memory bank conflict model (sim/smem.h):
** the 32 banks of every NVIDIA part, and the 16 and 64 of smem.banks. */
#include "sim/smem.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define ALL 0xFFFFFFFFu

/* addr[lane] = base + lane * stride_bytes */
static void strided(uint32_t addr[32], uint32_t base, uint32_t stride_bytes)
{
    for (unsigned i = 0; i < 32; i++) addr[i] = base + i * stride_bytes;
}

static uint32_t wavefronts(const uint32_t addr[32], uint32_t mask, unsigned width)
{
    SmemResult r;
    smem_analyze(addr, mask, width, 32, &r);
    return r.wavefronts;
}

/* ---- Core ---- */

/* float per lane at a word stride of 2^k: the stride's factor of 2 is the
** number of lanes that share a bank with different words */
static const struct { uint32_t stride_words, expect; } pow2_strides[] = {
    {1, 1}, {2, 2}, {4, 4}, {8, 8}, {16, 16}, {32, 32},
};

START_TEST(test_stride_pow2)
{
    uint32_t a[32];
    strided(a, 0, 4 * pow2_strides[_i].stride_words);
    ck_assert_uint_eq(wavefronts(a, ALL, 4), pow2_strides[_i].expect);
}
END_TEST

/* an odd stride is coprime with 32: every lane lands in its own bank */
static const uint32_t odd_strides[] = {3, 33, 5, 31};

START_TEST(test_stride_odd)
{
    uint32_t a[32];
    strided(a, 64, 4 * odd_strides[_i]);
    ck_assert_uint_eq(wavefronts(a, ALL, 4), 1);
}
END_TEST

START_TEST(test_broadcast)
{
    uint32_t a[32];
    strided(a, 128, 0);
    ck_assert_uint_eq(wavefronts(a, ALL, 4), 1);
    /* two words in the same bank, each read by 16 lanes: 2, not 32 */
    for (unsigned i = 0; i < 32; i++) a[i] = (i & 1) ? 0 : 128;
    ck_assert_uint_eq(wavefronts(a, ALL, 4), 2);
}
END_TEST

/* tile[threadIdx.x][c]: the column read of a transpose */
START_TEST(test_transpose_column)
{
    uint32_t a[32];
    const uint32_t col = 5;
    for (unsigned i = 0; i < 32; i++) a[i] = (i * 32 + col) * 4; /* float tile[32][32] */
    ck_assert_uint_eq(wavefronts(a, ALL, 4), 32);
    for (unsigned i = 0; i < 32; i++) a[i] = (i * 33 + col) * 4; /* float tile[32][33] */
    ck_assert_uint_eq(wavefronts(a, ALL, 4), 1);
    /* the row read is conflict-free in both */
    strided(a, 7 * 33 * 4, 4);
    ck_assert_uint_eq(wavefronts(a, ALL, 4), 1);
}
END_TEST

START_TEST(test_wide_consecutive)
{
    uint32_t a[32];
    strided(a, 0, 8); /* float2: each half-warp sweeps all 32 banks once */
    ck_assert_uint_eq(wavefronts(a, ALL, 8), 2);
    strided(a, 0, 16); /* float4: each quarter-warp sweeps them once */
    ck_assert_uint_eq(wavefronts(a, ALL, 16), 4);
    /* float2 at a 16-byte stride: a half-warp asks 2 words of every bank */
    ck_assert_uint_eq(wavefronts(a, ALL, 8), 4);
    /* float4 at a 32-byte stride: a quarter-warp asks 2 words of 16 banks */
    strided(a, 0, 32);
    ck_assert_uint_eq(wavefronts(a, ALL, 16), 8);
}
END_TEST

START_TEST(test_bank_words)
{
    uint32_t a[32];
    SmemResult r;

    strided(a, 0, 4);
    smem_analyze(a, ALL, 4, 32, &r);
    for (unsigned b = 0; b < 32; b++) ck_assert_uint_eq(r.bank_words[b], 1);

    strided(a, 0, 8); /* stride 2 words: even banks get 2 words, odd banks none */
    smem_analyze(a, ALL, 4, 32, &r);
    ck_assert_uint_eq(r.wavefronts, 2);
    for (unsigned b = 0; b < 32; b++) ck_assert_uint_eq(r.bank_words[b], (b % 2) ? 0 : 2);

    strided(a, 0, 16); /* float4, 4 phases of 32 distinct words */
    smem_analyze(a, ALL, 16, 32, &r);
    for (unsigned b = 0; b < 32; b++) ck_assert_uint_eq(r.bank_words[b], 4);

    strided(a, 12, 0); /* broadcast: bank 3 asked once, in each phase for float2 */
    smem_analyze(a, ALL, 4, 32, &r);
    ck_assert_uint_eq(r.bank_words[3], 1);
    smem_analyze(a, ALL, 8, 32, &r);
    ck_assert_uint_eq(r.wavefronts, 2);
    ck_assert_uint_eq(r.bank_words[3], 2);
    ck_assert_uint_eq(r.bank_words[4], 2);
    ck_assert_uint_eq(r.bank_words[5], 0);
}
END_TEST

/* ---- Banks: 16 and 64 ---- */

static uint32_t wavefronts_b(const uint32_t addr[32], uint32_t mask, unsigned width, unsigned banks)
{
    SmemResult r;
    smem_analyze(addr, mask, width, banks, &r);
    return r.wavefronts;
}

/* lanes at a stride, one access width, on each bank count: with 16 banks a
** phase is a half-warp of 4-byte lanes (64 bytes per pass), with 64 banks
** a whole warp of 8-byte lanes (256 bytes per pass) */
static const struct { unsigned banks, stride_bytes, width, expect; } bank_cases[] = {
    {16, 4, 4, 2},    /* consecutive floats: one pass per half-warp               */
    {16, 8, 4, 4},    /* stride 2 words: 2 words per even bank in each half-warp   */
    {16, 64, 4, 32},  /* stride 16 words: the 16 lanes of a phase in one bank      */
    {16, 68, 4, 2},   /* stride 17 words: odd, one bank each                       */
    {16, 8, 8, 4},    /* float2: phases of 8 lanes                                 */
    {16, 16, 16, 8},  /* float4: phases of 4 lanes                                 */
    {32, 4, 4, 1},
    {32, 8, 8, 2},
    {64, 4, 4, 1},
    {64, 8, 4, 1},    /* stride 2 words: 32 distinct banks of 64, no conflict      */
    {64, 128, 4, 16}, /* stride 32 words: banks 0 and 32, 16 words each            */
    {64, 256, 4, 32}, /* stride 64 words: all in bank 0                            */
    {64, 8, 8, 1},    /* float2: one phase of 32 lanes sweeps all 64 banks once    */
    {64, 16, 16, 2},  /* float4: two phases of 16 lanes                            */
    {64, 16, 8, 2},   /* float2 at a 16-byte stride: 2 words per even-pair bank    */
};

START_TEST(test_bank_counts)
{
    uint32_t a[32];
    strided(a, 0, bank_cases[_i].stride_bytes);
    ck_assert_uint_eq(wavefronts_b(a, ALL, bank_cases[_i].width, bank_cases[_i].banks), bank_cases[_i].expect);
}
END_TEST

START_TEST(test_bank_counts_transpose)
{
    /* the transpose's column read: 32 floats at a 32-word stride */
    uint32_t a[32];
    for (unsigned i = 0; i < 32; i++) a[i] = (i * 32 + 5) * 4;
    ck_assert_uint_eq(wavefronts_b(a, ALL, 4, 16), 32); /* 16 per half-warp, one bank   */
    ck_assert_uint_eq(wavefronts_b(a, ALL, 4, 64), 16); /* two banks of 16 words each   */
    /* padded to 33: conflict-free on every bank count */
    for (unsigned i = 0; i < 32; i++) a[i] = (i * 33 + 5) * 4;
    ck_assert_uint_eq(wavefronts_b(a, ALL, 4, 16), 2);
    ck_assert_uint_eq(wavefronts_b(a, ALL, 4, 64), 1);
}
END_TEST

START_TEST(test_bank_counts_words)
{
    uint32_t a[32];
    SmemResult r;
    strided(a, 0, 4);
    memset(&r, 0xAB, sizeof r);
    smem_analyze(a, ALL, 4, 16, &r); /* two phases, each word of bank b once */
    for (unsigned b = 0; b < 16; b++) ck_assert_uint_eq(r.bank_words[b], 2);
    ck_assert_uint_eq(r.bank_words[16], 0xABABABABu); /* only [0, banks) is written */
    smem_analyze(a, ALL, 4, 64, &r); /* banks 0..31 once, 32..63 idle */
    for (unsigned b = 0; b < SMEM_MAX_BANKS; b++) ck_assert_uint_eq(r.bank_words[b], b < 32 ? 1 : 0);
    strided(a, 0, 16); /* float4 on 64 banks: two phases of 64 words */
    smem_analyze(a, ALL, 16, 64, &r);
    ck_assert_uint_eq(r.wavefronts, 2);
    for (unsigned b = 0; b < SMEM_MAX_BANKS; b++) ck_assert_uint_eq(r.bank_words[b], 2);
    /* a broadcast costs one pass per active phase */
    strided(a, 12, 0);
    ck_assert_uint_eq(wavefronts_b(a, ALL, 4, 16), 2);
    ck_assert_uint_eq(wavefronts_b(a, 0x0000FFFFu, 4, 16), 1);
    ck_assert_uint_eq(wavefronts_b(a, ALL, 4, 64), 1);
    ck_assert(smem_banks_valid(16) && smem_banks_valid(32) && smem_banks_valid(64));
    ck_assert(!smem_banks_valid(0) && !smem_banks_valid(8) && !smem_banks_valid(48) && !smem_banks_valid(128));
}
END_TEST

/* the word sets grow with the bank count: a 64-word phase of 64 banks
** whose words all collide in pairs needs the 128-slot set */
START_TEST(test_bank_counts_full_phase)
{
    uint32_t a[32];
    strided(a, 0, 128); /* float2 lanes 32 words apart: banks 0,1 and 32,33 */
    SmemResult r;
    smem_analyze(a, ALL, 8, 64, &r);
    ck_assert_uint_eq(r.wavefronts, 16);
    ck_assert_uint_eq(r.bank_words[0] + r.bank_words[1] + r.bank_words[32] + r.bank_words[33], 64);
}
END_TEST

/* ---- Edge ---- */

START_TEST(test_mask_zero)
{
    uint32_t a[32];
    SmemResult r;
    strided(a, 0, 128);
    for (unsigned w = 4; w <= 16; w *= 2) {
        smem_analyze(a, 0, w, 32, &r);
        ck_assert_uint_eq(r.wavefronts, 0);
        for (unsigned b = 0; b < 32; b++) ck_assert_uint_eq(r.bank_words[b], 0);
    }
}
END_TEST

START_TEST(test_partial_masks)
{
    uint32_t a[32];
    strided(a, 0, 128); /* all lanes in bank 0, distinct words */
    ck_assert_uint_eq(wavefronts(a, 0x1u, 4), 1);
    ck_assert_uint_eq(wavefronts(a, 0x80000001u, 4), 2);
    ck_assert_uint_eq(wavefronts(a, 0x0000FFFFu, 4), 16);
    ck_assert_uint_eq(wavefronts(a, 0x55555555u, 4), 16);
    /* inactive lanes' addresses are ignored, whatever they hold */
    strided(a, 0, 4);
    a[3] = 0; a[7] = 128;
    ck_assert_uint_eq(wavefronts(a, ~((1u << 3) | (1u << 7)), 4), 1);
}
END_TEST

START_TEST(test_inactive_phases)
{
    uint32_t a[32];
    strided(a, 0, 8);
    ck_assert_uint_eq(wavefronts(a, 0x0000FFFFu, 8), 1);  /* second half-warp idle */
    ck_assert_uint_eq(wavefronts(a, 0xFFFF0000u, 8), 1);  /* first half-warp idle */
    ck_assert_uint_eq(wavefronts(a, 0x00010001u, 8), 2);  /* one lane in each */
    strided(a, 0, 16);
    ck_assert_uint_eq(wavefronts(a, 0x000000FFu, 16), 1);
    ck_assert_uint_eq(wavefronts(a, 0x01010101u, 16), 4);
    ck_assert_uint_eq(wavefronts(a, 0x00FF0000u, 16), 1);
    ck_assert_uint_eq(wavefronts(a, 0x00000001u, 16), 1);
}
END_TEST

START_TEST(test_phase_boundaries)
{
    /* conflicts between lanes of different phases cost nothing extra:
    ** lanes 0 and 16 in the same bank, different words */
    uint32_t a[32];
    strided(a, 0, 8);
    a[16] = 1024; /* words 256, 257: banks 0 and 1, like lane 0 */
    ck_assert_uint_eq(wavefronts(a, ALL, 8), 2);
    /* ... but within a phase they do */
    a[16] = 16 * 8;
    a[1] = 1024;
    ck_assert_uint_eq(wavefronts(a, ALL, 8), 3);
}
END_TEST

START_TEST(test_large_addresses)
{
    /* the bank is (addr / 4) % 32 over the whole 32-bit range */
    uint32_t a[32];
    strided(a, 0xFFFFFF00u - 31 * 4, 4);
    ck_assert_uint_eq(wavefronts(a, ALL, 4), 1);
    strided(a, 0x80000000u, 4 * 64);
    ck_assert_uint_eq(wavefronts(a, ALL, 4), 32);
}
END_TEST

static Suite *smem_suite(void)
{
    Suite *s = suite_create("smem");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_stride_pow2, 0, (int)(sizeof pow2_strides / sizeof pow2_strides[0]));
    tcase_add_loop_test(core, test_stride_odd, 0, (int)(sizeof odd_strides / sizeof odd_strides[0]));
    tcase_add_test(core, test_broadcast);
    tcase_add_test(core, test_transpose_column);
    tcase_add_test(core, test_wide_consecutive);
    tcase_add_test(core, test_bank_words);
    suite_add_tcase(s, core);

    TCase *banks = tcase_create("Banks");
    tcase_add_loop_test(banks, test_bank_counts, 0, (int)(sizeof bank_cases / sizeof bank_cases[0]));
    tcase_add_test(banks, test_bank_counts_transpose);
    tcase_add_test(banks, test_bank_counts_words);
    tcase_add_test(banks, test_bank_counts_full_phase);
    suite_add_tcase(s, banks);

    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_mask_zero);
    tcase_add_test(edge, test_partial_masks);
    tcase_add_test(edge, test_inactive_phases);
    tcase_add_test(edge, test_phase_boundaries);
    tcase_add_test(edge, test_large_addresses);
    suite_add_tcase(s, edge);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(smem_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

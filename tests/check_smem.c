/* tests/check_smem.c -- shared-memory bank conflict model (sim/smem.h):
** the 32 banks of every NVIDIA part, and the 16 and 64 of smem.banks. */
#include "sim/smem.h"

#include <check.h>
#include <stdbool.h>
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
    smem_analyze(addr, mask, width, SMEM_WRITE, 32, &r);
    return r.wavefronts;
}

/* ---- Against the H200 (validate/probes/smem.cu, smem.h200.txt) ---- */

/* The probe's lane patterns (byte offset of lane l for a w-byte access) and
** the cycles per warp instruction it measured at full occupancy, where the
** pipe serves one wavefront per cycle: the wavefront count to expect. */
static uint32_t pat_off(int pat, uint32_t l, uint32_t w)
{
    switch (pat) {
    case 0: return l * w;            /* s1 */
    case 1: return l * w * 2;        /* s2 */
    case 2: return l * w * 4;        /* s4 */
    case 3: return l * w * 8;        /* s8 */
    case 4: return l * w * 16;       /* s16 */
    case 5: return l * w * 32;       /* s32 */
    case 6: return 0;                /* bcast */
    case 7: return l < 16 ? 0 : 128; /* two_rows */
    case 8: return 8 * (l % 16);     /* halves_same */
    case 9: return 8 * (l % 16) + 256 * (l / 16);   /* halves_conf */
    case 10: return 8 * (l / 2) + 256 * (l % 2);    /* evenodd */
    case 11: return 16 * (l % 8);                   /* quarters_same */
    case 12: return 16 * (l % 8) + 1024 * (l / 8);  /* quarters_conf */
    case 13: return 16 * (l / 4) + 1024 * (l % 4);  /* mod4 */
    default: return 16 * (l % 16);                  /* halves_same, 16 B */
    }
}

static const struct { bool load; uint32_t width; int pat; uint32_t measured; } h200_tput[] = {
    {true, 4, 0, 1},   {true, 4, 1, 2},   {true, 4, 2, 4},   {true, 4, 3, 8},    {true, 4, 4, 16},
    {true, 4, 5, 32},  {true, 4, 6, 1},   {true, 4, 7, 2},   {true, 8, 0, 2},    {true, 8, 1, 4},
    {true, 8, 2, 8},   {true, 8, 3, 16},  {true, 8, 4, 32},  {true, 8, 5, 32},   {true, 8, 6, 1},
    {true, 8, 8, 2},   {true, 8, 9, 2},   {true, 8, 10, 4},  {true, 16, 0, 4},   {true, 16, 1, 8},
    {true, 16, 2, 16}, {true, 16, 3, 32}, {true, 16, 4, 32}, {true, 16, 5, 32},  {true, 16, 6, 2},
    {true, 16, 11, 4}, {true, 16, 12, 4}, {true, 16, 13, 16}, {true, 16, 14, 4}, {false, 4, 0, 1},
    {false, 4, 1, 2},  {false, 4, 5, 32}, {false, 4, 6, 1},  {false, 8, 0, 2},   {false, 16, 0, 4},
    {false, 16, 6, 4}, {false, 16, 1, 8},
};

START_TEST(test_h200_patterns)
{
    uint32_t a[32];
    for (uint32_t l = 0; l < 32; l++) a[l] = 4096 + pat_off(h200_tput[_i].pat, l, h200_tput[_i].width);
    SmemResult r;
    smem_analyze(a, ALL, h200_tput[_i].width, h200_tput[_i].load ? SMEM_READ : SMEM_WRITE, 32, &r);
    ck_assert_msg(r.wavefronts == h200_tput[_i].measured, "%s %u B pattern %d: %u wavefronts, H200 %u",
                  h200_tput[_i].load ? "ld" : "st", h200_tput[_i].width, h200_tput[_i].pat, r.wavefronts,
                  h200_tput[_i].measured);
}
END_TEST

/* A broadcast load is one 8-byte pass a wavefront; its phases as served. */
START_TEST(test_wide_broadcast_phases)
{
    uint32_t a[32];
    strided(a, 64, 0); /* word 16: banks 16-19 */
    SmemResult r;
    smem_analyze(a, 0x0000FF00u, 16, SMEM_READ, 32, &r); /* some lanes only: still one address */
    ck_assert_uint_eq(r.wavefronts, 2);
    ck_assert_uint_eq(r.phases, 2);
    for (unsigned b = 0; b < 32; b++) ck_assert_uint_eq(r.bank_words[b], b >= 16 && b < 20);
    strided(a, 0, 16);
    smem_analyze(a, ALL, 16, SMEM_READ, 32, &r);
    ck_assert_uint_eq(r.wavefronts, 4);
    ck_assert_uint_eq(r.phases, 4);
    smem_analyze(a, 0x000000FFu, 16, SMEM_READ, 32, &r); /* one quarter-warp active */
    ck_assert_uint_eq(r.phases, 1);
}
END_TEST

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

/* Bytes and half-words: a lane's access is the word that holds it. 32
** consecutive bytes are 8 words in 8 banks (1 wavefront); bytes 128 apart
** are one bank's 32 words (32); lanes on the 4 bytes of one word share it.
** (A 1- or 2-byte access once divided by width / 4 = 0: a crash.) */
START_TEST(test_sub_word)
{
    uint32_t a[32];
    for (unsigned width = 1; width <= 2; width++) {
        strided(a, 0, width);
        ck_assert_uint_eq(wavefronts(a, ALL, width), 1);
        strided(a, 0, 128);
        ck_assert_uint_eq(wavefronts(a, ALL, width), 32);
        for (unsigned i = 0; i < 32; i++) a[i] = 64 + (i % 4) / width * width;
        ck_assert_uint_eq(wavefronts(a, ALL, width), 1);
    }
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
    smem_analyze(a, ALL, 4, SMEM_WRITE, 32, &r);
    for (unsigned b = 0; b < 32; b++) ck_assert_uint_eq(r.bank_words[b], 1);

    strided(a, 0, 8); /* stride 2 words: even banks get 2 words, odd banks none */
    smem_analyze(a, ALL, 4, SMEM_WRITE, 32, &r);
    ck_assert_uint_eq(r.wavefronts, 2);
    for (unsigned b = 0; b < 32; b++) ck_assert_uint_eq(r.bank_words[b], (b % 2) ? 0 : 2);

    strided(a, 0, 16); /* float4, 4 phases of 32 distinct words */
    smem_analyze(a, ALL, 16, SMEM_WRITE, 32, &r);
    for (unsigned b = 0; b < 32; b++) ck_assert_uint_eq(r.bank_words[b], 4);

    strided(a, 12, 0); /* broadcast: bank 3 asked once, in each phase for float2 */
    smem_analyze(a, ALL, 4, SMEM_WRITE, 32, &r);
    ck_assert_uint_eq(r.bank_words[3], 1);
    smem_analyze(a, ALL, 8, SMEM_WRITE, 32, &r);
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
    smem_analyze(addr, mask, width, SMEM_WRITE, banks, &r);
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
    smem_analyze(a, ALL, 4, SMEM_WRITE, 16, &r); /* two phases, each word of bank b once */
    for (unsigned b = 0; b < 16; b++) ck_assert_uint_eq(r.bank_words[b], 2);
    ck_assert_uint_eq(r.bank_words[16], 0xABABABABu); /* only [0, banks) is written */
    smem_analyze(a, ALL, 4, SMEM_WRITE, 64, &r); /* banks 0..31 once, 32..63 idle */
    for (unsigned b = 0; b < SMEM_MAX_BANKS; b++) ck_assert_uint_eq(r.bank_words[b], b < 32 ? 1 : 0);
    strided(a, 0, 16); /* float4 on 64 banks: two phases of 64 words */
    smem_analyze(a, ALL, 16, SMEM_WRITE, 64, &r);
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
    smem_analyze(a, ALL, 8, SMEM_WRITE, 64, &r);
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
        smem_analyze(a, 0, w, SMEM_WRITE, 32, &r);
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

/* ---- Against a reference: the model's definition, counted the slow way ---- */

/* smem.h's model as written: per phase, each bank's distinct words; a load
** of one address by every active lane, wider than a word, merged. */
static void reference(const uint32_t addr[32], uint32_t mask, unsigned width, SmemOp op, unsigned banks,
                      SmemResult *r)
{
    memset(r, 0, sizeof *r);
    if (!mask) return;
    unsigned w = width < 4 ? 4 : width, wpl = w / 4;
    unsigned first = (unsigned)__builtin_ctz(mask);
    bool uniform = true;
    for (unsigned l = 0; l < 32; l++) uniform = uniform && (!(mask >> l & 1) || addr[l] == addr[first]);
    if (op == SMEM_READ && w > 4 && uniform) {
        for (unsigned k = 0; k < wpl; k++) r->bank_words[(addr[first] / 4 + k) % banks]++;
        r->wavefronts = r->phases = w / 8;
        return;
    }
    unsigned lanes = banks / wpl < 32 ? banks / wpl : 32;
    for (unsigned p = 0; p < 32 / lanes; p++) {
        uint32_t words[128];
        unsigned n = 0;
        for (unsigned l = p * lanes; l < (p + 1) * lanes; l++)
            if (mask >> l & 1)
                for (unsigned k = 0; k < wpl; k++) {
                    uint32_t word = addr[l] / 4 + k;
                    bool seen = false;
                    for (unsigned j = 0; j < n; j++) seen = seen || words[j] == word;
                    if (!seen) words[n++] = word;
                }
        if (!n) continue;
        unsigned worst = 0;
        for (unsigned b = 0; b < banks; b++) {
            unsigned c = 0;
            for (unsigned j = 0; j < n; j++) c += words[j] % banks == b;
            r->bank_words[b] += c;
            if (c > worst) worst = c;
        }
        r->wavefronts += worst;
        r->phases++;
    }
}

/* Every width, bank count, op and a mix of patterns (consecutive lanes from
** any start, one address, strides, random words, partial masks): the same
** wavefronts, phases and per-bank words as the reference (the fast paths
** for consecutive lanes and for one address among them). */
START_TEST(test_against_reference)
{
    static const unsigned widths[] = { 1, 2, 4, 8, 16 }, bank_counts[] = { 16, 32, 64 };
    unsigned seed = 12345;
    for (unsigned i = 0; i < 20000; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned width = widths[(seed >> 8) % 5], banks = bank_counts[(seed >> 12) % 3], pat = (seed >> 16) % 8;
        SmemOp op = (seed >> 20) & 1 ? SMEM_READ : SMEM_WRITE;
        uint32_t mask = pat >= 5 ? (seed * 2654435761u) | 1u : ALL, base = ((seed >> 3) % 4096) / width * width, a[32];
        if (pat == 7) mask = ALL;
        for (unsigned l = 0; l < 32; l++) {
            seed = seed * 1103515245u + 12345u;
            a[l] = pat == 0 || pat == 5 ? base + l * width                              /* consecutive */
                 : pat == 1 ? base                                                       /* one address */
                 : pat == 2 ? base + l * width * (1u + (i % 7))                          /* a stride */
                 : pat == 3 ? ((seed >> 8) % 512) / width * width                        /* random */
                 : pat == 4 ? base + (l % 3 == 0 ? 0 : l * width)                        /* mostly consecutive */
                            : base / 4 * 4 + (l * width) % 4;                            /* bytes of one word */
        }
        SmemResult got, want;
        smem_analyze(a, mask, width, op, banks, &got);
        reference(a, mask, width, op, banks, &want);
        ck_assert_msg(got.wavefronts == want.wavefronts && got.phases == want.phases,
                      "case %u (width %u, banks %u, pattern %u, op %d): %u wavefronts %u phases, want %u and %u", i,
                      width, banks, pat, op, got.wavefronts, got.phases, want.wavefronts, want.phases);
        for (unsigned b = 0; b < banks; b++)
            ck_assert_msg(got.bank_words[b] == want.bank_words[b], "case %u bank %u: %u words, want %u", i, b,
                          got.bank_words[b], want.bank_words[b]);
    }
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
    tcase_add_loop_test(core, test_h200_patterns, 0, (int)(sizeof h200_tput / sizeof h200_tput[0]));
    tcase_add_test(core, test_wide_broadcast_phases);
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
    tcase_add_test(edge, test_against_reference);
    tcase_add_test(edge, test_sub_word);
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

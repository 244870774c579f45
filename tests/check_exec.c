/* tests/check_exec.c -- lane semantics (isa/exec.h): every opcode against C
** reference values over edge-value inputs, predication, partial warps,
** special registers, global and shared memory incl. vector forms
** (check_exec_control: atomics, shuffles, ballots, faults and the SIMT
** stack). Each test drives one warp with exec_step on a small ExecBlock
** (tests/exec_rig.h).                                                     */
#include "isa/exec.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/exec_rig.h"

/* ------------------------------------------------ C reference functions */

typedef uint32_t (*RefFn)(uint32_t a, uint32_t b, uint32_t c);

static uint32_t r_add(uint32_t a, uint32_t b, uint32_t c) { (void)c; return a + b; }
static uint32_t r_sub(uint32_t a, uint32_t b, uint32_t c) { (void)c; return a - b; }
static uint32_t r_mul_lo(uint32_t a, uint32_t b, uint32_t c) { (void)c; return (uint32_t)((uint64_t)a * b); }
static uint32_t r_mul_hi_s(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    int64_t p = (int64_t)I(a) * (int64_t)I(b);
    return (uint32_t)((uint64_t)p >> 32);
}
static uint32_t r_mul_hi_u(uint32_t a, uint32_t b, uint32_t c) { (void)c; return (uint32_t)(((uint64_t)a * b) >> 32); }
static uint32_t r_mad_lo(uint32_t a, uint32_t b, uint32_t c) { return (uint32_t)((uint64_t)a * b + c); }
static uint32_t r_div_s(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    if (b == 0) return 0xffffffffu;                     /* -1 */
    if (a == 0x80000000u && b == 0xffffffffu) return a; /* INT_MIN / -1 wraps */
    return (uint32_t)(int32_t)((int64_t)I(a) / I(b));
}
static uint32_t r_div_u(uint32_t a, uint32_t b, uint32_t c) { (void)c; return b ? a / b : 0xffffffffu; }
static uint32_t r_rem_s(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    if (b == 0) return a;
    return (uint32_t)(int32_t)((int64_t)I(a) % (int64_t)I(b)); /* 64-bit: INT_MIN % -1 = 0 */
}
static uint32_t r_rem_u(uint32_t a, uint32_t b, uint32_t c) { (void)c; return b ? a % b : a; }
static uint32_t r_min_s(uint32_t a, uint32_t b, uint32_t c) { (void)c; return I(a) < I(b) ? a : b; }
static uint32_t r_min_u(uint32_t a, uint32_t b, uint32_t c) { (void)c; return a < b ? a : b; }
static uint32_t r_max_s(uint32_t a, uint32_t b, uint32_t c) { (void)c; return I(a) > I(b) ? a : b; }
static uint32_t r_max_u(uint32_t a, uint32_t b, uint32_t c) { (void)c; return a > b ? a : b; }
static uint32_t r_abs_s(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b, (void)c;
    int64_t v = I(a);
    return (uint32_t)(v < 0 ? -v : v); /* |INT_MIN| = 2^31 wraps to INT_MIN */
}
static uint32_t r_neg_s(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return (uint32_t)(-(int64_t)I(a)); }
static uint32_t r_and(uint32_t a, uint32_t b, uint32_t c) { (void)c; return a & b; }
static uint32_t r_or(uint32_t a, uint32_t b, uint32_t c) { (void)c; return a | b; }
static uint32_t r_xor(uint32_t a, uint32_t b, uint32_t c) { (void)c; return a ^ b; }
static uint32_t r_not(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return ~a; }
static uint32_t r_shl(uint32_t a, uint32_t b, uint32_t c) { (void)c; return b >= 32 ? 0 : (uint32_t)((uint64_t)a << b); }
static uint32_t r_shr_u(uint32_t a, uint32_t b, uint32_t c) { (void)c; return b >= 32 ? 0 : a >> b; }
static uint32_t r_shr_s(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    int64_t v = I(a), d = (int64_t)1 << (b >= 32 ? 32 : b);
    int64_t q = v / d - (v < 0 && v % d != 0); /* floor(a / 2^b) */
    return (uint32_t)(int32_t)q;
}
static uint32_t r_popc(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b, (void)c;
    uint32_t n = 0;
    for (; a; a >>= 1) n += a & 1;
    return n;
}
static uint32_t r_clz(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b, (void)c;
    uint32_t n = 0;
    for (uint32_t bit = 0x80000000u; bit && !(a & bit); bit >>= 1) n++;
    return n;
}
static uint32_t r_mov(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return a; }

static uint32_t r_fadd(uint32_t a, uint32_t b, uint32_t c) { (void)c; return f2u(F(a) + F(b)); }
static uint32_t r_fsub(uint32_t a, uint32_t b, uint32_t c) { (void)c; return f2u(F(a) - F(b)); }
static uint32_t r_fmul(uint32_t a, uint32_t b, uint32_t c) { (void)c; return f2u(F(a) * F(b)); }
static uint32_t r_fdiv(uint32_t a, uint32_t b, uint32_t c) { (void)c; return f2u(F(a) / F(b)); }
static uint32_t r_ffma(uint32_t a, uint32_t b, uint32_t c) { return f2u(fmaf(F(a), F(b), F(c))); }
static uint32_t r_fmin(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    if (isnan(F(a))) return b;
    if (isnan(F(b))) return a;
    return F(b) < F(a) ? b : a;
}
static uint32_t r_fmax(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    if (isnan(F(a))) return b;
    if (isnan(F(b))) return a;
    return F(b) > F(a) ? b : a;
}
static uint32_t r_fabs(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return a & 0x7fffffffu; }
static uint32_t r_fneg(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return a ^ 0x80000000u; }
/* SFU references in double precision, rounded once to float. */
static uint32_t r_rcp(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return f2u((float)(1.0 / F(a))); }
static uint32_t r_sqrt(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return f2u((float)sqrt(F(a))); }
static uint32_t r_rsqrt(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return f2u((float)(1.0 / sqrt(F(a)))); }
static uint32_t r_ex2(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return f2u((float)exp2(F(a))); }
static uint32_t r_lg2(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return f2u((float)log2(F(a))); }
static uint32_t r_sin(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return f2u((float)sin(F(a))); }
static uint32_t r_cos(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return f2u((float)cos(F(a))); }

static uint32_t r_cvt_f_s(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return f2u((float)(double)I(a)); }
static uint32_t r_cvt_f_u(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return f2u((float)(double)a); }
static uint32_t sat_s32(double t)
{
    if (t != t) return 0;
    if (t >= 2147483647.0) return 0x7fffffffu;
    if (t <= -2147483648.0) return 0x80000000u;
    return (uint32_t)(int32_t)t;
}
static uint32_t r_cvt_rzi_s(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return sat_s32(trunc(F(a))); }
static uint32_t r_cvt_rni_s(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b, (void)c;
    double x = F(a), fl = floor(x), diff = x - fl;
    double t = diff > 0.5 ? fl + 1 : diff < 0.5 ? fl : (fmod(fl, 2.0) == 0 ? fl : fl + 1); /* half to even */
    return sat_s32(x != x ? x : t);
}
static uint32_t r_cvt_rzi_u(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b, (void)c;
    double t = trunc(F(a));
    if (t != t || t <= 0) return 0;
    if (t >= 4294967295.0) return 0xffffffffu;
    return (uint32_t)t;
}

/* ------------------------------------------------------------- Lane ops */

/* Edge values: zero, small, sign boundaries, shift boundaries, patterns. */
static const uint32_t INT_POOL[] = {
    0, 1, 2, 3, 7, 31, 32, 33, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu, 0xfffffffeu, 0xfffffff9u,
    12345678, 0x55555555u, 0x10000u,
};
/* Signed zeros, halves for rounding, range limits of float->int, infinities,
** NaN, subnormals, the largest and smallest normals, 2^24 + 1. */
static const uint32_t FLOAT_POOL[] = {
    0x00000000u, 0x80000000u, 0x3f800000u /* 1 */, 0xbf800000u /* -1 */, 0x3f000000u /* 0.5 */,
    0x3fc00000u /* 1.5 */, 0x40200000u /* 2.5 */, 0xc0200000u /* -2.5 */, 0x40600000u /* 3.5 */,
    0xbf666666u /* -0.9 */, 0x3dcccccdu /* 0.1 */, 0x501502f9u /* 1e10 */, 0xd01502f9u /* -1e10 */,
    0x7f7fffffu /* FLT_MAX */, 0x00800000u /* FLT_MIN */, 0x00000001u /* smallest subnormal */,
    0x7f800000u /* inf */, 0xff800000u /* -inf */, 0x7fc00000u /* NaN */, 0x4f000000u /* 2^31 */,
    0xcf000000u /* -2^31 */, 0x4f800000u /* 2^32 */, 0x4b800001u /* 2^24 + 2 */, 0x40490fdbu /* pi */,
};

/* How a lane result is compared with the reference: bit for bit; bit for bit
** but any NaN matches any NaN; the same, and +0 matches -0 (min/max may
** return either zero); within 2 ulp (SFU approximations). */
typedef enum { CMP_EXACT, CMP_FLOAT, CMP_MINMAX, CMP_ULP } Compare;

static const struct {
    const char *mn;
    int         nsrc;
    bool        float_in;
    RefFn       ref;
    Compare     cmp;
} lane_ops[] = {
    { "add.s32", 2, false, r_add, CMP_EXACT },          { "add.u32", 2, false, r_add, CMP_EXACT },
    { "sub.s32", 2, false, r_sub, CMP_EXACT },          { "sub.u32", 2, false, r_sub, CMP_EXACT },
    { "mul.lo.s32", 2, false, r_mul_lo, CMP_EXACT },    { "mul.lo.u32", 2, false, r_mul_lo, CMP_EXACT },
    { "mul.hi.s32", 2, false, r_mul_hi_s, CMP_EXACT },  { "mul.hi.u32", 2, false, r_mul_hi_u, CMP_EXACT },
    { "mad.lo.s32", 3, false, r_mad_lo, CMP_EXACT },    { "mad.lo.u32", 3, false, r_mad_lo, CMP_EXACT },
    { "div.s32", 2, false, r_div_s, CMP_EXACT },        { "div.u32", 2, false, r_div_u, CMP_EXACT },
    { "rem.s32", 2, false, r_rem_s, CMP_EXACT },        { "rem.u32", 2, false, r_rem_u, CMP_EXACT },
    { "min.s32", 2, false, r_min_s, CMP_EXACT },        { "min.u32", 2, false, r_min_u, CMP_EXACT },
    { "max.s32", 2, false, r_max_s, CMP_EXACT },        { "max.u32", 2, false, r_max_u, CMP_EXACT },
    { "abs.s32", 1, false, r_abs_s, CMP_EXACT },        { "neg.s32", 1, false, r_neg_s, CMP_EXACT },
    { "and.b32", 2, false, r_and, CMP_EXACT },          { "or.b32", 2, false, r_or, CMP_EXACT },
    { "xor.b32", 2, false, r_xor, CMP_EXACT },          { "not.b32", 1, false, r_not, CMP_EXACT },
    { "shl.b32", 2, false, r_shl, CMP_EXACT },          { "shr.u32", 2, false, r_shr_u, CMP_EXACT },
    { "shr.s32", 2, false, r_shr_s, CMP_EXACT },        { "popc.b32", 1, false, r_popc, CMP_EXACT },
    { "clz.b32", 1, false, r_clz, CMP_EXACT },          { "mov.b32", 1, false, r_mov, CMP_EXACT },
    { "mov.f32", 1, true, r_mov, CMP_EXACT },
    { "add.f32", 2, true, r_fadd, CMP_FLOAT },          { "sub.f32", 2, true, r_fsub, CMP_FLOAT },
    { "mul.f32", 2, true, r_fmul, CMP_FLOAT },          { "fma.rn.f32", 3, true, r_ffma, CMP_FLOAT },
    { "mad.f32", 3, true, r_ffma, CMP_FLOAT },          { "min.f32", 2, true, r_fmin, CMP_MINMAX },
    { "max.f32", 2, true, r_fmax, CMP_MINMAX },          { "abs.f32", 1, true, r_fabs, CMP_EXACT },
    { "neg.f32", 1, true, r_fneg, CMP_EXACT },          { "div.rn.f32", 2, true, r_fdiv, CMP_FLOAT },
    { "rcp.approx.f32", 1, true, r_rcp, CMP_ULP },      { "sqrt.approx.f32", 1, true, r_sqrt, CMP_ULP },
    { "rsqrt.approx.f32", 1, true, r_rsqrt, CMP_ULP },  { "ex2.approx.f32", 1, true, r_ex2, CMP_ULP },
    { "lg2.approx.f32", 1, true, r_lg2, CMP_ULP },      { "sin.approx.f32", 1, true, r_sin, CMP_ULP },
    { "cos.approx.f32", 1, true, r_cos, CMP_ULP },
    { "cvt.rn.f32.s32", 1, false, r_cvt_f_s, CMP_EXACT }, { "cvt.rn.f32.u32", 1, false, r_cvt_f_u, CMP_EXACT },
    { "cvt.rzi.s32.f32", 1, true, r_cvt_rzi_s, CMP_EXACT }, { "cvt.rzi.u32.f32", 1, true, r_cvt_rzi_u, CMP_EXACT },
    { "cvt.rni.s32.f32", 1, true, r_cvt_rni_s, CMP_EXACT },
};
#define N_LANE_OPS (sizeof lane_ops / sizeof lane_ops[0])

/* Ordered distance in ulps between two finite floats of one sign class. */
static uint64_t ulp_distance(uint32_t a, uint32_t b)
{
    int64_t ia = (a & 0x80000000u) ? -(int64_t)(a & 0x7fffffffu) : (int64_t)a;
    int64_t ib = (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
    return (uint64_t)(ia > ib ? ia - ib : ib - ia);
}

static bool lane_matches(Compare cmp, uint32_t got, uint32_t want)
{
    if (got == want) return true;
    if (cmp == CMP_EXACT) return false;
    float g = u2f(got), w = u2f(want);
    if (isnan(w) || isnan(g)) return isnan(w) && isnan(g); /* any NaN encoding */
    if (cmp == CMP_FLOAT) return false;
    if (cmp == CMP_MINMAX) return g == 0 && w == 0;
    if (isinf(w) || isinf(g)) return false;
    return ulp_distance(got, want) <= 2; /* SFU: the C library, within 2 ulp of the double result */
}

/* Runs `text` (one instruction reading %r1..%r3 into %r0) for every
** combination of pool values, 32 lanes at a time, and checks each lane. */
static void check_lane_op(uint32_t op_i, const char *text, const uint32_t *pool, uint32_t n, const uint32_t *imm)
{
    char src[256];
    snprintf(src, sizeof src, ".kernel t\n    %s\n    exit\n", text);
    Rig *r = rig_new(src, 32, 0);
    ck_assert_uint_eq(r->b.kernel->ncode, 2);
    int nsrc = lane_ops[op_i].nsrc;
    uint32_t combos = n;
    for (int s = 1; s < nsrc; s++) combos *= n;
    if (combos > 32 * 64) combos = 32 * 64; /* three-source ops: a spread sample */
    for (uint32_t base = 0; base < combos; base += WARP_SIZE) {
        uint32_t a[WARP_SIZE], b[WARP_SIZE], c[WARP_SIZE];
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            uint32_t idx = (base + l) % combos, k = idx * (nsrc == 3 ? 7919u : 1u);
            a[l] = pool[k % n];
            b[l] = imm ? *imm : pool[(k / n) % n];
            c[l] = pool[(k / n / n + idx) % n];
            r->regs[1][l] = a[l], r->regs[2][l] = b[l], r->regs[3][l] = c[l];
            r->regs[0][l] = 0xdeadbeefu;
        }
        rig_restart(r);
        rig_step(r);
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            uint32_t want = lane_ops[op_i].ref(a[l], b[l], c[l]), got = r->regs[0][l];
            if (!lane_matches(lane_ops[op_i].cmp, got, want))
                ck_abort_msg("%s: a=0x%08x b=0x%08x c=0x%08x gives 0x%08x, expected 0x%08x", text, a[l], b[l], c[l],
                             got, want);
        }
    }
    rig_free(r);
}

START_TEST(test_lane_ops)
{
    const char *mn = lane_ops[_i].mn;
    const uint32_t *pool = lane_ops[_i].float_in ? FLOAT_POOL : INT_POOL;
    uint32_t n = lane_ops[_i].float_in ? (uint32_t)(sizeof FLOAT_POOL / 4) : (uint32_t)(sizeof INT_POOL / 4);
    char text[128];
    static const char *const regs[] = { "", "%r1", "%r1, %r2", "%r1, %r2, %r3" };
    snprintf(text, sizeof text, "%s %%r0, %s", mn, regs[lane_ops[_i].nsrc]);
    check_lane_op((uint32_t)_i, text, pool, n, NULL);
    /* the second source as an immediate: raw float bits or hex integers */
    if (lane_ops[_i].nsrc >= 2)
        for (uint32_t j = 0; j < n; j += 5) {
            snprintf(text, sizeof text, "%s %%r0, %%r1, %s0%s%08X%s", mn, "", lane_ops[_i].float_in ? "f" : "x",
                     pool[j], lane_ops[_i].nsrc == 3 ? ", %r3" : "");
            check_lane_op((uint32_t)_i, text, pool, n, &pool[j]);
        }
}
END_TEST

START_TEST(test_lane_ops_cover_opcodes)
{
    /* A new arithmetic opcode in opcodes.def needs a row in lane_ops. */
    for (int op = 0; op < OP_COUNT; op++) {
        OpFormat f = OP_INFO[op].format;
        if (f != FMT_DA && f != FMT_DAB && f != FMT_DABC) continue;
        if (OP_INFO[op].flags & OPF_PTX) continue; /* tests/check_ptx.c */
        bool found = false;
        for (uint32_t i = 0; i < N_LANE_OPS && !found; i++) {
            const char *mn = lane_ops[i].mn, *canon = OP_INFO[op].mnemonic;
            found = strcmp(mn, canon) == 0 ||
                    ((OP_INFO[op].mods & OPM_TYPE) && strncmp(mn, canon, strlen(canon)) == 0 && mn[strlen(canon)] == '.');
        }
        ck_assert_msg(found, "no lane test for %s", OP_INFO[op].mnemonic);
    }
}
END_TEST

/* Specific documented results (isa/ISA.md, "Edge cases"), one per row. */
static const struct {
    const char *text;
    uint32_t    a, b, want;
} edge_values[] = {
    { "div.u32 %r0, %r1, %r2", 7, 0, 0xffffffffu },
    { "div.s32 %r0, %r1, %r2", 7, 0, 0xffffffffu },
    { "div.s32 %r0, %r1, %r2", 0x80000000u, 0xffffffffu, 0x80000000u },
    { "rem.s32 %r0, %r1, %r2", 0x80000000u, 0xffffffffu, 0 },
    { "rem.s32 %r0, %r1, %r2", 0xfffffff9u /* -7 */, 2, 0xffffffffu /* -1: sign of a */ },
    { "rem.u32 %r0, %r1, %r2", 9, 0, 9 },
    { "abs.s32 %r0, %r1", 0x80000000u, 0, 0x80000000u },
    { "shl.b32 %r0, %r1, %r2", 1, 32, 0 },
    { "shr.u32 %r0, %r1, %r2", 0x80000000u, 0xffffffffu, 0 },
    { "shr.s32 %r0, %r1, %r2", 0x80000000u, 40, 0xffffffffu },
    { "shr.s32 %r0, %r1, %r2", 0x7fffffffu, 40, 0 },
    { "clz.b32 %r0, %r1", 0, 0, 32 },
    { "cvt.rzi.s32.f32 %r0, %r1", 0x7fc00000u /* NaN */, 0, 0 },
    { "cvt.rzi.s32.f32 %r0, %r1", 0x501502f9u /* 1e10 */, 0, 0x7fffffffu },
    { "cvt.rzi.s32.f32 %r0, %r1", 0xd01502f9u /* -1e10 */, 0, 0x80000000u },
    { "cvt.rzi.u32.f32 %r0, %r1", 0xbf666666u /* -0.9 */, 0, 0 },
    { "cvt.rzi.u32.f32 %r0, %r1", 0x7f800000u /* inf */, 0, 0xffffffffu },
    { "cvt.rni.s32.f32 %r0, %r1", 0x40200000u /* 2.5 */, 0, 2 },
    { "cvt.rni.s32.f32 %r0, %r1", 0x40600000u /* 3.5 */, 0, 4 },
    { "cvt.rni.s32.f32 %r0, %r1", 0xc0200000u /* -2.5 */, 0, 0xfffffffeu },
    { "cvt.rn.f32.s32 %r0, %r1", 16777217, 0, 0x4b800000u /* 16777216 */ },
    { "min.f32 %r0, %r1, %r2", 0x7fc00000u, 0x3f800000u, 0x3f800000u },
    { "max.f32 %r0, %r1, %r2", 0xbf800000u, 0x7fc00000u, 0xbf800000u },
    { "abs.f32 %r0, %r1", 0xffc00000u /* -NaN */, 0, 0x7fc00000u },
    { "div.rn.f32 %r0, %r1, %r2", 0xbf800000u, 0x00000000u, 0xff800000u /* -1/+0 = -inf */ },
    { "rcp.approx.f32 %r0, %r1", 0x80000000u, 0, 0xff800000u /* 1/-0 = -inf */ },
    { "rsqrt.approx.f32 %r0, %r1", 0, 0, 0x7f800000u },
    { "lg2.approx.f32 %r0, %r1", 0, 0, 0xff800000u },
    { "ex2.approx.f32 %r0, %r1", 0xff800000u, 0, 0 },
    { "ex2.approx.f32 %r0, %r1", 0x40400000u /* 3 */, 0, 0x41000000u /* 8 */ },
    { "sqrt.approx.f32 %r0, %r1", 0x40800000u /* 4 */, 0, 0x40000000u },
    { "mul.f32 %r0, %r1, %r2", 0x00000001u, 0x3f000000u /* denorm * 0.5 */, 0 /* rounds to even: 0 */ },
    { "add.f32 %r0, %r1, %r2", 0x00000001u, 0x00000001u, 0x00000002u /* subnormals kept */ },
};

START_TEST(test_edge_values)
{
    char src[256];
    snprintf(src, sizeof src, ".kernel t\n    %s\n    exit\n", edge_values[_i].text);
    Rig *r = rig_new(src, 32, 0);
    for (uint32_t l = 0; l < WARP_SIZE; l++) r->regs[1][l] = edge_values[_i].a, r->regs[2][l] = edge_values[_i].b;
    rig_step(r);
    ck_assert_msg(r->regs[0][5] == edge_values[_i].want, "%s with 0x%08x, 0x%08x: 0x%08x, expected 0x%08x",
                  edge_values[_i].text, edge_values[_i].a, edge_values[_i].b, r->regs[0][5], edge_values[_i].want);
    ck_assert_uint_eq(r->regs[0][0], r->regs[0][31]);
    rig_free(r);
}
END_TEST

START_TEST(test_fma_single_rounding)
{
    /* (1 + 2^-23)^2 - 1 - 2^-22 = 2^-46: exact with one rounding, 0 with two. */
    Rig *r = rig_new(".kernel t\n    fma.rn.f32 %r0, %r1, %r1, %r2\n    mul.f32 %r3, %r1, %r1\n"
                     "    add.f32 %r3, %r3, %r2\n    exit\n", 32, 0);
    float x = 1.0f + 0x1p-23f, c = -(1.0f + 0x1p-22f);
    for (uint32_t l = 0; l < WARP_SIZE; l++) r->regs[1][l] = f2u(x), r->regs[2][l] = f2u(c);
    rig_run(r);
    ck_assert_float_eq(u2f(r->regs[0][0]), 0x1p-46f);
    ck_assert_float_eq(u2f(r->regs[3][0]), 0.0f);
    rig_free(r);
}
END_TEST

START_TEST(test_min_max_signed_zero)
{
    /* Either operand order: min(+0, -0) = -0, max(+0, -0) = +0, whatever
    ** the C library's fminf/fmaxf would return. */
    Rig *r = rig_new(".kernel t\n    min.f32 %r0, %r1, %r2\n    min.f32 %r3, %r2, %r1\n"
                     "    max.f32 %r4, %r1, %r2\n    max.f32 %r5, %r2, %r1\n    exit\n", 32, 0);
    for (uint32_t l = 0; l < WARP_SIZE; l++) r->regs[1][l] = 0x00000000u, r->regs[2][l] = 0x80000000u;
    rig_run(r);
    ck_assert_uint_eq(r->regs[0][0], 0x80000000u);
    ck_assert_uint_eq(r->regs[3][0], 0x80000000u);
    ck_assert_uint_eq(r->regs[4][0], 0x00000000u);
    ck_assert_uint_eq(r->regs[5][0], 0x00000000u);
    rig_free(r);
}
END_TEST

START_TEST(test_inactive_lane_address_ignored)
{
    /* Regression (found by fuzzing): a guarded-off lane holding an address
    ** far below the buffer must not take part in mapping the access. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    setp.ne.u32 %p0, %r1, 0\n"
                     "    @%p0 ld.global.u32 %r3, [%r2]\n"
                     "    exit\n", 32, 0);
    Diag d;
    uint32_t buf = gmem_alloc(r->gmem, 128, "buf", &d);
    uint32_t *host = gmem_translate(r->gmem, buf, 128);
    for (uint32_t l = 0; l < 32; l++) host[l] = 100 + l;
    for (uint32_t l = 0; l < WARP_SIZE; l++) r->regs[2][l] = l ? buf + 4 * l : 0;
    rig_run(r);
    ck_assert_uint_eq(r->regs[3][0], 0);
    for (uint32_t l = 1; l < WARP_SIZE; l++) ck_assert_uint_eq(r->regs[3][l], 100 + l);
    rig_free(r);
}
END_TEST

/* setp for every type and comparison over pool pairs; NaN makes all false. */
static const char *const SETP_TYPES[] = { "s32", "u32", "f32" };

static bool ref_cmp(int type, CmpOp c, uint32_t a, uint32_t b)
{
    double x, y;
    if (type == 0) x = I(a), y = I(b);
    else if (type == 1) x = a, y = b;
    else {
        x = u2f(a), y = u2f(b);
        if (x != x || y != y) return false;
    }
    switch (c) {
    case CMP_EQ: return x == y;
    case CMP_NE: return x != y;
    case CMP_LT: return x < y;
    case CMP_LE: return x <= y;
    case CMP_GT: return x > y;
    case CMP_GE: return x >= y;
    default: return false;
    }
}

START_TEST(test_setp)
{
    int type = _i / CMP_MINI_COUNT;
    CmpOp c = (CmpOp)(_i % CMP_MINI_COUNT);
    char src[256];
    snprintf(src, sizeof src, ".kernel t\n    setp.%s.%s %%p3, %%r1, %%r2\n    exit\n", CMP_NAMES[c], SETP_TYPES[type]);
    Rig *r = rig_new(src, 32, 0);
    const uint32_t *pool = type == 2 ? FLOAT_POOL : INT_POOL;
    uint32_t n = type == 2 ? (uint32_t)(sizeof FLOAT_POOL / 4) : (uint32_t)(sizeof INT_POOL / 4);
    for (uint32_t base = 0; base < n * n; base += WARP_SIZE) {
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            uint32_t idx = (base + l) % (n * n);
            r->regs[1][l] = pool[idx % n], r->regs[2][l] = pool[idx / n];
        }
        r->w.pred[3] = 0x5a5a5a5au; /* overwritten in every active lane */
        rig_restart(r);
        rig_step(r);
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            bool want = ref_cmp(type, c, r->regs[1][l], r->regs[2][l]), got = (r->w.pred[3] >> l) & 1;
            if (want != got)
                ck_abort_msg("setp.%s.%s 0x%08x, 0x%08x: %d", CMP_NAMES[c], SETP_TYPES[type], r->regs[1][l],
                             r->regs[2][l], got);
        }
    }
    rig_free(r);
}
END_TEST

START_TEST(test_predicate_logic)
{
    Rig *r = rig_new(".kernel t\n"
                     "    and.pred %p2, %p0, %p1\n"
                     "    or.pred %p3, %p0, !%p1\n"
                     "    xor.pred %p4, !%p0, %p1\n"
                     "    not.pred %p5, %p0\n"
                     "    not.pred %p6, !%p1\n"
                     "    selp.b32 %r1, 10, 20, %p0\n"
                     "    selp.f32 %r2, 1.5, %r9, !%p1\n"
                     "    exit\n", 32, 0);
    uint32_t p0 = 0x0f0f0f0fu, p1 = 0x33333333u;
    r->w.pred[0] = p0, r->w.pred[1] = p1;
    for (uint32_t l = 0; l < WARP_SIZE; l++) r->regs[9][l] = l;
    rig_run(r);
    ck_assert_uint_eq(r->w.pred[2], p0 & p1);
    ck_assert_uint_eq(r->w.pred[3], p0 | ~p1);
    ck_assert_uint_eq(r->w.pred[4], ~p0 ^ p1);
    ck_assert_uint_eq(r->w.pred[5], ~p0);
    ck_assert_uint_eq(r->w.pred[6], p1);
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        ck_assert_uint_eq(r->regs[1][l], (p0 >> l & 1) ? 10 : 20);
        ck_assert_uint_eq(r->regs[2][l], (p1 >> l & 1) ? l : 0x3fc00000u);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_guards)
{
    /* @%p / @!%p: only the lanes whose guard holds write; the rest keep. */
    Rig *r = rig_new(".kernel t\n"
                     "    @%p0 mov.u32 %r1, 1\n"
                     "    @!%p0 mov.u32 %r2, 2\n"
                     "    @%p1 setp.eq.u32 %p2, %r1, 1\n"
                     "    @!%p1 add.u32 %r3, %r3, 5\n"
                     "    exit\n", 32, 0);
    uint32_t p0 = 0x12345678u, p1 = 0xffff0000u;
    r->w.pred[0] = p0, r->w.pred[1] = p1, r->w.pred[2] = 0x0000ffffu;
    for (uint32_t l = 0; l < WARP_SIZE; l++) r->regs[1][l] = r->regs[2][l] = 7, r->regs[3][l] = l;
    rig_step(r);
    ck_assert_uint_eq(r->out.active, ALL);
    ck_assert_uint_eq(r->out.exec_mask, p0);
    rig_step(r);
    ck_assert_uint_eq(r->out.exec_mask, ~p0);
    rig_run(r);
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        ck_assert_uint_eq(r->regs[1][l], (p0 >> l & 1) ? 1 : 7);
        ck_assert_uint_eq(r->regs[2][l], (p0 >> l & 1) ? 7 : 2);
        ck_assert_uint_eq(r->regs[3][l], (p1 >> l & 1) ? l : l + 5);
    }
    /* p2 written only in p1's lanes: there it is (r1 == 1) == p0 */
    ck_assert_uint_eq(r->w.pred[2], (p0 & p1) | (0x0000ffffu & ~p1));
    rig_free(r);
}
END_TEST

START_TEST(test_ld_param)
{
    Rig *r = rig_new(".kernel t\n.param .ptr p\n.param .s32 k\n.param .f32 x\n"
                     "    ld.param.u32 %r0, [p]\n    ld.param.s32 %r1, [k]\n    ld.param.f32 %r2, [x]\n    exit\n",
                     32, 0);
    r->params[0] = 0x10000, r->params[1] = 0xfffffffbu, r->params[2] = f2u(0.25f);
    rig_run(r);
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        ck_assert_uint_eq(r->regs[0][l], 0x10000);
        ck_assert_uint_eq(r->regs[1][l], 0xfffffffbu);
        ck_assert_uint_eq(r->regs[2][l], f2u(0.25f));
    }
    rig_free(r);
}
END_TEST

/* ------------------------------------------------- special registers */

static const struct {
    uint32_t x, y, z;
} block_shapes[] = { { 8, 4, 2 }, { 32, 32, 1 }, { 3, 5, 7 }, { 1, 1, 64 }, { 40, 1, 1 } };

START_TEST(test_special_registers)
{
    const char *src = ".kernel t\n"
                      "    mov.u32 %r0, %tid.x\n    mov.u32 %r1, %tid.y\n    mov.u32 %r2, %tid.z\n"
                      "    mov.u32 %r3, %ntid.x\n    mov.u32 %r4, %ntid.y\n    mov.u32 %r5, %ntid.z\n"
                      "    mov.u32 %r6, %ctaid.x\n    mov.u32 %r7, %ctaid.y\n    mov.u32 %r8, %ctaid.z\n"
                      "    mov.u32 %r9, %nctaid.x\n    mov.u32 %r10, %nctaid.y\n    mov.u32 %r11, %nctaid.z\n"
                      "    mov.u32 %r12, %laneid\n    mov.u32 %r13, %warpid\n    mov.u32 %r14, %smid\n"
                      "    mov.u32 %r15, %nsmid\n    mov.u32 %r16, %clock\n    exit\n";
    uint32_t bx = block_shapes[_i].x, by = block_shapes[_i].y, bz = block_shapes[_i].z;
    uint32_t threads = bx * by * bz, nwarps = (threads + 31) / 32;
    for (uint32_t wi = 0; wi < nwarps; wi++) {
        Rig *r = rig_new(src, threads, wi);
        exec_warp_init(&r->w, r->regs, ISA_MAX_REGS, wi, threads, 10 + wi);
        r->b.ntid[0] = bx, r->b.ntid[1] = by, r->b.ntid[2] = bz;
        r->b.ctaid[0] = 3, r->b.ctaid[1] = 2, r->b.ctaid[2] = 1;
        r->b.nctaid[0] = 5, r->b.nctaid[1] = 4, r->b.nctaid[2] = 3;
        r->b.smid = 7, r->b.nsmid = 132, r->b.clock = 0x100000005ull;
        rig_run(r);
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            uint32_t lin = wi * 32 + l;
            if (lin >= threads) { /* lanes past the block never run */
                for (int reg = 0; reg <= 16; reg++) ck_assert_uint_eq(r->regs[reg][l], 0);
                continue;
            }
            uint32_t want[17] = { lin % bx, lin / bx % by, lin / (bx * by), bx, by, bz, 3, 2, 1, 5, 4, 3, l,
                                  10 + wi, 7, 132, 5 };
            for (int reg = 0; reg <= 16; reg++)
                ck_assert_msg(r->regs[reg][l] == want[reg], "block %ux%ux%u warp %u lane %u: %%r%d = %u, expected %u",
                              bx, by, bz, wi, l, reg, r->regs[reg][l], want[reg]);
        }
        rig_free(r);
    }
}
END_TEST

START_TEST(test_partial_warp)
{
    /* A block of 40 threads: warp 1 has lanes 0..7 only. */
    Rig *r = rig_new(".kernel t\n.param .ptr out\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    mov.u32 %r1, %tid.x\n"
                     "    setp.lt.u32 %p0, %r0, 100\n"
                     "    @%p0 bra ALL_LIVE\n"           /* uniform over the live lanes */
                     "    mov.u32 %r5, 99\n"
                     "ALL_LIVE:\n"
                     "    ld.param.u32 %r2, [out]\n"
                     "    shl.b32 %r3, %r0, 2\n"
                     "    add.u32 %r3, %r3, %r2\n"
                     "    st.global.u32 [%r3], %r1\n"
                     "    vote.sync.ballot.b32 %r4, %p0\n"
                     "    exit\n", 40, 1);
    Diag d;
    uint32_t out = gmem_alloc(r->gmem, 32 * 4, "out", &d);
    r->params[0] = out;
    ck_assert_uint_eq(r->w.live, 0xffu);
    rig_run(r);
    for (uint32_t i = 0; i < r->nsteps; i++) {
        ck_assert_uint_eq(r->trace[i].active, 0xffu);
        ck_assert_uint_eq(r->trace[i].depth <= 1, 1);
    }
    ck_assert_uint_eq(issues_at(r, 4, NULL), 0); /* the branch did not split */
    uint32_t *o = host(r, out, 128);
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        ck_assert_uint_eq(r->regs[1][l], l < 8 ? 32 + l : 0);
        ck_assert_uint_eq(o[l], l < 8 ? 32 + l : 0);
        ck_assert_uint_eq(r->regs[4][l], l < 8 ? 0xffu : 0);
    }
    rig_free(r);
    /* warp 2 of 40 threads has no lane at all */
    WarpExec w;
    uint32_t regs[4][WARP_SIZE];
    exec_warp_init(&w, regs, 4, 2, 40, 2);
    ck_assert_uint_eq(w.live, 0);
    ck_assert_uint_eq(w.depth, 0);
}
END_TEST

/* ------------------------------------------------------------- memory */

START_TEST(test_global_vectors)
{
    /* Each lane loads 16 bytes, 8 bytes and 4 bytes and stores them
    ** reordered to another buffer. */
    Rig *r = rig_new(".kernel t\n.param .ptr in\n.param .ptr out\n"
                     "    ld.param.u32 %r0, [in]\n"
                     "    ld.param.u32 %r1, [out]\n"
                     "    mov.u32 %r2, %laneid\n"
                     "    shl.b32 %r3, %r2, 4\n"
                     "    add.u32 %r4, %r3, %r0\n"
                     "    add.u32 %r5, %r3, %r1\n"
                     "    ld.global.v4.b32 {%r10, %r11, %r12, %r13}, [%r4]\n"
                     "    st.global.v4.b32 [%r5], {%r13, %r12, %r11, %r10}\n"
                     "    ld.global.v2.u32 {%r14, %r15}, [%r4+512]\n"
                     "    st.global.v2.f32 [%r5+512], {%r15, -2.5}\n"
                     "    ld.global.s32 %r16, [%r4+1020]\n"
                     "    st.global.u32 [%r5+1024], %r16\n"
                     "    exit\n", 32, 0);
    uint32_t *pin = param_buffer(r, 0, 2048, "in"), *pout = param_buffer(r, 1, 2048, "out");
    uint32_t in = r->params[0];
    for (uint32_t i = 0; i < 512; i++) pin[i] = 0xa0000000u + i;
    rig_run(r);
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        for (uint32_t e = 0; e < 4; e++) ck_assert_uint_eq(pout[4 * l + e], 0xa0000000u + 4 * l + 3 - e);
        ck_assert_uint_eq(pout[128 + 4 * l], 0xa0000000u + 128 + 4 * l + 1);
        ck_assert_uint_eq(pout[128 + 4 * l + 1], f2u(-2.5f));
        ck_assert_uint_eq(pout[256 + 4 * l], 0xa0000000u + 255 + 4 * l);
    }
    /* what the timing model is told: widths and per-lane addresses */
    rig_restart(r);
    for (int i = 0; i < 7; i++) rig_step(r);
    ck_assert_uint_eq(r->out.pc, 6);
    ck_assert_uint_eq(r->out.width, 16);
    for (uint32_t l = 0; l < WARP_SIZE; l++) ck_assert_uint_eq(r->out.addr[l], in + 16 * l);
    rig_step(r), rig_step(r);
    ck_assert_uint_eq(r->out.width, 8);
    ck_assert_uint_eq(r->out.addr[3], in + 48 + 512);
    rig_step(r), rig_step(r);
    ck_assert_uint_eq(r->out.width, 4);
    rig_free(r);
}
END_TEST

/* A full warp's consecutive words are copied as one row, in and out; the
** same words in reverse lane order (not consecutive) go lane by lane. */
START_TEST(test_global_rows_whole_and_permuted)
{
    Rig *r = rig_new(".kernel t\n.param .ptr in\n.param .ptr out\n"
                     "    ld.param.u32 %r0, [in]\n"
                     "    ld.param.u32 %r1, [out]\n"
                     "    mov.u32 %r2, %laneid\n"
                     "    shl.b32 %r3, %r2, 2\n"
                     "    add.u32 %r4, %r3, %r0\n"
                     "    add.u32 %r5, %r3, %r1\n"
                     "    sub.u32 %r6, 124, %r3\n"
                     "    add.u32 %r6, %r6, %r0\n"
                     "    ld.global.u32 %r10, [%r4]\n"       /* in[l] */
                     "    ld.global.u32 %r11, [%r6]\n"       /* in[31 - l] */
                     "    add.u32 %r12, %r10, %r11\n"
                     "    st.global.u32 [%r5], %r10\n"
                     "    st.global.u32 [%r5+128], %r11\n"
                     "    st.global.u32 [%r5+256], %r12\n"
                     "    exit\n", 32, 0);
    uint32_t *pin = param_buffer(r, 0, 128, "in"), *pout = param_buffer(r, 1, 384, "out");
    for (uint32_t i = 0; i < 32; i++) pin[i] = 1000u * i + 7;
    rig_run(r);
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        ck_assert_uint_eq(pout[l], 1000u * l + 7);
        ck_assert_uint_eq(pout[32 + l], 1000u * (31 - l) + 7);
        ck_assert_uint_eq(pout[64 + l], 1000u * 31 + 14);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_shared_vectors)
{
    Rig *r = rig_new(".kernel t\n.shared pad 4\n.shared tile 1024\n"
                     "    mov.u32 %r2, %laneid\n"
                     "    shl.b32 %r3, %r2, 3\n"
                     "    add.u32 %r4, %r2, 1000\n"
                     "    st.shared.v2.u32 [%r3+tile], {%r2, %r4}\n"
                     "    xor.b32 %r5, %r2, 1\n"
                     "    shl.b32 %r5, %r5, 3\n"
                     "    ld.shared.v2.u32 {%r6, %r7}, [%r5+tile]\n"   /* the neighbour's pair */
                     "    shl.b32 %r8, %r2, 4\n"
                     "    ld.shared.v4.b32 {%r10, %r11, %r12, %r13}, [%r8+tile]\n"
                     "    st.shared.f32 [tile+512], 1.5\n"             /* every lane, one word */
                     "    ld.shared.f32 %r14, [tile+512]\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        ck_assert_uint_eq(r->regs[6][l], l ^ 1);
        ck_assert_uint_eq(r->regs[7][l], (l ^ 1) + 1000);
        if (l < 16) {
            ck_assert_uint_eq(r->regs[10][l], 2 * l);
            ck_assert_uint_eq(r->regs[11][l], 2 * l + 1000);
            ck_assert_uint_eq(r->regs[12][l], 2 * l + 1);
            ck_assert_uint_eq(r->regs[13][l], 2 * l + 1001);
        }
        ck_assert_uint_eq(r->regs[14][l], f2u(1.5f));
    }
    uint32_t w;
    memcpy(&w, r->smem + 16 + 8 * 5, 4);
    ck_assert_uint_eq(w, 5); /* tile starts at 16: 16-byte alignment after pad */
    rig_free(r);
}
END_TEST

START_TEST(test_store_same_address)
{
    /* Several lanes store to one word: the highest active lane's value stays. */
    Rig *r = rig_new(".kernel t\n.param .ptr out\n"
                     "    ld.param.u32 %r0, [out]\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    st.global.u32 [%r0], %r1\n"
                     "    @%p0 st.global.u32 [%r0+4], %r1\n"
                     "    and.b32 %r2, %r1, 3\n"
                     "    shl.b32 %r2, %r2, 2\n"
                     "    add.u32 %r2, %r2, 8\n"
                     "    st.shared.u32 [%r2], %r1\n"
                     "    exit\n", 32, 0);
    Diag d;
    uint32_t out = gmem_alloc(r->gmem, 8, "out", &d);
    r->params[0] = out;
    r->w.pred[0] = 0x00ff00f0u; /* highest guarded lane: 23 */
    rig_run(r);
    uint32_t *o = host(r, out, 8);
    ck_assert_uint_eq(o[0], 31);
    ck_assert_uint_eq(o[1], 23);
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t v;
        memcpy(&v, r->smem + 8 + 4 * i, 4);
        ck_assert_uint_eq(v, 28 + i);
    }
    rig_free(r);
}
END_TEST

/* A run whose global accesses are deferred (ExecBlock.defer_global) and
** applied right after each step (exec_global_apply) leaves the registers
** and global memory exactly as the ordinary run does; a deferred store
** changes nothing before it is applied. */
START_TEST(test_deferred_global)
{
    const char *src = ".kernel t\n.param .ptr in\n.param .ptr out\n"
                      "    ld.param.u32 %r0, [in]\n"
                      "    ld.param.u32 %r1, [out]\n"
                      "    mov.u32 %r2, %laneid\n"
                      "    shl.b32 %r3, %r2, 4\n"
                      "    add.u32 %r4, %r3, %r0\n"
                      "    add.u32 %r5, %r3, %r1\n"
                      "    ld.global.v4.b32 {%r10, %r11, %r12, %r13}, [%r4]\n"
                      "    st.global.v4.b32 [%r5], {%r13, %r12, %r11, %r10}\n"
                      "    and.b32 %r6, %r2, 3\n"
                      "    shl.b32 %r6, %r6, 2\n"
                      "    add.u32 %r6, %r6, %r1\n"
                      "    atom.global.add.u32 %r7, [%r6+1024], %r2\n"
                      "    atom.global.cas.u32 %r8, [%r6+1040], %r7, %r2\n"
                      "    atom.global.exch.f32 %r9, [%r6+1056], %r10\n"
                      "    ld.global.u32 %r14, [%r5]\n"
                      "    st.global.u32 [%r6+1072], %r14\n"
                      "    exit\n";
    Rig *rig[2];
    uint32_t out[2];
    for (int k = 0; k < 2; k++) {
        Rig *r = rig[k] = rig_new(src, 32, 0);
        Diag d;
        uint32_t in = gmem_alloc(r->gmem, 2048, "in", &d);
        out[k] = gmem_alloc(r->gmem, 2048, "out", &d);
        r->params[0] = in, r->params[1] = out[k];
        uint32_t *pin = host(r, in, 2048);
        for (uint32_t i = 0; i < 512; i++) pin[i] = 0x3f000000u + 977 * i;
        r->b.defer_global = k == 1;
        while (r->w.depth) {
            rig_step(r);
            ck_assert(r->out.deferred == (k == 1 && r->out.space == SPACE_GLOBAL && r->out.width > 0));
            if (!r->out.deferred) continue;
            if (r->out.pc == 7) { /* the store has not written yet */
                const uint32_t *po = host(r, out[k], 2048);
                for (uint32_t i = 0; i < 128; i++) ck_assert_uint_eq(po[i], 0);
            }
            exec_global_apply(r->b.kernel, r->regs, r->out.pc, r->out.exec_mask, r->out.ptr,
                              (const uint32_t (*)[WARP_SIZE])r->out.data);
        }
    }
    ck_assert_mem_eq(host(rig[0], out[0], 2048), host(rig[1], out[1], 2048), 2048);
    for (uint32_t reg = 0; reg < 15; reg++)
        if (reg != 1 && reg != 5 && reg != 6) /* those hold the buffer's own address */
            ck_assert_mem_eq(rig[0]->regs[reg], rig[1]->regs[reg], sizeof rig[0]->regs[reg]);
    rig_free(rig[0]);
    rig_free(rig[1]);
}
END_TEST

static Suite *exec_suite(void)
{
    Suite *s = suite_create("exec");
    TCase *lanes = tcase_create("Lanes");
    tcase_set_timeout(lanes, 60);
    tcase_add_loop_test(lanes, test_lane_ops, 0, (int)N_LANE_OPS);
    tcase_add_test(lanes, test_lane_ops_cover_opcodes);
    tcase_add_loop_test(lanes, test_edge_values, 0, (int)(sizeof edge_values / sizeof edge_values[0]));
    tcase_add_test(lanes, test_fma_single_rounding);
    tcase_add_test(lanes, test_min_max_signed_zero);
    tcase_add_test(lanes, test_inactive_lane_address_ignored);
    tcase_add_loop_test(lanes, test_setp, 0, 3 * CMP_MINI_COUNT);
    tcase_add_test(lanes, test_predicate_logic);
    tcase_add_test(lanes, test_guards);
    tcase_add_test(lanes, test_ld_param);
    tcase_add_loop_test(lanes, test_special_registers, 0, (int)(sizeof block_shapes / sizeof block_shapes[0]));
    tcase_add_test(lanes, test_partial_warp);
    suite_add_tcase(s, lanes);

    TCase *mem = tcase_create("Memory");
    tcase_add_test(mem, test_global_vectors);
    tcase_add_test(mem, test_global_rows_whole_and_permuted);
    tcase_add_test(mem, test_shared_vectors);
    tcase_add_test(mem, test_store_same_address);
    tcase_add_test(mem, test_deferred_global);
    suite_add_tcase(s, mem);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(exec_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

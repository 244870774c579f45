/* tests/check_exec.c -- lane semantics (isa/exec.h): every opcode against C
** reference values over edge-value inputs, predication, partial warps,
** special registers, global and shared memory incl. vector forms, atomics
** under contention, shuffles, ballots, faults, and the SIMT stack
** (divergence, reconvergence, loops, exits, barriers).
** Each test drives one warp with exec_step on a small ExecBlock.          */
#include "isa/exec.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "isa/grid.h"

#define ALL       0xffffffffu
#define SMEM_SIZE 4096u
#define MAX_TRACE 8192u

/* ------------------------------------------------------------------ rig */

typedef struct {
    uint32_t pc, active, exec_mask, depth;
} Step;

/* One warp of one block, with its kernel, memories and a trace of steps. */
typedef struct {
    Program   prog;
    GlobalMem *gmem;
    uint8_t   smem[SMEM_SIZE];
    uint32_t  params[8];
    ExecBlock b;
    WarpExec  w;
    uint32_t  regs[ISA_MAX_REGS][WARP_SIZE];
    ExecOut   out;
    Step      trace[MAX_TRACE];
    uint32_t  nsteps, max_depth;
    uint32_t  live0; /* the warp's lanes at the start */
} Rig;

static Rig *rig_new(const char *src, uint32_t block_threads, uint32_t warp)
{
    Rig *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    Diag d;
    bool ok = asm_parse(src, strlen(src), "exec.asm", &r->prog, &d);
    ck_assert_msg(ok, "assembly failed: %u:%u: %s\n%s", d.line, d.col, d.message, src);
    r->gmem = gmem_create();
    ck_assert_ptr_nonnull(r->gmem);
    r->b.kernel = &r->prog.kernels[0];
    r->b.gmem = r->gmem;
    r->b.smem = r->smem;
    r->b.smem_size = SMEM_SIZE;
    r->b.params = r->params;
    r->b.ntid[0] = block_threads, r->b.ntid[1] = r->b.ntid[2] = 1;
    r->b.nctaid[0] = r->b.nctaid[1] = r->b.nctaid[2] = 1;
    r->b.nsmid = 1;
    exec_warp_init(&r->w, r->regs, ISA_MAX_REGS, warp, block_threads, warp);
    r->live0 = r->w.live;
    return r;
}

static void rig_free(Rig *r)
{
    program_destroy(&r->prog);
    gmem_destroy(r->gmem);
    free(r);
}

/* Restarts the warp at pc 0 with all its lanes alive; registers kept. */
static void rig_restart(Rig *r)
{
    r->w.live = r->live0;
    r->w.depth = 1;
    r->w.stack[0] = (SimtEntry){ 0, ISA_NO_RECONV, r->w.live };
}

/* One step, which must not fault; recorded in the trace. */
static void rig_step(Rig *r)
{
    ck_assert_uint_gt(r->w.depth, 0);
    bool ok = exec_step(&r->b, &r->w, &r->out);
    ck_assert_msg(ok, "fault %s at pc %u lane %u addr 0x%llx", exec_fault_name(r->out.fault.kind), r->out.fault.pc,
                  r->out.fault.lane, (unsigned long long)r->out.fault.addr);
    ck_assert_uint_lt(r->nsteps, MAX_TRACE);
    r->trace[r->nsteps++] = (Step){ r->out.pc, r->out.active, r->out.exec_mask, r->w.depth };
    if (r->w.depth > r->max_depth) r->max_depth = r->w.depth;
}

/* Runs until the warp has exited (no faults allowed); returns steps taken. */
static uint32_t rig_run(Rig *r)
{
    uint32_t before = r->nsteps;
    while (r->w.depth) rig_step(r);
    ck_assert(r->out.exited);
    return r->nsteps - before;
}

/* Runs until a fault, which must come; returns it. */
static ExecFault rig_fault(Rig *r)
{
    for (uint32_t i = 0; i < MAX_TRACE && r->w.depth; i++)
        if (!exec_step(&r->b, &r->w, &r->out)) return r->out.fault;
    ck_abort_msg("no fault");
    return r->out.fault;
}

/* Issues of pc in the trace, and the masks they were issued under (OR). */
static uint32_t issues_at(const Rig *r, uint32_t pc, uint32_t *masks)
{
    uint32_t n = 0;
    if (masks) *masks = 0;
    for (uint32_t i = 0; i < r->nsteps; i++)
        if (r->trace[i].pc == pc) {
            n++;
            if (masks) *masks |= r->trace[i].exec_mask;
        }
    return n;
}

static uint32_t label_pc(const Rig *r, const char *name)
{
    const Kernel *k = r->b.kernel;
    for (uint32_t i = 0; i < k->nlabels; i++)
        if (strcmp(k->labels[i].name, name) == 0) return k->labels[i].pc;
    ck_abort_msg("no label %s", name);
    return 0;
}

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Host view of a global address. */
static void *host(Rig *r, uint32_t addr, uint32_t size)
{
    void *p = gmem_translate(r->gmem, addr, size);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* A buffer of `bytes` named `name`, its address in parameter `param`; its
** host words. */
static uint32_t *param_buffer(Rig *r, uint32_t param, uint32_t bytes, const char *name)
{
    Diag d;
    uint32_t addr = gmem_alloc(r->gmem, bytes, name, &d);
    ck_assert_msg(addr != 0, "%s", d.message);
    r->params[param] = addr;
    return host(r, addr, bytes);
}

/* ------------------------------------------------ C reference functions */

typedef uint32_t (*RefFn)(uint32_t a, uint32_t b, uint32_t c);

#define I(x) ((int32_t)(x))
#define F(x) u2f(x)
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

/* ------------------------------------------------------------- atomics */

static const struct {
    const char *mn;
    AtomOp      op;
    int         kind; /* 0 u32, 1 s32, 2 f32 */
    bool        shared;
} atom_rows[] = {
    { "atom.global.add.u32", ATOM_ADD, 0, false },  { "atom.global.min.u32", ATOM_MIN, 0, false },
    { "atom.global.max.u32", ATOM_MAX, 0, false },  { "atom.global.exch.u32", ATOM_EXCH, 0, false },
    { "atom.global.cas.u32", ATOM_CAS, 0, false },  { "atom.global.add.s32", ATOM_ADD, 1, false },
    { "atom.global.min.s32", ATOM_MIN, 1, false },  { "atom.global.max.s32", ATOM_MAX, 1, false },
    { "atom.global.add.f32", ATOM_ADD, 2, false },  { "atom.global.exch.f32", ATOM_EXCH, 2, false },
    { "atom.shared.add.u32", ATOM_ADD, 0, true },   { "atom.shared.min.u32", ATOM_MIN, 0, true },
    { "atom.shared.max.u32", ATOM_MAX, 0, true },   { "atom.shared.exch.u32", ATOM_EXCH, 0, true },
    { "atom.shared.cas.u32", ATOM_CAS, 0, true },   { "atom.shared.add.s32", ATOM_ADD, 1, true },
    { "atom.shared.min.s32", ATOM_MIN, 1, true },   { "atom.shared.max.s32", ATOM_MAX, 1, true },
    { "atom.shared.add.f32", ATOM_ADD, 2, true },   { "atom.shared.exch.f32", ATOM_EXCH, 2, true },
};

/* The serial result: lanes in ascending order, each on the value the
** previous one left. */
static uint32_t atom_ref(AtomOp op, int kind, uint32_t old, uint32_t b, uint32_t c)
{
    switch (op) {
    case ATOM_ADD: return kind == 2 ? f2u(u2f(old) + u2f(b)) : old + b;
    case ATOM_MIN: return kind == 1 ? (I(b) < I(old) ? b : old) : (b < old ? b : old);
    case ATOM_MAX: return kind == 1 ? (I(b) > I(old) ? b : old) : (b > old ? b : old);
    case ATOM_EXCH: return b;
    case ATOM_CAS: return old == b ? c : old;
    default: return old;
    }
}

START_TEST(test_atomics)
{
    /* Three address patterns: all lanes on one word (full contention), four
    ** words (lane % 4), one word per lane; lanes with %p0 false sit out. */
    char src[512];
    snprintf(src, sizeof src,
             ".kernel t\n.param .ptr buf\n.shared pad 16\n.shared words 128\n"
             "    ld.param.u32 %%r0, [buf]\n"
             "    %s\n"
             "    @%%p0 %s %%r5, [%%r1%s], %%r2%s\n"
             "    exit\n",
             atom_rows[_i].shared ? "mov.u32 %r0, 0" : "add.u32 %r0, %r0, 0",
             atom_rows[_i].mn, atom_rows[_i].shared ? "+words" : "", atom_rows[_i].op == ATOM_CAS ? ", %r3" : "");
    const uint32_t init_u[4] = { 1000, 0x80000000u, 7, 0xfffffff0u };
    uint32_t swaps = 0;
    for (int pattern = 0; pattern < 3; pattern++) {
        Rig *r = rig_new(src, 32, 0);
        Diag d;
        uint32_t buf = gmem_alloc(r->gmem, 128, "buf", &d);
        r->params[0] = buf;
        uint32_t mem[32], b[32], c[32];
        for (uint32_t i = 0; i < 32; i++)
            mem[i] = atom_rows[_i].kind == 2 ? f2u(0.1f * (float)i - 1.0f) : init_u[i % 4] + i / 4;
        uint32_t *words = atom_rows[_i].shared ? (uint32_t *)(r->smem + 16) : host(r, buf, 128);
        memcpy(words, mem, sizeof mem);
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t word = pattern == 0 ? 0 : pattern == 1 ? l % 4 : l;
            r->regs[1][l] = (atom_rows[_i].shared ? 0 : buf) + 4 * word;
            if (atom_rows[_i].kind == 2) b[l] = f2u(0.3f * (float)l - 2.0f);
            else if (atom_rows[_i].kind == 1) b[l] = (uint32_t)((int32_t)(l * 37 % 50) - 25);
            else b[l] = l * 0x0800001u + 3;
            c[l] = 5000 + l;
            if (atom_rows[_i].op == ATOM_CAS) /* odd lanes expect the previous lane's swap, even the initial value */
                b[l] = (l % 2) ? 5000 + l - 1 : mem[pattern == 0 ? 0 : pattern == 1 ? l % 4 : l];
            r->regs[2][l] = b[l], r->regs[3][l] = c[l], r->regs[5][l] = 0xdeadbeefu;
        }
        r->w.pred[0] = 0xfbff7ffeu; /* lanes 0, 15 and 26 sit out */
        rig_run(r);
        uint32_t old[32];
        for (uint32_t l = 0; l < 32; l++) {
            if (!(r->w.pred[0] >> l & 1)) {
                old[l] = 0xdeadbeefu;
                continue;
            }
            uint32_t word = (r->regs[1][l] - (atom_rows[_i].shared ? 0 : buf)) / 4;
            old[l] = mem[word];
            mem[word] = atom_ref(atom_rows[_i].op, atom_rows[_i].kind, mem[word], b[l], c[l]);
            swaps += mem[word] != old[l];
        }

        for (uint32_t l = 0; l < 32; l++)
            ck_assert_msg(r->regs[5][l] == old[l], "%s pattern %d lane %u received 0x%08x, expected 0x%08x",
                          atom_rows[_i].mn, pattern, l, r->regs[5][l], old[l]);
        for (uint32_t i = 0; i < 32; i++)
            ck_assert_msg(words[i] == mem[i], "%s pattern %d word %u = 0x%08x, expected 0x%08x", atom_rows[_i].mn,
                          pattern, i, words[i], mem[i]);
        rig_free(r);
    }
    ck_assert_uint_gt(swaps, 1); /* the values do make the operation change memory */
}
END_TEST

/* Every load, store and atomic row reaches the memory its space column
** names, which its mnemonic names too, and a fault report points into a
** buffer only for global rows: address 0 is in the block's shared memory
** and in no global buffer, address 2 is misaligned in both. */
START_TEST(test_memory_space_of_every_row)
{
    uint32_t rows = 0;
    for (int op = 0; op < OP_COUNT; op++) {
        const OpInfo *info = &OP_INFO[op];
        if (info->space != SPACE_GLOBAL && info->space != SPACE_SHARED) continue;
        if (info->flags & OPF_PTX) continue; /* PTX rows: tests/check_ptx.c */
        bool global = info->space == SPACE_GLOBAL;
        ck_assert_msg((strstr(info->mnemonic, ".global") != NULL) == global &&
                          (strstr(info->mnemonic, ".shared") != NULL) == !global,
                      "%s: the mnemonic names another space than the row", info->mnemonic);
        Instr in = { .op = (uint8_t)op, .vec = 1, .type = (uint8_t)opcode_value_type((Opcode)op, TYPE_NONE),
                     .mod = (uint8_t)(info->atoms ? __builtin_ctz(info->atoms) : 0) };
        char mn[64], src[256];
        disasm_mnemonic(&in, mn, sizeof mn);
        for (uint32_t offset = 0; offset <= 2; offset += 2) {
            const char *form = info->format == FMT_LD ? "%s %%r1, [%%r2+%u]"
                             : info->format == FMT_ST ? "%s [%%r2+%u], %%r1" : "%s %%r1, [%%r2+%u], %%r3";
            char line[96];
            snprintf(line, sizeof line, form, mn, offset);
            snprintf(src, sizeof src, ".kernel t\n    %s\n    exit\n", line);
            Rig *r = rig_new(src, 32, 0);
            Diag d;
            uint32_t buf = gmem_alloc(r->gmem, 128, "buf", &d);
            ck_assert_uint_ne(buf, 0);
            if (offset == 0 && !global) {
                rig_step(r);
                ck_assert_uint_eq(r->out.width, 4);
            } else {
                ExecFault f = rig_fault(r);
                ck_assert_msg(f.kind == (offset ? FAULT_MISALIGNED : FAULT_GLOBAL_OOB), "%s: %s", line,
                              exec_fault_name(f.kind));
                char msg[1024];
                uint32_t ctaid[3] = { 0, 0, 0 }, ntid[3] = { 32, 1, 1 };
                grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &f, ctaid, ntid, 0, msg, sizeof msg);
                ck_assert_msg((strstr(msg, "before buffer 'buf'") != NULL) == global, "%s: %s", line, msg);
            }
            rig_free(r);
        }
        rows++;
    }
    ck_assert_uint_ge(rows, 10);
}
END_TEST

START_TEST(test_atomic_counter)
{
    /* The classic ticket counter: 32 lanes add 1 to one word and receive
    ** 0..31 in lane order; cas chains in lane order. */
    Rig *r = rig_new(".kernel t\n.shared ctr 8\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    atom.shared.add.u32 %r2, [ctr], 1\n"
                     "    add.u32 %r3, %r1, 1\n"
                     "    atom.shared.cas.u32 %r4, [ctr+4], %r1, %r3\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    uint32_t ctr[2];
    memcpy(ctr, r->smem, 8);
    ck_assert_uint_eq(ctr[0], 32);
    ck_assert_uint_eq(ctr[1], 32);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(r->regs[2][l], l);
        ck_assert_uint_eq(r->regs[4][l], l);
    }
    rig_free(r);
}
END_TEST

/* ------------------------------------------------------------- warp-level */

/* Shuffle cases: mode, b (or -1: b = 31 - lane from a register), segment
** width, and whether c comes from a register. */
static const struct {
    ShflMode mode;
    int      b;
    uint32_t width;
    bool     c_reg;
} shfl_rows[] = {
    { SHFL_IDX, 0, 32, false },   { SHFL_IDX, 5, 32, false },  { SHFL_IDX, 31, 32, false }, { SHFL_IDX, 37, 32, false },
    { SHFL_IDX, 3, 16, false },   { SHFL_IDX, 9, 8, false },   { SHFL_IDX, -1, 32, false }, { SHFL_IDX, -1, 4, true },
    { SHFL_UP, 1, 32, false },    { SHFL_UP, 5, 32, false },   { SHFL_UP, 16, 32, false },  { SHFL_UP, 1, 8, false },
    { SHFL_UP, 3, 4, true },      { SHFL_DOWN, 1, 32, false }, { SHFL_DOWN, 16, 32, false }, { SHFL_DOWN, 2, 4, false },
    { SHFL_DOWN, 7, 16, true },   { SHFL_BFLY, 1, 32, false }, { SHFL_BFLY, 16, 32, false }, { SHFL_BFLY, 31, 32, false },
    { SHFL_BFLY, 4, 8, false },   { SHFL_BFLY, 3, 4, true },   { SHFL_DOWN, 0, 32, false },  { SHFL_UP, 32, 32, false },
};

/* Source lane of lane l by segments of w lanes, as CUDA's __shfl_*_sync
** describe it; a source outside the segment means "keep your own". */
static uint32_t shfl_source(ShflMode m, uint32_t l, uint32_t b, uint32_t w)
{
    uint32_t start = l & ~(w - 1), end = start + w - 1;
    b &= 31;
    switch (m) {
    case SHFL_IDX: return start + b % w;
    case SHFL_UP: return l >= start + b ? l - b : l;
    case SHFL_DOWN: return l + b <= end ? l + b : l;
    case SHFL_BFLY: return (l ^ b) <= end ? (l ^ b) : l;
    default: return l;
    }
}

START_TEST(test_shfl)
{
    ShflMode m = shfl_rows[_i].mode;
    uint32_t w = shfl_rows[_i].width;
    uint32_t c = ((32 - w) << 8) | (m == SHFL_UP ? 0 : 31);
    char bop[16], cop[16], src[256];
    if (shfl_rows[_i].b < 0) snprintf(bop, sizeof bop, "%%r2");
    else snprintf(bop, sizeof bop, "%d", shfl_rows[_i].b);
    if (shfl_rows[_i].c_reg) snprintf(cop, sizeof cop, "%%r3");
    else snprintf(cop, sizeof cop, "%u", c);
    snprintf(src, sizeof src, ".kernel t\n    shfl.sync.%s.b32 %%r0, %%r1, %s, %s, 0xffffffff\n    exit\n",
             SHFL_NAMES[m], bop, cop);
    Rig *r = rig_new(src, 32, 0);
    for (uint32_t l = 0; l < 32; l++) r->regs[1][l] = 100 + l, r->regs[2][l] = 31 - l, r->regs[3][l] = c;
    rig_run(r);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t b = shfl_rows[_i].b < 0 ? 31 - l : (uint32_t)shfl_rows[_i].b;
        uint32_t want = 100 + shfl_source(m, l, b, w);
        ck_assert_msg(r->regs[0][l] == want, "%s: lane %u got %u, expected %u", src + 14, l, r->regs[0][l], want);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_shfl_defaults_and_masks)
{
    /* c left out: the whole warp (up: clamp 0); under a guard the inactive
    ** lanes keep their destination but can still be read. */
    Rig *r = rig_new(".kernel t\n"
                     "    shfl.sync.up.b32 %r4, %r1, 1\n"
                     "    shfl.sync.down.b32 %r5, %r1, 1\n"
                     "    @%p0 shfl.sync.bfly.b32 %r6, %r1, 1\n"
                     "    shfl.sync.bfly.b32 %r7, %r1, 20, 0x101f\n" /* b >= w: PTX reads a lower segment */
                     "    exit\n", 32, 0);
    for (uint32_t l = 0; l < 32; l++) r->regs[1][l] = 100 + l, r->regs[6][l] = 7;
    r->w.pred[0] = 0x0000ffffu;
    rig_run(r);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(r->regs[4][l], 100 + (l ? l - 1 : 0));
        ck_assert_uint_eq(r->regs[5][l], 100 + (l < 31 ? l + 1 : 31));
        ck_assert_uint_eq(r->regs[6][l], l < 16 ? 100 + (l ^ 1) : 7);
        uint32_t j = l ^ 20, max_lane = (l & 16) | 15; /* PTX: j <= maxLane */
        ck_assert_uint_eq(r->regs[7][l], 100 + (j <= max_lane ? j : l));
    }
    ck_assert_uint_eq(r->regs[7][20], 100); /* lane 20 reads lane 0 */
    ck_assert_uint_eq(r->regs[7][4], 104);  /* lane 4 would read lane 16: above its segment, keeps its own */
    rig_free(r);
}
END_TEST

START_TEST(test_warp_sum)
{
    /* The reduction of isa/ISA.md: after offsets 16..1 lane 0 holds the sum. */
    Rig *r = rig_new(".kernel t\n"
                     "    shfl.sync.down.b32 %r8, %r7, 16\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.down.b32 %r8, %r7, 8\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.down.b32 %r8, %r7, 4\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.down.b32 %r8, %r7, 2\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.down.b32 %r8, %r7, 1\n    add.u32 %r7, %r7, %r8\n"
                     "    shfl.sync.idx.b32 %r9, %r7, 0\n    exit\n", 32, 0);
    uint32_t sum = 0;
    for (uint32_t l = 0; l < 32; l++) r->regs[7][l] = l * l + 3, sum += l * l + 3;
    rig_run(r);
    ck_assert_uint_eq(r->regs[7][0], sum);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[9][l], sum); /* broadcast */
    rig_free(r);
}
END_TEST

START_TEST(test_vote_ballot)
{
    Rig *r = rig_new(".kernel t\n"
                     "    vote.sync.ballot.b32 %r1, %p0\n"
                     "    vote.sync.ballot.b32 %r2, !%p0\n"
                     "    @%p1 vote.sync.ballot.b32 %r3, %p0\n"
                     "    @%p1 bra ODD\n"
                     "    vote.sync.ballot.b32 %r4, %p0\n" /* inside a divergent path */
                     "    bra JOIN\n"
                     "ODD:\n"
                     "    vote.sync.ballot.b32 %r4, %p0\n"
                     "JOIN:\n"
                     "    exit\n", 32, 0);
    uint32_t p0 = 0x12345678u, p1 = 0xaaaaaaaau;
    r->w.pred[0] = p0, r->w.pred[1] = p1;
    for (uint32_t l = 0; l < 32; l++) r->regs[3][l] = 9;
    rig_run(r);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(r->regs[1][l], p0);
        ck_assert_uint_eq(r->regs[2][l], ~p0);
        ck_assert_uint_eq(r->regs[3][l], (p1 >> l & 1) ? (p0 & p1) : 9);
        ck_assert_uint_eq(r->regs[4][l], (p1 >> l & 1) ? (p0 & p1) : (p0 & ~p1));
    }
    rig_free(r);
}
END_TEST

/* ------------------------------------------------------------- faults */

START_TEST(test_fault_global_oob)
{
    /* Lanes read buf[lane + 2] of a 32-word buffer: lane 30 is the first
    ** past the end; the report names the nearest buffer and the offset. */
    Rig *r = rig_new(".kernel t\n.param .ptr buf\n"
                     "    ld.param.u32 %r0, [buf]\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    shl.b32 %r1, %r1, 2\n"
                     "    add.u32 %r1, %r1, %r0\n"
                     "    @%p0 ld.global.u32 %r2, [%r1+8]\n"
                     "    exit\n", 32, 0);
    Diag d;
    uint32_t a = gmem_alloc(r->gmem, 64, "a", &d);
    uint32_t buf = gmem_alloc(r->gmem, 128, "buf", &d);
    ck_assert_uint_eq(a, GMEM_BASE);
    ck_assert_uint_ge(buf, a + 64 + GMEM_GAP);
    r->params[0] = buf;
    r->w.pred[0] = 0x3fffffffu; /* lanes 30 and 31 inactive: no fault */
    rig_run(r);
    rig_restart(r);
    r->w.pred[0] = ALL;
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_GLOBAL_OOB);
    ck_assert_uint_eq(f.pc, 4);
    ck_assert_uint_eq(f.lane, 30);
    ck_assert_uint_eq(f.addr, buf + 128);
    ck_assert_uint_eq(f.size, 4);
    char msg[1024];
    uint32_t ctaid[3] = { 2, 0, 0 }, ntid[3] = { 64, 1, 1 };
    grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &f, ctaid, ntid, 1, msg, sizeof msg);
    char expect[1024];
    snprintf(expect, sizeof expect,
             "t.asm:7:5: out-of-bounds global access of 4 bytes at address 0x%x (0 bytes after the end of buffer "
             "'buf' of 128 bytes at 0x%x)\n"
             "    in kernel 't' at pc 4: @%%p0 ld.global.u32 %%r2, [%%r1+8]\n"
             "    by thread (62,0,0) of block (2,0,0) (warp 1, lane 30)",
             buf + 128, buf);
    ck_assert_str_eq(msg, expect);
    /* before a buffer, between two, and the null page */
    ExecFault g = f;
    g.addr = buf - 8;
    grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &g, ctaid, ntid, 1, msg, sizeof msg);
    ck_assert_msg(strstr(msg, "(8 bytes before buffer 'buf' of 128 bytes") != NULL, "%s", msg);
    g.addr = a + 64 + 4;
    grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &g, ctaid, ntid, 1, msg, sizeof msg);
    ck_assert_msg(strstr(msg, "(4 bytes after the end of buffer 'a' of 64 bytes") != NULL, "%s", msg);
    g.addr = 0;
    grid_describe_fault(r->b.kernel, "t.asm", r->gmem, &g, ctaid, ntid, 1, msg, sizeof msg);
    ck_assert_msg(strstr(msg, "at address 0x0 (65536 bytes before buffer 'a'") != NULL, "%s", msg);
    rig_free(r);
}
END_TEST

START_TEST(test_fault_shared_oob)
{
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    setp.eq.u32 %p0, %r1, 5\n"
                     "    ld.shared.u32 %r2, [252]\n"
                     "    @%p0 ld.shared.v2.u32 {%r2, %r3}, [248]\n"
                     "    @%p0 st.shared.v2.u32 [252], {%r2, %r3}\n"
                     "    exit\n", 32, 0);
    r->b.smem_size = 256;
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_MISALIGNED); /* 252 is not 8-byte aligned: checked first */
    ck_assert_uint_eq(f.pc, 4);
    rig_free(r);
    r = rig_new(".kernel t\n"
                "    mov.u32 %r1, %laneid\n"
                "    shl.b32 %r1, %r1, 3\n"
                "    ld.shared.v2.u32 {%r2, %r3}, [%r1+8]\n"
                "    exit\n", 32, 0);
    r->b.smem_size = 256;
    f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_SHARED_OOB);
    ck_assert_uint_eq(f.lane, 31);
    ck_assert_uint_eq(f.addr, 256);
    ck_assert_uint_eq(f.size, 8);
    char msg[1024];
    uint32_t ctaid[3] = { 0, 0, 0 }, ntid[3] = { 32, 1, 1 };
    grid_describe_fault(r->b.kernel, "s.asm", r->gmem, &f, ctaid, ntid, 0, msg, sizeof msg);
    const char *head = "s.asm:4:5: out-of-bounds shared access of 8 bytes at address 0x100\n";
    ck_assert_msg(strncmp(msg, head, strlen(head)) == 0, "%s", msg);
    rig_free(r);
}
END_TEST

static const struct {
    const char *access;
    uint32_t    offset, size;
} misaligned[] = {
    { "ld.global.v4.f32 {%r4, %r5, %r6, %r7}, [%r1+8]", 8, 16 },
    { "st.global.v2.f32 [%r1+4], {%r4, %r5}", 4, 8 },
    { "ld.global.u32 %r4, [%r1+2]", 2, 4 },
    { "atom.global.add.u32 %r4, [%r1+1], 1", 1, 4 },
};

START_TEST(test_fault_misaligned)
{
    char src[256];
    snprintf(src, sizeof src, ".kernel t\n.param .ptr buf\n    ld.param.u32 %%r1, [buf]\n    %s\n    exit\n",
             misaligned[_i].access);
    Rig *r = rig_new(src, 32, 0);
    Diag d;
    r->params[0] = gmem_alloc(r->gmem, 256, "buf", &d);
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_MISALIGNED);
    ck_assert_uint_eq(f.lane, 0);
    ck_assert_uint_eq(f.addr, r->params[0] + misaligned[_i].offset);
    ck_assert_uint_eq(f.size, misaligned[_i].size);
    ck_assert_str_eq(exec_fault_name(f.kind), "misaligned access");
    rig_free(r);
}
END_TEST

/* A full warp whose one misaligned lane is not the first: the fault names
** that lane (every lane's low bits are tested together first). */
START_TEST(test_fault_misaligned_names_the_lane)
{
    Rig *r = rig_new(".kernel t\n.param .ptr buf\n"
                     "    ld.param.u32 %r2, [buf]\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    setp.eq.u32 %p0, %r1, 7\n"
                     "    shl.b32 %r1, %r1, 2\n"
                     "    @%p0 add.u32 %r1, %r1, 2\n"
                     "    add.u32 %r1, %r1, %r2\n"
                     "    ld.global.u32 %r4, [%r1]\n"
                     "    exit\n", 32, 0);
    Diag d;
    r->params[0] = gmem_alloc(r->gmem, 256, "buf", &d);
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_MISALIGNED);
    ck_assert_uint_eq(f.pc, 6);
    ck_assert_uint_eq(f.lane, 7);
    ck_assert_uint_eq(f.addr, r->params[0] + 30);
    rig_free(r);
}
END_TEST

START_TEST(test_fault_uniform_diverged)
{
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r1, %laneid\n"
                     "    setp.ge.u32 %p0, %r1, 100\n"
                     "    @%p0 bra.uni SKIP\n"     /* no lane: falls through */
                     "    setp.lt.u32 %p0, %r1, 100\n"
                     "    @%p0 bra.uni SKIP\n"     /* every lane: jumps */
                     "    mov.u32 %r9, 1\n"
                     "SKIP:\n"
                     "    and.b32 %r2, %r1, 1\n"
                     "    setp.eq.u32 %p1, %r2, 1\n"
                     "    @%p1 bra.uni END\n"     /* odd lanes only: fault */
                     "END:\n"
                     "    exit\n", 32, 0);
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_UNIFORM_DIVERGED);
    ck_assert_uint_eq(f.pc, 8);
    ck_assert_uint_eq(f.lane, 1);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[9][l], 0);
    rig_free(r);
}
END_TEST

START_TEST(test_fault_stack_overflow)
{
    /* Nested divergent ifs, each splitting off one more lane: the stack
    ** grows by two entries per level and overflows at SIMT_MAX_DEPTH. */
    char *src = malloc(16384);
    size_t n = (size_t)sprintf(src, ".kernel t\n    mov.u32 %%r1, %%laneid\n");
    for (int i = 0; i < 20; i++)
        n += (size_t)sprintf(src + n, "    setp.gt.u32 %%p0, %%r1, %d\n    @%%p0 bra IN%d\n    add.u32 %%r2, %%r2, 1\nIN%d:\n",
                             i, i, i);
    n += (size_t)sprintf(src + n, "    add.u32 %%r3, %%r3, 1\n");
    for (int i = 0; i < 20; i++) n += (size_t)sprintf(src + n, "    add.u32 %%r4, %%r4, %d\n", i);
    sprintf(src + n, "    exit\n");
    /* 20 ifs in a row, each reconverging before the next: the stack stays
    ** shallow however many there are. */
    Rig *r = rig_new(src, 32, 0);
    rig_run(r);
    ck_assert_uint_le(r->max_depth, 3);
    rig_free(r);

    /* 20 if/else nested in the taken side, closing in reverse order. */
    n = (size_t)sprintf(src, ".kernel t\n    mov.u32 %%r1, %%laneid\n");
    for (int i = 0; i < 20; i++)
        n += (size_t)sprintf(src + n, "    setp.gt.u32 %%p0, %%r1, %d\n    @%%p0 bra IN%d\n    add.u32 %%r2, %%r2, 1\n"
                                      "    bra OUT%d\nIN%d:\n", i, i, i, i);
    for (int i = 20; i-- > 0;) n += (size_t)sprintf(src + n, "OUT%d:\n    add.u32 %%r4, %%r4, %d\n", i, i);
    sprintf(src + n, "    exit\n");
    r = rig_new(src, 32, 0);
    ExecFault f = rig_fault(r);
    ck_assert_int_eq(f.kind, FAULT_STACK_OVERFLOW);
    ck_assert_str_eq(exec_fault_name(f.kind), "divergence nested too deeply");
    rig_free(r);
    free(src);
}
END_TEST

/* ------------------------------------------------------------ SIMT stack */

static const char *const EVEN_ODD =
    ".kernel t\n"
    "    mov.u32 %r0, %laneid\n"
    "    and.b32 %r1, %r0, 1\n"
    "    setp.eq.u32 %p0, %r1, 1\n"
    "    @%p0 bra ODD\n"
    "EVEN:\n"
    "    mov.u32 %r2, 10\n"
    "    add.u32 %r2, %r2, %r0\n"
    "    bra JOIN\n"
    "ODD:\n"
    "    mov.u32 %r2, 20\n"
    "JOIN:\n"
    "    add.u32 %r3, %r2, 1\n"
    "    exit\n";

START_TEST(test_simt_even_odd)
{
    Rig *r = rig_new(EVEN_ODD, 32, 0);
    uint32_t issued = rig_run(r);
    uint32_t even = label_pc(r, "EVEN"), odd = label_pc(r, "ODD"), join = label_pc(r, "JOIN"), masks;
    ck_assert_uint_eq(r->b.kernel->code[3].reconv, join);
    /* both paths issued, each once, under complementary masks */
    ck_assert_uint_eq(issues_at(r, even, &masks), 1);
    ck_assert_uint_eq(masks, 0x55555555u);
    ck_assert_uint_eq(issues_at(r, odd, &masks), 1);
    ck_assert_uint_eq(masks, 0xaaaaaaaau);
    ck_assert_uint_eq(issues_at(r, join, &masks), 1);
    ck_assert_uint_eq(masks, ALL);
    ck_assert_uint_eq(issued, 4 + 3 + 1 + 2);
    /* the taken path runs first */
    ck_assert_uint_eq(r->trace[4].pc, odd);
    ck_assert_uint_eq(r->trace[5].pc, even);
    ck_assert_uint_eq(r->max_depth, 3);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[3][l], (l & 1) ? 21 : 11 + l);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_diverged_flag)
{
    Rig *r = rig_new(EVEN_ODD, 32, 0);
    for (int i = 0; i < 3; i++) rig_step(r);
    ck_assert(!r->out.diverged);
    rig_step(r);
    ck_assert(r->out.diverged);
    ck_assert_uint_eq(r->out.exec_mask, 0xaaaaaaaau);
    ck_assert_uint_eq(exec_pc(&r->w), label_pc(r, "ODD"));
    rig_free(r);
}
END_TEST

/* The even/odd kernel with a condition every lane agrees on. */
static const char *const UNIFORM_CMP[] = { "lt", "gt" };

START_TEST(test_simt_uniform_branch)
{
    /* All lanes agree: no split, the other path is never issued. */
    char src[512];
    snprintf(src, sizeof src,
             ".kernel t\n"
             "    mov.u32 %%r0, %%laneid\n"
             "    setp.%s.u32 %%p0, %%r0, 32\n" /* lt: every lane; gt: none */
             "    @%%p0 bra ODD\n"
             "EVEN:\n"
             "    mov.u32 %%r2, 10\n"
             "    bra JOIN\n"
             "ODD:\n"
             "    mov.u32 %%r2, 20\n"
             "JOIN:\n"
             "    exit\n", UNIFORM_CMP[_i]);
    Rig *r = rig_new(src, 32, 0);
    uint32_t issued = rig_run(r);
    bool taken = _i == 0;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "ODD"), NULL), taken);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "EVEN"), NULL), !taken);
    ck_assert_uint_eq(r->max_depth, 1);
    ck_assert_uint_eq(issued, taken ? 5 : 6);
    for (uint32_t i = 0; i < r->nsteps; i++) ck_assert_uint_eq(r->trace[i].active, ALL);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[2][l], taken ? 20 : 10);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_nested)
{
    /* if (bit0) { if (bit1) A else B } else { if (bit2) C } ; join */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    and.b32 %r1, %r0, 1\n"
                     "    setp.ne.u32 %p0, %r1, 0\n"
                     "    and.b32 %r1, %r0, 2\n"
                     "    setp.ne.u32 %p1, %r1, 0\n"
                     "    and.b32 %r1, %r0, 4\n"
                     "    setp.ne.u32 %p2, %r1, 0\n"
                     "    @!%p0 bra ELSE0\n"
                     "    @!%p1 bra B\n"
                     "A:  mov.u32 %r2, 1\n"
                     "    bra J1\n"
                     "B:  mov.u32 %r2, 2\n"
                     "J1: add.u32 %r2, %r2, 10\n"
                     "    bra J0\n"
                     "ELSE0:\n"
                     "    @!%p2 bra J0\n"
                     "C:  mov.u32 %r2, 3\n"
                     "J0: add.u32 %r3, %r2, 100\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "A"), &m), 1);
    ck_assert_uint_eq(m, 0x88888888u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "B"), &m), 1);
    ck_assert_uint_eq(m, 0x22222222u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "J1"), &m), 1);
    ck_assert_uint_eq(m, 0xaaaaaaaau);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "C"), &m), 1);
    ck_assert_uint_eq(m, 0x50505050u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "J0"), &m), 1);
    ck_assert_uint_eq(m, ALL);
    ck_assert_uint_le(r->max_depth, 5);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t want = (l & 1) ? ((l & 2) ? 111 : 112) : ((l & 4) ? 103 : 100);
        ck_assert_uint_eq(r->regs[3][l], want);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_simt_divergent_loop)
{
    /* Lane i loops i times: results right, the body issued 31 times under
    ** shrinking masks, and the stack stays flat. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    mov.u32 %r1, 0\n"
                     "    mov.u32 %r2, 0\n"
                     "TOP:\n"
                     "    setp.ge.u32 %p0, %r1, %r0\n"
                     "    @%p0 bra DONE\n"
                     "BODY:\n"
                     "    add.u32 %r2, %r2, %r1\n"
                     "    add.u32 %r1, %r1, 1\n"
                     "    bra TOP\n"
                     "DONE:\n"
                     "    add.u32 %r3, %r1, 1000\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "BODY"), NULL), 31);
    uint32_t t = 0;
    for (uint32_t i = 0; i < r->nsteps; i++)
        if (r->trace[i].pc == label_pc(r, "BODY")) {
            ck_assert_uint_eq(r->trace[i].exec_mask, ALL << (t + 1)); /* lanes > t still loop */
            t++;
        }
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "DONE"), &m), 1);
    ck_assert_uint_eq(m, ALL);
    ck_assert_uint_le(r->max_depth, 2);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(r->regs[1][l], l);
        ck_assert_uint_eq(r->regs[2][l], l * (l ? l - 1 : 0) / 2); /* 0 + 1 + ... + (l - 1) */
        ck_assert_uint_eq(r->regs[3][l], l + 1000);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_simt_do_while_loop)
{
    /* The back edge itself diverges: lane i runs the body i + 1 times. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "BODY:\n"
                     "    add.u32 %r2, %r2, 1\n"
                     "    add.u32 %r1, %r1, 1\n"
                     "    setp.le.u32 %p0, %r1, %r0\n"
                     "    @%p0 bra BODY\n"
                     "AFTER:\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "BODY"), NULL), 32);
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "AFTER"), &m), 1);
    ck_assert_uint_eq(m, ALL);
    ck_assert_uint_le(r->max_depth, 2);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[2][l], l + 1);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_exit_in_divergence)
{
    /* Inside the odd path, lanes 1 mod 4 exit under a guard; lanes 3 mod 4
    ** go on; exited lanes keep their registers as they were when they left.
    ** A guarded exit only removes lanes, so the paths still reconverge at
    ** JOIN and run it once, together. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    and.b32 %r1, %r0, 1\n"
                     "    setp.eq.u32 %p0, %r1, 1\n"
                     "    and.b32 %r1, %r0, 3\n"
                     "    setp.eq.u32 %p1, %r1, 1\n"
                     "    @%p0 bra ODD\n"
                     "    mov.u32 %r2, 2\n"
                     "    bra JOIN\n"
                     "ODD:\n"
                     "    mov.u32 %r2, 1\n"
                     "EX: @%p1 exit\n"
                     "    add.u32 %r2, %r2, 4\n"
                     "JOIN:\n"
                     "    add.u32 %r3, %r2, 100\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "EX"), &m), 1);
    ck_assert_uint_eq(m, 0x22222222u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "EX") + 1, &m), 1);
    ck_assert_uint_eq(m, 0x88888888u);
    ck_assert_uint_eq(r->b.kernel->code[5].reconv, label_pc(r, "JOIN"));
    ck_assert_uint_eq(issues_at(r, label_pc(r, "JOIN"), &m), 1);
    ck_assert_uint_eq(m, ~0x22222222u);
    ck_assert_uint_eq(r->w.live, 0);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t r2 = (l & 1) ? ((l & 3) == 1 ? 1 : 5) : 2;
        ck_assert_uint_eq(r->regs[2][l], r2);
        ck_assert_uint_eq(r->regs[3][l], (l & 3) == 1 ? 0 : r2 + 100);
    }
    rig_free(r);
}
END_TEST

START_TEST(test_simt_path_exits)
{
    /* A whole path exits (the odd lanes); the even path still reaches the
    ** join, alone. Then a guarded exit of all remaining lanes ends the warp. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    and.b32 %r1, %r0, 1\n"
                     "    setp.eq.u32 %p0, %r1, 1\n"
                     "    @%p0 bra ODD\n"
                     "    mov.u32 %r2, 2\n"
                     "    bra JOIN\n"
                     "ODD:\n"
                     "    exit\n"
                     "JOIN:\n"
                     "    setp.lt.u32 %p1, %r0, 64\n"
                     "    @%p1 exit\n"
                     "    mov.u32 %r9, 9\n"
                     "    exit\n", 32, 0);
    rig_run(r);
    uint32_t m;
    ck_assert_uint_eq(issues_at(r, label_pc(r, "JOIN"), &m), 1);
    ck_assert_uint_eq(m, 0x55555555u);
    ck_assert_uint_eq(issues_at(r, label_pc(r, "JOIN") + 2, NULL), 0);
    ck_assert_uint_eq(r->trace[r->nsteps - 1].pc, label_pc(r, "JOIN") + 1);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(r->regs[9][l], 0);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_branch_none_taken)
{
    Rig *r = rig_new(".kernel t\n    @%p0 bra SKIP\n    mov.u32 %r1, 1\nSKIP:\n    exit\n", 32, 0);
    rig_step(r);
    ck_assert(!r->out.diverged);
    ck_assert_uint_eq(r->out.exec_mask, 0);
    ck_assert_uint_eq(exec_pc(&r->w), 1);
    rig_run(r);
    ck_assert_uint_eq(r->regs[1][31], 1);
    rig_free(r);
}
END_TEST

START_TEST(test_simt_barrier)
{
    /* bar.sync with every live lane: a plain barrier. Inside a divergent
    ** path: flagged partial. After some lanes exited, the rest are all the
    ** live lanes: not partial. */
    Rig *r = rig_new(".kernel t\n"
                     "    mov.u32 %r0, %laneid\n"
                     "    bar.sync 0\n"
                     "    setp.lt.u32 %p0, %r0, 8\n"
                     "    @%p0 bra LOW\n"
                     "    bar.sync 0\n"
                     "LOW:\n"
                     "    @%p0 exit\n"
                     "    bar.sync\n"
                     "    exit\n", 32, 0);
    rig_step(r);
    rig_step(r);
    ck_assert(r->out.at_barrier);
    ck_assert(!r->out.barrier_partial);
    rig_step(r);
    ck_assert(!r->out.at_barrier);
    rig_step(r); /* diverges; the target is the reconvergence point, so only */
    ck_assert(r->out.diverged); /* the fall-through path is pushed       */
    rig_step(r); /* lanes 8..31 reach the bar.sync without lanes 0..7 */
    ck_assert_uint_eq(r->out.pc, 4);
    ck_assert(r->out.at_barrier);
    ck_assert(r->out.barrier_partial);
    ck_assert_uint_eq(r->out.active, 0xffffff00u);
    rig_step(r); /* LOW, reconverged: lanes 0..7 exit */
    ck_assert_uint_eq(r->out.active, ALL);
    ck_assert_uint_eq(r->out.exec_mask, 0xffu);
    rig_step(r);
    ck_assert_uint_eq(r->out.pc, 6);
    ck_assert(r->out.at_barrier);
    ck_assert(!r->out.barrier_partial); /* lanes 0..7 exited: the rest are all live lanes */
    ck_assert_uint_eq(r->out.active, 0xffffff00u);
    rig_step(r);
    ck_assert(r->out.exited);
    rig_free(r);
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
    tcase_add_loop_test(mem, test_atomics, 0, (int)(sizeof atom_rows / sizeof atom_rows[0]));
    tcase_add_test(mem, test_atomic_counter);
    tcase_add_test(mem, test_memory_space_of_every_row);
    tcase_add_test(mem, test_deferred_global);
    suite_add_tcase(s, mem);

    TCase *warp = tcase_create("Warp");
    tcase_add_loop_test(warp, test_shfl, 0, (int)(sizeof shfl_rows / sizeof shfl_rows[0]));
    tcase_add_test(warp, test_shfl_defaults_and_masks);
    tcase_add_test(warp, test_warp_sum);
    tcase_add_test(warp, test_vote_ballot);
    suite_add_tcase(s, warp);

    TCase *faults = tcase_create("Faults");
    tcase_add_test(faults, test_fault_global_oob);
    tcase_add_test(faults, test_fault_shared_oob);
    tcase_add_loop_test(faults, test_fault_misaligned, 0, (int)(sizeof misaligned / sizeof misaligned[0]));
    tcase_add_test(faults, test_fault_misaligned_names_the_lane);
    tcase_add_test(faults, test_fault_uniform_diverged);
    tcase_add_test(faults, test_fault_stack_overflow);
    suite_add_tcase(s, faults);

    TCase *simt = tcase_create("Simt");
    tcase_add_test(simt, test_simt_even_odd);
    tcase_add_test(simt, test_simt_diverged_flag);
    tcase_add_loop_test(simt, test_simt_uniform_branch, 0, 2);
    tcase_add_test(simt, test_simt_nested);
    tcase_add_test(simt, test_simt_divergent_loop);
    tcase_add_test(simt, test_simt_do_while_loop);
    tcase_add_test(simt, test_simt_exit_in_divergence);
    tcase_add_test(simt, test_simt_path_exits);
    tcase_add_test(simt, test_simt_branch_none_taken);
    tcase_add_test(simt, test_simt_barrier);
    suite_add_tcase(s, simt);
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

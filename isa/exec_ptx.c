/* isa/exec_ptx.c -- lane semantics of the PTX-only register rows of
** isa/opcodes.def (OPF_PTX): 64-bit integers and binary64 floats on
** register pairs, cvt between every integer width, f32 and f64 with its
** rounding modes, bit-field and byte permutes, the extra float and
** predicate operations, half-precision arithmetic (.f16 .bf16 and their
** x2 pairs), and the votes. Part of
** the exec module (isa/exec.h, exec_ptx_alu); isa/exec.c keeps the memory,
** control and 32-bit rows, whose loops stay as they were.
** Semantics: the PTX ISA manual (ISA version 8.x/9.0, "Instruction Set"),
** with the same defined results as isa/ISA.md "Edge cases" where PTX leaves
** a case undefined (division by zero, oversized shifts). Not modelled:
** .ftz (subnormals are kept), .sat on f32/f64 arithmetic (refused by the
** front end). Binary64 rows compute in C's double, which is IEEE binary64
** with round to nearest even; directed rounding (.rz .rm .rp) is
** isa/exec_round.c's. 64-bit immediates come from the kernel's constant pool. */
#include "isa/exec.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <string.h>


/* A 32-bit source of every lane. */
static void src32(const WarpExec *w, const Operand *o, uint32_t v[WARP_SIZE])
{
    if (o->kind == OPND_REG) memcpy(v, w->r[o->index], sizeof(uint32_t) * WARP_SIZE);
    else
        for (int l = 0; l < WARP_SIZE; l++) v[l] = o->value;
}

/* A 64-bit source of every lane: a register pair, or a pooled immediate. */
static void src64(const ExecBlock *b, const WarpExec *w, const Operand *o, uint64_t v[WARP_SIZE])
{
    if (o->kind == OPND_REG) {
        const uint32_t *lo = w->r[o->index], *hi = w->r[o->index + 1];
        for (int l = 0; l < WARP_SIZE; l++) v[l] = (uint64_t)hi[l] << 32 | lo[l];
        return;
    }
    uint64_t c = exec_imm64(b->kernel, o);
    for (int l = 0; l < WARP_SIZE; l++) v[l] = c;
}

/* The writes of the lanes in m: a full warp's row written without being
** read, else a blend by lane words (vector code, where a test of bit l of m
** per lane is not). */
static void write_row(uint32_t *D, const uint32_t v[WARP_SIZE], uint32_t m)
{
    if (m == UINT32_MAX) {
        memcpy(D, v, sizeof(uint32_t) * WARP_SIZE);
        return;
    }
    uint32_t mw[WARP_SIZE];
    exec_lanes_from_mask(m, mw);
    for (int l = 0; l < WARP_SIZE; l++) D[l] = (v[l] & mw[l]) | (D[l] & ~mw[l]);
}

static void dst32(WarpExec *w, const Operand *o, const uint32_t v[WARP_SIZE], uint32_t m)
{
    write_row(w->r[o->index], v, m);
}

static void dst64(WarpExec *w, const Operand *o, const uint64_t v[WARP_SIZE], uint32_t m)
{
    uint32_t *lo = w->r[o->index], *hi = w->r[o->index + 1];
    if (m == UINT32_MAX) {
        for (int l = 0; l < WARP_SIZE; l++) lo[l] = (uint32_t)v[l], hi[l] = (uint32_t)(v[l] >> 32);
        return;
    }
    uint32_t mw[WARP_SIZE];
    exec_lanes_from_mask(m, mw);
    for (int l = 0; l < WARP_SIZE; l++) lo[l] = ((uint32_t)v[l] & mw[l]) | (lo[l] & ~mw[l]);
    for (int l = 0; l < WARP_SIZE; l++) hi[l] = ((uint32_t)(v[l] >> 32) & mw[l]) | (hi[l] & ~mw[l]);
}

static void dstp(WarpExec *w, const Operand *o, uint32_t v, uint32_t m)
{
    uint32_t *P = &w->pred[o->index];
    *P = (*P & ~m) | (v & m);
}


/* ------------------------------------------------------------------ cvt */

/* Sign- or zero-extends the low `bytes` bytes of v as type t to 64 bits. */
static int64_t int_of(uint64_t v, ValueType t)
{
    switch (type_bytes(t)) {
    case 1: return type_signed(t) ? (int64_t)(int8_t)v : (int64_t)(uint8_t)v;
    case 2: return type_signed(t) ? (int64_t)(int16_t)v : (int64_t)(uint16_t)v;
    case 4: return type_signed(t) ? (int64_t)(int32_t)v : (int64_t)(uint32_t)v;
    default: return (int64_t)v;
    }
}

/* The range of integer type t, as long doubles (exact for 64 bits). */
static void int_range(ValueType t, long double *lo, long double *hi)
{
    uint32_t n = type_bytes(t) * 8;
    if (type_signed(t)) {
        *lo = -ldexpl(1.0L, (int)n - 1);
        *hi = ldexpl(1.0L, (int)n - 1) - 1.0L;
    } else {
        *lo = 0.0L;
        *hi = ldexpl(1.0L, (int)n) - 1.0L;
    }
}

/* Rounds x to an integral value as the mode says (nearest even by default). */
static long double round_integral(long double x, CvtRound r)
{
    switch (r) {
    case RND_RZI: return truncl(x);
    case RND_RMI: return floorl(x);
    case RND_RPI: return ceill(x);
    default: {
        long double f = floorl(x), d = x - f;
        if (d > 0.5L || (d == 0.5L && fmodl(f, 2.0L) != 0.0L)) f += 1.0L;
        return f;
    }
    }
}

/* x (exact) rounded to the nearest f32 in direction r (.rn .rz .rm .rp). */
static float to_f32(long double x, CvtRound r)
{
    float f = (float)x; /* round to nearest even (the default mode) */
    if (r == RND_RN || r == RND_NONE || (long double)f == x || isinf(f)) {
        if (isinf(f) && r != RND_RN && r != RND_NONE) { /* directed rounding never overflows past the range */
            bool toward_zero = r == RND_RZ || (r == RND_RM && x > 0) || (r == RND_RP && x < 0);
            if (toward_zero) return x > 0 ? FLT_MAX : -FLT_MAX;
        }
        return f;
    }
    bool up = r == RND_RP || (r == RND_RZ && x < 0);
    if (up && (long double)f < x) f = nextafterf(f, INFINITY);
    if (!up && (long double)f > x) f = nextafterf(f, -INFINITY);
    return f;
}

/* x (exact) rounded to the nearest f64 in direction r, as to_f32. */
static double to_f64(long double x, CvtRound r)
{
    double f = (double)x;
    if (r == RND_RN || r == RND_NONE || (long double)f == x || isinf(f)) {
        if (isinf(f) && r != RND_RN && r != RND_NONE) {
            bool toward_zero = r == RND_RZ || (r == RND_RM && x > 0) || (r == RND_RP && x < 0);
            if (toward_zero) return x > 0 ? DBL_MAX : -DBL_MAX;
        }
        return f;
    }
    bool up = r == RND_RP || (r == RND_RZ && x < 0);
    if (up && (long double)f < x) f = nextafter(f, INFINITY);
    if (!up && (long double)f > x) f = nextafter(f, -INFINITY);
    return f;
}

static bool is_fp(ValueType t) { return t == TYPE_F32 || t == TYPE_F64 || t == TYPE_F16 || t == TYPE_BF16; }

/* .sat on a float result: clamped to [+0, 1], NaN and -0 give +0. */
static double sat01(double y) { return isnan(y) ? 0.0 : y <= 0.0 ? 0.0 : y > 1.0 ? 1.0 : y; }

/* One 16-bit element of a half-precision row (HalfOp in.mod, type in.type):
** the exact result of the 16-bit values, rounded once to nearest even
** (a product, a sum and f16's fma are exact in long double first). */
static uint32_t half_elem(const Instr *in, uint32_t a, uint32_t b, uint32_t c)
{
    ValueType t = (ValueType)in->type;
    long double x = exec_small_value(a, t), y = exec_small_value(b, t), r;
    switch ((HalfOp)in->mod) {
    case HALF_NEG: return a ^ 0x8000u;
    case HALF_ABS: return a & 0x7fffu;
    case HALF_MIN:
    case HALF_MAX: { /* a NaN yields the other; -0 < +0 */
        bool max = in->mod == HALF_MAX;
        if (isnan(x)) return isnan(y) ? 0x7fffu : b;
        if (isnan(y) || (x == y ? (a >> 15 != 0) != max : (x < y) != max)) return a;
        return b;
    }
    case HALF_ADD: r = x + y; break;
    case HALF_SUB: r = x - y; break;
    case HALF_MUL: r = x * y; break;
    case HALF_FMA: r = x * y + (long double)exec_small_value(c, t); break;
    default: r = NAN; break;
    }
    return exec_small_bits(in->iflags & INSTR_SAT ? sat01((double)r) : r, RND_RN, t);
}

/* A half-precision row on a lane's 32-bit values: one element in the low
** half (the high half zero), or two (in.sub 2: the .f16x2/.bf16x2 forms). */
static uint32_t half_lane(const Instr *in, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t lo = half_elem(in, a & 0xffffu, b & 0xffffu, c & 0xffffu);
    return in->sub == 2 ? lo | half_elem(in, a >> 16, b >> 16, c >> 16) << 16 : lo;
}

static uint64_t cvt_lane(const Instr *in, uint64_t v)
{
    ValueType dt = (ValueType)in->type, st = (ValueType)in->stype;
    CvtRound r = (CvtRound)in->sub;
    bool sat = in->iflags & INSTR_SAT;
    bool dfloat = is_fp(dt);
    if (st == TYPE_F32 && dt == TYPE_F32) {
        float x = bits_f32((uint32_t)v), y = x;
        if (r >= RND_RNI && !isnan(x) && !isinf(x)) y = (float)round_integral(x, r);
        if (sat) y = isnan(y) ? 0.0f : y < 0.0f ? 0.0f : y > 1.0f ? 1.0f : y;
        return bits_of_f32(y);
    }
    if (is_fp(st)) {
        double x = st == TYPE_F32 ? (double)bits_f32((uint32_t)v) : st == TYPE_F64 ? bits_f64(v) : exec_small_value((uint32_t)v, st);
        if (dfloat) { /* between the float widths, or to an integral value */
            double y = x;
            if (r >= RND_RNI && !isnan(x) && !isinf(x)) y = (double)round_integral(x, r);
            if (dt == TYPE_F16 || dt == TYPE_BF16) return exec_small_bits(sat ? sat01(y) : y, r >= RND_RNI || r == RND_NONE ? RND_RN : r, dt);
            if (dt == TYPE_F32) {
                float f = to_f32(y, r >= RND_RNI || r == RND_NONE ? RND_RN : r);
                return bits_of_f32(sat ? (float)sat01(f) : f);
            }
            return bits_of_f64(sat ? sat01(y) : y); /* from f32: exact */
        }
        /* float to integer: rounded as written, saturating, NaN gives 0 */
        if (isnan(x)) return 0;
        long double lo, hi, y = round_integral(x, r == RND_NONE ? RND_RZI : r);
        int_range(dt, &lo, &hi);
        if (y < lo) y = lo;
        if (y > hi) y = hi;
        return type_signed(dt) ? (uint64_t)(int64_t)y : (uint64_t)y;
    }
    int64_t i = int_of(v, st);
    bool src_unsigned_64 = type_bytes(st) == 8 && !type_signed(st);
    if (dfloat) {
        long double x = src_unsigned_64 ? (long double)v : (long double)i;
        CvtRound rr = r == RND_NONE ? RND_RN : r;
        if (dt == TYPE_F16 || dt == TYPE_BF16) return exec_small_bits(x, rr, dt);
        return dt == TYPE_F32 ? bits_of_f32(to_f32(x, rr)) : bits_of_f64(to_f64(x, rr));
    }
    /* integer to integer: truncate or extend; .sat clamps to the destination */
    if (sat) {
        long double lo, hi, x = src_unsigned_64 ? (long double)v : (long double)i;
        int_range(dt, &lo, &hi);
        if (x < lo) return (uint64_t)(int64_t)lo;
        if (x > hi) return type_signed(dt) ? (uint64_t)(int64_t)hi : (uint64_t)hi;
    }
    uint32_t n = type_bytes(dt);
    uint64_t u = (uint64_t)i;
    if (n == 8) return u;
    /* a sub-word result in a 32-bit register is kept extended as its type */
    return (uint64_t)(uint32_t)int_of(u, dt);
}

/* ------------------------------------------------------------- binary64 */

static inline uint64_t min_f64(uint64_t x, uint64_t y)
{
    double a = bits_f64(x), b = bits_f64(y);
    if (isnan(a)) return y;
    if (isnan(b)) return x;
    if (a == b) return x | y; /* equal: only +-0 differ in bits; -0 wins */
    return a < b ? x : y;
}

static inline uint64_t max_f64(uint64_t x, uint64_t y)
{
    double a = bits_f64(x), b = bits_f64(y);
    if (isnan(a)) return y;
    if (isnan(b)) return x;
    if (a == b) return x & y; /* +0 wins */
    return a > b ? x : y;
}

/* Ordered comparisons false on NaN; the unordered ones (and nan) true. */
static bool cmp_f64(CmpOp c, double a, double b)
{
    if (isnan(a) || isnan(b)) return c >= CMP_EQU && c != CMP_NUM;
    switch (c) {
    case CMP_EQ: case CMP_EQU: return a == b;
    case CMP_NE: case CMP_NEU: return a != b;
    case CMP_LT: case CMP_LTU: return a < b;
    case CMP_LE: case CMP_LEU: return a <= b;
    case CMP_GT: case CMP_GTU: return a > b;
    case CMP_GE: case CMP_GEU: return a >= b;
    case CMP_NUM: return true;
    case CMP_NAN: case CMP_COUNT: break;
    }
    return false;
}

static bool testp(double x, TestpKind k)
{
    switch (k) {
    case TESTP_FINITE: return isfinite(x);
    case TESTP_INFINITE: return isinf(x);
    case TESTP_NUMBER: return !isnan(x);
    case TESTP_NOTANUMBER: return isnan(x);
    case TESTP_NORMAL: return isnormal(x);
    case TESTP_SUBNORMAL: return fpclassify(x) == FP_SUBNORMAL;
    }
    return false;
}

/* testp of an f32: its class as a float (a float subnormal is a normal double). */
static bool testp_f32(float x, TestpKind k)
{
    if (k == TESTP_NORMAL) return isnormal(x);
    if (k == TESTP_SUBNORMAL) return fpclassify(x) == FP_SUBNORMAL;
    return testp(x, k);
}

static uint64_t div_s64(uint64_t x, uint64_t y)
{
    int64_t a = (int64_t)x, b = (int64_t)y;
    if (b == 0) return UINT64_MAX;
    if (a == INT64_MIN && b == -1) return x;
    return (uint64_t)(a / b);
}

static uint64_t rem_s64(uint64_t x, uint64_t y)
{
    int64_t a = (int64_t)x, b = (int64_t)y;
    if (b == 0) return x;
    if (b == -1) return 0;
    return (uint64_t)(a % b);
}

static uint64_t shr_s64(uint64_t x, uint32_t n)
{
    bool neg = x >> 63;
    if (n >= 64) return neg ? UINT64_MAX : 0;
    return neg ? ~(~x >> n) : x >> n;
}

static bool cmp64(CmpOp c, uint64_t x, uint64_t y, bool sign)
{
    int s = sign ? ((int64_t)x < (int64_t)y ? -1 : (int64_t)x > (int64_t)y) : (x < y ? -1 : x > y);
    switch (c) {
    case CMP_EQ: case CMP_EQU: return s == 0;
    case CMP_NE: case CMP_NEU: return s != 0;
    case CMP_LT: case CMP_LTU: return s < 0;
    case CMP_LE: case CMP_LEU: return s <= 0;
    case CMP_GT: case CMP_GTU: return s > 0;
    case CMP_GE: case CMP_GEU: return s >= 0;
    case CMP_NUM: return true;
    case CMP_NAN: case CMP_COUNT: break;
    }
    return false;
}

uint32_t exec_half_add(uint32_t old, uint32_t v, ValueType t, uint32_t elems)
{
    uint32_t r = 0;
    for (uint32_t h = 0; h < elems; h++) {
        double x = exec_small_value(old >> 16 * h & 0xffffu, t), y = exec_small_value(v >> 16 * h & 0xffffu, t);
        r |= exec_small_bits((long double)x + y, RND_RN, t) << 16 * h;
    }
    return r;
}

uint32_t exec_half_atom(const Instr *in, uint32_t old, uint32_t b, uint32_t c)
{
    if (in->mod == ATOM_CAS) return (old & 0xffffu) == (b & 0xffffu) ? c & 0xffffu : old;
    return exec_half_add(old, b, (ValueType)in->type, in->sub);
}

/* add.cc/addc/sub.cc/subc (32 or 64 bits) and mad.cc/madc: d, and with .cc
** the carry (or, for sub, the borrow) out into CC.CF, a predicate. */
static void carry_chain(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m)
{
    const bool mad = in->op == OP_MADC_U32, wide = in->op == OP_ADDC_U64, minus = in->mod && !mad;
    const uint32_t cin = in->sub & 1 ? exec_pred(w, &in->src[mad ? 3 : 2]) : 0;
    uint64_t A[WARP_SIZE], B[WARP_SIZE], C[WARP_SIZE] = { 0 }, D[WARP_SIZE];
    uint32_t cout = 0;
    for (uint32_t i = 0; i < (mad ? 3u : 2u); i++) {
        uint64_t *v = i == 0 ? A : i == 1 ? B : C;
        if (wide) src64(b, w, &in->src[i], v);
        else {
            uint32_t v32[WARP_SIZE];
            src32(w, &in->src[i], v32);
            for (int l = 0; l < WARP_SIZE; l++) v[l] = v32[l];
        }
    }
    for (int l = 0; l < WARP_SIZE; l++) {
        uint64_t a = A[l], x = B[l], c = cin >> l & 1, out;
        if (mad) { /* a 32x32 product's low or high word, plus c and the carry */
            uint64_t p = a * x, part = in->mod ? p >> 32 : (uint32_t)p, sum = part + C[l] + c;
            D[l] = (uint32_t)sum, out = sum >> 32;
        } else if (minus) {
            D[l] = a - x - c, out = a < x || a - x < c;
            if (!wide) D[l] = (uint32_t)D[l];
        } else if (wide) {
            D[l] = a + x + c, out = D[l] < a || (c && D[l] == a);
        } else {
            uint64_t sum = a + x + c;
            D[l] = (uint32_t)sum, out = sum >> 32;
        }
        cout |= (uint32_t)out << l;
    }
    if (wide) dst64(w, &in->dst[0], D, m);
    else {
        uint32_t d[WARP_SIZE];
        for (int l = 0; l < WARP_SIZE; l++) d[l] = (uint32_t)D[l];
        dst32(w, &in->dst[0], d, m);
    }
    if (in->sub & 2) dstp(w, &in->dst[1], cout, m);
}

/* A 64-bit source as its two 32-bit rows: a register pair's own, or an
** immediate's halves broadcast into tlo and thi. */
static void src_halves(const ExecBlock *b, const WarpExec *w, const Operand *o, const uint32_t **lo,
                       const uint32_t **hi, uint32_t tlo[WARP_SIZE], uint32_t thi[WARP_SIZE])
{
    if (o->kind == OPND_REG) {
        *lo = w->r[o->index], *hi = w->r[o->index + 1];
        return;
    }
    uint64_t c = exec_imm64(b->kernel, o);
    for (int l = 0; l < WARP_SIZE; l++) tlo[l] = (uint32_t)c, thi[l] = (uint32_t)(c >> 32);
    *lo = tlo, *hi = thi;
}

/* The 64-bit rows of every kernel's address arithmetic (add.s64, sub.s64,
** mov.b64, cvta.to.global, shl.b64 and shr.u64 by an immediate) on the
** rows' 32-bit halves: vector code with no 64-bit lane arrays to build and
** take apart. False for any other row. */
static bool alu64_halves(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m)
{
    Opcode op = (Opcode)in->op;
    bool two = op == OP_ADD_S64 || op == OP_SUB_S64;
    bool shift = (op == OP_SHL_B64 || op == OP_SHR_U64) && in->src[1].kind == OPND_IMM; /* by one count */
    if (!two && !shift && op != OP_CVTA_GLOBAL && !(op == OP_MOV_B64 && in->src[0].kind != OPND_SPECIAL)) return false;
    uint32_t tal[WARP_SIZE], tah[WARP_SIZE], tbl[WARP_SIZE], tbh[WARP_SIZE], lo[WARP_SIZE], hi[WARP_SIZE];
    const uint32_t *al, *ah, *bl, *bh;
    src_halves(b, w, &in->src[0], &al, &ah, tal, tah);
    if (shift) {
        const uint32_t k = in->src[1].value;
        if (k >= 64) {
            memset(lo, 0, sizeof lo), memset(hi, 0, sizeof hi);
        } else if (k >= 32 && op == OP_SHL_B64) {
            for (int l = 0; l < WARP_SIZE; l++) hi[l] = al[l] << (k - 32), lo[l] = 0;
        } else if (k >= 32) {
            for (int l = 0; l < WARP_SIZE; l++) lo[l] = ah[l] >> (k - 32), hi[l] = 0;
        } else if (k == 0) {
            memcpy(lo, al, sizeof lo), memcpy(hi, ah, sizeof hi);
        } else if (op == OP_SHL_B64) {
            for (int l = 0; l < WARP_SIZE; l++) hi[l] = ah[l] << k | al[l] >> (32 - k), lo[l] = al[l] << k;
        } else {
            for (int l = 0; l < WARP_SIZE; l++) lo[l] = al[l] >> k | ah[l] << (32 - k), hi[l] = ah[l] >> k;
        }
    } else if (two) {
        src_halves(b, w, &in->src[1], &bl, &bh, tbl, tbh);
        if (op == OP_ADD_S64)
            for (int l = 0; l < WARP_SIZE; l++) lo[l] = al[l] + bl[l], hi[l] = ah[l] + bh[l] + (lo[l] < al[l]);
        else
            for (int l = 0; l < WARP_SIZE; l++) lo[l] = al[l] - bl[l], hi[l] = ah[l] - bh[l] - (al[l] < bl[l]);
    } else {
        memcpy(lo, al, sizeof lo);
        memcpy(hi, ah, sizeof hi);
    }
    write_row(w->r[in->dst[0].index], lo, m);
    write_row(w->r[in->dst[0].index + 1], hi, m);
    return true;
}

void exec_ptx_alu(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m)
{
    if (alu64_halves(b, w, in, m)) return;
    uint64_t A[WARP_SIZE], B[WARP_SIZE], C[WARP_SIZE], D[WARP_SIZE];
    uint32_t a[WARP_SIZE], bb[WARP_SIZE], c[WARP_SIZE], d[WARP_SIZE];
    const uint32_t wide = OP_INFO[in->op].wide;
    /* Sources in the width the row says. */
    if (in->nsrc > 0 && in->src[0].kind != OPND_PRED && in->src[0].kind != OPND_SPECIAL) {
        if (wide & W_A) src64(b, w, &in->src[0], A);
        else src32(w, &in->src[0], a);
    }
    if (in->nsrc > 1 && in->src[1].kind != OPND_PRED) {
        if (wide & W_B) src64(b, w, &in->src[1], B);
        else src32(w, &in->src[1], bb);
    }
    if (in->nsrc > 2 && in->src[2].kind != OPND_PRED) {
        if (wide & W_C) src64(b, w, &in->src[2], C);
        else src32(w, &in->src[2], c);
    }
    const Operand *o = &in->dst[0];
    switch ((Opcode)in->op) {
    case OP_MOV_B64:
        if (in->src[0].kind == OPND_SPECIAL)
            for (int l = 0; l < WARP_SIZE; l++) A[l] = exec_timer64(b, in->src[0].index);
        dst64(w, o, A, m);
        return;
    case OP_MOV_PACK64:
        for (int l = 0; l < WARP_SIZE; l++) D[l] = (uint64_t)bb[l] << 32 | a[l];
        dst64(w, o, D, m);
        return;
    case OP_MOV_UNPACK64:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = (uint32_t)A[l], c[l] = (uint32_t)(A[l] >> 32);
        dst32(w, &in->dst[0], d, m);
        dst32(w, &in->dst[1], c, m);
        return;
    case OP_ADD_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] + B[l]; break;
    case OP_SUB_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] - B[l]; break;
    case OP_MUL_LO_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] * B[l]; break;
    case OP_MAD_LO_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] * B[l] + C[l]; break;
    case OP_MUL_WIDE_S32: for (int l = 0; l < WARP_SIZE; l++) D[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)bb[l]); break;
    case OP_MUL_WIDE_U32: for (int l = 0; l < WARP_SIZE; l++) D[l] = (uint64_t)a[l] * bb[l]; break;
    case OP_MAD_WIDE_S32: for (int l = 0; l < WARP_SIZE; l++) D[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)bb[l]) + C[l]; break;
    case OP_MAD_WIDE_U32: for (int l = 0; l < WARP_SIZE; l++) D[l] = (uint64_t)a[l] * bb[l] + C[l]; break;
    case OP_DIV_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = div_s64(A[l], B[l]); break;
    case OP_DIV_U64: for (int l = 0; l < WARP_SIZE; l++) D[l] = B[l] ? A[l] / B[l] : UINT64_MAX; break;
    case OP_REM_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = rem_s64(A[l], B[l]); break;
    case OP_REM_U64: for (int l = 0; l < WARP_SIZE; l++) D[l] = B[l] ? A[l] % B[l] : A[l]; break;
    case OP_MIN_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = (int64_t)A[l] < (int64_t)B[l] ? A[l] : B[l]; break;
    case OP_MIN_U64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] < B[l] ? A[l] : B[l]; break;
    case OP_MAX_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = (int64_t)A[l] > (int64_t)B[l] ? A[l] : B[l]; break;
    case OP_MAX_U64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] > B[l] ? A[l] : B[l]; break;
    case OP_NEG_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = 0 - A[l]; break;
    case OP_ABS_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = (int64_t)A[l] < 0 ? 0 - A[l] : A[l]; break;
    case OP_AND_B64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] & B[l]; break;
    case OP_OR_B64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] | B[l]; break;
    case OP_XOR_B64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] ^ B[l]; break;
    case OP_NOT_B64: for (int l = 0; l < WARP_SIZE; l++) D[l] = ~A[l]; break;
    case OP_SHL_B64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bb[l] >= 64 ? 0 : A[l] << bb[l]; break;
    case OP_SHR_U64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bb[l] >= 64 ? 0 : A[l] >> bb[l]; break;
    case OP_SHR_S64: for (int l = 0; l < WARP_SIZE; l++) D[l] = shr_s64(A[l], bb[l]); break;
    case OP_POPC_B64:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_popcount((uint32_t)A[l]) + bits_popcount((uint32_t)(A[l] >> 32));
        dst32(w, o, d, m);
        return;
    case OP_BREV_B64:
        for (int l = 0; l < WARP_SIZE; l++) D[l] = (uint64_t)exec_brev((uint32_t)A[l]) << 32 | exec_brev((uint32_t)(A[l] >> 32));
        break;
    case OP_CLZ_B64:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = A[l] ? (uint32_t)__builtin_clzll(A[l]) : 64u;
        dst32(w, o, d, m);
        return;
    case OP_SETP_S64:
    case OP_SETP_U64: {
        uint32_t r = 0;
        for (int l = 0; l < WARP_SIZE; l++) r |= (uint32_t)cmp64((CmpOp)in->mod, A[l], B[l], in->op == OP_SETP_S64) << l;
        dstp(w, o, r, m);
        return;
    }
    case OP_SELP_B64: {
        uint32_t p = exec_pred(w, &in->src[2]);
        for (int l = 0; l < WARP_SIZE; l++) D[l] = (p >> l & 1) ? A[l] : B[l];
        break;
    }
    case OP_CVT: {
        bool s64 = type_bytes((ValueType)in->stype) == 8, d64 = type_bytes((ValueType)in->type) == 8;
        if (s64) src64(b, w, &in->src[0], A);
        else
            for (int l = 0; l < WARP_SIZE; l++) A[l] = a[l];
        for (int l = 0; l < WARP_SIZE; l++) D[l] = cvt_lane(in, A[l]);
        if (d64) break;
        for (int l = 0; l < WARP_SIZE; l++) d[l] = (uint32_t)D[l];
        dst32(w, o, d, m);
        return;
    }
    case OP_CVTA_GLOBAL: dst64(w, o, A, m); return;
    case OP_CVTA_SHARED:
    case OP_CVTA_TO_SHARED:
    case OP_CVTA_LOCAL:
    case OP_CVTA_TO_LOCAL: {
        bool to_generic = in->op == OP_CVTA_SHARED || in->op == OP_CVTA_LOCAL;
        uint32_t window = in->op == OP_CVTA_SHARED || in->op == OP_CVTA_TO_SHARED ? ISA_SHARED_WINDOW : ISA_LOCAL_WINDOW;
        bool w64 = type_bytes((ValueType)in->type) == 8;
        if (w64) src64(b, w, &in->src[0], A);
        else
            for (int l = 0; l < WARP_SIZE; l++) A[l] = a[l];
        for (int l = 0; l < WARP_SIZE; l++)
            D[l] = to_generic ? (uint32_t)A[l] + (uint64_t)window : (uint64_t)(uint32_t)(A[l] - window);
        if (w64) break;
        for (int l = 0; l < WARP_SIZE; l++) d[l] = (uint32_t)D[l];
        dst32(w, o, d, m);
        return;
    }
    case OP_BFE_U32: for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_bfe(a[l], bb[l], c[l], false); dst32(w, o, d, m); return;
    case OP_BFE_S32: for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_bfe(a[l], bb[l], c[l], true); dst32(w, o, d, m); return;
    case OP_BFI_B32: {
        uint32_t e[WARP_SIZE];
        src32(w, &in->src[3], e);
        for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_bfi(a[l], bb[l], c[l], e[l]);
        dst32(w, o, d, m);
        return;
    }
    case OP_BFIND_U32:
    case OP_BFIND_S32:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_bfind(a[l], 32, in->op == OP_BFIND_S32, in->sub != 0);
        dst32(w, o, d, m);
        return;
    case OP_BFIND_U64:
    case OP_BFIND_S64:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_bfind(A[l], 64, in->op == OP_BFIND_S64, in->sub != 0);
        dst32(w, o, d, m);
        return;
    case OP_HALF_ARITH:
    case OP_HALF_FMA:
    case OP_HALF_UNARY:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = half_lane(in, a[l], in->nsrc > 1 ? bb[l] : 0, in->nsrc > 2 ? c[l] : 0);
        dst32(w, o, d, m);
        return;
    case OP_ELECT: { /* the lowest active lane of each lane's member mask leads it (a tile each) */
        uint32_t leaders = 0;
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t members = m & a[l];
            d[l] = members ? (uint32_t)__builtin_ctz(members) : 0;
            leaders |= members && d[l] == (uint32_t)l ? 1u << l : 0;
        }
        dst32(w, o, d, m);
        dstp(w, &in->dst[1], leaders, m);
        return;
    }
    case OP_CVT_F8X2_F32:
    case OP_CVT_F8X2_F16X2:
    case OP_CVT_F16X2_F8X2:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_f8_lane(in, a[l], bb[l]);
        dst32(w, o, d, m);
        return;
    case OP_CVT_HALF2:
        for (int l = 0; l < WARP_SIZE; l++)
            d[l] = exec_small_bits(bits_f32(a[l]), (CvtRound)in->sub, (ValueType)in->type) << 16 |
                   exec_small_bits(bits_f32(bb[l]), (CvtRound)in->sub, (ValueType)in->type);
        dst32(w, o, d, m);
        return;
    case OP_SET_HALF: /* stype: the destination's form; type: the compared halves' */
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t r = 0;
            for (uint32_t h = 0; h < in->sub; h++) {
                bool t = cmp_f64((CmpOp)in->mod, exec_small_value(a[l] >> 16 * h & 0xffffu, (ValueType)in->type),
                                 exec_small_value(bb[l] >> 16 * h & 0xffffu, (ValueType)in->type));
                uint32_t one = in->stype == TYPE_U32 ? 0xffffu : in->stype == TYPE_BF16 ? 0x3f80u : 0x3c00u;
                r |= (t ? one : 0u) << 16 * h;
            }
            d[l] = r;
        }
        dst32(w, o, d, m);
        return;
    case OP_SETP_F16:
    case OP_SETP_BF16: {
        uint32_t r = 0;
        for (int l = 0; l < WARP_SIZE; l++)
            r |= (uint32_t)cmp_f64((CmpOp)in->mod, exec_small_value(a[l] & 0xffffu, (ValueType)in->type),
                                   exec_small_value(bb[l] & 0xffffu, (ValueType)in->type)) << l;
        dstp(w, o, r, m);
        return;
    }
    case OP_DP2A:
        for (int l = 0; l < WARP_SIZE; l++)
            d[l] = exec_dp2a(a[l], bb[l], c[l], in->mod != 0, in->type == TYPE_S32, in->stype == TYPE_S32);
        dst32(w, o, d, m);
        return;
    case OP_DP4A:
        for (int l = 0; l < WARP_SIZE; l++)
            d[l] = exec_dp4a(a[l], bb[l], c[l], in->type == TYPE_S32, in->stype == TYPE_S32);
        dst32(w, o, d, m);
        return;
    case OP_MUL_HI_U64: for (int l = 0; l < WARP_SIZE; l++) D[l] = (uint64_t)((unsigned __int128)A[l] * B[l] >> 64); break;
    case OP_MUL_HI_S64:
        for (int l = 0; l < WARP_SIZE; l++) D[l] = (uint64_t)((__int128)(int64_t)A[l] * (int64_t)B[l] >> 64);
        break;
    case OP_SAD_S32:
        for (int l = 0; l < WARP_SIZE; l++) {
            int64_t x = (int32_t)a[l], y = (int32_t)bb[l];
            d[l] = (uint32_t)((uint64_t)(x > y ? x - y : y - x) + c[l]);
        }
        dst32(w, o, d, m);
        return;
    case OP_MATCH_ANY_B32:
    case OP_MATCH_ANY_B64:
    case OP_MATCH_ALL_B32:
    case OP_MATCH_ALL_B64: { /* lanes outside the member mask b (or inactive) take no part */
        bool w64 = in->op == OP_MATCH_ANY_B64 || in->op == OP_MATCH_ALL_B64;
        bool all = in->op == OP_MATCH_ALL_B32 || in->op == OP_MATCH_ALL_B64;
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t part = m & bb[l], same = 0;
            for (int k = 0; k < WARP_SIZE; k++)
                if ((part >> k & 1) && (w64 ? A[k] == A[l] : a[k] == a[l])) same |= 1u << k;
            d[l] = !all ? same : same == part ? part : 0; /* match.all: every member agrees, or 0 */
        }
        dst32(w, o, d, m);
        return;
    }
    case OP_REDUX_OP:
    case OP_REDUX_ADD:
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t group = m & bb[l];
            d[l] = l && group == (m & bb[l - 1]) ? d[l - 1] : exec_redux((Opcode)in->op, (ValueType)in->type, in->mod, a, group); /* a tile's lanes in a row */
        }
        dst32(w, o, d, m);
        return;
    case OP_PRINTF: /* lane order, as the hardware's printf buffer fills in practice */
        for (int l = 0; l < WARP_SIZE; l++) d[l] = (m >> l & 1) ? (uint32_t)exec_printf(b, w, (uint32_t)l, A[l], B[l]) : 0;
        dst32(w, o, d, m);
        return;
    case OP_MAD_HI_U32: for (int l = 0; l < WARP_SIZE; l++) d[l] = (uint32_t)((uint64_t)a[l] * bb[l] >> 32) + c[l]; dst32(w, o, d, m); return;
    case OP_MAD_HI_S32:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = (uint32_t)((uint64_t)((int64_t)(int32_t)a[l] * (int32_t)bb[l]) >> 32) + c[l];
        dst32(w, o, d, m);
        return;
    case OP_LOP3_B32: { /* the sum of the minterms the table selects */
        uint32_t e[WARP_SIZE];
        src32(w, &in->src[3], e);
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t r = 0;
            for (int k = 0; k < 8; k++)
                if (e[l] >> k & 1) r |= (k & 4 ? a[l] : ~a[l]) & (k & 2 ? bb[l] : ~bb[l]) & (k & 1 ? c[l] : ~c[l]);
            d[l] = r;
        }
        dst32(w, o, d, m);
        return;
    }
    case OP_BFI_B64: {
        uint32_t e[WARP_SIZE];
        src32(w, &in->src[3], e);
        for (int l = 0; l < WARP_SIZE; l++) D[l] = exec_bfi64(A[l], B[l], c[l], e[l]);
        break;
    }
    case OP_BREV_B32: for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_brev(a[l]); dst32(w, o, d, m); return;
    case OP_FNS_B32: for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_fns(a[l], bb[l], (int32_t)c[l]); dst32(w, o, d, m); return;
    case OP_PRMT_B32:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_prmt(a[l], bb[l], c[l], (PrmtMode)in->sub);
        dst32(w, o, d, m);
        return;
    case OP_SHF_L:
    case OP_SHF_R:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_shf(a[l], bb[l], c[l], in->op == OP_SHF_L, in->sub != 0);
        dst32(w, o, d, m);
        return;
    case OP_SLCT_S32: for (int l = 0; l < WARP_SIZE; l++) d[l] = (int32_t)c[l] >= 0 ? a[l] : bb[l]; dst32(w, o, d, m); return;
    case OP_SLCT_F32: /* -0.0 >= 0 holds; NaN selects b */
        for (int l = 0; l < WARP_SIZE; l++) d[l] = (bits_f32(c[l]) >= 0.0f) ? a[l] : bb[l];
        dst32(w, o, d, m);
        return;
    case OP_MUL24_LO_U32: for (int l = 0; l < WARP_SIZE; l++) d[l] = (a[l] & 0xffffff) * (bb[l] & 0xffffff); dst32(w, o, d, m); return;
    case OP_MUL24_LO_S32:
        for (int l = 0; l < WARP_SIZE; l++) {
            int64_t x = ((int32_t)(a[l] << 8)) >> 8, y = ((int32_t)(bb[l] << 8)) >> 8;
            d[l] = (uint32_t)(uint64_t)(x * y);
        }
        dst32(w, o, d, m);
        return;
    case OP_BMSK_B32: for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_bmsk(a[l], bb[l], in->mod); dst32(w, o, d, m); return;
    case OP_ADDC_U32:
    case OP_ADDC_U64:
    case OP_MADC_U32: carry_chain(b, w, in, m); return;
    case OP_SIMD16X2:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_simd16(a[l], bb[l], in->mod, in->sub & 1, in->sub & 2);
        dst32(w, o, d, m);
        return;
    case OP_MINMAX_RELU_S32:
        for (int l = 0; l < WARP_SIZE; l++) {
            int32_t x = (int32_t)a[l], y = (int32_t)bb[l], r = in->mod ? (x > y ? x : y) : (x < y ? x : y);
            d[l] = (uint32_t)(r < 0 ? 0 : r);
        }
        dst32(w, o, d, m);
        return;
    case OP_VABSDIFF:
    case OP_VSIMD: for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_video(a[l], bb[l], c[l], in->mod, in->sub); dst32(w, o, d, m); return;
    case OP_SZEXT:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = exec_szext(a[l], bb[l], in->mod, in->type == TYPE_S32);
        dst32(w, o, d, m);
        return;
    case OP_SAD_U32: for (int l = 0; l < WARP_SIZE; l++) d[l] = (a[l] > bb[l] ? a[l] - bb[l] : bb[l] - a[l]) + c[l]; dst32(w, o, d, m); return;
    case OP_DIV_APPROX_F32: for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(bits_f32(a[l]) * (1.0f / bits_f32(bb[l]))); dst32(w, o, d, m); return;
    case OP_DIV_FULL_F32: for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(bits_f32(a[l]) / bits_f32(bb[l])); dst32(w, o, d, m); return;
    case OP_RCP_RN_F32: for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(1.0f / bits_f32(a[l])); dst32(w, o, d, m); return;
    case OP_SQRT_RN_F32: for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(sqrtf(bits_f32(a[l]))); dst32(w, o, d, m); return;
    case OP_TANH_F32: for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(tanhf(bits_f32(a[l]))); dst32(w, o, d, m); return;
    case OP_COPYSIGN_F32: for (int l = 0; l < WARP_SIZE; l++) d[l] = (bb[l] & 0x7fffffffu) | (a[l] & 0x80000000u); dst32(w, o, d, m); return;
    case OP_TESTP_F32: {
        uint32_t r = 0;
        for (int l = 0; l < WARP_SIZE; l++) r |= (uint32_t)testp_f32(bits_f32(a[l]), (TestpKind)in->sub) << l;
        dstp(w, o, r, m);
        return;
    }
    case OP_ADD_DIR_F32:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(exec_sum_f32_dir(bits_f32(a[l]), bits_f32(bb[l]), (CvtRound)in->sub));
        dst32(w, o, d, m);
        return;
    case OP_SUB_DIR_F32:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(exec_sum_f32_dir(bits_f32(a[l]), -(double)bits_f32(bb[l]), (CvtRound)in->sub));
        dst32(w, o, d, m);
        return;
    case OP_MUL_DIR_F32: /* the product of two floats is exact in a double */
        for (int l = 0; l < WARP_SIZE; l++)
            d[l] = bits_of_f32(exec_f32_dir((double)bits_f32(a[l]) * bits_f32(bb[l]), 0.0, (CvtRound)in->sub));
        dst32(w, o, d, m);
        return;
    case OP_FMA_DIR_F32:
        for (int l = 0; l < WARP_SIZE; l++)
            d[l] = bits_of_f32(exec_sum_f32_dir((double)bits_f32(a[l]) * bits_f32(bb[l]), bits_f32(c[l]), (CvtRound)in->sub));
        dst32(w, o, d, m);
        return;
    case OP_DIV_DIR_F32:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(exec_div_f32_dir(bits_f32(a[l]), bits_f32(bb[l]), (CvtRound)in->sub));
        dst32(w, o, d, m);
        return;
    case OP_RCP_DIR_F32:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(exec_div_f32_dir(1.0f, bits_f32(a[l]), (CvtRound)in->sub));
        dst32(w, o, d, m);
        return;
    case OP_SQRT_DIR_F32:
        for (int l = 0; l < WARP_SIZE; l++) d[l] = bits_of_f32(exec_sqrt_f32_dir(bits_f32(a[l]), (CvtRound)in->sub));
        dst32(w, o, d, m);
        return;
    case OP_ADD_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bits_of_f64(exec_add_f64(bits_f64(A[l]), bits_f64(B[l]), (CvtRound)in->sub)); break;
    case OP_SUB_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bits_of_f64(exec_add_f64(bits_f64(A[l]), -bits_f64(B[l]), (CvtRound)in->sub)); break;
    case OP_MUL_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bits_of_f64(exec_mul_f64(bits_f64(A[l]), bits_f64(B[l]), (CvtRound)in->sub)); break;
    case OP_FMA_F64:
        for (int l = 0; l < WARP_SIZE; l++)
            D[l] = bits_of_f64(exec_fma_f64(bits_f64(A[l]), bits_f64(B[l]), bits_f64(C[l]), (CvtRound)in->sub));
        break;
    case OP_DIV_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bits_of_f64(exec_div_f64(bits_f64(A[l]), bits_f64(B[l]), (CvtRound)in->sub)); break;
    case OP_RCP_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bits_of_f64(exec_div_f64(1.0, bits_f64(A[l]), (CvtRound)in->sub)); break;
    case OP_RCP_APPROX_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bits_of_f64(1.0 / bits_f64(A[l])); break;
    case OP_SQRT_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bits_of_f64(exec_sqrt_f64(bits_f64(A[l]), (CvtRound)in->sub)); break;
    case OP_RSQRT_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = bits_of_f64(1.0 / sqrt(bits_f64(A[l]))); break;
    case OP_MIN_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = min_f64(A[l], B[l]); break;
    case OP_MAX_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = max_f64(A[l], B[l]); break;
    case OP_ABS_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] & ~(1ull << 63); break;
    case OP_NEG_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = A[l] ^ (1ull << 63); break;
    case OP_COPYSIGN_F64: for (int l = 0; l < WARP_SIZE; l++) D[l] = (B[l] & ~(1ull << 63)) | (A[l] & (1ull << 63)); break;
    case OP_ISSPACEP: { /* the generic windows: isa/program.h */
        uint32_t r = 0;
        for (int l = 0; l < WARP_SIZE; l++) {
            bool shared = A[l] >= ISA_SHARED_WINDOW && A[l] < (1ull << 32), local = A[l] >= ISA_LOCAL_WINDOW && A[l] < ISA_SHARED_WINDOW;
            bool yes = in->sub == 0 ? !shared && !local : in->sub == 1 ? shared : in->sub == 2 && local;
            r |= (uint32_t)yes << l;
        }
        dstp(w, o, r, m);
        return;
    }
    case OP_TESTP_F64: {
        uint32_t r = 0;
        for (int l = 0; l < WARP_SIZE; l++) r |= (uint32_t)testp(bits_f64(A[l]), (TestpKind)in->sub) << l;
        dstp(w, o, r, m);
        return;
    }
    case OP_SETP_F64: {
        uint32_t r = 0;
        for (int l = 0; l < WARP_SIZE; l++) r |= (uint32_t)cmp_f64((CmpOp)in->mod, bits_f64(A[l]), bits_f64(B[l])) << l;
        dstp(w, o, r, m);
        return;
    }
    case OP_MOV_PRED: dstp(w, o, in->src[0].kind == OPND_IMM ? (in->src[0].value ? UINT32_MAX : 0) : exec_pred(w, &in->src[0]), m); return;
    case OP_VOTE_ALL:
    case OP_VOTE_ANY:
    case OP_VOTE_UNI: { /* each lane over the active lanes of its member mask */
        uint32_t q = exec_pred(w, &in->src[0]), r = 0;
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t group = m & (in->nsrc > 1 ? bb[l] : UINT32_MAX), qg = q & group;
            bool v = in->op == OP_VOTE_ALL ? qg == group : in->op == OP_VOTE_ANY ? qg != 0 : qg == 0 || qg == group;
            r |= (uint32_t)v << l;
        }
        dstp(w, o, r, m);
        return;
    }
    case OP_ACTIVEMASK: for (int l = 0; l < WARP_SIZE; l++) d[l] = m; dst32(w, o, d, m); return;
    case OP_LD_PARAM_REG:
    case OP_LD_PARAM_REG64: { /* bytes of the param space at a + offset; past its end, 0 */
        uint32_t n = in->op == OP_LD_PARAM_REG64 ? 8 : type_bytes((ValueType)in->type);
        const uint8_t *space = (const uint8_t *)b->params;
        uint32_t size = b->kernel->param_bytes;
        for (int l = 0; l < WARP_SIZE; l++) {
            uint64_t at = A[l] + (uint64_t)(int64_t)in->offset, v = 0;
            if (at <= size && n <= size - at) memcpy(&v, space + at, n); /* little-endian, as the GPU's */
            if (n < 4 && type_signed((ValueType)in->type)) v = (uint64_t)(int64_t)(n == 1 ? (int8_t)v : (int16_t)v);
            D[l] = v;
            d[l] = (uint32_t)v;
        }
        if (in->op == OP_LD_PARAM_REG64) dst64(w, o, D, m);
        else dst32(w, o, d, m);
        return;
    }
    /* every other row is executed by isa/exec.c (OP in opcodes.def) */
#define OP(name, ...) case OP_##name:
#define PTXALU(name, ...)
#include "isa/opcodes.def"
#undef PTXALU
#undef OP
    case OP_COUNT:
        assert(!"exec_ptx_alu: a row isa/exec.c executes");
        return;
    }
    dst64(w, o, D, m);
}

/* isa/exec_small.c -- the floats narrower than 32 bits as PTX converts
** them: binary16 and bfloat16 (the half rows of isa/exec_ptx.c), and the
** 8-bit pairs .e4m3x2 and .e5m2x2 (cvt ... .satfinite; CUDA's
** __nv_fp8x2_e4m3 and __nv_fp8x2_e5m2). Part of the exec module
** (isa/exec.h). */
#include <math.h>

#include "isa/exec.h"

/* The 16-bit floats (binary16: 10 fraction bits, exponents -14..15;
** bfloat16: 7, -126..127) as a value, and a value rounded to one in
** direction r, overflowing to infinity or the largest finite value as the
** mode says; a NaN becomes the canonical 0x7fff. */
double exec_small_value(uint32_t bits, ValueType t)
{
    if (t == TYPE_BF16) return (double)bits_f32(bits << 16);
    uint32_t ex = bits >> 10 & 0x1f, fr = bits & 0x3ff;
    double a = ex == 0 ? ldexp(fr, -24) : ex == 31 ? (fr ? NAN : INFINITY) : ldexp(1024 + fr, (int)ex - 25);
    return bits >> 15 & 1 ? -a : a;
}

uint32_t exec_small_bits(long double x, CvtRound r, ValueType t)
{
    int mant = t == TYPE_F16 ? 10 : 7, emax = t == TYPE_F16 ? 15 : 127, emin = 1 - emax;
    uint32_t sign = signbit(x) ? 0x8000u : 0, inf = (uint32_t)(2 * emax + 1) << mant;
    uint32_t max_finite = ((uint32_t)(2 * emax) << mant) | ((1u << mant) - 1);
    if (isnan(x)) return 0x7fff;
    long double a = fabsl(x);
    if (a == 0) return sign;
    if (isinf(a)) return sign | inf;
    int e;
    frexpl(a, &e);
    int qe = (e - 1 < emin ? emin : e - 1) - mant; /* the quantum at a's binade */
    long double n = ldexpl(a, -qe), whole = floorl(n), frac = n - whole;
    bool neg = sign != 0, up;
    switch (r) {
    case RND_RZ: up = false; break;
    case RND_RM: up = neg && frac > 0; break;
    case RND_RP: up = !neg && frac > 0; break;
    default: up = frac > 0.5L || (frac == 0.5L && fmodl(whole, 2.0L) != 0); break;
    }
    long double v = ldexpl(whole + (up ? 1 : 0), qe);
    if (v > ldexpl(2.0L - ldexpl(1.0L, -mant), emax)) {
        bool to_max = r == RND_RZ || (r == RND_RM && !neg) || (r == RND_RP && neg);
        return sign | (to_max ? max_finite : inf);
    }
    if (v < ldexpl(1.0L, emin)) return sign | (uint32_t)ldexpl(v, mant - emin); /* subnormal */
    frexpl(v, &e);
    return sign | (uint32_t)(e - 1 + emax) << mant | (uint32_t)ldexpl(ldexpl(v, 1 - e) - 1.0L, mant);
}

/* The 8-bit floats: e4m3 (3 fraction bits, exponent bias 7, no infinity,
** 0x7f/0xff NaN, largest 448) and e5m2 (2 fraction bits, bias 15, IEEE's
** infinities and NaNs, largest 57344), as a value; and a value rounded to
** nearest even, clamped to the largest finite value (.satfinite; an
** infinity too), NaN the canonical 0x7f, a negative 0 with .relu. */
static double f8_value(uint32_t bits, bool e5m2)
{
    int mant = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    uint32_t ex = (bits & 0x7fu) >> mant, fr = bits & ((1u << mant) - 1);
    double a;
    if (e5m2 && ex == 31) a = fr ? NAN : INFINITY;
    else if (!e5m2 && ex == 15 && fr == 7) a = NAN;
    else a = ex == 0 ? ldexp(fr, 1 - bias - mant) : ldexp((double)((1u << mant) + fr), (int)ex - bias - mant);
    return bits & 0x80u ? -a : a;
}

static uint32_t f8_bits(double x, bool e5m2, bool relu)
{
    int mant = e5m2 ? 2 : 3, emin = e5m2 ? -14 : -6, bias = e5m2 ? 15 : 7;
    double largest = e5m2 ? 57344.0 : 448.0;
    uint32_t max_finite = e5m2 ? 0x7bu : 0x7eu;
    if (isnan(x)) return 0x7f;
    if (relu && signbit(x)) x = 0.0;
    uint32_t sign = signbit(x) ? 0x80u : 0;
    double a = fabs(x);
    if (a == 0) return sign;
    if (isinf(a)) return sign | max_finite;
    int e;
    frexp(a, &e);
    int qe = (e - 1 < emin ? emin : e - 1) - mant; /* the quantum at a's binade */
    double n = ldexp(a, -qe), whole = floor(n), frac = n - whole;
    if (frac > 0.5 || (frac == 0.5 && fmod(whole, 2.0) != 0)) whole += 1;
    double v = ldexp(whole, qe);
    if (v > largest) return sign | max_finite;
    if (v < ldexp(1.0, emin)) return sign | (uint32_t)ldexp(v, mant - emin); /* subnormal */
    frexp(v, &e);
    return sign | (uint32_t)(e - 1 + bias) << mant | (uint32_t)ldexp(ldexp(v, 1 - e) - 1.0, mant);
}

uint32_t exec_f8_lane(const Instr *in, uint32_t a, uint32_t b)
{
    bool e5m2 = in->sub & 1, relu = in->sub & 4;
    switch ((Opcode)in->op) {
    case OP_CVT_F8X2_F32: return f8_bits(bits_f32(a), e5m2, relu) << 8 | f8_bits(bits_f32(b), e5m2, relu);
    case OP_CVT_F8X2_F16X2:
        return f8_bits(exec_small_value(a >> 16, TYPE_F16), e5m2, relu) << 8 |
               f8_bits(exec_small_value(a & 0xffffu, TYPE_F16), e5m2, relu);
    default: { /* OP_CVT_F16X2_F8X2: exact, every such value is a half */
        double hi = f8_value(a >> 8 & 0xffu, e5m2), lo = f8_value(a & 0xffu, e5m2);
        if (relu) hi = hi < 0 ? 0.0 : hi, lo = lo < 0 ? 0.0 : lo;
        return exec_small_bits(hi, RND_RN, TYPE_F16) << 16 | exec_small_bits(lo, RND_RN, TYPE_F16);
    }
    }
}

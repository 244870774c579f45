/* isa/exec_round.c -- IEEE arithmetic in the directed rounding modes
** (.rz toward zero, .rm down, .rp up) for f32 and f64: each result is the
** round-to-nearest one that C computes, moved one step when the exact
** value lies on the other side, which the exact error of the rounded
** result tells (TwoSum for sums, an FMA for products, remainders and
** square-root residuals, Boldo and Muller's ErrFma for a fused
** multiply-add). Short of results in the subnormal range of f64, where an
** error may not be exact, every result is correctly rounded. Part of the
** exec module (isa/exec.h). */
#include "isa/exec.h"

#include <float.h>
#include <math.h>

/* ---------------------------------------------------- f32, directed */

/* The exact value s + e (e exact: TwoSum's error, or 0) rounded to f32 in
** direction r (.rz .rm .rp): the nearest float, then one step when it lies
** on the wrong side. s - f is exact (f is s's nearest float). */
float exec_f32_dir(double s, double e, CvtRound r)
{
    float f = (float)s;
    if (isnan(s) || isinf(s)) return f;
    bool negative = s < 0 || (s == 0 && e < 0);
    if (isinf(f)) { /* past the range: directed modes may stop at FLT_MAX */
        bool toward_zero = r == RND_RZ || (r == RND_RM && !negative) || (r == RND_RP && negative);
        return toward_zero ? (negative ? -FLT_MAX : FLT_MAX) : f;
    }
    double d = (s - (double)f) + e; /* its sign is that of x - f */
    bool up = r == RND_RP || (r == RND_RZ && negative);
    if (up && d > 0) f = nextafterf(f, INFINITY);
    if (!up && d < 0) f = nextafterf(f, -INFINITY);
    return f;
}

/* p + c with the error TwoSum leaves (exact: p and c are doubles whose
** sum does not overflow), rounded to f32 in direction r. An exact zero
** is -0 rounding down unless both terms are +0, and keeps a shared sign. */
float exec_sum_f32_dir(double p, double c, CvtRound r)
{
    double s = p + c;
    if (s == 0) {
        if (p == 0 && c == 0 && signbit(p) == signbit(c)) return signbit(p) ? -0.0f : 0.0f;
        return r == RND_RM ? -0.0f : 0.0f;
    }
    if (isinf(s) || isnan(s)) return (float)s;
    double bv = s - p, e = (p - (s - bv)) + (c - bv);
    return exec_f32_dir(s, e, r);
}

/* ------------------------------------------------------------- binary64 */

/* The exact result is s + e, s its rounding to nearest (e exact, from
** TwoSum or an FMA): s rounded instead in direction r (.rz .rm .rp). */
static double round_dir(double s, double e, CvtRound r)
{
    if (r == RND_RN || r == RND_NONE || isnan(s)) return s;
    if (isinf(s)) return s; /* overflow: handled by the caller */
    if (e > 0 && (r == RND_RP || (r == RND_RZ && s < 0))) return nextafter(s, INFINITY);
    if (e < 0 && (r == RND_RM || (r == RND_RZ && s > 0))) return nextafter(s, -INFINITY);
    return s;
}

/* A finite result that overflowed to +-inf in round-to-nearest: directed
** modes stop at the largest finite value on their side. */
static double overflow_dir(double s, CvtRound r)
{
    bool toward_zero = r == RND_RZ || (r == RND_RM && s > 0) || (r == RND_RP && s < 0);
    return toward_zero ? (s > 0 ? DBL_MAX : -DBL_MAX) : s;
}

/* a + b rounded in direction r (TwoSum gives the exact error). */
double exec_add_f64(double a, double b, CvtRound r)
{
    double s = a + b;
    if (r == RND_RN || r == RND_NONE) return s;
    if (isinf(s)) return isinf(a) || isinf(b) ? s : overflow_dir(s, r);
    if (s == 0) /* exact: -0 when rounding down, unless both are +0 */
        return r == RND_RM && !(a == 0 && b == 0 && !signbit(a) && !signbit(b)) ? -0.0 : s;
    double bv = s - a, e = (a - (s - bv)) + (b - bv);
    return round_dir(s, e, r);
}

/* a * b rounded in direction r (the FMA gives the exact error, short of
** results in the subnormal range, which round to nearest). */
double exec_mul_f64(double a, double b, CvtRound r)
{
    double p = a * b;
    if (r == RND_RN || r == RND_NONE) return p;
    if (isinf(p)) return isinf(a) || isinf(b) ? p : overflow_dir(p, r);
    return round_dir(p, fma(a, b, -p), r);
}

/* a / b in f32 rounded in direction r: the double quotient of two floats
** and its remainder a - q * b, exact in a double (an FMA). */
float exec_div_f32_dir(float a, float b, CvtRound r)
{
    double q = (double)a / b;
    if (isnan(q) || isinf(q) || q == 0) return exec_f32_dir(q, 0.0, r);
    double rem = fma(-q, b, a);
    return exec_f32_dir(q, rem == 0 ? 0.0 : (rem > 0) == (b > 0) ? DBL_TRUE_MIN : -DBL_TRUE_MIN, r);
}

/* sqrt(a) in f32 rounded in direction r: the double root and its residual
** a - s * s, exact in a double. */
float exec_sqrt_f32_dir(float a, CvtRound r)
{
    double s = sqrt((double)a);
    if (isnan(s) || isinf(s) || s == 0) return (float)s;
    double res = fma(-s, s, a);
    return exec_f32_dir(s, res == 0 ? 0.0 : res > 0 ? DBL_TRUE_MIN : -DBL_TRUE_MIN, r);
}

/* a / b rounded in direction r: the quotient's remainder says on which
** side the exact value lies. */
double exec_div_f64(double a, double b, CvtRound r)
{
    double q = a / b;
    if (r == RND_RN || r == RND_NONE || isnan(q)) return q;
    if (isinf(q)) return isinf(a) || b == 0 ? q : overflow_dir(q, r);
    if (a == 0 || isinf(b)) return q; /* exact zeros */
    double rem = fma(-q, b, a), e = rem == 0 ? 0.0 : (rem > 0) == (b > 0) ? 1.0 : -1.0;
    return round_dir(q, e, r);
}

/* sqrt(a) rounded in direction r, from the residual a - s * s. */
double exec_sqrt_f64(double a, CvtRound r)
{
    double s = sqrt(a);
    if (r == RND_RN || r == RND_NONE || isnan(s) || isinf(s) || s == 0) return s;
    return round_dir(s, fma(-s, s, a), r);
}

/* a * b + c rounded once in direction r. The error of s = fma(a, b, c) is
** ErrFma's (Boldo and Muller): a * b = u1 + u2 exactly, then two TwoSums;
** its sign is that of gamma + z. */
double exec_fma_f64(double a, double b, double c, CvtRound r)
{
    double s = fma(a, b, c);
    if (r == RND_RN || r == RND_NONE || isnan(s)) return s;
    if (isinf(s)) return isinf(a) || isinf(b) || isinf(c) ? s : overflow_dir(s, r);
    double u1 = a * b, u2 = fma(a, b, -u1);
    double a1 = c + u2, cv = a1 - u2, z = (u2 - (a1 - cv)) + (c - cv);
    double b1 = u1 + a1, bv = b1 - u1, b2 = (u1 - (b1 - bv)) + (a1 - bv);
    double e = ((b1 - s) + b2) + z;
    if (s == 0 && e == 0) /* an exact zero: -0 rounding down when the terms' signs differ */
        return r == RND_RM && (signbit(a) != signbit(b)) != (bool)signbit(c) ? -0.0 : s;
    return round_dir(s, e, r);
}

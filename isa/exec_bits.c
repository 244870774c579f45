/* isa/exec_bits.c -- the bit-field and byte operations of PTX on one
** lane's values (bfe bfi bfind dp4a brev prmt shf bmsk szext), and
** redux.sync's reduction over a group of lanes, as pure functions;
** isa/exec_ptx.c applies them lane by lane. Part of the exec
** module (isa/exec.h). Semantics: the PTX ISA manual, "Integer Arithmetic
** Instructions" and "Logic and Shift Instructions". */
#include "isa/exec.h"

/* A bit count of bmsk/szext/shf: .clamp caps it at 32, .wrap keeps its low 5 bits. */
static uint32_t bit_count(uint32_t v, bool clamp) { return clamp ? (v > 32 ? 32 : v) : v & 31; }

/* bmsk: `width` one bits from bit `start` (bits past 31 are dropped). */
uint32_t exec_bmsk(uint32_t start, uint32_t width, bool clamp)
{
    return (uint32_t)((((uint64_t)1 << bit_count(width, clamp)) - 1) << bit_count(start, clamp));
}

/* szext: the low `bits` bits of a, sign- or zero-extended to 32. */
uint32_t exec_szext(uint32_t a, uint32_t bits, bool clamp, bool sign)
{
    uint32_t n = bit_count(bits, clamp), shift = 32 - n;
    if (n == 0) return 0;
    return sign ? (uint32_t)((int32_t)(a << shift) >> shift) : a << shift >> shift;
}

uint32_t exec_bfe(uint32_t a, uint32_t pos, uint32_t len, bool sign)
{
    pos &= 0xff, len &= 0xff;
    uint32_t msb = pos + len - 1;
    bool sbit = sign && (len == 0 ? false : (msb > 31 ? (a >> 31) & 1 : (a >> msb) & 1));
    uint32_t d = 0;
    for (uint32_t i = 0; i < 32; i++) {
        bool bit = i < len && pos + i <= 31 ? (a >> (pos + i)) & 1 : sbit;
        d |= (uint32_t)bit << i;
    }
    return d;
}

uint32_t exec_bfi(uint32_t a, uint32_t b, uint32_t pos, uint32_t len)
{
    pos &= 0xff, len &= 0xff;
    uint32_t d = b;
    for (uint32_t i = 0; i < len && pos + i <= 31; i++) d = (d & ~(1u << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return d;
}

/* bfind: the position of the most significant bit that differs from the
** sign (signed) or is 1 (unsigned), of an n-bit value; none: 0xffffffff;
** shiftamt: n - 1 - that position. */
uint32_t exec_bfind(uint64_t a, uint32_t n, bool sign, bool shiftamt)
{
    if (n == 32) a &= 0xffffffffu;
    if (sign && (a >> (n - 1) & 1)) a = ~a & (n == 32 ? 0xffffffffu : UINT64_MAX);
    if (!a) return UINT32_MAX;
    uint32_t pos = 63u - (uint32_t)__builtin_clzll(a);
    return shiftamt ? n - 1 - pos : pos;
}

/* dp2a: c + a's two 16-bit halves times b's bytes 0 and 1 (lo) or 2 and 3 (hi). */
uint32_t exec_dp2a(uint32_t a, uint32_t b, uint32_t c, bool hi, bool a_signed, bool b_signed)
{
    int64_t sum = (int32_t)c;
    for (int i = 0; i < 2; i++) {
        int32_t x = a_signed ? (int16_t)(a >> (16 * i)) : (uint16_t)(a >> (16 * i));
        uint32_t byte = b >> (8 * (i + (hi ? 2 : 0)));
        int32_t y = b_signed ? (int8_t)byte : (uint8_t)byte;
        sum += (int64_t)x * y;
    }
    return (uint32_t)sum;
}

/* dp4a: c + the four byte products, bytes signed or unsigned by type. */
uint32_t exec_dp4a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed)
{
    int64_t sum = (int32_t)c;
    for (int i = 0; i < 4; i++) {
        int32_t x = a_signed ? (int8_t)(a >> (8 * i)) : (uint8_t)(a >> (8 * i));
        int32_t y = b_signed ? (int8_t)(b >> (8 * i)) : (uint8_t)(b >> (8 * i));
        sum += (int64_t)x * y;
    }
    return (uint32_t)sum;
}

uint64_t exec_bfi64(uint64_t a, uint64_t b, uint32_t pos, uint32_t len)
{
    pos &= 0xff, len &= 0xff;
    uint64_t d = b;
    for (uint32_t i = 0; i < len && pos + i <= 63; i++) d = (d & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return d;
}

uint32_t exec_brev(uint32_t a)
{
    uint32_t d = 0;
    for (int i = 0; i < 32; i++) d |= ((a >> i) & 1) << (31 - i);
    return d;
}

/* prmt: bytes 0-3 of a, 4-7 of b; default mode picks by the 4 nibbles of
** c (bit 3 of a nibble: replicate the picked byte's sign bit). */
/* fns: the position of the offset-th set bit of mask counted from bit
** base (up for a positive offset, down for a negative one, base itself
** first); offset 0 asks whether bit base is set. 0xffffffff when there is
** none (__fns; cooperative groups' coalesced_group ranks lanes by it). */
uint32_t exec_fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (base > 31) return UINT32_MAX;
    if (offset == 0) return mask >> base & 1 ? base : UINT32_MAX;
    int32_t step = offset > 0 ? 1 : -1;
    uint32_t count = offset > 0 ? (uint32_t)offset : (uint32_t)-(int64_t)offset;
    for (int32_t pos = (int32_t)base; pos >= 0 && pos < 32; pos += step)
        if (mask >> pos & 1 && --count == 0) return (uint32_t)pos;
    return UINT32_MAX;
}

uint32_t exec_prmt(uint32_t a, uint32_t b, uint32_t c, PrmtMode mode)
{
    uint64_t x = (uint64_t)b << 32 | a;
    uint32_t sel[4];
    uint32_t c2 = c & 3;
    switch (mode) {
    case PRMT_F4E: for (int i = 0; i < 4; i++) sel[i] = (c2 + (uint32_t)i) & 7; break;
    case PRMT_B4E: for (int i = 0; i < 4; i++) sel[i] = (c2 + 8 - (uint32_t)i) & 7; break;
    case PRMT_RC8: for (int i = 0; i < 4; i++) sel[i] = c2; break;
    case PRMT_ECL: for (int i = 0; i < 4; i++) sel[i] = (uint32_t)i < c2 ? c2 : (uint32_t)i; break;
    case PRMT_ECR: for (int i = 0; i < 4; i++) sel[i] = (uint32_t)i > c2 ? c2 : (uint32_t)i; break;
    case PRMT_RC16: for (int i = 0; i < 4; i++) sel[i] = ((c & 1) << 1) + ((uint32_t)i & 1); break;
    default:
        for (int i = 0; i < 4; i++) sel[i] = (c >> (4 * i)) & 0xf;
        break;
    }
    uint32_t d = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t byte = (uint32_t)(x >> (8 * (sel[i] & 7))) & 0xff;
        if (mode == PRMT_DEFAULT && (sel[i] & 8)) byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * i);
    }
    return d;
}

uint32_t exec_shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool clamp)
{
    uint32_t n = bit_count(c, clamp);
    uint64_t x = (uint64_t)b << 32 | a;
    return left ? (uint32_t)((x << n) >> 32) : (uint32_t)(x >> n);
}

/* One packed 16-bit operation (ptx_decode_simd16's encoding): per half,
** add or sub wrapping, or min or max (signed or not; relu: at least 0). */
uint32_t exec_simd16(uint32_t a, uint32_t b, uint32_t op, bool sign, bool relu)
{
    uint32_t d = 0;
    for (int h = 0; h < 2; h++) {
        uint32_t ua = a >> (16 * h) & 0xffff, ub = b >> (16 * h) & 0xffff;
        int32_t x = sign ? (int16_t)ua : (int32_t)ua, y = sign ? (int16_t)ub : (int32_t)ub, r;
        switch (op) {
        case 0: r = x + y; break;
        case 1: r = x - y; break;
        case 2: r = x < y ? x : y; break;
        default: r = x > y ? x : y; break;
        }
        if (relu && r < 0) r = 0;
        d |= ((uint32_t)r & 0xffff) << (16 * h);
    }
    return d;
}

/* A SIMD video instruction (ptx_decode_video's encoding): each element of a
** and b extended as its type, the operation on them in full precision, then
** either each result saturated (.sat) or cut to its element of d, or (.add)
** d = c + their sum. */
uint32_t exec_video(uint32_t a, uint32_t b, uint32_t c, uint32_t op, uint32_t sub)
{
    int n = sub & 32 ? 4 : 2, bits = 32 / n;
    uint32_t mask = (1u << bits) - 1, d = 0;
    int64_t lo = sub & 4 ? -(1ll << (bits - 1)) : 0, hi = sub & 4 ? (1ll << (bits - 1)) - 1 : (int64_t)mask;
    uint32_t sum = c;
    for (int i = 0; i < n; i++) {
        uint32_t ua = a >> (bits * i) & mask, ub = b >> (bits * i) & mask;
        int64_t x = sub & 1 && ua >> (bits - 1) ? (int64_t)ua - (1ll << bits) : (int64_t)ua;
        int64_t y = sub & 2 && ub >> (bits - 1) ? (int64_t)ub - (1ll << bits) : (int64_t)ub;
        int64_t r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? (x > y ? x - y : y - x) : op == 3 ? (x < y ? x : y)
                                                                                                 : (x > y ? x : y);
        sum += (uint32_t)r;
        if (sub & 8) r = r < lo ? lo : r > hi ? hi : r;
        d |= ((uint32_t)r & mask) << (bits * i);
    }
    return sub & 16 ? sum : d;
}

/* redux.sync's result over the lanes of `group` (row REDUX_ADD or
** REDUX_OP, whose AtomOp is mod). */
uint32_t exec_redux(Opcode op, ValueType type, uint8_t mod, const uint32_t a[WARP_SIZE], uint32_t group)
{
    bool sgn = type == TYPE_S32, first = true;
    uint32_t r = 0;
    for (uint32_t g = group; g; g &= g - 1) {
        uint32_t v = a[__builtin_ctz(g)];
        if (op == OP_REDUX_ADD) r += v;
        else if (first) r = v;
        else if (mod == ATOM_MIN) r = sgn ? ((int32_t)v < (int32_t)r ? v : r) : (v < r ? v : r);
        else if (mod == ATOM_MAX) r = sgn ? ((int32_t)v > (int32_t)r ? v : r) : (v > r ? v : r);
        else if (mod == ATOM_AND) r &= v;
        else if (mod == ATOM_OR) r |= v;
        else r ^= v;
        first = false;
    }
    return r;
}

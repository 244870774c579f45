/* base/bits.h -- bit helpers every layer uses: lane masks (32 lanes) and
** sector masks (4 sectors of a line) are counted with the same popcount;
** a register's 32 bits read as a float and back; division of 32-bit values
** by a fixed divisor through multiplications. */
#ifndef GPUSIM_BASE_BITS_H
#define GPUSIM_BASE_BITS_H

#include <stdint.h>
#include <string.h>

/* Number of set bits (portable: no libgcc call where the CPU lacks popcnt). */
static inline uint32_t bits_popcount(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Set bits of a lane mask; a full warp (the common case) without counting. */
static inline uint32_t bits_lanes(uint32_t m)
{
    return m == UINT32_MAX ? 32u : bits_popcount(m);
}

/* Set bits of a 4-bit sector mask (higher bits ignored): one shift of a
** 16-entry table packed in a constant, nibble i holding popcount(i). */
static inline uint32_t bits_popcount4(uint32_t m)
{
    return (uint32_t)(0x4332322132212110ull >> ((m & 0xfu) * 4)) & 0xfu;
}

/* A 32-bit register's bits as a float, and a float's bits (no aliasing). */
static inline float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t bits_of_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The same for a 64-bit register pair's bits and a double. */
static inline double bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static inline uint64_t bits_of_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* n / d and n % d for n below 2^32 and a divisor d of 2 .. 2^32 - 1 fixed
** ahead, from magic = bits_div_magic(d) = ceil(2^64 / d): exact for every
** such n and d (Lemire, Kaser and Kurz, "Faster remainder by direct
** computation", 2019), where a 64-bit division takes tens of cycles. */
__extension__ typedef unsigned __int128 BitsU128;

static inline uint64_t bits_div_magic(uint64_t d) { return UINT64_MAX / d + 1; }

static inline uint64_t bits_div32(uint64_t n, uint64_t magic)
{
    return (uint64_t)(((BitsU128)magic * n) >> 64);
}

static inline uint64_t bits_mod32(uint64_t n, uint64_t magic, uint64_t d)
{
    return (uint64_t)(((BitsU128)(magic * n) * d) >> 64);
}

#endif

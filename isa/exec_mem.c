/* isa/exec_mem.c -- where a warp's memory access lands (part of the exec
** module, isa/exec.h): the host pointers of each lane's bytes in global,
** shared or local memory, a generic address resolved to its space, and
** whether the lanes are consecutive (a row copied whole). A lane outside
** every buffer faults. */
#include "isa/exec.h"

#include <string.h>

#include "isa/gmem.h"

/* Lane l's bytes at ptr[0] + l * width for every lane: one vector loop
** (any differing bit of any lane), no early exit. */
static inline bool lanes_consecutive(uint8_t *const ptr[WARP_SIZE], uint32_t width)
{
    uintptr_t first = (uintptr_t)ptr[0], off = 0;
    for (int l = 1; l < WARP_SIZE; l++) off |= (uintptr_t)ptr[l] ^ (first + (uintptr_t)l * width);
    return off == 0;
}

/* Host pointer of each active lane's access, or a fault. *whole: every
** lane's bytes follow the previous lane's in one buffer (rows copy whole). */
static bool map_global(const ExecBlock *b, uint32_t m, uint32_t width, ExecOut *out, uint8_t *ptr[WARP_SIZE],
                       bool *whole)
{
    /* Usually every lane falls in one buffer: translate the span once. */
    uint64_t lo = UINT64_MAX, hi = 0;
    uint32_t apart = 1; /* with every lane: nonzero unless lane l is at addr[0] + l * width */
    if (m == UINT32_MAX) { /* every lane (the common case): no mask tests, and
                              addresses() left each below 2^32, so the 32-bit
                              minimum and maximum (a vector loop) are exact */
        uint32_t lo32 = UINT32_MAX, hi32 = 0, first = (uint32_t)out->addr[0];
        apart = 0;
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t a = (uint32_t)out->addr[l];
            lo32 = a < lo32 ? a : lo32;
            hi32 = a > hi32 ? a : hi32;
            apart |= a ^ (first + (uint32_t)l * width);
        }
        lo = lo32, hi = hi32;
    } else
        for (int l = 0; l < WARP_SIZE; l++)
            if (m >> l & 1) {
                if (out->addr[l] < lo) lo = out->addr[l];
                if (out->addr[l] > hi) hi = out->addr[l];
            }
    /* a deferred access may run beside others (several host threads): the
    ** lookup that remembers nothing */
    out->deferred = b->defer_global;
    uint8_t *base = !m ? NULL
                    : b->defer_global ? gmem_lookup(b->gmem, lo, (uint32_t)(hi - lo) + width)
                                      : gmem_translate(b->gmem, lo, (uint32_t)(hi - lo) + width);
    if (whole) *whole = base && !apart;
    if (base && m == UINT32_MAX) {
        for (int l = 0; l < WARP_SIZE; l++) ptr[l] = base + (out->addr[l] - lo);
    } else if (base) {
        for (int l = 0; l < WARP_SIZE; l++) /* inactive lanes' addresses may be anything */
            ptr[l] = base + ((m >> l & 1) ? out->addr[l] - lo : 0);
    } else {
        for (int l = 0; l < WARP_SIZE; l++) {
            if (!(m >> l & 1)) continue;
            ptr[l] = b->defer_global ? gmem_lookup(b->gmem, out->addr[l], width) : gmem_translate(b->gmem, out->addr[l], width);
            if (!ptr[l]) return exec_fault_at(out, FAULT_GLOBAL_OOB, (uint32_t)l, out->addr[l], width);
        }
    }
    if (b->defer_global) memcpy(out->ptr, ptr, sizeof out->ptr); /* buffers stay put during a launch */
    return true;
}

/* Host pointers of a shared access; *linear: every lane active, each at the
** address after the previous lane's bytes. A full warp is bounded by its
** highest lane; a partial one lane by lane. */
static bool map_shared(const ExecBlock *b, uint32_t m, uint32_t width, ExecOut *out, uint8_t *ptr[WARP_SIZE],
                       bool *linear)
{
    *linear = false;
    if (m == UINT32_MAX) { /* addresses() left each below 2^32: 32-bit arithmetic, a vector loop */
        const uint32_t a0 = (uint32_t)out->addr[0];
        uint32_t apart = 0, hi = 0;
        for (int l = 0; l < WARP_SIZE; l++) {
            uint32_t a = (uint32_t)out->addr[l];
            apart |= a ^ (a0 + (uint32_t)l * width);
            hi = a > hi ? a : hi;
        }
        if ((uint64_t)hi + width <= b->smem_size) {
            for (int l = 0; l < WARP_SIZE; l++) ptr[l] = b->smem + out->addr[l];
            *linear = !apart;
            return true;
        }
    }
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        if (out->addr[l] + width > b->smem_size)
            return exec_fault_at(out, FAULT_SHARED_OOB, (uint32_t)l, out->addr[l], width);
        ptr[l] = b->smem + out->addr[l];
    }
    return true;
}

/* A generic access goes to shared (or local) memory when every active
** lane's address is in the shared (local) window, rewritten to offsets
** there, to global memory when none is; a mix is a fault (not modelled). */
static bool resolve_generic(ExecOut *out, uint32_t m)
{
    uint32_t shared = 0, local = 0;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        if (out->addr[l] >= ISA_SHARED_WINDOW) shared |= 1u << l;
        else if (out->addr[l] >= ISA_LOCAL_WINDOW) local |= 1u << l;
    }
    uint32_t windowed = shared ? shared : local;
    if ((shared && local) || (windowed && windowed != m)) {
        uint32_t l = (uint32_t)__builtin_ctz(shared && local ? local : m & ~windowed);
        return exec_fault_at(out, FAULT_GENERIC_MIXED, l, out->addr[l], out->width);
    }
    out->space = shared ? SPACE_SHARED : local ? SPACE_LOCAL : SPACE_GLOBAL;
    uint32_t base = shared ? ISA_SHARED_WINDOW : ISA_LOCAL_WINDOW;
    if (windowed)
        for (int l = 0; l < WARP_SIZE; l++) out->addr[l] -= base;
    return true;
}

/* Host pointers of the access in the memory that the opcode's row names,
** and, unless whole is NULL, *whole: every lane active, each lane's bytes
** following the previous lane's (the coalesced case: rows copy whole). */
bool exec_map_space(const ExecBlock *b, const WarpExec *w, MemSpace space, uint32_t m, uint32_t width, ExecOut *out,
                    uint8_t *ptr[WARP_SIZE], bool *whole)
{
    if (space == SPACE_GENERIC) {
        if (!resolve_generic(out, m)) return false;
        space = (MemSpace)out->space;
    }
    out->space = (uint8_t)space;
    if (space == SPACE_GLOBAL) return map_global(b, m, width, out, ptr, whole);
    if (space == SPACE_SHARED) {
        bool linear;
        if (!map_shared(b, m, width, out, ptr, &linear)) return false;
        if (whole) *whole = linear;
        return true;
    }
    if (!exec_map_local(b, w, m, width, out, ptr)) return false;
    if (whole) *whole = m == UINT32_MAX && lanes_consecutive(ptr, width);
    return true;
}


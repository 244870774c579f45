/* base/hash.h -- FNV-1a, the one hash of the project's byte strings: cache
** keys of compiled kernels, sweep specs and their files, machine configs in
** reports, the name index. Not for adversaries: it is fast and stable across
** hosts and runs, which is what a key written to a file needs. */
#ifndef GPUSIM_BASE_HASH_H
#define GPUSIM_BASE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV64_OFFSET 0xcbf29ce484222325ull
#define HASH_FNV32_OFFSET 2166136261u
/* The start the sweep's spec hash and the machine hash in reports have
** always used: FNV-1a's offset basis with its last decimal digit dropped.
** Kept, since sweep files name the spec by it: a resume or a --merge of a
** file written before would otherwise refuse it as another sweep's. */
#define HASH_SWEEP_OFFSET 1469598103934665603ull

/* 64-bit FNV-1a of n bytes, continuing from h (start at HASH_FNV64_OFFSET). */
static inline uint64_t hash_fnv64(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* 32-bit FNV-1a of n bytes, continuing from h (start at HASH_FNV32_OFFSET). */
static inline uint32_t hash_fnv32(uint32_t h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

#endif

/* cudart/fatbin.h -- the device code nvcc embeds in a program: the wrapper
** that __cudaRegisterFatBinary receives, the fatbinary it points at, and
** its entries (PTX or SASS, per target, ZSTD-compressed by default since
** CUDA 13 or stored as they are with --no-compress). Only PTX is any use to
** the simulator: fatbin_pick_ptx takes the entry a device of a given
** compute capability would JIT, as the driver does. Reads nothing past the
** sizes the headers give; every field is checked before it is trusted.  */
#ifndef GPUSIM_CUDART_FATBIN_H
#define GPUSIM_CUDART_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

#define FATBIN_WRAPPER_MAGIC 0x466243B1u /* __fatBinC_Wrapper_t.magic          */
#define FATBIN_MAGIC         0xBA55ED50u /* the fatbinary's own header           */
#define FATBIN_KIND_PTX      1u
#define FATBIN_KIND_SASS     2u
#define FATBIN_FLAG_ZSTD     0x8000u     /* entry flags: payload compressed      */
#define FATBIN_FLAG_LZ4      0x2000u     /* older toolkits' compression          */
#define FATBIN_FLAG_ARCH_SPECIFIC 0x100000u /* sm_90a-style target: that device only */

typedef struct {
    uint16_t       kind;         /* FATBIN_KIND_*                               */
    uint32_t       sm;           /* target, major*10+minor (90 for sm_90)       */
    uint64_t       flags;
    const uint8_t *payload;      /* inside the fatbinary                         */
    uint64_t       payload_bytes;/* stored (compressed) bytes                    */
    uint64_t       plain_bytes;  /* bytes once decompressed (payload_bytes if not) */
} FatbinEntry;

/* Entries of the fatbinary at h, reading at most `avail` bytes, into out
** (at most cap; *n the count found, which may exceed cap). False with d
** set when it is malformed or longer than avail. */
bool fatbin_parse(const uint8_t *h, size_t avail, FatbinEntry *out, size_t cap, size_t *n, Diag *d);

/* Entries of the fatbinary a registration wrapper points at, in order, into
** out (at most cap; *n the count found, which may exceed cap). False with d
** set when the wrapper or the fatbinary is malformed. */
bool fatbin_entries(const void *wrapper, FatbinEntry *out, size_t cap, size_t *n, Diag *d);

/* The PTX a device of compute capability `sm` runs: the entry of the
** highest target not above sm (PTX is forward compatible; an
** architecture-specific target such as sm_90a only on its own device).
** Returns its text (malloc'd, NUL-terminated, *len bytes) or NULL with d
** set: no PTX for this device (CUDA's "no kernel image is available for
** execution on the device", with the targets the program has), a payload
** that does not decompress, or no memory. */
char *fatbin_pick_ptx(const FatbinEntry *e, size_t n, uint32_t sm, size_t *len, Diag *d);

#endif

/* isa/gmem.h -- the simulated global memory: a 32-bit byte-addressed space
** holding the buffers a launch declares. Addresses below GMEM_BASE and the
** gaps between buffers are unmapped, so null pointers and small overruns
** fault instead of silently reading a neighbour. Buffers are host memory
** (zeroed), allocated once; nothing is kept per access.                   */
#ifndef GPUSIM_ISA_GMEM_H
#define GPUSIM_ISA_GMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"

#define GMEM_BASE  0x10000u   /* first buffer address                        */
#define GMEM_ALIGN 256u       /* buffer alignment, as cudaMalloc gives       */
#define GMEM_GAP   256u       /* unmapped bytes between two buffers          */
#define GMEM_LIMIT 0xffffff00ull /* the space ends here (32-bit registers)   */

typedef struct GlobalMem GlobalMem;

GlobalMem *gmem_create(void);
void gmem_destroy(GlobalMem *g);

/* Maps a zeroed buffer of `bytes` (> 0) named `name` (copied, for fault
** reports) at the lowest free aligned address. Returns its address, or 0
** with d filled when the space or the host cannot hold it. */
uint32_t gmem_alloc(GlobalMem *g, uint64_t bytes, const char *name, Diag *d);

/* The same at a fixed address (a PTX module's variables, program.h), which
** must keep GMEM_GAP from every other buffer. Returns addr, or 0 with d
** filled. */
uint32_t gmem_alloc_at(GlobalMem *g, uint32_t addr, uint64_t bytes, const char *name, Diag *d);

/* A buffer whose host memory the caller gives, mapped at the address
** equal to its host address (which must lie in the 32-bit space, GMEM_GAP
** from every other buffer), so that host code and kernels use one pointer
** (cudaMallocManaged). gmem never frees it. Returns the address, or 0
** with d filled. */
uint32_t gmem_adopt(GlobalMem *g, void *host, uint64_t bytes, const char *name, Diag *d);

/* The same at a simulated address of the caller's choosing, which need not
** equal the host address (cudaHostRegister: the program's own memory,
** wherever it lies, seen by kernels at addr). */
uint32_t gmem_adopt_at(GlobalMem *g, uint32_t addr, void *host, uint64_t bytes, const char *name, Diag *d);

/* The lowest aligned address at or above `from` where `bytes` fit with
** GMEM_GAP on both sides, or UINT64_MAX. */
uint64_t gmem_free_space(const GlobalMem *g, uint64_t bytes, uint64_t from);

/* Unmaps the buffer that starts at addr and frees its memory (but that of
** an adopted one, which stays the caller's); its
** addresses fault from then on, until a later buffer reuses them (the
** lowest gap that fits is taken first, as allocators reuse). False when no
** buffer starts at addr. */
bool gmem_free(GlobalMem *g, uint32_t addr);

/* A small number the caller keeps with the buffer that starts at addr (0
** when it is made), such as who made it: false when no buffer starts there. */
bool gmem_set_tag(GlobalMem *g, uint32_t addr, uint8_t tag);
/* The tag of the buffer that starts at addr, or -1 when none does. */
int gmem_tag(const GlobalMem *g, uint32_t addr);

/* The buffer holding addr (its start and size), or false when addr is
** unmapped. */
bool gmem_buffer_at(const GlobalMem *g, uint64_t addr, uint32_t *base, uint64_t *size);

/* Host pointer of [addr, addr + size) when the range lies inside one
** buffer, else NULL. Remembers the last buffer hit (fast for streams). */
void *gmem_translate(GlobalMem *g, uint64_t addr, uint32_t size);

/* gmem_translate without remembering the buffer hit: several threads may
** call it at once while nothing maps buffers. */
void *gmem_lookup(const GlobalMem *g, uint64_t addr, uint32_t size);

/* For fault reports: the buffer nearest to addr (name, its address and
** size, and addr's offset from its start, negative before it). False when
** no buffer exists. */
bool gmem_nearest(const GlobalMem *g, uint64_t addr, const char **name, uint32_t *base,
                  uint64_t *size, int64_t *offset);

/* Bytes mapped so far (all buffers). */
uint64_t gmem_bytes(const GlobalMem *g);

#endif

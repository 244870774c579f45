/* sim/racecheck.h -- shared-memory race checker (the optional --racecheck
** mode): like compute-sanitizer's racecheck, it reports two threads of one
** block that touch the same 4-byte shared word between two bar.sync, at
** least one of them writing. Pure: it sees only the accesses it is given
** (no SM, no clock), one RaceCheck per resident block.
**
** How: barrier intervals ("epochs") are numbered; each word keeps a small
** summary of the accesses made to it in the current epoch (the latest write
** or atomic, a second atomic from another warp, and reads from up to two
** warps). An access is checked against that summary when it happens, so a
** race is found whatever order the scheduler ran the two warps in: what
** matters is that no bar.sync separates them. bar.sync starts a new epoch
** in O(1) (words of an older epoch count as untouched).
**
** What races are:
**   - read/write, write/read, write/write of one word by threads of
**     different warps, with no bar.sync between them;
**   - two lanes of one warp writing one word in the same instruction (a
**     write-after-write whose winner is the hardware's choice);
**   - an atomic against a plain read or write of another warp (atomics
**     against atomics are not races; read against read never is).
** Threads of one warp at different instructions are ordered here, since
** the simulator runs a warp in lockstep (isa/ISA.md: no independent thread
** scheduling). With RACECHECK_INTRA_WARP they count as races too, as on
** Volta and later where such code needs __syncwarp (which the ISA lacks).
**
** Races are about 4-byte words, not banks: the machine's bank count
** (smem.banks: 16, 32 or 64) changes what an access costs, never whether
** it races, so the checker takes no bank count.
**
** What it cannot catch: races in global memory; races on paths this launch
** did not execute (it is dynamic, like every sanitizer); races between
** blocks (shared memory is per block, so there are none). Writes of equal
** values are still reported. After the first race on a word, the pc cited
** for later races on that word may be another of the conflicting accesses;
** the first report is exact.
**
** Cost: racecheck_bytes(smem) of host memory per block (RACECHECK_WORD_BYTES
** per 4-byte word, whatever the number of threads or instructions), and
** O(1) per word accessed.                                                   */
#ifndef GPUSIM_SIM_RACECHECK_H
#define GPUSIM_SIM_RACECHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { RACE_READ, RACE_WRITE, RACE_ATOMIC } RaceAccess;

typedef enum {
    RACE_NONE,
    RACE_RAW, /* a read after another thread's write or atomic       */
    RACE_WAR, /* a write or atomic after another thread's read       */
    RACE_WAW  /* a write after another thread's write, either plain  */
} RaceHazard;

/* The first race found: the earlier access (first_*) and the access that
** completed the race (second_*). Threads are linear thread ids in the
** block (tid.x + tid.y*ntid.x + tid.z*ntid.x*ntid.y). */
typedef struct {
    bool       found;
    RaceHazard hazard;
    uint32_t   addr;            /* byte offset of the word in shared memory */
    uint32_t   first_thread, first_pc;
    RaceAccess first_access;
    uint32_t   second_thread, second_pc;
    RaceAccess second_access;
} RaceReport;

typedef struct RaceCheck RaceCheck;

#define RACECHECK_WORD_BYTES 44u   /* host bytes of summary per shared word */
#define RACECHECK_INTRA_WARP 0x1u  /* flags: lanes of one warp race too      */

/* Host bytes racecheck_create(smem_bytes, ...) allocates (for refusing a
** launch up front). */
uint64_t racecheck_bytes(uint32_t smem_bytes);

/* A checker for one block of smem_bytes bytes of shared memory (static +
** dynamic); flags: 0 or RACECHECK_INTRA_WARP. NULL when out of memory.
** Free with racecheck_destroy. */
RaceCheck *racecheck_create(uint32_t smem_bytes, unsigned flags);
void racecheck_destroy(RaceCheck *rc);

/* One warp instruction touching shared memory: lanes in `mask` of warp
** `warp_in_block` (threads warp_in_block*32 + lane) access addr[lane] ..
** addr[lane] + width - 1 (width 4, 8 or 16 bytes: 1, 2 or 4 words), all as
** `access`, at instruction `pc`. Words beyond smem_bytes are ignored (the
** executor faults on them). Returns true when this instruction completed
** a race; then *out_first, when non-NULL and not already found, receives
** the report. */
bool racecheck_warp(RaceCheck *rc, uint32_t warp_in_block, uint32_t pc, const uint64_t addr[32], uint32_t mask,
                    uint32_t width, RaceAccess access, RaceReport *out_first);

/* One thread's access to the word holding byte offset word_addr (its low
** two bits are ignored), as an instruction of its own. Returns and reports
** as racecheck_warp. */
bool racecheck_access(RaceCheck *rc, uint32_t thread, uint32_t pc, uint32_t word_addr, RaceAccess access,
                      RaceReport *out_first);

/* bar.sync released the block: what came before is ordered with what comes
** after. O(1). */
void racecheck_barrier(RaceCheck *rc);

/* A new block takes the slot: a new epoch, and the first report is cleared. */
void racecheck_reset(RaceCheck *rc);

/* The first race since create or reset, or NULL. */
const RaceReport *racecheck_first(const RaceCheck *rc);

/* One-line description into buf (always NUL-terminated), threads as (x,y,z)
** coordinates of a block of ntid threads, e.g.
** "write-after-read race on shared memory word 0x40: thread (33,0,0) wrote at
** pc 12 after thread (1,0,0) read at pc 7, with no bar.sync between". The
** caller adds the instructions and source lines of the two pcs. */
void racecheck_describe(const RaceReport *r, const uint32_t ntid[3], char *buf, size_t cap);

/* "read", "write", "atomic"; "read-after-write", ... */
const char *racecheck_access_name(RaceAccess a);
const char *racecheck_hazard_name(RaceHazard h);

#endif

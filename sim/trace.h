/* sim/trace.h -- the trace sink: callbacks the timing model calls as things
** happen. A NULL sink (or NULL callback) costs one pointer test. The
** visualizer and the Chrome trace writer (cli/trace_chrome.h) are both sinks.                   */
#ifndef GPUSIM_SIM_TRACE_H
#define GPUSIM_SIM_TRACE_H

#include <stdint.h>

#include "sim/smem.h"
#include "sim/stats.h"

typedef struct {
    uint64_t cycle;
    uint32_t sm, block_slot;   /* resident-block slot on the SM           */
    uint32_t block_id;         /* linear block index in the grid           */
    uint32_t warps;
} TraceBlock;

typedef struct {
    uint64_t cycle;
    uint32_t sm, warp;         /* warp slot on the SM (%warpid)            */
    uint32_t scheduler;
    uint32_t block_id;
    uint32_t pc;
    uint32_t active, exec_mask;/* lanes issued / lanes whose guard held    */
    uint32_t unit;             /* OpUnit                                    */
    uint32_t opcode;           /* Opcode                                    */
    uint8_t  diverged;
} TraceIssue;

typedef struct {
    uint64_t cycle;
    uint32_t sm, warp;
    uint32_t reason;           /* StallReason                               */
    uint64_t cycles;           /* how long the warp stayed in that state    */
} TraceStall;

typedef struct {
    uint64_t cycle;
    uint32_t sm, warp, pc;
    uint32_t mask, width, wavefronts;
    uint32_t phases;           /* the wavefronts it needs free of conflicts */
    uint32_t banks;            /* the machine's smem.banks                 */
    uint32_t bank_words[SMEM_MAX_BANKS]; /* distinct words asked of each bank
                                            (the first `banks` are used)   */
    uint8_t  is_store;
    uint8_t  kind;             /* AccessKind: load, store or atomic         */
} TraceShared;

typedef struct {
    uint64_t cycle;
    uint32_t sm, warp, pc;
    uint32_t mask, width;
    uint32_t nlines, sectors, bytes_requested;
    uint64_t line_addr[64];
    uint8_t  sector_mask[64];
    uint8_t  is_store;
    uint8_t  kind;             /* AccessKind: load, store or atomic         */
} TraceGlobal;

typedef struct {
    void *user;
    void (*block_start)(void *user, const TraceBlock *e);
    void (*block_end)(void *user, const TraceBlock *e);
    void (*warp_issue)(void *user, const TraceIssue *e);
    void (*warp_stall)(void *user, const TraceStall *e);
    void (*shared_access)(void *user, const TraceShared *e);
    void (*global_access)(void *user, const TraceGlobal *e);
} TraceSink;

#endif

/* viz/record.h -- the visualizer's recording of one simulated launch: a
** TraceSink that keeps a compact timeline, and the queries the panels ask
** ("what was warp 5 of SM 3 doing at cycle 1200?").
**
** What is kept (memory is bounded; see VREC_* below):
**   every SM   each block's residency [start, end) per block slot, so the GPU
**              panel can show every SM's resident blocks, waves and the
**              blocks still waiting at any cycle (up to VREC_MAX_BLOCKS);
**   whole GPU  warp instructions issued and resident warps, summed into at
**              most VREC_BUCKETS time buckets whose width doubles as the run
**              grows (the timeline strip);
**   one SM     (the "detail SM") in full: every issue (pc, active and exec
**              masks), each warp's state as run-length spans, every shared
**              access (words per bank, wavefronts) and every global access
**              (lines and sector masks), up to VREC_DETAIL_BYTES; past that
**              the detail stops and detail_end says where.
** Choosing another SM means simulating again with that SM as the detail SM
** (the simulation is deterministic, so nothing else changes).
** Pure: no SDL, no clock, no files.                                         */
#ifndef GPUSIM_VIZ_RECORD_H
#define GPUSIM_VIZ_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/stats.h"
#include "sim/trace.h"

#define VREC_BUCKETS      2048u
#define VREC_MAX_BLOCKS   (1u << 21)            /* 2 Mi blocks, 64 MiB          */
#define VREC_DETAIL_BYTES ((uint64_t)256 << 20) /* the detail SM's events       */

/* Warp states shown: the stall reasons (STALL_SELECTED = issuing now), then
** these two. */
enum { VREC_EMPTY = STALL_COUNT, /* no block in this slot            */
       VREC_EXITED,              /* exited; its block is still here   */
       VREC_NSTATES };

typedef struct {
    uint64_t cycle;
    uint32_t pc, active, exec, block_id;
    uint16_t opcode;
    uint8_t  diverged, unit;
} VrecIssue;

typedef struct {
    uint64_t start;
    uint32_t len;
    uint8_t  reason;
} VrecSpan;

typedef struct {
    uint64_t cycle;
    uint32_t warp, pc, mask, width, wavefronts;
    uint32_t phases;         /* the wavefronts it needs free of conflicts (4 for a float4) */
    uint8_t  bank_words[SMEM_MAX_BANKS]; /* distinct words asked of each bank (capped at 255) */
    uint8_t  banks;          /* the machine's smem.banks: bank_words[0, banks) */
    uint8_t  is_store;
    uint8_t  kind;           /* AccessKind (sim/stats.h): load, store, atomic */
} VrecShared;

typedef struct {
    uint64_t cycle;
    uint32_t warp, pc, mask, width, nlines, sectors, bytes_requested;
    uint32_t first_line;     /* index of its first VrecLine              */
    uint8_t  is_store;
    uint8_t  kind;           /* AccessKind: load, store, atomic          */
} VrecGlobal;

typedef struct {
    uint64_t addr;           /* 128-byte line address                    */
    uint8_t  sectors;        /* bit i: 32-byte sector i was touched      */
} VrecLine;

typedef struct {
    uint32_t sm_count, schedulers;
    uint32_t blocks_per_sm, warps_per_block; /* resident-block slots, warps each */
    uint64_t total_blocks;
    uint32_t detail_sm;
} VrecShape;

typedef struct VizRec VizRec;

/* A recorder for a launch of this shape; NULL when out of memory. */
VizRec *vrec_create(const VrecShape *shape);
void vrec_destroy(VizRec *r);

/* Points sink's callbacks at r (sink->user = r). */
void vrec_sink(VizRec *r, TraceSink *sink);

/* Call once after the simulation: end_cycle is the launch's last cycle
** (KernelStats.cycles, or the last cycle reached when it stopped early).
** Builds the per-slot indexes. Returns false when out of memory. */
bool vrec_finish(VizRec *r, uint64_t end_cycle);

/* ---- queries (after vrec_finish) ---- */

const VrecShape *vrec_shape(const VizRec *r);
uint64_t vrec_end(const VizRec *r);
uint32_t vrec_warp_slots(const VizRec *r);        /* blocks_per_sm * warps_per_block */
bool vrec_blocks_capped(const VizRec *r);         /* more than VREC_MAX_BLOCKS      */
uint64_t vrec_detail_end(const VizRec *r);        /* UINT64_MAX: detail complete     */

typedef struct {
    uint64_t started, done, waiting; /* blocks dispatched / finished / not yet dispatched */
    uint32_t wave, waves;            /* wave of the newest dispatched block (1-based), of all */
    uint32_t resident_warps;         /* GPU-wide                                        */
} VrecGpuNow;
void vrec_gpu_at(const VizRec *r, uint64_t cycle, VrecGpuNow *out);

/* Block id resident in each slot of sm at cycle (-1: empty); slots has
** blocks_per_sm entries. Returns how many are resident. */
uint32_t vrec_sm_blocks_at(const VizRec *r, uint32_t sm, uint64_t cycle, int64_t *slots);

/* Wave (0-based) of a block id: blocks are dispatched in id order, one
** wave being sm_count * blocks_per_sm of them. */
uint32_t vrec_wave_of(const VizRec *r, uint64_t block_id);

typedef struct {
    uint8_t  state;        /* StallReason or VREC_EMPTY / VREC_EXITED             */
    bool     has_issue;    /* the warp issued since its block arrived: fields below */
    bool     issuing;      /* it issues at exactly this cycle                     */
    int64_t  block_id;     /* -1 when the slot is empty                           */
    uint64_t issue_cycle;  /* of the last issue at or before the cycle            */
    uint32_t pc, active, exec;
    uint16_t opcode;
    uint8_t  diverged;
    uint64_t issues;       /* how many times the warp slot issued up to the cycle */
} VrecWarpNow;

/* State of warp slot `warp` of the detail SM at cycle. */
void vrec_warp_at(const VizRec *r, uint32_t warp, uint64_t cycle, VrecWarpNow *out);

/* The latest shared / global access on the detail SM at or before cycle,
** by warp slot `warp` only when warp >= 0; NULL when there is none. */
const VrecShared *vrec_shared_at(const VizRec *r, int32_t warp, uint64_t cycle);
const VrecGlobal *vrec_global_at(const VizRec *r, int32_t warp, uint64_t cycle);
const VrecLine *vrec_lines(const VizRec *r, const VrecGlobal *g); /* its g->nlines lines */

typedef enum {
    VREC_EV_ISSUE,        /* any issue on the detail SM             */
    VREC_EV_SHARED,       /* any shared access                       */
    VREC_EV_SHARED_LOAD,
    VREC_EV_SHARED_STORE,
    VREC_EV_GLOBAL,       /* any global access                       */
    VREC_EV_GLOBAL_LOAD,
    VREC_EV_GLOBAL_STORE,
    VREC_EV_DIVERGED,     /* a branch that split a warp              */
    VREC_EV_SHARED_ATOMIC,
    VREC_EV_GLOBAL_ATOMIC,
    VREC_EV_COUNT
} VrecEvent;
extern const char *const VREC_EVENT_NAMES[VREC_EV_COUNT]; /* "issue", "shared-load", ... */

/* The first cycle > from (forward) or the last cycle < from (backward) with
** such an event on the detail SM (by warp slot `warp` when warp >= 0).
** Returns false when there is none. */
bool vrec_next_event(const VizRec *r, VrecEvent kind, int32_t warp, uint64_t from, bool forward, uint64_t *cycle);

/* The timeline strip: nbuckets buckets of width cycles each. issues[i]: warp
** instructions issued on the whole GPU during bucket i; warp_cycles[i]:
** resident warps summed over its cycles. */
typedef struct {
    uint64_t        width;
    uint32_t        nbuckets;
    const uint64_t *issues;
    const uint64_t *warp_cycles;
} VrecTimeline;
void vrec_timeline(const VizRec *r, VrecTimeline *out);

#endif

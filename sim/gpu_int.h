/* sim/gpu_int.h -- what the files of the timing model share: the state of
** one launch (Gpu: SMs, warps, schedulers, block slots) and the calls between
** sim/gpu.c (setup, the main loop, totals, reports), sim/sched.c (warp
** schedulers and issue) and sim/blocks.c (block dispatch, barriers, warp
** exits). One module split along its seams, so the structs are shared
** rather than hidden behind accessors on the hot path; nothing outside these
** three files includes it (other modules include sim/gpu.h). */
#ifndef GPUSIM_SIM_GPU_INT_H
#define GPUSIM_SIM_GPU_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/heap.h"
#include "isa/exec.h"
#include "sim/gpu.h"
#include "sim/memsys.h"
#include "sim/racecheck.h"

#define NEVER UINT64_MAX

/* The pipes a scheduler tracks: the units, plus "ALU or FMA" for integer
** adds that can issue to either (OPF_IMAD). */
#define PIPE_ALU_OR_FMA UNIT_COUNT
#define PIPE_UNIFORM    (UNIT_COUNT + 1) /* the uniform datapath (isa/uniform.h) */
#define NPIPES          (UNIT_COUNT + 2)

typedef enum { WARP_EMPTY, WARP_ACTIVE, WARP_BARRIER, WARP_DONE } WarpState;

typedef struct {
    /* scheduling state, read every cycle: first, on one cache line */
    uint64_t  ready;       /* when the next instruction's operands are ready   */
    uint64_t  since;       /* cycle `reason` began                             */
    uint64_t  age;         /* dispatch order: smaller is older (GTO)           */
    uint8_t   why;         /* StallReason while `ready` is in the future       */
    uint8_t   unit;        /* OpUnit of the next instruction                   */
    uint8_t   reason;      /* StallReason the warp is in now (charged on change) */
    uint8_t   state;       /* WarpState                                        */
    uint8_t   next_reason; /* StallReason while next_issue is what holds it    */
    uint32_t  block;       /* resident-block slot                              */
    uint64_t  next_issue;  /* earliest issue set by its own past (branch, barrier, dispatch) */
    uint64_t *reg_ready;   /* cycle each register's value can be read          */
    uint8_t  *reg_wait;    /* StallReason while waiting for that register      */
    uint64_t  pred_ready[ISA_MAX_PREDS];
    uint32_t  bar_pc;      /* the bar.sync it waits at (for deadlock reports)  */
    WarpExec  ex;
    uint64_t  busy_mark;   /* with per-instruction counters: its scheduler's
                              busy_cycles[unit] when it became eligible        */
} Warp;

/* A scheduler keeps its warps in two places: those whose operands are
** ready (`eligible`, oldest first; scanned every cycle to pick one) and
** those waiting for a result (`waiting`, a min-heap by ready cycle, touched
** only when one comes due). Warps at a barrier are in neither. Stall time
** is charged to a warp when its state changes, so a waiting warp costs
** nothing until its result arrives. */
/* An eligible warp as its scheduler scans it: the age and pipe are copied
** from the Warp (both fixed while it is eligible), so picking one reads
** one contiguous array instead of a Warp per entry. */
typedef struct {
    uint64_t age;
    uint32_t slot;
    uint32_t unit;
} Eligible;

typedef struct {
    Eligible *eligible;    /* oldest first                                      */
    uint32_t  neligible;
    Heap      waiting;     /* (ready cycle, warp slot), fixed storage       */
    uint32_t  nwarps;      /* resident warps of this scheduler                  */
    uint32_t  eligible_by_unit[NPIPES]; /* eligible warps by the pipe they need */
    uint8_t   pipe_busy[NPIPES];        /* ... and whether it was busy        */
    uint32_t  eligible_units;           /* bit u: eligible_by_unit[u] > 0, so a
                                           scheduler visits only the pipes its
                                           eligible warps need               */
    uint64_t  last_eval;   /* the cycle those two describe                      */
    uint64_t  busy_cycles[NPIPES]; /* cycles so far each pipe was busy while a
                                      warp needing it was eligible: what an
                                      eligible warp's wait splits by          */
    uint64_t  wake_at;
    uint64_t  unit_free[NPIPES]; /* by unit, and PIPE_UNIFORM's */
    int64_t   last_issued; /* warp slot, or -1                                  */
    bool      last_eligible; /* ... and it is in `eligible` (GTO looks it up by
                                its age instead of scanning for it)         */
    uint64_t  last_age;    /* LRR: age of the last warp picked                  */
} Scheduler;

typedef struct {
    bool      used;
    uint32_t  block_id;
    ExecBlock eb;
    uint32_t  running, at_barrier;
    uint64_t  bar_counted; /* when the SM's barrier unit counted the last warp to arrive */
    RaceCheck *rc;
} BlockSlot;

typedef struct {
    Warp      *warps;
    BlockSlot *blocks;
    Scheduler *sched;
    uint64_t   smem_free, lsu_free;
    uint64_t   bar_free;     /* when the barrier unit can count the next arrival */
    uint64_t   launch_free;  /* when the SM can start launching another block */
    uint64_t   queue_end;    /* when the last block given to it starts: the
                                launcher's queue is empty from then on      */
    uint32_t   resident_warps;
    uint64_t   occ_last, occ_integral, busy_cycles;
} Sm;


/* What an instruction's issue waits for, decoded once (needs_build). */
#define NEED_PRED  0x8000u /* op[i] names a predicate, not a register */
#define NEED_BPRED 0x4000u /* ... read by a branch: lat.branch_pred later  */
#define NEED_INDEX 0x3fffu
typedef struct {
    uint8_t  n, unit;
    uint16_t op[sizeof ((Instr *)0)->src / sizeof(Operand) + sizeof ((Instr *)0)->dst / sizeof(Operand) + 1];
} PcNeeds;

typedef struct {
    const GpuConfig *c;
    GpuSession      *ses;  /* gpu_simulate's own, or the caller's      */
    PcNeeds         *needs; /* per pc of the kernel                    */
    const Launch    *L;
    const Kernel    *k;
    const TraceSink *trace;
    SimResult       *r;
    KernelStats     *st;
    MemSys          *mem;
    Sm              *sms;
    void            *pool;        /* every per-SM array, one allocation    */
    uint32_t         nregs, block_threads, warps_per_block, smem_size, bps, warp_slots;
    uint32_t         nsm;         /* SMs that get blocks: min(sm.count, blocks)  */
    uint64_t         total_blocks, next_block, blocks_done, now, ages, end;
    uint32_t         interval[UNIT_COUNT], latency[UNIT_COUNT];
    Heap             wakes;       /* schedulers waking after the next cycle:
                                     (cycle, sm * schedulers + scheduler). Entries
                                     are never removed in place: one that no
                                     longer matches its scheduler's wake_at is
                                     skipped when popped. */
    uint32_t        *next, nnext; /* schedulers waking at now + 1 (most wake-ups) */
    uint32_t        *cur, ncur;   /* ... being processed at now                */
    ExecOut         *free_out;    /* scratch for the free (0-slot) PTX instructions */
    PcCounters      *pcs;         /* Launch.pc_counters: NULL, or one per pc  */
    uint32_t         issue_pc;    /* with pcs: the pc being issued (its `selected` cycle) */
    bool             per_warp;    /* a per-warp trace sink: charge eligible warps one by
                                     one (else in bulk)                          */
    bool             watch;       /* per_warp or pcs: charge() tells them         */
    bool             stop;
} Gpu;

/* Pseudo-states of Warp.reason beyond the StallReasons: gone (exited), and
** eligible, whose time its scheduler charges for all such warps at once. */
#define WARP_GONE     STALL_COUNT
#define WARP_ELIGIBLE (STALL_COUNT + 1)

/* ---- sim/gpu.c */

/* Stops the launch with `status` and the message (the first call wins). */
void gpu_fail(Gpu *g, SimStatus status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- sim/sched.c */

/* Moves scheduler (s, qi)'s wake-up to `at` (or earlier only when `earlier`). */
void sched_wake_set(Gpu *g, uint32_t s, uint32_t qi, uint64_t at, bool earlier);
/* Caches when warp `slot`'s next instruction has its operands. */
void sched_prepare(const Gpu *g, Sm *sm, uint32_t slot);
/* Executes the 0-slot PTX instructions at the warp's pc; false on a fault. */
bool sched_run_free(Gpu *g, uint32_t s, uint32_t slot);
/* Builds g->needs (per pc: what its issue waits for); false when out of memory. */
bool sched_needs_build(Gpu *g);
/* Scheduler (s, qi) at cycle g->now: admits, picks and issues at most one warp. */
void sched_step(Gpu *g, uint32_t s, uint32_t qi, ExecOut *out);

/* ---- sim/blocks.c */

/* Adds SM sm's resident-warp time up to g->now to its occupancy integrals. */
void blocks_occ_update(Gpu *g, Sm *sm);
/* Hands SM s its next block, into a free slot; its warps start no sooner
** than `earliest`. */
void blocks_dispatch(Gpu *g, uint32_t s, uint64_t earliest);
/* Opens block b's barrier on SM s once its last warp has arrived. */
void blocks_release_barrier(Gpu *g, uint32_t s, uint32_t b);
/* Warp `slot` of SM s has exited: frees its block's slot when it was the last. */
void blocks_warp_exited(Gpu *g, uint32_t s, uint32_t slot);
/* Fails the launch with a barrier deadlock report (blocks.c says what it holds). */
void blocks_deadlock(Gpu *g, Sm *sm, uint32_t b, uint32_t bar_pc, uint32_t slot, uint32_t partial, const char *why);

#endif

/* sim/gpu_int.h -- what the files of the timing model share: the state of
** one launch (Gpu: SMs, warps, schedulers, block slots) and the calls between
** sim/gpu.c (setup, the main loop, totals, reports), sim/sched.c (warp
** schedulers and issue), sim/blocks.c (block dispatch, the barrier unit,
** warp exits) and sim/par.c (one launch on several host threads). One
** module split along its seams, so the structs are shared rather than
** hidden behind accessors on the hot path; but each structure has one
** writer, named at its calls below (the scoreboard: sim/scoreboard.h).
** Nothing outside these four files includes it (the build keeps it off
** other floors' include paths; other modules include sim/gpu.h). */
#ifndef GPUSIM_SIM_GPU_INT_H
#define GPUSIM_SIM_GPU_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/calendar.h"
#include "base/heap.h"
#include "isa/exec.h"
#include "sim/coalesce.h"
#include "sim/gpu.h"
#include "sim/memsys.h"
#include "sim/racecheck.h"
#include "sim/scoreboard.h"

#define NEVER SB_UNKNOWN

/* The pipes a scheduler tracks: the units, plus "ALU or FMA" for integer
** adds that can issue to either (OPF_IMAD). */
#define PIPE_ALU_OR_FMA UNIT_COUNT
#define PIPE_UNIFORM    (UNIT_COUNT + 1) /* the uniform datapath (isa/uniform.h) */
#define NPIPES          (UNIT_COUNT + 2)

typedef enum { WARP_EMPTY, WARP_ACTIVE, WARP_BARRIER, WARP_DONE } WarpState;

/* A warp's asynchronous copies (cp.async), by when they are done
** (sim/async.c): its open group, its committed groups (a ring, oldest at
** `first`; past ASYNC_GROUPS, the two oldest are kept as one, which only a
** wait for that many groups could tell apart) and all its copies so far. */
#define ASYNC_GROUPS 8
typedef struct {
    uint64_t open, all;
    uint64_t group[ASYNC_GROUPS];
    uint8_t  first, n;
} AsyncGroups;

typedef struct {
    /* scheduling state, read every cycle: first, on one cache line */
    uint64_t  ready;       /* when the next instruction's operands are ready   */
    uint64_t  since;       /* cycle `reason` began                             */
    uint64_t  age;         /* dispatch order: smaller is older (GTO)           */
    uint8_t   why;         /* StallReason while `ready` is in the future       */
    uint8_t   unit;        /* OpUnit of the next instruction                   */
    uint8_t   reads;       /* ... and the registers it reads (sched.register_reads) */
    uint8_t   reason;      /* StallReason the warp is in now (charged on change) */
    uint8_t   state;       /* WarpState                                        */
    uint8_t   next_reason; /* StallReason while next_issue is what holds it    */
    uint16_t  rank;        /* its place by age among its scheduler's resident warps */
    uint16_t  qidx;        /* slot / schedulers: its bit in the scheduler's ring */
    uint32_t  block;       /* resident-block slot                              */
    uint64_t  next_issue;  /* earliest issue set by its own past (branch, barrier, dispatch) */
    Scoreboard sb;         /* when each predicate and register can be read     */
    WarpExec  ex;          /* from the second cache line on: its top read first */
    uint32_t  bar_pc;      /* the bar.sync it waits at (for deadlock reports)  */
    uint8_t   bar_id;      /* ... and its barrier (0 .. EXEC_BARRIERS - 1)     */
    uint64_t  busy_mark;   /* with per-instruction counters: its scheduler's
                              busy_cycles[unit] when it became eligible        */
    uint64_t  held_mark;   /* ... and held_cycles[unit]                        */
    uint64_t  chain_at;    /* several threads: NEVER, or the cycle its free PTX
                              instructions ran at, waiting for a deferred load's
                              value (sim/par.c runs them when it is applied)   */
    bool      why_pending; /* several threads: it went to sleep on a deferred
                              result; its state is set when that is applied  */
    uint32_t  dispatches;  /* blocks its slot has started: sim/par.c tells a
                              result for the warp from one for its successor */
    AsyncGroups async;     /* cp.async's groups (sim/async.c)               */
    uint32_t  mbar_wait;   /* suspended in mbarrier.try_wait: the barrier's
                              shared offset + 1 (0: not suspended), woken
                              when its phase parity leaves mbar_phase        */
    uint32_t  mbar_pc;     /* ... that try_wait (for deadlock reports)       */
    int8_t    mbar_phase;
} Warp;

/* A scheduler keeps its warps in two places: those whose operands are
** ready (`emask`, oldest first; scanned every cycle to pick one) and
** those waiting for a result (`ring` for waits of at most SCHED_RING cycles
** after an issue, else `waiting`, a min-heap by ready cycle; both touched
** only when one comes due). Warps at a barrier are in neither. Stall time
** is charged to a warp when its state changes, so a waiting warp costs
** nothing until its result arrives. */
/* The eligible warps are bits by rank: rank r is the scheduler's r-th
** oldest resident warp. Ages only grow, so a warp that arrives is the
** youngest (the next rank), and the ranks above one that leaves move down
** by one: oldest first is lowest bit first, with no search or move. */
#define SCHED_RING 64
typedef struct {
    /* read on every visit, first: together on the host's first lines */
    uint64_t  wake_at;
    uint64_t  last_eval;   /* the cycle eligible_by_unit and pipe_busy describe */
    uint64_t  ring_sum;    /* bit b: ring[b] has a warp                          */
    uint64_t  ring_base;
    Heap      waiting;     /* (ready cycle, warp slot), fixed storage       */
    uint32_t  eligible_units;           /* bit u: eligible_by_unit[u] > 0, so a
                                           scheduler visits only the pipes its
                                           eligible warps need               */
    uint32_t  nwarps;      /* resident warps of this scheduler: ranks 0..nwarps-1 */
    uint64_t *emask;       /* eligible warps by rank, ewords words              */
    uint16_t *rank_slot;   /* per rank: the warp slot                           */
    uint8_t  *rank_unit;   /* per rank, while eligible: the pipe it needs (the
                              Warp's unit, fixed while eligible, kept here so
                              that a pick reads one small array)              */
    uint32_t  ewords;
    bool      ring_on;     /* see ring */
    bool      last_eligible; /* last_issued is eligible (GTO tries it first)   */
    bool      reads_held;  /* at last_eval: reads_due / P > now              */
    uint8_t   pipe_busy[NPIPES];        /* whether each pipe was busy at last_eval */
    int64_t   last_issued; /* warp slot, or -1                                  */
    uint64_t  last_age;    /* LRR: age of the last warp picked                  */
    /* The register file's read ports (sched.register_reads = P a cycle):
    ** reads_due counts in 1/P cycles when the reads issued so far are done;
    ** an instruction that reads registers issues only while less than a
    ** cycle's worth of them is pending, reads_due / P <= now. */
    uint64_t  reads_due;
    /* PTX: the cycle from which the scheduler can issue again. An
    ** instruction that ptxas makes N SASS instructions takes N issue slots;
    ** they are taken at once, the scheduler issuing nothing else for N. */
    uint64_t  issue_free;
    uint32_t  eligible_by_unit[NPIPES]; /* eligible warps by the pipe they need */
    uint32_t  eligible_reading[NPIPES]; /* eligible warps by pipe that read registers */
    uint64_t  unit_free[NPIPES]; /* by unit, and PIPE_UNIFORM's */
    /* Warps an issue left waiting at most SCHED_RING cycles: bucket ready %
    ** SCHED_RING, bit slot / schedulers, for cycles ring_base+1 ..
    ** ring_base+SCHED_RING (ring_base: the cycle the scheduler last ran).
    ** Not with more than 64 warps a scheduler, nor with a per-warp trace
    ** sink (whose events come in the heap's order): then all go to waiting.
    ** One bucket is read a visit: after the hot fields. */
    uint64_t  ring[SCHED_RING];
    /* with per-instruction counters only */
    uint64_t  busy_cycles[NPIPES]; /* cycles so far each pipe was busy while a
                                      warp needing it was eligible: what an
                                      eligible warp's wait splits by          */
    uint64_t  held_cycles[NPIPES]; /* ... and it was free but the read ports
                                      held (reads_held)                       */
} Scheduler;

#define ASYNC_MBARS 8
typedef struct {
    bool      used;
    uint32_t  block_id;
    ExecBlock eb;
    uint32_t  running;
    ExecBarriers bars;     /* its named barriers' arrivals this phase           */
    uint64_t  bar_counted[EXEC_BARRIERS]; /* when the SM's barrier unit counted
                                             the last warp to arrive at each  */
    RaceCheck *rc;
    /* mbarriers that track copies (cp.async.mbarrier.arrive), by shared
    ** offset: when those copies are done, for a wait that sees the phase
    ** over (sim/async.c); more barriers than ASYNC_MBARS share mbar_rest */
    struct {
        uint32_t addr;
        uint64_t done;
    } mbar[ASYNC_MBARS];
    uint32_t  nmbar;
    uint64_t  mbar_rest;
} BlockSlot;

/* Several threads (sim/par.c): what an SM did during a round that touches
** shared state, applied at the round's end in (cycle, id) order, id being
** sm * schedulers + scheduler (one issue per id and cycle). */
typedef struct {
    uint64_t       cycle, start; /* issue, and when it entered L1 (the LSU's)  */
    uint32_t       id, slot;     /* the issuing scheduler and warp             */
    uint8_t        kind;         /* AccessKind                                 */
    bool           fadd;
    bool           l2_only;      /* a load L1 does not serve (memsys_load)    */
    uint32_t       pc, mask;
    CoalesceResult cr;
    uint8_t       *ptr[WARP_SIZE];     /* ExecOut.ptr: the lanes' bytes         */
    uint32_t       data[4][WARP_SIZE]; /* stores and atomics: ExecOut.data     */
} ParRec;
typedef struct {
    uint64_t cycle, start;       /* the block's exit, and the least its next block can start at */
    uint32_t id, block;          /* the issue that exited, and the block slot freed */
} ParFree;
typedef struct {
    uint64_t cycle, before;      /* the SM's warp instructions before that cycle */
} ParMark;

/* An SM's state for a run on several threads (sim/par.c): what waits for
** the round's end. Written by par.c's calls alone (par_record_global,
** par_record_free, par_count_issue, par_wait_result, and the round's end). */
typedef struct {
    ParRec    *recs;
    ParFree   *frees;
    ParMark   *marks;        /* one per cycle it issued in, since the apply horizon */
    uint32_t   nrec, rec_cap, rec_head, nfree, free_cap, free_head, nmark, mark_cap;
    uint64_t   winst;        /* its warp instructions so far                  */
    uint64_t   mark_cycle;   /* the cycle of the last mark                   */
    bool       fix;          /* a result was applied or a free instruction waits */
} ParSm;

/* An SM's own cache lines (64 bytes, _Alignas): with several threads the
** SMs next to each other belong to different threads, and its counters
** change at every issue. */
typedef struct {
    _Alignas(64) Warp *warps;
    BlockSlot *blocks;
    Scheduler *sched;
    uint64_t   smem_free, lsu_free;
    uint64_t   bar_free;     /* when the barrier unit can count the next arrival */
    uint64_t   launch_free;  /* when the SM can start launching another block */
    uint64_t   queue_end;    /* when the last block given to it starts: the
                                launcher's queue is empty from then on      */
    uint32_t   resident_warps;
    uint64_t   occ_last, occ_integral, busy_cycles;
    ParSm      par;          /* several threads: sim/par.c's alone           */
} Sm;


/* What an instruction's issue waits for, decoded once (needs_build): the
** scoreboard entries (sb_entry) of its operands, and apart the guard of a
** branch, which the branch unit reads lat.branch_pred later; and what its
** issue reads of its row, resolved once so that an issue reads this record
** instead of the opcode table. */
#define NEED_NONE 0xffffu
#define PC_BRANCH    1u /* counted as a branch (OPF_BRANCH)                        */
#define PC_RESOLVES  2u /* a branch or a guarded exit: the next issue waits lat.branch */
#define PC_IMAD      4u /* an integer add: to the FMA pipe while the ALU is busy    */
#define PC_GENERIC   8u /* a PTX generic access: the LSU or the MIO by its space     */
#define PC_ASYNC    16u /* cp.async and mbarriers: timed by sim/async.c too        */
typedef struct {
    uint8_t  n, unit; /* unit: the pipe eligibility waits for (PIPE_*)    */
    uint8_t  reads;   /* distinct registers it reads from the register file */
    uint8_t  pipe;    /* the OpUnit its issue times (a PTX row's lowering's) */
    uint8_t  flags;   /* PC_*                                               */
    uint8_t  flops;   /* FP32 operations per active lane                     */
    uint16_t bpred;   /* a branch's guard, or NEED_NONE                      */
    uint16_t op[sizeof ((Instr *)0)->src / sizeof(Operand) + sizeof ((Instr *)0)->dst / sizeof(Operand) + 1];
} PcNeeds;

/* What every thread's view of a launch hands out in one order. */
typedef struct {
    uint64_t next_block, blocks_done, ages;
} GridQueue;

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
    uint32_t         nregs, block_threads, warps_per_block, smem_size, reserved_smem, bps, warp_slots;
    ExecPrint       *prints;     /* device printf: one sink per SM          */
    uint32_t         nsm;         /* SMs that get blocks: min(sm.count, blocks)  */
    uint64_t         total_blocks, now, end;
    GridQueue       *grid;        /* &grid_own, shared by the views (sim/par.c) */
    GridQueue        grid_own;
    uint32_t         interval[UNIT_COUNT], latency[UNIT_COUNT];
    Calendar         wakes;       /* the schedulers' wake-ups: id sm * schedulers +
                                     scheduler at its wake_at. Entries are never
                                     removed in place: one that no longer
                                     matches its scheduler's wake_at is skipped
                                     when its cycle comes. */
    uint64_t        *cur;         /* the schedulers to run at now: bit id    */
    uint32_t         nwords;      /* words of cur                           */
    ExecOut         *free_out;    /* scratch for the free (0-slot) PTX instructions */
    PcCounters      *pcs;         /* Launch.pc_counters: NULL, or one per pc  */
    uint32_t         issue_pc;    /* with pcs: the pc being issued (its `selected` cycle) */
    bool             per_warp;    /* a per-warp trace sink: charge eligible warps one by
                                     one (else in bulk)                          */
    bool             watch;       /* per_warp or pcs: charge() tells them         */
    bool             stop;
    uint32_t         cur_id;      /* SM x schedulers + the running scheduler's place in
                                     its SM's order this cycle (sched_order_id) */
    uint64_t         fail_cycle;  /* with stop: the cycle and scheduler it stopped at */
    uint32_t         fail_id;
    /* several threads (sim/par.c): each thread's view of the launch is a copy
    ** of this struct with its own clock, wake-ups, counters and result */
    bool             defer;       /* global accesses and refills wait for the round's end */
    bool             refill;      /* ... and blocks may be left to hand out       */
    uint64_t         limit;       /* run cycles before this only (NEVER: one thread) */
} Gpu;

/* Pseudo-states of Warp.reason beyond the StallReasons: gone (exited), and
** eligible, whose time its scheduler charges for all such warps at once. */
#define WARP_GONE     STALL_COUNT
#define WARP_ELIGIBLE (STALL_COUNT + 1)

/* ---- sim/gpu.c */

/* Stops the launch with `status` and the message (the first call wins). */
void gpu_fail(Gpu *g, SimStatus status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* gpu_fail for an instruction's fault of that kind, with its report. */
void gpu_fail_fault(Gpu *g, FaultKind kind, const char *report);
/* Runs the cycles before g->limit at which g's schedulers wake (the whole
** launch when limit is NEVER), in (cycle, SM, position) order. */
void gpu_run_cycles(Gpu *g, ExecOut *out);

/* ---- sim/sched.c */

/* The scheduler's resident warps, which it alone writes (the eligible
** bits by rank, the ring, the waiting heap): warp `slot` of SM s arrives
** (its block started: the youngest rank, waiting for its first operands),
** or leaves (it exited). */
void sched_admit(Gpu *g, uint32_t s, uint32_t slot);
void sched_remove(Gpu *g, uint32_t s, uint32_t slot);
/* Warp `slot` of SM s waits for its next instruction's operands (its
** block started, or its barrier opened): queued by when they are ready,
** its scheduler woken for them. */
void sched_wait(Gpu *g, uint32_t s, uint32_t slot);
/* Several threads, at a round's end (sim/par.c): scheduler qi of SM s
** gives the warps that slept on a result not known at issue (waiting at
** NEVER) their ready cycle now that it is, and wakes for them; false when
** one is needed before the round's end (an internal error, g->stop). */
bool sched_requeue_resolved(Gpu *g, uint32_t s, uint32_t qi);
/* Executes the 0-slot PTX instructions at the warp's pc; false on a fault. */
bool sched_run_free(Gpu *g, uint32_t s, uint32_t slot);
/* Builds g->needs (per pc: what its issue waits for); false when out of memory. */
bool sched_needs_build(Gpu *g);
/* Scheduler (s, qi) at cycle g->now: admits, picks and issues at most one warp. */
void sched_step(Gpu *g, uint32_t s, uint32_t qi, ExecOut *out);

/* The scheduler of SM s that runs first at cycle t: each cycle an SM's
** schedulers run from this one on, in turn, so that none of them always
** wins what they share (the shared-memory and load/store pipes). A hash of
** (t, s): reproducible, and a function of the cycle and the SM alone, as
** sim/par.c's order needs. */
static inline uint32_t sched_first(uint64_t t, uint32_t s, uint32_t nsched)
{
    uint64_t x = t * 0x9E3779B97F4A7C15ull ^ (uint64_t)s * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 29;
    return (uint32_t)((x >> 32) % nsched);
}

/* Where scheduler qi of SM s runs in cycle t's order (cur_id's value). */
static inline uint32_t sched_order_id(uint64_t t, uint32_t s, uint32_t qi, uint32_t nsched)
{
    return s * nsched + (qi + nsched - sched_first(t, s, nsched)) % nsched;
}

/* ---- sim/blocks.c */

/* Adds SM sm's resident-warp time up to g->now to its occupancy integrals. */
void blocks_occ_update(Gpu *g, Sm *sm);
/* Hands SM s its next block, into a free slot; its warps start no sooner
** than `earliest`. */
void blocks_dispatch(Gpu *g, uint32_t s, uint64_t earliest);
/* The SM's barrier unit, which alone writes a block's barrier state (the
** warps' WARP_BARRIER, the arrival counts and times): warp `slot` of SM s
** arrives at the barrier `out` names (out->at_barrier; issued at g->now),
** and waits there unless it is a bar.arrive; the barrier opens when its
** last warp has been counted (the block's last running warp when it names
** no thread count). */
void blocks_barrier_arrive(Gpu *g, uint32_t s, uint32_t slot, const ExecOut *out);
/* After a run whose calendar emptied with blocks unfinished: the barrier
** that holds them, as a deadlock report. */
void blocks_stuck(Gpu *g);
/* Warp `slot` of SM s has exited: frees its block's slot when it was the last. */
void blocks_warp_exited(Gpu *g, uint32_t s, uint32_t slot);
/* Block slot b of SM s is free at cycle g->now: counts the block done and
** hands the slot its next block. */
void blocks_slot_freed(Gpu *g, uint32_t s, uint32_t b);
/* --racecheck: warp `slot`'s access at pc to shared offsets addr[l] of
** its block (lanes in mask, width bytes each), checked; a race fails the
** launch, naming both accesses (from a .cu: the second's CUDA line leads,
** each access names its own). */
void blocks_racecheck(Gpu *g, Sm *sm, uint32_t slot, uint32_t pc, const uint64_t addr[WARP_SIZE], uint32_t mask,
                      uint32_t width, RaceAccess access);
/* Fails the launch with a barrier deadlock report (blocks.c says what it holds). */
void blocks_deadlock(Gpu *g, Sm *sm, uint32_t b, uint32_t bar_pc, uint32_t slot, uint32_t partial, const char *why);

/* ---- sim/par.c */

/* Host threads the launch runs on: Launch.threads, at most one per SM, and
** one with a trace sink or per-instruction counters, or when the threads
** are the default (Launch.threads_auto) and the launch is small. */
uint32_t par_threads(const Gpu *g);
/* Runs the launch on n > 1 threads from its first dispatch on; g then holds
** every view's counters and either the end (no wake-ups left), a failure
** (g->stop), or the state the single thread goes on from (a budget is near).
** False when the threads could not be set up: nothing has run. */
bool par_run(Gpu *g, uint32_t n);
/* During a round: SM s's global access (issue_global), its freed block
** slot b (blocks_warp_exited), and a mark before its first issue of a cycle. */
void par_record_global(Gpu *g, uint32_t s, uint32_t slot, const ExecOut *out, uint8_t kind, uint64_t start,
                       const CoalesceResult *cr, bool fadd, bool l2_only);
void par_record_free(Gpu *g, uint32_t s, uint32_t b);
void par_mark(Gpu *g, Sm *sm);
/* During a round: warp `slot` of SM s has free PTX instructions waiting
** for a result not known yet; they run at the round's end, at g->now. */
void par_wait_result(Gpu *g, uint32_t s, uint32_t slot);

/* sim/async.c: the timing of asynchronous copies and of the mbarriers that
** track them. async_block_start forgets a block slot's barriers and its
** warps' copies; async_issued follows a PC_ASYNC instruction's issue (its
** copy done at `ready`; a wait_group holds the warp's next issue; a
** try_wait whose phase is not over suspends the warp, w->mbar_wait, and an
** arrival that ends a phase wakes its suspended waiters) and returns when
** its result can be read. */
void async_block_start(Gpu *g, Sm *sm, uint32_t b);
uint64_t async_issued(Gpu *g, uint32_t s, uint32_t slot, const Instr *in, const ExecOut *out, uint64_t ready);
/* A bulk copy's loads (cp.async.bulk, timed off the LSU): when the last is back. */
uint64_t async_bulk_load(Gpu *g, uint32_t s, const ExecOut *out);

/* During a round: SM sm issued `slots` SASS instructions at g->now (its
** count, for a failure's total; a mark before its first issue of a cycle).
** Inline: it is on the issue path of a run on several threads. */
static inline void par_count_issue(Gpu *g, Sm *sm, uint32_t slots)
{
    if (sm->par.mark_cycle != g->now) par_mark(g, sm);
    sm->par.winst += slots;
}

#endif

/* sim/gpu.c -- the timing model: block dispatch, SMs, warp schedulers,
** scoreboards and pipelines, driven by one global cycle counter.
**
** Each cycle, every scheduler that may have work picks at most one ready
** warp (GTO or LRR) and issues its next instruction. Issue executes it
** functionally (isa/exec) and times it: fixed-latency units mark the
** destination ready `latency` cycles later; shared memory occupies the SM's
** shared pipe for one cycle per wavefront; global accesses go through the
** coalescer and the memory system, which return when the data is back.
** Since every ready time is known when the producer issues, a scheduler with
** nothing ready sleeps until its earliest warp can go, and the clock jumps
** to the earliest such wake-up across the GPU.
**
** Blocks are handed to an SM when its resources fit; each SM's launcher
** starts one every sm.block_launch_interval cycles (longer for blocks of
** many warps: sm.warp_launch_interval per warp), and a slot a block leaves
** gets its next one sm.block_refill_latency cycles later.
**
** Stall reasons are charged per warp per cycle, on state changes: a warp
** waiting for a result is charged its reason when the result arrives; the
** warps whose operands are ready are charged in bulk at each evaluation of
** their scheduler (not selected, or throttled by the pipe they need). A
** warp whose block waits for the SM's launcher is not stalled: that time
** is counted apart (launch_wait_warp_cycles per warp slot, and
** launch_queue_cycles for the SM's time with a block waiting).
**
** PTX kernels are timed as the SASS they become (Instr.slots/lunit/llat,
** from isa/opcodes.def's lower column): an instruction of N slots holds the
** warp for N issue cycles and its pipe for N intervals, its result ready
** after its latency unit's latency; one of 0 slots (ld.param, cvta, moves:
** folded into operands by ptxas) executes right after the warp's previous
** instruction, its result ready when its sources are. Mini-ISA
** instructions are one slot on their row's unit, as before.
**
** Integer instructions on warp-uniform values (isa/uniform.h) issue to the
** scheduler's uniform datapath (pipe.uniform_interval, lat.uniform) instead
** of the integer pipe, as ptxas's UIADD3 loop counters do.
**
** Left out: instruction fetch and caches, register-bank conflicts, the
** operand collector, dual issue, the discrete steps of
** the L1/shared carveout, texture and constant caches (ld.param is an ALU
** op). */
#include "sim/gpu.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/heap.h"
#include "isa/disasm.h"
#include "isa/exec.h"
#include "isa/grid.h"
#include "isa/uniform.h"
#include "sim/coalesce.h"
#include "sim/derive.h"
#include "sim/memsys.h"
#include "sim/occupancy.h"
#include "sim/racecheck.h"
#include "sim/smem.h"

#define NEVER UINT64_MAX

/* The pipes a scheduler tracks: the units, plus "ALU or FMA" for integer
** adds that can issue to either (OPF_IMAD), plus the uniform datapath for
** integer work on warp-uniform values (isa/uniform.h). */
#define PIPE_ALU_OR_FMA UNIT_COUNT
#define PIPE_UNIFORM    (UNIT_COUNT + 1)
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

struct GpuSession {
    const GpuConfig *c;
    MemSys          *mem;  /* NULL until the first launch            */
    uint64_t         end;  /* the last launch's end, in its own cycles */
};

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

/* ------------------------------------------------------------ reporting */

static void fail(Gpu *g, SimStatus status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(Gpu *g, SimStatus status, const char *fmt, ...)
{
    if (g->stop) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->r->message, sizeof g->r->message, fmt, ap);
    va_end(ap);
    g->r->status = status;
    g->stop = true;
}

/* Appends where every resident warp is (for budget and deadlock reports). */
static void append_warp_positions(Gpu *g, size_t max_lines)
{
    char *msg = g->r->message;
    size_t len = strlen(msg), lines = 0, cap = sizeof g->r->message;
    for (uint32_t s = 0; s < g->nsm; s++)
        for (uint32_t w = 0; w < g->warp_slots; w++) {
            Warp *wp = &g->sms[s].warps[w];
            if (wp->state != WARP_ACTIVE && wp->state != WARP_BARRIER) continue;
            if (lines++ == max_lines) {
                if (len < cap) len += (size_t)snprintf(msg + len, cap - len, "\n    ...");
                return;
            }
            uint32_t pc = exec_pc(&wp->ex);
            char text[128];
            disasm_instr(g->k, &g->k->code[pc], text, sizeof text);
            const ExecBlock *eb = &g->sms[s].blocks[wp->block].eb;
            if (len < cap)
                len += (size_t)snprintf(msg + len, cap - len,
                                        "\n    SM %u warp %u (block (%u,%u,%u) warp %u)%s: pc %u line %u: %s", s, w,
                                        eb->ctaid[0], eb->ctaid[1], eb->ctaid[2], wp->ex.warp_in_block,
                                        wp->state == WARP_BARRIER ? " waiting at bar.sync" : "", pc,
                                        g->k->code[pc].line, text);
        }
}

static void prepare(const Gpu *g, Sm *sm, uint32_t slot);
static bool run_free(Gpu *g, uint32_t s, uint32_t slot);

/* Moves scheduler (s, qi)'s wake-up to `at` (or earlier only when `earlier`). */
static void wake_set(Gpu *g, uint32_t s, uint32_t qi, uint64_t at, bool earlier)
{
    Scheduler *q = &g->sms[s].sched[qi];
    /* Invariant: a wake_at other than NEVER has its entry queued, so a
    ** scheduler is never queued twice for one cycle. */
    if (q->wake_at == at || (earlier && q->wake_at < at)) return;
    q->wake_at = at;
    uint32_t id = s * g->c->sm_schedulers + qi;
    if (at == g->now + 1) { /* the common case: no heap traffic */
        assert(g->nnext < g->nsm * g->c->sm_schedulers);
        g->next[g->nnext++] = id;
    }
    else if (at != NEVER) {
        if (heap_reserve(&g->wakes, g->wakes.n + 1)) heap_push(&g->wakes, at, id);
        else fail(g, SIM_BAD_LAUNCH, "out of host memory");
    }
}

/* Pseudo-states of Warp.reason beyond the StallReasons: gone (exited), and
** eligible, whose time its scheduler charges for all such warps at once. */
#define WARP_GONE     STALL_COUNT
#define WARP_ELIGIBLE (STALL_COUNT + 1)

/* Puts warp w into state `reason` from cycle `at` on, charging the state it
** leaves with the cycles it spent there. */
static inline void charge(Gpu *g, uint32_t s, uint32_t slot, Warp *w, uint8_t reason, uint64_t at)
{
    if (w->reason == reason) return;
    if (w->reason < STALL_COUNT && at > w->since) {
        /* a warp whose block the launcher has not started is not stalled:
        ** its slot's time is SM-level time, counted apart */
        bool launch_wait = w->reason == STALL_BLOCK_LAUNCH;
        if (launch_wait) g->st->launch_wait_warp_cycles += at - w->since;
        else g->st->stall[w->reason] += at - w->since;
        if (g->watch) {
            /* a warp is charged at the instruction it waits to issue;
            ** `selected`, charged just after the issue, at the one it issued */
            if (g->pcs && w->reason < STALL_REASONS)
                g->pcs[w->reason == STALL_SELECTED ? g->issue_pc : exec_pc(&w->ex)].stall[w->reason] += at - w->since;
            if (g->trace && g->trace->warp_stall) {
                TraceStall e = { w->since, s, slot, w->reason, at - w->since };
                g->trace->warp_stall(g->trace->user, &e);
            }
        }
    }
    w->reason = reason;
    w->since = at;
}

/* The first eligible warp not older than `age` (ages are unique). */
static inline uint32_t eligible_find(const Scheduler *q, uint64_t age)
{
    uint32_t lo = 0, hi = q->neligible;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (q->eligible[mid].age < age) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Inserts a warp whose operands are ready, keeping the list oldest first. */
static inline void eligible_add(Scheduler *q, const Warp *w, uint32_t slot)
{
    uint32_t i = eligible_find(q, w->age);
    memmove(&q->eligible[i + 1], &q->eligible[i], (q->neligible - i) * sizeof q->eligible[0]);
    q->neligible++;
    q->eligible[i] = (Eligible){ w->age, slot, w->unit };
    if ((int64_t)slot == q->last_issued) q->last_eligible = true;
}

/* The first eligible warp from index i on whose pipe is free, or -1. */
static inline int64_t eligible_free(const Scheduler *q, uint32_t i)
{
    for (; i < q->neligible; i++)
        if (!q->pipe_busy[q->eligible[i].unit]) return i;
    return -1;
}

/* ------------------------------------------------------------ occupancy */

static void occ_update(Gpu *g, Sm *sm)
{
    uint64_t dt = g->now - sm->occ_last;
    sm->occ_integral += (uint64_t)sm->resident_warps * dt;
    if (sm->resident_warps) sm->busy_cycles += dt;
    sm->occ_last = g->now;
}

/* ------------------------------------------------------------- dispatch */

/* Hands SM s its next block, into a free slot; its warps start no sooner
** than `earliest`. */
static void dispatch(Gpu *g, uint32_t s, uint64_t earliest)
{
    Sm *sm = &g->sms[s];
    uint32_t b = 0;
    while (b < g->bps && sm->blocks[b].used) b++;
    if (b == g->bps || g->next_block >= g->total_blocks) return;
    BlockSlot *bs = &sm->blocks[b];
    uint64_t id = g->next_block++;
    const uint32_t *gd = g->L->grid;
    bs->used = true;
    bs->block_id = (uint32_t)id;
    bs->eb.ctaid[0] = (uint32_t)(id % gd[0]);
    bs->eb.ctaid[1] = (uint32_t)(id / gd[0] % gd[1]);
    bs->eb.ctaid[2] = (uint32_t)(id / ((uint64_t)gd[0] * gd[1]));
    memset(bs->eb.smem, 0, g->smem_size);
    if (g->L->racecheck) {
        if (!bs->rc && !(bs->rc = racecheck_create(g->smem_size, 0))) {
            fail(g, SIM_BAD_LAUNCH, "out of host memory for --racecheck");
            return;
        }
        racecheck_reset(bs->rc);
    }
    bs->running = g->warps_per_block;
    bs->at_barrier = 0;
    bs->bar_counted = 0;
    occ_update(g, sm);
    sm->resident_warps += g->warps_per_block;
    /* The block holds its resources from now on; its warps start once the
    ** SM's block launcher gets to it. The launcher takes a block every
    ** sm.block_launch_interval cycles, or sm.warp_launch_interval per warp
    ** when that is longer (a 32-warp block: 255 cycles on an H200). */
    uint64_t start = sm->launch_free > earliest ? sm->launch_free : earliest;
    /* the SM has a block waiting for its launcher over [earliest, start),
    ** counted once where such waits overlap (starts never go back) */
    uint64_t wait_from = sm->queue_end > earliest ? sm->queue_end : earliest;
    if (start > wait_from) g->st->launch_queue_cycles += start - wait_from;
    sm->queue_end = start;
    uint64_t per_block = (uint64_t)g->warps_per_block * g->c->warp_launch_interval;
    sm->launch_free = start + (per_block > g->c->block_launch_interval ? per_block : g->c->block_launch_interval);
    for (uint32_t i = 0; i < g->warps_per_block; i++) {
        uint32_t slot = b * g->warps_per_block + i;
        Warp *w = &sm->warps[slot];
        exec_warp_init(&w->ex, w->ex.r, g->nregs, i, g->block_threads, slot);
        memset(w->reg_ready, 0, g->nregs * sizeof *w->reg_ready);
        memset(w->pred_ready, 0, sizeof w->pred_ready);
        w->block = b;
        if (g->k->ptx && !run_free(g, s, slot)) return;
        w->next_issue = start;
        w->next_reason = STALL_BLOCK_LAUNCH;
        w->reason = STALL_BLOCK_LAUNCH;
        w->since = g->now + 1;
        w->age = g->ages++;
        w->block = b;
        w->state = WARP_ACTIVE;
        Scheduler *q = &sm->sched[slot % g->c->sm_schedulers];
        q->nwarps++;
        prepare(g, sm, slot);
        heap_push(&q->waiting, w->ready, slot);
        wake_set(g, s, slot % g->c->sm_schedulers, w->ready, true);
    }
    if (g->trace && g->trace->block_start) {
        TraceBlock e = { g->now, s, b, bs->block_id, g->warps_per_block };
        g->trace->block_start(g->trace->user, &e);
    }
}

static void remove_from_scheduler(Scheduler *q, uint32_t slot)
{
    q->nwarps--; /* the warp was picked, so it is in neither list; an empty
                    scheduler finds nothing at its next wake-up and sleeps */
    if (q->last_issued == (int64_t)slot) q->last_issued = -1, q->last_eligible = false;
}

/* The barrier opens lat.barrier + lat.barrier_warp per warp of the block
** after the SM's barrier unit has counted its last arrival (an H200: 12 +
** 2 cycles a warp for one block alone, 84-115 with 64 warps at barriers on
** the SM: validate/probes/barrier.cu). */
static void release_barrier(Gpu *g, uint32_t s, uint32_t b)
{
    Sm *sm = &g->sms[s];
    BlockSlot *bs = &sm->blocks[b];
    uint64_t open = bs->bar_counted + g->c->lat_barrier + (uint64_t)g->c->lat_barrier_warp * g->warps_per_block;
    if (open < g->now + 1) open = g->now + 1;
    for (uint32_t i = 0; i < g->warps_per_block; i++) {
        uint32_t slot = b * g->warps_per_block + i;
        Warp *w = &sm->warps[slot];
        if (w->state != WARP_BARRIER) continue;
        w->state = WARP_ACTIVE;
        w->next_issue = open;
        w->next_reason = STALL_BARRIER;
        prepare(g, sm, slot);
        heap_push(&sm->sched[slot % g->c->sm_schedulers].waiting, w->ready, slot);
        wake_set(g, s, slot % g->c->sm_schedulers, w->ready, true);
    }
    bs->at_barrier = 0;
    if (bs->rc) racecheck_barrier(bs->rc);
}

/* Appends a lane set as thread ranges of the block ("threads 32-47, 50"). */
static size_t append_threads(char *msg, size_t len, size_t cap, uint32_t warp_in_block, uint32_t mask)
{
    const char *sep = " threads ";
    for (uint32_t l = 0; l < 32 && len < cap; l++) {
        if (!(mask >> l & 1)) continue;
        uint32_t e = l;
        while (e + 1 < 32 && (mask >> (e + 1) & 1)) e++;
        uint32_t t0 = warp_in_block * 32 + l, t1 = warp_in_block * 32 + e;
        len += t0 == t1 ? (size_t)snprintf(msg + len, cap - len, "%s%u", sep, t0)
                        : (size_t)snprintf(msg + len, cap - len, "%s%u-%u", sep, t0, t1);
        sep = ", ";
        l = e;
    }
    return len < cap ? len : cap;
}

/* Reports a block that can never pass its barrier as compute-sanitizer's
** synccheck would: the bar.sync and its line first, then each warp of the
** block: arrived (and with which threads), still running elsewhere, or
** exited. `partial` is the lanes of warp `slot` that reached the barrier
** when only some of its live lanes did (0 otherwise). */
static void barrier_deadlock(Gpu *g, Sm *sm, uint32_t b, uint32_t bar_pc, uint32_t slot, uint32_t partial,
                             const char *why)
{
    const ExecBlock *eb = &sm->blocks[b].eb;
    char text[128];
    disasm_instr(g->k, &g->k->code[bar_pc], text, sizeof text);
    fail(g, SIM_DEADLOCK, "%s:%u: barrier deadlock at '%s' in kernel '%s', block (%u,%u,%u): %s",
         g->L->kernel_file ? g->L->kernel_file : "?", g->k->code[bar_pc].line, text, g->k->name, eb->ctaid[0],
         eb->ctaid[1], eb->ctaid[2], why);
    char *msg = g->r->message;
    size_t cap = sizeof g->r->message, len = strlen(msg);
    for (uint32_t i = 0; i < g->warp_slots && len < cap; i++) {
        const Warp *w = &sm->warps[i];
        if (w->block != b || w->state == WARP_EMPTY) continue;
        len += (size_t)snprintf(msg + len, cap - len, "\n    warp %u", w->ex.warp_in_block);
        if (len >= cap) break;
        if (w->state == WARP_DONE) {
            len += (size_t)snprintf(msg + len, cap - len, ": exited");
        } else if (w->state == WARP_BARRIER) {
            len += (size_t)snprintf(msg + len, cap - len, ": arrived at line %u,", g->k->code[w->bar_pc].line);
            len = append_threads(msg, len, cap, w->ex.warp_in_block, w->ex.live);
        } else if (i == slot && partial) {
            len += (size_t)snprintf(msg + len, cap - len, ": arrived at line %u with only", g->k->code[bar_pc].line);
            len = append_threads(msg, len, cap, w->ex.warp_in_block, partial);
            if (len < cap) len += (size_t)snprintf(msg + len, cap - len, "; never arriving:");
            len = append_threads(msg, len, cap, w->ex.warp_in_block, w->ex.live & ~partial);
        } else {
            uint32_t pc = exec_pc(&w->ex);
            disasm_instr(g->k, &g->k->code[pc], text, sizeof text);
            len += (size_t)snprintf(msg + len, cap - len, ": not arrived, at line %u: %s", g->k->code[pc].line, text);
        }
        if (len > cap) len = cap;
    }
}

static void warp_exited(Gpu *g, uint32_t s, uint32_t slot)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    w->state = WARP_DONE;
    remove_from_scheduler(&sm->sched[slot % g->c->sm_schedulers], slot);
    occ_update(g, sm);
    sm->resident_warps--;
    bs->running--;
    if (bs->running && bs->at_barrier == bs->running) {
        uint32_t waiting = slot;
        for (uint32_t i = 0; i < g->warp_slots; i++)
            if (sm->warps[i].block == w->block && sm->warps[i].state == WARP_BARRIER) waiting = i;
        barrier_deadlock(g, sm, w->block, sm->warps[waiting].bar_pc, waiting, 0,
                         "some warps exited while the others wait at bar.sync; they can never arrive");
        return;
    }
    if (bs->running) return;
    bs->used = false;
    if (g->now + 1 > g->end) g->end = g->now + 1;
    g->blocks_done++;
    if (g->L->progress) g->L->progress(g->L->progress_user, g->blocks_done, g->total_blocks);
    if (g->trace && g->trace->block_end) {
        TraceBlock e = { g->now + 1, s, w->block, bs->block_id, g->warps_per_block };
        g->trace->block_end(g->trace->user, &e);
    }
    /* A freed slot's next block starts sm.block_refill_latency later: the
    ** SM reports the retirement and the block distributor answers (an H200
    ** refills a slot ~400 cycles after its block ends, while it fills an
    ** empty SM far faster than that). */
    dispatch(g, s, g->now + 1 + g->c->block_refill_latency);
}

/* ------------------------------------------------------------- readiness */

static inline void need(uint64_t ready, uint8_t why, uint64_t *t, uint8_t *reason)
{
    if (ready > *t) {
        *t = ready;
        *reason = why;
    }
}

/* Builds g->needs: per instruction, the registers and predicates its issue
** waits for (sources, then destinations: a load still in flight to the same
** register, then the guard; the order decides which reason a tie charges),
** and the pipe it needs. Decoded once per launch instead of at every issue. */
static bool needs_build(Gpu *g)
{
    const Kernel *k = g->k;
    g->needs = malloc((k->ncode ? k->ncode : 1) * sizeof *g->needs);
    if (!g->needs) return false;
    uint8_t *uni = NULL;
    if (g->c->uniform_interval) {
        uni = malloc(k->ncode ? k->ncode : 1);
        if (!uni || !uniform_analyze(k, uni)) {
            free(uni);
            return false;
        }
    }
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const Instr *in = &k->code[pc];
        PcNeeds *pn = &g->needs[pc];
        pn->n = 0;
        for (uint32_t i = 0; i < in->nsrc + in->ndst; i++) {
            const Operand *o = i < in->nsrc ? &in->src[i] : &in->dst[i - in->nsrc];
            if (o->kind == OPND_REG) pn->op[pn->n++] = o->index;
            else if (o->kind == OPND_PRED) pn->op[pn->n++] = (uint16_t)(NEED_PRED | o->index);
        }
        if (in->guard != ISA_NO_GUARD)
            pn->op[pn->n++] = (uint16_t)(NEED_PRED | (OP_INFO[in->op].flags & OPF_BRANCH ? NEED_BPRED : 0) | in->guard);
        pn->unit = (uint8_t)(OP_INFO[in->op].flags & OPF_IMAD ? PIPE_ALU_OR_FMA : OP_INFO[in->op].unit);
        if (uni && uni[pc] && (!k->ptx || in->slots == 1)) pn->unit = PIPE_UNIFORM;
    }
    free(uni);
    return true;
}

/* When a predicate can be read: a branch reads it lat.branch_pred cycles
** after other instructions can (on the H200 a compare's predicate reaches
** the branch unit 13 cycles after its issue, a select 4: probes/branch.cu). */
static inline uint64_t pred_ready_for(const Gpu *g, const Warp *w, uint32_t need)
{
    uint64_t t = w->pred_ready[need & NEED_INDEX];
    return t && (need & NEED_BPRED) ? t + g->c->lat_branch_pred : t;
}

/* Caches when the warp's next instruction has its operands (its own
** registers only change when it issues, so this holds until then). */
static void prepare(const Gpu *g, Sm *sm, uint32_t slot)
{
    Warp *w = &sm->warps[slot];
    if (!w->ex.depth) return;
    const PcNeeds *pn = &g->needs[exec_pc(&w->ex)];
    uint64_t t = w->next_issue;
    uint8_t reason = w->next_reason;
    for (uint32_t i = 0; i < pn->n; i++) {
        uint32_t o = pn->op[i];
        if (o & NEED_PRED) need(pred_ready_for(g, w, o), STALL_WAIT, &t, &reason);
        else need(w->reg_ready[o], w->reg_wait[o], &t, &reason);
    }
    w->ready = t;
    w->why = reason;
    w->unit = pn->unit;
}

/* Executes the 0-slot PTX instructions at the warp's pc (what ptxas folds
** into the operands of others), without an issue slot: each result is ready
** when its sources are. They are never branches, barriers or exits. */
static bool run_free(Gpu *g, uint32_t s, uint32_t slot)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    while (w->ex.depth) {
        const Instr *in = &g->k->code[exec_pc(&w->ex)];
        if (in->slots) return true;
        uint64_t t = 0;
        uint8_t why = STALL_WAIT;
        for (uint32_t i = 0; i < in->nsrc; i++) {
            const Operand *o = &in->src[i];
            if (o->kind == OPND_REG) need(w->reg_ready[o->index], w->reg_wait[o->index], &t, &why);
            else if (o->kind == OPND_PRED) need(w->pred_ready[o->index], STALL_WAIT, &t, &why);
        }
        if (in->guard != ISA_NO_GUARD) need(w->pred_ready[in->guard], STALL_WAIT, &t, &why);
        bs->eb.clock = g->now;
        if (!exec_step(&bs->eb, &w->ex, g->free_out)) {
            char report[1536];
            grid_describe_fault(g->k, g->L->kernel_file, g->L->gmem, &g->free_out->fault, bs->eb.ctaid, bs->eb.ntid,
                                w->ex.warp_in_block, report, sizeof report);
            fail(g, SIM_FAULT, "%s", report);
            return false;
        }
        g->st->ptx_instructions++;
        if (g->pcs) g->pcs[in - g->k->code].executed++;
        for (uint32_t i = 0; i < in->ndst; i++) {
            const Operand *o = &in->dst[i];
            if (o->kind == OPND_REG) {
                w->reg_ready[o->index] = t;
                w->reg_wait[o->index] = why;
            } else if (o->kind == OPND_PRED) {
                w->pred_ready[o->index] = t;
            }
        }
    }
    return true;
}

/* What holds an instruction whose operands are ready, per unit. */
static const uint8_t PIPE_STALL[NPIPES] = {
    [UNIT_ALU] = STALL_MATH_PIPE_THROTTLE, [UNIT_FMA] = STALL_MATH_PIPE_THROTTLE,
    [UNIT_SFU] = STALL_MATH_PIPE_THROTTLE, [UNIT_DIV] = STALL_MATH_PIPE_THROTTLE,
    [UNIT_LSU] = STALL_LG_THROTTLE,        [UNIT_MIO] = STALL_MIO_THROTTLE,
    [UNIT_CTRL] = STALL_NOT_SELECTED,      [PIPE_ALU_OR_FMA] = STALL_MATH_PIPE_THROTTLE,
    [PIPE_UNIFORM] = STALL_MATH_PIPE_THROTTLE,
};

/* ----------------------------------------------------------------- issue */

static uint64_t issue_global(Gpu *g, uint32_t s, uint32_t slot, const Instr *in, const ExecOut *out, uint8_t *wait)
{
    Sm *sm = &g->sms[s];
    KernelStats *st = g->st;
    *wait = STALL_LONG_SCOREBOARD;
    if (!out->exec_mask) return g->now + 1;
    uint32_t fl = OP_INFO[in->op].flags;
    AccessKind kind = fl & OPF_ATOM ? ACCESS_ATOMIC : fl & OPF_STORE ? ACCESS_STORE : ACCESS_LOAD;
    CoalesceResult cr;
    coalesce_analyze(out->addr, out->exec_mask, out->width,
                     kind == ACCESS_LOAD ? COALESCE_LOAD : kind == ACCESS_STORE ? COALESCE_STORE : COALESCE_ATOMIC, &cr);
    /* The L1 handles one 128-byte line (tag) per cycle and a few sectors. */
    uint64_t start = sm->lsu_free > g->now ? sm->lsu_free : g->now;
    uint32_t spc = g->c->l1_sectors_per_cycle;
    uint32_t busy = (cr.sectors + spc - 1) / spc;
    if (cr.nlines > busy) busy = cr.nlines;
    sm->lsu_free = start + busy;
    GlobalCounts *n = &st->global[kind];
    n->requests++;
    n->sectors += cr.sectors;
    n->ideal_sectors += (cr.bytes_requested + SECTOR_BYTES - 1) / SECTOR_BYTES;
    MemSectorCounts before = { 0 };
    if (g->pcs) memsys_sector_counts(g->mem, s, &before);
    uint64_t ready = g->now + 1;
    if (kind == ACCESS_LOAD) ready = memsys_load(g->mem, s, start, &cr);
    else if (kind == ACCESS_STORE) memsys_store(g->mem, s, start, &cr);
    else ready = memsys_atomic(g->mem, s, start, &cr, OP_INFO[in->op].type == TYPE_F32 && in->mod == ATOM_ADD);
    if (g->pcs) { /* this request's share of every counter above */
        PcCounters *p = &g->pcs[in - g->k->code];
        MemSectorCounts after;
        memsys_sector_counts(g->mem, s, &after);
        p->global_requests++;
        p->sectors += cr.sectors;
        p->ideal_sectors += (cr.bytes_requested + SECTOR_BYTES - 1) / SECTOR_BYTES;
        p->l1_sector_accesses += after.l1_accesses - before.l1_accesses;
        p->l1_sector_hits += after.l1_hits - before.l1_hits;
        p->l2_sector_accesses += after.l2_accesses - before.l2_accesses;
        p->l2_sector_hits += after.l2_hits - before.l2_hits;
    }
    if (g->trace && g->trace->global_access) {
        TraceGlobal e = { .cycle = g->now, .sm = s, .warp = slot, .pc = out->pc, .mask = out->exec_mask,
                          .width = out->width, .nlines = cr.nlines, .sectors = cr.sectors,
                          .bytes_requested = cr.bytes_requested, .is_store = kind == ACCESS_STORE,
                          .kind = (uint8_t)kind };
        memcpy(e.line_addr, cr.line_addr, cr.nlines * sizeof e.line_addr[0]);
        memcpy(e.sector_mask, cr.sector_mask, cr.nlines);
        g->trace->global_access(g->trace->user, &e);
    }
    return ready;
}

static uint64_t issue_mio(Gpu *g, uint32_t s, uint32_t slot, const Instr *in, const ExecOut *out, uint8_t *wait)
{
    Sm *sm = &g->sms[s];
    *wait = STALL_SHORT_SCOREBOARD;
    uint64_t start = sm->smem_free > g->now ? sm->smem_free : g->now;
    if (in->op == OP_SHFL) {
        sm->smem_free = start + 1;
        return start + g->c->lat_shfl;
    }
    if (!out->exec_mask) return g->now + 1;
    const Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    if (bs->rc) {
        RaceAccess a = OP_INFO[in->op].flags & OPF_ATOM ? RACE_ATOMIC : OP_INFO[in->op].flags & OPF_STORE ? RACE_WRITE : RACE_READ;
        RaceReport rep = { 0 };
        if (racecheck_warp(bs->rc, w->ex.warp_in_block, out->pc, out->addr, out->exec_mask, out->width, a, &rep)) {
            char what[512], t1[128], t2[128];
            racecheck_describe(&rep, bs->eb.ntid, what, sizeof what);
            disasm_instr(g->k, &g->k->code[rep.first_pc], t1, sizeof t1);
            disasm_instr(g->k, &g->k->code[rep.second_pc], t2, sizeof t2);
            fail(g, SIM_FAULT, "%s:%u: %s\n    in kernel '%s', block (%u,%u,%u)\n    pc %u line %u: %s\n    pc %u line %u: %s",
                 g->L->kernel_file ? g->L->kernel_file : "?", g->k->code[rep.second_pc].line, what, g->k->name,
                 bs->eb.ctaid[0], bs->eb.ctaid[1], bs->eb.ctaid[2], rep.first_pc, g->k->code[rep.first_pc].line, t1,
                 rep.second_pc, g->k->code[rep.second_pc].line, t2);
        }
    }
    uint32_t addr[WARP_SIZE];
    for (int l = 0; l < WARP_SIZE; l++) addr[l] = (uint32_t)out->addr[l];
    SmemResult sr;
    smem_analyze(addr, out->exec_mask, out->width, in->op == OP_LD_SHARED ? SMEM_READ : SMEM_WRITE, g->c->smem_banks, &sr);
    uint32_t wf = sr.wavefronts, busy = wf;
    AccessKind kind = OP_INFO[in->op].flags & OPF_STORE ? ACCESS_STORE : ACCESS_LOAD;
    if (OP_INFO[in->op].flags & OPF_ATOM) { /* lanes updating one word are applied one after another */
        kind = ACCESS_ATOMIC;
        uint32_t serial = coalesce_max_same_address(out->addr, out->exec_mask);
        if (serial > busy) busy = serial;
    }
    sm->smem_free = start + busy;
    SharedCounts *n = &g->st->shared[kind];
    n->requests++;
    n->wavefronts += wf; /* bank conflicts only; atomic serialisation is time, not wavefronts */
    n->serial_cycles += busy - wf;
    if (wf > n->max_wavefronts) n->max_wavefronts = wf;
    if (g->pcs) {
        g->pcs[in - g->k->code].shared_requests++;
        g->pcs[in - g->k->code].wavefronts += wf;
    }
    if (g->trace && g->trace->shared_access) {
        TraceShared e = { .cycle = g->now, .sm = s, .warp = slot, .pc = out->pc, .mask = out->exec_mask,
                          .width = out->width, .wavefronts = wf, .banks = g->c->smem_banks,
                          .is_store = kind == ACCESS_STORE, .kind = (uint8_t)kind };
        memcpy(e.bank_words, sr.bank_words, g->c->smem_banks * sizeof e.bank_words[0]);
        g->trace->shared_access(g->trace->user, &e);
    }
    /* each further wavefront, and each further phase of a wide access, delays the data */
    return start + g->c->lat_shared + (busy - 1) * g->c->lat_shared_wavefront + (sr.phases - 1) * g->c->lat_shared_phase;
}

/* Issues the warp's next instruction. Built twice (ptx constant): the mini
** ISA's instructions are one slot on their row's unit, and that path keeps
** none of the PTX lowering's arithmetic. */
static inline __attribute__((always_inline)) void issue_as(Gpu *g, uint32_t s, Scheduler *q, uint32_t slot,
                                                           ExecOut *out, const bool ptx)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    KernelStats *st = g->st;
    const Instr *in = &g->k->code[exec_pc(&w->ex)];
    bs->eb.clock = g->now;
    if (!exec_step(&bs->eb, &w->ex, out)) {
        char report[DIAG_MESSAGE_MAX];
        grid_describe_fault(g->k, g->L->kernel_file, g->L->gmem, &out->fault, bs->eb.ctaid, bs->eb.ntid,
                            w->ex.warp_in_block, report, sizeof report);
        fail(g, SIM_FAULT, "%s", report);
        return;
    }
    const OpInfo *info = &OP_INFO[in->op];
    uint32_t lanes = bits_lanes(out->exec_mask);
    const uint32_t slots = ptx ? in->slots : 1; /* SASS instructions it stands for */
    st->warp_instructions += slots;
    st->ptx_instructions += ptx;
    st->thread_instructions += (uint64_t)lanes * slots;
    st->flops += info->flops * lanes;
    st->active_lanes += (uint64_t)bits_lanes(out->active) * slots;
    if (g->pcs) {
        g->issue_pc = (uint32_t)(in - g->k->code);
        PcCounters *p = &g->pcs[g->issue_pc];
        p->executed++;
        p->warp_instructions += slots;
        p->thread_instructions += (uint64_t)lanes * slots;
    }
    OpUnit unit = ptx ? (OpUnit)in->lunit : info->unit;
    uint64_t ready;
    if (g->needs[in - g->k->code].unit == PIPE_UNIFORM) { /* one value for the warp, off the 32-lane pipes */
        q->unit_free[PIPE_UNIFORM] = g->now + g->c->uniform_interval;
        ready = g->now + g->c->lat_uniform;
    } else {
        if ((info->flags & OPF_IMAD) && (!ptx || unit == UNIT_ALU) && q->unit_free[UNIT_ALU] > g->now) unit = UNIT_FMA; /* as an IMAD */
        q->unit_free[unit] = g->now + (uint64_t)g->interval[unit] * slots;
        ready = ptx ? g->now + g->latency[in->llat == in->lunit ? unit : in->llat] + (slots - 1) : g->now + g->latency[unit];
    }
    uint8_t wait = STALL_WAIT;
    if (ptx && info->space == SPACE_GENERIC) unit = out->space == SPACE_SHARED ? UNIT_MIO : UNIT_LSU; /* resolved per access */
    if (unit == UNIT_LSU) ready = issue_global(g, s, slot, in, out, &wait);
    else if (unit == UNIT_MIO) ready = issue_mio(g, s, slot, in, out, &wait);
    for (uint32_t i = 0; i < in->ndst; i++) {
        const Operand *o = &in->dst[i];
        if (o->kind == OPND_REG) {
            w->reg_ready[o->index] = ready;
            w->reg_wait[o->index] = wait;
        } else if (o->kind == OPND_PRED) {
            w->pred_ready[o->index] = ready;
        }
    }
    w->next_issue = g->now + slots;
    w->next_reason = STALL_NOT_SELECTED;
    if (g->trace && g->trace->warp_issue) {
        TraceIssue e = { g->now, s, slot, (uint32_t)(slot % g->c->sm_schedulers), bs->block_id, out->pc,
                         out->active, out->exec_mask, unit, in->op, out->diverged };
        g->trace->warp_issue(g->trace->user, &e);
    }
    if (info->flags & OPF_BRANCH) {
        st->branches++;
        if (out->diverged) st->divergent_branches++;
        w->next_issue = g->now + g->c->lat_branch;
        w->next_reason = STALL_BRANCH_RESOLVING;
    }
    if (ptx && !out->exited && !run_free(g, s, slot)) return;
    prepare(g, sm, slot);
    if (out->exited) {
        charge(g, s, slot, w, WARP_GONE, g->now + 1); /* its last issue cycle */
        warp_exited(g, s, slot);
    } else if (out->at_barrier) {
        if (out->barrier_partial) {
            barrier_deadlock(g, sm, w->block, out->pc, slot, out->active,
                             "a warp reached bar.sync with only some of its lanes (divergent barrier)");
            return;
        }
        w->state = WARP_BARRIER;
        w->bar_pc = out->pc;
        charge(g, s, slot, w, STALL_BARRIER, g->now + 1);
        if (bs->running < g->warps_per_block) {
            barrier_deadlock(g, sm, w->block, out->pc, slot, 0,
                             "warps of the block exited before this bar.sync; they can never arrive");
            return;
        }
        /* the SM's barrier unit counts one arriving warp at a time */
        uint64_t counted = (sm->bar_free > g->now ? sm->bar_free : g->now) + g->c->barrier_arrival_interval;
        sm->bar_free = counted;
        if (counted > bs->bar_counted) bs->bar_counted = counted;
        if (++bs->at_barrier == bs->running) release_barrier(g, s, w->block);
    } else {
        charge(g, s, slot, w, w->why, g->now + 1);
        heap_push(&q->waiting, w->ready, slot);
    }
}

static void issue(Gpu *g, uint32_t s, Scheduler *q, uint32_t slot, ExecOut *out)
{
    if (g->k->ptx) issue_as(g, s, q, slot, out, true);
    else issue_as(g, s, q, slot, out, false);
}

/* --------------------------------------------------------------- schedule */

/* Per-instruction counters: a picked warp's eligible time, charged in
** bulk, at its pc, split by the cycles its pipe was busy meanwhile. */
static inline void pc_picked(Gpu *g, const Scheduler *q, const Warp *w, uint64_t now)
{
    uint64_t busy = q->busy_cycles[w->unit] - w->busy_mark;
    PcCounters *p = &g->pcs[exec_pc(&w->ex)];
    p->stall[PIPE_STALL[w->unit]] += busy;
    p->stall[STALL_NOT_SELECTED] += now - w->since - busy;
}

/* One scheduler at cycle now: admit warps whose operands are ready, pick
** one whose pipe is free (GTO: the last one picked if it can go, else the
** oldest; LRR: the next after the last one picked), issue.
** Eligible warps are charged in bulk: since the last evaluation, those
** needing a pipe that was busy were throttled, the others not selected.
** With a per-warp trace sink each warp is charged individually instead;
** per-instruction counters get a picked warp's eligible time at its pc,
** split by the cycles its pipe was busy meanwhile (busy_cycles). */
static inline __attribute__((always_inline)) void schedule_as(Gpu *g, uint32_t s, uint32_t qi, ExecOut *out,
                                                              const bool pcs)
{
    Sm *sm = &g->sms[s];
    Scheduler *q = &sm->sched[qi];
    uint64_t now = g->now;
    bool per_warp = g->per_warp;
    if (!per_warp && now > q->last_eval)
        for (uint32_t units = q->eligible_units; units; units &= units - 1) {
            int u = __builtin_ctz(units);
            g->st->stall[q->pipe_busy[u] ? PIPE_STALL[u] : STALL_NOT_SELECTED] +=
                (uint64_t)q->eligible_by_unit[u] * (now - q->last_eval);
            if (pcs && q->pipe_busy[u]) q->busy_cycles[u] += now - q->last_eval;
        }
    q->last_eval = now;
    while (q->waiting.n && q->waiting.v[0].key <= now) {
        uint32_t slot = heap_pop(&q->waiting).id;
        Warp *w = &sm->warps[slot];
        charge(g, s, slot, w, per_warp ? STALL_NOT_SELECTED : WARP_ELIGIBLE, now);
        if (pcs) w->busy_mark = q->busy_cycles[w->unit];
        eligible_add(q, w, slot);
        q->eligible_by_unit[w->unit]++;
        q->eligible_units |= 1u << w->unit;
    }
    /* When each pipe an eligible warp needs can next accept an instruction
    ** from this scheduler (the LSU and shared-memory pipes are shared by the
    ** SM's schedulers); the others' busy flags are never read. */
    uint64_t wake = q->waiting.n ? q->waiting.v[0].key : NEVER;
    for (uint32_t units = q->eligible_units; units; units &= units - 1) {
        int u = __builtin_ctz(units);
        uint64_t free_at;
        if (u == PIPE_ALU_OR_FMA)
            free_at = q->unit_free[UNIT_FMA] < q->unit_free[UNIT_ALU] ? q->unit_free[UNIT_FMA] : q->unit_free[UNIT_ALU];
        else if (u == UNIT_CTRL) free_at = 0;
        else {
            free_at = q->unit_free[u];
            if (u == UNIT_LSU && sm->lsu_free > free_at) free_at = sm->lsu_free;
            if (u == UNIT_MIO && sm->smem_free > free_at) free_at = sm->smem_free;
        }
        q->pipe_busy[u] = free_at > now;
        if (q->pipe_busy[u] && free_at < wake) wake = free_at;
    }
    /* GTO: the last one picked if its pipe is free, else the oldest whose
    ** pipe is; LRR: the first younger than the last one picked, else wrap
    ** around to the oldest. Both found by age in the sorted list. */
    int64_t pick = -1;
    if (g->c->sched_policy == SCHED_GTO) {
        if (q->last_eligible) {
            uint32_t i = eligible_find(q, q->last_age);
            assert(i < q->neligible && (int64_t)q->eligible[i].slot == q->last_issued);
            if (!q->pipe_busy[q->eligible[i].unit]) pick = i;
        }
    } else {
        pick = eligible_free(q, eligible_find(q, q->last_age + 1));
    }
    if (pick < 0) pick = eligible_free(q, 0);
    if (per_warp)
        for (uint32_t i = 0; i < q->neligible; i++) {
            Warp *w = &sm->warps[q->eligible[i].slot];
            charge(g, s, q->eligible[i].slot, w,
                   (int64_t)i == pick ? STALL_SELECTED : q->pipe_busy[w->unit] ? PIPE_STALL[w->unit] : STALL_NOT_SELECTED,
                   now);
        }
    if (pick < 0) {
        wake_set(g, s, qi, wake, false);
        return;
    }
    uint32_t slot = q->eligible[pick].slot;
    Warp *w = &sm->warps[slot];
    if (pcs && !per_warp) pc_picked(g, q, w, now);
    w->reason = STALL_SELECTED; /* its eligible time so far was charged in bulk */
    w->since = now;
    if (!--q->eligible_by_unit[w->unit]) q->eligible_units &= ~(1u << w->unit);
    memmove(&q->eligible[pick], &q->eligible[pick + 1], (q->neligible - (uint32_t)pick - 1) * sizeof q->eligible[0]);
    q->neligible--;
    q->last_issued = slot;
    q->last_eligible = false;
    q->last_age = w->age;
    wake_set(g, s, qi, now + 1, false);
    issue(g, s, q, slot, out);
}

/* Specialised for runs with and without per-instruction counters, so that
** an ordinary run pays one pointer test per call for them. */
static void schedule(Gpu *g, uint32_t s, uint32_t qi, ExecOut *out)
{
    if (g->pcs) schedule_as(g, s, qi, out, true);
    else schedule_as(g, s, qi, out, false);
}

/* ----------------------------------------------------------------- setup */

static bool setup(Gpu *g)
{
    const GpuConfig *c = g->c;
    const Launch *L = g->L;
    g->block_threads = L->block[0] * L->block[1] * L->block[2];
    g->warps_per_block = (g->block_threads + WARP_SIZE - 1) / WARP_SIZE;
    g->nregs = g->k->regs_used ? g->k->regs_used : 1;
    g->smem_size = g->k->dynamic_smem_offset + L->dynamic_smem;
    g->total_blocks = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    g->bps = g->st->occ.blocks_per_sm;
    g->warp_slots = g->bps * g->warps_per_block;
    /* Blocks go to SMs breadth-first and an SM that gets none at the start
    ** never gets one: a launch of fewer blocks than SMs needs state for its
    ** blocks' SMs only (sm.count = 100000 with one block is a small run). */
    g->nsm = g->total_blocks < c->sm_count ? (uint32_t)g->total_blocks : c->sm_count;
    uint32_t nsched = c->sm_schedulers, nsm = g->nsm;
    uint32_t per_sched = (g->warp_slots + nsched - 1) / nsched;

    /* One allocation for every per-SM array: sized once, freed once. */
    size_t sz_sm = sizeof(Sm), sz_warps = (size_t)g->warp_slots * sizeof(Warp),
           sz_blocks = (size_t)g->bps * sizeof(BlockSlot), sz_sched = (size_t)nsched * sizeof(Scheduler),
           sz_order = (size_t)nsched * per_sched * (sizeof(HeapItem) + sizeof(Eligible)),
           sz_regs = (size_t)g->warp_slots * g->nregs * WARP_SIZE * sizeof(uint32_t),
           sz_ready = (size_t)g->warp_slots * g->nregs * sizeof(uint64_t),
           sz_wait = (size_t)g->warp_slots * g->nregs, sz_smem = (size_t)g->bps * g->smem_size;
    size_t per_sm = sz_warps + sz_blocks + sz_sched + sz_order + sz_regs + sz_ready + sz_wait + sz_smem + 64;
    size_t total = (size_t)nsm * (sz_sm + per_sm);
    if (total > ((size_t)8 << 30)) {
        fail(g, SIM_BAD_LAUNCH, "this launch needs %zu MiB of host memory for resident warps; refusing", total >> 20);
        return false;
    }
    g->pool = calloc(1, total);
    if (!g->pool) {
        fail(g, SIM_BAD_LAUNCH, "out of host memory (%zu MiB) for resident warps", total >> 20);
        return false;
    }
    uint8_t *p = g->pool;
    g->sms = (Sm *)p;
    p += (size_t)nsm * sz_sm;
    for (uint32_t s = 0; s < nsm; s++) {
        Sm *sm = &g->sms[s];
        /* Largest alignment first: 8-byte members, then 4, then 1. */
        sm->warps = (Warp *)p, p += sz_warps;
        sm->blocks = (BlockSlot *)p, p += sz_blocks;
        sm->sched = (Scheduler *)p, p += sz_sched;
        uint64_t *ready = (uint64_t *)p;
        p += sz_ready;
        uint32_t (*regs)[WARP_SIZE] = (uint32_t (*)[WARP_SIZE])p;
        p += sz_regs;
        HeapItem *pending = (HeapItem *)p;
        Eligible *elig = (Eligible *)(pending + (size_t)nsched * per_sched);
        p += sz_order;
        uint8_t *wait = p;
        p += sz_wait;
        uint8_t *smem = p;
        p += sz_smem;
        p += (8 - ((uintptr_t)p & 7)) & 7;
        for (uint32_t w = 0; w < g->warp_slots; w++) {
            sm->warps[w].ex.r = regs + (size_t)w * g->nregs;
            sm->warps[w].reg_ready = ready + (size_t)w * g->nregs;
            sm->warps[w].reg_wait = wait + (size_t)w * g->nregs;
        }
        for (uint32_t q = 0; q < nsched; q++) {
            sm->sched[q].waiting = (Heap){ pending + (size_t)q * per_sched, 0, per_sched };
            sm->sched[q].eligible = elig + (size_t)q * per_sched;
            sm->sched[q].wake_at = NEVER;
            sm->sched[q].last_issued = -1;
        }
        for (uint32_t b = 0; b < g->bps; b++) {
            ExecBlock *eb = &sm->blocks[b].eb;
            eb->kernel = g->k;
            eb->gmem = L->gmem;
            eb->smem = smem + (size_t)b * g->smem_size;
            eb->smem_size = g->smem_size;
            eb->params = L->params;
            memcpy(eb->ntid, L->block, sizeof eb->ntid);
            memcpy(eb->nctaid, L->grid, sizeof eb->nctaid);
            eb->smid = s;
            eb->nsmid = c->sm_count; /* %nsmid: the machine's SMs, used or not */
        }
    }
    g->interval[UNIT_ALU] = c->alu_interval;
    g->interval[UNIT_FMA] = c->fma_interval;
    g->interval[UNIT_SFU] = c->sfu_interval;
    g->interval[UNIT_DIV] = c->div_interval;
    g->interval[UNIT_LSU] = c->lsu_interval;
    g->interval[UNIT_MIO] = c->mio_interval;
    g->interval[UNIT_CTRL] = 1;
    g->latency[UNIT_ALU] = c->lat_alu;
    g->latency[UNIT_FMA] = c->lat_fma;
    g->latency[UNIT_SFU] = c->lat_sfu;
    g->latency[UNIT_DIV] = c->lat_div;
    g->latency[UNIT_LSU] = c->lat_l1_hit;
    g->latency[UNIT_MIO] = c->lat_shared;
    g->latency[UNIT_CTRL] = 1;
    /* The driver sizes the shared-memory carveout to what the resident blocks
    ** need and leaves the rest of the unified array to L1 (its discrete
    ** carveout steps are not modelled); l1.size is the floor. */
    uint64_t smem_used = (uint64_t)g->bps * g->st->occ.smem_per_block_alloc;
    uint64_t l1 = c->l1_shared_total > smem_used ? c->l1_shared_total - smem_used : 0;
    if (l1 < c->l1_size) l1 = c->l1_size;
    Diag d;
    /* A scheduler is in the next-cycle list at most once: it is added only
    ** by moving its own wake-up, and a second move to now+1 is a no-op. */
    if (!needs_build(g)) {
        fail(g, SIM_BAD_LAUNCH, "out of host memory");
        return false;
    }
    g->next = malloc((size_t)nsm * nsched * sizeof(uint32_t));
    g->cur = malloc((size_t)nsm * nsched * sizeof(uint32_t));
    if (!g->next || !g->cur) {
        fail(g, SIM_BAD_LAUNCH, "out of host memory");
        return false;
    }
    GpuSession *ses = g->ses; /* the memory system the previous launch left, if any */
    if (ses->mem ? !memsys_next_launch(ses->mem, c, nsm, l1, ses->end, &d)
                 : !(ses->mem = memsys_create(c, nsm, l1, &d))) {
        fail(g, SIM_BAD_LAUNCH, "%s", d.message);
        return false;
    }
    g->mem = ses->mem;
    return true;
}

/* ---------------------------------------------------------------- totals */

/* The counters only the end of the run can close: the kernel's length, the
** SMs' occupancy integrals, and the memory system's own counters. */
static void count_totals(Gpu *g)
{
    KernelStats *st = g->st;
    st->cycles = g->end;
    for (uint32_t s = 0; s < g->nsm; s++) {
        Sm *sm = &g->sms[s];
        g->now = g->end;
        occ_update(g, sm);
        st->resident_warp_cycles += sm->occ_integral;
        st->busy_sm_cycles += sm->busy_cycles;
    }
    memsys_stats(g->mem, st);
}

bool gpu_session_simulate(GpuSession *ses, const Launch *L, const TraceSink *trace, SimResult *r)
{
    const GpuConfig *c = ses->c;
    memset(r, 0, sizeof *r);
    Gpu g;
    memset(&g, 0, sizeof g);
    g.ses = ses;
    g.c = c;
    g.L = L;
    g.k = L->kernel;
    g.trace = trace;
    g.r = r;
    g.st = &r->stats;
    g.pcs = L->pc_counters;
    g.per_warp = trace && trace->warp_stall;
    g.watch = g.per_warp || g.pcs;
    char msg[256];
    if (!grid_check_launch(L->grid, L->block, msg, sizeof msg)) {
        fail(&g, SIM_BAD_LAUNCH, "%s", msg);
        return false;
    }
    uint32_t threads = L->block[0] * L->block[1] * L->block[2];
    uint32_t regs = L->regs_per_thread ? L->regs_per_thread : kernel_regs_per_thread(L->kernel);
    Diag d;
    if (!occupancy_compute(c, threads, regs, L->kernel->dynamic_smem_offset, L->dynamic_smem, &r->stats.occ, &d)) {
        fail(&g, SIM_BAD_LAUNCH, "kernel '%s' cannot launch on %s: %s", L->kernel->name, c->name, d.message);
        return false;
    }
    if (r->stats.occ.blocks_per_sm == 0) {
        fail(&g, SIM_BAD_LAUNCH, "kernel '%s' cannot launch on %s: no block fits on an SM", L->kernel->name, c->name);
        return false;
    }
    KernelStats *st = &r->stats;
    st->blocks = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    ExecOut *out = malloc(sizeof *out);
    g.free_out = malloc(sizeof *g.free_out);
    bool ok = out && g.free_out && setup(&g);
    if (!out) fail(&g, SIM_BAD_LAUNCH, "out of host memory");
    if (ok) {
        /* Breadth-first: one block per SM per round, as the hardware spreads them. */
        for (uint32_t round = 0; round < g.bps; round++)
            for (uint32_t s = 0; s < g.nsm; s++) dispatch(&g, s, g.now + 1);
        uint32_t nsched = c->sm_schedulers;
        /* Each cycle: the schedulers that asked for this cycle, then those the
        ** heap holds for it (both in a fixed order, so runs are reproducible). */
        while (!g.stop && (g.nnext || g.wakes.n)) {
            uint64_t t = g.nnext ? g.now + 1 : g.wakes.v[0].key;
            if (g.wakes.n && g.wakes.v[0].key < t) t = g.wakes.v[0].key;
            if (t <= g.now && g.now) {
                fail(&g, SIM_INTERNAL, "internal error (please report it): a wake-up at cycle %llu is not after %llu", (unsigned long long)t,
                     (unsigned long long)g.now);
                break;
            }
            uint32_t *swap = g.cur;
            g.cur = g.next;
            g.ncur = t == g.now + 1 ? g.nnext : 0;
            g.next = swap;
            if (t == g.now + 1) g.nnext = 0;
            g.now = t;
            if (L->max_cycles && g.now > L->max_cycles) {
                r->budget_cycles = true;
                fail(&g, SIM_BUDGET, "kernel '%s' did not finish within %llu cycles; where its warps are:",
                     g.k->name, (unsigned long long)L->max_cycles);
                append_warp_positions(&g, 16);
                break;
            }
            if (L->max_warp_instructions && st->warp_instructions > L->max_warp_instructions) {
                fail(&g, SIM_BUDGET, "kernel '%s' exceeded %llu warp instructions; where its warps are:",
                     g.k->name, (unsigned long long)L->max_warp_instructions);
                append_warp_positions(&g, 16);
                break;
            }
            for (uint32_t i = 0; i < g.ncur && !g.stop; i++) {
                uint32_t id = g.cur[i], s = id / nsched, qi = id % nsched;
                if (g.sms[s].sched[qi].wake_at == t) schedule(&g, s, qi, out);
            }
            while (!g.stop && g.wakes.n && g.wakes.v[0].key == t) {
                HeapItem w = heap_pop(&g.wakes);
                uint32_t s = w.id / nsched, qi = w.id % nsched;
                if (g.sms[s].sched[qi].wake_at == t) schedule(&g, s, qi, out); /* else superseded */
            }
        }
        if (!g.stop && g.next_block < g.total_blocks)
            fail(&g, SIM_INTERNAL, "internal error (please report it): %llu blocks were never dispatched",
                 (unsigned long long)(g.total_blocks - g.next_block));
        if (!g.stop) {
            if (!L->keep_dirty) memsys_flush(g.mem);
            uint64_t drain = memsys_drain_cycle(g.mem);
            if (drain > g.end) g.end = drain;
            count_totals(&g);
            ses->end = g.end;
        }
    }
    derive_stats(c, st); /* a run that stopped early too: from what it counted */
    heap_free(&g.wakes);
    free(g.next);
    free(g.cur);
    free(g.needs);
    for (uint32_t s2 = 0; g.sms && s2 < g.nsm; s2++)
        for (uint32_t b = 0; b < g.bps; b++) racecheck_destroy(g.sms[s2].blocks[b].rc);
    free(g.pool);
    free(out);
    free(g.free_out);
    return !g.stop;
}

bool gpu_simulate(const GpuConfig *c, const Launch *L, const TraceSink *trace, SimResult *r)
{
    GpuSession s = { c, NULL, 0 };
    bool ok = gpu_session_simulate(&s, L, trace, r);
    memsys_destroy(s.mem);
    return ok;
}

GpuSession *gpu_session_create(const GpuConfig *c)
{
    GpuSession *s = calloc(1, sizeof *s);
    if (s) s->c = c;
    return s;
}

void gpu_session_destroy(GpuSession *s)
{
    if (s) memsys_destroy(s->mem);
    free(s);
}

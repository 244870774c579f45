/* cli/explain.c -- the why-sentence of each variant (explain_row in
** cli/explain.h): general rules over its KernelStats, their thresholds here
** in one place: first the one limit that binds (the busiest unit near its
** peak, else the block launcher or latency), then each finding a clause
** weighed by the share of the resource it wastes and told heaviest first,
** then where its warps wait. The second half of the report module, apart so
** that the rules read as one table of their own. */
#include "cli/explain.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/exec.h"

/* ---------------------------------------------------------------- rules */

#define RULE_UNCOALESCED   1.125 /* sectors per request over the ideal            */
#define RULE_CONFLICT      1.5   /* shared wavefronts per request over the ideal  */
#define RULE_ATOMIC_SERIAL 4.0   /* cycles per atomic spent behind lanes on one word / line */
#define RULE_BRANCH_EFF    0.9   /* average active lanes / 32 below this          */
#define RULE_LAUNCH        0.3   /* share of the SMs' busy time with a block waiting
                                    for the SM's block launcher                   */
#define RULE_LOW_OCC       0.5   /* theoretical at or below this                  */
#define RULE_IDLE_SMS      0.1   /* fewer blocks than SMs: this share idle or more */
#define RULE_OCC_GAP       0.75  /* achieved below this share of theoretical, with
                                    fewer blocks than fit at once                 */
#define RULE_THIN_OUT      0.5   /* achieved below this share of theoretical, with
                                    blocks enough to fill the SMs                 */
#define RULE_TAIL          0.8   /* wave efficiency below this, with > 1 wave and
                                    blocks not streamed (neither launch- nor
                                    DRAM-bound: those do not run in waves)        */
#define RULE_BOUND         0.6   /* a unit at this share of its peak binds the kernel
                                    (Nsight Compute's threshold for latency issues) */
#define RULE_ALSO          0.5   /* other units at this share are named after it  */
#define RULE_INSTR_RATIO   1.3   /* warp instructions vs the first variant        */
static double per(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* The first row that ran: the base of ratios and comparisons. */
static const RunRow *base_row(const RunReport *r)
{
    for (uint32_t i = 0; i < r->nrows; i++)
        if (r->rows[i].ran) return &r->rows[i];
    return NULL;
}

typedef struct {
    char  *buf;
    size_t cap, len;
    int    clauses;
} Sentence;

__attribute__((format(printf, 2, 3))) static void clause(Sentence *s, const char *fmt, ...)
{
    if (s->len >= s->cap) return;
    if (s->clauses++) s->len += (size_t)snprintf(s->buf + s->len, s->cap - s->len, "; ");
    if (s->len >= s->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap);
    va_end(ap);
    if (n > 0) s->len += (size_t)n;
    if (s->len > s->cap) s->len = s->cap;
}

/* The causes a sentence names, each with its weight: the share of the
** resource it wastes (bytes moved unused, bank passes beyond one, lanes
** idle, SM slots empty, SM time waiting for the launcher). They are told
** heaviest first, so the first clause is the one that matters most. */
#define MAX_CAUSES 12
#define CAUSE_TEXT 320

typedef struct {
    double weight;
    char   text[CAUSE_TEXT];
} Cause;

typedef struct {
    Cause c[MAX_CAUSES];
    int   n;
    bool  memory; /* an uncoalesced or bank-conflict clause among them */
} Causes;

__attribute__((format(printf, 3, 4))) static void cause(Causes *cs, double weight, const char *fmt, ...)
{
    if (cs->n >= MAX_CAUSES) return;
    Cause *c = &cs->c[cs->n++];
    c->weight = weight;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->text, sizeof c->text, fmt, ap);
    va_end(ap);
}

/* Global or local (`space`) requests of one kind: local memory is laid out
** so that a warp's lanes at one offset of their arrays are coalesced, so
** scattered local requests mean lanes indexing their arrays differently. */
static void explain_global(Causes *cs, const GlobalCounts *g, const char *space, const char *what)
{
    if (!g->requests || !g->ideal_sectors) return;
    double spr = g->sectors_per_request, ideal = g->ideal_sectors_per_request;
    if (spr > ideal * RULE_UNCOALESCED) {
        cs->memory = true;
        /* at most one sector beyond the ideal a request: contiguous lanes
        ** whose span straddles a sector boundary, not scattered ones */
        bool misaligned = spr <= ideal + 1.0;
        cause(cs, 1.0 - ideal / spr,
              "%s %s touch %.1f sectors per request where %.0f would do: %s, %.0f%% of the bytes moved are used",
              space, what, spr, ideal,
              misaligned                  ? "misaligned, not scattered (at most one sector more a request)"
              : !strcmp(space, "local")   ? "uncoalesced (the lanes index their per-thread arrays differently)"
                                          : "uncoalesced",
              100.0 * ideal / spr);
    }
}

static void explain_shared(Causes *cs, const SharedCounts *p, const char *what)
{
    if (!p->requests) return;
    /* against the phases the requests need: a float4 access's four are its width, not a conflict */
    double wpr = p->wavefronts_per_request, ideal = p->ideal_wavefronts_per_request;
    if (ideal > 0 && wpr > RULE_CONFLICT * ideal) {
        cs->memory = true;
        cause(cs, 1.0 - ideal / wpr, "shared %s take %.1f wavefronts per request where %.1f would do: %.0f-way bank conflict%s",
              what, wpr, ideal, wpr / ideal, p->max_wavefronts > wpr + 0.5 ? " on average" : "");
    }
}

/* The branch efficiency a variant's block shapes allow when every lane of
** its threads is active: threads / (32 x warps) per launch, weighted by the
** launch's warp instructions; *block: the block size of the launch that
** loses the most lanes that way (0 when none loses any). */
static double warp_shape_efficiency(const RunRow *row, uint32_t *block)
{
    double sum = 0, weight = 0, worst = 1;
    *block = 0;
    for (uint32_t k = 0; k < row->nlaunches_run && row->launch_st; k++) {
        const WlLaunch *l = &row->v->launches[k];
        uint32_t threads = l->block[0] * l->block[1] * l->block[2];
        uint32_t warps = (threads + WARP_SIZE - 1) / WARP_SIZE;
        double e = warps ? (double)threads / (WARP_SIZE * (double)warps) : 1;
        double w = (double)row->launch_st[k].warp_instructions;
        sum += e * w;
        weight += w;
        if (e < worst) worst = e, *block = threads;
    }
    return weight > 0 ? sum / weight : 1;
}

/* The causes of row's time that the rules find, unordered. */
static void find_causes(const RunReport *r, const RunRow *row, Causes *cs)
{
    const KernelStats *st = &row->st;
    const GpuConfig *c = r->c;
    for (int k = 0; k < ACCESS_KINDS; k++) explain_global(cs, &st->global[k], "global", ACCESS_NAMES[k]);
    for (int k = 0; k < ACCESS_KINDS; k++) explain_global(cs, &st->local[k], "local", ACCESS_NAMES[k]);
    for (int k = 0; k < ACCESS_KINDS; k++) explain_shared(cs, &st->shared[k], ACCESS_NAMES[k]);
    /* lanes on one word (shared) or one L2 line (global) applied one after
    ** another: weighed by the share of an atomic's time spent behind the others */
    double ss = st->shared_atomic_serial_per_request, gw = st->global_atomic_wait_per_request;
    if (ss >= RULE_ATOMIC_SERIAL) {
        cs->memory = true;
        cause(cs, ss / (ss + 1.0),
              "atomic serialization: shared atomics spend %.1f extra cycles per request applying lanes that update "
              "one word one after another",
              ss);
    }
    if (gw >= RULE_ATOMIC_SERIAL) {
        cs->memory = true;
        cause(cs, gw / (gw + c->lat_atomic),
              "atomic serialization: global atomics wait %.1f cycles per request for the lanes before them on their "
              "L2 line",
              gw);
    }
    if (st->warp_instructions && st->branch_efficiency < RULE_BRANCH_EFF) {
        /* Lanes no thread holds (a block of 100 threads is 4 warps, the last
        ** with 4 lanes) are not divergence: name them apart, and divergence
        ** only for the loss they do not explain. */
        uint32_t block = 0;
        double whole = warp_shape_efficiency(row, &block), idle = 1.0 - whole;
        double diverged = whole - st->branch_efficiency;
        if (idle > 0 && idle >= diverged) {
            uint32_t warps = (block + WARP_SIZE - 1) / WARP_SIZE;
            cause(cs, idle,
                  "branch efficiency %.0f%%: blocks of %u threads are %u warp%s, the last with %u of its 32 lanes "
                  "(idle lanes, not divergence)",
                  100.0 * st->branch_efficiency, block, warps, warps == 1 ? "" : "s",
                  block - (warps - 1) * WARP_SIZE);
        }
        if (diverged > idle || diverged >= 1.0 - RULE_BRANCH_EFF)
            cause(cs, diverged,
                  "branch efficiency %.0f%%: lanes of a warp take different paths and each path issues separately "
                  "(divergence)",
                  100.0 * st->branch_efficiency);
    }
    uint64_t slots = (uint64_t)c->sm_count * st->occ.blocks_per_sm;
    if (st->theoretical_occupancy > 0 && st->theoretical_occupancy <= RULE_LOW_OCC)
        /* a limit, not a loss by itself: half the weight of the slots it leaves empty */
        cause(cs, 0.5 * (1.0 - st->theoretical_occupancy),
              "theoretical occupancy %.0f%%, limited by %s (%u block%s per SM)", 100.0 * st->theoretical_occupancy,
              occupancy_limiter_name(st->occ.limiter), st->occ.blocks_per_sm, st->occ.blocks_per_sm == 1 ? "" : "s");
    /* achieved occupancy as ncu counts it (launched warps); when the
    ** launcher is the bottleneck, the launch clause above says why */
    bool launch_bound = st->launch_queue_share >= RULE_LAUNCH;
    double achieved = st->active_occupancy;
    double gap = st->theoretical_occupancy > 0 ? 1.0 - achieved / st->theoretical_occupancy : 0;
    if (st->blocks < c->sm_count) {
        double idle = (double)(c->sm_count - st->blocks) / c->sm_count;
        if (idle >= RULE_IDLE_SMS) /* a limit of the launch: half weight, as low occupancy */
            cause(cs, 0.5 * idle, "%llu block%s for %u SMs: %llu SMs idle", (unsigned long long)st->blocks,
                  st->blocks == 1 ? "" : "s", c->sm_count, (unsigned long long)(c->sm_count - st->blocks));
    } else if (!launch_bound && achieved < RULE_OCC_GAP * st->theoretical_occupancy) {
        if (st->blocks < slots)
            cause(cs, gap, "achieved occupancy %.0f%% of the theoretical %.0f%%: %llu blocks for the %llu that fit at once",
                  100.0 * achieved, 100.0 * st->theoretical_occupancy, (unsigned long long)st->blocks,
                  (unsigned long long)slots);
        else if (achieved < RULE_THIN_OUT * st->theoretical_occupancy)
            cause(cs, gap,
                  "achieved occupancy %.0f%% of the theoretical %.0f%%: resident warps thin out as blocks start and "
                  "retire unevenly",
                  100.0 * achieved, 100.0 * st->theoretical_occupancy);
    }
    bool streamed = launch_bound || (st->peak_dram_gbs > 0 && st->dram_bandwidth_gbs >= RULE_BOUND * st->peak_dram_gbs);
    if (st->waves > 1 && st->wave_efficiency < RULE_TAIL && !streamed)
        cause(cs, 1.0 - st->wave_efficiency,
              "%u waves, the last with %u of %llu blocks (%.0f%% wave efficiency): tail effect", st->waves,
              st->tail_blocks, (unsigned long long)slots, 100.0 * st->wave_efficiency);
    const RunRow *base = base_row(r);
    if (base && base != row && base->st.warp_instructions) {
        double q = per(st->warp_instructions, base->st.warp_instructions);
        if (q >= RULE_INSTR_RATIO || q <= 1.0 / RULE_INSTR_RATIO)
            cause(cs, q > 1 ? 1.0 - 1.0 / q : 1.0 - q, "%.2fx the warp instructions of %s", q, base->v->name);
    }
}

/* ------------------------------------------------------ the binding limit */

/* The binding limit: the busiest unit when it is at RULE_BOUND of its peak
** or more; else the block launcher when blocks wait for it (they arrive
** slower than they finish); else latency. */
typedef enum { BOUND_UNIT, BOUND_LAUNCH, BOUND_LATENCY } BoundKind;

static BoundKind bound_kind(const KernelStats *st)
{
    if (st->throughput[st->busiest] >= RULE_BOUND) return BOUND_UNIT;
    if (st->launch_queue_share >= RULE_LAUNCH && st->occ.blocks_per_sm) return BOUND_LAUNCH;
    return BOUND_LATENCY;
}

const char *explain_bound_name(const KernelStats *st)
{
    switch (bound_kind(st)) {
    case BOUND_UNIT: return LIMIT_NAMES[st->busiest];
    case BOUND_LAUNCH: return "launch";
    default: return "latency";
    }
}

/* A unit's peak in its own units, for the sentence. */
static void peak_text(const GpuConfig *c, Limit k, char *buf, size_t cap)
{
    double per_sm = c->sm_schedulers;
    switch (k) {
    case LIMIT_DRAM: snprintf(buf, cap, "%.0f GB/s", c->dram_bandwidth_gbs); return;
    case LIMIT_L2: snprintf(buf, cap, "%.0f GB/s", c->l2_bytes_per_clk * c->clock_mhz * 1e-3); return;
    case LIMIT_L1: snprintf(buf, cap, "%u sectors a cycle per SM", c->l1_sectors_per_cycle); return;
    case LIMIT_SHARED: snprintf(buf, cap, "a wavefront a cycle per SM"); return;
    case LIMIT_ISSUE: break;
    case LIMIT_FMA: per_sm /= c->fma_interval; break;
    case LIMIT_ALU: per_sm /= c->alu_interval; break;
    case LIMIT_XU: per_sm /= c->sfu_interval; break;
    case LIMIT_FP64: per_sm /= c->fp64_interval; break;
    case LIMITS: break;
    }
    snprintf(buf, cap, "%g warp instruction%s a cycle per SM", per_sm, per_sm == 1 ? "" : "s");
}

static bool memory_limit(Limit k) { return k == LIMIT_DRAM || k == LIMIT_L2 || k == LIMIT_L1 || k == LIMIT_SHARED; }

/* The first clauses: the one limit that binds, in Nsight Compute's terms,
** then the other units under load ("also"). */
static void bound_clauses(const GpuConfig *c, const KernelStats *st, Sentence *s)
{
    Limit top = st->busiest;
    double busiest = 100.0 * st->throughput[top];
    char peak[64];
    peak_text(c, top, peak, sizeof peak);
    switch (bound_kind(st)) {
    case BOUND_UNIT:
        clause(s, "%s at %.0f%% of its peak (%s): %s-bound", LIMIT_WHAT[top], busiest, peak,
               memory_limit(top) ? "memory" : "compute");
        break;
    case BOUND_LAUNCH: {
        uint32_t wpb = st->occ.warps_per_sm / st->occ.blocks_per_sm;
        uint32_t each = wpb * c->warp_launch_interval > c->block_launch_interval ? wpb * c->warp_launch_interval
                                                                                 : c->block_launch_interval;
        clause(s,
               "launch-bound: blocks arrive slower than they finish (SMs had a block waiting for their block "
               "launcher %.0f%% of the time; it starts one block of %u warp%s per %u cycles), and no unit is near "
               "its peak (the busiest, %s, at %.0f%%)",
               100.0 * st->launch_queue_share, wpb, wpb == 1 ? "" : "s", each, LIMIT_WHAT[top], busiest);
        return;
    }
    case BOUND_LATENCY:
        clause(s, "latency-bound: no unit near its peak (the busiest, %s, at %.0f%%)", LIMIT_WHAT[top], busiest);
        return;
    }
    for (int k = 0; k < LIMITS; k++)
        if (k != (int)top && st->throughput[k] >= RULE_ALSO)
            clause(s, "also %s at %.0f%%", LIMIT_WHAT[k], 100.0 * st->throughput[k]);
}

void explain_row(const RunReport *r, uint32_t i, char *buf, size_t cap)
{
    const RunRow *row = &r->rows[i];
    const KernelStats *st = &row->st;
    Sentence s = { buf, cap, 0, 0 };
    buf[0] = '\0';
    if (!row->ran) {
        clause(&s, "did not finish (%s): no timing to explain", gpu_status_name(row->status));
        return;
    }
    Causes cs;
    cs.n = 0;
    cs.memory = false;
    find_causes(r, row, &cs);
    /* heaviest first; equal weights keep the order above (insertion sort) */
    for (int a = 1; a < cs.n; a++)
        for (int b = a; b > 0 && cs.c[b].weight > cs.c[b - 1].weight; b--) {
            Cause t = cs.c[b];
            cs.c[b] = cs.c[b - 1];
            cs.c[b - 1] = t;
        }
    bound_clauses(r->c, st, &s); /* what binds it first, then the causes */
    for (int k = 0; k < cs.n; k++) clause(&s, "%s", cs.c[k].text);
    /* then where its warps wait */
    uint64_t total = st->stall_cycles;
    int top = -1;
    for (int k = 0; k < STALL_REASONS; k++)
        if (k != STALL_SELECTED && (top < 0 || st->stall[k] > st->stall[top])) top = k;
    if (total && top >= 0 && st->stall[top])
        clause(&s, "the top stall reason is %s, %.0f%% of warp cycles: %s%s", STALL_NAMES[top],
               100.0 * (double)st->stall[top] / (double)total, STALL_HELP[top],
               top == STALL_NOT_SELECTED ? ", so issue slots are the bottleneck" : "");
    /* a memory system without a finding says so, last */
    bool global = false, shared = false;
    for (int k = 0; k < ACCESS_KINDS; k++) {
        global |= st->global[k].requests > 0;
        shared |= st->shared[k].requests > 0;
    }
    if (!cs.memory && (global || shared))
        clause(&s, "%s%s%s", global ? "global accesses coalesced" : "", global && shared ? ", " : "",
               shared ? "shared accesses free of bank conflicts" : "");
    if (!s.clauses) clause(&s, "no inefficiency found by the rules");
}

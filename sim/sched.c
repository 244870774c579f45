/* sim/sched.c -- the warp schedulers and issue: readiness (the scoreboard,
** decoded once per pc), the eligible sets (bits by age rank) and their stall charging, the pick
** (GTO, LRR), and issue: functional execution (isa/exec) and timing on the
** unit, the LSU and memory system, or the shared-memory pipe. sim/gpu.c
** says what the model is and leaves out; sim/blocks.c does what an issue
** triggers beyond its warp (barriers, exits). */
#include "sim/gpu_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "isa/disasm.h"
#include "isa/grid.h"
#include "isa/uniform.h"
#include "sim/coalesce.h"
#include "sim/smem.h"

/* Sets scheduler (s, qi)'s wake-up to `at` and queues it (unless NEVER). */
static inline void wake_queue(Gpu *g, Scheduler *q, uint32_t s, uint32_t qi, uint64_t at)
{
    q->wake_at = at;
    if (at != NEVER && !calendar_push(&g->wakes, at, s * g->c->sm_schedulers + qi))
        gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory");
}

/* Moves scheduler (s, qi)'s wake-up to `at` (or earlier only when `earlier`). */
static inline void wake_set(Gpu *g, uint32_t s, uint32_t qi, uint64_t at, bool earlier)
{
    Scheduler *q = &g->sms[s].sched[qi];
    /* Invariant: a wake_at other than NEVER has its entry queued (but while
    ** the scheduler's own issue runs: schedule_as queues it after), so a
    ** move to the same cycle queues nothing more. */
    if (q->wake_at == at || (earlier && q->wake_at < at)) return;
    wake_queue(g, q, s, qi, at);
}

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

/* Makes a warp whose operands are ready eligible (gpu_int.h: by rank). */
static inline void eligible_add(Scheduler *q, const Warp *w, uint32_t slot)
{
    q->emask[w->rank / 64] |= 1ull << (w->rank % 64);
    q->rank_unit[w->rank] = w->unit;
    if ((int64_t)slot == q->last_issued) q->last_eligible = true;
}

/* Whether the eligible warp of rank r can issue now: its pipe is free, and
** it reads no register or the register file's read ports can take more
** (held is rare: the warp is looked at only then). */
static inline bool eligible_can_go(const Scheduler *q, const Warp *warps, uint32_t r)
{
    return !q->pipe_busy[q->rank_unit[r]] && !(q->reads_held && warps[q->rank_slot[r]].reads);
}

/* The oldest eligible warp of rank r or younger that can issue now, or -1. */
static inline int64_t eligible_free(const Scheduler *q, const Warp *warps, uint32_t r)
{
    for (uint32_t k = r / 64; k < q->ewords; k++) {
        uint64_t bits = q->emask[k];
        if (k == r / 64) bits &= ~0ull << (r % 64);
        for (; bits; bits &= bits - 1) {
            uint32_t x = k * 64 + (uint32_t)__builtin_ctzll(bits);
            if (eligible_can_go(q, warps, x)) return x;
        }
    }
    return -1;
}

/* The oldest eligible warp of rank r or younger, whether it can go or not, or -1. */
static inline int64_t eligible_any(const Scheduler *q, uint32_t r)
{
    for (uint32_t k = r / 64; k < q->ewords; k++) {
        uint64_t bits = q->emask[k];
        if (k == r / 64) bits &= ~0ull << (r % 64);
        if (bits) return k * 64 + (uint32_t)__builtin_ctzll(bits);
    }
    return -1;
}

/* LRR: the rank of the first warp younger than the last one picked. */
static inline uint32_t rank_after_last(const Scheduler *q, const Warp *warps)
{
    if (q->last_issued >= 0) return warps[q->last_issued].rank + 1u;
    uint32_t r = 0; /* it has left: by age */
    while (r < q->nwarps && warps[q->rank_slot[r]].age <= q->last_age) r++;
    return r;
}

/* ------------------------------------------------------------- readiness */

static inline void need(uint64_t ready, uint8_t why, uint64_t *t, uint8_t *reason)
{
    if (ready > *t) {
        *t = ready;
        *reason = why;
    }
}

/* The register-file reads of an instruction: its distinct source registers,
** a 64-bit pair counting two (immediates, special registers and predicates
** are not read from it; neither is the uniform datapath's file). In PTX an
** arithmetic instruction's first source whose value is only ever a
** parameter is not read either: ptxas folds the ld.param into the
** instruction as its one constant-bank operand (Instr.iflags,
** INSTR_PARAM_SRC_MASK: marked per value by isa/ptx_lower.c). */
static uint8_t register_reads(const Kernel *k, const Instr *in)
{
    uint32_t n = 0;
    bool memory = OP_INFO[in->op].space != SPACE_NONE;
    uint32_t constant = (in->iflags & INSTR_PARAM_SRC_MASK) >> INSTR_PARAM_SRC_SHIFT; /* source + 1, or 0 */
    for (uint32_t i = 0; i < in->nsrc; i++) {
        const Operand *o = &in->src[i];
        if (o->kind != OPND_REG || i + 1 == constant) continue;
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++) seen = in->src[j].kind == OPND_REG && in->src[j].index == o->index;
        if (seen) continue;
        bool pair = i == 0 && memory ? (in->iflags & INSTR_ADDR64) != 0
                                     : k->ptx && i < 3 && (OP_INFO[in->op].wide & (W_A << i));
        n += pair ? 2 : 1;
    }
    return (uint8_t)n;
}

/* An mbarrier arrival or byte count, which may end a phase: sim/async.c
** wakes the warps suspended in its try_wait. */
static bool ends_mbar_phase(Opcode op)
{
    return op == OP_MBAR_ARRIVE || op == OP_MBAR_TX || op == OP_MBAR_INVAL;
}

/* Builds g->needs: per instruction, the registers and predicates its issue
** waits for (sources, then destinations: a load still in flight to the same
** register, then the guard; the order decides which reason a tie charges),
** and the pipe it needs. Decoded once per launch instead of at every issue. */
bool sched_needs_build(Gpu *g)
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
            int32_t e = sb_entry(o);
            if (e >= 0) pn->op[pn->n++] = (uint16_t)e;
        }
        pn->bpred = NEED_NONE;
        if (in->guard != ISA_NO_GUARD) { /* a predicate's entry is its index */
            /* a guarded exit is resolved as a branch is (same SASS control code) */
            if (OP_INFO[in->op].flags & (OPF_BRANCH | OPF_EXIT)) pn->bpred = in->guard;
            else pn->op[pn->n++] = in->guard;
        }
        /* the pipe time_on_pipe sends it to: a PTX row's lowering's (rcp.rn.f32 is FMA work, not
        ** the SFU's), an integer add either integer pipe (IMAD) */
        OpUnit unit = k->ptx ? (OpUnit)in->lunit : OP_INFO[in->op].unit;
        bool imad = (OP_INFO[in->op].flags & OPF_IMAD) && (!k->ptx || unit == UNIT_ALU);
        pn->unit = (uint8_t)(imad ? PIPE_ALU_OR_FMA : unit);
        uint32_t fl = OP_INFO[in->op].flags;
        pn->pipe = (uint8_t)unit;
        pn->flops = (uint8_t)OP_INFO[in->op].flops;
        pn->flags = (uint8_t)((fl & OPF_BRANCH ? PC_BRANCH : 0) | (imad ? PC_IMAD : 0) |
                              (fl & OPF_BRANCH || (fl & OPF_EXIT && in->guard != ISA_NO_GUARD) ? PC_RESOLVES : 0) |
                              (k->ptx && OP_INFO[in->op].space == SPACE_GENERIC ? PC_GENERIC : 0) |
                              (kernel_op_is_async((Opcode)in->op) || ends_mbar_phase((Opcode)in->op) ? PC_ASYNC : 0));
        if (uni && uni[pc] && (!k->ptx || in->slots == 1)) pn->unit = PIPE_UNIFORM;
        pn->reads = pn->unit == PIPE_UNIFORM || (k->ptx && !in->slots) ? 0 : register_reads(k, in);
    }
    free(uni);
    return true;
}

/* Caches when the warp's next instruction has its operands (its own
** registers only change when it issues, so this holds until then). */
static inline void prepare(const Gpu *g, Sm *sm, uint32_t slot)
{
    Warp *w = &sm->warps[slot];
    if (!w->ex.depth) return;
    const PcNeeds *pn = &g->needs[exec_pc(&w->ex)];
    uint64_t t = w->next_issue;
    uint8_t reason = w->next_reason;
    for (uint32_t i = 0; i < pn->n; i++) sb_need(&w->sb, pn->op[i], &t, &reason);
    if (pn->bpred != NEED_NONE && w->sb.ready[pn->bpred]) {
        /* a branch reads its predicate lat.branch_pred cycles after other
        ** instructions can (on the H200 a compare's predicate reaches the
        ** branch unit 13 cycles after its issue, a select 4: probes/branch.cu) */
        need(w->sb.ready[pn->bpred] + g->c->lat_branch_pred, STALL_WAIT, &t, &reason);
    }
    w->ready = t;
    w->why = reason;
    w->unit = pn->unit;
    w->reads = pn->reads;
}

void sched_wait(Gpu *g, uint32_t s, uint32_t slot)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    uint32_t qi = slot % g->c->sm_schedulers;
    prepare(g, sm, slot);
    heap_push(&sm->sched[qi].waiting, w->ready, slot);
    wake_set(g, s, qi, w->ready, true);
}

/* ---------------------------------------------- membership: warps come and go */

void sched_admit(Gpu *g, uint32_t s, uint32_t slot)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    uint32_t qi = slot % g->c->sm_schedulers;
    Scheduler *q = &sm->sched[qi];
    w->rank = (uint16_t)q->nwarps; /* the youngest */
    w->qidx = (uint16_t)(slot / g->c->sm_schedulers);
    q->rank_slot[q->nwarps++] = (uint16_t)slot;
    sched_wait(g, s, slot);
}

/* The warp was picked, so it is neither eligible nor waiting; the ranks of
** the younger ones move down by one (their eligible bits with them). An
** empty scheduler finds nothing at its next wake-up and sleeps. */
void sched_remove(Gpu *g, uint32_t s, uint32_t slot)
{
    Sm *sm = &g->sms[s];
    Scheduler *q = &sm->sched[slot % g->c->sm_schedulers];
    Warp *warps = sm->warps;
    uint32_t r = warps[slot].rank;
    for (uint32_t k = r + 1; k < q->nwarps; k++) {
        uint16_t younger = q->rank_slot[k];
        q->rank_slot[k - 1] = younger;
        q->rank_unit[k - 1] = q->rank_unit[k];
        warps[younger].rank = (uint16_t)(k - 1);
    }
    uint32_t w0 = r / 64;
    uint64_t below = (1ull << (r % 64)) - 1;
    q->emask[w0] = (q->emask[w0] & below) | (q->emask[w0] >> 1 & ~below);
    for (uint32_t k = w0 + 1; k < q->ewords; k++) { /* bit 0 of each next word moves down a word */
        q->emask[k - 1] |= (q->emask[k] & 1) << 63;
        q->emask[k] >>= 1;
    }
    q->nwarps--;
    if (q->last_issued == (int64_t)slot) q->last_issued = -1, q->last_eligible = false;
}

bool sched_requeue_resolved(Gpu *g, uint32_t s, uint32_t qi)
{
    Sm *sm = &g->sms[s];
    Scheduler *q = &sm->sched[qi];
    bool moved = false;
    for (uint32_t i = 0; i < q->waiting.n; i++) {
        if (q->waiting.v[i].key != NEVER) continue;
        uint32_t slot = q->waiting.v[i].id;
        Warp *w = &sm->warps[slot];
        prepare(g, sm, slot);
        if (w->ready == NEVER) continue;
        if (w->ready < g->limit) {
            gpu_fail(g, SIM_INTERNAL, "internal error (please report it): a deferred result is needed at "
                     "cycle %llu, before the round's end %llu", (unsigned long long)w->ready,
                     (unsigned long long)g->limit);
            return false;
        }
        if (w->why_pending) w->reason = w->why; /* the state it entered at its issue */
        w->why_pending = false;
        q->waiting.v[i].key = w->ready;
        moved = true;
    }
    if (!moved) return true;
    /* the keys only went down: sift the heap again, by pushing back */
    uint32_t n = q->waiting.n;
    HeapItem tmp[n ? n : 1];
    memcpy(tmp, q->waiting.v, n * sizeof tmp[0]);
    q->waiting.n = 0;
    for (uint32_t i = 0; i < n; i++) heap_push(&q->waiting, tmp[i].key, tmp[i].id);
    wake_set(g, s, qi, q->waiting.v[0].key, true);
    return true;
}

/* Executes the 0-slot PTX instructions at the warp's pc (what ptxas folds
** into the operands of others), without an issue slot: each result is ready
** when its sources are. They are never branches, barriers or exits. */
bool sched_run_free(Gpu *g, uint32_t s, uint32_t slot)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    while (w->ex.depth) {
        const Instr *in = &g->k->code[exec_pc(&w->ex)];
        if (in->slots) return true;
        uint64_t t = 0;
        uint8_t why = STALL_WAIT;
        scoreboard_sources(&w->sb, in, &t, &why);
        if (g->defer) { /* several threads: a register a deferred load writes is not there yet */
            if (t == NEVER || scoreboard_unresolved(&w->sb, in)) { /* sim/par.c runs the rest at the round's end, at this cycle */
                par_wait_result(g, s, slot);
                return true;
            }
        }
        bs->eb.clock = g->now;
        if (!exec_step(&bs->eb, &w->ex, g->free_out)) {
            char report[1536];
            grid_describe_fault(g->k, g->L->kernel_file, g->L->gmem, &g->free_out->fault, bs->eb.ctaid, bs->eb.ntid,
                                w->ex.warp_in_block, report, sizeof report);
            gpu_fail_fault(g, g->free_out->fault.kind, report);
            return false;
        }
        g->st->ptx_instructions++;
        if (g->pcs) g->pcs[in - g->k->code].executed++;
        scoreboard_write(&w->sb, in, t, why);
    }
    return true;
}

/* What holds an instruction whose operands are ready, per unit. */
static const uint8_t PIPE_STALL[NPIPES] = {
    [UNIT_ALU] = STALL_MATH_PIPE_THROTTLE, [UNIT_FMA] = STALL_MATH_PIPE_THROTTLE,
    [UNIT_SFU] = STALL_MATH_PIPE_THROTTLE, [UNIT_DIV] = STALL_MATH_PIPE_THROTTLE,
    [UNIT_LSU] = STALL_LG_THROTTLE,        [UNIT_MIO] = STALL_MIO_THROTTLE,
    [UNIT_CTRL] = STALL_NOT_SELECTED,      [UNIT_FP64] = STALL_MATH_PIPE_THROTTLE,
    [PIPE_ALU_OR_FMA] = STALL_MATH_PIPE_THROTTLE,
    [PIPE_UNIFORM] = STALL_MATH_PIPE_THROTTLE,
};

/* What holds an eligible warp now: its pipe, the read ports, or another warp. */
static inline uint8_t eligible_stall(const Scheduler *q, uint32_t unit, uint32_t reads)
{
    return q->pipe_busy[unit] ? PIPE_STALL[unit] : q->reads_held && reads ? STALL_DISPATCH_STALL : STALL_NOT_SELECTED;
}

/* ----------------------------------------------------------------- issue */

/* A load L1 neither serves nor keeps: ld.global.cg and strong gpu-scope
** loads (INSTR_L2_ONLY), cp.async.cg (Instr.mod 1). */
static inline bool l2_only(const Instr *in)
{
    return (in->iflags & INSTR_L2_ONLY) || (in->op == OP_CP_ASYNC && in->mod == 1);
}

static uint64_t issue_global(Gpu *g, uint32_t s, uint32_t slot, const Instr *in, const ExecOut *out, uint8_t *wait)
{
    Sm *sm = &g->sms[s];
    KernelStats *st = g->st;
    *wait = STALL_LONG_SCOREBOARD;
    if (!out->exec_mask) return g->now + 1;
    uint32_t fl = OP_INFO[in->op].flags;
    AccessKind kind = fl & OPF_ATOM ? ACCESS_ATOMIC : fl & OPF_STORE ? ACCESS_STORE : ACCESS_LOAD;
    if (in->op == OP_CP_ASYNC_BULK) return async_bulk_load(g, s, out); /* the TMA's, not the LSU's */
    /* a zero-fill reads nothing; nor does a texture lane out of range or on the border */
    uint32_t lanes = in->op == OP_CP_ASYNC || in->op == OP_TEX ? out->async_reads : out->exec_mask;
    if (!lanes) return g->now + 1;
    CoalesceResult cr;
    coalesce_analyze(out->addr, lanes, out->width,
                     kind == ACCESS_LOAD ? COALESCE_LOAD : kind == ACCESS_STORE ? COALESCE_STORE : COALESCE_ATOMIC, &cr);
    /* The L1 handles one 128-byte line (tag) per cycle and a few sectors. */
    uint64_t start = sm->lsu_free > g->now ? sm->lsu_free : g->now;
    uint32_t spc = g->c->l1_sectors_per_cycle;
    uint32_t busy = (cr.sectors + spc - 1) / spc;
    if (cr.nlines > busy) busy = cr.nlines;
    sm->lsu_free = start + busy;
    GlobalCounts *n = out->space == SPACE_LOCAL ? &st->local[kind] : &st->global[kind]; /* one path, two counts */
    n->requests++;
    n->sectors += cr.sectors;
    n->ideal_sectors += (cr.bytes_requested + SECTOR_BYTES - 1) / SECTOR_BYTES;
    if (g->defer) { /* several threads: done at the round's end, in order (sim/par.c) */
        par_record_global(g, s, slot, out, (uint8_t)kind, start, &cr,
                          OP_INFO[in->op].type == TYPE_F32 && in->mod == ATOM_ADD, l2_only(in));
        return kind == ACCESS_STORE ? g->now + 1 : NEVER;
    }
    MemSectorCounts before = { 0 };
    if (g->pcs) memsys_sector_counts(g->mem, s, &before);
    uint64_t ready = g->now + 1;
    if (kind == ACCESS_LOAD) ready = memsys_load(g->mem, s, start, &cr, l2_only(in));
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
    if (OP_INFO[in->op].space == SPACE_NONE) { /* an mbarrier's word: one access, not data traffic */
        sm->smem_free = start + 1;
        return start + g->c->lat_shared;
    }
    if (!out->exec_mask) return g->now + 1;
    const Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    if (bs->rc) {
        RaceAccess a = OP_INFO[in->op].flags & OPF_ATOM ? RACE_ATOMIC : OP_INFO[in->op].flags & OPF_STORE ? RACE_WRITE : RACE_READ;
        blocks_racecheck(g, sm, slot, out->pc, out->addr, out->exec_mask, out->width, a);
    }
    uint32_t addr[WARP_SIZE];
    for (int l = 0; l < WARP_SIZE; l++) addr[l] = (uint32_t)out->addr[l];
    SmemResult sr;
    /* a load asks only to read (a broadcast merges); a store or an atomic writes */
    SmemOp op = OP_INFO[in->op].flags & OPF_STORE ? SMEM_WRITE : SMEM_READ;
    smem_analyze(addr, out->exec_mask, out->width, op, g->c->smem_banks, &sr);
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
    n->ideal_wavefronts += sr.phases;
    n->serial_cycles += busy - wf;
    if (wf > n->max_wavefronts) n->max_wavefronts = wf;
    if (g->pcs) {
        g->pcs[in - g->k->code].shared_requests++;
        g->pcs[in - g->k->code].wavefronts += wf;
        g->pcs[in - g->k->code].ideal_wavefronts += sr.phases;
    }
    if (g->trace && g->trace->shared_access) {
        TraceShared e = { .cycle = g->now, .sm = s, .warp = slot, .pc = out->pc, .mask = out->exec_mask,
                          .width = out->width, .wavefronts = wf, .phases = sr.phases, .banks = g->c->smem_banks,
                          .is_store = kind == ACCESS_STORE, .kind = (uint8_t)kind };
        memcpy(e.bank_words, sr.bank_words, g->c->smem_banks * sizeof e.bank_words[0]);
        g->trace->shared_access(g->trace->user, &e);
    }
    /* each further wavefront, and each further phase of a wide access, delays the data */
    return start + g->c->lat_shared + (busy - 1) * g->c->lat_shared_wavefront + (sr.phases - 1) * g->c->lat_shared_phase;
}

/* The jobs of an issue, each in its own step (issue_as runs them in
** order). Inlined into issue_as, which is built twice (ptx constant). */
#define ISSUE_STEP static inline __attribute__((always_inline))

/* Executes the warp's instruction for its active lanes (isa/exec) at
** g->now; false, the launch failed with the fault's report, on a fault. */
ISSUE_STEP bool execute(Gpu *g, BlockSlot *bs, Warp *w, ExecOut *out)
{
    bs->eb.clock = g->now;
    if (exec_step(&bs->eb, &w->ex, out)) return true;
    char report[DIAG_MESSAGE_MAX];
    grid_describe_fault(g->k, g->L->kernel_file, g->L->gmem, &out->fault, bs->eb.ctaid, bs->eb.ntid,
                        w->ex.warp_in_block, report, sizeof report);
    gpu_fail_fault(g, out->fault.kind, report);
    return false;
}

/* Counts an issue of `slots` SASS instructions (a PTX instruction's
** lowering; 1 in the mini ISA): the kernel's counters and, with
** per-instruction counters, its pc's. */
ISSUE_STEP void count_issue(Gpu *g, Sm *sm, const Instr *in, const PcNeeds *pn, const ExecOut *out, uint32_t slots,
                            const bool ptx)
{
    KernelStats *st = g->st;
    uint32_t lanes = bits_lanes(out->exec_mask);
    st->warp_instructions += slots;
    if (g->defer) par_count_issue(g, sm, slots); /* several threads: the SM's own count, for a failure's total */
    st->ptx_instructions += ptx;
    st->thread_instructions += (uint64_t)lanes * slots;
    st->flops += pn->flops * lanes;
    st->active_lanes += (uint64_t)bits_lanes(out->active) * slots;
    if (pn->flags & PC_BRANCH) {
        st->branches++;
        if (out->diverged) st->divergent_branches++;
    }
    if (g->pcs) {
        g->issue_pc = (uint32_t)(in - g->k->code);
        PcCounters *p = &g->pcs[g->issue_pc];
        p->executed++;
        p->warp_instructions += slots;
        p->thread_instructions += (uint64_t)lanes * slots;
    }
}

/* Times the instruction on its pipe at g->now: the pipe busy for its
** slots, the register file's read ports, and the memory system or the
** shared-memory pipe for an access. Returns when its result can be read;
** *unit is the pipe it went to (an integer add to the FMA pipe, as an
** IMAD, while the ALU is busy; a generic access to the LSU or the MIO by
** the space it resolved to) and *wait the state a reader waits in. */
ISSUE_STEP uint64_t time_on_pipe(Gpu *g, uint32_t s, Scheduler *q, uint32_t slot, const Instr *in,
                                 const PcNeeds *pn, ExecOut *out, uint32_t slots, const bool ptx, OpUnit *unit_out,
                                 uint8_t *wait)
{
    OpUnit unit = (OpUnit)pn->pipe;
    uint64_t ready;
    if (pn->unit == PIPE_UNIFORM) { /* one value for the warp, off the 32-lane pipes */
        q->unit_free[PIPE_UNIFORM] = g->now + g->c->uniform_interval;
        ready = g->now + g->c->lat_uniform;
    } else {
        if ((pn->flags & PC_IMAD) && q->unit_free[UNIT_ALU] > g->now) unit = UNIT_FMA; /* as an IMAD */
        q->unit_free[unit] = g->now + (uint64_t)g->interval[unit] * slots;
        g->st->pipe_cycles[unit] += (uint64_t)g->interval[unit] * slots;
        ready = ptx ? g->now + g->latency[in->llat == in->lunit ? unit : in->llat] + (slots - 1) : g->now + g->latency[unit];
    }
    if (pn->reads && g->c->register_reads) { /* the read ports, P a cycle: due in 1/P cycles */
        uint64_t from = g->now * g->c->register_reads;
        q->reads_due = (q->reads_due > from ? q->reads_due : from) + pn->reads;
    }
    *wait = STALL_WAIT;
    if (ptx && (pn->flags & PC_GENERIC)) unit = out->space == SPACE_SHARED ? UNIT_MIO : UNIT_LSU; /* resolved per access */
    if (unit == UNIT_LSU) ready = issue_global(g, s, slot, in, out, wait);
    else if (unit == UNIT_MIO) ready = issue_mio(g, s, slot, in, out, wait);
    *unit_out = unit;
    return ready;
}

/* What follows the issue for the warp, its next instruction prepared: it
** leaves (exit), arrives at its block's barrier, or waits for its next
** instruction's operands (in the ring when they are due within SCHED_RING
** cycles, else in the heap). */
ISSUE_STEP void follow(Gpu *g, uint32_t s, Scheduler *q, uint32_t slot, Warp *w, const ExecOut *out)
{
    if (out->exited) {
        charge(g, s, slot, w, WARP_GONE, g->now + 1); /* its last issue cycle */
        blocks_warp_exited(g, s, slot);
        return;
    }
    if (out->at_barrier) {
        if (out->barrier_partial) {
            blocks_deadlock(g, &g->sms[s], w->block, out->pc, slot, out->active,
                             "a warp reached bar.sync with only some of its lanes (divergent barrier)");
            return;
        }
        if (!out->barrier_arrive) charge(g, s, slot, w, STALL_BARRIER, g->now + 1);
        blocks_barrier_arrive(g, s, slot, out);
        if (!out->barrier_arrive) return; /* it waits there; bar.arrive goes on */
    }
    charge(g, s, slot, w, w->why, g->now + 1);
    if (w->ready == NEVER) w->why_pending = true; /* a deferred result: sim/par.c */
    if (q->ring_on && w->ready - g->now <= SCHED_RING) { /* soon: no heap (schedule_as ran at now) */
        assert(q->ring_base == g->now && w->ready > g->now);
        uint32_t b = (uint32_t)(w->ready % SCHED_RING);
        q->ring[b] |= 1ull << w->qidx;
        q->ring_sum |= 1ull << b;
    } else {
        heap_push(&q->waiting, w->ready, slot);
    }
}

/* Issues the warp's next instruction: executes, counts and times it, marks
** its results on the scoreboard, runs the free PTX instructions after it,
** and follows it. Built twice (ptx constant): the mini ISA's instructions
** are one slot on their row's unit, and that path keeps none of the PTX
** lowering's arithmetic. */
static inline __attribute__((always_inline)) void issue_as(Gpu *g, uint32_t s, Scheduler *q, uint32_t slot,
                                                           ExecOut *out, const bool ptx)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    const uint32_t pc = exec_pc(&w->ex);
    const Instr *in = &g->k->code[pc];
    const PcNeeds *pn = &g->needs[pc];
    if (!execute(g, bs, w, out)) return;
    if (out->yielded) { /* the path beside a barrier goes first: no instruction ran, the slot is spent */
        w->next_issue = g->now + 1;
        w->next_reason = STALL_NOT_SELECTED;
    } else {
        const uint32_t slots = ptx ? in->slots : 1; /* SASS instructions it stands for */
        count_issue(g, sm, in, pn, out, slots, ptx);
        if (ptx) q->issue_free = g->now + slots; /* each of them an issue slot of the scheduler */
        OpUnit unit;
        uint8_t wait;
        uint64_t ready = time_on_pipe(g, s, q, slot, in, pn, out, slots, ptx, &unit, &wait);
        if (pn->flags & PC_RESOLVES) {
            w->next_issue = g->now + g->c->lat_branch;
            w->next_reason = STALL_BRANCH_RESOLVING;
        } else if (ptx && in->op == OP_NANOSLEEP) {
            uint64_t sleep = (uint64_t)((double)out->sleep_ns * g->c->clock_mhz / 1000.0);
            w->next_issue = g->now + (sleep > slots ? sleep : slots);
            w->next_reason = STALL_SLEEPING;
        } else {
            w->next_issue = g->now + slots;
            w->next_reason = STALL_NOT_SELECTED;
        }
        if (ptx && (pn->flags & PC_ASYNC)) ready = async_issued(g, s, slot, in, out, ready);
        scoreboard_write(&w->sb, in, ready, wait);
        if (g->trace && g->trace->warp_issue) {
            TraceIssue e = { g->now, s, slot, (uint32_t)(slot % g->c->sm_schedulers), bs->block_id, out->pc,
                             out->active, out->exec_mask, unit, in->op, out->diverged };
            g->trace->warp_issue(g->trace->user, &e);
        }
    }
    /* free PTX instructions next (rare): their call only then; after a
    ** barrier they wait for it (a bar.red's result is written when it opens:
    ** blocks.c runs them then) */
    bool waits = out->at_barrier && !out->barrier_arrive;
    if (ptx && !out->exited && !waits && !g->k->code[exec_pc(&w->ex)].slots && !sched_run_free(g, s, slot)) return;
    if (ptx && w->mbar_wait) { /* try_wait suspended it: out of the scheduler until its phase ends (sim/async.c) */
        charge(g, s, slot, w, STALL_SLEEPING, g->now + 1);
        return;
    }
    prepare(g, sm, slot);
    follow(g, s, q, slot, w, out);
}

static inline __attribute__((always_inline)) void issue(Gpu *g, uint32_t s, Scheduler *q, uint32_t slot, ExecOut *out)
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
    uint64_t held = w->reads ? q->held_cycles[w->unit] - w->held_mark : 0;
    PcCounters *p = &g->pcs[exec_pc(&w->ex)];
    p->stall[PIPE_STALL[w->unit]] += busy;
    p->stall[STALL_DISPATCH_STALL] += held;
    p->stall[STALL_NOT_SELECTED] += now - w->since - busy - held;
}

/* The ring's busy buckets from cycle `from` on: bit k is cycle from + k. */
static inline uint64_t ring_from(const Scheduler *q, uint64_t from)
{
    uint32_t first = (uint32_t)(from % SCHED_RING);
    return first ? q->ring_sum >> first | q->ring_sum << (SCHED_RING - first) : q->ring_sum;
}

/* When the scheduler's first waiting warp comes due (ring or heap), after
** cycle now; NEVER when none waits. */
static inline uint64_t waiting_first(const Scheduler *q, uint64_t now)
{
    uint64_t t = q->waiting.n ? q->waiting.v[0].key : NEVER;
    if (q->ring_sum) {
        uint64_t at = now + 1 + (uint64_t)__builtin_ctzll(ring_from(q, now + 1));
        if (at < t) t = at;
    }
    return t;
}

/* When pipe u (or either integer pipe) can next accept an instruction from
** scheduler q: the LSU and shared-memory pipes are shared by the SM's. */
static inline uint64_t pipe_free_at(const Scheduler *q, const Sm *sm, int u)
{
    if (u == PIPE_ALU_OR_FMA)
        return q->unit_free[UNIT_FMA] < q->unit_free[UNIT_ALU] ? q->unit_free[UNIT_FMA] : q->unit_free[UNIT_ALU];
    if (u == UNIT_CTRL) return 0;
    uint64_t free_at = q->unit_free[u];
    if (u == UNIT_LSU && sm->lsu_free > free_at) free_at = sm->lsu_free;
    if (u == UNIT_MIO && sm->smem_free > free_at) free_at = sm->smem_free;
    return free_at;
}

/* A warp whose operands are ready becomes eligible. */
static inline __attribute__((always_inline)) void admit(Gpu *g, uint32_t s, Scheduler *q, Sm *sm, uint32_t slot,
                                                        uint64_t now, bool per_warp, const bool pcs)
{
    Warp *w = &sm->warps[slot];
    charge(g, s, slot, w, per_warp ? STALL_NOT_SELECTED : WARP_ELIGIBLE, now);
    if (pcs) {
        w->busy_mark = q->busy_cycles[w->unit];
        w->held_mark = q->held_cycles[w->unit];
    }
    eligible_add(q, w, slot);
    q->eligible_by_unit[w->unit]++;
    q->eligible_reading[w->unit] += w->reads != 0;
    q->eligible_units |= 1u << w->unit;
}

/* One scheduler at cycle now: admit warps whose operands are ready, pick
** one whose pipe is free (GTO: the last one picked if it can go, else the
** oldest; LRR: the next after the last one picked), issue.
** Eligible warps are charged in bulk: since the last evaluation, those
** needing a pipe that was busy were throttled, the others not selected.
** With a per-warp trace sink each warp is charged individually instead;
** per-instruction counters get a picked warp's eligible time at its pc,
** split by the cycles its pipe was busy meanwhile (busy_cycles) and those
** the read ports held it (held_cycles). */
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
            uint64_t dt = now - q->last_eval;
            uint32_t held = q->reads_held && !q->pipe_busy[u] ? q->eligible_reading[u] : 0;
            g->st->stall[q->pipe_busy[u] ? PIPE_STALL[u] : STALL_NOT_SELECTED] += (uint64_t)(q->eligible_by_unit[u] - held) * dt;
            if (held) g->st->stall[STALL_DISPATCH_STALL] += (uint64_t)held * dt;
            if (pcs && q->pipe_busy[u]) q->busy_cycles[u] += dt;
            if (pcs && held) q->held_cycles[u] += dt;
        }
    q->last_eval = now;
    /* the warps whose operands are ready now: from the ring (cycle by cycle)
    ** and the heap; without a per-warp sink the order is not seen */
    if (q->ring_sum) {
        uint64_t span = now - q->ring_base, rot = ring_from(q, q->ring_base + 1);
        uint64_t due = span >= SCHED_RING ? rot : rot & ((1ull << span) - 1);
        for (; due; due &= due - 1) {
            uint32_t b = (uint32_t)((q->ring_base + 1 + (uint64_t)__builtin_ctzll(due)) % SCHED_RING);
            for (uint64_t bits = q->ring[b]; bits; bits &= bits - 1)
                admit(g, s, q, sm, (uint32_t)__builtin_ctzll(bits) * g->c->sm_schedulers + qi, now, per_warp, pcs);
            q->ring[b] = 0;
            q->ring_sum &= ~(1ull << b);
        }
    }
    q->ring_base = now;
    while (q->waiting.n && q->waiting.v[0].key <= now) admit(g, s, q, sm, heap_pop(&q->waiting).id, now, per_warp, pcs);
    /* When each pipe an eligible warp needs can next accept an instruction
    ** from this scheduler (the LSU and shared-memory pipes are shared by the
    ** SM's schedulers); the others' busy flags are never read. */
    uint64_t wake = waiting_first(q, now);
    uint32_t busy_units = 0; /* bit u: pipe u, which an eligible warp needs, is busy */
    for (uint32_t units = q->eligible_units; units; units &= units - 1) {
        int u = __builtin_ctz(units);
        uint64_t free_at = pipe_free_at(q, sm, u);
        q->pipe_busy[u] = free_at > now;
        if (q->pipe_busy[u]) {
            busy_units |= 1u << u;
            if (free_at < wake) wake = free_at;
        }
    }
    /* held while reads_due / P > now, i.e. reads_due >= (now + 1) P: the
    ** division (when they take more) only then */
    uint32_t ports = g->c->register_reads;
    q->reads_held = ports && q->reads_due >= (now + 1) * ports;
    if (q->reads_held && q->reads_due / ports < wake) wake = q->reads_due / ports;
    bool slots_held = q->issue_free > now; /* a PTX lowering's further SASS instructions */
    if (slots_held && q->issue_free < wake) wake = q->issue_free;
    /* GTO: the last one picked if it can go (its pipe free, and the read
    ** ports for one that reads registers), else the oldest that can; LRR:
    ** the first younger than the last one picked that can go, else wrap
    ** around to the oldest that can; RR: the first younger than the last
    ** one picked, whether it can go or not (if not, nothing issues: the
    ** H200's warps advance together and lose the slots a busy pipe costs,
    ** validate/probes/sched_order.cu). All found by rank, which is age order. */
    int64_t pick = -1;
    if (!(q->eligible_units & ~busy_units) || slots_held) {
        /* every eligible warp's pipe is busy: none can go (a memory-bound
        ** kernel's schedulers wait so for the SM's LSU); or the slots are
        ** the last issue's */
    } else if (g->c->sched_policy == SCHED_ROUND_ROBIN) { /* picked first: a busy pipe then costs the slot */
        pick = eligible_any(q, rank_after_last(q, sm->warps));
        if (pick < 0) pick = eligible_any(q, 0);
        if (pick >= 0 && !eligible_can_go(q, sm->warps, (uint32_t)pick)) pick = -1;
    } else {
        if (g->c->sched_policy == SCHED_GTO) {
            if (q->last_eligible) {
                uint32_t r = sm->warps[q->last_issued].rank;
                assert(q->emask[r / 64] >> (r % 64) & 1);
                if (eligible_can_go(q, sm->warps, r)) pick = r;
            }
        } else {
            pick = eligible_free(q, sm->warps, rank_after_last(q, sm->warps));
        }
        if (pick < 0) pick = eligible_free(q, sm->warps, 0);
    }
    if (per_warp)
        for (uint32_t k = 0; k < q->ewords; k++)
            for (uint64_t bits = q->emask[k]; bits; bits &= bits - 1) {
                uint32_t r = k * 64 + (uint32_t)__builtin_ctzll(bits), sl = q->rank_slot[r];
                Warp *w = &sm->warps[sl];
                charge(g, s, sl, w, (int64_t)r == pick ? STALL_SELECTED : eligible_stall(q, w->unit, w->reads), now);
            }
    if (pick < 0) {
        wake_set(g, s, qi, wake, false);
        return;
    }
    uint32_t slot = q->rank_slot[pick];
    Warp *w = &sm->warps[slot];
    if (pcs && !per_warp) pc_picked(g, q, w, now);
    w->reason = STALL_SELECTED; /* its eligible time so far was charged in bulk */
    w->since = now;
    if (!--q->eligible_by_unit[w->unit]) q->eligible_units &= ~(1u << w->unit);
    q->eligible_reading[w->unit] -= w->reads != 0;
    q->emask[pick / 64] &= ~(1ull << (pick % 64));
    q->last_issued = slot;
    q->last_eligible = false;
    q->last_age = w->age;
    /* Held at now + 1 while the issue runs, unqueued: its wake-ups of this
    ** scheduler (a refilled block's warps) are then no-ops, their warps in
    ** the heap, read below. */
    q->wake_at = now + 1;
    issue(g, s, q, slot, out);
    /* The next visit: at now + 1 if a warp is still eligible; else when the
    ** first waiting warp comes due. A visit in between would find nothing
    ** (nothing eligible, so nothing charged, nothing admitted): skipping it
    ** changes no result and saves the visit. */
    wake_queue(g, q, s, qi, q->eligible_units ? now + 1 : waiting_first(q, now));
}

/* Specialised for runs with and without per-instruction counters, so that
** an ordinary run pays one pointer test per call for them. */
void sched_step(Gpu *g, uint32_t s, uint32_t qi, ExecOut *out)
{
    if (g->pcs) schedule_as(g, s, qi, out, true);
    else schedule_as(g, s, qi, out, false);
}

/* isa/exec_barrier.c -- the block's barriers. bar.sync a{, b}, bar.arrive
** a, b and bar.red name one of 16 barriers (a) and the threads that
** complete it (b, a multiple of 32, counted a warp at a time; none: every
** live thread of the block). What a warp brings is checked here
** (exec_barrier_at); the caller that times the block counts the arrivals
** (exec_barrier_arrive) and opens the barrier.
** bar.red (__syncthreads_count, __syncthreads_and, __syncthreads_or)
** reduces a predicate over those threads: each warp leaves its share at
** the barrier (exec_bar_red); the caller that opens the barrier sums the
** shares and writes every warp's result (exec_red_add, exec_red_apply), so
** the value is the whole block's, as on the GPU. Part of the exec module
** (isa/exec.h). */
#include "isa/exec.h"

static bool barrier_fault(ExecOut *out, uint32_t lane, uint32_t what, uint32_t value)
{
    out->fault = (ExecFault){ .kind = FAULT_BARRIER, .pc = out->pc, .lane = lane, .line = what, .file = value };
    return false;
}

/* Lets the path beside the top one run first, when there is one from the
** same divergence (the same reconvergence point) that is not at a barrier. */
static bool yield_to_sibling(const ExecBlock *b, WarpExec *w)
{
    if (w->depth < 2) return false;
    SimtEntry *top = &w->stack[w->depth - 1], *beside = &w->stack[w->depth - 2];
    if (beside->reconv != top->reconv || !beside->mask || beside->pc == beside->reconv) return false;
    if (OP_INFO[b->kernel->code[beside->pc].op].flags & OPF_BARRIER) return false;
    SimtEntry t = *top;
    *top = *beside;
    *beside = t;
    return true;
}

bool exec_barrier_at(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t active, ExecOut *out)
{
    /* the barrier and the count: bar.red's after its predicate; the mini
    ** ISA's bar.sync names none (barrier 0, the block) */
    uint32_t first = in->op == OP_BAR_RED ? 1 : 0, lane = active ? (uint32_t)__builtin_ctz(active) : 0;
    uint32_t id = 0, threads = 0, tmp[WARP_SIZE];
    if (in->nsrc > first) id = exec_row(w, &in->src[first], tmp)[lane];
    if (in->nsrc > first + 1) threads = exec_row(w, &in->src[first + 1], tmp)[lane];
    uint32_t block = b->ntid[0] * b->ntid[1] * b->ntid[2];
    if (id >= EXEC_BARRIERS) return barrier_fault(out, lane, 0, id);
    if (in->nsrc > first + 1 && (threads == 0 || threads % WARP_SIZE || threads > (block + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE))
        return barrier_fault(out, lane, 1, threads);
    if (active != w->live && yield_to_sibling(b, w)) return out->yielded = true;
    out->at_barrier = true;
    out->barrier_arrive = in->op == OP_BAR_ARRIVE;
    out->barrier_partial = active != w->live;
    out->barrier_id = (uint8_t)id;
    out->barrier_warps = (uint16_t)(threads / WARP_SIZE);
    return true;
}

bool exec_barrier_arrive(ExecBarriers *bars, const ExecOut *out, uint32_t running)
{
    uint32_t id = out->barrier_id;
    if (!bars->arrived[id]) bars->expected[id] = out->barrier_warps; /* the phase's first arrival sets it */
    uint32_t want = bars->expected[id] ? bars->expected[id] : running;
    if (++bars->arrived[id] < want) return false;
    bars->arrived[id] = 0;
    return true;
}

int exec_barrier_after_exit(ExecBarriers *bars, uint32_t running)
{
    for (int id = 0; id < EXEC_BARRIERS; id++)
        if (bars->arrived[id] && !bars->expected[id] && bars->arrived[id] >= running) {
            bars->arrived[id] = 0;
            return id;
        }
    return -1;
}

void exec_bar_red(WarpExec *w, const Instr *in, uint32_t m)
{
    uint32_t p = exec_pred(w, &in->src[0]);
    w->red_lanes = m;
    w->red_count = bits_popcount(p & m);
    w->red_mod = in->mod;
    w->red_dst = in->dst[0];
}

void exec_red_add(ExecRed *t, const WarpExec *w)
{
    t->lanes += bits_popcount(w->red_lanes);
    t->count += w->red_count;
}

void exec_red_apply(const ExecRed *t, WarpExec *w)
{
    uint32_t m = w->red_lanes;
    if (!m) return;
    if (w->red_mod == 0) { /* .popc: the count in every lane */
        uint32_t *d = w->r[w->red_dst.index];
        for (int l = 0; l < WARP_SIZE; l++)
            if (m >> l & 1) d[l] = t->count;
    } else { /* .and: all hold; .or: any holds */
        bool v = w->red_mod == 1 ? t->count == t->lanes : t->count > 0;
        uint32_t *p = &w->pred[w->red_dst.index];
        *p = (*p & ~m) | (v ? m : 0);
    }
    w->red_lanes = 0;
}

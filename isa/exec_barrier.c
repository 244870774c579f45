/* isa/exec_barrier.c -- bar.red (__syncthreads_count, __syncthreads_and,
** __syncthreads_or): a block barrier that reduces a predicate over the
** block's threads. Each warp leaves its share at the barrier (exec_bar_red);
** the caller that opens the barrier sums the shares and writes every
** warp's result (exec_red_add, exec_red_apply), so the value is the whole
** block's, as on the GPU. Part of the exec module (isa/exec.h). */
#include "isa/exec.h"

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

/* sim/blocks.c -- blocks on SMs: dispatch into free slots (through each
** SM's block launcher), the barrier unit and barrier release, warp exits and
** the slot refill they lead to, the occupancy integrals, and the reports of
** a barrier that can never open. sim/gpu.c says what the model is. */
#include "sim/gpu_int.h"

#include <stdio.h>
#include <string.h>

#include "isa/disasm.h"
#include "isa/grid.h"
/* ------------------------------------------------------------ occupancy */

void blocks_occ_update(Gpu *g, Sm *sm)
{
    uint64_t dt = g->now - sm->occ_last;
    sm->occ_integral += (uint64_t)sm->resident_warps * dt;
    if (sm->resident_warps) sm->busy_cycles += dt;
    sm->occ_last = g->now;
}

/* ------------------------------------------------------------- blocks_dispatch */

/* Hands SM s its next block, into a free slot; its warps start no sooner
** than `earliest`. */
void blocks_dispatch(Gpu *g, uint32_t s, uint64_t earliest)
{
    Sm *sm = &g->sms[s];
    uint32_t b = 0;
    while (b < g->bps && sm->blocks[b].used) b++;
    if (b == g->bps || g->grid->next_block >= g->total_blocks) return;
    BlockSlot *bs = &sm->blocks[b];
    uint64_t id = g->grid->next_block++;
    const uint32_t *gd = g->L->grid;
    bs->used = true;
    bs->block_id = (uint32_t)id;
    bs->eb.ctaid[0] = (uint32_t)(id % gd[0]);
    bs->eb.ctaid[1] = (uint32_t)(id / gd[0] % gd[1]);
    bs->eb.ctaid[2] = (uint32_t)(id / ((uint64_t)gd[0] * gd[1]));
    memset(bs->eb.smem, 0, g->smem_size);
    if (bs->eb.lmem) memset(bs->eb.lmem, 0, (size_t)g->block_threads * g->k->local_bytes); /* as each run leaves it: zero */
    if (g->L->racecheck) {
        if (!bs->rc && !(bs->rc = racecheck_create(g->smem_size, 0))) {
            gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory for --racecheck");
            return;
        }
        racecheck_reset(bs->rc);
    }
    bs->running = g->warps_per_block;
    memset(&bs->bars, 0, sizeof bs->bars);
    memset(bs->bar_counted, 0, sizeof bs->bar_counted);
    if (sm->occ_last > g->now) /* a refill applied at a round's end (sim/par.c): the SM's
                                  clock moved on; its warps are resident from the exit */
        sm->occ_integral += (uint64_t)g->warps_per_block * (sm->occ_last - g->now);
    else
        blocks_occ_update(g, sm);
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
    async_block_start(g, sm, b);
    for (uint32_t i = 0; i < g->warps_per_block; i++) {
        uint32_t slot = b * g->warps_per_block + i;
        Warp *w = &sm->warps[slot];
        exec_warp_init(&w->ex, w->ex.r, g->nregs, i, g->block_threads, slot);
        w->dispatches++;
        scoreboard_reset(&w->sb, g->nregs);
        w->block = b;
        if (g->k->ptx && !sched_run_free(g, s, slot)) return;
        w->next_issue = start;
        w->next_reason = STALL_BLOCK_LAUNCH;
        w->reason = STALL_BLOCK_LAUNCH;
        w->since = g->now + 1;
        w->age = g->grid->ages++;
        w->chain_at = NEVER;
        w->why_pending = false;
        w->block = b;
        w->state = WARP_ACTIVE;
        sched_admit(g, s, slot);
    }
    if (g->trace && g->trace->block_start) {
        TraceBlock e = { g->now, s, b, bs->block_id, g->warps_per_block };
        g->trace->block_start(g->trace->user, &e);
    }
}

/* Barrier `id` opens lat.barrier + lat.barrier_warp per warp of the block
** (of its thread count, when it names one) after the SM's barrier unit has
** counted its last arrival (an H200: 12 + 2 cycles a warp for one block
** alone, 84-115 with 64 warps at barriers on the SM:
** validate/probes/barrier.cu). */
static void release_barrier(Gpu *g, uint32_t s, uint32_t b, uint32_t id)
{
    Sm *sm = &g->sms[s];
    BlockSlot *bs = &sm->blocks[b];
    uint32_t warps = bs->bars.expected[id] ? bs->bars.expected[id] : g->warps_per_block;
    uint64_t open = bs->bar_counted[id] + g->c->lat_barrier + (uint64_t)g->c->lat_barrier_warp * warps;
    if (open < g->now + 1) open = g->now + 1;
    ExecRed red = { 0 }; /* bar.red: the reduction over the warps that met, for each of them */
    for (uint32_t i = 0; i < g->warps_per_block; i++) {
        const Warp *w = &sm->warps[b * g->warps_per_block + i];
        if (w->state == WARP_BARRIER && w->bar_id == id) exec_red_add(&red, &w->ex);
    }
    for (uint32_t i = 0; i < g->warps_per_block; i++) {
        uint32_t slot = b * g->warps_per_block + i;
        Warp *w = &sm->warps[slot];
        if (w->state != WARP_BARRIER || w->bar_id != id) continue;
        exec_red_apply(&red, &w->ex);
        if (g->k->ptx && !sched_run_free(g, s, slot)) return; /* what follows the barrier for free (sched.c) */
        w->state = WARP_ACTIVE;
        w->next_issue = open;
        w->next_reason = STALL_BARRIER;
        sched_wait(g, s, slot);
        if (w->ready == NEVER) w->why_pending = true; /* a free instruction waits for a deferred load, as in sched.c */
    }
    if (bs->rc) racecheck_barrier(bs->rc); /* --racecheck takes whole-block barriers alone (gpu.c) */
}

void blocks_barrier_arrive(Gpu *g, uint32_t s, uint32_t slot, const ExecOut *out)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    uint32_t id = out->barrier_id;
    if (!out->barrier_arrive) {
        w->state = WARP_BARRIER;
        w->bar_pc = out->pc;
        w->bar_id = (uint8_t)id;
    }
    /* the SM's barrier unit counts one arriving warp at a time */
    uint64_t counted = (sm->bar_free > g->now ? sm->bar_free : g->now) + g->c->barrier_arrival_interval;
    sm->bar_free = counted;
    if (counted > bs->bar_counted[id]) bs->bar_counted[id] = counted;
    if (exec_barrier_arrive(&bs->bars, out, bs->running)) release_barrier(g, s, w->block, id);
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

void blocks_racecheck(Gpu *g, Sm *sm, uint32_t slot, uint32_t pc, const uint64_t addr[WARP_SIZE], uint32_t mask,
                      uint32_t width, RaceAccess access)
{
    const Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    RaceReport rep = { 0 };
    if (!racecheck_warp(bs->rc, w->ex.warp_in_block, pc, addr, mask, width, access, &rep)) return;
    char what[512], t1[128], t2[128], cu1[256], cu2[256];
    racecheck_describe(&rep, bs->eb.ntid, what, sizeof what);
    disasm_instr(g->k, &g->k->code[rep.first_pc], t1, sizeof t1);
    disasm_instr(g->k, &g->k->code[rep.second_pc], t2, sizeof t2);
    bool cuda = kernel_cuda_line(g->k, rep.second_pc, cu2, sizeof cu2);
    kernel_cuda_line(g->k, rep.first_pc, cu1, sizeof cu1);
    gpu_fail(g, SIM_FAULT,
         "%s%s%s:%u: %s\n    in kernel '%s', block (%u,%u,%u)\n    pc %u line %u: %s%s%s%s\n    pc %u line %u: %s%s%s%s",
         cu2, cuda ? "\n    " : "", g->L->kernel_file ? g->L->kernel_file : "?", g->k->code[rep.second_pc].line,
         what, g->k->name, bs->eb.ctaid[0], bs->eb.ctaid[1], bs->eb.ctaid[2], rep.first_pc,
         g->k->code[rep.first_pc].line, t1, cuda ? "  (" : "", cu1, cuda ? ")" : "", rep.second_pc,
         g->k->code[rep.second_pc].line, t2, cuda ? "  (" : "", cu2, cuda ? ")" : "");
}

/* Reports a block that can never pass its barrier as compute-sanitizer's
** synccheck would: the bar.sync and its line first, then each warp of the
** block: arrived (and with which threads), still running elsewhere, or
** exited. `partial` is the lanes of warp `slot` that reached the barrier
** when only some of its live lanes did (0 otherwise). */
void blocks_deadlock(Gpu *g, Sm *sm, uint32_t b, uint32_t bar_pc, uint32_t slot, uint32_t partial,
                             const char *why)
{
    const ExecBlock *eb = &sm->blocks[b].eb;
    char head[512], text[128];
    grid_deadlock_head(g->k, g->L->kernel_file, bar_pc, eb->ctaid, head, sizeof head);
    gpu_fail(g, SIM_DEADLOCK, "%s%s", head, why);
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
        } else if (w->mbar_wait) {
            len += (size_t)snprintf(msg + len, cap - len, ": suspended at line %u in try_wait on the mbarrier at shared "
                                    "offset %u", g->k->code[w->mbar_pc].line, w->mbar_wait - 1);
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

void blocks_stuck(Gpu *g)
{
    for (uint32_t s = 0; s < g->nsm; s++)
        for (uint32_t i = 0; i < g->warp_slots; i++) {
            Sm *sm = &g->sms[s];
            const Warp *w = &sm->warps[i];
            if (w->state != WARP_BARRIER) continue;
            const BlockSlot *bs = &sm->blocks[w->block];
            uint32_t id = w->bar_id, want = bs->bars.expected[id] ? bs->bars.expected[id] : bs->running;
            char why[192];
            snprintf(why, sizeof why, "barrier %u waits for %u warp(s), %u arrived, and no other warp of the block "
                     "will arrive", id, want, bs->bars.arrived[id]);
            blocks_deadlock(g, sm, w->block, w->bar_pc, i, 0, why);
            return;
        }
    for (uint32_t s = 0; s < g->nsm; s++) /* suspended in try_wait on a phase no warp will end */
        for (uint32_t i = 0; i < g->warp_slots; i++) {
            Sm *sm = &g->sms[s];
            const Warp *w = &sm->warps[i];
            if (w->state != WARP_ACTIVE || !w->mbar_wait) continue;
            char why[192];
            snprintf(why, sizeof why, "the mbarrier at shared offset %u never completes its phase: no warp of the "
                     "block will arrive on it", w->mbar_wait - 1);
            blocks_deadlock(g, sm, w->block, w->mbar_pc, i, 0, why);
            return;
        }
    gpu_fail(g, SIM_INTERNAL, "internal error (please report it): the launch ended with %llu of %llu blocks unfinished",
             (unsigned long long)(g->total_blocks - g->grid->blocks_done), (unsigned long long)g->total_blocks);
}

void blocks_warp_exited(Gpu *g, uint32_t s, uint32_t slot)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    w->state = WARP_DONE;
    sched_remove(g, s, slot);
    blocks_occ_update(g, sm);
    sm->resident_warps--;
    bs->running--;
    /* An exited warp no longer counts at the barrier, as an exited lane
    ** does not: the others waiting there may be all that is left. */
    if (bs->running) {
        int id = exec_barrier_after_exit(&bs->bars, bs->running);
        if (id >= 0) release_barrier(g, s, w->block, (uint32_t)id);
        return;
    }
    if (g->now + 1 > g->end) g->end = g->now + 1;
    if (g->defer) par_record_free(g, s, w->block); /* handed out at the round's end, in order */
    else blocks_slot_freed(g, s, w->block);
}

void blocks_slot_freed(Gpu *g, uint32_t s, uint32_t b)
{
    BlockSlot *bs = &g->sms[s].blocks[b];
    bs->used = false;
    g->grid->blocks_done++;
    if (g->L->progress) g->L->progress(g->L->progress_user, g->grid->blocks_done, g->total_blocks);
    if (g->trace && g->trace->block_end) {
        TraceBlock e = { g->now + 1, s, b, bs->block_id, g->warps_per_block };
        g->trace->block_end(g->trace->user, &e);
    }
    /* A freed slot's next block starts sm.block_refill_latency later: the
    ** SM reports the retirement and the block distributor answers (an H200
    ** refills a slot ~400 cycles after its block ends, while it fills an
    ** empty SM far faster than that). */
    blocks_dispatch(g, s, g->now + 1 + g->c->block_refill_latency);
}

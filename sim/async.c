/* sim/async.c -- when asynchronous copies are done (cp.async, SASS LDGSTS),
** and what waits for them.
**
** A copy is timed at issue as a global load (sim/sched.c issue_global);
** isa/exec_async.c has already copied its bytes. Its completion joins the
** warp's open group; cp.async.commit_group closes the group (LDGDEPBAR),
** and cp.async.wait_group N holds the warp's next issue until every group
** but the N newest is done (DEPBAR.LE SB0, N), under the stall reason of a
** load's reader, long scoreboard. A copy tracked by an mbarrier
** (cp.async.mbarrier.arrive) makes the barrier's waiters wait for it: a
** test_wait or try_wait that finds the phase over gives its predicate no
** sooner than the copies tracked on that barrier are done. The executor
** counts the arrival itself at issue, so a waiter may see the phase over
** before the data is there; the predicate's ready cycle is what holds it.
** A bulk copy (cp.async.bulk, the TMA's global-to-shared copy) is timed
** apart from the LSU: 512-byte pieces, one a cycle, each through L2 and
** DRAM as a load that skips L1, its barrier's waiters waiting for the last [ASSUME: the
** TMA's rate is not probed]. Kernels with these instructions run on one
** host thread (sim/par.c), so every ready cycle here is known at issue. */
#include "sim/gpu_int.h"

#include <string.h>

#include "sim/coalesce.h"
#include "sim/memsys.h"

static inline uint64_t later(uint64_t a, uint64_t b) { return a > b ? a : b; }

void async_block_start(Gpu *g, Sm *sm, uint32_t b)
{
    BlockSlot *bs = &sm->blocks[b];
    bs->nmbar = 0;
    bs->mbar_rest = 0;
    for (uint32_t i = 0; i < g->warps_per_block; i++) {
        Warp *w = &sm->warps[b * g->warps_per_block + i];
        memset(&w->async, 0, sizeof(AsyncGroups));
        w->mbar_wait = 0;
    }
}

/* The barrier's record of tracked copies, made when `make`; NULL: none. */
static uint64_t *mbar_done(BlockSlot *bs, uint32_t addr, bool make)
{
    for (uint32_t i = 0; i < bs->nmbar; i++)
        if (bs->mbar[i].addr == addr) return &bs->mbar[i].done;
    if (!make) return bs->mbar_rest ? &bs->mbar_rest : NULL;
    if (bs->nmbar == ASYNC_MBARS) return &bs->mbar_rest;
    bs->mbar[bs->nmbar].addr = addr;
    bs->mbar[bs->nmbar].done = 0;
    return &bs->mbar[bs->nmbar++].done;
}

static void commit(AsyncGroups *a)
{
    if (a->n == ASYNC_GROUPS) { /* full: the two oldest become one */
        uint32_t second = (a->first + 1u) % ASYNC_GROUPS;
        a->group[second] = later(a->group[second], a->group[a->first]);
        a->first = (uint8_t)second;
        a->n--;
    }
    a->group[(a->first + a->n) % ASYNC_GROUPS] = a->open;
    a->n++;
    a->open = 0;
}

/* When every group but the `keep` newest is done; those groups are gone. */
static uint64_t wait_groups(AsyncGroups *a, uint32_t keep)
{
    uint64_t t = 0;
    while (a->n > keep) {
        t = later(t, a->group[a->first]);
        a->first = (uint8_t)((a->first + 1u) % ASYNC_GROUPS);
        a->n--;
    }
    return t;
}

uint64_t async_bulk_load(Gpu *g, uint32_t s, const ExecOut *out)
{
    uint64_t ready = g->now + 1, start = g->now;
    GlobalCounts *n = &g->st->global[ACCESS_LOAD];
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        if (!(out->async_reads >> l & 1)) continue;
        for (uint32_t off = 0; off < out->data[0][l]; off += 16 * WARP_SIZE, start++) { /* a 512-byte piece a cycle */
            uint32_t bytes = out->data[0][l] - off < 16 * WARP_SIZE ? out->data[0][l] - off : 16 * WARP_SIZE;
            uint64_t addr[WARP_SIZE];
            for (uint32_t k = 0; k < WARP_SIZE; k++) addr[k] = out->addr[l] + off + 16 * k;
            CoalesceResult cr;
            coalesce_analyze(addr, bytes / 16 >= WARP_SIZE ? UINT32_MAX : (1u << (bytes / 16)) - 1, 16, COALESCE_LOAD, &cr);
            n->requests++;
            n->sectors += cr.sectors;
            n->ideal_sectors += (cr.bytes_requested + SECTOR_BYTES - 1) / SECTOR_BYTES;
            ready = later(ready, memsys_load(g->mem, s, start, &cr, true)); /* the TMA reads L2, not L1 */
        }
    }
    return ready;
}

/* A try_wait that found its phase not over for any of its lanes, all on
** one barrier: the warp is suspended until that phase ends (the PTX
** manual's "potentially blocking" wait) instead of spinning through its
** loop. The hardware's time limit is not modelled: a phase that never ends
** is a deadlock (blocks_stuck). Lanes on different barriers spin. */
static void suspend(Sm *sm, Warp *w, const ExecOut *out)
{
    if (!out->exec_mask) return;
    uint64_t at = out->addr[__builtin_ctz(out->exec_mask)];
    for (uint32_t m = out->exec_mask; m; m &= m - 1)
        if (out->addr[__builtin_ctz(m)] != at) return;
    int phase = exec_mbar_phase(&sm->blocks[w->block].eb, at);
    if (phase < 0) return;
    w->mbar_wait = (uint32_t)at + 1;
    w->mbar_phase = (int8_t)phase;
    w->mbar_pc = out->pc;
}

/* Wakes the warps of block slot b suspended on the barrier at shared offset
** `at` whose phase has ended since: each issues again from the next cycle
** (the loop around its try_wait, which now finds the phase over). */
static void wake(Gpu *g, uint32_t s, uint32_t b, uint64_t at)
{
    Sm *sm = &g->sms[s];
    int phase = exec_mbar_phase(&sm->blocks[b].eb, at);
    for (uint32_t i = 0; i < g->warps_per_block; i++) {
        uint32_t slot = b * g->warps_per_block + i;
        Warp *w = &sm->warps[slot];
        if (w->mbar_wait != (uint32_t)at + 1 || w->mbar_phase == phase) continue;
        w->mbar_wait = 0;
        if (w->next_issue < g->now + 1) w->next_issue = g->now + 1;
        w->next_reason = STALL_SLEEPING;
        sched_wait(g, s, slot);
    }
}

/* After an instruction that may end the phase of its lanes' barriers. */
static void wake_lanes(Gpu *g, uint32_t s, uint32_t b, const ExecOut *out)
{
    uint64_t last = UINT64_MAX;
    for (uint32_t m = out->exec_mask; m; m &= m - 1) {
        uint64_t at = out->addr[__builtin_ctz(m)];
        if (at != last) wake(g, s, b, at);
        last = at;
    }
}

uint64_t async_issued(Gpu *g, uint32_t s, uint32_t slot, const Instr *in, const ExecOut *out, uint64_t ready)
{
    Sm *sm = &g->sms[s];
    Warp *w = &sm->warps[slot];
    BlockSlot *bs = &sm->blocks[w->block];
    switch ((Opcode)in->op) {
    case OP_CP_ASYNC:
        if (!out->exec_mask) break;
        if (bs->rc) { /* its shared bytes are written as it issues: the readers of other warps need a bar.sync */
            uint64_t at[WARP_SIZE];
            for (int l = 0; l < WARP_SIZE; l++) at[l] = out->data[0][l];
            blocks_racecheck(g, sm, slot, out->pc, at, out->exec_mask, out->width, RACE_WRITE);
        }
        w->async.open = later(w->async.open, ready);
        w->async.all = later(w->async.all, ready);
        break;
    case OP_CP_ASYNC_COMMIT:
        if (out->exec_mask) commit(&w->async);
        break;
    case OP_CP_ASYNC_WAIT: {
        if (!out->exec_mask) break;
        uint64_t t = wait_groups(&w->async, in->src[0].value);
        if (t > w->next_issue) {
            w->next_issue = t;
            w->next_reason = STALL_LONG_SCOREBOARD;
        }
        break;
    }
    case OP_CP_ASYNC_BULK: /* each lane's barrier waits for the copies */
        for (uint32_t l = 0; l < WARP_SIZE; l++)
            if (out->async_reads >> l & 1) {
                uint64_t *done = mbar_done(bs, out->data[1][l], true);
                *done = later(*done, ready);
            }
        break;
    case OP_CP_ASYNC_MBAR: {
        uint64_t last = UINT64_MAX; /* the lanes' barriers, each once in a row */
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            if (!(out->exec_mask >> l & 1) || out->addr[l] == last) continue;
            last = out->addr[l];
            uint64_t *done = mbar_done(bs, (uint32_t)last, true);
            *done = later(*done, w->async.all);
        }
        break;
    }
    case OP_MBAR_TEST: {
        uint32_t over = w->ex.pred[in->dst[0].index] & out->exec_mask;
        if (!over && (in->sub & 2)) suspend(sm, w, out);
        for (uint32_t l = 0; over; l++, over >>= 1) {
            if (!(over & 1)) continue;
            const uint64_t *done = mbar_done(bs, (uint32_t)out->addr[l], false);
            if (done) ready = later(ready, *done);
        }
        break;
    }
    case OP_MBAR_ARRIVE: case OP_MBAR_TX: case OP_MBAR_INVAL: wake_lanes(g, s, w->block, out); break;
    default: break;
    }
    if (in->op == OP_CP_ASYNC_MBAR) wake_lanes(g, s, w->block, out);
    if (in->op == OP_CP_ASYNC_BULK) /* its bytes complete on each lane's barrier at issue */
        for (uint32_t l = 0; l < WARP_SIZE; l++)
            if (out->async_reads >> l & 1) wake(g, s, w->block, out->data[1][l]);
    return ready;
}

/* sim/gpu.c -- the timing model: block dispatch, SMs, warp schedulers,
** scoreboards and pipelines, driven by one global cycle counter. This file
** sets a launch up, runs the main loop and adds up the totals; the warp
** schedulers and issue are sim/sched.c, a warp's scoreboard
** sim/scoreboard.h, blocks on SMs and their barriers sim/blocks.c, one
** launch on several host threads sim/par.c.
**
** Each cycle, every scheduler that may have work picks at most one ready
** warp (GTO, LRR or RR: sim/sched.c) and issues its next instruction; an
** SM's schedulers run from one drawn per cycle (sched_first), so that none
** always wins the pipes they share. Issue executes it
** functionally (isa/exec) and times it: fixed-latency units mark the
** destination ready `latency` cycles later; shared memory occupies the SM's
** shared pipe for one cycle per wavefront; global accesses go through the
** coalescer and the memory system, which return when the data is back
** (an L1 hit on a line whose fill is on its way: when the fill is).
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
** their scheduler (not selected, throttled by the pipe they need, or held
** at dispatch by the register read ports). A
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
** The register file gives a scheduler sched.register_reads source
** registers a cycle (0: no limit): an instruction that reads registers
** issues while less than a cycle's worth of earlier reads is pending; a
** warp held so is charged dispatch_stall.
**
** Left out: instruction fetch and caches, register banks by register
** number and the operand reuse cache, dual issue, the discrete steps of
** the L1/shared carveout, texture and constant caches (ld.param is an ALU
** op). */
#include "sim/gpu.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/disasm.h"
#include "isa/grid.h"
#include "sim/derive.h"
#include "sim/gpu_int.h"
#include "sim/occupancy.h"

struct GpuSession {
    const GpuConfig *c;
    MemSys          *mem;  /* NULL until the first launch            */
    uint64_t         end;  /* the last launch's end, in its own cycles */
};

/* ------------------------------------------------------------ reporting */

void gpu_fail(Gpu *g, SimStatus status, const char *fmt, ...)
{
    if (g->stop) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->r->message, sizeof g->r->message, fmt, ap);
    va_end(ap);
    g->r->status = status;
    g->stop = true;
    g->fail_cycle = g->now;
    g->fail_id = g->cur_id;
}

void gpu_fail_fault(Gpu *g, FaultKind kind, const char *report)
{
    if (g->stop) return;
    gpu_fail(g, SIM_FAULT, "%s", report);
    g->r->fault = kind;
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

/* ----------------------------------------------------------------- setup */

/* Every SM's warps, block slots, schedulers, register rows, scoreboards and
** shared memory: one allocation, sized once, freed once (g->pool). */
static bool setup_sms(Gpu *g)
{
    const GpuConfig *c = g->c;
    const Launch *L = g->L;
    g->block_threads = L->block[0] * L->block[1] * L->block[2];
    g->warps_per_block = (g->block_threads + WARP_SIZE - 1) / WARP_SIZE;
    g->nregs = g->k->regs_used ? g->k->regs_used : 1;
    g->reserved_smem = kernel_reads_reserved_smem(g->k) ? c->shared_reserved : 0; /* the system's, at the end */
    g->smem_size = g->k->dynamic_smem_offset + L->dynamic_smem + g->reserved_smem;
    g->total_blocks = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    g->bps = g->st->occ.blocks_per_sm;
    g->warp_slots = g->bps * g->warps_per_block;
    /* Blocks go to SMs breadth-first and an SM that gets none at the start
    ** never gets one: a launch of fewer blocks than SMs needs state for its
    ** blocks' SMs only (sm.count = 100000 with one block is a small run). */
    g->nsm = g->total_blocks < c->sm_count ? (uint32_t)g->total_blocks : c->sm_count;
    uint32_t nsched = c->sm_schedulers, nsm = g->nsm;
    uint32_t per_sched = (g->warp_slots + nsched - 1) / nsched, ewords = (per_sched + 63) / 64;

    /* One allocation for every per-SM array: sized once, freed once. */
    size_t sz_sm = sizeof(Sm), sz_warps = (size_t)g->warp_slots * sizeof(Warp),
           sz_blocks = (size_t)g->bps * sizeof(BlockSlot), sz_sched = (size_t)nsched * sizeof(Scheduler),
           sz_order = (size_t)nsched * (per_sched * (sizeof(HeapItem) + sizeof(uint16_t) + 1) + ewords * 8),
           sz_regs = (size_t)g->warp_slots * g->nregs * WARP_SIZE * sizeof(uint32_t),
           sz_ready = (size_t)g->warp_slots * sb_entries(g->nregs) * sizeof(uint64_t),
           sz_wait = (size_t)g->warp_slots * sb_entries(g->nregs), sz_smem = (size_t)g->bps * g->smem_size,
           sz_lmem = (size_t)g->bps * g->block_threads * g->k->local_bytes;
    size_t per_sm = sz_warps + sz_blocks + sz_sched + sz_order + sz_regs + sz_ready + sz_wait + sz_smem + sz_lmem + 64;
    size_t total = (size_t)nsm * (sz_sm + per_sm);
    if (total > ((size_t)8 << 30)) {
        gpu_fail(g, SIM_BAD_LAUNCH, "this launch needs %zu MiB of host memory for resident warps (and their local memory); refusing",
                 total >> 20);
        return false;
    }
    g->pool = calloc(1, total + 64); /* calloc: pages no launch touches stay the system's */
    if (!g->pool) {
        gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory (%zu MiB) for resident warps", total >> 20);
        return false;
    }
    g->prints = calloc(nsm, sizeof *g->prints);
    if (!g->prints) {
        gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory for printf buffers");
        return false;
    }
    for (uint32_t s = 0; s < nsm; s++) exec_print_init(&g->prints[s], L->printf_limit ? L->printf_limit : EXEC_PRINT_LIMIT);
    uint8_t *p = (uint8_t *)g->pool + ((64 - ((uintptr_t)g->pool & 63)) & 63);
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
        uint64_t *emask = (uint64_t *)(pending + (size_t)nsched * per_sched);
        uint16_t *rank_slot = (uint16_t *)(emask + (size_t)nsched * ewords);
        uint8_t *rank_unit = (uint8_t *)(rank_slot + (size_t)nsched * per_sched);
        p += sz_order;
        uint8_t *wait = p;
        p += sz_wait;
        uint8_t *smem = p;
        p += sz_smem;
        uint8_t *lmem = p;
        p += sz_lmem;
        p += (8 - ((uintptr_t)p & 7)) & 7;
        for (uint32_t w = 0; w < g->warp_slots; w++) {
            sm->warps[w].ex.r = regs + (size_t)w * g->nregs;
            sm->warps[w].sb.ready = ready + (size_t)w * sb_entries(g->nregs);
            sm->warps[w].sb.wait = wait + (size_t)w * sb_entries(g->nregs);
        }
        for (uint32_t q = 0; q < nsched; q++) {
            sm->sched[q].waiting = (Heap){ pending + (size_t)q * per_sched, 0, per_sched };
            sm->sched[q].emask = emask + (size_t)q * ewords;
            sm->sched[q].ewords = ewords;
            sm->sched[q].ring_on = per_sched <= 64 && !g->per_warp;
            sm->sched[q].rank_slot = rank_slot + (size_t)q * per_sched;
            sm->sched[q].rank_unit = rank_unit + (size_t)q * per_sched;
            sm->sched[q].wake_at = NEVER;
            sm->sched[q].last_issued = -1;
        }
        for (uint32_t b = 0; b < g->bps; b++) {
            ExecBlock *eb = &sm->blocks[b].eb;
            eb->kernel = g->k;
            eb->gmem = L->gmem;
            eb->smem = smem + (size_t)b * g->smem_size;
            eb->smem_size = g->smem_size;
            eb->reserved_smem = g->reserved_smem;
            eb->lmem = g->k->local_bytes ? lmem + (size_t)b * g->block_threads * g->k->local_bytes : NULL;
            eb->print = &g->prints[s];
            eb->params = L->params;
            memcpy(eb->ntid, L->block, sizeof eb->ntid);
            memcpy(eb->nctaid, L->grid, sizeof eb->nctaid);
            eb->smid = s;
            eb->nsmid = c->sm_count; /* %nsmid: the machine's SMs, used or not */
            eb->grid_workspace = L->grid_workspace;
            eb->heap = L->heap;
            eb->textures = L->textures;
            eb->clock_mhz = c->clock_mhz; /* %globaltimer in the machine's ns */
        }
    }
    return true;
}

static bool setup(Gpu *g)
{
    const GpuConfig *c = g->c;
    if (!setup_sms(g)) return false;
    uint32_t nsched = c->sm_schedulers, nsm = g->nsm;
    g->interval[UNIT_ALU] = c->alu_interval;
    g->interval[UNIT_FMA] = c->fma_interval;
    g->interval[UNIT_SFU] = c->sfu_interval;
    g->interval[UNIT_DIV] = c->div_interval;
    g->interval[UNIT_LSU] = c->lsu_interval;
    g->interval[UNIT_MIO] = c->mio_interval;
    g->interval[UNIT_CTRL] = 1;
    g->interval[UNIT_FP64] = c->fp64_interval;
    g->latency[UNIT_ALU] = c->lat_alu;
    g->latency[UNIT_FMA] = c->lat_fma;
    g->latency[UNIT_SFU] = c->lat_sfu;
    g->latency[UNIT_DIV] = c->lat_div;
    g->latency[UNIT_LSU] = c->lat_l1_hit;
    g->latency[UNIT_MIO] = c->lat_shared;
    g->latency[UNIT_CTRL] = 1;
    g->latency[UNIT_FP64] = c->lat_fp64;
    /* The driver sizes the shared-memory carveout to what the resident blocks
    ** need and leaves the rest of the unified array to L1 (its discrete
    ** carveout steps are not modelled); l1.size is the floor. */
    uint64_t smem_used = (uint64_t)g->bps * g->st->occ.smem_per_block_alloc;
    uint64_t l1 = c->l1_shared_total > smem_used ? c->l1_shared_total - smem_used : 0;
    if (l1 < c->l1_size) l1 = c->l1_size;
    Diag d;
    if (!sched_needs_build(g)) {
        gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory");
        return false;
    }
    g->nwords = (uint32_t)(((uint64_t)nsm * nsched + 63) / 64);
    g->cur = calloc(g->nwords, sizeof *g->cur);
    if (!g->cur || !calendar_init(&g->wakes, nsm * nsched, g->now)) {
        gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory");
        return false;
    }
    GpuSession *ses = g->ses; /* the memory system the previous launch left, if any */
    if (ses->mem ? !memsys_next_launch(ses->mem, c, nsm, l1, ses->end, &d)
                 : !(ses->mem = memsys_create(c, nsm, l1, &d))) {
        gpu_fail(g, SIM_BAD_LAUNCH, "%s", d.message);
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
        blocks_occ_update(g, sm);
        st->resident_warp_cycles += sm->occ_integral;
        st->busy_sm_cycles += sm->busy_cycles;
    }
    memsys_stats(g->mem, st);
}

void gpu_run_cycles(Gpu *g, ExecOut *out)
{
    const Launch *L = g->L;
    uint32_t nsched = g->c->sm_schedulers;
    /* Each cycle: the schedulers that asked for it (the calendar's set for
    ** that cycle), SM by SM, each SM's from sched_first on, so that what
    ** the SMs share (the L2 and DRAM queues, global memory, block
    ** dispatch) is touched in (cycle, SM, position) order: reproducible,
    ** and the order a run on several host threads keeps (sim/par.c). */
    while (!g->stop) {
        uint64_t t = calendar_first(&g->wakes);
        if (t == CALENDAR_NONE || t >= g->limit) break; /* several threads: the round ends at limit (sim/par.c) */
        if (t <= g->now && g->now) {
            gpu_fail(g, SIM_INTERNAL, "internal error (please report it): a wake-up at cycle %llu is not after %llu", (unsigned long long)t,
                 (unsigned long long)g->now);
            break;
        }
        g->now = t;
        /* several threads: the rounds stay short of the budgets (sim/par.c) */
        if (L->max_cycles && g->now > L->max_cycles && !g->defer) {
            g->r->budget_cycles = true;
            gpu_fail(g, SIM_BUDGET, "kernel '%s' did not finish within %llu cycles; where its warps are:",
                 g->k->name, (unsigned long long)L->max_cycles);
            append_warp_positions(g, 16);
            break;
        }
        if (L->max_warp_instructions && g->st->warp_instructions > L->max_warp_instructions && !g->defer) {
            gpu_fail(g, SIM_BUDGET, "kernel '%s' exceeded %llu warp instructions; where its warps are:",
                 g->k->name, (unsigned long long)L->max_warp_instructions);
            append_warp_positions(g, 16);
            break;
        }
        calendar_take(&g->wakes, t, g->cur); /* cur is all zero: it was emptied as it ran */
        for (uint32_t i = 0; i < g->nwords; i++) {
            while (g->cur[i] && !g->stop) { /* SM by SM; its schedulers from sched_first on */
                uint32_t s = (i * 64 + (uint32_t)__builtin_ctzll(g->cur[i])) / nsched, due = 0;
                if (64 % nsched == 0) { /* the SM's bits sit in this word */
                    uint32_t off = s * nsched % 64;
                    uint64_t mask = ((1ull << nsched) - 1) << off; /* sm.schedulers <= 16 */
                    due = (uint32_t)((g->cur[i] & mask) >> off);
                    g->cur[i] &= ~mask;
                } else {
                    for (uint32_t qi = 0, id = s * nsched; qi < nsched; qi++, id++)
                        if (g->cur[id / 64] >> (id % 64) & 1) {
                            due |= 1u << qi;
                            g->cur[id / 64] &= ~(1ull << (id % 64));
                        }
                }
                uint32_t first = nsched > 1 ? sched_first(t, s, nsched) : 0;
                for (uint32_t k = 0; k < nsched && !g->stop; k++) {
                    uint32_t qi = first + k < nsched ? first + k : first + k - nsched;
                    if (!(due >> qi & 1) || g->sms[s].sched[qi].wake_at != t) continue; /* superseded */
                    g->cur_id = s * nsched + k;
                    sched_step(g, s, qi, out);
                }
            }
            g->cur[i] = 0; /* after a failure too */
        }
    }
}

bool gpu_session_simulate(GpuSession *ses, const Launch *L, const TraceSink *trace, SimResult *r)
{
    const GpuConfig *c = ses->c;
    memset(r, 0, sizeof *r);
    Gpu g;
    memset(&g, 0, sizeof g);
    g.ses = ses;
    g.grid = &g.grid_own;
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
        gpu_fail(&g, SIM_BAD_LAUNCH, "%s", msg);
        return false;
    }
    if (L->kernel->ncode == 0) { /* a kernel its front end refused (kernel_runnable) */
        gpu_fail(&g, SIM_BAD_LAUNCH, "kernel '%s' has no code to run%s%s", L->kernel->name,
                 L->kernel->refused ? ": " : "", L->kernel->refused ? L->kernel->refused : "");
        return false;
    }
    if (L->racecheck && (kernel_has_op(L->kernel, OP_MBAR_ARRIVE) || kernel_has_op(L->kernel, OP_CP_ASYNC_MBAR))) {
        /* its waits order shared memory as bar.sync does; racecheck knows bar.sync alone */
        gpu_fail(&g, SIM_BAD_LAUNCH, "kernel '%s' synchronizes with mbarrier (cuda::barrier, cuda::pipeline), which "
                 "--racecheck does not follow: run it without --racecheck", L->kernel->name);
        return false;
    }
    if (L->racecheck && kernel_has_partial_barriers(L->kernel)) {
        /* such a barrier orders only the warps that meet at it; racecheck knows whole-block ones */
        gpu_fail(&g, SIM_BAD_LAUNCH, "kernel '%s' has barriers that part of the block meets at (bar.arrive, or "
                 "bar.sync with a thread count), which --racecheck does not follow: run it without --racecheck",
                 L->kernel->name);
        return false;
    }
    uint32_t threads = L->block[0] * L->block[1] * L->block[2];
    uint32_t regs = L->regs_per_thread ? L->regs_per_thread : kernel_regs_per_thread(L->kernel);
    Diag d;
    if (!occupancy_compute(c, threads, regs, L->kernel->dynamic_smem_offset, L->dynamic_smem, &r->stats.occ, &d)) {
        gpu_fail(&g, SIM_BAD_LAUNCH, "kernel '%s' cannot launch on %s: %s", L->kernel->name, c->name, d.message);
        return false;
    }
    if (r->stats.occ.blocks_per_sm == 0) {
        gpu_fail(&g, SIM_BAD_LAUNCH, "kernel '%s' cannot launch on %s: no block fits on an SM", L->kernel->name, c->name);
        return false;
    }
    KernelStats *st = &r->stats;
    st->blocks = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    ExecOut *out = malloc(sizeof *out);
    g.free_out = malloc(sizeof *g.free_out);
    bool ok = out && g.free_out && setup(&g);
    if (!out) gpu_fail(&g, SIM_BAD_LAUNCH, "out of host memory");
    if (ok) {
        /* Breadth-first: one block per SM per round, as the hardware spreads them. */
        for (uint32_t round = 0; round < g.bps; round++)
            for (uint32_t s = 0; s < g.nsm; s++) blocks_dispatch(&g, s, g.now + 1);
        g.limit = NEVER;
        uint32_t n = par_threads(&g);
        r->host_threads = n;
        if (n < 2 || !par_run(&g, n) || !g.stop) gpu_run_cycles(&g, out); /* all, or what a budget leaves */
        if (!g.stop && g.grid->next_block < g.total_blocks)
            gpu_fail(&g, SIM_INTERNAL, "internal error (please report it): %llu blocks were never dispatched",
                 (unsigned long long)(g.total_blocks - g.grid->next_block));
        if (!g.stop && g.grid->blocks_done < g.total_blocks) blocks_stuck(&g); /* waiting at a barrier for good */
        if (!g.stop) {
            if (!L->keep_dirty) memsys_flush(g.mem);
            uint64_t drain = memsys_drain_cycle(g.mem);
            if (drain > g.end) g.end = drain;
            count_totals(&g);
            ses->end = g.end;
        }
    }
    derive_stats(c, st); /* a run that stopped early too: from what it counted */
    calendar_free(&g.wakes);
    free(g.cur);
    free(g.needs);
    for (uint32_t s2 = 0; g.sms && s2 < g.nsm; s2++)
        for (uint32_t b = 0; b < g.bps; b++) racecheck_destroy(g.sms[s2].blocks[b].rc);
    if (g.prints) {
        exec_print_flush(g.prints, g.nsm, L->printf_out);
        for (uint32_t s2 = 0; s2 < g.nsm; s2++) exec_print_free(&g.prints[s2]);
        free(g.prints);
    }
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

const char *gpu_status_name(SimStatus s)
{
    switch (s) {
    case SIM_OK: return "ok";
    case SIM_FAULT: return "fault";
    case SIM_DEADLOCK: return "deadlock";
    case SIM_BUDGET: return "budget";
    case SIM_BAD_LAUNCH: return "bad_launch";
    case SIM_INTERNAL: return "internal_error";
    }
    return "?";
}

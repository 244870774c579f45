/* isa/grid.c -- functional grid runner and fault reports (see grid.h). */
#include "isa/grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/disasm.h"

bool grid_check_launch(const uint32_t grid[3], const uint32_t block[3], char *msg, size_t cap)
{
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    uint64_t blocks = (uint64_t)grid[0] * grid[1] * grid[2];
    if (!block[0] || !block[1] || !block[2] || !grid[0] || !grid[1] || !grid[2]) {
        snprintf(msg, cap, "grid and block dimensions must be at least 1 (grid %ux%ux%u, block %ux%ux%u)",
                 grid[0], grid[1], grid[2], block[0], block[1], block[2]);
        return false;
    }
    if (threads > GRID_MAX_BLOCK_THREADS) {
        snprintf(msg, cap, "block of %llu threads; at most %u threads per block", (unsigned long long)threads,
                 GRID_MAX_BLOCK_THREADS);
        return false;
    }
    const uint32_t block_max[3] = { GRID_MAX_BLOCK_DIM_XY, GRID_MAX_BLOCK_DIM_XY, GRID_MAX_BLOCK_DIM_Z };
    const uint32_t grid_max[3] = { GRID_MAX_GRID_DIM_X, GRID_MAX_GRID_DIM_YZ, GRID_MAX_GRID_DIM_YZ };
    for (int i = 0; i < 3; i++) {
        const char *axis = i == 0 ? "x" : i == 1 ? "y" : "z";
        if (block[i] > block_max[i]) {
            snprintf(msg, cap, "block %s of %u; at most %u", axis, block[i], block_max[i]);
            return false;
        }
        if (grid[i] > grid_max[i]) {
            snprintf(msg, cap, "grid %s of %u; at most %u", axis, grid[i], grid_max[i]);
            return false;
        }
    }
    if (blocks > UINT32_MAX) {
        snprintf(msg, cap, "grid of %llu blocks; at most 2^32-1", (unsigned long long)blocks);
        return false;
    }
    return true;
}

/* What a texture or surface instruction's fault was. */
static void describe_texture_fault(const ExecFault *f, const Instr *in, char *what, size_t cap)
{
    if (f->kind == FAULT_BAD_TEXTURE)
        snprintf(what, cap, "%s: the handle 0x%llx names no live %s object (destroyed, never created, or of the other "
                 "kind or shape)", exec_fault_name(f->kind), (unsigned long long)f->addr, in->op == OP_TEX ? "texture" : "surface");
    else
        snprintf(what, cap, "%s: %u bytes at byte x = %lld, y = %u, z or layer = %llu, outside the surface (boundary "
                 "mode .trap, CUDA's default cudaBoundaryModeTrap)", exec_fault_name(f->kind), f->size,
                 (long long)(int64_t)f->addr, f->line, (unsigned long long)f->file);
}

void grid_describe_fault(const Kernel *k, const char *file, const GlobalMem *gmem, const ExecFault *f,
                         const uint32_t ctaid[3], const uint32_t ntid[3], uint32_t warp_in_block,
                         char *buf, size_t cap)
{
    const Instr *in = &k->code[f->pc];
    char text[160], where[256] = "";
    disasm_instr(k, in, text, sizeof text);
    uint32_t lin = warp_in_block * WARP_SIZE + f->lane;
    if (f->kind == FAULT_GLOBAL_OOB || f->kind == FAULT_MISALIGNED) {
        const char *name;
        uint32_t base;
        uint64_t size;
        int64_t off;
        if (OP_INFO[in->op].space == SPACE_GLOBAL && gmem &&
            gmem_nearest(gmem, f->addr, &name, &base, &size, &off)) {
            if (off >= 0 && (uint64_t)off < size)
                snprintf(where, sizeof where, " (%lld bytes into buffer '%s' of %llu bytes at 0x%x)", (long long)off,
                         name, (unsigned long long)size, base);
            else if (off < 0)
                snprintf(where, sizeof where, " (%lld bytes before buffer '%s' of %llu bytes at 0x%x)",
                         (long long)-off, name, (unsigned long long)size, base);
            else
                snprintf(where, sizeof where, " (%llu bytes after the end of buffer '%s' of %llu bytes at 0x%x)",
                         (unsigned long long)((uint64_t)off - size), name, (unsigned long long)size, base);
        }
    }
    /* Memory faults say what was accessed; the others say what happened. */
    char what[512];
    switch (f->kind) {
    case FAULT_GLOBAL_OOB:
    case FAULT_SHARED_OOB:
    case FAULT_MISALIGNED:
    case FAULT_ADDR64:
    case FAULT_GENERIC_MIXED:
    case FAULT_LOCAL_OOB:
        snprintf(what, sizeof what, "%s of %u bytes at address 0x%llx%s", exec_fault_name(f->kind), f->size,
                 (unsigned long long)f->addr, where);
        break;
    case FAULT_UNIFORM_DIVERGED:
        snprintf(what, sizeof what, "%s: a branch promised warp-uniform (bra.uni) was taken by lane %u but not by "
                 "every active lane", exec_fault_name(f->kind), f->lane);
        break;
    case FAULT_STACK_OVERFLOW:
        snprintf(what, sizeof what, "%s: more than %d divergent branches nested in one warp", exec_fault_name(f->kind),
                 SIMT_MAX_DEPTH);
        break;
    case FAULT_TRAP:
        snprintf(what, sizeof what, "trap: the kernel stopped itself (__trap() or PTX trap)");
        break;
    case FAULT_ASSERT: {
        char line[sizeof what - 64];
        uint32_t tid[3] = { lin % ntid[0], lin / ntid[0] % ntid[1], lin / (ntid[0] * ntid[1]) };
        exec_assert_text(gmem, f, ctaid, tid, line, sizeof line);
        snprintf(what, sizeof what, "%s: %s", exec_fault_name(f->kind), line);
        break;
    }
    case FAULT_BAD_FREE:
        snprintf(what, sizeof what, "%s: free(0x%llx), an address that malloc did not return or that was already "
                 "freed", exec_fault_name(f->kind), (unsigned long long)f->addr);
        break;
    case FAULT_HEAP_DAMAGED:
        snprintf(what, sizeof what, "%s: its bookkeeping (the 16 bytes before a block, or the heap's start) was "
                 "overwritten, by a store past the end of a malloc'd block perhaps", exec_fault_name(f->kind));
        break;
    case FAULT_MBARRIER: {
        unsigned long long n = (unsigned long long)f->file, at = (unsigned long long)f->addr;
        const char *name = exec_fault_name(f->kind);
        if (f->line == MBAR_BAD_COUNT)
            snprintf(what, sizeof what, "%s: mbarrier.init at shared offset 0x%llx with an expected count of %llu (it "
                     "takes 1 .. 2^20-1)", name, at, n);
        else if (f->line == MBAR_UNINITIALISED)
            snprintf(what, sizeof what, "%s: an arrival at shared offset 0x%llx, where no mbarrier is initialised", name, at);
        else if (f->line == MBAR_TOO_MANY)
            snprintf(what, sizeof what, "%s: %llu arrival(s) on the mbarrier at shared offset 0x%llx, whose phase needs "
                     "fewer (or none counted)", name, n, at);
        else if (f->line == MBAR_COMPLETES)
            snprintf(what, sizeof what, "%s: a .noComplete arrival on the mbarrier at shared offset 0x%llx completes its "
                     "phase", name, at);
        else if (f->line == MBAR_TX_RANGE)
            snprintf(what, sizeof what, "%s: a byte count of %llu on the mbarrier at shared offset 0x%llx takes its "
                     "transaction count past 2^20-1", name, n, at);
        else
            snprintf(what, sizeof what, "%s: the mbarrier address 0x%llx is not in shared memory", name, at);
        break;
    }
    case FAULT_CALL_DEPTH:
        snprintf(what, sizeof what, "%s: a device function called itself deeper than gpusim inlines it (%d levels; "
                 "fewer for one that calls itself more than once, 10 for twice)", exec_fault_name(f->kind),
                 PTX_RECURSION_MAX);
        break;
    case FAULT_BAD_CALL:
        snprintf(what, sizeof what, "%s: a call through a pointer that holds no device function's address (of this "
                 "file, whose address the code takes)", exec_fault_name(f->kind));
        break;
    case FAULT_BAD_TEXTURE:
    case FAULT_SURFACE_OOB:
        describe_texture_fault(f, in, what, sizeof what);
        break;
    case FAULT_BARRIER:
        if (f->line == 0)
            snprintf(what, sizeof what, "%s: barrier %llu (a block has barriers 0-15)", exec_fault_name(f->kind),
                     (unsigned long long)f->file);
        else
            snprintf(what, sizeof what, "%s: a thread count of %llu (a positive multiple of 32, at most the block's "
                     "threads rounded up to whole warps)", exec_fault_name(f->kind), (unsigned long long)f->file);
        break;
    case FAULT_NONE:
        snprintf(what, sizeof what, "%s", exec_fault_name(f->kind));
        break;
    }
    char cuda[512]; /* the CUDA line nvcc's .loc gives the instruction leads, then the PTX line */
    bool from_cu = kernel_cuda_line(k, f->pc, cuda, sizeof cuda);
    snprintf(buf, cap,
             "%s%s%s:%u:%u: %s\n"
             "    in kernel '%s' at pc %u: %s\n"
             "    by thread (%u,%u,%u) of block (%u,%u,%u) (warp %u, lane %u)",
             cuda, from_cu ? "\n    " : "", file ? file : "?", in->line, in->col, what, k->name, f->pc, text, lin % ntid[0],
             lin / ntid[0] % ntid[1], lin / (ntid[0] * ntid[1]), ctaid[0], ctaid[1], ctaid[2], warp_in_block, f->lane);
}

size_t grid_deadlock_head(const Kernel *k, const char *file, uint32_t bar_pc, const uint32_t ctaid[3], char *buf,
                          size_t cap)
{
    char text[128], cuda[256];
    disasm_instr(k, &k->code[bar_pc], text, sizeof text);
    bool from_cu = kernel_cuda_line(k, bar_pc, cuda, sizeof cuda); /* a .cu's line leads */
    int n = snprintf(buf, cap, "%s%s%s:%u: barrier deadlock at '%s' in kernel '%s', block (%u,%u,%u): ", cuda,
                     from_cu ? "\n    " : "", file ? file : "?", k->code[bar_pc].line, text, k->name, ctaid[0], ctaid[1],
                     ctaid[2]);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/* A block whose live warps all wait at barriers none of which can complete:
** the first one waited at, as a deadlock report. */
static bool stuck(const Kernel *k, const char *file, const uint32_t ctaid[3], const uint8_t *waiting,
                  const uint32_t *bar_pc, const ExecBarriers *bars, uint32_t running, GridResult *r)
{
    uint32_t wi = 0;
    while (!waiting[wi]) wi++;
    uint32_t id = waiting[wi] - 1u;
    r->status = GRID_DEADLOCK;
    size_t n = grid_deadlock_head(k, file, bar_pc[wi], ctaid, r->message, sizeof r->message);
    snprintf(r->message + n, sizeof r->message - n,
             "barrier %u waits for %u warp(s), %u arrived, and no other warp of the block will arrive (warp %u waits "
             "there)", id, bars->expected[id] ? bars->expected[id] : running, bars->arrived[id], wi);
    return false;
}

bool grid_run_functional(const Kernel *k, GlobalMem *gmem, const GridLaunch *L, GridResult *r)
{
    memset(r, 0, sizeof *r);
    if (!grid_check_launch(L->grid, L->block, r->message, sizeof r->message)) {
        r->status = GRID_BAD_LAUNCH;
        return false;
    }
    if (k->ncode == 0) { /* a kernel its front end refused (kernel_runnable) */
        r->status = GRID_BAD_LAUNCH;
        snprintf(r->message, sizeof r->message, "kernel '%s' has no code to run%s%s", k->name, k->refused ? ": " : "",
                 k->refused ? k->refused : "");
        return false;
    }
    uint32_t threads = L->block[0] * L->block[1] * L->block[2];
    uint32_t nwarps = (threads + WARP_SIZE - 1) / WARP_SIZE;
    uint32_t nregs = k->regs_used ? k->regs_used : 1;
    uint32_t reserved = kernel_reads_reserved_smem(k) ? L->shared_reserved : 0;
    uint32_t smem_size = k->dynamic_smem_offset + L->dynamic_smem + reserved;
    WarpExec *warps = calloc(nwarps, sizeof *warps);
    uint32_t (*regs)[WARP_SIZE] = calloc((size_t)nwarps * nregs, sizeof *regs);
    uint8_t *smem = malloc(smem_size ? smem_size : 1);
    size_t lmem_size = (size_t)threads * k->local_bytes;
    uint8_t *lmem = lmem_size ? malloc(lmem_size) : NULL;
    uint8_t *waiting = calloc(nwarps, 1);
    uint32_t *bar_pc = calloc(nwarps, sizeof *bar_pc); /* where a waiting warp waits */
    ExecOut *out = malloc(sizeof *out);
    bool ok = warps && regs && smem && waiting && bar_pc && out && (lmem || !lmem_size);
    if (!ok) {
        r->status = GRID_BAD_LAUNCH;
        snprintf(r->message, sizeof r->message, "out of host memory for a block of %u threads", threads);
    }
    ExecPrint print;
    exec_print_init(&print, L->printf_limit ? L->printf_limit : EXEC_PRINT_LIMIT);
    ExecBlock b = { .kernel = k, .gmem = gmem, .smem = smem, .smem_size = smem_size, .reserved_smem = reserved, .lmem = lmem, .params = L->params,
                    .nsmid = L->nsm ? L->nsm : 1, .print = &print, .heap = L->heap,
                    .textures = L->textures };
    memcpy(b.ntid, L->block, sizeof b.ntid);
    memcpy(b.nctaid, L->grid, sizeof b.nctaid);
    for (uint32_t bz = 0; ok && bz < L->grid[2]; bz++)
    for (uint32_t by = 0; ok && by < L->grid[1]; by++)
    for (uint32_t bx = 0; ok && bx < L->grid[0]; bx++) {
        b.ctaid[0] = bx, b.ctaid[1] = by, b.ctaid[2] = bz;
        memset(smem, 0, smem_size);
        if (lmem) memset(lmem, 0, lmem_size);
        for (uint32_t wi = 0; wi < nwarps; wi++)
            exec_warp_init(&warps[wi], regs + (size_t)wi * nregs, nregs, wi, threads, wi);
        memset(waiting, 0, nwarps); /* 1 + the barrier a warp waits at; 0: it runs */
        ExecBarriers bars = { 0 };
        uint32_t running = nwarps;
        int open = -1; /* a barrier whose last warp arrived */
        while (ok && running) {
            if (open >= 0) { /* its warps go on, bar.red's result in hand */
                ExecRed red = { 0 };
                for (uint32_t wi = 0; wi < nwarps; wi++)
                    if (waiting[wi] == open + 1) exec_red_add(&red, &warps[wi]);
                for (uint32_t wi = 0; wi < nwarps; wi++)
                    if (waiting[wi] == open + 1) exec_red_apply(&red, &warps[wi]), waiting[wi] = 0;
                open = -1;
            }
            bool stepped = false;
            for (uint32_t wi = 0; ok && open < 0 && wi < nwarps; wi++) {
                WarpExec *w = &warps[wi];
                if (!w->depth || waiting[wi]) continue;
                uint32_t pc = exec_pc(w);
                /* Checked before issuing, so a kernel that needs exactly the budget completes. */
                if (L->max_warp_instructions && r->warp_instructions >= L->max_warp_instructions) {
                    r->status = GRID_BUDGET;
                    snprintf(r->message, sizeof r->message,
                             "kernel '%s' stopped after %llu warp instructions (budget): block (%u,%u,%u) warp %u "
                             "was at pc %u (line %u); is there an endless loop?", k->name,
                             (unsigned long long)r->warp_instructions, bx, by, bz, wi, pc, k->code[pc].line);
                    ok = false;
                    break;
                }
                if (!exec_step(&b, w, out)) {
                    r->status = GRID_FAULT;
                    r->fault = out->fault.kind;
                    grid_describe_fault(k, L->kernel_file, gmem, &out->fault, b.ctaid, b.ntid, wi, r->message,
                                        sizeof r->message);
                    ok = false;
                    break;
                }
                stepped = true;
                if (out->yielded) continue; /* nothing ran: the path beside a barrier goes first */
                r->warp_instructions++;
                r->thread_instructions += bits_popcount(out->exec_mask);
                if (out->exited) {
                    running--;
                    open = exec_barrier_after_exit(&bars, running); /* exited warps no longer count */
                } else if (out->at_barrier) {
                    if (out->barrier_partial) {
                        r->status = GRID_DEADLOCK;
                        snprintf(r->message, sizeof r->message,
                                 "barrier deadlock in kernel '%s': warp %u of block (%u,%u,%u) reached bar.sync at "
                                 "line %u with lanes 0x%08x while its live lanes are 0x%08x (divergent barrier)",
                                 k->name, wi, bx, by, bz, k->code[pc].line, out->active, w->live);
                        ok = false;
                        break;
                    }
                    if (!out->barrier_arrive) waiting[wi] = (uint8_t)(1 + out->barrier_id), bar_pc[wi] = pc;
                    if (exec_barrier_arrive(&bars, out, running)) open = out->barrier_id;
                }
            }
            if (ok && running && !stepped && open < 0) /* every live warp waits, and no barrier completes */
                ok = stuck(k, L->kernel_file, b.ctaid, waiting, bar_pc, &bars, running, r);
        }
    }
    free(warps);
    free(regs);
    exec_print_flush(&print, 1, L->printf_out);
    exec_print_free(&print);
    free(smem);
    free(lmem);
    free(waiting);
    free(bar_pc);
    free(out);
    return ok;
}

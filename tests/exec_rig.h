/* tests/exec_rig.h -- the rig the executor's suites share (check_exec,
** check_exec_control): one warp of one block with its kernel assembled from
** text, its memories, and a trace of the steps exec_step took. */
#ifndef GPUSIM_TESTS_EXEC_RIG_H
#define GPUSIM_TESTS_EXEC_RIG_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "isa/exec.h"
#include "isa/grid.h"

#define ALL       0xffffffffu
#define SMEM_SIZE 4096u
#define MAX_TRACE 8192u

/* ------------------------------------------------------------------ rig */

typedef struct {
    uint32_t pc, active, exec_mask, depth;
} Step;

/* One warp of one block, with its kernel, memories and a trace of steps. */
typedef struct {
    Program   prog;
    GlobalMem *gmem;
    uint8_t   smem[SMEM_SIZE];
    uint32_t  params[8];
    ExecBlock b;
    WarpExec  w;
    uint32_t  regs[ISA_MAX_REGS][WARP_SIZE];
    ExecOut   out;
    Step      trace[MAX_TRACE];
    uint32_t  nsteps, max_depth;
    uint32_t  live0; /* the warp's lanes at the start */
} Rig;

static inline Rig *rig_new(const char *src, uint32_t block_threads, uint32_t warp)
{
    Rig *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    Diag d;
    bool ok = asm_parse(src, strlen(src), "exec.asm", &r->prog, &d);
    ck_assert_msg(ok, "assembly failed: %u:%u: %s\n%s", d.line, d.col, d.message, src);
    r->gmem = gmem_create();
    ck_assert_ptr_nonnull(r->gmem);
    r->b.kernel = &r->prog.kernels[0];
    r->b.gmem = r->gmem;
    r->b.smem = r->smem;
    r->b.smem_size = SMEM_SIZE;
    r->b.params = r->params;
    r->b.ntid[0] = block_threads, r->b.ntid[1] = r->b.ntid[2] = 1;
    r->b.nctaid[0] = r->b.nctaid[1] = r->b.nctaid[2] = 1;
    r->b.nsmid = 1;
    exec_warp_init(&r->w, r->regs, ISA_MAX_REGS, warp, block_threads, warp);
    r->live0 = r->w.live;
    return r;
}

static inline void rig_free(Rig *r)
{
    program_destroy(&r->prog);
    gmem_destroy(r->gmem);
    free(r);
}

/* Restarts the warp at pc 0 with all its lanes alive; registers kept. */
static inline void rig_restart(Rig *r)
{
    r->w.live = r->live0;
    r->w.depth = 1;
    r->w.stack[0] = (SimtEntry){ 0, ISA_NO_RECONV, r->w.live };
}

/* One step, which must not fault; recorded in the trace. */
static inline void rig_step(Rig *r)
{
    ck_assert_uint_gt(r->w.depth, 0);
    bool ok = exec_step(&r->b, &r->w, &r->out);
    ck_assert_msg(ok, "fault %s at pc %u lane %u addr 0x%llx", exec_fault_name(r->out.fault.kind), r->out.fault.pc,
                  r->out.fault.lane, (unsigned long long)r->out.fault.addr);
    ck_assert_uint_lt(r->nsteps, MAX_TRACE);
    r->trace[r->nsteps++] = (Step){ r->out.pc, r->out.active, r->out.exec_mask, r->w.depth };
    if (r->w.depth > r->max_depth) r->max_depth = r->w.depth;
}

/* Runs until the warp has exited (no faults allowed); returns steps taken. */
static inline uint32_t rig_run(Rig *r)
{
    uint32_t before = r->nsteps;
    while (r->w.depth) rig_step(r);
    ck_assert(r->out.exited);
    return r->nsteps - before;
}

/* Runs until a fault, which must come; returns it. */
static inline ExecFault rig_fault(Rig *r)
{
    for (uint32_t i = 0; i < MAX_TRACE && r->w.depth; i++)
        if (!exec_step(&r->b, &r->w, &r->out)) return r->out.fault;
    ck_abort_msg("no fault");
    return r->out.fault;
}

/* Issues of pc in the trace, and the masks they were issued under (OR). */
static inline uint32_t issues_at(const Rig *r, uint32_t pc, uint32_t *masks)
{
    uint32_t n = 0;
    if (masks) *masks = 0;
    for (uint32_t i = 0; i < r->nsteps; i++)
        if (r->trace[i].pc == pc) {
            n++;
            if (masks) *masks |= r->trace[i].exec_mask;
        }
    return n;
}

static inline uint32_t label_pc(const Rig *r, const char *name)
{
    const Kernel *k = r->b.kernel;
    for (uint32_t i = 0; i < k->nlabels; i++)
        if (strcmp(k->labels[i].name, name) == 0) return k->labels[i].pc;
    ck_abort_msg("no label %s", name);
    return 0;
}

static inline uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Host view of a global address. */
static inline void *host(Rig *r, uint32_t addr, uint32_t size)
{
    void *p = gmem_translate(r->gmem, addr, size);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* A buffer of `bytes` named `name`, its address in parameter `param`; its
** host words. */
static inline uint32_t *param_buffer(Rig *r, uint32_t param, uint32_t bytes, const char *name)
{
    Diag d;
    uint32_t addr = gmem_alloc(r->gmem, bytes, name, &d);
    ck_assert_msg(addr != 0, "%s", d.message);
    r->params[param] = addr;
    return host(r, addr, bytes);
}

/* a register's bits read as signed and as float, in the expected values */
#define I(x) ((int32_t)(x))
#define F(x) u2f(x)

#endif

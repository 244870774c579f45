/* isa/exec_fault.c -- the faults' names, and the instructions that stop a
** kernel on purpose: trap (__trap()) and a failed assert() (PTX `call
** __assertfail`). Part of the exec module (isa/exec.h). Each is a fault of the first lane that runs
** it, as on the GPU, where the kernel ends and the context holds a sticky
** error (cudaErrorLaunchFailure for trap, cudaErrorAssert for assert). The
** GPU prints one line per failing thread; this names the first. */
#include "isa/exec.h"

#include <stdio.h>

bool exec_fault_at(ExecOut *out, FaultKind k, uint32_t lane, uint64_t addr, uint32_t size)
{
    out->fault = (ExecFault){ .kind = k, .pc = out->pc, .lane = lane, .size = size, .addr = addr };
    return false;
}

const char *exec_fault_name(FaultKind k)
{
    switch (k) {
    case FAULT_NONE: return "no fault";
    case FAULT_GLOBAL_OOB: return "out-of-bounds global access";
    case FAULT_SHARED_OOB: return "out-of-bounds shared access";
    case FAULT_MISALIGNED: return "misaligned access";
    case FAULT_UNIFORM_DIVERGED: return "bra.uni taken by only some lanes";
    case FAULT_STACK_OVERFLOW: return "divergence nested too deeply";
    case FAULT_ADDR64: return "64-bit address beyond the simulated 32-bit space";
    case FAULT_GENERIC_MIXED: return "generic access mixing shared, local and global lanes";
    case FAULT_LOCAL_OOB: return "out-of-bounds local access";
    case FAULT_TRAP: return "trap";
    case FAULT_ASSERT: return "device-side assertion failed";
    case FAULT_BAD_FREE: return "invalid free of device heap memory";
    case FAULT_HEAP_DAMAGED: return "device heap damaged";
    case FAULT_MBARRIER: return "mbarrier misuse";
    case FAULT_BARRIER: return "illegal barrier";
    case FAULT_CALL_DEPTH: return "recursion too deep";
    case FAULT_BAD_CALL: return "call through a bad function pointer";
    case FAULT_BAD_TEXTURE: return "invalid texture or surface object";
    case FAULT_SURFACE_OOB: return "out-of-bounds surface access";
    }
    return "?";
}

bool exec_trap(const WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    if (!m) return true;
    uint32_t lane = (uint32_t)__builtin_ctz(m);
    FaultKind trap = in->sub == TRAP_CALL_DEPTH ? FAULT_CALL_DEPTH : in->sub == TRAP_BAD_CALL ? FAULT_BAD_CALL : FAULT_TRAP;
    ExecFault f = { .kind = in->op == OP_ASSERTFAIL ? FAULT_ASSERT : trap, .pc = out->pc, .lane = lane };
    if (f.kind == FAULT_ASSERT) {
        const Operand *s = in->src;
        f.addr = (uint64_t)w->r[s[0].index + 1][lane] << 32 | w->r[s[0].index][lane];
        f.file = (uint64_t)w->r[s[1].index + 1][lane] << 32 | w->r[s[1].index][lane];
        f.line = w->r[s[2].index][lane];
        f.func = (uint64_t)w->r[s[3].index + 1][lane] << 32 | w->r[s[3].index][lane];
    }
    out->fault = f;
    return false;
}

/* The string at global address a, or "?" (assert's strings are module
** constants in global memory). */
static void global_string(const GlobalMem *gmem, uint64_t a, char *buf, size_t cap)
{
    size_t i = 0;
    for (; i + 1 < cap; i++) {
        const char *c = gmem && a + i < UINT32_MAX ? gmem_lookup(gmem, a + i, 1) : NULL;
        if (!c) {
            snprintf(buf, cap, "?");
            return;
        }
        if (!(buf[i] = *c)) return;
    }
    buf[i] = 0;
}

void exec_assert_text(const GlobalMem *gmem, const ExecFault *f, const uint32_t ctaid[3], const uint32_t tid[3],
                      char *buf, size_t cap)
{
    char msg[256], file[256], func[256];
    global_string(gmem, f->addr, msg, sizeof msg);
    global_string(gmem, f->file, file, sizeof file);
    global_string(gmem, f->func, func, sizeof func);
    snprintf(buf, cap, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.", file, f->line, func,
             ctaid[0], ctaid[1], ctaid[2], tid[0], tid[1], tid[2], msg);
}

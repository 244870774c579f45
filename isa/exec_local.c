/* isa/exec_local.c -- local memory (PTX .local: per-thread arrays, the
** depot of spills and of libdevice's slow paths), part of the exec module
** (isa/exec.h): each lane's own bytes of its block's ExecBlock.lmem, and the
** address the timing model sees for them. Layout: the PTX ISA manual,
** "State spaces" (.local is private per thread); the interleaving of a
** warp's words is the CUDA Programming Guide's "Local memory" ("organized
** such that consecutive 32-bit words are accessed by consecutive thread
** IDs", so a warp's access to one offset is fully coalesced). */
#include "isa/exec.h"

uint64_t exec_local_address(uint32_t smid, uint32_t hw_warp, uint32_t local_bytes, uint32_t offset, uint32_t lane,
                            uint32_t width)
{
    uint64_t warp = (uint64_t)smid * 1024 + hw_warp; /* unique while resident (sm.max_warps <= 1024) */
    uint64_t run = (warp * local_bytes + offset / width * width) * WARP_SIZE + (uint64_t)lane * width + offset % width;
    return ISA_LOCAL_TIMING + run % ISA_LOCAL_TIMING_SIZE;
}

/* Local memory: each lane's own bytes, bounded by the kernel's depot; the
** addresses become where the hardware would put them (exec_local_address). */
bool exec_map_local(const ExecBlock *b, const WarpExec *w, uint32_t m, uint32_t width, ExecOut *out,
                    uint8_t *ptr[WARP_SIZE])
{
    uint32_t size = b->kernel->local_bytes;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        if (out->addr[l] + width > size) {
            out->fault = (ExecFault){ .kind = FAULT_LOCAL_OOB, .pc = out->pc, .lane = (uint32_t)l, .size = width, .addr = out->addr[l] };
            return false;
        }
        ptr[l] = b->lmem + ((size_t)w->warp_in_block * WARP_SIZE + (size_t)l) * size + out->addr[l];
    }
    for (int l = 0; l < WARP_SIZE; l++)
        out->addr[l] = exec_local_address(b->smid, w->hw_warp, size, (uint32_t)out->addr[l], (uint32_t)l, width);
    return true;
}


/* sim/smem.h -- shared-memory bank conflicts: how many wavefronts one warp
** request takes. Pure: no SM, no clock, no allocation.
**
** Model: 32 banks, each 4 bytes wide; byte address a lives in word a/4 and
** bank (a/4) % 32. One wavefront serves at most one distinct word per bank;
** any number of lanes asking for the same word share it (broadcast). So a
** phase costs the largest number of distinct words asked of any one bank.
** 4-byte accesses are one phase of 32 lanes; 8-byte accesses two phases of
** 16 lanes (half-warps); 16-byte accesses four phases of 8 lanes
** (quarter-warps). Each phase then asks for at most 32 words, i.e. exactly
** one full bank sweep when the lanes are consecutive.
**
** Where it comes from: the CUDA C++ Programming Guide, "Shared Memory"
** sections for compute capability 5.x and later (32 banks of 32 bits,
** broadcast of one word, "multicast" to several lanes); the half-/quarter-warp
** processing of 64-/128-bit accesses is how NVIDIA describes wide shared
** accesses since Volta and what microbenchmarks of Volta/Ampere measure; the
** word "wavefront" is Nsight Compute's for one pass of the shared data path.
**
** One merge of phases: a load whose active lanes all read one address (a
** broadcast) is served 8 bytes per wavefront, so 1 wavefront for 4 and 8
** bytes and 2 for 16, not 2 and 4 (validate/probes/smem.cu on an H200:
** 1.02 and 2.02 cycles per instruction; a 16-byte store of one address
** still takes 4). The same probe measured every other pattern it tried
** (strides 1-32 at 4/8/16 bytes, half- and quarter-warps on the same or
** conflicting words, even/odd lanes) at exactly the count below.
**
** Simplified: other phases are never merged (two half-warps asking for the
** same words take two wavefronts, as measured); a wide access is assumed
** naturally aligned (the executor faults misaligned ones), its words being
** addr/4 .. addr/4+width/4-1; atomics (timed by the caller) and shuffles are
** not modelled here.                                                        */
#ifndef GPUSIM_SIM_SMEM_H
#define GPUSIM_SIM_SMEM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_BANKS      32 /* banks per SM, every NVIDIA part since Fermi  */
#define SMEM_BANK_BYTES 4  /* bank width (the 8-byte Kepler mode is gone)  */

typedef enum { SMEM_READ, SMEM_WRITE } SmemOp; /* a load; a store or an atomic */

typedef struct {
    uint32_t wavefronts;             /* 0 when mask == 0                            */
    uint32_t phases;                 /* phases served (1, or 2 / 4 for wide accesses
                                        with every phase active; merged broadcasts
                                        count their wavefronts)                    */
    uint32_t bank_words[SMEM_BANKS]; /* distinct 4-byte words asked of each bank,
                                        summed over phases (for the visualizer)   */
} SmemResult;

/* Analyzes one warp-wide shared-memory request.
**   addr  byte address in the block's shared window for each lane (only the
**         lanes set in mask are read)
**   mask  active lanes, bit i = lane i
**   width access size per lane in bytes: 4, 8 or 16 (asserted)
**   op    SMEM_READ for loads (a broadcast is merged), else SMEM_WRITE
**   out   filled completely (caller owns it)
** Cost: O(32) with a small on-stack hash set; no allocation.              */
void smem_analyze(const uint32_t addr[32], uint32_t mask, unsigned width, SmemOp op, SmemResult *out);

#ifdef __cplusplus
}
#endif

#endif

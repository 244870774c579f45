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
** Simplified: phases are never merged (hardware may serve two half-warps
** that ask for the same words in one wavefront; here an active phase always
** costs at least one); a wide access is assumed naturally aligned (the
** executor faults misaligned ones), its words being addr/4 .. addr/4+width/4-1;
** atomics and shuffles are not modelled here.                               */
#ifndef GPUSIM_SIM_SMEM_H
#define GPUSIM_SIM_SMEM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_BANKS      32 /* banks per SM, every NVIDIA part since Fermi  */
#define SMEM_BANK_BYTES 4  /* bank width (the 8-byte Kepler mode is gone)  */

typedef struct {
    uint32_t wavefronts;             /* 0 when mask == 0                            */
    uint32_t bank_words[SMEM_BANKS]; /* distinct 4-byte words asked of each bank,
                                        summed over phases (for the visualizer)   */
} SmemResult;

/* Analyzes one warp-wide shared-memory request.
**   addr  byte address in the block's shared window for each lane (only the
**         lanes set in mask are read)
**   mask  active lanes, bit i = lane i
**   width access size per lane in bytes: 4, 8 or 16 (asserted)
**   out   filled completely (caller owns it)
** Cost: O(32) with a small on-stack hash set; no allocation.              */
void smem_analyze(const uint32_t addr[32], uint32_t mask, unsigned width, SmemResult *out);

#ifdef __cplusplus
}
#endif

#endif

/* sim/smem.h -- shared-memory bank conflicts: how many wavefronts one warp
** request takes. Pure: no SM, no clock, no allocation.
**
** Model: B banks (the machine's smem.banks: 16, 32 or 64; 32 on every NVIDIA
** part since Fermi), each 4 bytes wide; byte address a lives in word a/4 and
** bank (a/4) % B. One wavefront serves at most one distinct word per bank;
** any number of lanes asking for the same word share it (broadcast). So a
** phase costs the largest number of distinct words asked of any one bank.
** A request is split into phases of as many lanes as one pass of the banks
** can serve (B x 4 bytes, at most the 32 lanes of the warp): with 32 banks,
** 4-byte accesses are one phase of 32 lanes, 8-byte accesses two phases of
** 16 lanes (half-warps), 16-byte accesses four phases of 8 lanes
** (quarter-warps). Each phase then asks for at most B words, i.e. exactly
** one full bank sweep when the lanes are consecutive. With 16 banks a 4-byte
** request is two half-warp phases (as on compute capability 1.x), so a
** conflict-free one takes 2 wavefronts; with 64 banks an 8-byte request of
** 32 consecutive lanes takes 1.
**
** Where it comes from: the CUDA C++ Programming Guide, "Shared Memory"
** sections for compute capability 5.x and later (32 banks of 32 bits,
** broadcast of one word, "multicast" to several lanes); the half-/quarter-warp
** processing of 64-/128-bit accesses is how NVIDIA describes wide shared
** accesses since Volta and what microbenchmarks of Volta/Ampere measure; the
** word "wavefront" is Nsight Compute's for one pass of the shared data path.
** 16 banks serving half-warps is compute capability 1.x's arrangement (CUDA
** C Programming Guide 3.x, "Shared Memory", compute capability 1.x); 64
** banks is no NVIDIA part, a machine for design-space sweeps.
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

#define SMEM_MAX_BANKS  64 /* the most banks smem_analyze models (smem.banks)  */
#define SMEM_BANK_BYTES 4  /* bank width (the 8-byte Kepler mode is gone)     */

typedef struct {
    uint32_t wavefronts;                 /* 0 when mask == 0                        */
    uint32_t bank_words[SMEM_MAX_BANKS]; /* distinct 4-byte words asked of each bank,
                                            summed over phases (for the visualizer);
                                            only [0, banks) is written             */
} SmemResult;

/* True for the bank counts smem_analyze models: 16, 32 and 64. */
static inline int smem_banks_valid(unsigned banks)
{
    return banks == 16 || banks == 32 || banks == 64;
}

/* Analyzes one warp-wide shared-memory request.
**   addr  byte address in the block's shared window for each lane (only the
**         lanes set in mask are read)
**   mask  active lanes, bit i = lane i
**   width access size per lane in bytes: 4, 8 or 16 (asserted)
**   banks 16, 32 or 64 (asserted: smem_banks_valid)
**   out   wavefronts and bank_words[0, banks) filled (caller owns it)
** Cost: O(32) with a small on-stack hash set; no allocation. Each bank count
** has its own copy of the loop, so 32 costs what it did as a constant.    */
void smem_analyze(const uint32_t addr[32], uint32_t mask, unsigned width, unsigned banks, SmemResult *out);

#ifdef __cplusplus
}
#endif

#endif

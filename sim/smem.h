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

#define SMEM_MAX_BANKS  64 /* the most banks smem_analyze models (smem.banks)  */
#define SMEM_BANK_BYTES 4  /* bank width (the 8-byte Kepler mode is gone)     */

typedef enum { SMEM_READ, SMEM_WRITE } SmemOp; /* a load; a store or an atomic */

typedef struct {
    uint32_t wavefronts;                 /* 0 when mask == 0                        */
    uint32_t phases;                     /* phases served (1, or 2 / 4 for wide
                                            accesses with every phase active;
                                            merged broadcasts count their
                                            wavefronts)                            */
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
**   width access size per lane in bytes: 1, 2, 4, 8 or 16 (asserted); a
**         1- or 2-byte access asks for the 4-byte word that holds it, so
**         lanes on bytes of one word share it (a broadcast, or one write)
**   op    SMEM_READ for loads (a broadcast is merged), else SMEM_WRITE
**   banks 16, 32 or 64 (asserted: smem_banks_valid)
**   out   wavefronts, phases and bank_words[0, banks) filled (caller owns it)
** Cost: O(32) with a small on-stack hash set; no allocation. Each bank count
** has its own copy of the loop, so 32 costs what it did as a constant.    */
void smem_analyze(const uint32_t addr[32], uint32_t mask, unsigned width, SmemOp op, unsigned banks, SmemResult *out);

#ifdef __cplusplus
}
#endif

#endif

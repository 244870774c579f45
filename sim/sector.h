/* sim/sector.h -- the units of the global-memory path: 128-byte lines of
** four 32-byte sectors, as in NVIDIA's L1 and L2 since Maxwell/Volta (CUDA
** C++ Programming Guide, "Device Memory Accesses"; Nsight Compute counts
** L1/L2 traffic in these sectors). The coalescer, the caches, the memory
** system and the counters all count in them, so they are defined here once.
** Constants only: no types, no functions.                                */
#ifndef GPUSIM_SIM_SECTOR_H
#define GPUSIM_SIM_SECTOR_H

#define SECTOR_BYTES      32
#define SECTOR_LINE_BYTES 128
#define SECTORS_PER_LINE  (SECTOR_LINE_BYTES / SECTOR_BYTES) /* a line's sector mask uses bits 0..3 */

#endif

/* sim/stats.h -- what one simulated kernel launch reports. Each unit keeps
** its own counters while it runs; gpu.c adds them up into KernelStats at the
** end of the launch. Names follow the `gpusim run --json` keys and, for stall
** reasons, Nsight Compute's warp-state names.                               */
#ifndef GPUSIM_SIM_STATS_H
#define GPUSIM_SIM_STATS_H

#include <stdint.h>

#include "sim/occupancy.h"

/* Warp states, sampled per warp per cycle (Nsight Compute's names). */
#define STALL_LIST(X)                                                                     \
    X(SELECTED,           "selected",           "issued an instruction")                  \
    X(NOT_SELECTED,       "not_selected",       "ready, but another warp was picked")     \
    X(WAIT,               "wait",               "fixed-latency dependency (ALU/FMA/SFU)") \
    X(LONG_SCOREBOARD,    "long_scoreboard",    "waiting for a global-memory load")       \
    X(SHORT_SCOREBOARD,   "short_scoreboard",   "waiting for shared memory / shuffle")    \
    X(MATH_PIPE_THROTTLE, "math_pipe_throttle", "its arithmetic pipe is busy")            \
    X(MIO_THROTTLE,       "mio_throttle",       "shared-memory pipe busy (e.g. bank conflicts)") \
    X(LG_THROTTLE,        "lg_throttle",        "load/store unit busy")                   \
    X(BARRIER,            "barrier",            "waiting at bar.sync for its block")      \
    X(BRANCH_RESOLVING,   "branch_resolving",   "waiting for a branch target")                \
    X(BLOCK_LAUNCH,       "block_launch",       "its block is still being launched on the SM")

typedef enum {
#define STALL_ENUM(id, name, help) STALL_##id,
    STALL_LIST(STALL_ENUM)
#undef STALL_ENUM
    STALL_COUNT
} StallReason;

extern const char *const STALL_NAMES[STALL_COUNT];
extern const char *const STALL_HELP[STALL_COUNT];

typedef struct {
    uint64_t cycles;
    double   time_us;                 /* cycles at the preset clock            */
    uint64_t warp_instructions;
    uint64_t thread_instructions;     /* lanes whose guard held, summed over issues */
    double   ipc;                     /* warp instructions per active SM cycle */
    OccResult occ;                    /* theoretical: blocks/SM and limiter    */
    double   theoretical_occupancy;
    double   achieved_occupancy;      /* avg resident warps / max, busy cycles */
    uint64_t blocks;
    uint32_t waves;                   /* ceil(blocks / (SMs * blocks per SM))  */
    double   wave_efficiency;         /* blocks / (waves * SMs * blocks per SM) */
    uint32_t tail_blocks;             /* blocks in the last wave               */
    uint64_t branches, divergent_branches;
    double   branch_efficiency;       /* avg active lanes / 32 per issued instr */
    uint64_t gld_requests, gld_sectors, gst_requests, gst_sectors;
    uint64_t gatom_requests;
    uint64_t l1_sector_accesses, l1_sector_hits;
    uint64_t l2_sector_accesses, l2_sector_hits;
    double   l1_hit_rate, l2_hit_rate;
    uint64_t dram_read_bytes, dram_write_bytes, dram_bytes;
    double   dram_bandwidth_gbs;
    uint64_t shared_requests, shared_wavefronts, shared_bank_conflicts;
    uint64_t flops;                   /* FP32 ops: opcodes.def flops x lanes    */
    double   arithmetic_intensity;    /* flops per DRAM byte                    */
    double   peak_gflops, peak_dram_gbs, ridge_point;
    double   roofline_gflops;         /* min(peak, intensity * bandwidth)      */
    double   achieved_gflops;
    uint64_t stall[STALL_COUNT];      /* warp-cycles in each state             */
} KernelStats;

#endif

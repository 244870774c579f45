/* sim/stats.h -- what one simulated kernel launch reports. The first part
** of KernelStats holds raw counters, each counted where it happens by the
** unit that owns it (sched.c: issue, the LSU and the shared-memory pipe;
** blocks.c: the block launchers; gpu.c: the kernel's length and occupancy
** integrals; memsys_stats: caches and DRAM) and only added up here
** (stats_add: over a launch's host threads and a variant's launches); the second part is
** derived from those and the machine by derive_stats (sim/derive.h), the one
** place any ratio is computed, so every report reads the same numbers.
** Stall reasons have Nsight Compute's warp-state names; the `gpusim run
** --json` keys that show these fields are listed in workloads/README.md. */
#ifndef GPUSIM_SIM_STATS_H
#define GPUSIM_SIM_STATS_H

#include <stdint.h>

#include "isa/opcodes.h"
#include "sim/occupancy.h"

/* Warp stall reasons, sampled per warp per cycle, with Nsight Compute's
** names: ncu counts each as smsp__pcsamp_warps_issue_stalled_<name>, and
** tests/ncu_stall_reasons.txt holds ncu's whole list (check_derive checks
** every name here against it). The model has eleven of ncu's eighteen. */
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
    X(BRANCH_RESOLVING,   "branch_resolving",   "waiting for a branch target")            \
    X(DISPATCH_STALL,     "dispatch_stall",     "held at dispatch: the register file's read ports are busy") \
    X(SLEEPING,           "sleeping",           "suspended by nanosleep (a spin-wait's back-off)")

/* The warp states a trace and the visualizer show: the stall reasons, then
** a warp slot whose block holds its resources but has not been started by
** the SM's block launcher yet. That is not a stall (the warp has not
** begun; ncu counts no such warp as active): its time is SM-level time,
** counted apart (launch_wait_warp_cycles, launch_queue_cycles). */
#define WARP_STATE_LIST(X) \
    STALL_LIST(X)          \
    X(BLOCK_LAUNCH,       "block_launch",       "its block is still being launched on the SM")

typedef enum {
#define STALL_ENUM(id, name, help) STALL_##id,
    WARP_STATE_LIST(STALL_ENUM)
#undef STALL_ENUM
    STALL_COUNT /* warp states (the trace's, the visualizer's)          */
} StallReason;

/* The stall reasons proper: the states before STALL_BLOCK_LAUNCH. */
#define STALL_REASONS STALL_BLOCK_LAUNCH

extern const char *const STALL_NAMES[STALL_COUNT];
extern const char *const STALL_HELP[STALL_COUNT];

/* What a memory request does. Loads, stores and atomics are counted apart:
** an atomic both reads and writes, and is resolved elsewhere (global: at
** L2; shared: applied one lane after another on one address). */
typedef enum { ACCESS_LOAD, ACCESS_STORE, ACCESS_ATOMIC, ACCESS_KINDS } AccessKind;

extern const char *const ACCESS_NAMES[ACCESS_KINDS]; /* "loads", "stores", "atomics" */

/* The raw counters, one row each: the structs' fields and stats_add come
** from these lists, so a counter added here is added up everywhere (over
** a launch's host threads, over a variant's launches). X(field) is a sum;
** M(field) the largest. */
#define GLOBAL_COUNTS(X, M)                                                              \
    X(requests)                                                                          \
    X(sectors)        /* 32-byte sectors they touch (the coalescer's count)           */ \
    X(ideal_sectors)  /* sum of ceil(bytes requested / 32): what perfectly coalesced     \
                         requests of the same widths would touch                      */

#define SHARED_COUNTS(X, M)                                                              \
    X(requests)                                                                          \
    X(wavefronts)     /* passes of the banks (smem_analyze); an atomic's serialisation   \
                         on one address is time, not wavefronts                       */ \
    X(ideal_wavefronts) /* the phases a request needs however its lanes fall on the    \
                         banks: 1, or 2 / 4 for 8- / 16-byte accesses (smem.h)     */ \
    M(max_wavefronts) /* the most one request took                                    */ \
    X(serial_cycles)  /* atomics: pipe cycles beyond the wavefronts, spent applying      \
                         lanes on one word one after another                          */

#define KERNEL_COUNTS(X, M)                                                                   \
    /* issue (sched.c) and the SMs (gpu.c) */                                                  \
    X(cycles)                  /* until the last block and its memory traffic are done;       \
                                  a variant's launches: their sum                          */ \
    X(warp_instructions)       /* SASS-equivalent: a PTX instruction counts the slots of      \
                                  its lowering (0, 1 or N)                                 */ \
    X(ptx_instructions)        /* PTX kernels: PTX instructions executed                   */ \
    X(thread_instructions)     /* lanes whose guard held, summed over issues               */ \
    X(active_lanes)            /* lanes issued (active mask), summed over issues           */ \
    X(busy_sm_cycles)          /* summed over SMs: cycles with a resident warp             */ \
    X(resident_warp_cycles)    /* summed over SMs: resident warps x cycles                 */ \
    X(branches)                                                                               \
    X(divergent_branches)                                                                     \
    X(flops)                   /* FP32 ops: opcodes.def flops x lanes                      */ \
    /* the SMs' block launchers (blocks.c, sched.c): SM-level time, not warp stalls */           \
    X(launch_wait_warp_cycles) /* summed over warps: cycles a warp slot was held by a block   \
                                  the launcher had not started yet                         */ \
    X(launch_queue_cycles)     /* summed over SMs: cycles with at least one block waiting     \
                                  for the SM's launcher                                    */ \
    /* the caches and DRAM (memsys_stats) */                                                  \
    X(l1_sector_accesses)                                                                     \
    X(l1_sector_hits)                                                                         \
    X(l2_sector_accesses)                                                                     \
    X(l2_sector_hits)                                                                         \
    X(dram_read_bytes)                                                                        \
    X(dram_write_bytes)                                                                       \
    X(l2_atomic_wait_cycles)   /* global atomics: cycles waiting for earlier lanes on their   \
                                  L2 line (same-line serialisation)                        */

/* The units whose throughput a launch is held against its peak, each with
** the Nsight Compute metric that measures the same share: what one of them
** at or near its peak binds (cli/explain.c names the busiest). Every share
** is of the unit's peak over the launch's elapsed cycles on every SM. The
** FMA pipe runs FP32 and integer multiplies, the ALU integer and logic
** work, the XU the special functions (rcp, sqrt, ex2, sin, ...).
** X(id, name, what, ncu metric) */
#define LIMIT_LIST(X)                                                                                      \
    X(DRAM,   "dram",   "DRAM",                           "dram__throughput.avg.pct_of_peak_sustained_elapsed") \
    X(L2,     "l2",     "L2",                             "lts__t_bytes.avg.pct_of_peak_sustained_elapsed")     \
    X(L1,     "l1",     "L1",                             "l1tex__t_sectors.avg.pct_of_peak_sustained_elapsed") \
    X(SHARED, "shared", "shared memory",                  "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed") \
    X(ISSUE,  "issue",  "issue slots",                    "sm__inst_issued.avg.pct_of_peak_sustained_elapsed")  \
    X(FMA,    "fma",    "FMA pipe",                    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed") \
    X(ALU,    "alu",    "ALU pipe",                       "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed") \
    X(XU,     "xu",     "XU pipe",                        "sm__pipe_xu_cycles_active.avg.pct_of_peak_sustained_elapsed")  \
    X(FP64,   "fp64",   "FP64 pipe",                      "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed")

typedef enum {
#define LIMIT_ENUM(id, name, what, ncu) LIMIT_##id,
    LIMIT_LIST(LIMIT_ENUM)
#undef LIMIT_ENUM
    LIMITS
} Limit;

extern const char *const LIMIT_NAMES[LIMITS]; /* "dram", "l2", ...            */
extern const char *const LIMIT_WHAT[LIMITS];  /* "DRAM", "L2", ...            */
extern const char *const LIMIT_NCU[LIMITS];   /* the ncu metric of the share  */

#define STATS_U64_FIELD(name) uint64_t name;
#define STATS_U32_FIELD(name) uint32_t name;

/* Global requests of one kind. A request is one warp instruction with at
** least one active lane. */
typedef struct {
    GLOBAL_COUNTS(STATS_U64_FIELD, STATS_U32_FIELD)
    double   sectors_per_request;       /* derived                                            */
    double   ideal_sectors_per_request; /* derived                                            */
} GlobalCounts;

/* Shared-memory requests of one kind (shfl, which uses the same pipe, is
** not a memory request). */
typedef struct {
    SHARED_COUNTS(STATS_U64_FIELD, STATS_U32_FIELD)
    double   wavefronts_per_request;    /* derived                                            */
    double   ideal_wavefronts_per_request; /* derived                                         */
} SharedCounts;

typedef struct {
    /* ---- raw counters -------------------------------------------------- */
    /* the launch (gpu.c, from the occupancy calculator): not added up */
    OccResult occ;                    /* theoretical: blocks/SM and limiter    */
    uint64_t blocks;                  /* in the grid                           */
    KERNEL_COUNTS(STATS_U64_FIELD, STATS_U32_FIELD)
    uint64_t stall[STALL_REASONS];    /* warp-cycles in each stall reason      */
    /* the LSU and the shared-memory pipe at issue (sched.c), by AccessKind */
    GlobalCounts global[ACCESS_KINDS];
    GlobalCounts local[ACCESS_KINDS]; /* .local: per-thread arrays, spills (no atomics) */
    SharedCounts shared[ACCESS_KINDS];
    uint64_t pipe_cycles[UNIT_COUNT]; /* summed over schedulers: cycles each
                                         unit was reserved by an issue (its
                                         interval x slots; sched.c)      */

    /* ---- derived (derive_stats) ------------------------------------------ */
    double   time_us;                 /* cycles at the preset clock            */
    double   ipc;                     /* warp instructions per active SM cycle */
    double   theoretical_occupancy;
    double   achieved_occupancy;      /* avg resident warps / max, busy cycles
                                         (warps waiting for their block's launch
                                         included)                              */
    double   active_occupancy;        /* the same of the launched warps alone:
                                         ncu's achieved occupancy (sm__warps_active) */
    double   launch_queue_share;      /* launch_queue_cycles / busy SM cycles   */
    uint32_t waves;                   /* ceil(blocks / (SMs * blocks per SM))  */
    double   waves_per_sm;            /* blocks / (SMs * blocks per SM): ncu's
                                         launch__waves_per_multiprocessor       */
    double   wave_efficiency;         /* blocks / (waves * SMs * blocks per SM) */
    uint32_t tail_blocks;             /* blocks in the last wave               */
    double   branch_efficiency;       /* avg active lanes / 32 per issued instr */
    uint64_t shared_requests, shared_wavefronts; /* loads, stores and atomics together */
    uint64_t shared_ideal_wavefronts; /* what the same requests need free of conflicts */
    uint64_t shared_bank_conflicts;   /* wavefronts beyond the ideal ones: Nsight
                                         Compute's excessive wavefronts (a
                                         conflict-free float4 access has none)  */
    double   shared_atomic_serial_per_request; /* shared[ATOMIC].serial_cycles per atomic */
    double   global_atomic_wait_per_request;   /* l2_atomic_wait_cycles per global atomic */
    double   shared_wavefronts_per_request;
    double   l1_hit_rate, l2_hit_rate;
    uint64_t dram_bytes;
    double   dram_bandwidth_gbs;
    double   arithmetic_intensity;    /* flops per DRAM byte                    */
    double   peak_gflops, peak_dram_gbs, ridge_point;
    double   roofline_gflops;         /* min(peak, intensity * bandwidth)      */
    double   achieved_gflops;
    uint64_t stall_cycles;            /* warp-cycles in all stall reasons      */
    double   stall_share[STALL_REASONS]; /* each reason's share of stall_cycles */
    double   throughput[LIMITS];      /* each unit's share of its peak, elapsed */
    Limit    busiest;                 /* the largest of them                    */
} KernelStats;

/* Adds every raw counter of `from` to `to` (sums; the largest for the
** M rows). occ, blocks and the derived half are left as they are. */
void stats_add(KernelStats *to, const KernelStats *from);

/* One instruction's counters (gpusim run --source, the visualizer's source
** overlay): what Nsight Compute's Source page and GPGPU-Sim's per-PC stats
** give. Counted by the units that count the kernel-wide ones, at the same
** moments, only when a Launch asks for them (Launch.pc_counters); summed
** over the kernel's pcs each equals its kernel-wide counter (stall[k] the
** stall[k] above, warp_instructions, thread_instructions, the global and
** shared requests of every kind, the L1 and L2 sector accesses and hits but
** those of the write-back at the kernel's end, which no instruction makes).
** A warp's cycles count at the instruction it waits to issue (its next
** one, as a PC sampler sees it: a load's long_scoreboard shows at the
** instruction that reads the loaded register), `selected` at the one it
** issued. */
typedef struct {
    uint64_t executed;            /* times a warp executed it (PTX: free ones too) */
    uint64_t warp_instructions;   /* issue slots, as KernelStats counts them      */
    uint64_t thread_instructions; /* lanes whose guard held, times its slots      */
    uint64_t stall[STALL_REASONS];  /* warp-cycles spent at it, by warp state       */
    uint64_t global_requests, sectors, ideal_sectors;
    uint64_t shared_requests, wavefronts, ideal_wavefronts;
    uint64_t l1_sector_accesses, l1_sector_hits;
    uint64_t l2_sector_accesses, l2_sector_hits;
} PcCounters;

#endif

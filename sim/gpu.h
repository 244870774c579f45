/* sim/gpu.h -- the timing model's entry point: simulate one kernel launch on
** a machine. The launch arrives fully formed (kernel, buffers in a GlobalMem,
** grid, parameters); sim/ never reads workload files.
** Model (see DESIGN.md, "Key models"): blocks are dispatched to SMs as their
** resources allow; each SM's schedulers issue at most one instruction per
** cycle from a ready warp; an instruction executes functionally at issue and
** its results become readable when its latency (or its memory request)
** completes; idle stretches are skipped, not ticked.                     */
#ifndef GPUSIM_SIM_GPU_H
#define GPUSIM_SIM_GPU_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/exec.h"
#include "isa/gmem.h"
#include "isa/program.h"
#include "sim/config.h"
#include "sim/stats.h"
#include "sim/trace.h"

typedef struct {
    const Kernel   *kernel;
    const char     *kernel_file;     /* for fault reports                        */
    GlobalMem      *gmem;            /* buffers; the kernel reads and writes them */
    uint32_t        grid[3], block[3];
    uint32_t        dynamic_smem;    /* bytes                                    */
    uint32_t        regs_per_thread; /* 0: the kernel's own count                */
    const uint32_t *params;          /* kernel->nparams values                   */
    uint64_t        max_cycles;      /* 0: no limit                              */
    uint64_t        max_warp_instructions; /* 0: no limit                        */
    bool            racecheck;       /* --racecheck: shared-memory races are faults */
    /* Called as each block finishes with the blocks finished so far and the
    ** grid's total, for a progress display (NULL: none). One call per
    ** block: a run that shows progress needs no trace sink. */
    void          (*progress)(void *user, uint64_t blocks_done, uint64_t blocks);
    void           *progress_user;
    /* A launch of a GpuSession that another launch follows: its dirty L2
    ** sectors stay in L2 for the next one instead of being written back at
    ** its end (the sequence's last launch writes them). */
    bool            keep_dirty;
    /* Per-instruction counters (sim/stats.h, PcCounters): kernel->ncode
    ** entries that the launch adds to (zero them first); NULL, the usual
    ** case, counts none and costs a pointer test where they would be. */
    PcCounters     *pc_counters;
    /* Host threads to simulate on (sim/par.c): 0 or 1, one; more split the
    ** SMs among them, with results bit-identical to one thread's. At most
    ** one per SM the launch uses; a trace sink or pc_counters run on one. */
    uint32_t        threads;
    /* Take no more of those threads than the host has cores free at the
    ** launch's start (base/host.h): a thread without a core of its own
    ** only waits for the others (the command line's default; false: the
    ** threads asked for, as the tests run them). */
    bool            threads_fit_host;
    /* The threads are the command line's default, not asked for: a launch
    ** of fewer than GPU_AUTO_THREADS_MIN_BLOCKS blocks runs on one (its
    ** threads would mostly wait for each other at the rounds' ends). */
    bool            threads_auto;
    /* Where device printf's text goes at the launch's end, in the order it
    ** was printed (cycle, SM; NULL: nowhere). */
    FILE           *printf_out;
    /* Bytes of printf text each SM's buffer keeps (cudaLimitPrintfFifoSize;
    ** 0: EXEC_PRINT_LIMIT, CUDA's default); calls past it are counted. */
    uint64_t        printf_limit;
    /* A cooperative launch: the global address of its grid-sync words
    ** (%envreg1:%envreg2, zeroed by the caller); 0 for any other. */
    uint64_t        grid_workspace;
    /* The device heap malloc and free use (isa/exec.h exec_heap_create; 0:
    ** none, and they fault). A launch of a kernel that uses it runs on one
    ** host thread: each call takes its block from the heap at once. */
    uint64_t        heap;
    /* Texture and surface objects (ExecBlock.textures; NULL: none). A
    ** kernel that reads textures runs on one host thread. */
    const ExecTextures *textures;
} Launch;

/* The most host threads one launch runs on (Launch.threads). */
#define GPU_MAX_THREADS      256
#define GPU_MAX_THREADS_TEXT "256"
/* The fewest blocks a launch has for Launch.threads_auto to split it. */
#define GPU_AUTO_THREADS_MIN_BLOCKS      256
#define GPU_AUTO_THREADS_MIN_BLOCKS_TEXT "256"

typedef enum {
    SIM_OK,
    SIM_FAULT,      /* a lane faulted (out of bounds, misaligned ...)           */
    SIM_DEADLOCK,   /* bar.sync that can never complete                          */
    SIM_BUDGET,     /* --max-cycles or the instruction budget ran out            */
    SIM_BAD_LAUNCH, /* the launch cannot run on this machine (too big a block)  */
    SIM_INTERNAL    /* the simulator broke one of its own invariants: a bug to
                       report, not a property of the kernel                    */
} SimStatus;

typedef struct {
    SimStatus   status;
    FaultKind   fault;         /* SIM_FAULT from an instruction: its kind (a race
                                  under --racecheck: FAULT_NONE)                */
    char        message[DIAG_MESSAGE_MAX]; /* report for any status but SIM_OK     */
    bool        budget_cycles; /* SIM_BUDGET: the cycle budget ran out (else the
                                  instruction budget)                          */
    KernelStats stats;         /* filled for SIM_OK (partial otherwise)           */
    uint32_t    host_threads;  /* host threads the launch ran on (sim/par.c)      */
} SimResult;

/* A status's name as reports print it: "ok", "fault", "deadlock", "budget",
** "bad_launch", "internal_error" (static strings). */
const char *gpu_status_name(SimStatus s);

/* Simulates the launch on machine c. trace may be NULL (the usual case: the
** stats need no sink; a sink costs time at every issue). Returns true when
** the kernel ran to completion; otherwise r->status/message say why. The
** buffers in launch->gmem hold the kernel's results either way. */
bool gpu_simulate(const GpuConfig *c, const Launch *launch, const TraceSink *trace, SimResult *r);

/* A sequence of launches on one GPU, back to back: each starts when the
** previous one's last block has left and its memory traffic has drained
** (no host gap, no overlap), on the memory system the previous one left:
** the L2's contents and dirty sectors, the DRAM and L2 queues. The L1s
** start empty each launch (the hardware invalidates them between kernels).
** Each launch's cycles and counters are its own, from its start; the first
** launch of a session is timed exactly as gpu_simulate times it. */
typedef struct GpuSession GpuSession;

/* A session on machine c (which must outlive it); NULL when out of memory. */
GpuSession *gpu_session_create(const GpuConfig *c);
void gpu_session_destroy(GpuSession *s);

/* The next launch of the sequence, as gpu_simulate. After a launch that did
** not finish, the session's state is that launch's: end the sequence. */
bool gpu_session_simulate(GpuSession *s, const Launch *launch, const TraceSink *trace, SimResult *r);

#endif

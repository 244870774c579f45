/* isa/grid.h -- functional-only execution of a whole grid: blocks one after
** another, the warps of a block round-robin one instruction at a time,
** bar.sync honoured. No timing. Used by tests as the reference semantics and
** by tools that only need results. Faults, barrier deadlocks and runaway
** kernels end the run with a report instead of crashing or hanging.      */
#ifndef GPUSIM_ISA_GRID_H
#define GPUSIM_ISA_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/exec.h"

typedef struct {
    uint32_t        grid[3], block[3];
    uint32_t        dynamic_smem;            /* bytes of extern shared memory    */
    const uint32_t *params;                  /* kernel->nparams values           */
    uint32_t        nsm;                     /* value of %nsmid                  */
    uint64_t        max_warp_instructions;   /* 0: no limit                      */
    FILE           *printf_out;              /* device printf's text (NULL: none) */
    uint64_t        printf_limit;            /* bytes of it kept (0: EXEC_PRINT_LIMIT) */
    const char     *kernel_file;             /* names the kernel's source in faults (NULL: "?") */
    uint64_t        heap;                    /* the device heap (ExecBlock.heap; 0: none) */
    const ExecTextures *textures;            /* texture and surface objects (NULL: none) */
    uint32_t        shared_reserved;         /* the system's shared memory per
                                                block (sm.shared_reserved), given
                                                to kernels that read it          */
} GridLaunch;

typedef enum { GRID_OK, GRID_FAULT, GRID_DEADLOCK, GRID_BUDGET, GRID_BAD_LAUNCH } GridStatus;

typedef struct {
    GridStatus status;
    FaultKind  fault;               /* GRID_FAULT: what kind                */
    uint64_t   warp_instructions;
    uint64_t   thread_instructions; /* lanes whose guard held, summed over instructions */
    char       message[DIAG_MESSAGE_MAX]; /* report for any status but GRID_OK */
} GridResult;

/* Runs the kernel over the whole grid against gmem. Returns true when every
** block finished; otherwise r->status and r->message say what happened. */
bool grid_run_functional(const Kernel *k, GlobalMem *gmem, const GridLaunch *launch, GridResult *r);

/* The head of a barrier deadlock report, as both runners write it: the
** barrier's .cu line (when nvcc's .loc gives one) and its PTX line, the
** instruction, the kernel and the block, then ": ". Returns its length. */
size_t grid_deadlock_head(const Kernel *k, const char *file, uint32_t bar_pc, const uint32_t ctaid[3], char *buf,
                          size_t cap);

/* Sanitizer-style description of a fault: kind, address, size, nearest
** buffer and offset, pc with its instruction and source line, block and
** thread coordinates. `file` names the kernel source. */
void grid_describe_fault(const Kernel *k, const char *file, const GlobalMem *gmem, const ExecFault *f,
                         const uint32_t ctaid[3], const uint32_t ntid[3], uint32_t warp_in_block,
                         char *buf, size_t cap);

/* The launch limits of every GPU since compute capability 3.0 (CUDA's
** maxThreadsDim and maxGridSize). */
#define GRID_MAX_BLOCK_THREADS 1024u
#define GRID_MAX_BLOCK_DIM_XY  1024u
#define GRID_MAX_BLOCK_DIM_Z   64u
#define GRID_MAX_GRID_DIM_X    2147483647u
#define GRID_MAX_GRID_DIM_YZ   65535u

/* Checks a launch shape against those limits: nonzero dims, at most 1024
** threads a block, each dimension within its limit. Fills msg on failure. */
bool grid_check_launch(const uint32_t grid[3], const uint32_t block[3], char *msg, size_t cap);

#endif

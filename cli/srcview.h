/* cli/srcview.h -- the per-instruction view of a launch (`gpusim run
** --source`, the visualizer's source overlay): the kernel's listing as its
** file has it, comments kept, each instruction under its line with what
** the timing model counted at it (sim/stats.h, PcCounters): warp and
** thread instructions, its share of the kernel's warp cycles and the warp
** states of those cycles, sectors per global request and the L1/L2 hit
** rates of its sectors, shared wavefronts and bank conflicts per request;
** the hottest instructions marked. A PTX kernel's `.loc` lines show the
** CUDA source line they name, and a per-line summary of the CUDA source
** follows its listing (Nsight Compute's Source page). The files are read
** again when the view is made; an unreadable one leaves its lines out and
** says so. Formats: workloads/README.md ("--source").                    */
#ifndef GPUSIM_CLI_SRCVIEW_H
#define GPUSIM_CLI_SRCVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "isa/program.h"
#include "sim/stats.h"

/* How many instructions (and CUDA source lines) are marked #1, #2, ... */
#define SRCVIEW_TOP 5

/* The kernel file's lines and, for PTX, those of the files its .file
** table names (read on first use). */
typedef struct SrcListing SrcListing;

/* A listing of program p, read from kernel_file (the path the workload
** loaded p from); NULL when out of memory. p must outlive it. */
SrcListing *srcview_open(const Program *p, const char *kernel_file);
void srcview_close(SrcListing *l);

/* Line `line` (1-based) of file f (0: the kernel file; k >= 1: the PTX
** .file k), without its line end, *len bytes (not NUL-terminated); NULL
** when the file cannot be read or has no such line. */
const char *srcview_line(SrcListing *l, uint32_t f, uint32_t line, size_t *len);

/* The path of file f as the program names it (kernel_file for 0). */
const char *srcview_file_name(const SrcListing *l, uint32_t f);

/* One launch's counters, as the view reads them. */
typedef struct {
    const Kernel      *k;
    const PcCounters  *pcs;    /* k->ncode entries                           */
    const KernelStats *st;     /* the launch's (its warp cycles)             */
    const char        *title;  /* "tiled", "two_pass, launch 2/2 (reduce_final)" */
    bool               stopped; /* the launch did not finish: counts until then */
} SrcKernel;

/* The few words under an instruction (or a source line's summed counters):
** "cyc 38.2%  inst 1024  thr 32768  wf/req 32.0  bc/req 31.0  mio_throttle 61% ...",
** or "not executed". `in` is NULL for a source line. Returns buf. */
char *srcview_counters(const PcCounters *p, uint64_t kernel_warp_cycles, const Instr *in, char *buf, size_t cap);

/* Rank of each pc by warp cycles (1 = most; 0 = not among the SRCVIEW_TOP
** or no cycles) into rank[k->ncode]. */
void srcview_rank(const SrcKernel *sk, uint8_t *rank);

/* What the counters under each line mean: printed once before the views. */
void srcview_legend(FILE *out);

/* The listing of one launch with its counters (text, 100 columns but for
** the file's own long lines). False when out of memory. */
bool srcview_text(FILE *out, SrcListing *l, const SrcKernel *sk);

/* The same as one JSON object (no trailing newline); `indent` starts each
** instruction's line. */
void srcview_json(FILE *out, SrcListing *l, const SrcKernel *sk, const char *indent);

#endif

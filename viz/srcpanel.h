/* viz/srcpanel.h -- the visualizer's source overlay (key s): the lines of
** the kernel file around the followed warp's current instruction, each
** instruction with its per-instruction counters (cli/srcview.h: the
** figures `gpusim run --source` prints), the current one marked; for a PTX
** kernel, the CUDA source line its .loc names. Pure: text only, no SDL;
** viz/draw.c draws the lines.                                            */
#ifndef GPUSIM_VIZ_SRCPANEL_H
#define GPUSIM_VIZ_SRCPANEL_H

#include <stddef.h>
#include <stdint.h>

#include "cli/srcview.h"
#include "isa/program.h"
#include "sim/stats.h"

typedef enum {
    VSRC_FILE,     /* a line of the kernel file                       */
    VSRC_CURRENT,  /* ... the one holding the current instruction     */
    VSRC_COUNTERS, /* the counters of the instruction above           */
    VSRC_NOTE      /* the CUDA line, or why there is nothing          */
} VsrcKind;

typedef struct {
    VsrcKind kind;
    char     text[240];
} VsrcLine;

/* What the overlay shows for instruction pc of kernel k (pcs: the launch's
** counters, k->ncode entries; warp_cycles: its KernelStats.stall_cycles),
** at most max lines, the current one near the middle. Returns how many.
** l may be NULL (no listing: only the instruction and its counters). */
size_t vsrc_lines(SrcListing *l, const Kernel *k, const PcCounters *pcs, uint64_t warp_cycles, uint32_t pc,
                  VsrcLine *out, size_t max);

#endif

/* viz/drawmem.h -- the visualizer's shared- and global-memory panels (the
** latest access at or before the cycle: words per bank and wavefronts;
** lines, sectors and the bytes used) and the source overlay (key s), for
** vdraw_frame (viz/draw.c).                                               */
#ifndef GPUSIM_VIZ_DRAWMEM_H
#define GPUSIM_VIZ_DRAWMEM_H

#include "viz/draw.h"

void drawmem_shared(VizDraw *d, const VizLayout *L, const VizScene *sc, const VizView *v);
void drawmem_global(VizDraw *d, const VizLayout *L, const VizScene *sc, const VizView *v);
/* Over the memory panels and the timeline, w wide. */
void drawmem_source(VizDraw *d, const VizLayout *L, const VizScene *sc, int w);

#endif

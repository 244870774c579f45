/* viz/draw.h -- the visualizer's picture: five panels drawn onto an
** SDL_Surface (software only, so the window and a headless snapshot get the
** same pixels), their layout, and hit testing for clicks.
**   top bar    workload, variant, machine, cycle counter, play state
**   GPU        every SM with its block slots coloured by wave, waves, blocks
**              resident / waiting / done
**   SM         the chosen SM's schedulers and warp slots: each warp's state
**              this cycle (issuing or its stall reason, one colour each,
**              with a legend) and its active mask as 32 lane cells
**   shared     the latest shared-memory access: words asked of each of the
**              banks (smem.banks: 16, 32 or 64), and the wavefronts it costs
**   global     the latest global access: its 128-byte lines and 32-byte
**              sectors, bytes used vs fetched
**   timeline   IPC and resident warps over the whole run, with the cursor
** Text is DejaVu (SDL2_ttf), sized for a projector. No simulation state
** lives here: everything comes from the VizRec in the VizScene.          */
#ifndef GPUSIM_VIZ_DRAW_H
#define GPUSIM_VIZ_DRAW_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "isa/program.h"
#include "viz/record.h"
#include "viz/srcpanel.h"

#define VDRAW_WIDTH  1600 /* default canvas, the size the layout is designed at */
#define VDRAW_HEIGHT 960

typedef enum { VP_GPU, VP_SM, VP_SHARED, VP_GLOBAL, VP_TIMELINE, VP_COUNT } VizPanel;
extern const char *const VP_NAMES[VP_COUNT]; /* "gpu", "sm", "shared", "global", "timeline" */

/* What is shown: the recording and the names around it. */
typedef struct {
    const VizRec *rec;
    const Kernel *kernel;       /* for disassembling a warp's instruction   */
    const char   *workload, *variant, *gpu;
    uint32_t      smem_banks;   /* the machine's shared-memory banks         */
    bool          all_panels;   /* keep every panel, even one with nothing to show */
    const VsrcLine *src;        /* the source overlay's lines (viz/srcpanel.h) */
    size_t        nsrc;
    const char   *src_title;    /* "Source · warp 5, pc 31 · transpose.asm"    */
} VizScene;

/* Where the viewer is. */
typedef struct {
    uint64_t    cycle;
    int32_t     warp;          /* followed warp slot of the detail SM, -1 none */
    bool        playing, help;
    bool        headless;      /* a snapshot: no hints about keys or clicks */
    bool        source;        /* the source overlay (key s)                */
    double      speed;         /* cycles per second while playing          */
    const char *message;       /* a status line (e.g. "recording SM 4"), or NULL */
} VizView;

typedef struct {
    SDL_Rect top, panel[VP_COUNT];
    double   scale;            /* 1.0 at VDRAW_WIDTH x VDRAW_HEIGHT           */
} VizLayout;

typedef struct VizDraw VizDraw;

/* Opens the fonts (DejaVuSans.ttf, DejaVuSans-Bold.ttf, DejaVuSansMono.ttf)
** from font_dir. Needs TTF_Init. NULL with err filled on failure. */
VizDraw *vdraw_create(const char *font_dir, char *err, size_t cap);
void vdraw_destroy(VizDraw *d);

/* The panels' places on a w x h view of sc (NULL: every panel). A memory
** panel with nothing to show in the whole launch (no shared, or no global,
** access on the detail SM) gives its width to the other one, and when
** neither has anything their row goes to the GPU and SM panels; unless
** sc->all_panels. A panel given away has w = h = 0. */
void vdraw_layout(const VizScene *sc, int w, int h, VizLayout *out);

/* Draws the whole view onto dst (any size; 32-bit ARGB8888). */
void vdraw_frame(VizDraw *d, SDL_Surface *dst, const VizScene *sc, const VizView *v);

/* While log is not NULL, every text drawn is also written to it as
** "text: PANEL: STRING" (gpusim-viz --print-text), and each frame adds
** "sizes: lane_cell=WxH font_px=MIN..MAX": what a check can read of the
** picture. NULL stops it. */
void vdraw_log(VizDraw *d, FILE *log);

typedef enum { VHIT_NONE, VHIT_SM, VHIT_WARP, VHIT_CYCLE } VizHitKind;
typedef struct {
    VizHitKind kind;
    uint64_t   value;          /* SM index, warp slot or cycle              */
} VizHit;

/* What a click at (x, y) on a w x h view lands on. */
VizHit vdraw_hit(const VizScene *sc, int w, int h, int x, int y);

/* Colour of each warp state (StallReason, VREC_EMPTY, VREC_EXITED) as
** 0xRRGGBB, and its legend label. */
uint32_t vdraw_state_rgb(unsigned state);
const char *vdraw_state_label(unsigned state);

#endif

/* viz/draw.c -- the visualizer's panels (see draw.h), drawn with
** SDL_FillRect and blended SDL2_ttf text onto a software surface. Every
** size is the 1600x960 design size times the layout's scale, so the picture
** is the same at any window size. Geometry that clicks need (the SM grid,
** the warp rows, the timeline's x axis) is computed by one function each,
** used by both the drawing and vdraw_hit.                                  */
#include "viz/draw.h"

#include "viz/canvas.h"
#include "viz/drawmem.h"

#include <SDL_ttf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/disasm.h"
#include "isa/opcodes.h"

const char *const VP_NAMES[VP_COUNT] = { "gpu", "sm", "shared", "global", "timeline" };


/* One colour per warp state; chosen to stay apart on a washed-out projector. */
static const uint32_t STATE_RGB[VREC_NSTATES] = {
    [STALL_SELECTED] = 0x2ecc40,           /* issuing: bright green           */
    [STALL_NOT_SELECTED] = 0x8fd9a8,       /* ready: pale green               */
    [STALL_WAIT] = 0xffdc00,               /* fixed latency: yellow           */
    [STALL_LONG_SCOREBOARD] = 0xff4136,    /* global memory: red              */
    [STALL_SHORT_SCOREBOARD] = 0xff851b,   /* shared memory: orange           */
    [STALL_MATH_PIPE_THROTTLE] = 0xb76bff, /* purple                          */
    [STALL_MIO_THROTTLE] = 0xf012be,       /* magenta                         */
    [STALL_LG_THROTTLE] = 0xa0522d,        /* brown                           */
    [STALL_BARRIER] = 0x3d8bff,            /* blue                            */
    [STALL_BRANCH_RESOLVING] = 0x39cccc,   /* teal                            */
    [STALL_DISPATCH_STALL] = 0x85144b,     /* register read ports: maroon     */
    [STALL_SLEEPING] = 0xb0c4de,           /* nanosleep: light steel blue     */
    [STALL_BLOCK_LAUNCH] = 0x9a8c6e,       /* khaki: not started yet          */
    [VREC_EMPTY] = 0x2a2a32,
    [VREC_EXITED] = 0x70707c,
};

uint32_t vdraw_state_rgb(unsigned state)
{
    return state < VREC_NSTATES ? STATE_RGB[state] : C_FAINT;
}

const char *vdraw_state_label(unsigned state)
{
    if (state == STALL_SELECTED) return "issuing";
    if (state < STALL_COUNT) return STALL_NAMES[state];
    if (state == VREC_EMPTY) return "empty slot";
    if (state == VREC_EXITED) return "exited";
    return "?";
}

/* Blocks coloured by the wave they belong to (wave 1, 2, ... cycles). */
static const uint32_t WAVE_RGB[] = { 0x4fa3ff, 0xffa94f, 0x7ee081, 0xe07ee0, 0xf5e050, 0x62d6d6 };
#define NWAVE_RGB (sizeof WAVE_RGB / sizeof WAVE_RGB[0])


void vdraw_log(VizDraw *d, FILE *log) { d->log = log; }


VizDraw *vdraw_create(const char *font_dir, char *err, size_t cap)
{
    VizDraw *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    snprintf(d->dir, sizeof d->dir, "%s", font_dir);
    if (!canvas_open_fonts(d, 1.0, err, cap)) {
        free(d);
        return NULL;
    }
    return d;
}

void vdraw_destroy(VizDraw *d)
{
    if (!d) return;
    canvas_close_fonts(d);
    free(d);
}


/* ------------------------------------------------------------ layout */

void vdraw_layout(const VizScene *sc, int w, int h, VizLayout *L)
{
    uint64_t c;
    bool no_shared = false, no_global = false;
    if (sc && sc->rec && !sc->all_panels) {
        no_shared = !vrec_next_event(sc->rec, VREC_EV_SHARED, -1, 0, true, &c);
        no_global = !vrec_next_event(sc->rec, VREC_EV_GLOBAL, -1, 0, true, &c);
    }
    double sx = (double)w / VDRAW_WIDTH, sy = (double)h / VDRAW_HEIGHT;
    double s = sx < sy ? sx : sy;
    if (s < 0.4) s = 0.4;
    L->scale = s;
    int m = (int)(8 * s + 0.5), top = (int)(58 * s + 0.5);
    L->top = (SDL_Rect){ 0, 0, w, top };
    bool none = no_shared && no_global;
    int avail = h - top - (none ? 3 : 4) * m;
    int hb = none ? 0 : avail * 27 / 100, ha = none ? avail * 78 / 100 : avail * 54 / 100, hc = avail - ha - hb;
    int ya = top + m, yb = ya + ha + m, yc = yb + hb + (none ? 0 : m);
    int wg = (w - 3 * m) * 35 / 100;
    L->panel[VP_GPU] = (SDL_Rect){ m, ya, wg, ha };
    L->panel[VP_SM] = (SDL_Rect){ 2 * m + wg, ya, w - 3 * m - wg, ha };
    int ws = (w - 3 * m) / 2;
    L->panel[VP_SHARED] = (SDL_Rect){ m, yb, ws, hb };
    L->panel[VP_GLOBAL] = (SDL_Rect){ 2 * m + ws, yb, w - 3 * m - ws, hb };
    if (none) L->panel[VP_SHARED] = L->panel[VP_GLOBAL] = (SDL_Rect){ 0, 0, 0, 0 };
    else if (no_shared) {
        L->panel[VP_SHARED] = (SDL_Rect){ 0, 0, 0, 0 };
        L->panel[VP_GLOBAL] = (SDL_Rect){ m, yb, w - 2 * m, hb };
    } else if (no_global) {
        L->panel[VP_GLOBAL] = (SDL_Rect){ 0, 0, 0, 0 };
        L->panel[VP_SHARED] = (SDL_Rect){ m, yb, w - 2 * m, hb };
    }
    L->panel[VP_TIMELINE] = (SDL_Rect){ m, yc, w - 2 * m, hc };
}

/* The GPU panel's grid of SM boxes. */
typedef struct {
    int x0, y0, box, cols, rows;
} GpuGrid;

static void gpu_grid(const VizLayout *L, uint32_t n, GpuGrid *g)
{
    const SDL_Rect *r = &L->panel[VP_GPU];
    double s = L->scale;
    int x = r->x + (int)(10 * s), y = r->y + (int)(64 * s);
    int w = r->w - (int)(20 * s), h = r->h - (int)(64 * s) - (int)(34 * s);
    memset(g, 0, sizeof *g);
    for (uint32_t c = 1; c <= (n ? n : 1); c++) {
        uint32_t rows = (n + c - 1) / c;
        int box = w / (int)c < h / (int)(rows ? rows : 1) ? w / (int)c : h / (int)(rows ? rows : 1);
        if (box > g->box) {
            g->box = box;
            g->cols = (int)c;
            g->rows = (int)rows;
        }
    }
    if (g->box > (int)(90 * s)) g->box = (int)(90 * s);
    g->x0 = x + (w - g->cols * g->box) / 2;
    g->y0 = y;
}

/* The SM panel's warp rows: warps of scheduler q in column group q. */
typedef struct {
    int      x0, y0, colw, rowh, rows, sub; /* sub: columns per scheduler */
    uint32_t nsched, per_sched, slots;
    int      footer_y;
    bool     legend;   /* room for the colour legend under the census: where
                          it would leave the rows too short for their labels,
                          the census (which has the colours of the states
                          there are) stands for it */
} SmGrid;

static void sm_grid(const VizLayout *L, const VizRec *rec, SmGrid *g)
{
    const SDL_Rect *r = &L->panel[VP_SM];
    double s = L->scale;
    const VrecShape *sh = vrec_shape(rec);
    memset(g, 0, sizeof *g);
    g->slots = vrec_warp_slots(rec);
    g->nsched = sh->schedulers ? sh->schedulers : 1;
    g->per_sched = (g->slots + g->nsched - 1) / g->nsched;
    int x = r->x + (int)(10 * s), y = r->y + (int)(66 * s);
    int w = r->w - (int)(20 * s);
    /* the footer: two lines of body text and three of the legend, at the
    ** fonts' sizes (never below VDRAW_MIN_FONT_PX) */
    double body = FONT_SPEC[F_BODY].px * s, small = FONT_SPEC[F_SMALL].px * s;
    if (body < VDRAW_MIN_FONT_PX) body = VDRAW_MIN_FONT_PX;
    if (small < VDRAW_MIN_FONT_PX) small = VDRAW_MIN_FONT_PX;
    int h = 0;
    for (int legend = 1; legend >= 0; legend--) {
        g->legend = legend;
        g->footer_y = r->y + r->h - (int)(2.4 * body + (legend ? 3 * (1.2 * small + 2 * s) : 0) + 12 * s);
        h = g->footer_y - y - (int)(4 * s);
        int minrow = (int)(17 * s) > 4 ? (int)(17 * s) : 4;
        int maxrows = h / minrow > 0 ? h / minrow : 1;
        g->sub = (int)((g->per_sched + (uint32_t)maxrows - 1) / (uint32_t)maxrows);
        if (g->sub < 1) g->sub = 1;
        g->rows = (int)((g->per_sched + (uint32_t)g->sub - 1) / (uint32_t)g->sub);
        if (g->rows < 1) g->rows = 1;
        if (h / g->rows >= (int)(1.25 * small + 0.5)) break; /* a row holds its label */
    }
    g->rowh = h / g->rows;
    if (g->rowh > (int)(34 * s)) g->rowh = (int)(34 * s);
    g->colw = w / (int)(g->nsched * (uint32_t)g->sub);
    g->x0 = x;
    g->y0 = y;
}

static SDL_Rect sm_row_rect(const SmGrid *g, uint32_t warp)
{
    uint32_t q = warp % g->nsched, i = warp / g->nsched;
    int col = (int)q * g->sub + (int)i / g->rows, row = (int)i % g->rows;
    return (SDL_Rect){ g->x0 + col * g->colw, g->y0 + row * g->rowh, g->colw, g->rowh };
}

/* The timeline's plot area. */
static SDL_Rect timeline_plot(const VizLayout *L)
{
    const SDL_Rect *r = &L->panel[VP_TIMELINE];
    double s = L->scale;
    return (SDL_Rect){ r->x + (int)(12 * s), r->y + (int)(36 * s), r->w - (int)(24 * s),
                       r->h - (int)(36 * s) - (int)(24 * s) };
}

static bool inside(const SDL_Rect *r, int x, int y)
{
    return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;
}

VizHit vdraw_hit(const VizScene *sc, int w, int h, int x, int y)
{
    VizHit hit = { VHIT_NONE, 0 };
    VizLayout L;
    vdraw_layout(sc, w, h, &L);
    const VrecShape *sh = vrec_shape(sc->rec);
    if (inside(&L.panel[VP_GPU], x, y)) {
        GpuGrid g;
        gpu_grid(&L, sh->sm_count, &g);
        if (g.box <= 0 || x < g.x0 || y < g.y0) return hit;
        int c = (x - g.x0) / g.box, r = (y - g.y0) / g.box;
        uint32_t sm = (uint32_t)(r * g.cols + c);
        if (c < g.cols && r < g.rows && sm < sh->sm_count) hit = (VizHit){ VHIT_SM, sm };
    } else if (inside(&L.panel[VP_SM], x, y)) {
        SmGrid g;
        sm_grid(&L, sc->rec, &g);
        for (uint32_t wp = 0; wp < g.slots; wp++) {
            SDL_Rect rr = sm_row_rect(&g, wp);
            if (inside(&rr, x, y)) return (VizHit){ VHIT_WARP, wp };
        }
    } else {
        SDL_Rect p = timeline_plot(&L);
        p.y -= (int)(12 * L.scale);
        p.h += (int)(24 * L.scale);
        if (inside(&p, x, y) && p.w > 0) {
            uint64_t end = vrec_end(sc->rec);
            hit = (VizHit){ VHIT_CYCLE, (uint64_t)((double)(x - p.x) / p.w * (double)end) };
        }
    }
    return hit;
}

/* ------------------------------------------------------------ top bar */

static void draw_top(VizDraw *d, const VizLayout *L, const VizScene *sc, const VizView *v)
{
    const SDL_Rect *r = &L->top;
    canvas_fill(d, r->x, r->y, r->w, r->h, 0x0e0e14);
    canvas_fill(d, r->x, r->y + r->h - 1, r->w, 1, C_EDGE);
    int y = r->y + (r->h - canvas_font_h(d, F_TITLE)) / 2;
    int x = r->x + canvas_s(d, 14);
    x += canvas_text(d, F_TITLE, x, y, AL_LEFT, C_TEXT, "%s · %s", sc->workload, sc->variant);
    char a[32], b[32], status[160], gpu[200];
    int wc = canvas_text(d, F_TITLE, r->x + r->w - canvas_s(d, 14), y, AL_RIGHT, C_TEXT, "cycle %s / %s",
                         canvas_commas(a, sizeof a, v->cycle), canvas_commas(b, sizeof b, vrec_end(sc->rec)));
    int xr = r->x + r->w - canvas_s(d, 14) - wc - canvas_s(d, 30);
    uint32_t color = v->message ? C_WARN : v->playing ? C_GOOD : C_DIM;
    if (v->message) snprintf(status, sizeof status, "%s", v->message);
    else if (v->headless) status[0] = 0;
    else if (v->playing) snprintf(status, sizeof status, "▶ playing, %g cycles/s   h: help", v->speed);
    else snprintf(status, sizeof status, "paused (space: play, %g cycles/s)   h: help", v->speed);
    canvas_text(d, F_BODY, xr, y + canvas_s(d, 8), AL_RIGHT, color, "%s", status);
    /* the machine between the two, when it fits (a long variant label, as a
    ** launch of several gives, leaves it out rather than overprint) */
    snprintf(gpu, sizeof gpu, "on %s", sc->gpu);
    if (x + canvas_s(d, 14) + canvas_text_w(d, F_BODY, gpu) + canvas_s(d, 14) <= xr - canvas_text_w(d, F_BODY, status))
        canvas_text(d, F_BODY, x + canvas_s(d, 14), y + canvas_s(d, 8), AL_LEFT, C_DIM, "%s", gpu);
}

/* ------------------------------------------------------------ GPU panel */

static void draw_gpu(VizDraw *d, const VizLayout *L, const VizScene *sc, const VizView *v)
{
    const SDL_Rect *r = &L->panel[VP_GPU];
    const VrecShape *sh = vrec_shape(sc->rec);
    char title[96];
    snprintf(title, sizeof title, "GPU · %u SMs · %u block slots each", sh->sm_count, sh->blocks_per_sm);
    int y = canvas_panel(d, r, title);
    VrecGpuNow now;
    vrec_gpu_at(sc->rec, v->cycle, &now);
    char a[32], b[32], c[32];
    canvas_text(d, F_BODY, r->x + canvas_s(d, 12), y, AL_LEFT, C_TEXT, "wave %u of %u · %s resident · %s waiting · %s done", now.wave,
                now.waves, canvas_commas(a, sizeof a, now.started - now.done), canvas_commas(b, sizeof b, now.waiting),
                canvas_commas(c, sizeof c, now.done));
    GpuGrid g;
    gpu_grid(L, sh->sm_count, &g);
    int64_t slots[256];
    uint32_t bps = sh->blocks_per_sm < 256 ? sh->blocks_per_sm : 256;
    int sc2 = 1;
    while ((uint32_t)(sc2 * sc2) < bps) sc2++;
    int srows = (int)((bps + (uint32_t)sc2 - 1) / (uint32_t)sc2);
    int gap = g.box >= canvas_s(d, 24) ? canvas_s(d, 3) : 1;
    bool label = g.box >= canvas_s(d, 40);
    int lab_h = label ? canvas_font_h(d, F_SMALL) : 0;
    for (uint32_t sm = 0; sm < sh->sm_count; sm++) {
        int bx = g.x0 + (int)(sm % (uint32_t)g.cols) * g.box, by = g.y0 + (int)(sm / (uint32_t)g.cols) * g.box;
        int inner = g.box - 2 * gap;
        canvas_fill(d, bx + gap, by + gap, inner, inner, 0x2e2e3a);
        vrec_sm_blocks_at(sc->rec, sm, v->cycle, slots);
        int cx = bx + gap + 2, cy = by + gap + 2 + lab_h, cw = inner - 4, ch = inner - 4 - lab_h;
        for (uint32_t s = 0; s < bps; s++) {
            int col = (int)s % sc2, row = (int)s / sc2;
            int x0 = cx + col * cw / sc2, x1 = cx + (col + 1) * cw / sc2;
            int y0 = cy + row * ch / srows, y1 = cy + (row + 1) * ch / srows;
            uint32_t rgb = slots[s] < 0 ? 0x1c1c24 : WAVE_RGB[vrec_wave_of(sc->rec, (uint64_t)slots[s]) % NWAVE_RGB];
            canvas_fill(d, x0, y0, x1 - x0 - (sc2 > 1), y1 - y0 - (srows > 1), rgb);
        }
        if (label) canvas_text(d, F_SMALL, bx + gap + 3, by + gap + 1, AL_LEFT, C_DIM, "%u", sm);
        if (sm == sh->detail_sm) canvas_frame(d, bx, by, g.box, g.box, gap > 1 ? gap : 2, C_SELECT);
    }
    /* legend: wave colours */
    int ly = r->y + r->h - canvas_s(d, 30), lx = r->x + canvas_s(d, 12);
    lx += canvas_text(d, F_SMALL, lx, ly + canvas_s(d, 4), AL_LEFT, C_DIM, "blocks by wave:") + canvas_s(d, 8);
    uint32_t nw = now.waves < NWAVE_RGB ? now.waves : (uint32_t)NWAVE_RGB;
    for (uint32_t i = 0; i < nw; i++) {
        canvas_fill(d, lx, ly + canvas_s(d, 6), canvas_s(d, 16), canvas_s(d, 16), WAVE_RGB[i]);
        lx += canvas_s(d, 20);
        lx += canvas_text(d, F_SMALL, lx, ly + canvas_s(d, 4), AL_LEFT, C_DIM, "%u%s", i + 1,
                          i + 1 == nw && now.waves > nw ? "…" : "") + canvas_s(d, 10);
    }
    if (!v->headless) canvas_text(d, F_SMALL, r->x + r->w - canvas_s(d, 12), ly + canvas_s(d, 4), AL_RIGHT, C_DIM, "click an SM to open it");
}

/* ------------------------------------------------------------ SM panel */

/* A warp's 32 lanes in one row, or in two rows of 16 when one row would
** make cells narrower than VDRAW_MIN_LANE_PX and the row has 12 px. */
#define VDRAW_MIN_LANE_PX 6
static void lane_cells(VizDraw *d, int x, int y, int w, int h, const VrecWarpNow *wn)
{
    int per_row = w / 32 < VDRAW_MIN_LANE_PX && h >= 12 ? 16 : 32;
    if (per_row == 32) y += 1, h -= 2; /* a pixel above and below the row */
    int cw = w / per_row, rh = per_row == 16 ? h / 2 : h;
    if (cw < 1) cw = 1;
    int g = cw >= 4 ? 1 : 0, gv = per_row == 16 ? 1 : 0;
    if (!d->lane_w || cw - g < d->lane_w) d->lane_w = cw - g, d->lane_h = rh - gv;
    if (wn->state == VREC_EXITED) { /* no lanes any more: one dim bar, not its last mask */
        canvas_fill(d, x, y + h / 3, cw * per_row - g, h - 2 * (h / 3) > 1 ? h - 2 * (h / 3) : 1, vdraw_state_rgb(VREC_EXITED));
        return;
    }
    if (!wn->has_issue) { /* not started: no mask yet, so no cells (dark ones would read as masked off) */
        canvas_fill(d, x, y + h / 2, cw * per_row - g, 1, C_EDGE);
        return;
    }
    for (int l = 0; l < 32; l++) {
        uint32_t rgb = C_CELL_OFF;
        if (wn->exec >> l & 1) rgb = 0xeeeeee;
        else if (wn->active >> l & 1) rgb = 0x8a8a96;
        canvas_fill(d, x + l % per_row * cw, y + l / per_row * rh, cw - g, rh - gv, rgb);
    }
}

/* One warp slot's row of the SM panel: its label, its state's swatch and
** its lanes; `followed` frames it. */
static void warp_row(VizDraw *d, SDL_Rect rr, uint32_t w, const VrecWarpNow *wn, bool followed, int lw)
{
    int pad = rr.h > canvas_s(d, 12) ? canvas_s(d, 2) : 0;
    if (followed) {
        canvas_fill(d, rr.x, rr.y, rr.w - canvas_s(d, 6), rr.h, 0x44445e);
        canvas_frame(d, rr.x, rr.y, rr.w - canvas_s(d, 6), rr.h, 2, C_SELECT);
    }
    bool small = rr.h < canvas_font_h(d, F_SMALL);
    if (!small)
        canvas_text(d, F_SMALL, rr.x + canvas_s(d, 4), rr.y + (rr.h - canvas_font_h(d, F_SMALL)) / 2, AL_LEFT,
                    wn->issuing ? C_TEXT : C_DIM, "w%u", w);
    /* the margins, then the state swatch (to 10), narrow before the
    ** lanes get under 7 px a cell in rows of 16 */
    int sx = rr.x + (small ? canvas_s(d, 2) : lw), sw = canvas_s(d, 26), gap = canvas_s(d, 8), margin = canvas_s(d, 14);
    int short_by = 16 * 7 - (rr.w - (sx - rr.x) - sw - gap - margin);
    if (short_by > 0) {
        int m = margin - 4 < short_by ? margin - 4 : short_by;
        margin -= m, short_by -= m;
        int gv = gap - 3 < short_by ? gap - 3 : short_by;
        gap -= gv, short_by -= gv;
    }
    if (short_by > 0) sw = sw - short_by > canvas_s(d, 10) ? sw - short_by : canvas_s(d, 10);
    canvas_fill(d, sx, rr.y + pad, sw, rr.h - 2 * pad, vdraw_state_rgb(wn->state));
    if (wn->issuing) canvas_frame(d, sx, rr.y + pad, sw, rr.h - 2 * pad, 2, C_SELECT);
    int cx = sx + sw + gap, cw = rr.w - (cx - rr.x) - margin;
    if (wn->state != VREC_EMPTY) lane_cells(d, cx, rr.y + pad, cw, rr.h - 2 * pad, wn);
}

static void draw_sm(VizDraw *d, const VizLayout *L, const VizScene *sc, const VizView *v)
{
    const SDL_Rect *r = &L->panel[VP_SM];
    const VrecShape *sh = vrec_shape(sc->rec);
    SmGrid g;
    sm_grid(L, sc->rec, &g);
    char title[160];
    snprintf(title, sizeof title, "SM %u · %u schedulers · %u warp slots (%u blocks × %u warps)", sh->detail_sm,
             g.nsched, g.slots, sh->blocks_per_sm, sh->warps_per_block);
    int y = canvas_panel(d, r, title);
    uint32_t counts[VREC_NSTATES] = { 0 };
    for (uint32_t q = 0; q < g.nsched; q++)
        canvas_text(d, F_SMALL, g.x0 + (int)q * g.sub * g.colw + canvas_s(d, 4), y + canvas_s(d, 2), AL_LEFT, C_DIM, "scheduler %u", q);
    for (uint32_t q = 1; q < g.nsched; q++)
        canvas_fill(d, g.x0 + (int)q * g.sub * g.colw - canvas_s(d, 3), y, 1, g.footer_y - y, C_EDGE);
    int lw = canvas_text_w(d, F_SMALL, "w00") + canvas_s(d, 4);
    for (uint32_t w = 0; w < g.slots; w++) {
        VrecWarpNow wn;
        vrec_warp_at(sc->rec, w, v->cycle, &wn);
        counts[wn.state < VREC_NSTATES ? wn.state : VREC_EMPTY]++;
        warp_row(d, sm_row_rect(&g, w), w, &wn, (int32_t)w == v->warp, lw);
    }
    /* footer: the followed warp, or a census of this cycle */
    int fy = g.footer_y, fx = r->x + canvas_s(d, 12);
    canvas_fill(d, r->x + 1, fy, r->w - 2, 1, C_EDGE);
    fy += canvas_s(d, 4);
    if (v->warp >= 0 && (uint32_t)v->warp < g.slots) {
        VrecWarpNow wn;
        vrec_warp_at(sc->rec, (uint32_t)v->warp, v->cycle, &wn);
        int x = fx + canvas_text(d, F_BODY, fx, fy, AL_LEFT, C_TEXT, "warp %d", v->warp);
        if (wn.block_id >= 0)
            x += canvas_text(d, F_BODY, x, fy, AL_LEFT, C_TEXT, " · block %lld, its warp %u · %llu issues · ",
                             (long long)wn.block_id, (uint32_t)v->warp % (sh->warps_per_block ? sh->warps_per_block : 1),
                             (unsigned long long)wn.issues);
        else
            x += canvas_text(d, F_BODY, x, fy, AL_LEFT, C_TEXT, " · ");
        canvas_fill(d, x, fy + canvas_s(d, 3), canvas_s(d, 16), canvas_s(d, 16), vdraw_state_rgb(wn.state));
        x += canvas_s(d, 20);
        canvas_text(d, F_BODY, x, fy, AL_LEFT, C_TEXT, "%s%s%s", vdraw_state_label(wn.state),
                    wn.state < STALL_COUNT && wn.state != STALL_SELECTED ? ": " : "",
                    wn.state < STALL_COUNT && wn.state != STALL_SELECTED ? STALL_HELP[wn.state] : "");
        fy += canvas_font_h(d, F_BODY);
        if (wn.has_issue && sc->kernel && wn.pc < sc->kernel->ncode) {
            char dis[160];
            disasm_instr(sc->kernel, &sc->kernel->code[wn.pc], dis, sizeof dis);
            canvas_text(d, F_MONO, fx, fy, AL_LEFT, C_TEXT, "%s pc %u: %s   mask %08x (%d lanes)%s",
                        wn.issuing ? "now" : "last", wn.pc, dis, wn.active, __builtin_popcount(wn.active),
                        wn.diverged ? "  diverged" : "");
        } else {
            canvas_text(d, F_MONO, fx, fy, AL_LEFT, C_DIM, "no instruction issued yet");
        }
    } else {
        /* the census in body text, or small text when that does not fit */
        char item[VREC_NSTATES][64];
        int font = F_BODY;
        for (int pass = 0; pass < 2; pass++) {
            int need = canvas_text_w(d, font, "this cycle:");
            for (unsigned s = 0; s < VREC_NSTATES; s++) {
                if (!counts[s] || s == VREC_EMPTY) continue;
                snprintf(item[s], sizeof item[s], "%u %s", counts[s], vdraw_state_label(s));
                need += canvas_s(d, 32) + canvas_text_w(d, font, item[s]);
            }
            if (fx + need <= r->x + r->w - canvas_s(d, 8)) break;
            font = F_SMALL;
        }
        int x = fx + canvas_text(d, font, fx, fy, AL_LEFT, C_TEXT, "this cycle:");
        bool wrapped = false;
        for (unsigned s = 0; s < VREC_NSTATES; s++) {
            if (!counts[s] || s == VREC_EMPTY) continue;
            int need = canvas_s(d, 32) + canvas_text_w(d, font, item[s]);
            if (x + need > r->x + r->w - canvas_s(d, 8)) { /* never clipped: on to a second line */
                x = fx;
                fy += canvas_font_h(d, font);
                wrapped = true;
            }
            x += canvas_s(d, 12);
            canvas_fill(d, x, fy + canvas_s(d, 3), canvas_s(d, 16), canvas_s(d, 16), vdraw_state_rgb(s));
            x += canvas_s(d, 20);
            x += canvas_text(d, font, x, fy, AL_LEFT, C_TEXT, "%s", item[s]);
        }
        fy += canvas_font_h(d, F_BODY);
        if (!wrapped) /* the second line went to the census */
            canvas_text(d, F_BODY, fx, fy, AL_LEFT, C_DIM,
                        "lanes: white = active, grey = guard false, dark = masked off, a line = not started%s",
                        v->headless ? "" : " · click a warp to follow it");
    }
    fy += canvas_font_h(d, F_BODY) + canvas_s(d, 4);
    if (!g.legend) return;
    /* legend: state colours, in flowing rows; left out whole when its rows
    ** would pass the panel's foot (the census names the states there are) */
    int x = fx, rows = 1, row_h = canvas_font_h(d, F_SMALL) + canvas_s(d, 2);
    for (unsigned s = 0; s < VREC_NSTATES; s++) {
        int need = canvas_s(d, 22) + canvas_text_w(d, F_SMALL, vdraw_state_label(s)) + canvas_s(d, 14);
        if (x + need > r->x + r->w - canvas_s(d, 8)) x = fx, rows++;
        x += need;
    }
    if (fy + rows * row_h > r->y + r->h - canvas_s(d, 2)) return;
    x = fx;
    for (unsigned s = 0; s < VREC_NSTATES; s++) {
        const char *lab = vdraw_state_label(s);
        int need = canvas_s(d, 22) + canvas_text_w(d, F_SMALL, lab) + canvas_s(d, 14);
        if (x + need > r->x + r->w - canvas_s(d, 8)) {
            x = fx;
            fy += canvas_font_h(d, F_SMALL) + canvas_s(d, 2);
        }
        canvas_fill(d, x, fy + canvas_s(d, 2), canvas_s(d, 16), canvas_s(d, 14), vdraw_state_rgb(s));
        canvas_text(d, F_SMALL, x + canvas_s(d, 20), fy, AL_LEFT, C_DIM, "%s", lab);
        x += need;
    }
}


/* ------------------------------------------------------------ timeline */

static void draw_timeline(VizDraw *d, const VizLayout *L, const VizScene *sc, const VizView *v)
{
    const SDL_Rect *r = &L->panel[VP_TIMELINE];
    canvas_panel(d, r, "Timeline");
    SDL_Rect p = timeline_plot(L);
    VrecTimeline tl;
    vrec_timeline(sc->rec, &tl);
    const VrecShape *sh = vrec_shape(sc->rec);
    uint64_t end = vrec_end(sc->rec);
    double cap = (double)sh->sm_count * vrec_warp_slots(sc->rec);
    canvas_fill(d, p.x, p.y, p.w, p.h, 0x1a1a22);
    if (!end || p.w <= 0 || p.h <= 0) return;
    /* Per pixel column: IPC and resident-warp fraction averaged over a
    ** window of at least 1/120 of the run (a single cycle's IPC is 0 or a
    ** burst; the average is what the eye should compare). Prefix sums over
    ** the buckets make each window O(1). */
    uint64_t *pis = d->pis, *pwc = d->pwc;
    uint32_t nb = tl.nbuckets < VREC_BUCKETS ? tl.nbuckets : VREC_BUCKETS;
    pis[0] = pwc[0] = 0;
    for (uint32_t b = 0; b < nb; b++) {
        pis[b + 1] = pis[b] + tl.issues[b];
        pwc[b + 1] = pwc[b] + tl.warp_cycles[b];
    }
    double maxipc = 0;
    int n = p.w < VDRAW_MAX_COLUMNS ? p.w : VDRAW_MAX_COLUMNS;
    double *ipc = d->ipc, *occ = d->occ;
    uint64_t half = end / 240 > tl.width / 2 ? end / 240 : tl.width / 2;
    for (int x = 0; x < n; x++) {
        uint64_t c = end * (2 * (uint64_t)x + 1) / (2 * (uint64_t)n);
        uint64_t c0 = c > half ? c - half : 0, c1 = c + half + 1 < end ? c + half + 1 : end;
        uint64_t b0 = c0 / tl.width, b1 = (c1 + tl.width - 1) / tl.width;
        if (b1 > nb) b1 = nb;
        if (b0 >= b1) b0 = b1 ? b1 - 1 : 0;
        uint64_t lo = b0 * tl.width, hi = b1 * tl.width < end ? b1 * tl.width : end;
        double cyc = hi > lo ? (double)(hi - lo) : 1;
        ipc[x] = (double)(pis[b1] - pis[b0]) / cyc;
        occ[x] = cap > 0 ? (double)(pwc[b1] - pwc[b0]) / cyc / cap : 0;
        if (ipc[x] > maxipc) maxipc = ipc[x];
    }
    for (int x = 0; x < n; x++) {
        int h = maxipc > 0 ? (int)(ipc[x] / maxipc * (p.h - 2)) : 0;
        canvas_fill(d, p.x + x * p.w / n, p.y + p.h - h, p.w / n > 1 ? p.w / n : 1, h, 0x3570b8);
    }
    int prev = -1;
    for (int x = 0; x < n; x++) {
        double o = occ[x] > 1 ? 1 : occ[x];
        int yy = p.y + p.h - 2 - (int)(o * (p.h - 4));
        int a = prev < 0 ? yy : prev, lo = a < yy ? a : yy, hi = a < yy ? yy : a;
        canvas_fill(d, p.x + x * p.w / n, lo, 2, hi - lo + 2, 0xffdc00);
        prev = yy;
    }
    uint64_t dend = vrec_detail_end(sc->rec);
    if (dend < end) {
        int xd = p.x + (int)((double)dend / end * p.w);
        canvas_fill(d, xd, p.y, p.x + p.w - xd, canvas_s(d, 4), C_BAD);
        canvas_text(d, F_SMALL, xd + canvas_s(d, 4), p.y + canvas_s(d, 4), AL_LEFT, C_BAD, "SM detail not recorded past cycle %llu",
                    (unsigned long long)dend);
    }
    int cx = p.x + (int)((double)v->cycle / end * (p.w - 1));
    canvas_fill(d, cx - 1, p.y - canvas_s(d, 4), 3, p.h + canvas_s(d, 8), C_CURSOR);
    /* labels */
    int ly = p.y + p.h + canvas_s(d, 2);
    canvas_text(d, F_SMALL, p.x, ly, AL_LEFT, C_DIM, "0");
    char a[32];
    canvas_text(d, F_SMALL, p.x + p.w, ly, AL_RIGHT, C_DIM, "%s cycles", canvas_commas(a, sizeof a, end));
    int lx = r->x + r->w - canvas_s(d, 12), ty = r->y + canvas_s(d, 9);
    lx -= canvas_text(d, F_SMALL, lx, ty, AL_RIGHT, C_DIM, "resident warps (%% of GPU)") + canvas_s(d, 22);
    canvas_fill(d, lx, ty + canvas_s(d, 7), canvas_s(d, 16), canvas_s(d, 3), 0xffdc00);
    lx -= canvas_s(d, 18);
    lx -= canvas_text(d, F_SMALL, lx, ty, AL_RIGHT, C_DIM, "IPC, all SMs (max %.1f warp instr/cycle)", maxipc) + canvas_s(d, 22);
    canvas_fill(d, lx, ty + canvas_s(d, 3), canvas_s(d, 16), canvas_s(d, 12), 0x3570b8);
    if (!v->headless) canvas_text(d, F_SMALL, r->x + canvas_s(d, 24) + canvas_text_w(d, F_HEAD, "Timeline"), ty, AL_LEFT, C_DIM, "click to jump");
}

/* ------------------------------------------------------------ help */

static void draw_help(VizDraw *d, int w, int h)
{
    static const char *const KEYS[][2] = {
        { "space", "play / pause" },
        { "→  ←", "next / previous instruction issued on this SM" },
        { "shift + →  ←", "one cycle forward / back" },
        { "↑  ↓", "play faster / slower" },
        { "Home  End", "first / last cycle" },
        { "m  M", "next / previous shared-memory access" },
        { "g  G", "next / previous global-memory access" },
        { "f", "m and g: any access, loads only, stores only" },
        { "d", "next divergent branch" },
        { "s", "the source: the warp's instruction with its counters" },
        { "click", "an SM to open it, a warp to follow it, the timeline to jump" },
        { "[  ]", "previous / next SM" },
        { "Esc", "stop following the warp" },
        { "v", "next variant of the workload" },
        { "l", "next launch of a variant of several" },
        { "h", "this help" },
        { "q", "quit" },
    };
    int n = (int)(sizeof KEYS / sizeof KEYS[0]);
    int lh = canvas_font_h(d, F_BODY) + canvas_s(d, 4);
    int bw = canvas_s(d, 860), bh = canvas_s(d, 70) + n * lh + canvas_s(d, 20);
    int x = (w - bw) / 2, y = (h - bh) / 2;
    canvas_fill(d, x, y, bw, bh, 0x101018);
    canvas_frame(d, x, y, bw, bh, 3, C_SELECT);
    canvas_text(d, F_TITLE, x + canvas_s(d, 24), y + canvas_s(d, 16), AL_LEFT, C_TEXT, "Keys");
    int yy = y + canvas_s(d, 70);
    for (int i = 0; i < n; i++) {
        canvas_text(d, F_BODY, x + canvas_s(d, 40), yy, AL_LEFT, C_WARN, "%s", KEYS[i][0]);
        canvas_text(d, F_BODY, x + canvas_s(d, 260), yy, AL_LEFT, C_TEXT, "%s", KEYS[i][1]);
        yy += lh;
    }
}


/* ------------------------------------------------------------ frame */

void vdraw_frame(VizDraw *d, SDL_Surface *dst, const VizScene *sc, const VizView *v)
{
    VizLayout L;
    vdraw_layout(sc, dst->w, dst->h, &L);
    if (L.scale != d->scale) {
        char err[256];
        if (!canvas_open_fonts(d, L.scale, err, sizeof err)) canvas_open_fonts(d, d->scale, err, sizeof err);
    }
    d->dst = dst;
    d->s = L.scale;
    d->lane_w = d->lane_h = 0;
    memset(d->used, 0, sizeof d->used);
    canvas_fill(d, 0, 0, dst->w, dst->h, C_BG);
    typedef void (*PanelFn)(VizDraw *, const VizLayout *, const VizScene *, const VizView *);
    static const PanelFn PANELS[VP_COUNT] = { draw_gpu, draw_sm, drawmem_shared, drawmem_global, draw_timeline };
    for (int i = 0; i < VP_COUNT; i++) {
        if (L.panel[i].w <= 0 || L.panel[i].h <= 0) continue; /* nothing to show: no room */
        SDL_SetClipRect(dst, &L.panel[i]);
        d->where = VP_NAMES[i];
        PANELS[i](d, &L, sc, v);
    }
    SDL_SetClipRect(dst, &L.top);
    d->where = "top";
    draw_top(d, &L, sc, v);
    SDL_SetClipRect(dst, NULL);
    d->where = "source";
    if (v->source) drawmem_source(d, &L, sc, dst->w);
    d->where = "help";
    if (v->help && !v->headless) draw_help(d, dst->w, dst->h);
    if (d->log) {
        int lo = 0, hi = 0;
        for (int i = 0; i < F_COUNT; i++)
            if (d->used[i]) {
                if (!lo || d->px[i] < lo) lo = d->px[i];
                if (d->px[i] > hi) hi = d->px[i];
            }
        fprintf(d->log, "sizes: lane_cell=%dx%d font_px=%d..%d\n", d->lane_w, d->lane_h, lo, hi);
    }
    d->dst = NULL;
}

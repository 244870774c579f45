/* viz/drawmem.c -- the visualizer's memory panels and source overlay (see
** drawmem.h), drawn with viz/canvas.h.                                    */
#include "viz/drawmem.h"

#include "isa/disasm.h"
#include "viz/canvas.h"

/* ------------------------------------------------------------ shared */

/* The memory panels' first line when the detail SM has no access of their
** kind yet ("no global access yet on SM 3 by this warp"). */
static void no_access_yet(VizDraw *d, const VizScene *sc, const VizView *v, int x, int y, const char *kind)
{
    canvas_text(d, F_BODY, x, y, AL_LEFT, C_DIM, "no %s access yet on SM %u%s", kind, vrec_shape(sc->rec)->detail_sm,
                v->warp >= 0 ? " by this warp" : "");
}

/* The memory panels' first line for an access: its instruction, warp, cycle
** (dimmed when it is not this cycle's) and lanes. Returns the next line's y. */
static int access_header(VizDraw *d, const VizScene *sc, const VizView *v, int x, int y, uint32_t pc, uint32_t warp,
                         uint64_t cycle, uint32_t mask)
{
    char mn[48] = "";
    if (sc->kernel && pc < sc->kernel->ncode) disasm_mnemonic(&sc->kernel->code[pc], mn, sizeof mn);
    canvas_text(d, F_BODY, x, y, AL_LEFT, cycle == v->cycle ? C_TEXT : C_DIM, "%s by warp %u at cycle %llu%s · %d lanes", mn, warp,
                (unsigned long long)cycle, cycle == v->cycle ? " (now)" : "", __builtin_popcount(mask));
    return y + canvas_font_h(d, F_BODY);
}

void drawmem_shared(VizDraw *d, const VizLayout *L, const VizScene *sc, const VizView *v)
{
    const SDL_Rect *r = &L->panel[VP_SHARED];
    const VrecShared *a = vrec_shared_at(sc->rec, v->warp, v->cycle);
    char title[64];
    snprintf(title, sizeof title, "Shared memory · %u banks × 4 B", a ? a->banks : sc->smem_banks);
    int y = canvas_panel(d, r, title);
    int x0 = r->x + canvas_s(d, 12);
    if (!a || a->banks == 0) {
        no_access_yet(d, sc, v, x0, y, "shared-memory");
        return;
    }
    y = access_header(d, sc, v, x0, y, a->pc, a->warp, a->cycle, a->mask) + canvas_s(d, 4);
    /* one column per bank of the machine: 16, 32 or 64 (smem.banks) */
    const int nb = a->banks;
    uint32_t maxw = 0, phases = a->phases ? a->phases : 1; /* a float4 asks each bank once a phase */
    for (int b = 0; b < nb; b++)
        if (a->bank_words[b] > maxw) maxw = a->bank_words[b];
    uint32_t scale = maxw > 32 ? maxw : 32;
    int cw = (r->w * 64 / 100) / nb, lab = canvas_font_h(d, F_SMALL);
    int ch = r->y + r->h - y - lab - canvas_s(d, 8);
    if (ch < 8) ch = 8;
    int base = y + ch;
    canvas_fill(d, x0, base, cw * nb, 1, C_FAINT);
    for (int b = 0; b < nb; b++) {
        uint32_t n = a->bank_words[b];
        uint32_t rgb = n <= phases ? C_GOOD : n < 8 * phases ? C_WARN : C_BAD;
        int bx = x0 + b * cw;
        canvas_fill(d, bx, y, cw - 1, ch, 0x26262e);
        for (uint32_t k = 0; k < n; k++) {
            int y1 = base - (int)((uint64_t)k * (uint32_t)ch / scale), y0 = base - (int)((uint64_t)(k + 1) * (uint32_t)ch / scale);
            int gap = y1 - y0 >= 4 ? 1 : 0;
            canvas_fill(d, bx + 1, y0, cw - 3, y1 - y0 - gap, rgb);
        }
        if (b % (nb / 8) == 0 || cw >= canvas_s(d, 24)) canvas_text(d, F_SMALL, bx + cw / 2, base + canvas_s(d, 2), AL_CENTER, C_DIM, "%d", b);
    }
    /* the verdict, big */
    int tx = x0 + cw * nb + canvas_s(d, 24), ty = r->y + canvas_s(d, 44);
    uint32_t rgb = a->wavefronts <= phases ? C_GOOD : C_BAD;
    canvas_text(d, F_BIG, tx, ty, AL_LEFT, rgb, "%u", a->wavefronts);
    ty += canvas_font_h(d, F_BIG);
    canvas_text(d, F_HEAD, tx, ty, AL_LEFT, rgb, "wavefront%s", a->wavefronts == 1 ? "" : "s");
    ty += canvas_font_h(d, F_HEAD) + canvas_s(d, 4);
    if (a->wavefronts > phases)
        canvas_text(d, F_BODY, tx, ty, AL_LEFT, C_TEXT, "%u-way bank conflict", (a->wavefronts + phases - 1) / phases);
    else
        canvas_text(d, F_BODY, tx, ty, AL_LEFT, C_TEXT, "no bank conflict");
    ty += canvas_font_h(d, F_BODY);
    if (a->kind == ACCESS_ATOMIC) { /* an atomic to one word serializes its lanes, whatever the banks say */
        uint32_t words = 0, lanes = (uint32_t)__builtin_popcount(a->mask);
        for (int b = 0; b < nb; b++) words += a->bank_words[b];
        canvas_text(d, F_BODY, tx, ty, AL_LEFT, C_ATOMIC, "atomic: %u lane%s, %u word%s", lanes, lanes == 1 ? "" : "s",
                    words, words == 1 ? "" : "s");
        ty += canvas_font_h(d, F_BODY);
        if (words < lanes) {
            canvas_text(d, F_SMALL, tx, ty, AL_LEFT, C_ATOMIC, "lanes on one word serialize");
            ty += canvas_font_h(d, F_SMALL);
        }
    }
    canvas_text(d, F_SMALL, tx, ty, AL_LEFT, C_DIM, "bar height: distinct words");
    ty += canvas_font_h(d, F_SMALL);
    canvas_text(d, F_SMALL, tx, ty, AL_LEFT, C_DIM, "asked of each bank");
}

/* ------------------------------------------------------------ global */

void drawmem_global(VizDraw *d, const VizLayout *L, const VizScene *sc, const VizView *v)
{
    const SDL_Rect *r = &L->panel[VP_GLOBAL];
    int y = canvas_panel(d, r, "Global memory · 128-B lines, 32-B sectors");
    const VrecGlobal *a = vrec_global_at(sc->rec, v->warp, v->cycle);
    int x0 = r->x + canvas_s(d, 12);
    if (!a) {
        no_access_yet(d, sc, v, x0, y, "global");
        return;
    }
    y = access_header(d, sc, v, x0, y, a->pc, a->warp, a->cycle, a->mask) + canvas_s(d, 6);
    const VrecLine *ln = vrec_lines(sc->rec, a);
    int area_w = r->w * 60 / 100, area_h = r->y + r->h - y - canvas_s(d, 10);
    int cellw = canvas_s(d, 18), linew = 4 * cellw + canvas_s(d, 10);
    int cols = area_w / linew > 0 ? area_w / linew : 1;
    int rows = (int)((a->nlines + (uint32_t)cols - 1) / (uint32_t)cols);
    if (rows < 1) rows = 1;
    int rowh = area_h / rows;
    if (rowh > canvas_s(d, 26)) rowh = canvas_s(d, 26);
    uint32_t on = a->kind == ACCESS_ATOMIC ? C_ATOMIC : a->is_store ? C_STORE : C_LOAD;
    for (uint32_t i = 0; i < a->nlines; i++) {
        int lx = x0 + (int)(i / (uint32_t)rows) * linew, ly = y + (int)(i % (uint32_t)rows) * rowh;
        int gap = rowh >= 6 ? canvas_s(d, 3) > 1 ? canvas_s(d, 3) : 1 : 0;
        for (int s = 0; s < 4; s++)
            canvas_fill(d, lx + s * cellw, ly, cellw - 2, rowh - gap, ln[i].sectors >> s & 1 ? on : C_CELL_OFF);
    }
    int tx = x0 + area_w + canvas_s(d, 14), ty = r->y + canvas_s(d, 44);
    uint32_t fetched = a->sectors * 32;
    double eff = fetched ? (double)a->bytes_requested / fetched : 1;
    uint32_t rgb = eff >= 0.8 ? C_GOOD : eff >= 0.4 ? C_WARN : C_BAD;
    canvas_text(d, F_BIG, tx, ty, AL_LEFT, rgb, "%.0f%%", eff * 100);
    ty += canvas_font_h(d, F_BIG);
    canvas_text(d, F_HEAD, tx, ty, AL_LEFT, rgb, "of fetched bytes used");
    ty += canvas_font_h(d, F_HEAD) + canvas_s(d, 4);
    canvas_text(d, F_BODY, tx, ty, AL_LEFT, C_TEXT, "%u B used of %u B fetched", a->bytes_requested, fetched);
    ty += canvas_font_h(d, F_BODY);
    canvas_text(d, F_BODY, tx, ty, AL_LEFT, C_TEXT, "%u sector%s in %u line%s", a->sectors, a->sectors == 1 ? "" : "s",
                a->nlines, a->nlines == 1 ? "" : "s");
    ty += canvas_font_h(d, F_BODY);
    canvas_fill(d, tx, ty + canvas_s(d, 4), canvas_s(d, 14), canvas_s(d, 14), on);
    canvas_text(d, F_SMALL, tx + canvas_s(d, 18), ty + canvas_s(d, 2), AL_LEFT, C_DIM, "sector fetched (%s)",
                a->kind == ACCESS_ATOMIC ? "atomic" : a->is_store ? "store" : "load");
    if (a->kind == ACCESS_ATOMIC) { /* done at the L2 slice that owns the address, one lane's update at a time per address */
        uint32_t lanes = (uint32_t)__builtin_popcount(a->mask);
        ty += canvas_font_h(d, F_SMALL) + canvas_s(d, 4);
        canvas_text(d, F_SMALL, tx, ty, AL_LEFT, C_ATOMIC, "atomic: %u lane%s, done in the L2", lanes, lanes == 1 ? "" : "s");
    }
}

/* ------------------------------------------------------------ source */

/* Over the memory panels and the timeline: the followed warp's place in
** the listing, each instruction's counters under it, the current one lit. */
void drawmem_source(VizDraw *d, const VizLayout *L, const VizScene *sc, int w)
{
    int y0 = L->panel[VP_SHARED].h ? L->panel[VP_SHARED].y : L->panel[VP_GLOBAL].h ? L->panel[VP_GLOBAL].y
                                                                                   : L->panel[VP_TIMELINE].y;
    SDL_Rect r = { canvas_s(d, 8), y0, w - 2 * canvas_s(d, 8), L->panel[VP_TIMELINE].y + L->panel[VP_TIMELINE].h - y0 };
    SDL_SetClipRect(d->dst, &r);
    canvas_fill(d, r.x, r.y, r.w, r.h, 0x101018);
    canvas_frame(d, r.x, r.y, r.w, r.h, 2, C_SELECT);
    int y = r.y + canvas_s(d, 6), lh = canvas_font_h(d, F_MONO);
    canvas_text(d, F_HEAD, r.x + canvas_s(d, 12), y, AL_LEFT, C_TEXT, "%s", sc->src_title ? sc->src_title : "Source");
    y += canvas_font_h(d, F_HEAD) + canvas_s(d, 4);
    for (size_t i = 0; i < sc->nsrc && y + lh <= r.y + r.h; i++, y += lh) {
        const VsrcLine *ln = &sc->src[i];
        if (ln->kind == VSRC_CURRENT) canvas_fill(d, r.x + canvas_s(d, 4), y, r.w - canvas_s(d, 8), lh, 0x44445e);
        uint32_t rgb = ln->kind == VSRC_CURRENT ? C_TEXT : ln->kind == VSRC_COUNTERS ? C_WARN
                       : ln->kind == VSRC_NOTE ? C_GOOD : C_DIM;
        canvas_text(d, F_MONO, r.x + canvas_s(d, 12), y, AL_LEFT, rgb, "%s%s", ln->kind == VSRC_CURRENT ? "▶" : " ", ln->text);
    }
    SDL_SetClipRect(d->dst, NULL);
}

/* viz/main.c -- gpusim-viz: simulate one variant of a workload through the
** recording trace sink (viz/record.h), then either show it in an SDL2 window
** (play, step, click) or draw one frame offscreen and write it as a PNG
** (--snapshot). Both paths draw with viz/draw.c onto a software surface, so
** a snapshot is exactly what the window shows at that cycle.
** Exit status: 0 ok, 1 the kernel did not run (fault, deadlock), 2 bad
** input. All state lives in the App struct passed around.                 */
#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/disasm.h"
#include "cli/cli.h"
#include "cli/variant.h"
#include "sim/gpu.h"
#include "viz/draw.h"
#include "viz/record.h"
#include "viz/srcpanel.h"
#include "workloads/loader.h"

#ifndef GPUSIM_VIZ_FONT_DIR
#define GPUSIM_VIZ_FONT_DIR "."
#endif

/* A recording stops (and shows what it has) after this many warp
** instructions: a few seconds of simulation. --max-instructions changes it. */
#define VIZ_DEFAULT_MAX_INSTRUCTIONS 20000000ull

static const double SPEEDS[] = { 1,    2,    5,     10,    20,    50,     100,    200,    500,    1000,
                                 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000 };
#define NSPEEDS ((int)(sizeof SPEEDS / sizeof SPEEDS[0]))

typedef struct {
    const char  *file, *variant, *gpu, *snapshot, *font_dir, *at_event;
    const char  *keys;           /* --keys: pressed before the first frame   */
    bool         print_text;     /* --print-text                            */
    char       **sets;
    const char **params;
    int          nsets, nparams;
    int          width, height;
    bool         size_given;     /* --size: the window as asked, display or not */
    int          panel;          /* -1: whole view                         */
    uint32_t     sm;
    int32_t      warp;
    bool         has_cycle;
    uint64_t     at_cycle, max_cycles, max_instructions;
    uint32_t     launch;         /* --launch N (1-based); 0: the first       */
} Args;

typedef struct {
    Args            a;
    GpuConfig       cfg;
    Workload        w;
    bool            loaded;
    const WlVariant *v;
    uint32_t        launch;      /* the launch of v shown (0-based)        */
    char            vlabel[WL_MAX_VARIANT_NAME + 128]; /* "v (launch 2/3: k)" */
    VizRec         *rec;
    char            note[160];   /* why the recording ended early, or ""    */
    char            status[200]; /* what the last key did, when it did not
                                    do what it says (no such event), or ""  */
    VizDraw        *draw;
    VizView         view;
    int             speed;       /* index into SPEEDS                      */
    int             filter;      /* what m and g step to: 0 any access, 1 loads, 2 stores, 3 atomics */
    PcCounters     *pcs;         /* the shown launch's per-instruction counters, or NULL */
    uint64_t        warp_cycles; /* ... and its warp cycles (their shares)   */
    SrcListing     *src;         /* the kernel file's lines, read on first use */
    VsrcLine        srclines[40]; /* the source overlay (key s), per frame    */
    char            src_title[160];
    SDL_Window     *win;
    SDL_Surface    *canvas;
} App;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpusim-viz FILE.json [--variant NAME] [--launch N] [--gpu NAME|FILE] [--set KEY=VALUE]...\n"
            "                  [--param NAME=VALUE]... [--sm N] [--warp N] [--at-cycle N] [--at EVENT]\n"
            "                  [--snapshot OUT.png [--panel NAME]] [--size WxH] [--max-cycles N]\n"
            "                  [--max-instructions N] [--keys KEYS] [--print-text] [--font-dir DIR]\n\n"
            "Simulates one variant of a workload (default: the first) and shows it: every SM with its\n"
            "blocks, one SM's warps (state and active lanes), the shared-memory banks and global\n"
            "sectors of the latest access, and a timeline. Press h in the window for the keys.\n\n"
            "  --variant NAME        the variant to show (v in the window goes to the next one)\n"
            "  --launch N            of a variant of several launches, the Nth (default 1; l in the\n"
            "                        window goes to the next one); the earlier ones run first, unshown\n"
            "  --gpu, --set, --param as for gpusim run\n"
            "  --sm N                the SM shown in detail (default 0; click another in the window)\n"
            "  --warp N              follow warp slot N of that SM\n"
            "  --at-cycle N          start at cycle N (snapshot default: the middle of the run)\n"
            "  --at EVENT            then go to the first EVENT on the SM at or after it: issue, shared,\n"
            "                        shared-load, shared-store, shared-atomic, global, global-load,\n"
            "                        global-store, global-atomic, diverged\n"
            "  --snapshot OUT.png    no window: draw that cycle offscreen, write a PNG, print what it shows\n"
            "  --panel NAME          with --snapshot: only one panel (gpu, sm, shared, global, timeline)\n"
            "  --size WxH            window or snapshot size (default %dx%d)\n"
            "  --max-cycles N        stop the recording at cycle N (default: none)\n"
            "  --max-instructions N  stop it after N warp instructions (default %llu; 0: none)\n"
            "  --keys KEYS           press these keys first, one character each (as in the window:\n"
            "                        v, d, m, M, g, G, f, s, [, ], ...), then show or snapshot\n"
            "  --print-text          with --snapshot: also print every text drawn (\"text: ...\")\n"
            "  --font-dir DIR        where DejaVuSans.ttf and friends are (default: found at build time)\n",
            VDRAW_WIDTH, VDRAW_HEIGHT, VIZ_DEFAULT_MAX_INSTRUCTIONS);
}

/* Writes a PNG through a FILE of our own, so that a failed write (a full
** disk, /dev/full) is seen: SDL_image does not check the final flush. */
static bool save_png(SDL_Surface *s, const char *path)
{
    errno = 0;
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    SDL_RWops *rw = SDL_RWFromFP(f, SDL_FALSE);
    bool ok = rw && IMG_SavePNG_RW(s, rw, 0) == 0;
    if (rw) SDL_RWclose(rw);
    if (ok) errno = 0;
    ok = ok && fflush(f) == 0 && !ferror(f);
    if (fclose(f) != 0) ok = false;
    return ok;
}

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "gpusim-viz: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return EXIT_BAD_INPUT;
}

/* Returns EXIT_OK to go on, -1 after --help, anything else to exit with. */
static int parse_args(int argc, char **argv, Args *a)
{
    memset(a, 0, sizeof *a);
    a->width = VDRAW_WIDTH;
    a->height = VDRAW_HEIGHT;
    a->panel = -1;
    a->warp = -1;
    a->max_instructions = VIZ_DEFAULT_MAX_INSTRUCTIONS;
    a->font_dir = getenv("GPUSIM_VIZ_FONT_DIR") ? getenv("GPUSIM_VIZ_FONT_DIR") : GPUSIM_VIZ_FONT_DIR;
    a->sets = calloc((size_t)argc + 1, sizeof *a->sets);
    a->params = calloc((size_t)argc + 1, sizeof *a->params);
    if (!a->sets || !a->params) return bad("%s", "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        uint64_t u;
        if (cli_is_help(arg)) {
            usage(stdout);
            return -1;
        }
        if (!strcmp(arg, "--print-text")) {
            a->print_text = true;
            continue;
        }
        static const char *const FLAGS[] = { "--variant", "--launch", "--gpu", "--set", "--param", "--sm", "--warp",
                                             "--at-cycle", "--at", "--snapshot", "--panel", "--size",
                                             "--max-cycles", "--max-instructions", "--font-dir", "--keys", NULL };
        const char *name = NULL;
        for (const char *const *f = FLAGS; *f && !name; f++)
            if (cli_option(argc, argv, &i, *f, &val)) name = *f;
        if (name) {
            if (!val) return bad("%s needs a value", name);
            if (!strcmp(name, "--variant")) a->variant = val;
            else if (!strcmp(name, "--gpu")) a->gpu = val;
            else if (!strcmp(name, "--set")) a->sets[a->nsets++] = (char *)val;
            else if (!strcmp(name, "--param")) a->params[a->nparams++] = val;
            else if (!strcmp(name, "--snapshot")) a->snapshot = val;
            else if (!strcmp(name, "--font-dir")) a->font_dir = val;
            else if (!strcmp(name, "--keys")) a->keys = val;
            else if (!strcmp(name, "--at")) {
                a->at_event = val;
                bool known = false;
                for (int k = 0; k < VREC_EV_COUNT; k++) known |= !strcmp(val, VREC_EVENT_NAMES[k]);
                if (!known) return bad("--at: unknown event '%s' (issue, shared, shared-load, shared-store, "
                                       "shared-atomic, global, global-load, global-store, global-atomic, "
                                       "diverged)", val);
            } else if (!strcmp(name, "--panel")) {
                for (int k = 0; k < VP_COUNT; k++)
                    if (!strcmp(val, VP_NAMES[k])) a->panel = k;
                if (a->panel < 0) return bad("--panel: unknown panel '%s' (gpu, sm, shared, global, timeline)", val);
            } else if (!strcmp(name, "--size")) {
                /* each side through the CLI's checked parser: sscanf's %d overflows silently */
                const char *x = strchr(val, 'x');
                char wtext[32] = "";
                uint64_t w = 0, h = 0;
                if (x && (size_t)(x - val) < sizeof wtext) memcpy(wtext, val, (size_t)(x - val));
                if (!x || !cli_number_u64(wtext, false, &w) || !cli_number_u64(x + 1, false, &h) || w < 320 ||
                    h < 200 || w > 8192 || h > 8192)
                    return bad("--size expects WxH between 320x200 and 8192x8192, got '%s'", val);
                a->width = (int)w;
                a->height = (int)h;
                a->size_given = true;
            } else {
                if (!cli_number_u64(val, false, &u)) return bad("expected a non-negative integer, got '%s'", val);
                if ((!strcmp(name, "--sm") || !strcmp(name, "--warp")) && u > 1u << 20)
                    return bad(!strcmp(name, "--sm") ? "--sm %s: beyond any machine's SMs"
                                                      : "--warp %s: beyond any machine's warp slots", val);
                if (!strcmp(name, "--sm")) a->sm = (uint32_t)u;
                else if (!strcmp(name, "--warp")) a->warp = (int32_t)u;
                else if (!strcmp(name, "--at-cycle")) a->at_cycle = u, a->has_cycle = true;
                else if (!strcmp(name, "--launch")) {
                    if (u < 1 || u > UINT32_MAX) return bad("--launch counts from 1, got '%s'", val);
                    a->launch = (uint32_t)u;
                }
                else if (!strcmp(name, "--max-cycles")) a->max_cycles = u;
                else a->max_instructions = u;
            }
        } else if (arg[0] == '-' && arg[1]) {
            return bad("unknown option '%s' (see --help)", arg);
        } else if (a->file) {
            return bad("one workload file only (got a second: '%s')", arg);
        } else {
            a->file = arg;
        }
    }
    if (!a->file) return bad("%s", "no workload file (usage: gpusim-viz FILE.json ...; see --help)");
    if (a->panel >= 0 && !a->snapshot) return bad("%s", "--panel goes with --snapshot");
    if (a->print_text && !a->snapshot) return bad("%s", "--print-text goes with --snapshot");
    return EXIT_OK;
}

/* ------------------------------------------------------------ recording */

/* Simulates app->v with SM `sm` in detail into a fresh recording. Returns
** EXIT_OK, or 1 when the kernel did not run (message printed). */
static int record(App *app, uint32_t sm)
{
    const WlVariant *v = app->v;
    if (app->launch >= v->nlaunches) app->launch = 0;
    const WlLaunch *l = &v->launches[app->launch];
    if (v->nlaunches > 1)
        snprintf(app->vlabel, sizeof app->vlabel, "%s (launch %u/%u: %s)", v->name, app->launch + 1, v->nlaunches,
                 l->kernel->name);
    else
        snprintf(app->vlabel, sizeof app->vlabel, "%s", v->name);
    uint32_t threads = l->block[0] * l->block[1] * l->block[2];
    VrecShape shape = { .sm_count = app->cfg.sm_count,
                        .schedulers = app->cfg.sm_schedulers,
                        .blocks_per_sm = l->occ.blocks_per_sm,
                        .warps_per_block = (threads + 31) / 32,
                        .total_blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2],
                        .detail_sm = sm };
    VizRec *rec = vrec_create(&shape);
    if (!rec) {
        fprintf(stderr, "gpusim-viz: error: out of memory\n");
        return EXIT_CHECK_FAILED;
    }
    TraceSink sink;
    vrec_sink(rec, &sink);
    VariantOptions opt = { .max_cycles = app->a.max_cycles, .max_instructions = app->a.max_instructions,
                           .trace = &sink, .trace_only = app->launch + 1, .source = true };
    RunRow row;
    variant_run(&app->cfg, &app->w, v, &opt, &row);
    int rc = EXIT_OK;
    app->note[0] = 0;
    if (!row.ran && row.status == SIM_BUDGET) {
        snprintf(app->note, sizeof app->note, "recording stopped early (--max-cycles / --max-instructions)");
        fprintf(stderr, "gpusim-viz: note: %s: %.200s\n", app->note, row.error ? row.error : "");
    } else if (!row.ran) {
        fprintf(stderr, "gpusim-viz: %s/%s did not run: %s\n", app->w.name, v->name, row.error ? row.error : "");
        rc = EXIT_CHECK_FAILED;
    }
    /* the shown launch's length; an earlier one that stopped leaves it unrun */
    bool shown_ran = row.ran || row.nlaunches_run > app->launch + 1;
    if (rc == EXIT_OK && !vrec_finish(rec, shown_ran ? row.launch_st[app->launch].cycles : 0)) {
        fprintf(stderr, "gpusim-viz: error: out of memory\n");
        rc = EXIT_CHECK_FAILED;
    }
    if (rc == EXIT_OK) { /* keep the shown launch's counters for the source overlay */
        free(app->pcs);
        app->pcs = NULL;
        app->warp_cycles = 0;
        if (row.launch_pcs && row.nlaunches_run > app->launch) {
            app->pcs = row.launch_pcs[app->launch];
            row.launch_pcs[app->launch] = NULL;
            app->warp_cycles = row.launch_st[app->launch].stall_cycles;
        }
    }
    variant_row_free(&row);
    if (rc != EXIT_OK) {
        vrec_destroy(rec);
        return rc;
    }
    vrec_destroy(app->rec);
    app->rec = rec;
    if (app->view.cycle > vrec_end(rec)) app->view.cycle = vrec_end(rec);
    if (app->view.warp >= 0 && (uint32_t)app->view.warp >= vrec_warp_slots(rec)) app->view.warp = -1;
    return EXIT_OK;
}

/* The warp the source overlay follows: the followed one, else the lowest
** slot that has issued by the cycle; -1 when none has. */
static int32_t source_warp(const App *app, VrecWarpNow *wn)
{
    for (uint32_t w = app->view.warp >= 0 ? (uint32_t)app->view.warp : 0; w < vrec_warp_slots(app->rec); w++) {
        vrec_warp_at(app->rec, w, app->view.cycle, wn);
        if (wn->has_issue && wn->state != VREC_EXITED) return (int32_t)w;
        if (app->view.warp >= 0) break;
    }
    return -1;
}

static VizScene scene(App *app)
{
    const Kernel *k = app->v->launches[app->launch].kernel;
    VizScene sc = { app->rec, k, app->w.name, app->vlabel,
                    app->cfg.description[0] ? app->cfg.description : app->cfg.name, app->cfg.smem_banks,
                    false, NULL, 0, NULL };
    if (!app->view.source) return sc;
    if (!app->src) app->src = srcview_open(&app->w.program, app->w.kernel_file);
    VrecWarpNow wn;
    int32_t w = source_warp(app, &wn);
    const char *file = app->w.kernel_file ? app->w.kernel_file : "", *slash = strrchr(file, '/');
    if (w < 0) {
        snprintf(app->src_title, sizeof app->src_title, "Source · %s · %s", slash ? slash + 1 : file,
                 app->view.warp >= 0 ? "this warp has no instruction now" : "no warp has issued yet");
        sc.nsrc = 0;
    } else {
        snprintf(app->src_title, sizeof app->src_title, "Source · warp %d%s, pc %u · %s", w,
                 app->view.warp >= 0 ? "" : " (the first with an instruction)", wn.pc, slash ? slash + 1 : file);
        sc.nsrc = vsrc_lines(app->src, k, app->pcs, app->warp_cycles, wn.pc, app->srclines,
                             sizeof app->srclines / sizeof app->srclines[0]);
    }
    sc.src = app->srclines;
    sc.src_title = app->src_title;
    return sc;
}

/* Moves to the first --at event at or after the cycle, if there is one.
** (Nothing issues at cycle 0: dispatched warps start at cycle 1.) */
static void apply_at(App *app)
{
    if (!app->a.at_event) return;
    for (int k = 0; k < VREC_EV_COUNT; k++) {
        if (strcmp(app->a.at_event, VREC_EVENT_NAMES[k])) continue;
        uint64_t c, from = app->view.cycle;
        if (vrec_next_event(app->rec, (VrecEvent)k, app->view.warp, from ? from - 1 : 0, true, &c))
            app->view.cycle = c;
        else
            fprintf(stderr, "gpusim-viz: note: no %s event on SM %u at or after cycle %llu\n", app->a.at_event,
                    vrec_shape(app->rec)->detail_sm, (unsigned long long)from);
    }
}

/* ------------------------------------------------------------ snapshot */

static const char *const KIND_WORDS[ACCESS_KINDS] = { "load", "store", "atomic" };

static void print_state(const App *app, FILE *out)
{
    const VizRec *rec = app->rec;
    uint64_t cy = app->view.cycle;
    const Kernel *k = app->v->launches[app->launch].kernel;
    char mn[48];
    VrecGpuNow g;
    vrec_gpu_at(rec, cy, &g);
    fprintf(out, "gpu: wave=%u waves=%u resident_blocks=%llu waiting=%llu done=%llu\n", g.wave, g.waves,
            (unsigned long long)(g.started - g.done), (unsigned long long)g.waiting, (unsigned long long)g.done);
    const VrecShared *s = vrec_shared_at(rec, app->view.warp, cy);
    if (s) {
        uint32_t maxw = 0;
        for (unsigned b = 0; b < s->banks; b++)
            if (s->bank_words[b] > maxw) maxw = s->bank_words[b];
        disasm_mnemonic(&k->code[s->pc], mn, sizeof mn);
        fprintf(out, "shared: cycle=%llu warp=%u op=%s kind=%s wavefronts=%u ideal=%u max_bank_words=%u banks=%u\n",
                (unsigned long long)s->cycle, s->warp, mn, KIND_WORDS[s->kind < ACCESS_KINDS ? s->kind : 0],
                s->wavefronts, s->phases, maxw, s->banks);
    } else {
        fprintf(out, "shared: none\n");
    }
    const VrecGlobal *gl = vrec_global_at(rec, app->view.warp, cy);
    if (gl) {
        disasm_mnemonic(&k->code[gl->pc], mn, sizeof mn);
        fprintf(out, "global: cycle=%llu warp=%u op=%s kind=%s lines=%u sectors=%u bytes_used=%u bytes_fetched=%u\n",
                (unsigned long long)gl->cycle, gl->warp, mn, KIND_WORDS[gl->kind < ACCESS_KINDS ? gl->kind : 0],
                gl->nlines, gl->sectors, gl->bytes_requested, gl->sectors * 32);
    } else {
        fprintf(out, "global: none\n");
    }
    for (uint32_t w = 0; w < vrec_warp_slots(rec); w++) {
        VrecWarpNow wn;
        vrec_warp_at(rec, w, cy, &wn);
        if (wn.state == VREC_EMPTY) continue;
        fprintf(out, "warp %u: block=%lld state=%s", w, (long long)wn.block_id, vdraw_state_label(wn.state));
        if (wn.state == VREC_EXITED) fprintf(out, " lanes=exited"); /* drawn as such, not its last mask */
        else if (wn.has_issue) fprintf(out, " pc=%u active=%08x exec=%08x", wn.pc, wn.active, wn.exec);
        else fprintf(out, " lanes=not_started"); /* a line, not dark (masked-off) cells */
        fprintf(out, "\n");
    }
}

/* " launch=2/3:kernel" for the snapshot line (static buffer: one at a time). */
static const char *launch_word(const App *app)
{
    static char buf[ISA_MAX_NAME + 32];
    snprintf(buf, sizeof buf, " launch=%u/%u:%s", app->launch + 1, app->v->nlaunches,
             app->v->launches[app->launch].kernel->name);
    return buf;
}

static int snapshot(App *app)
{
    SDL_Surface *canvas = SDL_CreateRGBSurfaceWithFormat(0, app->a.width, app->a.height, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!canvas) {
        fprintf(stderr, "gpusim-viz: error: %s\n", SDL_GetError());
        return EXIT_CHECK_FAILED;
    }
    VizScene sc = scene(app);
    sc.all_panels = app->a.panel >= 0; /* a crop of the panel asked for, even an empty one */
    app->view.message = app->status[0] ? app->status : app->note[0] ? app->note : NULL;
    app->view.headless = true;
    if (app->a.print_text) vdraw_log(app->draw, stdout);
    vdraw_frame(app->draw, canvas, &sc, &app->view);
    vdraw_log(app->draw, NULL);
    SDL_Rect r = { 0, 0, canvas->w, canvas->h };
    if (app->a.panel >= 0) {
        VizLayout L;
        vdraw_layout(&sc, canvas->w, canvas->h, &L);
        r = L.panel[app->a.panel];
    }
    SDL_Surface *out = SDL_CreateRGBSurfaceWithFormat(0, r.w, r.h, 24, SDL_PIXELFORMAT_RGB24);
    int rc = EXIT_OK;
    if (!out || SDL_BlitSurface(canvas, &r, out, NULL) != 0 || !save_png(out, app->a.snapshot)) {
        fprintf(stderr, "gpusim-viz: error: cannot write %s: %s\n", app->a.snapshot,
                errno ? strerror(errno) : SDL_GetError());
        rc = EXIT_BAD_INPUT;
    } else {
        printf("snapshot: %s %dx%d %s/%s%s cycle=%llu end=%llu sm=%u panel=%s\n", app->a.snapshot, r.w, r.h,
               app->w.name, app->v->name, app->v->nlaunches > 1 ? launch_word(app) : "", (unsigned long long)app->view.cycle,
               (unsigned long long)vrec_end(app->rec), vrec_shape(app->rec)->detail_sm,
               app->a.panel >= 0 ? VP_NAMES[app->a.panel] : "all");
        if (app->view.message) printf("message: %s\n", app->view.message);
        print_state(app, stdout);
        static const char *const KIND[] = { "file", "current", "counters", "note" };
        if (app->view.source) printf("source: %s\n", sc.src_title);
        for (size_t i = 0; app->view.source && i < sc.nsrc; i++) printf("source %s: %s\n", KIND[sc.src[i].kind], sc.src[i].text);
    }
    SDL_FreeSurface(out);
    SDL_FreeSurface(canvas);
    return rc;
}

/* ------------------------------------------------------------ window */

static void present(App *app)
{
    VizScene sc = scene(app);
    vdraw_frame(app->draw, app->canvas, &sc, &app->view);
    SDL_Surface *ws = SDL_GetWindowSurface(app->win);
    if (ws) {
        SDL_BlitSurface(app->canvas, NULL, ws, NULL);
        SDL_UpdateWindowSurface(app->win);
    }
}

static bool make_canvas(App *app)
{
    int w, h;
    SDL_GetWindowSize(app->win, &w, &h);
    SDL_FreeSurface(app->canvas);
    app->canvas = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    return app->canvas != NULL;
}

/* Re-records with another SM or variant in detail; keeps the cycle. */
static void rerecord(App *app, uint32_t sm, const WlVariant *v)
{
    char msg[WL_MAX_VARIANT_NAME + 64];
    snprintf(msg, sizeof msg, "simulating %s, SM %u in detail…", v->name, sm);
    app->view.message = msg;
    if (app->win) present(app);
    const WlVariant *old = app->v;
    app->v = v;
    if (record(app, sm) != EXIT_OK) app->v = old; /* keep showing the last good recording */
    app->view.message = app->note[0] ? app->note : NULL;
}

/* Goes to the next (previous) such event; when there is none, stays and
** says so in app->status ("no divergent branch on SM 0 in this launch"). */
static void step(App *app, VrecEvent kind, bool forward, const char *what)
{
    uint64_t c;
    app->view.playing = false;
    if (vrec_next_event(app->rec, kind, app->view.warp, app->view.cycle, forward, &c)) {
        app->view.cycle = c;
        return;
    }
    bool any = vrec_next_event(app->rec, kind, app->view.warp, 0, true, &c);
    char who[48] = "";
    if (app->view.warp >= 0) snprintf(who, sizeof who, " by warp %d", app->view.warp);
    if (any)
        snprintf(app->status, sizeof app->status, "no %s on SM %u%s %s cycle %llu", what,
                 vrec_shape(app->rec)->detail_sm, who, forward ? "after" : "before",
                 (unsigned long long)app->view.cycle);
    else
        snprintf(app->status, sizeof app->status, "no %s on SM %u%s in this launch", what,
                 vrec_shape(app->rec)->detail_sm, who);
}

static const char *const FILTER_WORDS[4] = { "access", "load", "store", "atomic" };

/* The event m (shared) or g (global) steps to under app->filter. */
static VrecEvent filtered(const App *app, bool shared)
{
    if (app->filter == 3) return shared ? VREC_EV_SHARED_ATOMIC : VREC_EV_GLOBAL_ATOMIC;
    return (VrecEvent)((shared ? VREC_EV_SHARED : VREC_EV_GLOBAL) + app->filter);
}

static void on_key(App *app, const SDL_KeyboardEvent *k, bool *quit)
{
    VizView *v = &app->view;
    bool shift = k->keysym.mod & KMOD_SHIFT;
    app->status[0] = 0;
    char what[48];
    uint64_t end = vrec_end(app->rec);
    const VrecShape *sh = vrec_shape(app->rec);
    switch (k->keysym.sym) {
    case SDLK_q:
        *quit = true;
        break;
    case SDLK_SPACE:
        if (!v->playing && v->cycle >= end) v->cycle = 0;
        v->playing = !v->playing;
        break;
    case SDLK_RIGHT:
        if (shift) v->cycle = v->cycle < end ? v->cycle + 1 : end, v->playing = false;
        else step(app, VREC_EV_ISSUE, true, "instruction issued");
        break;
    case SDLK_LEFT:
        if (shift) v->cycle = v->cycle ? v->cycle - 1 : 0, v->playing = false;
        else step(app, VREC_EV_ISSUE, false, "instruction issued");
        break;
    case SDLK_UP:
        if (app->speed + 1 < NSPEEDS) app->speed++;
        break;
    case SDLK_DOWN:
        if (app->speed > 0) app->speed--;
        break;
    case SDLK_HOME:
        v->cycle = 0;
        break;
    case SDLK_END:
        v->cycle = end;
        break;
    case SDLK_m:
        snprintf(what, sizeof what, "shared-memory %s", FILTER_WORDS[app->filter]);
        step(app, filtered(app, true), !shift, what);
        break;
    case SDLK_g:
        snprintf(what, sizeof what, "global-memory %s", FILTER_WORDS[app->filter]);
        step(app, filtered(app, false), !shift, what);
        break;
    case SDLK_f:
        app->filter = (app->filter + 1) % 4;
        snprintf(app->status, sizeof app->status, "m and g now step to the next %s",
                 app->filter == 0 ? "access" : app->filter == 1 ? "load (f: stores)"
                 : app->filter == 2 ? "store (f: atomics)" : "atomic (f: any access)");
        break;
    case SDLK_d:
        step(app, VREC_EV_DIVERGED, !shift, "divergent branch");
        break;
    case SDLK_LEFTBRACKET:
        if (sh->detail_sm > 0) rerecord(app, sh->detail_sm - 1, app->v);
        break;
    case SDLK_RIGHTBRACKET:
        if (sh->detail_sm + 1 < sh->sm_count) rerecord(app, sh->detail_sm + 1, app->v);
        break;
    case SDLK_ESCAPE:
        if (v->help) v->help = false;
        else if (v->source) v->source = false;
        else v->warp = -1;
        break;
    case SDLK_v: { /* the same point of the run, relatively: 40 % in stays 40 % in */
        uint32_t i = (uint32_t)(app->v - app->w.variants);
        double at = end ? (double)v->cycle / (double)end : 0;
        app->launch = 0;
        rerecord(app, sh->detail_sm, &app->w.variants[(i + 1) % app->w.nvariants]);
        uint64_t e2 = vrec_end(app->rec);
        v->cycle = (uint64_t)(at * (double)e2 + 0.5);
        if (v->cycle > e2) v->cycle = e2;
        break;
    }
    case SDLK_l:
        if (app->v->nlaunches > 1) {
            uint32_t old = app->launch;
            app->launch = (app->launch + 1) % app->v->nlaunches;
            rerecord(app, sh->detail_sm, app->v);
            if (!app->rec || app->launch != (old + 1) % app->v->nlaunches) app->launch = old;
        }
        break;
    case SDLK_h:
        v->help = !v->help;
        break;
    case SDLK_s:
        v->source = !v->source;
        break;
    default:
        break;
    }
    v->speed = SPEEDS[app->speed];
    v->message = app->status[0] ? app->status : app->note[0] ? app->note : NULL;
}

/* --keys: each character as its key (upper case: with shift). False, with
** a message, for a character that is no key. */
static bool press_keys(App *app, const char *keys)
{
    for (const char *c = keys; *c; c++) {
        unsigned char ch = (unsigned char)*c;
        if (!isprint(ch) || ch == ' ') {
            fprintf(stderr, "gpusim-viz: error: --keys: '%c' is not a key this option can press\n", isprint(ch) ? ch : '?');
            return false;
        }
        SDL_KeyboardEvent k;
        memset(&k, 0, sizeof k);
        k.keysym.sym = isupper(ch) ? tolower(ch) : ch;
        k.keysym.mod = isupper(ch) ? KMOD_LSHIFT : KMOD_NONE;
        bool quit = false;
        on_key(app, &k, &quit);
    }
    return true;
}

static void on_click(App *app, int x, int y)
{
    VizScene sc = scene(app);
    VizHit h = vdraw_hit(&sc, app->canvas->w, app->canvas->h, x, y);
    switch (h.kind) {
    case VHIT_SM:
        if (h.value != vrec_shape(app->rec)->detail_sm) rerecord(app, (uint32_t)h.value, app->v);
        break;
    case VHIT_WARP:
        app->view.warp = app->view.warp == (int32_t)h.value ? -1 : (int32_t)h.value;
        break;
    case VHIT_CYCLE:
        app->view.cycle = h.value < vrec_end(app->rec) ? h.value : vrec_end(app->rec);
        break;
    case VHIT_NONE:
        break;
    }
}

static int window(App *app)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "gpusim-viz: error: no display (%s); use --snapshot OUT.png without one\n", SDL_GetError());
        return EXIT_BAD_INPUT;
    }
    /* With no display SDL may fall back to a driver that shows nothing. */
    const char *drv = SDL_GetCurrentVideoDriver(), *asked = getenv("SDL_VIDEODRIVER");
    if (drv && (!strcmp(drv, "dummy") || !strcmp(drv, "offscreen")) && !(asked && !strcmp(asked, drv))) {
        fprintf(stderr, "gpusim-viz: error: no display (SDL picked its '%s' video driver); "
                        "use --snapshot OUT.png without one\n", drv);
        SDL_Quit();
        return EXIT_BAD_INPUT;
    }
    char title[160];
    snprintf(title, sizeof title, "gpusim-viz: %s", app->w.name);
    /* the default window fits the display (a projector's 1280x800 took a
    ** 1600x960 window partly off-screen): each side at most the usable
    ** area's, less room for the window's frame (the layout takes any shape) */
    SDL_Rect usable;
    if (!app->a.size_given && SDL_GetDisplayUsableBounds(0, &usable) == 0 && usable.w > 0 && usable.h > 0) {
        int w = usable.w * 98 / 100, h = usable.h * 90 / 100;
        w = w < 320 ? 320 : w < app->a.width ? w : app->a.width;
        h = h < 200 ? 200 : h < app->a.height ? h : app->a.height;
        if (w != app->a.width || h != app->a.height) {
            fprintf(stderr, "gpusim-viz: a %dx%d window, to fit the %dx%d display (--size WxH to choose)\n", w, h,
                    usable.w, usable.h);
            app->a.width = w;
            app->a.height = h;
        }
    }
    app->win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, app->a.width, app->a.height,
                                SDL_WINDOW_RESIZABLE);
    if (!app->win || !make_canvas(app)) {
        fprintf(stderr, "gpusim-viz: error: cannot open a window: %s\n", SDL_GetError());
        return EXIT_BAD_INPUT;
    }
    bool quit = false, dirty = true;
    double carry = 0;
    uint64_t last = SDL_GetPerformanceCounter();
    while (!quit) {
        SDL_Event e;
        if (SDL_WaitEventTimeout(&e, app->view.playing ? 15 : 200)) {
            do {
                switch (e.type) {
                case SDL_QUIT:
                    quit = true;
                    break;
                case SDL_KEYDOWN:
                    on_key(app, &e.key, &quit);
                    dirty = true;
                    break;
                case SDL_MOUSEBUTTONDOWN:
                    if (e.button.button == SDL_BUTTON_LEFT) on_click(app, e.button.x, e.button.y);
                    dirty = true;
                    break;
                case SDL_WINDOWEVENT:
                    if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED && !make_canvas(app)) quit = true;
                    dirty = true;
                    break;
                default:
                    break;
                }
            } while (!quit && SDL_PollEvent(&e));
        }
        uint64_t t = SDL_GetPerformanceCounter();
        double dt = (double)(t - last) / (double)SDL_GetPerformanceFrequency();
        last = t;
        if (app->view.playing) {
            carry += dt * app->view.speed;
            uint64_t adv = (uint64_t)carry, end = vrec_end(app->rec);
            carry -= (double)adv;
            if (adv) {
                app->view.cycle = app->view.cycle + adv < end ? app->view.cycle + adv : end;
                if (app->view.cycle >= end) app->view.playing = false;
                dirty = true;
            }
        } else {
            carry = 0;
        }
        if (dirty && !quit) {
            present(app);
            dirty = false;
        }
    }
    SDL_FreeSurface(app->canvas);
    SDL_DestroyWindow(app->win);
    return EXIT_OK;
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    App *app = calloc(1, sizeof *app);
    if (!app) return EXIT_CHECK_FAILED;
    int rc = parse_args(argc, argv, &app->a);
    if (rc != EXIT_OK) {
        rc = rc < 0 ? EXIT_OK : rc;
        goto out;
    }
    Diag d;
    rc = EXIT_BAD_INPUT;
    if (!cli_load_gpu(app->a.gpu, app->a.sets, app->a.nsets, &app->cfg, &d)) {
        diag_print(stderr, &d);
        goto out;
    }
    if (!workload_load(app->a.file, &app->cfg, app->a.params, (size_t)app->a.nparams, &app->w, &d)) {
        diag_print(stderr, &d);
        goto out;
    }
    app->loaded = true;
    app->v = app->a.variant ? workload_find_variant(&app->w, app->a.variant) : &app->w.variants[0];
    if (!app->v) {
        fprintf(stderr, "gpusim-viz: error: %s has no variant '%s' (it has:", app->a.file, app->a.variant);
        for (uint32_t i = 0; i < app->w.nvariants; i++) fprintf(stderr, "%s %s", i ? "," : "", app->w.variants[i].name);
        fprintf(stderr, ")\n");
        goto out;
    }
    if (app->a.launch > app->v->nlaunches) {
        fprintf(stderr, "gpusim-viz: error: --launch %u: variant '%s' has %u launch%s\n", app->a.launch, app->v->name,
                app->v->nlaunches, app->v->nlaunches == 1 ? "" : "es");
        goto out;
    }
    app->launch = app->a.launch ? app->a.launch - 1 : 0;
    if (app->a.sm >= app->cfg.sm_count) {
        fprintf(stderr, "gpusim-viz: error: --sm %u: the machine has SMs 0..%u\n", app->a.sm, app->cfg.sm_count - 1);
        goto out;
    }
    app->view.warp = app->a.warp;
    rc = record(app, app->a.sm);
    if (rc != EXIT_OK) goto out;
    if (app->a.warp >= 0 && (uint32_t)app->a.warp >= vrec_warp_slots(app->rec)) {
        fprintf(stderr, "gpusim-viz: error: --warp %d: SM %u has warp slots 0..%u\n", app->a.warp, app->a.sm,
                vrec_warp_slots(app->rec) - 1);
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    uint64_t end = vrec_end(app->rec);
    app->view.cycle = app->a.has_cycle ? (app->a.at_cycle < end ? app->a.at_cycle : end)
                      : app->a.snapshot && !app->a.at_event ? end / 2 : 0;
    apply_at(app);
    if (app->a.keys && !press_keys(app, app->a.keys)) {
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    /* default speed: the whole run in about a minute */
    app->speed = 0;
    while (app->speed + 1 < NSPEEDS && SPEEDS[app->speed + 1] <= (double)end / 60) app->speed++;
    app->view.speed = SPEEDS[app->speed];
    if (TTF_Init() != 0) {
        fprintf(stderr, "gpusim-viz: error: SDL_ttf: %s\n", TTF_GetError());
        rc = EXIT_CHECK_FAILED;
        goto out;
    }
    char err[512];
    app->draw = vdraw_create(app->a.font_dir, err, sizeof err);
    if (!app->draw) {
        fprintf(stderr, "gpusim-viz: error: %s (install fonts-dejavu-core, or give --font-dir)\n", err);
        rc = EXIT_BAD_INPUT;
    } else {
        rc = app->a.snapshot ? snapshot(app) : window(app);
    }
    vdraw_destroy(app->draw);
    TTF_Quit();
    SDL_Quit();
out:
    vrec_destroy(app->rec);
    srcview_close(app->src);
    free(app->pcs);
    if (app->loaded) workload_destroy(&app->w);
    free(app->a.sets);
    free(app->a.params);
    free(app);
    return rc;
}

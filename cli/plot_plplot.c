/* cli/plot_plplot.c -- plot_draw_lines and plot_draw_roofline with PLplot
** (C API, its cairo drivers: pngcairo, svgcairo, pdfcairo). Compiled when
** CMake finds PLplot (pkg-config plplot); cli/plot_none.c otherwise.
**
** PLplot keeps its state in the library and calls exit() on a fatal error
** (plexit), so each picture is drawn in a child process: the command never
** exits from inside the library, and a failure is a message, not the end of
** a sweep whose data is already written. The child draws to a temporary
** file next to the target; the parent renames it when the child succeeds.
** Colours: the Tableau 10 palette, markers of five shapes and eight line
** styles in pairs that do not repeat within a chart, white paper.         */
#include "cli/plot.h"

#include <errno.h>
#include <math.h>
#include <plplot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

enum { COL_BG, COL_FG, COL_GRID, COL_CEILING, COL_SERIES }; /* cmap0 indices */

static const int PALETTE[][3] = {
    { 255, 255, 255 }, { 0, 0, 0 },      { 215, 215, 215 }, { 70, 70, 70 },    { 31, 119, 180 },
    { 255, 127, 14 },  { 44, 160, 44 },  { 214, 39, 40 },   { 148, 103, 189 }, { 140, 86, 75 },
    { 227, 119, 194 }, { 127, 127, 127 }, { 188, 189, 34 }, { 23, 190, 207 },
};
#define NCOLORS ((int)(sizeof PALETTE / sizeof PALETTE[0]))
#define NSERIES_COLORS (NCOLORS - COL_SERIES)

static const char *const MARKERS[] = { "●", "■", "▲", "◆", "▼" };
#define NMARKERS ((int)(sizeof MARKERS / sizeof MARKERS[0]))

_Static_assert(NSERIES_COLORS == PLOT_COLORS && NMARKERS == PLOT_MARKERS, "plot_series_look's counts");

static PLINT series_color(size_t s) { return COL_SERIES + (PLINT)plot_series_look(s).color; }
static const char *series_marker(size_t s) { return MARKERS[plot_series_look(s).marker]; }
static PLINT series_style(size_t s) { return (PLINT)plot_series_look(s).style + 1; }

static const char *device_of(const char *path)
{
    size_t n = strlen(path);
    const char *ext = n >= 4 ? path + n - 4 : "";
    if (!strcasecmp(ext, ".png")) return "pngcairo";
    if (!strcasecmp(ext, ".svg")) return "svgcairo";
    if (!strcasecmp(ext, ".pdf")) return "pdfcairo";
    return NULL;
}

bool plot_available(char *why, size_t cap)
{
    (void)why;
    (void)cap;
    return true;
}

/* ------------------------------------------------------------ drawing (child) */

/* Whether this PLplot has the device (its drivers are plugins: the cairo
** one is a package of its own). */
static bool have_device(const char *dev)
{
    const char *menu[128], *names[128];
    const char **m = menu, **nm = names;
    int n = 128;
    plgDevs(&m, &nm, &n);
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], dev) == 0) return true;
    return false;
}

static void page(const char *dev, const char *file)
{
    plsdev(dev);
    plsfnam(file);
    plspage(0, 0, 1200, 760, 0, 0);
    plscmap0n(NCOLORS);
    for (int i = 0; i < NCOLORS; i++) plscol0(i, PALETTE[i][0], PALETTE[i][1], PALETTE[i][2]);
    plinit();
    pladv(0);
    plschr(0, 0.95);
}

/* Data range of v[0..n) as world coordinates: log10 when lg, a margin of
** 5% (a tenth of a decade on a log axis), a unit either side when flat. */
static void range(const double *v, size_t n, bool lg, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double x = lg ? log10(v[i]) : v[i];
        if (x < *lo) *lo = x;
        if (x > *hi) *hi = x;
    }
    double pad = *hi > *lo ? (*hi - *lo) * 0.05 : lg ? 0.5 : fabs(*hi) > 0 ? fabs(*hi) * 0.1 : 1;
    if (lg && pad < 0.1) pad = 0.1;
    *lo -= pad;
    *hi += pad;
}

/* Linear axes label their ticks in plain numbers (PLplot's own labels would
** put a common "x10^4" above the axis); log axes keep PLplot's 10^k. */
static void plain_label(PLINT axis, PLFLT value, char *label, PLINT length, PLPointer data)
{
    (void)axis;
    (void)data;
    snprintf(label, (size_t)length, "%.6g", fabs(value) < 1e-12 ? 0.0 : value);
}

static void axes(bool xlog, bool ylog)
{
    plslabelfunc(plain_label, NULL);
    plcol0(COL_GRID);
    plwidth(0.8);
    plbox(xlog ? "gl" : "g", 0, 0, ylog ? "gl" : "g", 0, 0);
    plcol0(COL_FG);
    plwidth(1.2);
    plbox(xlog ? "bcnstl" : "bcnsto", 0, 0, ylog ? "bcnstvl" : "bcnstvo", 0, 0);
}

/* How wide text is at the current character size, in mm: PLplot has no
** public measure, so its characters are counted at 0.85 of the character
** height each, the widest average of the sans faces the cairo drivers pick
** (DejaVu Sans, ~0.55): an upper bound, so that what fits is not clipped. */
static double text_mm(const char *text)
{
    PLFLT def, ht;
    plgchr(&def, &ht);
    size_t chars = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) chars += (*c & 0xC0) != 0x80;
    return (double)chars * ht * 0.85;
}

/* The page's width in mm (text_mm's unit). */
static double page_width_mm(void)
{
    PLFLT x0, x1, y0, y1;
    plgspa(&x0, &x1, &y0, &y1);
    return x1 - x0;
}

/* A line of text at up to `size` that keeps within the page: smaller when
** it must (to 0.7), else cut at the last ", " that lets the first part fit,
** the two parts on two lines, each as large as fits (to 0.6). */
static void fitted_top(const char *text, double disp, double size)
{
    double room = 0.94 * page_width_mm();
    for (double sz = size; sz >= 0.7 - 1e-9; sz -= 0.05) {
        plschr(0, sz);
        if (text_mm(text) <= room) {
            plmtex("t", disp, 0.5, 0.5, text);
            return;
        }
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    plschr(0, 0.8);
    char *cut = NULL;
    for (char *c = strstr(buf, ", "); c; c = strstr(c + 1, ", ")) {
        *c = '\0';
        bool fits = text_mm(buf) <= room;
        *c = ',';
        if (!fits) break;
        cut = c;
    }
    const char *second = "";
    if (cut) *cut = '\0', second = cut + 2;
    double sz = 0.8;
    while (sz > 0.6 && (text_mm(buf) > room || text_mm(second) > room)) plschr(0, sz -= 0.05);
    plmtex("t", disp + 1.25, 0.5, 0.5, buf);
    if (*second) plmtex("t", disp, 0.5, 0.5, second);
}

static void titles(const char *title, const char *subtitle, const char *xlabel, const char *ylabel)
{
    plcol0(COL_FG);
    plschr(0, 1.15);
    plmtex("t", 2.6, 0.5, 0.5, title);
    if (subtitle && subtitle[0]) fitted_top(subtitle, 1.1, 0.85);
    plschr(0, 1.0);
    plmtex("b", 3.2, 0.5, 0.5, xlabel);
    plmtex("l", 5.2, 0.5, 0.5, ylabel);
    plschr(0, 0.95);
}

/* Where a chart's legend goes: beside the plot while its entries are few
** and short, else under it in as many columns as the page holds (rows
** first); each entry cut with "..." only when one alone is wider than the
** page. `room` is the share of the page it takes (width beside, height
** under). Measured at the legend's own size (text_mm), so that it is never
** clipped. */
typedef struct {
    bool   below;
    PLINT  cols, rows;
    double room;
    double under_mm; /* below: what the x axis's numbers and label take under the plot */
} LegendPlace;

#define LEGEND_CHR 0.85 /* the legend's character size, and its text's scale */
#define LEGEND_TEXT 0.9

static LegendPlace legend_place(size_t n, char **text)
{
    PLFLT x0, x1, y0, y1, def, ht;
    plgspa(&x0, &x1, &y0, &y1);
    double pw = x1 - x0, ph = y1 - y0;
    plschr(0, LEGEND_CHR * LEGEND_TEXT);
    plgchr(&def, &ht);
    double longest = 0, page_text = 0.80 * pw - 9 * ht;
    for (size_t i = 0; i < n; i++) {
        while (text_mm(text[i]) > page_text && strlen(text[i]) > 4) /* one entry wider than the page */
            strcpy(text[i] + strlen(text[i]) - 4, "...");
        double l = text_mm(text[i]);
        if (l > longest) longest = l;
    }
    plschr(0, 1.0); /* the x axis label's size (titles) */
    PLFLT axis_ht;
    plgchr(&def, &axis_ht);
    plschr(0, 0.95);
    double entry = longest + 9 * ht; /* the symbol and line, the gaps */
    LegendPlace p = { false, 1, (PLINT)n, 0, 4.6 * axis_ht };
    if (n <= 12 && entry <= 0.27 * pw) {
        p.room = (longest + 6.5 * ht) / pw + 0.02; /* the symbol's 0.06 of the plot, the text, the gap */
        return p;
    }
    p.below = true;
    p.cols = (PLINT)(0.80 * pw / entry);
    if (p.cols < 1) p.cols = 1;
    if ((size_t)p.cols > n) p.cols = (PLINT)n;
    p.rows = (PLINT)((n + (size_t)p.cols - 1) / (size_t)p.cols);
    p.room = (p.rows * 2.0 * ht + p.under_mm + ht) / ph - 0.10; /* the 0.12 under the plot holds the axis already */
    if (p.room < 0.02) p.room = 0.02;
    return p;
}

static void legend(size_t n, const char *const *text, const LegendPlace *place)
{
    if (n == 0) return;
    PLINT *opt = calloc(n, sizeof *opt), *colors = calloc(n, sizeof *colors), *styles = calloc(n, sizeof *styles);
    PLINT *numbers = calloc(n, sizeof *numbers), *ink = calloc(n, sizeof *ink);
    PLFLT *widths = calloc(n, sizeof *widths), *scales = calloc(n, sizeof *scales);
    const char **symbols = calloc(n, sizeof *symbols);
    if (opt && colors && styles && numbers && ink && widths && scales && symbols) {
        for (size_t i = 0; i < n; i++) {
            opt[i] = PL_LEGEND_SYMBOL | PL_LEGEND_LINE;
            colors[i] = series_color(i);
            styles[i] = series_style(i);
            numbers[i] = 1;
            ink[i] = COL_FG;
            widths[i] = 2.0;
            scales[i] = 1.0;
            symbols[i] = series_marker(i);
        }
        PLFLT w, h;
        plschr(0, LEGEND_CHR);
        if (place->below) /* at the foot of the page, centred on it, under the x axis's label */
            pllegend(&w, &h, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX | PL_LEGEND_ROW_MAJOR,
                     PL_POSITION_SUBPAGE | PL_POSITION_INSIDE | PL_POSITION_BOTTOM, 0.0, 0.02, 0.04, COL_BG, COL_GRID, 1, place->rows,
                     place->cols, (PLINT)n, opt, 0.8, LEGEND_TEXT, 2.0, 0.0, ink, (const char *const *)text, NULL, NULL,
                     NULL, NULL, colors, styles, widths, colors, scales, numbers, (const char *const *)symbols);
        else
            pllegend(&w, &h, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX, PL_POSITION_OUTSIDE | PL_POSITION_RIGHT, 0.02,
                     0.0, 0.06, COL_BG, COL_GRID, 1, 0, 1, (PLINT)n, opt, 0.8, LEGEND_TEXT, 2.0, 0.0, ink,
                     (const char *const *)text, NULL, NULL, NULL, NULL, colors, styles, widths, colors, scales, numbers,
                     (const char *const *)symbols);
        plschr(0, 0.95);
    }
    free(opt);
    free(colors);
    free(styles);
    free(numbers);
    free(ink);
    free(widths);
    free(scales);
    free(symbols);
}

static const char *draw_lines(const PlotFigure *f, const char *dev, const char *file)
{
    size_t total = 0;
    for (size_t s = 0; s < f->nseries; s++) total += f->series[s].n;
    double *xs = malloc((total ? total : 1) * sizeof *xs), *ys = malloc((total ? total : 1) * sizeof *ys);
    char **labels = calloc(f->nseries ? f->nseries : 1, sizeof *labels);
    if (!xs || !ys || !labels) return "out of memory";
    size_t k = 0;
    for (size_t s = 0; s < f->nseries; s++) {
        if (!(labels[s] = strdup(f->series[s].label))) return "out of memory"; /* the child then exits */
        for (size_t i = 0; i < f->series[s].n; i++, k++) {
            xs[k] = f->series[s].x[i];
            ys[k] = f->series[s].y[i];
        }
    }
    double x0, x1, y0, y1;
    range(xs, total, f->xlog, &x0, &x1);
    range(ys, total, f->ylog, &y0, &y1);
    if (!f->ylog && y0 < 0 && ys[0] >= 0) { /* metrics are counts: keep the axis at 0 when the data are */
        bool neg = false;
        for (size_t i = 0; i < total; i++) neg |= ys[i] < 0;
        if (!neg) y0 = 0;
    }
    page(dev, file);
    bool keyed = f->nseries > 1 || labels[0][0];
    LegendPlace place = { false, 1, 1, 0, 0 };
    if (keyed) place = legend_place(f->nseries, labels);
    if (place.below) plvpor(0.115, 0.95, 0.12 + place.room, 0.86);
    else plvpor(0.115, 0.95 - place.room, 0.12, 0.86);
    plwind(x0, x1, y0, y1);
    axes(f->xlog, f->ylog);
    titles(f->title, f->subtitle, f->xlabel, f->ylabel);
    k = 0;
    for (size_t s = 0; s < f->nseries; s++) {
        const PlotSeries *ps = &f->series[s];
        for (size_t i = 0; i < ps->n; i++) {
            xs[i] = f->xlog ? log10(ps->x[i]) : ps->x[i];
            ys[i] = f->ylog ? log10(ps->y[i]) : ps->y[i];
        }
        plcol0(series_color(s));
        plwidth(2.0);
        pllsty(series_style(s));
        if (ps->n > 1) plline((PLINT)ps->n, xs, ys);
        pllsty(1);
        plstring((PLINT)ps->n, xs, ys, series_marker(s));
    }
    plcol0(COL_FG);
    if (keyed) legend(f->nseries, (const char *const *)labels, &place);
    plend();
    free(xs);
    free(ys);
    for (size_t s = 0; s < f->nseries; s++) free(labels[s]);
    free(labels);
    return NULL;
}

static void si(double v, const char *unit, char *buf, size_t cap)
{
    if (v >= 1e3) snprintf(buf, cap, "%.3g T%s", v / 1e3, unit);
    else snprintf(buf, cap, "%.3g G%s", v, unit);
}

static const char *draw_roofline(const RooflineFigure *f, const char *dev, const char *file)
{
    double ridge = f->peak_gflops / f->peak_gbs;
    double ilo = ridge, ihi = ridge, glo = f->peak_gflops;
    for (size_t i = 0; i < f->n; i++) {
        if (f->intensity[i] < ilo) ilo = f->intensity[i];
        if (f->intensity[i] > ihi) ihi = f->intensity[i];
        if (f->gflops[i] < glo) glo = f->gflops[i];
    }
    double x0 = floor(log10(ilo) - 0.3), x1 = fmax(ceil(log10(ihi) + 0.3), ceil(log10(ridge)) + 1);
    double y0 = floor(log10(glo) - 0.3), y1 = log10(f->peak_gflops) + 0.5;
    page(dev, file);
    plvpor(0.115, 0.95, 0.12, 0.86);
    plwind(x0, x1, y0, y1);
    axes(true, true);
    titles(f->title, f->subtitle, "arithmetic intensity [FP32 flops per DRAM byte]", "achieved FP32 [GFLOP/s]");
    /* the ceilings: DRAM bandwidth x intensity up to the ridge, then the FP32 peak */
    double cx[3] = { x0, log10(ridge), x1 };
    double cy[3] = { log10(f->peak_gbs) + x0, log10(f->peak_gflops), log10(f->peak_gflops) };
    if (cy[0] < y0) { /* start the memory roof where it enters the chart */
        cx[0] = y0 - log10(f->peak_gbs);
        cy[0] = y0;
    }
    plcol0(COL_CEILING);
    plwidth(3.0);
    plline(3, cx, cy);
    char text[96], num[48];
    plschr(0, 0.9);
    si(f->peak_gbs, "B/s", num, sizeof num);
    snprintf(text, sizeof text, "DRAM %s", num);
    double mx = (cx[0] + cx[1]) / 2;
    plptex(mx, log10(f->peak_gbs) + mx + 0.08 * (y1 - y0), 1, 1, 0.5, text);
    si(f->peak_gflops, "FLOP/s", num, sizeof num);
    snprintf(text, sizeof text, "FP32 peak %s", num);
    plptex(x1 - 0.02 * (x1 - x0), cy[1] + 0.04 * (y1 - y0), 1, 0, 1.0, text);
    snprintf(text, sizeof text, "ridge %.3g flop/B", ridge);
    plschr(0, 0.75);
    plptex(cx[1], cy[1] - 0.05 * (y1 - y0), 1, 0, 0.0, text);
    for (size_t i = 0; i < f->n; i++) { /* each variant, named beside its mark */
        double px = log10(f->intensity[i]), py = log10(f->gflops[i]);
        plcol0(series_color(i));
        plschr(0, 1.3);
        plstring(1, &px, &py, series_marker(i));
        plschr(0, 0.85);
        plptex(px + 0.04 * (x1 - x0), py, 1, 0, 0.0, f->labels[i]);
    }
    plend();
    return NULL;
}

/* ------------------------------------------------------------ the child process */

typedef const char *(*DrawFn)(const void *fig, const char *dev, const char *file);

static const char *lines_fn(const void *fig, const char *dev, const char *file)
{
    return draw_lines(fig, dev, file);
}

static const char *roofline_fn(const void *fig, const char *dev, const char *file)
{
    return draw_roofline(fig, dev, file);
}

static bool draw(DrawFn fn, const void *fig, const char *path, const char *flag, Diag *d)
{
    const char *dev = device_of(path);
    if (!dev) {
        diag_set(d, flag, 0, 0, "%s: the picture's name ends in .png, .svg or .pdf", path);
        return false;
    }
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp) {
        diag_set(d, flag, 0, 0, "out of memory");
        return false;
    }
    snprintf(tmp, n, "%s.tmp-%ld", path, (long)getpid());
    FILE *probe = fopen(tmp, "wb"); /* our message, not PLplot's exit, for a folder we cannot write */
    if (!probe) {
        diag_set(d, flag, 0, 0, "cannot write %s: %s", path, strerror(errno));
        free(tmp);
        return false;
    }
    fclose(probe);
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        diag_set(d, flag, 0, 0, "cannot draw %s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    fflush(stdout); /* the child must not write the parent's buffered output again */
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(pipefd[0]);
        const char *why = NULL;
        if (!have_device(dev))
            why = "PLplot has no cairo driver here (its drivers are plugins): install plplot-driver-cairo (Debian)";
        else
            why = fn(fig, dev, tmp);
        if (why && write(pipefd[1], why, strlen(why)) < 0) _exit(4);
        _exit(why ? 3 : 0);
    }
    close(pipefd[1]);
    char why[512] = "";
    ssize_t got = 0, r;
    while (pid > 0 && got < (ssize_t)sizeof why - 1 && (r = read(pipefd[0], why + got, sizeof why - 1 - (size_t)got)) > 0)
        got += r;
    why[got > 0 ? got : 0] = '\0';
    close(pipefd[0]);
    int status = 0;
    bool ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (ok && rename(tmp, path) != 0) {
        diag_set(d, flag, 0, 0, "cannot write %s: %s", path, strerror(errno));
        ok = false;
    } else if (!ok) {
        if (pid < 0) diag_set(d, flag, 0, 0, "cannot draw %s: %s", path, strerror(errno));
        else if (why[0]) diag_set(d, flag, 0, 0, "cannot draw %s: %s", path, why);
        else
            diag_set(d, flag, 0, 0,
                     "cannot draw %s: PLplot stopped (its message is above); PNG, SVG and PDF need its cairo "
                     "driver (Debian: plplot-driver-cairo)",
                     path);
    }
    if (!ok) unlink(tmp);
    free(tmp);
    return ok;
}

bool plot_draw_lines(const PlotFigure *f, const char *path, Diag *d)
{
    return draw(lines_fn, f, path, "--plot", d);
}

bool plot_draw_roofline(const RooflineFigure *f, const char *path, Diag *d)
{
    return draw(roofline_fn, f, path, "--roofline", d);
}

/* cli/plot.h -- the pictures gpusim draws: a sweep's line chart (a metric
** against a swept key, one series per value of the other keys or per
** variant) and a run's roofline (each variant at its arithmetic intensity
** and FP32 rate under the machine's FP32 and DRAM ceilings).
**
** This file's plot.c gathers the data and decides the figure: the series
** and their order, axis labels with units, log scales where the values span
** more than a decade, the title naming workload and machine. Drawing is
** plot_draw_lines / plot_draw_roofline: cli/plot_plplot.c with PLplot (its
** cairo drivers write PNG, SVG and PDF), or cli/plot_none.c when gpusim is
** built without PLplot, which says what to install. A picture is written
** whole or not at all (to a temporary name, then renamed).              */
#ifndef GPUSIM_CLI_PLOT_H
#define GPUSIM_CLI_PLOT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "cli/report.h"

/* ------------------------------------------------------------ figures */

typedef struct {
    char    label[160];
    size_t  n;
    double *x, *y;       /* n points, x ascending                        */
} PlotSeries;

typedef struct {
    char        title[256], subtitle[320], xlabel[128], ylabel[128];
    bool        xlog, ylog;
    PlotSeries *series;
    size_t      nseries;
} PlotFigure;

typedef struct {
    char               title[256], subtitle[320];
    double             peak_gflops, peak_gbs; /* the FP32 and DRAM ceilings     */
    const char *const *labels;                /* n points: each variant         */
    const double      *intensity, *gflops;    /* FP32 flops per DRAM byte, GFLOP/s */
    size_t             n;
} RooflineFigure;

/* Writes the figure to path (.png, .svg or .pdf, by its extension). False
** with d set when the picture cannot be made: no plotting library in this
** build (the message says what to install), a missing driver, an unknown
** extension, nothing to draw, or a write error. Never exits the process. */
bool plot_draw_lines(const PlotFigure *f, const char *path, Diag *d);
bool plot_draw_roofline(const RooflineFigure *f, const char *path, Diag *d);

/* Whether this build can draw at all; when not, why holds what to install. */
bool plot_available(char *why, size_t cap);

/* ------------------------------------------------------------ choices */

/* Series s's look: colour (of PLOT_COLORS), marker (of PLOT_MARKERS) and
** line style (of PLOT_STYLES). The colour cycles fastest, the marker shifts
** by one each time the colours come round, the style each time the
** colour-marker pairs do: no two series of a chart look alike up to
** 10 x 5 x 8 of them (a sweep of 12 series repeated after 10). */
#define PLOT_COLORS  10
#define PLOT_MARKERS 5
#define PLOT_STYLES  8
typedef struct {
    int color, marker, style;
} PlotLook;
PlotLook plot_series_look(size_t s);

/* True when path ends in .png, .svg or .pdf (any case). */
bool plot_path_ok(const char *path);

/* Whether values[0..n) call for a log axis: all above 0 and the largest at
** least 10 times the smallest. */
bool plot_log_scale(const double *values, size_t n);

/* The unit of a metric (--y) or of a swept key (--x), "" when it has none
** or is not known; for axis labels ("cycles [cycles]" is left as "cycles"). */
const char *plot_metric_unit(const char *metric);
const char *plot_key_unit(const char *key);

/* Whether metric names a number of a sweep's lines: cycles, time_us, ratio,
** a stats field, or stall_NAME. */
bool plot_metric_known(const char *metric);

/* ------------------------------------------------------------ a sweep's chart */

typedef struct SweepPlot SweepPlot;

/* A chart of y against x; series NULL: one series per combination of the
** other keys and the variant that vary, else one per value of that key
** and variant (the other keys must then each hold one value:
** sweep_plot_write refuses otherwise). NULL when out of memory. */
SweepPlot *sweep_plot_create(const char *x, const char *y, const char *series);
void sweep_plot_destroy(SweepPlot *p);

/* Draws only the runs of these variants (names[0..n), kept by pointer; the
** others are left out). False when out of memory. sweep_plot_write says
** which of them no run has. */
bool sweep_plot_only_variants(SweepPlot *p, const char *const *names, size_t n);

/* The first of those variants no run added so far has, or NULL. */
const char *sweep_plot_missing_variant(const SweepPlot *p);

/* Adds one line of a sweep (a parsed JSON object; a SweepLineFn). Runs
** that did not finish, or without the metric, are left out (and counted). */
void sweep_plot_add(void *plot, const cJSON *line);

/* Builds the figure (series in the order of their first run, points by x)
** and writes it to path. */
bool sweep_plot_write(SweepPlot *p, const char *path, Diag *d);

/* ------------------------------------------------------------ a run's roofline */

/* `gpusim run --roofline`: every variant of the report that ran and did
** FP32 work, on the machine's roofline, labelled; the others are named
** under the title. */
bool plot_roofline_report(const RunReport *r, const char *path, Diag *d);

#endif

/* cli/plot.c -- what the pictures show (see plot.h): the data of a sweep's
** chart gathered from its JSON lines, the series, labels, units and scales,
** and the roofline of a run. Pure but for the drawing call at the end; the
** drawing itself is cli/plot_plplot.c (or cli/plot_none.c).             */
#include "cli/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/sweep_lines.h"
#include "sim/stats.h"

/* ------------------------------------------------------------ choices */

PlotLook plot_series_look(size_t s)
{
    return (PlotLook){ (int)(s % PLOT_COLORS), (int)((s + s / PLOT_COLORS) % PLOT_MARKERS),
                       (int)(s / (PLOT_COLORS * PLOT_MARKERS) % PLOT_STYLES) };
}

bool plot_path_ok(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    if (n < 5) return false;
    const char *ext = path + n - 4;
    return strcasecmp(ext, ".png") == 0 || strcasecmp(ext, ".svg") == 0 || strcasecmp(ext, ".pdf") == 0;
}

bool plot_log_scale(const double *values, size_t n)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(values[i] > 0)) return false;
        if (values[i] < lo) lo = values[i];
        if (values[i] > hi) hi = values[i];
    }
    return n > 1 && hi >= 10 * lo;
}

typedef struct {
    const char *name;  /* exact name, or "*suffix" / "prefix*" */
    const char *unit;
} Unit;

static const Unit METRIC_UNITS[] = {
    { "time_us", "µs" },
    { "ratio", "× the point's first variant" },
    { "ipc", "warp instructions per cycle" },
    { "theoretical_occupancy", "share of warp slots" },
    { "achieved_occupancy", "share of warp slots" },
    { "branch_efficiency", "share of lanes" },
    { "l2_hit_rate", "share of sectors" },
    { "dram_bytes", "bytes" },
    { "dram_bandwidth_gbs", "GB/s" },
    { "gld_sectors", "32-byte sectors" },
    { "gst_sectors", "32-byte sectors" },
    { "stall_*", "share of warp cycles" },
};

static const Unit KEY_UNITS[] = {
    { "*_gbs", "GB/s" },
    { "*_mhz", "MHz" },
    { "*_per_clk", "per cycle" },
    { "lat.*", "cycles" },
    { "pipe.*", "cycles" },
    { "*_interval", "cycles" },
    { "*.size", "bytes" },
    { "*_bytes", "bytes" },
    { "*.shared_*", "bytes" },
    { "*.shared_memory", "bytes" },
    { "sm.l1_shared_total", "bytes" },
    { "sm.*registers", "registers" },
    { "sm.max_regs_*", "registers" },
    { "smem.banks", "banks" },
    { "*.assoc", "ways" },
    { "sm.count", "SMs" },
    { "block", "threads" },
};

static const char *unit_of(const Unit *t, size_t n, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < n; i++) {
        const char *p = t[i].name;
        size_t pl = strlen(p);
        bool hit = p[0] == '*' ? len >= pl - 1 && strcmp(name + len - (pl - 1), p + 1) == 0
                   : p[pl - 1] == '*' ? strncmp(name, p, pl - 1) == 0
                                      : strcmp(name, p) == 0;
        if (hit) return t[i].unit;
    }
    return "";
}

const char *plot_metric_unit(const char *metric)
{
    return unit_of(METRIC_UNITS, sizeof METRIC_UNITS / sizeof METRIC_UNITS[0], metric);
}

const char *plot_key_unit(const char *key)
{
    return unit_of(KEY_UNITS, sizeof KEY_UNITS / sizeof KEY_UNITS[0], key);
}

bool plot_metric_known(const char *metric)
{
    if (!metric) return false;
    if (!strcmp(metric, "cycles") || !strcmp(metric, "time_us") || !strcmp(metric, "ratio")) return true;
    for (size_t i = 0; i < report_stat_count(); i++)
        if (!strcmp(metric, report_stat_name(i)))
            return strcmp(metric, "occupancy_limiter") != 0 && strcmp(metric, "roofline_bound") != 0; /* words */
    if (!strncmp(metric, "stall_", 6))
        for (int k = 0; k < STALL_REASONS; k++)
            if (!strcmp(metric + 6, STALL_NAMES[k])) return true;
    return false;
}

static void axis_label(char *buf, size_t cap, const char *name, const char *unit)
{
    if (unit[0]) snprintf(buf, cap, "%s [%s]", name, unit);
    else snprintf(buf, cap, "%s", name);
}

/* ------------------------------------------------------------ gathering */

#define SIG_SEP '\x1f' /* between key=value parts of a datum's signature */

typedef struct {
    uint64_t order;    /* point * variants + variant: the run's place     */
    double   x, y;
    char    *sig;      /* "gpu=a100\x1fvariant=naive\x1fsm.count=54": every
                          key but x, with its value                      */
} Datum;

struct SweepPlot {
    char   *x, *y, *series;
    Datum  *d;
    size_t  n, cap;
    size_t  left_out;  /* runs that did not finish or lack the metric    */
    bool    x_not_number;
    char    workload[128];
    bool    oom;
    const char *const *only;  /* the variants drawn (NULL: all)               */
    size_t  nonly;
    bool   *only_seen;        /* ... and whether a run of each was seen       */
};

SweepPlot *sweep_plot_create(const char *x, const char *y, const char *series)
{
    SweepPlot *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->x = strdup(x);
    p->y = strdup(y);
    p->series = series ? strdup(series) : NULL;
    if (!p->x || !p->y || (series && !p->series)) {
        sweep_plot_destroy(p);
        return NULL;
    }
    return p;
}

bool sweep_plot_only_variants(SweepPlot *p, const char *const *names, size_t n)
{
    p->only = names;
    p->nonly = n;
    p->only_seen = calloc(n ? n : 1, sizeof *p->only_seen);
    return p->only_seen != NULL;
}

const char *sweep_plot_missing_variant(const SweepPlot *p)
{
    for (size_t k = 0; k < p->nonly; k++)
        if (!p->only_seen[k]) return p->only[k];
    return NULL;
}

void sweep_plot_destroy(SweepPlot *p)
{
    if (!p) return;
    free(p->only_seen);
    for (size_t i = 0; i < p->n; i++) free(p->d[i].sig);
    free(p->d);
    free(p->x);
    free(p->y);
    free(p->series);
    free(p);
}

static bool number_at(const cJSON *o, const char *key, double *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(it)) return false;
    *v = it->valuedouble;
    return true;
}

static bool metric_of(const cJSON *line, const char *metric, double *v)
{
    if (!strcmp(metric, "cycles") || !strcmp(metric, "time_us") || !strcmp(metric, "ratio"))
        return number_at(line, metric, v);
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(line, "stats");
    if (!strncmp(metric, "stall_", 6) && number_at(cJSON_GetObjectItemCaseSensitive(stats, "stall_reasons"), metric + 6, v))
        return true;
    return number_at(stats, metric, v);
}

/* A swept key's value: a knob from "set", a parameter's final value from
** "params" (its given text from "param" may be an expression). */
static bool key_number(const cJSON *line, const char *key, double *v)
{
    if (number_at(cJSON_GetObjectItemCaseSensitive(line, "set"), key, v)) return true;
    if (cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(line, "param"), key))
        return number_at(cJSON_GetObjectItemCaseSensitive(line, "params"), key, v);
    return false;
}

static void sig_add(char **s, size_t *len, const char *key, const cJSON *value)
{
    char num[64];
    const char *text = cJSON_IsString(value) ? value->valuestring : NULL;
    if (cJSON_IsNumber(value)) {
        sweep_number_text(value->valuedouble, num, sizeof num);
        text = num;
    }
    if (!text || !*s) return;
    size_t add = strlen(key) + strlen(text) + 2;
    char *t = realloc(*s, *len + add + 1);
    if (!t) {
        free(*s);
        *s = NULL;
        return;
    }
    *s = t;
    *len += (size_t)snprintf(t + *len, add + 1, "%s%s=%s", *len ? "\x1f" : "", key, text);
}

void sweep_plot_add(void *plot, const cJSON *line)
{
    SweepPlot *p = plot;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(line, "workload");
    if (cJSON_IsString(w) && !p->workload[0]) snprintf(p->workload, sizeof p->workload, "%s", w->valuestring);
    if (p->only) { /* --variant: only those */
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, "variant");
        size_t k = 0;
        while (k < p->nonly && !(cJSON_IsString(v) && !strcmp(v->valuestring, p->only[k]))) k++;
        if (k == p->nonly) return;
        p->only_seen[k] = true;
    }
    double x, y;
    if (!key_number(line, p->x, &x)) {
        p->x_not_number = true;
        return;
    }
    if (!metric_of(line, p->y, &y) || !isfinite(y)) {
        p->left_out++;
        return;
    }
    SweepLine id;
    char why[128];
    if (!sweep_line_ident(line, &id, why, sizeof why)) {
        p->left_out++;
        return;
    }
    char *sig = calloc(1, 1);
    size_t len = 0;
    sig_add(&sig, &len, "gpu", cJSON_GetObjectItemCaseSensitive(line, "gpu"));
    sig_add(&sig, &len, "variant", cJSON_GetObjectItemCaseSensitive(line, "variant"));
    static const char *const groups[] = { "set", "param" };
    for (int g = 0; g < 2; g++) {
        const cJSON *grp = cJSON_GetObjectItemCaseSensitive(line, groups[g]);
        for (const cJSON *it = cJSON_IsObject(grp) ? grp->child : NULL; sig && it; it = it->next)
            if (strcmp(it->string, p->x) != 0) sig_add(&sig, &len, it->string, it);
    }
    if (!sig || p->oom) {
        free(sig);
        p->oom = true;
        return;
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        Datum *d = realloc(p->d, cap * sizeof *d);
        if (!d) {
            free(sig);
            p->oom = true;
            return;
        }
        p->d = d;
        p->cap = cap;
    }
    p->d[p->n++] = (Datum){ id.point * id.variants + id.variant, x, y, sig };
}

/* ------------------------------------------------------------ building the chart */

/* The parts of a signature, as key=value strings pointing into a copy. */
typedef struct {
    char  *copy;
    char  *part[64];
    size_t n;
} Parts;

static void parts_of(const char *sig, Parts *o)
{
    o->copy = strdup(sig);
    o->n = 0;
    for (char *s = o->copy; s && *s && o->n < 64;) {
        o->part[o->n++] = s;
        char *e = strchr(s, SIG_SEP);
        if (!e) break;
        *e = '\0';
        s = e + 1;
    }
}

static size_t key_len(const char *part)
{
    const char *eq = strchr(part, '=');
    return eq ? (size_t)(eq - part) : strlen(part);
}

static int cmp_datum(const void *a, const void *b)
{
    const Datum *x = a, *y = b;
    int s = strcmp(x->sig, y->sig);
    if (s) return s;
    return x->x < y->x ? -1 : x->x > y->x ? 1 : x->order < y->order ? -1 : x->order > y->order;
}

typedef struct {
    size_t   first, count; /* into the sorted data                  */
    uint64_t order;        /* the smallest run order in the series */
} Run;

static int cmp_run(const void *a, const void *b)
{
    const Run *x = a, *y = b;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* A part "key=value" as a legend shows it: a variant by its name. */
static void show_part(char *buf, size_t cap, const char *part)
{
    if (!strncmp(part, "variant=", 8)) snprintf(buf, cap, "%s", part + 8);
    else snprintf(buf, cap, "%s", part);
}

/* Which keys of the runs vary (a key varies when two data differ in its
** part), into varies[], with the parts of the first datum in *first (the
** caller frees first->copy); with --series, the part it names, which must
** be the only one besides --x that varies. False (d set) otherwise. */
static bool varying_keys(SweepPlot *p, Parts *first, bool varies[64], int *series_part, Diag *d)
{
    parts_of(p->d[0].sig, first);
    if (!first->copy) {
        diag_set(d, "--plot", 0, 0, "out of memory");
        return false;
    }
    for (size_t i = 1; i < p->n; i++) {
        Parts o;
        parts_of(p->d[i].sig, &o);
        for (size_t k = 0; k < first->n && k < o.n; k++)
            if (strcmp(first->part[k], o.part[k]) != 0) varies[k] = true;
        free(o.copy);
    }
    if (!p->series) return true;
    for (size_t k = 0; k < first->n; k++)
        if (key_len(first->part[k]) == strlen(p->series) && !strncmp(first->part[k], p->series, strlen(p->series)))
            *series_part = (int)k;
    if (*series_part < 0) {
        diag_set(d, "--series", 0, 0, "%s is not a key of the sweep (gpu, variant, a --set knob or a --param)",
                 p->series);
        free(first->copy);
        return false;
    }
    for (size_t k = 0; k < first->n; k++)
        if (varies[k] && (int)k != *series_part && strncmp(first->part[k], "variant=", 8) != 0) { /* variants: series apart */
            diag_set(d, "--series", 0, 0,
                     "the sweep also varies %.*s: with --series %s every other key but --x %s takes one value "
                     "(or leave --series out for a series per combination)",
                     (int)key_len(first->part[k]), first->part[k], p->series, p->x);
            free(first->copy);
            return false;
        }
    return true;
}

bool sweep_plot_write(SweepPlot *p, const char *path, Diag *d)
{
    if (p->oom) {
        diag_set(d, "--plot", 0, 0, "out of memory");
        return false;
    }
    if (p->x_not_number) {
        diag_set(d, "--x", 0, 0, "%s is not a number in the runs (--x takes a swept --set knob or --param)", p->x);
        return false;
    }
    if (sweep_plot_missing_variant(p)) {
        diag_set(d, "--variant", 0, 0, "no run of the files is of variant '%s'", sweep_plot_missing_variant(p));
        return false;
    }
    if (p->n == 0) {
        diag_set(d, "--plot", 0, 0, "no run has %s to plot (%zu did not finish)", p->y, p->left_out);
        return false;
    }
    Parts first;
    bool varies[64] = { false };
    int series_part = -1;
    if (!varying_keys(p, &first, varies, &series_part, d)) return false;
    /* series: data grouped by the parts that vary (all of them, or --series) */
    for (size_t i = 0; i < p->n; i++) {
        Parts o;
        parts_of(p->d[i].sig, &o);
        char key[512] = "";
        for (size_t k = 0; k < o.n; k++) {
            bool variant = !strncmp(o.part[k], "variant=", 8);
            if (!(p->series ? (int)k == series_part || (variant && varies[k]) : varies[k])) continue;
            size_t len = strlen(key);
            char shown[200];
            if (p->series && (int)k == series_part && strcmp(p->series, "variant") != 0) /* its key is in the subtitle */
                snprintf(shown, sizeof shown, "%s", o.part[k] + key_len(o.part[k]) + 1);
            else
                show_part(shown, sizeof shown, o.part[k]);
            snprintf(key + len, sizeof key - len, "%s%s", len ? ", " : "", shown);
        }
        free(o.copy);
        char *label = strdup(key);
        if (!label) {
            free(first.copy);
            diag_set(d, "--plot", 0, 0, "out of memory");
            return false;
        }
        free(p->d[i].sig);
        p->d[i].sig = label;
    }
    qsort(p->d, p->n, sizeof *p->d, cmp_datum);
    Run *runs = calloc(p->n, sizeof *runs);
    PlotFigure f;
    memset(&f, 0, sizeof f);
    f.series = calloc(p->n, sizeof *f.series);
    double *xs = malloc(p->n * sizeof *xs), *ys = malloc(p->n * sizeof *ys);
    bool ok = runs && f.series && xs && ys;
    size_t nruns = 0;
    for (size_t i = 0; ok && i < p->n; i++) {
        if (i == 0 || strcmp(p->d[i].sig, p->d[i - 1].sig) != 0) runs[nruns++] = (Run){ i, 0, UINT64_MAX };
        Run *r = &runs[nruns - 1];
        r->count++;
        if (p->d[i].order < r->order) r->order = p->d[i].order;
        xs[i] = p->d[i].x;
        ys[i] = p->d[i].y;
    }
    if (ok) {
        qsort(runs, nruns, sizeof *runs, cmp_run);
        for (size_t s = 0; s < nruns; s++) {
            PlotSeries *ps = &f.series[f.nseries++];
            const char *label = p->d[runs[s].first].sig;
            snprintf(ps->label, sizeof ps->label, "%s", label); /* "": one series, no legend */
            ps->n = runs[s].count;
            ps->x = xs + runs[s].first;
            ps->y = ys + runs[s].first;
        }
        f.xlog = plot_log_scale(xs, p->n);
        f.ylog = plot_log_scale(ys, p->n);
        axis_label(f.xlabel, sizeof f.xlabel, p->x, plot_key_unit(p->x));
        axis_label(f.ylabel, sizeof f.ylabel, p->y, plot_metric_unit(p->y));
        /* title: the workload and machine; under it the keys held fixed */
        char gpu[96] = "", fixed[320] = "";
        for (size_t k = 0; k < first.n; k++) {
            if (!strncmp(first.part[k], "gpu=", 4)) {
                snprintf(gpu, sizeof gpu, "%s", varies[k] ? "several machines" : first.part[k] + 4);
            } else if (!varies[k]) {
                size_t len = strlen(fixed);
                char shown[200];
                show_part(shown, sizeof shown, first.part[k]);
                snprintf(fixed + len, sizeof fixed - len, "%s%s%s", len ? ", " : "",
                         !strncmp(first.part[k], "variant=", 8) ? "variant " : "", shown);
            }
        }
        snprintf(f.title, sizeof f.title, "%s of %s on %s", p->y, p->workload[0] ? p->workload : "?", gpu);
        size_t len = (size_t)snprintf(f.subtitle, sizeof f.subtitle, "%s", fixed);
        if (p->series && strcmp(p->series, "variant") != 0 && len < sizeof f.subtitle) /* the legend's values are its */
            len += (size_t)snprintf(f.subtitle + len, sizeof f.subtitle - len, "%sseries by %s", len ? "; " : "", p->series);
        if (p->left_out && len < sizeof f.subtitle)
            snprintf(f.subtitle + len, sizeof f.subtitle - len, "%s%zu run%s without %s left out", len ? "; " : "",
                     p->left_out, p->left_out == 1 ? "" : "s", p->y);
        ok = plot_draw_lines(&f, path, d);
    } else {
        diag_set(d, "--plot", 0, 0, "out of memory");
    }
    free(first.copy);
    free(runs);
    free(f.series);
    free(xs);
    free(ys);
    return ok;
}

/* ------------------------------------------------------------ roofline */

bool plot_roofline_report(const RunReport *r, const char *path, Diag *d)
{
    RooflineFigure f;
    memset(&f, 0, sizeof f);
    const char **labels = calloc(r->nrows ? r->nrows : 1, sizeof *labels);
    double *x = calloc(r->nrows ? r->nrows : 1, sizeof *x), *y = calloc(r->nrows ? r->nrows : 1, sizeof *y);
    if (!labels || !x || !y) {
        free(labels);
        free(x);
        free(y);
        diag_set(d, "--roofline", 0, 0, "out of memory");
        return false;
    }
    char left[256] = "";
    for (uint32_t i = 0; i < r->nrows; i++) {
        const RunRow *row = &r->rows[i];
        if (row->ran && row->st.flops > 0 && row->st.dram_bytes > 0 && row->st.achieved_gflops > 0) {
            if (f.peak_gflops == 0) {
                f.peak_gflops = row->st.peak_gflops;
                f.peak_gbs = row->st.peak_dram_gbs;
            }
            labels[f.n] = row->v->name;
            x[f.n] = row->st.arithmetic_intensity;
            y[f.n] = row->st.achieved_gflops;
            f.n++;
        } else {
            size_t len = strlen(left), add = strlen(row->v->name);
            if (len + add + 2 + 6 <= sizeof left) { /* room for this name and a later ", ..." */
                if (len) memcpy(left + len, ", ", 2), len += 2;
                memcpy(left + len, row->v->name, add + 1);
            } else if (!strstr(left, ", ...")) {
                strcpy(left + len, ", ...");
            }
        }
    }
    f.labels = labels;
    f.intensity = x;
    f.gflops = y;
    snprintf(f.title, sizeof f.title, "Roofline of %s on %s", r->w->name, r->c->name);
    size_t len = (size_t)snprintf(f.subtitle, sizeof f.subtitle, "%s; ", r->c->description);
    for (uint32_t i = 0; i < r->w->nparams && len < sizeof f.subtitle; i++)
        len += (size_t)snprintf(f.subtitle + len, sizeof f.subtitle - len, "%s%s=%lld", i ? ", " : "",
                                r->w->params[i].name, (long long)r->w->params[i].value);
    for (size_t i = 0; i < r->nsets && len < sizeof f.subtitle; i++)
        len += (size_t)snprintf(f.subtitle + len, sizeof f.subtitle - len, "%s--set %s", len ? ", " : "", r->sets[i]);
    if (left[0] && len < sizeof f.subtitle)
        snprintf(f.subtitle + len, sizeof f.subtitle - len, "%snot on the chart (no FP32 work or not run): %s",
                 len ? "; " : "", left);
    bool ok;
    if (f.n == 0) {
        diag_set(d, "--roofline", 0, 0, "no variant did FP32 work to place on the roofline (%s)", left);
        ok = false;
    } else {
        ok = plot_draw_roofline(&f, path, d);
    }
    free(labels);
    free(x);
    free(y);
    return ok;
}

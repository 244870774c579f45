/* cli/sweep_run.c -- a sweep's points on a pool of threads (see
** sweep_run.h). The workers take points in sweep order from a shared
** counter and leave each finished point's lines in a ring of slots; the
** calling thread waits for the slot of the next point in order and emits
** its lines. A worker does not start a point more than a window of slots
** ahead of the oldest one not yet emitted, which bounds the finished lines
** held in memory however uneven the points are. Nothing in a line depends
** on which thread ran it or when.                                        */
#include "cli/sweep_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpusim_version.h"
#include "base/jsonstr.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "cli/variant.h"

/* ------------------------------------------------------------ one run */

/* A finished point: the line of each of its variants. */
typedef struct {
    char      **line;     /* job->nvariants lines, each with its newline */
    size_t     *len;
    RunOutcome *outcome;
    bool        ok;       /* false: out of memory                         */
} Done;

static void done_free(Done *d, uint32_t n)
{
    for (uint32_t k = 0; d->line && k < n; k++) free(d->line[k]);
    free(d->line);
    free(d->len);
    free(d->outcome);
    memset(d, 0, sizeof *d);
}

/* A parameter or knob value as JSON: a number when it reads as one. */
static void json_value(FILE *out, const char *text)
{
    double v;
    bool number = (text[0] == '-' || (text[0] >= '0' && text[0] <= '9')) && cli_number_double(text, &v);
    if (number) fputs(text, out);
    else jsonstr_write(out, text);
}

static char *diag_text(const Diag *d)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    if (!f) return NULL;
    diag_print(f, d);
    if (fclose(f) != 0) {
        free(s);
        return NULL;
    }
    if (n && s[n - 1] == '\n') s[n - 1] = '\0';
    return s;
}

/* The identity, the machine and the parameters: everything up to "check". */
static void write_head(FILE *f, const SweepJob *J, uint64_t point, uint32_t vi, const GpuConfig *cfg, bool cfg_ok,
                       const uint32_t *idx, const Workload *w)
{
    const SweepSpec *S = J->spec;
    fprintf(f, "{\"spec\": \"%s\", \"point\": %llu, \"points\": %llu, \"variant\": ", J->spec_hash,
            (unsigned long long)point, (unsigned long long)S->npoints);
    jsonstr_write(f, J->variants[vi]);
    fprintf(f, ", \"variant_index\": %u, \"variants\": %u, \"workload\": ", vi, J->nvariants);
    jsonstr_write(f, J->workload_name);
    fputs(", \"gpu\": ", f);
    jsonstr_write(f, cfg->name);
    fputs(", \"gpusim_version\": ", f);
    jsonstr_write(f, GPUSIM_VERSION);
    if (cfg_ok) fprintf(f, ", \"config_fnv1a\": \"%016llx\"", (unsigned long long)report_config_hash(cfg));
    else fputs(", \"config_fnv1a\": null", f);
    for (int kind = AXIS_SET; kind <= AXIS_PARAM; kind++) {
        fputs(kind == AXIS_SET ? ", \"set\": {" : ", \"param\": {", f);
        bool first = true;
        for (uint32_t k = 0; k < S->naxes; k++) {
            const SweepAxis *a = &S->axes[k];
            if ((int)a->kind != kind) continue;
            fputs(first ? "" : ", ", f);
            first = false;
            jsonstr_write(f, a->key);
            fputs(": ", f);
            int knob = kind == AXIS_SET ? config_knob_find(a->key) : -1;
            if (cfg_ok && knob >= 0) { /* the value the machine holds */
                char text[64];
                config_knob_text(cfg, (size_t)knob, text, sizeof text);
                if (config_knob_is_number((size_t)knob)) fputs(text, f);
                else jsonstr_write(f, text);
            } else {
                json_value(f, a->values[idx[k]]);
            }
        }
        fputc('}', f);
    }
    fputs(", \"params\": {", f);
    for (uint32_t i = 0; w && i < w->nparams; i++) {
        fputs(i ? ", " : "", f);
        jsonstr_write(f, w->params[i].name);
        fprintf(f, ": %lld", (long long)w->params[i].value);
    }
    fputs("}, \"seeds\": {", f);
    bool first = true;
    for (uint32_t i = 0; w && i < w->nbuffers; i++)
        if (w->buffers[i].init.kind == WL_INIT_RANDOM) {
            fputs(first ? "" : ", ", f);
            first = false;
            jsonstr_write(f, w->buffers[i].name);
            fprintf(f, ": %llu", (unsigned long long)w->buffers[i].init.seed);
        }
    fputs("}", f);
}

/* One run's line: the head (identity, machine, parameters), the outcome,
** the ratio against base (0: none), the stats and each launch's, the error. */
static char *format_line(const SweepJob *J, uint64_t point, uint32_t vi, const GpuConfig *cfg, bool cfg_ok,
                         const uint32_t *idx, const Workload *w, const RunRow *row, const char *error, uint64_t base,
                         size_t *len)
{
    char *s = NULL;
    FILE *f = open_memstream(&s, len);
    if (!f) return NULL;
    bool ran = row && row->ran;
    write_head(f, J, point, vi, cfg, cfg_ok, idx, w);
    fputs(", \"check\": ", f);
    jsonstr_write(f, row ? report_check_name(row->check) : "none");
    fputs(", \"status\": ", f);
    jsonstr_write(f, row ? gpu_status_name(row->status) : "bad_input");
    if (ran) {
        fprintf(f, ", \"cycles\": %llu, \"time_us\": ", (unsigned long long)row->st.cycles);
        jsonstr_number(f, row->st.time_us);
        fputs(", \"ratio\": ", f);
        if (base) jsonstr_number(f, (double)row->st.cycles / (double)base);
        else fputs("null", f);
        fputs(", \"stats\": ", f);
        report_json_stats(f, &row->st, true);
        if (row->v->nlaunches > 1) { /* each launch's own figures; the ones above are their sum */
            fputs(", \"launches\": [", f);
            for (uint32_t k = 0; k < row->v->nlaunches; k++) {
                fputs(k ? ", {\"kernel\": " : "{\"kernel\": ", f);
                jsonstr_write(f, row->v->launches[k].kernel->name);
                fprintf(f, ", \"cycles\": %llu, \"time_us\": ", (unsigned long long)row->launch_st[k].cycles);
                jsonstr_number(f, row->launch_st[k].time_us);
                fputs(", \"stats\": ", f);
                report_json_stats(f, &row->launch_st[k], true);
                fputc('}', f);
            }
            fputc(']', f);
        }
    } else {
        fputs(", \"cycles\": null, \"time_us\": null, \"ratio\": null, \"stats\": null", f);
    }
    if (error) {
        fputs(", \"error\": ", f);
        jsonstr_write(f, error);
    }
    fputs("}\n", f);
    if (fclose(f) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

/* Simulates the point into *out: every variant of the job, as gpusim run
** would at these values. */
static bool run_point(const SweepJob *J, uint64_t point, Done *out)
{
    const SweepSpec *S = J->spec;
    uint32_t nv = J->nvariants;
    memset(out, 0, sizeof *out);
    out->line = calloc(nv, sizeof *out->line);
    out->len = calloc(nv, sizeof *out->len);
    out->outcome = calloc(nv, sizeof *out->outcome);
    uint32_t *idx = calloc(S->naxes ? S->naxes : 1, sizeof *idx);
    const char **params = calloc(S->naxes ? S->naxes : 1, sizeof *params);
    char **owned = calloc(S->naxes ? S->naxes : 1, sizeof *owned);
    bool ok = out->line && out->len && out->outcome && idx && params && owned;
    GpuConfig cfg = J->bases[0];
    Diag d;
    memset(&d, 0, sizeof d);
    size_t np = 0;
    if (ok) {
        sweep_point_indices(S, point, idx);
        cfg = J->bases[idx[J->gpu_axis]];
    }
    bool good = ok;
    for (uint32_t k = 0; k < S->naxes && good; k++) {
        const SweepAxis *a = &S->axes[k];
        if (a->kind == AXIS_GPU) continue;
        size_t len = strlen(a->key) + strlen(a->values[idx[k]]) + 2;
        if (!(owned[k] = malloc(len))) {
            ok = good = false;
            break;
        }
        snprintf(owned[k], len, "%s=%s", a->key, a->values[idx[k]]);
        if (a->kind == AXIS_SET) good = config_set(&cfg, owned[k], &d);
        else params[np++] = owned[k];
    }
    bool cfg_ok = good && config_validate(&cfg, &d);
    if (good && !cfg_ok) snprintf(d.file, sizeof d.file, "--set");
    Workload w;
    memset(&w, 0, sizeof w);
    bool loaded = cfg_ok && workload_parse(J->workload_text, J->workload_len, J->workload_path, &cfg, params, np, &w, &d);
    /* the job's variants in this Workload, run in the order their checks need */
    uint32_t *of = loaded ? calloc(nv, sizeof *of) : NULL; /* job variant -> workload variant */
    RunRow *rows = loaded ? calloc(w.nvariants, sizeof *rows) : NULL;
    bool *picked = loaded ? calloc(w.nvariants, sizeof *picked) : NULL;
    VariantStore *store = loaded ? variant_store_create(&w) : NULL;
    if (loaded && (!of || !rows || !picked || !store)) ok = loaded = false;
    for (uint32_t k = 0; loaded && k < nv; k++) {
        const WlVariant *v = workload_find_variant(&w, J->variants[k]);
        if (!v) { /* the file is read once: a variant cannot go missing */
            diag_set(&d, J->workload_path, 0, 0, "no variant '%s' at this point", J->variants[k]);
            loaded = false;
            break;
        }
        of[k] = (uint32_t)(v - w.variants);
        picked[of[k]] = true;
    }
    for (uint32_t k = 0; loaded && k < w.nvariants; k++) {
        uint32_t i = w.order[k];
        if (!picked[i]) continue;
        VariantOptions opt = { .max_cycles = J->max_cycles, .max_instructions = J->max_instructions,
                               .racecheck = J->racecheck, .store = store, .threads = J->threads };
        variant_run(&cfg, &w, &w.variants[i], &opt, &rows[i]);
    }
    uint64_t base = 0; /* the first variant that finished, in the workload's order */
    for (uint32_t k = 0; loaded && k < nv && !base; k++)
        if (rows[of[k]].ran) base = rows[of[k]].st.cycles;
    char *why = loaded ? NULL : diag_text(&d);
    for (uint32_t k = 0; ok && k < nv; k++) {
        const RunRow *row = loaded ? &rows[of[k]] : NULL;
        out->line[k] = format_line(J, point, k, &cfg, cfg_ok, idx, loaded ? &w : NULL, row, row ? row->error : why,
                                   base, &out->len[k]);
        if (!out->line[k]) ok = false;
        out->outcome[k] = !row || (!row->ran && row->status == SIM_BAD_LAUNCH) ? RUN_BAD_INPUT
                          : !row->ran || row->check == CHECK_FAIL          ? RUN_FAILED
                                                                          : RUN_PASSED;
    }
    free(why);
    for (uint32_t i = 0; rows && i < w.nvariants; i++)
        if (picked[i]) variant_row_free(&rows[i]);
    variant_store_destroy(store);
    free(rows);
    free(picked);
    free(of);
    workload_destroy(&w);
    for (uint32_t k = 0; owned && k < S->naxes; k++) free(owned[k]);
    free(owned);
    free(params);
    free(idx);
    out->ok = ok;
    if (!ok) done_free(out, nv);
    return ok;
}

bool sweep_run_point(const SweepJob *job, uint64_t point, char **text, size_t *len, RunOutcome *worst)
{
    Done r;
    if (!run_point(job, point, &r)) return false;
    size_t n = 0;
    for (uint32_t k = 0; k < job->nvariants; k++) n += r.len[k];
    *text = malloc(n + 1);
    if (*text) {
        *len = 0;
        *worst = RUN_PASSED;
        for (uint32_t k = 0; k < job->nvariants; k++) {
            memcpy(*text + *len, r.line[k], r.len[k]);
            *len += r.len[k];
            if (r.outcome[k] > *worst) *worst = r.outcome[k];
        }
        (*text)[*len] = '\0';
    }
    done_free(&r, job->nvariants);
    return *text != NULL;
}

/* ------------------------------------------------------------ the pool */

typedef struct {
    const SweepJob  *job;
    const uint64_t  *points;
    uint64_t         npoints;
    uint64_t         window;   /* slots                                      */
    Done            *slots;    /* point i (position in points[]) in slot i % window */
    bool            *ready;
    pthread_mutex_t  mu;
    pthread_cond_t   work;     /* a slot was freed, or stop                 */
    pthread_cond_t   done;     /* a slot was filled                         */
    uint64_t         next;     /* the next position to start                */
    uint64_t         emitted;  /* positions below it are out                */
    bool             stop;
} Pool;

static void *worker(void *arg)
{
    Pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->stop && p->next < p->npoints && p->next - p->emitted >= p->window)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->stop || p->next >= p->npoints) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        uint64_t pos = p->next++;
        pthread_mutex_unlock(&p->mu);
        Done r;
        run_point(p->job, p->points[pos], &r); /* out of memory: r.ok false */
        pthread_mutex_lock(&p->mu);
        p->slots[pos % p->window] = r;
        p->ready[pos % p->window] = true;
        pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

/* "sweep [#####.......] 12/24 points (48/96 runs)  0:42 elapsed, ~0:40 left":
** points of this invocation (all variants of a point make one), runs, times. */
static void draw_progress(uint64_t done, uint64_t total, uint32_t variants, double elapsed)
{
    enum { BAR = 24 };
    char bar[BAR + 1], el[32], left[32];
    int fill = total ? (int)(BAR * done / total) : BAR;
    for (int i = 0; i < BAR; i++) bar[i] = i < fill ? '#' : '.';
    bar[BAR] = '\0';
    cli_clock_text(elapsed, el, sizeof el);
    if (done) cli_clock_text(elapsed / (double)done * (double)(total - done), left, sizeof left);
    else snprintf(left, sizeof left, "?");
    fprintf(stderr, "\rsweep [%s] %llu/%llu points (%llu/%llu runs)  %s elapsed, ~%s left\033[K", bar,
            (unsigned long long)(done / variants), (unsigned long long)((total + variants - 1) / variants),
            (unsigned long long)done, (unsigned long long)total, el, left);
    fflush(stderr);
}

static bool wanted(const uint8_t *have, uint64_t run)
{
    return !have || !(have[run / 8] >> (run % 8) & 1);
}

bool sweep_run(const SweepJob *job, const uint64_t *points, uint64_t npoints, const uint8_t *have, uint32_t threads,
               bool progress, SweepEmit emit, void *user, char *why, size_t cap)
{
    if (npoints == 0) return true;
    if (threads < 1) threads = 1;
    if (threads > npoints) threads = (uint32_t)npoints;
    const uint32_t nv = job->nvariants;
    uint64_t total = 0, out = 0; /* runs to hand out, and handed out */
    for (uint64_t i = 0; i < npoints; i++)
        for (uint32_t k = 0; k < nv; k++) total += wanted(have, points[i] * nv + k);
    Pool p;
    memset(&p, 0, sizeof p);
    p.job = job;
    p.points = points;
    p.npoints = npoints;
    p.window = 16 + 4 * (uint64_t)threads;
    p.slots = calloc(p.window, sizeof *p.slots);
    p.ready = calloc(p.window, sizeof *p.ready);
    pthread_t *tid = calloc(threads, sizeof *tid);
    if (!p.slots || !p.ready || !tid) {
        free(p.slots);
        free(p.ready);
        free(tid);
        snprintf(why, cap, "out of memory");
        return false;
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.done, NULL);
    uint32_t started = 0;
    bool ok = true;
    for (; started < threads; started++) {
        int e = pthread_create(&tid[started], NULL, worker, &p);
        if (e) {
            snprintf(why, cap, "cannot start a thread: %s", strerror(e));
            ok = false;
            break;
        }
    }
    double t0 = cli_now_seconds(), drawn = -1;
    for (uint64_t pos = 0; ok && started && pos < npoints; pos++) {
        pthread_mutex_lock(&p.mu);
        while (!p.ready[pos % p.window]) {
            if (!progress) {
                pthread_cond_wait(&p.done, &p.mu);
                continue;
            }
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 250000000;
            if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
            pthread_cond_timedwait(&p.done, &p.mu, &until);
            double t = cli_now_seconds();
            if (t - drawn >= 0.25) {
                draw_progress(out, total, nv, t - t0);
                drawn = t;
            }
        }
        Done r = p.slots[pos % p.window];
        p.ready[pos % p.window] = false;
        p.emitted = pos + 1;
        pthread_cond_broadcast(&p.work);
        pthread_mutex_unlock(&p.mu);
        if (!r.ok) {
            snprintf(why, cap, "out of memory");
            ok = false;
        }
        for (uint32_t k = 0; ok && k < nv; k++) {
            uint64_t run = points[pos] * nv + k;
            if (!wanted(have, run)) continue;
            out++;
            ok = emit(user, run, r.line[k], r.len[k], r.outcome[k]); /* false: the emitter says why */
        }
        done_free(&r, nv);
        if (progress && (cli_now_seconds() - drawn >= 0.25 || pos + 1 == npoints)) {
            drawn = cli_now_seconds();
            draw_progress(out, total, nv, drawn - t0);
        }
    }
    pthread_mutex_lock(&p.mu);
    p.stop = true;
    pthread_cond_broadcast(&p.work);
    pthread_mutex_unlock(&p.mu);
    for (uint32_t i = 0; i < started; i++) pthread_join(tid[i], NULL);
    for (uint64_t i = 0; i < p.window; i++)
        if (p.ready[i]) done_free(&p.slots[i], nv);
    if (progress) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
    pthread_cond_destroy(&p.work);
    pthread_cond_destroy(&p.done);
    pthread_mutex_destroy(&p.mu);
    free(tid);
    free(p.slots);
    free(p.ready);
    return ok;
}

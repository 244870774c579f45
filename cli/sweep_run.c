/* cli/sweep_run.c -- a sweep's runs on a pool of threads (see sweep_run.h).
** The workers take runs in sweep order from a shared counter and leave each
** finished run's line, less its ratio, in a ring of slots; the calling
** thread waits for the slot of the next run in order, adds the ratio (the
** cycles against the point's first variant that ran, known by then since a
** point's variants come one after another) and emits it. A worker does not
** start a run more than a window of slots ahead of the oldest line not yet
** emitted, which bounds the finished lines held in memory however uneven
** the runs are. Nothing in a line depends on which thread ran it or when. */
#include "cli/sweep_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpusim_version.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "cli/variant.h"

/* ------------------------------------------------------------ one run */

/* A finished run: its line cut where the ratio goes. */
typedef struct {
    char      *head, *tail;
    size_t     head_len, tail_len;
    bool       ran;
    uint64_t   cycles;
    RunOutcome outcome;
} Done;

/* A parameter or knob value as JSON: a number when it reads as one. */
static void json_value(FILE *out, const char *text)
{
    double v;
    bool number = (text[0] == '-' || (text[0] >= '0' && text[0] <= '9')) && cli_number_double(text, &v);
    if (number) fputs(text, out);
    else report_json_string(out, text);
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
    report_json_string(f, J->variants[vi]);
    fprintf(f, ", \"variant_index\": %u, \"variants\": %u, \"workload\": ", vi, J->nvariants);
    report_json_string(f, J->workload_name);
    fputs(", \"gpu\": ", f);
    report_json_string(f, cfg->name);
    fputs(", \"gpusim_version\": ", f);
    report_json_string(f, GPUSIM_VERSION);
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
            report_json_string(f, a->key);
            fputs(": ", f);
            int knob = kind == AXIS_SET ? config_knob_find(a->key) : -1;
            if (cfg_ok && knob >= 0) { /* the value the machine holds */
                char text[64];
                config_knob_text(cfg, (size_t)knob, text, sizeof text);
                if (config_knob_is_number((size_t)knob)) fputs(text, f);
                else report_json_string(f, text);
            } else {
                json_value(f, a->values[idx[k]]);
            }
        }
        fputc('}', f);
    }
    fputs(", \"params\": {", f);
    for (uint32_t i = 0; w && i < w->nparams; i++) {
        fputs(i ? ", " : "", f);
        report_json_string(f, w->params[i].name);
        fprintf(f, ": %lld", (long long)w->params[i].value);
    }
    fputs("}, \"seeds\": {", f);
    bool first = true;
    for (uint32_t i = 0; w && i < w->nbuffers; i++)
        if (w->buffers[i].init.kind == WL_INIT_RANDOM) {
            fputs(first ? "" : ", ", f);
            first = false;
            report_json_string(f, w->buffers[i].name);
            fprintf(f, ": %llu", (unsigned long long)w->buffers[i].init.seed);
        }
    fputs("}", f);
}

/* Simulates run r into *out. */
static bool run_job(const SweepJob *J, uint64_t run, Done *out)
{
    const SweepSpec *S = J->spec;
    memset(out, 0, sizeof *out);
    uint64_t point = run / J->nvariants;
    uint32_t vi = (uint32_t)(run % J->nvariants);
    uint32_t *idx = calloc(S->naxes ? S->naxes : 1, sizeof *idx);
    const char **params = calloc(S->naxes ? S->naxes : 1, sizeof *params);
    char **owned = calloc(S->naxes ? S->naxes : 1, sizeof *owned);
    if (!idx || !params || !owned) {
        free(idx);
        free(params);
        free(owned);
        return false;
    }
    sweep_point_indices(S, point, idx);
    GpuConfig cfg = J->bases[idx[J->gpu_axis]];
    Diag d;
    bool ok = true;
    size_t np = 0;
    for (uint32_t k = 0; k < S->naxes && ok; k++) {
        const SweepAxis *a = &S->axes[k];
        if (a->kind == AXIS_GPU) continue;
        size_t len = strlen(a->key) + strlen(a->values[idx[k]]) + 2;
        owned[k] = malloc(len);
        if (!owned[k]) {
            diag_set(&d, a->flag, 0, 0, "out of memory");
            ok = false;
            break;
        }
        snprintf(owned[k], len, "%s=%s", a->key, a->values[idx[k]]);
        if (a->kind == AXIS_SET) ok = config_set(&cfg, owned[k], &d);
        else params[np++] = owned[k];
    }
    bool cfg_ok = ok && config_validate(&cfg, &d);
    if (ok && !cfg_ok) snprintf(d.file, sizeof d.file, "--set");
    ok = cfg_ok;
    Workload w;
    memset(&w, 0, sizeof w);
    bool loaded = ok && workload_parse(J->workload_text, J->workload_len, J->workload_path, &cfg, params, np, &w, &d);
    const WlVariant *v = loaded ? workload_find_variant(&w, J->variants[vi]) : NULL;
    if (loaded && !v) diag_set(&d, J->workload_path, 0, 0, "no variant '%s' at this point", J->variants[vi]);

    RunRow row;
    memset(&row, 0, sizeof row);
    if (v) {
        VariantOptions opt = { .max_cycles = J->max_cycles, .max_instructions = J->max_instructions,
                               .racecheck = J->racecheck };
        variant_run(&cfg, &w, v, &opt, &row);
    }
    char *error = v ? row.error : diag_text(&d);
    const char *status = !v ? "bad_input" : report_status_name(row.status);
    out->ran = v && row.ran;
    out->cycles = row.st.cycles;
    out->outcome = !v || (!row.ran && row.status == SIM_BAD_LAUNCH) ? RUN_BAD_INPUT
                   : !row.ran || row.check == CHECK_FAIL              ? RUN_FAILED
                                                                      : RUN_PASSED;

    bool written = true;
    FILE *f = open_memstream(&out->head, &out->head_len);
    if (f) {
        write_head(f, J, point, vi, &cfg, cfg_ok, idx, loaded ? &w : NULL);
        fputs(", \"check\": ", f);
        report_json_string(f, v ? report_check_name(row.check) : "none");
        fputs(", \"status\": ", f);
        report_json_string(f, status);
        if (out->ran) {
            fprintf(f, ", \"cycles\": %llu, \"time_us\": ", (unsigned long long)row.st.cycles);
            report_json_number(f, row.st.time_us);
            fputs(", ", f);
        } else {
            fputs(", \"cycles\": null, \"time_us\": null, ", f);
        }
        written = fclose(f) == 0;
    }
    FILE *g = written && f ? open_memstream(&out->tail, &out->tail_len) : NULL;
    if (g) {
        fputs(", \"stats\": ", g);
        if (out->ran) report_json_stats(g, &row.st, true);
        else fputs("null", g);
        if (error) {
            fputs(", \"error\": ", g);
            report_json_string(g, error);
        }
        fputs("}\n", g);
        written = fclose(g) == 0;
    }
    if (!f || !g || !written) {
        free(out->head);
        free(out->tail);
        out->head = out->tail = NULL;
    }
    if (v) free(row.error);
    else free(error);
    workload_destroy(&w);
    for (uint32_t k = 0; k < S->naxes; k++) free(owned[k]);
    free(owned);
    free(params);
    free(idx);
    return out->head != NULL;
}

/* The line of a finished run with its ratio against base (0: none). */
static char *compose(const Done *r, uint64_t base, size_t *len)
{
    char ratio[48];
    if (!r->ran || base == 0) snprintf(ratio, sizeof ratio, "\"ratio\": null");
    else {
        char *s = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&s, &n);
        if (!f) return NULL;
        fputs("\"ratio\": ", f);
        report_json_number(f, (double)r->cycles / (double)base);
        if (fclose(f) != 0) {
            free(s);
            return NULL;
        }
        snprintf(ratio, sizeof ratio, "%s", s);
        free(s);
    }
    size_t rl = strlen(ratio);
    char *line = malloc(r->head_len + rl + r->tail_len + 1);
    if (!line) return NULL;
    memcpy(line, r->head, r->head_len);
    memcpy(line + r->head_len, ratio, rl);
    memcpy(line + r->head_len + rl, r->tail, r->tail_len);
    *len = r->head_len + rl + r->tail_len;
    line[*len] = '\0';
    return line;
}

bool sweep_run_one(const SweepJob *job, uint64_t run, uint64_t base_cycles, char **line, size_t *len,
                   RunOutcome *outcome, uint64_t *cycles)
{
    Done r;
    if (!run_job(job, run, &r)) return false;
    *line = compose(&r, base_cycles ? base_cycles : r.ran ? r.cycles : 0, len);
    *outcome = r.outcome;
    *cycles = r.ran ? r.cycles : 0;
    free(r.head);
    free(r.tail);
    return *line != NULL;
}

/* ------------------------------------------------------------ the pool */

typedef struct {
    const SweepJob  *job;
    const uint64_t  *runs;
    uint64_t         nruns;
    uint64_t         window;   /* slots                                    */
    Done            *slots;    /* run i (position in runs[]) in slot i % window */
    bool            *ready;
    pthread_mutex_t  mu;
    pthread_cond_t   work;     /* a slot was freed, or stop               */
    pthread_cond_t   done;     /* a slot was filled                       */
    uint64_t         next;     /* the next position to start              */
    uint64_t         emitted;  /* positions below it are out              */
    bool             stop;
} Pool;

static void *worker(void *arg)
{
    Pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->stop && p->next < p->nruns && p->next - p->emitted >= p->window) pthread_cond_wait(&p->work, &p->mu);
        if (p->stop || p->next >= p->nruns) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        uint64_t pos = p->next++;
        pthread_mutex_unlock(&p->mu);
        Done r;
        if (!run_job(p->job, p->runs[pos], &r)) memset(&r, 0, sizeof r); /* out of memory: head NULL */
        pthread_mutex_lock(&p->mu);
        p->slots[pos % p->window] = r;
        p->ready[pos % p->window] = true;
        pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void clock_text(double s, char *buf, size_t cap)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, cap, "%ld:%02ld", t / 60, t % 60);
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
    clock_text(elapsed, el, sizeof el);
    if (done) clock_text(elapsed / (double)done * (double)(total - done), left, sizeof left);
    else snprintf(left, sizeof left, "?");
    fprintf(stderr, "\rsweep [%s] %llu/%llu points (%llu/%llu runs)  %s elapsed, ~%s left\033[K", bar,
            (unsigned long long)(done / variants), (unsigned long long)((total + variants - 1) / variants),
            (unsigned long long)done, (unsigned long long)total, el, left);
    fflush(stderr);
}

bool sweep_run(const SweepJob *job, const uint64_t *runs, uint64_t nruns, uint32_t threads, bool progress,
               SweepEmit emit, SweepBaseCycles base_cycles, void *user, char *why, size_t cap)
{
    if (nruns == 0) return true;
    if (threads < 1) threads = 1;
    if (threads > nruns) threads = (uint32_t)nruns;
    Pool p;
    memset(&p, 0, sizeof p);
    p.job = job;
    p.runs = runs;
    p.nruns = nruns;
    p.window = 64 + 8 * (uint64_t)threads;
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
    double t0 = now_seconds(), drawn = -1;
    uint64_t point = UINT64_MAX, base = 0;
    for (uint64_t pos = 0; ok && pos < nruns; pos++) {
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
            double t = now_seconds();
            if (t - drawn >= 0.25) {
                draw_progress(pos, nruns, job->nvariants, t - t0);
                drawn = t;
            }
        }
        Done r = p.slots[pos % p.window];
        p.ready[pos % p.window] = false;
        p.emitted = pos + 1;
        pthread_cond_broadcast(&p.work);
        pthread_mutex_unlock(&p.mu);

        uint64_t pt = runs[pos] / job->nvariants;
        if (pt != point) {
            point = pt;
            base = base_cycles ? base_cycles(user, pt) : 0;
        }
        if (r.ran && base == 0) base = r.cycles;
        size_t len = 0;
        char *line = r.head ? compose(&r, base, &len) : NULL;
        if (!line) {
            snprintf(why, cap, "out of memory");
            ok = false;
        } else if (!emit(user, runs[pos], line, len, r.outcome)) {
            ok = false; /* the emitter says why */
        }
        free(line);
        free(r.head);
        free(r.tail);
        if (progress && (now_seconds() - drawn >= 0.25 || pos + 1 == nruns)) {
            drawn = now_seconds();
            draw_progress(pos + 1, nruns, job->nvariants, drawn - t0);
        }
    }
    pthread_mutex_lock(&p.mu);
    p.stop = true;
    pthread_cond_broadcast(&p.work);
    pthread_mutex_unlock(&p.mu);
    for (uint32_t i = 0; i < started; i++) pthread_join(tid[i], NULL);
    for (uint64_t i = 0; i < p.window; i++)
        if (p.ready[i]) {
            free(p.slots[i].head);
            free(p.slots[i].tail);
        }
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

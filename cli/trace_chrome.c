/* cli/trace_chrome.c -- the Chrome trace-event writer (see trace_chrome.h).
** What Perfetto shows, per SM (one process, "SM 12"): a track per resident-
** block slot with each block's lifetime, a track per warp slot with each
** warp's lifetime (first issue to exit), and a counter track of the warp
** states (how many of the SM's warps were issuing, waiting for a load, at a
** barrier ... on average over each bucket of cycles: the visualizer's SM
** panel over time). One more process, "launches", has a span per launch
** named workload/variant. Times are microseconds of simulated time at the
** machine's clock (the format's unit), so the ruler reads true time; every
** event also carries its cycle. Several launches go into one file one after
** another: each starts where the previous one ended, after a short gap.
** Left out: instruction-level events (one per issue would make files of
** gigabytes; the visualizer shows those) and memory traffic.             */
#include "cli/trace_chrome.h"

#include <stdlib.h>
#include <string.h>

#include "base/jsonstr.h"
#include "isa/opcodes.h"

#define MAX_WARP_SLOTS  1024u  /* per SM: enough for every preset's sm.max_warps */
#define LAUNCH_PID      1000000u
#define WARP_TID_BASE   1000u  /* warp tracks after the block-slot tracks       */
#define BUCKET_CYCLES   256u   /* stall counters: one sample per this many cycles */

typedef struct {
    uint64_t first; /* cycle of the warp's first issue, UINT64_MAX if none yet */
    uint32_t block_id;
} WarpSpan;

/* Warp-cycles per state of one SM, per bucket of BUCKET_CYCLES. */
typedef struct {
    double  *cycles;   /* nbuckets x STALL_COUNT */
    uint32_t nbuckets;
} StallBuckets;

struct ChromeTrace {
    FILE         *out;
    double        clock_mhz;
    bool          first_event;
    uint64_t      base, last;  /* this launch's offset; the latest cycle seen */
    char         *label;       /* the launch's name, a JSON string (quoted)    */
    WarpSpan     *spans;       /* per (sm, warp slot), grown on demand       */
    uint32_t      nspans;
    uint8_t      *named;       /* per (sm, track): its name was written       */
    uint32_t      nnamed;
    StallBuckets *stalls;      /* per SM, grown on demand                    */
    uint32_t      nstall_sms;
    bool          failed;      /* out of host memory: the file is incomplete */
};

static void event_sep(ChromeTrace *t)
{
    fputs(t->first_event ? "\n" : ",\n", t->out);
    t->first_event = false;
}

static void seen(ChromeTrace *t, uint64_t cycle)
{
    if (cycle > t->last) t->last = cycle;
}

/* Simulated time in microseconds, with the cycle's resolution. */
static void put_ts(ChromeTrace *t, const char *key, uint64_t cycle)
{
    fprintf(t->out, "\"%s\":%.6f", key, (double)(t->base + cycle) / t->clock_mhz);
}

static bool grow(void **arr, uint32_t *n, uint32_t need, size_t elem, ChromeTrace *t)
{
    if (need <= *n) return true;
    uint32_t nn = *n ? *n : 1024;
    while (nn < need) nn *= 2;
    uint8_t *p = realloc(*arr, (size_t)nn * elem);
    if (!p) {
        t->failed = true;
        return false;
    }
    memset(p + (size_t)*n * elem, 0, (size_t)(nn - *n) * elem);
    *arr = p;
    *n = nn;
    return true;
}

static WarpSpan *span(ChromeTrace *t, uint32_t sm, uint32_t warp)
{
    uint32_t key = sm * MAX_WARP_SLOTS + (warp % MAX_WARP_SLOTS), old = t->nspans;
    if (!grow((void **)&t->spans, &t->nspans, key + 1, sizeof *t->spans, t)) return NULL;
    for (uint32_t i = old; i < t->nspans; i++) t->spans[i].first = UINT64_MAX;
    return &t->spans[key];
}

/* Writes the metadata that names an SM's process and one of its tracks,
** the first time the track is used. */
static void name_track(ChromeTrace *t, uint32_t sm, uint32_t tid)
{
    uint32_t per_sm = WARP_TID_BASE + MAX_WARP_SLOTS + 1, process = sm * per_sm, key = process + 1 + tid;
    if (!grow((void **)&t->named, &t->nnamed, key + 1, 1, t)) return;
    if (!t->named[process]) {
        t->named[process] = 1;
        event_sep(t);
        fprintf(t->out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"args\":{\"name\":\"SM %u\"}}", sm, sm);
        event_sep(t);
        fprintf(t->out, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%u,\"args\":{\"sort_index\":%u}}", sm, sm);
    }
    if (t->named[key]) return;
    t->named[key] = 1;
    event_sep(t);
    if (tid >= WARP_TID_BASE)
        fprintf(t->out, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"warp %u\"}}",
                sm, tid, tid - WARP_TID_BASE);
    else
        fprintf(t->out,
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"block slot %u\"}}",
                sm, tid, tid);
}

static void on_block_start(void *user, const TraceBlock *e)
{
    ChromeTrace *t = user;
    seen(t, e->cycle);
    name_track(t, e->sm, e->block_slot);
    event_sep(t);
    fprintf(t->out, "{\"name\":\"block %u\",\"cat\":\"block\",\"ph\":\"B\",\"pid\":%u,\"tid\":%u,", e->block_id, e->sm,
            e->block_slot);
    put_ts(t, "ts", e->cycle);
    fprintf(t->out, ",\"args\":{\"cycle\":%llu,\"warps\":%u,\"launch\":%s}}", (unsigned long long)e->cycle, e->warps,
            t->label);
}

static void on_block_end(void *user, const TraceBlock *e)
{
    ChromeTrace *t = user;
    seen(t, e->cycle);
    event_sep(t);
    fprintf(t->out, "{\"ph\":\"E\",\"pid\":%u,\"tid\":%u,", e->sm, e->block_slot);
    put_ts(t, "ts", e->cycle);
    fprintf(t->out, ",\"args\":{\"cycle\":%llu}}", (unsigned long long)e->cycle);
}

static void on_issue(void *user, const TraceIssue *e)
{
    ChromeTrace *t = user;
    seen(t, e->cycle);
    WarpSpan *s = span(t, e->sm, e->warp);
    if (!s) return;
    if (s->first == UINT64_MAX) {
        s->first = e->cycle;
        s->block_id = e->block_id;
    }
    if (e->opcode == OP_EXIT && e->exec_mask == e->active) { /* the warp's last lanes leave */
        uint32_t tid = WARP_TID_BASE + e->warp % MAX_WARP_SLOTS;
        name_track(t, e->sm, tid);
        event_sep(t);
        fprintf(t->out, "{\"name\":\"warp (block %u)\",\"cat\":\"warp\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,", s->block_id,
                e->sm, tid);
        put_ts(t, "ts", s->first);
        fprintf(t->out, ",\"dur\":%.6f,\"args\":{\"cycle\":%llu,\"cycles\":%llu}}",
                (double)(e->cycle + 1 - s->first) / t->clock_mhz, (unsigned long long)s->first,
                (unsigned long long)(e->cycle + 1 - s->first));
        s->first = UINT64_MAX;
    }
}

/* A warp spent [e->cycle, e->cycle + e->cycles) in state e->reason: spread
** those cycles over the SM's buckets. */
static void on_stall(void *user, const TraceStall *e)
{
    ChromeTrace *t = user;
    if (!e->cycles || e->reason >= STALL_COUNT) return;
    seen(t, e->cycle + e->cycles);
    if (!grow((void **)&t->stalls, &t->nstall_sms, e->sm + 1, sizeof *t->stalls, t)) return;
    StallBuckets *b = &t->stalls[e->sm];
    uint64_t end = e->cycle + e->cycles;
    uint32_t last = (uint32_t)((end - 1) / BUCKET_CYCLES);
    if (last >= b->nbuckets) {
        uint32_t n = b->nbuckets ? b->nbuckets : 64;
        while (n <= last) n *= 2;
        double *c = realloc(b->cycles, (size_t)n * STALL_COUNT * sizeof *c);
        if (!c) {
            t->failed = true;
            return;
        }
        memset(c + (size_t)b->nbuckets * STALL_COUNT, 0, (size_t)(n - b->nbuckets) * STALL_COUNT * sizeof *c);
        b->cycles = c;
        b->nbuckets = n;
    }
    for (uint64_t at = e->cycle; at < end;) {
        uint64_t k = at / BUCKET_CYCLES, stop = (k + 1) * BUCKET_CYCLES;
        if (stop > end) stop = end;
        b->cycles[k * STALL_COUNT + e->reason] += (double)(stop - at);
        at = stop;
    }
}

/* The launch that just ended: its span on the "launches" track and every
** SM's warp-state counters, then the buckets are emptied. */
static void flush_launch(ChromeTrace *t)
{
    if (!t->last) return;
    event_sep(t);
    fprintf(t->out, "{\"name\":%s,\"cat\":\"launch\",\"ph\":\"X\",\"pid\":%u,\"tid\":0,", t->label, LAUNCH_PID);
    put_ts(t, "ts", 0);
    fprintf(t->out, ",\"dur\":%.6f,\"args\":{\"cycles\":%llu}}", (double)t->last / t->clock_mhz,
            (unsigned long long)t->last);
    for (uint32_t sm = 0; sm < t->nstall_sms; sm++) {
        StallBuckets *b = &t->stalls[sm];
        uint32_t used = b->nbuckets;
        while (used && b->cycles) {
            bool any = false;
            for (int r = 0; r < STALL_COUNT && !any; r++) any = b->cycles[(size_t)(used - 1) * STALL_COUNT + r] != 0;
            if (any) break;
            used--;
        }
        for (uint32_t k = 0; k < used; k++) {
            event_sep(t);
            fprintf(t->out, "{\"name\":\"warp states\",\"ph\":\"C\",\"pid\":%u,", sm);
            put_ts(t, "ts", (uint64_t)k * BUCKET_CYCLES);
            fputs(",\"args\":{", t->out);
            for (int r = 0; r < STALL_COUNT; r++)
                fprintf(t->out, "%s\"%s\":%.3f", r ? "," : "", STALL_NAMES[r],
                        b->cycles[(size_t)k * STALL_COUNT + r] / BUCKET_CYCLES);
            fputs("}}", t->out);
        }
        if (used) { /* the counters drop to zero when the SM's warps are gone */
            event_sep(t);
            fprintf(t->out, "{\"name\":\"warp states\",\"ph\":\"C\",\"pid\":%u,", sm);
            put_ts(t, "ts", (uint64_t)used * BUCKET_CYCLES);
            fputs(",\"args\":{", t->out);
            for (int r = 0; r < STALL_COUNT; r++) fprintf(t->out, "%s\"%s\":0", r ? "," : "", STALL_NAMES[r]);
            fputs("}}", t->out);
        }
        if (b->cycles) memset(b->cycles, 0, (size_t)b->nbuckets * STALL_COUNT * sizeof *b->cycles);
    }
}

ChromeTrace *trace_chrome_open(FILE *out, double clock_mhz)
{
    ChromeTrace *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->out = out;
    t->label = malloc(3);
    if (!t->label) {
        free(t);
        return NULL;
    }
    memcpy(t->label, "\"\"", 3); /* no launch named yet */
    t->clock_mhz = clock_mhz > 0 ? clock_mhz : 1;
    t->first_event = true;
    fprintf(out,
            "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"gpusim\",\"time_unit\":\"microseconds of "
            "simulated time at %.0f MHz (args.cycle: the cycle)\",\"stall_bucket_cycles\":%u},\"traceEvents\":[",
            t->clock_mhz, BUCKET_CYCLES);
    event_sep(t);
    fprintf(out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"args\":{\"name\":\"launches\"}}", LAUNCH_PID);
    return t;
}

void trace_chrome_label(ChromeTrace *t, const char *label)
{
    flush_launch(t);
    if (t->last) t->base += t->last + 1000; /* a gap between launches */
    t->last = 0;
    /* kept escaped and quoted, as the events print it */
    size_t n = jsonstr_escape(NULL, 0, label);
    char *escaped = malloc(n + 1);
    if (!escaped) {
        t->failed = true;
        return;
    }
    jsonstr_escape(escaped, n + 1, label);
    free(t->label);
    t->label = escaped;
    for (uint32_t i = 0; i < t->nspans; i++) t->spans[i].first = UINT64_MAX;
}

void trace_chrome_sink(ChromeTrace *t, TraceSink *sink)
{
    memset(sink, 0, sizeof *sink);
    sink->user = t;
    sink->block_start = on_block_start;
    sink->block_end = on_block_end;
    sink->warp_issue = on_issue;
    sink->warp_stall = on_stall;
}

bool trace_chrome_close(ChromeTrace *t)
{
    if (!t) return false;
    flush_launch(t);
    fputs("\n]}\n", t->out);
    bool ok = !t->failed;
    free(t->label);
    free(t->spans);
    free(t->named);
    for (uint32_t i = 0; i < t->nstall_sms; i++) free(t->stalls[i].cycles);
    free(t->stalls);
    free(t);
    return ok;
}

/* cli/trace_chrome.c -- the Chrome trace-event writer (see trace_chrome.h). One process
** per SM ("SM 12"), one thread per resident-block slot for block lifetimes
** and one per warp slot for warp lifetimes (first issue to exit). Times are
** simulated cycles written as microseconds, so Perfetto's ruler reads in
** cycles. Several launches go into one file one after another: each starts
** where the previous one ended.                                            */
#include "cli/trace_chrome.h"

#include <stdlib.h>
#include <string.h>

#include "isa/opcodes.h"

typedef struct {
    uint64_t first; /* cycle of the warp's first issue, UINT64_MAX if none yet */
    uint32_t block_id;
} WarpSpan;

struct ChromeTrace {
    FILE     *out;
    bool      first_event;
    uint64_t  base, last;  /* this launch's offset; the latest cycle seen      */
    char      label[512];
    WarpSpan *spans;       /* per (sm, warp slot), grown on demand           */
    uint32_t  nspans;
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

static WarpSpan *span(ChromeTrace *t, uint32_t sm, uint32_t warp)
{
    uint32_t key = sm * 1024u + (warp & 1023u); /* at most 1024 warp slots per SM */
    if (key >= t->nspans) {
        uint32_t n = key + 1024u;
        WarpSpan *ns = realloc(t->spans, (size_t)n * sizeof *ns);
        if (!ns) return NULL;
        for (uint32_t i = t->nspans; i < n; i++) ns[i] = (WarpSpan){ UINT64_MAX, 0 };
        t->spans = ns;
        t->nspans = n;
    }
    return &t->spans[key];
}

static void on_block_start(void *user, const TraceBlock *e)
{
    ChromeTrace *t = user;
    seen(t, e->cycle);
    event_sep(t);
    fprintf(t->out,
            "{\"name\":\"block %u\",\"cat\":\"block\",\"ph\":\"B\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,"
            "\"args\":{\"warps\":%u,\"launch\":\"%s\"}}",
            e->block_id, e->sm, e->block_slot, (unsigned long long)(t->base + e->cycle), e->warps, t->label);
}

static void on_block_end(void *user, const TraceBlock *e)
{
    ChromeTrace *t = user;
    seen(t, e->cycle);
    event_sep(t);
    fprintf(t->out, "{\"ph\":\"E\",\"pid\":%u,\"tid\":%u,\"ts\":%llu}", e->sm, e->block_slot,
            (unsigned long long)(t->base + e->cycle));
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
        event_sep(t);
        fprintf(t->out,
                "{\"name\":\"warp (block %u)\",\"cat\":\"warp\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,"
                "\"dur\":%llu}",
                s->block_id, e->sm, 1000u + e->warp, (unsigned long long)(t->base + s->first),
                (unsigned long long)(e->cycle + 1 - s->first));
        s->first = UINT64_MAX;
    }
}

ChromeTrace *trace_chrome_open(FILE *out)
{
    ChromeTrace *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->out = out;
    t->first_event = true;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"gpusim\",\"time_unit\":\"simulated cycles\"},"
          "\"traceEvents\":[",
          out);
    return t;
}

void trace_chrome_label(ChromeTrace *t, const char *label)
{
    if (t->last) t->base += t->last + 1000; /* a gap between launches */
    t->last = 0;
    size_t j = 0;
    for (const char *p = label; *p && j + 1 < sizeof t->label; p++)
        if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20) t->label[j++] = *p;
    t->label[j] = 0;
    for (uint32_t i = 0; i < t->nspans; i++) t->spans[i].first = UINT64_MAX;
}

void trace_chrome_sink(ChromeTrace *t, TraceSink *sink)
{
    memset(sink, 0, sizeof *sink);
    sink->user = t;
    sink->block_start = on_block_start;
    sink->block_end = on_block_end;
    sink->warp_issue = on_issue;
}

void trace_chrome_close(ChromeTrace *t)
{
    if (!t) return;
    fputs("\n]}\n", t->out);
    free(t->spans);
    free(t);
}

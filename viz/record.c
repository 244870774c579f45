/* viz/record.c -- the visualizer's recording (see record.h): trace events
** in, compact per-slot and per-warp arrays out, and the queries on them.
** Events arrive in simulation order: issues, shared and global accesses in
** non-decreasing cycle order; a warp's state spans late (each covers the
** interval since the scheduler's previous evaluation) but in order per warp;
** block starts in non-decreasing cycle order. The queries rely on that.  */
#include "viz/record.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t start, end;   /* resident in [start, end); end UINT64_MAX: never left */
    uint32_t sm, slot, block_id, warps;
} VrecBlock;

typedef struct {
    VrecIssue *iss;
    uint32_t   niss, ciss;
    VrecSpan  *sp;
    uint32_t   nsp, csp;
    uint32_t  *sh, nsh, csh;   /* indices into VizRec.shared */
    uint32_t  *gl, ngl, cgl;   /* indices into VizRec.global */
} WarpLog;

struct VizRec {
    VrecShape  shape;
    uint32_t   warp_slots, nkeys; /* nkeys = sm_count * blocks_per_sm        */
    uint64_t   end;

    VrecBlock *blocks;            /* in dispatch order                      */
    uint32_t   nblocks, cblocks;
    bool       blocks_capped;
    uint32_t  *open;              /* per slot key: index + 1 of its resident block */
    uint32_t  *key_first;         /* after finish: blocks of key k are      */
    uint32_t  *key_list;          /* key_list[key_first[k] .. key_first[k+1]) */
    uint64_t  *ends;              /* block end cycles, sorted               */

    uint64_t   width;             /* timeline bucket width, cycles          */
    uint32_t   nbuckets;
    uint64_t   issues[VREC_BUCKETS];
    uint64_t   warp_cycles[VREC_BUCKETS];
    uint32_t   resident;          /* GPU-wide resident warps               */
    uint64_t   res_last;          /* integrated up to this cycle           */

    WarpLog   *warps;             /* the detail SM, per warp slot          */
    uint32_t   nwarps;
    VrecShared *shared;
    uint32_t   nshared, cshared;
    VrecGlobal *global;
    uint32_t   nglobal, cglobal;
    VrecLine  *lines;
    uint32_t   nlines, clines;
    uint64_t   detail_bytes, detail_end;
};

const char *const VREC_EVENT_NAMES[VREC_EV_COUNT] = {
    "issue", "shared", "shared-load", "shared-store", "global", "global-load", "global-store", "diverged",
    "shared-atomic", "global-atomic",
};

/* ------------------------------------------------------------ storage */

/* Returns p grown to hold n + 1 elements (or p when it already does), NULL
** when out of memory or, for detail arrays, past the detail budget. */
static void *grow(VizRec *r, void *p, uint32_t *cap, uint32_t n, size_t elem, bool detail)
{
    if (n < *cap) return p;
    if (*cap >= UINT32_MAX / 2) return NULL;
    uint32_t nc = *cap ? *cap * 2 : 64;
    size_t more = (size_t)(nc - *cap) * elem;
    if (detail && r->detail_bytes + more > VREC_DETAIL_BYTES) return NULL;
    void *np = realloc(p, (size_t)nc * elem);
    if (!np) return NULL;
    if (detail) r->detail_bytes += more;
    *cap = nc;
    return np;
}

/* Stops the detail recording: nothing at or after `cycle` is complete. */
static void detail_stop(VizRec *r, uint64_t cycle)
{
    if (cycle < r->detail_end) r->detail_end = cycle;
}

static WarpLog *warp_log(VizRec *r, uint32_t warp)
{
    if (warp >= r->nwarps) {
        if (warp >= 4096) return NULL; /* far beyond any SM's warp slots */
        uint32_t n = warp + 1;
        WarpLog *nw = realloc(r->warps, (size_t)n * sizeof *nw);
        if (!nw) return NULL;
        memset(nw + r->nwarps, 0, (size_t)(n - r->nwarps) * sizeof *nw);
        r->warps = nw;
        r->nwarps = n;
    }
    return &r->warps[warp];
}

/* ------------------------------------------------------------ timeline */

/* Widens the buckets until cycle falls inside them. */
static void tl_fit(VizRec *r, uint64_t cycle)
{
    while (cycle / r->width >= VREC_BUCKETS) {
        for (uint32_t i = 0; i < VREC_BUCKETS / 2; i++) {
            r->issues[i] = r->issues[2 * i] + r->issues[2 * i + 1];
            r->warp_cycles[i] = r->warp_cycles[2 * i] + r->warp_cycles[2 * i + 1];
        }
        memset(r->issues + VREC_BUCKETS / 2, 0, VREC_BUCKETS / 2 * sizeof r->issues[0]);
        memset(r->warp_cycles + VREC_BUCKETS / 2, 0, VREC_BUCKETS / 2 * sizeof r->warp_cycles[0]);
        r->width *= 2;
        r->nbuckets = (r->nbuckets + 1) / 2;
    }
}

static void tl_touch(VizRec *r, uint64_t cycle)
{
    tl_fit(r, cycle);
    uint32_t b = (uint32_t)(cycle / r->width);
    if (b + 1 > r->nbuckets) r->nbuckets = b + 1;
}

/* Adds the resident warps over [res_last, cycle) to the buckets. */
static void tl_integrate(VizRec *r, uint64_t cycle)
{
    if (cycle <= r->res_last) return;
    tl_touch(r, cycle - 1);
    uint64_t a = r->res_last, w = r->width;
    for (uint64_t b = a / w; b <= (cycle - 1) / w; b++) {
        uint64_t lo = b * w > a ? b * w : a, hi = (b + 1) * w < cycle ? (b + 1) * w : cycle;
        r->warp_cycles[b] += (uint64_t)r->resident * (hi - lo);
    }
    r->res_last = cycle;
}

static void tl_resident(VizRec *r, uint64_t cycle, int32_t delta)
{
    tl_integrate(r, cycle);
    r->resident = (uint32_t)((int64_t)r->resident + delta);
}

/* ------------------------------------------------------------ callbacks */

static void on_block_start(void *user, const TraceBlock *e)
{
    VizRec *r = user;
    tl_resident(r, e->cycle, (int32_t)e->warps);
    if (e->cycle > r->end) r->end = e->cycle;
    if (e->sm >= r->shape.sm_count || e->block_slot >= r->shape.blocks_per_sm) return;
    if (r->nblocks >= VREC_MAX_BLOCKS) {
        r->blocks_capped = true;
        return;
    }
    VrecBlock *nb = grow(r, r->blocks, &r->cblocks, r->nblocks, sizeof *nb, false);
    if (!nb) {
        r->blocks_capped = true;
        return;
    }
    r->blocks = nb;
    r->blocks[r->nblocks] = (VrecBlock){ e->cycle, UINT64_MAX, e->sm, e->block_slot, e->block_id, e->warps };
    r->open[e->sm * r->shape.blocks_per_sm + e->block_slot] = ++r->nblocks;
}

static void on_block_end(void *user, const TraceBlock *e)
{
    VizRec *r = user;
    tl_resident(r, e->cycle, -(int32_t)e->warps);
    if (e->cycle > r->end) r->end = e->cycle;
    if (e->sm >= r->shape.sm_count || e->block_slot >= r->shape.blocks_per_sm) return;
    uint32_t *o = &r->open[e->sm * r->shape.blocks_per_sm + e->block_slot];
    if (*o) r->blocks[*o - 1].end = e->cycle;
    *o = 0;
}

static void on_issue(void *user, const TraceIssue *e)
{
    VizRec *r = user;
    tl_touch(r, e->cycle);
    r->issues[e->cycle / r->width]++;
    if (e->cycle + 1 > r->end) r->end = e->cycle + 1;
    if (e->sm != r->shape.detail_sm || e->cycle >= r->detail_end) return;
    WarpLog *w = warp_log(r, e->warp);
    VrecIssue *ni = w ? grow(r, w->iss, &w->ciss, w->niss, sizeof *ni, true) : NULL;
    if (!ni) {
        detail_stop(r, e->cycle);
        return;
    }
    w->iss = ni;
    w->iss[w->niss++] = (VrecIssue){ e->cycle, e->pc, e->active, e->exec_mask, e->block_id, (uint16_t)e->opcode,
                                     e->diverged, (uint8_t)e->unit };
}

static void on_stall(void *user, const TraceStall *e)
{
    VizRec *r = user;
    if (e->sm != r->shape.detail_sm || e->cycle >= r->detail_end || !e->cycles) return;
    WarpLog *w = warp_log(r, e->warp);
    if (!w) {
        detail_stop(r, e->cycle);
        return;
    }
    if (w->nsp) {
        VrecSpan *last = &w->sp[w->nsp - 1];
        if (last->reason == e->reason && last->start + last->len == e->cycle &&
            (uint64_t)last->len + e->cycles <= UINT32_MAX) {
            last->len += (uint32_t)e->cycles;
            return;
        }
    }
    VrecSpan *ns = grow(r, w->sp, &w->csp, w->nsp, sizeof *ns, true);
    if (!ns || e->cycles > UINT32_MAX) {
        if (ns) w->sp = ns;
        detail_stop(r, e->cycle);
        return;
    }
    w->sp = ns;
    w->sp[w->nsp++] = (VrecSpan){ e->cycle, (uint32_t)e->cycles, (uint8_t)e->reason };
}

static void on_shared(void *user, const TraceShared *e)
{
    VizRec *r = user;
    if (e->sm != r->shape.detail_sm || e->cycle >= r->detail_end) return;
    WarpLog *w = warp_log(r, e->warp);
    VrecShared *ns = w ? grow(r, r->shared, &r->cshared, r->nshared, sizeof *ns, true) : NULL;
    if (ns) r->shared = ns;
    uint32_t *ni = ns ? grow(r, w->sh, &w->csh, w->nsh, sizeof *ni, true) : NULL;
    if (!ni) {
        detail_stop(r, e->cycle);
        return;
    }
    w->sh = ni;
    VrecShared *s = &r->shared[r->nshared];
    memset(s, 0, sizeof *s);
    s->cycle = e->cycle;
    s->warp = e->warp;
    s->pc = e->pc;
    s->mask = e->mask;
    s->width = e->width;
    s->wavefronts = e->wavefronts;
    s->phases = e->phases;
    s->is_store = e->is_store;
    s->kind = e->kind;
    s->banks = (uint8_t)(e->banks <= SMEM_MAX_BANKS ? e->banks : SMEM_MAX_BANKS);
    for (unsigned b = 0; b < s->banks; b++) s->bank_words[b] = (uint8_t)(e->bank_words[b] > 255 ? 255 : e->bank_words[b]);
    w->sh[w->nsh++] = r->nshared++;
}

static void on_global(void *user, const TraceGlobal *e)
{
    VizRec *r = user;
    if (e->sm != r->shape.detail_sm || e->cycle >= r->detail_end) return;
    WarpLog *w = warp_log(r, e->warp);
    uint32_t nl = e->nlines > 64 ? 64 : e->nlines;
    VrecGlobal *ng = w ? grow(r, r->global, &r->cglobal, r->nglobal, sizeof *ng, true) : NULL;
    if (ng) r->global = ng;
    uint32_t *ni = ng ? grow(r, w->gl, &w->cgl, w->ngl, sizeof *ni, true) : NULL;
    if (ni) w->gl = ni;
    bool ok = ni != NULL;
    for (uint32_t i = 0; ok && i < nl; i++) { /* room for nl more lines */
        VrecLine *nlp = grow(r, r->lines, &r->clines, r->nlines + i, sizeof *nlp, true);
        if (nlp) r->lines = nlp;
        ok = nlp != NULL;
    }
    if (!ok) {
        detail_stop(r, e->cycle);
        return;
    }
    VrecGlobal *g = &r->global[r->nglobal];
    memset(g, 0, sizeof *g);
    g->cycle = e->cycle;
    g->warp = e->warp;
    g->pc = e->pc;
    g->mask = e->mask;
    g->width = e->width;
    g->nlines = nl;
    g->sectors = e->sectors;
    g->bytes_requested = e->bytes_requested;
    g->first_line = r->nlines;
    g->is_store = e->is_store;
    g->kind = e->kind;
    for (uint32_t i = 0; i < nl; i++) r->lines[r->nlines++] = (VrecLine){ e->line_addr[i], e->sector_mask[i] };
    w->gl[w->ngl++] = r->nglobal++;
}

/* ------------------------------------------------------------ lifetime */

VizRec *vrec_create(const VrecShape *shape)
{
    VizRec *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->shape = *shape;
    r->warp_slots = shape->blocks_per_sm * shape->warps_per_block;
    r->nkeys = shape->sm_count * shape->blocks_per_sm;
    r->width = 1;
    r->detail_end = UINT64_MAX;
    r->open = calloc(r->nkeys ? r->nkeys : 1, sizeof *r->open);
    if (!r->open) {
        vrec_destroy(r);
        return NULL;
    }
    return r;
}

void vrec_destroy(VizRec *r)
{
    if (!r) return;
    for (uint32_t i = 0; i < r->nwarps; i++) {
        free(r->warps[i].iss);
        free(r->warps[i].sp);
        free(r->warps[i].sh);
        free(r->warps[i].gl);
    }
    free(r->warps);
    free(r->shared);
    free(r->global);
    free(r->lines);
    free(r->blocks);
    free(r->open);
    free(r->key_first);
    free(r->key_list);
    free(r->ends);
    free(r);
}

void vrec_sink(VizRec *r, TraceSink *sink)
{
    memset(sink, 0, sizeof *sink);
    sink->user = r;
    sink->block_start = on_block_start;
    sink->block_end = on_block_end;
    sink->warp_issue = on_issue;
    sink->warp_stall = on_stall;
    sink->shared_access = on_shared;
    sink->global_access = on_global;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

bool vrec_finish(VizRec *r, uint64_t end_cycle)
{
    if (end_cycle > r->end) r->end = end_cycle;
    tl_integrate(r, r->end);
    if (r->end) tl_touch(r, r->end - 1);
    /* Blocks per slot key, in dispatch order (a counting sort keeps it). */
    free(r->key_first);
    free(r->key_list);
    free(r->ends);
    r->key_first = calloc((size_t)r->nkeys + 1, sizeof *r->key_first);
    r->key_list = malloc(((size_t)r->nblocks + 1) * sizeof *r->key_list);
    r->ends = malloc(((size_t)r->nblocks + 1) * sizeof *r->ends);
    if (!r->key_first || !r->key_list || !r->ends) return false;
    for (uint32_t i = 0; i < r->nblocks; i++) r->key_first[r->blocks[i].sm * r->shape.blocks_per_sm + r->blocks[i].slot + 1]++;
    for (uint32_t k = 0; k < r->nkeys; k++) r->key_first[k + 1] += r->key_first[k];
    uint32_t *fill = calloc(r->nkeys ? r->nkeys : 1, sizeof *fill);
    if (!fill) return false;
    for (uint32_t i = 0; i < r->nblocks; i++) {
        uint32_t k = r->blocks[i].sm * r->shape.blocks_per_sm + r->blocks[i].slot;
        r->key_list[r->key_first[k] + fill[k]++] = i;
        r->ends[i] = r->blocks[i].end;
    }
    free(fill);
    qsort(r->ends, r->nblocks, sizeof *r->ends, cmp_u64);
    return true;
}

/* ------------------------------------------------------------ queries */

const VrecShape *vrec_shape(const VizRec *r) { return &r->shape; }
uint64_t vrec_end(const VizRec *r) { return r->end; }
uint32_t vrec_warp_slots(const VizRec *r) { return r->warp_slots; }
bool vrec_blocks_capped(const VizRec *r) { return r->blocks_capped; }
uint64_t vrec_detail_end(const VizRec *r) { return r->detail_end; }

uint32_t vrec_wave_of(const VizRec *r, uint64_t block_id)
{
    uint64_t per_wave = (uint64_t)r->shape.sm_count * r->shape.blocks_per_sm;
    return per_wave ? (uint32_t)(block_id / per_wave) : 0;
}

/* Index of the block resident in slot key k at cycle, or -1. */
static int64_t block_at(const VizRec *r, uint32_t k, uint64_t cycle)
{
    if (!r->key_first || k >= r->nkeys) return -1;
    uint32_t lo = r->key_first[k], hi = r->key_first[k + 1];
    /* The last block of the slot that started at or before cycle. */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->blocks[r->key_list[mid]].start <= cycle) lo = mid + 1;
        else hi = mid;
    }
    if (lo == r->key_first[k]) return -1;
    const VrecBlock *b = &r->blocks[r->key_list[lo - 1]];
    return cycle < b->end ? (int64_t)r->key_list[lo - 1] : -1;
}

void vrec_gpu_at(const VizRec *r, uint64_t cycle, VrecGpuNow *out)
{
    memset(out, 0, sizeof *out);
    uint32_t lo = 0, hi = r->nblocks; /* starts are non-decreasing */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->blocks[mid].start <= cycle) lo = mid + 1;
        else hi = mid;
    }
    out->started = lo;
    uint32_t dlo = 0, dhi = r->ends ? r->nblocks : 0;
    while (dlo < dhi) {
        uint32_t mid = dlo + (dhi - dlo) / 2;
        if (r->ends[mid] <= cycle) dlo = mid + 1;
        else dhi = mid;
    }
    out->done = dlo;
    out->waiting = r->shape.total_blocks > out->started ? r->shape.total_blocks - out->started : 0;
    uint64_t per_wave = (uint64_t)r->shape.sm_count * r->shape.blocks_per_sm;
    out->waves = per_wave ? (uint32_t)((r->shape.total_blocks + per_wave - 1) / per_wave) : 0;
    out->wave = lo ? vrec_wave_of(r, r->blocks[lo - 1].block_id) + 1 : 0;
    for (uint32_t k = 0; k < r->nkeys; k++) {
        int64_t b = block_at(r, k, cycle);
        if (b >= 0) out->resident_warps += r->blocks[b].warps;
    }
}

uint32_t vrec_sm_blocks_at(const VizRec *r, uint32_t sm, uint64_t cycle, int64_t *slots)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < r->shape.blocks_per_sm; s++) {
        int64_t b = sm < r->shape.sm_count ? block_at(r, sm * r->shape.blocks_per_sm + s, cycle) : -1;
        slots[s] = b >= 0 ? (int64_t)r->blocks[b].block_id : -1;
        n += b >= 0;
    }
    return n;
}

/* Number of issues of w with cycle <= c (their count, so the last is n - 1). */
static uint32_t issues_upto(const WarpLog *w, uint64_t c)
{
    uint32_t lo = 0, hi = w->niss;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (w->iss[mid].cycle <= c) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void vrec_warp_at(const VizRec *r, uint32_t warp, uint64_t cycle, VrecWarpNow *out)
{
    memset(out, 0, sizeof *out);
    out->state = VREC_EMPTY;
    out->block_id = -1;
    uint32_t wpb = r->shape.warps_per_block ? r->shape.warps_per_block : 1;
    int64_t b = block_at(r, r->shape.detail_sm * r->shape.blocks_per_sm + warp / wpb, cycle);
    if (b < 0 || warp >= r->warp_slots) return;
    const VrecBlock *blk = &r->blocks[b];
    out->block_id = blk->block_id;
    out->state = STALL_NOT_SELECTED;
    if (warp >= r->nwarps) return;
    const WarpLog *w = &r->warps[warp];
    /* issues of this block's warp: those after the block arrived */
    uint32_t n = issues_upto(w, cycle), first = blk->start ? issues_upto(w, blk->start - 1) : 0;
    if (n > first) {
        const VrecIssue *is = &w->iss[n - 1];
        out->has_issue = true;
        out->issuing = is->cycle == cycle;
        out->issue_cycle = is->cycle;
        out->pc = is->pc;
        out->active = is->active;
        out->exec = is->exec;
        out->opcode = is->opcode;
        out->diverged = is->diverged;
        out->issues = n - first;
    }
    if (out->issuing) {
        out->state = STALL_SELECTED;
        return;
    }
    uint32_t lo = 0, hi = w->nsp; /* the last span starting at or before cycle */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (w->sp[mid].start <= cycle) lo = mid + 1;
        else hi = mid;
    }
    if (lo && cycle < w->sp[lo - 1].start + w->sp[lo - 1].len) out->state = w->sp[lo - 1].reason;
    else if (out->has_issue && cycle < r->detail_end) out->state = VREC_EXITED;
}

/* result = the last element of arr with .cycle <= upto, among arr[idx[0..n)]
** (idx ascending by cycle), or among arr[0..n) when idx is NULL; NULL if none. */
#define LATEST_AT(arr, idx, n, upto, result)                               \
    do {                                                                      \
        uint32_t lo_ = 0, hi_ = (n);                                          \
        while (lo_ < hi_) {                                                   \
            uint32_t mid_ = lo_ + (hi_ - lo_) / 2;                            \
            uint32_t at_ = (idx) ? (idx)[mid_] : mid_;                        \
            if ((arr)[at_].cycle <= (upto)) lo_ = mid_ + 1;                  \
            else hi_ = mid_;                                                  \
        }                                                                     \
        (result) = lo_ ? &(arr)[(idx) ? (idx)[lo_ - 1] : lo_ - 1] : NULL;     \
    } while (0)

const VrecShared *vrec_shared_at(const VizRec *r, int32_t warp, uint64_t cycle)
{
    const VrecShared *s;
    if (warp >= 0) {
        if ((uint32_t)warp >= r->nwarps) return NULL;
        LATEST_AT(r->shared, r->warps[warp].sh, r->warps[warp].nsh, cycle, s);
    } else {
        const uint32_t *none = NULL;
        LATEST_AT(r->shared, none, r->nshared, cycle, s);
    }
    return s;
}

const VrecGlobal *vrec_global_at(const VizRec *r, int32_t warp, uint64_t cycle)
{
    const VrecGlobal *g;
    if (warp >= 0) {
        if ((uint32_t)warp >= r->nwarps) return NULL;
        LATEST_AT(r->global, r->warps[warp].gl, r->warps[warp].ngl, cycle, g);
    } else {
        const uint32_t *none = NULL;
        LATEST_AT(r->global, none, r->nglobal, cycle, g);
    }
    return g;
}

const VrecLine *vrec_lines(const VizRec *r, const VrecGlobal *g)
{
    return &r->lines[g->first_line];
}

static bool shared_matches(const VrecShared *s, VrecEvent kind, int32_t warp)
{
    if (warp >= 0 && s->warp != (uint32_t)warp) return false;
    return kind == VREC_EV_SHARED ||
           s->kind == (kind == VREC_EV_SHARED_LOAD ? ACCESS_LOAD : kind == VREC_EV_SHARED_STORE ? ACCESS_STORE : ACCESS_ATOMIC);
}

static bool global_matches(const VrecGlobal *g, VrecEvent kind, int32_t warp)
{
    if (warp >= 0 && g->warp != (uint32_t)warp) return false;
    return kind == VREC_EV_GLOBAL ||
           g->kind == (kind == VREC_EV_GLOBAL_LOAD ? ACCESS_LOAD : kind == VREC_EV_GLOBAL_STORE ? ACCESS_STORE : ACCESS_ATOMIC);
}

bool vrec_next_event(const VizRec *r, VrecEvent kind, int32_t warp, uint64_t from, bool forward, uint64_t *cycle)
{
    bool found = false;
    uint64_t best = forward ? UINT64_MAX : 0;
#define CONSIDER(c)                                                         \
    do {                                                                      \
        uint64_t c_ = (c);                                                    \
        if (forward ? c_ < best : c_ > best) best = c_;                       \
        found = true;                                                         \
    } while (0)
    switch (kind) {
    case VREC_EV_ISSUE:
    case VREC_EV_DIVERGED:
        for (uint32_t i = 0; i < r->nwarps; i++) {
            if (warp >= 0 && i != (uint32_t)warp) continue;
            const WarpLog *w = &r->warps[i];
            uint32_t n = issues_upto(w, forward ? from : (from ? from - 1 : 0));
            if (forward) {
                for (uint32_t j = n; j < w->niss; j++)
                    if (kind == VREC_EV_ISSUE || w->iss[j].diverged) {
                        CONSIDER(w->iss[j].cycle);
                        break;
                    }
            } else if (from) {
                for (uint32_t j = n; j-- > 0;)
                    if (kind == VREC_EV_ISSUE || w->iss[j].diverged) {
                        CONSIDER(w->iss[j].cycle);
                        break;
                    }
            }
        }
        break;
    case VREC_EV_SHARED:
    case VREC_EV_SHARED_LOAD:
    case VREC_EV_SHARED_STORE:
    case VREC_EV_SHARED_ATOMIC: {
        const VrecShared *s;
        const uint32_t *none = NULL;
        LATEST_AT(r->shared, none, r->nshared, from, s);
        uint32_t at = s ? (uint32_t)(s - r->shared) + 1 : 0; /* first with cycle > from */
        if (forward) {
            for (uint32_t j = at; j < r->nshared; j++)
                if (shared_matches(&r->shared[j], kind, warp)) {
                    CONSIDER(r->shared[j].cycle);
                    break;
                }
        } else {
            for (uint32_t j = at; j-- > 0;)
                if (r->shared[j].cycle < from && shared_matches(&r->shared[j], kind, warp)) {
                    CONSIDER(r->shared[j].cycle);
                    break;
                }
        }
        break;
    }
    case VREC_EV_GLOBAL:
    case VREC_EV_GLOBAL_LOAD:
    case VREC_EV_GLOBAL_STORE:
    case VREC_EV_GLOBAL_ATOMIC: {
        const VrecGlobal *g;
        const uint32_t *none = NULL;
        LATEST_AT(r->global, none, r->nglobal, from, g);
        uint32_t at = g ? (uint32_t)(g - r->global) + 1 : 0;
        if (forward) {
            for (uint32_t j = at; j < r->nglobal; j++)
                if (global_matches(&r->global[j], kind, warp)) {
                    CONSIDER(r->global[j].cycle);
                    break;
                }
        } else {
            for (uint32_t j = at; j-- > 0;)
                if (r->global[j].cycle < from && global_matches(&r->global[j], kind, warp)) {
                    CONSIDER(r->global[j].cycle);
                    break;
                }
        }
        break;
    }
    case VREC_EV_COUNT:
        break;
    }
#undef CONSIDER
    if (found) *cycle = best;
    return found;
}

void vrec_timeline(const VizRec *r, VrecTimeline *out)
{
    out->width = r->width;
    out->nbuckets = r->nbuckets;
    out->issues = r->issues;
    out->warp_cycles = r->warp_cycles;
}

/* sim/par.c -- one launch on several host threads (Launch.threads), with
** the output of one thread: SM i belongs to thread i mod N, and each thread
** runs its SMs' schedulers in (cycle, SM, position) order, as the single
** thread runs all of them (gpu.c). What the SMs share is not touched while
** they run: each SM records its global accesses (sim/sched.c: addresses,
** the values a store writes, the LSU's start cycle) and its freed block
** slots (sim/blocks.c), and at the end of each round every SM's records
** are applied in (cycle, SM, position) order: their timing through the
** memory system on one thread, and beside it on another, in the same
** order, the access on global memory (isa/exec_global.c) and the slot's
** next block (the two touch disjoint state); then the loaded registers'
** ready cycles. That is the order the single thread does them in at issue,
** so memory contents, queue state, block ids and every counter come out
** the same.
**
** Why nothing is read before it is applied (the rounds' limits, plan()):
** a load's or atomic's result is ready no sooner than `lookahead` cycles
** after its issue (the least of lat.l1_hit, lat.l2_hit and lat.atomic), so
** a thread may run cycle t once every access issued before t - lookahead
** is applied; a register whose access is not applied yet reads as ready at
** NEVER, so a warp that needs it sleeps until the round's end, when its
** ready cycle is known (fixups). A freed slot's next block can start no
** sooner than the SM's launcher allows (sm.block_refill_latency after the
** exit, and the launcher's own interval), so the thread that owns the SM
** stops before that cycle until the block has been handed out, which needs
** every thread to have run the cycle of the exit. Rounds are thus ragged:
** each thread has run every cycle before its own limit, and records are
** applied up to the least of those (the apply horizon).
**
** A run that stops (a fault, a deadlock) stops at the first failure in
** (cycle, SM, position) order: the other threads run on to that cycle,
** only the records before it are applied (global memory as the single
** thread leaves it), and the warp instructions issued before it are
** counted from each SM's marks. The budgets (--max-cycles,
** --max-instructions) are kept exactly by the single thread: the rounds
** stay short of any cycle at which a budget could run out, and when one
** might, the threads are brought to one cycle and the single thread goes
** on (gpu.c). */
#include "sim/gpu_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/host.h"
#include "sim/barrier.h"

typedef struct Par Par;

/* One record or free of a round, in (cycle, SM, position) order. The
** memory system's timing of the accesses and their effects (global memory,
** the loaded registers, the freed slots' next blocks) touch disjoint state,
** so two threads do them side by side, each in this order; a load's ready
** cycle is then set unless its slot has started another block since. */
typedef struct {
    uint32_t s, index;      /* the SM, and the record's or free's index there */
    bool     is_free;
    uint32_t dispatches;    /* the warp's Warp.dispatches when its effect was done */
    uint64_t ready;         /* loads and atomics: when the result is back     */
} ParStep;

/* What one thread writes as it runs, on host cache lines (64 bytes) of its
** own, since another thread's writes to a line it reads cost both of them
** the line: its view of the launch, its counters and result, its scratch,
** its wake-up calendar and bits. */
typedef struct {
    _Alignas(64) Gpu view;
    _Alignas(64) SimResult result;
    _Alignas(64) ExecOut out[2]; /* issue scratch, free-op scratch */
    uint64_t *bits;              /* view.cur, whole lines (view.wakes: its own) */
} ParOwn;

typedef struct {
    Par     *P;
    Gpu     *v;   /* the thread's view */
    ExecOut *out;
} ParThread;

struct Par {
    Gpu               *g;         /* the launch's own state                    */
    uint32_t           n;         /* threads                                   */
    ParOwn            *own;       /* one per thread                            */
    ParThread         *threads;
    uint64_t           lookahead; /* least cycles from a global access to its result */
    uint64_t           per_cycle; /* most warp instructions one cycle can issue */
    Barrier            bar;
    pthread_mutex_t    gate;      /* the threads start together, or not at all */
    pthread_cond_t     opened;
    int                gate_state; /* 0 wait, 1 run, 2 give up              */
    bool               done, serial, failed, leveling;
    uint64_t           fail_cycle; /* the first failure, with failed */
    uint32_t           fail_id, fail_view;
    Heap               order;     /* the next record of each SM, by (cycle, id) */
    ParStep           *steps;     /* a round's records and frees, in order      */
    uint32_t           nsteps, step_cap;
    uint64_t           horizon;   /* the round's: records before it are applied */
    bool               split;     /* this round's list is applied by two threads */
};

/* The least records and frees whose round end two threads share. */
#define SPLIT_STEPS 64

/* ------------------------------------------------------------ recording */

void par_record_global(Gpu *g, uint32_t s, uint32_t slot, const ExecOut *out, uint8_t kind, uint64_t start,
                       const CoalesceResult *cr, bool fadd, bool l2_only)
{
    Sm *sm = &g->sms[s];
    if (!grow_array((void **)&sm->par.recs, &sm->par.rec_cap, sm->par.nrec + 1, sizeof *sm->par.recs)) {
        gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory");
        return;
    }
    ParRec *e = &sm->par.recs[sm->par.nrec++];
    e->cycle = g->now;
    e->start = start;
    e->id = g->cur_id;
    e->slot = slot;
    e->kind = kind;
    e->fadd = fadd;
    e->l2_only = l2_only;
    e->pc = out->pc;
    e->mask = out->exec_mask;
    e->cr = *cr;
    memcpy(e->ptr, out->ptr, sizeof e->ptr);
    if (kind != ACCESS_LOAD) memcpy(e->data, out->data, sizeof e->data);
}

void par_record_free(Gpu *g, uint32_t s, uint32_t b)
{
    Sm *sm = &g->sms[s];
    if (!grow_array((void **)&sm->par.frees, &sm->par.free_cap, sm->par.nfree + 1, sizeof *sm->par.frees)) {
        gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory");
        return;
    }
    /* the earliest its next block can start: the launcher's clock only
    ** moves on, so this bounds the start from below */
    uint64_t earliest = g->now + 1 + g->c->block_refill_latency;
    uint64_t start = sm->launch_free > earliest ? sm->launch_free : earliest;
    sm->par.frees[sm->par.nfree++] = (ParFree){ g->now, start, g->cur_id, b };
    if (g->refill && start < g->limit) g->limit = start;
}

void par_wait_result(Gpu *g, uint32_t s, uint32_t slot)
{
    g->sms[s].warps[slot].chain_at = g->now;
    g->sms[s].par.fix = true;
}

void par_mark(Gpu *g, Sm *sm)
{
    if (!grow_array((void **)&sm->par.marks, &sm->par.mark_cap, sm->par.nmark + 1, sizeof *sm->par.marks)) {
        gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory");
        return;
    }
    sm->par.marks[sm->par.nmark++] = (ParMark){ g->now, sm->par.winst };
    sm->par.mark_cycle = g->now;
}

/* ------------------------------------------------------------ applying */

/* (cycle, id) order: the order gpu_run_cycles runs schedulers in. */
static inline bool key_before(uint64_t c1, uint32_t id1, uint64_t c2, uint32_t id2)
{
    return c1 < c2 || (c1 == c2 && id1 < id2);
}

static Gpu *owner(Par *P, uint32_t s) { return &P->own[s % P->n].view; }

/* The SM's next record not applied yet, as (cycle, id); false when none. */
static bool sm_head(const Sm *sm, uint64_t *cycle, uint32_t *id)
{
    bool r = sm->par.rec_head < sm->par.nrec, f = sm->par.free_head < sm->par.nfree;
    if (!r && !f) return false;
    const ParRec *a = r ? &sm->par.recs[sm->par.rec_head] : NULL;
    const ParFree *b = f ? &sm->par.frees[sm->par.free_head] : NULL;
    /* one issue makes at most one access, and an exit is no access */
    if (a && (!b || !key_before(b->cycle, b->id, a->cycle, a->id))) *cycle = a->cycle, *id = a->id;
    else *cycle = b->cycle, *id = b->id;
    return true;
}

/* The memory system's timing of an access (the thread doing the timing). */
static uint64_t time_global(Par *P, uint32_t s, const ParRec *e)
{
    MemSys *m = P->g->mem;
    if (e->kind == ACCESS_STORE) {
        memsys_store(m, s, e->start, &e->cr);
        return 0;
    }
    return e->kind == ACCESS_LOAD ? memsys_load(m, s, e->start, &e->cr, e->l2_only) : memsys_atomic(m, s, e->start, &e->cr, e->fadd);
}

static void apply_free(Par *P, uint32_t s, const ParFree *e)
{
    Gpu *v = owner(P, s);
    uint64_t now = v->now;
    v->now = e->cycle; /* the dispatch happens at the exit's cycle, as on one thread */
    v->cur_id = e->id;
    blocks_slot_freed(v, s, e->block);
    v->now = now;
}

/* Lists every record and free before cycle `horizon` and before the first
** failure, in (cycle, SM, position) order, taking them off their SMs (out
** of host memory, the owner's view fails; what is listed is applied). */
static void order_steps(Par *P, uint64_t horizon)
{
    Gpu *g = P->g;
    Heap *h = &P->order;
    h->n = 0;
    P->nsteps = 0;
    uint64_t fc = P->failed ? P->fail_cycle : NEVER;
    uint32_t fid = P->failed ? P->fail_id : 0;
    for (uint32_t s = 0; s < g->nsm; s++) {
        uint64_t c;
        uint32_t id;
        if (sm_head(&g->sms[s], &c, &id) && c < horizon && key_before(c, id, fc, fid)) heap_push(h, c, id);
    }
    uint32_t nsched = g->c->sm_schedulers;
    while (h->n) {
        HeapItem it = heap_pop(h);
        uint32_t s = it.id / nsched;
        Sm *sm = &g->sms[s];
        uint64_t c;
        uint32_t id;
        sm_head(sm, &c, &id);
        if (!grow_array((void **)&P->steps, &P->step_cap, P->nsteps + 1, sizeof *P->steps)) {
            gpu_fail(owner(P, s), SIM_BAD_LAUNCH, "out of host memory");
            return;
        }
        ParStep *st = &P->steps[P->nsteps++];
        st->s = s;
        st->is_free = !(sm->par.rec_head < sm->par.nrec && sm->par.recs[sm->par.rec_head].cycle == c && sm->par.recs[sm->par.rec_head].id == id);
        st->index = st->is_free ? sm->par.free_head++ : sm->par.rec_head++;
        if (sm_head(sm, &c, &id) && c < horizon && key_before(c, id, fc, fid)) heap_push(h, c, id);
    }
}

/* The timing of every listed access, in order (one thread). */
static void apply_timing(Par *P)
{
    for (uint32_t i = 0; i < P->nsteps; i++) {
        ParStep *st = &P->steps[i];
        if (!st->is_free) st->ready = time_global(P, st->s, &P->g->sms[st->s].par.recs[st->index]);
    }
}

/* The effects of every listed access and free, in order (another thread):
** global memory and the loaded registers, then the freed slots' next
** blocks. The warp may have exited since its access: its registers are its
** slot's until the slot's next block, which comes later in this order. */
static void apply_effects(Par *P)
{
    Gpu *g = P->g;
    for (uint32_t i = 0; i < P->nsteps; i++) {
        ParStep *st = &P->steps[i];
        Sm *sm = &g->sms[st->s];
        if (st->is_free) {
            apply_free(P, st->s, &sm->par.frees[st->index]);
            continue;
        }
        const ParRec *e = &sm->par.recs[st->index];
        Warp *w = &sm->warps[e->slot];
        exec_global_apply(g->k, w->ex.r, e->pc, e->mask, e->ptr, e->data);
        st->dispatches = w->dispatches;
    }
}

/* After both: each load's and atomic's registers get their ready cycle
** (where the single thread sets it at issue), unless the slot has started
** another block since, whose start reset them. Then the applied records
** and frees are dropped. */
static void apply_results(Par *P)
{
    Gpu *g = P->g;
    for (uint32_t i = 0; i < P->nsteps; i++) {
        const ParStep *st = &P->steps[i];
        if (st->is_free) continue;
        Sm *sm = &g->sms[st->s];
        const ParRec *e = &sm->par.recs[st->index];
        Warp *w = &sm->warps[e->slot];
        if (e->kind == ACCESS_STORE) continue;
        sm->par.fix = true;
        if (w->dispatches != st->dispatches) continue;
        const Instr *in = &g->k->code[e->pc];
        scoreboard_resolve(&w->sb, in, st->ready);
    }
    P->nsteps = 0;
    for (uint32_t s = 0; s < g->nsm; s++) { /* drop what was applied */
        Sm *sm = &g->sms[s];
        if (sm->par.rec_head == sm->par.nrec) sm->par.rec_head = sm->par.nrec = 0;
        if (sm->par.free_head == sm->par.nfree) sm->par.free_head = sm->par.nfree = 0;
    }
}

/* After the loads of a round are applied: the free instructions that waited
** for their values run (at the cycle they ran at in order), and the warps
** waiting at NEVER get their ready cycle and their schedulers' wake-ups. */
static void fixups(Par *P)
{
    Gpu *g = P->g;
    uint32_t nsched = g->c->sm_schedulers;
    for (uint32_t s = 0; s < g->nsm; s++) {
        Sm *sm = &g->sms[s];
        if (!sm->par.fix) continue;
        sm->par.fix = false;
        Gpu *v = owner(P, s);
        uint64_t now = v->now;
        for (uint32_t slot = 0; slot < g->warp_slots && !v->stop; slot++) {
            Warp *w = &sm->warps[slot];
            if (w->chain_at == NEVER) continue;
            v->now = w->chain_at;
            v->cur_id = sched_order_id(w->chain_at, s, slot % nsched, nsched);
            w->chain_at = NEVER;
            sched_run_free(v, s, slot); /* may wait again (sets chain_at and fix) */
        }
        v->now = now;
        for (uint32_t qi = 0; qi < nsched; qi++)
            if (!sched_requeue_resolved(v, s, qi)) return;
    }
}

/* ------------------------------------------------------------ rounds */

static uint64_t view_next_wake(const Gpu *v)
{
    return calendar_first(&v->wakes); /* CALENDAR_NONE is NEVER */
}

/* calendar_each's callback: one wake-up into `to`, or, with P, into the
** calendar of the view that owns the scheduler's SM (ok: all went in). */
typedef struct {
    Par      *P;
    Calendar *to;
    bool      ok;
} WakeMove;

static void wake_move(void *user, uint64_t at, uint32_t id)
{
    WakeMove *m = user;
    Calendar *to = m->P ? &m->P->own[id / m->P->g->c->sm_schedulers % m->P->n].view.wakes : m->to;
    m->ok = calendar_push(to, at, id) && m->ok;
}

/* Warp instructions issued before the failure at (fail_cycle, SM fs): the
** failing SM's own count (its thread stopped there), and each other SM's
** count before its first cycle past that point. */
static uint64_t count_before_failure(Par *P)
{
    Gpu *g = P->g;
    uint32_t fs = P->fail_id / g->c->sm_schedulers;
    uint64_t total = 0;
    for (uint32_t s = 0; s < g->nsm; s++) {
        const Sm *sm = &g->sms[s];
        uint64_t n = sm->par.winst;
        if (s != fs)
            for (uint32_t i = 0; i < sm->par.nmark; i++)
                if (sm->par.marks[i].cycle > P->fail_cycle || (sm->par.marks[i].cycle == P->fail_cycle && s > fs)) {
                    n = sm->par.marks[i].before;
                    break;
                }
        total += n;
    }
    return total;
}

/* Sets each thread's limit for the next round, or ends the rounds. */
static void plan(Par *P, uint64_t horizon)
{
    Gpu *g = P->g;
    uint64_t U = NEVER, W = NEVER, Hmax = 0;
    bool level = true;
    for (uint32_t s = 0; s < g->nsm; s++) {
        uint64_t c;
        uint32_t id;
        if (sm_head(&g->sms[s], &c, &id) && c < U) U = c;
    }
    for (uint32_t i = 0; i < P->n; i++) {
        const Gpu *v = &P->own[i].view;
        if (v->stop) continue;
        uint64_t t = view_next_wake(v);
        if (t < W) W = t;
        if (v->limit > Hmax) Hmax = v->limit;
    }
    for (uint32_t i = 0; i < P->n; i++)
        if (!P->own[i].view.stop && P->own[i].view.limit != Hmax) level = false;
    if (!P->failed && U == NEVER && W == NEVER) {
        P->done = true; /* nothing left anywhere */
        return;
    }
    uint64_t base = U < W ? U : W;
    uint64_t L = base > NEVER - P->lookahead ? NEVER : base + P->lookahead;
    if (P->failed && L > P->fail_cycle + 1) L = P->fail_cycle + 1;
    if (!P->failed && !P->leveling) {
        /* stay short of the first cycle a budget could run out at: the count
        ** before any cycle t < L is at most what was issued so far plus
        ** what every scheduler could issue in [horizon, L) */
        const Launch *Ln = g->L;
        uint64_t Lb = L;
        if (Ln->max_cycles && Lb > Ln->max_cycles + 1) Lb = Ln->max_cycles + 1;
        if (Ln->max_warp_instructions) {
            uint64_t total = g->st->warp_instructions;
            for (uint32_t i = 0; i < P->n; i++) total += P->own[i].view.st->warp_instructions;
            uint64_t room = total < Ln->max_warp_instructions ? (Ln->max_warp_instructions - total) / P->per_cycle : 0;
            if (horizon + room < Lb) Lb = horizon + room;
        }
        if (Lb <= horizon) P->leveling = true; /* no round can run safely: one thread goes on */
        else L = Lb;
    }
    if (P->leveling) {
        if (level) {
            P->serial = P->done = true; /* the single thread goes on from cycle Hmax */
            return;
        }
        if (L > Hmax) L = Hmax; /* the threads behind catch up; none goes further */
    }
    bool refill = g->grid->next_block < g->total_blocks;
    for (uint32_t i = 0; i < P->n; i++) {
        Gpu *v = &P->own[i].view;
        if (v->stop) continue;
        uint64_t lim = L;
        for (uint32_t s = i; refill && s < g->nsm; s += P->n) {
            const Sm *sm = &g->sms[s];
            for (uint32_t k = sm->par.free_head; k < sm->par.nfree; k++)
                if (sm->par.frees[k].start < lim) lim = sm->par.frees[k].start;
        }
        if (lim < v->limit) lim = v->limit; /* never back */
        v->limit = lim;
        v->refill = refill;
    }
}

/* Takes the first failure in order of any view; false when none. */
static bool find_failure(Par *P)
{
    for (uint32_t i = 0; i < P->n; i++) {
        const Gpu *v = &P->own[i].view;
        if (v->stop && (!P->failed || key_before(v->fail_cycle, v->fail_id, P->fail_cycle, P->fail_id))) {
            P->failed = true;
            P->fail_cycle = v->fail_cycle;
            P->fail_id = v->fail_id;
            P->fail_view = i;
        }
    }
    return P->failed;
}

/* The end of a round, in three steps while the other threads wait: the
** first thread lists what to apply (boundary_begin), the first two apply it
** side by side (apply_timing, apply_effects), and the first finishes
** (boundary_end). */
static void boundary_begin(Par *P)
{
    find_failure(P);
    uint64_t horizon = NEVER;
    for (uint32_t i = 0; i < P->n; i++)
        if (!P->own[i].view.stop && P->own[i].view.limit < horizon) horizon = P->own[i].view.limit;
    P->horizon = horizon;
    order_steps(P, horizon);
}

static void boundary_end(Par *P)
{
    Gpu *g = P->g;
    uint64_t horizon = P->horizon;
    apply_results(P);
    if (P->failed && horizon > P->fail_cycle) {
        P->done = true;
        return;
    }
    fixups(P);
    if (find_failure(P) && horizon > P->fail_cycle) { /* one in fixups: before the horizon */
        P->done = true;
        return;
    }
    if (!P->failed)
        for (uint32_t s = 0; s < g->nsm; s++) { /* marks before the horizon are needed no more */
            Sm *sm = &g->sms[s];
            uint32_t k = 0;
            while (k < sm->par.nmark && sm->par.marks[k].cycle < horizon) k++;
            if (k == 0) continue; /* nothing to drop (marks may be NULL) */
            memmove(sm->par.marks, sm->par.marks + k, (sm->par.nmark - k) * sizeof sm->par.marks[0]);
            sm->par.nmark -= k;
        }
    plan(P, horizon);
}

static void *run_thread(void *arg)
{
    ParThread *t = arg;
    Par *P = t->P;
    bool first = t == &P->threads[0], second = t == &P->threads[1];
    for (;;) {
        gpu_run_cycles(t->v, t->out);
        barrier_wait(&P->bar);
        if (first) {
            boundary_begin(P);
            /* a short list is applied on this thread: two more barriers
            ** would cost more than the second thread saves */
            P->split = P->nsteps >= SPLIT_STEPS;
            if (!P->split) {
                apply_timing(P);
                apply_effects(P);
                boundary_end(P);
            }
        }
        barrier_wait(&P->bar); /* every thread reads split after it */
        if (P->split) {
            if (first) apply_timing(P);
            else if (second) apply_effects(P);
            barrier_wait(&P->bar);
            if (first) boundary_end(P);
            barrier_wait(&P->bar);
        }
        if (P->done) return NULL;
    }
}

/* A thread other than the first: waits until every thread has started (or
** one could not), then runs the rounds. */
static void *thread_main(void *arg)
{
    ParThread *t = arg;
    Par *P = t->P;
    pthread_mutex_lock(&P->gate);
    while (!P->gate_state) pthread_cond_wait(&P->opened, &P->gate);
    int go = P->gate_state == 1;
    pthread_mutex_unlock(&P->gate);
    return go ? run_thread(t) : NULL;
}

/* ------------------------------------------------------------ the launch */

uint32_t par_threads(const Gpu *g)
{
    uint32_t n = g->L->threads;
    if (n > g->nsm) n = g->nsm;
    /* what runs on one thread only: a trace sink sees events as they happen,
    ** per-instruction counters are one shared table, and malloc and free
    ** change the heap as they issue, an asynchronous copy's shared
    ** memory and completion are written at its issue (sim/async.c), and
    ** a texture fetch reads global memory at its issue (isa/exec_tex.c) */
    if (g->trace || g->pcs || kernel_uses_heap(g->k) || kernel_uses_async_copies(g->k) || kernel_has_op(g->k, OP_TEX)) n = 1;
    if (g->L->threads_auto && g->total_blocks < GPU_AUTO_THREADS_MIN_BLOCKS) n = 1;
    if (n > 1 && g->L->threads_fit_host) {
        uint32_t free_cores = host_free_cores();
        if (n > free_cores) n = free_cores; /* the results are the same for every n */
    }
    return n ? n : 1;
}

static void set_defer(Gpu *g, bool on)
{
    for (uint32_t s = 0; s < g->nsm; s++)
        for (uint32_t b = 0; b < g->bps; b++) g->sms[s].blocks[b].eb.defer_global = on;
}

/* Hands the views' state back to g: counters, the clock, the wake-ups (for
** the single thread to go on with), the failure. */
static void merge(Par *P)
{
    Gpu *g = P->g;
    uint64_t now = 0;
    for (uint32_t i = 0; i < P->n; i++) {
        Gpu *v = &P->own[i].view;
        stats_add(g->st, v->st);
        if (v->end > g->end) g->end = v->end;
        if (!v->stop && v->limit > now) now = v->limit;
    }
    g->now = now ? now - 1 : g->now; /* every thread has run the cycles before `now` */
    calendar_reset(&g->wakes, g->now);
    WakeMove copy = { NULL, &g->wakes, true };
    for (uint32_t i = 0; i < P->n && !g->stop && copy.ok; i++) calendar_each(&P->own[i].view.wakes, wake_move, &copy);
    if (!copy.ok) gpu_fail(g, SIM_BAD_LAUNCH, "out of host memory");
    if (P->failed) {
        const Gpu *v = &P->own[P->fail_view].view;
        g->r->status = v->r->status;
        g->r->fault = v->r->fault;
        memcpy(g->r->message, v->r->message, sizeof g->r->message);
        g->stop = true;
        g->st->warp_instructions = count_before_failure(P);
    } else {
        for (uint32_t i = 0; i < P->n; i++)
            if (P->own[i].view.stop && !g->stop) { /* out of memory outside any order */
                g->r->status = P->own[i].view.r->status;
                g->r->fault = P->own[i].view.r->fault;
                memcpy(g->r->message, P->own[i].view.r->message, sizeof g->r->message);
                g->stop = true;
            }
    }
}

static void par_free(Par *P)
{
    for (uint32_t i = 0; P->own && i < P->n; i++) {
        calendar_free(&P->own[i].view.wakes);
        free(P->own[i].bits);
    }
    for (uint32_t s = 0; s < P->g->nsm; s++) {
        Sm *sm = &P->g->sms[s];
        free(sm->par.recs);
        free(sm->par.frees);
        free(sm->par.marks);
        sm->par.recs = NULL, sm->par.frees = NULL, sm->par.marks = NULL;
        sm->par.nrec = sm->par.rec_cap = sm->par.rec_head = sm->par.nfree = sm->par.free_cap = sm->par.free_head = 0;
        sm->par.nmark = sm->par.mark_cap = 0;
    }
    heap_free(&P->order);
    free(P->steps);
    free(P->own);
    free(P->threads);
}

bool par_run(Gpu *g, uint32_t n)
{
    const GpuConfig *c = g->c;
    Par P;
    memset(&P, 0, sizeof P);
    P.g = g;
    P.n = n;
    P.lookahead = c->lat_l1_hit;
    if (c->lat_l2_hit < P.lookahead) P.lookahead = c->lat_l2_hit;
    if (c->lat_atomic < P.lookahead) P.lookahead = c->lat_atomic;
    if (P.lookahead < 1) P.lookahead = 1;
    uint32_t slots = 1;
    for (uint32_t pc = 0; pc < g->k->ncode; pc++)
        if (g->k->code[pc].slots > slots) slots = g->k->code[pc].slots;
    P.per_cycle = (uint64_t)g->nsm * c->sm_schedulers * slots;
    P.own = aligned_alloc(64, n * sizeof *P.own); /* sizeof is a multiple of 64 */
    if (P.own) memset(P.own, 0, n * sizeof *P.own);
    P.threads = calloc(n, sizeof *P.threads);
    bool ok = P.own && P.threads && heap_reserve(&P.order, g->nsm);
    size_t bits_size = ((size_t)g->nwords * sizeof(uint64_t) + 63) / 64 * 64;
    for (uint32_t i = 0; ok && i < n; i++) {
        ParOwn *o = &P.own[i];
        Gpu *v = &o->view;
        *v = *g; /* the launch's shared state, by pointer or read-only */
        v->wakes = (Calendar){ 0 }; /* its own, below */
        v->r = &o->result;
        v->st = &o->result.stats;
        o->bits = aligned_alloc(64, bits_size);
        if (!(ok = o->bits != NULL && calendar_init(&v->wakes, g->nsm * c->sm_schedulers, g->now))) break;
        memset(o->bits, 0, bits_size);
        v->cur = o->bits;
        v->free_out = &o->out[1];
        v->defer = true;
        v->limit = 1;
        P.threads[i] = (ParThread){ &P, v, &o->out[0] };
    }
    /* each SM's wake-ups go to its thread */
    WakeMove split = { &P, NULL, true };
    if (ok) calendar_each(&g->wakes, wake_move, &split);
    ok = ok && split.ok;
    if (!ok || !barrier_init(&P.bar, n)) {
        par_free(&P);
        return false; /* nothing has moved: the single thread runs the launch */
    }
    /* the threads first, so that a failure to start them changes nothing */
    pthread_mutex_init(&P.gate, NULL);
    pthread_cond_init(&P.opened, NULL);
    pthread_t *tids = calloc(n, sizeof *tids);
    uint32_t started = 1;
    while (tids && started < n && pthread_create(&tids[started], NULL, thread_main, &P.threads[started]) == 0) started++;
    if (started == n) {
        calendar_reset(&g->wakes, g->now);
        set_defer(g, true);
        plan(&P, 1);
    }
    pthread_mutex_lock(&P.gate);
    P.gate_state = started == n ? 1 : 2;
    pthread_cond_broadcast(&P.opened);
    pthread_mutex_unlock(&P.gate);
    if (started == n) run_thread(&P.threads[0]); /* a first round of nothing when P.done */
    for (uint32_t i = 1; i < started; i++) pthread_join(tids[i], NULL);
    free(tids);
    barrier_destroy(&P.bar);
    pthread_cond_destroy(&P.opened);
    pthread_mutex_destroy(&P.gate);
    if (started < n) {
        par_free(&P);
        return false;
    }
    set_defer(g, false);
    if (!g->stop) merge(&P);
    par_free(&P);
    return true;
}

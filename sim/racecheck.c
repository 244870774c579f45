/* sim/racecheck.c -- shared-memory race checker (see racecheck.h).
** Per word and per epoch (barrier interval), a summary that is exact for
** "has another warp touched this word in a conflicting way": while no race
** has happened, a word written by warp X has been touched by X alone (any
** other access would have raced), so one writer entry suffices; atomics
** from several warps may coexist, and so may reads, and two entries from
** distinct warps are enough to name one that differs from any newcomer.  */
#include "sim/racecheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t thread, pc;
} Acc;

typedef struct {
    uint32_t epoch;    /* the summary is valid when equal to RaceCheck.epoch */
    uint32_t issue;    /* instruction instance of w[0]                      */
    Acc      w[2];     /* latest write or atomic; a second warp's atomic     */
    Acc      r[2];     /* reads from up to two distinct warps (threads)      */
    uint8_t  wkind[2]; /* RaceAccess of w[i]                                 */
    uint8_t  nw, nr;
} Shadow;

_Static_assert(sizeof(Shadow) == RACECHECK_WORD_BYTES, "RACECHECK_WORD_BYTES is the size of Shadow");

struct RaceCheck {
    Shadow    *words;
    uint32_t   nwords, smem_bytes;
    uint32_t   epoch, issue;
    unsigned   flags;
    RaceReport first;
};

uint64_t racecheck_bytes(uint32_t smem_bytes)
{
    return (uint64_t)(smem_bytes / 4u) * sizeof(Shadow) + sizeof(RaceCheck);
}

RaceCheck *racecheck_create(uint32_t smem_bytes, unsigned flags)
{
    RaceCheck *rc = calloc(1, sizeof *rc);
    if (!rc) return NULL;
    rc->nwords = smem_bytes / 4u;
    rc->smem_bytes = rc->nwords * 4u;
    if (rc->nwords && !(rc->words = calloc(rc->nwords, sizeof *rc->words))) {
        free(rc);
        return NULL;
    }
    rc->epoch = 1; /* calloc'd words hold epoch 0: untouched */
    rc->flags = flags;
    return rc;
}

void racecheck_destroy(RaceCheck *rc)
{
    if (!rc) return;
    free(rc->words);
    free(rc);
}

void racecheck_barrier(RaceCheck *rc)
{
    if (++rc->epoch == 0) { /* after 2^32 barriers, forget for real once */
        memset(rc->words, 0, (size_t)rc->nwords * sizeof *rc->words);
        rc->epoch = 1;
    }
}

void racecheck_reset(RaceCheck *rc)
{
    racecheck_barrier(rc);
    memset(&rc->first, 0, sizeof rc->first);
}

const RaceReport *racecheck_first(const RaceCheck *rc)
{
    return rc->first.found ? &rc->first : NULL;
}

/* Who must synchronise with whom: a warp runs in lockstep here, so by
** default the unit is the warp; RACECHECK_INTRA_WARP makes it the thread. */
static inline uint32_t agent(const RaceCheck *rc, uint32_t thread)
{
    return rc->flags & RACECHECK_INTRA_WARP ? thread : thread / 32u;
}

static bool conflict(const RaceCheck *rc, Acc prev, RaceAccess pk, bool same_issue, uint32_t thread, RaceAccess k)
{
    if (prev.thread == thread) return false;
    if (pk == RACE_READ && k == RACE_READ) return false;
    if (pk == RACE_ATOMIC && k == RACE_ATOMIC) return false;
    if (agent(rc, prev.thread) != agent(rc, thread)) return true;
    /* lanes of one warp storing to one word in one instruction */
    return same_issue && pk == RACE_WRITE && k == RACE_WRITE;
}

static void record(RaceCheck *rc, uint32_t word, Acc prev, RaceAccess pk, Acc now, RaceAccess k, RaceReport *out)
{
    RaceReport rep = {
        .found = true,
        .hazard = pk == RACE_READ ? RACE_WAR : k == RACE_READ ? RACE_RAW : RACE_WAW,
        .addr = word * 4u,
        .first_thread = prev.thread, .first_pc = prev.pc, .first_access = pk,
        .second_thread = now.thread, .second_pc = now.pc, .second_access = k,
    };
    if (!rc->first.found) rc->first = rep;
    if (out && !out->found) *out = rep;
}

static bool check(RaceCheck *rc, uint32_t word, Acc now, RaceAccess k, uint32_t issue, RaceReport *out)
{
    Shadow *s = &rc->words[word];
    if (s->epoch != rc->epoch) {
        memset(s, 0, sizeof *s);
        s->epoch = rc->epoch;
    }
    bool raced = false;
    for (uint32_t i = 0; i < s->nw && !raced; i++)
        if (conflict(rc, s->w[i], (RaceAccess)s->wkind[i], i == 0 && s->issue == issue, now.thread, k)) {
            record(rc, word, s->w[i], (RaceAccess)s->wkind[i], now, k, out);
            raced = true;
        }
    if (k != RACE_READ)
        for (uint32_t i = 0; i < s->nr && !raced; i++)
            if (conflict(rc, s->r[i], RACE_READ, false, now.thread, k)) {
                record(rc, word, s->r[i], RACE_READ, now, k, out);
                raced = true;
            }

    uint32_t a = agent(rc, now.thread);
    switch (k) {
    case RACE_READ:
        for (uint32_t i = 0; i < s->nr; i++)
            if (agent(rc, s->r[i].thread) == a) return raced;
        if (s->nr < 2) s->r[s->nr++] = now;
        break;
    case RACE_WRITE:
        /* earlier reads were this warp's (or raced just now): the write
        ** stands for them in every later conflict */
        s->w[0] = now;
        s->wkind[0] = RACE_WRITE;
        s->issue = issue;
        s->nw = 1;
        s->nr = 0;
        break;
    case RACE_ATOMIC:
        if (s->nw == 0 || s->wkind[0] == RACE_WRITE || agent(rc, s->w[0].thread) == a) {
            s->w[0] = now;
            s->wkind[0] = RACE_ATOMIC;
            s->issue = issue;
            if (s->nw == 0) s->nw = 1;
        } else if (s->nw == 1 || agent(rc, s->w[1].thread) == a) {
            s->w[1] = now;
            s->wkind[1] = RACE_ATOMIC;
            s->nw = 2;
        }
        break;
    }
    return raced;
}

static uint32_t next_issue(RaceCheck *rc)
{
    if (++rc->issue == 0) { /* 2^32 instructions: start over (may miss, never invents) */
        racecheck_barrier(rc);
        rc->issue = 1;
    }
    return rc->issue;
}

bool racecheck_warp(RaceCheck *rc, uint32_t warp_in_block, uint32_t pc, const uint64_t addr[32], uint32_t mask,
                    uint32_t width, RaceAccess access, RaceReport *out_first)
{
    if (!mask) return false;
    uint32_t issue = next_issue(rc);
    uint32_t nwords = width >= 8 ? width / 4u : 1u;
    bool raced = false;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(mask >> l & 1)) continue;
        Acc now = { warp_in_block * 32u + l, pc };
        for (uint32_t j = 0; j < nwords; j++) {
            uint64_t a = addr[l] + 4u * j;
            if (a >= rc->smem_bytes) continue;
            raced |= check(rc, (uint32_t)(a / 4u), now, access, issue, out_first);
        }
    }
    return raced;
}

bool racecheck_access(RaceCheck *rc, uint32_t thread, uint32_t pc, uint32_t word_addr, RaceAccess access,
                      RaceReport *out_first)
{
    uint32_t issue = next_issue(rc);
    if (word_addr >= rc->smem_bytes) return false;
    Acc now = { thread, pc };
    return check(rc, word_addr / 4u, now, access, issue, out_first);
}

const char *racecheck_access_name(RaceAccess a)
{
    switch (a) {
    case RACE_READ: return "read";
    case RACE_WRITE: return "write";
    case RACE_ATOMIC: return "atomic";
    }
    return "?";
}

const char *racecheck_hazard_name(RaceHazard h)
{
    switch (h) {
    case RACE_NONE: return "no";
    case RACE_RAW: return "read-after-write";
    case RACE_WAR: return "write-after-read";
    case RACE_WAW: return "write-after-write";
    }
    return "?";
}

static const char *verb(RaceAccess a)
{
    return a == RACE_READ ? "read" : a == RACE_WRITE ? "wrote" : "updated it atomically";
}

static void coords(uint32_t t, const uint32_t ntid[3], char *buf, size_t cap)
{
    uint32_t x = ntid[0] ? ntid[0] : 1, y = ntid[1] ? ntid[1] : 1;
    snprintf(buf, cap, "(%u,%u,%u)", t % x, t / x % y, t / x / y);
}

void racecheck_describe(const RaceReport *r, const uint32_t ntid[3], char *buf, size_t cap)
{
    if (!cap) return;
    if (!r || !r->found) {
        snprintf(buf, cap, "no shared-memory race");
        return;
    }
    char a[48], b[48];
    coords(r->first_thread, ntid, a, sizeof a);
    coords(r->second_thread, ntid, b, sizeof b);
    snprintf(buf, cap,
             "%s race on shared memory word 0x%x: thread %s %s at pc %u after thread %s %s at pc %u, "
             "with no bar.sync between",
             racecheck_hazard_name(r->hazard), r->addr, b, verb(r->second_access), r->second_pc, a,
             verb(r->first_access), r->first_pc);
}

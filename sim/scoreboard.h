/* sim/scoreboard.h -- a warp's scoreboard: for each predicate and register
** row, the cycle its value can be read and the stall reason a reader waits
** under until then (long scoreboard for a global load, short for shared
** memory, wait for the fixed-latency pipes). The entries are one array per
** warp, predicates first (SB_PREDS of them, always read under `wait`) and
** the register rows after, so that any operand is one index (sb_entry).
** Its writers are these calls alone: a block's start resets it
** (sim/blocks.c), an issue or a free PTX instruction marks its destinations
** (sim/sched.c), and a global load applied at a round's end of a run on
** several threads sets its registers (sim/par.c). Times only: the values
** are the warp's WarpExec's. */
#ifndef GPUSIM_SIM_SCOREBOARD_H
#define GPUSIM_SIM_SCOREBOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "isa/program.h"
#include "sim/stats.h"

#define SB_PREDS   ISA_MAX_PREDS
#define SB_UNKNOWN UINT64_MAX /* a ready cycle not known yet (gpu_int.h's NEVER) */

typedef struct {
    uint64_t *ready; /* per entry: the cycle its value can be read (0: now) */
    uint8_t  *wait;  /* per entry: the StallReason a reader waits under      */
} Scoreboard;

/* Entries of a warp with nregs register rows. */
static inline size_t sb_entries(uint32_t nregs) { return SB_PREDS + (size_t)nregs; }

/* The entry of operand o (a register or a predicate), or -1 for any other. */
static inline int32_t sb_entry(const Operand *o)
{
    return o->kind == OPND_REG ? (int32_t)(SB_PREDS + o->index) : o->kind == OPND_PRED ? (int32_t)o->index : -1;
}

/* A block starts on the warp's slot: every value can be read. */
static inline void scoreboard_reset(Scoreboard *sb, uint32_t nregs)
{
    memset(sb->ready, 0, sb_entries(nregs) * sizeof *sb->ready);
    memset(sb->wait, STALL_WAIT, SB_PREDS);
}

/* Lowers *t to the cycle entry e can be read (and *reason to why it waits). */
static inline void sb_need(const Scoreboard *sb, uint32_t e, uint64_t *t, uint8_t *reason)
{
    if (sb->ready[e] > *t) {
        *t = sb->ready[e];
        *reason = sb->wait[e];
    }
}

/* When instruction in's sources and guard can all be read: raises *t (and
** sets *reason) as sb_need does. */
static inline void scoreboard_sources(const Scoreboard *sb, const Instr *in, uint64_t *t, uint8_t *reason)
{
    for (uint32_t i = 0; i < in->nsrc; i++) {
        int32_t e = sb_entry(&in->src[i]);
        if (e >= 0) sb_need(sb, (uint32_t)e, t, reason);
    }
    if (in->guard != ISA_NO_GUARD) sb_need(sb, in->guard, t, reason);
}

/* Instruction in has issued: its destinations can be read at `ready`, a
** register's reader waiting under `wait` until then. */
static inline void scoreboard_write(Scoreboard *sb, const Instr *in, uint64_t ready, uint8_t wait)
{
    for (uint32_t i = 0; i < in->ndst; i++) {
        int32_t e = sb_entry(&in->dst[i]);
        if (e < 0) continue;
        sb->ready[e] = ready;
        if (e >= SB_PREDS) sb->wait[e] = wait;
    }
}

/* A result whose cycle was not known at issue (several threads: a global
** load, sim/par.c) has it now: in's destination registers, their wait
** reason as the issue set it. */
static inline void scoreboard_resolve(Scoreboard *sb, const Instr *in, uint64_t ready)
{
    for (uint32_t i = 0; i < in->ndst; i++)
        if (in->dst[i].kind == OPND_REG) sb->ready[SB_PREDS + in->dst[i].index] = ready;
}

/* Whether one of in's destination registers waits for such a result. */
static inline bool scoreboard_unresolved(const Scoreboard *sb, const Instr *in)
{
    for (uint32_t i = 0; i < in->ndst; i++)
        if (in->dst[i].kind == OPND_REG && sb->ready[SB_PREDS + in->dst[i].index] == SB_UNKNOWN) return true;
    return false;
}

#endif

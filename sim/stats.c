/* sim/stats.c -- names of the warp states (the lists are in stats.h) and of
** the access kinds; the one adder of the raw counters. */
#include "sim/stats.h"

const char *const STALL_NAMES[STALL_COUNT] = {
#define STALL_NAME(id, name, help) name,
    WARP_STATE_LIST(STALL_NAME)
#undef STALL_NAME
};

const char *const STALL_HELP[STALL_COUNT] = {
#define STALL_DOC(id, name, help) help,
    WARP_STATE_LIST(STALL_DOC)
#undef STALL_DOC
};

const char *const LIMIT_NAMES[LIMITS] = {
#define LIMIT_NAME(id, name, what, ncu) name,
    LIMIT_LIST(LIMIT_NAME)
#undef LIMIT_NAME
};

const char *const LIMIT_WHAT[LIMITS] = {
#define LIMIT_DOC(id, name, what, ncu) what,
    LIMIT_LIST(LIMIT_DOC)
#undef LIMIT_DOC
};

const char *const LIMIT_NCU[LIMITS] = {
#define LIMIT_METRIC(id, name, what, ncu) ncu,
    LIMIT_LIST(LIMIT_METRIC)
#undef LIMIT_METRIC
};

const char *const ACCESS_NAMES[ACCESS_KINDS] = { "loads", "stores", "atomics" };

/* The bodies of the adders: `to` and `from` of the same struct type. */
#define ADD_SUM(f) to->f += from->f;
#define ADD_MAX(f) if (from->f > to->f) to->f = from->f;

static void global_add(GlobalCounts *to, const GlobalCounts *from) { GLOBAL_COUNTS(ADD_SUM, ADD_MAX) }

static void shared_add(SharedCounts *to, const SharedCounts *from) { SHARED_COUNTS(ADD_SUM, ADD_MAX) }

void stats_add(KernelStats *to, const KernelStats *from)
{
    KERNEL_COUNTS(ADD_SUM, ADD_MAX)
    for (int k = 0; k < STALL_REASONS; k++) to->stall[k] += from->stall[k];
    for (int u = 0; u < UNIT_COUNT; u++) to->pipe_cycles[u] += from->pipe_cycles[u];
    for (int k = 0; k < ACCESS_KINDS; k++) {
        global_add(&to->global[k], &from->global[k]);
        global_add(&to->local[k], &from->local[k]);
        shared_add(&to->shared[k], &from->shared[k]);
    }
}

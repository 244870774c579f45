/* sim/stats.c -- names of the warp states (the lists are in stats.h) and of
** the access kinds. */
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

const char *const ACCESS_NAMES[ACCESS_KINDS] = { "loads", "stores", "atomics" };

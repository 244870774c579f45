/* base/host.h -- what the host has free right now, for work that splits
** itself over cores (one launch on several threads, sim/par.c). */
#ifndef GPUSIM_BASE_HOST_H
#define GPUSIM_BASE_HOST_H

#include <stdint.h>

/* The cores not taken at this instant: the online cores less the tasks
** the kernel counts as runnable (/proc/stat procs_running) other than the
** caller, at least 1. The online cores when the count cannot be read (a
** host without /proc). A snapshot: a busy process that sleeps for a moment
** is not counted. */
uint32_t host_free_cores(void);

#endif

/* base/host.c -- the host's free cores (see host.h). */
#define _DEFAULT_SOURCE /* sysconf(_SC_NPROCESSORS_ONLN) */
#include "base/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t host_free_cores(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t cores = online > 0 ? (uint32_t)online : 1;
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return cores;
    char line[256];
    long running = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "procs_running ", 14) == 0) {
            running = strtol(line + 14, NULL, 10);
            break;
        }
    fclose(f);
    if (running < 1) return cores;
    long others = running - 1; /* the caller is running: it counts itself */
    return others >= (long)cores ? 1 : cores - (uint32_t)others;
}

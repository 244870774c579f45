/* sim/dram.c -- bandwidth server with fixed latency (see dram.h for the
** model and what it leaves out). Channel time is kept in fractional cycles
** so that sub-cycle transfers (a 32-byte sector at 1 kB/cycle) neither
** round up to a whole cycle each nor vanish: streaming achieves exactly
** the configured bandwidth. Only the returned arrival cycle is rounded.   */
#include "sim/dram.h"

#include <assert.h>
#include <math.h>

void dram_init(Dram *m, double bytes_per_cycle, uint32_t latency)
{
    assert(bytes_per_cycle > 0.0);
    m->bytes_per_cycle = bytes_per_cycle;
    m->latency = latency;
    m->next_free = 0.0;
    m->bytes = 0;
    m->requests = 0;
}

uint64_t dram_access(Dram *m, uint64_t now, uint32_t bytes)
{
    const double t = (double)now;
    const double start = m->next_free > t ? m->next_free : t; /* idle time is not banked */
    const double done = start + (double)bytes / m->bytes_per_cycle;
    m->next_free = done;
    m->bytes += bytes;
    m->requests++;
    return (uint64_t)ceil(done) + m->latency;
}

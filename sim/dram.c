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
    m->load_linear = 0.0;
    m->load_queue = 0.0;
    m->recent_bytes = 0.0;
    m->recent_at = 0.0;
    m->window = 2.0 * (latency > 0 ? latency : 1);
}

void dram_set_loaded_latency(Dram *m, double linear, double queue)
{
    assert(linear >= 0.0 && queue >= 0.0);
    m->load_linear = linear;
    m->load_queue = queue;
}

/* Utilisation over the last window: recent_bytes decays by e^(-dt/window),
** so a steady stream of r bytes/cycle settles at r * window. */
static double utilisation(const Dram *m)
{
    double u = m->recent_bytes / (m->window * m->bytes_per_cycle);
    return u < 0.95 ? u : 0.95;
}

double dram_current_latency(const Dram *m)
{
    double u = utilisation(m);
    return m->latency + m->load_linear * u + m->load_queue * u / (1.0 - u);
}

uint64_t dram_access(Dram *m, uint64_t now, uint32_t bytes)
{
    const double t = (double)now;
    const double start = m->next_free > t ? m->next_free : t; /* idle time is not banked */
    const double done = start + (double)bytes / m->bytes_per_cycle;
    m->next_free = done;
    m->bytes += bytes;
    m->requests++;
    if (m->load_linear == 0.0 && m->load_queue == 0.0) return (uint64_t)ceil(done) + m->latency;
    if (t > m->recent_at) { /* requests may come slightly out of order: no decay back in time */
        m->recent_bytes *= exp(-(t - m->recent_at) / m->window);
        m->recent_at = t;
    }
    m->recent_bytes += bytes;
    /* The u/(1-u) term is the queueing a random stream meets; this channel's
    ** own queue (start - t) is queueing too: count the larger, not both. */
    double u = utilisation(m), queued = start - t;
    double queueing = m->load_queue * u / (1.0 - u);
    return (uint64_t)ceil(done + m->latency + m->load_linear * u + (queueing > queued ? queueing - queued : 0.0));
}

/* sim/bwqueue.c -- bandwidth queue with a latency (see bwqueue.h for the
** model and what it leaves out). Channel time is kept in fractional cycles
** so that sub-cycle transfers (a 32-byte sector at 1 kB/cycle) neither
** round up to a whole cycle each nor vanish: streaming achieves exactly
** the configured rate. Only the returned arrival cycle is rounded.        */
#include "sim/bwqueue.h"

#include <assert.h>
#include <math.h>

void bwqueue_init(BwQueue *q, double per_cycle, uint32_t latency)
{
    assert(per_cycle > 0.0);
    q->per_cycle = per_cycle;
    q->latency = latency;
    q->next_free = 0.0;
    q->units = 0;
    q->transfers = 0;
    q->load_linear = 0.0;
    q->load_queue = 0.0;
    q->recent_units = 0.0;
    q->recent_at = 0.0;
    q->window = 2.0 * (latency > 0 ? latency : 1);
    q->spread = 0.0;
    q->shifted = 0.0;
}

void bwqueue_set_spread(BwQueue *q, double spread)
{
    assert(spread >= 0.0 && spread <= 2.0 * q->latency);
    q->spread = spread;
}

void bwqueue_set_loaded_latency(BwQueue *q, double linear, double queue)
{
    assert(linear >= 0.0 && queue >= 0.0);
    q->load_linear = linear;
    q->load_queue = queue;
}

void bwqueue_shift(BwQueue *q, double cycles)
{
    q->next_free = q->next_free > cycles ? q->next_free - cycles : 0.0;
    q->recent_at -= cycles;
    q->shifted += cycles;
}

/* Utilisation over the last window: recent_units decays by e^(-dt/window),
** so a steady stream of r units/cycle settles at r * window. */
static double utilisation(const BwQueue *q)
{
    double u = q->recent_units / (q->window * q->per_cycle);
    return u < 0.95 ? u : 0.95;
}

double bwqueue_current_latency(const BwQueue *q)
{
    double u = utilisation(q);
    return q->latency + q->load_linear * u + q->load_queue * u / (1.0 - u);
}

/* recent_units brought up to cycle t, then `amount` added. */
static void note_recent(BwQueue *q, double t, uint32_t amount)
{
    if (t > q->recent_at) { /* requests may come slightly out of order: no decay back in time */
        q->recent_units *= exp(-(t - q->recent_at) / q->window);
        q->recent_at = t;
    }
    q->recent_units += amount;
}

void bwqueue_background(BwQueue *q, uint64_t now, uint32_t amount)
{
    q->units += amount;
    if (q->load_linear != 0.0 || q->load_queue != 0.0) note_recent(q, (double)now, amount);
}

double bwqueue_work_done(const BwQueue *q)
{
    double all = (double)q->units / q->per_cycle - q->shifted;
    return all > q->next_free ? all : q->next_free;
}

/* The transfer, its latency moved by `offset` cycles. */
static uint64_t transfer(BwQueue *q, uint64_t now, uint32_t amount, double offset)
{
    const double t = (double)now;
    const double start = q->next_free > t ? q->next_free : t; /* idle time is not banked */
    const double done = start + (double)amount / q->per_cycle;
    q->next_free = done;
    q->units += amount;
    q->transfers++;
    if (q->load_linear == 0.0 && q->load_queue == 0.0) return (uint64_t)ceil(done + q->latency + offset);
    note_recent(q, t, amount);
    /* The u/(1-u) term is the queueing a random stream meets; this channel's
    ** own queue (start - t) is queueing too: count the larger, not both. */
    double u = utilisation(q), queued = start - t;
    double queueing = q->load_queue * u / (1.0 - u);
    return (uint64_t)ceil(done + q->latency + offset + q->load_linear * u + (queueing > queued ? queueing - queued : 0.0));
}

uint64_t bwqueue_transfer(BwQueue *q, uint64_t now, uint32_t amount)
{
    return transfer(q, now, amount, 0.0);
}

uint64_t bwqueue_transfer_drawn(BwQueue *q, uint64_t now, uint32_t amount, double draw)
{
    assert(draw >= 0.0 && draw < 1.0);
    return transfer(q, now, amount, q->spread * (draw - 0.5));
}

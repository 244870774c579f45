/* sim/bwqueue.h -- a bandwidth queue: a server that moves a fixed amount per
** cycle, in order, with a latency after each transfer. The memory system
** has three: DRAM (bytes, loaded latency on), the L2's chip-wide byte
** bandwidth and the L2's request rate (one unit per line request). Timing
** unit: takes `now`, keeps no clock of its own.
**
** Model: one channel that moves `per_cycle` units (bytes, or requests) a
** cycle; transfers are served in the order they are asked for, each
** occupying the channel for amount / per_cycle cycles (fractions kept, so
** many small transfers add up to the configured rate exactly), and its data
** arrives a fixed latency after its transfer ends. An idle channel earns no
** credit: unused cycles are lost, as on real memory.
** Where the numbers come from: the preset (dram.bandwidth_gbs converted with
** clock_mhz, l2.bandwidth_bytes_per_clk, l2.requests_per_clk, lat.dram /
** lat.l2_hit).
** Loaded latency (DRAM only: the memory system turns it on for that queue
** alone): real memory answers later when it is busy (queues in the
** controllers and the network), well before the bandwidth is used up; on
** an H200 a pointer chase takes 687 cycles idle, 900 beside a stream at 46%
** of the peak and 1770 at 90%. So the latency is latency + linear * u +
** queue * u / (1 - u), where u is the channel's recent utilisation (units
** asked over the last ~2 latencies, as a fraction of the rate, capped at
** 0.95). The channel's own queue already delays a transfer when the asked
** amount exceeds the rate; the u / (1 - u) term only adds what that
** queue's wait falls short of it, so queueing is not counted twice.
** Both terms are 0 unless bwqueue_set_loaded_latency gives them.
** Spread (bwqueue_set_spread; DRAM only): the latency of one request is
** not the mean. The caller draws a number in [0, 1) per request (the same
** for all its transfers: its lines are adjacent and share a channel's
** state) and bwqueue_transfer_drawn moves that request's latency by
** `spread` x (draw - 1/2): what differs between requests at any load (open
** rows, banks, refresh), uniform and of mean 0. A block that waits for its
** slowest warp waits longer than the mean. On an H200 a lone load takes
** 524-892 cycles (p10-p90) at 15% of the bandwidth, a float4 one 564-988
** at 4% (validate/probes/latency_dist.cu). The spread's growth with load
** (1148-2828 at 78%) is not modelled: an exponential queueing term of the
** same mean made full-occupancy streams 12% slower than the H200.
** Left out: for DRAM, banks, rows, refresh, read/write turnaround, separate
** channels and address interleaving; for the L2, its slices.            */
#ifndef GPUSIM_SIM_BWQUEUE_H
#define GPUSIM_SIM_BWQUEUE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double   per_cycle;       /* rate: units (bytes, requests) per (SM) cycle, > 0 */
    uint32_t latency;         /* cycles from the end of a transfer to data back    */
    double   next_free;       /* cycle at which the channel finishes its queue     */
    uint64_t units;           /* units moved so far                                */
    uint64_t transfers;       /* transfers so far                                  */
    double   load_linear;     /* loaded latency: cycles added at utilisation 1 ... */
    double   load_queue;      /* ... and the u / (1 - u) term's cycles             */
    double   recent_units;    /* units asked, decayed with time constant `window`  */
    double   recent_at;       /* cycle recent_units was last brought up to date    */
    double   window;          /* cycles: 2 x latency                               */
    double   spread;          /* latency spread, cycles (uniform, mean 0); 0: none */
    double   shifted;         /* cycles bwqueue_shift took off the clock, in all   */
} BwQueue;

/* Initializes q (embedded; caller owns it) idle at cycle 0 with zero counters.
** per_cycle must be > 0 (asserted; the config range guarantees it). */
void bwqueue_init(BwQueue *q, double per_cycle, uint32_t latency);

/* Turns on the loaded latency (bwqueue.h, top): cycles added at utilisation
** u are linear * u + queue * u / (1 - u). Both >= 0; zero turns it off. */
void bwqueue_set_loaded_latency(BwQueue *q, double linear, double queue);

/* Turns on the spread (bwqueue.h, top): `spread` cycles wide, uniform,
** mean 0 (>= 0, at most twice the latency); zero turns it off. */
void bwqueue_set_spread(BwQueue *q, double spread);

/* Restarts q's clock: cycle `cycles` becomes cycle 0, for the next launch
** of a sequence, which counts its cycles from its own start. What is still
** queued or recent stays so, the counters too. */
void bwqueue_shift(BwQueue *q, double cycles);

/* The latency a transfer asked now would see (for tests and reports). */
double bwqueue_current_latency(const BwQueue *q);

/* A transfer of `amount` units asked at cycle `now` starts when the channel
** is free (max(now, next_free)), occupies it for amount / per_cycle cycles,
** and its data is back at start + transfer + latency (the loaded latency
** when it is on, from the utilisation including this transfer). Returns that
** cycle, rounded up to a whole cycle. Calls are expected in non-decreasing
** `now` (the simulator's event order); an earlier `now` simply queues behind
** the channel. Deterministic; O(1). */
uint64_t bwqueue_transfer(BwQueue *q, uint64_t now, uint32_t amount);

/* Background traffic: `amount` units that take the channel's bandwidth but
** no one waits for and that do not queue ahead of transfers (a DRAM
** controller buffers writes and drains them between reads). They count in
** the utilisation that sets the loaded latency, and in bwqueue_work_done.
** Deterministic; O(1). */
void bwqueue_background(BwQueue *q, uint64_t now, uint32_t amount);

/* The earliest cycle by which the channel can have moved every unit asked
** of it so far, background ones included, from cycle 0 (of the first
** launch: before any bwqueue_shift): max(next_free, units / per_cycle),
** on the current clock. */
double bwqueue_work_done(const BwQueue *q);

/* bwqueue_transfer for one transfer of a request whose draw (uniform in
** [0, 1)) is `draw`: its latency moved by spread x (draw - 1/2). With the
** spread off, the same as bwqueue_transfer. Deterministic; O(1). */
uint64_t bwqueue_transfer_drawn(BwQueue *q, uint64_t now, uint32_t amount, double draw);

#ifdef __cplusplus
}
#endif

#endif

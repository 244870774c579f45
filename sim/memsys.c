/* sim/memsys.c -- see memsys.h.
** Miss-status registers: each SM may have at most l1.max_inflight sectors
** outstanding below L1. A sector that finds none free waits for the earliest
** to be released (a min-heap of release cycles). This is where Little's law
** comes from: bytes in flight per SM are bounded, so latency x bandwidth
** must be covered by enough independent requests.                         */
#include "sim/memsys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/heap.h"
#include "sim/cache.h"
#include "sim/bwqueue.h"

/* Miss registers of one SM: the release cycles of the busy ones (keys of
** a min-heap; ids unused), at most cap of them. */
typedef Heap Mshr;

struct MemSys {
    uint32_t nsm;
    Cache  **l1;
    Mshr    *mshr;
    Cache   *l2;
    BwQueue  l2_queue;    /* L2 bandwidth in bytes; its latency is the L2 hit latency */
    BwQueue  l2_requests; /* L2 request rate: one unit per line request, no latency */
    bool     limit_requests;
    BwQueue  dram;        /* DRAM bandwidth in bytes; its latency (loaded) is DRAM's */
    uint64_t dram_write_bytes;
    uint32_t lat_l1_hit, lat_l2_hit, lat_atomic;
    uint64_t base_l2_accesses, base_l2_hits; /* counters at the current launch's start */
    uint64_t base_dram_units, base_dram_writes;
    uint32_t chunk_sectors; /* sectors one DRAM access moves (dram.access_bytes / 32) */
};

/* Cycle at which a sector asked at `t` gets a miss register. */
static uint64_t mshr_acquire(Mshr *h, uint64_t t)
{
    while (h->n && h->v[0].key <= t) heap_pop(h); /* released already */
    if (h->n < h->cap) return t;
    uint64_t free_at = heap_pop(h).key;
    return free_at > t ? free_at : t;
}

MemSys *memsys_create(const GpuConfig *c, uint32_t nsm, uint64_t l1_bytes, Diag *d)
{
    MemSys *m = calloc(1, sizeof *m);
    if (!m) goto oom;
    m->nsm = nsm;
    m->l1 = calloc(nsm, sizeof *m->l1);
    m->mshr = calloc(nsm, sizeof *m->mshr);
    if (!m->l1 || !m->mshr) goto oom;
    for (uint32_t i = 0; i < nsm; i++) {
        uint64_t set_bytes = (uint64_t)SECTOR_LINE_BYTES * c->l1_assoc;
        m->l1[i] = cache_create(l1_bytes / set_bytes * set_bytes, c->l1_assoc, d);
        if (!m->l1[i]) goto fail;
        cache_set_hashed(m->l1[i], true);
        if (!heap_reserve(&m->mshr[i], c->l1_max_inflight)) goto oom;
        m->mshr[i].cap = c->l1_max_inflight; /* the limit, not what heap_reserve rounded to */
    }
    m->l2 = cache_create(c->l2_size, c->l2_assoc, d);
    if (!m->l2) goto fail;
    cache_set_hashed(m->l2, true);
    m->chunk_sectors = c->dram_access_bytes / SECTOR_BYTES;
    bwqueue_init(&m->l2_queue, c->l2_bytes_per_clk, c->lat_l2_hit);
    m->limit_requests = c->l2_requests_per_clk > 0;
    bwqueue_init(&m->l2_requests, m->limit_requests ? c->l2_requests_per_clk : 1.0, 0);
    bwqueue_init(&m->dram, config_dram_bytes_per_cycle(c), c->lat_dram);
    bwqueue_set_loaded_latency(&m->dram, c->dram_loaded_linear, c->dram_loaded_queue);
    m->lat_l1_hit = c->lat_l1_hit;
    m->lat_atomic = c->lat_atomic;
    m->lat_l2_hit = c->lat_l2_hit;
    return m;
oom:
    diag_set(d, NULL, 0, 0, "out of host memory for the memory system");
fail:
    memsys_destroy(m);
    return NULL;
}

void memsys_destroy(MemSys *m)
{
    if (!m) return;
    for (uint32_t i = 0; m->l1 && i < m->nsm; i++) cache_destroy(m->l1[i]);
    for (uint32_t i = 0; m->mshr && i < m->nsm; i++) heap_free(&m->mshr[i]);
    free(m->l1);
    free(m->mshr);
    cache_destroy(m->l2);
    free(m);
}

bool memsys_next_launch(MemSys *m, const GpuConfig *c, uint32_t nsm, uint64_t l1_bytes, uint64_t prev_end, Diag *d)
{
    uint64_t set_bytes = (uint64_t)SECTOR_LINE_BYTES * c->l1_assoc;
    /* this launch may use more SMs than the last: L1s and miss registers for each */
    if (nsm > m->nsm) {
        Cache **l1 = realloc(m->l1, nsm * sizeof *l1);
        if (l1) m->l1 = l1;
        Mshr *mshr = l1 ? realloc(m->mshr, nsm * sizeof *mshr) : NULL;
        if (mshr) m->mshr = mshr;
        if (!l1 || !mshr) {
            diag_set(d, NULL, 0, 0, "out of host memory for the memory system");
            return false;
        }
        for (uint32_t i = m->nsm; i < nsm; i++) {
            m->l1[i] = NULL;
            m->mshr[i] = (Mshr){ 0 };
            if (!heap_reserve(&m->mshr[i], c->l1_max_inflight)) {
                m->nsm = i;
                diag_set(d, NULL, 0, 0, "out of host memory for the memory system");
                return false;
            }
            m->mshr[i].cap = c->l1_max_inflight;
        }
        m->nsm = nsm;
    }
    for (uint32_t i = 0; i < m->nsm; i++) {
        cache_destroy(m->l1[i]);
        if (!(m->l1[i] = cache_create(l1_bytes / set_bytes * set_bytes, c->l1_assoc, d))) return false;
        cache_set_hashed(m->l1[i], true);
        m->mshr[i].n = 0; /* every miss returned before the previous launch ended */
    }
    bwqueue_shift(&m->l2_queue, (double)prev_end);
    bwqueue_shift(&m->l2_requests, (double)prev_end);
    bwqueue_shift(&m->dram, (double)prev_end);
    CacheStats st;
    cache_stats(m->l2, &st);
    m->base_l2_accesses = st.sector_accesses;
    m->base_l2_hits = st.sector_hits;
    m->base_dram_units = m->dram.units;
    m->base_dram_writes = m->dram_write_bytes;
    return true;
}

/* Cycle at which a line request asked at t is accepted by the L2: the L2
** takes l2.requests_per_clk requests per cycle across the chip, whatever
** their size (a 4-byte scattered store costs a request as a full line does). */
static uint64_t l2_accept(MemSys *m, uint64_t t)
{
    if (!m->limit_requests) return t;
    double begin = m->l2_requests.next_free > (double)t ? m->l2_requests.next_free : (double)t;
    bwqueue_transfer(&m->l2_requests, t, 1); /* takes its 1 / rate of a cycle */
    return (uint64_t)ceil(begin);
}

/* Dirty sectors an L2 access evicted go to DRAM (nobody waits). */
static void write_back(MemSys *m, uint64_t t, unsigned sectors)
{
    if (!sectors) return;
    bwqueue_transfer(&m->dram, t, sectors * SECTOR_BYTES);
    m->dram_write_bytes += (uint64_t)sectors * SECTOR_BYTES;
}

/* The DRAM chunks (dram.access_bytes, aligned) that hold `sectors`. */
static uint8_t chunks_of(const MemSys *m, uint8_t sectors)
{
    uint8_t out = 0, k = (uint8_t)m->chunk_sectors, ones = (uint8_t)((1u << k) - 1);
    for (uint8_t s = 0; s < SECTORS_PER_LINE; s += k)
        if (sectors & (ones << s)) out |= (uint8_t)(ones << s);
    return out;
}

/* Sectors `missed` of a line missed L2: DRAM moves whole chunks, so the
** other sectors of each chunk arrive too and are kept in L2. Returns the
** completion of each missed sector's chunk in done[] (indexed by sector). */
static void fetch_from_dram(MemSys *m, uint64_t t, uint64_t line, uint8_t missed, uint64_t done[SECTORS_PER_LINE])
{
    uint8_t k = (uint8_t)m->chunk_sectors, ones = (uint8_t)((1u << k) - 1);
    uint8_t extra = (uint8_t)(chunks_of(m, missed) & ~missed);
    if (extra) {
        unsigned evicted;
        cache_fill(m->l2, line, extra, &evicted);
        write_back(m, t, evicted);
    }
    for (uint8_t s = 0; s < SECTORS_PER_LINE; s += k)
        if (missed & (ones << s)) {
            uint64_t back = bwqueue_transfer(&m->dram, t, m->chunk_sectors * SECTOR_BYTES);
            for (uint8_t j = s; j < s + k; j++) done[j] = back;
        }
}

/* Sectors of one line that missed L1: through the MSHRs, L2 and maybe DRAM. */
static uint64_t fetch_below_l1(MemSys *m, uint32_t sm, uint64_t start, uint64_t line, uint8_t sectors)
{
    start = l2_accept(m, start);
    unsigned evicted;
    uint8_t l2_hits = cache_access(m->l2, line, sectors, CACHE_READ, &evicted);
    write_back(m, start, evicted);
    uint8_t missed = (uint8_t)(sectors & ~l2_hits);
    uint64_t from_dram[SECTORS_PER_LINE] = { 0 };
    if (missed) fetch_from_dram(m, mshr_acquire(&m->mshr[sm], start), line, missed, from_dram);
    uint64_t done = start;
    for (int s = 0; s < SECTORS_PER_LINE; s++) {
        if (!(sectors >> s & 1)) continue;
        uint64_t t = mshr_acquire(&m->mshr[sm], start);
        uint64_t back = bwqueue_transfer(&m->l2_queue, t, SECTOR_BYTES);
        if ((missed >> s & 1) && from_dram[s] > back) back = from_dram[s];
        heap_push(&m->mshr[sm], back, 0);
        if (back > done) done = back;
    }
    return done;
}

uint64_t memsys_load(MemSys *m, uint32_t sm, uint64_t start, const CoalesceResult *r)
{
    uint64_t done = start;
    for (uint32_t i = 0; i < r->nlines; i++) {
        uint8_t want = r->sector_mask[i];
        uint8_t hit = cache_access(m->l1[sm], r->line_addr[i], want, CACHE_READ, NULL); /* L1 is never dirty */
        uint64_t t = hit ? start + m->lat_l1_hit : start;
        if (want & ~hit) {
            uint64_t below = fetch_below_l1(m, sm, start, r->line_addr[i], (uint8_t)(want & ~hit));
            if (below > t) t = below;
        }
        if (t > done) done = t;
    }
    return done;
}

void memsys_store(MemSys *m, uint32_t sm, uint64_t start, const CoalesceResult *r)
{
    for (uint32_t i = 0; i < r->nlines; i++) {
        uint8_t sectors = r->sector_mask[i];
        cache_access(m->l1[sm], r->line_addr[i], sectors, CACHE_WRITE_THROUGH_NOALLOC, NULL);
        uint64_t at = l2_accept(m, start);
        unsigned evicted;
        uint8_t hits = cache_access(m->l2, r->line_addr[i], sectors, CACHE_WRITE_BACK_ALLOC, &evicted);
        write_back(m, at, evicted);
        bwqueue_transfer(&m->l2_queue, at, bits_popcount4(sectors) * SECTOR_BYTES);
        /* A sector written only in part that L2 does not hold must be read
        ** first: the bytes not written have to come from DRAM. */
        uint8_t partial_miss = (uint8_t)(sectors & ~hits & ~r->full_mask[i]);
        if (partial_miss) {
            uint64_t ignored[SECTORS_PER_LINE];
            fetch_from_dram(m, at, r->line_addr[i], partial_miss, ignored);
        }
    }
}

uint64_t memsys_atomic(MemSys *m, uint32_t sm, uint64_t start, const CoalesceResult *r)
{
    (void)sm;
    uint32_t serial = r->max_same_address;
    uint64_t done = start;
    for (uint32_t i = 0; i < r->nlines; i++) {
        uint8_t sectors = r->sector_mask[i];
        uint64_t at = l2_accept(m, start);
        unsigned evicted;
        uint8_t hit = cache_access(m->l2, r->line_addr[i], sectors, CACHE_WRITE_BACK_ALLOC, &evicted);
        write_back(m, at, evicted);
        uint64_t t = bwqueue_transfer(&m->l2_queue, at, bits_popcount4(sectors) * SECTOR_BYTES);
        if (sectors & ~hit) {
            uint64_t from_dram[SECTORS_PER_LINE] = { 0 };
            fetch_from_dram(m, at, r->line_addr[i], (uint8_t)(sectors & ~hit), from_dram);
            for (int s = 0; s < SECTORS_PER_LINE; s++)
                if (from_dram[s] > t) t = from_dram[s];
        }
        /* the L2 queue already charged the hit latency; an atomic takes lat.atomic */
        t += (m->lat_atomic > m->lat_l2_hit ? m->lat_atomic - m->lat_l2_hit : 0) + (serial ? serial - 1 : 0);
        if (t > done) done = t;
    }
    return done;
}

void memsys_flush(MemSys *m, uint64_t now)
{
    uint64_t sectors = cache_flush(m->l2);
    if (!sectors) return;
    bwqueue_transfer(&m->dram, now, (uint32_t)(sectors * SECTOR_BYTES));
    m->dram_write_bytes += sectors * SECTOR_BYTES;
}

uint64_t memsys_drain_cycle(const MemSys *m)
{
    /* Traffic issued during the kernel (stores into L2, dirty evictions to
    ** DRAM) and the flush at its end must finish before it does. */
    double last = m->l2_queue.next_free > m->dram.next_free ? m->l2_queue.next_free : m->dram.next_free;
    if (m->l2_requests.next_free > last) last = m->l2_requests.next_free;
    return (uint64_t)ceil(last);
}

void memsys_stats(const MemSys *m, KernelStats *s)
{
    CacheStats st;
    for (uint32_t i = 0; i < m->nsm; i++) {
        cache_stats(m->l1[i], &st);
        s->l1_sector_accesses += st.sector_accesses;
        s->l1_sector_hits += st.sector_hits;
    }
    cache_stats(m->l2, &st);
    s->l2_sector_accesses += st.sector_accesses - m->base_l2_accesses;
    s->l2_sector_hits += st.sector_hits - m->base_l2_hits;
    uint64_t writes = m->dram_write_bytes - m->base_dram_writes;
    s->dram_write_bytes += writes;
    s->dram_read_bytes += m->dram.units - m->base_dram_units - writes;
}

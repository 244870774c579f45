/* sim/memsys.c -- see memsys.h.
** Miss-status registers: each SM may have at most l1.max_inflight sectors
** outstanding below L1. A sector that finds none free waits for the earliest
** to be released (the release cycles, kept sorted). This is where Little's law
** comes from: bytes in flight per SM are bounded, so latency x bandwidth
** must be covered by enough independent requests.                         */
#include "sim/memsys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "sim/cache.h"
#include "sim/bwqueue.h"

/* Miss registers of one SM: the release cycles of the busy ones, at most
** cap of them, sorted in v[head..tail) of a buffer of 2 cap. Releases and
** the earliest come off the front; a new one goes in from the back, where
** it nearly always belongs (a sector asked later is mostly back later), so
** an acquire costs a few steps where a heap of cap took log2(cap) swaps. */
typedef struct {
    uint64_t *v;
    uint32_t  head, tail, cap;
} Mshr;

static bool mshr_init(Mshr *h, uint32_t cap)
{
    *h = (Mshr){ .v = malloc(2 * (size_t)cap * sizeof *h->v), .cap = cap }; /* cap >= 1 (config.def) */
    return h->v != NULL;
}

static void mshr_insert(Mshr *h, uint64_t release)
{
    if (h->tail == 2 * h->cap) { /* the buffer's end: slide the window to its start */
        memmove(h->v, h->v + h->head, (h->tail - h->head) * sizeof *h->v);
        h->tail -= h->head;
        h->head = 0;
    }
    uint32_t i = h->tail;
    while (i > h->head && h->v[i - 1] > release) i--;
    memmove(h->v + i + 1, h->v + i, (h->tail - i) * sizeof *h->v);
    h->v[i] = release;
    h->tail++;
}

/* The L2 slices' atomic units, by line: when the last atomic operation
** asked of a line is done. Open addressing over ATOM_SLOTS, ATOM_PROBES
** tries; a slot whose line is idle is reused, and when all of them are busy
** the one free soonest is (its line's ordering is then forgotten: only
** more than ATOM_PROBES lines busy at once in one neighbourhood do that). */
#define ATOM_SLOTS  4096
#define ATOM_PROBES 8
typedef struct {
    uint64_t line;    /* line number + 1; 0 = empty */
    double   free_at;
} AtomLine;

struct MemSys {
    uint32_t nsm;
    Cache  **l1;
    Mshr    *mshr;
    Cache  **l2;          /* l2_parts partitions (l2.partitions), each l2.size / l2_parts */
    uint32_t l2_parts;
    BwQueue  l2_queue;    /* L2 read bandwidth in bytes; its latency is the L2 hit latency */
    BwQueue  l2_write;    /* L2 write bandwidth in bytes (stores), when it has its own */
    BwQueue  l2_requests; /* L2 request rate: one unit per line request, no latency */
    BwQueue  l2_load_requests; /* ... of loads, when they have their own */
    bool     limit_requests, own_load_rate, own_write_bw;
    BwQueue  dram;        /* DRAM bandwidth in bytes; its latency (loaded) is DRAM's */
    uint64_t dram_write_bytes;
    uint32_t lat_l1_hit, lat_l2_hit, lat_l2_far, lat_atomic;
    uint64_t base_l2_accesses, base_l2_hits; /* counters at the current launch's start */
    uint64_t base_dram_units, base_dram_writes;
    uint32_t chunk_sectors; /* sectors one DRAM access moves (dram.access_bytes / 32) */
    double   atomic_interval, atomic_fadd_interval;
    AtomLine *atom;          /* ATOM_SLOTS; NULL when atomics are not serialised */
    uint64_t atomic_wait;    /* cycles atomics waited for others on their line (memsys_stats) */
    uint64_t atomic_done;    /* when the last atomic issued so far is applied */
    uint64_t draw_count;     /* next_draws' state */
};

/* The draw of one request for the DRAM's latency spread (bwqueue.h). */
typedef double Draws;

/* The next request's draw: a counter through splitmix64, so a run is
** reproducible and does not depend on the host. */
static Draws next_draws(MemSys *m)
{
    uint64_t x = (m->draw_count += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return (double)(x >> 11) / 9007199254740992.0; /* 53 bits: [0, 1) */
}

/* Cycle at which a sector asked at `t` gets a miss register. */
static uint64_t mshr_acquire(Mshr *h, uint64_t t)
{
    while (h->head < h->tail && h->v[h->head] <= t) h->head++; /* released already */
    if (h->tail - h->head < h->cap) return t;
    return h->v[h->head++]; /* later than t: the ones up to t are gone */
}

/* The partition SM sm reads through: SMs go to the partitions two at a
** time (a TPC's pair together), so each partition serves as many SMs. */
static Cache *near_part(const MemSys *m, uint32_t sm)
{
    if (m->l2_parts == 1) return m->l2[0]; /* no division on every miss of one L2 */
    return m->l2[(sm / 2) % m->l2_parts];
}

/* The partition a line lives in (its DRAM is behind it): a hash of the
** line number, so that any stride spreads over the partitions. A full
** mixer (splitmix64's), so that the choice does not follow the set index:
** each partition's lines must spread over all of its sets. */
static Cache *home_part(const MemSys *m, uint64_t line_addr)
{
    if (m->l2_parts == 1) return m->l2[0];
    uint64_t x = line_addr / SECTOR_LINE_BYTES;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return m->l2[(uint32_t)(x % m->l2_parts)];
}

/* The L2's sector lookups and hits so far, every partition's (a read that
** misses its SM's partition and goes to the line's home is looked up twice,
** as Nsight Compute counts it: lts__t_sectors, tex and ltcfabric). */
static void l2_counts(const MemSys *m, MemSectorCounts *out)
{
    out->l2_accesses = out->l2_hits = 0;
    for (uint32_t p = 0; p < m->l2_parts; p++) {
        CacheStats st;
        cache_stats(m->l2[p], &st);
        out->l2_accesses += st.sector_accesses;
        out->l2_hits += st.sector_hits;
    }
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
        if (!mshr_init(&m->mshr[i], c->l1_max_inflight)) goto oom;
    }
    m->l2_parts = c->l2_partitions ? c->l2_partitions : 1;
    if (!(m->l2 = calloc(m->l2_parts, sizeof *m->l2))) goto oom;
    for (uint32_t p = 0; p < m->l2_parts; p++) {
        if (!(m->l2[p] = cache_create(c->l2_size / m->l2_parts, c->l2_assoc, d))) goto fail;
        cache_set_hashed(m->l2[p], true);
    }
    m->chunk_sectors = c->dram_access_bytes / SECTOR_BYTES;
    bwqueue_init(&m->l2_queue, c->l2_bytes_per_clk, c->lat_l2_hit);
    m->limit_requests = c->l2_requests_per_clk > 0;
    bwqueue_init(&m->l2_requests, m->limit_requests ? c->l2_requests_per_clk : 1.0, 0);
    m->own_load_rate = m->limit_requests && c->l2_load_requests_per_clk > 0;
    bwqueue_init(&m->l2_load_requests, m->own_load_rate ? c->l2_load_requests_per_clk : 1.0, 0);
    m->own_write_bw = c->l2_write_bytes_per_clk > 0;
    bwqueue_init(&m->l2_write, m->own_write_bw ? c->l2_write_bytes_per_clk : 1.0, 0);
    bwqueue_init(&m->dram, config_dram_bytes_per_cycle(c), c->lat_dram);
    bwqueue_set_loaded_latency(&m->dram, c->dram_loaded_linear, c->dram_loaded_queue);
    bwqueue_set_spread(&m->dram, c->dram_latency_spread);
    m->lat_l1_hit = c->lat_l1_hit;
    m->lat_atomic = c->lat_atomic;
    m->lat_l2_hit = c->lat_l2_hit;
    m->lat_l2_far = c->lat_l2_far;
    m->atomic_interval = c->l2_atomic_interval;
    m->atomic_fadd_interval = c->l2_atomic_fadd_interval > 0 ? c->l2_atomic_fadd_interval : c->l2_atomic_interval;
    if (m->atomic_interval > 0 && !(m->atom = calloc(ATOM_SLOTS, sizeof *m->atom))) goto oom;
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
    for (uint32_t i = 0; m->mshr && i < m->nsm; i++) free(m->mshr[i].v);
    free(m->l1);
    free(m->mshr);
    for (uint32_t p = 0; m->l2 && p < m->l2_parts; p++) cache_destroy(m->l2[p]);
    free(m->l2);
    free(m->atom);
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
            if (!mshr_init(&m->mshr[i], c->l1_max_inflight)) {
                m->nsm = i;
                diag_set(d, NULL, 0, 0, "out of host memory for the memory system");
                return false;
            }
        }
        m->nsm = nsm;
    }
    for (uint32_t i = 0; i < m->nsm; i++) {
        cache_destroy(m->l1[i]);
        if (!(m->l1[i] = cache_create(l1_bytes / set_bytes * set_bytes, c->l1_assoc, d))) return false;
        cache_set_hashed(m->l1[i], true);
        m->mshr[i].head = m->mshr[i].tail = 0; /* every miss returned before the previous launch ended */
    }
    bwqueue_shift(&m->l2_queue, (double)prev_end);
    bwqueue_shift(&m->l2_requests, (double)prev_end);
    bwqueue_shift(&m->l2_load_requests, (double)prev_end);
    bwqueue_shift(&m->l2_write, (double)prev_end);
    bwqueue_shift(&m->dram, (double)prev_end);
    MemSectorCounts l2;
    l2_counts(m, &l2);
    m->base_l2_accesses = l2.l2_accesses;
    m->base_l2_hits = l2.l2_hits;
    m->base_dram_units = m->dram.units;
    m->base_dram_writes = m->dram_write_bytes;
    /* the lines' atomic units keep their order, on the new clock */
    for (uint32_t i = 0; m->atom && i < ATOM_SLOTS; i++)
        m->atom[i].free_at = m->atom[i].free_at > (double)prev_end ? m->atom[i].free_at - (double)prev_end : 0.0;
    m->atomic_done = m->atomic_done > prev_end ? m->atomic_done - prev_end : 0;
    m->atomic_wait = 0;
    return true;
}

/* Cycle at which n line requests asked at t are accepted by the L2: the
** L2 takes l2.requests_per_clk store (and atomic) requests per cycle across
** the chip, whatever their size (a 4-byte scattered store costs a request
** as a full line does), and l2.load_requests_per_clk loads (the H200 takes
** 98 lines a cycle of scattered loads, 34 of scattered stores). */
static uint64_t l2_accept_n(MemSys *m, uint64_t t, uint32_t n, bool load)
{
    if (!m->limit_requests) return t;
    BwQueue *q = load && m->own_load_rate ? &m->l2_load_requests : &m->l2_requests;
    double begin = q->next_free > (double)t ? q->next_free : (double)t;
    bwqueue_transfer(q, t, n); /* takes its n / rate of a cycle */
    return (uint64_t)ceil(begin);
}

/* The atomic unit of the line at line_addr (see AtomLine). */
static AtomLine *atom_line(MemSys *m, uint64_t line_addr, double now)
{
    uint64_t key = line_addr / SECTOR_LINE_BYTES + 1;
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 52) & (ATOM_SLOTS - 1);
    AtomLine *best = NULL;
    for (uint32_t k = 0; k < ATOM_PROBES; k++) {
        AtomLine *a = &m->atom[(h + k) & (ATOM_SLOTS - 1)];
        if (a->line == key) return a;
        if (!best || (best->free_at > now && a->free_at < best->free_at)) best = a;
    }
    best->line = key;
    if (best->free_at > now) best->free_at = now; /* a busy line's order forgotten */
    return best;
}

/* Sectors a store or an atomic made dirty in L2 owe DRAM their write-back,
** charged now (nobody waits). Back to back, the lines one launch leaves
** dirty are written back during the next, as this launch's reads evict
** the previous one's: in that steady state every sector made dirty costs
** DRAM time while the launch runs, and none at its end. So neither an
** eviction nor memsys_flush charges a dirty sector again. The DRAM
** buffers writes and drains them between reads (bwqueue_background): a
** read does not wait behind them, but sees their load, and the launch ends
** no sooner than the DRAM has moved them. On an H200 a
** kernel that writes 64 MB in place takes the time of its blocks
** (validate/probes/residency.cu), not that and the write-back after. */
static void owe_write_back(MemSys *m, uint64_t t, uint8_t sectors)
{
    if (!sectors) return;
    uint32_t bytes = bits_popcount(sectors) * SECTOR_BYTES;
    bwqueue_background(&m->dram, t, bytes); /* written between reads: none waits behind it */
    m->dram_write_bytes += bytes;
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
static void fetch_from_dram(MemSys *m, uint64_t t, uint64_t line, uint8_t missed, Draws dr,
                            uint64_t done[SECTORS_PER_LINE])
{
    uint8_t k = (uint8_t)m->chunk_sectors, ones = (uint8_t)((1u << k) - 1);
    uint8_t extra = (uint8_t)(chunks_of(m, missed) & ~missed);
    if (extra) cache_fill(home_part(m, line), line, extra, NULL); /* an evicted dirty line was charged already */
    for (uint8_t s = 0; s < SECTORS_PER_LINE; s += k)
        if (missed & (ones << s)) {
            uint64_t back = bwqueue_transfer_drawn(&m->dram, t, m->chunk_sectors * SECTOR_BYTES, dr);
            for (uint8_t j = s; j < s + k; j++) done[j] = back;
        }
}

/* Sectors of one line that missed L1: through the MSHRs, L2 and maybe DRAM.
** With partitions, the SM's own is asked first; what it misses of a line
** that lives in another is asked there, and both keep it (the near one a
** copy). A hit there costs lat.l2_far more than one in the SM's own. */
static uint64_t fetch_below_l1(MemSys *m, uint32_t sm, uint64_t start, uint64_t line, uint8_t sectors, Draws dr)
{
    start = l2_accept_n(m, start, 1, true);
    Cache *near = near_part(m, sm), *home = home_part(m, line);
    uint8_t l2_hits = cache_access(near, line, sectors, CACHE_READ, NULL);
    uint8_t missed = (uint8_t)(sectors & ~l2_hits), far_hits = 0;
    if (missed && home != near) {
        far_hits = cache_access(home, line, missed, CACHE_READ, NULL);
        missed &= (uint8_t)~far_hits;
    }
    uint64_t from_dram[SECTORS_PER_LINE] = { 0 };
    if (missed) fetch_from_dram(m, mshr_acquire(&m->mshr[sm], start), line, missed, dr, from_dram);
    uint64_t done = start;
    for (int s = 0; s < SECTORS_PER_LINE; s++) {
        if (!(sectors >> s & 1)) continue;
        uint64_t t = mshr_acquire(&m->mshr[sm], start);
        uint64_t back = bwqueue_transfer(&m->l2_queue, t, SECTOR_BYTES);
        if (far_hits >> s & 1) back += m->lat_l2_far;
        if ((missed >> s & 1) && from_dram[s] > back) back = from_dram[s];
        mshr_insert(&m->mshr[sm], back);
        if (back > done) done = back;
    }
    return done;
}

uint64_t memsys_load(MemSys *m, uint32_t sm, uint64_t start, const CoalesceResult *r, bool l2_only)
{
    uint64_t done = start;
    Draws dr = 0;
    bool drawn = false; /* one for the whole request, drawn at its first miss */
    for (uint32_t i = 0; i < r->nlines; i++) {
        uint8_t want = r->sector_mask[i];
        uint8_t hit = l2_only ? 0 : cache_access(m->l1[sm], r->line_addr[i], want, CACHE_READ, NULL); /* L1 is never dirty */
        uint64_t *ready = l2_only ? NULL : cache_ready_slot(m->l1[sm]); /* the line's fill, if it is on its way */
        uint64_t t = hit ? start + m->lat_l1_hit : start;
        if (hit && ready && *ready > t) t = *ready;
        if (want & ~hit) {
            if (!drawn) dr = next_draws(m), drawn = true;
            uint64_t below = fetch_below_l1(m, sm, start, r->line_addr[i], (uint8_t)(want & ~hit), dr);
            if (below > t) t = below;
            if (ready && below > *ready) *ready = below;
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
        uint64_t at = l2_accept_n(m, start, 1, false);
        /* written at the line's home; a copy in the SM's own partition is updated */
        Cache *near = near_part(m, sm), *home = home_part(m, r->line_addr[i]);
        if (near != home) cache_access(near, r->line_addr[i], sectors, CACHE_WRITE_THROUGH_NOALLOC, NULL);
        uint8_t dirtied;
        uint8_t hits = cache_write(home, r->line_addr[i], sectors, NULL, &dirtied);
        owe_write_back(m, at, dirtied);
        bwqueue_transfer(m->own_write_bw ? &m->l2_write : &m->l2_queue, at, bits_popcount4(sectors) * SECTOR_BYTES);
        /* A sector written only in part that L2 does not hold must be read
        ** first: the bytes not written have to come from DRAM. */
        uint8_t partial_miss = (uint8_t)(sectors & ~hits & ~r->full_mask[i]);
        if (partial_miss) {
            uint64_t ignored[SECTORS_PER_LINE];
            fetch_from_dram(m, at, r->line_addr[i], partial_miss, next_draws(m), ignored);
        }
    }
}

uint64_t memsys_atomic(MemSys *m, uint32_t sm, uint64_t start, const CoalesceResult *r, bool fadd)
{
    (void)sm;
    uint64_t done = start;
    for (uint32_t i = 0; i < r->nlines; i++) {
        uint8_t sectors = r->sector_mask[i];
        /* the slice's ALU works a 32-byte sector at a time: a request each */
        uint64_t at = l2_accept_n(m, start, bits_popcount4(sectors), false);
        uint8_t dirtied;
        uint8_t hit = cache_write(home_part(m, r->line_addr[i]), r->line_addr[i], sectors, NULL, &dirtied);
        owe_write_back(m, at, dirtied);
        /* `ready`: the line is at its slice (the L2 queue adds the hit latency) */
        uint64_t t = bwqueue_transfer(&m->l2_queue, at, bits_popcount4(sectors) * SECTOR_BYTES);
        double ready = (double)(t - m->lat_l2_hit);
        if (sectors & ~hit) {
            uint64_t from_dram[SECTORS_PER_LINE] = { 0 };
            fetch_from_dram(m, at, r->line_addr[i], (uint8_t)(sectors & ~hit), next_draws(m), from_dram);
            for (int s = 0; s < SECTORS_PER_LINE; s++)
                if ((double)from_dram[s] - m->lat_l2_hit > ready) ready = (double)from_dram[s] - m->lat_l2_hit;
        }
        /* The slice owning the line applies its lanes one after another (it
        ** holds the line for each read-modify-write); FP32 adds on one address
        ** each wait for the previous sum. Lines are independent. */
        double begin = ready, last_op = 0;
        if (m->atom) {
            AtomLine *a = atom_line(m, r->line_addr[i], ready);
            if (a->free_at > begin) begin = a->free_at;
            double per_op = fadd ? m->atomic_fadd_interval : m->atomic_interval;
            double busy = r->atomic_lanes[i] * m->atomic_interval;
            if (r->atomic_same[i] * per_op > busy) busy = r->atomic_same[i] * per_op;
            a->free_at = begin + busy;
            last_op = busy - per_op;
            m->atomic_wait += (uint64_t)ceil(begin - ready + last_op);
        }
        uint64_t back = (uint64_t)ceil(begin + last_op) + m->lat_atomic;
        if (back > done) done = back;
        if (back > m->atomic_done) m->atomic_done = back;
    }
    return done;
}

void memsys_flush(MemSys *m)
{
    for (uint32_t p = 0; p < m->l2_parts; p++)
        cache_flush(m->l2[p]); /* their write-back was charged when they became dirty */
}

uint64_t memsys_drain_cycle(const MemSys *m)
{
    /* Traffic issued during the kernel (stores into L2, the write-back owed
    ** by every sector made dirty) must finish before it does. */
    double last = bwqueue_work_done(&m->dram);
    if (m->l2_queue.next_free > last) last = m->l2_queue.next_free;
    if (m->l2_requests.next_free > last) last = m->l2_requests.next_free;
    if (m->l2_load_requests.next_free > last) last = m->l2_load_requests.next_free;
    if (m->l2_write.next_free > last) last = m->l2_write.next_free;
    uint64_t end = (uint64_t)ceil(last);
    return m->atomic_done > end ? m->atomic_done : end; /* and every atomic has been applied */
}

void memsys_sector_counts(const MemSys *m, uint32_t sm, MemSectorCounts *out)
{
    CacheStats st;
    cache_stats(m->l1[sm], &st);
    out->l1_accesses = st.sector_accesses;
    out->l1_hits = st.sector_hits;
    l2_counts(m, out); /* sets the l2 fields only */
}

void memsys_stats(const MemSys *m, KernelStats *s)
{
    CacheStats st;
    for (uint32_t i = 0; i < m->nsm; i++) {
        cache_stats(m->l1[i], &st);
        s->l1_sector_accesses += st.sector_accesses;
        s->l1_sector_hits += st.sector_hits;
    }
    MemSectorCounts l2;
    l2_counts(m, &l2);
    s->l2_sector_accesses += l2.l2_accesses - m->base_l2_accesses;
    s->l2_sector_hits += l2.l2_hits - m->base_l2_hits;
    uint64_t writes = m->dram_write_bytes - m->base_dram_writes;
    s->dram_write_bytes += writes;
    s->l2_atomic_wait_cycles += m->atomic_wait;
    s->dram_read_bytes += m->dram.units - m->base_dram_units - writes;
}

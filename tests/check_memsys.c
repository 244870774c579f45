/* tests/check_memsys.c -- the memory system below the coalescer as a timing
** unit: global atomics under contention (the L2 slice applies one line's
** lanes one after another; FP32 adds on one address wait for each other;
** an atomic costs an L2 request per sector). Requests are built with the
** coalescer from lane addresses and fed straight to memsys_atomic, at the
** h200 preset's figures (validate/probes/atomics.cu); the write-back
** a sector owes when it becomes dirty; the L2's partitions; and a hit on
** a line whose fill is still on its way; the miss registers' bound.                                   */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/coalesce.h"
#include "sim/config.h"
#include "sim/memsys.h"

#define ALL 0xFFFFFFFFu

/* A memory system for machine c, as loaded or changed by the test. */
static MemSys *make_for(const GpuConfig *c)
{
    Diag d;
    MemSys *m = memsys_create(c, c->sm_count, c->l1_size, &d);
    ck_assert_msg(m != NULL, "%s", d.message);
    return m;
}

static void load(GpuConfig *c, const char *gpu)
{
    Diag d;
    ck_assert_msg(config_load(gpu, c, &d), "%s", d.message);
}

static MemSys *make(GpuConfig *c, const char *gpu)
{
    load(c, gpu);
    return make_for(c);
}

/* `warps` warp atomics all asked at cycle `at`, lane l of warp w at
** addr(w, l); returns when the last one's old values are back. */
static uint64_t atomics_at(MemSys *m, uint64_t at, uint32_t warps, uint64_t (*addr)(uint32_t w, uint32_t l),
                           bool fadd)
{
    uint64_t done = 0;
    for (uint32_t w = 0; w < warps; w++) {
        uint64_t a[32];
        for (uint32_t l = 0; l < 32; l++) a[l] = addr(w, l);
        CoalesceResult r;
        coalesce_analyze(a, ALL, 4, COALESCE_ATOMIC, &r);
        uint64_t t = memsys_atomic(m, w % 4, at, &r, fadd);
        if (t > done) done = t;
    }
    return done;
}

/* The same from cycle 0 on a cold L2. */
static uint64_t issue_atomics(MemSys *m, uint32_t warps, uint64_t (*addr)(uint32_t w, uint32_t l), bool fadd)
{
    return atomics_at(m, 0, warps, addr, fadd);
}

static uint64_t one_word(uint32_t w, uint32_t l) { (void)w, (void)l; return 4096; }
/* 256 consecutive words (8 lines), a hashed bin per lane */
static uint64_t bins(uint32_t w, uint32_t l) { return 4096 + 4 * (((w * 32 + l) * 2654435761u >> 8) & 255); }
/* each lane its own word: a warp covers one line, a new line per warp */
static uint64_t distinct(uint32_t w, uint32_t l) { return 4096 + 128 * (uint64_t)w + 4 * l; }

/* The coalescer says how many lanes of an atomic fall in each line, and
** the most of them on one address. */
START_TEST(test_atomic_lanes_per_line)
{
    uint64_t a[32];
    for (uint32_t l = 0; l < 32; l++) a[l] = l < 16 ? 256 : 384 + 4 * (l % 4);
    CoalesceResult r;
    coalesce_analyze(a, ALL, 4, COALESCE_ATOMIC, &r);
    ck_assert_uint_eq(r.nlines, 2);
    ck_assert_uint_eq(r.atomic_lanes[0], 16);
    ck_assert_uint_eq(r.atomic_same[0], 16);
    ck_assert_uint_eq(r.atomic_lanes[1], 16);
    ck_assert_uint_eq(r.atomic_same[1], 4);
    ck_assert_uint_eq(r.max_same_address, 16);
    for (uint32_t l = 0; l < 32; l++) a[l] = 1024 + 4 * l; /* coalesced: one line, 32 words */
    coalesce_analyze(a, ALL, 4, COALESCE_ATOMIC, &r);
    ck_assert_uint_eq(r.nlines, 1);
    ck_assert_uint_eq(r.atomic_lanes[0], 32);
    ck_assert_uint_eq(r.atomic_same[0], 1);
}
END_TEST

/* One word for every lane of every warp: the H200 applies 0.68 lanes per
** cycle GPU-wide (1.5 cycles each), whatever the number of SMs asking. */
START_TEST(test_one_word_serialises_at_its_slice)
{
    GpuConfig c;
    MemSys *m = make(&c, "h200");
    const uint32_t warps = 512;
    uint64_t t = issue_atomics(m, warps, one_word, false);
    double per_lane = (double)(t - c.lat_atomic) / (warps * 32.0);
    ck_assert_msg(fabs(per_lane - c.l2_atomic_interval) < 0.05, "%.3f cycles per lane, want %.2f", per_lane,
                  c.l2_atomic_interval);
    KernelStats st;
    memset(&st, 0, sizeof st);
    memsys_stats(m, &st);
    ck_assert_uint_gt(st.l2_atomic_wait_cycles, (uint64_t)warps * warps / 2 * 32); /* each waits for all before */
    memsys_destroy(m);
    /* FP32 adds on one word wait for the previous sum: 3.4 cycles each */
    m = make(&c, "h200");
    t = issue_atomics(m, warps, one_word, true);
    per_lane = (double)(t - c.lat_atomic) / (warps * 32.0);
    ck_assert_msg(fabs(per_lane - c.l2_atomic_fadd_interval) < 0.05, "fadd: %.3f cycles per lane, want %.2f",
                  per_lane, c.l2_atomic_fadd_interval);
    memsys_destroy(m);
}
END_TEST

/* 256 bins spread the lanes over 8 lines: 8 slices work at once, so the
** same atomics take about an eighth of the time; a new line per warp takes
** only the L2's request rate (a request per sector). */
START_TEST(test_bins_and_distinct_words)
{
    GpuConfig c;
    const uint32_t warps = 512;
    MemSys *m = make(&c, "h200");
    uint64_t one = issue_atomics(m, warps, one_word, false);
    memsys_destroy(m);
    m = make(&c, "h200");
    uint64_t spread = issue_atomics(m, warps, bins, false);
    memsys_destroy(m);
    double ratio = (double)(one - c.lat_atomic) / (double)(spread - c.lat_atomic);
    ck_assert_msg(ratio > 6.5 && ratio < 8.5, "one word %llu cycles, 256 bins %llu: %.2fx", (unsigned long long)one,
                  (unsigned long long)spread, ratio);
    /* distinct words, the lines already in L2: 4 sectors per warp at 34
    ** requests per cycle, then one line's 32 lanes and the atomic's latency */
    m = make(&c, "h200");
    uint64_t warm = issue_atomics(m, warps, distinct, false);
    uint64_t dist = atomics_at(m, warm, warps, distinct, false) - warm;
    memsys_destroy(m);
    double rate = warps * 4.0 / c.l2_requests_per_clk, tail = c.lat_atomic + 31 * c.l2_atomic_interval;
    ck_assert_msg(dist >= rate + tail && dist < rate + tail + 10,
                  "distinct words: %llu cycles for %u warps, request-bound at %.0f + %.0f", (unsigned long long)dist,
                  warps, rate, tail);
}
END_TEST

/* A preset that does not serialise atomics (l2.atomic_interval 0) returns
** each one lat.atomic after its line is at the L2, as before. */
START_TEST(test_serialisation_off)
{
    GpuConfig c;
    MemSys *m = make(&c, "a100");
    ck_assert(c.l2_atomic_interval == 0);
    uint64_t t = issue_atomics(m, 64, one_word, false);
    ck_assert_msg(t < 64 + c.lat_dram + c.lat_atomic + 100, "a100, 64 warps on one word: %llu", (unsigned long long)t);
    KernelStats st;
    memset(&st, 0, sizeof st);
    memsys_stats(m, &st);
    ck_assert_uint_eq(st.l2_atomic_wait_cycles, 0);
    memsys_destroy(m);
}
END_TEST

/* A sector made dirty owes its DRAM write-back at once (the steady state of
** back-to-back launches): the launch cannot end before DRAM has moved it,
** storing it again while it is dirty costs nothing more, and the flush at
** the kernel's end adds nothing. */
START_TEST(test_write_back_owed_when_dirtied)
{
    GpuConfig c;
    MemSys *m = make(&c, "h200");
    const uint32_t lines = 4096;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < lines; i++) {
            uint64_t a[32];
            for (uint32_t l = 0; l < 32; l++) a[l] = (uint64_t)i * 128 + 4 * l;
            CoalesceResult r;
            coalesce_analyze(a, ALL, 4, COALESCE_STORE, &r);
            memsys_store(m, i % c.sm_count, i / 64, &r);
        }
    KernelStats st;
    memset(&st, 0, sizeof st);
    memsys_stats(m, &st);
    ck_assert_uint_eq(st.dram_write_bytes, (uint64_t)lines * 128);
    ck_assert_uint_eq(st.dram_read_bytes, 0); /* whole sectors: nothing read first */
    double need = lines * 128.0 / config_dram_bytes_per_cycle(&c);
    uint64_t before = memsys_drain_cycle(m);
    ck_assert_msg(before >= need && before < need + 200, "drain %llu, DRAM work %.0f", (unsigned long long)before,
                  need);
    memsys_flush(m);
    ck_assert_uint_eq(memsys_drain_cycle(m), before);
    memset(&st, 0, sizeof st);
    memsys_stats(m, &st);
    ck_assert_uint_eq(st.dram_write_bytes, (uint64_t)lines * 128);
    memsys_destroy(m);
}
END_TEST

/* The L2 writes 2.5 KB a cycle and reads 5.3 KB (mem_path.cu); it takes
** 98 scattered load requests a cycle against 34 stores. */
START_TEST(test_l2_read_write_paths)
{
    GpuConfig c;
    MemSys *m = make(&c, "h200");
    const uint32_t warps = 4096;
    uint64_t t = 0, second = 0;
    for (int pass = 0; pass < 2; pass++) {
        second = t; /* whole lines stored, each pass asked at once */
        for (uint32_t w = 0; w < warps; w++) {
            uint64_t a[32];
            for (uint32_t l = 0; l < 32; l++) a[l] = (uint64_t)w * 128 + 4 * l;
            CoalesceResult r;
            coalesce_analyze(a, ALL, 4, COALESCE_STORE, &r);
            memsys_store(m, w % c.sm_count, t, &r);
        }
        t = memsys_drain_cycle(m) + 1000;
    }
    /* the second pass finds the lines dirty in L2: no DRAM, the L2's writes alone */
    double l2 = warps * 128.0 / c.l2_write_bytes_per_clk;
    uint64_t busy = memsys_drain_cycle(m) - second;
    ck_assert_msg(fabs((double)busy - l2) < 2, "%u line stores: %llu cycles, want %.0f", warps,
                  (unsigned long long)busy, l2);
    ck_assert(l2 > warps * 128.0 / c.l2_bytes_per_clk * 2); /* writes: under half the read bandwidth */
    /* scattered loads of those (now L2-resident) lines: one sector from each
    ** of 32 lines per warp, so the load request rate decides; the stores
    ** left each line at its home partition only, so a warp's slowest line
    ** is one from the other partition (lat.l2_far more) */
    uint64_t done = 0;
    for (uint32_t w = 0; w < warps / 32; w++) {
        uint64_t a[32];
        for (uint32_t l = 0; l < 32; l++) a[l] = ((uint64_t)w * 32 + l) * 128;
        CoalesceResult r;
        coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
        uint64_t back = memsys_load(m, w % c.sm_count, t, &r, false);
        if (back > done) done = back;
    }
    double rate = warps / c.l2_load_requests_per_clk;
    const uint32_t lat = c.lat_l2_hit + c.lat_l2_far;
    ck_assert_msg(done >= t + rate + lat && done < t + rate + lat + 4,
                  "%u scattered line loads: back at %llu, want %.0f + %.0f + %u", warps, (unsigned long long)done,
                  (double)t, rate, lat);
    memsys_destroy(m);
}
END_TEST

/* Two passes over `mb` MB, a line per warp load, on the h200 with its L2
** in `parts` partitions: pass 1 in order, pass 2 in order or reversed, by
** SM 0 alone or by SM i % sm_count for line i (the same SM for a line in
** both passes). Returns the fraction of pass 2's bytes read from DRAM. */
static double second_pass_from_dram(uint32_t parts, uint32_t mb, bool one_sm, bool reverse)
{
    GpuConfig c;
    load(&c, "h200");
    c.l2_partitions = parts;
    MemSys *m = make_for(&c);
    const uint64_t lines = (uint64_t)mb << 20 >> 7;
    KernelStats before = { 0 }, after = { 0 };
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) memsys_stats(m, &before);
        for (uint64_t k = 0; k < lines; k++) {
            uint64_t i = pass == 1 && reverse ? lines - 1 - k : k;
            uint64_t a[32];
            for (uint32_t l = 0; l < 32; l++) a[l] = i * 128 + 4 * l;
            CoalesceResult r;
            coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
            memsys_load(m, one_sm ? 0 : (uint32_t)(i % c.sm_count), (uint64_t)pass * lines + k, &r, false);
        }
    }
    memsys_stats(m, &after);
    memsys_destroy(m);
    return (double)(after.dram_read_bytes - before.dram_read_bytes) / (double)(lines * 128);
}

/* One L2 (l2.partitions 1) is LRU over its 60 MB (hashed sets): a
** same-order second pass over 40 MB finds every line, one over 80 MB none. */
START_TEST(test_l2_second_pass_lru)
{
    double at40 = second_pass_from_dram(1, 40, false, false), at80 = second_pass_from_dram(1, 80, false, false);
    ck_assert_msg(at40 < 0.001, "40 MB: %.3f of the second pass from DRAM", at40);
    ck_assert_msg(at80 > 0.95, "80 MB: %.3f of the second pass from DRAM", at80);
}
END_TEST

/* Two partitions of 30 MB (the h200): an SM's own partition keeps a copy of
** what it reads from the other, so a line read by one SM takes room in
** both. What validate/probes/l2_partition.cu measured on the H200, as the
** model gives it:
** - one SM, same order: all hits to 24 MB; from 32 MB its own partition
**   loses every line but the other still holds its half (the model: 0.50
**   from DRAM at 40 MB, 0.82 at 64; the H200's pass 2 / pass 1: 0.44-0.49
**   to 24 MB, 0.69-0.83 at 32-56, 0.97 at 64 MB);
** - one SM reversed at 40 MB: the last 30 MB read hit, most of the rest is
**   the other partition's half (the H200: 0.56, against 0.77 in order);
** - the chip, same order: each partition holds 3/4 of the footprint, so
**   reuse holds to about 40 MB (the model: none from DRAM at 32 MB, 0.18
**   at 40, 1.00 at 56; the H200: 0.54-0.63 from 16 to 32 MB, 0.78 at 36,
**   0.88 at 40, 0.90 at 56), where one LRU of 60 MB keeps it all. */
START_TEST(test_l2_partitions_second_pass)
{
    double one24 = second_pass_from_dram(2, 24, true, false), one40 = second_pass_from_dram(2, 40, true, false);
    double one64 = second_pass_from_dram(2, 64, true, false), rev40 = second_pass_from_dram(2, 40, true, true);
    double all32 = second_pass_from_dram(2, 32, false, false), all56 = second_pass_from_dram(2, 56, false, false);
    ck_assert_msg(one24 < 0.01, "one SM, 24 MB: %.3f from DRAM", one24);
    ck_assert_msg(one40 > 0.4 && one40 < 0.6, "one SM, 40 MB: %.3f from DRAM, want about half", one40);
    ck_assert_msg(one64 > 0.75, "one SM, 64 MB: %.3f from DRAM", one64);
    ck_assert_msg(rev40 < one40 - 0.2, "one SM, 40 MB reversed: %.3f from DRAM, in order %.3f", rev40, one40);
    ck_assert_msg(all32 < 0.01, "chip, 32 MB: %.3f from DRAM", all32);
    ck_assert_msg(all56 > 0.5, "chip, 56 MB: %.3f from DRAM", all56);
}
END_TEST

/* A load that hits its SM's partition is back lat.l2_hit after it left L1;
** one that misses there and hits the line's home partition lat.l2_far
** later (the h200: 176, l2_partition.cu's chase table). SM 0 reads 64 lines
** (both partitions then hold them: copies beside SM 0, and each at its
** home); SM 2, in the other partition, reads them again, far apart in
** time: about half come back at each latency, none between. */
START_TEST(test_l2_far_hit_latency)
{
    GpuConfig c;
    MemSys *m = make(&c, "h200");
    ck_assert_uint_eq(c.l2_partitions, 2);
    ck_assert_uint_gt(c.lat_l2_far, 0);
    uint64_t t = 0;
    uint32_t near = 0, far = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t i = 0; i < 64; i++) {
            uint64_t a[32];
            for (uint32_t l = 0; l < 32; l++) a[l] = i * 128 + 4 * l;
            CoalesceResult r;
            coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
            t += 10000; /* nothing queued from the last one */
            uint64_t back = memsys_load(m, pass == 0 ? 0 : 2, t, &r, false);
            if (pass == 0) continue;
            uint64_t took = back - t, hit = c.lat_l2_hit, far_hit = hit + c.lat_l2_far;
            if (took >= hit && took <= hit + 2) near++; /* + the sector's transfer */
            else if (took >= far_hit && took <= far_hit + 2) far++;
            else ck_abort_msg("line %llu: back after %llu cycles, want %llu or %llu (+2)", (unsigned long long)i,
                              (unsigned long long)took, (unsigned long long)hit, (unsigned long long)far_hit);
        }
    ck_assert_msg(near >= 16 && far >= 16, "near %u, far %u of 64", near, far);
    memsys_destroy(m);
}
END_TEST

/* A load that hits a line of L1 whose fill is still on its way gets the
** data when the fill arrives, not lat.l1_hit after it asked (the MSHR
** holds the line's tag, not its data): SM 0 misses one line at cycle 1000,
** a second load of the same line from the same SM at 1001 comes back with
** the first, and a third long after the fill costs lat.l1_hit. */
START_TEST(test_l1_hit_on_a_line_in_flight)
{
    GpuConfig c;
    MemSys *m = make(&c, "h200");
    uint64_t a[32];
    for (uint32_t l = 0; l < 32; l++) a[l] = 1u << 20 | 4 * l;
    CoalesceResult r;
    coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
    uint64_t first = memsys_load(m, 0, 1000, &r, false);
    ck_assert_uint_gt(first, 1000 + c.lat_l2_hit); /* a miss, from DRAM */
    uint64_t second = memsys_load(m, 0, 1001, &r, false);
    ck_assert_uint_eq(second, first);
    uint64_t later = first + 1000, third = memsys_load(m, 0, later, &r, false);
    ck_assert_uint_eq(third, later + c.lat_l1_hit);
    memsys_destroy(m);
}
END_TEST

/* A load L1 does not serve (ld.global.cg, a strong gpu-scope load):
** after the line is in L1 and L2, an l2_only load of it costs an L2 hit,
** not lat.l1_hit, and does not fill L1: a line only such loads read is not
** there for an ordinary load afterwards (it misses L1, hits L2). */
START_TEST(test_l2_only_load_skips_l1)
{
    GpuConfig c;
    MemSys *m = make(&c, "h200");
    uint64_t a[32], b[32];
    for (uint32_t l = 0; l < 32; l++) a[l] = 1u << 20 | 4 * l, b[l] = 2u << 20 | 4 * l;
    CoalesceResult ra, rb;
    coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &ra);
    coalesce_analyze(b, ALL, 4, COALESCE_LOAD, &rb);
    uint64_t t = memsys_load(m, 0, 1000, &ra, false) + 1000; /* a in L1 and L2 */
    ck_assert_uint_eq(memsys_load(m, 0, t, &ra, false), t + c.lat_l1_hit);
    uint64_t cg = memsys_load(m, 0, t, &ra, true);
    ck_assert_uint_ge(cg, t + c.lat_l2_hit);
    t = memsys_load(m, 0, cg, &rb, true) + 1000; /* b in L2 only */
    uint64_t after = memsys_load(m, 0, t, &rb, false);
    ck_assert_uint_ge(after, t + c.lat_l2_hit);
    ck_assert_uint_lt(after, t + c.lat_l2_hit + c.lat_dram);
    memsys_destroy(m);
}
END_TEST

/* The miss registers bound one SM's sectors in flight (Little's law): with
** l1.max_inflight = 8, 64 lines of 4 sectors asked at once come back over
** 256 / 8 = 32 round trips to DRAM, where 4096 registers take about one.
** The h200's DRAM latency spread returns them out of order, and 256
** releases pass through the 8 registers many times over. */
static uint64_t lines_from_dram(uint32_t inflight)
{
    GpuConfig c;
    load(&c, "h200");
    c.l1_max_inflight = inflight;
    MemSys *m = make_for(&c);
    uint64_t last = 0;
    for (uint64_t i = 0; i < 64; i++) {
        uint64_t a[32];
        for (uint32_t l = 0; l < 32; l++) a[l] = (1u << 24) + i * 4096 + 4 * l;
        CoalesceResult r;
        coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
        uint64_t back = memsys_load(m, 0, 0, &r, false);
        if (back > last) last = back;
    }
    memsys_destroy(m);
    return last;
}

START_TEST(test_miss_registers_bound_sectors_in_flight)
{
    GpuConfig c;
    load(&c, "h200");
    uint64_t few = lines_from_dram(8), many = lines_from_dram(4096);
    ck_assert_msg(many < 2 * c.lat_dram, "4096 registers: the last back at %llu, DRAM latency %u",
                  (unsigned long long)many, c.lat_dram);
    ck_assert_msg(few > 28 * c.lat_dram && few < 38 * c.lat_dram,
                  "8 registers: the last back at %llu, want about 32 round trips of %u", (unsigned long long)few,
                  c.lat_dram);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("memsys");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_atomic_lanes_per_line);
    tcase_add_test(core, test_one_word_serialises_at_its_slice);
    tcase_add_test(core, test_bins_and_distinct_words);
    tcase_add_test(core, test_serialisation_off);
    tcase_add_test(core, test_write_back_owed_when_dirtied);
    tcase_add_test(core, test_l2_read_write_paths);
    tcase_add_test(core, test_l2_second_pass_lru);
    tcase_add_test(core, test_l2_partitions_second_pass);
    tcase_add_test(core, test_l2_far_hit_latency);
    tcase_add_test(core, test_l1_hit_on_a_line_in_flight);
    tcase_add_test(core, test_l2_only_load_skips_l1);
    tcase_add_test(core, test_miss_registers_bound_sectors_in_flight);
    tcase_set_timeout(core, 60); /* two sweeps over 40 and 80 MB: ~2 M loads */
    suite_add_tcase(s, core);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* tests/check_pcstats.c -- the per-instruction counters of a launch
** (sim/stats.h, PcCounters; Launch.pc_counters): asking for them changes
** no kernel-wide number, each sums over the pcs to its kernel-wide
** counter, with or without a per-warp trace sink, and they land where a
** PC sampler would put them (the tiled transpose's column read of the tile
** takes 32 wavefronts per request, the padded tile's 1; a load's wait shows
** at the instruction that reads its register). Kernels: the shipped
** transpose and histogram kernels, and the transpose twin's PTX.        */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/load.h"
#include "sim/gpu.h"
#include "tests/sim_run.h"

#ifndef TESTS_DIR
#define TESTS_DIR "tests"
#endif

/* The a100 preset on 4 SMs, the kernel from a file. */
static void run_file(Run *t, const char *file, const char *kernel)
{
    run_init_file(t, "a100", file, kernel);
    set(t, "sm.count=4");
    Diag d;
    ck_assert_msg(config_validate(&t->cfg, &d), "%s", d.message);
}

/* n x n transpose with 32 x 32 blocks; `ptx`: the params are 64-bit. */
static void transpose_setup(Run *t, const char *file, const char *kernel, uint32_t n, bool ptx)
{
    run_file(t, file, kernel);
    uint32_t in = buffer(t, (uint64_t)n * n * 4, "in"), out = buffer(t, (uint64_t)n * n * 4, "out");
    if (ptx) {
        uint32_t p[5] = { in, 0, out, 0, n };
        memcpy(t->params, p, sizeof p);
    } else {
        uint32_t p[3] = { in, out, n };
        memcpy(t->params, p, sizeof p);
    }
    t->L.grid[0] = t->L.grid[1] = n / 32;
    t->L.block[0] = t->L.block[1] = 32;
}

static void histogram_setup(Run *t, const char *kernel, uint32_t n)
{
    run_file(t, TESTS_DIR "/../workloads/examples/kernels/histogram.asm", kernel);
    uint32_t data = buffer(t, (uint64_t)n * 4, "data"), bins = buffer(t, 256 * 4, "bins");
    uint32_t *v = gmem_translate(t->gmem, data, n * 4);
    for (uint32_t i = 0; i < n; i++) v[i] = (i * 2654435761u) >> 24; /* scattered bins, some shared */
    t->params[0] = data;
    t->params[1] = bins;
    t->params[2] = n - 7; /* a partial last block: divergence at the bounds check */
    t->L.grid[0] = n / 256;
    t->L.block[0] = 256;
}

/* Simulates t twice, without and with per-pc counters (and a per-warp
** trace sink when `traced`); the kernel-wide stats must be byte-identical.
** Returns the counters (calloc'd, kernel->ncode entries). */
static PcCounters *simulate_both(Run *t, bool traced)
{
    SimResult *plain = malloc(sizeof *plain);
    ck_assert_ptr_nonnull(plain);
    ck_assert_msg(gpu_simulate(&t->cfg, &t->L, NULL, plain), "%s", plain->message);
    PcCounters *pcs = calloc(t->L.kernel->ncode, sizeof *pcs);
    ck_assert_ptr_nonnull(pcs);
    t->L.pc_counters = pcs;
    TraceSink sink;
    memset(&sink, 0, sizeof sink);
    ck_assert_msg(gpu_simulate(&t->cfg, &t->L, traced ? &sink : NULL, &t->r), "%s", t->r.message);
    t->L.pc_counters = NULL;
    ck_assert_msg(memcmp(&plain->stats, &t->r.stats, sizeof plain->stats) == 0,
                  "asking for per-pc counters changed the kernel's stats (cycles %llu vs %llu)",
                  (unsigned long long)plain->stats.cycles, (unsigned long long)t->r.stats.cycles);
    free(plain);
    return pcs;
}

static void no_trace_stall(void *user, const TraceStall *e)
{
    (void)user;
    (void)e;
}

/* Each per-pc counter summed over the kernel equals its kernel-wide one. */
static void assert_sums(const Run *t, const PcCounters *pcs)
{
    const KernelStats *st = &t->r.stats;
    PcCounters sum;
    memset(&sum, 0, sizeof sum);
    for (uint32_t pc = 0; pc < t->L.kernel->ncode; pc++) {
        const PcCounters *p = &pcs[pc];
        sum.warp_instructions += p->warp_instructions;
        sum.thread_instructions += p->thread_instructions;
        for (int k = 0; k < STALL_REASONS; k++) sum.stall[k] += p->stall[k];
        sum.global_requests += p->global_requests;
        sum.sectors += p->sectors;
        sum.ideal_sectors += p->ideal_sectors;
        sum.shared_requests += p->shared_requests;
        sum.wavefronts += p->wavefronts;
        sum.l1_sector_accesses += p->l1_sector_accesses;
        sum.l1_sector_hits += p->l1_sector_hits;
        sum.l2_sector_accesses += p->l2_sector_accesses;
        sum.l2_sector_hits += p->l2_sector_hits;
        ck_assert_uint_ge(p->executed, p->warp_instructions ? 1 : 0);
    }
    ck_assert_uint_eq(sum.warp_instructions, st->warp_instructions);
    ck_assert_uint_eq(sum.thread_instructions, st->thread_instructions);
    for (int k = 0; k < STALL_REASONS; k++)
        ck_assert_msg(sum.stall[k] == st->stall[k], "%s: %llu at the pcs, %llu in the kernel", STALL_NAMES[k],
                      (unsigned long long)sum.stall[k], (unsigned long long)st->stall[k]);
    uint64_t greq = 0, gsec = 0, gideal = 0;
    for (int k = 0; k < ACCESS_KINDS; k++) {
        greq += st->global[k].requests;
        gsec += st->global[k].sectors;
        gideal += st->global[k].ideal_sectors;
    }
    ck_assert_uint_eq(sum.global_requests, greq);
    ck_assert_uint_eq(sum.sectors, gsec);
    ck_assert_uint_eq(sum.ideal_sectors, gideal);
    ck_assert_uint_eq(sum.shared_requests, st->shared_requests);
    ck_assert_uint_eq(sum.wavefronts, st->shared_wavefronts);
    ck_assert_uint_eq(sum.l1_sector_accesses, st->l1_sector_accesses);
    ck_assert_uint_eq(sum.l1_sector_hits, st->l1_sector_hits);
    ck_assert_uint_eq(sum.l2_sector_accesses, st->l2_sector_accesses);
    ck_assert_uint_eq(sum.l2_sector_hits, st->l2_sector_hits);
}

/* The pc of the only instruction of kernel k with opcode op. */
static uint32_t only_pc(const Kernel *k, Opcode op)
{
    uint32_t found = UINT32_MAX;
    for (uint32_t pc = 0; pc < k->ncode; pc++)
        if (k->code[pc].op == op) {
            ck_assert_msg(found == UINT32_MAX, "more than one %s", OP_INFO[op].mnemonic);
            found = pc;
        }
    ck_assert_msg(found != UINT32_MAX, "no %s", OP_INFO[op].mnemonic);
    return found;
}

#define TRANSPOSE_ASM TESTS_DIR "/../workloads/kernels/transpose.asm"

/* tiled: the tile's column read, 32 wavefronts a request; padded: 1. */
static const struct {
    const char *kernel;
    uint64_t    wavefronts;
} TILES[] = { { "transpose_tiled", 32 }, { "transpose_tiled_padded", 1 } };

START_TEST(test_transpose_tile_read)
{
    Run t;
    transpose_setup(&t, TRANSPOSE_ASM, TILES[_i].kernel, 128, false);
    PcCounters *pcs = simulate_both(&t, false);
    assert_sums(&t, pcs);
    const Kernel *k = t.L.kernel;
    uint32_t ld = only_pc(k, OP_LD_SHARED), st = only_pc(k, OP_ST_SHARED);
    ck_assert_uint_eq(pcs[ld].shared_requests, 16 * 32);
    ck_assert_uint_eq(pcs[ld].wavefronts, 16 * 32 * TILES[_i].wavefronts);
    ck_assert_uint_eq(pcs[st].wavefronts, pcs[st].shared_requests); /* rows: no conflict */
    /* every warp waited at the instruction after bar.sync, none at bar.sync */
    uint32_t bar = only_pc(k, OP_BAR_SYNC);
    ck_assert_uint_eq(pcs[bar].stall[STALL_BARRIER], 0);
    ck_assert_uint_gt(pcs[bar + 1].stall[STALL_BARRIER], 0);
    /* the global load is waited for where its register is read: the st.shared */
    ck_assert_uint_gt(pcs[st].stall[STALL_LONG_SCOREBOARD], 0);
    uint32_t ldg = only_pc(k, OP_LD_GLOBAL);
    ck_assert_uint_eq(pcs[ldg].stall[STALL_LONG_SCOREBOARD], 0);
    ck_assert_uint_eq(pcs[ldg].global_requests, 16 * 32);
    ck_assert_uint_eq(pcs[ldg].sectors, 16 * 32 * 4);
    ck_assert_uint_eq(pcs[ldg].l1_sector_accesses, 16 * 32 * 4);
    free(pcs);
    run_free(&t);
}
END_TEST

/* With a per-warp trace sink each eligible warp is charged on its own
** (schedule's per-warp path): the per-pc counters come out the same. */
START_TEST(test_per_warp_path_agrees)
{
    Run t;
    transpose_setup(&t, TRANSPOSE_ASM, "transpose_tiled", 64, false);
    PcCounters *bulk = simulate_both(&t, false);
    KernelStats st = t.r.stats;
    PcCounters *pcs = calloc(t.L.kernel->ncode, sizeof *pcs);
    ck_assert_ptr_nonnull(pcs);
    t.L.pc_counters = pcs;
    TraceSink sink;
    memset(&sink, 0, sizeof sink);
    sink.warp_stall = no_trace_stall;
    ck_assert(gpu_simulate(&t.cfg, &t.L, &sink, &t.r));
    ck_assert_uint_eq(t.r.stats.cycles, st.cycles);
    assert_sums(&t, pcs);
    for (uint32_t pc = 0; pc < t.L.kernel->ncode; pc++)
        for (int k = 0; k < STALL_REASONS; k++)
            ck_assert_msg(pcs[pc].stall[k] == bulk[pc].stall[k], "pc %u %s: %llu per warp, %llu in bulk", pc,
                          STALL_NAMES[k], (unsigned long long)pcs[pc].stall[k],
                          (unsigned long long)bulk[pc].stall[k]);
    free(pcs);
    free(bulk);
    run_free(&t);
}
END_TEST

/* Atomics, divergence, barriers and exits: the sums still hold, and the
** shared atomic's requests are at its pc. */
START_TEST(test_histogram)
{
    static const char *const KERNELS[] = { "hist_global", "hist_shared" };
    for (int i = 0; i < 2; i++) {
        Run t;
        histogram_setup(&t, KERNELS[i], 4096);
        PcCounters *pcs = simulate_both(&t, false);
        assert_sums(&t, pcs);
        if (i == 1) {
            uint32_t atom = only_pc(t.L.kernel, OP_ATOM_SHARED_U32);
            ck_assert_uint_eq(pcs[atom].shared_requests, t.r.stats.shared[ACCESS_ATOMIC].requests);
        }
        free(pcs);
        run_free(&t);
    }
}
END_TEST

/* A PTX kernel: the free instructions (ld.param, cvta ...) execute but
** take no issue slot; the column read still takes 32 wavefronts. */
START_TEST(test_ptx_kernel)
{
    Run t;
    transpose_setup(&t, TESTS_DIR "/ptx/transpose.ptx", "transpose_tiled", 128, true);
    PcCounters *pcs = simulate_both(&t, false);
    assert_sums(&t, pcs);
    const Kernel *k = t.L.kernel;
    uint64_t executed = 0, free_ones = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        executed += pcs[pc].executed;
        if (k->code[pc].slots == 0 && pcs[pc].executed) {
            free_ones++;
            ck_assert_uint_eq(pcs[pc].warp_instructions, 0);
        }
    }
    ck_assert_uint_eq(executed, t.r.stats.ptx_instructions);
    ck_assert_uint_gt(free_ones, 0);
    uint32_t col = UINT32_MAX; /* the ld.shared of the tile's column */
    for (uint32_t pc = 0; pc < k->ncode; pc++)
        if (k->code[pc].op == OP_LD_SHARED) col = pc;
    ck_assert_uint_ne(col, UINT32_MAX);
    ck_assert_uint_eq(pcs[col].wavefronts, 32 * pcs[col].shared_requests);
    free(pcs);
    run_free(&t);
}
END_TEST

static Suite *pcstats_suite(void)
{
    Suite *s = suite_create("pcstats");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_transpose_tile_read, 0, sizeof TILES / sizeof TILES[0]);
    tcase_add_test(core, test_per_warp_path_agrees);
    tcase_add_test(core, test_histogram);
    tcase_add_test(core, test_ptx_kernel);
    tcase_set_timeout(core, 120);
    suite_add_tcase(s, core);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pcstats_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

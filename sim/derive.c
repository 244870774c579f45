/* sim/derive.c -- the derived half of KernelStats (see derive.h). The
** formulas are the ones the reports document (workloads/README.md); peak
** FP32 counts every scheduler's FMA pipe at 2 flops per lane per fma.   */
#include "sim/derive.h"

static double per(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }
static double share(double used, double peak) { return peak > 0 ? used / peak : 0.0; }

static void derive_requests(GlobalCounts *g)
{
    g->sectors_per_request = per(g->sectors, g->requests);
    g->ideal_sectors_per_request = per(g->ideal_sectors, g->requests);
}

void derive_stats(const GpuConfig *c, KernelStats *st)
{
    st->time_us = (double)st->cycles / c->clock_mhz;
    st->theoretical_occupancy = st->occ.occupancy;
    uint64_t per_wave = (uint64_t)c->sm_count * st->occ.blocks_per_sm;
    st->waves = per_wave ? (uint32_t)((st->blocks + per_wave - 1) / per_wave) : 0;
    st->waves_per_sm = per_wave ? (double)st->blocks / (double)per_wave : 0;
    st->wave_efficiency = st->waves ? (double)st->blocks / ((double)st->waves * per_wave) : 0;
    st->tail_blocks = st->waves ? (uint32_t)(st->blocks - (uint64_t)(st->waves - 1) * per_wave) : 0;

    uint64_t busy = st->busy_sm_cycles;
    st->ipc = busy ? (double)st->warp_instructions / (double)busy : 0; /* per SM per active cycle */
    st->achieved_occupancy = busy ? (double)st->resident_warp_cycles / ((double)busy * c->sm_max_warps) : 0;
    /* a warp is resident from its block's dispatch and launched one cycle
    ** later at the earliest: its launch wait never exceeds its residency */
    uint64_t launched = st->resident_warp_cycles > st->launch_wait_warp_cycles
                            ? st->resident_warp_cycles - st->launch_wait_warp_cycles
                            : 0;
    st->active_occupancy = busy ? (double)launched / ((double)busy * c->sm_max_warps) : 0;
    st->launch_queue_share = per(st->launch_queue_cycles, busy);
    st->branch_efficiency = st->warp_instructions ? (double)st->active_lanes / (32.0 * st->warp_instructions) : 0;

    st->shared_requests = 0;
    st->shared_wavefronts = 0;
    st->shared_ideal_wavefronts = 0;
    for (int k = 0; k < ACCESS_KINDS; k++) {
        derive_requests(&st->global[k]);
        derive_requests(&st->local[k]);
        SharedCounts *s = &st->shared[k];
        s->wavefronts_per_request = per(s->wavefronts, s->requests);
        s->ideal_wavefronts_per_request = per(s->ideal_wavefronts, s->requests);
        st->shared_requests += s->requests;
        st->shared_wavefronts += s->wavefronts;
        st->shared_ideal_wavefronts += s->ideal_wavefronts;
    }
    st->shared_bank_conflicts = st->shared_wavefronts - st->shared_ideal_wavefronts;
    st->shared_wavefronts_per_request = per(st->shared_wavefronts, st->shared_requests);
    st->shared_atomic_serial_per_request = per(st->shared[ACCESS_ATOMIC].serial_cycles, st->shared[ACCESS_ATOMIC].requests);
    st->global_atomic_wait_per_request = per(st->l2_atomic_wait_cycles, st->global[ACCESS_ATOMIC].requests);

    st->l1_hit_rate = st->l1_sector_accesses ? (double)st->l1_sector_hits / st->l1_sector_accesses : 0;
    st->l2_hit_rate = st->l2_sector_accesses ? (double)st->l2_sector_hits / st->l2_sector_accesses : 0;
    st->dram_bytes = st->dram_read_bytes + st->dram_write_bytes;
    double seconds = st->time_us * 1e-6;
    st->dram_bandwidth_gbs = seconds > 0 ? (double)st->dram_bytes / seconds / 1e9 : 0;
    st->achieved_gflops = seconds > 0 ? (double)st->flops / seconds / 1e9 : 0;
    st->peak_gflops = (double)c->sm_count * c->sm_schedulers * (32.0 / c->fma_interval) * 2.0 * c->clock_mhz * 1e-3;
    st->peak_dram_gbs = c->dram_bandwidth_gbs;
    st->ridge_point = st->peak_gflops / st->peak_dram_gbs;
    st->arithmetic_intensity = st->dram_bytes ? (double)st->flops / (double)st->dram_bytes : 0;
    double mem_bound = st->arithmetic_intensity * st->peak_dram_gbs;
    st->roofline_gflops = st->dram_bytes == 0 || mem_bound > st->peak_gflops ? st->peak_gflops : mem_bound;

    /* each unit's share of its peak over the elapsed cycles of every SM
    ** (Nsight Compute's pct_of_peak_sustained_elapsed) */
    double sm_cycles = (double)st->cycles * c->sm_count, slots = sm_cycles * c->sm_schedulers;
    uint64_t sectors = 0;
    for (int k = 0; k < ACCESS_KINDS; k++) sectors += st->global[k].sectors + st->local[k].sectors;
    st->throughput[LIMIT_DRAM] = share(st->dram_bandwidth_gbs, st->peak_dram_gbs);
    st->throughput[LIMIT_L2] = share(32.0 * (double)st->l2_sector_accesses, (double)st->cycles * c->l2_bytes_per_clk);
    st->throughput[LIMIT_L1] = share((double)sectors, sm_cycles * c->l1_sectors_per_cycle);
    st->throughput[LIMIT_SHARED] = share((double)st->shared_wavefronts, sm_cycles); /* one a cycle per SM */
    st->throughput[LIMIT_ISSUE] = share((double)st->warp_instructions, slots);
    st->throughput[LIMIT_FMA] = share((double)st->pipe_cycles[UNIT_FMA], slots);
    st->throughput[LIMIT_ALU] = share((double)st->pipe_cycles[UNIT_ALU], slots);
    st->throughput[LIMIT_XU] = share((double)st->pipe_cycles[UNIT_SFU], slots);
    st->throughput[LIMIT_FP64] = share((double)st->pipe_cycles[UNIT_FP64], slots);
    st->busiest = LIMIT_DRAM;
    for (int k = 1; k < LIMITS; k++)
        if (st->throughput[k] > st->throughput[st->busiest]) st->busiest = (Limit)k;

    st->stall_cycles = 0;
    for (int k = 0; k < STALL_REASONS; k++) st->stall_cycles += st->stall[k];
    for (int k = 0; k < STALL_REASONS; k++) st->stall_share[k] = per(st->stall[k], st->stall_cycles);
}

void derive_sum(const GpuConfig *c, const KernelStats *launches, uint32_t n, KernelStats *out)
{
    KernelStats t = { 0 };
    uint32_t longest = 0;
    for (uint32_t i = 0; i < n; i++) {
        const KernelStats *l = &launches[i];
        if (l->cycles > launches[longest].cycles) longest = i;
        stats_add(&t, l);
    }
    if (n) {
        t.occ = launches[longest].occ;
        t.blocks = launches[longest].blocks; /* waves, efficiency and tail follow from these */
    }
    derive_stats(c, &t);
    *out = t;
}

void derive_pc(const PcCounters *p, uint64_t kernel_warp_cycles, PcFigures *f)
{
    f->warp_cycles = 0;
    for (int k = 0; k < STALL_REASONS; k++) f->warp_cycles += p->stall[k];
    for (int k = 0; k < STALL_REASONS; k++) f->stall_share[k] = per(p->stall[k], f->warp_cycles);
    f->cycle_share = per(f->warp_cycles, kernel_warp_cycles);
    f->threads_per_instruction = per(p->thread_instructions, p->warp_instructions);
    f->sectors_per_request = per(p->sectors, p->global_requests);
    f->ideal_sectors_per_request = per(p->ideal_sectors, p->global_requests);
    f->wavefronts_per_request = per(p->wavefronts, p->shared_requests);
    f->ideal_wavefronts_per_request = per(p->ideal_wavefronts, p->shared_requests);
    f->bank_conflicts_per_request = per(p->wavefronts - p->ideal_wavefronts, p->shared_requests);
    f->l1_hit_rate = per(p->l1_sector_hits, p->l1_sector_accesses);
    f->l2_hit_rate = per(p->l2_sector_hits, p->l2_sector_accesses);
}

void derive_pc_add(PcCounters *acc, const PcCounters *p)
{
    acc->executed += p->executed;
    acc->warp_instructions += p->warp_instructions;
    acc->thread_instructions += p->thread_instructions;
    for (int k = 0; k < STALL_REASONS; k++) acc->stall[k] += p->stall[k];
    acc->global_requests += p->global_requests;
    acc->sectors += p->sectors;
    acc->ideal_sectors += p->ideal_sectors;
    acc->shared_requests += p->shared_requests;
    acc->wavefronts += p->wavefronts;
    acc->ideal_wavefronts += p->ideal_wavefronts;
    acc->l1_sector_accesses += p->l1_sector_accesses;
    acc->l1_sector_hits += p->l1_sector_hits;
    acc->l2_sector_accesses += p->l2_sector_accesses;
    acc->l2_sector_hits += p->l2_sector_hits;
}

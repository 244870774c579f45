// tests/occupancy_ref.cpp -- sim/occupancy.c against NVIDIA's occupancy
// calculator (cuda_occupancy.h from the CUDA toolkit, header only).
// For every preset, and for a few machines changed with --set (to reach rules
// that the real parts leave slack, e.g. fewer registers per block than per
// SM, or a smaller carveout): first the per-architecture constants that the header keeps
// in its own tables (block slots, allocation granularities, sub-partitions)
// must equal the preset's knobs; then RUNS random launches (block size
// 1..max, registers 0..255, static shared memory 0..48 KB, dynamic shared
// memory up to a little past the opt-in limit, default carveout) go through
// cudaOccMaxActiveBlocksPerMultiprocessor, with a cudaOccDeviceProp filled from
// the preset, and through occupancy_compute. Any difference in blocks per SM,
// in a per-resource limit, in the allocated registers/shared memory, or a
// limiter that is not among CUDA's limiting factors, is a failure; the first
// few are printed. Deterministic (fixed seed); exit status 0 = no mismatch.
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_occupancy.h>

extern "C" {
#include "sim/config.h"
#include "sim/occupancy.h"
}

namespace {

const int RUNS = 50000;    // random launches per preset
const int SHOW = 5;        // mismatches printed per preset

// splitmix64: small, seedable, the same on every platform
struct Rng {
    uint64_t s;
    uint64_t next()
    {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t upto(uint32_t hi) { return (uint32_t)(next() % ((uint64_t)hi + 1)); } // 0..hi
};

cudaOccDeviceProp device_of(const GpuConfig &c)
{
    cudaOccDeviceProp p;
    p.computeMajor = (int)(c.compute_capability / 10);
    p.computeMinor = (int)(c.compute_capability % 10);
    p.maxThreadsPerBlock = (int)c.max_threads_per_block;
    p.maxThreadsPerMultiprocessor = (int)c.sm_max_threads;
    p.regsPerBlock = (int)c.max_regs_per_block;
    p.regsPerMultiprocessor = (int)c.sm_registers;
    p.warpSize = 32;
    p.sharedMemPerBlock = c.shared_per_block;
    p.sharedMemPerMultiprocessor = c.sm_shared_memory;
    p.numSms = (int)c.sm_count;
    p.sharedMemPerBlockOptin = c.shared_per_block_optin;
    p.reservedSharedMemPerBlock = c.shared_reserved;
    return p;
}

// CUDA says INT_MAX where a resource sets no limit; occupancy.h says OCC_UNLIMITED
uint32_t from_cuda(int limit)
{
    return limit == INT_MAX ? OCC_UNLIMITED : (uint32_t)limit;
}

unsigned cuda_factor(OccLimiter l)
{
    switch (l) {
    case OCC_WARPS: return OCC_LIMIT_WARPS;
    case OCC_BLOCKS: return OCC_LIMIT_BLOCKS;
    case OCC_REGISTERS: return OCC_LIMIT_REGISTERS;
    case OCC_SHARED_MEMORY: return OCC_LIMIT_SHARED_MEMORY;
    }
    return 0;
}

// The header's own per-architecture tables against the preset's knobs.
int check_constants(const char *name, const GpuConfig &c, const cudaOccDeviceProp &p)
{
    int blocks = 0, smem_unit = 0, reg_unit = 0, subs = 0, bad = 0;
    if (cudaOccMaxBlocksPerMultiprocessor(&blocks, &p) != CUDA_OCC_SUCCESS ||
        cudaOccSMemAllocationGranularity(&smem_unit, &p) != CUDA_OCC_SUCCESS ||
        cudaOccRegAllocationGranularity(&reg_unit, &p) != CUDA_OCC_SUCCESS ||
        cudaOccSubPartitionsPerMultiprocessor(&subs, &p) != CUDA_OCC_SUCCESS) {
        std::printf("%s: cuda_occupancy.h does not know sm_%u\n", name, c.compute_capability);
        return 1;
    }
    struct {
        const char *knob;
        uint32_t ours;
        int cuda;
    } rows[] = {
        {"sm.max_blocks", c.sm_max_blocks, blocks},
        {"sm.shared_alloc_unit", c.shared_alloc_unit, smem_unit},
        {"sm.reg_alloc_unit", c.reg_alloc_unit, reg_unit},
        {"sm.schedulers", c.sm_schedulers, subs},
        {"sm.max_warps * 32", c.sm_max_warps * 32, (int)c.sm_max_threads},
    };
    for (const auto &r : rows)
        if ((int)r.ours != r.cuda) {
            std::printf("%s: %s = %u, cuda_occupancy.h says %d\n", name, r.knob, r.ours, r.cuda);
            bad++;
        }
    return bad;
}

struct Launch {
    uint32_t block, regs, static_smem, dynamic_smem;
};

Launch random_launch(Rng &rng, const GpuConfig &c)
{
    Launch l;
    // a quarter of the blocks are whole warps, as real launches mostly are
    l.block = rng.upto(3) == 0 ? 32 * (1 + rng.upto(c.max_threads_per_block / 32 - 1))
                               : 1 + rng.upto(c.max_threads_per_block - 1);
    l.regs = rng.upto(99) == 0 ? 0 : 1 + rng.upto(254);
    l.static_smem = rng.upto(1) ? 0 : rng.upto(c.shared_per_block);
    uint32_t room = c.shared_per_block_optin - l.static_smem;
    switch (rng.upto(3)) {
    case 0: l.dynamic_smem = 0; break;
    case 1: l.dynamic_smem = rng.upto(room / 8); break;
    case 2: l.dynamic_smem = rng.upto(room); break;
    default: l.dynamic_smem = (room > 512 ? room - 512 : 0) + rng.upto(1024); break; // around the opt-in edge
    }
    return l;
}

struct Machine {
    const char *preset;
    const char *sets[4]; // --set assignments applied on top, NULL-terminated
};

// Hypothetical machines: still within what cuda_occupancy.h models for the arch.
const Machine VARIANTS[] = {
    {"a100", {"sm.max_regs_per_block=32768", nullptr}},
    {"h100", {"sm.shared_memory=167936", "sm.shared_per_block_optin=166912", nullptr}},
    {"rtx4090", {"sm.registers=32768", "sm.max_regs_per_block=32768", "sm.max_warps=32", "sm.max_threads=1024"}},
    {"t4", {"sm.max_threads_per_block=512", nullptr}},
};

int compare(const Machine &m)
{
    GpuConfig c;
    Diag d;
    if (!config_load(m.preset, &c, &d)) {
        diag_print(stdout, &d);
        return 1;
    }
    static char label[64];
    std::snprintf(label, sizeof label, "%s%s", m.preset, m.sets[0] ? "*" : "");
    const char *name = label;
    for (const char *set : m.sets) {
        if (set && !config_set(&c, set, &d)) {
            diag_print(stdout, &d);
            return 1;
        }
    }
    if (!config_validate(&c, &d)) {
        diag_print(stdout, &d);
        return 1;
    }
    cudaOccDeviceProp prop = device_of(c);
    int mismatches = check_constants(name, c, prop);
    cudaOccDeviceState state; // default carveout, no cache preference

    Rng rng{0x6770757369ull ^ c.compute_capability};
    int launchable = 0;
    for (int i = 0; i < RUNS; i++) {
        Launch l = random_launch(rng, c);
        cudaOccFuncAttributes attr;
        attr.maxThreadsPerBlock = INT_MAX;
        attr.numRegs = (int)l.regs;
        attr.sharedSizeBytes = l.static_smem;
        attr.partitionedGCConfig = PARTITIONED_GC_OFF;
        attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;  // the kernel opted in ...
        attr.maxDynamicSharedSizeBytes = l.dynamic_smem; // ... to what it asks for
        attr.numBlockBarriers = 1;
        cudaOccResult ref;
        cudaOccError err =
            cudaOccMaxActiveBlocksPerMultiprocessor(&ref, &prop, &attr, &state, (int)l.block, l.dynamic_smem);
        if (err != CUDA_OCC_SUCCESS) {
            std::printf("%s: cuda_occupancy.h error %d\n", name, (int)err);
            return mismatches + 1;
        }

        OccResult ours;
        Diag why;
        bool ok = occupancy_compute(&c, l.block, l.regs, l.static_smem, l.dynamic_smem, &ours, &why);
        uint32_t want = (uint32_t)ref.activeBlocksPerMultiprocessor;
        launchable += want > 0;

        const char *what = nullptr;
        if (ok != (want > 0) || ours.blocks_per_sm != want) what = "blocks per SM";
        else if (ok && ours.limit_warps != from_cuda(ref.blockLimitWarps)) what = "warp limit";
        else if (ok && ours.limit_blocks != from_cuda(ref.blockLimitBlocks)) what = "block limit";
        else if (ok && ours.limit_registers != from_cuda(ref.blockLimitRegs)) what = "register limit";
        else if (ok && ours.limit_shared_memory != from_cuda(ref.blockLimitSharedMem)) what = "shared memory limit";
        else if (ok && ours.regs_per_block_alloc != (uint32_t)ref.allocatedRegistersPerBlock) what = "registers per block";
        else if (ok && ours.smem_per_block_alloc != (uint32_t)ref.allocatedSharedMemPerBlock) what = "shared memory per block";
        else if (ok && !(ref.limitingFactors & cuda_factor(ours.limiter))) what = "limiter";
        if (!what) continue;
        if (mismatches++ < SHOW)
            std::printf("%s: block %u, regs %u, static %u, dynamic %u: %s differs: cuda %d blocks "
                        "(warps %d regs %d smem %d blocks %d, factors 0x%x), ours %u (warps %u regs %u "
                        "smem %u blocks %u, %s)%s%s\n",
                        name, l.block, l.regs, l.static_smem, l.dynamic_smem, what,
                        ref.activeBlocksPerMultiprocessor, ref.blockLimitWarps, ref.blockLimitRegs,
                        ref.blockLimitSharedMem, ref.blockLimitBlocks, ref.limitingFactors,
                        ours.blocks_per_sm, ours.limit_warps, ours.limit_registers,
                        ours.limit_shared_memory, ours.limit_blocks, occupancy_limiter_name(ours.limiter),
                        ok ? "" : ": ", ok ? "" : why.message);
    }
    for (const char *set : m.sets)
        if (set) std::printf("  (--set %s)\n", set);
    std::printf("%-8s sm_%-3u %d random launches (%d launchable) compared with cuda_occupancy.h: "
                "%d mismatches\n",
                name, c.compute_capability, RUNS, launchable, mismatches);
    return mismatches;
}

} // namespace

int main()
{
    int total = 0;
    if (config_preset_count() == 0) {
        std::printf("no presets compiled in\n");
        return EXIT_FAILURE;
    }
    for (size_t i = 0; i < config_preset_count(); i++) total += compare(Machine{config_preset_name(i), {nullptr}});
    for (const Machine &m : VARIANTS) total += compare(m);
    std::printf("%s: %d mismatches in all\n", total ? "FAIL" : "PASS", total);
    return total ? EXIT_FAILURE : EXIT_SUCCESS;
}

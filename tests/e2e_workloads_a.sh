#!/usr/bin/env bash
# tests/e2e_workloads_a.sh -- end-to-end tests of the occupancy, waves,
# grid_stride, registers, ilp, coalescing and bank_conflicts workloads
# through `gpusim run`.
# usage: e2e_workloads_a.sh GPUSIM SOURCE_DIR
# 1. Every variant passes its checks on every preset at small sizes that are
#    not multiples of a warp or a block; on a 2-SM machine the grid-stride
#    loops (and ilp4's four-at-a-time loop and its tail) run several times.
# 2. On the a100 preset the teaching effects hold: theoretical occupancy,
#    blocks per SM and limiter equal `gpusim occupancy` for every launch
#    (light 50% at 32 threads, smem 100/100/50/37.5%); registers 32/40/64/128
#    give 100/75/50/25% with the limiter `registers` from 40 up; one extra
#    block costs a whole wave (1.7..2.3x) and the waves are counted right;
#    grid_stride is within 10% of one_per_thread; ilp4 beats ilp1; strided
#    loads touch 4, 8, 16, 32, 32, 32 sectors per request and never get
#    faster as the stride grows; strided shared loads take `stride`
#    wavefronts per request, broadcast, padded and swizzle one.
# Prints one line per failure and `N passed, M failed` last; exits 1 on any
# failure. Needs bash and python3.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 GPUSIM SOURCE_DIR" >&2
    exit 2
fi
GPUSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh # the working directory is now the source tree

# ---- 1. checks pass on every preset, small sizes
for gpu in t4 a100 rtx4090 h100 h200 b200; do
    run_json "occ_$gpu" workloads/occupancy.json --gpu "$gpu" --param n=5003
    run_json "waves_$gpu" workloads/waves.json --gpu "$gpu" --param n=3
    run_json "gs_$gpu" workloads/grid_stride.json --gpu "$gpu" --param n=5003
    run_json "regs_$gpu" workloads/registers.json --gpu "$gpu" --param n=5003
    run_json "ilp_$gpu" workloads/ilp.json --gpu "$gpu" --param n=5003
    run_json "coal_$gpu" workloads/coalescing.json --gpu "$gpu" --param n=1000
    run_json "bank_$gpu" workloads/bank_conflicts.json --gpu "$gpu" --param n=1500 --param iters=5
done
# two SMs: the grid-stride loops go round several times, ilp4 runs its
# four-element loop and then its tail
run_json gs_loop workloads/grid_stride.json --set sm.count=2 --param n=40007
run_json ilp_loop workloads/ilp.json --set sm.count=2 --param n=5003
# edge sizes: one element, a partial last block of the smem kernel
run_json occ_one workloads/occupancy.json --param n=1
run_json gs_one workloads/grid_stride.json --param n=1
run_json bank_zero workloads/bank_conflicts.json --param n=32 --param iters=0

# ---- 2. teaching effects on the a100 preset

# occupancy: every launch's theoretical figures are `gpusim occupancy`'s
regs_of() { # regs_of KERNEL_FILE KERNEL: registers per thread per `gpusim asm`
    "$GPUSIM" asm "$1" | sed -n "s|^// kernel $2: .*, \([0-9]*\) registers per thread.*|\1|p"
}
if run_json occ workloads/occupancy.json --param n=262144; then
    LIGHT_REGS=$(regs_of workloads/kernels/occupancy.asm light)
    SMEM_REGS=$(regs_of workloads/kernels/occupancy.asm smem_reverse)
    for spec in light_32:32:$LIGHT_REGS:0 light_64:64:$LIGHT_REGS:0 light_128:128:$LIGHT_REGS:0 \
        light_256:256:$LIGHT_REGS:0 light_512:512:$LIGHT_REGS:0 light_1024:1024:$LIGHT_REGS:0 \
        smem_0k:256:$SMEM_REGS:1024 smem_16k:256:$SMEM_REGS:16384 smem_32k:256:$SMEM_REGS:32768 \
        smem_48k:256:$SMEM_REGS:49152; do
        IFS=: read -r var block regs smem <<<"$spec"
        "$GPUSIM" occupancy --gpu a100 --block "$block" --regs "$regs" --smem "$smem" --json >"$TMP/o_$var.json"
        effect occ "occupancy $var: theoretical figures differ from gpusim occupancy --block $block --regs $regs --smem $smem" "
o = json.load(open('$TMP/o_$var.json'))
s = st['$var']
assert s['blocks_per_sm'] == o['blocks_per_sm'], (s['blocks_per_sm'], o['blocks_per_sm'])
assert abs(s['theoretical_occupancy'] - o['occupancy']) < 1e-9, (s['theoretical_occupancy'], o['occupancy'])
assert s['occupancy_limiter'] == o['limiter'], (s['occupancy_limiter'], o['limiter'])"
    done
    effect occ "occupancy: the text's A100 figures (light_32 50% by blocks, smem 100/100/50/37.5%)" "
assert st['light_32']['theoretical_occupancy'] == 0.5 and st['light_32']['occupancy_limiter'] == 'blocks'
for b in (64, 128, 256, 512, 1024): assert st['light_%d' % b]['theoretical_occupancy'] == 1, b
want = {'smem_0k': (8, 1.0), 'smem_16k': (8, 1.0), 'smem_32k': (4, 0.5), 'smem_48k': (3, 0.375)}
for k, (b, o) in want.items(): assert (st[k]['blocks_per_sm'], st[k]['theoretical_occupancy']) == (b, o), k
for k in ('smem_32k', 'smem_48k'): assert st[k]['occupancy_limiter'] == 'shared_memory', k
for k in v: assert st[k]['achieved_occupancy'] <= st[k]['theoretical_occupancy'] + 1e-9, k
assert cy['light_32'] > 1.2 * cy['light_256'], (cy['light_32'], cy['light_256'])
assert cy['smem_48k'] > cy['smem_16k'], (cy['smem_48k'], cy['smem_16k'])"
fi

# registers: 100/75/50/25%, limited by registers from 40 up, never faster
if run_json regs workloads/registers.json --param n=262144; then
    effect regs "registers: occupancy does not follow 32/40/64/128 registers per thread" "
want = {'regs_32': (8, 1.0), 'regs_40': (6, 0.75), 'regs_64': (4, 0.5), 'regs_128': (2, 0.25)}
for k, (b, o) in want.items(): assert (st[k]['blocks_per_sm'], st[k]['theoretical_occupancy']) == (b, o), (k, st[k]['blocks_per_sm'])
for k in ('regs_40', 'regs_64', 'regs_128'): assert st[k]['occupancy_limiter'] == 'registers', (k, st[k]['occupancy_limiter'])
assert cy['regs_32'] <= cy['regs_40'] <= cy['regs_64'] <= cy['regs_128'], cy
assert cy['regs_128'] > 1.2 * cy['regs_32'], cy"
fi

# waves: one extra block costs a whole wave when blocks are latency-bound
if run_json waves workloads/waves.json --param n=256; then  # blocks long enough that launch stagger is small
    effect waves "waves: wave counts or tail costs are off" "
want = {'full_wave': (1, 1), 'one_extra': (2, 1), 'two_waves': (2, 1), 'two_per_sm_full': (1, 2), 'two_per_sm_tail': (2, 2)}
for k, (w, b) in want.items(): assert (st[k]['waves'], st[k]['blocks_per_sm']) == (w, b), (k, st[k]['waves'], st[k]['blocks_per_sm'])
for a, b in (('one_extra', 'full_wave'), ('two_waves', 'full_wave'), ('two_per_sm_tail', 'two_per_sm_full')):
    assert 1.7 <= cy[a] / cy[b] <= 2.3, (a, b, cy[a] / cy[b])
assert 0.9 <= cy['two_per_sm_full'] / cy['full_wave'] <= 1.1, cy"
fi

# grid_stride: a few waves of a grid-stride loop are no slower
if run_json gs workloads/grid_stride.json --param n=1048576; then
    effect gs "grid_stride: more than 10% slower than one_per_thread, or not fewer blocks" "
assert cy['grid_stride'] <= 1.10 * cy['one_per_thread'], cy
assert st['grid_stride']['waves'] == 4 < st['one_per_thread']['waves'], (st['grid_stride']['waves'], st['one_per_thread']['waves'])"
fi

# ilp: four independent loads in flight beat one at 25% occupancy
if run_json ilp workloads/ilp.json --param n=1048576; then
    effect ilp "ilp: ilp4 is not clearly faster than ilp1 at 25% occupancy" "
assert st['ilp1']['theoretical_occupancy'] == 0.25 and st['ilp4']['theoretical_occupancy'] == 0.25
assert cy['ilp4'] < 0.8 * cy['ilp1'], cy
assert st['ilp4']['dram_bandwidth_gbs'] > 1.25 * st['ilp1']['dram_bandwidth_gbs']"
fi

# coalescing: sectors per request 4, 8, 16, 32, 32, 32; time never drops
if run_json coal workloads/coalescing.json --param n=65536; then
    effect coal "coalescing: sectors per request or times do not follow the stride" "
names = ['stride%d' % s for s in (1, 2, 4, 8, 16, 32)]
for k, want in zip(names, (4, 8, 16, 32, 32, 32)):
    assert st[k]['gld_sectors'] == want * st[k]['gld_requests'], (k, st[k]['gld_sectors'] / st[k]['gld_requests'])
    assert st[k]['gst_sectors'] == 4 * st[k]['gst_requests'], k
for a, b in zip(names, names[1:]): assert cy[b] >= 0.98 * cy[a], (a, b, cy[a], cy[b])
# DRAM moves 64-byte chunks: stride 2 costs L1/L2 sectors but no more DRAM
# bytes than stride 1 (the H200 takes 1.33x: validate/RESULTS.md, item 5)
assert cy['stride4'] > 1.2 * cy['stride1'] and cy['stride8'] > 2 * cy['stride1'], cy"
fi

# bank_conflicts: the loads take `stride` wavefronts per request; every warp
# also makes one conflict-free fill store (one request, one wavefront)
if run_json bank workloads/bank_conflicts.json --param n=8192 --param iters=32; then
    effect bank "bank_conflicts: wavefronts per shared load do not equal the stride" "
def per_load(k):
    s = st[k]
    warps = 8192 // 32
    return (s['shared_wavefronts'] - warps) / (s['shared_requests'] - warps)
for s in (1, 2, 4, 8, 16, 32): assert per_load('stride%d' % s) == s, (s, per_load('stride%d' % s))
for k in ('broadcast', 'padded', 'swizzle'): assert per_load(k) == 1, (k, per_load(k))
assert st['stride1']['shared_bank_conflicts'] == 0 and st['stride32']['shared_bank_conflicts'] > 0
assert cy['stride32'] > 2 * cy['stride8'] > 3 * cy['stride1'], cy
assert cy['broadcast'] <= 1.02 * cy['stride1'] and cy['padded'] <= 1.02 * cy['stride1'], cy"
fi

e2e_finish

#!/usr/bin/env bash
# tests/twins_ptx.sh -- every CUDA twin (validate/twins/<workload>.cu) runs
# in gpusim through its own PTX, with correct results, on the h200 and a100
# presets: each workload file (in workloads/, or workloads/labs/ for the
# labs' twins) with its "kernels" pointed at the twin (the twins take the
# .asm kernels' parameters in the same order), at small sizes, every
# variant checked; each variant runs the twin kernel that
# validate/results/h200.json (or h200_labs.json) records for it. Needs nvcc
# (PATH, $CUDA_HOME/bin or /usr/local/cuda/bin); without it, says so and
# passes nothing but itself.
# usage: twins_ptx.sh GPUSIM SOURCE_DIR
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 GPUSIM SOURCE_DIR" >&2
    exit 2
fi
GPUSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh
export GPUSIM_CACHE_DIR=${GPUSIM_CACHE_DIR:-$TMP/cache}
if ! command -v nvcc >/dev/null && [ ! -x "${CUDA_HOME:-/nonexistent}/bin/nvcc" ] && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "twins_ptx: nvcc not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin): skipped; tests/e2e_ptx.sh reads the committed PTX instead"
    e2e_finish
    exit $?
fi
declare -A small=(
    [occupancy]="--param n=5003" [waves]="--param n=3" [grid_stride]="--param n=5003" [registers]="--param n=5003"
    [ilp]="--param n=5003" [coalescing]="--param n=1000" [bank_conflicts]="--param n=1500 --param iters=5"
    [reduction]="--param n=5003 --param blocks=3" [rmsnorm]="--param n=37 --param hidden=300" [gemv]="--param n=100"
    [gemm]="--param n=40" [compaction]="--param n=3000 --param iters=5" [transpose]="--param n=96"
    [vecadd]="--param n=5003" [divergence]="--param n=2048 --param iters=3"
    [reduction_two_pass]="--param n=5003 --param blocks=3" [residual_rmsnorm]="--param n=37 --param hidden=300"
    [intensity]="--param n=5003" [occupancy_compute]="--param n=5003 --param iters=7"
    [warp_granularity]="--param n=5003" [wave_table]="--param n=3")
for cu in validate/twins/*.cu; do
    w=$(basename "$cu" .cu)
    f=workloads/$w.json
    [ -f "$f" ] || f=workloads/labs/$w.json  # the twins of the labs' workloads
    [ -f "$f" ] || { bad "no workloads/$w.json or workloads/labs/$w.json for twin $cu"; continue; }
    python3 -c "import json, os, sys
d = json.load(open('$f'))
d['kernels'] = '$PWD/$cu'
# the twin's kernel for each variant, as the hardware run recorded it (one
# twin kernel may stand for several .asm ones, as in registers)
rec = {(r.get('workload'), r.get('variant')): r.get('kernel') for res in ('h200.json', 'h200_labs.json')
       if os.path.exists('validate/results/' + res) for r in json.load(open('validate/results/' + res))['variants']}
one = {'registers': 'saxpy'}  # twins of one kernel, as gpusim compare --from-ptx maps them
for v in d['variants']:
    if 'launches' in v:  # several launches: the twin's kernels carry the .asm ones' names
        continue
    v['kernel'] = one.get('$w') or rec.get(('$w', v['name'])) or v['kernel']
json.dump(d, open('$TMP/$w.json', 'w'))" || { bad "rewriting workloads/$w.json"; continue; }
    for gpu in h200 a100; do
        # shellcheck disable=SC2086
        run_json "${w}_$gpu" "$TMP/$w.json" --gpu $gpu ${small[$w]:-} && ok
    done
done
e2e_finish

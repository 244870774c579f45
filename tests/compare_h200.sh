#!/usr/bin/env bash
# tests/compare_h200.sh -- the simulator against the committed H200
# measurements (validate/RESULTS.md), on either path: the mini-ISA kernels
# (default), or with --from-ptx the CUDA twins' own PTX (validate/twins/*.cu
# through nvcc; skips with a message without nvcc). A model change that loses
# agreement fails the bounds; the table must equal the path's expected file
# (tests/compare_h200.expected, tests/compare_h200_ptx.expected) byte for
# byte, so a change that moves any simulated time says so in the commit that
# updates it (`--update`), and validate/RESULTS.md must quote it as printed.
# usage: compare_h200.sh GPUSIM SOURCE_DIR [--from-ptx] [--update]
set -u
GPUSIM=$(realpath "$1")
cd "$2" || exit 2
shift 2
from_ptx=false update=false
for a in "$@"; do
    case $a in
    --from-ptx) from_ptx=true ;;
    --update) update=true ;;
    *) echo "usage: compare_h200.sh GPUSIM SOURCE_DIR [--from-ptx] [--update]" >&2; exit 2 ;;
    esac
done
if $from_ptx; then
    if ! command -v nvcc >/dev/null && [ ! -x "${CUDA_HOME:-/nonexistent}/bin/nvcc" ] && [ ! -x /usr/local/cuda/bin/nvcc ]; then
        echo "compare_h200 --from-ptx: nvcc not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin): skipped"
        exit 0
    fi
    expected=tests/compare_h200_ptx.expected
    # median |ratio error| at most 1.5x the mini-ISA path's bound, no
    # occupancy mismatch, every record simulated
    bounds=(--from-ptx --max-median-error 0.06 --max-occupancy-mismatches 0)
else
    expected=tests/compare_h200.expected
    # (the median bound was 0.04 until the SMs' order within a cycle became
    # (SM, scheduler): that moved it from 3.8% to 4.0%, no calibration change;
    # the max bound 0.46 until then, when the largest error went from 45.3% to 38.2%;
    # 0.40 until the L2's two partitions, l2.partitions, took it to 33.5%; 0.35 until
    # lat.l2_far, 32.9%; median 0.045 and max 0.34 until the schedulers' order
    # drawn per (cycle, SM), sched.policy rr and L1 hits waiting for a fill in
    # flight: 3.5% and 30.5%)
    bounds=(--max-median-error 0.04 --max-error 0.31 --max-occupancy-mismatches 0)
fi
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
"$GPUSIM" compare validate/results/h200.json "${bounds[@]}" >"$out"
rc=$?
if $update; then
    cp "$out" "$expected"
    echo "$expected rewritten"
    exit $rc
fi
cat "$out"
if ! cmp -s "$out" "$expected"; then
    echo "FAIL: the comparison table differs from $expected:"
    diff "$expected" "$out" | head -20
    exit 1
fi
# validate/RESULTS.md quotes the table "exactly as it prints it": hold it to that
if ! python3 -c "import sys; sys.exit(open(sys.argv[1]).read() not in open(sys.argv[2]).read())" "$out" validate/RESULTS.md; then
    echo "FAIL: validate/RESULTS.md does not quote this table as printed (paste it there)"
    exit 1
fi
exit $rc

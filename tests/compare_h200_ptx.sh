#!/usr/bin/env bash
# tests/compare_h200_ptx.sh -- the PTX path against the committed H200
# measurements: `gpusim compare --from-ptx` simulates the CUDA twins' own
# PTX (validate/twins/*.cu through nvcc) instead of the mini-ISA kernels.
# Bounds: median |ratio error| at most 1.5x the mini-ISA path's bound
# (tests/compare_h200.sh: 0.11), no occupancy mismatch, every record
# simulated. The table must equal tests/compare_h200_ptx.expected byte for
# byte (`--update` rewrites it). Needs nvcc: skips with a message without it.
# usage: compare_h200_ptx.sh GPUSIM SOURCE_DIR [--update]
set -u
GPUSIM=$(realpath "$1")
cd "$2" || exit 2
if ! command -v nvcc >/dev/null && [ ! -x "${CUDA_HOME:-/nonexistent}/bin/nvcc" ] && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "compare_h200_ptx: nvcc not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin): skipped"
    exit 0
fi
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
"$GPUSIM" compare validate/results/h200.json --from-ptx \
    --max-median-error 0.06 --max-occupancy-mismatches 0 >"$out"
rc=$?
if [ "${3:-}" = --update ]; then
    cp "$out" tests/compare_h200_ptx.expected
    echo "tests/compare_h200_ptx.expected rewritten"
    exit $rc
fi
cat "$out"
if ! cmp -s "$out" tests/compare_h200_ptx.expected; then
    echo "FAIL: the comparison table differs from tests/compare_h200_ptx.expected:"
    diff tests/compare_h200_ptx.expected "$out" | head -20
    exit 1
fi
# validate/RESULTS.md quotes the table "exactly as it prints it": hold it to that
if ! python3 -c "import sys; sys.exit(open(sys.argv[1]).read() not in open(sys.argv[2]).read())" "$out" validate/RESULTS.md; then
    echo "FAIL: validate/RESULTS.md does not quote this table as printed (paste it there)"
    exit 1
fi
exit $rc

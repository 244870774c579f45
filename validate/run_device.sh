#!/usr/bin/env bash
# validate/run_device.sh -- the one command to run on a GPU machine (the H200):
# builds gpusim-validate with nvcc for sm_90 from this checkout (no CMake, no
# cJSON: the machine has neither need), dumps and checks the SASS of every
# twin, runs every twin and microbenchmark (correctness, then timing), and
# writes into $OUT:
#   h200.json         the results (schema: validate/README.md)
#   run.log           the runner's output
#   build.log         nvcc/ptxas output (registers, spills per kernel)
#   sass.txt          cuobjdump --dump-sass of the runner
#   sass_summary.txt  per kernel: opcodes, loops, and the EXPECT checks
#   env.txt           nvcc, driver, nvidia-smi before and after (clocks, power)
# The summary table comes last on stdout. Expected: ~1 min build, 1-2 min run.
# Usage: OUT=/some/dir bash validate/run_device.sh   (OUT defaults to /tmp/...)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpusim-validate-out}
BUILD=${BUILD:-/tmp/gpusim-validate-build}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT" "$BUILD"
rm -f "$BUILD"/*.o "$BUILD"/*.log "$BUILD/gpusim-validate"
START=$(date +%s)
log() { echo "[run_device +$(( $(date +%s) - START ))s] $*"; }

find_tool() {
  command -v "$1" 2>/dev/null && return
  for d in "${CUDA_HOME:-}" /usr/local/cuda /usr/local/cuda-* /opt/cuda; do
    [ -n "$d" ] && [ -x "$d/bin/$1" ] && { echo "$d/bin/$1"; return; }
  done
}
NVCC=$(find_tool nvcc)
CUOBJDUMP=$(find_tool cuobjdump)
[ -n "$NVCC" ] || { echo "run_device: nvcc not found (PATH, CUDA_HOME, /usr/local/cuda)"; exit 2; }

smi_query=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu,ecc.mode.current,mig.mode.current
{
  echo "== $(date -u +%FT%TZ) $(uname -srm)"
  "$NVCC" --version | tail -2
  echo "== nvidia-smi before"
  nvidia-smi 2>&1 || true
  nvidia-smi --query-gpu=$smi_query --format=csv 2>&1 || true
} > "$OUT/env.txt"
grep -m1 -A1 'name, driver' "$OUT/env.txt" || true

# ---- build: one nvcc per source file in parallel, then link ---------------------
log "building with $NVCC for $ARCH"
SRCS=(validate/runner/*.cu validate/twins/*.cu validate/micro/*.cu)
pids=()
for s in "${SRCS[@]}"; do
  o="$BUILD/$(echo "$s" | tr / _).o"
  ( "$NVCC" -std=c++17 -O3 -arch="$ARCH" -lineinfo -Xptxas -v -c "$s" -o "$o" > "$o.log" 2>&1 ) &
  pids+=($!)
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
cat "$BUILD"/*.o.log > "$OUT/build.log"
if [ "$fail" != 0 ] || ! "$NVCC" -arch="$ARCH" "$BUILD"/*.o -o "$BUILD/gpusim-validate" >> "$OUT/build.log" 2>&1; then
  grep -B2 -A8 -i 'error' "$OUT/build.log" | head -60
  log "BUILD FAILED (full log: build.log)"
  exit 2
fi
grep -c 'Used [0-9]* registers' "$OUT/build.log" | xargs -I{} echo "ptxas: {} kernels compiled (registers in build.log)"
if grep -q 'bytes spill' "$OUT/build.log" && grep 'bytes spill' "$OUT/build.log" | grep -vq ' 0 bytes spill stores, 0 bytes spill loads'; then
  echo "ptxas: SPILLS somewhere (see build.log)"
fi

# ---- SASS: what the hardware runs, against what the .asm kernels assume --------
if [ -n "$CUOBJDUMP" ]; then
  "$CUOBJDUMP" --dump-sass "$BUILD/gpusim-validate" > "$OUT/sass.txt" 2>&1
  if command -v python3 >/dev/null; then
    python3 validate/sass_summary.py "$OUT/sass.txt" > "$OUT/sass_summary.txt" 2>&1
    grep -E 'EXPECT FAIL|sass_summary:' "$OUT/sass_summary.txt"
  else
    echo "run_device: no python3: SASS dumped but not summarised"
  fi
else
  echo "run_device: cuobjdump not found: no SASS check"
fi

# ---- run ------------------------------------------------------------------------
log "running gpusim-validate"
timeout 420 "$BUILD/gpusim-validate" --out "$OUT/h200.json" "$@" 2>&1 | tee "$OUT/run.log"
rc=${PIPESTATUS[0]}
{
  echo "== nvidia-smi after"
  nvidia-smi --query-gpu=$smi_query --format=csv 2>&1 || true
} >> "$OUT/env.txt"
tail -1 "$OUT/env.txt"
[ -n "$CUOBJDUMP" ] && [ -f "$OUT/sass_summary.txt" ] && grep 'sass_summary:' "$OUT/sass_summary.txt"
log "done: gpusim-validate exit $rc (0 all correct, 1 some variant wrong, 2 no device, 124 timeout)"
exit "$rc"

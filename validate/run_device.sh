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
#
# With --counters first, nothing is timed: each twin runs under Nsight Compute
# (ncu, one call per twin, so a failure loses one twin), every variant's
# correctness launch alone profiled (gpusim-validate --profile), and $OUT gets
#   counters/NAME.json    the twin's records (profile_pid, profile_first: which
#                         of the report's kernels are the variant's)
#   counters/NAME.csv     ncu's raw page of those kernels (--csv --page raw)
#   counters/NAME.log     the runner's and ncu's output
#   ncu.txt               ncu's version, its sections, and which set was used
#   h200-counters.json    `validate/counters.py merge` of them: per variant, its
#                         kernels' metrics (counters.py compare puts them beside
#                         `gpusim compare --json`'s sim_stats)
# COUNTERS_ONLY="twin ..." profiles those twins alone; COUNTERS_BUDGET_S (420)
# is the seconds from the start after which no further twin is begun.
set -uo pipefail
COUNTERS=0
if [ "${1:-}" = "--counters" ]; then COUNTERS=1; shift; fi
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

# ---- counters: every variant's launch under ncu, nothing timed -------------------
if [ "$COUNTERS" = 1 ]; then
  NCU=$(find_tool ncu)
  [ -n "$NCU" ] || { log "ncu not found: no counters"; exit 2; }
  mkdir -p "$OUT/counters"
  { "$NCU" --version; echo "== sections"; "$NCU" --list-sections; } > "$OUT/ncu.txt" 2>&1
  # The clocks as found (METHOD.md); caches flushed before every pass, so each
  # launch starts cold, as the simulator does.
  common=(--target-processes all --profile-from-start off --clock-control none --cache-control all)
  sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis_Chart --section MemoryWorkloadAnalysis_Tables
            --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats
            --section InstructionStats)
  metrics=(--metrics "dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,sm__cycles_elapsed.max")
  # The richest set that ncu takes, tried on one small twin.
  chosen=""
  for set in full sections basic; do
    case $set in
      full) args=("${sections[@]}" "${metrics[@]}") ;;
      sections) args=("${sections[@]}") ;;
      basic) args=(--set basic) ;;
    esac
    if timeout 120 "$NCU" "${common[@]}" "${args[@]}" -f -o "$BUILD/vecadd" "$BUILD/gpusim-validate" --profile \
         --only vecadd --out "$OUT/counters/vecadd.json" > "$OUT/counters/vecadd.log" 2>&1 && [ -s "$BUILD/vecadd.ncu-rep" ]; then
      chosen=$set; break
    fi
    echo "== set $set failed:" >> "$OUT/ncu.txt"; tail -5 "$OUT/counters/vecadd.log" >> "$OUT/ncu.txt"
  done
  [ -n "$chosen" ] || { log "ncu could not profile (ncu.txt)"; tail -20 "$OUT/ncu.txt"; exit 1; }
  echo "== set used: $chosen" >> "$OUT/ncu.txt"
  log "ncu set: $chosen"
  deadline=$(( START + ${COUNTERS_BUDGET_S:-420} ))
  for name in ${COUNTERS_ONLY:-$("$BUILD/gpusim-validate" --list)}; do
    if [ "$(date +%s)" -ge "$deadline" ]; then log "out of time before $name"; echo "skipped: $name" >> "$OUT/ncu.txt"; continue; fi
    if [ "$name" = vecadd ]; then rc=0  # profiled above, with the set that was chosen
    else
      timeout 150 "$NCU" "${common[@]}" "${args[@]}" -f -o "$BUILD/$name" "$BUILD/gpusim-validate" --profile \
        --only "$name" --out "$OUT/counters/$name.json" > "$OUT/counters/$name.log" 2>&1
      rc=$?
    fi
    [ -s "$BUILD/$name.ncu-rep" ] && "$NCU" -i "$BUILD/$name.ncu-rep" --csv --page raw --print-units base > "$OUT/counters/$name.csv" 2>> "$OUT/counters/$name.log"
    log "$name: ncu exit $rc, $(($(wc -l < "$OUT/counters/$name.csv" 2>/dev/null || echo 2) - 2)) kernels"
  done
  if command -v python3 >/dev/null && python3 validate/counters.py merge "$OUT/counters" > "$OUT/h200-counters.json"; then
    log "done: $OUT/h200-counters.json ($(grep -c '"workload"' "$OUT/h200-counters.json") variants)"
  else
    log "done: counters in $OUT/counters (not merged: see above)"
  fi
  exit 0
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

#!/usr/bin/env bash
# validate/probes/run_probes.sh -- builds and runs the calibration probes on
# the GPU machine, in one call. Needs nvcc (PATH, CUDA_HOME or
# /usr/local/cuda), bash and coreutils; cuobjdump and awk are used when
# present (SASS dumps and their summary), python3 is not needed.
#
#   OUT=/some/dir bash validate/probes/run_probes.sh [probe ...]
#
# 1. builds every probe (validate/probes/NAME.cu) with nvcc -O3 -arch=sm_90
#    -lineinfo, all at once in the background;
# 2. dumps each binary's SASS (cuobjdump --dump-sass) to NAME.sass.txt and
#    summarises it in NAME.sass_summary.txt: instructions per kernel by
#    opcode, and for every lat_X_u16 / lat_X_u8 pair the SASS instructions
#    per chain link ((count16 - count8) / 8, chains.h);
# 3. runs the probes one after another (the GPU to itself), each under a
#    timeout (PROBE_TIMEOUT, 90 s) and all within BUDGET (450 s from the
#    start: a probe that would start later is skipped), writing
#    NAME.h200.txt (stdout and stderr; raw per-block records go to raw/);
# 4. writes into $OUT, anew after every probe (a run cut short keeps what it
#    measured), only what can come back from the GPU machine:
#      summary.txt      one line per probe (build, exit status, seconds,
#                       output lines) and the total time
#      probes_all.txt   every NAME.h200.txt, one after another
#      probes_out.tgz   everything: probes/{NAME.h200.txt, NAME.sass.txt,
#                       NAME.sass_summary.txt, NAME.build.log, env.txt,
#                       summary.txt, raw/...}
# The work tree (binaries, unpacked results) is $WORK, outside $OUT.
# Exit status: 0 when every probe built and exited 0, 1 otherwise, 2 when
# nvcc is missing. Expected: ~1 min to build, ~1 min to run.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/gpusim-probes-out}
WORK=${WORK:-${TMPDIR:-/tmp}/gpusim-probes-work}
ARCH=${ARCH:-sm_90}
TAG=${TAG:-h200}
PROBE_TIMEOUT=${PROBE_TIMEOUT:-90}
BUDGET=${BUDGET:-450}
ALL=(residency latency_dist int_div instr_pipes smem mem_path barrier coresidency l2_reuse l2_partition atomics branch async_copy cache_ops
     loaded_latency block_launch dep_issue sched_order heap texture)
if [ $# -gt 0 ]; then PROBES=("$@"); else PROBES=("${ALL[@]}"); fi

START=$(date +%s)
log() { echo "[run_probes +$(( $(date +%s) - START ))s] $*"; }
find_tool() {
  command -v "$1" 2>/dev/null && return
  for d in "${CUDA_HOME:-}" /usr/local/cuda /usr/local/cuda-* /opt/cuda; do
    [ -n "$d" ] && [ -x "$d/bin/$1" ] && { echo "$d/bin/$1"; return; }
  done
}
NVCC=$(find_tool nvcc)
CUOBJDUMP=$(find_tool cuobjdump)
[ -n "$NVCC" ] || { echo "run_probes: nvcc not found (PATH, CUDA_HOME, /usr/local/cuda)"; exit 2; }

R="$WORK/probes"
BIN="$WORK/bin"
rm -rf "$R" "$BIN"
mkdir -p "$OUT" "$R/raw" "$BIN" || exit 2

smi_query=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu,ecc.mode.current,mig.mode.current
{
  echo "== $(date -u +%FT%TZ) $(uname -srm)"
  "$NVCC" --version | tail -2
  echo "== nvidia-smi before"
  nvidia-smi --query-gpu=$smi_query --format=csv 2>&1 || true
} > "$R/env.txt"

# ---- build: every probe at once ---------------------------------------------------
log "building ${#PROBES[@]} probes with $NVCC for $ARCH"
declare -A BPID BUILD
for p in "${PROBES[@]}"; do
  if [ ! -f "$HERE/$p.cu" ]; then BUILD[$p]=missing; continue; fi
  ( timeout 600 "$NVCC" -std=c++17 -O3 -arch="$ARCH" -lineinfo -Xptxas -v "$HERE/$p.cu" -o "$BIN/$p" > "$R/$p.build.log" 2>&1 ) &
  BPID[$p]=$!
done
for p in "${PROBES[@]}"; do
  [ -n "${BPID[$p]:-}" ] || continue
  if wait "${BPID[$p]}"; then BUILD[$p]=ok; else BUILD[$p]=FAILED; fi
done
log "built: $(for p in "${PROBES[@]}"; do printf '%s=%s ' "$p" "${BUILD[$p]}"; done)"

# ---- SASS -----------------------------------------------------------------------------
# One line per kernel: "kernel NAME N op:count ..."; then, for each lat_X_u16 and
# lat_X_u8 pair, "per_link X total op:per-link ..." (NOPs left out).
sass_summary() {
  awk '
    /Function : / { fn = $NF; if (!(fn in seen)) { seen[fn] = 1; order[++nf] = fn } next }
    /^[ \t]*\/\*[0-9a-f][0-9a-f]*\*\// {
      line = $0
      sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line)
      sub(/^@!?U?P[0-9T]+[ \t]+/, "", line)
      n = split(line, w, /[ \t;]+/)
      op = w[1]
      if (op == "" || op == "NOP") next
      cnt[fn]++
      key = fn SUBSEP op
      if (!(key in c)) { ops[fn] = ops[fn] " " op }
      c[key]++
    }
    END {
      for (i = 1; i <= nf; i++) {
        fn = order[i]; s = "kernel " fn " " cnt[fn]
        m = split(ops[fn], o, " ")
        for (j = 1; j <= m; j++) s = s " " o[j] ":" c[fn SUBSEP o[j]]
        print s
      }
      for (i = 1; i <= nf; i++) {
        fn = order[i]
        if (fn !~ /_u16$/) continue
        base = substr(fn, 1, length(fn) - 4); f8 = base "_u8"
        if (!(f8 in cnt)) continue
        s = sprintf("per_link %s %.3g", base, (cnt[fn] - cnt[f8]) / 8)
        m = split(ops[fn] " " ops[f8], o, " ")
        delete done
        for (j = 1; j <= m; j++) {
          if (o[j] in done) continue
          done[o[j]] = 1
          d = (c[fn SUBSEP o[j]] - c[f8 SUBSEP o[j]]) / 8
          if (d != 0) s = s sprintf(" %s:%.3g", o[j], d)
        }
        print s
      }
    }' "$1"
}
# Under each "kernel _Z..." line, its C++ name (when c++filt exists).
demangle() {
  local line name
  while IFS= read -r line; do
    echo "$line"
    if [[ $line == "kernel _Z"* ]] && command -v c++filt > /dev/null; then
      name=${line#kernel }
      echo "#   $(c++filt "${name%% *}")"
    fi
  done
}
if [ -n "$CUOBJDUMP" ]; then
  for p in "${PROBES[@]}"; do
    [ "${BUILD[$p]}" = ok ] || continue
    "$CUOBJDUMP" --dump-sass "$BIN/$p" > "$R/$p.sass.txt" 2>&1 || echo "cuobjdump failed" >> "$R/$p.sass.txt"
    if command -v awk > /dev/null; then
      sass_summary "$R/$p.sass.txt" | demangle > "$R/$p.sass_summary.txt" 2>&1
    fi
  done
  log "SASS dumped$(command -v awk > /dev/null || echo ' (no awk: not summarised)')"
else
  log "no cuobjdump: SASS not dumped"
fi

# ---- run, one after another ------------------------------------------------------------
# After every probe, summary.txt, probes_all.txt and probes_out.tgz in $OUT are
# written anew, so that a run cut short still brings back what it measured;
# no probe starts when less than 10 s of the BUDGET (s, from the start) is left.
declare -A RC SECS LINES
for p in "${PROBES[@]}"; do RC[$p]=-; SECS[$p]=0; LINES[$p]=0; done
pack() {
  local fail=0 p
  {
    echo "run_probes on $(hostname 2>/dev/null || echo ?) at $(date -u +%FT%TZ), $ARCH, timeout ${PROBE_TIMEOUT}s per probe, budget ${BUDGET}s"
    grep -m1 -A1 '^name, driver' "$R/env.txt" | tail -1
    printf '%-16s %-8s %7s %8s %6s\n' probe build exit seconds lines
    for p in "${PROBES[@]}"; do
      printf '%-16s %-8s %7s %8s %6s\n' "$p" "${BUILD[$p]}" "${RC[$p]}" "${SECS[$p]}" "${LINES[$p]}"
      [ "${BUILD[$p]}" = ok ] && [ "${RC[$p]}" = 0 ] || fail=1
    done
    echo "total $(( $(date +%s) - START )) s; $1$( [ "$1" = done ] && { [ $fail = 0 ] && echo ': all probes ran' || echo ': SOME PROBES FAILED'; })"
  } > "$R/summary.txt"
  cp "$R/summary.txt" "$OUT/summary.txt"
  : > "$OUT/probes_all.txt"
  for p in "${PROBES[@]}"; do
    [ -f "$R/$p.$TAG.txt" ] || continue
    { echo "########## $p.$TAG.txt"; cat "$R/$p.$TAG.txt"; echo; } >> "$OUT/probes_all.txt"
  done
  tar -czf "$OUT/probes_out.tgz.tmp" -C "$WORK" probes 2>/dev/null || tar -cf "$OUT/probes_out.tgz.tmp" -C "$WORK" probes
  mv -f "$OUT/probes_out.tgz.tmp" "$OUT/probes_out.tgz"
  return $fail
}
pack "running" || true
for p in "${PROBES[@]}"; do
  [ "${BUILD[$p]}" = ok ] || continue
  left=$(( BUDGET - ($(date +%s) - START) ))
  if [ "$left" -lt 10 ]; then RC[$p]=skipped; log "$p: skipped (budget)"; continue; fi
  t=$PROBE_TIMEOUT; [ "$left" -lt "$t" ] && t=$left
  t0=$(date +%s.%N)
  timeout -k 5 "$t" "$BIN/$p" "$R/raw" > "$R/$p.$TAG.txt" 2>&1
  RC[$p]=$?
  t1=$(date +%s.%N)
  SECS[$p]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }' 2>/dev/null || echo "?")
  LINES[$p]=$(wc -l < "$R/$p.$TAG.txt")
  log "$p: exit ${RC[$p]}, ${SECS[$p]} s, ${LINES[$p]} lines"
  pack "running" || true
done

{
  echo "== nvidia-smi after"
  nvidia-smi --query-gpu=$smi_query --format=csv 2>&1 || true
} >> "$R/env.txt"
pack done
fail=$?
cat "$R/summary.txt"
log "wrote $OUT/summary.txt, $OUT/probes_all.txt, $OUT/probes_out.tgz ($(du -k "$OUT/probes_out.tgz" | cut -f1) KB)"
exit $fail

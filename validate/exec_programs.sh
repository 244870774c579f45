#!/usr/bin/env bash
# validate/exec_programs.sh -- the self-checking programs of tests/exec/ on
# the real GPU, built with nvcc against NVIDIA's runtime: what each checks
# on the simulated device (an early return before __syncthreads, 128-bit
# carries, half atomics, block votes, grid sync ...) must hold on the
# hardware too, or the simulator follows a wrong reading of CUDA. Also dumps
# each program's SASS (cuobjdump) and its summary, for the lowering rows of
# sim/presets/SOURCES.md marked [ASSUME] that name these programs.
# Writes $OUT/exec-programs.txt (one line per program: PASS, FAIL or BUILD)
# and $OUT/exec-sass/NAME.sass.txt. Programs that stop on purpose (stops.cu,
# errors.cu, strict.cu, partial.cu, nosync.cu, bad_free.cu) and those that only run on
# our runtime (args.cu) are left out.
# Usage: OUT=/some/dir bash validate/exec_programs.sh   (needs nvcc and a GPU;
# one nvcc build a program, run one after another). Exit status: 0 all pass, 1 one does
# not, 2 no nvcc.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpusim-validate-out}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT/exec-sass"
NVCC=$(command -v nvcc || { for d in "${CUDA_HOME:-}" /usr/local/cuda; do [ -x "$d/bin/nvcc" ] && echo "$d/bin/nvcc" && break; done; })
[ -n "$NVCC" ] || { echo "exec_programs: nvcc not found (PATH, CUDA_HOME, /usr/local/cuda)"; exit 2; }
CUOBJDUMP=$(dirname "$NVCC")/cuobjdump
SKIP=" stops errors strict partial nosync args bad_free "
BIN=$OUT/exec-bin
mkdir -p "$BIN"
status=0
{
  echo "== $(date -u +%FT%TZ) $("$NVCC" --version | tail -1)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 || true
} > "$OUT/exec-programs.txt"
for src in tests/exec/*.cu; do
  name=$(basename "$src" .cu)
  case "$SKIP" in *" $name "*) continue ;; esac
  # the same flags gpusim exec builds with, for the real GPU's arch
  if ! "$NVCC" -std=c++17 -O3 -arch="$ARCH" -o "$BIN/$name" "$src" > "$BIN/$name.build.log" 2>&1; then
    echo "$name BUILD (see exec-bin/$name.build.log)" >> "$OUT/exec-programs.txt"
    status=1
    continue
  fi
  if [ -x "$CUOBJDUMP" ]; then
    "$CUOBJDUMP" -sass "$BIN/$name" > "$OUT/exec-sass/$name.sass.txt" 2>&1
    command -v python3 >/dev/null &&
      python3 validate/sass_summary.py "$OUT/exec-sass/$name.sass.txt" > "$OUT/exec-sass/$name.summary.txt" 2>&1
  fi
  out=$(cd tests/exec && timeout 120 "$BIN/$name" 2>&1)
  rc=$?
  if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^PASS'; then
    echo "$name PASS" >> "$OUT/exec-programs.txt"
  else
    echo "$name FAIL (exit $rc): $(printf '%s\n' "$out" | tail -3 | tr '\n' ' ')" >> "$OUT/exec-programs.txt"
    status=1
  fi
done
cat "$OUT/exec-programs.txt"
exit $status

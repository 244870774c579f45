#!/usr/bin/env bash
# validate/runtime_errors.sh -- what NVIDIA's runtime returns for the bad
# calls of docs/CUDA.md's error table: builds tests/exec/strict.cu with nvcc
# against NVIDIA's libcudart, runs it on the GPU, and writes its rows to
# $OUT/runtime-errors.txt. Each row that says WRONG is one where CUDA and the
# table (so our runtime) differ: the table is to follow CUDA. Rows that are
# undefined behaviour in CUDA run only on the simulated device.
# Usage: OUT=/some/dir bash validate/runtime_errors.sh   (needs nvcc and a GPU;
# about 20 s). Exit status: 0 every row as the table says, 1 a row differs,
# 2 no nvcc or the build failed.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpusim-validate-out}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT"
NVCC=$(command -v nvcc || { for d in "${CUDA_HOME:-}" /usr/local/cuda; do [ -x "$d/bin/nvcc" ] && echo "$d/bin/nvcc" && break; done; })
[ -n "$NVCC" ] || { echo "runtime_errors: nvcc not found (PATH, CUDA_HOME, /usr/local/cuda)"; exit 2; }
BIN=$OUT/strict
if ! "$NVCC" -std=c++17 -O2 -arch="$ARCH" -o "$BIN" tests/exec/strict.cu > "$OUT/runtime-errors.build.log" 2>&1; then
  cat "$OUT/runtime-errors.build.log"
  echo "runtime_errors: the build failed"
  exit 2
fi
{
  echo "== $(date -u +%FT%TZ) $("$NVCC" --version | tail -1)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 || true
  "$BIN" 2>&1
  echo "exit $?"
} > "$OUT/runtime-errors.txt"
grep -E 'WRONG|^exit' "$OUT/runtime-errors.txt"
grep -q '^exit 0$' "$OUT/runtime-errors.txt"

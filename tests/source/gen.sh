#!/usr/bin/env bash
# tests/source/gen.sh -- regenerates tests/source/transpose.ptx: the
# transpose twin (validate/twins/transpose.cu) as nvcc -O3 -ptx -lineinfo
# -arch=sm_90 writes it, with its .loc lines, for the per-line view of a
# PTX kernel (gpusim run --source, tests/e2e_source.sh) where no CUDA
# toolkit is installed. nvcc records the .cu file's absolute path; it is
# made relative to this folder so that the committed file names no machine.
# Run it after changing the twin: bash tests/source/gen.sh
set -euo pipefail
cd "$(dirname "$0")"
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || { echo "gen.sh: nvcc not found (install the CUDA toolkit)" >&2; exit 2; }
"$nvcc" -O3 -ptx -lineinfo -arch=sm_90 ../../validate/twins/transpose.cu -o transpose.ptx
sed -i -E 's|^(\s*\.file\s+[0-9]+\s+)"[^"]*/validate/twins/transpose.cu"|\1"../../validate/twins/transpose.cu"|' transpose.ptx
grep -q '"../../validate/twins/transpose.cu"' transpose.ptx || { echo "gen.sh: no .file line to rewrite" >&2; exit 1; }
echo "gen.sh: transpose.ptx from $("$nvcc" --version | tail -2 | head -1)"

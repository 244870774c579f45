#!/usr/bin/env bash
# tests/ptx/gen.sh -- regenerates tests/ptx/<twin>.ptx: the PTX that nvcc
# makes of every CUDA twin in validate/twins/ (nvcc -O3 -ptx -arch=sm_90,
# no -lineinfo so that no build path is recorded), committed so that the
# PTX front end is tested on real nvcc output where no CUDA toolkit is
# installed. Run it after changing a twin: bash tests/ptx/gen.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || { echo "gen.sh: nvcc not found (install the CUDA toolkit)" >&2; exit 2; }
for cu in validate/twins/*.cu; do
    name=$(basename "$cu" .cu)
    "$nvcc" -O3 -ptx -arch=sm_90 "$cu" -o "tests/ptx/$name.ptx"
done
echo "gen.sh: $(ls tests/ptx/*.ptx | wc -l) PTX files from $("$nvcc" --version | tail -2 | head -1)"

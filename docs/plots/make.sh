#!/usr/bin/env bash
# docs/plots/make.sh -- draws the pictures of docs/SWEEPS.md and
# workloads/README.md again from this build (a Release build with PLplot):
# three sweeps and a roofline. Deterministic: the same build draws the
# same pictures. Run it from anywhere after a change that moves the
# simulated numbers, and commit the images with it.
# usage: docs/plots/make.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/../.."
GPUSIM=${1:-build}/gpusim
out=docs/plots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# docs/SWEEPS.md: which transposes the DRAM bandwidth speeds up
"$GPUSIM" sweep workloads/transpose.json --set dram.bandwidth_gbs=500:4000:500 \
    --plot $out/transpose_dram_bandwidth.png --x dram.bandwidth_gbs --y time_us --out "$tmp/a.jsonl"

# docs/SWEEPS.md: the SMs a transpose of 1024 x 1024 can use, per variant
"$GPUSIM" sweep workloads/transpose.json --set sm.count=16:128:16 \
    --plot $out/transpose_sm_count.png --x sm.count --y cycles --out "$tmp/b.jsonl"

# workloads/README.md, "Sweeping the launch shape": the block size of a vector add
"$GPUSIM" sweep workloads/examples/vecadd_block.json --launch block=32:1024:*2 --gpu a100,h100 \
    --plot $out/vecadd_block.png --x block --y cycles --out "$tmp/c.jsonl"

# docs/SWEEPS.md: the roofline of an RMSNorm and its residual add
"$GPUSIM" run workloads/rmsnorm.json --roofline $out/roofline_rmsnorm.png >/dev/null

ls -l $out/*.png

#!/usr/bin/env bash
# docs/viz/make.sh -- draws the pictures of docs/VISUALIZER.md again with
# this build's gpusim-viz (headless snapshots; deterministic). Run it after
# a change to what the visualizer draws, look at them, and commit them.
# usage: docs/viz/make.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/../.."
VIZ=${1:-build}/viz/gpusim-viz
out=docs/viz
T="workloads/transpose.json --param n=512"
D="workloads/divergence.json --param n=110592 --param iters=20"
# shellcheck disable=SC2086 # T and D are a file and its options
{
    "$VIZ" $T --variant tiled --at shared-load --snapshot $out/overview.png
    "$VIZ" $T --variant tiled --at shared-load --panel shared --snapshot $out/bank_tiled.png
    "$VIZ" $T --variant tiled_padded --at shared-load --panel shared --snapshot $out/bank_tiled_padded.png
    "$VIZ" $D --variant divergent --at-cycle 400 --panel sm --snapshot $out/masks_divergent.png
    "$VIZ" $D --variant uniform --at-cycle 400 --panel sm --snapshot $out/masks_uniform.png
} >/dev/null
ls -l $out/*.png

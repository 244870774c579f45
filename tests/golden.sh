#!/usr/bin/env bash
# tests/golden.sh -- pins what gpusim prints: every shipped workload's text
# report, --json and --csv on the default GPU, --json on the h200, the
# disassembly of every shipped kernel, the preset list and one preset, and
# a Chrome trace, and the --source view of a mini-ISA and a PTX kernel.
# Host-time fields are blanked (they vary run to run); all
# else must match tests/golden/ byte for byte, so a change that moves a
# simulated number or a printed word shows up here and must say why.
# usage: golden.sh GPUSIM SOURCE_DIR [--update]
#   --update rewrites tests/golden/ from this build (after a model change
#   that explains the difference in its commit message).
set -u
GPUSIM=$(realpath "$1")
cd "$2" || exit 2
UPDATE=${3:-}
. tests/e2e_lib.sh

# Blank the host-time parts: the text footer, and the JSON sim object's
# wall_seconds / warp_insts_per_sec.
host_free_text() { sed -E 's/^simulated ([0-9]+) warp instructions in .*/simulated \1 warp instructions in (host time)/'; }
host_free_json() { sed -E 's/"wall_seconds": [^,]*,/"wall_seconds": 0,/; s/"warp_insts_per_sec": [^}]*}/"warp_insts_per_sec": 0}/'; }

mkdir -p "$TMP/out"
for w in workloads/*.json; do
    case $w in *schema*) continue ;; esac
    n=$(basename "$w" .json)
    "$GPUSIM" run "$w" 2>/dev/null | host_free_text >"$TMP/out/$n.txt"
    "$GPUSIM" run "$w" --json 2>/dev/null | host_free_json >"$TMP/out/$n.json"
    "$GPUSIM" run "$w" --csv 2>/dev/null >"$TMP/out/$n.csv"
    "$GPUSIM" run "$w" --gpu h200 --json 2>/dev/null | host_free_json >"$TMP/out/$n.h200.json"
done
for k in workloads/kernels/*.asm; do
    "$GPUSIM" asm "$k" >"$TMP/out/asm_$(basename "$k" .asm).txt" 2>&1
done
"$GPUSIM" gpus >"$TMP/out/gpus.txt" 2>&1
"$GPUSIM" gpus h200 >"$TMP/out/gpus_h200.json" 2>&1
"$GPUSIM" run workloads/transpose.json --param n=64 --variant tiled --trace "$TMP/trace.json" >/dev/null 2>&1
cp "$TMP/trace.json" "$TMP/out/trace_transpose_tiled_n64.json"
# the per-instruction view: a mini-ISA kernel, and a PTX one with .loc lines
"$GPUSIM" run workloads/transpose.json --param n=256 --variant tiled --source 2>/dev/null | host_free_text >"$TMP/out/source_transpose_tiled_n256.txt"
"$GPUSIM" run workloads/transpose.json --param n=256 --variant tiled --source --json 2>/dev/null | host_free_json >"$TMP/out/source_transpose_tiled_n256.json"
"$GPUSIM" run tests/source/transpose.json --variant tiled --source 2>/dev/null | host_free_text >"$TMP/out/source_ptx_transpose_tiled.txt"

if [ "$UPDATE" = --update ]; then
    rm -f tests/golden/*
    cp "$TMP"/out/* tests/golden/
    echo "tests/golden/ rewritten: $(ls tests/golden | wc -l) files"
    exit 0
fi
for f in "$TMP"/out/*; do
    g=tests/golden/$(basename "$f")
    if [ ! -f "$g" ]; then
        bad "$(basename "$f"): no golden file (run tests/golden.sh GPUSIM . --update)"
    elif cmp -s "$f" "$g"; then
        ok
    else
        bad "$(basename "$f") differs from $g" "$(diff "$g" "$f" | head -8)"
    fi
done
for g in tests/golden/*; do
    [ -f "$TMP/out/$(basename "$g")" ] || bad "$(basename "$g"): golden file that this run no longer makes"
done
e2e_finish

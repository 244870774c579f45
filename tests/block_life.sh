#!/usr/bin/env bash
# tests/block_life.sh -- the simulated block lifetimes validate/RESULTS.md
# sets beside the H200's (probes/residency.cu): light_256 and light_1024 of
# the occupancy workload on the h200 preset at the measured record's size,
# through validate/block_life.py. RESULTS.md must quote these lines as
# printed, so a model change that moves them says so there.
# usage: block_life.sh GPUSIM SOURCE_DIR
set -u
GPUSIM=$(realpath "$1")
cd "$2" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for v in light_256 light_1024; do
    if ! "$GPUSIM" run workloads/occupancy.json --gpu h200 --variant "$v" --param n=16777216 \
        --trace "$tmp/$v.json" >/dev/null; then
        echo "FAIL: gpusim run occupancy/$v"
        exit 1
    fi
    lines=$(python3 validate/block_life.py "$tmp/$v.json" "occupancy/$v") || { echo "FAIL: block_life.py on $v"; exit 1; }
    while IFS= read -r line; do
        echo "$line"
        if ! grep -qxF -- "$line" validate/RESULTS.md; then
            echo "FAIL: validate/RESULTS.md does not quote this line as printed (paste it there)"
            exit 1
        fi
    done <<<"$lines"
    rm -f "$tmp/$v.json"
done
echo "block lifetimes: as RESULTS.md quotes them"

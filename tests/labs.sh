#!/usr/bin/env bash
# tests/labs.sh -- every lab of docs/labs/ run and checked (tests/labs.py):
# its commands run, its claims (`Check:` lines, each with the tolerance the
# lab states) hold, and the numbers and outputs it quotes are what the
# simulator prints now.
# usage: labs.sh GPUSIM SOURCE_DIR [GPUSIM_VIZ] [--update | --pictures] [LAB.md...]
#   --update    rewrite the quoted numbers and outputs after a model change
#   --pictures  also write the lab pictures (docs/labs/make_pictures.sh)
# Without GPUSIM_VIZ (no SDL2) the snapshot commands and their claims are
# skipped with a message. Needs bash and python3.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 GPUSIM SOURCE_DIR [GPUSIM_VIZ] [--update | --pictures] [LAB.md...]" >&2
    exit 2
fi
GPUSIM=$1
SRC=$2
shift 2
VIZ=
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ] && [ "${1%.md}" = "$1" ]; then
    VIZ=$1
    shift
fi
# The labs' own workloads are correct kernels on every kind of machine, at
# sizes that are not multiples of a block, with FMA counts that use the
# unrolled loop, its tail, or both.
if [ $# -eq 0 ]; then
    fails=0
    for gpu in t4 h100 b200; do
        for spec in "intensity.json --param n=5003" "occupancy_compute.json --param n=5003 --param iters=7" \
            "warp_granularity.json --param n=5003" "wave_table.json --param n=3" \
            "occupancy_sweep.json --param n=5003 --param regs=255"; do
            # shellcheck disable=SC2086 # spec is a file and its options
            if ! out=$("$GPUSIM" run "$SRC"/workloads/labs/$spec --gpu "$gpu" 2>&1); then
                echo "FAIL: gpusim run workloads/labs/$spec --gpu $gpu"
                printf '%s\n' "$out" | grep -E 'fail|error' | head -3 | sed 's/^/      /'
                fails=$((fails + 1))
            fi
        done
    done
    echo "lab workloads on t4, h100, b200: $fails failed"
    [ "$fails" -eq 0 ] || exit 1
fi
exec python3 "$SRC/tests/labs.py" --gpusim "$GPUSIM" --viz "$VIZ" --source "$SRC" "$@"

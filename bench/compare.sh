#!/usr/bin/env bash
# bench/compare.sh OLD_REV [--rounds N] [--case NAME] [--callgrind] [--threads N]
#
# Simulator speed of the working tree against revision OLD_REV, measured side
# by side in one run: both are built (Release) in a temporary folder, then
# each round runs every gpusim-bench case once with the old build and once
# with the new, the order alternating between rounds so that a change in the
# host's load falls on both. Prints, per case, the medians over the rounds of
# simulated warp instructions per CPU second and per wall second for each
# side, their ratios (new / old), and the peak RSS of each side.
#
# CPU seconds are the headline: on a shared host the wall time includes the
# time other processes held the core (+-30% between identical runs here);
# the CPU time moves far less. --callgrind adds host instructions per warp
# instruction of each case (gpusim-bench --small under callgrind, counting
# inside gpu_simulate only), which do not depend on the load at all.
#
# Both sides are measured by the working tree's bench/bench.c (copied over
# OLD_REV's), so the two columns come from the same harness; it uses only
# gpusim's public headers. Set GPUSIM_COMPARE_OWN_BENCH=1 to keep OLD_REV's
# (for a revision whose headers today's bench.c does not build against; a
# bench from before CPU time and RSS were printed is read too, with those
# columns "-": bench/compare_report.py prints the table).
# The simulated warp-instruction counts of the two sides must agree (the
# bench launches are the same): a difference is reported and fails the run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=5 only="" callgrind=0 extra=()
old=${1:?usage: bench/compare.sh OLD_REV [--rounds N] [--case NAME] [--callgrind] [--threads N]}
shift
while [ $# -gt 0 ]; do
    case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --case) only=$2; shift 2 ;;
        --callgrind) callgrind=1; shift ;;
        --threads) extra=(--threads "$2"); shift 2 ;;
        *) echo "bench/compare.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusim-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/old" "$tmp/new"
git -C "$here" archive "$old" | tar -x -C "$tmp/old"
# The working tree as it is now (tracked and untracked, not ignored files):
# later edits do not reach the measurement.
# One tar reads the whole list (xargs would split a long list among several
# tars, whose archives the reader stops after the first of).
(cd "$here" && git ls-files -z -c -o --exclude-standard | tar -c --null -T -) | tar -x -C "$tmp/new"
if [ "${GPUSIM_COMPARE_COPY_ONLY:-0}" = 1 ]; then # tests/extra.cmake: the copy alone
    want=$(cd "$here" && git ls-files -c -o --exclude-standard | wc -l)
    got=$(cd "$tmp/new" && find . -type f | wc -l)
    echo "copied $got of $want files"
    [ "$got" = "$want" ]
    exit
fi
[ "${GPUSIM_COMPARE_OWN_BENCH:-0}" = 1 ] || cp "$tmp/new/bench/bench.c" "$tmp/old/bench/bench.c"
for side in old new; do
    echo "building $side ..." >&2
    cmake -S "$tmp/$side" -B "$tmp/$side/build" -DCMAKE_BUILD_TYPE=Release -DGPUSIM_VALIDATE=OFF >"$tmp/$side.log" 2>&1 &&
        cmake --build "$tmp/$side/build" -j2 --target gpusim-bench >>"$tmp/$side.log" 2>&1 ||
        { tail -20 "$tmp/$side.log" >&2; echo "bench/compare.sh: building $side failed" >&2
          [ $side = old ] && [ "${GPUSIM_COMPARE_OWN_BENCH:-0}" != 1 ] &&
              echo "bench/compare.sh: (if today's bench.c does not build against $old, GPUSIM_COMPARE_OWN_BENCH=1 keeps its own)" >&2
          exit 2; }
done
bench_old="$tmp/old/build/bench/gpusim-bench" bench_new="$tmp/new/build/bench/gpusim-bench"
extra_old=()
# A --threads option reaches the new side only when the old bench lacks it.
if [ ${#extra[@]} -gt 0 ]; then "$bench_old" --help | grep -q -- --threads && extra_old=("${extra[@]}"); fi
mapfile -t cases < <("$bench_new" --list)
[ -n "$only" ] && cases=("$only")
: >"$tmp/runs"
for ((r = 1; r <= rounds; r++)); do
    echo "round $r/$rounds (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    for c in "${cases[@]}"; do
        if ((r % 2)); then order="old new"; else order="new old"; fi
        for side in $order; do
            if [ $side = old ]; then b=$bench_old; x=("${extra_old[@]}"); else b=$bench_new; x=("${extra[@]}"); fi
            "$b" --repeat 1 --case "$c" ${x[@]+"${x[@]}"} | tail -n +2 | sed "s/^/$side\t/" >>"$tmp/runs"
        done
    done
done
if [ $callgrind = 1 ]; then
    : >"$tmp/ir"
    for c in "${cases[@]}"; do
        for side in old new; do
            if [ $side = old ]; then b=$bench_old; else b=$bench_new; fi
            echo "callgrind $side: $c" >&2
            (cd "$tmp" && rm -f callgrind.out.* &&
                valgrind --tool=callgrind --toggle-collect=gpu_simulate "$b" --repeat 1 --small --case "$c" >"$tmp/cg.txt" 2>"$tmp/cg.err")
            ir=$(grep -h '^summary:' "$tmp"/callgrind.out.* | awk '{s += $2} END {printf "%.0f\n", s}')
            insts=$(tail -n +2 "$tmp/cg.txt" | awk '{print $(NF-7)}')
            printf '%s\t%s\t%s\t%s\n' "$side" "$c" "$ir" "$insts" >>"$tmp/ir"
        done
    done
fi
python3 "$here/bench/compare_report.py" "$tmp/runs" "$old" "$callgrind" "$tmp/ir"

#!/usr/bin/env bash
# bench/scaling.sh -- how one launch scales over host threads (--threads N):
# runs gpusim-bench's cases at each thread count, interleaved (every count of
# a round before the next round, so drift on the host spreads over all of
# them), and prints per case and count the median wall seconds, warp
# instructions per wall second, the speed-up over one thread and peak RSS.
# usage: scaling.sh GPUSIM_BENCH [--threads "1 2 4"] [--rounds N] [--case NAME]...
#   --threads  the counts to run (default: 1, 2, 4, ... up to the host's cores)
#   --rounds   runs per case and count; the median is quoted (default 3)
#   --case     a bench case (repeatable; default: the 108-SM vector add and
#              transpose cases and one compute-bound case)
set -euo pipefail
BENCH=${1:?usage: scaling.sh GPUSIM_BENCH [--threads LIST] [--rounds N] [--case NAME]...}
shift
cores=$(nproc)
threads=""
for ((t = 1; t <= cores; t *= 2)); do threads="$threads $t"; done
[ $((cores & (cores - 1))) = 0 ] || threads="$threads $cores"
rounds=3
cases=()
while [ $# -gt 0 ]; do
    case $1 in
        --threads) threads=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --case) cases+=("$2"); shift 2 ;;
        *) echo "scaling.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
[ ${#cases[@]} -gt 0 ] || cases=(vecadd/scalar transpose/copy transpose/tiled_padded divergence/uniform)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "# host: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
echo "# threads: $threads; rounds: $rounds (median quoted)"
for ((r = 1; r <= rounds; r++)); do
    for c in "${cases[@]}"; do
        for t in $threads; do
            # The last line is the case's row; from its end: ... median min max cpu Minst/s Minst/cpu RSS.
            "$BENCH" --case "$c" --threads "$t" --repeat 1 | tail -1 |
                awk -v c="$c" -v t="$t" '{ print c "\t" t "\t" $(NF-6) "\t" $(NF-2) "\t" $NF }' >>"$TMP/rows"
        done
    done
    echo "# round $r of $rounds done" >&2
done

printf '%-24s %7s %9s %9s %8s %8s\n' case threads median_s Minst/s speedup RSS_MiB
for c in "${cases[@]}"; do
    base=""
    for t in $threads; do
        # median over rounds of wall seconds; Minst/s and RSS from the same row.
        row=$(awk -F'\t' -v c="$c" -v t="$t" '$1 == c && $2 == t' "$TMP/rows" | sort -t$'\t' -k3,3g |
              awk -v n="$rounds" 'NR == int((n + 1) / 2)')
        med=$(echo "$row" | cut -f3)
        [ -n "$base" ] || base=$med
        printf '%-24s %7s %9s %9s %8s %8s\n' "$c" "$t" "$med" "$(echo "$row" | cut -f4)" \
            "$(awk -v b="$base" -v m="$med" 'BEGIN { printf "%.2f", b / m }')" "$(echo "$row" | cut -f5)"
    done
done

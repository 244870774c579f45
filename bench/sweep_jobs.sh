#!/usr/bin/env bash
# bench/sweep_jobs.sh -- how much faster `gpusim sweep --jobs 2` is than
# `--jobs 1` on a 24-point sweep (4 SM counts x 3 DRAM bandwidths x 2 sizes
# of workloads/transpose.json, 96 runs): ROUNDS rounds of --jobs 1 then
# --jobs 2, each round's wall and CPU seconds, the load average before it,
# and the median ratio with its spread. Also checks that both write the
# same bytes. A shared host inflates wall times: read the load column.
# usage: bench/sweep_jobs.sh [BUILD_DIR [ROUNDS [JOBS]]]   (default: build 3 2)
set -euo pipefail
cd "$(dirname "$0")/.."
GPUSIM=${1:-build}/gpusim
rounds=${2:-3}
jobs=${3:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2054 # the commas are gpusim's value lists
S=(sweep workloads/transpose.json --set sm.count=16,32,64,128 --set dram.bandwidth_gbs=1000,2000,4000 --param n=512,1024)

echo "host: $(nproc) cores; ${S[*]}"
printf '%-5s %-8s %9s %9s %10s\n' round jobs wall_s cpu_s load_1min
ratios=()
for r in $(seq 1 "$rounds"); do
    for j in 1 "$jobs"; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$GPUSIM" "${S[@]}" --jobs "$j" --out "$tmp/j$j.$r.jsonl" 2>/dev/null
        read -r wall user sys <"$tmp/time"
        printf '%-5s %-8s %9.2f %9.2f %10s\n' "$r" "$j" "$wall" "$(awk "BEGIN { print $user + $sys }")" "$load"
        eval "wall$j=$wall"
    done
    cmp -s "$tmp/j1.$r.jsonl" "$tmp/j$jobs.$r.jsonl" || { echo "--jobs 1 and --jobs $jobs wrote different lines" >&2; exit 1; }
    ratios+=("$(awk "BEGIN { printf \"%.3f\", $(eval echo "\$wall$jobs") / $wall1 }")")
done
sorted=$(printf '%s\n' "${ratios[@]}" | sort -n)
echo "wall(--jobs $jobs) / wall(--jobs 1) per round: ${ratios[*]}"
echo "median $(echo "$sorted" | sed -n "$(((rounds + 1) / 2))p"), min $(echo "$sorted" | head -n 1), max $(echo "$sorted" | tail -n 1)"

#!/usr/bin/env bash
# tests/floors_calls.sh BUILD_DIR -- no floor calls up. The include roots
# (CMakeLists.txt) stop a lower floor from including a higher floor's
# header; a hand-written prototype would still link, so this reads the
# floors' static libraries with nm: a symbol that an object of floor F uses
# but does not define must be defined in F or a floor below it, never only
# in one above. Prints each call up as "floor: object uses symbol (defined
# in floor)" and fails on any.
set -u
build=${1:?usage: floors_calls.sh BUILD_DIR}
floors=(base isa sim workloads clilib)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "${floors[@]}"; do
    lib="$build/libgpusim_$f.a"
    [ -f "$lib" ] || { echo "floors_calls: $lib not found (build first)"; exit 2; }
    nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/$f.def"
done

bad=0
for i in "${!floors[@]}"; do
    f=${floors[$i]}
    # what floor f and those below define
    : > "$tmp/below"
    for j in $(seq 0 "$i"); do cat "$tmp/${floors[$j]}.def" >> "$tmp/below"; done
    # each object's undefined symbols, as "object symbol"
    nm -u -A "$build/libgpusim_$f.a" 2>/dev/null | awk '{ n = split($1, p, ":"); print p[n-1], $NF }' > "$tmp/uses"
    for j in $(seq $((i + 1)) $((${#floors[@]} - 1))); do
        up=${floors[$j]}
        # used here, defined up there, and not defined here or below
        found=$(awk -v up="floor $f" -v where="$up" 'FILENAME == ARGV[1] { below[$1] = 1; next }
                    FILENAME == ARGV[2] { above[$1] = 1; next }
                    ($2 in above) && !($2 in below) { print up ": " $1 " uses " $2 " (defined in floor " where ")" }' \
                    "$tmp/below" "$tmp/$up.def" "$tmp/uses")
        if [ -n "$found" ]; then
            echo "$found"
            bad=1
        fi
    done
done
n=$(cat "$tmp"/*.def | wc -l)
[ "$bad" = 0 ] && echo "floors_calls: no call up among ${#floors[@]} floors ($n symbols defined)"
exit "$bad"

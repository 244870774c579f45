#!/usr/bin/env bash
# tests/bench_scaling.sh -- bench/scaling.sh prints one row per case and
# thread count, the first count's speed-up 1.00, and refuses what it does
# not know. usage: bench_scaling.sh GPUSIM_BENCH SOURCE_DIR
set -u
BENCH=$(realpath "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh

bash bench/scaling.sh "$BENCH" --threads "1 2" --rounds 1 --case divergence/uniform >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && ok || bad "scaling.sh exited $rc" "$(head -3 "$TMP/err")"
rows=$(grep -c '^divergence/uniform ' "$TMP/out")
[ "$rows" = 2 ] && ok || bad "want 2 rows for divergence/uniform, got $rows" "$(cat "$TMP/out")"
awk '$1 == "divergence/uniform" && $2 == 1 { exit !($5 == "1.00" && $3 > 0 && $4 > 0) }' "$TMP/out" &&
    ok || bad "one thread's row is not speed-up 1.00 with a time and a rate" "$(grep '^divergence' "$TMP/out")"
awk '$1 == "divergence/uniform" && $2 == 2 { exit !($5 > 0) }' "$TMP/out" && ok || bad "two threads' row has no speed-up"
grep -q '^# round 1 of 1 done' "$TMP/err" && ok || bad "no progress line on stderr"

bash bench/scaling.sh "$BENCH" --frobnicate >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" = 2 ] && [ "$(head -1 "$TMP/err")" = "scaling.sh: unknown argument '--frobnicate'" ] &&
    ok || bad "an unknown argument: exit $rc" "$(head -1 "$TMP/err")"
e2e_finish

#!/usr/bin/env bash
# tests/bench_compare_report.sh -- bench/compare_report.py (bench/compare.sh's
# table) reads today's gpusim-bench rows and an old revision's (no CPU time,
# no RSS), says which counts differ, and refuses a row of neither layout.
# usage: bench_compare_report.sh SOURCE_DIR
set -u
cd "$1" || exit 2
. tests/e2e_lib.sh
R=bench/compare_report.py
T=$'\t'
new_row() { echo "new${T}$1                memory         1000     $2     $2     $2     $2       1.00       1.00     40.0"; }

{ new_row vecadd/scalar 0.500; new_row vecadd/scalar 0.400; new_row vecadd/scalar 0.600
  echo "old${T}vecadd/scalar            memory         1000     1.000     1.000     1.000     1.000       1.00       1.00     50.0"
} >"$TMP/runs"
python3 $R "$TMP/runs" abc123 0 - >"$TMP/out" 2>"$TMP/err" && ok || bad "today's layout: exit $?" "$(cat "$TMP/err")"
row=$(grep '^vecadd/scalar ' "$TMP/out")
[ "$(echo $row)" = "vecadd/scalar 0.00 0.00 2.00 0.00 0.00 2.00 50.0M 40.0M" ] && ok || bad "today's layout: row" "$row"

{ new_row "divergence/uniform (ptx)" 0.250
  echo "old${T}divergence/uniform (ptx)  compute        1000     0.500     0.500     0.500       0.00"
} >"$TMP/runs"
python3 $R "$TMP/runs" abc123 0 - >"$TMP/out" 2>"$TMP/err" && ok || bad "the old layout: exit $?" "$(cat "$TMP/err")"
row=$(grep '^divergence/uniform (ptx) ' "$TMP/out")
[ "$(echo $row)" = "divergence/uniform (ptx) - 0.00 - 0.00 0.00 2.00 - 40.0M" ] && ok || bad "the old layout: row" "$row"

# the shared kind (gemm/tiled) is a row too
{ echo "new${T}gemm/tiled  shared  1000  0.500  0.500  0.500  0.500  2.00  2.00  26.5"
  echo "old${T}gemm/tiled  shared  1000  1.000  1.000  1.000  1.000  1.00  1.00  26.5"; } >"$TMP/runs"
python3 $R "$TMP/runs" abc123 0 - >"$TMP/out" 2>"$TMP/err" && ok || bad "the shared kind: exit $?" "$(cat "$TMP/err")"
grep -q '^gemm/tiled ' "$TMP/out" && ok || bad "the shared kind: no row" "$(cat "$TMP/out")"

{ new_row transpose/copy 0.5; echo "old${T}transpose/copy  memory  999  0.5  0.5  0.5  0.00"; } >"$TMP/runs"
python3 $R "$TMP/runs" abc123 0 - >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && grep -q "^DIFFERENT warp-instruction counts for transpose/copy" "$TMP/out" &&
    ok || bad "different counts: exit $rc" "$(tail -1 "$TMP/out")"

printf 'old\tcase  memory  12  three\n' >"$TMP/runs"
python3 $R "$TMP/runs" abc123 0 - >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 2 ] && [ "$(head -1 "$TMP/err")" = "compare_report.py: $TMP/runs:1: not a gpusim-bench row of either layout: 'case  memory  12  three'" ] &&
    ok || bad "a row of neither layout: exit $rc" "$(head -1 "$TMP/err")"
e2e_finish

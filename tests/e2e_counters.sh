#!/usr/bin/env bash
# tests/e2e_counters.sh -- validate/counters.py on the synthetic inputs of
# tests/counters/ (README there): merge maps each variant to its kernels by
# process and order, leaves out what was not profiled, and refuses a table
# it cannot read; compare puts the measured metrics beside
# `gpusim compare --json`'s sim_stats, adding a variant's launches for .sum
# metrics only.
# usage: e2e_counters.sh GPUSIM SOURCE_DIR
# Prints one line per failure and a final "N passed, M failed"; exits 1 on any.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 GPUSIM SOURCE_DIR" >&2
    exit 2
fi
GPUSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh
C="python3 validate/counters.py"

# merge
$C merge tests/counters/dir > "$TMP/c.json" 2> "$TMP/err" && ok || bad "merge exited $?" "$(head -3 "$TMP/err")"
got=$(python3 -c "
import json
d = json.load(open('$TMP/c.json'))
print(d['schema'], ';'.join(v['workload'] + '/' + v['variant'] + ':' + ','.join(k['name'] for k in v['kernels']) for v in d['variants']))")
want="gpusim-counters/1 reduction_two_pass/two_pass:partial,finish;vecadd/scalar:vecadd;vecadd/float4:vecadd4"
[ "$got" = "$want" ] && ok || bad "merge's variants and kernels" "got  $got" "want $want"
grep -qx 'counters.py: tests/counters/dir/reduction_two_pass.json: variants\[0\]: not profiled (a failed launch); left out' "$TMP/err" &&
    ok || bad "merge should say which record it left out" "$(cat "$TMP/err")"
v=$(python3 -c "import json; print(json.load(open('$TMP/c.json'))['variants'][1]['kernels'][0]['metrics']['dram__bytes_read.sum'])")
[ "$v" = "134217728.0" ] && ok || bad "a grouped figure (134,217,728) read as $v"

# merge: bad input
$C merge tests/counters/bad > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && [ "$(head -1 "$TMP/err")" = 'counters.py: tests/counters/bad/vecadd.csv: no header row starting with "ID" (is it ncu --csv --page raw?)' ] &&
    ok || bad "merge of a table with no header: exit $rc" "$(head -1 "$TMP/err")"
$C merge "$TMP/none" > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^counters.py: " "$TMP/err" && ok || bad "merge of a missing folder: exit $rc" "$(head -1 "$TMP/err")"
mkdir "$TMP/short" && cp tests/counters/dir/vecadd.json "$TMP/short/" && head -4 tests/counters/dir/vecadd.csv > "$TMP/short/vecadd.csv"
$C merge "$TMP/short" > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && [ "$(head -1 "$TMP/err")" = "counters.py: $TMP/short/vecadd.json: variants[0]: kernels 0..0 of process 4242 are not all in $TMP/short/vecadd.csv (0 there)" ] &&
    ok || bad "merge with a variant's kernel missing: exit $rc" "$(head -1 "$TMP/err")"

# compare against the simulator's own figures
"$GPUSIM" compare validate/results/h200.json --only vecadd --json > "$TMP/pairs.json" 2> "$TMP/err" &&
    ok || bad "gpusim compare --json exited $?" "$(head -3 "$TMP/err")"
$C compare "$TMP/c.json" "$TMP/pairs.json" > "$TMP/out" 2> "$TMP/err" && ok || bad "compare exited $?" "$(head -3 "$TMP/err")"
line=$(grep -E '^vecadd +scalar +dram__bytes_read.sum ' "$TMP/out" | awk '{print $4, $5, $6}')
[ "$line" = "1.34218e+08 1.34218e+08 1.000" ] && ok || bad "vecadd scalar dram reads: '$line'" "$(cat "$TMP/out")"
grep -qE '^reduction_two_pass +two_pass +\(not simulated\)$' "$TMP/out" && ok || bad "a variant with no pair should say so"
# a variant of two launches: .sum metrics added, a hit rate left out
$C compare "$TMP/c.json" tests/counters/pairs.json > "$TMP/out2" 2> "$TMP/err" && ok || bad "compare (pairs.json) exited $?"
line=$(grep -E '^reduction_two_pass +two_pass +dram__bytes_read.sum ' "$TMP/out2" | awk '{print $4, $5, $6}')
[ "$line" = "1.0041e+06 1.00205e+06 0.998" ] && ok || bad "two launches' dram reads: '$line'" "$(cat "$TMP/out2")"
grep -q 'lts__t_sector_hit_rate' "$TMP/out2" && bad "a hit rate of two launches should be left out" || ok
# a gzipped counters file (as committed under validate/results) reads the same
gzip -c "$TMP/c.json" > "$TMP/c.json.gz"
$C compare "$TMP/c.json.gz" tests/counters/pairs.json > "$TMP/out3" 2> "$TMP/err" && cmp -s "$TMP/out2" "$TMP/out3" &&
    ok || bad "compare of the gzipped counters differs" "$(head -3 "$TMP/err")"
$C compare "$TMP/c.json" "$TMP/c.json" > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && [ "$(head -1 "$TMP/err")" = "counters.py: $TMP/c.json: no \"pairs\" (is it gpusim compare --json?)" ] &&
    ok || bad "compare with a counters file for pairs: exit $rc" "$(head -1 "$TMP/err")"
e2e_finish

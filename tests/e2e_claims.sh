#!/usr/bin/env bash
# tests/e2e_claims.sh -- the lessons' sentences hold: every shipped workload
# carries claims (workloads/README.md, "Claims") and gpusim run, as shipped,
# finds all of them true; a false claim is a failed check (exit 1) that names
# the sentence; a claim that does not quote its description, or names no
# variant, is bad input (exit 2). A model change that breaks a lesson's
# sentence fails here with the sentence it broke.
# usage: e2e_claims.sh GPUSIM SOURCE_DIR
set -u
GPUSIM=$(realpath "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh

for w in workloads/*.json; do
    case $w in *schema*) continue ;; esac
    n=$(basename "$w" .json)
    "$GPUSIM" run "$w" >"$TMP/$n.txt" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        bad "$n: exit $rc" "$(grep -E '^claim failed|^  [a-z_0-9]+: ' "$TMP/$n.txt" | head -8)"
    elif ! grep -qE '^claims of the description: [0-9]+ checked, all hold$' "$TMP/$n.txt"; then
        bad "$n: no claims checked"
    else
        ok
    fi
done

# a false claim: exit 1, the sentence named; with --param no claim is checked
python3 - "$TMP" <<'PY'
import json, os, sys
d = json.load(open('workloads/vecadd.json'))
d['params'] = {'n': 4096}
d['kernels'] = os.path.abspath('workloads/kernels/vecadd.asm')
d['claims'] = [{"says": "so both variants are memory-bound", "variant": "float4", "over": "scalar", "min": 2}]
json.dump(d, open(sys.argv[1] + '/false_claim.json', 'w'))
d['claims'] = [{"says": "a sentence the description lacks", "variant": "float4", "min": 0}]
json.dump(d, open(sys.argv[1] + '/bad_says.json', 'w'))
d['claims'] = [{"says": "so both variants are memory-bound", "variant": "float8", "min": 0}]
json.dump(d, open(sys.argv[1] + '/bad_variant.json', 'w'))
d['claims'] = [{"says": "so both variants are memory-bound", "variant": "float4", "min": 0, "bound": 1}]
json.dump(d, open(sys.argv[1] + '/bad_key.json', 'w'))
d['claims'] = [{"says": "so both variants are memory-bound", "variant": "float4", "metric": "no_such_metric", "min": 0}]
json.dump(d, open(sys.argv[1] + '/bad_metric.json', 'w'))
d['claims'] = [{"says": "  ", "variant": "float4", "min": 0}]
json.dump(d, open(sys.argv[1] + '/blank_says.json', 'w'))
d['claims'] = [{"says": "so both variants are memory-bound", "variant": "float4", "min": 0, "gpu": "a1000"}]
json.dump(d, open(sys.argv[1] + '/bad_gpu.json', 'w'))
PY
"$GPUSIM" run "$TMP/false_claim.json" >"$TMP/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^claim failed: "so both variants are memory-bound": float4 / scalar cycles = .*, not at least 2$' "$TMP/out" &&
    ok || bad "a false claim: exit $rc" "$(tail -4 "$TMP/out")"
"$GPUSIM" run "$TMP/false_claim.json" --json >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q '^claim failed: ' "$TMP/err" && ok || bad "a false claim, --json: exit $rc, stderr: $(cat "$TMP/err")"
"$GPUSIM" run "$TMP/false_claim.json" --param n=2048 >"$TMP/out" 2>&1
rc=$?
[ $rc -eq 0 ] && ! grep -q '^claim' "$TMP/out" && ok || bad "--param checks no claim: exit $rc"
# an unknown metric (exit 1 at the end of the run before), a says of
# blanks and an unknown GPU (both accepted before) are bad input, at the key
for f in bad_says bad_variant bad_key bad_metric blank_says bad_gpu; do
    "$GPUSIM" run "$TMP/$f.json" >"$TMP/out" 2>&1
    rc=$?
    [ $rc -eq 2 ] && grep -q 'claims\[0\]' "$TMP/out" && ok || bad "$f: exit $rc" "$(head -3 "$TMP/out")"
done
e2e_finish

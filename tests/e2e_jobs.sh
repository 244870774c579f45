#!/usr/bin/env bash
# tests/e2e_jobs.sh -- `--jobs N` changes how long a run takes, never what it
# reports: `gpusim run` at --jobs 1 and 3 gives the same --json (but for the
# host's wall-clock fields), the same text report (but for its host-speed
# line), the same exit status and messages for a run with faults and a
# deadlock; variants whose same_as checks read another variant's buffers
# pass at any N; `gpusim compare` prints the same tables.
# usage: e2e_jobs.sh GPUSIM SOURCE_DIR [--quick]
# --quick: one workload of each kind (the ThreadSanitizer stage of .ci/run,
# where every run is about ten times slower).
set -u
GPUSIM=$(realpath "$1")
cd "$2" || exit 2
quick=${3:-}
. tests/e2e_lib.sh

# the JSON without host fields, keys sorted
host_free() {
    python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
for k in ('wall_seconds', 'warp_insts_per_sec'): d['sim'].pop(k, None)
print(json.dumps(d, sort_keys=True, indent=1))" "$1"
}

# same_json NAME ARGS...: gpusim run ARGS --json at --jobs 1 and 3
same_json() {
    local name=$1
    shift
    for n in 1 3; do
        "$GPUSIM" run "$@" --json --jobs $n >"$TMP/$name.$n.json" 2>"$TMP/$name.$n.err"
        echo $? >"$TMP/$name.$n.rc"
    done
    if ! cmp -s "$TMP/$name.1.rc" "$TMP/$name.3.rc"; then
        bad "$name: exit $(cat "$TMP/$name.1.rc") at --jobs 1, $(cat "$TMP/$name.3.rc") at 3"
    elif [ "$(cat "$TMP/$name.1.rc")" != 0 ]; then
        bad "$name: gpusim run $* exited $(cat "$TMP/$name.1.rc")" "$(head -3 "$TMP/$name.1.err")"
    elif ! diff <(host_free "$TMP/$name.1.json") <(host_free "$TMP/$name.3.json") >"$TMP/$name.diff"; then
        bad "$name: --json differs between --jobs 1 and 3" "$(head -6 "$TMP/$name.diff")"
    else
        ok
    fi
}

same_json transpose workloads/transpose.json
# same_as checks: each variant waits for the one it compares with
same_json two_pass workloads/reduction_two_pass.json
if [ "$quick" != --quick ]; then
    same_json bank_conflicts workloads/bank_conflicts.json
    same_json occupancy workloads/occupancy.json --param n=65536
    same_json rmsnorm workloads/residual_rmsnorm.json
    same_json labs_occupancy workloads/labs/occupancy_compute.json
fi

# the text report, a run with a fault, a budget and a deadlock: same
# stdout (but the host-speed line), same stderr, same exit status
for n in 1 3; do
    "$GPUSIM" run tests/json_corpus/run/fault.json --max-cycles 100000 --jobs $n >"$TMP/fault.$n.out" 2>"$TMP/fault.$n.err"
    echo $? >"$TMP/fault.$n.rc"
    grep -v '^simulated .* warp instructions in ' "$TMP/fault.$n.out" >"$TMP/fault.$n.txt"
done
if [ "$(cat "$TMP/fault.1.rc")" != 1 ] || ! cmp -s "$TMP/fault.1.rc" "$TMP/fault.3.rc"; then
    bad "fault: exit $(cat "$TMP/fault.1.rc") at --jobs 1 and $(cat "$TMP/fault.3.rc") at 3, expected 1"
elif ! cmp -s "$TMP/fault.1.txt" "$TMP/fault.3.txt" || ! cmp -s "$TMP/fault.1.err" "$TMP/fault.3.err"; then
    bad "fault: the report differs between --jobs 1 and 3" "$(diff "$TMP/fault.1.txt" "$TMP/fault.3.txt" | head -4)"
else
    ok
fi
grep -Eq '^deadlock +deadlock ' "$TMP/fault.3.txt" && grep -Eq '^oob +fault ' "$TMP/fault.3.txt" && ok ||
    bad "fault: --jobs 3 lost the fault or the deadlock row"

# compare: records on 1 and 3 threads, the same tables
for n in 1 3; do
    only=(--only bank_conflicts --only waves --only reduction)
    [ "$quick" = --quick ] && only=(--only ilp)
    "$GPUSIM" compare validate/results/h200.json "${only[@]}" --jobs $n \
        >"$TMP/cmp.$n.out" 2>"$TMP/cmp.$n.err"
    echo $? >"$TMP/cmp.$n.rc"
done
if [ "$(cat "$TMP/cmp.1.rc")" != 0 ] || ! cmp -s "$TMP/cmp.1.rc" "$TMP/cmp.3.rc"; then
    bad "compare: exit $(cat "$TMP/cmp.1.rc") at --jobs 1 and $(cat "$TMP/cmp.3.rc") at 3" "$(head -3 "$TMP/cmp.3.err")"
elif ! cmp -s "$TMP/cmp.1.out" "$TMP/cmp.3.out" || ! cmp -s "$TMP/cmp.1.err" "$TMP/cmp.3.err"; then
    bad "compare: the tables differ between --jobs 1 and 3" "$(diff "$TMP/cmp.1.out" "$TMP/cmp.3.out" | head -4)"
else
    ok
fi
last='simulated 17/17 waves/two_per_sm_tail'
row='^waves  *one_extra '
[ "$quick" = --quick ] && last='simulated 2/2 ilp/ilp4' row='^ilp  *ilp4 '
grep -q "$row" "$TMP/cmp.3.out" && grep -q "$last" "$TMP/cmp.3.err" && ok ||
    bad "compare: a record's row or its progress line in record order is missing" "$(tail -2 "$TMP/cmp.3.err")"
# on a terminal each progress line says how long the rest will take
if command -v script >/dev/null 2>&1; then
    script -qc "'$GPUSIM' compare validate/results/h200.json --only ilp --jobs 2 >/dev/null" /dev/null </dev/null |
        tr '\r' '\n' >"$TMP/cmp.tty"
    if grep -Eq '^simulated 1/2 ilp/ilp1  \([0-9]+:[0-9]{2} elapsed, ~[0-9]+:[0-9]{2} left\)' "$TMP/cmp.tty" &&
        grep -Eq '^simulated 2/2 ilp/ilp4  \([0-9]+:[0-9]{2} elapsed, ~0:00 left\)' "$TMP/cmp.tty"; then ok
    else bad "compare on a terminal: no time left on its progress lines" "$(grep simulated "$TMP/cmp.tty" | head -2)"; fi
fi

# compare --from-ptx: records of one twin compile it (nvcc, ptxas) from
# several threads at once into an empty cache; the same tables, and nothing
# but cache entries left behind. Needs nvcc.
if [ "$quick" != --quick ] && { command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; }; then
    for n in 1 4; do
        GPUSIM_CACHE_DIR="$TMP/cache.$n" "$GPUSIM" compare validate/results/h200.json --from-ptx --only bank_conflicts \
            --jobs $n >"$TMP/ptx.$n.out" 2>"$TMP/ptx.$n.err"
        echo $? >"$TMP/ptx.$n.rc"
    done
    stray=$(ls "$TMP/cache.4" | grep -Ev '^[A-Za-z_0-9]+-[0-9a-f]{16}\.(ptx|txt|ptx\.deps)$')
    if [ "$(cat "$TMP/ptx.4.rc")" != 0 ] || ! cmp -s "$TMP/ptx.1.out" "$TMP/ptx.4.out"; then
        bad "compare --from-ptx: --jobs 4 on an empty cache differs from --jobs 1 (exit $(cat "$TMP/ptx.4.rc"))" \
            "$(diff "$TMP/ptx.1.out" "$TMP/ptx.4.out" | head -4)" "$(head -2 "$TMP/ptx.4.err")"
    elif [ -n "$stray" ]; then
        bad "compare --from-ptx --jobs 4 left files in the cache that are not entries" "$stray"
    else
        ok
    fi
fi

e2e_finish

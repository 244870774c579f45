#!/usr/bin/env bash
# tests/e2e_threads.sh -- `--threads N` changes nothing but the host time
# (docs/ARCHITECTURE.md, "One launch on several host threads"): every
# shipped workload (workloads/*.json, workloads/labs/*.json) and each of
# them with its kernels from the committed PTX of its CUDA twin
# (tests/ptx/*.ptx), on the default GPU (no block refill latency: rounds
# that end at freed slots) and on the h200 (375 cycles of refill latency),
# runs with --threads 1, 2 and 3 (or the counts in $THREADS, 1 first:
# THREADS="1 2 7 16" on a larger host); the --json output without the host fields
# (sim.wall_seconds, sim.warp_insts_per_sec), the stderr and the exit
# status must be the same byte for byte. So must those of kernels that do
# not finish: a fault, a barrier deadlock, a kernel stopped by the cycle or
# the instruction budget (tests/json_corpus/run/fault.json), and --dump's
# buffers after them.
# usage: e2e_threads.sh GPUSIM SOURCE_DIR
set -u
GPUSIM=$(realpath "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh
THREAD_COUNTS=${THREADS:-1 2 3}
case $THREAD_COUNTS in 1\ *) ;; *) echo "e2e_threads: THREADS must start with 1 (got '$THREAD_COUNTS')"; exit 2 ;; esac

host_free() { sed -E 's/"wall_seconds": [^,]*,/"wall_seconds": 0,/; s/"warp_insts_per_sec": [^}]*}/"warp_insts_per_sec": 0}/'; }

# same NAME ARGS...: gpusim run ARGS --json on 1, 2 and 3 threads agree.
same() {
    local name=$1
    shift
    for n in $THREAD_COUNTS; do
        "$GPUSIM" run "$@" --json --threads "$n" 2>"$TMP/$name.$n.err" | host_free >"$TMP/$name.$n.json"
        echo "rc ${PIPESTATUS[0]}" >>"$TMP/$name.$n.err"
    done
    for n in ${THREAD_COUNTS#1}; do
        if ! cmp -s "$TMP/$name.1.json" "$TMP/$name.$n.json" || ! cmp -s "$TMP/$name.1.err" "$TMP/$name.$n.err"; then
            bad "$name: --threads $n differs from --threads 1" \
                "$(diff "$TMP/$name.1.json" "$TMP/$name.$n.json" | head -4)" \
                "$(diff "$TMP/$name.1.err" "$TMP/$name.$n.err" | head -4)"
            return
        fi
    done
    ok
}

for w in workloads/*.json workloads/labs/*.json; do
    case $w in *schema*) continue ;; esac
    n=$(basename "$w" .json)
    same "$n" "$w"
    same "$n.h200" "$w" --gpu h200
    # the same workload with its twin's PTX, where it has one
    if [ -f "tests/ptx/$n.ptx" ]; then
        python3 -c "import json, sys
d = json.load(open('$w'))
d['kernels'] = '$PWD/tests/ptx/$n.ptx'
json.dump(d, open('$TMP/ptx_$n.json', 'w'))"
        same "$n.ptx" "$TMP/ptx_$n.json" --gpu h200
    fi
done

# kernels that do not finish, and what they leave in memory: the corpus's
# fault, deadlock and spinning kernels on grids that fill many SMs
f=$TMP/faults.json
python3 -c "import json
d = json.load(open('tests/json_corpus/run/fault.json'))
d['kernels'] = '$PWD/tests/json_corpus/run/spin.asm'
d['params']['n'] = 256
grids = {'oob': [8, 8], 'spin': 300, 'deadlock': 300, 'ok': [8, 8]}
for v in d['variants']: v['grid'] = grids[v['name']]
json.dump(d, open('$f', 'w'))"
same fault "$f" --max-cycles 100000
same fault.h200 "$f" --max-cycles 100000 --gpu h200
same budget "$f" --variant spin --max-instructions 5000
# a budget spent at the first instruction: the threads stop before any SM
# has left a mark (an empty list once reached memmove as NULL)
same budget1 workloads/vecadd.json --max-instructions 1
for n in $THREAD_COUNTS; do
    mkdir -p "$TMP/dump$n"
    "$GPUSIM" run "$f" --max-cycles 100000 --threads "$n" --dump "$TMP/dump$n" >/dev/null 2>&1
done
dumps_same=1
for n in ${THREAD_COUNTS#1}; do diff -r "$TMP/dump1" "$TMP/dump$n" >/dev/null || dumps_same=0; done
if [ "$dumps_same" = 1 ]; then ok
else bad "fault: the buffers after a fault depend on --threads"; fi

# the default (no --threads): one job's launches of 256 blocks or more on
# the host's cores, smaller ones on one; the same output as --threads 1
for args in "workloads/vecadd.json" "workloads/transpose.json --gpu h200" "$f --max-cycles 100000"; do
    # shellcheck disable=SC2086 # the arguments split on purpose
    "$GPUSIM" run $args --json --jobs 1 2>"$TMP/auto.err" | host_free >"$TMP/auto.json"
    echo "rc ${PIPESTATUS[0]}" >>"$TMP/auto.err"
    # shellcheck disable=SC2086
    "$GPUSIM" run $args --json --jobs 1 --threads 1 2>"$TMP/one.err" | host_free >"$TMP/one.json"
    echo "rc ${PIPESTATUS[0]}" >>"$TMP/one.err"
    if cmp -s "$TMP/auto.json" "$TMP/one.json" && cmp -s "$TMP/auto.err" "$TMP/one.err"; then ok
    else bad "$args: the default threads differ from --threads 1" "$(diff "$TMP/auto.json" "$TMP/one.json" | head -4)"; fi
done

# the flag itself
"$GPUSIM" run workloads/vecadd.json --threads 0 >/dev/null 2>"$TMP/err"
rc=$?
if [ "$rc" = 2 ] && grep -q -- '--threads' "$TMP/err"; then ok; else bad "--threads 0 is not refused (exit $rc)"; fi
"$GPUSIM" run workloads/vecadd.json --threads 257 >/dev/null 2>"$TMP/err"
rc=$?
if [ "$rc" = 2 ] && grep -q 'out of range' "$TMP/err"; then ok; else bad "--threads 257 is not refused (exit $rc)"; fi
e2e_finish

#!/usr/bin/env bash
# tests/e2e_validate.sh -- what can be checked of the hardware validation
# runner without a GPU (CI has none): it was built (nvcc found), it lists a
# twin for every workload in workloads/, its usage errors and its "no CUDA
# device" exit are clean, and the mini-ISA side of the microbenchmarks
# (validate/micro/*.json) assembles and runs on the simulator at small sizes.
# usage: e2e_validate.sh GPUSIM_VALIDATE_BINARY SOURCE_DIR [GPUSIM_BINARY]
# Prints one line per failure and a final "N passed, M failed"; exits 1 on any.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 GPUSIM_VALIDATE_BINARY SOURCE_DIR [GPUSIM_BINARY]" >&2
    exit 2
fi
VAL=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
GPUSIM=""
[ $# -ge 3 ] && GPUSIM=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
cd "$2" || exit 2
. tests/e2e_lib.sh # the working directory is now the source tree

# A twin for every workload.
"$VAL" --list > "$TMP/list" 2>&1 || bad "--list exited $?"
for f in workloads/*.json; do
    case "$f" in *schema*) continue ;; esac
    name=$(sed -n 's/^[[:space:]]*"name"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | head -1)
    if grep -qx "$name" "$TMP/list"; then ok; else bad "no CUDA twin for workload '$name' ($f): add validate/twins/$name.cu"; fi
done
for m in micro_latency micro_pipes micro_bandwidth; do
    if grep -qx "$m" "$TMP/list"; then ok; else bad "--list lacks $m"; fi
done

# Usage.
"$VAL" --help > /dev/null 2>&1 && ok || bad "--help should exit 0"
"$VAL" --bogus > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "an unknown option should exit 2"
"$VAL" --only no_such_workload > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "no twin named" "$TMP/err" && ok || bad "--only with an unknown name: exit $rc, $(head -1 "$TMP/err")"

# No GPU here: a clear message and exit 2, no results file.
if ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi > /dev/null 2>&1; then
    "$VAL" --out "$TMP/r.json" > "$TMP/out" 2> "$TMP/err"; rc=$?
    if [ $rc -eq 2 ] && grep -q "no CUDA device" "$TMP/err" && [ ! -e "$TMP/r.json" ]; then ok
    else bad "without a GPU: exit $rc, stderr '$(head -1 "$TMP/err")'"; fi
fi

# The microbenchmarks' mini-ISA side, shrunk.
if [ -n "$GPUSIM" ]; then
    for a in validate/micro/*.asm; do
        "$GPUSIM" asm "$a" > /dev/null 2> "$TMP/err" && ok || bad "gpusim asm $a: $(head -1 "$TMP/err")"
    done
    run() {
        "$GPUSIM" run "$@" --gpu h200 > "$TMP/out" 2> "$TMP/err" && ok || bad "gpusim run $*: $(head -1 "$TMP/err")"
    }
    run validate/micro/latency.json --param small=65536 --param big=1048576 --param l2_footprint=65536 \
        --param l1_steps=16 --param l2_warm=16 --param l2_steps=16 --param dram_steps=16 --param smem_steps=16
    run validate/micro/pipes.json --param lat_iters=2 --param fma_iters=2 --param sfu_iters=2 --param blocks=2
    run validate/micro/bandwidth.json --param n=4096
    run validate/micro/l2.json --param blocks=2 --param rounds=1
fi

e2e_finish

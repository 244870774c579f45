#!/usr/bin/env bash
# tests/e2e_reliability.sh -- reliability of the gpusim command line:
#   1. valgrind (--leak-check=full) finds no leak and no memory error in
#      `gpusim asm`, `occupancy`, `gpus a100`, `run` and their error paths
#      (skipped with a message when valgrind is absent or the binary is built
#      with AddressSanitizer, which valgrind cannot run);
#   2. determinism: `gpusim run ... --json` twice gives the same bytes apart
#      from the host wall-clock fields (wall_seconds, *_per_sec);
#   3. hostile flags (huge, negative and empty values, 10^6 registers, 0 SMs)
#      exit 2 with an error message, in bounded time; odd but valid machines
#      run, and a machine too big for the host is refused with a message;
#   4. fuzz/run.sh (run by CI) refuses a bad time and a build directory that
#      another checkout configured, with a message and exit 2, before building.
# usage: e2e_reliability.sh GPUSIM_BINARY SOURCE_DIR
# Prints one line per failure and a final "N passed, M failed"; exits 1 on any
# failure. Needs bash and coreutils (timeout).
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 GPUSIM_BINARY SOURCE_DIR" >&2
    exit 2
fi
GPUSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh # the working directory is now the source tree

LIMIT=${GPUSIM_E2E_TIMEOUT:-120} # seconds any one command may take


# gp ARGS...: runs gpusim with a time limit; stdout to $OUT, stderr to $ERR, status to $rc
gp() {
    timeout "$LIMIT" "$GPUSIM" "$@" >"$OUT" 2>"$ERR"
    rc=$?
}

have_run=false
"$GPUSIM" run --help >/dev/null 2>&1 && have_run=true
$have_run || echo "note: 'gpusim run' is not available: its checks are skipped"

WL=workloads/transpose.json
SMALL=(--param n=64)

# ---------------------------------------------------------------- valgrind

# vg NAME WANT_STATUS ARGS...: gpusim under memcheck exits WANT_STATUS (3 = a
# valgrind error) and reports no leak
vg() {
    local name=$1 want=$2
    shift 2
    timeout $((LIMIT * 4)) valgrind -q --leak-check=full --error-exitcode=3 "$GPUSIM" "$@" >"$OUT" 2>"$ERR"
    rc=$?
    if [ "$rc" -eq 3 ] || grep -q '^==[0-9]*==' "$ERR"; then
        bad "valgrind $name: memory errors or leaks (gpusim $*)" "$(grep '^==[0-9]*==' "$ERR" | head -n 12)"
    elif [ "$rc" -ne "$want" ]; then
        bad "valgrind $name: exit $rc, want $want (gpusim $*)" "$(head -n 3 "$ERR")"
    else
        ok
    fi
}

if ! command -v valgrind >/dev/null 2>&1; then
    echo "note: valgrind not found: leak checks skipped (Debian: apt-get install valgrind)"
elif grep -qa '__asan_init' "$GPUSIM"; then
    echo "note: $GPUSIM is built with AddressSanitizer: valgrind checks skipped (ASan checks leaks itself)"
else
    vg asm 0 asm workloads/kernels/transpose.asm
    vg asm_bad 2 asm tests/asm_corpus/unknown_opcode.asm
    vg asm_missing 2 asm tests/no_such_file.asm
    vg occupancy 0 occupancy --gpu a100 --block 256 --regs 32 --smem 4096
    vg occupancy_json 0 occupancy --gpu h100 --block 96 --regs 64 --json
    vg occupancy_bad 2 occupancy --block 2000 --regs 32
    vg gpus 0 gpus a100
    vg gpus_list 0 gpus
    vg gpus_set_bad 2 gpus a100 --set sm.cont=4
    vg gpus_file_bad 2 gpus tests/cli_corpus/cfg_truncated.json
    if $have_run; then
        vg run 0 run "$WL" "${SMALL[@]}"
        vg run_json 0 run "$WL" "${SMALL[@]}" --json --variant tiled
        vg run_bad_workload 2 run tests/json_corpus/huge_buffer.json
        vg run_bad_param 2 run "$WL" --param n=-1
    fi
fi

# ------------------------------------------------------------- determinism

# masks the host's wall-clock measurements, which are the only fields allowed to differ
mask_wall() {
    sed -E 's/"(wall_[a-z_]*|[a-z_]*per_sec)": *[-+0-9.eE]+/"\1": WALL/g' "$1"
}

# same NAME ARGS...: two runs print the same JSON
same() {
    local name=$1
    shift
    gp run "$@" --json
    local rc1=$rc
    mask_wall "$OUT" >"$TMP/first.json"
    gp run "$@" --json
    mask_wall "$OUT" >"$TMP/second.json"
    if [ "$rc1" -ne 0 ] || [ "$rc" -ne 0 ]; then
        bad "determinism $name: exit $rc1 then $rc (gpusim run $* --json)" "$(head -n 3 "$ERR")"
    elif ! [ -s "$TMP/first.json" ]; then
        bad "determinism $name: no output"
    elif ! cmp -s "$TMP/first.json" "$TMP/second.json"; then
        bad "determinism $name: two runs differ (gpusim run $* --json)" \
            "$(diff "$TMP/first.json" "$TMP/second.json" | head -n 6)"
    else
        ok
    fi
}

if $have_run; then
    same transpose "$WL" "${SMALL[@]}"
    same transpose_lrr "$WL" "${SMALL[@]}" --set sched.policy=lrr --set sm.count=3
    [ -f workloads/reduction.json ] && same reduction workloads/reduction.json --param n=8192
    [ -f workloads/divergence.json ] && same divergence workloads/divergence.json --param n=2048
fi

# ----------------------------------------------------------- hostile flags

# hostile NAME ARGS...: exit 2, an error message on stderr, nothing killed
hostile() {
    local name=$1
    shift
    gp "$@"
    if [ "$rc" -ne 2 ]; then
        bad "hostile $name: exit $rc, want 2 (gpusim $*)" "$(head -n 3 "$ERR")"
    elif ! grep -q 'error' "$ERR"; then
        bad "hostile $name: exit 2 without an error message (gpusim $*)" "$(head -n 3 "$ERR")"
    else
        ok
    fi
}

BIG=99999999999999999999999999 # beyond 64 bits
hostile occ_block_huge occupancy --block "$BIG" --regs 32
hostile occ_block_negative occupancy --block -1 --regs 32
hostile occ_block_empty occupancy --block "" --regs 32
hostile occ_regs_empty occupancy --block 256 --regs ""
hostile occ_regs_1e6 occupancy --block 256 --regs 1000000
hostile occ_smem_huge occupancy --block 256 --regs 32 --smem "$BIG"
hostile occ_smem_negative occupancy --block 256 --regs 32 --smem -4096
hostile occ_gpu_empty occupancy --gpu "" --block 256 --regs 32
hostile gpus_empty gpus ""
hostile set_empty gpus a100 --set ""
hostile set_only_equals gpus a100 --set =
hostile set_no_value gpus a100 --set sm.count=
hostile set_zero_sms gpus a100 --set sm.count=0
hostile set_negative_sms gpus a100 --set sm.count=-1
hostile set_huge_sms gpus a100 --set "sm.count=$BIG"
hostile set_regs_per_thread_1e6 gpus a100 --set sm.max_regs_per_thread=1000000
hostile set_registers_1e9 gpus a100 --set sm.registers=1000000000
hostile set_clock_nan gpus a100 --set clock_mhz=nan
hostile set_clock_inf gpus a100 --set clock_mhz=1e999
hostile asm_empty_path asm ""
hostile asm_missing asm tests/no_such_file.asm
if $have_run; then
    hostile run_empty_path run ""
    hostile run_missing run tests/no_such_file.json
    hostile run_param_negative run "$WL" --param n=-1
    hostile run_param_huge run "$WL" --param "n=$BIG"
    hostile run_param_empty run "$WL" --param ""
    hostile run_param_no_value run "$WL" --param n=
    hostile run_param_1e16_elements run "$WL" --param n=100000000
    hostile run_zero_sms run "$WL" "${SMALL[@]}" --set sm.count=0
    hostile run_regs_1e6 run "$WL" "${SMALL[@]}" --set sm.max_regs_per_thread=1000000
    hostile run_max_cycles_negative run "$WL" "${SMALL[@]}" --max-cycles -1
    hostile run_max_cycles_huge run "$WL" "${SMALL[@]}" --max-cycles "$BIG"
    hostile run_variant_empty run "$WL" "${SMALL[@]}" --variant ""
    hostile run_gpu_empty run "$WL" "${SMALL[@]}" --gpu ""

    # odd but valid machines run to the end (exit 0)
    for set in sm.registers=1000000 sm.count=1 l1.size=0 sched.policy=lrr; do
        gp run "$WL" "${SMALL[@]}" --set "$set"
        if [ "$rc" -eq 0 ]; then ok; else bad "odd machine --set $set: exit $rc, want 0" "$(head -n 3 "$ERR")"; fi
    done
    # the documented maximum of SMs runs a launch that uses few of them
    gp run "$WL" --param n=32 --set sm.count=100000 --variant naive
    if [ "$rc" -eq 0 ]; then ok; else bad "sm.count=100000 with one block: exit $rc, want 0" "$(tail -n 3 "$OUT")"; fi
    # a machine the host cannot simulate is refused with a message, not killed
    # (a full wave on 100000 SMs: 16 GiB of resident warps)
    gp run workloads/waves.json --set sm.count=100000 --variant full_wave
    if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
        bad "huge machine: exit $rc, want 1 or 2 (gpusim run --set sm.count=100000)" "$(head -n 3 "$ERR")"
    elif ! grep -qi 'memory' "$OUT" "$ERR"; then
        bad "huge machine: no message about host memory" "$(tail -n 3 "$OUT")"
    else
        ok
    fi
fi

# Output that cannot be written (a full disk, a closed pipe): exit 2 with the
# reason, never a silent exit 0. /dev/full answers every write with ENOSPC.
if [ -w /dev/full ]; then
    for args in "run workloads/waves.json --json" "run workloads/waves.json --csv" "run workloads/waves.json" \
                "asm workloads/kernels/vecadd.asm" "gpus" "gpus a100" "occupancy --block 256 --regs 32" \
                "--help" "--version"; do
        # shellcheck disable=SC2086
        timeout "$LIMIT" "$GPUSIM" $args >/dev/full 2>"$ERR"
        rc=$?
        if [ "$rc" -eq 2 ] && grep -q 'writing the output failed: No space left on device' "$ERR"; then ok
        else bad "gpusim $args >/dev/full: exit $rc, want 2 and the write error" "$(head -n 2 "$ERR")"; fi
    done
    timeout "$LIMIT" "$GPUSIM" run workloads/transpose.json --param n=64 --trace /dev/full >"$OUT" 2>"$ERR"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "writing the trace file '/dev/full' failed" "$ERR"; then ok
    else bad "--trace /dev/full: exit $rc, want 2 and the write error" "$(head -n 2 "$ERR")"; fi
    # the trace's failure is said even when the run fails for its own reason too
    timeout "$LIMIT" "$GPUSIM" run workloads/transpose.json --param n=64 --max-instructions 10 --trace /dev/full \
        >"$OUT" 2>"$ERR"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "writing the trace file" "$ERR"; then ok
    else bad "--trace /dev/full on a run that stops: exit $rc, want 2 and the write error" "$(head -n 2 "$ERR")"; fi
fi
# --trace must never overwrite an input of the run
cp workloads/transpose.json "$TMP/t_before.json"
for target in workloads/transpose.json workloads/kernels/transpose.asm; do
    timeout "$LIMIT" "$GPUSIM" run workloads/transpose.json --param n=64 --trace "$target" >"$OUT" 2>"$ERR"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q 'is an input of this run' "$ERR"; then ok
    else bad "--trace $target: exit $rc, want 2 and a refusal" "$(head -n 2 "$ERR")"; fi
done
if cmp -s workloads/transpose.json "$TMP/t_before.json"; then ok; else bad "--trace overwrote the workload file"; fi

# A long path is quoted whole in a diagnostic (no fixed 255-byte buffers).
long=$TMP/$(printf 'd%.0s' $(seq 1 120))/$(printf 'e%.0s' $(seq 1 120))/$(printf 'f%.0s' $(seq 1 120))
mkdir -p "$long"
printf '{"name": "x", "description": "x", "kernels": "missing.asm", "buffers": [], "variants": []}' >"$long/w.json"
timeout "$LIMIT" "$GPUSIM" run "$long/w.json" >"$OUT" 2>"$ERR"
rc=$?
if [ "$rc" -eq 2 ] && head -n 1 "$ERR" | grep -qF "$long/w.json:1:" && head -n 1 "$ERR" | grep -qF "$long/missing.asm"; then ok
else bad "a ${#long}-byte path: exit $rc, want 2 and the whole path twice in the first line" "$(head -c 300 "$ERR")"; fi

# a budget spent at the first instruction, on two threads: the threads stop
# before any SM has left a mark (the empty list once reached memmove as NULL,
# which the sanitizer build stops on)
gp run workloads/vecadd.json --threads 2 --max-instructions 1
if [ "$rc" -eq 1 ] && grep -q "scalar  *budget" "$OUT"; then ok
else bad "--threads 2 --max-instructions 1: exit $rc, want 1 and the budget named" "$(head -n 2 "$ERR")"; fi

# fuzz/run.sh: its argument checks and the stale-build-directory guard (CI
# once failed when a build directory from another checkout was reused).
fz() {
    timeout "$LIMIT" "$@" >"$OUT" 2>"$ERR"
    rc=$?
}
fz bash fuzz/run.sh 0
if [ "$rc" -eq 2 ] && grep -q usage "$ERR"; then ok; else bad "fuzz/run.sh 0: exit $rc, want 2 and usage" "$(head -n 2 "$ERR")"; fi
stale=$TMP/stale-fuzz-build
mkdir -p "$stale"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\n' "$TMP/some-other-checkout" >"$stale/CMakeCache.txt"
GPUSIM_FUZZ_BUILD=$stale fz bash fuzz/run.sh 1 asm
if [ "$rc" -ne 2 ]; then
    bad "fuzz/run.sh with a stale build directory: exit $rc, want 2" "$(head -n 3 "$ERR")"
elif ! grep -q 'another source tree' "$ERR"; then
    bad "fuzz/run.sh with a stale build directory: no message naming the cause" "$(head -n 3 "$ERR")"
else
    ok
fi

e2e_finish

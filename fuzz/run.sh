#!/usr/bin/env bash
# fuzz/run.sh SECONDS [HARNESS...] -- build the libFuzzer harnesses with clang
# in a build directory of their own and fuzz each for SECONDS on a copy of
# its committed corpus (fuzz/corpus/NAME, plus the shipped kernels for asm;
# the repository is not modified).
# HARNESS: asm, config, workload, ptx, npy, sweep, fatbin, cudart (default: all,
# one after another; cudart only where the CUDA toolkit's headers are).
# Exits 1 when any harness found a crash, a leak, a timeout or an OOM; the
# inputs that caused them are kept in $GPUSIM_FUZZ_ARTIFACTS.
# Environment:
#   GPUSIM_FUZZ_BUILD      build directory (default: build-fuzz/ in the source tree,
#                          so that two checkouts never share one)
#   GPUSIM_FUZZ_NO_BUILD=1 use the harnesses already built there
#   GPUSIM_FUZZ_ARTIFACTS  where crashing inputs go (default: $BUILD/fuzz-artifacts)
#   GPUSIM_FUZZ_KEEP=1     keep the grown corpus copies (their path is printed)
#   GPUSIM_FUZZ_ARGS       more libFuzzer flags, e.g. "-max_len=8192"
set -u
secs=${1:-}
if ! [[ "$secs" =~ ^[0-9]+$ ]] || [ "$secs" -eq 0 ]; then
    echo "usage: fuzz/run.sh SECONDS [asm|config|workload|ptx|npy|sweep|fatbin|cudart]..." >&2
    exit 2
fi
shift
harnesses=("$@")
all_named=0
if [ ${#harnesses[@]} -eq 0 ]; then harnesses=(asm config workload ptx npy sweep fatbin cudart); all_named=1; fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GPUSIM_FUZZ_BUILD:-$root/build-fuzz}
artifacts=${GPUSIM_FUZZ_ARTIFACTS:-$build/fuzz-artifacts}

# A build directory configured from another checkout makes cmake refuse;
# say so up front instead of failing with cmake's message halfway through.
cache="$build/CMakeCache.txt"
if [ -z "${GPUSIM_FUZZ_NO_BUILD:-}" ] && [ -f "$cache" ]; then
    configured=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
    if [ -n "$configured" ] && [ "$(cd "$configured" 2>/dev/null && pwd -P)" != "$(cd "$root" && pwd -P)" ]; then
        echo "fuzz/run.sh: $build was configured for another source tree ($configured);" >&2
        echo "  remove it or set GPUSIM_FUZZ_BUILD to another directory" >&2
        exit 2
    fi
fi

if [ -z "${GPUSIM_FUZZ_NO_BUILD:-}" ]; then
    CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S "$root" -B "$build" -DGPUSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 1
fi
# fuzz_cudart needs the CUDA toolkit's headers, as our runtime does: without
# them it is left out of "all", saying so
if [ $all_named = 1 ] && grep -q '^CUDART_API_INCLUDE:PATH=.*NOTFOUND' "$cache" 2>/dev/null; then
    echo "fuzz_cudart: skipped (no cuda_runtime_api.h: our runtime is not built either)"
    unset 'harnesses[7]'
fi
if [ -z "${GPUSIM_FUZZ_NO_BUILD:-}" ]; then
    targets=()
    for h in "${harnesses[@]}"; do targets+=(--target "fuzz_$h"); done
    cmake --build "$build" "${targets[@]}" -j "${JOBS:-2}" >/dev/null || exit 1
fi
mkdir -p "$artifacts"

work=$(mktemp -d "${TMPDIR:-/tmp}/gpusim-fuzz.XXXXXX")
if [ -n "${GPUSIM_FUZZ_KEEP:-}" ]; then
    echo "grown corpora kept in $work"
else
    trap 'rm -rf "$work"' EXIT
fi

status=0
for h in "${harnesses[@]}"; do
    bin="$build/fuzz/fuzz_$h"
    if [ ! -x "$bin" ] || [ ! -d "$root/fuzz/corpus/$h" ]; then
        echo "fuzz_$h: no harness or no corpus" >&2
        status=1
        continue
    fi
    cp -r "$root/fuzz/corpus/$h" "$work/$h"
    # The shipped kernels seed the assembler too, as they are now.
    [ "$h" = asm ] && cp "$root"/workloads/kernels/*.asm "$root"/validate/micro/*.asm "$work/$h/"
    [ "$h" = ptx ] && cp "$root"/tests/ptx/*.ptx "$work/$h/"
    dict=()
    [ -f "$root/fuzz/dict/$h.dict" ] && dict=(-dict="$root/fuzz/dict/$h.dict")
    log="$work/$h.log"
    # One process (no -jobs/-workers): the machines this runs on are shared.
    # shellcheck disable=SC2086
    "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$h-" "${dict[@]}" ${GPUSIM_FUZZ_ARGS:-} "$work/$h" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
    if [ $rc -ne 0 ]; then
        echo "fuzz_$h: FAILED (exit $rc) after ${execs:-?} executions; input kept in $artifacts"
        grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | head -20
        status=1
    else
        echo "fuzz_$h: ok, ${execs:-?} executions in ${secs}s, $cov, corpus $(ls "$work/$h" | wc -l) files"
    fi
done
exit $status

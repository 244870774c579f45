#!/bin/bash
# Run on the device machine's CPUs (the GPU is not used), from the
# repository root, with the builds in .devbench/ (Release, built on the
# development machine, carried with their shared libraries):
#   bench_base  gpusim-bench at 298b751 (the session's start)
#   bench_new   gpusim-bench at e79dccc (calendar, inlined issue, spin barrier)
#   gpusim      the CLI at e79dccc
# usage: device.sh OUT_DIR e2e|bench
set -u
out=${1:?} what=${2:?}
export LD_LIBRARY_PATH=$PWD/.devbench
case $what in
e2e) # every shipped workload byte for byte at 1, 2, 5 and 16 threads
    { nproc; grep -m1 "model name" /proc/cpuinfo; } >"$out/cpu.txt"
    THREADS="1 2 5 16" bash tests/e2e_threads.sh .devbench/gpusim . >"$out/e2e_threads16.txt" 2>&1
    echo "exit $?" >>"$out/e2e_threads16.txt" ;;
bench) # base and new interleaved, per round, case and thread count
    for r in 1 2 3 4 5; do
        for c in vecadd/scalar transpose/copy transpose/tiled_padded divergence/uniform; do
            for t in 1 2 4 8 16; do
                for b in base new; do
                    .devbench/bench_$b --repeat 1 --case $c --threads $t | awk -v b=$b -v t=$t -v c=$c '$1==c {print c, t, b, $4}'
                done
            done
        done
    done >"$out/interleaved.txt" ;;
esac

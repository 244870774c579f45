#!/bin/bash
# device: base and new interleaved, per round, thread count and case
export LD_LIBRARY_PATH=$PWD/.devbench
for r in 1 2 3 4 5; do
  for c in vecadd/scalar transpose/tiled_padded transpose/copy divergence/uniform; do
    for t in 1 2 4 8 16; do
      for b in base new; do
        .devbench/bench_$b --repeat 1 --case $c --threads $t | awk -v b=$b -v t=$t -v c=$c '$1==c {print c, t, b, $4}'
      done
    done
  done
done

#!/usr/bin/env python3
"""validate/block_life.py -- block lifetimes of a simulated launch, in the
terms of validate/probes/residency.cu, to set beside the H200's.

Reads a `gpusim run ... --trace FILE` Chrome trace and prints, for its
blocks (every launch in the file together), the quantiles the probe prints
from its per-block %clock64 records:
  life    last warp end - first warp start (cycles)
  skew    max - min of the block's warp starts (how long its warps take
          to launch)
  spread  max - min of its warp ends (how long the block waits for its
          slowest warp)

usage: block_life.py TRACE.json [NAME]
"""
import json
import re
import sys
from collections import defaultdict


def quantile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    name = sys.argv[2] if len(sys.argv) == 3 else sys.argv[1]
    try:
        with open(sys.argv[1]) as f:
            trace = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"block_life.py: {sys.argv[1]}: {e}\n")
        return 2
    warps = defaultdict(list)  # block id -> (start, end) of each warp
    for e in trace.get("traceEvents", []):
        if e.get("cat") != "warp" or e.get("ph") != "X":
            continue
        m = re.search(r"block (\d+)", e.get("name", ""))
        if not m:
            continue
        start = e["args"]["cycle"]
        warps[int(m.group(1))].append((start, start + e["args"]["cycles"]))
    if not warps:
        sys.stderr.write(f"block_life.py: {sys.argv[1]}: no warp lifetimes (a trace of `gpusim run --trace`?)\n")
        return 2
    life, skew, spread = [], [], []
    for ws in warps.values():
        starts = [w[0] for w in ws]
        ends = [w[1] for w in ws]
        life.append(max(ends) - min(starts))
        skew.append(max(starts) - min(starts))
        spread.append(max(ends) - min(ends))
    print(f"{name}: {len(warps)} blocks; life p10/p50/p90 {quantile(life, .1)} {quantile(life, .5)} "
          f"{quantile(life, .9)} mean {round(sum(life) / len(life))}; skew p50 {quantile(skew, .5)}; spread p50/p90 {quantile(spread, .5)} "
          f"{quantile(spread, .9)} (cycles)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
and, as the probe's warps table, each warp's d (here its life, start to
exit; the probe's ends at its loaded value, a few cycles earlier): its
quantiles, a block's max and range of d against independent draws from
all warps' d, and icc, the share of d's variance between blocks.

usage: block_life.py TRACE.json [NAME]
"""
import json
import random
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
    # residency.cu's warps table: d per warp (here its life, start to exit),
    # a block's max and range of d against independent draws from all d
    # (a fixed-seed sampler), and the share of d's variance between blocks
    blocks = [[e - s for s, e in ws] for ws in warps.values()]  # d of each warp, by block
    d_all = [x for ds in blocks for x in ds]
    maxd = [max(ds) for ds in blocks]
    ranged = [max(ds) - min(ds) for ds in blocks]
    between = within = 0.0
    mean_d = sum(d_all) / len(d_all)
    var_d = sum((x - mean_d) ** 2 for x in d_all) / len(d_all)
    for ds in blocks:
        m = sum(ds) / len(ds)
        between += (m - mean_d) ** 2
        within += sum((x - m) ** 2 for x in ds)
    between /= len(blocks)
    within /= len(d_all)
    n = max(len(ds) for ds in blocks)
    icc = max(0.0, (between - within / max(1, n - 1)) / var_d) if var_d > 0 else 0.0
    rng = random.Random(12345)
    iid_max = iid_range = 0.0
    for ds in blocks:
        draws = [d_all[rng.randrange(len(d_all))] for _ in ds]
        iid_max += max(draws)
        iid_range += max(draws) - min(draws)
    iid_max /= len(blocks)
    iid_range /= len(blocks)
    d_all.sort()
    print(f"{name}: warps d p10/p50/p90/p99 {quantile(d_all, .1)} {quantile(d_all, .5)} {quantile(d_all, .9)} "
          f"{quantile(d_all, .99)} mean {round(mean_d)}; block max d mean {round(sum(maxd) / len(maxd))} "
          f"(iid {round(iid_max)}); range d mean {round(sum(ranged) / len(ranged))} (iid {round(iid_range)}); "
          f"icc {icc:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

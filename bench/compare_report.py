#!/usr/bin/env python3
"""bench/compare_report.py RUNS OLD_REV CALLGRIND IR -- bench/compare.sh's table.

RUNS holds one line per run: the side ("old" or "new"), a tab, and a row of
gpusim-bench's table. Two layouts of that row are read: today's (case,
kind, warp-insts, median s, min s, max s, cpu s, Minst/s, Minst/cpu, RSS
MiB) and the one before CPU time and RSS were printed (case, kind,
warp-insts, median s, min s, max s, Minst/s), which an old revision's own
bench prints (GPUSIM_COMPARE_OWN_BENCH=1); its CPU rate and RSS are then
shown as "-". IR (with CALLGRIND = 1): side, case, host instructions and
warp instructions, tab-separated. Exits 1 when the two sides' warp
instruction counts differ, 2 on a row it cannot read."""
import statistics
import sys

KINDS = ("compute", "memory", "shared")  # gpusim-bench's kind column


def fail(message):
    print(f"compare_report.py: {message}", file=sys.stderr)
    sys.exit(2)


def parse(line, where):
    """(side, case, warp instructions, wall s, cpu s or None, RSS MiB or None)."""
    side, _, rest = line.rstrip("\n").partition("\t")
    f = rest.split()
    k = next((i for i, t in enumerate(f) if t in KINDS), None)
    nums = f[k + 1:] if k is not None else []
    if side not in ("old", "new") or k is None or k == 0 or len(nums) not in (5, 8):
        fail(f"{where}: not a gpusim-bench row of either layout: {rest!r}")
    try:
        vals = [float(x) for x in nums]
    except ValueError:
        fail(f"{where}: not a gpusim-bench row of either layout: {rest!r}")
    n, wall = int(vals[0]), vals[1]
    cpu, rss = (vals[4], vals[7]) if len(vals) == 8 else (None, None)
    return side, " ".join(f[:k]), n, wall, cpu, rss


def main():
    runs, old, cg = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    data, insts, order = {}, {}, []
    for i, line in enumerate(open(runs), 1):
        side, name, n, wall, cpu, rss = parse(line, f"{runs}:{i}")
        if name not in order:
            order.append(name)
        d = data.setdefault(name, {}).setdefault(side, {"cpu": [], "wall": [], "rss": []})
        if cpu is not None:
            d["cpu"].append(n / cpu / 1e6 if cpu > 0 else 0)
            d["rss"].append(rss)
        d["wall"].append(n / wall / 1e6)
        insts.setdefault(name, {})[side] = n
    bad = [c for c in order if len(set(insts[c].values())) != 1]
    med = statistics.median

    def rate(v):
        return f"{med(v):8.2f}" if v else f"{'-':>8}"

    def ratio(a, b):
        return f"{med(b) / med(a):6.2f}" if a and b else f"{'-':>6}"

    def mib(v):
        return f"{max(v):7.1f}M" if v else f"{'-':>8}"

    print(f"gpusim-bench: working tree against {old}, medians of interleaved runs (M warp-insts/s; ratio = new/old)")
    print(f"{'case':30} {'old cpu':>8} {'new cpu':>8} {'ratio':>6} {'old wall':>8} {'new wall':>8} {'ratio':>6} "
          f"{'RSS old':>8} {'RSS new':>8}")
    for c in order:
        o, n = data[c].get("old"), data[c].get("new")
        if not o or not n:
            fail(f"{c}: runs of one side only")
        print(f"{c:30} {rate(o['cpu'])} {rate(n['cpu'])} {ratio(o['cpu'], n['cpu'])} "
              f"{rate(o['wall'])} {rate(n['wall'])} {ratio(o['wall'], n['wall'])} {mib(o['rss'])} {mib(n['rss'])}")
    if cg:
        print("\ncallgrind (--small sizes, inside gpu_simulate): host instructions per warp instruction")
        ir = {}
        for line in open(sys.argv[4]):
            side, c, n, w = line.rstrip("\n").split("\t")
            ir.setdefault(c, {})[side] = (int(n), int(w))
        print(f"{'case':30} {'old Ir/wi':>10} {'new Ir/wi':>10} {'old/new':>7}")
        for c in order:
            if c not in ir:
                continue
            (on, ow), (nn, nw) = ir[c]["old"], ir[c]["new"]
            print(f"{c:30} {on / ow:10.0f} {nn / nw:10.0f} {on / ow / (nn / nw):6.2f}")
    for c in bad:
        print(f"DIFFERENT warp-instruction counts for {c}: {insts[c]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""validate/counters.py -- hardware counters beside the simulator's.

  counters.py merge DIR > COUNTERS.json
      DIR is what `validate/run_device.sh --counters` wrote into $OUT/counters:
      per twin NAME.json (gpusim-validate --profile's records: profile_pid and
      profile_first say which of the report's kernels are each variant's) and
      NAME.csv (ncu's raw page, --print-units base). The output holds, per
      variant, its kernels and every numeric metric ncu gave each.

  counters.py compare COUNTERS.json[.gz] COMPARE.json [--metrics NAME,...]
      COMPARE.json is `gpusim compare RESULTS.json --json`, whose pairs carry
      sim_stats under Nsight Compute's metric names. Prints, per variant, each
      metric measured and simulated and their ratio (sim / hw). A variant of
      several launches has its .sum metrics added over them; its other metrics
      are left out (a rate or share of several kernels is not one number).

Exit status: 0 ok, 2 bad input (with the file and what was wrong).
"""
import csv
import gzip
import json
import os
import sys

DEFAULT_METRICS = [
    "gpu__time_duration.sum",
    "smsp__inst_executed.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "lts__t_sector_hit_rate.pct",
    "l1tex__t_sector_hit_rate.pct",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
]


def fail(msg):
    print("counters.py: " + msg, file=sys.stderr)
    sys.exit(2)


def number(text):
    """A CSV cell as a number (ncu may group digits with commas), or None."""
    t = text.strip().replace(",", "")
    if not t or t in ("n/a", "N/A"):
        return None
    try:
        return float(t)
    except ValueError:
        return None


def read_raw_csv(path):
    """ncu --csv --page raw: a header row, a units row, then one row per
    kernel. Returns [(process id, id, kernel name, {metric: value})]."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    # ncu prints its own lines (==PROF==, warnings) before the table
    start = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
    if start is None:
        fail(f"{path}: no header row starting with \"ID\" (is it ncu --csv --page raw?)")
    head = rows[start]
    for col in ("ID", "Process ID", "Kernel Name"):
        if col not in head:
            fail(f"{path}: header has no \"{col}\" column")
    body = rows[start + 1:]
    if body and number(body[0][0]) is None:  # the units row
        body = body[1:]
    out = []
    for line, r in enumerate(body, start + 3):
        if len(r) != len(head):
            fail(f"{path}:{line}: {len(r)} cells, the header has {len(head)}")
        cell = dict(zip(head, r))
        pid, kid = number(cell["Process ID"]), number(cell["ID"])
        if pid is None or kid is None:
            fail(f"{path}:{line}: \"ID\" and \"Process ID\" must be numbers")
        metrics = {}
        for k, v in cell.items():
            if "__" in k:  # metric names have a unit__counter form; the rest is launch data
                x = number(v)
                if x is not None:
                    metrics[k] = x
        out.append((int(pid), int(kid), cell["Kernel Name"], metrics))
    return out


def merge(folder):
    try:
        names = sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".json"))
    except OSError as e:
        fail(f"{folder}: {e.strerror}")
    if not names:
        fail(f"{folder}: no NAME.json files (run validate/run_device.sh --counters)")
    device, variants = None, []
    for name in names:
        jpath, cpath = os.path.join(folder, name + ".json"), os.path.join(folder, name + ".csv")
        try:
            with open(jpath) as f:
                res = json.load(f)
        except (OSError, ValueError) as e:
            fail(f"{jpath}: {e}")
        device = device or res.get("device")
        if not os.path.exists(cpath):
            print(f"counters.py: {name}: no {name}.csv (ncu profiled nothing); left out", file=sys.stderr)
            continue
        by_pid = {}
        for pid, kid, kname, metrics in read_raw_csv(cpath):
            by_pid.setdefault(pid, []).append((kid, kname, metrics))
        for kernels in by_pid.values():
            kernels.sort(key=lambda k: k[0])
        for i, rec in enumerate(res.get("variants", [])):
            where = f"{jpath}: variants[{i}]"
            if "profile_pid" not in rec:
                print(f"counters.py: {where}: not profiled ({rec.get('error', 'no profile_pid')}); left out",
                      file=sys.stderr)
                continue
            first, n = rec["profile_first"], rec["profile_launches"]
            ks = by_pid.get(rec["profile_pid"], [])[first:first + n]
            if len(ks) != n:
                fail(f"{where}: kernels {first}..{first + n - 1} of process {rec['profile_pid']} "
                     f"are not all in {cpath} ({len(by_pid.get(rec['profile_pid'], []))} there)")
            variants.append({"workload": rec["workload"], "variant": rec["variant"],
                             "correct": rec.get("correct"),
                             "kernels": [{"name": k[1], "metrics": k[2]} for k in ks]})
    json.dump({"schema": "gpusim-counters/1", "device": device, "variants": variants}, sys.stdout, indent=1)
    print()


def hw_value(kernels, metric):
    vals = [k["metrics"].get(metric) for k in kernels]
    if any(v is None for v in vals):
        return None
    if len(vals) == 1:
        return vals[0]
    return sum(vals) if metric.endswith(".sum") else None


def compare(counters_path, compare_path, metrics):
    try:
        # COUNTERS.json as merge wrote it, or gzipped (.gz: as committed)
        with (gzip.open(counters_path, "rt") if counters_path.endswith(".gz") else open(counters_path)) as f:
            hw = json.load(f)
        with open(compare_path) as f:
            sim = json.load(f)
    except (OSError, ValueError) as e:
        fail(str(e))
    if hw.get("schema") != "gpusim-counters/1":
        fail(f"{counters_path}: not a counters file (schema gpusim-counters/1)")
    if "pairs" not in sim:
        fail(f"{compare_path}: no \"pairs\" (is it gpusim compare --json?)")
    pairs = {(p["workload"], p["variant"]): p for p in sim["pairs"]}
    print(f"{'workload':<19} {'variant':<15} {'metric':<52} {'hw':>14} {'sim':>14} {'sim/hw':>8}")
    for v in hw["variants"]:
        p = pairs.get((v["workload"], v["variant"]))
        st = p.get("sim_stats") if p else None
        if st is None:
            print(f"{v['workload']:<19} {v['variant']:<15} (not simulated)")
            continue
        for m in metrics:
            h = hw_value(v["kernels"], m)
            s = p["sim_us"] * 1000.0 if m == "gpu__time_duration.sum" else st.get(m)
            if h is None or s is None:
                continue
            ratio = f"{s / h:8.3f}" if h else "       -"
            print(f"{v['workload']:<19} {v['variant']:<15} {m:<52} {h:14.6g} {s:14.6g} {ratio}")


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(argv) == 3 and argv[1] == "merge":
        merge(argv[2])
        return 0
    if len(argv) in (4, 6) and argv[1] == "compare":
        metrics = DEFAULT_METRICS
        if len(argv) == 6:
            if argv[4] != "--metrics":
                fail(f"unknown option {argv[4]}")
            metrics = [m for m in argv[5].split(",") if m]
        compare(argv[2], argv[3], metrics)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

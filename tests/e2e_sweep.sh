#!/usr/bin/env bash
# tests/e2e_sweep.sh -- end-to-end tests of `gpusim sweep` and the
# pictures: the lines and their keys against `gpusim run --json`, sweep
# order, --jobs 1 and --jobs 3 byte for byte, CSV (live and converted by
# --merge), resuming a killed sweep (a torn last line included), shards
# merged back (with GNU parallel when it is installed), merge refusals,
# --launch block, --gpu lists, a point the workload refuses, the progress
# line on a terminal, bad input leaving an existing --out untouched, plots
# and rooflines as PNG/SVG/PDF, and a missing plotting library or driver
# saying what to install while the data are still written.
# usage: e2e_sweep.sh GPUSIM_BINARY SOURCE_DIR
# The bad-input corpus of the command (tests/cli_corpus/sweep_*.case) runs
# in tests/e2e_cli.sh. Needs bash and python3.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 GPUSIM_BINARY SOURCE_DIR" >&2
    exit 2
fi
GPUSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh

T=workloads/transpose.json
# 2 machines x 2 sizes = 4 points, 4 variants: 16 runs of a few ms each
# shellcheck disable=SC2054 # the commas are gpusim's value lists
S=(sweep "$T" --set sm.count=2,4 --param n=32,64)

# sw NAME ARGS...: gpusim ARGS, stdout to $TMP/NAME.out, stderr to $TMP/NAME.err, status in $rc
sw() {
    local name=$1
    shift
    "$GPUSIM" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    rc=$?
}

expect() { # NAME WANT_RC
    if [ "$rc" -eq "$2" ]; then ok; else bad "$1: exit $rc, want $2" "$(head -n 3 "$TMP/$1.err")"; fi
}

same() { # NAME A B
    if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ" "$(diff "$2" "$3" | head -4)"; fi
}

py() { # NAME PROGRAM ARGS...: a python3 check
    local name=$1 prog=$2
    shift 2
    if python3 -c "$prog" "$@" 2>"$TMP/py.err"; then ok; else bad "$name" "$(tail -n 2 "$TMP/py.err")"; fi
}

# ---- the lines: one per run, in sweep order, with the keys of run --json
sw full "${S[@]}" --jobs 1
expect full 0
py "lines: keys, order, values" '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 16, len(lines)
first = ["spec", "point", "points", "variant", "variant_index", "variants", "workload", "gpu", "gpusim_version",
         "config_fnv1a", "set", "param", "params", "seeds", "check", "status", "cycles", "time_us", "ratio", "stats"]
assert list(lines[0]) == first, list(lines[0])
names = ["naive", "tiled", "tiled_padded", "copy"]
for k, d in enumerate(lines):
    assert (d["point"], d["variant_index"]) == (k // 4, k % 4), (k, d["point"], d["variant_index"])
    assert d["variant"] == names[k % 4] and d["points"] == 4 and d["variants"] == 4
    assert d["set"] == {"sm.count": [2, 4][k // 8]}, d["set"]
    assert d["param"] == {"n": [32, 64][k // 4 % 2]} == d["params"], d["param"]
    assert d["check"] == "pass" and d["status"] == "ok", d
    assert len({l["spec"] for l in lines}) == 1
assert [d["ratio"] for d in lines[:4]][0] == 1
assert abs(lines[1]["ratio"] - lines[1]["cycles"] / lines[0]["cycles"]) < 1e-5
' "$TMP/full.out"

# every stat and the machine hash are those of gpusim run --json at that point
sw one run "$T" --set sm.count=4 --param n=32 --json
py "lines: the stats of gpusim run --json" '
import json, sys
run = json.load(open(sys.argv[1]))
lines = [json.loads(l) for l in open(sys.argv[2])]
for v in run["variants"]:
    l = [d for d in lines if d["set"]["sm.count"] == 4 and d["param"]["n"] == 32 and d["variant"] == v["name"]][0]
    assert l["stats"] == v["stats"] and l["cycles"] == v["cycles"] and l["ratio"] == v["ratio"], v["name"]
    assert l["config_fnv1a"] == run["config_fnv1a"] and l["seeds"] == run["seeds"]
    assert l["gpusim_version"] == run["gpusim_version"]
' "$TMP/one.out" "$TMP/full.out"

# several launches and same_as checks: as gpusim run runs them (--variant unfused brings fused, its check's other side)
sw rr sweep workloads/residual_rmsnorm.json --param n=64,128 --variant unfused --jobs 2
expect rr 0
sw rrrun run workloads/residual_rmsnorm.json --param n=128 --variant unfused --json
py "several launches and same_as: the lines of gpusim run --json" '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
run = json.load(open(sys.argv[2]))
assert [(d["point"], d["variant"]) for d in lines] == [(0, "unfused"), (0, "fused"), (1, "unfused"), (1, "fused")]
for v in run["variants"]:
    l = [d for d in lines if d["point"] == 1 and d["variant"] == v["name"]][0]
    assert l["check"] == v["check"] == "pass" and l["stats"] == v["stats"] and l["ratio"] == v["ratio"], v["name"]
    assert l.get("launches") == v.get("launches"), v["name"]
assert [x["kernel"] for x in lines[2]["launches"]] == ["residual_add", "rmsnorm"]
' "$TMP/rr.out" "$TMP/rrrun.out"

# ---- --jobs: the same bytes in the same order, whatever the thread count
sw jobs3 "${S[@]}" --jobs 3
expect jobs3 0
same "--jobs 3 equals --jobs 1" "$TMP/full.out" "$TMP/jobs3.out"
sw jobs16 "${S[@]}" --jobs 16
same "--jobs 16 equals --jobs 1" "$TMP/full.out" "$TMP/jobs16.out"
sw default "${S[@]}"
same "the default --jobs (the cores) equals --jobs 1" "$TMP/full.out" "$TMP/default.out"

# ---- CSV: one column per swept key; --merge converts JSON lines to the same CSV
sw csv "${S[@]}" --csv --jobs 2
expect csv 0
py "--csv: header and rows" '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 16
h = list(rows[0])
assert h[:8] == ["spec", "point", "variant", "workload", "gpu", "config_fnv1a", "sm.count", "n"], h[:8]
assert h[8:13] == ["check", "status", "cycles", "time_us", "ratio"] and h[-1] == "error", h
assert "warp_instructions" in h and "stall_long_scoreboard" in h
assert [r["sm.count"] for r in rows[::4]] == ["2", "2", "4", "4"] and rows[5]["n"] == "64"
' "$TMP/csv.out"
cp "$TMP/full.out" "$TMP/full.jsonl"
sw tocsv sweep --merge "$TMP/full.jsonl" --csv
expect tocsv 0
same "--merge --csv equals a --csv sweep" "$TMP/csv.out" "$TMP/tocsv.out"

# ---- resume: a killed sweep loses nothing it wrote; a torn last line is dropped
out=$TMP/resume.jsonl
head -n 6 "$TMP/full.out" >"$out"
sed -n 7p "$TMP/full.out" | head -c 200 >>"$out" # killed halfway through line 7
sw resume "${S[@]}" --out "$out" --jobs 2
expect resume 0
same "resumed file equals the whole sweep" "$TMP/full.out" "$out"
if grep -q "dropped its last line" "$TMP/resume.err" && grep -q "holds 6 of this shard's 16 runs; running the other 10" "$TMP/resume.err"; then
    ok
else
    bad "resume: stderr does not say what it kept" "$(cat "$TMP/resume.err")"
fi
sw again "${S[@]}" --out "$out"
expect again 0
same "a finished sweep run again changes nothing" "$TMP/full.out" "$out"
grep -q "running the other 0" "$TMP/again.err" && ok || bad "a finished sweep ran runs again" "$(cat "$TMP/again.err")"

# ---- two sweeps on one --out: the second is refused (exit 2), the file as it
# was; they once both ran the missing runs and wrote them twice
cp "$out" "$TMP/locked.before"
python3 -c '
import fcntl, subprocess, sys
with open(sys.argv[1], "a") as f:  # a sweep holding --out
    fcntl.flock(f, fcntl.LOCK_EX)
    sys.exit(subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=open(sys.argv[1] + ".err", "w")).returncode)
' "$out" "$GPUSIM" "${S[@]}" --out "$out"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "^gpusim sweep: error: .*resume.jsonl is being written by another gpusim sweep" "$out.err" &&
    cmp -s "$out" "$TMP/locked.before"; then ok; else bad "a second sweep on a locked --out: exit $rc" "$(head -n 2 "$out.err")"; fi

# ---- bad input: exit 2, the --out file untouched (another sweep's file, bad lists, shard 5/4, ...)
cp "$out" "$TMP/before.jsonl"
for args in "--set sm.count=2,8 --param n=32,64" "--set sm.count=" "--set sm.count=2 --set sm.count=4" \
    "--param n=1:9:0" "--param n=1:2000000" "--shard 5/4" "--set sm.count=2,4 --param n=32,64 --csv" \
    "--set sm.count=2,4 --param n=32,64 --plot x.jpg --x n --y cycles"; do
    # shellcheck disable=SC2086 # split on blanks by design
    sw badout sweep "$T" $args --out "$out"
    if [ "$rc" -eq 2 ] && cmp -s "$out" "$TMP/before.jsonl"; then ok; else bad "bad input ($args): exit $rc or --out changed" "$(head -n 2 "$TMP/badout.err")"; fi
done
# a damaged --out: the sweep's spec hash with another point count, refused, not indexed with
sed '3s/"points": 4,/"points": 9,/' "$TMP/before.jsonl" >"$TMP/damaged.jsonl"
cp "$TMP/damaged.jsonl" "$TMP/damaged.before"
sw damaged "${S[@]}" --out "$TMP/damaged.jsonl"
if [ "$rc" -eq 2 ] && grep -q "^gpusim sweep: error: --out .*damaged.jsonl: line 3 is of 9 points x 4 variants, where this sweep has 4 x 4" "$TMP/damaged.err" &&
    cmp -s "$TMP/damaged.jsonl" "$TMP/damaged.before"; then
    ok
else
    bad "a damaged --out: exit $rc, no clear message or the file changed" "$(head -n 2 "$TMP/damaged.err")"
fi
sw other sweep "$T" --set sm.count=2,8 --param n=32,64 --out "$out"
grep -q "^gpusim sweep: error: --out .* holds runs of another sweep (line 1: spec " "$TMP/other.err" && ok ||
    bad "another sweep's --out: no clear message" "$(cat "$TMP/other.err")"

# ---- shards and --merge
for i in 0 1 2 3; do
    sw shard$i "${S[@]}" --shard $i/4 --out "$TMP/part$i.jsonl"
    expect shard$i 0
done
n=$(cat "$TMP"/part?.jsonl | wc -l)
[ "$n" -eq 16 ] && ok || bad "4 shards hold $n runs, want 16"
sw merged sweep --merge "$TMP/part3.jsonl" "$TMP/part1.jsonl" "$TMP/part0.jsonl" "$TMP/part2.jsonl" --out "$TMP/merged.jsonl"
expect merged 0
same "merged shards equal the unsharded sweep" "$TMP/full.out" "$TMP/merged.jsonl"
sw merge_stdout sweep --merge "$TMP"/part?.jsonl
same "--merge to stdout" "$TMP/full.out" "$TMP/merge_stdout.out"
sw missing sweep --merge "$TMP/part0.jsonl" "$TMP/part2.jsonl" --out "$TMP/never.jsonl"
expect missing 2
grep -q "^--merge: error: 8 of 16 runs are missing, the first point 1, variant 0" "$TMP/missing.err" && ok ||
    bad "merge with a shard missing: no clear message" "$(cat "$TMP/missing.err")"
[ ! -e "$TMP/never.jsonl" ] && ok || bad "a refused merge wrote its --out"
sw dup sweep --merge "$TMP"/part?.jsonl "$TMP/part1.jsonl"
expect dup 2
grep -q "is there twice" "$TMP/dup.err" && ok || bad "merge with a shard twice: no clear message" "$(cat "$TMP/dup.err")"
sw othersweep sweep "$T" --set sm.count=2,4 --param n=32,128 --shard 1/4 --out "$TMP/other1.jsonl"
sw mixed sweep --merge "$TMP/part0.jsonl" "$TMP/other1.jsonl" "$TMP/part2.jsonl" "$TMP/part3.jsonl"
expect mixed 2
grep -q "a run of another sweep" "$TMP/mixed.err" && ok || bad "merge of two sweeps: no clear message" "$(cat "$TMP/mixed.err")"
head -c 300 "$TMP/part1.jsonl" >"$TMP/torn1.jsonl"
sw torn sweep --merge "$TMP/part0.jsonl" "$TMP/torn1.jsonl" "$TMP/part2.jsonl" "$TMP/part3.jsonl"
expect torn 2
grep -q "the last line is cut short" "$TMP/torn.err" && ok || bad "merge of a torn shard: no clear message" "$(cat "$TMP/torn.err")"
sw self sweep --merge "$TMP/part0.jsonl" --out "$TMP/part0.jsonl"
expect self 2

# GNU parallel (Debian package parallel), as docs/SWEEPS.md shows it
if command -v parallel >/dev/null 2>&1; then
    (cd "$TMP" && parallel --will-cite -j 2 "$GPUSIM" sweep "$OLDPWD/$T" --set sm.count=2,4 --param n=32,64 \
        --shard {}/4 --out gp{}.jsonl ::: 0 1 2 3) 2>"$TMP/parallel.err"
    sw gpmerge sweep --merge "$TMP"/gp0.jsonl "$TMP"/gp1.jsonl "$TMP"/gp2.jsonl "$TMP"/gp3.jsonl
    expect gpmerge 0
    # the workload path is part of no line: the lines equal those run from here
    same "4 shards under GNU parallel, merged, equal the unsharded sweep" "$TMP/full.out" "$TMP/gpmerge.out"
else
    echo "note: GNU parallel not installed (Debian: parallel), its test skipped"
fi

# ---- --launch block, --gpu lists, a point the workload refuses
sw launch sweep workloads/examples/vecadd_block.json --param n=4096 --launch block=32:256:*2 --jobs 2
expect launch 0
py "--launch block: the block sizes and their grids" '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [d["param"]["block"] for d in lines] == [32, 64, 128, 256], [d["param"] for d in lines]
assert all(d["check"] == "pass" for d in lines)
assert lines[0]["stats"]["theoretical_occupancy"] == 0.5 and lines[3]["stats"]["theoretical_occupancy"] == 1
' "$TMP/launch.out"
sw gpus sweep "$T" --gpu a100,h100 --param n=32 --variant copy
expect gpus 0
py "--gpu a100,h100: one point per machine" '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [d["gpu"] for d in lines] == ["a100", "h100"] and lines[0]["config_fnv1a"] != lines[1]["config_fnv1a"]
' "$TMP/gpus.out"
sw badpoint sweep "$T" --param n=32,0,64 --variant copy
expect badpoint 2
py "a refused point: a line with its error, the others run" '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [d["status"] for d in lines] == ["ok", "bad_input", "ok"], [d["status"] for d in lines]
assert "error" in lines[1] and lines[1]["stats"] is None and lines[1]["cycles"] is None
' "$TMP/badpoint.out"
grep -q "1 of 3 runs did not pass" "$TMP/badpoint.err" && ok || bad "refused point: no summary on stderr"

# ---- the progress line: on a terminal only (script(1) gives one)
if command -v script >/dev/null 2>&1; then
    script -qfec "$GPUSIM sweep $T --set sm.count=2,4 --param n=32,64 --out $TMP/tty.jsonl" /dev/null >"$TMP/tty.txt" 2>&1
    if grep -q "sweep \[[#.]*\] [0-9]*/4 points ([0-9]*/16 runs)  .* elapsed, ~.* left" "$TMP/tty.txt"; then ok; else bad "no progress line on a terminal" "$(head -c 300 "$TMP/tty.txt")"; fi
    same "the sweep under a terminal writes the same lines" "$TMP/full.out" "$TMP/tty.jsonl"
fi
grep -q "runs .* elapsed" "$TMP/full.err" && bad "a progress line on a stderr that is not a terminal" || ok

# ---- pictures: PNG, SVG, PDF by their first bytes; rooflines
magic() { # NAME FILE BYTES...
    if [ -s "$2" ] && [ "$(head -c ${#3} "$2")" = "$3" ]; then ok; else bad "$1: $2 is not what it says" "$(head -c 16 "$2" | od -c | head -2)"; fi
}
sw plot "${S[@]}" --plot "$TMP/p.png" --x sm.count --y cycles --out "$TMP/plot.jsonl"
if grep -q "built without PLplot" "$TMP/plot.err"; then
    # a build without PLplot: it says what to install, and the data are written all the same
    expect plot 1
    grep -q "install libplplot-dev and plplot-driver-cairo" "$TMP/plot.err" && ok || bad "no PLplot: no clear message"
    same "no PLplot: the runs are written all the same" "$TMP/full.out" "$TMP/plot.jsonl"
else
    expect plot 0
    magic "--plot PNG" "$TMP/p.png" $'\x89PNG'
    # a valid PNG: every chunk's CRC, IHDR first (1200 x 760), IEND last, the image data inflating
    py "--plot PNG is a whole, valid PNG of 1200 x 760" '
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
i, kinds, idat = 8, [], b""
while i < len(d):
    n, = struct.unpack(">I", d[i:i + 4])
    kind, body, crc = d[i + 4:i + 8], d[i + 8:i + 8 + n], d[i + 8 + n:i + 12 + n]
    assert struct.unpack(">I", crc)[0] == zlib.crc32(kind + body), kind
    kinds.append(kind)
    if kind == b"IHDR": assert struct.unpack(">II", body[:8]) == (1200, 760)
    if kind == b"IDAT": idat += body
    i += 12 + n
assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND", kinds
assert len(zlib.decompress(idat)) >= 760 * (1 + 1200 * 3)
' "$TMP/p.png"
    sw svg sweep "$T" --param n=32,64 --variant tiled --variant tiled_padded --plot "$TMP/p.svg" --x n --y dram_bandwidth_gbs --series variant
    expect svg 0
    magic "--plot SVG" "$TMP/p.svg" "<?xml"
    py "--plot SVG is XML with an svg root" '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
assert len(list(root.iter())) > 50
' "$TMP/p.svg"
    sw pdf sweep "$T" --param n=32,64 --variant copy --plot "$TMP/p.pdf" --x n --y time_us
    expect pdf 0
    magic "--plot PDF" "$TMP/p.pdf" "%PDF-"
    # the merged shards draw the same chart's data
    sw mplot sweep --merge "$TMP"/part?.jsonl --plot "$TMP/m.png" --x sm.count --y cycles
    expect mplot 0
    magic "--merge --plot PNG" "$TMP/m.png" $'\x89PNG'
    # --variant picks the variants a merged chart draws; one no run has, or
    # --variant without --plot, is bad input with nothing written
    sw mvar sweep --merge "$TMP"/part?.jsonl --plot "$TMP/mv.png" --x sm.count --y cycles --variant naive --variant copy
    expect mvar 0
    magic "--merge --plot --variant PNG" "$TMP/mv.png" $'\x89PNG'
    sw mvarbad sweep --merge "$TMP"/part?.jsonl --plot "$TMP/mvb.png" --x sm.count --y cycles --variant nope --out "$TMP/mvb.jsonl"
    if [ "$rc" -eq 2 ] && grep -q "error: --variant nope: no run of the files is of that variant" "$TMP/mvarbad.err" &&
        [ ! -e "$TMP/mvb.png" ] && [ ! -e "$TMP/mvb.jsonl" ]; then ok; else bad "--merge --variant nope: exit $rc" "$(head -2 "$TMP/mvarbad.err")"; fi
    sw mvarnoplot sweep --merge "$TMP"/part?.jsonl --variant naive
    if [ "$rc" -eq 2 ] && grep -q "variants --plot draws" "$TMP/mvarnoplot.err"; then ok; else bad "--merge --variant without --plot: exit $rc"; fi
    # --series with several variants: a series per variant and value
    sw servar "${S[@]}" --plot "$TMP/sv.png" --x sm.count --y cycles --series n --out "$TMP/sv.jsonl"
    expect servar 0
    magic "--series n over 4 variants" "$TMP/sv.png" $'\x89PNG'
    # a resumed sweep draws the runs it kept as well as the new ones
    rm -f "$TMP/p2.png"
    sw plotagain "${S[@]}" --plot "$TMP/p2.png" --x sm.count --y cycles --out "$TMP/plot.jsonl"
    expect plotagain 0
    same "a resumed sweep's chart equals the first" "$TMP/p.png" "$TMP/p2.png"
    # the plotting drivers missing (PLPLOT_DRV_DIR: where PLplot looks for its driver plugins):
    # none at all, or all but cairo (plplot-driver-cairo not installed)
    mkdir -p "$TMP/nodrivers" "$TMP/nocairo"
    drivers=$(ls -d /usr/lib/*/plplot*/drivers /usr/lib/plplot*/drivers /usr/local/lib/plplot*/drivers 2>/dev/null | head -n 1)
    for f in "$drivers"/*; do
        case $(basename "$f") in cairo.*) ;; *) [ -e "$f" ] && ln -s "$f" "$TMP/nocairo/" ;; esac
    done
    for dir in nodrivers nocairo; do
        [ "$dir" = nocairo ] && [ -z "$drivers" ] && continue
        rm -f "$TMP/nodrv.jsonl"
        PLPLOT_DRV_DIR=$TMP/$dir "$GPUSIM" "${S[@]}" --plot "$TMP/q.png" --x sm.count --y cycles --out "$TMP/nodrv.jsonl" \
            >/dev/null 2>"$TMP/nodrv.err"
        rc=$?
        if [ "$rc" -eq 1 ] && grep -q "^--plot: error: cannot draw .*q.png: .*cairo.*driver.*plplot-driver-cairo" "$TMP/nodrv.err"; then
            ok
        else
            bad "$dir: exit $rc or no clear message" "$(tail -n 2 "$TMP/nodrv.err")"
        fi
        same "$dir: the runs are written all the same" "$TMP/full.out" "$TMP/nodrv.jsonl"
        [ ! -e "$TMP/q.png" ] && ok || bad "$dir: a picture was left behind"
        ls "$TMP"/q.png.tmp-* >/dev/null 2>&1 && bad "$dir: a temporary file was left behind" || ok
    done
    [ -n "$drivers" ] && grep -q "PLplot has no cairo driver here (its drivers are plugins): install plplot-driver-cairo" "$TMP/nodrv.err" &&
        ok || bad "no cairo driver: not named" "$(cat "$TMP/nodrv.err")"
    # rooflines
    sw roof run workloads/rmsnorm.json --param n=64 --roofline "$TMP/roof.png"
    expect roof 0
    magic "--roofline PNG" "$TMP/roof.png" $'\x89PNG'
    sw roofsvg run workloads/gemm.json --param n=32 --roofline "$TMP/roof.svg"
    magic "--roofline SVG" "$TMP/roof.svg" "<?xml"
    sw noflops run "$T" --param n=32 --roofline "$TMP/noflops.png"
    expect noflops 1
    grep -q "^--roofline: error: no variant did FP32 work to place on the roofline (naive, tiled, tiled_padded, copy)" "$TMP/noflops.err" &&
        ok || bad "roofline without FP32 work: no clear message" "$(cat "$TMP/noflops.err")"
    grep -q "^variant " "$TMP/noflops.out" && ok || bad "roofline refused: the report was not printed"
fi
sw roofext run "$T" --param n=32 --roofline "$TMP/r.gif"
expect roofext 2

# ---- help
sw help sweep --help
expect help 0
grep -q "^usage: gpusim sweep FILE.json" "$TMP/help.out" && ok || bad "sweep --help: no usage"
grep -q "^  sweep " <("$GPUSIM" --help) && ok || bad "gpusim --help does not list sweep"

e2e_finish

#!/usr/bin/env bash
# tests/e2e_source.sh -- the per-instruction view, `gpusim run --source`.
# usage: e2e_source.sh GPUSIM SOURCE_DIR
# 1. Every shipped workload (workloads/*.json, workloads/examples/*.json)
#    prints one listing per launch of every variant, from a readable file.
# 2. --json: one "source" table per launch whose instructions add up to the
#    launch's warp instructions, thread instructions and warp cycles, and the
#    kernel-wide stats are those of a run without --source.
# 3. The lesson, down to the line: the tiled transpose's ld.shared shows 32
#    wavefronts per request, the padded one 1 (text and --json); the
#    mini-ISA comments stay in the listing.
# 4. A PTX kernel with .loc lines (tests/source/transpose.ptx, made by
#    tests/source/gen.sh; no toolkit needed): each .loc shows its CUDA line,
#    and the per-line summary puts 32 wavefronts on the tile's column read
#    (line 44 of validate/twins/transpose.cu). With nvcc: a .cu workload too.
# 5. Bad input: --source with --csv exits 2 and says why.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 GPUSIM SOURCE_DIR" >&2
    exit 2
fi
GPUSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh
export GPUSIM_CACHE_DIR="$TMP/cache"

# ---- 1. every shipped workload
for w in workloads/*.json workloads/examples/*.json; do
    case $w in *schema*) continue ;; esac
    n=$(basename "$w" .json)
    "$GPUSIM" run "$w" --source >"$TMP/$n.txt" 2>"$TMP/$n.err"
    rc=$?
    want=$(python3 -c "import json
w = json.load(open('$w'))
print(sum(len(v.get('launches', [0])) for v in w['variants']))")
    got=$(grep -c '^source of ' "$TMP/$n.txt")
    if [ "$rc" = 0 ] && [ "$got" = "$want" ] && ! grep -q 'cannot be read' "$TMP/$n.txt"; then ok
    else bad "$w --source: exit $rc, $got listings for $want launches" "$(head -3 "$TMP/$n.err")"; fi
done

# ---- 2. --json: the table adds up, and changes nothing else
check_json() { # NAME WORKLOAD ARGS...: the sums, against a plain --json run
    local name=$1
    shift
    "$GPUSIM" run "$@" --source --json >"$TMP/$name.src.json" 2>/dev/null
    "$GPUSIM" run "$@" --json >"$TMP/$name.plain.json" 2>/dev/null
    if python3 -c "import json, sys
s = json.load(open('$TMP/$name.src.json'))
p = json.load(open('$TMP/$name.plain.json'))
for vs, vp in zip(s['variants'], p['variants']):
    assert vs['cycles'] == vp['cycles'] and vs['stats'] == vp['stats'], vs['name'] + ': stats differ'
    assert vs.get('launches') == vp.get('launches'), vs['name'] + ': launches differ'
    launches = vs.get('launches') or [vs]
    assert len(vs['source']) == len(launches), vs['name'] + ': one table per launch'
    for t, l in zip(vs['source'], launches):
        ins = t['instructions']
        assert sum(i['warp_instructions'] for i in ins) == l['stats']['warp_instructions'], vs['name'] + ': warp instructions'
        assert sum(i['warp_cycles'] for i in ins) == t['warp_cycles'], vs['name'] + ': warp cycles'
        share = sum(i['cycle_share'] for i in ins)
        assert abs(share - 1) < 1e-3, vs['name'] + ': shares sum to %g' % share
        ranks = sorted(i['rank'] for i in ins if i['rank'])
        assert ranks == list(range(1, len(ranks) + 1)) and ranks, vs['name'] + ': ranks %s' % ranks
    assert 'source' not in vp
"; then ok; else bad "$name: the --source table does not add up, or changed the stats"; fi
}
check_json transpose workloads/transpose.json --param n=256
check_json two_pass workloads/reduction_two_pass.json --param n=65536 --param blocks=64
check_json histogram workloads/examples/histogram.json
check_json divergence workloads/divergence.json --param n=4096 --param iters=10

# ---- 3. the transpose's tile read, down to the line
# counters_under FILE PATTERN: the counters printed under the first listing
# line that matches PATTERN (a "#k" mark may start it)
counters_under() { awk -v pat="$2" 'found { print; exit } $0 ~ pat && /^ *[0-9]+  / { found = 1 }' "$1"; }
"$GPUSIM" run workloads/transpose.json --param n=256 --variant tiled --variant tiled_padded --source >"$TMP/t.txt" 2>&1
sed -n '/^source of tiled:/,/^source of tiled_padded:/p' "$TMP/t.txt" >"$TMP/tiled.txt"
sed -n '/^source of tiled_padded:/,$p' "$TMP/t.txt" >"$TMP/padded.txt"
c=$(counters_under "$TMP/tiled.txt" 'ld\.shared')
case $c in *"wf/req 32.0  bc/req 31.0"*) ok ;; *) bad "tiled: ld.shared line" "$c" ;; esac
c=$(counters_under "$TMP/padded.txt" 'ld\.shared')
case $c in *"wf/req 1.0  bc/req 0.0"*) ok ;; *) bad "tiled_padded: ld.shared line" "$c" ;; esac
if grep -q 'ld.shared.f32 %r11, \[%r12+tile\]      // tile\[tx\]\[ty\]: lanes 128 bytes apart, all in one bank' "$TMP/tiled.txt"
then ok; else bad "tiled: the mini-ISA comment is not in the listing"; fi
if grep -Eq '^ +#1 ' "$TMP/tiled.txt" && grep -q 'the most at:' "$TMP/tiled.txt"; then ok; else bad "tiled: no top lines marked"; fi
if python3 -c "import json
d = json.load(open('$TMP/transpose.src.json'))
v = {x['name']: x for x in d['variants']}
for name, wf in (('tiled', 32), ('tiled_padded', 1)):
    ld = [i for i in v[name]['source'][0]['instructions'] if i['asm'].startswith('@%p0 ld.shared')]
    assert len(ld) == 1 and ld[0]['wavefronts_per_request'] == wf, (name, ld)
    assert ld[0]['bank_conflicts_per_request'] == wf - 1 and 'one bank' in (ld[0]['line_text'] or '') or wf == 1
"; then ok; else bad "transpose --json: the ld.shared instructions' wavefronts per request"; fi

# ---- 4. a PTX kernel: .loc lines, the per-line summary
P=tests/source/transpose.json
"$GPUSIM" run $P --source >"$TMP/p.txt" 2>"$TMP/p.err"
if [ $? = 0 ]; then ok; else bad "$P --source failed" "$(head -3 "$TMP/p.err")"; fi
if grep -q '^        \[transpose.cu:44\] .*tile\[threadIdx.x\]\[threadIdx.y\]' "$TMP/p.txt"; then ok
else bad "$P: the .loc of line 44 does not show its CUDA line"; fi
sed -n '/^source of tiled:/,/^source of tiled_padded:/p' "$TMP/p.txt" >"$TMP/ptiled.txt"
sed -n '/^source of tiled_padded:/,$p' "$TMP/p.txt" >"$TMP/ppadded.txt"
sed -n '/by line of/,$p' "$TMP/ptiled.txt" >"$TMP/ptiled_lines.txt"
sed -n '/by line of/,$p' "$TMP/ppadded.txt" >"$TMP/ppadded_lines.txt"
c=$(counters_under "$TMP/ptiled_lines.txt" 'tile\[threadIdx.x\]\[threadIdx.y\]')
case $c in *"wf/req 32.0  bc/req 31.0"*) ok ;; *) bad "PTX tiled: the CUDA line of the column read" "$c" ;; esac
c=$(counters_under "$TMP/ppadded_lines.txt" 'tile\[threadIdx.x\]\[threadIdx.y\]')
case $c in *"wf/req 1.0  bc/req 0.0"*) ok ;; *) bad "PTX tiled_padded: the CUDA line of the column read" "$c" ;; esac
c=$(counters_under "$TMP/ptiled.txt" 'ld\.shared')
case $c in *"wf/req 32.0"*) ok ;; *) bad "PTX tiled: the ld.shared instruction" "$c" ;; esac
"$GPUSIM" run $P --source --json >"$TMP/p.json" 2>/dev/null
if python3 -c "import json
d = json.load(open('$TMP/p.json'))
t = d['variants'][0]['source'][0]
lines = {l['source_line']: l for l in t['source_lines']}
assert lines[44]['wavefronts_per_request'] == 32, lines[44]
assert all(i.get('source_line') for i in t['instructions']), 'an instruction without its .loc'
assert sum(l['warp_instructions'] for l in t['source_lines']) == d['variants'][0]['stats']['warp_instructions']
"; then ok; else bad "$P --json: source_lines"; fi
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    "$GPUSIM" run workloads/cuda/transpose.json --param n=128 --variant tiled --source >"$TMP/cu.txt" 2>"$TMP/cu.err"
    if [ $? = 0 ] && grep -q 'by line of .*transpose.cu' "$TMP/cu.txt"; then ok
    else bad "workloads/cuda/transpose.json --source" "$(head -3 "$TMP/cu.err")"; fi
else
    echo "skip: no nvcc, workloads/cuda/transpose.json --source not run"
fi

# ---- 5. bad input
"$GPUSIM" run workloads/transpose.json --source --csv >"$TMP/o" 2>"$TMP/e"
rc=$?
if [ "$rc" = 2 ] && grep -q -- '--source has no CSV form' "$TMP/e"; then ok; else bad "--source --csv: exit $rc" "$(cat "$TMP/e")"; fi

# a PTX file with bytes that are not UTF-8 (a Latin-1 comment): --source
# --json is still JSON, each such byte written as U+FFFD (it was copied raw)
python3 - "$TMP" <<'PY'
import json, sys
t = sys.argv[1]
src = open('tests/ptx/vecadd.ptx', 'rb').read().split(b'\n')
out, done = [], False
for l in src:
    if l.strip().startswith((b'.loc', b'.file')): continue
    out.append(l)
    if not done and b'ld.param.u32' in l:
        out.append(b'\tadd.s32 %r1, %r1, 0; // caf\xe9 \xff')
        done = True
open(t + '/latin1.ptx', 'wb').write(b'\n'.join(out))
d = json.load(open('workloads/cuda/vecadd.json'))
d['kernels'] = 'latin1.ptx'
for v in d['variants']: v['regs'] = 16
json.dump(d, open(t + '/latin1.json', 'w'))
PY
GPUSIM_PTXAS= "$GPUSIM" run "$TMP/latin1.json" --param n=4096 --source --json >"$TMP/latin1.out" 2>"$TMP/e"
rc=$?
if [ "$rc" = 0 ] && python3 -c "
import json, sys
d = json.load(open('$TMP/latin1.out', encoding='utf-8'))
sys.exit(0 if 'caf\ufffd \ufffd' in json.dumps(d, ensure_ascii=False) else 1)"; then ok
else bad "--source --json of PTX with Latin-1 bytes: exit $rc, or not UTF-8 JSON" "$(head -2 "$TMP/e")"; fi

e2e_finish

#!/usr/bin/env bash
# tests/e2e_format.sh -- end-to-end tests of the workload format's newer
# parts (issue 12): checks without C (same_as, expect) and the example
# workloads with their deliberately wrong twins; variant names of any text
# and --variant given twice; --dump and --dump-buffers (read back by NumPy
# where python3 has it); variants of several launches in the text table,
# --json, --csv, --trace and compare; and that workloads/README.md's
# workload table lists every workload file with its variants.
# usage: e2e_format.sh GPUSIM SOURCE_DIR
# Prints one line per failure and a final "N passed, M failed".
set -u
GPUSIM=$(realpath "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh

# gp RC ARGS...: gpusim ARGS, stdout to $TMP/out, stderr to $TMP/err, exit RC
gp() {
    local want=$1
    shift
    "$GPUSIM" "$@" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    if [ "$rc" = "$want" ]; then ok; else bad "gpusim $* exited $rc, expected $want" "$(head -3 "$TMP/err")"; fi
}
has() { if grep -Fq -- "$2" "$TMP/$1"; then ok; else bad "$1 lacks: $2" "$(head -5 "$TMP/$1")"; fi; }
hasnt() { if grep -Fq -- "$2" "$TMP/$1"; then bad "$1 has: $2"; else ok; fi; }
PY=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import numpy' 2>/dev/null; then PY=$p; break; fi
done

# ---- the examples: written without C, checked with expect and same_as
for w in stencil histogram; do
    run_json "$w" "workloads/examples/$w.json" && ok
done
# the histogram's text: on h200 same-line atomics serialize, about 3x shared_bins
gp 0 run workloads/examples/histogram.json --gpu h200 --json
python3 -c "
import json; d = {v['name']: v['cycles'] for v in json.load(open('$TMP/out'))['variants']}
r = d['global_atomics'] / d['shared_bins']
assert 2.0 <= r <= 4.0, r
" && ok || bad "histogram on h200: global_atomics is not about 3x shared_bins"
gp 1 run tests/json_corpus/run/stencil_wrong.json
has out "short grid: check failed: out[16128]: expected -0.211144537, got 0 (255 of 16384 elements differ, expected in tests/json_corpus/run/../../../workloads/examples/expected/stencil_out.npy)"
has out "short shared: check failed: out[16128]: expected -0.211144537, got 0 (255 of 16384 elements differ, same as 'global')"
gp 1 run tests/json_corpus/run/histogram_wrong.json --json
python3 -c "
import json; d = {v['name']: v for v in json.load(open('$TMP/out'))['variants']}
assert d['global_atomics']['check'] == 'pass'
assert d['half']['error'].startswith('check failed: bins[31]: expected 1, got 0 ('), d['half']
assert d['half shared']['error'].endswith(\"same as 'global_atomics')\"), d['half shared']
" && ok || bad "histogram_wrong --json: the failing checks"

# ---- variant names of any text; --variant exact, repeatable, with a hint
cat >"$TMP/names.json" <<EOF
{"name": "names", "description": "variant names", "params": {"n": 64},
 "kernels": "$PWD/workloads/kernels/vecadd.asm",
 "buffers": [{"name": "a", "type": "f32", "count": "n", "init": {"random": {"seed": 1}}},
             {"name": "b", "type": "f32", "count": "n", "init": {"constant": {"value": "n/16"}}},
             {"name": "c", "type": "f32", "count": "n"}],
 "variants": [
  {"name": "12.5%", "kernel": "vecadd_scalar", "grid": 1, "block": 64, "args": ["a", "b", "c", "n"],
   "checks": [{"buffer": "c", "reference": "vecadd"}]},
  {"name": "2*SMs+1", "kernel": "vecadd_scalar", "grid": 1, "block": 64, "args": ["a", "b", "c", "n"],
   "checks": [{"buffer": "c", "same_as": "12.5%"}]},
  {"name": "with space/slash", "kernel": "vecadd_scalar", "grid": 1, "block": 64, "args": ["a", "b", "c", "n"]}]}
EOF
gp 0 run "$TMP/names.json" --variant "with space/slash"
if grep -Eq '^with space/slash +none ' "$TMP/out" && ! grep -q '^12.5%' "$TMP/out"; then ok; else bad "--variant 'with space/slash'" "$(cat "$TMP/out")"; fi
gp 0 run "$TMP/names.json" --variant "12.5%" --variant "with space/slash" --csv
[ "$(cut -d, -f3 "$TMP/out" | tail -n +2 | tr '\n' '|')" = "12.5%|with space/slash|" ] && ok || bad "--variant twice selects both" "$(cat "$TMP/out")"
# a variant's same_as target runs (and is reported) with it
gp 0 run "$TMP/names.json" --variant "2*SMs+1" --csv
[ "$(cut -d, -f3,4 "$TMP/out" | tail -n +2 | tr '\n' '|')" = "12.5%,pass|2*SMs+1,pass|" ] && ok || bad "--variant with a same_as target" "$(cat "$TMP/out")"
gp 2 run "$TMP/names.json" --variant "12.5"
has err "has no variant '12.5' (it has: 12.5%, 2*SMs+1, with space/slash); did you mean '12.5%'?"
gp 2 run "$TMP/names.json" --variant "12.5% "

# ---- --dump and --dump-buffers
gp 0 run "$TMP/names.json" --dump "$TMP/dump"
[ "$(cd "$TMP/dump" && ls | tr '\n' ' ')" = "12.5%25.a.npy 12.5%25.b.npy 12.5%25.c.npy 2*SMs+1.a.npy 2*SMs+1.b.npy 2*SMs+1.c.npy with space%2Fslash.a.npy with space%2Fslash.b.npy with space%2Fslash.c.npy " ] &&
    ok || bad "--dump file names" "$(ls "$TMP/dump")"
head -c 6 "$TMP/dump/12.5%25.c.npy" | od -c | head -1 | grep -q '223   N   U   M   P   Y' && ok || bad "--dump: not a .npy file"
if [ -n "$PY" ]; then
    "$PY" -c "
import numpy as np
a, b, c = (np.load('$TMP/dump/12.5%25.' + x + '.npy') for x in 'abc')
assert c.dtype == '<f4' and c.shape == (64,) and (b == 4).all() and (c == a + b).all(), c
" && ok || bad "--dump: NumPy reads c = a + b back"
fi
gp 0 run workloads/residual_rmsnorm.json --param n=8 --variant unfused --dump "$TMP/dump2" --dump-buffers y,h
[ "$(cd "$TMP/dump2" && ls | tr '\n' ' ')" = "fused.h.npy fused.y.npy unfused.h.npy unfused.y.npy " ] && ok || bad "--dump-buffers" "$(ls "$TMP/dump2")"
gp 2 run workloads/residual_rmsnorm.json --dump "$TMP/dump3" --dump-buffers y,q
has err "--dump-buffers: workloads/residual_rmsnorm.json has no buffer 'q' (it has: x, r, w, h, y)"
gp 2 run workloads/residual_rmsnorm.json --dump-buffers y
has err "--dump-buffers goes with --dump DIR"
gp 2 run workloads/residual_rmsnorm.json --dump /dev/null/x
has err "--dump: cannot make directory '/dev/null/x'"
# two variants whose names would meet as file names ("a/b" written a%2Fb, and
# "a%2Fb" itself) keep a file each: one overwrote the other
python3 -c "
import json
d = json.load(open('$TMP/names.json'))
d['variants'] = [dict(d['variants'][2], name=n) for n in ('a/b', 'a%2Fb')]
json.dump(d, open('$TMP/meet.json', 'w'))"
gp 0 run "$TMP/meet.json" --dump "$TMP/meet" --dump-buffers c
[ "$(cd "$TMP/meet" && ls | tr '\n' ' ')" = "a%252Fb.c.npy a%2Fb.c.npy " ] && ok || bad "--dump: names that met" "$(ls "$TMP/meet")"

# ---- several launches: text, --json, --csv, --trace
gp 0 run workloads/reduction_two_pass.json --param n=65536 --param blocks=64
if grep -Eq '^two_pass +pass ' "$TMP/out" && grep -Eq '^  #1 reduce_partials ' "$TMP/out" && grep -Eq '^  #2 reduce_final ' "$TMP/out"; then ok
else bad "reduction_two_pass: the launches under the variant's row" "$(sed -n '/^variant/,/^same/p' "$TMP/out")"; fi
gp 0 run workloads/reduction_two_pass.json --param n=65536 --param blocks=64 --json
python3 -c "
import json; v = {x['name']: x for x in json.load(open('$TMP/out'))['variants']}
assert 'launches' not in v['one_pass']
l = v['two_pass']['launches']
assert [x['kernel'] for x in l] == ['reduce_partials', 'reduce_final'], l
assert sum(x['cycles'] for x in l) == v['two_pass']['cycles']
assert sum(x['stats']['warp_instructions'] for x in l) == v['two_pass']['stats']['warp_instructions']
assert l[1]['stats']['blocks_per_sm'] >= 1 and set(l[1]['stats']) == set(v['two_pass']['stats'])
" && ok || bad "reduction_two_pass --json: launches"
gp 0 run workloads/reduction_two_pass.json --param n=65536 --param blocks=64 --csv
[ "$(wc -l <"$TMP/out")" = 3 ] && ok || bad "--csv: one row per variant (the sums)"
gp 0 run workloads/residual_rmsnorm.json --param n=8 --trace "$TMP/trace.json"
python3 -c "
import json; d = json.load(open('$TMP/trace.json'))
l = sorted({e['args']['launch'] for e in d['traceEvents'] if e.get('cat') == 'block' and 'args' in e})
assert l == ['residual_rmsnorm/fused', 'residual_rmsnorm/unfused#1 residual_add', 'residual_rmsnorm/unfused#2 rmsnorm'], l
" && ok || bad "--trace: each launch labelled"

# ---- compare: a two-launch record is simulated as its sequence; a record
# of a variant the file does not have is reported, not fatal to the others
cat >"$TMP/results.json" <<EOF
{"schema": "gpusim-validate/1", "device": {"name": "test", "preset": "h200"}, "variants": [
 {"workload": "reduction_two_pass", "file": "workloads/reduction_two_pass.json", "variant": "one_pass",
  "params": {"n": 65536, "blocks": 64}, "launch": {"grid": [64, 1, 1], "block": [256, 1, 1], "dynamic_smem": 1024},
  "regs": 30, "blocks_per_sm": 8, "correct": true, "ms": 0.01},
 {"workload": "reduction_two_pass", "file": "workloads/reduction_two_pass.json", "variant": "two_pass",
  "params": {"n": 65536, "blocks": 64}, "launch": {"grid": [64, 1, 1], "block": [256, 1, 1], "dynamic_smem": 1024},
  "launches": [{"kernel": "reduce_partials", "grid": [64, 1, 1], "block": [256, 1, 1], "dynamic_smem": 1024, "regs": 30, "blocks_per_sm": 8},
               {"kernel": "reduce_final", "grid": [1, 1, 1], "block": [256, 1, 1], "dynamic_smem": 1024, "regs": 16, "blocks_per_sm": 8}],
  "regs": 30, "blocks_per_sm": 8, "correct": true, "ms": 0.012}]}
EOF
gp 0 compare "$TMP/results.json" --json
python3 -c "
import json; p = {x['variant']: x for x in json.load(open('$TMP/out'))['pairs']}
assert p['two_pass']['sim_us'] > p['one_pass']['sim_us'] > 0, p
assert 'note' not in p['two_pass'], p['two_pass']
" && ok || bad "compare: a two-launch record" "$(head -c 600 "$TMP/out")"

# ---- workloads/README.md lists every workload file with its variants
python3 - <<'EOF' && ok || bad "workloads/README.md's workload table and the files disagree"
import glob, json, re
rows = {}
for line in open('workloads/README.md'):
    m = re.match(r'\| `([^`]+\.json)` \| ([^|]*) \|', line)
    if m:
        rows[m.group(1)] = re.findall(r'`([^`]+)`', m.group(2))
files = sorted(glob.glob('workloads/*.json') + glob.glob('workloads/examples/*.json') + glob.glob('workloads/labs/*.json'))
files = [f for f in files if not f.endswith('.schema.json')]
ok = True
for f in files:
    key = f[len('workloads/'):]
    want = [v['name'] for v in json.load(open(f))['variants']]
    if rows.get(key) != want:
        print('  %s: README has %s, the file %s' % (key, rows.get(key), want))
        ok = False
for key in rows:
    if 'workloads/' + key not in files:
        print('  README lists %s, which does not exist' % key)
        ok = False
raise SystemExit(0 if ok else 1)
EOF

e2e_finish

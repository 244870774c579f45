#!/usr/bin/env bash
# tests/e2e_run.sh -- end-to-end tests of `gpusim run`.
# usage: e2e_run.sh GPUSIM SOURCE_DIR
# Runs from SOURCE_DIR so that file names in messages are the relative ones
# pinned in tests/json_corpus/*.expected. Checks: the shipped workloads run
# and pass; --json has the documented keys and is deterministic but for the
# sim wall-clock fields; --variant, --param, --csv; the teaching effects on
# the a100 preset at small sizes; runtime failures exit 1 while the other
# variants still run; bad flags and every bad file of the corpus exit 2
# with the pinned first error line. Needs bash and python3 (no jq).
set -u
GPUSIM=$(realpath "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh
E2E_PROGRAM=$GPUSIM

# pyjson EXPR MESSAGE: runs a python3 program over $OUT (parsed as JSON in `d`).
pyjson() {
    python3 -c "import json, sys
d = json.load(open('$OUT'))
$1" || bad "$2"
}

# ---- the default transpose: 4 variants, all pass, exit 0
expect_rc run 0 run workloads/transpose.json
for v in naive tiled tiled_padded copy; do
    grep -Eq "^$v +pass " "$OUT" || bad "transpose: no passing row for $v"
done
grep -q '^why:' "$OUT" || bad "transpose: no explanations"
folded=$(tr -s ' \n' '  ' <"$OUT") # the sentences as one line, whatever the wrapping
grep -q 'shared loads take 32.0 wavefronts per request where 1.0 would do: 32-way bank conflict' <<<"$folded" ||
    bad "transpose: tiled's bank conflict is not explained"
grep -q 'global stores touch 32.0 sectors per request where 4 would do: uncoalesced' <<<"$folded" ||
    bad "transpose: naive's uncoalesced stores are not explained"

# ---- --json: the documented keys; padded beats tiled and naive
expect_rc run 0 run workloads/transpose.json --param n=256 --json
pyjson "
assert set(d) == {'workload', 'gpu', 'gpusim_version', 'config_fnv1a', 'params', 'seeds', 'sim', 'variants'}, d.keys()
assert d['params'] == {'n': 256} and d['seeds'] == {'in': 1}, (d['params'], d['seeds'])
assert d['workload'] == 'transpose' and d['gpu'] == 'a100'
assert set(d['sim']) == {'wall_seconds', 'warp_instructions', 'warp_insts_per_sec'}
# the stats keys are the ones workloads/README.md's --json tables document
import re
doc = open('workloads/README.md').read()
doc = doc[doc.index('### \x60--json\x60'):doc.index('### \x60--csv\x60')]
keys = set(re.findall(r'^\| \x60([^\x60]+)\x60 \|', doc, re.M)) | {'stall_reasons'}
assert 'warp_instructions' in keys and 'dram_bandwidth_gbs' in keys, keys
assert 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum' in keys and 'launch__waves_per_multiprocessor' in keys, keys
stalls = [l.strip() for l in open('tests/ncu_stall_reasons.txt') if l.strip() and not l.startswith('#')]
keys.discard('smsp__pcsamp_warps_issue_stalled_<reason>')
keys |= {'smsp__pcsamp_warps_issue_stalled_' + r for r in d['variants'][0]['stats']['stall_reasons']}
assert set(d['variants'][0]['stats']['stall_reasons']) <= set(stalls)
v = {x['name']: x for x in d['variants']}
assert list(v) == ['naive', 'tiled', 'tiled_padded', 'copy'], list(v)
for x in d['variants']:
    assert set(x) == {'name', 'check', 'cycles', 'time_us', 'ratio', 'stats'}, x.keys()
    assert x['check'] == 'pass', x
    assert set(x['stats']) == keys, set(x['stats']) ^ keys
    assert abs(sum(x['stats']['stall_reasons'].values()) - 1) < 1e-3
assert v['naive']['ratio'] == 1
c = {k: x['cycles'] for k, x in v.items()}
assert c['tiled_padded'] < c['tiled'] and c['tiled_padded'] < c['naive'], c
assert v['tiled']['stats']['shared_bank_conflicts'] > 0 == v['tiled_padded']['stats']['shared_bank_conflicts']
assert v['naive']['stats']['gst_sectors'] == 8 * v['copy']['stats']['gst_sectors']
# the aliases hold the same figures as the Nsight Compute names
for x in d['variants']:
    s = x['stats']
    assert s['shared_bank_conflicts'] == s['l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum']
    assert s['gst_sectors'] == s['l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum']
    assert s['dram_bytes'] == s['dram__bytes.sum']
    assert abs(s['lts__t_sector_hit_rate.pct'] - 100 * s['l2_hit_rate']) < 1e-3
    assert s['launch__waves_per_multiprocessor'] <= s['waves'] < s['launch__waves_per_multiprocessor'] + 1
" "transpose --json: keys or the padding effect"

# ---- determinism: two runs equal but for the sim wall-clock fields
cp "$OUT" "$TMP/first.json"
expect_rc run 0 run workloads/transpose.json --param n=256 --json
python3 -c "
import json
a, b = (json.load(open(f)) for f in ('$TMP/first.json', '$OUT'))
for d in (a, b):
    del d['sim']['wall_seconds'], d['sim']['warp_insts_per_sec']
assert a == b
" || bad "two --json runs differ"
python3 - "$TMP/first.json" "$OUT" <<'EOF' || bad "two --json runs differ in bytes outside the sim line"
import sys
a, b = (open(f).read().splitlines() for f in sys.argv[1:])
assert [l for l in a if '"sim"' not in l] == [l for l in b if '"sim"' not in l]
EOF

# ---- --variant, --csv
expect_rc run 0 run workloads/transpose.json --param n=128 --variant tiled_padded
grep -Eq '^tiled_padded +pass ' "$OUT" || bad "--variant: tiled_padded missing"
grep -Eq '^(naive|tiled|copy) ' "$OUT" && bad "--variant: other variants ran"
expect_rc run 0 run workloads/transpose.json --param n=128 --csv
[ "$(wc -l <"$OUT")" = 5 ] || bad "--csv: expected a header and 4 rows"
head -1 "$OUT" | grep -q '^workload,gpu,variant,check,status,cycles,time_us,ratio,warp_instructions,' ||
    bad "--csv: header"
grep -q '^transpose,a100,tiled,pass,ok,' "$OUT" || bad "--csv: tiled row"

# ---- --trace: a Chrome trace with every launch
expect_rc run 0 run workloads/transpose.json --param n=64 --trace "$TMP/trace.json"
python3 -c "
import json
d = json.load(open('$TMP/trace.json'))
launches = {e['args']['launch'] for e in d['traceEvents'] if e.get('cat') == 'block' and 'args' in e}
assert launches == {'transpose/naive', 'transpose/tiled', 'transpose/tiled_padded', 'transpose/copy'}, launches
spans = [e for e in d['traceEvents'] if e.get('cat') == 'launch']
assert [e['name'] for e in spans] == ['transpose/naive', 'transpose/tiled', 'transpose/tiled_padded', 'transpose/copy'], spans
mhz = 1410  # a100: timestamps are microseconds of simulated time
for e in spans:
    assert abs(e['dur'] * mhz - e['args']['cycles']) < 0.01, e
assert all(spans[i]['ts'] + spans[i]['dur'] <= spans[i + 1]['ts'] for i in range(3)), 'launches overlap'
names = {e['args']['name'] for e in d['traceEvents'] if e['ph'] == 'M' and e['name'] == 'process_name'}
assert 'SM 0' in names and 'launches' in names, names
states = [e for e in d['traceEvents'] if e['ph'] == 'C' and e['name'] == 'warp states']
assert states and 'long_scoreboard' in states[0]['args'], 'no warp-state counters'
" || bad "--trace: not a Chrome trace of the four launches with named tracks, times and warp-state counters"
expect_rc run 2 run workloads/transpose.json --trace /nonexistent/dir/trace.json

# ---- divergence: divergent about 2x uniform
# enough iterations that the loops, not block launch, dominate
expect_rc run 0 run workloads/divergence.json --param iters=100 --json
pyjson "
v = {x['name']: x for x in d['variants']}
r = v['divergent']['cycles'] / v['uniform']['cycles']
assert 1.6 <= r <= 2.4, r
assert v['divergent']['stats']['branch_efficiency'] < 0.6 < v['uniform']['stats']['branch_efficiency']
" "divergence: divergent is not about 2x uniform"

# ---- vecadd: float4 never loses to scalar, with about a third of the
# instructions (at the default size on the a100 both move their bytes at
# the DRAM's full bandwidth and tie)
expect_rc run 0 run workloads/vecadd.json --json
pyjson "
v = {x['name']: x for x in d['variants']}
s, f = v['scalar'], v['float4']
assert f['cycles'] <= s['cycles'], (f['cycles'], s['cycles'])
assert f['stats']['warp_instructions'] < 0.5 * s['stats']['warp_instructions']
assert s['stats']['gld_sectors'] == f['stats']['gld_sectors']
" "vecadd: float4 does not beat scalar"

# ---- smem.banks: a stride-2 word access is 2-way on 32 banks, free on 64;
# on 16 banks a conflict-free access is two half-warp passes
for b in 16 64; do
    expect_rc run 0 run workloads/bank_conflicts.json --param n=2048 --set smem.banks=$b --json
    cp "$OUT" "$TMP/banks$b.json"
done
python3 -c "
import json
wpr = {}
for b in (16, 64):
    d = json.load(open('$TMP/banks%d.json' % b))
    wpr[b] = {x['name']: x['stats']['shared_wavefronts'] / x['stats']['shared_requests'] for x in d['variants']}
assert abs(wpr[64]['stride2'] - 1) < 0.05 and abs(wpr[64]['stride32'] - 16) < 0.5, wpr[64]
assert abs(wpr[16]['stride1'] - 2) < 0.05 and abs(wpr[16]['padded'] - 2) < 0.05, wpr[16]
" || bad "smem.banks: wavefronts per request do not follow the bank count"

# ---- runtime failures: exit 1, named element, the other variants still run
expect_rc run 1 run tests/json_corpus/run/check_fails.json
grep -q 'wrong: check failed: out\[1\]: expected 64, got 1 (4032 of 4096 elements differ' "$OUT" ||
    bad "failing check: no element named"
grep -Eq '^right +pass ' "$OUT" || bad "failing check: the next variant did not run"
expect_rc run 1 run tests/json_corpus/run/check_fails.json --json
pyjson "
v = {x['name']: x for x in d['variants']}
assert v['wrong']['check'] == 'fail' and 'out[1]' in v['wrong']['error']
assert v['right']['check'] == 'pass'
" "failing check: --json"
expect_rc run 1 run tests/json_corpus/run/fault.json --max-cycles 100000
grep -Eq '^oob +fault ' "$OUT" || bad "fault: oob is not reported as a fault"
grep -Eq '^spin +budget ' "$OUT" || bad "fault: spin did not stop at the cycle budget"
grep -Eq '^ok +pass ' "$OUT" || bad "fault: the variant after the fault did not run"
grep -q 'out-of-bounds global access' "$OUT" || bad "fault: no fault report"
grep -Eq '^deadlock +deadlock ' "$OUT" || bad "fault: deadlock is not reported as a deadlock"
grep -q "spin.asm:[0-9]*: barrier deadlock at 'bar.sync 0' in kernel 'early_return'" "$OUT" ||
    bad "deadlock: the report does not name the bar.sync line"
grep -q 'warp 1: arrived at line [0-9]* with only threads 32-39; never arriving: threads 40-63' "$OUT" ||
    bad "deadlock: the report does not say which threads never arrive"
expect_rc run 1 run tests/json_corpus/run/fault.json --variant spin --max-instructions 5000
grep -q 'exceeded 5000 warp instructions' "$OUT" || bad "fault: instruction budget"
# without flags the budget scales with the launch: 2^24 + 65536 x 1 warp + 16 x 2048 elements
expect_rc run 1 run tests/json_corpus/run/fault.json --variant spin
grep -q 'exceeded 16875520 warp instructions' "$OUT" || bad "fault: default budget of the spin launch"
grep -q 'default instruction budget of this launch: 2^24 + 65536 per warp launched' "$OUT" || bad "fault: default budget rule not named"
# a budget the user set is called theirs, not the default
expect_rc run 1 run workloads/transpose.json --param n=64 --variant naive --max-instructions 10
grep -q '(the budget --max-instructions set)' "$OUT" || bad "budget: a --max-instructions budget is not named as the user's"
grep -q 'default' "$OUT" && bad "budget: a --max-instructions budget is called the default"
expect_rc run 1 run workloads/transpose.json --param n=64 --variant naive --max-cycles 10
grep -q '(the budget --max-cycles set)' "$OUT" || bad "budget: a --max-cycles budget is not named as the user's"
# a PTX kernel's 64-bit arguments that are not buffers: a size_t and a null
# pointer (both were refused as "expected a buffer name"); a store through
# the null pointer is a fault at its PTX line
expect_rc run 1 run tests/json_corpus/run/u64_args.json --dump "$TMP/u64"
grep -Eq '^count +none ' "$OUT" || bad "u64 args: the count variant did not run"
grep -q "null_store: tests/json_corpus/run/u64_args.ptx:26:3: out-of-bounds global access of 4 bytes at address 0x0" "$OUT" ||
    bad "u64 args: the store through the null pointer is not reported at its line"
python3 -c "import struct, sys
b = open('$TMP/u64/count.out.npy', 'rb').read()
data = b[10 + struct.unpack('<H', b[8:10])[0]:]  # .npy version 1: a 2-byte header length
o = struct.unpack('<32I', data)
sys.exit(0 if list(o) == list(range(20)) + [0] * 12 else 1)" || bad "u64 args: out is not 0..19 then zeros"

# ---- bad flags: exit 2 with a message
expect_rc run 0 run --help
grep -q '^usage: gpusim run FILE.json' "$OUT" || bad "--help"
expect_rc run 2 run
expect_rc run 2 run workloads/transpose.json --bogus
grep -q "unknown option '--bogus'" "$ERR" || bad "unknown option message"
expect_rc run 2 run workloads/transpose.json --json --csv
expect_rc run 2 run workloads/transpose.json --variant nope
grep -q "has no variant 'nope' (it has: naive, tiled, tiled_padded, copy)" "$ERR" || bad "unknown variant message"
expect_rc run 2 run workloads/transpose.json --gpu nope
expect_rc run 2 run workloads/transpose.json --set sm.nope=3
expect_rc run 2 run workloads/transpose.json --param k=3
grep -q "^--param: error: unknown parameter 'k'" "$ERR" || bad "unknown param message"
expect_rc run 2 run workloads/transpose.json --param n=0
expect_rc run 2 run workloads/transpose.json --max-cycles lots
expect_rc run 2 run workloads/transpose.json --variant
expect_rc run 2 run workloads/nope.json
expect_rc run 2 run workloads/transpose.json workloads/vecadd.json

# ---- the bad-input corpus: exit 2 and the pinned first line
for f in tests/json_corpus/*.json; do
    exp="${f%.json}.expected"
    if [ ! -f "$exp" ]; then
        bad "$f has no $exp"
        continue
    fi
    expect_rc run 2 run "$f"
    got=$(head -1 "$ERR")
    [ "$got" = "$(cat "$exp")" ] || bad "$f: first error line
    got:      $got
    expected: $(cat "$exp")"
done

# ---- the shipped workloads follow the JSON Schema (where python3 has jsonschema)
if python3 -c 'import jsonschema' 2>/dev/null; then
    python3 - <<'EOF' || bad "a workload file does not follow workloads/workload.schema.json"
import glob, json, jsonschema
schema = json.load(open('workloads/workload.schema.json'))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
for f in sorted(glob.glob('workloads/*.json') + glob.glob('tests/json_corpus/run/*.json')):
    if f.endswith('.schema.json'):
        continue
    for e in v.iter_errors(json.load(open(f))):
        print(f, list(e.path), e.message)
        raise SystemExit(1)
EOF
fi

e2e_finish

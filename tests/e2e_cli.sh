#!/usr/bin/env bash
# tests/e2e_cli.sh -- end-to-end tests of the gpusim command line: exit
# statuses, the occupancy figures of the teaching material, `gpus` and --set,
# machine files, and the bad-input corpus in tests/cli_corpus/ (one .case per
# bad invocation, first stderr line pinned; see its README.md).
# usage: e2e_cli.sh GPUSIM_BINARY SOURCE_DIR
# Prints one line per failure and a final "N passed, M failed"; exits 1 on any
# failure. Needs bash and, for the JSON checks, python3.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 GPUSIM_BINARY SOURCE_DIR" >&2
    exit 2
fi
GPUSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh # the working directory is now the source tree

E2E_PROGRAM=$GPUSIM
gp() { e2e_run "$@"; } # gp ARGS...: gpusim, as the checks below run it

# occ NAME BLOCKS OCCUPANCY ARGS...: `occupancy --json` gives these figures
occ() {
    local name=$1 blocks=$2 occupancy=$3
    shift 3
    gp occupancy --json "$@"
    if [ "$rc" -ne 0 ]; then
        bad "$name: exit $rc (gpusim occupancy $*)" "$(head -n 3 "$ERR")"
        return
    fi
    local got
    got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["blocks_per_sm"], r["occupancy"])' "$OUT" 2>&1)
    if python3 -c 'import sys; b,o=sys.argv[1].split(); sys.exit(not (int(b)==int(sys.argv[2]) and abs(float(o)-float(sys.argv[3]))<1e-9))' \
        "$got" "$blocks" "$occupancy" 2>/dev/null; then
        ok
    else
        bad "$name: got blocks/occupancy '$got', want '$blocks $occupancy'"
    fi
}

# ---- top level ----
expect_rc "--version" 0 --version
expect_out "--version" '^gpusim [0-9]+\.[0-9]+'
expect_rc "--help" 0 --help
expect_out "--help lists occupancy" '^  occupancy '
expect_out "--help lists gpus" '^  gpus '
expect_out "--help lists sweep" '^  sweep '
expect_rc "no command" 2
expect_rc "unknown command" 2 frobnicate
expect_err "unknown command" "unknown command 'frobnicate'"
for cmd in asm occupancy gpus sweep; do
    expect_rc "$cmd --help" 0 "$cmd" --help
    expect_out "$cmd --help" '^usage: gpusim '"$cmd"
done

# ---- asm ----
expect_rc "asm transpose" 0 asm workloads/kernels/transpose.asm
expect_out "asm transpose" '^// kernel transpose_'
# transpose.asm has no branches (only predicated instructions); divergence.asm has
expect_rc "asm divergence" 0 asm workloads/kernels/divergence.asm
expect_out "asm divergence" 'reconverge'
printf '.kernel k\n    add.f32 %%r0, %%r1\n    exit\n' >"$TMP/bad.asm"
expect_rc "asm bad file" 2 asm "$TMP/bad.asm"
expect_err "asm bad file names file:line:col" "^$TMP/bad.asm:[0-9]+:[0-9]+: error: "

# ---- occupancy: the teaching material's figures ----
occ "a100 256x64" 4 0.5 --gpu a100 --block 256 --regs 64
occ "a100 256x32" 8 1.0 --gpu a100 --block 256 --regs 32
occ "a100 256x40" 6 0.75 --gpu a100 --block 256 --regs 40
occ "h100 128x168 64KB" 3 0.1875 --gpu h100 --block 128 --regs 168 --smem 65536
occ "default gpu is a100" 4 0.5 --block 256 --regs 64
occ "--flag=value form" 4 0.5 --gpu=a100 --block=256 --regs=64
occ "--set changes occupancy" 8 1.0 --gpu a100 --block 256 --regs 64 --set sm.registers=131072 --set sm.max_regs_per_block=131072

gp occupancy --gpu a100 --block 256 --regs 64
if [ "$rc" -eq 0 ]; then ok; else bad "occupancy text: exit $rc"; fi
expect_out "occupancy text: blocks" '^blocks per SM +4$'
expect_out "occupancy text: occupancy" '^occupancy +50\.0%$'
expect_out "occupancy text: limiter" '^limiter +registers$'
expect_out "occupancy text: limits table" '^  registers +4 .*<- limiter$'
gp occupancy --gpu a100 --block 256 --regs 0
expect_out "occupancy text: unlimited" '^  registers +unlimited '

gp occupancy --gpu a100 --block 256 --regs 64 --json
if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert set(r) == {"blocks_per_sm", "warps_per_sm", "occupancy", "limiter", "limits"}, sorted(r)
assert set(r["limits"]) == {"warps", "blocks", "registers", "shared_memory"}, sorted(r["limits"])
assert r["warps_per_sm"] == 32 and r["limiter"] == "registers", r
assert r["limits"] == {"warps": 8, "blocks": 32, "registers": 4, "shared_memory": 164}, r["limits"]
' "$OUT" 2>"$TMP/py"; then ok; else bad "occupancy --json keys" "$(tail -n 1 "$TMP/py")"; fi
gp occupancy --gpu a100 --block 256 --regs 0 --json
if python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r["limits"]["registers"] is not None)' "$OUT" 2>/dev/null; then
    ok
else
    bad "occupancy --json: unlimited registers should be null"
fi

expect_rc "occupancy without --block" 2 occupancy --regs 32
expect_err "occupancy without --block prints usage" '^usage: gpusim occupancy'
expect_rc "occupancy without --regs" 2 occupancy --block 256
expect_rc "block over the limit" 2 occupancy --block 1025 --regs 32
expect_rc "regs over 255" 2 occupancy --block 256 --regs 256
expect_rc "smem over opt-in" 2 occupancy --block 256 --regs 32 --smem 166913
expect_rc "smem at opt-in" 0 occupancy --block 256 --regs 32 --smem 166912

# ---- gpus and --set ----
expect_rc "gpus" 0 gpus
n=$(grep -Evc '^name ' "$OUT")
if [ "$n" -eq 6 ]; then ok; else bad "gpus lists $n presets, want 6" "$(cat "$OUT")"; fi
for p in t4 a100 rtx4090 h100 h200 b200; do expect_out "gpus lists $p" "^$p "; done
expect_out "gpus a100 headline" '^a100 +8\.0 +108 +1410 +2039 +40 +64 +164 +NVIDIA A100'
expect_rc "gpus --knobs" 0 gpus --knobs
expect_out "gpus --knobs lists sm.count" '^sm\.count +u32'

expect_rc "gpus --diff" 0 gpus --diff a100 h100
expect_out "gpus --diff: a differing knob" '^sm\.count +108 +132$'
if grep -Eq '^sched\.policy ' "$OUT"; then bad "gpus --diff lists a knob both share"; else ok; fi
expect_out "gpus --diff: the count" '^18 of [0-9]+ knobs differ$'
expect_rc "gpus --diff with --set" 0 gpus --diff a100 a100 --set smem.banks=64
expect_out "gpus --diff with --set: the one knob" '^smem\.banks +32 +64$'
expect_out "gpus --diff with --set: one differs" '^1 of [0-9]+ knobs differ$'
expect_rc "gpus --diff of one machine" 2 gpus --diff a100

expect_rc "gpus a100" 0 gpus a100
cp "$OUT" "$TMP/a100.json"
if python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); sys.exit(c["sm"]["count"] != 108)' "$TMP/a100.json" 2>/dev/null; then
    ok
else
    bad "gpus a100 is not JSON with sm.count 108"
fi
expect_rc "gpus FILE" 0 gpus "$TMP/a100.json"
if cmp -s "$OUT" "$TMP/a100.json"; then ok; else bad "gpus a100 JSON does not round-trip through a file"; fi
occ "--gpu FILE" 4 0.5 --gpu "$TMP/a100.json" --block 256 --regs 64

expect_rc "gpus a100 --set" 0 gpus a100 --set sm.count=200
expect_out "--set shows in gpus" '^    "count": 200,$'
expect_rc "--set nope=1" 2 gpus a100 --set nope=1
expect_err "--set nope=1 lists valid names" "^--set: error: unknown key 'nope'.*valid keys:.*sm\.\{count"
expect_rc "--set sm.count=0" 2 gpus a100 --set sm.count=0
expect_rc "--set in occupancy" 2 occupancy --block 256 --regs 32 --set sm.count=0
expect_rc "gpus unknown name" 2 gpus nope
expect_err "gpus unknown name lists presets" 'presets: a100, b200, h100, h200, rtx4090, t4'

sed 's/"count": 108,/"count": 108/' "$TMP/a100.json" >"$TMP/syntax.json"
expect_rc "machine file with a JSON syntax error" 2 gpus "$TMP/syntax.json"
expect_err "JSON syntax error names line:col" "^$TMP/syntax.json:[0-9]+:[0-9]+: error: invalid JSON"
expect_rc "--gpu file with a JSON syntax error" 2 occupancy --gpu "$TMP/syntax.json" --block 256 --regs 32

# a machine file with a base gives only what it changes; gpus prints the merged machine
printf '{"base": "a100", "name": "a100_200", "sm": {"count": 200}}\n' >"$TMP/a100_200.json"
expect_rc "gpus FILE with a base" 0 gpus "$TMP/a100_200.json"
if python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); b["sm"]["count"]=108; b["name"]="a100"; sys.exit(a != b)' \
    "$TMP/a100.json" "$OUT" 2>/dev/null; then ok; else bad "gpus FILE with a base is not a100 with sm.count 200"; fi
cp "$OUT" "$TMP/merged.json"
expect_rc "the merged machine loads as a complete file" 0 gpus "$TMP/merged.json"
occ "--gpu FILE with a base" 4 0.5 --gpu "$TMP/a100_200.json" --block 256 --regs 64

# ---- the bad-input corpus ----
ncase=0
for f in tests/cli_corpus/*.case; do
    [ -e "$f" ] || break
    ncase=$((ncase + 1))
    args=$(sed -n 's/^args: //p' "$f")
    want_rc=$(sed -n 's/^exit: //p' "$f")
    first=$(sed -n 's/^first: //p' "$f")
    prefix=$(sed -n 's/^prefix: //p' "$f")
    # shellcheck disable=SC2086 # args are split on blanks by design
    gp $args
    got=$(head -n 1 "$ERR")
    name=$(basename "$f" .case)
    if [ "$rc" != "$want_rc" ]; then
        bad "corpus $name: exit $rc, want $want_rc" "$got"
    elif [ -n "$first" ] && [ "$got" != "$first" ]; then
        bad "corpus $name: first line differs" "got:  $got" "want: $first"
    elif [ -n "$prefix" ] && [ "${got#"$prefix"}" = "$got" ]; then
        bad "corpus $name: first line does not start as pinned" "got:  $got" "want: $prefix..."
    elif [ -z "$first$prefix" ]; then
        bad "corpus $name: pins no first line"
    else
        ok
    fi
done
if [ "$ncase" -ge 20 ]; then ok; else bad "corpus has $ncase cases, want at least 20"; fi

# The config fuzzer's seeds follow the machine: its preset seeds are the
# presets as `gpusim gpus` prints them now, and its bad machine files are
# the corpus's own (a knob added to sim/config.def leaves stale seeds
# stopping at "missing key", which fuzz only the first lines).
for f in fuzz/corpus/config/preset_*.json; do
    p=$(basename "$f" .json)
    p=${p#preset_}
    if "$GPUSIM" gpus "$p" | cmp -s - "$f"; then ok; else bad "fuzz seed $f is not 'gpusim gpus $p' (regenerate it)"; fi
done
for f in fuzz/corpus/config/cfg_*.json; do
    if cmp -s "$f" "tests/cli_corpus/$(basename "$f")"; then ok; else bad "fuzz seed $f differs from tests/cli_corpus/$(basename "$f")"; fi
done

# workloads/README.md's sample error lines are gpusim's words: each is a
# line the bad-input corpora pin
if python3 - workloads/README.md <<'EOF'
import glob, re, sys
doc = open(sys.argv[1]).read()
block = re.split(r'inside\s+an\s+expression\s+string\s+at\s+the\s+offending\s+character:', doc)[1].split('```')[1]
pinned = ''.join(open(f).read() for f in glob.glob('tests/*_corpus/**/*', recursive=True)
                 if f.endswith(('.expected', '.case')))
samples = [line for line in block.splitlines() if 'error: ' in line]
assert len(samples) >= 5, samples
for s in samples:
    assert s in pinned, s
EOF
then ok; else bad "workloads/README.md's sample errors are not the loader's words (tests/*_corpus)"; fi

# workloads/README.md's --json example is the command's output as printed
# (but for the host-time line "sim").
doc=$(awk '/^```json$/{getline; if ($0 == "{") {grab=1; print; next}} grab && /^```$/{exit} grab' workloads/README.md | grep -v '^  "sim": ')
run=$("$GPUSIM" run workloads/transpose.json --variant naive --json 2>/dev/null | grep -v '^  "sim": ')
if [ -n "$doc" ] && [ "$doc" = "$run" ]; then ok; else bad "workloads/README.md's --json example differs from 'gpusim run workloads/transpose.json --variant naive --json'"; fi

e2e_finish

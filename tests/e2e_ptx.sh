#!/usr/bin/env bash
# tests/e2e_ptx.sh -- the PTX front end end to end through the CLI.
# usage: e2e_ptx.sh GPUSIM SOURCE_DIR
# 1. The bad-input corpus (tests/ptx_corpus/*.ptx): `gpusim asm` exits 2 and
#    its first line is the pinned one (*.expected).
# 2. The committed nvcc output of every CUDA twin (tests/ptx/*.ptx, made by
#    tests/ptx/gen.sh) reads, every instruction with a cost; no toolkit needed.
# 3. docs/PTX.md's opcode table is `gpusim asm --ptx-opcodes` word for word.
# 4. A .ptx workload runs without a toolkit (and checks pass); an ambiguous
#    kernel name and a .cu file without nvcc are errors that say why.
#    Where nvcc is installed: the CUDA workloads (workloads/cuda/*.json)
#    compile, run and pass their checks at small sizes on the a100 and h200
#    presets, a compile error reaches the user with exit 2, and a second
#    cache holds each compiled file once; docs/YOUR_KERNEL.md's walkthrough
#    runs as written and its claims hold. Without nvcc these say why they
#    skip.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 GPUSIM SOURCE_DIR" >&2
    exit 2
fi
GPUSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh
export GPUSIM_CACHE_DIR="$TMP/cache"

# ---- 1. bad inputs
for f in tests/ptx_corpus/*.ptx; do
    name=$(basename "$f" .ptx)
    (cd tests/ptx_corpus && "$GPUSIM" asm "$name.ptx") >/dev/null 2>"$TMP/err"
    rc=$?
    got=$(head -1 "$TMP/err")
    want=$(cat "tests/ptx_corpus/$name.expected")
    if [ "$rc" = 2 ] && [ "$got" = "$want" ]; then ok; else bad "corpus $name" "exit $rc" "want: $want" "got:  $got"; fi
done

# ---- 2. real nvcc output reads
for f in tests/ptx/*.ptx; do
    if "$GPUSIM" asm "$f" >"$TMP/asm" 2>"$TMP/err" && grep -q "timed as" "$TMP/asm" && ! grep -q "//  *[0-9]*  *$" "$TMP/asm"; then ok
    else bad "gpusim asm $f" "$(head -2 "$TMP/err")"; fi
done

# ---- 3. docs/PTX.md repeats the table
"$GPUSIM" asm --ptx-opcodes >"$TMP/table"
if python3 -c "import sys; t = open('$TMP/table').read(); d = open('docs/PTX.md').read(); sys.exit(0 if t in d else 1)"; then ok
else bad "docs/PTX.md lacks the output of gpusim asm --ptx-opcodes (paste it between the markers)"; fi

# ---- 4a. a .ptx workload needs no toolkit: the committed vecadd PTX,
#      checked, with a .u64 buffer argument and registers from "regs"
python3 -c "import json
d = json.load(open('workloads/vecadd.json'))
d['kernels'] = '$PWD/tests/ptx/vecadd.ptx'
for v in d['variants']: v['regs'] = 16
json.dump(d, open('$TMP/in_vecadd.json', 'w'))"
GPUSIM_NVCC= GPUSIM_PTXAS= run_json vecadd_ptx "$TMP/in_vecadd.json" --param n=5003 && ok
GPUSIM_NVCC= GPUSIM_PTXAS= "$GPUSIM" run "$TMP/in_vecadd.json" --param n=5003 >"$TMP/out" 2>&1
if grep -q "registers per thread 16 (the variant's \"regs\")" "$TMP/out"; then ok; else bad "the report says where a PTX kernel's registers come from" "$(grep -A3 'PTX kernels' "$TMP/out")"; fi
# a kernel name several PTX kernels share is an error listing them
printf '.version 8.0\n.target sm_90\n.address_size 64\n.entry _Z1fPf(.param .u64 _Z1fPf_param_0)\n{\n ret;\n}\n.entry _Z1fPi(.param .u64 _Z1fPi_param_0)\n{\n ret;\n}\n' >"$TMP/two.ptx"
printf '{"name":"two","description":"x","kernels":"two.ptx","buffers":[{"name":"x","type":"f32","count":1,"init":"zeros"}],"variants":[{"name":"v","kernel":"f","grid":1,"block":1,"args":["x"],"regs":8}]}\n' >"$TMP/two.json"
"$GPUSIM" run "$TMP/two.json" >/dev/null 2>"$TMP/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "ambiguous" "$TMP/err"; then ok; else bad "ambiguous kernel name" "exit $rc" "$(head -2 "$TMP/err")"; fi
# a signed 64-bit parameter takes its whole range (the bounds of .s64 once
# negated 2^63, undefined behaviour that a sanitizer build stops on)
printf '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 k_param_0, .param .s64 k_param_1)\n{\n .reg .b64 %%rd<4>;\n ld.param.u64 %%rd1, [k_param_0];\n ld.param.s64 %%rd2, [k_param_1];\n cvta.to.global.u64 %%rd3, %%rd1;\n st.global.u64 [%%rd3], %%rd2;\n ret;\n}\n' >"$TMP/s64.ptx"
for v in -1 5 -9007199254740991; do
    printf '{"name":"s64","description":"x","kernels":"s64.ptx","buffers":[{"name":"x","type":"s32","count":2,"init":"zeros"}],"variants":[{"name":"v","kernel":"k","grid":1,"block":1,"args":["x",%s],"regs":8}]}\n' "$v" >"$TMP/s64.json"
    "$GPUSIM" run "$TMP/s64.json" >/dev/null 2>"$TMP/err"
    rc=$?
    if [ "$rc" = 0 ]; then ok; else bad "an .s64 parameter takes $v" "exit $rc" "$(head -2 "$TMP/err")"; fi
done
sed -i 's/-9007199254740991/-9007199254740993/' "$TMP/s64.json"
"$GPUSIM" run "$TMP/s64.json" >/dev/null 2>"$TMP/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "is past 2^53" "$TMP/err"; then ok; else bad "an integer a JSON number cannot hold exactly is refused as such" "exit $rc" "$(head -2 "$TMP/err")"; fi
# an .f64 parameter takes a JSON number as a double (x[0] = a * 3 rounded
# to f32: 0.1 * 3 in binary64 is 0.30000000000000004, as f32 0.3)
printf '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 k_param_0, .param .f64 k_param_1)\n{\n .reg .b64 %%rd<4>;\n .reg .f64 %%fd<3>;\n .reg .f32 %%f<2>;\n ld.param.u64 %%rd1, [k_param_0];\n ld.param.f64 %%fd1, [k_param_1];\n mul.f64 %%fd2, %%fd1, 0d4008000000000000;\n cvt.rn.f32.f64 %%f1, %%fd2;\n cvta.to.global.u64 %%rd3, %%rd1;\n st.global.f32 [%%rd3], %%f1;\n ret;\n}\n' >"$TMP/f64.ptx"
printf '{"name":"f64","description":"x","kernels":"f64.ptx","buffers":[{"name":"x","type":"f32","count":1,"init":"zeros"}],"variants":[{"name":"v","kernel":"k","grid":1,"block":1,"args":["x",0.1],"regs":8}]}\n' >"$TMP/f64.json"
rm -rf "$TMP/f64dump"
"$GPUSIM" run "$TMP/f64.json" --dump "$TMP/f64dump" >/dev/null 2>"$TMP/err"
got=$(python3 -c "import struct, sys
b = open(sys.argv[1], 'rb').read()
print(struct.pack('<f', struct.unpack('<f', b[10 + struct.unpack('<H', b[8:10])[0]:][:4])[0]).hex())" "$TMP/f64dump/v.x.npy" 2>/dev/null)
want=$(python3 -c "import struct; print(struct.pack('<f', 0.1 * 3).hex())")
if [ -n "$got" ] && [ "$got" = "$want" ]; then ok; else bad "an .f64 parameter reaches the kernel as a double (x[0] bits $got, expected $want)" "$(head -2 "$TMP/err")"; fi
sed -i 's/"x",0.1\]/"x","a"]/' "$TMP/f64.json"
"$GPUSIM" run "$TMP/f64.json" >/dev/null 2>"$TMP/err"
rc=$?
if [ "$rc" = 2 ]; then ok; else bad "a string given to an .f64 parameter is refused" "exit $rc" "$(head -2 "$TMP/err")"; fi
# a struct passed by value loads (its fields read at offsets), but a
# workload cannot give one: refused by the parameter's name
printf '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 k_param_0, .param .align 8 .b8 k_param_1[16])\n{\n .reg .b64 %%rd<4>;\n .reg .b32 %%r<3>;\n ld.param.u64 %%rd1, [k_param_0];\n ld.param.v2.u32 {%%r1, %%r2}, [k_param_1+8];\n cvta.to.global.u64 %%rd3, %%rd1;\n st.global.u32 [%%rd3], %%r2;\n ret;\n}\n' >"$TMP/st.ptx"
"$GPUSIM" asm "$TMP/st.ptx" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$rc" = 0 ] && grep -q "param_1 .* offset 8, 16 bytes" "$TMP/out"; then ok; else bad "a struct parameter is laid out at its alignment" "exit $rc" "$(grep param_1 "$TMP/out")" "$(head -2 "$TMP/err")"; fi
printf '{"name":"st","description":"x","kernels":"st.ptx","buffers":[{"name":"x","type":"u32","count":1,"init":"zeros"}],"variants":[{"name":"v","kernel":"k","grid":1,"block":1,"args":["x",1],"regs":8}]}\n' >"$TMP/st.json"
"$GPUSIM" run "$TMP/st.json" >/dev/null 2>"$TMP/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "param_1' of kernel 'k' is a struct passed by value (16 bytes)" "$TMP/err"; then ok; else bad "a workload giving a struct parameter is refused by name" "exit $rc" "$(head -2 "$TMP/err")"; fi
# without nvcc, a .cu workload says what to install
GPUSIM_NVCC= "$GPUSIM" run workloads/cuda/vecadd.json --param n=1000 >/dev/null 2>"$TMP/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "install the CUDA toolkit" "$TMP/err" && grep -q "needs no toolkit" "$TMP/err"; then ok
else bad "without nvcc a .cu workload says what to install" "exit $rc" "$(head -2 "$TMP/err")"; fi
# GPUSIM_NVCC naming nothing, or a folder, is reported as that variable's fault
for where in "$TMP/no-such-nvcc" "$TMP"; do
    GPUSIM_NVCC=$where "$GPUSIM" run workloads/cuda/vecadd.json --param n=1000 >/dev/null 2>"$TMP/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q "GPUSIM_NVCC names '$where', which is not an executable file" "$TMP/err"; then ok
    else bad "GPUSIM_NVCC=$where is named in the error" "exit $rc" "$(head -2 "$TMP/err")"; fi
done

# ---- 4. .cu workloads, where nvcc is installed
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || { [ -x "${CUDA_HOME:-/nonexistent}/bin/nvcc" ] && nvcc=$CUDA_HOME/bin/nvcc; }
[ -n "$nvcc" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc; }
if [ -z "$nvcc" ]; then
    echo "e2e_ptx: nvcc not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin): skipping the .cu workloads"
else
    # docs/YOUR_KERNEL.md's walkthrough, as a reader types it (its files in
    # $TMP, not ~): both variants pass, and what the prose says of them holds
    python3 - docs/YOUR_KERNEL.md "$TMP/mykernel" "$GPUSIM" >"$TMP/walk.sh" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
for block in re.findall(r'```sh\n(.*?)```', text, re.S):
    print(block.replace('~/mykernel', sys.argv[2]).replace('./build/gpusim', sys.argv[3]))
EOF
    PATH=$PATH:$(dirname "$nvcc") bash -e "$TMP/walk.sh" >"$TMP/walk.out" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && grep -Eq '^per_thread +pass ' "$TMP/walk.out" && grep -Eq '^grid_stride +pass ' "$TMP/walk.out"; then ok
    else bad "docs/YOUR_KERNEL.md's walkthrough: exit $rc, both variants passing" "$(tail -5 "$TMP/walk.out")"; fi
    "$GPUSIM" run "$TMP/mykernel/saxpy.json" --json >"$TMP/walk.json" 2>/dev/null
    if python3 - "$TMP/walk.json" <<'EOF'
import json, sys
v = {x['name']: x['stats'] for x in json.load(open(sys.argv[1]))['variants']}
p, g = v['per_thread'], v['grid_stride']
assert p['bound'] == 'dram' and g['bound'] == 'dram', (p['bound'], g['bound'])           # both memory-bound
assert g['achieved_occupancy'] < p['achieved_occupancy'], 'fewer warps resident'
assert g['warp_instructions'] < p['warp_instructions'], 'fewer warp instructions'
EOF
    then ok; else bad "docs/YOUR_KERNEL.md's claims of the two variants"; fi
    declare -A small=([vecadd]="--param n=5003" [transpose]="--param n=96" [divergence]="--param n=2048 --param iters=3"
                      [reduction]="--param n=70000")
    for w in vecadd transpose divergence reduction; do
        for gpu in a100 h200; do
            # shellcheck disable=SC2086
            run_json "cuda_${w}_$gpu" "workloads/cuda/$w.json" --gpu $gpu ${small[$w]} && ok
        done
    done
    # the cache holds each compiled file once, nothing half written
    n=$(ls "$GPUSIM_CACHE_DIR"/vecadd-*.ptx 2>/dev/null | wc -l)
    if [ "$n" -ge 1 ] && ! ls "$GPUSIM_CACHE_DIR" | grep -q '\.tmp$'; then ok; else bad "cache: $n vecadd PTX files"; fi
    # the compiler's own errors, with exit 2
    mkdir -p "$TMP/w/k"
    printf '__global__ void k(float *x) { x[0] = undeclared_thing; }\n' >"$TMP/w/k/bad.cu"
    printf '{"name":"bad","description":"x","kernels":"k/bad.cu","buffers":[{"name":"x","type":"f32","count":1,"init":"zeros"}],"variants":[{"name":"v","kernel":"k","grid":1,"block":1,"args":["x"]}]}\n' >"$TMP/w/bad.json"
    "$GPUSIM" run "$TMP/w/bad.json" >/dev/null 2>"$TMP/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q "nvcc failed" "$TMP/err" && grep -q "undeclared_thing" "$TMP/err"; then ok
    else bad "a compile error reaches the user with exit 2" "exit $rc" "$(head -3 "$TMP/err")"; fi
    # ... and leaves nothing in the cache (it once left *.ptx.log.XXXXXX)
    left=$(ls "$GPUSIM_CACHE_DIR" | grep -E '^bad-|\.log|\.tmp' || true)
    if [ -z "$left" ]; then ok; else bad "a failed compile leaves files in the cache" "$left"; fi
    # a .cu kernel's fault, race and deadlock lead with the .cu line and its
    # text, then the cached PTX line; a wrong argument names the parameter by
    # the kernel's signature
    cat >"$TMP/w/k/faults.cu" <<'CU'
__global__ void oob(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + n];
}

__global__ void racy(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

__global__ void stuck(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    if (threadIdx.x < 40) __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}
CU
    faults='{"name":"faults","description":"x","params":{"n":64},"kernels":"k/faults.cu","buffers":[{"name":"in","type":"f32","count":"n"},{"name":"out","type":"f32","count":"n"}],"variants":[
      {"name":"oob","kernel":"oob","grid":1,"block":64,"args":["in","out","n"]},
      {"name":"racy","kernel":"racy","grid":1,"block":64,"args":["out"]},
      {"name":"stuck","kernel":"stuck","grid":1,"block":64,"args":["out"]}ARGS]}'
    printf '%s\n' "${faults/ARGS/}" >"$TMP/w/faults.json"
    "$GPUSIM" run "$TMP/w/faults.json" --racecheck >"$TMP/out" 2>&1
    rc=$?
    for want in "^  oob: .*/faults.cu:4: out\[i\] = in\[i \+ n\];\$" \
                "^    .*\.ptx:[0-9]+:[0-9]+: out-of-bounds global access" \
                "^  racy: .*/faults.cu:11: out\[threadIdx.x\] = s\[\(threadIdx.x \+ 1\) % 64\];\$" \
                "^    pc [0-9]+ line [0-9]+: st.shared.f32 .*\(.*/faults.cu:10: s\[threadIdx.x\] = threadIdx.x;\)\$" \
                "^  stuck: .*/faults.cu:18: if \(threadIdx.x < 40\) __syncthreads\(\);\$" \
                "^    .*\.ptx:[0-9]+: barrier deadlock at 'bar.sync 0'"; do
        if [ "$rc" = 1 ] && grep -Eq "$want" "$TMP/out"; then ok; else bad "a .cu kernel's problem: no line /$want/" "exit $rc" "$(grep -A3 '^problems' "$TMP/out" | head -8)"; fi
    done
    extra=',{"name":"two","kernel":"oob","grid":1,"block":64,"args":["in","out"]}'
    printf '%s\n' "${faults/ARGS/$extra}" >"$TMP/w/faults.json"
    "$GPUSIM" run "$TMP/w/faults.json" >/dev/null 2>"$TMP/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q "error: variants\[3\].args: kernel oob(float const\*, float\*, int) takes 3 parameters, got 2 arguments" "$TMP/err"; then ok
    else bad "the argument count names the kernel's signature" "exit $rc" "$(head -2 "$TMP/err")"; fi
    extra=',{"name":"three","kernel":"oob","grid":1,"block":64,"args":["in","out","in"]}'
    printf '%s\n' "${faults/ARGS/$extra}" >"$TMP/w/faults.json"
    "$GPUSIM" run "$TMP/w/faults.json" >/dev/null 2>"$TMP/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q "'in' is a buffer but parameter 3 (int) of kernel 'oob(float const\*, float\*, int)'" "$TMP/err"; then ok
    else bad "a wrong argument names the parameter by the signature" "exit $rc" "$(head -2 "$TMP/err")"; fi
    # a .cu without a __global__ kernel is named as such, at the .cu (it named the cached PTX)
    printf '__device__ int f(int x) { return x; }\n' >"$TMP/w/k/none.cu"
    printf '{"name":"none","description":"x","kernels":"k/none.cu","buffers":[{"name":"x","type":"f32","count":1,"init":"zeros"}],"variants":[{"name":"v","kernel":"k","grid":1,"block":1,"regs":8,"args":["x"]}]}\n' >"$TMP/w/none.json"
    "$GPUSIM" run "$TMP/w/none.json" >/dev/null 2>"$TMP/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -q "none.cu: error: no __global__ kernel in this file" "$TMP/err"; then ok
    else bad "a .cu without a kernel is named at the .cu" "exit $rc" "$(head -2 "$TMP/err")"; fi
    # a header included by a header is in the cache key: editing it
    # recompiles (the cache once keyed the .cu's own includes only, and ran
    # the stale PTX)
    printf '#include "a.h"\n__global__ void k(float *x) { x[0] = VALUE; }\n' >"$TMP/w/k/inc.cu"
    printf '#include "b.h"\n' >"$TMP/w/k/a.h"
    printf '{"name":"inc","description":"x","kernels":"k/inc.cu","buffers":[{"name":"x","type":"f32","count":1,"init":"zeros"}],"variants":[{"name":"v","kernel":"k","grid":1,"block":1,"regs":8,"args":["x"]}]}\n' >"$TMP/w/inc.json"
    first_x() { python3 -c "import struct, sys
b = open(sys.argv[1], 'rb').read()
print(struct.unpack('<f', b[10 + struct.unpack('<H', b[8:10])[0]:][:4])[0])" "$1"; }
    for v in 1.5 2.5; do
        printf '#define VALUE %sf\n' "$v" >"$TMP/w/k/b.h"
        rm -rf "$TMP/inc"
        "$GPUSIM" run "$TMP/w/inc.json" --dump "$TMP/inc" >/dev/null 2>"$TMP/err"
        got=$(first_x "$TMP/inc/v.x.npy" 2>/dev/null)
        if [ "$got" = "$v" ]; then ok; else bad "an edit of a nested header is compiled (b.h: $v, x[0]: $got)" "$(head -3 "$TMP/err")"; fi
    done
    # nvcc_flags' paths are the workload file's, as "kernels" is (they were
    # taken from the directory gpusim ran in): -I DIR and -IDIR
    mkdir -p "$TMP/w/inc"
    printf '#define VALUE 3.5f\n' >"$TMP/w/inc/val.h"
    printf '#include "val.h"\n__global__ void k(float *x) { x[0] = VALUE; }\n' >"$TMP/w/k/flags.cu"
    for flags in '["-Iinc"]' '["-I", "inc"]'; do
        printf '{"name":"flags","description":"x","kernels":"k/flags.cu","nvcc_flags":%s,"buffers":[{"name":"x","type":"f32","count":1,"init":"zeros"}],"variants":[{"name":"v","kernel":"k","grid":1,"block":1,"regs":8,"args":["x"]}]}\n' "$flags" >"$TMP/w/flags.json"
        rm -rf "$TMP/flags"
        "$GPUSIM" run "$TMP/w/flags.json" --dump "$TMP/flags" >/dev/null 2>"$TMP/err"
        got=$(first_x "$TMP/flags/v.x.npy" 2>/dev/null)
        if [ "$got" = 3.5 ]; then ok; else bad "nvcc_flags $flags: the path is the workload file's (x[0]: $got)" "$(head -3 "$TMP/err")"; fi
    done
    # every file nvcc read is in the cache key (nvcc's own dependency list),
    # so a header found through -I, with quotes or angle brackets, counts
    # too: the cache once followed quoted includes next to the file only
    for form in '"val.h"' '<val.h>'; do
        printf '#include %s\n__global__ void k(float *x) { x[0] = VALUE; }\n' "$form" >"$TMP/w/k/flags.cu"
        for v in 4.5 5.5; do
            printf '#define VALUE %sf\n' "$v" >"$TMP/w/inc/val.h"
            rm -rf "$TMP/flags"
            "$GPUSIM" run "$TMP/w/flags.json" --dump "$TMP/flags" >/dev/null 2>"$TMP/err"
            got=$(first_x "$TMP/flags/v.x.npy" 2>/dev/null)
            if [ "$got" = "$v" ]; then ok; else bad "an edit of a header found through -I ($form) is compiled (val.h: $v, x[0]: $got)" "$(head -3 "$TMP/err")"; fi
        done
    done
fi
e2e_finish

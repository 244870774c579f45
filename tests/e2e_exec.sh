#!/usr/bin/env bash
# tests/e2e_exec.sh GPUSIM SOURCE_DIR -- gpusim exec end to end: the CUDA
# programs of tests/exec/ (each checks its own results and prints PASS),
# built by gpusim exec itself with nvcc -cudart=shared and run with our
# runtime; their output, arguments and exit status passing through; the
# report at exit (text and --report JSON); --kernels, --max-launches,
# --threads, --source and --trace; the refusals (a static runtime, no PTX for the
# device, bad options); the runtime's error table (docs/CUDA.md against
# tests/exec/strict.cu, row by row). Without nvcc or without our runtime the programs
# are skipped, saying why; the option checks run anyway.
[ $# -eq 2 ] || { echo "usage: $0 GPUSIM SOURCE_DIR" >&2; exit 2; }
GPUSIM=$1
SRC=$2
source "$SRC/tests/e2e_lib.sh"
E2E_PROGRAM=$GPUSIM
export GPUSIM_CACHE_DIR=$TMP/cache
X=$SRC/tests/exec

# ---- options, whatever is installed
expect_rc "exec --help" 0 exec --help
expect_out "exec --help names --max-launches" "--max-launches N"
expect_rc "exec without a program" 2 exec
expect_err "exec without a program says so" "no program to run"
expect_rc "exec --gpu nope" 2 exec --gpu nope /bin/true
expect_err "exec --gpu nope names the preset" "nope"
expect_rc "exec --kernels bad regex" 2 exec --kernels '(' /bin/true
expect_err "exec --kernels bad regex says so" "not a regular expression"
expect_rc "exec --threads 0" 2 exec --threads 0 /bin/true
expect_rc "exec of a missing program" 2 exec "$TMP/no-such-program"
expect_err "exec of a missing program says so" "no such file"

cudart=$(dirname "$GPUSIM")/cudart/libcudart.so.13
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || { [ -x "${CUDA_HOME:-/nonexistent}/bin/nvcc" ] && nvcc=$CUDA_HOME/bin/nvcc; }
[ -n "$nvcc" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc; }
if [ ! -f "$cudart" ]; then
    expect_rc "exec without our runtime" 2 exec /bin/true
    expect_err "exec without our runtime says what to install" "libzstd-dev"
    echo "e2e_exec: our libcudart.so.13 is not built: skipping the CUDA programs"
    e2e_finish
    exit
fi
if [ -z "$nvcc" ]; then
    echo "e2e_exec: nvcc not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin): skipping the CUDA programs"
    e2e_finish
    exit
fi

# ---- the programs check themselves
for p in memory managed host_memory errors occupancy divergence fp64 mathf local narrow intrinsics half half_math half_compare printf funcs structs libraries carry half_funcs block_votes grid_sync half_atomics early_return simd heap streams graphs memory3d device_libs async_copy named_barriers fp8 large_tiles spaces hints coalesced function_pointers virtual_functions recursion texture graphs_more graph_memory graph_api one_device graph_conditional thrust thrust_more tiles grid_constant; do
    expect_rc "exec $p.cu" 0 exec --gpu h200 "$X/$p.cu"
    expect_out "exec $p.cu passes its own checks" "^PASS"
done

# sm_80's PTX of CCCL's barriers: inline asm declares a scalar %p beside the kernel's %p<N>
expect_rc "exec --gpu a100 async_copy.cu" 0 exec --gpu a100 "$X/async_copy.cu"
expect_out "async copies and barriers pass on sm_80's PTX" "^PASS"

# bar.red's reduction on the functional path too (the second launch untimed)
expect_rc "exec --max-launches 1 block_votes.cu" 0 exec --gpu h200 --max-launches 1 "$X/block_votes.cu"
expect_out "block votes are the whole block's when untimed" "^PASS"

# named barriers (bar.sync a, b; bar.arrive; bar.red on a barrier of its own) on the functional path too
expect_rc "exec --max-launches 1 named_barriers.cu" 0 exec --gpu h200 --max-launches 1 "$X/named_barriers.cu"
expect_out "named barriers hold when untimed" "^PASS"

# an early return before __syncthreads() on the functional path too
expect_rc "exec --max-launches 1 early_return.cu" 0 exec --gpu h200 --max-launches 1 "$X/early_return.cu"
expect_out "exited threads do not hold the barrier when untimed" "^PASS"

# a cooperative launch is timed whatever --max-launches says: its blocks wait for each other
expect_rc "exec --max-launches 1 grid_sync.cu" 0 exec --gpu h200 --max-launches 1 "$X/grid_sync.cu"
expect_out "grid.sync() holds when a launch is past --max-launches" "^PASS"
expect_err "both cooperative launches are timed" "^  phases +2 +264 +128"

# a kernel that calls malloc runs on one host thread whatever --threads says: the same report
GPUSIM_THREADS_EXACT=1 e2e_run exec --gpu h200 --threads 4 "$X/heap.cu"
cp "$ERR" "$TMP/heap_threads.err"
expect_out "heap.cu passes on --threads 4" "^PASS"
e2e_run exec --gpu h200 "$X/heap.cu"
if cmp -s "$ERR" "$TMP/heap_threads.err"; then ok; else bad "heap.cu's report differs under --threads 4" "$(diff "$ERR" "$TMP/heap_threads.err" | head -3)"; fi

# a workload's .cu kernel that mallocs runs under gpusim run too, its result checked
expect_rc "run a workload whose kernel calls malloc and free" 0 run "$X/heap_workload/heap.json"

# free() of what malloc did not hand out: the fault named, the program sees the sticky error
e2e_run exec --gpu h200 "$X/bad_free.cu" twice
expect_out "a double free stops the launch" "^sync: cudaErrorIllegalAddress$"
expect_err "a double free is named at its .cu line" "fault: .*bad_free.cu:10: free\(p\);  // already freed$"
expect_err "a double free says what it is" "invalid free of device heap memory: free\(0x[0-9a-f]+\), an address that malloc did not return or that was already freed$"
e2e_run exec --gpu h200 "$X/bad_free.cu" stranger
expect_err "freeing cudaMalloc's memory names the thread" "by thread \(0,0,0\) of block \(0,0,0\) \(warp 0, lane 0\)$"

# kernels that stop themselves: the program sees CUDA's error for each, sticky
for m in assert trap ldg misaligned holds; do
    expect_rc "exec stops.cu $m" 0 exec --gpu h200 "$X/stops.cu" $m
    expect_out "exec stops.cu $m: the program sees CUDA's errors" "^PASS"
done
e2e_run exec --gpu h200 "$X/stops.cu" assert
expect_err "a failed assert prints CUDA's line, with the .cu line first" "^gpusim: .*stops.cu: launch 1 of kernel check_sizes\(int const\*, int, int\): fault: .*stops.cu:14: .*assert\(v\[i\] < limit\);"
expect_err "a failed assert prints CUDA's line" "device-side assertion failed: .*stops.cu:14: void check_sizes\(const int \*, int, int\): block: \[[0-9],0,0\], thread: \[[0-9]+,0,0\] Assertion \`v\[i\] < limit\` failed\.$"
e2e_run exec --gpu h200 "$X/stops.cu" trap
expect_err "__trap names the thread that ran it" "by thread \(5,0,0\) of block \(0,0,0\)"
e2e_run exec --gpu h200 "$X/stops.cu" ldg
expect_err "a fault in a header's inlined code leads with the user's line" "fault: .*stops.cu:23: out\[threadIdx.x\] = __ldg\(.* \(in .*sm_32_intrinsics.hpp:[0-9]+, inlined here\)$"

# device printf: the program's stdout has every line (sorted: CUDA orders
# no threads), and the same bytes on 1 and 3 host threads
"$GPUSIM" exec --gpu h200 "$X/printf.cu" 2>/dev/null >"$TMP/printf1.out"
"$GPUSIM" exec --gpu h200 --threads 3 "$X/printf.cu" 2>/dev/null >"$TMP/printf3.out"
if diff <(grep -v '^PASS$' "$TMP/printf1.out" | sort) "$X/printf.expected" >/dev/null; then ok
else bad "device printf prints what tests/exec/printf.expected says" "$(diff <(grep -v '^PASS$' "$TMP/printf1.out" | sort) "$X/printf.expected" | head -4)"; fi
if cmp -s "$TMP/printf1.out" "$TMP/printf3.out"; then ok; else bad "device printf's order is the same on 1 and 3 host threads"; fi

# divergence: the split-lanes kernel takes about twice as long (events read the simulated clock)
e2e_run exec --gpu h200 "$X/divergence.cu"
ratio=$(awk '/^ratio/ {print $3}' "$OUT" | tr -d x)
if awk -v r="$ratio" 'BEGIN { exit !(r >= 1.5 && r <= 2.5) }'; then ok; else bad "divergence ratio $ratio, want about 2" "$(cat "$OUT")"; fi
expect_err "the report has a row per kernel" "^  split_lanes +1 +264 +256"
expect_err "the report explains divergence" "split_lanes\(float\*, int\):.*branch efficiency"
expect_err "the report's header names the machine" "^== gpusim exec: .*divergence.cu on h200"

# occupancy: the API answers what `gpusim occupancy` answers
e2e_run exec --gpu h200 "$X/occupancy.cu"
line=$(grep -m1 '^scale block=256' "$OUT")
regs=$(sed -E 's/.*regs=([0-9]+).*/\1/' <<<"$line")
api=$(sed -E 's/.*blocks_per_sm=([0-9]+).*/\1/' <<<"$line")
want=$("$GPUSIM" occupancy --gpu h200 --block 256 --regs "$regs" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['blocks_per_sm'])")
if [ -n "$api" ] && [ "$api" = "$want" ]; then ok; else bad "cudaOccupancyMaxActiveBlocksPerMultiprocessor gave '$api', gpusim occupancy $want" "$line"; fi
line=$(grep -m1 'mirror block=256 smem=102400' "$OUT")
api=$(sed -E 's/.*blocks_per_sm=([0-9]+).*/\1/' <<<"$line")
regs=$(sed -E 's/.*regs=([0-9]+).*/\1/' <<<"$line")
want=$("$GPUSIM" occupancy --gpu h200 --block 256 --regs "$regs" --smem 102400 --json | python3 -c "import json,sys; print(json.load(sys.stdin)['blocks_per_sm'])")
if [ -n "$api" ] && [ "$api" = "$want" ]; then ok; else bad "with 100 KiB of dynamic shared memory: '$api', gpusim occupancy $want" "$line"; fi
expect_out "cudaGetDeviceProperties gives the preset's figures" "device sms=132 cc=9.0 threads_per_sm=2048"
expect_rc "exec --set" 0 exec --gpu h200 --set sm.count=66 --set sm.max_threads=1024 "$X/occupancy.cu"
expect_out "--set reaches the device" "device sms=66 cc=9.0 threads_per_sm=1024"

# errors: the fault report, and the call gpusim does not implement
e2e_run exec --gpu h200 "$X/errors.cu"
expect_err "a fault is reported as a sanitizer would" "out-of-bounds global access of 4 bytes .* after the end of buffer 'cudaMalloc #1"
expect_err "the fault names the kernel and thread" "by thread \(0,0,0\) of block \(0,0,0\)"
expect_err "the fault leads with the CUDA line and its text" "tests/exec/errors.cu:8: __global__ void store\(int\* p, int i, int v\) \{ p\[i\] = v; \}$"
expect_err "an unimplemented call is listed at exit" "called cudaIpcGetMemHandle, which gpusim does not implement \(1 call"
expect_err "a bad copy says which range" "cudaMemcpy: source range .* is not inside one device allocation"
# an untimed launch's fault names the saved PTX's line too (it named '?')
e2e_run exec --gpu h200 --kernels '^none$' "$X/errors.cu"
expect_err "an untimed launch's fault names the PTX file" "^    [^ ]*\.ptx:[0-9]+:[0-9]+: out-of-bounds global access"

# docs/CUDA.md counts the entry points that answer cudaErrorNotSupported
missing=$(grep -c "^MISSING(" "$SRC/cudart/unimplemented.def")
if grep -qF "libcudart.so.13\` ($missing of them" "$SRC/docs/CUDA.md"; then ok
else bad "docs/CUDA.md's count of unimplemented entry points is not $missing" "$(grep -o 'so.13` ([0-9]* of them' "$SRC/docs/CUDA.md")"; fi

# the runtime's error table: docs/CUDA.md and tests/exec/strict.cu hold each
# other, row by row (every row of each is in the other, with one error)
expect_rc "exec strict.cu" 0 exec --gpu h200 "$X/strict.cu"
expect_out "every bad call returns what the table says" "^PASS"
if python3 - "$SRC/docs/CUDA.md" "$OUT" <<'EOF'
import re, sys
table = dict(re.findall(r'^\| `([a-z0-9-]+)` \| .* \| `(cuda\w+)` \|$', open(sys.argv[1]).read(), re.M))
ran = dict(re.findall(r'^row ([a-z0-9-]+): ok (cuda\w+)$', open(sys.argv[2]).read(), re.M))
assert len(table) >= 60, f'the table has {len(table)} rows'
assert table == ran, sorted(set(table.items()) ^ set(ran.items()))
EOF
then ok; else bad "docs/CUDA.md's error table and tests/exec/strict.cu differ" "$(grep -v ': ok ' "$OUT" | head -5)"; fi
expect_err "a bad call says what was wrong" "cudaFreeHost\(0x[0-9a-f]+\): not memory that cudaMallocHost or cudaHostAlloc gave"
expect_err "a launch's shared memory past its attribute says so" "65540 bytes of dynamic shared memory; at most 65536 \(its cudaFuncAttributeMaxDynamicSharedMemorySize\)"

# a program that never synchronizes still has its kernels simulated and reported
expect_rc "exec nosync.cu" 0 exec --gpu h200 "$X/nosync.cu"
expect_err "the unsynchronized launch is in the report" "^  fill +1 +16 +256 "

# a kernel gpusim cannot run fails alone, with CUDA's error and where
expect_rc "exec partial.cu" 0 exec --gpu h200 "$X/partial.cu"
expect_out "the other kernels of the file run" "^PASS"
expect_out "the refused kernel's launch fails as CUDA would" "^talk: cudaErrorInvalidPtx"
expect_out "captured into a graph, it fails alike and leaves no node" "^captured talk: cudaErrorInvalidPtx, 1 node$"
expect_err "the refusal names the kernel and the PTX line" "kernel talk\(int\*, int, unsigned long long\) cannot run on the simulated GPU .*cudaErrorInvalidPtx"
expect_err "the refusal is at the user's CUDA line, through the header it came from" "partial.cu:7: error: 'barrier.cluster.arrive' is not supported yet .*\(in .*sm_90_rt.hpp:[0-9]+, inlined here; PTX .*\.ptx:[0-9]+:[0-9]+\)"
expect_err "the report marks its launch failed" "^  talk +1 \(0 timed\) .* failed"

# a long timed launch shows a progress line, erased when it ends; not when
# stderr is no terminal (auto), nor with --progress off
expect_rc "exec --progress on" 0 exec --gpu a100 --threads 1 --progress on "$X/long_launch.cu" 1500
expect_out "the long launch's result is right" "^PASS"
expect_err "its progress line names the kernel and counts blocks" "gpusim: .*long_launch.cu: kernel spin, launch 1: [0-9]+ of 1500 blocks \([0-9]+%\), [0-9]+ s"
expect_err "the line is erased before the report" $'\r\033\\[K$'
expect_rc "exec --progress auto" 0 exec --gpu a100 --threads 1 "$X/long_launch.cu" 1500
if grep -q "of 1500 blocks" "$ERR"; then bad "no progress line when stderr is not a terminal" "$(head -c 300 "$ERR")"; else ok; fi
expect_rc "exec --progress bad" 2 exec --progress sometimes "$X/long_launch.cu"
expect_err "a bad --progress value is named" "--progress takes on, off or auto, not 'sometimes'"

# the program's arguments, output and exit status are its own
expect_rc "exec passes the exit status" 3 exec --gpu h100 "$X/args.cu" 1000 3 "two words" x
expect_out "exec passes the arguments" "^arg 3: two words$"
expect_out "the kernel's results reach the program" "^sum 499500$"
expect_rc "exec -- PROGRAM" 0 exec --gpu h100 -- "$X/args.cu" 10 0

# --report: the same as JSON
expect_rc "exec --report" 0 exec --gpu h200 --report "$TMP/report.json" "$X/divergence.cu"
if python3 - "$TMP/report.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
k = {x['name']: x for x in d['kernels']}
assert d['gpu'] == 'h200', d['gpu']
assert k['split_warps']['launches'] == 2 and k['split_lanes']['launches'] == 1, k
assert k['split_lanes']['block'] == [256, 1, 1] and k['split_lanes']['registers'] > 0
assert k['split_lanes']['time_us'] > k['split_warps']['time_us'] / 2 > 0
assert 'branch efficiency' in k['split_lanes']['why']
assert k['split_lanes']['stats']['warp_instructions'] > 0
assert d['unimplemented_calls'] == []
assert k['split_lanes']['zero_copy_launches'] == 0
EOF
then ok; else bad "--report JSON" "$(head -c 600 "$TMP/report.json")"; fi

# a kernel given pinned host memory (zero-copy) is timed as device memory: the report says so
e2e_run exec --gpu h200 --report "$TMP/host_memory.json" "$X/host_memory.cu"
expect_err "zero-copy launches are named" "^  square_into\(int const\*, int\*, int\): .*; 2 launches passed a pointer to pinned host memory, whose accesses are timed as device memory's \(the link to the host is not modelled\)$"
if python3 -c 'import json,sys; k={x["name"]: x for x in json.load(open(sys.argv[1]))["kernels"]}; sys.exit(not (k["add_one"]["zero_copy_launches"] == 1 and k["add_one"]["launches"] == 2))' "$TMP/host_memory.json"
then ok; else bad "--report counts zero-copy launches" "$(head -c 600 "$TMP/host_memory.json")"; fi

# local memory is counted apart from global, as Nsight Compute does: the
# table kernel's scattered local array is named as such, its global loads
# are coalesced (they were one count, which blamed global loads)
expect_rc "exec --report local.cu" 0 exec --gpu h200 --report "$TMP/local.json" "$X/local.cu"
if python3 - "$TMP/local.json" <<'EOF'
import json, sys
k = {x['name']: x for x in json.load(open(sys.argv[1]))['kernels']}['table']
st = k['stats']
assert st['lld_requests'] > 0 and st['lst_requests'] > 0, st
assert st['gld_sectors'] <= 4 * st['gld_requests'], st
assert st['l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum'] == st['lld_sectors'], st
assert 'local loads touch' in k['why'] and 'global loads touch' not in k['why'], k['why']
EOF
then ok; else bad "local memory's own counters" "$(head -c 400 "$TMP/local.json")"; fi

# --max-launches and --kernels: the others run exactly but are not timed
expect_rc "exec --max-launches 1" 0 exec --gpu h200 --max-launches 1 "$X/divergence.cu"
expect_out "untimed launches still compute" "^PASS"
expect_err "--max-launches marks the untimed" "^  split_warps +2 \(1 timed\)"
expect_rc "exec --kernels" 0 exec --gpu h200 --kernels '^split_lanes$' "$X/divergence.cu"
expect_err "--kernels leaves the others not timed" "^  split_warps .* not timed"

# --profile-from-start off: only the launches between cudaProfilerStart and
# cudaProfilerStop are timed (a cooperative launch always is); on, all are
expect_rc "exec --profile-from-start off" 0 exec --gpu h200 --profile-from-start off "$X/streams.cu"
expect_out "launches outside the profiler's range still compute" "^PASS"
expect_err "the launch inside the range is timed" "^  add_one +2 \(1 timed\)"
expect_err "the launches outside it are not" "^  fill +2 \(0 timed\) .* not timed"
expect_rc "exec --profile-from-start on" 0 exec --gpu h200 --profile-from-start on "$X/streams.cu"
expect_err "from the start, every launch is timed" "^  fill +2 +[0-9]"
expect_rc "exec --profile-from-start with a bad value" 2 exec --profile-from-start maybe "$X/streams.cu"
expect_err "a bad --profile-from-start says what it takes" "takes on or off, not 'maybe'"
# the cluster launch streams.cu tries is refused and listed at exit
e2e_run exec --gpu h200 "$X/streams.cu"
expect_err "a cluster launch is named as not implemented" "called cudaLaunchKernelExC with a thread-block cluster, which gpusim does not implement \(1 call"

# a graph's kernels are launches of their own in the report (3 replays of a capture)
e2e_run exec --gpu h200 "$X/graphs.cu"
expect_err "a graph's kernel launches are reported one by one" "^  add_one +3 +8 +128"

# --threads: the same report, byte for byte
"$GPUSIM" exec --gpu h200 "$X/divergence.cu" >"$TMP/t1.out" 2>"$TMP/t1.err"
"$GPUSIM" exec --gpu h200 --threads 3 "$X/divergence.cu" >"$TMP/t3.out" 2>"$TMP/t3.err"
if cmp -s "$TMP/t1.err" "$TMP/t3.err" && cmp -s "$TMP/t1.out" "$TMP/t3.out"; then ok; else bad "--threads 3 changed the output" "$(diff "$TMP/t1.err" "$TMP/t3.err" | head -5)"; fi

# --trace: a Chrome trace of the timed launches, one span each, by kernel and launch
expect_rc "exec --trace" 0 exec --gpu h200 --trace "$TMP/exec-trace.json" "$X/divergence.cu"
if python3 - "$TMP/exec-trace.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
events = d['traceEvents'] if isinstance(d, dict) else d
names = {e.get('name') for e in events}
assert {'split_warps #1', 'split_warps #2', 'split_lanes #1'} <= names, sorted(n for n in names if n and '#' in n)
assert any(e.get('ph') == 'X' and e.get('cat') == 'warp' for e in events)
EOF
then ok; else bad "exec --trace: the launches' spans" "$(head -c 300 "$TMP/exec-trace.json")"; fi
expect_rc "exec --trace onto the program" 2 exec --trace "$X/divergence.cu" "$X/divergence.cu"
expect_err "exec --trace onto the program says so" "is the program"
expect_rc "exec --trace and --report on one file" 2 exec --trace "$TMP/one.json" --report "$TMP/one.json" "$X/divergence.cu"
expect_err "exec --trace and --report on one file says so" "name one file"
expect_rc "exec --trace into a missing folder" 2 exec --trace "$TMP/no/such/dir/t.json" "$X/divergence.cu"
expect_err "exec --trace into a missing folder says so" "cannot write trace file"

# --source: each kernel's lines with their counters
expect_rc "exec --source" 0 exec --gpu h200 --source "$X/divergence.cu"
expect_err "--source lists the CUDA lines" "divergence.cu"
expect_err "--source titles each kernel" "split_lanes\(float\*, int\), 1 timed launch"

# debug builds (nvcc -G) keep every helper of cooperative groups: fns,
# isspacep, the reserved shared memory of tiles larger than a warp, and
# libcu++ atomics that pass their operation as a function pointer; and
# their loops, branches and early returns, which -O3 would have merged
for p in coalesced large_tiles spaces function_pointers virtual_functions recursion early_return block_votes async_copy; do
    "$nvcc" -G -cudart shared -arch=sm_90 -I"$X" -o "$TMP/$p-debug" "$X/$p.cu" 2>/dev/null
    expect_rc "exec $p.cu built with -G" 0 exec --gpu h200 "$TMP/$p-debug"
    expect_out "$p.cu built with -G passes its own checks" "^PASS"
done

# refusals
"$nvcc" -O3 -arch=sm_90 -o "$TMP/static" "$X/args.cu" 2>/dev/null
expect_rc "a static runtime is refused" 2 exec "$TMP/static" 10 0
expect_err "the refusal says what to do" "rebuild it with 'nvcc -cudart shared"
"$nvcc" -O3 -cudart shared -gencode arch=compute_90a,code=compute_90a -o "$TMP/sm90a" "$X/args.cu" 2>/dev/null
expect_rc "no PTX for the device: the program sees CUDA's error" 1 exec --gpu a100 "$TMP/sm90a" 10 0
expect_err "the program reports CUDA's message" "cudaGetLastError\(\) failed: no kernel image is available for execution on the device"
expect_err "no kernel image names the targets" "no kernel image is available for execution on the device: the simulated GPU is sm_80 and the program carries compute_90a \(PTX\)"
expect_rc "the same program on its own device" 0 exec --gpu h200 "$TMP/sm90a" 10 0

e2e_finish

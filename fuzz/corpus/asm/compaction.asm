// compaction.asm -- divergence removal by stream compaction (teaching case 12).
// Every element i < n is either ordinary (y[i] = x[i] * 0.5, cheap) or
// "special" when x[i] > threshold (y[i] = f^iters(x[i]) with
// f(v) = v * 0.999 + 0.5, a dependent FMA chain: costly).
//   divergent   each thread takes its own element through an if/else: almost
//               every warp holds a few special lanes, so the warp runs the
//               costly loop with most of its lanes masked off
//   compaction  the text's fix: each block appends the indices of its special
//               elements to a shared list (slist[atomicAdd(&bucket, 1)] = i),
//               reserves room for them in a global list with ONE global
//               atomicAdd per block, then threads 0 .. bucket-1 each take one
//               listed element: the costly loop runs in full warps (all but
//               the last one of the block). The list's order depends on the
//               order of the atomics (nondeterministic on hardware); y and
//               the count do not, and they are what the checks compare.
// Both take 1D blocks; compaction needs blockDim.x * 4 bytes of dynamic
// shared memory for slist and *count == 0 at launch.

.kernel divergent
.param .ptr x
.param .ptr y
.param .u32 n
.param .f32 threshold
.param .s32 iters
    ld.param.u32    %r0, [x]
    ld.param.u32    %r1, [y]
    ld.param.u32    %r2, [n]
    ld.param.f32    %r3, [threshold]
    ld.param.s32    %r4, [iters]
    mov.u32         %r5, %ctaid.x
    mov.u32         %r6, %ntid.x
    mov.u32         %r7, %tid.x
    mad.lo.u32      %r8, %r5, %r6, %r7        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.u32     %p0, %r8, %r2             // if (i >= n) return
    @%p0 exit
    shl.b32         %r9, %r8, 2               // byte offset of element i
    add.u32         %r10, %r9, %r0
    ld.global.f32   %r11, [%r10]              // v = x[i]
    setp.gt.f32     %p1, %r11, %r3
    @%p1 bra        SPECIAL                   // if (v > threshold) ... else
    mul.f32         %r11, %r11, 0.5           //   v = v * 0.5: the ordinary element
    bra             STORE
SPECIAL:
    mov.u32         %r12, 0                   //   k = 0
COSTLY:
    setp.ge.s32     %p2, %r12, %r4
    @%p2 bra        STORE                     //   while (k < iters) {
    fma.rn.f32      %r11, %r11, 0.999, 0.5    //     v = v * 0.999 + 0.5: a few lanes of the warp
    add.s32         %r12, %r12, 1             //     k++
    bra             COSTLY                    //   }
STORE:
    add.u32         %r10, %r9, %r1
    st.global.f32   [%r10], %r11              // y[i] = v
    exit

.kernel compaction
.param .ptr x
.param .ptr y
.param .ptr list
.param .ptr count
.param .u32 n
.param .f32 threshold
.param .s32 iters
.shared bucket 4                              // int bucket: special elements of this block
.shared base 4                                // int base: the block's first slot in list
.shared slist                                 // dynamic: int slist[blockDim.x]
    ld.param.u32    %r0, [x]
    ld.param.u32    %r1, [y]
    ld.param.u32    %r2, [n]
    ld.param.f32    %r3, [threshold]
    ld.param.s32    %r4, [iters]
    mov.u32         %r5, %ctaid.x
    mov.u32         %r6, %ntid.x
    mov.u32         %r7, %tid.x
    mad.lo.u32      %r8, %r5, %r6, %r7        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.eq.u32     %p3, %r7, 0
    @%p3 st.shared.u32 [bucket], 0            // if (tid == 0) bucket = 0
    bar.sync        0
    setp.lt.u32     %p0, %r8, %r2             // in = i < n
    shl.b32         %r9, %r8, 2               // byte offset of element i
    add.u32         %r10, %r9, %r0
    mov.f32         %r11, 0.0
    @%p0 ld.global.f32 %r11, [%r10]           // v = x[i]
    setp.gt.f32     %p1, %r11, %r3
    and.pred        %p1, %p1, %p0             // flag = in && v > threshold
    not.pred        %p2, %p1
    and.pred        %p2, %p2, %p0             // ordinary = in && !flag
    mul.f32         %r12, %r11, 0.5           // v * 0.5
    add.u32         %r10, %r9, %r1
    @%p2 st.global.f32 [%r10], %r12           // if (ordinary) y[i] = v * 0.5 (predicated, no branch)
    @%p1 atom.shared.add.u32 %r13, [bucket], 1 // if (flag) pos = atomicAdd(&bucket, 1)
    shl.b32         %r13, %r13, 2
    @%p1 st.shared.u32 [%r13+slist], %r8      //           slist[pos] = i
    bar.sync        0                         // __syncthreads(): the block's list is complete
    ld.shared.u32   %r14, [bucket]            // b = bucket (broadcast)
    @%p3 ld.param.u32 %r15, [count]
    @%p3 atom.global.add.u32 %r16, [%r15], %r14 // if (tid == 0) base = atomicAdd(count, b): one per block
    @%p3 st.shared.u32 [base], %r16
    bar.sync        0
    setp.ge.u32     %p0, %r7, %r14
    @%p0 exit                                 // if (tid < b): threads 0 .. b-1, whole warps
    shl.b32         %r17, %r7, 2
    ld.shared.u32   %r18, [%r17+slist]        //   j = slist[tid]
    ld.shared.u32   %r19, [base]
    add.u32         %r19, %r19, %r7           //   base + tid
    ld.param.u32    %r20, [list]
    shl.b32         %r19, %r19, 2
    add.u32         %r19, %r19, %r20
    st.global.u32   [%r19], %r18              //   list[base + tid] = j
    shl.b32         %r9, %r18, 2              //   byte offset of element j
    add.u32         %r10, %r9, %r0
    ld.global.f32   %r11, [%r10]              //   v = x[j]
    mov.u32         %r12, 0                   //   k = 0
COSTLY:
    setp.ge.s32     %p2, %r12, %r4
    @%p2 bra        STORE                     //   while (k < iters) {
    fma.rn.f32      %r11, %r11, 0.999, 0.5    //     v = v * 0.999 + 0.5: full warps
    add.s32         %r12, %r12, 1             //     k++
    bra             COSTLY                    //   }
STORE:
    add.u32         %r10, %r9, %r1
    st.global.f32   [%r10], %r11              //   y[j] = v
    exit

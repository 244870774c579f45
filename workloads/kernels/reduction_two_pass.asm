// reduction_two_pass.asm -- sum of n floats into one float, in one pass or
// two (teaching cases 11 and 13; workloads/reduction_two_pass.json). Every
// kernel takes a 1D grid of 1D blocks of a power-of-two size with blockDim.x
// floats of dynamic shared memory, and reduces with the classic tree over
// the block (bar.sync per level), as reduction.asm's reduce_acc4_shared does.
//   reduce_atomic    reduction.asm's reduce_acc4_shared as it is: the
//                    four-accumulator grid-stride loop, the tree, and ONE
//                    atomicAdd per block into *sum (which starts at 0)
//   reduce_partials  the same loop and tree, then partials[blockIdx.x] =
//                    the block's sum: a plain store, no atomic
//   reduce_final     one block: each thread sums partials[tid], partials[tid
//                    + blockDim.x], ... below m, the tree, *sum = the total
// The two-pass variant launches reduce_partials, then reduce_final over
// its gridDim.x partial sums: the second launch finds them in L2.

.kernel reduce_atomic
.param .ptr in
.param .ptr sum
.param .u32 n
.shared sdata                                 // dynamic: float sdata[blockDim.x]
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [sum]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // i = blockIdx.x * blockDim.x + threadIdx.x
    mov.u32         %r7, %nctaid.x
    mul.lo.u32      %r7, %r7, %r4             // s = gridDim.x * blockDim.x
    shl.b32         %r8, %r6, 2
    add.u32         %r8, %r8, %r0             // p = &in[i]
    shl.b32         %r9, %r7, 2               // s in bytes
    shl.b32         %r15, %r9, 2              // 4s in bytes
    shl.b32         %r16, %r7, 2              // 4s
    mov.f32         %r10, 0.0                 // acc0 = 0
    mov.f32         %r20, 0.0                 // acc1 = 0
    mov.f32         %r21, 0.0                 // acc2 = 0
    mov.f32         %r22, 0.0                 // acc3 = 0
    mad.lo.u32      %r17, %r7, 3, %r6         // j = i + 3s
    setp.ge.u32     %p0, %r17, %r2
    @%p0 bra        TAIL                      // for (; i + 3s < n; i += 4s) {
LOOP4:
    add.u32         %r18, %r8, %r9            //   &in[i + s]
    add.u32         %r19, %r18, %r9           //   &in[i + 2s]
    add.u32         %r23, %r19, %r9           //   &in[i + 3s]
    ld.global.f32   %r11, [%r8]               //   in[i]
    ld.global.f32   %r24, [%r18]              //   in[i + s]
    ld.global.f32   %r25, [%r19]              //   in[i + 2s]
    ld.global.f32   %r26, [%r23]              //   in[i + 3s]
    add.f32         %r10, %r10, %r11          //   acc0 += in[i]
    add.f32         %r20, %r20, %r24          //   acc1 += in[i + s]
    add.f32         %r21, %r21, %r25          //   acc2 += in[i + 2s]
    add.f32         %r22, %r22, %r26          //   acc3 += in[i + 3s]
    add.u32         %r6, %r6, %r16            //   i += 4s
    add.u32         %r17, %r17, %r16          //   j += 4s
    add.u32         %r8, %r8, %r15            //   p += 4s
    setp.lt.u32     %p0, %r17, %r2
    @%p0 bra        LOOP4                     // }
TAIL:
    setp.ge.u32     %p0, %r6, %r2
    @%p0 bra        COMBINE                   // for (; i < n; i += s)
TAIL_LOOP:
    ld.global.f32   %r11, [%r8]
    add.f32         %r10, %r10, %r11          //   acc0 += in[i]
    add.u32         %r6, %r6, %r7             //   i += s
    add.u32         %r8, %r8, %r9             //   p += s
    setp.lt.u32     %p0, %r6, %r2
    @%p0 bra        TAIL_LOOP
COMBINE:
    add.f32         %r10, %r10, %r20          // acc0 + acc1
    add.f32         %r21, %r21, %r22          // acc2 + acc3
    add.f32         %r10, %r10, %r21          // acc = (acc0 + acc1) + (acc2 + acc3)
    shl.b32         %r12, %r5, 2              // &sdata[tid]
    st.shared.f32   [%r12+sdata], %r10        // sdata[tid] = acc
    bar.sync        0
    shr.u32         %r13, %r4, 1              // for (h = blockDim.x / 2; h > 0; h >>= 1) {
TREE:
    setp.ge.u32     %p1, %r5, %r13
    @%p1 bra        TREE_NEXT                 //   if (tid < h)
    shl.b32         %r14, %r13, 2
    add.u32         %r14, %r14, %r12          //     &sdata[tid + h]
    ld.shared.f32   %r11, [%r14+sdata]
    ld.shared.f32   %r10, [%r12+sdata]
    add.f32         %r10, %r10, %r11
    st.shared.f32   [%r12+sdata], %r10        //     sdata[tid] += sdata[tid + h]
TREE_NEXT:
    bar.sync        0                         //   __syncthreads()
    shr.u32         %r13, %r13, 1
    setp.ne.u32     %p1, %r13, 0
    @%p1 bra        TREE                      // }
    setp.ne.u32     %p1, %r5, 0
    @%p1 exit                                 // if (tid == 0)
    ld.shared.f32   %r10, [sdata]
    atom.global.add.f32 %r14, [%r1], %r10     //   atomicAdd(sum, sdata[0]): one per block
    exit

.kernel reduce_partials
.param .ptr in
.param .ptr partials
.param .u32 n
.shared sdata                                 // dynamic: float sdata[blockDim.x]
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [partials]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // i = blockIdx.x * blockDim.x + threadIdx.x
    mov.u32         %r7, %nctaid.x
    mul.lo.u32      %r7, %r7, %r4             // s = gridDim.x * blockDim.x
    shl.b32         %r8, %r6, 2
    add.u32         %r8, %r8, %r0             // p = &in[i]
    shl.b32         %r9, %r7, 2               // s in bytes
    shl.b32         %r15, %r9, 2              // 4s in bytes
    shl.b32         %r16, %r7, 2              // 4s
    mov.f32         %r10, 0.0                 // acc0 = 0
    mov.f32         %r20, 0.0                 // acc1 = 0
    mov.f32         %r21, 0.0                 // acc2 = 0
    mov.f32         %r22, 0.0                 // acc3 = 0
    mad.lo.u32      %r17, %r7, 3, %r6         // j = i + 3s
    setp.ge.u32     %p0, %r17, %r2
    @%p0 bra        TAIL                      // for (; i + 3s < n; i += 4s) {
LOOP4:
    add.u32         %r18, %r8, %r9            //   &in[i + s]
    add.u32         %r19, %r18, %r9           //   &in[i + 2s]
    add.u32         %r23, %r19, %r9           //   &in[i + 3s]
    ld.global.f32   %r11, [%r8]               //   in[i]
    ld.global.f32   %r24, [%r18]              //   in[i + s]
    ld.global.f32   %r25, [%r19]              //   in[i + 2s]
    ld.global.f32   %r26, [%r23]              //   in[i + 3s]
    add.f32         %r10, %r10, %r11          //   acc0 += in[i]
    add.f32         %r20, %r20, %r24          //   acc1 += in[i + s]
    add.f32         %r21, %r21, %r25          //   acc2 += in[i + 2s]
    add.f32         %r22, %r22, %r26          //   acc3 += in[i + 3s]
    add.u32         %r6, %r6, %r16            //   i += 4s
    add.u32         %r17, %r17, %r16          //   j += 4s
    add.u32         %r8, %r8, %r15            //   p += 4s
    setp.lt.u32     %p0, %r17, %r2
    @%p0 bra        LOOP4                     // }
TAIL:
    setp.ge.u32     %p0, %r6, %r2
    @%p0 bra        COMBINE                   // for (; i < n; i += s)
TAIL_LOOP:
    ld.global.f32   %r11, [%r8]
    add.f32         %r10, %r10, %r11          //   acc0 += in[i]
    add.u32         %r6, %r6, %r7             //   i += s
    add.u32         %r8, %r8, %r9             //   p += s
    setp.lt.u32     %p0, %r6, %r2
    @%p0 bra        TAIL_LOOP
COMBINE:
    add.f32         %r10, %r10, %r20          // acc0 + acc1
    add.f32         %r21, %r21, %r22          // acc2 + acc3
    add.f32         %r10, %r10, %r21          // acc = (acc0 + acc1) + (acc2 + acc3)
    shl.b32         %r12, %r5, 2              // &sdata[tid]
    st.shared.f32   [%r12+sdata], %r10        // sdata[tid] = acc
    bar.sync        0
    shr.u32         %r13, %r4, 1              // for (h = blockDim.x / 2; h > 0; h >>= 1) {
TREE:
    setp.ge.u32     %p1, %r5, %r13
    @%p1 bra        TREE_NEXT                 //   if (tid < h)
    shl.b32         %r14, %r13, 2
    add.u32         %r14, %r14, %r12          //     &sdata[tid + h]
    ld.shared.f32   %r11, [%r14+sdata]
    ld.shared.f32   %r10, [%r12+sdata]
    add.f32         %r10, %r10, %r11
    st.shared.f32   [%r12+sdata], %r10        //     sdata[tid] += sdata[tid + h]
TREE_NEXT:
    bar.sync        0                         //   __syncthreads()
    shr.u32         %r13, %r13, 1
    setp.ne.u32     %p1, %r13, 0
    @%p1 bra        TREE                      // }
    setp.ne.u32     %p1, %r5, 0
    @%p1 exit                                 // if (tid == 0)
    ld.shared.f32   %r10, [sdata]
    shl.b32         %r14, %r3, 2
    add.u32         %r14, %r14, %r1           //   &partials[blockIdx.x]
    st.global.f32   [%r14], %r10              //   partials[blockIdx.x] = sdata[0]: no atomic
    exit

.kernel reduce_final
.param .ptr partials
.param .ptr sum
.param .u32 m
.shared sdata                                 // dynamic: float sdata[blockDim.x]
    ld.param.u32    %r0, [partials]
    ld.param.u32    %r1, [sum]
    ld.param.u32    %r2, [m]
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    shl.b32         %r8, %r5, 2
    add.u32         %r8, %r8, %r0             // p = &partials[tid]
    shl.b32         %r9, %r4, 2               // blockDim.x in bytes
    mov.u32         %r6, %r5                  // i = tid
    mov.f32         %r10, 0.0                 // acc = 0
    setp.ge.u32     %p0, %r6, %r2
    @%p0 bra        COMBINE                   // for (i = tid; i < m; i += blockDim.x)
LOOP:
    ld.global.f32   %r11, [%r8]
    add.f32         %r10, %r10, %r11          //   acc += partials[i]
    add.u32         %r6, %r6, %r4             //   i += blockDim.x
    add.u32         %r8, %r8, %r9
    setp.lt.u32     %p0, %r6, %r2
    @%p0 bra        LOOP
COMBINE:
    shl.b32         %r12, %r5, 2              // &sdata[tid]
    st.shared.f32   [%r12+sdata], %r10        // sdata[tid] = acc
    bar.sync        0
    shr.u32         %r13, %r4, 1              // for (h = blockDim.x / 2; h > 0; h >>= 1) {
TREE:
    setp.ge.u32     %p1, %r5, %r13
    @%p1 bra        TREE_NEXT                 //   if (tid < h)
    shl.b32         %r14, %r13, 2
    add.u32         %r14, %r14, %r12          //     &sdata[tid + h]
    ld.shared.f32   %r11, [%r14+sdata]
    ld.shared.f32   %r10, [%r12+sdata]
    add.f32         %r10, %r10, %r11
    st.shared.f32   [%r12+sdata], %r10        //     sdata[tid] += sdata[tid + h]
TREE_NEXT:
    bar.sync        0                         //   __syncthreads()
    shr.u32         %r13, %r13, 1
    setp.ne.u32     %p1, %r13, 0
    @%p1 bra        TREE                      // }
    setp.ne.u32     %p1, %r5, 0
    @%p1 exit                                 // if (tid == 0)
    ld.shared.f32   %r10, [sdata]
    st.global.f32   [%r1], %r10               //   *sum = sdata[0]
    exit

// reduction.asm -- sum of n floats into one float (teaching cases 11 and 13).
// All kernels take (in, sum, n), a 1D grid of 1D blocks whose size is a
// multiple of 32, and *sum == 0 at launch. Each thread walks the array with
// a grid-stride loop (for (i = gid; i < n; i += gridDim.x * blockDim.x)),
// then the block's partial sums are combined and added to *sum atomically.
//   reduce_acc1         one accumulator: every add waits for the previous one
//                       and, in order, for its load: one load in flight per warp
//   reduce_acc4         four independent accumulators over i, i + s, i + 2s,
//                       i + 3s (s = the grid stride): four loads in flight per
//                       warp; a one-accumulator tail loop takes the elements
//                       of the last, incomplete group of four
//   reduce_acc4_shared  reduce_acc4's loop, then the classic shared-memory
//                       tree over the block (blockDim.x floats of dynamic
//                       shared memory, a power of two) and ONE atomic per block
// acc1 and acc4 end with a warp-shuffle tree (shfl.sync.down 16, 8, 4, 2, 1)
// and ONE atomicAdd per warp from lane 0.

.kernel reduce_acc1
.param .ptr in
.param .ptr sum
.param .u32 n
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
    mov.f32         %r10, 0.0                 // acc = 0
    setp.ge.u32     %p0, %r6, %r2
    @%p0 bra        WARP_SUM                  // for (; i < n; i += s)
LOOP:
    ld.global.f32   %r11, [%r8]               //   in[i]
    add.f32         %r10, %r10, %r11          //   acc += in[i]: waits for the load and the previous add
    add.u32         %r6, %r6, %r7             //   i += s
    add.u32         %r8, %r8, %r9             //   p += s
    setp.lt.u32     %p0, %r6, %r2
    @%p0 bra        LOOP
WARP_SUM:
    shfl.sync.down.b32 %r12, %r10, 16, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // acc += acc of lane + 16
    shfl.sync.down.b32 %r12, %r10, 8, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // acc += acc of lane + 8
    shfl.sync.down.b32 %r12, %r10, 4, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // acc += acc of lane + 4
    shfl.sync.down.b32 %r12, %r10, 2, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // acc += acc of lane + 2
    shfl.sync.down.b32 %r12, %r10, 1, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // lane 0: the warp's sum
    mov.u32         %r13, %laneid
    setp.ne.u32     %p1, %r13, 0
    @%p1 exit                                 // if (lane == 0)
    atom.global.add.f32 %r14, [%r1], %r10     //   atomicAdd(sum, acc): one per warp
    exit

.kernel reduce_acc4
.param .ptr in
.param .ptr sum
.param .u32 n
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
    mad.lo.u32      %r17, %r7, 3, %r6         // j = i + 3s: the last element of the group
    setp.ge.u32     %p0, %r17, %r2
    @%p0 bra        TAIL                      // for (; i + 3s < n; i += 4s) {
LOOP4:
    add.u32         %r18, %r8, %r9            //   &in[i + s]
    add.u32         %r19, %r18, %r9           //   &in[i + 2s]
    add.u32         %r23, %r19, %r9           //   &in[i + 3s]
    ld.global.f32   %r11, [%r8]               //   in[i]
    ld.global.f32   %r24, [%r18]              //   in[i + s]
    ld.global.f32   %r25, [%r19]              //   in[i + 2s]
    ld.global.f32   %r26, [%r23]              //   in[i + 3s]: four loads in flight
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
    shfl.sync.down.b32 %r12, %r10, 16, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // acc += acc of lane + 16
    shfl.sync.down.b32 %r12, %r10, 8, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // acc += acc of lane + 8
    shfl.sync.down.b32 %r12, %r10, 4, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // acc += acc of lane + 4
    shfl.sync.down.b32 %r12, %r10, 2, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // acc += acc of lane + 2
    shfl.sync.down.b32 %r12, %r10, 1, 31, 0xffffffff
    add.f32         %r10, %r10, %r12          // lane 0: the warp's sum
    mov.u32         %r13, %laneid
    setp.ne.u32     %p1, %r13, 0
    @%p1 exit                                 // if (lane == 0)
    atom.global.add.f32 %r14, [%r1], %r10     //   atomicAdd(sum, acc): one per warp
    exit

.kernel reduce_acc4_shared
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

// gemv.asm -- y = A x for a row-major n x n float matrix A (teaching case 6):
// 2 FLOP per 4-byte element of A, about 0.5 FLOP/B: memory-bound.
// Both kernels take (A, x, y, n) and 1D blocks whose size is a multiple of 32.
//   gemv_naive         one thread per row, k loop: lane r of a warp reads
//                      A[r*n + k], so the 32 lanes touch 32 rows, n*4 bytes
//                      apart: 32 sectors per request, each 32-byte sector
//                      re-fetched (or found in L1) for the next 7 values of k
//   gemv_warp_per_row  one warp per row: lane l reads A[r*n + l + 32m], so a
//                      warp reads 128 contiguous bytes per request (4
//                      sectors); the 32 partial sums meet in a shuffle tree

.kernel gemv_naive
.param .ptr A
.param .ptr x
.param .ptr y
.param .u32 n
    ld.param.u32    %r0, [A]
    ld.param.u32    %r1, [x]
    ld.param.u32    %r2, [y]
    ld.param.u32    %r3, [n]
    mov.u32         %r4, %ctaid.x
    mov.u32         %r5, %ntid.x
    mov.u32         %r6, %tid.x
    mad.lo.u32      %r7, %r4, %r5, %r6        // r = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.u32     %p0, %r7, %r3             // if (r >= n) return
    @%p0 exit
    mul.lo.u32      %r8, %r7, %r3
    shl.b32         %r8, %r8, 2
    add.u32         %r8, %r8, %r0             // a = &A[r*n]
    mov.u32         %r9, %r1                  // b = &x[0]
    shl.b32         %r10, %r3, 2
    add.u32         %r10, %r10, %r1           // end = &x[n]
    mov.f32         %r11, 0.0                 // acc = 0
    setp.eq.u32     %p0, %r3, 0
    @%p0 bra        STORE                     // for (k = 0; k < n; k++)
LOOP:
    ld.global.f32   %r12, [%r8]               //   A[r*n + k]: 32 rows apart across the warp
    ld.global.f32   %r13, [%r9]               //   x[k]: the same word for every lane
    fma.rn.f32      %r11, %r12, %r13, %r11    //   acc += A[r*n + k] * x[k]
    add.u32         %r8, %r8, 4
    add.u32         %r9, %r9, 4
    setp.lt.u32     %p0, %r9, %r10
    @%p0 bra        LOOP
STORE:
    shl.b32         %r14, %r7, 2
    add.u32         %r14, %r14, %r2
    st.global.f32   [%r14], %r11              // y[r] = acc
    exit

.kernel gemv_warp_per_row
.param .ptr A
.param .ptr x
.param .ptr y
.param .u32 n
    ld.param.u32    %r0, [A]
    ld.param.u32    %r1, [x]
    ld.param.u32    %r2, [y]
    ld.param.u32    %r3, [n]
    mov.u32         %r4, %ctaid.x
    mov.u32         %r5, %ntid.x
    mov.u32         %r6, %tid.x
    mad.lo.u32      %r7, %r4, %r5, %r6
    shr.u32         %r7, %r7, 5               // r = global thread index / 32: one row per warp
    setp.ge.u32     %p0, %r7, %r3             // if (r >= n) return (the whole warp)
    @%p0 exit
    mov.u32         %r15, %laneid             // l = lane
    mad.lo.u32      %r8, %r7, %r3, %r15
    shl.b32         %r8, %r8, 2
    add.u32         %r8, %r8, %r0             // a = &A[r*n + l]
    shl.b32         %r9, %r15, 2
    add.u32         %r9, %r9, %r1             // b = &x[l]
    shl.b32         %r10, %r3, 2
    add.u32         %r10, %r10, %r1           // end = &x[n]
    mov.f32         %r11, 0.0                 // acc = 0
    setp.ge.u32     %p0, %r9, %r10
    @%p0 bra        WARP_SUM                  // for (k = l; k < n; k += 32)
LOOP:
    ld.global.f32   %r12, [%r8]               //   A[r*n + k]: 32 consecutive words across the warp
    ld.global.f32   %r13, [%r9]               //   x[k]: 32 consecutive words
    fma.rn.f32      %r11, %r12, %r13, %r11    //   acc += A[r*n + k] * x[k]
    add.u32         %r8, %r8, 128
    add.u32         %r9, %r9, 128
    setp.lt.u32     %p0, %r9, %r10
    @%p0 bra        LOOP
WARP_SUM:
    shfl.sync.down.b32 %r16, %r11, 16, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // acc += acc of lane + 16
    shfl.sync.down.b32 %r16, %r11, 8, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // acc += acc of lane + 8
    shfl.sync.down.b32 %r16, %r11, 4, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // acc += acc of lane + 4
    shfl.sync.down.b32 %r16, %r11, 2, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // acc += acc of lane + 2
    shfl.sync.down.b32 %r16, %r11, 1, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // lane 0: the row's dot product
    setp.ne.u32     %p1, %r15, 0
    @%p1 exit                                 // if (l == 0)
    shl.b32         %r14, %r7, 2
    add.u32         %r14, %r14, %r2
    st.global.f32   [%r14], %r11              //   y[r] = acc
    exit

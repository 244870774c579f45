// gemm.asm -- C = A B for row-major n x n float matrices (teaching cases 6
// and 14): 2n^3 FLOP over at least 3 n^2 * 4 bytes, arithmetic intensity up
// to n/6 FLOP/B when each element crosses the memory bus once.
// Both kernels take (A, B, C, n) and 16x16 blocks on a
// [ceil(n/16), ceil(n/16)] grid (blockIdx.x: column tile, blockIdx.y: row tile).
//   gemm_naive  one thread per C element, k loop over global memory: every
//               thread reads a row of A and a column of B, 2 loads per FMA;
//               the caches catch most of the reuse, the load pipe does not
//   gemm_tiled  the CUDA programming guide's shared-memory version: per step
//               the block stages a 16x16 tile of A and one of B in shared
//               memory (one element per thread, bar.sync), then each thread
//               does 16 FMAs from shared memory: 16 times fewer global loads.
//               The inner k loop is kept rolled (nvcc unrolls it: its trip
//               count 16 is a constant), a zero-padded edge handles n % 16

.kernel gemm_naive
.param .ptr A
.param .ptr B
.param .ptr C
.param .u32 n
    ld.param.u32    %r0, [A]
    ld.param.u32    %r1, [B]
    ld.param.u32    %r2, [C]
    ld.param.u32    %r3, [n]
    mov.u32         %r4, %ctaid.x
    mov.u32         %r5, %tid.x
    shl.b32         %r6, %r4, 4
    add.u32         %r6, %r6, %r5             // col = blockIdx.x * 16 + threadIdx.x
    mov.u32         %r4, %ctaid.y
    mov.u32         %r5, %tid.y
    shl.b32         %r7, %r4, 4
    add.u32         %r7, %r7, %r5             // row = blockIdx.y * 16 + threadIdx.y
    max.u32         %r8, %r6, %r7
    setp.ge.u32     %p0, %r8, %r3             // if (row >= n || col >= n) return
    @%p0 exit
    mul.lo.u32      %r8, %r7, %r3
    shl.b32         %r8, %r8, 2
    add.u32         %r8, %r8, %r0             // a = &A[row*n]
    shl.b32         %r9, %r6, 2
    add.u32         %r9, %r9, %r1             // b = &B[col]
    shl.b32         %r10, %r3, 2              // n * 4: one row of B
    add.u32         %r11, %r8, %r10           // end = &A[row*n + n]
    mov.f32         %r12, 0.0                 // acc = 0
LOOP:                                         // for (k = 0; k < n; k++)
    ld.global.f32   %r13, [%r8]               //   A[row*n + k]: 2 words per warp (2 rows), broadcast
    ld.global.f32   %r14, [%r9]               //   B[k*n + col]: 16 consecutive words per half-warp
    fma.rn.f32      %r12, %r13, %r14, %r12    //   acc += A[row][k] * B[k][col]
    add.u32         %r8, %r8, 4
    add.u32         %r9, %r9, %r10
    setp.lt.u32     %p0, %r8, %r11
    @%p0 bra        LOOP
    mad.lo.u32      %r15, %r7, %r3, %r6
    shl.b32         %r15, %r15, 2
    add.u32         %r15, %r15, %r2
    st.global.f32   [%r15], %r12              // C[row*n + col] = acc
    exit

.kernel gemm_tiled
.param .ptr A
.param .ptr B
.param .ptr C
.param .u32 n
.shared As 1024                               // float As[16][16]
.shared Bs 1024                               // float Bs[16][16]
    ld.param.u32    %r0, [A]
    ld.param.u32    %r1, [B]
    ld.param.u32    %r2, [C]
    ld.param.u32    %r3, [n]
    mov.u32         %r4, %tid.x               // tx
    mov.u32         %r5, %tid.y               // ty
    mov.u32         %r6, %ctaid.x
    shl.b32         %r6, %r6, 4
    add.u32         %r6, %r6, %r4             // col = blockIdx.x * 16 + tx
    mov.u32         %r7, %ctaid.y
    shl.b32         %r7, %r7, 4
    add.u32         %r7, %r7, %r5             // row = blockIdx.y * 16 + ty
    shl.b32         %r8, %r5, 4
    add.u32         %r8, %r8, %r4
    shl.b32         %r8, %r8, 2               // s = &tile[ty][tx] - &tile[0][0]
    shl.b32         %r9, %r5, 6               // &As[ty][0] - As
    shl.b32         %r10, %r4, 2              // &Bs[0][tx] - Bs
    mov.f32         %r12, 0.0                 // acc = 0
    mov.u32         %r13, 0                   // t0 = 0: first k of the tile
TILE:                                         // for (t0 = 0; t0 < n; t0 += 16) {
    mov.f32         %r14, 0.0
    add.u32         %r15, %r13, %r4           //   ka = t0 + tx
    max.u32         %r16, %r7, %r15
    setp.lt.u32     %p0, %r16, %r3            //   row < n && ka < n
    mad.lo.u32      %r17, %r7, %r3, %r15
    shl.b32         %r17, %r17, 2
    add.u32         %r17, %r17, %r0
    @%p0 ld.global.f32 %r14, [%r17]           //   a = A[row*n + ka], or 0 past the edge
    st.shared.f32   [%r8+As], %r14            //   As[ty][tx] = a
    mov.f32         %r14, 0.0
    add.u32         %r15, %r13, %r5           //   kb = t0 + ty
    max.u32         %r16, %r6, %r15
    setp.lt.u32     %p0, %r16, %r3            //   kb < n && col < n
    mad.lo.u32      %r17, %r15, %r3, %r6
    shl.b32         %r17, %r17, 2
    add.u32         %r17, %r17, %r1
    @%p0 ld.global.f32 %r14, [%r17]           //   b = B[kb*n + col], or 0 past the edge
    st.shared.f32   [%r8+Bs], %r14            //   Bs[ty][tx] = b
    bar.sync        0                         //   __syncthreads(): both tiles written
    mov.u32         %r18, %r9                 //   pa = &As[ty][0]
    mov.u32         %r19, %r10                //   pb = &Bs[0][tx]
    add.u32         %r20, %r9, 64             //   end = &As[ty][16]
INNER:                                        //   for (k = 0; k < 16; k++)
    ld.shared.f32   %r21, [%r18+As]           //     As[ty][k]: 2 words per warp, broadcast
    ld.shared.f32   %r22, [%r19+Bs]           //     Bs[k][tx]: 16 consecutive words, conflict-free
    fma.rn.f32      %r12, %r21, %r22, %r12    //     acc += As[ty][k] * Bs[k][tx]
    add.u32         %r18, %r18, 4
    add.u32         %r19, %r19, 64
    setp.lt.u32     %p1, %r18, %r20
    @%p1 bra        INNER
    bar.sync        0                         //   __syncthreads(): done with the tiles
    add.u32         %r13, %r13, 16
    setp.lt.u32     %p1, %r13, %r3
    @%p1 bra        TILE                      // }
    max.u32         %r16, %r6, %r7
    setp.ge.u32     %p0, %r16, %r3
    @%p0 exit                                 // if (row < n && col < n)
    mad.lo.u32      %r17, %r7, %r3, %r6
    shl.b32         %r17, %r17, 2
    add.u32         %r17, %r17, %r2
    st.global.f32   [%r17], %r12              //   C[row*n + col] = acc
    exit

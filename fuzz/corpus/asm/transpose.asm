// transpose.asm -- matrix transpose of an n x n float matrix (teaching case 8).
// All kernels take (in, out, n) and a 2D grid of 32x32-thread blocks.
//   transpose_naive        out[col*n + row] = in[row*n + col]: reads coalesced,
//                          writes strided by n floats (one sector per lane)
//   transpose_tiled        through a 32x32 shared tile: both sides coalesced,
//                          but reading a tile column hits one bank 32 times
//   transpose_tiled_padded the same with a [32][33] tile: a column walks all
//                          32 banks, no conflict
//   copy                   out[row*n + col] = in[row*n + col]: the bandwidth
//                          reference with the same indexing

.kernel transpose_naive
.param .ptr in
.param .ptr out
.param .u32 n
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // col = blockIdx.x * blockDim.x + threadIdx.x
    mov.u32         %r3, %ctaid.y
    mov.u32         %r4, %ntid.y
    mov.u32         %r5, %tid.y
    mad.lo.u32      %r7, %r3, %r4, %r5        // row = blockIdx.y * blockDim.y + threadIdx.y
    max.u32         %r8, %r6, %r7
    setp.ge.u32     %p0, %r8, %r2             // col >= n || row >= n
    @%p0 exit
    mad.lo.u32      %r8, %r7, %r2, %r6        // row * n + col
    shl.b32         %r8, %r8, 2
    add.u32         %r8, %r8, %r0
    ld.global.f32   %r9, [%r8]                // in[row*n + col]: consecutive lanes, consecutive words
    mad.lo.u32      %r10, %r6, %r2, %r7       // col * n + row
    shl.b32         %r10, %r10, 2
    add.u32         %r10, %r10, %r1
    st.global.f32   [%r10], %r9               // out[col*n + row]: lanes 4*n bytes apart
    exit

.kernel transpose_tiled
.param .ptr in
.param .ptr out
.param .u32 n
.shared tile 4096                             // float tile[32][32]
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %tid.x
    mov.u32         %r4, %tid.y
    mov.u32         %r5, %ctaid.x
    mov.u32         %r6, %ctaid.y
    shl.b32         %r7, %r5, 5
    add.u32         %r7, %r7, %r3             // x = blockIdx.x * 32 + threadIdx.x
    shl.b32         %r8, %r6, 5
    add.u32         %r8, %r8, %r4             // y = blockIdx.y * 32 + threadIdx.y
    max.u32         %r9, %r7, %r8
    setp.lt.u32     %p0, %r9, %r2             // x < n && y < n
    mad.lo.u32      %r10, %r8, %r2, %r7       // y * n + x
    shl.b32         %r10, %r10, 2
    add.u32         %r10, %r10, %r0
    @%p0 ld.global.f32 %r11, [%r10]           // in[y*n + x]
    shl.b32         %r12, %r4, 5
    add.u32         %r12, %r12, %r3           // threadIdx.y * 32 + threadIdx.x
    shl.b32         %r12, %r12, 2
    @%p0 st.shared.f32 [%r12+tile], %r11      // tile[ty][tx] = in[y*n + x]
    bar.sync        0
    shl.b32         %r7, %r6, 5
    add.u32         %r7, %r7, %r3             // x = blockIdx.y * 32 + threadIdx.x
    shl.b32         %r8, %r5, 5
    add.u32         %r8, %r8, %r4             // y = blockIdx.x * 32 + threadIdx.y
    max.u32         %r9, %r7, %r8
    setp.lt.u32     %p0, %r9, %r2
    shl.b32         %r12, %r3, 5
    add.u32         %r12, %r12, %r4           // threadIdx.x * 32 + threadIdx.y: a column of the tile
    shl.b32         %r12, %r12, 2
    @%p0 ld.shared.f32 %r11, [%r12+tile]      // tile[tx][ty]: lanes 128 bytes apart, all in one bank
    mad.lo.u32      %r10, %r8, %r2, %r7       // y * n + x
    shl.b32         %r10, %r10, 2
    add.u32         %r10, %r10, %r1
    @%p0 st.global.f32 [%r10], %r11           // out[y*n + x]
    exit

.kernel transpose_tiled_padded
.param .ptr in
.param .ptr out
.param .u32 n
.shared tile 4224                             // float tile[32][33]
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %tid.x
    mov.u32         %r4, %tid.y
    mov.u32         %r5, %ctaid.x
    mov.u32         %r6, %ctaid.y
    shl.b32         %r7, %r5, 5
    add.u32         %r7, %r7, %r3             // x = blockIdx.x * 32 + threadIdx.x
    shl.b32         %r8, %r6, 5
    add.u32         %r8, %r8, %r4             // y = blockIdx.y * 32 + threadIdx.y
    max.u32         %r9, %r7, %r8
    setp.lt.u32     %p0, %r9, %r2
    mad.lo.u32      %r10, %r8, %r2, %r7
    shl.b32         %r10, %r10, 2
    add.u32         %r10, %r10, %r0
    @%p0 ld.global.f32 %r11, [%r10]           // in[y*n + x]
    mad.lo.u32      %r12, %r4, 33, %r3        // threadIdx.y * 33 + threadIdx.x
    shl.b32         %r12, %r12, 2
    @%p0 st.shared.f32 [%r12+tile], %r11      // tile[ty][tx]
    bar.sync        0
    shl.b32         %r7, %r6, 5
    add.u32         %r7, %r7, %r3             // x = blockIdx.y * 32 + threadIdx.x
    shl.b32         %r8, %r5, 5
    add.u32         %r8, %r8, %r4             // y = blockIdx.x * 32 + threadIdx.y
    max.u32         %r9, %r7, %r8
    setp.lt.u32     %p0, %r9, %r2
    mad.lo.u32      %r12, %r3, 33, %r4        // threadIdx.x * 33 + threadIdx.y: 33 words apart, 32 banks
    shl.b32         %r12, %r12, 2
    @%p0 ld.shared.f32 %r11, [%r12+tile]      // tile[tx][ty]
    mad.lo.u32      %r10, %r8, %r2, %r7
    shl.b32         %r10, %r10, 2
    add.u32         %r10, %r10, %r1
    @%p0 st.global.f32 [%r10], %r11           // out[y*n + x]
    exit

.kernel copy
.param .ptr in
.param .ptr out
.param .u32 n
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // col
    mov.u32         %r3, %ctaid.y
    mov.u32         %r4, %ntid.y
    mov.u32         %r5, %tid.y
    mad.lo.u32      %r7, %r3, %r4, %r5        // row
    max.u32         %r8, %r6, %r7
    setp.ge.u32     %p0, %r8, %r2
    @%p0 exit
    mad.lo.u32      %r8, %r7, %r2, %r6        // row * n + col
    shl.b32         %r8, %r8, 2
    add.u32         %r9, %r8, %r0
    ld.global.f32   %r10, [%r9]
    add.u32         %r9, %r8, %r1
    st.global.f32   [%r9], %r10
    exit

// rmsnorm.asm -- RMSNorm over the rows of a [tokens, hidden] float matrix
// (teaching cases 6 and 7): y[t][j] = x[t][j] / sqrt(mean_j(x[t][j]^2) + eps) * w[j].
// Written as vLLM's rms_norm / fused_add_rms_norm kernels are: one block per
// row (blockIdx.x = t), threads stride over the row twice (pass 1 sums the
// squares, pass 2 scales; the second read of the row mostly hits the caches),
// and a block-level reduction in between: a shuffle tree inside each warp,
// one partial per warp in shared memory, a shuffle tree in warp 0, and
// thread 0 computes rstd = rsqrt(sum / hidden + eps) for the whole block.
// The block size must be a multiple of 32 (at most 1024).
//   rmsnorm            y = rmsnorm(x) * w
//   residual_add       h = x + r, one element per thread: the separate
//                      residual add that runs before rmsnorm when it is not
//                      fused (the "separate" cost is residual_add + rmsnorm)
//   fused_add_rmsnorm  h = x + r and y = rmsnorm(h) * w in one kernel: pass 1
//                      writes h while it sums h^2, pass 2 re-reads h, which is
//                      still in L2, so h is not read back from DRAM

.kernel rmsnorm
.param .ptr x
.param .ptr w
.param .ptr y
.param .u32 hidden
.param .f32 eps
.shared red 128                               // float red[32]: one partial sum per warp
.shared s_rstd 4                              // float s_rstd: the row's 1/rms
    ld.param.u32    %r0, [x]
    ld.param.u32    %r1, [w]
    ld.param.u32    %r2, [y]
    ld.param.u32    %r3, [hidden]
    mov.u32         %r4, %ctaid.x             // t = blockIdx.x: this block's row
    mov.u32         %r5, %tid.x
    mov.u32         %r6, %ntid.x
    mul.lo.u32      %r7, %r4, %r3             // t * hidden
    shl.b32         %r7, %r7, 2
    add.u32         %r8, %r7, %r0             // xrow = &x[t * hidden]
    add.u32         %r9, %r7, %r2             // yrow = &y[t * hidden]
    shl.b32         %r10, %r6, 2              // blockDim.x in bytes
    mov.f32         %r11, 0.0                 // ss = 0
    shl.b32         %r12, %r5, 2              // off = j * 4, j = threadIdx.x
    mov.u32         %r13, %r5                 // j = threadIdx.x
    setp.ge.u32     %p0, %r13, %r3
    @%p0 bra        REDUCE                    // for (j = tid; j < hidden; j += blockDim.x)
SQUARES:
    add.u32         %r14, %r8, %r12
    ld.global.f32   %r15, [%r14]              //   v = xrow[j]
    fma.rn.f32      %r11, %r15, %r15, %r11    //   ss += v * v
    add.u32         %r13, %r13, %r6           //   j += blockDim.x
    add.u32         %r12, %r12, %r10
    setp.lt.u32     %p0, %r13, %r3
    @%p0 bra        SQUARES
REDUCE:
    shfl.sync.down.b32 %r16, %r11, 16, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // ss += ss of lane + 16
    shfl.sync.down.b32 %r16, %r11, 8, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // ss += ss of lane + 8
    shfl.sync.down.b32 %r16, %r11, 4, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // ss += ss of lane + 4
    shfl.sync.down.b32 %r16, %r11, 2, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // ss += ss of lane + 2
    shfl.sync.down.b32 %r16, %r11, 1, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // lane 0: the warp's sum of squares
    mov.u32         %r17, %laneid
    shr.u32         %r18, %r5, 5              // warp = threadIdx.x / 32
    setp.eq.u32     %p1, %r17, 0
    shl.b32         %r19, %r18, 2
    @%p1 st.shared.f32 [%r19+red], %r11       // if (lane == 0) red[warp] = ss
    bar.sync        0
    shr.u32         %r20, %r6, 5              // warps in the block
    setp.lt.u32     %p2, %r5, %r20
    mov.f32         %r11, 0.0
    shl.b32         %r21, %r17, 2
    @%p2 ld.shared.f32 %r11, [%r21+red]       // ss = tid < warps ? red[lane] : 0
    setp.ne.u32     %p3, %r18, 0
    @%p3 bra.uni    SCALE_WAIT                // if (warp == 0) {
    shfl.sync.down.b32 %r16, %r11, 16, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          //   the same tree over the warps' sums
    shfl.sync.down.b32 %r16, %r11, 8, 31, 0xffffffff
    add.f32         %r11, %r11, %r16
    shfl.sync.down.b32 %r16, %r11, 4, 31, 0xffffffff
    add.f32         %r11, %r11, %r16
    shfl.sync.down.b32 %r16, %r11, 2, 31, 0xffffffff
    add.f32         %r11, %r11, %r16
    shfl.sync.down.b32 %r16, %r11, 1, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          //   lane 0: sum of x^2 over the row
    @!%p1 bra       SCALE_WAIT                //   if (lane == 0) {
    cvt.rn.f32.u32  %r22, %r3                 //     (float)hidden
    div.rn.f32      %r22, %r11, %r22          //     mean = ss / hidden
    ld.param.f32    %r23, [eps]
    add.f32         %r22, %r22, %r23          //     mean + eps
    rsqrt.approx.f32 %r22, %r22               //     rstd = rsqrtf(mean + eps)
    st.shared.f32   [s_rstd], %r22            //     s_rstd = rstd }}
SCALE_WAIT:
    bar.sync        0
    ld.shared.f32   %r22, [s_rstd]            // rstd, the same word for every lane: a broadcast
    shl.b32         %r12, %r5, 2              // off = j * 4, j = threadIdx.x
    mov.u32         %r13, %r5
    setp.ge.u32     %p0, %r13, %r3
    @%p0 exit                                 // for (j = tid; j < hidden; j += blockDim.x)
SCALE:
    add.u32         %r14, %r8, %r12
    ld.global.f32   %r15, [%r14]              //   v = xrow[j] (again: an L1/L2 hit when the row is still there)
    add.u32         %r14, %r1, %r12
    ld.global.f32   %r24, [%r14]              //   w[j]
    mul.f32         %r15, %r15, %r22          //   v * rstd
    mul.f32         %r15, %r15, %r24          //   v * rstd * w[j]
    add.u32         %r14, %r9, %r12
    st.global.f32   [%r14], %r15              //   yrow[j] = v * rstd * w[j]
    add.u32         %r13, %r13, %r6           //   j += blockDim.x
    add.u32         %r12, %r12, %r10
    setp.lt.u32     %p0, %r13, %r3
    @%p0 bra        SCALE
    exit

.kernel residual_add
.param .ptr x
.param .ptr r
.param .ptr h
.param .u32 count
    ld.param.u32    %r0, [x]
    ld.param.u32    %r1, [r]
    ld.param.u32    %r2, [h]
    ld.param.u32    %r3, [count]
    mov.u32         %r4, %ctaid.x
    mov.u32         %r5, %ntid.x
    mov.u32         %r6, %tid.x
    mad.lo.u32      %r7, %r4, %r5, %r6        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.u32     %p0, %r7, %r3             // if (i >= tokens * hidden) return
    @%p0 exit
    shl.b32         %r8, %r7, 2
    add.u32         %r9, %r8, %r0
    ld.global.f32   %r10, [%r9]               // x[i]
    add.u32         %r9, %r8, %r1
    ld.global.f32   %r11, [%r9]               // r[i]
    add.f32         %r10, %r10, %r11          // x[i] + r[i]
    add.u32         %r9, %r8, %r2
    st.global.f32   [%r9], %r10               // h[i] = x[i] + r[i]
    exit

.kernel fused_add_rmsnorm
.param .ptr x
.param .ptr r
.param .ptr w
.param .ptr h
.param .ptr y
.param .u32 hidden
.param .f32 eps
.shared red 128                               // float red[32]: one partial sum per warp
.shared s_rstd 4                              // float s_rstd: the row's 1/rms
    ld.param.u32    %r0, [x]
    ld.param.u32    %r1, [w]
    ld.param.u32    %r2, [y]
    ld.param.u32    %r3, [hidden]
    ld.param.u32    %r25, [r]
    ld.param.u32    %r26, [h]
    mov.u32         %r4, %ctaid.x             // t = blockIdx.x: this block's row
    mov.u32         %r5, %tid.x
    mov.u32         %r6, %ntid.x
    mul.lo.u32      %r7, %r4, %r3             // t * hidden
    shl.b32         %r7, %r7, 2
    add.u32         %r8, %r7, %r0             // xrow = &x[t * hidden]
    add.u32         %r9, %r7, %r2             // yrow = &y[t * hidden]
    add.u32         %r27, %r7, %r25           // rrow = &r[t * hidden]
    add.u32         %r28, %r7, %r26           // hrow = &h[t * hidden]
    shl.b32         %r10, %r6, 2              // blockDim.x in bytes
    mov.f32         %r11, 0.0                 // ss = 0
    shl.b32         %r12, %r5, 2              // off = j * 4, j = threadIdx.x
    mov.u32         %r13, %r5                 // j = threadIdx.x
    setp.ge.u32     %p0, %r13, %r3
    @%p0 bra        REDUCE                    // for (j = tid; j < hidden; j += blockDim.x)
ADD_SQUARES:
    add.u32         %r14, %r8, %r12
    ld.global.f32   %r15, [%r14]              //   xrow[j]
    add.u32         %r14, %r27, %r12
    ld.global.f32   %r24, [%r14]              //   rrow[j]
    add.f32         %r15, %r15, %r24          //   v = xrow[j] + rrow[j]
    add.u32         %r14, %r28, %r12
    st.global.f32   [%r14], %r15              //   hrow[j] = v: the new residual stream
    fma.rn.f32      %r11, %r15, %r15, %r11    //   ss += v * v
    add.u32         %r13, %r13, %r6           //   j += blockDim.x
    add.u32         %r12, %r12, %r10
    setp.lt.u32     %p0, %r13, %r3
    @%p0 bra        ADD_SQUARES
REDUCE:
    shfl.sync.down.b32 %r16, %r11, 16, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // ss += ss of lane + 16
    shfl.sync.down.b32 %r16, %r11, 8, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // ss += ss of lane + 8
    shfl.sync.down.b32 %r16, %r11, 4, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // ss += ss of lane + 4
    shfl.sync.down.b32 %r16, %r11, 2, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // ss += ss of lane + 2
    shfl.sync.down.b32 %r16, %r11, 1, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          // lane 0: the warp's sum of squares
    mov.u32         %r17, %laneid
    shr.u32         %r18, %r5, 5              // warp = threadIdx.x / 32
    setp.eq.u32     %p1, %r17, 0
    shl.b32         %r19, %r18, 2
    @%p1 st.shared.f32 [%r19+red], %r11       // if (lane == 0) red[warp] = ss
    bar.sync        0
    shr.u32         %r20, %r6, 5              // warps in the block
    setp.lt.u32     %p2, %r5, %r20
    mov.f32         %r11, 0.0
    shl.b32         %r21, %r17, 2
    @%p2 ld.shared.f32 %r11, [%r21+red]       // ss = tid < warps ? red[lane] : 0
    setp.ne.u32     %p3, %r18, 0
    @%p3 bra.uni    SCALE_WAIT                // if (warp == 0) {
    shfl.sync.down.b32 %r16, %r11, 16, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          //   the same tree over the warps' sums
    shfl.sync.down.b32 %r16, %r11, 8, 31, 0xffffffff
    add.f32         %r11, %r11, %r16
    shfl.sync.down.b32 %r16, %r11, 4, 31, 0xffffffff
    add.f32         %r11, %r11, %r16
    shfl.sync.down.b32 %r16, %r11, 2, 31, 0xffffffff
    add.f32         %r11, %r11, %r16
    shfl.sync.down.b32 %r16, %r11, 1, 31, 0xffffffff
    add.f32         %r11, %r11, %r16          //   lane 0: sum of h^2 over the row
    @!%p1 bra       SCALE_WAIT                //   if (lane == 0) {
    cvt.rn.f32.u32  %r22, %r3                 //     (float)hidden
    div.rn.f32      %r22, %r11, %r22          //     mean = ss / hidden
    ld.param.f32    %r23, [eps]
    add.f32         %r22, %r22, %r23          //     mean + eps
    rsqrt.approx.f32 %r22, %r22               //     rstd = rsqrtf(mean + eps)
    st.shared.f32   [s_rstd], %r22            //     s_rstd = rstd }}
SCALE_WAIT:
    bar.sync        0
    ld.shared.f32   %r22, [s_rstd]            // rstd (broadcast)
    shl.b32         %r12, %r5, 2              // off = j * 4, j = threadIdx.x
    mov.u32         %r13, %r5
    setp.ge.u32     %p0, %r13, %r3
    @%p0 exit                                 // for (j = tid; j < hidden; j += blockDim.x)
SCALE:
    add.u32         %r14, %r28, %r12
    ld.global.f32   %r15, [%r14]              //   v = hrow[j], written in pass 1: an L2 hit (stores skip L1)
    add.u32         %r14, %r1, %r12
    ld.global.f32   %r24, [%r14]              //   w[j]
    mul.f32         %r15, %r15, %r22          //   v * rstd
    mul.f32         %r15, %r15, %r24          //   v * rstd * w[j]
    add.u32         %r14, %r9, %r12
    st.global.f32   [%r14], %r15              //   yrow[j] = v * rstd * w[j]
    add.u32         %r13, %r13, %r6           //   j += blockDim.x
    add.u32         %r12, %r12, %r10
    setp.lt.u32     %p0, %r13, %r3
    @%p0 bra        SCALE
    exit

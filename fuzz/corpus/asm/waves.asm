// waves.asm -- fixed work per block for the tail-wave case (teaching case 5).
//   block_work  every thread runs a chain of `iters` dependent FMAs,
//               x = float(threadIdx.x); x = x * 0.999 + 0.5 (iters times);
//               out[blockIdx.x * blockDim.x + threadIdx.x] = x.
// Each FMA waits for the previous one, so a warp issues about one
// instruction every few cycles: a block of a few warps is latency-bound and
// runs as fast alone on an SM as beside another block. Every block does the
// same work, so the time of a launch is (number of waves) x (one block).
// The dynamic shared array `pad` is never touched: the launch sizes it only
// to decide how many blocks fit on an SM, as a big shared tile would.

.kernel block_work
.param .ptr out
.param .s32 iters
.shared pad                                   // extern __shared__ float pad[] (unused)
    ld.param.u32    %r0, [out]
    ld.param.s32    %r1, [iters]
    mov.u32         %r2, %tid.x
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mad.lo.u32      %r5, %r3, %r4, %r2        // i = blockIdx.x * blockDim.x + threadIdx.x
    cvt.rn.f32.u32  %r6, %r2                  // x = (float)threadIdx.x
    mov.u32         %r7, 0                    // k = 0
    setp.le.s32     %p0, %r1, 0               // for (k = 0; k < iters; k++)
    @%p0 bra        STORE
LOOP:
    fma.rn.f32      %r6, %r6, 0.999, 0.5      //   x = x * 0.999 + 0.5
    add.s32         %r7, %r7, 1               //   k++
    setp.lt.s32     %p1, %r7, %r1
    @%p1 bra        LOOP
STORE:
    shl.b32         %r8, %r5, 2
    add.u32         %r8, %r8, %r0             // &out[i]
    st.global.f32   [%r8], %r6                // out[i] = x
    exit

// pipes.asm -- FMA and SFU latency and throughput microbenchmarks, twins of
// validate/micro/micro.cu (same loops, rotated as nvcc compiles them; the
// unrolled bodies written out as nvcc unrolls them).
//
//   fma_lat, sfu_lat    one warp: iters x 16 dependent fma / rsqrt;
//                       out[0] = cycles of the loop (as a float),
//                       out[1 + tid] = x. cycles / (16 iters) = latency.
//   fma_tput, sfu_tput  8 blocks x 256 threads per SM: 8 independent chains
//                       x 4 per iteration; cycles[block] = the block's
//                       duration, out[gid] = the sum of the chains.

.kernel fma_lat
.param .u32 iters
.param .f32 a
.param .f32 b
.param .ptr out
    ld.param.u32    %r0, [iters]
    ld.param.f32    %r1, [a]
    ld.param.f32    %r2, [b]
    ld.param.u32    %r3, [out]
    mov.u32         %r4, %tid.x
    cvt.rn.f32.u32  %r5, %r4                  // x = (float)tid.x
    mov.u32         %r6, %clock               // t0
    mov.u32         %r7, 0
    setp.eq.u32     %p0, %r0, 0
    @%p0 bra        DONE
LOOP:
    fma.rn.f32      %r5, %r5, %r1, %r2        // x = x*a + b, 16 dependent per iteration
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    fma.rn.f32      %r5, %r5, %r1, %r2
    add.u32         %r7, %r7, 1
    setp.lt.u32     %p0, %r7, %r0
    @%p0 bra        LOOP
DONE:
    mov.u32         %r8, %clock               // t1
    sub.u32         %r8, %r8, %r6
    setp.ne.u32     %p1, %r4, 0
    @%p1 bra        STORE
    cvt.rn.f32.u32  %r9, %r8
    st.global.f32   [%r3], %r9                // out[0] = cycles
STORE:
    add.u32         %r10, %r4, 1
    shl.b32         %r10, %r10, 2
    add.u32         %r10, %r10, %r3
    st.global.f32   [%r10], %r5               // out[1 + tid] = x
    exit

.kernel sfu_lat
.param .u32 iters
.param .ptr out
    ld.param.u32    %r0, [iters]
    ld.param.u32    %r3, [out]
    mov.u32         %r4, %tid.x
    cvt.rn.f32.u32  %r5, %r4
    add.f32         %r5, %r5, 2.0             // x = tid.x + 2
    mov.u32         %r6, %clock
    mov.u32         %r7, 0
    setp.eq.u32     %p0, %r0, 0
    @%p0 bra        DONE
LOOP:
    rsqrt.approx.f32 %r5, %r5                 // x = 1/sqrt(x), 16 dependent per iteration
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    rsqrt.approx.f32 %r5, %r5
    add.u32         %r7, %r7, 1
    setp.lt.u32     %p0, %r7, %r0
    @%p0 bra        LOOP
DONE:
    mov.u32         %r8, %clock
    sub.u32         %r8, %r8, %r6
    setp.ne.u32     %p1, %r4, 0
    @%p1 bra        STORE
    cvt.rn.f32.u32  %r9, %r8
    st.global.f32   [%r3], %r9
STORE:
    add.u32         %r10, %r4, 1
    shl.b32         %r10, %r10, 2
    add.u32         %r10, %r10, %r3
    st.global.f32   [%r10], %r5
    exit

.kernel fma_tput
.param .u32 iters
.param .f32 a
.param .f32 b
.param .ptr out
.param .ptr cycles
    ld.param.u32    %r0, [iters]
    ld.param.f32    %r1, [a]
    ld.param.f32    %r2, [b]
    ld.param.u32    %r3, [out]
    ld.param.u32    %r8, [cycles]
    mov.u32         %r4, %tid.x
    add.u32         %r9, %r4, 0
    cvt.rn.f32.u32  %r10, %r9                   // x[c] = (float)(tid.x + c)
    add.u32         %r9, %r4, 1
    cvt.rn.f32.u32  %r11, %r9
    add.u32         %r9, %r4, 2
    cvt.rn.f32.u32  %r12, %r9
    add.u32         %r9, %r4, 3
    cvt.rn.f32.u32  %r13, %r9
    add.u32         %r9, %r4, 4
    cvt.rn.f32.u32  %r14, %r9
    add.u32         %r9, %r4, 5
    cvt.rn.f32.u32  %r15, %r9
    add.u32         %r9, %r4, 6
    cvt.rn.f32.u32  %r16, %r9
    add.u32         %r9, %r4, 7
    cvt.rn.f32.u32  %r17, %r9
    mov.u32         %r6, %clock               // t0
    mov.u32         %r7, 0
    setp.eq.u32     %p0, %r0, 0
    @%p0 bra        DONE
LOOP:
    fma.rn.f32      %r10, %r10, %r1, %r2      // 8 independent chains x 4 per iteration
    fma.rn.f32      %r11, %r11, %r1, %r2
    fma.rn.f32      %r12, %r12, %r1, %r2
    fma.rn.f32      %r13, %r13, %r1, %r2
    fma.rn.f32      %r14, %r14, %r1, %r2
    fma.rn.f32      %r15, %r15, %r1, %r2
    fma.rn.f32      %r16, %r16, %r1, %r2
    fma.rn.f32      %r17, %r17, %r1, %r2
    fma.rn.f32      %r10, %r10, %r1, %r2
    fma.rn.f32      %r11, %r11, %r1, %r2
    fma.rn.f32      %r12, %r12, %r1, %r2
    fma.rn.f32      %r13, %r13, %r1, %r2
    fma.rn.f32      %r14, %r14, %r1, %r2
    fma.rn.f32      %r15, %r15, %r1, %r2
    fma.rn.f32      %r16, %r16, %r1, %r2
    fma.rn.f32      %r17, %r17, %r1, %r2
    fma.rn.f32      %r10, %r10, %r1, %r2
    fma.rn.f32      %r11, %r11, %r1, %r2
    fma.rn.f32      %r12, %r12, %r1, %r2
    fma.rn.f32      %r13, %r13, %r1, %r2
    fma.rn.f32      %r14, %r14, %r1, %r2
    fma.rn.f32      %r15, %r15, %r1, %r2
    fma.rn.f32      %r16, %r16, %r1, %r2
    fma.rn.f32      %r17, %r17, %r1, %r2
    fma.rn.f32      %r10, %r10, %r1, %r2
    fma.rn.f32      %r11, %r11, %r1, %r2
    fma.rn.f32      %r12, %r12, %r1, %r2
    fma.rn.f32      %r13, %r13, %r1, %r2
    fma.rn.f32      %r14, %r14, %r1, %r2
    fma.rn.f32      %r15, %r15, %r1, %r2
    fma.rn.f32      %r16, %r16, %r1, %r2
    fma.rn.f32      %r17, %r17, %r1, %r2
    add.u32         %r7, %r7, 1
    setp.lt.u32     %p0, %r7, %r0
    @%p0 bra        LOOP
DONE:
    bar.sync        0
    mov.u32         %r19, %clock              // t1, after the whole block
    sub.u32         %r19, %r19, %r6
    mov.f32         %r20, 0.0
    add.f32         %r20, %r20, %r10
    add.f32         %r20, %r20, %r11
    add.f32         %r20, %r20, %r12
    add.f32         %r20, %r20, %r13
    add.f32         %r20, %r20, %r14
    add.f32         %r20, %r20, %r15
    add.f32         %r20, %r20, %r16
    add.f32         %r20, %r20, %r17
    mov.u32         %r21, %ctaid.x
    mov.u32         %r22, %ntid.x
    mad.lo.u32      %r23, %r21, %r22, %r4     // gid
    shl.b32         %r23, %r23, 2
    add.u32         %r23, %r23, %r3
    st.global.f32   [%r23], %r20              // out[gid] = sum of the chains
    setp.ne.u32     %p1, %r4, 0
    @%p1 exit
    shl.b32         %r24, %r21, 2
    add.u32         %r24, %r24, %r8
    st.global.u32   [%r24], %r19              // cycles[block] = t1 - t0
    exit

.kernel sfu_tput
.param .u32 iters
.param .ptr out
.param .ptr cycles
    ld.param.u32    %r0, [iters]
    ld.param.u32    %r3, [out]
    ld.param.u32    %r8, [cycles]
    mov.u32         %r4, %tid.x
    add.u32         %r9, %r4, 0
    cvt.rn.f32.u32  %r10, %r9                   // x[c] = (float)(tid.x + c)
    add.f32         %r10, %r10, 2.0
    add.u32         %r9, %r4, 1
    cvt.rn.f32.u32  %r11, %r9
    add.f32         %r11, %r11, 2.0
    add.u32         %r9, %r4, 2
    cvt.rn.f32.u32  %r12, %r9
    add.f32         %r12, %r12, 2.0
    add.u32         %r9, %r4, 3
    cvt.rn.f32.u32  %r13, %r9
    add.f32         %r13, %r13, 2.0
    add.u32         %r9, %r4, 4
    cvt.rn.f32.u32  %r14, %r9
    add.f32         %r14, %r14, 2.0
    add.u32         %r9, %r4, 5
    cvt.rn.f32.u32  %r15, %r9
    add.f32         %r15, %r15, 2.0
    add.u32         %r9, %r4, 6
    cvt.rn.f32.u32  %r16, %r9
    add.f32         %r16, %r16, 2.0
    add.u32         %r9, %r4, 7
    cvt.rn.f32.u32  %r17, %r9
    add.f32         %r17, %r17, 2.0
    mov.u32         %r6, %clock               // t0
    mov.u32         %r7, 0
    setp.eq.u32     %p0, %r0, 0
    @%p0 bra        DONE
LOOP:
    rsqrt.approx.f32 %r10, %r10               // 8 independent chains x 4 per iteration
    rsqrt.approx.f32 %r11, %r11
    rsqrt.approx.f32 %r12, %r12
    rsqrt.approx.f32 %r13, %r13
    rsqrt.approx.f32 %r14, %r14
    rsqrt.approx.f32 %r15, %r15
    rsqrt.approx.f32 %r16, %r16
    rsqrt.approx.f32 %r17, %r17
    rsqrt.approx.f32 %r10, %r10
    rsqrt.approx.f32 %r11, %r11
    rsqrt.approx.f32 %r12, %r12
    rsqrt.approx.f32 %r13, %r13
    rsqrt.approx.f32 %r14, %r14
    rsqrt.approx.f32 %r15, %r15
    rsqrt.approx.f32 %r16, %r16
    rsqrt.approx.f32 %r17, %r17
    rsqrt.approx.f32 %r10, %r10
    rsqrt.approx.f32 %r11, %r11
    rsqrt.approx.f32 %r12, %r12
    rsqrt.approx.f32 %r13, %r13
    rsqrt.approx.f32 %r14, %r14
    rsqrt.approx.f32 %r15, %r15
    rsqrt.approx.f32 %r16, %r16
    rsqrt.approx.f32 %r17, %r17
    rsqrt.approx.f32 %r10, %r10
    rsqrt.approx.f32 %r11, %r11
    rsqrt.approx.f32 %r12, %r12
    rsqrt.approx.f32 %r13, %r13
    rsqrt.approx.f32 %r14, %r14
    rsqrt.approx.f32 %r15, %r15
    rsqrt.approx.f32 %r16, %r16
    rsqrt.approx.f32 %r17, %r17
    add.u32         %r7, %r7, 1
    setp.lt.u32     %p0, %r7, %r0
    @%p0 bra        LOOP
DONE:
    bar.sync        0
    mov.u32         %r19, %clock              // t1, after the whole block
    sub.u32         %r19, %r19, %r6
    mov.f32         %r20, 0.0
    add.f32         %r20, %r20, %r10
    add.f32         %r20, %r20, %r11
    add.f32         %r20, %r20, %r12
    add.f32         %r20, %r20, %r13
    add.f32         %r20, %r20, %r14
    add.f32         %r20, %r20, %r15
    add.f32         %r20, %r20, %r16
    add.f32         %r20, %r20, %r17
    mov.u32         %r21, %ctaid.x
    mov.u32         %r22, %ntid.x
    mad.lo.u32      %r23, %r21, %r22, %r4     // gid
    shl.b32         %r23, %r23, 2
    add.u32         %r23, %r23, %r3
    st.global.f32   [%r23], %r20              // out[gid] = sum of the chains
    setp.ne.u32     %p1, %r4, 0
    @%p1 exit
    shl.b32         %r24, %r21, 2
    add.u32         %r24, %r24, %r8
    st.global.u32   [%r24], %r19              // cycles[block] = t1 - t0
    exit

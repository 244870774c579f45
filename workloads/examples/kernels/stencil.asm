// stencil.asm -- a 1D three-point stencil, out[i] = 0.25*in[i-1] + 0.5*in[i]
// + 0.25*in[i+1] for 0 < i < n-1 (out[0] and out[n-1] untouched), one
// element per thread, as a student writes it from isa/ISA.md.
//   stencil_global  each thread loads its three neighbours from global
//                   memory: every element is loaded three times (by three
//                   threads of mostly the same warp: L1 serves the repeats)
//   stencil_shared  the block loads its elements and one halo element on
//                   each side into shared memory once, bar.sync, then reads
//                   the three neighbours there (float tile[blockDim.x + 2],
//                   dynamic shared memory of (blockDim.x + 2) * 4 bytes)

.kernel stencil_global
.param .ptr in
.param .ptr out
.param .u32 n
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.eq.u32     %p0, %r6, 0
    @%p0 exit                                 // if (i == 0) return
    sub.u32         %r7, %r2, 1
    setp.ge.u32     %p0, %r6, %r7
    @%p0 exit                                 // if (i >= n - 1) return
    shl.b32         %r8, %r6, 2
    add.u32         %r9, %r8, %r0             // &in[i]
    ld.global.f32   %r10, [%r9-4]             // in[i-1]
    ld.global.f32   %r11, [%r9]               // in[i]
    ld.global.f32   %r12, [%r9+4]             // in[i+1]
    mul.f32         %r13, %r10, 0.25          // t = 0.25 * in[i-1]
    fma.rn.f32      %r13, %r11, 0.5, %r13     // t += 0.5 * in[i]
    fma.rn.f32      %r13, %r12, 0.25, %r13    // t += 0.25 * in[i+1]
    add.u32         %r14, %r8, %r1
    st.global.f32   [%r14], %r13              // out[i] = t
    exit

.kernel stencil_shared
.param .ptr in
.param .ptr out
.param .u32 n
.shared tile                                  // dynamic: float tile[blockDim.x + 2]
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // i = blockIdx.x * blockDim.x + threadIdx.x
    shl.b32         %r8, %r6, 2
    add.u32         %r9, %r8, %r0             // &in[i]
    shl.b32         %r15, %r5, 2              // &tile[tid + 1] - 4
    setp.ge.u32     %p1, %r6, %r2
    @%p1 bra        HALO                      // if (i < n)
    ld.global.f32   %r11, [%r9]
    st.shared.f32   [%r15+tile+4], %r11       //   tile[tid + 1] = in[i]
HALO:
    setp.ne.u32     %p2, %r5, 0
    @%p2 bra        RIGHT                     // if (tid == 0 && i > 0)
    setp.eq.u32     %p3, %r6, 0
    @%p3 bra        RIGHT
    ld.global.f32   %r10, [%r9-4]
    st.shared.f32   [tile], %r10              //   tile[0] = in[i-1]
RIGHT:
    sub.u32         %r16, %r4, 1
    setp.ne.u32     %p2, %r5, %r16
    @%p2 bra        SYNC                      // if (tid == blockDim.x - 1 && i + 1 < n)
    add.u32         %r17, %r6, 1
    setp.ge.u32     %p3, %r17, %r2
    @%p3 bra        SYNC
    ld.global.f32   %r12, [%r9+4]
    st.shared.f32   [%r15+tile+8], %r12       //   tile[tid + 2] = in[i+1]
SYNC:
    bar.sync        0
    setp.eq.u32     %p0, %r6, 0
    @%p0 exit                                 // if (i == 0) return
    sub.u32         %r7, %r2, 1
    setp.ge.u32     %p0, %r6, %r7
    @%p0 exit                                 // if (i >= n - 1) return
    ld.shared.f32   %r10, [%r15+tile]         // tile[tid]     = in[i-1]
    ld.shared.f32   %r11, [%r15+tile+4]       // tile[tid + 1] = in[i]
    ld.shared.f32   %r12, [%r15+tile+8]       // tile[tid + 2] = in[i+1]
    mul.f32         %r13, %r10, 0.25
    fma.rn.f32      %r13, %r11, 0.5, %r13
    fma.rn.f32      %r13, %r12, 0.25, %r13
    add.u32         %r14, %r8, %r1
    st.global.f32   [%r14], %r13              // out[i] = t
    exit

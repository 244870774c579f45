// occupancy.asm -- the two kernels of the occupancy API example (teaching
// case 2, text 000 "occupancy.cu"); both take (x, n) and a 1D launch.
//   light        if (i < n) x[i] = x[i] * 2 + 1: a few registers, no shared
//                memory, so only the block size decides blocks per SM
//   smem_reverse each block stages its slice in the dynamic shared array
//                buf, waits at the barrier and writes the slice back
//                reversed: buf[t] = x[i]; __syncthreads(); x[i] = buf[blockDim-1-t].
//                The launch's dynamic shared memory (0/16/32/48 KB in the
//                text) decides how many blocks share an SM.

.kernel light
.param .ptr x
.param .s32 n
    ld.param.u32    %r0, [x]
    ld.param.s32    %r1, [n]
    mov.u32         %r2, %ctaid.x
    mov.u32         %r3, %ntid.x
    mov.u32         %r4, %tid.x
    mad.lo.u32      %r5, %r2, %r3, %r4        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.s32     %p0, %r5, %r1             // if (i >= n) return
    @%p0 exit
    shl.b32         %r6, %r5, 2               // byte offset of x[i]
    add.u32         %r6, %r6, %r0             // &x[i]
    ld.global.f32   %r7, [%r6]                // v = x[i]
    fma.rn.f32      %r7, %r7, 2.0, 1.0        // v = v * 2 + 1
    st.global.f32   [%r6], %r7                // x[i] = v
    exit

.kernel smem_reverse
.param .ptr x
.param .s32 n
.shared buf                                   // extern __shared__ float buf[]
    ld.param.u32    %r0, [x]
    ld.param.s32    %r1, [n]
    mov.u32         %r2, %ctaid.x
    mov.u32         %r3, %ntid.x
    mov.u32         %r4, %tid.x               // t = threadIdx.x
    mad.lo.u32      %r5, %r2, %r3, %r4        // i = blockIdx.x * blockDim.x + t
    shl.b32         %r6, %r5, 2
    add.u32         %r6, %r6, %r0             // &x[i]
    setp.lt.s32     %p0, %r5, %r1             // i < n
    mov.f32         %r7, 0.0                  // v = 0
    @%p0 ld.global.f32 %r7, [%r6]             // v = (i < n) ? x[i] : 0
    shl.b32         %r8, %r4, 2
    st.shared.f32   [%r8+buf], %r7            // buf[t] = v
    bar.sync        0                         // __syncthreads(): all of buf is written
    @!%p0 exit                                // if (i >= n) return
    sub.u32         %r9, %r3, %r4
    sub.u32         %r9, %r9, 1               // blockDim.x - 1 - t
    shl.b32         %r9, %r9, 2
    ld.shared.f32   %r10, [%r9+buf]           // buf[blockDim.x - 1 - t]
    st.global.f32   [%r6], %r10               // x[i] = buf[blockDim.x - 1 - t]
    exit

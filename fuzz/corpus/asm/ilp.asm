// ilp.asm -- latency hiding with independent loads (teaching case 4, Little's
// law). Both copy out[i] = in[i] for i < n with a grid-stride loop and take
// (in, out, n); the workload launches them at low occupancy.
//   copy_ilp1  one load per thread per iteration: the thread waits for it
//              (its store needs the value) before the next load can issue,
//              so a warp has one 128-byte request in flight
//   copy_ilp4  each iteration handles four elements one stride apart and
//              issues the four loads together before their four stores
//              (as the CUDA source writes a, b, c, d = in[i], in[i+s], ...):
//              four requests in flight per warp; a scalar loop takes the
//              elements left over

.kernel copy_ilp1
.param .ptr in
.param .ptr out
.param .s32 n
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.s32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // i = blockIdx.x * blockDim.x + threadIdx.x
    mov.u32         %r7, %nctaid.x
    mul.lo.u32      %r7, %r7, %r4             // stride = gridDim.x * blockDim.x
    setp.ge.s32     %p0, %r6, %r2             // for (; i < n; i += stride)
    @%p0 exit
LOOP:
    shl.b32         %r8, %r6, 2               //   byte offset of element i
    add.u32         %r9, %r8, %r0
    ld.global.f32   %r10, [%r9]               //   v = in[i]
    add.u32         %r9, %r8, %r1
    st.global.f32   [%r9], %r10               //   out[i] = v
    add.u32         %r6, %r6, %r7             //   i += stride
    setp.lt.s32     %p0, %r6, %r2
    @%p0 bra        LOOP
    exit

.kernel copy_ilp4
.param .ptr in
.param .ptr out
.param .s32 n
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.s32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // i = blockIdx.x * blockDim.x + threadIdx.x
    mov.u32         %r7, %nctaid.x
    mul.lo.u32      %r7, %r7, %r4             // s = gridDim.x * blockDim.x
    shl.b32         %r8, %r7, 2               // 4 * s: bytes between elements i and i + s
    mul.lo.u32      %r9, %r7, 3               // 3 * s
    mul.lo.u32      %r17, %r7, 4              // 4 * s
    add.u32         %r10, %r6, %r9            // i + 3 * s
    setp.ge.s32     %p0, %r10, %r2            // for (; i + 3 * s < n; i += 4 * s) {
    @%p0 bra        TAIL
LOOP4:
    shl.b32         %r11, %r6, 2
    add.u32         %r12, %r11, %r0           //   &in[i]
    ld.global.f32   %r13, [%r12]              //   a = in[i]
    add.u32         %r12, %r12, %r8
    ld.global.f32   %r14, [%r12]              //   b = in[i + s]
    add.u32         %r12, %r12, %r8
    ld.global.f32   %r15, [%r12]              //   c = in[i + 2 * s]
    add.u32         %r12, %r12, %r8
    ld.global.f32   %r16, [%r12]              //   d = in[i + 3 * s]
    add.u32         %r12, %r11, %r1           //   &out[i]
    st.global.f32   [%r12], %r13              //   out[i] = a
    add.u32         %r12, %r12, %r8
    st.global.f32   [%r12], %r14              //   out[i + s] = b
    add.u32         %r12, %r12, %r8
    st.global.f32   [%r12], %r15              //   out[i + 2 * s] = c
    add.u32         %r12, %r12, %r8
    st.global.f32   [%r12], %r16              //   out[i + 3 * s] = d
    add.u32         %r6, %r6, %r17            //   i += 4 * s
    add.u32         %r10, %r6, %r9
    setp.lt.s32     %p0, %r10, %r2
    @%p0 bra        LOOP4                     // }
TAIL:
    setp.ge.s32     %p1, %r6, %r2             // for (; i < n; i += s)
    @%p1 exit
    shl.b32         %r11, %r6, 2
    add.u32         %r12, %r11, %r0
    ld.global.f32   %r13, [%r12]              //   v = in[i]
    add.u32         %r12, %r11, %r1
    st.global.f32   [%r12], %r13              //   out[i] = v
    add.u32         %r6, %r6, %r7             //   i += s
    bra             TAIL

// grid_stride.asm -- y[i] = a * x[i] + y[i] (SAXPY) two ways (teaching case 13).
// Both take (x, y, a, n) and a 1D launch.
//   saxpy_one_per_thread  one element per thread: grid = ceil(n / blockDim)
//   saxpy_grid_stride     for (i = gid; i < n; i += gridDim.x * blockDim.x):
//                         a fixed grid (a few waves) walks any n

.kernel saxpy_one_per_thread
.param .ptr x
.param .ptr y
.param .f32 a
.param .s32 n
    ld.param.u32    %r0, [x]
    ld.param.u32    %r1, [y]
    ld.param.f32    %r2, [a]
    ld.param.s32    %r3, [n]
    mov.u32         %r4, %ctaid.x
    mov.u32         %r5, %ntid.x
    mov.u32         %r6, %tid.x
    mad.lo.u32      %r7, %r4, %r5, %r6        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.s32     %p0, %r7, %r3             // if (i >= n) return
    @%p0 exit
    shl.b32         %r8, %r7, 2               // byte offset of element i
    add.u32         %r9, %r8, %r0
    ld.global.f32   %r10, [%r9]               // x[i]
    add.u32         %r9, %r8, %r1
    ld.global.f32   %r11, [%r9]               // y[i]
    fma.rn.f32      %r11, %r2, %r10, %r11     // a * x[i] + y[i]
    st.global.f32   [%r9], %r11               // y[i] = a * x[i] + y[i]
    exit

.kernel saxpy_grid_stride
.param .ptr x
.param .ptr y
.param .f32 a
.param .s32 n
    ld.param.u32    %r0, [x]
    ld.param.u32    %r1, [y]
    ld.param.f32    %r2, [a]
    ld.param.s32    %r3, [n]
    mov.u32         %r4, %ctaid.x
    mov.u32         %r5, %ntid.x
    mov.u32         %r6, %tid.x
    mad.lo.u32      %r7, %r4, %r5, %r6        // i = blockIdx.x * blockDim.x + threadIdx.x
    mov.u32         %r12, %nctaid.x
    mul.lo.u32      %r12, %r12, %r5           // stride = gridDim.x * blockDim.x
    setp.ge.s32     %p0, %r7, %r3             // for (; i < n; i += stride)
    @%p0 exit
LOOP:
    shl.b32         %r8, %r7, 2               //   byte offset of element i
    add.u32         %r9, %r8, %r0
    ld.global.f32   %r10, [%r9]               //   x[i]
    add.u32         %r9, %r8, %r1
    ld.global.f32   %r11, [%r9]               //   y[i]
    fma.rn.f32      %r11, %r2, %r10, %r11     //   a * x[i] + y[i]
    st.global.f32   [%r9], %r11               //   y[i] = a * x[i] + y[i]
    add.u32         %r7, %r7, %r12            //   i += stride
    setp.lt.s32     %p0, %r7, %r3
    @%p0 bra        LOOP
    exit

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
    ld.param.u32    %r0, [x]                  // x
    ld.param.u32    %r1, [y]                  // y
    ld.param.f32    %r2, [a]                  // a
    ld.param.s32    %r3, [n]                  // n
    mov.u32         %r4, %ctaid.x             // blockIdx.x
    mov.u32         %r5, %ntid.x              // blockDim.x
    mov.u32         %r6, %tid.x               // threadIdx.x
    mad.lo.u32      %r7, %r4, %r5, %r6        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.s32     %p0, %r7, %r3             // if (i >= n) return
    @%p0 exit                                 //   ... return
    shl.b32         %r8, %r7, 2               // byte offset of element i
    add.u32         %r9, %r8, %r0             // &x[i]
    ld.global.f32   %r10, [%r9]               // x[i]
    add.u32         %r9, %r8, %r1             // &y[i]
    ld.global.f32   %r11, [%r9]               // y[i]
    fma.rn.f32      %r11, %r2, %r10, %r11     // a * x[i] + y[i]
    st.global.f32   [%r9], %r11               // y[i] = a * x[i] + y[i]
    exit                                      // return

.kernel saxpy_grid_stride
.param .ptr x
.param .ptr y
.param .f32 a
.param .s32 n
    ld.param.u32    %r0, [x]                  // x
    ld.param.u32    %r1, [y]                  // y
    ld.param.f32    %r2, [a]                  // a
    ld.param.s32    %r3, [n]                  // n
    mov.u32         %r4, %ctaid.x             // blockIdx.x
    mov.u32         %r5, %ntid.x              // blockDim.x
    mov.u32         %r6, %tid.x               // threadIdx.x
    mad.lo.u32      %r7, %r4, %r5, %r6        // i = blockIdx.x * blockDim.x + threadIdx.x
    mov.u32         %r12, %nctaid.x           // gridDim.x
    mul.lo.u32      %r12, %r12, %r5           // stride = gridDim.x * blockDim.x
    setp.ge.s32     %p0, %r7, %r3             // for (; i < n; i += stride)
    @%p0 exit                                 //   ... return
LOOP:
    shl.b32         %r8, %r7, 2               //   byte offset of element i
    add.u32         %r9, %r8, %r0             //   &x[i]
    ld.global.f32   %r10, [%r9]               //   x[i]
    add.u32         %r9, %r8, %r1             //   &y[i]
    ld.global.f32   %r11, [%r9]               //   y[i]
    fma.rn.f32      %r11, %r2, %r10, %r11     //   a * x[i] + y[i]
    st.global.f32   [%r9], %r11               //   y[i] = a * x[i] + y[i]
    add.u32         %r7, %r7, %r12            //   i += stride
    setp.lt.s32     %p0, %r7, %r3             //   i < n
    @%p0 bra        LOOP                      //   ... loop
    exit                                      // return

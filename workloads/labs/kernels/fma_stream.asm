// fma_stream.asm -- a streaming kernel whose FLOP per byte is a parameter
// (the labs of docs/labs/: arithmetic intensity, roofline, occupancy).
//   fma_stream  for (i = gid; i < n; i += gridDim.x * blockDim.x) {
//                   v = x[i];
//                   if (v > threshold) v = f^iters(v), f(v) = v * 0.999 + 0.5
//                   else               v = v * 0.5;
//                   y[i] = v; }
// Each element moves 8 bytes (x read, y written) and, on the costly path,
// takes iters dependent FMAs (2 FLOP each): 2 * iters / 8 = iters / 4 FLOP
// per byte, so iters picks where the kernel sits on the roofline. The FMA
// loop is unrolled by four, as nvcc unrolls a counted loop, so that the
// loop counter and branch take 3 issue slots per 4 FMAs and the FMA pipe,
// not the issue slot, sets the compute roof; a one-FMA loop takes the
// iters % 4 left over. The result equals the CPU reference `special` (the
// same FMAs in the same order).

.kernel fma_stream
.param .ptr x
.param .ptr y
.param .u32 n
.param .f32 threshold
.param .s32 iters
    ld.param.u32    %r0, [x]                  // x
    ld.param.u32    %r1, [y]                  // y
    ld.param.u32    %r2, [n]                  // n
    ld.param.f32    %r3, [threshold]          // threshold
    ld.param.s32    %r4, [iters]              // iters
    mov.u32         %r5, %ctaid.x             // blockIdx.x
    mov.u32         %r6, %ntid.x              // blockDim.x
    mov.u32         %r7, %tid.x               // threadIdx.x
    mad.lo.u32      %r8, %r5, %r6, %r7        // i = blockIdx.x * blockDim.x + threadIdx.x
    mov.u32         %r9, %nctaid.x            // gridDim.x
    mul.lo.u32      %r9, %r9, %r6             // stride = gridDim.x * blockDim.x
    and.b32         %r13, %r4, -4             // iters rounded down to a multiple of 4
    setp.ge.u32     %p0, %r8, %r2             // for (; i < n; i += stride)
    @%p0 exit                                 //   ... return
ELEMENT:
    shl.b32         %r10, %r8, 2              //   byte offset of element i
    add.u32         %r11, %r10, %r0           //   &x[i]
    ld.global.f32   %r12, [%r11]              //   v = x[i]
    setp.gt.f32     %p1, %r12, %r3            //   if (v > threshold) ... else
    @%p1 bra        COSTLY
    mul.f32         %r12, %r12, 0.5           //     v = v * 0.5
    bra             STORE
COSTLY:
    mov.u32         %r14, 0                   //     k = 0
    setp.ge.s32     %p2, %r14, %r13
    @%p2 bra        REST                      //     fewer than 4 left: the tail loop
BY4:
    fma.rn.f32      %r12, %r12, 0.999, 0.5    //       v = v * 0.999 + 0.5
    fma.rn.f32      %r12, %r12, 0.999, 0.5    //       (each FMA waits for the one before)
    fma.rn.f32      %r12, %r12, 0.999, 0.5
    fma.rn.f32      %r12, %r12, 0.999, 0.5
    add.s32         %r14, %r14, 4             //       k += 4
    setp.lt.s32     %p2, %r14, %r13
    @%p2 bra        BY4                       //     while (k < iters rounded down)
REST:
    setp.ge.s32     %p2, %r14, %r4
    @%p2 bra        STORE                     //     no FMA left
TAIL:
    fma.rn.f32      %r12, %r12, 0.999, 0.5    //       v = v * 0.999 + 0.5
    add.s32         %r14, %r14, 1             //       k++
    setp.lt.s32     %p2, %r14, %r4
    @%p2 bra        TAIL                      //     while (k < iters)
STORE:
    add.u32         %r11, %r10, %r1           //   &y[i]
    st.global.f32   [%r11], %r12              //   y[i] = v
    add.u32         %r8, %r8, %r9             //   i += stride
    setp.lt.u32     %p0, %r8, %r2             //   i < n
    @%p0 bra        ELEMENT                   //   ... next element
    exit                                      // return

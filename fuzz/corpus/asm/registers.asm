// registers.asm -- a memory-bound kernel for the register/occupancy case
// (teaching case 3): y[i] = a * x[i] + y[i] (SAXPY), one element per thread,
// grid = ceil(n / blockDim). It needs only a dozen registers; the workload's
// variants declare 32, 40, 64 and 128 registers per thread ("regs"), as a
// bigger kernel or a looser -maxrregcount would, to show occupancy follow
// the register count while the work stays the same.

.kernel saxpy
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

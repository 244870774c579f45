// bandwidth.asm -- streaming copy with 16-byte accesses, twin of copy4 in
// validate/micro/micro.cu: the DRAM bandwidth a kernel reaches.
// out[i] = in[i] for the n/4 float4s (n a multiple of 4).

.kernel copy4
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
    shr.u32         %r7, %r2, 2               // n / 4
    setp.ge.u32     %p0, %r6, %r7
    @%p0 exit
    shl.b32         %r8, %r6, 4               // byte offset of float4 number i
    add.u32         %r9, %r8, %r0
    ld.global.v4.f32 {%r10, %r11, %r12, %r13}, [%r9]
    add.u32         %r9, %r8, %r1
    st.global.v4.f32 [%r9], {%r10, %r11, %r12, %r13}
    exit

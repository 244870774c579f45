// coalescing.asm -- strided global reads (teaching case 8, text 002 section 2).
//   strided_read  out[i] = in[i * stride] for i < n; (in, out, stride, n).
// The 32 lanes of a warp read words `stride` apart: stride 1 reads 128
// contiguous bytes (4 sectors of 32 bytes), stride 2 spreads them over 8
// sectors, and from stride 8 (32 bytes) on every lane needs a sector of its
// own: 32 sectors per request, 28 of every 32 bytes fetched unused. The
// stores to out[i] stay contiguous (4 sectors per request).

.kernel strided_read
.param .ptr in
.param .ptr out
.param .s32 stride
.param .s32 n
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.s32    %r2, [stride]
    ld.param.s32    %r3, [n]
    mov.u32         %r4, %ctaid.x
    mov.u32         %r5, %ntid.x
    mov.u32         %r6, %tid.x
    mad.lo.u32      %r7, %r4, %r5, %r6        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.s32     %p0, %r7, %r3             // if (i >= n) return
    @%p0 exit
    mul.lo.u32      %r8, %r7, %r2             // i * stride
    shl.b32         %r8, %r8, 2
    add.u32         %r8, %r8, %r0
    ld.global.f32   %r9, [%r8]                // v = in[i * stride]: lanes 4*stride bytes apart
    shl.b32         %r10, %r7, 2
    add.u32         %r10, %r10, %r1
    st.global.f32   [%r10], %r9               // out[i] = v: lanes 4 bytes apart
    exit

// vecadd.asm -- c[i] = a[i] + b[i] over n floats (teaching cases 6 and 9).
//   vecadd_scalar  one element per thread: grid = ceil_div(n, block)
//   vecadd_float4  four elements per thread with 16-byte loads and stores
//                  (float4 in CUDA): grid = ceil_div(ceil_div(n, 4), block);
//                  the n % 4 elements left over are done by a grid-stride
//                  scalar tail loop. Same bytes moved, about a quarter of
//                  the memory instructions.

.kernel vecadd_scalar
.param .ptr a
.param .ptr b
.param .ptr c
.param .u32 n
    ld.param.u32    %r0, [a]
    ld.param.u32    %r1, [b]
    ld.param.u32    %r2, [c]
    ld.param.u32    %r3, [n]
    mov.u32         %r4, %ctaid.x
    mov.u32         %r5, %ntid.x
    mov.u32         %r6, %tid.x
    mad.lo.u32      %r7, %r4, %r5, %r6        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.u32     %p0, %r7, %r3             // if (i >= n) return
    @%p0 exit
    shl.b32         %r8, %r7, 2               // byte offset of element i
    add.u32         %r9, %r8, %r0
    ld.global.f32   %r10, [%r9]               // a[i]
    add.u32         %r9, %r8, %r1
    ld.global.f32   %r11, [%r9]               // b[i]
    add.f32         %r10, %r10, %r11          // a[i] + b[i]
    add.u32         %r9, %r8, %r2
    st.global.f32   [%r9], %r10               // c[i] = a[i] + b[i]
    exit

.kernel vecadd_float4
.param .ptr a
.param .ptr b
.param .ptr c
.param .u32 n
    ld.param.u32    %r0, [a]
    ld.param.u32    %r1, [b]
    ld.param.u32    %r2, [c]
    ld.param.u32    %r3, [n]
    mov.u32         %r4, %ctaid.x
    mov.u32         %r5, %ntid.x
    mov.u32         %r6, %tid.x
    mad.lo.u32      %r7, %r4, %r5, %r6        // i = blockIdx.x * blockDim.x + threadIdx.x
    shr.u32         %r8, %r3, 2               // n4 = n / 4 whole float4s
    setp.ge.u32     %p0, %r7, %r8             // if (i < n4) {
    @%p0 bra        TAIL
    shl.b32         %r9, %r7, 4               //   byte offset of float4 number i
    add.u32         %r10, %r9, %r0
    ld.global.v4.f32 {%r11, %r12, %r13, %r14}, [%r10] // va = ((float4 *)a)[i]
    add.u32         %r10, %r9, %r1
    ld.global.v4.f32 {%r15, %r16, %r17, %r18}, [%r10] // vb = ((float4 *)b)[i]
    add.f32         %r11, %r11, %r15          //   va.x + vb.x
    add.f32         %r12, %r12, %r16          //   va.y + vb.y
    add.f32         %r13, %r13, %r17          //   va.z + vb.z
    add.f32         %r14, %r14, %r18          //   va.w + vb.w
    add.u32         %r10, %r9, %r2
    st.global.v4.f32 [%r10], {%r11, %r12, %r13, %r14} // ((float4 *)c)[i] = va + vb }
TAIL:
    shl.b32         %r19, %r8, 2
    add.u32         %r19, %r19, %r7           // t = 4 * n4 + i
    mov.u32         %r20, %nctaid.x
    mul.lo.u32      %r20, %r20, %r5           // stride = gridDim.x * blockDim.x
LOOP:
    setp.ge.u32     %p1, %r19, %r3            // for (; t < n; t += stride)
    @%p1 exit
    shl.b32         %r21, %r19, 2
    add.u32         %r22, %r21, %r0
    ld.global.f32   %r23, [%r22]              //   a[t]
    add.u32         %r22, %r21, %r1
    ld.global.f32   %r24, [%r22]              //   b[t]
    add.f32         %r23, %r23, %r24
    add.u32         %r22, %r21, %r2
    st.global.f32   [%r22], %r23              //   c[t] = a[t] + b[t]
    add.u32         %r19, %r19, %r20
    bra             LOOP

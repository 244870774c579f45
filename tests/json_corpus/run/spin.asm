// spin.asm -- kernels for tests/json_corpus/run/fault.json.
//   early_return  a barrier that threads past 40 never reach
//   copy  out[row*n + col] = in[row*n + col] (as workloads/kernels/transpose.asm)
//   spin  counts to 2^32 before it exits: only a budget ends it in time

.kernel copy
.param .ptr in
.param .ptr out
.param .u32 n
    ld.param.u32    %r0, [in]
    ld.param.u32    %r1, [out]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // col
    mov.u32         %r3, %ctaid.y
    mov.u32         %r4, %ntid.y
    mov.u32         %r5, %tid.y
    mad.lo.u32      %r7, %r3, %r4, %r5        // row
    max.u32         %r8, %r6, %r7
    setp.ge.u32     %p0, %r8, %r2
    @%p0 exit
    mad.lo.u32      %r8, %r7, %r2, %r6        // row * n + col
    shl.b32         %r8, %r8, 2
    add.u32         %r9, %r8, %r0
    ld.global.f32   %r10, [%r9]
    add.u32         %r9, %r8, %r1
    st.global.f32   [%r9], %r10
    exit

.kernel spin
    mov.u32         %r0, 1
LOOP:
    add.u32         %r0, %r0, 1
    setp.ne.u32     %p0, %r0, 0               // until the counter wraps around
    @%p0 bra        LOOP
    exit

// early_return: threads past 40 leave before the block's barrier: a deadlock
.kernel early_return
    mov.u32         %r0, %tid.x
    setp.ge.u32     %p0, %r0, 40
    @%p0 bra        DONE
    bar.sync        0
DONE:
    exit

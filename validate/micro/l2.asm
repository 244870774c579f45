// l2.asm -- L2 request throughput, twins of scatter_store / line_store in
// validate/micro/micro.cu. Every thread stores 32 words `rounds` times into
// an L2-resident buffer; the two kernels store the same words with the same
// number of store instructions and differ only in how a warp's 32 lanes
// spread over lines:
//   scatter_store  thread g owns line g and stores word k of it in step k:
//                  one warp instruction touches 32 lines (32 requests of 4 B),
//                  as the naive transpose's column stores do.
//   line_store     warp w owns lines 32w .. 32w+31 and fills line 32w+k in
//                  step k, lane l storing word l: one line per instruction.
// Both leave out[i] = the id of the thread that owns word i.

.kernel scatter_store
.param .ptr out
.param .u32 rounds
    ld.param.u32    %r0, [out]
    ld.param.u32    %r1, [rounds]
    mov.u32         %r2, %ctaid.x
    mov.u32         %r3, %ntid.x
    mov.u32         %r4, %tid.x
    mad.lo.u32      %r5, %r2, %r3, %r4        // g
    shl.b32         %r6, %r5, 7               // g * 128: this thread's line
    add.u32         %r6, %r6, %r0
    mov.u32         %r7, 0                    // r
    setp.eq.u32     %p0, %r1, 0
    @%p0 bra        DONE
ROUND:
    mov.u32         %r8, 0                    // byte offset of word k
WORD:
    add.u32         %r9, %r6, %r8
    st.global.u32   [%r9], %r5                // out[g*32 + k] = g
    add.u32         %r8, %r8, 4
    setp.lt.u32     %p0, %r8, 128
    @%p0 bra        WORD
    add.u32         %r7, %r7, 1
    setp.lt.u32     %p0, %r7, %r1
    @%p0 bra        ROUND
DONE:
    exit

.kernel line_store
.param .ptr out
.param .u32 rounds
    ld.param.u32    %r0, [out]
    ld.param.u32    %r1, [rounds]
    mov.u32         %r2, %ctaid.x
    mov.u32         %r3, %ntid.x
    mov.u32         %r4, %tid.x
    mad.lo.u32      %r5, %r2, %r3, %r4        // g
    shr.u32         %r10, %r5, 5              // w = g / 32
    and.b32         %r11, %r5, 31             // lane
    shl.b32         %r6, %r10, 12             // w * 32 lines * 128 B
    shl.b32         %r11, %r11, 2
    add.u32         %r6, %r6, %r11            // + lane * 4
    add.u32         %r6, %r6, %r0
    mov.u32         %r7, 0                    // r
    setp.eq.u32     %p0, %r1, 0
    @%p0 bra        DONE
ROUND:
    mov.u32         %r8, 0                    // byte offset of line 32w + k
LINE:
    add.u32         %r9, %r6, %r8
    st.global.u32   [%r9], %r5                // out[(32w + k)*32 + lane] = g
    add.u32         %r8, %r8, 128
    setp.lt.u32     %p0, %r8, 4096
    @%p0 bra        LINE
    add.u32         %r7, %r7, 1
    setp.lt.u32     %p0, %r7, %r1
    @%p0 bra        ROUND
DONE:
    exit

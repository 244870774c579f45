// divergence.asm -- warp divergence (teaching case 1).
// Each thread runs 2000 iterations of x = x*c + 0.5 starting from
// x = float(threadIdx.x); c is 0.999 or 0.998. In `divergent` the choice
// depends on threadIdx.x % 2, so both loops run in every warp one after the
// other; in `uniform` it depends on (threadIdx.x / 32) % 2, so each warp
// runs one loop only.  out[blockIdx.x * blockDim.x + threadIdx.x] = x.

.kernel divergent
.param .ptr out
.param .s32 iters
    ld.param.u32    %r0, [out]
    ld.param.s32    %r1, [iters]
    mov.u32         %r2, %tid.x
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mad.lo.u32      %r5, %r3, %r4, %r2        // i = blockIdx.x * blockDim.x + threadIdx.x
    cvt.rn.f32.u32  %r6, %r2                  // x = (float)threadIdx.x
    mov.u32         %r7, 0                    // k = 0
    and.b32         %r8, %r2, 1               // threadIdx.x % 2
    setp.ne.u32     %p0, %r8, 0
    @%p0 bra        ODD
EVEN:
    setp.ge.s32     %p1, %r7, %r1             // while (k < iters)
    @%p1 bra        STORE
    fma.rn.f32      %r6, %r6, 0.999, 0.5      //   x = x * 0.999 + 0.5
    add.s32         %r7, %r7, 1               //   k++
    bra             EVEN
ODD:
    setp.ge.s32     %p1, %r7, %r1
    @%p1 bra        STORE
    fma.rn.f32      %r6, %r6, 0.998, 0.5      //   x = x * 0.998 + 0.5
    add.s32         %r7, %r7, 1
    bra             ODD
STORE:
    shl.b32         %r9, %r5, 2               // byte offset of out[i]
    add.u32         %r9, %r9, %r0
    st.global.f32   [%r9], %r6
    exit

.kernel uniform
.param .ptr out
.param .s32 iters
    ld.param.u32    %r0, [out]
    ld.param.s32    %r1, [iters]
    mov.u32         %r2, %tid.x
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mad.lo.u32      %r5, %r3, %r4, %r2        // i
    cvt.rn.f32.u32  %r6, %r2                  // x = (float)threadIdx.x
    mov.u32         %r7, 0                    // k = 0
    shr.u32         %r8, %r2, 5               // threadIdx.x / 32
    and.b32         %r8, %r8, 1               // ... % 2: the same for all 32 lanes of a warp
    setp.ne.u32     %p0, %r8, 0
    @%p0 bra        ODD
EVEN:
    setp.ge.s32     %p1, %r7, %r1
    @%p1 bra        STORE
    fma.rn.f32      %r6, %r6, 0.999, 0.5
    add.s32         %r7, %r7, 1
    bra             EVEN
ODD:
    setp.ge.s32     %p1, %r7, %r1
    @%p1 bra        STORE
    fma.rn.f32      %r6, %r6, 0.998, 0.5
    add.s32         %r7, %r7, 1
    bra             ODD
STORE:
    shl.b32         %r9, %r5, 2
    add.u32         %r9, %r9, %r0
    st.global.f32   [%r9], %r6
    exit

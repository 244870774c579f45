// histogram.asm -- a 256-bin histogram of n bytes' worth of values (u32
// elements in 0..255), one element per thread, as a student writes it.
//   hist_global  atomicAdd(&bins[v], 1) in global memory for every element:
//                the atomics are resolved at L2, and lanes that hit the same
//                bin are applied one after another
//   hist_shared  each block counts into 256 bins of shared memory (zeroed
//                first, bar.sync), bar.sync, then adds its 256 counts to the
//                global bins: n atomics in shared memory, 256 per block in
//                global memory. The block size must be at least 256.

.kernel hist_global
.param .ptr data
.param .ptr bins
.param .u32 n
    ld.param.u32    %r0, [data]
    ld.param.u32    %r1, [bins]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    mad.lo.u32      %r6, %r3, %r4, %r5        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.u32     %p0, %r6, %r2
    @%p0 exit                                 // if (i >= n) return
    shl.b32         %r7, %r6, 2
    add.u32         %r7, %r7, %r0
    ld.global.u32   %r8, [%r7]                // v = data[i]
    and.b32         %r8, %r8, 255             // v & 255: a bin
    shl.b32         %r8, %r8, 2
    add.u32         %r8, %r8, %r1
    atom.global.add.u32 %r9, [%r8], 1         // atomicAdd(&bins[v], 1)
    exit

.kernel hist_shared
.param .ptr data
.param .ptr bins
.param .u32 n
.shared local 1024                            // unsigned local[256]
    ld.param.u32    %r0, [data]
    ld.param.u32    %r1, [bins]
    ld.param.u32    %r2, [n]
    mov.u32         %r3, %ctaid.x
    mov.u32         %r4, %ntid.x
    mov.u32         %r5, %tid.x
    shl.b32         %r10, %r5, 2              // &local[tid]
    setp.ge.u32     %p1, %r5, 256
    @!%p1 st.shared.u32 [%r10+local], 0       // if (tid < 256) local[tid] = 0
    bar.sync        0
    mad.lo.u32      %r6, %r3, %r4, %r5        // i = blockIdx.x * blockDim.x + threadIdx.x
    setp.ge.u32     %p0, %r6, %r2
    @%p0 bra        MERGE                     // if (i < n)
    shl.b32         %r7, %r6, 2
    add.u32         %r7, %r7, %r0
    ld.global.u32   %r8, [%r7]                //   v = data[i]
    and.b32         %r8, %r8, 255
    shl.b32         %r8, %r8, 2
    atom.shared.add.u32 %r9, [%r8+local], 1   //   atomicAdd(&local[v], 1)
MERGE:
    bar.sync        0
    @%p1 exit                                 // if (tid < 256)
    ld.shared.u32   %r11, [%r10+local]        //   c = local[tid]
    setp.eq.u32     %p2, %r11, 0
    @%p2 exit                                 //   if (c) atomicAdd(&bins[tid], c)
    add.u32         %r12, %r10, %r1
    atom.global.add.u32 %r9, [%r12], %r11
    exit

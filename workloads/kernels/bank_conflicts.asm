// bank_conflicts.asm -- shared-memory bank conflicts (teaching case 10, text
// 002 section 3). Both kernels fill a 1024-word shared array with
// buf[w] = w (each thread stores words tid, tid + blockDim.x, ...: 32
// consecutive words per warp store, conflict-free), wait at the barrier,
// then add up `iters` shared loads and store the sum to
// out[blockIdx.x * blockDim.x + threadIdx.x]. Only the load addresses differ.
//   bank_stride   iteration k: lane L reads buf[(L * stride + k) % 1024],
//                 i.e. column k of a tile whose rows are `stride` words
//                 long. Words 4*stride bytes apart: stride 1 spreads the
//                 warp over the 32 banks; stride 2^j puts 2^j lanes on each
//                 bank (an s-way conflict, s wavefronts, up to 32); stride 0
//                 has every lane read one word (a broadcast, 1 wavefront); an
//                 odd stride such as 33 (a [32][33] padded tile) reaches
//                 all 32 banks.
//   bank_swizzle  column k of a 32x32 tile stored XOR-swizzled, element
//                 (r, c) at word r*32 + (c ^ r): lane L reads
//                 buf[L*32 + ((k ^ L) % 32)], 32 different banks, with no
//                 padding word.

.kernel bank_stride
.param .ptr out
.param .s32 stride
.param .s32 iters
.shared buf 4096                              // __shared__ unsigned buf[1024]
    ld.param.u32    %r0, [out]                // out
    ld.param.s32    %r1, [stride]             // stride
    ld.param.s32    %r2, [iters]              // iters
    mov.u32         %r3, %tid.x               // threadIdx.x
    mov.u32         %r4, %ntid.x              // blockDim.x
    mov.u32         %r5, %r3                  // w = threadIdx.x
FILL:
    shl.b32         %r6, %r5, 2               // w * 4
    st.shared.u32   [%r6+buf], %r5            // buf[w] = w
    add.u32         %r5, %r5, %r4             // w += blockDim.x
    setp.lt.u32     %p0, %r5, 1024            // while (w < 1024)
    @%p0 bra        FILL                      //   ... next word
    bar.sync        0                         // __syncthreads(): buf is filled
    and.b32         %r7, %r3, 31              // lane = threadIdx.x % 32
    mul.lo.u32      %r8, %r7, %r1             // lane * stride
    mov.u32         %r9, 0                    // k = 0
    mov.u32         %r10, 0                   // sum = 0
    setp.le.s32     %p1, %r2, 0               // for (k = 0; k < iters; k++)
    @%p1 bra        STORE                     //   (no iteration when iters <= 0)
LOOP:                                         //   (in the order ptxas schedules it: the counter and
                                              //   its compare before the load, which they do not need)
    add.u32         %r11, %r8, %r9            //   lane * stride + k
    add.s32         %r9, %r9, 1               //   k++
    and.b32         %r11, %r11, 1023          //   ... % 1024
    shl.b32         %r11, %r11, 2             //   * 4 bytes
    setp.lt.s32     %p1, %r9, %r2             //   k < iters
    ld.shared.u32   %r12, [%r11+buf]          //   buf[(lane * stride + k) % 1024]
    add.u32         %r10, %r10, %r12          //   sum += it
    @%p1 bra        LOOP                      // } while (k < iters)
STORE:
    mov.u32         %r13, %ctaid.x            // blockIdx.x
    mad.lo.u32      %r13, %r13, %r4, %r3      // i = blockIdx.x * blockDim.x + threadIdx.x
    shl.b32         %r13, %r13, 2             // i * 4
    add.u32         %r13, %r13, %r0           // &out[i]
    st.global.u32   [%r13], %r10              // out[i] = sum
    exit                                      // return

.kernel bank_swizzle
.param .ptr out
.param .s32 iters
.shared buf 4096                              // __shared__ unsigned buf[32 * 32]
    ld.param.u32    %r0, [out]                // out
    ld.param.s32    %r2, [iters]              // iters
    mov.u32         %r3, %tid.x               // threadIdx.x
    mov.u32         %r4, %ntid.x              // blockDim.x
    mov.u32         %r5, %r3                  // w = threadIdx.x
FILL:
    shl.b32         %r6, %r5, 2               // w * 4
    st.shared.u32   [%r6+buf], %r5            // buf[w] = w
    add.u32         %r5, %r5, %r4             // w += blockDim.x
    setp.lt.u32     %p0, %r5, 1024            // while (w < 1024)
    @%p0 bra        FILL                      //   ... next word
    bar.sync        0                         // __syncthreads(): buf is filled
    and.b32         %r7, %r3, 31              // lane = threadIdx.x % 32 (the tile row)
    shl.b32         %r8, %r7, 5               // lane * 32: start of row lane
    mov.u32         %r9, 0                    // k = 0
    mov.u32         %r10, 0                   // sum = 0
    setp.le.s32     %p1, %r2, 0               // for (k = 0; k < iters; k++)
    @%p1 bra        STORE                     //   (no iteration when iters <= 0)
LOOP:                                         //   (in the order ptxas schedules it)
    xor.b32         %r11, %r9, %r7            //   k ^ lane
    and.b32         %r11, %r11, 31            //   swizzled column (k ^ lane) % 32
    add.s32         %r9, %r9, 1               //   k++
    add.u32         %r11, %r11, %r8           //   lane * 32 + that column
    setp.lt.s32     %p1, %r9, %r2             //   k < iters
    shl.b32         %r11, %r11, 2             //   * 4 bytes
    ld.shared.u32   %r12, [%r11+buf]          //   buf[lane * 32 + ((k ^ lane) % 32)]
    add.u32         %r10, %r10, %r12          //   sum += it
    @%p1 bra        LOOP                      // } while (k < iters)
STORE:
    mov.u32         %r13, %ctaid.x            // blockIdx.x
    mad.lo.u32      %r13, %r13, %r4, %r3      // i = blockIdx.x * blockDim.x + threadIdx.x
    shl.b32         %r13, %r13, 2             // i * 4
    add.u32         %r13, %r13, %r0           // &out[i]
    st.global.u32   [%r13], %r10              // out[i] = sum
    exit                                      // return

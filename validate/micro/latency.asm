// latency.asm -- latency microbenchmarks, twins of validate/micro/micro.cu.
// Both sides run the same loops, rotated as nvcc compiles them (test once
// before the loop, compare-and-branch at the bottom), so cycles per step
// compare one to one, loop instructions included.
//
//   chase       one thread follows off = (off + buf[off]) & mask, buf filled
//               with the constant stride in bytes: `warm` untimed steps, then
//               `steps` steps between two %clock reads. out[0] = cycles,
//               out[1] = the final offset ((warm + steps) * stride % (mask+1)).
//   smem_chase  one thread fills a 1024-word shared array with arr[k] = byte
//               offset of arr[(k+1) % 1024], then follows it `steps` times.

.kernel chase
.param .ptr buf
.param .u32 mask
.param .u32 warm
.param .u32 steps
.param .ptr out
    ld.param.u32    %r0, [buf]
    ld.param.u32    %r1, [mask]
    ld.param.u32    %r2, [warm]
    ld.param.u32    %r3, [steps]
    ld.param.u32    %r4, [out]
    mov.u32         %r5, 0                    // off = 0
    mov.u32         %r6, 0                    // k = 0
    setp.eq.u32     %p0, %r2, 0
    @%p0 bra        TIMED
WARM:
    add.u32         %r7, %r0, %r5             // &buf[off] (CUDA: a 64-bit add)
    ld.global.u32   %r8, [%r7]
    add.u32         %r5, %r8, %r5             // off += buf[off]
    and.b32         %r5, %r5, %r1             // off &= mask
    add.u32         %r6, %r6, 1
    setp.lt.u32     %p0, %r6, %r2
    @%p0 bra        WARM
TIMED:
    mov.u32         %r9, %clock               // t0
    mov.u32         %r6, 0
    setp.eq.u32     %p0, %r3, 0
    @%p0 bra        DONE
LOOP:
    add.u32         %r7, %r0, %r5
    ld.global.u32   %r8, [%r7]                // the load each step waits for
    add.u32         %r5, %r8, %r5
    and.b32         %r5, %r5, %r1
    add.u32         %r6, %r6, 1
    setp.lt.u32     %p0, %r6, %r3
    @%p0 bra        LOOP
DONE:
    mov.u32         %r10, %clock              // t1
    sub.u32         %r10, %r10, %r9
    st.global.u32   [%r4], %r10               // out[0] = t1 - t0
    st.global.u32   [%r4+4], %r5              // out[1] = off
    exit

.kernel smem_chase
.param .u32 steps
.param .ptr out
.shared arr 4096                              // unsigned arr[1024]
    ld.param.u32    %r0, [steps]
    ld.param.u32    %r1, [out]
    mov.u32         %r2, 1                    // k + 1
    mov.u32         %r3, arr                  // &arr[k]
FILL:
    shl.b32         %r4, %r2, 2
    and.b32         %r4, %r4, 4092            // ((k + 1) % 1024) * 4
    st.shared.u32   [%r3], %r4                // arr[k] = offset of the next word
    add.u32         %r3, %r3, 4
    add.u32         %r2, %r2, 1
    setp.ne.u32     %p0, %r2, 1025
    @%p0 bra        FILL
    mov.u32         %r5, %clock               // t0
    mov.u32         %r6, 0                    // off = 0
    mov.u32         %r7, 0                    // k = 0
    setp.eq.u32     %p0, %r0, 0
    @%p0 bra        DONE
LOOP:
    ld.shared.u32   %r6, [%r6+arr]            // off = arr[off / 4]
    add.u32         %r7, %r7, 1
    setp.lt.u32     %p0, %r7, %r0
    @%p0 bra        LOOP
DONE:
    mov.u32         %r8, %clock               // t1
    sub.u32         %r8, %r8, %r5
    st.global.u32   [%r1], %r8                // out[0] = t1 - t0
    st.global.u32   [%r1+4], %r6              // out[1] = off
    exit

// Regression (fuzz_asm, UBSan): the executor computed a host pointer for
// every lane of a global access, inactive ones included, so an inactive
// lane holding an address below the active lanes' buffer overflowed the
// pointer arithmetic (isa/exec.c map_global). Here lane 0 holds 0 and sits
// out; lanes 1..31 load from the buffer.
.kernel inactive_lane_address
.param .ptr buf
    ld.param.u32    %r0, [buf]
    mov.u32         %r1, %laneid
    setp.eq.u32     %p0, %r1, 0
    @%p0 mov.u32    %r0, 0
    @!%p0 ld.global.f32 %r2, [%r0]
    exit

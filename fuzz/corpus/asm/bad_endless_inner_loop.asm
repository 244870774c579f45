.kernel k
    setp.eq.u32 %p0, %r1, 0
    @%p0 bra SPIN
    exit
SPIN:
    add.u32 %r2, %r2, 1
    bra SPIN

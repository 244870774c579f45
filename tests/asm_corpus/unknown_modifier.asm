.kernel k
    setp.lt.s32 %p0, %r1, 0
    setp.lx.s32 %p0, %r1, 0
    exit

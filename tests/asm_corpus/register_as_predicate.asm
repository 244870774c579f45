.kernel k
    setp.eq.s32 %r1, %r2, 0
    exit

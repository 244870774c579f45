.kernel k
    setp.eq.s32 %p8, %r1, 0
    exit

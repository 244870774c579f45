.kernel k
    setp.lt.lt.s32 %p1, %r1, %r2
    exit

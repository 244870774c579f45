.kernel k
    setp.lt.gt.s32 %p1, %r1, %r2
    exit

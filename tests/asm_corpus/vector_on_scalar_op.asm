.kernel k
    add.v2.s32 %r1, %r2, %r3
    exit

.kernel k
    add.s32 %r1, %r2, %r3, %r4
    exit

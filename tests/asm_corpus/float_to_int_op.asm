.kernel k
    add.s32 %r1, %r2, 1.5
    exit

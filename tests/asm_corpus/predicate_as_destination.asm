.kernel k
    add.s32 %p1, %r2, %r3
    exit

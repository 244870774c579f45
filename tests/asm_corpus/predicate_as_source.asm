.kernel k
    add.s32 %r1, %p2, %r3
    exit

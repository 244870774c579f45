.kernel k
    add.u32 %r1, %tid.x, 1
    exit

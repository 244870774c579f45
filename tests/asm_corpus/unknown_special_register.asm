.kernel k
    mov.u32 %r1, %tid.w
    exit

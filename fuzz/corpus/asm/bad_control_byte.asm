.kernel k
    mov.u32 %r1, 0
    exit

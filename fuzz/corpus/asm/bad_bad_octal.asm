.kernel k
    mov.u32 %r1, 08
    exit

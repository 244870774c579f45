.kernel k
    mov.u32 %r255, 0
    exit

.kernel k
    mov.u32 %r1, 0 # not a comment
    exit

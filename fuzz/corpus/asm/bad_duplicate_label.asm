.kernel k
L:
    mov.u32 %r1, 0
L:  exit

// the last instruction falls off the end
.kernel k
    mov.u32 %r1, 0
